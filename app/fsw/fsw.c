/*
 * fsw.c - the flight software's task jobs (see fsw.h for who does what),
 * its configuration keys and its counters.
 *
 * Data flow of one slot: io decodes UART bytes into IMU samples (ring to
 * ctl100) and GPS fixes (mailbox, wakes ekf), reads the answer of the last
 * SPI transfer (slow sensors) and starts the next one with the newest
 * actuator frame. ctl100 integrates every new IMU sample, records each INS
 * step in the history ring, applies the newest EKF correction after carrying
 * it from its fix epoch to now, and runs attitude control. ekf propagates
 * its covariance along the history to the fix epoch and fuses the fix.
 * nav10 and mission1 close the guidance and mission loops.
 */
#include "fsw.h"
#include "common.h"
#include "hist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fsw_mode_name(enum fsw_mode m)
{
	switch (m) {
	case FSW_MODE_INIT: return "init";
	case FSW_MODE_AUTO: return "auto";
	case FSW_MODE_FAILSAFE: return "failsafe";
	}
	return "?";
}

void fsw_config_default(struct fsw_config *c)
{
	static const double circuit[][2] = { { 0, 0 }, { 800, 0 }, { 800, 500 }, { 0, 500 } };
	int i;

	memset(c, 0, sizeof(*c));
	c->uart_baud = 115200;
	strcpy(c->spi_backend, "none");
	c->spi_speed_hz = 4000000;
	c->spi_frame_len = FSW_SPI_FRAME_LEN;
	c->slot_s = 0.01;
	c->home_lat_deg = 47.397742;
	c->home_lon_deg = 8.545594;
	c->home_height_m = 488.0;
	c->mag_decl_rad = atan2(0.006, 0.216);
	c->stale_slots = 3;
	c->ekf_wake_s = 1.5;		/* > the GPS period: only outages use it */
	c->airspeed_mps = 25;
	c->n_wp = 4;
	for (i = 0; i < 4; i++)
		c->wp[i] = fsw_v3(circuit[i][0], circuit[i][1], -100);
	fsw_ekf_params_default(&c->ekf);
	fsw_ctl_params_default(&c->ctl);
}

/* parse_num - a whole floating-point value; 0 or -EINVAL */
static int parse_num(const char *v, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (end == v || *end || errno || !isfinite(d))
		return -EINVAL;
	*out = d;
	return 0;
}

int fsw_set_num_key(const struct fsw_num_key *t, size_t n, const char *section, const char *key,
		    const char *value, char *err, size_t err_size)
{
	size_t i;
	double d;

	for (i = 0; i < n; i++) {
		if (strcmp(t[i].sec, section) || strcmp(t[i].key, key))
			continue;
		if (parse_num(value, &d) || d < t[i].min || d > t[i].max) {
			snprintf(err, err_size, "%s: '%s': expected a number in [%g, %g]", key, value, t[i].min, t[i].max);
			return -EINVAL;
		}
		if (t[i].dst)
			*t[i].dst = d * t[i].scale;
		return 0;
	}
	return -ENOENT;
}

int fsw_config_set(struct fsw_config *c, const char *section, const char *key, const char *value,
		   char *err, size_t err_size)
{
	const double deg = FSW_PI / 180;
	struct fsw_num_key nums[] = {
		{ "fsw", "home_lat_deg", &c->home_lat_deg, 1, -90, 90 },
		{ "fsw", "home_lon_deg", &c->home_lon_deg, 1, -180, 180 },
		{ "fsw", "home_height_m", &c->home_height_m, 1, -500, 9000 },
		{ "fsw", "mag_decl_deg", &c->mag_decl_rad, deg, -180, 180 },
		{ "fsw", "ekf_wake_s", &c->ekf_wake_s, 1, 0.1, 10 },
		{ "fsw", "airspeed_mps", &c->airspeed_mps, 1, 12, 40 },
		{ "fsw", "accel_noise", &c->ekf.accel_noise, 1, 1e-6, 10 },
		{ "fsw", "gyro_noise", &c->ekf.gyro_noise, 1, 1e-7, 1 },
		{ "fsw", "accel_bias_rw", &c->ekf.accel_bias_rw, 1, 0, 1 },
		{ "fsw", "gyro_bias_rw", &c->ekf.gyro_bias_rw, 1, 0, 1 },
		{ "fsw", "gps_pos_h_m", &c->ekf.gps_pos_h_m, 1, 0.01, 100 },
		{ "fsw", "gps_pos_v_m", &c->ekf.gps_pos_v_m, 1, 0.01, 100 },
		{ "fsw", "gps_vel_mps", &c->ekf.gps_vel_mps, 1, 0.001, 10 },
		{ "fsw", "gate_chi2", &c->ekf.gate_chi2, 1, 0, 1e6 },
		{ "fsw", "q_scale", &c->ekf.q_scale, 1, 1e-6, 1e6 },
		{ "fsw", "roll_max_deg", &c->ctl.roll_max_rad, deg, 5, 60 },
		{ "fsw", "l1_period_s", &c->ctl.l1_period_s, 1, 5, 60 },
		{ "fsw", "elevator_trim_deg", &c->ctl.elevator_trim_rad, deg, -30, 30 },
		{ "fsw", "throttle_cruise", &c->ctl.throttle_cruise, 1, 0, 1 },
		{ "links", "spi_speed_hz", NULL, 1, 1000, 100e6 },
		{ "links", "uart_baud", NULL, 1, 1200, 4e6 },
		{ "links", "spi_frame_len", NULL, 1, FSW_SPI_FRAME_MIN, FSW_SPI_FRAME_MAX },
	};
	double d;
	int rc;

	if (strcmp(section, "fsw") && strcmp(section, "links"))
		return -ENOENT;
	if (!strcmp(section, "links") && (!strcmp(key, "uart") || !strcmp(key, "spi_path"))) {
		char *dst = key[0] == 'u' ? c->uart : c->spi_path;

		if (strlen(value) >= sizeof(c->uart)) {
			snprintf(err, err_size, "%s: path too long", key);
			return -EINVAL;
		}
		strcpy(dst, value);
		return 0;
	}
	if (!strcmp(section, "links") && !strcmp(key, "spi")) {
		if (strcmp(value, "seqpacket") && strcmp(value, "spidev") && strcmp(value, "none")) {
			snprintf(err, err_size, "spi: '%s': expected seqpacket, spidev or none", value);
			return -EINVAL;
		}
		strcpy(c->spi_backend, value);
		return 0;
	}
	if (!strcmp(section, "fsw") && !strcmp(key, "stale_slots")) {
		if (parse_num(value, &d) || d < 1 || d > 100 || d != floor(d)) {
			snprintf(err, err_size, "stale_slots: '%s': expected a whole number 1-100", value);
			return -EINVAL;
		}
		c->stale_slots = (int)d;
		return 0;
	}
	if (!strcmp(section, "fsw") && !strcmp(key, "waypoint")) {
		double n, e, alt;
		char extra;

		if (sscanf(value, "%lf , %lf , %lf %c", &n, &e, &alt, &extra) != 3 || fabs(n) > 1e5 ||
		    fabs(e) > 1e5 || alt < 10 || alt > 5000) {
			snprintf(err, err_size, "waypoint: '%s': expected 'north_m, east_m, alt_m'", value);
			return -EINVAL;
		}
		if (c->n_wp < 0) {
			c->n_wp = 0;
		}
		if (c->n_wp >= FSW_MAX_WP) {
			snprintf(err, err_size, "waypoint: more than %d waypoints", FSW_MAX_WP);
			return -EINVAL;
		}
		c->wp[c->n_wp++] = fsw_v3(n, e, -alt);
		return 0;
	}
	if (!strcmp(section, "fsw") && !strcmp(key, "clear_waypoints")) {
		c->n_wp = 0;
		return 0;
	}
	rc = fsw_set_num_key(nums, sizeof(nums) / sizeof(nums[0]), section, key, value, err, err_size);
	if (rc != -ENOENT) {
		if (rc || strcmp(section, "links"))
			return rc;
		d = strtod(value, NULL);
		if (!strcmp(key, "spi_speed_hz")) {
			c->spi_speed_hz = (uint32_t)d;
		} else if (!strcmp(key, "spi_frame_len")) {
			if (d != floor(d)) {
				snprintf(err, err_size, "spi_frame_len: '%s': expected a whole number of bytes", value);
				return -EINVAL;
			}
			c->spi_frame_len = (uint32_t)d;
		} else {
			unsigned int sp;

			if (d != floor(d) || fsw_baud_const((int)d, &sp)) {
				snprintf(err, err_size, "uart_baud: '%s': not a standard baud rate", value);
				return -EINVAL;
			}
			c->uart_baud = (int)d;
		}
		return 0;
	}
	snprintf(err, err_size, "unknown key '%s' in [%s]", key, section);
	return -EINVAL;
}

/* mission_publish - the current leg for nav10 */
static void mission_publish(struct fsw *f)
{
	const struct fsw_config *c = &f->cfg;
	struct fsw_mission_msg m;
	int n = c->n_wp, b = f->m.b_idx;

	memset(&m, 0, sizeof(m));
	m.count = ++f->m.count;
	m.mode = f->m.mode;
	m.leg = f->m.leg;
	m.realign = f->m.realign;
	m.a = c->wp[(b + n - 1) % n];
	m.b = c->wp[b % n];
	m.c = c->wp[(b + 1) % n];
	m.alt_cmd_m = f->m.mode == FSW_MODE_FAILSAFE ? f->m.alt_cmd_m : -m.b.z;
	m.airspeed_cmd_mps = c->airspeed_mps;
	fsw_mb_put(&f->mission_mb, &m);
}

int fsw_init(struct fsw *f, const struct fsw_config *c)
{
	if (c->n_wp < 2)
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->cfg = *c;
	f->uart.fd = f->spi.fd = -1;
	fsw_geo_home_init(&f->home, c->home_lat_deg, c->home_lon_deg, c->home_height_m);
	fsw_uart_parser_init(&f->io.parser);
	fsw_ekf_init(&f->e.ekf, &c->ekf);
	f->m.b_idx = 1;
	f->m.leg = 1;
	f->m.alt_cmd_m = -c->wp[1].z;
	mission_publish(f);
	return 0;
}

int fsw_open_links(struct fsw *f, char *err, size_t err_size)
{
	const struct fsw_config *c = &f->cfg;
	int rc;

	if (c->uart[0]) {
		rc = fsw_uart_open(&f->uart, c->uart, c->uart_baud);
		if (rc) {
			snprintf(err, err_size, "uart '%s': %s", c->uart, strerror(-rc));
			return rc;
		}
	}
	if (!strcmp(c->spi_backend, "seqpacket"))
		rc = fsw_spi_open_seqpacket(&f->spi, c->spi_path);
	else if (!strcmp(c->spi_backend, "spidev"))
		rc = fsw_spi_open_spidev(&f->spi, c->spi_path, c->spi_speed_hz);
	else
		return 0;
	if (rc) {
		snprintf(err, err_size, "spi %s '%s': %s", c->spi_backend, c->spi_path, strerror(-rc));
		fsw_uart_close(&f->uart);
		return rc;
	}
	return 0;
}

void fsw_close_links(struct fsw *f)
{
	if (f->uart.read && f->uart.fd >= 0)
		fsw_uart_close(&f->uart);
	if (f->spi.send && f->spi.fd >= 0)
		fsw_spi_close(&f->spi);
}

/* ---- io -------------------------------------------------------------- */

static void io_on_imu(void *ctx, const struct fsw_imu_sample *s)
{
	struct fsw *f = ctx;

	(void)fsw_spsc_push(&f->imu_ring, s);
	f->io.got_imu = true;
}

static void io_on_gps(void *ctx, const struct fsw_gps_fix *fix)
{
	struct fsw *f = ctx;
	struct fsw_gps_msg m;

	if (fix->fix_type < 3 || !(fix->flags & 1) || fix->num_sv < 5) {
		f->io.gps_nofix++;
		return;
	}
	m.count = ++f->io.gps_count;
	m.rx_ns = f->io.now_ns;
	m.fix = *fix;
	m.pos_m = fsw_geo_to_ned(&f->home, fix->lat_deg, fix->lon_deg, fix->height_m);
	fsw_mb_put(&f->gps_mb, &m);
	f->io.fix_pending = true;
}

void fsw_spi_timing_add(struct fsw_spi_timing *t, int64_t ns)
{
	double d;

	if (ns < 0)
		ns = 0;
	if (!t->count || ns < t->min_ns)
		t->min_ns = ns;
	if (!t->count || ns > t->max_ns)
		t->max_ns = ns;
	t->count++;
	d = (double)ns - t->mean_ns;
	t->mean_ns += d / (double)t->count;
	t->m2 += d * ((double)ns - t->mean_ns);
	if (ns > FSW_SPIT_OVER_NS)
		t->over_1ms++;
	if (ns / FSW_SPIT_BIN_NS < FSW_SPIT_NBINS)
		t->bins[ns / FSW_SPIT_BIN_NS]++;
	else if (t->nout < FSW_SPIT_NOUT)
		t->out[t->nout++] = ns;
	else
		t->out_lost++;
}

int fsw_spi_timing_hist(const struct fsw_spi_timing *t, struct pf_hist *h)
{
	int64_t top_ns = (int64_t)FSW_SPIT_NBINS * FSW_SPIT_BIN_NS;
	uint32_t i;
	int rc;

	pf_hist_init(h);
	rc = 0;
	for (i = 0; !rc && i < FSW_SPIT_NBINS; i++)
		if (t->bins[i])
			rc = pf_hist_add_n(h, (int64_t)i * FSW_SPIT_BIN_NS, t->bins[i]);
	for (i = 0; !rc && i < t->nout; i++)
		rc = pf_hist_add_n(h, t->out[i], 1);
	if (!rc && t->out_lost)
		rc = pf_hist_add_n(h, top_ns, t->out_lost);
	if (rc) {
		pf_hist_free(h);
		return rc;
	}
	if (t->count) {		/* the bins hold lower edges: the exact figures */
		h->min = t->min_ns;
		h->max = t->max_ns;
		h->sum = pf_i128_from(llroundl((long double)t->mean_ns * (long double)t->count));
		h->wmean = t->mean_ns;
		h->m2 = t->m2;
	}
	return 0;
}

/*
 * io_spi_timed - a reply arrived (f->spi.rx_ns, or now when the link cannot
 * tell) for the actuator frame act_seq: its transfer time, if that frame's
 * send is still pending (a reply to a frame the DAQ rejected carries an
 * older, already timed number)
 */
static void io_spi_timed(struct fsw *f, uint16_t act_seq)
{
	struct fsw_spi_timing *t = &f->io.spit;
	int slot = act_seq & (FSW_SPIT_PENDING - 1);

	if (!t->pend[slot].pending || t->pend[slot].seq != act_seq) {
		t->unmatched++;
		return;
	}
	t->pend[slot].pending = false;
	fsw_spi_timing_add(t, (f->spi.rx_ns ? f->spi.rx_ns : pf_now_ns()) - t->pend[slot].send_ns);
}

/* io_spi - read the answer of the previous transfer, start the next one */
static void io_spi(struct fsw *f, int64_t now_ns)
{
	struct fsw_act_msg act;
	struct fsw_spi_act a;
	typeof(f->io.spit.pend[0]) *pend;
	ssize_t r;
	int i, rc;

	if (!f->spi.send)
		return;
	for (i = 0; i < 4; i++) {	/* at most a few answers can be queued */
		struct fsw_spi_sens s;

		r = f->spi.recv(f->spi.ctx, f->io.rx, sizeof(f->io.rx));
		if (r == 0)
			break;
		if (r < 0) {
			f->io.spi_errno++;
			break;
		}
		rc = fsw_spi_decode_sens(f->io.rx, (size_t)r, f->cfg.spi_frame_len, &s);
		if (rc) {
			f->io.rej_spi[-rc]++;
			continue;
		}
		io_spi_timed(f, s.act_seq);
		if (f->io.have_spi_seq && s.seq == f->io.spi_seq_in) {
			f->io.spi_stale++;	/* the DAQ repeated itself: no new data */
			continue;
		}
		f->io.have_spi_seq = true;
		f->io.spi_seq_in = s.seq;
		f->io.spi_frames++;
		{
			struct fsw_sens_msg m;

			m.count = ++f->io.sens_count;
			m.rx_ns = now_ns;
			m.s = s;
			m.baro_alt_m = fsw_isa_alt_m(s.baro_pa) - f->cfg.home_height_m;
			m.airspeed_mps = s.diff_pa > 0 ? sqrt(2 * s.diff_pa / FSW_RHO0_KGPM3) : 0;
			fsw_mb_put(&f->sens_mb, &m);
		}
	}
	memset(&a, 0, sizeof(a));
	if (fsw_mb_get(&f->act_mb, &act) && act.count) {
		a.aileron_rad = act.cmd.aileron_rad;
		a.elevator_rad = act.cmd.elevator_rad;
		a.rudder_rad = act.cmd.rudder_rad;
		a.throttle = act.cmd.throttle;
		a.mode = act.mode;
		a.t_us = act.t_us;
		a.nav_t_us = act.t_us;
		a.nav_pos_m = act.nav_pos_m;
	} else {
		a.elevator_rad = f->cfg.ctl.elevator_trim_rad;
		a.throttle = f->cfg.ctl.throttle_cruise;
	}
	a.seq = f->io.act_seq++;
	fsw_spi_encode_act(f->io.tx, f->cfg.spi_frame_len, &a);
	pend = &f->io.spit.pend[a.seq & (FSW_SPIT_PENDING - 1)];
	pend->seq = a.seq;
	pend->send_ns = pf_now_ns();
	pend->pending = f->spi.send(f->spi.ctx, f->io.tx, f->cfg.spi_frame_len) == (ssize_t)f->cfg.spi_frame_len;
	if (!pend->pending)
		f->io.spi_errno++;
}

bool fsw_io_job(struct fsw *f, int64_t now_ns)
{
	struct fsw_uart_sink sink = { io_on_imu, io_on_gps, f };
	struct fsw_io_msg st;
	bool wake = false;
	int i;

	f->io.got_imu = false;
	f->io.now_ns = now_ns;
	if (f->uart.read) {
		for (i = 0; i < 16; i++) {	/* bounded: at most 16 KiB per slot */
			ssize_t r = f->uart.read(f->uart.ctx, f->io.ubuf, sizeof(f->io.ubuf));

			if (r <= 0)
				break;
			fsw_uart_parser_feed(&f->io.parser, f->io.ubuf, (size_t)r, &sink);
		}
	}
	io_spi(f, now_ns);
	if (f->io.got_imu) {
		f->io.slots_no_imu = 0;
		if (f->io.stale) {
			f->io.stale = false;
			f->io.recoveries++;
		}
	} else if (++f->io.slots_no_imu >= (uint32_t)f->cfg.stale_slots && !f->io.stale) {
		f->io.stale = true;
		f->io.stale_events++;
	}
	st.count = 0;
	st.imu_stale = f->io.stale;
	st.stale_events = f->io.stale_events;
	st.recoveries = f->io.recoveries;
	fsw_mb_put(&f->io_mb, &st);
	if (f->io.fix_pending) {
		struct fsw_nav_msg nav;
		struct fsw_gps_msg g;

		/*
		 * release ekf for a fix once ctl100 has integrated the IMU past the
		 * fix epoch (the two share no lock; this keeps ekf from running
		 * early and a busy ekf from being released twice)
		 */
		if (fsw_mb_get(&f->nav_mb, &nav) && fsw_mb_get(&f->gps_mb, &g) &&
		    (!nav.aligned || fsw_us_diff(g.fix.t_us, nav.t_us) <= 0 || now_ns - g.rx_ns > 500000000LL))
			wake = true, f->io.ekf_fix_wakes++;
	} else if (now_ns - f->io.last_wake_ns >= (int64_t)(f->cfg.ekf_wake_s * 1e9)) {
		wake = true;		/* no fix for a while: covariance propagation only */
		f->io.ekf_prop_wakes++;
	}
	if (wake) {
		f->io.fix_pending = false;
		f->io.last_wake_ns = now_ns;
	}
	return wake;
}

void fsw_io_release_refused(struct fsw *f)
{
	/* ekf still busy: it takes the newest fix when it next runs; count, never queue */
	f->io.ekf_refused++;
}

/* ---- ctl100 ----------------------------------------------------------- */

/* hist_put - record one INS step */
static void hist_put(struct fsw *f, const struct fsw_hist_rec *r)
{
	fsw_seq_write(&f->hist[r->k & (FSW_HIST - 1)].lock, &f->hist[r->k & (FSW_HIST - 1)].val, r, sizeof(*r));
}

/* hist_get - INS step k if it is still (and already) in the ring */
static bool hist_get(struct fsw *f, uint64_t k, struct fsw_hist_rec *r)
{
	return fsw_seq_read(&f->hist[k & (FSW_HIST - 1)].lock, r, &f->hist[k & (FSW_HIST - 1)].val, sizeof(*r)) &&
	       r->k == k;
}

/* ctl_align - attitude from the levelled accelerometer and the magnetometer, position / velocity from a fix */
static bool ctl_align(struct fsw *f, const struct fsw_imu_sample *imu)
{
	struct fsw_gps_msg g;
	struct fsw_sens_msg s;
	struct fsw_hist_rec r;
	fsw_vec3 a = f->c.accel_lp, ml;
	double roll, pitch, yaw, age_s;

	if (!fsw_mb_get(&f->gps_mb, &g) || !g.count || !fsw_mb_get(&f->sens_mb, &s) || !s.count)
		return false;
	age_s = fsw_us_diff(imu->t_us, g.fix.t_us) / 1e6;
	if (age_s < 0 || age_s > 0.5)
		return false;	/* wait for a fresh fix */
	roll = atan2(-a.y, -a.z);
	pitch = atan2(a.x, sqrt(a.y * a.y + a.z * a.z));
	ml = fsw_q_rotate(fsw_q_from_euler(roll, pitch, 0), s.s.mag_gauss);
	yaw = atan2(-ml.y, ml.x) + f->cfg.mag_decl_rad;
	f->c.x.q = fsw_q_from_euler(roll, pitch, yaw);
	f->c.x.vel_mps = g.fix.vel_ned_mps;
	f->c.x.pos_m = fsw_v3_add(g.pos_m, fsw_v3_scale(g.fix.vel_ned_mps, age_s));
	f->c.baro_offset_m = -f->c.x.pos_m.z - s.baro_alt_m;
	f->c.aligned = true;
	f->c.need_align = false;
	f->c.epoch++;
	f->c.realigns++;
	f->c.align_k = ++f->c.k;
	f->c.last_t_us = imu->t_us;
	memset(&r, 0, sizeof(r));
	r.k = f->c.k;
	r.t_us = imu->t_us;
	r.epoch = f->c.epoch;
	r.x0 = r.x1 = f->c.x;
	hist_put(f, &r);
	return true;
}

/* ctl_apply_correction - carry the newest EKF correction to now and inject it */
static void ctl_apply_correction(struct fsw *f)
{
	struct fsw_corr_msg cm;
	struct fsw_hist_rec r;
	uint64_t k;

	if (!fsw_mb_get(&f->corr_mb, &cm) || cm.id == f->c.corr_id)
		return;
	f->c.corr_id = cm.id;
	if (cm.epoch != f->c.epoch || !f->c.aligned) {
		f->c.corr_dropped++;
		return;
	}
	for (k = cm.k + 1; k <= f->c.k; k++) {
		if (!hist_get(f, k, &r)) {
			f->c.corr_dropped++;
			return;
		}
		fsw_ins_transport(&r.x0, r.gyro, r.accel, r.dt_s, cm.dx);
	}
	fsw_ins_inject(&f->c.x, cm.dx);
	f->c.corr_applied++;
}

/* ctl_ins - integrate one IMU sample */
static void ctl_ins(struct fsw *f, const struct fsw_imu_sample *s)
{
	struct fsw_hist_rec r;
	double dt;

	f->c.accel_lp = f->c.have_accel ? fsw_v3_add(fsw_v3_scale(f->c.accel_lp, 0.9), fsw_v3_scale(s->accel_mps2, 0.1))
					: s->accel_mps2;
	f->c.have_accel = true;
	if (!f->c.aligned) {
		ctl_align(f, s);
		return;
	}
	if (f->c.need_align && ctl_align(f, s))
		return;		/* realigned on a fresh fix; until then keep integrating */
	dt = fsw_us_diff(s->t_us, f->c.last_t_us) / 1e6;
	if (dt <= 0)
		return;			/* duplicate or out of order: ignore */
	if (dt > 1.0) {
		/*
		 * a long gap (silent link): the INS lost track; realign on the next
		 * fix. A shorter one is bridged with the new sample (the EKF mends
		 * the rest), since levelling in a turn would be worse.
		 */
		f->c.need_align = true;
		f->c.aligned = false;
		ctl_align(f, s);
		return;
	}
	f->c.last_t_us = s->t_us;
	r.k = ++f->c.k;
	r.t_us = s->t_us;
	r.epoch = f->c.epoch;
	r.dt_s = dt;
	r.gyro = s->gyro_radps;
	r.accel = s->accel_mps2;
	r.x0 = f->c.x;
	fsw_ins_step(&f->c.x, s->gyro_radps, s->accel_mps2, dt);
	r.x1 = f->c.x;
	hist_put(f, &r);
	f->c.rate = fsw_v3_sub(s->gyro_radps, f->c.x.bg_radps);
}

void fsw_ctl100_job(struct fsw *f, int64_t now_ns)
{
	const struct fsw_ctl_params *p = &f->cfg.ctl;
	struct fsw_imu_sample s;
	struct fsw_io_msg io;
	struct fsw_guid_msg g;
	struct fsw_mission_msg m;
	struct fsw_sens_msg sens;
	struct fsw_nav_msg nav;
	struct fsw_act_msg act;
	double roll = 0, pitch = 0, yaw = 0, airspeed;
	uint32_t last_t_us = f->c.last_t_us;
	bool no_decision = false;

	if (!fsw_mb_get(&f->mission_mb, &m))
		m.mode = FSW_MODE_FAILSAFE, no_decision = true;
	else if (m.realign != f->c.realign_seen) {
		/* the navigation was judged lost: start over from the next fix */
		f->c.realign_seen = m.realign;
		f->c.need_align = true;
	}
	ctl_apply_correction(f);
	while (fsw_spsc_pop(&f->imu_ring, &s))
		ctl_ins(f, &s);
	if (!fsw_mb_get(&f->io_mb, &io))
		io.imu_stale = true;
	if (!fsw_mb_get(&f->guid_mb, &g))
		g.count = 0;
	if (!fsw_mb_get(&f->sens_mb, &sens))
		sens.count = 0;
	fsw_q_to_euler(f->c.x.q, &roll, &pitch, &yaw);
	airspeed = sens.count ? sens.airspeed_mps : fsw_v3_norm(f->c.x.vel_mps);

	memset(&act, 0, sizeof(act));
	if (io.imu_stale || !f->c.aligned) {
		/* no attitude: neutral ailerons and rudder, cruise throttle, elevator on baro altitude */
		double alt = sens.count ? sens.baro_alt_m + f->c.baro_offset_m : m.alt_cmd_m;

		act.cmd.elevator_rad = p->elevator_trim_rad - fsw_clamp(p->fs_alt_k * (m.alt_cmd_m - alt), -0.08, 0.08);
		act.cmd.throttle = p->throttle_cruise;
		f->c.att.roll_i = f->c.att.pitch_i = 0;
	} else {
		double roll_cmd = 0, pitch_cmd = p->pitch_trim_rad, thr = p->throttle_cruise;

		if (g.count) {
			pitch_cmd = g.pitch_cmd_rad;
			thr = g.throttle;
			if (m.mode == FSW_MODE_AUTO)
				roll_cmd = g.roll_cmd_rad;
		}
		fsw_att_step(&f->c.att, p, roll_cmd, pitch_cmd, thr, roll, pitch, f->c.rate, airspeed,
			     f->cfg.slot_s, &act.cmd);
	}
	act.count = ++f->c.act_count;
	act.mode = (uint8_t)(io.imu_stale ? FSW_MODE_FAILSAFE : m.mode);
	/*
	 * why the frame says failsafe: mission1 has decided nothing yet (start-up), or decided
	 * failsafe (a failsafe event), or ctl100's own reflex on a stale IMU (a stale event only)
	 */
	if (no_decision)
		f->c.fs_startup++;
	else if (m.mode == FSW_MODE_FAILSAFE)
		f->c.fs_mission++;
	else if (io.imu_stale)
		f->c.fs_imu_stale++;
	act.t_us = f->c.last_t_us;
	act.nav_pos_m = f->c.aligned ? f->c.x.pos_m : fsw_v3(0, 0, 0);
	fsw_mb_put(&f->act_mb, &act);

	if (last_t_us == f->c.last_t_us && f->c.nav_count)
		return;		/* nothing new to publish */
	memset(&nav, 0, sizeof(nav));
	nav.count = ++f->c.nav_count;
	nav.aligned = f->c.aligned;
	nav.epoch = f->c.epoch;
	nav.align_k = f->c.align_k;
	nav.k = f->c.k;
	nav.t_us = f->c.last_t_us;
	nav.x = f->c.x;
	nav.rate_radps = f->c.rate;
	nav.roll_rad = roll;
	nav.pitch_rad = pitch;
	nav.yaw_rad = yaw;
	nav.baro_offset_m = f->c.baro_offset_m;
	nav.pub_ns = now_ns;
	fsw_mb_put(&f->nav_mb, &nav);
}

/* ---- ekf ------------------------------------------------------------- */

/* ekf_propagate - covariance from step e.k to step 'to'; false if history was lost */
static bool ekf_propagate(struct fsw *f, uint64_t to)
{
	struct fsw_hist_rec r;
	uint64_t k;

	for (k = f->e.k + 1; k <= to; k++) {
		if (!hist_get(f, k, &r) || r.epoch != f->e.epoch)
			return false;
		fsw_ekf_predict(&f->e.ekf, &r.x0, r.gyro, r.accel, r.dt_s);
		f->e.k = k;
	}
	return true;
}

/* ekf_find - the newest INS step at or before time t_us (within half a step); 0 if none */
static uint64_t ekf_find(struct fsw *f, uint64_t latest, uint32_t t_us, struct fsw_hist_rec *r)
{
	uint64_t k;

	for (k = latest; k > f->e.k && latest - k < FSW_HIST - 1; k--) {
		if (!hist_get(f, k, r) || r->epoch != f->e.epoch)
			return 0;
		if (fsw_us_diff(r->t_us, t_us) <= 1000)
			return fsw_us_diff(t_us, r->t_us) < 20000 ? k : 0;
	}
	return 0;
}

void fsw_ekf_job(struct fsw *f, int64_t now_ns)
{
	struct fsw_nav_msg nav;
	struct fsw_gps_msg g;
	struct fsw_hist_rec r;
	struct fsw_ekf_msg em;
	uint64_t k;

	if (!fsw_mb_get(&f->nav_mb, &nav) || !nav.count || !nav.aligned) {
		/* a fix the filter cannot use yet: counted once (still used if the INS aligns before the next) */
		if (fsw_mb_get(&f->gps_mb, &g) && g.count != f->e.gps_done && g.count != f->e.unaligned_at) {
			f->e.unaligned_at = g.count;
			f->e.unaligned++;
		}
		return;
	}
	if (nav.epoch != f->e.epoch) {
		fsw_ekf_reset_cov(&f->e.ekf);
		f->e.epoch = nav.epoch;
		f->e.k = nav.align_k;
		f->e.gated_run = 0;
	}
	if (fsw_mb_get(&f->gps_mb, &g) && g.count != f->e.gps_done) {
		if (fsw_us_diff(g.fix.t_us, nav.t_us) > 0)
			goto publish;		/* the IMU has not reached the fix epoch yet */
		f->e.gps_done = g.count;
		if (g.count == f->e.unaligned_at && f->e.unaligned)
			f->e.unaligned--;	/* counted before the INS aligned, used after all */
		k = ekf_find(f, nav.k, g.fix.t_us, &r);
		if (!k || !ekf_propagate(f, k)) {
			f->e.fix_old++;	/* no INS step at its epoch: older than the history, or than the alignment */
		} else {
			struct fsw_corr_msg cm;
			int rc = fsw_ekf_update_gps(&f->e.ekf, &r.x1, g.pos_m, g.fix.vel_ned_mps, cm.dx);

			f->e.gated_run = rc == -ERANGE ? f->e.gated_run + 1 : 0;
			if (rc == 0) {
				cm.id = ++f->e.corr_id;
				cm.epoch = f->e.epoch;
				cm.k = k;
				fsw_mb_put(&f->corr_mb, &cm);
				f->e.upd_id = cm.id;
				f->e.upd_k = k;
				f->e.upd_t_us = r.t_us;
				f->e.upd_x = r.x1;
				fsw_ins_inject(&f->e.upd_x, cm.dx);
			}
		}
		if (!k && fsw_us_diff(g.fix.t_us, nav.t_us) < -(int32_t)(FSW_HIST / 2) * 1000)
			f->e.hist_lost++;	/* fix older than the history */
	} else if (nav.k > f->e.k && !ekf_propagate(f, nav.k)) {
		f->e.hist_lost++;
		fsw_ekf_reset_cov(&f->e.ekf);
		f->e.k = nav.k;
	}
publish:
	memset(&em, 0, sizeof(em));
	em.count = ++f->e.count;
	em.gps_done = f->e.gps_done;
	em.gated_run = f->e.gated_run;
	em.pos_sigma_m = sqrt(f->e.ekf.P[0] + f->e.ekf.P[16] + f->e.ekf.P[32]);
	em.vel_sigma_mps = sqrt(f->e.ekf.P[48] + f->e.ekf.P[64] + f->e.ekf.P[80]);
	em.nis = f->e.ekf.nis;
	em.updates = f->e.ekf.updates;
	em.gated = f->e.ekf.gated;
	em.not_pd = f->e.ekf.not_pd;
	em.hist_lost = f->e.hist_lost;
	fsw_mb_put(&f->ekf_mb, &em);
	(void)now_ns;
}

/* ---- nav10 ----------------------------------------------------------- */

void fsw_nav10_job(struct fsw *f, int64_t now_ns)
{
	const struct fsw_ctl_params *p = &f->cfg.ctl;
	struct fsw_nav_msg nav;
	struct fsw_mission_msg m;
	struct fsw_sens_msg sens;
	struct fsw_guid_msg g;
	fsw_vec3 a, b, pos;
	double v, alt, dt = 10 * f->cfg.slot_s;

	if (!fsw_mb_get(&f->nav_mb, &nav) || !nav.count || !nav.aligned || !fsw_mb_get(&f->mission_mb, &m))
		return;
	if (!fsw_mb_get(&f->sens_mb, &sens))
		sens.count = 0;
	if (m.leg != f->n.leg) {
		f->n.leg = m.leg;
		f->n.passed_b = false;
	}
	pos = nav.x.pos_m;
	/* airspeed from the pitot while it is fresh (0.5 s), else the ground speed */
	v = sens.count && now_ns - sens.rx_ns < 500000000LL ? sens.airspeed_mps : fsw_v3_norm(nav.x.vel_mps);
	if (!f->n.passed_b) {
		/* switch early by the distance a turn at the bank limit needs for this corner */
		double in = atan2(m.b.y - m.a.y, m.b.x - m.a.x), out = atan2(m.c.y - m.b.y, m.c.x - m.b.x);
		double turn = fabs(fsw_wrap_pi(out - in));
		double lead = fsw_turn_radius_m(p, hypot(nav.x.vel_mps.x, nav.x.vel_mps.y)) * tan(fsw_clamp(turn, 0, 2.4) / 2);
		double leg = hypot(m.b.x - m.a.x, m.b.y - m.a.y);
		double along = ((pos.x - m.a.x) * (m.b.x - m.a.x) + (pos.y - m.a.y) * (m.b.y - m.a.y)) / (leg > 0 ? leg : 1);

		if (lead > 0.5 * leg)
			lead = 0.5 * leg;
		if (along >= leg - lead) {
			f->n.passed_b = true;
			f->n.reached_leg = m.leg;
		}
	}
	a = f->n.passed_b ? m.b : m.a;
	b = f->n.passed_b ? m.c : m.b;
	memset(&g, 0, sizeof(g));
	g.roll_cmd_rad = fsw_l1_step(p, a, b, pos, nav.x.vel_mps, &g.xtrack_m);
	f->n.xtrack_m = g.xtrack_m;
	if (m.mode != FSW_MODE_AUTO)
		g.roll_cmd_rad = 0;
	alt = -pos.z;
	fsw_lon_step(&f->n.lon, p, m.alt_cmd_m, alt, -nav.x.vel_mps.z, m.airspeed_cmd_mps, v, nav.roll_rad, dt,
		     &g.pitch_cmd_rad, &g.throttle);
	if (m.mode == FSW_MODE_FAILSAFE)
		g.throttle = p->throttle_cruise;
	g.reached_leg = f->n.reached_leg;
	g.count = ++f->n.count;
	fsw_mb_put(&f->guid_mb, &g);
}

/* ---- mission1 -------------------------------------------------------- */

void fsw_mission1_job(struct fsw *f, int64_t now_ns)
{
	struct fsw_io_msg io;
	struct fsw_nav_msg nav;
	struct fsw_guid_msg g;
	struct fsw_ekf_msg em;
	enum fsw_mode mode = f->m.mode;
	bool stale, nav_ok;

	if (!fsw_mb_get(&f->io_mb, &io))
		return;
	if (!fsw_mb_get(&f->nav_mb, &nav))
		nav.count = 0;
	if (!fsw_mb_get(&f->ekf_mb, &em))
		em.count = 0;
	if (!nav.aligned)
		nav.epoch = f->m.epoch_seen + 1;	/* not aligned: as good as a new epoch */
	/*
	 * Failsafe on a stale IMU now, or on a stale episode since the last run
	 * that cost the INS its alignment (a gap > 1 s). A shorter gap
	 * that the INS bridged is a health event only: ctl100's reflex flew it.
	 */
	stale = io.imu_stale || (io.stale_events != f->m.stale_seen && nav.count && nav.epoch != f->m.epoch_seen);
	f->m.stale_seen = io.stale_events;
	if (nav.count)
		f->m.epoch_seen = nav.epoch;
	{
		struct fsw_gps_msg gm;
		/* after a first fix: none for 3 s */
		bool lost = fsw_mb_get(&f->gps_mb, &gm) && gm.count && now_ns - gm.rx_ns > 3000000000LL;

		if (lost && !f->m.gps_lost)
			f->m.gps_lost_events++;	/* dead reckoning from here: the EKF's covariance grows */
		f->m.gps_lost = lost;
	}
	if (em.count && em.gated_run >= 5 && em.gated >= f->m.gated_at_realign + 5) {
		f->m.realign++;			/* five fixes in a row refused: the INS has lost track */
		f->m.gated_at_realign = em.gated;
	}
	nav_ok = nav.count && nav.aligned && (!em.count || em.pos_sigma_m < 100);
	switch (mode) {
	case FSW_MODE_INIT:
		if (nav_ok && !stale)
			mode = FSW_MODE_AUTO;
		break;
	case FSW_MODE_AUTO:
		if (stale || !nav_ok)
			mode = FSW_MODE_FAILSAFE;
		break;
	case FSW_MODE_FAILSAFE:
		if (!stale && nav_ok)
			mode = FSW_MODE_AUTO;	/* recovery: data back and navigation realigned */
		break;
	}
	if (mode == FSW_MODE_FAILSAFE && f->m.mode != FSW_MODE_FAILSAFE) {
		f->m.failsafe_events++;
		f->m.alt_cmd_m = -f->cfg.wp[f->m.b_idx % f->cfg.n_wp].z;
	}
	f->m.mode = mode;
	/* sequencing: nav10 reports the leg whose end it reached */
	if (fsw_mb_get(&f->guid_mb, &g) && g.count && g.reached_leg == f->m.leg && mode == FSW_MODE_AUTO) {
		f->m.waypoints_reached++;
		f->m.leg++;
		f->m.b_idx = (f->m.b_idx + 1) % f->cfg.n_wp;
	}
	mission_publish(f);
}

void fsw_stats(struct fsw *f, struct fsw_stats *s)
{
	const struct fsw_uart_parser *p = &f->io.parser;
	int i;

	memset(s, 0, sizeof(*s));
	s->imu_frames = p->imu_frames;
	s->gps_fixes = p->gps_frames;
	s->spi_frames = f->io.spi_frames;
	for (i = 1; i < FSW_REJ_COUNT; i++) {
		s->rej[i] = p->rej[i] + f->io.rej_spi[i];
		s->frame_errors += s->rej[i];
	}
	s->resync_bytes = p->resync_bytes;
	s->ubx_ignored = p->ubx_ignored;
	s->gps_nofix = f->io.gps_nofix;
	s->spi_stale = f->io.spi_stale;
	s->imu_dropped = f->imu_ring.dropped;
	s->stale_events = f->io.stale_events;
	s->recoveries = f->io.recoveries;
	s->failsafe_events = f->m.failsafe_events;
	s->fs_startup_frames = f->c.fs_startup;
	s->fs_imu_stale_frames = f->c.fs_imu_stale;
	s->fs_mission_frames = f->c.fs_mission;
	s->slot_s = f->cfg.slot_s;
	s->waypoints_reached = f->m.waypoints_reached;
	s->laps = f->m.waypoints_reached / (uint32_t)f->cfg.n_wp;
	s->gps_lost_events = f->m.gps_lost_events;
	s->realign_requests = f->m.realign;
	s->ekf_updates = f->e.ekf.updates;
	s->ekf_gated = f->e.ekf.gated;
	s->ekf_not_pd = f->e.ekf.not_pd;
	s->ekf_hist_lost = f->e.hist_lost;
	s->ekf_refused = f->io.ekf_refused;
	s->ekf_unaligned = f->e.unaligned;
	s->ekf_fix_old = f->e.fix_old;
	s->ekf_fix_wakes = f->io.ekf_fix_wakes;
	s->ekf_prop_wakes = f->io.ekf_prop_wakes;
	s->corr_applied = f->c.corr_applied;
	s->corr_dropped = f->c.corr_dropped;
	s->realigns = f->c.realigns;
	s->mode = f->m.mode;
}

void fsw_telemetry_snapshot(struct fsw *f, int64_t now_ns, struct fsw_tlm_frame *t)
{
	struct fsw_nav_msg nav;
	struct fsw_sens_msg sens;
	struct fsw_io_msg io;
	struct fsw_ekf_msg ekf;
	struct fsw_mission_msg m;
	int64_t age_ms;

	memset(t, 0, sizeof(*t));
	t->nav_age_ms = FSW_TLM_NO_AGE;
	if (!f) {
		t->health = FSW_TLM_NO_FSW;
		return;
	}
	if (fsw_mb_get(&f->mission_mb, &m) && m.count)
		t->mode = (uint8_t)m.mode;
	if (t->mode == FSW_MODE_FAILSAFE)
		t->health |= FSW_TLM_FAILSAFE;
	if (fsw_mb_get(&f->io_mb, &io) && io.imu_stale)
		t->health |= FSW_TLM_IMU_STALE;
	if (__atomic_load_n(&f->m.gps_lost, __ATOMIC_RELAXED))
		t->health |= FSW_TLM_GPS_LOST;
	if (fsw_mb_get(&f->ekf_mb, &ekf) && ekf.count)
		t->pos_sigma_m = (float)ekf.pos_sigma_m;
	if (fsw_mb_get(&f->sens_mb, &sens) && sens.count)
		t->airspeed_mps = (float)sens.airspeed_mps;
	if (!fsw_mb_get(&f->nav_mb, &nav) || !nav.count)
		return;
	if (nav.aligned)
		t->health |= FSW_TLM_NAV_VALID;
	t->pos_m[0] = (float)nav.x.pos_m.x;
	t->pos_m[1] = (float)nav.x.pos_m.y;
	t->pos_m[2] = (float)nav.x.pos_m.z;
	t->vel_mps[0] = (float)nav.x.vel_mps.x;
	t->vel_mps[1] = (float)nav.x.vel_mps.y;
	t->vel_mps[2] = (float)nav.x.vel_mps.z;
	t->att_rad[0] = (float)nav.roll_rad;
	t->att_rad[1] = (float)nav.pitch_rad;
	t->att_rad[2] = (float)nav.yaw_rad;
	age_ms = (now_ns - nav.pub_ns) / 1000000;
	t->nav_age_ms = (uint16_t)(age_ms < 0 ? 0 : age_ms >= FSW_TLM_NO_AGE ? FSW_TLM_NO_AGE - 1 : age_ms);
}
