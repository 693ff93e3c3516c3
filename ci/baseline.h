/*
 * baseline.h - the baseline file (schema preflight-baseline/1, docs/ci.md)
 * as 'preflight compare' reads it: identity, tolerances and, per metric,
 * the run-level values of the baseline runs.
 */
#ifndef CI_BASELINE_H
#define CI_BASELINE_H

#include <stddef.h>
#include <stdint.h>

struct json_t;

#define CI_BASELINE_SCHEMA "preflight-baseline/1"
#define CI_MIN_RUNS 10		/* baseline runs required unless --allow-small */

/* an effect floor: the largest of percent of the baseline median, an absolute value and histogram bins */
struct ci_tol {
	double  percent;	/* of the baseline median */
	double  abs;		/* in the metric's unit: ns for times (default 2000), else 0 */
	double  bins;		/* widths of the baseline's histogram bucket */
};
#define CI_TOL_DEFAULT { 10, 2000, 2 }	/* 10 %, 2 us (2000 in ns), 2 bins: docs/ci.md */

/*
 * ci_tol_parse - "10%,2us,2bins" (any subset, any order; numbers as budgets write
 * them, pf_parse_quantity: "2 µs" too; a bare number is an absolute value in the
 * metric's unit) over *t; 0 or -EINVAL (an empty SPEC included)
 */
int ci_tol_parse(const char *spec, struct ci_tol *t);

/* ci_tol_of - the tolerance of one metric key in a baseline: its own entry or the default */
struct ci_tol ci_tol_of(const struct json_t *baseline, const char *key);

/* ci_tol_value - the tolerance in the metric's unit for a baseline median and bucket width */
double ci_tol_value(const struct ci_tol *t, const char *unit, double median, double bin_width);

/*
 * ci_baseline_build - the baseline of the runs at paths (run directories, each
 * distinct) with the default tolerance dflt and the per-metric ones (the
 * caller keeps its reference) into *out, as 'baseline create' writes it; 0 or an exit
 * code after one error line. No minimum count: the caller's rule.
 */
int ci_baseline_build(char **paths, size_t n, const struct ci_tol *dflt, struct json_t *per_metric,
		      struct json_t **out);

#endif
