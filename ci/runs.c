/*
 * runs.c - read a run directory into identity fields and run-level metrics
 * (runs.h). The metric list is the one of docs/ci.md: per task activation
 * latency and response time p50 / p99 / p99.9 / max, execution time p50 /
 * p99 and the counts; the app's utilisation; lost events; cyclictest per CPU.
 * A member that is null or absent gives no metric: compare reports it as
 * missing rather than inventing a zero.
 */
#define _GNU_SOURCE
#include "ci/runs.h"
#include "common.h"
#include "results_keys.h"

#include <errno.h>
#include <fnmatch.h>
#include <jansson.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CI_RESULTS_SCHEMA "preflight-results/1"

const char *const ci_kind_name[] = { "percentile", "max", "count", "value", "tail" };

const char *const ci_ident_name[CI_NIDENT] = {
	"board", "kernel_release", "config_hash", "isolation", "scenario",
	"scenario_hash", "results_schema", "preflight_version",
};

/* A new kernel (release, config) or a new preflight on the same board and scenario is what CI compares. */
const bool ci_ident_must_match[CI_NIDENT] = {
	[CI_ID_BOARD] = true, [CI_ID_ISOLATION] = true, [CI_ID_SCENARIO] = true,
	[CI_ID_SCENARIO_HASH] = true, [CI_ID_SCHEMA] = true,
};

/* the percentiles and statistics taken from each distribution */
static const struct {
	const char *stat;
	enum ci_kind kind;
	double q;
} ci_stats_lat[] = {
	{ "p50", CI_PCT, 0.50 }, { "p99", CI_PCT, 0.99 }, { "p99.9", CI_PCT, 0.999 }, { "max", CI_MAX, 1 },
};

void ci_hash_hex(const void *data, size_t len, char out[17])
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

void ci_run_key(const struct ci_run *run, char out[64])
{
	char *text, hex[17];

	if (run->uuid[0]) {
		snprintf(out, 64, "%s", run->uuid);
		return;
	}
	text = json_dumps(run->results, JSON_SORT_KEYS | JSON_COMPACT);
	ci_hash_hex(text ? text : "", text ? strlen(text) : 0, hex);
	free(text);
	snprintf(out, 64, "results-%s", hex);
}

int ci_runs_distinct(const struct ci_run *runs, size_t n)
{
	char a[64], b[64];

	for (size_t i = 1; i < n; i++) {
		ci_run_key(&runs[i], a);
		for (size_t k = 0; k < i; k++) {
			ci_run_key(&runs[k], b);
			if (!strcmp(a, b))
				return pf_fail(PF_EXIT_USAGE, "%s: the same run as %s (%s): a run counts once",
					       runs[i].path, runs[k].path, a);
		}
	}
	return 0;
}

int ci_ident_index(const char *name)
{
	for (int i = 0; i < CI_NIDENT; i++)
		if (!strcmp(ci_ident_name[i], name))
			return i;
	return -1;
}

/* ci_add - append one metric; 0 or -ENOMEM */
static int ci_add(struct ci_run *run, const char *subject, const char *metric, const char *stat,
		  enum ci_kind kind, double q, double value, const char *unit, const json_t *dist)
{
	struct ci_metric *m;
	char old[160];

	if (pf_grow(&run->m, &run->cap, run->n, sizeof(*run->m), 64))
		return -ENOMEM;
	m = &run->m[run->n++];
	memset(m, 0, sizeof(*m));
	snprintf(m->subject, sizeof(m->subject), "%s", subject);
	snprintf(m->metric, sizeof(m->metric), "%s", metric);
	snprintf(m->stat, sizeof(m->stat), "%s", stat);
	snprintf(old, sizeof(old), "%s.%s.%s", subject, metric, stat);
	pf_metric_path(old, m->key, sizeof(m->key));	/* the one name: results.json's path */
	m->kind = kind;
	m->q = q;
	m->value = value;
	m->unit = unit;
	m->dist = dist;
	if (dist) {
		m->samples = (uint64_t)json_integer_value(json_object_get(dist, "count"));
		m->bin_width_ns = json_integer_value(json_object_get(dist, "bin_width"));
	}
	return 0;
}

/* ci_add_dist - the percentiles and max of a distribution object (none when it is null or empty) */
static int ci_add_dist(struct ci_run *run, const char *subject, const char *metric,
		       const json_t *dist, size_t nstats)
{
	if (!json_is_object(dist) || json_integer_value(json_object_get(dist, "count")) <= 0)
		return 0;
	for (size_t i = 0; i < nstats; i++) {
		json_t *v = json_object_get(dist, ci_stats_lat[i].stat);

		if (json_is_number(v) &&
		    ci_add(run, subject, metric, ci_stats_lat[i].stat, ci_stats_lat[i].kind,
			   ci_stats_lat[i].q, json_number_value(v), "ns", dist))
			return -ENOMEM;
	}
	return 0;
}

/* ci_add_num - one number of an object (nothing when absent or null) */
static int ci_add_num(struct ci_run *run, const char *subject, const char *metric, const char *stat,
		      enum ci_kind kind, const char *unit, const json_t *obj, const char *member)
{
	json_t *v = json_object_get(obj, member);

	if (!json_is_number(v))
		return 0;
	return ci_add(run, subject, metric, stat, kind, 0, json_number_value(v), unit, NULL);
}

/*
 * ci_add_tail - the fitted 1e-6 level of one tail object (docs/results.md)
 * with its interval, or why there is none; nothing for a series without a
 * tail object; 0 or -ENOMEM
 */
static int ci_add_tail(struct ci_run *run, const char *task, const char *series, const json_t *tails)
{
	char member[48];
	json_t *t, *lv, *ci;
	struct ci_tail *x;

	snprintf(member, sizeof(member), "%s_ns", series);
	t = json_object_get(tails, member);
	if (!json_is_object(t))
		return 0;
	if (pf_grow(&run->tail, &run->tailcap, run->ntail, sizeof(*run->tail), 8))
		return -ENOMEM;
	x = &run->tail[run->ntail++];
	memset(x, 0, sizeof(*x));
	snprintf(x->key, sizeof(x->key), "tasks.%s.tail.%s.pwcet(%s)", task, member, CI_TAIL_PKEY);
	snprintf(x->subject, sizeof(x->subject), "%s", task);
	snprintf(x->series, sizeof(x->series), "%s", series);
	x->samples = (uint64_t)json_integer_value(json_object_get(t, "count"));
	lv = json_object_get(json_object_get(t, "pwcet_ns"), CI_TAIL_PKEY);
	ci = json_object_get(lv, "ci");
	x->level_ns = json_number_value(json_object_get(lv, "value"));
	x->lo_ns = json_number_value(json_array_get(ci, 0));
	x->hi_ns = json_number_value(json_array_get(ci, 1));
	x->model = json_is_true(json_object_get(t, "assumptions_hold")) && json_is_number(json_object_get(lv, "value")) &&
		   json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1)) &&
		   x->lo_ns <= x->level_ns && x->level_ns <= x->hi_ns;
	if (!x->model)
		x->why = json_string_value(json_object_get(t, "reason")) ?:
			 (json_is_true(json_object_get(t, "assumptions_hold")) ?
			  "the model gives no finite " CI_TAIL_PKEY " level with its interval" : "no tail model");
	return 0;
}

/* ci_metrics - every metric of docs/ci.md found in results.json; 0 or -ENOMEM */
static int ci_metrics(struct ci_run *run)
{
	json_t *r = run->results, *t, *app, *ct;
	size_t i;

	json_array_foreach(json_object_get(r, "tasks"), i, t) {
		const char *name = json_string_value(json_object_get(t, "name"));

		if (!name)
			continue;
		if (ci_add_dist(run, name, "activation_latency", json_object_get(t, "activation_latency_ns"), 4) ||
		    ci_add_dist(run, name, "response_time", json_object_get(t, "response_time_ns"), 4) ||
		    ci_add_dist(run, name, "exec_time", json_object_get(t, "exec_time_ns"), 2) ||
		    ci_add_num(run, name, "overruns", "count", CI_COUNT, "count", t, "overruns") ||
		    ci_add_num(run, name, "deadline_misses", "count", CI_COUNT, "count", t, "deadline_misses") ||
		    ci_add_num(run, name, "missed_activations", "count", CI_COUNT, "count", t, "missed_activations") ||
		    ci_add_num(run, name, "dropped_joblog_rows", "count", CI_COUNT, "count",
			       json_object_get(t, "joblog"), "dropped") ||
		    ci_add_tail(run, name, "activation_latency", json_object_get(t, "tail")) ||
		    ci_add_tail(run, name, "response_time", json_object_get(t, "tail")))
			return -ENOMEM;
	}
	app = json_object_get(r, "app");
	if (ci_add_num(run, "app", "utilisation", "run", CI_VALUE, "fraction", app, "utilisation") ||
	    ci_add_num(run, "app", "utilisation", "max_1s", CI_VALUE, "fraction", app, "utilisation_max_1s") ||
	    ci_add_num(run, "app", "slot_overruns", "count", CI_COUNT, "count", json_object_get(r, "slots"), "overruns") ||
	    ci_add_num(run, "run", "lost_events", "count", CI_COUNT, "count", json_object_get(r, "lost_events"), "total"))
		return -ENOMEM;
	json_array_foreach(json_object_get(json_object_get(r, "cyclictest"), "threads"), i, ct) {
		json_t *cpu = json_object_get(ct, "cpu");
		char subject[32];

		if (json_is_integer(cpu))
			snprintf(subject, sizeof(subject), "cpu%lld", (long long)json_integer_value(cpu));
		else
			snprintf(subject, sizeof(subject), "thread%zu", i);
		if (ci_add_dist(run, subject, "cyclictest_latency", json_object_get(ct, "latency_ns"), 4))
			return -ENOMEM;
	}
	return 0;
}

/* ci_load_json - a JSON file, or NULL (missing is not an error: *missing is set) */
static json_t *ci_load_json(const char *path, int *missing)
{
	json_error_t je;
	json_t *j;

	*missing = 0;
	if (access(path, F_OK)) {
		*missing = 1;
		return NULL;
	}
	j = json_load_file(path, 0, &je);
	if (!j)
		pf_err("%s:%d: %s", path, je.line, je.text);
	return j;
}

/* ci_set - one identity field */
static void ci_set(struct ci_run *run, enum ci_ident f, const char *value)
{
	snprintf(run->ident[f], sizeof(run->ident[f]), "%s", value && *value ? value : "unknown");
}

/* ci_identity - the identity fields from sysinfo.json, run.json, scenario.ini and results.json */
static void ci_identity(struct ci_run *run, const char *dir, const json_t *sys, const json_t *rj)
{
	static const char *const iso_flags[] = { "isolcpus", "nohz_full", "rcu_nocbs", "irqaffinity" };
	json_t *kernel = json_object_get(sys, "kernel"), *flags = json_object_get(kernel, "cmdline_flags");
	const char *board = json_string_value(json_object_get(json_object_get(sys, "cpus"), "board"));
	char path[1200], hex[17], iso[256] = "", *text, *buf;
	size_t len = 0;
	FILE *f;

	ci_set(run, CI_ID_BOARD, board ? board : json_string_value(json_object_get(sys, "hostname")));
	ci_set(run, CI_ID_KERNEL, json_string_value(json_object_get(kernel, "release")));
	text = json_object_get(kernel, "config") ?
		json_dumps(json_object_get(kernel, "config"), JSON_SORT_KEYS | JSON_COMPACT) : NULL;
	if (text)
		ci_hash_hex(text, strlen(text), hex);
	ci_set(run, CI_ID_CONFIG, text ? hex : NULL);
	free(text);
	for (size_t i = 0; sys && i < PF_ARRAY_SIZE(iso_flags); i++) {
		const char *v = json_string_value(json_object_get(flags, iso_flags[i]));

		if (v)
			snprintf(iso + strlen(iso), sizeof(iso) - strlen(iso), "%s%s=%s",
				 *iso ? " " : "", iso_flags[i], v);
	}
	ci_set(run, CI_ID_ISOLATION, sys ? (*iso ? iso : "none") : NULL);
	ci_set(run, CI_ID_SCENARIO, json_string_value(json_object_get(json_object_get(rj, "scenario"), "name")));
	snprintf(path, sizeof(path), "%s/scenario.ini", dir);
	buf = NULL;
	f = fopen(path, "r");
	if (f) {
		FILE *mem = open_memstream(&buf, &len);
		char chunk[4096];
		size_t got;

		while (mem && (got = fread(chunk, 1, sizeof(chunk), f)) > 0)
			fwrite(chunk, 1, got, mem);
		if (mem)
			fclose(mem);
		fclose(f);
	}
	if (buf)
		ci_hash_hex(buf, len, hex);
	ci_set(run, CI_ID_SCENARIO_HASH, buf ? hex : NULL);
	free(buf);
	ci_set(run, CI_ID_SCHEMA, json_string_value(json_object_get(run->results, "schema")));
	ci_set(run, CI_ID_VERSION, json_string_value(json_object_get(run->results, "generator")));
}

int ci_run_load(const char *path, struct ci_run *run)
{
	char dir[1024], file[1200], *copy;
	json_t *sys = NULL, *rj = NULL;
	const char *schema;
	struct stat st;
	int missing, ret = PF_EXIT_USAGE;

	memset(run, 0, sizeof(*run));
	snprintf(run->path, sizeof(run->path), "%s", path);
	if (stat(path, &st))
		return pf_fail(PF_EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		snprintf(dir, sizeof(dir), "%s", path);
		snprintf(file, sizeof(file), "%s/results.json", path);
	} else {
		copy = strdup(path);
		if (!copy)
			return pf_fail(PF_EXIT_INTERNAL, "%s: %s", path, strerror(ENOMEM));
		snprintf(dir, sizeof(dir), "%s", dirname(copy));
		free(copy);
		snprintf(file, sizeof(file), "%s", path);
	}
	run->results = ci_load_json(file, &missing);
	if (!run->results) {
		if (missing)
			pf_err("%s: no results.json (not a run directory of 'preflight run')", path);
		return PF_EXIT_USAGE;
	}
	schema = json_string_value(json_object_get(run->results, "schema"));
	if (!schema || strcmp(schema, CI_RESULTS_SCHEMA)) {
		pf_err("%s: schema %s, expected %s", file, schema ? schema : "(none)", CI_RESULTS_SCHEMA);
		goto fail;
	}
	snprintf(file, sizeof(file), "%s/sysinfo.json", dir);
	sys = ci_load_json(file, &missing);
	if (!sys && !missing)
		goto fail;
	snprintf(file, sizeof(file), "%s/run.json", dir);
	rj = ci_load_json(file, &missing);
	if (!rj && !missing)
		goto fail;
	snprintf(run->uuid, sizeof(run->uuid), "%s",
		 json_string_value(json_object_get(rj, "uuid")) ? json_string_value(json_object_get(rj, "uuid")) : "");
	ci_identity(run, dir, sys, rj);
	if (ci_metrics(run)) {
		ret = pf_fail(PF_EXIT_INTERNAL, "%s: %s", path, strerror(ENOMEM));
		goto fail;
	}
	json_decref(sys);
	json_decref(rj);
	return 0;
fail:
	json_decref(sys);
	json_decref(rj);
	ci_run_free(run);
	return ret;
}

void ci_run_free(struct ci_run *run)
{
	json_decref(run->results);
	free(run->m);
	free(run->tail);
	run->results = NULL;
	run->m = NULL;
	run->tail = NULL;
	run->n = run->cap = 0;
	run->ntail = run->tailcap = 0;
}

bool ci_metric_glob(const char *glob, const char *key)
{
	char old[160];

	return !fnmatch(glob, key, 0) || (pf_metric_old_name(key, old, sizeof(old)) && !fnmatch(glob, old, 0));
}

const struct ci_metric *ci_run_find(const struct ci_run *run, const char *key)
{
	for (size_t i = 0; i < run->n; i++)
		if (!strcmp(run->m[i].key, key))
			return &run->m[i];
	return NULL;
}

const struct ci_tail *ci_run_tail(const struct ci_run *run, const char *key)
{
	for (size_t i = 0; i < run->ntail; i++)
		if (!strcmp(run->tail[i].key, key))
			return &run->tail[i];
	return NULL;
}
