/*
 * run_cpus.c - the CPUs of a flightapp phase (see run_cpus.h). The app's
 * placement is read from the same INI files flightapp reads (profile, then
 * configuration; keys of docs/flightapp.md), with the one INI reader of
 * lib/ini.h: only [app] cpus and [task NAME] cpus matter here, and flightapp
 * itself reports anything else wrong with the files.
 */
#define _GNU_SOURCE
#include "run_cpus.h"
#include "common.h"
#include "cpuset.h"
#include "datafile.h"
#include "ini.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* run_cpus_ini - what one file says about the app's CPUs */
struct run_cpus_ini {
	cpu_set_t app;			/* [app] cpus */
	bool app_set;
	cpu_set_t tasks;		/* union of [task NAME] cpus */
};

/* run_cpus_key - inih handler: [app] cpus and [task NAME] cpus */
static int run_cpus_key(void *user, const char *section, const char *key, const char *value)
{
	struct run_cpus_ini *c = user;
	cpu_set_t set;

	if (strcmp(key, "cpus") || pf_cpus_parse(value, &set) < 0)
		return 1;	/* flightapp itself says what is wrong with a file */
	if (!strcmp(section, "app")) {
		c->app = set;
		c->app_set = true;
	} else if (!strncmp(section, "task ", 5)) {
		CPU_OR(&c->tasks, &c->tasks, &set);
	}
	return 1;
}

int run_cpus_profile_path(const char *name, char *path, size_t size)
{
	char data[300];

	if (strchr(name, '/')) {
		snprintf(path, size, "%s", name);
		return 0;
	}
	snprintf(data, sizeof(data), "profiles/%s.ini", name);
	return pf_datafile(data, path, size) < 0 ? -ENOENT : 0;
}

int run_cpus_app(const char *profile_path, const char *config_path, cpu_set_t *used,
		 char *why, size_t size)
{
	const char *files[] = { profile_path, config_path };
	struct run_cpus_ini c;
	struct pf_ini ini;
	size_t i;
	int ret;

	memset(&c, 0, sizeof(c));
	CPU_ZERO(&c.tasks);
	for (i = 0; i < PF_ARRAY_SIZE(files); i++) {
		if (!files[i])
			continue;
		memset(&ini, 0, sizeof(ini));
		ini.file = files[i];
		ini.err = why;
		ini.err_size = size;
		ret = pf_ini_parse(&ini, run_cpus_key, &c);
		if (ret < 0)
			return ret;
	}
	if (c.app_set) {
		*used = c.app;
	} else {
		/* not pinned: the app's unplaced threads may run on any CPU */
		CPU_ZERO(used);
		for (i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, used);
	}
	CPU_OR(used, used, &c.tasks);
	return 0;
}

int run_steal_read(int64_t *steal_ms, int max)
{
	unsigned long long v[8];
	long hz = sysconf(_SC_CLK_TCK);
	char line[512];
	int cpu, n = 0;
	FILE *f = fopen("/proc/stat", "re");

	if (!f)
		return -errno;
	for (int i = 0; i < max; i++)
		steal_ms[i] = 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "cpu", 3) && isdigit((unsigned char)line[3]) &&
		    sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5], &v[6], &v[7]) == 9 && cpu >= 0 && cpu < max) {
			steal_ms[cpu] = hz > 0 ? (int64_t)(v[7] * 1000 / (unsigned long long)hz) : 0;
			n = cpu + 1 > n ? cpu + 1 : n;
		}
	fclose(f);
	return n ? n : -ENODATA;
}
