/*
 * run_private.h - what the files of `preflight run` share and nothing else
 * uses: struct run (the run under way), its loads and live worst latencies,
 * the runner's time limits and sizes, and the functions one file of the
 * runner calls in another: run.c (set-up, the phases, the commands),
 * run_pre.c (the pre-flight checks), run_progress.c (the progress line),
 * run_post.c (analysis, check, report, traces, the manifest).
 */
#ifndef RUN_PRIVATE_H
#define RUN_PRIVATE_H

#include "common.h"
#include "proc.h"
#include "run.h"
#include "scenario.h"

#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RUN_LOAD_READY_NS  (60 * PF_NS_PER_SEC)	/* a load must be ready by then */
#define RUN_REAP_NS        (5 * PF_NS_PER_SEC)	/* a child that closed its ready channel has exited by then */
#define RUN_RECORDER_READY_NS (180 * PF_NS_PER_SEC)	/* the recorder set up by then (an emulated CPU) */
/*
 * the recorder's nice value: the normal threads of the loads (hackbench's
 * forty) cannot starve it where it shares a CPU with them (the 1-CPU armhf
 * guest lost 57 % of its events at nice 0); no realtime thread is affected
 */
#define RUN_RECORDER_NICE "-10"
#define RUN_LOAD_STOP_NS   (30 * PF_NS_PER_SEC)	/* and stopped, report written, by then */
#define RUN_LOAD_SAFETY_NS (120 * PF_NS_PER_SEC)	/* a load ends itself this long after its phase */
#define RUN_TRIGGER_GAP_NS (11 * PF_NS_PER_SEC)	/* flight recorder: one snapshot per window */
#define RUN_EARLY_END_NS   (500 * PF_NS_PER_MS)	/* a measurement that ended sooner ended early */
#define RUN_PLAIN_PROGRESS_NS (10 * PF_NS_PER_SEC)	/* a progress line this often when stderr is no terminal */
/*
 * What a phase writes, planned before it starts (the pre-flight disk check):
 * a full trace under every load wrote 720 MB in 90 s on 2 CPUs here; the job
 * log 1.3 MB and cyclictest's output 0.9 MB in 90 s and 40 s; the flight
 * recorder keeps whole buffers (record's default 16 MiB per CPU) for each of
 * its snapshots (flightapp.max_snapshots); the SD load writes its file_size.
 */
#define RUN_TRACE_BYTES_PER_CPU_S  (4LL << 20)
#define RUN_JOBLOG_BYTES_PER_S     (16LL << 10)
#define RUN_CYCLICTEST_BYTES_PER_S (32LL << 10)
#define RUN_RECORD_BUFFER_BYTES    (16LL << 20)
#define RUN_SD_FILE_SIZE           "64M"	/* the SD load's file_size default (docs/loads.md) */
/*
 * How long past its duration a measurement may take to end by itself before
 * it is stopped: cyclictest ends on time; the recorder still writes its
 * trace after the app ended (tens of seconds for minutes under load).
 */
#define RUN_MEASURE_GRACE_NS(traced, p) ((traced) ? \
	120 * PF_NS_PER_SEC + (p)->duration_ns / 2 : 20 * PF_NS_PER_SEC)

/* how the runner starts the children that live through a phase: ended with it if it dies */
#define RUN_CHILD (PF_PROC_PGRP | PF_PROC_TERM_ON_DEATH)
/*
 * a traced measurement: the recorder holds the SIGTERM of the runner's death
 * until it is set up (killed the moment it starts, it would die of it
 * without a trace, or anything saying why), then ends the recording with it
 */
#define RUN_RECORDER (RUN_CHILD | PF_PROC_HOLD_STOP)


struct run_load {
	const char *name;
	struct pf_proc proc;
	char report[PATH_MAX];
	char samples[PATH_MAX];		/* what it achieved each second (docs/loads.md, Samples) */
	bool started;
};

#define RUN_MAX_SNAPSHOTS "64"	/* a flight-recorder phase's snapshot budget (flightapp.max_snapshots) */

/* The live worst latency per thread / task, from the status lines of cyclictest or flightapp. */
struct run_live {
	int n;
	char name[16][24];	/* in name order (T0, T1, ... / ctl100, io, ...): a stable order */
	double max_us[16];	/* the worst so far: never less than before */
	bool rt[16];		/* a realtime thread (not "P:other") */
};

struct run {
	const struct run_opts *o;
	struct scn scn;
	char dir[2048];
	char self[PATH_MAX];		/* this program */
	char bindir[2048];		/* where flightapp and sensorsim are built */
	char budgets[PATH_MAX];
	FILE *log;			/* run.log */
	int64_t t0_ns;
	bool tty;
	bool partial;
	int code;			/* exit code so far */
	char failure[1200];		/* why the run could not be done */
	char budgets_src[PATH_MAX];	/* the budgets as named (by --budgets, the scenario or the default) */
	char notes[8192];		/* what the pre-flight checks found good, for run.log */
	char seen[48][64];		/* pre-flight checks done already (scenario lines, messages) */
	int nseen;
	json_t *phases;			/* run.json phases */
	json_t *identity;		/* run.json preflight: what produced the run (run_identity.c) */
	json_t *load_phases;		/* loads.json phases */
	json_t *warnings;		/* run.json warnings: what made the run less than it should be */
	int app_phase, baseline_phase;	/* indexes of the phases that feed the top-level results */
	struct run_live live;		/* the phase's live worst per thread / task, for the progress line */
	char trace_instance[64];
	json_t *traces;			/* run.json traces: what became of each .dat after the analysis */
	char started_utc[32];
	int current_phase;		/* the phase under way, -1 between phases */
	int reserve_fd;			/* room held back on the run directory's disk, or -1 */
	bool disk_full;			/* that disk filled: the run is partial */
};


/* run.c */
extern volatile sig_atomic_t run_signal;	/* the stop request (SIGINT, SIGTERM, SIGHUP): its number, or 0 */
void run_log(struct run *r, const char *fmt, ...) PF_PRINTF(2, 3);
int run_fail(struct run *r, int code, const char *fmt, ...) PF_PRINTF(3, 4);
bool run_disk_check(struct run *r, const char *when);
int run_fail_io(struct run *r, const char *what, int err);
char *run_path(char *buf, size_t size, const char *dir, const char *name);
bool run_exists(const char *path);
void run_utc(char *buf, size_t size, bool iso);
bool run_dir_empty(const char *path);
int run_find_file(const char *name, char *out, size_t size);
bool run_has_command(struct run *r, const char *name);
int run_argv(char **argv, int max, int n, const char *arg);
int run_exec(struct run *r, char **argv, const char *out, const char *err);
size_t run_tail(const char *path, char *text, size_t size);
const char *run_measure_owner(const struct scn_phase *p);
const char *run_trace_mode(struct run *r, const struct scn_phase *p);
bool run_traced(struct run *r, const struct scn_phase *p);
int run_split(char **argv, int max, int n, const char *text, char *buf, size_t size);
char *run_phase_dir(struct run *r, int idx, char *buf, size_t size);

/* run_pre.c */
int run_precheck(struct run *r);

/* run_progress.c */
void run_live_read(const char *file, struct run_live *lv);
void run_progress(struct run *r, int idx, const struct scn_phase *p, int64_t elapsed_ns, const char *pdir);

/* run_post.c */
void run_manifest(struct run *r, bool complete);
int run_finish(struct run *r);

#endif
