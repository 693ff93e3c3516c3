/*
 * task.h - the interface between flightapp's realtime executive and the code
 * that runs inside its tasks (the "task bodies").
 *
 * The executive (app/exec.c) owns the threads, the release instants, the
 * calibrated CPU work and every measurement. A task body only says what one
 * job of a task does. The program hands the executive a table of bodies,
 * looked up by task name (app_bodies_init() of exec.h); flightapp's table is
 * app/bodies.c, the one file where flight software plugs in. This header is
 * all a body needs: the flight software (app/fsw/) includes nothing else of
 * app/, and the executive never calls a body except through the table.
 * A body is up to three functions:
 *
 *   static int io_init(struct app_task *t, struct app *app);   setup: may allocate, open, fail
 *   static void io_job(struct app_task *t, const struct app_job *job);   realtime: must not
 *   static void io_fini(struct app_task *t);                   after the last job
 *
 * Rules for job(): it runs on the realtime path, so it never allocates,
 * prints, takes a blocking lock or makes a syscall it was not designed to
 * make (a planned non-blocking read of a device is fine). It returns when the
 * job is done; the executive then adds the task's calibrated extra CPU work
 * ('work' in the configuration), records the job and writes the end marker.
 *
 * Event-triggered tasks (kind 'event', like 'ekf') are released by
 * app_task_trigger() from another task's job (the 'io' body on a GPS fix) or
 * from a signal handler. Until a real source is connected, the executive's
 * synthetic source releases them every 'event_period' (1 s for 'ekf'); a body
 * that has a real source turns it off in its init with
 * app_task_set_event_period(t, 0).
 *
 * Configuration sections of their own ([links], [fsw], ...) are added to the
 * INI parser with app_config_add_section() (below, defined in app/config.c),
 * which the program calls for them before the configuration is read
 * (flightapp: app_bodies_register() in app/bodies.c).
 */
#ifndef APP_TASK_H
#define APP_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct app;
struct app_task;

/* What a job knows when it starts. */
struct app_job {
	uint32_t seq;		/* job sequence number of the task, from 0 (job log, markers) */
	uint32_t missed;	/* activations missed just before this job */
	int64_t  release_ns;	/* intended release r_k, CLOCK_MONOTONIC ns */
	int64_t  start_ns;	/* s_k: when the task's thread took the job */
	int64_t  deadline_ns;	/* absolute deadline: release_ns + the task's deadline */
	int64_t  slot;		/* base slot index of the release (r = t0 + slot * slot_ns); -1 for triggered jobs */
};

/* A task body: what one job of a task does. Any member may be NULL. */
struct app_task_body {
	const char *name;					/* task name it serves: "io", "ekf", ... */
	int  (*init)(struct app_task *t, struct app *app);	/* setup, before the threads start; 0 or -errno */
	void (*job)(struct app_task *t, const struct app_job *job);	/* one job, on the realtime path */
	void (*fini)(struct app_task *t);			/* after the task's last job */
};

/* Kinds of task. */
enum app_task_kind {
	APP_TASK_TICK,		/* the base-rate task: its thread is the executive's tick */
	APP_TASK_PERIODIC,	/* released by the tick every period / slot slots */
	APP_TASK_EVENT,		/* released by app_task_trigger() (or the synthetic source) */
	APP_TASK_BACKGROUND,	/* no releases: the executive's own loop (logger) */
};

/* app_task_name - the task's name ("io") */
const char *app_task_name(const struct app_task *t);

/* app_task_id - the task's small integer id (0-255), as in the trace markers */
int app_task_id(const struct app_task *t);

/* app_task_kind - the task's kind */
enum app_task_kind app_task_kind(const struct app_task *t);

/* app_task_period_ns - the task's period (0 for event and background tasks) */
int64_t app_task_period_ns(const struct app_task *t);

/* app_task_priv / app_task_set_priv - one pointer of the body's own state */
void *app_task_priv(const struct app_task *t);
void app_task_set_priv(struct app_task *t, void *priv);

/* app_find_task - a task by name, NULL when there is none (setup code: keep the pointer) */
struct app_task *app_find_task(struct app *app, const char *name);

/* app_slot_ns - the base slot length */
int64_t app_slot_ns(const struct app *app);

/* app_no_rt - true when the app runs with --no-rt (SCHED_OTHER everywhere) */
bool app_no_rt(const struct app *app);

/* app_stopping - true once shutdown has begun (SIGINT / SIGTERM / --duration) */
bool app_stopping(const struct app *app);

/*
 * app_task_trigger - release an event-triggered task now (release_ns = the
 * CLOCK_MONOTONIC time of the call). Realtime- and async-signal-safe: atomics
 * and a sem_post, no allocation, no lock. A trigger that finds the task still
 * busy is counted as an overrun of its current job and a missed activation,
 * never queued. Returns 0, -EBUSY (counted as missed) or -EINVAL (not an
 * event task).
 */
int app_task_trigger(struct app_task *t);

/* app_task_trigger_at - app_task_trigger with the release instant given (e.g. the fix's arrival time) */
int app_task_trigger_at(struct app_task *t, int64_t release_ns);

/*
 * app_task_set_event_period - period of the synthetic event source of an
 * event task (a multiple of the slot; 0 turns it off). Setup code only.
 */
int app_task_set_event_period(struct app_task *t, int64_t period_ns);

/*
 * app_work_cpu_ns - consume 'work_ns' of this thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), however long that takes in wall time. The
 * executive calls it with the configured work after each job; a body may
 * call it for work of its own. Returns the thread CPU time at the end.
 */
int64_t app_work_cpu_ns(int64_t work_ns);

/*
 * A registered configuration section handler: called for each key of a
 * section whose name equals 'name' (or, when 'name' ends in '*', starts with
 * it). Returns 0, or -EINVAL with a message (without file:line) in err.
 */
typedef int (*app_section_fn)(void *user, const char *section, const char *key,
			      const char *value, char *err, size_t err_size);

/* app_config_add_section - register a section handler before the configuration is read; 0 or -errno */
int app_config_add_section(const char *name, app_section_fn fn, void *user);

#endif
