/*
 * cpuset.c - CPU lists (see cpuset.h): the kernel's "0-3,6" notation to and
 * from cpu_set_t, the sysfs lists of online, isolated and nohz_full CPUs,
 * and a thread's allowed CPUs as /proc shows them.
 */
#define _GNU_SOURCE
#include "cpuset.h"
#include "common.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pf_cpus_parse(const char *text, cpu_set_t *set)
{
	const char *p = text;
	char *end;
	long a, b;

	CPU_ZERO(set);
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			b = strtol(p, &end, 10);
		}
		if (b < a || b >= CPU_SETSIZE)
			return -EINVAL;
		for (; a <= b; a++)
			CPU_SET(a, set);
		while (isspace((unsigned char)*end))
			end++;
		if (!*end)
			return 0;
		if (*end != ',')
			return -EINVAL;
		p = end + 1;
	}
}

char *pf_cpus_format(const cpu_set_t *set, char *buf, size_t size)
{
	size_t len = 0;
	int cpu, last;

	if (size)
		buf[0] = '\0';
	for (cpu = 0; cpu < CPU_SETSIZE && len < size; cpu++) {
		if (!CPU_ISSET(cpu, set))
			continue;
		for (last = cpu; last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set); last++)
			;
		if (last == cpu)
			len += snprintf(buf + len, size - len, "%s%d", len ? "," : "", cpu);
		else
			len += snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", cpu, last);
		cpu = last;
	}
	return buf;
}

int pf_cpus_read(const char *path, cpu_set_t *set)
{
	char text[4096];
	int ret = pf_read_file(path, text, sizeof(text));

	if (ret < 0)
		return ret;
	return pf_cpus_parse(text, set);
}

void pf_cpus_housekeeping(const char *root, const cpu_set_t *used, cpu_set_t *out)
{
	static const char *const taken[] = { "isolated", "nohz_full" };
	char path[4096];
	cpu_set_t other;
	size_t i;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/online", root ? root : "");
	if (pf_cpus_read(path, out) < 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		CPU_ZERO(out);
		for (i = 0; (long)i < n && i < CPU_SETSIZE; i++)
			CPU_SET(i, out);
	}
	for (i = 0; i < PF_ARRAY_SIZE(taken); i++) {
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/%s", root ? root : "", taken[i]);
		if (pf_cpus_read(path, &other) == 0) {
			CPU_XOR(&other, &other, out);	/* out minus 'other': (other ^ out) & out */
			CPU_AND(out, out, &other);
		}
	}
	CPU_XOR(&other, out, used);
	CPU_AND(out, out, &other);
}

int pf_cpus_of_task(pid_t pid, pid_t tid, cpu_set_t *set)
{
	char path[96], line[4096];
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Cpus_allowed_list:", 18)) {
			line[strcspn(line, "\n")] = '\0';
			ret = pf_cpus_parse(line + 18, set);
			break;
		}
	fclose(f);
	return ret;
}
