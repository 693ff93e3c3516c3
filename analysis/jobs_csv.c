/*
 * jobs_csv.c - the per-job table of 'preflight analyze --csv DIR' (results-jobs.csv:
 * task, seq, slot, release, start, end, latency, response, exec, cpu,
 * preemptions, migrations, overrun, deadline_miss, lost - the slot
 * timeline). A row is written when its job leaves the task's ring of the
 * last AN_JOB_RING jobs, so a lost-event window found late still flags it,
 * and the table is never held in memory; a task's rows are in job order.
 */
#define _GNU_SOURCE
#include "jobs_csv.h"
#include "outfile.h"

#include <csv.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

const char *const an_csv_tables[AN_CSV_NTABLES] = {
	AN_CSV_THREADS, AN_CSV_CPUS, AN_CSV_TASKS, AN_CSV_JOBS, AN_CSV_CULPRITS,
};

/* an_jobs_csv_open - DIR/results-jobs.csv with its header line (lib/outfile.h; committed at close) */
int an_jobs_csv_open(struct an_run *r, const char *dir)
{
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/" AN_CSV_JOBS, dir);
	if ((ret = pf_outfile_open(path, &r->jobs_csv)))
		return ret;
	fputs("task,seq,slot,release_ns,start_ns,end_ns,latency_ns,response_ns,exec_ns,cpu,"
	      "preemptions,migrations,overrun,deadline_miss,lost\n", r->jobs_csv);
	return 0;
}

/* an_jobs_csv_row - the row of one finished job */
void an_jobs_csv_row(struct an_run *r, const struct an_task *t, const struct an_job *j)
{
	csv_fwrite(r->jobs_csv, t->name, strlen(t->name));
	fprintf(r->jobs_csv, ",%u,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%d,%llu,%llu,%d,%d,%d\n", j->seq,
		(long long)j->slot, (long long)j->release_ns, (long long)j->start_ns, (long long)j->end_ns,
		(long long)(j->start_ns - j->release_ns), (long long)(j->end_ns - j->release_ns),
		(long long)j->exec_ns, j->cpu, (unsigned long long)j->npre, (unsigned long long)j->nmig,
		j->overrun, j->miss, j->lost);
}

int an_jobs_csv_close(struct an_run *r, bool keep)
{
	struct an_task *t;
	uint32_t k, n;
	int i, ret = 0;

	if (!r->jobs_csv)
		return 0;
	for (i = 0; i < r->ntasks; i++) {
		t = r->task[i];
		n = t->ring_n < AN_JOB_RING ? t->ring_n : AN_JOB_RING;
		for (k = t->ring_n - n; k < t->ring_n; k++)
			an_jobs_csv_row(r, t, &t->ring[k % AN_JOB_RING]);
	}
	if (keep)
		ret = pf_outfile_commit(r->jobs_csv);
	else
		pf_outfile_abort(r->jobs_csv);
	r->jobs_csv = NULL;
	return ret;
}
