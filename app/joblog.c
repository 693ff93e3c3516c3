/*
 * joblog.c - the job log (docs/joblog.md): the logger thread drains the
 * per-task rings into a CSV file, one row per job, after a versioned header.
 *
 * This runs outside the realtime path (the logger is SCHED_OTHER). libcsv
 * quotes any field that needs it; the numeric fields never do.
 */
#include "joblog.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define APP_JOBLOG_COLUMNS "task,seq,release_ns,start_ns,end_ns,cpu_ns,cpu,flags,missed"

/* app_csv_field - one text field, quoted by libcsv when it holds a separator, quote or newline */
static void app_csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n"))
		csv_fwrite(f, s, strlen(s));
	else
		fputs(s, f);
}

int app_joblog_open(struct app *app, const char *path)
{
	app->joblog = fopen(path, "we");
	if (!app->joblog)
		return -errno;
	snprintf(app->joblog_path, sizeof(app->joblog_path), "%s", path);
	/* a large buffer: the logger writes in bursts every logger period */
	setvbuf(app->joblog, NULL, _IOFBF, 1 << 16);
	return 0;
}

/* app_meta - one "# key=value" metadata line, the value quoted by libcsv if needed */
static void app_meta(FILE *f, const char *key, const char *value)
{
	fprintf(f, "# %s=", key);
	app_csv_field(f, value);
	fputc('\n', f);
}

int app_joblog_header(struct app *app)
{
	const struct app_config *cfg = &app->cfg;
	const struct app_task *t;
	FILE *f = app->joblog;
	struct utsname u;
	char key[64];
	int i;

	if (!f)
		return 0;
	fputs("# preflight-joblog/1\n", f);
	app_meta(f, "program", "flightapp");
	app_meta(f, "config", cfg->source);
	app_meta(f, "profile", cfg->profile);
	if (!uname(&u)) {
		app_meta(f, "host", u.nodename);
		app_meta(f, "kernel", u.release);
	}
	fprintf(f, "# slot_ns=%" PRId64 "\n", cfg->slot_ns);
	fprintf(f, "# start_mono_ns=%" PRId64 "\n", app->t0_ns);
	fprintf(f, "# duration_ns=%" PRId64 "\n", app->duration_ns);
	fprintf(f, "# no_rt=%d\n", app->no_rt);
	app_meta(f, "sched", app->no_rt ? "SCHED_OTHER everywhere (--no-rt)" : "as configured");
	app_meta(f, "dma_latency", app->dma_state);
	app_meta(f, "memory", app->memory_locked ? "locked" : "unlocked");
	app_meta(f, "trace_instance", app->trace_instance);
	app_meta(f, "markers", !app->trace_instance[0] ? "off" : app->marker.text ? "text" : "raw");
	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		snprintf(key, sizeof(key), "task.%s", t->cfg.name);
		fprintf(f, "# %s=id=%d kind=%s period_ns=%" PRId64 " phase_ns=%" PRId64 " deadline_ns=%" PRId64
			" event_period_ns=%" PRId64 " policy=%s prio=%d cpus=%s work_ns=%" PRId64 "\n",
			key, t->id, app_kind_name(t->cfg.kind), t->cfg.period_ns, t->cfg.phase_ns, t->deadline_ns,
			t->cfg.event_period_ns, app->no_rt ? "other" : app_policy_name(t->cfg.policy),
			app->no_rt ? 0 : t->cfg.priority,
			t->cfg.cpus[0] ? t->cfg.cpus : cfg->cpus[0] ? cfg->cpus : "all", t->cfg.work_ns);
	}
	fputs(APP_JOBLOG_COLUMNS "\n", f);
	errno = 0;
	if (fflush(f) || ferror(f)) {
		/* kept for app_joblog_close, which reports it (one line, with the reason) */
		app->joblog_error = errno ? -errno : -EIO;
		return app->joblog_error;
	}
	return 0;
}

uint64_t app_logger_drain(struct app *app)
{
	struct app_jobrec rec;
	struct app_task *t;
	FILE *f = app->joblog;
	uint64_t n = 0;
	int i;

	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		if (!t->ring.rec)
			continue;
		while (app_ring_pop(&t->ring, &rec)) {
			n++;
			if (!f)
				continue;
			app_csv_field(f, t->cfg.name);
			fprintf(f, ",%" PRIu32 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%u,%u,%" PRIu32 "\n",
				rec.seq, rec.release_ns, rec.start_ns, rec.end_ns, rec.cpu_ns,
				rec.cpu, rec.flags, rec.missed);
		}
	}
	app->joblog_rows += n;
	if (f && ferror(f) && !app->joblog_error)
		app->joblog_error = -EIO;
	return n;
}

int app_joblog_close(struct app *app)
{
	FILE *f = app->joblog;
	const struct app_task *t;
	int i, ret;

	if (!f)
		return 0;
	fprintf(f, "# end_mono_ns=%" PRId64 "\n", atomic_load(&app->end_ns));
	fprintf(f, "# skipped_slots=%" PRIu64 "\n", atomic_load(&app->skipped_slots));
	fprintf(f, "# rows=%" PRIu64 "\n", app->joblog_rows);
	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		if (t->ring.rec)
			fprintf(f, "# missed_after_last.%s=%" PRIu64 "\n", t->cfg.name,
				app_missed_after_last((struct app_task *)t));
	}
	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		if (t->ring.rec)
			fprintf(f, "# dropped.%s=%" PRIu64 "\n", t->cfg.name,
				app_ring_dropped((struct app_ring *)&t->ring));
	}
	ret = app->joblog_error;
	errno = 0;
	if ((fflush(f) || ferror(f)) && !ret)
		ret = errno ? -errno : -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	app->joblog = NULL;
	return ret;
}
