/*
 * jobs_csv.h - what jobs_csv.c offers: the per-job table (--csv DIR's
 * jobs.csv, the slot timeline), one row written as each job ends.
 */
#ifndef AN_JOBS_CSV_H
#define AN_JOBS_CSV_H

#include "types.h"

int  an_jobs_csv_open(struct an_run *r, const char *dir);
void an_jobs_csv_row(struct an_run *r, const struct an_task *t, const struct an_job *j, int cpu,
		     int64_t slot, uint64_t npre, uint64_t nmig, int64_t exec_ns, bool overrun, bool miss);
int an_jobs_csv_close(struct an_run *r, bool keep);

#endif
