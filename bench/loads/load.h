/*
 * load.h - the synthetic loads of the test bench (wifi, sd, spi, cpu,
 * rt-swarm) behind one interface. Their child processes are lib/proc.h's.
 *
 * A load is configured with key=value parameters (from a scenario section or
 * the command line), started, polled while it runs, stopped on command, and
 * then reports what it actually achieved as JSON (the proof that it ran).
 * Each load cleans up everything it created (processes, namespaces, links,
 * qdiscs, loop devices, mounts, files) on every exit path; names carry a
 * recognisable prefix and the owner's pid so that a later run can remove what
 * a killed one left behind (load_cleanup_stale).
 *
 * `preflight load NAME` runs one load in its own process; `preflight run`
 * starts every load of a phase that way, each in its own process group, and
 * ends it by pid / process group.
 */
#ifndef LOAD_H
#define LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "proc.h"

struct json_t;
struct load;

struct load_ops {
	const char *name;		/* "wifi" */
	const char *summary;		/* one line */
	const char *params_help;	/* "  key=VALUE  what (default)\n" lines */
	size_t priv_size;		/* bytes of private state, zeroed */
	/* defaults - set every parameter's default in priv */
	void (*defaults)(struct load *l);
	/* set - one parameter; 0, -ENOENT unknown key, -EINVAL bad value */
	int (*set)(struct load *l, const char *key, const char *value);
	/* check - the tools and privileges start needs are there; 0 or -errno with l->why set */
	int (*check)(struct load *l);
	/* start - check, then create and start everything; 0 or -errno with l->why set */
	int (*start)(struct load *l);
	/* poll - called about every 100 ms while running; 0 or -errno (load died, l->why set) */
	int (*poll)(struct load *l);
	/* stop - stop the load's work and collect its figures */
	void (*stop)(struct load *l);
	/*
	 * sample - a running count of what the load did (jobs, bits, CPU-% seconds: its rate per second
	 * is what it achieved) and the target rate in the same unit per second (NAN: none); 0, or
	 * -ENODATA when it cannot say now. NULL: the load writes no samples (docs/loads.md)
	 */
	int (*sample)(struct load *l, double *count, double *target_per_s);
	const char *sample_unit;	/* the unit of count per second: "jobs/s", "bit/s", "%" */
	/* report - what the load achieved, as a JSON object (new reference) */
	struct json_t *(*report)(struct load *l);
	/* cleanup - undo everything start created; idempotent, safe after a failed start */
	void (*cleanup)(struct load *l);
	/* cleanup_stale - remove what dead owners left behind (names with a dead pid) */
	void (*cleanup_stale)(void);
};

struct load {
	const struct load_ops *ops;
	void *priv;
	int64_t duration_ns;	/* planned run time, 0 = until stopped */
	int64_t start_ns;	/* CLOCK_MONOTONIC when started */
	int64_t stop_ns;	/* CLOCK_MONOTONIC when stopped */
	bool interrupted;	/* stopped before duration_ns */
	char work_dir[256];	/* where the load may put files (helper output) */
	char why[512];		/* why start / poll failed */
	struct load_place *place;	/* helper_cpus=LIST: where the helpers run, NULL: not placed */
};

/* load_find - the load called 'name', or NULL */
const struct load_ops *load_find(const char *name);

/* load_names - the names of every load, space separated */
const char *load_names(void);

/* load_init - allocate a load's state with its defaults; 0 or -errno */
int load_init(struct load *l, const struct load_ops *ops, const char *work_dir);

/* load_free - release a load's state */
void load_free(struct load *l);

/* load_set - set one parameter "key=value" text; 0, -ENOENT unknown key, -EINVAL bad value */
int load_set(struct load *l, const char *key, const char *value);

/*
 * load_report - the load's JSON report wrapped with its name, start / stop
 * times, planned and actual duration and the interrupted flag
 */
struct json_t *load_report(struct load *l);

/*
 * Placement (docs/loads.md): with helper_cpus=LIST (any load) the load's
 * process and its non-realtime helpers run on LIST; the load's own work
 * (realtime threads, CPU hogs, the SPI exerciser and its peer) is started
 * between load_work_begin and load_work_end, on the CPUs the load was
 * started with.
 */
/* load_place_helpers - move the calling (main) thread to helper_cpus, if given; 0 or -errno with l->why */
int load_place_helpers(struct load *l);
/*
 * load_work_begin - threads and children started from now on run where the
 * load was started; 0 or -errno with l->why (its work would run on the
 * helpers' CPUs: the load does not start)
 */
int load_work_begin(struct load *l) __attribute__((warn_unused_result));
/* load_work_end - back on helper_cpus */
void load_work_end(struct load *l);

/* load_cleanup_stale - every load's stale cleanup */
void load_cleanup_stale(void);

/* load_dead_owner - the pid in "<prefix><pid>..." when that process is gone, else 0 */
pid_t load_dead_owner(const char *name, const char *prefix);

/* load_why - set l->why (printf style); returns -err for 'return load_why(...)' */
int load_why(struct load *l, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * load_tool_failed - a tool of the load ended early: l->why says so with the
 * tool's own reason, the line of its output 'err_path' that gives one (an
 * "error" or "fail" line, else its first lines); returns -EIO
 */
int load_tool_failed(struct load *l, const char *tool, const struct pf_proc *p, const char *err_path);

/* Parameter parsers shared by the loads: 0 or -EINVAL. */
/* load_tree_usage - CPU time (ns) and bytes written (wchar) of a process and its children; 0 or -errno */
int load_tree_usage(pid_t root, double *cpu_ns, double *wchar_bytes);

int load_parse_u32(const char *value, uint32_t min, uint32_t max, uint32_t *out);
int load_parse_ns(const char *value, int64_t *out_ns);	/* "10ms", default unit s */
int load_parse_bytes(const char *value, uint64_t *out);	/* "64k", "8M", "1G" (powers of 1024) */
int load_parse_bps(const char *value, uint64_t *out);	/* "20mbit", "500kbit", "1gbit", bits/s */
int load_parse_str(const char *value, char *buf, size_t size);

#endif
