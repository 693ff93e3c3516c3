/*
 * ini.h - preflight's one INI line reader: every INI file of the suite
 * (flightapp configurations and profiles, bench and simulator scenarios,
 * budgets) is parsed by inih through pf_ini_parse, so that each shares the
 * same rules: lines are counted, a line longer than the buffer is the error
 * "line too long (at most N characters)" at its own number (inih would
 * otherwise parse its rest as a line of its own), and the first error wins,
 * reported once as "file:line: what is wrong".
 *
 * The build puts lib/ on the include path, so this header is the one found
 * for "ini.h" and <ini.h>; it brings inih's own header with it, through
 * include_next outside the guard (a file of lib/ finds this header first in
 * its own directory, then again through -Ilib, and only that second one
 * reaches inih's).
 */
#include_next <ini.h>

#ifndef PF_INI_H
#define PF_INI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * pf_ini - one parse. The caller sets the fields above 'line' (and zeroes
 * the rest); the reader takes its lines from 'in' when set, else from 'text'
 * when set, else it opens 'file'.
 */
struct pf_ini {
	const char *file;	/* file name as the user gave it: in every message */
	FILE       *in;		/* an open file to read, or NULL */
	const char *text;	/* a string to read, or NULL */
	int         max_line;	/* longest line + 1 (0: inih's 200, so 199 characters) */
	const char *syntax;	/* message for a line inih cannot parse (NULL: "syntax error") */
	char       *err;	/* where the first error goes: "file:line: what" */
	size_t      err_size;	/* size of err */
	/* called with each line before inih sees it (a section known early), or NULL */
	void      (*on_line)(void *user, char *line);
	int         line;	/* lines read so far: the line a handler is called for */
	bool        failed;	/* an error was recorded */
};

/*
 * pf_ini_parse - parse with inih, calling handler(user, section, key, value)
 * for each key; a handler returns 0 after recording its error with
 * pf_ini_error. 0, -EINVAL (an error in the file, in p->err) or -errno (the
 * file could not be opened or read: "file: why" in p->err).
 */
int pf_ini_parse(struct pf_ini *p, ini_handler handler, void *user) __attribute__((warn_unused_result));

/* pf_ini_error - record "file:line: message" unless an error is already recorded; returns 0 for inih */
int pf_ini_error(struct pf_ini *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* pf_ini_verror - pf_ini_error with a va_list */
void pf_ini_verror(struct pf_ini *p, int line, const char *fmt, va_list ap);

#endif
