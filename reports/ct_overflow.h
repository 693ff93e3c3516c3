/*
 * ct_overflow.h - the one sentence that says a cyclictest histogram
 * overflowed (issue 32.15), for the summary and the report alike.
 */
#ifndef PREFLIGHT_CT_OVERFLOW_H
#define PREFLIGHT_CT_OVERFLOW_H

#include <jansson.h>
#include <stddef.h>

/*
 * ct_overflow_text - the sentence of the "cyclictest" object of a results.json
 * 'res' whose histogram overflowed, into buf; 0 when it did not (or kept no
 * histogram), else the sentence's length
 */
int ct_overflow_text(json_t *res, char *buf, size_t size);

#endif
