/*
 * tail_model.h - a fitted latency tail read and used: the generalised Pareto
 * model of a series' tail above its threshold (analysis/tail.c fits it into
 * results.json; docs/statistics.md), its exceedance probability and its
 * quantiles with 95 % confidence intervals, and how many activations would
 * show an exceedance probability below a target, by the model and
 * model-free. The intervals are profile-likelihood intervals when the model
 * carries its excesses (results.json's model.excesses_ns), else the delta
 * method's; check, summary and report use them as analyze does.
 */
#ifndef PF_TAIL_MODEL_H
#define PF_TAIL_MODEL_H

#include <jansson.h>
#include <stdbool.h>

/* the two-sided 95 % normal quantile every interval of the model uses */
#define PF_TAIL_Z95 1.959963984540054
/* the zero-failure binomial's level: n >= ln(alpha) / ln(1 - p) */
#define PF_TAIL_ALPHA 0.05

/* the excesses a model carries for its profile-likelihood intervals, at most (ceil(sqrt(n)): n up to 1.6e7) */
#define PF_TAIL_MAX_K 4096

/* pf_tail - one fitted tail: P(X > u + y) = zeta * (1 + xi y / sigma)^(-1/xi) */
struct pf_tail {
	double u_ns;		/* threshold */
	double xi;		/* shape */
	double sigma_ns;	/* scale */
	double zeta;		/* P(X > u), the share of samples above the threshold */
	double cov[2][2];	/* covariance of (xi, sigma_ns), observed information */
	double n;		/* samples of the series */
	double rate_hz;		/* activations per second (0 unknown) */
	size_t k;		/* excesses in y: 0, the delta method's intervals */
	double y[PF_TAIL_MAX_K];	/* the excesses over u_ns the fit was made on */
};

/* pf_gpd_ll - the GPD (xi, sigma) log-likelihood of the k excesses y; -INFINITY outside its domain */
double pf_gpd_ll(const double *y, size_t k, double xi, double sigma);

/*
 * pf_tail_exceed - P(X > x_ns) per activation (0 beyond a bounded tail's
 * fitted end) with its 95 % interval in ci: the probabilities at which the
 * ends of pf_tail_quantile's interval are x_ns, so that exceedance(X) <= P
 * and pwcet(P) <= X decide alike; NAN when x_ns is at or below the
 * threshold (the model says only that it is more than zeta)
 */
double pf_tail_exceed(const struct pf_tail *m, double x_ns, double ci[2]);
/* pf_tail_quantile - the latency exceeded with probability p per activation, its 95 % interval in ci; NAN when p >= zeta */
double pf_tail_quantile(const struct pf_tail *m, double p, double ci[2]);
/*
 * pf_tail_run_model - activations the model needs for the upper end of the
 * interval of the level at p_target to come down to x_ns (its half-width
 * narrows as 1/sqrt(n)), that is for P(X > x_ns) <= p_target at 95 %;
 * INFINITY when the estimate itself is not below x_ns, NAN when it cannot say
 */
double pf_tail_run_model(const struct pf_tail *m, double x_ns, double p_target);
/* pf_tail_run_binomial - activations with no exceedance that show P < p at 1 - alpha: ln(alpha) / ln(1 - p) */
double pf_tail_run_binomial(double p, double alpha);
/* pf_tail_run_binomial_json - a tail object's run_needed_binomial: pf_tail_run_binomial at 1e-6, 1e-9, 1e-12 */
json_t *pf_tail_run_binomial_json(void);
/* the exceedance probability the summary's and the report's run lengths are for (docs/statistics.md) */
#define PF_TAIL_TARGET 1e-9

/*
 * pf_tail_text - what a reviewer reads of a tail object at a latency bound
 * (x_ns, written 'bound' as the budget writes it, "62 us"): P(X > bound) per
 * activation with its interval and at most how many per hour, and the
 * activations that would show P <= PF_TAIL_TARGET at 95 %, by the model and
 * with none above the bound; or why there is no model. Into buf; buf.
 */
const char *pf_tail_text(json_t *tail, double x_ns, const char *bound, char *buf, size_t size);

/*
 * pf_tail_from_json - the model of a tail object of results.json
 * (docs/results.md: tasks.*.tail.*); 0, or -1 with *why when it has none
 * (too few samples, an assumption rejected: its 'reason')
 */
int pf_tail_from_json(json_t *tail, struct pf_tail *m, const char **why);

/*
 * pf_tail_of_verdict - the tail object of the task 'task' (a results.json
 * tasks[] element) that a latency verdict on 'metric' is read with: for a
 * wakeup-latency metric the trace's wakeup latency's when results.json has
 * it (tail.wakeup_latency_ns), else the job log's activation latency's;
 * *what names that series ("the trace's wakeup latency"). NULL when the
 * task has neither.
 */
json_t *pf_tail_of_verdict(json_t *task, const char *metric, const char **what);

#endif
