/*
 * rec.h - the inside of 'preflight record': one recording session, shared by
 * the files of traces/ (instance set-up, per-CPU streaming, pid -> comm
 * collection, raw-page scanning, .dat writing, flight recorder).
 *
 * A session owns one tracefs instance ("preflight-<pid>" unless --instance
 * names it), a private temporary directory next to the output file holding
 * one raw page file per CPU, and the pid -> comm table. Every resource is
 * released by rec_session_end() on every exit path.
 */
#ifndef REC_H
#define REC_H

#include "common.h"
#include "rec_read.h"
#include "stale.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tracefs_instance;
struct tracefs_cpu;
struct tep_handle;

#define REC_NAME_PREFIX   "preflight-"
#define REC_REGISTRY_DIR  PF_RECORD_REGISTRY
#define REC_TMPREG_DIR    PF_STATE_DIR "/record-tmp"	/* <name>: the session's tmpdir */
#define REC_TMPDIR_PREFIX ".preflight-record."
#define REC_SESSION_FILE  "session"	/* in the tmpdir: what recovery needs (rec_recover.c) */
#define REC_COMM_LEN      16
#define REC_MAX_EVENTS    96

/* one enable request: a single event, or a whole system when event is "" */
struct rec_event {
	char system[48];
	char event[64];
	bool optional;			/* from a set: skipped with a note when this kernel lacks it */
	const char *filter;		/* the kernel filter it is recorded with, NULL none */
};

struct rec_events {
	int n;
	struct rec_event ev[REC_MAX_EVENTS];
};

struct rec_opts {
	const char *output;		/* -o FILE (flight: FILE-NNN.dat) */
	const char *events;		/* --events SET|LIST */
	long buffer_kb;			/* --buffer-kb, per CPU */
	const char *instance;		/* --instance NAME or NULL */
	int64_t duration_ns;		/* --duration, 0: until the command ends / a signal */
	bool kallsyms;			/* store /proc/kallsyms (symbol names in reports) */
	bool compress;			/* write v7 with compressed sections instead of v6 */
	bool copy_markers;		/* copy top-level trace_marker writes (cyclictest --tracemark) */
	bool rt_wakeups;		/* --wakeups rt: sched_waking / sched_wakeup of realtime threads only */
	bool rt_switches;		/* --switches rt: sched_switch to or from a realtime thread or idle only */
	long buffer_percent;		/* reader wake-up watermark */
	bool flight;			/* --flight-recorder */
	int64_t window_ns;		/* flight: seconds kept before a trigger */
	long max_snapshots;		/* flight: stop after this many */
	const char *trigger;		/* flight: marker substring that triggers a snapshot */
	bool quiet;
	char **argv;			/* the command after --, or NULL */
	const char *cpus;		/* --cpus LIST as given, or NULL: not pinned */
	cpu_set_t cpu_set;		/* ... parsed */
	int observe[16];		/* --observer PID: more preflight processes, by pid */
	int nobserve;
	bool set_nice;			/* --nice given: the recorder's threads at 'nice', the command not */
	int nice;
	int ready_fd;			/* --ready-fd: "ready" once set up, or -1 */
	int go_fd;			/* --go-fd: wait for "go" before starting, or -1 */
};

/* one entry of the pid -> comm table; the newest observation wins */
struct rec_comm {
	int pid;			/* 0: free slot */
	int64_t seen_ns;		/* trace-clock time of the observation */
	char comm[REC_COMM_LEN + 1];
};

struct rec_comms {
	struct rec_comm *slot;
	size_t size;			/* power of two */
	size_t used;
};

struct rec_cpu {
	struct rec_session *s;		/* the session it belongs to */
	int cpu;
	int fd;				/* raw page file of this CPU */
	char path[PATH_MAX];
	struct tracefs_cpu *tcpu;
	pthread_t thread;
	bool running;
	int tid;			/* the stream thread's id, once it runs */
	uint64_t bytes;			/* written so far */
	int err;			/* -errno of the stream thread */
};

struct rec_count {
	uint64_t events;		/* all events in the raw files */
	uint64_t missed;		/* events the pages say were overwritten before read */
	uint64_t first_ns, last_ns;	/* span of the trace */
};

struct rec_session {
	const struct rec_opts *opts;
	struct tracefs_instance *inst;
	int orig_nice;			/* the nice value before --nice: the command's */
	char name[64];
	char tracing_dir[256];		/* the tracefs mount */
	char tmpdir[1024];		/* private, next to the output */
	char clock[32];			/* trace clock in effect */
	char clock_line[256];		/* the instance's trace_clock file */
	int ncpus;
	int subbuf_size;		/* bytes per ring-buffer page */
	struct rec_cpu *cpus;
	char **stats;			/* per-CPU stats text read at the end */
	struct rec_events events;
	struct rec_comms comms;
	struct tep_handle *tep;		/* the instance's event formats, for scanning */
	volatile int stop;		/* stream threads: finish up */
	double cpu_s;			/* recorder CPU time while recording (streaming) */
	int64_t wall_ns;		/* wall time of that */
	bool pinned;			/* --cpus in effect; orig_cpus is the mask before it */
	cpu_set_t orig_cpus;
	int *obs;			/* observer thread ids: the recorder's own, --observer's */
	size_t nobs, obs_cap;
	char incomplete[200];		/* why the .dat is incomplete (recovered, truncated), or "" */
	bool no_kallsyms;		/* a full disk: kallsyms left out to make room */
};

/* rec_tracefs.c */
int rec_tracefs_ready(char *dir, size_t size) PF_MUST_CHECK;
int rec_events_parse(const char *spec, struct rec_events *out) PF_MUST_CHECK;
int rec_instance_setup(struct rec_session *s) PF_MUST_CHECK;
void rec_instance_teardown(struct rec_session *s);
int rec_tracing_on(struct rec_session *s, bool on);
int rec_tracing_is_on(struct rec_session *s);
int rec_read_stats(struct rec_session *s);
int rec_marker_write(struct rec_session *s, const char *text);
void rec_tmpdir_remove(const char *dir);
void rec_registry_path(char *buf, size_t size, const char *name);
void rec_tmpreg_path(char *buf, size_t size, const char *name);
void rec_events_dir(const struct rec_session *s, char *buf, size_t size);

/* rec_recover.c: what a killed recorder left (its instance, registry entries, raw pages) */
int rec_session_note(const struct rec_session *s);
int rec_stale_cleanup(const char *tracing_dir, bool quiet);
int rec_recover_dir(const char *tracing_dir, const char *dir, bool quiet);
int rec_disk_full_cut(struct rec_session *s, int why, struct rec_count *count) PF_MUST_CHECK;
bool rec_stream_failed(struct rec_session *s);

/* rec_stream.c */
int rec_cpu_files_open(struct rec_session *s, const char *tag) PF_MUST_CHECK;
void rec_cpu_files_close(struct rec_session *s, bool remove);
int rec_stream_start(struct rec_session *s) PF_MUST_CHECK;
int rec_stream_stop(struct rec_session *s);
int rec_drain(struct rec_session *s) PF_MUST_CHECK;

/* rec_comm.c */
int rec_comm_set(struct rec_comms *c, int pid, const char *comm, int64_t seen_ns);
int rec_comm_forget(struct rec_comms *c, int64_t since_ns);
const char *rec_comm_get(const struct rec_comms *c, int pid);
void rec_comm_free(struct rec_comms *c);
int rec_comm_scan_proc(struct rec_comms *c);
int rec_comm_read_saved(struct rec_comms *c, const char *tracing_dir);
int rec_comm_write(const struct rec_comms *c, const char *path);

/* rec_observer.c */
int rec_observer_add(struct rec_session *s, int tid) PF_MUST_CHECK;
int rec_observer_scan(struct rec_session *s);
char *rec_observer_line(struct rec_session *s);
int rec_pin(struct rec_session *s) PF_MUST_CHECK;

/* rec_scan.c */
typedef int (*rec_page_fn)(void *ctx, int cpu, long long page_off, uint64_t first_ns,
			   uint64_t last_ns);
int rec_scan_load_tep(struct rec_session *s);
int rec_scan_cpu_file(struct rec_session *s, int cpu, struct rec_count *count,
		      rec_page_fn page_fn, void *ctx);
int rec_scan_all(struct rec_session *s, struct rec_count *count) PF_MUST_CHECK;
int rec_find_marker(struct rec_session *s, const char *text, uint64_t *ts_ns);

/* rec_dat.c */
int rec_dat_write(struct rec_session *s, const char *path) PF_MUST_CHECK;
void rec_report(struct rec_session *s, const char *path, const struct rec_count *count);
double rec_cpu_seconds(void);

/* rec_read.c */
int rec_summary_print(const char *path, FILE *out);

/* cmd_record.c: what woke the recorder's main loop */
enum rec_wake {
	REC_WAKE_TICK,			/* the periodic tick (100 ms) */
	REC_WAKE_STOP,			/* command exited, duration over, SIGINT / SIGTERM */
	REC_WAKE_SNAPSHOT,		/* SIGUSR1 */
};
typedef enum rec_wake (*rec_wait_fn)(struct rec_session *s);

/* rec_flight.c */
int rec_flight_arm(struct rec_session *s) PF_MUST_CHECK;
int rec_flight_run(struct rec_session *s, rec_wait_fn wait, int *snapshots);

#endif
