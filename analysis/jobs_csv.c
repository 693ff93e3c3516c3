/*
 * jobs_csv.c - the per-job table of 'preflight analyze --csv DIR' (jobs.csv:
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
#include <unistd.h>

/* an_jobs_csv_open - DIR/jobs.csv with its header line (written as jobs.csv.tmp, renamed at the end) */
int an_jobs_csv_open(struct an_run *r, const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/jobs.csv.tmp", dir);
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

int an_jobs_csv_close(struct an_run *r, bool keep)
{
	char tmp[4096], path[4096];
	int ret = 0;

	if (!r->jobs_csv)
		return 0;
	snprintf(tmp, sizeof(tmp), "%s/jobs.csv.tmp", r->opt.csv);
	snprintf(path, sizeof(path), "%s/jobs.csv", r->opt.csv);
	errno = 0;
	if ((fflush(r->jobs_csv) || ferror(r->jobs_csv) | fclose(r->jobs_csv)) && keep)
		ret = pf_fail(PF_EXIT_ENV, "%s: %s", path, strerror(errno ? errno : EIO));
	r->jobs_csv = NULL;
	if (keep && !ret && rename(tmp, path))
		ret = pf_fail(PF_EXIT_ENV, "%s: %s", path, strerror(errno));
	if (!keep || ret)
		unlink(tmp);
	return ret;
}
