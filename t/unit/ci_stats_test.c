/*
 * ci_stats_test.c - unit tests of ci/mw_stats.c against values computed by
 * hand: the exact Mann-Whitney tail (with and without ties), the
 * Hodges-Lehmann shift and its upper confidence bound.
 */
#include "ci/mw_stats.h"
#include "t/unit/tap.h"

#include <math.h>

int main(void)
{
	const double x1[] = { 1, 2, 3 }, y1[] = { 4, 5 };
	const double x2[] = { 1, 2, 4 }, y2[] = { 3, 5 };
	const double x3[] = { 1, 2, 2 }, y3[] = { 2, 3 };
	double x10[10], y3b[3], u = -1;

	tap_plan(13);
	/* every y above every x: 1 labelling of C(5,2) = 10 */
	check_dbl(ci_mw_p_greater(x1, 3, y1, 2, &u), 0.1, 1e-12, "ci-stats-1.1 p, y above x, 3 + 2");
	check_dbl(u, 6, 0, "ci-stats-1.2 U = m n when y is above x");
	/* rank sum 3 + 5 = 8: subsets {3,5} and {4,5} reach it, 2 of 10 */
	check_dbl(ci_mw_p_greater(x2, 3, y2, 2, &u), 0.2, 1e-12, "ci-stats-1.3 p, rank sum 8 of 5");
	check_dbl(u, 5, 0, "ci-stats-1.4 U counts pairs with y > x (3>1 3>2 5>1 5>2 5>4)");
	/* ties: mid-ranks 1, 3, 3, 3, 5; y holds 3 + 5; pairs reaching 8: three (3, 5) of 10 */
	check_dbl(ci_mw_p_greater(x3, 3, y3, 2, &u), 0.3, 1e-12, "ci-stats-1.5 p with ties (mid-ranks)");
	check_dbl(u, 5, 0, "ci-stats-1.6 U counts a tie as one half (2>1, 2=2 twice, 3 > all)");
	for (int i = 0; i < 10; i++)
		x10[i] = i;
	for (int j = 0; j < 3; j++)
		y3b[j] = 100 + j;
	/* 10 + 3 runs: the smallest p is 1 / C(13,3) = 1 / 286 */
	check_dbl(ci_mw_p_greater(x10, 10, y3b, 3, NULL), 1.0 / 286, 1e-12, "ci-stats-1.7 p = 1/286 at 10 + 3");
	y3b[0] = 8.5;	/* U = 29: rank sums 36 and 35 of 13 choose 3, 2 labellings */
	check_dbl(ci_mw_p_greater(x10, 10, y3b, 3, NULL), 2.0 / 286, 1e-12, "ci-stats-1.8 p = 2/286 at U = 29");
	/* differences of (x2, y2): -1 1 1 2 3 4, median 1.5 */
	check_dbl(ci_hl_shift(x2, 3, y2, 2), 1.5, 1e-12, "ci-stats-2.1 Hodges-Lehmann of an even count");
	check_dbl(ci_hl_shift(x1, 3, y1, 1), 2, 1e-12, "ci-stats-2.2 Hodges-Lehmann of an odd count");
	/* 3 + 2 at alpha 0.1: P(U <= 0) = 0.1, P(U <= 1) = 0.2, so C = 1: the largest difference */
	check_dbl(ci_hl_upper(x2, 3, y2, 2, 0.1), 4, 1e-12, "ci-stats-2.3 upper bound = largest difference");
	/* at alpha 0.05 no bound exists with 3 + 2 runs */
	check_int(isinf(ci_hl_upper(x2, 3, y2, 2, 0.05)), !=, 0, "ci-stats-2.4 no bound when too few runs");
	/* 10 + 3 at alpha 0.01: P(U <= 1) = 2/286 <= 0.01 < P(U <= 2), C = 2: second largest difference */
	y3b[0] = 100;
	check_dbl(ci_hl_upper(x10, 10, y3b, 3, 0.01), 102 - 1, 1e-12, "ci-stats-2.5 bound at 10 + 3, alpha 0.01");
	return tap_done();
}
