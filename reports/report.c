/*
 * report.c - 'preflight report RUN_DIR': the evidence a reviewer signs, as one
 * self-contained HTML file (and, with --pdf, a PDF printed from it by
 * headless Chromium). It reads only the files of the run directory
 * (results.json, verdicts.json, budgets.ini, run.json, sysinfo.json,
 * loads.json, SHA256SUMS, the phases' results.json and the app phase's
 * jobs.csv) and writes the sections of docs/report.md in their order; what a
 * section cannot show is said there and again under Deviations. The same run
 * directory gives the same bytes: no generation time unless SOURCE_DATE_EPOCH
 * gives one, no tool version inside the figures (gnuplot's is stated once in
 * the appendix). Figures are drawn by report_plots.c.
 */
#define _GNU_SOURCE
#include "command.h"
#include "common.h"
#include "ct_overflow.h"
#include "decision.h"
#include "datafile.h"
#include "joblog_read.h"
#include "jpath.h"
#include "kconfig.h"
#include "tail_model.h"
#include "markup.h"
#include "outfile.h"
#include "outguard.h"
#include "report.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RPT_RESULTS_SCHEMA "preflight-results/1"
#define RPT_VERDICTS_SCHEMA "preflight-verdicts/1"
#define RPT_MAX_VERDICTS 512
#define RPT_MAX_ARRAY_SHOWN 16	/* a longer array is shown as its length */

/* one record of verdicts.json (docs/verdicts.md), as the tables show it */
struct rpt_verdict {
	char  verdict[16];	/* pass, fail, not_measured, not_valid */
	char  id[64];		/* REQ-LAT-001 */
	char  requirement[512];	/* its text */
	char  label[256];	/* "ctl100 activation_latency max" */
	char  observed[64];	/* "41.2 us" */
	char  op[4];
	char  bound[64];	/* "62 us" */
	char  margin[32];	/* "34 %" */
	char  path[512];	/* tasks.ctl100.activation_latency_ns.max */
	char  why[512];		/* not measured or not valid: why */
	char  worst[512];	/* the worst case's culprit line */
	char  emulated[128];	/* "spi, sensorsim": the emulated interfaces it rests on */
	char  other_clock[96];	/* "± 1 us; job log 2014 us": the clock record's, "" when none */
	bool  within_uncertainty;	/* the margin is smaller than that uncertainty */
	long long n;		/* samples behind the value, -1 unknown */
	double over_s;		/* without n: the seconds it was measured over (a utilisation, a rate), NAN unknown */
	double bound_ns;	/* the bound as time, NAN when not a time */
};

static int rpt_run(int argc, char **argv);

const struct pf_command cmd_report = {
	.name = "report",
	.summary = "write the reviewer report of a run directory: one self-contained HTML (and PDF)",
	.usage =
	"usage: preflight report RUN_DIR [-o FILE.html] [--pdf FILE.pdf] [--previous RUN_DIR]\n"
	"                        [--baseline FILE] [--history DB]\n"
	"\n"
	"Writes the reviewer report of a run directory of 'preflight run' (or of a\n"
	"directory with what 'preflight analyze' wrote: results.json and its inputs):\n"
	"verdicts, configuration, per-task tables and gnuplot figures, measurement\n"
	"validity, deviations and the data manifest, as one HTML file that references\n"
	"nothing outside itself and prints to A4 (docs/report.md). The same run\n"
	"directory gives the same bytes; SOURCE_DATE_EPOCH, when set, is printed as\n"
	"the report's date.\n"
	"\n"
	"options:\n"
	"  -o, --output FILE   the HTML file (default: RUN_DIR/report.html)\n"
	"      --pdf FILE      also print it to FILE with headless Chromium (Debian\n"
	"                      package 'chromium'; default: no PDF)\n"
	"      --previous DIR  a previous run directory: its verdicts.json's values\n"
	"                      beside this run's in V1 (default: none)\n"
	"      --baseline FILE a baseline of 'preflight baseline create': its runs'\n"
	"                      median and range beside this run's values in V1\n"
	"                      (default: none)\n"
	"      --history DB    a database of 'preflight history': each requirement's\n"
	"                      value in this run and the 9 runs of its scenario before\n"
	"                      it (without a start time in run.json: its 9 latest\n"
	"                      others), in V2 (default: none)\n"
	"  -h, --help          this text\n"
	"\n"
	"exit: 0 written, 2 RUN_DIR has nothing to report or bad usage (a previous run,\n"
	"      baseline or history that cannot be read), or an output is a file the\n"
	"      run's SHA256SUMS lists (never written over), 3 gnuplot or chromium missing\n"
	"      or failed, the history's server unreachable, or the file cannot be\n"
	"      written, 4 internal\n",
	.run = rpt_run,
};

double rpt_num(json_t *root, const char *path)
{
	json_t *v = pf_jpath_get(root, path);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

int64_t rpt_int(json_t *root, const char *path, int64_t dflt)
{
	double v = rpt_num(root, path);

	/* the range check before the conversion: a double beyond int64_t converts to anything */
	return v >= -0x1p63 && v < 0x1p63 ? (int64_t)v : dflt;
}

const char *rpt_str(json_t *root, const char *path, const char *dflt)
{
	json_t *v = pf_jpath_get(root, path);

	return json_is_string(v) ? json_string_value(v) : dflt;
}

void rpt_esc(FILE *out, const char *text)
{
	pf_markup_esc(out, text);
}

const char *rpt_esc_str(const char *text, char *buf, size_t size)
{
	return pf_markup_esc_str(text, buf, size);
}

void rpt_note_missing(struct rpt *r, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	fputs("<p class=\"missing\">Not shown: ", r->out);
	rpt_esc(r->out, s);
	fputs("</p>\n", r->out);
	if (r->nmissing < (int)PF_ARRAY_SIZE(r->missing))
		r->missing[r->nmissing++] = s;
	else
		free(s);
}

double rpt_budget_ns(struct rpt *r, const char *path)
{
	for (int i = 0; i < r->nverdicts; i++)
		if (!strcmp(r->verdict[i].path, path) && !isnan(r->verdict[i].bound_ns))
			return r->verdict[i].bound_ns;
	return NAN;
}

double rpt_budget_match_ns(struct rpt *r, const char *pattern, const char **id)
{
	for (int i = 0; i < r->nverdicts; i++)
		if (!fnmatch(pattern, r->verdict[i].path, 0) && !isnan(r->verdict[i].bound_ns)) {
			*id = r->verdict[i].id;
			return r->verdict[i].bound_ns;
		}
	return NAN;
}

/*
 * rpt_path - dir/rel into buf; "" when it does not fit (no such file: the kernel could not open
 * it either; rpt_load_must says so for the run's first files)
 */
static char *rpt_path(char *buf, size_t size, const char *dir, const char *rel)
{
	if (pf_path_join(buf, size, dir, rel) < 0)
		return buf;	/* "" */
	return buf;
}

/* rpt_load_json - a JSON file of the run directory, or NULL when absent or bad (its section says so) */
static json_t *rpt_load_json(struct rpt *r, const char *rel)
{
	char path[PATH_MAX];

	return json_load_file(rpt_path(path, sizeof(path), r->dir, rel), 0, NULL);
}

/*
 * rpt_load_must - results.json or run.json of the run directory into *out:
 * NULL when missing; a file there that does not parse is an error naming it
 * (not a missing file). 0 or PF_EXIT_USAGE after one line.
 */
static int rpt_load_must(struct rpt *r, const char *rel, json_t **out)
{
	char path[PATH_MAX];
	json_error_t je;

	if (!*rpt_path(path, sizeof(path), r->dir, rel))
		return pf_fail(PF_EXIT_USAGE, "%s/%s: %s", r->dir, rel, strerror(ENAMETOOLONG));
	*out = json_load_file(path, 0, &je);
	if (*out || access(path, F_OK))
		return 0;
	if (je.line < 1)
		return pf_fail(PF_EXIT_USAGE, "%s: cannot read: %s", path, je.text);
	return pf_fail(PF_EXIT_USAGE, "%s:%d: not valid JSON: %s", path, je.line, je.text);
}

/* rpt_text - a text file of the run directory, or NULL */
static char *rpt_text(struct rpt *r, const char *rel)
{
	char path[PATH_MAX];

	return rpt_slurp(rpt_path(path, sizeof(path), r->dir, rel), NULL);
}

/* rpt_unit_ns - nanoseconds per unit of a time unit ("us", "µs", "ms", "s", "ns"), or 0 */
static double rpt_unit_ns(const char *u)
{
	if (!strcmp(u, "ns"))
		return 1;
	if (!strcmp(u, "us") || !strcmp(u, "µs"))
		return 1e3;
	if (!strcmp(u, "ms"))
		return 1e6;
	if (!strcmp(u, "s"))
		return 1e9;
	return 0;
}

/* rpt_vnum - a number of a verdict record as text with its unit ("41.2 us"), "" when null */
static void rpt_vnum(json_t *rec, const char *key, char *buf, size_t size)
{
	json_t *v = json_object_get(rec, key);
	const char *unit = rpt_str(rec, "unit", "");

	buf[0] = '\0';
	if (json_is_number(v))
		snprintf(buf, size, "%.10g%s%s", json_number_value(v), *unit ? " " : "", unit);
}

/* rpt_vcopy - a string member of a verdict record into buf, "" when absent or null */
static void rpt_vcopy(json_t *rec, const char *key, char *buf, size_t size)
{
	snprintf(buf, size, "%s", rpt_str(rec, key, ""));
}

/*
 * rpt_other_clock - a verdict's clock record (docs/verdicts.md: clock) as its
 * table cell: the uncertainty between the trace and the job log, the job
 * log's own figure where it has one, and whether the margin is within it
 */
static void rpt_other_clock(json_t *rec, struct rpt_verdict *v)
{
	json_t *c = json_object_get(rec, "clock");
	const char *unit = rpt_str(rec, "unit", "");
	char *p = v->other_clock, *end = p + sizeof(v->other_clock);

	if (!json_is_object(c))
		return;
	if (json_is_number(json_object_get(c, "uncertainty")))
		p += snprintf(p, (size_t)(end - p), "± %.10g %s", json_number_value(json_object_get(c, "uncertainty")),
			      unit);
	if (json_is_number(json_object_get(c, "other_value")) && p < end)
		snprintf(p, (size_t)(end - p), "%sjob log %.10g %s", p > v->other_clock ? "; " : "",
			 json_number_value(json_object_get(c, "other_value")), unit);
	v->within_uncertainty = json_is_true(json_object_get(c, "margin_within_uncertainty"));
}

/*
 * rpt_read_verdicts - verdicts.json into r->verdict: the records 'check'
 * wrote, the TAP printed from them never read back (issue 27.13)
 */
static void rpt_read_verdicts(struct rpt *r)
{
	json_t *rec, *e;
	size_t i, k;

	if (!r->verdicts)
		return;
	r->verdict = calloc(RPT_MAX_VERDICTS, sizeof(*r->verdict));
	if (!r->verdict)
		return;
	json_array_foreach(pf_jpath_get(r->verdicts, "verdicts"), i, rec) {
		struct rpt_verdict *v;
		double ns = rpt_unit_ns(rpt_str(rec, "unit", ""));

		if (r->nverdicts == RPT_MAX_VERDICTS)
			break;
		v = &r->verdict[r->nverdicts++];
		rpt_vcopy(rec, "verdict", v->verdict, sizeof(v->verdict));
		rpt_vcopy(rec, "id", v->id, sizeof(v->id));
		rpt_vcopy(rec, "requirement", v->requirement, sizeof(v->requirement));
		rpt_vcopy(rec, "label", v->label, sizeof(v->label));
		rpt_vcopy(rec, "comparison", v->op, sizeof(v->op));
		rpt_vcopy(rec, "metric", v->path, sizeof(v->path));
		rpt_vcopy(rec, "reason", v->why, sizeof(v->why));
		rpt_vcopy(rec, "worst_case", v->worst, sizeof(v->worst));
		rpt_vnum(rec, "value", v->observed, sizeof(v->observed));
		rpt_vnum(rec, "bound", v->bound, sizeof(v->bound));
		if (json_is_number(json_object_get(rec, "margin_pct")))
			snprintf(v->margin, sizeof(v->margin), "%.0f %%",
				 json_number_value(json_object_get(rec, "margin_pct")) + 0.0);
		else if (json_is_string(json_object_get(rec, "known_only_as")) && v->observed[0])
			snprintf(v->margin, sizeof(v->margin), "a bound");
		v->n = json_is_integer(json_object_get(rec, "n")) ? json_integer_value(json_object_get(rec, "n")) : -1;
		v->over_s = json_is_number(json_object_get(rec, "over_s")) ? json_number_value(json_object_get(rec, "over_s")) : NAN;
		json_array_foreach(json_object_get(rec, "emulated"), k, e)
			snprintf(v->emulated + strlen(v->emulated), sizeof(v->emulated) - strlen(v->emulated), "%s%s",
				 k ? ", " : "", json_string_value(e) ? json_string_value(e) : "?");
		rpt_other_clock(rec, v);
		v->bound_ns = ns > 0 && json_is_number(json_object_get(rec, "bound")) ?
			json_number_value(json_object_get(rec, "bound")) * ns : NAN;
	}
}

/* rpt_find_joblog - the app phase's jobs.csv: from run.json's phases, else results.json's inputs */
static void rpt_find_joblog(struct rpt *r)
{
	json_t *ph;
	size_t i;
	const char *in;

	json_array_foreach(pf_jpath_get(r->run, "phases"), i, ph) {
		if (!strcmp(rpt_str(ph, "measure", ""), "flightapp")) {
			snprintf(r->app_dir, sizeof(r->app_dir), "%.2000s/%.2000s", r->dir, rpt_str(ph, "dir", "."));
			snprintf(r->joblog, sizeof(r->joblog), "%.4000s/jobs.csv", r->app_dir);
			if (!access(r->joblog, R_OK))
				return;
		}
	}
	r->joblog[0] = '\0';
	in = rpt_str(r->results, "inputs.joblog", NULL);
	if (!in)
		return;
	if (!access(in, R_OK)) {
		snprintf(r->joblog, sizeof(r->joblog), "%s", in);
		return;
	}
	/* a copied directory: the same name next to results.json */
	if (!*rpt_path(r->joblog, sizeof(r->joblog), r->dir, strrchr(in, '/') ? strrchr(in, '/') + 1 : in) ||
	    access(r->joblog, R_OK))
		r->joblog[0] = '\0';
}

int rpt_read_jobs(struct rpt *r)
{
	struct pf_joblog *jl;
	struct pf_jlrow *row;
	int t, ret;

	if (r->jobs_read)
		return 0;
	r->jobs_read = true;
	if (!r->joblog[0])
		return 0;
	if ((ret = pf_joblog_open(r->joblog, NULL, NULL, &jl)))
		return ret;
	while ((ret = pf_joblog_next(jl, NULL, NULL, &row)) > 0) {
		for (t = 0; t < r->ntasks && strcmp(r->task_names[t], row->task); t++)
			;
		if (t == r->ntasks)
			continue;
		if (pf_grow(&r->jobs, &r->jobs_cap, r->njobs, sizeof(*r->jobs), 4096) < 0) {
			ret = -pf_fail(PF_EXIT_INTERNAL, "out of memory");
			break;
		}
		r->jobs[r->njobs++] = (struct rpt_job){ t, row->release_ns, row->start_ns - row->release_ns, row->cpu_ns,
							row->end_ns - row->release_ns, row->seq, row->cpu };
	}
	pf_joblog_close(jl);
	return -ret;
}

/*
 * rpt_history_load - --history DB: the earlier runs of this run's scenario
 * (run.json scenario.name) from 'preflight history verdicts', a child process
 * (reports/ reaches the history's database only through that command,
 * docs/ci.md), into r->history: oldest first, none started after this run,
 * this run (its uuid) left out, at most RPT_HISTORY_RUNS - 1. 0, or the exit
 * code after one line (the
 * command's own message: 2 a database that cannot be read, 3 a server)
 */
static int rpt_history_load(struct rpt *r)
{
	const char *scenario = rpt_str(r->run, "scenario.name", NULL), *uuid = rpt_str(r->run, "uuid", "");
	const char *started = rpt_str(r->run, "started_utc", NULL);
	char self[PATH_MAX], out[PATH_MAX], err[PATH_MAX], last[16], *why, *line;
	/* an old run's report shows no run after it: only those started at or before it (issue 32) */
	char *argv[] = { self, "history", "verdicts", "--db", (char *)r->history_db, "--scenario", (char *)scenario,
			 "--last", last, started ? "--until" : NULL, (char *)started, NULL };
	json_t *runs, *run;
	size_t i;
	int code;

	if (!scenario)
		return pf_fail(PF_EXIT_USAGE, "--history: %s: run.json names no scenario, the history's key", r->dir);
	if (pf_self_exe(self, sizeof(self)))
		return pf_fail(PF_EXIT_INTERNAL, "--history: cannot find preflight itself (/proc/self/exe)");
	snprintf(last, sizeof(last), "%d", RPT_HISTORY_RUNS);	/* this run may be one of them */
	snprintf(out, sizeof(out), "%s/history.json", r->tmpdir);
	snprintf(err, sizeof(err), "%s/history.err", r->tmpdir);
	code = rpt_exec(argv, out, err);
	if (code) {
		why = rpt_slurp(err, NULL);
		line = why ? why + strspn(why, "\n") : NULL;
		if (line && strstr(line, "history: "))
			line = strstr(line, "history: ") + 9;	/* the child's own prefix */
		if (line)
			line[strcspn(line, "\n")] = '\0';
		if (!line || !*line)
			line = "preflight history verdicts failed";
		code = pf_fail(code == PF_EXIT_ENV ? PF_EXIT_ENV : code < 0 || code == PF_EXIT_INTERNAL ? PF_EXIT_INTERNAL :
			       PF_EXIT_USAGE, "--history: %s%s%s", strncmp(line, r->history_db, strlen(r->history_db)) ?
			       r->history_db : "", strncmp(line, r->history_db, strlen(r->history_db)) ? ": " : "", line);
		free(why);
		return code;
	}
	r->history = json_load_file(out, 0, NULL);
	if (strcmp(rpt_str(r->history, "schema", ""), "preflight-history-verdicts/1"))
		return pf_fail(PF_EXIT_INTERNAL, "--history: %s: 'history verdicts' wrote no preflight-history-verdicts/1",
			       r->history_db);
	runs = json_array();
	json_array_foreach(json_object_get(r->history, "runs"), i, run)
		if (strcmp(rpt_str(run, "uuid", ""), uuid))
			json_array_append(runs, run);
	while (json_array_size(runs) > RPT_HISTORY_RUNS - 1)
		json_array_remove(runs, 0);
	json_object_set_new(r->history, "runs", runs);
	return 0;
}

/* rpt_load - read what the run directory has; PF_EXIT_USAGE when it has nothing to report */
static int rpt_load(struct rpt *r)
{
	char path[PATH_MAX];
	json_t *ph, *t;
	size_t i;
	int ret;
	const char *slash;

	snprintf(path, sizeof(path), "%s", r->dir);
	while (strlen(path) > 1 && path[strlen(path) - 1] == '/')
		path[strlen(path) - 1] = '\0';
	slash = strrchr(path, '/');
	snprintf(r->run_id, sizeof(r->run_id), "%.255s", slash ? slash + 1 : path);
	if (rpt_load_must(r, "results.json", &r->results) || rpt_load_must(r, "run.json", &r->run))
		return PF_EXIT_USAGE;
	/* a run copied or renamed keeps its id: the directory 'run' made (run.json), not the copy's name */
	if (json_is_string(pf_jpath_get(r->run, "dir"))) {
		snprintf(path, sizeof(path), "%s", rpt_str(r->run, "dir", ""));
		while (strlen(path) > 1 && path[strlen(path) - 1] == '/')
			path[strlen(path) - 1] = '\0';
		slash = strrchr(path, '/');
		if (*(slash ? slash + 1 : path))
			snprintf(r->run_id, sizeof(r->run_id), "%.255s", slash ? slash + 1 : path);
	}
	if (!r->results && !r->run)
		return pf_fail(PF_EXIT_USAGE, "%s: no results.json and no run.json: nothing to report", r->dir);
	if (r->results && strcmp(rpt_str(r->results, "schema", ""), RPT_RESULTS_SCHEMA))
		return pf_fail(PF_EXIT_USAGE, "%s/results.json: schema '%s', not " RPT_RESULTS_SCHEMA, r->dir,
			       rpt_str(r->results, "schema", "(none)"));
	r->sysinfo = rpt_load_json(r, "sysinfo.json");
	r->loads = rpt_load_json(r, "loads.json");
	r->verdicts = rpt_load_json(r, "verdicts.json");
	if (r->previous_dir) {
		char prev[PATH_MAX], why[PATH_MAX + 200];

		if (pf_path_join(prev, sizeof(prev), r->previous_dir, "verdicts.json"))
			return pf_fail(PF_EXIT_USAGE, "--previous: %s/verdicts.json: %s", r->previous_dir,
				       strerror(ENAMETOOLONG));
		r->prev_verdicts = pf_json_load_schema(prev, RPT_VERDICTS_SCHEMA, why, sizeof(why));
		if (!r->prev_verdicts)
			return pf_fail(PF_EXIT_USAGE, "--previous: %s", why);
	}
	if (r->baseline_file) {
		char why[PATH_MAX + 200];

		r->baseline = pf_json_load_schema(r->baseline_file, "preflight-baseline/1", why, sizeof(why));
		if (!r->baseline)
			return pf_fail(PF_EXIT_USAGE, "--baseline: %s", why);
	}
	if (r->history_db && (ret = rpt_history_load(r)))
		return ret;
	if (r->verdicts && strcmp(rpt_str(r->verdicts, "schema", ""), RPT_VERDICTS_SCHEMA)) {
		json_decref(r->verdicts);	/* not verdicts.json: the section says there are none */
		r->verdicts = NULL;
	}
	r->sums = rpt_text(r, "SHA256SUMS");
	r->budgets = rpt_text(r, "budgets.ini");
	r->sysinfo_txt = rpt_text(r, "sysinfo.txt");
	json_array_foreach(pf_jpath_get(r->run, "phases"), i, ph) {
		json_t **slot;

		if (strcmp(rpt_str(ph, "measure", ""), "cyclictest"))
			continue;
		slot = json_array_size(pf_jpath_get(ph, "loads")) ? &r->base_loaded : &r->base_idle;
		if (*slot)
			continue;
		snprintf(path, sizeof(path), "%s/results.json", rpt_str(ph, "dir", "."));
		*slot = rpt_load_json(r, path);
	}
	if (!r->base_idle && !r->base_loaded && pf_jpath_get(r->results, "cyclictest.threads"))
		r->base_loaded = json_incref(r->results);	/* analyze-only: the one baseline it has */
	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t)
		if (r->ntasks < RPT_MAX_TASKS)
			r->task_names[r->ntasks++] = rpt_str(t, "name", "?");
	r->partial = json_is_true(pf_jpath_get(r->run, "partial")) || json_is_true(pf_jpath_get(r->results, "partial"));
	if (r->partial || !r->results) {
		const char *why = rpt_str(r->run, "failure", NULL);

		r->partial = true;
		if (!why && rpt_str(r->run, "interrupted_by", NULL))
			why = rpt_str(r->run, "interrupted_by", NULL);
		snprintf(r->partial_why, sizeof(r->partial_why), "%s%s",
			 why ? why : "the run was cut short",
			 r->results ? "" : "; no results.json: nothing was analysed");
	}
	rpt_find_joblog(r);
	rpt_read_verdicts(r);
	return rpt_read_jobs(r);	/* a job log of another format or with a bad row is refused, not misread */
}

/* rpt_us - nanoseconds (a JSON number) as µs text with one decimal, "—" when null */
static const char *rpt_us(json_t *v, char *buf, size_t size)
{
	return pf_fmt_us(buf, size, json_is_number(v) ? json_number_value(v) : NAN, true);
}

/* rpt_td_ns - a table cell of a nanosecond value shown in µs, with the exact value in data-ns */
static void rpt_td_ns(struct rpt *r, json_t *v)
{
	char buf[64];

	if (json_is_number(v))
		fprintf(r->out, "<td class=\"n\" data-ns=\"%.0f\">%s</td>", json_number_value(v), rpt_us(v, buf, sizeof(buf)));
	else
		fputs("<td class=\"n na\">—</td>", r->out);
}

/* rpt_td_int - a table cell of a count */
static void rpt_td_int(struct rpt *r, json_t *v)
{
	if (json_is_number(v))
		fprintf(r->out, "<td class=\"n\" data-v=\"%.0f\">%.0f</td>", json_number_value(v), json_number_value(v));
	else
		fputs("<td class=\"n na\">—</td>", r->out);
}

/*
 * rpt_td_count - a task's count 'key' (overruns, deadline_misses) and, where the job log's own
 * (tasks[].joblog) differs, that one beside it: two clocks (issue 32.8, docs/results.md); true
 * when it did
 */
static bool rpt_td_count(struct rpt *r, json_t *task, const char *key)
{
	json_t *v = json_object_get(task, key), *jl = json_object_get(json_object_get(task, "joblog"), key);

	if (!json_is_number(v) || !json_is_number(jl) || json_number_value(jl) == json_number_value(v) ||
	    strcmp(rpt_str(task, "source", ""), "trace+joblog")) {
		rpt_td_int(r, v);
		return false;
	}
	fprintf(r->out, "<td class=\"n\" data-v=\"%.0f\">%.0f (job log %.0f)</td>", json_number_value(v),
		json_number_value(v), json_number_value(jl));
	return true;
}

/*
 * rpt_td_stat - a cell of one statistic of a distribution (ns, shown in µs);
 * a percentile known only by a bound shows its interval ("≥ 200.0, ≤ 431.0")
 */
static void rpt_td_stat(struct rpt *r, json_t *dist, const char *key)
{
	json_t *b = json_object_get(json_object_get(dist, "bounds"), key), *m;
	char buf[64];
	size_t i;

	if (json_is_null(json_object_get(dist, key)) && json_is_object(b)) {
		fprintf(r->out, "<td class=\"n bound\" data-ge-ns=\"%.0f\" data-le-ns=\"%.0f\">≥ %.1f, ≤ %.1f</td>",
			rpt_num(b, ">="), rpt_num(b, "<="), rpt_num(b, ">=") / 1e3, rpt_num(b, "<=") / 1e3);
		return;
	}
	json_array_foreach(json_object_get(dist, "is_max"), i, m)
		if (json_is_string(m) && !strcmp(json_string_value(m), key) && json_is_number(json_object_get(dist, key))) {
			/*
			 * too few samples for this percentile: it is the max (docs/results.md is_max); its n is
			 * the row's N (issue 32.13: "(= max, n = 2825)" made each row of the task table four lines)
			 */
			fprintf(r->out, "<td class=\"n at-max\" data-ns=\"%.0f\">%s (= max)</td>",
				rpt_num(dist, key), rpt_us(json_object_get(dist, key), buf, sizeof(buf)));
			return;
		}
	rpt_td_ns(r, json_object_get(dist, key));
}

/* rpt_kv - one row of a two-column table */
static void rpt_kv(struct rpt *r, const char *key, const char *value)
{
	fputs("<tr><th>", r->out);
	rpt_esc(r->out, key);
	fputs("</th><td>", r->out);
	rpt_esc(r->out, value && *value ? value : "—");
	fputs("</td></tr>\n", r->out);
}

/*
 * rpt_json_text - a JSON value as text: strings as they are, objects as
 * "key=value, ...", the rest compact; raw histograms left out and long
 * arrays counted (results.json has them whole)
 */
static char *rpt_json_text(json_t *v)
{
	const char *key;
	json_t *m;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!v || json_is_null(v))
		return NULL;
	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_array(v) && json_array_size(v) > RPT_MAX_ARRAY_SHOWN)
		return asprintf(&text, "[%zu values]", json_array_size(v)) < 0 ? NULL : text;
	if (!json_is_object(v))
		return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(6));
	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	json_object_foreach(v, key, m) {
		char *mt;

		if (!strcmp(key, "hist"))
			continue;	/* a raw histogram: its statistics are beside it */
		mt = rpt_json_text(m);

		fprintf(f, "%s%s=%s", ftell(f) ? ", " : "", key, mt ? mt : "null");
		free(mt);
	}
	fclose(f);
	return text;
}

/* rpt_kv_json - a row whose value is a JSON value at a path */
static void rpt_kv_json(struct rpt *r, const char *key, json_t *root, const char *path)
{
	char *text = rpt_json_text(pf_jpath_get(root, path));

	rpt_kv(r, key, text);
	free(text);
}

/*
 * rpt_section - open section n ("7", "A1") with its title; a section starts a new printed page
 * unless the print rules let it follow the one before (rpt_css)
 */
static void rpt_section(struct rpt *r, const char *n, const char *id, const char *title)
{
	fprintf(r->out, "</section>\n<section id=\"%s\"><h2>%s%s%s</h2>\n", id, n, *n ? " " : "", title);
}

/* rpt_evidence - the anchor of a metric path's evidence section */
static const char *rpt_evidence(const char *path, char *buf, size_t size)
{
	if (!strncmp(path, "tasks.", 6)) {
		snprintf(buf, size, "task-%.*s", (int)strcspn(path + 6, "."), path + 6);
		return buf;
	}
	if (!strncmp(path, "app.", 4) || !strncmp(path, "slots.", 6))
		return "utilisation";
	if (!strncmp(path, "cyclictest", 10))
		return "baseline";
	if (!strncmp(path, "loads.", 6))
		return "loads";
	if (!strncmp(path, "fsw.", 4))
		return "flight";
	return "validity";
}

static const char rpt_css[] =
	"body{font-family:'DejaVu Sans',sans-serif;font-size:10.5pt;color:#111;max-width:1000px;margin:0 auto;padding:0 12px}\n"
	"h1{font-size:18pt;margin:.3em 0}h2{font-size:14pt;border-bottom:2px solid #0072B2;padding-bottom:2px;margin-top:1.2em}\n"
	"h3{font-size:11.5pt;margin:1em 0 .3em}\n"
	"table{border-collapse:collapse;margin:.4em 0;font-size:9pt}th,td{border:1px solid #bbb;padding:2px 5px;text-align:left;vertical-align:top;overflow-wrap:break-word}\n"
	"th{background:#eef3f8}td.n,td.v{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td.na{color:#777}\n"
	"tr.fail td{background:#fde2e2}tr.skip td{background:#f3f3f3;color:#555}tr.invalid td{background:#fff4e0}"
	".result{font-size:13pt;font-weight:bold;border:2px solid #111;padding:4px 8px}.emulated{color:#8a4b00}\n"
	"tr.pass td.v{color:#0a6b2d;font-weight:bold}tr.fail td.v{color:#b00000;font-weight:bold}\n"
	"figure{margin:.6em 0;break-inside:avoid}figure img{max-width:100%;height:auto;border:1px solid #ddd}figcaption{font-size:9pt;color:#333}\n"
	".runid{font-size:8.5pt;color:#444;border-bottom:1px solid #ccc;margin-bottom:4px}\n"
	".partial{background:#b00000;color:#fff;font-weight:bold;padding:3px 6px}\n"
	"#decision{width:100%;font-size:9.5pt;border:2px solid #111}#decision th{width:16%;white-space:nowrap}"
	"#decision td b.bad{color:#b00000}#decision td b.ok{color:#0a6b2d}\n"
	"#deviation-list{width:100%;font-size:8pt}#deviation-list th.disposition,#deviation-list td.disposition{width:16%}\n"
	/* the configuration's keys on one line each: a narrow key column made most rows two or three lines */
	"table.cfg{width:100%;table-layout:fixed}table.cfg th{width:28%}table.cfg td{overflow-wrap:anywhere}\n"
	"table.kv th,#signoff th{white-space:nowrap}td.hashes,#signoff td{overflow-wrap:anywhere;word-break:break-all}\n"
	"#signoff,#signatures{break-inside:avoid}#signatures{width:100%}#signatures td{height:2.4em}\n"
	".missing{color:#8a4b00;background:#fff4e0;padding:2px 6px;border-left:3px solid #e69f00}\n"
	".basis{background:#eef3f8;padding:4px 8px;border-left:3px solid #0072B2}\n"
	"pre{font-size:8pt;white-space:pre-wrap;word-break:break-all;background:#f7f7f7;padding:4px}\n"
	"nav ol{columns:2}.also{font-size:9pt;margin:.2em 0}td.same,span.same{color:#777}\n"
	/*
	 * Chromium prints a page whose content is wider than A4 shrunk to fit (9 pt came out 6.4 pt):
	 * nothing may be wider than the page. The verdict table has fixed column widths and breaks long
	 * tokens (paths, ids, numbers with their unit) inside its cells; a percentile known by its
	 * maximum or its bounds wraps in the task table.
	 */
	"figure img{box-sizing:border-box}td.at-max,td.bound{white-space:normal}\n"
	"#verdict-table{table-layout:fixed;width:100%;font-size:8pt}#verdict-table td{overflow-wrap:anywhere}"
	"#verdict-table th,#verdict-table td{padding:2px 3px}#verdict-table th,#verdict-table td:first-child{overflow-wrap:normal}"
	"#verdict-table td.n,#verdict-table td.v{white-space:normal}\n"
	"#verdict-table th:nth-child(1){width:12%}#verdict-table th:nth-child(2){width:18%}#verdict-table th:nth-child(3){width:15%}"
	"#verdict-table th:nth-child(4){width:7%}#verdict-table th:nth-child(5){width:11%}#verdict-table th:nth-child(6){width:7%}"
	"#verdict-table th:nth-child(7){width:6%}#verdict-table th:nth-child(8){width:10%}#verdict-table th:nth-child(9){width:14%}\n"
	/* with the other clock's column (a run whose tasks had both clocks) */
	"#verdict-table.clock th:nth-child(1){width:11%}#verdict-table.clock th:nth-child(2){width:16%}"
	"#verdict-table.clock th:nth-child(3){width:12%}#verdict-table.clock th:nth-child(5){width:9%}"
	"#verdict-table.clock th:nth-child(7){width:8%}#verdict-table.clock th:nth-child(8){width:5%}"
	"#verdict-table.clock th:nth-child(9){width:10%}#verdict-table.clock th:nth-child(10){width:15%}b.flip{color:#a00}\n"
	"@page{size:A4;margin:16mm 12mm 14mm 12mm}\n"
	"@media print{body{max-width:none;padding:0}section#flight,section#worst-more,section#appendix,section#signoff{break-before:page}"
	"h2,h3{break-after:avoid}tr{break-inside:avoid}}\n";

/* rpt_css_string - text inside a CSS string: quotes, backslashes and control characters escaped, '<' too */
static void rpt_css_string(FILE *out, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '"' || *p == '\\' || *p < 0x20 || *p == '<' || *p == '>' || *p == '&')
			fprintf(out, "\\%x ", *p);
		else
			fputc(*p, out);
	}
}

/* rpt_decision - page 1's decision table (reports/decision.c): the result and what it rests on */
static void rpt_decision(struct rpt *r, json_t *selftest)
{
	struct decision d;
	int i;

	decision_read(r->dir, r->verdicts, selftest, r->sysinfo, r->run, r->results, false, &d);
	fputs("<table id=\"decision\">", r->out);
	for (i = 0; i < DECISION_N; i++) {
		fprintf(r->out, "<tr><th>%s</th><td><b class=\"%s\">", d.line[i].name, d.line[i].ok ? "ok" : "bad");
		rpt_esc(r->out, d.line[i].state);
		fputs("</b>: ", r->out);
		rpt_esc(r->out, d.line[i].text);
		fputs("</td></tr>", r->out);
	}
	fputs("</table>\n", r->out);
}

/* rpt_head_verdicts - page 1's result from verdicts.json, boxed, and the decision table under it (issue 32.10) */
static void rpt_head_verdicts(struct rpt *r, json_t *selftest)
{
	char word[32];
	size_t i;

	/* the result as the decision table writes its answers: "not_valid" is NOT VALID */
	snprintf(word, sizeof(word), "%s", rpt_str(r->verdicts, "result", "?"));
	for (i = 0; word[i]; i++)
		word[i] = word[i] == '_' ? ' ' : (char)toupper((unsigned char)word[i]);
	if (r->verdicts)
		fprintf(r->out, "<p class=\"result\" id=\"result\">RESULT: %s — %d passed, %d failed, %d not measured, "
			"%d not valid</p>\n", word, (int)rpt_num(r->verdicts, "counts.pass"),
			(int)rpt_num(r->verdicts, "counts.fail"), (int)rpt_num(r->verdicts, "counts.not_measured"),
			(int)rpt_num(r->verdicts, "counts.not_valid"));
	rpt_decision(r, selftest);
}

/*
 * rpt_load_short - page 1's lines from verdicts.json: the loads that fell
 * short of their [validity] threshold, and the interfaces this machine
 * emulated (issue 32.4, 32.5)
 */
static void rpt_load_short(struct rpt *r)
{
	json_t *e;
	size_t i;

	if (!r->verdicts)
		return;
	json_array_foreach(pf_jpath_get(r->verdicts, "load_gate.loads"), i, e)
		if (json_is_false(json_object_get(e, "ok"))) {
			bool known = json_is_number(json_object_get(e, "achieved_pct"));

			fputs(known ? "<p class=\"partial\">LOAD SHORT: the " : "<p class=\"partial\">LOAD SHORT: what the ",
			      r->out);
			rpt_esc(r->out, rpt_str(e, "load", "?"));
			if (known)
				fprintf(r->out, " load achieved %.1f %% of its target (", rpt_num(e, "achieved_pct"));
			else
				fputs(" load achieved is not known (", r->out);
			rpt_esc(r->out, rpt_str(e, "compared", "?"));
			fprintf(r->out, "), %s the %.0f %% its verdicts need: their passes are not valid.</p>\n",
				known ? "below" : "not shown to reach", rpt_num(e, "min_pct"));
		}
	if (!json_array_size(pf_jpath_get(r->verdicts, "emulated")))
		return;
	fputs("<p class=\"emulated\" id=\"emulated\">EMULATED: ", r->out);
	json_array_foreach(pf_jpath_get(r->verdicts, "emulated"), i, e) {
		fputs(i ? "; <b>" : "<b>", r->out);
		rpt_esc(r->out, rpt_str(e, "interface", "?"));
		fputs("</b> ", r->out);
		rpt_esc(r->out, rpt_str(e, "how", ""));
		fprintf(r->out, " (%d verdict%s)", (int)rpt_num(e, "verdicts"), rpt_num(e, "verdicts") == 1 ? "" : "s");
	}
	fputs(". The verdicts resting on them measure these stand-ins, not the board's interfaces.</p>\n", r->out);
}

/* rpt_head - the document head, the page header repeated on every printed page, the title block */
static void rpt_head(struct rpt *r)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	json_t *st, *w;
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>preflight report ", r->out);
	rpt_esc(r->out, r->run_id);
	fprintf(r->out, "</title>\n<style>\n%s", rpt_css);
	/* the page's margin boxes: the run id (and PARTIAL, with why) on every printed page */
	fputs("@page{@top-left{content:\"preflight report \u2014 run ", r->out);
	rpt_css_string(r->out, r->run_id);
	fputs("\";font-size:8pt;color:#444}", r->out);
	if (r->partial) {
		fputs("@top-right{content:\"PARTIAL: ", r->out);
		rpt_css_string(r->out, r->partial_why);
		fputs("\";font-size:8pt;font-weight:bold;color:#b00000}", r->out);
	}
	fputs("@bottom-right{content:\"page \" counter(page) \" of \" counter(pages);font-size:8pt;color:#444}}\n"
	      "</style></head><body>\n", r->out);
	fputs("<section id=\"top\"><h1>Timing evidence: run ", r->out);
	rpt_esc(r->out, r->run_id);
	fputs("</h1>\n", r->out);
	if (r->partial) {
		fputs("<p class=\"partial\">PARTIAL: ", r->out);
		rpt_esc(r->out, r->partial_why);
		fputs(". Every number below covers only what was recorded before the run stopped.</p>\n", r->out);
	}
	st = rpt_load_json(r, "selftest/selftest.json");
	rpt_head_verdicts(r, st);
	if (st && !json_is_true(json_object_get(st, "pass")))
		fputs("<p class=\"partial\">SELFTEST FAILED: preflight's selftest on this machine did not meet its goals; "
		      "the verdicts below rest on measurements it could not validate (see "
		      "<a href=\"#validity\">Measurement validity</a>).</p>\n", r->out);
	json_decref(st);
	rpt_load_short(r);
	if (json_is_true(pf_jpath_get(r->sysinfo, "virtualization.emulated"))) {
		fputs("<p class=\"partial\">EMULATED CPU: this run's CPU was emulated (", r->out);
		rpt_esc(r->out, rpt_str(r->sysinfo, "virtualization.emulation_evidence", "?"));
		fputs("): every timing in this report is functional evidence only, not evidence of the board's "
		      "latency.</p>\n", r->out);
	}
	/* the run's own warnings (run.json), as qualification.txt gives them */
	json_array_foreach(pf_jpath_get(r->run, "warnings"), i, w) {
		fputs("<p class=\"partial\">WARNING: ", r->out);
		rpt_esc(r->out, json_is_string(w) ? json_string_value(w) : "?");
		fputs("</p>\n", r->out);
	}
	fputs("<table>", r->out);
	rpt_kv(r, "scenario", rpt_str(r->run, "scenario.name", rpt_str(r->results, "run.scenario", NULL)));
	rpt_kv(r, "started (UTC)", rpt_str(r->run, "started_utc", NULL));
	rpt_kv(r, "ended (UTC)", rpt_str(r->run, "ended_utc", NULL));
	rpt_kv(r, "analysed by", rpt_str(r->results, "generator", NULL));
	/* what this run is compared with (--previous, --baseline, --history; run and qualify pass theirs) */
	if (r->previous_dir)
		rpt_kv(r, "compared with a previous run (V1)", r->previous_dir);
	if (r->baseline_file) {
		char b[PATH_MAX + 64];

		snprintf(b, sizeof(b), "%s (%zu runs)", r->baseline_file, json_array_size(pf_jpath_get(r->baseline, "runs")));
		rpt_kv(r, "compared with a baseline (V1)", b);
	}
	if (r->history) {
		char h[PATH_MAX + 64];

		snprintf(h, sizeof(h), "%s (%zu %s)", r->history_db,
			 json_array_size(json_object_get(r->history, "runs")), rpt_str(r->run, "started_utc", NULL) ?
			 "earlier runs of this scenario" : "latest other runs of this scenario, any date");
		rpt_kv(r, "compared with the history (V2)", h);
	}
	if (epoch && *epoch) {
		char date[64];

		rpt_kv(r, "report date (SOURCE_DATE_EPOCH)", pf_utc(date, sizeof(date), strtoll(epoch, NULL, 10), false));
	}
	fputs("</table>\n<nav><ol><li><a href=\"#verdicts\">Verdicts</a></li><li><a href=\"#config\">Configuration identification</a></li>"
	      "<li><a href=\"#trace\">Traceability matrix</a></li>"
	      "<li><a href=\"#loads\">Load proof</a></li><li><a href=\"#baseline\">Kernel baseline</a></li>"
	      "<li><a href=\"#tasks\">Per task</a></li><li><a href=\"#utilisation\">Utilisation</a></li>"
	      "<li><a href=\"#worst\">Worst cases</a></li>"
	      "<li><a href=\"#validity\">Measurement validity</a></li><li><a href=\"#deviations\">Deviations and limitations</a></li>"
	      "</ol><p>Appendix: <a href=\"#flight\">A1 Flight</a>, <a href=\"#worst-more\">A2 Further worst cases</a>, "
	      "<a href=\"#load-reports\">A3 The loads' own reports</a>, <a href=\"#appendix\">A4 Files of the run</a>, "
	      "<a href=\"#definitions\">A5 Metric definitions</a>; then the <a href=\"#signoff\">Sign-off</a> page</p></nav>\n", r->out);
}

/* rpt_verdict_word - how a verdict is shown, and its row's class */
static const char *rpt_verdict_word(const struct rpt_verdict *v, const char **cls)
{
	static const struct { const char *key, *word, *cls; } w[] = {
		{ "pass", "PASS", "pass" }, { "fail", "FAIL", "fail" },
		{ "not_measured", "NOT MEASURED", "skip" }, { "not_valid", "NOT VALID", "invalid" },
	};

	for (size_t i = 0; i < PF_ARRAY_SIZE(w); i++)
		if (!strcmp(v->verdict, w[i].key)) {
			*cls = w[i].cls;
			return w[i].word;
		}
	*cls = "skip";
	return "?";
}

/*
 * rpt_worst_short - a worst case's culprit line cut to the job and how late it was, "io job 1329:
 * 19211 µs late" (a line that opens with what the latency counts from loses that too): the whole line, with its culprits, is under Worst cases, and in the verdict
 * table's narrow column it made each row a third of a page (issue 32.10, 32.13)
 */
static const char *rpt_worst_short(const char *worst, char *buf, size_t size)
{
	const char *job = strstr(worst, " job "), *dash, *paren, *close;
	size_t end;

	/* from the task's name before " job " (a line may open with what its latency counts from) */
	while (job && job > worst && job[-1] != ' ')
		job--;
	worst = job ? job : worst;
	dash = strstr(worst, " \u2014 ");
	paren = strstr(worst, " (pid ");
	end = dash ? (size_t)(dash - worst) : strlen(worst);

	if (paren && (size_t)(paren - worst) < end && (close = strstr(paren, "):")) && (size_t)(close - worst) < end)
		snprintf(buf, size, "%.*s%.*s", (int)(paren - worst), worst, (int)(end - (close + 1 - worst)), close + 1);
	else
		snprintf(buf, size, "%.*s", (int)end, worst);
	return buf;
}

/*
 * rpt_tail_row - under a latency verdict's row, across the table, what its task's tail says at the
 * bound (lib/tail_model.c's pf_tail_text: P per activation and per hour, the run that would
 * show 1e-9; or why there is no model); nothing for a results.json without tails
 */
static void rpt_tail_row(struct rpt *r, const struct rpt_verdict *v, const char *cls, int ncols)
{
	char task[64], path[160], text[1024];
	const char *what;
	size_t len;
	json_t *tail;

	if (strncmp(v->path, "tasks.", 6) || !strstr(v->path, "latency") || isnan(v->bound_ns))
		return;
	len = strcspn(v->path + 6, ".");
	if (len >= sizeof(task))
		return;
	snprintf(task, sizeof(task), "%.*s", (int)len, v->path + 6);
	snprintf(path, sizeof(path), "tasks.%s", task);
	tail = pf_tail_of_verdict(pf_jpath_get(r->results, path), v->path, &what);
	if (!tail)
		return;
	/* a row of its own, the table's width: in the evidence column it made the row ten lines high */
	fprintf(r->out, "<tr class=\"%s tail-row\"><td></td><td colspan=\"%d\"><span class=\"tail\">tail (%s): ", cls,
		ncols - 1, what + strlen("the "));
	rpt_esc(r->out, pf_tail_text(tail, v->bound_ns, v->bound, text, sizeof(text)));
	fputs("</span></td></tr>\n", r->out);
}

/*
 * rpt_fleet - with --history, the fleet's board of this run's scenario: the latest run of
 * each board and kernel in the history, its result and verdicts, where its report is (a
 * path on the runner that made it: the report links to nothing outside itself; issue 31.3)
 */
static void rpt_fleet(struct rpt *r)
{
	json_t *boards = json_object_get(r->history, "boards"), *b;
	size_t i;

	if (!json_array_size(boards))
		return;
	fputs("<h3 id=\"fleet\">The fleet: the latest run of this scenario per board and kernel in the history</h3>\n"
	      "<table><tr><th>board</th><th>kernel</th><th>started (UTC)</th><th>result</th><th>passed</th>"
	      "<th>failed</th><th>skipped</th><th>report (on its runner)</th></tr>\n", r->out);
	json_array_foreach(boards, i, b) {
		const char *cells[] = { rpt_str(b, "board", "—"), rpt_str(b, "kernel_release", "—"),
					rpt_str(b, "started_utc", "—"), rpt_str(b, "result", "?") };

		fprintf(r->out, "<tr%s>", strcmp(cells[3], "pass") ? " class=\"fail\"" : "");
		for (size_t k = 0; k < PF_ARRAY_SIZE(cells); k++) {
			fputs("<td>", r->out);
			rpt_esc(r->out, cells[k]);
			fputs("</td>", r->out);
		}
		fprintf(r->out, "<td>%lld</td><td>%lld</td><td>%lld</td><td><code>", (long long)rpt_num(b, "passed"),
			(long long)rpt_num(b, "failed"), (long long)rpt_num(b, "skipped"));
		rpt_esc(r->out, rpt_str(b, "path", "—"));
		fputs("/report.html</code></td></tr>\n", r->out);
	}
	fputs("</table>\n", r->out);
}

/* rpt_s_verdicts - 1: one row per requirement and element, from verdicts.json */
static void rpt_s_verdicts(struct rpt *r)
{
	int count[4] = { 0 }, same;
	char anchor[160], attr[960], n[32], shortw[sizeof(r->verdict->worst)];
	const char *cls, *word;
	bool clock = false;	/* a column for the other clock: some verdict has it */

	rpt_section(r, "1", "verdicts", "Verdicts");
	fputs("<p class=\"basis\">Basis: each observed value is the <b>measured high-water mark under the declared load</b> "
	      "during this run; it is not a WCET and not a bound on what another run may see.</p>\n", r->out);
	if (!r->verdicts) {
		rpt_note_missing(r, "verdicts: no verdicts.json in the run directory (no budgets were checked)");
		return;
	}
	for (int i = 0; i < r->nverdicts && !clock; i++)
		clock = r->verdict[i].other_clock[0] != '\0';
	fprintf(r->out, "<table id=\"verdict-table\"%s><thead><tr><th>id</th><th>requirement</th><th>metric</th><th>budget</th>"
		"<th>observed</th><th>margin</th>%s<th>N</th><th>verdict</th><th>evidence</th></tr></thead>\n",
		clock ? " class=\"clock\"" : "", clock ? "<th>other clock</th>" : "");
	for (int i = 0; i < r->nverdicts; i++) {
		struct rpt_verdict *v = &r->verdict[i];

		word = rpt_verdict_word(v, &cls);
		count[!strcmp(cls, "pass") ? 0 : !strcmp(cls, "fail") ? 1 : !strcmp(cls, "skip") ? 2 : 3]++;
		fprintf(r->out, "<tr class=\"%s\"><td>", cls);
		rpt_esc(r->out, v->id);
		/* a requirement judged per element: its text once, in its first row */
		if (i && !strcmp(v->id, v[-1].id) && !strcmp(v->requirement, v[-1].requirement))
			fputs("</td><td class=\"same\">as above", r->out);
		else {
			fputs("</td><td>", r->out);
			rpt_esc(r->out, v->requirement);
		}
		fputs("</td><td>", r->out);
		/* its results.json path is the traceability matrix's (3): here it made each row twice as long */
		rpt_esc(r->out, v->label);
		fputs("</td><td>", r->out);
		rpt_esc(r->out, v->op);
		fputs(" ", r->out);
		rpt_esc(r->out, v->bound);
		fputs("</td><td class=\"n\">", r->out);
		rpt_esc(r->out, v->observed[0] ? v->observed : "not measured");
		fputs("</td><td class=\"n\">", r->out);
		rpt_esc(r->out, v->margin);
		if (clock) {
			fputs("</td><td class=\"n\">", r->out);
			rpt_esc(r->out, v->other_clock[0] ? v->other_clock : "—");
		}
		if (v->within_uncertainty)
			fputs(" <b class=\"flip\">margin within it</b>", r->out);
		if (v->n >= 0)
			snprintf(n, sizeof(n), "%lld", v->n);
		else if (isfinite(v->over_s))	/* a utilisation or a rate: the time it was measured over */
			snprintf(n, sizeof(n), "%.1f s", v->over_s);
		else
			snprintf(n, sizeof(n), "—");
		fprintf(r->out, "</td><td class=\"n\">%s</td><td class=\"v\">%s</td><td>", n, word);
		if (v->path[0])
			fprintf(r->out, "<a href=\"#%s\">§</a>",
				rpt_esc_str(rpt_evidence(v->path, anchor, sizeof(anchor)), attr, sizeof(attr)));
		for (same = 0; v->why[0] && same < i && strcmp(v->why, r->verdict[same].why); same++)
			;	/* the row that gives the reason */
		if (v->why[0] && i && !strcmp(v->why, v[-1].why))
			fputs(" <span class=\"same\">why: as above</span>", r->out);	/* a phase's short load, said once */
		else if (v->why[0] && same < i) {
			fputs(" <span class=\"same\">why: as for ", r->out);	/* ... and once only for the table */
			rpt_esc(r->out, r->verdict[same].id);
			fputs(" ", r->out);
			rpt_esc(r->out, r->verdict[same].label);
			fputs("</span>", r->out);
		} else if (v->why[0] && strlen(v->why) > 120) {
			/* a long reason (every short load, with its figures) is said whole once, in section 10 */
			fputs(" <span class=\"same\">why: <a href=\"#deviations\">section 10</a></span>", r->out);
		} else if (v->why[0]) {
			fputs(" ", r->out);
			rpt_esc(r->out, v->why);
		}
		if (v->worst[0]) {
			fputs(" worst: <a href=\"#worst\">", r->out);
			rpt_esc(r->out, rpt_worst_short(v->worst, shortw, sizeof(shortw)));
			fputs("</a>", r->out);
		}
		if (v->emulated[0]) {
			fputs(" <span class=\"emulated\">emulated: ", r->out);
			rpt_esc(r->out, v->emulated);
			fputs("</span>", r->out);
		}
		fputs("</td></tr>\n", r->out);
		rpt_tail_row(r, v, cls, clock ? 10 : 9);
	}
	fprintf(r->out, "</table>\n<p id=\"verdict-summary\"><b>%d passed, %d failed, %d not measured, %d not valid.</b> "
		"A requirement that was not measured, or whose pass is not valid (a load short of its target), is never "
		"counted as passed.</p>\n", count[0], count[1], count[2], count[3]);
	if (clock)
		fputs("<p class=\"also\">Task times are the trace's, the authoritative clock. <i>Other clock</i>: ± the "
		      "largest trace − job log difference over the task's jobs, and the job log's own figure; <i>margin "
		      "within it</i>: the job log's clock may read the verdict the other way (docs/results.md, Two "
		      "clocks).</p>\n", r->out);
	rpt_plot_v1(r);
	rpt_plot_v2(r);
	rpt_fleet(r);
}

/* rpt_sha256 - the SHA-256 of a file of the run directory (sha256sum) into hex[65]; 0, or -1 */
static int rpt_sha256(struct rpt *r, const char *rel, char hex[65])
{
	char path[PATH_MAX], out[PATH_MAX], *text;
	char *argv[] = { "sha256sum", "--", path, NULL };

	rpt_path(path, sizeof(path), r->dir, rel);
	snprintf(out, sizeof(out), "%s/sha256", r->tmpdir);
	text = rpt_exec(argv, out, "/dev/null") == 0 ? rpt_slurp(out, NULL) : NULL;
	if (!text || strspn(text, "0123456789abcdef") != 64) {
		free(text);
		return -1;
	}
	snprintf(hex, 65, "%.64s", text);
	free(text);
	return 0;
}

/*
 * rpt_kconfig_check - the SHA-256 of the run directory's kernel.config into r->kconfig_sha256
 * ("" when there is none or it cannot be computed), checked against the one run.json recorded
 */
static void rpt_kconfig_check(struct rpt *r)
{
	const char *want = rpt_str(r->run, "preflight.kernel_config.sha256", NULL);
	char path[PATH_MAX];

	r->kconfig_sha256[0] = '\0';
	if (access(rpt_path(path, sizeof(path), r->dir, "kernel.config"), F_OK))
		return;
	if (rpt_sha256(r, "kernel.config", r->kconfig_sha256) < 0)
		rpt_note_missing(r, "kernel configuration: the SHA-256 of kernel.config could not be computed (sha256sum)");
	else if (want && strcmp(want, r->kconfig_sha256))
		rpt_note_missing(r, "kernel configuration: kernel.config's SHA-256 is not the one run.json recorded: "
				 "the file was changed after the run");
}

/*
 * rpt_kconfig - the kernel configuration as a file of the run directory: its size, lines and
 * SHA-256 (against run.json's), and its realtime-relevant options (lib/kconfig.c), not its
 * text: the whole of a distribution's .config was 138 of 177 printed pages (issue 32.13)
 */
static void rpt_kconfig(struct rpt *r)
{
	const char *want = rpt_str(r->run, "preflight.kernel_config.sha256", NULL);
	char *text = rpt_text(r, "kernel.config"), *line, *save = NULL;
	char val[PF_KCONFIG_RT_NOPTS][64] = { { 0 } };
	size_t lines = 0, bytes = text ? strlen(text) : 0;

	fputs("<h3 id=\"kconfig\">Kernel configuration (kernel.config)</h3>", r->out);
	if (!text) {
		fputs("<p>absent from the run directory</p>\n", r->out);
		return;
	}
	for (const char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		for (size_t i = 0; i < PF_KCONFIG_RT_NOPTS; i++)
			pf_kconfig_line(line, pf_kconfig_rt_opts[i], val[i], sizeof(val[i]));
	free(text);
	fprintf(r->out, "<p>The file <code>kernel.config</code> of the run directory (%zu lines, %zu bytes; the "
		"data manifest lists it) is the whole configuration; it is not printed here. ", lines, bytes);
	if (!r->kconfig_sha256[0])
		fputs("Its SHA-256 could not be computed (sha256sum).</p>\n", r->out);
	else {
		fprintf(r->out, "SHA-256 <code id=\"kconfig-sha256\">%s</code>", r->kconfig_sha256);
		if (want && !strcmp(want, r->kconfig_sha256))
			fputs(", as run.json recorded it.</p>\n", r->out);
		else if (want) {
			fputs(", <b>not</b> the ", r->out);
			rpt_esc(r->out, want);
			fputs(" run.json recorded: the file was changed after the run.</p>\n", r->out);
		} else
			fputs(" (run.json records none).</p>\n", r->out);
	}
	fputs("<table id=\"kconfig-rt\"><tr><th>realtime-relevant option</th><th>value</th></tr>\n", r->out);
	for (size_t i = 0; i < PF_KCONFIG_RT_NOPTS; i++) {
		fprintf(r->out, "<tr><td>%s</td><td>", pf_kconfig_rt_opts[i]);
		rpt_esc(r->out, val[i][0] ? val[i] : "not in the file");
		fputs("</td></tr>\n", r->out);
	}
	fputs("</table>\n", r->out);
}

/* rpt_s_config - 2: what was measured, on what, with what */
/* section 8's contributor tables: the largest four, the rest in one row (A2 and results.json: all) */
#define RPT_WORST_ROWS 5

/* rpt_steal - a phase's steal time per CPU from run.json ("cpu0 12, cpu1 0"), or why there is none */
static void rpt_steal(struct rpt *r, json_t *ph)
{
	json_t *v;
	size_t i;

	if (!json_is_array(json_object_get(ph, "steal_ms"))) {
		rpt_esc(r->out, rpt_str(ph, "steal_unavailable", ph ? "not recorded (a run of an older preflight)" :
					"no app phase in run.json"));
		return;
	}
	json_array_foreach(json_object_get(ph, "steal_ms"), i, v)
		fprintf(r->out, "%scpu%zu %lld", i ? ", " : "", i, (long long)json_integer_value(v));
}

/* rpt_app_phase - run.json's app phase (measure flightapp), or NULL */
static json_t *rpt_app_phase(struct rpt *r)
{
	json_t *ph;
	size_t i;

	json_array_foreach(pf_jpath_get(r->run, "phases"), i, ph)
		if (!strcmp(rpt_str(ph, "measure", ""), "flightapp"))
			return ph;
	return NULL;
}

/* rpt_binaries - the programs the run executed, each with its SHA-256 (run.json preflight.binaries, issue 32.12) */
static void rpt_binaries(struct rpt *r)
{
	json_t *b;
	size_t i;

	if (!json_array_size(pf_jpath_get(r->run, "preflight.binaries"))) {
		rpt_kv(r, "binaries (SHA-256)", "not recorded (a run of an older preflight)");
		return;
	}
	fputs("<tr><th>binaries (SHA-256)</th><td class=\"hashes\">", r->out);
	json_array_foreach(pf_jpath_get(r->run, "preflight.binaries"), i, b) {
		fputs(i ? "<br>" : "", r->out);
		rpt_esc(r->out, rpt_str(b, "name", "?"));
		fputs(" <code>", r->out);
		rpt_esc(r->out, rpt_str(b, "sha256", "(not readable)"));
		fputs("</code> ", r->out);
		rpt_esc(r->out, rpt_str(b, "path", ""));
	}
	fputs("</td></tr>", r->out);
}

/*
 * rpt_cyclictest_commands - the cyclictest command line of every cyclictest phase (its
 * results.json), the idle one's as well as the loaded one's (issue 32.12); an analyze-only
 * directory: its own results.json's
 */
static void rpt_cyclictest_commands(struct rpt *r)
{
	char key[96];
	json_t *ph, *res;
	size_t i;
	int n = 0;

	json_array_foreach(pf_jpath_get(r->run, "phases"), i, ph) {
		if (strcmp(rpt_str(ph, "measure", ""), "cyclictest"))
			continue;
		snprintf(key, sizeof(key), "%s/results.json", rpt_str(ph, "dir", "?"));
		res = rpt_load_json(r, key);
		snprintf(key, sizeof(key), "cyclictest command (%s)", rpt_str(ph, "dir", "?"));
		rpt_kv(r, key, rpt_str(res, "cyclictest.cmdline", "not recorded"));
		json_decref(res);
		n++;
	}
	if (!n)
		rpt_kv_json(r, "cyclictest command", r->results, "cyclictest.cmdline");
}

static void rpt_s_config(struct rpt *r)
{
	json_t *w;
	size_t i;
	char buf[512];

	rpt_section(r, "2", "config", "Configuration identification");
	rpt_kconfig_check(r);
	if (!r->sysinfo)
		rpt_note_missing(r, "configuration: no sysinfo.json (the system was not surveyed with this run)");
	else {
		fputs("<h3>System</h3><table class=\"cfg\">", r->out);
		rpt_kv_json(r, "host", r->sysinfo, "hostname");
		rpt_kv_json(r, "OS", r->sysinfo, "os");
		rpt_kv_json(r, "kernel release", r->sysinfo, "kernel.release");
		rpt_kv_json(r, "kernel version", r->sysinfo, "kernel.version");
		rpt_kv_json(r, "architecture", r->sysinfo, "kernel.arch");
		rpt_kv_json(r, "preemption model", r->sysinfo, "kernel.preempt_model");
		rpt_kv_json(r, "PREEMPT_RT", r->sysinfo, "kernel.preempt_rt");
		rpt_kv_json(r, "config source", r->sysinfo, "kernel.config_source");
		rpt_kv_json(r, "config (realtime-relevant options)", r->sysinfo, "kernel.config");
		rpt_kv_json(r, "HZ", r->sysinfo, "kernel.hz");
		rpt_kv_json(r, "command line", r->sysinfo, "kernel.cmdline");
		rpt_kv_json(r, "CPU model", r->sysinfo, "cpus.model");
		rpt_kv_json(r, "CPUs online", r->sysinfo, "cpus.online");
		rpt_kv_json(r, "isolated CPUs", r->sysinfo, "cpus.isolated");
		rpt_kv_json(r, "nohz_full", r->sysinfo, "cpus.nohz_full");
		rpt_kv_json(r, "cpuidle driver / governor", r->sysinfo, "cpus.cpuidle_driver");
		rpt_kv_json(r, "cpuidle governor", r->sysinfo, "cpus.cpuidle_governor");
		rpt_kv_json(r, "per-CPU governor and idle states", r->sysinfo, "cpus.per_cpu");
		rpt_kv_json(r, "clocksource", r->sysinfo, "clocksource.current");
		rpt_kv_json(r, "RT throttling", r->sysinfo, "rt_throttle");
		rpt_kv_json(r, "virtualisation", r->sysinfo, "virtualization");
		rpt_kv_json(r, "surveyed at (UTC)", r->sysinfo, "collected_at");
		fputs("</table>\n<h3>Warnings of the survey</h3>\n<ul>", r->out);
		json_array_foreach(pf_jpath_get(r->sysinfo, "warnings"), i, w) {
			fputs("<li><b>", r->out);
			rpt_esc(r->out, rpt_str(w, "severity", "?"));
			fputs("</b> ", r->out);
			rpt_esc(r->out, rpt_str(w, "message", ""));
			fputs(" — ", r->out);
			rpt_esc(r->out, rpt_str(w, "advice", ""));
			fputs("</li>", r->out);
		}
		if (!json_array_size(pf_jpath_get(r->sysinfo, "warnings")))
			fputs("<li>none</li>", r->out);
		fputs("</ul>\n", r->out);
	}
	fputs("<h3>Software and run</h3><table class=\"cfg\">", r->out);
	rpt_kv_json(r, "analysis", r->results, "generator");
	if (json_is_object(pf_jpath_get(r->run, "preflight"))) {
		rpt_kv_json(r, "preflight version (run)", r->run, "preflight.version");
		rpt_kv_json(r, "preflight commit (run)", r->run, "preflight.commit");
		rpt_kv(r, "build tree", rpt_str(r->run, "preflight.build_tree", "not recorded (a run of an older preflight)"));
		rpt_binaries(r);
		rpt_kv_json(r, "compiler", r->run, "preflight.compiler");
		rpt_kv_json(r, "libtracefs", r->run, "preflight.libraries.libtracefs");
		rpt_kv_json(r, "libtracecmd", r->run, "preflight.libraries.libtracecmd");
		rpt_kv_json(r, "libtraceevent", r->run, "preflight.libraries.libtraceevent");
		rpt_kv_json(r, "jansson", r->run, "preflight.libraries.jansson");
		rpt_kv_json(r, "gnuplot at run time", r->run, "preflight.tools.gnuplot");
		rpt_kv_json(r, "cyclictest at run time", r->run, "preflight.tools.cyclictest");
		rpt_kv_json(r, "kernel config SHA-256", r->run, "preflight.kernel_config.sha256");
		rpt_kv_json(r, "kernel config copied from", r->run, "preflight.kernel_config.source");
		rpt_kv(r, "kernel.config of the run directory", !r->kconfig_sha256[0] ? "absent, or its hash could not be computed" :
		       !strcmp(r->kconfig_sha256, rpt_str(r->run, "preflight.kernel_config.sha256", "")) ?
		       "the same SHA-256 (its realtime-relevant options in the Appendix)" : "a different SHA-256: changed after the run");
		if (rpt_str(r->run, "preflight.kernel_config.error", NULL))
			rpt_note_missing(r, "configuration: the kernel config was not recorded: %s",
					 rpt_str(r->run, "preflight.kernel_config.error", ""));
	} else {
		rpt_kv(r, "preflight commit, compiler, library versions", "not recorded in the run directory (see Deviations)");
		rpt_note_missing(r, "configuration: run.json does not record the preflight version and commit, compiler, "
				 "library and tool versions or the kernel config hash (%s)",
				 r->run ? "a run of an older preflight" : "no run.json");
	}
	rpt_kv(r, "gnuplot (figures of this report)", r->gnuplot_version);
	rpt_kv_json(r, "cyclictest (rt-tests)", r->results, "cyclictest.rt_tests_version");
	rpt_cyclictest_commands(r);
	rpt_kv_json(r, "scenario", r->run, "scenario.name");
	rpt_kv_json(r, "scenario source", r->run, "scenario.source");
	rpt_kv_json(r, "started (UTC)", r->run, "started_utc");
	rpt_kv_json(r, "ended (UTC)", r->run, "ended_utc");
	rpt_kv_json(r, "exit code of the run", r->run, "exit_code");
	rpt_kv_json(r, "trace clock", r->results, "trace.clock");
	rpt_kv_json(r, "trace file version", r->results, "trace.file_version");
	fputs("</table>\n", r->out);
	if (json_array_size(pf_jpath_get(r->run, "phases"))) {
		json_t *ph;

		fputs("<h3>Phases</h3><table><tr><th>phase</th><th>measure</th><th>loads</th><th>planned (s)</th>"
		      "<th>elapsed (s)</th><th>partial</th><th>steal per CPU (ms)</th><th>directory</th></tr>\n", r->out);
		json_array_foreach(pf_jpath_get(r->run, "phases"), i, ph) {
			char *loads = json_dumps(pf_jpath_get(ph, "loads"), JSON_ENCODE_ANY | JSON_COMPACT);

			fputs("<tr><td>", r->out);
			rpt_esc(r->out, rpt_str(ph, "name", "?"));
			fputs("</td><td>", r->out);
			rpt_esc(r->out, rpt_str(ph, "measure", "?"));
			fputs("</td><td>", r->out);
			rpt_esc(r->out, loads);
			fprintf(r->out, "</td><td class=\"n\">%.1f</td><td class=\"n\">%.1f</td><td>%s</td><td>",
				rpt_num(ph, "planned_s"), rpt_num(ph, "elapsed_s"),
				json_is_true(pf_jpath_get(ph, "partial")) ? "<b>yes</b>" : "no");
			rpt_steal(r, ph);
			fputs("</td><td>", r->out);
			rpt_esc(r->out, rpt_str(ph, "dir", ""));
			fputs("</td></tr>\n", r->out);
			free(loads);
		}
		fputs("</table>\n", r->out);
	}
	if (r->ntasks) {
		json_t *t;

		fputs("<h3>Task table of the app</h3><table><tr><th>task</th><th>colour</th><th>period (µs)</th>"
		      "<th>deadline (µs)</th><th>policy</th><th>prio</th><th>source</th></tr>\n", r->out);
		json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t) {
			fputs("<tr><td>", r->out);
			rpt_esc(r->out, rpt_str(t, "name", "?"));
			fprintf(r->out, "</td><td><span style=\"color:%s\">■■■</span></td>", rpt_task_colour(i));
			rpt_td_ns(r, pf_jpath_get(t, "period_ns"));
			rpt_td_ns(r, pf_jpath_get(t, "deadline_ns"));
			fputs("<td>", r->out);
			rpt_esc(r->out, rpt_str(t, "policy", "—"));
			fputs("</td>", r->out);
			rpt_td_int(r, pf_jpath_get(t, "prio"));
			fputs("<td>", r->out);
			rpt_esc(r->out, rpt_str(t, "source", "—"));
			fputs("</td></tr>\n", r->out);
		}
		fputs("</table>\n", r->out);
	}
	snprintf(buf, sizeof(buf), "%s", r->sums ? "see the data manifest in the Appendix (SHA-256 of every file)" :
		 "no SHA256SUMS in the run directory");
	fputs("<p>Raw files: ", r->out);
	rpt_esc(r->out, buf);
	fputs(".</p>\n", r->out);
}

/* rpt_s_trace - 3: requirement -> metric path -> data file -> figure -> verdict */
static void rpt_s_trace(struct rpt *r)
{
	char anchor[160], attr[960];
	const char *cls;

	rpt_section(r, "3", "trace", "Traceability matrix");
	if (!r->nverdicts) {
		rpt_note_missing(r, "traceability: no verdicts to trace");
		return;
	}
	fputs("<table><tr><th>requirement</th><th>metric path (results.json)</th><th>data file</th><th>figure</th>"
	      "<th>verdict</th></tr>\n", r->out);
	for (int i = 0; i < r->nverdicts; i++) {
		struct rpt_verdict *v = &r->verdict[i];
		const char *ev = v->path[0] ? rpt_evidence(v->path, anchor, sizeof(anchor)) : NULL;
		const char *file = !v->path[0] ? "—" : !strncmp(v->path, "tasks.", 6) || !strncmp(v->path, "app.", 4) ||
			!strncmp(v->path, "slots.", 6) ? "trace.dat + jobs.csv of the app phase" :
			!strncmp(v->path, "fsw.", 4) ? "fsw.json of the app phase" :
			!strncmp(v->path, "loads.", 6) ? "load-*.json (loads.json)" :
			!strncmp(v->path, "cyclictest", 10) ? "cyclictest.json" : "results.json";
		const char *fig = !ev ? "—" : !strncmp(ev, "task-", 5) ? (strstr(v->path, "activation_latency") ?
			"H1, E1, T1" : "per-task table") : !strcmp(ev, "utilisation") ? "U1" :
			!strcmp(ev, "baseline") ? "B1, X2" : "table";

		fputs("<tr><td>", r->out);
		rpt_esc(r->out, v->id);
		fputs("</td><td><code>", r->out);
		rpt_esc(r->out, v->path[0] ? v->path : v->label);
		fputs("</code></td><td>", r->out);
		rpt_esc(r->out, file);
		fputs("</td><td>", r->out);
		if (ev)
			fprintf(r->out, "<a href=\"#%s\">%s</a>", rpt_esc_str(ev, attr, sizeof(attr)), fig);
		else
			fputs("—", r->out);
		fprintf(r->out, "</td><td>%s</td></tr>\n", rpt_verdict_word(v, &cls));
	}
	fputs("</table>\n", r->out);
}

/* rpt_s_definitions - A5: what each number means (reference: in the appendix, issue 32.13) */
static void rpt_s_definitions(struct rpt *r)
{
	rpt_section(r, "A5", "definitions", "Metric definitions");
	fputs("<table><tr><th>metric</th><th>definition</th></tr>\n", r->out);
	rpt_kv(r, "activation latency", "start of the job (the app's start marker in the trace) − its release r_k "
	       "(the absolute time the job was due); per task, every job");
	rpt_kv(r, "response time", "end of the job − its release");
	rpt_kv(r, "execution time", "on-CPU time of the task's thread between the start and end markers (trace)");
	rpt_kv(r, "deadline miss / overrun", "response time > deadline / job still running at the next release");
	rpt_kv(r, "missed activation", "a release skipped: from release gaps in the trace, and the job log's missed column");
	rpt_kv(r, "wakeup latency", "switch-in − sched_waking of a thread (the whole delay the kernel added)");
	rpt_kv(r, "utilisation", "CPU time / elapsed time, as a share of one CPU; worst windows of 10 ms and 1 s aligned "
	       "to the trace start");
	rpt_kv(r, "cyclictest latency", "cyclictest's own measure (timer expiry to wake-up of its thread), per CPU, in "
	       "its histogram's 1 µs bins");
	rpt_kv_json(r, "clock", r->results, "trace.clock");
	rpt_kv(r, "percentiles", "the sample of rank ⌈q × N⌉, read from a log-linear histogram: exact below 256 ns, "
	       "otherwise within 1/128 (0.79 %) of the true sample; min and max are exact");
	rpt_kv(r, "lost events", "events the kernel ring buffer dropped; jobs overlapping a loss window are counted "
	       "under Measurement validity, and their metrics may be wrong");
	rpt_kv(r, "inferred context switches", "switches missing from the trace and inferred from the next event's pid: "
	       "runtime stays right to within the gap; no wakeup latency is taken from an inferred switch-in");
	fputs("</table>\n<p>The full definitions are in docs/results.md of preflight.</p>\n", r->out);
}

/* rpt_s_loads - 4: what each load achieved against its target, each second and per phase */
static void rpt_s_loads(struct rpt *r)
{
	json_t *ph;
	size_t i;
	int n = 0;

	rpt_section(r, "4", "loads", "Load proof");
	if (!r->loads) {
		rpt_note_missing(r, "load proof: no loads.json (no loads ran, or an analyze-only directory)");
		return;
	}
	json_array_foreach(pf_jpath_get(r->loads, "phases"), i, ph)
		n += json_object_size(pf_jpath_get(ph, "loads"));
	if (!n)
		fputs("<p>No phase of this run had a load.</p>\n", r->out);
	else {
		fputs("<p>What each load achieved against its target (the scenario's: scenario.ini in the appendix); "
		      "each load's own report is in <a href=\"#load-reports\">the appendix</a>.</p>\n", r->out);
		rpt_plot_l1(r);
	}
}

/* rpt_s_load_reports - A3: what each load reported of itself, per phase (docs/loads.md) */
static void rpt_s_load_reports(struct rpt *r)
{
	json_t *ph, *load;
	const char *name;
	size_t i;

	rpt_section(r, "A3", "load-reports", "The loads' own reports");
	if (!r->loads) {
		fputs("<p>No loads.json in the run directory.</p>\n", r->out);
		return;
	}
	fputs("<table><tr><th>phase</th><th>load</th><th>elapsed (s)</th><th>achieved</th></tr>\n", r->out);
	json_array_foreach(pf_jpath_get(r->loads, "phases"), i, ph) {
		json_object_foreach(pf_jpath_get(ph, "loads"), name, load) {
			char *ach = rpt_json_text(pf_jpath_get(load, "achieved"));

			fputs("<tr><td>", r->out);
			rpt_esc(r->out, rpt_str(ph, "phase", "?"));
			fputs("</td><td>", r->out);
			rpt_esc(r->out, name);
			fprintf(r->out, "</td><td class=\"n\">%.1f</td><td><code>", rpt_num(load, "elapsed_s"));
			rpt_esc(r->out, ach);
			fputs("</code></td></tr>\n", r->out);
			free(ach);
		}
	}
	fputs("</table>\n", r->out);
}

/* rpt_ct_rows - the per-CPU rows of one cyclictest baseline */
static void rpt_ct_rows(struct rpt *r, json_t *res, const char *what)
{
	static const char *const stats[] = { "min", "p50", "p99", "p99.9", "max" };
	json_t *t;
	size_t i;

	json_array_foreach(pf_jpath_get(res, "cyclictest.threads"), i, t) {
		fprintf(r->out, "<tr><td>%s</td>", what);
		rpt_td_int(r, pf_jpath_get(t, "cpu"));
		rpt_td_int(r, pf_jpath_get(t, "latency_ns.count"));
		for (size_t k = 0; k < PF_ARRAY_SIZE(stats); k++)
			rpt_td_stat(r, pf_jpath_get(t, "latency_ns"), stats[k]);
		fputs("</tr>\n", r->out);
	}
}

/*
 * rpt_ct_worst - a traced baseline's worst wakeups with their culprits
 * (cyclictest.trace, docs/results.md cyclictest_wakeups), their summary lines
 */
static void rpt_ct_worst(struct rpt *r, json_t *res, const char *what)
{
	json_t *worst = pf_jpath_get(res, "cyclictest_wakeups.worst"), *w;
	size_t i;

	if (!json_array_size(worst))
		return;
	fprintf(r->out, "<p>cyclictest's worst wakeups explained (%s phase, from its %s):</p>\n<ul>\n", what,
		!strcmp(rpt_str(res, "cyclictest_wakeups.source", ""), "snapshots") ? "flight-recorder snapshots" :
		"trace");
	json_array_foreach(worst, i, w) {
		fputs("<li>", r->out);
		rpt_esc(r->out, rpt_str(w, "summary", "?"));
		fputs("</li>\n", r->out);
	}
	fputs("</ul>\n", r->out);
}

/* rpt_ct_overflow - a baseline whose histogram overflowed, said in words (issue 32.15) */
static void rpt_ct_overflow(struct rpt *r, json_t *res, const char *what)
{
	char text[512];

	if (!ct_overflow_text(res, text, sizeof(text)))
		return;
	fprintf(r->out, "<p class=\"ct-overflow\">%s phase: ", what);
	rpt_esc(r->out, text);
	fputs("</p>\n", r->out);
}

/* rpt_s_baseline - 5: cyclictest idle and loaded, per CPU */
static void rpt_s_baseline(struct rpt *r)
{
	rpt_section(r, "5", "baseline", "Kernel baseline");
	if (!r->base_idle && !r->base_loaded) {
		rpt_note_missing(r, "kernel baseline: no cyclictest phase in this run");
		return;
	}
	fputs("<table><tr><th>phase</th><th>CPU</th><th>N</th><th>min (µs)</th><th>p50 (µs)</th><th>p99 (µs)</th>"
	      "<th>p99.9 (µs)</th><th>max (µs)</th></tr>\n", r->out);
	rpt_ct_rows(r, r->base_idle, "idle");
	rpt_ct_rows(r, r->base_loaded, "loaded");
	fputs("</table>\n", r->out);
	if (!r->base_idle)
		rpt_note_missing(r, "kernel baseline: no idle cyclictest phase");
	if (!r->base_loaded)
		rpt_note_missing(r, "kernel baseline: no loaded cyclictest phase");
	rpt_ct_overflow(r, r->base_idle, "idle");
	if (r->base_loaded != r->base_idle)
		rpt_ct_overflow(r, r->base_loaded, "loaded");
	rpt_ct_worst(r, r->base_idle, "idle");
	if (r->base_loaded != r->base_idle)
		rpt_ct_worst(r, r->base_loaded, "loaded");
	if (rpt_str(r->base_loaded ? r->base_loaded : r->base_idle, "cyclictest.cmdline", NULL)) {
		fputs("<p>cyclictest command: <code>", r->out);
		rpt_esc(r->out, rpt_str(r->base_loaded ? r->base_loaded : r->base_idle, "cyclictest.cmdline", ""));
		fputs("</code></p>\n", r->out);
	}
	rpt_plot_b1(r);
	rpt_plot_x2(r);
}

/* rpt_dist_row - N, min, p50, p99, p99.9, p99.99, max of one distribution as table cells */
static void rpt_dist_cells(struct rpt *r, json_t *d)
{
	rpt_td_int(r, pf_jpath_get(d, "count"));
	static const char *const stats[] = { "min", "p50", "p99", "p99.9", "p99.99", "max" };

	for (size_t k = 0; k < PF_ARRAY_SIZE(stats); k++)
		rpt_td_stat(r, d, stats[k]);
}

/* rpt_s_tasks - 6: per task table and the latency figures */
static void rpt_s_tasks(struct rpt *r)
{
	static const char *const metrics[][2] = {
		{ "activation_latency_ns", "activation latency" },
		{ "wakeup_latency_ns", "wakeup latency" }, { "response_time_ns", "response time" },
		{ "exec_time_ns", "execution time" }, { "cpu_time_ns", "CPU time (job log)" },
	};
	char attr[960];
	bool two_clocks = false;	/* a count of the job log differs from the trace's */
	json_t *t;
	size_t i;

	rpt_section(r, "6", "tasks", "Per task");
	if (!r->ntasks) {
		rpt_note_missing(r, "per task: results.json has no app tasks (%s)",
				 r->results ? "a cyclictest-only run, or the app was not traced" : "no results.json");
		return;
	}
	fputs("<p>All times in µs (the exact nanoseconds are in each cell's data-ns attribute and in results.json). "
	      "The maximum's time is on the trace clock; its job is the task's job sequence number. "
	      "\"(= max)\": the row's N jobs are too few for that percentile, which is their maximum.</p>\n"
	      "<table id=\"task-table\"><tr><th>task</th><th>metric</th><th>N</th><th>min</th><th>p50</th><th>p99</th>"
	      "<th>p99.9</th><th>p99.99</th><th>max</th><th>max at (s)</th><th>max job</th></tr>\n", r->out);
	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t) {
		for (size_t m = 0; m < PF_ARRAY_SIZE(metrics); m++) {
			json_t *d = pf_jpath_get(t, metrics[m][0]);

			if (!json_is_object(d))
				continue;
			/* the wakeup latency where it is not the activation latency again (a task released by another, or delayed by higher ones) */
			if (!strcmp(metrics[m][0], "wakeup_latency_ns") &&
			    json_equal(pf_jpath_get(d, "max"), pf_jpath_get(t, "activation_latency_ns.max")) &&
			    json_equal(pf_jpath_get(d, "min"), pf_jpath_get(t, "activation_latency_ns.min")))
				continue;
			rpt_esc_str(rpt_str(t, "name", "?"), attr, sizeof(attr));
			fprintf(r->out, "<tr data-task=\"%s\" data-metric=\"%s\"><td id=\"%s%s\" style=\"border-left:6px solid %s\">",
				attr, metrics[m][0], m ? "" : "task-", m ? "" : attr, rpt_task_colour(i));
			rpt_esc(r->out, rpt_str(t, "name", "?"));
			fputs("</td><td>", r->out);
			rpt_esc(r->out, metrics[m][1]);
			fputs("</td>", r->out);
			rpt_dist_cells(r, d);
			if (json_is_number(pf_jpath_get(d, "max_at")))
				fprintf(r->out, "<td class=\"n\">%.6f</td>", rpt_num(d, "max_at") / 1e9);
			else
				fputs("<td class=\"n na\">—</td>", r->out);
			rpt_td_int(r, pf_jpath_get(d, "max_id"));
			fputs("</tr>\n", r->out);
		}
	}
	fputs("</table>\n<h3>Counts</h3><table id=\"task-counts\"><tr><th>task</th><th>jobs</th><th>overruns</th>"
	      "<th>deadline misses</th><th>missed activations</th><th>preemptions</th><th>migrations</th>"
	      "<th>source</th></tr>\n", r->out);
	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t) {
		fprintf(r->out, "<tr data-task=\"%s\"><td>", rpt_esc_str(rpt_str(t, "name", "?"), attr, sizeof(attr)));
		rpt_esc(r->out, rpt_str(t, "name", "?"));
		fputs("</td>", r->out);
		rpt_td_int(r, pf_jpath_get(t, "jobs"));
		two_clocks |= rpt_td_count(r, t, "overruns");
		two_clocks |= rpt_td_count(r, t, "deadline_misses");
		rpt_td_int(r, pf_jpath_get(t, "missed_activations"));
		rpt_td_int(r, pf_jpath_get(t, "preemptions"));
		rpt_td_int(r, pf_jpath_get(t, "migrations"));
		fputs("<td>", r->out);
		rpt_esc(r->out, rpt_str(t, "source", "—"));
		fputs("</td></tr>\n", r->out);
	}
	fputs("</table>\n", r->out);
	if (two_clocks)
		fputs("<p>\"(job log N)\": the job log's own count where it differs from the trace's, which the verdicts "
		      "judge. A job log row's end is read before the app writes its end marker, whose time the trace "
		      "gives, so a job that ends within that write of its deadline or next release is late in the trace "
		      "only (docs/results.md, tasks[].joblog). An analysis before the job log's overruns were counted "
		      "by their times counted the app's flags alone: analyse such a run again.</p>\n", r->out);
	rpt_plot_h1(r);
	rpt_plot_e1(r);
	rpt_plot_x1(r);
	rpt_plot_t1(r);
	rpt_plot_r1(r);
}

/*
 * rpt_s_utilisation - 7: one row per name of results.json's app (docs/results.md), each a share of
 * one CPU summed over the CPUs (2 CPUs busy: 200 %) and, with the number of CPUs, of all of them
 */
static void rpt_s_utilisation(struct rpt *r)
{
	static const char *const shares[][2] = {
		{ "utilisation", "app utilisation, whole run (app.utilisation)" },
		{ "utilisation_max_1s", "worst 1 s window (app.utilisation_max_1s)" },
		{ "utilisation_max_slot", "worst slot window (app.utilisation_max_slot)" },
	};
	json_t *app = pf_jpath_get(r->results, "app");
	int ncpus = (int)json_array_size(json_object_get(app, "utilisation_per_cpu"));
	char buf[128], label[128];

	rpt_section(r, "7", "utilisation", "Utilisation");
	if (!json_is_object(app)) {
		rpt_note_missing(r, "utilisation: results.json has no app utilisation (no markers, no job log)");
		return;
	}
	if (!ncpus)
		ncpus = (int)rpt_int(r->results, "trace.cpus", 0);
	fputs("<table>", r->out);
	for (size_t i = 0; i < PF_ARRAY_SIZE(shares); i++) {
		double v = rpt_num(app, shares[i][0]);
		int64_t slot_ms = rpt_int(r->results, "slots.slot_ns", 0) / PF_NS_PER_MS;

		if (isnan(v))
			snprintf(buf, sizeof(buf), "not measured");
		else if (ncpus > 0)
			snprintf(buf, sizeof(buf), "%.2f %% of one CPU = %.2f %% of the %d CPUs", v * 100, v * 100 / ncpus,
				 ncpus);
		else
			snprintf(buf, sizeof(buf), "%.2f %% of one CPU", v * 100);
		snprintf(label, sizeof(label), "%s", shares[i][1]);
		if (!strcmp(shares[i][0], "utilisation_max_slot") && slot_ms > 0)
			snprintf(label, sizeof(label), "worst %lld ms slot window (app.utilisation_max_slot)",
				 (long long)slot_ms);
		rpt_kv(r, label, buf);
	}
	rpt_kv(r, "how",
	       "the app's CPU time summed over every CPU, as a share of one CPU: up to 100 % times the number of "
	       "CPUs (200 % on 2 CPUs: both busy with the app throughout); windows aligned to the start of the "
	       "trace, or of the job log without one (docs/results.md). U1 below counts each job's CPU time in the window of its release.");
	rpt_kv_json(r, "source", app, "source");
	rpt_kv_json(r, "slot overruns", r->results, "slots.overruns");
	rpt_kv_json(r, "slots", r->results, "slots.count");
	fputs("</table>\n", r->out);
	rpt_plot_u1(r);
}

/* rpt_culprit - one worst case: its summary, its contributors (at most max_rows, the rest in one; 0: all), where it waited */
static void rpt_culprit(struct rpt *r, json_t *c, size_t max_rows)
{
	json_t *k, *all = pf_jpath_get(c, "contributors");
	double rest_ns = 0, rest_share = 0;
	size_t m, rest = 0;

	fputs("<h3>", r->out);
	rpt_esc(r->out, rpt_str(c, "summary", "?"));
	fputs("</h3><table><tr><th>contributor</th><th>kind</th><th>µs</th><th>share</th></tr>\n", r->out);
	json_array_foreach(all, m, k) {
		if (max_rows && m + 1 >= max_rows && json_array_size(all) > max_rows) {	/* the rest in one row */
			rest_ns += rpt_num(k, "duration_ns");
			rest_share += rpt_num(k, "share");
			/* analyze's own "N others" row counts N */
			rest += !strcmp(rpt_str(k, "kind", ""), "others") ? (size_t)strtoul(rpt_str(k, "name", "1"), NULL, 10) : 1;
			continue;
		}
		fputs("<tr><td>", r->out);
		rpt_esc(r->out, rpt_str(k, "name", "?"));
		fputs("</td><td>", r->out);
		rpt_esc(r->out, rpt_str(k, "kind", "?"));
		fputs("</td>", r->out);
		rpt_td_ns(r, pf_jpath_get(k, "duration_ns"));
		fprintf(r->out, "<td class=\"n\">%.1f %%</td></tr>\n", rpt_num(k, "share") * 100);
	}
	if (rest)
		fprintf(r->out, "<tr><td>%zu more (results.json)</td><td>others</td><td class=\"n\">%.1f</td>"
			"<td class=\"n\">%.1f %%</td></tr>\n", rest, rest_ns / 1e3, rest_share * 100);
	fprintf(r->out, "</table><p>job %.0f on CPU %.0f, waited: ", rpt_num(c, "seq"), rpt_num(c, "cpu"));
	rpt_esc(r->out, rpt_str(c, "waited", "?"));
	fprintf(r->out, "%s</p>\n", json_is_false(pf_jpath_get(c, "complete")) ?
		" — <b>incomplete</b>: the parts do not add up to the delay (the CPU history kept did not reach back to the release)" : "");
	/* a silence on the CPU (issue 32.6): what the hypervisor said it stole beside it */
	if (strstr(rpt_str(c, "summary", ""), "CPU not running")) {
		fputs("<p class=\"also\">Beside the silence: the app phase's steal time per CPU (ms, /proc/stat: "
		      "the hypervisor running something else while a virtual CPU wanted to run; 0 where it does "
		      "not say): ", r->out);
		rpt_steal(r, rpt_app_phase(r));
		fputs("</p>\n", r->out);
	}
}

/*
 * rpt_g1_body_task - the task whose worst case's G1 the body draws (the others' are in A2): the
 * first judged task, in results.json's order (io, the releaser, first), whose latency verdict
 * failed, else the first judged task with a culprit; -1 when none
 */
static int rpt_g1_body_task(struct rpt *r, const bool *judged, int njudged)
{
	char prefix[160];
	json_t *t;
	size_t i;
	int first = -1;

	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t) {
		if (i >= RPT_MAX_TASKS || (njudged && !judged[i]) || !json_array_size(pf_jpath_get(t, "culprits")))
			continue;
		if (first < 0)
			first = (int)i;
		snprintf(prefix, sizeof(prefix), "tasks.%s.", rpt_str(t, "name", "?"));
		for (int k = 0; k < r->nverdicts; k++)
			if (!strncmp(r->verdict[k].path, prefix, strlen(prefix)) && strstr(r->verdict[k].path, "latency") &&
			    !strcmp(r->verdict[k].verdict, "fail"))
				return (int)i;
	}
	return first;
}

/*
 * rpt_s_worst - 8: each judged task's worst activation, what delayed it, and G1 of one of them.
 * The next two worst of each task, and the worst of a task no requirement judges (the seed's
 * telemetry and logger, when others are judged), are in the appendix (A2, rpt_s_worst_more) with
 * their contributors: here only how many (issue 32.13: their lines took a page of the body).
 */
static void rpt_s_worst(struct rpt *r)
{
	bool judged[RPT_MAX_TASKS];
	int njudged = rpt_latency_judged(r, judged), body = rpt_g1_body_task(r, judged, njudged);
	json_t *t, *c;
	size_t i, j;
	int n = 0, more = 0, info = 0;

	rpt_section(r, "8", "worst", "Worst cases");
	/* one event that is the worst case of several tasks, said before them (issue 32.7, results.json root_events) */
	json_array_foreach(pf_jpath_get(r->results, "root_events"), i, c)
		if (json_array_size(json_object_get(c, "tasks")) > 1) {
			fputs("<p class=\"root-event\"><b>", r->out);
			rpt_esc(r->out, rpt_str(c, "summary", "?"));
			fputs("</b></p>\n", r->out);
		}
	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t) {
		bool judged_i = !(njudged && i < RPT_MAX_TASKS && !judged[i]);

		json_array_foreach(pf_jpath_get(t, "culprits"), j, c) {
			if (j >= 3)
				break;
			if (!n++)
				fputs("<p>The worst activation of each task by the wakeup latency it is judged on (a chained "
				      "task's activation latency holds its releaser's work: the line says both when they "
				      "differ) and what stood between release and start on the CPU where the job started, "
				      "with the timeline (G1) of the first whose latency failed; the other tasks' timelines "
				      "are in <a href=\"#worst-more\">the appendix</a>.</p>\n", r->out);
			if (j > 0 || !judged_i) {
				more += j > 0;
				info += j == 0;
				continue;
			}
			rpt_culprit(r, c, RPT_WORST_ROWS);
			if ((int)i == body)
				rpt_plot_g1(r, (int)i, c, ++r->ng1);
			else
				fputs("<p class=\"also\">its timeline (G1): in <a href=\"#worst-more\">the appendix</a></p>\n",
				      r->out);
		}
	}
	if (more || info) {
		fputs("<p class=\"also\" id=\"worst-more-note\">In <a href=\"#worst-more\">the appendix</a>, each with its "
		      "contributors:", r->out);
		if (more)
			fprintf(r->out, " the next worst activations of each task (%d)", more);
		if (info)
			fprintf(r->out, "%s the worst of %d task%s no requirement judges, with its timeline", more ? ";" : "",
				info, info > 1 ? "s" : "");
		fputs(".</p>\n", r->out);
	}
	if (!n)
		rpt_note_missing(r, "worst cases: results.json has no culprit analysis (no trace of the app)");
}

/*
 * rpt_s_worst_more - A2: the timeline (G1) of each judged task's worst activation but the one
 * section 8 draws, the worst activation of each task no requirement judges, with G1, and the
 * second and third worst of each task, with their contributors
 */
static void rpt_s_worst_more(struct rpt *r)
{
	bool judged[RPT_MAX_TASKS];
	int njudged = rpt_latency_judged(r, judged), body = rpt_g1_body_task(r, judged, njudged);
	json_t *t, *c;
	size_t i, j;
	int n = 0;

	rpt_section(r, "A2", "worst-more", "Further worst cases");
	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t)
		json_array_foreach(pf_jpath_get(t, "culprits"), j, c) {
			bool info = njudged && i < RPT_MAX_TASKS && !judged[i];

			if (j >= 3 || (j == 0 && !info && (int)i == body))
				continue;
			if (j == 0 && !info)	/* its contributors are in section 8: here its timeline */
				fputs("<h3>", r->out), rpt_esc(r->out, rpt_str(c, "summary", "?")), fputs("</h3>\n", r->out);
			else {
				if (j == 0)
					fputs("<p class=\"also\">worst, of a task no requirement judges:</p>\n", r->out);
				rpt_culprit(r, c, 0);
			}
			if (j == 0)
				rpt_plot_g1(r, (int)i, c, ++r->ng1);
			n++;
		}
	if (!n)
		fputs("<p>No task has a second worst case with its culprits.</p>\n", r->out);
}

/* rpt_s_flight - A1: the flight, in the appendix (issue 32.13) */
/*
 * rpt_flight_ekf - the ekf task's jobs and the GPS fixes accounted for
 * (fsw.ekf, docs/fsw.md; issue 32.15: "ekf 32 jobs, ekf_updates 30"
 * unexplained); nothing for an app of an older preflight without it
 */
static void rpt_flight_ekf(struct rpt *r, json_t *fsw)
{
	json_t *e = json_object_get(fsw, "ekf"), *t;
	long long jobs = -1;
	size_t i;

	if (!json_is_object(e))
		return;
	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t)
		if (!strcmp(rpt_str(t, "name", ""), "ekf") && json_is_integer(json_object_get(t, "jobs")))
			jobs = json_integer_value(json_object_get(t, "jobs"));
	fputs("<p class=\"ekf-account\">", r->out);
	if (jobs >= 0)
		fprintf(r->out, "The ekf task ran %lld jobs (section 6). ", jobs);
	fprintf(r->out, "io released it for a GPS fix %d time%s and to propagate without one %d time%s; it refused "
		"%d release%s while ekf was still busy. Of the %d GPS fixes the app decoded: %d updated the filter, "
		"%d were gated out, %d not positive definite, %d outside the INS history (no step at their epoch: "
		"older than the history or the alignment), %d came before the INS aligned, %d superseded by a newer "
		"fix or pending at the end.</p>\n",
		(int)rpt_num(e, "released_for_fix"), rpt_num(e, "released_for_fix") == 1 ? "" : "s",
		(int)rpt_num(e, "released_to_propagate"), rpt_num(e, "released_to_propagate") == 1 ? "" : "s",
		(int)rpt_num(e, "busy_refused"), rpt_num(e, "busy_refused") == 1 ? "" : "s",
		(int)rpt_num(fsw, "gps_fixes"), (int)rpt_num(e, "updates"),
		(int)rpt_num(e, "gated"), (int)rpt_num(e, "not_positive_definite"), (int)rpt_num(e, "outside_history"),
		(int)rpt_num(e, "before_alignment"), (int)rpt_num(e, "fixes_unused_other"));
}

static void rpt_s_flight(struct rpt *r)
{
	json_t *fsw = pf_jpath_get(r->results, "fsw"), *sim = NULL;
	static const char *const keys[] = {
		"imu_frames", "gps_fixes", "spi_frames", "frame_errors", "stale_events", "recoveries",
		"failsafe_events", "waypoints_reached", "laps", "ekf_updates", "final_mode",
	};
	static const char *const sim_keys[][2] = {
		{ "pos_err_rms_m", "position error RMS (m)" }, { "pos_err_max_m", "position error max (m)" },
		{ "track_err_rms_m", "track error RMS (m), while the app flew" },
		{ "track_err_max_m", "track error max (m), while the app flew" },
		{ "track_err_max_t_s", "… at simulated time (s)" },
		{ "track_err_after_app_max_m", "track error max after the app stopped, the aircraft drifting (m)" },
		{ "alt_err_rms_m", "altitude error RMS (m)" }, { "alt_err_max_m", "altitude error max (m)" },
		{ "failsafe_s", "time in failsafe as the simulator saw the app's frames (s)" }, { "sim_time_s", "simulated time (s)" },
		{ "late_ticks", "simulator ticks late" }, { "max_late_us", "simulator latest tick (µs)" },
		{ "stalled", "stalled" }, { "min_airspeed_mps", "lowest airspeed (m/s)" },
		{ "app_start_s", "the app flew from (simulated s: its first actuator frame)" },
		{ "app_end_s", "… to (simulated s: its SPI link's end)" },
		{ "metrics_start_s", "truth errors counted from (simulated s)" },
		{ "gps_fixes", "GPS fixes the simulator made" }, { "gps_fixes_before_app", "… before the app flew" },
		{ "gps_fixes_app", "… while it flew (of them the app decoded its gps_fixes, above)" },
		{ "gps_fixes_after_app", "… after it stopped" },
		{ "imu_frames", "IMU frames the simulator sent" },
		{ "imu_frames_before_app", "… before the app flew (it reads them from its start, before its first actuator frame)" },
		{ "imu_frames_app", "… while it flew" }, { "imu_frames_after_app", "… after it stopped (never read)" },
	};
	char path[PATH_MAX];
	double app_s[2] = { NAN, NAN };	/* the app's flight in simulated time, from sim.json */

	rpt_section(r, "A1", "flight", "Flight");
	if (!json_is_object(fsw)) {
		rpt_note_missing(r, "flight: this run did not fly the simulator (no fsw statistics in results.json)");
		return;
	}
	fputs("<h3>Flight software</h3><table>", r->out);
	for (size_t i = 0; i < PF_ARRAY_SIZE(keys); i++)
		rpt_kv_json(r, keys[i], fsw, keys[i]);
	if (json_is_object(json_object_get(fsw, "failsafe_time"))) {
		static const char *const fs[][2] = {
			{ "failsafe_time.total_s", "time in failsafe (s), the app's actuator frames" },
			{ "failsafe_time.startup_s", "… at start-up, before mission1's first decision (s)" },
			{ "failsafe_time.imu_stale_s", "… IMU stale: ctl100's reflex, stale events, no failsafe event (s)" },
			{ "failsafe_time.mission_s", "… mission failsafe: its failsafe events (s)" },
		};

		for (size_t i = 0; i < PF_ARRAY_SIZE(fs); i++)
			rpt_kv_json(r, fs[i][1], fsw, fs[i][0]);
	}
	fputs("</table>\n", r->out);
	rpt_flight_ekf(r, fsw);
	fputs("<table><tr><th>metric</th><th>N</th><th>min</th><th>p50</th><th>p99</th><th>p99.9</th>"
	      "<th>p99.99</th><th>max</th></tr><tr><td>SPI transfer (µs)</td>", r->out);
	rpt_dist_cells(r, pf_jpath_get(fsw, "spi_transfer_ns"));
	fputs("</tr></table>\n", r->out);
	if (r->app_dir[0]) {
		snprintf(path, sizeof(path), "%.4000s/sim.json", r->app_dir);
		sim = json_load_file(path, 0, NULL);
	}
	if (sim) {
		fputs("<h3>Simulator: errors of the flight against the mission circuit</h3><table>", r->out);
		for (size_t i = 0; i < PF_ARRAY_SIZE(sim_keys); i++)
			if (json_object_get(sim, sim_keys[i][0]))	/* a simulator of an older preflight: fewer */
				rpt_kv_json(r, sim_keys[i][1], sim, sim_keys[i][0]);
		fputs("</table>\n", r->out);
		if (json_is_number(json_object_get(sim, "app_start_s")) && json_is_number(json_object_get(sim, "app_end_s")))
			app_s[0] = json_number_value(json_object_get(sim, "app_start_s")),
			app_s[1] = json_number_value(json_object_get(sim, "app_end_s"));
		json_decref(sim);
	} else {
		rpt_note_missing(r, "flight: no sim.json of the app phase (the simulator's errors)");
	}
	rpt_plot_f1(r, app_s[0], app_s[1]);
}

/* rpt_s_validity - 9 */
/* rpt_col - a column of a per-task table: its value's path under the task, nanoseconds shown as µs or a count */
struct rpt_col {
	const char *path;
	bool ns;
};

/* rpt_task_row - one task's row of a per-task table: its name, then a cell per column (class 'cls', or none) */
static void rpt_task_row(struct rpt *r, json_t *t, const char *cls, const struct rpt_col *cols, size_t ncols)
{
	fprintf(r->out, "<tr%s%s%s><td>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	rpt_esc(r->out, rpt_str(t, "name", "?"));
	fputs("</td>", r->out);
	for (size_t k = 0; k < ncols; k++)
		(cols[k].ns ? rpt_td_ns : rpt_td_int)(r, pf_jpath_get(t, cols[k].path));
	fputs("</tr>\n", r->out);
}

/*
 * rpt_observer - what preflight's own threads (the recorder, the runner) cost each task, the
 * summary's observer lines as a table (issue 32.9), and where the recorder ran
 */
static void rpt_observer(struct rpt *r)
{
	static const struct rpt_col cols[] = {
		{ "observer_jobs", false }, { "decomposition.observer_ns.count", false },
		{ "decomposition.observer_ns.p99", true }, { "decomposition.observer_ns.max", true },
	};
	json_t *t, *p;
	size_t i;
	int n = 0;

	fputs("<h3 id=\"observer\">Observer effect: preflight's own threads</h3>\n", r->out);
	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t)
		n += json_is_number(json_object_get(t, "observer_jobs"));
	if (!n) {
		fputs("<p>Not counted: this analysis names no thread of preflight's in the trace (no recorder "
		      "or runner pids), so what they cost the tasks is in the culprits as any other thread's.</p>\n",
		      r->out);
		return;
	}
	fputs("<table><tr><th>task</th><th>jobs delayed</th><th>of jobs</th>"
	      "<th>delay p99 (µs)</th><th>delay max (µs)</th></tr>\n", r->out);
	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t) {
		if (!json_is_number(json_object_get(t, "observer_jobs")) || !rpt_int(t, "decomposition.observer_ns.count", 0))
			continue;	/* a task without jobs: nothing to delay */
		rpt_task_row(r, t, json_integer_value(json_object_get(t, "observer_jobs")) > 0 ? "invalid" : NULL, cols,
			     PF_ARRAY_SIZE(cols));
	}
	fputs("</table>\n", r->out);
	json_array_foreach(pf_jpath_get(r->run, "phases"), i, p)
		if (json_is_string(json_object_get(p, "recorder_cpus"))) {
			const char *hk = rpt_str(p, "housekeeping_cpus", "");

			fputs("<p>Phase ", r->out);
			rpt_esc(r->out, rpt_str(p, "dir", "?"));
			fputs(": the recorder ran on CPUs ", r->out);
			rpt_esc(r->out, rpt_str(p, "recorder_cpus", "?"));
			if (*hk) {
				fputs(", the housekeeping CPUs ", r->out);
				rpt_esc(r->out, hk);
				fputs(".</p>\n", r->out);
			} else {
				fputs(": no housekeeping CPU, so it shared the app's CPUs (a deviation: section 10).</p>\n",
				      r->out);
			}
		}
}

static void rpt_s_validity(struct rpt *r)
{
	static const struct rpt_col cols[] = {
		{ "agreement.matched", false }, { "agreement.trace_only", false }, { "agreement.joblog_only", false },
		{ "agreement.activation_latency_diff_ns.max", true }, { "lost_events_jobs", false },
		{ "joblog.dropped", false },
	};
	json_t *t, *st;
	size_t i;

	rpt_section(r, "9", "validity", "Measurement validity");
	st = rpt_load_json(r, "selftest/selftest.json");
	if (!r->results) {
		json_decref(st);
		rpt_note_missing(r, "measurement validity: no results.json");
		return;
	}
	fputs("<table class=\"kv\">", r->out);
	rpt_kv_json(r, "trace file", r->results, "trace.file");
	rpt_kv_json(r, "events read", r->results, "trace.events");
	rpt_kv_json(r, "lost events (kernel ring buffer)", r->results, "trace.lost_events");
	rpt_kv_json(r, "places with an unknown number lost", r->results, "trace.lost_unknown");
	rpt_kv_json(r, "lost events per CPU", r->results, "trace.lost_by_cpu");
	rpt_kv_json(r, "context switches inferred", r->results, "trace.switches_inferred");
	rpt_kv_json(r, "events seen", r->results, "trace.events_seen");
	rpt_kv_json(r, "lost-event windows", r->results, "lost_events.windows");
	rpt_kv_json(r, "metrics affected by lost events", r->results, "lost_events.affected");
	rpt_kv(r, "probe overhead", st ? rpt_str(st, "cases.7.note", NULL) :
	       "not measured by this version (see Deviations)");
	fputs("</table>\n", r->out);
	if (st) {
		fputs("<h3>Selftest (preflight selftest --quick, selftest/selftest.json)</h3><table><tr><th>case</th>"
		      "<th>injections</th><th>valid</th><th>error p50 (µs)</th><th>error p99 (µs)</th>"
		      "<th>error max (µs)</th><th>verdict</th></tr>\n", r->out);
		json_array_foreach(pf_jpath_get(st, "cases"), i, t) {
			bool ns = !strcmp(rpt_str(t, "error.unit", ""), "ns");

			fprintf(r->out, "<tr><td>%d ", (int)json_integer_value(json_object_get(t, "case")));
			rpt_esc(r->out, rpt_str(t, "name", "?"));
			fputs("</td>", r->out);
			rpt_td_int(r, json_object_get(t, "injections"));
			rpt_td_int(r, json_object_get(t, "valid"));
			rpt_td_ns(r, ns ? pf_jpath_get(t, "error.p50") : NULL);
			rpt_td_ns(r, ns ? pf_jpath_get(t, "error.p99") : NULL);
			rpt_td_ns(r, ns ? pf_jpath_get(t, "error.max") : NULL);
			fprintf(r->out, "<td>%s</td></tr>\n", json_is_true(json_object_get(t, "pass")) ? "pass" : "FAIL");
		}
		fputs("</table>\n", r->out);
		json_decref(st);
	}
	if (!pf_jpath_get(r->results, "trace") || json_is_null(pf_jpath_get(r->results, "trace")))
		rpt_note_missing(r, "measurement validity: no trace in this analysis");
	if (!r->ntasks)
		return;
	fputs("<h3>Trace against job log</h3><table><tr><th>task</th><th>matched</th><th>trace only</th>"
	      "<th>job log only</th><th>|Δ act. latency| max (µs)</th><th>in lost-event windows</th>"
	      "<th>job log dropped</th></tr>\n", r->out);
	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t)
		rpt_task_row(r, t, NULL, cols, PF_ARRAY_SIZE(cols));
	fputs("</table>\n", r->out);
	rpt_observer(r);
}

/* rpt_s_deviations - 10: every warning, partial phase and "not measured", said openly */
/*
 * rpt_s_signoff - the last page: the one a reviewer and an approver sign (issue 32.11): the document's
 * identity (the run's uuid; its revision the SHA-256 of the run's evidence manifest, so that a
 * changed file is another revision), the procedure and scenario, the tool's qualification status
 * (this machine's selftest, docs/tool-requirements.md), and empty fields for names, dates and
 * signatures
 */
static void rpt_s_signoff(struct rpt *r)
{
	static const char *const roles[] = { "prepared (test engineer)", "reviewed", "approved" };
	json_t *st = rpt_load_json(r, "selftest/selftest.json");
	char hex[65], rev[96], doc[300];

	rpt_section(r, "", "signoff", "Sign-off");
	snprintf(doc, sizeof(doc), "preflight-%s", rpt_str(r->run, "uuid", r->run_id));
	if (rpt_sha256(r, "SHA256SUMS", hex) == 0)
		snprintf(rev, sizeof(rev), "%.16s (SHA-256 of SHA256SUMS, the run's evidence manifest)", hex);
	else
		snprintf(rev, sizeof(rev), "none: the run directory has no SHA256SUMS");
	fputs("<table id=\"signoff\">", r->out);
	rpt_kv(r, "document", doc);
	rpt_kv(r, "revision", rev);
	rpt_kv(r, "procedure", "preflight qualify (README, docs/scenarios.md): survey, selftest, phases, analysis, "
	       "verdicts against the budgets");
	rpt_kv(r, "scenario", rpt_str(r->run, "scenario.name", "—"));
	rpt_kv(r, "budgets", rpt_str(r->run, "budgets", "—"));
	rpt_kv(r, "tool", rpt_str(r->results, "generator", "—"));
	rpt_kv(r, "tool qualification",
	       !st ? "no selftest with this run: the measurement is not validated on this machine "
		     "(docs/tool-requirements.md says what verifies each metric)" :
	       json_is_true(json_object_get(st, "pass")) ?
		     "the selftest met its goals on this machine (section 9; docs/tool-requirements.md says what "
		     "verifies each metric)" :
		     "the selftest FAILED on this machine (section 9): the measurement is not validated "
		     "(docs/tool-requirements.md)");
	rpt_kv(r, "result", rpt_str(r->verdicts, "result", "—"));
	fputs("</table>\n<table id=\"signatures\"><tr><th>role</th><th>name</th><th>date</th><th>signature</th>"
	      "<th>disposition of the deviations (section 10) accepted</th></tr>", r->out);
	for (size_t i = 0; i < PF_ARRAY_SIZE(roles); i++)
		fprintf(r->out, "<tr><td>%s</td><td></td><td></td><td></td><td></td></tr>", roles[i]);
	fputs("</table>\n", r->out);
	json_decref(st);
}

/* what a figure that needs the job log says without it (rpt_plot_t1, rpt_plot_u1) */
#define RPT_NO_JOBLOG ": no job log (jobs.csv)"

/* rpt_count_missing - the "not shown" notes holding 'what' */
static int rpt_count_missing(const struct rpt *r, const char *what)
{
	int n = 0;

	for (int k = 0; k < r->nmissing; k++)
		n += strstr(r->missing[k], what) != NULL;
	return n;
}

/* rpt_dev - the deviation table's next row, item D<n>: the open one closed first (its disposition cell empty) */
static void rpt_dev(struct rpt *r, int *d)
{
	if (*d)
		fputs("</td><td class=\"disposition\"></td></tr>", r->out);
	fprintf(r->out, "<tr><td>D%d</td><td>", ++*d);
}

static void rpt_s_deviations(struct rpt *r)
{
	json_t *w, *ph, *t, *st = rpt_load_json(r, "selftest/selftest.json");
	struct decision dec;
	char text[512];
	size_t i;
	int d = 0, obs = 0;

	rpt_section(r, "10", "deviations", "Deviations and limitations");
	fputs("<p>Each item is a way in which this run is not the evidence a board qualification needs; the "
	      "reviewer writes its disposition (accepted with a reason, or the run repeated) in the last "
	      "column.</p>\n<table id=\"deviation-list\"><tr><th>item</th><th>deviation</th>"
	      "<th class=\"disposition\">disposition</th></tr>", r->out);
	if (r->partial) {
		rpt_dev(r, &d), fputs("<b>PARTIAL</b>: ", r->out);
		rpt_esc(r->out, r->partial_why);
	}
	json_array_foreach(pf_jpath_get(r->run, "phases"), i, ph)
		if (json_is_true(pf_jpath_get(ph, "partial"))) {
			rpt_dev(r, &d), fputs("phase ", r->out);
			rpt_esc(r->out, rpt_str(ph, "name", "?"));
			fprintf(r->out, " is partial: %.1f s of %.1f s planned", rpt_num(ph, "elapsed_s"),
				rpt_num(ph, "planned_s"));
		}
	if (rpt_str(r->run, "failure", NULL)) {
		rpt_dev(r, &d), fputs("the run says: ", r->out);
		rpt_esc(r->out, rpt_str(r->run, "failure", ""));
	}
	json_array_foreach(pf_jpath_get(r->sysinfo, "warnings"), i, w) {
		rpt_dev(r, &d), fputs("system warning: ", r->out);
		rpt_esc(r->out, rpt_str(w, "message", ""));
	}
	/* one item per reason and kind, naming every verdict it holds for (a phase's short load: one) */
	for (int k = 0; k < r->nverdicts; k++) {
		const struct rpt_verdict *v = &r->verdict[k];
		int prev = 0;

		while (prev < k && (strcmp(r->verdict[prev].why, v->why) || strcmp(r->verdict[prev].verdict, v->verdict)))
			prev++;
		if (!v->why[0] || prev < k)
			continue;	/* none, or said with the first it holds for */
		rpt_dev(r, &d);
		fprintf(r->out, "%s: ", !strcmp(v->verdict, "not_valid") ? "not valid" : "not measured");
		for (int m = k, n = 0; m < r->nverdicts; m++)
			if (!strcmp(r->verdict[m].why, v->why) && !strcmp(r->verdict[m].verdict, v->verdict)) {
				fputs(n++ ? "; " : "", r->out);
				rpt_esc(r->out, r->verdict[m].id);
				fputs(" ", r->out);
				rpt_esc(r->out, r->verdict[m].label);
			}
		fputs(" — ", r->out);
		rpt_esc(r->out, v->why);
	}
	json_array_foreach(pf_jpath_get(r->verdicts, "emulated"), i, w) {	/* one item: the stand-ins */
		if (!i)
			rpt_dev(r, &d), fputs("emulated interfaces: ", r->out);
		fputs(i ? "; " : "", r->out);
		rpt_esc(r->out, rpt_str(w, "interface", "?"));
		fputs(" — ", r->out);
		rpt_esc(r->out, rpt_str(w, "how", ""));
		fprintf(r->out, rpt_num(w, "verdicts") == 1 ? " (1 verdict rests on it)" : " (%d verdicts rest on it)",
			(int)rpt_num(w, "verdicts"));
	}
	json_array_foreach(pf_jpath_get(r->run, "warnings"), i, w) {
		rpt_dev(r, &d), fputs("run warning: ", r->out);
		rpt_esc(r->out, json_is_string(w) ? json_string_value(w) : "?");
	}
	/*
	 * what page 1's decision table finds short: no selftest, a short run, the
	 * idle kernel over budget (the result is the verdicts; the platform, the
	 * system warnings and emulated interfaces itemised above)
	 */
	decision_read(r->dir, r->verdicts, st, r->sysinfo, r->run, r->results, false, &dec);
	for (i = DECISION_RESULT + 1; i < DECISION_N; i++)
		if (!dec.line[i].ok && i != DECISION_PLATFORM) {
			rpt_dev(r, &d);
			rpt_esc(r->out, dec.line[i].name);
			fputs(" ", r->out);
			rpt_esc(r->out, dec.line[i].state);
			fputs(": ", r->out);
			rpt_esc(r->out, dec.line[i].text);
			fputs(i == DECISION_MEASUREMENT ? " (section 9)" : " (page 1)", r->out);
		}
	json_decref(st);
	for (i = 0; i < 2; i++) {	/* a baseline whose histogram overflowed: percentiles known only by bounds */
		json_t *base = i ? r->base_loaded : r->base_idle;

		if ((i && base == r->base_idle) || !ct_overflow_text(base, text, sizeof(text)))
			continue;
		rpt_dev(r, &d);
		fprintf(r->out, "cyclictest %s phase: ", i ? "loaded" : "idle");
		rpt_esc(r->out, text);
		fputs(" (section 5)", r->out);
	}
	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t)	/* one item for every task it delayed */
		if (json_integer_value(json_object_get(t, "observer_jobs")) > 0) {
			char b[32];

			if (!obs++)
				rpt_dev(r, &d), fputs("observer effect: preflight's own threads delayed ", r->out);
			else
				fputs("; ", r->out);
			rpt_esc(r->out, rpt_str(t, "name", "?"));
			fprintf(r->out, " in %d of %d jobs, by up to %s µs",
				(int)json_integer_value(json_object_get(t, "observer_jobs")),
				(int)rpt_int(t, "decomposition.observer_ns.count", 0),
				pf_fmt_us(b, sizeof(b), rpt_num(t, "decomposition.observer_ns.max"), true));
		}
	if (obs)
		fputs(" (section 9)", r->out);
	if (!r->run)
		rpt_dev(r, &d), fputs("no run.json: an analyze-only directory; the run's phases, loads and manifest "
				      "are not part of this evidence", r->out);
	/* the figures a run without its job log cannot draw: one item naming them all */
	for (int k = 0, n = 0; k < r->nmissing; k++) {
		const char *no = strstr(r->missing[k], RPT_NO_JOBLOG);

		if (no && !n++)
			rpt_dev(r, &d);
		if (no)
			fprintf(r->out, "%s%.*s", n > 1 ? ", " : "", (int)(no - r->missing[k]), r->missing[k]);
		if (no && n == rpt_count_missing(r, RPT_NO_JOBLOG))
			fputs(RPT_NO_JOBLOG " to draw them from", r->out);
	}
	for (int k = 0; k < r->nmissing; k++) {
		if (strstr(r->missing[k], RPT_NO_JOBLOG))
			continue;
		rpt_dev(r, &d);
		rpt_esc(r->out, r->missing[k]);
	}
	rpt_dev(r, &d), fputs("probe overhead (the cost of tracing on the measured latencies) is not measured", r->out);
	rpt_dev(r, &d), fputs("the observed values are high-water marks of this run, not bounds (not a WCET analysis)",
			      r->out);
	fputs("</td><td class=\"disposition\"></td></tr></table>\n", r->out);	/* the last item closed */
}

/* rpt_pre - a preformatted block of a file's text */
static void rpt_pre(struct rpt *r, const char *title, const char *text)
{
	fputs("<h3>", r->out);
	rpt_esc(r->out, title);
	fputs("</h3>", r->out);
	if (!text) {
		fputs("<p>absent from the run directory</p>\n", r->out);
		return;
	}
	fputs("<pre>", r->out);
	rpt_esc(r->out, text);
	fputs("</pre>\n", r->out);
}

/* rpt_s_appendix - A4: regenerate command, data manifest, environment */
static void rpt_s_appendix(struct rpt *r)
{
	char *scn, abs[PATH_MAX];

	rpt_section(r, "A4", "appendix", "Files of the run");
	fputs("<h3>Regenerate this report</h3><pre>preflight report ", r->out);
	rpt_esc(r->out, realpath(r->dir, abs) ? abs : r->dir);	/* the same however the directory was named */
	fputs("</pre><p>The same run directory gives a byte-identical file (set SOURCE_DATE_EPOCH to print a date). "
	      "Figures were drawn by ", r->out);
	rpt_esc(r->out, r->gnuplot_version);
	fputs(".</p>\n", r->out);
	rpt_pre(r, "Data manifest (SHA256SUMS)", r->sums);
	rpt_pre(r, "Budgets (budgets.ini)", r->budgets);
	scn = rpt_text(r, "scenario.ini");
	rpt_pre(r, "Scenario (scenario.ini)", scn);
	free(scn);
	rpt_pre(r, "Environment (sysinfo.txt)", r->sysinfo_txt);
	rpt_kconfig(r);
}

/* rpt_gnuplot_version - "gnuplot 5.4 patchlevel 4", or why not */
static int rpt_gnuplot_version(struct rpt *r)
{
	char out[PATH_MAX], err[PATH_MAX], *text;
	char *argv[] = { "gnuplot", "--version", NULL };
	int ret;

	snprintf(out, sizeof(out), "%s/version", r->tmpdir);
	snprintf(err, sizeof(err), "%s/version.err", r->tmpdir);
	ret = rpt_exec(argv, out, err);
	text = ret == 0 ? rpt_slurp(out, NULL) : NULL;
	if (!text)
		return -ENOENT;
	text[strcspn(text, "\n")] = '\0';
	snprintf(r->gnuplot_version, sizeof(r->gnuplot_version), "%s", text);
	free(text);
	return 0;
}

/* rpt_pdf - print the HTML to a PDF with headless Chromium; an exit code */
static int rpt_pdf(struct rpt *r, const char *pdf)
{
	char url[PATH_MAX + 8], abs_html[PATH_MAX], print[PATH_MAX + 32], prof[PATH_MAX + 32];
	char out[PATH_MAX], err[PATH_MAX], profdir[PATH_MAX], html[PATH_MAX + 16], printed[PATH_MAX + 16];
	char *argv[] = { "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
			 "--disable-background-networking", "--disable-component-update", "--disable-sync",
			 "--no-pdf-header-footer", prof, print, url, NULL };
	struct stat st;
	int ret;

	snprintf(html, sizeof(html), "%s/report.html", r->tmpdir);	/* rpt_write's copy */
	snprintf(printed, sizeof(printed), "%s/report.pdf", r->tmpdir);
	if (!realpath(html, abs_html))
		return pf_fail(PF_EXIT_ENV, "%s: %s", html, strerror(errno));
	snprintf(url, sizeof(url), "file://%s", abs_html);
	snprintf(profdir, sizeof(profdir), "%s/chromium", r->tmpdir);
	if (mkdir(profdir, 0700) < 0)
		return pf_fail(PF_EXIT_ENV, "%s: %s", profdir, strerror(errno));
	snprintf(prof, sizeof(prof), "--user-data-dir=%s", profdir);
	snprintf(print, sizeof(print), "--print-to-pdf=%s", printed);
	snprintf(out, sizeof(out), "%s/chromium.out", r->tmpdir);
	snprintf(err, sizeof(err), "%s/chromium.err", r->tmpdir);
	ret = rpt_exec(argv, out, err);
	if (ret == 127)
		return pf_fail(PF_EXIT_ENV, "chromium: not found: install the Debian package 'chromium' "
			       "(scripts/install-deps)");
	if (ret != 0 || stat(printed, &st) < 0 || st.st_size == 0)
		return pf_fail(PF_EXIT_ENV, "%s: chromium could not print it (exit %d)", pdf, ret);
	return pf_outfile_copy(printed, pdf);
}

/* rpt_rmtree - remove the temporary directory (kept when PREFLIGHT_REPORT_KEEP_TMP is set, to debug a figure) */
static void rpt_rmtree(const char *dir)
{
	char *argv[] = { "rm", "-rf", "--", (char *)dir, NULL };

	if (dir[0] && !getenv("PREFLIGHT_REPORT_KEEP_TMP"))
		(void)!rpt_exec(argv, "/dev/null", "/dev/null");
}

void rpt_free(struct rpt *r)
{
	json_decref(r->results);
	json_decref(r->run);
	json_decref(r->sysinfo);
	json_decref(r->loads);
	json_decref(r->base_idle);
	json_decref(r->base_loaded);
	json_decref(r->verdicts);
	json_decref(r->prev_verdicts);
	json_decref(r->baseline);
	json_decref(r->history);
	free(r->sums);
	free(r->budgets);
	free(r->sysinfo_txt);
	free(r->jobs);
	for (int i = 0; i < r->nmissing; i++)
		free(r->missing[i]);
	free(r->verdict);
}

/* rpt_write - render the whole report into 'html'; an exit code */
static int rpt_write(struct rpt *r, const char *html)
{
	char *text = NULL, copy[PATH_MAX + 16];
	size_t len = 0;
	int ret;

	r->out = open_memstream(&text, &len);
	if (!r->out)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	rpt_head(r);
	rpt_s_verdicts(r);
	rpt_s_config(r);
	rpt_s_trace(r);
	rpt_s_loads(r);
	rpt_s_baseline(r);
	rpt_s_tasks(r);
	rpt_s_utilisation(r);
	rpt_s_worst(r);
	rpt_s_validity(r);
	rpt_s_deviations(r);
	rpt_s_flight(r);
	rpt_s_worst_more(r);
	rpt_s_load_reports(r);
	rpt_s_appendix(r);
	rpt_s_definitions(r);
	rpt_s_signoff(r);	/* signed last, after everything it covers */
	fputs("</section>\n</body></html>\n", r->out);
	fclose(r->out);
	r->out = NULL;
	/* the PDF is printed from a copy in the scratch directory: the target may be a device or a FIFO */
	snprintf(copy, sizeof(copy), "%s/report.html", r->tmpdir);
	ret = pf_outfile_data(copy, text, len);
	if (!ret)
		ret = pf_outfile_data(html, text, len);
	free(text);
	return ret;
}

static int rpt_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "pdf", required_argument, NULL, 'P' },
		{ "previous", required_argument, NULL, 'V' },
		{ "baseline", required_argument, NULL, 'B' },
		{ "history", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rpt r = { 0 };
	const char *pdf = NULL, *out = NULL;
	char html[PATH_MAX];
	int c, ret;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'P':
			pdf = optarg;
			break;
		case 'V':
			r.previous_dir = optarg;
			break;
		case 'B':
			r.baseline_file = optarg;
			break;
		case 'H':
			r.history_db = optarg;
			break;
		case 'h':
			pf_print_usage(&cmd_report);
			return PF_EXIT_OK;
		default:
			return pf_option_error(&cmd_report, argv, "o:h");
		}
	}
	if (optind != argc - 1)
		return pf_usage_error(&cmd_report, optind == argc ? "which run directory?" : "one run directory only");
	r.dir = argv[optind];
	snprintf(html, sizeof(html), "%s", out ? out : "");
	{
		char res[PATH_MAX];
		const char *const in[] = { res };

		/* what the report reads is the run directory's: its evidence guards it */
		if (pf_path_join(res, sizeof(res), r.dir, "results.json"))
			return pf_fail(PF_EXIT_USAGE, "%s/results.json: %s", r.dir, strerror(ENAMETOOLONG));
		if (!out && pf_path_join(html, sizeof(html), r.dir, "report.html"))
			return pf_fail(PF_EXIT_USAGE, "%s/report.html: %s", r.dir, strerror(ENAMETOOLONG));
		if ((ret = pf_out_guard(html, in, 1)) || (ret = pf_out_guard(pdf, in, 1)))
			return ret;
	}
	snprintf(r.tmpdir, sizeof(r.tmpdir), "%s/preflight-report.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(r.tmpdir))
		return pf_fail(PF_EXIT_ENV, "%s: cannot create: %s", r.tmpdir, strerror(errno));
	ret = rpt_load(&r);
	if (ret)
		goto out;
	if (rpt_gnuplot_version(&r) < 0) {
		ret = pf_fail(PF_EXIT_ENV, "gnuplot: not found: install the Debian package 'gnuplot-nox' "
			      "(scripts/install-deps)");
		goto out;
	}
	ret = rpt_write(&r, html);
	if (!ret && r.plot_failures)
		ret = pf_fail(PF_EXIT_ENV, "%s: %d figure(s) could not be drawn (said in the report)", html,
			      r.plot_failures);
	if (!ret && pdf)
		ret = rpt_pdf(&r, pdf);
out:
	rpt_rmtree(r.tmpdir);
	rpt_free(&r);
	return ret;
}
