/*
 * sim_sensors.c - sensor models of the DAQ (see sim_sensors.h).
 *
 * The IMU output is the mean rate and mean specific force over the sample
 * interval (trapezoid over the 1 kHz truth), which is what a real IMU's
 * anti-alias filter and the INS's constant-over-the-step model both assume;
 * white noise of density d gives a per-sample sigma d / sqrt(dt).
 */
#include "sim_sensors.h"

#include <errno.h>
#include <string.h>

void sim_sensor_params_default(struct sim_sensor_params *p)
{
	memset(p, 0, sizeof(*p));
	p->imu_rate_hz = 100;
	p->gyro_noise = 0.0015;
	p->accel_noise = 0.02;
	p->gyro_bias_sigma = 0.002;		/* residual after a ground calibration */
	p->accel_bias_sigma = 0.05;
	p->gyro_bias_gm_sigma = 6.7e-4;		/* tau 1000 s: random walk 3e-5 rad/s/sqrt(s) */
	p->accel_bias_gm_sigma = 0.009;		/* 4e-4 m/s^2/sqrt(s) */
	p->bias_tau_s = 1000;
	p->gps_rate_hz = 1;
	p->gps_latency_s = 0.1;
	p->gps_pos_h_m = 0.8;
	p->gps_pos_v_m = 1.5;
	p->gps_vel_mps = 0.1;
	p->baro_noise_pa = 1.5;
	p->diff_noise_pa = 2.0;
	p->mag_noise_gauss = 0.005;
	p->mag_ned_gauss = fsw_v3(0.216, 0.006, 0.424);
	p->home_lat_deg = 47.397742;
	p->home_lon_deg = 8.545594;
	p->home_height_m = 488.0;
	p->tow0_ms = 345600000;			/* Wednesday 00:00 */
}

static fsw_vec3 gauss3(struct sim_rng *r, double s)
{
	double a = sim_rng_gauss(r), b = sim_rng_gauss(r), c = sim_rng_gauss(r);

	return fsw_v3(a * s, b * s, c * s);
}

int sim_sensors_init(struct sim_sensors *s, const struct sim_sensor_params *p, uint64_t seed,
		     const struct sim_state *st)
{
	int per = (int)lrint(1000 / p->imu_rate_hz);

	memset(s, 0, sizeof(*s));
	if (per < 1 || per > 1000 || fabs(1000.0 / per - p->imu_rate_hz) > 1e-9)
		return -EINVAL;
	s->par = *p;
	s->steps_per_imu = per;
	fsw_geo_home_init(&s->home, p->home_lat_deg, p->home_lon_deg, p->home_height_m);
	sim_rng_seed(&s->rng_imu, seed * 4 + 1);
	sim_rng_seed(&s->rng_bias, seed * 4 + 2);
	sim_rng_seed(&s->rng_gps, seed * 4 + 3);
	sim_rng_seed(&s->rng_slow, seed * 4 + 4);
	s->gyro_bias = fsw_v3_add(gauss3(&s->rng_bias, p->gyro_bias_sigma), p->gyro_bias_add);
	s->accel_bias = fsw_v3_add(gauss3(&s->rng_bias, p->accel_bias_sigma), p->accel_bias_add);
	s->gyro_gm = gauss3(&s->rng_bias, p->gyro_bias_gm_sigma);
	s->accel_gm = gauss3(&s->rng_bias, p->accel_bias_gm_sigma);
	s->last_gyro = st->omega_radps;
	s->last_accel = st->specific_force_mps2;
	s->gps_next_ms = (int64_t)lrint(st->t_s * 1000) + (int64_t)lrint(1000 / p->gps_rate_hz);
	return 0;
}

uint32_t sim_t_us(const struct sim_sensors *s, double t_s)
{
	return (uint32_t)((uint64_t)s->par.tow0_ms * 1000 + (uint64_t)llrint(t_s * 1e6));
}

/* gm_step - first-order Gauss-Markov update over dt */
static fsw_vec3 gm_step(struct sim_rng *r, fsw_vec3 x, double sigma, double tau, double dt)
{
	double a = exp(-dt / tau);

	if (sigma <= 0)
		return x;
	return fsw_v3_add(fsw_v3_scale(x, a), gauss3(r, sigma * sqrt(1 - a * a)));
}

/* sim_sensors_gps_epoch - sample a fix now and queue it for delivery */
static void sim_sensors_gps_epoch(struct sim_sensors *s, const struct sim_state *st, int64_t t_ms)
{
	const struct sim_sensor_params *p = &s->par;
	struct fsw_gps_fix f;
	fsw_vec3 pos;
	double t = t_ms / 1000.0;

	if (t >= p->gps_outage_start_s && t < p->gps_outage_start_s + p->gps_outage_len_s)
		return;
	if (s->gpsq_len == SIM_GPS_QUEUE)
		return;
	memset(&f, 0, sizeof(f));
	pos = fsw_v3_add(st->pos_m, fsw_v3(p->gps_pos_h_m * sim_rng_gauss(&s->rng_gps),
					   p->gps_pos_h_m * sim_rng_gauss(&s->rng_gps),
					   p->gps_pos_v_m * sim_rng_gauss(&s->rng_gps)));
	f.itow_ms = (uint32_t)((p->tow0_ms + t_ms) % 604800000);
	f.t_us = f.itow_ms * 1000u;
	f.fix_type = 3;
	f.flags = 1;
	f.num_sv = 12;
	fsw_ned_to_geo(&s->home, pos, &f.lat_deg, &f.lon_deg, &f.height_m);
	f.h_acc_m = p->gps_pos_h_m;
	f.v_acc_m = p->gps_pos_v_m;
	f.vel_ned_mps = fsw_v3_add(st->vel_mps, gauss3(&s->rng_gps, p->gps_vel_mps));
	f.s_acc_mps = p->gps_vel_mps;
	s->gpsq[s->gpsq_len].release_s = t + p->gps_latency_s;
	s->gpsq[s->gpsq_len].fix = f;
	s->gpsq_len++;
	s->gps_fixes++;
}

bool sim_sensors_step(struct sim_sensors *s, const struct sim_state *st, struct fsw_imu_sample *imu)
{
	const struct sim_sensor_params *p = &s->par;
	int64_t t_ms = (int64_t)llrint(st->t_s * 1000);
	double dt;

	s->sum_gyro = fsw_v3_add(s->sum_gyro, fsw_v3_scale(fsw_v3_add(s->last_gyro, st->omega_radps), 0.5));
	s->sum_accel = fsw_v3_add(s->sum_accel,
				  fsw_v3_scale(fsw_v3_add(s->last_accel, st->specific_force_mps2), 0.5));
	s->last_gyro = st->omega_radps;
	s->last_accel = st->specific_force_mps2;
	if (t_ms >= s->gps_next_ms) {
		sim_sensors_gps_epoch(s, st, s->gps_next_ms);
		s->gps_next_ms += (int64_t)lrint(1000 / p->gps_rate_hz);
	}
	if (++s->steps < s->steps_per_imu)
		return false;
	dt = s->steps_per_imu / 1000.0;
	s->gyro_gm = gm_step(&s->rng_bias, s->gyro_gm, p->gyro_bias_gm_sigma, p->bias_tau_s, dt);
	s->accel_gm = gm_step(&s->rng_bias, s->accel_gm, p->accel_bias_gm_sigma, p->bias_tau_s, dt);
	imu->seq = s->imu_seq++;
	imu->t_us = sim_t_us(s, st->t_s);
	imu->gyro_radps = fsw_v3_add(fsw_v3_add(fsw_v3_scale(s->sum_gyro, 1.0 / s->steps), fsw_v3_add(s->gyro_bias, s->gyro_gm)),
				     gauss3(&s->rng_imu, p->gyro_noise / sqrt(dt)));
	imu->accel_mps2 = fsw_v3_add(fsw_v3_add(fsw_v3_scale(s->sum_accel, 1.0 / s->steps), fsw_v3_add(s->accel_bias, s->accel_gm)),
				     gauss3(&s->rng_imu, p->accel_noise / sqrt(dt)));
	imu->temp_c = 35.0;
	s->sum_gyro = s->sum_accel = fsw_v3(0, 0, 0);
	s->steps = 0;
	s->imu_samples++;
	return true;
}

bool sim_sensors_gps_ready(struct sim_sensors *s, double t_s, struct fsw_gps_fix *fix)
{
	if (!s->gpsq_len || s->gpsq[0].release_s > t_s + 1e-9)
		return false;
	*fix = s->gpsq[0].fix;
	memmove(&s->gpsq[0], &s->gpsq[1], sizeof(s->gpsq[0]) * (size_t)--s->gpsq_len);
	return true;
}

void sim_sensors_slow(struct sim_sensors *s, const struct sim_state *st, struct fsw_spi_sens *out)
{
	const struct sim_sensor_params *p = &s->par;
	double alt = p->home_height_m - st->pos_m.z;
	double rho = 1.2682;	/* the airframe's air density (Beard & McLain) */

	memset(out, 0, sizeof(*out));
	out->seq = s->spi_seq++;
	out->t_us = sim_t_us(s, st->t_s);
	out->baro_pa = fsw_isa_pressure_pa(alt) + p->baro_noise_pa * sim_rng_gauss(&s->rng_slow);
	out->baro_temp_c = 15 - 0.0065 * alt;
	out->diff_pa = 0.5 * rho * st->airspeed_mps * st->airspeed_mps + p->diff_noise_pa * sim_rng_gauss(&s->rng_slow);
	out->mag_gauss = fsw_v3_add(fsw_q_rotate(fsw_q_conj(st->q), p->mag_ned_gauss),
				    gauss3(&s->rng_slow, p->mag_noise_gauss));
}
