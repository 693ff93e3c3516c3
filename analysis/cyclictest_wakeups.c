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

/* an_cw_thread - one measuring thread of cyclictest */
struct an_cw_thread {
	int      pid;
	int      cpu;			/* of its last wakeup, -1 none */
	int64_t  armed_ns;		/* expiry of the hrtimer it armed since it last ran, 0 none */
	int64_t  sleep_until_ns;	/* expiry of the sleep it is in, 0 none known */
	int64_t  sleep_ns;		/* when it blocked, 0 when not asleep */
	uint64_t wakeups;		/* wakeups measured */
	struct an_stat lat;		/* their latencies */
};

/* an_cw_worst - one of the worst wakeups, with its culprits */
struct an_cw_worst {
	struct an_culprit c;		/* seq: the thread's wakeup number */
	const char *snapshot;		/* the flight-recorder snapshot that holds it, NULL in a full trace */
};

struct an_cw {
	struct an_cw_thread *th;
	size_t   nth, cap;
	struct an_cw_worst *top;	/* worst first, at most r->opt.top */
	int      ntop;
	uint64_t from_start, from_expiry;	/* releases from hrtimer_start, from hrtimer_expire_entry */
	uint64_t unmeasured;		/* wakeups whose expiry was not in the trace */
	uint64_t unresolved;		/* wakeups whose switch-in was not in the trace (inferred) */
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

/* an_cw_add - a new measuring thread (r->cw made on the first); NULL when out of memory */
static struct an_cw_thread *an_cw_add(struct an_run *r, int pid)
{
	struct an_cw_thread *ct;

	if (!r->cw && !(r->cw = calloc(1, sizeof(*r->cw))))
		return NULL;
	if (pf_grow(&r->cw->th, &r->cw->cap, r->cw->nth, sizeof(*r->cw->th), 8))
		return NULL;
	ct = &r->cw->th[r->cw->nth++];
	memset(ct, 0, sizeof(*ct));
	ct->pid = pid;
	ct->cpu = -1;
	an_stat_init(&ct->lat, AN_LAT_BIN_NS, AN_LAT_NBINS, "ns");
	return ct;
}

/* an_cw_is_measuring - pid is a thread named cyclictest seen at a realtime priority */
static bool an_cw_is_measuring(struct an_run *r, int pid)
{
	struct an_thread *t = an_thread_find(r, pid);

	return t && t->nprios && t->prio < 100 && !strcmp(t->comm, "cyclictest");
}

void an_cw_on_hrtimer_start(struct an_run *r, int64_t ts, int pid, int64_t expires_ns)
{
	struct an_cw_thread *ct = an_cw_find(r->cw, pid);

	(void)ts;
	if (!ct && (pid <= 0 || !an_cw_is_measuring(r, pid) || !(ct = an_cw_add(r, pid))))
		return;	/* out of memory: the thread is not measured, nothing else is lost */
	ct->armed_ns = expires_ns;
}

/* an_cw_consider - keep this wakeup if it is among the --top worst, with its culprits */
static void an_cw_consider(struct an_run *r, struct an_thread *th, int cpu, uint32_t n, int64_t release_ns,
			   int64_t ts)
{
	struct an_cw *cw = r->cw;
	struct an_culprit c = { 0 };
	int i;

	if (r->opt.top <= 0 || (cw->ntop == r->opt.top && ts - release_ns <= cw->top[cw->ntop - 1].c.latency_ns))
		return;
	if (!cw->top && !(cw->top = calloc((size_t)r->opt.top, sizeof(*cw->top))))
		return;
	c.seq = n;
	c.cpu = cpu;
	c.pid = th->pid;
	c.release_ns = c.from_ns = release_ns;
	c.start_ns = c.switch_in_ns = ts;
	c.latency_ns = ts - release_ns;
	c.waking_ns = th->last_waking_ns;
	c.timer_ns = th->last_timer_ns;
	c.waker_pid = th->last_waker_pid;
	an_culprit_fill(r, th, cpu, &c);
	if (cw->ntop < r->opt.top)
		cw->ntop++;
	for (i = cw->ntop - 1; i > 0 && cw->top[i - 1].c.latency_ns < c.latency_ns; i--)
		cw->top[i] = cw->top[i - 1];
	cw->top[i] = (struct an_cw_worst){ .c = c };
}

int an_cw_on_switch(struct an_run *r, int cpu, int64_t ts, int prev_pid, int prev_prio, int next_pid)
{
	struct an_cw_thread *ct = NULL;
	struct an_thread *th;
	int64_t release_ns = 0;

	/* found by their hrtimer_start, else (a trace without it) when one of them blocks */
	if (prev_prio < 100 && prev_pid > 0 && !(ct = an_cw_find(r->cw, prev_pid)) && an_cw_is_measuring(r, prev_pid) &&
	    !(ct = an_cw_add(r, prev_pid)))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	if (!r->cw)
		return 0;
	if ((ct || (ct = an_cw_find(r->cw, prev_pid))) && (th = an_thread_find(r, prev_pid)) && !th->runnable) {
		if (ct->sleep_ns && th->last_waking_ns >= ct->sleep_ns)
			r->cw->unresolved++;	/* it ran since it last slept, its switch-in unseen */
		ct->sleep_until_ns = ct->armed_ns;	/* blocked: asleep until the expiry it armed */
		ct->armed_ns = 0;
		ct->sleep_ns = ts;
	}
	if (!(ct = an_cw_find(r->cw, next_pid)) || !ct->sleep_ns || !(th = an_thread_find(r, next_pid)))
		return 0;
	/* woken since it blocked, and switched in now (a switch-in inferred later is no sample) */
	if (th->last_waking_ns >= ct->sleep_ns && (th->last_switch_in_ns != ts || th->last_inferred))
		r->cw->unresolved++;
	if (th->last_switch_in_ns == ts && !th->last_inferred && th->last_waking_ns >= ct->sleep_ns) {
		if (ct->sleep_until_ns) {
			release_ns = ct->sleep_until_ns;
			r->cw->from_start++;
		} else if (!r->n_hrtimer_start && th->last_timer_ns >= ct->sleep_ns) {
			release_ns = th->last_timer_ns;
			r->cw->from_expiry++;
		} else {
			r->cw->unmeasured++;
		}
	}
	/* a waking before the expiry is no timer wakeup (a signal: cyclictest is ending) */
	if (release_ns && release_ns <= th->last_waking_ns && release_ns <= ts) {
		ct->wakeups++;
		ct->cpu = cpu;
		if (an_stat_add(&ct->lat, ts - release_ns, ts, ct->pid))
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		an_cw_consider(r, th, cpu, (uint32_t)ct->wakeups, release_ns, ts);
	}
	ct->sleep_ns = ct->sleep_until_ns = 0;
	return 0;
}

int an_cw_merge(struct an_run *r, struct an_run *s, const char *file)
{
	struct an_cw_thread *d, *t;
	size_t i;
	int k, j;

	if (!s->cw)
		return 0;
	if (!r->cw && !(r->cw = calloc(1, sizeof(*r->cw))))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	r->cw->snapshots++;
	r->cw->from_start += s->cw->from_start;
	r->cw->from_expiry += s->cw->from_expiry;
	r->cw->unmeasured += s->cw->unmeasured;
	r->cw->unresolved += s->cw->unresolved;
	for (i = 0; i < s->cw->nth; i++) {
		t = &s->cw->th[i];
		if (!(d = an_cw_find(r->cw, t->pid)) && !(d = an_cw_add(r, t->pid)))
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		if (pf_hist_merge(&d->lat.h, &t->lat.h))
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		d->wakeups += t->wakeups;
		if (t->cpu >= 0)
			d->cpu = t->cpu;
	}
	if (r->opt.top > 0 && !r->cw->top && !(r->cw->top = calloc((size_t)r->opt.top, sizeof(*r->cw->top))))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	for (k = 0; k < s->cw->ntop; k++) {
		struct an_cw_worst w = s->cw->top[k];
		struct an_cw *cw = r->cw;

		for (j = 0; j < cw->ntop; j++)	/* overlapping snapshots: the earlier file's */
			if (cw->top[j].c.pid == w.c.pid && cw->top[j].c.release_ns == w.c.release_ns)
				break;
		if (j < cw->ntop || r->opt.top <= 0 ||
		    (cw->ntop == r->opt.top && w.c.latency_ns <= cw->top[cw->ntop - 1].c.latency_ns))
			continue;
		w.snapshot = file;
		if (cw->ntop < r->opt.top)
			cw->ntop++;
		for (j = cw->ntop - 1; j > 0 && cw->top[j - 1].c.latency_ns < w.c.latency_ns; j--)
			cw->top[j] = cw->top[j - 1];
		cw->top[j] = w;
	}
	return 0;
}

static int an_cw_pid_cmp(const void *a, const void *b)
{
	const struct an_cw_thread *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * an_cw_reported - cyclictest's own entry (threads[] of the import) for the
 * measuring thread at index k of nth (sorted by tid): the one on the same CPU
 * when only one is, else the k-th when the counts agree (cyclictest makes its
 * threads in order); NULL when it cannot be told
 */
static json_t *an_cw_reported(const struct an_run *r, const struct an_cw_thread *ct, size_t k, size_t nth)
{
	json_t *arr = json_object_get(r->cyclictest, "threads"), *o, *found = NULL;
	size_t i, same = 0;

	json_array_foreach(arr, i, o)
		if (ct->cpu >= 0 && json_integer_value(json_object_get(o, "cpu")) == ct->cpu &&
		    json_is_integer(json_object_get(o, "cpu"))) {
			found = o;
			same++;
		}
	if (same == 1)
		return found;
	return json_array_size(arr) == nth ? json_array_get(arr, k) : NULL;
}

/* an_cw_head - the head of a worst wakeup's summary line: the thread, the wakeup, when its timer expired */
static void an_cw_head(const struct an_cw_worst *w, const char *name, char *buf, size_t size)
{
	char d[32];

	an_fmt_us(d, sizeof(d), w->c.latency_ns);
	snprintf(buf, size, "cyclictest %s (tid %d) wakeup %u on CPU %d, timer expiry at %lld.%09lld s: %s late",
		 name, w->c.pid, w->c.seq, w->c.cpu, (long long)(w->c.release_ns / PF_NS_PER_SEC),
		 (long long)(w->c.release_ns % PF_NS_PER_SEC), d);
}

void an_cw_fold(struct an_run *r, json_t *res)
{
	struct an_cw *cw = r->cw;
	json_t *o, *threads, *worst, *rep, *w;
	char names[64][16], line[640];
	size_t i, len;
	int k;

	if (!cw || !cw->nth) {
		json_object_set_new(res, "cyclictest_wakeups", json_null());
		return;
	}
	qsort(cw->th, cw->nth, sizeof(*cw->th), an_cw_pid_cmp);
	o = json_object();
	threads = json_array();
	worst = json_array();
	json_object_set_new(o, "source", json_string(cw->snapshots ? "snapshots" : "trace"));
	json_object_set_new(o, "release_from", json_string(!cw->from_expiry ? "hrtimer_start" :
							   !cw->from_start ? "hrtimer_expire_entry" : "mixed"));
	json_object_set_new(o, "wakeups_unmeasured", json_integer((json_int_t)cw->unmeasured));
	json_object_set_new(o, "wakeups_unresolved", json_integer((json_int_t)cw->unresolved));
	for (i = 0; i < cw->nth; i++) {
		struct an_cw_thread *ct = &cw->th[i];
		json_t *t = json_object(), *rmax;
		json_t *lat = an_stat_json(&ct->lat), *max = json_object_get(lat, "max");

		rep = an_cw_reported(r, ct, i, cw->nth);
		rmax = json_object_get(json_object_get(rep, "latency_ns"), "max");
		if (i < PF_ARRAY_SIZE(names))
			snprintf(names[i], sizeof(names[i]), "%s", json_string_value(json_object_get(rep, "name")) ?: "");
		json_object_set_new(t, "name", rep ? json_incref(json_object_get(rep, "name")) : json_null());
		json_object_set_new(t, "tid", json_integer(ct->pid));
		json_object_set_new(t, "cpu", ct->cpu >= 0 ? json_integer(ct->cpu) : json_null());
		json_object_set_new(t, "wakeups", json_integer((json_int_t)ct->wakeups));
		json_object_set_new(t, "latency_ns", lat);
		json_object_set_new(t, "reported_max_ns", json_is_integer(rmax) ? json_incref(rmax) : json_null());
		json_object_set_new(t, "reported_minus_max_ns", json_is_integer(rmax) && json_is_integer(max) ?
				    json_integer(json_integer_value(rmax) - json_integer_value(max)) : json_null());
		json_array_append_new(threads, t);
	}
	for (k = 0; k < cw->ntop; k++) {
		const struct an_cw_worst *x = &cw->top[k];
		const struct an_cw_thread *ct = an_cw_find(cw, x->c.pid);
		size_t idx = ct ? (size_t)(ct - cw->th) : PF_ARRAY_SIZE(names);
		const char *name = idx < PF_ARRAY_SIZE(names) && names[idx][0] ? names[idx] : "thread";

		w = json_object();
		json_object_set_new(w, "thread", idx < PF_ARRAY_SIZE(names) && names[idx][0] ? json_string(names[idx])
											   : json_null());
		json_object_set_new(w, "tid", json_integer(x->c.pid));
		json_object_set_new(w, "wakeup", json_integer(x->c.seq));
		an_culprit_parts_json("cyclictest", &x->c, w);
		json_object_set_new(w, "snapshot", x->snapshot ? json_string(x->snapshot) : json_null());
		an_cw_head(x, name, line, sizeof(line));
		len = strlen(line);
		an_culprit_parts_text(r, "cyclictest", &x->c, line + len, sizeof(line) - len);
		json_object_set_new(w, "summary", json_string(line));
		json_array_append_new(worst, w);
	}
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
	for (i = 0; i < r->cw->nth; i++)
		an_stat_free(&r->cw->th[i].lat);
	free(r->cw->th);
	free(r->cw->top);
	free(r->cw);
	r->cw = NULL;
}
