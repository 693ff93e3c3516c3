/*
 * rt.h - PREEMPT_RT semantics: kernel service threads, priority
 * inheritance, priority inversions (rt.c)
 */
#ifndef AN_RT_H
#define AN_RT_H

#include "types.h"

/* what a thread is by its name: the kernel's threads that do interrupt work on PREEMPT_RT */
enum an_thread_kind { AN_TK_NONE, AN_TK_IRQ, AN_TK_SOFTIRQ, AN_TK_RCU };

/* an_service - a kernel service thread recognised by its comm */
struct an_service {
	enum an_thread_kind kind;
	int         irq;		/* AN_TK_IRQ: its IRQ number */
	const char *action;		/* ... and the action's name (in the comm: at most 15 characters in all) */
	const char *service;		/* what it does, for people: "timers", "softirqs", "RCU callbacks" */
};

/* an_service_of - classify a comm; false for an ordinary thread (s->kind AN_TK_NONE) */
bool an_service_of(const char *comm, struct an_service *s);
/* an_thread_kind_name - "irq_thread", "softirq_thread", "rcu_thread", NULL for an ordinary thread */
const char *an_thread_kind_name(enum an_thread_kind k);
/* an_rt_label - a thread for a summary line: "irq/45-spi0 (IRQ 45)", "ktimers/1 (timers, pid 17)", "hog (pid 200)" */
void an_rt_label(char *buf, size_t size, const char *comm, int pid);
/* an_prio_text - a kernel priority for people: "RT 90" (prio 9), "nice 0" (120), "deadline" (-1) */
void an_prio_text(char *buf, size_t size, int prio);

/*
 * an_rt_on_waking - after sched.c's an_on_waking of a sched_waking: the
 * context the waking ran in ('ctx_pid' the record's thread, 'flags' its
 * common_flags), a PI wait it ends, an inversion it is
 */
void an_rt_on_waking(struct an_run *r, int cpu, int64_t ts, int pid, int prio, int ctx_pid, unsigned flags);
/* an_rt_on_pi_setprio - sched_pi_setprio in ctx_pid's context: pid's priority oldprio -> newprio */
void an_rt_on_pi_setprio(struct an_run *r, int64_t ts, int ctx_pid, int pid, int oldprio, int newprio);

/*
 * an_rt_woken_by - for a culprit being built (its waking known): when a
 * kernel service thread of lower priority than the task woke it, name it,
 * move c->from_ns to the waking and say what kept it from running;
 * 'account' puts a CPU's history in [from, to] into contributors, the
 * waker being 'self' (tasks.c's)
 */
void an_rt_woken_by(struct an_run *r, const struct an_thread *th, struct an_culprit *c,
		    int (*account)(struct an_run *r, int cpu, int self, int64_t from, int64_t to,
				   struct an_contrib *cs, int cap));
/*
 * an_rt_job_end - a job of th ended: the PI wait and inversion it had go to
 * culprit c (when c is the job's, else NULL), every inversion since the last
 * job's end to the task; the thread's accumulators start afresh
 */
void an_rt_job_end(struct an_task *t, struct an_thread *th, struct an_culprit *c, uint32_t seq,
		   int64_t release_ns, int64_t end_ns);

/* an_rt_culprit_json - a culprit's woken_by, pi and inversion into o (docs/results.md) */
void an_rt_culprit_json(struct an_run *r, const struct an_culprit *c, json_t *o);
/* an_rt_contrib_json - a thread contributor's thread_kind, irq, action, service into x */
void an_rt_contrib_json(const struct an_contrib *x, json_t *o);
/* an_rt_task_json - a task's inversion_count and inversions into o */
void an_rt_task_json(struct an_run *r, const struct an_task *t, json_t *o);
#endif
