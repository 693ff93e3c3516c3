/*
 * compare_out.c - the outputs of 'preflight compare' (compare.h): TAP13 with a
 * YAML block per metric, JUnit XML, compare.json and compare.md. Names are
 * stable from run to run (the metric's results.json path; JUnit classname
 * board.scenario.subject, name the path), the numbers go in the message
 * and the YAML, so a CI system can follow one metric across pipelines.
 */
#define _GNU_SOURCE
#include "ci/compare.h"
#include "common.h"
#include "markup.h"
#include "outfile.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

/* the order in which people read verdicts: the bad news first */
static const enum ci_state ci_state_order[] = { CI_REGRESSED, CI_UNKNOWN, CI_SKIP, CI_SAME };

void ci_fmt(char *buf, size_t size, double value, const char *unit)
{
	if (isnan(value))
		snprintf(buf, size, "-");
	else if (isinf(value))
		snprintf(buf, size, "%sinf", value < 0 ? "-" : "");
	else if (!strcmp(unit, "ns"))
		pf_fmt_us(buf, size, value, false);
	else if (!strcmp(unit, "fraction"))
		snprintf(buf, size, "%.1f %%", value * 100);
	else
		snprintf(buf, size, "%g", value);
}

/* ci_message - one line with the verdict and its numbers (JUnit message, Markdown) */
static void ci_message(char *buf, size_t size, const struct ci_verdict *v)
{
	char med[32], lo[32], hi[32], nm[32], sh[32], tol[32], p[32];

	ci_fmt(med, sizeof(med), v->base_median, v->unit);
	ci_fmt(lo, sizeof(lo), v->base_min, v->unit);
	ci_fmt(hi, sizeof(hi), v->base_max, v->unit);
	ci_fmt(nm, sizeof(nm), v->new_median, v->unit);
	ci_fmt(sh, sizeof(sh), v->shift, v->unit);
	ci_fmt(tol, sizeof(tol), v->tol, v->unit);
	if (isnan(v->p))
		snprintf(p, sizeof(p), "-");
	else
		snprintf(p, sizeof(p), "%.4f", v->p);
	if (v->kind == CI_TAIL) {
		char bl[32], bh[32], nl[32], nh[32];

		ci_fmt(bl, sizeof(bl), v->base_ci[0], v->unit);
		ci_fmt(bh, sizeof(bh), v->base_ci[1], v->unit);
		ci_fmt(nl, sizeof(nl), v->new_ci[0], v->unit);
		ci_fmt(nh, sizeof(nh), v->new_ci[1], v->unit);
		snprintf(buf, size, "%s: new 1e-6 level median %s (95 %% intervals %s..%s, %zu run%s), baseline median %s "
			 "(%s..%s, %zu run%s), shift %s, tolerance %s, rule %s: %s", ci_state_name[v->state], nm, nl, nh,
			 v->nnew, v->nnew == 1 ? "" : "s", med, bl, bh, v->base_runs, v->base_runs == 1 ? "" : "s", sh,
			 tol, v->rule, v->reason);
		return;
	}
	snprintf(buf, size, "%s: new median %s (%zu run%s), baseline median %s (%s..%s, %zu run%s), "
		 "shift %s, tolerance %s, p %s, rule %s: %s", ci_state_name[v->state], nm, v->nnew,
		 v->nnew == 1 ? "" : "s", med, lo, hi, v->base_runs, v->base_runs == 1 ? "" : "s", sh, tol, p,
		 v->rule, v->reason);
}

/* ci_yaml_num - a number in YAML: null for NaN, .inf for infinity */
static void ci_yaml_num(FILE *f, double x)
{
	if (isnan(x))
		fputs("null", f);
	else if (isinf(x))
		fputs(x > 0 ? ".inf" : "-.inf", f);
	else
		fprintf(f, "%.10g", x);
}

/* ci_yaml_pair - [a, b] in YAML */
static void ci_yaml_pair(FILE *f, const double x[2])
{
	fputc('[', f);
	ci_yaml_num(f, x[0]);
	fputs(", ", f);
	ci_yaml_num(f, x[1]);
	fputc(']', f);
}

/* ci_quoted - a double-quoted string, for YAML and Markdown-safe output */
static void ci_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* ci_unmatched_line - "N metrics of the new runs are not in the baseline (a, b, ...)" or "" */
static void ci_unmatched_line(char *buf, size_t size, const struct ci_report *r)
{
	size_t n = json_array_size(r->unmatched), i;
	json_t *x;

	buf[0] = '\0';
	if (!n)
		return;
	snprintf(buf, size, "%zu metric%s of the new runs not in the baseline, not compared:", n, n > 1 ? "s" : "");
	json_array_foreach(r->unmatched, i, x) {
		if (i == 5) {
			snprintf(buf + strlen(buf), size - strlen(buf), " ...");
			break;
		}
		snprintf(buf + strlen(buf), size - strlen(buf), "%s %s", i ? "," : "", json_string_value(x));
	}
}

int ci_write_tap(FILE *f, const struct ci_report *r)
{
	char line[1024];

	fprintf(f, "TAP version 13\n1..%zu\n", r->n);
	ci_unmatched_line(line, sizeof(line), r);
	if (line[0])
		fprintf(f, "# %s\n", line);
	for (size_t i = 0; i < r->n; i++) {
		const struct ci_verdict *v = &r->v[i];
		int bad = v->state == CI_REGRESSED || (r->strict && v->state == CI_UNKNOWN);

		fprintf(f, "%s %zu - %s", bad ? "not ok" : "ok", i + 1, v->key);
		if (v->state == CI_SKIP)
			fprintf(f, " # SKIP %s", v->reason);
		fprintf(f, "\n  ---\n  state: %s\n  rule: %s\n  unit: %s\n  baseline: {median: ",
			ci_state_name[v->state], v->rule, v->unit);
		ci_yaml_num(f, v->base_median);
		fputs(", min: ", f);
		ci_yaml_num(f, v->base_min);
		fputs(", max: ", f);
		ci_yaml_num(f, v->base_max);
		fprintf(f, ", runs: %zu}\n  new: [", v->base_runs);
		for (size_t k = 0; k < v->nnew; k++) {
			fputs(k ? ", " : "", f);
			ci_yaml_num(f, v->newv[k]);
		}
		fputs("]\n  shift: ", f);
		ci_yaml_num(f, v->shift);
		fputs("\n  shift_upper: ", f);
		ci_yaml_num(f, v->upper);
		fputs("\n  p: ", f);
		ci_yaml_num(f, v->p);
		fputs("\n  tolerance: ", f);
		ci_yaml_num(f, v->tol);
		if (v->kind == CI_TAIL) {
			fprintf(f, "\n  tail: {p: %g, baseline_ci: ", CI_TAIL_P);
			ci_yaml_pair(f, v->base_ci);
			fputs(", new_ci: ", f);
			ci_yaml_pair(f, v->new_ci);
			fputc('}', f);
		}
		fputs("\n  reason: ", f);
		ci_quoted(f, v->reason);
		fputs("\n  ...\n", f);
	}
	return ferror(f) ? -EIO : 0;
}

/* ci_dotless - a name for a JUnit classname part: dots would make a package level */
static void ci_dotless(char *out, size_t size, const char *s)
{
	snprintf(out, size, "%s", s);
	for (char *p = out; *p; p++)
		if (*p == '.' || *p == ' ')
			*p = '_';
}

int ci_write_junit(FILE *f, const struct ci_report *r)
{
	size_t failures = r->count[CI_REGRESSED] + (r->strict ? r->count[CI_UNKNOWN] : 0);
	char board[128], scenario[128], msg[1024], b_xml[800], s_xml[800], sub_xml[600];

	ci_dotless(board, sizeof(board), r->board);
	ci_dotless(scenario, sizeof(scenario), r->scenario);
	pf_markup_esc_str(board, b_xml, sizeof(b_xml));
	pf_markup_esc_str(scenario, s_xml, sizeof(s_xml));
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"preflight compare\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
		r->n, failures, r->count[CI_SKIP]);
	fprintf(f, "  <testsuite name=\"%s.%s\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
		b_xml, s_xml, r->n, failures, r->count[CI_SKIP]);
	for (size_t i = 0; i < r->n; i++) {
		const struct ci_verdict *v = &r->v[i];
		int bad = v->state == CI_REGRESSED || (r->strict && v->state == CI_UNKNOWN);
		char subject[96];

		ci_dotless(subject, sizeof(subject), v->subject);
		ci_message(msg, sizeof(msg), v);
		fprintf(f, "    <testcase classname=\"%s.%s.%s\" name=\"", b_xml, s_xml,
			pf_markup_esc_str(subject, sub_xml, sizeof(sub_xml)));
		pf_markup_esc(f, v->key);
		fputs("\" time=\"0\">\n", f);
		if (bad || v->state == CI_SKIP) {
			fprintf(f, "      <%s message=\"", bad ? "failure" : "skipped");
			pf_markup_esc(f, msg);
			if (bad) {
				fprintf(f, "\" type=\"%s\">", ci_state_name[v->state]);
				pf_markup_esc(f, msg);
				fputs("</failure>\n", f);
			} else {
				fputs("\"/>\n", f);
			}
		}
		fputs("      <system-out>", f);
		pf_markup_esc(f, msg);
		fputs("</system-out>\n    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ci_jnum - a JSON number, null for NaN and infinity */
static json_t *ci_jnum(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

int ci_write_json(const char *path, const struct ci_report *r)
{
	json_t *root, *arr;
	int ret;

	root = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:{s:I, s:I, s:I, s:I}, s:[]}",
			 "schema", "preflight-compare/1", "baseline", r->baseline, "board", r->board,
			 "scenario", r->scenario, "kernel_baseline", r->kernel_base, "kernel_new", r->kernel_new,
			 "summary", "regressed", (json_int_t)r->count[CI_REGRESSED],
			 "unknown", (json_int_t)r->count[CI_UNKNOWN], "same", (json_int_t)r->count[CI_SAME],
			 "skip", (json_int_t)r->count[CI_SKIP], "results");
	if (root && r->unmatched)
		json_object_set(root, "not_in_baseline", r->unmatched);
	if (!root)
		return -ENOMEM;
	arr = json_object_get(root, "results");
	for (size_t i = 0; i < r->n; i++) {
		const struct ci_verdict *v = &r->v[i];
		json_t *nv = json_array(), *o;

		for (size_t k = 0; k < v->nnew; k++)
			json_array_append_new(nv, ci_jnum(v->newv[k]));
		o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:{s:o, s:o, s:o, s:I}, s:o, s:o, s:o, s:o, s:o, s:o}",
			      "key", v->key, "subject", v->subject, "metric", v->metric, "stat", v->stat,
			      "kind", ci_kind_name[v->kind], "unit", v->unit, "state", ci_state_name[v->state],
			      "rule", v->rule, "reason", v->reason,
			      "baseline", "median", ci_jnum(v->base_median), "min", ci_jnum(v->base_min),
			      "max", ci_jnum(v->base_max), "runs", (json_int_t)v->base_runs,
			      "new", nv, "new_median", ci_jnum(v->new_median), "shift", ci_jnum(v->shift),
			      "shift_upper", ci_jnum(v->upper), "p", ci_jnum(v->p), "tolerance", ci_jnum(v->tol));
		if (o && v->kind == CI_TAIL)
			json_object_set_new(o, "tail", json_pack("{s:f, s:[o, o], s:[o, o]}", "p", CI_TAIL_P,
								 "baseline_ci", ci_jnum(v->base_ci[0]), ci_jnum(v->base_ci[1]),
								 "new_ci", ci_jnum(v->new_ci[0]), ci_jnum(v->new_ci[1])));
		if (!o || json_array_append_new(arr, o)) {
			json_decref(root);
			return -ENOMEM;
		}
	}
	ret = pf_outfile_json(path, root, JSON_INDENT(1));
	json_decref(root);
	return ret;
}

int ci_write_md(FILE *f, const struct ci_report *r)
{
	fprintf(f, "### preflight compare: %s / %s\n\n", r->board, r->scenario);
	fprintf(f, "Kernel %s against the baseline's %s (`%s`): **%zu regressed**, %zu unknown, %zu same, %zu skipped.\n\n",
		r->kernel_new, r->kernel_base, r->baseline, r->count[CI_REGRESSED], r->count[CI_UNKNOWN],
		r->count[CI_SAME], r->count[CI_SKIP]);
	{
		char line[1024];

		ci_unmatched_line(line, sizeof(line), r);
		if (line[0])
			fprintf(f, "%s\n\n", line);
	}
	fputs("| state | metric | baseline median (min..max) | new median | shift | p | rule |\n", f);
	fputs("|---|---|---|---|---|---|---|\n", f);
	for (size_t s = 0; s < PF_ARRAY_SIZE(ci_state_order); s++)
		for (size_t i = 0; i < r->n; i++) {
			const struct ci_verdict *v = &r->v[i];
			char med[32], lo[32], hi[32], nm[32], sh[32];

			if (v->state != ci_state_order[s])
				continue;
			ci_fmt(med, sizeof(med), v->base_median, v->unit);
			ci_fmt(lo, sizeof(lo), v->base_min, v->unit);
			ci_fmt(hi, sizeof(hi), v->base_max, v->unit);
			ci_fmt(nm, sizeof(nm), v->new_median, v->unit);
			ci_fmt(sh, sizeof(sh), v->shift, v->unit);
			fprintf(f, "| %s | `%s` | %s (%s..%s) | %s | %s | ", ci_state_name[v->state], v->key, med, lo,
				hi, nm, sh);
			if (isnan(v->p))
				fputs("-", f);
			else
				fprintf(f, "%.4f", v->p);
			fprintf(f, " | %s |\n", v->rule);
		}
	return ferror(f) ? -EIO : 0;
}
