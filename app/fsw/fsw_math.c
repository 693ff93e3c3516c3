/*
 * fsw_math.c - quaternions, rotations and the small dense matrix routines of
 * fsw_math.h. Conventions: Hamilton quaternions, body-to-NED, right-handed
 * rotation vectors; matrices row-major. No allocation, no global state.
 */
#include "fsw_math.h"

#include <errno.h>

fsw_quat fsw_q_mul(fsw_quat a, fsw_quat b)
{
	fsw_quat r = {
		a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
		a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
		a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
		a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
	};
	return r;
}

fsw_quat fsw_q_conj(fsw_quat q)
{
	fsw_quat r = { q.w, -q.x, -q.y, -q.z };
	return r;
}

fsw_quat fsw_q_normalize(fsw_quat q)
{
	double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
	fsw_quat r = { 1, 0, 0, 0 };

	if (!(n > 1e-12))
		return r;
	if (q.w < 0)
		n = -n;		/* keep w >= 0: one representative per rotation */
	r.w = q.w / n;
	r.x = q.x / n;
	r.y = q.y / n;
	r.z = q.z / n;
	return r;
}

fsw_quat fsw_q_exp(fsw_vec3 rv)
{
	double a = fsw_v3_norm(rv), s;
	fsw_quat q;

	if (a < 1e-9) {
		s = 0.5 - a * a / 48.0;
		q.w = 1.0 - a * a / 8.0;
	} else {
		s = sin(a / 2) / a;
		q.w = cos(a / 2);
	}
	q.x = rv.x * s;
	q.y = rv.y * s;
	q.z = rv.z * s;
	return q;
}

fsw_vec3 fsw_q_log(fsw_quat q)
{
	double n, a, s;

	q = fsw_q_normalize(q);
	n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
	if (n < 1e-9)
		return fsw_v3(2 * q.x, 2 * q.y, 2 * q.z);
	a = 2 * atan2(n, q.w);
	s = a / n;
	return fsw_v3(q.x * s, q.y * s, q.z * s);
}

fsw_mat3 fsw_q_to_mat3(fsw_quat q)
{
	double w = q.w, x = q.x, y = q.y, z = q.z;
	fsw_mat3 r = { {
		{ 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y) },
		{ 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x) },
		{ 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) },
	} };
	return r;
}

fsw_vec3 fsw_q_rotate(fsw_quat q, fsw_vec3 v)
{
	fsw_mat3 r = fsw_q_to_mat3(q);

	return fsw_m3_apply(&r, v);
}

fsw_quat fsw_q_from_euler(double roll, double pitch, double yaw)
{
	double cr = cos(roll / 2), sr = sin(roll / 2);
	double cp = cos(pitch / 2), sp = sin(pitch / 2);
	double cy = cos(yaw / 2), sy = sin(yaw / 2);
	fsw_quat q = {
		cr * cp * cy + sr * sp * sy,
		sr * cp * cy - cr * sp * sy,
		cr * sp * cy + sr * cp * sy,
		cr * cp * sy - sr * sp * cy,
	};
	return fsw_q_normalize(q);
}

void fsw_q_to_euler(fsw_quat q, double *roll, double *pitch, double *yaw)
{
	double s = 2 * (q.w * q.y - q.z * q.x);

	*roll = atan2(2 * (q.w * q.x + q.y * q.z), 1 - 2 * (q.x * q.x + q.y * q.y));
	*pitch = asin(fsw_clamp(s, -1, 1));
	*yaw = atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z));
}

fsw_mat3 fsw_m3_skew(fsw_vec3 v)
{
	fsw_mat3 r = { {
		{ 0, -v.z, v.y },
		{ v.z, 0, -v.x },
		{ -v.y, v.x, 0 },
	} };
	return r;
}

fsw_mat3 fsw_m3_mul(const fsw_mat3 *a, const fsw_mat3 *b)
{
	fsw_mat3 r;
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
	return r;
}

fsw_mat3 fsw_m3_transpose(const fsw_mat3 *a)
{
	fsw_mat3 r;
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			r.m[i][j] = a->m[j][i];
	return r;
}

fsw_vec3 fsw_m3_apply(const fsw_mat3 *a, fsw_vec3 v)
{
	return fsw_v3(a->m[0][0] * v.x + a->m[0][1] * v.y + a->m[0][2] * v.z,
		      a->m[1][0] * v.x + a->m[1][1] * v.y + a->m[1][2] * v.z,
		      a->m[2][0] * v.x + a->m[2][1] * v.y + a->m[2][2] * v.z);
}

/* fsw_m3_poly - I + c1 [v]x + c2 [v]x^2 */
static fsw_mat3 fsw_m3_poly(fsw_vec3 v, double c1, double c2)
{
	fsw_mat3 k = fsw_m3_skew(v), k2 = fsw_m3_mul(&k, &k), r;
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			r.m[i][j] = (i == j) + c1 * k.m[i][j] + c2 * k2.m[i][j];
	return r;
}

fsw_mat3 fsw_m3_exp(fsw_vec3 rv)
{
	double a = fsw_v3_norm(rv);

	if (a < 1e-6)
		return fsw_m3_poly(rv, 1 - a * a / 6, 0.5 - a * a / 24);
	return fsw_m3_poly(rv, sin(a) / a, (1 - cos(a)) / (a * a));
}

fsw_mat3 fsw_m3_jr(fsw_vec3 rv)
{
	double a = fsw_v3_norm(rv);

	if (a < 1e-6)
		return fsw_m3_poly(rv, -0.5 + a * a / 24, 1.0 / 6 - a * a / 120);
	return fsw_m3_poly(rv, -(1 - cos(a)) / (a * a), (a - sin(a)) / (a * a * a));
}

void fsw_mat_mul(double *c, const double *a, const double *b, int n, int k, int m)
{
	int i, j, l;

	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++) {
			double s = 0;

			for (l = 0; l < k; l++)
				s += a[i * k + l] * b[l * m + j];
			c[i * m + j] = s;
		}
}

void fsw_mat_mul_bt(double *c, const double *a, const double *b, int n, int k, int m)
{
	int i, j, l;

	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++) {
			double s = 0;

			for (l = 0; l < k; l++)
				s += a[i * k + l] * b[j * k + l];
			c[i * m + j] = s;
		}
}

void fsw_mat_symmetrize(double *a, int n)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double s = 0.5 * (a[i * n + j] + a[j * n + i]);

			a[i * n + j] = a[j * n + i] = s;
		}
}

int fsw_mat_cholesky(double *l, const double *a, int n)
{
	int i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			l[i * n + j] = 0;
	for (j = 0; j < n; j++) {
		double d = a[j * n + j];

		for (k = 0; k < j; k++)
			d -= l[j * n + k] * l[j * n + k];
		if (!(d > 0) || !isfinite(d))
			return -EDOM;
		d = sqrt(d);
		l[j * n + j] = d;
		for (i = j + 1; i < n; i++) {
			double s = a[i * n + j];

			for (k = 0; k < j; k++)
				s -= l[i * n + k] * l[j * n + k];
			l[i * n + j] = s / d;
		}
	}
	return 0;
}

void fsw_mat_chol_solve(const double *l, double *b, int n, int m)
{
	int i, k, c;

	for (c = 0; c < m; c++) {
		for (i = 0; i < n; i++) {	/* forward: l y = b */
			double s = b[i * m + c];

			for (k = 0; k < i; k++)
				s -= l[i * n + k] * b[k * m + c];
			b[i * m + c] = s / l[i * n + i];
		}
		for (i = n - 1; i >= 0; i--) {	/* back: l^T x = y */
			double s = b[i * m + c];

			for (k = i + 1; k < n; k++)
				s -= l[k * n + i] * b[k * m + c];
			b[i * m + c] = s / l[i * n + i];
		}
	}
}
