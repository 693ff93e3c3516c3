/*
 * run.h - the scenario runner shared by `preflight run` (run.c) and
 * `preflight qualify` (qualify.c): run a scenario into a run directory,
 * analyse and check it, and write its plain-text summary (report.txt, by
 * `preflight summary` as a child process).
 */
#ifndef RUN_H
#define RUN_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

struct pf_command;

/* what becomes of the traces after the analysis (--keep-trace) */
enum run_keep {
	RUN_KEEP_DEFAULT,	/* always for one run, on-fail for repeats */
	RUN_KEEP_ALWAYS,	/* kept, compressed */
	RUN_KEEP_ON_FAIL,	/* kept, compressed, when a requirement failed or the run could not be done */
	RUN_KEEP_NEVER,		/* removed */
};


struct run_opts {
	const char *scenario;	/* name ("quick") or path of the scenario */
	const char *out_dir;	/* run directory, NULL = runs/<UTC time>-<host> */
	const char *budgets;	/* budgets INI for the check, NULL = the scenario's, else budgets/seed.ini */
	bool summary_stdout;	/* print the summary on stdout at the end */
	bool no_report;		/* --no-report: no report.html / report.pdf at the end */
	const char *previous;	/* --previous: a previous run directory the report compares with, or NULL */
	const char *baseline;	/* --baseline: a baseline file the report compares with, or NULL */
	const char *history;	/* --history: a history database the report draws V2 from, or NULL */
	enum run_keep keep_trace;	/* --keep-trace */
	bool all_threads;	/* --all-threads: every thread in results.json */
	bool check_only;	/* --check: the pre-flight checks only, nothing created */
	int progress_every_s;	/* --progress-every: seconds between plain progress lines, 0 = RUN_PLAIN_PROGRESS_NS */
};

/* the options 'preflight run' and 'preflight qualify' share, for their getopt_long tables */
enum { RUN_OPT_NO_REPORT = 256, RUN_OPT_KEEP_TRACE, RUN_OPT_ALL_THREADS, RUN_OPT_PREVIOUS, RUN_OPT_BASELINE,
       RUN_OPT_HISTORY, RUN_OPT_PROGRESS_EVERY };
#define RUN_COMMON_OPTIONS \
	{ "output", required_argument, NULL, 'o' }, \
	{ "budgets", required_argument, NULL, 'b' }, \
	{ "repeats", required_argument, NULL, 'r' }, \
	{ "no-report", no_argument, NULL, RUN_OPT_NO_REPORT }, \
	{ "keep-trace", required_argument, NULL, RUN_OPT_KEEP_TRACE }, \
	{ "all-threads", no_argument, NULL, RUN_OPT_ALL_THREADS }, \
	{ "previous", required_argument, NULL, RUN_OPT_PREVIOUS }, \
	{ "baseline", required_argument, NULL, RUN_OPT_BASELINE }, \
	{ "history", required_argument, NULL, RUN_OPT_HISTORY }, \
	{ "progress-every", required_argument, NULL, RUN_OPT_PROGRESS_EVERY }
#define RUN_COMMON_HELP \
	"  -o, --output RUN_DIR   run directory (default: runs/<UTC time>-<host>)\n" \
	"  -b, --budgets FILE     budgets for the check (default: the scenario's, else\n" \
	"                         budgets/seed.ini)\n" \
	"  -r, --repeats N        run the scenario N times, each into its own directory\n" \
	"                         RUN_DIR/run-01 ... (default: 1, into RUN_DIR itself);\n" \
	"                         the exit code is the worst, a run that could not be\n" \
	"                         done stops the repeats\n" \
	"      --keep-trace WHEN  after the analysis, the traces are kept compressed\n" \
	"                         (trace-cmd .dat v7, zstd) 'always', 'on-fail' (when a\n" \
	"                         requirement failed or the run could not be done) or\n" \
	"                         'never' (default: always; on-fail with --repeats)\n" \
	"      --all-threads      every thread seen in results.json's threads[] (default:\n" \
	"                         the app's, the realtime ones, the culprits and the top\n" \
	"                         10 others; docs/results.md)\n" \
	"      --no-report        no report.html / report.pdf (default: write them)\n" \
	"      --previous DIR     the report compares with a previous run directory\n" \
	"                         (preflight report --previous; default: none)\n" \
	"      --baseline FILE    ... with a baseline of 'preflight baseline create'\n" \
	"                         (report --baseline; default: none)\n" \
	"      --history DB       ... with the scenario's last runs in a history\n" \
	"                         database (report --history; default: none); each is\n" \
	"                         checked before the run starts\n" \
	"      --progress-every S when stderr is no terminal, a plain progress line\n" \
	"                         every S seconds of a phase, 1 to 3600 (default: 10)\n"

/*
 * run_common_option - one option of RUN_COMMON_OPTIONS (getopt's c and
 * optarg) into o and *repeats: 0 taken, -1 not one of them, or an exit code
 * after a usage error of cmd
 */
int run_common_option(const struct pf_command *cmd, int c, const char *arg, struct run_opts *o,
		      long *repeats);

/*
 * run_scenario - run every phase of a scenario, then analyse, check and
 * summarise into the run directory (its path into dir). Returns the exit
 * code: 0 all requirements met, 1 a requirement failed, 2 bad scenario, 3 a
 * load, tool or piece could not run or the run was interrupted (what was
 * recorded is kept, analysed and marked partial), 4 internal.
 */
int run_scenario(const struct run_opts *o, char *dir, size_t dir_size);

/*
 * run_repeated - run_scenario 'repeats' times, each into its own directory
 * (out_dir/run-01 ..., or runs/<UTC time>-<host>/run-01 ...); the last run's
 * directory into dir; the worst exit code (a run that could not be done, 2 or
 * more, stops the repeats). One repeat is run_scenario into out_dir itself.
 */
int run_repeated(const struct run_opts *o, int repeats, char *dir, size_t dir_size);

/*
 * run_report_compare - append the report's --previous, --baseline and --history
 * of o to argv[n...] (room for six more and the NULL); the new n
 */
int run_report_compare(const struct run_opts *o, char **argv, int n);

struct json_t;

/*
 * run_identity - run.json's "preflight" object: version, commit, compiler,
 * library and tool versions, and the kernel config (copied to DIR/kernel.config)
 */
struct json_t *run_identity(const char *dir);

#endif
