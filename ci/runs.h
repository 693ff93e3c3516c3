/*
 * runs.h - one run as 'preflight baseline' and 'preflight compare' see it:
 * its identity (where and how it was measured) and its run-level metrics,
 * one number per metric, named by its results.json path
 * ("tasks.io.activation_latency_ns.p99", lib/results_keys.h), read
 * from the run directory's results.json, sysinfo.json, run.json and
 * scenario.ini (docs/ci.md lists every metric and identity field).
 */
#ifndef CI_RUNS_H
#define CI_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_t;

/* what kind of number a metric is: it decides which rules apply (docs/ci.md) */
enum ci_kind {
	CI_PCT,		/* a percentile of a distribution: needs samples beyond it */
	CI_MAX,		/* the maximum of a distribution: envelope and 3x rules */
	CI_COUNT,	/* an event count: the zero rule */
	CI_VALUE,	/* any other number (a utilisation) */
	CI_TAIL,	/* a tail model's fitted level with its interval: rule tail-1e-6 alone */
};

extern const char *const ci_kind_name[];	/* "percentile", "max", "count", "value", "tail" */

/* The identity fields, in the order they are printed. */
enum ci_ident {
	CI_ID_BOARD, CI_ID_KERNEL, CI_ID_CONFIG, CI_ID_ISOLATION, CI_ID_SCENARIO,
	CI_ID_SCENARIO_HASH, CI_ID_SCHEMA, CI_ID_VERSION, CI_NIDENT
};
extern const char *const ci_ident_name[CI_NIDENT];	/* "board", "kernel_release", ... */
extern const bool ci_ident_must_match[CI_NIDENT];	/* compared unless --ignore-identity */

struct ci_metric {
	char    key[160];	/* "tasks.io.activation_latency_ns.p99": the results.json path */
	char    subject[64];	/* "io", "app", "run", "cpu0" */
	char    metric[64];	/* "activation_latency" */
	char    stat[16];	/* "p99", "max", "count", "run" */
	enum ci_kind kind;
	double  q;		/* CI_PCT: 0.99 */
	double  value;		/* in 'unit' */
	uint64_t samples;	/* samples of the distribution (CI_PCT, CI_MAX) */
	int64_t bin_width_ns;	/* the distribution's widest reported bucket */
	const char *unit;	/* "ns", "count", "fraction" */
	const struct json_t *dist;	/* the distribution object in the run's results (borrowed) */
};

/*
 * ci_tail - a task's fitted tail level of one series (results.json
 * tasks.*.tail.*.pwcet_ns.1e-6, docs/results.md): the latency exceeded with
 * probability CI_TAIL_P per activation and its 95 % interval, or why the run
 * has no model (compare's rule tail-1e-6, docs/ci.md)
 */
#define CI_TAIL_P 1e-6
#define CI_TAIL_PKEY "1e-6"
struct ci_tail {
	char    key[160];	/* "tasks.io.tail.activation_latency_ns.pwcet(1e-6)": check's budget name */
	char    subject[64];	/* the task */
	char    series[32];	/* "activation_latency", "response_time" */
	bool    model;		/* the model holds and gives a finite level and interval */
	double  level_ns, lo_ns, hi_ns;	/* the level and its 95 % interval (model only) */
	uint64_t samples;	/* samples of the series */
	const char *why;	/* no model: its reason (borrowed from the results) */
};

struct ci_run {
	char    path[1024];		/* the run directory (or the results.json given) */
	char    uuid[64];		/* run.json "uuid", "" when the run has none */
	char    ident[CI_NIDENT][256];
	struct json_t *results;		/* results.json, owned */
	struct ci_metric *m;
	size_t  n, cap;
	struct ci_tail *tail;		/* per task and series with a tail object (none without a job log) */
	size_t  ntail, tailcap;
};

/*
 * ci_run_load - read one run: 'path' is a run directory or a results.json
 * (its directory then holds the other files). 0, or an exit code after one
 * error line (PF_EXIT_USAGE: missing or bad input; PF_EXIT_INTERNAL).
 */
int ci_run_load(const char *path, struct ci_run *run);

/* ci_run_free - release what ci_run_load holds */
void ci_run_free(struct ci_run *run);

/* ci_run_find - the metric of a run with this key, or NULL */
const struct ci_metric *ci_run_find(const struct ci_run *run, const char *key);

/* ci_run_tail - the tail level of a run with this key, or NULL */
const struct ci_tail *ci_run_tail(const struct ci_run *run, const char *key);

/*
 * ci_metric_glob - does a glob ('*' any text) match a metric key, in its
 * results.json path or in the older subject.metric.stat spelling
 */
bool ci_metric_glob(const char *glob, const char *key);

/* ci_ident_index - the identity field of this name, or -1 */
int ci_ident_index(const char *name);

/* ci_hash_hex - FNV-1a 64 of bytes as 16 hex digits into out[17] */
void ci_hash_hex(const void *data, size_t len, char out[17]);

/*
 * ci_run_key - what tells one run from another: run.json's uuid, or for a
 * run of an older preflight without one "results-" and the hash of its
 * results; a copy of a run has its key (history, baseline and compare count
 * it once)
 */
void ci_run_key(const struct ci_run *run, char out[64]);

/* ci_runs_distinct - no run is given twice (by key): 0, or PF_EXIT_USAGE after one error line naming both */
int ci_runs_distinct(const struct ci_run *runs, size_t n);

#endif
