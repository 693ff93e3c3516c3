/*
 * inierr.c - first-error recording for the INI parsers (see inierr.h).
 */
#include "inierr.h"

#include <stdio.h>
#include <string.h>

void pf_ini_verror(struct pf_ini_err *e, int line, const char *fmt, va_list ap)
{
	char msg[400];

	if (e->failed)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	snprintf(e->buf, e->size, "%s:%d: %s", e->file, line, msg);
	e->failed = true;
}

bool pf_ini_overlong(FILE *f, const char *line, int num)
{
	size_t n = strlen(line);
	int c;

	if (n != (size_t)num - 1 || line[n - 1] == '\n')
		return false;
	c = getc(f);
	return c != EOF && c != '\n';
}
