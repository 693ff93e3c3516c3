/*
 * fsw_math.h - the small linear algebra of the flight software: 3-vectors,
 * unit quaternions (Hamilton convention, q = [w x y z], rotating body-frame
 * vectors into the NED frame), 3x3 rotation matrices, and row-major dense
 * matrices of the EKF's fixed sizes (15x15 at most) with a Cholesky solve.
 *
 * Everything here is plain, deterministic and allocation-free: callers own
 * the storage. The simulator (bench/sim) uses the same functions, so the
 * truth model and the flight software agree on every convention.
 */
#ifndef FSW_MATH_H
#define FSW_MATH_H

#include <math.h>
#include <stdbool.h>

#define FSW_G_MPS2 9.80665	/* standard gravity */
#define FSW_PI 3.14159265358979323846

typedef struct { double x, y, z; } fsw_vec3;
typedef struct { double w, x, y, z; } fsw_quat;
typedef struct { double m[3][3]; } fsw_mat3;

static inline fsw_vec3 fsw_v3(double x, double y, double z) { fsw_vec3 v = { x, y, z }; return v; }
static inline fsw_vec3 fsw_v3_add(fsw_vec3 a, fsw_vec3 b) { return fsw_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline fsw_vec3 fsw_v3_sub(fsw_vec3 a, fsw_vec3 b) { return fsw_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline fsw_vec3 fsw_v3_scale(fsw_vec3 a, double s) { return fsw_v3(a.x * s, a.y * s, a.z * s); }
static inline double fsw_v3_dot(fsw_vec3 a, fsw_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline double fsw_v3_norm(fsw_vec3 a) { return sqrt(fsw_v3_dot(a, a)); }
static inline fsw_vec3 fsw_v3_cross(fsw_vec3 a, fsw_vec3 b)
{
	return fsw_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double fsw_v3_get(fsw_vec3 a, int i) { return i == 0 ? a.x : i == 1 ? a.y : a.z; }
static inline bool fsw_v3_finite(fsw_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* fsw_wrap_pi - an angle wrapped into [-pi, pi) */
static inline double fsw_wrap_pi(double a)
{
	a = fmod(a + FSW_PI, 2 * FSW_PI);
	if (a < 0)
		a += 2 * FSW_PI;
	return a - FSW_PI;
}

static inline double fsw_clamp(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

fsw_quat fsw_q_mul(fsw_quat a, fsw_quat b);
fsw_quat fsw_q_conj(fsw_quat q);
fsw_quat fsw_q_normalize(fsw_quat q);
/* fsw_q_exp - the unit quaternion of a rotation vector (axis * angle, rad) */
fsw_quat fsw_q_exp(fsw_vec3 rv);
/* fsw_q_log - the rotation vector of a unit quaternion (shortest rotation) */
fsw_vec3 fsw_q_log(fsw_quat q);
/* fsw_q_rotate - q * v * q^-1: a body vector expressed in NED */
fsw_vec3 fsw_q_rotate(fsw_quat q, fsw_vec3 v);
/* fsw_q_from_euler - body-to-NED quaternion from roll, pitch, yaw (rad, 3-2-1) */
fsw_quat fsw_q_from_euler(double roll, double pitch, double yaw);
/* fsw_q_to_euler - roll, pitch, yaw (rad) of a body-to-NED quaternion */
void fsw_q_to_euler(fsw_quat q, double *roll, double *pitch, double *yaw);
/* fsw_q_to_mat3 - the rotation matrix (body to NED) of a unit quaternion */
fsw_mat3 fsw_q_to_mat3(fsw_quat q);

fsw_mat3 fsw_m3_skew(fsw_vec3 v);
fsw_mat3 fsw_m3_mul(const fsw_mat3 *a, const fsw_mat3 *b);
fsw_mat3 fsw_m3_transpose(const fsw_mat3 *a);
fsw_vec3 fsw_m3_apply(const fsw_mat3 *a, fsw_vec3 v);
/* fsw_m3_exp - rotation matrix of a rotation vector (Rodrigues) */
fsw_mat3 fsw_m3_exp(fsw_vec3 rv);
/* fsw_m3_jr - right Jacobian of SO(3) at rotation vector rv */
fsw_mat3 fsw_m3_jr(fsw_vec3 rv);

/*
 * Dense row-major matrices of at most FSW_MAT_MAX rows/columns, stored in
 * caller-owned arrays: a[r * n + c].
 */
#define FSW_MAT_MAX 15

/* fsw_mat_mul - c (n x m) = a (n x k) * b (k x m); c must not alias a or b */
void fsw_mat_mul(double *c, const double *a, const double *b, int n, int k, int m);
/* fsw_mat_mul_bt - c (n x m) = a (n x k) * b^T, b is (m x k) */
void fsw_mat_mul_bt(double *c, const double *a, const double *b, int n, int k, int m);
/* fsw_mat_symmetrize - a = (a + a^T) / 2 */
void fsw_mat_symmetrize(double *a, int n);
/*
 * fsw_mat_cholesky - lower factor l of a symmetric positive definite a
 * (n x n); 0, or -EDOM when a is not positive definite (l is then garbage)
 */
int fsw_mat_cholesky(double *l, const double *a, int n);
/* fsw_mat_chol_solve - solve (l l^T) x = b for m right-hand columns (b n x m, overwritten by x) */
void fsw_mat_chol_solve(const double *l, double *b, int n, int m);

#endif
