/*
 * inierr.c - first-error recording for the INI parsers (see inierr.h).
 */
#include "inierr.h"

#include <stdio.h>

void pf_ini_verror(struct pf_ini_err *e, int line, const char *fmt, va_list ap)
{
	char msg[400];

	if (e->failed)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	snprintf(e->buf, e->size, "%s:%d: %s", e->file, line, msg);
	e->failed = true;
}
