/*
 * report.h - what the reviewer report's two files share: the inputs read from
 * a run directory (report.c) and the gnuplot figures drawn from them
 * (report_plots.c). The report is one self-contained HTML file; every figure
 * is a gnuplot SVG embedded as a data: URI, so nothing outside the file is
 * referenced (docs/report.md).
 */
#ifndef REPORT_H
#define REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RPT_MAX_TASKS 16
#define RPT_HISTORY_RUNS 10	/* --history: V2 draws this many runs of the scenario, this one the last */

struct rpt_verdict;

/* one job of the job log: what T1 and U1 are drawn from */
struct rpt_job {
	int      task;		/* index into rpt.tasks */
	int64_t  release_ns;
	int64_t  latency_ns;	/* start - release */
	int64_t  cpu_ns;
	int64_t  response_ns;	/* end - release, -1 when the job did not end */
	int64_t  seq;		/* the task's job sequence number */
	int      cpu;		/* where it ran (the job log's cpu column), -1 unknown */
};

struct rpt {
	const char *dir;		/* the run directory as given */
	char        run_id[256];	/* its name: on every page */
	json_t     *results;		/* results.json, or NULL */
	json_t     *run;		/* run.json, or NULL (analyze-only) */
	json_t     *sysinfo;		/* sysinfo.json, or NULL */
	json_t     *loads;		/* loads.json, or NULL */
	json_t     *base_idle;		/* results.json of the idle cyclictest phase, or NULL */
	json_t     *base_loaded;	/* ... of the loaded one, or NULL */
	json_t     *verdicts;		/* verdicts.json, or NULL */
	const char *previous_dir;	/* --previous: a previous run directory, or NULL */
	const char *baseline_file;	/* --baseline: a baseline file, or NULL */
	json_t     *prev_verdicts;	/* ... its verdicts.json */
	json_t     *baseline;		/* --baseline: a preflight-baseline/1 file (docs/ci.md), or NULL */
	const char *history_db;		/* --history: a history database (docs/ci.md), or NULL */
	json_t     *history;		/* ... the scenario's earlier runs, oldest first (history verdicts' runs[]) */
	struct rpt_verdict *verdict;	/* its tests, parsed (report.c) */
	int         nverdicts;
	char       *sums;		/* SHA256SUMS, or NULL */
	char       *budgets;		/* budgets.ini, or NULL */
	char       *sysinfo_txt;	/* sysinfo.txt, or NULL */
	char        joblog[4096];	/* the app phase's jobs.csv, "" when none */
	char        app_dir[4096];	/* the app phase's directory, "" when unknown */
	bool        partial;
	char        partial_why[512];
	FILE       *out;		/* the HTML being written */
	char        tmpdir[256];	/* gnuplot's scripts and SVGs */
	int         nplots;		/* figures drawn so far */
	int         ng1;		/* G1 figures drawn so far: the next is G1.<ng1 + 1> */
	int         plot_failures;	/* figures gnuplot could not draw */
	char        gnuplot_version[128];
	char        kconfig_sha256[65];	/* of the run directory's kernel.config, "" when none */
	/* what a section could not show: listed again under Deviations */
	char       *missing[64];
	int         nmissing;
	/* the app's tasks in results.json order: their colour is their index */
	const char *task_names[RPT_MAX_TASKS];
	int         ntasks;
	struct rpt_job *jobs;		/* the job log, when there is one */
	size_t      njobs, jobs_cap;
	bool        jobs_read;
	double      deadline_ns[RPT_MAX_TASKS];	/* R1: 0 not looked up yet, -1 none */
};


/* rpt_num - a number at a path, or NAN when absent or null */
double rpt_num(json_t *root, const char *path);

/* rpt_int - a number at a path as an integer, or dflt when absent, null, not whole-able or out of range */
int64_t rpt_int(json_t *root, const char *path, int64_t dflt);
/* rpt_free - what rpt_load and rpt_write allocated in r (not its temporary directory) */
void rpt_free(struct rpt *r);

/*
 * rpt_esc - write text HTML-escaped (lib/markup.h, the one escape), for every
 * string the report writes: safe as element text and as an attribute value
 */
void rpt_esc(FILE *out, const char *text);

/* rpt_esc_str - rpt_esc into buf (truncated to fit, NUL-terminated); returns buf */
const char *rpt_esc_str(const char *text, char *buf, size_t size);

/* rpt_note_missing - remember that something could not be shown, and say so where it is missing */
void rpt_note_missing(struct rpt *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* rpt_str - a string at a path, or 'dflt' */
const char *rpt_str(json_t *root, const char *path, const char *dflt);

/* rpt_task_colour - the fixed colour-blind-safe colour of task i (Okabe-Ito) */
const char *rpt_task_colour(int i);

/* rpt_budget_ns - the budget bound (ns) of a metric path from the verdicts, or NAN */
double rpt_budget_ns(struct rpt *r, const char *path);

/*
 * rpt_budget_match_ns - the time bound (ns) of the first verdict whose metric path matches an
 * fnmatch(3) pattern ("cyclictest.*latency_ns.max"), its requirement's id in *id; NAN when none
 */
double rpt_budget_match_ns(struct rpt *r, const char *pattern, const char **id);

/* rpt_read_jobs - read the job log once into r->jobs (lib/joblog_read.c); 0 (none: no jobs), or an exit code, said */
int rpt_read_jobs(struct rpt *r);

/* rpt_exec - run argv to completion, stdout and stderr to files; its exit status, or -errno */
int rpt_exec(char *const argv[], const char *out_path, const char *err_path);

/* rpt_slurp - a whole file into a malloc'd NUL-terminated buffer (its length in *len); NULL on error */
char *rpt_slurp(const char *path, size_t *len);

/* rpt_plot - run a gnuplot script (terminal and output are set here) and embed the SVG as a figure */
int rpt_plot(struct rpt *r, const char *id, const char *title, const char *caption, const char *script);

/*
 * rpt_latency_judged - which tasks' latency a budget judges (their wakeup or activation latency's
 * maximum) into judged[] (RPT_MAX_TASKS); how many
 */
int rpt_latency_judged(struct rpt *r, bool *judged);

/* The figures of the catalogue (docs/report.md); each says itself when it cannot be drawn. */
void rpt_plot_v1(struct rpt *r);
void rpt_plot_v2(struct rpt *r);
void rpt_plot_h1(struct rpt *r);
void rpt_plot_e1(struct rpt *r);
void rpt_plot_x1(struct rpt *r);
void rpt_plot_t1(struct rpt *r);
void rpt_plot_r1(struct rpt *r);
void rpt_plot_u1(struct rpt *r);
void rpt_plot_b1(struct rpt *r);
void rpt_plot_x2(struct rpt *r);
void rpt_plot_f1(struct rpt *r, double app_start_s, double app_end_s);
void rpt_plot_l1(struct rpt *r);
void rpt_plot_g1(struct rpt *r, int task, json_t *culprit, int nth);

#endif
