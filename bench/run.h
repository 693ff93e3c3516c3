/*
 * run.h - the scenario runner shared by `preflight run` (run.c) and
 * `preflight qualify` (qualify.c): run a scenario into a run directory,
 * analyse and check it, and write its plain-text summary (report.txt, by
 * `preflight summary` as a child process).
 */
#ifndef RUN_H
#define RUN_H

#include <stdbool.h>
#include <stddef.h>

struct run_opts {
	const char *scenario;	/* name ("quick") or path of the scenario */
	const char *out_dir;	/* run directory, NULL = runs/<UTC time>-<host> */
	const char *budgets;	/* budgets INI for the check, NULL = the scenario's, else budgets/seed.ini */
	bool summary_stdout;	/* print the summary on stdout at the end */
	bool no_report;		/* --no-report: no report.html / report.pdf at the end */
	bool check_only;	/* --check: the pre-flight checks only, nothing created */
};

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

#endif
