/*
 * analyze_test.c - unit tests of the analysis' building blocks, driven
 * directly (no trace file): utilisation windows with late intervals, lost
 * windows, inferred switches, a thread's death and its pid used again,
 * missed activations from release gaps, per-job preemptions, nested IRQ
 * time in culprits, and the job-log reader (quoted fields, CRLF, blank
 * lines, matching out of order). Run by t/0560-analyze-unit.t.
 */
#include "analysis/sched.h"
#include "analysis/tasks.h"
#include "analysis/cyclictest_wakeups.h"
#include "analysis/state.h"
#include "analysis/results.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* COMM - a comm as the trace holds it: a 16-byte field (the analysis reads all of it) */
#define COMM(s) ((const char[16]){ s })

#define US 1000LL
#define MS 1000000LL

/* new_run - an empty run with 2 CPUs starting at 0 */
static struct an_run *new_run(void)
{
	struct an_run *r = calloc(1, sizeof(*r));

	r->opt.top = 3;
	r->opt.slot_ns = 10 * MS;
	r->opt.trace = "unit";
	r->last_overrun_slot = -1;
	if (an_sched_init(r, 2))
		abort();
	an_win_init(&r->app_w1s, 1000 * MS, 0);
	an_win_init(&r->app_wslot, 10 * MS, 0);
	return r;
}

static void free_run(struct an_run *r)
{
	an_run_free(r);
	free(r);
}

static void test_windows(void)
{
	struct an_win w;

	an_win_init(&w, 10 * MS, 0);
	an_win_add(&w, 0, 5 * MS);
	check_dbl(an_win_max(&w, 0), 0.5, 1e-12, "win-1.1 half of the first window");
	an_win_add(&w, 12 * MS, 15 * MS);
	an_win_add(&w, 5 * MS, 9 * MS);		/* closes late, belongs to window 0 */
	check_dbl(an_win_max(&w, 0), 0.9, 1e-12, "win-1.2 a late interval lands in its own window");
	an_win_add(&w, 25 * MS, 47 * MS);	/* spans three windows */
	check_dbl(an_win_max(&w, 0), 1.0, 1e-12, "win-1.3 a run over whole windows fills them");
	an_win_add(&w, 1000 * MS, 1001 * MS);	/* far ahead: older windows closed */
	an_win_add(&w, 3 * MS, 4 * MS);		/* older than the ring: oldest open window */
	check_dbl(an_win_max(&w, 0), 1.0, 1e-12, "win-1.4 the maximum survives the ring");
	an_win_free(&w);
	an_win_init(&w, 1000 * MS, 0);
	an_win_add(&w, 0, 50 * MS);
	check_dbl(an_win_max(&w, 100 * MS), 0.5, 1e-12, "win-1.5 trace shorter than the window: over its duration");
	an_win_free(&w);
	an_win_init(&w, 10 * MS, 0);
	an_win_add(&w, 0, 3 * MS);
	an_win_add(&w, 5 * MS, INT64_MAX);	/* a job-log row ending at INT64_MAX: must not step through every window */
	check_dbl(an_win_max(&w, 0), 1.0, 1e-12, "win-1.6 an interval to INT64_MAX fills whole windows, at once");
	an_win_add(&w, 15 * MS, 16 * MS);	/* long past: the oldest open window */
	check(an_win_max(&w, 0) >= 1.0 && an_win_max(&w, 0) <= 1.2, "win-1.7 ... and the windows stay usable (the late part lands in the oldest open one)");
	an_win_free(&w);

	/*
	 * the job log's rows come task by task, the logger's lag apart (t/fixtures/report-run: 707 ms):
	 * two CPUs' worth, one task's 4 ms of each 10 ms window for 1 s, then the other's 3 ms of the
	 * same windows. Each window holds 7 ms; the late parts must not pile up on the oldest open
	 * window (that fixture's job log gave a slot window of 7.13, seven CPUs of two)
	 */
	an_win_init(&w, 10 * MS, 0);
	for (int k = 0; k < 100; k++)
		an_win_add(&w, k * 10 * MS, k * 10 * MS + 4 * MS);
	for (int k = 0; k < 100; k++)
		an_win_add(&w, k * 10 * MS + 5 * MS, k * 10 * MS + 8 * MS);
	check_dbl(an_win_max(&w, 0), 0.7, 1e-12, "win-3.1 rows 1 s late land in their own windows (7 ms of 10)");
	an_win_free(&w);
	an_win_init(&w, 10 * MS, 0);
	an_win_add(&w, 0, 1 * MS);
	an_win_add(&w, (int64_t)AN_WIN_RING * 10 * MS, (int64_t)AN_WIN_RING * 10 * MS + 2 * MS);
	an_win_add(&w, 3 * MS, 4 * MS);		/* older than every window the ring holds */
	check(an_win_max(&w, 0) >= 0.2 && an_win_max(&w, 0) <= 0.3, "win-3.2 past AN_WIN_RING windows the oldest close: a part older lands in the oldest open one");
	an_win_free(&w);
}

/* in-order windows (one thread's runs) */
static void test_mwindows(void)
{
	struct an_mwin w;

	an_mwin_init(&w, 10 * MS, 0);
	an_mwin_add(&w, 0, 5 * MS);
	an_mwin_add(&w, 6 * MS, 8 * MS);
	check_dbl(an_mwin_max(&w, 0), 0.7, 1e-12, "win-2.1 two runs in one window add up");
	an_mwin_add(&w, 12 * MS, 15 * MS);
	check_dbl(an_mwin_max(&w, 0), 0.7, 1e-12, "win-2.2 the next window starts afresh");
	an_mwin_add(&w, 19 * MS, 21 * MS);
	check_dbl(an_mwin_max(&w, 0), 0.7, 1e-12, "win-2.3 a run across a boundary is split (4 + 1 ms)");
	an_mwin_add(&w, 25 * MS, 47 * MS);
	check_dbl(an_mwin_max(&w, 0), 1.0, 1e-12, "win-2.4 a run over a whole window fills it");
	an_mwin_init(&w, 10 * MS, 0);
	an_mwin_add(&w, 2 * MS, INT64_MAX);
	check_dbl(an_mwin_max(&w, 0), 1.0, 1e-12, "win-2.5 an interval to INT64_MAX, at once");
}

static void test_lost(void)
{
	struct an_run *r = new_run();

	an_lost_add(r, 1, 100 * US, 200 * US, 5);
	an_lost_add(r, 0, 500 * US, 600 * US, -1);
	check_int(r->lost_total, ==, 5, "lost-1.1 known counts summed");
	check_int(r->lost_unknown, ==, 1, "lost-1.2 unknown counts counted apart");
	check(an_lost_overlaps(r, 150 * US, 160 * US), "lost-1.3 inside a window");
	check(an_lost_overlaps(r, 0, 100 * US), "lost-1.4 touching a window's start");
	check(!an_lost_overlaps(r, 201 * US, 499 * US), "lost-1.5 between two windows");
	check(an_lost_overlaps(r, 550 * US, 9000 * US), "lost-1.6 over the second");
	free_run(r);
}

/* a FIFO-50 thread 10 on CPU 0, preempted by 20, then sleeping; 30 appears without a switch */
static void test_sched(void)
{
	struct an_run *r = new_run();
	struct an_thread *t;

	an_on_switch(r, 0, 0, 0, COMM("swapper/0"), 120, 0, 10, COMM("worker"), 49);
	an_on_switch(r, 0, 100 * US, 10, COMM("worker"), 49, 0x100, 20, COMM("hog"), 9);	/* R+: preempted */
	an_on_switch(r, 0, 150 * US, 20, COMM("hog"), 9, 1, 10, COMM("worker"), 49);
	an_on_switch(r, 0, 250 * US, 10, COMM("worker"), 49, 1, 0, COMM("swapper/0"), 120);	/* S */
	an_on_waking(r, 0, 300 * US, 10, COMM("worker"), 49, true);
	an_on_waking(r, 0, 301 * US, 10, COMM("worker"), 49, false);
	an_on_switch(r, 0, 340 * US, 0, COMM("swapper/0"), 120, 0, 10, COMM("worker"), 49);
	t = an_thread_find(r, 10);
	an_stage_flush(r, t);
	check_int(t->preemptions, ==, 1, "sched-1.1 switched out runnable: one preemption");
	check_int(t->runtime_ns, ==, 200 * US, "sched-1.2 runtime of the two closed runs");
	check_int(t->wake_lat ? t->wake_lat->max : -1, ==, 40 * US, "sched-1.3 waking -> switch-in");
	check_int(t->wakeup_lat ? t->wakeup_lat->max : -1, ==, 39 * US, "sched-1.4 wakeup -> switch-in");
	check_int(t->prio, ==, 49, "sched-1.5 kernel priority");
	/* CPU 1 never saw a switch: its first event makes it known; then 30 appears */
	an_on_running(r, 1, 400 * US, 0);
	an_on_waking(r, 1, 410 * US, 30, COMM("late"), 120, true);
	an_on_running(r, 1, 450 * US, 30);
	t = an_thread_find(r, 30);
	check(t && t->running && t->cpu == 1, "sched-2.1 a thread's event on a CPU makes it run there");
	check_int(r->n_inferred, ==, 1, "sched-2.2 one inferred switch (the first event is no switch)");
	check(t && !t->wake_lat && t->wake_lat_inf && t->wake_lat_inf->max == 40 * US,
	      "sched-2.3 an inferred switch-in gives an upper bound, kept apart");
	check_int(r->cpu[1].idle_ns, ==, 10 * US, "sched-2.4 the idle time before it: up to its wakeup (an idle CPU runs it at once)");
	an_on_running(r, 1, 500 * US, 10);	/* 10 moves to CPU 1 unseen */
	t = an_thread_find(r, 10);
	check_int(t->cpu, ==, 1, "sched-2.5 a thread seen on another CPU moved there");
	check_int(t->migrations, ==, 1, "sched-2.6 ... a migration");
	/* 40 woken at 600 us; its first own event 5 ms later (more than a tick): no sample */
	an_on_waking(r, 0, 600 * US, 40, COMM("silent"), 120, true);
	an_on_running(r, 0, 5600 * US, 40);
	t = an_thread_find(r, 40);
	check(t && !t->wake_lat && !t->wake_lat_inf && t->unresolved == 1 && t->inferred == 1,
	      "sched-3.1 an inferred switch-in more than a tick after the waking: unresolved, no sample");
	/* 50 woken twice with no switch-in between: it ran unseen; the second wakeup is measured */
	an_on_switch(r, 0, 6000 * US, 40, COMM("silent"), 120, 1, 0, COMM("swapper/0"), 120);
	an_on_waking(r, 1, 6100 * US, 50, COMM("twice"), 120, true);
	an_on_waking(r, 1, 9000 * US, 50, COMM("twice"), 120, true);
	an_on_switch(r, 0, 9010 * US, 0, COMM("swapper/0"), 120, 0, 50, COMM("twice"), 120);
	t = an_thread_find(r, 50);
	an_stage_flush(r, t);
	check(t && t->unresolved == 1 && t->wake_lat && t->wake_lat->count == 1 && t->wake_lat->max == 10 * US,
	      "sched-3.2 a wakeup superseded by the next: unresolved; the next one measured (10 us)");
	free_run(r);
}

/* task 3 "ctl" on pid 10: releases every 10 ms, one skipped; preempted inside job 2 */
static void test_tasks(void)
{
	struct an_run *r = new_run();
	struct an_task *t;
	const char decl[] = "pf1 T 3 ctl tid=10 period_ns=10000000 deadline_ns=0 prio=80 policy=fifo\n";
	int i;

	an_on_marker_text(r, 0, 0, 10, decl, (int)strlen(decl), "t.dat", 0);
	an_on_switch(r, 0, 0, 0, COMM("swapper/0"), 120, 0, 10, COMM("ctl"), 19);
	for (i = 0; i < 3; i++) {
		int64_t rel = (i == 2 ? 3 : i) * 10 * MS, s = rel + 20 * US;
		if (i) {
			an_on_waking(r, 0, rel + 5 * US, 10, COMM("ctl"), 19, true);
			an_on_switch(r, 0, rel + 10 * US, 0, COMM("swapper/0"), 120, 0, 10, COMM("ctl"), 19);
		}
		an_on_marker_start(r, 0, s, 10, 3, (uint32_t)i, rel);
		if (i == 2) {
			an_on_switch(r, 0, s + 100 * US, 10, COMM("ctl"), 19, 0x100, 20, COMM("hog"), 9);
			an_on_irq(r, 0, s + 150 * US, true, 7, "eth0", 4);
			an_on_irq(r, 0, s + 160 * US, false, 7, NULL, 0);
			an_on_switch(r, 0, s + 300 * US, 20, COMM("hog"), 9, 1, 10, COMM("ctl"), 19);
		}
		an_on_marker_end(r, 0, s + 1 * MS, 10, 3, (uint32_t)i, rel, 0);
		an_on_switch(r, 0, s + 1 * MS + 5 * US, 10, COMM("ctl"), 19, 1, 0, COMM("swapper/0"), 120);
	}
	t = an_task_by_name(r, "ctl", false);
	check(t != NULL, "task-1.1 declared task found by name");
	check_int(t->jobs, ==, 3, "task-1.2 jobs");
	check_int(t->missed, ==, 1, "task-1.3 the skipped release is a missed activation");
	check_int(t->preemptions, ==, 1, "task-1.4 the preemption inside job 2");
	check_int(t->npre.h.max, ==, 1, "task-1.5 per job at most one");
	check_int(t->exec.h.min, ==, 800 * US, "task-1.6 exec time of job 2 excludes the 200 us preempted");
	check_int(t->resp.h.max, ==, 1020 * US, "task-1.7 response time");
	check_int(t->d_wake2run.h.max, ==, 5 * US, "task-1.8 wake to run");
	check_int(t->d_rel2wake.h.count, ==, 2, "task-1.9 release-to-wake for the woken jobs");
	check_int(t->ntop, ==, 3, "task-1.10 culprits kept");
	check_int(r->slot_overruns, ==, 0, "task-1.11 no slot overrun");
	free_run(r);
}

/*
 * timer expiry: the expiry pass's own clock read ('now'), not the entry
 * event's time stamp, which the callbacks run before it delay; a 'now' of
 * another clock base (here: 1 s before the event) is not taken
 */
static void test_timer_now(void)
{
	static const int64_t now_ns[] = { 1 * MS + 20 * US, 1 * MS + 23 * US - 1000 * MS };
	static const int64_t want_ns[] = { 20 * US, 23 * US };
	static const char *const what[] = { "tnow-1.1 timer expiry = the pass's now (3 us before its entry event)",
					    "tnow-1.2 a now of another clock: the entry's time stamp" };
	const char decl[] = "pf1 T 0 nav tid=10 period_ns=10000000 deadline_ns=0 prio=90 policy=fifo\n";
	struct an_run *r;
	struct an_task *t;
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(now_ns); i++) {
		r = new_run();
		an_on_marker_text(r, 1, 0, 10, decl, (int)strlen(decl), "t.dat", 0);
		an_on_switch(r, 1, 10 * US, 10, COMM("nav"), 9, 1, 0, COMM("swapper/1"), 120);
		an_on_switch(r, 1, 1 * MS, 0, COMM("swapper/1"), 120, 0, 20, COMM("hog"), 120);
		an_on_hrtimer(r, 1, 1 * MS + 23 * US, now_ns[i], true);
		an_on_waking(r, 1, 1 * MS + 24 * US, 10, COMM("nav"), 9, true);
		an_on_hrtimer(r, 1, 1 * MS + 25 * US, 0, false);
		an_on_switch(r, 1, 1 * MS + 30 * US, 20, COMM("hog"), 120, 0, 10, COMM("nav"), 9);
		an_on_marker_start(r, 1, 1 * MS + 32 * US, 10, 0, 0, 1 * MS);
		t = an_task_by_name(r, "nav", false);
		check_int(t && t->ntop == 1 ? t->top[0].timer_ns - t->top[0].release_ns : -1, ==, want_ns[i], "%s", what[i]);
		free_run(r);
	}
}

/* the culprit of a job delayed by a softirq with a hard IRQ inside it */
static void test_culprit(void)
{
	struct an_run *r = new_run();
	struct an_task *t;
	const char decl[] = "pf1 T 0 io tid=10 period_ns=10000000 deadline_ns=0 prio=90 policy=fifo\n";
	char line[256];

	an_on_marker_text(r, 1, 0, 10, decl, (int)strlen(decl), "t.dat", 0);
	an_on_switch(r, 1, 10 * US, 10, COMM("io"), 9, 1, 0, COMM("swapper/1"), 120);
	an_on_switch(r, 1, 1 * MS, 0, COMM("swapper/1"), 120, 0, 44, COMM("ksoftirqd/1"), 120);
	an_on_softirq(r, 1, 1 * MS + 10 * US, true, 3);
	an_on_irq(r, 1, 1 * MS + 20 * US, true, 9, "virtio0", 7);
	an_on_hrtimer(r, 1, 1 * MS + 21 * US, 1 * MS + 21 * US, true);
	an_on_waking(r, 1, 1 * MS + 22 * US, 10, COMM("io"), 9, true);
	an_on_hrtimer(r, 1, 1 * MS + 23 * US, 0, false);
	an_on_irq(r, 1, 1 * MS + 50 * US, false, 9, NULL, 0);
	an_on_softirq(r, 1, 1 * MS + 90 * US, false, 3);
	an_on_switch(r, 1, 1 * MS + 100 * US, 44, COMM("ksoftirqd/1"), 120, 0x100, 10, COMM("io"), 9);
	an_on_marker_start(r, 1, 1 * MS + 103 * US, 10, 0, 0, 1 * MS);
	t = an_task_by_name(r, "io", false);
	check_int(t->ntop, ==, 1, "cul-1.1 one activation");
	check_int(t->top[0].latency_ns, ==, 103 * US, "cul-1.2 its latency");
	check_str(t->top[0].contrib[0].name, "ksoftirqd/1 (NET_RX)", "cul-1.3 the softirq first");
	check_int(t->top[0].contrib[0].dur_ns, ==, 50 * US, "cul-1.4 softirq time without its hard IRQ");
	check_int(t->top[0].contrib[1].dur_ns, ==, 30 * US, "cul-1.5 the hard IRQ");
	check_int(t->top[0].contrib[2].dur_ns, ==, 20 * US, "cul-1.6 ksoftirqd's own time");
	check_int(t->top[0].timer_ns - t->top[0].release_ns, ==, 21 * US, "cul-1.7 timer expiry delay");
	an_culprit_line(r, t, &t->top[0], line, sizeof(line));
	check_str(line, "io job 0 (pid 10, released at 0.001000000 s): 103 µs late — ksoftirqd/1 (NET_RX) 50 µs, "
		  "irq 9 (virtio0) 30 µs, ksoftirqd/1 (pid 44) 20 µs, switch-in to start 3.0 µs; its timer interrupt came "
		  "21 µs after the release [100 % explained]", "cul-1.8 the summary line");
	check(t->top[0].complete && t->top[0].explained_ns == 103 * US, "cul-1.9 the parts add up: complete");
	free_run(r);
}

/*
 * an interrupt while the task runs between its switch-in and its start: its
 * time is the IRQ's, not the app's "switch-in to start" too (the parts of 15
 * culprits of t/fixtures/report-run added up to more than their latency: the
 * IRQ was taken back from "itself", a part of its own that was not there)
 */
static void test_culprit_irq_in_app(void)
{
	struct an_run *r = new_run();
	struct an_task *t;
	const char decl[] = "pf1 T 0 io tid=10 period_ns=10000000 deadline_ns=0 prio=90 policy=fifo\n";
	int64_t sum = 0, app = -1, irq = -1;
	int k;

	an_on_marker_text(r, 1, 0, 10, decl, (int)strlen(decl), "t.dat", 0);
	an_on_switch(r, 1, 10 * US, 10, COMM("io"), 9, 1, 0, COMM("swapper/1"), 120);
	an_on_hrtimer(r, 1, 1 * MS, 1 * MS, true);
	an_on_waking(r, 1, 1 * MS + 2 * US, 10, COMM("io"), 9, true);
	an_on_hrtimer(r, 1, 1 * MS + 3 * US, 0, false);
	an_on_switch(r, 1, 1 * MS + 100 * US, 0, COMM("swapper/1"), 120, 0, 10, COMM("io"), 9);
	an_on_irq(r, 1, 1 * MS + 200 * US, true, 9, "virtio0", 7);
	an_on_irq(r, 1, 1 * MS + 500 * US, false, 9, NULL, 0);
	an_on_marker_start(r, 1, 1 * MS + 600 * US, 10, 0, 0, 1 * MS);
	t = an_task_by_name(r, "io", false);
	check_int(t->ntop, ==, 1, "cul-2.1 one activation");
	for (k = 0; t->ntop && k < t->top[0].ncontrib; k++) {
		sum += t->top[0].contrib[k].dur_ns;
		if (t->top[0].contrib[k].kind == AN_C_APP)
			app = t->top[0].contrib[k].dur_ns;
		if (t->top[0].contrib[k].kind == AN_C_IRQ)
			irq = t->top[0].contrib[k].dur_ns;
	}
	check_int(irq, ==, 300 * US, "cul-2.2 the IRQ while it ran before its start: 300 us");
	check_int(app, ==, 200 * US, "cul-2.3 switch-in to start without the IRQ: 200 of 500 us");
	check_int(sum, ==, t->top[0].latency_ns, "cul-2.4 the parts add up to the latency (600 us)");
	check(t->top[0].complete, "cul-2.5 ... complete");
	free_run(r);
}

/*
 * a vector's name whole in a culprit: "call_function_single interrupt (vector
 * 251)" is 43 bytes and was cut to "... (vector " by a 40-byte buffer; a name
 * too long for any buffer ends in an ellipsis, the vector number kept
 */
static void test_culprit_label(void)
{
	struct an_run *r = new_run();
	struct an_task *t;
	const char decl[] = "pf1 T 0 io tid=10 period_ns=10000000 deadline_ns=0 prio=90 policy=fifo\n";
	char line[256], buf[AN_LABEL_LEN];

	an_on_marker_text(r, 1, 0, 10, decl, (int)strlen(decl), "t.dat", 0);
	an_on_switch(r, 1, 10 * US, 10, COMM("io"), 9, 1, 0, COMM("swapper/1"), 120);
	an_on_switch(r, 1, 1 * MS, 0, COMM("swapper/1"), 120, 0, 44, COMM("hog"), 120);
	an_on_waking(r, 1, 1 * MS + 2 * US, 10, COMM("io"), 9, true);
	an_on_irq(r, 1, 1 * MS + 20 * US, true, -251, "call_function_single", 20);
	an_on_irq(r, 1, 1 * MS + 60 * US, false, 0, NULL, 0);
	an_on_switch(r, 1, 1 * MS + 100 * US, 44, COMM("hog"), 120, 0, 10, COMM("io"), 9);
	an_on_marker_start(r, 1, 1 * MS + 103 * US, 10, 0, 0, 1 * MS);
	t = an_task_by_name(r, "io", false);
	check_str(t->top[0].contrib[0].name, "hog", "label-1.1 the thread that held the CPU first");
	check_str(t->top[0].contrib[1].name, "call_function_single interrupt (vector 251)",
		  "label-1.2 the IPI's name whole, its vector number and parenthesis too");
	an_culprit_line(r, t, &t->top[0], line, sizeof(line));
	check(strstr(line, ", call_function_single interrupt (vector 251) 40 µs,") != NULL,
	      "label-1.3 ... and in the summary line: %s", line);
	an_irq_label(buf, sizeof(buf), -251, "a_vector_name_longer_than_any_the_kernel_has_today_x");
	check_str(buf, "a_vector_name_longer_than_any_the_ker\u2026 interrupt (vector 251)",
		  "label-1.4 a name too long: cut with an ellipsis, the vector kept");
	an_irq_label(buf, 24, 11, "virtio0-vi\u00e9-queues");
	check_str(buf, "irq 11 (virtio0-vi\u2026)", "label-1.5 ... an IRQ's (never inside a character, the number whole)");
	free_run(r);
}

/*
 * a switch inferred back to a wakeup takes the interrupts after it along:
 * ctl (FIFO 80) runs a job from 100 us; io (FIFO 90) is woken for CPU 0 at
 * 150 us, but its switch-in is not in the trace (switches = rt lost it, a
 * filter, this VM's kernel): its first event is at 600 us, so the CPU is io's
 * from 150 us. The IPI of 200-500 us, charged to ctl as it ended, is io's
 * time: ctl's runtime stops at 150 us. ctl's execution time was 50 + 90 -
 * 300 = -160 us (the recorded run's -190.6 us); it is 140 us, io's 100 us
 */
static void test_negative_exec(void)
{
	struct an_run *r = new_run();
	struct an_task *ctl, *io;
	const char d1[] = "pf1 T 1 ctl tid=10 period_ns=10000000 deadline_ns=0 prio=80 policy=fifo\n";
	const char d2[] = "pf1 T 0 io tid=20 period_ns=10000000 deadline_ns=0 prio=90 policy=fifo\n";

	an_on_marker_text(r, 0, 0, 10, d1, (int)strlen(d1), "t.dat", 0);
	an_on_marker_text(r, 0, 0, 10, d2, (int)strlen(d2), "t.dat", 0);
	an_on_switch(r, 0, 0, 0, COMM("swapper/0"), 120, 0, 20, COMM("io"), 9);
	an_on_switch(r, 0, 10 * US, 20, COMM("io"), 9, 1, 10, COMM("ctl"), 19);
	an_on_marker_start(r, 0, 100 * US, 10, 1, 0, 0);
	an_on_waking(r, 0, 150 * US, 20, COMM("io"), 9, true);
	an_on_irq(r, 0, 200 * US, true, -251, "call_function_single", 20);
	an_on_irq(r, 0, 500 * US, false, 0, NULL, 0);
	an_on_running(r, 0, 600 * US, 20);
	an_on_marker_start(r, 0, 600 * US, 20, 0, 0, 0);
	an_on_marker_end(r, 0, 700 * US, 20, 0, 0, 0, 0);
	an_on_switch(r, 0, 710 * US, 20, COMM("io"), 9, 1, 10, COMM("ctl"), 19);
	check_int(an_on_marker_end(r, 0, 800 * US, 10, 1, 0, 0, 0), ==, 0, "neg-1.1 ctl's job ends: no error");
	ctl = an_task_by_name(r, "ctl", false);
	io = an_task_by_name(r, "io", false);
	check_int(ctl->exec.h.min, ==, 140 * US, "neg-1.2 ctl's execution time: 50 + 90 us, the IPI not its");
	check_int(io->exec.h.min, ==, 100 * US, "neg-1.3 io's: 100 us");
	check_int(an_thread_find(r, 10)->intr_ns, ==, 0, "neg-1.4 ctl took no interrupt while it ran");
	check_int(an_thread_find(r, 20)->intr_ns, ==, 300 * US, "neg-1.5 io's run from 150 us holds the IPI's 300 us");
	check_int(an_marker_order("t.dat", 77, 'S', 1, 3, 5 * MS, 5 * MS + 1), ==, PF_EXIT_USAGE,
		  "neg-1.6 a start marker before its release: a corrupt input (exit 2)");
	check_int(an_marker_order("t.dat", 77, 'E', 1, 3, 5 * MS, 5 * MS), ==, 0, "neg-1.7 ... at its release: none");
	/* job 1 the same with 80 interrupts of 3 us, more than the 64 charges a CPU keeps */
	an_on_switch(r, 0, 1 * MS, 0, COMM("swapper/0"), 120, 0, 10, COMM("ctl"), 19);
	an_on_marker_start(r, 0, 1 * MS + 100 * US, 10, 1, 1, 1 * MS);
	an_on_waking(r, 0, 1 * MS + 150 * US, 20, COMM("io"), 9, true);
	for (int k = 0; k < 80; k++) {
		an_on_irq(r, 0, 1 * MS + (200 + 4 * k) * US, true, -236, "local_timer", 11);
		an_on_irq(r, 0, 1 * MS + (203 + 4 * k) * US, false, 0, NULL, 0);
	}
	an_on_running(r, 0, 1 * MS + 600 * US, 20);
	an_on_marker_start(r, 0, 1 * MS + 600 * US, 20, 0, 1, 1 * MS);
	an_on_marker_end(r, 0, 1 * MS + 700 * US, 20, 0, 1, 1 * MS, 0);
	an_on_switch(r, 0, 1 * MS + 710 * US, 20, COMM("io"), 9, 1, 10, COMM("ctl"), 19);
	an_on_marker_end(r, 0, 1 * MS + 800 * US, 10, 1, 1, 1 * MS, 0);
	check_int(ctl->exec.h.min, ==, 92 * US, "neg-2.1 past the 64 charges kept, the 16 older (48 us) stay ctl's: "
		  "140 - 48 us, never below zero");
	check_int(an_thread_find(r, 20)->intr_ns, ==, 300 * US + 192 * US, "neg-2.2 io takes the 64 kept (192 us)");
	/* a value below zero is never a number in results.json: the trace contradicts itself (or the analysis errs) */
	an_on_marker_start(r, 0, 1 * MS + 900 * US, 10, 1, 2, 1 * MS + 900 * US);
	an_thread_find(r, 10)->intr_ns += 1 * MS;
	check_int(an_on_marker_end(r, 0, 1 * MS + 950 * US, 10, 1, 2, 1 * MS + 900 * US, 0), ==, PF_EXIT_USAGE,
		  "neg-3.1 an execution time below zero: a trace that contradicts itself (exit 2), not a value");
	check_int(ctl->exec.h.count, ==, 2, "neg-3.2 ... not added to the distribution");
	free_run(r);
}

/*
 * PREEMPT_RT runs softirqs in threads that can be preempted inside one
 * (a guest's ktimers/1 was switched out in its HRTIMER softirq for 5 ms):
 * the softirq leaves the CPU with its thread, and the next thread's time is
 * its own, not an interrupt (the selftest's st_pi had an execution time
 * below zero in the amd64 RT guest)
 */
static void test_softirq_preempted(void)
{
	struct an_run *r = new_run();
	struct an_task *pi, *tlm;
	const char d[] = "pf1 T 6 st_pi tid=29 period_ns=10000000 deadline_ns=0 prio=87 policy=fifo\n";
	const char d2[] = "pf1 T 7 tlm tid=40 period_ns=100000000 deadline_ns=0 prio=0 policy=other\n";

	an_on_marker_text(r, 0, 0, 29, d, (int)strlen(d), "t.dat", 0);
	an_on_switch(r, 0, 0, 0, COMM("swapper/0"), 120, 0, 15, COMM("ktimers/0"), 98);
	an_on_softirq(r, 0, 10 * US, true, 8);
	an_on_switch(r, 0, 50 * US, 15, COMM("ktimers/0"), 98, 0, 29, COMM("st_pi"), 12);
	an_on_marker_start(r, 0, 60 * US, 29, 6, 1, 0);
	an_on_irq(r, 0, 70 * US, true, -236, "local_timer", 11);
	an_on_irq(r, 0, 75 * US, false, 0, NULL, 0);
	an_on_marker_end(r, 0, 100 * US, 29, 6, 1, 0, 0);
	an_on_switch(r, 0, 120 * US, 29, COMM("st_pi"), 12, 1, 15, COMM("ktimers/0"), 98);
	an_on_softirq(r, 0, 150 * US, false, 8);
	an_on_switch(r, 0, 160 * US, 15, COMM("ktimers/0"), 98, 1, 0, COMM("swapper/0"), 120);
	pi = an_task_by_name(r, "st_pi", false);
	check_int(pi->exec.h.count, ==, 1, "sirq-1.1 st_pi's job ended");
	check_int(pi->exec.h.max, ==, 35 * US, "sirq-1.2 its execution time: 40 us less the 5 us timer IRQ, not the softirq's");
	check_int(an_thread_find(r, 29)->intr_ns, ==, 5 * US, "sirq-1.3 st_pi took only the hard IRQ");
	check_int(an_thread_find(r, 15)->intr_ns, ==, 70 * US, "sirq-1.4 ktimers/0's softirq: 40 us before, 30 us after");
	check_int(r->cpu[0].softirq_ns, ==, 70 * US, "sirq-1.5 the CPU's softirq time: while ktimers/0 ran it");
	/*
	 * A softirq entered in a task's own context (NET_RX on its way out of a
	 * send), preempted, and the switch back to the task not recorded: its
	 * first event (the softirq's exit) switches it in and the softirq goes on
	 * there; its switch-out unseen too, its next run is its own (the amd64 RT
	 * guest's smoke: telemetry's next job at -40 us, lost events around it)
	 */
	an_on_marker_text(r, 0, 0, 40, d2, (int)strlen(d2), "t.dat", 0);
	an_on_switch(r, 0, 1000 * US, 0, COMM("swapper/0"), 120, 0, 40, COMM("tlm"), 120);
	an_on_softirq(r, 0, 1010 * US, true, 3);
	an_on_switch(r, 0, 1050 * US, 40, COMM("tlm"), 120, 0, 29, COMM("st_pi"), 12);
	an_on_running(r, 0, 1100 * US, 40);
	an_on_softirq(r, 0, 1100 * US, false, 3);
	an_on_running(r, 0, 1150 * US, 29);	/* its switch-out not recorded either */
	an_on_switch(r, 0, 2000 * US, 29, COMM("st_pi"), 12, 1, 40, COMM("tlm"), 120);
	an_on_marker_start(r, 0, 2010 * US, 40, 7, 1, 2 * MS);
	an_on_irq(r, 0, 2050 * US, true, -236, "local_timer", 11);
	an_on_irq(r, 0, 2055 * US, false, 0, NULL, 0);
	an_on_marker_end(r, 0, 2110 * US, 40, 7, 1, 2 * MS, 0);
	an_on_switch(r, 0, 2120 * US, 40, COMM("tlm"), 120, 1, 0, COMM("swapper/0"), 120);
	tlm = an_task_by_name(r, "tlm", false);
	check_int(tlm->exec.h.count == 1 ? tlm->exec.h.max : -1, ==, 95 * US,
		  "sirq-2.1 a softirq whose thread came back unseen ends there: tlm's next job ran 100 us less a 5 us IRQ");
	check_int(r->cpu[0].softirq_ns, ==, 110 * US, "sirq-2.2 ... the softirq's 40 us before its preemption counted");
	free_run(r);
}

/* ct_name, ct_prio - the threads of the cyclictest test on CPU 1: idle, the hog (FIFO 95), cyclictest (FIFO 80) */
static const char *ct_name(int pid)
{
	return pid == 30 ? "cyclictest" : pid == 20 ? "hog" : "swapper/1";
}

static int ct_prio(int pid)
{
	return pid == 30 ? 19 : pid == 20 ? 4 : 120;
}

/* ct_switch - a sched_switch on CPU 1 as trace.c hands it to sched.c then cyclictest_wakeups.c */
static void ct_switch(struct an_run *r, int64_t ts, int prev, long prev_state, int next)
{
	char pc[16] = { 0 }, nc[16] = { 0 };

	snprintf(pc, sizeof(pc), "%s", ct_name(prev));
	snprintf(nc, sizeof(nc), "%s", ct_name(next));
	an_on_switch(r, 1, ts, prev, pc, ct_prio(prev), prev_state, next, nc, ct_prio(next));
	an_cw_on_switch(r, 1, ts, prev, ct_prio(prev), next);
}

/* ct_sleep - cyclictest arms its timer for expires_ns at ts and blocks at block_ns */
static void ct_sleep(struct an_run *r, int64_t ts, int64_t block_ns, int64_t expires_ns)
{
	an_cw_on_hrtimer_start(r, 1, ts, 30, expires_ns);
	ct_switch(r, block_ns, 30, 1, 0);
}

/* ct_expire - its timer's IRQ on CPU 1 at ts wakes it */
static void ct_expire(struct an_run *r, int64_t ts)
{
	an_on_hrtimer(r, 1, ts, 0, true);
	an_on_waking(r, 1, ts + 1 * US, 30, COMM("cyclictest"), 19, true);
	an_on_hrtimer(r, 1, ts + 2 * US, 0, false);
}

/*
 * cyclictest's wakeups: a measuring thread (FIFO 80) arms its timer for 1 ms
 * and sleeps; a FIFO-95 hog runs from 0.9 ms, the timer's IRQ comes 40 us
 * late, an IRQ takes 30 us, the hog blocks at 1.3 ms: 300 us late, the hog
 * 270 us of it. The next cycle wakes an idle CPU 8 us after its expiry.
 */
static void test_cyclictest(void)
{
	struct an_run *r = new_run();
	json_t *res = json_object();
	char line[400];

	ct_switch(r, 10 * US, 0, 0, 30);
	ct_sleep(r, 20 * US, 30 * US, 1 * MS);
	ct_switch(r, 900 * US, 0, 0, 20);
	ct_expire(r, 1 * MS + 40 * US);
	an_on_irq(r, 1, 1 * MS + 100 * US, true, 9, "virtio0", 7);
	an_on_irq(r, 1, 1 * MS + 130 * US, false, 9, NULL, 0);
	ct_switch(r, 1 * MS + 300 * US, 20, 1, 30);
	ct_sleep(r, 1 * MS + 305 * US, 1 * MS + 310 * US, 2 * MS);
	ct_expire(r, 2 * MS + 5 * US);
	ct_switch(r, 2 * MS + 8 * US, 0, 0, 30);
	/* the third: its switch-in from idle is not in the trace, its next hrtimer_start is */
	ct_sleep(r, 2 * MS + 12 * US, 2 * MS + 14 * US, 3 * MS);
	ct_expire(r, 3 * MS + 4 * US);
	an_on_running(r, 1, 3 * MS + 20 * US, 30);
	an_cw_on_hrtimer_start(r, 1, 3 * MS + 20 * US, 30, 4 * MS);
	an_cw_fold(r, res);
	check_str(json_string_value(json_object_get(json_object_get(res, "cyclictest_wakeups"), "release_from")),
		  "hrtimer_start", "cw-1.1 measured from the expiry the thread armed");
	check_int(json_integer_value(json_object_get(json_object_get(json_array_get(json_object_get(
		  json_object_get(res, "cyclictest_wakeups"), "threads"), 0), "latency_ns"), "count")), ==, 2,
		  "cw-1.2 both wakeups with a switch-in measured");
	{
		json_t *w = json_array_get(json_object_get(json_object_get(res, "cyclictest_wakeups"), "worst"), 0);
		json_t *w2 = json_array_get(json_object_get(json_object_get(res, "cyclictest_wakeups"), "worst"), 2);
		json_t *wb = json_array_get(json_object_get(json_object_get(res, "cyclictest_wakeups"), "worst"), 1);
		json_t *c0 = json_array_get(json_object_get(w, "contributors"), 0);
		json_t *c1 = json_array_get(json_object_get(w, "contributors"), 1);

		check_int(json_integer_value(json_object_get(w, "latency_ns")), ==, 300 * US, "cw-1.3 the worst: 300 us");
		check_str(json_string_value(json_object_get(c0, "name")), "hog", "cw-1.4 the hog first");
		check_int(json_integer_value(json_object_get(c0, "duration_ns")), ==, 270 * US,
			  "cw-1.5 the hog's time without the IRQ inside it");
		check_int(json_integer_value(json_object_get(c1, "duration_ns")), ==, 30 * US, "cw-1.6 the IRQ");
		check_int(json_integer_value(json_object_get(w, "timer_expiry_delay_ns")), ==, 40 * US,
			  "cw-1.7 the timer IRQ's delay");
		check_int(json_integer_value(json_object_get(w, "runnable_ns")), ==, 259 * US,
			  "cw-1.8 runnable from the waking to the switch-in");
		check(json_is_true(json_object_get(w, "complete")) &&
		      json_integer_value(json_object_get(w, "explained_ns")) == 300 * US, "cw-1.9 the parts add up");
		snprintf(line, sizeof(line), "%s", json_string_value(json_object_get(w, "summary")));
		check_str(line, "cyclictest thread (tid 30) wakeup 1 on CPU 1, timer expiry at 0.001000000 s: 300 µs late"
			  " — hog (pid 20) 270 µs, irq 9 (virtio0) 30 µs; its timer interrupt came 40 µs after the release "
		  "[100 % explained]",
			  "cw-1.10 the summary line");
		check_int(json_integer_value(json_object_get(w2, "latency_ns")), ==, 8 * US, "cw-1.11 the next: 8 us");
		check(json_is_true(json_object_get(wb, "upper_bound")) &&
		      json_integer_value(json_object_get(wb, "latency_ns")) == 20 * US &&
		      json_integer_value(json_object_get(wb, "timer_expiry_delay_ns")) == 4 * US,
		      "cw-1.14 a switch-in not in the trace: expiry to its next hrtimer_start, an upper bound, explained");
		check_str(json_string_value(json_object_get(json_array_get(json_object_get(w2, "contributors"), 0),
							      "kind")), "idle", "cw-1.12 ... an idle CPU waking up");
		check_int(json_integer_value(json_object_get(json_object_get(json_array_get(json_object_get(
			  json_object_get(res, "cyclictest_wakeups"), "threads"), 0), "rearm_latency_ns"), "max")), ==,
			  305 * US, "cw-1.13 the first wakeup's cycle: expiry to its next hrtimer_start");
	}
	json_decref(res);
	free_run(r);
}

/*
 * cyclictest's main thread (pid 29, which created the measuring thread 30)
 * PI-boosted on PREEMPT_RT: seen at FIFO 80, it sleeps on a timer of its own.
 * It is no measuring thread and no process of its own (a guest's t/0584 saw
 * three cyclictest processes where two ran).
 */
static void test_cyclictest_main_boosted(void)
{
	struct an_run *r = new_run();
	json_t *res = json_object(), *cw;

	an_cw_on_new_thread(r, 29, 30, "cyclictest");
	ct_switch(r, 10 * US, 0, 0, 30);
	ct_sleep(r, 20 * US, 30 * US, 1 * MS);
	an_on_switch(r, 1, 100 * US, 0, COMM("swapper/1"), 120, 0, 29, COMM("cyclictest"), 19);
	an_cw_on_switch(r, 1, 100 * US, 0, 120, 29);
	an_cw_on_hrtimer_start(r, 1, 110 * US, 29, 600 * US);
	an_on_switch(r, 1, 120 * US, 29, COMM("cyclictest"), 19, 1, 0, COMM("swapper/1"), 120);
	an_cw_on_switch(r, 1, 120 * US, 29, 19, 0);
	an_on_hrtimer(r, 1, 600 * US, 0, true);
	an_on_waking(r, 1, 601 * US, 29, COMM("cyclictest"), 19, true);
	an_on_hrtimer(r, 1, 602 * US, 0, false);
	an_on_switch(r, 1, 610 * US, 0, COMM("swapper/1"), 120, 0, 29, COMM("cyclictest"), 19);
	an_cw_on_switch(r, 1, 610 * US, 0, 120, 29);
	an_cw_on_hrtimer_start(r, 1, 615 * US, 29, 900 * US);
	an_on_switch(r, 1, 620 * US, 29, COMM("cyclictest"), 19, 1, 0, COMM("swapper/1"), 120);
	an_cw_on_switch(r, 1, 620 * US, 29, 19, 0);
	ct_expire(r, 1 * MS + 5 * US);
	ct_switch(r, 1 * MS + 8 * US, 0, 0, 30);
	an_cw_on_hrtimer_start(r, 1, 1 * MS + 20 * US, 30, 2 * MS);
	an_cw_fold(r, res);
	cw = json_object_get(res, "cyclictest_wakeups");
	check_int(json_integer_value(json_object_get(cw, "processes_seen")), ==, 1,
		  "cw-2.1 a boosted main thread is no cyclictest process of its own: one seen");
	check_int(json_integer_value(json_object_get(cw, "threads_left_out")), ==, 0,
		  "cw-2.2 ... and no measuring thread left out");
	check_int(json_integer_value(json_object_get(cw, "process_pid")), ==, 29, "cw-2.3 the process: its main thread");
	check_int((long long)json_array_size(json_object_get(cw, "threads")), ==, 1, "cw-2.4 one measuring thread reported");
	check_int(json_integer_value(json_object_get(json_array_get(json_object_get(cw, "threads"), 0), "tid")), ==, 30,
		  "cw-2.5 ... the one it created");
	json_decref(res);
	free_run(r);
}

/* write a job log and read it: CRLF, quoted task names (a comma in one is refused: t/0520), blank lines, rows out of task order */
static void test_joblog(void)
{
	char path[] = "/tmp/analyze_test-XXXXXX";
	struct an_run *r = new_run();
	struct an_job job = { .seq = 1, .release_ns = 10 * MS, .start_ns = 10 * MS + 5 * US };
	struct an_task *t;
	int fd = mkstemp(path), ret;
	FILE *f = fdopen(fd, "w");

	fputs("# preflight-joblog v1\r\n# slot_ns=5000000\r\ntask,seq,release_ns,start_ns,end_ns,cpu_ns,cpu,flags,missed\r\n"
	      "\"a_b\",0,0,1000,2000,1000,0,0,0\r\n\r\n"
	      "io,0,0,3000,5000,2000,1,0,0\r\n"
	      "\"a_b\",1,10000000,10002000,10004000,2000,0,1,0\r\n"
	      "io,1,10000000,10003000,10006000,3000,1,0,2\r\n# dropped.io=4\r\n", f);
	fclose(f);
	r->opt.joblog = path;
	ret = an_tasks_joblog_open(r, path);
	check_int(ret, ==, 0, "jl-1.1 opened");
	check_int(r->jl_slot_ns, ==, 5 * MS, "jl-1.2 slot_ns from the metadata, before any row");
	t = an_task_by_name(r, "io", true);
	ret = an_tasks_joblog_match(r, t, &job);
	check_int(ret, ==, 0, "jl-1.3 matched io job 1 past rows of another task");
	check_int(t->matched, ==, 1, "jl-1.4 one match");
	check_int(t->joblog_only, ==, 1, "jl-1.5 io job 0 was only in the job log");
	check_int(t->diff.h.max, ==, 2 * US, "jl-1.6 trace vs job log difference");
	ret = an_tasks_joblog_drain(r);
	check_int(ret, ==, 0, "jl-1.7 the rest read");
	t = an_task_by_name(r, "a_b", false);
	check(t && t->jl_jobs == 2, "jl-1.8 a quoted task name");
	check(t && t->jl_overruns == 1, "jl-1.9 overrun flag");
	t = an_task_by_name(r, "io", false);
	check_int(t->jl_missed, ==, 2, "jl-1.10 missed column");
	check_int(t->jl_dropped, ==, 4, "jl-1.11 dropped count from the last comment");
	an_tasks_joblog_close(r);
	unlink(path);
	free_run(r);
}

/*
 * thread 60 exits (sleeping once in its exit, then woken: still alive), dies
 * at a switch-out in state X; its pid comes back as another thread
 */
static void test_exit(void)
{
	struct an_run *r = new_run();
	struct an_thread *t;
	struct pf_stats st;
	size_t old, i;

	an_on_switch(r, 0, 0, 0, COMM("swapper/0"), 120, 0, 50, COMM("other"), 120);
	an_on_waking(r, 0, 1000 * US, 60, COMM("short"), 120, true);
	an_on_waking(r, 0, 1001 * US, 60, COMM("short"), 120, false);
	an_on_switch(r, 0, 1010 * US, 50, COMM("other"), 120, 1, 60, COMM("short"), 120);
	an_on_switch(r, 0, 1100 * US, 60, COMM("short"), 120, 1, 50, COMM("other"), 120);
	an_on_waking(r, 0, 1200 * US, 60, COMM("short"), 120, true);
	an_on_switch(r, 0, 1230 * US, 50, COMM("other"), 120, 1, 60, COMM("short"), 120);
	an_on_exit(r, 60);
	an_on_switch(r, 0, 1310 * US, 60, COMM("short"), 120, 2, 50, COMM("other"), 120);	/* D, in its exit */
	t = an_thread_find(r, 60);
	check(t->life == AN_EXITING && !t->final, "sched-4.1 a thread asleep after its sched_process_exit "
	      "still lives");
	an_on_waking(r, 0, 1400 * US, 60, COMM("short"), 120, true);
	an_on_switch(r, 0, 1405 * US, 50, COMM("other"), 120, 1, 60, COMM("short"), 120);
	an_on_switch(r, 0, 1450 * US, 60, COMM("short"), 120, 0x10, 50, COMM("other"), 120);	/* X */
	t = an_thread_find(r, 60);
	old = (size_t)(t - r->thr);
	check(t->life == AN_DEAD && t->final && !t->wake_lat && !t->wakeup_lat,
	      "sched-4.2 its switch-out in state X: dead, its histograms given back for their statistics");
	check(an_thread_lat(t, AN_LAT_WAKE, &st) && st.count == 3 && st.min == 5 * US && st.max == 30 * US &&
	      st.pct[0] == 10 * US && st.max_at == 1230 * US && st.max_id == 60,
	      "sched-4.3 the statistics of its 3 wakeups, the staged ones included (p50 10 us, max 30 us)");
	check(an_thread_lat(t, AN_LAT_WAKEUP, &st) && st.count == 1 && st.max == 9 * US &&
	      !an_thread_lat(t, AN_LAT_INF, &st), "sched-4.4 ... of its one sched_wakeup; none inferred");
	check_int(an_thread_lat_max(t, AN_LAT_WAKE), ==, 30 * US, "sched-4.5 its worst wakeup");
	/* pid 60 again: a new thread, then enough others that the pid hash grows */
	an_on_waking(r, 1, 2000 * US, 60, COMM("reborn"), 120, true);
	an_on_switch(r, 1, 2100 * US, 0, COMM("swapper/1"), 120, 0, 60, COMM("reborn"), 120);
	for (i = 0; i < 600; i++)
		an_thread_get(r, 1000 + (int)i);
	t = an_thread_find(r, 60);
	an_stage_flush(r, t);
	check(t && (size_t)(t - r->thr) != old && !strcmp(t->comm, "reborn") && t->life == AN_LIVE &&
	      an_thread_lat_max(t, AN_LAT_WAKE) == 100 * US && t->wake_lat->count == 1,
	      "sched-4.6 the pid used again: another thread, its own histogram, found after the hash grew");
	t = &r->thr[old];
	check(an_thread_lat(t, AN_LAT_WAKE, &st) && st.count == 3 && !strcmp(t->comm, "short") && t->switches == 3,
	      "sched-4.7 the dead thread keeps its entry and statistics");
	free_run(r);
}

/*
 * dies - thread pid runs on cpu from ts for run_ns after 'busy' (pid 50 or
 * 51), exits, and leaves the CPU in state 'state' (0x10: X, dead; 2: D, not
 * yet); the CPU goes back to busy. The time after it.
 */
static int64_t dies(struct an_run *r, int cpu, int64_t ts, int pid, int prio, int64_t run_ns, long state)
{
	char comm[16] = { 0 };
	int busy = 50 + cpu;

	snprintf(comm, sizeof(comm), "t%d", pid);
	an_on_switch(r, cpu, ts, busy, COMM("busy"), 120, 0, pid, comm, prio);
	an_on_exit(r, pid);
	an_on_switch(r, cpu, ts + run_ns, pid, comm, prio, state, busy, COMM("busy"), 120);
	return ts + run_ns + US;
}

/*
 * the dead threads threads[] can no longer list leave the table: twelve
 * normal ones die on CPU 0 (runtimes 10 .. 120 us), beside a realtime one, one
 * that ran on CPU 1 (whose history still holds it) and one still in its exit;
 * then CPU 0's history turns over
 */
static void test_sweep(void)
{
	struct an_run *r = new_run();
	struct an_thread *t;
	const char *comm;
	json_t *res;
	int64_t ts = 0;
	size_t before, i;
	bool ordered = true;
	int k, pids[64];

	an_on_switch(r, 0, ts, 0, COMM("swapper/0"), 120, 0, 50, COMM("busy"), 120);
	an_on_switch(r, 1, ts, 0, COMM("swapper/1"), 120, 0, 51, COMM("busy"), 120);
	for (k = 0; k < 12; k++)
		ts = dies(r, 0, ts + US, 100 + k, 120, (k + 1) * 10 * US, 0x10);
	ts = dies(r, 0, ts, 200, 49, 5 * US, 0x10);
	ts = dies(r, 1, ts, 300, 120, 5 * US, 0x10);
	ts = dies(r, 0, ts, 400, 120, 5 * US, 2);
	an_threads_sweep(r);
	check_int(r->gone_active, ==, 0, "sweep-1.1 nothing dropped while CPU 0's history still holds them");
	for (i = 0; i < AN_CPU_HISTORY; i++, ts += US)
		an_on_switch(r, 0, ts, 50 + (int)(i % 2) * 2, COMM("busy"), 120, 0, 52 - (int)(i % 2) * 2,
			     COMM("busy"), 120);
	an_threads_sweep(r);
	check(r->gone_active == 2 && !an_thread_find(r, 100) && !an_thread_find(r, 101) && an_thread_find(r, 102),
	      "sweep-1.2 the two of the twelve below the tenth runtime are dropped");
	check(r->npool_run == AN_TOP_THREADS && r->pool_run[AN_TOP_THREADS - 1] == 30 * US && !r->npool_wake,
	      "sweep-1.3 the ten that compete for the busiest to the end (none was woken)");
	check(an_thread_find(r, 200) && an_thread_find(r, 300) && an_thread_find(r, 400),
	      "sweep-1.4 the realtime one, the one CPU 1 still shows and the one in its exit stay");
	comm = an_thread_comm(r, 101);
	check(comm && !strcmp(comm, "t101"), "sweep-1.5 a dropped thread's comm by its pid (for a timeline)");
	an_on_switch(r, 0, ts, 50, COMM("busy"), 120, 0, 100, COMM("again"), 120);
	t = an_thread_find(r, 100);
	comm = an_thread_comm(r, 100);
	check(t && t->life == AN_LIVE && t->switches == 1 && comm && !strcmp(comm, "again"),
	      "sweep-1.6 its pid used again: a new thread");
	for (i = 0, before = 0; i < r->nthr && before < 64; i++)
		if (r->thr[i].life != AN_GONE)
			pids[before++] = r->thr[i].pid;
	an_sched_finish(r);
	for (i = 0; i < r->nthr; i++)
		ordered = ordered && r->thr[i].life != AN_GONE && i < before && r->thr[i].pid == pids[i];
	t = r->cpu[0].curr_idx >= 0 ? &r->thr[r->cpu[0].curr_idx] : NULL;
	check(r->nthr == before && before == 17 && ordered && t && t->pid == 100 && !r->ngone,
	      "sweep-1.7 at the end the table is compacted: in order, the CPU's thread found again");
	res = an_results_json(r);
	check_int(json_integer_value(json_object_get(json_object_get(res, "threads_listing"), "threads_seen")), ==,
		  (json_int_t)r->nthr + 2, "sweep-1.8 threads_seen counts the dropped");
	json_decref(res);
	free_run(r);

	r = new_run();
	r->opt.all_threads = true;
	for (k = 0, ts = 0; k < 12; k++)
		ts = dies(r, 0, ts + US, 100 + k, 120, (k + 1) * 10 * US, 0x10);
	for (i = 0; i < AN_CPU_HISTORY; i++, ts += US)
		an_on_switch(r, 0, ts, 50 + (int)(i % 2) * 2, COMM("busy"), 120, 0, 52 - (int)(i % 2) * 2,
			     COMM("busy"), 120);
	an_threads_sweep(r);
	check(!r->gone_active && an_thread_find(r, 100), "sweep-1.9 --all-threads lists every thread: none dropped");
	free_run(r);

	/* 300 die and 290 are dropped: the next 300 threads take their entries, the table does not grow */
	r = new_run();
	for (k = 0, ts = 0; k < 300; k++)
		ts = dies(r, 0, ts + US, 1000 + k, 120, (k + 1) * US, 0x10);
	for (i = 0; i < AN_CPU_HISTORY; i++, ts += US)
		an_on_switch(r, 0, ts, 50 + (int)(i % 2) * 2, COMM("busy"), 120, 0, 52 - (int)(i % 2) * 2,
			     COMM("busy"), 120);
	an_threads_sweep(r);
	before = r->thr_cap;
	for (k = 0; k < 300; k++)
		an_thread_get(r, 5000 + k);
	ordered = r->gone_active == 290 && r->thr_cap == before && an_thread_find(r, 52) &&
		  r->thr[r->cpu[0].curr_idx].pid == r->cpu[0].curr;
	for (k = 0; k < 300; k++)
		ordered = ordered && an_thread_find(r, 5000 + k) && an_thread_find(r, 5000 + k)->pid == 5000 + k &&
			  !an_thread_find(r, 1000 + k) == (k < 290);
	check(ordered, "sweep-1.10 the dropped entries are reused (table of %zu), every thread found again", r->thr_cap);
	before = r->hash_used;
	an_tomb_keep(r, 1005);
	an_tomb_keep(r, 5005);	/* a live thread's: nothing to keep */
	an_tombs_prune(r);
	comm = an_thread_comm(r, 1005);
	ordered = comm && !strcmp(comm, "t1005") && !an_thread_comm(r, 1006) && r->ntomb == 1 &&
		  r->hash_used == before - 289;
	for (k = 0; k < 300; k++)
		ordered = ordered && an_thread_find(r, 5000 + k) && (k < 290 || an_thread_find(r, 1000 + k));
	check(ordered, "sweep-1.11 the comms no timeline shows are pruned with their pids, the rest found again");
	free_run(r);

	/* thousands die, a sweep after each hundred: the hash grows with the pids it holds, not the threads */
	r = new_run();
	r->opt.threads = "t1001,t4999";
	for (k = 0, ts = 0; k < 4000; k++) {
		ts = dies(r, 0, ts + US, 1000 + k, 120, US, 0x10);
		if (k % 100 == 99) {
			for (i = 0; i < AN_CPU_HISTORY; i++, ts += US)
				an_on_switch(r, 0, ts, 50 + (int)(i % 2) * 2, COMM("busy"), 120, 0,
					     52 - (int)(i % 2) * 2, COMM("busy"), 120);
			an_threads_sweep(r);
		}
	}
	ordered = r->gone_active == 3998 && an_thread_find(r, 1001) && an_thread_find(r, 4999) &&
		  r->hash_used * 2 <= r->hash_cap && r->thr_cap <= 512;
	for (k = 0; k < 1000; k++)
		ordered = ordered && an_thread_get(r, 9000 + k) && an_thread_find(r, 9000 + k)->pid == 9000 + k;
	check(ordered, "sweep-1.12 --threads: the 3 998 that do not match dropped; the pid hash (%zu of %zu) and the "
	      "table (%zu) stay small", r->hash_used, r->hash_cap, r->thr_cap);
	free_run(r);
}

int main(void)
{
	pf_set_prog("analyze_test");
	tap_plan(132);
	test_windows();
	test_mwindows();
	test_lost();
	test_sched();
	test_exit();
	test_sweep();
	test_tasks();
	test_culprit();
	test_culprit_irq_in_app();
	test_culprit_label();
	test_negative_exec();
	test_softirq_preempted();
	test_timer_now();
	test_cyclictest();
	test_cyclictest_main_boosted();
	test_joblog();
	return tap_done();
}
