/*
 * st_log.c - the names of the selftest's cases, as the injector log and
 * selftest.json write them (st_log.h).
 */
#include "st_log.h"

#include <stddef.h>

const char *st_case_name(int c)
{
	static const char *const names[] = {
		NULL, "block", "preempt", "timer", "overrun", "migrate", "event", "lost", "probe", "agree", "pi",
	};

	return c >= 1 && c <= ST_NCASES ? names[c] : NULL;
}
