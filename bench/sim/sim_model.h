/*
 * sim_model.h - the aircraft of the test bench: a 6-DOF rigid-body
 * fixed-wing model (quaternion attitude, RK4 at 1 kHz) with linear
 * stability-derivative aerodynamics, the nonlinear lift / drag blend that
 * limits lift past stall, a propeller, gravity, constant wind and optional
 * Dryden-like turbulence.
 *
 * The default airframe is the Aerosonde UAV as parameterised in R. W. Beard
 * and T. W. McLain, "Small Unmanned Aircraft: Theory and Practice",
 * Princeton University Press, 2012, chapter 4 and its supplement (the
 * aerosonde parameter file of the book's companion code). Sign conventions
 * are the book's: body axes forward-right-down, positive elevator pitches
 * the nose down (C_m_delta_e < 0), positive aileron rolls right wing down
 * (C_l_delta_a > 0), positive rudder yaws the nose left (C_n_delta_r < 0).
 *
 * The model is pure computation: no threads, no clocks, no allocation. The
 * real-time sensorsim and the faster-than-real-time harness both step it.
 */
#ifndef SIM_MODEL_H
#define SIM_MODEL_H

#include "app/fsw/fsw_math.h"
#include "sim_rng.h"

#include <stdbool.h>

struct sim_airframe {
	double mass_kg, jx, jy, jz, jxz;	/* kg m^2 */
	double S_m2, b_m, c_m, S_prop_m2, rho_kgpm3, k_motor, e_oswald;
	double CL0, CLa, CLq, CLde;
	double CD0, CDa, CDp, CDq, CDde;
	double Cm0, Cma, Cmq, Cmde;
	double CY0, CYb, CYp, CYr, CYda, CYdr;
	double Cl0, Clb, Clp, Clr, Clda, Cldr;
	double Cn0, Cnb, Cnp, Cnr, Cnda, Cndr;
	double C_prop, M_blend, alpha0_rad;
	double max_defl_rad;		/* control surface limit */
};

/* Actuator commands as the aircraft applies them. */
struct sim_controls {
	double aileron_rad, elevator_rad, rudder_rad, throttle;
};

/* The true state and the derived quantities a log or a sensor needs. */
struct sim_state {
	double   t_s;			/* simulation time */
	fsw_vec3 pos_m;			/* NED from home */
	fsw_vec3 vel_mps;		/* NED, inertial */
	fsw_quat q;			/* body to NED */
	fsw_vec3 omega_radps;		/* body rates p q r */
	/* derived at the last step */
	fsw_vec3 specific_force_mps2;	/* body: (aero + thrust) / m */
	double   airspeed_mps, alpha_rad, beta_rad;
	fsw_vec3 wind_mps;		/* total wind (steady + gust), NED */
};

struct sim_wind {
	fsw_vec3 steady_mps;		/* NED */
	double   turb_sigma_mps;	/* 0 = no turbulence; horizontal sigma, vertical 0.7x */
	double   turb_len_m;		/* Dryden length scale (horizontal), vertical 1/4 of it */
	fsw_vec3 gust_mps;		/* current gust, NED */
};

struct sim_model {
	struct sim_airframe af;
	struct sim_state st;
	struct sim_controls ctl;
	struct sim_wind wind;
	struct sim_rng rng;		/* turbulence */
	double   dt_s;			/* 1 ms */
	double   max_alpha_rad;		/* largest angle of attack seen */
	double   min_airspeed_mps;
	bool     stalled;		/* alpha passed the stall angle at some step */
	double   trim_elevator_rad, trim_throttle, trim_alpha_rad;
};

/* sim_airframe_aerosonde - the Aerosonde of Beard & McLain (2012) */
void sim_airframe_aerosonde(struct sim_airframe *af);

/*
 * sim_model_init - level trimmed flight at airspeed_mps, altitude alt_m,
 * heading yaw_rad, in the given wind; 0 or -EDOM when no trim was found
 */
int sim_model_init(struct sim_model *m, const struct sim_airframe *af, double airspeed_mps, double alt_m,
		   double yaw_rad, const struct sim_wind *wind, uint64_t seed);

/* sim_model_step - advance by dt_s with the current controls (RK4) */
void sim_model_step(struct sim_model *m);

/* sim_model_set_controls - apply commands (saturated to the airframe's limits) */
void sim_model_set_controls(struct sim_model *m, const struct sim_controls *c);

#endif
