/*
 * fsw_ekf.h - strapdown inertial navigation and the 15-state loosely coupled
 * error-state EKF that corrects it with GPS position and velocity.
 *
 * Nominal state (fsw_ins_state): position and velocity in the local NED
 * frame, attitude as a body-to-NED quaternion, accelerometer and gyro biases.
 * Error state (15): dp (0-2), dv (3-5), dtheta (6-8, body-frame rotation
 * error: q_true = q * Exp(dtheta)), dba (9-11), dbg (12-14).
 *
 * The INS step is the exact discrete model the filter linearises: the
 * Jacobian fsw_ins_jacobian() is the derivative of fsw_ins_step() with respect
 * to the error state (tested against finite differences). Process noise is
 * isotropic white accelerometer / gyro noise plus bias random walks, so the
 * discrete Qd is constant per step length.
 *
 * The update handles the GPS delay: the fix is compared with the nominal
 * state of the past IMU step the fix refers to, the correction is computed
 * there, and the caller carries it to the present with fsw_ins_transport()
 * along the IMU steps in between (dx_{k+1} = F_k dx_k).
 */
#ifndef FSW_EKF_H
#define FSW_EKF_H

#include "fsw_math.h"

#include <stdbool.h>
#include <stdint.h>

#define FSW_EKF_N 15

struct fsw_ins_state {
	fsw_vec3 pos_m;		/* NED from home */
	fsw_vec3 vel_mps;	/* NED */
	fsw_quat q;		/* body (FRD) to NED */
	fsw_vec3 ba_mps2;	/* accelerometer bias */
	fsw_vec3 bg_radps;	/* gyro bias */
};

struct fsw_ekf_params {
	double accel_noise;	/* m/s^2/sqrt(Hz): white specific-force noise density */
	double gyro_noise;	/* rad/s/sqrt(Hz) */
	double accel_bias_rw;	/* m/s^2/sqrt(s): bias random walk */
	double gyro_bias_rw;	/* rad/s/sqrt(s) */
	double gps_pos_h_m;	/* measurement noise 1 sigma */
	double gps_pos_v_m;
	double gps_vel_mps;
	double gate_chi2;	/* innovation gate on y' S^-1 y (6 dof); 0 = off */
	double q_scale;		/* multiplies the process noise (1; tests scale it) */
	double p0_pos_m, p0_vel_mps, p0_att_rad, p0_yaw_rad, p0_ba_mps2, p0_bg_radps;	/* initial sigmas */
};

struct fsw_ekf {
	struct fsw_ekf_params par;
	double   P[FSW_EKF_N * FSW_EKF_N];
	double   nis;			/* last normalised innovation squared */
	uint64_t predicts, updates;
	uint64_t gated;			/* fixes rejected by the innovation gate */
	uint64_t not_pd;		/* updates skipped: innovation covariance not positive definite */
	/* self-check for tests (off on the realtime path): Cholesky of P after every step */
	bool     check_pd;
	uint64_t pd_checks, pd_failures;
	double   max_asym;		/* largest |P_ij - P_ji| seen before symmetrisation */
};

void fsw_ekf_params_default(struct fsw_ekf_params *p);

/* fsw_ins_step - one strapdown step with bias-corrected IMU data over dt */
void fsw_ins_step(struct fsw_ins_state *x, fsw_vec3 gyro_radps, fsw_vec3 accel_mps2, double dt_s);
/* fsw_ins_jacobian - F (15x15, row-major): d(error after step) / d(error before) */
void fsw_ins_jacobian(const struct fsw_ins_state *x, fsw_vec3 gyro_radps, fsw_vec3 accel_mps2,
		      double dt_s, double *F);
/* fsw_ins_transport - dx = F dx for one step (carries a correction forward) */
void fsw_ins_transport(const struct fsw_ins_state *x, fsw_vec3 gyro_radps, fsw_vec3 accel_mps2,
		       double dt_s, double *dx);
/* fsw_ins_inject - x = x (+) dx */
void fsw_ins_inject(struct fsw_ins_state *x, const double *dx);
/* fsw_ins_diff - dx = a (-) b, so that a = b (+) dx */
void fsw_ins_diff(const struct fsw_ins_state *a, const struct fsw_ins_state *b, double *dx);

void fsw_ekf_init(struct fsw_ekf *e, const struct fsw_ekf_params *p);
/* fsw_ekf_reset_cov - P = the initial covariance */
void fsw_ekf_reset_cov(struct fsw_ekf *e);
/* fsw_ekf_predict - propagate P over one IMU step taken from state x */
void fsw_ekf_predict(struct fsw_ekf *e, const struct fsw_ins_state *x, fsw_vec3 gyro_radps,
		     fsw_vec3 accel_mps2, double dt_s);
/*
 * fsw_ekf_update_gps - fuse a GPS position / velocity against the nominal
 * state x of the fix epoch (Joseph form). On success dx holds the correction
 * for x. 0, -EDOM (innovation covariance not positive definite: nothing
 * changed), -ERANGE (innovation gated out: nothing changed).
 */
int fsw_ekf_update_gps(struct fsw_ekf *e, const struct fsw_ins_state *x, fsw_vec3 pos_m,
		       fsw_vec3 vel_mps, double *dx) __attribute__((warn_unused_result));
/* fsw_ekf_nees - e' P^-1 e for an error vector; -1 when P is not positive definite */
double fsw_ekf_nees(const struct fsw_ekf *e, const double *err);
/* fsw_ekf_sigma - the standard deviation of error state i */
static inline double fsw_ekf_sigma(const struct fsw_ekf *e, int i) { return sqrt(e->P[i * FSW_EKF_N + i]); }

#endif
