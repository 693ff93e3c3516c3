/*
 * tail.c - the tail statistics of one latency series (see tail.h and
 * docs/statistics.md): run once per series after the pass, on the series
 * in release order, with the GNU Scientific Library's distributions and
 * minimiser. The model is a generalised Pareto distribution (GPD) of the
 * excesses over a threshold (peaks over threshold), the threshold the
 * (ceil(sqrt(n)) + 1)-th largest sample; its assumptions are tested first
 * (independence of the exceedances: Ljung-Box on their indicator series;
 * randomness about the median: the Wald-Wolfowitz runs test; one
 * distribution over the run: two-sample Kolmogorov-Smirnov between the
 * halves; the fit: Anderson-Darling on the excesses, its p-value by a
 * parametric bootstrap), each at 0.05 / 4, and a series that fails one has
 * no model and no figure, only the reason.
 */
#include "tail.h"

#include "ccdf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_rng.h>

#define AN_TAIL_BIG 1e300	/* the minimiser's value outside the parameters' domain */

static int an_tail_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* an_tail_sorted - a sorted copy of x, NULL out of memory */
static double *an_tail_sorted(const double *x, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), an_tail_cmp);
	return s;
}

struct an_tail_test an_tail_ljung_box(const double *x, size_t n, int lags)
{
	struct an_tail_test t = { 0, 1 };
	double mean = 0, c0 = 0, ck, q = 0;
	size_t i;
	int k;

	if (n <= (size_t)lags + 1)
		return (struct an_tail_test){ NAN, NAN };
	for (i = 0; i < n; i++)
		mean += x[i];
	mean /= (double)n;
	for (i = 0; i < n; i++)
		c0 += (x[i] - mean) * (x[i] - mean);
	if (c0 == 0)
		return t;	/* a constant series shows no dependence */
	for (k = 1; k <= lags; k++) {
		ck = 0;
		for (i = (size_t)k; i < n; i++)
			ck += (x[i] - mean) * (x[i - (size_t)k] - mean);
		q += (ck / c0) * (ck / c0) / (double)(n - (size_t)k);
	}
	t.stat = q * (double)n * ((double)n + 2);
	t.p = gsl_cdf_chisq_Q(t.stat, lags);
	return t;
}

struct an_tail_test an_tail_runs(const double *x, size_t n)
{
	struct an_tail_test t = { 0, 1 };
	double *s = an_tail_sorted(x, n), med, n1 = 0, n2 = 0, runs = 0, mu, var;
	int prev = 0, sign;
	size_t i;

	if (!s || !n) {
		free(s);
		return (struct an_tail_test){ NAN, NAN };
	}
	med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	for (i = 0; i < n; i++) {
		if (x[i] == med)
			continue;	/* a value on the median belongs to neither side */
		sign = x[i] > med ? 1 : -1;
		if (sign > 0)
			n1++;
		else
			n2++;
		runs += sign != prev;
		prev = sign;
	}
	if (n1 < 1 || n2 < 1)
		return t;
	mu = 2 * n1 * n2 / (n1 + n2) + 1;
	var = 2 * n1 * n2 * (2 * n1 * n2 - n1 - n2) / ((n1 + n2) * (n1 + n2) * (n1 + n2 - 1));
	if (!(var > 0))
		return t;
	t.stat = (runs - mu) / sqrt(var);
	t.p = 2 * gsl_cdf_ugaussian_Q(fabs(t.stat));
	return t;
}

/* an_tail_kolmogorov_q - P(K > lambda) of the Kolmogorov distribution */
static double an_tail_kolmogorov_q(double lambda)
{
	double sum = 0, term;
	int j;

	if (lambda < 0.2)
		return 1;
	for (j = 1; j <= 100; j++) {
		term = exp(-2.0 * j * j * lambda * lambda);
		sum += j % 2 ? term : -term;
		if (term < 1e-16)
			break;
	}
	sum *= 2;
	return sum < 0 ? 0 : sum > 1 ? 1 : sum;
}

struct an_tail_test an_tail_ks_halves(const double *x, size_t n)
{
	size_t na = n / 2, nb = n - na, i = 0, j = 0;
	double *a = an_tail_sorted(x, na), *b = an_tail_sorted(x + na, nb), d = 0, v, ne;
	struct an_tail_test t = { NAN, NAN };

	if (!a || !b || !na || !nb)
		goto out;
	while (i < na && j < nb) {
		v = a[i] < b[j] ? a[i] : b[j];
		while (i < na && a[i] == v)
			i++;
		while (j < nb && b[j] == v)
			j++;
		if (fabs((double)i / na - (double)j / nb) > d)
			d = fabs((double)i / na - (double)j / nb);
	}
	ne = (double)na * nb / (double)(na + nb);
	t.stat = d;
	t.p = an_tail_kolmogorov_q((sqrt(ne) + 0.12 + 0.11 / sqrt(ne)) * d);
out:
	free(a);
	free(b);
	return t;
}

/* the excesses a likelihood is of */
struct an_tail_data {
	const double *y;
	size_t k;
};

/* an_tail_gpd_nll - the GPD's negative log-likelihood of d at (xi, sigma) (lib/tail_model.c's); AN_TAIL_BIG outside its domain */
static double an_tail_gpd_nll(const struct an_tail_data *d, double xi, double sigma)
{
	double ll = pf_gpd_ll(d->y, d->k, xi, sigma);

	return isfinite(ll) ? -ll : AN_TAIL_BIG;
}

static double an_tail_gpd_f(const gsl_vector *v, void *arg)
{
	return an_tail_gpd_nll(arg, gsl_vector_get(v, 0), exp(gsl_vector_get(v, 1)));
}

/* an_tail_minimise - Nelder-Mead from start (restarted once from its end): 0, or -1 */
static int an_tail_minimise(double (*f)(const gsl_vector *, void *), void *arg, double *x, const double *step,
			    size_t dim)
{
	const gsl_multimin_fminimizer_type *T = gsl_multimin_fminimizer_nmsimplex2;
	gsl_multimin_function fn = { f, dim, arg };
	gsl_vector *v = gsl_vector_alloc(dim), *ss = gsl_vector_alloc(dim);
	gsl_multimin_fminimizer *m = gsl_multimin_fminimizer_alloc(T, dim);
	int ret = -1, round, iter, st;
	size_t i;

	if (!v || !ss || !m)
		goto out;
	for (round = 0; round < 2; round++) {
		for (i = 0; i < dim; i++) {
			gsl_vector_set(v, i, x[i]);
			gsl_vector_set(ss, i, step[i]);
		}
		if (gsl_multimin_fminimizer_set(m, &fn, v, ss))
			goto out;
		for (iter = 0; iter < 5000; iter++) {
			if (gsl_multimin_fminimizer_iterate(m))
				break;
			st = gsl_multimin_test_size(gsl_multimin_fminimizer_size(m), 1e-7);
			if (st == GSL_SUCCESS)
				break;
		}
		for (i = 0; i < dim; i++)
			x[i] = gsl_vector_get(m->x, i);
	}
	ret = m->fval < AN_TAIL_BIG ? 0 : -1;
out:
	gsl_multimin_fminimizer_free(m);
	gsl_vector_free(v);
	gsl_vector_free(ss);
	return ret;
}

int an_tail_gpd_fit(const double *y, size_t k, double *xi, double *sigma, double cov[2][2])
{
	struct an_tail_data d = { y, k };
	double mean = 0, var = 0, ymax = 0, x[2], step[2] = { 0.1, 0.1 }, h1, h2, f0, h11, h22, h12, det;
	size_t i;

	if (k < 3)
		return -1;
	for (i = 0; i < k; i++) {
		mean += y[i];
		ymax = y[i] > ymax ? y[i] : ymax;
	}
	mean /= (double)k;
	for (i = 0; i < k; i++)
		var += (y[i] - mean) * (y[i] - mean);
	var /= (double)(k - 1);
	if (!(mean > 0) || !(var > 0))
		return -1;
	/* the method of moments to start from, inside the domain */
	x[0] = 0.5 * (1 - mean * mean / var);
	x[1] = 0.5 * mean * (1 + mean * mean / var);
	if (x[0] > 0.9 || x[0] < -0.45 || 1 + x[0] * ymax / x[1] <= 0) {
		x[0] = 0;
		x[1] = mean;
	}
	x[1] = log(x[1]);
	if (an_tail_minimise(an_tail_gpd_f, &d, x, step, 2))
		return -1;
	*xi = x[0];
	*sigma = exp(x[1]);
	/* the observed information by central differences, inverted */
	h1 = 1e-4;
	h2 = 1e-4 * *sigma;
	f0 = an_tail_gpd_nll(&d, *xi, *sigma);
	h11 = (an_tail_gpd_nll(&d, *xi + h1, *sigma) - 2 * f0 + an_tail_gpd_nll(&d, *xi - h1, *sigma)) / (h1 * h1);
	h22 = (an_tail_gpd_nll(&d, *xi, *sigma + h2) - 2 * f0 + an_tail_gpd_nll(&d, *xi, *sigma - h2)) / (h2 * h2);
	h12 = (an_tail_gpd_nll(&d, *xi + h1, *sigma + h2) - an_tail_gpd_nll(&d, *xi + h1, *sigma - h2) -
	       an_tail_gpd_nll(&d, *xi - h1, *sigma + h2) + an_tail_gpd_nll(&d, *xi - h1, *sigma - h2)) / (4 * h1 * h2);
	det = h11 * h22 - h12 * h12;
	if (!(h11 > 0) || !(det > 0) || !isfinite(det))
		return -1;
	cov[0][0] = h22 / det;
	cov[1][1] = h11 / det;
	cov[0][1] = cov[1][0] = -h12 / det;
	return 0;
}

double an_tail_ad(const double *y, size_t k, double xi, double sigma)
{
	double *s = an_tail_sorted(y, k), a = 0, lo, hi;
	size_t i;

	if (!s || !k) {
		free(s);
		return NAN;
	}
	for (i = 0; i < k; i++) {
		/* log F and log(1 - F) of the i-th smallest and of the i-th largest */
		double t1 = xi * s[i] / sigma, t2 = xi * s[k - 1 - i] / sigma;
		double ls1 = fabs(xi) < 1e-12 ? -s[i] / sigma : t1 <= -1 ? -INFINITY : -log1p(t1) / xi;
		double ls2 = fabs(xi) < 1e-12 ? -s[k - 1 - i] / sigma : t2 <= -1 ? -INFINITY : -log1p(t2) / xi;

		lo = log(-expm1(ls1));		/* log F(s_i) */
		hi = ls2;			/* log(1 - F(s_{k-1-i})) */
		if (lo < -700)
			lo = -700;
		if (hi < -700)
			hi = -700;
		a += (2.0 * (double)i + 1) * (lo + hi);
	}
	free(s);
	return -(double)k - a / (double)k;
}

/* an_tail_ad_p - the Anderson-Darling p-value by a parametric bootstrap of B samples from the fit */
static double an_tail_ad_p(double a2, size_t k, double xi, double sigma, int B, uint64_t seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double *y = malloc(k * sizeof(*y)), bxi, bsig, bcov[2][2], u;
	int b, above = 0, done = 0;
	size_t i;

	if (!rng || !y) {
		gsl_rng_free(rng);
		free(y);
		return NAN;
	}
	gsl_rng_set(rng, (unsigned long)seed);
	for (b = 0; b < B; b++) {
		for (i = 0; i < k; i++) {
			u = gsl_rng_uniform_pos(rng);
			y[i] = fabs(xi) < 1e-12 ? -sigma * log(u) : sigma * expm1(-xi * log(u)) / xi;
		}
		if (an_tail_gpd_fit(y, k, &bxi, &bsig, bcov))
			continue;
		done++;
		above += an_tail_ad(y, k, bxi, bsig) >= a2;
	}
	gsl_rng_free(rng);
	free(y);
	return done ? (1.0 + above) / (1.0 + done) : NAN;
}

/* an_tail_gev_nll - the GEV's negative log-likelihood of block maxima at (loc, log scale, shape) */
static double an_tail_gev_f(const gsl_vector *v, void *arg)
{
	const struct an_tail_data *d = arg;
	double mu = gsl_vector_get(v, 0), sigma = exp(gsl_vector_get(v, 1)), xi = gsl_vector_get(v, 2);
	double s = 0, z, t;
	size_t i;

	for (i = 0; i < d->k; i++) {
		z = (d->y[i] - mu) / sigma;
		if (fabs(xi) < 1e-12) {
			s += log(sigma) + z + exp(-z);
			continue;
		}
		t = 1 + xi * z;
		if (t <= 0)
			return AN_TAIL_BIG;
		s += log(sigma) + (1 + 1 / xi) * log(t) + pow(t, -1 / xi);
	}
	return isfinite(s) ? s : AN_TAIL_BIG;
}

int an_tail_gev_fit(const double *m, size_t nb, double *loc, double *scale, double *shape)
{
	struct an_tail_data d;
	double mean = 0, var = 0, sd, x[3], step[3] = { 0.25, 0.1, 0.1 }, *z;
	size_t i;
	int ret;

	if (nb < 10)
		return -1;
	for (i = 0; i < nb; i++)
		mean += m[i];
	mean /= (double)nb;
	for (i = 0; i < nb; i++)
		var += (m[i] - mean) * (m[i] - mean);
	var /= (double)(nb - 1);
	if (!(var > 0))
		return -1;
	/* fitted on the standardised maxima, so that the simplex's size test is in units of their spread */
	sd = sqrt(var);
	z = malloc(nb * sizeof(*z));
	if (!z)
		return -1;
	for (i = 0; i < nb; i++)
		z[i] = (m[i] - mean) / sd;
	d = (struct an_tail_data){ z, nb };
	/* Gumbel's moments to start from */
	x[1] = sqrt(6.0) / M_PI;
	x[0] = -0.5772156649 * x[1];
	x[1] = log(x[1]);
	x[2] = 0.05;
	ret = an_tail_minimise(an_tail_gev_f, &d, x, step, 3);
	free(z);
	if (ret)
		return -1;
	*loc = mean + sd * x[0];
	*scale = sd * exp(x[1]);
	*shape = x[2];
	return 0;
}

/* an_tail_gev_level - the GEV level exceeded with probability p per sample, for blocks of b samples */
static double an_tail_gev_level(double loc, double scale, double shape, size_t b, double p)
{
	double y = -(double)b * log1p(-p);	/* -log P(block max <= x) */

	if (fabs(shape) < 1e-12)
		return loc - scale * log(y);
	return loc + scale * (pow(y, -shape) - 1) / shape;
}

/* an_tail_reject - add a rejected test to the reason */
static void an_tail_reject(struct an_tail_fit *f, const char *what, const struct an_tail_test *t, double level)
{
	size_t len = strlen(f->reason);

	if (!(t->p < level))
		return;
	f->hold = false;
	snprintf(f->reason + len, sizeof(f->reason) - len, "%s%s rejected (p = %.2g < %.4g)",
		 len ? "; " : "", what, t->p, level);
}

int an_tail_analyse(const double *x, size_t n, double rate_hz, const struct an_tail_opts *o,
		    struct an_tail_fit *f)
{
	double *s = NULL, *y = NULL, *e = NULL, *bm = NULL, u, xi, sigma, cov[2][2], level;
	size_t k0, k = 0, i, j;
	int ret = 0;

	memset(f, 0, sizeof(*f));
	f->n = n;
	f->lb = f->lb_series = f->runs = f->ks = f->ad = (struct an_tail_test){ NAN, NAN };
	if (n < AN_TAIL_MIN_N) {
		snprintf(f->reason, sizeof(f->reason), "too few samples for a tail model (n = %zu, it needs %d)",
			 n, AN_TAIL_MIN_N);
		return 0;
	}
	s = an_tail_sorted(x, n);
	y = malloc(n * sizeof(*y));
	e = malloc(n * sizeof(*e));
	if (!s || !y || !e) {
		ret = -ENOMEM;
		goto out;
	}
	/* the threshold: the (ceil(sqrt(n)) + 1)-th largest sample; the excesses above it */
	k0 = (size_t)ceil(sqrt((double)n));
	u = s[n - k0 - 1];
	for (i = 0; i < n; i++) {
		e[i] = x[i] > u;
		if (x[i] > u)
			y[k++] = x[i] - u;
	}
	f->k = k;
	f->tested = true;
	f->hold = true;
	level = AN_TAIL_ALPHA / AN_TAIL_NTESTS;
	f->lb = an_tail_ljung_box(e, n, AN_TAIL_LAGS);
	f->lb_series = an_tail_ljung_box(x, n, AN_TAIL_LAGS);
	f->runs = an_tail_runs(x, n);
	f->ks = an_tail_ks_halves(x, n);
	an_tail_reject(f, "independence of the exceedances (Ljung-Box)", &f->lb, level);
	an_tail_reject(f, "randomness (runs test)", &f->runs, level);
	an_tail_reject(f, "one distribution over the run (KS between halves)", &f->ks, level);
	if (k < AN_TAIL_MIN_K) {
		f->hold = false;
		snprintf(f->reason, sizeof(f->reason), "only %zu samples above the threshold (ties): too few for "
			 "a tail model (it needs %d)", k, AN_TAIL_MIN_K);
		goto out;
	}
	if (an_tail_gpd_fit(y, k, &xi, &sigma, cov)) {
		f->hold = false;
		snprintf(f->reason, sizeof(f->reason), "the generalised Pareto fit did not converge");
		goto out;
	}
	f->ad.stat = an_tail_ad(y, k, xi, sigma);
	/* the bootstrap's 199 fits only where its answer can still decide: no other test rejected */
	if (o->ad_bootstrap > 0 && f->hold) {
		f->ad.p = an_tail_ad_p(f->ad.stat, k, xi, sigma, o->ad_bootstrap, o->seed);
		an_tail_reject(f, "the fit (Anderson-Darling)", &f->ad, level);
	}
	if (xi < -0.5) {
		size_t len = strlen(f->reason);

		f->hold = false;
		snprintf(f->reason + len, sizeof(f->reason) - len, "%sshape %.2f < -0.5: the fit's intervals do "
			 "not hold", len ? "; " : "", xi);
	}
	if (!f->hold && !o->fit_always)
		goto out;
	f->have_model = true;
	f->model = (struct pf_tail){ .u_ns = u, .xi = xi, .sigma_ns = sigma, .zeta = (double)k / (double)n,
				     .n = (double)n, .rate_hz = rate_hz };
	memcpy(f->model.cov, cov, sizeof(cov));
	if (k <= PF_TAIL_MAX_K) {	/* the excesses, for the profile-likelihood intervals */
		memcpy(f->model.y, y, k * sizeof(*y));
		f->model.k = k;
	}
	/* the cross-check: a GEV of the maxima of sqrt(n) blocks */
	f->gev_blocks = (size_t)floor(sqrt((double)n));
	f->gev_block = n / f->gev_blocks;
	bm = malloc(f->gev_blocks * sizeof(*bm));
	if (!bm) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < f->gev_blocks; i++) {
		bm[i] = x[i * f->gev_block];
		for (j = i * f->gev_block; j < (i + 1) * f->gev_block; j++)
			bm[i] = x[j] > bm[i] ? x[j] : bm[i];
	}
	f->gev_q6 = NAN;
	if (!an_tail_gev_fit(bm, f->gev_blocks, &f->gev_loc, &f->gev_scale, &f->gev_shape))
		f->gev_q6 = an_tail_gev_level(f->gev_loc, f->gev_scale, f->gev_shape, f->gev_block, 1e-6);
out:
	free(s);
	free(y);
	free(e);
	free(bm);
	return ret;
}

/* an_tail_num - a number, null when not finite (JSON has no NaN) */
static json_t *an_tail_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* an_tail_test_json - one test: its statistic (named), p-value, and whether it gates the model */
static json_t *an_tail_test_json(const char *stat, const struct an_tail_test *t, bool gating)
{
	json_t *o = json_object();

	json_object_set_new(o, stat, an_tail_num(t->stat));
	json_object_set_new(o, "p", an_tail_num(t->p));
	json_object_set_new(o, "gating", json_boolean(gating));
	return o;
}

/* an_tail_pair - [lo, hi] */
static json_t *an_tail_pair(double lo, double hi)
{
	json_t *a = json_array();

	json_array_append_new(a, an_tail_num(lo));
	json_array_append_new(a, an_tail_num(hi));
	return a;
}

json_t *an_tail_json(const double *x, size_t n, double rate_hz, const char *source)
{
	static const struct { const char *key; double p; } levels[] = {
		{ "1e-6", 1e-6 }, { "1e-9", 1e-9 }, { "1e-12", 1e-12 },
	};
	struct an_tail_opts opts = { .ad_bootstrap = 199, .seed = 28 };
	struct an_tail_fit f;
	json_t *o, *t, *m, *q, *g, *c;
	double *s, v, ci[2];
	size_t i;

	if (an_tail_analyse(x, n, rate_hz, &opts, &f))
		return NULL;
	s = an_tail_sorted(x, n);
	o = json_object();
	if (!s || !o) {
		free(s);
		json_decref(o);
		return NULL;
	}
	json_object_set_new(o, "source", json_string(source));
	json_object_set_new(o, "count", json_integer((json_int_t)n));
	json_object_set_new(o, "rate_hz", an_tail_num(rate_hz > 0 ? rate_hz : NAN));
	json_object_set_new(o, "ccdf", an_ccdf_sorted(s, n));
	free(s);
	if (f.tested) {
		t = json_object();
		json_object_set_new(t, "alpha", json_real(AN_TAIL_ALPHA));
		json_object_set_new(t, "alpha_each", json_real(AN_TAIL_ALPHA / AN_TAIL_NTESTS));
		json_object_set_new(t, "ljung_box_exceedances", an_tail_test_json("q", &f.lb, true));
		json_object_set_new(t, "ljung_box_series", an_tail_test_json("q", &f.lb_series, false));
		json_object_set_new(t, "runs", an_tail_test_json("z", &f.runs, true));
		json_object_set_new(t, "ks_halves", an_tail_test_json("d", &f.ks, true));
		json_object_set_new(t, "anderson_darling", an_tail_test_json("a2", &f.ad, true));
		json_object_set_new(t, "lags", json_integer(AN_TAIL_LAGS));
		json_object_set_new(t, "bootstrap", json_integer(opts.ad_bootstrap));
		json_object_set_new(o, "tests", t);
	} else {
		json_object_set_new(o, "tests", json_null());
	}
	json_object_set_new(o, "assumptions_hold", json_boolean(f.have_model));
	json_object_set_new(o, "reason", f.have_model ? json_null() : json_string(f.reason));
	json_object_set_new(o, "run_needed_binomial", pf_tail_run_binomial_json());
	if (!f.have_model) {
		json_object_set_new(o, "model", json_null());
		json_object_set_new(o, "pwcet_ns", json_null());
		json_object_set_new(o, "gev", json_null());
		return o;
	}
	m = json_object();
	json_object_set_new(m, "kind", json_string("gpd-pot"));
	json_object_set_new(m, "threshold_rule", json_string("sqrt-n"));
	json_object_set_new(m, "threshold_ns", json_real(f.model.u_ns));
	json_object_set_new(m, "exceedances", json_integer((json_int_t)f.k));
	json_object_set_new(m, "zeta", json_real(f.model.zeta));
	json_object_set_new(m, "shape", json_real(f.model.xi));
	json_object_set_new(m, "shape_ci", an_tail_pair(f.model.xi - PF_TAIL_Z95 * sqrt(f.model.cov[0][0]),
						       f.model.xi + PF_TAIL_Z95 * sqrt(f.model.cov[0][0])));
	json_object_set_new(m, "scale_ns", json_real(f.model.sigma_ns));
	json_object_set_new(m, "scale_ci", an_tail_pair(f.model.sigma_ns - PF_TAIL_Z95 * sqrt(f.model.cov[1][1]),
						       f.model.sigma_ns + PF_TAIL_Z95 * sqrt(f.model.cov[1][1])));
	c = json_array();
	json_array_append_new(c, an_tail_pair(f.model.cov[0][0], f.model.cov[0][1]));
	json_array_append_new(c, an_tail_pair(f.model.cov[1][0], f.model.cov[1][1]));
	json_object_set_new(m, "cov", c);
	json_object_set_new(m, "rate_hz", an_tail_num(rate_hz > 0 ? rate_hz : NAN));
	json_object_set_new(m, "estimator", json_string("maximum likelihood"));
	json_object_set_new(m, "intervals", json_string(f.model.k ? "95 %, profile likelihood" :
							  "95 %, delta method on the log scale"));
	if (f.model.k) {
		json_t *ex = json_array();

		for (i = 0; ex && i < f.model.k; i++)
			json_array_append_new(ex, json_real(f.model.y[i]));
		json_object_set_new(m, "excesses_ns", ex);
	}
	json_object_set_new(o, "model", m);
	q = json_object();
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		v = pf_tail_quantile(&f.model, levels[i].p, ci);
		json_object_set_new(q, levels[i].key, json_pack("{s:o,s:o}", "value", an_tail_num(v),
								 "ci", an_tail_pair(ci[0], ci[1])));
	}
	json_object_set_new(o, "pwcet_ns", q);
	g = json_object();
	json_object_set_new(g, "block_size", json_integer((json_int_t)f.gev_block));
	json_object_set_new(g, "blocks", json_integer((json_int_t)f.gev_blocks));
	json_object_set_new(g, "loc_ns", an_tail_num(f.gev_loc));
	json_object_set_new(g, "scale_ns", an_tail_num(f.gev_scale));
	json_object_set_new(g, "shape", an_tail_num(f.gev_shape));
	json_object_set_new(g, "pwcet_1e-6_ns", an_tail_num(f.gev_q6));
	pf_tail_quantile(&f.model, 1e-6, ci);
	json_object_set_new(g, "within_gpd_ci", isfinite(f.gev_q6) && isfinite(ci[0]) ?
			    json_boolean(f.gev_q6 >= ci[0] && f.gev_q6 <= ci[1]) : json_null());
	json_object_set_new(o, "gev", g);
	return o;
}
