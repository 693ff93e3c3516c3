/*
 * tail_model.c - the generalised Pareto tail of a latency series, used
 * (see tail_model.h): analyze fits it (analysis/tail.c), check judges the
 * budgets exceedance(X) and pwcet(P) on it, summary says what it means per
 * hour. The intervals are the delta method's on the parameters (xi, sigma)
 * of the fit and the binomial share zeta above the threshold, on a log
 * scale so that they stay positive (docs/statistics.md says why and how
 * well they cover).
 */
#include "tail_model.h"

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

double pf_tail_quantile(const struct pf_tail *m, double p, double ci[2])
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

/*
 * pf_tail_invert - the probability p at which one end (side 0 lower, 1
 * upper) of the quantile's interval is x_ns, by bisection on log p: the
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
		pf_tail_quantile(m, exp(mid), ci);
		if (!isfinite(ci[side]))
			return NAN;
		if (ci[side] > x_ns)
			lo = mid;	/* the level at mid is above x: x is exceeded more often */
		else
			hi = mid;
	}
	return exp((lo + hi) / 2);
}

double pf_tail_exceed(const struct pf_tail *m, double x_ns, double ci[2])
{
	double l;

	ci[0] = ci[1] = NAN;
	if (x_ns <= m->u_ns)
		return NAN;
	ci[0] = pf_tail_invert(m, x_ns, 0);
	ci[1] = pf_tail_invert(m, x_ns, 1);
	l = pf_tail_log_exceed(m, m->xi, m->sigma_ns, m->zeta, x_ns);
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
	json_t *model = json_object_get(tail, "model"), *cov = json_object_get(model, "cov");
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
	snprintf(buf + len, size - len, "; to show P <= %g at 95 %%: %s activations (%s min) by the model, %s (%s min) "
		 "with none above", PF_TAIL_TARGET, pf_tail_g(run, b5, sizeof(b5)),
		 m.rate_hz > 0 ? pf_tail_g(run / m.rate_hz / 60, b2, sizeof(b2)) : "?", pf_tail_g(bin, b6, sizeof(b6)),
		 m.rate_hz > 0 ? pf_tail_g(bin / m.rate_hz / 60, b1, sizeof(b1)) : "?");
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
