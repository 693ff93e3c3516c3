/*
 * tasks.c - the app's tasks: declarations and job markers from the trace
 * (docs/markers.md), job-log rows (docs/joblog.md), and what is derived from
 * them per job - activation latency, response and execution time,
 * preemptions and migrations inside the job, overruns, deadline misses,
 * missed activations, the latency decomposition, slot overruns, and the
 * culprits of the worst activations.
 *
 * A job is held only from its start marker to its end marker; only the worst
 * --top activations of each task are kept, so memory does not grow with the
 * trace.
 */
#define _GNU_SOURCE
#include "tasks.h"
#include "sched.h"
#include "jobs_csv.h"
#include "timeline.h"
#include "rt.h"
#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int an_stat_init(struct an_stat *s, int64_t width, uint32_t nbins, const char *unit)
{
	s->unit = unit;
	pf_hist_init(&s->h);	/* log-linear: width and nbins no longer shape it */
	return 0;
}

void an_stat_free(struct an_stat *s)
{
	pf_hist_free(&s->h);
}

int an_stat_add(struct an_stat *s, int64_t v, int64_t at, int64_t id)
{
	return pf_hist_add(&s->h, v, at, id);
}

/* an_stat_json - the statistics object of docs/results.md */
json_t *an_stat_json(struct an_stat *s)
{
	return pf_hist_json(&s->h, s->unit);
}

/* an_task_stats - every distribution of a task, with its binning */
static int an_task_stats(struct an_task *t)
{
	struct { struct an_stat *s; uint32_t nbins; int64_t width; const char *unit; } st[] = {
		{ &t->lat, AN_LAT_NBINS, AN_LAT_BIN_NS, "ns" }, { &t->resp, AN_DUR_NBINS, AN_LAT_BIN_NS, "ns" },
		{ &t->exec, AN_DUR_NBINS, AN_LAT_BIN_NS, "ns" }, { &t->cpu, AN_DUR_NBINS, AN_LAT_BIN_NS, "ns" },
		{ &t->pjit, AN_LAT_NBINS, AN_LAT_BIN_NS, "ns" },
		{ &t->npre, AN_CNT_NBINS, 1, "count" }, { &t->nmig, AN_CNT_NBINS, 1, "count" },
		{ &t->d_timer, AN_LAT_NBINS, AN_LAT_BIN_NS, "ns" }, { &t->d_rel2wake, AN_LAT_NBINS, AN_LAT_BIN_NS, "ns" },
		{ &t->d_wake2run, AN_LAT_NBINS, AN_LAT_BIN_NS, "ns" }, { &t->d_app, AN_LAT_NBINS, AN_LAT_BIN_NS, "ns" },
		{ &t->d_wake2start, AN_LAT_NBINS, AN_LAT_BIN_NS, "ns" },
		{ &t->d_observer, AN_LAT_NBINS, AN_LAT_BIN_NS, "ns" }, { &t->wlat, AN_LAT_NBINS, AN_LAT_BIN_NS, "ns" },
		{ &t->jl_lat, AN_LAT_NBINS, AN_LAT_BIN_NS, "ns" }, { &t->jl_resp, AN_DUR_NBINS, AN_LAT_BIN_NS, "ns" },
		{ &t->jl_cpu, AN_DUR_NBINS, AN_LAT_BIN_NS, "ns" }, { &t->diff, AN_LAT_NBINS, 100, "ns" },
		{ &t->ediff, AN_LAT_NBINS, 100, "ns" },
	};
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(st); i++)
		if (an_stat_init(st[i].s, st[i].width, st[i].nbins, st[i].unit))
			return -ENOMEM;
	return 0;
}

/* an_task_by_name - the task called name; created when 'create' (NULL if out of memory) */
struct an_task *an_task_by_name(struct an_run *r, const char *name, bool create)
{
	struct an_task *t;
	int i;

	for (i = 0; i < r->ntasks; i++)
		if (!strcmp(r->task[i]->name, name))
			return r->task[i];
	if (!create || r->ntasks >= (int)PF_ARRAY_SIZE(r->task))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->id = -1;
	t->prio = -1;
	if (an_task_stats(t)) {
		free(t);
		return NULL;
	}
	t->top = calloc(r->opt.top > 0 ? r->opt.top : 1, sizeof(*t->top));
	if (!t->top) {
		free(t);
		return NULL;
	}
	r->task[r->ntasks++] = t;
	return t;
}

/* an_task_of_id - the task of a marker id; an undeclared id becomes "task<id>" */
static struct an_task *an_task_of_id(struct an_run *r, int id, int pid)
{
	char name[32];
	struct an_task *t = r->task_by_id[id];

	if (t)
		return t;
	snprintf(name, sizeof(name), "task%d", id);
	t = an_task_by_name(r, name, true);
	if (!t)
		return NULL;
	t->id = id;
	t->tid = pid;
	t->in_trace = true;
	r->task_by_id[id] = t;
	return t;
}

/* an_kv - the value of "key=" in a declaration line */
static bool an_kv(const char *line, const char *key, char *out, size_t size)
{
	const char *p = line;
	size_t klen = strlen(key), n;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			n = strcspn(p, " \n");
			if (n >= size)
				n = size - 1;
			memcpy(out, p, n);
			out[n] = '\0';
			return true;
		}
		p += klen;
	}
	return false;
}

/* an_kv_ll - a numeric "key=" value of a declaration, dflt when absent */
static long long an_kv_ll(const char *line, const char *key, long long dflt)
{
	char v[32], *end;
	long long x;

	if (!an_kv(line, key, v, sizeof(v)))
		return dflt;
	x = strtoll(v, &end, 10);
	return *end ? dflt : x;
}

/*
 * an_task_declare - a task as the app declares it: a 'pf1 T' marker in the
 * trace, or a '# task.NAME=' line of the job log ("id=0 kind=tick period_ns=...
 * deadline_ns=... policy=fifo prio=90"). The trace's declaration wins. A task
 * counts in the app's utilisation when it runs SCHED_FIFO / RR.
 */
struct an_task *an_task_declare(struct an_run *r, const char *name, int id, const char *kv, bool from_trace)
{
	struct an_task *t = an_task_by_name(r, name, true);
	char kind[16];

	if (!t || (t->declared && t->in_trace && !from_trace))
		return t;
	if (id >= 0 && id < AN_MAX_TASKS) {
		t->id = id;
		r->task_by_id[id] = t;
	}
	t->declared = true;
	t->in_trace |= from_trace;
	t->period_ns = an_kv_ll(kv, "period_ns", 0);
	t->deadline_ns = an_kv_ll(kv, "deadline_ns", 0);
	if (!t->deadline_ns)
		t->deadline_ns = t->period_ns;
	t->prio = (int)an_kv_ll(kv, "prio", -1);
	if (!an_kv(kv, "policy", t->policy, sizeof(t->policy)))
		snprintf(t->policy, sizeof(t->policy), "other");
	t->background = an_kv(kv, "kind", kind, sizeof(kind)) ? !strcmp(kind, "background")
		      : !t->period_ns && !t->deadline_ns;
	t->app = !strcmp(t->policy, "fifo") || !strcmp(t->policy, "rr");
	return t;
}

/*
 * an_app_resolve - the app's threads are its realtime tasks; in a run
 * without realtime (flightapp --no-rt) every declared task but the
 * background ones stands for them, so the figure still means something
 */
void an_app_resolve(struct an_run *r)
{
	struct an_thread *th;
	int i;

	if (r->app_resolved)
		return;
	r->app_resolved = true;
	for (i = 0; i < r->ntasks; i++)
		if (r->task[i]->app)
			return;
	for (i = 0; i < r->ntasks; i++) {
		if (!r->task[i]->declared || r->task[i]->background)
			continue;
		r->task[i]->app = true;
		r->app_no_rt = true;
		if (r->task[i]->tid && (th = an_thread_find(r, r->task[i]->tid)))
			th->app_rt = true;
	}
}

int an_marker_order(const char *path, unsigned long long offset, char kind, int task_id, uint32_t seq,
		    int64_t ts, int64_t release_ns)
{
	if (release_ns <= ts)
		return 0;
	return pf_fail(PF_EXIT_USAGE, "%s: offset %llu: corrupt marker: task %d job %u %s at %lld.%09lld s, before its "
		       "release at %lld.%09lld s: a negative %s (the trace clock is not the app's CLOCK_MONOTONIC?)",
		       path, offset, task_id, seq, kind == 'S' ? "started" : "ended", (long long)(ts / PF_NS_PER_SEC),
		       (long long)(ts % PF_NS_PER_SEC), (long long)(release_ns / PF_NS_PER_SEC),
		       (long long)(release_ns % PF_NS_PER_SEC), kind == 'S' ? "activation latency" : "response time");
}

int an_on_marker_text(struct an_run *r, int cpu, int64_t ts, int pid, const char *s, int len,
		      const char *path, unsigned long long offset)
{
	char line[256], kind, name[64], quoted[4 * sizeof(line)];
	unsigned long long seq, rel, flags = 0;
	int id, n;
	struct an_task *t;
	struct an_thread *th;

	if (len >= (int)sizeof(line))
		len = sizeof(line) - 1;
	memcpy(line, s, len);
	line[len] = '\0';
	if (sscanf(line, "pf1 %c %d%n", &kind, &id, &n) != 2 || id < 0 || id >= AN_MAX_TASKS)
		return 0;	/* not ours, or malformed: left alone */
	if (kind == 'T') {
		if (sscanf(line + n, " %63s", name) != 1)
			return 0;
		if (!pf_task_name_valid(name))
			return pf_fail(PF_EXIT_USAGE, "%s: offset %llu: bad task marker '%s': task name is not %s",
				       path, offset, pf_quote_bytes(strtok(line, "\n"), quoted, sizeof(quoted)),
				       PF_TASK_NAME_SYNTAX);
		t = an_task_declare(r, name, id, line, true);
		if (!t)
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		t->tid = (int)an_kv_ll(line, "tid", pid);
		th = an_thread_get(r, t->tid);
		if (th) {
			th->task = t;
			th->app_rt = t->app;
		}
		return 0;
	}
	if (kind == 'S' && sscanf(line + n, " %llu %llu", &seq, &rel) == 2)
		return an_marker_order(path, offset, kind, id, (uint32_t)seq, ts, (int64_t)rel) ? :
		       an_on_marker_start(r, cpu, ts, pid, id, (uint32_t)seq, (int64_t)rel);
	if (kind == 'E' && sscanf(line + n, " %llu %llu %llu", &seq, &rel, &flags) >= 2)
		return an_marker_order(path, offset, kind, id, (uint32_t)seq, ts, (int64_t)rel) ? :
		       an_on_marker_end(r, cpu, ts, pid, id, (uint32_t)seq, (int64_t)rel, (unsigned)flags);
	return 0;
}

/* an_contrib_add - add time to a contributor of a culprit under construction */
static void an_contrib_add(struct an_contrib *cs, int *n, int cap, int kind, int32_t id,
			   const char *name, int64_t dur_ns)
{
	int i;

	for (i = 0; i < *n; i++)
		if (cs[i].kind == kind && cs[i].id == id) {
			cs[i].dur_ns += dur_ns;
			return;
		}
	if (*n >= cap)
		return;
	cs[*n].kind = kind;
	cs[*n].id = id;
	cs[*n].dur_ns = dur_ns;
	snprintf(cs[*n].name, sizeof(cs[*n].name), "%s", name);
	(*n)++;
}

static int an_contrib_cmp(const void *a, const void *b)
{
	const struct an_contrib *x = a, *y = b;

	return (x->dur_ns < y->dur_ns) - (x->dur_ns > y->dur_ns);
}

/* an_thread_name - comm of a pid for a culprit line */
static const char *an_thread_name(struct an_run *r, int pid, char *buf, size_t size)
{
	const char *comm = an_thread_comm(r, pid);

	if (comm && comm[0])
		return comm;
	snprintf(buf, size, "pid %d", pid);
	return buf;
}

/* an_seg_account - one piece of CPU history overlapping [from, to] into the contributors */
static void an_seg_account(struct an_run *r, const struct an_seg *s, int self, int64_t from, int64_t to,
			   struct an_contrib *cs, int *n, int cap)
{
	int64_t a = s->start_ns > from ? s->start_ns : from;
	int64_t b = s->end_ns < to ? s->end_ns : to;
	char buf[AN_LABEL_LEN], nb[24];
	const char *tn;

	if (b <= a)
		return;
	switch (s->kind) {
	case AN_SEG_THREAD:
		if (s->id == self)
			an_contrib_add(cs, n, cap, AN_C_SELF, s->id, "itself", b - a);
		else if (s->id == 0)
			an_contrib_add(cs, n, cap, AN_C_IDLE, 0, "idle", b - a);
		else
			an_contrib_add(cs, n, cap, AN_C_THREAD, s->id, an_thread_name(r, s->id, nb, sizeof(nb)), b - a);
		return;
	case AN_SEG_IRQ:
		an_irq_label(buf, sizeof(buf), s->id, s->name < r->nnames ? r->names[s->name] : "?");
		an_contrib_add(cs, n, cap, AN_C_IRQ, s->id, buf, b - a);
		break;
	case AN_SEG_SOFTIRQ:
		tn = s->pid > 0 ? an_thread_name(r, s->pid, nb, sizeof(nb)) : "";
		if (!strncmp(tn, "ksoftirqd/", 10) || !strncmp(tn, "ktimers/", 8))
			snprintf(buf, sizeof(buf), "%s (%s)", tn, an_softirq_name(s->id));
		else
			snprintf(buf, sizeof(buf), "softirq %s", an_softirq_name(s->id));
		an_contrib_add(cs, n, cap, AN_C_SOFTIRQ, s->id, buf, b - a);
		break;
	}
	/* IRQ time is not the interrupted thread's (or softirq's): take it back */
	if (s->in_softirq)
		an_contrib_add(cs, n, cap, AN_C_SOFTIRQ, s->softirq_vec, "", -(b - a));
	else if (s->pid == self)
		an_contrib_add(cs, n, cap, AN_C_SELF, self, "itself", -(b - a));
	else if (s->pid == 0)
		an_contrib_add(cs, n, cap, AN_C_IDLE, 0, "idle", -(b - a));
	else if (s->pid > 0)
		an_contrib_add(cs, n, cap, AN_C_THREAD, s->pid, an_thread_name(r, s->pid, nb, sizeof(nb)), -(b - a));
}

/*
 * an_clock_res_ns - the resolution of the trace clock: a nanosecond for the
 * clocks that count them (mono, local, global, boot, perf, ...); for uptime
 * (jiffies) one tick (--tick)
 */
static int64_t an_clock_res_ns(const struct an_run *r)
{
	return !strcmp(r->clock, "uptime") ? r->opt.tick_ns : 1;
}

/*
 * an_cpu_history - the closed history of a CPU overlapping [from, to] into
 * the contributors ('self' the thread whose own time it is); the oldest
 * start the history holds
 */
static int64_t an_cpu_history(struct an_run *r, const struct an_cpu *cp, int self, int64_t from, int64_t to,
			      struct an_contrib *cs, int *n, int cap)
{
	int64_t oldest = INT64_MAX;
	uint32_t i, k;

	for (i = 0; i < cp->hist_n; i++) {
		k = (cp->hist_head + AN_CPU_HISTORY - 1 - i) % AN_CPU_HISTORY;
		if (cp->hist[k].start_ns < oldest)
			oldest = cp->hist[k].start_ns;
		if (cp->hist[k].end_ns <= from && cp->hist[k].kind == AN_SEG_THREAD)
			break;
		an_seg_account(r, &cp->hist[k], self, from, to, cs, n, cap);
	}
	return oldest;
}

/*
 * an_cpu_irq_of - the interrupt time (hard IRQs, softirqs not in ksoftirqd)
 * of a CPU's closed history in [from, to] taken from thread 'self'
 */
static int64_t an_cpu_irq_of(const struct an_cpu *cp, int self, int64_t from, int64_t to)
{
	int64_t sum = 0, a, b;
	uint32_t i, k;

	for (i = 0; i < cp->hist_n; i++) {
		const struct an_seg *s;

		k = (cp->hist_head + AN_CPU_HISTORY - 1 - i) % AN_CPU_HISTORY;
		s = &cp->hist[k];
		if (s->end_ns <= from && s->kind == AN_SEG_THREAD)
			break;
		if (s->kind == AN_SEG_THREAD || s->in_softirq || s->pid != self)
			continue;
		a = s->start_ns > from ? s->start_ns : from;
		b = s->end_ns < to ? s->end_ns : to;
		sum += b > a ? b - a : 0;
	}
	return sum;
}

/*
 * an_cpu_account - what ran on a CPU in [from, to], its open run included,
 * as contributors largest first ('self' the thread whose own time it is);
 * their number (an_rt_woken_by: what kept a waker from running)
 */
static int an_cpu_account(struct an_run *r, int cpu, int self, int64_t from, int64_t to,
			  struct an_contrib *cs, int cap)
{
	const struct an_cpu *cp = &r->cpu[cpu];
	struct an_seg open;
	int n = 0;

	an_cpu_history(r, cp, self, from, to, cs, &n, cap);
	if (cp->known) {
		open = (struct an_seg){ cp->curr_since_ns, to, cp->curr, cp->curr, 0, AN_SEG_THREAD, 0, 0 };
		an_seg_account(r, &open, self, from, to, cs, &n, cap);
	}
	qsort(cs, n, sizeof(cs[0]), an_contrib_cmp);
	return n;
}

/*
 * an_culprit_parts - keep the largest contributors; when there are more than
 * fit, the smallest are summed into one "N others", so the parts kept still
 * add up to what ran
 */
static void an_culprit_parts(struct an_culprit *c, struct an_contrib *cs, int n)
{
	int j, npos = 0;

	qsort(cs, n, sizeof(cs[0]), an_contrib_cmp);
	for (j = 0; j < n; j++)
		npos += cs[j].dur_ns > 0;
	c->ncontrib = 0;
	for (j = 0; j < n && cs[j].dur_ns > 0; j++) {
		if (npos > AN_MAX_CONTRIB && c->ncontrib == AN_MAX_CONTRIB - 1) {
			struct an_contrib *o = &c->contrib[c->ncontrib++];

			*o = (struct an_contrib){ .kind = AN_C_OTHERS, .id = npos - j };
			for (; j < n && cs[j].dur_ns > 0; j++)
				o->dur_ns += cs[j].dur_ns;
			snprintf(o->name, sizeof(o->name), "%d others", o->id);
			break;
		}
		c->contrib[c->ncontrib++] = cs[j];
	}
}

#define AN_SILENT_MIN_NS (10 * 1000)	/* less silence before a timer interrupt is its entry's own latency */

/*
 * an_culprit_silent - the part of the wait for a late timer interrupt in
 * which the CPU showed no event at all (c->silent_from_ns .. _to_ns, as
 * sched.c saw it end): no thread, idle or not, held the timer off then, so
 * that time is taken back from what ran and becomes one contributor of kind
 * silent - interrupts off or the CPU not running (a host's steal) - which
 * explains nothing. Only in a trace of interrupts without lost events there,
 * and when it is AN_SILENT_MIN_NS or more; its length (0: none, and the
 * window is cleared)
 */
static int64_t an_culprit_silent(struct an_run *r, int cpu, int self, struct an_culprit *c,
				 struct an_contrib *cs, int *n, int cap)
{
	struct an_contrib quiet[64];
	int64_t a = c->silent_from_ns > c->from_ns ? c->silent_from_ns : c->from_ns;
	int64_t b = c->silent_to_ns < c->start_ns ? c->silent_to_ns : c->start_ns;
	int k, nq;

	if (!c->timer_ns || !c->silent_from_ns || b - a < AN_SILENT_MIN_NS || !(r->n_irq || r->n_vec) ||
	    an_lost_overlaps(r, c->silent_from_ns, c->silent_to_ns)) {
		c->silent_from_ns = c->silent_to_ns = 0;
		return 0;
	}
	nq = an_cpu_account(r, cpu, self, a, b, quiet, PF_ARRAY_SIZE(quiet));
	for (k = 0; k < nq; k++)
		an_contrib_add(cs, n, cap, quiet[k].kind, quiet[k].id, quiet[k].name, -quiet[k].dur_ns);
	an_contrib_add(cs, n, cap, AN_C_SILENT, cpu, "silent", b - a);
	return b - a;
}

/*
 * an_culprit_fill - what ran on the CPU between c->from_ns (the release, or
 * the waking when another app task released it) and the start of this
 * activation, from the CPU's recent history and what is open now; the parts'
 * sum, and whether they add up to the latency
 */
void an_culprit_fill(struct an_run *r, struct an_thread *th, int cpu, struct an_culprit *c)
{
	struct an_contrib cs[64];
	struct an_cpu *cp = &r->cpu[cpu];
	struct an_seg open;
	int n = 0, j;
	int64_t oldest, from = c->from_ns, silent;

	oldest = an_cpu_history(r, cp, th->pid, from, c->start_ns, cs, &n, PF_ARRAY_SIZE(cs));
	if (cp->known && cp->curr == th->pid && cp->curr_since_ns >= from) {
		/*
		 * switched in for this job: the rest is the app's own delay, but for
		 * the interrupts in it, which the history took back from "itself"
		 */
		int64_t irq = an_cpu_irq_of(cp, th->pid, cp->curr_since_ns, c->start_ns);

		an_contrib_add(cs, &n, PF_ARRAY_SIZE(cs), AN_C_SELF, th->pid, "itself", irq);
		an_contrib_add(cs, &n, PF_ARRAY_SIZE(cs), AN_C_APP, th->pid, "app delay",
			       c->start_ns - cp->curr_since_ns - irq);
	} else if (cp->known) {
		open = (struct an_seg){ cp->curr_since_ns, c->start_ns, cp->curr, cp->curr, 0, AN_SEG_THREAD, 0, 0 };
		an_seg_account(r, &open, th->pid, from, c->start_ns, cs, &n, PF_ARRAY_SIZE(cs));
	}
	if (cp->known) {
		if (cp->curr_since_ns < oldest)
			oldest = cp->curr_since_ns;
	}
	/* a trace without sched_switch has only switches inferred from events: no history to explain by */
	/* ... nor one whose history begins after it (a flight-recorder window that starts late) */
	c->history = r->n_switch && cp->known && cp->first_ns <= from &&
		     (oldest <= from || cp->hist_n < AN_CPU_HISTORY);
	silent = an_culprit_silent(r, cpu, th->pid, c, cs, &n, PF_ARRAY_SIZE(cs));
	c->explained_ns = from - c->release_ns;
	for (j = 0; j < n; j++)
		c->explained_ns += cs[j].kind == AN_C_SILENT ? 0 : cs[j].dur_ns;
	c->complete = c->history && llabs(c->latency_ns - c->explained_ns - silent) <= an_clock_res_ns(r);
	an_culprit_parts(c, cs, n);
}

/*
 * an_releaser_of - the app task whose thread woke one of task t at waking_ns
 * (the chain: ctl100 released by io), in its job released by then and not
 * ended (the tick wakes the tasks of its slot before or after its own start
 * marker); NULL when a timer, an IRQ or any other thread woke it
 */
static struct an_task *an_releaser_of(struct an_run *r, const struct an_task *t, int32_t waker_pid, int64_t waking_ns)
{
	struct an_thread *w = waker_pid > 0 ? an_thread_find(r, waker_pid) : NULL;
	struct an_task *rt = w ? w->task : NULL;

	if (!rt || rt == t || !rt->cur.start_ns || rt->cur.release_ns > waking_ns ||
	    (!rt->job_open && rt->cur.end_ns < waking_ns))
		return NULL;
	return rt;
}

/*
 * an_culprit_releaser - when an app task's thread woke this one, that task
 * and its job then, with the job's own lateness; the contributors then start
 * at the waking
 */
static void an_culprit_releaser(struct an_run *r, const struct an_task *t, struct an_culprit *c)
{
	const struct an_task *rt = an_releaser_of(r, t, c->waker_pid, c->waking_ns);

	if (!rt)
		return;
	snprintf(c->releaser, sizeof(c->releaser), "%s", rt->name);
	c->releaser_seq = rt->cur.seq;
	c->releaser_late_ns = rt->cur.start_ns - rt->cur.release_ns;
	c->from_ns = c->waking_ns;
}

/*
 * an_app_above_ns - how long threads of the app's tasks of a higher priority
 * than t ran on cpu in [from, to], less the interrupts they took: the app's
 * own interference, by its design
 */
static int64_t an_app_above_ns(struct an_run *r, const struct an_task *t, int self, int cpu, int64_t from, int64_t to)
{
	struct an_contrib cs[64];
	struct an_thread *o;
	int64_t sum = 0;
	int k, n;

	if (t->prio < 0 || to <= from)
		return 0;
	n = an_cpu_account(r, cpu, self, from, to, cs, PF_ARRAY_SIZE(cs));
	for (k = 0; k < n; k++)
		if (cs[k].kind == AN_C_THREAD && cs[k].dur_ns > 0 && (o = an_thread_find(r, cs[k].id)) && o->task &&
		    o->task != t && o->task->app && o->task->prio > t->prio)
			sum += cs[k].dur_ns;
	return sum;
}

/*
 * an_job_chain - the wakeup latency of a job starting at ts on cpu
 * (docs/results.md: wakeup_latency_ns) and its root. Woken for it by another
 * app task's job (chained): from that waking, else from the release; less
 * the time the app's tasks of a higher priority ran on its CPU meanwhile.
 * Its root is the releaser's job's when that wait and that interference are
 * the larger part of the activation latency; else itself.
 */
static int64_t an_job_chain(struct an_run *r, struct an_task *t, struct an_thread *th, struct an_job *j, int cpu,
			    int64_t ts)
{
	int64_t wake = th->last_waking_ns, from, lat;
	struct an_task *rt = NULL;

	j->root = (struct an_root){ t, j->seq, j->release_ns };
	if (wake >= j->release_ns && wake <= ts && wake > t->prev_end_ns)
		rt = an_releaser_of(r, t, th->last_waker_pid, wake);
	from = rt ? wake : j->release_ns;
	lat = ts - from - an_app_above_ns(r, t, th->pid, cpu, from, ts);
	if (!rt)
		return lat;
	t->chained_jobs++;
	if (2 * (ts - j->release_ns - lat) >= ts - j->release_ns && rt->cur.root.task)
		j->root = rt->cur.root;
	return lat;
}

/* an_culprit_of - the task's culprit of job seq released at release_ns, NULL when not among its worst */
static struct an_culprit *an_culprit_of(struct an_task *t, uint32_t seq, int64_t release_ns)
{
	int i;

	for (i = 0; i < t->ntop; i++)
		if (t->top[i].seq == seq && t->top[i].release_ns == release_ns)
			return &t->top[i];
	return NULL;
}

/*
 * an_culprit_worse - whether activation a ranks before b among a task's worst: by the wakeup
 * latency, the figure the task is judged on (a chained task's activation latency holds its
 * releaser's work: its worst would be the releaser's), the later activation first among equals;
 * in a snapshot by the activation latency, which the job log ranks by
 */
static bool an_culprit_worse(const struct an_run *r, const struct an_culprit *a, const struct an_culprit *b)
{
	if (!r->opt.top_by_activation && a->wakeup_ns != b->wakeup_ns)
		return a->wakeup_ns > b->wakeup_ns;
	return a->latency_ns > b->latency_ns;
}

/* an_culprit_consider - keep this activation if it is among the task's worst --top (wlat: its wakeup latency) */
static void an_culprit_consider(struct an_run *r, struct an_task *t, struct an_thread *th, int cpu,
				uint32_t seq, int64_t release_ns, int64_t start_ns, int64_t wlat)
{
	struct an_culprit c = { 0 };
	int i;

	if (r->opt.top <= 0)
		return;
	c.latency_ns = start_ns - release_ns;
	c.wakeup_ns = wlat;
	if (t->ntop == r->opt.top && !an_culprit_worse(r, &c, &t->top[t->ntop - 1]))
		return;
	c.seq = seq;
	c.cpu = cpu;
	c.pid = th->pid;
	c.release_ns = release_ns;
	c.start_ns = start_ns;
	c.from_ns = release_ns;
	if (th->last_waking_ns >= release_ns && th->last_waking_ns <= start_ns) {
		c.waking_ns = th->last_waking_ns;
		c.timer_ns = th->last_timer_ns;
		c.silent_from_ns = th->last_quiet_from_ns;
		c.silent_to_ns = th->last_quiet_to_ns;
		c.switch_in_ns = th->last_inferred ? 0 : th->last_switch_in_ns;
		c.waker_pid = th->last_waker_pid;
		an_culprit_releaser(r, t, &c);
		an_rt_woken_by(r, th, &c, an_cpu_account);
	} else if (th->running && th->switch_in_ns >= release_ns) {
		c.switch_in_ns = th->switch_in_ns;
	}
	c.root = t->cur.root;
	an_culprit_fill(r, th, cpu, &c);
	if (t->ntop < r->opt.top)
		t->ntop++;
	for (i = t->ntop - 1; i > 0 && an_culprit_worse(r, &c, &t->top[i - 1]); i--)
		t->top[i] = t->top[i - 1];
	t->top[i] = c;
}

int an_on_marker_start(struct an_run *r, int cpu, int64_t ts, int pid, int task_id, uint32_t seq, int64_t release_ns)
{
	struct an_task *t = an_task_of_id(r, task_id, pid);
	struct an_thread *th;
	struct an_job *j;
	int64_t wlat;

	if (!t)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	th = an_thread_get(r, pid);
	if (!th)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	an_app_resolve(r);
	if (t->app && !th->app_rt && th->pid == t->tid)
		th->app_rt = true;	/* declared by the job log only: its tid is known now */
	if (t->job_open)
		t->trace_only++;	/* its end marker was lost */
	if (!t->tid)
		t->tid = pid;
	th->task = t;
	j = &t->cur;
	memset(j, 0, sizeof(*j));
	j->seq = seq;
	j->release_ns = release_ns;
	j->start_ns = ts;
	j->run_at_start_ns = an_thread_exec_now(th, ts);
	if (th->block_ns > t->prev_end_ns) {
		j->preempt0 = th->block_preempt;
		j->migr0 = th->block_migr;
	} else {
		j->preempt0 = th->preemptions;
		j->migr0 = th->migrations;
	}
	t->job_open = true;

	/* decomposition: only when the thread was woken for this job */
	if (th->last_waking_ns >= release_ns && th->last_waking_ns > t->prev_end_ns &&
	    th->last_switch_in_ns <= ts && th->last_switch_in_ns >= th->last_waking_ns) {
		if (th->last_timer_ns >= release_ns &&
		    an_stat_add(&t->d_timer, th->last_timer_ns - release_ns, release_ns, seq))
			goto oom;
		if (an_stat_add(&t->d_rel2wake, th->last_waking_ns - release_ns, release_ns, seq) ||
		    an_stat_add(&t->d_wake2start, ts - th->last_waking_ns, release_ns, seq))
			goto oom;
		/* after an inferred switch-in, how the rest splits is not known */
		if (!th->last_inferred &&
		    (an_stat_add(&t->d_wake2run, th->last_switch_in_ns - th->last_waking_ns, release_ns, seq) ||
		     an_stat_add(&t->d_app, ts - th->last_switch_in_ns, release_ns, seq)))
			goto oom;
	}
	/* the observer: preflight's own threads on this CPU between release and start */
	if (r->observers_known && ts >= release_ns) {
		int64_t obs_ns = an_observer_ns(r, cpu, release_ns, ts);

		if (an_stat_add(&t->d_observer, obs_ns, release_ns, seq))
			goto oom;
		t->observer_jobs += obs_ns > 0;
	}
	if (t->prev_start_ns && t->period_ns > 0 &&
	    an_stat_add(&t->pjit, (ts - t->prev_start_ns) - t->period_ns, ts, seq))
		goto oom;
	if (t->prev_release_ns && t->period_ns > 0 && release_ns > t->prev_release_ns) {
		int64_t gaps = llround((double)(release_ns - t->prev_release_ns) / (double)t->period_ns) - 1;

		/* a loss between the two releases may have taken those between: not missed, unknown */
		if (gaps > 0 && an_lost_overlaps(r, t->prev_release_ns, release_ns))
			t->hidden_releases += gaps;
		else if (gaps > 0)
			t->missed += gaps;
	}
	wlat = an_job_chain(r, t, th, j, cpu, ts);
	if (an_stat_add(&t->wlat, wlat, release_ns, seq) || an_series_push(&t->wser, release_ns, seq, (double)wlat, 0))
		goto oom;
	t->prev_start_ns = ts;
	t->prev_release_ns = release_ns;
	an_culprit_consider(r, t, th, cpu, seq, release_ns, ts, wlat);
	if (an_tl_step(r, t, ts))
		goto oom;
	return 0;
oom:
	return pf_fail(PF_EXIT_INTERNAL, "out of memory");
}

/* an_slot_job - a base-rate job's contribution to the slot count and overruns */
static void an_slot_job(struct an_run *r, struct an_task *t, int64_t release_ns, int64_t end_ns, int64_t *slot)
{
	int64_t s = r->opt.slot_ns, idx, slot_end;
	int i;

	*slot = -1;
	if (!r->slot_origin_ns) {
		if (t->period_ns != s)
			return;
		r->slot_origin_ns = release_ns;
	}
	idx = (int64_t)floor((double)(release_ns - r->slot_origin_ns) / (double)s + 0.5);
	*slot = idx;
	if (t->period_ns != s)
		return;
	if (release_ns > r->slot_last_ns)
		r->slot_last_ns = release_ns;
	if (!r->slot_first_ns || release_ns < r->slot_first_ns)
		r->slot_first_ns = release_ns;
	slot_end = r->slot_origin_ns + (idx + 1) * s;
	if (end_ns <= slot_end)
		return;
	for (i = 0; i < r->n_overrun_slots; i++)
		if (r->overrun_slots[i] == idx)
			return;
	if (idx == r->last_overrun_slot && r->slot_overruns)
		return;
	r->last_overrun_slot = idx;
	r->slot_overruns++;
	if (r->n_overrun_slots < (int)PF_ARRAY_SIZE(r->overrun_slots))
		r->overrun_slots[r->n_overrun_slots++] = idx;
}

/*
 * an_job_late - whether a job that ended at end_ns overran (still running at its next release:
 * e_k > r_k + T) and missed its deadline (e_k - r_k > D), by its times or by the app's flags: one
 * rule for the trace's jobs and the job log's rows (docs/results.md). The app flags an overrun only
 * when a release reached the task while it ran, so a job of a task released by another (ctl100 by
 * io) whose releaser was itself late ends after its next release unflagged
 */
static void an_job_late(const struct an_task *t, int64_t release_ns, int64_t end_ns, unsigned flags,
			bool *overrun, bool *miss)
{
	*overrun = (t->period_ns > 0 && end_ns > release_ns + t->period_ns) || (flags & PF_JL_OVERRUN);
	*miss = (t->deadline_ns > 0 && end_ns - release_ns > t->deadline_ns) || (flags & PF_JL_DEADLINE);
}

int an_on_marker_end(struct an_run *r, int cpu, int64_t ts, int pid, int task_id, uint32_t seq,
		     int64_t release_ns, unsigned flags)
{
	struct an_task *t = an_task_of_id(r, task_id, pid);
	struct an_thread *th = an_thread_get(r, pid);
	struct an_job *j;
	int64_t exec_ns, resp_ns, slot;
	uint64_t npre, nmig;
	bool overrun, miss;
	int ret;

	if (!t || !th)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	j = &t->cur;
	if (!t->job_open || j->seq != seq) {
		t->trace_only++;	/* its start marker was lost */
		return 0;
	}
	t->job_open = false;
	j->end_ns = ts;
	exec_ns = an_thread_exec_now(th, ts) - j->run_at_start_ns;
	resp_ns = ts - j->release_ns;
	/*
	 * from consistent input (an_marker_order) none of these is below zero: a
	 * trace whose switches contradict its markers (160 mutated reference
	 * traces gave one), or this program's error; never a value
	 */
	if (exec_ns < 0 || resp_ns < 0 || j->start_ns < j->release_ns)
		return pf_fail(PF_EXIT_USAGE, "%s: task %s job %u (released at %lld.%09lld s): %s %lld ns below zero "
			       "computed from the trace: its switches contradict its markers (a corrupt trace, "
			       "or an error of the analysis: please report it)",
			       r->opt.trace, t->name, seq, (long long)(j->release_ns / PF_NS_PER_SEC),
			       (long long)(j->release_ns % PF_NS_PER_SEC),
			       exec_ns < 0 ? "an execution time" : "a response time or latency",
			       (long long)(exec_ns < 0 ? exec_ns : resp_ns < 0 ? resp_ns : j->start_ns - j->release_ns));
	npre = th->preemptions - j->preempt0;
	nmig = th->migrations - j->migr0;
	an_job_late(t, j->release_ns, ts, flags, &overrun, &miss);
	j->lost = an_lost_overlaps(r, j->release_ns, ts);
	t->jobs++;
	t->overruns += overrun;
	t->deadline_misses += miss;
	t->lost_jobs += j->lost;
	t->preemptions += npre;
	t->migrations += nmig;
	if (an_stat_add(&t->lat, j->start_ns - j->release_ns, j->release_ns, seq) ||
	    an_stat_add(&t->resp, resp_ns, j->release_ns, seq) ||
	    an_stat_add(&t->exec, exec_ns, j->release_ns, seq) ||
	    an_stat_add(&t->npre, (int64_t)npre, j->release_ns, seq) ||
	    an_stat_add(&t->nmig, (int64_t)nmig, j->release_ns, seq))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	t->prev_end_ns = ts;
	an_rt_job_end(t, th, an_culprit_of(t, seq, j->release_ns), seq, j->release_ns, ts);
	an_slot_job(r, t, j->release_ns, ts, &slot);
	*j = (struct an_job){ .seq = j->seq, .release_ns = j->release_ns, .start_ns = j->start_ns, .end_ns = ts,
			      .root = j->root,
			      .lost = j->lost, .slot = slot, .exec_ns = exec_ns, .npre = npre, .nmig = nmig,
			      .cpu = cpu, .overrun = overrun, .miss = miss };
	if (r->jobs_csv && t->ring_n >= AN_JOB_RING)
		an_jobs_csv_row(r, t, &t->ring[t->ring_n % AN_JOB_RING]);
	t->ring[t->ring_n++ % AN_JOB_RING] = *j;
	if (r->jl) {
		ret = an_tasks_joblog_match(r, t, j);
		if (ret)
			return ret;
	}
	return 0;
}

/* an_tasks_lost_window - a loss found late: flag the recent jobs it overlaps */
void an_tasks_lost_window(struct an_run *r, int64_t start_ns, int64_t end_ns)
{
	struct an_job *j;
	uint32_t k, n;
	int i;

	for (i = 0; i < r->ntasks; i++) {
		n = r->task[i]->ring_n < AN_JOB_RING ? r->task[i]->ring_n : AN_JOB_RING;
		for (k = 0; k < n; k++) {
			j = &r->task[i]->ring[k];
			if (!j->lost && j->release_ns <= end_ns && j->end_ns >= start_ns) {
				j->lost = true;
				r->task[i]->lost_jobs++;
			}
		}
	}
}

/*
 * an_jl_period - a job log alone does not declare periods: a periodic task's
 * period is its smallest gap between releases (releases are absolute, so the
 * gaps are exact multiples of it). The first job's slot is accounted once the
 * period is known.
 */
static void an_jl_period(struct an_run *r, struct an_task *t, const struct pf_jlrow *row)
{
	int64_t gap = row->release_ns - t->jl_prev_release_ns, slot;

	if (t->declared)
		return;
	if (!t->jl_prev_release_ns) {
		t->jl_first_release_ns = row->release_ns;
		t->jl_first_end_ns = row->end_ns;
	} else if (gap > 0 && (!t->period_ns || gap < t->period_ns)) {
		bool first = !t->period_ns;

		t->period_ns = gap;
		if (first)
			an_slot_job(r, t, t->jl_first_release_ns, t->jl_first_end_ns, &slot);
	}
	t->jl_prev_release_ns = row->release_ns;
}

/*
 * an_jlrow_consume - account one job-log row, matched with the trace's job
 * (job) or alone (job NULL)
 */
int an_jlrow_consume(struct an_run *r, struct an_task *t, const struct pf_jlrow *row, const struct an_job *job)
{
	int64_t lat = row->start_ns - row->release_ns, d;
	bool overrun, miss;

	an_job_late(t, row->release_ns, row->end_ns, row->flags, &overrun, &miss);
	t->jl_jobs++;
	t->jl_overruns += overrun;
	t->jl_misses += miss;
	t->jl_missed += row->missed;
	if (an_stat_add(&t->jl_lat, lat, row->release_ns, row->seq) ||
	    an_stat_add(&t->jl_resp, row->end_ns - row->release_ns, row->release_ns, row->seq) ||
	    an_stat_add(&t->jl_cpu, row->cpu_ns, row->release_ns, row->seq))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	if (!r->jl_first_release_ns || row->release_ns < r->jl_first_release_ns)
		r->jl_first_release_ns = row->release_ns;
	if (row->end_ns > r->jl_last_end_ns)
		r->jl_last_end_ns = row->end_ns;
	/* the app's utilisation from the job log: used without a trace, or when it shows no app thread */
	an_app_resolve(r);
	if (!r->jl_w1s.width_ns) {
		int64_t origin = r->jl_start_ns ? r->jl_start_ns : row->release_ns;

		an_win_init(&r->jl_w1s, PF_NS_PER_SEC, origin);
		an_win_init(&r->jl_wslot, r->opt.slot_ns, origin);
	}
	if (t->app || !t->declared) {
		r->jl_cpu_ns += row->cpu_ns;
		an_win_add(&r->jl_w1s, row->end_ns - row->cpu_ns, row->end_ns);
		an_win_add(&r->jl_wslot, row->end_ns - row->cpu_ns, row->end_ns);
	}
	if (!r->opt.trace) {
		int64_t slot;

		an_jl_period(r, t, row);
		if (t->period_ns)
			an_slot_job(r, t, row->release_ns, row->end_ns, &slot);
	}
	if (!job) {
		t->joblog_only++;
		return 0;
	}
	t->matched++;
	d = (job->start_ns - job->release_ns) - lat;
	if (an_stat_add(&t->diff, d < 0 ? -d : d, job->release_ns, job->seq) ||
	    an_stat_add(&t->ediff, row->cpu_ns - job->exec_ns, job->release_ns, job->seq) ||
	    an_stat_add(&t->cpu, row->cpu_ns, job->release_ns, job->seq))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	return 0;
}

/*
 * The job log (docs/joblog.md), read by lib/joblog_read.c. The logger drains per-task
 * rings, so rows are in sequence order per task but interleaved between
 * tasks. Matching keeps a small queue of read-ahead rows per task: a trace
 * job (task, seq) pops the rows of that task up to its seq (earlier rows had
 * no trace job), reading ahead only until a row of the task at or past seq
 * appears. Memory is bounded by the logger's lag, not by the length of the
 * log.
 */

#define AN_JL_MAXQ 200000	/* rows read ahead before a missing row is given up */

/*
 * an_jl_name - the task name of a '# PREFIX.NAME=' metadata line into name:
 * 1 and the value after '=' in *value, 0 for another line, or -exit code for a
 * name outside the task-name syntax (file:line)
 */
static int an_jl_name(struct an_run *r, const char *line, const char *prefix, char *name, size_t size,
		      const char **value)
{
	size_t plen = strlen(prefix), n;
	char quoted[256];

	if (strncmp(line, prefix, plen))
		return 0;
	line += plen;
	n = strcspn(line, "=\n");
	if (line[n] != '=')
		return 0;
	snprintf(name, size, "%.*s", (int)(n < size ? n : size - 1), line);
	if (n >= size || !pf_task_name_valid(name)) {
		snprintf(name, size, "%.*s", (int)n, line);
		return -pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log line: task name '%s' is not %s",
				pf_joblog_path(r->jl), pf_joblog_lineno(r->jl),
				pf_quote_bytes(name, quoted, sizeof(quoted)), PF_TASK_NAME_SYNTAX);
	}
	*value = line + n + 1;
	return 1;
}

/* an_jl_head - a metadata line before the rows: slot length, run start, task declarations */
static int an_jl_head(void *ctx, const char *line)
{
	struct an_run *r = ctx;
	const char *kv;
	long long v = 0;
	char name[64];
	int ret;

	if (sscanf(line, "# slot_ns=%lld", &v) == 1 && v > 0)
		r->jl_slot_ns = v;
	else if (sscanf(line, "# start_mono_ns=%lld", &v) == 1 && v > 0)
		r->jl_start_ns = v;
	else if ((ret = an_jl_name(r, line, "# task.", name, sizeof(name), &kv)) < 0)
		return -ret;
	else if (ret && !an_task_declare(r, name, (int)an_kv_ll(kv, "id", -1), kv, false))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	return 0;
}

/* an_jl_meta - a metadata line met among the rows: slot length, dropped counts, run end */
static int an_jl_meta(void *ctx, const char *line)
{
	struct an_run *r = ctx;
	struct an_task *t;
	const char *val;
	char key[64];
	long long v;
	int ret;

	if (sscanf(line, "# slot_ns=%lld", &v) == 1 && v > 0) {
		r->jl_slot_ns = v;
		return 0;
	}
	if ((ret = an_jl_name(r, line, "# dropped.", key, sizeof(key), &val))) {
		if (ret < 0)
			return -ret;
		t = sscanf(val, "%lld", &v) == 1 ? an_task_by_name(r, key, true) : NULL;
		if (t)
			t->jl_dropped += v;
	} else if ((ret = an_jl_name(r, line, "# missed_after_last.", key, sizeof(key), &val))) {
		if (ret < 0)
			return -ret;
		t = sscanf(val, "%lld", &v) == 1 ? an_task_by_name(r, key, true) : NULL;
		if (t)
			t->jl_missed += v;	/* releases skipped after the task's last job */
	} else if (sscanf(line, "# end_mono_ns=%lld", &v) == 1) {
		r->jl_end_ns = v;
	} else if (!strncmp(line, "# write_error=", 14)) {
		snprintf(r->jl_write_error, sizeof(r->jl_write_error), "%.*s",
			 (int)strcspn(line + 14, "\n"), line + 14);
	}
	return 0;
}

/* an_tasks_joblog_open - open the job log and take its metadata (slot length, tasks) */
int an_tasks_joblog_open(struct an_run *r, const char *path)
{
	return pf_joblog_open(path, an_jl_head, r, &r->jl);
}

void an_tasks_joblog_close(struct an_run *r)
{
	pf_joblog_close(r->jl);
	r->jl = NULL;
}

/* an_q_push - queue a read-ahead row on its task */
static int an_q_push(struct an_run *r, struct an_task *t, const struct pf_jlrow *row)
{
	if (t->q_head && t->q_head == t->q_n) {
		t->q_head = t->q_n = 0;
	}
	if (t->q_n == t->q_cap) {
		if (t->q_head) {
			memmove(t->q, t->q + t->q_head, (t->q_n - t->q_head) * sizeof(*t->q));
			t->q_n -= t->q_head;
			t->q_head = 0;
		}
		if (pf_grow(&t->q, &t->q_cap, t->q_n, sizeof(*t->q), 16))
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	}
	t->q[t->q_n++] = *row;
	r->jl_queued++;
	return 0;
}

/* an_jl_read_one - read a row into its task's queue: 1, 0 at the end, or -exit code */
static int an_jl_read_one(struct an_run *r)
{
	struct pf_jlrow *row;
	struct an_task *t;
	int ret = pf_joblog_next(r->jl, an_jl_meta, r, &row);

	if (ret <= 0)
		return ret;
	t = an_task_by_name(r, row->task, true);
	if (!t)
		return -pf_fail(PF_EXIT_INTERNAL, "out of memory");
	t->in_joblog = true;
	ret = an_q_push(r, t, row);
	return ret ? -ret : 1;
}

/*
 * an_tasks_joblog_match - account the job-log row of a trace job, and the
 * task's earlier rows that had no trace job
 */
int an_tasks_joblog_match(struct an_run *r, struct an_task *t, const struct an_job *job)
{
	struct pf_jlrow *row;
	int ret;

	for (;;) {
		while (t->q_head < t->q_n) {
			row = &t->q[t->q_head];
			if (row->seq > job->seq) {
				t->trace_only++;
				return 0;
			}
			t->q_head++;
			r->jl_queued--;
			ret = an_jlrow_consume(r, t, row, row->seq == job->seq ? job : NULL);
			if (ret || row->seq == job->seq)
				return ret;
		}
		if (r->jl_queued > AN_JL_MAXQ) {
			t->trace_only++;
			return 0;
		}
		ret = an_jl_read_one(r);
		if (ret < 0)
			return -ret;
		if (ret == 0) {
			t->trace_only++;
			return 0;
		}
	}
}

/* an_tasks_joblog_drain - every row not matched yet: queued ones, then the rest of the file */
int an_tasks_joblog_drain(struct an_run *r)
{
	struct an_task *t;
	int i, ret;

	for (;;) {
		for (i = 0; i < r->ntasks; i++) {
			t = r->task[i];
			while (t->q_head < t->q_n) {
				ret = an_jlrow_consume(r, t, &t->q[t->q_head++], NULL);
				r->jl_queued--;
				if (ret)
					return ret;
			}
		}
		ret = an_jl_read_one(r);
		if (ret <= 0)
			return -ret;
	}
}

/* an_worst_consider - a job-log row among its task's worst --top activations? (t->worst, snapshots.c) */
static void an_worst_consider(struct an_run *r, struct an_task *t, uint32_t seq, int64_t release_ns,
			       int64_t start_ns)
{
	int64_t lat = start_ns - release_ns;
	int i;

	if (r->opt.top <= 0)
		return;
	if (!t->worst && !(t->worst = calloc(r->opt.top, sizeof(*t->worst))))
		return;	/* out of memory: no worst list, said as none explained */
	if (t->nworst == r->opt.top && lat <= t->worst[t->nworst - 1].latency_ns)
		return;
	if (t->nworst < r->opt.top)
		t->nworst++;
	for (i = t->nworst - 1; i > 0 && t->worst[i - 1].latency_ns < lat; i--)
		t->worst[i] = t->worst[i - 1];
	t->worst[i] = (struct an_worst){ .seq = seq, .release_ns = release_ns, .start_ns = start_ns,
					 .latency_ns = lat, .snap = -1 };
}

/* an_tasks_joblog_alone - read a job log without a trace, in one pass */
int an_tasks_joblog_alone(struct an_run *r)
{
	struct pf_jlrow *row;
	struct an_task *t;
	int ret;

	for (;;) {
		ret = pf_joblog_next(r->jl, an_jl_meta, r, &row);
		if (ret <= 0)
			return -ret;
		t = an_task_by_name(r, row->task, true);
		if (!t)
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		t->in_joblog = true;
		ret = an_jlrow_consume(r, t, row, NULL);
		if (ret)
			return ret;
		if (r->opt.nsnapshots)
			an_worst_consider(r, t, row->seq, row->release_ns, row->start_ns);
	}
}

/* an_tasks_finish - jobs still open at the trace end are incomplete */
int an_tasks_finish(struct an_run *r)
{
	int i;

	if (an_tl_finish(r))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	for (i = 0; i < r->ntasks; i++)
		if (r->task[i]->job_open) {
			r->task[i]->job_open = false;
			r->task[i]->trace_only++;
		}
	return 0;
}

void an_tasks_free(struct an_run *r)
{
	struct an_task *t;
	int i;

	an_win_free(&r->jl_w1s);
	an_win_free(&r->jl_wslot);
	for (i = 0; i < r->ntasks; i++) {
		t = r->task[i];
		an_stat_free(&t->lat); an_stat_free(&t->resp); an_stat_free(&t->exec);
		an_stat_free(&t->cpu); an_stat_free(&t->pjit); an_stat_free(&t->npre);
		an_stat_free(&t->nmig); an_stat_free(&t->d_timer); an_stat_free(&t->d_rel2wake);
		an_stat_free(&t->d_wake2run); an_stat_free(&t->d_app); an_stat_free(&t->jl_lat);
		an_stat_free(&t->d_wake2start); an_stat_free(&t->d_observer);
		an_stat_free(&t->jl_resp); an_stat_free(&t->jl_cpu); an_stat_free(&t->diff);
		an_stat_free(&t->wlat); an_stat_free(&t->ediff);
		free(t->wser.v);
		free(t->q);
		free(t->top);
		free(t->worst);
		free(t);
	}
	r->ntasks = 0;
	an_tl_free(r);
}

void an_fmt_us(char *buf, size_t size, int64_t ns)
{
	if (ns < 10000 && ns > -10000)
		snprintf(buf, size, "%.1f µs", (double)ns / 1000.0);
	else
		snprintf(buf, size, "%.0f µs", (double)ns / 1000.0);
}

/*
 * an_culprit_line - the one-line summary of an activation: the job, its
 * thread and the trace time of its release (to find it in KernelShark), then
 * what an_culprit_parts_text says:
 * "ctl100 job 3 (pid 100, released at 1000.030000000 s): 152 µs late — hog (pid 200) 150 µs,
 *  switch-in to start 2.0 µs; its timer interrupt came 5.0 µs after the release [100 % explained]"
 */
void an_culprit_line(const struct an_run *r, const struct an_task *t, const struct an_culprit *c,
		     char *buf, size_t size)
{
	char d[32];
	size_t len;

	an_fmt_us(d, sizeof(d), c->latency_ns);
	len = snprintf(buf, size, "%s job %u (pid %d, released at %lld.%09lld s): %s late", t->name, c->seq, c->pid,
		       (long long)(c->release_ns / PF_NS_PER_SEC), (long long)(c->release_ns % PF_NS_PER_SEC), d);
	if (c->wakeup_ns != c->latency_ns && len < size) {
		an_fmt_us(d, sizeof(d), c->wakeup_ns);
		len += snprintf(buf + len, size - len, " (wakeup latency %s)", d);
	}
	if (len < size)
		an_culprit_parts_text(r, t->name, c, buf + len, size - len);
}

/*
 * an_woken_text - a culprit line's waker part, when a kernel service thread
 * of lower priority woke the task (an_rt_woken_by): " — woken by ktimers/1
 * (timers, pid 17) at RT 1 after 6900 µs, which waited behind rcuc/1 (RCU
 * callbacks, pid 20) 6800 µs"
 */
static size_t an_woken_text(const struct an_run *r, const struct an_culprit *c, char *buf, size_t size)
{
	char who[64], d[32], pr[16], nb[24], e[64];
	const char *sep = ", which waited behind ", *comm;
	size_t len, n;
	int k;

	len = (size_t)snprintf(buf, size, " — woken by ");
	comm = an_thread_name((struct an_run *)r, c->woken_by.pid, nb, sizeof(nb));
	n = strlen(comm);
	an_rt_label(who, sizeof(who), comm, c->woken_by.pid);
	an_fmt_us(d, sizeof(d), c->woken_by.wake_ns - c->release_ns);
	an_prio_text(pr, sizeof(pr), c->woken_by.prio);
	if (len < size)
		len += (size_t)snprintf(buf + len, size - len, "%s at %s after %s", who, pr, d);
	for (k = 0; k < c->woken_by.ndelay && len < size; k++) {
		const struct an_contrib *x = &c->woken_by.delay[k];

		if (x->kind == AN_C_SELF || x->dur_ns < 100 || (x->kind == AN_C_SOFTIRQ && !strncmp(x->name, comm, n) &&
								  !strncmp(x->name + n, " (", 2)))
			continue;	/* its own work before the waking: its softirqs too */
		if (x->kind == AN_C_THREAD)
			an_rt_label(e, sizeof(e), x->name, x->id);
		else
			snprintf(e, sizeof(e), "%s", x->kind == AN_C_IDLE ? "CPU idle" : x->name);
		an_fmt_us(d, sizeof(d), x->dur_ns);
		len += (size_t)snprintf(buf + len, size - len, "%s%s %s", sep, e, d);
		sep = ", ";
	}
	return len < size ? len : size - 1;
}

/*
 * an_rt_tail - a culprit line's PI wait and inversion: "; PI: blocked 800 µs
 * on a lock held by low (pid 300), boosted to RT 90, ran 780 µs boosted;
 * priority inversion: woken by low (pid 300, nice 0) below its RT 90 after
 * 800 µs blocked"
 */
static void an_rt_tail(const struct an_run *r, const struct an_culprit *c, char *buf, size_t size)
{
	char d[32], b[32], pr[16], pw[16], nb[24];
	size_t len = 0;

	if (c->pi.holder_pid && len < size) {
		an_fmt_us(d, sizeof(d), c->pi.blocked_ns);
		an_fmt_us(b, sizeof(b), c->pi.boosted_ns);
		an_prio_text(pr, sizeof(pr), c->pi.boost_prio);
		len += (size_t)snprintf(buf + len, size - len, "; PI: blocked %s on a lock held by %s (pid %d), "
					"boosted to %s, ran %s boosted", d,
					an_thread_name((struct an_run *)r, c->pi.holder_pid, nb, sizeof(nb)), c->pi.holder_pid, pr, b);
	}
	if (c->inv.waker_pid && len < size) {
		an_prio_text(pr, sizeof(pr), c->inv.waker_prio);
		an_prio_text(pw, sizeof(pw), c->inv.prio);
		len += (size_t)snprintf(buf + len, size - len, "; priority inversion: woken by %s (pid %d, %s) "
					"below its %s", an_thread_name((struct an_run *)r, c->inv.waker_pid, nb, sizeof(nb)),
					c->inv.waker_pid, pr, pw);
		if (c->inv.blocked_ns >= 0 && len < size) {
			an_fmt_us(d, sizeof(d), c->inv.blocked_ns);
			snprintf(buf + len, size - len, " after %s blocked", d);
		}
	}
}

/*
 * an_culprit_parts_text - the tail of a culprit's summary line: the releaser
 * when another app task woke it (and how late that one was itself), the
 * largest parts with their pids, the rest, the timer IRQ's delay and the
 * share explained; 'self' names the victim's own time
 */
void an_culprit_parts_text(const struct an_run *r, const char *self, const struct an_culprit *c,
			   char *buf, size_t size)
{
	char d[32], e[32];
	size_t len = 0;
	int i, shown = 0;
	int64_t rest = c->explained_ns - (c->from_ns - c->release_ns);
	const char *sep = " — ";
	int64_t delay_ns;

	buf[0] = '\0';
	if (c->releaser[0] && len < size) {
		an_fmt_us(d, sizeof(d), c->from_ns - c->release_ns);
		an_fmt_us(e, sizeof(e), c->releaser_late_ns);
		len += snprintf(buf + len, size - len, " — released by %s (pid %d, job %u) after %s, %s itself %s late",
				c->releaser, c->waker_pid, c->releaser_seq, d, c->releaser, e);
		shown++;
		sep = "; ";
	}
	if (c->woken_by.pid && len < size) {
		len += an_woken_text(r, c, buf + len, size - len);
		shown++;
		sep = "; ";
	}
	for (i = 0; i < c->ncontrib && shown < 5 && len < size; i++) {
		const struct an_contrib *x = &c->contrib[i];
		char label[64] = "";

		/* the task itself only when it mattered: its previous job still running */
		if (x->dur_ns < 100 || (x->kind == AN_C_SELF && (double)x->dur_ns * 10 < (double)c->latency_ns))
			continue;
		if (x->kind == AN_C_SILENT) {
			an_fmt_us(d, sizeof(d), c->silent_to_ns - c->silent_from_ns);
			an_fmt_us(e, sizeof(e), x->dur_ns);
			len += snprintf(buf + len, size - len, "%s%s (no event on CPU %d for %s) %s", sep, AN_SILENT_TEXT,
					x->id, d, e);
			shown++;
			sep = ", ";
			continue;
		}
		if (x->kind == AN_C_THREAD && strncmp(x->name, "pid ", 4))	/* a thread never named is "pid N" already */
			an_rt_label(label, sizeof(label), x->name, x->id);
		an_fmt_us(d, sizeof(d), x->dur_ns);
		len += snprintf(buf + len, size - len, "%s%s%s %s", sep,
				x->kind == AN_C_IDLE ? "CPU idle" : x->kind == AN_C_SELF ? self :
				x->kind == AN_C_APP ? "switch-in to start" : label[0] ? label : x->name,
				x->kind == AN_C_SELF ? " itself (previous job)" : "", d);
		rest -= x->dur_ns;
		shown++;
		sep = ", ";
	}
	if (rest >= 100 && len < size) {
		an_fmt_us(d, sizeof(d), rest);
		len += snprintf(buf + len, size - len, "%srest %s", sep, d);
		shown++;
		sep = ", ";
	}
	/* a corrupt trace may put the two far apart: no overflowing difference */
	if (c->timer_ns && c->timer_ns > c->release_ns && len < size &&
	    !__builtin_sub_overflow(c->timer_ns, c->release_ns, &delay_ns)) {
		an_fmt_us(d, sizeof(d), delay_ns);
		/* when it fired, not a share of the lateness: the parts above already hold that time */
		len += snprintf(buf + len, size - len, "%sits timer interrupt came %s after the release",
				shown ? "; " : " — ", d);
		shown++;
	}
	if (!shown && len < size)
		len += snprintf(buf + len, size - len, " — nothing else ran on CPU %d", c->cpu);
	if (len < size)
		len += snprintf(buf + len, size - len, " [%.0f %% explained%s]",
				c->latency_ns ? 100.0 * (double)c->explained_ns / (double)c->latency_ns : 100.0,
				!c->history ? ": history incomplete" : !c->complete ? ": the parts do not add up" : "");
	if (len < size)
		an_rt_tail(r, c, buf + len, size - len);
}
