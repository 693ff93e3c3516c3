/*
 * mw_stats.h - the rank statistics behind 'preflight compare': an exact
 * one-sided Mann-Whitney test, the Hodges-Lehmann shift and its upper
 * confidence bound, on run-level values (one number per run: a p99, a max,
 * a count), never on the samples inside a run, which are autocorrelated.
 *
 * Every function here is pure: arrays in, numbers out, nothing kept.
 * Sample sizes are small (tens of runs), so the exact null distribution
 * is counted, not approximated (docs/ci.md).
 */
#ifndef CI_MW_STATS_H
#define CI_MW_STATS_H

#include <stddef.h>

#define CI_STATS_MAX_N 400	/* baseline + new runs the exact test counts */

/* ci_median - median of n values (mean of the middle two when n is even); NAN when n is 0 */
double ci_median(const double *v, size_t n);

/*
 * ci_mw_p_greater - exact one-sided Mann-Whitney p-value that y tends to be
 * greater than x: the share of the C(n+m, m) ways of labelling the pooled
 * values whose rank sum of the 'y' label is at least the observed one (ties
 * get mid-ranks; the distribution is the conditional one given the ties).
 * *u_out (may be NULL) gets U = #(y > x) + #(y == x) / 2. Returns the p-value,
 * or -1 when n or m is 0 or n + m > CI_STATS_MAX_N.
 */
double ci_mw_p_greater(const double *x, size_t n, const double *y, size_t m, double *u_out);

/* ci_hl_shift - Hodges-Lehmann shift of y over x: the median of all m * n differences y - x; NAN when empty */
double ci_hl_shift(const double *x, size_t n, const double *y, size_t m);

/*
 * ci_hl_upper - one-sided (1 - alpha) upper confidence bound of the shift of
 * y over x (the Mann-Whitney inversion, Lehmann 1975): the
 * (m n - C + 1)-th smallest difference, C the largest c with
 * P(U <= c - 1) <= alpha under no shift. INFINITY when the sample is too
 * small for any bound at that level; NAN when empty or too large.
 */
double ci_hl_upper(const double *x, size_t n, const double *y, size_t m, double alpha);

#endif
