/*
 * sysinfo.c - the system survey: reads proc/, sys/, etc/ and boot/ under a
 * root directory and builds the "preflight-sysinfo/1" JSON object that
 * docs/sysinfo.md describes. A file that is missing or unreadable gives a
 * null field and one line in "notes"; nothing here fails the survey except a
 * broken root or running out of memory.
 *
 * Only when the root is "/" (this machine) does the survey look further than
 * files: debugfs or tracefs that are not mounted are mounted on a private
 * temporary directory (never on the standard paths, so nothing another
 * process relies on changes), read, and unmounted again; tracefs usability is
 * proved by creating and removing an instance. Signals are held off while
 * such a mount or instance exists, so an interrupt leaves nothing behind.
 */
#define _GNU_SOURCE
#include "sysinfo.h"
#include "common.h"
#include "kconfig.h"
#include "outfile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* The state of one survey. */
struct si {
	char    root[PATH_MAX];	/* without a trailing '/': "" for "/" */
	bool    live;		/* root is "/": may mount privately and try tracefs */
	json_t *notes;		/* array of strings */
};

/* What one pass over /proc/cpuinfo finds. */
struct si_cpuinfo {
	int  nproc;		/* "processor" lines */
	char model[128];	/* first "model name" / "Processor" / "cpu model" */
	char implementer[16];	/* arm64: "CPU implementer" */
	char part[16];		/* arm64: "CPU part" */
	bool flags_seen;	/* an x86 "flags" line exists */
	bool hypervisor;	/* ... and holds "hypervisor" */
};


/* si_note - add one line to "notes" */
static void si_note(struct si *s, const char *fmt, ...) PF_PRINTF(2, 3);
static void si_note(struct si *s, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	json_array_append_new(s->notes, sysinfo_json_text(line));
}

/* si_path - the path of 'rel' (absolute, "/proc/...") under the root; 0 or -ENAMETOOLONG */
static int si_path(const struct si *s, const char *rel, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s%s", s->root, rel);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/*
 * si_read - read a small file under the root into buf; on failure note
 * "<what>: <rel>: <why>" (unless what is NULL) and return -errno
 */
static int si_read(struct si *s, const char *rel, char *buf, size_t size, const char *what)
{
	char path[PATH_MAX + 256];
	int n;

	n = si_path(s, rel, path, sizeof(path));
	if (!n)
		n = pf_read_file(path, buf, size);
	if (n < 0) {
		buf[0] = '\0';
		if (what)
			si_note(s, "%s: %s: %s", what, rel, strerror(-n));
	}
	return n;
}

/* si_readf - si_read of a formatted path, quiet (no note) */
static int si_readf(struct si *s, char *buf, size_t size, const char *fmt, ...) PF_PRINTF(4, 5);
static int si_readf(struct si *s, char *buf, size_t size, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	return si_read(s, rel, buf, size, NULL);
}

/* si_fopen - open 'rel' under the root for reading lines, or NULL (errno set) */
static FILE *si_fopen(const struct si *s, const char *rel)
{
	char path[PATH_MAX + 256];

	if (si_path(s, rel, path, sizeof(path))) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "re");
}

/* si_exists - does 'rel' exist under the root */
static bool si_exists(const struct si *s, const char *rel)
{
	char path[PATH_MAX + 256];

	si_path(s, rel, path, sizeof(path));
	return access(path, F_OK) == 0;
}

/* si_str - set key to a string, or null when text is NULL or empty */
static void si_str(json_t *o, const char *key, const char *text)
{
	json_object_set_new(o, key, text && *text ? sysinfo_json_text(text) : json_null());
}

/* si_setint - set key to a number, or null when not known */
static void si_setint(json_t *o, const char *key, long long v, bool known)
{
	json_object_set_new(o, key, known ? json_integer(v) : json_null());
}

/* si_bool3 - set key to true / false, or null for -1 */
static void si_bool3(json_t *o, const char *key, int v)
{
	json_object_set_new(o, key, v < 0 ? json_null() : json_boolean(v));
}

/* si_number - parse a whole (optionally negative) decimal; 0 or -EINVAL */
static int si_number(const char *text, long long *v)
{
	return pf_parse_ll(text, LLONG_MIN, LLONG_MAX, v) ? -EINVAL : 0;
}

/* si_int_text - set key to the number in text, or null when text is not a number; 0 or -EINVAL */
static int si_int_text(json_t *o, const char *key, const char *text, long long *v)
{
	long long n = 0;
	int ret = text ? si_number(text, &n) : -EINVAL;

	si_setint(o, key, n, ret == 0);
	if (v)
		*v = n;
	return ret;
}

/* si_trim - cut leading and trailing white space in place */
static char *si_trim(char *text)
{
	size_t len;

	while (isspace((unsigned char)*text))
		text++;
	len = strlen(text);
	while (len && isspace((unsigned char)text[len - 1]))
		text[--len] = '\0';
	return text;
}

/*
 * si_find_mount - the mount point of the first 'fstype' in proc/mounts
 * (preferring 'preferred'); 0 or -ENOENT
 */
static int si_find_mount(struct si *s, const char *fstype, const char *preferred, char *mp, size_t size)
{
	char dev[256], dir[512], type[64], *line = NULL;
	size_t cap = 0;
	int ret = -ENOENT;
	FILE *f;

	f = si_fopen(s, "/proc/mounts");
	if (!f)
		return -ENOENT;
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%255s %511s %63s", dev, dir, type) != 3 || strcmp(type, fstype))
			continue;
		if (ret == 0 && strcmp(dir, preferred))
			continue;
		snprintf(mp, size, "%s", dir);
		ret = 0;
		if (!strcmp(dir, preferred))
			break;
	}
	free(line);
	fclose(f);
	return ret;
}

/* A pseudo file system mounted on a private temporary directory. */
struct si_mount {
	char     dir[64];
	sigset_t old;
	bool     mounted;
};

/* si_hold_signals - hold off the signals that would interrupt a clean-up */
static void si_hold_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* si_private_mount - mount fstype read-only on a new temp dir (signals held until unmounted); 0 or -errno */
static int si_private_mount(struct si_mount *m, const char *fstype, unsigned long flags)
{
	const char *tmp = getenv("TMPDIR");
	int ret;

	si_hold_signals(&m->old);
	m->mounted = false;
	snprintf(m->dir, sizeof(m->dir), "%s/preflight-%s.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 24 ? tmp : "/tmp", fstype);
	if (!mkdtemp(m->dir)) {
		ret = -errno;
		goto out_signals;
	}
	if (mount("nodev", m->dir, fstype, MS_NOSUID | MS_NODEV | MS_NOEXEC | flags, NULL)) {
		ret = -errno;
		goto out_dir;
	}
	m->mounted = true;
	return 0;
out_dir:
	rmdir(m->dir);
out_signals:
	sigprocmask(SIG_SETMASK, &m->old, NULL);
	return ret;
}

/* si_private_umount - undo si_private_mount */
static void si_private_umount(struct si_mount *m)
{
	if (!m->mounted)
		return;
	umount2(m->dir, MNT_DETACH);
	rmdir(m->dir);
	m->mounted = false;
	sigprocmask(SIG_SETMASK, &m->old, NULL);
}

/* si_read_cpuinfo - one pass over proc/cpuinfo */
static void si_read_cpuinfo(struct si *s, struct si_cpuinfo *ci)
{
	char *line = NULL, *val;
	size_t cap = 0;
	FILE *f;

	memset(ci, 0, sizeof(*ci));
	f = si_fopen(s, "/proc/cpuinfo");
	if (!f) {
		si_note(s, "cpus.model: /proc/cpuinfo: %s", strerror(errno));
		return;
	}
	while (getline(&line, &cap, f) > 0) {
		val = strchr(line, ':');
		if (!val)
			continue;
		*val++ = '\0';
		val = si_trim(val);
		si_trim(line);
		if (!strcmp(line, "processor") && isdigit((unsigned char)*val))
			ci->nproc++;
		else if (!ci->model[0] && (!strcmp(line, "model name") || !strcmp(line, "Processor") ||
					   !strcmp(line, "cpu model")))
			snprintf(ci->model, sizeof(ci->model), "%s", val);
		else if (!ci->implementer[0] && !strcmp(line, "CPU implementer"))
			snprintf(ci->implementer, sizeof(ci->implementer), "%s", val);
		else if (!ci->part[0] && !strcmp(line, "CPU part"))
			snprintf(ci->part, sizeof(ci->part), "%s", val);
		else if (!ci->flags_seen && !strcmp(line, "flags")) {
			ci->flags_seen = true;
			ci->hypervisor = strstr(val, " hypervisor") || !strncmp(val, "hypervisor", 10);
		}
	}
	free(line);
	fclose(f);
}

/* si_arm_core - a name for an Arm implementer/part pair, or NULL */
static const char *si_arm_core(const char *implementer, const char *part)
{
	static const struct { unsigned impl, part; const char *name; } cores[] = {
		{ 0x41, 0xd03, "Cortex-A53" }, { 0x41, 0xd04, "Cortex-A35" },
		{ 0x41, 0xd05, "Cortex-A55" }, { 0x41, 0xd07, "Cortex-A57" },
		{ 0x41, 0xd08, "Cortex-A72" }, { 0x41, 0xd09, "Cortex-A73" },
		{ 0x41, 0xd0a, "Cortex-A75" }, { 0x41, 0xd0b, "Cortex-A76" },
		{ 0x41, 0xd0c, "Neoverse-N1" }, { 0x41, 0xd0d, "Cortex-A77" },
		{ 0x41, 0xd41, "Cortex-A78" }, { 0x41, 0xd46, "Cortex-A510" },
		{ 0x41, 0xd47, "Cortex-A710" }, { 0x41, 0xd4b, "Cortex-A78C" },
		{ 0x41, 0xd80, "Cortex-A520" }, { 0x41, 0xd81, "Cortex-A720" },
	};
	unsigned long impl = strtoul(implementer, NULL, 0), p = strtoul(part, NULL, 0);
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(cores); i++)
		if (cores[i].impl == impl && cores[i].part == p)
			return cores[i].name;
	return NULL;
}

/*
 * si_read_config - the realtime-relevant options (lib/kconfig.c) from /proc/config.gz or
 * /boot/config-<release> (zlib reads both, compressed or not); the source
 * path in 'source', or "" when there is none
 */
static void si_read_config(struct si *s, const char *release, char values[][24], char *source, size_t size)
{
	char path[PATH_MAX + 256], rel[128], line[512];
	int tried = 0, err = ENOENT;
	gzFile gz = NULL;
	size_t i;

	source[0] = '\0';
	for (tried = 0; tried < 2 && !gz; tried++) {
		if (tried == 0)
			snprintf(rel, sizeof(rel), "/proc/config.gz");
		else if (release && *release)
			snprintf(rel, sizeof(rel), "/boot/config-%s", release);
		else
			break;
		si_path(s, rel, path, sizeof(path));
		gz = gzopen(path, "rb");
		if (!gz && errno != ENOENT)
			err = errno;
	}
	if (!gz) {
		si_note(s, "kernel.config: neither /proc/config.gz nor /boot/config-%s: %s",
			release && *release ? release : "<release>", strerror(err));
		return;
	}
	snprintf(source, size, "%s", rel);
	while (gzgets(gz, line, sizeof(line))) {
		si_trim(line);
		for (i = 0; i < PF_KCONFIG_RT_NOPTS; i++)
			pf_kconfig_line(line, pf_kconfig_rt_opts[i], values[i], 24);
	}
	if (!gzeof(gz)) {
		int zerr;

		si_note(s, "kernel.config: %s: %s", rel, gzerror(gz, &zerr));
	}
	gzclose(gz);
}

/* si_config_bool - 1 when an option is y or m, 0 when n or absent from a known config, -1 with no config */
static int si_config_bool(const char *source, const char *value)
{
	if (!*source)
		return -1;
	return !strcmp(value, "y") || !strcmp(value, "m");
}

/* si_config_value - the value of one recorded option */
static const char *si_config_value(char values[][24], const char *name)
{
	size_t i;

	for (i = 0; i < PF_KCONFIG_RT_NOPTS; i++)
		if (!strcmp(pf_kconfig_rt_opts[i], name))
			return values[i];
	return "";
}

/* Where debugfs files are read from: its mount under the root, or a private mount. */
struct si_debugfs {
	char            base[PATH_MAX];	/* real path of the debugfs top, "" when there is none */
	struct si_mount m;		/* the private mount, when one was needed */
	int             err;		/* why there is none: -errno */
};

/* si_debugfs_open - find debugfs (on "/" as root, mount it privately when it is not mounted) */
static void si_debugfs_open(struct si *s, struct si_debugfs *d)
{
	char mp[512];

	memset(d, 0, sizeof(*d));
	if (si_find_mount(s, "debugfs", "/sys/kernel/debug", mp, sizeof(mp)) == 0) {
		d->err = si_path(s, mp, d->base, sizeof(d->base));
		return;
	}
	if (!s->live || geteuid() != 0) {
		d->err = si_path(s, "/sys/kernel/debug", d->base, sizeof(d->base));
		return;
	}
	d->err = si_private_mount(&d->m, "debugfs", MS_RDONLY);
	if (!d->err)
		snprintf(d->base, sizeof(d->base), "%s", d->m.dir);
}

/* si_debugfs_read - read one debugfs file ("sched/preempt"); bytes or -errno */
static int si_debugfs_read(struct si_debugfs *d, const char *rel, char *buf, size_t size)
{
	char path[PATH_MAX + 128];
	int n;

	buf[0] = '\0';
	if (d->err || !d->base[0])
		return d->err ? d->err : -ENOENT;
	if (pf_path_join(path, sizeof(path), d->base, rel))
		return -ENAMETOOLONG;
	n = pf_read_file(path, buf, size);
	if (n < 0)
		buf[0] = '\0';
	return n;
}

/* si_debugfs_close - unmount a private debugfs */
static void si_debugfs_close(struct si_debugfs *d)
{
	si_private_umount(&d->m);
}

/*
 * si_cpulist_json - a cpulist parameter, normalised ("3,1-2" -> "1-3"), kept
 * as given when it does not parse; null when absent
 */
static json_t *si_cpulist_json(const char *value)
{
	struct sysinfo_cpuset set;
	char list[1024];

	if (!value)
		return json_null();
	if (sysinfo_cpulist_parse(value, 0, &set))
		return sysinfo_json_text(value);
	sysinfo_cpulist_format(&set, list, sizeof(list));
	return json_string(list);
}

/* si_cmdline_json - the parsed realtime flags of the command line */
static json_t *si_cmdline_json(const struct sysinfo_cmdline *cl)
{
	json_t *o = json_object(), *iso;
	struct sysinfo_cpuset set;
	char flags[128];
	const char *cpus;

	if (cl->isolcpus) {
		sysinfo_isolcpus_split(cl->isolcpus, flags, sizeof(flags), &cpus);
		iso = json_object();
		json_object_set_new(iso, "raw", sysinfo_json_text(cl->isolcpus));
		json_object_set_new(iso, "flags", sysinfo_json_text(flags));
		json_object_set_new(iso, "cpus", sysinfo_cpulist_parse(cpus, 0, &set) ? json_null() :
				    si_cpulist_json(cpus));
		json_object_set_new(o, "isolcpus", iso);
	} else {
		json_object_set_new(o, "isolcpus", json_null());
	}
	json_object_set_new(o, "nohz_full", si_cpulist_json(cl->nohz_full));
	json_object_set_new(o, "rcu_nocbs", cl->rcu_nocbs && !*cl->rcu_nocbs ? json_string("all") :
			    si_cpulist_json(cl->rcu_nocbs));
	json_object_set_new(o, "irqaffinity", si_cpulist_json(cl->irqaffinity));
	json_object_set_new(o, "threadirqs", json_boolean(cl->threadirqs));
	json_object_set_new(o, "idle", cl->idle ? sysinfo_json_text(cl->idle) : json_null());
	si_int_text(o, "processor_max_cstate", cl->processor_max_cstate, NULL);
	si_int_text(o, "intel_idle_max_cstate", cl->intel_idle_max_cstate, NULL);
	json_object_set_new(o, "mitigations", cl->mitigations ? sysinfo_json_text(cl->mitigations) : json_null());
	json_object_set_new(o, "preempt", cl->preempt ? sysinfo_json_text(cl->preempt) : json_null());
	json_object_set_new(o, "nosmt", json_boolean(cl->nosmt));
	return o;
}

/* si_version_from_proc - release and version string from proc/version ("Linux version R (...) #1 ...") */
static void si_version_from_proc(struct si *s, char *release, size_t rsize, char *version, size_t vsize)
{
	char buf[1024], rel[64], *p;

	if (si_read(s, "/proc/version", buf, sizeof(buf), NULL) < 0)
		return;
	if (!release[0] && sscanf(buf, "Linux version %63s", rel) == 1)
		snprintf(release, rsize, "%s", rel);
	p = strstr(buf, ") #");
	if (!version[0] && p)
		snprintf(version, vsize, "%s", p + 2);
}

/* si_kernel - the "kernel" object; leaves the parsed command line in *cl */
static json_t *si_kernel(struct si *s, struct si_debugfs *dbg, struct sysinfo_cmdline *cl)
{
	char release[64] = "", version[512] = "", arch[sizeof(((struct utsname *)0)->machine)] = "";
	char cmdline[4096], text[256];
	char config[PF_KCONFIG_RT_NOPTS][24], source[128];
	struct sysinfo_preempt_in in = { .realtime = -1, .config_rt = -1, .config_dynamic = -1 };
	struct sysinfo_preempt_out po;
	json_t *k = json_object(), *cfg;
	int debugfs_err = 0, ret;
	struct utsname un;
	long long hz;
	size_t i;

	si_read(s, "/proc/sys/kernel/osrelease", release, sizeof(release), NULL);
	si_read(s, "/proc/sys/kernel/version", version, sizeof(version), NULL);
	if (!release[0] || !version[0])
		si_version_from_proc(s, release, sizeof(release), version, sizeof(version));
	if (!release[0])
		si_note(s, "kernel.release: neither /proc/sys/kernel/osrelease nor /proc/version is readable");
	if (!version[0])
		si_note(s, "kernel.version: neither /proc/sys/kernel/version nor /proc/version is readable");
	if (si_read(s, "/proc/sys/kernel/arch", arch, sizeof(arch), NULL) < 0) {
		if (s->live && uname(&un) == 0)
			snprintf(arch, sizeof(arch), "%s", un.machine);
		else
			si_note(s, "kernel.arch: /proc/sys/kernel/arch is not readable");
	}
	si_str(k, "release", release);
	si_str(k, "version", version);
	si_str(k, "arch", arch);

	/* the command line */
	ret = si_read(s, "/proc/cmdline", cmdline, sizeof(cmdline), "kernel.cmdline");
	if (sysinfo_cmdline_parse(ret >= 0 ? cmdline : "", cl))
		si_note(s, "kernel.cmdline: out of memory");
	si_str(k, "cmdline", ret >= 0 ? cmdline : NULL);
	json_object_set_new(k, "cmdline_flags", ret >= 0 ? si_cmdline_json(cl) : json_null());

	/* the config */
	memset(config, 0, sizeof(config));
	si_read_config(s, release, config, source, sizeof(source));
	si_str(k, "config_source", source);
	cfg = json_object();
	for (i = 0; i < PF_KCONFIG_RT_NOPTS; i++)
		si_str(cfg, pf_kconfig_rt_opts[i], *source ? (config[i][0] ? config[i] : "n") : NULL);
	json_object_set_new(k, "config", cfg);
	if (si_int_text(k, "hz", si_config_value(config, "CONFIG_HZ"), &hz) && *source)
		si_note(s, "kernel.hz: %s has no CONFIG_HZ", source);

	/* the preemption evidence */
	if (si_read(s, "/sys/kernel/realtime", text, sizeof(text), NULL) >= 0)
		in.realtime = atoi(text) == 1;
	else if (si_exists(s, "/sys/kernel"))
		in.realtime = 0;	/* a PREEMPT_RT kernel always has it */
	in.version = version[0] ? version : NULL;
	in.config_rt = si_config_bool(source, si_config_value(config, "CONFIG_PREEMPT_RT"));
	in.config_dynamic = si_config_bool(source, si_config_value(config, "CONFIG_PREEMPT_DYNAMIC"));
	if (si_config_bool(source, si_config_value(config, "CONFIG_PREEMPT_LAZY")) == 1)
		in.config_mode = SYSINFO_PREEMPT_LAZY;
	else if (si_config_bool(source, si_config_value(config, "CONFIG_PREEMPT")) == 1)
		in.config_mode = SYSINFO_PREEMPT_FULL;
	else if (si_config_bool(source, si_config_value(config, "CONFIG_PREEMPT_VOLUNTARY")) == 1)
		in.config_mode = SYSINFO_PREEMPT_VOLUNTARY;
	else if (si_config_bool(source, si_config_value(config, "CONFIG_PREEMPT_NONE")) == 1)
		in.config_mode = SYSINFO_PREEMPT_NONE;
	ret = si_debugfs_read(dbg, "sched/preempt", text, sizeof(text));
	if (ret >= 0)
		in.debugfs_mode = sysinfo_preempt_debugfs(text);
	else
		debugfs_err = -ret;
	in.cmdline_mode = sysinfo_preempt_from_name(cl->preempt);
	sysinfo_preempt_decide(&in, &po);

	si_str(k, "preempt_model", po.model);
	si_str(k, "preempt_source", po.source);
	si_bool3(k, "preempt_rt", po.rt);
	si_bool3(k, "preempt_dynamic", po.dynamic);
	si_str(k, "preempt_dynamic_mode", sysinfo_preempt_name(po.dynamic_mode));
	si_bool3(k, "realtime_file", in.realtime);
	json_object_set_new(k, "preempt_debugfs", ret >= 0 ? sysinfo_json_text(si_trim(text)) : json_null());
	if (po.dynamic == 1 && !in.debugfs_mode)
		si_note(s, "kernel.preempt_model: debugfs sched/preempt: %s; mode taken from the %s",
			debugfs_err ? strerror(debugfs_err) : "no active mode in it",
			in.cmdline_mode ? "preempt= boot parameter" : "config's default");
	if (!po.model[0])
		si_note(s, "kernel.preempt_model: no version string, config or debugfs tells the model");
	return k;
}

/* si_cpu_read - read a file of one CPU's sysfs directory ("cpufreq/scaling_governor"), quiet */
static int si_cpu_read(struct si *s, int cpu, const char *file, char *buf, size_t size)
{
	return si_readf(s, buf, size, "/sys/devices/system/cpu/cpu%d/%s", cpu, file);
}

/* si_idle_states - the cpuidle states of one CPU, or NULL when it has none */
static json_t *si_idle_states(struct si *s, int cpu)
{
	char name[64], text[64];
	json_t *states = NULL, *st;
	int i;

	for (i = 0; i < 32; i++) {
		if (si_readf(s, name, sizeof(name), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, i) < 0)
			break;
		if (!states)
			states = json_array();
		st = json_object();
		json_object_set_new(st, "name", sysinfo_json_text(name));
		si_readf(s, text, sizeof(text), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", cpu, i);
		si_int_text(st, "latency_us", text, NULL);
		if (si_readf(s, text, sizeof(text), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable", cpu, i) >= 0)
			json_object_set_new(st, "disabled", json_boolean(atoi(text) != 0));
		else
			json_object_set_new(st, "disabled", json_null());
		json_array_append_new(states, st);
	}
	return states;
}

/* si_cpulist_field - read a sysfs cpulist file into a normalised string field; the set in *set */
static int si_cpulist_field(struct si *s, json_t *o, const char *key, const char *rel, int nr_cpus,
			    struct sysinfo_cpuset *set, const char *what)
{
	char text[4096], list[4096];

	if (si_read(s, rel, text, sizeof(text), what) < 0) {
		json_object_set_new(o, key, json_null());
		return -ENOENT;
	}
	if (!strcmp(text, "(null)"))
		text[0] = '\0';
	if (sysinfo_cpulist_parse(text, nr_cpus, set)) {
		si_note(s, "%s: %s: not a cpulist: '%s'", what ? what : key, rel, text);
		json_object_set_new(o, key, json_null());
		return -EINVAL;
	}
	sysinfo_cpulist_format(set, list, sizeof(list));
	json_object_set_new(o, key, sysinfo_json_text(list));
	return 0;
}

/* si_cpus - the "cpus" object */
static json_t *si_cpus(struct si *s, const struct si_cpuinfo *ci)
{
	struct sysinfo_cpuset online, set;
	char text[256], list[1024], model[192];
	json_t *c = json_object(), *per, *pc, *idle;
	const char *core;
	int cpu, smt = -1, nfreq = 0, nidle = 0;

	if (si_cpulist_field(s, c, "online", "/sys/devices/system/cpu/online", ci->nproc, &online,
			     NULL) < 0) {
		memset(&online, 0, sizeof(online));
		for (cpu = 0; cpu < ci->nproc && cpu < SYSINFO_MAX_CPUS; cpu++)
			online.bits[cpu / 64] |= 1ULL << (cpu % 64);
		sysinfo_cpulist_format(&online, list, sizeof(list));
		if (ci->nproc) {
			json_object_set_new(c, "online", sysinfo_json_text(list));
			si_note(s, "cpus.online: /sys/devices/system/cpu/online unreadable; counted /proc/cpuinfo");
		} else {
			si_note(s, "cpus.online: neither /sys/devices/system/cpu/online nor /proc/cpuinfo tells");
		}
	}
	si_setint(c, "online_count", sysinfo_cpuset_count(&online), sysinfo_cpuset_count(&online) > 0);
	si_cpulist_field(s, c, "isolated", "/sys/devices/system/cpu/isolated", ci->nproc, &set,
			 "cpus.isolated");
	si_cpulist_field(s, c, "nohz_full", "/sys/devices/system/cpu/nohz_full", ci->nproc, &set, NULL);

	model[0] = '\0';
	core = si_arm_core(ci->implementer, ci->part);
	if (ci->model[0])
		snprintf(model, sizeof(model), "%s", ci->model);
	else if (core)
		snprintf(model, sizeof(model), "%s", core);
	else if (ci->part[0])
		snprintf(model, sizeof(model), "implementer %s part %s", ci->implementer, ci->part);
	si_str(c, "model", model);
	if (si_read(s, "/proc/device-tree/model", text, sizeof(text), NULL) < 0)
		si_read(s, "/sys/firmware/devicetree/base/model", text, sizeof(text), NULL);
	si_str(c, "board", text);

	/* SMT: the smt/active switch, else any online CPU with a sibling */
	if (si_read(s, "/sys/devices/system/cpu/smt/active", text, sizeof(text), NULL) >= 0) {
		smt = atoi(text) != 0;
		json_object_set_new(c, "smt_source", sysinfo_json_text("smt/active"));
	} else {
		for (cpu = 0; cpu < SYSINFO_MAX_CPUS; cpu++) {
			if (!sysinfo_cpuset_has(&online, cpu) ||
			    si_cpu_read(s, cpu, "topology/thread_siblings_list", text, sizeof(text)) < 0 ||
			    sysinfo_cpulist_parse(text, 0, &set))
				continue;
			smt = smt == 1 || sysinfo_cpuset_count(&set) > 1;
		}
		json_object_set_new(c, "smt_source", smt < 0 ? json_null() : sysinfo_json_text("thread_siblings"));
		if (smt < 0)
			si_note(s, "cpus.smt: neither smt/active nor topology/thread_siblings_list is readable");
	}
	si_bool3(c, "smt", smt);
	si_read(s, "/sys/devices/system/cpu/smt/control", text, sizeof(text), NULL);
	si_str(c, "smt_control", text);

	si_read(s, "/sys/devices/system/cpu/cpuidle/current_driver", text, sizeof(text), NULL);
	si_str(c, "cpuidle_driver", text);
	if (si_read(s, "/sys/devices/system/cpu/cpuidle/current_governor", text, sizeof(text), NULL) < 0)
		si_read(s, "/sys/devices/system/cpu/cpuidle/current_governor_ro", text, sizeof(text), NULL);
	si_str(c, "cpuidle_governor", text);

	per = json_array();
	for (cpu = 0; cpu < SYSINFO_MAX_CPUS; cpu++) {
		if (!sysinfo_cpuset_has(&online, cpu))
			continue;
		pc = json_object();
		json_object_set_new(pc, "cpu", json_integer(cpu));
		nfreq += si_cpu_read(s, cpu, "cpufreq/scaling_governor", text, sizeof(text)) >= 0;
		si_str(pc, "governor", text);
		si_cpu_read(s, cpu, "cpufreq/scaling_driver", text, sizeof(text));
		si_str(pc, "freq_driver", text);
		idle = si_idle_states(s, cpu);
		nidle += idle != NULL;
		json_object_set_new(pc, "idle_states", idle ? idle : json_null());
		json_array_append_new(per, pc);
	}
	json_object_set_new(c, "per_cpu", per);
	if (json_array_size(per) && !nfreq)
		si_note(s, "cpus.per_cpu.governor: no cpufreq on any CPU (no driver, or the hypervisor or "
			"firmware sets the frequency)");
	if (json_array_size(per) && !nidle)
		si_note(s, "cpus.per_cpu.idle_states: no cpuidle states on any CPU");
	return c;
}

/* si_clocksource - the "clocksource" object */
static json_t *si_clocksource(struct si *s)
{
	char text[512], *tok, *save;
	json_t *c = json_object(), *avail;

	si_read(s, "/sys/devices/system/clocksource/clocksource0/current_clocksource", text, sizeof(text),
		"clocksource.current");
	si_str(c, "current", text);
	if (si_read(s, "/sys/devices/system/clocksource/clocksource0/available_clocksource", text,
		    sizeof(text), "clocksource.available") < 0) {
		json_object_set_new(c, "available", json_null());
		return c;
	}
	avail = json_array();
	for (tok = strtok_r(text, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		json_array_append_new(avail, sysinfo_json_text(tok));
	json_object_set_new(c, "available", avail);
	return c;
}

/* si_release_at_least - is a release string ("6.12.3-rt5") at least major.minor */
static bool si_release_at_least(const char *release, int major, int minor)
{
	int ma = 0, mi = 0;

	if (!release || sscanf(release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

/*
 * si_fair_server - the fair deadline server (Linux 6.12+), which gives
 * starved SCHED_OTHER tasks runtime_ns of every period_ns ahead of realtime
 * tasks: {runtime_ns, period_ns, cpus} of the CPUs where it is on, or null
 */
static json_t *si_fair_server(struct si *s, struct si_debugfs *dbg, const char *release)
{
	struct sysinfo_cpuset on = { { 0 } };
	long long runtime, period, max_runtime = 0, max_period = 0;
	char text[64], rel[96], list[1024];
	int cpu, found = 0, ret = 0;
	json_t *o;

	for (cpu = 0; cpu < SYSINFO_MAX_CPUS; cpu++) {
		snprintf(rel, sizeof(rel), "sched/fair_server/cpu%d/runtime", cpu);
		ret = si_debugfs_read(dbg, rel, text, sizeof(text));
		if (ret < 0 || si_number(text, &runtime))
			break;
		snprintf(rel, sizeof(rel), "sched/fair_server/cpu%d/period", cpu);
		if (si_debugfs_read(dbg, rel, text, sizeof(text)) < 0 || si_number(text, &period))
			break;
		found++;
		if (runtime > 0)
			on.bits[cpu / 64] |= 1ULL << (cpu % 64);
		if (runtime > max_runtime) {
			max_runtime = runtime;
			max_period = period;
		}
	}
	if (!found) {
		if (si_release_at_least(release, 6, 12))
			si_note(s, "rt_throttle.fair_server: debugfs sched/fair_server/cpu0/runtime: %s",
				strerror(ret < 0 ? -ret : EINVAL));
		return json_null();
	}
	o = json_object();
	sysinfo_cpulist_format(&on, list, sizeof(list));
	json_object_set_new(o, "runtime_ns", json_integer(max_runtime));
	json_object_set_new(o, "period_ns", json_integer(max_period));
	json_object_set_new(o, "cpus", sysinfo_json_text(list));
	return o;
}

/* si_rt_throttle - the "rt_throttle" object */
static json_t *si_rt_throttle(struct si *s, struct si_debugfs *dbg, const char *release)
{
	char text[64];
	json_t *o = json_object();
	long long runtime = 0, period = 0;
	bool rk, pk;

	si_read(s, "/proc/sys/kernel/sched_rt_runtime_us", text, sizeof(text), "rt_throttle.runtime_us");
	rk = si_int_text(o, "runtime_us", text, &runtime) == 0;
	si_read(s, "/proc/sys/kernel/sched_rt_period_us", text, sizeof(text), "rt_throttle.period_us");
	pk = si_int_text(o, "period_us", text, &period) == 0;
	si_bool3(o, "throttling", !rk ? -1 : runtime >= 0 && (!pk || runtime < period));
	json_object_set_new(o, "fair_server", si_fair_server(s, dbg, release));
	return o;
}

/*
 * si_tracefs_try - is the tracefs mounted at 'dir' (a real path) usable:
 * trace_marker writable and an instance can be created (or, without
 * 'create', instances/ is writable); 0 or -errno with the reason in *why
 */
static int si_tracefs_try(const char *dir, bool create, const char **why)
{
	char path[PATH_MAX];
	sigset_t old;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/trace_marker", dir);
	if (access(path, W_OK)) {
		*why = errno == ENOENT ? "no trace_marker in it" : "trace_marker is not writable";
		return -errno;
	}
	snprintf(path, sizeof(path), "%s/instances", dir);
	if (!create) {
		if (access(path, W_OK)) {
			*why = "instances/ is missing or not writable";
			return -errno;
		}
		return 0;
	}
	snprintf(path, sizeof(path), "%s/instances/preflight-sysinfo-%d", dir, (int)getpid());
	si_hold_signals(&old);
	if (mkdir(path, 0750) && errno != EEXIST) {
		ret = -errno;
		*why = "cannot create an instance in instances/";
	} else {
		rmdir(path);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/* si_tracefs - the "tracefs" object: where it is, mounted, usable */
static json_t *si_tracefs(struct si *s)
{
	char mp[512], path[PATH_MAX + 600];
	const char *why = NULL;
	json_t *o = json_object();
	struct si_mount m;
	bool mounted;
	int ret;

	mounted = si_find_mount(s, "tracefs", "/sys/kernel/tracing", mp, sizeof(mp)) == 0;
	if (!mounted && !s->live && si_exists(s, "/sys/kernel/tracing/trace_marker")) {
		snprintf(mp, sizeof(mp), "/sys/kernel/tracing");
		mounted = true;		/* a tree without proc/mounts */
	}
	if (!mounted)
		snprintf(mp, sizeof(mp), "/sys/kernel/tracing");
	json_object_set_new(o, "path", sysinfo_json_text(mp));
	json_object_set_new(o, "mounted", json_boolean(mounted));

	if (mounted) {
		si_path(s, mp, path, sizeof(path));
		ret = si_tracefs_try(path, s->live && geteuid() == 0, &why);
	} else if (s->live && geteuid() == 0) {
		ret = si_private_mount(&m, "tracefs", 0);
		if (ret)
			why = "it is not mounted and cannot be mounted";
		else {
			ret = si_tracefs_try(m.dir, true, &why);
			si_private_umount(&m);
		}
		if (!ret)
			si_note(s, "tracefs: not mounted at %s; it works when mounted (preflight record mounts it)", mp);
	} else {
		ret = -ENOENT;
		why = s->live ? "it is not mounted and mounting it needs root" : "it is not mounted";
	}
	if (ret && s->live && geteuid() != 0 && mounted)
		why = "tracing needs root";
	json_object_set_new(o, "usable", json_boolean(ret == 0));
	si_str(o, "reason", ret ? why : NULL);
	return o;
}

/* si_meminfo_kb - one "Key:  N kB" value of meminfo text; 0 or -ENOENT */
static int si_meminfo_kb(const char *text, const char *key, long long *kb)
{
	size_t len = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, len) && p[len] == ':')
			return sscanf(p + len + 1, "%lld", kb) == 1 ? 0 : -ENOENT;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENOENT;
}

/* si_memory - the "memory" object with its "swap" */
static json_t *si_memory(struct si *s)
{
	char text[8192], name[512], type[64], *line, *save;
	json_t *m = json_object(), *sw = json_object(), *devs, *d;
	long long total = 0, avail = 0, stotal = 0, sfree = 0, size, used;
	int prio, have = si_read(s, "/proc/meminfo", text, sizeof(text), "memory") >= 0;
	/* each value read before it is passed: the order of a call's arguments is unspecified */
	bool total_ok = have && si_meminfo_kb(text, "MemTotal", &total) == 0;
	bool avail_ok = have && si_meminfo_kb(text, "MemAvailable", &avail) == 0;
	bool stotal_ok = have && si_meminfo_kb(text, "SwapTotal", &stotal) == 0;
	bool sfree_ok = have && si_meminfo_kb(text, "SwapFree", &sfree) == 0;

	si_setint(m, "total_kb", total, total_ok);
	si_setint(m, "available_kb", avail, avail_ok);
	si_setint(sw, "total_kb", stotal, stotal_ok);
	si_setint(sw, "free_kb", sfree, sfree_ok);
	if (si_read(s, "/proc/swaps", text, sizeof(text), "memory.swap.devices") < 0) {
		json_object_set_new(sw, "devices", json_null());
	} else {
		devs = json_array();
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (sscanf(line, "%511s %63s %lld %lld %d", name, type, &size, &used, &prio) != 5)
				continue;	/* the header */
			d = json_object();
			json_object_set_new(d, "name", sysinfo_json_text(name));
			json_object_set_new(d, "type", sysinfo_json_text(type));
			json_object_set_new(d, "size_kb", json_integer(size));
			json_object_set_new(d, "used_kb", json_integer(used));
			json_object_set_new(d, "priority", json_integer(prio));
			json_array_append_new(devs, d);
		}
		json_object_set_new(sw, "devices", devs);
	}
	json_object_set_new(m, "swap", sw);
	return m;
}

/* si_dmi_virtual - does a DMI vendor or product name say "virtual machine" */
static const char *si_dmi_virtual(const char *vendor, const char *product)
{
	static const char *const names[] = {
		"QEMU", "KVM", "VMware", "VirtualBox", "innotek", "Xen", "Bochs", "Parallels",
		"Amazon EC2", "Google Compute Engine", "OpenStack", "Virtual Machine", "HVM domU",
		"Firecracker", "Cloud Hypervisor", "BHYVE", "ACRN",
	};
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(names); i++)
		if (strcasestr(vendor, names[i]) || strcasestr(product, names[i]))
			return names[i];
	return NULL;
}

/*
 * si_container - the container runtime whose marker is found, or NULL. A
 * stale /.dockerenv (a VM image built from a Docker image) is not enough:
 * PID 1's cgroup must name a container runtime too.
 */
static const char *si_container(struct si *s, char *buf, size_t size)
{
	char cg[4096];

	if (si_exists(s, "/run/.containerenv"))
		return "podman";
	if (si_read(s, "/run/systemd/container", buf, size, NULL) > 0)
		return buf;
	if (si_exists(s, "/.dockerenv") && si_read(s, "/proc/1/cgroup", cg, sizeof(cg), NULL) >= 0 &&
	    (strstr(cg, "docker") || strstr(cg, "containerd") || strstr(cg, "kubepods")))
		return "docker";
	return NULL;
}

/*
 * si_cpuid_signature - the hypervisor's CPUID signature (leaf 0x40000000:
 * "KVMKVMKVM", "TCGTCGTCGTCG" for qemu's emulation, ...), read live on x86
 * only; "" elsewhere
 */
static void si_cpuid_signature(const struct si *s, bool hypervisor, char sig[13])
{
	sig[0] = '\0';
#if defined(__x86_64__) || defined(__i386__)
	unsigned int eax, ebx, ecx, edx;

	if (!s->live || !hypervisor)	/* without the flag the leaf is not a hypervisor's */
		return;
	__cpuid(0x40000000, eax, ebx, ecx, edx);
	(void)eax;
	memcpy(sig, &ebx, 4);
	memcpy(sig + 4, &ecx, 4);
	memcpy(sig + 8, &edx, 4);
	sig[12] = '\0';
	for (int i = 0; i < 12; i++)
		if (sig[i] && !isprint((unsigned char)sig[i]))
			sig[0] = '\0';
#else
	(void)s;
	(void)hypervisor;
#endif
}

/*
 * si_emulated - is the CPU emulated (qemu's TCG) rather than run by the
 * hardware: 1, 0, or -1 when nothing tells. The evidence: a guest that
 * preflight's scripts/target-boot started says so on its kernel command line
 * (preflight.emulated=tcg), which is the only word an ARM 'virt' guest has;
 * on x86 the hypervisor's CPUID signature; bare metal is not emulated.
 */
static int si_emulated(struct si *s, int virt, const char *sig, char *evidence, size_t size)
{
	char cmdline[4096], *p;

	if (si_read(s, "/proc/cmdline", cmdline, sizeof(cmdline), NULL) >= 0 &&
	    (p = strstr(cmdline, "preflight.emulated=")) && (p == cmdline || isspace((unsigned char)p[-1]))) {
		p[strcspn(p, " \t\n")] = '\0';
		snprintf(evidence, size, "kernel command line: %s", p);
		return strcmp(p, "preflight.emulated=0") != 0;
	}
	if (!strcmp(sig, "TCGTCGTCGTCG")) {
		snprintf(evidence, size, "CPUID hypervisor signature %s (qemu's TCG)", sig);
		return 1;
	}
	if (sig[0]) {
		snprintf(evidence, size, "CPUID hypervisor signature %s: hardware virtualisation", sig);
		return 0;
	}
	if (virt == 0) {
		snprintf(evidence, size, "not virtualized");
		return 0;
	}
	return -1;
}

/* si_virt - the "virtualization" object */
static json_t *si_virt(struct si *s, const struct si_cpuinfo *ci)
{
	char vendor[256], product[256], hyp[64], evidence[600] = "", text[64], dt[256], sig[13];
	char emu_evidence[300] = "";
	json_t *v = json_object();
	const char *dmi;
	bool dmi_known, dt_hyp, known;
	int virt, emulated;

	dmi_known = si_read(s, "/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor), NULL) >= 0;
	dmi_known |= si_read(s, "/sys/class/dmi/id/product_name", product, sizeof(product), NULL) >= 0;
	si_read(s, "/sys/hypervisor/type", hyp, sizeof(hyp), NULL);
	dmi = si_dmi_virtual(vendor, product);

	if (ci->hypervisor)
		snprintf(evidence, sizeof(evidence), "hypervisor cpu flag");
	else if (dmi)
		snprintf(evidence, sizeof(evidence), "dmi: %s %s", vendor, product);
	else if (hyp[0])
		snprintf(evidence, sizeof(evidence), "/sys/hypervisor/type: %s", hyp);
	dt_hyp = si_exists(s, "/proc/device-tree/hypervisor") ||
		 si_exists(s, "/sys/firmware/devicetree/base/hypervisor");
	if (!evidence[0] && dt_hyp)
		snprintf(evidence, sizeof(evidence), "device-tree hypervisor node");
	/* qemu's ARM 'virt' board, emulated or under KVM: its device tree's only compatible */
	if (!evidence[0] && si_read(s, "/proc/device-tree/compatible", dt, sizeof(dt), NULL) >= 0 &&
	    !strcmp(dt, "linux,dummy-virt"))
		snprintf(evidence, sizeof(evidence), "device tree: linux,dummy-virt (qemu's virt board)");
	known = ci->flags_seen || dmi_known || hyp[0] || si_exists(s, "/proc/device-tree") ||
		si_exists(s, "/sys/firmware/devicetree/base");
	virt = evidence[0] ? 1 : known ? 0 : -1;
	si_bool3(v, "virtualized", virt);
	si_str(v, "evidence", evidence);
	json_object_set_new(v, "hypervisor_flag", ci->flags_seen ? json_boolean(ci->hypervisor) : json_null());
	si_str(v, "sys_vendor", vendor);
	si_str(v, "product_name", product);
	si_str(v, "hypervisor_type", hyp);
	si_str(v, "container", si_container(s, text, sizeof(text)));
	si_cpuid_signature(s, ci->hypervisor, sig);
	si_str(v, "hypervisor_signature", sig);
	emulated = si_emulated(s, virt, sig, emu_evidence, sizeof(emu_evidence));
	si_bool3(v, "emulated", emulated);
	si_str(v, "emulation_evidence", emu_evidence);
	if (virt < 0)
		si_note(s, "virtualization: no cpu flags, DMI, /sys/hypervisor or device tree to tell");
	return v;
}

/* si_host - hostname and operating system */
static void si_host(struct si *s, json_t *info)
{
	char name[256], text[4096], *p, *end;

	if (si_read(s, "/proc/sys/kernel/hostname", name, sizeof(name), NULL) < 0 &&
	    si_read(s, "/etc/hostname", name, sizeof(name), NULL) < 0 &&
	    !(s->live && gethostname(name, sizeof(name)) == 0))
		si_note(s, "hostname: neither /proc/sys/kernel/hostname nor /etc/hostname is readable");
	si_str(info, "hostname", si_trim(name));

	name[0] = '\0';
	if (si_read(s, "/etc/os-release", text, sizeof(text), "os") >= 0 &&
	    ((p = strstr(text, "\nPRETTY_NAME=")) || (!strncmp(text, "PRETTY_NAME=", 12) && (p = text - 1)))) {
		p += 13;
		if (*p == '"')
			p++;
		end = p + strcspn(p, "\"\n");
		snprintf(name, sizeof(name), "%.*s", (int)(end - p), p);
	}
	si_str(info, "os", name);
}

int sysinfo_check_root(const char *root, const char **why)
{
	char path[PATH_MAX + 8];
	struct stat st;

	if (!root || !*root) {
		*why = "empty path";
		return -EINVAL;
	}
	if (stat(root, &st)) {
		*why = strerror(errno);
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		*why = strerror(ENOTDIR);
		return -ENOTDIR;
	}
	snprintf(path, sizeof(path), "%s/proc", root);
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return 0;
	snprintf(path, sizeof(path), "%s/sys", root);
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return 0;
	*why = "neither proc/ nor sys/ in it";
	return -ENOENT;
}

int sysinfo_collect(const char *root, json_t **out)
{
	struct sysinfo_cmdline cl = { 0 };
	char real[PATH_MAX], stamp[32];
	struct si_debugfs dbg;
	struct si_cpuinfo ci;
	const char *why;
	struct si s;
	json_t *info, *kernel;
	int ret;

	*out = NULL;
	ret = sysinfo_check_root(root, &why);
	if (ret)
		return ret;
	if (!realpath(root, real))
		return -errno;
	memset(&s, 0, sizeof(s));
	s.live = !strcmp(real, "/");
	snprintf(s.root, sizeof(s.root), "%s", s.live ? "" : real);
	s.notes = json_array();
	info = json_object();
	if (!s.notes || !info) {
		json_decref(s.notes);
		json_decref(info);
		return -ENOMEM;
	}

	pf_utc(stamp, sizeof(stamp), time(NULL), false);
	json_object_set_new(info, "schema", json_string(SYSINFO_SCHEMA));
	json_object_set_new(info, "collected_at", sysinfo_json_text(stamp));
	json_object_set_new(info, "root", sysinfo_json_text(real));
	si_host(&s, info);
	si_read_cpuinfo(&s, &ci);
	si_debugfs_open(&s, &dbg);
	kernel = si_kernel(&s, &dbg, &cl);
	json_object_set_new(info, "kernel", kernel);
	json_object_set_new(info, "cpus", si_cpus(&s, &ci));
	json_object_set_new(info, "clocksource", si_clocksource(&s));
	json_object_set_new(info, "rt_throttle",
			    si_rt_throttle(&s, &dbg, json_string_value(json_object_get(kernel, "release"))));
	si_debugfs_close(&dbg);
	json_object_set_new(info, "tracefs", si_tracefs(&s));
	json_object_set_new(info, "memory", si_memory(&s));
	json_object_set_new(info, "virtualization", si_virt(&s, &ci));
	json_object_set_new(info, "notes", s.notes);
	sysinfo_cmdline_free(&cl);
	sysinfo_judge(info);
	*out = info;
	return 0;
}

int sysinfo_write(const json_t *info, const char *path, bool as_json)
{
	FILE *f;
	int ret = pf_outfile_open(path ? path : "-", &f);

	if (ret)
		return ret;
	if (as_json) {
		/* a write that failed is said with its own errno (the commit would find only the error flag) */
		if (json_dumpf(info, f, JSON_INDENT(2)) < 0 || fputc('\n', f) == EOF) {
			ret = pf_outfile_fail(path ? path : "-", errno);
			pf_outfile_abort(f);
			return ret;
		}
	} else {
		sysinfo_print_human(info, f);
	}
	return pf_outfile_commit(f);
}
