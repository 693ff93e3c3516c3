/*
 * qualify.c - `preflight qualify [--scenario NAME] [--budgets FILE] [-o DIR]`:
 * the main job. The system survey's warnings first (what will hurt latency
 * on this machine), then the scenario run (run.c: loads, cyclictest
 * baseline, the app under trace, analysis, budget check), then the plain-
 * text qualification summary in the run directory (qualification.txt; run.c
 * writes the same text as report.txt) and on stdout.
 *
 * The survey, the selftest and the summary are `preflight sysinfo`,
 * `preflight selftest` and `preflight summary` (reports/summary.c) run as
 * child processes: qualify reaches them only
 * through processes and files (docs/ARCHITECTURE.md), and
 * `preflight qualify --summary DIR` is `preflight summary DIR`.
 */
#include "command.h"
#include "common.h"
#include "datafile.h"
#include "loads/load.h"
#include "run.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmd_qualify_run(int argc, char **argv);

const struct pf_command cmd_qualify = {
	.name = "qualify",
	.summary = "qualify this machine: survey, run a scenario, analyse, check budgets, summarise",
	.usage =
	"usage: preflight qualify [--scenario NAME] [--budgets FILE] [-o RUN_DIR] [--repeats N]\n"
	"                         [--no-report] [--keep-trace always|on-fail|never] [--all-threads]\n"
	"                         [--previous RUN_DIR] [--baseline FILE] [--history DB] [--no-selftest]\n"
	"                         [--progress-every S]\n"
	"       preflight qualify --summary RUN_DIR\n"
	"\n"
	"Shows the system survey's warnings, runs the quick selftest (preflight selftest\n"
	"--quick: does the tool measure right on this machine?), runs the scenario\n"
	"(preflight run), checks the budgets and prints the qualification summary:\n"
	"measurement validity (the selftest's cases), machine, phases with the\n"
	"loads they achieved, per task activation latency / response / overruns, app\n"
	"utilisation, cyclictest baseline, verdicts (verdicts.json), worst culprits, evidence.\n"
	"The summary is also written to RUN_DIR/qualification.txt; the reviewer report\n"
	"(preflight report) to RUN_DIR/report.html and report.pdf.\n"
	"\n"
	"options:\n"
	"  -s, --scenario NAME    scenario name or .ini path (default: quick)\n"
	RUN_COMMON_HELP
	"      --no-selftest      no selftest first (default: run it into RUN_DIR/selftest;\n"
	"                         the summary's 'measurement validity' section shows it)\n"
	"      --summary RUN_DIR  print the summary of an existing run directory and\n"
	"                         exit, as 'preflight summary RUN_DIR' does (default:\n"
	"                         off, run a new qualification)\n"
	"  -h, --help             this text\n"
	"\n"
	"With --repeats each run has its qualification.txt (for 'preflight baseline');\n"
	"the last one's summary and one line per run are printed.\n"
	"\n"
	"exit: 0 all requirements met, 1 a requirement failed, 2 bad usage or scenario,\n"
	"      3 the run could not be done (missing tool or piece, load failed, interrupted),\n"
	"      4 internal error\n",
	.run = cmd_qualify_run,
};

/*
 * qualify_spawn - run argv (argv[0] replaced by this program) to the end, its
 * stdout to out_path ("-": ours); its exit code, or -errno when it could not start
 */
static int qualify_spawn(const char *out_path, char **argv)
{
	char self[PATH_MAX];
	int err = pf_self_exe(self, sizeof(self));
	struct pf_proc p;
	int ret;

	if (err < 0)
		return err;
	argv[0] = self;
	fflush(stdout);
	ret = pf_proc_spawn(&p, argv, out_path, "-", 0);
	return ret < 0 ? ret : pf_proc_wait(&p);
}

/* qualify_child - run `preflight ARG1 ARG2 ...` (NULL-terminated, at most 6) as qualify_spawn does */
static int qualify_child(const char *out_path, const char *arg1, ...)
{
	char *argv[8] = { NULL, (char *)arg1 };
	va_list ap;
	int i = 2;

	va_start(ap, arg1);
	while (i < 7 && (argv[i] = va_arg(ap, char *)))
		i++;
	va_end(ap);
	argv[i] = NULL;
	return qualify_spawn(out_path, argv);
}

/* qualify_print - copy a file to stdout; 0 or -1 when it cannot be read */
static int qualify_print(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return 0;
}

/*
 * qualify_repeats - after repeated runs (last_dir is BASE/run-NN): each run's
 * qualification.txt, and one line per run with its exit code on stdout
 */
static void qualify_repeats(const char *last_dir, int repeats)
{
	char base[PATH_MAX - 64], rdir[PATH_MAX - 32], path[PATH_MAX];
	json_t *run;
	int i;

	snprintf(base, sizeof(base), "%s", last_dir);
	if (strrchr(base, '/'))
		*strrchr(base, '/') = '\0';
	printf("\n== %d repeats in %s\n", repeats, base);
	for (i = 1; i <= repeats; i++) {
		snprintf(rdir, sizeof(rdir), "%s/run-%02d", base, i);
		snprintf(path, sizeof(path), "%s/run.json", rdir);
		run = json_load_file(path, 0, NULL);
		if (!run)
			break;
		snprintf(path, sizeof(path), "%s/qualification.txt", rdir);
		if (qualify_child(NULL, "summary", rdir, "-o", path, NULL))
			pf_err("%s: not written", path);
		printf("  %s: exit %d%s\n", rdir, (int)json_integer_value(json_object_get(run, "exit_code")),
		       json_is_true(json_object_get(run, "partial")) ? " (partial)" : "");
		json_decref(run);
	}
}

/*
 * qualify_selftest - `preflight selftest --quick` into a directory beside the
 * run directory to come (same file system: it is moved into it afterwards);
 * its path into st_dir ("" when it did not run). Its TAP goes to stdout.
 */
static void qualify_selftest(const char *out_dir, char *st_dir, size_t size)
{
	char parent[PATH_MAX - 64], *slash;
	int ret;

	snprintf(parent, sizeof(parent), "%s", out_dir ? out_dir : "runs/x");
	slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(parent, sizeof(parent), ".");
	snprintf(st_dir, size, "%s/.selftest-%d", parent, (int)getpid());
	printf("\n== measurement validity (preflight selftest --quick)\n");
	ret = qualify_child("-", "selftest", "--quick", "-o", st_dir, NULL);
	if (ret == PF_EXIT_FAILED)
		printf("WARNING: the selftest failed: the qualification's measurements are not validated on this machine\n");
	else if (ret)
		pf_err("the selftest (preflight selftest --quick) did not run (exit %d)", ret);
	if (access(st_dir, F_OK))
		st_dir[0] = '\0';
}

/*
 * qualify_report - the reviewer report of the run again, now that selftest/
 * is in its directory: 'run' rendered it before, without the selftest, and
 * the document a reviewer files must carry its verdict (a failed selftest
 * first of all). As run does: report.html and report.pdf, its output in
 * report.log; a report that cannot be written is said and changes no verdict.
 */
static void qualify_report(const char *dir, const struct run_opts *o)
{
	char html[PATH_MAX], pdf[PATH_MAX], log[PATH_MAX];
	char *argv[16] = { NULL, "report", (char *)dir, "-o", html, "--pdf", pdf };
	int code;

	snprintf(html, sizeof(html), "%.4000s/report.html", dir);
	snprintf(pdf, sizeof(pdf), "%.4000s/report.pdf", dir);
	snprintf(log, sizeof(log), "%.4000s/report.log", dir);
	if (access(html, F_OK))
		return;	/* run wrote none (not in this build, or it failed and said so) */
	run_report_compare(o, argv, 7);	/* compared with what run compared it with */
	code = qualify_spawn(log, argv);
	if (code)
		pf_err("preflight report (with the selftest) exited with %d (see %s)", code, log);
}

static int cmd_qualify_run(int argc, char **argv)
{
	enum { OPT_SUMMARY = 300, OPT_NO_SELFTEST };
	static const struct option opts[] = {
		{ "scenario", required_argument, NULL, 's' },
		{ "summary", required_argument, NULL, OPT_SUMMARY },
		RUN_COMMON_OPTIONS,
		{ "no-selftest", no_argument, NULL, OPT_NO_SELFTEST },
		{ NULL, 0, NULL, 0 },
	};
	struct run_opts o = { .scenario = "quick" };
	char dir[PATH_MAX] = "", path[PATH_MAX], st_dir[PATH_MAX] = "";
	bool selftest = true;
	long repeats = 1;
	int c, ret, code;

	while ((c = getopt_long(argc, argv, "s:b:o:r:", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o.scenario = optarg;
			break;
		case OPT_NO_SELFTEST:
			selftest = false;
			break;
		case OPT_SUMMARY:
			ret = qualify_child("-", "summary", optarg, NULL);
			if (ret < 0)
				return pf_fail(PF_EXIT_INTERNAL, "preflight summary: cannot start: %s", strerror(-ret));
			return ret;
		default:
			ret = run_common_option(&cmd_qualify, c, optarg, &o, &repeats);
			if (ret > 0)
				return ret;
			if (ret < 0)
				return pf_option_error(&cmd_qualify, argv, "s:b:o:r:");
		}
	}
	if (optind != argc)
		return pf_usage_error(&cmd_qualify, "'%s': unexpected argument", argv[optind]);

	if (o.previous || o.baseline || o.history) {
		/* what the report compares with is read before the selftest's minute is spent (run checks it again) */
		struct run_opts check = o;

		check.check_only = true;
		printf("== pre-flight checks (preflight run --check)\n");
		ret = run_repeated(&check, 1, dir, sizeof(dir));
		if (ret)
			return ret;
		dir[0] = '\0';
	}
	printf("== system survey (preflight sysinfo)\n");
	ret = qualify_child("-", "sysinfo", NULL);
	if (ret)
		pf_err("the system survey (preflight sysinfo) did not run (exit %d)", ret);
	if (selftest)
		qualify_selftest(o.out_dir, st_dir, sizeof(st_dir));
	printf("\n== scenario %s\n", o.scenario);
	fflush(stdout);
	ret = run_repeated(&o, (int)repeats, dir, sizeof(dir));
	if (!dir[0])
		return ret;
	if (st_dir[0]) {
		snprintf(path, sizeof(path), "%s/selftest", dir);
		if (rename(st_dir, path))
			pf_err("%s: not moved to %s: %s", st_dir, path, strerror(errno));
		else if (!o.no_report)
			qualify_report(dir, &o);
	}
	if (repeats > 1)
		qualify_repeats(dir, (int)repeats);
	printf("\n== qualification summary\n");
	snprintf(path, sizeof(path), "%s/qualification.txt", dir);
	code = qualify_child(NULL, "summary", dir, "-o", path, NULL);
	if (code || qualify_print(path)) {
		pf_err("%s: not written or not readable (preflight summary exit %d)", path, code);
		if (qualify_child("-", "summary", dir, NULL))
			return ret ? ret : PF_EXIT_ENV;
	}
	fflush(stdout);
	printf("\nresults: %s (summary: %s", dir, path);
	snprintf(path, sizeof(path), "%s/report.html", dir);
	if (!o.no_report && !access(path, R_OK))
		printf(", report: %s", path);
	printf(")\n");
	return ret;
}
