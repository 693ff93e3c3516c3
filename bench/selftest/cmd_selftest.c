/*
 * cmd_selftest.c - `preflight selftest [-o DIR] [--quick] [--cpu N]`: the
 * tool proves its own accuracy on the machine under test. It records
 * selftest-inject (the flight executive with injected delays of known size
 * and cause, bench/selftest/inject.c) with `preflight record`, records a
 * second short run under a storm with a tiny ring buffer (lost events),
 * analyses both with `preflight analyze`, measures the instrumentation's cost
 * with flightapp-perf, and compares every figure with the injector's own
 * time stamps (st_compare.c). Output: DIR/selftest.json and TAP on stdout.
 *
 * Like `preflight run` it reaches the other stages only through child
 * processes and files (docs/ARCHITECTURE.md). `--from DIR` analyses and
 * compares a recorded selftest again (what `make check` does on the fixture
 * in t/fixtures/selftest/), without recording anything.
 */
#define _GNU_SOURCE
#include "command.h"
#include "common.h"
#include "st_compare.h"
#include "datafile.h"
#include "outfile.h"
#include "proc.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int cmd_selftest_run(int argc, char **argv);

const struct pf_command cmd_selftest = {
	.name = "selftest",
	.summary = "measure preflight's own accuracy here: injected delays of known size, recovered",
	.usage =
	"usage: preflight selftest [-o DIR] [--quick] [--cpu N]\n"
	"       preflight selftest --from DIR [-o OUT_DIR]\n"
	"\n"
	"Runs the flight executive with an injector beside it that delays chosen jobs by\n"
	"known amounts (a higher-priority hog over a release or inside a job, over the\n"
	"tick's timer, extra work past the period, a move to another CPU, a GPS-like pipe\n"
	"event, a mutex a lower-priority thread holds, with and without priority\n"
	"inheritance), records it (preflight record), analyses it (preflight analyze) and\n"
	"compares every figure with the injector's own CLOCK_MONOTONIC time stamps. A\n"
	"second short run under a storm with a tiny ring buffer checks the lost-event\n"
	"accounting; flightapp-perf gives the instrumentation's cost. Ten cases\n"
	"(docs/selftest.md); per case the error distribution (min / p50 / p99 / max) and\n"
	"pass / fail go to DIR/selftest.json, and TAP to stdout. Needs root and tracefs.\n"
	"\n"
	"options:\n"
	"  -o, --output DIR   where the traces, logs and selftest.json go\n"
	"                     (default: runs/selftest-<UTC time>)\n"
	"  -Q, --quick        120 injections per case, about 25 s (default: 200 per case,\n"
	"                     500 for blocking)\n"
	"  -c, --cpu N        the victims' CPU; the tick runs on another CPU of the\n"
	"                     command's affinity, or with one CPU on the same (default:\n"
	"                     the last CPU of its affinity)\n"
	"      --from DIR     analyse and compare the recorded selftest in DIR again\n"
	"                     (trace.dat, jobs.csv, inject.csv, lost.dat, lost-jobs.csv,\n"
	"                     lost-summary.txt, perf.txt), nothing recorded (default: off)\n"
	"  -h, --help         this text\n"
	"\n"
	"exit: 0 every case passed, 1 a case failed, 2 bad usage or input, 3 environment\n"
	"      (root, tracefs, a program not built), 4 internal\n",
	.run = cmd_selftest_run,
};

/* the files of one selftest directory */
struct st_dir {
	char out[PATH_MAX - 64];		/* where results go */
	char in[PATH_MAX - 64];			/* where the recorded inputs are */
	char self[PATH_MAX], bindir[PATH_MAX - 64];
};

/* st_path - DIR/NAME in a static rotation of buffers (a few live at once); "" when too long */
static const char *st_path(const char *dir, const char *name)
{
	static char buf[8][PATH_MAX];
	static int i;

	i = (i + 1) % 8;
	if (pf_path_join(buf[i], sizeof(buf[i]), dir, name))
		return buf[i];	/* "": fails on use, never names another file */
	return buf[i];
}

/*
 * st_childv - run a program to the end (argv NULL-terminated), stdout to
 * out_path and stderr to err_path (NULL: /dev/null, "-": ours); its exit
 * code, or -errno when it could not start
 */
static int st_childv(const char *out_path, const char *err_path, char **argv)
{
	struct pf_proc p;
	int ret;

	fflush(stdout);
	ret = pf_proc_spawn(&p, argv, out_path, err_path, PF_PROC_PGRP);
	return ret < 0 ? ret : pf_proc_wait(&p);
}

/* st_child - st_childv with the arguments listed, NULL-terminated */
static int st_child(const char *out_path, const char *err_path, const char *arg0, ...)
{
	char *argv[40];
	va_list ap;
	int i = 0;

	argv[i++] = (char *)arg0;
	va_start(ap, arg0);
	while (i < 39 && (argv[i] = va_arg(ap, char *)))
		i++;
	va_end(ap);
	argv[i] = NULL;
	return st_childv(out_path, err_path, argv);
}

/* st_last_line - the last non-empty line of a file (for a child's reason), "" when none */
static const char *st_last_line(const char *path)
{
	static char line[512], buf[512];
	FILE *f = fopen(path, "re");

	line[0] = '\0';
	while (f && fgets(buf, sizeof(buf), f))
		if (buf[0] != '\n')
			snprintf(line, sizeof(line), "%s", buf);
	if (f)
		fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return line;
}

/* st_record - record one injector run; 0 or an exit code after saying why */
static int st_record(struct st_dir *d, const char *dat, const char *joblog, const char *log,
		     const char *cpu, bool quick, bool storm)
{
	char inst[64], inject[PATH_MAX], errlog[PATH_MAX], *argv[32];
	const char *extra = storm ? "--storm" : quick ? "--quick" : NULL;
	int ret, n = 0;

	snprintf(inst, sizeof(inst), "preflight-selftest-%d%s", (int)getpid(), storm ? "-storm" : "");
	snprintf(inject, sizeof(inject), "%s/selftest-inject", d->bindir);
	snprintf(errlog, sizeof(errlog), "%s", st_path(d->out, storm ? "lost-record.log" : "record.log"));
	argv[n++] = (char *)d->self;
	argv[n++] = "record";
	argv[n++] = "-z";
	argv[n++] = "--no-kallsyms";
	argv[n++] = "-e";
	argv[n++] = "default,sched:sched_pi_setprio";	/* the pi case: the holder's boost (docs/results.md) */
	argv[n++] = "-i";
	argv[n++] = inst;
	argv[n++] = "-o";
	argv[n++] = (char *)st_path(d->out, dat);
	argv[n++] = "-b";
	argv[n++] = storm ? "4" : "16384";
	argv[n++] = "--buffer-percent";
	argv[n++] = storm ? "100" : "25";
	if (storm) {	/* the recorder is pinned under the storm (inject.c: st_storm_main) */
		argv[n++] = "--cpus";
		argv[n++] = (char *)cpu;
	}
	argv[n++] = "--";
	argv[n++] = inject;
	argv[n++] = "--trace-instance";
	argv[n++] = inst;
	argv[n++] = "--joblog";
	argv[n++] = (char *)st_path(d->out, joblog);
	argv[n++] = "--log";
	argv[n++] = (char *)st_path(d->out, log);
	argv[n++] = "--cpu";
	argv[n++] = (char *)cpu;
	if (extra)
		argv[n++] = (char *)extra;
	argv[n] = NULL;	/* execv's end: the quick and storm runs had none (EFAULT once the stack held no 0 there) */
	ret = st_childv(NULL, errlog, argv);
	if (ret < 0)
		return pf_fail(PF_EXIT_INTERNAL, "preflight record: cannot start: %s", strerror(-ret));
	if (ret == PF_EXIT_ENV)
		return pf_fail(PF_EXIT_ENV, "preflight record: %s (see %s)", st_last_line(errlog), errlog);
	if (ret || access(st_path(d->out, log), R_OK))
		return pf_fail(ret == 1 || ret == PF_EXIT_ENV ? PF_EXIT_ENV : PF_EXIT_INTERNAL,
			       "the injector run failed (exit %d): %s (see %s)", ret, st_last_line(errlog), errlog);
	return 0;
}

/* st_from_check - every input a 'selftest -o' directory holds is in d->in; 0 or exit 2 after saying which is not */
static int st_from_check(const struct st_dir *d)
{
	static const char *const need[] = { "trace.dat", "jobs.csv", "inject.csv", "lost.dat", "lost-jobs.csv",
					    "lost-summary.txt", "perf.txt" };
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(need); i++)
		if (access(st_path(d->in, need[i]), R_OK))
			return pf_fail(PF_EXIT_USAGE, "--from %s: no readable %s (%s; a directory 'selftest -o' "
				       "wrote holds trace.dat, jobs.csv, inject.csv, lost.dat, lost-jobs.csv, "
				       "lost-summary.txt and perf.txt)", d->in, need[i], strerror(errno));
	return 0;
}

/* st_analyze - preflight analyze of one recorded run into results / csv dir; 0 or an exit code */
static int st_analyze(struct st_dir *d, const char *dat, const char *joblog, const char *results, const char *csv)
{
	char csvdir[PATH_MAX], errlog[PATH_MAX];
	int ret;

	snprintf(csvdir, sizeof(csvdir), "%s", st_path(d->out, csv));
	snprintf(errlog, sizeof(errlog), "%s", st_path(d->out, "analyze.log"));
	if (mkdir(csvdir, 0755) && errno != EEXIST)
		return pf_fail(PF_EXIT_ENV, "%s: %s", csvdir, strerror(errno));
	ret = st_child(NULL, errlog, d->self, "analyze", "-q", "--trace", st_path(d->in, dat),
		       "--joblog", st_path(d->in, joblog), "--top", "1000", "--csv", csvdir,
		       "-o", st_path(d->out, results), NULL);
	if (ret)
		return pf_fail(ret == PF_EXIT_USAGE ? PF_EXIT_USAGE : PF_EXIT_ENV, "preflight analyze %s: exit %d: %s",
			       st_path(d->in, dat), ret, st_last_line(errlog));
	return 0;
}

/* st_recorded_lost - the recorder's lost-event count from a 'record --summary' output, -1 when absent */
static int64_t st_recorded_lost(const char *path)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen(path, "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "lost %lld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

#define ST_RT_RUNTIME "/proc/sys/kernel/sched_rt_runtime_us"

/*
 * st_rt_throttle - RT throttling on for the selftest: when sched_rt_runtime_us
 * is -1 (off), write 950000 (the kernel's default: realtime threads leave the
 * others 5 % of each second) and return 1, so that st_rt_throttle_restore
 * puts -1 back; 0 when it was on, -errno when it could not be read or set
 */
static int st_rt_throttle(void)
{
	char text[32] = "";
	FILE *f = fopen(ST_RT_RUNTIME, "re");
	bool off;

	if (!f)
		return -errno;
	off = fgets(text, sizeof(text), f) && atol(text) < 0;
	fclose(f);
	if (!off)
		return 0;
	f = fopen(ST_RT_RUNTIME, "we");
	if (!f || fputs("950000\n", f) < 0 || fclose(f)) {
		if (f)
			fclose(f);
		return -EPERM;
	}
	pf_err("sched_rt_runtime_us was -1 (RT throttling off): 950000 for the selftest, -1 again after it");
	return 1;
}

/* st_rt_throttle_restore - sched_rt_runtime_us back to -1 when st_rt_throttle changed it */
static void st_rt_throttle_restore(int was)
{
	FILE *f;

	if (was != 1 || !(f = fopen(ST_RT_RUNTIME, "we")))
		return;
	fputs("-1\n", f);
	fclose(f);
}

/* st_live - record the two runs, the recorder's summary of the storm trace and the perf figures; 0 or an exit code */
static int st_live(struct st_dir *d, const char *cpu, bool quick)
{
	char perf[PATH_MAX];
	int ret, throttle;

	if (geteuid() != 0)
		return pf_fail(PF_EXIT_ENV, "needs root (realtime priorities, locked memory, tracefs)");
	snprintf(perf, sizeof(perf), "%s/flightapp-perf", d->bindir);
	if (access(st_path(d->bindir, "selftest-inject"), X_OK) || access(perf, X_OK))
		return pf_fail(PF_EXIT_ENV, "%s: selftest-inject or flightapp-perf not built (make)", d->bindir);
	if ((throttle = st_rt_throttle()) < 0)
		return pf_fail(PF_EXIT_ENV, "%s: %s (RT throttling must be on for the selftest)", ST_RT_RUNTIME,
			       strerror(-throttle));
	pf_err("recording the injections (%s)", quick ? "quick" : "full");
	ret = st_record(d, "trace.dat", "jobs.csv", "inject.csv", cpu, quick, false);
	if (!ret) {
		pf_err("recording the storm with a tiny ring buffer");
		ret = st_record(d, "lost.dat", "lost-jobs.csv", "lost-inject.csv", cpu, quick, true);
	}
	st_rt_throttle_restore(throttle);
	if (ret)
		return ret;
	ret = st_child(st_path(d->out, "lost-summary.txt"), NULL, d->self, "record", "--summary",
		       st_path(d->out, "lost.dat"), NULL);
	if (ret)
		return pf_fail(PF_EXIT_ENV, "preflight record --summary %s: exit %d", st_path(d->out, "lost.dat"), ret);
	pf_err("measuring the instrumentation (flightapp-perf)");
	ret = st_child(st_path(d->out, "perf.txt"), NULL, perf, NULL);
	if (ret)
		pf_err("flightapp-perf: exit %d (the probe case fails)", ret);
	return 0;
}

/* st_finish - analyse, compare, write selftest.json and TAP; the exit code */
static int st_finish(struct st_dir *d)
{
	struct st_result res[ST_NCASES + 1];
	struct st_jobs jobs = { 0 }, joblog = { 0 }, lost_jobs = { 0 }, lost_joblog = { 0 };
	struct st_log log = { 0 };
	struct st_inputs in = { 0 };
	json_t *results = NULL, *lost_results = NULL, *doc = NULL;
	char err[1024];
	int code, failed, c, skipped = 0;

	if ((code = st_analyze(d, "trace.dat", "jobs.csv", "results.json", "analysis")) ||
	    (code = st_analyze(d, "lost.dat", "lost-jobs.csv", "lost-results.json", "lost-analysis")))
		return code;
	if (st_log_read(st_path(d->in, "inject.csv"), &log, err, sizeof(err)) ||
	    st_jobs_read(st_path(d->out, "analysis/results-jobs.csv"), &jobs, err, sizeof(err)) ||
	    st_jobs_read(st_path(d->out, "lost-analysis/results-jobs.csv"), &lost_jobs, err, sizeof(err))) {
		code = pf_fail(PF_EXIT_USAGE, "%s", err);
		goto out;
	}
	if ((code = st_joblog_read(st_path(d->in, "jobs.csv"), &joblog)) ||
	    (code = st_joblog_read(st_path(d->in, "lost-jobs.csv"), &lost_joblog)))
		goto out;
	results = json_load_file(st_path(d->out, "results.json"), 0, NULL);
	lost_results = json_load_file(st_path(d->out, "lost-results.json"), 0, NULL);
	if (!results || !lost_results) {
		code = pf_fail(PF_EXIT_INTERNAL, "%s: results.json not readable", d->out);
		goto out;
	}
	in = (struct st_inputs){ .log = &log, .jobs = &jobs, .joblog = &joblog, .results = results,
				 .lost_results = lost_results, .lost_jobs = &lost_jobs, .lost_joblog = &lost_joblog,
				 .lost_recorded = st_recorded_lost(st_path(d->in, "lost-summary.txt")),
				 .perf_path = st_path(d->in, "perf.txt") };
	if (st_compare(&in, res)) {
		code = pf_fail(PF_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	doc = st_json(&in, res);
	code = doc ? pf_outfile_json(st_path(d->out, "selftest.json"), doc, JSON_INDENT(2) | JSON_SORT_KEYS) :
		     pf_fail(PF_EXIT_INTERNAL, "out of memory");
	if (!code) {
		failed = st_tap(stdout, &in, res);
		for (c = 1; c <= ST_NCASES; c++)
			skipped += res[c].skip != NULL;
		printf("# selftest: %d of %d cases passed, %d not run on this platform; %s\n",
		       ST_NCASES - failed - skipped, ST_NCASES - skipped, skipped, st_path(d->out, "selftest.json"));
		code = failed ? PF_EXIT_FAILED : PF_EXIT_OK;
	}
	st_results_free(res);
out:
	json_decref(doc);
	json_decref(results);
	json_decref(lost_results);
	st_log_free(&log);
	st_jobs_free(&jobs);
	st_jobs_free(&joblog);
	st_jobs_free(&lost_jobs);
	st_jobs_free(&lost_joblog);
	return code;
}

static int cmd_selftest_run(int argc, char **argv)
{
	enum { OPT_FROM = 256 };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "quick", no_argument, NULL, 'Q' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "from", required_argument, NULL, OPT_FROM },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *from = NULL, *cpu = NULL;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), v;
	char cpubuf[24], stamp[32];
	struct st_dir *d;
	time_t now = time(NULL);
	bool quick = false;
	int c, ret;

	while ((c = getopt_long(argc, argv, "o:Qc:", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'Q': quick = true; break;
		case OPT_FROM: from = optarg; break;
		case 'c':
			if (pf_parse_long(optarg, 0, ncpu - 1, &v))
				return pf_usage_error(&cmd_selftest, "--cpu '%s': not an online CPU (0-%ld)", optarg, ncpu - 1);
			cpu = optarg;
			break;
		default:
			return pf_option_error(&cmd_selftest, argv, "o:Qc:");
		}
	}
	if (optind != argc)
		return pf_usage_error(&cmd_selftest, "'%s': unexpected argument", argv[optind]);
	d = calloc(1, sizeof(*d));
	if (!d)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	if (out || from) {
		snprintf(d->out, sizeof(d->out), "%s", out ? out : from);
	} else {
		pf_utc(stamp, sizeof(stamp), now, true);
		snprintf(d->out, sizeof(d->out), "runs/selftest-%s", stamp);
	}
	snprintf(d->in, sizeof(d->in), "%s", from ? from : d->out);
	if (pf_self_exe(d->self, sizeof(d->self)) || pf_self_dir(d->bindir, sizeof(d->bindir))) {
		ret = pf_fail(PF_EXIT_INTERNAL, "cannot find my own program");
		goto out;
	}
	if ((ret = -pf_mkdirs(d->out))) {
		ret = pf_fail(PF_EXIT_ENV, "%s: %s", d->out, strerror(ret));
		goto out;
	}
	if (!cpu) {	/* the last CPU this command may run on (its affinity), as selftest-inject's default */
		cpu_set_t set;

		v = ncpu - 1;
		if (!sched_getaffinity(0, sizeof(set), &set))
			for (c = 0; c < CPU_SETSIZE; c++)
				if (CPU_ISSET(c, &set))
					v = c;
		snprintf(cpubuf, sizeof(cpubuf), "%ld", v);
		cpu = cpubuf;
	}
	ret = from ? st_from_check(d) : st_live(d, cpu, quick);
	if (!ret)
		ret = st_finish(d);
out:
	free(d);
	return ret;
}
