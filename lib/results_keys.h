/*
 * results_keys.h - the keys of results.json (schema preflight-results/1,
 * docs/results.md) in one machine-readable place: the metric paths a budget
 * may name. 'preflight check' refuses a budget whose metric names no key of
 * it (a typo would otherwise be "not measured" for ever), and prints the list
 * with --keys; a test holds the list, docs/results.md and what
 * 'preflight analyze' writes to each other.
 */
#ifndef PF_RESULTS_KEYS_H
#define PF_RESULTS_KEYS_H

#include <stddef.h>
#include <stdio.h>

/*
 * pf_results_key_known - does a dotted metric path ('*' or an element's
 * name for an array element, keys with dots such as p99.9 whole) name a key
 * of the schema; when not, 'why' says which part is unknown
 */
int pf_results_key_known(const char *metric, char *why, size_t size);

/* pf_results_keys_print - every path the schema knows, one per line ("{stats}": a statistics object) */
void pf_results_keys_print(FILE *out);

#endif
