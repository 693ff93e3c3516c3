/*
 * cpuset.h - CPU lists as the kernel writes them ("0-3,6"): parsed into and
 * formatted from a cpu_set_t, read from sysfs (online, isolated, nohz_full)
 * and from a thread's /proc status (Cpus_allowed_list). Shared by the
 * recorder (record --cpus) and the runner, which keeps the observer on the
 * housekeeping CPUs (docs/ARCHITECTURE.md).
 */
#ifndef PF_CPUSET_H
#define PF_CPUSET_H

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

#include "common.h"

/* pf_cpus_parse - "1", "0-3,6" (blanks around items allowed) into set; "" is the empty set; 0 or -EINVAL */
int pf_cpus_parse(const char *text, cpu_set_t *set) PF_MUST_CHECK;

/* pf_cpus_format - set as a kernel-style list ("0-3,6"; "" when empty) into buf */
char *pf_cpus_format(const cpu_set_t *set, char *buf, size_t size);

/* pf_cpus_read - a sysfs list file (/sys/devices/system/cpu/online) into set; 0 or -errno */
int pf_cpus_read(const char *path, cpu_set_t *set) PF_MUST_CHECK;

/*
 * pf_cpus_housekeeping - the CPUs left for preflight's own processes: online
 * CPUs (under root, "" for /) outside 'used' and outside isolcpus /
 * nohz_full; the empty set when none is free
 */
void pf_cpus_housekeeping(const char *root, const cpu_set_t *used, cpu_set_t *out);

/* pf_cpus_of_task - Cpus_allowed_list of /proc/PID/task/TID/status into set; 0 or -errno */
int pf_cpus_of_task(pid_t pid, pid_t tid, cpu_set_t *set) PF_MUST_CHECK;

#endif
