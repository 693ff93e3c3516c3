/*
 * sysinfo.h - the system survey every qualification starts with: what kernel,
 * preemption model, CPUs, clocks, idle states and tracing a machine has, and
 * which of those will hurt latency (the warnings).
 *
 * sysinfo_collect() reads proc/, sys/, etc/ and boot/ under a root directory
 * ("/" for this machine, a fixture tree in tests) and returns one JSON object
 * of schema "preflight-sysinfo/1" (docs/sysinfo.md). 'preflight sysinfo'
 * prints it; 'preflight qualify' and 'preflight run' write it as sysinfo.json
 * into the run directory with sysinfo_write().
 *
 * The parsers below are exposed for the unit test (t/unit/sysinfo_test.c).
 */
#ifndef SYSINFO_H
#define SYSINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define SYSINFO_SCHEMA       "preflight-sysinfo/1"
#define SYSINFO_MAX_CPUS     4096
#define SYSINFO_DEEP_IDLE_US 10	/* an enabled idle state with a larger exit latency is "deep" */

/*
 * sysinfo_check_root - is 'root' a directory holding proc/ or sys/? 0, or
 * -errno with a reason in *why (static text)
 */
int sysinfo_check_root(const char *root, const char **why);

/*
 * sysinfo_collect - survey the system under 'root' into a new JSON object
 * (*out, the caller json_decref()s it). Missing or unreadable files give null
 * fields and an entry in "notes", never an error. 0, or -errno when root is
 * broken (see sysinfo_check_root) or memory runs out.
 */
int sysinfo_collect(const char *root, json_t **out) __attribute__((warn_unused_result));

/* sysinfo_judge - (re)compute the "warnings" array of a survey from its fields */
void sysinfo_judge(json_t *info);

/* sysinfo_print_human - the short aligned table, notes, then the warnings */
void sysinfo_print_human(const json_t *info, FILE *out);

/*
 * sysinfo_write - write a survey to 'path' (NULL or "-": stdout) as indented
 * JSON or as the human table, through lib/outfile.h (a file replaced whole,
 * a device written in place). 0, or an exit code after one line
 */
int sysinfo_write(const json_t *info, const char *path, bool as_json) __attribute__((warn_unused_result));

/*
 * sysinfo_json_text - a JSON string of text read from a file: bytes that are
 * not valid UTF-8 (or control characters) become '?', so that no field is
 * ever lost to jansson's UTF-8 check
 */
json_t *sysinfo_json_text(const char *text);

/* A set of CPU numbers (cpulist syntax "0-3,6,8-15:2/4"). */
struct sysinfo_cpuset {
	uint64_t bits[SYSINFO_MAX_CPUS / 64];
};

/*
 * sysinfo_cpulist_parse - parse a kernel cpulist ("0-3,6", "1-7:2/4", "N" =
 * last CPU, given nr_cpus; "" = empty) into *set; 0 or -EINVAL
 */
int sysinfo_cpulist_parse(const char *text, int nr_cpus, struct sysinfo_cpuset *set);

/* sysinfo_cpulist_format - a set as the shortest cpulist ("0-3,6"; "" when empty) */
void sysinfo_cpulist_format(const struct sysinfo_cpuset *set, char *buf, size_t size);

/* sysinfo_cpuset_count - how many CPUs a set holds */
int sysinfo_cpuset_count(const struct sysinfo_cpuset *set);

static inline bool sysinfo_cpuset_has(const struct sysinfo_cpuset *set, int cpu)
{
	return cpu >= 0 && cpu < SYSINFO_MAX_CPUS && (set->bits[cpu / 64] >> (cpu % 64)) & 1;
}

/* The realtime-relevant kernel command-line parameters, as given (last one wins). */
struct sysinfo_cmdline {
	char       *buf;			/* owned copy of the command line; the values point into it */
	const char *isolcpus;			/* NULL when absent */
	const char *nohz_full;
	const char *rcu_nocbs;			/* "" when given without a value (all CPUs) */
	const char *irqaffinity;
	const char *idle;			/* idle=poll|halt|nomwait */
	const char *processor_max_cstate;	/* processor.max_cstate= */
	const char *intel_idle_max_cstate;	/* intel_idle.max_cstate= */
	const char *mitigations;
	const char *preempt;			/* preempt= of a PREEMPT_DYNAMIC kernel */
	bool        threadirqs;
	bool        nosmt;
};

/*
 * sysinfo_cmdline_parse - split a kernel command line like the kernel does
 * (spaces, double quotes, '-' == '_' in names, stop at " -- ") and pick the
 * parameters above; 0 or -ENOMEM. Free with sysinfo_cmdline_free.
 */
int sysinfo_cmdline_parse(const char *cmdline, struct sysinfo_cmdline *cl)
	__attribute__((warn_unused_result));
void sysinfo_cmdline_free(struct sysinfo_cmdline *cl);

/*
 * sysinfo_isolcpus_split - split an isolcpus= value "managed_irq,domain,2-3"
 * into its flags ("managed_irq,domain", or "" when none: the kernel's default
 * is "domain") and its cpulist ("2-3")
 */
void sysinfo_isolcpus_split(const char *value, char *flags, size_t flags_size, const char **cpus);

enum sysinfo_preempt {
	SYSINFO_PREEMPT_UNKNOWN = 0,
	SYSINFO_PREEMPT_NONE,
	SYSINFO_PREEMPT_VOLUNTARY,
	SYSINFO_PREEMPT_FULL,
	SYSINFO_PREEMPT_LAZY,
	SYSINFO_PREEMPT_RT,
};

/* sysinfo_preempt_name - "none", "voluntary", "full", "lazy", "rt", or NULL when unknown */
const char *sysinfo_preempt_name(enum sysinfo_preempt p);

/* sysinfo_preempt_from_name - the mode called 'name' ("full"), or UNKNOWN */
enum sysinfo_preempt sysinfo_preempt_from_name(const char *name);

/*
 * sysinfo_preempt_debugfs - the active mode of the text of
 * /sys/kernel/debug/sched/preempt ("none (voluntary) full lazy"), or UNKNOWN
 */
enum sysinfo_preempt sysinfo_preempt_debugfs(const char *text);

/* What the version string (uname -v) says about preemption. */
#define SYSINFO_VER_PREEMPT	0x1	/* "PREEMPT": full preemption */
#define SYSINFO_VER_RT		0x2	/* "PREEMPT_RT" or "PREEMPT RT" */
#define SYSINFO_VER_DYNAMIC	0x4	/* "PREEMPT_DYNAMIC" */
#define SYSINFO_VER_LAZY	0x8	/* "PREEMPT_LAZY" */

/* sysinfo_version_flags - SYSINFO_VER_* flags of a kernel version string */
unsigned sysinfo_version_flags(const char *version);

/* The evidence about preemption, each piece possibly unknown. */
struct sysinfo_preempt_in {
	int                  realtime;	/* /sys/kernel/realtime: 1, 0, -1 unknown */
	const char          *version;	/* uname -v, or NULL */
	int                  config_rt;	/* CONFIG_PREEMPT_RT: 1, 0, -1 no config */
	int                  config_dynamic;	/* CONFIG_PREEMPT_DYNAMIC: 1, 0, -1 */
	enum sysinfo_preempt config_mode;	/* the CONFIG_PREEMPT_* choice (the dynamic default) */
	enum sysinfo_preempt debugfs_mode;	/* active mode from debugfs, or UNKNOWN */
	enum sysinfo_preempt cmdline_mode;	/* preempt= on the command line, or UNKNOWN */
};

struct sysinfo_preempt_out {
	char        model[32];	/* "rt", "full", "dynamic:none", ... or "" when unknown */
	const char *source;	/* "debugfs", "cmdline", "config", "version", "realtime", or NULL */
	int         rt;		/* PREEMPT_RT: 1, 0, -1 unknown */
	int         dynamic;	/* PREEMPT_DYNAMIC: 1, 0, -1 unknown */
	enum sysinfo_preempt dynamic_mode;	/* the current mode of a dynamic kernel, or UNKNOWN */
};

/* sysinfo_preempt_decide - combine the evidence into a model (see docs/sysinfo.md) */
void sysinfo_preempt_decide(const struct sysinfo_preempt_in *in, struct sysinfo_preempt_out *out);

#endif
