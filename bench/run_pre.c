/*
 * run_pre.c - the pre-flight checks of `preflight run` (and `run --check`):
 * everything a run needs, checked before anything starts (the scenario's
 * programs and their options, the budgets, the loads' needs, the run
 * directory and its disk), each problem said once with what to do.
 */
#define _GNU_SOURCE
#include "jpath.h"
#include "loads/load.h"
#include "run.h"
#include "run_private.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

/* run_pre_error - a pre-flight check failed: one line on stderr; bad input (2) outranks environment (3) */
static void run_pre_error(struct run *r, int code, const char *fmt, ...) PF_PRINTF(3, 4);
static void run_pre_error(struct run *r, int code, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pf_err("%s", msg);
	if (!r->failure[0])
		snprintf(r->failure, sizeof(r->failure), "%s", msg);
	if (code == PF_EXIT_USAGE || !r->code)
		r->code = code;
}

/* run_pre_note - a pre-flight check passed: a line for run.log (and stdout with --check) */
static void run_pre_note(struct run *r, const char *fmt, ...) PF_PRINTF(2, 3);
static void run_pre_note(struct run *r, const char *fmt, ...)
{
	size_t len = strlen(r->notes);
	va_list ap;

	if (len + 2 >= sizeof(r->notes))
		return;
	va_start(ap, fmt);
	vsnprintf(r->notes + len, sizeof(r->notes) - len - 1, fmt, ap);
	va_end(ap);
	strcat(r->notes, "\n");
}

/* run_pre_child - the first stderr line of a preflight child without its "preflight: <command>: " prefix */
static const char *run_pre_child(const char *err)
{
	const char *p;

	if (strncmp(err, "preflight: ", 11))
		return err;
	p = strstr(err + 11, ": ");
	return p ? p + 2 : err + 11;
}

/*
 * run_pre_budgets - the budgets file: found (the scenario's 'budgets =' line
 * named when it is the scenario's) and valid, by asking `preflight check` to
 * judge an empty results.json against it (exit 2: bad budgets, file:line)
 */
static void run_pre_budgets(struct run *r)
{
	char src[PATH_MAX], where[700] = "", tmp[] = "/tmp/preflight-precheck.XXXXXX", err[600];
	static const char empty[] = "{\"schema\": \"preflight-results/1\"}\n";
	int fd, code;

	snprintf(src, sizeof(src), "%s", r->o->budgets ? r->o->budgets :
		 r->scn.budgets[0] ? r->scn.budgets : "budgets/seed.ini");
	if (!r->o->budgets && r->scn.budgets[0])
		snprintf(where, sizeof(where), "%s:%d: ", r->scn.path, r->scn.budgets_line);
	snprintf(r->budgets_src, sizeof(r->budgets_src), "%s", src);
	if (run_find_file(src, r->budgets, sizeof(r->budgets)) < 0) {
		run_pre_error(r, PF_EXIT_USAGE, "%sbudgets '%s': %s", where, src, r->budgets);
		r->budgets[0] = '\0';
		return;
	}
	if (!run_has_command(r, "check")) {
		run_pre_error(r, PF_EXIT_ENV, "'preflight check' is not in this build: no verdicts");
		return;
	}
	fd = mkstemp(tmp);
	if (fd < 0 || write(fd, empty, sizeof(empty) - 1) != (ssize_t)sizeof(empty) - 1) {
		run_pre_error(r, PF_EXIT_ENV, "%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd), unlink(tmp);
		return;
	}
	close(fd);
	code = pf_proc_runl(err, sizeof(err), r->self, "check", tmp, "--budgets", r->budgets, "-o", "/dev/null",
			    NULL);
	unlink(tmp);
	if (code == PF_EXIT_USAGE)
		run_pre_error(r, PF_EXIT_USAGE, "%sbudgets '%s': %s", where, src, run_pre_child(err));
	else if (code != PF_EXIT_OK && code != PF_EXIT_FAILED)
		run_pre_error(r, PF_EXIT_ENV, "budgets '%s': preflight check: %s", src, err);
	else
		run_pre_note(r, "pre-flight: budgets %s: ok", r->budgets);
}

/*
 * run_pre_compare - what the report is to compare the run with (--previous,
 * --baseline, --history) reads as the report will read it: a previous run's
 * verdicts.json, a baseline file, a history database (by `preflight history
 * verdicts`, which creates none); and there is a report to pass them to
 */
static void run_pre_compare(struct run *r)
{
	char path[PATH_MAX], why[PATH_MAX + 200], err[600];
	json_t *doc;
	int code;

	if (r->o->no_report && (r->o->previous || r->o->baseline || r->o->history)) {
		run_pre_error(r, PF_EXIT_USAGE, "--%s goes to the report: not with --no-report",
			      r->o->previous ? "previous" : r->o->baseline ? "baseline" : "history");
		return;
	}
	if (r->o->previous) {
		doc = pf_json_load_schema(run_path(path, sizeof(path), r->o->previous, "verdicts.json"),
					  "preflight-verdicts/1", why, sizeof(why));
		if (!doc)
			run_pre_error(r, PF_EXIT_USAGE, "--previous: %s", why);
		else
			run_pre_note(r, "pre-flight: --previous %s: ok", r->o->previous);
		json_decref(doc);
	}
	if (r->o->baseline) {
		doc = pf_json_load_schema(r->o->baseline, "preflight-baseline/1", why, sizeof(why));
		if (!doc)
			run_pre_error(r, PF_EXIT_USAGE, "--baseline: %s", why);
		else
			run_pre_note(r, "pre-flight: --baseline %s: ok", r->o->baseline);
		json_decref(doc);
	}
	if (r->o->history) {
		code = pf_proc_runl(err, sizeof(err), r->self, "history", "verdicts", "--db", r->o->history,
				    "--scenario", r->scn.name, "--last", "1", NULL);
		if (code)
			run_pre_error(r, code == PF_EXIT_ENV ? PF_EXIT_ENV : PF_EXIT_USAGE, "--history: %s%s%s",
				      strncmp(run_pre_child(err), r->o->history, strlen(r->o->history)) ? r->o->history : "",
				      strncmp(run_pre_child(err), r->o->history, strlen(r->o->history)) ? ": " : "",
				      run_pre_child(err));
		else
			run_pre_note(r, "pre-flight: --history %s: ok", r->o->history);
	}
}

/* run_pre_seen - true when this combination of scenario lines was checked already (else remember it) */
static bool run_pre_seen(struct run *r, const char *what, const struct scn_kv *const *kv, int n)
{
	char key[sizeof(r->seen[0])];
	int i, len;

	len = snprintf(key, sizeof(key), "%s", what);
	for (i = 0; i < n; i++)
		len += snprintf(key + len, sizeof(key) - (size_t)len, " %d", kv[i] ? kv[i]->line : 0);
	for (i = 0; i < r->nseen; i++)
		if (!strcmp(r->seen[i], key))
			return true;
	if (r->nseen < (int)PF_ARRAY_SIZE(r->seen))
		snprintf(r->seen[r->nseen++], sizeof(r->seen[0]), "%s", key);
	return false;
}

/*
 * run_pre_program - ask flightapp (keys profile, config, args) or sensorsim
 * (sim_args) of phase p to check them with --check, one key more at a time,
 * so that an error names the scenario line of the key that brought it
 */
static void run_pre_program(struct run *r, const struct scn_phase *p, const char *prog,
			       const char *const *keys, int nkeys)
{
	const struct scn_kv *kv[4] = { 0 };
	char exe[PATH_MAX], words[4][512], err[600];
	char *argv[96];
	int i, n = 0, code;

	n = run_argv(argv, 96, n, run_path(exe, sizeof(exe), r->bindir, prog));
	n = run_argv(argv, 96, n, "--check");
	for (i = 0; i < nkeys; i++) {
		kv[i] = scn_param_kv(&r->scn, p, "flightapp", keys[i]);
		if (!kv[i])
			continue;
		if (!strcmp(keys[i], "profile") || !strcmp(keys[i], "config")) {
			n = run_argv(argv, 96, n, !strcmp(keys[i], "profile") ? "--profile" : "--config");
			n = run_argv(argv, 96, n, kv[i]->value);
		} else {
			n = run_split(argv, 96, n, kv[i]->value, words[i], sizeof(words[i]));
		}
		if (run_pre_seen(r, prog, kv, i + 1))
			continue;
		code = pf_proc_run(argv, err, sizeof(err));
		if (code) {
			run_pre_error(r, code == PF_EXIT_USAGE ? PF_EXIT_USAGE : PF_EXIT_ENV, "%s:%d: flightapp.%s '%s': %s",
				      r->scn.path, kv[i]->line, keys[i], kv[i]->value, err);
			return;
		}
		run_pre_note(r, "pre-flight: phase %s: %s --check with flightapp.%s (line %d): ok", p->name, prog,
			     keys[i], kv[i]->line);
	}
}

/*
 * run_pre_bytes - about what phase p will write into the run directory at
 * most: trace, job log, cyclictest output, and the SD load's file (in the
 * phase's work directory unless sd.dir puts it elsewhere)
 */
static int64_t run_pre_bytes(struct run *r, const struct scn_phase *p)
{
	int64_t s = p->duration_ns / PF_NS_PER_SEC + 1, cpus = sysconf(_SC_NPROCESSORS_ONLN), bytes = 0;
	const char *trace = run_trace_mode(r, p);
	uint64_t sd_bytes;
	int64_t trace_bytes;
	int i;

	if (cpus < 1)
		cpus = 1;
	for (i = 0; i < p->nloads; i++)
		if (!strcmp(p->loads[i], "sd") && !scn_param(&r->scn, p, "sd", "dir", NULL) &&
		    !load_parse_bytes(scn_param(&r->scn, p, "sd", "file_size", RUN_SD_FILE_SIZE), &sd_bytes))
			bytes += (int64_t)sd_bytes;
	trace_bytes = !strcmp(trace, "full") ? s * cpus * RUN_TRACE_BYTES_PER_CPU_S :
		      !strcmp(trace, "flight") ? atoll(scn_param(&r->scn, p, run_measure_owner(p), "max_snapshots",
								 RUN_MAX_SNAPSHOTS)) * cpus * RUN_RECORD_BUFFER_BYTES : 0;
	if (p->measure == SCN_CYCLICTEST)
		return bytes + s * RUN_CYCLICTEST_BYTES_PER_S + trace_bytes;
	if (p->measure != SCN_FLIGHTAPP)
		return bytes;
	return bytes + s * RUN_JOBLOG_BYTES_PER_S + trace_bytes;
}

/*
 * run_pre_dir - the run directory can be made (empty if it exists; its
 * nearest existing parent writable) and its file system has room for what
 * the phases will write
 */
static void run_pre_dir(struct run *r)
{
	char parent[sizeof(r->dir)], *slash;
	struct statvfs vfs;
	struct stat st;
	int64_t need = 0, avail;
	int i;

	if (run_exists(r->dir)) {
		if (stat(r->dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
			run_pre_error(r, PF_EXIT_USAGE, "run directory '%s': not a directory", r->dir);
			return;
		}
		if (!run_dir_empty(r->dir))	/* never mix the evidence of two runs */
			run_pre_error(r, PF_EXIT_USAGE, "run directory '%s': not empty", r->dir);
		snprintf(parent, sizeof(parent), "%s", r->dir);
	} else {
		snprintf(parent, sizeof(parent), "%s", r->dir);
		do {
			slash = strrchr(parent, '/');
			if (!slash)
				snprintf(parent, sizeof(parent), ".");
			else
				*(slash == parent ? slash + 1 : slash) = '\0';
		} while (!run_exists(parent) && strcmp(parent, ".") && strcmp(parent, "/"));
	}
	if (access(parent, W_OK | X_OK)) {
		run_pre_error(r, PF_EXIT_ENV, "run directory '%s': cannot be written in '%s': %s", r->dir, parent,
			      strerror(errno));
		return;
	}
	for (i = 0; i < r->scn.nphases; i++)
		need += run_pre_bytes(r, &r->scn.phases[i]);
	if (statvfs(parent, &vfs))
		return;
	avail = (int64_t)vfs.f_bavail * (int64_t)vfs.f_frsize;
	if (avail < need)
		run_pre_error(r, PF_EXIT_ENV, "run directory '%s': %lld MiB free, the planned trace and logs need "
			      "about %lld MiB", r->dir, (long long)(avail >> 20), (long long)(need >> 20));
	else
		run_pre_note(r, "pre-flight: disk: about %lld MiB planned, %lld MiB free in %s", (long long)(need >> 20),
			     (long long)(avail >> 20), parent);
}

/* run_pre_loads - every load of phase p can start here (tools, privileges, parameters together) */
static void run_pre_loads(struct run *r, const struct scn_phase *p)
{
	int j, k;

	for (j = 0; j < p->nloads; j++) {
		const struct scn_kv *kv[2 * SCN_MAX_KV];
		const struct load_ops *ops = load_find(p->loads[j]);
		struct load l;
		int nkv = scn_params(&r->scn, p, ops->name, kv, (int)PF_ARRAY_SIZE(kv)), ret = 0;

		if (load_init(&l, ops, NULL) < 0) {
			run_pre_error(r, PF_EXIT_INTERNAL, "out of memory");
			return;
		}
		for (k = 0; k < nkv && !ret; k++)
			ret = load_set(&l, kv[k]->key, kv[k]->value);
		if (!ret && ops->check)
			ret = ops->check(&l);
		if (ret < 0 && !run_pre_seen(r, l.why, NULL, 0))
			run_pre_error(r, PF_EXIT_ENV, "phase %s: load %s cannot start: %s", p->name, ops->name, l.why);
		load_free(&l);
	}
}

/*
 * run_precheck - everything the scenario names, before anything is created
 * or started: the run directory and its free space, privileges, tracefs,
 * the budgets, the tools and programs of each phase, the app's profile,
 * configuration and arguments and the simulator's (asked with --check), the
 * loads. Every failure is one line on stderr; returns the exit code (0 all
 * passed; 2 bad input outranks 3 environment), r->notes says what passed.
 */
int run_precheck(struct run *r)
{
	static const char *const app_keys[] = { "profile", "config", "args" }, *const sim_keys[] = { "sim_args" };
	char path[PATH_MAX];
	bool root = geteuid() == 0, traced = false;
	int i;

	if (!root)
		run_pre_error(r, PF_EXIT_ENV, "needs root (realtime priorities, namespaces, tracing)");
	run_pre_dir(r);
	run_pre_budgets(r);
	run_pre_compare(r);
	for (i = 0; i < r->scn.nphases; i++) {
		const struct scn_phase *p = &r->scn.phases[i];

		if (p->measure == SCN_CYCLICTEST && pf_proc_which("cyclictest") && !run_pre_seen(r, "cyclictest", NULL, 0))
			run_pre_error(r, PF_EXIT_ENV, "phase %s: cyclictest: not found in PATH (package rt-tests)", p->name);
		if (p->measure == SCN_FLIGHTAPP) {
			bool sim = !strcmp(scn_param(&r->scn, p, "flightapp", "sim", "no"), "yes");

			if (!run_exists(run_path(path, sizeof(path), r->bindir, "flightapp")))
				run_pre_error(r, PF_EXIT_ENV, "phase %s: %s: not built (the flight application)", p->name, path);
			else
				run_pre_program(r, p, "flightapp", app_keys, 3);
			if (sim && !run_exists(run_path(path, sizeof(path), r->bindir, "sensorsim")))
				run_pre_error(r, PF_EXIT_ENV, "phase %s: %s: not built (the simulator)", p->name, path);
			else if (sim)
				run_pre_program(r, p, "sensorsim", sim_keys, 1);
		}
		if (run_traced(r, p)) {
			traced = true;
			if (!run_has_command(r, "record"))
				run_pre_error(r, PF_EXIT_ENV, "phase %s: 'preflight record' is not in this build", p->name);
		}
		if (root)
			run_pre_loads(r, p);
	}
	if (root && traced && access("/sys/kernel/tracing/instances", W_OK) &&
	    access("/sys/kernel/debug/tracing/instances", W_OK))
		run_pre_error(r, PF_EXIT_ENV, "tracefs: no writable instances/ in /sys/kernel/tracing (mount -t tracefs "
			      "nodev /sys/kernel/tracing)");
	if (!r->code)
		run_pre_note(r, "pre-flight: %s: %d phases, %lld s: every check passed", r->scn.name, r->scn.nphases,
			     (long long)(scn_total_ns(&r->scn) / PF_NS_PER_SEC));
	return r->code;
}
