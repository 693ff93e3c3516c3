/*
 * markup.c - escaping text for HTML and XML (markup.h). &#39; rather than
 * &apos;: HTML 4 readers know only the first.
 */
#define _GNU_SOURCE
#include "markup.h"

#include <string.h>

void pf_markup_esc(FILE *out, const char *text)
{
	for (const char *p = text ? text : ""; *p; p++) {
		switch (*p) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*p, out);
		}
	}
}

const char *pf_markup_esc_str(const char *text, char *buf, size_t size)
{
	FILE *f;

	if (!size)
		return buf;
	memset(buf, 0, size);
	/* one byte short of the buffer: its last byte stays the terminator */
	f = size > 1 ? fmemopen(buf, size - 1, "w") : NULL;
	if (!f)
		return buf;
	pf_markup_esc(f, text);
	fclose(f);
	return buf;
}
