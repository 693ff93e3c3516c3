/*
 * cyclictest.c - reads cyclictest's --json output and its -h / -H histogram
 * text into preflight statistics (see cyclictest.h for the object returned,
 * docs/cyclictest-import.md for the rules).
 *
 * Both formats come down to the same per-thread facts: bucket counts below a
 * threshold (the -h size), the number of overflows past it, and cyclictest's
 * own cycles / min / avg / max. ct_build() turns those facts into a
 * histogram per thread: buckets exactly, overflows whose value cyclictest
 * states (its min and max) exactly, and the remaining overflows - whose
 * values cyclictest never writes - as tail samples of lib/hist.h, known only
 * to lie in [threshold, max] and to add up to the sum cyclictest's average
 * implies. Min, mean and max then reproduce cyclictest's summary exactly; a
 * percentile that falls among the tail is null with its bound beside it, and
 * the stddev, which depends on the unknown values, is marked estimated.
 */
#define _GNU_SOURCE
#include "cyclictest.h"

#include "ccdf.h"
#include "common.h"
#include "hist.h"
#include "tail_model.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CT_MAX_BUCKETS	(16u << 20)	/* more than any sane -h; bounds memory */
#define CT_MAX_THREADS	4096

enum ct_unit { CT_UNIT_GUESS, CT_UNIT_US, CT_UNIT_NS };

struct ct_thread {
	uint64_t *bins;		/* count per bucket, nbuckets of them */
	uint64_t  binned;	/* sum of bins */
	uint64_t  cycles;	/* samples taken */
	uint64_t  overflows;	/* samples >= the threshold */
	int64_t   min, max;	/* cyclictest's, in its unit */
	double    avg;		/* cyclictest's: 2 decimals (json) or truncated (text) */
	int       cpu, node;	/* -1: not stated */
	uint64_t *ocycles;	/* cycle numbers of overflows as listed */
	size_t    nocycles;
	uint64_t  others;	/* overflows not listed ("# 00213 others") */
	int       has_ocycles;	/* the file lists overflow cycles */
	unsigned  line;		/* where to point an error about this thread */
};

struct ct_file {
	const char *name;	/* for messages: the path as given, suffix cut */
	int         json;	/* format: 1 json, 0 histogram text */
	int         ns;		/* cyclictest measured in ns (-N) */
	const char *unit_from;	/* how 'ns' was decided */
	uint64_t    nbuckets;	/* overflow threshold, in cyclictest's unit */
	int         histofall;	/* -H: a sum column */
	unsigned    nthreads;
	struct ct_thread *t;
	json_t     *meta;	/* json: the run's description */
	const char *text;	/* json: the file text, to find line numbers */
	unsigned    lines;	/* text: lines read */
};

/* ct_bad - print "<file>:<line>: <why>" and return PF_EXIT_USAGE */
static int ct_bad(const struct ct_file *f, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int ct_bad(const struct ct_file *f, unsigned line, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pf_err("%s:%u: %s", f->name, line ? line : 1, why);
	return PF_EXIT_USAGE;
}

static void ct_free(struct ct_file *f)
{
	unsigned i;

	for (i = 0; f->t && i < f->nthreads; i++) {
		free(f->t[i].bins);
		free(f->t[i].ocycles);
	}
	free(f->t);
	json_decref(f->meta);
	memset(f, 0, sizeof(*f));
}

/* ct_alloc_threads - n threads of nbuckets empty buckets each; 0 or -ENOMEM */
static int ct_alloc_threads(struct ct_file *f, unsigned n)
{
	unsigned i;

	f->t = calloc(n ? n : 1, sizeof(*f->t));
	if (!f->t)
		return -ENOMEM;
	f->nthreads = n;
	for (i = 0; i < n; i++) {
		f->t[i].bins = calloc(f->nbuckets ? f->nbuckets : 1, sizeof(uint64_t));
		if (!f->t[i].bins)
			return -ENOMEM;
		f->t[i].cpu = f->t[i].node = -1;
	}
	return 0;
}

/* ct_push_u64 - append to a growing array; 0 or -ENOMEM */
static int ct_push_u64(uint64_t **a, size_t *n, size_t *cap, uint64_t v)
{
	if (pf_grow(a, cap, *n, sizeof(**a), 256))
		return -ENOMEM;
	(*a)[(*n)++] = v;
	return 0;
}

/* ----------------------------------------------------------------------
 * Building the statistics: the same for both formats
 */

/* ct_i64 - a double as int64, clamped (NaN as 0): no undefined conversion of a wild value */
static int64_t ct_i64(double v)
{
	if (v != v)
		return 0;
	if (v >= 9.2e18)
		return INT64_MAX;
	if (v <= -9.2e18)
		return INT64_MIN;
	return (int64_t)v;
}

/* ct_sum_range - the sums of all samples that print as cyclictest's average */
static void ct_sum_range(const struct ct_file *f, const struct ct_thread *t,
			 int64_t *lo, int64_t *hi, int64_t *pref)
{
	double c = (double)t->cycles;

	if (f->json) {
		/* "%.2f" of sum / cycles: the sum lies within half a cent of avg */
		*lo = ct_i64(ceil((t->avg - 0.005) * c - 1e-6 * c));
		*hi = ct_i64(floor((t->avg + 0.005) * c + 1e-6 * c));
		*pref = ct_i64(round(t->avg * c));
	} else {
		/* "(long)(sum / cycles)": truncated */
		*lo = ct_i64(round(t->avg) * c);
		*hi = *lo > INT64_MAX - (int64_t)t->cycles ? INT64_MAX : *lo + (int64_t)t->cycles - 1;
		*pref = *lo > INT64_MAX - (int64_t)t->cycles ? INT64_MAX : *lo + (int64_t)t->cycles / 2;
	}
}

/*
 * ct_check_thread - the thread's summary must agree with its buckets, the
 * way cyclictest computes them; also computes the sum of the buckets
 */
static int ct_check_thread(const struct ct_file *f, unsigned i, int64_t *bsum)
{
	const struct ct_thread *t = &f->t[i];
	int64_t lo_bin = -1, hi_bin = -1, s = 0;
	uint64_t b;

	for (b = 0; b < f->nbuckets; b++) {
		if (!t->bins[b])
			continue;
		if (lo_bin < 0)
			lo_bin = (int64_t)b;
		hi_bin = (int64_t)b;
		s += (int64_t)b * (int64_t)t->bins[b];
	}
	*bsum = s;
	if (t->cycles != t->binned + t->overflows)
		return ct_bad(f, t->line, "thread %u: %" PRIu64 " cycles but %" PRIu64
			      " samples in buckets and %" PRIu64 " overflows", i,
			      t->cycles, t->binned, t->overflows);
	if (!t->cycles)
		return 0;
	if (t->min > t->max)
		return ct_bad(f, t->line, "thread %u: min %" PRId64 " above max %" PRId64,
			      i, t->min, t->max);
	if (t->binned && (lo_bin < t->min || hi_bin > t->max))
		return ct_bad(f, t->line, "thread %u: buckets %" PRId64 "..%" PRId64
			      " outside min %" PRId64 " / max %" PRId64, i, lo_bin, hi_bin,
			      t->min, t->max);
	if (t->min < (int64_t)f->nbuckets && lo_bin != t->min)
		return ct_bad(f, t->line, "thread %u: min %" PRId64 " is not in its histogram",
			      i, t->min);
	if (t->max < (int64_t)f->nbuckets && (hi_bin != t->max || t->overflows))
		return ct_bad(f, t->line, "thread %u: max %" PRId64 " disagrees with the "
			      "histogram (%" PRIu64 " overflows past %" PRIu64 ")", i, t->max,
			      t->overflows, f->nbuckets);
	if (t->max >= (int64_t)f->nbuckets && !t->overflows)
		return ct_bad(f, t->line, "thread %u: max %" PRId64 " is past the histogram "
			      "but no overflow is counted", i, t->max);
	if (t->has_ocycles && t->nocycles + t->others != t->overflows)
		return ct_bad(f, t->line, "thread %u: %zu overflow cycles listed and %" PRIu64
			      " others, but %" PRIu64 " overflows", i, t->nocycles, t->others,
			      t->overflows);
	return 0;
}

/* ct_overflow_json - what is known of a thread's overflows */
static json_t *ct_overflow_json(const struct ct_file *f, const struct ct_thread *t,
				int64_t scale, uint64_t exact, uint64_t estimated,
				int64_t est_min, int64_t est_max)
{
	json_t *o = json_object(), *cyc = NULL;
	size_t k;

	if (!o)
		return NULL;
	json_object_set_new(o, "count", json_integer((json_int_t)t->overflows));
	json_object_set_new(o, "threshold_ns", json_integer((json_int_t)f->nbuckets * scale));
	json_object_set_new(o, "exact", json_integer((json_int_t)exact));
	json_object_set_new(o, "estimated", json_integer((json_int_t)estimated));
	json_object_set_new(o, "estimated_min_ns", estimated ? json_integer(est_min * scale) : json_null());
	json_object_set_new(o, "estimated_max_ns", estimated ? json_integer(est_max * scale) : json_null());
	if (t->has_ocycles) {
		cyc = json_array();
		for (k = 0; cyc && k < t->nocycles; k++)
			json_array_append_new(cyc, json_integer((json_int_t)t->ocycles[k]));
	}
	json_object_set_new(o, "cycles", cyc ? cyc : json_null());
	json_object_set_new(o, "cycles_not_listed",
			    t->has_ocycles ? json_integer((json_int_t)t->others) : json_null());
	return o;
}

/*
 * ct_stats_json - statistics of a histogram, max_id the thread holding the
 * max. The histogram's mean is its exact integer sum over the count; a
 * percentile whose rank falls among the overflows of unknown value is null
 * with "bounds" [threshold, max] (lib/hist.h tail samples).
 */
static json_t *ct_stats_json(struct pf_hist *h, int64_t max_thread)
{
	json_t *o = pf_hist_json(h, "ns");

	if (o && h->count) {
		/* cyclictest does not say when its max happened */
		json_object_set_new(o, "max_at", json_null());
		json_object_set_new(o, "max_id", json_integer(max_thread));
	}
	return o;
}

/* ct_summary_json - statistics when cyclictest kept no histogram: count, min, mean, max */
static json_t *ct_summary_json(uint64_t count, int64_t min, double mean, int64_t max,
			       int64_t scale, int64_t max_thread)
{
	struct pf_stats s = { .count = count, .min = min * scale, .max = max * scale,
			      .mean = mean * (double)scale };
	json_t *o = pf_stats_json(&s, "ns");
	int i;

	if (!o)
		return NULL;
	json_object_set_new(o, "bin_width", json_null());
	if (!count)
		return o;
	json_object_set_new(o, "stddev", json_null());
	for (i = 0; i < PF_HIST_NPCT; i++)
		json_object_set_new(o, pf_hist_pct_name[i], json_null());
	json_object_set_new(o, "max_at", json_null());
	json_object_set_new(o, "max_id", json_integer(max_thread));
	return o;
}

/*
 * ct_fill_hist - one thread's samples into h (in ns); sets what is exact
 * and what is estimated among its overflows
 */
static int ct_fill_hist(const struct ct_file *f, unsigned i, struct pf_hist *h,
			int64_t scale, uint64_t *exact, uint64_t *estimated,
			int64_t *est_lo, int64_t *est_hi)
{
	const struct ct_thread *t = &f->t[i];
	int64_t bsum, known = 0, s_lo, s_hi, pref, lo, hi, sum, base, extra;
	uint64_t b, nknown = 0, u;
	int ret;

	ret = ct_check_thread(f, i, &bsum);
	if (ret)
		return ret;
	for (b = 0; b < f->nbuckets; b++)
		if (t->bins[b] && pf_hist_add_n(h, (int64_t)b * scale, t->bins[b]))
			return -ENOMEM;
	*exact = *estimated = 0;
	*est_lo = *est_hi = 0;
	if (!t->cycles)
		return 0;

	/* overflows whose value cyclictest states: its max, and its min */
	if (t->overflows) {
		known += t->max;
		nknown++;
		if (t->min >= (int64_t)f->nbuckets && t->overflows > 1) {
			known += t->min;
			nknown++;
		}
	}
	u = t->overflows - nknown;
	lo = t->min > (int64_t)f->nbuckets ? t->min : (int64_t)f->nbuckets;
	hi = t->max;

	ct_sum_range(f, t, &s_lo, &s_hi, &pref);
	sum = bsum + known;
	if (sum + (int64_t)u * lo > s_lo)
		s_lo = sum + (int64_t)u * lo;
	if (sum + (int64_t)u * hi < s_hi)
		s_hi = sum + (int64_t)u * hi;
	if (s_lo > s_hi)
		return ct_bad(f, t->line, "thread %u: average %g cannot come from this "
			      "histogram, min and max", i, t->avg);
	sum = pref < s_lo ? s_lo : pref > s_hi ? s_hi : pref;

	if (t->overflows) {
		if (pf_hist_add(h, t->max * scale, 0, i))
			return -ENOMEM;
		if (nknown > 1 && pf_hist_add(h, t->min * scale, 0, i))
			return -ENOMEM;
	}
	if (u) {
		/* u values in [lo, hi] of known sum; their mean is what the stddev estimate assumes */
		int64_t rest = sum - bsum - known;

		base = rest / (int64_t)u;
		extra = rest - base * (int64_t)u;
		if (pf_hist_add_above(h, u, lo * scale, pf_i128_mul(rest, (uint64_t)scale)))
			return -EINVAL;
		*est_lo = base;
		*est_hi = extra ? base + 1 : base;
	}
	*exact = nknown;
	*estimated = u;
	return 0;
}

/* ct_reported_json - cyclictest's own summary of a thread, in its unit */
static json_t *ct_reported_json(const struct ct_file *f, const struct ct_thread *t)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "cycles", json_integer((json_int_t)t->cycles));
	json_object_set_new(o, "min", t->cycles ? json_integer(t->min) : json_null());
	json_object_set_new(o, "avg", t->cycles ? json_real(t->avg) : json_null());
	json_object_set_new(o, "max", t->cycles ? json_integer(t->max) : json_null());
	json_object_set_new(o, "unit", json_string(f->ns ? "ns" : "us"));
	return o;
}

/*
 * ct_tail_json - a thread's tail object (docs/cyclictest-import.md, "The
 * exceedance curve"): the curve from cyclictest's own buckets, exact at each
 * bucket's lower edge; the overflows past the last bucket have no value, so
 * the curve ends there and says so. No tail model: there is no series.
 */
static json_t *ct_tail_json(const struct ct_file *f, const struct ct_thread *t, int64_t scale)
{
	long long end_ns = (long long)f->nbuckets * scale, max_ns = (long long)t->max * scale;
	unsigned long long n = t->cycles, k = t->overflows;
	json_t *o = json_object();
	char note[640];
	int len;

	if (!o)
		return NULL;
	len = snprintf(note, sizeof(note), "from cyclictest's histogram, buckets of %lld ns: P(X >= x) at the lower "
		       "edge x of its buckets, exact there (every sample of bucket [x, x + %lld ns) or above is >= x)",
		       (long long)scale, (long long)scale);
	if (k)
		snprintf(note + len, sizeof(note) - (size_t)len, "; %llu of the %llu samples overflowed it (>= %lld ns, "
			 "the -h size) and cyclictest wrote no value of theirs but the max, %lld ns: the curve ends at "
			 "%lld ns with their share, %llu/%llu; above it P(X >= x) is known only to lie between 1/%llu "
			 "and %llu/%llu up to the max, and is 0 past it", k, n, end_ns, max_ns, end_ns, k, n, n, k, n);
	else
		snprintf(note + len, sizeof(note) - (size_t)len, "; no sample overflowed it: P(X >= x) is 0 past "
			 "the last point's bucket");
	json_object_set_new(o, "source", json_string("cyclictest histogram"));
	json_object_set_new(o, "bucket_width_ns", json_integer(scale));
	json_object_set_new(o, "count", json_integer((json_int_t)n));
	json_object_set_new(o, "rate_hz", json_null());
	json_object_set_new(o, "ccdf", an_ccdf_buckets(t->bins, f->nbuckets, scale, k));
	json_object_set_new(o, "ccdf_ends_ns", k ? json_integer(end_ns) : json_null());
	json_object_set_new(o, "ccdf_note", json_string(note));
	json_object_set_new(o, "tests", json_null());
	json_object_set_new(o, "assumptions_hold", json_false());
	json_object_set_new(o, "reason", json_string("no per-sample series: cyclictest writes a histogram, not its "
						     "samples in order, so no tail model's assumptions can be tested"));
	json_object_set_new(o, "run_needed_binomial", pf_tail_run_binomial_json());
	json_object_set_new(o, "model", json_null());
	json_object_set_new(o, "pwcet_ns", json_null());
	json_object_set_new(o, "gev", json_null());
	return o;
}

/*
 * ct_all_tail - the curve of every thread's wakeups together ('all'): the
 * threads' buckets and overflows summed, one thread's rule on them; NULL when
 * out of memory
 */
static json_t *ct_all_tail(const struct ct_file *f, int64_t scale)
{
	struct ct_thread sum = { .max = 0 };
	json_t *o;

	if (!(sum.bins = calloc(f->nbuckets, sizeof(*sum.bins))))
		return NULL;
	for (unsigned i = 0; i < f->nthreads; i++) {
		const struct ct_thread *t = &f->t[i];

		for (uint64_t b = 0; b < f->nbuckets; b++)
			sum.bins[b] += t->bins[b];
		sum.cycles += t->cycles;
		sum.overflows += t->overflows;
		if (t->cycles && t->max > sum.max)
			sum.max = t->max;
	}
	o = ct_tail_json(f, &sum, scale);
	free(sum.bins);
	return o;
}

static json_t *ct_int_or_null(int v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* ct_build - the "cyclictest" object from the facts read */
static int ct_build(struct ct_file *f, const char *path, json_t **out)
{
	int64_t scale = f->ns ? 1 : PF_NS_PER_US;
	struct pf_hist all, h;
	json_t *o, *threads, *th, *a, *tail;
	uint64_t exact = 0, estimated = 0, total_ovf = 0, cycles = 0;
	int64_t est_lo = 0, est_hi = 0, max_thread = 0, max_seen = INT64_MIN, min_seen = INT64_MAX;
	double avg_sum = 0;
	unsigned i;
	char name[32];
	int ret;

	pf_hist_init(&all);
	o = json_object();
	threads = json_array();
	ret = PF_EXIT_INTERNAL;
	if (!o || !threads)
		goto out;
	for (i = 0; i < f->nthreads; i++) {
		const struct ct_thread *t = &f->t[i];

		pf_hist_init(&h);
		if (f->nbuckets)
			ret = ct_fill_hist(f, i, &h, scale, &exact, &estimated, &est_lo, &est_hi);
		else
			ret = ct_check_thread(f, i, &est_lo);
		if (ret) {
			pf_hist_free(&h);
			if (ret < 0)
				ret = PF_EXIT_INTERNAL;
			goto out;
		}
		ret = PF_EXIT_INTERNAL;
		if (pf_hist_merge(&all, &h)) {
			pf_hist_free(&h);
			goto out;
		}
		if (t->cycles && t->max > max_seen) {
			max_seen = t->max;
			max_thread = i;
		}
		if (t->cycles && t->min < min_seen)
			min_seen = t->min;
		total_ovf += t->overflows;
		cycles += t->cycles;
		avg_sum += t->avg * (double)t->cycles;
		th = json_object();
		if (!th) {
			pf_hist_free(&h);
			goto out;
		}
		snprintf(name, sizeof(name), "T%u", i);
		json_object_set_new(th, "name", json_string(name));
		json_object_set_new(th, "thread", json_integer(i));
		json_object_set_new(th, "cpu", ct_int_or_null(f->t[i].cpu));
		json_object_set_new(th, "node", ct_int_or_null(f->t[i].node));
		json_object_set_new(th, "latency_ns", f->nbuckets ? ct_stats_json(&h, i) :
				    ct_summary_json(t->cycles, t->min, t->avg, t->max, scale, i));
		json_object_set_new(th, "reported", ct_reported_json(f, t));
		json_object_set_new(th, "overflows", f->nbuckets ? ct_overflow_json(f, t, scale,
				    exact, estimated, est_lo, est_hi) : json_null());
		json_object_set_new(th, "tail", f->nbuckets ? ct_tail_json(f, t, scale) : json_null());
		json_array_append_new(threads, th);
		pf_hist_free(&h);
	}

	json_object_set_new(o, "schema", json_string(CYCLICTEST_SCHEMA));
	json_object_set_new(o, "file", json_string(path));
	json_object_set_new(o, "format", json_string(f->json ? "json" : "histogram"));
	json_object_set_new(o, "unit", json_string(f->ns ? "ns" : "us"));
	json_object_set_new(o, "unit_from", json_string(f->unit_from));
	if (f->meta)
		json_object_update(o, f->meta);
	json_object_set_new(o, "buckets", json_integer((json_int_t)f->nbuckets));
	json_object_set_new(o, "histofall", json_boolean(f->histofall));
	json_object_set_new(o, "threads", threads);
	threads = NULL;
	a = json_object();
	if (!a)
		goto out;
	json_object_set_new(a, "latency_ns", f->nbuckets ? ct_stats_json(&all, max_thread) :
			    ct_summary_json(cycles, min_seen, cycles ? avg_sum / (double)cycles : 0,
					    max_seen, scale, max_thread));
	json_object_set_new(a, "overflows", f->nbuckets ? json_integer((json_int_t)total_ovf) :
			    json_null());
	tail = f->nbuckets ? ct_all_tail(f, scale) : json_null();
	if (!tail) {
		json_decref(a);
		goto out;
	}
	json_object_set_new(a, "tail", tail);
	json_object_set_new(o, "all", a);
	*out = o;
	o = NULL;
	ret = 0;
out:
	json_decref(threads);
	json_decref(o);
	pf_hist_free(&all);
	return ret;
}

/* ----------------------------------------------------------------------
 * cyclictest --json=FILE
 */

/* ct_json_line - line of "key" inside thread 'idx' of the json text (for errors) */
static unsigned ct_json_line(const char *text, const char *idx, const char *key)
{
	char pat[64];
	const char *p, *q;
	unsigned line = 1;

	p = strstr(text, "\"thread\"");
	if (p && idx) {
		snprintf(pat, sizeof(pat), "\"%s\"", idx);
		q = strstr(p, pat);
		p = q ? q : p;
	}
	if (p && key) {
		snprintf(pat, sizeof(pat), "\"%s\"", key);
		q = strstr(p, pat);
		p = q ? q : p;
	}
	if (!p)
		return 1;
	for (q = text; q < p; q++)
		line += *q == '\n';
	return line;
}

/*
 * ct_cmdline_buckets - the -h / -H / --histogram / --histofall size in a
 * command line, or 0; *nsecs set when it has -N / --nsecs
 */
static uint64_t ct_cmdline_buckets(const char *cmdline, int *histofall, int *nsecs)
{
	static const char *const opts[] = { "--histogram", "--histofall", "-h", "-H" };
	char *copy, *tok, *save = NULL, *val;
	uint64_t n = 0;
	size_t i, len;

	copy = strdup(cmdline ? cmdline : "");
	if (!copy)
		return 0;
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(tok, "-N") || !strcmp(tok, "--nsecs"))
			*nsecs = 1;
		for (i = 0; i < PF_ARRAY_SIZE(opts); i++) {
			len = strlen(opts[i]);
			if (strncmp(tok, opts[i], len))
				continue;
			val = tok + len;
			if (*val == '=')
				val++;
			if (!*val)
				val = strtok_r(NULL, " \t", &save);
			if (val && isdigit((unsigned char)*val)) {
				n = strtoull(val, NULL, 10);
				*histofall = opts[i][1] == 'H' || !strcmp(opts[i], "--histofall");
			}
			break;
		}
	}
	free(copy);
	return n;
}

/* ct_json_int - an integer member; 0 or a message */
static int ct_json_int(const struct ct_file *f, json_t *obj, const char *idx,
		       const char *key, int64_t min, int64_t *out)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_integer(v) || json_integer_value(v) < min)
		return ct_bad(f, ct_json_line(f->text, idx, key), "thread %s: \"%s\" %s", idx, key,
			      v ? "is not a valid integer" : "is missing");
	*out = json_integer_value(v);
	return 0;
}

/* ct_json_member - a top-level member, accepting cyclictest's "name:" spelling */
static json_t *ct_json_member(json_t *root, const char *key)
{
	char k[64];
	json_t *v = json_object_get(root, key);

	if (v)
		return v;
	snprintf(k, sizeof(k), "%s:", key);
	return json_object_get(root, k);
}

/* ct_read_thread - one member of "thread" */
static int ct_read_thread(struct ct_file *f, unsigned i, const char *idx, json_t *th)
{
	struct ct_thread *t = &f->t[i];
	json_t *hist, *v, *avg;
	const char *k;
	char *end;
	int64_t n;
	uint64_t b;
	int ret;

	t->line = ct_json_line(f->text, idx, NULL);
	if (!json_is_object(th))
		return ct_bad(f, t->line, "thread %s is not an object", idx);
	if ((ret = ct_json_int(f, th, idx, "cycles", 0, &n)))
		return ret;
	t->cycles = (uint64_t)n;
	if (t->cycles) {
		if ((ret = ct_json_int(f, th, idx, "min", INT64_MIN, &t->min)) ||
		    (ret = ct_json_int(f, th, idx, "max", INT64_MIN, &t->max)))
			return ret;
		avg = json_object_get(th, "avg");
		if (!json_is_number(avg))
			return ct_bad(f, ct_json_line(f->text, idx, "avg"), "thread %s: \"avg\" %s",
				      idx, avg ? "is not a number" : "is missing");
		t->avg = json_number_value(avg);
	}
	v = json_object_get(th, "cpu");
	t->cpu = json_is_integer(v) ? (int)json_integer_value(v) : -1;
	v = json_object_get(th, "node");
	t->node = json_is_integer(v) ? (int)json_integer_value(v) : -1;
	hist = json_object_get(th, "histogram");
	if (hist && !json_is_object(hist))
		return ct_bad(f, ct_json_line(f->text, idx, "histogram"),
			      "thread %s: \"histogram\" is not an object", idx);
	json_object_foreach(hist, k, v) {
		errno = 0;
		b = strtoull(k, &end, 10);
		if (!isdigit((unsigned char)*k) || *end || errno || b >= f->nbuckets)
			return ct_bad(f, ct_json_line(f->text, idx, k), "thread %s: histogram "
				      "bucket \"%s\" is not a bucket number below %" PRIu64,
				      idx, k, f->nbuckets);
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return ct_bad(f, ct_json_line(f->text, idx, k), "thread %s: histogram "
				      "bucket \"%s\" has no count", idx, k);
		t->bins[b] = (uint64_t)json_integer_value(v);
		t->binned += t->bins[b];
	}
	if (t->binned > t->cycles)
		return ct_bad(f, ct_json_line(f->text, idx, "histogram"), "thread %s: %" PRIu64
			      " samples in the histogram but %" PRIu64 " cycles", idx, t->binned,
			      t->cycles);
	t->overflows = t->cycles - t->binned;
	return 0;
}

/* ct_max_bucket - 1 + the highest bucket number of every thread's histogram */
static uint64_t ct_max_bucket(json_t *thread)
{
	json_t *th, *v;
	const char *idx, *k;
	uint64_t n = 0, b;

	json_object_foreach(thread, idx, th) {
		json_object_foreach(json_object_get(th, "histogram"), k, v) {
			b = strtoull(k, NULL, 10);
			if (b + 1 > n && b < CT_MAX_BUCKETS)
				n = b + 1;
		}
	}
	return n;
}

/*
 * ct_json_nan - cyclictest prints the avg of a thread without cycles as
 * "%.2f" of 0/0: "-nan" or "nan", which is not JSON. Blank it to 0 in place
 * (same length, so line numbers hold); 'cycles' 0 makes the avg unused.
 */
static void ct_json_nan(char *text)
{
	char *p = text, *v;

	while ((p = strstr(p, "\"avg\":"))) {
		v = p + 6;
		while (*v == ' ')
			v++;
		if (!strncmp(v, "-nan", 4))
			memcpy(v, "0   ", 4);
		else if (!strncmp(v, "nan", 3))
			memcpy(v, "0  ", 3);
		p = v;
	}
}

static int ct_load_json(struct ct_file *f, char *text, size_t len)
{
	static const char *const keep[] = {
		"rt_test_version", "cmdline", "start_time", "end_time", "return_code", "sysinfo",
	};
	json_error_t jerr;
	json_t *root, *thread, *th, *v;
	char key[32];
	unsigned i, n;
	int cmd_ns;
	int ret = PF_EXIT_USAGE;

	f->json = 1;
	f->text = text;
	ct_json_nan(text);
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return ct_bad(f, jerr.line > 0 ? (unsigned)jerr.line : 1, "not valid JSON: %s",
			      jerr.text);
	if (!json_is_object(root)) {
		ret = ct_bad(f, 1, "not a cyclictest --json file (no object)");
		goto out;
	}
	thread = json_object_get(root, "thread");
	v = json_object_get(root, "num_threads");
	if (!json_is_object(thread) || !json_is_integer(v)) {
		ret = ct_bad(f, ct_json_line(text, NULL, NULL), "not a cyclictest --json file "
			     "(no \"thread\" object or \"num_threads\")");
		goto out;
	}
	n = (unsigned)json_integer_value(v);
	if (json_integer_value(v) < 0 || json_integer_value(v) > CT_MAX_THREADS ||
	    json_object_size(thread) != n) {
		ret = ct_bad(f, ct_json_line(text, NULL, NULL), "\"num_threads\" is %" JSON_INTEGER_FORMAT
			     " but \"thread\" has %zu members", json_integer_value(v),
			     json_object_size(thread));
		goto out;
	}
	v = json_object_get(root, "resolution_in_ns");
	f->ns = json_is_integer(v) && json_integer_value(v) == 1;
	f->unit_from = "json";
	cmd_ns = 0;

	f->meta = json_object();
	if (!f->meta) {
		ret = PF_EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < PF_ARRAY_SIZE(keep); i++) {
		v = ct_json_member(root, keep[i]);
		json_object_set(f->meta, !strcmp(keep[i], "rt_test_version") ? "rt_tests_version"
				: keep[i], v ? v : json_null());
	}
	v = ct_json_member(root, "cmdline");
	f->nbuckets = ct_cmdline_buckets(json_string_value(v), &f->histofall, &cmd_ns);
	if (!json_object_get(root, "resolution_in_ns") && cmd_ns) {
		/* a file without "resolution_in_ns": its command line tells */
		f->ns = 1;
		f->unit_from = "json cmdline";
	}
	/* a histogram larger than the command line says (or none said) widens it */
	if (ct_max_bucket(thread) > f->nbuckets)
		f->nbuckets = ct_max_bucket(thread);
	if (f->nbuckets > CT_MAX_BUCKETS) {
		ret = ct_bad(f, 1, "histogram of %" PRIu64 " buckets is too large", f->nbuckets);
		goto out;
	}
	if (ct_alloc_threads(f, n)) {
		ret = PF_EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%u", i);
		th = json_object_get(thread, key);
		if (!th) {
			ret = ct_bad(f, ct_json_line(text, NULL, NULL),
				     "\"thread\" has no member \"%u\"", i);
			goto out;
		}
		ret = ct_read_thread(f, i, key, th);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	json_decref(root);
	return ret;
}

/* ----------------------------------------------------------------------
 * cyclictest -h / -H histogram text
 */

struct ct_text {
	uint64_t *rows;		/* bucket number of each row */
	size_t    nrows, rows_cap;
	uint64_t *cells;	/* counts, ncol per row */
	size_t    ncells, cells_cap;
	unsigned  ncol;
	/* summary lines: values, count, line number */
	uint64_t *sum[5];	/* Total, Min, Avg, Max, Overflows */
	size_t    nsum[5], sum_cap[5];
	unsigned  sum_line[5];
	int       in_rows, in_footer;
};

enum { CT_TOTAL, CT_MIN, CT_AVG, CT_MAX, CT_OVF };
static const char *const ct_sum_label[5] = {
	"# Total:", "# Min Latencies:", "# Avg Latencies:", "# Max Latencies:",
	"# Histogram Overflows:",
};

/* ct_number - parse one unsigned decimal token; 0 or -EINVAL */
static int ct_number(const char *tok, uint64_t *out)
{
	char *end;

	if (!isdigit((unsigned char)*tok))
		return -EINVAL;
	errno = 0;
	*out = strtoull(tok, &end, 10);
	return *end || errno ? -EINVAL : 0;
}

/* ct_text_row - "000017 000576\t000468[\t...]" */
static int ct_text_row(struct ct_file *f, struct ct_text *x, char *line)
{
	char *tok, *save = NULL;
	uint64_t v;
	unsigned col = 0;

	tok = strtok_r(line, " \t", &save);
	if (ct_number(tok, &v))
		return ct_bad(f, f->lines, "histogram row '%s' does not start with a bucket number", tok);
	if (x->nrows && v <= x->rows[x->nrows - 1])
		return ct_bad(f, f->lines, "histogram bucket %" PRIu64 " out of order", v);
	if (v >= CT_MAX_BUCKETS)
		return ct_bad(f, f->lines, "histogram bucket %" PRIu64 " is too large", v);
	if (ct_push_u64(&x->rows, &x->nrows, &x->rows_cap, v))
		return PF_EXIT_INTERNAL;
	while ((tok = strtok_r(NULL, " \t", &save))) {
		if (ct_number(tok, &v))
			return ct_bad(f, f->lines, "histogram count '%s' is not a number", tok);
		if (ct_push_u64(&x->cells, &x->ncells, &x->cells_cap, v))
			return PF_EXIT_INTERNAL;
		col++;
	}
	if (!col)
		return ct_bad(f, f->lines, "histogram row without counts");
	if (x->ncol && col != x->ncol)
		return ct_bad(f, f->lines, "histogram row of %u counts, the rows before have %u",
			      col, x->ncol);
	x->ncol = col;
	return 0;
}

/* ct_text_values - the numbers after a summary label */
static int ct_text_values(struct ct_file *f, struct ct_text *x, int which, char *rest)
{
	char *tok, *save = NULL;
	uint64_t v;

	if (x->sum_line[which])
		return ct_bad(f, f->lines, "second '%s' line", ct_sum_label[which]);
	x->sum_line[which] = f->lines;
	for (tok = strtok_r(rest, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (ct_number(tok, &v))
			return ct_bad(f, f->lines, "'%s' value '%s' is not a number",
				      ct_sum_label[which], tok);
		if (ct_push_u64(&x->sum[which], &x->nsum[which], &x->sum_cap[which], v))
			return PF_EXIT_INTERNAL;
	}
	if (!x->nsum[which])
		return ct_bad(f, f->lines, "'%s' without values", ct_sum_label[which]);
	return 0;
}

/* ct_text_outliers - "# Thread 3: 00024 00028 ... [# 00213 others]" */
static int ct_text_outliers(struct ct_file *f, struct ct_text *x, char *rest)
{
	struct ct_thread *t;
	char *tok, *save = NULL, *end;
	size_t cap = 0;
	unsigned long n;
	uint64_t v;

	errno = 0;
	n = strtoul(rest, &end, 10);
	if (end == rest || *end != ':' || errno)
		return ct_bad(f, f->lines, "'# Thread' line without a thread number");
	if (!f->t || n >= f->nthreads)
		return ct_bad(f, f->lines, "overflow cycles of thread %lu, which the summary "
			      "lines do not have", n);
	t = &f->t[n];
	if (t->has_ocycles)
		return ct_bad(f, f->lines, "second overflow line for thread %lu", n);
	t->has_ocycles = 1;
	for (tok = strtok_r(end + 1, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(tok, "#")) {
			tok = strtok_r(NULL, " \t", &save);
			if (!tok || ct_number(tok, &t->others) ||
			    !(tok = strtok_r(NULL, " \t", &save)) || strcmp(tok, "others") ||
			    strtok_r(NULL, " \t", &save))
				return ct_bad(f, f->lines, "expected '# N others' after the overflow cycles");
			break;
		}
		if (ct_number(tok, &v))
			return ct_bad(f, f->lines, "overflow cycle '%s' is not a number", tok);
		if (ct_push_u64(&t->ocycles, &t->nocycles, &cap, v))
			return PF_EXIT_INTERNAL;
	}
	return 0;
}

/*
 * ct_text_threads - once the Min / Avg / Max / Overflows lines are read:
 * the threads, their buckets and summaries, the -H sum column checked
 */
static int ct_text_threads(struct ct_file *f, struct ct_text *x)
{
	static const int need[] = { CT_MIN, CT_AVG, CT_MAX, CT_OVF };
	unsigned n, i, c;
	size_t r, k;
	uint64_t s, maxmax = 0, allovf = 0;

	for (k = 0; k < PF_ARRAY_SIZE(need); k++)
		if (!x->sum_line[need[k]])
			return ct_bad(f, f->lines, "no '%s' line (truncated file?)",
				      ct_sum_label[need[k]]);
	n = (unsigned)x->nsum[CT_MIN];
	if (n > CT_MAX_THREADS || x->nsum[CT_AVG] != n)
		return ct_bad(f, x->sum_line[CT_AVG], "%zu average latencies for %u threads",
			      x->nsum[CT_AVG], n);
	f->histofall = n > 1 && x->ncol == n + 1;
	if (x->nrows && x->ncol != n && !f->histofall)
		return ct_bad(f, x->sum_line[CT_MIN], "%u threads but histogram rows of %u counts",
			      n, x->ncol);
	for (k = CT_MAX; k <= CT_OVF; k++)
		if (x->nsum[k] != n + (f->histofall ? 1 : 0))
			return ct_bad(f, x->sum_line[k], "%zu values for %u threads%s",
				      x->nsum[k], n, f->histofall ? " and their sum" : "");
	if (x->sum_line[CT_TOTAL] && x->nsum[CT_TOTAL] != n + (f->histofall ? 1 : 0))
		return ct_bad(f, x->sum_line[CT_TOTAL], "%zu totals for %u threads",
			      x->nsum[CT_TOTAL], n);
	f->nbuckets = x->nrows ? x->rows[x->nrows - 1] + 1 : 0;
	if (ct_alloc_threads(f, n))
		return PF_EXIT_INTERNAL;
	for (r = 0; r < x->nrows; r++) {
		s = 0;
		for (c = 0; c < n; c++) {
			f->t[c].bins[x->rows[r]] = x->cells[r * x->ncol + c];
			f->t[c].binned += x->cells[r * x->ncol + c];
			s += x->cells[r * x->ncol + c];
		}
		if (f->histofall && x->cells[r * x->ncol + n] != s)
			return ct_bad(f, x->sum_line[CT_MIN], "bucket %" PRIu64 ": the sum column "
				      "says %" PRIu64 ", the threads %" PRIu64, x->rows[r],
				      x->cells[r * x->ncol + n], s);
	}
	for (i = 0; i < n; i++) {
		struct ct_thread *t = &f->t[i];

		t->min = (int64_t)x->sum[CT_MIN][i];
		t->avg = (double)x->sum[CT_AVG][i];
		t->max = (int64_t)x->sum[CT_MAX][i];
		t->overflows = x->sum[CT_OVF][i];
		t->cycles = t->binned + t->overflows;
		t->line = x->sum_line[CT_AVG];
		if (x->sum_line[CT_TOTAL] && x->sum[CT_TOTAL][i] != t->binned)
			return ct_bad(f, x->sum_line[CT_TOTAL], "thread %u: total %" PRIu64
				      " but %" PRIu64 " samples in its buckets", i,
				      x->sum[CT_TOTAL][i], t->binned);
		if (t->max > (int64_t)maxmax)
			maxmax = (uint64_t)t->max;
		allovf += t->overflows;
	}
	if (f->histofall && (x->sum[CT_MAX][n] != maxmax || x->sum[CT_OVF][n] != allovf))
		return ct_bad(f, x->sum[CT_MAX][n] != maxmax ? x->sum_line[CT_MAX] :
			      x->sum_line[CT_OVF], "the -H summary column disagrees with the threads");
	return 0;
}

/* ct_guess_unit - a histogram text does not say us or ns; see docs/cyclictest-import.md */
static void ct_guess_unit(struct ct_file *f)
{
	unsigned i, n = 0;

	for (i = 0; i < f->nthreads; i++) {
		if (!f->t[i].cycles)
			continue;
		n++;
		if (f->t[i].min < 1000)
			break;
	}
	f->ns = n && i == f->nthreads;
	f->unit_from = f->ns ? "guessed: every min >= 1000 means ns" :
		"guessed: a min below 1000 means us";
}

static void ct_text_free(struct ct_text *x)
{
	int k;

	free(x->rows);
	free(x->cells);
	for (k = 0; k < 5; k++)
		free(x->sum[k]);
}

static int ct_load_text(struct ct_file *f, FILE *in, enum ct_unit unit)
{
	struct ct_text x = { 0 };
	char *line = NULL;
	size_t cap = 0, len;
	ssize_t n;
	int ret = 0, k, seen_hist = 0;

	while (!ret && (n = getline(&line, &cap, in)) >= 0) {
		f->lines++;
		len = (size_t)n;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (strlen(line) != len) {
			ret = ct_bad(f, f->lines, "NUL byte in a text file");
			break;
		}
		if (!seen_hist) {
			/* anything before "# Histogram": cyclictest's status output */
			seen_hist = !strcmp(line, "# Histogram");
			continue;
		}
		if (!len)
			continue;
		if (isdigit((unsigned char)line[0])) {
			if (x.in_footer)
				ret = ct_bad(f, f->lines, "histogram row after the summary lines");
			else
				ret = ct_text_row(f, &x, line);
			continue;
		}
		if (line[0] != '#') {
			ret = ct_bad(f, f->lines, "unexpected line in a cyclictest histogram: '%.40s'", line);
			continue;
		}
		x.in_footer = 1;
		for (k = 0; k < 5; k++)
			if (!strncmp(line, ct_sum_label[k], strlen(ct_sum_label[k])))
				break;
		if (k < 5) {
			ret = ct_text_values(f, &x, k, line + strlen(ct_sum_label[k]));
			if (!ret && k == CT_OVF)
				ret = ct_text_threads(f, &x);
		} else if (!strncmp(line, "# Thread ", 9) && isdigit((unsigned char)line[9])) {
			ret = ct_text_outliers(f, &x, line + 9);
		}
		/* other comment lines (SMIs, Thread Ids, Break thread) carry nothing we use */
	}
	if (ret)
		goto out;
	if (ferror(in)) {
		ret = ct_bad(f, f->lines, "read error: %s", strerror(errno));
		goto out;
	}
	if (!seen_hist) {
		ret = ct_bad(f, f->lines, "neither cyclictest --json output nor a -h histogram "
			     "(no '# Histogram' line)");
		goto out;
	}
	if (!f->t) {
		ret = ct_bad(f, f->lines, "no '# Histogram Overflows' line (truncated file?)");
		goto out;
	}
	for (k = 0; k < (int)f->nthreads; k++)
		if (f->t[k].overflows && !f->t[k].has_ocycles && x.sum_line[CT_OVF]) {
			/* cyclictest always lists the cycles; a missing line is a cut file */
			ret = ct_bad(f, f->lines, "no overflow cycle line for thread %d (truncated file?)", k);
			goto out;
		}
	if (unit == CT_UNIT_GUESS) {
		ct_guess_unit(f);
	} else {
		f->ns = unit == CT_UNIT_NS;
		f->unit_from = "given";
	}
out:
	free(line);
	ct_text_free(&x);
	return ret;
}

/* ----------------------------------------------------------------------
 * Entry point
 */

/* ct_open - open path, or path without a ":us" / ":ns" suffix stating the unit */
static FILE *ct_open(const char *path, char *name, size_t size, enum ct_unit *unit)
{
	struct stat st;
	size_t len = strlen(path);
	FILE *in;

	*unit = CT_UNIT_GUESS;
	snprintf(name, size, "%s", path);
	if (stat(path, &st) && len > 3 && (!strcmp(path + len - 3, ":us") ||
					   !strcmp(path + len - 3, ":ns"))) {
		*unit = path[len - 2] == 'n' ? CT_UNIT_NS : CT_UNIT_US;
		name[len - 3 < size ? len - 3 : size - 1] = '\0';
	}
	in = fopen(name, "r");
	if (in && (fstat(fileno(in), &st) || !S_ISREG(st.st_mode))) {
		fclose(in);
		errno = EISDIR;
		return NULL;
	}
	return in;
}

int cyclictest_load(const char *path, json_t **out)
{
	struct ct_file f = { 0 };
	enum ct_unit unit;
	char name[4096], *text = NULL;
	size_t len = 0, cap = 0, n;
	FILE *in;
	int c, ret;

	*out = NULL;
	f.name = name;
	in = ct_open(path, name, sizeof(name), &unit);
	if (!in)
		return pf_fail(PF_EXIT_USAGE, "%s: cannot read: %s", name, strerror(errno));
	do
		c = getc(in);
	while (c != EOF && isspace(c));
	if (c == EOF) {
		ret = ct_bad(&f, 1, "empty file");
		goto out;
	}
	ungetc(c, in);
	if (c == '{') {
		if (unit != CT_UNIT_GUESS) {
			ret = ct_bad(&f, 1, "a --json file states its unit; drop the :%s suffix",
				     unit == CT_UNIT_NS ? "ns" : "us");
			goto out;
		}
		rewind(in);
		do {
			if (len + 65536 > cap) {
				char *p = realloc(text, cap = cap ? cap * 2 : 1 << 20);

				if (!p) {
					ret = PF_EXIT_INTERNAL;
					goto out;
				}
				text = p;
			}
			n = fread(text + len, 1, cap - len - 1, in);
			len += n;
		} while (n);
		text[len] = '\0';
		ret = ct_load_json(&f, text, len);
	} else {
		rewind(in);
		ret = ct_load_text(&f, in, unit);
	}
	if (!ret)
		ret = ct_build(&f, name, out);
out:
	if (ret == PF_EXIT_INTERNAL)
		pf_err("%s: out of memory", name);
	ct_free(&f);
	free(text);
	fclose(in);
	return ret;
}
