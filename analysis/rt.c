/*
 * rt.c - what a PREEMPT_RT kernel changes in the story of a late
 * activation, and what the analysis says of it (docs/results.md):
 *
 * - interrupt work runs in threads: a threaded IRQ handler irq/N-action
 *   (its hard part only wakes it), softirqs in ksoftirqd/N, timers in
 *   ktimers/N (timerfds, every hrtimer not marked hard), RCU callbacks in
 *   rcuc/N, RCU boosting in rcub/N. They are named as what they are
 *   (an_service_of), not as anonymous threads.
 * - such a thread runs at its own priority (ktimers and rcuc at SCHED_FIFO
 *   1): when it wakes a realtime task of higher priority, the task was not
 *   yet woken while that thread waited, and what ran then delayed the
 *   thread, not the task, which it could never have preempted
 *   (an_rt_woken_by): a culprit line says so.
 * - a realtime task blocking on a priority-inheritance lock boosts the
 *   holder (sched_pi_setprio, in the waiter's context); the holder runs
 *   boosted until it releases the lock, deboosts and wakes the waiter.
 * - a priority inversion is, as the kernel's rtapp runtime-verification
 *   monitor (sleep) defines it, a realtime task woken by a thread of lower
 *   priority - not by a hard interrupt, nor by the holder of the PI lock it
 *   waited for. A non-PI lock (PTHREAD_PRIO_NONE) released by a
 *   lower-priority holder shows so: its unlock wakes the waiter.
 *
 * Fed by trace.c (after sched.c has the event), read by tasks.c (culprits,
 * a job's end) and results.c; below it only sched.c's threads.
 */
#define _GNU_SOURCE
#include "rt.h"
#include "sched.h"

#include <stdlib.h>
#include <string.h>

#define AN_FLAG_HARDIRQ 0x08	/* common_flags: TRACE_FLAG_HARDIRQ */
#define AN_FLAG_SOFTIRQ 0x10	/* TRACE_FLAG_SOFTIRQ */
#define AN_FLAG_NMI     0x40	/* TRACE_FLAG_NMI */

/* an_prefix - comm is "<prefix>/..." */
static bool an_prefix(const char *comm, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(comm, prefix, n) && comm[n] == '/';
}

bool an_service_of(const char *comm, struct an_service *s)
{
	static const struct { const char *prefix, *service; enum an_thread_kind kind; } known[] = {
		{ "ksoftirqd", "softirqs", AN_TK_SOFTIRQ },
		{ "ktimers", "timers", AN_TK_SOFTIRQ },
		{ "rcuc", "RCU callbacks", AN_TK_RCU },
		{ "rcub", "RCU boosting", AN_TK_RCU },
		{ "rcuop", "RCU callbacks, offloaded", AN_TK_RCU },
		{ "rcuog", "RCU grace-period kthread for offloaded callbacks", AN_TK_RCU },
	};
	size_t k;
	char *end;
	long irq;

	memset(s, 0, sizeof(*s));
	if (!comm)
		return false;
	if (!strncmp(comm, "irq/", 4)) {
		irq = strtol(comm + 4, &end, 10);
		if (end != comm + 4 && *end == '-' && irq >= 0) {
			s->kind = AN_TK_IRQ;
			s->irq = (int)irq;
			s->action = end + 1;
			s->service = "threaded IRQ handler";
			return true;
		}
	}
	for (k = 0; k < PF_ARRAY_SIZE(known); k++)
		if (an_prefix(comm, known[k].prefix)) {
			s->kind = known[k].kind;
			s->service = known[k].service;
			return true;
		}
	if (!strcmp(comm, "rcu_preempt") || !strcmp(comm, "rcu_sched")) {
		s->kind = AN_TK_RCU;
		s->service = "RCU grace periods";
		return true;
	}
	return false;
}

const char *an_thread_kind_name(enum an_thread_kind k)
{
	static const char *const names[] = { NULL, "irq_thread", "softirq_thread", "rcu_thread" };

	return names[k];
}

void an_rt_label(char *buf, size_t size, const char *comm, int pid)
{
	struct an_service s;

	/* ksoftirqd says what it is */
	if (!an_service_of(comm, &s) || an_prefix(comm, "ksoftirqd"))
		snprintf(buf, size, "%s (pid %d)", comm, pid);
	else if (s.kind == AN_TK_IRQ)
		snprintf(buf, size, "%s (IRQ %d)", comm, s.irq);
	else
		snprintf(buf, size, "%s (%s, pid %d)", comm, s.service, pid);
}

void an_prio_text(char *buf, size_t size, int prio)
{
	if (prio < 0)
		snprintf(buf, size, "deadline");
	else if (prio < 100)
		snprintf(buf, size, "RT %d", 99 - prio);
	else
		snprintf(buf, size, "nice %d", prio - 120);
}

/* an_rt_get - the thread's PREEMPT_RT state, allocated on first use; NULL when out of memory */
static struct an_rt_thr *an_rt_get(struct an_thread *t)
{
	if (!t->rt) {
		t->rt = calloc(1, sizeof(*t->rt));
		if (t->rt)
			t->rt->inv.blocked_ns = -1;
	}
	return t->rt;
}

/* an_rt_boosted_ns - the holder's CPU time while boosted, in the boost that began after 'since' */
static int64_t an_rt_boosted_ns(const struct an_thread *h, int64_t since, int64_t now)
{
	const struct an_rt_thr *x = h->rt;

	if (!x)
		return 0;
	if (x->boost_since_ns)
		return an_thread_runtime_now(h, now) - x->boost_run0_ns;
	return x->boost_end_ns >= since ? x->boost_run_ns : 0;
}

void an_rt_on_pi_setprio(struct an_run *r, int64_t ts, int ctx_pid, int pid, int oldprio, int newprio)
{
	struct an_thread *h = an_thread_get(r, pid), *w;
	struct an_rt_thr *x;

	if (!h || !(x = an_rt_get(h)))
		return;
	h->eprio = newprio;
	h->eprio_known = true;
	if (newprio < oldprio) {	/* boosted (a lower number is a higher priority) */
		if (!x->boost_since_ns) {
			x->boost_since_ns = ts;
			x->boost_run0_ns = an_thread_runtime_now(h, ts);
			x->normal_prio = oldprio;
			x->boost_prio = newprio;
			x->boost_by = ctx_pid;
		} else if (newprio < x->boost_prio) {
			x->boost_prio = newprio;
		}
		w = ctx_pid > 0 && ctx_pid != pid ? an_thread_get(r, ctx_pid) : NULL;
		if (w && an_rt_get(w) && !w->rt->pi_holder) {
			/* the waiter, in whose context the chain is walked: the first holder is the one it waits for */
			w->rt->pi_holder = pid;
			w->rt->pi_prio = newprio;
			w->rt->pi_set_ns = ts;
		}
	} else if (x->boost_since_ns && newprio >= x->normal_prio) {
		x->boost_end_ns = ts;
		x->boost_run_ns = an_thread_runtime_now(h, ts) - x->boost_run0_ns;
		x->boost_since_ns = 0;
	}
}

/* an_rt_allowed - a thread the rtapp monitor lets lower priorities wake: the stopper, RCU's */
static bool an_rt_allowed(const char *comm)
{
	struct an_service s;

	return an_prefix(comm, "migration") || (an_service_of(comm, &s) && s.kind == AN_TK_RCU);
}

/* an_rt_ctx - the thread whose priority a waking ran at, 0 when above every thread */
static int an_rt_ctx(struct an_run *r, int ctx_pid, unsigned flags)
{
	struct an_service s;

	if (ctx_pid <= 0 || (flags & (AN_FLAG_HARDIRQ | AN_FLAG_NMI)))
		return 0;
	/*
	 * a softirq runs in a thread (ksoftirqd, ktimers, an IRQ thread) on
	 * PREEMPT_RT, at that thread's priority; elsewhere, on the way out of
	 * an interrupt, above every thread
	 */
	if ((flags & AN_FLAG_SOFTIRQ) && !an_service_of(an_thread_comm(r, ctx_pid), &s))
		return 0;
	return ctx_pid;
}

void an_rt_on_waking(struct an_run *r, int cpu, int64_t ts, int pid, int prio, int ctx_pid, unsigned flags)
{
	struct an_thread *t = an_thread_find(r, pid), *w;
	struct an_rt_thr *x, prev;
	int ctx = an_rt_ctx(r, ctx_pid, flags);
	bool pi = false;

	if (!t || t->waking_ns != ts)
		return;		/* not a waking the thread's metrics took */
	w = ctx ? an_thread_find(r, ctx) : NULL;
	/* only what concerns realtime threads, and the locks' waiters, is kept */
	if (prio >= 100 && !t->rt)
		return;
	x = an_rt_get(t);
	if (!x)
		return;
	prev = (struct an_rt_thr){ .first_wake_ns = x->wake_ns, .first_ctx_pid = x->ctx_pid,
				   .first_ctx_prio = x->ctx_prio, .first_cpu = x->cpu };
	x->first_wake_ns = 0;
	x->wake_ns = ts;
	x->ctx_pid = w && w->eprio_known ? ctx : 0;
	x->ctx_prio = w ? w->eprio : 0;
	x->prio = prio;
	x->cpu = cpu;
	if (x->pi_holder) {
		/* the holder's unlock wakes the waiter it boosted, in its own context */
		if (ctx == x->pi_holder && t->block_ns >= x->pi_set_ns) {
			struct an_thread *h = an_thread_find(r, x->pi_holder);
			int64_t blocked = ts - t->block_ns;

			pi = true;
			if (!x->pi.holder_pid || blocked > x->pi.blocked_ns)
				x->pi = (struct an_pi){ .holder_pid = x->pi_holder, .boost_prio = x->pi_prio,
							.boosted_ns = h ? an_rt_boosted_ns(h, x->pi_set_ns, ts) : 0,
							.blocked_ns = blocked, .wake_ns = ts };
			if (h && h->rt && h->rt->boost_prio < x->pi.boost_prio && h->rt->boost_end_ns >= x->pi_set_ns)
				x->pi.boost_prio = h->rt->boost_prio;
			x->first_wake_ns = prev.first_wake_ns;
			x->first_ctx_pid = prev.first_ctx_pid;
			x->first_ctx_prio = prev.first_ctx_prio;
			x->first_cpu = prev.first_cpu;
		}
		x->pi_holder = 0;
	}
	if (pi || prio >= 100 || !x->ctx_pid || x->ctx_prio <= prio || an_rt_allowed(t->comm))
		return;
	/* the rtapp monitor's rule: a realtime task woken by a lower-priority one */
	x->ninv++;
	x->inversions++;
	if (!x->inv.waker_pid)
		x->inv = (struct an_inv){ .waker_pid = ctx, .waker_prio = x->ctx_prio, .prio = prio, .wake_ns = ts,
					  .blocked_ns = t->block_ns && t->block_ns <= ts ? ts - t->block_ns : -1,
					  .release_ns = -1 };
}

void an_rt_woken_by(struct an_run *r, const struct an_thread *th, struct an_culprit *c,
		    int (*account)(struct an_run *r, int cpu, int self, int64_t from, int64_t to,
				   struct an_contrib *cs, int cap))
{
	const struct an_rt_thr *x = th->rt;
	struct an_contrib cs[16];
	struct an_service s;
	int64_t wake_ns;
	int n, k, prio, cpu;

	if (!x || x->wake_ns != c->waking_ns)
		return;
	wake_ns = x->wake_ns;
	prio = x->ctx_prio;
	cpu = x->cpu;
	/*
	 * PREEMPT_RT: a waker that still holds a sleeping lock the task takes
	 * next (a timerfd's wait queue, expired in ktimers/N) wakes it twice:
	 * the task runs, blocks on the lock, boosts the waker (pi) and is woken
	 * again by its unlock. It was woken at the first; what delayed the
	 * waker is what ran until then (the task's own run after it is not)
	 */
	if (x->first_wake_ns && x->first_ctx_pid == x->ctx_pid && x->first_wake_ns >= c->release_ns) {
		wake_ns = x->first_wake_ns;
		prio = x->first_ctx_prio;
		cpu = x->first_cpu;
	}
	/* a service thread at a realtime priority below the task's: PREEMPT_RT's ktimers, rcuc, IRQ threads */
	if (!x->ctx_pid || prio <= x->prio || prio >= 100 || c->releaser[0] ||
	    !an_service_of(an_thread_comm(r, x->ctx_pid), &s) || wake_ns < c->release_ns)
		return;
	c->woken_by.pid = x->ctx_pid;
	c->woken_by.prio = prio;
	c->woken_by.cpu = cpu;
	c->woken_by.wake_ns = wake_ns;
	c->from_ns = c->waking_ns;
	n = account(r, cpu, x->ctx_pid, c->release_ns, wake_ns, cs, (int)PF_ARRAY_SIZE(cs));
	for (k = 0; k < n && c->woken_by.ndelay < (int)PF_ARRAY_SIZE(c->woken_by.delay); k++)
		if (cs[k].dur_ns > 0)
			c->woken_by.delay[c->woken_by.ndelay++] = cs[k];
}

void an_rt_job_end(struct an_task *t, struct an_thread *th, struct an_culprit *c, uint32_t seq,
		   int64_t release_ns, int64_t end_ns)
{
	struct an_rt_thr *x = th->rt;

	if (!x)
		return;
	if (x->inv.waker_pid) {
		bool in = x->inv.wake_ns >= release_ns && x->inv.wake_ns <= end_ns;

		x->inv.release_ns = in ? release_ns : -1;
		x->inv.seq = in ? seq : 0;
		if (c && in)
			c->inv = x->inv;
		if (t->ninv_kept < AN_MAX_INV)
			t->inv[t->ninv_kept++] = x->inv;
	}
	t->ninv += x->ninv;
	if (c && x->pi.holder_pid && x->pi.wake_ns >= release_ns && x->pi.wake_ns <= end_ns &&
	    (!c->pi.holder_pid || x->pi.blocked_ns > c->pi.blocked_ns))
		c->pi = x->pi;
	memset(&x->pi, 0, sizeof(x->pi));
	memset(&x->inv, 0, sizeof(x->inv));
	x->inv.blocked_ns = -1;
	x->ninv = 0;
}

/* an_rt_thread_json - pid, comm and priority of a thread named by a PREEMPT_RT part */
static void an_rt_thread_json(struct an_run *r, json_t *o, const char *pidk, const char *commk, int pid)
{
	const char *comm = an_thread_comm(r, pid);

	json_object_set_new(o, pidk, json_integer(pid));
	json_object_set_new(o, commk, comm && comm[0] ? json_string(comm) : json_null());
}

/* an_rt_inv_json - one inversion */
static json_t *an_rt_inv_json(struct an_run *r, const struct an_inv *v)
{
	json_t *o = json_object();

	json_object_set_new(o, "kind", json_string("woken_by_lower_prio"));
	json_object_set_new(o, "seq", v->release_ns >= 0 ? json_integer(v->seq) : json_null());
	json_object_set_new(o, "wake_ns", json_integer(v->wake_ns));
	an_rt_thread_json(r, o, "waker_pid", "waker_comm", v->waker_pid);
	json_object_set_new(o, "waker_prio", json_integer(v->waker_prio));
	json_object_set_new(o, "prio", json_integer(v->prio));
	json_object_set_new(o, "blocked_ns", v->blocked_ns >= 0 ? json_integer(v->blocked_ns) : json_null());
	return o;
}

/* an_rt_contrib_list - contributors as [{kind, name, pid, duration_ns}] ('self' names the thread whose part it is) */
static json_t *an_rt_contrib_list(const struct an_contrib *cs, int n, const char *self)
{
	static const char *const kinds[] = { "thread", "irq", "softirq", "idle", "thread", "app", "others" };
	json_t *arr = json_array();
	int k;

	for (k = 0; k < n; k++)
		json_array_append_new(arr, json_pack("{sssssosI}", "kind", kinds[cs[k].kind],
						     "name", cs[k].kind == AN_C_SELF ? self : cs[k].name,
						     "pid", cs[k].kind == AN_C_THREAD || cs[k].kind == AN_C_SELF ?
						     json_integer(cs[k].id) : json_null(),
						     "duration_ns", (json_int_t)cs[k].dur_ns));
	return arr;
}

void an_rt_culprit_json(struct an_run *r, const struct an_culprit *c, json_t *o)
{
	json_t *w, *p;
	struct an_service s;
	const char *comm;

	if (c->woken_by.pid) {
		w = json_object();
		an_rt_thread_json(r, w, "pid", "comm", c->woken_by.pid);
		comm = an_thread_comm(r, c->woken_by.pid);
		an_service_of(comm, &s);
		json_object_set_new(w, "thread_kind", an_thread_kind_name(s.kind) ? json_string(an_thread_kind_name(s.kind))
				    : json_null());
		json_object_set_new(w, "service", s.service ? json_string(s.service) : json_null());
		json_object_set_new(w, "prio", json_integer(c->woken_by.prio));
		json_object_set_new(w, "cpu", json_integer(c->woken_by.cpu));
		json_object_set_new(w, "after_ns", json_integer(c->woken_by.wake_ns - c->release_ns));
		json_object_set_new(w, "delayed_by", an_rt_contrib_list(c->woken_by.delay, c->woken_by.ndelay,
									comm ? comm : "?"));
		json_object_set_new(o, "woken_by", w);
	} else {
		json_object_set_new(o, "woken_by", json_null());
	}
	if (c->pi.holder_pid) {
		p = json_object();
		an_rt_thread_json(r, p, "holder_pid", "holder_comm", c->pi.holder_pid);
		json_object_set_new(p, "boost_prio", json_integer(c->pi.boost_prio));
		json_object_set_new(p, "boosted_ns", json_integer(c->pi.boosted_ns));
		json_object_set_new(p, "blocked_ns", json_integer(c->pi.blocked_ns));
		json_object_set_new(p, "wake_ns", json_integer(c->pi.wake_ns));
		json_object_set_new(o, "pi", p);
	} else {
		json_object_set_new(o, "pi", json_null());
	}
	json_object_set_new(o, "inversion", c->inv.waker_pid ? an_rt_inv_json(r, &c->inv) : json_null());
}

void an_rt_contrib_json(const struct an_contrib *x, json_t *o)
{
	struct an_service s = { 0 };

	if (x->kind == AN_C_THREAD)
		an_service_of(x->name, &s);
	json_object_set_new(o, "thread_kind", an_thread_kind_name(s.kind) ? json_string(an_thread_kind_name(s.kind))
			    : json_null());
	json_object_set_new(o, "irq", s.kind == AN_TK_IRQ ? json_integer(s.irq) : json_null());
	json_object_set_new(o, "action", s.kind == AN_TK_IRQ ? json_string(s.action) : json_null());
	json_object_set_new(o, "service", s.service ? json_string(s.service) : json_null());
}

void an_rt_task_json(struct an_run *r, const struct an_task *t, json_t *o)
{
	json_t *arr = json_array();
	int k;

	for (k = 0; k < t->ninv_kept; k++)
		json_array_append_new(arr, an_rt_inv_json(r, &t->inv[k]));
	json_object_set_new(o, "inversion_count", json_integer((json_int_t)t->ninv));
	json_object_set_new(o, "inversions", arr);
}
