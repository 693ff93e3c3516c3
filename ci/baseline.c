/*
 * baseline.c - 'preflight baseline create RUN... -o FILE': many runs of one
 * scenario on one board become one baseline file (docs/ci.md): their common
 * identity, per metric (named by its results.json path) the value of every
 * run and its sample count, the runs' distributions merged into one
 * histogram per distribution, per task the fitted tail's 1e-6 level of
 * every run (or why a run has none), and the tolerances compare applies. A baseline is promoted by
 * review (it is a file in a repository), never by a pipeline.
 */
#define _GNU_SOURCE
#include "ci/baseline.h"
#include "ci/runs.h"
#include "command.h"
#include "common.h"
#include "outfile.h"
#include "outguard.h"
#include "hist.h"
#include "results_keys.h"

#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


static int bl_run(int argc, char **argv);

const struct pf_command cmd_baseline = {
	.name = "baseline",
	.summary = "make a regression baseline from repeated runs (for 'compare')",
	.usage =
	"usage: preflight baseline create RUN... -o FILE [options]\n"
	"\n"
	"Reads the run directories of repeated runs of one scenario on one board\n"
	"and writes a baseline for 'preflight compare': the identity the runs share,\n"
	"per metric (its results.json path, tasks.io.activation_latency_ns.p99) the\n"
	"value of every run and its sample count, the merged histograms, per task\n"
	"the fitted tail's 1e-6 level and its 95 % interval of every run (or why it\n"
	"has none), and the tolerances (docs/ci.md).\n"
	"\n"
	"options:\n"
	"  -o, --output FILE        the baseline to write (required, no default)\n"
	"      --allow-small        accept fewer than 10 runs (default: an error)\n"
	"      --tolerance SPEC     default effect floor, e.g. 10%,2us,2bins (the default):\n"
	"                           the largest of a share of the baseline median, an\n"
	"                           absolute value and histogram bucket widths\n"
	"      --tolerance-for KEY=SPEC\n"
	"                           the floor of the metrics matching KEY (a glob such\n"
	"                           as 'tasks.*.activation_latency_ns.max', or in the\n"
	"                           older names '*.activation_latency.max'); repeatable\n"
	"                           (default: none, every metric has the default)\n"
	"  -h, --help               this text\n"
	"\n"
	"exit: 0 written, 2 bad input (too few runs, runs of different identity, a run\n"
	"given twice: by run.json uuid, a copy is the same run), or FILE\n"
	"is one of the runs or a file a run's SHA256SUMS lists (never written over),\n"
	"4 internal error\n",
	.run = bl_run,
};

int ci_tol_parse(const char *spec, struct ci_tol *t)
{
	char *copy = strdup(spec), *save = NULL, *item;
	int items = 0, ret = 0;

	if (!copy)
		return -ENOMEM;
	for (item = strtok_r(copy, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(item);
		bool bins = len > 4 && !strcmp(item + len - 4, "bins");
		const char *unit;
		struct pf_qty q;

		/* the numbers as budgets write them (pf_parse_quantity): "2 µs" as "2us", no 0x10% */
		items++;
		if (bins)
			item[len - 4] = 0;
		if (pf_parse_quantity(item, &q, &unit) || q.value < 0 || (bins && q.kind != PF_QTY_PLAIN))
			ret = -EINVAL;
		else if (bins)
			t->bins = q.value;
		else if (q.kind == PF_QTY_PERCENT)
			t->percent = q.value;
		else
			t->abs = q.kind == PF_QTY_TIME ? q.value * q.unit_ns : q.value;
	}
	free(copy);
	return items ? ret : -EINVAL;	/* an empty SPEC says nothing: a mistake */
}

/* bl_tol_json - a tolerance as a JSON object */
static json_t *bl_tol_json(const struct ci_tol *t)
{
	return json_pack("{s:f, s:f, s:f}", "percent", t->percent, "abs", t->abs, "bins", t->bins);
}

/* bl_tol_from - a tolerance from its JSON object (members missing keep *t) */
static void bl_tol_from(const json_t *o, struct ci_tol *t)
{
	if (json_is_number(json_object_get(o, "percent")))
		t->percent = json_number_value(json_object_get(o, "percent"));
	if (json_is_number(json_object_get(o, "abs")))
		t->abs = json_number_value(json_object_get(o, "abs"));
	if (json_is_number(json_object_get(o, "bins")))
		t->bins = json_number_value(json_object_get(o, "bins"));
}

struct ci_tol ci_tol_of(const json_t *baseline, const char *key)
{
	json_t *tol = json_object_get(baseline, "tolerance"), *per = json_object_get(tol, "metrics"), *v;
	struct ci_tol t = { 10, 2000, 2 };
	const char *glob;

	bl_tol_from(json_object_get(tol, "default"), &t);
	json_object_foreach(per, glob, v)
		if (ci_metric_glob(glob, key)) {
			bl_tol_from(v, &t);
			break;
		}
	return t;
}

double ci_tol_value(const struct ci_tol *t, const char *unit, double median, double bin_width)
{
	double tol = t->percent / 100 * fabs(median);

	/* the absolute floor is a duration: it means nothing for a count or a fraction */
	if (!strcmp(unit, "ns") && t->abs > tol)
		tol = t->abs;
	if (t->bins * bin_width > tol)
		tol = t->bins * bin_width;
	return tol;
}

/* bl_merge_hist - add a run's distribution to the merged histogram object of 'name' in hists */
static int bl_merge_hist(json_t *hists, const char *name, const json_t *dist, const char *unit)
{
	struct pf_hist acc, one;
	json_t *prev = json_object_get(hists, name), *out;
	int ret;

	if (!json_object_get(dist, "hist") || (prev && json_is_null(prev)))
		return 0;
	pf_hist_init(&acc);
	if (prev && pf_hist_from_json(prev, &acc)) {
		pf_hist_free(&acc);
		return -EINVAL;
	}
	ret = pf_hist_from_json(dist, &one);
	if (!ret) {
		ret = pf_hist_merge(&acc, &one);
		pf_hist_free(&one);
	}
	if (!ret) {
		out = pf_hist_json(&acc, unit);
		ret = out ? json_object_set_new(hists, name, out) : -ENOMEM;
	}
	pf_hist_free(&acc);
	return ret;
}

/* bl_identity - the identity the runs share; a must-match field that differs is an error (exit 2) */
static int bl_identity(struct ci_run *runs, size_t n, json_t *out)
{
	int bad = 0;

	for (int f = 0; f < CI_NIDENT; f++) {
		size_t other = 0;

		for (size_t i = 1; i < n && !other; i++)
			if (strcmp(runs[i].ident[f], runs[0].ident[f]))
				other = i;
		if (other && ci_ident_must_match[f]) {
			pf_err("runs of different %s: '%s' (%s) and '%s' (%s)", ci_ident_name[f],
			       runs[0].ident[f], runs[0].path, runs[other].ident[f], runs[other].path);
			bad = 1;
		}
		int mixed = other != 0;

		json_object_set_new(out, ci_ident_name[f], json_string(mixed ? "mixed" : runs[0].ident[f]));
	}
	return bad ? PF_EXIT_USAGE : 0;
}

/* bl_metrics - per key the values and sample counts of every run that has it; hists merged */
static int bl_metrics(struct ci_run *runs, size_t n, json_t *metrics, json_t *hists)
{
	for (size_t r = 0; r < n; r++)
		for (size_t k = 0; k < runs[r].n; k++) {
			const struct ci_metric *m = &runs[r].m[k];
			json_t *o = json_object_get(metrics, m->key);
			char hname[sizeof(m->key)];

			if (!o) {
				o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:f, s:[], s:[], s:[], s:I}",
					      "subject", m->subject, "metric", m->metric, "stat", m->stat,
					      "kind", ci_kind_name[m->kind], "unit", m->unit, "q", m->q,
					      "values", "samples", "runs", "bin_width", (json_int_t)0);
				if (!o || json_object_set_new(metrics, m->key, o))
					return -ENOMEM;
			}
			json_array_append_new(json_object_get(o, "values"), json_real(m->value));
			json_array_append_new(json_object_get(o, "samples"), json_integer((json_int_t)m->samples));
			json_array_append_new(json_object_get(o, "runs"), json_integer((json_int_t)r));
			if (m->bin_width_ns > json_integer_value(json_object_get(o, "bin_width")))
				json_object_set_new(o, "bin_width", json_integer(m->bin_width_ns));
			/* one histogram per distribution: taken once, from its max */
			snprintf(hname, sizeof(hname), "%.*s", (int)(strlen(m->key) - strlen(m->stat) - 1), m->key);
			if (m->kind == CI_MAX && bl_merge_hist(hists, hname, m->dist, m->unit))
				json_object_set_new(hists, hname, json_null());
		}
	return 0;
}

/*
 * bl_tails - per task and series the runs' fitted 1e-6 levels with their
 * intervals (runs with a model), and the runs without one with its reason
 * (compare's rule tail-1e-6, docs/ci.md); 0 or -ENOMEM
 */
static int bl_tails(struct ci_run *runs, size_t n, json_t *tails)
{
	for (size_t r = 0; r < n; r++)
		for (size_t k = 0; k < runs[r].ntail; k++) {
			const struct ci_tail *t = &runs[r].tail[k];
			json_t *o = json_object_get(tails, t->key);

			if (!o) {
				o = json_pack("{s:s, s:s, s:f, s:s, s:[], s:[], s:[], s:[], s:[]}", "subject", t->subject,
					      "series", t->series, "p", CI_TAIL_P, "unit", "ns", "values", "ci",
					      "samples", "runs", "absent");
				if (!o || json_object_set_new(tails, t->key, o))
					return -ENOMEM;
			}
			if (!t->model) {
				if (json_array_append_new(json_object_get(o, "absent"),
							  json_pack("{s:I, s:s}", "run", (json_int_t)r, "reason", t->why)))
					return -ENOMEM;
				continue;
			}
			if (json_array_append_new(json_object_get(o, "values"), json_real(t->level_ns)) ||
			    json_array_append_new(json_object_get(o, "ci"), json_pack("[f, f]", t->lo_ns, t->hi_ns)) ||
			    json_array_append_new(json_object_get(o, "samples"), json_integer((json_int_t)t->samples)) ||
			    json_array_append_new(json_object_get(o, "runs"), json_integer((json_int_t)r)))
				return -ENOMEM;
		}
	return 0;
}

/* bl_glob_hits - does a glob match a key of this object */
static bool bl_glob_hits(const char *glob, json_t *obj)
{
	const char *key;
	json_t *m;

	json_object_foreach(obj, key, m)
		if (ci_metric_glob(glob, key))
			return true;
	return false;
}

/* bl_check_globs - every --tolerance-for KEY names at least one metric of the runs; 0 or an exit code */
static int bl_check_globs(json_t *per_metric, json_t *metrics, json_t *tails)
{
	const char *glob;
	json_t *v;

	json_object_foreach(per_metric, glob, v) {
		if (!bl_glob_hits(glob, metrics) && !bl_glob_hits(glob, tails))
			return pf_fail(PF_EXIT_USAGE, "--tolerance-for '%s' matches no metric of the runs "
				       "(results.json paths, e.g. tasks.io.activation_latency_ns.p99, or io.activation_latency.p99; "
				       "'*' for any part; docs/ci.md lists them)", glob);
	}
	return 0;
}

int ci_baseline_build(char **paths, size_t n, const struct ci_tol *dflt, json_t *per_metric, json_t **out)
{
	struct ci_run *runs = calloc(n ? n : 1, sizeof(*runs));
	json_t *root = NULL, *ident, *jruns, *metrics, *hists, *tails;
	char now[32];
	size_t loaded = 0;
	int ret = PF_EXIT_INTERNAL;

	if (!runs)
		return pf_fail(PF_EXIT_INTERNAL, "%s", strerror(ENOMEM));
	for (; loaded < n; loaded++) {
		ret = ci_run_load(paths[loaded], &runs[loaded]);
		if (ret)
			goto out;
	}
	ret = ci_runs_distinct(runs, n);	/* ten copies of one run are one run, not ten */
	if (ret)
		goto out;
	pf_utc(now, sizeof(now), time(NULL), false);
	root = json_pack("{s:s, s:s, s:s, s:o, s:[], s:{s:o, s:O}, s:{}, s:{}, s:{}}",
			 "schema", CI_BASELINE_SCHEMA, "generator", "preflight baseline " PF_VERSION,
			 "created_utc", now, "identity", json_object(), "runs",
			 "tolerance", "default", bl_tol_json(dflt), "metrics", per_metric,
			 "metrics", "histograms", "tails");
	ret = PF_EXIT_INTERNAL;
	if (!root)
		goto out;
	ident = json_object_get(root, "identity");
	jruns = json_object_get(root, "runs");
	metrics = json_object_get(root, "metrics");
	hists = json_object_get(root, "histograms");
	tails = json_object_get(root, "tails");
	ret = bl_identity(runs, n, ident);
	if (ret)
		goto out;
	for (size_t i = 0; i < n; i++) {
		char key[64];

		ci_run_key(&runs[i], key);
		json_array_append_new(jruns, json_pack("{s:s, s:s, s:s, s:s}", "path", runs[i].path, "uuid", key,
						       "kernel_release", runs[i].ident[CI_ID_KERNEL],
						       "config_hash", runs[i].ident[CI_ID_CONFIG]));
	}
	ret = PF_EXIT_INTERNAL;
	if (bl_metrics(runs, n, metrics, hists) || bl_tails(runs, n, tails))
		goto out;
	if ((ret = bl_check_globs(per_metric, metrics, tails)))
		goto out;
	*out = root;
	root = NULL;
	ret = 0;
out:
	for (size_t i = 0; i < loaded; i++)
		ci_run_free(&runs[i]);
	free(runs);
	json_decref(root);
	return ret;
}

/* bl_create - 'baseline create' after its options */
static int bl_create(char **paths, size_t n, const char *out, int allow_small, const struct ci_tol *dflt,
		     json_t *per_metric)
{
	json_t *root = NULL, *ident;
	int ret;

	if (n < CI_MIN_RUNS && !allow_small)
		return pf_fail(PF_EXIT_USAGE, "%zu run%s given, a baseline needs at least %d "
			       "(--allow-small to accept fewer)", n, n == 1 ? "" : "s", CI_MIN_RUNS);
	ret = ci_baseline_build(paths, n, dflt, per_metric, &root);
	if (!ret)
		ret = pf_outfile_json(out, root, JSON_INDENT(1) | JSON_SORT_KEYS);
	if (!ret) {
		ident = json_object_get(root, "identity");
		printf("baseline: %s: %zu run%s, %zu metrics, board %s, kernel %s\n", out, n, n == 1 ? "" : "s",
		       json_object_size(json_object_get(root, "metrics")),
		       json_string_value(json_object_get(ident, "board")),
		       json_string_value(json_object_get(ident, "kernel_release")));
	}
	json_decref(root);
	return ret;
}

static int bl_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "allow-small", no_argument, NULL, 'S' },
		{ "tolerance", required_argument, NULL, 'T' },
		{ "tolerance-for", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct ci_tol dflt = CI_TOL_DEFAULT;
	json_t *per = json_object();
	const char *out = NULL;
	int c, allow_small = 0, ret;

	if (!per)
		return pf_fail(PF_EXIT_INTERNAL, "%s", strerror(ENOMEM));
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		char *eq, glob[256];
		struct ci_tol t;

		switch (c) {
		case 'o': out = optarg; break;
		case 'S': allow_small = 1; break;
		case 'T':
			if (ci_tol_parse(optarg, &dflt)) {
				json_decref(per);
				return pf_usage_error(&cmd_baseline, "bad --tolerance '%s'", optarg);
			}
			break;
		case 'F':
			t = (struct ci_tol){ -1, -1, -1 };
			eq = strchr(optarg, '=');
			if (!eq || eq == optarg || (*eq = 0, ci_tol_parse(eq + 1, &t))) {
				json_decref(per);
				return pf_usage_error(&cmd_baseline, "bad --tolerance-for '%s' (KEY=SPEC)", optarg);
			}
			/* the glob in the one spelling where it maps (*.exec_time.* -> tasks.*.exec_time_ns.*) */
			pf_metric_path(optarg, glob, sizeof(glob));
			/* only what the SPEC gives: the rest stays the default's */
			json_object_set_new(per, glob, json_object());
			if (t.percent >= 0)
				json_object_set_new(json_object_get(per, glob), "percent", json_real(t.percent));
			if (t.abs >= 0)
				json_object_set_new(json_object_get(per, glob), "abs", json_real(t.abs));
			if (t.bins >= 0)
				json_object_set_new(json_object_get(per, glob), "bins", json_real(t.bins));
			break;
		case 'h': pf_print_usage(&cmd_baseline); json_decref(per); return 0;
		default: json_decref(per); return pf_option_error(&cmd_baseline, argv, "o:h");
		}
	}
	if (optind >= argc || strcmp(argv[optind], "create")) {
		json_decref(per);
		return pf_usage_error(&cmd_baseline, optind >= argc ? "no subcommand (create)" :
				      "unknown subcommand '%s' (create)", argv[optind]);
	}
	if (!out) {
		json_decref(per);
		return pf_usage_error(&cmd_baseline, "no output file (-o FILE)");
	}
	ret = pf_out_guard(out, (const char *const *)argv + optind + 1, (size_t)(argc - optind - 1));
	if (ret) {
		json_decref(per);
		return ret;
	}
	ret = bl_create(argv + optind + 1, (size_t)(argc - optind - 1), out, allow_small, &dflt, per);
	json_decref(per);
	return ret;
}
