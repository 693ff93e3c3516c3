/*
 * jobs_csv.h - what jobs_csv.c offers: the per-job table (--csv DIR's
 * jobs.csv, the slot timeline), one row written as a job leaves its task's
 * ring of recent jobs (types.h), the rest at close.
 */
#ifndef AN_JOBS_CSV_H
#define AN_JOBS_CSV_H

#include "types.h"

int  an_jobs_csv_open(struct an_run *r, const char *dir);
void an_jobs_csv_row(struct an_run *r, const struct an_task *t, const struct an_job *j);
void an_jobs_csv_close(struct an_run *r);

#endif
