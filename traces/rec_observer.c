/*
 * rec_observer.c - the recorder as an observer: where it runs and who it is.
 *
 * A measurement must keep its own perturbation away from what it measures,
 * and say how much of it there was (docs/ARCHITECTURE.md). With --cpus the
 * recorder pins every thread of its own (the main loop and the per-CPU
 * stream threads, which inherit the main thread's mask) to a CPU list; the
 * command it starts gets the recorder's original affinity back. Every
 * thread id of the recorder, and of the processes named by --observer (the
 * runner), is collected and stored in the .dat (the "Observer pids:" line of
 * the CPUSTAT header), so that analysis counts the time they stood between
 * a task's release and its start by thread id, not by name.
 */
#define _GNU_SOURCE
#include "rec.h"
#include "common.h"
#include "cpuset.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* rec_observer_add - one observer thread id, kept once; 0 or -ENOMEM */
int rec_observer_add(struct rec_session *s, int tid)
{
	size_t i;

	for (i = 0; i < s->nobs; i++)
		if (s->obs[i] == tid)
			return 0;
	if (pf_grow(&s->obs, &s->obs_cap, s->nobs, sizeof(*s->obs), 16) < 0)
		return -ENOMEM;
	s->obs[s->nobs++] = tid;
	return 0;
}

/* rec_observer_scan - every thread of the recorder and of each --observer process, now */
int rec_observer_scan(struct rec_session *s)
{
	const struct rec_opts *o = s->opts;
	struct dirent *t;
	char path[64];
	long tid;
	DIR *d;
	int i, ret = 0;

	for (i = -1; i < o->nobserve && !ret; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task", i < 0 ? (int)getpid() : o->observe[i]);
		d = opendir(path);
		if (!d)
			continue;	/* that process ended: its threads were seen before, or never ran */
		while (!ret && (t = readdir(d)))
			if (!pf_parse_long(t->d_name, 1, INT32_MAX, &tid))
				ret = rec_observer_add(s, (int)tid);
		closedir(d);
	}
	return ret;
}

static int rec_int_cmp(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* rec_observer_line - "Observer pids: 1 2 3\n" (malloc'd, sorted), or NULL */
char *rec_observer_line(struct rec_session *s)
{
	size_t i, len = 0, size = 32 + s->nobs * 12;
	char *text = malloc(size);

	if (!text)
		return NULL;
	qsort(s->obs, s->nobs, sizeof(*s->obs), rec_int_cmp);
	len = snprintf(text, size, "Observer pids:");
	for (i = 0; i < s->nobs; i++)
		len += snprintf(text + len, size - len, " %d", s->obs[i]);
	snprintf(text + len, size - len, "\n");
	return text;
}

/*
 * rec_pin - pin the calling (main) thread to --cpus, keeping the original
 * mask for the command; threads created afterwards inherit the pin. 0, or
 * -errno (-EINVAL: no CPU of the list is online)
 */
int rec_pin(struct rec_session *s)
{
	const struct rec_opts *o = s->opts;

	if (!o->cpus)
		return 0;
	if (sched_getaffinity(0, sizeof(s->orig_cpus), &s->orig_cpus) < 0)
		return -errno;
	if (sched_setaffinity(0, sizeof(o->cpu_set), &o->cpu_set) < 0)
		return -errno;
	s->pinned = true;
	return 0;
}

