/*
 * joblog_write.c - the job log (docs/joblog.md): the logger thread drains the
 * per-task rings into a CSV file, one row per job, after a versioned header.
 *
 * This runs outside the realtime path (the logger is SCHED_OTHER). libcsv
 * quotes any field that needs it; the numeric fields never do.
 *
 * The rows are formatted into a buffer of our own and written with write(),
 * so that what reached the disk is known to the row: when the disk is full
 * (ENOSPC) a row cut in half is cut off again, every row that did not reach
 * the disk (then or later) is counted as dropped for its task, and the
 * trailer still fits, in space held back from the start in an unnamed file
 * (O_TMPFILE) given back at that moment. The trailer says what happened.
 */
#define _GNU_SOURCE
#include "joblog_write.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define APP_JOBLOG_COLUMNS "task,seq,release_ns,start_ns,end_ns,cpu_ns,cpu,flags,missed"
#define APP_JOBLOG_BUF     (1 << 16)	/* bytes of rows written at once */
#define APP_JOBLOG_ROW_MAX 256		/* a row is shorter than this */
#define APP_JOBLOG_MIN_ROW 18		/* and longer than this: "a,0,0,0,0,0,0,0,0\n" */
#define APP_JOBLOG_RESERVE (16 << 10)	/* held back for the trailer */

/* app_csv_field - one text field, quoted by libcsv when it holds a separator, quote or newline */
static void app_csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n"))
		csv_fwrite(f, s, strlen(s));
	else
		fputs(s, f);
}

/*
 * app_joblog_reserve - space held on the job log's filesystem by an unnamed
 * file (nothing is left if the app is killed), given back when the disk is
 * full so that the trailer fits; its fd, or -1 (no reserve)
 */
static int app_joblog_reserve(const char *path)
{
	char dir[512];
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	fd = open(dirname(dir), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 && posix_fallocate(fd, 0, APP_JOBLOG_RESERVE)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int app_joblog_open(struct app *app, const char *path)
{
	app->joblog_reserve_fd = -1;
	app->joblog = fopen(path, "we");
	if (!app->joblog)
		return -errno;
	snprintf(app->joblog_path, sizeof(app->joblog_path), "%s", path);
	app->joblog_buf = malloc(APP_JOBLOG_BUF);
	app->joblog_row_task = malloc(APP_JOBLOG_BUF / APP_JOBLOG_MIN_ROW + 1);
	if (!app->joblog_buf || !app->joblog_row_task) {
		fclose(app->joblog);
		app->joblog = NULL;
		return -ENOMEM;
	}
	app->joblog_reserve_fd = app_joblog_reserve(path);
	return 0;
}

/*
 * app_joblog_write - write the buffered rows; on a write error keep the
 * whole rows that reached the disk, cut a row written in part, count the
 * rest as dropped for their tasks, and remember the error (rows after it are
 * dropped too: app_logger_drain)
 */
static void app_joblog_write(struct app *app)
{
	int fd = fileno(app->joblog);
	size_t off = 0, whole = 0, row = 0, i;
	ssize_t n;
	off_t end;

	while (off < app->joblog_len) {
		n = write(fd, app->joblog_buf + off, app->joblog_len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			app->joblog_error = n < 0 ? -errno : -ENOSPC;
			break;
		}
		off += (size_t)n;
	}
	for (i = 0; i < off; i++)
		if (app->joblog_buf[i] == '\n') {
			whole = i + 1;
			row++;
		}
	app->joblog_rows += row;
	if (off > whole && (end = lseek(fd, 0, SEEK_CUR)) >= 0) {
		end -= (off_t)(off - whole);	/* the row cut by the full disk: not half a row on disk */
		if (ftruncate(fd, end) == 0)
			lseek(fd, end, SEEK_SET);
	}
	for (; row < app->joblog_nrows; row++)
		app->task[app->joblog_row_task[row]].joblog_dropped++;
	app->joblog_len = 0;
	app->joblog_nrows = 0;
}

/* app_joblog_row - format one row into the buffer (written when it is full) */
static void app_joblog_row(struct app *app, struct app_task *t, const struct app_jobrec *rec)
{
	char *p;
	size_t room;
	int n;

	if (app->joblog_error) {
		t->joblog_dropped++;
		return;
	}
	if (app->joblog_len + APP_JOBLOG_ROW_MAX > APP_JOBLOG_BUF)
		app_joblog_write(app);
	if (app->joblog_error) {
		t->joblog_dropped++;
		return;
	}
	p = app->joblog_buf + app->joblog_len;
	room = APP_JOBLOG_BUF - app->joblog_len;
	n = strpbrk(t->cfg.name, ",\"\r\n") ? (int)csv_write(p, room, t->cfg.name, strlen(t->cfg.name)) :
	    snprintf(p, room, "%s", t->cfg.name);
	n += snprintf(p + n, room - n, ",%" PRIu32 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%u,%u,%" PRIu32 "\n",
		      rec->seq, rec->release_ns, rec->start_ns, rec->end_ns, rec->cpu_ns,
		      rec->cpu, rec->flags, rec->missed);
	app->joblog_len += (size_t)n;
	app->joblog_row_task[app->joblog_nrows++] = (uint8_t)(t - app->task);
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
			if (f)
				app_joblog_row(app, t, &rec);
		}
	}
	if (f && app->joblog_len)
		app_joblog_write(app);
	if (!f)
		app->joblog_rows += n;
	return n;
}

/* app_joblog_trailer - the trailer: end, skipped slots, rows, drops, and the write error if any */
static size_t app_joblog_trailer(struct app *app, char *buf, size_t size)
{
	size_t len = 0;
	int i;

#define APP_TRAILER(...) (len += (size_t)snprintf(buf + len, len < size ? size - len : 0, __VA_ARGS__))
	APP_TRAILER("# end_mono_ns=%" PRId64 "\n", atomic_load(&app->end_ns));
	APP_TRAILER("# skipped_slots=%" PRIu64 "\n", atomic_load(&app->skipped_slots));
	if (app->joblog_error)
		APP_TRAILER("# write_error=%s (%s): the rows after row %" PRIu64 " did not reach the "
			    "disk and are counted as dropped\n", strerror(-app->joblog_error),
			    app->joblog_error == -ENOSPC ? "ENOSPC" : "write failed", app->joblog_rows);
	APP_TRAILER("# rows=%" PRIu64 "\n", app->joblog_rows);
	for (i = 0; i < app->ntasks; i++)
		if (app->task[i].ring.rec)
			APP_TRAILER("# missed_after_last.%s=%" PRIu64 "\n", app->task[i].cfg.name,
				    app_missed_after_last(&app->task[i]));
	for (i = 0; i < app->ntasks; i++)
		if (app->task[i].ring.rec)
			APP_TRAILER("# dropped.%s=%" PRIu64 "\n", app->task[i].cfg.name,
				    app_task_dropped(&app->task[i]));
#undef APP_TRAILER
	return len < size ? len : size;
}

int app_joblog_close(struct app *app)
{
	FILE *f = app->joblog;
	int ret;

	if (!f)
		return 0;
	if (app->joblog_len)
		app_joblog_write(app);
	if (app->joblog_error && app->joblog_reserve_fd >= 0) {
		close(app->joblog_reserve_fd);	/* the room held back: the trailer fits */
		app->joblog_reserve_fd = -1;
	}
	ret = app->joblog_error;
	/* the trailer goes through the same writer, but is no row: it counts none */
	app->joblog_len = app_joblog_trailer(app, app->joblog_buf, APP_JOBLOG_BUF);
	app->joblog_error = 0;
	{
		uint64_t rows = app->joblog_rows;

		app_joblog_write(app);
		app->joblog_rows = rows;
	}
	if (app->joblog_error && !ret)
		ret = app->joblog_error;
	if (fclose(f) && !ret)
		ret = -errno;
	app->joblog = NULL;
	if (app->joblog_reserve_fd >= 0)
		close(app->joblog_reserve_fd);
	app->joblog_reserve_fd = -1;
	free(app->joblog_buf);
	free(app->joblog_row_task);
	app->joblog_buf = NULL;
	app->joblog_row_task = NULL;
	return ret;
}
