/*
 * sim_daq.c - the simulated data-acquisition processor (see sim_daq.h).
 */
#include "sim_daq.h"

#include <string.h>

int sim_daq_init(struct sim_daq *d, double va, double alt_m, double yaw, const struct sim_wind *wind,
		 const struct sim_sensor_params *sp, const struct sim_faults *faults, uint64_t seed)
{
	struct sim_airframe af;
	int rc;

	memset(d, 0, sizeof(*d));
	sim_airframe_aerosonde(&af);
	rc = sim_model_init(&d->model, &af, va, alt_m, yaw, wind, seed * 7 + 11);
	if (rc)
		return rc;
	rc = sim_sensors_init(&d->sens, sp, seed, &d->model.st);
	if (rc)
		return rc;
	if (faults)
		d->faults = *faults;
	sim_rng_seed(&d->rng_fault, seed * 13 + 5);
	d->spi_frame_len = FSW_SPI_FRAME_LEN;
	return 0;
}

/* uart_push - queue encoded bytes (counted when the queue is full) */
static void uart_push(struct sim_daq *d, const uint8_t *p, size_t n)
{
	if (d->uart_len + n > sizeof(d->uart_q)) {
		d->uart_overflow += n;
		return;
	}
	memcpy(d->uart_q + d->uart_len, p, n);
	d->uart_len += n;
}

void sim_daq_step(struct sim_daq *d)
{
	struct fsw_imu_sample imu;
	struct fsw_gps_fix fix;
	uint8_t buf[FSW_UBX_NAV_PVT_FRAME_LEN];

	sim_model_step(&d->model);
	if (sim_sensors_step(&d->sens, &d->model.st, &imu)) {
		size_t i = d->truth_n++ % SIM_TRUTH_RING;

		d->truth[i].t_us = imu.t_us;
		d->truth[i].st = d->model.st;
		uart_push(d, buf, fsw_imu_encode(buf, &imu));
		d->imu_frames++;
	}
	while (sim_sensors_gps_ready(&d->sens, d->model.st.t_s, &fix)) {
		uart_push(d, buf, fsw_ubx_encode_pvt(buf, &fix));
		d->gps_frames++;
	}
}

size_t sim_daq_uart_take(struct sim_daq *d, uint8_t *out, size_t max)
{
	const struct sim_faults *f = &d->faults;
	double t = d->model.st.t_s;
	size_t n = d->uart_len < max ? d->uart_len : max, i, o = 0;

	if (t >= f->uart_silent_start_s && t < f->uart_silent_start_s + f->uart_silent_len_s) {
		d->uart_dropped += d->uart_len;
		d->uart_len = 0;	/* the line is dead: what was queued is lost */
		return 0;
	}
	for (i = 0; i < n && o < max; i++) {
		uint8_t b = d->uart_q[i];

		if (f->garbage_burst_prob > 0 && sim_rng_uniform(&d->rng_fault) < f->garbage_burst_prob) {
			int len = 1 + (int)(sim_rng_u64(&d->rng_fault) & 15);

			while (len-- && o < max) {
				out[o++] = (uint8_t)sim_rng_u64(&d->rng_fault);
				d->garbage_bytes++;
			}
			if (o >= max)
				break;
		}
		if (f->corrupt_per_byte > 0 && sim_rng_uniform(&d->rng_fault) < f->corrupt_per_byte) {
			b ^= (uint8_t)(1u << (sim_rng_u64(&d->rng_fault) & 7));
			d->corrupted_bytes++;
		}
		out[o++] = b;
	}
	memmove(d->uart_q, d->uart_q + i, d->uart_len - i);
	d->uart_len -= i;
	d->uart_bytes += o;
	return o;
}

void sim_daq_uart_unget(struct sim_daq *d, const uint8_t *p, size_t n)
{
	if (n > sizeof(d->uart_q))
		n = sizeof(d->uart_q);
	if (d->uart_len + n > sizeof(d->uart_q)) {
		d->uart_overflow += d->uart_len + n - sizeof(d->uart_q);
		d->uart_len = sizeof(d->uart_q) - n;	/* the newest bytes are lost */
	}
	memmove(d->uart_q + n, d->uart_q, d->uart_len);
	memcpy(d->uart_q, p, n);
	d->uart_len += n;
	d->uart_bytes -= n;
}

size_t sim_daq_spi(struct sim_daq *d, const uint8_t *rx, size_t n, uint8_t *tx)
{
	struct fsw_spi_act a;
	struct fsw_spi_sens s;

	d->spi_transfers++;
	if (fsw_spi_decode_act(rx, n, d->spi_frame_len, &a) == 0) {
		struct sim_controls c = { a.aileron_rad, a.elevator_rad, a.rudder_rad, a.throttle };

		sim_model_set_controls(&d->model, &c);
		d->last_act_seq = a.seq;
		d->app_mode = a.mode;
		d->spi_act_ok++;
		if (a.nav_t_us && fsw_v3_finite(a.nav_pos_m) && fsw_v3_norm(a.nav_pos_m) > 0) {
			const struct sim_state *t = sim_daq_truth(d, a.nav_t_us);

			if (t) {
				double e = fsw_v3_norm(fsw_v3_sub(a.nav_pos_m, t->pos_m));

				d->nav_n++;
				d->nav_pos_m = a.nav_pos_m;
				d->nav_err_m = e;
				d->nav_rx_t_s = d->model.st.t_s;
				d->nav_err_ss += e * e;
				if (e > d->nav_err_max_m)
					d->nav_err_max_m = e;
			}
		}
	} else {
		d->spi_act_rejected++;
	}
	sim_sensors_slow(&d->sens, &d->model.st, &s);
	s.act_seq = d->last_act_seq;
	fsw_spi_encode_sens(tx, d->spi_frame_len, &s);
	if (d->faults.spi_truncate_every && d->spi_transfers % d->faults.spi_truncate_every == 0) {
		d->spi_truncated++;
		return d->faults.spi_truncate_len < d->spi_frame_len ? d->faults.spi_truncate_len : d->spi_frame_len / 2;
	}
	return d->spi_frame_len;
}

const struct sim_state *sim_daq_truth(const struct sim_daq *d, uint32_t t_us)
{
	uint64_t i;

	for (i = d->truth_n; i > 0 && d->truth_n - i < SIM_TRUTH_RING; i--) {
		const struct sim_state *st = &d->truth[(i - 1) % SIM_TRUTH_RING].st;
		uint32_t tt = d->truth[(i - 1) % SIM_TRUTH_RING].t_us;

		if (tt == t_us)
			return st;
		if (fsw_us_diff(tt, t_us) < 0)
			return NULL;
	}
	return NULL;
}
