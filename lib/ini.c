/*
 * ini.c - the INI line reader under inih (see ini.h): lines come from a
 * file or a string, are counted, and one that does not fit inih's buffer
 * stops the parse with an error at its own line.
 */
#include "ini.h"

#include <errno.h>
#include <string.h>

#define PF_INI_DEFAULT_LINE 200	/* inih's own buffer, when the caller asks for none */

void pf_ini_verror(struct pf_ini *p, int line, const char *fmt, va_list ap)
{
	char msg[400];

	if (p->failed)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (p->err_size)
		snprintf(p->err, p->err_size, "%s:%d: %s", p->file, line, msg);
	p->failed = true;
}

int pf_ini_error(struct pf_ini *p, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pf_ini_verror(p, line, fmt, ap);
	va_end(ap);
	return 0;
}

/* pf_ini_fail - record "file: why" for a file that cannot be opened or read; -err */
static int pf_ini_fail(struct pf_ini *p, int err)
{
	if (!p->failed && p->err_size)
		snprintf(p->err, p->err_size, "%s: %s", p->file, strerror(err));
	p->failed = true;
	return -err;
}

/* pf_ini_next_file - the next line of p->in into str; true when it fit */
static bool pf_ini_next_file(struct pf_ini *p, char *str, int num, bool *eof)
{
	size_t n;
	int c;

	*eof = !fgets(str, num, p->in);
	if (*eof)
		return true;
	n = strlen(str);
	if (n != (size_t)num - 1 || str[n - 1] == '\n')
		return true;
	c = getc(p->in);	/* a full buffer: fits only when the newline or the end is next */
	return c == EOF || c == '\n';
}

/* pf_ini_next_text - the next line of p->text into str; true when it fit */
static bool pf_ini_next_text(struct pf_ini *p, char *str, int num, bool *eof)
{
	const char *nl = strchr(p->text, '\n');
	size_t len = nl ? (size_t)(nl - p->text) : strlen(p->text);	/* without the newline */
	size_t n = nl ? len + 1 : len;

	*eof = !*p->text;
	if (*eof)
		return true;
	if (len > (size_t)num - 1)
		return false;
	if (n > (size_t)num - 1)
		n = (size_t)num - 1;	/* the line fits, its newline does not */
	memcpy(str, p->text, n);
	str[n] = '\0';
	p->text += nl ? len + 1 : len;
	return true;
}

struct pf_ini_stream {
	struct pf_ini *p;
	void *user;
	int read_errno;		/* the file could not be read */
};

/* pf_ini_reader - inih's reader: one line, counted, overlong lines refused at their own number */
static char *pf_ini_reader(char *str, int num, void *stream)
{
	struct pf_ini_stream *s = stream;
	struct pf_ini *p = s->p;
	bool eof, fits;

	if (p->failed || num < 2)
		return NULL;
	fits = p->in ? pf_ini_next_file(p, str, num, &eof) : pf_ini_next_text(p, str, num, &eof);
	if (eof) {
		if (p->in && ferror(p->in))
			s->read_errno = errno ? errno : EIO;
		return NULL;
	}
	p->line++;
	if (!fits) {
		pf_ini_error(p, p->line, "line too long (at most %d characters)", num - 1);
		return NULL;
	}
	/* a UTF-8 byte order mark (an editor's) is no part of the first line, for every reader */
	if (p->line == 1 && !strncmp(str, "\xef\xbb\xbf", 3))
		memmove(str, str + 3, strlen(str + 3) + 1);
	if (p->on_line)
		p->on_line(s->user, str);
	return str;
}

int pf_ini_parse(struct pf_ini *p, ini_handler handler, void *user)
{
	struct pf_ini_stream s = { .p = p, .user = user };
	FILE *opened = NULL;
	int ret;

	p->line = 0;
	p->failed = false;
	if (!p->in && !p->text) {
		opened = fopen(p->file, "re");
		if (!opened)
			return pf_ini_fail(p, errno);
		p->in = opened;
	}
	/* the same inih settings for every file of the suite */
	ini_max_line = p->max_line > 1 ? p->max_line : PF_INI_DEFAULT_LINE;
	ini_allow_multiline = true;
	ini_stop_on_first_error = true;
	ret = ini_parse_stream(pf_ini_reader, &s, handler, user);
	if (opened) {
		fclose(opened);
		p->in = NULL;
	}
	if (s.read_errno)	/* fopen takes a directory; reading it fails: never an empty file */
		return pf_ini_fail(p, s.read_errno);
	if (ret > 0)	/* inih's own syntax error, unless a handler said why */
		pf_ini_error(p, ret, "%s", p->syntax ? p->syntax : "syntax error");
	if (ret < 0)
		pf_ini_error(p, p->line, "cannot parse: %s", ret == -2 ? "out of memory" : "read error");
	return p->failed ? -EINVAL : 0;
}
