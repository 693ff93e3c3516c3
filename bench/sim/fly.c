/*
 * fly.c - 'preflight fly': fly the simulated Aerosonde with the flight
 * software around the mission circuit and print a JSON summary.
 *
 * By default the closed loop runs in the faster-than-real-time harness
 * (bench/sim/sim_harness.h): the same dynamics, sensors and frame bytes as
 * sensorsim and the same task job functions as flightapp, in one thread, in
 * simulation time. With --realtime it starts build/sensorsim and
 * build/flightapp (SCHED_FIFO as root, --no-rt otherwise) for the duration
 * and merges their summaries (sensorsim: truth errors; flightapp's
 * [fsw] stats_json: frame counters, waypoints, failsafes).
 */
#define _GNU_SOURCE
#include "sim_harness.h"
#include "sim_launch.h"
#include "command.h"
#include "common.h"
#include "datafile.h"
#include "outfile.h"
#include "proc.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int fly_run(int argc, char **argv);

const struct pf_command cmd_fly = {
	.name = "fly",
	.summary = "fly the simulated aircraft with the flight software, print a JSON summary",
	.usage =
	"usage: preflight fly [--duration S] [--scenario FILE] [--seed N] [--realtime] [options]\n"
	"\n"
	"Closes the loop between the simulated Aerosonde (bench/sim) and the flight software\n"
	"(app/fsw) around the mission circuit and prints a JSON summary on stdout.\n"
	"\n"
	"  -d, --duration SECONDS  flight time (default: the scenario's duration_s, 330 = three laps)\n"
	"  -s, --scenario FILE     scenario INI: [sim], [faults], [fsw], [links] (default: built-in; docs/sim.md)\n"
	"      --seed N            random seed of every noise source (default: the scenario's, 1)\n"
	"      --realtime          run sensorsim and flightapp for real, in wall-clock time (default: the\n"
	"                          faster-than-real-time harness, no threads, no sleeping)\n"
	"      --no-rt             with --realtime: flightapp --no-rt (default: SCHED_FIFO when root)\n"
	"      --profile NAME      with --realtime: flightapp's task profile, e.g. omap3-60 (default: its built-in)\n"
	"      --keep DIR          with --realtime: keep the run's files (configs, summaries, truth log,\n"
	"                          job log) in DIR (default: a temporary directory, removed)\n"
	"  -o, --output FILE       write the summary here instead of stdout (default: stdout)\n"
	"\n"
	"Summary keys include pos_err_rms_m, track_err_rms_m, alt_err_rms_m, waypoints_reached,\n"
	"imu_frames, gps_fixes, frame_errors, failsafe_events (docs/sim.md).\n"
	"Exit: 0 flown, 1 interrupted (SIGINT / SIGTERM: the summary so far, \"interrupted\": true),\n"
	"2 bad option or scenario, 3 environment (programs, pty, privileges), 4 internal.\n",
	.run = fly_run,
};

struct fly_opts {
	const char *scenario, *keep, *output, *profile;
	double duration_s;
	long long seed;
	bool realtime, no_rt;
};

/* jset_i / jset_f - one member of the summary */
static void jset_i(json_t *o, const char *k, uint64_t v) { json_object_set_new(o, k, json_integer((json_int_t)v)); }
static void jset_f(json_t *o, const char *k, double v) { json_object_set_new(o, k, json_real(v)); }

/* fly_emit - print (or write) the summary; an exit code */
static int fly_emit(json_t *o, const char *output)
{
	int rc = pf_outfile_json(output ? output : "-", o, JSON_INDENT(2));

	json_decref(o);
	return rc;
}

/* fly_harness - the closed loop in simulation time */
static int fly_harness(const struct sim_scenario *s, const char *output)
{
	static struct sim_harness h;
	struct fsw_stats st;
	char err[256];
	json_t *o, *rej;
	int64_t t0 = pf_now_ns();
	int i;

	if (sim_harness_init(&h, s, err, sizeof(err)))
		return pf_fail(PF_EXIT_USAGE, "scenario: %s", err);
	sim_harness_run(&h);
	fsw_stats(h.fsw, &st);
	o = json_object();
	rej = json_object();
	json_object_set_new(o, "schema", json_string("preflight-fly/1"));
	json_object_set_new(o, "mode", json_string("harness"));
	jset_i(o, "seed", s->seed);
	jset_f(o, "sim_time_s", h.daq.model.st.t_s);
	jset_f(o, "wall_time_s", (pf_now_ns() - t0) / 1e9);
	jset_f(o, "pos_err_rms_m", h.m.pos_err_rms_m);
	jset_f(o, "pos_err_max_m", h.m.pos_err_max_m);
	jset_f(o, "track_err_rms_m", h.m.track_err_rms_m);
	jset_f(o, "track_err_max_m", h.m.track_err_max_m);
	jset_f(o, "alt_err_rms_m", h.m.alt_err_rms_m);
	jset_f(o, "alt_err_max_m", h.m.alt_err_max_m);
	jset_i(o, "waypoints_reached", st.waypoints_reached);
	jset_i(o, "laps", st.laps);
	jset_i(o, "imu_frames", st.imu_frames);
	jset_i(o, "gps_fixes", st.gps_fixes);
	jset_i(o, "spi_frames", st.spi_frames);
	jset_i(o, "frame_errors", st.frame_errors);
	for (i = 1; i < FSW_REJ_COUNT; i++)
		jset_i(rej, fsw_rej_name(i), st.rej[i]);
	json_object_set_new(o, "rejected", rej);
	jset_i(o, "resync_bytes", st.resync_bytes);
	jset_i(o, "failsafe_events", st.failsafe_events);
	json_object_set_new(o, "failsafe_time", fsw_failsafe_json(&st));
	json_object_set_new(o, "ekf", fsw_ekf_json(&st));
	jset_i(o, "stale_events", st.stale_events);
	jset_i(o, "recoveries", st.recoveries);
	jset_i(o, "gps_lost_events", st.gps_lost_events);
	jset_i(o, "realigns", st.realigns);
	jset_i(o, "ekf_updates", st.ekf_updates);
	jset_i(o, "ekf_gated", st.ekf_gated);
	json_object_set_new(o, "stalled", json_boolean(h.daq.model.stalled));
	jset_f(o, "max_alpha_deg", h.daq.model.max_alpha_rad * 180 / FSW_PI);
	jset_f(o, "min_airspeed_mps", h.daq.model.min_airspeed_mps);
	json_object_set_new(o, "final_mode", json_string(fsw_mode_name(st.mode)));
	sim_harness_fini(&h);
	return fly_emit(o, output);
}

static volatile sig_atomic_t fly_stop;
static void fly_on_signal(int sig) { (void)sig; fly_stop = 1; }

/* fly_spawn - start a program, its stdout and stderr into its log (our stdout is the summary); its pid or -errno */
static pid_t fly_spawn(char *const argv[], const char *log)
{
	struct pf_proc p;
	int ret = pf_proc_spawn(&p, argv, log, log, 0);

	return ret < 0 ? ret : p.pid;
}

/* fly_wait - wait for a child, forwarding SIGINT / SIGTERM to it; its exit status or -1 */
static int fly_wait(pid_t pid)
{
	int st;

	for (;;) {
		pid_t r = waitpid(pid, &st, 0);

		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		if (r < 0 && errno != EINTR)
			return -1;
		if (fly_stop)
			kill(pid, SIGTERM);
	}
}

/* fly_json_num - a number member of a JSON file's object (-1 if missing) */
static double fly_json_num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : -1;
}

/*
 * the simulator's counts of the app's flight window (docs/sim.md), under the
 * names the realtime summary gives them: the app's own counts (gps_fixes,
 * failsafe_time) come from fsw.json beside them
 */
static const char *const fly_sim_window[][2] = {
	{ "app_start_s", "sim_app_start_s" },
	{ "app_end_s", "sim_app_end_s" },
	{ "gps_fixes", "sim_gps_fixes" },
	{ "gps_fixes_before_app", "sim_gps_fixes_before_app" },
	{ "gps_fixes_app", "sim_gps_fixes_app" },
	{ "gps_fixes_after_app", "sim_gps_fixes_after_app" },
	{ "failsafe_s", "sim_failsafe_s" },
	{ "track_err_max_t_s", "track_err_max_t_s" },
	{ "track_err_after_app_max_m", "track_err_after_app_max_m" },
};

#define FLY_FILES 9	/* the files of a --realtime run, names[] below */

/* fly_realtime - sensorsim and flightapp for real; an exit code */
static int fly_realtime(const struct fly_opts *o, const struct sim_scenario *s)
{
	static char sim_exe[PATH_MAX + 16];
	char bindir[PATH_MAX], dir[PATH_MAX], path[FLY_FILES][PATH_MAX + 32], dur[32], simdur[32];
	const char *names[FLY_FILES] = { "uart", "spi", "app.ini", "sim.json", "fsw.json", "sensorsim.log",
					 "flightapp.log", "truth.csv", "jobs.csv" };
	char *app_argv[16], seed[32], why[2 * PATH_MAX + 200];
	struct sim_launch sl = { 0 };
	struct pf_proc simproc;
	pid_t sim_pid = -1, app_pid = -1;
	json_t *sim = NULL, *fsw = NULL, *out;
	struct sigaction sa;
	FILE *f;
	int i, code = PF_EXIT_OK, app_rc = -1, sim_rc = -1, argc;
	bool tmp = !o->keep;

	i = pf_self_dir(bindir, sizeof(bindir));
	if (i < 0)
		return pf_fail(PF_EXIT_ENV, "/proc/self/exe: %s", strerror(-i));
	if (tmp) {
		snprintf(dir, sizeof(dir), "%s/preflight-fly.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(dir))
			return pf_fail(PF_EXIT_ENV, "temporary directory: %s", strerror(errno));
	} else {
		snprintf(dir, sizeof(dir), "%s", o->keep);
		if (mkdir(dir, 0755) && errno != EEXIST)
			return pf_fail(PF_EXIT_ENV, "--keep: %s: %s", dir, strerror(errno));
	}
	for (i = 0; i < FLY_FILES; i++)	/* each joined ("" when it does not fit): out: unlinks them all */
		if (pf_path_join(path[i], sizeof(path[i]), dir, names[i]) && !code)
			code = pf_fail(tmp ? PF_EXIT_ENV : PF_EXIT_USAGE, "%s/%s: %s", dir, names[i], strerror(ENAMETOOLONG));
	if (code)
		goto out;
	f = fopen(path[2], "w");
	if (!f) {
		code = pf_fail(PF_EXIT_ENV, "%s: %s", path[2], strerror(errno));
		goto out;
	}
	fprintf(f, "; written by preflight fly --realtime\n");
	sim_launch_links_ini(f, path[0], path[1], s->uart_baud, s->fsw.spi_frame_len);
	fprintf(f, "[fsw]\nstats_json = %s\n", path[4]);
	for (i = 0; i < s->fsw.n_wp; i++)
		fprintf(f, "%swaypoint = %.3f, %.3f, %.3f\n", i ? "" : "clear_waypoints = 1\n", s->fsw.wp[i].x,
			s->fsw.wp[i].y, -s->fsw.wp[i].z);
	if (fclose(f)) {
		code = pf_fail(PF_EXIT_ENV, "%s: %s", path[2], strerror(errno));
		goto out;
	}
	snprintf(dur, sizeof(dur), "%.3f", s->duration_s);
	snprintf(simdur, sizeof(simdur), "%.3f", s->duration_s + 30);	/* stopped by us when flightapp ends */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fly_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	snprintf(sim_exe, sizeof(sim_exe), "%s/sensorsim", bindir);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)s->seed);
	sl.exe = sim_exe;
	sl.scenario = o->scenario;
	sl.duration = simdur;
	sl.uart = path[0];
	sl.spi = path[1];
	sl.summary = path[3];
	sl.truth = path[7];
	sl.seed = seed;
	sl.rt_priority = !o->no_rt && geteuid() == 0 ? 95 : 0;	/* the DAQ is hardware: it must keep its 1 kHz */
	sl.out = sl.err = path[5];
	if (sim_launch_spawn(&sl, &simproc, why, sizeof(why)) < 0) {
		code = pf_fail(PF_EXIT_ENV, "%s (run make)", why);
		goto out;
	}
	sim_pid = simproc.pid;
	if (sim_launch_await(&sl, &simproc, why, sizeof(why)) < 0) {
		if (!pf_proc_alive(&simproc))
			sim_pid = -1;	/* reaped */
		code = pf_fail(PF_EXIT_ENV, "waiting for the simulator's links: %s; see %s", why, path[5]);
		goto out;
	}
	{
		static char app_exe[PATH_MAX + 16];

		snprintf(app_exe, sizeof(app_exe), "%s/flightapp", bindir);
		argc = 0;
		app_argv[argc++] = app_exe;
		app_argv[argc++] = "--config";
		app_argv[argc++] = path[2];
		app_argv[argc++] = "--duration";
		app_argv[argc++] = dur;
		app_argv[argc++] = "--quiet";
		if (o->profile) {
			app_argv[argc++] = "--profile";
			app_argv[argc++] = (char *)o->profile;
		}
		if (o->no_rt || geteuid() != 0)
			app_argv[argc++] = "--no-rt";
		if (o->keep) {	/* the job log is kept, so worth writing */
			app_argv[argc++] = "--joblog";
			app_argv[argc++] = path[8];
		}
		app_argv[argc] = NULL;
		app_pid = fly_spawn(app_argv, path[6]);
		if (app_pid < 0) {
			code = pf_fail(PF_EXIT_ENV, "%s: %s (run make)", app_exe, strerror((int)-app_pid));
			goto out;
		}
	}
	app_rc = fly_wait(app_pid);
	app_pid = -1;
	if (app_rc != 0) {
		code = pf_fail(app_rc == 3 ? PF_EXIT_ENV : PF_EXIT_FAILED, "flightapp exited with %d (see %s)", app_rc, path[6]);
		goto out;
	}
out:
	if (app_pid > 0) {
		kill(app_pid, SIGTERM);
		fly_wait(app_pid);
	}
	if (sim_pid > 0) {
		kill(sim_pid, SIGTERM);
		sim_rc = fly_wait(sim_pid);
	}
	if (!code) {
		json_error_t je;

		sim = json_load_file(path[3], 0, &je);
		fsw = json_load_file(path[4], 0, &je);
		if (!sim || !fsw || sim_rc != 0)
			code = pf_fail(PF_EXIT_INTERNAL, "missing summaries from sensorsim (%d) or flightapp (see %s)", sim_rc, dir);
	}
	if (!code) {
		out = json_object();
		json_object_set_new(out, "schema", json_string("preflight-fly/1"));
		json_object_set_new(out, "mode", json_string("realtime"));
		json_object_set_new(out, "rt", json_boolean(!o->no_rt && geteuid() == 0));
		jset_f(out, "sim_time_s", fly_json_num(sim, "sim_time_s"));
		jset_f(out, "wall_time_s", fly_json_num(sim, "wall_time_s"));
		jset_f(out, "pos_err_rms_m", fly_json_num(sim, "pos_err_rms_m"));
		jset_f(out, "pos_err_max_m", fly_json_num(sim, "pos_err_max_m"));
		jset_f(out, "track_err_rms_m", fly_json_num(sim, "track_err_rms_m"));
		jset_f(out, "track_err_max_m", fly_json_num(sim, "track_err_max_m"));
		jset_f(out, "alt_err_rms_m", fly_json_num(sim, "alt_err_rms_m"));
		jset_f(out, "alt_err_max_m", fly_json_num(sim, "alt_err_max_m"));
		json_object_set(out, "stalled", json_object_get(sim, "stalled"));
		jset_f(out, "spi_service_max_us", fly_json_num(sim, "spi_service_max_us"));
		jset_f(out, "sim_late_ticks", fly_json_num(sim, "late_ticks"));
		for (i = 0; i < (int)PF_ARRAY_SIZE(fly_sim_window); i++) {
			json_t *v = json_object_get(sim, fly_sim_window[i][0]);

			json_object_set_new(out, fly_sim_window[i][1], v ? json_incref(v) : json_null());
		}
		json_object_update(out, fsw);
		json_object_set_new(out, "schema", json_string("preflight-fly/1"));
		if (o->keep)
			json_object_set_new(out, "dir", json_string(dir));
		jset_i(out, "seed", s->seed);
		json_object_set_new(out, "interrupted", json_boolean(fly_stop));
		json_object_set_new(out, "profile", json_string(o->profile ? o->profile : "default"));
		code = fly_emit(out, o->output);
	}
	json_decref(sim);
	json_decref(fsw);
	if (tmp) {
		for (i = 0; i < FLY_FILES; i++)
			unlink(path[i]);
		rmdir(dir);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return fly_stop && !code ? PF_EXIT_FAILED : code;
}

static int fly_run(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "duration", required_argument, NULL, 'd' }, { "scenario", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' }, { "realtime", no_argument, NULL, 'r' },
		{ "no-rt", no_argument, NULL, 'n' }, { "keep", required_argument, NULL, 'k' },
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' },
		{ "profile", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct fly_opts o = { .duration_s = -1, .seed = -1 };
	struct sim_scenario s;
	char err[512];
	int64_t ns;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:s:o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (pf_parse_duration_ns(optarg, PF_NS_PER_SEC, &ns) || ns <= 0 || ns > 100000 * PF_NS_PER_SEC)
				return pf_usage_error(&cmd_fly, "--duration: '%s': expected a positive duration", optarg);
			o.duration_s = ns / 1e9;
			break;
		case 's': o.scenario = optarg; break;
		case 'S':
			if (pf_parse_ll(optarg, 0, SIM_SEED_MAX, &o.seed))
				return pf_usage_error(&cmd_fly, "--seed: '%s': expected a whole number 0-%lld", optarg,
						      SIM_SEED_MAX);
			break;
		case 'r': o.realtime = true; break;
		case 'n': o.no_rt = true; break;
		case 'k': o.keep = optarg; break;
		case 'o': o.output = optarg; break;
		case 'p': o.profile = optarg; break;
		case 'h': pf_print_usage(&cmd_fly); return PF_EXIT_OK;
		default: return pf_option_error(&cmd_fly, argv, "d:s:o:h");
		}
	}
	if (optind < argc)
		return pf_usage_error(&cmd_fly, "'%s': unexpected argument", argv[optind]);
	if ((o.keep || o.no_rt || o.profile) && !o.realtime)
		return pf_usage_error(&cmd_fly, "--keep, --no-rt and --profile go with --realtime");
	sim_scenario_default(&s);
	if (o.scenario && sim_scenario_load(&s, o.scenario, err, sizeof(err)))
		return pf_fail(PF_EXIT_USAGE, "scenario: %s", err);
	if (o.duration_s > 0)
		s.duration_s = o.duration_s;
	if (o.seed >= 0)
		s.seed = (uint64_t)o.seed;
	return o.realtime ? fly_realtime(&o, &s) : fly_harness(&s, o.output);
}
