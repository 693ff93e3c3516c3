/*
 * sim_scenario.c - scenario defaults and the INI reader (inih) of
 * sim_scenario.h (the one INI line reader of lib/ini.h). Unknown sections
 * or keys are errors with file:line.
 */
#include "sim_scenario.h"
#include "ini.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_scenario_default(struct sim_scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->seed = 1;
	s->duration_s = 330;		/* three laps of the default circuit and a bit */
	s->metrics_start_s = 5;
	s->airspeed_mps = 25;
	s->alt_m = 100;
	s->heading_rad = 0;
	s->wind.steady_mps = fsw_v3(2.0, -1.5, 0);
	s->wind.turb_sigma_mps = 0;
	s->wind.turb_len_m = 200;
	sim_sensor_params_default(&s->sens);
	s->faults.spi_truncate_len = 300;
	s->uart_baud = 115200;
	fsw_config_default(&s->fsw);
}

int sim_scenario_set(struct sim_scenario *s, const char *section, const char *key, const char *value,
		     char *err, size_t err_size)
{
	const double deg = FSW_PI / 180;
	struct fsw_num_key t[] = {
		{ "sim", "duration_s", &s->duration_s, 1, 0.01, 1e6 },
		{ "sim", "metrics_start_s", &s->metrics_start_s, 1, 0, 1e6 },
		{ "sim", "airspeed_mps", &s->airspeed_mps, 1, 15, 40 },
		{ "sim", "alt_m", &s->alt_m, 1, 20, 3000 },
		{ "sim", "heading_deg", &s->heading_rad, deg, -360, 360 },
		{ "sim", "wind_n_mps", &s->wind.steady_mps.x, 1, -20, 20 },
		{ "sim", "wind_e_mps", &s->wind.steady_mps.y, 1, -20, 20 },
		{ "sim", "wind_d_mps", &s->wind.steady_mps.z, 1, -5, 5 },
		{ "sim", "turbulence_mps", &s->wind.turb_sigma_mps, 1, 0, 5 },
		{ "sim", "turbulence_len_m", &s->wind.turb_len_m, 1, 10, 2000 },
		{ "sim", "imu_rate_hz", &s->sens.imu_rate_hz, 1, 100, 1000 },
		{ "sim", "gps_latency_s", &s->sens.gps_latency_s, 1, 0, 0.5 },
		{ "sim", "gps_outage_start_s", &s->sens.gps_outage_start_s, 1, 0, 1e6 },
		{ "sim", "gps_outage_len_s", &s->sens.gps_outage_len_s, 1, 0, 1e6 },
		{ "sim", "gps_pos_h_m", &s->sens.gps_pos_h_m, 1, 0, 50 },
		{ "sim", "gps_pos_v_m", &s->sens.gps_pos_v_m, 1, 0, 50 },
		{ "sim", "gyro_bias_x", &s->sens.gyro_bias_add.x, 1, -0.5, 0.5 },
		{ "sim", "gyro_bias_y", &s->sens.gyro_bias_add.y, 1, -0.5, 0.5 },
		{ "sim", "gyro_bias_z", &s->sens.gyro_bias_add.z, 1, -0.5, 0.5 },
		{ "sim", "gyro_bias_sigma", &s->sens.gyro_bias_sigma, 1, 0, 0.5 },
		{ "sim", "accel_bias_sigma", &s->sens.accel_bias_sigma, 1, 0, 5 },
		{ "faults", "uart_silent_start_s", &s->faults.uart_silent_start_s, 1, 0, 1e6 },
		{ "faults", "uart_silent_len_s", &s->faults.uart_silent_len_s, 1, 0, 1e6 },
		{ "faults", "garbage_burst_prob", &s->faults.garbage_burst_prob, 1, 0, 1 },
		{ "faults", "corrupt_per_byte", &s->faults.corrupt_per_byte, 1, 0, 1 },
	};
	char *end;
	double d;
	int rc;

	if (!strcmp(section, "fsw") || !strcmp(section, "links"))
		return fsw_config_set(&s->fsw, section, key, value, err, err_size);
	if (strcmp(section, "sim") && strcmp(section, "faults")) {
		snprintf(err, err_size, "unknown section [%s]", section);
		return -EINVAL;
	}
	errno = 0;
	d = strtod(value, &end);
	if (end == value || *end || errno || !isfinite(d)) {
		snprintf(err, err_size, "%s: '%s': not a number", key, value);
		return -EINVAL;
	}
	if (!strcmp(key, "seed") && !strcmp(section, "sim")) {
		if (d < 0 || d != floor(d) || d > (double)SIM_SEED_MAX) {
			snprintf(err, err_size, "seed: '%s': expected a whole number >= 0", value);
			return -EINVAL;
		}
		s->seed = (uint64_t)d;
		return 0;
	}
	if (!strcmp(key, "uart_baud") && !strcmp(section, "sim")) {
		unsigned int sp;

		if (d != floor(d) || d < 1 || d > 1e8 || fsw_baud_const((int)d, &sp)) {
			snprintf(err, err_size, "uart_baud: '%s': not a standard baud rate", value);
			return -EINVAL;
		}
		s->uart_baud = (int)d;
		s->fsw.uart_baud = (int)d;
		return 0;
	}
	if (!strcmp(section, "faults") && (!strcmp(key, "spi_truncate_every") || !strcmp(key, "spi_truncate_len"))) {
		if (d < 0 || d != floor(d) || d > 1e9 || (key[13] == 'l' && d >= FSW_SPI_FRAME_MAX)) {
			snprintf(err, err_size, "%s: '%s': out of range", key, value);
			return -EINVAL;
		}
		*(key[13] == 'l' ? &s->faults.spi_truncate_len : &s->faults.spi_truncate_every) = (uint32_t)d;
		return 0;
	}
	rc = fsw_set_num_key(t, sizeof(t) / sizeof(t[0]), section, key, value, err, err_size);
	if (rc != -ENOENT)
		return rc;
	snprintf(err, err_size, "unknown key '%s' in [%s]", key, section);
	return -EINVAL;
}

struct load_ctx {
	struct sim_scenario *s;
	struct pf_ini ini;	/* file name, line being parsed, first error */
	bool cleared_wp;
};

/* load_handler - one key of the scenario: sim_scenario_set, its error at the key's line */
static int load_handler(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *c = user;
	char msg[256];

	/* a scenario that lists waypoints replaces the default circuit */
	if (!strcmp(section, "fsw") && !strcmp(name, "waypoint") && !c->cleared_wp) {
		c->s->fsw.n_wp = 0;
		c->cleared_wp = true;
	}
	if (sim_scenario_set(c->s, section, name, value, msg, sizeof(msg)))
		return pf_ini_error(&c->ini, c->ini.line, "%s", msg);
	return 1;
}

int sim_scenario_load(struct sim_scenario *s, const char *path, char *err, size_t err_size)
{
	struct load_ctx c = { .s = s };
	int ret;

	c.ini = (struct pf_ini){ .file = path, .err = err, .err_size = err_size };
	ret = pf_ini_parse(&c.ini, load_handler, &c);
	if (ret)
		return ret;
	if (s->fsw.n_wp < 2) {
		snprintf(err, err_size, "%s: a mission needs at least 2 waypoints", path);
		return -EINVAL;
	}
	return 0;
}
