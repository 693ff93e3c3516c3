/*
 * kconfig.h - the kernel config options that matter to realtime latency, and
 * how one line of a kernel .config sets one: one list that the survey records
 * (sysinfo.json kernel.config, docs/sysinfo.md) and the reviewer report shows
 * from a run's kernel.config (docs/report.md), so that both name the same options.
 */
#ifndef PF_KCONFIG_H
#define PF_KCONFIG_H

#include <stddef.h>

/* the realtime-relevant options, in the order they are shown */
#define PF_KCONFIG_RT_NOPTS 16
extern const char *const pf_kconfig_rt_opts[PF_KCONFIG_RT_NOPTS];

/*
 * pf_kconfig_line - whether a line of a .config (no trailing newline) sets 'opt': 1 with its value
 * in val ("y", "1000", "n" for "# opt is not set"), truncated to size; 0 when the line is about
 * another option or none
 */
int pf_kconfig_line(const char *line, const char *opt, char *val, size_t size);

#endif
