/*
 * jobs_csv.h - what jobs_csv.c offers: the per-job table (--csv DIR's
 * results-jobs.csv, the slot timeline), one row written as a job leaves its task's
 * ring of recent jobs (types.h), the rest at close; written under a temporary
 * name and renamed when complete.
 */
#ifndef AN_JOBS_CSV_H
#define AN_JOBS_CSV_H

#include "types.h"

/*
 * The tables of --csv DIR, named apart from every file a run or phase
 * directory holds: an analysis may write its tables next to its inputs (a
 * phase directory's jobs.csv is the app's job log) and never over them.
 */
#define AN_CSV_THREADS  "results-threads.csv"
#define AN_CSV_CPUS     "results-cpus.csv"
#define AN_CSV_TASKS    "results-tasks.csv"
#define AN_CSV_JOBS     "results-jobs.csv"
#define AN_CSV_CULPRITS "results-culprits.csv"
#define AN_CSV_NTABLES  5
extern const char *const an_csv_tables[AN_CSV_NTABLES];

int  an_jobs_csv_open(struct an_run *r, const char *dir);
void an_jobs_csv_row(struct an_run *r, const struct an_task *t, const struct an_job *j);

/* an_jobs_csv_close - the last rows, then the table renamed into place when 'keep' (else removed); 0 or an exit code */
int  an_jobs_csv_close(struct an_run *r, bool keep);

#endif
