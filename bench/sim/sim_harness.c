/*
 * sim_harness.c - the faster-than-real-time closed loop (see sim_harness.h).
 */
#include "sim_harness.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* mem_uart_read - the app's UART read: what the line carried this slot */
static ssize_t mem_uart_read(void *ctx, uint8_t *buf, size_t n)
{
	struct sim_harness *h = ctx;
	size_t max = (size_t)h->uart_budget;

	if (max > n)
		max = n;
	n = sim_daq_uart_take(&h->daq, buf, max);
	h->uart_budget -= (double)n;
	return (ssize_t)n;
}

/* mem_spi_send - one transfer: the DAQ answers at once, the app reads it next slot */
static ssize_t mem_spi_send(void *ctx, const uint8_t *tx, size_t n)
{
	struct sim_harness *h = ctx;

	if (h->spi_n == 4)
		return -EAGAIN;
	h->spi_len[h->spi_n] = sim_daq_spi(&h->daq, tx, n, h->spi_q[h->spi_n]);
	h->spi_n++;
	return (ssize_t)n;
}

static ssize_t mem_spi_recv(void *ctx, uint8_t *rx, size_t n)
{
	struct sim_harness *h = ctx;
	size_t len;

	if (!h->spi_n)
		return 0;
	len = h->spi_len[0] < n ? h->spi_len[0] : n;
	memcpy(rx, h->spi_q[0], len);
	memmove(h->spi_q[0], h->spi_q[1], sizeof(h->spi_q[0]) * 3);
	memmove(h->spi_len, h->spi_len + 1, sizeof(h->spi_len[0]) * 3);
	h->spi_n--;
	return (ssize_t)len;
}

int sim_harness_init(struct sim_harness *h, const struct sim_scenario *s, char *err, size_t err_size)
{
	int rc;

	memset(h, 0, sizeof(*h));
	h->scen = *s;
	h->fsw = malloc(sizeof(*h->fsw));
	if (!h->fsw) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	rc = sim_daq_init(&h->daq, s->airspeed_mps, s->alt_m, s->heading_rad, &s->wind, &s->sens, &s->faults, s->seed);
	if (rc) {
		snprintf(err, err_size, "simulator: %s", rc == -EDOM ? "no trim at this airspeed" : "bad sensor parameters");
		goto fail;
	}
	h->daq.spi_frame_len = s->fsw.spi_frame_len;	/* [links] spi_frame_len: both ends */
	rc = fsw_init(h->fsw, &s->fsw);
	if (rc) {
		snprintf(err, err_size, "flight software: bad configuration");
		goto fail;
	}
	h->fsw->uart.read = mem_uart_read;
	h->fsw->uart.ctx = h;
	h->fsw->spi.send = mem_spi_send;
	h->fsw->spi.recv = mem_spi_recv;
	h->fsw->spi.ctx = h;
	return 0;
fail:
	free(h->fsw);
	h->fsw = NULL;
	return rc;
}

void sim_harness_fini(struct sim_harness *h)
{
	free(h->fsw);
	h->fsw = NULL;
}

double sim_harness_track_error_m(const struct fsw_config *c, fsw_vec3 pos)
{
	double best = 1e30;
	int i;

	for (i = 0; i < c->n_wp; i++) {
		double d = fsw_seg_distance_m(c->wp[i], c->wp[(i + 1) % c->n_wp], pos);

		if (d < best)
			best = d;
	}
	return best;
}

double sim_harness_nav_error_m(struct sim_harness *h)
{
	const struct sim_state *t;
	struct fsw *f = h->fsw;

	if (!f->c.aligned)
		return -1;
	t = sim_daq_truth(&h->daq, f->c.last_t_us);
	if (!t)
		return -1;
	return fsw_v3_norm(fsw_v3_sub(f->c.x.pos_m, t->pos_m));
}

/* metrics_add - one sample of every error */
static void metrics_add(struct sim_harness *h)
{
	struct sim_metrics *m = &h->m;
	const struct sim_state *st = &h->daq.model.st;
	double track = sim_harness_track_error_m(&h->fsw->cfg, st->pos_m);
	double alt = fabs(-st->pos_m.z - h->fsw->m.alt_cmd_m);
	double pos = sim_harness_nav_error_m(h);

	if (h->fsw->m.mode == FSW_MODE_AUTO)
		alt = fabs(-st->pos_m.z + h->fsw->cfg.wp[h->fsw->m.b_idx % h->fsw->cfg.n_wp].z);
	m->n++;
	m->track_err_ss += track * track;
	m->alt_err_ss += alt * alt;
	if (pos >= 0)
		m->pos_err_ss += pos * pos;
	if (track > m->track_err_max_m)
		m->track_err_max_m = track;
	if (alt > m->alt_err_max_m)
		m->alt_err_max_m = alt;
	if (pos > m->pos_err_max_m)
		m->pos_err_max_m = pos;
	m->track_err_rms_m = sqrt(m->track_err_ss / m->n);
	m->alt_err_rms_m = sqrt(m->alt_err_ss / m->n);
	m->pos_err_rms_m = sqrt(m->pos_err_ss / m->n);
}

/* job_clock - with time_jobs: charge the thread CPU time since t to task i; the time now */
static int64_t job_clock(struct sim_harness *h, int i, int64_t t)
{
	struct sim_job_cpu *j;
	struct timespec ts;
	int64_t now;

	if (!h->time_jobs)
		return 0;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	if (i < 0)
		return now;
	j = &h->job_cpu[i];
	j->n++;
	j->sum_ns += now - t;
	if (now - t > j->max_ns)
		j->max_ns = now - t;
	return now;
}

void sim_harness_slot(struct sim_harness *h)
{
	struct fsw *f = h->fsw;
	int64_t now_ns, t;
	bool wake;
	int i;

	for (i = 0; i < 10; i++)
		sim_daq_step(&h->daq);
	/* the line carries baud / 10 bytes per second (8N1); unused budget does not accumulate */
	h->uart_budget += h->scen.uart_baud / 10.0 * 0.010;
	if (h->uart_budget > h->scen.uart_baud / 10.0 * 0.020)
		h->uart_budget = h->scen.uart_baud / 10.0 * 0.020;
	h->slot++;
	now_ns = (int64_t)h->slot * 10 * 1000000;
	t = job_clock(h, -1, 0);
	wake = fsw_io_job(f, now_ns);
	t = job_clock(h, 0, t);
	fsw_ctl100_job(f, now_ns);
	t = job_clock(h, 1, t);
	if (wake) {
		fsw_ekf_job(f, now_ns);
		t = job_clock(h, 2, t);
		h->ekf_jobs++;
	}
	if (h->slot % 10 == 0) {
		fsw_nav10_job(f, now_ns);
		t = job_clock(h, 3, t);
	}
	if (h->slot % 100 == 0) {
		fsw_mission1_job(f, now_ns);
		job_clock(h, 4, t);
	}
	h->m.t_s = h->daq.model.st.t_s;
	if (h->m.t_s >= h->scen.metrics_start_s)
		metrics_add(h);
	if (h->hook)
		h->hook(h, h->hook_ctx);
}

void sim_harness_run(struct sim_harness *h)
{
	while (h->daq.model.st.t_s < h->scen.duration_s - 1e-9)
		sim_harness_slot(h);
}
