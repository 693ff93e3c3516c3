/*
 * decision.c - page 1's decision (issue 32.10), one reading for the summary
 * (qualification.txt's head) and the report (its boxed first table). A
 * reviewer who signs timing evidence reads five answers before any figure:
 *   result       verdicts.json: how many failed, of which requirements;
 *   measurement  selftest/selftest.json: validated only when the selftest
 *                met its goals on this machine (a run without one: not);
 *   platform     sysinfo.json and verdicts.json's emulated interfaces: a
 *                virtual machine, an emulated CPU, a kernel without
 *                PREEMPT_RT, no isolated CPU, realtime throttling, emulated
 *                I/O — each makes the run unrepresentative of a board;
 *   run length   per latency verdict: a failure needed no more run; a pass
 *                is adequate when its activations reach what shows
 *                P(> bound) <= PF_TAIL_TARGET at 95 % (lib/tail_model.h: the
 *                tail model's count, or the zero-failure binomial's);
 *   idle kernel  the idle phase's cyclictest maximum against the tightest
 *                latency budget: a kernel that misses it idle fails any app.
 */
#include "decision.h"
#include "common.h"
#include "jpath.h"
#include "tail_model.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* decision_set - one line's answer and its sentence */
static PF_PRINTF(4, 5) void decision_set(struct decision_line *l, const char *state, bool ok, const char *fmt, ...)
{
	va_list ap;

	l->state = state;
	l->ok = ok;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof(l->text), fmt, ap);
	va_end(ap);
}

/* decision_add - append to a line's sentence */
static PF_PRINTF(2, 3) void decision_add(struct decision_line *l, const char *fmt, ...)
{
	size_t len = strlen(l->text);
	va_list ap;

	if (len >= sizeof(l->text) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(l->text + len, sizeof(l->text) - len, fmt, ap);
	va_end(ap);
}

/* decision_str - a string at a path, 'none' when it is not one */
static const char *decision_str(json_t *root, const char *path, const char *none)
{
	const char *s = json_string_value(pf_jpath_get(root, path));

	return s ? s : none;
}

double decision_bound_ns(json_t *verdict)
{
	static const struct { const char *name; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	const char *unit = decision_str(verdict, "unit", "");
	json_t *bound = json_object_get(verdict, "bound");
	size_t i;

	for (i = 0; json_is_number(bound) && i < PF_ARRAY_SIZE(units); i++)
		if (!strcmp(unit, units[i].name))
			return json_number_value(bound) * units[i].ns;
	return NAN;
}

/* decision_latency - is a verdict one on a task's latency with a time bound; its task name into buf */
static bool decision_latency(json_t *verdict, char *task, size_t size)
{
	const char *metric = decision_str(verdict, "metric", "");
	size_t len;

	if (strncmp(metric, "tasks.", 6) || !strstr(metric, "latency") || !isfinite(decision_bound_ns(verdict)))
		return false;
	len = strcspn(metric + 6, ".");
	if (len >= size)
		return false;
	snprintf(task, size, "%.*s", (int)len, metric + 6);
	return true;
}

/* decision_task_tail - the tail object of results.json a latency verdict on 'metric' of the task is read with, or NULL */
static json_t *decision_task_tail(json_t *results, const char *task, const char *metric)
{
	const char *what;
	json_t *t;
	size_t i;

	json_array_foreach(pf_jpath_get(results, "tasks"), i, t)
		if (!strcmp(decision_str(t, "name", ""), task))
			return pf_tail_of_verdict(t, metric, &what);
	return NULL;
}

/* decision_result - how many verdicts failed, of which requirements */
static void decision_result(json_t *v, struct decision_line *l)
{
	const char *result = decision_str(v, "result", NULL), *id, *seen[32];
	int fail = (int)json_integer_value(pf_jpath_get(v, "counts.fail")), count[32], nseen = 0, i;
	json_t *r;
	size_t k, total = json_array_size(json_object_get(v, "verdicts"));

	if (!result) {
		decision_set(l, "UNKNOWN", false, "no verdicts.json: nothing was judged");
		return;
	}
	json_array_foreach(json_object_get(v, "verdicts"), k, r) {
		if (strcmp(decision_str(r, "verdict", ""), "fail"))
			continue;
		id = decision_str(r, "id", "?");
		for (i = 0; i < nseen && strcmp(seen[i], id); i++)
			;
		if (i == nseen && nseen < (int)PF_ARRAY_SIZE(seen)) {
			seen[nseen] = id;
			count[nseen++] = 0;
		}
		if (i < nseen)
			count[i]++;
	}
	decision_set(l, !strcmp(result, "pass") ? "PASS" : !strcmp(result, "fail") ? "FAIL" :
		     !strcmp(result, "not_valid") ? "NOT VALID" : !strcmp(result, "incomplete") ? "INCOMPLETE" :
		     "NO VERDICT", !strcmp(result, "pass"), "%d of %zu verdicts failed", fail, total);
	for (i = 0; i < nseen; i++)
		decision_add(l, "%s%d %s", i ? ", " : " (", count[i], seen[i]);
	decision_add(l, "%s; %d passed, %d not measured, %d not valid", nseen ? ")" : "",
		     (int)json_integer_value(pf_jpath_get(v, "counts.pass")),
		     (int)json_integer_value(pf_jpath_get(v, "counts.not_measured")),
		     (int)json_integer_value(pf_jpath_get(v, "counts.not_valid")));
}

/* decision_measurement - the selftest's verdict on this machine */
static void decision_measurement(json_t *st, struct decision_line *l)
{
	int failed = 0, cases = 0, not_run = 0;
	json_t *c;
	size_t i;

	if (!st) {
		decision_set(l, "NOT VALIDATED", false, "no selftest ran with this run (preflight qualify runs one "
			     "first; run does not): nothing shows the measurement right on this machine");
		return;
	}
	json_array_foreach(json_object_get(st, "cases"), i, c) {
		cases++;
		not_run += json_is_string(json_object_get(c, "not_run"));
		failed += !json_is_string(json_object_get(c, "not_run")) && !json_is_true(json_object_get(c, "pass"));
	}
	if (json_is_true(json_object_get(st, "pass")) && cases > not_run) {	/* a pass on no case run is none */
		decision_set(l, "VALIDATED", true, "the selftest met its goals on this machine in %d of %d cases",
			     cases - not_run, cases);
		if (not_run)
			decision_add(l, " (%d not run here, each with its reason)", not_run);
		return;
	}
	if (cases == not_run) {
		decision_set(l, "NOT VALIDATED", false, "the selftest ran none of its %d cases on this machine", cases);
		return;
	}
	decision_set(l, "NOT VALIDATED", false, "the selftest failed %d of its %d cases on this machine (", failed, cases);
	failed = 0;
	json_array_foreach(json_object_get(st, "cases"), i, c)
		if (!json_is_string(json_object_get(c, "not_run")) && !json_is_true(json_object_get(c, "pass")))
			decision_add(l, "%s%s", failed++ ? ", " : "", decision_str(c, "name", "?"));
	decision_add(l, "): the verdicts rest on measurements it could not validate");
}

/* decision_platform - what makes this machine unlike the board it stands for */
static void decision_platform(json_t *si, json_t *v, struct decision_line *l)
{
	json_t *preempt_rt = pf_jpath_get(si, "kernel.preempt_rt"), *e;
	int n = 0;
	size_t i;

	if (!si) {
		decision_set(l, "UNKNOWN", false, "no sysinfo.json: the machine is not described");
		return;
	}
	decision_set(l, "NOT REPRESENTATIVE", false, "%s", "");
	if (json_is_true(pf_jpath_get(si, "virtualization.emulated")))
		decision_add(l, "%san emulated CPU", n++ ? ", " : "");
	else if (!json_is_false(pf_jpath_get(si, "virtualization.virtualized")) &&
		 !json_is_true(pf_jpath_get(si, "virtualization.virtualized")))
		decision_add(l, "%svirtualisation not known", n++ ? ", " : "");
	else if (json_is_true(pf_jpath_get(si, "virtualization.virtualized")))
		decision_add(l, "%sa virtual machine%s%s%s", n++ ? ", " : "",
			     json_is_string(pf_jpath_get(si, "virtualization.evidence")) ? " (" : "",
			     decision_str(si, "virtualization.evidence", ""),
			     json_is_string(pf_jpath_get(si, "virtualization.evidence")) ? ")" : "");
	if (!json_is_true(preempt_rt))
		decision_add(l, "%s%s (preemption %s)", n++ ? ", " : "",
			     json_is_false(preempt_rt) ? "a kernel without PREEMPT_RT" : "PREEMPT_RT not known",
			     decision_str(si, "kernel.preempt_model", "?"));
	if (!*decision_str(si, "cpus.isolated", ""))
		decision_add(l, "%sno isolated CPU", n++ ? ", " : "");
	if (!json_is_false(pf_jpath_get(si, "rt_throttle.throttling")))	/* unknown is no "off" */
		decision_add(l, "%srealtime throttling %s", n++ ? ", " : "",
			     json_is_true(pf_jpath_get(si, "rt_throttle.throttling")) ? "on" : "not known");
	if (json_array_size(json_object_get(v, "emulated"))) {
		decision_add(l, "%semulated I/O: ", n++ ? ", " : "");
		json_array_foreach(json_object_get(v, "emulated"), i, e)
			decision_add(l, "%s%s", i ? ", " : "", decision_str(e, "interface", "?"));
	}
	if (!n)
		decision_set(l, "REPRESENTATIVE", true, "%s, kernel %s with PREEMPT_RT, CPUs %s isolated, realtime "
			     "throttling off, no emulated interface", decision_str(si, "cpus.model", "this machine"),
			     decision_str(si, "kernel.release", "?"), decision_str(si, "cpus.isolated", "?"));
}

/* decision_p - PF_TAIL_TARGET as people write it: "1e-9" */
static const char *decision_p(char *buf, size_t size)
{
	char *z;

	snprintf(buf, size, "%g", PF_TAIL_TARGET);
	if ((z = strstr(buf, "e-0")))
		memmove(z + 2, z + 3, strlen(z + 3) + 1);
	return buf;
}

/* decision_hours - activations at rate_hz as a duration: "8321 h at 100 Hz", or "" */
static const char *decision_hours(double n, double rate_hz, char *buf, size_t size)
{
	if (!(rate_hz > 0) || !isfinite(n))
		snprintf(buf, size, "%s", "");
	else if (n / rate_hz >= 3600)
		snprintf(buf, size, " (%.0f h at %.0f Hz)", n / rate_hz / 3600, rate_hz);
	else
		snprintf(buf, size, " (%.0f min at %.0f Hz)", ceil(n / rate_hz / 60), rate_hz);
	return buf;
}

/*
 * decision_run_length - per latency verdict: failed within the run, or a
 * pass whose activations reach what shows P(> bound) <= PF_TAIL_TARGET (the
 * lesser of the tail model's count and the zero-failure binomial's)
 */
static void decision_run_length(json_t *v, json_t *results, bool plain, struct decision_line *l)
{
	double binomial = pf_tail_run_binomial(PF_TAIL_TARGET, PF_TAIL_ALPHA), need, model, n, weak_n = NAN;
	double weak_need = NAN, weak_rate = 0;
	int judged = 0, failed = 0, passed = 0, shown = 0, other = 0;
	char task[64], weak[64] = "", failed_names[256] = "", b1[64], bound[48] = "", p[16];
	struct pf_tail m;
	const char *why, *verdict;
	json_t *r, *tail;
	size_t i;

	json_array_foreach(json_object_get(v, "verdicts"), i, r) {
		if (!decision_latency(r, task, sizeof(task)))
			continue;
		judged++;
		verdict = decision_str(r, "verdict", "");
		if (!strcmp(verdict, "fail")) {
			size_t len = strlen(failed_names);

			snprintf(failed_names + len, sizeof(failed_names) - len, "%s%s", failed++ ? ", " : "", task);
			continue;
		}
		if (strcmp(verdict, "pass")) {
			other++;
			continue;
		}
		passed++;
		n = json_number_value(json_object_get(r, "n"));
		tail = decision_task_tail(results, task, decision_str(r, "metric", ""));
		model = pf_tail_from_json(tail, &m, &why) ? NAN : pf_tail_run_model(&m, decision_bound_ns(r), PF_TAIL_TARGET);
		need = isfinite(model) && model < binomial ? model : binomial;
		if (n >= need) {
			shown++;
			continue;
		}
		if (!weak[0] || n / need < weak_n / weak_need) {	/* the pass furthest from its length */
			snprintf(weak, sizeof(weak), "%s", task);
			snprintf(bound, sizeof(bound), "%g %s", json_number_value(json_object_get(r, "bound")),
				 plain ? decision_str(r, "unit", "") : !strcmp(decision_str(r, "unit", ""), "us") ? "µs" :
				 decision_str(r, "unit", ""));
			weak_n = n;
			weak_need = need;
			weak_rate = json_number_value(json_object_get(tail, "rate_hz"));
		}
	}
	if (!judged) {
		decision_set(l, "UNKNOWN", false, "no latency requirement was judged");
		return;
	}
	if (shown == judged) {
		decision_set(l, "ADEQUATE", true, "every latency requirement passed with the activations that show "
			     "P(> bound) <= %s per activation at 95 %%", decision_p(p, sizeof(p)));
		return;
	}
	decision_set(l, "NOT ADEQUATE", false, "%d of %d latency verdicts shown at P(> bound) <= %s per activation "
		     "(95 %%)", shown, judged, decision_p(p, sizeof(p)));
	if (weak[0])
		decision_add(l, "; %s passed on %.0f activations, %.3g needed with none above %s%s", weak, weak_n,
			     weak_need, bound, decision_hours(weak_need, weak_rate, b1, sizeof(b1)));
	if (failed)
		decision_add(l, "; %d failed within the run (%s): a longer run cannot make a failure pass", failed, failed_names);
	else if (!passed)
		decision_add(l, "; showing one met takes %.3g activations with none above its bound", binomial);
	if (other)
		decision_add(l, "; %d not measured or not valid", other);
}

/* decision_idle_max_ns - the idle phase's (cyclictest without loads) maximum, NAN without one; its phase in buf */
static double decision_idle_max_ns(const char *dir, json_t *run, char *phase, size_t size)
{
	char path[PATH_MAX], rel[PATH_MAX];
	json_t *p, *res;
	double max = NAN;
	size_t i;

	json_array_foreach(json_object_get(run, "phases"), i, p) {
		if (strcmp(decision_str(p, "measure", ""), "cyclictest") || json_array_size(json_object_get(p, "loads")))
			continue;
		snprintf(phase, size, "%s", decision_str(p, "dir", "?"));
		if (snprintf(rel, sizeof(rel), "%s/results.json", phase) >= (int)sizeof(rel) ||
		    pf_path_join(path, sizeof(path), dir, rel))
			return NAN;
		res = json_load_file(path, 0, NULL);
		if (json_is_number(pf_jpath_get(res, "cyclictest.all.latency_ns.max")))
			max = json_number_value(pf_jpath_get(res, "cyclictest.all.latency_ns.max"));
		json_decref(res);
		return max;
	}
	return NAN;
}

/* decision_baseline - the idle kernel's cyclictest maximum against the tightest latency budget */
static void decision_baseline(const char *dir, json_t *run, json_t *v, bool plain, struct decision_line *l)
{
	double max_ns, bound_ns, tight_ns = NAN;
	const char *us = plain ? "us" : "µs";
	char phase[64] = "", task[64], id[64] = "";
	json_t *r;
	size_t i;

	max_ns = decision_idle_max_ns(dir, run, phase, sizeof(phase));
	json_array_foreach(json_object_get(v, "verdicts"), i, r)
		if (decision_latency(r, task, sizeof(task)) && (bound_ns = decision_bound_ns(r)) > 0 &&
		    !(bound_ns >= tight_ns)) {
			tight_ns = bound_ns;
			snprintf(id, sizeof(id), "%s", decision_str(r, "id", "?"));
		}
	if (!phase[0]) {
		decision_set(l, "UNKNOWN", false, "the run had no idle cyclictest phase: the kernel's own latency "
			     "was not measured");
		return;
	}
	if (isnan(max_ns)) {
		decision_set(l, "UNKNOWN", false, "phase %s has no cyclictest maximum (no results.json)", phase);
		return;
	}
	if (isnan(tight_ns)) {
		decision_set(l, "MEASURED", true, "phase %s: cyclictest max %.1f %s; no latency budget to hold it to",
			     phase, max_ns / 1e3, us);
		return;
	}
	if (max_ns > tight_ns)
		decision_set(l, "EXCEEDS THE BUDGET", false, "phase %s: cyclictest max %.1f %s without any load, "
			     "above %s's %.1f %s: the idle kernel alone already misses it", phase,
			     max_ns / 1e3, us, id, tight_ns / 1e3, us);
	else
		decision_set(l, "WITHIN THE BUDGET", true, "phase %s: cyclictest max %.1f %s without any load, "
			     "%.0f %% of %s's %.1f %s", phase, max_ns / 1e3, us, 100 * max_ns / tight_ns, id,
			     tight_ns / 1e3, us);
}

void decision_read(const char *dir, json_t *verdicts, json_t *selftest, json_t *sysinfo, json_t *run,
		   json_t *results, bool plain, struct decision *d)
{
	static const char *const names[DECISION_N] = { "result", "measurement", "platform", "run length", "idle kernel" };
	int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < DECISION_N; i++)
		d->line[i].name = names[i];
	decision_result(verdicts, &d->line[DECISION_RESULT]);
	decision_measurement(selftest, &d->line[DECISION_MEASUREMENT]);
	decision_platform(sysinfo, verdicts, &d->line[DECISION_PLATFORM]);
	decision_run_length(verdicts, results, plain, &d->line[DECISION_RUN_LENGTH]);
	decision_baseline(dir, run, verdicts, plain, &d->line[DECISION_BASELINE]);
}
