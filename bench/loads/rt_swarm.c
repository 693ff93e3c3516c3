/*
 * rt_swarm.c - the RT-swarm load: N periodic SCHED_FIFO threads (the seed
 * ran "thousands of these simple realtime tasks"), each waking at absolute
 * CLOCK_MONOTONIC releases, spinning for a tiny amount of work and sleeping
 * again. Priorities are spread over a band; releases are staggered over the
 * period so that the swarm is a steady load rather than one burst.
 *
 * Threads, not processes: one process with small stacks, all memory locked
 * and prefaulted (mlockall) before the first release. Each thread measures
 * its own activation latency (wake-up minus release) into a shared array of
 * atomic 1 us bins (no allocation, no lock, no syscall beyond the sleep and
 * the clock), keeps its own exact max, and counts missed activations. The
 * kernel's RT throttling (sched_rt_runtime_us) keeps the machine usable even
 * if the configured work is too large; the report states it.
 */
#define _GNU_SOURCE
#include "load.h"
#include "common.h"
#include "hist.h"

#include <errno.h>
#include <math.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SWARM_BIN_NS  1000		/* latency bin width (the threads' own bins) */
#define SWARM_NBINS   100000		/* 0 .. 100 ms */

struct swarm_task {
	pthread_t thread;
	struct swarm *swarm;
	uint32_t index;			/* 0 .. N-1: its release offset in the period */
	int prio;
	uint64_t jobs;			/* written by the task only */
	uint64_t missed;		/* releases skipped because the task was late */
	int64_t max_ns;			/* worst activation latency */
} __attribute__((aligned(64)));

struct swarm {
	uint32_t ntasks;		/* N */
	int64_t period_ns;
	int64_t work_ns;		/* busy time per job */
	uint32_t prio_lo, prio_hi;	/* SCHED_FIFO priority band */
	uint32_t stack_kb;
	struct swarm_task *tasks;
	uint32_t started;		/* threads created */
	uint32_t joined;		/* threads joined after the stop */
	atomic_int stop;
	pthread_mutex_t go_lock;	/* the tasks wait for 'go' before their first release */
	pthread_cond_t go_cond;
	bool go;
	_Atomic uint64_t *bins;		/* latency histogram, SWARM_BIN_NS wide */
	_Atomic uint64_t over;		/* latencies past the last bin */
	int64_t start_ns, teardown_ns;
	bool locked;			/* mlockall succeeded */
	long rt_runtime_us, rt_period_us;
};

static void swarm_defaults(struct load *l)
{
	struct swarm *s = l->priv;

	s->ntasks = 100;
	s->period_ns = 100 * PF_NS_PER_MS;
	s->work_ns = 5 * PF_NS_PER_US;
	s->prio_lo = 1;
	s->prio_hi = 50;
	s->stack_kb = 32;
	pthread_mutex_init(&s->go_lock, NULL);
	pthread_cond_init(&s->go_cond, NULL);
}

static int swarm_set(struct load *l, const char *key, const char *value)
{
	struct swarm *s = l->priv;
	int64_t ns;

	if (!strcmp(key, "tasks"))
		return load_parse_u32(value, 1, 10000, &s->ntasks);
	if (!strcmp(key, "period") || !strcmp(key, "work")) {
		if (load_parse_ns(value, &ns) || ns < 0 || ns > PF_NS_PER_SEC ||
		    (!strcmp(key, "period") && ns < 100 * PF_NS_PER_US))
			return -EINVAL;
		*(!strcmp(key, "period") ? &s->period_ns : &s->work_ns) = ns;
		return 0;
	}
	if (!strcmp(key, "prio_lo"))
		return load_parse_u32(value, 1, 99, &s->prio_lo);
	if (!strcmp(key, "prio_hi"))
		return load_parse_u32(value, 1, 99, &s->prio_hi);
	if (!strcmp(key, "stack_kb"))
		return load_parse_u32(value, 16, 8192, &s->stack_kb);
	return -ENOENT;
}

/* swarm_task_main - one periodic task: sleep to the release, measure, spin, repeat */
static void *swarm_task_main(void *arg)
{
	struct swarm_task *t = arg;
	struct swarm *s = t->swarm;
	int64_t next, now, lat, behind;
	struct timespec ts;

	pthread_mutex_lock(&s->go_lock);	/* setup, before the first release */
	while (!s->go)
		pthread_cond_wait(&s->go_cond, &s->go_lock);
	pthread_mutex_unlock(&s->go_lock);
	next = s->start_ns + (int64_t)t->index * s->period_ns / s->ntasks;
	while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
		ts = pf_ns_to_ts(next);
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			continue;
		now = pf_now_ns();
		lat = now - next;
		if (lat > t->max_ns)
			t->max_ns = lat;
		if (lat / SWARM_BIN_NS < SWARM_NBINS)
			atomic_fetch_add_explicit(&s->bins[lat / SWARM_BIN_NS], 1, memory_order_relaxed);
		else
			atomic_fetch_add_explicit(&s->over, 1, memory_order_relaxed);
		__atomic_fetch_add(&t->jobs, 1, __ATOMIC_RELAXED);	/* read by swarm_sample */
		while (pf_now_ns() - now < s->work_ns)
			;
		next += s->period_ns;
		behind = pf_now_ns() - next;
		if (behind > 0) {	/* late past the next release: skip, and count it */
			t->missed += behind / s->period_ns + 1;
			next += (behind / s->period_ns + 1) * s->period_ns;
		}
	}
	return NULL;
}

/* swarm_set_self - the calling thread's policy and priority; 0 or -errno */
static int swarm_set_self(int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return -pthread_setschedparam(pthread_self(), policy, &sp);
}

/* swarm_go - let every task begin its releases */
static void swarm_go(struct swarm *s)
{
	pthread_mutex_lock(&s->go_lock);
	s->go = true;
	pthread_cond_broadcast(&s->go_cond);
	pthread_mutex_unlock(&s->go_lock);
}

/* swarm_join - stop and join every started thread, timing the teardown */
static void swarm_join(struct swarm *s)
{
	int64_t t0 = pf_now_ns();
	uint32_t i;

	if (s->joined == s->started)
		return;
	atomic_store(&s->stop, 1);
	swarm_go(s);	/* a failed start: release the ones still waiting */
	for (i = s->joined; i < s->started; i++)
		pthread_join(s->tasks[i].thread, NULL);
	s->joined = s->started;
	s->teardown_ns = pf_now_ns() - t0;
}

static int swarm_check(struct load *l)
{
	struct swarm *s = l->priv;

	if (s->prio_lo > s->prio_hi)
		return load_why(l, EINVAL, "prio_lo %u > prio_hi %u", s->prio_lo, s->prio_hi);
	if (s->work_ns >= s->period_ns)
		return load_why(l, EINVAL, "work must be shorter than the period");
	if (geteuid() != 0)
		return load_why(l, EPERM, "SCHED_FIFO tasks need root");
	return 0;
}

static int swarm_start(struct load *l)
{
	struct swarm *s = l->priv;
	size_t stack = (size_t)s->stack_kb * 1024;
	long min_stack = sysconf(_SC_THREAD_STACK_MIN);
	char text[64];
	pthread_attr_t attr;
	uint32_t i, band;
	int ret;

	ret = swarm_check(l);
	if (ret < 0)
		return ret;
	if (min_stack > 0 && stack < (size_t)min_stack)
		stack = (size_t)min_stack;
	if (pf_read_file("/proc/sys/kernel/sched_rt_runtime_us", text, sizeof(text)) > 0)
		s->rt_runtime_us = strtol(text, NULL, 10);
	if (pf_read_file("/proc/sys/kernel/sched_rt_period_us", text, sizeof(text)) > 0)
		s->rt_period_us = strtol(text, NULL, 10);
	s->tasks = calloc(s->ntasks, sizeof(*s->tasks));
	s->bins = calloc(SWARM_NBINS, sizeof(*s->bins));
	if (!s->tasks || !s->bins)
		return load_why(l, ENOMEM, "out of memory for %u tasks", s->ntasks);
	s->locked = mlockall(MCL_CURRENT | MCL_FUTURE) == 0;

	/* Above the band while creating and tearing down, so that a busy swarm cannot starve us. */
	ret = swarm_set_self(SCHED_FIFO, s->prio_hi < 99 ? (int)s->prio_hi + 1 : 99);
	if (ret < 0)
		return load_why(l, ret, "SCHED_FIFO: %s (needs root or CAP_SYS_NICE)", strerror(-ret));

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, stack);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	band = s->prio_hi - s->prio_lo + 1;
	ret = load_work_begin(l);	/* the realtime tasks are the load: on the CPUs it was started with */
	if (ret < 0) {
		pthread_attr_destroy(&attr);
		return ret;
	}
	for (i = 0; i < s->ntasks; i++) {
		struct swarm_task *t = &s->tasks[i];
		struct sched_param sp;

		t->swarm = s;
		t->prio = (int)(s->prio_lo + i % band);
		t->index = i;
		sp.sched_priority = t->prio;
		pthread_attr_setschedparam(&attr, &sp);
		ret = -pthread_create(&t->thread, &attr, swarm_task_main, t);
		if (ret < 0) {
			load_work_end(l);
			pthread_attr_destroy(&attr);
			swarm_join(s);
			return load_why(l, ret, "task %u of %u: pthread_create: %s", i, s->ntasks,
					   strerror(-ret));
		}
		pthread_setname_np(t->thread, "pf-swarm");
		s->started++;
	}
	load_work_end(l);
	pthread_attr_destroy(&attr);
	s->start_ns = pf_now_ns() + 10 * PF_NS_PER_MS;
	swarm_go(s);
	/* below the band again while the swarm runs: the load's loop samples and prints */
	swarm_set_self(SCHED_OTHER, 0);
	return 0;
}

static int swarm_poll(struct load *l)
{
	(void)l;
	return 0;
}

static void swarm_stop(struct load *l)
{
	struct swarm *s = l->priv;

	/* above the band to tear it down, so that a busy swarm cannot starve us */
	swarm_set_self(SCHED_FIFO, s->prio_hi < 99 ? (int)s->prio_hi + 1 : 99);
	swarm_join(s);
}

static json_t *swarm_report(struct load *l)
{
	struct swarm *s = l->priv;
	uint64_t jobs = 0, missed = 0;
	struct pf_hist h;
	struct pf_stats st;
	int64_t worst = 0;
	double run_s;
	json_t *lat;
	uint32_t i;

	for (i = 0; s->tasks && i < s->ntasks; i++) {
		jobs += s->tasks[i].jobs;
		missed += s->tasks[i].missed;
		if (s->tasks[i].max_ns > worst)
			worst = s->tasks[i].max_ns;
	}
	/* Bins to the shared histogram at their lower edge; the over-range ones at the worst max. */
	if (s->bins) {
		pf_hist_init(&h);
		for (i = 0; i < SWARM_NBINS; i++)
			if (s->bins[i] && pf_hist_add_n(&h, (int64_t)i * SWARM_BIN_NS, s->bins[i]))
				break;
		if (s->over && pf_hist_add_n(&h, worst, s->over) < 0)
			s->over = 0;	/* out of memory: only the max is exact then */
		pf_hist_stats(&h, &st);
		st.max = worst > st.max ? worst : st.max;
		lat = pf_stats_json(&st, "ns");
		pf_hist_free(&h);
	} else {
		lat = json_null();
	}
	run_s = l->stop_ns > s->start_ns ? (double)(l->stop_ns - s->start_ns) / PF_NS_PER_SEC : 0;
	return json_pack("{s:i, s:i, s:I, s:I, s:i, s:i, s:i, s:b, s:I, s:I, s:f, s:f, s:f, s:o, s:I, s:i, s:i}",
			 "tasks", (int)s->ntasks, "started", (int)s->started,
			 "period_ns", (json_int_t)s->period_ns, "work_ns", (json_int_t)s->work_ns,
			 "prio_lo", (int)s->prio_lo, "prio_hi", (int)s->prio_hi,
			 "stack_kb", (int)s->stack_kb, "memory_locked", s->locked,
			 "jobs", (json_int_t)jobs, "missed_activations", (json_int_t)missed,
			 "jobs_per_s", run_s > 0 ? jobs / run_s : 0.0,
			 "planned_jobs_per_s", (double)s->ntasks * PF_NS_PER_SEC / s->period_ns,
			 "planned_cpu_pct", 100.0 * s->ntasks * s->work_ns / s->period_ns,
			 "activation_latency", lat,
			 "teardown_ns", (json_int_t)s->teardown_ns,
			 "sched_rt_runtime_us", (int)s->rt_runtime_us,
			 "sched_rt_period_us", (int)s->rt_period_us);
}

static void swarm_cleanup(struct load *l)
{
	struct swarm *s = l->priv;

	swarm_join(s);
	swarm_set_self(SCHED_OTHER, 0);
	if (s->locked)
		munlockall();
}

/* swarm_sample - jobs of every task against the planned jobs per second */
static int swarm_sample(struct load *l, double *count, double *target_per_s)
{
	struct swarm *s = l->priv;
	uint64_t jobs = 0;
	uint32_t i;

	if (!s->tasks)
		return -ENODATA;
	for (i = 0; i < s->ntasks; i++)
		jobs += __atomic_load_n(&s->tasks[i].jobs, __ATOMIC_RELAXED);
	*count = (double)jobs;
	*target_per_s = (double)s->ntasks * PF_NS_PER_SEC / s->period_ns;
	return 0;
}

const struct load_ops load_rt_swarm = {
	.name = "rt-swarm",
	.summary = "N periodic SCHED_FIFO threads with their own activation-latency statistics",
	.params_help =
	"  tasks=N        number of periodic tasks, 1-10000 (100)\n"
	"  period=TIME    release period of every task, 100us-1s (100ms)\n"
	"  work=TIME      busy time per job (5us)\n"
	"  prio_lo=P      lowest SCHED_FIFO priority of the band (1)\n"
	"  prio_hi=P      highest SCHED_FIFO priority of the band (50)\n"
	"  stack_kb=KB    stack of each thread, locked and prefaulted (32)\n",
	.priv_size = sizeof(struct swarm),
	.defaults = swarm_defaults,
	.set = swarm_set,
	.check = swarm_check,
	.start = swarm_start,
	.poll = swarm_poll,
	.stop = swarm_stop,
	.sample = swarm_sample,
	.sample_unit = "jobs/s",
	.report = swarm_report,
	.cleanup = swarm_cleanup,
};
