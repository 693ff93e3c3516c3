/*
 * mw_stats.c - exact Mann-Whitney and Hodges-Lehmann on run-level values
 * (mw_stats.h). The null distribution of the rank sum is counted by dynamic
 * programming over the pooled values: ways[k][s] = how many k-subsets of the
 * values seen so far have doubled-rank sum s. That handles ties exactly
 * (mid-ranks doubled are integers) and costs (n + m) * m * (n + m)^2 steps:
 * a few million for 50 runs.
 */
#include "ci/mw_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ci_cmp_dbl - qsort order of doubles, ascending */
static int ci_cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double ci_median(const double *v, size_t n)
{
	double *s, med;

	if (!n || !(s = malloc(n * sizeof(*s))))
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), ci_cmp_dbl);
	med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return med;
}

/*
 * ci_rank_sum_dist - the count of m-subsets of N items with scores score[]
 * by score sum: dist[s] for s in 0..smax (long double counts); NULL on ENOMEM
 */
static long double *ci_rank_sum_dist(const int *score, size_t N, size_t m, size_t smax)
{
	long double *ways = calloc((m + 1) * (smax + 1), sizeof(*ways));
	long double *dist;

	if (!ways)
		return NULL;
	ways[0] = 1;
	for (size_t i = 0; i < N; i++)
		for (size_t k = (i + 1 < m ? i + 1 : m); k >= 1; k--) {
			long double *to = ways + k * (smax + 1), *from = ways + (k - 1) * (smax + 1);

			for (size_t s = smax; s >= (size_t)score[i]; s--) {
				to[s] += from[s - score[i]];
				if (s == 0)
					break;
			}
		}
	dist = malloc((smax + 1) * sizeof(*dist));
	if (dist)
		memcpy(dist, ways + m * (smax + 1), (smax + 1) * sizeof(*dist));
	free(ways);
	return dist;
}

/* one pooled value and where it came from */
struct ci_pooled {
	double v;
	int    is_y;
};

/* ci_cmp_pooled - qsort order of pooled values, ascending */
static int ci_cmp_pooled(const void *a, const void *b)
{
	return ci_cmp_dbl(&((const struct ci_pooled *)a)->v, &((const struct ci_pooled *)b)->v);
}

double ci_mw_p_greater(const double *x, size_t n, const double *y, size_t m, double *u_out)
{
	size_t N = n + m, smax = N * (N + 1), obs = 0;
	struct ci_pooled *pool;
	long double *dist, total = 0, tail = 0;
	int *score;
	double p = -1;

	if (!n || !m || N > CI_STATS_MAX_N)
		return -1;
	pool = malloc(N * sizeof(*pool));
	score = malloc(N * sizeof(*score));
	if (!pool || !score)
		goto out;
	for (size_t i = 0; i < n; i++)
		pool[i] = (struct ci_pooled){ x[i], 0 };
	for (size_t j = 0; j < m; j++)
		pool[n + j] = (struct ci_pooled){ y[j], 1 };
	qsort(pool, N, sizeof(*pool), ci_cmp_pooled);
	/* doubled mid-ranks: a run of ties at ranks a..b (1-based) all get a + b */
	for (size_t a = 0; a < N;) {
		size_t b = a;

		while (b + 1 < N && pool[b + 1].v == pool[a].v)
			b++;
		for (size_t i = a; i <= b; i++) {
			score[i] = (int)(a + 1 + b + 1);
			if (pool[i].is_y)
				obs += (size_t)score[i];
		}
		a = b + 1;
	}
	if (u_out)
		*u_out = (obs - (double)m * (m + 1)) / 2;
	dist = ci_rank_sum_dist(score, N, m, smax);
	if (!dist)
		goto out;
	for (size_t s = 0; s <= smax; s++) {
		total += dist[s];
		if (s >= obs)
			tail += dist[s];
	}
	p = (double)(tail / total);
	free(dist);
out:
	free(pool);
	free(score);
	return p;
}

/* ci_diffs - all m * n differences y - x, sorted ascending; NULL on ENOMEM */
static double *ci_diffs(const double *x, size_t n, const double *y, size_t m)
{
	double *d = malloc(n * m * sizeof(*d));

	if (!d)
		return NULL;
	for (size_t j = 0; j < m; j++)
		for (size_t i = 0; i < n; i++)
			d[j * n + i] = y[j] - x[i];
	qsort(d, n * m, sizeof(*d), ci_cmp_dbl);
	return d;
}

double ci_hl_shift(const double *x, size_t n, const double *y, size_t m)
{
	double *d, hl;

	if (!n || !m || !(d = ci_diffs(x, n, y, m)))
		return NAN;
	hl = (n * m) % 2 ? d[n * m / 2] : (d[n * m / 2 - 1] + d[n * m / 2]) / 2;
	free(d);
	return hl;
}

double ci_hl_upper(const double *x, size_t n, const double *y, size_t m, double alpha)
{
	size_t N = n + m, smax = N * (N + 1), base = m * (m + 1), C = 0;
	long double *dist, total = 0, below = 0;
	double *d, ub = NAN;
	int *score;

	if (!n || !m || N > CI_STATS_MAX_N || !(score = malloc(N * sizeof(*score))))
		return NAN;
	for (size_t i = 0; i < N; i++)
		score[i] = 2 * (int)(i + 1);	/* no ties: the textbook null */
	dist = ci_rank_sum_dist(score, N, m, smax);
	free(score);
	if (!dist)
		return NAN;
	for (size_t s = 0; s <= smax; s++)
		total += dist[s];
	/* U = (doubled rank sum - m (m + 1)) / 2; find the largest C with P(U <= C - 1) <= alpha */
	for (size_t c = 0; c <= n * m; c++) {
		below += dist[base + 2 * c];
		if (below / total > alpha)
			break;
		C = c + 1;
	}
	free(dist);
	if (C == 0)
		return INFINITY;
	if (!(d = ci_diffs(x, n, y, m)))
		return NAN;
	ub = d[n * m - C];
	free(d);
	return ub;
}
