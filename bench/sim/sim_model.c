/*
 * sim_model.c - 6-DOF fixed-wing dynamics (see sim_model.h).
 *
 * Forces and moments follow Beard & McLain, Small Unmanned Aircraft (2012),
 * chapter 4: lift and drag in the stability frame rotated into body axes,
 * the sigmoid blend sigma(alpha) between linear lift and flat-plate lift
 * past alpha0 (which is what makes the aircraft stall), the parabolic drag
 * polar, lateral derivatives in beta, p, r, and their propeller model
 * T = 1/2 rho S_prop C_prop ((k_motor delta_t)^2 - Va^2).
 * Translational motion is integrated in NED (v_ned' = R f + g), rotational
 * in body axes (J w' = M - w x J w), attitude as q' = 1/2 q (x) [0 w].
 */
#include "sim_model.h"

#include <errno.h>
#include <string.h>

void sim_airframe_aerosonde(struct sim_airframe *af)
{
	/*
	 * Aerosonde UAV, Beard & McLain (2012), chapter 4 supplement: mass and
	 * inertia, geometry, propeller, and the stability and control
	 * derivatives (per radian; rate derivatives non-dimensionalised with
	 * c / (2 Va) and b / (2 Va)).
	 */
	struct sim_airframe a = {
		.mass_kg = 13.5, .jx = 0.8244, .jy = 1.135, .jz = 1.759, .jxz = 0.1204,
		.S_m2 = 0.55, .b_m = 2.8956, .c_m = 0.18994, .S_prop_m2 = 0.2027,
		.rho_kgpm3 = 1.2682, .k_motor = 80, .e_oswald = 0.9,
		.CL0 = 0.28, .CLa = 3.45, .CLq = 0.0, .CLde = -0.36,
		.CD0 = 0.03, .CDa = 0.30, .CDp = 0.0437, .CDq = 0.0, .CDde = 0.0,
		.Cm0 = -0.02338, .Cma = -0.38, .Cmq = -3.6, .Cmde = -0.5,
		.CY0 = 0.0, .CYb = -0.98, .CYp = 0.0, .CYr = 0.0, .CYda = 0.0, .CYdr = -0.17,
		.Cl0 = 0.0, .Clb = -0.12, .Clp = -0.26, .Clr = 0.14, .Clda = 0.08, .Cldr = 0.105,
		.Cn0 = 0.0, .Cnb = 0.25, .Cnp = 0.022, .Cnr = -0.35, .Cnda = 0.06, .Cndr = -0.032,
		.C_prop = 1.0, .M_blend = 50, .alpha0_rad = 0.4712,
		.max_defl_rad = 0.5236,	/* 30 deg, our choice (the book leaves it open) */
	};
	*af = a;
}

/* The 13 integrated numbers. */
struct sim_x {
	fsw_vec3 pos, vel;
	fsw_quat q;
	fsw_vec3 w;
};

struct sim_aero {
	fsw_vec3 force_b, moment_b;	/* aero + propeller, body */
	double va, alpha, beta;
};

/* sim_cl - lift coefficient with the stall blend */
static double sim_cl(const struct sim_airframe *af, double alpha)
{
	double M = af->M_blend, a0 = af->alpha0_rad;
	double e1 = exp(-M * (alpha - a0)), e2 = exp(M * (alpha + a0));
	double sigma = (1 + e1 + e2) / ((1 + e1) * (1 + e2));
	double s = sin(alpha);

	return (1 - sigma) * (af->CL0 + af->CLa * alpha) + sigma * 2 * (alpha >= 0 ? 1 : -1) * s * s * cos(alpha);
}

/* sim_aero_forces - forces and moments on the airframe at one state */
static void sim_aero_forces(const struct sim_airframe *af, const struct sim_x *x, const struct sim_controls *c,
			    fsw_vec3 wind_ned, struct sim_aero *out)
{
	fsw_vec3 vr = fsw_q_rotate(fsw_q_conj(x->q), fsw_v3_sub(x->vel, wind_ned));
	double va = fsw_v3_norm(vr), alpha = atan2(vr.z, vr.x), beta = va > 0.1 ? asin(vr.y / va) : 0;
	double qbar = 0.5 * af->rho_kgpm3 * va * va, ar = af->b_m * af->b_m / af->S_m2;
	double p = x->w.x, q = x->w.y, r = x->w.z, ca = cos(alpha), sa = sin(alpha);
	double bv = va > 1 ? af->b_m / (2 * va) : 0, cv = va > 1 ? af->c_m / (2 * va) : 0;
	double CL = sim_cl(af, alpha), lin = af->CL0 + af->CLa * alpha;
	double CD = af->CDp + lin * lin / (FSW_PI * af->e_oswald * ar);
	double lift = qbar * af->S_m2 * (CL + af->CLq * cv * q + af->CLde * c->elevator_rad);
	double drag = qbar * af->S_m2 * (CD + af->CDq * cv * q + af->CDde * c->elevator_rad);
	double fy = qbar * af->S_m2 * (af->CY0 + af->CYb * beta + af->CYp * bv * p + af->CYr * bv * r +
				       af->CYda * c->aileron_rad + af->CYdr * c->rudder_rad);
	double kd = af->k_motor * c->throttle;
	double thrust = 0.5 * af->rho_kgpm3 * af->S_prop_m2 * af->C_prop * (kd * kd - va * va);

	out->va = va;
	out->alpha = alpha;
	out->beta = beta;
	out->force_b = fsw_v3(-drag * ca + lift * sa + thrust, fy, -drag * sa - lift * ca);
	out->moment_b = fsw_v3(
		qbar * af->S_m2 * af->b_m * (af->Cl0 + af->Clb * beta + af->Clp * bv * p + af->Clr * bv * r +
					     af->Clda * c->aileron_rad + af->Cldr * c->rudder_rad),
		qbar * af->S_m2 * af->c_m * (af->Cm0 + af->Cma * alpha + af->Cmq * cv * q + af->Cmde * c->elevator_rad),
		qbar * af->S_m2 * af->b_m * (af->Cn0 + af->Cnb * beta + af->Cnp * bv * p + af->Cnr * bv * r +
					     af->Cnda * c->aileron_rad + af->Cndr * c->rudder_rad));
}

/* sim_deriv - time derivative of the state */
static void sim_deriv(const struct sim_airframe *af, const struct sim_x *x, const struct sim_controls *c,
		      fsw_vec3 wind, struct sim_x *dx, struct sim_aero *aero)
{
	struct sim_aero a;
	fsw_vec3 w = x->w, Jw, rhs;
	fsw_quat wq = { 0, w.x, w.y, w.z }, qd;
	double det = af->jx * af->jz - af->jxz * af->jxz;

	sim_aero_forces(af, x, c, wind, &a);
	dx->pos = x->vel;
	dx->vel = fsw_v3_add(fsw_q_rotate(x->q, fsw_v3_scale(a.force_b, 1 / af->mass_kg)), fsw_v3(0, 0, FSW_G_MPS2));
	qd = fsw_q_mul(x->q, wq);
	dx->q.w = 0.5 * qd.w;
	dx->q.x = 0.5 * qd.x;
	dx->q.y = 0.5 * qd.y;
	dx->q.z = 0.5 * qd.z;
	Jw = fsw_v3(af->jx * w.x - af->jxz * w.z, af->jy * w.y, -af->jxz * w.x + af->jz * w.z);
	rhs = fsw_v3_sub(a.moment_b, fsw_v3_cross(w, Jw));
	/* invert J = [jx 0 -jxz; 0 jy 0; -jxz 0 jz] */
	dx->w = fsw_v3((af->jz * rhs.x + af->jxz * rhs.z) / det, rhs.y / af->jy,
		       (af->jxz * rhs.x + af->jx * rhs.z) / det);
	if (aero)
		*aero = a;
}

/* sim_x_axpy - x + h * d */
static struct sim_x sim_x_axpy(const struct sim_x *x, const struct sim_x *d, double h)
{
	struct sim_x r = {
		fsw_v3_add(x->pos, fsw_v3_scale(d->pos, h)),
		fsw_v3_add(x->vel, fsw_v3_scale(d->vel, h)),
		{ x->q.w + h * d->q.w, x->q.x + h * d->q.x, x->q.y + h * d->q.y, x->q.z + h * d->q.z },
		fsw_v3_add(x->w, fsw_v3_scale(d->w, h)),
	};
	return r;
}

/* sim_update_gust - one first-order (Dryden-like) filter step per axis */
static void sim_update_gust(struct sim_model *m)
{
	struct sim_wind *wd = &m->wind;
	double v = m->st.airspeed_mps > 5 ? m->st.airspeed_mps : 5;
	double lh = wd->turb_len_m, lv = wd->turb_len_m / 4;
	double ah = exp(-v * m->dt_s / lh), av = exp(-v * m->dt_s / lv);
	double sh = wd->turb_sigma_mps, sv = 0.7 * wd->turb_sigma_mps;

	if (wd->turb_sigma_mps <= 0)
		return;
	wd->gust_mps.x = ah * wd->gust_mps.x + sh * sqrt(1 - ah * ah) * sim_rng_gauss(&m->rng);
	wd->gust_mps.y = ah * wd->gust_mps.y + sh * sqrt(1 - ah * ah) * sim_rng_gauss(&m->rng);
	wd->gust_mps.z = av * wd->gust_mps.z + sv * sqrt(1 - av * av) * sim_rng_gauss(&m->rng);
}

/* sim_refresh - derived quantities of the current state */
static void sim_refresh(struct sim_model *m)
{
	struct sim_x x = { m->st.pos_m, m->st.vel_mps, m->st.q, m->st.omega_radps }, d;
	struct sim_aero a;

	m->st.wind_mps = fsw_v3_add(m->wind.steady_mps, m->wind.gust_mps);
	sim_deriv(&m->af, &x, &m->ctl, m->st.wind_mps, &d, &a);
	m->st.specific_force_mps2 = fsw_v3_scale(a.force_b, 1 / m->af.mass_kg);
	m->st.airspeed_mps = a.va;
	m->st.alpha_rad = a.alpha;
	m->st.beta_rad = a.beta;
	if (a.alpha > m->max_alpha_rad)
		m->max_alpha_rad = a.alpha;
	if (a.va < m->min_airspeed_mps)
		m->min_airspeed_mps = a.va;
	if (a.alpha > m->af.alpha0_rad)
		m->stalled = true;
}

void sim_model_step(struct sim_model *m)
{
	struct sim_x x = { m->st.pos_m, m->st.vel_mps, m->st.q, m->st.omega_radps }, k1, k2, k3, k4, t;
	fsw_vec3 wind = m->st.wind_mps;
	double h = m->dt_s;

	sim_deriv(&m->af, &x, &m->ctl, wind, &k1, NULL);
	t = sim_x_axpy(&x, &k1, h / 2);
	sim_deriv(&m->af, &t, &m->ctl, wind, &k2, NULL);
	t = sim_x_axpy(&x, &k2, h / 2);
	sim_deriv(&m->af, &t, &m->ctl, wind, &k3, NULL);
	t = sim_x_axpy(&x, &k3, h);
	sim_deriv(&m->af, &t, &m->ctl, wind, &k4, NULL);
	t = sim_x_axpy(&x, &k1, h / 6);
	t = sim_x_axpy(&t, &k2, h / 3);
	t = sim_x_axpy(&t, &k3, h / 3);
	t = sim_x_axpy(&t, &k4, h / 6);
	m->st.pos_m = t.pos;
	m->st.vel_mps = t.vel;
	m->st.q = fsw_q_normalize(t.q);
	m->st.omega_radps = t.w;
	m->st.t_s += h;
	sim_update_gust(m);
	sim_refresh(m);
}

void sim_model_set_controls(struct sim_model *m, const struct sim_controls *c)
{
	double lim = m->af.max_defl_rad;

	m->ctl.aileron_rad = fsw_clamp(c->aileron_rad, -lim, lim);
	m->ctl.elevator_rad = fsw_clamp(c->elevator_rad, -lim, lim);
	m->ctl.rudder_rad = fsw_clamp(c->rudder_rad, -lim, lim);
	m->ctl.throttle = fsw_clamp(c->throttle, 0, 1);
}

/* sim_trim_residual - body accelerations u', w', q' in level flight at (alpha, de, dt) */
static void sim_trim_residual(const struct sim_airframe *af, double va, const double u[3], double r[3])
{
	struct sim_controls c = { 0, u[1], 0, u[2] };
	struct sim_x x = { { 0, 0, 0 }, { va, 0, 0 }, fsw_q_from_euler(0, u[0], 0), { 0, 0, 0 } }, d;
	fsw_vec3 ab;

	/* level flight, no wind, velocity along north: theta = alpha */
	sim_deriv(af, &x, &c, fsw_v3(0, 0, 0), &d, NULL);
	ab = fsw_q_rotate(fsw_q_conj(x.q), d.vel);
	r[0] = ab.x;
	r[1] = ab.z;
	r[2] = d.w.y;
}

int sim_model_init(struct sim_model *m, const struct sim_airframe *af, double va, double alt_m, double yaw,
		   const struct sim_wind *wind, uint64_t seed)
{
	double u[3] = { 0.05, -0.1, 0.4 }, r[3], J[9], L[9];
	int it, i, j;

	memset(m, 0, sizeof(*m));
	m->af = *af;
	m->dt_s = 0.001;
	m->wind = *wind;
	sim_rng_seed(&m->rng, seed);
	/* Newton on (alpha, elevator, throttle), finite-difference Jacobian */
	for (it = 0; it < 50; it++) {
		double step[3];

		sim_trim_residual(af, va, u, r);
		if (fabs(r[0]) + fabs(r[1]) + fabs(r[2]) < 1e-10)
			break;
		for (j = 0; j < 3; j++) {
			double up[3] = { u[0], u[1], u[2] }, rp[3];

			up[j] += 1e-6;
			sim_trim_residual(af, va, up, rp);
			for (i = 0; i < 3; i++)
				J[i * 3 + j] = (rp[i] - r[i]) / 1e-6;
		}
		/* solve J step = r via normal equations J'J (small, well conditioned here) */
		{
			double JtJ[9], Jtr[3];

			for (i = 0; i < 3; i++)
				for (j = 0; j < 3; j++)
					JtJ[i * 3 + j] = J[0 * 3 + i] * J[0 * 3 + j] + J[1 * 3 + i] * J[1 * 3 + j] +
							 J[2 * 3 + i] * J[2 * 3 + j];
			for (i = 0; i < 3; i++)
				Jtr[i] = J[0 * 3 + i] * r[0] + J[1 * 3 + i] * r[1] + J[2 * 3 + i] * r[2];
			if (fsw_mat_cholesky(L, JtJ, 3))
				return -EDOM;
			memcpy(step, Jtr, sizeof(step));
			fsw_mat_chol_solve(L, step, 3, 1);
		}
		for (i = 0; i < 3; i++)
			u[i] -= step[i];
	}
	sim_trim_residual(af, va, u, r);
	if (fabs(r[0]) + fabs(r[1]) + fabs(r[2]) > 1e-6 || u[2] < 0 || u[2] > 1 || fabs(u[1]) > af->max_defl_rad)
		return -EDOM;
	m->trim_alpha_rad = u[0];
	m->trim_elevator_rad = u[1];
	m->trim_throttle = u[2];
	m->ctl.elevator_rad = u[1];
	m->ctl.throttle = u[2];
	m->st.q = fsw_q_from_euler(0, u[0], yaw);
	m->st.pos_m = fsw_v3(0, 0, -alt_m);
	m->st.vel_mps = fsw_v3_add(fsw_v3(va * cos(yaw), va * sin(yaw), 0), m->wind.steady_mps);
	m->min_airspeed_mps = va;
	sim_refresh(m);
	return 0;
}
