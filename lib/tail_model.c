/*
 * tail_model.c - the generalised Pareto tail of a latency series, used
 * (see tail_model.h): analyze fits it (analysis/tail.c), check judges the
 * budgets exceedance(X) and pwcet(P) on it, summary says what it means per
 * hour. The intervals are profile-likelihood intervals when the model
 * carries its excesses: the levels x at p (or the probabilities p at x)
 * whose best fit with the level at p equal to x is within the chi-square
 * 95 % point of the fit's log-likelihood (the shape maximised over, the
 * scale then fixed by x and p, zeta at its estimate: its binomial error
 * moves a 1e-6 level a hundredth as much as the scale's). Without the
 * excesses they are the delta method's on (xi, sigma) and zeta, on a log
 * scale (docs/statistics.md says why and how well each covers).
 */
#include "tail_model.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* pf_gpd_logsf - log P(Y > y) of the GPD (xi, sigma); -INFINITY beyond a bounded tail's end */
static double pf_gpd_logsf(double y, double xi, double sigma)
{
	double t = xi * y / sigma;

	if (fabs(xi) < 1e-12)
		return -y / sigma;
	if (t <= -1)
		return -INFINITY;
	return -log1p(t) / xi;
}

/* pf_gpd_isf - the excess y with P(Y > y) = q of the GPD (xi, sigma) */
static double pf_gpd_isf(double q, double xi, double sigma)
{
	double l = -log(q);

	if (fabs(xi) < 1e-12)
		return sigma * l;
	return sigma * expm1(xi * l) / xi;
}

/* the function of (xi, sigma, zeta) whose interval the delta method gives */
typedef double pf_tail_fn(const struct pf_tail *m, double xi, double sigma, double zeta, double arg);

static double pf_tail_log_exceed(const struct pf_tail *m, double xi, double sigma, double zeta, double x)
{
	return log(zeta) + pf_gpd_logsf(x - m->u_ns, xi, sigma);
}

static double pf_tail_log_excess(const struct pf_tail *m, double xi, double sigma, double zeta, double p)
{
	return log(pf_gpd_isf(p / zeta, xi, sigma));
}

/*
 * pf_tail_delta_sd - the standard error of f at the fit by the delta method:
 * central differences for the gradient, the covariance of (xi, sigma) and
 * zeta's binomial variance (independent of them); NAN when f is not finite
 * around the fit
 */
static double pf_tail_delta_sd(const struct pf_tail *m, pf_tail_fn *f, double arg)
{
	double h[3] = { 1e-6, 1e-6 * m->sigma_ns, 1e-6 * m->zeta }, g[3], var;
	double p[3] = { m->xi, m->sigma_ns, m->zeta };
	int i;

	for (i = 0; i < 3; i++) {
		double hi[3] = { p[0], p[1], p[2] }, lo[3] = { p[0], p[1], p[2] };

		hi[i] += h[i];
		lo[i] -= h[i];
		g[i] = (f(m, hi[0], hi[1], hi[2], arg) - f(m, lo[0], lo[1], lo[2], arg)) / (2 * h[i]);
		if (!isfinite(g[i]))
			return NAN;
	}
	var = g[0] * g[0] * m->cov[0][0] + 2 * g[0] * g[1] * m->cov[0][1] + g[1] * g[1] * m->cov[1][1] +
		g[2] * g[2] * m->zeta * (1 - m->zeta) / m->n;
	return var >= 0 ? sqrt(var) : NAN;
}

/* the chi-square (1 degree of freedom) 95 % point the profile intervals end at */
#define PF_TAIL_CHI2_95 3.841458820694124

double pf_gpd_ll(const double *y, size_t k, double xi, double sigma)
{
	double s = 0, t;
	size_t i;

	if (!(sigma > 0))
		return -INFINITY;
	if (fabs(xi) < 1e-12) {
		for (i = 0; i < k; i++)
			s += y[i];
		return -(double)k * log(sigma) - s / sigma;
	}
	for (i = 0; i < k; i++) {
		t = xi * y[i] / sigma;
		if (t <= -1)
			return -INFINITY;
		s += log1p(t);
	}
	return -(double)k * log(sigma) - (1 + 1 / xi) * s;
}

/* pf_tail_ll - the GPD (xi, sigma) log-likelihood of the model's excesses */
static double pf_tail_ll(const struct pf_tail *m, double xi, double sigma)
{
	return pf_gpd_ll(m->y, m->k, xi, sigma);
}

/* the smallest shape the profile considers: the fit's own floor (analysis/tail.c refuses a model below it) */
#define PF_TAIL_XI_MIN -0.5

/* the level fixed: the excess e at p / zeta, so the scale follows from the shape */
struct pf_tail_prof {
	const struct pf_tail *m;
	double e, l;	/* x - u; -log(p / zeta) */
};

/* pf_tail_prof_nll - minus the log-likelihood at shape xi with the level fixed; a large number outside the domain */
static double pf_tail_prof_nll(double xi, void *arg)
{
	const struct pf_tail_prof *a = arg;
	double sigma = fabs(xi) < 1e-12 ? a->e / a->l : a->e * xi / expm1(xi * a->l), ll;

	if (xi < PF_TAIL_XI_MIN)
		return 1e300;	/* below it the likelihood grows without bound towards the largest excess */
	ll = pf_tail_ll(a->m, xi, sigma);
	return isfinite(ll) ? -ll : 1e300;
}

/*
 * pf_tail_deviance - 2 (the fit's log-likelihood - the largest with the
 * level at p equal to x_ns): the best shape in a grid around the fit's
 * bracketed and refined by GSL's Brent minimiser; NAN when it fails
 */
static double pf_tail_deviance(const struct pf_tail *m, double x_ns, double p)
{
	struct pf_tail_prof a = { m, x_ns - m->u_ns, -log(p / m->zeta) };
	gsl_function fn = { pf_tail_prof_nll, &a };
	gsl_min_fminimizer *mn;
	double grid[25], best, lo, hi, at, ll_hat = pf_tail_ll(m, m->xi, m->sigma_ns);
	int i, b = 0, it;

	if (!(a.e > 0) || !(a.l > 0) || !isfinite(ll_hat))
		return NAN;
	for (i = 0; i < 25; i++) {	/* shapes from xi - 1.2 to xi + 1.2, none below PF_TAIL_XI_MIN */
		grid[i] = pf_tail_prof_nll(m->xi + 0.1 * (i - 12), &a);
		if (grid[i] < grid[b])
			b = i;
	}
	best = grid[b];
	if (b > 0 && b < 24 && grid[b] < 1e299) {
		lo = m->xi + 0.1 * (b - 13);
		hi = m->xi + 0.1 * (b - 11);
		at = m->xi + 0.1 * (b - 12);
		mn = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
		if (mn && gsl_min_fminimizer_set_with_values(mn, &fn, at, grid[b], lo, grid[b - 1], hi, grid[b + 1]) ==
			  GSL_SUCCESS) {
			for (it = 0; it < 60; it++) {
				if (gsl_min_fminimizer_iterate(mn) != GSL_SUCCESS)
					break;
				if (gsl_min_test_interval(gsl_min_fminimizer_x_lower(mn), gsl_min_fminimizer_x_upper(mn),
							  1e-6, 0) == GSL_SUCCESS)
					break;
			}
			best = fmin(best, gsl_min_fminimizer_f_minimum(mn));
		}
		gsl_min_fminimizer_free(mn);
	}
	if (!(best < 1e299))
		return INFINITY;	/* no shape puts the level there: far outside */
	return fmax(0, 2 * (ll_hat + best));
}

/*
 * pf_tail_prof_end - one end (side 0 lower, 1 upper) of a profile interval
 * along t, the log of x - u (by_p false: p fixed) or of p (by_p true: x
 * fixed), from the estimate t0: outward in doubling steps until the deviance
 * passes the 95 % point, then bisection; 'limit' when it never does
 */
static double pf_tail_prof_end(const struct pf_tail *m, bool by_p, double fixed, double t0, int side,
			       double limit)
{
	double in = t0, out, step = 0.02, d, mid, cap = by_p ? log(m->zeta) - 1e-6 : INFINITY;
	int i;

	for (;;) {
		out = in + (side ? step : -step);
		if (out > cap)	/* p no higher than zeta: the last step ends there */
			out = cap;
		d = by_p ? pf_tail_deviance(m, fixed, exp(out)) : pf_tail_deviance(m, m->u_ns + exp(out), fixed);
		if (isnan(d))
			return NAN;
		if (d > PF_TAIL_CHI2_95)
			break;
		if (out >= cap)
			return limit;
		in = out;
		step *= 2;
		if (step > 1400)
			return limit;
	}
	for (i = 0; i < 40; i++) {
		mid = (in + out) / 2;
		d = by_p ? pf_tail_deviance(m, fixed, exp(mid)) : pf_tail_deviance(m, m->u_ns + exp(mid), fixed);
		if (isnan(d))
			return NAN;
		if (d > PF_TAIL_CHI2_95)
			out = mid;
		else
			in = mid;
	}
	return by_p ? exp((in + out) / 2) : m->u_ns + exp((in + out) / 2);
}

/* pf_tail_quantile_delta - pf_tail_quantile with the delta method's interval */
static double pf_tail_quantile_delta(const struct pf_tail *m, double p, double ci[2])
{
	double l, sd;

	ci[0] = ci[1] = NAN;
	if (!(p > 0 && p < m->zeta))
		return NAN;
	l = pf_tail_log_excess(m, m->xi, m->sigma_ns, m->zeta, p);
	sd = pf_tail_delta_sd(m, pf_tail_log_excess, p);
	if (isfinite(sd)) {
		ci[0] = m->u_ns + exp(l - PF_TAIL_Z95 * sd);
		ci[1] = m->u_ns + exp(l + PF_TAIL_Z95 * sd);
	}
	return m->u_ns + exp(l);
}

double pf_tail_quantile(const struct pf_tail *m, double p, double ci[2])
{
	double l;

	ci[0] = ci[1] = NAN;
	if (!(p > 0 && p < m->zeta))
		return NAN;
	l = pf_tail_log_excess(m, m->xi, m->sigma_ns, m->zeta, p);
	if (m->k && isfinite(l)) {
		ci[0] = pf_tail_prof_end(m, false, p, l, 0, m->u_ns);
		ci[1] = pf_tail_prof_end(m, false, p, l, 1, INFINITY);
		if (!isnan(ci[0]) && !isnan(ci[1]))
			return m->u_ns + exp(l);
		ci[0] = ci[1] = NAN;	/* the profile failed: the delta method's */
	}
	return pf_tail_quantile_delta(m, p, ci);
}

/*
 * pf_tail_invert - the probability p at which one end (side 0 lower, 1
 * upper) of the quantile's delta-method interval is x_ns, by bisection on log p: the
 * interval of P(X > x) is the quantile's read the other way, so that
 * exceedance(X) <= P and pwcet(P) <= X decide alike; the ends of the range
 * searched (1e-300, zeta) when x lies beyond them
 */
static double pf_tail_invert(const struct pf_tail *m, double x_ns, int side)
{
	double lo = -300 * M_LN10, hi = log(m->zeta), mid, ci[2];
	int i;

	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		pf_tail_quantile_delta(m, exp(mid), ci);
		if (!isfinite(ci[side]))
			return NAN;
		if (ci[side] > x_ns)
			lo = mid;	/* the level at mid is above x: x is exceeded more often */
		else
			hi = mid;
	}
	return exp((lo + hi) / 2);
}

/*
 * pf_tail_prof_exceed - the profile interval of P(X > x_ns), the same
 * deviance as the quantile's along p, so that exceedance(X) <= P and
 * pwcet(P) <= X decide alike; l the estimate's log, -INFINITY beyond a
 * bounded tail's fitted end: then from p = 1e-300 up, its lower end 0 when
 * even that is inside. False when the profile fails (ci unset).
 */
static bool pf_tail_prof_exceed(const struct pf_tail *m, double x_ns, double l, double ci[2])
{
	double t = -300 * M_LN10, prev, d, mid;
	int i;

	if (isfinite(l)) {
		ci[0] = pf_tail_prof_end(m, true, x_ns, l, 0, 0);
		ci[1] = pf_tail_prof_end(m, true, x_ns, l, 1, m->zeta);
		return !isnan(ci[0]) && !isnan(ci[1]);
	}
	d = pf_tail_deviance(m, x_ns, exp(t));
	if (isnan(d))
		return false;
	ci[0] = 0;
	if (d > PF_TAIL_CHI2_95) {	/* the interval starts above 1e-300: its lower end, coming up */
		for (prev = t; d > PF_TAIL_CHI2_95; prev = t) {
			t += 2;
			if (t >= log(m->zeta) || isnan(d = pf_tail_deviance(m, x_ns, exp(t))))
				return false;
		}
		for (i = 0; i < 40; i++) {
			mid = (prev + t) / 2;
			if (isnan(d = pf_tail_deviance(m, x_ns, exp(mid))))
				return false;
			*(d > PF_TAIL_CHI2_95 ? &prev : &t) = mid;
		}
		ci[0] = exp(prev);
	}
	ci[1] = pf_tail_prof_end(m, true, x_ns, t, 1, m->zeta);
	return !isnan(ci[1]);
}

double pf_tail_exceed(const struct pf_tail *m, double x_ns, double ci[2])
{
	double l;

	ci[0] = ci[1] = NAN;
	if (x_ns <= m->u_ns)
		return NAN;
	l = pf_tail_log_exceed(m, m->xi, m->sigma_ns, m->zeta, x_ns);
	if (m->k && pf_tail_prof_exceed(m, x_ns, l, ci))
		return l == -INFINITY ? 0 : exp(l);
	ci[0] = pf_tail_invert(m, x_ns, 0);
	ci[1] = pf_tail_invert(m, x_ns, 1);
	return l == -INFINITY ? 0 : exp(l);
}

double pf_tail_run_model(const struct pf_tail *m, double x_ns, double p_target)
{
	double l, sd, room;

	if (x_ns <= m->u_ns || !(p_target > 0 && p_target < m->zeta))
		return NAN;
	/* the upper end of the level at p_target comes to x_ns as its half-width narrows as 1/sqrt(n) */
	l = pf_tail_log_excess(m, m->xi, m->sigma_ns, m->zeta, p_target);
	sd = pf_tail_delta_sd(m, pf_tail_log_excess, p_target);
	room = log(x_ns - m->u_ns) - l;
	if (!isfinite(sd) || !isfinite(l))
		return NAN;
	if (room <= 0)
		return INFINITY;
	return ceil(m->n * (PF_TAIL_Z95 * sd / room) * (PF_TAIL_Z95 * sd / room));
}

double pf_tail_run_binomial(double p, double alpha)
{
	if (!(p > 0 && p < 1) || !(alpha > 0 && alpha < 1))
		return NAN;
	return ceil(log(alpha) / log1p(-p));
}

json_t *pf_tail_run_binomial_json(void)
{
	static const struct { const char *key; double p; } levels[] = {
		{ "1e-6", 1e-6 }, { "1e-9", 1e-9 }, { "1e-12", 1e-12 },
	};
	json_t *b = json_object();

	for (size_t i = 0; b && i < sizeof(levels) / sizeof(levels[0]); i++)
		json_object_set_new(b, levels[i].key, json_integer((json_int_t)pf_tail_run_binomial(levels[i].p,
												      PF_TAIL_ALPHA)));
	return b;
}

/* pf_tail_num - a number member of o, NAN when absent or not a number */
static double pf_tail_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

int pf_tail_from_json(json_t *tail, struct pf_tail *m, const char **why)
{
	json_t *model = json_object_get(tail, "model"), *cov = json_object_get(model, "cov"), *ex;
	const char *reason = json_string_value(json_object_get(tail, "reason"));
	int i, j;

	memset(m, 0, sizeof(*m));
	*why = NULL;
	if (!json_is_object(tail)) {
		*why = "no tail in results.json";
		return -1;
	}
	if (!json_is_object(model)) {
		*why = reason ? reason : "no tail model";
		return -1;
	}
	m->u_ns = pf_tail_num(model, "threshold_ns");
	m->xi = pf_tail_num(model, "shape");
	m->sigma_ns = pf_tail_num(model, "scale_ns");
	m->zeta = pf_tail_num(model, "zeta");
	m->rate_hz = pf_tail_num(model, "rate_hz");
	m->n = pf_tail_num(tail, "count");
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			json_t *v = json_array_get(json_array_get(cov, (size_t)i), (size_t)j);

			m->cov[i][j] = json_is_number(v) ? json_number_value(v) : NAN;
		}
	if (!isfinite(m->u_ns) || !isfinite(m->xi) || !(m->sigma_ns > 0) || !(m->zeta > 0 && m->zeta < 1) ||
	    !(m->n > 0) || !isfinite(m->cov[0][0] + m->cov[0][1] + m->cov[1][1])) {
		*why = "the tail model in results.json is incomplete";
		return -1;
	}
	if (!isfinite(m->rate_hz))
		m->rate_hz = 0;
	/* the excesses, for the profile intervals: all of them or none (then the delta method's) */
	ex = json_object_get(model, "excesses_ns");
	if (json_array_size(ex) <= PF_TAIL_MAX_K) {
		for (i = 0; i < (int)json_array_size(ex) && json_is_number(json_array_get(ex, (size_t)i)); i++)
			m->y[i] = json_number_value(json_array_get(ex, (size_t)i));
		m->k = i == (int)json_array_size(ex) ? (size_t)i : 0;
	}
	return 0;
}

/* pf_tail_g - a number in %.2g, "never" for infinity, "?" when not a number */
static const char *pf_tail_g(double v, char *buf, size_t size)
{
	if (!isfinite(v))
		return isinf(v) ? "never" : "?";
	snprintf(buf, size, "%.2g", v);
	return buf;
}

const char *pf_tail_text(json_t *tail, double x_ns, const char *bound, char *buf, size_t size)
{
	double bin = pf_tail_run_binomial(PF_TAIL_TARGET, PF_TAIL_ALPHA), p, ci[2], run, hz;
	char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], head[160];
	struct pf_tail m;
	const char *why;
	size_t len;

	hz = pf_tail_num(tail, "rate_hz");
	if (pf_tail_from_json(tail, &m, &why)) {
		snprintf(buf, size, "no model: %s; to show P <= %g at 95 %% without one, a run would need %s activations%s%s%s "
			 "with none above %s", why, PF_TAIL_TARGET, pf_tail_g(bin, b1, sizeof(b1)), hz > 0 ? " (" : "",
			 hz > 0 ? pf_tail_g(bin / hz / 60, b2, sizeof(b2)) : "", hz > 0 ? " min)" : "", bound);
		return buf;
	}
	p = pf_tail_exceed(&m, x_ns, ci);
	run = pf_tail_run_model(&m, x_ns, PF_TAIL_TARGET);
	snprintf(head, sizeof(head), "n = %.0f", m.n);
	if (isnan(p))
		snprintf(buf, size, "%s, P(> %s) >= %s per activation (the bound is below the model's threshold)",
			 head, bound, pf_tail_g(m.zeta, b1, sizeof(b1)));
	else
		snprintf(buf, size, "%s, P(> %s) = %s per activation [%s, %s], at most %s per hour at %.0f Hz", head,
			 bound, pf_tail_g(p, b1, sizeof(b1)), pf_tail_g(ci[0] < 1e-299 ? 0 : ci[0], b2, sizeof(b2)),
			 pf_tail_g(ci[1], b3, sizeof(b3)), pf_tail_g(ci[1] * m.rate_hz * 3600, b4, sizeof(b4)), m.rate_hz);
	len = strlen(buf);
	if (isnan(run))	/* the bound below the threshold: the model cannot forecast a run */
		snprintf(buf + len, size - len, "; to show P <= %g at 95 %%: the model cannot say (the bound is below "
			 "its threshold), %s activations (%s min) with none above", PF_TAIL_TARGET,
			 pf_tail_g(bin, b6, sizeof(b6)), m.rate_hz > 0 ? pf_tail_g(bin / m.rate_hz / 60, b1, sizeof(b1)) : "?");
	else
		snprintf(buf + len, size - len, "; to show P <= %g at 95 %%: %s activations (%s min) by the model, %s (%s "
			 "min) with none above", PF_TAIL_TARGET, pf_tail_g(run, b5, sizeof(b5)),
			 m.rate_hz > 0 ? pf_tail_g(run / m.rate_hz / 60, b2, sizeof(b2)) : "?",
			 pf_tail_g(bin, b6, sizeof(b6)), m.rate_hz > 0 ? pf_tail_g(bin / m.rate_hz / 60, b1, sizeof(b1)) : "?");
	return buf;
}

json_t *pf_tail_of_verdict(json_t *task, const char *metric, const char **what)
{
	json_t *tail = json_object_get(task, "tail"), *w = json_object_get(tail, "wakeup_latency_ns");

	if (strstr(metric, "wakeup_latency_ns") && json_is_object(w)) {
		*what = "the trace's wakeup latency";
		return w;
	}
	*what = "the job log's activation latency";
	w = json_object_get(tail, "activation_latency_ns");
	return json_is_object(w) ? w : NULL;
}
