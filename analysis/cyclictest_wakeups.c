/*
 * cyclictest_wakeups.c - cyclictest's wakeups in a trace of a cyclictest run,
 * measured and explained like rtla timerlat's auto-analysis explains its
 * worst sample (docs/results.md, "cyclictest_wakeups").
 *
 * A measuring thread of cyclictest is a thread named "cyclictest" seen at a
 * realtime priority (the main thread is not realtime). Each cycle it arms an
 * absolute hrtimer for its next wakeup (timer:hrtimer_start in its own
 * context, 'expires' on CLOCK_MONOTONIC, the trace clock of a preflight
 * recording) and blocks; the timer's expiry wakes it. Its wakeup latency is
 * switch-in - expiry, what cyclictest itself measures less the return to user
 * space and its clock read. Without hrtimer_start in the trace, the release is
 * the hrtimer_expire_entry that woke it: the timer's own delay is then not
 * counted (release_from says which). A wakeup whose expiry or switch-in is
 * not in the trace (the first one, a switch-in only inferred) is counted, not
 * measured.
 *
 * The worst --top wakeups get their culprits from the CPU's history as the
 * app's activations do (an_culprit_fill of tasks.c): IRQs, softirqs, the
 * threads that ran, idle, with the timer's delay and the waking. Memory is
 * per thread and per worst wakeup, never per event.
 */
#define _GNU_SOURCE
#include "cyclictest_wakeups.h"
#include "results.h"
#include "sched.h"
#include "tasks.h"

#include <stdlib.h>
#include <string.h>

/* an_cw_worst - one of the worst wakeups, with its culprits */
struct an_cw_worst {
	struct an_culprit c;		/* seq: the thread's wakeup number */
	const char *snapshot;		/* the flight-recorder snapshot that holds it, NULL in a full trace */
	bool     bound;			/* its switch-in not in the trace: c.start_ns is its next hrtimer_start */
};

/* an_cw_thread - one measuring thread of cyclictest */
struct an_cw_thread {
	int      pid;
	int      proc;			/* the thread that created it (cyclictest's main thread), 0 unknown */
	int      cpu;			/* of its last wakeup, -1 none */
	int64_t  armed_ns;		/* expiry of the hrtimer it armed since it last ran, 0 none */
	int64_t  sleep_until_ns;	/* expiry of the sleep it is in, 0 none known */
	int64_t  sleep_ns;		/* when it blocked, 0 when not asleep */
	uint64_t wakeups;		/* wakeups measured */
	uint64_t unmeasured;		/* wakeups whose expiry was not in the trace */
	uint64_t unresolved;		/* wakeups whose switch-in was not in the trace (inferred) */
	uint64_t from_start, from_expiry;	/* releases from hrtimer_start, from hrtimer_expire_entry */
	struct an_stat lat;		/* their latencies */
	int64_t  cur_release_ns;	/* the expiry of the wakeup it runs after, 0 when none measured */
	bool     cur_preempted;		/* preempted since that wakeup's switch-in */
	struct an_stat rearm;		/* expiry -> its next hrtimer_start: above what cyclictest measures */
	uint64_t preempted;		/* wakeups after which it was preempted before it slept again */
	struct an_cw_worst *top;	/* its worst, worst first, at most r->opt.top */
	int      ntop;
	bool     chosen;		/* of the cyclictest process reported (an_cw_choose) */
	bool     main;			/* a process's main thread, not a measuring one (an_cw_choose) */
};

/* an_cw_born - a thread named cyclictest created in the trace, and by whom (sched_wakeup_new) */
struct an_cw_born {
	int pid, proc;
};

struct an_cw {
	struct an_cw_thread *th;
	size_t   nth, cap;
	struct an_cw_born *born;
	size_t   nborn, born_cap;
	int      snapshots;		/* snapshots merged (flight recorder) */
};

/* an_cw_find - the measuring thread of pid, NULL when pid is not one */
static struct an_cw_thread *an_cw_find(const struct an_cw *cw, int pid)
{
	size_t i;

	for (i = 0; cw && i < cw->nth; i++)
		if (cw->th[i].pid == pid)
			return &cw->th[i];
	return NULL;
}

/* an_cw_new - r->cw, made on first use; NULL when out of memory */
static struct an_cw *an_cw_new(struct an_run *r)
{
	if (!r->cw)
		r->cw = calloc(1, sizeof(*r->cw));
	return r->cw;
}

/* an_cw_add - a new measuring thread, with its process when its creation was seen; NULL when out of memory */
static struct an_cw_thread *an_cw_add(struct an_run *r, int pid, int proc)
{
	struct an_cw_thread *ct;
	size_t i;

	if (!an_cw_new(r) || pf_grow(&r->cw->th, &r->cw->cap, r->cw->nth, sizeof(*r->cw->th), 8))
		return NULL;
	ct = &r->cw->th[r->cw->nth++];
	memset(ct, 0, sizeof(*ct));
	ct->pid = pid;
	ct->proc = proc;
	for (i = 0; !proc && i < r->cw->nborn; i++)
		if (r->cw->born[i].pid == pid)
			ct->proc = r->cw->born[i].proc;
	ct->cpu = -1;
	an_stat_init(&ct->lat, AN_LAT_BIN_NS, AN_LAT_NBINS, "ns");
	an_stat_init(&ct->rearm, AN_LAT_BIN_NS, AN_LAT_NBINS, "ns");
	return ct;
}

/* an_cw_is_measuring - pid is a thread named cyclictest seen at a realtime priority */
static bool an_cw_is_measuring(struct an_run *r, int pid)
{
	struct an_thread *t = an_thread_find(r, pid);

	return t && t->nprios && t->prio < 100 && !strcmp(t->comm, "cyclictest");
}

int an_cw_on_new_thread(struct an_run *r, int creator, int pid, const char *comm)
{
	if (strncmp(comm, "cyclictest", 16) || creator <= 0)
		return 0;
	if (!an_cw_new(r) || pf_grow(&r->cw->born, &r->cw->born_cap, r->cw->nborn, sizeof(*r->cw->born), 8))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	r->cw->born[r->cw->nborn++] = (struct an_cw_born){ pid, creator };
	return 0;
}

/* an_cw_keep - w into a worst-first list of at most 'top' (its count *n) if it is among them */
static void an_cw_keep(struct an_cw_worst *list, int *n, int top, const struct an_cw_worst *w)
{
	int i;

	if (top <= 0 || (*n == top && w->c.latency_ns <= list[*n - 1].c.latency_ns))
		return;
	if (*n < top)
		(*n)++;
	for (i = *n - 1; i > 0 && list[i - 1].c.latency_ns < w->c.latency_ns; i--)
		list[i] = list[i - 1];
	list[i] = *w;
}

/*
 * an_cw_consider - keep wakeup number n (expiry release_ns, switch-in ts; with
 * 'bound' ts is its next hrtimer_start, its switch-in unseen) if it is among
 * its thread's --top worst, with its culprits; 0 or an exit code
 */
static int an_cw_consider(struct an_run *r, struct an_cw_thread *ct, struct an_thread *th, int cpu,
			  uint64_t n, int64_t release_ns, int64_t ts, bool bound)
{
	struct an_cw_worst w = { .c = { 0 } };

	if (r->opt.top <= 0 || (ct->ntop == r->opt.top && ts - release_ns <= ct->top[ct->ntop - 1].c.latency_ns))
		return 0;
	if (!ct->top && !(ct->top = calloc((size_t)r->opt.top, sizeof(*ct->top))))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	w.c.seq = (uint32_t)n;
	w.bound = bound;
	w.c.cpu = cpu;
	w.c.pid = th->pid;
	w.c.release_ns = w.c.from_ns = release_ns;
	w.c.start_ns = ts;
	w.c.switch_in_ns = bound ? 0 : ts;
	w.c.latency_ns = ts - release_ns;
	w.c.waking_ns = th->last_waking_ns;
	w.c.timer_ns = th->last_timer_ns;
	w.c.silent_from_ns = th->last_quiet_from_ns;
	w.c.silent_to_ns = th->last_quiet_to_ns;
	w.c.waker_pid = th->last_waker_pid;
	an_culprit_fill(r, th, cpu, &w.c);
	an_cw_keep(ct->top, &ct->ntop, r->opt.top, &w);
	return 0;
}

int an_cw_on_hrtimer_start(struct an_run *r, int cpu, int64_t ts, int pid, int64_t expires_ns)
{
	struct an_cw_thread *ct = an_cw_find(r->cw, pid);
	struct an_thread *th;

	if (!ct && (pid <= 0 || !an_cw_is_measuring(r, pid)))
		return 0;
	if (!ct && !(ct = an_cw_add(r, pid, 0)))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	/*
	 * a wakeup whose switch-in was not seen (inferred from the thread's
	 * events) ends here too: expiry -> now is still a bound of it, and among
	 * the worst it is explained up to now
	 */
	if (!ct->cur_release_ns && ct->sleep_ns && ct->sleep_until_ns && ts >= ct->sleep_until_ns &&
	    (th = an_thread_find(r, pid)) && th->last_inferred && th->last_waking_ns >= ct->sleep_ns) {
		ct->cur_release_ns = ct->sleep_until_ns;
		if (an_cw_consider(r, ct, th, cpu, ct->wakeups + ct->unresolved + ct->unmeasured + 1,
				   ct->sleep_until_ns, ts, true))
			return PF_EXIT_INTERNAL;
	}
	/* the end of the cycle its last wakeup began: cyclictest read its clock before this */
	if (ct->cur_release_ns && ts >= ct->cur_release_ns) {
		if (an_stat_add(&ct->rearm, ts - ct->cur_release_ns, ts, ct->pid))
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		ct->preempted += ct->cur_preempted;
	}
	ct->cur_release_ns = 0;
	ct->armed_ns = expires_ns;
	return 0;
}

int an_cw_on_switch(struct an_run *r, int cpu, int64_t ts, int prev_pid, int prev_prio, int next_pid)
{
	struct an_cw_thread *ct = NULL;
	struct an_thread *th = NULL;
	int64_t release_ns = 0;

	/* found by their hrtimer_start, else (a trace without it) when one of them blocks */
	if (prev_prio < 100 && prev_pid > 0 && !(ct = an_cw_find(r->cw, prev_pid)) && an_cw_is_measuring(r, prev_pid) &&
	    !(ct = an_cw_add(r, prev_pid, 0)))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	if (!r->cw)
		return 0;
	if ((ct || (ct = an_cw_find(r->cw, prev_pid))) && (th = an_thread_find(r, prev_pid)) && th->runnable)
		ct->cur_preempted = ct->cur_release_ns != 0;	/* preempted before it slept again */
	else if (ct && th && !th->runnable) {
		if (ct->sleep_ns && th->last_waking_ns >= ct->sleep_ns)
			ct->unresolved++;	/* it ran since it last slept, its switch-in unseen */
		ct->sleep_until_ns = ct->armed_ns;	/* blocked: asleep until the expiry it armed */
		ct->armed_ns = 0;
		ct->sleep_ns = ts;
	}
	if (!(ct = an_cw_find(r->cw, next_pid)) || !ct->sleep_ns || !(th = an_thread_find(r, next_pid)))
		return 0;
	/* woken since it blocked, and switched in now (a switch-in inferred later is no sample) */
	if (th->last_waking_ns >= ct->sleep_ns && (th->last_switch_in_ns != ts || th->last_inferred))
		ct->unresolved++;
	if (th->last_switch_in_ns == ts && !th->last_inferred && th->last_waking_ns >= ct->sleep_ns) {
		if (ct->sleep_until_ns) {
			release_ns = ct->sleep_until_ns;
			ct->from_start++;
		} else if (!r->n_hrtimer_start && th->last_timer_ns >= ct->sleep_ns) {
			release_ns = th->last_timer_ns;
			ct->from_expiry++;
		} else {
			ct->unmeasured++;
		}
	}
	ct->sleep_ns = ct->sleep_until_ns = 0;
	/* a waking before the expiry is no timer wakeup (a signal: cyclictest is ending) */
	if (!release_ns || release_ns > th->last_waking_ns || release_ns > ts)
		return 0;
	ct->wakeups++;
	ct->cpu = cpu;
	ct->cur_release_ns = release_ns;
	ct->cur_preempted = false;
	if (an_stat_add(&ct->lat, ts - release_ns, ts, ct->pid))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	return an_cw_consider(r, ct, th, cpu, ct->wakeups + ct->unresolved + ct->unmeasured, release_ns, ts, false);
}

int an_cw_merge(struct an_run *r, struct an_run *s, const char *file)
{
	struct an_cw_thread *d, *t;
	size_t i;
	int k;

	if (!s->cw || !s->cw->nth)
		return 0;
	if (!an_cw_new(r))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	r->cw->snapshots++;
	for (i = 0; i < s->cw->nth; i++) {
		t = &s->cw->th[i];
		if (!(d = an_cw_find(r->cw, t->pid)) && !(d = an_cw_add(r, t->pid, t->proc)))
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		if (pf_hist_merge(&d->lat.h, &t->lat.h) || pf_hist_merge(&d->rearm.h, &t->rearm.h))
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		d->wakeups += t->wakeups;
		d->preempted += t->preempted;
		d->unmeasured += t->unmeasured;
		d->unresolved += t->unresolved;
		d->from_start += t->from_start;
		d->from_expiry += t->from_expiry;
		if (t->cpu >= 0)
			d->cpu = t->cpu;
		if (!d->proc)
			d->proc = t->proc;
		if (r->opt.top > 0 && !d->top && !(d->top = calloc((size_t)r->opt.top, sizeof(*d->top))))
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		for (k = 0; k < t->ntop; k++) {
			struct an_cw_worst w = t->top[k];
			int j;

			for (j = 0; j < d->ntop && d->top[j].c.release_ns != w.c.release_ns; j++)
				;
			if (j < d->ntop)
				continue;	/* overlapping snapshots: the earlier file's */
			w.snapshot = file;
			an_cw_keep(d->top, &d->ntop, r->opt.top, &w);
		}
	}
	return 0;
}

static int an_cw_pid_cmp(const void *a, const void *b)
{
	const struct an_cw_thread *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* an_cw_named - a worst wakeup of a chosen thread, with the thread's name in cyclictest's results */
struct an_cw_named {
	const struct an_cw_worst *w;
	const char *name;		/* "T0", NULL unknown */
};

static int an_cw_named_cmp(const void *a, const void *b)
{
	const struct an_cw_named *x = a, *y = b;

	return (x->w->c.latency_ns < y->w->c.latency_ns) - (x->w->c.latency_ns > y->w->c.latency_ns);
}

/*
 * an_cw_reported - cyclictest's own entry (threads[] of the import) for the
 * chosen measuring thread at index k of n (sorted by tid): the one on the same
 * CPU when only one is, else the k-th when the counts agree (cyclictest makes
 * its threads in order); NULL when it cannot be told
 */
static json_t *an_cw_reported(const struct an_run *r, const struct an_cw_thread *ct, size_t k, size_t n)
{
	json_t *arr = json_object_get(r->cyclictest, "threads"), *o, *found = NULL;
	size_t i, same = 0;

	json_array_foreach(arr, i, o)
		if (ct->cpu >= 0 && json_is_integer(json_object_get(o, "cpu")) &&
		    json_integer_value(json_object_get(o, "cpu")) == ct->cpu) {
			found = o;
			same++;
		}
	if (same == 1)
		return found;
	return json_array_size(arr) == n ? json_array_get(arr, k) : NULL;
}

/*
 * an_cw_mismatch - how far the measuring threads of process proc are from
 * cyclictest's own results: the sum over its threads of |wakeups seen -
 * cycles reported|, -1 when their number differs (a trace records the whole
 * machine, so another cyclictest may be in it)
 */
static int64_t an_cw_mismatch(const struct an_run *r, int proc)
{
	json_t *arr = json_object_get(r->cyclictest, "threads");
	size_t i, k = 0, n = 0;
	int64_t d = 0, seen;

	for (i = 0; i < r->cw->nth; i++)
		n += r->cw->th[i].proc == proc;
	if (n != json_array_size(arr))
		return -1;
	for (i = 0; i < r->cw->nth; i++) {
		const struct an_cw_thread *ct = &r->cw->th[i];
		json_t *rep;

		if (ct->proc != proc)
			continue;
		rep = an_cw_reported(r, ct, k++, n);
		seen = (int64_t)(ct->wakeups + ct->unmeasured + ct->unresolved);
		seen -= rep ? json_integer_value(json_object_get(json_object_get(rep, "latency_ns"), "count")) : 0;
		d += seen < 0 ? -seen : seen;
	}
	return d;
}

/*
 * an_cw_choose - which measuring threads are reported: those of the one
 * cyclictest process in the trace; with several (their creator seen in
 * sched_wakeup_new), the one whose threads match cyclictest's results best
 * (--cyclictest), else all of them. Returns how many processes were seen,
 * *proc the one chosen (0: unknown, or all)
 */
static int an_cw_choose(struct an_run *r, int *proc)
{
	int procs[64], nprocs = 0, j, best = -1;
	int64_t d, best_d = INT64_MAX;
	size_t i, k;

	/*
	 * A thread that created cyclictest threads is a process's main thread: on
	 * PREEMPT_RT one PI-boosted to a realtime priority (it held a sleeping
	 * lock a measuring thread wanted) sleeps on its own timer like them, but
	 * measures nothing and is no process of its own.
	 */
	for (i = 0; i < r->cw->nth; i++) {
		struct an_cw_thread *ct = &r->cw->th[i];

		for (k = 0; !ct->main && k < r->cw->nth; k++)
			ct->main = k != i && r->cw->th[k].proc == ct->pid;
		for (k = 0; !ct->main && k < r->cw->nborn; k++)
			ct->main = r->cw->born[k].proc == ct->pid;
	}
	for (i = 0; i < r->cw->nth; i++) {
		if (r->cw->th[i].main)
			continue;
		for (j = 0; j < nprocs && procs[j] != r->cw->th[i].proc; j++)
			;
		if (j == nprocs && nprocs < (int)PF_ARRAY_SIZE(procs))
			procs[nprocs++] = r->cw->th[i].proc;
	}
	for (j = 0; nprocs > 1 && r->cyclictest && j < nprocs; j++)
		if ((d = an_cw_mismatch(r, procs[j])) >= 0 && d < best_d) {
			best_d = d;
			best = j;
		}
	*proc = nprocs == 1 ? procs[0] : best >= 0 ? procs[best] : 0;
	for (i = 0; i < r->cw->nth; i++)
		r->cw->th[i].chosen = !r->cw->th[i].main &&
				      (nprocs == 1 || best < 0 || r->cw->th[i].proc == procs[best]);
	return nprocs;
}

/* an_cw_head - the head of a worst wakeup's summary line: the thread, the wakeup, when its timer expired */
static void an_cw_head(const struct an_cw_worst *w, const char *name, char *buf, size_t size)
{
	char d[32];

	an_fmt_us(d, sizeof(d), w->c.latency_ns);
	snprintf(buf, size, "cyclictest %s (tid %d) wakeup %u on CPU %d, timer expiry at %lld.%09lld s: %s%s late%s",
		 name, w->c.pid, w->c.seq, w->c.cpu, (long long)(w->c.release_ns / PF_NS_PER_SEC),
		 (long long)(w->c.release_ns % PF_NS_PER_SEC), w->bound ? "at most " : "", d,
		 w->bound ? " (its switch-in is not in the trace: up to its next sleep)" : "");
}

/* an_cw_thread_json - one chosen measuring thread beside cyclictest's own entry rep (NULL: none) */
static json_t *an_cw_thread_json(struct an_cw_thread *ct, json_t *rep)
{
	json_t *t = json_object(), *lat = an_stat_json(&ct->lat), *max = json_object_get(lat, "max");
	json_t *rmax = json_object_get(json_object_get(rep, "latency_ns"), "max");

	json_object_set_new(t, "name", rep ? json_incref(json_object_get(rep, "name")) : json_null());
	json_object_set_new(t, "tid", json_integer(ct->pid));
	json_object_set_new(t, "cpu", ct->cpu >= 0 ? json_integer(ct->cpu) : json_null());
	json_object_set_new(t, "wakeups", json_integer((json_int_t)ct->wakeups));
	json_object_set_new(t, "latency_ns", lat);
	json_object_set_new(t, "rearm_latency_ns", an_stat_json(&ct->rearm));
	json_object_set_new(t, "preempted_wakeups", json_integer((json_int_t)ct->preempted));
	json_object_set_new(t, "reported_max_ns", json_is_integer(rmax) ? json_incref(rmax) : json_null());
	json_object_set_new(t, "reported_minus_max_ns", json_is_integer(rmax) && json_is_integer(max) ?
			    json_integer(json_integer_value(rmax) - json_integer_value(max)) : json_null());
	return t;
}

void an_cw_fold(struct an_run *r, json_t *res)
{
	struct an_cw *cw = r->cw;
	struct an_cw_named *all = NULL;
	json_t *o, *threads, *worst, *rep, *w;
	uint64_t from_start = 0, from_expiry = 0, unmeasured = 0, unresolved = 0;
	size_t i, n = 0, k = 0, nall = 0, left = 0, len;
	char line[640];
	int proc, nprocs, j;

	if (!cw || !cw->nth) {
		json_object_set_new(res, "cyclictest_wakeups", json_null());
		return;
	}
	qsort(cw->th, cw->nth, sizeof(*cw->th), an_cw_pid_cmp);
	nprocs = an_cw_choose(r, &proc);
	for (i = 0; i < cw->nth; i++) {
		n += cw->th[i].chosen;
		left += !cw->th[i].chosen && !cw->th[i].main;
		nall += cw->th[i].chosen ? (size_t)cw->th[i].ntop : 0;
	}
	all = calloc(nall ? nall : 1, sizeof(*all));
	o = json_object();
	threads = json_array();
	worst = json_array();
	for (i = 0, nall = 0; i < cw->nth; i++) {
		struct an_cw_thread *ct = &cw->th[i];

		if (!ct->chosen)
			continue;
		from_start += ct->from_start;
		from_expiry += ct->from_expiry;
		unmeasured += ct->unmeasured;
		unresolved += ct->unresolved;
		rep = an_cw_reported(r, ct, k++, n);
		for (j = 0; all && j < ct->ntop; j++)
			all[nall++] = (struct an_cw_named){ &ct->top[j], json_string_value(json_object_get(rep, "name")) };
		json_array_append_new(threads, an_cw_thread_json(ct, rep));
	}
	json_object_set_new(o, "source", json_string(cw->snapshots ? "snapshots" : "trace"));
	json_object_set_new(o, "release_from", json_string(!from_expiry ? "hrtimer_start" :
							   !from_start ? "hrtimer_expire_entry" : "mixed"));
	json_object_set_new(o, "process_pid", proc > 0 ? json_integer(proc) : json_null());
	json_object_set_new(o, "processes_seen", json_integer(nprocs));
	json_object_set_new(o, "threads_left_out", json_integer((json_int_t)left));
	json_object_set_new(o, "wakeups_unmeasured", json_integer((json_int_t)unmeasured));
	json_object_set_new(o, "wakeups_unresolved", json_integer((json_int_t)unresolved));
	if (all)
		qsort(all, nall, sizeof(*all), an_cw_named_cmp);
	for (i = 0; all && i < nall && (int)i < r->opt.top; i++) {
		const struct an_cw_worst *x = all[i].w;
		const char *name = all[i].name;

		w = json_object();
		json_object_set_new(w, "thread", name ? json_string(name) : json_null());
		json_object_set_new(w, "tid", json_integer(x->c.pid));
		json_object_set_new(w, "wakeup", json_integer(x->c.seq));
		json_object_set_new(w, "upper_bound", json_boolean(x->bound));
		an_culprit_parts_json("cyclictest", &x->c, w);
		json_object_set_new(w, "snapshot", x->snapshot ? json_string(x->snapshot) : json_null());
		an_cw_head(x, name ? name : "thread", line, sizeof(line));
		len = strlen(line);
		an_culprit_parts_text(r, "cyclictest", &x->c, line + len, sizeof(line) - len);
		json_object_set_new(w, "summary", json_string(line));
		json_array_append_new(worst, w);
	}
	free(all);
	json_object_set_new(o, "threads", threads);
	json_object_set_new(o, "worst", worst);
	json_object_set_new(res, "cyclictest_wakeups", o);
}

void an_cw_print(json_t *res, FILE *out)
{
	json_t *cw = json_object_get(res, "cyclictest_wakeups"), *o;
	const char *from;
	bool snaps;
	size_t i;

	if (!json_is_object(cw))
		return;
	from = json_string_value(json_object_get(cw, "release_from"));
	snaps = !strcmp(json_string_value(json_object_get(cw, "source")), "snapshots");
	fprintf(out, "\ncyclictest's worst wakeups explained (%s: %s to switch-in):\n",
		snaps ? "from the flight-recorder snapshots" : "from the trace", !strcmp(from, "hrtimer_start") ?
		"timer expiry" : "hrtimer_expire_entry (the timer's own delay not counted: no hrtimer_start in the trace)");
	json_array_foreach(json_object_get(cw, "threads"), i, o) {
		json_t *lat = json_object_get(o, "latency_ns"), *rmax = json_object_get(o, "reported_max_ns");
		char b1[32] = "n/a", b2[32] = "", b3[32] = "";

		if (json_is_integer(json_object_get(lat, "max")))
			an_fmt_us(b1, sizeof(b1), json_integer_value(json_object_get(lat, "max")));
		if (json_is_integer(rmax)) {
			an_fmt_us(b2, sizeof(b2), json_integer_value(rmax));
			an_fmt_us(b3, sizeof(b3), json_integer_value(json_object_get(o, "reported_minus_max_ns")));
		}
		fprintf(out, "%s (tid %lld, CPU %lld): %lld wakeups, max %s in the %s", json_is_string(
			json_object_get(o, "name")) ? json_string_value(json_object_get(o, "name")) : "thread",
			json_integer_value(json_object_get(o, "tid")), json_integer_value(json_object_get(o, "cpu")),
			json_integer_value(json_object_get(o, "wakeups")), b1, snaps ? "snapshots" : "trace");
		if (b2[0] && snaps)
			fprintf(out, "; cyclictest reported max %s over the whole phase, which the snapshots may not hold", b2);
		else if (b2[0])
			fprintf(out, "; cyclictest reported max %s, %s more (it reads its clock after the switch-in, "
				"back in user space)", b2, b3);
		if (json_is_integer(json_object_get(json_object_get(o, "rearm_latency_ns"), "max"))) {
			json_int_t rearm = json_integer_value(json_object_get(json_object_get(o, "rearm_latency_ns"), "max"));
			json_int_t pre = json_integer_value(json_object_get(o, "preempted_wakeups"));

			an_fmt_us(b1, sizeof(b1), rearm);
			fprintf(out, "; at most %s from an expiry to its next sleep", b1);
			if (pre)
				fprintf(out, " (preempted after its switch-in in %lld wakeups)", (long long)pre);
			if (!snaps && json_is_integer(rmax) && json_integer_value(rmax) > rearm)
				fprintf(out, ": cyclictest's max is a wakeup the trace could not measure");
		}
		fputc('\n', out);
	}
	json_array_foreach(json_object_get(cw, "worst"), i, o)
		fprintf(out, "%s\n", json_string_value(json_object_get(o, "summary")));
	if (json_integer_value(json_object_get(cw, "wakeups_unresolved")))
		fprintf(out, "(%lld wakeups not measured: their switch-in is not in the trace, only inferred from "
			"later events)\n", json_integer_value(json_object_get(cw, "wakeups_unresolved")));
	if (json_integer_value(json_object_get(cw, "wakeups_unmeasured")))
		fprintf(out, "(%lld wakeups not measured: neither their hrtimer_start nor the expiry that woke "
			"them is in the trace)\n", json_integer_value(json_object_get(cw, "wakeups_unmeasured")));
}

void an_cw_free(struct an_run *r)
{
	size_t i;

	if (!r->cw)
		return;
	for (i = 0; i < r->cw->nth; i++) {
		an_stat_free(&r->cw->th[i].lat);
		an_stat_free(&r->cw->th[i].rearm);
		free(r->cw->th[i].top);
	}
	free(r->cw->th);
	free(r->cw->born);
	free(r->cw);
	r->cw = NULL;
}
