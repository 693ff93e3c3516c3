/*
 * gnuplot.h - strings from our inputs (task and thread names from a trace or
 * results.json, kernel releases, metric keys, file names) put into a gnuplot
 * script as data, never as code: inside a quoted string, quoted so that
 * nothing in them ends the string, the line or a data block.
 */
#ifndef PF_GNUPLOT_H
#define PF_GNUPLOT_H

#include <stddef.h>

/*
 * pf_gp_quote - 's' as the inside of a gnuplot string quoted by 'quote':
 * '\'' (a script's single-quoted string: a ' doubled, gnuplot's own rule) or
 * '"' (a column of a data line or data block, which has no escape: a " becomes
 * a '). Control characters (a newline would end the line) become '?'.
 * Truncated to fit 'size' (never half a doubled quote); returns buf.
 */
const char *pf_gp_quote(const char *s, char quote, char *buf, size_t size);

#endif
