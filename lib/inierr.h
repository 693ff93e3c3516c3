/*
 * inierr.h - the error side of preflight's INI parsers (inih does the parsing):
 * every configuration, scenario and budget error is reported once, as
 * "file:line: what is wrong", and the first error wins.
 */
#ifndef PF_INI_H
#define PF_INI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pf_ini_err {
	const char *file;	/* file name as the user gave it */
	char       *buf;	/* where the message goes */
	size_t      size;	/* size of buf */
	bool        failed;	/* an error was recorded */
};

/* pf_ini_verror - record "file:line: message" unless an error is already recorded */
void pf_ini_verror(struct pf_ini_err *e, int line, const char *fmt, va_list ap);

/*
 * pf_ini_overlong - after fgets(line, num, f) for inih: true when the line did
 * not fit the buffer (inih would parse its rest as a line of its own, so the
 * reader reports "line too long" at the line's own number instead)
 */
bool pf_ini_overlong(FILE *f, const char *line, int num);

#endif
