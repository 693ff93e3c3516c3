/*
 * results.h - what results.c offers: results.json (docs/results.md) from a
 * finished analysis, the CSV tables and the text summary made from it.
 */
#ifndef AN_RESULTS_H
#define AN_RESULTS_H

#include "types.h"

json_t *an_results_json(struct an_run *r);
int  an_write_csv(struct an_run *r, json_t *res, const char *dir);
void an_print_summary(struct an_run *r, json_t *res, FILE *out);

#endif
