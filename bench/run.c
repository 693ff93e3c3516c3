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
 */
#define _GNU_SOURCE
#include "command.h"
#include "common.h"
#include "cpuset.h"
#include "datafile.h"
#include "jpath.h"
#include "outfile.h"
#include "loads/load.h"
#include "run.h"
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

#define RUN_LOAD_READY_NS  (60 * PF_NS_PER_SEC)	/* a load must be ready by then */
#define RUN_REAP_NS        (5 * PF_NS_PER_SEC)	/* a child that closed its ready channel has exited by then */
#define RUN_RECORDER_READY_NS (180 * PF_NS_PER_SEC)	/* the recorder set up by then (an emulated CPU) */
/*
 * the recorder's nice value: the normal threads of the loads (hackbench's
 * forty) cannot starve it where it shares a CPU with them (the 1-CPU armhf
 * guest lost 57 % of its events at nice 0); no realtime thread is affected
 */
#define RUN_RECORDER_NICE "-10"
#define RUN_LOAD_STOP_NS   (30 * PF_NS_PER_SEC)	/* and stopped, report written, by then */
#define RUN_LOAD_SAFETY_NS (120 * PF_NS_PER_SEC)	/* a load ends itself this long after its phase */
#define RUN_TRIGGER_GAP_NS (11 * PF_NS_PER_SEC)	/* flight recorder: one snapshot per window */
#define RUN_EARLY_END_NS   (500 * PF_NS_PER_MS)	/* a measurement that ended sooner ended early */
#define RUN_PLAIN_PROGRESS_NS (10 * PF_NS_PER_SEC)	/* a progress line this often when stderr is no terminal */
/*
 * What a phase writes, planned before it starts (the pre-flight disk check):
 * a full trace under every load wrote 720 MB in 90 s on 2 CPUs here; the job
 * log 1.3 MB and cyclictest's output 0.9 MB in 90 s and 40 s; the flight
 * recorder keeps whole buffers (record's default 16 MiB per CPU) for each of
 * its snapshots (flightapp.max_snapshots); the SD load writes its file_size.
 */
#define RUN_TRACE_BYTES_PER_CPU_S  (4LL << 20)
#define RUN_JOBLOG_BYTES_PER_S     (16LL << 10)
#define RUN_CYCLICTEST_BYTES_PER_S (32LL << 10)
#define RUN_RECORD_BUFFER_BYTES    (16LL << 20)
#define RUN_SD_FILE_SIZE           "64M"	/* the SD load's file_size default (docs/loads.md) */
/*
 * How long past its duration a measurement may take to end by itself before
 * it is stopped: cyclictest ends on time; the recorder still writes its
 * trace after the app ended (tens of seconds for minutes under load).
 */
#define RUN_MEASURE_GRACE_NS(traced, p) ((traced) ? \
	120 * PF_NS_PER_SEC + (p)->duration_ns / 2 : 20 * PF_NS_PER_SEC)

/* how the runner starts the children that live through a phase: ended with it if it dies */
#define RUN_CHILD (PF_PROC_PGRP | PF_PROC_TERM_ON_DEATH)
/*
 * a traced measurement: the recorder holds the SIGTERM of the runner's death
 * until it is set up (killed the moment it starts, it would die of it
 * without a trace, or anything saying why), then ends the recording with it
 */
#define RUN_RECORDER (RUN_CHILD | PF_PROC_HOLD_STOP)

static volatile sig_atomic_t run_signal;

/* run_on_signal - remember the stop request; the phase loop acts on it */
static void run_on_signal(int sig)
{
	run_signal = sig;
}

struct run_load {
	const char *name;
	struct pf_proc proc;
	char report[PATH_MAX];
	bool started;
};

#define RUN_MAX_SNAPSHOTS "64"	/* a flight-recorder phase's snapshot budget (flightapp.max_snapshots) */

/* The live worst latency per thread / task, from the status lines of cyclictest or flightapp. */
struct run_live {
	int n;
	char name[16][24];	/* in name order (T0, T1, ... / ctl100, io, ...): a stable order */
	double max_us[16];	/* the worst so far: never less than before */
	bool rt[16];		/* a realtime thread (not "P:other") */
};

struct run {
	const struct run_opts *o;
	struct scn scn;
	char dir[2048];
	char self[PATH_MAX];		/* this program */
	char bindir[2048];		/* where flightapp and sensorsim are built */
	char budgets[PATH_MAX];
	FILE *log;			/* run.log */
	int64_t t0_ns;
	bool tty;
	bool partial;
	int code;			/* exit code so far */
	char failure[1200];		/* why the run could not be done */
	char budgets_src[PATH_MAX];	/* the budgets as named (by --budgets, the scenario or the default) */
	char notes[8192];		/* what the pre-flight checks found good, for run.log */
	char seen[48][64];		/* pre-flight checks done already (scenario lines, messages) */
	int nseen;
	json_t *phases;			/* run.json phases */
	json_t *identity;		/* run.json preflight: what produced the run (run_identity.c) */
	json_t *load_phases;		/* loads.json phases */
	json_t *warnings;		/* run.json warnings: what made the run less than it should be */
	int app_phase, baseline_phase;	/* indexes of the phases that feed the top-level results */
	struct run_live live;		/* the phase's live worst per thread / task, for the progress line */
	char trace_instance[64];
	json_t *traces;			/* run.json traces: what became of each .dat after the analysis */
	char started_utc[32];
	int current_phase;		/* the phase under way, -1 between phases */
	int reserve_fd;			/* room held back on the run directory's disk, or -1 */
	bool disk_full;			/* that disk filled: the run is partial */
};

static void run_manifest(struct run *r, bool complete);
static char *run_phase_dir(struct run *r, int idx, char *buf, size_t size);

/* run_log - one time-stamped line in run.log */
static void run_log(struct run *r, const char *fmt, ...) PF_PRINTF(2, 3);
static void run_log(struct run *r, const char *fmt, ...)
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
static int run_fail(struct run *r, int code, const char *fmt, ...) PF_PRINTF(3, 4);
static int run_fail(struct run *r, int code, const char *fmt, ...)
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
static bool run_disk_check(struct run *r, const char *when)
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

/* run_path - dir/name into buf */
static char *run_path(char *buf, size_t size, const char *dir, const char *name)
{
	if (pf_path_join(buf, size, dir, name))
		return buf;	/* "": too long, fails on use, never writes elsewhere */
	return buf;
}

/* run_exists - true when path exists */
static bool run_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* run_utc - the current UTC time as "2026-12-03T06:30:00Z" (iso) or "20261203T063000Z" */
static void run_utc(char *buf, size_t size, bool iso)
{
	pf_utc(buf, size, time(NULL), !iso);
}

/* run_dir_empty - true when a directory has no entry but . and .. */
static bool run_dir_empty(const char *path)
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
static int run_find_file(const char *name, char *out, size_t size)
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
static bool run_has_command(struct run *r, const char *name)
{
	char err[256];

	return pf_proc_runl(err, sizeof(err), r->self, "help", name, NULL) == 0;
}

/* run_argv - append one argument to a NULL-terminated argv; returns the new count */
static int run_argv(char **argv, int max, int n, const char *arg)
{
	if (n < max - 1)
		argv[n++] = (char *)arg;
	argv[n] = NULL;
	return n;
}

/* run_exec - run a preflight subcommand or tool to completion, output to files; its exit code */
static int run_exec(struct run *r, char **argv, const char *out, const char *err)
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
	char work[PATH_MAX], samples[PATH_MAX], dur[32], why[600], name[64];
	int pipefd[2], ret;

	run_path(work, sizeof(work), pdir, "work");
	snprintf(name, sizeof(name), "load-%s.json", rl->name);
	run_path(rl->report, sizeof(rl->report), pdir, name);
	snprintf(name, sizeof(name), "load-%s.csv", rl->name);	/* what it achieved each second */
	run_path(samples, sizeof(samples), pdir, name);
	if (pf_mkdirs(work) < 0)
		return run_fail(r, PF_EXIT_ENV, "%s: %s", work, strerror(errno)), -1;
	run_load_args(r, p, rl->name, pdir, work, rl->report, samples, dur, argv, (int)PF_ARRAY_SIZE(argv), kvbuf,
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
static size_t run_tail(const char *path, char *text, size_t size)
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
static const char *run_measure_owner(const struct scn_phase *p)
{
	return p->measure == SCN_CYCLICTEST ? "cyclictest" : "flightapp";
}

/*
 * run_trace_mode - how phase p is traced: "full", "flight" or "off" (its
 * measurement's 'trace': the app's default is full, cyclictest's off, so a
 * baseline records nothing unless asked)
 */
static const char *run_trace_mode(struct run *r, const struct scn_phase *p)
{
	if (p->measure == SCN_FLIGHTAPP)
		return scn_param(&r->scn, p, "flightapp", "trace", "full");
	if (p->measure == SCN_CYCLICTEST)
		return scn_param(&r->scn, p, "cyclictest", "trace", "off");
	return "off";
}

/* run_traced - phase p runs its measurement under the recorder */
static bool run_traced(struct run *r, const struct scn_phase *p)
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
static int run_split(char **argv, int max, int n, const char *text, char *buf, size_t size)
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
		return run_fail(r, PF_EXIT_ENV, "%s: %s", path, strerror(errno)), -1;
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
		return run_fail(r, PF_EXIT_ENV, "%s: %s", path, strerror(errno)), -1;
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
 * run_live_read - merge the last status lines of cyclictest ("T: 0 (...)
 * P:90 ... Max: 12") or flightapp ("T:io P:fifo:90 ... Max: 62.5 ... (us)")
 * into lv: a thread keeps its place and its worst only grows. Only whole
 * lines count: the tail's first line may start in the middle, its last may
 * be still being written.
 */
static void run_live_read(const char *file, struct run_live *lv)
{
	char text[8192], *line, *save = NULL, *m, *t, *end;
	size_t len = run_tail(file, text, sizeof(text));
	struct stat st;
	double max_us;
	int i, j;

	end = strrchr(text, '\n');
	if (!end)
		return;
	end[1] = '\0';	/* a last line without its newline is not whole yet */
	line = text;
	if (stat(file, &st) == 0 && (size_t)st.st_size > len)
		line = strchr(text, '\n') + 1;	/* the tail began inside a line */
	for (line = strtok_r(line, "\n\r", &save); line; line = strtok_r(NULL, "\n\r", &save)) {
		char name[24];

		t = strstr(line, "T:");
		m = strstr(line, "Max:");
		if (!t || !m || sscanf(t + 2, " %23[^ (]", name) != 1 || sscanf(m + 4, "%lf", &max_us) != 1)
			continue;
		for (i = 0; i < lv->n && strverscmp(lv->name[i], name) < 0; i++)
			;
		if (i == lv->n || strcmp(lv->name[i], name)) {
			if (lv->n == 16)
				continue;
			for (j = lv->n++; j > i; j--) {
				memcpy(lv->name[j], lv->name[j - 1], sizeof(lv->name[0]));
				lv->max_us[j] = lv->max_us[j - 1];
				lv->rt[j] = lv->rt[j - 1];
			}
			snprintf(lv->name[i], sizeof(lv->name[0]), "%s", name);
			lv->max_us[i] = 0;
		}
		if (max_us > lv->max_us[i])
			lv->max_us[i] = max_us;
		lv->rt[i] = !strstr(line, "P:other");
	}
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

/* run_width - the terminal's width for the progress line (COLUMNS, else 80, when it cannot be asked) */
static int run_width(void)
{
	struct winsize ws;
	long cols;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	if (getenv("COLUMNS") && !pf_parse_long(getenv("COLUMNS"), 20, 1000, &cols))
		return (int)cols;
	return 80;
}

/* run_fit - cut a line to at most 'width' characters, at a blank (whole words); true when it was cut */
static bool run_fit(char *line, size_t width)
{
	char *blank;

	if (strlen(line) <= width)
		return false;
	line[width] = '\0';
	blank = strrchr(line, ' ');
	if (blank && blank > line)
		*blank = '\0';
	while (blank && blank > line && (blank[-1] == ',' || blank[-1] == ' '))
		*--blank = '\0';
	return true;
}

/*
 * run_waiting - why a phase runs past its planned time: what its
 * measurement still does (cyclictest writes its results; flightapp drains
 * its job log and stops the simulator's links; the recorder writes the trace)
 */
static const char *run_waiting(const struct scn_phase *p, const char *pdir, char *buf, size_t size)
{
	char path[PATH_MAX];
	struct stat st;

	if (p->measure == SCN_CYCLICTEST)
		return "waiting for cyclictest to end";
	if (stat(run_path(path, sizeof(path), pdir, "app-stats.json"), &st) || !st.st_size)
		return "waiting for flightapp and the simulator to end";
	if (stat(run_path(path, sizeof(path), pdir, "trace.dat"), &st) == 0) {
		snprintf(buf, size, "waiting for the recorder to write the trace (%lld MiB)",
			 (long long)(st.st_size >> 20));
		return buf;
	}
	return "waiting for the recorder to write the trace";
}

/*
 * run_progress - the progress line: phase, time, and the live worst per
 * thread / task in a stable order, redrawn in place on a terminal and
 * fitted to its width (whole entries, "+N" for those left out); else a
 * plain line every RUN_PLAIN_PROGRESS_NS for CI logs. Past the planned time
 * it says what the phase waits for.
 */
static void run_progress(struct run *r, int idx, const struct scn_phase *p,
			    int64_t elapsed_ns, const char *pdir)
{
	static int64_t plain_next_ns, plain_t0_ns;	/* the plain line: when next, in which run */
	static int plain_idx = -1;
	char path[PATH_MAX], line[1200], items[16][48], why[96];
	int64_t left = p->duration_ns - elapsed_ns;
	struct run_live *lv = &r->live;
	int i, width = r->tty ? run_width() - 1 : (int)sizeof(line) - 1;
	size_t len;

	if (!r->tty && r->t0_ns == plain_t0_ns && idx == plain_idx && elapsed_ns < plain_next_ns)
		return;
	if (p->measure != SCN_NONE)
		run_live_read(run_path(path, sizeof(path), pdir, p->measure == SCN_CYCLICTEST ?
					     "cyclictest.out" : "flightapp.err"), lv);
	if (width > (int)sizeof(line) - 1)
		width = (int)sizeof(line) - 1;
	for (i = 0; i < lv->n; i++)
		snprintf(items[i], sizeof(items[i]), "%s%s %.0fus", p->measure == SCN_CYCLICTEST ? "T" : "",
			 lv->name[i], lv->max_us[i]);
	/* the head, shorter when the terminal is narrow (the worst figures matter more than the words) */
	snprintf(line, sizeof(line), "[%d/%d] %s (%s): %llds / %llds, ", idx + 1, r->scn.nphases, p->name,
		 scn_measure_name(p->measure), (long long)(elapsed_ns / PF_NS_PER_SEC),
		 (long long)(p->duration_ns / PF_NS_PER_SEC));
	if (lv->n && strlen(line) + 24 + strlen(items[0]) > (size_t)width)
		snprintf(line, sizeof(line), "[%d/%d] %s %llds/%llds, ", idx + 1, r->scn.nphases, p->name,
			 (long long)(elapsed_ns / PF_NS_PER_SEC), (long long)(p->duration_ns / PF_NS_PER_SEC));
	len = strlen(line);
	if (left >= 0)
		snprintf(line + len, sizeof(line) - len, "%llds left", (long long)(left / PF_NS_PER_SEC));
	else
		snprintf(line + len, sizeof(line) - len, "%s", run_waiting(p, pdir, why, sizeof(why)));
	for (i = run_fit(line, (size_t)width) ? lv->n : 0; i < lv->n; i++) {
		len = strlen(line);
		/* room for this one, and for " +N" after it unless it is the last */
		if (len + strlen(items[i]) + (i ? 1 : 9) + (i + 1 < lv->n ? 4 : 0) > (size_t)width) {
			if (len + 4 <= (size_t)width)
				snprintf(line + len, sizeof(line) - len, " +%d", lv->n - i);
			break;
		}
		snprintf(line + len, sizeof(line) - len, "%s%s", i ? " " : "  worst: ", items[i]);
	}
	if (r->tty) {
		fprintf(stderr, "\r\033[K%s", line);
	} else {
		fprintf(stderr, "preflight: run: %s\n", line);
		plain_idx = idx;
		plain_t0_ns = r->t0_ns;
		plain_next_ns = elapsed_ns + RUN_PLAIN_PROGRESS_NS;
	}
	fflush(stderr);
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

		json_array_append_new(names, json_string(rl[i].name));
		if (!rep)
			rep = json_pack("{s:s, s:s}", "load", rl[i].name, "error",
					"no report: the load did not start or was killed");
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

/* run_phase - run phase idx; 0 done (maybe interrupted: r->partial), else the exit code */
static int run_phase(struct run *r, int idx)
{
	const struct scn_phase *p = &r->scn.phases[idx];
	struct run_load rl[SCN_MAX_LOADS] = { 0 };
	char pdir[PATH_MAX], name[96], out[PATH_MAX], err[PATH_MAX];
	char *argv[64], bufs[10][PATH_MAX];
	struct pf_proc measure = { 0 }, sim = { 0 };
	char hk[256], rec_cpus[256] = "";
	bool traced = run_traced(r, p);
	double trigger_worst_us = 0;
	int64_t trigger_ns = 0;
	int64_t start_ns, now, end_ns;
	int i, ret = 0, code = -1, go_fd = -1;
	bool partial = false, measuring = p->measure != SCN_NONE, sim_done = false;
	bool app_ended = false;		/* the measurement is ending: its loads are stopped */

	snprintf(name, sizeof(name), "%02d-%s", idx + 1, p->name);
	run_path(pdir, sizeof(pdir), r->dir, name);
	memset(&r->live, 0, sizeof(r->live));
	if (pf_mkdirs(pdir) < 0)
		return run_fail(r, PF_EXIT_ENV, "%s: %s", pdir, strerror(errno));
	r->current_phase = idx;
	run_manifest(r, false);
	run_log(r, "phase %s: begin (%s, %lld s, %d loads)", p->name, scn_measure_name(p->measure),
		   (long long)(p->duration_ns / PF_NS_PER_SEC), p->nloads);
	for (i = 0; i < p->nloads; i++)
		rl[i].name = p->loads[i];
	run_housekeeping(r, p, hk, sizeof(hk));

	start_ns = pf_now_ns();
	if (measuring) {
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
	if (measuring && traced && (ret = run_recorder_setup(r, p, &measure, argv, out, err, &go_fd)) < 0)
		goto stop;
	for (i = 0; i < p->nloads && !ret && !run_signal; i++)
		ret = run_start_load(r, p, pdir, &rl[i], hk);
	if (ret < 0 || run_signal)
		goto stop;
	if (p->measure == SCN_FLIGHTAPP && run_sim_start(r, p, pdir, &sim) < 0)
		goto stop;

	if (measuring && traced) {
		if (write(go_fd, "go\n", 3) != 3)	/* it died: its exit is the measurement's, below */
			run_log(r, "phase %s: recorder: cannot say go: %s", p->name, strerror(errno));
		close(go_fd);
		go_fd = -1;
	} else if (measuring) {
		ret = pf_proc_spawn(&measure, argv, out, err, RUN_CHILD);
		if (ret < 0) {
			run_fail(r, PF_EXIT_ENV, "phase %s: %s: %s", p->name, argv[0], strerror(-ret));
			goto stop;
		}
		run_log(r, "phase %s: %s: pid %d", p->name, argv[0], (int)measure.pid);
	}

	start_ns = pf_now_ns();
	for (;;) {
		now = pf_now_ns();
		if (run_signal) {
			partial = true;
			run_log(r, "phase %s: signal %d: stopping", p->name, (int)run_signal);
			break;
		}
		if (measuring && !pf_proc_alive(&measure))
			break;
		if (!measuring && now - start_ns >= p->duration_ns)
			break;
		if (measuring && now - start_ns >= p->duration_ns + RUN_MEASURE_GRACE_NS(traced, p)) {
			run_log(r, "phase %s: measurement still running %lld s past its duration: stopping it",
				   p->name, (long long)(RUN_MEASURE_GRACE_NS(traced, p) / PF_NS_PER_SEC));
			break;
		}
		if (measuring && !app_ended && p->measure == SCN_FLIGHTAPP && run_app_ran_ns(pdir) >= 0 &&
		    run_app_stats_written(pdir)) {
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
			app_ended = true;
			pf_proc_stop(&sim, SIGTERM, 10 * PF_NS_PER_SEC, true);
			for (i = p->nloads - 1; i >= 0; i--)
				run_stop_load(r, &rl[i]);
		}
		if (measuring && !app_ended && p->measure == SCN_CYCLICTEST && now - start_ns >= p->duration_ns) {
			/*
			 * cyclictest's own duration is the phase's: past it, what is
			 * left is its end (threads joined, histogram written), which
			 * the loads starved past the grace on a one-CPU emulated board
			 */
			run_log(r, "phase %s: its time is up: stopping the loads while cyclictest ends", p->name);
			app_ended = true;
			for (i = p->nloads - 1; i >= 0; i--)
				run_stop_load(r, &rl[i]);
		}
		for (i = 0; i < p->nloads && !app_ended; i++) {
			if (!rl[i].started || pf_proc_alive(&rl[i].proc))
				continue;
			if (pf_proc_exit_code(&rl[i].proc) == 0 && now - start_ns >= p->duration_ns) {
				/*
				 * its fail-safe ended it past the phase's time, the
				 * measurement still ending (one emulated core): said
				 * in run.log, not a failure
				 */
				run_log(r, "phase %s: load %s: ended by its own fail-safe while the "
					   "measurement was still ending", p->name, rl[i].name);
				run_stop_load(r, &rl[i]);
				continue;
			}
			run_fail(r, PF_EXIT_ENV, "phase %s: load %s stopped early (exit %d): "
				    "the phase would measure without it", p->name, rl[i].name,
				    pf_proc_exit_code(&rl[i].proc));
			partial = true;
			goto stop;
		}
		if (traced && !rec_cpus[0]) {
			run_recorder_cpus(r, measure.pid, rec_cpus, sizeof(rec_cpus));
			if (rec_cpus[0])
				run_log(r, "phase %s: recorder (pid %d) runs on CPUs %s", p->name, (int)measure.pid,
					   rec_cpus);
		}
		snprintf(name, sizeof(name), "phase %s", p->name);
		if (run_disk_check(r, name)) {
			partial = true;
			break;
		}
		if (sim.pid && !sim_done && !app_ended && !pf_proc_alive(&sim)) {
			/*
			 * exit 0 past the phase's time is its planned end (ten minutes
			 * after the phase's): the app has flown its duration and the
			 * recorder is still writing the trace (minutes on an emulated
			 * CPU); before, it was stopped (a SIGTERM it handles)
			 */
			if (pf_proc_exit_code(&sim) == 0 && now - start_ns >= p->duration_ns) {
				run_log(r, "phase %s: sensorsim: ended on time (exit 0)", p->name);
				sim_done = true;
			} else {
				run_fail(r, PF_EXIT_ENV, "phase %s: sensorsim stopped early (exit %d): the app "
					 "would fly without its sensors", p->name, pf_proc_exit_code(&sim));
				partial = true;
				break;
			}
		}
		run_progress(r, idx, p, now - start_ns, pdir);
		if (measuring)
			run_trigger(r, p, pdir, &measure, &trigger_worst_us, &trigger_ns);
		pf_proc_sleep_ns(200 * PF_NS_PER_MS);
	}
	if (measuring) {
		int64_t ran_ns = pf_now_ns() - start_ns;

		pf_proc_stop(&measure, SIGINT, 10 * PF_NS_PER_SEC, true);
		if (p->measure == SCN_FLIGHTAPP && run_app_ran_ns(pdir) >= 0)
			ran_ns = run_app_ran_ns(pdir);	/* the app's own time: the recorder adds its writing */
		code = pf_proc_exit_code(&measure);
		run_log(r, "phase %s: %s: exit %d", p->name, argv[0], code);
		if (p->measure == SCN_FLIGHTAPP)
			run_app_dma_warning(r, p, pdir);
		snprintf(name, sizeof(name), "phase %s", p->name);
		if (run_disk_check(r, name)) {
			partial = true;
		} else if (code != 0 && !partial) {
			char line[300] = "";

			run_last_line(err, line, sizeof(line));
			run_fail(r, PF_EXIT_ENV, "phase %s: %s exited with %d%s%s", p->name, argv[0], code,
				    line[0] ? ": " : "", line);
			partial = true;
		} else if (!partial && ran_ns < p->duration_ns - RUN_EARLY_END_NS) {
			/* ended by itself, but too soon: stopped by someone else (SIGTERM) */
			run_fail(r, PF_EXIT_ENV, "phase %s: %s ended after %.1f s of %.0f s: the "
				 "measurement is incomplete", p->name, argv[0], (double)ran_ns / PF_NS_PER_SEC,
				 (double)p->duration_ns / PF_NS_PER_SEC);
			partial = true;
		}
	}
stop:
	end_ns = pf_now_ns();
	if (run_signal || ret < 0)
		partial = true;
	if (go_fd >= 0)
		close(go_fd);	/* never said go: the recorder ends, nothing recorded */
	pf_proc_stop(&measure, SIGINT, 10 * PF_NS_PER_SEC, true);
	pf_proc_stop(&sim, SIGTERM, 10 * PF_NS_PER_SEC, true);
	if (traced && run_recover(r, pdir))
		partial = true;
	for (i = p->nloads - 1; i >= 0; i--)
		run_stop_load(r, &rl[i]);
	load_cleanup_stale();
	rmdir(run_path(out, sizeof(out), pdir, "work"));
	if (r->tty)
		fprintf(stderr, "\r\033[K");
	if (partial)
		r->partial = true;
	run_phase_json(r, p, pdir, rl, p->nloads, start_ns, end_ns, partial, code, hk, rec_cpus);
	if (p->measure == SCN_FLIGHTAPP)
		r->app_phase = idx;
	if (p->measure == SCN_CYCLICTEST && (r->baseline_phase < 0 || p->nloads))
		r->baseline_phase = idx;
	r->current_phase = -1;
	run_manifest(r, false);	/* what the phase did, before the log says it ended */
	run_log(r, "phase %s: end%s", p->name, partial ? " (partial)" : "");
	return r->code ? r->code : 0;
}

/* run_pre_error - a pre-flight check failed: one line on stderr; bad input (2) outranks environment (3) */
static void run_pre_error(struct run *r, int code, const char *fmt, ...) PF_PRINTF(3, 4);
static void run_pre_error(struct run *r, int code, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pf_err("%s", msg);
	if (!r->failure[0])
		snprintf(r->failure, sizeof(r->failure), "%s", msg);
	if (code == PF_EXIT_USAGE || !r->code)
		r->code = code;
}

/* run_pre_note - a pre-flight check passed: a line for run.log (and stdout with --check) */
static void run_pre_note(struct run *r, const char *fmt, ...) PF_PRINTF(2, 3);
static void run_pre_note(struct run *r, const char *fmt, ...)
{
	size_t len = strlen(r->notes);
	va_list ap;

	if (len + 2 >= sizeof(r->notes))
		return;
	va_start(ap, fmt);
	vsnprintf(r->notes + len, sizeof(r->notes) - len - 1, fmt, ap);
	va_end(ap);
	strcat(r->notes, "\n");
}

/* run_pre_child - the first stderr line of a preflight child without its "preflight: <command>: " prefix */
static const char *run_pre_child(const char *err)
{
	const char *p;

	if (strncmp(err, "preflight: ", 11))
		return err;
	p = strstr(err + 11, ": ");
	return p ? p + 2 : err + 11;
}

/*
 * run_pre_budgets - the budgets file: found (the scenario's 'budgets =' line
 * named when it is the scenario's) and valid, by asking `preflight check` to
 * judge an empty results.json against it (exit 2: bad budgets, file:line)
 */
static void run_pre_budgets(struct run *r)
{
	char src[PATH_MAX], where[700] = "", tmp[] = "/tmp/preflight-precheck.XXXXXX", err[600];
	static const char empty[] = "{\"schema\": \"preflight-results/1\"}\n";
	int fd, code;

	snprintf(src, sizeof(src), "%s", r->o->budgets ? r->o->budgets :
		 r->scn.budgets[0] ? r->scn.budgets : "budgets/seed.ini");
	if (!r->o->budgets && r->scn.budgets[0])
		snprintf(where, sizeof(where), "%s:%d: ", r->scn.path, r->scn.budgets_line);
	snprintf(r->budgets_src, sizeof(r->budgets_src), "%s", src);
	if (run_find_file(src, r->budgets, sizeof(r->budgets)) < 0) {
		run_pre_error(r, PF_EXIT_USAGE, "%sbudgets '%s': %s", where, src, r->budgets);
		r->budgets[0] = '\0';
		return;
	}
	if (!run_has_command(r, "check")) {
		run_pre_error(r, PF_EXIT_ENV, "'preflight check' is not in this build: no verdicts");
		return;
	}
	fd = mkstemp(tmp);
	if (fd < 0 || write(fd, empty, sizeof(empty) - 1) != (ssize_t)sizeof(empty) - 1) {
		run_pre_error(r, PF_EXIT_ENV, "%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd), unlink(tmp);
		return;
	}
	close(fd);
	code = pf_proc_runl(err, sizeof(err), r->self, "check", tmp, "--budgets", r->budgets, "-o", "/dev/null",
			    NULL);
	unlink(tmp);
	if (code == PF_EXIT_USAGE)
		run_pre_error(r, PF_EXIT_USAGE, "%sbudgets '%s': %s", where, src, run_pre_child(err));
	else if (code != PF_EXIT_OK && code != PF_EXIT_FAILED)
		run_pre_error(r, PF_EXIT_ENV, "budgets '%s': preflight check: %s", src, err);
	else
		run_pre_note(r, "pre-flight: budgets %s: ok", r->budgets);
}

/*
 * run_pre_compare - what the report is to compare the run with (--previous,
 * --baseline, --history) reads as the report will read it: a previous run's
 * verdicts.json, a baseline file, a history database (by `preflight history
 * verdicts`, which creates none); and there is a report to pass them to
 */
static void run_pre_compare(struct run *r)
{
	char path[PATH_MAX], why[PATH_MAX + 200], err[600];
	json_t *doc;
	int code;

	if (r->o->no_report && (r->o->previous || r->o->baseline || r->o->history)) {
		run_pre_error(r, PF_EXIT_USAGE, "--%s goes to the report: not with --no-report",
			      r->o->previous ? "previous" : r->o->baseline ? "baseline" : "history");
		return;
	}
	if (r->o->previous) {
		doc = pf_json_load_schema(run_path(path, sizeof(path), r->o->previous, "verdicts.json"),
					  "preflight-verdicts/1", why, sizeof(why));
		if (!doc)
			run_pre_error(r, PF_EXIT_USAGE, "--previous: %s", why);
		else
			run_pre_note(r, "pre-flight: --previous %s: ok", r->o->previous);
		json_decref(doc);
	}
	if (r->o->baseline) {
		doc = pf_json_load_schema(r->o->baseline, "preflight-baseline/1", why, sizeof(why));
		if (!doc)
			run_pre_error(r, PF_EXIT_USAGE, "--baseline: %s", why);
		else
			run_pre_note(r, "pre-flight: --baseline %s: ok", r->o->baseline);
		json_decref(doc);
	}
	if (r->o->history) {
		code = pf_proc_runl(err, sizeof(err), r->self, "history", "verdicts", "--db", r->o->history,
				    "--scenario", r->scn.name, "--last", "1", NULL);
		if (code)
			run_pre_error(r, code == PF_EXIT_ENV ? PF_EXIT_ENV : PF_EXIT_USAGE, "--history: %s%s%s",
				      strncmp(run_pre_child(err), r->o->history, strlen(r->o->history)) ? r->o->history : "",
				      strncmp(run_pre_child(err), r->o->history, strlen(r->o->history)) ? ": " : "",
				      run_pre_child(err));
		else
			run_pre_note(r, "pre-flight: --history %s: ok", r->o->history);
	}
}

/* run_pre_seen - true when this combination of scenario lines was checked already (else remember it) */
static bool run_pre_seen(struct run *r, const char *what, const struct scn_kv *const *kv, int n)
{
	char key[sizeof(r->seen[0])];
	int i, len;

	len = snprintf(key, sizeof(key), "%s", what);
	for (i = 0; i < n; i++)
		len += snprintf(key + len, sizeof(key) - (size_t)len, " %d", kv[i] ? kv[i]->line : 0);
	for (i = 0; i < r->nseen; i++)
		if (!strcmp(r->seen[i], key))
			return true;
	if (r->nseen < (int)PF_ARRAY_SIZE(r->seen))
		snprintf(r->seen[r->nseen++], sizeof(r->seen[0]), "%s", key);
	return false;
}

/*
 * run_pre_program - ask flightapp (keys profile, config, args) or sensorsim
 * (sim_args) of phase p to check them with --check, one key more at a time,
 * so that an error names the scenario line of the key that brought it
 */
static void run_pre_program(struct run *r, const struct scn_phase *p, const char *prog,
			       const char *const *keys, int nkeys)
{
	const struct scn_kv *kv[4] = { 0 };
	char exe[PATH_MAX], words[4][512], err[600];
	char *argv[96];
	int i, n = 0, code;

	n = run_argv(argv, 96, n, run_path(exe, sizeof(exe), r->bindir, prog));
	n = run_argv(argv, 96, n, "--check");
	for (i = 0; i < nkeys; i++) {
		kv[i] = scn_param_kv(&r->scn, p, "flightapp", keys[i]);
		if (!kv[i])
			continue;
		if (!strcmp(keys[i], "profile") || !strcmp(keys[i], "config")) {
			n = run_argv(argv, 96, n, !strcmp(keys[i], "profile") ? "--profile" : "--config");
			n = run_argv(argv, 96, n, kv[i]->value);
		} else {
			n = run_split(argv, 96, n, kv[i]->value, words[i], sizeof(words[i]));
		}
		if (run_pre_seen(r, prog, kv, i + 1))
			continue;
		code = pf_proc_run(argv, err, sizeof(err));
		if (code) {
			run_pre_error(r, code == PF_EXIT_USAGE ? PF_EXIT_USAGE : PF_EXIT_ENV, "%s:%d: flightapp.%s '%s': %s",
				      r->scn.path, kv[i]->line, keys[i], kv[i]->value, err);
			return;
		}
		run_pre_note(r, "pre-flight: phase %s: %s --check with flightapp.%s (line %d): ok", p->name, prog,
			     keys[i], kv[i]->line);
	}
}

/*
 * run_pre_bytes - about what phase p will write into the run directory at
 * most: trace, job log, cyclictest output, and the SD load's file (in the
 * phase's work directory unless sd.dir puts it elsewhere)
 */
static int64_t run_pre_bytes(struct run *r, const struct scn_phase *p)
{
	int64_t s = p->duration_ns / PF_NS_PER_SEC + 1, cpus = sysconf(_SC_NPROCESSORS_ONLN), bytes = 0;
	const char *trace = run_trace_mode(r, p);
	uint64_t sd_bytes;
	int64_t trace_bytes;
	int i;

	if (cpus < 1)
		cpus = 1;
	for (i = 0; i < p->nloads; i++)
		if (!strcmp(p->loads[i], "sd") && !scn_param(&r->scn, p, "sd", "dir", NULL) &&
		    !load_parse_bytes(scn_param(&r->scn, p, "sd", "file_size", RUN_SD_FILE_SIZE), &sd_bytes))
			bytes += (int64_t)sd_bytes;
	trace_bytes = !strcmp(trace, "full") ? s * cpus * RUN_TRACE_BYTES_PER_CPU_S :
		      !strcmp(trace, "flight") ? atoll(scn_param(&r->scn, p, run_measure_owner(p), "max_snapshots",
								 RUN_MAX_SNAPSHOTS)) * cpus * RUN_RECORD_BUFFER_BYTES : 0;
	if (p->measure == SCN_CYCLICTEST)
		return bytes + s * RUN_CYCLICTEST_BYTES_PER_S + trace_bytes;
	if (p->measure != SCN_FLIGHTAPP)
		return bytes;
	return bytes + s * RUN_JOBLOG_BYTES_PER_S + trace_bytes;
}

/*
 * run_pre_dir - the run directory can be made (empty if it exists; its
 * nearest existing parent writable) and its file system has room for what
 * the phases will write
 */
static void run_pre_dir(struct run *r)
{
	char parent[sizeof(r->dir)], *slash;
	struct statvfs vfs;
	struct stat st;
	int64_t need = 0, avail;
	int i;

	if (run_exists(r->dir)) {
		if (stat(r->dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
			run_pre_error(r, PF_EXIT_USAGE, "run directory '%s': not a directory", r->dir);
			return;
		}
		if (!run_dir_empty(r->dir))	/* never mix the evidence of two runs */
			run_pre_error(r, PF_EXIT_USAGE, "run directory '%s': not empty", r->dir);
		snprintf(parent, sizeof(parent), "%s", r->dir);
	} else {
		snprintf(parent, sizeof(parent), "%s", r->dir);
		do {
			slash = strrchr(parent, '/');
			if (!slash)
				snprintf(parent, sizeof(parent), ".");
			else
				*(slash == parent ? slash + 1 : slash) = '\0';
		} while (!run_exists(parent) && strcmp(parent, ".") && strcmp(parent, "/"));
	}
	if (access(parent, W_OK | X_OK)) {
		run_pre_error(r, PF_EXIT_ENV, "run directory '%s': cannot be written in '%s': %s", r->dir, parent,
			      strerror(errno));
		return;
	}
	for (i = 0; i < r->scn.nphases; i++)
		need += run_pre_bytes(r, &r->scn.phases[i]);
	if (statvfs(parent, &vfs))
		return;
	avail = (int64_t)vfs.f_bavail * (int64_t)vfs.f_frsize;
	if (avail < need)
		run_pre_error(r, PF_EXIT_ENV, "run directory '%s': %lld MiB free, the planned trace and logs need "
			      "about %lld MiB", r->dir, (long long)(avail >> 20), (long long)(need >> 20));
	else
		run_pre_note(r, "pre-flight: disk: about %lld MiB planned, %lld MiB free in %s", (long long)(need >> 20),
			     (long long)(avail >> 20), parent);
}

/* run_pre_loads - every load of phase p can start here (tools, privileges, parameters together) */
static void run_pre_loads(struct run *r, const struct scn_phase *p)
{
	int j, k;

	for (j = 0; j < p->nloads; j++) {
		const struct scn_kv *kv[2 * SCN_MAX_KV];
		const struct load_ops *ops = load_find(p->loads[j]);
		struct load l;
		int nkv = scn_params(&r->scn, p, ops->name, kv, (int)PF_ARRAY_SIZE(kv)), ret = 0;

		if (load_init(&l, ops, NULL) < 0) {
			run_pre_error(r, PF_EXIT_INTERNAL, "out of memory");
			return;
		}
		for (k = 0; k < nkv && !ret; k++)
			ret = load_set(&l, kv[k]->key, kv[k]->value);
		if (!ret && ops->check)
			ret = ops->check(&l);
		if (ret < 0 && !run_pre_seen(r, l.why, NULL, 0))
			run_pre_error(r, PF_EXIT_ENV, "phase %s: load %s cannot start: %s", p->name, ops->name, l.why);
		load_free(&l);
	}
}

/*
 * run_precheck - everything the scenario names, before anything is created
 * or started: the run directory and its free space, privileges, tracefs,
 * the budgets, the tools and programs of each phase, the app's profile,
 * configuration and arguments and the simulator's (asked with --check), the
 * loads. Every failure is one line on stderr; returns the exit code (0 all
 * passed; 2 bad input outranks 3 environment), r->notes says what passed.
 */
static int run_precheck(struct run *r)
{
	static const char *const app_keys[] = { "profile", "config", "args" }, *const sim_keys[] = { "sim_args" };
	char path[PATH_MAX];
	bool root = geteuid() == 0, traced = false;
	int i;

	if (!root)
		run_pre_error(r, PF_EXIT_ENV, "needs root (realtime priorities, namespaces, tracing)");
	run_pre_dir(r);
	run_pre_budgets(r);
	run_pre_compare(r);
	for (i = 0; i < r->scn.nphases; i++) {
		const struct scn_phase *p = &r->scn.phases[i];

		if (p->measure == SCN_CYCLICTEST && pf_proc_which("cyclictest") && !run_pre_seen(r, "cyclictest", NULL, 0))
			run_pre_error(r, PF_EXIT_ENV, "phase %s: cyclictest: not found in PATH (package rt-tests)", p->name);
		if (p->measure == SCN_FLIGHTAPP) {
			bool sim = !strcmp(scn_param(&r->scn, p, "flightapp", "sim", "no"), "yes");

			if (!run_exists(run_path(path, sizeof(path), r->bindir, "flightapp")))
				run_pre_error(r, PF_EXIT_ENV, "phase %s: %s: not built (the flight application)", p->name, path);
			else
				run_pre_program(r, p, "flightapp", app_keys, 3);
			if (sim && !run_exists(run_path(path, sizeof(path), r->bindir, "sensorsim")))
				run_pre_error(r, PF_EXIT_ENV, "phase %s: %s: not built (the simulator)", p->name, path);
			else if (sim)
				run_pre_program(r, p, "sensorsim", sim_keys, 1);
		}
		if (run_traced(r, p)) {
			traced = true;
			if (!run_has_command(r, "record"))
				run_pre_error(r, PF_EXIT_ENV, "phase %s: 'preflight record' is not in this build", p->name);
		}
		if (root)
			run_pre_loads(r, p);
	}
	if (root && traced && access("/sys/kernel/tracing/instances", W_OK) &&
	    access("/sys/kernel/debug/tracing/instances", W_OK))
		run_pre_error(r, PF_EXIT_ENV, "tracefs: no writable instances/ in /sys/kernel/tracing (mount -t tracefs "
			      "nodev /sys/kernel/tracing)");
	if (!r->code)
		run_pre_note(r, "pre-flight: %s: %d phases, %lld s: every check passed", r->scn.name, r->scn.nphases,
			     (long long)(scn_total_ns(&r->scn) / PF_NS_PER_SEC));
	return r->code;
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
static char *run_phase_dir(struct run *r, int idx, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%02d-%s", r->dir, idx + 1, r->scn.phases[idx].name);
	return buf;
}

/* run_facts - what 'preflight analyze' folds into a results.json beside its analysis */
struct run_facts {
	char info[PATH_MAX];	/* the run's facts (scenario, partial, phases): a path for --run */
	int info_fd;		/* the memory file behind it (no file a killed run could leave) */
	char loads[PATH_MAX];	/* loads.json, written before the analysis */
	char fsw[PATH_MAX];
};

/* run_json_ok - the file holds a JSON object (one cut short by a full disk does not) */
static bool run_json_ok(const char *path)
{
	json_t *j = run_exists(path) ? json_load_file(path, 0, NULL) : NULL;
	bool ok = json_is_object(j);

	json_decref(j);
	return ok;
}

/*
 * run_facts_argv - append to argv (at *n) the options that give analyze the
 * run's own facts (--run, --partial) and phase phase_idx's loads and flight
 * software statistics (--loads/--phase, --fsw when its fsw.json exists)
 */
static void run_facts_argv(struct run *r, struct run_facts *f, int phase_idx, char **argv, int *n)
{
	char pdir[PATH_MAX];

	argv[(*n)++] = "--run";
	argv[(*n)++] = f->info;
	if (r->o->all_threads)
		argv[(*n)++] = "--all-threads";
	if (r->partial)
		argv[(*n)++] = "--partial";
	argv[(*n)++] = "--loads";
	argv[(*n)++] = f->loads;
	if (phase_idx < 0 || phase_idx >= (int)json_array_size(r->phases))
		return;
	argv[(*n)++] = "--phase";
	argv[(*n)++] = r->scn.phases[phase_idx].name;
	if (run_json_ok(run_path(f->fsw, sizeof(f->fsw), run_phase_dir(r, phase_idx, pdir, sizeof(pdir)),
				"fsw.json"))) {
		argv[(*n)++] = "--fsw";
		argv[(*n)++] = f->fsw;
	}
}

/*
 * run_facts_write - the run's facts for analyze --run, in a memory file that
 * analyze opens through /proc/<runner>/fd/ (run_analyze closes it); 0 or -1
 */
static int run_facts_write(struct run *r, struct run_facts *f)
{
	json_t *info = json_pack("{s:s, s:b, s:O}", "scenario", r->scn.name, "partial", r->partial,
				 "phases", r->phases);
	int ret = -1;

	run_path(f->loads, sizeof(f->loads), r->dir, "loads.json");
	f->info[0] = '\0';
	f->info_fd = memfd_create("preflight-run-facts", MFD_CLOEXEC);
	if (f->info_fd < 0)
		goto out;
	snprintf(f->info, sizeof(f->info), "/proc/%d/fd/%d", (int)getpid(), f->info_fd);
	if (info && !json_dumpfd(info, f->info_fd, JSON_INDENT(2) | JSON_REAL_PRECISION(10)))
		ret = 0;
out:
	json_decref(info);
	return ret;
}

/*
 * run_baseline_trace_argv - a traced cyclictest phase's trace for analyze:
 * --trace its trace.dat (path into 'trace'), or --snapshots its directory
 * with the flight recorder; returns the new count
 */
static int run_baseline_trace_argv(struct run *r, int idx, const char *pdir, char **argv, int n, char *trace)
{
	if (!run_traced(r, &r->scn.phases[idx]))
		return n;
	if (run_exists(run_path(trace, PATH_MAX, pdir, "trace.dat"))) {
		argv[n++] = "--trace";
		argv[n++] = trace;
	} else {
		argv[n++] = "--snapshots";
		argv[n++] = strcpy(trace, pdir);
	}
	return n;
}

/*
 * run_analyze - results.json of each phase, and the top-level one (app beside
 * its baseline). The app phase the top-level one analyses is read once, there:
 * a second analysis of its trace in its directory would cost the same time
 * again and write the same numbers twice.
 */
static int run_analyze(struct run *r)
{
	char pdir[PATH_MAX], res[PATH_MAX], trace[PATH_MAX], joblog[PATH_MAX], ct[PATH_MAX], log[PATH_MAX];
	char snapdir[PATH_MAX];
	struct run_facts facts;
	char *argv[32];
	int i, n, code;

	if (!run_has_command(r, "analyze")) {
		run_fail(r, PF_EXIT_ENV, "'preflight analyze' is not in this build: no results.json");
		return -1;
	}
	if (run_facts_write(r, &facts)) {
		run_fail(r, PF_EXIT_ENV, "the run's facts for analyze: cannot write: %s", strerror(errno));
		if (facts.info_fd >= 0)
			close(facts.info_fd);
		return -1;
	}
	run_path(log, sizeof(log), r->dir, "analyze.log");
	for (i = 0; i < (int)json_array_size(r->phases); i++) {
		if (r->scn.phases[i].measure == SCN_NONE || i == r->app_phase)
			continue;
		run_phase_dir(r, i, pdir, sizeof(pdir));
		if (!run_exists(run_path(trace, sizeof(trace), pdir, "trace.dat")) &&
		    !run_exists(run_path(joblog, sizeof(joblog), pdir, "jobs.csv")) &&
		    !run_exists(run_path(ct, sizeof(ct), pdir, "cyclictest.json"))) {
			run_log(r, "%s: nothing measured to analyze, no results.json", pdir);
			continue;
		}
		n = 0;
		argv[n++] = r->self;
		argv[n++] = "analyze";
		argv[n++] = pdir;
		if (r->scn.phases[i].measure == SCN_CYCLICTEST) {
			/* a baseline: its cyclictest, with the trace it asked for (cyclictest.trace), never a job log */
			argv[n - 1] = "--cyclictest";
			argv[n++] = run_path(ct, sizeof(ct), pdir, "cyclictest.json");
			n = run_baseline_trace_argv(r, i, pdir, argv, n, trace);
			argv[n++] = "-o";
			argv[n++] = run_path(res, sizeof(res), pdir, "results.json");
		}
		run_facts_argv(r, &facts, i, argv, &n);
		argv[n++] = "-q";
		argv[n] = NULL;
		run_exec(r, argv, "/dev/null", log);
	}
	n = 0;
	argv[n++] = r->self;
	argv[n++] = "analyze";
	if (r->app_phase >= 0) {
		run_phase_dir(r, r->app_phase, pdir, sizeof(pdir));
		if (run_exists(run_path(trace, sizeof(trace), pdir, "trace.dat"))) {
			argv[n++] = "--trace";
			argv[n++] = trace;
		} else {
			argv[n++] = "--snapshots";	/* flight recorder: trace-NNN.dat, if any */
			argv[n++] = strcpy(snapdir, pdir);	/* pdir is reused for the baseline below */
		}
		if (run_exists(run_path(joblog, sizeof(joblog), pdir, "jobs.csv"))) {
			argv[n++] = "--joblog";
			argv[n++] = joblog;
		}
	}
	if (r->baseline_phase >= 0) {
		run_phase_dir(r, r->baseline_phase, pdir, sizeof(pdir));
		if (run_exists(run_path(ct, sizeof(ct), pdir, "cyclictest.json"))) {
			argv[n++] = "--cyclictest";
			argv[n++] = ct;
		}
		if (r->app_phase < 0)	/* no app: the baseline's trace, if it has one, is the run's */
			n = run_baseline_trace_argv(r, r->baseline_phase, pdir, argv, n, trace);
	}
	argv[n++] = "-o";
	argv[n++] = run_path(res, sizeof(res), r->dir, "results.json");
	run_facts_argv(r, &facts, r->app_phase >= 0 ? r->app_phase : r->baseline_phase >= 0 ?
		       r->baseline_phase : (int)json_array_size(r->phases) - 1, argv, &n);
	argv[n++] = "-q";
	argv[n] = NULL;
	code = run_exec(r, argv, "/dev/null", log);
	close(facts.info_fd);
	if (code != 0) {
		run_fail(r, PF_EXIT_ENV, "preflight analyze exited with %d (see %s)", code, log);
		return -1;
	}
	return 0;
}

/*
 * run_check - verdicts.json (what summary, report and history read,
 * docs/verdicts.md) and verdicts.tap from the budgets; the check's exit code
 * (0 pass or incomplete, 1 fail, not valid or no verdict) or -1
 */
static int run_check(struct run *r)
{
	char res[PATH_MAX], tap[PATH_MAX], json[PATH_MAX], log[PATH_MAX], budgets[PATH_MAX];
	char *argv[] = { r->self, "check", run_path(res, sizeof(res), r->dir, "results.json"),
			 "--budgets", run_path(budgets, sizeof(budgets), r->dir, "budgets.ini"),
			 "-o", run_path(tap, sizeof(tap), r->dir, "verdicts.tap"),
			 "--json", run_path(json, sizeof(json), r->dir, "verdicts.json"), NULL };
	int code;

	if (!r->budgets[0]) {	/* found before the first phase: only a build without 'check' gets here */
		run_fail(r, PF_EXIT_ENV, "no budgets file (%s): no verdicts", r->budgets_src);
		return -1;
	}
	if (!run_has_command(r, "check")) {
		run_fail(r, PF_EXIT_ENV, "'preflight check' is not in this build: no verdicts");
		return -1;
	}
	code = run_exec(r, argv, "/dev/null", run_path(log, sizeof(log), r->dir, "check.log"));
	if (code != 0 && code != 1) {
		run_fail(r, PF_EXIT_ENV, "preflight check exited with %d (see %s)", code, log);
		return -1;
	}
	return code;
}

int run_report_compare(const struct run_opts *o, char **argv, int n)
{
	const struct { const char *opt, *arg; } cmp[] = {
		{ "--previous", o->previous }, { "--baseline", o->baseline }, { "--history", o->history },
	};

	for (size_t i = 0; i < PF_ARRAY_SIZE(cmp); i++)
		if (cmp[i].arg) {
			argv[n++] = (char *)cmp[i].opt;
			argv[n++] = (char *)cmp[i].arg;
		}
	argv[n] = NULL;
	return n;
}

/*
 * run_html_report - report.html and report.pdf by `preflight report` (after
 * the checksums, which they are not part of); a report that cannot be
 * written is said, and does not change the run's verdict
 */
static void run_html_report(struct run *r)
{
	char html[PATH_MAX], pdf[PATH_MAX], log[PATH_MAX];
	char *argv[16] = { r->self, "report", r->dir, "-o", run_path(html, sizeof(html), r->dir, "report.html"),
			   "--pdf", run_path(pdf, sizeof(pdf), r->dir, "report.pdf") };
	int code;

	run_report_compare(r->o, argv, 7);

	if (r->o->no_report)
		return;
	if (!run_has_command(r, "report")) {
		pf_err("'preflight report' is not in this build: no report.html");
		return;
	}
	code = run_exec(r, argv, "/dev/null", run_path(log, sizeof(log), r->dir, "report.log"));
	if (code != 0)
		pf_err("preflight report exited with %d (see %s)", code, log);
}

/* run_is_dat - a trace file of a phase: trace.dat, or a flight-recorder snapshot trace-NNN.dat */
static bool run_is_dat(const char *name)
{
	size_t n = strlen(name);

	return n >= 9 && !strncmp(name, "trace", 5) && !strcmp(name + n - 4, ".dat");
}

/* run_dat_version - the .dat file format version from the file's header, 0 when unreadable */
static int run_dat_version(const char *path)
{
	static const char magic[] = "\027\010\104tracing";
	char head[16] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, head, sizeof(head) - 1);

	if (fd >= 0)
		close(fd);
	if (n < (ssize_t)sizeof(magic) || memcmp(head, magic, sizeof(magic) - 1))
		return 0;
	return atoi(head + sizeof(magic) - 1);
}

/*
 * run_compress_dat - rewrite a .dat as version 7 with zstd-compressed
 * sections by trace-cmd convert (the same events, options and CPU statistics;
 * analyze reads both): into a temporary name, then renamed over the original.
 * 0, or -1 with the original kept
 */
static int run_compress_dat(struct run *r, const char *path, const char *log)
{
	const char *tmp;
	char *argv[] = { "trace-cmd", "convert", "--file-version", "7", "--compression", "zstd",
			 "-i", (char *)path, "-o", NULL, NULL };
	bool ok;

	if (pf_outfile_begin(path, &tmp))
		return -1;
	argv[9] = (char *)tmp;
	ok = !run_exec(r, argv, "/dev/null", log) && run_dat_version(tmp) == 7;
	return pf_outfile_end(path, ok) || !ok ? -1 : 0;
}

/*
 * run_keep_traces - after the analysis, each phase's trace files are kept
 * compressed (version 7, zstd) or removed, as --keep-trace says: always,
 * on-fail (kept when a requirement failed or the run could not be done), or
 * never. What became of each goes into run.json's traces and run.log
 */
static void run_keep_traces(struct run *r, int check)
{
	static const char *const when[] = { "always", "always", "on-fail", "never" };
	bool failed = r->code != 0 || check != 0 || run_signal;
	bool keep = r->o->keep_trace <= RUN_KEEP_ALWAYS || (r->o->keep_trace == RUN_KEEP_ON_FAIL && failed);
	char pdir[PATH_MAX], path[PATH_MAX + 256], log[PATH_MAX];
	struct dirent *de;
	struct stat st;
	int i, v;
	DIR *d;

	run_path(log, sizeof(log), r->dir, "analyze.log");
	for (i = 0; i < (int)json_array_size(r->phases); i++) {
		run_phase_dir(r, i, pdir, sizeof(pdir));
		if (!(d = opendir(pdir)))
			continue;
		while ((de = readdir(d))) {
			off_t before;
			const char *did;

			if (!run_is_dat(de->d_name) || pf_path_join(path, sizeof(path), pdir, de->d_name) ||
			    stat(path, &st) || !S_ISREG(st.st_mode))
				continue;
			before = st.st_size;
			if (!keep) {
				did = unlink(path) ? "kept: cannot remove" : "removed";
			} else if ((v = run_dat_version(path)) == 7) {
				did = "kept";
			} else if (v != 6) {
				did = "kept as recorded: not a trace-cmd file";
			} else {
				did = run_compress_dat(r, path, log) ? "kept uncompressed: trace-cmd convert failed"
					: "compressed";
			}
			if (stat(path, &st))
				st.st_size = 0;
			run_log(r, "%s: %s (%lld -> %lld bytes, --keep-trace %s)", path + strlen(r->dir) + 1, did,
				(long long)before, (long long)st.st_size, when[r->o->keep_trace]);
			json_array_append_new(r->traces, json_pack("{s:s, s:s, s:I, s:I}", "file",
				path + strlen(r->dir) + 1, "action", did, "bytes_recorded", (json_int_t)before,
				"bytes", (json_int_t)(keep ? st.st_size : 0)));
		}
		closedir(d);
	}
}

/*
 * run_manifest - run.json: what ran, how it ended, which pieces were
 * missing; before the end (complete false) it says the run is under way by
 * which runner, so a runner killed outright leaves a run directory that says so
 */
static void run_manifest(struct run *r, bool complete)
{
	char path[PATH_MAX], ended[32], uuid[40];
	const char *started_utc = r->started_utc;
	json_t *m;

	run_utc(ended, sizeof(ended), true);
	/* the run's identity in a history database (preflight history, docs/ci.md) */
	if (pf_read_file("/proc/sys/kernel/random/uuid", uuid, sizeof(uuid)) < 0)
		uuid[0] = '\0';
	m = json_pack("{s:s, s:s?, s:O?, s:{s:s, s:s, s:s}, s:s, s:s, s:s, s:b, s:s?, s:i, s:s?, s:s?, s:O, s:O, s:O}",
		      "schema", "preflight-run/1", "uuid", uuid[0] ? uuid : NULL, "preflight", r->identity,
		      "scenario", "name", r->scn.name, "file", "scenario.ini", "source", r->scn.path,
		      "dir", r->dir, "started_utc", started_utc, "ended_utc", ended,
		      "partial", r->partial,
		      "interrupted_by", run_signal ? strsignal(run_signal) : NULL,
		      "exit_code", r->code,
		      "failure", r->failure[0] ? r->failure : NULL,
		      "budgets", r->budgets[0] ? "budgets.ini" : NULL,
		      "phases", r->phases, "traces", r->traces, "warnings", r->warnings);
	if (m && !complete) {
		json_object_del(m, "ended_utc");
		json_object_set_new(m, "partial", json_true());
		json_object_set_new(m, "exit_code", json_null());
		json_object_set_new(m, "runner_pid", json_integer(getpid()));
		if (r->current_phase >= 0) {
			const struct scn_phase *p = &r->scn.phases[r->current_phase];
			char dir[PATH_MAX];

			json_object_set_new(m, "running_phase", json_pack("{s:s, s:s, s:s, s:f}", "name", p->name,
					    "dir", strrchr(run_phase_dir(r, r->current_phase, dir, sizeof(dir)), '/') + 1,
					    "measure", scn_measure_name(p->measure),
					    "planned_s", (double)p->duration_ns / PF_NS_PER_SEC));
		}
	}
	if (m)
		json_object_set_new(m, "complete", json_boolean(complete));
	if (m && r->disk_full)
		json_object_set_new(m, "disk_full", json_true());
	if (m && (r->o->previous || r->o->baseline || r->o->history))	/* what the report compares the run with */
		json_object_set_new(m, "compared_with", json_pack("{s:s?, s:s?, s:s?}", "previous", r->o->previous,
				    "baseline", r->o->baseline, "history", r->o->history));
	run_path(path, sizeof(path), r->dir, "run.json");
	if (!m)
		pf_err("%s: cannot write: %s", path, strerror(ENOMEM));
	else
		(void)!pf_outfile_json(path, m, JSON_INDENT(2) | JSON_REAL_PRECISION(10));	/* said why */
	json_decref(m);
}

/* run_report - report.txt, the plain-text summary by `preflight summary`; its exit code or -1 */
static int run_report(struct run *r)
{
	char path[PATH_MAX];
	char *argv[] = { r->self, "summary", r->dir, "-o", run_path(path, sizeof(path), r->dir, "report.txt"),
			 NULL };

	return run_exec(r, argv, "/dev/null", "-");
}

/* run_finish - loads.json, analysis, check, manifest, checksums, report; the exit code */
static int run_finish(struct run *r)
{
	char path[PATH_MAX];
	json_t *loads;
	int check = -1;
	char *sums[] = { "sh", "-c",
			 "cd \"$1\" && find . -type f ! -name SHA256SUMS ! -name report.txt "
			 "! -name qualification.txt -print0 | sort -z | xargs -0 sha256sum",
			 "sh", r->dir, NULL };

	if (run_disk_check(r, "after the phases") && r->reserve_fd >= 0) {
		close(r->reserve_fd);	/* the room for run.json, the analysis and the summary */
		r->reserve_fd = -1;
	}
	loads = json_pack("{s:s, s:s, s:b, s:O}", "schema", "preflight-loads/1", "scenario", r->scn.name,
			  "partial", r->partial, "phases", r->load_phases);
	if (pf_outfile_json(run_path(path, sizeof(path), r->dir, "loads.json"), loads,
			    JSON_INDENT(2) | JSON_REAL_PRECISION(10)))
		run_fail(r, PF_EXIT_ENV, "%s: not written", path);
	json_decref(loads);
	if (json_array_size(r->phases) && run_analyze(r) == 0)
		check = run_check(r);
	run_keep_traces(r, check);
	if (!r->code && check >= 0)
		r->code = check;
	if (run_signal && r->code != PF_EXIT_USAGE) {
		snprintf(r->failure, sizeof(r->failure), "interrupted by %s: partial results", strsignal(run_signal));
		r->code = PF_EXIT_ENV;
	}
	run_manifest(r, true);
	run_log(r, "end: exit %d%s%s; then SHA256SUMS and report.txt", r->code,
		   r->failure[0] ? ": " : "", r->failure);
	fclose(r->log);	/* run.log is evidence too: complete before the checksums */
	r->log = NULL;
	if (run_exec(r, sums, run_path(path, sizeof(path), r->dir, "SHA256SUMS"), "/dev/null"))
		pf_err("%s: checksums not written", path);
	run_html_report(r);
	if (run_report(r))
		pf_err("%s/report.txt: not written", r->dir);
	return r->code;
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
	"       preflight run --check SCENARIO [-o RUN_DIR] [--budgets FILE]\n"
	"\n"
	"Runs the phases of SCENARIO (a name in bench/scenarios/, or an .ini path; see\n"
	"docs/scenarios.md), then analyses and checks what was recorded and writes the\n"
	"run directory: run.json, run.log, scenario.ini, budgets.ini, sysinfo.json,\n"
	"loads.json, results.json, verdicts.tap, verdicts.json, report.txt, SHA256SUMS,\n"
	"report.html and report.pdf (preflight report) and one NN-<phase>/ directory per\n"
	"phase. Progress\n"
	"is redrawn in place on a terminal, else printed as a plain line every 10 s (CI\n"
	"logs). Ctrl-C stops everything, keeps what was recorded, analyses it and marks\n"
	"it partial. The recorder and the loads' helpers run on the housekeeping CPUs:\n"
	"outside the app's (or cyclictest's) CPUs and outside isolcpus / nohz_full; when\n"
	"none is free, run.json's warnings and the summary say so.\n"
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
