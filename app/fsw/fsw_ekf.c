/*
 * fsw_ekf.c - strapdown INS step, its exact error-state Jacobian, and the
 * EKF covariance propagation and GPS update (Joseph form, Cholesky solve of
 * the innovation covariance). See fsw_ekf.h for the state layout.
 *
 * All matrices are fixed-size arrays on the stack or in struct fsw_ekf: no
 * allocation. Cost per predict is two dense 15x15x15 products.
 */
#include "fsw_ekf.h"

#include <errno.h>
#include <string.h>

#define N FSW_EKF_N

void fsw_ekf_params_default(struct fsw_ekf_params *p)
{
	p->accel_noise = 0.02;		/* consumer MEMS: ~200 ug/sqrt(Hz) */
	p->gyro_noise = 0.0015;		/* ~0.09 deg/s/sqrt(Hz) */
	p->accel_bias_rw = 4e-4;
	p->gyro_bias_rw = 3e-5;
	p->gps_pos_h_m = 0.8;
	p->gps_pos_v_m = 1.5;
	p->gps_vel_mps = 0.1;
	p->gate_chi2 = 40.0;		/* chi2(6) tail ~ 3e-7 */
	p->q_scale = 1.0;
	p->p0_pos_m = 3.0;
	p->p0_vel_mps = 0.5;
	p->p0_att_rad = 0.05;
	p->p0_yaw_rad = 0.05;		/* magnetometer alignment: ~1.5 deg here */
	p->p0_ba_mps2 = 0.1;
	p->p0_bg_radps = 0.003;		/* after the ground gyro calibration */
}

void fsw_ins_step(struct fsw_ins_state *x, fsw_vec3 gyro, fsw_vec3 accel, double dt)
{
	fsw_vec3 w = fsw_v3_sub(gyro, x->bg_radps), f = fsw_v3_sub(accel, x->ba_mps2);
	/* the mean specific force acts at the mid-interval attitude (first-order sculling) */
	fsw_quat qm = fsw_q_mul(x->q, fsw_q_exp(fsw_v3_scale(w, dt / 2)));
	fsw_vec3 a = fsw_v3_add(fsw_q_rotate(qm, f), fsw_v3(0, 0, FSW_G_MPS2));

	x->pos_m = fsw_v3_add(x->pos_m, fsw_v3_add(fsw_v3_scale(x->vel_mps, dt), fsw_v3_scale(a, 0.5 * dt * dt)));
	x->vel_mps = fsw_v3_add(x->vel_mps, fsw_v3_scale(a, dt));
	x->q = fsw_q_normalize(fsw_q_mul(x->q, fsw_q_exp(fsw_v3_scale(w, dt))));
}

/* put3 - write a 3x3 block (scaled) into a 15x15 matrix at (r, c) */
static void put3(double *F, int r, int c, const fsw_mat3 *m, double s)
{
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			F[(r + i) * N + c + j] = m->m[i][j] * s;
}

void fsw_ins_jacobian(const struct fsw_ins_state *x, fsw_vec3 gyro, fsw_vec3 accel, double dt, double *F)
{
	fsw_vec3 w = fsw_v3_sub(gyro, x->bg_radps), f = fsw_v3_sub(accel, x->ba_mps2);
	fsw_mat3 R = fsw_q_to_mat3(x->q), Eh = fsw_m3_exp(fsw_v3_scale(w, dt / 2)), Rm = fsw_m3_mul(&R, &Eh);
	fsw_mat3 fx = fsw_m3_skew(f), Ehfx = fsw_m3_skew(fsw_m3_apply(&Eh, f)), A_th = fsw_m3_mul(&R, &Ehfx);
	fsw_mat3 Jh = fsw_m3_jr(fsw_v3_scale(w, dt / 2)), t1 = fsw_m3_mul(&Rm, &fx), A_bg = fsw_m3_mul(&t1, &Jh);
	fsw_mat3 E = fsw_m3_exp(fsw_v3_scale(w, dt)), Et = fsw_m3_transpose(&E);
	fsw_mat3 Jr = fsw_m3_jr(fsw_v3_scale(w, dt));
	int i;

	/*
	 * a = R Exp(w dt/2) f + g with q_true = q Exp(dtheta), w_true = w - dbg,
	 * f_true = f - dba: da/dtheta = -R [Exp(w dt/2) f]x,
	 * da/dbg = R Exp(w dt/2) [f]x Jr(w dt/2) dt/2, da/dba = -R Exp(w dt/2)
	 */
	memset(F, 0, sizeof(double) * N * N);
	for (i = 0; i < N; i++)
		F[i * N + i] = 1;
	for (i = 0; i < 3; i++)
		F[i * N + 3 + i] = dt;				/* dp <- dv */
	put3(F, 0, 6, &A_th, -0.5 * dt * dt);			/* dp <- dtheta */
	put3(F, 0, 9, &Rm, -0.5 * dt * dt);			/* dp <- dba */
	put3(F, 0, 12, &A_bg, 0.25 * dt * dt * dt);		/* dp <- dbg */
	put3(F, 3, 6, &A_th, -dt);				/* dv <- dtheta */
	put3(F, 3, 9, &Rm, -dt);				/* dv <- dba */
	put3(F, 3, 12, &A_bg, 0.5 * dt * dt);			/* dv <- dbg */
	put3(F, 6, 6, &Et, 1);					/* dtheta <- dtheta */
	put3(F, 6, 12, &Jr, -dt);				/* dtheta <- dbg */
}

void fsw_ins_transport(const struct fsw_ins_state *x, fsw_vec3 gyro, fsw_vec3 accel, double dt, double *dx)
{
	double F[N * N], out[N];

	fsw_ins_jacobian(x, gyro, accel, dt, F);
	fsw_mat_mul(out, F, dx, N, N, 1);
	memcpy(dx, out, sizeof(out));
}

void fsw_ins_inject(struct fsw_ins_state *x, const double *dx)
{
	x->pos_m = fsw_v3_add(x->pos_m, fsw_v3(dx[0], dx[1], dx[2]));
	x->vel_mps = fsw_v3_add(x->vel_mps, fsw_v3(dx[3], dx[4], dx[5]));
	x->q = fsw_q_normalize(fsw_q_mul(x->q, fsw_q_exp(fsw_v3(dx[6], dx[7], dx[8]))));
	x->ba_mps2 = fsw_v3_add(x->ba_mps2, fsw_v3(dx[9], dx[10], dx[11]));
	x->bg_radps = fsw_v3_add(x->bg_radps, fsw_v3(dx[12], dx[13], dx[14]));
}

/* set3 - three consecutive entries of a vector */
static void set3(double *d, fsw_vec3 v)
{
	d[0] = v.x;
	d[1] = v.y;
	d[2] = v.z;
}

void fsw_ins_diff(const struct fsw_ins_state *a, const struct fsw_ins_state *b, double *dx)
{
	set3(dx, fsw_v3_sub(a->pos_m, b->pos_m));
	set3(dx + 3, fsw_v3_sub(a->vel_mps, b->vel_mps));
	set3(dx + 6, fsw_q_log(fsw_q_mul(fsw_q_conj(b->q), a->q)));
	set3(dx + 9, fsw_v3_sub(a->ba_mps2, b->ba_mps2));
	set3(dx + 12, fsw_v3_sub(a->bg_radps, b->bg_radps));
}

/* ekf_self_check - with check_pd: is P symmetric and positive definite now? */
static void ekf_self_check(struct fsw_ekf *e)
{
	double L[N * N];
	int i, j;

	if (!e->check_pd)
		return;
	for (i = 0; i < N; i++)
		for (j = i + 1; j < N; j++)
			if (fabs(e->P[i * N + j] - e->P[j * N + i]) > e->max_asym)
				e->max_asym = fabs(e->P[i * N + j] - e->P[j * N + i]);
	e->pd_checks++;
	if (fsw_mat_cholesky(L, e->P, N))
		e->pd_failures++;
}

void fsw_ekf_init(struct fsw_ekf *e, const struct fsw_ekf_params *p)
{
	memset(e, 0, sizeof(*e));
	e->par = *p;
	fsw_ekf_reset_cov(e);
}

void fsw_ekf_reset_cov(struct fsw_ekf *e)
{
	const struct fsw_ekf_params *p = &e->par;
	double s[N] = {
		p->p0_pos_m, p->p0_pos_m, p->p0_pos_m, p->p0_vel_mps, p->p0_vel_mps, p->p0_vel_mps,
		p->p0_att_rad, p->p0_att_rad, p->p0_yaw_rad, p->p0_ba_mps2, p->p0_ba_mps2, p->p0_ba_mps2,
		p->p0_bg_radps, p->p0_bg_radps, p->p0_bg_radps,
	};
	int i;

	memset(e->P, 0, sizeof(e->P));
	for (i = 0; i < N; i++)
		e->P[i * N + i] = s[i] * s[i];
}

void fsw_ekf_predict(struct fsw_ekf *e, const struct fsw_ins_state *x, fsw_vec3 gyro, fsw_vec3 accel, double dt)
{
	const struct fsw_ekf_params *p = &e->par;
	double F[N * N], FP[N * N];
	double qa = p->accel_noise * p->accel_noise * p->q_scale;
	double qg = p->gyro_noise * p->gyro_noise * p->q_scale;
	double qba = p->accel_bias_rw * p->accel_bias_rw * p->q_scale * dt;
	double qbg = p->gyro_bias_rw * p->gyro_bias_rw * p->q_scale * dt;
	int i;

	fsw_ins_jacobian(x, gyro, accel, dt, F);
	fsw_mat_mul(FP, F, e->P, N, N, N);
	fsw_mat_mul_bt(e->P, FP, F, N, N, N);
	/*
	 * Qd: white specific-force noise n (variance qa/dt per step) enters as
	 * dp += dt^2/2 R n, dv += dt R n; R R' = I since the noise is isotropic.
	 */
	for (i = 0; i < 3; i++) {
		e->P[i * N + i] += 0.25 * dt * dt * dt * qa;
		e->P[i * N + 3 + i] += 0.5 * dt * dt * qa;
		e->P[(3 + i) * N + i] += 0.5 * dt * dt * qa;
		e->P[(3 + i) * N + 3 + i] += dt * qa;
		e->P[(6 + i) * N + 6 + i] += dt * qg;
		e->P[(9 + i) * N + 9 + i] += qba;
		e->P[(12 + i) * N + 12 + i] += qbg;
	}
	ekf_self_check(e);
	fsw_mat_symmetrize(e->P, N);
	e->predicts++;
}

int fsw_ekf_update_gps(struct fsw_ekf *e, const struct fsw_ins_state *x, fsw_vec3 pos, fsw_vec3 vel, double *dx)
{
	const struct fsw_ekf_params *p = &e->par;
	double r[6] = {
		p->gps_pos_h_m * p->gps_pos_h_m, p->gps_pos_h_m * p->gps_pos_h_m, p->gps_pos_v_m * p->gps_pos_v_m,
		p->gps_vel_mps * p->gps_vel_mps, p->gps_vel_mps * p->gps_vel_mps, p->gps_vel_mps * p->gps_vel_mps,
	};
	double y[6], Sy[6], S[36], L[36], Kt[6 * N], A[N * N], AP[N * N], nis = 0;
	int i, j, k, rc;

	set3(y, fsw_v3_sub(pos, x->pos_m));
	set3(y + 3, fsw_v3_sub(vel, x->vel_mps));
	/* S = H P H' + R, with H selecting the first six states */
	for (i = 0; i < 6; i++)
		for (j = 0; j < 6; j++)
			S[i * 6 + j] = e->P[i * N + j] + (i == j ? r[i] : 0);
	rc = fsw_mat_cholesky(L, S, 6);
	if (rc) {
		e->not_pd++;
		return rc;
	}
	memcpy(Sy, y, sizeof(y));
	fsw_mat_chol_solve(L, Sy, 6, 1);
	for (i = 0; i < 6; i++)
		nis += y[i] * Sy[i];
	e->nis = nis;
	if (p->gate_chi2 > 0 && nis > p->gate_chi2) {
		e->gated++;
		return -ERANGE;
	}
	/* K' = S^-1 H P  (6 x 15) */
	for (i = 0; i < 6; i++)
		for (j = 0; j < N; j++)
			Kt[i * N + j] = e->P[i * N + j];
	fsw_mat_chol_solve(L, Kt, 6, N);
	for (j = 0; j < N; j++) {
		dx[j] = 0;
		for (i = 0; i < 6; i++)
			dx[j] += Kt[i * N + j] * y[i];
	}
	/* Joseph form: P = (I - K H) P (I - K H)' + K R K' */
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			A[i * N + j] = (i == j) - (j < 6 ? Kt[j * N + i] : 0);
	fsw_mat_mul(AP, A, e->P, N, N, N);
	fsw_mat_mul_bt(e->P, AP, A, N, N, N);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			for (k = 0; k < 6; k++)
				e->P[i * N + j] += Kt[k * N + i] * r[k] * Kt[k * N + j];
	ekf_self_check(e);
	fsw_mat_symmetrize(e->P, N);
	e->updates++;
	return 0;
}

double fsw_ekf_nees(const struct fsw_ekf *e, const double *err)
{
	double L[N * N], b[N], s = 0;
	int i;

	if (fsw_mat_cholesky(L, e->P, N))
		return -1;
	memcpy(b, err, sizeof(b));
	fsw_mat_chol_solve(L, b, N, 1);
	for (i = 0; i < N; i++)
		s += err[i] * b[i];
	return s;
}
