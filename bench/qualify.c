/*
 * qualify.c - `preflight qualify [--scenario NAME] [--budgets FILE] [-o DIR]`:
 * the main job. The system survey's warnings first (what will hurt latency
 * on this machine), then the scenario run (run.c: loads, cyclictest
 * baseline, the app under trace, analysis, budget check), then the plain-
 * text qualification summary on stdout and in the run directory
 * (qualification.txt; run.c writes the same text as report.txt).
 *
 * The summary reads only files of the run directory (sysinfo.json,
 * run.json, loads.json, results.json, verdicts.tap, SHA256SUMS), so it can
 * be rebuilt from a run directory alone: `preflight qualify --summary DIR`.
 */
#include "command.h"
#include "common.h"
#include "loads/load.h"
#include "run.h"

#include <errno.h>
#include <sys/wait.h>

#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* summary_load - a JSON file of the run directory, or NULL */
static json_t *summary_load(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return json_load_file(path, 0, NULL);
}

/*
 * summary_get - the value at a dotted path ("a.b.c"; array elements by index)
 * or NULL; a key that itself holds a dot ("p99.99") is taken whole when the
 * object has it
 */
static json_t *summary_get(json_t *v, const char *path)
{
	const char *dot;
	char key[64];

	while (v && *path) {
		if (json_is_object(v) && json_object_get(v, path))
			return json_object_get(v, path);
		dot = strchr(path, '.');
		snprintf(key, sizeof(key), "%.*s", dot ? (int)(dot - path) : (int)strlen(path), path);
		v = json_is_array(v) ? json_array_get(v, strtoul(key, NULL, 10)) : json_object_get(v, key);
		path = dot ? dot + 1 : "";
	}
	return v;
}

/* summary_num - a number at a path, NaN-free: 'none' when missing */
static double summary_num(json_t *v, const char *path, double none)
{
	json_t *n = summary_get(v, path);

	return json_is_number(n) ? json_number_value(n) : none;
}

/* summary_str - a string at a path, or 'none' */
static const char *summary_str(json_t *v, const char *path, const char *none)
{
	const char *s = json_string_value(summary_get(v, path));

	return s ? s : none;
}

/* summary_us - a nanosecond figure at a path as "123.4 us" (or "-") */
static const char *summary_us(json_t *v, const char *path, char *buf, size_t size)
{
	double ns = summary_num(v, path, -1);

	if (ns < 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.1f us", ns / 1000.0);
	return buf;
}

/* summary_count - an integer at a path as text, or 'none' */
static const char *summary_count(json_t *v, const char *path, char *buf, size_t size, const char *none)
{
	json_t *n = summary_get(v, path);

	if (!json_is_integer(n))
		return none;
	snprintf(buf, size, "%lld", (long long)json_integer_value(n));
	return buf;
}

/* summary_machine - who was measured, and the survey's warnings */
static void summary_machine(json_t *si, FILE *out)
{
	json_t *w, *warnings = summary_get(si, "warnings");
	size_t i;
	char *dump;

	fprintf(out, "\nmachine\n");
	if (!si) {
		fprintf(out, "  (no sysinfo.json: 'preflight sysinfo' did not run)\n");
		return;
	}
	fprintf(out, "  host %s, kernel %s (%s), preemption %s, %d CPUs%s\n",
		summary_str(si, "hostname", "?"), summary_str(si, "kernel.release", "?"),
		summary_str(si, "kernel.arch", "?"), summary_str(si, "kernel.preempt_model", "?"),
		(int)summary_num(si, "cpus.online_count", summary_num(si, "cpus.count", 0)),
		json_is_true(summary_get(si, "virtualization.virtualized")) ? ", virtualised" : "");
	json_array_foreach(warnings, i, w) {
		if (json_is_string(w)) {
			fprintf(out, "  warning: %s\n", json_string_value(w));
		} else {
			const char *text = summary_str(w, "message", summary_str(w, "text", NULL));

			if (text) {
				fprintf(out, "  warning: %s\n", text);
			} else {
				dump = json_dumps(w, JSON_COMPACT);
				fprintf(out, "  warning: %s\n", dump ? dump : "?");
				free(dump);
			}
		}
	}
}

/* summary_app_spi - the app's own SPI transfer times (fsw.json spi_transfer_ns), beside the exerciser's */
static void summary_app_spi(json_t *fsw, FILE *out)
{
	json_t *t = summary_get(fsw, "spi_transfer_ns");
	char b1[32], b2[32], b3[32];

	if (!json_is_object(t))
		return;
	fprintf(out, "    %-9s%d transfers of %d bytes (io task, %s), min %s, max %s, p99 %s, over 1 ms: %d\n",
		"app spi", (int)summary_num(t, "count", 0), (int)summary_num(t, "frame_bytes", 0),
		summary_str(t, "backend", "?"), summary_us(t, "min", b3, sizeof(b3)), summary_us(t, "max", b1, sizeof(b1)),
		summary_us(t, "p99", b2, sizeof(b2)), (int)summary_num(t, "over_1ms", 0));
}

/* summary_telemetry - the app's telemetry stream's delivery, as the wifi load's receiver saw it */
static void summary_telemetry(json_t *a, FILE *out)
{
	json_t *t = summary_get(a, "telemetry");
	char b1[32], b2[32], b3[32];

	if (!json_is_object(t))
		return;
	/* a phase without the app (a cyclictest baseline under load) has no stream to report */
	if (json_is_null(summary_get(t, "sent")) && summary_num(t, "received", 0) == 0 && !summary_get(t, "unavailable"))
		return;
	fprintf(out, "    %-9s", "app tlm");
	if (summary_get(t, "unavailable"))
		fprintf(out, "unavailable: %s\n", summary_str(t, "unavailable", "?"));
	else
		fprintf(out, "%s sent, %d received, %d lost, %d late (> %.0f ms), delay p99 %s max %s\n",
			summary_count(t, "sent", b3, sizeof(b3), "?"), (int)summary_num(t, "received", 0),
			(int)summary_num(t, "lost", 0), (int)summary_num(t, "late", 0),
			summary_num(t, "late_bound_ns", 0) / 1e6, summary_us(t, "delay_ns.p99", b1, sizeof(b1)),
			summary_us(t, "delay_ns.max", b2, sizeof(b2)));
}

/* summary_load_line - one load's achieved figures in one line (the app's own beside wifi and spi) */
static void summary_load_line(const char *name, json_t *rep, json_t *fsw, FILE *out)
{
	json_t *a = json_object_get(rep, "achieved");
	char b1[32], b2[32], b3[32];

	fprintf(out, "    %-9s", name);
	if (json_object_get(rep, "error"))
		fprintf(out, "FAILED: %s\n", summary_str(rep, "error", "?"));
	else if (!strcmp(name, "wifi"))
		fprintf(out, "%.2f of %.2f Mbit/s received (%.0f %%), UDP %.2f Mbit/s loss %.2f %%, TCP %.2f Mbit/s %d retransmits\n",
			summary_num(a, "received_bps", 0) / 1e6, summary_num(a, "rate_bps", 0) / 1e6,
			summary_num(a, "rate_achieved_pct", 0), summary_num(a, "udp.received_bps", 0) / 1e6,
			summary_num(a, "udp.loss_pct", 0), summary_num(a, "tcp.received_bps", 0) / 1e6,
			(int)summary_num(a, "tcp.retransmits", 0));
	else if (!strcmp(name, "sd") && summary_get(a, "logger.unavailable"))
		fprintf(out, "%.2f MB/s written, %d fsyncs p99 %s max %s; app logger: %s\n",
			summary_num(a, "write_mb_per_s", 0), (int)summary_num(a, "fsyncs", 0),
			summary_us(a, "fsync_latency_p99_ns", b1, sizeof(b1)),
			summary_us(a, "fsync_latency_max_ns", b2, sizeof(b2)),
			summary_str(a, "logger.unavailable", "?"));
	else if (!strcmp(name, "sd"))
		fprintf(out, "%.2f MB/s written, %d fsyncs p99 %s max %s; app logger: %d rows, %d dropped, ring high-water %s\n",
			summary_num(a, "write_mb_per_s", 0), (int)summary_num(a, "fsyncs", 0),
			summary_us(a, "fsync_latency_p99_ns", b1, sizeof(b1)),
			summary_us(a, "fsync_latency_max_ns", b2, sizeof(b2)),
			(int)summary_num(a, "logger.joblog_rows", 0), (int)summary_num(a, "logger.dropped", 0),
			summary_count(a, "logger.ring_high_water", b3, sizeof(b3), "not reported by the app"));
	else if (!strcmp(name, "spi"))
		fprintf(out, "%.0f transfers/s of %d bytes, max %s, p99.99 %s, over %.0f us: %d, errors %d\n",
			summary_num(a, "transfers_per_s", 0), (int)summary_num(a, "size_bytes", 0),
			summary_us(a, "transfer_time_ns.max", b1, sizeof(b1)),
			summary_us(a, "transfer_time_ns.p99.99", b2, sizeof(b2)),
			summary_num(a, "limit_ns", 0) / 1000, (int)summary_num(a, "over_limit", 0),
			(int)summary_num(a, "errors", 0));
	else if (!strcmp(name, "cpu"))
		fprintf(out, "hackbench %d rounds (%.0f msg/s), stress-ng %d CPUs at %d %%: %.0f bogo-ops/s\n",
			(int)summary_num(a, "hackbench.rounds", 0), summary_num(a, "hackbench.messages_per_s", 0),
			(int)summary_num(a, "stress_ng.cpus", 0), (int)summary_num(a, "stress_ng.load_pct", 0),
			summary_num(a, "stress_ng.bogo_ops_per_s", 0));
	else if (!strcmp(name, "rt-swarm"))
		fprintf(out, "%d of %d tasks, %.0f of %.0f jobs/s, latency max %s p99 %s, %d missed\n",
			(int)summary_num(a, "started", 0), (int)summary_num(a, "tasks", 0),
			summary_num(a, "jobs_per_s", 0), summary_num(a, "planned_jobs_per_s", 0),
			summary_us(a, "activation_latency.max", b1, sizeof(b1)),
			summary_us(a, "activation_latency.p99", b2, sizeof(b2)),
			(int)summary_num(a, "missed_activations", 0));
	else
		fprintf(out, "\n");
	if (!strcmp(name, "wifi"))
		summary_telemetry(a, out);
	if (!strcmp(name, "spi"))
		summary_app_spi(fsw, out);
}

/*
 * summary_sim - the simulator's and the flight software's figures of a
 * flightapp phase, if it ran (the app's SPI times here when no spi load
 * printed them beside its own)
 */
static void summary_sim(const char *dir, const char *phase, json_t *fsw, bool spi_load, FILE *out)
{
	char path[PATH_MAX];
	json_t *sim;

	snprintf(path, sizeof(path), "%s/%s/sim.json", dir, phase);
	sim = json_load_file(path, 0, NULL);
	if (sim)
		fprintf(out, "    %-9s%d IMU frames, %d GPS fixes, %d SPI transfers (slave service max %.1f us), "
			"%d late ticks, track error rms %.1f m\n", "sim",
			(int)summary_num(sim, "imu_frames", 0), (int)summary_num(sim, "gps_fixes", 0),
			(int)summary_num(sim, "spi_transfers", 0), summary_num(sim, "spi_service_max_us", 0),
			(int)summary_num(sim, "late_ticks", 0), summary_num(sim, "track_err_rms_m", 0));
	if (fsw && summary_get(fsw, "imu_frames"))
		fprintf(out, "    %-9s%d IMU frames, %d SPI frames, %d frame errors, %d stale SPI, "
			"%d failsafe events, mode %s\n", "fsw",
			(int)summary_num(fsw, "imu_frames", 0), (int)summary_num(fsw, "spi_frames", 0),
			(int)summary_num(fsw, "frame_errors", 0), (int)summary_num(fsw, "spi_stale", 0),
			(int)summary_num(fsw, "failsafe_events", 0), summary_str(fsw, "final_mode", "?"));
	if (!spi_load)
		summary_app_spi(fsw, out);
	json_decref(sim);
}

/* summary_phases - every phase with its loads' achieved figures, and its cyclictest baseline */
static void summary_phases(const char *dir, json_t *run, json_t *loads, FILE *out)
{
	json_t *p, *lp, *rep, *res, *fsw;
	const char *name;
	char path[PATH_MAX], b1[32], b2[32];
	size_t i;

	fprintf(out, "\nphases (planned / ran)\n");
	json_array_foreach(summary_get(run, "phases"), i, p) {
		fprintf(out, "  %-18s %-10s %5.0f s / %5.0f s%s\n", summary_str(p, "dir", "?"),
			summary_str(p, "measure", "?"), summary_num(p, "planned_s", 0), summary_num(p, "elapsed_s", 0),
			json_is_true(summary_get(p, "partial")) ? "  PARTIAL" : "");
		lp = json_array_get(summary_get(loads, "phases"), i);
		snprintf(path, sizeof(path), "%s/%s/fsw.json", dir, summary_str(p, "dir", "?"));
		fsw = json_load_file(path, 0, NULL);
		json_object_foreach(summary_get(lp, "loads"), name, rep)
			summary_load_line(name, rep, fsw, out);
		summary_sim(dir, summary_str(p, "dir", "?"), fsw, summary_get(lp, "loads.spi") != NULL, out);
		json_decref(fsw);
		if (!strcmp(summary_str(p, "measure", ""), "cyclictest")) {
			snprintf(path, sizeof(path), "%s/%s/results.json", dir, summary_str(p, "dir", "?"));
			res = json_load_file(path, 0, NULL);
			fprintf(out, "    %-9scyclictest max %s, p99.99 %s, %.0f samples\n", "baseline",
				summary_us(res, "cyclictest.all.latency_ns.max", b1, sizeof(b1)),
				summary_us(res, "cyclictest.all.latency_ns.p99.99", b2, sizeof(b2)),
				summary_num(res, "cyclictest.all.latency_ns.count", 0));
			json_decref(res);
		}
	}
}

/* summary_tasks - per task of the app: activation latency, response, overruns; app utilisation */
static void summary_tasks(json_t *res, FILE *out)
{
	char b1[32], b2[32], b3[32];
	json_t *t, *c;
	size_t i, j;

	fprintf(out, "\napp tasks        act.lat max   p99.99      response max  overruns  misses  jobs\n");
	if (!json_array_size(summary_get(res, "tasks")))
		fprintf(out, "  (no app tasks in results.json: no flightapp phase ran or it recorded nothing)\n");
	json_array_foreach(summary_get(res, "tasks"), i, t)
		fprintf(out, "  %-14s %-13s %-11s %-13s %-9d %-7d %d\n", summary_str(t, "name", "?"),
			summary_us(t, "activation_latency_ns.max", b1, sizeof(b1)),
			summary_us(t, "activation_latency_ns.p99.99", b2, sizeof(b2)),
			summary_us(t, "response_time_ns.max", b3, sizeof(b3)),
			(int)summary_num(t, "overruns", 0), (int)summary_num(t, "deadline_misses", 0),
			(int)summary_num(t, "jobs", 0));
	if (summary_get(res, "app"))
		fprintf(out, "  app utilisation %.1f %% of one CPU (worst 1 s %.1f %%), slot overruns %d of %d\n",
			100 * summary_num(res, "app.utilisation", 0), 100 * summary_num(res, "app.utilisation_max_1s", 0),
			(int)summary_num(res, "slots.overruns", 0), (int)summary_num(res, "slots.count", 0));
	fprintf(out, "  cyclictest baseline beside the app: max %s, p99.99 %s\n",
		summary_us(res, "cyclictest.all.latency_ns.max", b1, sizeof(b1)),
		summary_us(res, "cyclictest.all.latency_ns.p99.99", b2, sizeof(b2)));
	fprintf(out, "\nworst culprits\n");
	json_array_foreach(summary_get(res, "tasks"), i, t)
		json_array_foreach(summary_get(t, "culprits"), j, c)
			if (j < 2)
				fprintf(out, "  %s\n", summary_str(c, "summary", "?"));
}

/* summary_file - copy a text file of the run directory, indented, skipping '#' lines if asked */
static int summary_file(const char *dir, const char *name, FILE *out, bool skip_comments, int *failed)
{
	char path[PATH_MAX], line[1024];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (skip_comments && line[0] == '#')
			continue;
		if (failed && !strncmp(line, "not ok", 6) && !strstr(line, "# TODO"))
			(*failed)++;
		fprintf(out, "  %s", line);
		n++;
	}
	fclose(f);
	return n;
}

/* summary_path - dir/name into buf */
static char *summary_path(char *buf, size_t size, const char *dir, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
	return buf;
}

void summary_write(const char *dir, FILE *out)
{
	json_t *si = summary_load(dir, "sysinfo.json"), *run = summary_load(dir, "run.json");
	json_t *loads = summary_load(dir, "loads.json"), *res = summary_load(dir, "results.json");
	int failed = 0, code = (int)summary_num(run, "exit_code", -1);
	char path[PATH_MAX], pdf[PATH_MAX];
	bool partial = json_is_true(summary_get(run, "partial"));
	const char *verdict;

	verdict = code == 0 ? "PASS: every requirement met" : code == 1 ? "FAIL: requirements not met" :
		  "NOT QUALIFIED: the run could not be completed";
	fprintf(out, "preflight qualification: scenario '%s'%s\n", summary_str(run, "scenario.name", "?"),
		partial ? " (PARTIAL: interrupted or a phase ended early)" : "");
	fprintf(out, "run directory %s, %s .. %s\n", dir, summary_str(run, "started_utc", "?"),
		summary_str(run, "ended_utc", "?"));
	if (json_is_string(summary_get(run, "failure")))
		fprintf(out, "why: %s\n", summary_str(run, "failure", "?"));
	summary_machine(si, out);
	summary_phases(dir, run, loads, out);
	if (res)
		summary_tasks(res, out);
	else
		fprintf(out, "\nresults: no results.json (analysis did not run)\n");
	fprintf(out, "\nverdicts (%s)\n", summary_get(run, "budgets") ? "budgets.ini" : "no budgets");
	if (summary_file(dir, "verdicts.tap", out, false, &failed) < 0)
		fprintf(out, "  (no verdicts.tap)\n");
	fprintf(out, "\nevidence (SHA-256)\n");
	if (summary_file(dir, "SHA256SUMS", out, false, NULL) < 0)
		fprintf(out, "  (no SHA256SUMS)\n");
	summary_path(pdf, sizeof(pdf), dir, "report.pdf");
	if (!access(summary_path(path, sizeof(path), dir, "report.html"), R_OK))
		fprintf(out, "\nreport: %s%s\n", path, access(pdf, R_OK) ? "" : " (and report.pdf)");
	fprintf(out, "\nresult: %s", verdict);
	if (code == 1)
		fprintf(out, " (%d failed)", failed);
	if (code == 1 && si && json_array_size(summary_get(si, "warnings")))
		fprintf(out, "; the machine warnings above and the culprits explain why");
	fprintf(out, "\n");
	json_decref(si);
	json_decref(run);
	json_decref(loads);
	json_decref(res);
}

static int cmd_qualify_run(int argc, char **argv);

const struct pf_command cmd_qualify = {
	.name = "qualify",
	.summary = "qualify this machine: survey, run a scenario, analyse, check budgets, summarise",
	.usage =
	"usage: preflight qualify [--scenario NAME] [--budgets FILE] [-o RUN_DIR] [--no-report]\n"
	"       preflight qualify --summary RUN_DIR\n"
	"\n"
	"Shows the system survey's warnings, runs the scenario (preflight run), checks\n"
	"the budgets and prints the qualification summary: machine, phases with the\n"
	"loads they achieved, per task activation latency / response / overruns, app\n"
	"utilisation, cyclictest baseline, verdicts (TAP), worst culprits, evidence.\n"
	"The summary is also written to RUN_DIR/qualification.txt; the reviewer report\n"
	"(preflight report) to RUN_DIR/report.html and report.pdf.\n"
	"\n"
	"options:\n"
	"  -s, --scenario NAME   scenario name or .ini path (default: quick)\n"
	"  -b, --budgets FILE    budgets (default: the scenario's, else budgets/seed.ini)\n"
	"  -o, --output RUN_DIR  run directory (default: runs/<UTC time>-<host>)\n"
	"      --summary RUN_DIR print the summary of an existing run directory and\n"
	"                        exit (default: off, run a new qualification)\n"
	"      --no-report       no report.html / report.pdf (default: write them)\n"
	"  -h, --help            this text\n"
	"\n"
	"exit: 0 all requirements met, 1 a requirement failed, 2 bad usage or scenario,\n"
	"      3 the run could not be done (missing tool or piece, load failed, interrupted),\n"
	"      4 internal error\n",
	.run = cmd_qualify_run,
};

/* summary_survey - the system survey (with its warnings) on stdout before anything runs */
static void summary_survey(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *argv[] = { self, "sysinfo", NULL };
	struct pf_proc p;
	int ret;

	if (n <= 0)
		return;
	self[n] = '\0';
	fflush(stdout);
	ret = pf_proc_spawn(&p, argv, "-", "-", 0);
	if (ret == 0) {
		while (waitpid(p.pid, &p.status, 0) < 0 && errno == EINTR)
			;
		p.reaped = true;
	}
	if (ret < 0 || pf_proc_exit_code(&p) != 0)
		pf_err("the system survey (preflight sysinfo) did not run (exit %d)", ret < 0 ? ret : pf_proc_exit_code(&p));
}

static int cmd_qualify_run(int argc, char **argv)
{
	enum { OPT_SUMMARY = 256, OPT_NO_REPORT };
	static const struct option opts[] = {
		{ "scenario", required_argument, NULL, 's' },
		{ "budgets", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "summary", required_argument, NULL, OPT_SUMMARY },
		{ "no-report", no_argument, NULL, OPT_NO_REPORT },
		{ NULL, 0, NULL, 0 },
	};
	struct run_opts o = { .scenario = "quick" };
	char dir[PATH_MAX] = "", path[PATH_MAX];
	FILE *f;
	int c, ret;

	while ((c = getopt_long(argc, argv, "s:b:o:", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o.scenario = optarg;
			break;
		case 'b':
			o.budgets = optarg;
			break;
		case 'o':
			o.out_dir = optarg;
			break;
		case OPT_NO_REPORT:
			o.no_report = true;
			break;
		case OPT_SUMMARY:
			if (access(optarg, R_OK))
				return pf_fail(PF_EXIT_USAGE, "'%s': no such run directory", optarg);
			summary_write(optarg, stdout);
			return PF_EXIT_OK;
		default:
			return pf_usage_error(&cmd_qualify, "bad option");
		}
	}
	if (optind != argc)
		return pf_usage_error(&cmd_qualify, "'%s': unexpected argument", argv[optind]);

	printf("== system survey (preflight sysinfo)\n");
	summary_survey();
	printf("\n== scenario %s\n", o.scenario);
	fflush(stdout);
	ret = run_scenario(&o, dir, sizeof(dir));
	if (!dir[0])
		return ret;
	printf("\n== qualification summary\n");
	summary_write(dir, stdout);
	snprintf(path, sizeof(path), "%s/qualification.txt", dir);
	f = fopen(path, "we");
	if (f) {
		summary_write(dir, f);
		fclose(f);
	}
	printf("\nresults: %s (summary: %s", dir, path);
	if (!o.no_report && !access(summary_path(path, sizeof(path), dir, "report.html"), R_OK))
		printf(", report: %s", path);
	printf(")\n");
	return ret;
}
