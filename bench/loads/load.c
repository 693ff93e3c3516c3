/*
 * load.c - the registry of the bench's loads, their shared parameter
 * parsers, and the JSON envelope around every load's report (see load.h).
 */
#define _GNU_SOURCE	/* strcasestr */
#include "load.h"
#include "common.h"
#include "cpuset.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const struct load_ops load_wifi, load_sd, load_spi,
	load_cpu, load_rt_swarm, load_telemetry;

static const struct load_ops *const load_table[] = {
	&load_wifi, &load_sd, &load_spi, &load_cpu, &load_rt_swarm, &load_telemetry,
};

const struct load_ops *load_find(const char *name)
{
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(load_table); i++)
		if (!strcmp(load_table[i]->name, name))
			return load_table[i];
	return NULL;
}

const char *load_names(void)
{
	return "wifi sd spi cpu rt-swarm";
}

int load_init(struct load *l, const struct load_ops *ops, const char *work_dir)
{
	memset(l, 0, sizeof(*l));
	l->ops = ops;
	l->priv = calloc(1, ops->priv_size);
	if (!l->priv)
		return -ENOMEM;
	snprintf(l->work_dir, sizeof(l->work_dir), "%s", work_dir ? work_dir : "/tmp");
	ops->defaults(l);
	return 0;
}

void load_free(struct load *l)
{
	free(l->priv);
	l->priv = NULL;
	free(l->place);
	l->place = NULL;
}

/* load_place - helper_cpus of a load, and the CPUs it was started with */
struct load_place {
	cpu_set_t helper_cpus;	/* helper_cpus=LIST */
	cpu_set_t work_cpus;	/* the main thread's affinity before placing */
	bool placed;		/* the main thread runs on helper_cpus */
};

/* load_set_place - the helper_cpus parameter every load takes */
static int load_set_place(struct load *l, const char *value)
{
	cpu_set_t set;

	if (pf_cpus_parse(value, &set) < 0 || !CPU_COUNT(&set))
		return -EINVAL;
	if (!l->place && !(l->place = calloc(1, sizeof(*l->place))))
		return -ENOMEM;
	l->place->helper_cpus = set;
	return 0;
}

int load_place_helpers(struct load *l)
{
	struct load_place *p = l->place;
	char list[256];

	if (!p)
		return 0;
	if (sched_getaffinity(0, sizeof(p->work_cpus), &p->work_cpus) < 0)
		return load_why(l, errno, "helper_cpus: %s", strerror(errno));
	if (sched_setaffinity(0, sizeof(p->helper_cpus), &p->helper_cpus) < 0)
		return load_why(l, errno, "helper_cpus=%s: %s", pf_cpus_format(&p->helper_cpus, list,
				sizeof(list)), errno == EINVAL ? "no CPU of the list is online" : strerror(errno));
	p->placed = true;
	return 0;
}

int load_work_begin(struct load *l)
{
	char list[256];

	if (l->place && l->place->placed &&
	    sched_setaffinity(0, sizeof(l->place->work_cpus), &l->place->work_cpus) < 0)
		return load_why(l, errno, "cannot start its work on the CPUs it was started with (%s): %s",
				pf_cpus_format(&l->place->work_cpus, list, sizeof(list)), strerror(errno));
	return 0;
}

void load_work_end(struct load *l)
{
	if (l->place && l->place->placed &&
	    sched_setaffinity(0, sizeof(l->place->helper_cpus), &l->place->helper_cpus) < 0)
		pf_err("load %s: cannot return to helper_cpus: %s", l->ops->name, strerror(errno));
}

int load_set(struct load *l, const char *key, const char *value)
{
	if (!strcmp(key, "helper_cpus"))
		return load_set_place(l, value);
	return l->ops->set(l, key, value);
}

int load_why(struct load *l, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->why, sizeof(l->why), fmt, ap);
	va_end(ap);
	return err > 0 ? -err : err;
}

/* load_reason_line - the line of a tool's output that says why it failed, into buf ("" if none) */
static void load_reason_line(const char *path, char *buf, size_t size)
{
	static const char *const words[] = { "error", "fail", "cannot", "can't", "must", "denied", "invalid",
					     "not ", "unable", "usage" };
	char text[4096], *line, *save = NULL, *first = NULL;
	size_t i;

	buf[0] = '\0';
	if (!path || pf_read_file(path, text, sizeof(text)) <= 0)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line)
			continue;
		if (!first)
			first = line;
		for (i = 0; i < PF_ARRAY_SIZE(words); i++)
			if (strcasestr(line, words[i])) {
				snprintf(buf, size, "%s", line);
				return;
			}
	}
	if (first)
		snprintf(buf, size, "%s", first);
}

int load_tool_failed(struct load *l, const char *tool, const struct pf_proc *p, const char *err_path)
{
	char why[300];

	load_reason_line(err_path, why, sizeof(why));
	return load_why(l, EIO, "%s exited early with %d%s%s", tool, pf_proc_exit_code(p), why[0] ? ": " : "", why);
}

json_t *load_report(struct load *l)
{
	int64_t end = l->stop_ns ? l->stop_ns : pf_now_ns();
	json_t *o, *achieved;

	achieved = l->ops->report(l);
	o = json_pack("{s:s, s:s, s:I, s:I, s:f, s:f, s:b, s:o}",
		      "schema", "preflight-load-v1",
		      "load", l->ops->name,
		      "start_ns", (json_int_t)l->start_ns,
		      "stop_ns", (json_int_t)end,
		      "planned_s", (double)l->duration_ns / PF_NS_PER_SEC,
		      "elapsed_s", l->start_ns ? (double)(end - l->start_ns) / PF_NS_PER_SEC : 0.0,
		      "interrupted", l->interrupted,
		      "achieved", achieved ? achieved : json_object());
	return o;
}

void load_cleanup_stale(void)
{
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(load_table); i++)
		if (load_table[i]->cleanup_stale)
			load_table[i]->cleanup_stale();
}

pid_t load_dead_owner(const char *name, const char *prefix)
{
	long pid;

	if (strncmp(name, prefix, strlen(prefix)))
		return 0;
	pid = strtol(name + strlen(prefix), NULL, 10);
	return pid > 0 && !pf_proc_pid_alive((pid_t)pid) ? (pid_t)pid : 0;
}

/* load_proc_stat - ppid and utime + stime (ticks) of a process from /proc/PID/stat; 0 or -1 */
static int load_proc_stat(const char *pid, long *ppid, double *ticks)
{
	char path[300], buf[1024], *p;
	unsigned long ut, st;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the comm may hold spaces and parentheses */
	if (!p || sscanf(p + 1, " %*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", ppid, &ut, &st) != 3)
		return -1;
	*ticks = (double)ut + (double)st;
	return 0;
}

/* load_proc_wchar - bytes a process passed to write() (/proc/PID/io), 0 when unreadable */
static double load_proc_wchar(const char *pid)
{
	char path[300], line[128];
	double v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/io", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "wchar: %lf", &v) == 1)
			break;
	fclose(f);
	return v;
}

int load_tree_usage(pid_t root, double *cpu_ns, double *wchar_bytes)
{
	long hz = sysconf(_SC_CLK_TCK), ppid;
	struct dirent *de;
	double ticks, sum = 0, w = 0;
	DIR *d;

	if (root <= 0 || hz <= 0)
		return -ESRCH;
	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]) || load_proc_stat(de->d_name, &ppid, &ticks))
			continue;
		if (atol(de->d_name) != root && ppid != root)
			continue;
		sum += ticks;
		w += load_proc_wchar(de->d_name);
	}
	closedir(d);
	*cpu_ns = sum * ((double)PF_NS_PER_SEC / (double)hz);
	*wchar_bytes = w;
	return 0;
}

int load_parse_u32(const char *value, uint32_t min, uint32_t max, uint32_t *out)
{
	long v;

	if (pf_parse_long(value, min, max, &v))
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

int load_parse_ns(const char *value, int64_t *out_ns)
{
	return pf_parse_duration_ns(value, PF_NS_PER_SEC, out_ns) ? -EINVAL : 0;
}

/* load_parse_scaled - a number with a unit suffix from 'units'; 0 or -EINVAL */
static int load_parse_scaled(const char *value, const char *const *suffix,
				const double *scale, size_t n, uint64_t *out)
{
	char *end;
	double v;
	size_t i;

	if (!value || !*value || isspace((unsigned char)*value))
		return -EINVAL;
	v = strtod(value, &end);
	if (end == value || !isfinite(v) || v < 0)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!strcasecmp(end, suffix[i]))
			break;
	if (i == n || v * scale[i] > 1.8e19)
		return -EINVAL;
	*out = (uint64_t)llround(v * scale[i]);
	return 0;
}

int load_parse_bytes(const char *value, uint64_t *out)
{
	static const char *const suffix[] = { "", "k", "m", "g", "kib", "mib", "gib" };
	static const double scale[] = { 1, 1024, 1048576, 1073741824.0, 1024, 1048576, 1073741824.0 };

	return load_parse_scaled(value, suffix, scale, PF_ARRAY_SIZE(suffix), out);
}

int load_parse_bps(const char *value, uint64_t *out)
{
	static const char *const suffix[] = { "", "bit", "kbit", "mbit", "gbit" };
	static const double scale[] = { 1, 1, 1e3, 1e6, 1e9 };

	return load_parse_scaled(value, suffix, scale, PF_ARRAY_SIZE(suffix), out);
}

int load_parse_str(const char *value, char *buf, size_t size)
{
	if (strlen(value) >= size)
		return -EINVAL;
	strcpy(buf, value);
	return 0;
}
