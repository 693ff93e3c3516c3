/*
 * markup.h - the one escape of text written into HTML or XML (the reviewer
 * report, compare's JUnit XML): safe as element text and as an attribute
 * value in either quote, so that a task name, a board or a phase from a run's
 * files is always text, never markup.
 */
#ifndef PF_MARKUP_H
#define PF_MARKUP_H

#include <stddef.h>
#include <stdio.h>

/* pf_markup_esc - write text (NULL: nothing) with < > & " ' as entities */
void pf_markup_esc(FILE *out, const char *text);

/* pf_markup_esc_str - pf_markup_esc into buf (truncated to fit, NUL-terminated); returns buf */
const char *pf_markup_esc_str(const char *text, char *buf, size_t size);

#endif
