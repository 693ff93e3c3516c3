/*
 * fsw.h - the flight software of flightapp: what each task does per job,
 * the data the tasks share, and the configuration ([fsw] and [links]).
 *
 *   io        (every slot)  read the UART (non-blocking), decode IMU and GPS
 *                           frames, one SPI transfer (actuators out, slow
 *                           sensors in), detect a stale IMU; wake ekf on a
 *                           GPS fix (or after ekf_wake_s without one)
 *   ctl100    (every slot)  strapdown INS over every new IMU sample, apply
 *                           EKF corrections (carried from the fix epoch to
 *                           now), attitude / rate control, actuator frame
 *   ekf       (on GPS fix)  propagate the covariance along the INS history
 *                           to the fix epoch, fuse position and velocity
 *   nav10     (10 slots)    L1 guidance along the current leg, altitude and
 *                           airspeed loops, waypoint reached detection
 *   mission1  (100 slots)   waypoint sequencing, health, failsafe decisions
 *
 * The job functions never allocate, print or block; the only syscalls are
 * the links' non-blocking read / send / recv. Tasks share data through
 * seqlock mailboxes and SPSC rings (fsw_shared.h) and may run concurrently
 * on several CPUs. The test harness calls the same functions in slot order
 * from one thread, which makes a run deterministic.
 */
#ifndef FSW_H
#define FSW_H

#include "fsw_ctl.h"
#include "fsw_ekf.h"
#include "fsw_link.h"
#include "fsw_proto.h"
#include "fsw_shared.h"
#include "fsw_tlm.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FSW_MAX_WP   32
#define FSW_HIST     4096		/* INS steps kept for the delayed GPS update (power of two) */
#define FSW_IMU_RING 256

enum fsw_mode {
	FSW_MODE_INIT = 0,		/* not aligned yet: trim, wings level */
	FSW_MODE_AUTO = 1,		/* flying the mission */
	FSW_MODE_FAILSAFE = 2,		/* wings level, hold altitude, cruise throttle */
};

const char *fsw_mode_name(enum fsw_mode m);

struct fsw_config {
	char     uart[256];		/* [links] uart: device or pty path, "" = none */
	int      uart_baud;		/* [links] uart_baud */
	char     spi_backend[16];	/* [links] spi: seqpacket | spidev | none */
	char     spi_path[256];		/* [links] spi_path: socket or /dev/spidevB.C */
	uint32_t spi_speed_hz;		/* [links] spi_speed_hz (spidev) */
	uint32_t spi_frame_len;		/* [links] spi_frame_len: bytes per transfer, 500 */
	double   slot_s;		/* base slot (the executive's), for control dt */
	double   home_lat_deg, home_lon_deg, home_height_m;
	double   mag_decl_rad;
	int      stale_slots;		/* slots without an IMU frame that make it stale */
	double   ekf_wake_s;		/* io wakes ekf at least this often (covariance grows in outages), 1.5 s */
	double   airspeed_mps;		/* commanded (indicated) airspeed */
	int      n_wp;
	fsw_vec3 wp[FSW_MAX_WP];	/* circuit, NED from home (z = -altitude) */
	struct fsw_ekf_params ekf;
	struct fsw_ctl_params ctl;
};

/* Mailbox payloads (all carry 'count' = times written). */
struct fsw_io_msg {
	uint32_t count;
	bool     imu_stale;
	uint32_t stale_events, recoveries;
};

struct fsw_gps_msg {
	uint32_t count;
	int64_t  rx_ns;
	struct fsw_gps_fix fix;
	fsw_vec3 pos_m;			/* fix position in the local frame */
};

struct fsw_sens_msg {
	uint32_t count;
	int64_t  rx_ns;
	struct fsw_spi_sens s;
	double   baro_alt_m;		/* ISA altitude above home from the static pressure */
	double   airspeed_mps;		/* indicated, from the pitot */
};

struct fsw_nav_msg {
	uint32_t count;
	bool     aligned;
	uint32_t epoch;			/* bumps at each (re)alignment */
	uint64_t align_k, k;		/* INS step of the alignment / of this state */
	uint32_t t_us;
	struct fsw_ins_state x;
	fsw_vec3 rate_radps;		/* bias-corrected */
	double   roll_rad, pitch_rad, yaw_rad;
	double   baro_offset_m;		/* INS altitude - baro altitude at the last alignment */
	int64_t  pub_ns;		/* CLOCK_MONOTONIC of the job that published it (telemetry age) */
};

struct fsw_corr_msg {
	uint32_t id, epoch;
	uint64_t k;			/* INS step the correction refers to */
	double   dx[FSW_EKF_N];
};

struct fsw_ekf_msg {
	uint32_t count;
	uint32_t gps_done;		/* the last GPS mailbox count it consumed */
	uint32_t gated_run;		/* consecutive fixes refused by the innovation gate */
	double   pos_sigma_m, vel_sigma_mps, nis;
	uint64_t updates, gated, not_pd, hist_lost;
};

struct fsw_guid_msg {
	uint32_t count;
	double   roll_cmd_rad, pitch_cmd_rad, throttle;
	uint32_t reached_leg;		/* last leg whose end waypoint was reached */
	double   xtrack_m;
};

struct fsw_mission_msg {
	uint32_t count;
	enum fsw_mode mode;
	uint32_t leg;
	uint32_t realign;		/* bumped to make ctl100 realign on the next fix */
	fsw_vec3 a, b, c;		/* leg a->b, then b->c */
	double   alt_cmd_m, airspeed_cmd_mps;
};

struct fsw_act_msg {
	uint32_t count;
	struct fsw_act_cmd cmd;
	uint8_t  mode;
	uint32_t t_us;
	fsw_vec3 nav_pos_m;		/* telemetry to the DAQ */
};

struct fsw_hist_rec {
	uint64_t k;
	uint32_t t_us, epoch;
	double   dt_s;
	fsw_vec3 gyro, accel;
	struct fsw_ins_state x0, x1;	/* before / after the step */
};

/*
 * The io task's own SPI transfer times (fsw_io_job): from just before the
 * send to the reply's arrival (the seqpacket link's kernel receive stamp,
 * spidev's return from the synchronous ioctl). A fixed-bin histogram filled
 * on the realtime path (no allocation): FSW_SPIT_NBINS bins of
 * FSW_SPIT_BIN_NS, the first FSW_SPIT_NOUT longer transfers kept exactly,
 * later ones counted at the top edge. fsw_spi_timing_hist() turns it into a
 * lib/hist.h histogram off the realtime path.
 */
#define FSW_SPIT_BIN_NS  5000
#define FSW_SPIT_NBINS   4000			/* 0 .. 20 ms binned */
#define FSW_SPIT_NOUT    64
#define FSW_SPIT_OVER_NS 1000000		/* REQ-SPI-001: a transfer over 1 ms */
#define FSW_SPIT_PENDING 16			/* transfers awaiting their reply (power of two) */

struct fsw_spi_timing {
	uint32_t bins[FSW_SPIT_NBINS];
	int64_t  out[FSW_SPIT_NOUT];		/* exact values past the bins */
	uint32_t nout;
	uint64_t out_lost;			/* past the bins once out[] is full: counted at the top edge */
	uint64_t count, over_1ms, unmatched;	/* timed transfers; replies without a pending send */
	int64_t  min_ns, max_ns;
	double   mean_ns, m2;			/* Welford */
	struct { uint16_t seq; bool pending; int64_t send_ns; } pend[FSW_SPIT_PENDING];
};

/* fsw_spi_timing_add - one transfer time (realtime-safe) */
void fsw_spi_timing_add(struct fsw_spi_timing *t, int64_t ns);

/* Counters for the summary (fsw_stats). */
struct fsw_stats {
	uint64_t imu_frames, gps_fixes, spi_frames, frame_errors;
	uint64_t rej[FSW_REJ_COUNT];
	uint64_t resync_bytes, ubx_ignored, gps_nofix, spi_stale, imu_dropped;
	uint32_t stale_events, recoveries, failsafe_events, waypoints_reached, laps, gps_lost_events, realign_requests;
	uint64_t ekf_updates, ekf_gated, ekf_not_pd, ekf_hist_lost, ekf_refused, corr_applied, corr_dropped, realigns;
	uint64_t ekf_unaligned, ekf_fix_old, ekf_fix_wakes, ekf_prop_wakes;
	/* ctl100's actuator frames in failsafe: before mission1's first decision, the IMU stale, mission failsafe */
	uint64_t fs_startup_frames, fs_imu_stale_frames, fs_mission_frames;
	double   slot_s;			/* one actuator frame's time (ctl100 runs every slot) */
	enum fsw_mode mode;
};

struct json_t;

/* fsw_failsafe_json - the failsafe time by cause, for the stats JSON (fsw_stats_json.c); NULL when out of memory */
struct json_t *fsw_failsafe_json(const struct fsw_stats *s);
/* fsw_ekf_json - what became of the GPS fixes and of ekf's releases, for the stats JSON (fsw_stats_json.c); NULL when out of memory */
struct json_t *fsw_ekf_json(const struct fsw_stats *s);

struct fsw {
	struct fsw_config cfg;
	struct fsw_geo_home home;
	struct fsw_uart_link uart;
	struct fsw_spi_link spi;

	/* shared between tasks */
	FSW_SPSC(struct fsw_imu_sample, FSW_IMU_RING) imu_ring;
	FSW_MAILBOX(struct fsw_io_msg) io_mb;
	FSW_MAILBOX(struct fsw_gps_msg) gps_mb;
	FSW_MAILBOX(struct fsw_sens_msg) sens_mb;
	FSW_MAILBOX(struct fsw_nav_msg) nav_mb;
	FSW_MAILBOX(struct fsw_corr_msg) corr_mb;
	FSW_MAILBOX(struct fsw_ekf_msg) ekf_mb;
	FSW_MAILBOX(struct fsw_guid_msg) guid_mb;
	FSW_MAILBOX(struct fsw_mission_msg) mission_mb;
	FSW_MAILBOX(struct fsw_act_msg) act_mb;
	struct { struct fsw_seqlock lock; struct fsw_hist_rec val; } hist[FSW_HIST];

	/* io task */
	struct {
		struct fsw_uart_parser parser;
		uint8_t  ubuf[1024], rx[FSW_SPI_FRAME_MAX + 16], tx[FSW_SPI_FRAME_MAX];
		uint64_t rej_spi[FSW_REJ_COUNT], spi_frames, spi_stale, spi_errno, gps_nofix, ekf_refused;
		uint64_t ekf_fix_wakes, ekf_prop_wakes;	/* ekf released for a fix, to propagate without one */
		uint32_t slots_no_imu, stale_events, recoveries, gps_count, sens_count;
		bool     stale, got_imu, fix_pending, have_spi_seq;
		uint16_t spi_seq_in, act_seq;
		int64_t  last_wake_ns, now_ns;
		struct fsw_spi_timing spit;
	} io;
	/* ctl100 task */
	struct {
		struct fsw_ins_state x;
		bool     aligned, need_align, have_accel;
		uint32_t epoch, last_t_us, nav_count, act_count, realign_seen;
		uint64_t k, align_k, corr_applied, corr_dropped, realigns;
		/* actuator frames sent in failsafe mode, by cause (docs/fsw.md "Time in failsafe") */
		uint64_t fs_startup, fs_imu_stale, fs_mission;
		uint32_t corr_id;
		fsw_vec3 accel_lp;		/* low-passed specific force for levelling */
		fsw_vec3 rate;
		double   baro_offset_m;
		struct fsw_att_ctl att;
	} c;
	/* ekf task */
	struct {
		struct fsw_ekf ekf;
		uint64_t k;			/* INS step the covariance refers to */
		uint32_t epoch, gps_done, corr_id, count, gated_run;
		uint64_t hist_lost;
		uint64_t unaligned;		/* fixes that came while the INS was not aligned, none used */
		uint64_t fix_old;		/* fixes without an INS step at their epoch (older than its history or alignment) */
		uint32_t unaligned_at;		/* the last of them (its gps count) */
		/* the last update, for tests and logs */
		uint32_t upd_id, upd_t_us;
		uint64_t upd_k;
		struct fsw_ins_state upd_x;	/* corrected state at the fix epoch */
	} e;
	/* nav10 task */
	struct {
		struct fsw_lon_ctl lon;
		uint32_t leg, reached_leg, count;
		bool     passed_b;
		double   xtrack_m;
	} n;
	/* mission1 task */
	struct {
		enum fsw_mode mode;
		uint32_t leg, count, failsafe_events, stale_seen, waypoints_reached;
		uint32_t realign, gps_lost_events, epoch_seen;
		uint64_t gated_at_realign;
		bool     gps_lost;
		int      b_idx;
		double   alt_cmd_m;
	} m;
};

void fsw_config_default(struct fsw_config *c);

/* A numeric configuration key: value * scale is stored in *dst when value is in [min, max]. */
struct fsw_num_key {
	const char *sec, *key;
	double *dst;
	double scale, min, max;
};

/*
 * fsw_set_num_key - look section / key up in a table of numeric keys and
 * store the value; 0, -ENOENT (no such key), -EINVAL (message in err)
 */
int fsw_set_num_key(const struct fsw_num_key *t, size_t n, const char *section, const char *key,
		    const char *value, char *err, size_t err_size);
/*
 * fsw_config_set - one key of section "fsw" or "links"; 0, -ENOENT (not our
 * section), or -EINVAL with a message in err
 */
int fsw_config_set(struct fsw_config *c, const char *section, const char *key, const char *value,
		   char *err, size_t err_size);

/* fsw_init - set up the state (f is large: allocate it, never on a stack); 0 or -EINVAL */
int fsw_init(struct fsw *f, const struct fsw_config *c) __attribute__((warn_unused_result));
/* fsw_open_links - open the configured UART and SPI backends; 0 or -errno (what in err) */
int fsw_open_links(struct fsw *f, char *err, size_t err_size) __attribute__((warn_unused_result));
void fsw_close_links(struct fsw *f);

/* The task bodies: one job each. fsw_io_job returns true when ekf should be released. */
bool fsw_io_job(struct fsw *f, int64_t now_ns);
/* fsw_io_release_refused - the executive refused the release (ekf still busy): counted */
void fsw_io_release_refused(struct fsw *f);
void fsw_ctl100_job(struct fsw *f, int64_t now_ns);
void fsw_ekf_job(struct fsw *f, int64_t now_ns);
void fsw_nav10_job(struct fsw *f, int64_t now_ns);
void fsw_mission1_job(struct fsw *f, int64_t now_ns);

/*
 * fsw_telemetry_snapshot - the navigation snapshot of a telemetry frame from
 * the tasks' mailboxes (any thread, realtime-safe); f NULL: no flight
 * software (health FSW_TLM_NO_FSW, zeros)
 */
void fsw_telemetry_snapshot(struct fsw *f, int64_t now_ns, struct fsw_tlm_frame *t);

struct pf_hist;
/*
 * fsw_spi_timing_hist - the io task's SPI transfer times as a lib/hist.h
 * histogram (setup / exit code: allocates); min, max, mean and stddev exact.
 * 0 or -errno; free with pf_hist_free.
 */
int fsw_spi_timing_hist(const struct fsw_spi_timing *t, struct pf_hist *h) __attribute__((warn_unused_result));

/* fsw_stats - counters of every task (read from any thread; approximate while running) */
void fsw_stats(struct fsw *f, struct fsw_stats *s);

#endif
