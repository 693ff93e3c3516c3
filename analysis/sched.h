/*
 * sched.h - what sched.c offers: threads and CPUs from scheduler, IRQ and
 * timer events, busy-time windows, lost-event windows. It calls no other
 * file of analysis/ (docs/ARCHITECTURE.md).
 */
#ifndef AN_SCHED_H
#define AN_SCHED_H

#include "types.h"

struct an_thread *an_thread_get(struct an_run *r, int pid);
struct an_thread *an_thread_find(struct an_run *r, int pid);
/* an_thread_comm - the comm of pid's last thread, gone or not; NULL when the pid was never seen */
const char *an_thread_comm(struct an_run *r, int pid);
/* an_thread_settled - a dead thread out of every CPU's history: no culprit nor timeline can name it any more */
bool an_thread_settled(const struct an_run *r, const struct an_thread *t);
/*
 * an_thread_drop - a dead thread no output can list leaves the table (its
 * entry is reused): counted in gone_active and gone_unresolved, its comm
 * kept by pid; 0 or -ENOMEM (it stays)
 */
int  an_thread_drop(struct an_run *r, struct an_thread *t);
/*
 * an_tomb_keep, an_tombs_prune - the comms of gone pids are kept for the
 * timelines that show them: those an_tomb_keep marked stay, the others go
 * (and their pids from the hash); 0 or -ENOMEM (all stay)
 */
void an_tomb_keep(struct an_run *r, int pid);
int  an_tombs_prune(struct an_run *r);
int  an_sched_init(struct an_run *r, int ncpus);
void an_sched_free(struct an_run *r);
void an_sched_finish(struct an_run *r);
int64_t an_thread_runtime_now(const struct an_thread *t, int64_t now_ns);
/* an_thread_exec_now - runtime up to now_ns less the interrupts it saw (now_ns in its own context) */
int64_t an_thread_exec_now(const struct an_thread *t, int64_t now_ns);
/*
 * an_irq_label - "irq 11 (arch_timer)", or for an x86 system vector (irq < 0)
 * "local_timer interrupt (vector 236)"; a name too long for buf ends in "…"
 * (AN_LABEL_LEN holds every x86 vector's whole)
 */
void an_irq_label(char *buf, size_t size, int irq, const char *name);
uint16_t an_name(struct an_run *r, const char *s, int len);
void an_win_init(struct an_win *w, int64_t width_ns, int64_t origin_ns);
void an_win_add(struct an_win *w, int64_t start_ns, int64_t end_ns);
double an_win_max(const struct an_win *w, int64_t duration_ns);
void an_win_free(struct an_win *w);
/* an_stage_flush - a thread's staged wakeup-latency samples into its histograms (before they are read) */
void an_stage_flush(struct an_run *r, struct an_thread *t);
/*
 * an_thread_lat - the statistics of one of a thread's latency distributions
 * (enum an_lat): from its histogram, or once the thread died from what was
 * kept of it; false when the thread has none
 */
bool an_thread_lat(const struct an_thread *t, enum an_lat k, struct pf_stats *s);
/* an_thread_lat_max - the largest sample of one of a thread's latency distributions, -1 when none */
int64_t an_thread_lat_max(const struct an_thread *t, enum an_lat k);
void an_mwin_init(struct an_mwin *w, int64_t width_ns, int64_t origin_ns);
void an_mwin_add_slow(struct an_mwin *w, int64_t start_ns, int64_t end_ns);

/*
 * an_mwin_add - add busy time [start_ns, end_ns) that starts no earlier than
 * the open window; inline for the usual case, inside the open window (no
 * division), else an_mwin_add_slow
 */
static inline void an_mwin_add(struct an_mwin *w, int64_t start_ns, int64_t end_ns)
{
	if (start_ns >= w->open_ns && end_ns <= w->close_ns && start_ns < end_ns)
		w->acc_ns += end_ns - start_ns;
	else
		an_mwin_add_slow(w, start_ns, end_ns);
}
double an_mwin_max(const struct an_mwin *w, int64_t duration_ns);
const char *an_softirq_name(int vec);
int  an_lost_add(struct an_run *r, int cpu, int64_t start_ns, int64_t end_ns, int64_t events);
bool an_lost_overlaps(const struct an_run *r, int64_t start_ns, int64_t end_ns);
int  an_observers_set(struct an_run *r, const int *pids, int n);
bool an_is_observer(const struct an_run *r, int pid);
int64_t an_observer_ns(const struct an_run *r, int cpu, int64_t from_ns, int64_t to_ns);

/* the event callbacks, called by the trace reader with decoded fields */
void an_on_switch(struct an_run *r, int cpu, int64_t ts, int prev_pid, const char *prev_comm,
		  int prev_prio, long prev_state, int next_pid, const char *next_comm, int next_prio);
void an_on_waking(struct an_run *r, int cpu, int64_t ts, int pid, const char *comm, int prio, bool waking);
void an_on_migrate(struct an_run *r, int64_t ts, int pid, int dest_cpu);
/* an_on_exit - sched_process_exit of pid (the thread on the CPU): it dies at its last switch-out */
void an_on_exit(struct an_run *r, int pid);
void an_on_running(struct an_run *r, int cpu, int64_t ts, int pid);
void an_on_irq(struct an_run *r, int cpu, int64_t ts, bool entry, int irq, const char *name, int len);
void an_on_softirq(struct an_run *r, int cpu, int64_t ts, bool entry, int vec);
/*
 * an_on_hrtimer - hrtimer_expire_entry (entry, with its 'now': the clock the
 * expiry pass read) or _exit; the timer's expiry is 'now' when it is a
 * CLOCK_MONOTONIC time at most 1 ms before the event (now_ns 0: the trace
 * is of another clock), else the event's time stamp; at the entry, the
 * silence the timer's interrupt ended: from the CPU's last event before the
 * hard IRQ it runs in (before the entry when the IRQ is not traced) to that
 * IRQ's entry, none for a timer expiring in a softirq (docs/results.md:
 * contributors of kind silent)
 */
void an_on_hrtimer(struct an_run *r, int cpu, int64_t ts, int64_t now_ns, bool entry);

#endif
