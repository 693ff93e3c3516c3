/*
 * types.h - the state 'preflight analyze' builds while it streams a trace
 * and a job log: threads, CPUs, the app's tasks, slots and lost-event
 * windows. Plain types only; the functions are in the header of the file
 * that offers them, and the files depend on each other one way (see
 * docs/ARCHITECTURE.md):
 *
 *   trace.c   reads the .dat file and feeds its events to sched.c and tasks.c
 *   lib/joblog_read.c  reads the job log, one row at a time (knows nothing of tasks)
 *   sched.c   scheduler, IRQ and timer events -> thread / CPU metrics
 *   tasks.c   the app's markers and job-log rows -> per-task metrics and culprits
 *   jobs_csv.c  the per-job table, written as tasks.c closes each job
 *   results.c results.json, CSV tables and the text summary
 *   cyclictest_wakeups.c  cyclictest's wakeups in a trace of it, the worst with culprits
 *   analyze.c the command: options, and the one coordinator of the passes
 *
 * Definitions follow docs/ARCHITECTURE.md; the output is docs/results.md.
 * Everything here is per run, not per event: memory depends on the number of
 * threads, CPUs and tasks, never on the length of the trace.
 */
#ifndef AN_TYPES_H
#define AN_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "common.h"
#include "hist.h"
#include "series.h"

#define AN_MAX_TASKS      256	/* marker task ids are a u8 */
#define AN_CPU_HISTORY    8192	/* segments of CPU history kept per CPU for culprits and timelines */
#define AN_MAX_CONTRIB    8	/* contributors kept per culprit */
#define AN_INTR_CHARGES   64	/* interrupt times charged per CPU kept, for a switch moved back (sched.c) */
#define AN_LABEL_LEN      64	/* a contributor's name: "call_function_single interrupt (vector 251)" whole */
#define AN_MAX_INV        16	/* a task's inversions listed in results.json */
#define AN_MAX_LOST_WIN   1000	/* lost-event windows listed in results.json */
#define AN_JOB_RING       64	/* recent jobs per task, re-checked when a loss is found */
#define AN_NPRIOS         8

#define AN_LAT_BIN_NS     1000	/* bin width of every ns distribution */
#define AN_LAT_NBINS      10000	/* latencies: 0..10 ms binned */
#define AN_DUR_NBINS      100000	/* durations: 0..100 ms binned */
#define AN_CNT_NBINS      64	/* per-job counts: 0..63 binned */

#define AN_TICK_NS        (4 * PF_NS_PER_MS)	/* default --tick: one tick at HZ=250 */

#define AN_WIN_RING0 32		/* an_win: windows open to late intervals before its ring grows */
#define AN_WIN_RING  32768	/* ... and at most (327 s of 10 ms slots, 9 h of 1 s windows: 256 KiB) */

/*
 * an_mwin - consecutive windows of one width whose intervals arrive in time
 * order (one thread's runs): only the current window is open; keeps the
 * busiest
 */
struct an_mwin {
	int64_t width_ns;
	int64_t origin_ns;	/* start of window 0 */
	int64_t idx;		/* the open window, -1 before the first sample */
	int64_t open_ns, close_ns;	/* its bounds: an interval inside them is one addition */
	int64_t acc_ns;		/* its busy time */
	int64_t max_ns;		/* busiest window closed */
};

/*
 * an_win - consecutive windows of one width whose intervals arrive out of order (runs on several
 * CPUs, the job log's rows drained task by task); keeps the busiest one. Every window stays open
 * until AN_WIN_RING of them were seen, the ring growing to hold them; past that the oldest close
 */
struct an_win {
	int64_t width_ns;
	int64_t origin_ns;	/* start of window 0 */
	int64_t idx;		/* newest window, -1 before the first sample */
	int64_t cap;		/* windows open: idx - cap + 1 .. idx (a power of two, AN_WIN_RING0 .. AN_WIN_RING) */
	int64_t ring0[AN_WIN_RING0];	/* busy time of window k at k % cap while cap is AN_WIN_RING0 */
	int64_t *big;		/* the same once the ring grew (an_win_free) */
	int64_t max_ns;		/* busiest window closed */
};

/* an_lost - one place where the ring buffer lost events */
struct an_lost {
	int     cpu;
	int64_t start_ns, end_ns;
	int64_t events;		/* -1 when unknown */
};

enum an_seg_kind { AN_SEG_THREAD, AN_SEG_IRQ, AN_SEG_SOFTIRQ };

/* an_seg - one closed piece of a CPU's history */
struct an_seg {
	int64_t  start_ns, end_ns;
	int32_t  id;		/* pid, IRQ number or softirq vector */
	int32_t  pid;		/* thread interrupted (IRQ / softirq), or the thread */
	uint16_t name;		/* an_name() index of an IRQ's name */
	uint8_t  kind;
	uint8_t  in_softirq;	/* an IRQ that interrupted a softirq (vector in 'softirq_vec') */
	int32_t  softirq_vec;
};

struct an_task;
struct pf_jlrow;

/* an_pi - a realtime thread's wait on a priority-inheritance lock (rt.c; docs/results.md: pi) */
struct an_pi {
	int32_t  holder_pid;		/* 0: none */
	int      boost_prio;		/* the holder's kernel priority while boosted */
	int64_t  boosted_ns;		/* the holder's CPU time while boosted */
	int64_t  blocked_ns;		/* the waiter's switch-out to its waking by the holder */
	int64_t  wake_ns;		/* that waking */
};

/* an_inv - a realtime thread woken by a thread of lower priority (rt.c; docs/results.md: inversions) */
struct an_inv {
	int32_t  waker_pid;		/* 0: none */
	int      waker_prio, prio;	/* kernel priorities: the waker's then, the woken thread's */
	int64_t  wake_ns;
	int64_t  blocked_ns;		/* its switch-out to that waking, -1 unknown */
	int64_t  release_ns;		/* tasks.c: the job it fell in (its release), -1 between jobs */
	uint32_t seq;
};

/*
 * an_rt_thr - a thread's PREEMPT_RT state (rt.c): the context of its last
 * waking, a lock wait's priority inheritance, a holder's boost; allocated
 * for the threads these concern only
 */
struct an_rt_thr {
	int64_t  wake_ns;		/* the last sched_waking */
	int32_t  ctx_pid;		/* the thread whose priority it ran at, 0: a hard IRQ (or a softirq above threads) */
	int      ctx_prio, prio, cpu;	/* that thread's priority, the woken thread's, the waking's CPU */
	/* when the last waking was a PI holder's unlock: the waking before it (first_wake_ns 0: not) */
	int64_t  first_wake_ns;
	int32_t  first_ctx_pid;
	int      first_ctx_prio, first_cpu;
	/* a waiter: the holder it boosted (sched_pi_setprio in its context) */
	int32_t  pi_holder;
	int      pi_prio;
	int64_t  pi_set_ns;
	/* a holder: boosted now since boost_since_ns (0: not), its runtime then; the last boost that ended */
	int64_t  boost_since_ns, boost_run0_ns;
	int      boost_prio, normal_prio;
	int64_t  boost_end_ns, boost_run_ns;
	int32_t  boost_by;
	/* since the task code last took them (tasks.c, at each job's end) */
	struct an_pi pi;		/* the longest PI wait */
	struct an_inv inv;		/* the first inversion */
	uint32_t ninv;
	uint64_t inversions;		/* in the whole trace */
};

#define AN_TOP_THREADS 10	/* threads[] by default: the 10 busiest and the 10 worst woken of the rest */
#define AN_STAGE 16	/* a thread's wakeup-latency samples held before they go into its histograms */

/* a thread's latency distributions, in the order of an_final.at[] */
enum an_lat { AN_LAT_WAKE, AN_LAT_WAKEUP, AN_LAT_INF, AN_NLAT };

/*
 * an_lat_stats - the statistics of a distribution with no tail sample (a
 * thread's latencies): struct pf_stats without the bounds, half its size
 */
struct an_lat_stats {
	uint64_t count;
	int64_t  min, max, max_at, max_id;
	double   mean, stddev;
	int64_t  pct[PF_HIST_NPCT];
	int64_t  bin_width;
};

/*
 * an_final - what is left of a dead thread's latency distributions: their
 * statistics, all that results.json prints of them (an_thread_freeze). The
 * histograms' memory went back to the pool for the threads that come after.
 */
struct an_final {
	int8_t   at[AN_NLAT];		/* by enum an_lat: its statistics in st[], -1 when not here */
	uint8_t  n;
	struct an_lat_stats st[];
};

/*
 * a thread's life: an_on_exit, then its last switch-out (an_on_switch);
 * gone: dead and dropped, as no output could list it (an_thread_drop)
 */
enum an_life { AN_LIVE, AN_EXITING, AN_DEAD, AN_GONE };

/* an_stage - one switch-in's samples, held in the thread (INT64_MIN: none) */
struct an_stage {
	int64_t  wake_ns, wakeup_ns;	/* switch-in - sched_waking, - sched_wakeup */
	int64_t  at_ns;			/* the switch-in */
};

/*
 * an_thread - one thread; the fields every event touches come first, so that
 * a thread costs few cache lines on the per-event path (thousands of threads
 * do not fit in a cache)
 */
struct an_thread {
	/* cache line 0: what every event of the thread reads */
	int      pid;
	int      cpu;			/* CPU it last ran on, -1 unknown */
	int      prio, nprios;
	bool     running;		/* on a CPU now */
	bool     runnable;		/* woken or preempted, not yet switched in */
	bool     selected;		/* listed in threads[] (an_threads_select) */
	bool     sw_seen;		/* seen in sched_switch */
	bool     app_rt;		/* counted in app utilisation */
	bool     last_inferred;		/* the last completed wakeup's switch-in was inferred, not seen */
	uint8_t  nstage;		/* samples in stage[] */
	uint8_t  life;			/* enum an_life; a dead thread's pid may come again: another entry */
	int64_t  switch_in_ns;		/* of the current run */
	int64_t  first_ns, last_ns;	/* life in the trace */
	int64_t  waking_ns, wakeup_ns;	/* pending wakeup, 0 when none */
	/* cache line 1: the rest of a wakeup (sched_waking, sched_wakeup) and of a switch-in */
	int64_t  wake_timer_ns;		/* hrtimer expiry that woke it, 0 when none */
	int32_t  waker_pid, last_waker_pid;	/* whose context the (last completed) waking ran in; 0: timer, IRQ or unknown */
	char     comm[16];
	uint64_t wakeups;
	uint64_t unresolved;		/* wakeups with no latency sample: switch-in inferred > a tick late, or never seen */
	uint64_t switches, migrations;
	uint64_t cpus_ran;		/* bit k: it ran on CPU k (bit 63: on 63 or above) */
	/* then a switch-out, and the last completed wakeup, for the app's latency decomposition */
	int64_t  runtime_ns;
	int64_t  intr_ns;		/* of runtime_ns: interrupts (hard, soft) taken on its CPU while it ran */
	int64_t  intr_in_ns;		/* intr_ns at its last switch-in */
	uint64_t preemptions;
	uint64_t inferred;		/* switch-ins inferred from its own events */
	int64_t  block_ns;		/* last switch-out while not runnable */
	uint64_t block_preempt, block_migr;	/* counters then */
	int64_t  last_waking_ns, last_timer_ns, last_switch_in_ns;
	int64_t  wake_quiet_from_ns, wake_quiet_to_ns;	/* a timer's waking: the silence its interrupt ended (0 none) */
	int64_t  last_quiet_from_ns, last_quiet_to_ns;	/* ... of the last completed wakeup */
	struct pf_hist *wake_lat, *wakeup_lat;	/* allocated on first sample */
	struct pf_hist *wake_lat_inf;		/* upper bounds, to inferred switch-ins */
	struct an_final *final;			/* dead: the three's statistics, the three NULL (an_thread_lat) */
	struct an_task *task;		/* the app task running on this thread */
	int      prios[AN_NPRIOS];
	bool     swept;			/* dead, out of every CPU's history, and judged (an_threads_sweep) */
	bool     competes;		/* ... for threads[]'s top lists only: in pool_run, pool_wake */
	bool     normal_seen;		/* seen at a priority of 100 or above (SCHED_OTHER, or a PI boost's end) */
	struct an_mwin w10ms, w1s;
	struct an_stage stage[AN_STAGE];	/* samples not yet in the histograms (an_stage_flush) */
	int      eprio;			/* effective priority now (switch, sched_pi_setprio), with eprio_known */
	bool     eprio_known;
	uint8_t  softirq_vec;		/* switched out inside a softirq (PREEMPT_RT's are preemptible): its vector + 1, 0 none */
	struct an_rt_thr *rt;		/* PREEMPT_RT state (rt.c), NULL until it concerns the thread */
};

struct an_cpu {
	bool     known;			/* a sched_switch was seen */
	int      curr;			/* pid on CPU */
	int32_t  curr_idx;		/* its index in an_run.thr, -1 unknown (saves a lookup per switch) */
	int64_t  curr_since_ns;
	int64_t  first_ns, last_ns;	/* first switch, last event */
	int64_t  busy_ns, idle_ns, hardirq_ns, softirq_ns, app_ns;
	int      irq_depth;		/* nested hard IRQs */
	int64_t  irq_start_ns;
	int32_t  irq;
	uint16_t irq_name;
	bool     in_softirq;
	int64_t  softirq_start_ns;
	int32_t  vec;
	int64_t  hrtimer_ns;		/* hrtimer_expire_entry running now, 0 none */
	int64_t  prev_ns;		/* the event before the one read now (trace.c) */
	int64_t  irq_quiet_ns;		/* the last event before the hard IRQ running now entered */
	int64_t  hrt_quiet_from_ns, hrt_quiet_to_ns;	/* the silence the timer interrupt running now ended, 0 none */
	int64_t  intr_since_ns;		/* interrupt context (hard or soft IRQ) entered, 0: the thread's own */
	struct an_charge {		/* the last interrupt times charged to threads (an_intr_charge) */
		int64_t from_ns, to_ns;
		int32_t idx;		/* the thread's index in an_run.thr */
	} charge[AN_INTR_CHARGES];
	uint32_t charge_n;		/* charges made (the ring's next slot, modulo) */
	int64_t  lost;			/* events lost: the larger of lost_stats and the records' missed_events */
	int64_t  lost_stats;		/* the file's statistics for this CPU (overrun, dropped) */
	struct an_seg *hist;		/* ring of AN_CPU_HISTORY segments */
	uint32_t hist_head, hist_n;
};

/*
 * an_root - the job an activation's lateness comes from (docs/results.md:
 * root): itself, or the root of the job of the app task that released it when
 * the wait for that release was the larger part of its latency
 */
struct an_root {
	const struct an_task *task;	/* NULL: unknown */
	uint32_t seq;
	int64_t  release_ns;
};

struct an_contrib {
	int      kind;			/* enum an_contrib_kind */
	int32_t  id;
	char     name[AN_LABEL_LEN];	/* an_irq_label's, a thread's, a softirq's */
	int64_t  dur_ns;
};

/*
 * an_woken_by - a realtime activation woken by a kernel service thread of
 * lower priority (ktimers/N, ksoftirqd/N, irq/N-name, rcuc/N): the release
 * to the waking is that thread's part, and what kept it from running
 */
struct an_woken_by {
	int32_t  pid;			/* 0: none */
	int      prio;			/* its kernel priority at the waking */
	int      cpu;			/* where it woke the task */
	int64_t  wake_ns;		/* that waking: the culprit's, or the first of two around a PI wait on its lock */
	int      ndelay;
	struct an_contrib delay[3];	/* what ran on that CPU from the release to the waking, largest first */
};

enum an_contrib_kind { AN_C_THREAD, AN_C_IRQ, AN_C_SOFTIRQ, AN_C_IDLE, AN_C_SELF, AN_C_APP, AN_C_OTHERS, AN_C_SILENT };

/* what a contributor of kind silent (AN_C_SILENT, id the CPU) stands for */
#define AN_SILENT_TEXT "timer interrupt late: interrupts off or CPU not running"

/* an_culprit - what stood between release and start of one activation */
struct an_culprit {
	uint32_t seq;
	int      cpu;
	int64_t  release_ns, start_ns, latency_ns;
	int64_t  wakeup_ns;			/* the job's wakeup latency (what REQ-LAT-001 judges): the rank */
	int64_t  waking_ns, timer_ns, switch_in_ns;	/* 0 when not seen */
	int      pid;				/* the task's thread */
	int32_t  waker_pid;			/* the thread that woke it (0: a timer, an IRQ, unknown) */
	char     releaser[32];			/* an app task that woke it (the chain), else "" */
	uint32_t releaser_seq;			/* ... its job then */
	int64_t  releaser_late_ns;		/* ... and that job's own activation latency */
	int64_t  from_ns;			/* contributors from here: the release, or the waking by a releaser */
	struct an_root root;			/* the job its lateness comes from */
	int64_t  silent_from_ns, silent_to_ns;	/* the CPU's silence the late timer interrupt ended (0: none) */
	int64_t  explained_ns;			/* the parts' sum: release to waking by a releaser, every contributor */
	bool     history;			/* the CPU history kept reached back to from_ns */
	bool     complete;			/* history, and the parts add up to latency_ns within the clock resolution */
	int      ncontrib;
	struct an_contrib contrib[AN_MAX_CONTRIB];
	/* PREEMPT_RT semantics (rt.c) */
	struct an_woken_by woken_by;
	struct an_pi pi;			/* the job's longest wait on a PI lock */
	struct an_inv inv;			/* the job's first inversion */
};

/* an_worst - one of a task's worst activations by the job log, and the snapshot that explains it */
struct an_worst {
	uint32_t seq;
	int64_t  release_ns, start_ns, latency_ns;
	int      snap;			/* index in r->snap of the snapshot that covers it, -1 none */
	struct an_culprit c;		/* from that snapshot */
	json_t  *timeline;		/* and its timeline (results.json), NULL none */
};

/* an_snap - one flight-recorder snapshot: a trace-cmd file whose window ends at its trigger */
struct an_snap {
	const char *file;
	int64_t  start_ns, end_ns;	/* its first and last event */
	uint64_t events;
	int64_t  lost;
	int      explained;		/* worst activations it explains */
	int      again;			/* worst activations it covers that an earlier one explained */
};

/* an_job - a job of the trace between its start and end markers */
struct an_job {
	uint32_t seq;
	int64_t  release_ns, start_ns, end_ns;
	struct an_root root;
	int64_t  run_at_start_ns;		/* thread runtime less interrupts at the start marker (an_thread_exec_now) */
	uint64_t preempt0, migr0;		/* thread counters before the job */
	bool     lost;
	/* once ended: its jobs.csv row, written when it leaves the ring (a late loss still flags it) */
	int64_t  slot, exec_ns;
	uint64_t npre, nmig;
	int      cpu;
	bool     overrun, miss;
};

struct an_stat {			/* a histogram with its unit */
	struct pf_hist h;
	const char *unit;
};

struct an_task {
	char     name[32];
	int      id;			/* marker task id, -1 unknown */
	int      tid;			/* 0 unknown */
	int64_t  period_ns, deadline_ns;
	int      prio;
	char     policy[8];
	bool     declared, in_trace, in_joblog;
	bool     background;		/* kind=background (the logger): no jobs to speak of */
	bool     app;			/* counted in the app's utilisation */
	/* trace */
	bool     job_open;
	struct an_job cur;
	uint64_t jobs, overruns, deadline_misses, missed, preemptions, migrations;
	uint64_t lost_jobs;
	uint64_t hidden_releases;	/* release gaps a loss window overlaps: not known missed */
	int64_t  prev_start_ns, prev_release_ns, prev_end_ns;
	struct an_stat lat, resp, exec, cpu, pjit, npre, nmig;
	struct an_stat d_timer, d_rel2wake, d_wake2run, d_app, d_wake2start;
	struct an_stat d_observer;	/* preflight's own threads on the start CPU in [r_k, s_k] */
	struct an_stat wlat;		/* wakeup latency: s_k - the waking by its releaser (chained), else s_k - r_k */
	struct an_series wser;		/* ... per job, for its tail (series.c) */
	uint64_t chained_jobs;		/* jobs woken by another app task's thread */
	uint64_t observer_jobs;		/* jobs with a non-zero d_observer sample */
	struct an_job ring[AN_JOB_RING];	/* recent jobs, for late lost windows */
	uint32_t ring_n;
	/* job log */
	uint64_t jl_jobs, jl_overruns, jl_misses, jl_missed, jl_dropped;
	int64_t  jl_prev_release_ns;		/* job log alone: the period from release gaps */
	int64_t  jl_first_release_ns, jl_first_end_ns;	/* ... and the first job's slot, once it is known */
	struct an_stat jl_lat, jl_resp, jl_cpu;
	struct an_stat diff;		/* |trace - joblog| activation latency */
	struct an_stat ediff;		/* job-log CPU time - trace execution time, signed */
	uint64_t matched, trace_only, joblog_only;
	/* pending job-log rows of this task, in seq order */
	struct pf_jlrow *q;
	size_t   q_head, q_n, q_cap;
	/* priority inversions of its thread (rt.c): how many, the first AN_MAX_INV */
	uint64_t ninv;
	struct an_inv inv[AN_MAX_INV];
	int      ninv_kept;
	/* worst activations */
	struct an_culprit *top;
	int      ntop;
	/* flight-recorder runs: the worst activations by the job log (an_worst_consider) */
	struct an_worst *worst;
	int      nworst;
};

struct pf_joblog;
struct an_tl_set;
struct an_cw;
struct an_tlat;

struct an_opts {
	const char *trace, *joblog, *cyclictest, *threads, *out, *csv;
	const char *run_info, *loads, *phase, *fsw;	/* a run's facts, folded in as they are */
	const char *run_manifest;	/* RUN_DIR/run.json: the run's facts when no --run is given */
	bool    partial;
	bool    all_threads;	/* every thread in threads[], not only the ones that matter */
	char  **snapshots;	/* flight-recorder snapshots of RUN_DIR (trace-NNN.dat), with no trace.dat */
	int     nsnapshots;
	int64_t trigger_ns;	/* the run's snapshot trigger (--run facts), 0 unknown */
	long    max_snapshots;	/* the run's snapshot budget (--run facts), 0 unknown */
	int64_t slot_ns;
	bool    slot_given;
	int64_t tick_ns;	/* an inferred switch-in later than this after its waking is no sample */
	int     top;
	bool    top_by_activation;	/* culprits ranked by activation latency (a snapshot's: the job log's worst) */
	bool    quiet;
	bool    libtracecmd;	/* the trace read through libtracecmd, not decoded here (--decoder) */
};

/* an_run - everything of one analysis */
struct an_run {
	struct an_opts opt;
	/* trace facts */
	unsigned long file_version;
	bool     rt_wakeups;	/* the recorder kept wakeups of realtime threads only (record --wakeups rt) */
	bool     rt_switches;	/* ... switches to or from realtime threads and idle only (--switches rt) */
	char     clock[32];
	int      ncpus;
	uint64_t events;
	int64_t  start_ns, end_ns;
	uint64_t n_inferred;		/* switch-ins inferred from a thread's events */
	uint64_t n_switch, n_waking, n_wakeup, n_migrate, n_irq, n_vec, n_softirq, n_hrtimer, n_markers;
	uint64_t n_hrtimer_start;	/* timer:hrtimer_start events (cyclictest_wakeups.c) */
	/* threads: open hash pid -> index; a slot holds the pid, so a probe touches no thread */
	struct an_thread *thr;
	size_t   nthr, thr_cap;
	struct pf_hist_pool *hpool;	/* the threads' latency histograms */
	size_t   last_idx;		/* the thread an_thread_find found last (a cache) */
	struct an_slot { int32_t pid, idx; } *thr_hash;	/* idx -1: empty; <= -2: gone, its comm tomb[-2 - idx] */
	size_t   hash_cap, hash_used;
	/*
	 * dead threads no output could list, dropped (an_thread_drop): marked
	 * AN_GONE until the table is compacted; what threads_listing and the
	 * summary count of them; the comm of a pid whose last thread went, for
	 * the timelines that still show it
	 */
	size_t   ngone;
	uint64_t gone_active, gone_unresolved;
	struct an_tomb { char comm[16]; int32_t to; } *tomb;	/* to: kept (>= 0) at the next an_tombs_prune */
	size_t   ntomb, tomb_cap, ntomb_pruned;
	/* the runtimes and worst wakeups of the dead threads that compete for threads[] to the end */
	int64_t  pool_run[AN_TOP_THREADS], pool_wake[AN_TOP_THREADS];
	int      npool_run, npool_wake;
	struct an_cpu *cpu;
	/* tasks */
	struct an_task *task[AN_MAX_TASKS * 2];	/* by declaration order */
	int      ntasks;
	struct an_task *task_by_id[AN_MAX_TASKS];
	/* slots */
	int64_t  slot_origin_ns;	/* first base-rate release, 0 before */
	int64_t  slot_first_ns, slot_last_ns;	/* first and last base-rate release */
	uint64_t slot_overruns;
	int64_t  last_overrun_slot;
	int64_t  overrun_slots[1000];
	int      n_overrun_slots;
	/* app utilisation */
	struct an_win app_w1s, app_wslot;
	bool     app_resolved;		/* which tasks are the app's is decided */
	bool     app_no_rt;		/* no realtime task: every non-background task counted */
	int64_t  app_runtime_ns;
	int      app_running;		/* app RT threads on a CPU now */
	/* lost events */
	struct an_lost *lost;
	size_t   nlost, lost_cap;
	int64_t  lost_total, lost_unknown, lost_stats;
	bool     lost_reconciled;	/* an_lost_reconcile done */
	/* job log */
	struct pf_joblog *jl;		/* the reader, lib/joblog_read.c */
	size_t   jl_queued;		/* rows read ahead into every task's queue */
	int64_t  jl_first_release_ns, jl_last_end_ns, jl_cpu_ns;
	int64_t  jl_start_ns, jl_end_ns;	/* the app's run, from the job log's metadata */
	struct an_win jl_w1s, jl_wslot;		/* the app's windows from the job log's CPU times */
	int64_t  jl_slot_ns;
	/* the observer: preflight's own threads (recorder, runner), listed by the recorder */
	int     *observers;		/* sorted thread ids */
	int      nobservers;
	bool     observers_known;	/* the trace lists them (a preflight recording) */
	char     jl_write_error[200];	/* the job log's '# write_error=' trailer (a full disk) */
	char     trace_incomplete[440];	/* the recorder's INCOMPLETE note (recovered, truncated) */
	/* interned names (IRQ names) */
	char   **names;
	size_t   nnames;
	/* the timelines of the worst activations (timeline.c) */
	struct an_tl_set *tl;
	/* CSV */
	FILE    *jobs_csv;
	json_t  *cyclictest;
	/* flight-recorder snapshots, analysed one by one (snapshots.c) */
	struct an_snap *snap;
	int      nsnap;
	/* cyclictest's measuring threads and worst wakeups (cyclictest_wakeups.c), NULL when none seen */
	struct an_cw *cw;
	/* the timerlat tracer's samples (timerlat.c), NULL when none seen */
	struct an_tlat *tlat;
};

#endif
