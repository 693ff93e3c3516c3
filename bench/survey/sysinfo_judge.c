/*
 * sysinfo_judge.c - what a survey means for latency: the warnings (each with
 * an id, a severity, a message and advice, see docs/sysinfo.md) and the short
 * table people read. Both work only from the survey's JSON, so a stored
 * sysinfo.json can be judged and printed again on another machine.
 */
#include "sysinfo.h"
#include "common.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define SI_STR_(x) #x
#define SI_STR(x) SI_STR_(x)

/* si_get - the value at a dotted path ("kernel.preempt_rt"), or NULL */
static json_t *si_get(const json_t *o, const char *path)
{
	char key[64];
	size_t len;

	while (o && *path) {
		len = strcspn(path, ".");
		if (len >= sizeof(key))
			return NULL;
		memcpy(key, path, len);
		key[len] = '\0';
		o = json_object_get(o, key);
		path += len + (path[len] == '.');
	}
	return (json_t *)o;
}

/* si_gets - the string at a path, or NULL */
static const char *si_gets(const json_t *o, const char *path)
{
	return json_string_value(si_get(o, path));
}

/* si_getb - the boolean at a path: 1, 0, or -1 when null / missing */
static int si_getb(const json_t *o, const char *path)
{
	json_t *v = si_get(o, path);

	return json_is_boolean(v) ? json_is_true(v) : -1;
}

/* si_geti - the integer at a path into *v; true when it is a number */
static bool si_geti(const json_t *o, const char *path, long long *v)
{
	json_t *n = si_get(o, path);

	if (!json_is_integer(n))
		return false;
	*v = json_integer_value(n);
	return true;
}

/* si_or - the string, or "unknown" */
static const char *si_or(const char *s)
{
	return s ? s : "unknown";
}

/* A value shared by a set of CPUs: a governor, or an idle state. */
struct si_group {
	char                  name[64];
	long long             latency_us;	/* idle states: exit latency, -1 unknown */
	struct sysinfo_cpuset cpus;		/* the CPUs that have it */
	struct sysinfo_cpuset disabled;		/* idle states: the CPUs where it is disabled */
};

#define SI_MAX_GROUPS 32

/* si_group_find - the group of (name, latency), added when new; NULL when full */
static struct si_group *si_group_find(struct si_group *g, int *n, const char *name, long long latency_us)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(g[i].name, name) && g[i].latency_us == latency_us)
			return &g[i];
	if (*n == SI_MAX_GROUPS)
		return NULL;
	memset(&g[*n], 0, sizeof(g[*n]));
	snprintf(g[*n].name, sizeof(g[*n].name), "%s", name);
	g[*n].latency_us = latency_us;
	return &g[(*n)++];
}

/* si_set_cpu - add one CPU to a set */
static void si_set_cpu(struct sysinfo_cpuset *set, long long cpu)
{
	if (cpu >= 0 && cpu < SYSINFO_MAX_CPUS)
		set->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

/* si_governors - group the online CPUs by cpufreq governor; the number of groups */
static int si_governors(const json_t *info, struct si_group *g)
{
	json_t *pc;
	size_t i;
	long long cpu;
	const char *gov;
	struct si_group *grp;
	int n = 0;

	json_array_foreach(si_get(info, "cpus.per_cpu"), i, pc) {
		gov = si_gets(pc, "governor");
		if (gov && si_geti(pc, "cpu", &cpu) && (grp = si_group_find(g, &n, gov, -1)))
			si_set_cpu(&grp->cpus, cpu);
	}
	return n;
}

/* si_idle_groups - group the online CPUs' idle states by (name, latency); the number of groups */
static int si_idle_groups(const json_t *info, struct si_group *g)
{
	json_t *pc, *st;
	size_t i, j;
	long long cpu, lat;
	struct si_group *grp;
	int n = 0;

	json_array_foreach(si_get(info, "cpus.per_cpu"), i, pc) {
		if (!si_geti(pc, "cpu", &cpu))
			continue;
		json_array_foreach(json_object_get(pc, "idle_states"), j, st) {
			if (!si_geti(st, "latency_us", &lat))
				lat = -1;
			grp = si_group_find(g, &n, si_or(si_gets(st, "name")), lat);
			if (!grp)
				continue;
			si_set_cpu(&grp->cpus, cpu);
			if (si_getb(st, "disabled") == 1)
				si_set_cpu(&grp->disabled, cpu);
		}
	}
	return n;
}

/* si_cpuset_minus - the CPUs of a that are not in b */
static struct sysinfo_cpuset si_cpuset_minus(const struct sysinfo_cpuset *a, const struct sysinfo_cpuset *b)
{
	struct sysinfo_cpuset r;
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(r.bits); i++)
		r.bits[i] = a->bits[i] & ~b->bits[i];
	return r;
}

/* si_cpuset_add_list - add the CPUs of a cpulist string (ignored when NULL or invalid) */
static void si_cpuset_add_list(struct sysinfo_cpuset *set, const char *list)
{
	struct sysinfo_cpuset more;
	size_t i;

	if (!list || sysinfo_cpulist_parse(list, 0, &more))
		return;
	for (i = 0; i < PF_ARRAY_SIZE(set->bits); i++)
		set->bits[i] |= more.bits[i];
}

/* si_warn - append one warning */
static void si_warn(json_t *warnings, const char *id, const char *severity, const char *advice,
		    const char *fmt, ...) PF_PRINTF(5, 6);
static void si_warn(json_t *warnings, const char *id, const char *severity, const char *advice,
		    const char *fmt, ...)
{
	char message[512];
	json_t *w = json_object();
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	json_object_set_new(w, "id", sysinfo_json_text(id));
	json_object_set_new(w, "severity", sysinfo_json_text(severity));
	json_object_set_new(w, "message", sysinfo_json_text(message));
	json_object_set_new(w, "advice", sysinfo_json_text(advice));
	json_array_append_new(warnings, w);
}

/* si_is_fallback_clock - a clocksource the kernel only uses when the good one failed */
static bool si_is_fallback_clock(const char *name)
{
	static const char *const slow[] = { "hpet", "acpi_pm", "jiffies", "refined-jiffies", "pit", "i8253" };
	size_t i;

	for (i = 0; name && i < PF_ARRAY_SIZE(slow); i++)
		if (!strcmp(name, slow[i]))
			return true;
	return false;
}

/* si_judge_cpus - the warnings about CPUs: governor, SMT, isolation, idle states */
static void si_judge_cpus(const json_t *info, json_t *w)
{
	struct si_group g[SI_MAX_GROUPS];
	struct sysinfo_cpuset iso = { { 0 } }, on;
	char list[256], text[400];
	size_t len = 0;
	int i, n;

	n = si_governors(info, g);
	for (i = 0; i < n; i++) {
		if (!strcmp(g[i].name, "performance"))
			continue;
		sysinfo_cpulist_format(&g[i].cpus, list, sizeof(list));
		len += snprintf(text + len, len < sizeof(text) ? sizeof(text) - len : 0, "%s%s on CPUs %s",
				len ? ", " : "", g[i].name, list);
	}
	if (len)
		si_warn(w, "governor_not_performance", "medium",
			"set the performance governor for runs (cpupower frequency-set -g performance, or write "
			"'performance' to /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor)",
			"cpufreq governor %s: frequency changes add wake-up latency and vary execution time", text);

	if (si_getb(info, "cpus.smt") == 1)
		si_warn(w, "smt_enabled", "medium",
			"boot with nosmt or write 'off' to /sys/devices/system/cpu/smt/control, or keep the "
			"sibling threads of the realtime CPUs idle (isolate both)",
			"SMT (hyper-threading) is active: a sibling thread shares the core's execution units "
			"and caches with the realtime task");

	si_cpuset_add_list(&iso, si_gets(info, "cpus.isolated"));
	si_cpuset_add_list(&iso, si_gets(info, "cpus.nohz_full"));
	si_cpuset_add_list(&iso, si_gets(info, "kernel.cmdline_flags.isolcpus.cpus"));
	si_cpuset_add_list(&iso, si_gets(info, "kernel.cmdline_flags.nohz_full"));
	if ((si_gets(info, "cpus.isolated") || si_gets(info, "kernel.cmdline")) && !sysinfo_cpuset_count(&iso))
		si_warn(w, "no_isolated_cpus", "medium",
			"reserve CPUs for the realtime tasks: isolcpus=managed_irq,domain,<cpus> "
			"nohz_full=<cpus> rcu_nocbs=<cpus> irqaffinity=<other cpus> on the kernel command line",
			"no CPU is isolated (isolcpus, nohz_full): the realtime tasks share their CPUs with "
			"every other task, the scheduler tick and device interrupts");

	n = si_idle_groups(info, g);
	len = 0;
	for (i = 0; i < n; i++) {
		if (g[i].latency_us <= SYSINFO_DEEP_IDLE_US)
			continue;
		on = si_cpuset_minus(&g[i].cpus, &g[i].disabled);
		if (!sysinfo_cpuset_count(&on))
			continue;
		sysinfo_cpulist_format(&on, list, sizeof(list));
		len += snprintf(text + len, len < sizeof(text) ? sizeof(text) - len : 0, "%s%s (%lld us) on CPUs %s",
				len ? ", " : "", g[i].name, g[i].latency_us, list);
	}
	if (len)
		si_warn(w, "deep_idle_states", "high",
			"disable the deep states for runs (cpupower idle-set -D " SI_STR(SYSINFO_DEEP_IDLE_US)
			", or write 1 to cpuidle/stateN/disable), boot with processor.max_cstate=1 "
			"intel_idle.max_cstate=1, or hold /dev/cpu_dma_latency at 0 during the run",
			"enabled idle states exit slower than " SI_STR(SYSINFO_DEEP_IDLE_US) " us: %s", text);
}

/* si_judge_throttling - rt_throttling: the sysctl's throttling, or the fair deadline server (6.12+) */
static void si_judge_throttling(const json_t *info, json_t *w)
{
	long long runtime, period, fs_runtime_ns = 0, fs_period_ns = 0;
	const char *fs_cpus = si_gets(info, "rt_throttle.fair_server.cpus");
	char text[512] = "";
	size_t len = 0;

	if (si_getb(info, "rt_throttle.throttling") == 1 && si_geti(info, "rt_throttle.runtime_us", &runtime) &&
	    si_geti(info, "rt_throttle.period_us", &period))
		len = snprintf(text, sizeof(text), "realtime throttling is on: realtime tasks may run only %lld us "
			       "of every %lld us, then wait up to %lld us", runtime, period, period - runtime);
	if (fs_cpus && *fs_cpus && si_geti(info, "rt_throttle.fair_server.runtime_ns", &fs_runtime_ns) &&
	    si_geti(info, "rt_throttle.fair_server.period_ns", &fs_period_ns) && len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, "%sthe fair deadline server may run starved normal tasks "
			 "for %lld us of every %lld us ahead of realtime tasks on CPUs %s", len ? "; " : "",
			 fs_runtime_ns / 1000, fs_period_ns / 1000, fs_cpus);
	if (text[0])
		si_warn(w, "rt_throttling", "medium",
			"sysctl -w kernel.sched_rt_runtime_us=-1 for the run, and on Linux 6.12+ write 0 to "
			"/sys/kernel/debug/sched/fair_server/cpuN/runtime of the realtime CPUs (a runaway "
			"realtime task then owns its CPU: keep a watchdog)", "%s", text);
}

void sysinfo_judge(json_t *info)
{
	json_t *w = json_array();
	long long swap_kb = 0;
	const char *cur;

	if (si_getb(info, "kernel.preempt_rt") == 0)
		si_warn(w, "not_preempt_rt", "high",
			"boot a PREEMPT_RT kernel (Debian: linux-image-rt-amd64 or linux-image-rt-arm64)",
			"kernel %s is not PREEMPT_RT (preemption model %s): non-preemptible kernel sections "
			"can delay a realtime task by milliseconds",
			si_or(si_gets(info, "kernel.release")), si_or(si_gets(info, "kernel.preempt_model")));

	si_judge_throttling(info, w);
	si_judge_cpus(info, w);

	if ((si_geti(info, "memory.swap.total_kb", &swap_kb) && swap_kb > 0) ||
	    json_array_size(si_get(info, "memory.swap.devices")) > 0)
		si_warn(w, "swap_enabled", "low",
			"swapoff -a for runs; the flight application locks its memory (mlockall), the "
			"rest of the system does not",
			"swap is enabled (%lld MiB): paging of other processes stalls I/O and memory "
			"allocation", swap_kb / 1024);

	if (si_getb(info, "virtualization.virtualized") == 1)
		si_warn(w, "virtualized", "high",
			"qualify on the target board or on bare metal; latency measured in a virtual "
			"machine is only a functional check",
			"running under a hypervisor (%s): the host can deschedule a virtual CPU for "
			"milliseconds", si_or(si_gets(info, "virtualization.evidence")));

	if (si_getb(info, "virtualization.emulated") == 1)
		si_warn(w, "emulated_cpu", "high",
			"run the qualification on the board itself; an emulated target proves that "
			"preflight records, analyses and judges on its kernel and architecture",
			"the CPU is emulated (%s): instructions are translated in software, so every "
			"timing here is functional evidence only, not evidence of the board's latency",
			si_or(si_gets(info, "virtualization.emulation_evidence")));

	if (si_getb(info, "tracefs.usable") == 0)
		si_warn(w, "tracefs_unavailable", "high",
			"run as root with tracefs mounted (mount -t tracefs nodev /sys/kernel/tracing); "
			"in a container, share the host's tracefs",
			"tracefs at %s is not usable (%s): preflight cannot record kernel events",
			si_or(si_gets(info, "tracefs.path")), si_or(si_gets(info, "tracefs.reason")));

	cur = si_gets(info, "clocksource.current");
	if (si_is_fallback_clock(cur))
		si_warn(w, "unstable_clocksource", "high",
			"look for 'clocksource ... unstable' in dmesg; fix the firmware's TSC settings (or use "
			"tsc=reliable only when the TSC is known good)",
			"the clocksource is %s, a slow fallback (the TSC or architected timer was not usable "
			"or was marked unstable): every clock read and timer costs microseconds", cur);

	json_object_set_new(info, "warnings", w);
}

/* si_row - one aligned row of the table */
static void si_row(FILE *out, const char *label, const char *fmt, ...) PF_PRINTF(3, 4);
static void si_row(FILE *out, const char *label, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, "%-13s ", label);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

/* si_yesno - "yes", "no" or "unknown" for a boolean at a path */
static const char *si_yesno(const json_t *info, const char *path)
{
	int b = si_getb(info, path);

	return b < 0 ? "unknown" : b ? "yes" : "no";
}

/* si_size - kB as a short size with unit */
static const char *si_size(long long kb, char *buf, size_t size)
{
	if (kb >= 1024 * 1024)
		snprintf(buf, size, "%.1f GiB", kb / (1024.0 * 1024.0));
	else
		snprintf(buf, size, "%lld MiB", kb / 1024);
	return buf;
}

/* si_print_cmdline - the realtime flags that are set */
static void si_print_cmdline(const json_t *info, FILE *out)
{
	static const char *const keys[] = {
		"nohz_full", "rcu_nocbs", "irqaffinity", "idle", "processor_max_cstate",
		"intel_idle_max_cstate", "preempt", "mitigations",
	};
	const json_t *flags = si_get(info, "kernel.cmdline_flags"), *v;
	char text[1024];
	size_t i, len = 0;

	if (!json_is_object(flags)) {
		si_row(out, "cmdline", "unknown");
		return;
	}
	text[0] = '\0';
	if (si_gets(flags, "isolcpus.raw"))
		len += snprintf(text + len, sizeof(text) - len, " isolcpus=%s", si_gets(flags, "isolcpus.raw"));
	for (i = 0; i < PF_ARRAY_SIZE(keys) && len < sizeof(text); i++) {
		v = json_object_get(flags, keys[i]);
		if (json_is_string(v))
			len += snprintf(text + len, sizeof(text) - len, " %s=%s", keys[i], json_string_value(v));
		else if (json_is_integer(v))
			len += snprintf(text + len, sizeof(text) - len, " %s=%lld", keys[i],
					(long long)json_integer_value(v));
	}
	if (si_getb(flags, "threadirqs") == 1 && len < sizeof(text))
		len += snprintf(text + len, sizeof(text) - len, " threadirqs");
	if (si_getb(flags, "nosmt") == 1 && len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, " nosmt");
	si_row(out, "cmdline", "%s", text[0] ? text + 1 : "no realtime flags");
}

/* si_print_cpus - the cpus, cpufreq and cpuidle rows */
static void si_print_cpus(const json_t *info, FILE *out)
{
	struct si_group g[SI_MAX_GROUPS];
	char text[1024], list[256], dis[300];
	size_t len = 0;
	long long n = 0;
	int i, ng;
	const char *smt = si_yesno(info, "cpus.smt");

	si_row(out, "cpus", "%s online (%s), isolated %s, SMT %s; %s",
	       si_geti(info, "cpus.online_count", &n) ? (snprintf(list, sizeof(list), "%lld", n), list) : "unknown",
	       si_or(si_gets(info, "cpus.online")),
	       !si_gets(info, "cpus.isolated") ? "unknown" :
	       *si_gets(info, "cpus.isolated") ? si_gets(info, "cpus.isolated") : "none",
	       !strcmp(smt, "yes") ? "on" : !strcmp(smt, "no") ? "off" : smt,
	       si_or(si_gets(info, "cpus.model")));

	ng = si_governors(info, g);
	for (i = 0; i < ng && len < sizeof(text); i++) {
		sysinfo_cpulist_format(&g[i].cpus, list, sizeof(list));
		len += snprintf(text + len, sizeof(text) - len, "%s%s on %s", i ? ", " : "", g[i].name, list);
	}
	si_row(out, "cpufreq", "%s", ng ? text : "no governor (no cpufreq driver)");

	ng = si_idle_groups(info, g);
	len = 0;
	for (i = 0; i < ng && len < sizeof(text); i++) {
		dis[0] = '\0';
		if (sysinfo_cpuset_count(&g[i].disabled)) {
			sysinfo_cpulist_format(&g[i].disabled, list, sizeof(list));
			snprintf(dis, sizeof(dis), " (disabled on %s)", list);
		}
		len += snprintf(text + len, sizeof(text) - len, "%s%s %s us%s", i ? ", " : "", g[i].name,
				g[i].latency_us < 0 ? "?" : (snprintf(list, sizeof(list), "%lld", g[i].latency_us), list),
				dis);
	}
	si_row(out, "cpuidle", "%s%s%s", ng ? si_or(si_gets(info, "cpus.cpuidle_driver")) : "",
	       ng ? ": " : "", ng ? text : "no idle states");
}

#define SI_WARN_INDENT 36	/* where a warning's message starts */
#define SI_WARN_WIDTH  64	/* and how wide it may run */

/*
 * si_wrap - print prefix and text (the cursor is at column SI_WARN_INDENT),
 * wrapped at spaces to SI_WARN_WIDTH columns, continuation lines indented
 */
static void si_wrap(FILE *out, const char *prefix, const char *text)
{
	size_t col = strlen(prefix), len;

	fputs(prefix, out);
	while (*text) {
		len = strcspn(text, " ");
		if (col && col + 1 + len > SI_WARN_WIDTH) {
			fprintf(out, "\n%*s", SI_WARN_INDENT, "");
			col = 0;
		} else if (col) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)len, text);
		col += len;
		text += len;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}

void sysinfo_print_human(const json_t *info, FILE *out)
{
	json_t *w, *avail, *note;
	const char *src, *arch, *why;
	char a[32], b[32], text[512];
	long long v1, v2;
	size_t i, len = 0;

	si_row(out, "host", "%s, %s (root %s)", si_or(si_gets(info, "hostname")),
	       si_or(si_gets(info, "os")), si_or(si_gets(info, "root")));
	arch = si_gets(info, "kernel.arch");
	si_row(out, "kernel", "%s%s%s, %s", si_or(si_gets(info, "kernel.release")), arch ? " " : "",
	       arch ? arch : "", si_or(si_gets(info, "kernel.version")));
	src = si_gets(info, "kernel.preempt_source");
	si_row(out, "preemption", "%s%s%s%s, PREEMPT_RT %s", si_or(si_gets(info, "kernel.preempt_model")),
	       src ? " (from " : "", src ? src : "", src ? ")" : "", si_yesno(info, "kernel.preempt_rt"));
	if (si_geti(info, "kernel.hz", &v1))
		si_row(out, "timer", "HZ %lld (%s)", v1, si_or(si_gets(info, "kernel.config_source")));
	else
		si_row(out, "timer", "HZ unknown (no kernel config)");
	si_print_cmdline(info, out);
	si_print_cpus(info, out);

	avail = si_get(info, "clocksource.available");
	text[0] = '\0';
	json_array_foreach(avail, i, note)
		if (len < sizeof(text))
			len += snprintf(text + len, sizeof(text) - len, "%s%s", i ? " " : "",
					si_or(json_string_value(note)));
	si_row(out, "clocksource", "%s (available: %s)", si_or(si_gets(info, "clocksource.current")),
	       json_is_array(avail) ? text : "unknown");

	if (si_geti(info, "rt_throttle.runtime_us", &v1) && v1 < 0)
		si_row(out, "rt throttle", "off (sched_rt_runtime_us = -1)");
	else if (si_geti(info, "rt_throttle.runtime_us", &v1) && si_geti(info, "rt_throttle.period_us", &v2))
		si_row(out, "rt throttle", "%lld us of every %lld us", v1, v2);
	else
		si_row(out, "rt throttle", "unknown");

	why = si_gets(info, "tracefs.reason");
	si_row(out, "tracefs", "%s, %s, %s%s%s", si_or(si_gets(info, "tracefs.path")),
	       si_getb(info, "tracefs.mounted") == 1 ? "mounted" : "not mounted",
	       si_getb(info, "tracefs.usable") == 1 ? "usable" : "not usable", why ? ": " : "", why ? why : "");

	if (si_geti(info, "memory.total_kb", &v1))
		si_size(v1, a, sizeof(a));
	if (si_geti(info, "memory.swap.total_kb", &v2))
		si_size(v2, b, sizeof(b));
	si_row(out, "memory", "%s; swap %s", si_geti(info, "memory.total_kb", &v1) ? a : "unknown",
	       !si_geti(info, "memory.swap.total_kb", &v2) ? "unknown" : v2 ? b : "none");
	si_row(out, "virtualized", "%s%s%s%s", si_yesno(info, "virtualization.virtualized"),
	       si_gets(info, "virtualization.evidence") ? " (" : "",
	       si_gets(info, "virtualization.evidence") ? si_gets(info, "virtualization.evidence") : "",
	       si_gets(info, "virtualization.evidence") ? ")" : "");
	si_row(out, "emulated CPU", "%s%s%s%s", si_yesno(info, "virtualization.emulated"),
	       si_gets(info, "virtualization.emulation_evidence") ? " (" : "",
	       si_gets(info, "virtualization.emulation_evidence") ? si_gets(info, "virtualization.emulation_evidence") : "",
	       si_gets(info, "virtualization.emulation_evidence") ? ")" : "");

	note = si_get(info, "notes");
	if (json_array_size(note)) {
		fprintf(out, "\nnotes (%zu)\n", json_array_size(note));
		json_array_foreach(note, i, w)
			fprintf(out, "  %s\n", si_or(json_string_value(w)));
	}
	note = si_get(info, "warnings");
	fprintf(out, "\nwarnings (%zu)%s\n", json_array_size(note), json_array_size(note) ? "" : ": none");
	json_array_foreach(note, i, w) {
		fprintf(out, "  %-6s  %-24s  ", si_or(si_gets(w, "severity")), si_or(si_gets(w, "id")));
		si_wrap(out, "", si_or(si_gets(w, "message")));
		fprintf(out, "%*s", SI_WARN_INDENT, "");
		si_wrap(out, "advice:", si_or(si_gets(w, "advice")));
	}
}
