/*
 * snapshots.c - a phase recorded by the flight recorder: the job log gives
 * every job's figures for the whole run, the snapshots (trace-NNN.dat, each a
 * window of the kernel's events ending at its trigger) give the kernel's view
 * of the jobs they cover. Each task's worst activations by the job log are
 * explained by the first snapshot that holds them; the others are listed with
 * why no snapshot holds them and what setting would capture them next time.
 *
 * Each snapshot is analysed alone, as a trace of its own (trace.c, sched.c,
 * tasks.c), with the tasks the job log declares - a window seldom holds the
 * app's declaration markers, written at its start. A job two overlapping
 * snapshots hold is explained once, by the earlier file; the later one counts
 * it under 'again'. Memory is one snapshot's analysis at a time.
 */
#define _GNU_SOURCE
#include "snapshots.h"
#include "results.h"
#include "sched.h"
#include "tasks.h"
#include "timeline.h"
#include "trace.h"
#include "cyclictest_wakeups.h"
#include "state.h"
#include "common.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* worst activations a snapshot's own analysis keeps per task: more than asked, so a near tie in
 * the trace's latency against the job log's cannot push a job out */
#define AN_SNAP_TOP(r) (4 * (r)->opt.top + 16)

/* an_is_snapshot - trace-NNN.dat */
static bool an_is_snapshot(const char *name)
{
	size_t n = strlen(name);

	return n > 10 && !strncmp(name, "trace-", 6) && !strcmp(name + n - 4, ".dat") &&
	       strspn(name + 6, "0123456789") == n - 10;
}

static int an_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int an_snapshots_find(struct an_run *r, const char *dir)
{
	struct dirent *de;
	size_t cap = 0;
	DIR *d = opendir(dir);
	char *p;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!an_is_snapshot(de->d_name))
			continue;
		if (pf_grow(&r->opt.snapshots, &cap, (size_t)r->opt.nsnapshots, sizeof(char *), 8) ||
		    asprintf(&p, "%s/%s", dir, de->d_name) < 0) {
			closedir(d);
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		}
		r->opt.snapshots[r->opt.nsnapshots++] = p;
	}
	closedir(d);
	if (r->opt.nsnapshots)
		qsort(r->opt.snapshots, r->opt.nsnapshots, sizeof(char *), an_name_cmp);
	return 0;
}

/* an_snap_declare - the job log's tasks, declared in a snapshot's own analysis */
static int an_snap_declare(struct an_run *s, const struct an_run *r)
{
	char kv[160];
	struct an_task *t;
	int k;

	for (k = 0; k < r->ntasks; k++) {
		const struct an_task *m = r->task[k];

		if (!m->declared || m->id < 0)
			continue;
		snprintf(kv, sizeof(kv), "period_ns=%lld deadline_ns=%lld prio=%d policy=%s kind=%s",
			 (long long)m->period_ns, (long long)m->deadline_ns, m->prio, m->policy,
			 m->background ? "background" : "task");
		if (!(t = an_task_declare(s, m->name, m->id, kv, false)))
			return -ENOMEM;
		t->tid = m->tid;
	}
	return 0;
}

/* an_snap_match - give the task's unexplained worst activations the culprits (and timelines) snapshot s found */
static void an_snap_match(struct an_run *r, int idx, struct an_task *t, struct an_run *s, const struct an_task *st)
{
	int i, k;

	for (i = 0; i < t->nworst; i++) {
		struct an_worst *w = &t->worst[i];

		for (k = 0; k < st->ntop && st->top[k].seq != w->seq; k++)
			;
		if (k == st->ntop || r->snap[idx].start_ns > w->release_ns)
			continue;	/* not in it, or its release is not: the window cannot explain it */
		if (w->snap >= 0) {
			r->snap[idx].again++;
			continue;
		}
		w->snap = idx;
		w->c = st->top[k];
		w->timeline = an_tl_json(s, st, &st->top[k]);
		r->snap[idx].explained++;
	}
}

/* an_snap_one - analyse one snapshot alone and match it against the worst activations; 0 or an exit code */
static int an_snap_one(struct an_run *r, int idx)
{
	struct an_run *s = calloc(1, sizeof(*s));
	struct an_snap *sn = &r->snap[idx];
	struct an_task *t;
	int ret, k;

	if (!s)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	s->opt.trace = sn->file;
	s->opt.top = AN_SNAP_TOP(r);
	s->opt.top_by_activation = true;
	s->opt.slot_ns = r->opt.slot_ns;
	s->opt.tick_ns = r->opt.tick_ns;
	s->opt.quiet = r->opt.quiet;
	s->opt.libtracecmd = r->opt.libtracecmd;
	s->last_overrun_slot = -1;
	ret = an_snap_declare(s, r) ? pf_fail(PF_EXIT_INTERNAL, "out of memory") : an_trace_read(s, sn->file);
	if (!ret) {
		an_tasks_finish(s);
		sn->start_ns = s->start_ns;
		sn->end_ns = s->end_ns;
		sn->events = s->events;
		sn->lost = s->lost_total;
		for (k = 0; k < s->ntasks; k++)
			if ((t = an_task_by_name(r, s->task[k]->name, false)))
				an_snap_match(r, idx, t, s, s->task[k]);
		ret = an_cw_merge(r, s, sn->file);	/* a cyclictest phase's snapshots */
	}
	an_run_free(s);
	free(s);
	return ret;
}

int an_snapshots_explain(struct an_run *r)
{
	int i, ret;

	r->snap = calloc(r->opt.nsnapshots ? r->opt.nsnapshots : 1, sizeof(*r->snap));
	if (!r->snap)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	for (i = 0; i < r->opt.nsnapshots; i++) {
		r->snap[i].file = r->opt.snapshots[i];
		r->nsnap++;
		if ((ret = an_snap_one(r, i)))
			return ret;
	}
	return 0;
}

/* an_base - the file name of a path */
static const char *an_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * an_why_not - why no snapshot explains a worst activation (into why), and
 * the setting that would capture it next time (the return value)
 */
static const char *an_why_not(const struct an_run *r, const struct an_worst *w, char *why, size_t size)
{
	char a[32], b[32];
	int i;

	if (!r->nsnap) {
		snprintf(why, size, "no snapshot was taken in this phase");
		return "a lower trigger (flightapp.trigger), or trace = full for a shorter run";
	}
	for (i = 0; i < r->nsnap; i++) {
		const struct an_snap *sn = &r->snap[i];

		if (sn->end_ns < w->release_ns || sn->start_ns > w->start_ns)
			continue;	/* no part of release .. start in it */
		if (sn->start_ns > w->release_ns) {
			an_fmt_us(a, sizeof(a), sn->start_ns - w->release_ns);
			snprintf(why, size, "window too short: %s begins %s after the release", an_base(sn->file), a);
			return "a longer window (preflight record --window)";
		}
		if (sn->end_ns < w->start_ns) {
			snprintf(why, size, "%s ends before the job started", an_base(sn->file));
			return "a longer window after the trigger, or trace = full for a shorter run";
		}
		snprintf(why, size, "%s covers it, but holds no job %u of the task (its markers were lost?)",
			 an_base(sn->file), w->seq);
		return "a larger trace buffer (preflight record --buffer-kb)";
	}
	if (r->opt.trigger_ns && w->latency_ns <= r->opt.trigger_ns) {
		an_fmt_us(a, sizeof(a), w->latency_ns);
		an_fmt_us(b, sizeof(b), r->opt.trigger_ns);
		snprintf(why, size, "no snapshot: %s is not above the trigger (%s)", a, b);
		return "a lower trigger (flightapp.trigger)";
	}
	if (r->opt.max_snapshots && r->nsnap >= r->opt.max_snapshots) {
		snprintf(why, size, "no snapshot: the budget of %ld snapshots was used up", r->opt.max_snapshots);
		return "more snapshots (preflight record --max-snapshots)";
	}
	snprintf(why, size, "no snapshot around it: one is asked for when a task's worst grows, at most one "
		 "per window, and another took it");
	return "a lower trigger (flightapp.trigger), or trace = full for a shorter run";
}

/* an_snap_task - a task's culprits, unexplained and culprit_coverage from its worst activations */
static void an_snap_task(struct an_run *r, struct an_task *t, json_t *o)
{
	json_t *culprits = json_array(), *unexpl = json_array(), *cov = json_object(), *c;
	const char *advice = NULL, *a;
	char why[256];
	int i, n = 0;

	for (i = 0; i < t->nworst; i++) {
		const struct an_worst *w = &t->worst[i];

		if (w->snap >= 0) {
			c = an_culprit_json(r, t, &w->c);
			json_object_set_new(c, "snapshot", json_string(an_base(r->snap[w->snap].file)));
			if (w->timeline)
				json_object_set(c, "timeline", w->timeline);
			json_array_append_new(culprits, c);
			n++;
			continue;
		}
		a = an_why_not(r, w, why, sizeof(why));
		if (!advice)
			advice = a;
		json_array_append_new(unexpl, json_pack("{s:I, s:I, s:I, s:I, s:s, s:s}", "seq", (json_int_t)w->seq,
							"release_ns", (json_int_t)w->release_ns,
							"start_ns", (json_int_t)w->start_ns,
							"latency_ns", (json_int_t)w->latency_ns, "why", why,
							"capture_with", a));
	}
	json_object_set_new(cov, "worst", json_integer(t->nworst));
	json_object_set_new(cov, "explained", json_integer(n));
	json_object_set_new(cov, "capture_with", advice ? json_string(advice) : json_null());
	json_object_set_new(o, "culprits", culprits);
	json_object_set_new(o, "unexplained", unexpl);
	json_object_set_new(o, "culprit_coverage", cov);
}

/* an_snap_trace - results.json's trace for a flight-recorder phase: the snapshots */
static json_t *an_snap_trace(const struct an_run *r)
{
	json_t *o = json_object(), *arr = json_array();
	int64_t lost = 0;
	uint64_t events = 0;
	int i;

	for (i = 0; i < r->nsnap; i++) {
		const struct an_snap *sn = &r->snap[i];

		json_array_append_new(arr, json_pack("{s:s, s:I, s:I, s:I, s:I, s:i, s:i}", "file", an_base(sn->file),
						     "start_ns", (json_int_t)sn->start_ns,
						     "end_ns", (json_int_t)sn->end_ns,
						     "trigger_ns", (json_int_t)sn->end_ns,
						     "lost_events", (json_int_t)sn->lost,
						     "explained", sn->explained, "explained_again", sn->again));
		lost += sn->lost;
		events += sn->events;
	}
	json_object_set_new(o, "mode", json_string("flight-recorder snapshots"));
	json_object_set_new(o, "snapshots", arr);
	json_object_set_new(o, "events", json_integer((json_int_t)events));
	json_object_set_new(o, "lost_events", json_integer(lost));
	json_object_set_new(o, "trigger_ns", r->opt.trigger_ns ? json_integer(r->opt.trigger_ns) : json_null());
	json_object_set_new(o, "max_snapshots", r->opt.max_snapshots ? json_integer(r->opt.max_snapshots)
			    : json_null());
	return o;
}

void an_snapshots_fold(struct an_run *r, json_t *res)
{
	json_t *tasks = json_object_get(res, "tasks"), *o;
	struct an_task *t;
	size_t i;

	if (!r->snap)
		return;
	json_object_set_new(res, "trace", an_snap_trace(r));
	json_array_foreach(tasks, i, o)
		if ((t = an_task_by_name(r, json_string_value(json_object_get(o, "name")) ?: "", false)))
			an_snap_task(r, t, o);
}

void an_snapshots_free(struct an_run *r)
{
	int i, k;

	for (k = 0; k < r->ntasks; k++)
		for (i = 0; i < r->task[k]->nworst; i++)
			json_decref(r->task[k]->worst[i].timeline);
	for (i = 0; i < r->opt.nsnapshots; i++)
		free(r->opt.snapshots[i]);
	free(r->opt.snapshots);
	free(r->snap);
}
