/*
 * scenario.c - the scenario parser (inih) and lookups of effective
 * parameters. See scenario.h and docs/scenarios.md.
 *
 * inih is driven through the one INI line reader of lib/ini.h, which counts
 * lines, so that every message, including the checks done after a section
 * ends, carries the line it is about.
 */
#include "scenario.h"
#include "common.h"
#include "datafile.h"
#include "ini.h"
#include "loads/load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct scn_parser {
	struct scn *scn;
	struct pf_ini ini;		/* file name, line last read, first error */
	char section[64];
	struct scn_phase *phase;	/* current [phase] section, or NULL */
	const char *owner;		/* current [load X] / [cyclictest] / [flightapp] owner */
};

static int scn_section(struct scn_parser *ps, const char *section);

/* Keys of the measurement sections and "cyclictest." / "flightapp." phase overrides. */
static const char *const scn_cyclictest_keys[] = { "interval", "priority", "histogram", "threads", "trace", "trigger",
						     "max_snapshots", NULL };
static const char *const scn_flightapp_keys[] = { "profile", "config", "trace", "trigger", "max_snapshots", "wakeups",
						    "switches", "sim", "args", "sim_args", NULL };

const char *scn_measure_name(enum scn_measure m)
{
	static const char *const names[] = { "none", "cyclictest", "flightapp" };

	return names[m];
}

/*
 * scn_on_line - sees section headers before inih does, so that a [phase]
 * is known (with its line) even before its first key
 */
static void scn_on_line(void *user, char *r)
{
	struct scn_parser *ps = user;
	char *p, *end, name[64];

	for (p = r; *p == ' ' || *p == '\t'; p++)
		;
	if (*p == '[' && (end = strchr(p, ']')) && !ps->ini.failed) {
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		snprintf(name, sizeof(name), "%.*s", (int)(end - p), p);
		scn_section(ps, name);	/* even the same name again: a duplicate is an error */
	}
}

/* scn_known - true when key is in the NULL-terminated list */
static bool scn_known(const char *const *keys, const char *key)
{
	for (; *keys; keys++)
		if (!strcmp(*keys, key))
			return true;
	return false;
}

/*
 * scn_trace_key - a measurement's tracing keys, the same for flightapp and
 * cyclictest: trace (full, flight, off), trigger (a latency), max_snapshots;
 * 1, or the error
 */
static int scn_trace_key(struct scn_parser *ps, const char *owner, const char *key, const char *value)
{
	int64_t ns;
	long v;

	if (!strcmp(key, "trace") && strcmp(value, "full") && strcmp(value, "flight") && strcmp(value, "off"))
		return pf_ini_error(&ps->ini, ps->ini.line, "%s.trace: '%s': expected full, flight or off", owner,
				    value);
	if (!strcmp(key, "trigger") && (pf_parse_duration_ns(value, PF_NS_PER_US, &ns) || ns <= 0))
		return pf_ini_error(&ps->ini, ps->ini.line, "%s.trigger: '%s': expected a latency (62us)", owner,
				    value);
	if (!strcmp(key, "max_snapshots") && pf_parse_long(value, 1, 10000, &v))
		return pf_ini_error(&ps->ini, ps->ini.line, "%s.max_snapshots: '%s': expected 1..10000", owner,
				    value);
	return 1;
}

/* scn_check_param - validate owner.key = value: a load's own parser, or the measurement keys */
static int scn_check_param(struct scn_parser *ps, const char *owner, const char *key,
			      const char *value)
{
	const struct load_ops *ops = load_find(owner);
	struct load l;
	int64_t ns;
	long v;
	int ret;

	if (!strcmp(owner, "cyclictest")) {
		if (!scn_known(scn_cyclictest_keys, key))
			return pf_ini_error(&ps->ini, ps->ini.line, "cyclictest: '%s': unknown parameter (%s)", key,
					    "interval, priority, histogram, threads, trace, trigger, max_snapshots");
		if (!strcmp(key, "trace") || !strcmp(key, "trigger") || !strcmp(key, "max_snapshots"))
			return scn_trace_key(ps, owner, key, value);
		if (!strcmp(key, "interval") ? pf_parse_duration_ns(value, PF_NS_PER_US, &ns) || ns < 50000 :
		    !strcmp(key, "priority") ? pf_parse_long(value, 1, 99, &v) :
		    !strcmp(key, "histogram") ? pf_parse_long(value, 10, 1000000, &v) :
		    strcmp(value, "smp") && pf_parse_long(value, 1, 1024, &v))
			return pf_ini_error(&ps->ini, ps->ini.line, "cyclictest.%s: '%s': bad value", key, value);
		return 1;
	}
	if (!strcmp(owner, "flightapp")) {
		if (!scn_known(scn_flightapp_keys, key))
			return pf_ini_error(&ps->ini, ps->ini.line, "flightapp: '%s': unknown parameter (%s)", key,
					    "profile, config, trace, trigger, max_snapshots, wakeups, switches, sim, args, "
					    "sim_args");
		if (!strcmp(key, "trace") || !strcmp(key, "trigger") || !strcmp(key, "max_snapshots"))
			return scn_trace_key(ps, owner, key, value);
		if (!strcmp(key, "wakeups") && strcmp(value, "rt") && strcmp(value, "all"))
			return pf_ini_error(&ps->ini, ps->ini.line, "flightapp.wakeups: '%s': expected rt or all", value);
		if (!strcmp(key, "switches") && strcmp(value, "rt") && strcmp(value, "all"))
			return pf_ini_error(&ps->ini, ps->ini.line, "flightapp.switches: '%s': expected rt or all", value);
		if (!strcmp(key, "sim") && strcmp(value, "yes") && strcmp(value, "no"))
			return pf_ini_error(&ps->ini, ps->ini.line, "flightapp.sim: '%s': expected yes or no", value);
		return 1;
	}
	if (!ops)
		return pf_ini_error(&ps->ini, ps->ini.line, "'%s': no such load (%s)", owner, load_names());
	if (load_init(&l, ops, NULL) < 0)
		return pf_ini_error(&ps->ini, ps->ini.line, "out of memory");
	ret = load_set(&l, key, value);
	load_free(&l);
	if (ret == -ENOENT)
		return pf_ini_error(&ps->ini, ps->ini.line, "%s: '%s': unknown parameter (see 'preflight load --list')",
				    owner, key);
	if (ret < 0)
		return pf_ini_error(&ps->ini, ps->ini.line, "%s.%s: '%s': bad value", owner, key, value);
	return 1;
}

/* scn_add_kv - append a checked parameter to a section's list */
static int scn_add_kv(struct scn_parser *ps, struct scn_kv *kv, int *n, const char *owner,
			 const char *key, const char *value)
{
	if (*n >= SCN_MAX_KV)
		return pf_ini_error(&ps->ini, ps->ini.line, "more than %d parameters in one section", SCN_MAX_KV);
	if (strlen(key) >= sizeof(kv->key) || strlen(value) >= sizeof(kv->value))
		return pf_ini_error(&ps->ini, ps->ini.line, "'%s': name or value too long", key);
	if (!scn_check_param(ps, owner, key, value))
		return 0;
	snprintf(kv[*n].owner, sizeof(kv[*n].owner), "%s", owner);
	snprintf(kv[*n].key, sizeof(kv[*n].key), "%s", key);
	snprintf(kv[*n].value, sizeof(kv[*n].value), "%s", value);
	kv[*n].line = ps->ini.line;
	(*n)++;
	return 1;
}

/* scn_end_phase - checks of a finished [phase] section */
static int scn_end_phase(struct scn_parser *ps)
{
	struct scn_phase *p = ps->phase;

	ps->phase = NULL;
	if (p && !p->duration_ns)
		return pf_ini_error(&ps->ini, p->line, "phase '%s': no duration", p->name);
	return 1;
}

/* scn_section - a new section header: [scenario], [phase NAME], [load NAME], [cyclictest], [flightapp] */
static int scn_section(struct scn_parser *ps, const char *section)
{
	struct scn *scn = ps->scn;
	int i;

	if (!scn_end_phase(ps))
		return 0;
	snprintf(ps->section, sizeof(ps->section), "%s", section);
	ps->owner = NULL;
	if (!strcmp(section, "scenario"))
		return 1;
	if (!strcmp(section, "cyclictest") || !strcmp(section, "flightapp")) {
		ps->owner = !strcmp(section, "cyclictest") ? "cyclictest" : "flightapp";
		return 1;
	}
	if (!strncmp(section, "load ", 5)) {
		const struct load_ops *ops = load_find(section + 5);

		if (!ops)
			return pf_ini_error(&ps->ini, ps->ini.line, "[%s]: no such load (%s)", section, load_names());
		ps->owner = ops->name;
		return 1;
	}
	if (!strncmp(section, "phase ", 6) && section[6]) {
		struct scn_phase *p;

		if (scn->nphases >= SCN_MAX_PHASES)
			return pf_ini_error(&ps->ini, ps->ini.line, "more than %d phases", SCN_MAX_PHASES);
		for (i = 0; i < scn->nphases; i++)
			if (!strcmp(scn->phases[i].name, section + 6))
				return pf_ini_error(&ps->ini, ps->ini.line, "phase '%s' defined twice (line %d)",
						    section + 6, scn->phases[i].line);
		if (strlen(section + 6) >= sizeof(p->name) || strpbrk(section + 6, "/ \t"))
			return pf_ini_error(&ps->ini, ps->ini.line, "phase '%s': name too long or with '/' or blanks",
					    section + 6);
		p = &scn->phases[scn->nphases++];
		snprintf(p->name, sizeof(p->name), "%s", section + 6);
		p->line = ps->ini.line;
		p->measure = SCN_NONE;
		ps->phase = p;
		return 1;
	}
	return pf_ini_error(&ps->ini, ps->ini.line,
			    "[%s]: unknown section (scenario, phase NAME, load NAME, cyclictest, flightapp)", section);
}

/* scn_phase_loads - "loads = wifi sd ..." of a phase */
static int scn_phase_loads(struct scn_parser *ps, struct scn_phase *p, const char *value)
{
	char buf[256], *save = NULL, *name;
	int i;

	snprintf(buf, sizeof(buf), "%s", value);
	for (name = strtok_r(buf, " ,\t", &save); name; name = strtok_r(NULL, " ,\t", &save)) {
		const struct load_ops *ops = load_find(name);

		if (!ops)
			return pf_ini_error(&ps->ini, ps->ini.line, "loads: '%s': no such load (%s)", name, load_names());
		for (i = 0; i < p->nloads; i++)
			if (!strcmp(p->loads[i], name))
				return pf_ini_error(&ps->ini, ps->ini.line, "loads: '%s' listed twice", name);
		if (p->nloads >= SCN_MAX_LOADS)
			return pf_ini_error(&ps->ini, ps->ini.line, "loads: more than %d", SCN_MAX_LOADS);
		snprintf(p->loads[p->nloads++], sizeof(p->loads[0]), "%s", ops->name);
	}
	return 1;
}

/* scn_phase_key - one key of a [phase] section */
static int scn_phase_key(struct scn_parser *ps, struct scn_phase *p, const char *name,
			    const char *value)
{
	char owner[32];
	const char *dot;

	if (!strcmp(name, "duration")) {
		if (pf_parse_duration_ns(value, PF_NS_PER_SEC, &p->duration_ns) || p->duration_ns < PF_NS_PER_SEC)
			return pf_ini_error(&ps->ini, ps->ini.line, "duration: '%s': expected a time of at least 1s (30s, 5min, 1h)",
					    value);
		return 1;
	}
	if (!strcmp(name, "measure")) {
		if (!strcmp(value, "cyclictest"))
			p->measure = SCN_CYCLICTEST;
		else if (!strcmp(value, "flightapp"))
			p->measure = SCN_FLIGHTAPP;
		else if (!strcmp(value, "none"))
			p->measure = SCN_NONE;
		else
			return pf_ini_error(&ps->ini, ps->ini.line, "measure: '%s': expected cyclictest, flightapp or none",
					    value);
		return 1;
	}
	if (!strcmp(name, "loads"))
		return scn_phase_loads(ps, p, value);
	dot = strchr(name, '.');
	if (!dot || dot == name || (size_t)(dot - name) >= sizeof(owner))
		return pf_ini_error(&ps->ini, ps->ini.line, "'%s': unknown key (duration, measure, loads, <load>.<param>, "
				    "cyclictest.<param>, flightapp.<param>)", name);
	snprintf(owner, sizeof(owner), "%.*s", (int)(dot - name), name);
	if (!load_find(owner) && strcmp(owner, "cyclictest") && strcmp(owner, "flightapp"))
		return pf_ini_error(&ps->ini, ps->ini.line, "'%s': no such load or measurement", owner);
	return scn_add_kv(ps, p->kv, &p->nkv, load_find(owner) ? load_find(owner)->name : owner,
			     dot + 1, value);
}

/* scn_handler - inih callback: one "name = value" (or a new section) */
static int scn_handler(void *user, const char *section, const char *name, const char *value)
{
	struct scn_parser *ps = user;
	struct scn *scn = ps->scn;

	if (ps->ini.failed)
		return 0;
	if (!name)	/* a section header alone (inih calls with name NULL) */
		return strcmp(section, ps->section) ? scn_section(ps, section) : 1;
	if (strcmp(section, ps->section) && !scn_section(ps, section))
		return 0;
	if (!section[0])
		return pf_ini_error(&ps->ini, ps->ini.line, "'%s' outside a section", name);
	if (ps->phase)
		return scn_phase_key(ps, ps->phase, name, value);
	if (ps->owner)
		return scn_add_kv(ps, scn->defaults, &scn->ndefaults, ps->owner, name, value);
	/* [scenario] */
	if (!strcmp(name, "name"))
		return !load_parse_str(value, scn->name, sizeof(scn->name)) ? 1 :
		       pf_ini_error(&ps->ini, ps->ini.line, "name: too long");
	if (!strcmp(name, "description"))
		return !load_parse_str(value, scn->description, sizeof(scn->description)) ? 1 :
		       pf_ini_error(&ps->ini, ps->ini.line, "description: too long");
	if (!strcmp(name, "budgets")) {
		scn->budgets_line = ps->ini.line;
		return !load_parse_str(value, scn->budgets, sizeof(scn->budgets)) ? 1 :
		       pf_ini_error(&ps->ini, ps->ini.line, "budgets: too long");
	}
	return pf_ini_error(&ps->ini, ps->ini.line, "[scenario]: '%s': unknown key (name, description, budgets)", name);
}

int scn_load(struct scn *scn, const char *path)
{
	struct scn_parser ps = { .scn = scn };
	int ret;

	memset(scn, 0, sizeof(*scn));
	snprintf(scn->path, sizeof(scn->path), "%s", path);
	ps.ini = (struct pf_ini){ .file = scn->path, .err = scn->error, .err_size = sizeof(scn->error),
				  .syntax = "syntax error (expected [section] or name = value)",
				  .on_line = scn_on_line };
	ret = pf_ini_parse(&ps.ini, scn_handler, &ps);
	if (ret < 0 && ret != -EINVAL)
		return ret;	/* unreadable: "file: why" */
	if (!ps.ini.failed)
		scn_end_phase(&ps);
	if (!ps.ini.failed && !scn->nphases)
		pf_ini_error(&ps.ini, ps.ini.line, "no [phase NAME] section");
	if (ps.ini.failed)
		return -EINVAL;
	if (!scn->name[0]) {
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

		snprintf(scn->name, sizeof(scn->name), "%.*s", (int)strcspn(base, "."), base);
	}
	return 0;
}

int scn_resolve(const char *name_or_path, char *path, int size)
{
	char name[512];

	if (strchr(name_or_path, '/') || strstr(name_or_path, ".ini")) {
		snprintf(path, size, "%s", name_or_path);
		return access(path, R_OK) ? -ENOENT : 0;
	}
	if (snprintf(name, sizeof(name), "scenarios/%s.ini", name_or_path) >= (int)sizeof(name)) {
		snprintf(path, size, "name too long");
		return -ENOENT;
	}
	return pf_datafile(name, path, (size_t)size);
}

int scn_params(const struct scn *scn, const struct scn_phase *p, const char *owner,
		  const struct scn_kv **out, int max)
{
	int i, n = 0;

	for (i = 0; i < scn->ndefaults && n < max; i++)
		if (!strcmp(scn->defaults[i].owner, owner))
			out[n++] = &scn->defaults[i];
	for (i = 0; p && i < p->nkv && n < max; i++)
		if (!strcmp(p->kv[i].owner, owner))
			out[n++] = &p->kv[i];
	return n;
}

const struct scn_kv *scn_param_kv(const struct scn *scn, const struct scn_phase *p, const char *owner,
				  const char *key)
{
	const struct scn_kv *kv[2 * SCN_MAX_KV], *found = NULL;
	int i, n = scn_params(scn, p, owner, kv, (int)PF_ARRAY_SIZE(kv));

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i]->key, key))
			found = kv[i];
	return found;
}

const char *scn_param(const struct scn *scn, const struct scn_phase *p, const char *owner,
			 const char *key, const char *fallback)
{
	const struct scn_kv *kv = scn_param_kv(scn, p, owner, key);

	return kv ? kv->value : fallback;
}

int64_t scn_total_ns(const struct scn *scn)
{
	int64_t total = 0;
	int i;

	for (i = 0; i < scn->nphases; i++)
		total += scn->phases[i].duration_ns;
	return total;
}
