/*
 * analyze.h - the state 'preflight analyze' builds while it streams a trace
 * and a job log: threads, CPUs, the app's tasks, slots and lost-event
 * windows. analyze.c drives the passes and writes the results; sched.c turns
 * scheduler, IRQ and timer events into thread / CPU metrics; tasks.c turns the
 * app's markers and job-log rows into per-task metrics and culprits;
 * joblog.c reads the job log; results.c writes results.json, CSV and the text
 * summary. Definitions follow docs/ARCHITECTURE.md; the output is docs/results.md.
 *
 * Everything here is per run, not per event: memory depends on the number of
 * threads, CPUs and tasks, never on the length of the trace.
 */
#ifndef AN_ANALYZE_H
#define AN_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "common.h"
#include "hist.h"

#define AN_MAX_TASKS      256	/* marker task ids are a u8 */
#define AN_CPU_HISTORY    2048	/* segments of CPU history kept per CPU for culprits */
#define AN_MAX_CONTRIB    8	/* contributors kept per culprit */
#define AN_MAX_LOST_WIN   1000	/* lost-event windows listed in results.json */
#define AN_JOB_RING       64	/* recent jobs per task, re-checked when a loss is found */
#define AN_NPRIOS         8

#define AN_LAT_BIN_NS     1000	/* bin width of every ns distribution */
#define AN_LAT_NBINS      10000	/* latencies: 0..10 ms binned */
#define AN_DUR_NBINS      100000	/* durations: 0..100 ms binned */
#define AN_CNT_NBINS      64	/* per-job counts: 0..63 binned */
#define AN_FEW_SAMPLES    256	/* a thread's latencies kept exactly before binning */

#define AN_WIN_RING 32	/* windows still open to late intervals */

/* an_win - consecutive windows of one width; keeps the busiest one */
struct an_win {
	int64_t width_ns;
	int64_t origin_ns;	/* start of window 0 */
	int64_t idx;		/* newest window, -1 before the first sample */
	int64_t acc_ns[AN_WIN_RING];	/* busy time of windows idx-AN_WIN_RING+1 .. idx */
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

struct an_thread {
	int      pid;
	char     comm[16];
	int      prio, nprios;
	int      prios[AN_NPRIOS];
	int      cpu;			/* CPU it last ran on, -1 unknown */
	bool     running;		/* on a CPU now */
	bool     runnable;		/* woken or preempted, not yet switched in */
	bool     selected;		/* matches --threads */
	bool     sw_seen;		/* seen in sched_switch */
	int64_t  switch_in_ns;		/* of the current run */
	int64_t  first_ns, last_ns;	/* life in the trace */
	int64_t  waking_ns, wakeup_ns;	/* pending wakeup, 0 when none */
	int64_t  wake_timer_ns;		/* hrtimer expiry that woke it, 0 when none */
	/* the last completed wakeup, for the app's latency decomposition */
	int64_t  last_waking_ns, last_timer_ns, last_switch_in_ns;
	bool     last_inferred;		/* that switch-in was inferred, not seen */
	int64_t  runtime_ns;
	uint64_t switches, preemptions, migrations, wakeups;
	int64_t  block_ns;		/* last switch-out while not runnable */
	uint64_t block_preempt, block_migr;	/* counters then */
	struct an_win w10ms, w1s;
	struct pf_hist *wake_lat, *wakeup_lat;	/* allocated on first sample */
	struct pf_hist *wake_lat_inf;		/* upper bounds, to inferred switch-ins */
	struct an_task *task;		/* the app task running on this thread */
	bool     app_rt;		/* counted in app utilisation */
};

struct an_cpu {
	bool     known;			/* a sched_switch was seen */
	int      curr;			/* pid on CPU */
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
	int64_t  lost;			/* events lost: the larger of lost_stats and the records' missed_events */
	int64_t  lost_stats;		/* the file's statistics for this CPU (overrun, dropped) */
	struct an_seg *hist;		/* ring of AN_CPU_HISTORY segments */
	uint32_t hist_head, hist_n;
};

struct an_contrib {
	int      kind;			/* enum an_contrib_kind */
	int32_t  id;
	char     name[40];
	int64_t  dur_ns;
};

enum an_contrib_kind { AN_C_THREAD, AN_C_IRQ, AN_C_SOFTIRQ, AN_C_IDLE, AN_C_SELF, AN_C_APP };

/* an_culprit - what stood between release and start of one activation */
struct an_culprit {
	uint32_t seq;
	int      cpu;
	int64_t  release_ns, start_ns, latency_ns;
	int64_t  waking_ns, timer_ns, switch_in_ns;	/* 0 when not seen */
	bool     complete;
	int      ncontrib;
	struct an_contrib contrib[AN_MAX_CONTRIB];
};

/* an_job - a job of the trace between its start and end markers */
struct an_job {
	uint32_t seq;
	int64_t  release_ns, start_ns, end_ns;
	int64_t  run_at_start_ns;		/* thread runtime at the start marker */
	uint64_t preempt0, migr0;		/* thread counters before the job */
	bool     lost;
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
	int64_t  prev_start_ns, prev_release_ns, prev_end_ns;
	struct an_stat lat, resp, exec, cpu, pjit, npre, nmig;
	struct an_stat d_timer, d_rel2wake, d_wake2run, d_app, d_wake2start;
	struct an_job ring[AN_JOB_RING];	/* recent jobs, for late lost windows */
	uint32_t ring_n;
	/* job log */
	uint64_t jl_jobs, jl_overruns, jl_misses, jl_missed, jl_dropped;
	int64_t  jl_prev_release_ns;		/* job log alone: the period from release gaps */
	int64_t  jl_first_release_ns, jl_first_end_ns;	/* ... and the first job's slot, once it is known */
	struct an_stat jl_lat, jl_resp, jl_cpu;
	struct an_stat diff;		/* |trace - joblog| activation latency */
	uint64_t matched, trace_only, joblog_only;
	/* pending job-log rows of this task, in seq order */
	struct an_jlrow *q;
	size_t   q_head, q_n, q_cap;
	/* worst activations */
	struct an_culprit *top;
	int      ntop;
};

/* an_jlrow - one job-log row */
struct an_jlrow {
	char     task[32];
	uint32_t seq;
	int64_t  release_ns, start_ns, end_ns, cpu_ns;
	int      cpu;
	unsigned flags;
	uint64_t missed;
};

#define AN_JL_OVERRUN  0x1
#define AN_JL_DEADLINE 0x2
#define AN_JL_NORT     0x4

struct an_joblog;

struct an_opts {
	const char *trace, *joblog, *cyclictest, *threads, *out, *csv;
	int64_t slot_ns;
	bool    slot_given;
	int     top;
	bool    quiet;
};

/* an_run - everything of one analysis */
struct an_run {
	struct an_opts opt;
	/* trace facts */
	unsigned long file_version;
	char     clock[32];
	int      ncpus;
	uint64_t events;
	int64_t  start_ns, end_ns;
	uint64_t n_inferred;		/* switch-ins inferred from a thread's events */
	uint64_t n_switch, n_waking, n_wakeup, n_migrate, n_irq, n_softirq, n_hrtimer, n_markers;
	/* threads: open hash pid -> index */
	struct an_thread *thr;
	size_t   nthr, thr_cap;
	int32_t *thr_hash;
	size_t   hash_cap;
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
	int64_t  overrun_slots[100];
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
	struct an_joblog *jl;
	int64_t  jl_first_release_ns, jl_last_end_ns, jl_cpu_ns;
	int64_t  jl_start_ns, jl_end_ns;	/* the app's run, from the job log's metadata */
	struct an_win jl_w1s, jl_wslot;		/* the app's windows from the job log's CPU times */
	int64_t  jl_slot_ns;
	/* interned names (IRQ names) */
	char   **names;
	size_t   nnames;
	/* CSV */
	FILE    *jobs_csv;
	struct csv_writer *jobs_w;
	json_t  *cyclictest;
};

/* sched.c */
struct an_thread *an_thread_get(struct an_run *r, int pid);
struct an_thread *an_thread_find(struct an_run *r, int pid);
int  an_sched_init(struct an_run *r, int ncpus);
void an_sched_free(struct an_run *r);
void an_sched_finish(struct an_run *r);
int64_t an_thread_runtime_now(const struct an_thread *t, int64_t now_ns);
uint16_t an_name(struct an_run *r, const char *s, int len);
void an_win_init(struct an_win *w, int64_t width_ns, int64_t origin_ns);
void an_win_add(struct an_win *w, int64_t start_ns, int64_t end_ns);
double an_win_max(const struct an_win *w, int64_t duration_ns);
const char *an_softirq_name(int vec);
void an_lost_add(struct an_run *r, int cpu, int64_t start_ns, int64_t end_ns, int64_t events);
bool an_lost_overlaps(const struct an_run *r, int64_t start_ns, int64_t end_ns);

/* the event callbacks of sched.c, called by the reader with decoded fields */
void an_on_switch(struct an_run *r, int cpu, int64_t ts, int prev_pid, const char *prev_comm,
		  int prev_prio, long prev_state, int next_pid, const char *next_comm, int next_prio);
void an_on_waking(struct an_run *r, int cpu, int64_t ts, int pid, const char *comm, int prio, bool waking);
void an_on_migrate(struct an_run *r, int64_t ts, int pid, int dest_cpu);
void an_on_running(struct an_run *r, int cpu, int64_t ts, int pid);
void an_on_irq(struct an_run *r, int cpu, int64_t ts, bool entry, int irq, const char *name, int len);
void an_on_softirq(struct an_run *r, int cpu, int64_t ts, bool entry, int vec);
void an_on_hrtimer(struct an_run *r, int cpu, int64_t ts, bool entry);

/* tasks.c */
int  an_stat_init(struct an_stat *s, int64_t width, uint32_t nbins, const char *unit);
void an_stat_free(struct an_stat *s);
int  an_stat_add(struct an_stat *s, int64_t v, int64_t at, int64_t id);
json_t *an_stat_json(struct an_stat *s);
struct an_task *an_task_by_name(struct an_run *r, const char *name, bool create);
struct an_task *an_task_declare(struct an_run *r, const char *name, int id, const char *kv, bool from_trace);
void an_app_resolve(struct an_run *r);
long long an_kv_ll(const char *line, const char *key, long long dflt);
int  an_on_marker_text(struct an_run *r, int cpu, int64_t ts, int pid, const char *s, int len);
int  an_on_marker_start(struct an_run *r, int cpu, int64_t ts, int pid, int task_id, uint32_t seq, int64_t release_ns);
int  an_on_marker_end(struct an_run *r, int cpu, int64_t ts, int pid, int task_id, uint32_t seq,
		      int64_t release_ns, unsigned flags);
void an_tasks_lost_window(struct an_run *r, int64_t start_ns, int64_t end_ns);
int  an_tasks_finish(struct an_run *r);
void an_tasks_free(struct an_run *r);
int  an_jlrow_consume(struct an_run *r, struct an_task *t, const struct an_jlrow *row, const struct an_job *job);
void an_culprit_line(const struct an_run *r, const struct an_task *t, const struct an_culprit *c,
		     char *buf, size_t size);

/* joblog.c */
int  an_joblog_open(struct an_run *r, const char *path);
int  an_joblog_next(struct an_run *r, struct an_jlrow **row);	/* 1 row, 0 EOF, or -exit code */
int  an_joblog_match(struct an_run *r, struct an_task *t, const struct an_job *job);
int  an_joblog_drain(struct an_run *r);
void an_joblog_close(struct an_run *r);

/* trace.c */
int  an_trace_read(struct an_run *r, const char *path);

/* results.c */
json_t *an_results_json(struct an_run *r);
int  an_write_csv(struct an_run *r, json_t *res, const char *dir);
void an_print_summary(struct an_run *r, json_t *res, FILE *out);
int  an_jobs_csv_open(struct an_run *r, const char *dir);
void an_jobs_csv_row(struct an_run *r, const struct an_task *t, const struct an_job *j, int cpu,
		     int64_t slot, uint64_t npre, uint64_t nmig, int64_t exec_ns, bool overrun, bool miss);
void an_jobs_csv_close(struct an_run *r);

#endif
