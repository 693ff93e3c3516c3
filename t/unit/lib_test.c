/*
 * test-lib.c - unit tests of lib/: duration and number parsing, the
 * histogram's exact outliers, percentiles, moments and merge.
 */
#include "common.h"
#include "hist.h"
#include "tap.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>

/* test_parse - lib-1.x: durations with and without units, rejects */
static void test_parse(void)
{
	int64_t ns = -1;
	long v = -1;

	check_int(pf_parse_duration_ns("62us", PF_NS_PER_SEC, &ns), ==, 0, "lib-1.1 62us parses");
	check_int(ns, ==, 62000, "lib-1.2 62us is 62000 ns");
	check_int(pf_parse_duration_ns("1.5", PF_NS_PER_SEC, &ns), ==, 0, "lib-1.3 bare number parses");
	check_int(ns, ==, 1500000000LL, "lib-1.4 bare number takes the default unit");
	check_int(pf_parse_duration_ns("10ms", 1, &ns), ==, 0, "lib-1.5 10ms parses");
	check_int(ns, ==, 10000000, "lib-1.6 10ms is 1e7 ns");
	check_int(pf_parse_duration_ns("10 ms", 1, &ns), ==, -EINVAL, "lib-1.7 space before unit rejected");
	check_int(pf_parse_duration_ns("5parsecs", 1, &ns), ==, -EINVAL, "lib-1.8 unknown unit rejected");
	check_int(pf_parse_duration_ns("-1s", 1, &ns), ==, -EINVAL, "lib-1.9 negative rejected");
	check_int(pf_parse_duration_ns("", 1, &ns), ==, -EINVAL, "lib-1.10 empty rejected");
	check_int(pf_parse_long("99", 1, 99, &v), ==, 0, "lib-1.11 in-range number parses");
	check_int(v, ==, 99, "lib-1.12 value kept");
	check_int(pf_parse_long("100", 1, 99, &v), ==, -ERANGE, "lib-1.13 out of range rejected");
	check_int(pf_parse_long("9x", 1, 99, &v), ==, -EINVAL, "lib-1.14 trailing junk rejected");
}

/* test_hist_exact - lib-2.x: known samples, exact outliers on both sides */
static void test_hist_exact(void)
{
	struct pf_hist h;
	struct pf_stats s;
	int64_t i;

	check_int(pf_hist_init(&h, 0, 1000, 100), ==, 0, "lib-2.1 init");
	/* 1000 samples: 0, 100, ..., 99900 ns, all binned */
	for (i = 0; i < 1000; i++)
		if (pf_hist_add(&h, i * 100, i, i))
			break;
	/* two outliers past the last bin and one below */
	check_int(pf_hist_add(&h, 5000000, 77, 4711), ==, 0, "lib-2.2 add outlier");
	check_int(pf_hist_add(&h, 250000, 78, 4712), ==, 0, "lib-2.3 add second outlier");
	check_int(pf_hist_add(&h, -30, 79, 4713), ==, 0, "lib-2.4 add value below range");
	pf_hist_stats(&h, &s);
	check_int(s.count, ==, 1003, "lib-2.5 no sample dropped");
	check_int(s.min, ==, -30, "lib-2.6 min exact (below range)");
	check_int(s.max, ==, 5000000, "lib-2.7 max exact past last bin");
	check_int(s.max_id, ==, 4711, "lib-2.8 id of the max kept");
	check_int(s.max_at, ==, 77, "lib-2.9 time of the max kept");
	check_int(h.noutliers, ==, 3, "lib-2.10 outliers stored exactly");
	/* p50: rank 502 of sorted [-30, 0..99900, 250000, 5e6] is 50000 -> bin [50000,51000) upper edge */
	check_int(s.pct[0], ==, 50999, "lib-2.11 p50 to the bin's upper edge");
	check_int(pf_hist_percentile(&h, 1.0), ==, 5000000, "lib-2.12 p100 is the exact max");
	check_int(pf_hist_percentile(&h, 1002.0 / 1003.0), ==, 250000, "lib-2.13 outlier percentile exact");
	check_int(pf_hist_percentile(&h, 1.0 / 1003.0), ==, -30, "lib-2.14 low outlier percentile exact");
	check_dbl(s.mean, (99900.0 * 1000 / 2 + 5000000 + 250000 - 30) / 1003, 1e-6, "lib-2.15 mean exact");
	pf_hist_free(&h);
}

/* test_hist_moments - lib-3.x: stddev, merge equals adding all, empty stats */
static void test_hist_moments(void)
{
	struct pf_hist a, b, all;
	struct pf_stats sa, sall, se;
	json_t *j;
	int64_t v;
	int i, ok = 1;

	ok &= !pf_hist_init(&a, 0, 10, 50);
	ok &= !pf_hist_init(&b, 0, 10, 50);
	ok &= !pf_hist_init(&all, 0, 10, 50);
	srand(1);
	for (i = 0; i < 5000; i++) {
		v = rand() % 700;
		ok &= !pf_hist_add(i % 3 ? &a : &b, v, i, i);
		ok &= !pf_hist_add(&all, v, i, i);
	}
	check(ok, "lib-3.1 init and adds succeed");
	check_int(pf_hist_merge(&a, &b), ==, 0, "lib-3.2 merge");
	pf_hist_stats(&a, &sa);
	pf_hist_stats(&all, &sall);
	check_int(sa.count, ==, sall.count, "lib-3.3 merged count");
	check_dbl(sa.mean, sall.mean, 1e-9, "lib-3.4 merged mean");
	check_dbl(sa.stddev, sall.stddev, 1e-6, "lib-3.5 merged stddev");
	check_int(sa.pct[3], ==, sall.pct[3], "lib-3.6 merged p99.9");
	check_int(sa.max, ==, sall.max, "lib-3.7 merged max");
	pf_hist_free(&b);
	check_int(pf_hist_init(&b, 0, 20, 50), ==, 0, "lib-3.8 init other width");
	check_int(pf_hist_merge(&a, &b), ==, -EINVAL, "lib-3.9 merge of other shape refused");
	pf_hist_free(&b);
	ok = !pf_hist_init(&b, 0, 10, 50);
	pf_hist_stats(&b, &se);
	j = pf_stats_json(&se, 10, "ns");
	check(ok && j && json_is_null(json_object_get(j, "max")) &&
	      json_integer_value(json_object_get(j, "count")) == 0,
	      "lib-3.10 empty statistics are count 0 and null, never zeros");
	json_decref(j);
	j = pf_stats_json(&sall, 10, "ns");
	check(j && json_integer_value(json_object_get(j, "p99.999")) == sall.pct[5],
	      "lib-3.11 JSON carries p99.999");
	json_decref(j);
	pf_hist_free(&a);
	pf_hist_free(&b);
	pf_hist_free(&all);
}

/* test_grow - lib-4.x: a growing array keeps its elements and doubles from 'first' */
static void test_grow(void)
{
	struct { int64_t a, b; } *v = NULL;
	size_t cap = 0, n, bad = 0;

	for (n = 0; n < 1000; n++) {
		if (pf_grow(&v, &cap, n, sizeof(*v), 8))
			break;
		v[n].a = (int64_t)n;
		v[n].b = -(int64_t)n;
	}
	check_int(n, ==, 1000, "lib-4.1 1000 elements appended");
	check_int(cap, ==, 1024, "lib-4.2 capacity doubled from 8 to 1024");
	for (n = 0; n < 1000; n++)
		bad += v[n].a != (int64_t)n || v[n].b != -(int64_t)n;
	check_int(bad, ==, 0, "lib-4.3 every element kept across reallocations");
	check_int(pf_grow(&v, &cap, 10, sizeof(*v), 8), ==, 0, "lib-4.4 room already there");
	check_int(cap, ==, 1024, "lib-4.5 ... leaves the capacity alone");
	free(v);
}

int main(void)
{
	tap_plan(45);
	test_parse();
	test_hist_exact();
	test_hist_moments();
	test_grow();
	return tap_done();
}
