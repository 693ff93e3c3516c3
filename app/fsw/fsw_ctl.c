/*
 * fsw_ctl.c - attitude, L1 guidance and altitude / airspeed control laws
 * (see fsw_ctl.h). Gains were tuned on the Aerosonde model of bench/sim at
 * 25 m/s; docs/fsw.md lists them. Integrators are clamped (anti-windup).
 */
#include "fsw_ctl.h"

void fsw_ctl_params_default(struct fsw_ctl_params *p)
{
	p->roll_kp = 0.5;
	p->roll_kd = 0.03;
	p->roll_ki = 0.05;
	p->pitch_kp = 0.9;
	p->pitch_kd = 0.25;
	p->pitch_ki = 0.4;
	p->yaw_kr = 0.2;
	p->elevator_trim_rad = -0.11;
	p->throttle_cruise = 0.34;
	p->roll_max_rad = 35 * FSW_PI / 180;
	p->pitch_max_rad = 15 * FSW_PI / 180;
	p->pitch_min_rad = -10 * FSW_PI / 180;
	p->defl_max_rad = 0.5;
	p->l1_period_s = 14;
	p->l1_damping = 0.75;
	p->alt_kp = 0.35;
	p->climb_max_mps = 4;
	p->climb_kp = 0.05;
	p->climb_ki = 0.02;
	p->spd_kp = 0.08;
	p->spd_ki = 0.03;
	p->fs_alt_k = 0.01;
	p->pitch_trim_rad = 0.08;
	p->bank_ff_rad = 0.17;	/* ~ CL_trim / CL_alpha: extra alpha per unit of extra load factor */
}

void fsw_att_step(struct fsw_att_ctl *c, const struct fsw_ctl_params *p, double roll_cmd, double pitch_cmd,
		  double throttle, double roll, double pitch, fsw_vec3 rate, double airspeed, double dt,
		  struct fsw_act_cmd *out)
{
	double er = fsw_wrap_pi(fsw_clamp(roll_cmd, -p->roll_max_rad, p->roll_max_rad) - roll);
	double ep = fsw_clamp(pitch_cmd, p->pitch_min_rad, p->pitch_max_rad) - pitch;
	double v = airspeed > 10 ? airspeed : 10;
	double r_cmd = FSW_G_MPS2 / v * tan(fsw_clamp(roll, -p->roll_max_rad, p->roll_max_rad)) * cos(pitch);
	double lim = p->defl_max_rad;

	c->roll_i = fsw_clamp(c->roll_i + er * dt, -0.1 / (p->roll_ki + 1e-9), 0.1 / (p->roll_ki + 1e-9));
	c->pitch_i = fsw_clamp(c->pitch_i + ep * dt, -0.2 / (p->pitch_ki + 1e-9), 0.2 / (p->pitch_ki + 1e-9));
	out->aileron_rad = fsw_clamp(p->roll_kp * er + p->roll_ki * c->roll_i - p->roll_kd * rate.x, -lim, lim);
	out->elevator_rad = fsw_clamp(p->elevator_trim_rad - p->pitch_kp * ep - p->pitch_ki * c->pitch_i +
				      p->pitch_kd * rate.y, -lim, lim);
	out->rudder_rad = fsw_clamp(p->yaw_kr * (rate.z - r_cmd), -lim, lim);
	out->throttle = fsw_clamp(throttle, 0, 1);
}

/* cross2 - z of the 2-D cross product (north, east) */
static double cross2(double an, double ae, double bn, double be) { return an * be - ae * bn; }

double fsw_l1_step(const struct fsw_ctl_params *p, fsw_vec3 a, fsw_vec3 b, fsw_vec3 pos, fsw_vec3 vel,
		   double *xtrack_m)
{
	double dn = b.x - a.x, de = b.y - a.y, len = hypot(dn, de);
	double gs = hypot(vel.x, vel.y), l1, e, s1, eta2, eta, acc;

	if (len < 1e-3) {
		*xtrack_m = 0;
		return 0;
	}
	dn /= len;
	de /= len;
	if (gs < 5)
		gs = 5;
	l1 = p->l1_damping * p->l1_period_s * gs / FSW_PI;
	/* e > 0: right of the leg; eta2 > 0: flying to the right of it */
	e = cross2(dn, de, pos.x - a.x, pos.y - a.y);
	*xtrack_m = e;
	s1 = fsw_clamp(e / l1, -0.7071, 0.7071);
	eta2 = atan2(cross2(dn, de, vel.x, vel.y), dn * vel.x + de * vel.y);
	eta = fsw_clamp(asin(s1) + eta2, -FSW_PI / 2, FSW_PI / 2);
	acc = -4 * p->l1_damping * p->l1_damping * gs * gs / l1 * sin(eta);
	return fsw_clamp(atan(acc / FSW_G_MPS2), -p->roll_max_rad, p->roll_max_rad);
}

void fsw_lon_step(struct fsw_lon_ctl *c, const struct fsw_ctl_params *p, double alt_cmd, double alt,
		  double climb, double v_cmd, double v, double roll, double dt, double *pitch_cmd, double *throttle)
{
	double climb_cmd = fsw_clamp(p->alt_kp * (alt_cmd - alt), -p->climb_max_mps, p->climb_max_mps);
	double ec = climb_cmd - climb, ev = v_cmd - v, vv = v > 10 ? v : 10, ff;

	c->climb_i = fsw_clamp(c->climb_i + ec * dt, -0.15 / (p->climb_ki + 1e-9), 0.15 / (p->climb_ki + 1e-9));
	c->spd_i = fsw_clamp(c->spd_i + ev * dt, -0.3 / (p->spd_ki + 1e-9), 0.3 / (p->spd_ki + 1e-9));
	/* feed-forward: flight-path angle of the commanded climb, and the lift lost to bank */
	ff = asin(fsw_clamp(climb_cmd / vv, -0.5, 0.5)) + p->bank_ff_rad * (1 / cos(fsw_clamp(roll, -1.2, 1.2)) - 1);
	*pitch_cmd = fsw_clamp(p->pitch_trim_rad + ff + p->climb_kp * ec + p->climb_ki * c->climb_i, p->pitch_min_rad, p->pitch_max_rad);
	*throttle = fsw_clamp(p->throttle_cruise + p->spd_kp * ev + p->spd_ki * c->spd_i, 0, 1);
}

double fsw_turn_radius_m(const struct fsw_ctl_params *p, double v)
{
	return v * v / (FSW_G_MPS2 * tan(p->roll_max_rad));
}

double fsw_seg_distance_m(fsw_vec3 a, fsw_vec3 b, fsw_vec3 pos)
{
	double dn = b.x - a.x, de = b.y - a.y, l2 = dn * dn + de * de;
	double t = l2 > 0 ? ((pos.x - a.x) * dn + (pos.y - a.y) * de) / l2 : 0;

	t = fsw_clamp(t, 0, 1);
	return hypot(pos.x - (a.x + t * dn), pos.y - (a.y + t * de));
}
