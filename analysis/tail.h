/*
 * tail.h - what tail.c offers: the statistics of one latency series in
 * release order, computed once at the end of the analysis (never per
 * event): its exceedance curve, the tests of the tail model's assumptions,
 * the generalised Pareto fit above an automatic threshold with its
 * intervals, the GEV cross-check and the figures a reviewer reads
 * (docs/statistics.md; the object is tasks.*.tail.* of docs/results.md).
 * Its building blocks are here for the unit test (t/unit/tail_test.c).
 */
#ifndef AN_TAIL_H
#define AN_TAIL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tail_model.h"

#define AN_TAIL_MIN_N     1000	/* fewer samples: no tail model */
#define AN_TAIL_MIN_K     30	/* fewer exceedances of the threshold: no tail model */
#define AN_TAIL_LAGS      20	/* Ljung-Box lags */
#define AN_TAIL_ALPHA     0.05	/* the family-wise level of the four gating tests */
#define AN_TAIL_NTESTS    4	/* Ljung-Box on the exceedances, runs, KS halves, Anderson-Darling */

struct an_tail_opts {
	int      ad_bootstrap;	/* parametric bootstrap samples of the Anderson-Darling p-value (0: none) */
	uint64_t seed;		/* of the bootstrap's generator: the same series, the same p-value */
	bool     fit_always;	/* fit even when an assumption is rejected (validation only, never results.json) */
};

/* an_tail_test - one test's statistic and p-value */
struct an_tail_test {
	double stat, p;
};

/* an_tail_fit - the outcome of an_tail_analyse for one series */
struct an_tail_fit {
	size_t n, k;			/* samples, exceedances of the threshold */
	struct an_tail_test lb, lb_series, runs, ks, ad;	/* lb: on the exceedance indicators */
	bool   tested;			/* the tests ran (n large enough) */
	bool   hold;			/* every gating test passed */
	char   reason[512];		/* why there is no model, "" when there is one */
	bool   have_model;
	struct pf_tail model;
	double gev_loc, gev_scale, gev_shape, gev_q6;	/* the GEV of block maxima, its 1e-6 level */
	size_t gev_block, gev_blocks;
};

/* the building blocks, each on a series of n doubles */
struct an_tail_test an_tail_ljung_box(const double *x, size_t n, int lags);
struct an_tail_test an_tail_runs(const double *x, size_t n);
struct an_tail_test an_tail_ks_halves(const double *x, size_t n);
/* an_tail_gpd_fit - the GPD maximum-likelihood fit of excesses y (> 0): 0, or -1 when it fails */
int an_tail_gpd_fit(const double *y, size_t k, double *xi, double *sigma, double cov[2][2]);
/* an_tail_ad - the Anderson-Darling statistic of excesses y against the GPD (xi, sigma) */
double an_tail_ad(const double *y, size_t k, double xi, double sigma);
/* an_tail_gev_fit - the GEV maximum-likelihood fit of block maxima: 0, or -1 */
int an_tail_gev_fit(const double *m, size_t nb, double *loc, double *scale, double *shape);

/* an_tail_analyse - every statistic of series x (n values in release order, ns); 0 or -ENOMEM */
int an_tail_analyse(const double *x, size_t n, double rate_hz, const struct an_tail_opts *o,
		    struct an_tail_fit *f);
/* an_tail_json - the tail object of docs/results.md for series x: its curve, tests, model and figures; NULL out of memory */
json_t *an_tail_json(const double *x, size_t n, double rate_hz, const char *source);

#endif
