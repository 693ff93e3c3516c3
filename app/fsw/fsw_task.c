/*
 * fsw_task.c - the glue between flightapp's executive (app/task.h) and the
 * flight software (fsw.h): task bodies for io, ctl100, ekf, nav10 and
 * mission1, the [fsw] and [links] configuration sections, and the summary
 * written when the app stops.
 *
 * The flight software is enabled when the configuration names a UART
 * ([links] uart = PATH); without it the bodies do nothing and the tasks keep
 * only their calibrated work, so the executive's own runs are unchanged.
 * When enabled, io releases ekf on each GPS fix (the synthetic 1 Hz source
 * is turned off) and the optional [fsw] stats_json = PATH receives the
 * counters at exit (written in fini, outside the realtime path).
 */
#include "app/config.h"
#include "app/task.h"
#include "fsw.h"
#include "fsw_task.h"

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

/* fsw_task_section - [fsw] / [links] keys from flightapp's INI file */
static int fsw_task_section(void *user, const char *section, const char *key, const char *value,
			    char *err, size_t err_size)
{
	if (!strcmp(section, "fsw") && !strcmp(key, "stats_json")) {
		if (strlen(value) >= sizeof(fsw_task_stats_path)) {
			snprintf(err, err_size, "stats_json: path too long");
			return -EINVAL;
		}
		strcpy(fsw_task_stats_path, value);
		return 0;
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
		      "schema", "preflight-fsw-stats v1",
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
		json_object_set_new(o, "gps_lost_events", json_integer(s.gps_lost_events));
		json_object_set_new(o, "realigns", json_integer((json_int_t)s.realigns));
		json_object_set_new(o, "ekf_busy_refused", json_integer((json_int_t)s.ekf_refused));
	}
	if (!o || json_dump_file(o, path, JSON_INDENT(2)) < 0)
		fprintf(stderr, "flightapp: fsw: cannot write '%s'\n", path);
	json_decref(o);
}

void fsw_task_fini(struct app_task *t)
{
	struct fsw *f = fsw_task_fsw;

	if (--fsw_task_users > 0 || !f)
		return;
	if (fsw_task_stats_path[0])
		fsw_task_write_stats(f, fsw_task_stats_path);
	fsw_close_links(f);
	free(f);
	fsw_task_fsw = NULL;
}
