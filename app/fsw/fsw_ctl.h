/*
 * fsw_ctl.h - the control laws of the flight software, as pure functions
 * over small state structs (integrators), so the same code runs in
 * flightapp's tasks and in the test harness:
 *
 *   attitude / rate:  roll and pitch angle loops with rate damping and
 *                     integrators, yaw damper towards the coordinated-turn
 *                     rate (ctl100, 100 Hz)
 *   lateral guidance: L1 (Park, Deyst & How 2004) along a straight leg,
 *                     giving a bank angle command (nav10, 10 Hz)
 *   longitudinal:     classic altitude -> climb rate -> pitch loop and an
 *                     airspeed -> throttle loop (nav10, 10 Hz)
 *
 * Signs follow Beard & McLain: positive elevator pitches nose down,
 * positive aileron rolls right, positive rudder yaws nose left.
 */
#ifndef FSW_CTL_H
#define FSW_CTL_H

#include "fsw_math.h"

struct fsw_ctl_params {
	double roll_kp, roll_kd, roll_ki;	/* aileron per rad, per rad/s, per rad s */
	double pitch_kp, pitch_kd, pitch_ki;	/* elevator (negated: + nose up) */
	double yaw_kr;				/* rudder per rad/s of yaw-rate error */
	double elevator_trim_rad, throttle_cruise;
	double roll_max_rad, pitch_max_rad, pitch_min_rad, defl_max_rad;
	double l1_period_s, l1_damping;
	double alt_kp;				/* climb rate per m of altitude error */
	double climb_max_mps;
	double climb_kp, climb_ki;		/* pitch per m/s of climb-rate error */
	double spd_kp, spd_ki;			/* throttle per m/s of airspeed error */
	double pitch_trim_rad;			/* level-flight pitch */
	double bank_ff_rad;			/* pitch feed-forward per (1/cos(roll) - 1) */
	double fs_alt_k;			/* failsafe without IMU: elevator per m of baro altitude error */
};

struct fsw_att_ctl { double roll_i, pitch_i; };
struct fsw_lon_ctl { double climb_i, spd_i; };

struct fsw_act_cmd { double aileron_rad, elevator_rad, rudder_rad, throttle; };

void fsw_ctl_params_default(struct fsw_ctl_params *p);

/*
 * fsw_att_step - attitude and rate control: commanded roll / pitch (rad) and
 * throttle, measured attitude (rad) and bias-corrected body rates, airspeed
 */
void fsw_att_step(struct fsw_att_ctl *c, const struct fsw_ctl_params *p, double roll_cmd, double pitch_cmd,
		  double throttle, double roll, double pitch, fsw_vec3 rate_radps, double airspeed_mps,
		  double dt_s, struct fsw_act_cmd *out);

/*
 * fsw_l1_step - L1 lateral guidance along the leg a -> b (NED, only north
 * and east used): bank command (rad); *xtrack_m gets the signed cross-track
 * error (+ right of the leg)
 */
double fsw_l1_step(const struct fsw_ctl_params *p, fsw_vec3 a, fsw_vec3 b, fsw_vec3 pos_m, fsw_vec3 vel_mps,
		   double *xtrack_m);

/* fsw_lon_step - altitude / airspeed loops: pitch command (rad) and throttle */
void fsw_lon_step(struct fsw_lon_ctl *c, const struct fsw_ctl_params *p, double alt_cmd_m, double alt_m,
		  double climb_mps, double airspeed_cmd_mps, double airspeed_mps, double roll_rad,
		  double dt_s, double *pitch_cmd, double *throttle);

/* fsw_turn_radius_m - turn radius at the bank limit and speed v */
double fsw_turn_radius_m(const struct fsw_ctl_params *p, double v_mps);

/* fsw_seg_distance_m - horizontal distance from pos to the segment a-b */
double fsw_seg_distance_m(fsw_vec3 a, fsw_vec3 b, fsw_vec3 pos);

#endif
