/*
 * results_keys.h - the keys of results.json (schema preflight-results/1,
 * docs/results.md) in one machine-readable place: the metric paths a budget
 * may name. 'preflight check' refuses a budget whose metric names no key of
 * it (a typo would otherwise be "not measured" for ever), and prints the list
 * with --keys; a test holds the list, docs/results.md and what
 * 'preflight analyze' writes to each other. The same paths are the one
 * name of a metric in every command (compare, baseline, history); the
 * shorter names those used before are read still, mapped here.
 */
#ifndef PF_RESULTS_KEYS_H
#define PF_RESULTS_KEYS_H

#include <stdbool.h>
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

/*
 * pf_metric_path - a metric's one name, its results.json path, from either
 * spelling: "io.activation_latency.p99" (compare's subject.metric.stat, the
 * name baselines and history databases of earlier versions hold) gives
 * "tasks.io.activation_latency_ns.p99"; '*' may stand for the subject (a
 * budget's or a --tolerance-for glob's). True when it was the old spelling;
 * any other name is copied as it is.
 */
bool pf_metric_path(const char *name, char *out, size_t size);

/* pf_metric_old_name - the other way: compare's old subject.metric.stat of a path (true), else the path as it is */
bool pf_metric_old_name(const char *path, char *out, size_t size);

#endif
