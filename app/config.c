/*
 * config.c - flightapp's task table: built-in defaults (docs/ARCHITECTURE.md) and
 * the INI file (inih) that overrides any field and adds tasks.
 *
 * inih does not tell a handler its line number, so the file is fed through
 * the one INI line reader of lib/ini.h, which counts lines; every error then
 * reads "file:line: what is wrong".
 * Checks that need the whole file (a period that must be a multiple of a slot
 * set further down, exactly one tick task) run after parsing and point at the
 * line that set the offending value. Sections other than [app] and
 * [task NAME] go to handlers registered with app_config_add_section().
 */
#define _GNU_SOURCE
#include "config.h"
#include "cpuset.h"
#include "ini.h"
#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define APP_MAX_SECTIONS 16

struct app_section {
	char name[32];
	app_section_fn fn;
	void *user;
};

static struct app_section app_sections[APP_MAX_SECTIONS];
static int app_nsections;

/* Line numbers of the values checked after parsing, per task. */
enum { LINE_SECTION, LINE_PERIOD, LINE_PHASE, LINE_EVENT, LINE_KIND, LINE_NFIELDS };

struct app_parse {
	struct app_config *cfg;
	struct pf_ini ini;		/* file name, line being parsed, first error */
	int section_line;		/* line of the last [section] header */
	int slot_line;
	int task_line[APP_MAX_TASKS][LINE_NFIELDS];
};

int app_config_add_section(const char *name, app_section_fn fn, void *user)
{
	struct app_section *s;

	if (!name || !fn || strlen(name) >= sizeof(s->name))
		return -EINVAL;
	if (!strcmp(name, "app") || !strncmp(name, "task", 4))
		return -EEXIST;
	if (app_nsections == APP_MAX_SECTIONS)
		return -ENOSPC;
	s = &app_sections[app_nsections++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->fn = fn;
	s->user = user;
	return 0;
}

/* app_task_default - one row of the built-in table */
static void app_task_default(struct app_task_cfg *t, const char *name, enum app_task_kind kind,
			     enum app_policy policy, int prio, int64_t period_ns, int64_t work_ns)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->kind = kind;
	t->policy = policy;
	t->priority = prio;
	t->period_ns = period_ns;
	t->work_ns = work_ns;
	t->enabled = true;
}

void app_config_defaults(struct app_config *cfg)
{
	const int64_t ms = PF_NS_PER_MS, us = PF_NS_PER_US;
	struct app_task_cfg *t;

	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->source, sizeof(cfg->source), "builtin");
	cfg->slot_ns = 10 * ms;
	cfg->ring_entries = 4096;
	cfg->logger_period_ns = 20 * ms;
	cfg->hist_bin_ns = 1 * us;
	cfg->hist_bins = 10000;
	cfg->dma_latency = true;
	/* docs/ARCHITECTURE.md's task table, with the default profile's light work */
	t = cfg->task;
	app_task_default(t++, "io", APP_TASK_TICK, APP_POLICY_FIFO, 90, 10 * ms, 200 * us);
	app_task_default(t++, "ctl100", APP_TASK_PERIODIC, APP_POLICY_FIFO, 80, 10 * ms, 500 * us);
	app_task_default(t++, "nav10", APP_TASK_PERIODIC, APP_POLICY_FIFO, 70, 100 * ms, 1 * ms);
	app_task_default(t, "ekf", APP_TASK_EVENT, APP_POLICY_FIFO, 65, 0, 2 * ms);
	t->event_period_ns = 1000 * ms;
	t++;
	app_task_default(t++, "mission1", APP_TASK_PERIODIC, APP_POLICY_FIFO, 60, 1000 * ms, 1 * ms);
	app_task_default(t++, "logger", APP_TASK_BACKGROUND, APP_POLICY_OTHER, 0, 0, 0);
	app_task_default(t++, "telemetry", APP_TASK_PERIODIC, APP_POLICY_OTHER, 0, 100 * ms, 100 * us);
	cfg->ntasks = (int)(t - cfg->task);
}

struct app_task_cfg *app_config_find(struct app_config *cfg, const char *name)
{
	int i;

	for (i = 0; i < cfg->ntasks; i++)
		if (!strcmp(cfg->task[i].name, name))
			return &cfg->task[i];
	return NULL;
}

static const char *const app_kind_names[] = {
	[APP_TASK_TICK] = "tick", [APP_TASK_PERIODIC] = "periodic",
	[APP_TASK_EVENT] = "event", [APP_TASK_BACKGROUND] = "background",
};

const char *app_kind_name(enum app_task_kind kind)
{
	return (unsigned)kind < PF_ARRAY_SIZE(app_kind_names) ? app_kind_names[kind] : "?";
}

const char *app_policy_name(enum app_policy policy)
{
	return policy == APP_POLICY_FIFO ? "fifo" : "other";
}

int app_parse_cpus(const char *text, uint64_t *mask, size_t mask_words)
{
	cpu_set_t set;
	int cpu;

	memset(mask, 0, mask_words * sizeof(*mask));
	if (!*text || pf_cpus_parse(text, &set) < 0)
		return -EINVAL;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		if ((size_t)cpu >= mask_words * 64)
			return -EINVAL;
		mask[cpu / 64] |= 1ULL << (cpu % 64);
	}
	return 0;
}

/* app_parse_time - a duration that must carry a unit ("10ms"); 0 or -EINVAL */
static int app_parse_time(const char *value, int64_t *ns)
{
	size_t n = strlen(value);

	/* a bare number is ambiguous in a timing file: demand the unit */
	if (!n || isdigit((unsigned char)value[n - 1]) || value[n - 1] == '.')
		return -EINVAL;
	return pf_parse_duration_ns(value, 1, ns);
}

/* app_parse_bool - true/false/yes/no/on/off/1/0; 0 or -EINVAL */
static int app_parse_bool(const char *value, bool *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(value, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(value, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

#define TIME_HINT "(a number with a unit: ns, us, ms, s)"

/* app_app_key - one key of [app] */
static int app_app_key(struct app_parse *ps, const char *key, const char *value)
{
	struct app_config *cfg = ps->cfg;
	uint64_t mask[APP_CPUS_MAX / 64];
	int64_t ns;
	long v;

	if (!strcmp(key, "slot")) {
		if (app_parse_time(value, &ns) || ns < 100 * PF_NS_PER_US || ns > 10 * PF_NS_PER_SEC)
			return pf_ini_error(&ps->ini, ps->ini.line, "slot: bad duration '%s' %s, 100us..10s", value, TIME_HINT);
		cfg->slot_ns = ns;
		ps->slot_line = ps->ini.line;
	} else if (!strcmp(key, "cpus")) {
		if (app_parse_cpus(value, mask, PF_ARRAY_SIZE(mask)) || strlen(value) >= sizeof(cfg->cpus))
			return pf_ini_error(&ps->ini, ps->ini.line, "cpus: bad CPU list '%s' (like 1 or 0-3,6)", value);
		snprintf(cfg->cpus, sizeof(cfg->cpus), "%s", value);
	} else if (!strcmp(key, "ring")) {
		if (pf_parse_long(value, 64, 1 << 24, &v) || (v & (v - 1)))
			return pf_ini_error(&ps->ini, ps->ini.line, "ring: bad entry count '%s' (a power of two, 64..16777216)", value);
		cfg->ring_entries = (uint32_t)v;
	} else if (!strcmp(key, "logger_period")) {
		if (app_parse_time(value, &ns) || ns < PF_NS_PER_MS || ns > PF_NS_PER_SEC)
			return pf_ini_error(&ps->ini, ps->ini.line, "logger_period: bad duration '%s' %s, 1ms..1s", value, TIME_HINT);
		cfg->logger_period_ns = ns;
	} else if (!strcmp(key, "hist_bin")) {
		if (app_parse_time(value, &ns) || ns < 1 || ns > PF_NS_PER_SEC)
			return pf_ini_error(&ps->ini, ps->ini.line, "hist_bin: bad duration '%s' %s", value, TIME_HINT);
		cfg->hist_bin_ns = ns;
	} else if (!strcmp(key, "hist_bins")) {
		if (pf_parse_long(value, 1, 1000000, &v))
			return pf_ini_error(&ps->ini, ps->ini.line, "hist_bins: bad count '%s' (1..1000000)", value);
		cfg->hist_bins = (uint32_t)v;
	} else if (!strcmp(key, "dma_latency")) {
		if (app_parse_bool(value, &cfg->dma_latency))
			return pf_ini_error(&ps->ini, ps->ini.line, "dma_latency: bad boolean '%s' (true or false)", value);
	} else {
		return pf_ini_error(&ps->ini, ps->ini.line, "unknown key '%s' in [app]", key);
	}
	return 1;
}

/* app_task_section - the task a [task NAME] section names, added when new; NULL on error */
static struct app_task_cfg *app_task_section(struct app_parse *ps, const char *name)
{
	struct app_config *cfg = ps->cfg;
	struct app_task_cfg *t;

	if (!pf_task_name_valid(name)) {
		pf_ini_error(&ps->ini, ps->section_line, "bad task name '%s' (1-15 of A-Z a-z 0-9 _)", name);
		return NULL;
	}
	t = app_config_find(cfg, name);
	if (t)
		return t;
	if (cfg->ntasks == APP_MAX_TASKS) {
		pf_ini_error(&ps->ini, ps->section_line, "too many tasks (at most %d)", APP_MAX_TASKS);
		return NULL;
	}
	/* a new task: periodic every slot, SCHED_OTHER until told otherwise */
	t = &cfg->task[cfg->ntasks];
	app_task_default(t, name, APP_TASK_PERIODIC, APP_POLICY_OTHER, 0, 0, 0);
	ps->task_line[cfg->ntasks][LINE_SECTION] = ps->section_line;
	cfg->ntasks++;
	return t;
}

/* app_task_key - one key of [task NAME] */
static int app_task_key(struct app_parse *ps, const char *name, const char *key, const char *value)
{
	struct app_task_cfg *t = app_task_section(ps, name);
	uint64_t mask[APP_CPUS_MAX / 64];
	int *lines;
	int64_t ns;
	long v;
	size_t k;

	if (!t)
		return 0;
	lines = ps->task_line[t - ps->cfg->task];
	if (!lines[LINE_SECTION])
		lines[LINE_SECTION] = ps->section_line;
	if (!strcmp(key, "kind")) {
		for (k = 0; k < PF_ARRAY_SIZE(app_kind_names); k++)
			if (!strcmp(value, app_kind_names[k]))
				break;
		if (k == PF_ARRAY_SIZE(app_kind_names))
			return pf_ini_error(&ps->ini, ps->ini.line, "kind: unknown kind '%s' (tick, periodic, event, background)", value);
		t->kind = (enum app_task_kind)k;
		lines[LINE_KIND] = ps->ini.line;
	} else if (!strcmp(key, "policy")) {
		if (!strcmp(value, "fifo"))
			t->policy = APP_POLICY_FIFO;
		else if (!strcmp(value, "other"))
			t->policy = APP_POLICY_OTHER;
		else
			return pf_ini_error(&ps->ini, ps->ini.line, "policy: unknown policy '%s' (fifo or other)", value);
	} else if (!strcmp(key, "priority")) {
		if (pf_parse_long(value, 1, 99, &v))
			return pf_ini_error(&ps->ini, ps->ini.line, "priority: '%s' out of range (SCHED_FIFO 1..99)", value);
		t->priority = (int)v;
		t->policy = APP_POLICY_FIFO;
	} else if (!strcmp(key, "period") || !strcmp(key, "phase") || !strcmp(key, "event_period")) {
		if (app_parse_time(value, &ns))
			return pf_ini_error(&ps->ini, ps->ini.line, "%s: bad duration '%s' %s", key, value, TIME_HINT);
		if (key[1] == 'e') {
			t->period_ns = ns;
			lines[LINE_PERIOD] = ps->ini.line;
		} else if (key[1] == 'h') {
			t->phase_ns = ns;
			lines[LINE_PHASE] = ps->ini.line;
		} else {
			t->event_period_ns = ns;
			lines[LINE_EVENT] = ps->ini.line;
		}
	} else if (!strcmp(key, "deadline")) {
		if (app_parse_time(value, &ns) || ns <= 0)
			return pf_ini_error(&ps->ini, ps->ini.line, "deadline: bad duration '%s' %s", value, TIME_HINT);
		t->deadline_ns = ns;
	} else if (!strcmp(key, "work")) {
		if (app_parse_time(value, &ns) || ns > 100 * PF_NS_PER_SEC)
			return pf_ini_error(&ps->ini, ps->ini.line, "work: bad duration '%s' %s", value, TIME_HINT);
		t->work_ns = ns;
	} else if (!strcmp(key, "cpus")) {
		if (app_parse_cpus(value, mask, PF_ARRAY_SIZE(mask)) || strlen(value) >= sizeof(t->cpus))
			return pf_ini_error(&ps->ini, ps->ini.line, "cpus: bad CPU list '%s' (like 1 or 0-3,6)", value);
		snprintf(t->cpus, sizeof(t->cpus), "%s", value);
	} else if (!strcmp(key, "enabled")) {
		if (app_parse_bool(value, &t->enabled))
			return pf_ini_error(&ps->ini, ps->ini.line, "enabled: bad boolean '%s' (true or false)", value);
	} else {
		return pf_ini_error(&ps->ini, ps->ini.line, "unknown key '%s' in [task %s]", key, name);
	}
	return 1;
}

/* app_ini_handler - inih callback: route a key to [app], [task NAME] or a registered section */
static int app_ini_handler(void *user, const char *section, const char *key, const char *value)
{
	struct app_parse *ps = user;
	char msg[200] = "";
	size_t n;
	int i;

	if (ps->ini.failed)
		return 0;
	if (!strcmp(section, "app"))
		return app_app_key(ps, key, value);
	if (!strncmp(section, "task ", 5))
		return app_task_key(ps, section + 5, key, value);
	for (i = 0; i < app_nsections; i++) {
		n = strlen(app_sections[i].name);
		if (strcmp(section, app_sections[i].name) &&
		    !(n && app_sections[i].name[n - 1] == '*' && !strncmp(section, app_sections[i].name, n - 1)))
			continue;
		if (app_sections[i].fn(app_sections[i].user, section, key, value, msg, sizeof(msg)))
			return pf_ini_error(&ps->ini, ps->ini.line, "%s", msg[0] ? msg : "bad value");
		return 1;
	}
	if (!*section)
		return pf_ini_error(&ps->ini, ps->ini.line, "key '%s' outside any section", key);
	return pf_ini_error(&ps->ini, ps->section_line, "unknown section [%s]", section);
}

/* app_on_line - remember where the current section began */
static void app_on_line(void *user, char *line)
{
	struct app_parse *ps = user;

	while (*line == ' ' || *line == '\t')
		line++;
	if (*line == '[')
		ps->section_line = ps->ini.line;
}

/* app_is_multiple - a value that is a whole number (>= min) of slots */
static bool app_is_multiple(int64_t ns, int64_t slot_ns, int64_t min_slots)
{
	return ns >= min_slots * slot_ns && ns % slot_ns == 0;
}

/* app_parse_check - checks over the whole file, pointing at the line that set the value */
static int app_parse_check(struct app_parse *ps)
{
	struct app_config *cfg = ps->cfg;
	int i, *lines, line;
	struct app_task_cfg *t;

	for (i = 0; i < cfg->ntasks; i++) {
		t = &cfg->task[i];
		lines = ps->task_line[i];
		/* blame the line that set the period, else the slot, else the section */
		line = lines[LINE_PERIOD] ? lines[LINE_PERIOD] : ps->slot_line ? ps->slot_line : lines[LINE_SECTION];
		if (!line)
			continue;	/* untouched built-in row over the built-in slot */
		if (!t->enabled)
			continue;
		if (t->kind == APP_TASK_TICK && lines[LINE_PERIOD] && t->period_ns != cfg->slot_ns)
			return pf_ini_error(&ps->ini, line, "task %s: a tick task's period must be the slot (%lld ns)",
					t->name, (long long)cfg->slot_ns);
		if (t->kind == APP_TASK_TICK || (t->kind == APP_TASK_PERIODIC && !t->period_ns && !lines[LINE_PERIOD]))
			t->period_ns = cfg->slot_ns;	/* a new periodic task runs every slot unless told */
		if ((t->kind == APP_TASK_PERIODIC) && !app_is_multiple(t->period_ns, cfg->slot_ns, 1))
			return pf_ini_error(&ps->ini, line, "task %s: period %lld ns is not a multiple of the slot (%lld ns)",
					t->name, (long long)t->period_ns, (long long)cfg->slot_ns);
		line = lines[LINE_PHASE] ? lines[LINE_PHASE] : line;
		if (t->phase_ns && !app_is_multiple(t->phase_ns, cfg->slot_ns, 0))
			return pf_ini_error(&ps->ini, line, "task %s: phase %lld ns is not a multiple of the slot (%lld ns)",
					t->name, (long long)t->phase_ns, (long long)cfg->slot_ns);
		line = lines[LINE_EVENT] ? lines[LINE_EVENT] : line;
		if (t->event_period_ns && !app_is_multiple(t->event_period_ns, cfg->slot_ns, 1))
			return pf_ini_error(&ps->ini, line, "task %s: event_period %lld ns is not a multiple of the slot (%lld ns)",
					t->name, (long long)t->event_period_ns, (long long)cfg->slot_ns);
		line = lines[LINE_SECTION] ? lines[LINE_SECTION] : line;
		if (t->policy == APP_POLICY_FIFO && (t->priority < 1 || t->priority > 99))
			return pf_ini_error(&ps->ini, line, "task %s: policy fifo needs a priority 1..99", t->name);
		if (t->policy == APP_POLICY_OTHER)
			t->priority = 0;
		if (t->kind == APP_TASK_EVENT || t->kind == APP_TASK_BACKGROUND)
			t->period_ns = t->kind == APP_TASK_BACKGROUND ? t->period_ns : 0;
	}
	return 0;
}

/* app_config_parse - run inih over ps->ini (a file or a string), then the whole-file checks */
static int app_config_parse(struct app_config *cfg, struct app_parse *ps, char *err, size_t err_size)
{
	int ret;

	ps->cfg = cfg;
	ps->ini.err = err;
	ps->ini.err_size = err_size;
	ps->ini.syntax = "syntax error (expected [section] or key = value)";
	ps->ini.on_line = app_on_line;
	ret = pf_ini_parse(&ps->ini, app_ini_handler, ps);
	if (!ret)
		app_parse_check(ps);
	if (ret < 0 && ret != -EINVAL)
		return ret;	/* unreadable: "file: why" */
	return ps->ini.failed ? -EINVAL : 0;
}

int app_config_load(struct app_config *cfg, const char *path, char *err, size_t err_size)
{
	struct app_parse *ps = calloc(1, sizeof(*ps));
	int ret;

	if (!ps)
		return -ENOMEM;
	ps->ini.file = path;
	ret = app_config_parse(cfg, ps, err, err_size);
	if (!ret)
		snprintf(cfg->source, sizeof(cfg->source), "%s", path);
	free(ps);
	return ret;
}

int app_config_load_string(struct app_config *cfg, const char *name, const char *text,
			   char *err, size_t err_size)
{
	struct app_parse *ps = calloc(1, sizeof(*ps));
	int ret;

	if (!ps)
		return -ENOMEM;
	ps->ini.file = name;
	ps->ini.text = text;
	ret = app_config_parse(cfg, ps, err, err_size);
	free(ps);
	return ret;
}

int app_config_check(const struct app_config *cfg, char *err, size_t err_size)
{
	int i, ticks = 0, enabled = 0;
	const struct app_task_cfg *t;

	for (i = 0; i < cfg->ntasks; i++) {
		t = &cfg->task[i];
		if (!t->enabled)
			continue;
		enabled++;
		if (t->kind == APP_TASK_TICK)
			ticks++;
		if (t->kind == APP_TASK_BACKGROUND && strcmp(t->name, "logger") && t->period_ns <= 0) {
			snprintf(err, err_size, "%s: task %s: a background task needs a period", cfg->source, t->name);
			return -EINVAL;
		}
	}
	if (ticks != 1) {
		snprintf(err, err_size, "%s: %d enabled tick tasks: exactly one task must be of kind tick",
			 cfg->source, ticks);
		return -EINVAL;
	}
	return enabled > 0 ? 0 : -EINVAL;
}

int64_t app_cfg_deadline_ns(const struct app_task_cfg *t)
{
	if (t->deadline_ns)
		return t->deadline_ns;
	return t->kind == APP_TASK_EVENT ? t->event_period_ns : t->period_ns;
}
