/*
 * run_cpus.h - where the runner puts preflight's own processes: the CPUs
 * the flight app may use (from its profile and configuration), and the
 * housekeeping CPUs left outside them and outside isolcpus / nohz_full,
 * which the recorder and the loads' helpers get (docs/scenarios.md).
 */
#ifndef RUN_CPUS_H
#define RUN_CPUS_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

/*
 * run_cpus_app - the CPUs the flight app may run on: [app] cpus (every
 * online CPU when unset) and every [task NAME] cpus, of the profile file,
 * then the configuration file (either NULL); 0, or -errno with why
 */
int run_cpus_app(const char *profile_path, const char *config_path, cpu_set_t *used,
		 char *why, size_t size) __attribute__((warn_unused_result));

#define RUN_STEAL_CPUS 256	/* CPUs whose steal time a phase records */

/*
 * run_steal_read - each CPU's steal time so far (/proc/stat, the 8th value of
 * each cpuN line: time the hypervisor ran something else while this virtual
 * CPU wanted to run), in ms into steal_ms[cpu]; the number of CPUs read (at
 * most max), or -errno
 */
int run_steal_read(int64_t *steal_ms, int max);

/* run_cpus_profile_path - the file of flightapp --profile NAME (a path, or profiles/NAME.ini); 0 or -ENOENT with why */
int run_cpus_profile_path(const char *name, char *path, size_t size) __attribute__((warn_unused_result));

#endif
