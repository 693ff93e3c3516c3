/*
 * config.h - flightapp's configuration: the task table and the executive's
 * settings, their defaults (docs/ARCHITECTURE.md's table) and the INI file that
 * overrides them (docs/flightapp.md lists every key).
 *
 * Sections of the INI file:
 *   [app]          slot, cpus, ring, dma_latency, histogram ...
 *   [task NAME]    one task; an existing NAME overrides fields, a new NAME adds a task
 *   [anything]     a section registered with app_config_add_section() (task.h)
 *
 * Every error is reported as "file:line: what is wrong" (exit code 2).
 */
#ifndef APP_CONFIG_H
#define APP_CONFIG_H

#include "common.h"
#include "task.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define APP_MAX_TASKS    32
#define APP_NAME_MAX     24
#define APP_CPUS_MAX     1024

enum app_policy {
	APP_POLICY_FIFO,	/* SCHED_FIFO at 'priority' */
	APP_POLICY_OTHER,	/* SCHED_OTHER */
};

/* One task of the table. */
struct app_task_cfg {
	char     name[APP_NAME_MAX];	/* [A-Za-z0-9_]+ */
	enum app_task_kind kind;
	enum app_policy policy;
	int      priority;		/* SCHED_FIFO 1..99 (0 for SCHED_OTHER) */
	int64_t  period_ns;		/* multiple of the slot; 0 for event / background */
	int64_t  phase_ns;		/* offset of the first release, multiple of the slot */
	int64_t  deadline_ns;		/* relative deadline D; 0 = the period (event: event_period) */
	int64_t  work_ns;		/* calibrated extra CPU work per job */
	int64_t  event_period_ns;	/* event tasks: synthetic source period, 0 = off */
	char     cpus[64];		/* affinity as a CPU list ("1", "0-3,6"), "" = inherit */
	bool     enabled;		/* false: removed by the configuration */
};

/* The whole configuration. */
struct app_config {
	char     source[256];		/* config file, or "builtin" */
	char     profile[64];		/* profile name, or "" */
	int64_t  slot_ns;		/* base slot, default 10 ms */
	char     cpus[64];		/* default affinity of every task, "" = inherit */
	uint32_t ring_entries;		/* job records per task ring (power of two) */
	int64_t  logger_period_ns;	/* how often the logger drains the rings */
	int64_t  hist_bin_ns;		/* latency histogram bin width */
	uint32_t hist_bins;		/* latency histogram bins */
	bool     dma_latency;		/* hold /dev/cpu_dma_latency at 0 */
	int      ntasks;
	struct app_task_cfg task[APP_MAX_TASKS];
};

/* app_config_defaults - the built-in task table (docs/ARCHITECTURE.md) */
void app_config_defaults(struct app_config *cfg);

/*
 * app_config_load - read an INI file over cfg; 0, or -EINVAL with
 * "file:line: what is wrong" in err (-ENOENT etc. when it cannot be opened)
 */
int app_config_load(struct app_config *cfg, const char *path, char *err, size_t err_size) PF_MUST_CHECK;

/* app_config_load_string - the same from a string (tests); 'name' stands for the file name */
int app_config_load_string(struct app_config *cfg, const char *name, const char *text,
			   char *err, size_t err_size) PF_MUST_CHECK;

/* app_config_check - whole-table checks after loading (one tick task, unique ids ...); 0 or -EINVAL */
int app_config_check(const struct app_config *cfg, char *err, size_t err_size);

/* app_config_find - a task's configuration by name, NULL when absent */
struct app_task_cfg *app_config_find(struct app_config *cfg, const char *name);

/* app_cfg_deadline_ns - the effective relative deadline (0 when none) */
int64_t app_cfg_deadline_ns(const struct app_task_cfg *t);

/* app_kind_name / app_policy_name - names as written in the configuration */
const char *app_kind_name(enum app_task_kind kind);
const char *app_policy_name(enum app_policy policy);

/* app_parse_cpus - parse a CPU list "0-3,6" into a bitmask of APP_CPUS_MAX bits; 0 or -EINVAL */
int app_parse_cpus(const char *text, uint64_t *mask, size_t mask_words);

#endif
