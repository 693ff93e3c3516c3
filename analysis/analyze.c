/*
 * analyze.c - 'preflight analyze': turns a run's trace (.dat) and job log
 * into results.json (docs/results.md), a text summary and optional CSV
 * tables. One streaming pass over the trace; the job log is read alongside
 * it and matched job by job (tasks.c, through lib/joblog_read.c), or alone when there is no trace.
 *
 * usage: preflight analyze [RUN_DIR] [--trace FILE] [--joblog FILE] ...
 */
#define _GNU_SOURCE
#include "trace.h"
#include "sched.h"
#include "tasks.h"
#include "jobs_csv.h"
#include "results.h"
#include "series.h"
#include "snapshots.h"
#include "cyclictest_wakeups.h"
#include "timerlat.h"
#include "state.h"
#include "command.h"
#include "outfile.h"
#include "outguard.h"
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if __has_include("cyclictest.h")
#include "cyclictest.h"
#define AN_HAVE_CYCLICTEST 1
#endif

static int an_cmd_run(int argc, char **argv);

const struct pf_command cmd_analyze = {
	.name = "analyze",
	.summary = "latency, response time, utilisation, slot overruns and culprits from a trace and job log",
	.usage =
	"usage: preflight analyze [RUN_DIR] [--trace FILE] [--joblog FILE] [--cyclictest FILE]\n"
	"                         [--threads PATTERN | --all-threads] [--snapshots DIR]\n"
	"                         [--slot-ms N] [-o results.json] [--csv DIR] [--top N]\n"
	"                         [--run FILE] [--partial] [--loads FILE [--phase NAME]] [--fsw FILE]\n"
	"\n"
	"Reads a trace-cmd .dat file (v6/v7, compressed or not) and the app's job log, and writes\n"
	"results.json (schema preflight-results/1, docs/results.md) and a summary on stdout.\n"
	"Any one input is enough: the trace alone, the job log alone, or a cyclictest file alone;\n"
	"with --run or --loads and none of them, results.json holds the run's facts and nulls.\n"
	"A trace of cyclictest (a baseline recorded with cyclictest.trace, or preflight record\n"
	"-e default,timer:hrtimer_start -- cyclictest ...) gets cyclictest_wakeups: each of its\n"
	"wakeups from the timer's expiry to the switch-in, and the --top worst with their culprits.\n"
	"A trace recorded with --wakeups rt or --switches rt (preflight record) gives the other\n"
	"threads' wakeup latency or run time as null, with the reason (trace.wakeups_recorded,\n"
	"trace.switches_recorded); every realtime thread's figures stay whole.\n"
	"\n"
	"  RUN_DIR             a run directory: its trace.dat, jobs.csv and cyclictest.json are used\n"
	"                      when present (else its app phase's and baseline's), with the run's\n"
	"                      facts as preflight run gives them: run.json for --run, loads.json\n"
	"                      for --loads of the analysed phase, that phase's fsw.json; an option\n"
	"                      given wins; an input run.json's phases had that is not there is\n"
	"                      named on stderr (note: left out); results.json is written there\n"
	"                      (default: none)\n"
	"  -t, --trace FILE    trace file (default: RUN_DIR/trace.dat)\n"
	"  -j, --joblog FILE   job log, docs/joblog.md (default: RUN_DIR/jobs.csv)\n"
	"  -c, --cyclictest FILE  cyclictest --json or -h/-H histogram file to import\n"
	"                      (default: RUN_DIR/cyclictest.json)\n"
	"  -T, --threads PATTERN  only these threads in threads[]: comma-separated comm globs or pids\n"
	"                      (default: the app's threads, every realtime thread, the culprits,\n"
	"                      and of the rest the 10 with the most CPU time and the 10 worst woken;\n"
	"                      threads_listing says how many were left out)\n"
	"      --all-threads   every thread seen in threads[] (default: as for --threads)\n"
	"      --snapshots DIR the flight recorder's snapshots DIR/trace-NNN.dat, each analysed\n"
	"                      with the job log: its worst activations get the culprits of the\n"
	"                      snapshot that covers them (default: RUN_DIR's when it has no\n"
	"                      trace.dat)\n"
	"  -s, --slot-ms N     slot length in ms (default: the job log's slot_ns, else 10)\n"
	"      --tick TIME     a wakeup whose switch-in is inferred later than this after its\n"
	"                      sched_waking is counted as unresolved, not as a latency (default: 4ms,\n"
	"                      one tick at HZ=250)\n"
	"  -o, --output FILE   results.json path, '-' for stdout (default: RUN_DIR/results.json,\n"
	"                      else results.json)\n"
	"      --csv DIR       also write the tables results-threads.csv, results-cpus.csv,\n"
	"                      results-tasks.csv, results-jobs.csv, results-culprits.csv (default: none)\n"
	"  -n, --top N         culprits of the N worst activations of each task (default: 5),\n"
	"                      and of cyclictest's N worst wakeups\n"
	"  -q, --quiet         no summary on stdout (default: the summary, unless -o -)\n"
	"      --run FILE      a JSON object of the run's facts (preflight run: scenario, partial,\n"
	"                      phases), written as 'run'; also writes 'partial' (default: none)\n"
	"      --partial       the inputs are partial (an interrupted run): 'partial': true\n"
	"                      (default: 'partial': false with --run, else no 'partial')\n"
	"      --loads FILE    the run's loads.json (preflight-loads/1): its phases' load reports,\n"
	"                      merged by load name, written as 'loads' (default: none)\n"
	"      --phase NAME    only this phase's loads of --loads (default: every phase's)\n"
	"      --fsw FILE      the flight software's statistics (fsw.json, preflight-fsw-stats/1;\n"
	"                      a file of another schema is refused),\n"
	"                      written as 'fsw' (default: none)\n"
	"      --decoder NAME  how the trace's events are read: 'direct' (its ring-buffer pages\n"
	"                      decoded here; a file it does not know is read through libtracecmd,\n"
	"                      with a note on stderr) or 'libtracecmd' (the reference); the same\n"
	"                      results.json either way (default: $PREFLIGHT_DECODER, else direct)\n"
	"  -h, --help          this help\n"
	"\n"
	"No output is ever written over an input or over a file a run's SHA256SUMS lists: that\n"
	"is refused (exit 2) before anything is written.\n"
	"\n"
	"Exit: 0 done, 2 bad usage or bad input (one line naming the file and position), 3 cannot\n"
	"write the outputs, 4 internal error.\n",
	.run = an_cmd_run,
};

/* an_decoder_parse - --decoder NAME (or $PREFLIGHT_DECODER): 0, or -1 for a name it does not know */
static int an_decoder_parse(struct an_run *r, const char *name)
{
	if (!strcmp(name, "direct"))
		r->opt.libtracecmd = false;
	else if (!strcmp(name, "libtracecmd"))
		r->opt.libtracecmd = true;
	else
		return -1;
	return 0;
}

/* an_run_path - RUN_DIR/name if it exists */
static char *an_run_path(const char *dir, const char *name, bool must_exist)
{
	char *p;
	struct stat st;

	if (!dir || asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	if (must_exist && stat(p, &st)) {
		free(p);
		return NULL;
	}
	return p;
}

/*
 * an_run_input - a phase's input file if it holds something: in a run that
 * did not complete, an empty file is one whose writer was stopped before it
 * wrote a byte (a job log killed at its start), and it is left out with a note
 */
static char *an_run_input(const struct an_run *r, const char *dir, const char *name)
{
	char *p = an_run_path(dir, name, true);
	struct stat st;

	if (p && r->opt.partial && !stat(p, &st) && S_ISREG(st.st_mode) && st.st_size == 0) {
		if (!r->opt.quiet)
			pf_err("note: %s: empty, its writer was stopped before it wrote anything: "
			       "left out", p);
		free(p);
		return NULL;
	}
	return p;
}

/* an_phase_dir - name is a phase directory of a run ("NN-<phase>") */
static int an_phase_dir(const struct dirent *d)
{
	return d->d_name[0] >= '0' && d->d_name[0] <= '9' && d->d_name[1] >= '0' &&
	       d->d_name[1] <= '9' && d->d_name[2] == '-';
}

/*
 * an_run_complete - 1 when run.json of DIR says the run completed (or ended),
 * 0 when it does not or there is none (a run killed before it wrote one),
 * or an exit code (< 0, negated) when run.json is there but not JSON
 */
static int an_run_complete(const char *dir)
{
	char *path = an_run_path(dir, "run.json", true);
	json_error_t jerr;
	json_t *run;
	int complete;

	if (!path)
		return 0;
	run = json_load_file(path, 0, &jerr);
	if (!run)
		complete = -pf_fail(PF_EXIT_USAGE, "%s:%d:%d: not a run manifest: %s", path, jerr.line,
				    jerr.column, jerr.text);
	else
		complete = json_is_true(json_object_get(run, "complete")) ||
			   json_object_get(run, "ended_utc") != NULL;
	json_decref(run);
	free(path);
	return complete;
}

/*
 * an_run_phases - RUN_DIR of `preflight run` holds its inputs in its phase
 * directories (a run killed before its own analysis left them there): the
 * last phase with a trace or job log (the app, with its fsw.json) and the
 * last with a cyclictest.json (the baseline); partial unless run.json says
 * the run completed. Fills what the options left empty; 0, or an exit code.
 */
static int an_run_phases(struct an_run *r, const char *dir, char **owned, int *nowned, char **chosen)
{
	struct dirent **ents = NULL;
	char *app = NULL, *base = NULL, *p;
	bool was_partial = r->opt.partial;
	int i, n, complete = an_run_complete(dir);

	if (complete < 0)
		return -complete;
	r->opt.partial = !complete;	/* before the inputs: empty ones are left out */
	n = scandir(dir, &ents, an_phase_dir, alphasort);
	for (i = 0; i < n; i++) {
		if ((p = an_run_path(dir, ents[i]->d_name, false))) {
			char *t = an_run_input(r, p, "trace.dat"), *j = an_run_input(r, p, "jobs.csv");
			char *c = an_run_input(r, p, "cyclictest.json");

			if (t || j) {
				free(app);
				app = strdup(p);
			}
			if (c) {
				free(base);
				base = strdup(p);
			}
			free(t);
			free(j);
			free(c);
			free(p);
		}
		free(ents[i]);
	}
	free(ents);
	if (app && !r->opt.trace && (r->opt.trace = owned[*nowned] = an_run_input(r, app, "trace.dat")))
		(*nowned)++;
	if (app && !r->opt.joblog && (r->opt.joblog = owned[*nowned] = an_run_input(r, app, "jobs.csv")))
		(*nowned)++;
	if (app && !r->opt.fsw && (r->opt.fsw = owned[*nowned] = an_run_input(r, app, "fsw.json")))
		(*nowned)++;
	if (base && !r->opt.cyclictest &&
	    (r->opt.cyclictest = owned[*nowned] = an_run_input(r, base, "cyclictest.json")))
		(*nowned)++;
	if (!(app || base) || !r->opt.partial)
		r->opt.partial = was_partial;
	else if (!r->opt.quiet)
		pf_err("note: %s: the run did not complete (interrupted or killed): analysing "
		       "what its phases recorded%s%s%s%s, marked partial", dir,
		       app ? ": " : "", app ? strrchr(app, '/') + 1 : "",
		       base ? ", baseline " : "", base ? strrchr(base, '/') + 1 : "");
	/* the phase whose facts run gives its analysis: the app's, else the baseline's */
	if (app || base)
		*chosen = strdup(strrchr(app ? app : base, '/') + 1);
	free(app);
	free(base);
	return 0;
}

/* an_run_trace_fate - what run.json's traces says became of phase_dir's trace.dat ("removed", ...), or NULL */
static const char *an_run_trace_fate(json_t *run, const char *phase_dir)
{
	size_t n = strlen(phase_dir), i;
	const char *file;
	json_t *t;

	json_array_foreach(json_object_get(run, "traces"), i, t) {
		file = json_string_value(json_object_get(t, "file")) ?: "";
		if (!strncmp(file, phase_dir, n) && file[n] == '/')
			return json_string_value(json_object_get(t, "action"));
	}
	return NULL;
}

/*
 * an_run_left_out - say which inputs run.json's phases had that RUN_DIR no
 * longer holds (a trace --keep-trace removed, a copy without its trace or
 * cyclictest.json): what only they give is null in this results.json, where
 * the run's own analysis had it
 */
static void an_run_left_out(const struct an_run *r, const char *dir, json_t *run)
{
	const char *app = NULL, *app_trace = NULL, *base = NULL, *d, *fate;
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(run, "phases"), i, p) {
		if (!(d = json_string_value(json_object_get(p, "dir"))))
			continue;
		if (!strcmp(json_string_value(json_object_get(p, "measure")) ?: "", "cyclictest")) {
			base = d;
		} else {
			app = d;
			app_trace = json_string_value(json_object_get(p, "trace"));
		}
	}
	if (app && app_trace && !strcmp(app_trace, "flight") && !r->opt.trace && !r->opt.nsnapshots) {
		pf_err("note: %s: left out: %s's flight-recorder snapshots (trace-NNN.dat; --snapshots %s/%s "
		       "reads them): what only the trace gives is null", dir, app, dir, app);
	} else if (app && app_trace && strcmp(app_trace, "off") && !r->opt.trace && !r->opt.nsnapshots) {
		fate = an_run_trace_fate(run, app);
		pf_err("note: %s: left out: %s/trace.dat is not there (run.json: %s %s): what only the trace "
		       "gives (wakeup latencies, execution times, culprits, threads) is null", dir, app,
		       fate ? "the run's analysis, then" : "the phase traced", fate ? fate : app_trace);
	}
	if (app && !r->opt.joblog)
		pf_err("note: %s: left out: %s/jobs.csv is not there: the job log's figures are null", dir, app);
	if (base && !r->opt.cyclictest)
		pf_err("note: %s: left out: %s/cyclictest.json is not there: no cyclictest baseline", dir, base);
}

/*
 * an_run_facts - RUN_DIR's own facts, taken the way `preflight run` gives them
 * to its analysis (bench/run.c run_facts_argv): run.json for --run (its
 * scenario name, partial and phases; partial also marks the inputs),
 * loads.json for --loads with --phase the analysed phase (phase_dir, NN-<name>,
 * named by run.json), fsw.json of that phase (an_run_phases). What an
 * option gives wins. 0, or an exit code.
 */
static int an_run_facts(struct an_run *r, const char *dir, const char *phase_dir, char **owned, int *nowned)
{
	char *manifest = an_run_path(dir, "run.json", true);
	json_t *run = NULL, *p;
	json_error_t jerr;
	const char *name = NULL;
	size_t i;

	if (manifest) {
		run = json_load_file(manifest, JSON_REJECT_DUPLICATES, &jerr);
		if (!json_is_object(run)) {
			json_decref(run);
			pf_fail(PF_EXIT_USAGE, "%s:%d: not a run manifest: %s", manifest, jerr.line, run ?
				"not a JSON object" : jerr.text);
			free(manifest);
			return PF_EXIT_USAGE;
		}
		owned[(*nowned)++] = manifest;
		if (!r->opt.run_info)
			r->opt.run_manifest = manifest;
		if (!r->opt.run_info && json_is_true(json_object_get(run, "partial")))
			r->opt.partial = true;
		an_run_left_out(r, dir, run);
	}
	if (!r->opt.loads && (r->opt.loads = owned[*nowned] = an_run_path(dir, "loads.json", true))) {
		(*nowned)++;
		json_array_foreach(json_object_get(run, "phases"), i, p)
			if (phase_dir && !strcmp(json_string_value(json_object_get(p, "dir")) ?: "", phase_dir))
				name = json_string_value(json_object_get(p, "name"));
		if (!name && phase_dir && strlen(phase_dir) > 3)
			name = phase_dir + 3;	/* NN-<name> */
		if (name && !r->opt.phase && (r->opt.phase = owned[*nowned] = strdup(name)))
			(*nowned)++;
	}
	json_decref(run);
	return 0;
}

/* an_write_json - results.json, through lib/outfile.h (replaced whole, or a device written in place) */
static int an_write_json(struct an_run *r, json_t *res, const char *path)
{
	FILE *f;
	int ret = pf_outfile_open(path, &f);

	if (ret)
		return ret;
	if (an_results_dump(r, res, f)) {
		int err = errno;

		pf_outfile_abort(f);
		return pf_outfile_fail(path, err);
	}
	return pf_outfile_commit(f);
}

/* an_options - parse the command line into r->opt; 0 or an exit code */
static int an_options(struct an_run *r, int argc, char **argv, char **owned, int *nowned)
{
	static const struct option lo[] = {
		{ "trace", required_argument, NULL, 't' },
		{ "joblog", required_argument, NULL, 'j' },
		{ "cyclictest", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 'T' },
		{ "all-threads", no_argument, NULL, 'A' },
		{ "snapshots", required_argument, NULL, 'S' },
		{ "slot-ms", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "csv", required_argument, NULL, 'C' },
		{ "top", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "run", required_argument, NULL, 'R' },
		{ "partial", no_argument, NULL, 'P' },
		{ "loads", required_argument, NULL, 'L' },
		{ "phase", required_argument, NULL, 'p' },
		{ "fsw", required_argument, NULL, 'F' },
		{ "tick", required_argument, NULL, 'K' },
		{ "decoder", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL;
	char *phase_dir = NULL;
	int64_t ns;
	long v;
	int c, ret;

	r->opt.top = 5;
	r->opt.slot_ns = 10 * PF_NS_PER_MS;
	r->opt.tick_ns = AN_TICK_NS;
	if (getenv("PREFLIGHT_DECODER") && an_decoder_parse(r, getenv("PREFLIGHT_DECODER")))
		return pf_usage_error(&cmd_analyze, "PREFLIGHT_DECODER: '%s' is not 'direct' or 'libtracecmd'",
				      getenv("PREFLIGHT_DECODER"));
	optind = 1;
	while ((c = getopt_long(argc, argv, "t:j:c:T:s:o:n:qh", lo, NULL)) != -1) {
		switch (c) {
		case 't': r->opt.trace = optarg; break;
		case 'j': r->opt.joblog = optarg; break;
		case 'c': r->opt.cyclictest = optarg; break;
		case 'T': r->opt.threads = optarg; break;
		case 'A': r->opt.all_threads = true; break;
		case 'S':
			if (an_snapshots_find(r, optarg))
				return PF_EXIT_INTERNAL;
			break;
		case 'o': r->opt.out = optarg; break;
		case 'C': r->opt.csv = optarg; break;
		case 'q': r->opt.quiet = true; break;
		case 'R': r->opt.run_info = optarg; break;
		case 'P': r->opt.partial = true; break;
		case 'L': r->opt.loads = optarg; break;
		case 'p': r->opt.phase = optarg; break;
		case 'F': r->opt.fsw = optarg; break;
		case 'D':
			if (an_decoder_parse(r, optarg))
				return pf_usage_error(&cmd_analyze, "--decoder: '%s' is not 'direct' or 'libtracecmd'", optarg);
			break;
		case 's':
			if (pf_parse_duration_ns(optarg, PF_NS_PER_MS, &ns) || ns <= 0)
				return pf_usage_error(&cmd_analyze, "--slot-ms: '%s' is not a positive duration", optarg);
			r->opt.slot_ns = ns;
			r->opt.slot_given = true;
			break;
		case 'K':
			if (pf_parse_duration_ns(optarg, PF_NS_PER_MS, &ns) || ns <= 0)
				return pf_usage_error(&cmd_analyze, "--tick: '%s' is not a positive duration", optarg);
			r->opt.tick_ns = ns;
			break;
		case 'n':
			if (pf_parse_long(optarg, 0, 1000, &v))
				return pf_usage_error(&cmd_analyze, "--top: '%s' is not a number in 0..1000", optarg);
			r->opt.top = (int)v;
			break;
		case 'h':
			pf_print_usage(&cmd_analyze);
			return -1;
		default:
			return pf_option_error(&cmd_analyze, argv, "t:j:c:T:s:o:n:qh");
		}
	}
	if (optind < argc)
		dir = argv[optind++];
	if (optind < argc)
		return pf_usage_error(&cmd_analyze, "'%s': only one RUN_DIR", argv[optind]);
	if (dir) {
		struct stat st;

		if (stat(dir, &st) || !S_ISDIR(st.st_mode))
			return pf_fail(PF_EXIT_USAGE, "%s: not a run directory", dir);
		if (!r->opt.trace && (r->opt.trace = owned[*nowned] = an_run_path(dir, "trace.dat", true)))
			(*nowned)++;
		else if (!r->opt.trace && !r->opt.nsnapshots && an_snapshots_find(r, dir))
			return PF_EXIT_INTERNAL;
		if (!r->opt.joblog && (r->opt.joblog = owned[*nowned] = an_run_path(dir, "jobs.csv", true)))
			(*nowned)++;
		if (!r->opt.cyclictest && (r->opt.cyclictest = owned[*nowned] = an_run_path(dir, "cyclictest.json", true)))
			(*nowned)++;
		if (!r->opt.out && (r->opt.out = owned[*nowned] = an_run_path(dir, "results.json", false)))
			(*nowned)++;
		if (!r->opt.trace && !r->opt.joblog && !r->opt.cyclictest &&
		    (ret = an_run_phases(r, dir, owned, nowned, &phase_dir)))
			return ret;
		ret = an_run_facts(r, dir, phase_dir, owned, nowned);
		free(phase_dir);
		if (ret)
			return ret;
	}
	if (!r->opt.out)
		r->opt.out = "results.json";
	if (r->opt.phase && !r->opt.loads)
		return pf_usage_error(&cmd_analyze, "--phase: only with --loads");
	if (dir && !r->opt.trace && !r->opt.joblog && !r->opt.cyclictest && !r->opt.nsnapshots)
		return pf_fail(PF_EXIT_USAGE, "%s: nothing to analyze: no trace.dat, trace-NNN.dat, jobs.csv or "
			       "cyclictest.json in it or in a phase directory (NN-<phase>/)", dir);
	if (!r->opt.trace && !r->opt.joblog && !r->opt.cyclictest && !r->opt.run_info && !r->opt.loads &&
	    !r->opt.nsnapshots)
		return pf_usage_error(&cmd_analyze, "nothing to analyze: give RUN_DIR, --trace, --joblog or --cyclictest");
	return 0;
}

/* an_outputs_guard - every file the analysis will write may be written (lib/outguard.h); 0 or an exit code */
static int an_outputs_guard(const struct an_opts *o)
{
	const char *const in[] = { o->trace, o->joblog, o->cyclictest, o->run_info, o->loads, o->fsw, o->run_manifest };
	char path[4096];
	int i, ret;

	ret = pf_out_guard(o->out, in, PF_ARRAY_SIZE(in));
	for (i = 0; !ret && o->csv && i < AN_CSV_NTABLES; i++) {
		ret = pf_path_join(path, sizeof(path), o->csv, an_csv_tables[i]) ?
			pf_fail(PF_EXIT_USAGE, "%s/%s: %s", o->csv, an_csv_tables[i], strerror(ENAMETOOLONG)) :
			pf_out_guard(path, in, PF_ARRAY_SIZE(in));
	}
	return ret;
}

/* an_facts - what a run adds beside the analysis (--run, --loads, --fsw), loaded before it */
struct an_facts {
	json_t *run, *loads, *fsw;
};

/* an_load_object - a JSON object from path; 0 or an exit code */
static int an_load_object(const char *opt, const char *path, json_t **out)
{
	json_error_t jerr;

	*out = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!*out)
		return pf_fail(PF_EXIT_USAGE, "%s: %s:%d: not valid JSON: %s", opt, path,
			       jerr.line > 0 ? jerr.line : 1, jerr.text);
	if (!json_is_object(*out))
		return pf_fail(PF_EXIT_USAGE, "%s: %s: not a JSON object", opt, path);
	return 0;
}

/*
 * an_loads_merge - the load reports of loads.json's phases (or of the one
 * named phase), merged by load name; 0 or an exit code
 */
static int an_loads_merge(const char *path, json_t *doc, const char *phase, json_t **out)
{
	json_t *phases = json_object_get(doc, "phases"), *p, *name;
	bool found = false;
	size_t i;

	if (strcmp(json_string_value(json_object_get(doc, "schema")) ?: "", "preflight-loads/1") ||
	    !json_is_array(phases))
		return pf_fail(PF_EXIT_USAGE, "--loads: %s: not a loads report (schema preflight-loads/1 with phases)",
			       path);
	*out = json_object();
	if (!*out)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	json_array_foreach(phases, i, p) {
		name = json_object_get(p, "phase");
		if (phase && (!json_is_string(name) || strcmp(json_string_value(name), phase)))
			continue;
		found = true;
		if (json_object_update(*out, json_object_get(p, "loads")))
			return pf_fail(PF_EXIT_USAGE, "--loads: %s: phases[%zu].loads: not a JSON object", path, i);
	}
	if (phase && !found)
		return pf_fail(PF_EXIT_USAGE, "--phase: '%s': no such phase in %s", phase, path);
	return 0;
}

/* an_facts_load - read --run, --loads and --fsw before the analysis; 0 or an exit code */
static int an_facts_load(const struct an_opts *o, struct an_facts *f)
{
	json_t *doc = NULL;
	int ret;

	if (o->run_info && (ret = an_load_object("--run", o->run_info, &f->run)))
		return ret;
	if (!o->run_info && o->run_manifest) {
		/* the facts preflight run gives (bench/run.c run_facts_write), from its manifest */
		ret = an_load_object("run.json", o->run_manifest, &doc);
		if (ret)
			return ret;
		f->run = json_pack("{s:O?, s:O?, s:O?}", "scenario", json_object_get(json_object_get(doc, "scenario"),
				   "name"), "partial", json_object_get(doc, "partial"), "phases",
				   json_object_get(doc, "phases"));
		json_decref(doc);
		doc = NULL;
		if (!f->run)
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	}
	if (o->fsw && (ret = an_load_object("--fsw", o->fsw, &f->fsw)))
		return ret;
	/* any JSON object is no flight software's statistics: its schema says what it is */
	if (f->fsw && strncmp(json_string_value(json_object_get(f->fsw, "schema")) ?: "", "preflight-fsw-stats",
			      strlen("preflight-fsw-stats")))
		return pf_fail(PF_EXIT_USAGE, "--fsw: %s: not the flight software's statistics (schema %s, "
			       "expected preflight-fsw-stats/1)", o->fsw,
			       json_string_value(json_object_get(f->fsw, "schema")) ?: "(none)");
	if (o->loads) {
		ret = an_load_object("--loads", o->loads, &doc);
		if (!ret)
			ret = an_loads_merge(o->loads, doc, o->phase, &f->loads);
		json_decref(doc);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * an_facts_snapshots - the snapshot trigger and budget of the phase (--phase,
 * else the run's first flight-recorder phase), from the run's facts
 */
static void an_facts_snapshots(struct an_opts *o, const struct an_facts *f)
{
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(f->run, "phases"), i, p) {
		if (o->phase ? strcmp(json_string_value(json_object_get(p, "name")) ?: "", o->phase) :
		    strcmp(json_string_value(json_object_get(p, "trace")) ?: "", "flight"))
			continue;
		o->trigger_ns = json_integer_value(json_object_get(p, "trigger_ns"));
		o->max_snapshots = (long)json_integer_value(json_object_get(p, "max_snapshots"));
		return;
	}
}

/* an_facts_fold - add the run's facts to results.json, after what the analysis wrote */
static void an_facts_fold(const struct an_opts *o, const struct an_facts *f, json_t *res)
{
	if (f->fsw)
		json_object_set(res, "fsw", f->fsw);
	if (f->run)
		json_object_set(res, "run", f->run);
	if (f->loads)
		json_object_set(res, "loads", f->loads);
	if (f->run || o->partial)
		json_object_set_new(res, "partial", json_boolean(o->partial));
}

/* an_pass - the analysis after the options: read the inputs, write the outputs; an exit code */
static int an_pass(void *arg)
{
	struct an_run *r = arg;
	struct an_facts facts = { NULL };
	json_t *res = NULL;
	int ret, csv;

	r->last_overrun_slot = -1;
	ret = an_outputs_guard(&r->opt);
	if (ret)
		goto out;
	ret = an_facts_load(&r->opt, &facts);
	if (ret)
		goto out;
	an_facts_snapshots(&r->opt, &facts);
	if (r->opt.cyclictest) {
#ifdef AN_HAVE_CYCLICTEST
		ret = cyclictest_load(r->opt.cyclictest, &r->cyclictest);
		if (ret)
			goto out;
#else
		ret = pf_fail(PF_EXIT_ENV, "--cyclictest: the cyclictest import is not built in");
		goto out;
#endif
	}
	if (r->opt.csv) {
		if (mkdir(r->opt.csv, 0777) && errno != EEXIST) {
			ret = pf_fail(PF_EXIT_ENV, "%s: %s", r->opt.csv, strerror(errno));
			goto out;
		}
		if (r->opt.trace && (ret = an_jobs_csv_open(r, r->opt.csv)))
			goto out;
	}
	if (r->opt.joblog && (ret = an_tasks_joblog_open(r, r->opt.joblog)))
		goto out;
	if (!r->opt.slot_given && r->jl_slot_ns)
		r->opt.slot_ns = r->jl_slot_ns;
	if (r->opt.trace) {
		ret = an_trace_read(r, r->opt.trace);
		if (ret)
			goto out;
		an_tasks_finish(r);
		if (r->jl && (ret = an_tasks_joblog_drain(r)))
			goto out;
	} else if (r->opt.joblog) {
		ret = an_tasks_joblog_alone(r);
		if (ret)
			goto out;
	}
	if (r->opt.nsnapshots && (ret = an_snapshots_explain(r)))
		goto out;
	res = an_results_json(r);
	if (!res) {
		ret = pf_fail(PF_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	an_snapshots_fold(r, res);
	ret = an_series_fold(r->opt.joblog, res);	/* the tail statistics, once per series */
	if (ret)
		goto out;
	for (int i = 0; i < r->ntasks; i++)
		if (r->task[i]->wser.n &&
		    an_series_fold_wakeup(json_array_get(json_object_get(res, "tasks"), (size_t)i), &r->task[i]->wser)) {
			ret = pf_fail(PF_EXIT_INTERNAL, "out of memory");
			goto out;
		}
	if (r->opt.trace || r->opt.nsnapshots)
		an_cw_fold(r, res);
	if (r->opt.trace)
		an_tlat_fold(r, res);	/* the timerlat tracer's samples, when the trace has them */
	an_facts_fold(&r->opt, &facts, res);
	ret = an_write_json(r, res, r->opt.out);
	if (!ret && r->opt.csv)
		ret = an_write_csv(r, res, r->opt.csv);
	if (!ret && !r->opt.quiet && strcmp(r->opt.out, "-")) {
		an_print_summary(r, res, stdout);
		an_cw_print(res, stdout);
	}
out:
	json_decref(res);
	json_decref(r->cyclictest);
	json_decref(facts.run);
	json_decref(facts.loads);
	json_decref(facts.fsw);
	csv = an_jobs_csv_close(r, ret == 0);	/* kept only beside complete tables */
	if (!ret)
		ret = csv;
	an_tasks_joblog_close(r);
	an_snapshots_free(r);
	an_run_free(r);
	return ret < 0 ? 0 : ret;
}

/*
 * an_fault - the pass ended by a fault signal: in libtracecmd / libtraceevent
 * (a step was set) the trace is corrupt, exit 2; in our own code it is a bug,
 * exit 4. Either way one line (docs/results.md, Errors).
 */
static int an_fault(const struct an_run *r, const struct pf_isolated *f)
{
	const char *what = r->opt.trace ? r->opt.trace : r->opt.snapshots[0];	/* or the first snapshot */
	char sig[64];

	pf_isolate_signame(f->signal, sig, sizeof(sig));
	if (!f->step)
		return pf_fail(PF_EXIT_INTERNAL, "%s: internal error: the analysis ended by %s",
			       what, sig);
	if (!f->count)
		return pf_fail(PF_EXIT_USAGE, "%s: corrupt trace: %s faulted (%s)", what, f->step, sig);
	return pf_fail(PF_EXIT_USAGE, "%s: corrupt trace: %s faulted (%s) after %llu events, the last "
		       "at offset %llu", what, f->step, sig, f->count, f->at);
}

/*
 * an_cmd_run - with a trace, the pass runs in a child process (pf_isolate):
 * libtracecmd and libtraceevent fault on some corrupt files, and a bad file
 * must end in one line and exit 2, never in a crash
 */
static int an_cmd_run(int argc, char **argv)
{
	struct an_run run = { 0 }, *r = &run;
	struct pf_isolated fault;
	char *owned[12] = { NULL };
	int nowned = 0, ret, i;

	pf_set_prog("preflight: analyze");
	ret = an_options(r, argc, argv, owned, &nowned);
	if (ret)
		goto out;
	if (!r->opt.trace && !r->opt.nsnapshots) {
		ret = an_pass(r);
		goto out;
	}
	ret = pf_isolate("analyze", an_pass, r, &fault);
	if (ret == -1)
		ret = an_fault(r, &fault);
	else if (ret < 0)
		ret = pf_fail(PF_EXIT_INTERNAL, "waiting for the analysis: %s", strerror(-ret));
out:
	for (i = 0; i < nowned; i++)
		free(owned[i]);
	return ret < 0 ? 0 : ret;
}
