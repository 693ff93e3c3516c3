/*
 * exec.h - flightapp's realtime executive: the application object, its tasks
 * and their threads, the base-rate tick and the release bookkeeping.
 *
 * Inside the app only; task bodies see the narrower interface of task.h.
 * The executive calls nothing above it: the program hands it the task
 * bodies (app_bodies_init) and the logger's drain (app->drain).
 *
 * Release protocol. Each released task owns one atomic word 'state':
 * bit 0 BUSY (a job is released and not finished), bit 1 OVERRUN (a release
 * came while BUSY), bits 2.. the releases missed while BUSY. A releaser (the
 * tick, or app_task_trigger from any thread or signal handler) sets BUSY with
 * a compare-and-swap and posts the task's semaphore, or, finding BUSY, adds a
 * missed release and sets OVERRUN: never queued, never silently dropped. The
 * task clears the word in one exchange at the end of its job and so learns
 * whether the job overran and how many releases the next job follows.
 * Slots the tick itself skipped (it woke more than a slot late) are added to
 * 'skipped'; the next granted release takes them ('rel_skipped'), and its job
 * counts them missed: the job of an earlier release, which may start only
 * after those slots, never does (the amd64 guest's t/0220 app-3.6 caught that).
 */
#ifndef APP_EXEC_H
#define APP_EXEC_H

#include "config.h"
#include "marker.h"
#include "ring.h"
#include "task_stats.h"
#include "task.h"

#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#define APP_STATE_BUSY    0x1ULL
#define APP_STATE_OVERRUN 0x2ULL
#define APP_STATE_MISSED1 0x4ULL	/* one missed release */

struct app_task {
	/* shared between releasers and the task */
	_Atomic uint64_t state __attribute__((aligned(APP_CACHELINE)));
	_Atomic uint64_t skipped;	/* slots the tick skipped at this task's releases */
	_Atomic int64_t rel_ns;		/* release of the granted job (its releaser writes, the task takes) */
	int64_t  rel_slot;
	uint32_t rel_skipped;		/* slots skipped before the granted release (written with rel_ns) */
	sem_t    sem;
	/* the task's own (written by its thread) */
	uint32_t seq __attribute__((aligned(APP_CACHELINE)));
	uint32_t missed_next;		/* releases missed during the last job */
	uint64_t marker_errors;
	uint64_t joblog_dropped;	/* rows the job log's disk did not take (logger thread) */
	int64_t  thread_cpu_ns;		/* CPU time of the thread at its exit */
	int      nice;			/* the thread's nice value (--no-rt: -prio/5 when permitted) */
	_Atomic int tid;
	struct app_ring  ring;
	struct app_stats stats;
	/* set up before the threads start, read-only afterwards */
	struct app_task_cfg cfg;
	const struct app_task_body *body;
	struct app *app;
	void    *priv;
	int      id;
	int64_t  deadline_ns;
	int64_t  period_slots, phase_slots, event_slots;
	pthread_t thread;
	bool     started;
	bool     inited;
};

struct app {
	struct app_config cfg;
	struct app_task task[APP_MAX_TASKS];
	int      ntasks;
	struct app_task *tick;		/* the tick task */
	struct app_task *logger;	/* the background logger, or NULL */
	bool     no_rt;
	bool     quiet;
	int64_t  duration_ns;		/* 0 = until a signal */
	int64_t  end_slot;		/* first slot not run, -1 = none */
	int64_t  t0_ns;			/* release of slot 0 */
	_Atomic int64_t end_ns;		/* end of the last tick slot run */
	_Atomic bool stop;		/* shutdown requested */
	_Atomic bool abort_start;	/* setup failed after threads began */
	_Atomic bool tick_done;
	_Atomic bool logger_stop;
	_Atomic uint64_t skipped_slots;	/* slots the tick skipped (woke more than a slot late) */
	pthread_t main_thread;		/* the thread that ends the run (joins, job log, statistics) */
	int      end_prio;		/* SCHED_FIFO priority of the run's end (app_raise_end), 0 = none */
	_Atomic int end_prio_error;	/* the tick's raise of main_thread: 0 or -errno */
	sem_t    go;			/* released once t0 is set */
	struct app_marker marker;
	uint64_t (*drain)(struct app *app);	/* the logger's job: empty the rings (flightapp: app_logger_drain), NULL = none */
	FILE    *joblog;		/* NULL: records are drained and discarded */
	char     joblog_path[512];
	uint64_t joblog_rows;		/* rows on disk (without a job log: rows drained) */
	int      joblog_error;		/* first write error (-errno), 0 if none */
	char    *joblog_buf;		/* rows formatted, not yet written (app/joblog_write.c) */
	size_t   joblog_len;
	uint8_t *joblog_row_task;	/* the task of each buffered row */
	size_t   joblog_nrows;
	int      joblog_reserve_fd;	/* room for the trailer on a full disk, or -1 */
	size_t   stack_bytes;
	bool     memory_locked;		/* mlockall succeeded */
	bool     no_cpu_time;		/* flightapp-perf only: jobs without CPU-time reads (cpu_ns 0) */
	char     dma_state[16];		/* "held", "off" or "unavailable" (job log, JSON) */
	char     trace_instance[64];	/* "" when no markers */
};

/* app_task_dropped - records of a task lost before the job log: full ring or full disk */
static inline uint64_t app_task_dropped(struct app_task *t)
{
	return app_ring_dropped(&t->ring) + t->joblog_dropped;
}

/* app_init - set up the app from a checked configuration: tasks, rings, statistics; 0 or -errno */
int app_init(struct app *app, const struct app_config *cfg, char *err, size_t err_size);

/*
 * app_bodies_init - give each task its body from 'bodies' (by task name, the
 * table ended by name NULL; NULL = no bodies) and call every body's init
 * (setup); 0 or -errno with the failing task in err
 */
int app_bodies_init(struct app *app, const struct app_task_body *bodies, char *err, size_t err_size);

/*
 * app_signals_to_main - before app_start: a closed stdout / stderr pipe must
 * not end the run before the job log is drained (SIGPIPE ignored), and
 * SIGINT / SIGTERM are blocked in every thread the executive creates, for the
 * calling thread to take synchronously (sigtimedwait on *sigs)
 */
void app_signals_to_main(sigset_t *sigs);

/*
 * app_start - create every thread (SCHED_FIFO unless no_rt), pick t0 and let
 * them run. On failure stops what was started: -EPERM (priority not
 * permitted), -EINVAL (affinity), ... with the reason in err.
 */
int app_start(struct app *app, char *err, size_t err_size);

/*
 * app_declare_tasks - one "pf1 T" declaration per task into the trace
 * (docs/markers.md), once every thread's tid is known (after app_start)
 */
void app_declare_tasks(struct app *app);

/* app_go - let the started threads run (once the job log header is written) */
void app_go(struct app *app);

/*
 * app_set_end_priority - the run's end (the caller: main_thread, and the
 * logger's last drain) at SCHED_FIFO 'prio' once the tick's last slot is over;
 * 0 leaves both as they are. Before app_go.
 */
void app_set_end_priority(struct app *app, int prio);

/* app_request_stop - begin shutdown (from the main thread) */
void app_request_stop(struct app *app);

/*
 * app_join - wait for the tick, then stop and join every task and the logger
 * (the logger raised to the end priority for its last drain)
 */
void app_join(struct app *app);

/* app_fini - bodies' fini, free memory */
void app_fini(struct app *app);

/* app_release - grant a release to a task or count it missed: 0, or -EBUSY when missed */
int app_release(struct app_task *t, int64_t release_ns, int64_t slot);

/* app_boundaries - releases in slots [a, b) of a task released every 'period' slots from 'phase' */
int64_t app_boundaries(int64_t a, int64_t b, int64_t phase, int64_t period);

/* app_tick_slot - the slot a tick that woke at now_ns belongs to (>= expected) */
int64_t app_tick_slot(int64_t t0_ns, int64_t slot_ns, int64_t expected, int64_t now_ns);

/* app_missed_after_last - releases missed after a task's last job (reported at exit) */
uint64_t app_missed_after_last(struct app_task *t);

/* app_run_job - run one released job with its instrumentation (realtime path) */
void app_run_job(struct app_task *t, struct app_job *job);

#endif
