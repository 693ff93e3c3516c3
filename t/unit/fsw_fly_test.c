/*
 * fsw_fly_test.c - the closed loop in the faster-than-real-time harness:
 * the Aerosonde model flown by the flight software over the real frame
 * formats, with and without faults. Fixed seeds; simulation time only.
 * Test ids: fly-N.M.
 *
 *   fly-1  three laps of the default circuit: cross-track, altitude and
 *          navigation errors, no stall, no frame errors, no failsafe
 *   fly-2  GPS outage of 20 s: dead reckoning, covariance growth, bounded
 *          error, reconvergence within a few fixes
 *   fly-3  the sensor link falls silent for 2 s: stale IMU within 3 slots,
 *          failsafe, recovery, the circuit continues
 *   fly-4  garbage and flipped bits on the UART, truncated SPI answers:
 *          rejected and counted, nothing bad reaches the controller
 *   fly-5  determinism: the same seed gives the same flight
 *   fly-6  IMU at 1 kHz over the same UART (460800 baud)
 *   fly-7  navigation lost (INS thrown off): gated fixes, realignment
 *   fly-8  no allocation after setup (mallinfo2 around 60 s of jobs)
 */
#include "bench/sim/sim_harness.h"
#include "tap.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

static struct sim_harness h;

static int run(struct sim_scenario *s)
{
	char err[256];

	if (sim_harness_init(&h, s, err, sizeof(err))) {
		tap_diag("harness: %s", err);
		return -1;
	}
	return 0;
}

static void test_laps(void)
{
	struct sim_scenario s;
	struct fsw_stats st;

	sim_scenario_default(&s);
	if (run(&s))
		return;
	sim_harness_run(&h);
	fsw_stats(h.fsw, &st);
	tap_diag("3 laps: track RMS %.2f m (max %.1f), altitude RMS %.2f m (max %.1f), EKF position RMS %.2f m (max %.2f)",
		 h.m.track_err_rms_m, h.m.track_err_max_m, h.m.alt_err_rms_m, h.m.alt_err_max_m, h.m.pos_err_rms_m,
		 h.m.pos_err_max_m);
	check(st.waypoints_reached >= 12 && st.laps >= 3, "fly-1.1 three laps flown (%u waypoints)", st.waypoints_reached);
	check(h.m.track_err_rms_m < 10, "fly-1.2 cross-track error RMS %.2f m < 10 m", h.m.track_err_rms_m);
	check(h.m.alt_err_rms_m < 5, "fly-1.3 altitude error RMS %.2f m < 5 m", h.m.alt_err_rms_m);
	check(h.m.pos_err_rms_m < 3, "fly-1.4 EKF position error RMS %.2f m < 3 m", h.m.pos_err_rms_m);
	check(!h.daq.model.stalled && h.daq.model.max_alpha_rad < 0.3 && h.daq.model.min_airspeed_mps > 18,
	      "fly-1.5 no stall (max alpha %.1f deg, min airspeed %.1f m/s)", h.daq.model.max_alpha_rad * 180 / FSW_PI,
	      h.daq.model.min_airspeed_mps);
	check(st.frame_errors == 0 && st.imu_frames == h.daq.imu_frames && st.gps_fixes == h.daq.gps_frames &&
	      st.spi_frames + 1 >= h.slot, "fly-1.6 clean links: every frame accepted, zero frame errors");
	check(st.failsafe_events == 0 && st.stale_events == 0 && st.ekf_gated == 0 && st.corr_dropped == 0,
	      "fly-1.7 no failsafe, no stale IMU, no gated fix, no dropped correction");
	sim_harness_fini(&h);
}

struct outage {
	double start_s, len_s;
	double sigma_before, sigma_end, err_max, err_after;
	int    fixes_to_converge;
	uint64_t upd_at_end;
};

static void outage_hook(struct sim_harness *hh, void *ctx)
{
	struct outage *o = ctx;
	double t = hh->daq.model.st.t_s, e = sim_harness_nav_error_m(hh);
	double sig = sqrt(hh->fsw->e.ekf.P[0] + hh->fsw->e.ekf.P[16] + hh->fsw->e.ekf.P[32]);

	if (t < o->start_s) {
		o->sigma_before = sig;
		return;
	}
	if (t < o->start_s + o->len_s + 0.1) {	/* the last fix before the outage arrives 0.1 s late */
		if (e > o->err_max)
			o->err_max = e;
		o->sigma_end = sig;
		o->upd_at_end = hh->fsw->e.ekf.updates;
		return;
	}
	if (o->fixes_to_converge < 0 && e >= 0 && e < 3)
		o->fixes_to_converge = (int)(hh->fsw->e.ekf.updates - o->upd_at_end);
	if (t > o->start_s + o->len_s + 15 && t < o->start_s + o->len_s + 16)
		o->err_after = e;
}

static void test_gps_outage(void)
{
	struct sim_scenario s;
	struct outage o = { 100, 20, 0, 0, 0, 0, -1, 0 };
	struct fsw_stats st;

	sim_scenario_default(&s);
	s.duration_s = 150;
	s.sens.gps_outage_start_s = o.start_s;
	s.sens.gps_outage_len_s = o.len_s;
	if (run(&s))
		return;
	h.hook = outage_hook;
	h.hook_ctx = &o;
	sim_harness_run(&h);
	fsw_stats(h.fsw, &st);
	tap_diag("GPS outage 20 s: position sigma %.2f -> %.2f m, max error %.2f m, %d fixes to < 3 m, error 15 s later %.2f m",
		 o.sigma_before, o.sigma_end, o.err_max, o.fixes_to_converge, o.err_after);
	check(o.sigma_end > 3 * o.sigma_before, "fly-2.1 covariance grows while dead-reckoning (%.2f -> %.2f m)",
	      o.sigma_before, o.sigma_end);
	check(o.err_max < 30 && o.err_max < 3 * o.sigma_end,
	      "fly-2.2 dead-reckoning error bounded: %.2f m < 30 m and < 3 sigma of the filter's own estimate", o.err_max);
	check(o.fixes_to_converge >= 0 && o.fixes_to_converge <= 3, "fly-2.3 reconverged (< 3 m) within %d fixes (<= 3)",
	      o.fixes_to_converge);
	check(st.gps_lost_events == 1, "fly-2.5 mission1 saw the GPS lost once (health)");
	check(st.failsafe_events == 0 && st.waypoints_reached >= 5 && o.err_after < 3 && h.m.track_err_rms_m < 15,
	      "fly-2.4 the mission went on (no failsafe, %u waypoints, track RMS %.1f m)", st.waypoints_reached,
	      h.m.track_err_rms_m);
	sim_harness_fini(&h);
}

struct silent {
	double   start_s;
	uint64_t first_dark_slot, stale_slot, auto_again_slot;
	uint64_t imu_at_start;
	bool     fs_seen;
	double   max_roll_fs;
};

static void silent_hook(struct sim_harness *hh, void *ctx)
{
	struct silent *si = ctx;
	struct fsw *f = hh->fsw;
	double r, p, y;

	if (hh->daq.model.st.t_s < si->start_s) {
		si->imu_at_start = f->io.parser.imu_frames;
		return;
	}
	if (!si->first_dark_slot && f->io.parser.imu_frames == si->imu_at_start)
		si->first_dark_slot = hh->slot;	/* the first slot io read no IMU frame */
	if (!si->stale_slot && f->io.stale)
		si->stale_slot = hh->slot;
	if (f->m.mode == FSW_MODE_FAILSAFE) {
		si->fs_seen = true;
		fsw_q_to_euler(hh->daq.model.st.q, &r, &p, &y);
		if (fabs(r) > si->max_roll_fs)
			si->max_roll_fs = fabs(r);
	} else if (si->fs_seen && !si->auto_again_slot && f->m.mode == FSW_MODE_AUTO) {
		si->auto_again_slot = hh->slot;
	}
}

/* fs_count_hook - the slots whose last actuator frame, as the simulator received it, said failsafe */
static void fs_count_hook(struct sim_harness *hh, void *ctx)
{
	*(uint64_t *)ctx += hh->daq.app_mode == FSW_MODE_FAILSAFE;
}

static void test_silent_link(void)
{
	uint64_t fs_seen = 0;
	struct sim_scenario s;
	struct silent si = { 60, 0, 0, 0, 0, false, 0 };
	struct fsw_stats st;
	uint32_t wp_before;

	sim_scenario_default(&s);
	s.duration_s = 150;
	s.faults.uart_silent_start_s = si.start_s;
	s.faults.uart_silent_len_s = 2;
	if (run(&s))
		return;
	h.hook = silent_hook;
	h.hook_ctx = &si;
	sim_harness_run(&h);
	fsw_stats(h.fsw, &st);
	wp_before = 2;		/* reached before t = 60 s in the clean run */
	tap_diag("silent UART at slot %llu, stale at slot %llu, auto again %.2f s after the link returned, max bank in failsafe %.1f deg",
		 (unsigned long long)si.first_dark_slot, (unsigned long long)si.stale_slot,
		 (si.auto_again_slot - 6200) / 100.0, si.max_roll_fs * 180 / FSW_PI);
	check(si.stale_slot && si.stale_slot - si.first_dark_slot + 1 <= 3,
	      "fly-3.1 stale IMU detected within 3 slots (%llu)", (unsigned long long)(si.stale_slot - si.first_dark_slot + 1));
	check(st.stale_events == 1 && st.failsafe_events == 1, "fly-3.2 one stale event, one failsafe event");
	check(st.recoveries == 1 && si.auto_again_slot > 6200 && si.auto_again_slot < 6200 + 300,
	      "fly-3.3 recovery: back to the mission within 3 s of the link returning");
	check(!h.daq.model.stalled && si.max_roll_fs < 20 * FSW_PI / 180 && h.m.alt_err_max_m < 20,
	      "fly-3.4 failsafe flight: no stall, bank < 20 deg, altitude within 20 m (max %.1f m)", h.m.alt_err_max_m);
	check(st.waypoints_reached > wp_before + 2 && h.fsw->m.mode == FSW_MODE_AUTO,
	      "fly-3.5 the circuit continues afterwards (%u waypoints)", st.waypoints_reached);
	sim_harness_fini(&h);

	/* a blip: 60 ms without bytes; the INS bridges it, no failsafe, no realignment */
	sim_scenario_default(&s);
	s.duration_s = 70;
	s.faults.uart_silent_start_s = 60;
	s.faults.uart_silent_len_s = 0.06;
	if (run(&s))
		return;
	h.hook = fs_count_hook;
	h.hook_ctx = &fs_seen;
	sim_harness_run(&h);
	fsw_stats(h.fsw, &st);
	check(st.stale_events == 1 && st.recoveries == 1 && st.failsafe_events == 0 && st.realigns == 1 &&
	      h.m.pos_err_max_m < 3, "fly-3.6 a 60 ms blip: stale event counted, bridged by the INS, no failsafe");
	/*
	 * issue 32.15: "failsafe_events 0 but time in failsafe 0.301 s": the frames the simulator saw in
	 * failsafe are ctl100's reflex on the stale IMU (and the start-up slot before mission1's first
	 * decision), counted by cause; none is a mission failsafe
	 */
	tap_diag("blip: failsafe frames %llu = start-up %llu + IMU stale %llu + mission %llu, the simulator saw %llu",
		 (unsigned long long)(st.fs_startup_frames + st.fs_imu_stale_frames + st.fs_mission_frames),
		 (unsigned long long)st.fs_startup_frames, (unsigned long long)st.fs_imu_stale_frames,
		 (unsigned long long)st.fs_mission_frames, (unsigned long long)fs_seen);
	check(st.fs_mission_frames == 0 && st.fs_imu_stale_frames == 4 && st.fs_startup_frames == 0 &&
	      st.slot_s == 0.01, "fly-3.7 ... its failsafe frames by cause: 0 mission, 4 IMU stale (ctl100's reflex), "
	      "0 at start-up (%llu, %llu, %llu)", (unsigned long long)st.fs_mission_frames,
	      (unsigned long long)st.fs_imu_stale_frames, (unsigned long long)st.fs_startup_frames);
	check(fs_seen == st.fs_startup_frames + st.fs_imu_stale_frames + st.fs_mission_frames,
	      "fly-3.8 ... as many as the actuator frames the simulator received in failsafe (%llu)",
	      (unsigned long long)fs_seen);
	sim_harness_fini(&h);
}

static void bad_values_hook(struct sim_harness *hh, void *ctx)
{
	int *bad = ctx;
	const struct sim_controls *c = &hh->daq.model.ctl;
	const struct fsw_ins_state *x = &hh->fsw->c.x;

	if (!isfinite(c->aileron_rad) || !isfinite(c->elevator_rad) || !isfinite(c->throttle) ||
	    !fsw_v3_finite(x->pos_m) || !fsw_v3_finite(x->vel_mps) || !isfinite(x->q.w) || fsw_v3_norm(x->bg_radps) > 0.1)
		(*bad)++;
}

static void test_garbage(void)
{
	struct sim_scenario s;
	struct fsw_stats st;
	int bad = 0;
	uint64_t ubx_rej;

	sim_scenario_default(&s);
	s.duration_s = 120;
	s.faults.garbage_burst_prob = 0.001;	/* ~4 bursts of 1-16 random bytes per second */
	s.faults.corrupt_per_byte = 2e-4;	/* ~1 flipped bit per second */
	s.faults.spi_truncate_every = 50;
	s.faults.spi_truncate_len = 300;
	s.uart_baud = 230400;			/* room for the garbage */
	if (run(&s))
		return;
	h.hook = bad_values_hook;
	h.hook_ctx = &bad;
	sim_harness_run(&h);
	fsw_stats(h.fsw, &st);
	ubx_rej = st.rej[FSW_REJ_UBX_CK] + st.rej[FSW_REJ_UBX_LEN] + st.rej[FSW_REJ_UBX_PVT_LEN];
	tap_diag("garbage %llu bytes, %llu flipped: imu_crc %llu, imu_type %llu, imu_len %llu, ubx %llu, spi_short %llu; %llu IMU frames of %llu",
		 (unsigned long long)h.daq.garbage_bytes, (unsigned long long)h.daq.corrupted_bytes,
		 (unsigned long long)st.rej[FSW_REJ_IMU_CRC], (unsigned long long)st.rej[FSW_REJ_IMU_TYPE],
		 (unsigned long long)st.rej[FSW_REJ_IMU_LEN], (unsigned long long)ubx_rej,
		 (unsigned long long)st.rej[FSW_REJ_SPI_SHORT], (unsigned long long)st.imu_frames,
		 (unsigned long long)h.daq.imu_frames);
	check(st.rej[FSW_REJ_IMU_CRC] > 0 && st.resync_bytes >= h.daq.garbage_bytes / 2,
	      "fly-4.1 corrupted IMU frames rejected by CRC and garbage skipped, all counted");
	check(st.rej[FSW_REJ_SPI_SHORT] + 1 >= h.daq.spi_truncated && st.rej[FSW_REJ_SPI_SHORT] <= h.daq.spi_truncated &&
	      h.daq.spi_truncated > 100,
	      "fly-4.2 every truncated SPI frame rejected and counted (%llu; the last may still be in flight)", (unsigned long long)h.daq.spi_truncated);
	check(st.imu_frames > h.daq.imu_frames * 90 / 100 && st.frame_errors > 0,
	      "fly-4.3 good frames still get through (%llu of %llu)", (unsigned long long)st.imu_frames,
	      (unsigned long long)h.daq.imu_frames);
	check(bad == 0 && h.m.pos_err_rms_m < 3 && h.m.track_err_rms_m < 12 && !h.daq.model.stalled,
	      "fly-4.4 no bad value reached the controller; it still flies (pos RMS %.2f m, track RMS %.1f m)",
	      h.m.pos_err_rms_m, h.m.track_err_rms_m);
	sim_harness_fini(&h);
}

struct jump {
	bool done;
	double t_jump, t_ok;
};

/* jump_hook - at 40 s, throw the INS 300 m off; note when it is back within 3 m */
static void jump_hook(struct sim_harness *hh, void *ctx)
{
	struct jump *j = ctx;
	double t = hh->daq.model.st.t_s, e;

	if (!j->done && t >= j->t_jump) {
		hh->fsw->c.x.pos_m.x += 300;
		j->done = true;
		return;
	}
	e = sim_harness_nav_error_m(hh);
	if (j->done && j->t_ok == 0 && e >= 0 && e < 3)
		j->t_ok = t;
}

static void test_nav_lost(void)
{
	struct sim_scenario s;
	struct jump j = { false, 40, 0 };
	struct fsw_stats st;

	sim_scenario_default(&s);
	s.duration_s = 70;
	if (run(&s))
		return;
	h.hook = jump_hook;
	h.hook_ctx = &j;
	sim_harness_run(&h);
	fsw_stats(h.fsw, &st);
	tap_diag("INS thrown 300 m off at %.0f s: %llu fixes gated, %u realign request(s), within 3 m again at %.1f s",
		 j.t_jump, (unsigned long long)st.ekf_gated, st.realign_requests, j.t_ok);
	check(st.ekf_gated >= 5 && st.realign_requests == 1 && st.realigns == 2,
	      "fly-7.1 an INS far off: fixes gated, mission1 orders one realignment");
	check(j.t_ok > j.t_jump && j.t_ok < j.t_jump + 10 && !h.daq.model.stalled,
	      "fly-7.2 navigation back within 3 m %.1f s later (< 10 s)", j.t_ok - j.t_jump);
	sim_harness_fini(&h);
}

static void test_determinism(void)
{
	struct sim_scenario s;
	double a[3];

	sim_scenario_default(&s);
	s.duration_s = 40;
	s.wind.turb_sigma_mps = 1.0;
	if (run(&s))
		return;
	sim_harness_run(&h);
	a[0] = h.m.track_err_ss;
	a[1] = h.m.pos_err_ss;
	a[2] = h.daq.model.st.pos_m.x;
	sim_harness_fini(&h);
	if (run(&s))
		return;
	sim_harness_run(&h);
	check(a[0] == h.m.track_err_ss && a[1] == h.m.pos_err_ss && a[2] == h.daq.model.st.pos_m.x,
	      "fly-5.1 same seed, same flight, bit for bit (with turbulence)");
	sim_harness_fini(&h);
	s.seed = 2;
	if (run(&s))
		return;
	sim_harness_run(&h);
	check(a[1] != h.m.pos_err_ss, "fly-5.2 another seed, another flight");
	sim_harness_fini(&h);
}

static void test_imu_1khz(void)
{
	struct sim_scenario s;
	struct fsw_stats st;

	sim_scenario_default(&s);
	s.duration_s = 60;
	s.sens.imu_rate_hz = 1000;
	s.uart_baud = 460800;
	if (run(&s))
		return;
	sim_harness_run(&h);
	fsw_stats(h.fsw, &st);
	check(st.imu_frames == h.daq.imu_frames && st.imu_frames > 59000 && st.frame_errors == 0 && st.imu_dropped == 0 &&
	      h.m.pos_err_rms_m < 3 && h.m.track_err_rms_m < 10,
	      "fly-6.1 IMU at 1 kHz: %llu frames, pos RMS %.2f m, track RMS %.1f m", (unsigned long long)st.imu_frames,
	      h.m.pos_err_rms_m, h.m.track_err_rms_m);
	sim_harness_fini(&h);
}

/* test_no_alloc - the task jobs (and the simulated DAQ) allocate nothing once set up */
static void test_no_alloc(void)
{
	struct sim_scenario s;
	struct mallinfo2 a, b;
	int i;

	sim_scenario_default(&s);
	s.faults.corrupt_per_byte = 1e-4;	/* the rejection paths too */
	s.faults.spi_truncate_every = 30;
	if (run(&s))
		return;
	for (i = 0; i < 200; i++)
		sim_harness_slot(&h);
	a = mallinfo2();
	for (i = 0; i < 6000; i++)		/* 60 s: ekf, nav10, mission1 many times */
		sim_harness_slot(&h);
	b = mallinfo2();
	check(a.uordblks == b.uordblks && a.hblkhd == b.hblkhd && h.fsw->e.ekf.updates > 50,
	      "fly-8.1 60 s of task jobs allocate nothing (heap in use %zu -> %zu bytes)", a.uordblks, b.uordblks);
	sim_harness_fini(&h);
}

int main(void)
{
	tap_plan(30);
	test_laps();
	test_gps_outage();
	test_silent_link();
	test_garbage();
	test_determinism();
	test_imu_1khz();
	test_nav_lost();
	test_no_alloc();
	return tap_done();
}
