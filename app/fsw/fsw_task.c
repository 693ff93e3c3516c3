/*
 * fsw_task.c - the glue between flightapp's executive (app/task.h, the only
 * header of app/ the flight software includes) and the flight software
 * (fsw.h): task bodies for io, ctl100, ekf, nav10 and
 * mission1, the [fsw] and [links] configuration sections, and the summary
 * written when the app stops.
 *
 * The flight software is enabled when the configuration names a UART
 * ([links] uart = PATH); without it the bodies do nothing and the tasks keep
 * only their calibrated work, so the executive's own runs are unchanged.
 * When enabled, io releases ekf on each GPS fix (the synthetic 1 Hz source
 * is turned off) and the optional [fsw] stats_json = PATH receives the
 * counters at exit (written in fini, outside the realtime path), with the io
 * task's SPI transfer times.
 *
 * The telemetry task sends one frame (fsw_tlm.h) per job to [telemetry]
 * dest = HOST:PORT: the navigation snapshot when the flight software runs,
 * a frame marked "no flight software" otherwise. Without dest it sends
 * nothing, and the statistics say so.
 */
#include "app/task.h"
#include "fsw.h"
#include "fsw_task.h"
#include "hist.h"
#include "outfile.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct fsw_config fsw_task_cfg;
static char fsw_task_stats_path[256];
static struct fsw *fsw_task_fsw;
static struct app_task *fsw_task_ekf_task;
static int fsw_task_users;
static char fsw_task_tlm_dest[256];		/* [telemetry] dest, "" = off */
static struct fsw_tlm_sender fsw_task_tlm = { .fd = -1 };
static bool fsw_task_tlm_open;

/* fsw_task_path - a string key into buf; 0 or -EINVAL */
static int fsw_task_path(char *buf, size_t size, const char *key, const char *value, char *err, size_t err_size)
{
	if (strlen(value) >= size) {
		snprintf(err, err_size, "%s: value too long", key);
		return -EINVAL;
	}
	strcpy(buf, value);
	return 0;
}

/* fsw_task_section - [fsw] / [links] / [telemetry] keys from flightapp's INI file */
static int fsw_task_section(void *user, const char *section, const char *key, const char *value,
			    char *err, size_t err_size)
{
	if (!strcmp(section, "fsw") && !strcmp(key, "stats_json"))
		return fsw_task_path(fsw_task_stats_path, sizeof(fsw_task_stats_path), key, value, err, err_size);
	if (!strcmp(section, "telemetry")) {
		struct sockaddr_storage sa;
		socklen_t len;

		if (strcmp(key, "dest")) {
			snprintf(err, err_size, "unknown key '%s' (expected dest)", key);
			return -EINVAL;
		}
		if (value[0] && fsw_tlm_parse_dest(value, &sa, &len, err, err_size))
			return -EINVAL;
		return fsw_task_path(fsw_task_tlm_dest, sizeof(fsw_task_tlm_dest), key, value, err, err_size);
	}
	return fsw_config_set(user, section, key, value, err, err_size) ? -EINVAL : 0;
}

int fsw_task_register(void)
{
	int rc;

	fsw_config_default(&fsw_task_cfg);
	rc = app_config_add_section("fsw", fsw_task_section, &fsw_task_cfg);
	if (!rc)
		rc = app_config_add_section("links", fsw_task_section, &fsw_task_cfg);
	if (!rc)
		rc = app_config_add_section("telemetry", fsw_task_section, &fsw_task_cfg);
	return rc;
}

int fsw_task_init(struct app_task *t, struct app *app)
{
	char err[320];
	int rc;

	fsw_task_users++;
	app_task_set_priv(t, NULL);
	if (!fsw_task_cfg.uart[0])
		return 0;		/* flight software not configured */
	if (!fsw_task_fsw) {
		struct fsw *f = calloc(1, sizeof(*f));

		if (!f)
			return -ENOMEM;
		fsw_task_cfg.slot_s = app_slot_ns(app) / 1e9;
		rc = fsw_init(f, &fsw_task_cfg);
		if (!rc)
			rc = fsw_open_links(f, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "flightapp: fsw: %s\n", rc == -EINVAL ? "invalid configuration" : err);
			free(f);
			return rc;
		}
		fsw_task_fsw = f;
		fsw_task_ekf_task = app_find_task(app, "ekf");
		if (fsw_task_ekf_task && app_task_kind(fsw_task_ekf_task) == APP_TASK_EVENT)
			(void)app_task_set_event_period(fsw_task_ekf_task, 0);
		else
			fsw_task_ekf_task = NULL;
	}
	app_task_set_priv(t, fsw_task_fsw);
	return 0;
}

void fsw_task_io(struct app_task *t, const struct app_job *job)
{
	struct fsw *f = app_task_priv(t);

	if (f && fsw_io_job(f, job->start_ns) && fsw_task_ekf_task && app_task_trigger(fsw_task_ekf_task) == -EBUSY)
		fsw_io_release_refused(f);
}

void fsw_task_ctl100(struct app_task *t, const struct app_job *job)
{
	struct fsw *f = app_task_priv(t);

	if (f)
		fsw_ctl100_job(f, job->start_ns);
}

void fsw_task_ekf(struct app_task *t, const struct app_job *job)
{
	struct fsw *f = app_task_priv(t);

	if (f)
		fsw_ekf_job(f, job->start_ns);
}

void fsw_task_nav10(struct app_task *t, const struct app_job *job)
{
	struct fsw *f = app_task_priv(t);

	if (f)
		fsw_nav10_job(f, job->start_ns);
}

void fsw_task_mission1(struct app_task *t, const struct app_job *job)
{
	struct fsw *f = app_task_priv(t);

	if (f)
		fsw_mission1_job(f, job->start_ns);
}

int fsw_task_telemetry_init(struct app_task *t, struct app *app)
{
	char err[320];
	int rc = fsw_task_init(t, app);

	if (rc || !fsw_task_tlm_dest[0] || fsw_task_tlm_open)
		return rc;
	rc = fsw_tlm_open(&fsw_task_tlm, fsw_task_tlm_dest, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "flightapp: telemetry: %s\n", err);
		fsw_task_users--;
		return rc;
	}
	fsw_task_tlm_open = true;
	return 0;
}

void fsw_task_telemetry(struct app_task *t, const struct app_job *job)
{
	struct fsw_tlm_frame fr;

	if (!fsw_task_tlm_open)
		return;
	fsw_telemetry_snapshot(app_task_priv(t), job->start_ns, &fr);
	(void)fsw_tlm_send(&fsw_task_tlm, &fr);	/* a refused send is counted */
}

/* fsw_task_tlm_json - the telemetry sender's counters (or why there are none) */
static json_t *fsw_task_tlm_json(void)
{
	const struct fsw_tlm_sender *s = &fsw_task_tlm;

	if (!fsw_task_tlm_open)
		return json_pack("{s:b, s:s, s:I, s:I}", "enabled", 0, "reason",
				 fsw_task_tlm_dest[0] ? "the telemetry task did not run"
						      : "no destination ([telemetry] dest)",
				 "sent", (json_int_t)0, "send_errors", (json_int_t)0);
	return json_pack("{s:b, s:s, s:i, s:i, s:I, s:I, s:s?}", "enabled", 1, "dest", fsw_task_tlm_dest,
			 "frame_bytes", FSW_TLM_FRAME_LEN, "version", FSW_TLM_VERSION,
			 "sent", (json_int_t)s->sent, "send_errors", (json_int_t)s->send_errors,
			 "last_error", s->last_errno ? strerror(s->last_errno) : NULL);
}

/*
 * fsw_task_spit_json - the io task's SPI transfer times: the statistics of
 * lib/hist.h plus over_1ms and unmatched (docs/fsw.md)
 */
static json_t *fsw_task_spit_json(const struct fsw *f)
{
	const struct fsw_spi_timing *t = &f->io.spit;
	struct pf_hist h;
	json_t *o;

	if (!f->spi.send)
		return json_null();
	if (fsw_spi_timing_hist(t, &h))
		return json_null();
	o = pf_hist_json(&h, "ns");
	pf_hist_free(&h);
	if (!o)
		return json_null();
	json_object_set_new(o, "over_1ms", json_integer((json_int_t)t->over_1ms));
	json_object_set_new(o, "unmatched_replies", json_integer((json_int_t)t->unmatched));
	json_object_set_new(o, "frame_bytes", json_integer((json_int_t)f->cfg.spi_frame_len));
	json_object_set_new(o, "backend", json_string(f->cfg.spi_backend));
	return o;
}

static void fsw_task_dump(json_t *o, const char *path);

/* fsw_task_write_stats - the counters as JSON (docs/fsw.md) */
static void fsw_task_write_stats(struct fsw *f, const char *path)
{
	struct fsw_stats s;
	json_t *o, *rej;
	int i;

	fsw_stats(f, &s);
	rej = json_object();
	for (i = 1; i < FSW_REJ_COUNT; i++)
		json_object_set_new(rej, fsw_rej_name(i), json_integer((json_int_t)s.rej[i]));
	o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:o, s:I, s:I, s:I, s:i, s:i, s:i, s:i, s:i, s:I, s:I, s:I, s:s}",
		      "schema", "preflight-fsw-stats/1",
		      "imu_frames", (json_int_t)s.imu_frames, "gps_fixes", (json_int_t)s.gps_fixes,
		      "spi_frames", (json_int_t)s.spi_frames, "frame_errors", (json_int_t)s.frame_errors,
		      "rejected", rej, "resync_bytes", (json_int_t)s.resync_bytes,
		      "spi_stale", (json_int_t)s.spi_stale, "imu_dropped", (json_int_t)s.imu_dropped,
		      "stale_events", (int)s.stale_events, "recoveries", (int)s.recoveries,
		      "failsafe_events", (int)s.failsafe_events, "waypoints_reached", (int)s.waypoints_reached,
		      "laps", (int)s.laps, "ekf_updates", (json_int_t)s.ekf_updates,
		      "ekf_gated", (json_int_t)s.ekf_gated, "corrections_applied", (json_int_t)s.corr_applied,
		      "final_mode", fsw_mode_name(s.mode));
	if (o) {
		json_object_set_new(o, "spi_transfer_ns", fsw_task_spit_json(f));
		json_object_set_new(o, "gps_lost_events", json_integer(s.gps_lost_events));
		json_object_set_new(o, "realigns", json_integer((json_int_t)s.realigns));
		json_object_set_new(o, "ekf_busy_refused", json_integer((json_int_t)s.ekf_refused));
		json_object_set_new(o, "failsafe_time", fsw_failsafe_json(&s));
		json_object_set_new(o, "ekf", fsw_ekf_json(&s));
	}
	fsw_task_dump(o, path);
}

/* fsw_task_dump - write (and release) the statistics object */
static void fsw_task_dump(json_t *o, const char *path)
{
	if (o)
		json_object_set_new(o, "telemetry", fsw_task_tlm_json());
	if (!o)
		fprintf(stderr, "flightapp: fsw: cannot write '%s'\n", path);
	else
		(void)!pf_outfile_json(path, o, JSON_INDENT(2));	/* lib/outfile.h; said why */
	json_decref(o);
}

void fsw_task_fini(struct app_task *t)
{
	struct fsw *f = fsw_task_fsw;

	(void)t;
	if (--fsw_task_users > 0)
		return;
	if (fsw_task_stats_path[0] && f)
		fsw_task_write_stats(f, fsw_task_stats_path);
	else if (fsw_task_stats_path[0])	/* no flight software: the telemetry counters only */
		fsw_task_dump(json_pack("{s:s, s:b}", "schema", "preflight-fsw-stats/1", "flight_software", 0),
			      fsw_task_stats_path);
	if (fsw_task_tlm_open)
		fsw_tlm_close(&fsw_task_tlm);
	fsw_task_tlm_open = false;
	if (!f)
		return;
	fsw_close_links(f);
	free(f);
	fsw_task_fsw = NULL;
}
