/*
 * sim_sensors.h - the sensors of the simulated data-acquisition processor:
 * IMU (gyro, accelerometer) averaged over each sample interval, with white
 * noise, a random constant bias per run plus a first-order Gauss-Markov
 * drift; GPS fixes with white position / velocity noise delivered after a
 * latency, with optional outages; barometer, pitot and magnetometer with
 * noise. Each noise source has its own seeded generator.
 *
 * Times are the DAQ's GPS time of week: t_us = tow0 + simulation time.
 */
#ifndef SIM_SENSORS_H
#define SIM_SENSORS_H

#include "app/fsw/fsw_proto.h"
#include "sim_model.h"
#include "sim_rng.h"

#include <stdbool.h>

struct sim_sensor_params {
	double   imu_rate_hz;		/* 100 .. 1000, divides 1000 */
	double   gyro_noise;		/* rad/s/sqrt(Hz) */
	double   accel_noise;		/* m/s^2/sqrt(Hz) */
	double   gyro_bias_sigma;	/* rad/s: per-run constant bias, each axis ~ N(0, sigma) */
	double   accel_bias_sigma;	/* m/s^2 */
	double   gyro_bias_gm_sigma;	/* rad/s: Gauss-Markov drift, steady-state sigma */
	double   accel_bias_gm_sigma;	/* m/s^2 */
	double   bias_tau_s;		/* Gauss-Markov correlation time */
	fsw_vec3 gyro_bias_add;		/* fixed extra bias (tests) */
	fsw_vec3 accel_bias_add;
	double   gps_rate_hz;		/* 1 */
	double   gps_latency_s;		/* fix epoch to delivery */
	double   gps_pos_h_m, gps_pos_v_m, gps_vel_mps;	/* white noise sigmas */
	double   gps_outage_start_s, gps_outage_len_s;	/* no fixes in [start, start + len) */
	double   baro_noise_pa, diff_noise_pa, mag_noise_gauss;
	fsw_vec3 mag_ned_gauss;		/* earth field at home */
	double   home_lat_deg, home_lon_deg, home_height_m;
	uint32_t tow0_ms;		/* GPS time of week at simulation time 0 */
};

#define SIM_GPS_QUEUE 8

struct sim_sensors {
	struct sim_sensor_params par;
	struct fsw_geo_home home;
	struct sim_rng rng_imu, rng_bias, rng_gps, rng_slow;
	fsw_vec3 gyro_bias, accel_bias;		/* current true biases */
	fsw_vec3 gyro_gm, accel_gm;		/* Gauss-Markov parts */
	fsw_vec3 sum_gyro, sum_accel;		/* trapezoid sums over the interval */
	fsw_vec3 last_gyro, last_accel;
	int      steps_per_imu, steps;
	uint16_t imu_seq, spi_seq;
	int64_t  gps_next_ms;			/* next fix epoch, simulation ms */
	struct { double release_s; struct fsw_gps_fix fix; } gpsq[SIM_GPS_QUEUE];
	int      gpsq_len;
	uint64_t imu_samples, gps_fixes;
};

void sim_sensor_params_default(struct sim_sensor_params *p);
/* sim_sensors_init - 0 or -EINVAL (IMU rate not a divisor of 1 kHz) */
int sim_sensors_init(struct sim_sensors *s, const struct sim_sensor_params *p, uint64_t seed,
		     const struct sim_state *st);
/* sim_t_us - the DAQ time stamp of simulation time t_s */
uint32_t sim_t_us(const struct sim_sensors *s, double t_s);
/*
 * sim_sensors_step - call after every model step; returns true when an IMU
 * sample completed (written to *imu). GPS epochs are sampled here too and
 * queued for delivery after the latency.
 */
bool sim_sensors_step(struct sim_sensors *s, const struct sim_state *st, struct fsw_imu_sample *imu);
/* sim_sensors_gps_ready - pop a fix whose delivery time has come; true when one was popped */
bool sim_sensors_gps_ready(struct sim_sensors *s, double t_s, struct fsw_gps_fix *fix);
/* sim_sensors_slow - baro, pitot, magnetometer at the state's time (an SPI answer) */
void sim_sensors_slow(struct sim_sensors *s, const struct sim_state *st, struct fsw_spi_sens *out);

#endif
