/*
 * tail_fit.c - what analysis/tail.c makes of a series, for the tests that
 * hold it to another implementation (t/0591, SciPy) and for the coverage
 * and prediction benchmarks (analysis/tail-coverage.sh, docs/statistics.md).
 *
 *   tail_fit [--fit-always] < series     one value a line (ns), in release order
 *
 * prints one line of 'key=value' pairs: n, k, the threshold u, the GPD's
 * shape xi and scale sigma and the covariance, the levels at 1e-3, 1e-4 and
 * 1e-6 with their 95 % intervals, the tests' statistics and p-values (no
 * bootstrap: ad_p is nan), the GEV's loc, scale, shape and 1e-6 level, and
 * hold (every gating test passed). --fit-always fits a rejected series too.
 * Exit 0, 2 on bad input, 4 out of memory.
 */
#include "../../analysis/tail.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct an_tail_opts o = { .fit_always = argc > 1 && !strcmp(argv[1], "--fit-always") };
	struct an_tail_fit f;
	static const double ps[] = { 1e-3, 1e-4, 1e-6 };
	double *x = NULL, v, ci[2], q;
	size_t n = 0, cap = 0, i;

	while (scanf("%lf", &v) == 1) {
		if (n == cap) {
			double *nx = realloc(x, (cap = cap ? 2 * cap : 4096) * sizeof(*x));

			if (!nx)
				return 4;
			x = nx;
		}
		x[n++] = v;
	}
	if (!feof(stdin)) {
		fprintf(stderr, "tail_fit: line %zu: not a number\n", n + 1);
		return 2;
	}
	if (an_tail_analyse(x, n, 0, &o, &f))
		return 4;
	printf("n=%zu k=%zu hold=%d u=%.17g xi=%.17g sigma=%.17g cov00=%.17g cov01=%.17g cov11=%.17g",
	       f.n, f.k, f.hold, f.model.u_ns, f.model.xi, f.model.sigma_ns, f.model.cov[0][0],
	       f.model.cov[0][1], f.model.cov[1][1]);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		q = f.have_model ? pf_tail_quantile(&f.model, ps[i], ci) : NAN;
		printf(" q%g=%.17g lo%g=%.17g hi%g=%.17g", ps[i], q, ps[i], f.have_model ? ci[0] : NAN, ps[i],
		       f.have_model ? ci[1] : NAN);
	}
	printf(" lb_q=%.17g lb_p=%.17g runs_z=%.17g runs_p=%.17g ks_d=%.17g ks_p=%.17g ad=%.17g"
	       " gev_loc=%.17g gev_scale=%.17g gev_shape=%.17g gev_block=%zu gev_q6=%.17g reason=%s\n",
	       f.lb.stat, f.lb.p, f.runs.stat, f.runs.p, f.ks.stat, f.ks.p, f.ad.stat, f.gev_loc, f.gev_scale,
	       f.gev_shape, f.gev_block, f.gev_q6, *f.reason ? "rejected" : "none");
	free(x);
	return 0;
}
