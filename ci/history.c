/*
 * history.c - 'preflight history add|list|trend|export|verdicts': run-level metrics
 * of many runs in one database (histdb.h: a SQLite file by default, or a
 * PostgreSQL server a fleet of runners shares), keyed by each run's UUID so
 * that adding the same run twice, or merging CI artifacts, is harmless.
 * 'trend' plots one metric over the runs or per kernel (OSADL-style maxima,
 * with the budget line) through gnuplot; 'export --squad' writes the three
 * files a SQUAD dashboard takes (ci/squad/submit.sh uploads them);
 * 'verdicts' the last runs of a scenario with their verdicts' values, as
 * JSON, for the reviewer report's history figure (it reads the database
 * only through this command, docs/report.md).
 */
#define _GNU_SOURCE
#include "ci/histdb.h"
#include "ci/runs.h"
#include "command.h"
#include "common.h"
#include "gnuplot.h"
#include "outfile.h"
#include "outguard.h"
#include "proc.h"
#include "results_keys.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int history_run(int argc, char **argv);

const struct pf_command cmd_history = {
	.name = "history",
	.summary = "keep run-level metrics of many runs (SQLite or PostgreSQL): add, list, board, trend, export, verdicts",
	.usage =
	"usage: preflight history add RUN... [--db DB]\n"
	"       preflight history list [--db DB]\n"
	"       preflight history board [--scenario NAME] [--until UTC] [--db DB]\n"
	"       preflight history trend --metric KEY [--by run|kernel] [--csv FILE]\n"
	"                               [--plot FILE.svg|FILE.png] [--budget VALUE] [--db DB]\n"
	"       preflight history export --squad DIR [--run UUID] [--db DB]\n"
	"       preflight history verdicts --scenario NAME [--last N] [--until UTC] [--db DB]\n"
	"\n"
	"add       store each run (a run directory of 'preflight run') under its UUID\n"
	"          (run.json 'uuid'); a run already there is left as it is\n"
	"list      one line per run: UUID, start, board, kernel, scenario, exit code\n"
	"board     the fleet's latest run per board and kernel: its start, scenario,\n"
	"          result (exit 0 pass, or incomplete with a verdict not measured or\n"
	"          none; 1 fail; else not done; unknown without one),\n"
	"          its verdicts passed / failed / skipped, its report (RUN/report.html\n"
	"          on the runner) and UUID; with --scenario, of that scenario's runs,\n"
	"          with --until, of those started at or before then\n"
	"trend     one metric (its results.json path, as compare names it; the older\n"
	"          subject.metric.stat names are read too)\n"
	"          over the runs in time order, or its maximum per kernel; CSV to\n"
	"          stdout unless --csv, a gnuplot plot with --plot\n"
	"export    the three files of a SQUAD submission for one run (default: the\n"
	"          latest): tests.json, metrics.json, metadata.json (job_id = UUID)\n"
	"verdicts  the verdicts (value, unit, bound, result) of the last N runs of one\n"
	"          scenario (started at or before --until), as JSON on stdout\n"
	"          (preflight-history-verdicts/1: what 'preflight report --history'\n"
	"          draws), with the scenario's board\n"
	"\n"
	"options:\n"
	"      --db DB          SQLite file, or postgresql://user@host:port/db (default:\n"
	"                       history.sqlite)\n"
	"      --metric KEY     trend: e.g. tasks.io.activation_latency_ns.max, or\n"
	"                       io.activation_latency.max (no default)\n"
	"      --by run|kernel  trend: every run (default), or the maximum per kernel\n"
	"      --csv FILE       trend: write the CSV there (default: stdout)\n"
	"      --plot FILE      trend: gnuplot plot, .svg or .png (default: none)\n"
	"      --budget VALUE   trend: draw the budget line (the metric's unit shown: us\n"
	"                       for times, e.g. 62, or a time with its unit as in\n"
	"                       budgets: 62us; default: no line)\n"
	"      --squad DIR      export: the directory to write (no default)\n"
	"      --run UUID       export: that run (default: the latest)\n"
	"      --scenario NAME  verdicts: the scenario's name (run.json; no default);\n"
	"                       board: only its runs (default: every run)\n"
	"      --last N         verdicts: the N latest runs of it (default: 10)\n"
	"      --until UTC      verdicts, board: only runs started at or before this time, as\n"
	"                       run.json's started_utc: 2026-12-06T14:56:58Z (default:\n"
	"                       every run; a run without a start time is then left out)\n"
	"  -h, --help           this text\n"
	"\n"
	"exit: 0 done, 2 bad input (or --csv / --plot naming the database, a run or a\n"
	"file a run's SHA256SUMS lists: never written over; an output into a run\n"
	"directory; list / trend / export / verdicts on a database that does not exist: only add\n"
	"creates one; add adds all its runs or none), 3 environment (database\n"
	"server, gnuplot),\n"
	"4 internal error\n",
	.run = history_run,
};

struct history_opts {
	const char *db, *metric, *by, *csv, *plot, *squad, *run, *scenario;
	const char *until;		/* verdicts: runs started at or before it (UTC, run.json's format) */
	const char *metric_given;	/* --metric as given: metric is its results.json path */
	long        last;		/* verdicts: how many runs */
	int         last_given;
	double      budget;
	int         has_budget;
	int         budget_is_time;	/* given with a time unit: o.budget is in us */
	int         by_given;
};

/* history_unit - row callback: the first column into a char[16] */
static int history_unit(void *ctx, int ncols, const char *const *cols)
{
	snprintf(ctx, 16, "%s", ncols && cols[0] ? cols[0] : "");
	return 1;
}

/* history_count - row callback: the first column as a count */
static int history_count(void *ctx, int ncols, const char *const *cols)
{
	*(long *)ctx = ncols && cols[0] ? atol(cols[0]) : 0;
	return 1;
}

/*
 * history_verdicts - the run's verdicts from its verdicts.json (docs/verdicts.md;
 * the TAP is never read back): one row per record, named as check's TAP names
 * it ("REQ-LAT-001 io activation_latency max": stable from run to run), its
 * result pass, fail or skip (not measured) as SQUAD takes them; a pass that
 * is not valid (a load short of its target) is stored as a fail. Its value,
 * unit and bound as the record has them (NULL when it has none).
 */
static int history_verdicts(struct ci_db *db, const char *dir, const char *uuid)
{
	static const struct { const char *verdict, *result; } map[] = {
		{ "pass", "pass" }, { "fail", "fail" }, { "not_measured", "skip" }, { "not_valid", "fail" },
	};
	char path[1200], name[512];
	json_t *v, *rec;
	size_t i, k;
	int ret = 0;

	if (pf_path_join(path, sizeof(path), dir, "verdicts.json"))
		return pf_fail(PF_EXIT_USAGE, "%s/verdicts.json: %s", dir, strerror(ENAMETOOLONG));
	v = json_load_file(path, 0, NULL);
	if (!v)
		return 0;
	json_array_foreach(json_object_get(v, "verdicts"), i, rec) {
		const char *verdict = json_string_value(json_object_get(rec, "verdict")), *result = NULL;
		const char *id = json_string_value(json_object_get(rec, "id"));
		const char *label = json_string_value(json_object_get(rec, "label"));

		for (k = 0; verdict && k < PF_ARRAY_SIZE(map); k++)
			if (!strcmp(verdict, map[k].verdict))
				result = map[k].result;
		if (!result || !id || !label)
			continue;
		snprintf(name, sizeof(name), "%s %s", id, label);
		{
			char value[40], bound[40];
			json_t *vj = json_object_get(rec, "value"), *bj = json_object_get(rec, "bound");
			const char *p[] = { uuid, name, result, json_is_number(vj) ? value : NULL,
					    json_string_value(json_object_get(rec, "unit")), json_is_number(bj) ? bound : NULL };

			snprintf(value, sizeof(value), "%.17g", json_number_value(vj));
			snprintf(bound, sizeof(bound), "%.17g", json_number_value(bj));
			ret = ci_db_exec(db, "INSERT INTO verdicts (uuid, name, result, value, unit, bound) VALUES (?, ?, ?, "
					 "CAST(? AS DOUBLE PRECISION), ?, CAST(? AS DOUBLE PRECISION)) ON CONFLICT DO NOTHING",
					 6, p, NULL, NULL);
		}
		if (ret)
			break;
	}
	json_decref(v);
	return ret;
}

/* history_run_dir - the directory holding a run's files: the run directory, or that of the results.json given */
static void history_run_dir(const char *path, char *dir, size_t size)
{
	struct stat st;
	char *copy = strdup(path);

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(dir, size, "%s", path);
	else
		snprintf(dir, size, "%s", copy ? dirname(copy) : ".");
	free(copy);
}

/* history_check_one - a run 'add' may store: it reads, and it says which run it is; 0 or an exit code */
static int history_check_one(const char *path)
{
	struct ci_run run;
	char dir[1100], rpath[1200], spath[1200];
	int ret = ci_run_load(path, &run);

	if (ret)
		return ret;
	ci_run_free(&run);
	history_run_dir(path, dir, sizeof(dir));
	if (pf_path_join(rpath, sizeof(rpath), dir, "run.json") || pf_path_join(spath, sizeof(spath), dir, "sysinfo.json"))
		return pf_fail(PF_EXIT_USAGE, "add: %s/sysinfo.json: %s", dir, strerror(ENAMETOOLONG));
	if (access(rpath, F_OK) && access(spath, F_OK))
		return pf_fail(PF_EXIT_USAGE, "add: %s: no run.json or sysinfo.json beside its results.json: "
			       "a run that does not say which run it is (board, kernel, scenario) is not added; "
			       "give its run directory", path);
	return 0;
}

/* history_add_one - one run into the database, inside the caller's transaction; 1 added, 0 already there, or -1 */
static int history_add_one(struct ci_db *db, const char *path)
{
	struct ci_run run;
	char dir[1100], rpath[1200], uuid[64], started[40] = "", code[16] = "", now[32], samples[32], value[40];
	json_t *rj;
	long have = 0;

	if (ci_run_load(path, &run))
		return -1;
	history_run_dir(path, dir, sizeof(dir));
	if (pf_path_join(rpath, sizeof(rpath), dir, "run.json")) {
		ci_run_free(&run);
		return pf_fail(PF_EXIT_USAGE, "add: %s/run.json: %s", dir, strerror(ENAMETOOLONG)), -1;
	}
	rj = json_load_file(rpath, 0, NULL);
	if (json_string_value(json_object_get(rj, "started_utc")))
		snprintf(started, sizeof(started), "%s", json_string_value(json_object_get(rj, "started_utc")));
	if (json_is_integer(json_object_get(rj, "exit_code")))
		snprintf(code, sizeof(code), "%lld", (long long)json_integer_value(json_object_get(rj, "exit_code")));
	json_decref(rj);
	ci_run_key(&run, uuid);
	{
		const char *p[] = { uuid };

		if (ci_db_exec(db, "SELECT count(*) FROM runs WHERE uuid = ?", 1, p, history_count, &have))
			goto fail;
	}
	if (have) {
		ci_run_free(&run);
		return 0;
	}
	pf_utc(now, sizeof(now), time(NULL), false);
	{
		/* the run's absolute path: a history many runners share names where each report is */
		char *abs = realpath(run.path, NULL);
		const char *p[] = { uuid, abs ? abs : run.path, started[0] ? started : NULL, run.ident[CI_ID_BOARD],
				    run.ident[CI_ID_KERNEL], run.ident[CI_ID_CONFIG], run.ident[CI_ID_ISOLATION],
				    run.ident[CI_ID_SCENARIO], run.ident[CI_ID_SCENARIO_HASH], run.ident[CI_ID_VERSION],
				    code[0] ? code : NULL, now };

		if (ci_db_exec(db, "INSERT INTO runs (uuid, path, started_utc, board, kernel_release, config_hash,"
			       " isolation, scenario, scenario_hash, preflight_version, exit_code, added_utc)"
			       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS INTEGER), ?) ON CONFLICT DO NOTHING",
			       12, p, NULL, NULL)) {
			free(abs);
			goto fail;
		}
		free(abs);
	}
	for (size_t i = 0; i < run.n; i++) {
		const struct ci_metric *m = &run.m[i];
		const char *p[] = { uuid, m->key, m->subject, m->metric, m->stat, ci_kind_name[m->kind], m->unit,
				    value, samples };

		snprintf(value, sizeof(value), "%.17g", m->value);
		snprintf(samples, sizeof(samples), "%llu", (unsigned long long)m->samples);
		if (ci_db_exec(db, "INSERT INTO metrics (uuid, key, subject, metric, stat, kind, unit, value, samples)"
			       " VALUES (?, ?, ?, ?, ?, ?, ?, CAST(? AS DOUBLE PRECISION), CAST(? AS BIGINT))"
			       " ON CONFLICT DO NOTHING", 9, p, NULL, NULL))
			goto fail;
	}
	if (history_verdicts(db, dir, uuid))
		goto fail;
	ci_run_free(&run);
	return 1;
fail:
	ci_run_free(&run);
	return -1;
}

/*
 * history_add - 'history add RUN...', once history_check_one passed every run: all
 * stored in one transaction, so that a command that fails adds nothing
 */
static int history_add(struct ci_db *db, char **paths, int n)
{
	int added = 0, present = 0;

	if (ci_db_begin(db))
		return ci_db_failed(db);
	for (int i = 0; i < n; i++) {
		int r = history_add_one(db, paths[i]);

		if (r < 0) {
			ci_db_rollback(db);
			return ci_db_failed(db);
		}
		r ? added++ : present++;
	}
	if (ci_db_exec(db, "COMMIT", 0, NULL, NULL, NULL)) {
		ci_db_rollback(db);
		return ci_db_failed(db);
	}
	printf("history: %d run%s added, %d already there\n", added, added == 1 ? "" : "s", present);
	return 0;
}

/* history_print_row - row callback: the columns separated by two spaces */
static int history_print_row(void *ctx, int ncols, const char *const *cols)
{
	for (int c = 0; c < ncols; c++)
		printf("%s%s", c ? "  " : "", cols[c] ? cols[c] : "-");
	printf("\n");
	return 0;
}

/* history_list - 'history list' */
static int history_list(struct ci_db *db)
{
	printf("# uuid  started_utc  board  kernel_release  scenario  exit_code  metrics\n");
	return ci_db_exec(db, "SELECT uuid, started_utc, board, kernel_release, scenario, exit_code,"
			  " (SELECT count(*) FROM metrics m WHERE m.uuid = runs.uuid) FROM runs"
			  " ORDER BY started_utc, uuid", 0, NULL, history_print_row, NULL) ? PF_EXIT_USAGE : 0;
}

/* the fleet's latest run per board and kernel (history_board_sql's columns) */
enum { HB_BOARD, HB_KERNEL, HB_STARTED, HB_SCENARIO, HB_EXIT, HB_PASSED, HB_FAILED, HB_SKIPPED, HB_PATH, HB_UUID,
       HB_NCOLS };

/*
 * its query: the latest start, then the largest UUID, of each pair's runs (one answer from SQLite
 * and PostgreSQL); the two %s: nothing, or what limits the runs (one scenario, a latest start)
 */
static const char history_board_sql[] =
	"SELECT r.board, r.kernel_release, r.started_utc, r.scenario, r.exit_code,"
	" (SELECT count(*) FROM verdicts v WHERE v.uuid = r.uuid AND v.result = 'pass'),"
	" (SELECT count(*) FROM verdicts v WHERE v.uuid = r.uuid AND v.result = 'fail'),"
	" (SELECT count(*) FROM verdicts v WHERE v.uuid = r.uuid AND v.result = 'skip'),"
	" r.path, r.uuid FROM runs r WHERE %s NOT EXISTS (SELECT 1 FROM runs o"
	" WHERE COALESCE(o.board, '') = COALESCE(r.board, '')"
	" AND COALESCE(o.kernel_release, '') = COALESCE(r.kernel_release, '') %s"
	" AND (COALESCE(o.started_utc, '') > COALESCE(r.started_utc, '')"
	" OR (COALESCE(o.started_utc, '') = COALESCE(r.started_utc, '') AND o.uuid > r.uuid)))"
	" ORDER BY r.board, r.kernel_release";

/*
 * history_board_query - the board's rows to a row callback: of one scenario unless NULL, of the
 * runs started at or before 'until' unless NULL (the board as it was then); 0 or an exit code
 */
static int history_board_query(struct ci_db *db, const char *scenario, const char *until,
			       int (*row)(void *ctx, int ncols, const char *const *cols), void *ctx)
{
	char sql[sizeof(history_board_sql) + 160], outer[80], inner[80];
	const char *p[3];
	int n = 0;

	snprintf(outer, sizeof(outer), "%s%s", scenario ? "r.scenario = ? AND " : "", until ? "r.started_utc <= ? AND" : "");
	snprintf(inner, sizeof(inner), "%s%s", scenario ? "AND o.scenario = r.scenario " : "",
		 until ? "AND o.started_utc <= ?" : "");
	if (scenario)
		p[n++] = scenario;
	if (until)
		p[n++] = until, p[n++] = until;
	snprintf(sql, sizeof(sql), history_board_sql, outer, inner);
	return ci_db_exec(db, sql, n, p, row, ctx) ? PF_EXIT_USAGE : 0;
}

/*
 * history_board_result - a run's result from its exit code (docs/verdicts.md) and its verdicts:
 * 0 pass, but incomplete when a verdict was not measured (skip: never a pass on nothing), or
 * when it has no verdict at all; 1 fail; else not done
 */
static const char *history_board_result(const char *const *cols, char *buf, size_t size)
{
	const char *exit_code = cols[HB_EXIT];
	bool measured = atoll(cols[HB_PASSED]) > 0 && atoll(cols[HB_SKIPPED]) == 0;

	if (!exit_code)
		snprintf(buf, size, "unknown");	/* a run.json without its exit code */
	else if (!strcmp(exit_code, "0") || !strcmp(exit_code, "1"))
		snprintf(buf, size, "%s", !strcmp(exit_code, "1") ? "fail" : measured ? "pass" : "incomplete");
	else
		snprintf(buf, size, "not-done(exit-%s)", exit_code);
	return buf;
}

/* history_board_row - row callback: one line of the fleet's board */
static int history_board_row(void *ctx, int ncols, const char *const *cols)
{
	char result[32];

	(void)ctx;
	if (ncols < HB_NCOLS)
		return 0;
	printf("%s  %s  %s  %s  %s  %s/%s/%s  %s/report.html  %s\n", cols[HB_BOARD] ? cols[HB_BOARD] : "-",
	       cols[HB_KERNEL] ? cols[HB_KERNEL] : "-", cols[HB_STARTED] ? cols[HB_STARTED] : "-",
	       cols[HB_SCENARIO] ? cols[HB_SCENARIO] : "-", history_board_result(cols, result, sizeof(result)),
	       cols[HB_PASSED], cols[HB_FAILED], cols[HB_SKIPPED], cols[HB_PATH] ? cols[HB_PATH] : "-", cols[HB_UUID]);
	return 0;
}

/* history_board_json - row callback: the same line as an object of the array ctx (history verdicts' "boards") */
static int history_board_json(void *ctx, int ncols, const char *const *cols)
{
	char result[32];

	if (ncols < HB_NCOLS)
		return 0;
	json_array_append_new(ctx, json_pack("{s:o, s:o, s:o, s:o, s:s, s:I, s:I, s:I, s:o, s:s}",
		"board", cols[HB_BOARD] ? json_string(cols[HB_BOARD]) : json_null(),
		"kernel_release", cols[HB_KERNEL] ? json_string(cols[HB_KERNEL]) : json_null(),
		"started_utc", cols[HB_STARTED] ? json_string(cols[HB_STARTED]) : json_null(),
		"scenario", cols[HB_SCENARIO] ? json_string(cols[HB_SCENARIO]) : json_null(),
		"result", history_board_result(cols, result, sizeof(result)),
		"passed", (json_int_t)atoll(cols[HB_PASSED]), "failed", (json_int_t)atoll(cols[HB_FAILED]),
		"skipped", (json_int_t)atoll(cols[HB_SKIPPED]),
		"path", cols[HB_PATH] ? json_string(cols[HB_PATH]) : json_null(), "uuid", cols[HB_UUID]));
	return 0;
}

/*
 * history_board - 'history board': the fleet's latest run per board and kernel, with its
 * verdicts' counts and where its report is on the runner that made it
 */
static int history_board(struct ci_db *db, const struct history_opts *o)
{
	printf("# board  kernel_release  started_utc  scenario  result  passed/failed/skipped  report  uuid\n");
	return history_board_query(db, o->scenario, o->until, history_board_row, NULL);
}

/* the trend's rows as they come */
struct history_trend {
	FILE   *csv;
	FILE   *data;		/* the same rows for gnuplot: index, value, label */
	int     n;
	const char *unit;
	char    last_kernel[128];	/* a point is labelled only when the kernel changes */
};

/* history_trend_row - row callback: started, kernel, uuid, value, unit */
static int history_trend_row(void *ctx, int ncols, const char *const *cols)
{
	struct history_trend *t = ctx;
	double v = cols[3] ? strtod(cols[3], NULL) : 0;
	char label[160];

	if (cols[4] && !strcmp(cols[4], "ns")) {
		v /= 1000;
		t->unit = "us";
	} else if (cols[4]) {
		t->unit = !strcmp(cols[4], "fraction") ? "fraction" : !strcmp(cols[4], "count") ? "count" : "";
	}
	fprintf(t->csv, "%s,%s,%s,%.3f\n", cols[0] ? cols[0] : "", cols[1] ? cols[1] : "", cols[2] ? cols[2] : "", v);
	/* the kernel release is a run's word, not ours: data, quoted as data */
	if (t->data)
		fprintf(t->data, "%d %.3f \"%s\"\n", t->n, v,
			pf_gp_quote(strcmp(t->last_kernel, cols[1] ? cols[1] : "?") ? (cols[1] ? cols[1] : "?") : "",
				    '"', label, sizeof(label)));
	t->n++;
	snprintf(t->last_kernel, sizeof(t->last_kernel), "%s", cols[1] ? cols[1] : "?");
	return 0;
}

/*
 * history_plot - the trend through gnuplot into an SVG or PNG file. gnuplot
 * gets a script, its data and an output of our own naming, in a directory
 * of our own; no string of the user's or of a run becomes code (the metric
 * in the titles is quoted by pf_gp_quote, the kernels are data). The figure
 * is then copied to --plot (lib/outfile: a file replaced whole, a device written in place).
 */
static int history_plot(const struct history_opts *o, struct history_trend *t, const char *tmp)
{
	const char *ext = strrchr(o->plot, '.'), *svg = !strcmp(ext, ".svg") ? "svg" : "png";
	char gp[PATH_MAX], out[PATH_MAX], err[PATH_MAX], data[PATH_MAX], metric[512], why[300] = "";
	char *argv[] = { "gnuplot", gp, NULL };
	struct pf_proc p;
	FILE *f, *e;
	int rc;

	snprintf(gp, sizeof(gp), "%s/trend.gp", tmp);
	snprintf(out, sizeof(out), "%s/trend.%s", tmp, svg);
	snprintf(err, sizeof(err), "%s/gnuplot.err", tmp);
	snprintf(data, sizeof(data), "%s/trend.dat", tmp);
	pf_gp_quote(o->metric, '\'', metric, sizeof(metric));
	f = fopen(gp, "we");
	if (!f)
		return pf_fail(PF_EXIT_ENV, "%s: %s", gp, strerror(errno));
	/* the paths are ours (mkdtemp), but TMPDIR is not: quoted all the same */
	fprintf(f, "set terminal %s size 1000,560\n", !strcmp(svg, "svg") ? "svg dynamic" : "pngcairo");
	fprintf(f, "set output '%s'\n", pf_gp_quote(out, '\'', why, sizeof(why)));
	fprintf(f, "set title '%s %s' noenhanced\n", metric, !strcmp(o->by, "kernel") ? "(maximum per kernel)" : "per run");
	fprintf(f, "set ylabel '%s'\nset xlabel '%s'\nset grid\nset key below\nset yrange [0:*]\n",
		t->unit ? t->unit : "", !strcmp(o->by, "kernel") ? "kernel" : "run (time order), kernel");
	fprintf(f, "set xtics rotate by 30 right noenhanced\nset offsets 0.5, 0.5, 0, 0\n");
	/* one point has no x range of its own */
	if (t->n == 1)
		fprintf(f, "set xrange [-1:1]\n");
	fprintf(f, "plot '%s' using 1:2:xtic(3) with linespoints pt 7 title '%s' noenhanced",
		pf_gp_quote(data, '\'', why, sizeof(why)), metric);
	if (o->has_budget)
		fprintf(f, ", %g with lines lw 2 dt 2 title 'budget %g %s'", o->budget, o->budget, t->unit ? t->unit : "");
	fprintf(f, "\n");
	if (ferror(f) | fclose(f))
		return pf_fail(PF_EXIT_ENV, "%s: cannot write", gp);
	why[0] = '\0';
	rc = pf_proc_spawn(&p, argv, NULL, err, 0);
	if (rc == -ENOENT)
		return pf_fail(PF_EXIT_ENV, "trend: --plot needs gnuplot, which is not installed (Debian: apt install gnuplot-nox)");
	if (rc < 0)
		return pf_fail(PF_EXIT_ENV, "trend: cannot start gnuplot: %s", strerror(-rc));
	rc = pf_proc_wait(&p);
	e = fopen(err, "re");
	if (e) {
		char line[sizeof(why)];

		while (fgets(line, sizeof(line), e))	/* gnuplot's message is its last line */
			if (line[strspn(line, " \n")])
				snprintf(why, sizeof(why), "%.*s", (int)strcspn(line, "\n"), line);
		fclose(e);
	}
	if (rc || access(out, F_OK))
		return pf_fail(PF_EXIT_ENV, "trend: gnuplot failed (exit %d: %s)", rc, why[0] ? why : "no message");
	return pf_outfile_copy(out, o->plot);
}

/* history_key_list - row callback: the keys, comma-separated, into a memstream */
static int history_key_list(void *ctx, int ncols, const char *const *cols)
{
	FILE *f = ctx;

	fprintf(f, "%s%s", ftell(f) ? ", " : "", ncols && cols[0] ? cols[0] : "?");
	return 0;
}

/*
 * history_check_metric - the trend's metric is one the history holds, and a
 * budget with a time unit goes with a time; 0, or an exit code after one line
 * naming the metrics there are (before any output)
 */
static int history_check_metric(struct ci_db *db, const struct history_opts *o)
{
	const char *p[] = { o->metric };
	char unit[16] = "";
	long have = 0;
	char *keys = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (ci_db_exec(db, "SELECT count(*) FROM metrics WHERE key = ?", 1, p, history_count, &have))
		return PF_EXIT_USAGE;
	if (have) {
		if (!o->budget_is_time)
			return 0;
		if (ci_db_exec(db, "SELECT min(unit) FROM metrics WHERE key = ?", 1, p, history_unit, unit))
			return PF_EXIT_USAGE;
		return strcmp(unit, "ns") ? pf_fail(PF_EXIT_USAGE, "trend: --budget is a time, metric '%s' is not "
						    "(its unit: %s): give a number", o->metric, unit) : 0;
	}
	f = open_memstream(&keys, &len);
	if (!f)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	ret = ci_db_exec(db, "SELECT DISTINCT key FROM metrics ORDER BY key", 0, NULL, history_key_list, f);
	fclose(f);
	ret = ret ? PF_EXIT_USAGE : pf_fail(PF_EXIT_USAGE, "trend: no run has metric '%s'%s%s%s; the history's metrics: %s",
					    o->metric_given, strcmp(o->metric, o->metric_given) ? " (" : "",
					    strcmp(o->metric, o->metric_given) ? o->metric : "",
					    strcmp(o->metric, o->metric_given) ? ")" : "",
					    keys && *keys ? keys : "none (history add RUN...)");
	free(keys);
	return ret;
}

/* history_trend - 'history trend' */
static int history_trend(struct ci_db *db, const struct history_opts *o)
{
	static const char *const by_run =
		"SELECT r.started_utc, r.kernel_release, r.uuid, m.value, m.unit FROM metrics m"
		" JOIN runs r ON r.uuid = m.uuid WHERE m.key = ? ORDER BY r.started_utc, r.uuid";
	static const char *const by_kernel =
		"SELECT min(r.started_utc), r.kernel_release, count(*), max(m.value), min(m.unit) FROM metrics m"
		" JOIN runs r ON r.uuid = m.uuid WHERE m.key = ? GROUP BY r.kernel_release ORDER BY 1";
	struct history_trend t = { 0 };
	const char *p[] = { o->metric };
	char tmp[PATH_MAX] = "", data[PATH_MAX + 32];
	int ret = 0;

	if (!o->metric)
		return pf_fail(PF_EXIT_USAGE, "trend: no --metric KEY");
	if (strcmp(o->by, "run") && strcmp(o->by, "kernel"))
		return pf_fail(PF_EXIT_USAGE, "trend: --by '%s': run or kernel", o->by);
	if ((ret = history_check_metric(db, o)))
		return ret;
	if (o->plot && (!strrchr(o->plot, '.') || (strcmp(strrchr(o->plot, '.'), ".svg") &&
						    strcmp(strrchr(o->plot, '.'), ".png"))))
		return pf_fail(PF_EXIT_USAGE, "%s: the plot is .svg or .png", o->plot);
	if (o->plot && (ret = pf_outfile_check(o->plot, true)))
		return ret;
	if ((ret = pf_outfile_open(o->csv ? o->csv : "-", &t.csv)))
		return ret;
	if (o->plot) {
		snprintf(tmp, sizeof(tmp), "%s/preflight-trend.XXXXXX", getenv("TMPDIR") ?: "/tmp");
		if (!mkdtemp(tmp)) {
			ret = pf_fail(PF_EXIT_ENV, "%s: %s", tmp, strerror(errno));
			tmp[0] = '\0';
			goto out;
		}
		snprintf(data, sizeof(data), "%s/trend.dat", tmp);
		t.data = fopen(data, "we");
		if (!t.data) {
			ret = pf_fail(PF_EXIT_ENV, "%s: %s", data, strerror(errno));
			goto out;
		}
	}
	fprintf(t.csv, !strcmp(o->by, "run") ? "started_utc,kernel_release,uuid,value\n" :
		"first_started_utc,kernel_release,runs,max_value\n");
	if (ci_db_exec(db, !strcmp(o->by, "run") ? by_run : by_kernel, 1, p, history_trend_row, &t))
		ret = PF_EXIT_USAGE;
	if (t.data && (ferror(t.data) | fclose(t.data)) && !ret)
		ret = pf_fail(PF_EXIT_ENV, "%s: cannot write", data);
	t.data = NULL;
	if (ret)
		pf_outfile_abort(t.csv);
	else
		ret = pf_outfile_commit(t.csv);
	t.csv = NULL;
	if (!ret && o->plot)
		ret = history_plot(o, &t, tmp);
out:
	if (t.data)
		fclose(t.data);
	if (t.csv)
		pf_outfile_abort(t.csv);
	if (tmp[0]) {
		static const char *const names[] = { "trend.gp", "trend.dat", "trend.svg", "trend.png", "gnuplot.err" };

		for (size_t i = 0; i < PF_ARRAY_SIZE(names); i++) {
			if (!pf_path_join(data, sizeof(data), tmp, names[i]))
				unlink(data);
		}
		rmdir(tmp);
	}
	return ret;
}

/* the run export writes, gathered from rows */
struct history_export {
	json_t *obj;
	char    uuid[64];
};

/* history_latest - row callback: the uuid */
static int history_latest(void *ctx, int ncols, const char *const *cols)
{
	snprintf(((struct history_export *)ctx)->uuid, 64, "%s", cols[0] ? cols[0] : "");
	return 1;
}

/* history_pair - row callback: obj[cols[0]] = cols[1] (a number when 'numbers' is set in ctx) */
static int history_pair(void *ctx, int ncols, const char *const *cols)
{
	struct history_export *e = ctx;
	char name[512];

	snprintf(name, sizeof(name), "preflight/%s", cols[0] ? cols[0] : "?");
	json_object_set_new(e->obj, name, e->uuid[0] == 'n' ? json_real(cols[1] ? strtod(cols[1], NULL) : 0) :
			    json_string(cols[1] ? cols[1] : ""));
	return 0;
}

/* history_meta - row callback: the run's columns as metadata */
static int history_meta(void *ctx, int ncols, const char *const *cols)
{
	static const char *const names[] = { "job_id", "started_utc", "board", "kernel_release", "config_hash",
					     "scenario", "preflight_version", "exit_code" };

	for (int c = 0; c < ncols && c < (int)PF_ARRAY_SIZE(names); c++)
		json_object_set_new(ctx, names[c], json_string(cols[c] ? cols[c] : ""));
	return 1;
}

/* history_export - 'history export --squad DIR': tests.json, metrics.json, metadata.json */
static int history_export(struct ci_db *db, const struct history_opts *o)
{
	struct history_export e = { 0 }, sel = { 0 };
	json_t *tests = json_object(), *metrics = json_object(), *meta = json_object();
	const char *p[1];
	char path[1200];
	int ret = PF_EXIT_USAGE;
	bool made = false;

	if (!o->squad) {
		ret = pf_fail(PF_EXIT_USAGE, "export: no --squad DIR");
		goto out;
	}
	if (o->run)
		snprintf(sel.uuid, sizeof(sel.uuid), "%s", o->run);
	else if (ci_db_exec(db, "SELECT uuid FROM runs ORDER BY started_utc DESC, added_utc DESC LIMIT 1",
			    0, NULL, history_latest, &sel))
		goto out;
	if (!sel.uuid[0]) {
		ret = pf_fail(PF_EXIT_USAGE, "export: the history has no runs");
		goto out;
	}
	p[0] = sel.uuid;
	if (ci_db_exec(db, "SELECT uuid, started_utc, board, kernel_release, config_hash, scenario,"
		       " preflight_version, exit_code FROM runs WHERE uuid = ?", 1, p, history_meta, meta))
		goto out;
	if (!json_object_size(meta)) {
		ret = pf_fail(PF_EXIT_USAGE, "export: no run '%s' in the history", sel.uuid);
		goto out;
	}
	e.obj = tests;
	if (ci_db_exec(db, "SELECT name, result FROM verdicts WHERE uuid = ? ORDER BY name", 1, p, history_pair, &e))
		goto out;
	e.obj = metrics;
	snprintf(e.uuid, sizeof(e.uuid), "n");	/* numbers */
	if (ci_db_exec(db, "SELECT key, value FROM metrics WHERE uuid = ? ORDER BY key", 1, p, history_pair, &e))
		goto out;
	if (!mkdir(o->squad, 0755)) {
		made = true;
	} else if (errno != EEXIST) {
		ret = pf_fail(errno == ENOENT || errno == ENOTDIR ? PF_EXIT_USAGE : PF_EXIT_ENV, "%s: %s",
			      o->squad, strerror(errno));
		goto out;
	}
	{
		const struct { const char *name; json_t *o; } files[] = {
			{ "tests.json", tests }, { "metrics.json", metrics }, { "metadata.json", meta },
		};

		for (size_t i = 0; i < PF_ARRAY_SIZE(files); i++) {
			if ((ret = pf_path_join(path, sizeof(path), o->squad, files[i].name) ?
				   pf_fail(PF_EXIT_USAGE, "%s/%s: %s", o->squad, files[i].name, strerror(ENAMETOOLONG)) : 0) ||
			    (ret = pf_outfile_json(path, files[i].o, JSON_INDENT(1) | JSON_SORT_KEYS))) {
				/* no part of a submission: the files written before go, the directory if made here */
				while (i-- > 0)
					if (!pf_path_join(path, sizeof(path), o->squad, files[i].name))
						unlink(path);
				if (made)
					rmdir(o->squad);
				goto out;
			}
		}
	}
	printf("history: run %s exported for SQUAD to %s (%zu tests, %zu metrics)\n", sel.uuid, o->squad,
	       json_object_size(tests), json_object_size(metrics));
	ret = 0;
out:
	json_decref(tests);
	json_decref(metrics);
	json_decref(meta);
	return ret;
}

/* history_vrun - row callback: one run (uuid, started_utc, kernel_release, exit_code) into the array ctx, newest first */
static int history_vrun(void *ctx, int ncols, const char *const *cols)
{
	json_t *run = json_pack("{s:s, s:s?, s:s?, s:o, s:{}}", "uuid", cols[0] ? cols[0] : "", "started_utc", cols[1],
				"kernel_release", cols[2], "exit_code",
				cols[3] ? json_integer(strtoll(cols[3], NULL, 10)) : json_null(), "verdicts");

	return ncols == 4 && run ? json_array_insert_new(ctx, 0, run) : -1;
}

/* history_vrec - row callback: one verdict (uuid, name, result, value, unit, bound) into its run's "verdicts" */
static int history_vrec(void *ctx, int ncols, const char *const *cols)
{
	json_t *run;
	size_t i;

	if (ncols != 6 || !cols[0] || !cols[1])
		return -1;
	json_array_foreach((json_t *)ctx, i, run)
		if (!strcmp(json_string_value(json_object_get(run, "uuid")), cols[0]))
			return json_object_set_new(json_object_get(run, "verdicts"), cols[1],
				json_pack("{s:s?, s:o, s:s?, s:o}", "result", cols[2],
					  "value", cols[3] ? json_real(strtod(cols[3], NULL)) : json_null(), "unit", cols[4],
					  "bound", cols[5] ? json_real(strtod(cols[5], NULL)) : json_null()));
	return 0;
}

/* history_is_utc - text is a UTC time as run.json's started_utc writes it: YYYY-MM-DDTHH:MM:SSZ */
static bool history_is_utc(const char *text)
{
	static const char form[] = "dddd-dd-ddTdd:dd:ddZ";

	if (strlen(text) != sizeof(form) - 1)
		return false;
	for (size_t i = 0; form[i]; i++)
		if (form[i] == 'd' ? !isdigit((unsigned char)text[i]) : text[i] != form[i])
			return false;
	return true;
}

/*
 * history_verdicts_json - 'history verdicts --scenario NAME [--last N] [--until UTC]':
 * the last N runs of a scenario (started at or before --until: a report of an
 * old run shows none after it), oldest first, each with its verdicts by name
 * (value, unit, bound as verdicts.json had them; null for a run added before
 * schema version 4), as preflight-history-verdicts/1 on stdout. A run without
 * a start time is the oldest, on SQLite as on PostgreSQL (whose NULLs sort
 * first in a descending order, SQLite's last).
 */
static int history_verdicts_json(struct ci_db *db, const struct history_opts *o)
{
	static const char *const runs_sql =
		"SELECT uuid, started_utc, kernel_release, exit_code FROM runs WHERE %s"
		" ORDER BY started_utc IS NULL, started_utc DESC, uuid DESC LIMIT CAST(? AS INTEGER)";
	static const char *const verdicts_sql =
		"SELECT v.uuid, v.name, v.result, v.value, v.unit, v.bound FROM verdicts v JOIN (SELECT uuid FROM runs"
		" WHERE %s ORDER BY started_utc IS NULL, started_utc DESC, uuid DESC LIMIT CAST(? AS INTEGER)) r"
		" ON r.uuid = v.uuid ORDER BY v.name";
	const char *where = o->until ? "scenario = ? AND started_utc <= ?" : "scenario = ?";
	char last[24], sql_runs[512], sql_verdicts[512];
	const char *p[] = { o->scenario, o->until ? o->until : last, last };
	int np = o->until ? 3 : 2;
	json_t *runs = json_array(), *boards = json_array(), *doc;
	int ret = PF_EXIT_USAGE;

	if (!o->scenario) {
		json_decref(runs);
		json_decref(boards);
		return pf_fail(PF_EXIT_USAGE, "verdicts: no --scenario NAME");
	}
	snprintf(last, sizeof(last), "%ld", o->last);
	snprintf(sql_runs, sizeof(sql_runs), runs_sql, where);
	snprintf(sql_verdicts, sizeof(sql_verdicts), verdicts_sql, where);
	if (!runs || !boards || ci_db_exec(db, sql_runs, np, p, history_vrun, runs) ||
	    ci_db_exec(db, sql_verdicts, np, p, history_vrec, runs) ||
	    history_board_query(db, o->scenario, o->until, history_board_json, boards)) {
		json_decref(runs);
		json_decref(boards);
		return ret;
	}
	doc = json_pack("{s:s, s:s, s:o, s:o}", "schema", "preflight-history-verdicts/1", "scenario", o->scenario,
			"runs", runs, "boards", boards);
	ret = doc ? pf_outfile_json("-", doc, JSON_INDENT(1) | JSON_SORT_KEYS) : pf_fail(PF_EXIT_INTERNAL, "out of memory");
	json_decref(doc);
	return ret;
}

/* history_check_options - every option given belongs to the subcommand; 0 or an exit code after one line */
static int history_check_options(const char *sub, const struct history_opts *o)
{
	const struct { const char *name, *sub; bool given; } opt[] = {
		{ "--metric", "trend", o->metric }, { "--by", "trend", o->by_given }, { "--csv", "trend", o->csv },
		{ "--plot", "trend", o->plot }, { "--budget", "trend", o->has_budget },
		{ "--squad", "export", o->squad }, { "--run", "export", o->run },
		{ "--scenario", strcmp(sub, "board") ? "verdicts" : "board", o->scenario },
		{ "--last", "verdicts", o->last_given },
		{ "--until", strcmp(sub, "board") ? "verdicts" : "board", o->until },
	};

	for (size_t i = 0; i < PF_ARRAY_SIZE(opt); i++)
		if (opt[i].given && strcmp(sub, opt[i].sub))
			return pf_usage_error(&cmd_history, "%s: %s is an option of %s only", sub, opt[i].name,
					      opt[i].sub);
	return 0;
}

/* history_guard_parent - a new file 'path' (NULL: none) is not written into a run's evidence directory */
static int history_guard_parent(const char *path)
{
	char *copy;
	int ret;

	if (!path || !strcmp(path, "-"))
		return 0;
	copy = strdup(path);
	if (!copy)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	ret = pf_out_guard_dir(dirname(copy));
	free(copy);
	return ret;
}

static int history_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "metric", required_argument, NULL, 'm' },
		{ "by", required_argument, NULL, 'B' },
		{ "csv", required_argument, NULL, 'c' },
		{ "plot", required_argument, NULL, 'p' },
		{ "budget", required_argument, NULL, 'b' },
		{ "squad", required_argument, NULL, 's' },
		{ "run", required_argument, NULL, 'r' },
		{ "scenario", required_argument, NULL, 'S' },
		{ "last", required_argument, NULL, 'l' },
		{ "until", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct history_opts o = { .db = "history.sqlite", .by = "run", .last = 10 };
	struct ci_db *db;
	const char *sub;
	char metric[256];
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': o.db = optarg; break;
		case 'm':
			pf_metric_path(optarg, metric, sizeof(metric));	/* either spelling, one name */
			o.metric = metric;
			o.metric_given = optarg;
			break;
		case 'B': o.by = optarg; o.by_given = 1; break;
		case 'c': o.csv = optarg; break;
		case 'p': o.plot = optarg; break;
		case 's': o.squad = optarg; break;
		case 'r': o.run = optarg; break;
		case 'S': o.scenario = optarg; break;
		case 'u':
			if (!history_is_utc(optarg))
				return pf_usage_error(&cmd_history, "bad --until '%s' (a UTC time as run.json's "
						      "started_utc: 2026-12-06T14:56:58Z)", optarg);
			o.until = optarg;
			break;
		case 'l':
			if (pf_parse_long(optarg, 1, 10000, &o.last))
				return pf_usage_error(&cmd_history, "bad --last '%s' (a number of runs, 1 or more)", optarg);
			o.last_given = 1;
			break;
		case 'b': {
			/* a number, or a time with its unit read as check reads a budget's: "62us", "62 µs" */
			struct pf_qty q;
			const char *unit;

			if (pf_parse_quantity(optarg, &q, &unit) || q.kind == PF_QTY_PERCENT || q.value < 0)
				return pf_usage_error(&cmd_history, "bad --budget '%s' (a number in the metric's "
						      "unit, or a time with its unit: 62us)", optarg);
			o.budget = q.kind == PF_QTY_TIME ? q.value * q.unit_ns / 1e3 : q.value;
			o.budget_is_time = q.kind == PF_QTY_TIME;
			o.has_budget = 1;
			break;
		}
		case 'h': pf_print_usage(&cmd_history); return 0;
		default: return pf_option_error(&cmd_history, argv, "h");
		}
	}
	if (optind >= argc)
		return pf_usage_error(&cmd_history, "no subcommand (add, list, board, trend, export, verdicts)");
	sub = argv[optind++];
	if (strcmp(sub, "add") && strcmp(sub, "list") && strcmp(sub, "board") && strcmp(sub, "trend") &&
	    strcmp(sub, "export") && strcmp(sub, "verdicts"))
		return pf_usage_error(&cmd_history, "unknown subcommand '%s' (add, list, board, trend, export, verdicts)",
				      sub);
	if (!strcmp(sub, "add") && optind >= argc)
		return pf_usage_error(&cmd_history, "add: no RUN given");
	if (strcmp(sub, "add") && optind < argc)
		return pf_usage_error(&cmd_history, "%s: unexpected argument '%s' (only add takes runs)", sub, argv[optind]);
	if ((ret = history_check_options(sub, &o)))
		return ret;
	{
		const char *in[1] = { o.db };

		/* the database and the runs are read; what is written never replaces them, nor lands in a run */
		if ((ret = pf_out_guard(o.csv, in, 1)) || (ret = pf_out_guard(o.plot, in, 1)) ||
		    (ret = pf_out_guard(o.csv, (const char *const *)argv + optind, (size_t)(argc - optind))) ||
		    (ret = pf_out_guard(o.plot, (const char *const *)argv + optind, (size_t)(argc - optind))) ||
		    (ret = history_guard_parent(o.csv)) || (ret = history_guard_parent(o.plot)) ||
		    (o.squad && (ret = pf_out_guard_dir(o.squad))))
			return ret;
	}
	/* every run is checked before the database is opened (or created) */
	for (int i = optind; !strcmp(sub, "add") && i < argc; i++)
		if ((ret = history_check_one(argv[i])))
			return ret;
	ret = ci_db_open(o.db, !strcmp(sub, "add"), &db);
	if (ret)
		return ret;
	if (!strcmp(sub, "add"))
		ret = history_add(db, argv + optind, argc - optind);
	else if (!strcmp(sub, "list"))
		ret = history_list(db);
	else if (!strcmp(sub, "board"))
		ret = history_board(db, &o);
	else if (!strcmp(sub, "trend"))
		ret = history_trend(db, &o);
	else if (!strcmp(sub, "export"))
		ret = history_export(db, &o);
	else
		ret = history_verdicts_json(db, &o);
	if (ret)
		ci_db_discard(db);	/* a database made by an add that failed is not left behind */
	else
		ci_db_close(db);
	return ret;
}
