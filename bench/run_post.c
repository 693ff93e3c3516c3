/*
 * run_post.c - what `preflight run` does after its phases: the analysis
 * (`preflight analyze` with the run's facts), the budgets' check, the
 * summary and the HTML report, what becomes of the traces (--keep-trace),
 * and run.json, the run's manifest, written from the start and after every
 * phase, complete at the end.
 */
#define _GNU_SOURCE
#include "outfile.h"
#include "run.h"
#include "run_private.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* run_facts - what 'preflight analyze' folds into a results.json beside its analysis */
struct run_facts {
	char info[PATH_MAX];	/* the run's facts (scenario, partial, phases): a path for --run */
	int info_fd;		/* the memory file behind it (no file a killed run could leave) */
	char loads[PATH_MAX];	/* loads.json, written before the analysis */
	char fsw[PATH_MAX];
};

/* run_json_ok - the file holds a JSON object (one cut short by a full disk does not) */
static bool run_json_ok(const char *path)
{
	json_t *j = run_exists(path) ? json_load_file(path, 0, NULL) : NULL;
	bool ok = json_is_object(j);

	json_decref(j);
	return ok;
}

/*
 * run_facts_argv - append to argv (at *n) the options that give analyze the
 * run's own facts (--run, --partial) and phase phase_idx's loads and flight
 * software statistics (--loads/--phase, --fsw when its fsw.json exists)
 */
static void run_facts_argv(struct run *r, struct run_facts *f, int phase_idx, char **argv, int *n)
{
	char pdir[PATH_MAX];

	argv[(*n)++] = "--run";
	argv[(*n)++] = f->info;
	if (r->o->all_threads)
		argv[(*n)++] = "--all-threads";
	if (r->partial)
		argv[(*n)++] = "--partial";
	argv[(*n)++] = "--loads";
	argv[(*n)++] = f->loads;
	if (phase_idx < 0 || phase_idx >= (int)json_array_size(r->phases))
		return;
	argv[(*n)++] = "--phase";
	argv[(*n)++] = r->scn.phases[phase_idx].name;
	if (run_json_ok(run_path(f->fsw, sizeof(f->fsw), run_phase_dir(r, phase_idx, pdir, sizeof(pdir)),
				"fsw.json"))) {
		argv[(*n)++] = "--fsw";
		argv[(*n)++] = f->fsw;
	}
}

/*
 * run_facts_write - the run's facts for analyze --run, in a memory file that
 * analyze opens through /proc/<runner>/fd/ (run_analyze closes it); 0 or -1
 */
static int run_facts_write(struct run *r, struct run_facts *f)
{
	json_t *info = json_pack("{s:s, s:b, s:O}", "scenario", r->scn.name, "partial", r->partial,
				 "phases", r->phases);
	int ret = -1;

	run_path(f->loads, sizeof(f->loads), r->dir, "loads.json");
	f->info[0] = '\0';
	f->info_fd = memfd_create("preflight-run-facts", MFD_CLOEXEC);
	if (f->info_fd < 0)
		goto out;
	snprintf(f->info, sizeof(f->info), "/proc/%d/fd/%d", (int)getpid(), f->info_fd);
	if (info && !json_dumpfd(info, f->info_fd, JSON_INDENT(2) | JSON_REAL_PRECISION(10)))
		ret = 0;
out:
	json_decref(info);
	return ret;
}

/*
 * run_baseline_trace_argv - a traced cyclictest phase's trace for analyze:
 * --trace its trace.dat (path into 'trace'), or --snapshots its directory
 * with the flight recorder; returns the new count
 */
static int run_baseline_trace_argv(struct run *r, int idx, const char *pdir, char **argv, int n, char *trace)
{
	if (!run_traced(r, &r->scn.phases[idx]))
		return n;
	if (run_exists(run_path(trace, PATH_MAX, pdir, "trace.dat"))) {
		argv[n++] = "--trace";
		argv[n++] = trace;
	} else {
		argv[n++] = "--snapshots";
		argv[n++] = strcpy(trace, pdir);
	}
	return n;
}

/*
 * run_analyze - results.json of each phase, and the top-level one (app beside
 * its baseline). The app phase the top-level one analyses is read once, there:
 * a second analysis of its trace in its directory would cost the same time
 * again and write the same numbers twice.
 */
static int run_analyze(struct run *r)
{
	char pdir[PATH_MAX], res[PATH_MAX], trace[PATH_MAX], joblog[PATH_MAX], ct[PATH_MAX], log[PATH_MAX];
	char snapdir[PATH_MAX];
	struct run_facts facts;
	char *argv[32];
	int i, n, code;

	if (!run_has_command(r, "analyze")) {
		run_fail(r, PF_EXIT_ENV, "'preflight analyze' is not in this build: no results.json");
		return -1;
	}
	if (run_facts_write(r, &facts)) {
		run_fail(r, PF_EXIT_ENV, "the run's facts for analyze: cannot write: %s", strerror(errno));
		if (facts.info_fd >= 0)
			close(facts.info_fd);
		return -1;
	}
	run_path(log, sizeof(log), r->dir, "analyze.log");
	for (i = 0; i < (int)json_array_size(r->phases); i++) {
		if (r->scn.phases[i].measure == SCN_NONE || i == r->app_phase)
			continue;
		run_phase_dir(r, i, pdir, sizeof(pdir));
		if (!run_exists(run_path(trace, sizeof(trace), pdir, "trace.dat")) &&
		    !run_exists(run_path(joblog, sizeof(joblog), pdir, "jobs.csv")) &&
		    !run_exists(run_path(ct, sizeof(ct), pdir, "cyclictest.json"))) {
			run_log(r, "%s: nothing measured to analyze, no results.json", pdir);
			continue;
		}
		n = 0;
		argv[n++] = r->self;
		argv[n++] = "analyze";
		argv[n++] = pdir;
		if (r->scn.phases[i].measure == SCN_CYCLICTEST) {
			/* a baseline: its cyclictest, with the trace it asked for (cyclictest.trace), never a job log */
			argv[n - 1] = "--cyclictest";
			argv[n++] = run_path(ct, sizeof(ct), pdir, "cyclictest.json");
			n = run_baseline_trace_argv(r, i, pdir, argv, n, trace);
			argv[n++] = "-o";
			argv[n++] = run_path(res, sizeof(res), pdir, "results.json");
		}
		run_facts_argv(r, &facts, i, argv, &n);
		argv[n++] = "-q";
		argv[n] = NULL;
		run_exec(r, argv, "/dev/null", log);
	}
	n = 0;
	argv[n++] = r->self;
	argv[n++] = "analyze";
	if (r->app_phase >= 0) {
		run_phase_dir(r, r->app_phase, pdir, sizeof(pdir));
		if (run_exists(run_path(trace, sizeof(trace), pdir, "trace.dat"))) {
			argv[n++] = "--trace";
			argv[n++] = trace;
		} else {
			argv[n++] = "--snapshots";	/* flight recorder: trace-NNN.dat, if any */
			argv[n++] = strcpy(snapdir, pdir);	/* pdir is reused for the baseline below */
		}
		if (run_exists(run_path(joblog, sizeof(joblog), pdir, "jobs.csv"))) {
			argv[n++] = "--joblog";
			argv[n++] = joblog;
		}
	}
	if (r->baseline_phase >= 0) {
		run_phase_dir(r, r->baseline_phase, pdir, sizeof(pdir));
		if (run_exists(run_path(ct, sizeof(ct), pdir, "cyclictest.json"))) {
			argv[n++] = "--cyclictest";
			argv[n++] = ct;
		}
		if (r->app_phase < 0)	/* no app: the baseline's trace, if it has one, is the run's */
			n = run_baseline_trace_argv(r, r->baseline_phase, pdir, argv, n, trace);
	}
	argv[n++] = "-o";
	argv[n++] = run_path(res, sizeof(res), r->dir, "results.json");
	run_facts_argv(r, &facts, r->app_phase >= 0 ? r->app_phase : r->baseline_phase >= 0 ?
		       r->baseline_phase : (int)json_array_size(r->phases) - 1, argv, &n);
	argv[n++] = "-q";
	argv[n] = NULL;
	code = run_exec(r, argv, "/dev/null", log);
	close(facts.info_fd);
	if (code != 0) {
		run_fail(r, PF_EXIT_ENV, "preflight analyze exited with %d (see %s)", code, log);
		return -1;
	}
	return 0;
}

/*
 * run_check - verdicts.json (what summary, report and history read,
 * docs/verdicts.md) and verdicts.tap from the budgets; the check's exit code
 * (0 pass or incomplete, 1 fail, not valid or no verdict) or -1
 */
static int run_check(struct run *r)
{
	char res[PATH_MAX], tap[PATH_MAX], json[PATH_MAX], log[PATH_MAX], budgets[PATH_MAX];
	char *argv[] = { r->self, "check", run_path(res, sizeof(res), r->dir, "results.json"),
			 "--budgets", run_path(budgets, sizeof(budgets), r->dir, "budgets.ini"),
			 "-o", run_path(tap, sizeof(tap), r->dir, "verdicts.tap"),
			 "--json", run_path(json, sizeof(json), r->dir, "verdicts.json"), NULL };
	int code;

	if (!r->budgets[0]) {	/* found before the first phase: only a build without 'check' gets here */
		run_fail(r, PF_EXIT_ENV, "no budgets file (%s): no verdicts", r->budgets_src);
		return -1;
	}
	if (!run_has_command(r, "check")) {
		run_fail(r, PF_EXIT_ENV, "'preflight check' is not in this build: no verdicts");
		return -1;
	}
	code = run_exec(r, argv, "/dev/null", run_path(log, sizeof(log), r->dir, "check.log"));
	if (code != 0 && code != 1) {
		run_fail(r, PF_EXIT_ENV, "preflight check exited with %d (see %s)", code, log);
		return -1;
	}
	return code;
}

int run_report_compare(const struct run_opts *o, char **argv, int n)
{
	const struct { const char *opt, *arg; } cmp[] = {
		{ "--previous", o->previous }, { "--baseline", o->baseline }, { "--history", o->history },
	};

	for (size_t i = 0; i < PF_ARRAY_SIZE(cmp); i++)
		if (cmp[i].arg) {
			argv[n++] = (char *)cmp[i].opt;
			argv[n++] = (char *)cmp[i].arg;
		}
	argv[n] = NULL;
	return n;
}

/*
 * run_html_report - report.html and report.pdf by `preflight report` (after
 * the checksums, which they are not part of); a report that cannot be
 * written is said, and does not change the run's verdict
 */
static void run_html_report(struct run *r)
{
	char html[PATH_MAX], pdf[PATH_MAX], log[PATH_MAX];
	char *argv[16] = { r->self, "report", r->dir, "-o", run_path(html, sizeof(html), r->dir, "report.html"),
			   "--pdf", run_path(pdf, sizeof(pdf), r->dir, "report.pdf") };
	int code;

	run_report_compare(r->o, argv, 7);

	if (r->o->no_report)
		return;
	if (!run_has_command(r, "report")) {
		pf_err("'preflight report' is not in this build: no report.html");
		return;
	}
	code = run_exec(r, argv, "/dev/null", run_path(log, sizeof(log), r->dir, "report.log"));
	if (code != 0)
		pf_err("preflight report exited with %d (see %s)", code, log);
}

/* run_is_dat - a trace file of a phase: trace.dat, or a flight-recorder snapshot trace-NNN.dat */
static bool run_is_dat(const char *name)
{
	size_t n = strlen(name);

	return n >= 9 && !strncmp(name, "trace", 5) && !strcmp(name + n - 4, ".dat");
}

/* run_dat_version - the .dat file format version from the file's header, 0 when unreadable */
static int run_dat_version(const char *path)
{
	static const char magic[] = "\027\010\104tracing";
	char head[16] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, head, sizeof(head) - 1);

	if (fd >= 0)
		close(fd);
	if (n < (ssize_t)sizeof(magic) || memcmp(head, magic, sizeof(magic) - 1))
		return 0;
	return atoi(head + sizeof(magic) - 1);
}

/*
 * run_compress_dat - rewrite a .dat as version 7 with zstd-compressed
 * sections by trace-cmd convert (the same events, options and CPU statistics;
 * analyze reads both): into a temporary name, then renamed over the original.
 * 0, or -1 with the original kept
 */
static int run_compress_dat(struct run *r, const char *path, const char *log)
{
	const char *tmp;
	char *argv[] = { "trace-cmd", "convert", "--file-version", "7", "--compression", "zstd",
			 "-i", (char *)path, "-o", NULL, NULL };
	bool ok;

	if (pf_outfile_begin(path, &tmp))
		return -1;
	argv[9] = (char *)tmp;
	ok = !run_exec(r, argv, "/dev/null", log) && run_dat_version(tmp) == 7;
	return pf_outfile_end(path, ok) || !ok ? -1 : 0;
}

/*
 * run_keep_traces - after the analysis, each phase's trace files are kept
 * compressed (version 7, zstd) or removed, as --keep-trace says: always,
 * on-fail (kept when a requirement failed or the run could not be done), or
 * never. What became of each goes into run.json's traces and run.log
 */
static void run_keep_traces(struct run *r, int check)
{
	static const char *const when[] = { "always", "always", "on-fail", "never" };
	bool failed = r->code != 0 || check != 0 || run_signal;
	bool keep = r->o->keep_trace <= RUN_KEEP_ALWAYS || (r->o->keep_trace == RUN_KEEP_ON_FAIL && failed);
	char pdir[PATH_MAX], path[PATH_MAX + 256], log[PATH_MAX];
	struct dirent *de;
	struct stat st;
	int i, v;
	DIR *d;

	run_path(log, sizeof(log), r->dir, "analyze.log");
	for (i = 0; i < (int)json_array_size(r->phases); i++) {
		run_phase_dir(r, i, pdir, sizeof(pdir));
		if (!(d = opendir(pdir)))
			continue;
		while ((de = readdir(d))) {
			off_t before;
			const char *did;

			if (!run_is_dat(de->d_name) || pf_path_join(path, sizeof(path), pdir, de->d_name) ||
			    stat(path, &st) || !S_ISREG(st.st_mode))
				continue;
			before = st.st_size;
			if (!keep) {
				did = unlink(path) ? "kept: cannot remove" : "removed";
			} else if ((v = run_dat_version(path)) == 7) {
				did = "kept";
			} else if (v != 6) {
				did = "kept as recorded: not a trace-cmd file";
			} else {
				did = run_compress_dat(r, path, log) ? "kept uncompressed: trace-cmd convert failed"
					: "compressed";
			}
			if (stat(path, &st))
				st.st_size = 0;
			run_log(r, "%s: %s (%lld -> %lld bytes, --keep-trace %s)", path + strlen(r->dir) + 1, did,
				(long long)before, (long long)st.st_size, when[r->o->keep_trace]);
			json_array_append_new(r->traces, json_pack("{s:s, s:s, s:I, s:I}", "file",
				path + strlen(r->dir) + 1, "action", did, "bytes_recorded", (json_int_t)before,
				"bytes", (json_int_t)(keep ? st.st_size : 0)));
		}
		closedir(d);
	}
}

/*
 * run_manifest - run.json: what ran, how it ended, which pieces were
 * missing; before the end (complete false) it says the run is under way by
 * which runner, so a runner killed outright leaves a run directory that says so
 */
void run_manifest(struct run *r, bool complete)
{
	char path[PATH_MAX], ended[32], uuid[40];
	const char *started_utc = r->started_utc;
	json_t *m;

	run_utc(ended, sizeof(ended), true);
	/* the run's identity in a history database (preflight history, docs/ci.md) */
	if (pf_read_file("/proc/sys/kernel/random/uuid", uuid, sizeof(uuid)) < 0)
		uuid[0] = '\0';
	m = json_pack("{s:s, s:s?, s:O?, s:{s:s, s:s, s:s}, s:s, s:s, s:s, s:b, s:s?, s:i, s:s?, s:s?, s:O, s:O, s:O}",
		      "schema", "preflight-run/1", "uuid", uuid[0] ? uuid : NULL, "preflight", r->identity,
		      "scenario", "name", r->scn.name, "file", "scenario.ini", "source", r->scn.path,
		      "dir", r->dir, "started_utc", started_utc, "ended_utc", ended,
		      "partial", r->partial,
		      "interrupted_by", run_signal ? strsignal(run_signal) : NULL,
		      "exit_code", r->code,
		      "failure", r->failure[0] ? r->failure : NULL,
		      "budgets", r->budgets[0] ? "budgets.ini" : NULL,
		      "phases", r->phases, "traces", r->traces, "warnings", r->warnings);
	if (m && !complete) {
		json_object_del(m, "ended_utc");
		json_object_set_new(m, "partial", json_true());
		json_object_set_new(m, "exit_code", json_null());
		json_object_set_new(m, "runner_pid", json_integer(getpid()));
		if (r->current_phase >= 0) {
			const struct scn_phase *p = &r->scn.phases[r->current_phase];
			char dir[PATH_MAX];

			json_object_set_new(m, "running_phase", json_pack("{s:s, s:s, s:s, s:f}", "name", p->name,
					    "dir", strrchr(run_phase_dir(r, r->current_phase, dir, sizeof(dir)), '/') + 1,
					    "measure", scn_measure_name(p->measure),
					    "planned_s", (double)p->duration_ns / PF_NS_PER_SEC));
		}
	}
	if (m)
		json_object_set_new(m, "complete", json_boolean(complete));
	if (m && r->disk_full)
		json_object_set_new(m, "disk_full", json_true());
	if (m && (r->o->previous || r->o->baseline || r->o->history))	/* what the report compares the run with */
		json_object_set_new(m, "compared_with", json_pack("{s:s?, s:s?, s:s?}", "previous", r->o->previous,
				    "baseline", r->o->baseline, "history", r->o->history));
	run_path(path, sizeof(path), r->dir, "run.json");
	if (!m)
		pf_err("%s: cannot write: %s", path, strerror(ENOMEM));
	else
		(void)!pf_outfile_json(path, m, JSON_INDENT(2) | JSON_REAL_PRECISION(10));	/* said why */
	json_decref(m);
}

/* run_report - report.txt, the plain-text summary by `preflight summary`; its exit code or -1 */
static int run_report(struct run *r)
{
	char path[PATH_MAX];
	char *argv[] = { r->self, "summary", r->dir, "-o", run_path(path, sizeof(path), r->dir, "report.txt"),
			 NULL };

	return run_exec(r, argv, "/dev/null", "-");
}

/* run_finish - loads.json, analysis, check, manifest, checksums, report; the exit code */
int run_finish(struct run *r)
{
	char path[PATH_MAX];
	json_t *loads;
	int check = -1;
	char *sums[] = { "sh", "-c",
			 "cd \"$1\" && find . -type f ! -name SHA256SUMS ! -name report.txt "
			 "! -name qualification.txt -print0 | sort -z | xargs -0 sha256sum",
			 "sh", r->dir, NULL };

	if (run_disk_check(r, "after the phases") && r->reserve_fd >= 0) {
		close(r->reserve_fd);	/* the room for run.json, the analysis and the summary */
		r->reserve_fd = -1;
	}
	loads = json_pack("{s:s, s:s, s:b, s:O}", "schema", "preflight-loads/1", "scenario", r->scn.name,
			  "partial", r->partial, "phases", r->load_phases);
	if (pf_outfile_json(run_path(path, sizeof(path), r->dir, "loads.json"), loads,
			    JSON_INDENT(2) | JSON_REAL_PRECISION(10)))
		run_fail(r, PF_EXIT_ENV, "%s: not written", path);
	json_decref(loads);
	if (json_array_size(r->phases) && run_analyze(r) == 0)
		check = run_check(r);
	run_keep_traces(r, check);
	if (!r->code && check >= 0)
		r->code = check;
	if (run_signal && r->code != PF_EXIT_USAGE) {
		snprintf(r->failure, sizeof(r->failure), "interrupted by %s: partial results", strsignal(run_signal));
		r->code = PF_EXIT_ENV;
	}
	run_manifest(r, true);
	run_log(r, "end: exit %d%s%s; then SHA256SUMS and report.txt", r->code,
		   r->failure[0] ? ": " : "", r->failure);
	fclose(r->log);	/* run.log is evidence too: complete before the checksums */
	r->log = NULL;
	if (run_exec(r, sums, run_path(path, sizeof(path), r->dir, "SHA256SUMS"), "/dev/null"))
		pf_err("%s: checksums not written", path);
	run_html_report(r);
	if (run_report(r))
		pf_err("%s/report.txt: not written", r->dir);
	return r->code;
}
