/*
 * fsw_ekf_test.c - the navigation filter against the truth of the simulator
 * (faster-than-real-time harness, fixed seeds). Test ids: ekf-N.M.
 *
 *   ekf-1  the error-state Jacobian equals central finite differences of the
 *          INS step, at random states with large rates
 *   ekf-2  P symmetric and positive definite after every predict and update
 *          of a closed-loop flight
 *   ekf-3  NEES averaged over 30 Monte-Carlo runs of 60 s inside the chi-square 95 %
 *          interval for as many GPS epochs as a consistent filter gives: the
 *          count may fall below the binomial (n epochs, p = 0.95) lower bound
 *          with a probability of 0.1 % only; with the process noise scaled
 *          down 100x the same check must fail
 *   ekf-4  a constant gyro bias estimated within 3 sigma after manoeuvres
 */
#include "bench/sim/sim_harness.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N FSW_EKF_N

static void random_state(struct sim_rng *r, struct fsw_ins_state *x, fsw_vec3 *g, fsw_vec3 *a)
{
	x->pos_m = fsw_v3(300 * sim_rng_gauss(r), 300 * sim_rng_gauss(r), -100 + 10 * sim_rng_gauss(r));
	x->vel_mps = fsw_v3(20 * sim_rng_gauss(r), 20 * sim_rng_gauss(r), 2 * sim_rng_gauss(r));
	x->q = fsw_q_from_euler(0.5 * sim_rng_gauss(r), 0.3 * sim_rng_gauss(r), 3 * sim_rng_uniform(r));
	x->ba_mps2 = fsw_v3(0.1 * sim_rng_gauss(r), 0.1 * sim_rng_gauss(r), 0.1 * sim_rng_gauss(r));
	x->bg_radps = fsw_v3(0.01 * sim_rng_gauss(r), 0.01 * sim_rng_gauss(r), 0.01 * sim_rng_gauss(r));
	*g = fsw_v3(sim_rng_gauss(r), sim_rng_gauss(r), sim_rng_gauss(r));
	*a = fsw_v3(3 * sim_rng_gauss(r), 3 * sim_rng_gauss(r), -9.8 + 3 * sim_rng_gauss(r));
}

static void test_jacobian(void)
{
	struct sim_rng r;
	double worst = 0, F[N * N];
	int c, j, i;

	sim_rng_seed(&r, 42);
	for (c = 0; c < 20; c++) {
		struct fsw_ins_state x, x1;
		fsw_vec3 g, a;
		double dt = c % 2 ? 0.01 : 0.001, eps = 1e-6;

		random_state(&r, &x, &g, &a);
		fsw_ins_jacobian(&x, g, a, dt, F);
		x1 = x;
		fsw_ins_step(&x1, g, a, dt);
		for (j = 0; j < N; j++) {
			struct fsw_ins_state xp = x, xm = x;
			double dp[N] = { 0 }, dm[N] = { 0 }, ep[N], em[N];

			dp[j] = eps;
			dm[j] = -eps;
			fsw_ins_inject(&xp, dp);
			fsw_ins_inject(&xm, dm);
			fsw_ins_step(&xp, g, a, dt);
			fsw_ins_step(&xm, g, a, dt);
			fsw_ins_diff(&xp, &x1, ep);
			fsw_ins_diff(&xm, &x1, em);
			for (i = 0; i < N; i++) {
				double fd = (ep[i] - em[i]) / (2 * eps), d = fabs(fd - F[i * N + j]);

				if (d > worst)
					worst = d;
			}
		}
	}
	check(worst < 1e-6, "ekf-1.1 Jacobian = finite differences over 20 random states (worst |diff| %.2e)", worst);
	{
		struct fsw_ins_state x;
		fsw_vec3 g, a;
		double dx[N], Fdx[N];

		random_state(&r, &x, &g, &a);
		for (i = 0; i < N; i++)
			dx[i] = sim_rng_gauss(&r);
		fsw_ins_jacobian(&x, g, a, 0.01, F);
		fsw_mat_mul(Fdx, F, dx, N, N, 1);
		fsw_ins_transport(&x, g, a, 0.01, dx);
		worst = 0;
		for (i = 0; i < N; i++)
			worst = fmax(worst, fabs(dx[i] - Fdx[i]));
		check(worst < 1e-12, "ekf-1.2 transport of a correction is F dx");
	}
}

static struct sim_harness h;	/* large: static */

/* truth_ins - the truth as an INS state (biases: the DAQ's current true biases) */
static void truth_ins(const struct sim_daq *d, const struct sim_state *st, struct fsw_ins_state *x)
{
	x->pos_m = st->pos_m;
	x->vel_mps = st->vel_mps;
	x->q = st->q;
	x->ba_mps2 = fsw_v3_add(d->sens.accel_bias, d->sens.accel_gm);
	x->bg_radps = fsw_v3_add(d->sens.gyro_bias, d->sens.gyro_gm);
}

#define MAX_EPOCHS 400

struct nees_run {
	struct sim_rng rng;
	bool     seeded;		/* initial error drawn from P0 */
	uint32_t last_upd;
	int      epochs;
	double   nees[MAX_EPOCHS];
};

/*
 * nees_hook - after the first alignment, restart the filter the Monte-Carlo
 * way: nominal state = truth (+) a draw from P0, P = P0; then record the
 * NEES of the corrected state at every GPS update
 */
static void nees_hook(struct sim_harness *hh, void *ctx)
{
	struct nees_run *r = ctx;
	struct fsw *f = hh->fsw;
	struct fsw_ins_state tx;
	const struct sim_state *st;
	double err[N];
	int i;

	if (!r->seeded && f->c.aligned && f->c.epoch == 1) {
		st = sim_daq_truth(&hh->daq, f->c.last_t_us);
		if (!st)
			return;
		truth_ins(&hh->daq, st, &tx);
		fsw_ekf_reset_cov(&f->e.ekf);
		for (i = 0; i < N; i++)
			err[i] = sqrt(f->e.ekf.P[i * N + i]) * sim_rng_gauss(&r->rng);
		fsw_ins_inject(&tx, err);
		f->c.x = tx;
		f->e.k = f->c.k;
		f->e.epoch = f->c.epoch;
		r->seeded = true;
		r->last_upd = f->e.upd_id;
		return;
	}
	if (!r->seeded || f->e.upd_id == r->last_upd)
		return;
	r->last_upd = f->e.upd_id;
	st = sim_daq_truth(&hh->daq, f->e.upd_t_us);
	if (!st || r->epochs >= MAX_EPOCHS)
		return;
	truth_ins(&hh->daq, st, &tx);
	fsw_ins_diff(&tx, &f->e.upd_x, err);
	r->nees[r->epochs++] = fsw_ekf_nees(&f->e.ekf, err);
}

/* chi2_quantile - Wilson-Hilferty approximation of the chi-square quantile (k dof, normal quantile z) */
static double chi2_quantile(double k, double z)
{
	double a = 2 / (9 * k);

	return k * pow(1 - a + z * sqrt(a), 3);
}

/*
 * nees_campaign - runs Monte-Carlo runs, returns the fraction of epochs whose
 * average NEES lies in the 95 % interval; *avg gets the mean over epochs
 */
static double nees_campaign(int runs, double duration_s, double q_scale, double *avg, int *epochs_out)
{
	static struct nees_run r[32];

	if (runs > 32)
		return 0;
	double lo = chi2_quantile(N * runs, -1.959964) / runs, hi = chi2_quantile(N * runs, 1.959964) / runs;
	int run, e, epochs = MAX_EPOCHS, inside = 0;
	double sum = 0;
	char err[256];

	for (run = 0; run < runs; run++) {
		struct sim_scenario s;

		sim_scenario_default(&s);
		s.seed = 1000 + run;
		s.duration_s = duration_s;
		s.fsw.ekf.q_scale = q_scale;
		s.fsw.ekf.gate_chi2 = 0;	/* NEES must see every epoch */
		memset(&r[run], 0, sizeof(r[run]));
		sim_rng_seed(&r[run].rng, 77 + run);
		if (sim_harness_init(&h, &s, err, sizeof(err))) {
			tap_diag("harness: %s", err);
			return 0;
		}
		h.hook = nees_hook;
		h.hook_ctx = &r[run];
		sim_harness_run(&h);
		sim_harness_fini(&h);
		if (r[run].epochs < epochs)
			epochs = r[run].epochs;
	}
	for (e = 0; e < epochs; e++) {
		double m = 0;

		for (run = 0; run < runs; run++)
			m += r[run].nees[e];
		m /= runs;
		sum += m;
		inside += m >= lo && m <= hi;
	}
	*avg = epochs ? sum / epochs : 0;
	*epochs_out = epochs;
	tap_diag("%d runs x %d epochs: average NEES %.2f (15 expected), 95 %% interval [%.2f, %.2f], %d inside",
		 runs, epochs, *avg, lo, hi, inside);
	return epochs ? (double)inside / epochs : 0;
}

static void test_spd(void)
{
	struct sim_scenario s;
	char err[256];

	sim_scenario_default(&s);
	s.duration_s = 200;
	s.seed = 7;
	if (sim_harness_init(&h, &s, err, sizeof(err)))
		tap_diag("harness: %s", err);
	h.fsw->e.ekf.check_pd = true;
	sim_harness_run(&h);
	check(h.fsw->e.ekf.pd_checks > 19000 && h.fsw->e.ekf.pd_failures == 0,
	      "ekf-2.1 P positive definite after each of %llu predicts / updates",
	      (unsigned long long)h.fsw->e.ekf.pd_checks);
	check(h.fsw->e.ekf.max_asym < 1e-9, "ekf-2.2 P symmetric before symmetrisation (max |Pij - Pji| %.1e)",
	      h.fsw->e.ekf.max_asym);
	check(h.fsw->e.ekf.updates > 180 && h.fsw->e.ekf.not_pd == 0,
	      "ekf-2.3 %llu GPS updates, none refused for a non-positive-definite S",
	      (unsigned long long)h.fsw->e.ekf.updates);
	sim_harness_fini(&h);
}

/*
 * binomial_floor - the least count k of n trials of probability p that a
 * consistent estimator reaches but with probability alpha: P(X < k) <= alpha
 * (a 95 % interval leaves about 5 % of epochs outside by construction, and a
 * few more on one seed are chance, not a fault: another libm moves them)
 */
static int binomial_floor(int n, double p, double alpha)
{
	double term = pow(1 - p, n), cdf = 0;	/* P(X = 0) */
	int k;

	for (k = 0; k < n; k++) {
		if (cdf + term > alpha)
			return k;
		cdf += term;
		term *= (double)(n - k) / (k + 1) * p / (1 - p);
	}
	return n;
}

static void test_nees(void)
{
	double frac, avg;
	int epochs, floor_n;

	frac = nees_campaign(30, 60, 1.0, &avg, &epochs);
	floor_n = binomial_floor(epochs, 0.95, 0.001);
	check(epochs >= 50 && frac * epochs + 0.5 >= floor_n,
	      "ekf-3.1 NEES inside its 95 %% chi-square bounds for %.0f of %d GPS epochs (>= %d: chance below it 0.1 %%)",
	      frac * epochs, epochs, floor_n);
	frac = nees_campaign(10, 60, 0.01, &avg, &epochs);
	check(epochs >= 50 && frac * epochs + 0.5 < binomial_floor(epochs, 0.95, 0.001) && avg > 15,
	      "ekf-3.2 negative: process noise / 100 fails the same check (%.0f %% inside, NEES %.1f)",
	      frac * 100, avg);
	check(binomial_floor(58, 0.95, 0.001) == 49 && binomial_floor(100, 0.95, 0.001) == 87,
	      "ekf-3.3 the binomial bound: 49 of 58, 87 of 100 (P(X < k) <= 0.1 %%)");
}

static void test_bias(void)
{
	struct sim_scenario s;
	fsw_vec3 truth, est;
	double sig[3];
	char err[256];
	int i, ok = 1;

	sim_scenario_default(&s);
	s.seed = 3;
	s.duration_s = 330;			/* three laps: twelve 90-degree turns */
	s.sens.gyro_bias_sigma = 0;
	s.sens.gyro_bias_gm_sigma = 0;
	s.sens.gyro_bias_add = fsw_v3(0.006, -0.005, 0.004);	/* 0.34, -0.29, 0.23 deg/s: 2 sigma of P0 */
	if (sim_harness_init(&h, &s, err, sizeof(err)))
		tap_diag("harness: %s", err);
	sim_harness_run(&h);
	truth = fsw_v3_add(h.daq.sens.gyro_bias, h.daq.sens.gyro_gm);
	est = h.fsw->c.x.bg_radps;
	for (i = 0; i < 3; i++) {
		double d = fsw_v3_get(est, i) - fsw_v3_get(truth, i);

		sig[i] = fsw_ekf_sigma(&h.fsw->e.ekf, 12 + i);
		tap_diag("gyro bias %c: true %.5f estimated %.5f rad/s, sigma %.5f (%.1f sigma)", "xyz"[i],
			 fsw_v3_get(truth, i), fsw_v3_get(est, i), sig[i], fabs(d) / sig[i]);
		ok &= fabs(d) < 3 * sig[i];
	}
	check(ok, "ekf-4.1 constant gyro bias estimated within 3 sigma on each axis after 3 laps");
	check(sig[0] < 0.0015 && sig[1] < 0.0015 && sig[2] < 0.0015, "ekf-4.2 bias sigmas shrank below half of P0 (observable)");
	sim_harness_fini(&h);
}

int main(void)
{
	tap_plan(10);
	test_jacobian();
	test_spd();
	test_nees();
	test_bias();
	return tap_done();
}
