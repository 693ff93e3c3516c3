/*
 * flightapp.c - the reference multirate flight application: command line,
 * set-up in order (configuration, memory, devices, threads), the live status
 * loop of the main thread and the orderly shutdown.
 *
 * The main thread never runs realtime work: it waits for SIGINT / SIGTERM
 * (blocked everywhere else, taken with sigtimedwait) or the end of
 * --duration, prints the live status once a second, and at the end joins the
 * threads, closes the job log and writes the reports. Exit codes as in
 * docs/ARCHITECTURE.md: 2 bad options or configuration, 3 environment (realtime
 * priorities, tracefs, /dev/cpu_dma_latency), 4 internal.
 */
#define _GNU_SOURCE
#include "bodies.h"
#include "command.h"
#include "common.h"
#include "datafile.h"
#include "outfile.h"
#include "exec.h"
#include "joblog_write.h"
#include "task_report.h"
#include "rt.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char app_usage[] =
	"usage: flightapp [options]\n"
	"\n"
	"The reference multirate flight application: a base-rate tick and its tasks,\n"
	"every job measured into the job log, the statistics and the trace markers.\n"
	"\n"
	"  -c, --config FILE          INI file over the profile (default: none)\n"
	"  -p, --profile NAME         profile app/profiles/NAME.ini, or a path (default: built-in table = 'default')\n"
	"  -d, --duration SECONDS     run this long, then stop cleanly (default: until SIGINT/SIGTERM; units allowed: 500ms)\n"
	"      --no-rt                run every thread SCHED_OTHER, for unprivileged use (default: SCHED_FIFO as configured)\n"
	"  -j, --joblog PATH          write the job log CSV here (default: none)\n"
	"      --stats-json PATH      write the final statistics as JSON here (default: none)\n"
	"  -t, --trace-instance NAME  write job markers into this existing tracefs instance (default: no markers)\n"
	"      --trace-text           text markers to trace_marker instead of binary trace_marker_raw (default: binary)\n"
	"      --no-dma-latency       do not hold /dev/cpu_dma_latency at 0 (default: held, unless [app] dma_latency = false;\n"
	"                             a kernel without it: one warning, the run goes on)\n"
	"      --require-dma-latency  exit 3 when /dev/cpu_dma_latency cannot be held (default: warn and go on)\n"
	"  -q, --quiet                no live status on stderr (default: one line per task every second)\n"
	"      --check                check the options, profile and configuration, then exit\n"
	"                             (nothing is opened, started or written; default: run)\n"
	"  -h, --help                 this text\n"
	"\n"
	"Profiles are looked up in $PREFLIGHT_DATA/profiles, then <program dir>/../app/profiles\n"
	"(the source tree), then the installed <DATADIR>/profiles. Keys: docs/flightapp.md.\n"
	"Exit: 0 ok, 2 bad option or configuration, 3 environment (privilege, tracefs), 4 internal.\n";

enum { OPT_NO_RT = 256, OPT_STATS_JSON, OPT_TRACE_TEXT, OPT_NO_DMA, OPT_NEED_DMA, OPT_CHECK };

struct app_opts {
	const char *config, *profile, *joblog, *stats_json, *trace_instance;
	int64_t duration_ns;
	bool no_rt, quiet, trace_text, no_dma, need_dma, check;
};

/*
 * app_profile_path - find profile NAME (a path, or the data file
 * profiles/NAME.ini); 0, or -ENOENT with what was searched in 'path'
 */
static int app_profile_path(const char *name, char *path, size_t size)
{
	char rel[512];

	if (strchr(name, '/')) {
		snprintf(path, size, "%s", name);
		return access(path, R_OK) ? -ENOENT : 0;
	}
	if (snprintf(rel, sizeof(rel), "profiles/%s.ini", name) >= (int)sizeof(rel)) {
		snprintf(path, size, "name too long");
		return -ENOENT;
	}
	return pf_datafile(rel, path, size);
}

/* app_parse_opts - the command line; an exit code when the program must stop, -1 to go on */
static int app_parse_opts(int argc, char **argv, struct app_opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "profile", required_argument, NULL, 'p' },
		{ "duration", required_argument, NULL, 'd' },
		{ "no-rt", no_argument, NULL, OPT_NO_RT },
		{ "joblog", required_argument, NULL, 'j' },
		{ "stats-json", required_argument, NULL, OPT_STATS_JSON },
		{ "trace-instance", required_argument, NULL, 't' },
		{ "trace-text", no_argument, NULL, OPT_TRACE_TEXT },
		{ "no-dma-latency", no_argument, NULL, OPT_NO_DMA },
		{ "require-dma-latency", no_argument, NULL, OPT_NEED_DMA },
		{ "quiet", no_argument, NULL, 'q' },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char why[256];
	int c;

	memset(o, 0, sizeof(*o));
	opterr = 0;	/* one line for a bad option: ours */
	while ((c = getopt_long(argc, argv, "c:p:d:j:t:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': o->config = optarg; break;
		case 'p': o->profile = optarg; break;
		case 'd':
			if (pf_parse_duration_ns(optarg, PF_NS_PER_SEC, &o->duration_ns) || o->duration_ns <= 0)
				return pf_fail(PF_EXIT_USAGE, "--duration: bad duration '%s' (seconds, or with a unit: 500ms)", optarg);
			break;
		case OPT_NO_RT: o->no_rt = true; break;
		case 'j': o->joblog = optarg; break;
		case OPT_STATS_JSON: o->stats_json = optarg; break;
		case 't':
			if (!*optarg || strchr(optarg, '/') || strlen(optarg) >= 64)
				return pf_fail(PF_EXIT_USAGE, "--trace-instance: bad instance name '%s'", optarg);
			o->trace_instance = optarg;
			break;
		case OPT_TRACE_TEXT: o->trace_text = true; break;
		case OPT_NO_DMA: o->no_dma = true; break;
		case OPT_NEED_DMA: o->need_dma = true; break;
		case 'q': o->quiet = true; break;
		case OPT_CHECK: o->check = true; break;
		case 'h':
			fputs(app_usage, stdout);
			return PF_EXIT_OK;
		default:
			return pf_fail(PF_EXIT_USAGE, "%s (see 'flightapp --help')",
				       pf_option_why(why, sizeof(why), argv, "c:p:d:j:t:qh"));
		}
	}
	if (optind < argc)
		return pf_fail(PF_EXIT_USAGE, "unexpected argument '%s' (try --help)", argv[optind]);
	if (o->trace_text && !o->trace_instance)
		return pf_fail(PF_EXIT_USAGE, "--trace-text: needs --trace-instance");
	if (o->no_dma && o->need_dma)
		return pf_fail(PF_EXIT_USAGE, "--require-dma-latency: contradicts --no-dma-latency");
	return -1;
}

/* app_load_config - defaults, profile, config file, checks; 0 or an exit code */
static int app_load_config(const struct app_opts *o, struct app_config *cfg)
{
	char path[PATH_MAX], err[512];
	int ret;

	app_config_defaults(cfg);
	if (o->profile) {
		if (app_profile_path(o->profile, path, sizeof(path)))
			return pf_fail(PF_EXIT_USAGE, "--profile: profile '%s' not found (%s)", o->profile, path);
		ret = app_config_load(cfg, path, err, sizeof(err));
		if (ret)
			return pf_fail(PF_EXIT_USAGE, "%s", err);
	}
	if (o->config) {
		ret = app_config_load(cfg, o->config, err, sizeof(err));
		if (ret)
			return pf_fail(PF_EXIT_USAGE, "%s", err);
	}
	snprintf(cfg->profile, sizeof(cfg->profile), "%s", o->profile ? o->profile : o->config ? "" : "default");
	if (app_config_check(cfg, err, sizeof(err)))
		return pf_fail(PF_EXIT_USAGE, "%s", err);
	return 0;
}

/* app_wait - the main thread until the run ends: signals, live status; returns the signal or 0 */
static int app_wait(struct app *app, const sigset_t *sigs)
{
	int64_t next_status = app->t0_ns + PF_NS_PER_SEC, now, wait;
	struct timespec ts;
	int sig;

	while (!atomic_load(&app->tick_done)) {
		now = pf_now_ns();
		wait = next_status - now;
		if (wait > 100 * PF_NS_PER_MS)
			wait = 100 * PF_NS_PER_MS;
		if (wait < 0)
			wait = 0;
		ts = pf_ns_to_ts(wait);
		sig = sigtimedwait(sigs, NULL, &ts);
		if (sig == SIGINT || sig == SIGTERM) {
			app_request_stop(app);
			return sig;
		}
		now = pf_now_ns();
		if (now >= next_status) {
			if (!app->quiet)
				app_report_status(app, stderr, now);
			next_status += PF_NS_PER_SEC;
		}
	}
	return 0;
}

/* app_setup_priority - the lowest SCHED_FIFO priority of the configured tasks (none: 1), the set-up's */
static int app_setup_priority(const struct app_config *cfg)
{
	int i, prio = 0;

	for (i = 0; i < cfg->ntasks; i++)
		if (cfg->task[i].policy == APP_POLICY_FIFO && (!prio || cfg->task[i].priority < prio))
			prio = cfg->task[i].priority;
	return prio ? prio : 1;
}

int main(int argc, char **argv)
{
	static struct app app;	/* large: rings and statistics hang off it */
	struct app_config *cfg;
	struct app_opts o;
	sigset_t sigs;
	char err[512];
	int ret, code = PF_EXIT_OK, dma_fd = -1;
	FILE *stats_f = NULL;

	pf_set_prog("flightapp");
	ret = app_parse_opts(argc, argv, &o);
	if (ret >= 0)
		return ret;
	ret = app_bodies_register();
	if (ret)
		return pf_fail(PF_EXIT_INTERNAL, "registering the task bodies' configuration: %s", strerror(-ret));
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	code = app_load_config(&o, cfg);
	if (code)
		goto out_cfg;
	/*
	 * The set-up (the rings and statistics, locked memory, the flight
	 * software's table, the threads and their stacks) at the lowest realtime
	 * priority of the tasks, back to SCHED_OTHER before they go: at a normal
	 * priority, busy normal threads (hackbench's forty) held it for minutes
	 * on an emulated single-CPU board and the app flew none of its run, and
	 * raised only after the rings, the job log and the markers, the start
	 * took 123 s there beside sensorsim's and rt-swarm's realtime threads
	 * (docs/target.md). Raised as soon as the tasks' priorities are known.
	 */
	if (!o.check && !o.no_rt && (ret = app_rt_main_priority(app_setup_priority(cfg)))) {
		code = pf_fail(PF_EXIT_ENV, "set-up: SCHED_FIFO priority %d: %s (run as root or with CAP_SYS_NICE, "
			       "or use --no-rt)", app_setup_priority(cfg), ret == -EPERM ? "not permitted" : strerror(-ret));
		goto out_cfg;
	}
	ret = app_init(&app, cfg, err, sizeof(err));
	if (ret) {
		code = pf_fail(ret == -ENOMEM ? PF_EXIT_INTERNAL : PF_EXIT_USAGE, "setup: %s", err);
		goto out_app;
	}
	if (o.check) {	/* options, profile and configuration are good: nothing more is done */
		printf("flightapp: check: profile '%s', %d tasks, slot %lld us: ok\n", cfg->profile, app.ntasks,
		       (long long)(cfg->slot_ns / PF_NS_PER_US));
		goto out_app;
	}
	app.no_rt = o.no_rt;
	app.quiet = o.quiet;
	app.duration_ns = o.duration_ns;
	app.drain = app_logger_drain;	/* the logger's job: the rings into the job log */
	snprintf(app.dma_state, sizeof(app.dma_state), "off");

	if (o.joblog && (ret = app_joblog_open(&app, o.joblog))) {
		code = pf_fail(PF_EXIT_USAGE, "--joblog: %s: %s", o.joblog, strerror(-ret));
		goto out_app;
	}
	/* checked now: a path that cannot be written is bad input, found before the run, not after it */
	if (o.stats_json && (code = pf_outfile_check(o.stats_json, true)))
		goto out_app;	/* written at the end (lib/outfile.h): a killed app leaves no NAME.tmp */
	if (o.trace_instance) {
		ret = app_marker_open(&app.marker, o.trace_instance, o.trace_text, err, sizeof(err));
		if (ret) {
			code = pf_fail(PF_EXIT_ENV, "--trace-instance: %s", err);
			goto out_app;
		}
		snprintf(app.trace_instance, sizeof(app.trace_instance), "%s", o.trace_instance);
	}
	/*
	 * Like cyclictest: a kernel without the device (or a user who may not
	 * open it) gets one warning and the run; the job log and the
	 * statistics say "unavailable", and 'preflight run' makes that a
	 * warning of the run. --require-dma-latency refuses instead.
	 */
	if ((cfg->dma_latency && !o.no_dma) || o.need_dma) {
		dma_fd = app_rt_dma_latency_hold(0);
		if (dma_fd < 0 && o.need_dma) {
			code = pf_fail(PF_EXIT_ENV, "%s: %s (--require-dma-latency)", app_rt_dma_latency_path(),
				       strerror(-dma_fd));
			goto out_app;
		}
		snprintf(app.dma_state, sizeof(app.dma_state), dma_fd >= 0 ? "held" : "unavailable");
		if (dma_fd < 0)
			pf_err("warning: %s: %s: going on without it (idle states not held shallow; "
			       "--require-dma-latency to refuse)", app_rt_dma_latency_path(), strerror(-dma_fd));
	}
	/*
	 * Locked memory. Unprivileged --no-rt runs skip it: under RLIMIT_MEMLOCK,
	 * MCL_FUTURE would make the thread stacks fail to map later.
	 */
	ret = !o.no_rt || geteuid() == 0 ? app_rt_lock_memory() : -EPERM;
	if (ret && !o.no_rt) {
		code = pf_fail(PF_EXIT_ENV, "mlockall: %s (run as root, raise RLIMIT_MEMLOCK, or use --no-rt)",
			       strerror(-ret));
		goto out_app;
	}
	app.memory_locked = !ret;
	ret = app_bodies_init(&app, app_bodies, err, sizeof(err));	/* the flight software's table */
	if (ret) {
		code = pf_fail(PF_EXIT_ENV, "%s", err);
		goto out_app;
	}

	app_signals_to_main(&sigs);	/* (flightapp ... | head) drains its job log; Ctrl-C taken here */
	ret = app_start(&app, err, sizeof(err));
	if (ret) {
		code = pf_fail(ret == -EPERM || ret == -EINVAL ? PF_EXIT_ENV : PF_EXIT_INTERNAL, "%s", err);
		goto out_app;
	}
	if (o.no_rt && !o.quiet)
		pf_err("--no-rt: every thread runs SCHED_OTHER; latencies are not realtime");
	app_declare_tasks(&app);
	if (app_joblog_header(&app))
		code = PF_EXIT_ENV;	/* the reason is reported once, when the job log is closed */
	if (!o.no_rt && (ret = app_rt_main_priority(0)))
		pf_err("warning: the main thread stays at SCHED_FIFO: %s", strerror(-ret));
	/* and back at the set-up's priority for the end: raised by the tick's last slot */
	app_set_end_priority(&app, o.no_rt ? 0 : app_setup_priority(cfg));
	app_go(&app);
	if (app_wait(&app, &sigs) && !o.no_rt)
		app_rt_main_priority(app_setup_priority(cfg));	/* stopped by a signal, before the tick ended */
	app_join(&app);
	if ((ret = atomic_load(&app.end_prio_error)))
		pf_err("warning: the run's end at SCHED_FIFO %d: %s", app.end_prio, strerror(-ret));

	ret = app_joblog_close(&app);
	if (ret) {
		pf_err("--joblog: %s: %s", o.joblog, strerror(-ret));
		code = PF_EXIT_ENV;
	}
	app_report_table(&app, stdout);
	if (o.stats_json && (ret = pf_outfile_open(o.stats_json, &stats_f)))
		code = ret;
	if (stats_f) {
		ret = app_report_json(&app, stats_f);
		if (ret) {
			pf_outfile_abort(stats_f);
			pf_err("--stats-json: %s: %s", o.stats_json, strerror(-ret));
			code = PF_EXIT_ENV;
		} else if ((ret = pf_outfile_commit(stats_f))) {
			code = ret;
		}
		stats_f = NULL;
	}
out_app:
	if (app.joblog)
		fclose(app.joblog);
	if (stats_f)
		pf_outfile_abort(stats_f);
	app_fini(&app);
	app_rt_dma_latency_release(dma_fd);
out_cfg:
	free(cfg);
	return code;
}
