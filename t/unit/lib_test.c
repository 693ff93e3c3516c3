/*
 * lib_test.c - unit tests of lib/: duration and number parsing, the growing
 * array (the histogram has its own, t/unit/hist_test.c).
 */
#include "common.h"
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
	tap_plan(19);
	test_parse();
	test_grow();
	return tap_done();
}
