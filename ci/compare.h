/*
 * compare.h - one verdict of 'preflight compare' (a metric of the new runs
 * judged against the baseline's runs) and the writers of its outputs:
 * TAP13, JUnit XML, compare.json and compare.md (ci/compare_out.c).
 */
#ifndef CI_COMPARE_H
#define CI_COMPARE_H

#include "ci/baseline.h"
#include "ci/runs.h"

#include <stdio.h>

#define CI_ALPHA 0.01		/* Mann-Whitney level for REGRESSED */
#define CI_TAIL_MIN 10		/* samples beyond a percentile, in every run */
#define CI_MAX_FACTOR 3.0	/* a maximum beyond this x the baseline envelope: REGRESSED from one run */

enum ci_state { CI_SAME, CI_REGRESSED, CI_UNKNOWN, CI_SKIP };
extern const char *const ci_state_name[];	/* "SAME", "REGRESSED", "UNKNOWN", "SKIP" */

struct ci_verdict {
	char    key[160], subject[64], metric[64], stat[16];
	enum ci_kind kind;
	const char *unit;
	enum ci_state state;
	const char *rule;	/* "zero-count", "samples", "mann-whitney", "envelope-3x", "missing", "tail-1e-6" */
	char    reason[512];	/* why, in words */
	double  base_median, base_min, base_max;
	size_t  base_runs;
	double  newv[64];	/* the new runs' values */
	size_t  nnew;
	double  new_median;
	double  shift;		/* Hodges-Lehmann shift; for a max: new median - baseline envelope */
	double  upper;		/* upper confidence bound of the shift (INFINITY: none) */
	double  p;		/* one-sided Mann-Whitney p (NAN: not tested) */
	double  tol;		/* the effect floor, in 'unit' */
	double  base_ci[2];	/* CI_TAIL: the baseline runs' 95 % intervals, lowest lower and highest upper end */
	double  new_ci[2];	/* CI_TAIL: the same of the new runs (NAN: not judged) */
};

/* the input of one judgement: run-level values of the baseline and the new runs */
struct ci_sample {
	const double   *v;
	const uint64_t *samples;	/* per run (CI_PCT: samples of the distribution) */
	size_t          n;
};

/* ci_judge - apply the rules of docs/ci.md to one metric; fills v (its names are the caller's) */
void ci_judge(struct ci_verdict *v, double q, const struct ci_sample *base, const struct ci_sample *new,
	      const struct ci_tol *tol);

/*
 * ci_judge_tail - rule tail-1e-6 (docs/ci.md) on the fitted 1e-6 levels of
 * one task's series, both sides with a model in every run: base and new
 * hold the levels, base_ci / new_ci the 95 % intervals per run (lo, hi);
 * fills v's numbers, state and reason
 */
void ci_judge_tail(struct ci_verdict *v, const struct ci_sample *base, const double (*base_ci)[2],
		   const struct ci_sample *new, const double (*new_ci)[2], const struct ci_tol *tol);

/* what the writers need beside the verdicts */
struct ci_report {
	const char *baseline;		/* path */
	const char *board, *scenario;
	const char *kernel_base, *kernel_new;
	struct ci_verdict *v;
	size_t  n;
	size_t  count[4];		/* per state */
	int     strict;
	struct json_t *unmatched;	/* keys of the new runs the baseline lacks (array, not compared) */
};

/* ci_fmt - a value with its unit for people: "21.3 us", "3", "58.8 %" */
void ci_fmt(char *buf, size_t size, double value, const char *unit);

/* ci_baseline_load - read and check a baseline file into *out; 0 or an exit code after one error line */
int ci_baseline_load(const char *path, struct json_t **out);

/* the writers: 0 or -errno */
int ci_write_tap(FILE *f, const struct ci_report *r);
int ci_write_junit(FILE *f, const struct ci_report *r);
/* ci_write_json - compare.json through lib/outfile.h: 0, -ENOMEM, or an exit code after one line */
int ci_write_json(const char *path, const struct ci_report *r);
int ci_write_md(FILE *f, const struct ci_report *r);

#endif
