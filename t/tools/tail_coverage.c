/*
 * tail_coverage.c - how well analysis/tail.c's intervals cover, measured
 * (docs/statistics.md; analysis/tail-coverage.sh runs it): for each seed a
 * series of n samples of a distribution whose 1e-6 level is known, analysed
 * as analyze does (no Anderson-Darling bootstrap, for time: its test does not
 * gate here); counted: the series whose assumptions held, and among those
 * the ones whose 95 % interval of the 1e-6 level holds the true level (and
 * whose upper end is above it: what a budget is judged on). Dependent and
 * non-stationary series count how often they are rejected.
 *
 *   tail_coverage DIST N SEEDS     DIST: exp weibull pareto mixture ar1 shift
 *
 * prints one line: dist, n, seeds, accepted, covered, above (upper end >=
 * truth), the median relative width of the interval.
 */
#include "../../analysis/tail.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-3	/* the mixture's heavy share */

/* mixture_sf - P(X > x) of the mixture: 20 us + Exp(1 us), or with EPS 30 us + 10 us Lomax(2) */
static double mixture_sf(double x)
{
	double body = (1 - EPS) * exp(-(x - 20000) / 1000);

	return body + (x > 30000 ? EPS * pow(1 + (x - 30000) / 10000, -2) : EPS);
}

/* truth - the 1e-6 level of dist */
static double truth(const char *d)
{
	double lo = 20000, hi = 1e9, mid;
	int i;

	if (!strcmp(d, "exp"))
		return 20000 + 3000 * log(1e6);
	if (!strcmp(d, "weibull"))
		return 20000 + 3000 * pow(log(1e6), 1 / 1.5);
	if (!strcmp(d, "pareto"))
		return 10000 * pow(1e-6, -1.0 / 3);
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (mixture_sf(mid) > 1e-6)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void gen(const char *d, gsl_rng *r, double *x, size_t n)
{
	double prev = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(d, "exp"))
			x[i] = 20000 + gsl_ran_exponential(r, 3000);
		else if (!strcmp(d, "weibull"))
			x[i] = 20000 + gsl_ran_weibull(r, 3000, 1.5);
		else if (!strcmp(d, "pareto"))
			x[i] = gsl_ran_pareto(r, 3, 10000);
		else if (!strcmp(d, "mixture"))
			x[i] = gsl_rng_uniform(r) < EPS ? 30000 + 10000 * (gsl_ran_pareto(r, 2, 1) - 1) :
				20000 + gsl_ran_exponential(r, 1000);
		else if (!strcmp(d, "ar1")) {
			prev = 0.3 * prev + gsl_ran_exponential(r, 3000);
			x[i] = 20000 + prev;
		} else	/* shift: 1 % of the scale from half time */
			x[i] = 20000 + gsl_ran_exponential(r, 3000) + (i >= n / 2 ? 30 : 0);
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct an_tail_opts o = { 0 };
	struct an_tail_fit f;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double *x, *w, t, ci[2];
	size_t n, seeds, s, acc = 0, cov = 0, above = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: tail_coverage exp|weibull|pareto|mixture|ar1|shift N SEEDS\n");
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	seeds = strtoul(argv[3], NULL, 10);
	x = malloc(n * sizeof(*x));
	w = malloc(seeds * sizeof(*w));
	if (!x || !w || !r)
		return 4;
	t = truth(argv[1]);	/* ar1 and shift: unused */
	for (s = 0; s < seeds; s++) {
		gsl_rng_set(r, 1000 + s);
		gen(argv[1], r, x, n);
		if (an_tail_analyse(x, n, 100, &o, &f))
			return 4;
		if (!f.have_model)
			continue;
		pf_tail_quantile(&f.model, 1e-6, ci);
		w[acc++] = (ci[1] - ci[0]) / t;
		cov += ci[0] <= t && t <= ci[1];
		above += ci[1] >= t;
	}
	qsort(w, acc, sizeof(*w), cmp);
	if (!strcmp(argv[1], "ar1") || !strcmp(argv[1], "shift"))
		printf("%-8s n=%-8zu seeds=%-4zu accepted=%-4zu (%5.1f %%): rejected in %5.1f %% of the seeds\n", argv[1],
		       n, seeds, acc, 100.0 * acc / seeds, 100.0 * (seeds - acc) / seeds);
	else
		printf("%-8s n=%-8zu seeds=%-4zu accepted=%-4zu (%5.1f %%)  covered=%-4zu (%5.1f %% of accepted)  "
	       "upper>=true %5.1f %%  true 1e-6 level %.0f ns  median width %.2f of it\n", argv[1], n, seeds, acc,
	       100.0 * acc / seeds, cov, acc ? 100.0 * cov / acc : NAN, acc ? 100.0 * above / acc : NAN, t,
	       acc ? w[acc / 2] : NAN);
	gsl_rng_free(r);
	free(x);
	free(w);
	return 0;
}
