/*
 * app_test.c - unit tests of flightapp's executive: the configuration (task
 * table, overrides, every error with its file:line), slot arithmetic, the
 * release / overrun / missed-activation protocol, the body table handed to
 * the executive, the job ring, the statistics under their sequence lock and
 * the marker encodings. Linked without the flight software: the bodies here
 * are a tiny table of the test's own.
 */
#include "app/config.h"
#include "app/exec.h"
#include "app/marker.h"
#include "app/ring.h"
#include "app/task_stats.h"
#include "tap.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* load - defaults, then a config string; returns the error text ("" when it loaded) */
static const char *load(struct app_config *cfg, const char *text)
{
	static char err[512];

	err[0] = '\0';
	app_config_defaults(cfg);
	if (app_config_load_string(cfg, "t.ini", text, err, sizeof(err)) && !err[0])
		snprintf(err, sizeof(err), "failed without a message");
	return err;
}

/* test_defaults - config-1.x: docs/ARCHITECTURE.md's table */
static void test_defaults(void)
{
	struct app_config cfg;
	struct app_task_cfg *t;
	char err[256];

	app_config_defaults(&cfg);
	check_int(cfg.slot_ns, ==, 10000000, "config-1.1 base slot 10 ms");
	check_int(cfg.ntasks, ==, 7, "config-1.2 seven tasks");
	t = app_config_find(&cfg, "io");
	check(t && t->kind == APP_TASK_TICK && t->priority == 90 && t->policy == APP_POLICY_FIFO,
	      "config-1.3 io: tick, fifo 90");
	t = app_config_find(&cfg, "ctl100");
	check(t && t->period_ns == 10000000 && t->priority == 80, "config-1.4 ctl100: 10 ms, 80");
	t = app_config_find(&cfg, "nav10");
	check(t && t->period_ns == 100000000 && t->priority == 70, "config-1.5 nav10: 100 ms, 70");
	t = app_config_find(&cfg, "ekf");
	check(t && t->kind == APP_TASK_EVENT && t->priority == 65 && t->event_period_ns == 1000000000,
	      "config-1.6 ekf: event, 65, 1 Hz stand-in source");
	t = app_config_find(&cfg, "mission1");
	check(t && t->period_ns == 1000000000 && t->priority == 60, "config-1.7 mission1: 1 s, 60");
	t = app_config_find(&cfg, "logger");
	check(t && t->kind == APP_TASK_BACKGROUND && t->policy == APP_POLICY_OTHER, "config-1.8 logger: background, other");
	t = app_config_find(&cfg, "telemetry");
	check(t && t->period_ns == 100000000 && t->policy == APP_POLICY_OTHER, "config-1.9 telemetry: 10 Hz, other");
	check_int(app_cfg_deadline_ns(app_config_find(&cfg, "nav10")), ==, 100000000, "config-1.10 deadline defaults to the period");
	check_int(app_config_check(&cfg, err, sizeof(err)), ==, 0, "config-1.11 defaults pass the checks");
}

/* test_profiles - config-2.x: the shipped profiles load; default.ini is the built-in table */
static void test_profiles(void)
{
	struct app_config a, b;
	char err[512] = "";
	int i, same = 1;

	app_config_defaults(&a);
	app_config_defaults(&b);
	check_int(app_config_load(&b, "app/profiles/default.ini", err, sizeof(err)), ==, 0,
		  "config-2.1 default profile loads %s", err);
	for (i = 0; i < a.ntasks; i++)
		same &= !memcmp(&a.task[i], &b.task[i], sizeof(a.task[i]));
	check(same && a.ntasks == b.ntasks && a.slot_ns == b.slot_ns, "config-2.2 default.ini equals the built-in table");
	app_config_defaults(&b);
	check_int(app_config_load(&b, "app/profiles/omap3-60.ini", err, sizeof(err)), ==, 0,
		  "config-2.3 omap3-60 profile loads %s", err);
	check(app_config_find(&b, "ekf")->work_ns > b.slot_ns, "config-2.4 omap3-60: ekf spans slots");
}

/* test_overrides - config-3.x: every field overridden, a task added, one removed */
static void test_overrides(void)
{
	struct app_config cfg;
	struct app_task_cfg *t;
	char err[256];

	check_str(load(&cfg, "[app]\nslot = 5ms\ncpus = 1\nring = 1024\n"
		       "[task ctl100]\npriority = 81\nperiod = 20ms\nphase = 5ms\ndeadline = 15ms\nwork = 750us\ncpus = 0-1\n"
		       "[task radar]\nkind = periodic\nperiod = 50ms\npriority = 55\nwork = 1.5ms\n"
		       "[task ekf]\nevent_period = 500ms\n"
		       "[task telemetry]\nenabled = false\n"), "", "config-3.1 overrides load");
	check_int(cfg.slot_ns, ==, 5000000, "config-3.2 slot overridden");
	check_str(cfg.cpus, "1", "config-3.3 default affinity");
	t = app_config_find(&cfg, "ctl100");
	check(t->priority == 81 && t->period_ns == 20000000 && t->phase_ns == 5000000 && t->deadline_ns == 15000000 &&
	      t->work_ns == 750000 && !strcmp(t->cpus, "0-1"), "config-3.4 every task field overridden");
	t = app_config_find(&cfg, "radar");
	check(t && t->kind == APP_TASK_PERIODIC && t->priority == 55 && t->policy == APP_POLICY_FIFO &&
	      t->work_ns == 1500000, "config-3.5 new task added");
	check_int(cfg.ntasks, ==, 8, "config-3.6 eight tasks");
	check(!app_config_find(&cfg, "telemetry")->enabled, "config-3.7 task disabled");
	check_int(app_config_find(&cfg, "io")->period_ns, ==, 5000000, "config-3.8 tick period follows the slot");
	check_int(app_config_check(&cfg, err, sizeof(err)), ==, 0, "config-3.9 whole-table checks pass");
	check_str(load(&cfg, "[task io]\nenabled = false\n[task ctl100]\nkind = tick\n"), "", "config-3.10 another tick task");
	check_int(app_config_check(&cfg, err, sizeof(err)), ==, 0, "config-3.11 one tick task is fine");
	check_str(load(&cfg, "[task ctl100]\nkind = tick\n"), "", "config-3.12 two tick tasks parse");
	check_int(app_config_check(&cfg, err, sizeof(err)), ==, -EINVAL, "config-3.13 two tick tasks rejected");
}

/* test_errors - config-4.x: each malformed case gives file:line: what */
static void test_errors(void)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "[task io]\nprio = 90\n", "t.ini:2: unknown key 'prio' in [task io]" },
		{ "[app]\n\nslot = 10parsecs\n", "t.ini:3: slot: bad duration '10parsecs'" },
		{ "[task ctl100]\nwork = 500\n", "t.ini:2: work: bad duration '500'" },
		{ "[task nav10]\npriority = 100\n", "t.ini:2: priority: '100' out of range" },
		{ "[task nav10]\npriority = 0\n", "t.ini:2: priority: '0' out of range" },
		{ "[task nav10]\nperiod = 15ms\n", "t.ini:2: task nav10: period 15000000 ns is not a multiple of the slot" },
		{ "[task nav10]\nphase = 3ms\n", "t.ini:2: task nav10: phase 3000000 ns is not a multiple" },
		{ "[app]\nslot = 3ms\n", "t.ini:2: task ctl100: period 10000000 ns is not a multiple" },
		{ "[task x]\nperiod = 20ms\nkind = sometimes\n", "t.ini:3: kind: unknown kind 'sometimes'" },
		{ "[task x]\npolicy = fifo\n", "t.ini:1: task x: policy fifo needs a priority" },
		{ "[radio]\nrate = 1\n", "t.ini:1: unknown section [radio]" },
		{ "[app]\nslot 10ms\n", "t.ini:2: syntax error" },
		{ "[task bad-name]\nwork = 1ms\n", "t.ini:1: bad task name 'bad-name'" },
		{ "[task ekf]\nevent_period = 15ms\n", "t.ini:2: task ekf: event_period 15000000 ns" },
		{ "[app]\ndma_latency = maybe\n", "t.ini:2: dma_latency: bad boolean 'maybe'" },
		{ "[task io]\ncpus = 1-\n", "t.ini:2: cpus: bad CPU list '1-'" },
		{ "slot = 10ms\n", "t.ini:1: key 'slot' outside any section" },
	};
	struct app_config cfg;
	char text[600];
	const char *err;
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(cases); i++) {
		err = load(&cfg, cases[i].text);
		if (!check(!strncmp(err, cases[i].want, strlen(cases[i].want)), "config-4.%zu error '%s'", i + 1, cases[i].want))
			tap_diag("  got '%s'", err);
	}
	/* inih reads lines into 200 bytes: a 199-character line fits, one more is an error at its own line */
	snprintf(text, sizeof(text), "[task io]\n;%0198d\nprio = 1\n", 0);
	err = load(&cfg, text);
	if (!check(!strncmp(err, "t.ini:3: unknown key 'prio'", 27), "config-4.18 a 199-character line fits, lines still counted"))
		tap_diag("  got '%s'", err);
	snprintf(text, sizeof(text), "[task io]\n;%0199d\nwork = 1ms\n", 0);
	err = load(&cfg, text);
	if (!check(!strcmp(err, "t.ini:2: line too long (at most 199 characters)"), "config-4.19 a longer line: its own error, not a torn parse"))
		tap_diag("  got '%s'", err);
}

static int section_keys;

/* fsw_section - a registered section handler as the flight software would add */
static int fsw_section(void *user, const char *section, const char *key, const char *value, char *err, size_t size)
{
	(void)user;
	(void)section;
	if (!strcmp(key, "gain")) {
		section_keys++;
		return 0;
	}
	snprintf(err, size, "unknown key '%s' in [%s]", key, section);
	return -EINVAL;
}

/* test_sections - config-5.x: sections registered by other code */
static void test_sections(void)
{
	struct app_config cfg;

	check_int(app_config_add_section("fsw", fsw_section, NULL), ==, 0, "config-5.1 register [fsw]");
	check_int(app_config_add_section("links.*", fsw_section, NULL), ==, 0, "config-5.2 register [links.*]");
	check_int(app_config_add_section("task", fsw_section, NULL), ==, -EEXIST, "config-5.3 [task] is the executive's");
	check_str(load(&cfg, "[fsw]\ngain = 2\n[links.uart]\ngain = 3\n"), "", "config-5.4 registered sections parse");
	check_int(section_keys, ==, 2, "config-5.5 handler saw both keys");
	check_str(load(&cfg, "[fsw]\n\ngain = 2\nloss = 1\n"), "t.ini:4: unknown key 'loss' in [fsw]",
		  "config-5.6 handler's error carries file:line");
}

/* test_slots - exec-1.x: slot arithmetic of the tick */
static void test_slots(void)
{
	check_int(app_boundaries(0, 100, 0, 10), ==, 10, "exec-1.1 ten 100 ms boundaries in 100 slots");
	check_int(app_boundaries(5, 25, 0, 10), ==, 2, "exec-1.2 boundaries 10 and 20 in [5,25)");
	check_int(app_boundaries(5, 25, 3, 10), ==, 2, "exec-1.3 phase 3: 13 and 23");
	check_int(app_boundaries(0, 3, 3, 10), ==, 0, "exec-1.4 nothing before the phase");
	check_int(app_boundaries(10, 11, 0, 10), ==, 1, "exec-1.5 a boundary at a");
	check_int(app_boundaries(11, 20, 0, 10), ==, 0, "exec-1.6 none strictly between");
	check_int(app_tick_slot(1000, 10, 5, 1055), ==, 5, "exec-1.7 less than a slot late stays in its slot");
	check_int(app_tick_slot(1000, 10, 5, 1079), ==, 7, "exec-1.8 2.4 slots late: slot 7, two skipped");
	check_int(app_tick_slot(1000, 10, 5, 1010), ==, 5, "exec-1.9 never goes back");
}

/* make_app - an app from a config string, without threads */
static int make_app(struct app *app, const char *text)
{
	struct app_config cfg;
	char err[256];

	if (load(&cfg, text)[0])
		return -EINVAL;
	return app_init(app, &cfg, err, sizeof(err));
}

/* test_release - exec-2.x: overrun and missed activations, never queued */
static void test_release(void)
{
	static struct app app;
	struct app_jobrec rec;
	struct app_task *t;
	struct app_job job;

	check_int(make_app(&app, "[task ctl100]\nwork = 0ns\n"), ==, 0, "exec-2.1 app set up");
	t = app_find_task(&app, "ctl100");
	check_int(app_release(t, 1000, 0), ==, 0, "exec-2.2 first release granted");
	check_int(app_release(t, 2000, 1), ==, -EBUSY, "exec-2.3 release while busy is missed");
	check_int(app_release(t, 3000, 2), ==, -EBUSY, "exec-2.4 and again");
	memset(&job, 0, sizeof(job));
	job.release_ns = atomic_exchange(&t->rel_ns, INT64_MIN);
	job.start_ns = job.release_ns + 10;
	check_int(job.release_ns, ==, 1000, "exec-2.5 the job keeps its own release");
	app_run_job(t, &job);
	check(app_ring_pop(&t->ring, &rec), "exec-2.6 record pushed");
	check(rec.flags & APP_JOB_OVERRUN, "exec-2.7 the job is flagged overrun");
	check_int(rec.missed, ==, 0, "exec-2.8 no missed activations before it");
	check_int(atomic_load(&t->state), ==, 0, "exec-2.9 task idle after the job");
	atomic_fetch_add(&t->skipped, 3);	/* as the tick does when it woke 3 slots late */
	check_int(app_release(t, 4000, 3), ==, 0, "exec-2.10 next release granted");
	job.release_ns = atomic_exchange(&t->rel_ns, INT64_MIN);
	job.start_ns = 4005;
	app_run_job(t, &job);
	check(app_ring_pop(&t->ring, &rec), "exec-2.11 second record");
	check_int(rec.missed, ==, 5, "exec-2.12 two busy misses plus three skipped slots before job 1");
	check_int(rec.seq, ==, 1, "exec-2.13 sequence 1");
	check(!(rec.flags & APP_JOB_OVERRUN), "exec-2.14 second job not overrun");
	check_int(t->stats.s.overruns, ==, 1, "exec-2.15 statistics: one overrun");
	check_int(t->stats.s.missed, ==, 5, "exec-2.16 statistics: five missed");
	/*
	 * slots the tick skipped after a release, while its job still waited for
	 * the CPU, are the next job's misses, not this one's (the amd64 guest)
	 */
	check_int(app_release(t, 8000, 7), ==, 0, "exec-2.23 a release granted");
	atomic_fetch_add(&t->skipped, 2);	/* the tick skips slots 8 and 9 before the job starts */
	job.release_ns = atomic_exchange(&t->rel_ns, INT64_MIN);
	job.start_ns = 10005;
	app_run_job(t, &job);
	check(app_ring_pop(&t->ring, &rec) && rec.missed == 0, "exec-2.24 skips after its release are not its misses");
	check_int(app_release(t, 11000, 10), ==, 0, "exec-2.25 the next release");
	job.release_ns = atomic_exchange(&t->rel_ns, INT64_MIN);
	job.start_ns = 11005;
	app_run_job(t, &job);
	check(app_ring_pop(&t->ring, &rec) && rec.missed == 2, "exec-2.26 they are the next job's: 3 periods after the last");
	check_int(app_task_trigger(t), ==, -EINVAL, "exec-2.17 trigger refuses a periodic task");
	t = app_find_task(&app, "ekf");
	check_int(app_task_trigger_at(t, 5000), ==, 0, "exec-2.18 trigger releases the event task");
	check_int(app_task_trigger(t), ==, -EBUSY, "exec-2.19 trigger while busy is missed");
	check_int(app_task_set_event_period(t, 15000000), ==, -EINVAL, "exec-2.20 event period must be whole slots");
	check_int(app_task_set_event_period(t, 0), ==, 0, "exec-2.21 synthetic source off");
	atomic_store(&app.stop, true);
	check_int(app_task_trigger(t), ==, -ECANCELED, "exec-2.22 no trigger after shutdown began");
	app_fini(&app);
}

/* The test's body table: counts of what the executive called. */
static int body_inits, body_jobs, body_finis, body_drains;

/* body_init - a body's setup: counts, keeps the count as the task's state */
static int body_init(struct app_task *t, struct app *app)
{
	body_inits++;
	app_task_set_priv(t, &body_jobs);
	return 0;
}

/* body_job - a body's job: counts through the task's state */
static void body_job(struct app_task *t, const struct app_job *job)
{
	(*(int *)app_task_priv(t))++;
}

/* body_fini - a body's fini: counts */
static void body_fini(struct app_task *t)
{
	body_finis++;
}

/* body_init_fails - a body whose device is missing */
static int body_init_fails(struct app_task *t, struct app *app)
{
	return -ENODEV;
}

/* body_drain - the logger's drain as the program hands it over: counts */
static uint64_t body_drain(struct app *app)
{
	body_drains++;
	return 0;
}

/* test_bodies - exec-3.x: the executive runs the bodies of the table it is given, and only those */
static void test_bodies(void)
{
	static const struct app_task_body bodies[] = {
		{ "ctl100", body_init, body_job, body_fini },
		{ "nosuch", body_init, body_job, body_fini },	/* no such task: never called */
		{ NULL, NULL, NULL, NULL },
	};
	static const struct app_task_body failing[] = {
		{ "nav10", body_init_fails, body_job, body_fini },
		{ NULL, NULL, NULL, NULL },
	};
	static struct app app;
	struct app_jobrec rec;
	struct app_task *t;
	struct app_job job;
	char err[256] = "";

	check_int(make_app(&app, "[task ctl100]\nwork = 0ns\n"), ==, 0, "exec-3.1 app set up");
	check_int(app_bodies_init(&app, NULL, err, sizeof(err)), ==, 0, "exec-3.2 no table: no bodies");
	check(!app_find_task(&app, "ctl100")->body, "exec-3.3 no table: ctl100 has no body");
	check_int(app_bodies_init(&app, bodies, err, sizeof(err)), ==, 0, "exec-3.4 the table is taken");
	t = app_find_task(&app, "ctl100");
	check(t->body == &bodies[0], "exec-3.5 ctl100 gets its body by name");
	check(!app_find_task(&app, "io")->body, "exec-3.6 io, not in the table, has none");
	check_int(body_inits, ==, 1, "exec-3.7 one init: a table entry without a task is not called");
	memset(&job, 0, sizeof(job));
	app_release(t, 1000, 0);
	job.release_ns = atomic_exchange(&t->rel_ns, INT64_MIN);
	app_run_job(t, &job);
	check_int(body_jobs, ==, 1, "exec-3.8 the job ran the body");
	check(app_ring_pop(&t->ring, &rec) && rec.seq == 0, "exec-3.9 and was recorded");
	app.drain = body_drain;
	app_join(&app);		/* no thread started: the logger's drain runs once here */
	check_int(body_drains, ==, 1, "exec-3.10 the handed drain empties the rings at the end");
	app_fini(&app);
	check_int(body_finis, ==, 1, "exec-3.11 fini of the inited body");

	check_int(make_app(&app, ""), ==, 0, "exec-3.12 app set up again");
	check_int(app_bodies_init(&app, failing, err, sizeof(err)), ==, -ENODEV, "exec-3.13 a failing init fails setup");
	check_str(err, "task nav10: init: No such device", "exec-3.14 naming the task");
	app_fini(&app);
	check_int(body_finis, ==, 1, "exec-3.15 no fini for a body whose init failed");
}

/* test_ring - ring-1.x: order, overflow counted */
static void test_ring(void)
{
	struct app_ring r;
	struct app_jobrec rec = { 0 };
	uint32_t i, ok = 0, order = 1;

	check_int(app_ring_init(&r, 100), ==, -EINVAL, "ring-1.1 size must be a power of two");
	check_int(app_ring_init(&r, 64), ==, 0, "ring-1.2 init");
	for (i = 0; i < 70; i++) {
		rec.seq = i;
		ok += app_ring_push(&r, &rec);
	}
	check_int(ok, ==, 64, "ring-1.3 64 pushed");
	check_int(app_ring_dropped(&r), ==, 6, "ring-1.4 six counted as dropped");
	for (i = 0; app_ring_pop(&r, &rec); i++)
		order &= rec.seq == i;
	check(order && i == 64, "ring-1.5 popped in order");
	rec.seq = 99;
	check(app_ring_push(&r, &rec) && app_ring_pop(&r, &rec) && rec.seq == 99, "ring-1.6 reusable after draining");
	app_ring_free(&r);
}

/* test_stats - stats-1.x: moments, histogram conversion, exact outliers */
static void test_stats(void)
{
	struct app_stats st;
	struct app_stats_snap s;
	struct app_jobrec rec = { 0 };
	struct pf_stats sum;
	struct pf_hist h;
	int i;

	check_int(app_stats_init(&st, 1000, 100), ==, 0, "stats-1.1 init");
	for (i = 0; i < 100; i++) {
		rec.release_ns = 0;
		rec.start_ns = i * 1000 + 500;	/* latencies 0.5 .. 99.5 us, all binned */
		rec.end_ns = rec.start_ns + 100;
		rec.seq = (uint32_t)i;
		app_stats_add(&st, &rec);
	}
	rec.start_ns = 5000000;			/* 5 ms: past the bins */
	rec.seq = 100;
	rec.flags = APP_JOB_OVERRUN | APP_JOB_DEADLINE;
	rec.missed = 2;
	app_stats_add(&st, &rec);
	app_stats_read(&st, &s);
	check_int(s.jobs, ==, 101, "stats-1.2 count");
	check_int(s.lat_min_ns, ==, 500, "stats-1.3 min");
	check_int(s.lat_max_ns, ==, 5000000, "stats-1.4 max");
	check_int(s.lat_max_seq, ==, 100, "stats-1.5 job of the max");
	check(s.overruns == 1 && s.deadline_misses == 1 && s.missed == 2, "stats-1.6 overrun, deadline and missed counted");
	check_int(app_stats_hist(&st, &h, &sum), ==, 0, "stats-1.7 converted to pf_hist");
	check_int(sum.count, ==, 101, "stats-1.8 no sample lost");
	check_int(sum.max, ==, 5000000, "stats-1.9 outlier exact");
	check_int(sum.pct[0], ==, 50000, "stats-1.10 p50 to the bin (its lower edge, as the app bins)");
	check_dbl(sum.mean, (100 * 50000.0 + 5000000) / 101, 1e-6, "stats-1.11 exact mean");
	pf_hist_free(&h);
	app_stats_free(&st);
}

#define SEQLOCK_ADDS 2000000

/* seqlock_writer - job i has latency i: every consistent snapshot has max = last = jobs - 1 */
static void *seqlock_writer(void *arg)
{
	struct app_stats *st = arg;
	struct app_jobrec rec = { 0 };
	int64_t i;

	for (i = 0; i < SEQLOCK_ADDS; i++) {
		rec.start_ns = i;
		rec.end_ns = i;
		app_stats_add(st, &rec);
	}
	return NULL;
}

/* test_seqlock - stats-2.x: a reader never sees a torn update while the writer runs */
static void test_seqlock(void)
{
	struct app_stats st;
	struct app_stats_snap s;
	pthread_t th;
	long reads = 0, torn = 0, n;

	check_int(app_stats_init(&st, 1000, 16), ==, 0, "stats-2.1 init");
	pthread_create(&th, NULL, seqlock_writer, &st);
	do {
		app_stats_read(&st, &s);
		n = (long)s.jobs;
		reads++;
		if (n && (s.lat_max_ns != n - 1 || s.lat_last_ns != n - 1 || s.lat_sum_ns != (int64_t)n * (n - 1) / 2 ||
			  s.resp_max_ns != n - 1))
			torn++;
	} while (n < SEQLOCK_ADDS);
	pthread_join(th, NULL);
	check_int(torn, ==, 0, "stats-2.2 no torn snapshot in %ld reads during %d updates", reads, SEQLOCK_ADDS);
	app_stats_free(&st);
}

/* test_markers - marker-1.x: the payloads of docs/markers.md */
static void test_markers(void)
{
	struct app_marker_raw raw;
	const unsigned char *b = (const unsigned char *)&raw;
	struct app_marker m;
	uint32_t id, seq;
	uint64_t rel;
	char text[APP_MARKER_MISS_MAX];
	size_t n;

	app_marker_encode_raw(&raw, APP_MARKER_END, 3, APP_JOB_OVERRUN, 17, 123456789012LL);
	check_int(sizeof(raw), ==, 24, "marker-1.1 24 bytes");
	memcpy(&id, b, 4);
	memcpy(&seq, b + 8, 4);
	memcpy(&rel, b + 16, 8);
	check_int(id, ==, 0x50464d31, "marker-1.2 id PFM1 at 0");
	check(b[4] == 'E' && b[5] == 3, "marker-1.3 kind at 4, task at 5");
	check_int(b[6] | b[7] << 8, ==, APP_JOB_OVERRUN, "marker-1.4 flags at 6");
	check_int(seq, ==, 17, "marker-1.5 seq at 8");
	check_int((int64_t)rel, ==, 123456789012LL, "marker-1.6 release at 16");
	n = app_marker_encode_text(text, APP_MARKER_START, 3, 0, 17, 123456789012LL);
	check_str(text, "pf1 S 3 17 123456789012\n", "marker-1.7 start text");
	check_int(n, ==, strlen(text), "marker-1.8 length");
	app_marker_encode_text(text, APP_MARKER_END, 0, 5, 0, 0);
	check_str(text, "pf1 E 0 0 0 5\n", "marker-1.9 end text carries flags");
	app_marker_off(&m);
	check_int(app_marker_job(&m, 'S', 0, 0, 0, 0), ==, 1, "marker-1.10 off writes nothing");
	n = app_marker_encode_miss(text, 255, 4294967295u, 123456789012LL, 15000000);
	check_str(text, "flightapp deadline miss: task 255 seq 4294967295 release_ns 123456789012 response_ns 15000000\n",
		  "marker-1.11 deadline-miss text (widest task and seq)");
	check_int(app_marker_miss(&m, 0, 0, 0, 0), ==, 1, "marker-1.12 off writes no miss marker");
}

/* test_work - work-1.x: calibrated work consumes CPU time, at least what was asked */
static void test_work(void)
{
	int64_t c0 = pf_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	int64_t c1 = app_work_cpu_ns(3 * PF_NS_PER_MS);

	check(c1 - c0 >= 3 * PF_NS_PER_MS, "work-1.1 3 ms of thread CPU time consumed (%lld ns)", (long long)(c1 - c0));
	check_int(app_work_cpu_ns(0) >= c1, ==, 1, "work-1.2 zero work returns the CPU clock");
}

int main(void)
{
	tap_plan(11 + 4 + 13 + 19 + 6 + 9 + 26 + 15 + 6 + 11 + 2 + 12 + 2);
	test_defaults();
	test_profiles();
	test_overrides();
	test_errors();
	test_sections();
	test_slots();
	test_release();
	test_bodies();
	test_ring();
	test_stats();
	test_seqlock();
	test_markers();
	test_work();
	return tap_done();
}
