/*
 * jobs_csv.c - the per-job table of 'preflight analyze --csv DIR' (results-jobs.csv:
 * task, seq, slot, release, start, end, latency, response, exec, cpu,
 * preemptions, migrations, overrun, deadline_miss, lost - the slot
 * timeline). tasks.c writes one row as each job ends, so the table is never
 * held in memory.
 */
#define _GNU_SOURCE
#include "jobs_csv.h"

#include <csv.h>
#include <errno.h>
#include <string.h>

const char *const an_csv_tables[AN_CSV_NTABLES] = {
	AN_CSV_THREADS, AN_CSV_CPUS, AN_CSV_TASKS, AN_CSV_JOBS, AN_CSV_CULPRITS,
};

/* an_jobs_csv_open - DIR/results-jobs.csv with its header line */
int an_jobs_csv_open(struct an_run *r, const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/" AN_CSV_JOBS, dir);
	r->jobs_csv = fopen(path, "w");
	if (!r->jobs_csv)
		return pf_fail(PF_EXIT_ENV, "%s: %s", path, strerror(errno));
	fputs("task,seq,slot,release_ns,start_ns,end_ns,latency_ns,response_ns,exec_ns,cpu,"
	      "preemptions,migrations,overrun,deadline_miss,lost\n", r->jobs_csv);
	return 0;
}

/* an_jobs_csv_row - the row of one finished job */
void an_jobs_csv_row(struct an_run *r, const struct an_task *t, const struct an_job *j, int cpu,
		     int64_t slot, uint64_t npre, uint64_t nmig, int64_t exec_ns, bool overrun, bool miss)
{
	csv_fwrite(r->jobs_csv, t->name, strlen(t->name));
	fprintf(r->jobs_csv, ",%u,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%d,%llu,%llu,%d,%d,%d\n", j->seq,
		(long long)slot, (long long)j->release_ns, (long long)j->start_ns, (long long)j->end_ns,
		(long long)(j->start_ns - j->release_ns), (long long)(j->end_ns - j->release_ns),
		(long long)exec_ns, cpu, (unsigned long long)npre, (unsigned long long)nmig, overrun, miss, j->lost);
}

void an_jobs_csv_close(struct an_run *r)
{
	if (r->jobs_csv)
		fclose(r->jobs_csv);
	r->jobs_csv = NULL;
}
