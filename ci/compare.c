/*
 * compare.c - 'preflight compare --baseline FILE RUN...': new runs judged
 * against a baseline, metric by metric, on run-level values (docs/ci.md):
 *
 *   1. a count zero in every baseline run and non-zero in a new run: REGRESSED;
 *   2. a percentile is compared only when every run has >= 10 samples beyond it;
 *   3. exact one-sided Mann-Whitney: REGRESSED needs p <= 0.01 and an effect
 *      above the tolerance (Hodges-Lehmann shift; for a maximum, the new
 *      median above the baseline envelope); SAME when the shift's upper
 *      confidence bound is below the tolerance; otherwise UNKNOWN;
 *   4. a maximum above 3x the baseline envelope: REGRESSED from one run;
 *   5. tail-1e-6: per task and series, the tail model's fitted 1e-6 level
 *      (results.json tasks.*.tail.*.pwcet_ns) is REGRESSED when every new
 *      run's 95 % interval lies above every baseline run's and the median
 *      level moved up beyond the tolerance; not judged (SKIP, with the
 *      reason) when any run, baseline or new, has no model;
 *   6. the runs' identity must match the baseline's (exit 2 naming fields).
 *
 * --self-check splits the baseline's own runs (A/A) to show how often
 * these rules cry wolf on runs that are alike by construction.
 */
#define _GNU_SOURCE
#include "ci/compare.h"
#include "ci/mw_stats.h"
#include "command.h"
#include "common.h"
#include "outfile.h"
#include "outguard.h"
#include "results_keys.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CMP_MAX_RUNS 64
#define CMP_SELF_SPLITS 20

const char *const ci_state_name[] = { "SAME", "REGRESSED", "UNKNOWN", "SKIP" };

static int cmp_run(int argc, char **argv);

const struct pf_command cmd_compare = {
	.name = "compare",
	.summary = "compare runs with a baseline: regressions, TAP / JUnit / JSON / Markdown",
	.usage =
	"usage: preflight compare --baseline FILE RUN... [options]\n"
	"       preflight compare --baseline FILE --self-check\n"
	"\n"
	"Judges each metric of the new runs (run directories of 'preflight run')\n"
	"against the baseline's runs (docs/ci.md): REGRESSED, SAME, UNKNOWN (not\n"
	"enough evidence either way: run more) or SKIP (cannot be compared).\n"
	"Prints TAP13 on stdout unless --tap names a file.\n"
	"\n"
	"rules (the rule each verdict names, docs/ci.md):\n"
	"  zero-count      a count zero in every baseline run, non-zero in a new run\n"
	"  samples         a percentile needs 10 samples beyond it in every run\n"
	"  mann-whitney    one-sided p <= 0.01 and a shift above the tolerance\n"
	"  envelope-3x     a maximum above 3x the baseline's largest\n"
	"  tail-1e-6       a task's fitted tail level at 1e-6 per activation: every\n"
	"                  new run's 95 % interval above every baseline run's and\n"
	"                  the median beyond the tolerance; not judged (SKIP, with\n"
	"                  the reason) when a run has no model (an assumption\n"
	"                  rejected, too few samples) or the baseline no levels\n"
	"\n"
	"options:\n"
	"  -b, --baseline FILE        a 'baseline create' file, or one run directory to\n"
	"                             compare against directly (required, no default)\n"
	"      --tap FILE             TAP13, a YAML block per test (default: stdout)\n"
	"      --junit FILE           JUnit XML: classname board.scenario.subject, name\n"
	"                             the metric's results.json path (default: none)\n"
	"      --json FILE            compare.json (default: none written)\n"
	"      --md FILE              compare.md table (default: none written)\n"
	"      --strict               UNKNOWN fails too (default: only REGRESSED fails)\n"
	"      --ignore-identity FIELD  do not require FIELD to match (repeatable):\n"
	"                             board, isolation, scenario, scenario_hash,\n"
	"                             results_schema\n"
	"                             (default: all of them must match)\n"
	"      --self-check           A/A: split the baseline's runs 20 times into\n"
	"                             baseline and 'new' and report the false alarms\n"
	"                             (default: off, compare RUN...)\n"
	"  -h, --help                 this text\n"
	"\n"
	"exit: 0 nothing regressed, 1 a metric regressed (with --strict: or is\n"
	"UNKNOWN), 2 bad input, identity mismatch, a run given twice (by run.json uuid)\n"
	"or one the baseline holds, or an output naming an input or a\n"
	"file a run's SHA256SUMS lists (refused before writing), 4 internal error\n",
	.run = cmp_run,
};

/* cmp_minmax - min and max of n values */
static void cmp_minmax(const double *v, size_t n, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < *lo)
			*lo = v[i];
		if (v[i] > *hi)
			*hi = v[i];
	}
}

/* cmp_tail_short - index of the first run with too few samples beyond the percentile q, or -1 */
static long cmp_tail_short(const struct ci_sample *s, double q)
{
	for (size_t i = 0; i < s->n; i++)
		if ((double)s->samples[i] * (1 - q) < CI_TAIL_MIN - 1e-9)
			return (long)i;
	return -1;
}

/*
 * cmp_bucket_ns - the width of the histogram bucket (lib/hist.h) holding a
 * value: 1 below 256, else 1/128 of the power of two at or below it
 */
static double cmp_bucket_ns(double v)
{
	double w = 1;

	v = fabs(v);
	while (v >= 256) {
		v /= 2;
		w *= 2;
	}
	return w;
}

/* cmp_verdict_values - what every rule shows: both sides' values and medians, the effect floor; no test yet */
static void cmp_verdict_values(struct ci_verdict *v, const struct ci_sample *base, const struct ci_sample *new,
			       const struct ci_tol *tol)
{
	v->p = NAN;
	v->shift = NAN;
	v->upper = NAN;
	v->base_runs = base->n;
	v->nnew = new->n < PF_ARRAY_SIZE(v->newv) ? new->n : PF_ARRAY_SIZE(v->newv);
	memcpy(v->newv, new->v, v->nnew * sizeof(*v->newv));
	v->base_median = ci_median(base->v, base->n);
	cmp_minmax(base->v, base->n, &v->base_min, &v->base_max);
	v->new_median = ci_median(new->v, new->n);
	/*
	 * "bins" are the buckets of the histogram the statistic was read from, at the
	 * baseline's value; a tail model's level is read from none: no bins
	 */
	v->tol = ci_tol_value(tol, v->unit, v->base_median,
			      v->kind == CI_PCT || v->kind == CI_MAX ? cmp_bucket_ns(v->base_median) : 0);
}

void ci_judge(struct ci_verdict *v, double q, const struct ci_sample *base, const struct ci_sample *new,
	      const struct ci_tol *tol)
{
	char e[32], t[32], u[32];
	double lo, hi, effect;
	long short_run;

	cmp_verdict_values(v, base, new, tol);
	if (!new->n || !base->n) {
		v->state = CI_SKIP;
		v->rule = "missing";
		snprintf(v->reason, sizeof(v->reason), "not measured in %s", new->n ? "the baseline" : "the new runs");
		return;
	}
	cmp_minmax(new->v, new->n, &lo, &hi);
	if (v->kind == CI_COUNT && v->base_max == 0) {
		v->rule = "zero-count";
		v->state = hi > 0 ? CI_REGRESSED : CI_SAME;
		snprintf(v->reason, sizeof(v->reason), hi > 0 ? "zero in all %zu baseline runs, %g in a new run" :
			 "zero in all %zu baseline runs and in the new runs", base->n, hi);
		return;
	}
	if (v->kind == CI_PCT) {
		const struct ci_sample *s = base;

		short_run = cmp_tail_short(base, q);
		if (short_run < 0) {
			s = new;
			short_run = cmp_tail_short(new, q);
		}
		if (short_run >= 0) {
			v->state = CI_SKIP;
			v->rule = "samples";
			snprintf(v->reason, sizeof(v->reason), "%s run %ld has %llu samples: %s needs %.0f for %d beyond it",
				 s == base ? "baseline" : "new", short_run + 1,
				 (unsigned long long)s->samples[short_run], v->stat, ceil(CI_TAIL_MIN / (1 - q) - 1e-9),
				 CI_TAIL_MIN);
			return;
		}
	}
	if (v->kind == CI_MAX && v->base_max > 0 && hi > CI_MAX_FACTOR * v->base_max) {
		v->state = CI_REGRESSED;
		v->rule = "envelope-3x";
		v->shift = hi - v->base_max;
		snprintf(v->reason, sizeof(v->reason), "a new run's max is %.1fx the baseline envelope (limit %.0fx)",
			 hi / v->base_max, CI_MAX_FACTOR);
		return;
	}
	v->rule = "mann-whitney";
	v->p = ci_mw_p_greater(base->v, base->n, new->v, new->n, NULL);
	v->shift = ci_hl_shift(base->v, base->n, new->v, new->n);
	v->upper = ci_hl_upper(base->v, base->n, new->v, new->n, CI_ALPHA);
	effect = v->kind == CI_MAX ? v->new_median - v->base_max : v->shift;
	ci_fmt(e, sizeof(e), effect, v->unit);
	ci_fmt(t, sizeof(t), v->tol, v->unit);
	ci_fmt(u, sizeof(u), v->upper, v->unit);
	if (v->p >= 0 && v->p <= CI_ALPHA && effect > v->tol) {
		v->state = CI_REGRESSED;
		snprintf(v->reason, sizeof(v->reason), "p %.4f <= %.2f and %s %s above the tolerance %s",
			 v->p, CI_ALPHA, v->kind == CI_MAX ? "new median over the envelope by" : "shift", e, t);
	} else if (v->upper < v->tol) {
		v->state = CI_SAME;
		snprintf(v->reason, sizeof(v->reason), "shift below the tolerance %s at 99 %% confidence (upper bound %s)",
			 t, u);
	} else if (v->p >= 0 && v->p <= CI_ALPHA) {
		v->state = CI_UNKNOWN;
		snprintf(v->reason, sizeof(v->reason), "significant (p %.4f) but the effect %s is within the tolerance %s, "
			 "and a larger one is not excluded (up to %s)", v->p, e, t, u);
	} else {
		v->state = CI_UNKNOWN;
		snprintf(v->reason, sizeof(v->reason), "p %.4f: no evidence of a shift, but one up to %s is not excluded "
			 "(tolerance %s): more runs would tell", v->p, u, t);
	}
}

/* cmp_ci_span - the lowest lower and the highest upper end of n intervals */
static void cmp_ci_span(const double (*ci)[2], size_t n, double out[2])
{
	out[0] = INFINITY;
	out[1] = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (ci[i][0] < out[0])
			out[0] = ci[i][0];
		if (ci[i][1] > out[1])
			out[1] = ci[i][1];
	}
}

void ci_judge_tail(struct ci_verdict *v, const struct ci_sample *base, const double (*base_ci)[2],
		   const struct ci_sample *new, const double (*new_ci)[2], const struct ci_tol *tol)
{
	char sh[32], t[32], bl[32], bh[32], nl[32], nh[32];

	v->rule = "tail-1e-6";
	v->kind = CI_TAIL;
	v->unit = "ns";
	cmp_verdict_values(v, base, new, tol);
	v->shift = v->new_median - v->base_median;
	cmp_ci_span(base_ci, base->n, v->base_ci);
	cmp_ci_span(new_ci, new->n, v->new_ci);
	ci_fmt(sh, sizeof(sh), v->shift, "ns");
	ci_fmt(t, sizeof(t), v->tol, "ns");
	ci_fmt(bl, sizeof(bl), v->base_ci[0], "ns");
	ci_fmt(bh, sizeof(bh), v->base_ci[1], "ns");
	ci_fmt(nl, sizeof(nl), v->new_ci[0], "ns");
	ci_fmt(nh, sizeof(nh), v->new_ci[1], "ns");
	if (v->new_ci[0] > v->base_ci[1] && v->shift > v->tol) {
		v->state = CI_REGRESSED;
		snprintf(v->reason, sizeof(v->reason), "the 1e-6 level moved up: every new run's 95 %% interval "
			 "(%s..%s) lies above every baseline run's (%s..%s), median shift %s above the tolerance %s",
			 nl, nh, bl, bh, sh, t);
	} else if (v->new_ci[1] < v->base_ci[0] && v->shift < -v->tol) {
		v->state = CI_SAME;
		snprintf(v->reason, sizeof(v->reason), "improved: every new run's 95 %% interval (%s..%s) lies below "
			 "every baseline run's (%s..%s), median shift %s beyond the tolerance %s", nl, nh, bl, bh, sh, t);
	} else if (v->new_ci[1] <= v->base_ci[1] + v->tol) {
		v->state = CI_SAME;
		snprintf(v->reason, sizeof(v->reason), "the new runs' 95 %% intervals end at %s, within the baseline's "
			 "%s plus the tolerance %s (median shift %s)", nh, bh, t, sh);
	} else {
		v->state = CI_UNKNOWN;
		snprintf(v->reason, sizeof(v->reason), "the 95 %% intervals overlap (new %s..%s, baseline %s..%s): "
			 "a move up beyond the tolerance %s is neither shown nor excluded: longer runs narrow them",
			 nl, nh, bl, bh, t);
	}
}

/* the baseline's values of one metric, as arrays */
struct cmp_base {
	double   v[CMP_MAX_RUNS];
	uint64_t s[CMP_MAX_RUNS];
	size_t   n;
};

/* cmp_base_of - the values and samples of a baseline metric object; -EINVAL when malformed */
static int cmp_base_of(const json_t *o, struct cmp_base *b)
{
	json_t *vals = json_object_get(o, "values"), *samples = json_object_get(o, "samples"), *x;
	size_t i;

	b->n = 0;
	if (!json_is_array(vals) || json_array_size(vals) > CMP_MAX_RUNS ||
	    json_array_size(samples) != json_array_size(vals))
		return -EINVAL;
	json_array_foreach(vals, i, x) {
		if (!json_is_number(x))
			return -EINVAL;
		b->v[i] = json_number_value(x);
		b->s[i] = (uint64_t)json_integer_value(json_array_get(samples, i));
	}
	b->n = json_array_size(vals);
	return 0;
}

/* cmp_names - the names of a verdict from its baseline metric object */
static void cmp_names(struct ci_verdict *v, const char *key, const json_t *o)
{
	const char *kind = json_string_value(json_object_get(o, "kind")), *unit;

	snprintf(v->key, sizeof(v->key), "%s", key);
	snprintf(v->subject, sizeof(v->subject), "%s", json_string_value(json_object_get(o, "subject")) ?: "?");
	snprintf(v->metric, sizeof(v->metric), "%s", json_string_value(json_object_get(o, "metric")) ?: "?");
	snprintf(v->stat, sizeof(v->stat), "%s", json_string_value(json_object_get(o, "stat")) ?: "?");
	v->kind = CI_VALUE;
	for (int k = CI_PCT; k <= CI_VALUE; k++)
		if (kind && !strcmp(kind, ci_kind_name[k]))
			v->kind = k;
	unit = json_string_value(json_object_get(o, "unit"));
	v->unit = !unit ? "" : !strcmp(unit, "ns") ? "ns" : !strcmp(unit, "count") ? "count" :
		  !strcmp(unit, "fraction") ? "fraction" : "";
}

/* cmp_strcmp - qsort order of strings */
static int cmp_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * cmp_baseline_names - a baseline of an earlier version keys its metrics
 * subject.metric.stat: each renamed to its results.json path, the one name
 * compare judges and prints, in the order of those names (as a baseline of
 * this version has them); 0 or -ENOMEM
 */
static int cmp_baseline_names(json_t *metrics)
{
	size_t n = json_object_size(metrics), i = 0;
	char **keys = calloc(n ? n : 1, sizeof(*keys));
	json_t *named = json_object(), *o;
	const char *key;
	int ret = -ENOMEM;

	if (!keys || !named)
		goto out;
	json_object_foreach(metrics, key, o) {
		char path[160];

		pf_metric_path(key, path, sizeof(path));
		if (json_object_set(named, path, o) || !(keys[i++] = strdup(path)))
			goto out;
	}
	qsort(keys, i, sizeof(*keys), cmp_strcmp);
	json_object_clear(metrics);
	for (size_t k = 0; k < i; k++)
		if (json_object_set(metrics, keys[k], json_object_get(named, keys[k])))
			goto out;
	ret = 0;
out:
	for (size_t k = 0; k < i; k++)
		free(keys[k]);
	free(keys);
	json_decref(named);
	return ret;
}

/* ci_baseline_load - read and check a baseline file; 0 or an exit code after one error line */
int ci_baseline_load(const char *path, json_t **out)
{
	json_error_t je;
	json_t *b = json_load_file(path, 0, &je);
	const char *schema;

	if (!b)
		return pf_fail(PF_EXIT_USAGE, "%s: %s", path, je.text);
	schema = json_string_value(json_object_get(b, "schema"));
	if (!schema || strcmp(schema, CI_BASELINE_SCHEMA) || !json_is_object(json_object_get(b, "metrics"))) {
		/* the message before the decref: schema points into b */
		int rc = pf_fail(PF_EXIT_USAGE, "%s: not a baseline (schema %s, expected %s)", path,
				 schema ? schema : "(none)", CI_BASELINE_SCHEMA);

		json_decref(b);
		return rc;
	}
	if (cmp_baseline_names(json_object_get(b, "metrics"))) {
		json_decref(b);
		return pf_fail(PF_EXIT_INTERNAL, "%s: %s", path, strerror(ENOMEM));
	}
	*out = b;
	return 0;
}

/*
 * cmp_baseline_of - the baseline at path: a 'baseline create' file, or a run
 * directory, one run made a baseline here (run against run: a shift needs
 * more runs to be told, so most metrics are UNKNOWN; a new non-zero count and
 * a maximum beyond the envelope are told from one run); 0 or an exit code
 */
static int cmp_baseline_of(const char *path, json_t **out)
{
	struct ci_tol dflt = CI_TOL_DEFAULT;
	struct stat st;
	json_t *per;
	char *one[1] = { (char *)path };
	int ret;

	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return ci_baseline_load(path, out);
	per = json_object();
	if (!per)
		return pf_fail(PF_EXIT_INTERNAL, "%s", strerror(ENOMEM));
	ret = ci_baseline_build(one, 1, &dflt, per, out);
	json_decref(per);
	return ret;
}

/*
 * cmp_in_baseline - a run the baseline was made of is no new run: judged
 * against itself it would pass whatever it holds; exit 2 naming it
 */
static int cmp_in_baseline(const json_t *bl, const char *bpath, const struct ci_run *runs, size_t n)
{
	const char *have;
	char key[64];
	json_t *b;
	size_t k;

	for (size_t i = 0; i < n; i++) {
		ci_run_key(&runs[i], key);
		json_array_foreach(json_object_get(bl, "runs"), k, b) {
			have = json_string_value(json_object_get(b, "uuid"));
			if (have && !strcmp(have, key))
				return pf_fail(PF_EXIT_USAGE, "%s: run %s is in the baseline %s (runs[%zu], %s): "
					       "compare judges new runs only", runs[i].path, key, bpath, k,
					       json_string_value(json_object_get(b, "path")) ?: "?");
		}
	}
	return 0;
}

/* cmp_identity - rule 6 (docs/ci.md): every must-match field of every run equals the baseline's, else exit 2 naming them */
static int cmp_identity(const json_t *bl, struct ci_run *runs, size_t n, const bool *ignore)
{
	json_t *id = json_object_get(bl, "identity");
	char fields[8192] = "";

	for (int f = 0; f < CI_NIDENT; f++) {
		const char *want = json_string_value(json_object_get(id, ci_ident_name[f]));

		if (!ci_ident_must_match[f] || ignore[f] || !want)
			continue;
		for (size_t i = 0; i < n; i++)
			if (strcmp(runs[i].ident[f], want)) {
				snprintf(fields + strlen(fields), sizeof(fields) - strlen(fields),
					 "%s%s (baseline '%s', %s '%s')", *fields ? ", " : "", ci_ident_name[f],
					 want, runs[i].path, runs[i].ident[f]);
				break;
			}
	}
	if (*fields)
		return pf_fail(PF_EXIT_USAGE, "identity mismatch: %s (--ignore-identity FIELD to compare anyway)",
			       fields);
	return 0;
}

/* cmp_tail_skip - rule tail-1e-6 not judged, with its reason */
static void cmp_tail_skip(struct ci_verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cmp_tail_skip(struct ci_verdict *v, const char *fmt, ...)
{
	va_list ap;

	v->state = CI_SKIP;
	v->rule = "tail-1e-6";
	v->p = v->shift = v->upper = v->tol = NAN;
	v->base_median = v->base_min = v->base_max = v->new_median = NAN;
	v->base_ci[0] = v->base_ci[1] = v->new_ci[0] = v->new_ci[1] = NAN;
	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

/*
 * cmp_tail_one - rule tail-1e-6 on one task's series: judged only when every
 * run, baseline and new, has a model (an assumption rejected, too few samples:
 * not judged, SKIP with the first such run's reason); o is the baseline's
 * entry (NULL: the baseline has none)
 */
static void cmp_tail_one(struct ci_verdict *v, const char *key, const json_t *o, const json_t *bl,
			 struct ci_run *runs, size_t n)
{
	json_t *bruns = json_object_get(bl, "runs"), *vals = json_object_get(o, "values"), *cis = json_object_get(o, "ci");
	json_t *absent = json_object_get(o, "absent"), *x;
	double bv[CMP_MAX_RUNS], nv[CMP_MAX_RUNS], bci[CMP_MAX_RUNS][2], nci[CMP_MAX_RUNS][2];
	uint64_t bs[CMP_MAX_RUNS], ns[CMP_MAX_RUNS];
	struct ci_sample sb = { bv, bs, 0 }, sn = { nv, ns, 0 };
	struct ci_tol tol = ci_tol_of(bl, key);
	const struct ci_tail *t = NULL;
	size_t i, have = 0;

	for (i = 0; i < n && !t; i++)
		t = ci_run_tail(&runs[i], key);
	snprintf(v->key, sizeof(v->key), "%s", key);
	snprintf(v->subject, sizeof(v->subject), "%s", json_string_value(json_object_get(o, "subject")) ?: t ? t->subject : "?");
	snprintf(v->metric, sizeof(v->metric), "%s_tail", json_string_value(json_object_get(o, "series")) ?: t ? t->series : "?");
	snprintf(v->stat, sizeof(v->stat), "pwcet(%s)", CI_TAIL_PKEY);
	v->kind = CI_TAIL;
	v->unit = "ns";
	v->base_runs = json_array_size(bruns);
	if (!o) {
		cmp_tail_skip(v, json_object_get(bl, "tails") ? "no baseline run has a tail for it (no job log): not judged" :
			      "the baseline holds no tail levels (made before compare judged tails): not judged; "
			      "make it again with this preflight to judge it");
		return;
	}
	json_array_foreach(absent, i, x) {
		json_int_t r = json_integer_value(json_object_get(x, "run"));

		cmp_tail_skip(v, "baseline run %lld (%s): no tail model: %s: not judged", (long long)r + 1,
			      json_string_value(json_object_get(json_array_get(bruns, (size_t)r), "path")) ?: "?",
			      json_string_value(json_object_get(x, "reason")) ?: "?");
		return;
	}
	if (!json_is_array(vals) || json_array_size(vals) > CMP_MAX_RUNS || json_array_size(cis) != json_array_size(vals)) {
		cmp_tail_skip(v, "the baseline's tail levels are malformed: not judged");
		return;
	}
	if (json_array_size(vals) < json_array_size(bruns)) {
		cmp_tail_skip(v, "%zu of %zu baseline runs have no tail for it (no job log): not judged",
			      json_array_size(bruns) - json_array_size(vals), json_array_size(bruns));
		return;
	}
	json_array_foreach(vals, i, x) {
		json_t *lo = json_array_get(json_array_get(cis, i), 0), *hi = json_array_get(json_array_get(cis, i), 1);

		bv[i] = json_number_value(x);
		bs[i] = (uint64_t)json_integer_value(json_array_get(json_object_get(o, "samples"), i));
		bci[i][0] = json_number_value(lo);
		bci[i][1] = json_number_value(hi);
		if (!json_is_number(x) || !json_is_number(lo) || !json_is_number(hi) ||
		    !(bci[i][0] <= bv[i] && bv[i] <= bci[i][1])) {
			cmp_tail_skip(v, "the baseline's tail level %zu is malformed (a number inside its interval): "
				      "not judged", i + 1);
			return;
		}
	}
	sb.n = json_array_size(vals);
	for (i = 0; i < n; i++) {
		t = ci_run_tail(&runs[i], key);
		if (!t) {
			cmp_tail_skip(v, "new run %zu (%s) has no tail for it (no job log): not judged", i + 1, runs[i].path);
			return;
		}
		if (!t->model) {
			cmp_tail_skip(v, "new run %zu (%s): no tail model: %s: not judged", i + 1, runs[i].path, t->why);
			return;
		}
		nv[have] = t->level_ns;
		ns[have] = t->samples;
		nci[have][0] = t->lo_ns;
		nci[have++][1] = t->hi_ns;
	}
	sn.n = have;
	ci_judge_tail(v, &sb, (const double (*)[2])bci, &sn, (const double (*)[2])nci, &tol);
}

/*
 * cmp_judge_tails - rule tail-1e-6: one verdict per tail level of the
 * baseline and per one of the new runs the baseline lacks (an older
 * baseline: said, not judged), appended to r->v; 0 or -ENOMEM
 */
static int cmp_judge_tails(const json_t *bl, struct ci_run *runs, size_t n, struct ci_report *r)
{
	json_t *tails = json_object_get(bl, "tails"), *o, *keys = json_object();
	struct ci_verdict *grown;
	const char *key;
	size_t extra;

	if (!keys)
		return -ENOMEM;
	json_object_foreach(tails, key, o)
		json_object_set_new(keys, key, json_true());
	for (size_t k = 0; k < n; k++)
		for (size_t j = 0; j < runs[k].ntail; j++)
			json_object_set_new(keys, runs[k].tail[j].key, json_true());
	extra = json_object_size(keys);
	grown = realloc(r->v, (r->n + extra + 1) * sizeof(*r->v));
	if (!grown) {
		json_decref(keys);
		return -ENOMEM;
	}
	r->v = grown;
	memset(r->v + r->n, 0, (extra + 1) * sizeof(*r->v));
	json_object_foreach(keys, key, o)
		cmp_tail_one(&r->v[r->n++], key, json_object_get(tails, key), bl, runs, n);
	json_decref(keys);
	return 0;
}

/* cmp_tally - count the states of the verdicts */
static void cmp_tally(struct ci_report *r)
{
	memset(r->count, 0, sizeof(r->count));
	for (size_t i = 0; i < r->n; i++)
		r->count[r->v[i].state]++;
}

/* cmp_judge_all - one verdict per baseline metric, from the new runs' values */
static int cmp_judge_all(const json_t *bl, struct ci_run *runs, size_t n, struct ci_report *r)
{
	json_t *metrics = json_object_get(bl, "metrics"), *o;
	const char *key;
	size_t i = 0;

	r->v = calloc(json_object_size(metrics) + 1, sizeof(*r->v));
	if (!r->v)
		return -ENOMEM;
	json_object_foreach(metrics, key, o) {
		struct ci_verdict *v = &r->v[i++];
		struct cmp_base b;
		double nv[CMP_MAX_RUNS];
		uint64_t ns[CMP_MAX_RUNS];
		struct ci_sample sb, sn = { nv, ns, 0 };
		struct ci_tol tol = ci_tol_of(bl, key);

		cmp_names(v, key, o);
		if (cmp_base_of(o, &b))
			return -EINVAL;
		for (size_t k = 0; k < n; k++) {
			const struct ci_metric *m = ci_run_find(&runs[k], key);

			if (m) {
				nv[sn.n] = m->value;
				ns[sn.n++] = m->samples;
			}
		}
		/* a metric some new run lacks is not compared on the others alone */
		if (sn.n && sn.n < n)
			sn.n = 0;
		sb = (struct ci_sample){ b.v, b.s, b.n };
		ci_judge(v, json_number_value(json_object_get(o, "q")), &sb, &sn, &tol);
	}
	r->n = i;
	if (cmp_judge_tails(bl, runs, n, r))
		return -ENOMEM;
	cmp_tally(r);
	/* what the new runs measure and the baseline does not (a new task): said, not judged */
	r->unmatched = json_array();
	for (size_t k = 0; k < n && r->unmatched; k++)
		for (size_t j = 0; j < runs[k].n; j++) {
			const char *nkey = runs[k].m[j].key;
			size_t u;
			json_t *x;
			int seen = !!json_object_get(metrics, nkey);

			json_array_foreach(r->unmatched, u, x)
				seen |= !strcmp(json_string_value(x), nkey);
			if (!seen)
				json_array_append_new(r->unmatched, json_string(nkey));
		}
	return r->unmatched ? 0 : -ENOMEM;
}

/* cmp_shuffle - a Fisher-Yates shuffle of idx[] with a fixed-seed generator (xorshift64) */
static void cmp_shuffle(size_t *idx, size_t n, uint64_t *state)
{
	for (size_t i = n; i > 1; i--) {
		size_t j;

		*state ^= *state << 13;
		*state ^= *state >> 7;
		*state ^= *state << 17;
		j = (size_t)(*state % i);
		size_t t = idx[i - 1];
		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

/*
 * cmp_split - the runs of one A/A round: idx[] the n baseline values shuffled,
 * the first (returned) count the 'new' runs; the same split for every metric
 * of one round (runs, not values, are drawn)
 */
static size_t cmp_split(size_t n, int split, size_t *idx)
{
	uint64_t st = 0x9e3779b97f4a7c15ULL + (uint64_t)split * 0x2545f4914f6cdd1dULL;

	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	cmp_shuffle(idx, n, &st);
	return n >= 9 ? 3 : n / 3;
}

/*
 * cmp_self_tail - one A/A round of rule tail-1e-6 on a baseline's tail entry
 * (only one whose every run has a model: the others are never judged); the
 * state, or -1 when not split
 */
static int cmp_self_tail(const json_t *bl, const char *key, const json_t *o, int split, struct ci_verdict *v)
{
	json_t *vals = json_object_get(o, "values"), *cis = json_object_get(o, "ci");
	double bv[CMP_MAX_RUNS], nv[CMP_MAX_RUNS], bci[CMP_MAX_RUNS][2], nci[CMP_MAX_RUNS][2];
	uint64_t bs[CMP_MAX_RUNS] = { 0 }, ns[CMP_MAX_RUNS] = { 0 };
	struct ci_sample sb = { bv, bs, 0 }, sn = { nv, ns, 0 };
	struct ci_tol tol = ci_tol_of(bl, key);
	size_t n = json_array_size(vals), idx[CMP_MAX_RUNS], nnew;

	if (n < 4 || n > CMP_MAX_RUNS || json_array_size(cis) != n || json_array_size(json_object_get(o, "absent")))
		return -1;
	nnew = cmp_split(n, split, idx);
	for (size_t i = 0; i < n; i++) {
		json_t *ci = json_array_get(cis, idx[i]);
		double *x = i < nnew ? &nv[sn.n] : &bv[sb.n], *c = i < nnew ? nci[sn.n++] : bci[sb.n++];

		*x = json_number_value(json_array_get(vals, idx[i]));
		c[0] = json_number_value(json_array_get(ci, 0));
		c[1] = json_number_value(json_array_get(ci, 1));
	}
	memset(v, 0, sizeof(*v));
	ci_judge_tail(v, &sb, (const double (*)[2])bci, &sn, (const double (*)[2])nci, &tol);
	return (int)v->state;
}

/* cmp_self_check - A/A: the baseline's runs split into baseline and 'new' (3 runs), CMP_SELF_SPLITS times */
static int cmp_self_check(const json_t *bl, const char *path)
{
	json_t *metrics = json_object_get(bl, "metrics"), *tails = json_object_get(bl, "tails"), *o;
	size_t count[4] = { 0 }, idx[CMP_MAX_RUNS];
	const char *key;

	for (int split = 0; split < CMP_SELF_SPLITS; split++) {
		json_object_foreach(metrics, key, o) {
			struct ci_verdict v;
			struct cmp_base b;
			double bv[CMP_MAX_RUNS], nv[CMP_MAX_RUNS];
			uint64_t bs[CMP_MAX_RUNS], ns[CMP_MAX_RUNS];
			struct ci_sample sb = { bv, bs, 0 }, sn = { nv, ns, 0 };
			struct ci_tol tol = ci_tol_of(bl, key);
			size_t nnew;

			if (cmp_base_of(o, &b))
				return pf_fail(PF_EXIT_USAGE, "%s: metric %s: bad values", path, key);
			if (b.n < 4)
				continue;
			nnew = cmp_split(b.n, split, idx);
			for (size_t i = 0; i < b.n; i++) {
				if (i < nnew) {
					nv[sn.n] = b.v[idx[i]];
					ns[sn.n++] = b.s[idx[i]];
				} else {
					bv[sb.n] = b.v[idx[i]];
					bs[sb.n++] = b.s[idx[i]];
				}
			}
			memset(&v, 0, sizeof(v));
			cmp_names(&v, key, o);
			ci_judge(&v, json_number_value(json_object_get(o, "q")), &sb, &sn, &tol);
			count[v.state]++;
			if (v.state == CI_REGRESSED)
				printf("# split %d: false alarm on %s (%s)\n", split + 1, key, v.reason);
		}
		json_object_foreach(tails, key, o) {
			struct ci_verdict v;
			int state = cmp_self_tail(bl, key, o, split, &v);

			if (state < 0)
				continue;
			count[state]++;
			if (state == CI_REGRESSED)
				printf("# split %d: false alarm on %s (%s)\n", split + 1, key, v.reason);
		}
	}
	{
		size_t judged = count[CI_SAME] + count[CI_REGRESSED] + count[CI_UNKNOWN];

		printf("self-check: %s: %d A/A splits x %zu metrics: %zu REGRESSED (false alarms, %.2f %% of %zu judged), "
		       "%zu SAME, %zu UNKNOWN, %zu SKIP\n", path, CMP_SELF_SPLITS,
		       json_object_size(metrics) + json_object_size(tails),
		       count[CI_REGRESSED], judged ? 100.0 * count[CI_REGRESSED] / judged : 0.0, judged,
		       count[CI_SAME], count[CI_UNKNOWN], count[CI_SKIP]);
	}
	return 0;
}

/* cmp_write - every requested output; 0 or an exit code */
static int cmp_write(const struct ci_report *r, const char *tap, const char *junit, const char *json,
		     const char *md)
{
	struct { const char *path; int (*fn)(FILE *, const struct ci_report *); } w[] = {
		{ tap, ci_write_tap }, { junit, ci_write_junit }, { md, ci_write_md },
	};
	int ret;

	for (size_t i = 0; i < PF_ARRAY_SIZE(w); i++) {
		FILE *f;

		if (!w[i].path)
			continue;
		if ((ret = pf_outfile_open(w[i].path, &f)))
			return ret;
		if (w[i].fn(f, r)) {
			int err = errno;

			pf_outfile_abort(f);
			return pf_outfile_fail(w[i].path, err);
		}
		if ((ret = pf_outfile_commit(f)))
			return ret;
	}
	if (json && (ret = ci_write_json(json, r)))
		return ret < 0 ? pf_fail(PF_EXIT_INTERNAL, "out of memory") : ret;
	return 0;
}

static int cmp_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "tap", required_argument, NULL, 'T' },
		{ "junit", required_argument, NULL, 'J' },
		{ "json", required_argument, NULL, 'j' },
		{ "md", required_argument, NULL, 'M' },
		{ "strict", no_argument, NULL, 'S' },
		{ "ignore-identity", required_argument, NULL, 'I' },
		{ "self-check", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *bpath = NULL, *tap = NULL, *junit = NULL, *json = NULL, *md = NULL;
	bool ignore[CI_NIDENT] = { false };
	struct ci_run runs[CMP_MAX_RUNS];
	struct ci_report r = { 0 };
	size_t nruns = 0;
	json_t *bl = NULL, *id;
	int c, self = 0, ret, f;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': bpath = optarg; break;
		case 'T': tap = optarg; break;
		case 'J': junit = optarg; break;
		case 'j': json = optarg; break;
		case 'M': md = optarg; break;
		case 'S': r.strict = 1; break;
		case 'C': self = 1; break;
		case 'I':
			f = ci_ident_index(optarg);
			if (f < 0)
				return pf_usage_error(&cmd_compare, "unknown identity field '%s'", optarg);
			ignore[f] = true;
			break;
		case 'h': pf_print_usage(&cmd_compare); return 0;
		default: return pf_option_error(&cmd_compare, argv, "b:h");
		}
	}
	if (!bpath)
		return pf_usage_error(&cmd_compare, "no baseline (--baseline FILE)");
	if (!self && optind == argc)
		return pf_usage_error(&cmd_compare, "no RUN given");
	if (argc - optind > CMP_MAX_RUNS)
		return pf_usage_error(&cmd_compare, "%d runs given, at most %d", argc - optind, CMP_MAX_RUNS);
	{
		const char *const outs[] = { tap, junit, json, md };

		for (size_t i = 0; i < PF_ARRAY_SIZE(outs); i++) {
			ret = pf_out_guard(outs[i], (const char *const *)argv + optind, (size_t)(argc - optind));
			if (!ret)
				ret = pf_out_guard(outs[i], &bpath, 1);
			if (ret)
				return ret;
		}
	}
	ret = cmp_baseline_of(bpath, &bl);
	if (ret)
		return ret;
	if (self) {
		ret = cmp_self_check(bl, bpath);
		goto out;
	}
	for (; nruns < (size_t)(argc - optind); nruns++) {
		ret = ci_run_load(argv[optind + nruns], &runs[nruns]);
		if (ret)
			goto out;
	}
	ret = ci_runs_distinct(runs, nruns);
	if (!ret)
		ret = cmp_in_baseline(bl, bpath, runs, nruns);
	if (!ret)
		ret = cmp_identity(bl, runs, nruns, ignore);
	if (ret)
		goto out;
	if (cmp_judge_all(bl, runs, nruns, &r)) {
		ret = pf_fail(PF_EXIT_USAGE, "%s: malformed metric values", bpath);
		goto out;
	}
	id = json_object_get(bl, "identity");
	r.baseline = bpath;
	r.board = json_string_value(json_object_get(id, "board")) ?: "unknown";
	r.scenario = json_string_value(json_object_get(id, "scenario")) ?: "unknown";
	r.kernel_base = json_string_value(json_object_get(id, "kernel_release")) ?: "unknown";
	r.kernel_new = runs[0].ident[CI_ID_KERNEL];
	ret = cmp_write(&r, tap ? tap : "-", junit, json, md);
	if (ret)
		goto out;
	if (tap)
		printf("compare: %zu REGRESSED, %zu UNKNOWN, %zu SAME, %zu SKIP (%zu run%s against %s)\n",
		       r.count[CI_REGRESSED], r.count[CI_UNKNOWN], r.count[CI_SAME], r.count[CI_SKIP], nruns,
		       nruns == 1 ? "" : "s", bpath);
	ret = r.count[CI_REGRESSED] || (r.strict && r.count[CI_UNKNOWN]) ? PF_EXIT_FAILED : PF_EXIT_OK;
out:
	for (size_t i = 0; i < nruns; i++)
		ci_run_free(&runs[i]);
	free(r.v);
	json_decref(r.unmatched);
	json_decref(bl);
	return ret;
}
