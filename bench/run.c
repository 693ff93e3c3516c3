/*
 * run.c - `preflight run SCENARIO [-o RUN_DIR]`: the scenario runner. It
 * runs the phases of a scenario one after another; in each phase it sets up
 * the recorder of a traced measurement (`preflight record`, which says
 * "ready" and waits for "go"), starts the phase's loads (each a `preflight
 * load` child in its own process group, which says "ready" or why it could
 * not start), then runs what the phase measures (a cyclictest baseline, or
 * the flight app with its simulator), waits for the duration while showing progress
 * on a terminal, then stops everything by pid / process group and collects
 * what each load achieved.
 *
 * After the phases it analyses (`preflight analyze`), checks the budgets
 * (`preflight check`), and writes the run directory of docs/ARCHITECTURE.md:
 * run.json (manifest), run.log (the runner's own log), scenario.ini,
 * budgets.ini, sysinfo.json / sysinfo.txt, loads.json, results.json,
 * verdicts.tap, verdicts.json, SHA256SUMS and report.txt, with each phase's files
 * (cyclictest.json, trace.dat, jobs.csv, load-*.json, results.json but for
 * the app phase the top-level results.json analyses) in NN-<phase>/. Ctrl-C (SIGINT), SIGTERM or SIGHUP stops everything, keeps
 * what was recorded, analyses it and marks it partial.
 *
 * Every child is started and ended by this file through pf_proc
 * (lib/proc.h); namespaces, links, mounts and loop devices belong to the
 * loads, which remove them themselves, and load_cleanup_stale removes
 * what a killed load left behind.
 *
 * A runner killed outright (SIGKILL) must lose nothing: its children get
 * SIGTERM when it dies, so the loads clean up and the recorder writes its
 * trace; run.json is written from the start and after every phase, marked
 * incomplete until the end, so the run directory says it was interrupted and
 * what ran. A recorder killed itself leaves raw pages, which `preflight
 * record --recover` turns into a trace marked incomplete: right after its
 * phase, or at the start of the next run.
 *
 * This file sets the run up, runs the phases and holds the commands; the
 * pre-flight checks are in run_pre.c, the progress line in run_progress.c,
 * what follows the phases (analysis, check, report, traces, run.json) in
 * run_post.c, and what they share in run_private.h.
 */
#define _GNU_SOURCE
#include "command.h"
#include "common.h"
#include "cpuset.h"
#include "datafile.h"
#include "jpath.h"
#include "load_achieved.h"
#include "outfile.h"
#include "loads/load.h"
#include "run.h"
#include "run_private.h"
#include "run_cpus.h"
#include "scenario.h"
#include "sim/sim_launch.h"
#include "stale.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t run_signal;

/* run_on_signal - remember the stop request; the phase loop acts on it */
static void run_on_signal(int sig)
{
	run_signal = sig;
}

/* run_log - one time-stamped line in run.log */
void run_log(struct run *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->log)
		return;
	fprintf(r->log, "[%9.3f] ", (double)(pf_now_ns() - r->t0_ns) / PF_NS_PER_SEC);
	va_start(ap, fmt);
	vfprintf(r->log, fmt, ap);
	va_end(ap);
	fputc('\n', r->log);
	fflush(r->log);
}

/* run_fail - record why the run cannot go on (exit 3 unless 'code' says otherwise) */
int run_fail(struct run *r, int code, const char *fmt, ...)
{
	char why[sizeof(r->failure)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pf_err("%s", why);
	run_log(r, "error: %s", why);
	if (!r->disk_full || !r->failure[0])	/* a full disk explains what fails after it */
		memcpy(r->failure, why, sizeof(why));
	r->code = code;
	return code;
}

/* run_warn - what made the run less than it should be: run.json's warnings (the summary and report show them), run.log, stderr */
static void run_warn(struct run *r, const char *fmt, ...) PF_PRINTF(2, 3);
static void run_warn(struct run *r, const char *fmt, ...)
{
	char text[700];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	json_array_append_new(r->warnings, json_string(text));
	run_log(r, "warning: %s", text);
	pf_err("warning: %s", text);
}

#define RUN_RESERVE_BYTES (4 << 20)	/* held back for run.json, the analysis and the summary */
#define RUN_FULL_BYTES    (64 << 10)	/* less free than this: the disk is full */

/*
 * run_reserve - hold RUN_RESERVE_BYTES on the run directory's disk in an
 * unnamed file (nothing is left if the runner is killed), so that a disk
 * that fills during a phase still takes run.json and the results that say so
 */
static void run_reserve(struct run *r)
{
	r->reserve_fd = open(r->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (r->reserve_fd >= 0 && posix_fallocate(r->reserve_fd, 0, RUN_RESERVE_BYTES)) {
		close(r->reserve_fd);
		r->reserve_fd = -1;
	}
}

/*
 * run_disk_check - when the run directory's disk is full: say so once (the
 * run is partial, exit 3); true when it is full. The reserve is given back
 * by run_finish, once every child has ended (the recorder would fill it).
 */
bool run_disk_check(struct run *r, const char *when)
{
	struct statvfs st;

	if (r->disk_full)
		return true;
	if (statvfs(r->dir, &st) || (uint64_t)st.f_bavail * st.f_frsize >= RUN_FULL_BYTES)
		return false;
	r->disk_full = true;
	r->partial = true;
	run_fail(r, PF_EXIT_ENV, "%s: the disk of the run directory is full (ENOSPC, %llu KiB free): "
		 "what was written is kept, the run is partial", when,
		 (unsigned long long)st.f_bavail * st.f_frsize / 1024);
	return true;
}

/*
 * run_fail_io - writing 'what' in the run directory failed with errno err: a full disk is said
 * as run_disk_check says it (partial, disk_full) also when statvfs still shows a little room,
 * anything else as what and why. -1.
 */
int run_fail_io(struct run *r, const char *what, int err)
{
	if (err != ENOSPC && err != EDQUOT)
		return run_fail(r, PF_EXIT_ENV, "%s: %s", what, strerror(err)), -1;
	if (!run_disk_check(r, what)) {
		r->disk_full = true;
		r->partial = true;
		run_fail(r, PF_EXIT_ENV, "%s: the disk of the run directory is full (ENOSPC: %s): what was written "
			 "is kept, the run is partial", what, strerror(err));
	}
	return -1;
}

/* run_path - dir/name into buf */
char *run_path(char *buf, size_t size, const char *dir, const char *name)
{
	if (pf_path_join(buf, size, dir, name))
		return buf;	/* "": too long, fails on use, never writes elsewhere */
	return buf;
}

/* run_exists - true when path exists */
bool run_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* run_utc - the current UTC time as "2026-12-03T06:30:00Z" (iso) or "20261203T063000Z" */
void run_utc(char *buf, size_t size, bool iso)
{
	pf_utc(buf, size, time(NULL), !iso);
}

/* run_dir_empty - true when a directory has no entry but . and .. */
bool run_dir_empty(const char *path)
{
	struct dirent *de;
	bool empty = true;
	DIR *d = opendir(path);

	while (d && empty && (de = readdir(d)))
		empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return empty;
}

/*
 * run_find_file - 'name' as a path, else as a data file ("budgets/seed.ini",
 * lib/datafile.h); 0, or -ENOENT with why (and what was searched) in 'out'
 */
int run_find_file(const char *name, char *out, size_t size)
{
	char searched[PATH_MAX - 16];	/* room for the "no such file; " before it */

	snprintf(out, size, "%s", name);
	if (run_exists(out))
		return 0;
	if (name[0] == '/' || pf_datafile(name, searched, sizeof(searched)) < 0) {
		snprintf(out, size, "no such file%s%s", name[0] == '/' ? "" : "; ", name[0] == '/' ? "" : searched);
		return -ENOENT;
	}
	snprintf(out, size, "%s", searched);
	return 0;
}

/* run_has_command - true when this preflight has the subcommand 'name' (a command this build may lack) */
bool run_has_command(struct run *r, const char *name)
{
	char err[256];

	return pf_proc_runl(err, sizeof(err), r->self, "help", name, NULL) == 0;
}

/* run_argv - append one argument to a NULL-terminated argv; returns the new count */
int run_argv(char **argv, int max, int n, const char *arg)
{
	if (n < max - 1)
		argv[n++] = (char *)arg;
	argv[n] = NULL;
	return n;
}

/* run_exec - run a preflight subcommand or tool to completion, output to files; its exit code */
int run_exec(struct run *r, char **argv, const char *out, const char *err)
{
	struct pf_proc p;
	int ret;

	ret = pf_proc_spawn(&p, argv, out, err, PF_PROC_TERM_ON_DEATH);	/* no temp file left */
	if (ret < 0) {
		run_log(r, "%s: cannot start: %s", argv[0], strerror(-ret));
		return -1;
	}
	while (waitpid(p.pid, &p.status, 0) < 0 && errno == EINTR)
		;	/* a signal now does not stop the analysis of what was recorded */
	p.reaped = true;
	ret = pf_proc_exit_code(&p);
	run_log(r, "%s %s: exit %d", argv[0], argv[1] ? argv[1] : "", ret);
	return ret;
}

/* run_load_args - the `preflight load` command line of one load in phase p */
static int run_load_args(struct run *r, const struct scn_phase *p, const char *name,
			    const char *pdir, const char *work, const char *report, const char *samples, char *dur,
			    char **argv, int max, char kvbuf[][320], const char *hk)
{
	const struct scn_kv *kv[2 * SCN_MAX_KV];
	int i, n = 0, nkv = scn_params(&r->scn, p, name, kv, (int)PF_ARRAY_SIZE(kv));

	/* The runner stops its loads; their own duration is only a fail-safe. */
	snprintf(dur, 32, "%lldms", (long long)((p->duration_ns + RUN_LOAD_SAFETY_NS) / PF_NS_PER_MS));
	n = run_argv(argv, max, n, r->self);
	n = run_argv(argv, max, n, "load");
	n = run_argv(argv, max, n, name);
	n = run_argv(argv, max, n, "-d");
	n = run_argv(argv, max, n, dur);
	n = run_argv(argv, max, n, "-w");
	n = run_argv(argv, max, n, work);
	n = run_argv(argv, max, n, "-o");
	n = run_argv(argv, max, n, report);
	n = run_argv(argv, max, n, "--samples");
	n = run_argv(argv, max, n, samples);
	n = run_argv(argv, max, n, "--ready-fd");
	n = run_argv(argv, max, n, "3");
	if (hk[0]) {
		/* the helpers on the housekeeping CPUs, unless the scenario's helper_cpus (after) places them */
		snprintf(kvbuf[nkv + 2], 320, "helper_cpus=%s", hk);
		n = run_argv(argv, max, n, kvbuf[nkv + 2]);
	}
	if (p->measure == SCN_FLIGHTAPP && !strcmp(name, "sd")) {
		/* the logger figures (REQ-LOG-001): the app writes its stats before the loads stop */
		snprintf(kvbuf[nkv], 320, "app_stats=%s/app-stats.json", pdir);
		n = run_argv(argv, max, n, kvbuf[nkv]);
	}
	if (p->measure == SCN_FLIGHTAPP && !strcmp(name, "wifi")) {
		/* the app's telemetry: where the receiver listens (read into flightapp.ini), what the app sent */
		snprintf(kvbuf[nkv], 320, "tlm_dest_out=%s/telemetry.dest", pdir);
		n = run_argv(argv, max, n, kvbuf[nkv]);
		snprintf(kvbuf[nkv + 1], 320, "app_stats=%s/fsw.json", pdir);
		n = run_argv(argv, max, n, kvbuf[nkv + 1]);
	}
	for (i = 0; i < nkv; i++) {
		snprintf(kvbuf[i], 320, "%s=%s", kv[i]->key, kv[i]->value);
		n = run_argv(argv, max, n, kvbuf[i]);
	}
	return n;
}

/*
 * run_wait_ready - read a child's "ready" / "error <why>" line (a load's, the
 * recorder's) within limit_ns; 0 or -1 with why
 */
static int run_wait_ready(struct pf_proc *proc, int fd, int64_t limit_ns, char *why, size_t size)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int64_t end = pf_now_ns() + limit_ns;
	char line[600];
	size_t len = 0;
	ssize_t n;

	while (len < sizeof(line) - 1) {
		int left_ms = (int)((end - pf_now_ns()) / PF_NS_PER_MS);

		if (left_ms <= 0) {
			snprintf(why, size, "not ready after %lld s", (long long)(limit_ns / PF_NS_PER_SEC));
			return -1;
		}
		if (poll(&pfd, 1, left_ms < 200 ? left_ms : 200) <= 0) {
			if (run_signal) {
				snprintf(why, size, "interrupted while starting");
				return -1;
			}
			continue;
		}
		n = read(fd, line + len, sizeof(line) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (memchr(line, '\n', len))
			break;
	}
	line[len] = '\0';
	line[strcspn(line, "\n")] = '\0';
	if (!strcmp(line, "ready"))
		return 0;
	if (!strncmp(line, "error ", 6)) {
		snprintf(why, size, "%s", line + 6);
	} else {
		/* its end closes as it exits, a moment before it can be reaped */
		int64_t reap_end = pf_now_ns() + RUN_REAP_NS;

		while (pf_proc_alive(proc) && pf_now_ns() < reap_end)
			pf_proc_sleep_ns(10 * PF_NS_PER_MS);
		if (pf_proc_alive(proc))
			snprintf(why, size, "closed its ready channel without a word and still runs");
		else
			snprintf(why, size, "exited (%d) before it was ready", pf_proc_exit_code(proc));
	}
	return -1;
}

/* run_start_load - start one load of phase p and wait until it is ready; 0 or -1 (r->failure set) */
static int run_start_load(struct run *r, const struct scn_phase *p, const char *pdir,
			     struct run_load *rl, const char *hk)
{
	char *argv[32 + 2 * SCN_MAX_KV], kvbuf[2 * SCN_MAX_KV + 3][320];
	char work[PATH_MAX], dur[32], why[600], name[64];
	int pipefd[2], ret;

	run_path(work, sizeof(work), pdir, "work");
	snprintf(name, sizeof(name), "load-%s.json", rl->name);
	run_path(rl->report, sizeof(rl->report), pdir, name);
	snprintf(name, sizeof(name), "load-%s.csv", rl->name);	/* what it achieved each second */
	run_path(rl->samples, sizeof(rl->samples), pdir, name);
	if (pf_mkdirs(work) < 0)
		return run_fail_io(r, work, errno);
	run_load_args(r, p, rl->name, pdir, work, rl->report, rl->samples, dur, argv, (int)PF_ARRAY_SIZE(argv), kvbuf,
		      hk);
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return run_fail(r, PF_EXIT_INTERNAL, "pipe: %s", strerror(errno)), -1;
	ret = pf_proc_spawn_fd(&rl->proc, argv, NULL, "-", RUN_CHILD, pipefd[1]);
	close(pipefd[1]);
	if (ret < 0) {
		close(pipefd[0]);
		return run_fail(r, PF_EXIT_ENV, "load %s: cannot start: %s", rl->name, strerror(-ret)), -1;
	}
	rl->started = true;
	run_log(r, "phase %s: load %s: pid %d (process group %d)", p->name, rl->name,
		   (int)rl->proc.pid, (int)rl->proc.pid);
	ret = run_wait_ready(&rl->proc, pipefd[0], RUN_LOAD_READY_NS, why, sizeof(why));
	close(pipefd[0]);
	if (ret < 0) {
		if (run_signal)
			return -1;
		return run_fail(r, PF_EXIT_ENV, "load %s: cannot start: %s", rl->name, why), -1;
	}
	run_log(r, "phase %s: load %s: ready", p->name, rl->name);
	return 0;
}

/* run_tail - the last size-1 bytes of a file, NUL-terminated; their length (0 if unreadable) */
size_t run_tail(const char *path, char *text, size_t size)
{
	size_t len;
	FILE *f;

	text[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fseek(f, -(long)size + 1, SEEK_END) < 0)
		rewind(f);
	len = fread(text, 1, size - 1, f);
	fclose(f);
	text[len] = '\0';
	return len;
}

/* run_last_line - the last non-empty line of a (small or large) text file, "" if none */
static void run_last_line(const char *path, char *line, size_t size)
{
	char text[4096], *end, *start;
	size_t len = run_tail(path, text, sizeof(text));

	end = text + len;
	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	start = strrchr(text, '\n');
	snprintf(line, size, "%.*s", (int)size - 1, start ? start + 1 : text);
}

/* run_stop_load - stop a load by its pid (it cleans up and writes its report), then its group */
static void run_stop_load(struct run *r, struct run_load *rl)
{
	if (!rl->started)
		return;
	pf_proc_stop(&rl->proc, SIGTERM, RUN_LOAD_STOP_NS, false);
	kill(-rl->proc.pid, SIGKILL);	/* anything left in its process group */
	run_log(r, "load %s: ended with %d", rl->name, pf_proc_exit_code(&rl->proc));
	rl->started = false;
}

/* run_measure_owner - the section of phase p's measurement parameters: "cyclictest" or "flightapp" */
const char *run_measure_owner(const struct scn_phase *p)
{
	return p->measure == SCN_CYCLICTEST ? "cyclictest" : "flightapp";
}

/*
 * run_trace_mode - how phase p is traced: "full", "flight" or "off" (its
 * measurement's 'trace': the app's default is full, cyclictest's off, so a
 * baseline records nothing unless asked)
 */
const char *run_trace_mode(struct run *r, const struct scn_phase *p)
{
	if (p->measure == SCN_FLIGHTAPP)
		return scn_param(&r->scn, p, "flightapp", "trace", "full");
	if (p->measure == SCN_CYCLICTEST)
		return scn_param(&r->scn, p, "cyclictest", "trace", "off");
	return "off";
}

/* run_traced - phase p runs its measurement under the recorder */
bool run_traced(struct run *r, const struct scn_phase *p)
{
	return strcmp(run_trace_mode(r, p), "off") != 0;
}

/*
 * run_record_argv - 'preflight record' wrapping a traced phase's measurement
 * (argv from n on, up to its "--"): the phase's trace.dat (trace-NNN.dat
 * snapshots with the flight recorder), this run's instance, the recorder on
 * the housekeeping CPUs hk ("" none) with the runner as its observer; a
 * cyclictest phase adds timer:hrtimer_start, the expiry each of cyclictest's
 * wakeups is measured from (docs/results.md, cyclictest_wakeups); returns n
 */
static int run_record_argv(struct run *r, const struct scn_phase *p, const char *pdir, char **argv, int max,
			      int n, char bufs[][PATH_MAX], const char *hk)
{
	const char *owner = run_measure_owner(p);

	snprintf(bufs[0], PATH_MAX, "%s/trace.dat", pdir);
	snprintf(bufs[1], PATH_MAX, "%d", (int)getpid());	/* the runner is preflight's too */
	n = run_argv(argv, max, n, r->self);
	n = run_argv(argv, max, n, "record");
	n = run_argv(argv, max, n, "-q");
	n = run_argv(argv, max, n, "-o");
	n = run_argv(argv, max, n, bufs[0]);
	n = run_argv(argv, max, n, "-i");
	n = run_argv(argv, max, n, r->trace_instance);
	if (p->measure == SCN_FLIGHTAPP) {
		n = run_argv(argv, max, n, "--wakeups");
		n = run_argv(argv, max, n, scn_param(&r->scn, p, "flightapp", "wakeups", "all"));
		n = run_argv(argv, max, n, "--switches");
		n = run_argv(argv, max, n, scn_param(&r->scn, p, "flightapp", "switches", "all"));
	} else {
		n = run_argv(argv, max, n, "-e");
		n = run_argv(argv, max, n, "default,timer:hrtimer_start");
	}
	if (hk[0]) {	/* the observer off the measured CPUs */
		n = run_argv(argv, max, n, "--cpus");
		n = run_argv(argv, max, n, hk);
	}
	n = run_argv(argv, max, n, "--observer");
	n = run_argv(argv, max, n, bufs[1]);
	n = run_argv(argv, max, n, "--nice");
	n = run_argv(argv, max, n, RUN_RECORDER_NICE);
	n = run_argv(argv, max, n, "--ready-fd");	/* set up before the loads: run_recorder_setup */
	n = run_argv(argv, max, n, "3");
	n = run_argv(argv, max, n, "--go-fd");
	n = run_argv(argv, max, n, "3");
	if (!strcmp(run_trace_mode(r, p), "flight")) {
		n = run_argv(argv, max, n, "--flight-recorder");
		n = run_argv(argv, max, n, "--max-snapshots");
		n = run_argv(argv, max, n, scn_param(&r->scn, p, owner, "max_snapshots", RUN_MAX_SNAPSHOTS));
	}
	return run_argv(argv, max, n, "--");
}

/*
 * run_cyclictest_argv - the cyclictest command line of a baseline phase,
 * under the recorder when cyclictest.trace asks (bufs[7], bufs[8] its own)
 */
static void run_cyclictest_argv(struct run *r, const struct scn_phase *p, const char *pdir,
				   char **argv, int max, char bufs[][PATH_MAX], const char *hk)
{
	const char *threads = scn_param(&r->scn, p, "cyclictest", "threads", "smp");
	int64_t interval_ns = 1000 * PF_NS_PER_US;
	int n = 0;

	if (run_traced(r, p))
		n = run_record_argv(r, p, pdir, argv, max, n, bufs + 7, hk);

	if (pf_parse_duration_ns(scn_param(&r->scn, p, "cyclictest", "interval", "1000us"),
				 PF_NS_PER_US, &interval_ns))
		interval_ns = 1000 * PF_NS_PER_US;	/* checked by the parser */
	snprintf(bufs[0], PATH_MAX, "-p%s", scn_param(&r->scn, p, "cyclictest", "priority", "90"));
	snprintf(bufs[1], PATH_MAX, "-i%lld", (long long)(interval_ns / PF_NS_PER_US));
	snprintf(bufs[2], PATH_MAX, "-h%s", scn_param(&r->scn, p, "cyclictest", "histogram", "10000"));
	snprintf(bufs[3], PATH_MAX, "-D%llds", (long long)(p->duration_ns / PF_NS_PER_SEC));
	snprintf(bufs[4], PATH_MAX, "--json=%s/cyclictest.json", pdir);
	snprintf(bufs[5], PATH_MAX, "--histfile=%s/cyclictest.hist", pdir);
	snprintf(bufs[6], PATH_MAX, "-t%s", threads);
	n = run_argv(argv, max, n, "cyclictest");
	n = run_argv(argv, max, n, "-m");
	n = run_argv(argv, max, n, "--policy=fifo");
	n = run_argv(argv, max, n, bufs[0]);
	n = run_argv(argv, max, n, bufs[1]);
	n = run_argv(argv, max, n, bufs[2]);
	n = run_argv(argv, max, n, bufs[3]);
	n = run_argv(argv, max, n, bufs[4]);
	n = run_argv(argv, max, n, bufs[5]);
	if (!strcmp(threads, "smp")) {
		run_argv(argv, max, n, "-S");
	} else {
		n = run_argv(argv, max, n, bufs[6]);
		run_argv(argv, max, n, "-a");
	}
}

/* run_split - append the blank-separated words of 'text' (copied into buf) to argv */
int run_split(char **argv, int max, int n, const char *text, char *buf, size_t size)
{
	char *save = NULL, *w;

	if (!text)
		return n;
	snprintf(buf, size, "%s", text);
	for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		n = run_argv(argv, max, n, w);
	return n;
}

/*
 * run_app_config - the app's configuration for a flightapp phase: the
 * scenario's flightapp.config (if any), then with the simulator ('links')
 * the links to this phase's sensorsim (UART pty, SPI seqpacket socket), the
 * flight software's statistics file, and when the phase's wifi load runs a
 * telemetry receiver (it wrote telemetry.dest) the app's [telemetry] dest;
 * the path into 'path'. 0 or -1.
 */
static int run_app_config(struct run *r, const struct scn_phase *p, const char *pdir, bool links,
			     char *path, size_t size)
{
	const char *config = scn_param(&r->scn, p, "flightapp", "config", NULL);
	char buf[4096], dest_path[PATH_MAX], dest[128] = "";
	size_t n;
	FILE *in, *out;

	in = fopen(run_path(dest_path, sizeof(dest_path), pdir, "telemetry.dest"), "re");
	if (in) {
		if (!fgets(dest, sizeof(dest), in))
			dest[0] = '\0';
		dest[strcspn(dest, "\n")] = '\0';
		fclose(in);
	}
	out = fopen(run_path(path, size, pdir, "flightapp.ini"), "we");
	if (!out)
		return run_fail_io(r, path, errno);
	if (config) {
		in = fopen(config, "re");
		if (!in) {
			fclose(out);
			return run_fail(r, PF_EXIT_ENV, "flightapp.config '%s': %s", config, strerror(errno)), -1;
		}
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, out);
		fclose(in);
	}
	if (links) {
		char uart[PATH_MAX], spi[PATH_MAX];

		fprintf(out, "\n; written by preflight run: the links to this phase's sensorsim\n");
		sim_launch_links_ini(out, run_path(uart, sizeof(uart), pdir, "uart"),
				     run_path(spi, sizeof(spi), pdir, "spi.sock"), 0, 0);
	}
	fprintf(out, "\n; written by preflight run: the flight software's statistics\n[fsw]\nstats_json = %s/fsw.json\n",
		pdir);
	if (dest[0])
		fprintf(out, "\n; written by preflight run: telemetry to the wifi load's ground station\n"
			"[telemetry]\ndest = %s\n", dest);
	if (fclose(out))
		return run_fail_io(r, path, errno);
	if (dest[0])
		run_log(r, "phase %s: app telemetry to %s", p->name, dest);
	return 0;
}

/*
 * run_app_configured - the phase's app runs with a flightapp.ini of the
 * run's (run_app_config): with the simulator (its links) or the wifi load
 * (its telemetry receiver); known before either starts, as the recorder's
 * command line, made first, must be (else the scenario's config as it is)
 */
static bool run_app_configured(struct run *r, const struct scn_phase *p)
{
	int i;

	if (!strcmp(scn_param(&r->scn, p, "flightapp", "sim", "no"), "yes"))
		return true;
	for (i = 0; i < p->nloads; i++)
		if (!strcmp(p->loads[i], "wifi"))
			return true;
	return false;
}

/*
 * run_sim_start - the app's flightapp.ini (run_app_config), and with
 * flightapp.sim = yes the simulator: sensorsim on its default UART pty link
 * and SPI socket, which the app's links use, for the phase plus a margin (it
 * is stopped with the app)
 */
static int run_sim_start(struct run *r, const struct scn_phase *p, const char *pdir,
			    struct pf_proc *sim)
{
	char exe[PATH_MAX], dur[32], summary[PATH_MAX], truth[PATH_MAX], out[PATH_MAX];
	char uart[PATH_MAX], spi[PATH_MAX], why[2 * PATH_MAX + 100];
	struct sim_launch l = { 0 };

	if (strcmp(scn_param(&r->scn, p, "flightapp", "sim", "no"), "yes"))
		return run_app_configured(r, p) ? run_app_config(r, p, pdir, false, out, sizeof(out)) : 0;
	if (run_app_config(r, p, pdir, true, out, sizeof(out)) < 0)
		return -1;
	/*
	 * the simulator's own end is a fail-safe only (run stops it once the app has ended); it
	 * flies from its own start, and on one emulated CPU the recorder takes minutes to start
	 * the app after it (docs/target.md): ten minutes past the phase, not one
	 */
	snprintf(dur, sizeof(dur), "%llds", (long long)(p->duration_ns / PF_NS_PER_SEC + 600));
	l.exe = run_path(exe, sizeof(exe), r->bindir, "sensorsim");
	l.duration = dur;
	l.summary = run_path(summary, sizeof(summary), pdir, "sim.json");
	l.truth = run_path(truth, sizeof(truth), pdir, "truth.csv");
	l.uart = run_path(uart, sizeof(uart), pdir, "uart");
	l.spi = run_path(spi, sizeof(spi), pdir, "spi.sock");
	l.args = scn_param(&r->scn, p, "flightapp", "sim_args", NULL);
	l.out = "/dev/null";
	l.err = run_path(out, sizeof(out), pdir, "sensorsim.err");
	l.flags = RUN_CHILD;
	if (sim_launch_spawn(&l, sim, why, sizeof(why)) < 0)
		return run_fail(r, PF_EXIT_ENV, "phase %s: sensorsim: %s", p->name, why), -1;
	run_log(r, "phase %s: sensorsim: pid %d", p->name, (int)sim->pid);
	if (sim_launch_await(&l, sim, why, sizeof(why)) < 0)
		return run_fail(r, PF_EXIT_ENV, "phase %s: waiting for the simulator's links: %s; see %s",
				p->name, why, out), -1;
	run_log(r, "phase %s: sensorsim: its links are there", p->name);
	return 0;
}

/*
 * run_trace_facts - how a flightapp phase was traced, into its run.json entry:
 * trace (full, flight or off) and, for the flight recorder, the trigger and
 * the snapshot budget (analyze says from them why an activation has no snapshot)
 */
static void run_trace_facts(struct run *r, const struct scn_phase *p, json_t *o)
{
	const char *trace = run_trace_mode(r, p), *owner = run_measure_owner(p);
	const char *trigger = scn_param(&r->scn, p, owner, "trigger", NULL);
	int64_t ns;

	if (p->measure == SCN_NONE)
		return;
	json_object_set_new(o, "trace", json_string(trace));
	if (strcmp(trace, "flight"))
		return;
	json_object_set_new(o, "trigger_ns", trigger && !pf_parse_duration_ns(trigger, PF_NS_PER_US, &ns) ?
			    json_integer(ns) : json_null());
	json_object_set_new(o, "max_snapshots", json_integer(atoll(scn_param(&r->scn, p, owner, "max_snapshots",
									      RUN_MAX_SNAPSHOTS))));
}

/* run_flightapp_argv - the app, under the recorder unless flightapp.trace = off (bufs[8], bufs[9] the recorder's) */
static int run_flightapp_argv(struct run *r, const struct scn_phase *p, const char *pdir,
				 char **argv, int max, char bufs[][PATH_MAX], const char *hk)
{
	const char *trace = run_trace_mode(r, p);
	const char *config = scn_param(&r->scn, p, "flightapp", "config", NULL);
	const char *profile = scn_param(&r->scn, p, "flightapp", "profile", NULL);
	int n = 0;

	snprintf(bufs[1], PATH_MAX, "%lldms", (long long)(p->duration_ns / PF_NS_PER_MS));
	snprintf(bufs[2], PATH_MAX, "%s/flightapp", r->bindir);
	snprintf(bufs[3], PATH_MAX, "%s/jobs.csv", pdir);
	snprintf(bufs[4], PATH_MAX, "%s/app-stats.json", pdir);
	if (strcmp(trace, "off"))
		n = run_record_argv(r, p, pdir, argv, max, n, bufs + 8, hk);
	n = run_argv(argv, max, n, bufs[2]);
	if (strcmp(trace, "off")) {
		n = run_argv(argv, max, n, "--trace-instance");
		n = run_argv(argv, max, n, r->trace_instance);
	}
	n = run_argv(argv, max, n, "--duration");
	n = run_argv(argv, max, n, bufs[1]);
	n = run_argv(argv, max, n, "--joblog");
	n = run_argv(argv, max, n, bufs[3]);
	n = run_argv(argv, max, n, "--stats-json");
	n = run_argv(argv, max, n, bufs[4]);
	if (run_app_configured(r, p)) {	/* written by run_sim_start before the app starts */
		n = run_argv(argv, max, n, "--config");
		n = run_argv(argv, max, n, run_path(bufs[6], PATH_MAX, pdir, "flightapp.ini"));
	} else if (config) {
		n = run_argv(argv, max, n, "--config");
		n = run_argv(argv, max, n, config);
	}
	if (profile) {
		n = run_argv(argv, max, n, "--profile");
		n = run_argv(argv, max, n, profile);
	}
	return run_split(argv, max, n, scn_param(&r->scn, p, "flightapp", "args", NULL), bufs[5], PATH_MAX);
}



/*
 * run_trigger - flight-recorder mode: when a realtime task's live worst
 * passes flightapp.trigger and grows, ask the recorder (SIGUSR1) to keep the
 * window before it; at most one trigger per window, so snapshots do not overlap
 */
static void run_trigger(struct run *r, const struct scn_phase *p, const char *pdir,
			   struct pf_proc *recorder, double *worst_us, int64_t *last_ns)
{
	const char *text = scn_param(&r->scn, p, run_measure_owner(p), "trigger", NULL);
	struct run_live lv = { 0 };
	char path[PATH_MAX];
	int64_t trigger_ns;
	int i;

	if (!text || strcmp(run_trace_mode(r, p), "flight") ||
	    pf_parse_duration_ns(text, PF_NS_PER_US, &trigger_ns) ||
	    (*last_ns && pf_now_ns() - *last_ns < RUN_TRIGGER_GAP_NS))
		return;
	run_live_read(run_path(path, sizeof(path), pdir, p->measure == SCN_CYCLICTEST ? "cyclictest.out" :
			       "flightapp.err"), &lv);
	for (i = 0; i < lv.n; i++) {
		if (!lv.rt[i] || lv.max_us[i] * 1000 <= (double)trigger_ns || lv.max_us[i] <= *worst_us)
			continue;
		*worst_us = lv.max_us[i];
		*last_ns = pf_now_ns();
		kill(recorder->pid, SIGUSR1);
		run_log(r, "phase %s: %s worst %.1f us > trigger %s: snapshot requested", p->name,
			   lv.name[i], lv.max_us[i], text);
		return;
	}
}


/*
 * run_recover - the recorder of phase directory pdir was killed without
 * writing trace.dat: recover what it recorded (marked incomplete); true when
 * it had to
 */
static bool run_recover(struct run *r, const char *pdir)
{
	char path[PATH_MAX];
	char *argv[] = { r->self, "record", "--recover", (char *)pdir, NULL };
	DIR *d;
	struct dirent *e;
	bool left = false;

	if (!(d = opendir(pdir)))
		return false;
	while (!left && (e = readdir(d)))
		left = !strncmp(e->d_name, ".preflight-record.", 18);
	closedir(d);
	if (!left || run_exists(run_path(path, sizeof(path), pdir, "trace.dat")))
		return false;
	run_log(r, "%s: the recorder did not write trace.dat: recovering what it recorded", pdir);
	run_exec(r, argv, "/dev/null", "-");
	return true;
}

/*
 * run_app_ran_ns - how long the flight app ran, from its job log's
 * start_mono_ns (header) and end_mono_ns (trailer); -1 when unknown
 */
static int64_t run_app_ran_ns(const char *pdir)
{
	char path[PATH_MAX], head[4096], tail[4096], *p;
	long long start = -1, end = -1;
	ssize_t n;
	off_t size;
	int fd;

	if ((fd = open(run_path(path, sizeof(path), pdir, "jobs.csv"), O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = pread(fd, head, sizeof(head) - 1, 0);
	head[n > 0 ? n : 0] = '\0';
	size = lseek(fd, 0, SEEK_END);
	n = size > 0 ? pread(fd, tail, sizeof(tail) - 1, size > (off_t)sizeof(tail) - 1 ?
			     size - (off_t)sizeof(tail) + 1 : 0) : 0;
	tail[n > 0 ? n : 0] = '\0';
	close(fd);
	if ((p = strstr(head, "\n# start_mono_ns=")))
		start = atoll(p + 17);
	if ((p = strstr(tail, "\n# end_mono_ns=")))
		end = atoll(p + 15);
	return start > 0 && end >= start ? end - start : -1;
}

/*
 * run_app_stats_written - the app's statistics are there: app-stats.json,
 * and the flight software's fsw.json, which the app writes just after it
 * (after its tasks' end); a profile without the flight software writes no
 * fsw.json, so 30 s after app-stats.json it is not waited for any more
 */
static bool run_app_stats_written(const char *pdir)
{
	char path[PATH_MAX];
	struct stat st;

	if (stat(run_path(path, sizeof(path), pdir, "app-stats.json"), &st) || !st.st_size)
		return false;
	return !access(run_path(path, sizeof(path), pdir, "fsw.json"), F_OK) || time(NULL) - st.st_mtime >= 30;
}

/*
 * run_app_dma_warning - a warning of the run when the app could not hold
 * /dev/cpu_dma_latency (a kernel without it: it went on, its job log says
 * dma_latency=unavailable): the CPUs' idle states were not held shallow
 */
static void run_app_dma_warning(struct run *r, const struct scn_phase *p, const char *pdir)
{
	char path[PATH_MAX], head[4096];
	size_t n = 0;
	FILE *f;

	if (!(f = fopen(run_path(path, sizeof(path), pdir, "jobs.csv"), "re")))
		return;
	n = fread(head, 1, sizeof(head) - 1, f);
	head[n] = '\0';
	fclose(f);
	if (strstr(head, "\n# dma_latency=unavailable\n"))
		run_warn(r, "phase %s: the app could not hold /dev/cpu_dma_latency (its job log: dma_latency="
			 "unavailable; why in flightapp.err): the CPUs' idle states were not held shallow, so its "
			 "wake-up latencies may include idle exits", p->name);
}

/* run_phase_json - the phase's entry in run.json and loads.json */
static void run_phase_json(struct run *r, const struct scn_phase *p, const char *pdir,
			      struct run_load *rl, int nl, int64_t start_ns, int64_t end_ns,
			      bool partial, int measure_code, const char *hk, const char *rec_cpus)
{
	json_t *loads = json_object(), *names = json_array();
	int i;

	for (i = 0; i < nl; i++) {
		json_t *rep = json_load_file(rl[i].report, 0, NULL);
		struct pf_load_samples ls;

		json_array_append_new(names, json_string(rl[i].name));
		if (!rep)
			rep = json_pack("{s:s, s:s}", "load", rl[i].name, "error",
					"no report: the load did not start or was killed");
		/* its seconds within the phase, beside its own report's figures: what the gate also reads */
		if (json_is_object(rep) && pf_load_samples_read(rl[i].samples, start_ns, end_ns, &ls, NULL, NULL) == 0) {
			/* it sampled, but never within a phase of whole seconds: it did not load this phase */
			if (!ls.seconds && ls.total && end_ns - start_ns >= 2 * PF_NS_PER_SEC)
				ls.mean_pct = ls.worst_pct = 0;
			json_object_set_new(rep, "samples",
					    json_pack("{s:i, s:o, s:o, s:s}", "seconds", ls.seconds,
						      "mean_pct", isfinite(ls.mean_pct) ? json_real(ls.mean_pct) : json_null(),
						      "worst_second_pct", isfinite(ls.worst_pct) ? json_real(ls.worst_pct) :
						      json_null(), "unit", ls.unit));
		}
		json_object_set_new(loads, rl[i].name, rep);
	}
	json_array_append_new(r->load_phases,
			      json_pack("{s:s, s:s, s:f, s:b, s:o}", "phase", p->name,
					"measure", scn_measure_name(p->measure),
					"elapsed_s", (double)(end_ns - start_ns) / PF_NS_PER_SEC,
					"partial", partial, "loads", loads));
	json_array_append_new(r->phases,
			      json_pack("{s:s, s:s, s:s, s:f, s:f, s:I, s:I, s:b, s:o, s:i}",
					"name", p->name, "measure", scn_measure_name(p->measure),
					"dir", strrchr(pdir, '/') + 1,
					"planned_s", (double)p->duration_ns / PF_NS_PER_SEC,
					"elapsed_s", (double)(end_ns - start_ns) / PF_NS_PER_SEC,
					"start_ns", (json_int_t)start_ns, "end_ns", (json_int_t)end_ns,
					"partial", partial, "loads", names, "measure_exit_code", measure_code));
	json_object_set_new(json_array_get(r->phases, json_array_size(r->phases) - 1), "housekeeping_cpus",
			    json_string(hk));
	json_object_set_new(json_array_get(r->phases, json_array_size(r->phases) - 1), "recorder_cpus",
			    rec_cpus[0] ? json_string(rec_cpus) : json_null());
	run_trace_facts(r, p, json_array_get(r->phases, json_array_size(r->phases) - 1));
}

/*
 * run_housekeeping - the CPUs phase p leaves to preflight's own processes
 * (the recorder, the loads' helpers): outside the measured tasks' CPUs (the
 * app's from its profile and configuration; cyclictest's: every CPU) and
 * outside isolcpus / nohz_full, as a list into hk ("" when none is free); a
 * flightapp phase under trace without one is a warning of the run
 */
static void run_housekeeping(struct run *r, const struct scn_phase *p, char *hk, size_t size)
{
	const char *config = scn_param(&r->scn, p, "flightapp", "config", NULL);
	char profile[PATH_MAX], why[700], used_list[256];
	cpu_set_t used, free_cpus;
	int cpu;

	CPU_ZERO(&used);
	if (p->measure == SCN_FLIGHTAPP &&
	    (run_cpus_profile_path(scn_param(&r->scn, p, "flightapp", "profile", "default"), profile,
				   sizeof(profile)) < 0 ||
	     run_cpus_app(profile, config, &used, why, sizeof(why)) < 0)) {
		run_log(r, "phase %s: the app's CPUs: cannot tell (%s): every CPU counted as the app's", p->name,
			   why);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			CPU_SET(cpu, &used);
	}
	if (p->measure == SCN_CYCLICTEST)	/* one thread per CPU (-S), or -t N -a: every CPU */
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			CPU_SET(cpu, &used);
	pf_cpus_housekeeping(NULL, &used, &free_cpus);
	pf_cpus_format(&free_cpus, hk, size);
	if (CPU_COUNT(&used) == CPU_SETSIZE)
		snprintf(used_list, sizeof(used_list), "every CPU");
	else
		pf_cpus_format(&used, used_list, sizeof(used_list));
	run_log(r, "phase %s: housekeeping CPUs: %s (measured tasks on %s)", p->name, hk[0] ? hk : "none",
		   used_list);
	if (!hk[0] && run_traced(r, p))
		run_warn(r, "phase %s: no housekeeping CPU: %s may run on %s and no CPU is left outside it "
			 "and isolcpus / nohz_full, so the recorder and the loads' helpers share its CPUs (what "
			 "they cost it is counted as observer_ns)", p->name,
			 p->measure == SCN_FLIGHTAPP ? "the app" : "cyclictest", used_list);
}

/*
 * run_recorder_cpus - the CPUs the recorder's threads may run on, read back
 * from /proc once its tracefs instance exists (it pins itself before it
 * creates the instance, and its stream threads inherit the pin); "" before
 */
static void run_recorder_cpus(struct run *r, pid_t pid, char *list, size_t size)
{
	char path[PATH_MAX];
	struct dirent *t;
	cpu_set_t all, one;
	int n = 0;
	long tid;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/instances/%s", r->trace_instance);
	if (access(path, F_OK) < 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	CPU_ZERO(&all);
	while ((t = readdir(d)))
		if (!pf_parse_long(t->d_name, 1, INT32_MAX, &tid) && !pf_cpus_of_task(pid, (pid_t)tid, &one)) {
			CPU_OR(&all, &all, &one);
			n++;
		}
	closedir(d);
	if (n)
		pf_cpus_format(&all, list, size);
}

/*
 * run_recorder_setup - start the recorder of a traced measurement (argv,
 * its output in out / err) and wait until its instance is set up: it says
 * "ready" on a socket, then waits there for "go" (*go_fd, the runner's end)
 * before it records and starts the measurement; 0 or -1 (r->failure set)
 */
static int run_recorder_setup(struct run *r, const struct scn_phase *p, struct pf_proc *measure,
				 char **argv, const char *out, const char *err, int *go_fd)
{
	int64_t t0 = pf_now_ns();
	char why[600], line[300] = "";
	int sv[2], ret;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return run_fail(r, PF_EXIT_INTERNAL, "socketpair: %s", strerror(errno)), -1;
	ret = pf_proc_spawn_fd(measure, argv, out, err, RUN_RECORDER, sv[1]);
	close(sv[1]);
	if (ret < 0) {
		close(sv[0]);
		return run_fail(r, PF_EXIT_ENV, "phase %s: %s: %s", p->name, argv[0], strerror(-ret)), -1;
	}
	run_log(r, "phase %s: %s: pid %d", p->name, argv[0], (int)measure->pid);
	if (run_wait_ready(measure, sv[0], RUN_RECORDER_READY_NS, why, sizeof(why)) < 0) {
		close(sv[0]);
		if (run_signal)
			return -1;
		run_last_line(err, line, sizeof(line));
		return run_fail(r, PF_EXIT_ENV, "phase %s: the recorder could not set up: %s%s%s", p->name,
				why, line[0] ? ": " : "", line), -1;
	}
	*go_fd = sv[0];
	run_log(r, "phase %s: recorder: set up in %.1f s; starting the loads", p->name,
		(double)(pf_now_ns() - t0) / PF_NS_PER_SEC);
	return 0;
}

/* what run_phase's steps share: the phase, its children and what it has seen so far */
struct run_ph {
	const struct scn_phase *p;
	int idx;
	const char *pdir, *err;		/* the phase's directory, the measurement's stderr file */
	char *const *argv;		/* the measurement's command line */
	struct run_load *rl;		/* its loads, p->nloads of them */
	struct pf_proc measure, sim;
	char rec_cpus[256];		/* where the recorder runs, once seen */
	bool traced, measuring;
	bool partial;			/* the phase did not run as planned */
	bool app_ended;			/* the measurement is ending: its loads are stopped */
	bool sim_done;			/* sensorsim ended on time */
	double trigger_worst_us;
	int64_t trigger_ns, start_ns;
	int64_t steal_ms[RUN_STEAL_CPUS];	/* each CPU's steal time at the measurement's start */
	int nsteal;			/* CPUs in it, < 0 when /proc/stat could not be read */
};

/*
 * run_phase_steal - the phase's steal time per CPU (/proc/stat from the measurement's start to
 * its end) into its run.json entry: steal_ms, or null with steal_unavailable (issue 32.6: a
 * timer that fired late with nothing in the trace to say why is read beside it)
 */
static void run_phase_steal(struct run *r, const struct run_ph *ph)
{
	json_t *e = json_array_get(r->phases, json_array_size(r->phases) - 1), *a;
	int64_t now[RUN_STEAL_CPUS];
	int n = ph->nsteal > 0 ? run_steal_read(now, RUN_STEAL_CPUS) : ph->nsteal;

	if (n <= 0 || n != ph->nsteal) {
		json_object_set_new(e, "steal_ms", json_null());
		json_object_set_new(e, "steal_unavailable", json_string(n == 0 || ph->nsteal == 0 ?
				    "the phase stopped before its measurement started" :
				    "/proc/stat could not be read, or its CPUs changed during the phase"));
		return;
	}
	a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(now[i] - ph->steal_ms[i]));
	json_object_set_new(e, "steal_ms", a);
}

/* run_ph_stop_loads - stop the phase's loads, the last started first */
static void run_ph_stop_loads(struct run *r, struct run_ph *ph)
{
	int i;

	for (i = ph->p->nloads - 1; i >= 0; i--)
		run_stop_load(r, &ph->rl[i]);
}

/*
 * run_watch - watch the phase until its measurement ends (or its time is up, the run is
 * stopped, its disk fills or sensorsim ends early), stopping the loads early once what the
 * measurement needs of them is done, and drawing the progress line. 0; -1 when a load
 * stopped early (the phase is stopped at once: it would measure without it)
 */
static int run_watch(struct run *r, struct run_ph *ph)
{
	const struct scn_phase *p = ph->p;
	char name[96];
	int64_t now;
	int i;

	for (;;) {
		now = pf_now_ns();
		if (run_signal) {
			ph->partial = true;
			run_log(r, "phase %s: signal %d: stopping", p->name, (int)run_signal);
			return 0;
		}
		if (ph->measuring && !pf_proc_alive(&ph->measure))
			return 0;
		if (!ph->measuring && now - ph->start_ns >= p->duration_ns)
			return 0;
		if (ph->measuring && now - ph->start_ns >= p->duration_ns + RUN_MEASURE_GRACE_NS(ph->traced, p)) {
			run_log(r, "phase %s: measurement still running %lld s past its duration: stopping it",
				   p->name, (long long)(RUN_MEASURE_GRACE_NS(ph->traced, p) / PF_NS_PER_SEC));
			return 0;
		}
		if (ph->measuring && !ph->app_ended && p->measure == SCN_FLIGHTAPP && run_app_ran_ns(ph->pdir) >= 0 &&
		    run_app_stats_written(ph->pdir)) {
			/*
			 * The app has flown its duration (its job log is closed) and
			 * written the statistics the loads read at their end (sd the
			 * logger's, wifi what the app sent: the armhf guest's wifi
			 * load read fsw.json before it was there): what is left is
			 * the recorder writing the trace, which the loads would
			 * starve on one CPU or an emulated one (minutes there)
			 */
			run_log(r, "phase %s: the app has ended: stopping the simulator and the loads while "
				   "the recorder writes the trace", p->name);
			ph->app_ended = true;
			pf_proc_stop(&ph->sim, SIGTERM, 10 * PF_NS_PER_SEC, true);
			run_ph_stop_loads(r, ph);
		}
		if (ph->measuring && !ph->app_ended && p->measure == SCN_CYCLICTEST &&
		    now - ph->start_ns >= p->duration_ns) {
			/*
			 * cyclictest's own duration is the phase's: past it, what is
			 * left is its end (threads joined, histogram written), which
			 * the loads starved past the grace on a one-CPU emulated board
			 */
			run_log(r, "phase %s: its time is up: stopping the loads while cyclictest ends", p->name);
			ph->app_ended = true;
			run_ph_stop_loads(r, ph);
		}
		for (i = 0; i < p->nloads && !ph->app_ended; i++) {
			struct run_load *l = &ph->rl[i];

			if (!l->started || pf_proc_alive(&l->proc))
				continue;
			if (pf_proc_exit_code(&l->proc) == 0 && now - ph->start_ns >= p->duration_ns) {
				/*
				 * its fail-safe ended it past the phase's time, the
				 * measurement still ending (one emulated core): said
				 * in run.log, not a failure
				 */
				run_log(r, "phase %s: load %s: ended by its own fail-safe while the "
					   "measurement was still ending", p->name, l->name);
				run_stop_load(r, l);
				continue;
			}
			run_fail(r, PF_EXIT_ENV, "phase %s: load %s stopped early (exit %d): "
				    "the phase would measure without it", p->name, l->name, pf_proc_exit_code(&l->proc));
			ph->partial = true;
			return -1;
		}
		if (ph->traced && !ph->rec_cpus[0]) {
			run_recorder_cpus(r, ph->measure.pid, ph->rec_cpus, sizeof(ph->rec_cpus));
			if (ph->rec_cpus[0])
				run_log(r, "phase %s: recorder (pid %d) runs on CPUs %s", p->name, (int)ph->measure.pid,
					   ph->rec_cpus);
		}
		snprintf(name, sizeof(name), "phase %s", p->name);
		if (run_disk_check(r, name)) {
			ph->partial = true;
			return 0;
		}
		if (ph->sim.pid && !ph->sim_done && !ph->app_ended && !pf_proc_alive(&ph->sim)) {
			/*
			 * exit 0 past the phase's time is its planned end (ten minutes
			 * after the phase's): the app has flown its duration and the
			 * recorder is still writing the trace (minutes on an emulated
			 * CPU); before, it was stopped (a SIGTERM it handles)
			 */
			if (pf_proc_exit_code(&ph->sim) == 0 && now - ph->start_ns >= p->duration_ns) {
				run_log(r, "phase %s: sensorsim: ended on time (exit 0)", p->name);
				ph->sim_done = true;
			} else {
				run_fail(r, PF_EXIT_ENV, "phase %s: sensorsim stopped early (exit %d): the app "
					 "would fly without its sensors", p->name, pf_proc_exit_code(&ph->sim));
				ph->partial = true;
				return 0;
			}
		}
		run_progress(r, ph->idx, p, now - ph->start_ns, ph->pdir);
		if (ph->measuring)
			run_trigger(r, p, ph->pdir, &ph->measure, &ph->trigger_worst_us, &ph->trigger_ns);
		pf_proc_sleep_ns(200 * PF_NS_PER_MS);
	}
}

/*
 * run_judge - the measurement has ended or is stopped now: did it run as planned? Its exit,
 * its disk, and its own time against the phase's (an app stopped by someone else ends too
 * soon); what is wrong is said (run_fail) and makes the phase partial. Its exit code.
 */
static int run_judge(struct run *r, struct run_ph *ph)
{
	const struct scn_phase *p = ph->p;
	int64_t ran_ns = pf_now_ns() - ph->start_ns;
	char name[96], line[300] = "";
	int code;

	pf_proc_stop(&ph->measure, SIGINT, 10 * PF_NS_PER_SEC, true);
	if (p->measure == SCN_FLIGHTAPP && run_app_ran_ns(ph->pdir) >= 0)
		ran_ns = run_app_ran_ns(ph->pdir);	/* the app's own time: the recorder adds its writing */
	code = pf_proc_exit_code(&ph->measure);
	run_log(r, "phase %s: %s: exit %d", p->name, ph->argv[0], code);
	if (p->measure == SCN_FLIGHTAPP)
		run_app_dma_warning(r, p, ph->pdir);
	snprintf(name, sizeof(name), "phase %s", p->name);
	if (run_disk_check(r, name)) {
		ph->partial = true;
	} else if (code != 0 && !ph->partial) {
		run_last_line(ph->err, line, sizeof(line));
		run_fail(r, PF_EXIT_ENV, "phase %s: %s exited with %d%s%s", p->name, ph->argv[0], code,
			    line[0] ? ": " : "", line);
		ph->partial = true;
	} else if (!ph->partial && ran_ns < p->duration_ns - RUN_EARLY_END_NS) {
		/* ended by itself, but too soon: stopped by someone else (SIGTERM) */
		run_fail(r, PF_EXIT_ENV, "phase %s: %s ended after %.1f s of %.0f s: the "
			 "measurement is incomplete", p->name, ph->argv[0], (double)ran_ns / PF_NS_PER_SEC,
			 (double)p->duration_ns / PF_NS_PER_SEC);
		ph->partial = true;
	}
	return code;
}

/*
 * run_phase - run phase idx: its recorder set up, its loads, its simulator and its
 * measurement started, watched (run_watch), judged (run_judge), then everything stopped
 * and recorded in run.json; 0 done (maybe interrupted: r->partial), else the exit code
 */
static int run_phase(struct run *r, int idx)
{
	const struct scn_phase *p = &r->scn.phases[idx];
	struct run_load rl[SCN_MAX_LOADS] = { 0 };
	char pdir[PATH_MAX], name[96], out[PATH_MAX], err[PATH_MAX];
	char *argv[64] = { NULL }, bufs[10][PATH_MAX];
	char hk[256];
	struct run_ph ph = { .p = p, .idx = idx, .pdir = pdir, .err = err, .argv = argv, .rl = rl };
	int64_t end_ns;
	int i, ret = 0, code = -1, go_fd = -1;

	ph.traced = run_traced(r, p);
	ph.measuring = p->measure != SCN_NONE;
	snprintf(name, sizeof(name), "%02d-%s", idx + 1, p->name);
	run_path(pdir, sizeof(pdir), r->dir, name);
	memset(&r->live, 0, sizeof(r->live));
	if (pf_mkdirs(pdir) < 0)
		return run_fail_io(r, pdir, errno), r->code;
	r->current_phase = idx;
	run_manifest(r, false);
	run_log(r, "phase %s: begin (%s, %lld s, %d loads)", p->name, scn_measure_name(p->measure),
		   (long long)(p->duration_ns / PF_NS_PER_SEC), p->nloads);
	for (i = 0; i < p->nloads; i++)
		rl[i].name = p->loads[i];
	run_housekeeping(r, p, hk, sizeof(hk));

	ph.start_ns = pf_now_ns();
	err[0] = '\0';
	if (ph.measuring) {
		const char *what = p->measure == SCN_CYCLICTEST ? "cyclictest" : "flightapp";

		if (p->measure == SCN_CYCLICTEST)
			run_cyclictest_argv(r, p, pdir, argv, (int)PF_ARRAY_SIZE(argv), bufs, hk);
		else
			run_flightapp_argv(r, p, pdir, argv, (int)PF_ARRAY_SIZE(argv), bufs, hk);
		snprintf(name, sizeof(name), "%s.out", what);
		run_path(out, sizeof(out), pdir, name);
		snprintf(name, sizeof(name), "%s.err", what);
		run_path(err, sizeof(err), pdir, name);
	}
	/*
	 * the recorder sets up first, on the machine the last phase left quiet:
	 * on one emulated CPU the loads starved its set-up for minutes; it
	 * records and starts the measurement on "go", once they run
	 */
	if (ph.measuring && ph.traced && (ret = run_recorder_setup(r, p, &ph.measure, argv, out, err, &go_fd)) < 0)
		goto stop;
	for (i = 0; i < p->nloads && !ret && !run_signal; i++)
		ret = run_start_load(r, p, pdir, &rl[i], hk);
	if (ret < 0 || run_signal)
		goto stop;
	if (p->measure == SCN_FLIGHTAPP && run_sim_start(r, p, pdir, &ph.sim) < 0)
		goto stop;

	if (ph.measuring && ph.traced) {
		if (write(go_fd, "go\n", 3) != 3)	/* it died: its exit is the measurement's, below */
			run_log(r, "phase %s: recorder: cannot say go: %s", p->name, strerror(errno));
		close(go_fd);
		go_fd = -1;
	} else if (ph.measuring) {
		ret = pf_proc_spawn(&ph.measure, argv, out, err, RUN_CHILD);
		if (ret < 0) {
			run_fail(r, PF_EXIT_ENV, "phase %s: %s: %s", p->name, argv[0], strerror(-ret));
			goto stop;
		}
		run_log(r, "phase %s: %s: pid %d", p->name, argv[0], (int)ph.measure.pid);
	}

	ph.start_ns = pf_now_ns();
	ph.nsteal = run_steal_read(ph.steal_ms, RUN_STEAL_CPUS);
	if (run_watch(r, &ph) < 0)
		goto stop;
	if (ph.measuring)
		code = run_judge(r, &ph);
stop:
	end_ns = pf_now_ns();
	if (run_signal || ret < 0)
		ph.partial = true;
	if (go_fd >= 0)
		close(go_fd);	/* never said go: the recorder ends, nothing recorded */
	pf_proc_stop(&ph.measure, SIGINT, 10 * PF_NS_PER_SEC, true);
	pf_proc_stop(&ph.sim, SIGTERM, 10 * PF_NS_PER_SEC, true);
	if (ph.traced && run_recover(r, pdir))
		ph.partial = true;
	run_ph_stop_loads(r, &ph);
	load_cleanup_stale();
	rmdir(run_path(out, sizeof(out), pdir, "work"));
	if (r->tty)
		fprintf(stderr, "\r\033[K");
	if (ph.partial)
		r->partial = true;
	run_phase_json(r, p, pdir, rl, p->nloads, ph.start_ns, end_ns, ph.partial, code, hk, ph.rec_cpus);
	run_phase_steal(r, &ph);
	if (p->measure == SCN_FLIGHTAPP)
		r->app_phase = idx;
	if (p->measure == SCN_CYCLICTEST && (r->baseline_phase < 0 || p->nloads))
		r->baseline_phase = idx;
	r->current_phase = -1;
	run_manifest(r, false);	/* what the phase did, before the log says it ended */
	run_log(r, "phase %s: end%s", p->name, ph.partial ? " (partial)" : "");
	return r->code ? r->code : 0;
}


/* run_paths - this program, where flightapp and sensorsim are, the trace instance, the run directory's name */
static int run_paths(struct run *r)
{
	char utc[32];
	struct utsname un;
	int ret;

	ret = pf_self_exe(r->self, sizeof(r->self));
	if (ret < 0)
		return run_fail(r, PF_EXIT_INTERNAL, "/proc/self/exe: %s", strerror(-ret));
	if (snprintf(r->bindir, sizeof(r->bindir), "%s", r->self) >= (int)sizeof(r->bindir))
		return run_fail(r, PF_EXIT_ENV, "%s: path too long", r->self);
	*strrchr(r->bindir, '/') = '\0';
	snprintf(r->trace_instance, sizeof(r->trace_instance), "preflight-run-%d", (int)getpid());
	if (r->o->out_dir) {
		if (snprintf(r->dir, sizeof(r->dir), "%s", r->o->out_dir) >= (int)sizeof(r->dir))
			return run_fail(r, PF_EXIT_USAGE, "run directory '%s': path too long", r->o->out_dir);
	} else {
		uname(&un);
		run_utc(utc, sizeof(utc), false);
		snprintf(r->dir, sizeof(r->dir), "runs/%s-%s", utc, un.nodename);
	}
	return 0;
}

/* run_setup - once the pre-flight checks passed: run directory, log, copies of the inputs, system survey */
static int run_setup(struct run *r)
{
	char path[PATH_MAX], *line, *save = NULL;
	int ret;

	ret = pf_mkdirs(r->dir);
	if (ret < 0)
		return run_fail(r, PF_EXIT_ENV, "run directory '%s': %s", r->dir, strerror(-ret));
	if (!run_dir_empty(r->dir))	/* never mix the evidence of two runs (checked before, made since?) */
		return run_fail(r, PF_EXIT_USAGE, "run directory '%s': not empty", r->dir);
	run_reserve(r);
	r->log = fopen(run_path(path, sizeof(path), r->dir, "run.log"), "we");
	if (!r->log)
		return run_fail(r, PF_EXIT_ENV, "%s: %s", path, strerror(errno));
	run_log(r, "preflight run %s (%s) into %s, pid %d", r->scn.name, r->scn.path, r->dir, (int)getpid());
	for (line = strtok_r(r->notes, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		run_log(r, "%s", line);
	/* evidence (SHA256SUMS lists them): whole and durable, or said (lib/outfile.h) */
	if ((ret = pf_outfile_copy(r->scn.path, run_path(path, sizeof(path), r->dir, "scenario.ini"))))
		return run_fail(r, ret, "%s: cannot copy the scenario", path);
	if ((ret = pf_outfile_copy(r->budgets, run_path(path, sizeof(path), r->dir, "budgets.ini"))))
		return run_fail(r, ret, "%s: cannot copy the budgets", path);

	r->identity = run_identity(r->dir);	/* before the phases: the tools and kernel they ran with */
	if (run_has_command(r, "sysinfo")) {
		char *js[] = { r->self, "sysinfo", "--json", "-o", path, NULL };
		char *tx[] = { r->self, "sysinfo", NULL };
		char txt[PATH_MAX];

		run_path(path, sizeof(path), r->dir, "sysinfo.json");
		run_exec(r, js, "/dev/null", "/dev/null");
		run_exec(r, tx, run_path(txt, sizeof(txt), r->dir, "sysinfo.txt"), "/dev/null");
	} else {
		run_log(r, "sysinfo: 'preflight sysinfo' is not in this build");
	}
	return 0;
}

/* run_phase_dir - the directory of phase idx */
char *run_phase_dir(struct run *r, int idx, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%02d-%s", r->dir, idx + 1, r->scn.phases[idx].name);
	return buf;
}


/*
 * run_lock - one run at a time on a machine (two would disturb each other's
 * measurements and loads): an exclusive lock on PREFLIGHT_RUN_LOCK (default
 * /run/preflight/run.lock), held until the runner ends however it ends; the
 * fd, or -1 after saying who holds it (exit 3)
 */
static int run_lock(const char *scenario)
{
	const char *path = getenv("PREFLIGHT_RUN_LOCK");
	char who[PATH_MAX + 64] = "";
	int fd;

	if (!path || !*path) {
		path = PF_STATE_DIR "/run.lock";
		mkdir(PF_STATE_DIR, 0755);
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		if (errno != EACCES && errno != EPERM)	/* no privilege: run_precheck says what is missing */
			pf_err("%s: cannot open: %s (not refusing a second run)", path, strerror(errno));
		return -2;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ssize_t n = pread(fd, who, sizeof(who) - 1, 0);

		who[n > 0 ? n : 0] = '\0';
		who[strcspn(who, "\n")] = '\0';
		close(fd);
		pf_err("another preflight run is running (%s): refused, one run at a time (two would "
		       "disturb each other's measurements); nothing was started", who[0] ? who : path);
		return -1;
	}
	snprintf(who, sizeof(who), "pid %d, scenario %s\n", (int)getpid(), scenario);
	if (ftruncate(fd, 0) < 0 || pwrite(fd, who, strlen(who), 0) < 0)
		pf_err("%s: %s", path, strerror(errno));
	return fd;
}

int run_scenario(const struct run_opts *o, char *dir, size_t dir_size)
{
	struct sigaction sa = { .sa_handler = run_on_signal }, old[3];
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct run *r;
	char path[PATH_MAX];
	int i, ret, lock;

	lock = run_lock(o->scenario);
	if (lock == -1)
		return PF_EXIT_ENV;
	r = calloc(1, sizeof(*r));
	if (!r) {
		close(lock);
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	}
	r->o = o;
	r->t0_ns = pf_now_ns();
	r->app_phase = r->baseline_phase = r->current_phase = r->reserve_fd = -1;
	r->tty = isatty(STDERR_FILENO);
	r->phases = json_array();
	r->traces = json_array();
	r->load_phases = json_array();
	r->warnings = json_array();
	run_utc(r->started_utc, sizeof(r->started_utc), true);

	if (scn_resolve(o->scenario, path, sizeof(path)) < 0) {
		ret = pf_fail(PF_EXIT_USAGE, "scenario '%s': not found (%s)", o->scenario, path);
		goto out;
	}
	if (scn_load(&r->scn, path) < 0) {
		ret = pf_fail(PF_EXIT_USAGE, "%s", r->scn.error);
		goto out;
	}
	ret = run_paths(r);
	if (ret)
		goto out;
	ret = run_precheck(r);	/* nothing is created before it passed */
	if (ret || o->check_only) {
		if (!ret)
			fputs(r->notes, stdout);
		goto out;
	}
	load_cleanup_stale();
	ret = run_setup(r);
	if (ret)
		goto out;
	snprintf(dir, dir_size, "%s", r->dir);
	if (geteuid() == 0 && run_has_command(r, "record")) {
		/* what a killed run or recorder left: its trace recovered into its own run directory */
		char *argv[] = { r->self, "record", "--cleanup-stale", NULL };

		run_exec(r, argv, "/dev/null", "-");
	}
	run_manifest(r, false);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < r->scn.nphases && !run_signal && !r->code; i++)
		run_phase(r, i);
	if (r->code == PF_EXIT_ENV && !json_array_size(r->phases)) {
		run_manifest(r, true);	/* nothing ran: nothing to analyse */
		ret = r->code;
	} else {
		int failed = r->code;

		ret = run_finish(r);
		if (failed)
			ret = failed;
	}
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (run_signal)
		pf_err("interrupted by %s: partial results in %s", strsignal(run_signal), r->dir);
out:
	if (r->log)
		fclose(r->log);
	if (r->reserve_fd >= 0)
		close(r->reserve_fd);
	if (lock >= 0)
		close(lock);
	json_decref(r->phases);
	json_decref(r->traces);
	json_decref(r->warnings);
	json_decref(r->identity);
	json_decref(r->load_phases);
	free(r);
	return ret;
}

int run_repeated(const struct run_opts *o, int repeats, char *dir, size_t dir_size)
{
	struct run_opts one = *o;
	char base[PATH_MAX], rdir[PATH_MAX + 16], utc[32];
	struct utsname un;
	int i, ret, worst = 0, failed = 0, passed = 0, done = 0;

	if (repeats <= 1)
		return run_scenario(o, dir, dir_size);
	if (one.keep_trace == RUN_KEEP_DEFAULT)
		one.keep_trace = RUN_KEEP_ON_FAIL;	/* ten full traces are seldom looked at when all passed */
	if (o->out_dir) {
		snprintf(base, sizeof(base), "%s", o->out_dir);
	} else {
		uname(&un);
		run_utc(utc, sizeof(utc), false);
		snprintf(base, sizeof(base), "runs/%s-%s", utc, un.nodename);
	}
	one.out_dir = rdir;
	for (i = 1; i <= repeats && !run_signal; i++) {
		snprintf(rdir, sizeof(rdir), "%s/run-%02d", base, i);
		fprintf(stderr, "preflight: run: repeat %d of %d into %s\n", i, repeats, rdir);
		ret = run_scenario(&one, dir, dir_size);
		done++;
		if (ret == PF_EXIT_OK)
			passed++;
		else if (ret == PF_EXIT_FAILED)
			failed++;
		/* 2..4 (bad input, environment, interrupted, internal) outrank a failed requirement */
		if (ret > worst)
			worst = ret;
		if (ret > PF_EXIT_FAILED)
			break;
	}
	fprintf(stderr, "preflight: run: %d of %d repeats in %s/run-NN: %d met every requirement, %d failed one%s\n",
		done, repeats, base, passed, failed, worst > PF_EXIT_FAILED ? "; stopped: a run could not be done" : "");
	return worst;
}

static int cmd_run_run(int argc, char **argv);

const struct pf_command cmd_run = {
	.name = "run",
	.summary = "run a scenario: loads, cyclictest baseline, the app under trace; analyse and check",
	.usage =
	"usage: preflight run SCENARIO [-o RUN_DIR] [--budgets FILE] [--repeats N] [--no-report]\n"
	"                     [--keep-trace always|on-fail|never] [--all-threads]\n"
	"                     [--previous RUN_DIR] [--baseline FILE] [--history DB]\n"
	"                     [--progress-every S]\n"
	"       preflight run --check SCENARIO [-o RUN_DIR] [--budgets FILE]\n"
	"\n"
	"Runs the phases of SCENARIO (a name in bench/scenarios/, or an .ini path; see\n"
	"docs/scenarios.md), then analyses and checks what was recorded and writes the\n"
	"run directory: run.json, run.log, scenario.ini, budgets.ini, sysinfo.json,\n"
	"loads.json, results.json, verdicts.tap, verdicts.json, report.txt, SHA256SUMS,\n"
	"report.html and report.pdf (preflight report) and one NN-<phase>/ directory per\n"
	"phase. Progress is redrawn in place on a terminal, else printed as a plain line\n"
	"every 10 s (CI logs; --progress-every). Ctrl-C stops everything, keeps what was\n"
	"recorded, analyses it and marks it partial. The recorder and the loads' helpers\n"
	"run on the housekeeping CPUs: outside the app's (or cyclictest's) CPUs and\n"
	"outside isolcpus / nohz_full; when none is free, run.json's warnings and the\n"
	"summary say so.\n"
	"\n"
	"Before the first phase, and before anything is created, the pre-flight checks\n"
	"look at everything the scenario names: the run directory and the free space\n"
	"for the planned trace, privileges, tracefs, the budgets (by preflight check),\n"
	"cyclictest, flightapp's profile, config and args and sensorsim's sim_args (by\n"
	"their --check), the loads and their tools. Each failure is one line (with the\n"
	"scenario's file:line when one of its keys is at fault); what passed is the\n"
	"start of run.log.\n"
	"\n"
	"scenario file (INI; each key's range and default: docs/scenarios.md, Format):\n"
	"  [scenario]     name, description, budgets\n"
	"  [cyclictest]   priority, interval, histogram, threads, trace, trigger,\n"
	"                 max_snapshots (defaults of every cyclictest phase)\n"
	"  [flightapp]    profile, config, trace, trigger, max_snapshots, wakeups,\n"
	"                 switches, sim, args, sim_args (of every flightapp phase)\n"
	"  [load NAME]    the load's parameters (preflight load NAME --help) and\n"
	"                 helper_cpus, for every phase\n"
	"  [phase NAME]   duration (required), measure (cyclictest | flightapp | none),\n"
	"                 loads; cyclictest.KEY, flightapp.KEY, NAME.KEY for this phase\n"
	"\n"
	"options:\n"
	RUN_COMMON_HELP
	"      --check            only the pre-flight checks: print what passed, exit 0,\n"
	"                         or 2 / 3 as a run would (default: run)\n"
	"  -h, --help             this text\n"
	"\n"
	"exit: 0 all requirements met, 1 a requirement failed, 2 bad scenario or usage,\n"
	"      3 a load, tool or piece could not run, or the run was interrupted, 4 internal\n",
	.run = cmd_run_run,
};

int run_common_option(const struct pf_command *cmd, int c, const char *arg, struct run_opts *o,
		      long *repeats)
{
	static const char *const keep[] = { [RUN_KEEP_ALWAYS] = "always", [RUN_KEEP_ON_FAIL] = "on-fail",
					    [RUN_KEEP_NEVER] = "never" };
	long v;
	int k;

	switch (c) {
	case 'r':
		if (pf_parse_long(arg, 1, 10000, repeats))
			return pf_usage_error(cmd, "--repeats '%s': a number of runs, 1 or more", arg);
		return 0;
	case 'o':
		o->out_dir = arg;
		return 0;
	case 'b':
		o->budgets = arg;
		return 0;
	case RUN_OPT_NO_REPORT:
		o->no_report = true;
		return 0;
	case RUN_OPT_ALL_THREADS:
		o->all_threads = true;
		return 0;
	case RUN_OPT_PREVIOUS:
		o->previous = arg;
		return 0;
	case RUN_OPT_BASELINE:
		o->baseline = arg;
		return 0;
	case RUN_OPT_HISTORY:
		o->history = arg;
		return 0;
	case RUN_OPT_PROGRESS_EVERY:
		if (pf_parse_long(arg, 1, 3600, &v))
			return pf_usage_error(cmd, "--progress-every '%s': seconds, 1 to 3600", arg);
		o->progress_every_s = (int)v;
		return 0;
	case RUN_OPT_KEEP_TRACE:
		for (k = RUN_KEEP_ALWAYS; k <= RUN_KEEP_NEVER; k++)
			if (!strcmp(arg, keep[k])) {
				o->keep_trace = (enum run_keep)k;
				return 0;
			}
		return pf_usage_error(cmd, "--keep-trace '%s': always, on-fail or never", arg);
	}
	return -1;
}

static int cmd_run_run(int argc, char **argv)
{
	static const struct option opts[] = {
		RUN_COMMON_OPTIONS,
		{ "check", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_opts o = { 0 };
	char dir[PATH_MAX] = "";
	long repeats = 1;
	int c, ret;

	while ((c = getopt_long(argc, argv, "o:b:r:", opts, NULL)) != -1) {
		if (c == 'C') {
			o.check_only = true;
			continue;
		}
		ret = run_common_option(&cmd_run, c, optarg, &o, &repeats);
		if (ret > 0)
			return ret;
		if (ret < 0)
			return pf_option_error(&cmd_run, argv, "o:b:r:");
	}
	if (optind != argc - 1)
		return pf_usage_error(&cmd_run, optind == argc ? "which scenario?" : "one scenario only");
	o.scenario = argv[optind];
	ret = run_repeated(&o, o.check_only ? 1 : (int)repeats, dir, sizeof(dir));
	if (dir[0])
		fprintf(stderr, "preflight: run: results in %s (exit %d)\n", dir, ret);
	return ret;
}
