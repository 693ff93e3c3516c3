/*
 * st_log.h - the selftest's injector log (docs/selftest.md): the cases, the
 * app tasks that are their victims, and one row per injection with the
 * injector's own CLOCK_MONOTONIC time stamps. Written by selftest-inject
 * (bench/selftest/inject.c), read by the comparison (bench/selftest/st_compare.c).
 *
 * File: "# preflight-selftest-inject/3", then "# key=value" lines (slot_ns,
 * t0_ns, cpu_victim, cpu_tick, ncpus, gap_ns, quick, storm, first_slot.CASE,
 * last_slot.CASE, skip.CASE: why the case could not run on this platform),
 * then the column row and one row per injection:
 *
 *   case,task,slot,release_ns,t0_ns,t1_ns,t2_ns,gaps_ns,pid,param,t3_ns,cpu_ns,t4_ns,t5_ns,t6_ns,pid2
 *
 * The meaning of the columns per case is in docs/selftest.md.
 */
#ifndef ST_LOG_H
#define ST_LOG_H

#define ST_LOG_HEADER  "# preflight-selftest-inject/3"
#define ST_LOG_COLUMNS "case,task,slot,release_ns,t0_ns,t1_ns,t2_ns,gaps_ns,pid,param,t3_ns,cpu_ns,t4_ns,t5_ns,t6_ns,pid2"
#define ST_LOG_NCOLS   16

/* The cases, numbered as in docs/selftest.md. */
enum st_case {
	ST_BLOCK = 1,		/* a hog spins over the victim's release */
	ST_PREEMPT,		/* a hog wakes inside a victim's job */
	ST_TIMER,		/* a hog spins over the tick's timer expiry */
	ST_OVERRUN,		/* a job runs past its period */
	ST_MIGRATE,		/* a job moves itself to the other CPU */
	ST_EVENT,		/* a pipe write wakes the event task's releaser */
	ST_LOST,		/* a storm under a tiny ring buffer */
	ST_PROBE,		/* the instrumentation's cost */
	ST_AGREE,		/* trace against job log */
	ST_PI,			/* a victim blocked on a mutex a low-priority thread holds, a medium hog beside */
	ST_NCASES = ST_PI,
};

/* The app's tasks of the selftest (the executive's own threads) and the injector's threads. */
#define ST_TASK_TICK    "st_tick"	/* the base-rate tick, on the tick CPU: victim of ST_TIMER */
#define ST_TASK_VICTIM  "st_victim"	/* periodic, victim CPU: ST_BLOCK, ST_PREEMPT */
#define ST_TASK_OVR     "st_ovr"	/* periodic, victim CPU: ST_OVERRUN */
#define ST_TASK_MIG     "st_mig"	/* periodic, victim CPU: ST_MIGRATE */
#define ST_TASK_EKF     "st_ekf"	/* event-triggered, victim CPU: ST_EVENT */
#define ST_TASK_PI      "st_pi"		/* periodic, victim CPU: ST_PI (blocks on the holder's mutex) */

/* ST_PI: the priorities of the holder and the medium hog (the victim's is its task's) */
#define ST_PI_HOLDER_PRIO 10
#define ST_PI_MID_PRIO    50
#define ST_PI_VICTIM_PRIO 87

/*
 * a blocking hog spins on this long (its own running time) after it saw the
 * victim's semaphore posted: the remote wakeup takes 1-3 us, and the hog stays
 * the victim's main culprit beside a foreign realtime thread's short runs
 */
#define ST_WAKE_MARGIN_NS 30000

/* st_victim's own running time per job (its spin) */
#define ST_VICTIM_WORK_NS (400 * 1000)

/* st_case_name - the short name of a case ("block"), NULL when out of range */
const char *st_case_name(int c);

#endif
