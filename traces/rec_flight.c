/*
 * rec_flight.c - the flight recorder (--flight-recorder): for hours-long
 * qualification runs that must keep the evidence around every violation
 * without storing hours of trace.
 *
 * The instance's ring buffer runs in overwrite mode and nobody reads it, so
 * it always holds the most recent events. A trigger freezes it:
 *   - a marker (ftrace:print) containing the --trigger text, through an event
 *     trigger "traceoff if buf ~ \"*TEXT*\"" on ftrace/print, so the kernel
 *     stops the buffer at the very event (markers written to the top-level
 *     trace_marker, like cyclictest --tracemark's, reach the instance through
 *     options/copy_trace_marker);
 *   - SIGUSR1, which writes a "preflight-snapshot SIGUSR1" marker and stops
 *     the buffer itself.
 * The frozen buffer is drained, cut to the pages that hold the last
 * --window seconds before the trigger marker, written as FILE-NNN.dat, and
 * recording re-arms, up to --max-snapshots snapshots.
 */
#define _GNU_SOURCE
#include "rec.h"
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#define REC_USR1_MARKER "preflight-snapshot SIGUSR1"

/* page offsets to keep, per CPU */
struct rec_window {
	uint64_t start_ns;		/* oldest time to keep */
	long long *keep_off;		/* first page to keep, -1: none */
};

/* rec_window_page - rec_page_fn: note the first page that reaches into the window */
static int rec_window_page(void *ctx, int cpu, long long off, uint64_t first_ns,
			   uint64_t last_ns)
{
	struct rec_window *w = ctx;

	if (w->keep_off[cpu] < 0 && last_ns && last_ns >= w->start_ns)
		w->keep_off[cpu] = off;
	return 0;
}

/* rec_trim - keep only [off, end) of a CPU file (off < 0: nothing) */
static int rec_trim(struct rec_cpu *c, long long off)
{
	char path[PATH_MAX + 8];
	struct stat st;
	off_t from = off;
	int fd, ret = 0;

	if (fstat(c->fd, &st) < 0)
		return -errno;
	if (off == 0)
		return 0;
	snprintf(path, sizeof(path), "%s.cut", c->path);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (off >= 0 && from < st.st_size) {
		ssize_t n = sendfile(fd, c->fd, &from, st.st_size - from);

		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
	}
	if (!ret && rename(path, c->path) < 0)
		ret = -errno;
	if (ret) {
		close(fd);
		unlink(path);
		return ret;
	}
	close(c->fd);
	c->fd = fd;
	c->bytes = off >= 0 ? st.st_size - off : 0;
	return 0;
}

/* rec_snapshot_path - FILE.dat -> FILE-NNN.dat */
static void rec_snapshot_path(char *buf, size_t size, const char *output, int n)
{
	size_t len = strlen(output);

	if (len > 4 && !strcmp(output + len - 4, ".dat"))
		len -= 4;
	snprintf(buf, size, "%.*s-%03d.dat", (int)len, output, n);
}

/* rec_snapshot - drain the frozen buffer, cut it to the window, write snapshot n */
static int rec_snapshot(struct rec_session *s, int n, const char *marker)
{
	struct rec_window w = { 0 };
	struct rec_count count;
	char path[PATH_MAX];
	uint64_t trigger_ns = 0;
	int cpu, ret;

	if ((ret = rec_cpu_files_open(s, "snap")) < 0 ||
	    (ret = rec_read_stats(s)) < 0 ||
	    (ret = rec_drain(s)) < 0)
		return ret;
	if ((ret = rec_scan_all(s, &count)) < 0)
		return ret;
	if (rec_find_marker(s, marker, &trigger_ns) < 0)
		trigger_ns = count.last_ns;	/* marker lost or not text: end of buffer */
	w.start_ns = trigger_ns > (uint64_t)s->opts->window_ns ?
		     trigger_ns - (uint64_t)s->opts->window_ns : 0;
	w.keep_off = malloc(s->ncpus * sizeof(*w.keep_off));
	if (!w.keep_off)
		return -ENOMEM;
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		struct rec_count ignored = { 0 };

		w.keep_off[cpu] = -1;
		if ((ret = rec_scan_cpu_file(s, cpu, &ignored, rec_window_page, &w)) < 0 ||
		    (ret = rec_trim(&s->cpus[cpu], w.keep_off[cpu])) < 0)
			goto out;
	}
	if ((ret = rec_comm_forget(&s->comms, (int64_t)w.start_ns)) < 0)	/* older snapshots' threads */
		goto out;
	rec_comm_read_saved(&s->comms, s->tracing_dir);
	rec_comm_scan_proc(&s->comms);
	if ((ret = rec_scan_all(s, &count)) < 0)
		goto out;
	rec_snapshot_path(path, sizeof(path), s->opts->output, n);
	if ((ret = rec_dat_write(s, path)) < 0) {
		pf_err("'%s': cannot write: %s", path, strerror(-ret));
		goto out;
	}
	if (!s->opts->quiet && count.first_ns && trigger_ns - count.first_ns <
	    (uint64_t)s->opts->window_ns)
		fprintf(stderr, "preflight: record: note: snapshot %d covers %.3f s before the "
			"trigger, not %.3f s (re-armed later than that, or raise --buffer-kb)\n", n,
			(trigger_ns - count.first_ns) / 1e9, s->opts->window_ns / 1e9);
	rec_report(s, path, &count);
out:
	free(w.keep_off);
	return ret;
}

/* rec_trigger_set - install (or remove) the traceoff trigger on ftrace/print */
static int rec_trigger_set(struct rec_session *s, bool on)
{
	char cmd[512];

	if (!s->opts->trigger || !*s->opts->trigger)
		return 0;
	snprintf(cmd, sizeof(cmd), "%straceoff if buf ~ \"*%s*\"", on ? "" : "!",
		 s->opts->trigger);
	if (tracefs_event_file_write(s->inst, "ftrace", "print", "trigger", cmd) < 0)
		return on ? -EINVAL : 0;
	return 0;
}

/*
 * rec_flight_arm - install the marker trigger and start recording into the
 * overwrite buffer. A kernel without options/copy_trace_marker (Linux 6.1,
 * the Debian RT kernel) keeps top-level markers in the top-level buffer:
 * cyclictest --tracemark's cannot trigger then, which a note says.
 */
int rec_flight_arm(struct rec_session *s)
{
	int ret = rec_trigger_set(s, true);

	if (ret < 0) {
		pf_err("--trigger '%s': the kernel refused the traceoff trigger on ftrace/print",
		       s->opts->trigger);
		return ret;
	}
	if (s->opts->trigger && *s->opts->trigger && s->opts->copy_markers && !s->opts->quiet &&
	    !tracefs_file_exists(s->inst, "options/copy_trace_marker"))
		fprintf(stderr, "preflight: record: note: this kernel has no options/copy_trace_marker: "
			"markers written to the top-level trace_marker (cyclictest --tracemark) stay "
			"there and cannot trigger a snapshot, only those written to %s/trace_marker\n",
			tracefs_instance_get_dir(s->inst) ? tracefs_instance_get_dir(s->inst) : "the instance");
	return rec_tracing_on(s, true);
}

/*
 * rec_flight_run - wait for triggers and save snapshots (after
 * rec_flight_arm); stops on REC_WAKE_STOP or after max_snapshots; the number
 * saved in *snapshots
 */
int rec_flight_run(struct rec_session *s, rec_wait_fn wait, int *snapshots)
{
	const char *marker;
	enum rec_wake why;
	int ret = 0, on;

	*snapshots = 0;
	while (*snapshots < s->opts->max_snapshots) {
		why = wait(s);
		if (why == REC_WAKE_STOP)
			break;
		if (why == REC_WAKE_SNAPSHOT) {
			rec_marker_write(s, REC_USR1_MARKER);
			rec_tracing_on(s, false);
			marker = REC_USR1_MARKER;
		} else {
			on = rec_tracing_is_on(s);
			if (on != 0)
				continue;	/* still armed (or unreadable: keep going) */
			marker = s->opts->trigger;
		}
		if ((ret = rec_snapshot(s, *snapshots + 1, marker)) < 0)
			goto out;
		++*snapshots;
		if ((ret = rec_tracing_on(s, true)) < 0)
			goto out;
	}
out:
	rec_tracing_on(s, false);
	rec_trigger_set(s, false);
	return ret;
}
