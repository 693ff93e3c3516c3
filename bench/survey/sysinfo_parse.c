/*
 * sysinfo_parse.c - the pure parsers of the system survey: kernel cpulists,
 * the kernel command line, the preemption evidence (debugfs sched/preempt,
 * the version string, the kernel config) and the decision that combines it
 * into one preemption model. No file access here, so the unit test
 * (t/unit/sysinfo_test.c) drives every branch with strings.
 */
#include "sysinfo.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

json_t *sysinfo_json_text(const char *text)
{
	json_t *j = json_string(text);
	size_t i, len;
	char *copy;

	if (j)
		return j;
	len = strlen(text);
	copy = malloc(len + 1);
	if (!copy)
		return NULL;
	for (i = 0; i <= len; i++)
		copy[i] = (unsigned char)text[i] >= 0x80 || (text[i] && text[i] < 0x20 && text[i] != '\t') ?
			  '?' : text[i];
	j = json_string(copy);
	free(copy);
	return j;
}

/* si_cpu_num - one CPU number of a cpulist ("N" = the last CPU); 0 or -EINVAL */
static int si_cpu_num(const char **p, int nr_cpus, long *cpu)
{
	char *end;

	if (**p == 'N') {
		if (nr_cpus <= 0)
			return -EINVAL;
		*cpu = nr_cpus - 1;
		(*p)++;
		return 0;
	}
	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	*cpu = strtol(*p, &end, 10);
	*p = end;
	return *cpu < SYSINFO_MAX_CPUS ? 0 : -EINVAL;
}

int sysinfo_cpulist_parse(const char *text, int nr_cpus, struct sysinfo_cpuset *set)
{
	const char *p = text;
	long a, b, used, group, c;

	memset(set, 0, sizeof(*set));
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	for (;;) {
		used = group = 1;
		if (si_cpu_num(&p, nr_cpus, &a))
			return -EINVAL;
		b = a;
		if (*p == '-') {
			p++;
			if (si_cpu_num(&p, nr_cpus, &b) || b < a)
				return -EINVAL;
			if (*p == ':') {
				p++;
				if (si_cpu_num(&p, 0, &used) || *p++ != '/' || si_cpu_num(&p, 0, &group))
					return -EINVAL;
				if (used < 1 || group < 1 || used > group)
					return -EINVAL;
			}
		}
		for (c = a; c <= b; c++)
			if ((c - a) % group < used)
				set->bits[c / 64] |= 1ULL << (c % 64);
		if (*p != ',')
			break;
		p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	return *p ? -EINVAL : 0;
}

void sysinfo_cpulist_format(const struct sysinfo_cpuset *set, char *buf, size_t size)
{
	size_t len = 0;
	int c = 0, start;

	if (size)
		buf[0] = '\0';
	while (c < SYSINFO_MAX_CPUS) {
		if (!sysinfo_cpuset_has(set, c)) {
			c++;
			continue;
		}
		start = c;
		while (c + 1 < SYSINFO_MAX_CPUS && sysinfo_cpuset_has(set, c + 1))
			c++;
		if (len < size)
			len += snprintf(buf + len, size - len, start == c ? "%s%d" : "%s%d-%d",
					len ? "," : "", start, c);
		c++;
	}
}

int sysinfo_cpuset_count(const struct sysinfo_cpuset *set)
{
	int n = 0;
	size_t i;

	for (i = 0; i < sizeof(set->bits) / sizeof(set->bits[0]); i++)
		n += __builtin_popcountll(set->bits[i]);
	return n;
}

/* si_parameq - kernel parameter names compare with '-' and '_' equal */
static int si_parameq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return 0;
	}
	return *a == *b;
}

/* The value parameters we keep, by name and place in struct sysinfo_cmdline. */
static const struct {
	const char *name;
	size_t      off;
} si_cmdline_params[] = {
	{ "isolcpus",              offsetof(struct sysinfo_cmdline, isolcpus) },
	{ "nohz_full",             offsetof(struct sysinfo_cmdline, nohz_full) },
	{ "rcu_nocbs",             offsetof(struct sysinfo_cmdline, rcu_nocbs) },
	{ "irqaffinity",           offsetof(struct sysinfo_cmdline, irqaffinity) },
	{ "idle",                  offsetof(struct sysinfo_cmdline, idle) },
	{ "processor.max_cstate",  offsetof(struct sysinfo_cmdline, processor_max_cstate) },
	{ "intel_idle.max_cstate", offsetof(struct sysinfo_cmdline, intel_idle_max_cstate) },
	{ "mitigations",           offsetof(struct sysinfo_cmdline, mitigations) },
	{ "preempt",               offsetof(struct sysinfo_cmdline, preempt) },
};

/*
 * si_next_arg - cut the next argument out of *p in place, removing double
 * quotes like the kernel's next_arg(); NULL at the end
 */
static char *si_next_arg(char **p)
{
	char *s = *p, *arg, *out;
	int quoted = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return NULL;
	arg = out = s;
	for (; *s && (quoted || !isspace((unsigned char)*s)); s++) {
		if (*s == '"')
			quoted = !quoted;
		else
			*out++ = *s;
	}
	if (*s)
		s++;
	*out = '\0';
	*p = s;
	return arg;
}

int sysinfo_cmdline_parse(const char *cmdline, struct sysinfo_cmdline *cl)
{
	char *p, *arg, *val;
	size_t i;

	memset(cl, 0, sizeof(*cl));
	cl->buf = strdup(cmdline ? cmdline : "");
	if (!cl->buf)
		return -ENOMEM;
	p = cl->buf;
	while ((arg = si_next_arg(&p))) {
		if (!strcmp(arg, "--"))
			break;		/* the rest goes to init */
		val = strchr(arg, '=');
		if (val)
			*val++ = '\0';
		if (si_parameq(arg, "threadirqs"))
			cl->threadirqs = true;
		else if (si_parameq(arg, "nosmt"))
			cl->nosmt = true;
		for (i = 0; i < sizeof(si_cmdline_params) / sizeof(si_cmdline_params[0]); i++)
			if (si_parameq(arg, si_cmdline_params[i].name))
				*(const char **)((char *)cl + si_cmdline_params[i].off) = val ? val : "";
	}
	return 0;
}

/* sysinfo_cmdline_free - free the parsed kernel command line */
void sysinfo_cmdline_free(struct sysinfo_cmdline *cl)
{
	free(cl->buf);
	memset(cl, 0, sizeof(*cl));
}

void sysinfo_isolcpus_split(const char *value, char *flags, size_t flags_size, const char **cpus)
{
	const char *p = value, *last = value;
	size_t len;

	/* Flags are the leading comma-separated words that do not start with a digit (or N). */
	while (*p && !isdigit((unsigned char)*p) && *p != 'N') {
		const char *comma = strchr(p, ',');

		if (!comma) {
			p += strlen(p);
			break;
		}
		last = comma;
		p = comma + 1;
	}
	len = *p ? (size_t)(last - value) : strlen(value);
	if (len >= flags_size)
		len = flags_size - 1;
	memcpy(flags, value, len);
	flags[len] = '\0';
	*cpus = p;
}

static const char *const si_preempt_names[] = {
	[SYSINFO_PREEMPT_NONE]      = "none",
	[SYSINFO_PREEMPT_VOLUNTARY] = "voluntary",
	[SYSINFO_PREEMPT_FULL]      = "full",
	[SYSINFO_PREEMPT_LAZY]      = "lazy",
	[SYSINFO_PREEMPT_RT]        = "rt",
};

const char *sysinfo_preempt_name(enum sysinfo_preempt p)
{
	return p > SYSINFO_PREEMPT_UNKNOWN && p <= SYSINFO_PREEMPT_RT ? si_preempt_names[p] : NULL;
}

enum sysinfo_preempt sysinfo_preempt_from_name(const char *name)
{
	int p;

	for (p = SYSINFO_PREEMPT_NONE; name && p <= SYSINFO_PREEMPT_RT; p++)
		if (!strcmp(name, si_preempt_names[p]))
			return p;
	return SYSINFO_PREEMPT_UNKNOWN;
}

enum sysinfo_preempt sysinfo_preempt_debugfs(const char *text)
{
	const char *open = strchr(text, '('), *close;
	char name[16];
	size_t len;

	if (!open || !(close = strchr(open, ')')))
		return SYSINFO_PREEMPT_UNKNOWN;
	len = close - open - 1;
	if (len >= sizeof(name))
		return SYSINFO_PREEMPT_UNKNOWN;
	memcpy(name, open + 1, len);
	name[len] = '\0';
	return sysinfo_preempt_from_name(name);
}

unsigned sysinfo_version_flags(const char *version)
{
	unsigned flags = 0;
	const char *p = version;
	size_t len;

	while (p && *p) {
		while (*p == ' ')
			p++;
		len = strcspn(p, " ");
		if (len == 10 && !strncmp(p, "PREEMPT_RT", len))
			flags |= SYSINFO_VER_RT;
		else if (len == 15 && !strncmp(p, "PREEMPT_DYNAMIC", len))
			flags |= SYSINFO_VER_DYNAMIC;
		else if (len == 12 && !strncmp(p, "PREEMPT_LAZY", len))
			flags |= SYSINFO_VER_LAZY;
		else if (len == 7 && !strncmp(p, "PREEMPT", len)) {
			flags |= SYSINFO_VER_PREEMPT;
			if (!strncmp(p + len, " RT", 3) && (p[len + 3] == ' ' || !p[len + 3]))
				flags |= SYSINFO_VER_RT;	/* old -rt patches: "PREEMPT RT" */
		}
		p += len;
	}
	return flags;
}

/* si_model - set the model text and its source */
static void si_model(struct sysinfo_preempt_out *out, const char *prefix, enum sysinfo_preempt mode,
		     const char *source)
{
	const char *name = sysinfo_preempt_name(mode);

	if (!name)
		return;
	snprintf(out->model, sizeof(out->model), "%s%s", prefix, name);
	out->source = source;
}

void sysinfo_preempt_decide(const struct sysinfo_preempt_in *in, struct sysinfo_preempt_out *out)
{
	unsigned ver = in->version ? sysinfo_version_flags(in->version) : 0;

	memset(out, 0, sizeof(*out));

	/* PREEMPT_RT: any source saying yes wins; any known source saying no is a no. */
	if (in->realtime == 1 || (ver & SYSINFO_VER_RT) || in->config_rt == 1)
		out->rt = 1;
	else if (in->realtime == 0 || in->version || in->config_rt == 0)
		out->rt = 0;
	else
		out->rt = -1;

	if ((ver & SYSINFO_VER_DYNAMIC) || in->config_dynamic == 1 || in->debugfs_mode)
		out->dynamic = 1;
	else if (in->version || in->config_dynamic == 0)
		out->dynamic = 0;
	else
		out->dynamic = -1;

	if (out->dynamic == 1)
		out->dynamic_mode = in->debugfs_mode ? in->debugfs_mode :
				    in->cmdline_mode ? in->cmdline_mode : in->config_mode;

	if (out->rt == 1) {
		si_model(out, "", SYSINFO_PREEMPT_RT, in->realtime == 1 ? "realtime" :
			 (ver & SYSINFO_VER_RT) ? "version" : "config");
	} else if (out->dynamic == 1) {
		si_model(out, "dynamic:", out->dynamic_mode, in->debugfs_mode ? "debugfs" :
			 in->cmdline_mode ? "cmdline" : "config");
	} else if (in->config_mode) {
		si_model(out, "", in->config_mode, "config");
	} else if (ver & SYSINFO_VER_LAZY) {
		si_model(out, "", SYSINFO_PREEMPT_LAZY, "version");
	} else if (ver & SYSINFO_VER_PREEMPT) {
		si_model(out, "", SYSINFO_PREEMPT_FULL, "version");
	}
	/* else: no PREEMPT word and no config: none or voluntary, unknown which */
}
