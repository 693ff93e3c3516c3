/*
 * sim_scenario.h - one flight scenario: the aircraft's start, wind, sensor
 * parameters, faults, the flight software's configuration, run length and
 * seed. Read from an INI file (inih) by 'preflight fly --scenario' and by
 * sensorsim; docs/sim.md lists every key.
 *
 *   [sim]     seed, duration_s, airspeed_mps, alt_m, heading_deg, wind_n_mps,
 *             wind_e_mps, wind_d_mps, turbulence_mps, turbulence_len_m,
 *             imu_rate_hz, gps_latency_s, gps_outage_start_s, gps_outage_len_s,
 *             gyro_bias_x/y/z (rad/s, added), gyro_bias_sigma, accel_bias_sigma,
 *             uart_baud, metrics_start_s
 *   [faults]  uart_silent_start_s, uart_silent_len_s, garbage_burst_prob,
 *             corrupt_per_byte, spi_truncate_every, spi_truncate_len
 *   [fsw], [links]   the flight software's keys (fsw.h)
 */
#ifndef SIM_SCENARIO_H
#define SIM_SCENARIO_H

#include "app/fsw/fsw.h"
#include "sim_daq.h"

/* the largest seed: a whole number that a double, JSON and every target's
 * 64-bit parser hold exactly, the same on 32- and 64-bit builds */
#define SIM_SEED_MAX 1000000000000000LL

struct sim_scenario {
	uint64_t seed;		/* 0 .. SIM_SEED_MAX */
	double   duration_s, metrics_start_s;
	double   airspeed_mps, alt_m, heading_rad;
	struct sim_wind wind;
	struct sim_sensor_params sens;
	struct sim_faults faults;
	int      uart_baud;
	struct fsw_config fsw;
};

void sim_scenario_default(struct sim_scenario *s);
/* sim_scenario_set - one key; 0 or -EINVAL with a message in err */
int sim_scenario_set(struct sim_scenario *s, const char *section, const char *key, const char *value,
		     char *err, size_t err_size);
/* sim_scenario_load - read an INI file; 0, -EINVAL ("file:line: what" in err) or -errno */
int sim_scenario_load(struct sim_scenario *s, const char *path, char *err, size_t err_size)
	__attribute__((warn_unused_result));

#endif
