/*
 * st_compare.h - the selftest's comparison (st_compare.c): the injector's log
 * (ground truth, st_log.h) against what `preflight analyze` made of the
 * trace (its jobs.csv and results.json) and the executive's job log, case by
 * case, into error distributions, exact counts and verdicts; written as
 * selftest.json and as TAP (docs/selftest.md). Pure: files in, results out,
 * no timing; `make check` runs it on a recorded fixture.
 */
#ifndef ST_COMPARE_H
#define ST_COMPARE_H

#include "st_log.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define ST_TASK_MAX   24
#define ST_CHECKS_MAX 8
#define ST_GOAL_NS    2000		/* |error| at p99 for the timing cases */

/* one injection of the log */
struct st_row {
	int      c;			/* enum st_case */
	char     task[ST_TASK_MAX];
	int64_t  slot, release_ns, t0_ns, t1_ns, t2_ns, t3_ns, gaps_ns, param, cpu_ns, t4_ns, t5_ns, t6_ns;
	int      pid, pid2;
};

/* the injector log */
struct st_log {
	int64_t  slot_ns, t0_ns;
	int      cpu_victim, cpu_tick, ncpus;
	int64_t  gap_ns;			/* the hole in a spin that counted as an interruption */
	bool     quick, storm;
	int64_t  first_slot[ST_NCASES + 1], last_slot[ST_NCASES + 1];	/* -1: case not run */
	char     skip[ST_NCASES + 1][160];	/* why a case could not run on this platform ("": it could) */
	struct st_row *rows;
	int      nrows;
};

/* one job, from analyze's results-jobs.csv or the executive's job log (fields it lacks are -1) */
struct st_job {
	char     task[ST_TASK_MAX];
	int64_t  seq, release_ns, start_ns, end_ns, latency_ns, response_ns, exec_ns;
	int      cpu, preemptions, migrations, overrun, deadline_miss, lost, missed;
};

struct st_jobs {
	struct st_job *v;
	int      n;
};

/* a count checked exactly */
struct st_check {
	const char *name;
	int64_t  expected, measured;
};

/* the outcome of one case */
struct st_result {
	int      c;
	int      injections;		/* injections the log shows done (case 7: lost-event windows) */
	int      invalid;		/* of those, not as planned (the check that tells is in 'note') */
	int64_t *err;			/* per valid injection: measured - expected (ns, or a count) */
	int      nerr, cap;
	const char *unit;		/* "ns" or "count" */
	int64_t  goal_ns;		/* |error| p99 bound, 0 when the verdict is on the checks */
	struct st_check check[ST_CHECKS_MAX];
	int      nchecks;
	int      worst;			/* row index of the worst |error|, -1 */
	int64_t  worst_err;
	bool     run;			/* false: the case was not part of this selftest */
	const char *skip;		/* not run on this platform, and why (not counted as failed) */
	bool     pass;
	char     note[512];
	json_t  *extra;			/* case-specific figures (case 8, 9), owned */
};

/* st_log_read - read an injector log; 0, or -EINVAL / -errno with "file:line: why" in err */
int st_log_read(const char *path, struct st_log *log, char *err, size_t err_size);
void st_log_free(struct st_log *log);

/* st_jobs_read - read analyze's results-jobs.csv; 0, or -EINVAL / -errno with "file:line: why" in err */
int st_jobs_read(const char *path, struct st_jobs *jobs, char *err, size_t err_size);
/*
 * st_joblog_read - read the executive's job log (lib/joblog_read.c: its
 * format version and rows checked); 0, or an exit code, said
 */
int st_joblog_read(const char *path, struct st_jobs *jobs);
void st_jobs_free(struct st_jobs *jobs);

/* the inputs of a comparison: NULL members are cases not run */
struct st_inputs {
	const struct st_log *log;	/* the injection run */
	const struct st_jobs *jobs;	/* its analysis, jobs.csv */
	const struct st_jobs *joblog;	/* its job log */
	json_t  *results;		/* its results.json */
	json_t  *lost_results;		/* the storm run's results.json */
	const struct st_jobs *lost_jobs;	/* the storm run's jobs.csv */
	const struct st_jobs *lost_joblog;	/* the storm run's job log (the app's truth) */
	int64_t  lost_recorded;		/* the recorder's lost-event count of the storm trace, -1 unknown */
	const char *perf_path;		/* flightapp-perf's output */
};

/* st_compare - every case; res[c] for c = 1..ST_NCASES; 0 or -ENOMEM */
int st_compare(const struct st_inputs *in, struct st_result res[ST_NCASES + 1]);

/* st_results_free - what st_compare allocated */
void st_results_free(struct st_result res[ST_NCASES + 1]);

/* st_pct - the sample of rank ceil(q * n) of a sorted array (exact) */
int64_t st_pct(const int64_t *sorted, int n, double q);

/* st_json - selftest.json (schema preflight-selftest/1) */
json_t *st_json(const struct st_inputs *in, struct st_result res[ST_NCASES + 1]);

/* st_tap - the verdicts as TAP, one test per case; returns the number of failed cases */
int st_tap(FILE *out, const struct st_inputs *in, struct st_result res[ST_NCASES + 1]);

#endif
