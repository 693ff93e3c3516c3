/*
 * hist_test.c - unit tests of lib/hist.c, the log-linear histogram: exact
 * values below 256, the relative error of percentiles against exact sorted
 * samples, the representative value, moments, merge, tails and bounds, the
 * JSON round trip, memory and allocation after warm-up, the exact store of
 * a histogram of no pool and of one of a pool.
 */
#include "common.h"
#include "hist.h"
#include "tap.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NRAND 1000000

/* splitmix64 - a fixed-seed generator, the same sequence everywhere */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* log_uniform - a value log-uniform in [lo, hi] */
static int64_t log_uniform(uint64_t *s, double lo, double hi)
{
	double u = (double)(splitmix64(s) >> 11) / 9007199254740992.0;

	return (int64_t)llround(exp(log(lo) + u * (log(hi) - log(lo))));
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* exact_pct - the rank pf_hist_percentile takes, on sorted values */
static int64_t exact_pct(const int64_t *v, size_t n, double q)
{
	uint64_t rank = (uint64_t)ceil(q * (double)n);

	rank = rank < 1 ? 1 : rank > n ? n : rank;
	return v[rank - 1];
}

/* test_exact_small - hist-1.x: every value below 256 is its own bucket */
static void test_exact_small(void)
{
	struct pf_hist h;
	int64_t v, bad = 0;

	pf_hist_init(&h);
	for (v = 0; v < 256; v++)
		bad += pf_hist_add(&h, v, v, v) != 0;
	check_int(bad, ==, 0, "hist-1.1 256 values added");
	for (v = 1; v <= 256; v++)
		bad += pf_hist_percentile(&h, (double)v / 256.0) != v - 1;
	check_int(bad, ==, 0, "hist-1.2 every percentile below 256 is exact");
	check_int(pf_hist_percentile(&h, 127.0 / 256.0), ==, 126, "hist-1.3 p(127/256) is 126");
	pf_hist_free(&h);
	pf_hist_init(&h);
	bad = pf_hist_add(&h, -5, 0, 0) | pf_hist_add(&h, -127, 0, 0) | pf_hist_add(&h, 3, 0, 0);
	check_int(bad, ==, 0, "hist-1.4 negative values added");
	check_int(pf_hist_percentile(&h, 0.5), ==, -5, "hist-1.5 negative values exact below 256 too");
	pf_hist_free(&h);
}

/* test_random - hist-2.x: 1e6 log-uniform samples 1 ns .. 1000 s against the exact sorted values */
static void test_random(void)
{
	static const double q[] = { 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0 };
	int64_t *v = malloc(NRAND * sizeof(*v));
	double err, worst = 0, worst_all = 0, sd = 0, mean;
	struct pf_hist h;
	struct pf_stats s;
	uint64_t seed = 20261203;
	struct pf_i128 sum = { 0, 0 };
	size_t i;
	int bad = 0;

	if (!v)
		abort();
	pf_hist_init(&h);
	for (i = 0; i < NRAND; i++) {
		v[i] = log_uniform(&seed, 1, 1e12);
		sum = pf_i128_add(sum, pf_i128_from(v[i]));
		bad += pf_hist_add(&h, v[i], (int64_t)i, (int64_t)i) != 0;
	}
	check_int(bad, ==, 0, "hist-2.1 1e6 samples added");
	qsort(v, NRAND, sizeof(*v), cmp_i64);
	for (i = 0; i < PF_ARRAY_SIZE(q); i++) {
		err = fabs((double)pf_hist_percentile(&h, q[i]) - (double)exact_pct(v, NRAND, q[i])) /
		      (double)exact_pct(v, NRAND, q[i]);
		worst = err > worst ? err : worst;
	}
	check(worst <= 0.01, "hist-2.2 p50 p90 p99 p99.9 p99.99 max within 1 %% of the exact values");
	tap_diag("max relative error at p50/p90/p99/p99.9/p99.99/max: %.4f %%", worst * 100);
	for (i = 1; i <= 10000; i++) {
		double f = (double)i / 10000.0;

		err = fabs((double)pf_hist_percentile(&h, f) - (double)exact_pct(v, NRAND, f)) /
		      (double)exact_pct(v, NRAND, f);
		worst_all = err > worst_all ? err : worst_all;
	}
	check(worst_all <= 0.01, "hist-2.3 every 0.01 %% quantile within 1 %%");
	tap_diag("max relative error over 10000 quantiles: %.4f %%", worst_all * 100);
	pf_hist_stats(&h, &s);
	mean = (double)(pf_i128_ld(sum) / NRAND);
	for (i = 0; i < NRAND; i++)
		sd += ((double)v[i] - mean) * ((double)v[i] - mean);
	sd = sqrt(sd / (NRAND - 1));
	check(s.count == NRAND && s.min == v[0] && s.max == v[NRAND - 1], "hist-2.4 count, min, max exact");
	check_dbl(s.mean, mean, mean * 1e-15, "hist-2.5 mean exact");
	check_dbl(s.stddev, sd, sd * 1e-9, "hist-2.6 stddev from the running moments");
	check(!s.stddev_estimated, "hist-2.7 stddev not estimated");
	for (i = 0; i < PF_HIST_NPCT; i++)
		bad += s.pct[i] != pf_hist_percentile(&h, pf_hist_pct[i]);
	check_int(bad, ==, 0, "hist-2.8 pf_hist_stats' six percentiles, found in one walk, are those of a walk each "
		  "(pf_hist_percentile)");
	pf_hist_free(&h);
	/* few samples, binned: the top ranks are the max, without a walk */
	pf_hist_init(&h);
	for (i = 0; i < 300; i++)
		bad += pf_hist_add(&h, log_uniform(&seed, 1000, 1e7), 0, 0) != 0;
	pf_hist_stats(&h, &s);
	for (i = 0; i < PF_HIST_NPCT; i++)
		bad += s.pct[i] != pf_hist_percentile(&h, pf_hist_pct[i]);
	check(h.binned && !bad && s.pct[PF_HIST_NPCT - 1] == s.max, "hist-2.9 ... and of 300 binned samples, "
	      "p99.999 the max (%lld)", (long long)s.pct[PF_HIST_NPCT - 1]);
	pf_hist_free(&h);
	free(v);
}

/* test_repr - hist-3.x: the reported value is one a person reads */
static void test_repr(void)
{
	struct pf_hist h;
	struct pf_stats s;
	int64_t v;
	int bad = 0;

	pf_hist_init(&h);
	for (v = 94000; v <= 96000; v++)
		bad += pf_hist_add(&h, v, 0, 0) != 0;
	check_int(bad, ==, 0, "hist-3.1 added");
	check_int(pf_hist_percentile(&h, 0.5), ==, 95000, "hist-3.2 p50 of 94000..96000 reads 95000");
	pf_hist_free(&h);
	pf_hist_init(&h);
	bad = pf_hist_add_n(&h, 1000, 10) | pf_hist_add_n(&h, 1234567, 1000) | pf_hist_add(&h, 1234600, 0, 0);
	pf_hist_stats(&h, &s);
	check_int(s.pct[0], ==, 1230000, "hist-3.3 p50 in bucket [1228800, 1236991] reads 1230000");
	check_int(s.bin_width, ==, 8192, "hist-3.4 bin_width: the widest bucket of a reported percentile");
	check_int(s.pct[5], ==, 1234600, "hist-3.5 the top rank is the exact max");
	pf_hist_free(&h);
	pf_hist_init(&h);
	bad |= pf_hist_add_n(&h, 1234567, 3);
	check_int(pf_hist_percentile(&h, 0.5), ==, 1234567, "hist-3.6 clamped to [min, max]");
	check_int(bad, ==, 0, "hist-3.7 added");
	pf_hist_free(&h);
}

/* stats_same - two statistics equal (moments to rounding) */
static int stats_same(const struct pf_stats *a, const struct pf_stats *b)
{
	return a->count == b->count && a->min == b->min && a->max == b->max && a->max_at == b->max_at &&
	       a->max_id == b->max_id && a->mean == b->mean && fabs(a->stddev - b->stddev) <= 1e-9 * a->stddev &&
	       !memcmp(a->pct, b->pct, sizeof(a->pct)) && !memcmp(a->pct_bound, b->pct_bound, sizeof(a->pct_bound));
}

/* test_merge_json - hist-4.x: merge equals adding all; JSON round trip; empty statistics */
static void test_merge_json(void)
{
	struct pf_hist a, b, all, back;
	struct pf_stats sa, sall, sb;
	json_t *ja, *jb;
	uint64_t seed = 7;
	char *text;
	int64_t v;
	int i, bad = 0;

	pf_hist_init(&a);
	pf_hist_init(&b);
	pf_hist_init(&all);
	for (i = 0; i < 100000; i++) {
		v = log_uniform(&seed, 100, 1e8) * (i % 7 ? 1 : -1);
		bad += pf_hist_add(i % 3 ? &a : &b, v, i, i) != 0;
		bad += pf_hist_add(&all, v, i, i) != 0;
	}
	check_int(bad, ==, 0, "hist-4.1 added");
	check_int(pf_hist_merge(&a, &b), ==, 0, "hist-4.2 merge");
	pf_hist_stats(&a, &sa);
	pf_hist_stats(&all, &sall);
	check(stats_same(&sa, &sall), "hist-4.3 merged statistics equal those of adding all");
	ja = pf_hist_json(&a, "ns");
	jb = pf_hist_json(&all, "ns");
	check(json_equal(json_object_get(ja, "hist"), json_object_get(jb, "hist")),
	      "hist-4.4 merged buckets equal those of adding all");
	text = json_dumps(ja, JSON_COMPACT);
	json_decref(jb);
	jb = text ? json_loads(text, 0, NULL) : NULL;
	check_int(pf_hist_from_json(jb, &back), ==, 0, "hist-4.5 read back from JSON text");
	pf_hist_stats(&back, &sb);
	check(stats_same(&sa, &sb), "hist-4.6 statistics survive the round trip");
	json_decref(jb);
	jb = pf_hist_json(&back, "ns");
	check(json_equal(ja, jb), "hist-4.7 the JSON written again is the same");
	tap_diag("JSON of %d samples in %zu non-empty buckets: %zu bytes", 100000,
		 json_array_size(json_object_get(json_object_get(ja, "hist"), "buckets")), strlen(text ? text : ""));
	free(text);
	json_decref(ja);
	json_decref(jb);
	pf_hist_free(&back);
	ja = json_pack("{sIs{sis[[II]]}sisisf}", "count", (json_int_t)2, "hist", "sub_bucket_bits", 7,
		       "buckets", (json_int_t)5, (json_int_t)1, "min", 5, "max", 5, "stddev", 0.0);
	check_int(pf_hist_from_json(ja, &back), ==, -EINVAL, "hist-4.8 buckets not adding up to count refused");
	json_decref(ja);
	pf_hist_free(&b);
	pf_hist_init(&b);
	pf_hist_stats(&b, &sb);
	ja = pf_hist_json(&b, "ns");
	check(sb.count == 0 && json_is_null(json_object_get(ja, "p99")) && json_is_null(json_object_get(ja, "mean")),
	      "hist-4.9 empty statistics: count 0, nulls");
	check_int(pf_hist_from_json(ja, &back), ==, 0, "hist-4.10 empty histogram read back");
	json_decref(ja);
	pf_hist_free(&a);
	pf_hist_free(&b);
	pf_hist_free(&all);
}

/* test_memory - hist-5.x: a 1 us - 10 ms distribution in 16 KiB, no allocation after warm-up */
static void test_memory(void)
{
	struct pf_hist h;
	uint64_t seed = 3, before;
	int i, bad = 0;

	pf_hist_init(&h);
	bad += pf_hist_add(&h, 1000, 0, 0) != 0;
	bad += pf_hist_add(&h, 10000000, 0, 0) != 0;
	for (i = 0; i < 100000; i++)
		bad += pf_hist_add(&h, log_uniform(&seed, 1000, 1e7), 0, 0) != 0;
	check(pf_hist_bytes(&h) <= 16384, "hist-5.1 1 us - 10 ms distribution holds <= 16 KiB (%zu bytes)",
	      pf_hist_bytes(&h));
	tap_diag("1 us - 10 ms: %zu bytes, %" PRIu64 " allocations", pf_hist_bytes(&h), h.nalloc);
	before = h.nalloc;
	for (i = 0; i < 1000000; i++)
		bad += pf_hist_add(&h, log_uniform(&seed, 1000, 1e7), 0, 0) != 0;
	check_int(h.nalloc, ==, before, "hist-5.2 no allocation after warm-up (1e6 more samples)");
	pf_hist_free(&h);
	pf_hist_init(&h);
	for (i = 0; i < 1000; i++)
		bad += pf_hist_add(&h, 20000 + i, 0, 0) != 0;
	check(pf_hist_bytes(&h) <= sizeof(h) + 1024, "hist-5.3 values inside one power of two cost one range");
	pf_hist_free(&h);
	check_int(bad, ==, 0, "hist-5.4 added");
}

/* test_tails - hist-6.x: preallocated mode and samples known only by a bound */
static void test_tails(void)
{
	struct pf_hist h;
	struct pf_stats s;
	uint64_t before;
	json_t *j;
	int i, bad = 0;

	check_int(pf_hist_init_range(&h, 0, 10000000), ==, 0, "hist-6.1 preallocated 0 .. 10 ms");
	before = h.nalloc;
	for (i = 0; i < 990; i++)
		bad += pf_hist_add(&h, 1000 + i, 0, 0) != 0;
	for (i = 0; i < 10; i++)
		bad += pf_hist_add(&h, 50000000 + i, 0, 7) != 0;
	check(bad == 0 && h.nalloc == before, "hist-6.2 values past the range added without allocating");
	pf_hist_stats(&h, &s);
	check(s.count == 1000 && s.max == 50000009 && s.max_id == 7, "hist-6.3 count and max exact");
	check(!s.pct_bound[2] && s.pct[2] == 1990, "hist-6.4 p99 inside the range is a value (1989 in [1984, 1991] reads 1990)");
	check(s.pct_bound[3] && s.pct_lo[3] == 50000000 && s.pct_hi[3] == 50000009,
	      "hist-6.5 p99.9 past the range is the bound [50000000, 50000009]");
	check(!s.pct_bound[5] && s.pct[5] == 50000009, "hist-6.6 the top rank is the exact max");
	check(!s.stddev_estimated, "hist-6.7 stddev exact: the tail values were known");
	pf_hist_free(&h);

	/* cyclictest: 98 samples of 10 us, overflows >= 200 us: the max and 1 unknown of sum 300 us */
	pf_hist_init(&h);
	bad = pf_hist_add_n(&h, 10000, 98) | pf_hist_add(&h, 400000, 0, 1);
	check_int(pf_hist_add_above(&h, 1, 200000, pf_i128_from(300000)), ==, 0, "hist-6.8 one unknown overflow added");
	check_int(pf_hist_add_above(&h, 2, 200000, pf_i128_from(300000)), ==, -EINVAL, "hist-6.9 a sum below the bound refused");
	pf_hist_stats(&h, &s);
	check(s.count == 100 && s.mean == (98 * 10000.0 + 700000) / 100 && s.stddev_estimated,
	      "hist-6.10 count and mean exact, stddev estimated");
	check(s.pct_bound[2] && s.pct_lo[2] == 200000 && s.pct_hi[2] == 400000 && !s.pct_bound[1] &&
	      s.pct[1] == 10000, "hist-6.11 p99 among the overflows is [200000, 400000]; p90 a value");
	j = pf_hist_json(&h, "ns");
	check(json_is_null(json_object_get(j, "p99")) &&
	      json_integer_value(json_object_get(json_object_get(json_object_get(j, "bounds"), "p99"), ">=")) == 200000 &&
	      json_is_array(json_object_get(j, "estimated")), "hist-6.12 JSON: p99 null, bounds.p99 >= 200000, estimated");
	pf_hist_free(&h);
	check_int(pf_hist_from_json(j, &h), ==, 0, "hist-6.13 tails read back");
	pf_hist_stats(&h, &s);
	check(s.pct_bound[2] && s.stddev_estimated && h.above_n == 1, "hist-6.14 ... bounds and estimate kept");
	json_decref(j);
	pf_hist_free(&h);
	check_int(bad, ==, 0, "hist-6.15 added");
}

/* hist-7.x: counters widen from 4 to 16, 32 and 64 bits without losing a sample */
static void test_widen(void)
{
	struct pf_hist h, back;
	struct pf_stats st;
	json_t *j, *b;
	int bad = 0;

	/* two buckets sharing a byte of 4-bit counters: 20000 and 20128 (width 128) */
	pf_hist_init(&h);
	bad |= pf_hist_add_n(&h, 20000, 15) | pf_hist_add_n(&h, 20128, 15);
	check(!bad && pf_hist_bytes(&h) == sizeof(h) + 64, "hist-7.0a 30 samples in one range: 64 bytes of 4-bit "
	      "counters (%zu bytes)", pf_hist_bytes(&h) - sizeof(h));
	bad |= pf_hist_add(&h, 20000, 0, 0);
	check(!bad && pf_hist_bytes(&h) == sizeof(h) + 256, "hist-7.0b the 16th sample of a bucket widens the range "
	      "to 16-bit counters (%zu bytes)", pf_hist_bytes(&h) - sizeof(h));
	j = pf_hist_json(&h, "ns");
	b = json_object_get(json_object_get(j, "hist"), "buckets");
	check(json_array_size(b) == 2 &&
	      json_integer_value(json_array_get(json_array_get(b, 0), 0)) == 19968 &&
	      json_integer_value(json_array_get(json_array_get(b, 0), 1)) == 16 &&
	      json_integer_value(json_array_get(json_array_get(b, 1), 0)) == 20096 &&
	      json_integer_value(json_array_get(json_array_get(b, 1), 1)) == 15,
	      "hist-7.0c ... both buckets' counts kept: [19968, 16], [20096, 15]");
	json_decref(j);
	pf_hist_free(&h);

	pf_hist_init(&h);
	bad |= pf_hist_add_n(&h, 1000, 300);	/* binned: more than the exact store */
	bad |= pf_hist_add_n(&h, 5000, 70000);	/* past 16 bits */
	bad |= pf_hist_add_n(&h, 5001, 1);	/* the same bucket, widened */
	check_int(bad, ==, 0, "hist-7.1 adds past 16-bit counters succeed");
	pf_hist_stats(&h, &st);
	check_int(st.count, ==, 70301, "hist-7.2 ... every sample counted");
	check_int(st.pct[0], ==, 5000, "hist-7.3 ... the median is in the widened bucket");
	bad |= pf_hist_add_n(&h, 5000, 5000000000ull);	/* past 32 bits */
	pf_hist_stats(&h, &st);
	check(!bad && st.count == 5000070301ull && st.pct[0] == 5000, "hist-7.4 past 32 bits: counted, median kept");
	j = pf_hist_json(&h, "ns");
	check(j && !pf_hist_from_json(j, &back) && back.count == h.count, "hist-7.5 the JSON round trip keeps 64-bit counts");
	json_decref(j);
	pf_hist_free(&back);
	pf_hist_free(&h);
	/* a bin imported with a count of one is still a bin, never an exact sample */
	pf_hist_init(&h);
	bad = pf_hist_add_n(&h, 100000, 1) | pf_hist_add_n(&h, 150000, 1) | pf_hist_add_n(&h, 200000, 1);
	pf_hist_stats(&h, &st);
	check(!bad && h.binned && st.bin_width > 1, "hist-7.6 pf_hist_add_n bins even one count (bin width %lld)",
	      (long long)st.bin_width);
	pf_hist_free(&h);
}

/* test_i128 - hist-8.x: the exact sum's 128-bit arithmetic, the same on 32- and 64-bit targets */
static void test_i128(void)
{
	struct pf_i128 a = pf_i128_mul(INT64_MAX, UINT64_MAX), b;

	check(a.hi == INT64_MAX - 1 && a.lo == 0x8000000000000001ull,
	      "hist-8.1 (2^63 - 1) * (2^64 - 1) exact: %016llx %016llx", (unsigned long long)a.hi,
	      (unsigned long long)a.lo);
	a = pf_i128_mul(-3, 5);
	check(a.hi == -1 && a.lo == (uint64_t)-15 && pf_i128_is_i64(a) && pf_i128_ld(a) == -15.0L,
	      "hist-8.2 -3 * 5 = -15, an int64, exact as a long double");
	a = pf_i128_mul(INT64_MIN, 2);
	b = pf_i128_add(pf_i128_from(-1), pf_i128_from(1));
	check(a.hi == -1 && a.lo == 0 && !pf_i128_is_i64(a) && b.hi == 0 && b.lo == 0,
	      "hist-8.3 INT64_MIN * 2 = -2^64 (not an int64); -1 + 1 carries to 0");
	check(pf_i128_lt(pf_i128_from(-1), pf_i128_from(0)) && pf_i128_lt(pf_i128_from(INT64_MAX), pf_i128_mul(1, 1ull << 63)) &&
	      !pf_i128_lt(pf_i128_from(5), pf_i128_from(5)), "hist-8.4 order across the sign and the 64-bit boundary");
	a = pf_i128_mul(1000000000000000000LL, 100);
	check(!pf_i128_is_i64(a) && pf_i128_ld(a) == 1e20L && pf_i128_ld(pf_i128_neg(a)) == -1e20L,
	      "hist-8.5 10^20 past int64, as a long double either sign");
}

/*
 * test_exact_store - hist-9.x: the exact samples, held in 32 bits while each
 * is 0 .. 2^32-1, stay exact when one is not (negative, or past 2^32) at any
 * point: inline, on the heap, at the inline store's edge; and cost less
 */
static void test_exact_store(void)
{
	static const int64_t odd[] = { -1, (int64_t)UINT32_MAX + 1, INT64_MIN, INT64_MAX };
	static const int at[] = { 0, 57, 58, 115, 116, 127, 128, 200, 255 };
	int64_t v[256], s[256];
	struct pf_hist h;
	size_t a, o, n;
	int i, bad = 0, wrong = 0;

	for (a = 0; a < PF_ARRAY_SIZE(at); a++)
		for (o = 0; o < PF_ARRAY_SIZE(odd); o++) {
			n = (size_t)at[a] + 1 + a * 13 % 40;
			n = n > 256 ? 256 : n;
			pf_hist_init(&h);
			for (i = 0; i < (int)n; i++) {
				v[i] = i == at[a] ? odd[o] : (int64_t)((i * 2654435761u) % 4000000000u);
				bad += pf_hist_add(&h, v[i], i, i) != 0;
			}
			memcpy(s, v, n * sizeof(*s));
			qsort(s, n, sizeof(*s), cmp_i64);
			for (i = 1; i <= (int)n; i++)
				wrong += pf_hist_percentile(&h, (double)i / (double)n) != exact_pct(s, n, (double)i / (double)n);
			pf_hist_free(&h);
		}
	check_int(bad, ==, 0, "hist-9.1 samples added");
	check_int(wrong, ==, 0, "hist-9.2 every rank exact, whichever sample needs 64 bits and wherever it comes");
	pf_hist_init(&h);
	for (i = 0; i < 116; i++)
		bad += pf_hist_add(&h, 4000000000LL - i, 0, 0) != 0;
	check(pf_hist_bytes(&h) == sizeof(h), "hist-9.3 116 samples below 2^32 held in the struct (%zu bytes)",
	      pf_hist_bytes(&h));
	for (; i < 256; i++)
		bad += pf_hist_add(&h, i, 0, 0) != 0;
	check(pf_hist_bytes(&h) == sizeof(h) + 256 * sizeof(uint32_t), "hist-9.4 256 of them: 4 bytes each on the heap "
	      "(%zu bytes)", pf_hist_bytes(&h));
	pf_hist_free(&h);
}

/*
 * test_pool_exact - hist-10.x: a histogram of a pool keeps exactly only the
 * samples its struct holds (116 of 32 bits, 58 when one needs 64), then bins:
 * every percentile within 0.79 % of the exact one, exact below 256, and
 * count, min, max and mean exact; pf_hist_free keeps the property
 */
static void test_pool_exact(void)
{
	struct pf_hist_pool *p = pf_hist_pool_new();
	int64_t v[256], s[256], got, want;
	struct pf_hist h;
	uint64_t seed = 10;
	int i, k, n, bad = 0, far = 0, inexact_small = 0;

	pf_hist_init_pool(&h, p);
	for (i = 0; i < 116; i++)
		bad += pf_hist_add(&h, v[i] = log_uniform(&seed, 100, 3e6), 0, 0) != 0;
	check(!h.binned && pf_hist_bytes(&h) == sizeof(h), "hist-10.1 116 samples held exactly in the struct "
	      "(%zu bytes)", pf_hist_bytes(&h));
	bad += pf_hist_add(&h, v[i++] = 2600000, 0, 0) != 0;
	check(h.binned && h.few == NULL, "hist-10.2 the 117th sample bins them: no heap block of exact samples");
	for (k = 0; k < 2; k++) {
		for (; i < 256; i++)
			bad += pf_hist_add(&h, v[i] = log_uniform(&seed, 100, 3e6), 0, 0) != 0;
		n = i;
		memcpy(s, v, (size_t)n * sizeof(*s));
		qsort(s, (size_t)n, sizeof(*s), cmp_i64);
		for (i = 1; i <= n; i++) {
			want = exact_pct(s, (size_t)n, (double)i / n);
			got = pf_hist_percentile(&h, (double)i / n);
			far += fabs((double)(got - want)) > want / 128.0;
			inexact_small += want < 256 && got != want;
		}
		check(h.count == (uint64_t)n && h.min == s[0] && h.max == s[n - 1], "hist-10.%d count, min and max "
		      "exact (pass %d)", 3 + 2 * k, k);
		pf_hist_free(&h);
		i = 0;
		for (; i < 117; i++)
			bad += pf_hist_add(&h, v[i] = log_uniform(&seed, 100, 3e6), 0, 0) != 0;
		check(h.binned, "hist-10.%d pf_hist_free keeps it a pool's histogram: 117 samples binned (pass %d)",
		      4 + 2 * k, k);
	}
	check_int(far, ==, 0, "hist-10.7 every rank of 256 binned samples within 1/128 of the exact one");
	check_int(inexact_small, ==, 0, "hist-10.8 ranks below 256 exact");
	pf_hist_free(&h);
	for (i = 0; i < 58; i++)
		bad += pf_hist_add(&h, i == 3 ? -5 : i * 1000, 0, 0) != 0;
	check(!h.binned, "hist-10.9 58 samples, one negative: exact in the struct as 64-bit samples");
	bad += pf_hist_add(&h, 7, 0, 0) != 0;
	check(h.binned && pf_hist_percentile(&h, 1.0 / 59) == -5 && pf_hist_percentile(&h, 2.0 / 59) == 0,
	      "hist-10.10 the 59th bins them (min -5, next 0 exact)");
	pf_hist_free(&h);
	pf_hist_init(&h);
	for (i = 0; i < 200; i++)
		bad += pf_hist_add(&h, i * 1000, 0, 0) != 0;
	check(!h.binned, "hist-10.11 a histogram of no pool still keeps 200 samples exactly");
	pf_hist_free(&h);
	pf_hist_pool_free(p);
	check_int(bad, ==, 0, "hist-10.12 samples added");
}

/*
 * test_batch - hist-11.x: pf_hist_add_batch is pf_hist_add bit for bit: the
 * same samples (negative ones, the exact store, binning, widening, the
 * INT64_MIN entries skipped) one by one and 16 at a time, strided as the
 * analysis stages them
 */
static void test_batch(void)
{
	struct pf_hist_pool *p = pf_hist_pool_new();
	struct pf_hist one, many;
	struct pf_stats a, b;
	int64_t stage[16][3];
	uint64_t seed = 11;
	int i, k, bad = 0, same_pct = 1;

	pf_hist_init_pool(&one, p);
	pf_hist_init_pool(&many, p);
	for (i = 0; i < 20000; i += 16) {
		for (k = 0; k < 16; k++) {
			stage[k][0] = (i + k) % 7 == 3 ? INT64_MIN : (i + k) % 101 == 5 ? -(int64_t)(i + k) :
				      log_uniform(&seed, 1, 5e9);
			stage[k][1] = (i + k) * 1000;	/* the time */
			if (stage[k][0] != INT64_MIN)
				bad += pf_hist_add(&one, stage[k][0], stage[k][1], 42) != 0;
		}
		bad += pf_hist_add_batch(&many, &stage[0][0], &stage[0][1], 16, 3, 42) != 0;
	}
	pf_hist_stats(&one, &a);
	pf_hist_stats(&many, &b);
	for (k = 0; k < PF_HIST_NPCT; k++)
		same_pct = same_pct && a.pct[k] == b.pct[k];
	check(bad == 0 && a.count == b.count && a.count == 17143 && a.min == b.min && a.max == b.max &&
	      a.max_at == b.max_at && b.max_id == 42 && same_pct,
	      "hist-11.1 the same count (%llu), min, max with its time, percentiles", (unsigned long long)b.count);
	check(!memcmp(&one.wmean, &many.wmean, 10) && !memcmp(&one.m2, &many.m2, 10) && a.mean == b.mean &&
	      a.stddev == b.stddev, "hist-11.2 the same running moments, bit for bit (stddev %.6g)", b.stddev);
	pf_hist_free(&one);
	pf_hist_free(&many);
	pf_hist_pool_free(p);
}

int main(void)
{
	tap_plan(82);
	test_exact_small();
	test_random();
	test_repr();
	test_merge_json();
	test_memory();
	test_tails();
	test_widen();
	test_i128();
	test_exact_store();
	test_pool_exact();
	test_batch();
	return tap_done();
}
