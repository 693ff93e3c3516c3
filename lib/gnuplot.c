/*
 * gnuplot.c - quoting of the strings a gnuplot script is given (gnuplot.h).
 * report_plots.c (the reviewer report's figures) and ci/history.c (history
 * trend --plot) write their scripts through it.
 */
#include "gnuplot.h"

const char *pf_gp_quote(const char *s, char quote, char *buf, size_t size)
{
	size_t n = 0;

	if (!size)
		return buf;
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		size_t need = c == '\'' && quote == '\'' ? 2 : 1;

		if (n + need >= size)
			break;
		if (c < 0x20 || c == 0x7f)
			c = '?';
		else if (c == '"' && quote == '"')
			c = '\'';
		buf[n++] = (char)c;
		if (need == 2)
			buf[n++] = '\'';
	}
	buf[n] = '\0';
	return buf;
}
