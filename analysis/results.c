/*
 * results.c - what 'preflight analyze' writes: results.json (schema
 * preflight-results/1, docs/results.md), the CSV tables of --csv (libcsv),
 * and the text summary for people.
 *
 * The JSON tree is built once; the CSV tables and the summary are read back
 * from it, so the three outputs cannot disagree.
 */
#define _GNU_SOURCE
#include "results.h"
#include "sched.h"
#include "tasks.h"
#include "jobs_csv.h"
#include "joblog_read.h"
#include "timeline.h"
#include "rt.h"
#include "outfile.h"
#include "text.h"

#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* an_frac - a fraction, or null when the denominator is 0 */
static json_t *an_frac(int64_t num, int64_t den)
{
	return den > 0 ? json_real((double)num / (double)den) : json_null();
}

/* an_thread_matches - does the thread match --threads (comma-separated globs on comm, or pids)? */
static bool an_thread_matches(const struct an_run *r, const struct an_thread *t)
{
	char *list, *tok, *save = NULL, pid[16];
	bool hit = false;

	list = strdup(r->opt.threads);
	if (!list)
		return true;
	snprintf(pid, sizeof(pid), "%d", t->pid);
	for (tok = strtok_r(list, ",", &save); tok && !hit; tok = strtok_r(NULL, ",", &save))
		hit = !fnmatch(tok, t->comm, 0) || !strcmp(tok, pid);
	free(list);
	return hit;
}

/*
 * an_sched_label - a thread's priority as a user set it, the kernel's beside
 * it: "FIFO 80 (19)" (the policy a task of the app declared with this tid),
 * "rt 90 (9)" (the trace does not tell FIFO from RR), "normal (120)"
 */
static const char *an_sched_label(json_t *res, json_t *thr, char *buf, size_t size)
{
	json_t *prio = json_object_get(thr, "prio"), *t;
	const char *pol = json_string_value(json_object_get(thr, "policy")), *set = "rt";
	json_int_t pid = json_integer_value(json_object_get(thr, "pid"));
	int k = (int)json_integer_value(prio);	/* -1 .. 139 */
	char up[8];
	size_t i;

	if (!json_is_integer(prio))
		return "-";
	if (!pol || strcmp(pol, "rt")) {
		snprintf(buf, size, "%.12s (%d)", pol ? pol : "?", k);
		return buf;
	}
	json_array_foreach(json_object_get(res, "tasks"), i, t)
		if (json_integer_value(json_object_get(t, "tid")) == pid && json_is_string(json_object_get(t, "policy")))
			set = json_string_value(json_object_get(t, "policy"));
	for (i = 0; set[i] && i < sizeof(up) - 1; i++)
		up[i] = (char)(strcmp(set, "rt") ? toupper((unsigned char)set[i]) : set[i]);
	up[i] = '\0';
	snprintf(buf, size, "%s %d (%d)", up, 99 - k, k);
	return buf;
}

/* an_policy - scheduling class from a kernel priority */
static const char *an_policy(int prio, int pid)
{
	if (pid == 0)
		return "idle";
	if (prio < 0)
		return "deadline";
	return prio < 100 ? "rt" : "normal";
}

/*
 * an_thread_stats_json - statistics of one of a thread's latency
 * distributions (an_thread_lat: a dead thread kept only those), null when it
 * has none; without the buckets: thousands of threads' histograms would make
 * results.json tens of MB (tasks and the baseline keep theirs)
 */
static json_t *an_thread_stats_json(const struct an_thread *t, enum an_lat k)
{
	struct pf_stats st;

	if (!an_thread_lat(t, k, &st))
		return json_null();
	return pf_stats_json(&st, "ns");
}

/* an_empty_stats - statistics with no sample */
static json_t *an_empty_stats(const char *unit)
{
	struct pf_stats st = { 0 };

	return pf_stats_json(&st, unit);
}

/* an_affected - note a metric touched by lost events */
__attribute__((format(printf, 2, 3)))
static void an_affected(json_t *list, const char *fmt, ...)
{
	char buf[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(list, json_string(buf));
}

static void an_nullify(json_t *x, const char *const *keys, const char *why);

/* an_thread_active - whether the trace saw the thread do anything (a gone one is counted in gone_active) */
static bool an_thread_active(const struct an_thread *t)
{
	return t->life != AN_GONE && (t->sw_seen || t->wakeups || t->switches);
}

/* an_thread_listed - whether a thread has an entry in threads[] (an_threads_select) */
static bool an_thread_listed(const struct an_run *r, const struct an_thread *t)
{
	return an_thread_active(t) && t->selected;
}

/* an_wake_max - a thread's worst wakeup latency, -1 when it has none */
static int64_t an_wake_max(const struct an_thread *t)
{
	return an_thread_lat_max(t, AN_LAT_WAKE);
}

/*
 * an_top_insert - keep in top[] (n of AN_TOP_THREADS, best first) the
 * indexes of the threads with the largest key
 */
static void an_top_insert(size_t *top, int64_t *key, int *n, size_t i, int64_t k)
{
	int j;

	if (k < 0 || (*n == AN_TOP_THREADS && k <= key[*n - 1]))
		return;
	j = *n < AN_TOP_THREADS ? (*n)++ : *n - 1;
	for (; j > 0 && key[j - 1] < k; j--) {
		top[j] = top[j - 1];
		key[j] = key[j - 1];
	}
	top[j] = i;
	key[j] = k;
}

/* an_culprits_each - fn on the pid of every thread named in a task's worst activations, until it returns true */
static bool an_culprits_each(struct an_run *r, bool (*fn)(struct an_run *r, int pid, void *arg), void *arg)
{
	int k, i, c;

	for (k = 0; k < r->ntasks; k++)
		for (i = 0; i < r->task[k]->ntop; i++)
			for (c = 0; c < r->task[k]->top[i].ncontrib; c++) {
				const struct an_contrib *x = &r->task[k]->top[i].contrib[c];

				if (x->kind == AN_C_THREAD && fn(r, x->id, arg))
					return true;
			}
	return false;
}

/* an_select_pid - an_culprits_each step: select the thread of pid */
static bool an_select_pid(struct an_run *r, int pid, void *arg)
{
	struct an_thread *t = an_thread_find(r, pid);

	if (t)
		t->selected = true;
	return false;
}

/* an_is_pid - an_culprits_each step: is it *(int *)arg */
static bool an_is_pid(struct an_run *r, int pid, void *arg)
{
	return pid == *(int *)arg;
}

/* an_mark_culprits - select every thread named in a task's worst activations */
static void an_mark_culprits(struct an_run *r)
{
	an_culprits_each(r, an_select_pid, NULL);
}

/* an_may_list - whether threads[] may list a dead thread whatever happens later, but for the top lists */
static bool an_may_list(struct an_run *r, struct an_thread *t)
{
	int k;

	if (t->app_rt || (t->nprios && t->prio < 100) || t->task)
		return true;
	for (k = 0; k < r->ntasks; k++)
		if (r->task[k]->tid == t->pid)
			return true;
	return an_culprits_each(r, an_is_pid, &t->pid);
}

void an_threads_sweep(struct an_run *r)
{
	size_t top[AN_TOP_THREADS] = { 0 }, i;
	struct an_thread *t;
	int64_t wake;

	if (r->opt.all_threads)
		return;
	for (i = 0; i < r->nthr; i++) {
		t = &r->thr[i];
		if (t->swept || !an_thread_settled(r, t))
			continue;
		t->swept = true;
		if (r->opt.threads) {
			if (!an_thread_matches(r, t))
				an_thread_drop(r, t);
			continue;
		}
		if (an_may_list(r, t))
			continue;
		t->competes = true;
		an_top_insert(top, r->pool_run, &r->npool_run, i, t->runtime_ns);
		an_top_insert(top, r->pool_wake, &r->npool_wake, i, an_wake_max(t));
	}
	/* the comms of gone pids: those no timeline shows go when they have doubled */
	if (r->ntomb >= 2 * r->ntomb_pruned + 1024) {
		an_tl_pids(r, an_tomb_keep);
		an_tombs_prune(r);
	}
	if (r->npool_run < AN_TOP_THREADS)
		return;
	for (i = 0; i < r->nthr; i++) {
		t = &r->thr[i];
		if (!t->competes || t->life == AN_GONE || t->runtime_ns >= r->pool_run[AN_TOP_THREADS - 1])
			continue;
		wake = an_wake_max(t);
		if (wake < 0 || (r->npool_wake == AN_TOP_THREADS && wake < r->pool_wake[AN_TOP_THREADS - 1]))
			an_thread_drop(r, t);
	}
}

/*
 * an_threads_select - which threads threads[] lists: those matching
 * --threads; every one with --all-threads; by default the app's threads,
 * every realtime or deadline thread (a budget 'select = rt' sees them all),
 * the threads named as culprits, and of the others the AN_TOP_THREADS with the
 * most CPU time and those with the worst wakeup latency. The count left out
 * goes into threads_listing
 */
static json_t *an_threads_select(struct an_run *r)
{
	size_t top_run[AN_TOP_THREADS], top_wake[AN_TOP_THREADS], i, active = 0, listed = 0;
	int64_t key_run[AN_TOP_THREADS], key_wake[AN_TOP_THREADS];
	int n_run = 0, n_wake = 0, k;
	const char *mode = r->opt.threads ? "pattern" : r->opt.all_threads ? "all" : "default";
	json_t *o = json_object();

	for (i = 0; i < r->nthr; i++) {
		struct an_thread *t = &r->thr[i];

		if (r->opt.threads)
			t->selected = an_thread_matches(r, t);
		else
			t->selected = r->opt.all_threads || t->app_rt || (t->nprios && t->prio < 100);
	}
	if (!r->opt.threads && !r->opt.all_threads) {
		for (k = 0; k < r->ntasks; k++) {
			struct an_thread *t = r->task[k]->tid ? an_thread_find(r, r->task[k]->tid) : NULL;

			if (t)
				t->selected = true;
		}
		an_mark_culprits(r);
		for (i = 0; i < r->nthr; i++) {
			if (r->thr[i].selected || !an_thread_active(&r->thr[i]))
				continue;
			an_top_insert(top_run, key_run, &n_run, i, r->thr[i].runtime_ns);
			an_top_insert(top_wake, key_wake, &n_wake, i, an_wake_max(&r->thr[i]));
		}
		for (k = 0; k < n_run; k++)
			r->thr[top_run[k]].selected = true;
		for (k = 0; k < n_wake; k++)
			r->thr[top_wake[k]].selected = true;
	}
	active = r->gone_active;
	for (i = 0; i < r->nthr; i++) {
		active += an_thread_active(&r->thr[i]);
		listed += an_thread_listed(r, &r->thr[i]);
	}
	json_object_set_new(o, "mode", json_string(mode));
	json_object_set_new(o, "threads_seen", json_integer((json_int_t)active));
	json_object_set_new(o, "listed", json_integer((json_int_t)listed));
	json_object_set_new(o, "omitted", json_integer((json_int_t)(active - listed)));
	return o;
}

/*
 * an_thread_always_rt - every priority the thread was seen at is realtime, so
 * the recorder's rt filters (--wakeups rt, --switches rt) kept all of its
 * events. A thread seen at a normal priority too is not: a normal thread
 * PI-boosted on PREEMPT_RT (a threaded IRQ handler blocked on a sleeping
 * spinlock it holds: its switches carry the boosted priority, and the record
 * has no sched_pi_setprio by default), or one that became realtime (chrt's
 * child), has a life partly among threads whose switches were not kept.
 */
static bool an_thread_always_rt(const struct an_thread *t)
{
	return t->nprios && t->prio < 100 && !t->normal_seen;
}

/* an_thread_lost - whether lost events touch a thread's life in the trace */
static bool an_thread_lost(const struct an_run *r, const struct an_thread *t)
{
	return r->nlost && an_lost_overlaps(r, t->first_ns, t->last_ns ? t->last_ns : r->end_ns);
}

static const char *const an_thread_runtime_keys[] = { "runtime_ns", "utilisation", "utilisation_max_10ms",
	"utilisation_max_1s", "preemptions", "migrations", "switches", NULL };

/* an_thread_json - one thread's entry of threads[] */
static json_t *an_thread_json(struct an_run *r, struct an_thread *t)
{
	json_t *o = json_object(), *prios = json_array(), *lat;
	int64_t dur = r->end_ns - r->start_ns;
	int k;

	for (k = 0; k < t->nprios; k++)
		json_array_append_new(prios, json_integer(t->prios[k]));
	json_object_set_new(o, "pid", json_integer(t->pid));
	json_object_set_new(o, "comm", pf_json_bytes(t->comm[0] ? t->comm : "?", NULL));
	json_object_set_new(o, "prio", t->nprios ? json_integer(t->prio) : json_null());
	json_object_set_new(o, "prios_seen", prios);
	json_object_set_new(o, "policy", t->nprios ? json_string(an_policy(t->prio, t->pid)) : json_null());
	json_object_set_new(o, "rtprio", t->nprios && t->prio >= 0 && t->prio < 100 ?
			    json_integer(99 - t->prio) : json_null());
	json_object_set_new(o, "runtime_ns", json_integer(t->runtime_ns));
	json_object_set_new(o, "utilisation", an_frac(t->runtime_ns, dur));
	json_object_set_new(o, "utilisation_max_10ms", json_real(an_mwin_max(&t->w10ms, dur)));
	json_object_set_new(o, "utilisation_max_1s", json_real(an_mwin_max(&t->w1s, dur)));
	json_object_set_new(o, "switches", json_integer((json_int_t)t->switches));
	json_object_set_new(o, "preemptions", json_integer((json_int_t)t->preemptions));
	json_object_set_new(o, "migrations", json_integer((json_int_t)t->migrations));
	json_object_set_new(o, "wakeups", json_integer((json_int_t)t->wakeups));
	if (r->rt_wakeups && !an_thread_always_rt(t)) {
		/* the kernel did not record this thread's wakeups: no number, not a zero */
		json_object_set_new(o, "wakeups", json_null());
		json_object_set_new(o, "wakeup_latency_ns", json_null());
		json_object_set_new(o, "wakeup_latency_unavailable", json_string("wakeups recorded of realtime "
				    "threads only (preflight record --wakeups rt)"));
	} else if (r->n_waking) {
		lat = an_thread_stats_json(t, AN_LAT_WAKE);
		json_object_set_new(o, "wakeup_latency_ns", json_is_null(lat) ? an_empty_stats("ns") : lat);
	} else {
		json_object_set_new(o, "wakeup_latency_ns", json_null());
		json_object_set_new(o, "wakeup_latency_unavailable",
				    json_string("no sched_waking events in the trace"));
	}
	json_object_set_new(o, "wakeup_latency_inferred_ns", an_thread_stats_json(t, AN_LAT_INF));
	json_object_set_new(o, "switches_inferred", json_integer((json_int_t)t->inferred));
	json_object_set_new(o, "wakeups_unresolved", json_integer((json_int_t)t->unresolved));
	lat = r->n_wakeup && json_is_object(json_object_get(o, "wakeup_latency_ns")) ?
	      an_thread_stats_json(t, AN_LAT_WAKEUP) : NULL;
	json_object_set_new(o, "wakeup_latency_from_wakeup_ns", !lat ? json_null() :
			    json_is_null(lat) ? an_empty_stats("ns") : lat);
	json_object_set_new(o, "lost_events", json_boolean(an_thread_lost(r, t)));
	json_object_set_new(o, "inversions", json_integer((json_int_t)(t->rt ? t->rt->inversions : 0)));
	if (!r->n_switch)
		an_nullify(o, an_thread_runtime_keys, "no sched_switch events in the trace");
	else if (r->rt_switches && !an_thread_always_rt(t))
		/* its switches with normal threads were not recorded: its run time is unknown */
		an_nullify(o, an_thread_runtime_keys, "switches recorded to or from realtime threads "
			   "and idle only (preflight record --switches rt)");
	return o;
}

/* an_dump_thread - an_threads_each step: one entry of threads[], on a line of its own */
static int an_dump_thread(json_t *o, void *arg)
{
	struct { FILE *f; size_t n; } *d = arg;

	fputs(d->n++ ? ",\n  " : "\n  ", d->f);
	return json_dumpf(o, d->f, JSON_COMPACT | JSON_REAL_PRECISION(9)) ? -1 : 0;
}

/*
 * an_dump_indented - json_dump_callback's writer: a value indented one level
 * deeper (after each of its newlines, one space), written as jansson makes it
 * rather than whole into a string first (tasks' culprit timelines make a value
 * of megabytes)
 */
static int an_dump_indented(const char *buf, size_t size, void *data)
{
	FILE *f = data;
	const char *p = buf, *nl, *end = buf + size;

	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		if (fwrite(p, 1, (size_t)(nl - p + 1), f) != (size_t)(nl - p + 1) || fputc(' ', f) == EOF)
			return -1;
		p = nl + 1;
	}
	return p < end && fwrite(p, 1, (size_t)(end - p), f) != (size_t)(end - p) ? -1 : 0;
}

int an_results_dump(struct an_run *r, json_t *res, FILE *f)
{
	struct { FILE *f; size_t n; } d = { f, 0 };
	const char *key;
	bool first = true;
	json_t *v;

	fputc('{', f);
	json_object_foreach(res, key, v) {
		fprintf(f, "%s\n \"%s\": ", first ? "" : ",", key);
		first = false;
		if (!strcmp(key, "threads") && json_is_array(v) && !json_array_size(v)) {
			fputc('[', f);
			if (an_threads_each(r, an_dump_thread, &d))
				return -1;
			fputs(d.n ? "\n ]" : "]", f);
		} else if (json_dump_callback(v, an_dump_indented, f,
					      JSON_INDENT(1) | JSON_REAL_PRECISION(9) | JSON_ENCODE_ANY)) {
			return -1;
		}
	}
	fputs("\n}\n", f);
	return ferror(f) ? -1 : 0;
}

int an_threads_each(struct an_run *r, int (*fn)(json_t *thread, void *arg), void *arg)
{
	json_t *o;
	size_t i;
	int ret;

	for (i = 0; i < r->nthr; i++) {
		if (!an_thread_listed(r, &r->thr[i]))
			continue;
		o = an_thread_json(r, &r->thr[i]);
		if (!o)
			return -ENOMEM;
		ret = fn(o, arg);
		json_decref(o);
		if (ret)
			return ret;
	}
	return 0;
}

/* an_threads_affected - the threads whose metrics lost events touch, into the affected list */
static void an_threads_affected(struct an_run *r, json_t *affected)
{
	size_t i;

	for (i = 0; i < r->nthr; i++)
		if (an_thread_listed(r, &r->thr[i]) && an_thread_lost(r, &r->thr[i]))
			an_affected(affected, "threads.%s (pid %d)", r->thr[i].comm, r->thr[i].pid);
}

static json_t *an_cpus_json(struct an_run *r, json_t *affected)
{
	json_t *arr = json_array(), *o;
	int k;

	for (k = 0; k < r->ncpus; k++) {
		struct an_cpu *c = &r->cpu[k];
		int64_t el = c->known ? r->end_ns - c->first_ns : 0;

		o = json_object();
		json_object_set_new(o, "cpu", json_integer(k));
		json_object_set_new(o, "elapsed_ns", json_integer(el));
		json_object_set_new(o, "busy_ns", c->known ? json_integer(c->busy_ns) : json_null());
		json_object_set_new(o, "utilisation", an_frac(c->busy_ns, el));
		json_object_set_new(o, "idle_ns", c->known ? json_integer(c->idle_ns) : json_null());
		json_object_set_new(o, "idle", an_frac(c->idle_ns, el));
		json_object_set_new(o, "hardirq_ns", r->n_irq || r->n_vec ? json_integer(c->hardirq_ns) : json_null());
		json_object_set_new(o, "hardirq", r->n_irq || r->n_vec ? an_frac(c->hardirq_ns, el) : json_null());
		json_object_set_new(o, "softirq_ns", r->n_softirq ? json_integer(c->softirq_ns) : json_null());
		json_object_set_new(o, "softirq", r->n_softirq ? an_frac(c->softirq_ns, el) : json_null());
		json_object_set_new(o, "lost_events", json_integer(c->lost));
		if (c->lost)
			an_affected(affected, "cpus.%d", k);
		json_array_append_new(arr, o);
	}
	return arr;
}

/* an_waited - what the task mostly did between release and start */
static const char *an_waited(const struct an_culprit *c)
{
	int64_t not_woken, runnable;

	if (!c->waking_ns)
		return c->switch_in_ns ? "runnable, not chosen" : "unknown";
	not_woken = c->waking_ns - c->release_ns;
	runnable = c->switch_in_ns ? c->switch_in_ns - c->waking_ns : c->start_ns - c->waking_ns;
	return not_woken > runnable ? "not yet woken" : "runnable, not chosen";
}

/*
 * an_culprit_parts_json - into o, what any culprit holds (a task's activation
 * or a cyclictest wakeup): its times, its decomposition, the contributors and
 * how much they explain; 'self' names the victim's own time
 */
void an_culprit_parts_json(const char *self, const struct an_culprit *c, json_t *o)
{
	static const char *const kinds[] = { "thread", "irq", "softirq", "idle", "self", "app", "others", "silent" };
	json_t *cs = json_array(), *x;
	int k;

	json_object_set_new(o, "release_ns", json_integer(c->release_ns));
	json_object_set_new(o, "start_ns", json_integer(c->start_ns));
	json_object_set_new(o, "cpu", json_integer(c->cpu));
	json_object_set_new(o, "latency_ns", json_integer(c->latency_ns));
	json_object_set_new(o, "not_woken_ns", c->waking_ns ? json_integer(c->waking_ns - c->release_ns) : json_null());
	json_object_set_new(o, "timer_expiry_delay_ns", c->timer_ns && c->timer_ns >= c->release_ns ?
			    json_integer(c->timer_ns - c->release_ns) : json_null());
	json_object_set_new(o, "runnable_ns", c->waking_ns && c->switch_in_ns ?
			    json_integer(c->switch_in_ns - c->waking_ns) : json_null());
	json_object_set_new(o, "app_delay_ns", c->switch_in_ns ? json_integer(c->start_ns - c->switch_in_ns)
			    : json_null());
	json_object_set_new(o, "waited", json_string(an_waited(c)));
	json_object_set_new(o, "pid", json_integer(c->pid));
	json_object_set_new(o, "waker_pid", c->waker_pid > 0 ? json_integer(c->waker_pid) : json_null());
	for (k = 0; k < c->ncontrib; k++) {
		x = json_object();
		json_object_set_new(x, "kind", json_string(kinds[c->contrib[k].kind]));
		if (c->contrib[k].kind == AN_C_SILENT) {
			char name[128];

			snprintf(name, sizeof(name), AN_SILENT_TEXT " (no event on CPU %d for %.1f µs)", c->contrib[k].id,
				 (double)(c->silent_to_ns - c->silent_from_ns) / 1000.0);
			json_object_set_new(x, "name", json_string(name));
		} else {
			json_object_set_new(x, "name", json_string(c->contrib[k].kind == AN_C_SELF ? self
								  : c->contrib[k].name));
		}
		json_object_set_new(x, "id", json_integer(c->contrib[k].id));
		json_object_set_new(x, "pid", c->contrib[k].kind == AN_C_THREAD || c->contrib[k].kind == AN_C_SELF ||
				    c->contrib[k].kind == AN_C_APP ? json_integer(c->contrib[k].id) : json_null());
		json_object_set_new(x, "duration_ns", json_integer(c->contrib[k].dur_ns));
		json_object_set_new(x, "share", an_frac(c->contrib[k].dur_ns, c->latency_ns));
		an_rt_contrib_json(&c->contrib[k], x);
		json_array_append_new(cs, x);
	}
	json_object_set_new(o, "contributors", cs);
	json_object_set_new(o, "silent", !c->silent_to_ns ? json_null() :
			    json_pack("{sisIsIsI}", "cpu", c->cpu, "from_ns", (json_int_t)c->silent_from_ns,
				      "to_ns", (json_int_t)c->silent_to_ns,
				      "duration_ns", (json_int_t)(c->silent_to_ns - c->silent_from_ns)));
	json_object_set_new(o, "explained_ns", json_integer(c->explained_ns));
	json_object_set_new(o, "explained", an_frac(c->explained_ns, c->latency_ns));
	json_object_set_new(o, "complete", json_boolean(c->complete));
}

/* an_root_json - the job a lateness comes from: {task, seq, release_ns}, null unknown */
static json_t *an_root_json(const struct an_root *root)
{
	if (!root->task)
		return json_null();
	return json_pack("{sssIsI}", "task", root->task->name, "seq", (json_int_t)root->seq,
			 "release_ns", (json_int_t)root->release_ns);
}

json_t *an_culprit_json(const struct an_run *r, const struct an_task *t, const struct an_culprit *c)
{
	json_t *o = json_object();
	char line[512];

	json_object_set_new(o, "seq", json_integer(c->seq));
	an_culprit_parts_json(t->name, c, o);
	json_object_set_new(o, "wakeup_latency_ns", json_integer(c->wakeup_ns));
	an_rt_culprit_json((struct an_run *)r, c, o);
	json_object_set_new(o, "root", an_root_json(&c->root));
	json_object_set_new(o, "released_by", !c->releaser[0] ? json_null() :
			    json_pack("{sssisIsI}", "task", c->releaser, "pid", c->waker_pid,
				      "seq", (json_int_t)c->releaser_seq, "latency_ns", (json_int_t)c->releaser_late_ns));
	an_culprit_line(r, t, c, line, sizeof(line));
	json_object_set_new(o, "summary", json_string(line));
	json_object_set_new(o, "timeline", an_tl_json((struct an_run *)r, t, c));
	return o;
}

/* an_culprits_json - the worst activations of a task */
static json_t *an_culprits_json(struct an_run *r, struct an_task *t)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < t->ntop; i++)
		json_array_append_new(arr, an_culprit_json(r, t, &t->top[i]));
	return arr;
}

/*
 * an_uncertainty_json - which of the two clocks a task's verdicts read (the
 * trace's: the job log's start is read after the switch-in, so it holds the
 * app's own delay too, and its CPU time the interrupts taken in the job),
 * and the largest difference the other shows (docs/results.md: agreement)
 */
static json_t *an_uncertainty_json(struct an_run *r, struct an_task *t)
{
	struct pf_stats d, e;

	pf_hist_stats(&t->diff.h, &d);
	pf_hist_stats(&t->ediff.h, &e);
	return json_pack("{sssoso}", "authoritative", "trace",
			 "activation_latency_ns", d.count ? json_integer(d.max) : json_null(),
			 "exec_time_ns", e.count && r->n_switch ? json_integer(e.max > -e.min ? e.max : -e.min)
			 : json_null());
}

static json_t *an_task_json(struct an_run *r, struct an_task *t, json_t *affected)
{
	bool tr = t->jobs > 0 || t->in_trace, jl = r->opt.joblog != NULL;
	bool primary_jl = !tr && jl;
	json_t *o = json_object(), *d, *j, *a;
	struct an_stat *lat = primary_jl ? &t->jl_lat : &t->lat;
	struct pf_stats st;

	json_object_set_new(o, "name", json_string(t->name));
	json_object_set_new(o, "id", t->id >= 0 ? json_integer(t->id) : json_null());
	json_object_set_new(o, "tid", t->tid ? json_integer(t->tid) : json_null());
	json_object_set_new(o, "period_ns", t->declared || t->period_ns ? json_integer(t->period_ns) : json_null());
	json_object_set_new(o, "deadline_ns", t->declared ? json_integer(t->deadline_ns) : json_null());
	json_object_set_new(o, "prio", t->declared && t->prio >= 0 ? json_integer(t->prio) : json_null());
	json_object_set_new(o, "policy", t->declared ? json_string(t->policy) : json_null());
	json_object_set_new(o, "source", json_string(tr && jl ? "trace+joblog" : tr ? "trace" : "joblog"));
	json_object_set_new(o, "jobs", json_integer((json_int_t)(primary_jl ? t->jl_jobs : t->jobs)));
	json_object_set_new(o, "activation_latency_ns", an_stat_json(lat));
	json_object_set_new(o, "wakeup_latency_ns", primary_jl ? json_null() : an_stat_json(&t->wlat));
	json_object_set_new(o, "chained_jobs", primary_jl ? json_null() : json_integer((json_int_t)t->chained_jobs));
	pf_hist_stats(&lat->h, &st);
	json_object_set_new(o, "start_jitter_ns", st.count ? json_integer(st.max - st.min) : json_null());
	json_object_set_new(o, "period_jitter_ns", primary_jl ? json_null() : an_stat_json(&t->pjit));
	json_object_set_new(o, "response_time_ns", an_stat_json(primary_jl ? &t->jl_resp : &t->resp));
	json_object_set_new(o, "exec_time_ns", primary_jl ? json_null() : an_stat_json(&t->exec));
	json_object_set_new(o, "cpu_time_ns", !jl ? json_null() : an_stat_json(primary_jl ? &t->jl_cpu : &t->cpu));
	json_object_set_new(o, "preemptions", primary_jl ? json_null() : json_integer((json_int_t)t->preemptions));
	json_object_set_new(o, "migrations", primary_jl ? json_null() : json_integer((json_int_t)t->migrations));
	json_object_set_new(o, "preemptions_per_job", primary_jl ? json_null() : an_stat_json(&t->npre));
	json_object_set_new(o, "migrations_per_job", primary_jl ? json_null() : an_stat_json(&t->nmig));
	json_object_set_new(o, "overruns", json_integer((json_int_t)(primary_jl ? t->jl_overruns : t->overruns)));
	json_object_set_new(o, "deadline_misses", json_integer((json_int_t)(primary_jl ? t->jl_misses : t->deadline_misses)));
	json_object_set_new(o, "missed_activations", json_integer((json_int_t)(primary_jl ? t->jl_missed : t->missed)));
	if (primary_jl) {
		json_object_set_new(o, "decomposition", json_null());
	} else {
		d = json_object();
		json_object_set_new(d, "timer_expiry_delay_ns", an_stat_json(&t->d_timer));
		json_object_set_new(d, "release_to_wake_ns", an_stat_json(&t->d_rel2wake));
		json_object_set_new(d, "wake_to_run_ns", an_stat_json(&t->d_wake2run));
		json_object_set_new(d, "app_delay_ns", an_stat_json(&t->d_app));
		json_object_set_new(d, "wake_to_start_ns", an_stat_json(&t->d_wake2start));
		json_object_set_new(d, "observer_ns", r->observers_known ? an_stat_json(&t->d_observer) : json_null());
		json_object_set_new(o, "decomposition", d);
	}
	json_object_set_new(o, "observer_jobs", !primary_jl && r->observers_known ?
			    json_integer((json_int_t)t->observer_jobs) : json_null());
	if (jl) {
		j = json_object();
		json_object_set_new(j, "jobs", json_integer((json_int_t)t->jl_jobs));
		json_object_set_new(j, "activation_latency_ns", an_stat_json(&t->jl_lat));
		json_object_set_new(j, "response_time_ns", an_stat_json(&t->jl_resp));
		json_object_set_new(j, "cpu_time_ns", an_stat_json(&t->jl_cpu));
		json_object_set_new(j, "overruns", json_integer((json_int_t)t->jl_overruns));
		json_object_set_new(j, "deadline_misses", json_integer((json_int_t)t->jl_misses));
		json_object_set_new(j, "missed_activations", json_integer((json_int_t)t->jl_missed));
		json_object_set_new(j, "dropped", json_integer((json_int_t)t->jl_dropped));
		json_object_set_new(o, "joblog", j);
	} else {
		json_object_set_new(o, "joblog", json_null());
	}
	if (jl && tr) {
		a = json_object();
		json_object_set_new(a, "matched", json_integer((json_int_t)t->matched));
		json_object_set_new(a, "trace_only", json_integer((json_int_t)t->trace_only));
		json_object_set_new(a, "joblog_only", json_integer((json_int_t)t->joblog_only));
		json_object_set_new(a, "activation_latency_diff_ns", an_stat_json(&t->diff));
		json_object_set_new(a, "exec_time_diff_ns", r->n_switch ? an_stat_json(&t->ediff) : json_null());
		json_object_set_new(a, "uncertainty", an_uncertainty_json(r, t));
		json_object_set_new(o, "agreement", a);
	} else {
		json_object_set_new(o, "agreement", json_null());
	}
	json_object_set_new(o, "lost_events_jobs", json_integer((json_int_t)t->lost_jobs));
	if (t->lost_jobs)
		an_affected(affected, "tasks.%s (%ld jobs)", t->name, (long)t->lost_jobs);
	json_object_set_new(o, "hidden_releases", json_integer((json_int_t)t->hidden_releases));
	if (t->hidden_releases)
		an_affected(affected, "tasks.%s.missed_activations (%ld releases in loss windows, not counted)", t->name,
			    (long)t->hidden_releases);
	an_rt_task_json(r, t, o);
	json_object_set_new(o, "culprits", primary_jl ? json_array() : an_culprits_json(r, t));
	return o;
}

/*
 * an_root_events_json - the tasks' worst activations grouped by the job
 * their lateness comes from (culprits[].root): one event that explains the
 * worst case of several tasks is said once, the most tasks first
 * (docs/results.md: root_events)
 */
static json_t *an_root_events_json(struct an_run *r)
{
	json_t *arr = json_array(), *ev, *names;
	bool *done = calloc(r->ntasks ? r->ntasks : 1, sizeof(*done));
	const struct an_culprit *rc;
	char line[512], rel[32], d[32];
	size_t len, n, i;
	int k, j, m;

	for (k = 0; done && k < r->ntasks; k++) {
		const struct an_root *root = &r->task[k]->top[0].root;

		if (done[k] || !r->task[k]->ntop || !root->task)
			continue;
		names = json_array();
		for (j = k; j < r->ntasks; j++) {
			const struct an_root *o = &r->task[j]->top[0].root;

			if (!done[j] && r->task[j]->ntop && o->task == root->task && o->seq == root->seq &&
			    o->release_ns == root->release_ns) {
				done[j] = true;
				json_array_append_new(names, json_string(r->task[j]->name));
			}
		}
		for (m = 0, rc = NULL; m < root->task->ntop && !rc; m++)
			if (root->task->top[m].seq == root->seq && root->task->top[m].release_ns == root->release_ns)
				rc = &root->task->top[m];
		n = json_array_size(names);
		snprintf(rel, sizeof(rel), "%lld.%09lld s", (long long)(root->release_ns / PF_NS_PER_SEC),
			 (long long)(root->release_ns % PF_NS_PER_SEC));
		if (rc)
			an_fmt_us(d, sizeof(d), rc->latency_ns);
		len = (size_t)snprintf(line, sizeof(line), "1 event explains the worst case of %zu task%s: %s job %u "
				       "(released at %s%s%s%s) —", n, n == 1 ? "" : "s", root->task->name, root->seq, rel,
				       rc ? ", " : "", rc ? d : "", rc ? " late" : "");
		for (i = 0; i < n && len < sizeof(line); i++)
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s", i ? "," : "",
						json_string_value(json_array_get(names, i)));
		ev = json_pack("{sssIsIsososs}", "task", root->task->name, "seq", (json_int_t)root->seq,
			       "release_ns", (json_int_t)root->release_ns,
			       "latency_ns", rc ? json_integer(rc->latency_ns) : json_null(), "tasks", names,
			       "summary", line);
		for (i = json_array_size(arr); i > 0 &&
		     json_array_size(json_object_get(json_array_get(arr, i - 1), "tasks")) < n; i--)
			;
		json_array_insert_new(arr, i, ev);
	}
	free(done);
	return arr;
}

static json_t *an_app_json(struct an_run *r, json_t *affected)
{
	struct an_win *w1s, *wslot;
	bool trace_src;
	json_t *o, *tids, *per;
	int64_t dur;
	size_t i;
	int k;

	if (!r->ntasks)
		return json_null();
	o = json_object();
	for (i = 0, k = 0; i < r->nthr && !k; i++)
		k = r->thr[i].app_rt;
	/* from the trace when it shows the app's threads (markers), else from the job log */
	trace_src = r->opt.trace && r->events && (k || !r->opt.joblog);
	if (trace_src) {
		dur = r->end_ns - r->start_ns;
		tids = json_array();
		for (i = 0; i < r->nthr; i++)
			if (r->thr[i].app_rt)
				json_array_append_new(tids, json_integer(r->thr[i].pid));
		per = json_array();
		for (k = 0; k < r->ncpus; k++)
			json_array_append_new(per, an_frac(r->cpu[k].app_ns, dur));
		json_object_set_new(o, "source", json_string("trace"));
		json_object_set_new(o, "threads", tids);
		json_object_set_new(o, "utilisation", an_frac(r->app_runtime_ns, dur));
		json_object_set_new(o, "utilisation_all_cpus", an_frac(r->app_runtime_ns, dur * r->ncpus));
		json_object_set_new(o, "utilisation_per_cpu", per);
		if (r->nlost)
			json_array_append_new(affected, json_string("app.utilisation"));
	} else {
		dur = r->jl_start_ns && r->jl_end_ns > r->jl_start_ns ? r->jl_end_ns - r->jl_start_ns
		      : r->jl_last_end_ns - r->jl_first_release_ns;
		json_object_set_new(o, "source", json_string("joblog"));
		json_object_set_new(o, "threads", json_null());
		json_object_set_new(o, "utilisation", an_frac(r->jl_cpu_ns, dur));
		json_object_set_new(o, "utilisation_all_cpus", json_null());
		json_object_set_new(o, "utilisation_per_cpu", json_null());
	}
	json_object_set_new(o, "no_rt", json_boolean(r->app_no_rt));
	w1s = trace_src ? &r->app_w1s : &r->jl_w1s;
	wslot = trace_src ? &r->app_wslot : &r->jl_wslot;
	json_object_set_new(o, "utilisation_max_1s", w1s->width_ns ? json_real(an_win_max(w1s, dur)) : json_null());
	json_object_set_new(o, "utilisation_max_slot", wslot->width_ns ? json_real(an_win_max(wslot, dur)) : json_null());
	return o;
}

/* an_lost_slots - how many slots a lost-event window overlaps (each slot counted once) */
static int64_t an_lost_slots(struct an_run *r, int64_t nslots)
{
	int64_t first, last, k, n = 0;
	uint8_t *hit;
	size_t i;

	if (!r->nlost || nslots <= 0 || !(hit = calloc((size_t)nslots, 1)))
		return r->nlost && nslots > 0 ? nslots : 0;	/* no memory: say every slot */
	for (i = 0; i < r->nlost; i++) {
		first = (r->lost[i].start_ns - r->slot_first_ns) / r->opt.slot_ns;
		last = (r->lost[i].end_ns - r->slot_first_ns) / r->opt.slot_ns;
		if (r->lost[i].end_ns < r->slot_first_ns || first >= nslots)
			continue;
		for (k = first < 0 ? 0 : first; k <= last && k < nslots; k++)
			if (!hit[k]) {
				hit[k] = 1;
				n++;
			}
	}
	free(hit);
	return n;
}

static json_t *an_slots_json(struct an_run *r, json_t *affected)
{
	json_t *o, *base, *idx;
	int64_t count = 0, lost = 0;
	char note[64];
	int i;

	if (!r->ntasks)
		return json_null();
	o = json_object();
	base = json_array();
	for (i = 0; i < r->ntasks; i++)
		if (r->task[i]->period_ns == r->opt.slot_ns)
			json_array_append_new(base, json_string(r->task[i]->name));
	idx = json_array();
	for (i = 0; i < r->n_overrun_slots; i++)
		json_array_append_new(idx, json_integer(r->overrun_slots[i]));
	json_object_set_new(o, "slot_ns", json_integer(r->opt.slot_ns));
	json_object_set_new(o, "base_tasks", base);
	if (r->slot_origin_ns) {
		count = (r->slot_last_ns - r->slot_first_ns + r->opt.slot_ns / 2) / r->opt.slot_ns + 1;
		lost = an_lost_slots(r, count);
	}
	json_object_set_new(o, "count", r->slot_origin_ns ? json_integer(count) : json_null());
	json_object_set_new(o, "overruns", r->slot_origin_ns ? json_integer((json_int_t)r->slot_overruns) : json_null());
	json_object_set_new(o, "overrun_slots", idx);
	json_object_set_new(o, "lost_events_slots", r->slot_origin_ns ? json_integer(lost) : json_null());
	if (lost) {
		snprintf(note, sizeof(note), "slots (%lld slots)", (long long)lost);
		json_array_append_new(affected, json_string(note));
	}
	return o;
}

static json_t *an_trace_json(struct an_run *r)
{
	json_t *o = json_object(), *by = json_array(), *seen = json_object();
	int k;

	for (k = 0; k < r->ncpus; k++)
		json_array_append_new(by, json_integer(r->cpu[k].lost));
	json_object_set_new(o, "file", pf_json_bytes(r->opt.trace, NULL));
	json_object_set_new(o, "file_version", json_integer((json_int_t)r->file_version));
	json_object_set_new(o, "clock", json_string(r->clock));
	json_object_set_new(o, "cpus", json_integer(r->ncpus));
	json_object_set_new(o, "events", json_integer((json_int_t)r->events));
	json_object_set_new(o, "start_ns", json_integer(r->start_ns));
	json_object_set_new(o, "end_ns", json_integer(r->end_ns));
	json_object_set_new(o, "duration_ns", json_integer(r->end_ns - r->start_ns));
	json_object_set_new(o, "lost_events", json_integer(r->lost_total));
	json_object_set_new(o, "lost_unknown", json_integer(r->lost_unknown));
	json_object_set_new(o, "lost_by_cpu", by);
	json_object_set_new(o, "wakeups_recorded", json_string(r->rt_wakeups ? "realtime threads" : "all threads"));
	json_object_set_new(o, "switches_recorded", json_string(r->rt_switches ? "realtime threads and idle" :
			    "all threads"));
	if (r->observers_known) {
		json_t *obs = json_array();

		for (k = 0; k < r->nobservers; k++)
			json_array_append_new(obs, json_integer(r->observers[k]));
		json_object_set_new(o, "observer_pids", obs);
	} else {
		json_object_set_new(o, "observer_pids", json_null());
	}
	json_object_set_new(seen, "sched_switch", json_integer((json_int_t)r->n_switch));
	json_object_set_new(seen, "sched_waking", json_integer((json_int_t)r->n_waking));
	json_object_set_new(seen, "sched_wakeup", json_integer((json_int_t)r->n_wakeup));
	json_object_set_new(seen, "sched_migrate_task", json_integer((json_int_t)r->n_migrate));
	json_object_set_new(seen, "irq_handler_entry", json_integer((json_int_t)r->n_irq));
	json_object_set_new(seen, "irq_vectors_entry", json_integer((json_int_t)r->n_vec));
	json_object_set_new(seen, "softirq_entry", json_integer((json_int_t)r->n_softirq));
	json_object_set_new(seen, "hrtimer_expire_entry", json_integer((json_int_t)r->n_hrtimer));
	json_object_set_new(seen, "markers", json_integer((json_int_t)r->n_markers));
	json_object_set_new(o, "switches_inferred", json_integer((json_int_t)r->n_inferred));
	json_object_set_new(o, "events_seen", seen);
	return o;
}

/* an_nullify - set the listed members of every object of arr (or of obj) to null, and say why */
static void an_nullify(json_t *x, const char *const *keys, const char *why)
{
	json_t *o;
	size_t i;

	if (json_is_array(x)) {
		json_array_foreach(x, i, o)
			an_nullify(o, keys, why);
		return;
	}
	if (!json_is_object(x))
		return;
	for (; *keys; keys++)
		if (json_object_get(x, *keys))
			json_object_set_new(x, *keys, json_null());
	json_object_set_new(x, "runtime_unavailable", json_string(why));
}

/*
 * an_no_sched - a trace without sched_switch (markers only, or a foreign
 * trace of other events): who ran when is unknown, so every figure built on
 * it is not available, never 0
 */
static void an_no_sched(json_t *res)
{
	static const char *const cpu[] = { "busy_ns", "utilisation", "idle_ns", "idle", NULL };
	static const char *const task[] = { "exec_time_ns", "preemptions", "migrations",
		"preemptions_per_job", "migrations_per_job", NULL };
	static const char *const app[] = { "utilisation", "utilisation_all_cpus", "utilisation_per_cpu",
		"utilisation_max_1s", "utilisation_max_slot", NULL };
	const char *why = "no sched_switch events in the trace";
	json_t *t, *a = json_object_get(res, "app");
	size_t i;

	an_nullify(json_object_get(res, "cpus"), cpu, why);
	json_array_foreach(json_object_get(res, "tasks"), i, t)
		if (strcmp(json_string_value(json_object_get(t, "source")), "joblog"))
			an_nullify(t, task, why);
	if (json_is_object(a) && !strcmp(json_string_value(json_object_get(a, "source")), "trace"))
		an_nullify(a, app, why);
}

/*
 * an_lost_reconcile - per CPU, the file's statistics (overrun, dropped) count
 * every event the ring buffer lost, and the records' missed_events place some
 * of those same losses: a CPU lost the larger of the two, never their sum
 */
static void an_lost_reconcile(struct an_run *r)
{
	int k;

	if (r->lost_reconciled)
		return;
	r->lost_reconciled = true;
	for (k = 0; k < r->ncpus; k++)
		if (r->cpu[k].lost_stats > r->cpu[k].lost) {
			r->lost_total += r->cpu[k].lost_stats - r->cpu[k].lost;
			r->cpu[k].lost = r->cpu[k].lost_stats;
		}
}

/*
 * an_lost_unplaced - a CPU whose statistics count lost events while no record
 * of it says where (no window on that CPU) lost them at unknown times: every
 * metric may be touched
 */
static void an_lost_unplaced(struct an_run *r, json_t *affected)
{
	char note[128];
	size_t i;
	int k;

	for (k = 0; k < r->ncpus; k++) {
		if (!r->cpu[k].lost_stats)
			continue;
		for (i = 0; i < r->nlost && r->lost[i].cpu != k; i++)
			;
		if (i < r->nlost)
			continue;
		snprintf(note, sizeof(note), "every metric: CPU %d lost %lld events at unknown times", k,
			 (long long)r->cpu[k].lost_stats);
		json_array_append_new(affected, json_string(note));
	}
}

/*
 * an_incomplete_json - why the inputs end early, each said once (on stderr
 * too): a trace the recorder marked INCOMPLETE (recovered after it was
 * killed, or cut by a full disk), a job log whose disk filled, a job log
 * whose last line was cut short; [] when complete
 */
static json_t *an_incomplete_json(struct an_run *r)
{
	json_t *a = json_array();
	long cut = pf_joblog_cut_line(r->jl);
	char note[600];

	if (r->trace_incomplete[0]) {
		snprintf(note, sizeof(note), "trace: %s; its last event read is at %.6f s", r->trace_incomplete,
			 r->end_ns / 1e9);
		json_array_append_new(a, json_string(note));
	}
	if (r->jl_write_error[0]) {
		snprintf(note, sizeof(note), "job log: %s", r->jl_write_error);
		json_array_append_new(a, json_string(note));
	}
	if (cut) {
		snprintf(note, sizeof(note), "job log: line %ld is cut short (the file ends inside it): "
			 "skipped, the job log ends at line %ld", cut, cut - 1);
		json_array_append_new(a, json_string(note));
	}
	for (size_t i = 0; i < json_array_size(a); i++)
		pf_err("note: INCOMPLETE: %s", json_string_value(json_array_get(a, i)));
	return a;
}

/*
 * an_path_json - an input's path: jansson refuses a string that is not UTF-8
 * (and a key set to it is silently left out), so such a path is written with
 * \xNN for its other bytes, and said on stderr; null for no path
 */
static json_t *an_path_json(const char *path, const char *what)
{
	bool quoted;
	json_t *j;

	if (!path)
		return json_null();
	j = pf_json_bytes(path, &quoted);
	if (quoted)
		pf_err("note: the %s path is not UTF-8: results.json inputs.%s holds it as %s", what, what,
		       json_string_value(j));
	return j;
}

json_t *an_results_json(struct an_run *r)
{
	json_t *res = json_object(), *in = json_object(), *lost = json_object(), *wins = json_array();
	json_t *affected = json_array(), *tasks = json_array(), *w;
	bool trace = r->opt.trace && r->ncpus;
	size_t i;
	int k;

	an_lost_reconcile(r);
	json_object_set_new(res, "schema", json_string("preflight-results/1"));
	json_object_set_new(res, "generator", json_string("preflight analyze " PF_VERSION));
	json_object_set_new(in, "trace", an_path_json(r->opt.trace, "trace"));
	json_object_set_new(in, "joblog", an_path_json(r->opt.joblog, "joblog"));
	json_object_set_new(in, "cyclictest", an_path_json(r->opt.cyclictest, "cyclictest"));
	json_object_set_new(res, "inputs", in);
	json_object_set_new(res, "trace", trace ? an_trace_json(r) : json_null());
	w = an_threads_select(r);
	if (trace)
		json_object_set_new(res, "threads_listing", w);
	else
		json_decref(w);
	json_object_set_new(res, "threads", json_array());	/* streamed by an_results_dump */
	if (trace)
		an_threads_affected(r, affected);
	json_object_set_new(res, "cpus", trace ? an_cpus_json(r, affected) : json_array());
	for (k = 0; k < r->ntasks; k++)
		json_array_append_new(tasks, an_task_json(r, r->task[k], affected));
	json_object_set_new(res, "tasks", tasks);
	json_object_set_new(res, "root_events", an_root_events_json(r));
	json_object_set_new(res, "app", an_app_json(r, affected));
	json_object_set_new(res, "slots", an_slots_json(r, affected));
	json_object_set_new(res, "cyclictest", r->cyclictest ? json_incref(r->cyclictest) : json_null());
	for (i = 0; i < r->nlost && i < AN_MAX_LOST_WIN; i++) {
		w = json_object();
		json_object_set_new(w, "cpu", json_integer(r->lost[i].cpu));
		json_object_set_new(w, "start_ns", json_integer(r->lost[i].start_ns));
		json_object_set_new(w, "end_ns", json_integer(r->lost[i].end_ns));
		json_object_set_new(w, "events", json_integer(r->lost[i].events));
		json_array_append_new(wins, w);
	}
	json_object_set_new(lost, "total", json_integer(r->lost_total));
	json_object_set_new(lost, "unknown", json_integer(r->lost_unknown));
	json_object_set_new(lost, "windows", wins);
	json_object_set_new(lost, "windows_truncated", json_boolean(r->nlost > AN_MAX_LOST_WIN));
	if (r->lost_stats && !r->nlost)
		json_array_append_new(affected, json_string("every metric: the recorder reports lost events "
							    "but not where"));
	else
		an_lost_unplaced(r, affected);
	json_object_set_new(lost, "affected", affected);
	json_object_set_new(res, "lost_events", lost);
	json_object_set_new(res, "incomplete", an_incomplete_json(r));
	if (trace && !r->n_switch)
		an_no_sched(res);
	return res;
}

/* ---- CSV ---- */

/* an_csv_cell - one field of a row, from a JSON value */
static void an_csv_cell(FILE *f, json_t *v, bool first)
{
	char buf[64];
	const char *s = buf;

	if (!first)
		fputc(',', f);
	if (json_is_string(v))
		s = json_string_value(v);
	else if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, sizeof(buf), "%.6f", json_real_value(v));
	else if (json_is_true(v) || json_is_false(v))
		s = json_is_true(v) ? "1" : "0";
	else
		buf[0] = '\0';
	csv_fwrite(f, s, strlen(s));
}

/* an_csv_open - a CSV table in dir with its header line; NULL after printing why */
static FILE *an_csv_open(const char *dir, const char *name, const char *const *cols, int ncols)
{
	char path[4096], key[128], *dot;
	FILE *f;
	int c;

	/* lib/outfile.h: committed by pf_outfile_commit */
	if (pf_path_join(path, sizeof(path), dir, name) || pf_outfile_open(path, &f))
		return NULL;
	for (c = 0; c < ncols; c++) {
		snprintf(key, sizeof(key), "%s", cols[c]);
		for (dot = key; (dot = strchr(dot, '.')); )
			*dot = '_';
		if (c)
			fputc(',', f);
		csv_fwrite(f, key, strlen(key));
	}
	fputc('\n', f);
	return f;
}

/* an_csv_row - one row: the members cols (dotted paths) of an object */
static void an_csv_row(FILE *f, json_t *row, const char *const *cols, int ncols)
{
	char key[128];
	json_t *v;
	int c;

	for (c = 0; c < ncols; c++) {
		snprintf(key, sizeof(key), "%s", cols[c]);
		v = row;
		for (char *tok = strtok(key, "."); tok && v; tok = strtok(NULL, "."))
			v = json_object_get(v, tok);
		an_csv_cell(f, v, c == 0);
	}
	fputc('\n', f);
}

/* an_csv_table - a CSV table of the objects of arr */
static int an_csv_table(const char *dir, const char *name, json_t *arr, const char *const *cols, int ncols)
{
	FILE *f = an_csv_open(dir, name, cols, ncols);
	json_t *row;
	size_t i;

	if (!f)
		return PF_EXIT_ENV;
	json_array_foreach(arr, i, row)
		an_csv_row(f, row, cols, ncols);
	return pf_outfile_commit(f);
}

/* the columns of results-threads.csv */
static const char *const an_thread_cols[] = {
	"pid", "comm", "prio", "policy", "rtprio", "runtime_ns", "utilisation", "utilisation_max_10ms",
	"utilisation_max_1s", "switches", "preemptions", "migrations", "wakeups",
	"wakeup_latency_ns.count", "wakeup_latency_ns.max", "wakeup_latency_ns.p99",
	"wakeup_latency_from_wakeup_ns.max", "lost_events",
};

/* an_csv_thread - an_threads_each step: one row of results-threads.csv */
static int an_csv_thread(json_t *o, void *arg)
{
	an_csv_row(arg, o, an_thread_cols, PF_ARRAY_SIZE(an_thread_cols));
	return 0;
}

int an_write_csv(struct an_run *r, json_t *res, const char *dir)
{
	static const char *const cpu[] = {
		"cpu", "elapsed_ns", "busy_ns", "utilisation", "idle_ns", "hardirq_ns", "softirq_ns", "lost_events",
	};
	static const char *const task[] = {
		"name", "tid", "source", "jobs", "activation_latency_ns.max", "activation_latency_ns.p99",
		"activation_latency_ns.max_id", "response_time_ns.max", "exec_time_ns.max", "cpu_time_ns.max",
		"overruns", "deadline_misses", "missed_activations", "preemptions", "migrations", "lost_events_jobs",
		"wakeup_latency_ns.max", "chained_jobs",
	};
	static const char *const cul[] = {
		"task", "seq", "cpu", "release_ns", "start_ns", "latency_ns", "wakeup_latency_ns", "not_woken_ns",
		"timer_expiry_delay_ns", "runnable_ns", "app_delay_ns", "released_by.task", "released_by.latency_ns",
		"explained", "complete", "summary", "root.task", "root.seq",
	};
	json_t *tasks = json_object_get(res, "tasks"), *all = json_array(), *t, *c;
	size_t i, k;
	int ret;

	FILE *f = an_csv_open(dir, AN_CSV_THREADS, an_thread_cols, PF_ARRAY_SIZE(an_thread_cols));

	if (!f)
		return PF_EXIT_ENV;
	an_threads_each(r, an_csv_thread, f);
	ret = pf_outfile_commit(f);
	if (!ret)
		ret = an_csv_table(dir, AN_CSV_CPUS, json_object_get(res, "cpus"), cpu, PF_ARRAY_SIZE(cpu));
	if (!ret)
		ret = an_csv_table(dir, AN_CSV_TASKS, tasks, task, PF_ARRAY_SIZE(task));
	json_array_foreach(tasks, i, t)
		json_array_foreach(json_object_get(t, "culprits"), k, c) {
			json_t *x = json_deep_copy(c);

			json_object_set(x, "task", json_object_get(t, "name"));
			json_array_append_new(all, x);
		}
	if (!ret)
		ret = an_csv_table(dir, AN_CSV_CULPRITS, all, cul, PF_ARRAY_SIZE(cul));
	json_decref(all);
	return ret;
}

/* ---- text summary ---- */

/* an_is_affected - is 'what' listed in lost_events.affected */
static bool an_is_affected(json_t *res, const char *what)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(res, "lost_events"), "affected"), i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), what))
			return true;
	return false;
}

/* an_listed - is key in the string array 'list' of a statistics object ("is_max", "estimated") */
static bool an_listed(json_t *stats, const char *list, const char *key)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(stats, list), i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), key))
			return true;
	return false;
}

/* an_ct_val - a cyclictest ns value in the file's unit (µs or ns) with 'prec' decimals, "n/a" for null */
static const char *an_ct_val(json_t *v, double div, int prec, char *buf, size_t size)
{
	if (!json_is_number(v))
		return "n/a";
	snprintf(buf, size, "%.*f", prec, json_number_value(v) / div);
	return buf;
}

/* an_print_cyclictest - the imported cyclictest baseline, one line per thread, in its unit */
static void an_print_cyclictest(json_t *ct, FILE *out)
{
	char b0[32], b1[32], b2[32], b3[32], b4[32], b5[32];
	const char *unit = json_string_value(json_object_get(ct, "unit"));
	bool estimated = false;
	double div;
	json_t *o, *lat;
	size_t i;

	if (!json_is_object(ct))
		return;
	div = unit && !strcmp(unit, "ns") ? 1.0 : 1000.0;
	fprintf(out, "\ncyclictest baseline (%s, %s, times in %s):\n%-8s %5s %9s %9s %11s %11s %9s %9s %9s\n",
		json_string_value(json_object_get(ct, "file")), json_string_value(json_object_get(ct, "format")),
		div == 1.0 ? "ns" : "µs", "thread", "cpu", "cycles", "min", "mean", "stddev", "p99", "max", "overflows");
	json_array_foreach(json_object_get(ct, "threads"), i, o) {
		lat = json_object_get(o, "latency_ns");
		an_ct_val(json_object_get(lat, "stddev"), div, 2, b5, sizeof(b5));
		if (an_listed(lat, "estimated", "stddev")) {
			strcat(b5, "~");	/* room: b5 holds a number of at most 24 characters */
			estimated = true;
		}
		fprintf(out, "%-8s %5s %9lld %9s %11s %11s %9s %9s %9lld\n",
			json_string_value(json_object_get(o, "name")),
			json_is_integer(json_object_get(o, "cpu")) ?
			(snprintf(b0, sizeof(b0), "%lld", json_integer_value(json_object_get(o, "cpu"))), b0) : "-",
			json_integer_value(json_object_get(lat, "count")),
			an_ct_val(json_object_get(lat, "min"), div, 0, b1, sizeof(b1)),
			an_ct_val(json_object_get(lat, "mean"), div, 2, b2, sizeof(b2)),
			json_is_number(json_object_get(lat, "stddev")) ? b5 : "n/a",
			an_listed(lat, "is_max", "p99") ? "=max" : an_ct_val(json_object_get(lat, "p99"), div, 0, b3, sizeof(b3)),
			an_ct_val(json_object_get(lat, "max"), div, 0, b4, sizeof(b4)),
			json_integer_value(json_object_get(json_object_get(o, "overflows"), "count")));
	}
	fprintf(out, "(p99 n/a: it lies among overflows whose values cyclictest did not write; =max: fewer than\n"
		" the 100 cycles p99 needs, p99 is the max)\n");
	if (estimated)
		fprintf(out, "(stddev~ estimated: it depends on the overflows' unknown values; the least spread they "
			"allow, a lower bound)\n");
}

/* an_us - a JSON ns value as µs text, "n/a" for null */
static const char *an_us(json_t *v, char *buf, size_t size)
{
	if (!json_is_number(v))
		return "n/a";
	snprintf(buf, size, "%.1f", json_number_value(v) / 1000.0);
	return buf;
}

/* an_print_observer - the observer line of a task, when preflight's own threads delayed it */
static void an_print_observer(json_t *task, FILE *out)
{
	json_t *obs = json_object_get(json_object_get(task, "decomposition"), "observer_ns");
	json_int_t jobs = json_integer_value(json_object_get(task, "observer_jobs"));
	char b1[32];

	if (!jobs)
		return;
	fprintf(out, "%s: the observer (preflight's own threads) stood between release and start in "
		"%lld of %lld jobs: max %s µs, mean %.2f µs over all jobs\n",
		json_string_value(json_object_get(task, "name")), (long long)jobs,
		json_integer_value(json_object_get(obs, "count")),
		an_us(json_object_get(obs, "max"), b1, sizeof(b1)),
		json_real_value(json_object_get(obs, "mean")) / 1000.0);
}

/* an_us_pct - a percentile of a statistics object as µs text; "=max" when too few samples give it */
static const char *an_us_pct(json_t *stats, const char *key, char *buf, size_t size)
{
	if (an_listed(stats, "is_max", key))
		return "=max";
	return an_us(json_object_get(stats, key), buf, size);
}

/* an_pct - a JSON fraction as a percentage, 0 for null */
static double an_pct(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) * 100.0 : 0.0;
}

/* an_cmp_runtime - threads by falling runtime (then by their order of appearance), for qsort */
static int an_cmp_runtime(const void *a, const void *b)
{
	const struct an_thread *x = *(const struct an_thread *const *)a, *y = *(const struct an_thread *const *)b;

	if (x->runtime_ns != y->runtime_ns)
		return x->runtime_ns < y->runtime_ns ? 1 : -1;
	return (x > y) - (x < y);
}

/* an_threads_busiest - entries of threads[] of the n busiest threads; *listed: how many are listed */
static json_t *an_threads_busiest(struct an_run *r, size_t n, size_t *listed)
{
	struct an_thread **v = calloc(r->nthr ? r->nthr : 1, sizeof(*v));
	json_t *arr = json_array();
	size_t i, k = 0;

	for (i = 0; v && i < r->nthr; i++)
		if (an_thread_listed(r, &r->thr[i]))
			v[k++] = &r->thr[i];
	*listed = k;
	if (v)
		qsort(v, k, sizeof(*v), an_cmp_runtime);
	for (i = 0; v && i < k && i < n; i++)
		json_array_append_new(arr, an_thread_json(r, v[i]));
	free(v);
	return arr;
}

/* an_print_small_n - which tasks' activation-latency p99 is their max, with n: too few jobs for it */
static void an_print_small_n(json_t *tasks, FILE *out)
{
	json_t *o, *lat;
	size_t i, n = 0;

	json_array_foreach(tasks, i, o) {
		lat = json_object_get(o, "activation_latency_ns");
		if (!an_listed(lat, "is_max", "p99"))
			continue;
		fprintf(out, "%s%s (n = %lld)", n++ ? ", " : "p99 = max (fewer than the 100 jobs p99 needs): ",
			json_string_value(json_object_get(o, "name")), json_integer_value(json_object_get(lat, "count")));
	}
	if (n)
		fputc('\n', out);
}

void an_print_summary(struct an_run *r, json_t *res, FILE *out)
{
	json_t *tr = json_object_get(res, "trace"), *arr, *o, *c, *lat, *app, *slots;
	char b1[32], b2[32], b3[32], b4[32], b5[32];
	size_t i, k, shown;

	if (json_is_object(tr)) {
		fprintf(out, "trace %s: v%lld, clock %s, %lld CPUs, %lld events over %.3f s",
			r->opt.trace, json_integer_value(json_object_get(tr, "file_version")), r->clock,
			json_integer_value(json_object_get(tr, "cpus")),
			json_integer_value(json_object_get(tr, "events")),
			(double)json_integer_value(json_object_get(tr, "duration_ns")) / 1e9);
		if (r->lost_total || r->lost_unknown)
			fprintf(out, ", LOST %lld events (%lld places of unknown count): metrics marked below",
				(long long)r->lost_total, (long long)r->lost_unknown);
		fputc('\n', out);
		if (!r->n_waking)
			fprintf(out, "wakeup latency: not available (no sched_waking events in the trace)\n");
		if (!r->n_switch)
			fprintf(out, "runtime, utilisation, preemptions: not available (no sched_switch events)\n");
		if (r->n_inferred)
			fprintf(out, "note: %llu context switches were not in the trace and were inferred from the "
				"threads' events\n", (unsigned long long)r->n_inferred);
		for (i = 0, k = r->gone_unresolved; i < r->nthr; i++)
			k += r->thr[i].life == AN_GONE ? 0 : r->thr[i].unresolved;
		if (k)
			fprintf(out, "note: %zu wakeups are no latency sample: their switch-in was inferred more than "
				"a tick later or never seen (threads.*.wakeups_unresolved)\n", k);
		fprintf(out, "\n%-16s %7s %-14s %7s %9s %9s %9s %6s %6s\n", "thread", "pid", "prio (kernel)", "util%",
			"wake p99", "wake max", "max10ms%", "preem", "migr");
		arr = an_threads_busiest(r, 30, &shown);
		json_array_foreach(arr, i, o) {
			lat = json_object_get(o, "wakeup_latency_ns");
			fprintf(out, "%-16.16s %7lld %-14s %7.2f %9s %9s %9.1f %6lld %6lld%s\n",
				json_string_value(json_object_get(o, "comm")),
				json_integer_value(json_object_get(o, "pid")),
				an_sched_label(res, o, b3, sizeof(b3)),
				an_pct(json_object_get(o, "utilisation")),
				an_us_pct(lat, "p99", b1, sizeof(b1)),
				an_us(json_object_get(lat, "max"), b2, sizeof(b2)),
				an_pct(json_object_get(o, "utilisation_max_10ms")),
				json_integer_value(json_object_get(o, "preemptions")),
				json_integer_value(json_object_get(o, "migrations")),
				json_is_true(json_object_get(o, "lost_events")) ? "  [lost events]" : "");
		}
		if (shown > json_array_size(arr))
			fprintf(out, "... %zu more threads in results.json\n", shown - json_array_size(arr));
		json_array_foreach(arr, i, o)
			if (an_listed(json_object_get(o, "wakeup_latency_ns"), "is_max", "p99")) {
				fprintf(out, "(=max: fewer than the 100 wakeups p99 needs, so p99 is the max)\n");
				break;
			}
		json_decref(arr);
		fprintf(out, "\n%-4s %7s %7s %8s %8s\n", "cpu", "util%", "idle%", "hardirq%", "softirq%");
		json_array_foreach(json_object_get(res, "cpus"), i, o)
			fprintf(out, "%-4lld %7.2f %7.2f %8s %8s%s\n", json_integer_value(json_object_get(o, "cpu")),
				an_pct(json_object_get(o, "utilisation")), an_pct(json_object_get(o, "idle")),
				json_is_number(json_object_get(o, "hardirq")) ?
				(snprintf(b1, sizeof(b1), "%.2f", an_pct(json_object_get(o, "hardirq"))), b1) : "n/a",
				json_is_number(json_object_get(o, "softirq")) ?
				(snprintf(b2, sizeof(b2), "%.2f", an_pct(json_object_get(o, "softirq"))), b2) : "n/a",
				json_integer_value(json_object_get(o, "lost_events")) ? "  [lost events]" : "");
	}
	arr = json_object_get(res, "tasks");
	if (json_array_size(arr)) {
		fprintf(out, "\n%-10s %-12s %7s %9s %9s %9s %9s %9s %5s %5s %5s\n", "task", "source", "jobs", "lat p99",
			"lat max", "wake max", "resp max", "exec max", "ovr", "miss", "skip");
		json_array_foreach(arr, i, o) {
			lat = json_object_get(o, "activation_latency_ns");
			fprintf(out, "%-10s %-12s %7lld %9s %9s %9s %9s %9s %5lld %5lld %5lld%s\n",
				json_string_value(json_object_get(o, "name")),
				json_string_value(json_object_get(o, "source")),
				json_integer_value(json_object_get(o, "jobs")),
				an_us_pct(lat, "p99", b1, sizeof(b1)),
				an_us(json_object_get(lat, "max"), b2, sizeof(b2)),
				an_us(json_object_get(json_object_get(o, "wakeup_latency_ns"), "max"), b5, sizeof(b5)),
				an_us(json_object_get(json_object_get(o, "response_time_ns"), "max"), b3, sizeof(b3)),
				an_us(json_object_get(json_object_get(o, "exec_time_ns"), "max"), b4, sizeof(b4)),
				json_integer_value(json_object_get(o, "overruns")),
				json_integer_value(json_object_get(o, "deadline_misses")),
				json_integer_value(json_object_get(o, "missed_activations")),
				json_integer_value(json_object_get(o, "lost_events_jobs")) ? "  [lost events]" : "");
		}
		fprintf(out, "(times in µs; wake: from the waking by the releasing task for a chained job, else from the "
			"release)\n");
		an_print_small_n(arr, out);
		app = json_object_get(res, "app");
		if (json_is_object(app))
			fprintf(out, "\napp utilisation (%s): %.1f %% of one CPU, worst 1 s %.1f %%, worst slot %.1f %%%s\n",
				json_string_value(json_object_get(app, "source")),
				an_pct(json_object_get(app, "utilisation")),
				an_pct(json_object_get(app, "utilisation_max_1s")),
				an_pct(json_object_get(app, "utilisation_max_slot")),
				an_is_affected(res, "app.utilisation") ? "  [lost events]" : "");
		slots = json_object_get(res, "slots");
		if (json_is_integer(json_object_get(slots, "count")))
			fprintf(out, "slots of %.1f ms: %lld, overruns %lld%s\n",
				(double)r->opt.slot_ns / 1e6, json_integer_value(json_object_get(slots, "count")),
				json_integer_value(json_object_get(slots, "overruns")),
				json_integer_value(json_object_get(slots, "lost_events_slots")) ? "  [lost events]" : "");
		json_array_foreach(arr, i, o) {
			json_array_foreach(json_object_get(o, "culprits"), k, c)
				fprintf(out, "%s\n", json_string_value(json_object_get(c, "summary")));
		}
		json_array_foreach(json_object_get(res, "root_events"), i, o)
			if (json_array_size(json_object_get(o, "tasks")) > 1)
				fprintf(out, "%s\n", json_string_value(json_object_get(o, "summary")));
		json_array_foreach(arr, i, o)
			an_print_observer(o, out);
	}
	an_print_cyclictest(json_object_get(res, "cyclictest"), out);
	if (json_array_size(json_object_get(json_object_get(res, "lost_events"), "affected"))) {
		fprintf(out, "\nlost events affect:");
		json_array_foreach(json_object_get(json_object_get(res, "lost_events"), "affected"), i, o)
			fprintf(out, "%s %s", i ? "," : "", json_string_value(o));
		fputc('\n', out);
	}
}
