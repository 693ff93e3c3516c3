/*
 * exec.c - flightapp's realtime executive: one thread per task, a base-rate
 * tick on absolute release instants, subrate and event releases with overrun
 * and missed-activation accounting, and the instrumented job (exec.h tells
 * the release protocol).
 *
 * The tick task's thread is the executive's clock: it sleeps with
 * clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) until r_k = t0 + k * slot,
 * releases every task whose slot boundary k is (Simulink-style rate-monotonic
 * multitasking: each released task runs in its own thread at its own
 * priority), then runs its own job. Nothing on these paths allocates, prints
 * or blocks except the planned waits (clock_nanosleep, sem_wait).
 *
 * The executive calls downward only (configuration, rings, statistics,
 * markers, calibrated work): task bodies come from the table the program
 * hands to app_bodies_init(), the logger's drain from app->drain.
 */
#define _GNU_SOURCE
#include "exec.h"
#include "work.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define APP_STACK_BYTES    (512 * 1024)
#define APP_PREFAULT_BYTES (128 * 1024)
#define APP_NO_RELEASE     INT64_MIN

/* ---- the interface of task.h ---- */

const char *app_task_name(const struct app_task *t) { return t->cfg.name; }
int app_task_id(const struct app_task *t) { return t->id; }
enum app_task_kind app_task_kind(const struct app_task *t) { return t->cfg.kind; }
int64_t app_task_period_ns(const struct app_task *t) { return t->cfg.period_ns; }
void *app_task_priv(const struct app_task *t) { return t->priv; }
void app_task_set_priv(struct app_task *t, void *priv) { t->priv = priv; }
int64_t app_slot_ns(const struct app *app) { return app->cfg.slot_ns; }
bool app_no_rt(const struct app *app) { return app->no_rt; }
bool app_stopping(const struct app *app) { return atomic_load_explicit(&app->stop, memory_order_relaxed); }

struct app_task *app_find_task(struct app *app, const char *name)
{
	int i;

	for (i = 0; i < app->ntasks; i++)
		if (!strcmp(app->task[i].cfg.name, name))
			return &app->task[i];
	return NULL;
}

int app_task_set_event_period(struct app_task *t, int64_t period_ns)
{
	int64_t slot_ns = t->app->cfg.slot_ns;

	if (t->cfg.kind != APP_TASK_EVENT || period_ns < 0 || period_ns % slot_ns)
		return -EINVAL;
	t->cfg.event_period_ns = period_ns;
	t->event_slots = period_ns / slot_ns;
	return 0;
}

int app_release(struct app_task *t, int64_t release_ns, int64_t slot)
{
	uint64_t old = atomic_load_explicit(&t->state, memory_order_relaxed), new;

	do {
		if (old & APP_STATE_BUSY)
			new = (old + APP_STATE_MISSED1) | APP_STATE_OVERRUN;
		else
			new = old | APP_STATE_BUSY;
	} while (!atomic_compare_exchange_weak_explicit(&t->state, &old, new,
							 memory_order_acq_rel, memory_order_relaxed));
	if (old & APP_STATE_BUSY)
		return -EBUSY;
	/*
	 * this releaser owns the job now: publish its release, then wake the
	 * task. The slots the tick skipped since the last granted release go with
	 * this one: taken at the job's start, they could include slots the tick
	 * skipped after this release, while the job still waited for its CPU
	 */
	t->rel_slot = slot;
	t->rel_skipped = (uint32_t)atomic_exchange_explicit(&t->skipped, 0, memory_order_relaxed);
	atomic_store_explicit(&t->rel_ns, release_ns, memory_order_release);
	sem_post(&t->sem);
	return 0;
}

int app_task_trigger_at(struct app_task *t, int64_t release_ns)
{
	if (t->cfg.kind != APP_TASK_EVENT)
		return -EINVAL;
	if (atomic_load_explicit(&t->app->stop, memory_order_relaxed))
		return -ECANCELED;
	return app_release(t, release_ns, -1);
}

int app_task_trigger(struct app_task *t)
{
	return app_task_trigger_at(t, pf_now_ns());
}

/* ---- slot arithmetic ---- */

int64_t app_boundaries(int64_t a, int64_t b, int64_t phase, int64_t period)
{
	int64_t lo = a > phase ? a : phase, first, last;

	if (period <= 0 || lo >= b)
		return 0;
	first = (lo - phase + period - 1) / period;
	last = (b - 1 - phase) / period;
	return last >= first ? last - first + 1 : 0;
}

int64_t app_tick_slot(int64_t t0_ns, int64_t slot_ns, int64_t expected, int64_t now_ns)
{
	int64_t k = now_ns > t0_ns ? (now_ns - t0_ns) / slot_ns : 0;

	return k > expected ? k : expected;
}

/* app_due - is slot k a release boundary of a task released every 'period' slots from 'phase' */
static inline bool app_due(int64_t k, int64_t phase, int64_t period)
{
	return period > 0 && k >= phase && (k - phase) % period == 0;
}

/* ---- setup ---- */

int app_init(struct app *app, const struct app_config *cfg, char *err, size_t err_size)
{
	struct app_task *t;
	int i, ret;

	memset(app, 0, sizeof(*app));
	app->cfg = *cfg;
	app->end_slot = -1;
	app->stack_bytes = APP_STACK_BYTES;
	app_marker_off(&app->marker);
	if (sem_init(&app->go, 0, 0))
		return -errno;
	for (i = 0; i < cfg->ntasks; i++) {
		if (!cfg->task[i].enabled)
			continue;
		t = &app->task[app->ntasks];
		t->cfg = cfg->task[i];
		t->app = app;
		t->id = app->ntasks++;
		t->deadline_ns = app_cfg_deadline_ns(&t->cfg);
		t->period_slots = t->cfg.period_ns / cfg->slot_ns;
		t->phase_slots = t->cfg.phase_ns / cfg->slot_ns;
		t->event_slots = t->cfg.event_period_ns / cfg->slot_ns;
		atomic_init(&t->rel_ns, APP_NO_RELEASE);
		if (sem_init(&t->sem, 0, 0))
			return -errno;
		if (t->cfg.kind == APP_TASK_TICK)
			app->tick = t;
		if (t->cfg.kind == APP_TASK_BACKGROUND && !strcmp(t->cfg.name, "logger"))
			app->logger = t;
		if (t->cfg.kind == APP_TASK_BACKGROUND)
			continue;
		ret = app_ring_init(&t->ring, cfg->ring_entries);
		if (!ret)
			ret = app_stats_init(&t->stats, cfg->hist_bin_ns, cfg->hist_bins);
		if (ret) {
			snprintf(err, err_size, "task %s: %s", t->cfg.name, strerror(-ret));
			return ret;
		}
	}
	if (!app->tick) {
		snprintf(err, err_size, "no tick task");
		return -EINVAL;
	}
	return 0;
}

/* app_body_find - the body for a task name in a table ended by name NULL, NULL when it has none */
static const struct app_task_body *app_body_find(const struct app_task_body *bodies, const char *name)
{
	const struct app_task_body *b;

	for (b = bodies; b && b->name; b++)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

int app_bodies_init(struct app *app, const struct app_task_body *bodies, char *err, size_t err_size)
{
	struct app_task *t;
	int i, ret;

	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		t->body = app_body_find(bodies, t->cfg.name);
		if (!t->body || !t->body->init)
			continue;
		ret = t->body->init(t, app);
		if (ret) {
			snprintf(err, err_size, "task %s: init: %s", t->cfg.name, strerror(ret < 0 ? -ret : ret));
			return ret < 0 ? ret : -ret;
		}
		t->inited = true;
	}
	return 0;
}

uint64_t app_missed_after_last(struct app_task *t)
{
	return t->missed_next + atomic_load(&t->skipped) + atomic_load(&t->state) / APP_STATE_MISSED1;
}

/* ---- the instrumented job ---- */

/*
 * app_job_begin - number the job and write its start marker; called right
 * after the job's first instruction (the tick calls it before it releases the
 * slot's tasks, so its marker is as close to s_k as every other task's).
 * With markers on, the start is read again once the marker is written: the
 * kernel stamps the marker deep inside write(), after a syscall entry that a
 * cold cache after a 10 ms sleep makes cost microseconds, so only a clock read
 * taken after the write names the same instant as the trace (docs/markers.md).
 */
static void app_job_begin(struct app_task *t, struct app_job *job)
{
	job->seq = t->seq;
	/* the tick skips and starts its own jobs in one thread; a released job's skips came with its release */
	job->missed = t->missed_next + (t == t->app->tick ?
		(uint32_t)atomic_exchange_explicit(&t->skipped, 0, memory_order_relaxed) : t->rel_skipped);
	job->deadline_ns = t->deadline_ns ? job->release_ns + t->deadline_ns : INT64_MAX;
	DTRACE_PROBE3(preflight, job_start, t->id, job->seq, job->release_ns);
	if (app_marker_job(&t->app->marker, APP_MARKER_START, (uint8_t)t->id, 0, job->seq, job->release_ns) < 0)
		t->marker_errors++;
	else if (t->app->marker.fd >= 0)
		job->start_ns = pf_now_ns();	/* s_k: the instant the trace shows, see docs/markers.md */
}

/* app_job_finish - the job's body and work, its record, statistics and end marker */
static void app_job_finish(struct app_task *t, struct app_job *job)
{
	struct app *app = t->app;
	struct app_jobrec rec;
	int64_t cpu0, cpu1;
	uint64_t old;
	bool overrun;
	int cpu;

	/* thread CPU clock reads are syscalls (no vDSO): share them with the calibrated work */
	cpu0 = app->no_cpu_time ? 0 : pf_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	cpu1 = cpu0;
	if (t->body && t->body->job) {
		t->body->job(t, job);
		cpu1 = -1;
	}
	if (t->cfg.work_ns > 0)
		cpu1 = cpu1 > 0 ? app_work_from_ns(cpu1, t->cfg.work_ns) : app_work_cpu_ns(t->cfg.work_ns);
	else if (!app->no_cpu_time)
		cpu1 = pf_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	else
		cpu1 = 0;
	rec.cpu_ns = cpu1 - cpu0;
	rec.end_ns = pf_now_ns();
	cpu = sched_getcpu();

	if (t == app->tick) {
		/* the tick is its own releaser: it overran when its job crossed the next slot */
		overrun = rec.end_ns > job->release_ns + app->cfg.slot_ns;
		t->missed_next = 0;
	} else {
		old = atomic_exchange_explicit(&t->state, 0, memory_order_acq_rel);
		overrun = old & APP_STATE_OVERRUN;
		t->missed_next = (uint32_t)(old / APP_STATE_MISSED1);
	}
	rec.release_ns = job->release_ns;
	rec.start_ns = job->start_ns;
	rec.seq = job->seq;
	rec.missed = job->missed;
	rec.cpu = (uint16_t)(cpu < 0 ? 0xffff : cpu);
	rec.task_id = (uint32_t)t->id;
	rec.flags = (app->no_rt ? APP_JOB_NO_RT : 0) | (overrun ? APP_JOB_OVERRUN : 0) |
		    (rec.end_ns > job->deadline_ns ? APP_JOB_DEADLINE : 0);
	t->seq++;
	app_ring_push(&t->ring, &rec);
	app_stats_add(&t->stats, &rec);

	if (app_marker_job(&app->marker, APP_MARKER_END, (uint8_t)t->id, rec.flags, rec.seq, rec.release_ns) < 0)
		t->marker_errors++;
	/* a missed deadline also says so in text: the flight recorder's trigger (--trigger) can match it */
	if ((rec.flags & APP_JOB_DEADLINE) &&
	    app_marker_miss(&app->marker, (uint8_t)t->id, rec.seq, rec.release_ns, rec.end_ns - rec.release_ns) < 0)
		t->marker_errors++;
	DTRACE_PROBE5(preflight, job_end, t->id, rec.seq, rec.release_ns, rec.end_ns, rec.flags);
}

void app_run_job(struct app_task *t, struct app_job *job)
{
	app_job_begin(t, job);
	app_job_finish(t, job);
}

/* ---- threads ---- */

/* app_thread_prologue - tid, prefaulted stack, wait for go; false when setup was aborted */
static bool app_thread_prologue(struct app_task *t)
{
	volatile char stack[APP_PREFAULT_BYTES];
	struct app *app = t->app;

	atomic_store(&t->tid, (int)syscall(SYS_gettid));
#ifdef PR_SET_TIMERSLACK
	/* SCHED_OTHER threads (--no-rt, logger) would get 50 us of timer slack on their releases */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
	/*
	 * --no-rt: the tasks configured fifo keep their order among SCHED_OTHER
	 * threads through nice -prio/5 where permitted (root); unprivileged, nice 0
	 */
	if (app->no_rt && t->cfg.policy == APP_POLICY_FIFO)
		(void)setpriority(PRIO_PROCESS, 0, -t->cfg.priority / 5);
	errno = 0;
	t->nice = getpriority(PRIO_PROCESS, 0);
	memset((char *)stack, 0, sizeof(stack));
	while (sem_wait(&app->go) && errno == EINTR)
		;
	return !atomic_load(&app->abort_start);
}

/* app_skip_slots - the tick woke late: count slots [a, b) as skipped at every task due in them */
static void app_skip_slots(struct app *app, int64_t a, int64_t b)
{
	struct app_task *t;
	int64_t n;
	int i;

	atomic_fetch_add_explicit(&app->skipped_slots, (uint64_t)(b - a), memory_order_relaxed);
	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		if (t->cfg.kind == APP_TASK_TICK)
			n = b - a;
		else if (t->cfg.kind == APP_TASK_PERIODIC)
			n = app_boundaries(a, b, t->phase_slots, t->period_slots);
		else if (t->cfg.kind == APP_TASK_EVENT)
			n = app_boundaries(a, b, t->phase_slots, t->event_slots);
		else
			n = 0;
		if (n)
			atomic_fetch_add_explicit(&t->skipped, (uint64_t)n, memory_order_relaxed);
	}
}

/* app_tick_release - release every task due at slot k (release instant r) */
static void app_tick_release(struct app *app, int64_t k, int64_t r)
{
	struct app_task *t;
	int i;

	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		if ((t->cfg.kind == APP_TASK_PERIODIC && app_due(k, t->phase_slots, t->period_slots)) ||
		    (t->cfg.kind == APP_TASK_EVENT && app_due(k, t->phase_slots, t->event_slots)))
			app_release(t, r, k);
	}
}

/* app_raise - thread 'th' at SCHED_FIFO 'prio' for the run's end; 0 or -errno */
static int app_raise(pthread_t th, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return -pthread_setschedparam(th, SCHED_FIFO, &sp);
}

/* app_tick_main - the base-rate tick and the tick task's jobs */
static void *app_tick_main(void *arg)
{
	struct app_task *t = arg;
	struct app *app = t->app;
	const int64_t slot = app->cfg.slot_ns;
	struct app_job job;
	struct timespec ts;
	int64_t k = 0, k_now, now, upto;

	if (!app_thread_prologue(t))
		return NULL;
	for (;;) {
		if (app->end_slot >= 0 && k >= app->end_slot)
			break;
		ts = pf_ns_to_ts(app->t0_ns + k * slot);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = pf_now_ns();
		if (atomic_load_explicit(&app->stop, memory_order_relaxed))
			break;
		k_now = app_tick_slot(app->t0_ns, slot, k, now);
		if (k_now > k) {
			/* woke more than a slot late: the slots in between are skipped, and said so */
			upto = app->end_slot >= 0 && k_now > app->end_slot ? app->end_slot : k_now;
			app_skip_slots(app, k, upto);
			k = k_now;
			if (app->end_slot >= 0 && k >= app->end_slot) {
				k = app->end_slot;
				break;
			}
		}
		memset(&job, 0, sizeof(job));
		job.release_ns = app->t0_ns + k * slot;
		job.start_ns = now;
		job.slot = k;
		app_job_begin(t, &job);
		app_tick_release(app, k, job.release_ns);
		app_job_finish(t, &job);
		k++;
	}
	atomic_store(&app->end_ns, app->t0_ns + k * slot);
	t->thread_cpu_ns = pf_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	/*
	 * The run is over (no slot left to keep): the SCHED_OTHER main thread
	 * that ends it is raised from here, because on one CPU saturated by
	 * realtime loads it would not run again to notice (a 1-CPU board ran
	 * 135 s past a 30 s run, docs/target.md).
	 */
	if (app->end_prio)
		atomic_store(&app->end_prio_error, app_raise(app->main_thread, app->end_prio));
	atomic_store(&app->tick_done, true);
	return NULL;
}

/* app_task_main - a released task (periodic or event): wait, run, repeat */
static void *app_task_main(void *arg)
{
	struct app_task *t = arg;
	struct app *app = t->app;
	struct app_job job;
	int64_t start, rel;

	if (!app_thread_prologue(t))
		return NULL;
	for (;;) {
		/* shutdown: leave once no release is granted (a granted one still runs) */
		if (atomic_load(&app->stop) && !(atomic_load(&t->state) & APP_STATE_BUSY))
			break;
		while (sem_wait(&t->sem) && errno == EINTR)
			;
		start = pf_now_ns();
		rel = atomic_exchange_explicit(&t->rel_ns, APP_NO_RELEASE, memory_order_acquire);
		if (rel == APP_NO_RELEASE)
			continue;	/* the shutdown post, or a granted release whose post is on its way */
		memset(&job, 0, sizeof(job));
		job.release_ns = rel;
		job.start_ns = start;
		job.slot = t->rel_slot;
		app_run_job(t, &job);
	}
	t->thread_cpu_ns = pf_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

/* app_background_main - the logger (drains the rings) or a background body, every period */
static void *app_background_main(void *arg)
{
	struct app_task *t = arg;
	struct app *app = t->app;
	int64_t period = t->cfg.period_ns > 0 ? t->cfg.period_ns : app->cfg.logger_period_ns;
	int64_t next, now;
	struct app_job job;
	struct timespec ts;
	bool last;

	if (!app_thread_prologue(t))
		return NULL;
	next = app->t0_ns;
	for (;;) {
		next += period;
		now = pf_now_ns();
		if (next < now)
			next = now;	/* background work may resync: it has no deadline */
		ts = pf_ns_to_ts(next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		if (t == app->logger) {
			last = atomic_load(&app->logger_stop);
			if (app->drain)
				app->drain(app);
			if (last)
				break;
			continue;
		}
		if (atomic_load(&app->stop))
			break;
		if (t->body && t->body->job) {
			memset(&job, 0, sizeof(job));
			job.seq = t->seq++;
			job.release_ns = next;
			job.start_ns = pf_now_ns();
			job.slot = -1;
			t->body->job(t, &job);
		}
	}
	t->thread_cpu_ns = pf_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

/* app_thread_attr - stack, scheduling and affinity of a task's thread; 0 or -errno */
static int app_thread_attr(struct app *app, struct app_task *t, pthread_attr_t *attr, char *err, size_t err_size)
{
	const char *cpus = t->cfg.cpus[0] ? t->cfg.cpus : app->cfg.cpus;
	uint64_t mask[APP_CPUS_MAX / 64];
	struct sched_param sp = { 0 };
	cpu_set_t *set;
	size_t setsize;
	int ret, i;

	pthread_attr_init(attr);
	pthread_attr_setstacksize(attr, app->stack_bytes);
	pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
	if (!app->no_rt && t->cfg.policy == APP_POLICY_FIFO) {
		sp.sched_priority = t->cfg.priority;
		pthread_attr_setschedpolicy(attr, SCHED_FIFO);
	} else {
		pthread_attr_setschedpolicy(attr, SCHED_OTHER);
	}
	pthread_attr_setschedparam(attr, &sp);
	if (!cpus[0])
		return 0;
	if (app_parse_cpus(cpus, mask, PF_ARRAY_SIZE(mask))) {
		snprintf(err, err_size, "task %s: bad CPU list '%s'", t->cfg.name, cpus);
		return -EINVAL;
	}
	set = CPU_ALLOC(APP_CPUS_MAX);
	if (!set)
		return -ENOMEM;
	setsize = CPU_ALLOC_SIZE(APP_CPUS_MAX);
	CPU_ZERO_S(setsize, set);
	for (i = 0; i < APP_CPUS_MAX; i++)
		if (mask[i / 64] & (1ULL << (i % 64)))
			CPU_SET_S(i, setsize, set);
	ret = -pthread_attr_setaffinity_np(attr, setsize, set);
	CPU_FREE(set);
	if (ret)
		snprintf(err, err_size, "task %s: cpus '%s': %s", t->cfg.name, cpus, strerror(-ret));
	return ret;
}

void app_signals_to_main(sigset_t *sigs)
{
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(sigs);
	sigaddset(sigs, SIGINT);
	sigaddset(sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, sigs, NULL);
}

int app_start(struct app *app, char *err, size_t err_size)
{
	const char *cpus;
	pthread_attr_t attr;
	struct app_task *t;
	void *(*fn)(void *);
	int i, ret = 0, started = 0;

	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		ret = app_thread_attr(app, t, &attr, err, err_size);
		if (ret)
			goto abort;
		fn = t->cfg.kind == APP_TASK_TICK ? app_tick_main :
		     t->cfg.kind == APP_TASK_BACKGROUND ? app_background_main : app_task_main;
		ret = -pthread_create(&t->thread, &attr, fn, t);
		pthread_attr_destroy(&attr);
		if (ret) {
			cpus = t->cfg.cpus[0] ? t->cfg.cpus : app->cfg.cpus;
			if (ret == -EPERM)
				snprintf(err, err_size, "task %s: SCHED_FIFO priority %d: not permitted "
					 "(run as root or with CAP_SYS_NICE, or use --no-rt)", t->cfg.name, t->cfg.priority);
			else if (ret == -EINVAL && cpus[0])
				snprintf(err, err_size, "task %s: cpus '%s': no such CPU here", t->cfg.name, cpus);
			else
				snprintf(err, err_size, "task %s: pthread_create: %s", t->cfg.name, strerror(-ret));
			goto abort;
		}
		pthread_setname_np(t->thread, t->cfg.name);
		t->started = true;
		started++;
	}
	/* the first release leaves every thread time to reach its wait */
	app->t0_ns = pf_now_ns() + 2 * app->cfg.slot_ns + 20 * PF_NS_PER_MS;
	if (app->duration_ns > 0)
		app->end_slot = (app->duration_ns + app->cfg.slot_ns - 1) / app->cfg.slot_ns;
	return 0;
abort:
	atomic_store(&app->abort_start, true);
	for (i = 0; i < started; i++)
		sem_post(&app->go);
	for (i = 0; i < app->ntasks; i++)
		if (app->task[i].started) {
			pthread_join(app->task[i].thread, NULL);
			app->task[i].started = false;
		}
	return ret;
}

void app_declare_tasks(struct app *app)
{
	struct app_task *t;
	char line[256];
	int i, tries;

	if (!app->trace_instance[0])
		return;
	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		for (tries = 0; !atomic_load(&t->tid) && tries < 1000; tries++)
			usleep(1000);
		snprintf(line, sizeof(line), "pf1 T %d %s tid=%d period_ns=%lld deadline_ns=%lld prio=%d policy=%s\n",
			 t->id, t->cfg.name, atomic_load(&t->tid),
			 (long long)(t->cfg.kind == APP_TASK_EVENT ? 0 : t->cfg.period_ns), (long long)t->deadline_ns,
			 app->no_rt ? 0 : t->cfg.priority,
			 app->no_rt ? "other" : app_policy_name(t->cfg.policy));
		if (app_marker_declare(&app->marker, line) < 0)
			t->marker_errors++;
	}
}

void app_go(struct app *app)
{
	int i;

	for (i = 0; i < app->ntasks; i++)
		sem_post(&app->go);
}

void app_set_end_priority(struct app *app, int prio)
{
	app->main_thread = pthread_self();
	app->end_prio = prio;
}

void app_request_stop(struct app *app)
{
	atomic_store(&app->stop, true);
}

void app_join(struct app *app)
{
	struct app_task *t;
	int i;

	if (app->tick->started)
		pthread_join(app->tick->thread, NULL);
	if (!atomic_load(&app->end_ns))
		atomic_store(&app->end_ns, pf_now_ns());
	atomic_store(&app->stop, true);
	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		if (t->started && t != app->tick && t != app->logger) {
			sem_post(&t->sem);
			pthread_join(t->thread, NULL);
		}
	}
	if (app->end_prio && app->logger && app->logger->started)
		app_raise(app->logger->thread, app->end_prio);	/* its last drain, like main's end */
	atomic_store(&app->logger_stop, true);
	if (app->logger && app->logger->started)
		pthread_join(app->logger->thread, NULL);
	else if (app->drain)
		app->drain(app);
	for (i = 0; i < app->ntasks; i++)
		app->task[i].started = false;
}

void app_fini(struct app *app)
{
	struct app_task *t;
	int i;

	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		if (t->inited && t->body->fini)
			t->body->fini(t);
		app_ring_free(&t->ring);
		app_stats_free(&t->stats);
		sem_destroy(&t->sem);
	}
	sem_destroy(&app->go);
	app_marker_close(&app->marker);
}
