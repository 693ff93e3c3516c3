/*
 * kconfig.c - the realtime-relevant kernel config options (the preemption
 * model, the tick, timers, RCU callbacks, CPU isolation, RT group scheduling,
 * frequency and idle states, ftrace) and the reading of one .config line.
 */
#include "kconfig.h"

#include <stdio.h>
#include <string.h>

const char *const pf_kconfig_rt_opts[PF_KCONFIG_RT_NOPTS] = {
	"CONFIG_PREEMPT_RT", "CONFIG_PREEMPT_DYNAMIC", "CONFIG_PREEMPT_NONE",
	"CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT", "CONFIG_PREEMPT_LAZY",
	"CONFIG_HZ", "CONFIG_NO_HZ_FULL", "CONFIG_NO_HZ_IDLE", "CONFIG_HIGH_RES_TIMERS",
	"CONFIG_RCU_NOCB_CPU", "CONFIG_CPU_ISOLATION", "CONFIG_RT_GROUP_SCHED",
	"CONFIG_CPU_FREQ", "CONFIG_CPU_IDLE", "CONFIG_FTRACE",
};

int pf_kconfig_line(const char *line, const char *opt, char *val, size_t size)
{
	size_t len = strlen(opt);

	if (!strncmp(line, "# ", 2) && !strncmp(line + 2, opt, len) && !strcmp(line + 2 + len, " is not set")) {
		snprintf(val, size, "n");
		return 1;
	}
	if (!strncmp(line, opt, len) && line[len] == '=') {
		snprintf(val, size, "%s", line + len + 1);
		return 1;
	}
	return 0;
}
