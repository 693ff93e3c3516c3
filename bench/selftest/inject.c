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
 * run SCHED_FIFO: hogs that spin over a release or into a job (92 on the
 * victims' CPU, between the tick and the victims, so that on one CPU the tick
 * still releases the job a hog blocks; 97 over the tick's own release), the
 * writer of GPS-like events into a pipe (97), the reader (94) that takes them
 * and releases st_ekf at the event's own time stamp, and for the pi case a
 * low-priority holder of a mutex st_pi's jobs lock (10) and a medium hog (50).
 *
 * Nothing here may freeze its machine (on PREEMPT_RT, timers of timerfds and
 * RCU callbacks run in ktimers/N and rcuc/N at SCHED_FIFO 1, below every
 * thread of the selftest): every spin ends by the wall clock, whatever the
 * clock reads cost (the gap that counts as an interruption is calibrated),
 * the storm leaves its CPU 1 ms in 11 (4 in 14 with one CPU); a canary at SCHED_FIFO 1 on each CPU
 * the selftest uses shows that such threads still run, and a watchdog at
 * SCHED_FIFO 99 ends the run and puts every thread of it back to
 * SCHED_OTHER when a canary starves or the run overstays its plan; the
 * kernel's RLIMIT_RTTIME kills the program if a realtime thread runs 0.5 s
 * without blocking. With one CPU everything shares it and the migrate case
 * is not run (the reason goes into the log).
 *
 * Each ground truth is a time stamp of the instant its metric denotes, taken
 * by the thread that is there (docs/selftest.md has the table).
 *
 * Realtime rules (docs/ARCHITECTURE.md): memory locked, every plan and
 * result preallocated before the threads go and prefaulted, stacks
 * prefaulted; the injecting paths only read the clock, spin, sleep, wait on
 * or post a semaphore, write / read the pipe, take and release the pi case's
 * mutex and set the affinity they were made to set. A priority that cannot be set ends the program (exit 3) before the
 * app starts. The cases are laid out in phases of slots, one after the other,
 * so that one injection never overlaps another.
 */
#define _GNU_SOURCE
#include "common.h"
#include "outfile.h"
#include "app/exec.h"
#include "app/joblog_write.h"
#include "app/rt.h"
#include "st_log.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ST_SLOT_NS       (5 * PF_NS_PER_MS)	/* not a multiple of a 4 ms kernel tick */
#define ST_MAX_INJ       4096
#define ST_QUICK_N       120			/* injections per case of a quick run */
#define ST_FULL_N        200			/* of a full run */
#define ST_FULL_BLOCK_N  500			/* blocking, full */
#define ST_MAX_SLOTS     8192
#define ST_WARM_SLOTS    40			/* the first injection after 200 ms */
#define ST_PHASE_GAP     4			/* clean slots between two phases */
#define ST_INJ_PRIO      97			/* above every thread of the app (the tick's hog, the writer) */
#define ST_HOG_V_PRIO    92			/* the victims' CPU's hog: below the tick (93), above the victims */
#define ST_READER_PRIO   94			/* the event reader: above the victims, below the hogs */
#define ST_WATCHDOG_PRIO 99			/* the watchdog: above everything */
#define ST_CANARY_PRIO   1			/* the canaries: ktimers/N's and rcuc/N's priority */
#define ST_GAP_MIN_NS    500			/* a hole this long in a spin is an interruption (a fast timer IRQ takes ~1 us) */
#define ST_WATCH_NS      (5 * PF_NS_PER_US)	/* a timer's interrupt may take the CPU this early (KVM's timer advance) */
#define ST_SPIN_CAP_NS   (4 * PF_NS_PER_MS)	/* no spin of the injector or of a victim's body runs longer (wall time) */
#define ST_VICTIM_CAP_NS (1 * PF_NS_PER_MS)	/* st_victim's 400 us of own work end by then (wall): room left under emulation */
#define ST_CANARY_NS     (2 * PF_NS_PER_MS)	/* a canary's period */
#define ST_STARVE_NS     (250 * PF_NS_PER_MS)	/* a canary this late: SCHED_FIFO 1 starved, the watchdog ends the run */
#define ST_PROGRESS_NS   (20 * PF_NS_PER_MS)	/* ... while a spin of the selftest on its CPU read the clock this recently */
#define ST_STARVE_CHECKS 3			/* ... at this many checks in a row (10 ms apart) */
#define ST_OVERSTAY_NS   (10000 * PF_NS_PER_MS)	/* the watchdog ends a run this long past its plan */
#define ST_RTTIME_US     (500 * 1000)		/* RLIMIT_RTTIME: SIGXCPU after this much realtime CPU without blocking */
#define ST_STORM_BURST_NS (10 * PF_NS_PER_MS)	/* the storm writes this long, then sleeps st_storm_gap_ns() */
#define ST_STORM_NS      (250 * PF_NS_PER_MS)	/* the storm's run (with one CPU, ST_STORM_1CPU_NS) */
#define ST_STORM_1CPU_NS (1000 * PF_NS_PER_MS)
#define ST_PI_LEAD_NS    (100 * PF_NS_PER_US)	/* the holder takes the mutex this long before the release */
#define ST_PI_HOLD_NS    (400 * PF_NS_PER_US)	/* and holds it for this much of its own running time */
#define ST_PI_MID_NS     (300 * PF_NS_PER_US)	/* and spins this long */
#define ST_PREFAULT      (64 * 1024)
#define ST_BLOCK_LEAD_NS (300 * PF_NS_PER_US)	/* a blocking hog starts this long before the release */
#define ST_TIMER_LEAD_NS (300 * PF_NS_PER_US)
#define ST_BLOCK_CAP_NS  (1 * PF_NS_PER_MS)	/* a blocking hog waits this long past r + D for a late tick */
#define ST_LEAD_MAX_NS   (2 * PF_NS_PER_MS)	/* no wake is planned earlier than this before its release */
#define ST_PREEMPT_OWN_NS (100 * PF_NS_PER_US)	/* st_victim's own work before it wakes a preempting hog */
#define ST_PI_MID_OWN_NS (150 * PF_NS_PER_US)	/* the holder's own time after the victim asked before it wakes the medium hog */
#define ST_CAL_WAKES     10			/* sleeps of the wake calibration */

/* one injection: planned before the app goes, measured by the thread that does it */
struct st_inj {
	int      c;		/* enum st_case */
	const char *task;	/* the victim task */
	int64_t  slot;		/* the victim job's slot (-1: none) */
	int64_t  release_ns;	/* r_k of the victim job; ST_EVENT: the write */
	int64_t  wake_ns;	/* when the injecting thread acts */
	int64_t  until_ns;	/* hogs: spin until (0: wake + param) */
	int64_t  param;		/* nominal size in ns (ST_MIGRATE: the CPU after) */
	int64_t  t0_ns, t1_ns, t2_ns, t3_ns, t4_ns, t5_ns, t6_ns;	/* measured, docs/selftest.md */
	int64_t  gaps_ns;	/* hogs: time the spin lost to interruptions after the release */
	int64_t  cpu_ns;	/* ST_PREEMPT: the victim job's thread CPU time over its spin */
	int      pid, pid2;
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
	struct st_list hog_victim, hog_tick, writer, reader, holder, mid;
	int64_t first_slot[ST_NCASES + 1], last_slot[ST_NCASES + 1];
	const char *skip[ST_NCASES + 1];	/* why a case cannot run on this platform */
	int cpu_victim, cpu_tick, ncpus;	/* ncpus: the CPUs the selftest may use (its affinity) */
	int64_t gap_ns;				/* a hole this long in a spin is an interruption (calibrated) */
	int64_t step_p999_ns;			/* the calibration's 99.9th percentile step between two clock reads */
	int64_t wake_late_ns;			/* a realtime sleep's wake this late (calibrated, worst of ST_CAL_WAKES) */
	int64_t lead_ns;			/* hogs and the holder wake this long before a release (from wake_late_ns) */
	sem_t kick_hog, kick_mid;		/* st_victim wakes its preempting hog, the pi holder the medium hog */
	sem_t kick_rel;				/* the pi holder, once it has the mutex, lets st_pi_rel release st_pi */
	_Atomic int64_t kick_hog_slot, kick_mid_slot, kick_rel_slot;	/* the slot of the injection a kick is for */
	int pipe_fd[2];
	pthread_mutex_t pi_mutex[2];		/* ST_PI: [0] PTHREAD_PRIO_NONE, [1] PTHREAD_PRIO_INHERIT */
	int64_t storm_end_ns, end_by_ns;	/* end_by_ns: the watchdog ends the run after this */
	bool quick, storm;
	sem_t go;
	_Atomic bool stop;
	_Atomic int64_t canary_ns[2];		/* last run of the canary of cpu_victim [0], cpu_tick [1] */
	_Atomic int64_t progress_ns[2];		/* last clock read of a spin of the selftest on cpu_victim [0], cpu_tick [1] */
	_Atomic int tids[16];			/* the injector's threads, for the watchdog */
	_Atomic int ntids;
	const char *_Atomic watchdog_why;	/* set when the watchdog ended the run */
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

/* st_stopping - has the run been asked to end (the watchdog, a signal) */
static bool st_stopping(void)
{
	return atomic_load_explicit(&st.stop, memory_order_relaxed);
}

/* st_progress - the progress stamp of this thread's CPU (the watchdog tells starvation from a stalled CPU by it) */
static _Atomic int64_t *st_progress(void)
{
	return &st.progress_ns[sched_getcpu() == st.cpu_victim ? 0 : 1];
}

/*
 * st_spin_own - spin on the clock until this thread has run 'own_ns' of its
 * own time (holes longer than st.gap_ns not counted), at most until 'cap_ns'
 * (wall) or a stop; *prev_ns gets the last read, *lost_ns (may be NULL) the
 * holes. Returns the own time run.
 */
static int64_t st_spin_own(int64_t own_ns, int64_t cap_ns, int64_t *prev_ns, int64_t *lost_ns)
{
	int64_t prev = pf_now_ns(), now, own = 0, lost = 0;
	_Atomic int64_t *progress = st_progress();

	while (own < own_ns && prev < cap_ns && !st_stopping()) {
		now = pf_now_ns();
		atomic_store_explicit(progress, now, memory_order_relaxed);
		if (now - prev <= st.gap_ns)
			own += now - prev;
		else
			lost += now - prev;
		prev = now;
	}
	*prev_ns = prev;
	if (lost_ns)
		*lost_ns = lost;
	return own;
}

/* st_kick - wake the thread that waits for the injection of 'slot' (st_kick_wait) */
static void st_kick(sem_t *kick, _Atomic int64_t *kick_slot, int64_t slot)
{
	atomic_store(kick_slot, slot);
	sem_post(kick);
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
 * st_victim_job - the work of st_victim's jobs in the block and preemption
 * phases (none elsewhere, so that it does not stand in the later cases' way):
 * ST_VICTIM_WORK_NS of its own running time, spun on the clock. A blocked job
 * hands its injection its start as the job read it right after its start
 * marker (app/exec.c: the instant the trace stamps the marker with). A job of
 * the preemption phase, preempted or clean, hands its row what it lost (t3:
 * from that start stamp to the end of its spin, all but its own spinning; the
 * spin's holes and the executive's few microseconds before the body) and the
 * CPU time the kernel accounted to its thread over the spin (cpu_ns:
 * interrupts that hit it count, time off the CPU does not). A preempted job
 * wakes its hog itself after ST_PREEMPT_OWN_NS of its work (a semaphore post:
 * the hog, above it on its CPU, preempts it there), so the hog's wake is
 * inside the job whatever a timer's lateness (under emulation, milliseconds).
 */
static void st_victim_job(struct app_task *t, const struct app_job *job)
{
	struct st_inj *e = st_slot_inj(job, ST_BLOCK) ?: st_slot_inj(job, ST_PREEMPT);
	int64_t cpu0, prev, own, cap = pf_now_ns() + ST_VICTIM_CAP_NS;

	if (job->slot < 0 || job->slot > st.last_slot[ST_PREEMPT] + 1)
		return;
	cpu0 = e && e->c == ST_PREEMPT ? pf_clock_ns(CLOCK_THREAD_CPUTIME_ID) : 0;
	if (e && e->c == ST_BLOCK)
		e->t3_ns = job->start_ns;
	own = st_spin_own(ST_PREEMPT_OWN_NS, cap, &prev, NULL);
	if (e && e->c == ST_PREEMPT && e->param)
		st_kick(&st.kick_hog, &st.kick_hog_slot, e->slot);
	own += st_spin_own(ST_VICTIM_WORK_NS - own, cap, &prev, NULL);
	if (e && e->c == ST_PREEMPT && own >= ST_VICTIM_WORK_NS) {
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

/*
 * st_pi_job - the pi case's victim, an event task st_pi_rel releases at each
 * injection's release (its only jobs, so that every one of them is among the
 * analysis's --top worst, which have the culprit lines that carry `pi` and
 * `inversion`): it takes the mutex the holder took before the release (t3
 * its clock before the lock, t4 after it got it) and gives it back at once
 */
static void st_pi_job(struct app_task *t, const struct app_job *job)
{
	struct st_inj *e = NULL;
	pthread_mutex_t *m;
	int i;

	for (i = 0; i < st.holder.n && !e; i++)
		if (st.inj[st.holder.idx[i]].release_ns == job->release_ns)
			e = &st.inj[st.holder.idx[i]];
	if (!e)
		return;
	m = &st.pi_mutex[e->param ? 1 : 0];
	__atomic_store_n(&e->t3_ns, pf_now_ns(), __ATOMIC_RELEASE);	/* the holder watches it */
	if (pthread_mutex_lock(m))
		return;
	e->t4_ns = pf_now_ns();
	pthread_mutex_unlock(m);
}

static const struct app_task_body st_bodies[] = {
	{ ST_TASK_OVR, NULL, st_ovr_job, NULL },
	{ ST_TASK_MIG, NULL, st_mig_job, NULL },
	{ ST_TASK_EKF, NULL, st_ekf_job, NULL },
	{ ST_TASK_VICTIM, NULL, st_victim_job, NULL },
	{ ST_TASK_PI, NULL, st_pi_job, NULL },
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
	return !st_stopping();
}

/*
 * st_kick_wait - wait for the kick of the injection of 'slot' (st_kick) at
 * most until 'by_ns'; a stale kick (of an injection whose wait timed out
 * before: its job ran late) is passed over. True when kicked and the run
 * goes on.
 */
static bool st_kick_wait(sem_t *kick, _Atomic int64_t *kick_slot, int64_t slot, int64_t by_ns)
{
	struct timespec ts = pf_ns_to_ts(by_ns);

	for (;;) {
		if (sem_clockwait(kick, CLOCK_MONOTONIC, &ts)) {
			if (errno == EINTR)
				continue;
			return false;
		}
		if (atomic_load(kick_slot) == slot)
			return !st_stopping();
	}
}

/* st_posted - has the victim's semaphore been posted: its job released, its wakeup under way */
static bool st_posted(struct app_task *victim)
{
	int v = 0;

	return !sem_getvalue(&victim->sem, &v) && v > 0;
}

/*
 * st_spin - spin on CLOCK_MONOTONIC until 'until_ns'. Interruptions (holes
 * of more than st.gap_ns between two reads) that begin at or after
 * 'watch_ns' and end at or after 'watch_end_ns': the first one's last read
 * before it goes to *first_ns and its first read after it to *first_end_ns
 * (0 when none), their total to *gaps_ns. With a 'victim' (a blocking hog),
 * the spin goes on until it has also run ST_WAKE_MARGIN_NS of its own time
 * (holes not counted) after *seen_ns, the first read taken after a look at
 * the victim's semaphore found it posted (0 when none; the look comes first,
 * so the read is never earlier than the post), at most until 'cap_ns' (then
 * *seen_ns is 0). With a 'watch_end_ns' (the tick's hog) it goes on past
 * 'until_ns' until it saw such an interruption, at most until 'cap_ns' (a
 * timer's interrupt may come milliseconds late under emulation). Whatever
 * the plan, a spin ends ST_SPIN_CAP_NS after it began or when the run stops.
 * Returns the last read.
 */
static int64_t st_spin(int64_t until_ns, int64_t watch_ns, int64_t watch_end_ns, struct app_task *victim,
		       int64_t cap_ns, int64_t *first_ns, int64_t *first_end_ns, int64_t *gaps_ns, int64_t *seen_ns)
{
	int64_t prev = pf_now_ns(), now, after = 0, hard_end = prev + ST_SPIN_CAP_NS;
	_Atomic int64_t *progress = st_progress();
	bool posted;

	*first_ns = *first_end_ns = 0;
	*gaps_ns = 0;
	*seen_ns = 0;
	for (;;) {
		posted = victim && !*seen_ns && st_posted(victim);
		now = pf_now_ns();
		atomic_store_explicit(progress, now, memory_order_relaxed);
		if (now - prev > st.gap_ns && prev >= watch_ns && now >= watch_end_ns) {
			if (!*first_ns) {
				*first_ns = prev;
				*first_end_ns = now;
			}
			*gaps_ns += now - prev;
		} else if (*seen_ns) {
			after += now - prev;
		}
		if (posted && prev >= watch_ns)
			*seen_ns = now;
		if ((now >= until_ns && (!victim || after >= ST_WAKE_MARGIN_NS || now >= cap_ns) &&
		     (!watch_end_ns || *first_ns || now >= cap_ns)) || now >= hard_end || st_stopping()) {
			if (victim && after < ST_WAKE_MARGIN_NS)
				*seen_ns = 0;	/* it could not block the woken victim: not as planned */
			return now;
		}
		prev = now;
	}
}

/* st_prologue - note this thread for the watchdog, prefault its stack, wait for the plan; false when stopping */
static bool st_prologue(void)
{
	volatile char stack[ST_PREFAULT];
	int i = atomic_fetch_add(&st.ntids, 1);

	if (i < (int)PF_ARRAY_SIZE(st.tids))
		atomic_store(&st.tids[i], st_tid());
	memset((char *)stack, 0, sizeof(stack));
	while (sem_wait(&st.go) && errno == EINTR)
		;
	return !st_stopping();
}

/*
 * st_hog_main - a hog: at each planned time (a preempting one: when the job
 * kicks it), spin over a release or into a job; t0 is its first clock read
 * after the wake, t1 its last before it blocks again (docs/selftest.md). It
 * sleeps by clock_nanosleep: a realtime task's sleep is a hard timer on
 * PREEMPT_RT, while a timerfd's expires in ktimers/N at SCHED_FIFO 1, behind
 * every thread of the selftest (in the amd64 RT guest such wakes came 1.6-2.8
 * ms late at p50, 15 ms at p90, and the hog blocked on ktimers' locks on its
 * way out). Over the tick's release (ST_TIMER) it
 * notes the first interruption of its spin that ends at or after the release,
 * wherever it began:
 * the tick's timer expires inside it (t2: the last read before, t4: the first
 * after), whether the interrupt runs the timer itself or, on PREEMPT_RT, the
 * tick's timer is a hard one (a realtime task's sleep).
 */
static void *st_hog_main(void *arg)
{
	struct st_list *l = arg;
	struct st_inj *e;
	int i, tid = st_tid();
	int64_t first, first_end, seen;

	if (!st_prologue())
		return NULL;
	for (i = 0; i < l->n; i++) {
		e = &st.inj[l->idx[i]];
		if (e->c == ST_PREEMPT && !st_kick_wait(&st.kick_hog, &st.kick_hog_slot, e->slot, e->release_ns + ST_SLOT_NS)) {
			if (st_stopping())
				break;
			continue;	/* not kicked: its job did not run in its slot */
		}
		if (e->c != ST_PREEMPT && !st_sleep_until(e->wake_ns))
			break;
		e->t0_ns = pf_now_ns();
		e->t1_ns = st_spin(e->until_ns ? e->until_ns : e->t0_ns + e->param,
				   e->c == ST_TIMER ? 0 : e->until_ns ? e->release_ns - ST_WATCH_NS : e->t0_ns,
				   e->c == ST_TIMER ? e->release_ns : 0, e->victim,
				   e->until_ns + ST_BLOCK_CAP_NS, &first, &first_end, &e->gaps_ns, &seen);
		e->t2_ns = e->victim ? seen : first;
		e->t4_ns = e->c == ST_TIMER ? first_end : 0;
		e->pid = tid;
		e->done = true;
	}
	return NULL;
}

/*
 * st_holder_main - the pi case's low-priority holder: before each release it
 * takes the injection's mutex (t0 after it got it) and spins until the victim
 * asked for it (its t3 is set: the holder runs on the victim's CPU below it,
 * so the victim is blocked then), then runs ST_PI_HOLD_NS of its own time,
 * kicking the medium hog after ST_PI_MID_OWN_NS of it, and gives the mutex
 * back (t1 the clock before the unlock, t2 after); gaps: what its spin lost
 * after the victim asked. The hog's wake is thus inside the block whatever a
 * timer's lateness; at most ST_SPIN_CAP_NS after t0.
 */
static void *st_holder_main(void *arg)
{
	struct st_list *l = arg;
	pthread_mutex_t *m;
	struct st_inj *e;
	int i, tid = st_tid();
	int64_t cap, now, own, lost;

	if (!st_prologue())
		return NULL;
	for (i = 0; i < l->n; i++) {
		e = &st.inj[l->idx[i]];
		m = &st.pi_mutex[e->param ? 1 : 0];
		if (!st_sleep_until(e->wake_ns) || pthread_mutex_lock(m))
			break;
		e->t0_ns = now = pf_now_ns();
		st_kick(&st.kick_rel, &st.kick_rel_slot, e->slot);
		cap = e->t0_ns + ST_SPIN_CAP_NS;
		while (!__atomic_load_n(&e->t3_ns, __ATOMIC_ACQUIRE) && now < cap && !st_stopping())
			now = pf_now_ns();
		own = st_spin_own(ST_PI_MID_OWN_NS, cap, &e->t1_ns, &e->gaps_ns);
		st_kick(&st.kick_mid, &st.kick_mid_slot, e->slot);
		st_spin_own(ST_PI_HOLD_NS - own, cap, &e->t1_ns, &lost);
		e->gaps_ns += lost;
		pthread_mutex_unlock(m);
		e->t2_ns = pf_now_ns();
		e->pid = tid;
		e->done = true;
	}
	return NULL;
}

/* st_mid_main - the pi case's medium hog: when the holder kicks it, it spins ST_PI_MID_NS (t5 its first read, t6 its last) */
static void *st_mid_main(void *arg)
{
	struct st_list *l = arg;
	struct st_inj *e;
	int64_t first, first_end, gaps, seen;
	int i, tid = st_tid();

	if (!st_prologue())
		return NULL;
	for (i = 0; i < l->n; i++) {
		e = &st.inj[l->idx[i]];
		if (!st_kick_wait(&st.kick_mid, &st.kick_mid_slot, e->slot, e->release_ns + 2 * ST_SLOT_NS - 1)) {
			if (st_stopping())
				break;
			continue;	/* not kicked */
		}
		e->t5_ns = pf_now_ns();
		e->t6_ns = st_spin(e->t5_ns + ST_PI_MID_NS, e->t5_ns, 0, NULL, 0, &first, &first_end, &gaps, &seen);
		e->pid2 = tid;
	}
	return NULL;
}

/*
 * st_pi_rel_main - releases st_pi (an event task) at each pi injection's
 * release, from above it, once the holder has the mutex (it kicks): at the
 * planned release when it had it by then, else at once, the injection's
 * release moved there (on one emulated CPU the holder, below everything,
 * took it after the planned release in half the injections)
 */
static void *st_pi_rel_main(void *arg)
{
	struct st_list *l = arg;
	struct app_task *pi = app_find_task(&st.app, ST_TASK_PI);
	struct st_inj *e;
	int64_t now;
	int i;

	if (!st_prologue())
		return NULL;
	for (i = 0; i < l->n; i++) {
		e = &st.inj[l->idx[i]];
		if (!st_sleep_until(e->release_ns))
			break;
		if (!st_kick_wait(&st.kick_rel, &st.kick_rel_slot, e->slot, e->release_ns + ST_SLOT_NS)) {
			if (st_stopping())
				break;
			continue;	/* the holder never had the mutex: no job */
		}
		now = pf_now_ns();
		if (now > e->release_ns + ST_WATCH_NS)
			__atomic_store_n(&e->release_ns, now, __ATOMIC_RELEASE);	/* before the job looks it up */
		app_task_trigger_at(pi, e->release_ns);
	}
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
 * st_storm_gap_ns - the storm's sleep after each burst: 1 ms, with one CPU 4 ms.
 * Each loss window is one read of the recorder after a burst overflowed the
 * ring; on one emulated CPU, where the app's tasks, its logger and the
 * kernel's threads share the gaps with the recorder, 1 ms gaps of a 0.25 s
 * storm left it one read, one window and no job near it (docs/selftest.md).
 */
static int64_t st_storm_gap_ns(void)
{
	return st.cpu_tick == st.cpu_victim ? 4 * PF_NS_PER_MS : PF_NS_PER_MS;
}

/*
 * st_storm_main - text markers written in bursts until the storm ends, at
 * SCHED_FIFO 1 on the victims' CPU, where 'selftest' pins the recorder: the
 * recorder cannot read during a burst, so the tiny ring buffer overflows
 * whatever the machine's load; the app's tasks preempt it, its logger runs on
 * the other CPU (with one CPU, between the bursts). After each burst of
 * ST_STORM_BURST_NS it sleeps st_storm_gap_ns(): the recorder reads, and the
 * kernel's own threads of its priority (ktimers/N, rcuc/N on PREEMPT_RT) run.
 */
static void *st_storm_main(void *arg)
{
	static const char line[] = "st storm\n";
	int64_t burst_end;

	(void)arg;
	if (!st_prologue())
		return NULL;
	while (pf_now_ns() < st.storm_end_ns && !st_stopping()) {
		burst_end = pf_now_ns() + ST_STORM_BURST_NS;
		while (pf_now_ns() < burst_end && !st_stopping())
			if (write(st.app.marker.text_fd, line, sizeof(line) - 1) < 0 && errno != EINTR)
				return NULL;
		st_sleep_until(pf_now_ns() + st_storm_gap_ns());
	}
	return NULL;
}

/* st_canary_main - SCHED_FIFO 1 on one CPU, the priority of ktimers/N and rcuc/N: its clock read every ST_CANARY_NS shows they can run */
static void *st_canary_main(void *arg)
{
	_Atomic int64_t *stamp = arg;
	int64_t next = pf_now_ns();

	atomic_store(stamp, next);
	if (!st_prologue())
		return NULL;
	next = pf_now_ns();	/* not the stale start: a sleep already due wakes at once, and catching up spun */
	while (!st_stopping()) {
		atomic_store(stamp, pf_now_ns());
		next += ST_CANARY_NS;
		st_sleep_until(next);
	}
	return NULL;
}

/*
 * st_watchdog_end - the watchdog's stop: say why, ask every thread to end,
 * and put every realtime thread of the run back to SCHED_OTHER (the app's
 * tasks and the injector's), so that what starved the machine stops at once
 */
static void st_watchdog_end(const char *why)
{
	struct sched_param other = { .sched_priority = 0 };
	int i, n = atomic_load(&st.ntids), tid;

	atomic_store(&st.watchdog_why, why);
	atomic_store(&st.stop, true);
	app_request_stop(&st.app);
	for (i = 0; i < n && i < (int)PF_ARRAY_SIZE(st.tids); i++)
		if ((tid = atomic_load(&st.tids[i])) > 0 && tid != st_tid())
			sched_setscheduler(tid, SCHED_OTHER, &other);
	for (i = 0; i < st.app.ntasks; i++)
		if ((tid = atomic_load(&st.app.task[i].tid)) > 0)
			sched_setscheduler(tid, SCHED_OTHER, &other);
}

/*
 * st_watchdog_main - SCHED_FIFO 99 on the tick's CPU (the victims' other
 * CPU; with one CPU, the only one): every 10 ms, by a sleep whose timer is a
 * hard one on PREEMPT_RT (a realtime task's), it checks that each canary ran
 * within ST_STARVE_NS and that the run is within its plan plus
 * ST_OVERSTAY_NS, and otherwise ends it (st_watchdog_end). A canary starved
 * only while a spin of the selftest ran on its CPU (it read the clock within
 * ST_PROGRESS_NS, ST_STARVE_CHECKS checks in a row): a virtual CPU the host
 * stops runs neither (in the amd64 RT guest on a loaded host, for 440 ms:
 * the canary's 250 ms then said nothing of the selftest)
 */
static void *st_watchdog_main(void *arg)
{
	int64_t now, next;
	int i, starved[2] = { 0, 0 };

	(void)arg;
	if (!st_prologue())
		return NULL;
	next = pf_now_ns();
	/* the canaries' stamps of their start are as old as the app's start-up (a third of a second under emulation) */
	for (i = 0; i < 2; i++)
		atomic_store(&st.canary_ns[i], next);
	while (!st_stopping()) {
		next += 10 * PF_NS_PER_MS;
		if (!st_sleep_until(next))
			break;
		now = pf_now_ns();
		for (i = 0; i < (st.cpu_tick == st.cpu_victim ? 1 : 2); i++) {
			if (now - atomic_load(&st.canary_ns[i]) <= ST_STARVE_NS ||
			    now - atomic_load(&st.progress_ns[i]) > ST_PROGRESS_NS) {
				starved[i] = 0;
				continue;
			}
			if (++starved[i] >= ST_STARVE_CHECKS) {
				st_watchdog_end("a SCHED_FIFO 1 canary did not run for 250 ms: the kernel's own "
						"threads of that priority (ktimers, rcuc) were starved");
				return NULL;
			}
		}
		if (st.end_by_ns && now > st.end_by_ns) {
			st_watchdog_end("the run went on 10 s past its plan");
			return NULL;
		}
	}
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

static int st_cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * st_calibrate_gap - the hole in a spin that counts as an interruption: 4
 * times the median step between two clock reads, at least ST_GAP_MIN_NS (a
 * read takes 20-40 ns on hardware, microseconds under emulation, where a
 * fixed 500 ns would see every step as an interruption and a spin counting
 * its own time would never end). st.step_p999_ns gets the steps' 99.9th
 * percentile, for the log: no noise floor (15.8 us on this loaded VM, whose
 * interrupts come that often), a figure of the platform's holes.
 */
static int64_t st_calibrate_gap(void)
{
	static int64_t step[20001];
	int64_t prev = pf_now_ns(), now, gap;
	int i;

	for (i = 0; i < (int)PF_ARRAY_SIZE(step); i++) {
		now = pf_now_ns();
		step[i] = now - prev;
		prev = now;
	}
	qsort(step, PF_ARRAY_SIZE(step), sizeof(step[0]), st_cmp64);
	st.step_p999_ns = step[PF_ARRAY_SIZE(step) * 999 / 1000];
	gap = 4 * step[PF_ARRAY_SIZE(step) / 2];
	return gap > ST_GAP_MIN_NS ? gap : ST_GAP_MIN_NS;
}

/*
 * st_calibrate_wake - how late a realtime sleep wakes here: ST_CAL_WAKES
 * sleeps of 1 ms at the victims' hog's priority on the victims' CPU (a hard
 * timer on PREEMPT_RT), the worst lateness (0 when the priority is
 * refused: the threads' start says so). Tens of microseconds on a virtual
 * machine, milliseconds under emulation: every wake planned before a
 * release comes that much earlier (at most ST_LEAD_MAX_NS), so that the
 * injecting thread runs before the release it must stand in the way of.
 */
static int64_t st_calibrate_wake(void)
{
	struct sched_param sp = { .sched_priority = ST_HOG_V_PRIO }, old_sp;
	int64_t late[ST_CAL_WAKES], next;
	cpu_set_t old_set, set;
	int old_policy = sched_getscheduler(0), i;

	if (old_policy < 0 || sched_getparam(0, &old_sp) || sched_getaffinity(0, sizeof(old_set), &old_set))
		return 0;
	CPU_ZERO(&set);
	CPU_SET(st.cpu_victim, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || sched_setscheduler(0, SCHED_FIFO, &sp)) {
		sched_setaffinity(0, sizeof(old_set), &old_set);
		return 0;
	}
	for (i = 0; i < ST_CAL_WAKES; i++) {
		next = pf_now_ns() + PF_NS_PER_MS;
		st_sleep_until(next);
		late[i] = pf_now_ns() - next;
	}
	sched_setscheduler(0, old_policy, &old_sp);
	sched_setaffinity(0, sizeof(old_set), &old_set);
	qsort(late, ST_CAL_WAKES, sizeof(late[0]), st_cmp64);
	return late[ST_CAL_WAKES - 1] < ST_LEAD_MAX_NS ? late[ST_CAL_WAKES - 1] : ST_LEAD_MAX_NS;
}

/* st_pi_mutexes - the pi case's two mutexes: [0] PTHREAD_PRIO_NONE, [1] PTHREAD_PRIO_INHERIT; 0 or -errno */
static int st_pi_mutexes(void)
{
	pthread_mutexattr_t a;
	int i, ret = 0;

	for (i = 0; i < 2 && !ret; i++) {
		pthread_mutexattr_init(&a);
		ret = -pthread_mutexattr_setprotocol(&a, i ? PTHREAD_PRIO_INHERIT : PTHREAD_PRIO_NONE);
		if (!ret)
			ret = -pthread_mutex_init(&st.pi_mutex[i], &a);
		pthread_mutexattr_destroy(&a);
	}
	return ret;
}

/*
 * st_rt_limits - the kernel's own backstop: RLIMIT_RTTIME makes a realtime
 * thread that runs ST_RTTIME_US without blocking raise SIGXCPU (the main
 * thread takes it and ends the run), twice that kills the program; 0 or -errno
 */
static int st_rt_limits(void)
{
	struct rlimit rl = { .rlim_cur = ST_RTTIME_US, .rlim_max = 2 * ST_RTTIME_US };

	return setrlimit(RLIMIT_RTTIME, &rl) ? -errno : 0;
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
 * r + D; ST_TIMER: the same on the tick's CPU; each wakes the calibrated
 * lateness of a realtime sleep earlier than its nominal lead) or inside the
 * job (ST_PREEMPT: the job kicks it, it spins P). Returns the slot after the
 * phase's gap.
 */
static int64_t st_plan_hogs(struct st_list *l, int c, const char *task, int64_t k, int64_t n,
			    const int64_t *size_us, size_t nsize)
{
	int64_t i, r, d, lead = (c == ST_TIMER ? ST_TIMER_LEAD_NS : ST_BLOCK_LEAD_NS) + st.wake_late_ns;
	int idx;

	for (i = 0; i < n; i++, k += 2) {
		r = st.app.t0_ns + k * ST_SLOT_NS;
		d = size_us[i % (int64_t)nsize] * PF_NS_PER_US;
		if (c == ST_PREEMPT)
			idx = st_add(c, task, k, 0, 0, d);	/* its job kicks it (st_victim_job) */
		else
			idx = st_add(c, task, k, r - lead, r + d, d);
		if (idx >= 0 && c != ST_TIMER)
			st.by_slot[k] = (int16_t)idx;	/* st_victim's body reports to it */
		if (idx >= 0 && c == ST_BLOCK)
			st.inj[idx].victim = app_find_task(&st.app, task);
		st_push(l, idx);
		/* the clean job after a preempted one: a row of param 0, the baseline its body fills in */
		if (c == ST_PREEMPT && (idx = st_add(c, task, k + 1, 0, 0, 0)) >= 0)
			st.by_slot[k + 1] = (int16_t)idx;
	}
	return k + ST_PHASE_GAP;
}

/*
 * st_plan - lay the cases out in slots after t0: each injection every
 * 'every' slots, ST_PHASE_GAP clean slots between cases; returns the first
 * slot after the last case. A quick run has ST_QUICK_N injections per case
 * (a p99 of 100 valid ones or more is not the maximum), a full one ST_FULL_N
 * (ST_FULL_BLOCK_N blocking); the pi case has that many of each protocol.
 */
static int64_t st_plan(void)
{
	static const int64_t block_us[] = { 20, 50, 100, 500, 2000 };
	static const int64_t hog_us[] = { 20, 50, 100, 200 };
	static const int64_t timer_us[] = { 100, 150, 200, 300 };
	int64_t k = ST_WARM_SLOTS, n = st.quick ? ST_QUICK_N : ST_FULL_N, i;
	int64_t nblock = st.quick ? ST_QUICK_N : ST_FULL_BLOCK_N;
	int idx;

	memset(st.by_slot, 0xff, sizeof(st.by_slot));
	for (i = 0; i <= ST_NCASES; i++)
		st.first_slot[i] = st.last_slot[i] = -1;
	if (st.storm)
		return k + (st.cpu_tick == st.cpu_victim ? ST_STORM_1CPU_NS : ST_STORM_NS) / ST_SLOT_NS;
	k = st_plan_hogs(&st.hog_victim, ST_BLOCK, ST_TASK_VICTIM, k, nblock, block_us, PF_ARRAY_SIZE(block_us));
	k = st_plan_hogs(&st.hog_victim, ST_PREEMPT, ST_TASK_VICTIM, k, n, hog_us, PF_ARRAY_SIZE(hog_us));
	/* the tick's hogs 100 us or more: its injected jobs among the 1000 worst (culprit lines) above the tick's noise */
	k = st_plan_hogs(&st.hog_tick, ST_TIMER, ST_TASK_TICK, k, n, timer_us, PF_ARRAY_SIZE(timer_us));
	/* overruns: 1.2 slots of extra CPU work (about 1.5 slots of wall time), then clean slots to catch up */
	for (i = 0; i < n; i++, k += 4) {
		idx = st_add(ST_OVERRUN, ST_TASK_OVR, k, 0, 0, ST_SLOT_NS * 6 / 5);
		if (idx >= 0)
			st.by_slot[k] = (int16_t)idx;
	}
	k += ST_PHASE_GAP;
	/* migrations: every other job moves to the other CPU and back (with one CPU, none) */
	st.skip[ST_MIGRATE] = st.cpu_tick == st.cpu_victim ? "one CPU: a job has no other CPU to move to" : NULL;
	for (i = 0; i < n && !st.skip[ST_MIGRATE]; i++, k += 2) {
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
	k += ST_PHASE_GAP;
	/* pi: the holder takes the mutex before the release, the victim's job blocks on it; inherit and none in turn */
	for (i = 0; i < 2 * n; i++, k += 2) {
		idx = st_add(ST_PI, ST_TASK_PI, k, st.app.t0_ns + k * ST_SLOT_NS - ST_PI_LEAD_NS - st.wake_late_ns, 0,
			     i % 2 == 0);
		if (idx < 0)
			continue;
		st.by_slot[k] = (int16_t)idx;
		st_push(&st.holder, idx);
		st_push(&st.mid, idx);
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
		 "work = 50us\ncpus = %d\n"
		 "[task " ST_TASK_PI "]\nkind = event\npriority = %d\nevent_period = 0ns\ndeadline = %lldns\n"
		 "work = 0us\ncpus = %d\n",
		 (long long)ST_SLOT_NS, (long long)ST_SLOT_NS, st.cpu_tick, (long long)ST_SLOT_NS, st.cpu_victim,
		 (long long)ST_SLOT_NS, st.cpu_victim, (long long)ST_SLOT_NS, st.cpu_victim,
		 (long long)ST_SLOT_NS, st.cpu_victim, ST_PI_VICTIM_PRIO, (long long)ST_SLOT_NS, st.cpu_victim);
	if (st.storm)	/* off the storm's CPU */
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "[task logger]\ncpus = %d\n", st.cpu_tick);
	if (app_config_load_string(cfg, "selftest", text, err, sizeof(err)) ||
	    app_config_check(cfg, err, sizeof(err)))
		return pf_fail(PF_EXIT_INTERNAL, "the selftest's task table: %s", err);
	snprintf(cfg->profile, sizeof(cfg->profile), "selftest");
	return 0;
}

/* st_write_log - the injector log (st_log.h) through lib/outfile.h; 0 or an exit code after one line */
static int st_write_log(const char *path)
{
	struct st_inj *e;
	FILE *f;
	int i, ret = pf_outfile_open(path, &f);

	if (ret)
		return ret;
	fprintf(f, "%s\n# slot_ns=%lld\n# t0_ns=%lld\n# cpu_victim=%d\n# cpu_tick=%d\n# ncpus=%d\n# gap_ns=%lld\n"
		"# step_p999_ns=%lld\n# wake_late_ns=%lld\n# quick=%d\n# storm=%d\n", ST_LOG_HEADER, (long long)ST_SLOT_NS,
		(long long)st.app.t0_ns, st.cpu_victim, st.cpu_tick, st.ncpus, (long long)st.gap_ns,
		(long long)st.step_p999_ns, (long long)st.wake_late_ns, st.quick, st.storm);
	for (i = 1; i <= ST_NCASES; i++) {
		if (st.first_slot[i] >= 0)
			fprintf(f, "# first_slot.%s=%lld\n# last_slot.%s=%lld\n", st_case_name(i),
				(long long)st.first_slot[i], st_case_name(i), (long long)st.last_slot[i]);
		if (st.skip[i])
			fprintf(f, "# skip.%s=%s\n", st_case_name(i), st.skip[i]);
	}
	fprintf(f, "%s\n", ST_LOG_COLUMNS);
	for (i = 0; i < st.ninj; i++) {
		e = &st.inj[i];
		if (!e->done)
			continue;
		if (e->c == ST_OVERRUN || e->c == ST_MIGRATE)
			e->pid = atomic_load(&app_find_task(&st.app, e->task)->tid);
		fprintf(f, "%s,%s,%lld,%lld,%lld,%lld,%lld,%lld,%d,%lld,%lld,%lld,%lld,%lld,%lld,%d\n", st_case_name(e->c),
			e->task, (long long)e->slot, (long long)e->release_ns, (long long)e->t0_ns, (long long)e->t1_ns,
			(long long)e->t2_ns, (long long)e->gaps_ns, e->pid, (long long)e->param, (long long)e->t3_ns,
			(long long)e->cpu_ns, (long long)e->t4_ns, (long long)e->t5_ns, (long long)e->t6_ns, e->pid2);
	}
	return pf_outfile_commit(f);
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
	"  -Q, --quick                120 injections per case (default: 200, 500 for blocking)\n"
	"  -c, --cpu N                the victims' CPU (default: the last CPU of its affinity);\n"
	"                             the tick and the tick's hog run on another one of its\n"
	"                             affinity (with one CPU, on the same)\n"
	"      --storm                no injections: 0.25 s (one CPU: 1 s) of the app under a\n"
	"                             storm of scheduler events (the lost-events case; default: off)\n"
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
	cpu_set_t set;
	int c, i;

	if (sched_getaffinity(0, sizeof(set), &set))
		return pf_fail(PF_EXIT_ENV, "sched_getaffinity: %s", strerror(errno));
	st.ncpus = CPU_COUNT(&set);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			st.cpu_victim = i;	/* the last one */
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
	/* the tick's CPU: the first other CPU of the affinity; with one CPU, the victims' */
	st.cpu_tick = st.cpu_victim;
	for (i = CPU_SETSIZE - 1; i >= 0; i--)
		if (CPU_ISSET(i, &set) && i != st.cpu_victim)
			st.cpu_tick = i;
	return -1;
}

/* st_threads - the injector's threads, before the app's (a priority refused stops everything); 0 or an exit code */
static int st_threads(pthread_t *th, int *nth)
{
	enum { BOTH, RUN, STORM };
	struct { void *(*fn)(void *); void *arg; int prio, cpu; const char *name; int when; } t[] = {
		{ st_watchdog_main, NULL, ST_WATCHDOG_PRIO, st.cpu_tick, "st_watchdog", BOTH },
		{ st_canary_main, &st.canary_ns[0], ST_CANARY_PRIO, st.cpu_victim, "st_canary_v", BOTH },
		{ st_canary_main, &st.canary_ns[1], ST_CANARY_PRIO, st.cpu_tick, "st_canary_t", BOTH },
		{ st_hog_main, &st.hog_victim, ST_HOG_V_PRIO, st.cpu_victim, "st_hog_v", RUN },
		{ st_hog_main, &st.hog_tick, ST_INJ_PRIO, st.cpu_tick, "st_hog_t", RUN },
		{ st_writer_main, &st.writer, ST_INJ_PRIO, st.cpu_tick, "st_gps_w", RUN },
		{ st_reader_main, &st.reader, ST_READER_PRIO, st.cpu_victim, "st_gps_r", RUN },
		{ st_holder_main, &st.holder, ST_PI_HOLDER_PRIO, st.cpu_victim, "st_pi_holder", RUN },
		{ st_mid_main, &st.mid, ST_PI_MID_PRIO, st.cpu_victim, "st_pi_mid", RUN },
		{ st_pi_rel_main, &st.holder, ST_INJ_PRIO, st.cpu_tick, "st_pi_rel", RUN },
		{ st_storm_main, NULL, 1, st.cpu_victim, "st_storm", STORM },
	};
	size_t i;
	int ret;

	for (i = 0; i < PF_ARRAY_SIZE(t); i++) {
		if (t[i].when != BOTH && (t[i].when == STORM) != st.storm)
			continue;
		if (t[i].fn == st_canary_main && t[i].arg == &st.canary_ns[1] && st.cpu_tick == st.cpu_victim)
			continue;	/* one CPU, one canary */
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
	pthread_t th[16];
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
	if (pipe2(st.pipe_fd, O_CLOEXEC) || sem_init(&st.go, 0, 0) || sem_init(&st.kick_hog, 0, 0) ||
	    sem_init(&st.kick_mid, 0, 0) || sem_init(&st.kick_rel, 0, 0)) {
		code = pf_fail(PF_EXIT_INTERNAL, "pipe: %s", strerror(errno));
		goto out_cfg;
	}
	if ((ret = st_pi_mutexes())) {
		code = pf_fail(PF_EXIT_ENV, "a priority-inheritance mutex: %s", strerror(-ret));
		goto out_cfg;
	}
	if ((ret = st_rt_limits())) {
		code = pf_fail(PF_EXIT_ENV, "RLIMIT_RTTIME: %s", strerror(-ret));
		goto out_cfg;
	}
	st.gap_ns = st_calibrate_gap();
	st.wake_late_ns = st_calibrate_wake();
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
	sigaddset(&sigs, SIGXCPU);	/* RLIMIT_RTTIME's first word, to the main thread */
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	if ((code = st_threads(th, &nth)))
		goto out_threads;
	/* the run's length is the plan's, and the plan needs t0: plan with a provisional t0, then again */
	st.app.duration_ns = st_plan() * ST_SLOT_NS;
	ret = app_start(&st.app, err, sizeof(err));
	if (ret) {
		code = pf_fail(ret == -EPERM || ret == -EINVAL ? PF_EXIT_ENV : PF_EXIT_INTERNAL, "%s", err);
		goto out_threads;
	}
	st.ninj = st.hog_victim.n = st.hog_tick.n = st.writer.n = st.reader.n = st.holder.n = st.mid.n = 0;
	st_plan();
	st.storm_end_ns = st.app.t0_ns + st.app.duration_ns;
	st.end_by_ns = st.storm_end_ns + ST_OVERSTAY_NS;
	app_declare_tasks(&st.app);
	if (app_joblog_header(&st.app))
		code = PF_EXIT_ENV;
	for (i = 0; i < nth; i++)
		sem_post(&st.go);
	app_go(&st.app);
	while (!atomic_load(&st.app.tick_done) && !st_stopping()) {
		ts = pf_ns_to_ts(100 * PF_NS_PER_MS);
		ret = sigtimedwait(&sigs, NULL, &ts);
		if (ret == SIGXCPU)
			st_watchdog_end("a realtime thread ran 0.5 s without blocking (RLIMIT_RTTIME)");
		if (ret == SIGINT || ret == SIGTERM) {
			app_request_stop(&st.app);
			break;
		}
	}
	app_join(&st.app);
	if (atomic_load(&st.watchdog_why))
		code = pf_fail(PF_EXIT_ENV, "watchdog: %s: the run was ended, its threads put back to SCHED_OTHER",
			       atomic_load(&st.watchdog_why));
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
	if (!code)
		code = st_write_log(log);
out_app:
	app_fini(&st.app);
	app_rt_dma_latency_release(dma_fd);
out_cfg:
	free(cfg);
	return code;
}
