/*
 * inject.c - selftest-inject: the flight executive (app/exec.c, the code
 * flightapp runs) with a selftest task table, and beside it the injector:
 * threads that disturb chosen jobs by a known amount and write down, with
 * their own CLOCK_MONOTONIC time stamps, what they did. `preflight selftest`
 * runs it under `preflight record` and compares the analysis with this log
 * (docs/selftest.md; the log format is st_log.h).
 *
 * The victims are the executive's own threads: the tick (st_tick) on one
 * CPU, the periodic tasks st_victim, st_ovr, st_mig and the event task st_ekf
 * on the other (--cpu). Their releases, markers, job log and statistics are
 * the executive's; only the bodies are the selftest's: st_ovr (extra work),
 * st_mig (move to the other CPU), st_victim (its work spun on the clock, so
 * that the job measures what it lost, and hands its injection its own start
 * stamp) and st_ekf (hands its event its start stamp). The injector threads
 * run SCHED_FIFO 97 above everything of the app: hogs that spin over a
 * release or into a job (the victims' CPU's one also watches the timer case's
 * timerfd), the writer of GPS-like events into a pipe, and the reader (94)
 * that takes them and releases st_ekf at the event's own time stamp.
 *
 * Each ground truth is a time stamp of the instant its metric denotes, taken
 * by the thread that is there (docs/selftest.md has the table).
 *
 * Realtime rules (docs/ARCHITECTURE.md): memory locked, every plan and
 * result preallocated before the threads go and prefaulted, stacks
 * prefaulted; the injecting paths only read the clock, spin, wait on or poll
 * a timerfd, write / read the pipe and set the affinity they were made to
 * set. A priority that cannot be set ends the program (exit 3) before the
 * app starts. The cases are laid out in phases of slots, one after the other,
 * so that one injection never overlaps another.
 */
#define _GNU_SOURCE
#include "common.h"
#include "app/exec.h"
#include "app/joblog.h"
#include "app/rt.h"
#include "st_log.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#define ST_SLOT_NS       (5 * PF_NS_PER_MS)	/* not a multiple of a 4 ms kernel tick */
#define ST_MAX_INJ       4096
#define ST_MAX_SLOTS     8192
#define ST_WARM_SLOTS    40			/* the first injection after 200 ms */
#define ST_PHASE_GAP     4			/* clean slots between two phases */
#define ST_INJ_PRIO      97			/* above every thread of the app */
#define ST_READER_PRIO   94			/* the event reader: above the victims, below the hogs */
#define ST_GAP_NS        500			/* a hole this long in a spin is an interruption (a fast timer IRQ takes ~1 us) */
#define ST_WATCH_NS      (5 * PF_NS_PER_US)	/* a timer's interrupt may take the CPU this early (KVM's timer advance) */
#define ST_PREFAULT      (64 * 1024)
#define ST_BLOCK_LEAD_NS (300 * PF_NS_PER_US)	/* a blocking hog starts this long before the release */
#define ST_TIMER_LEAD_NS (300 * PF_NS_PER_US)
#define ST_POLL_LEAD_NS  (200 * PF_NS_PER_US)	/* the timer's watcher polls from r - this (its wake may be late) */
#define ST_PREEMPT_AT_NS (200 * PF_NS_PER_US)	/* a preempting hog wakes this long after the release */
#define ST_BLOCK_CAP_NS  (1 * PF_NS_PER_MS)	/* a blocking hog waits this long past r + D for a late tick */

/* one injection: planned before the app goes, measured by the thread that does it */
struct st_inj {
	int      c;		/* enum st_case */
	const char *task;	/* the victim task */
	int64_t  slot;		/* the victim job's slot (-1: none) */
	int64_t  release_ns;	/* r_k of the victim job; ST_EVENT: the write */
	int64_t  wake_ns;	/* when the injecting thread acts */
	int64_t  until_ns;	/* hogs: spin until (0: wake + param) */
	int64_t  param;		/* nominal size in ns (ST_MIGRATE: the CPU after) */
	int64_t  t0_ns, t1_ns, t2_ns, t3_ns;	/* measured, docs/selftest.md */
	int64_t  gaps_ns;	/* hogs: time the spin lost to interruptions after the release */
	int64_t  cpu_ns;	/* ST_PREEMPT: the victim job's thread CPU time over its spin */
	int      pid;
	int      target_cpu;	/* ST_MIGRATE: where to go */
	struct app_task *victim;	/* ST_BLOCK: the task whose release the hog waits to see */
	bool     done;
};

/* a list of injections one thread works through, in time order */
struct st_list {
	int idx[ST_MAX_INJ];
	int n;
};

static struct st {
	struct app app;
	struct st_inj inj[ST_MAX_INJ];
	int ninj;
	int16_t by_slot[ST_MAX_SLOTS];		/* the body's injection of a slot, -1 none */
	struct st_list hog_victim, hog_tick, writer, reader;
	int64_t first_slot[ST_NCASES + 1], last_slot[ST_NCASES + 1];
	int cpu_victim, cpu_tick;
	int pipe_fd[2];
	int timer_fd;				/* ST_TIMER: the tick CPU's hog arms it for r - 1 ns, the watcher polls it */
	int64_t storm_end_ns;
	bool quick, storm;
	sem_t go;
	_Atomic bool stop;
} st;

/* ---- the bodies of the selftest's tasks (realtime path) ---- */

/* st_slot_inj - the injection planned for the body of this job, NULL when none */
static struct st_inj *st_slot_inj(const struct app_job *job, int c)
{
	struct st_inj *e;

	if (job->slot < 0 || job->slot >= ST_MAX_SLOTS || st.by_slot[job->slot] < 0)
		return NULL;
	e = &st.inj[st.by_slot[job->slot]];
	return e->c == c ? e : NULL;
}

/* st_ovr_job - an overrun: the planned extra CPU work, timed */
static void st_ovr_job(struct app_task *t, const struct app_job *job)
{
	struct st_inj *e = st_slot_inj(job, ST_OVERRUN);

	if (!e)
		return;
	e->t0_ns = pf_now_ns();
	app_work_cpu_ns(e->param);
	e->t1_ns = pf_now_ns();
	e->done = true;
}

/* st_mig_job - a migration: the job moves itself to the other CPU */
static void st_mig_job(struct app_task *t, const struct app_job *job)
{
	struct st_inj *e = st_slot_inj(job, ST_MIGRATE);
	cpu_set_t set;

	if (!e)
		return;
	CPU_ZERO(&set);
	CPU_SET(e->target_cpu, &set);
	e->t2_ns = sched_getcpu();
	e->t0_ns = pf_now_ns();
	if (sched_setaffinity(0, sizeof(set), &set))
		return;	/* not done: the comparison reports it */
	e->t1_ns = pf_now_ns();
	e->param = sched_getcpu();
	e->done = true;
}

/*
 * st_victim_job - the work of st_victim's jobs: ST_VICTIM_WORK_NS of its own
 * running time, spun on the clock. A blocked job hands its injection its
 * start as the job read it right after its start marker (app/exec.c: the
 * instant the trace stamps the marker with). A job of the preemption phase,
 * preempted or clean, hands its row what it lost (t3: from that start stamp
 * to the end of its spin, all but its own spinning; the spin's holes and the
 * executive's few microseconds before the body) and the CPU time the kernel
 * accounted to its thread over the spin (cpu_ns: interrupts that hit it
 * count, time off the CPU does not).
 */
static void st_victim_job(struct app_task *t, const struct app_job *job)
{
	struct st_inj *e = st_slot_inj(job, ST_BLOCK) ?: st_slot_inj(job, ST_PREEMPT);
	int64_t cpu0 = e && e->c == ST_PREEMPT ? pf_clock_ns(CLOCK_THREAD_CPUTIME_ID) : 0;
	int64_t prev = pf_now_ns(), now, own = 0;

	if (e && e->c == ST_BLOCK)
		e->t3_ns = job->start_ns;
	while (own < ST_VICTIM_WORK_NS) {
		now = pf_now_ns();
		if (now - prev <= ST_GAP_NS)
			own += now - prev;
		prev = now;
	}
	if (e && e->c == ST_PREEMPT) {
		e->cpu_ns = pf_clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
		e->t3_ns = prev - job->start_ns - own;
		if (!e->param)
			e->done = true;	/* a clean job: no hog to say so */
	}
}

/*
 * st_ekf_job - the event task's job: hands the event it was released for
 * (the one whose W is its release) its start as the job read it right after
 * its start marker (app/exec.c: the instant the trace stamps the marker with)
 */
static void st_ekf_job(struct app_task *t, const struct app_job *job)
{
	int i;

	for (i = 0; i < st.reader.n; i++)
		if (st.inj[st.reader.idx[i]].release_ns == job->release_ns) {
			st.inj[st.reader.idx[i]].t3_ns = job->start_ns;
			return;
		}
}

static const struct app_task_body st_bodies[] = {
	{ ST_TASK_OVR, NULL, st_ovr_job, NULL },
	{ ST_TASK_MIG, NULL, st_mig_job, NULL },
	{ ST_TASK_EKF, NULL, st_ekf_job, NULL },
	{ ST_TASK_VICTIM, NULL, st_victim_job, NULL },
	{ NULL, NULL, NULL, NULL },
};

/* ---- the injector's threads (realtime path) ---- */

/* st_tid - this thread's id */
static int st_tid(void)
{
	return (int)syscall(SYS_gettid);
}

/* st_sleep_until - sleep to an absolute CLOCK_MONOTONIC time; false when the run is stopping */
static bool st_sleep_until(int64_t ns)
{
	struct timespec ts = pf_ns_to_ts(ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	return !atomic_load_explicit(&st.stop, memory_order_relaxed);
}

/* st_posted - has the victim's semaphore been posted: its job released, its wakeup under way */
static bool st_posted(struct app_task *victim)
{
	int v = 0;

	return !sem_getvalue(&victim->sem, &v) && v > 0;
}

/*
 * st_spin - spin on CLOCK_MONOTONIC until 'until_ns'. Interruptions (holes
 * of more than ST_GAP_NS between two reads) that begin at or after
 * 'watch_ns': the start of the first goes to *first_ns (0 when none), their
 * total to *gaps_ns. With a 'victim' (a blocking hog), the spin goes on until
 * it has also run ST_WAKE_MARGIN_NS of its own time (holes not counted) after
 * *seen_ns, the first read taken after a look at the victim's semaphore found
 * it posted (0 when none; the look comes first, so the read is never earlier
 * than the post), at most until 'cap_ns' (then *seen_ns is 0). Returns the
 * last read.
 */
static int64_t st_spin(int64_t until_ns, int64_t watch_ns, struct app_task *victim, int64_t cap_ns,
		       int64_t *first_ns, int64_t *gaps_ns, int64_t *seen_ns)
{
	int64_t prev = pf_now_ns(), now, after = 0;
	bool posted;

	*first_ns = 0;
	*gaps_ns = 0;
	*seen_ns = 0;
	for (;;) {
		posted = victim && !*seen_ns && st_posted(victim);
		now = pf_now_ns();
		if (now - prev > ST_GAP_NS && prev >= watch_ns) {
			if (!*first_ns)
				*first_ns = prev;
			*gaps_ns += now - prev;
		} else if (*seen_ns) {
			after += now - prev;
		}
		if (posted && prev >= watch_ns)
			*seen_ns = now;
		if (now >= until_ns && (!victim || after >= ST_WAKE_MARGIN_NS || now >= cap_ns)) {
			if (victim && after < ST_WAKE_MARGIN_NS)
				*seen_ns = 0;	/* it could not block the woken victim: not as planned */
			return now;
		}
		prev = now;
	}
}

/*
 * st_timer_at - arm a hog's timerfd for an absolute CLOCK_MONOTONIC time; 0
 * or -errno. A hog arms its next wake while it runs, so that it leaves the
 * CPU by a read() that programs no timer: its last clock read is then as
 * close as a thread can get to its switch-out (clock_nanosleep would program
 * the timer hardware on the way out, microseconds on a virtual machine).
 */
static int st_timer_at(int fd, int64_t ns)
{
	struct itimerspec its = { .it_value = pf_ns_to_ts(ns) };

	return timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) ? -errno : 0;
}

/* st_prologue - a thread's prefaulted stack, then wait for the plan; false when stopping */
static bool st_prologue(void)
{
	volatile char stack[ST_PREFAULT];

	memset((char *)stack, 0, sizeof(stack));
	while (sem_wait(&st.go) && errno == EINTR)
		;
	return !atomic_load(&st.stop);
}

/*
 * st_watch_timer - ST_TIMER on the victims' CPU: poll the timerfd the tick
 * CPU's hog armed for r - 1 ns, which expires in the same timer interrupt as
 * the tick's own timer and just before it. The expiry lies between the start
 * of the last read() that found it not expired and the end of the first that
 * found it expired: t3 = the clock read before that first one, when the two
 * reads took at most 2 ST_GAP_NS in all; 0 when the watcher could not time
 * the expiry so (it came late, or was interrupted around the expiry) or saw
 * none within ST_BLOCK_CAP_NS.
 */
static void st_watch_timer(struct st_inj *e)
{
	int64_t before, prev = 0;
	uint64_t n;

	do {
		before = pf_now_ns();
		if (read(st.timer_fd, &n, sizeof(n)) == (ssize_t)sizeof(n)) {
			e->t3_ns = prev && pf_now_ns() - prev <= 2 * ST_GAP_NS ? before : 0;
			return;
		}
		prev = before;
	} while (before < e->release_ns + ST_BLOCK_CAP_NS);
}

/* st_hog_wake - when a hog thread acts on an injection: the plan's time, or the timer watcher's */
static int64_t st_hog_wake(const struct st_list *l, const struct st_inj *e)
{
	return l == &st.hog_victim && e->c == ST_TIMER ? e->release_ns - ST_POLL_LEAD_NS : e->wake_ns;
}

/*
 * st_hog_main - a hog: at each planned time, spin over a release or into a
 * job; t0 is its first clock read after the wake, t1 its last before it
 * blocks again (docs/selftest.md). The victims' CPU's hog also watches the
 * timer of the ST_TIMER injections.
 */
static void *st_hog_main(void *arg)
{
	struct st_list *l = arg;
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	struct st_inj *e;
	int i, tid = st_tid(), fd;
	uint64_t expirations;
	int64_t first, seen;

	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (!st_prologue() || fd < 0)
		goto out;
	if (l->n && st_timer_at(fd, st_hog_wake(l, &st.inj[l->idx[0]])))
		goto out;
	for (i = 0; i < l->n; i++) {
		e = &st.inj[l->idx[i]];
		while (read(fd, &expirations, sizeof(expirations)) < 0 && errno == EINTR)
			;
		first = pf_now_ns();
		if (atomic_load_explicit(&st.stop, memory_order_relaxed))
			break;
		if (i + 1 < l->n && st_timer_at(fd, st_hog_wake(l, &st.inj[l->idx[i + 1]])))
			break;
		if (l == &st.hog_victim && e->c == ST_TIMER) {
			st_watch_timer(e);
			continue;
		}
		e->t0_ns = first;
		if (e->c == ST_TIMER) {
			its.it_value = pf_ns_to_ts(e->release_ns - 1);
			if (timerfd_settime(st.timer_fd, TFD_TIMER_ABSTIME, &its, NULL))
				break;
		}
		e->t1_ns = st_spin(e->until_ns ? e->until_ns : e->t0_ns + e->param,
				   e->until_ns ? e->release_ns - ST_WATCH_NS : e->t0_ns, e->victim,
				   e->until_ns + ST_BLOCK_CAP_NS, &first, &e->gaps_ns, &seen);
		e->t2_ns = e->victim ? seen : first;
		e->pid = tid;
		e->done = true;
	}
out:
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* st_writer_main - GPS-like events: at each planned time, one 8-byte write into the pipe */
static void *st_writer_main(void *arg)
{
	struct st_list *l = arg;
	struct st_inj *e;
	int64_t w;
	int i;

	if (!st_prologue())
		return NULL;
	for (i = 0; i < l->n; i++) {
		e = &st.inj[l->idx[i]];
		if (!st_sleep_until(e->wake_ns))
			break;
		w = pf_now_ns();
		e->release_ns = w;	/* before the write: the task it releases looks it up */
		e->t0_ns = w;
		if (write(st.pipe_fd[1], &w, sizeof(w)) != (ssize_t)sizeof(w))
			break;
	}
	close(st.pipe_fd[1]);	/* the reader sees the end */
	return NULL;
}

/*
 * st_reader_main - takes each event and releases st_ekf at the event's own
 * time stamp W (what the event carries), as an io task that time-stamps a
 * GPS fix on arrival releases ekf: the job's release r_k is the event's
 * instant, not the instant its taker got round to the trigger
 */
static void *st_reader_main(void *arg)
{
	struct st_list *l = arg;
	struct app_task *ekf = app_find_task(&st.app, ST_TASK_EKF);
	struct st_inj *e;
	int64_t w;
	int i, tid = st_tid();

	if (!st_prologue())
		return NULL;
	for (i = 0; i < l->n; i++) {
		if (read(st.pipe_fd[0], &w, sizeof(w)) != (ssize_t)sizeof(w))
			break;
		e = &st.inj[l->idx[i]];
		e->t1_ns = pf_now_ns();
		app_task_trigger_at(ekf, w);	/* released at the event's own time stamp */
		e->t2_ns = pf_now_ns();
		e->pid = tid;
		e->done = true;
	}
	return NULL;
}

/*
 * st_storm_main - text markers written without pause until the storm ends, at
 * SCHED_FIFO on the victims' CPU, where 'selftest' pins the recorder: the
 * recorder cannot read while it runs, so the tiny ring buffer overflows
 * whatever the machine's load; the app's tasks preempt it, its logger runs on
 * the other CPU
 */
static void *st_storm_main(void *arg)
{
	static const char line[] = "st storm\n";

	(void)arg;
	if (!st_prologue())
		return NULL;
	while (pf_now_ns() < st.storm_end_ns && !atomic_load_explicit(&st.stop, memory_order_relaxed))
		if (write(st.app.marker.text_fd, line, sizeof(line) - 1) < 0 && errno != EINTR)
			break;
	return NULL;
}

/* ---- set-up ---- */

/* st_thread - start an injector thread: SCHED_FIFO 'prio' (0: SCHED_OTHER) on 'cpu'; 0 or -errno */
static int st_thread(pthread_t *th, void *(*fn)(void *), void *arg, int prio, int cpu, const char *name)
{
	struct sched_param sp = { .sched_priority = prio };
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 4 * ST_PREFAULT);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, prio ? SCHED_FIFO : SCHED_OTHER);
	pthread_attr_setschedparam(&attr, &sp);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	ret = -pthread_create(th, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	if (!ret)
		pthread_setname_np(*th, name);
	return ret;
}

/* st_add - plan one injection; its index, or -1 when the plan is full */
static int st_add(int c, const char *task, int64_t slot, int64_t wake_ns, int64_t until_ns, int64_t param)
{
	struct st_inj *e;

	if (st.ninj >= ST_MAX_INJ || slot >= ST_MAX_SLOTS)
		return -1;
	e = &st.inj[st.ninj];
	memset(e, 0, sizeof(*e));
	e->c = c;
	e->task = task;
	e->slot = slot;
	e->release_ns = st.app.t0_ns + slot * ST_SLOT_NS;
	e->wake_ns = wake_ns;
	e->until_ns = until_ns;
	e->param = param;
	if (st.first_slot[c] < 0)
		st.first_slot[c] = slot;
	st.last_slot[c] = slot;
	return st.ninj++;
}

/* st_push - add an injection to a thread's list */
static void st_push(struct st_list *l, int i)
{
	if (i >= 0)
		l->idx[l->n++] = i;
}

/*
 * st_plan_hogs - n hog injections of case c from slot k, one every 2 slots,
 * sizes in turn from size_us: over the release (ST_BLOCK: from before it to
 * r + D; ST_TIMER: the same on the tick's CPU) or inside the job (ST_PREEMPT:
 * wakes after the start, spins P). Returns the slot after the phase's gap.
 */
static int64_t st_plan_hogs(struct st_list *l, int c, const char *task, int64_t k, int64_t n,
			    const int64_t *size_us, size_t nsize)
{
	int64_t i, r, d, lead = c == ST_TIMER ? ST_TIMER_LEAD_NS : ST_BLOCK_LEAD_NS;
	int idx;

	for (i = 0; i < n; i++, k += 2) {
		r = st.app.t0_ns + k * ST_SLOT_NS;
		d = size_us[i % (int64_t)nsize] * PF_NS_PER_US;
		if (c == ST_PREEMPT)
			idx = st_add(c, task, k, r + ST_PREEMPT_AT_NS, 0, d);
		else
			idx = st_add(c, task, k, r - lead, r + d, d);
		if (idx >= 0 && c != ST_TIMER)
			st.by_slot[k] = (int16_t)idx;	/* st_victim's body reports to it */
		if (idx >= 0 && c == ST_BLOCK)
			st.inj[idx].victim = app_find_task(&st.app, task);
		st_push(l, idx);
		if (c == ST_TIMER)
			st_push(&st.hog_victim, idx);	/* the victims' CPU's hog watches the timer */
		/* the clean job after a preempted one: a row of param 0, the baseline its body fills in */
		if (c == ST_PREEMPT && (idx = st_add(c, task, k + 1, 0, 0, 0)) >= 0)
			st.by_slot[k + 1] = (int16_t)idx;
	}
	return k + ST_PHASE_GAP;
}

/*
 * st_plan - lay the cases out in slots after t0: each injection every
 * 'every' slots, ST_PHASE_GAP clean slots between cases; returns the first
 * slot after the last case
 */
static int64_t st_plan(void)
{
	static const int64_t block_us[] = { 20, 50, 100, 500, 2000 };
	static const int64_t hog_us[] = { 20, 50, 100, 200 };
	int64_t k = ST_WARM_SLOTS, n = st.quick ? 20 : 100, i;
	int64_t nblock = st.quick ? 20 : 100 * (int64_t)PF_ARRAY_SIZE(block_us);
	int idx;

	memset(st.by_slot, 0xff, sizeof(st.by_slot));
	for (i = 0; i <= ST_NCASES; i++)
		st.first_slot[i] = st.last_slot[i] = -1;
	if (st.storm)
		return k + (int64_t)(250 * PF_NS_PER_MS / ST_SLOT_NS);
	k = st_plan_hogs(&st.hog_victim, ST_BLOCK, ST_TASK_VICTIM, k, nblock, block_us, PF_ARRAY_SIZE(block_us));
	k = st_plan_hogs(&st.hog_victim, ST_PREEMPT, ST_TASK_VICTIM, k, n, hog_us, PF_ARRAY_SIZE(hog_us));
	k = st_plan_hogs(&st.hog_tick, ST_TIMER, ST_TASK_TICK, k, n, hog_us, PF_ARRAY_SIZE(hog_us));
	/* overruns: 1.2 slots of extra CPU work (about 1.5 slots of wall time), then clean slots to catch up */
	for (i = 0; i < n; i++, k += 4) {
		idx = st_add(ST_OVERRUN, ST_TASK_OVR, k, 0, 0, ST_SLOT_NS * 6 / 5);
		if (idx >= 0)
			st.by_slot[k] = (int16_t)idx;
	}
	k += ST_PHASE_GAP;
	/* migrations: every other job moves to the other CPU and back */
	for (i = 0; i < n; i++, k += 2) {
		idx = st_add(ST_MIGRATE, ST_TASK_MIG, k, 0, 0, 0);
		if (idx < 0)
			continue;
		st.inj[idx].target_cpu = i % 2 ? st.cpu_victim : st.cpu_tick;
		st.by_slot[k] = (int16_t)idx;
	}
	k += ST_PHASE_GAP;
	/* events in the middle of a slot */
	for (i = 0; i < n; i++, k += 2) {
		idx = st_add(ST_EVENT, ST_TASK_EKF, k, st.app.t0_ns + k * ST_SLOT_NS + ST_SLOT_NS / 2, 0, 0);
		st_push(&st.writer, idx);
		st_push(&st.reader, idx);
	}
	return k + 10;
}

/*
 * st_config - the selftest's task table over the executive's defaults; 0 or
 * an exit code. The logger's period is no multiple of the slot: its timer
 * would otherwise interrupt the victims' CPU at every fourth release, just
 * when a hog or the timer's watcher must not be interrupted. Under the storm
 * the logger is pinned to the tick's CPU, away from the storm.
 */
static int st_config(struct app_config *cfg)
{
	char text[2048], err[512];

	app_config_defaults(cfg);
	snprintf(text, sizeof(text),
		 "[app]\nslot = %lldns\nring = 8192\nlogger_period = 21700us\n"
		 "[task io]\nenabled = false\n[task ctl100]\nenabled = false\n[task nav10]\nenabled = false\n"
		 "[task ekf]\nenabled = false\n[task mission1]\nenabled = false\n[task telemetry]\nenabled = false\n"
		 "[task " ST_TASK_TICK "]\nkind = tick\npriority = 93\nperiod = %lldns\nwork = 20us\ncpus = %d\n"
		 "[task " ST_TASK_VICTIM "]\nkind = periodic\npriority = 90\nperiod = %lldns\nwork = 0us\ncpus = %d\n"
		 "[task " ST_TASK_MIG "]\nkind = periodic\npriority = 89\nperiod = %lldns\nwork = 50us\ncpus = %d\n"
		 "[task " ST_TASK_OVR "]\nkind = periodic\npriority = 88\nperiod = %lldns\nwork = 20us\ncpus = %d\n"
		 "[task " ST_TASK_EKF "]\nkind = event\npriority = 91\nevent_period = 0ns\ndeadline = %lldns\n"
		 "work = 50us\ncpus = %d\n",
		 (long long)ST_SLOT_NS, (long long)ST_SLOT_NS, st.cpu_tick, (long long)ST_SLOT_NS, st.cpu_victim,
		 (long long)ST_SLOT_NS, st.cpu_victim, (long long)ST_SLOT_NS, st.cpu_victim,
		 (long long)ST_SLOT_NS, st.cpu_victim);
	if (st.storm)	/* off the storm's CPU */
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "[task logger]\ncpus = %d\n", st.cpu_tick);
	if (app_config_load_string(cfg, "selftest", text, err, sizeof(err)) ||
	    app_config_check(cfg, err, sizeof(err)))
		return pf_fail(PF_EXIT_INTERNAL, "the selftest's task table: %s", err);
	snprintf(cfg->profile, sizeof(cfg->profile), "selftest");
	return 0;
}

/* st_write_log - the injector log (st_log.h); 0 or -errno */
static int st_write_log(const char *path)
{
	FILE *f = fopen(path, "we");
	struct st_inj *e;
	int i, ret = 0;

	if (!f)
		return -errno;
	fprintf(f, "%s\n# slot_ns=%lld\n# t0_ns=%lld\n# cpu_victim=%d\n# cpu_tick=%d\n# quick=%d\n# storm=%d\n",
		ST_LOG_HEADER, (long long)ST_SLOT_NS, (long long)st.app.t0_ns, st.cpu_victim, st.cpu_tick,
		st.quick, st.storm);
	for (i = 1; i <= ST_NCASES; i++)
		if (st.first_slot[i] >= 0)
			fprintf(f, "# first_slot.%s=%lld\n# last_slot.%s=%lld\n", st_case_name(i),
				(long long)st.first_slot[i], st_case_name(i), (long long)st.last_slot[i]);
	fprintf(f, "%s\n", ST_LOG_COLUMNS);
	for (i = 0; i < st.ninj; i++) {
		e = &st.inj[i];
		if (!e->done)
			continue;
		if (e->c == ST_OVERRUN || e->c == ST_MIGRATE)
			e->pid = atomic_load(&app_find_task(&st.app, e->task)->tid);
		fprintf(f, "%s,%s,%lld,%lld,%lld,%lld,%lld,%lld,%d,%lld,%lld,%lld\n", st_case_name(e->c), e->task,
			(long long)e->slot, (long long)e->release_ns, (long long)e->t0_ns, (long long)e->t1_ns,
			(long long)e->t2_ns, (long long)e->gaps_ns, e->pid, (long long)e->param, (long long)e->t3_ns,
			(long long)e->cpu_ns);
	}
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static const char st_usage[] =
	"usage: selftest-inject --trace-instance NAME --joblog PATH --log PATH [--quick] [--cpu N] [--storm]\n"
	"\n"
	"The flight executive with the selftest's tasks and the injector beside it; run by\n"
	"'preflight selftest' under 'preflight record' (docs/selftest.md).\n"
	"\n"
	"options:\n"
	"  -t, --trace-instance NAME  write the app's markers into this tracefs instance (required)\n"
	"  -j, --joblog PATH          the executive's job log (required)\n"
	"  -l, --log PATH             the injector log (required)\n"
	"  -Q, --quick                20 injections per case (default: 100, 500 for blocking)\n"
	"  -c, --cpu N                the victims' CPU (default: the last online CPU); the tick\n"
	"                             and the tick's hog run on another one\n"
	"      --storm                no injections: 0.25 s of the app under a storm of\n"
	"                             scheduler events (the lost-events case; default: off)\n"
	"  -h, --help                 this text\n"
	"\n"
	"exit: 0 done, 2 usage, 3 environment (priority, memory lock, tracefs), 4 internal\n";

/* st_parse - the command line; an exit code when the program must stop, -1 to go on */
static int st_parse(int argc, char **argv, const char **inst, const char **joblog, const char **log)
{
	enum { OPT_STORM = 256 };
	static const struct option opts[] = {
		{ "trace-instance", required_argument, NULL, 't' },
		{ "joblog", required_argument, NULL, 'j' },
		{ "log", required_argument, NULL, 'l' },
		{ "quick", no_argument, NULL, 'Q' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "storm", no_argument, NULL, OPT_STORM },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), v;
	int c;

	st.cpu_victim = (int)ncpu - 1;
	while ((c = getopt_long(argc, argv, "t:j:l:Qc:h", opts, NULL)) != -1) {
		switch (c) {
		case 't': *inst = optarg; break;
		case 'j': *joblog = optarg; break;
		case 'l': *log = optarg; break;
		case 'Q': st.quick = true; break;
		case OPT_STORM: st.storm = true; break;
		case 'c':
			if (pf_parse_long(optarg, 0, ncpu - 1, &v))
				return pf_fail(PF_EXIT_USAGE, "--cpu '%s': not an online CPU (0-%ld)", optarg, ncpu - 1);
			st.cpu_victim = (int)v;
			break;
		case 'h':
			fputs(st_usage, stdout);
			return PF_EXIT_OK;
		default:
			fputs(st_usage, stderr);
			return PF_EXIT_USAGE;
		}
	}
	if (optind < argc || !*inst || !*joblog || !*log)
		return pf_fail(PF_EXIT_USAGE, "--trace-instance, --joblog and --log are required (try --help)");
	if (ncpu < 2)
		return pf_fail(PF_EXIT_ENV, "needs 2 CPUs (the tick and the victims on different ones), %ld online", ncpu);
	st.cpu_tick = st.cpu_victim ? 0 : 1;
	return -1;
}

/* st_threads - the injector's threads, before the app's (a priority refused stops everything); 0 or an exit code */
static int st_threads(pthread_t *th, int *nth)
{
	struct { void *(*fn)(void *); void *arg; int prio, cpu; const char *name; } t[] = {
		{ st_hog_main, &st.hog_victim, ST_INJ_PRIO, st.cpu_victim, "st_hog_v" },
		{ st_hog_main, &st.hog_tick, ST_INJ_PRIO, st.cpu_tick, "st_hog_t" },
		{ st_writer_main, &st.writer, ST_INJ_PRIO, st.cpu_tick, "st_gps_w" },
		{ st_reader_main, &st.reader, ST_READER_PRIO, st.cpu_victim, "st_gps_r" },
		{ st_storm_main, NULL, 1, st.cpu_victim, "st_storm" },
	};
	size_t i, n = st.storm ? PF_ARRAY_SIZE(t) : PF_ARRAY_SIZE(t) - 1;
	int ret;

	for (i = st.storm ? 4 : 0; i < n; i++) {
		ret = st_thread(&th[*nth], t[i].fn, t[i].arg, t[i].prio, t[i].cpu, t[i].name);
		if (ret == -EPERM)
			return pf_fail(PF_EXIT_ENV, "%s: SCHED_FIFO priority %d: not permitted (run as root)",
				       t[i].name, t[i].prio);
		if (ret)
			return pf_fail(PF_EXIT_ENV, "%s: %s", t[i].name, strerror(-ret));
		(*nth)++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *inst = NULL, *joblog = NULL, *log = NULL;
	struct app_config *cfg = NULL;
	pthread_t th[8];
	int nth = 0, i, ret, code, dma_fd = -1;
	bool interrupted;
	struct timespec ts;
	sigset_t sigs;
	char err[512];

	pf_set_prog("selftest-inject");
	code = st_parse(argc, argv, &inst, &joblog, &log);
	if (code >= 0)
		return code;
	code = PF_EXIT_OK;
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	if ((code = st_config(cfg)))
		goto out_cfg;
	st.timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (st.timer_fd < 0 || pipe2(st.pipe_fd, O_CLOEXEC) ||
	    sem_init(&st.go, 0, 0)) {
		code = pf_fail(PF_EXIT_INTERNAL, "pipe, timerfd: %s", strerror(errno));
		goto out_cfg;
	}
	ret = app_init(&st.app, cfg, err, sizeof(err));
	if (ret) {
		code = pf_fail(PF_EXIT_INTERNAL, "setup: %s", err);
		goto out_app;
	}
	st.app.quiet = true;
	st.app.drain = app_logger_drain;
	if ((ret = app_joblog_open(&st.app, joblog))) {
		code = pf_fail(PF_EXIT_USAGE, "--joblog: %s: %s", joblog, strerror(-ret));
		goto out_app;
	}
	if ((ret = app_marker_open(&st.app.marker, inst, false, err, sizeof(err)))) {
		code = pf_fail(PF_EXIT_ENV, "--trace-instance: %s", err);
		goto out_app;
	}
	snprintf(st.app.trace_instance, sizeof(st.app.trace_instance), "%s", inst);
	dma_fd = app_rt_dma_latency_hold(0);
	snprintf(st.app.dma_state, sizeof(st.app.dma_state), dma_fd >= 0 ? "held" : "unavailable");
	if ((ret = app_rt_lock_memory())) {
		code = pf_fail(PF_EXIT_ENV, "mlockall: %s (run as root)", strerror(-ret));
		goto out_app;
	}
	st.app.memory_locked = true;
	memset(st.inj, 0, sizeof(st.inj));	/* prefault the plan and its results */
	if ((ret = app_bodies_init(&st.app, st_bodies, err, sizeof(err)))) {
		code = pf_fail(PF_EXIT_INTERNAL, "%s", err);
		goto out_app;
	}
	app_signals_to_main(&sigs);
	if ((code = st_threads(th, &nth)))
		goto out_threads;
	/* the run's length is the plan's, and the plan needs t0: plan with a provisional t0, then again */
	st.app.duration_ns = st_plan() * ST_SLOT_NS;
	ret = app_start(&st.app, err, sizeof(err));
	if (ret) {
		code = pf_fail(ret == -EPERM || ret == -EINVAL ? PF_EXIT_ENV : PF_EXIT_INTERNAL, "%s", err);
		goto out_threads;
	}
	st.ninj = st.hog_victim.n = st.hog_tick.n = st.writer.n = st.reader.n = 0;
	st_plan();
	st.storm_end_ns = st.app.t0_ns + st.app.duration_ns;
	app_declare_tasks(&st.app);
	if (app_joblog_header(&st.app))
		code = PF_EXIT_ENV;
	for (i = 0; i < nth; i++)
		sem_post(&st.go);
	app_go(&st.app);
	while (!atomic_load(&st.app.tick_done)) {
		ts = pf_ns_to_ts(100 * PF_NS_PER_MS);
		ret = sigtimedwait(&sigs, NULL, &ts);
		if (ret == SIGINT || ret == SIGTERM) {
			app_request_stop(&st.app);
			break;
		}
	}
	app_join(&st.app);
out_threads:
	/* a normal end finds every injector thread done; an interrupted or failed one cancels them */
	interrupted = code || app_stopping(&st.app);
	atomic_store(&st.stop, true);
	for (i = 0; i < nth; i++) {
		sem_post(&st.go);
		if (interrupted)
			pthread_cancel(th[i]);	/* asleep before an injection the run did not reach */
		pthread_join(th[i], NULL);
	}
	ret = app_joblog_close(&st.app);
	if (ret && !code)
		code = pf_fail(PF_EXIT_ENV, "--joblog: %s: %s", joblog, strerror(-ret));
	if (!code && (ret = st_write_log(log)))
		code = pf_fail(PF_EXIT_ENV, "--log: %s: %s", log, strerror(-ret));
out_app:
	app_fini(&st.app);
	app_rt_dma_latency_release(dma_fd);
out_cfg:
	free(cfg);
	return code;
}
