/*
 * check.c - 'preflight check': budgets as requirements. Reads a budget file
 * (INI, docs/budgets.md) and a results.json (docs/results.md) and prints one
 * TAP test per requirement and selected element, named by both (a name
 * that stays the same from run to run, so prove's JUnit and any CI can
 * follow it), with the measured value, the bound and the margin on the
 * diagnostic line after it:
 *
 *   ok 1 - REQ-LAT-001 ctl100 activation_latency max
 *   #   41.2 us <= 62 us (margin 34 %)
 *
 * A requirement whose metric is absent from results.json (a component not
 * built, no samples) is 'not measured': a TAP SKIP, never counted as passed.
 * Exit: 0 every measured requirement met, 1 one failed (or, with --strict,
 * one not measured; or nothing was measured at all), 2 bad input.
 *
 * Everything is resolved before the first line is printed, so a bad budget
 * or a unit that does not fit its metric stops with exit 2 and no verdicts.
 */
#define _GNU_SOURCE
#include "command.h"
#include "outfile.h"
#include "outguard.h"
#include "results_keys.h"
#include "tail_model.h"
#include "common.h"
#include "datafile.h"
#include "ini.h"
#include "jpath.h"
#include "load_achieved.h"
#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHK_RESULTS_SCHEMA "preflight-results/1"
#define CHK_MAX_SEGS 32
#define CHK_VALIDITY "validity"		/* the budget file's section of the load gate, not a requirement */
#define CHK_MIN_LOAD_PCT 90.0		/* the load gate's default: 90 % of each load's target */
#define CHK_VERDICTS_SCHEMA "preflight-verdicts/1"

enum chk_op { CHK_LT, CHK_LE, CHK_GT, CHK_GE, CHK_EQ, CHK_NE };
static const char *const chk_op_text[] = { "<", "<=", ">", ">=", "==", "!=" };

/* what a number means: the bound's unit and the metric's must agree */
enum chk_kind { CHK_PLAIN, CHK_TIME, CHK_FRACTION, CHK_PERCENT };

/* one term of a selector: a name, or a predicate on an element's member */
struct chk_term {
	char       *key;	/* NULL: a name */
	char       *value;	/* the name, or the predicate's value */
	enum chk_op op;
	int         exclude;	/* "!name": never this element */
};

struct chk_req {
	char       *id;		/* section name */
	char       *text, *metric, *select, *bound;
	unsigned    line, line_metric, line_select, line_bound;
	/* parsed */
	char      **metrics;	/* 'metric' split at commas */
	size_t      nmetrics;
	enum chk_op op;
	double      limit;	/* as written, in 'unit' */
	enum chk_kind kind;	/* CHK_TIME, CHK_PERCENT or CHK_PLAIN */
	const char *unit;	/* "us", "%", "" */
	double      unit_ns;	/* CHK_TIME: ns per unit */
	struct chk_term *terms;
	size_t      nterms;
	int         has_names, has_filters;
};

/* [validity]: how much of its target a load must achieve for the verdicts under it to count */
struct chk_gate {
	double   min_pct;		/* min_load_achieved: every load (default 90 %) */
	struct {
		char   name[32];
		double pct;
	}        over[16];		/* min_load_achieved.NAME: one load's own */
	size_t   nover;
	bool     min_set;		/* min_load_achieved was given */
	unsigned line;			/* the [validity] section's line, 0 when none */
};

struct chk_budgets {
	const char     *path;
	struct chk_gate gate;
	struct pf_ini   ini;	/* the reader: lines read so far, the first error it found */
	struct chk_req *req;
	size_t          nreq, cap;
	int             err;	/* an error was printed */
};

enum chk_result { CHK_PASSED, CHK_FAILED, CHK_NOT_MEASURED, CHK_NOT_VALID, CHK_NRESULTS };

/* one test: a requirement applied to one resolved value */
struct chk_item {
	const struct chk_req *req;
	char        label[256];	/* "ctl100 activation_latency max" */
	char        path[512];	/* "tasks.ctl100.activation_latency_ns.max" */
	json_t     *value;	/* borrowed; NULL when not measured */
	json_t     *bound;	/* value NULL, only a bound known: {">=": lo, "<=": hi} (docs/results.md) */
	json_t     *elem;	/* array element the value belongs to, or NULL */
	json_t     *owned;	/* a bound made here (an estimated stddev's), released with the item */
	json_t     *parent;	/* object holding the value */
	char        why[512];	/* not measured or not valid: why */
	bool        no_value;	/* not measured though results.json has the member: null, or a bound that cannot decide */
	enum chk_kind kind;
	double      unit_ns;	/* CHK_TIME: ns per metric unit */
	/* the verdict (chk_judge): the TAP and verdicts.json are both written from these */
	enum chk_result result;
	bool        decided;	/* a value, or a bound, was compared with the limit */
	double      shown;	/* the value (or the deciding bound) in 'unit' */
	double      limit;	/* the bound in 'unit' */
	const char *unit;	/* "us", "%", "ns", "" */
	double      margin_pct;	/* NAN: none (==, !=, a zero bound) */
	json_int_t  n;		/* samples behind the value (chk_n), -1 unknown */
	char        n_key[16];	/* where n was read: "count", "jobs", ... */
	char        line[768];	/* "41.2 us <= 62 us (margin 34 %)" */
	char        known[256];	/* a value known only by a bound: ">= 20 us, <= 48939 us" */
	char        measured[600];	/* "tasks.io.activation_latency_ns.max = 7582323" */
	char        notes[4][600];	/* diagnostics: a percentile that is the max, an estimate, a load short */
	int         nnotes;
	bool        lost;	/* lost trace events overlap the element */
	char        worst[1400];	/* a failure's worst case (chk_worst: its culprit line), "" none */
	unsigned    emulated;	/* the emulated interfaces it rests on (enum chk_em bits) */
	bool        tail;	/* a tail model's figure (exceedance(), pwcet()): owned is it, no estimate */
};

struct chk_items {
	struct chk_item *v;
	size_t n, cap;
};

static int chk_run(int argc, char **argv);

const struct pf_command cmd_check = {
	.name = "check",
	.summary = "check results.json against budgets (requirements), print TAP",
	.usage =
	"usage: preflight check RESULTS [--budgets FILE] [-o FILE] [--json FILE] [--strict]\n"
	"                       [--failures]\n"
	"\n"
	"Checks every requirement of a budget file against a results.json of\n"
	"'preflight analyze' and prints TAP: one test per requirement and selected\n"
	"element, with the measured value, the bound and the margin. A metric that\n"
	"names no key of the results.json schema is an error in the budget file (exit 2);\n"
	"one this results.json does not have, or has no value of, or whose value rests\n"
	"on no sample (n = 0), is 'not measured' (a TAP SKIP), never passed: the summary\n"
	"counts those not in this run and those without a value apart. A pass under a\n"
	"load that achieved less than the budget file's [validity] share of its target\n"
	"(default 90 %) is 'not valid'. --json writes the same verdicts as records\n"
	"(verdicts.json, docs/verdicts.md), which summary, report and history read.\n"
	"A task's latency tail is judged through exceedance(DURATION) or\n"
	"pwcet(PROBABILITY) after it (tasks.io.tail.activation_latency_ns.exceedance(62us)\n"
	"<= 1e-9), on the upper end of its model's 95 % interval; not measured when\n"
	"the model's assumptions were rejected (docs/statistics.md).\n"
	"RESULTS is a results.json, a run directory holding one, or - for stdin.\n"
	"\n"
	"options:\n"
	"  -b, --budgets FILE   budget file (INI, docs/budgets.md), or a data file's\n"
	"                       name (seed: budgets/seed.ini); default: the run\n"
	"                       directory's budgets.ini when RESULTS is a directory\n"
	"  -o, --output FILE    write the TAP to FILE instead of stdout (default: stdout)\n"
	"      --json FILE      also write the verdicts as JSON records (preflight-verdicts/1)\n"
	"                       to FILE (default: none)\n"
	"      --strict         a requirement not measured fails the check (default: off)\n"
	"      --failures       a view for people, not TAP: only the verdicts that failed or\n"
	"                       are not valid (with --strict: not measured too), then the\n"
	"                       counts of all; the exit code is the same (default: off)\n"
	"      --keys           print the metric paths results.json has (its schema) and exit\n"
	"                       (default: off)\n"
	"  -h, --help           this text\n"
	"\n"
	"FILE is never an input nor a file a run's SHA256SUMS lists (refused, exit 2).\n"
	"\n"
	"exit: 0 every requirement measured and met, or some not measured (result\n"
	"'incomplete'); 1 a requirement failed, a pass was not valid, nothing was\n"
	"measured (no verdict), or with --strict one was not measured; 2 bad budgets\n"
	"or results; 3 an output cannot be written\n",
	.run = chk_run,
};

/* chk_bad - print "<file>:<line>: <why>", remember that input was bad */
static void chk_bad(struct chk_budgets *b, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void chk_bad(struct chk_budgets *b, unsigned line, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (!b->err)
		pf_err("%s:%u: %s", b->path, line, why);
	b->err = 1;
}

/* ----------------------------------------------------------------------
 * Budget file
 */

/* chk_on_line - registers [sections] as the reader meets them */
static void chk_on_line(void *user, char *str)
{
	struct chk_budgets *b = user;
	char *s;

	for (s = str; isspace((unsigned char)*s); s++)
		;
	/* an indented line after a key continues its value, as inih reads it */
	if (*s == '[' && (s == str || !b->nreq) && !b->err) {
		char *end = strchr(s, ']');
		struct chk_req *r;
		size_t i;

		if (!end)
			return;	/* inih reports it */
		*end = '\0';
		if (!strcmp(s + 1, CHK_VALIDITY)) {
			if (b->gate.line)
				chk_bad(b, b->ini.line, "[%s] again (first at line %u)", CHK_VALIDITY, b->gate.line);
			b->gate.line = b->ini.line;
			*end = ']';
			return;
		}
		for (i = 0; i < b->nreq; i++)
			if (!strcmp(b->req[i].id, s + 1)) {
				chk_bad(b, b->ini.line, "requirement [%s] again (first at line %u)",
					s + 1, b->req[i].line);
				break;
			}
		if (pf_grow(&b->req, &b->cap, b->nreq, sizeof(*b->req), 16)) {
			chk_bad(b, b->ini.line, "out of memory");
			return;
		}
		r = &b->req[b->nreq++];
		memset(r, 0, sizeof(*r));
		r->id = strdup(s + 1);
		r->line = b->ini.line;
		*end = ']';
		if (!r->id)
			chk_bad(b, b->ini.line, "out of memory");
	}
}

/*
 * chk_validity_key - one key of [validity]: min_load_achieved = 90% (every
 * load), min_load_achieved.NAME = 80% (load NAME's own); 1, or 0 after an error
 */
static int chk_validity_key(struct chk_budgets *b, const char *name, const char *value)
{
	static const char key[] = "min_load_achieved";
	struct chk_gate *g = &b->gate;
	const char *load = NULL;
	bool twice;
	double pct;
	char *end;

	if (!strncmp(name, key, sizeof(key) - 1) && name[sizeof(key) - 1] == '.' && name[sizeof(key)])
		load = name + sizeof(key);
	else if (strcmp(name, key)) {
		chk_bad(b, b->ini.line, "unknown key '%s' in [%s] (min_load_achieved, min_load_achieved.LOAD)",
			name, CHK_VALIDITY);
		return 0;
	}
	errno = 0;
	pct = strtod(value, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (end == value || errno || strcmp(end, "%") || !(pct >= 0 && pct <= 100)) {
		chk_bad(b, b->ini.line, "%s '%s' is not a share of the target from 0%% to 100%%", name, value);
		return 0;
	}
	twice = !load && g->min_set;
	for (size_t i = 0; load && i < g->nover; i++)
		twice |= !strcmp(g->over[i].name, load);
	if (twice) {
		chk_bad(b, b->ini.line, "'%s' given twice in [%s]", name, CHK_VALIDITY);
		return 0;
	}
	if (!load) {
		g->min_pct = pct;
		g->min_set = true;
		return 1;
	}
	if (g->nover == PF_ARRAY_SIZE(g->over) || strlen(load) >= sizeof(g->over[0].name)) {
		chk_bad(b, b->ini.line, "%s: too many loads or too long a name", name);
		return 0;
	}
	snprintf(g->over[g->nover].name, sizeof(g->over[0].name), "%s", load);
	g->over[g->nover++].pct = pct;
	return 1;
}

/* chk_handler - one "key = value" of the budget file */
static int chk_handler(void *user, const char *section, const char *name, const char *value)
{
	struct chk_budgets *b = user;
	struct chk_req *r;
	char **slot;
	unsigned *line;

	if (b->err)
		return 0;
	if (!strcmp(section, CHK_VALIDITY))
		return chk_validity_key(b, name, value);
	if (!b->nreq || strcmp(b->req[b->nreq - 1].id, section)) {
		chk_bad(b, b->ini.line, "'%s' outside a [REQ-...] section", name);
		return 0;
	}
	r = &b->req[b->nreq - 1];
	if (!strcmp(name, "text")) {
		slot = &r->text;
		line = NULL;
	} else if (!strcmp(name, "metric")) {
		slot = &r->metric;
		line = &r->line_metric;
	} else if (!strcmp(name, "select")) {
		slot = &r->select;
		line = &r->line_select;
	} else if (!strcmp(name, "bound")) {
		slot = &r->bound;
		line = &r->line_bound;
	} else {
		chk_bad(b, b->ini.line, "unknown key '%s' (text, metric, select, bound)", name);
		return 0;
	}
	if (*slot && line) {
		chk_bad(b, b->ini.line, "'%s' given twice in [%s]", name, r->id);
		return 0;
	}
	if (*slot) {
		/* text continued on an indented line */
		char *t;

		if (asprintf(&t, "%s %s", *slot, value) < 0)
			return 0;
		free(*slot);
		*slot = t;
		return 1;
	}
	*slot = strdup(value);
	if (line)
		*line = b->ini.line;
	return *slot != NULL;
}

/* chk_parse_op - a comparison operator at *s; advances s; 0 or -EINVAL */
static int chk_parse_op(const char **s, enum chk_op *op)
{
	static const enum chk_op order[] = { CHK_LE, CHK_GE, CHK_EQ, CHK_NE, CHK_LT, CHK_GT };
	size_t i, n;

	for (i = 0; i < PF_ARRAY_SIZE(order); i++) {
		n = strlen(chk_op_text[order[i]]);
		if (!strncmp(*s, chk_op_text[order[i]], n)) {
			*op = order[i];
			*s += n;
			return 0;
		}
	}
	/* a single '=' is a common slip for '==' */
	if (**s == '=') {
		*op = CHK_EQ;
		*s += 1;
		return 0;
	}
	return -EINVAL;
}

/*
 * chk_parse_bound - "<= 62us", "< 1 ms", "<= 60%", "== 0"; a bare limit
 * ("62us", as budgets/seed.ini writes it) is an upper bound, "<="; the
 * number and its unit read by pf_parse_quantity, as every command reads a time
 */
static int chk_parse_bound(struct chk_budgets *b, struct chk_req *r)
{
	static const enum chk_kind kinds[] = {
		[PF_QTY_PLAIN] = CHK_PLAIN, [PF_QTY_TIME] = CHK_TIME, [PF_QTY_PERCENT] = CHK_PERCENT,
	};
	const char *s = r->bound, *unit;
	struct pf_qty q;
	int ret;

	while (isspace((unsigned char)*s))
		s++;
	if (chk_parse_op(&s, &r->op))
		r->op = CHK_LE;
	while (isspace((unsigned char)*s))
		s++;
	ret = pf_parse_quantity(s, &q, &unit);
	if (ret == -EINVAL) {
		chk_bad(b, r->line_bound, "bound '%s' is not [<|<=|>|>=|==|!=] NUMBER [UNIT]",
			r->bound);
		return -EINVAL;
	}
	if (ret) {
		chk_bad(b, r->line_bound, "bound '%s': unknown unit '%s' (ns, us, ms, s, %%, or none "
			"for a count)", r->bound, unit);
		return -EINVAL;
	}
	r->limit = q.value;
	r->kind = kinds[q.kind];
	r->unit = q.unit;
	r->unit_ns = q.unit_ns;
	if (r->kind != CHK_PLAIN && r->limit < 0) {
		chk_bad(b, r->line_bound, "bound '%s': a %s is never negative", r->bound,
			r->kind == CHK_TIME ? "time" : "share");
		return -EINVAL;
	}
	return 0;
}

/* the functions of a tail object (docs/budgets.md: tail budgets) */
enum chk_tail_fn { CHK_TAIL_NONE, CHK_TAIL_EXCEED, CHK_TAIL_PWCET };

/*
 * chk_tail_fn - a metric ending in ".exceedance(DURATION)" (P(X > DURATION)
 * per activation) or ".pwcet(PROBABILITY)" (the latency exceeded with that
 * probability) of a tasks.*.tail.* object: the function, its argument (ns or
 * a probability) and the length of the path before it; CHK_TAIL_NONE for
 * any other metric, -1 with why for a bad argument
 */
static int chk_tail_fn(const char *m, size_t *base, double *arg, char *why, size_t size)
{
	static const struct { const char *name; enum chk_tail_fn fn; } fns[] = {
		{ ".exceedance(", CHK_TAIL_EXCEED }, { ".pwcet(", CHK_TAIL_PWCET },
	};
	const char *open = NULL, *a, *u;
	char *end, dur[64];
	struct pf_qty q;
	size_t i, len = strlen(m), k = 0;

	*base = len;
	for (i = 0; i < PF_ARRAY_SIZE(fns) && !open; i++)
		if ((open = strstr(m, fns[i].name)))
			k = i;
	if (!open)
		return CHK_TAIL_NONE;
	a = open + strlen(fns[k].name);
	errno = 0;
	*arg = strtod(a, &end);
	if (end == a || errno || !isfinite(*arg) || !isdigit((unsigned char)*a) || m[len - 1] != ')' ||
	    memchr(a, 'x', (size_t)(end - a)) || memchr(a, 'X', (size_t)(end - a)))
		goto bad;
	if (fns[k].fn == CHK_TAIL_PWCET) {
		if (end != m + len - 1 || !(*arg > 0 && *arg < 1))
			goto bad;
	} else {
		/* the duration as a bound's: the same numbers, the same units */
		snprintf(dur, sizeof(dur), "%.*s", (int)(m + len - 1 - a), a);
		if (pf_parse_quantity(dur, &q, &u) || q.kind != PF_QTY_TIME || !(q.value > 0) || strchr(dur, ' '))
			goto bad;
		*arg = q.value * q.unit_ns;
	}
	*base = (size_t)(open - m);
	return fns[k].fn;
bad:
	snprintf(why, size, "'%s' is not exceedance(DURATION) with a unit (ns, us, ms, s) or pwcet(PROBABILITY) "
		 "with 0 < PROBABILITY < 1", open + 1);
	return -1;
}

/* chk_parse_metric - 'metric' split at commas, each a dotted path */
static int chk_parse_metric(struct chk_budgets *b, struct chk_req *r)
{
	char *copy, *tok, *save = NULL, *p, why[256], path[256];
	char **m;

	copy = strdup(r->metric);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		size_t base;
		double arg;
		int fn = chk_tail_fn(tok, &base, &arg, why, sizeof(why));

		if (fn < 0) {
			chk_bad(b, r->line_metric, "metric '%s': %s", tok, why);
			goto fail;
		}
		for (p = tok; p < tok + base; p++)
			if (!isalnum((unsigned char)*p) && !strchr("._*-/", *p))
				break;
		if (p < tok + base || *tok == '.' || tok[base - 1] == '.' || strstr(tok, "..")) {
			chk_bad(b, r->line_metric, "metric '%s' is not a dotted path like "
				"tasks.*.activation_latency_ns.max", tok);
			goto fail;
		}
		if (fn && strncmp(tok, "tasks.", 6)) {
			chk_bad(b, r->line_metric, "metric '%s': exceedance() and pwcet() apply to a tail "
				"object, tasks.*.tail.activation_latency_ns, response_time_ns or wakeup_latency_ns", tok);
			goto fail;
		}
		tok[base] = '\0';
		/* compare's older name of a metric (io.activation_latency.max) is its path too */
		pf_metric_path(tok, path, sizeof(path));
		if (!pf_results_key_known(path, why, sizeof(why))) {
			chk_bad(b, r->line_metric, "metric '%s' names no key of results.json (docs/results.md; "
				"'preflight check --keys' lists them): %s", tok, why);
			goto fail;
		}
		m = realloc(r->metrics, (r->nmetrics + 1) * sizeof(*m));
		if (!m)
			goto fail;
		r->metrics = m;
		/* the function back after the path's check */
		if (asprintf(&r->metrics[r->nmetrics], "%s%s%s", path, fn ? "." : "", fn ? tok + base + 1 : "") < 0)
			goto fail;
		r->nmetrics++;
	}
	free(copy);
	if (!r->nmetrics) {
		chk_bad(b, r->line_metric, "empty metric");
		return -EINVAL;
	}
	return 0;
fail:
	free(copy);
	return -EINVAL;
}

/* chk_near - a and b differ by at most one edit (a letter left out, added, changed or two swapped) */
static bool chk_near(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i = 0;

	if (!strcmp(a, b))
		return true;
	if (la < lb)
		return chk_near(b, a);
	if (la - lb > 1)
		return false;
	while (i < lb && a[i] == b[i])
		i++;
	if (la == lb)
		return !strcmp(a + i + 1, b + i + 1) ||
		       (a[i + 1] == b[i] && b[i + 1] == a[i] && !strcmp(a + i + 2, b + i + 2));
	return !strcmp(a + i + 1, b + i);
}

/* chk_is_name - is a selector term an element name (not a keyword or predicate) */
static int chk_is_name(const struct chk_term *t)
{
	return !t->key && !t->exclude && strcmp(t->value, "rt") && strcmp(t->value, "periodic");
}

/*
 * chk_parse_select - names, exclusions (!name), keywords (all, rt, periodic)
 * and predicates (key=value, key!=value, key<N, key<=N, key>N, key>=N)
 */
static int chk_parse_select(struct chk_budgets *b, struct chk_req *r)
{
	char *copy, *tok, *save = NULL, *p;
	const char *q;
	struct chk_term *t;

	if (!r->select)
		return 0;
	copy = strdup(r->select);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		if (!strcmp(tok, "all") || !strcmp(tok, "*"))
			continue;
		t = realloc(r->terms, (r->nterms + 1) * sizeof(*t));
		if (!t)
			goto fail;
		r->terms = t;
		t = &r->terms[r->nterms++];
		memset(t, 0, sizeof(*t));
		if (tok[0] == '!' && tok[1] && !strpbrk(tok + 1, "=!<>#")) {
			t->exclude = 1;
			t->value = strdup(tok + 1);
			if (!t->value)
				goto fail;
			continue;
		}
		p = tok + strcspn(tok, "=!<>");
		if (!*p) {
			if (strchr(tok, '#')) {
				chk_bad(b, r->line_select, "name '%s' in select has a '#'", tok);
				goto fail;
			}
			t->value = strdup(tok);
			if (!t->value)
				goto fail;
			/* a keyword misspelt would silently become a name: 'rt periodc' */
			if (chk_is_name(t) && chk_near(tok, "periodic")) {
				chk_bad(b, r->line_select, "select term '%s' is the keyword 'periodic' misspelt (all, rt, "
					"periodic); an element of that name is 'name=%s'", tok, tok);
				goto fail;
			}
			if (chk_is_name(t))
				r->has_names = 1;
			else
				r->has_filters = 1;
			continue;
		}
		q = p;
		if (p == tok || chk_parse_op(&q, &t->op) || !*q || strpbrk(q, "=!<>")) {
			chk_bad(b, r->line_select, "select term '%s' is neither a name nor "
				"key=value, key!=value, key<N, key<=N, key>N, key>=N", tok);
			goto fail;
		}
		if (t->op != CHK_EQ && t->op != CHK_NE) {
			char *end;

			strtod(q, &end);
			if (*end) {
				chk_bad(b, r->line_select, "select term '%s' compares with '%s', "
					"which is not a number", tok, q);
				goto fail;
			}
		}
		*p = '\0';
		t->key = strdup(tok);
		t->value = strdup(q);
		if (!t->key || !t->value)
			goto fail;
		r->has_filters = 1;
	}
	free(copy);
	return 0;
fail:
	free(copy);
	return -EINVAL;
}

/*
 * chk_find_budgets - a --budgets that is no file here, as a data file (lib/datafile.h):
 * "seed" is budgets/seed.ini, "budgets/seed.ini" is itself, wherever preflight's data
 * is. 0 with its path in 'path', or PF_EXIT_USAGE after one line naming every place searched.
 */
static int chk_find_budgets(const char *name, char *path, size_t size)
{
	char rel[512];
	size_t n = strlen(name);

	if (name[0] == '/')
		return pf_fail(PF_EXIT_USAGE, "--budgets %s: %s", name, strerror(ENOENT));
	if (!strchr(name, '/') && (n < 4 || strcmp(name + n - 4, ".ini")))
		snprintf(rel, sizeof(rel), "budgets/%.400s.ini", name);
	else
		snprintf(rel, sizeof(rel), "%.500s", name);
	if (pf_datafile(rel, path, size) < 0)
		return pf_fail(PF_EXIT_USAGE, "--budgets %s: no such file here, nor as %s: %s", name, rel, path);
	return 0;
}

/* chk_load_budgets - read and check the whole budget file; 0 or PF_EXIT_USAGE */
static int chk_load_budgets(struct chk_budgets *b)
{
	struct chk_req *r;
	char why[512];
	size_t i;

	b->ini = (struct pf_ini){
		.file = b->path, .err = why, .err_size = sizeof(why),
		.max_line = 4096,	/* requirement texts can be long; inih's default is 200 */
		.syntax = "not '[REQ-ID]', 'key = value' or a comment",
		.on_line = chk_on_line,
	};
	if (pf_ini_parse(&b->ini, chk_handler, b) && !b->err) {
		b->err = 1;	/* the reader's own error, not yet printed */
		pf_err("%s", why);
	}
	if (b->err)
		return PF_EXIT_USAGE;
	if (!b->nreq) {
		chk_bad(b, b->ini.line ? b->ini.line : 1, "no requirements ([REQ-ID] sections)");
		return PF_EXIT_USAGE;
	}
	for (i = 0; i < b->nreq; i++) {
		const char *p;

		r = &b->req[i];
		for (p = r->id; *p; p++)
			if (!isalnum((unsigned char)*p) && !strchr("._-/", *p))
				break;
		if (*p || !*r->id)
			chk_bad(b, r->line, "requirement id '%s' may hold only letters, digits and "
				"._-/", r->id);
		else if (!r->metric)
			chk_bad(b, r->line, "[%s] has no 'metric'", r->id);
		else if (!r->bound)
			chk_bad(b, r->line, "[%s] has no 'bound'", r->id);
		else if (!r->text)
			chk_bad(b, r->line, "[%s] has no 'text'", r->id);
		else if (!chk_parse_metric(b, r) && !chk_parse_bound(b, r))
			chk_parse_select(b, r);
		if (b->err)
			return PF_EXIT_USAGE;
	}
	return 0;
}

static void chk_free_budgets(struct chk_budgets *b)
{
	size_t i, k;

	for (i = 0; i < b->nreq; i++) {
		struct chk_req *r = &b->req[i];

		free(r->id);
		free(r->text);
		free(r->metric);
		free(r->select);
		free(r->bound);
		for (k = 0; k < r->nmetrics; k++)
			free(r->metrics[k]);
		free(r->metrics);
		for (k = 0; k < r->nterms; k++) {
			free(r->terms[k].key);
			free(r->terms[k].value);
		}
		free(r->terms);
	}
	free(b->req);
}

/* ----------------------------------------------------------------------
 * Resolving metric paths in results.json
 */

/* chk_elem_name - the key of an array element: name, comm or cpu; "" if none */
static const char *chk_elem_name(json_t *e, char *buf, size_t size)
{
	static const char *const keys[] = { "name", "comm", "cpu" };
	json_t *v;
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(keys); i++) {
		v = json_object_get(e, keys[i]);
		if (json_is_string(v))
			return json_string_value(v);
		if (json_is_integer(v)) {
			snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
			return buf;
		}
	}
	return "";
}

/* chk_compare - does 'value op limit' hold */
static int chk_compare(double value, enum chk_op op, double limit)
{
	switch (op) {
	case CHK_LT: return value < limit;
	case CHK_LE: return value <= limit;
	case CHK_GT: return value > limit;
	case CHK_GE: return value >= limit;
	case CHK_EQ: return value == limit;
	case CHK_NE: return value != limit;
	}
	return 0;
}

/* chk_thread_of - the threads[] entry of a task's tid, or NULL */
static json_t *chk_thread_of(json_t *root, json_t *task)
{
	json_t *tid = json_object_get(task, "tid"), *th;
	size_t i;

	if (!json_is_integer(tid))
		return NULL;
	json_array_foreach(json_object_get(root, "threads"), i, th)
		if (json_equal(json_object_get(th, "pid"), tid))
			return th;
	return NULL;
}

/*
 * chk_is_rt - is an element realtime: its policy (fifo, rr, rt, deadline),
 * else its thread's in threads[]; unknown counts as realtime (check more)
 */
static int chk_is_rt(json_t *root, json_t *e)
{
	static const char *const rt[] = { "fifo", "rr", "rt", "deadline", "sched_fifo",
					  "sched_rr", "sched_deadline" };
	const char *p = json_string_value(json_object_get(e, "policy"));
	json_t *th;
	size_t i;

	if (!p && (th = chk_thread_of(root, e)))
		p = json_string_value(json_object_get(th, "policy"));
	if (!p)
		return 1;
	for (i = 0; i < PF_ARRAY_SIZE(rt); i++)
		if (!strcasecmp(p, rt[i]))
			return 1;
	return 0;
}

/* chk_term_holds - one predicate or keyword on an element */
static int chk_term_holds(json_t *root, json_t *e, const struct chk_term *t)
{
	json_t *v;
	char buf[64];
	const char *s;

	if (!t->key) {
		if (!strcmp(t->value, "rt"))
			return chk_is_rt(root, e);
		if (!strcmp(t->value, "periodic")) {
			v = json_object_get(e, "period_ns");
			return json_is_number(v) && json_number_value(v) > 0;
		}
		return 1;	/* names are matched elsewhere */
	}
	v = json_object_get(e, t->key);
	if (t->op == CHK_EQ || t->op == CHK_NE) {
		if (json_is_string(v))
			s = json_string_value(v);
		else if (json_is_integer(v))
			snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(v)), s = buf;
		else if (json_is_boolean(v))
			s = json_is_true(v) ? "true" : "false";
		else
			s = NULL;
		return s && (!strcmp(s, t->value) == (t->op == CHK_EQ));
	}
	return json_is_number(v) && chk_compare(json_number_value(v), t->op, strtod(t->value, NULL));
}

/*
 * chk_selected - does the requirement's selector take this element: not
 * excluded, and one of its names or every filter (keyword or predicate) holds
 */
static int chk_selected(json_t *root, const struct chk_req *r, json_t *e, const char *name)
{
	size_t i;

	for (i = 0; i < r->nterms; i++)
		if (r->terms[i].exclude && !strcmp(r->terms[i].value, name))
			return 0;
	if (!r->has_names && !r->has_filters)
		return 1;
	for (i = 0; i < r->nterms; i++)
		if (chk_is_name(&r->terms[i]) && !strcmp(r->terms[i].value, name))
			return 1;
	if (!r->has_filters)
		return 0;
	for (i = 0; i < r->nterms; i++)
		if (!chk_is_name(&r->terms[i]) && !chk_term_holds(root, e, &r->terms[i]))
			return 0;
	return 1;
}

/* chk_push - a new item; NULL when out of memory */
static struct chk_item *chk_push(struct chk_items *it, const struct chk_req *r)
{
	struct chk_item *v;

	if (pf_grow(&it->v, &it->cap, it->n, sizeof(*it->v), 32))
		return NULL;
	v = &it->v[it->n++];
	memset(v, 0, sizeof(*v));
	v->req = r;
	return v;
}

/* chk_append - append "sep text" to a bounded string */
static void chk_append(char *s, size_t size, const char *sep, const char *text)
{
	size_t n = strlen(s);

	snprintf(s + n, size - n, "%s%s", n ? sep : "", text);
}

/* resolution state for one metric path */
struct chk_walk {
	json_t               *root;
	const struct chk_req *req;
	struct chk_items     *items;
	char                **seg;
	size_t                nseg;
};

/* chk_phrase - the words of the path from segment 'from': unit suffixes cut, _ as space */
static void chk_phrase(const struct chk_walk *w, size_t from, char *out, size_t size)
{
	static const char *const sfx[] = { "_ns", "_us", "_ms", "_s" };
	char word[128];
	size_t i, k, n;

	for (i = from; i < w->nseg; i++) {
		snprintf(word, sizeof(word), "%s", w->seg[i]);
		n = strlen(word);
		for (k = 0; k < PF_ARRAY_SIZE(sfx); k++)
			if (n > strlen(sfx[k]) && !strcmp(word + n - strlen(sfx[k]), sfx[k])) {
				word[n - strlen(sfx[k])] = '\0';
				break;
			}
		if (!strcmp(word, "*"))
			continue;
		/* "p99.9" was one key: keep its digits together */
		chk_append(out, size, word[strspn(word, "0123456789")] ? " " : ".", word);
	}
}

/* chk_not_measured - an item saying why a value is missing */
static int chk_not_measured(struct chk_walk *w, const char *label, const char *path,
			    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int chk_not_measured(struct chk_walk *w, const char *label, const char *path,
			    const char *fmt, ...)
{
	struct chk_item *it = chk_push(w->items, w->req);
	va_list ap;

	if (!it)
		return -ENOMEM;
	snprintf(it->label, sizeof(it->label), "%s", label);
	snprintf(it->path, sizeof(it->path), "%s", path);
	va_start(ap, fmt);
	vsnprintf(it->why, sizeof(it->why), fmt, ap);
	va_end(ap);
	return 0;
}

static int chk_walk(struct chk_walk *w, json_t *node, size_t i, const char *label,
		    const char *path, json_t *elem, size_t phrase_from, json_t *parent,
		    const char *key);

/* chk_walk_elem - continue into one array element */
static int chk_walk_elem(struct chk_walk *w, json_t *e, size_t i, const char *label,
			 const char *path, const char *name)
{
	char l[256], p[512];

	snprintf(l, sizeof(l), "%s", label);
	chk_append(l, sizeof(l), " ", name);
	snprintf(p, sizeof(p), "%s.%s", path, name);
	return chk_walk(w, e, i + 1, l, p, e, i + 1, NULL, NULL);
}

/* chk_missing_name - a not-measured item for an element name absent from the array */
static int chk_missing_name(struct chk_walk *w, size_t i, const char *label, const char *path,
			    const char *name)
{
	char l[256];

	snprintf(l, sizeof(l), "%s", label);
	chk_append(l, sizeof(l), " ", name);
	chk_phrase(w, i + 1, l, sizeof(l));
	return chk_not_measured(w, l, path, "no element '%s' in %s[]", name, path);
}

/*
 * chk_threads_cut - the number of threads results.json left out of threads[]
 * that this requirement could have taken (0: it sees every one it asks for).
 * By default analyze lists every realtime thread, so a selector holding the
 * keyword 'rt' is complete; with --all-threads every selector is
 */
static json_int_t chk_threads_cut(const struct chk_walk *w, json_t *a)
{
	json_t *cut = json_object_get(w->root, "threads_listing");
	const char *mode = json_string_value(json_object_get(cut, "mode"));
	json_int_t omitted = json_integer_value(json_object_get(cut, "omitted"));
	size_t t;

	if (a != json_object_get(w->root, "threads") || omitted <= 0 || !mode || !strcmp(mode, "all"))
		return 0;
	for (t = 0; t < w->req->nterms && !strcmp(mode, "default"); t++)
		if (!w->req->terms[t].key && !w->req->terms[t].exclude && !strcmp(w->req->terms[t].value, "rt"))
			return 0;
	return omitted;
}

/* chk_threads_note - a not-measured item for the threads results.json left out */
static int chk_threads_note(struct chk_walk *w, json_t *a, size_t i, const char *label,
			    const char *path)
{
	json_int_t cut = chk_threads_cut(w, a);
	char l[256];

	if (!cut)
		return 0;
	snprintf(l, sizeof(l), "%s", label);
	chk_phrase(w, i + 1, l, sizeof(l));
	return chk_not_measured(w, l, path, "%" JSON_INTEGER_FORMAT " threads left out of %s[] "
				"(analyze --all-threads lists every one)", cut, path);
}

/* chk_walk_array - '*' (the selector's elements) or one named element */
static int chk_walk_array(struct chk_walk *w, json_t *a, size_t i, const char *label,
			  const char *path)
{
	const struct chk_req *r = w->req;
	char buf[32], l[256];
	const char *name;
	json_t *e;
	size_t k, t, taken = 0;
	int ret;

	if (strcmp(w->seg[i], "*")) {
		json_array_foreach(a, k, e) {
			name = chk_elem_name(e, buf, sizeof(buf));
			if (!strcmp(name, w->seg[i])) {
				ret = chk_walk_elem(w, e, i, label, path, name);
				if (ret)
					return ret;
				taken++;
			}
		}
		if (taken)
			return 0;
		return chk_threads_cut(w, a) ? chk_threads_note(w, a, i, label, path) :
			chk_missing_name(w, i, label, path, w->seg[i]);
	}
	json_array_foreach(a, k, e) {
		name = chk_elem_name(e, buf, sizeof(buf));
		if (!chk_selected(w->root, r, e, name))
			continue;
		ret = chk_walk_elem(w, e, i, label, path, name);
		if (ret)
			return ret;
		taken++;
	}
	/* a name the selector asks for that results.json does not have */
	for (t = 0; t < r->nterms; t++) {
		int found = 0;

		if (!chk_is_name(&r->terms[t]))
			continue;
		json_array_foreach(a, k, e)
			found |= !strcmp(chk_elem_name(e, buf, sizeof(buf)), r->terms[t].value);
		if (found)
			continue;
		ret = chk_missing_name(w, i, label, path, r->terms[t].value);
		if (ret)
			return ret;
		taken++;
	}
	if ((ret = chk_threads_note(w, a, i, label, path)))
		return ret;
	if (taken || chk_threads_cut(w, a))
		return 0;
	snprintf(l, sizeof(l), "%s", label);
	chk_phrase(w, i + 1, l, sizeof(l));
	return chk_not_measured(w, l, path, "no element of %s[] selected%s%s", path,
				r->select ? " by " : "", r->select ? r->select : "");
}

/* chk_unavailable - the '<name>_unavailable' reason next to a null metric */
static const char *chk_unavailable(json_t *parent, const char *key)
{
	char k[160];
	size_t n = strlen(key);
	const char *s;

	if (!parent || !key)
		return NULL;
	snprintf(k, sizeof(k), "%s_unavailable", key);
	if ((s = json_string_value(json_object_get(parent, k))))
		return s;
	if (n > 3 && !strcmp(key + n - 3, "_ns")) {
		snprintf(k, sizeof(k), "%.*s_unavailable", (int)(n - 3), key);
		return json_string_value(json_object_get(parent, k));
	}
	return NULL;
}

/* chk_item - one test of the requirement: a value, or only a bound of it; 0 or -ENOMEM */
static int chk_item(struct chk_walk *w, const char *label, const char *path, json_t *value,
		    json_t *bound, json_t *elem, json_t *parent)
{
	struct chk_item *it = chk_push(w->items, w->req);

	if (!it)
		return -ENOMEM;
	snprintf(it->label, sizeof(it->label), "%s", label);
	snprintf(it->path, sizeof(it->path), "%s", path);
	it->value = value;
	it->bound = bound;
	it->elem = elem;
	it->parent = parent;
	return 0;
}

/* chk_listed - is key in the string array member 'list' of a statistics object ("estimated", "is_max") */
static bool chk_listed(json_t *stats, const char *list, const char *key)
{
	json_t *v;
	size_t i;

	if (!key)
		return false;
	json_array_foreach(json_object_get(stats, list), i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), key))
			return true;
	return false;
}

/* chk_estimated - is this member of a statistics object an estimate (docs/results.md 'estimated') */
static bool chk_estimated(json_t *parent, const char *key)
{
	return chk_listed(parent, "estimated", key);
}

/*
 * chk_estimated_item - an estimated stddev: computed as if the unrecorded
 * values were all equal, the least spread their known sum allows, so it is
 * judged as what it is, a lower bound (a budget it exceeds fails, else not
 * measured); 0 or -ENOMEM
 */
static int chk_estimated_item(struct chk_walk *w, const char *label, const char *path, json_t *value,
			      json_t *elem, json_t *parent)
{
	json_t *b = json_pack("{sO}", ">=", value);
	int ret;

	if (!b)
		return -ENOMEM;
	ret = chk_item(w, label, path, NULL, b, elem, parent);
	if (ret) {
		json_decref(b);
		return ret;
	}
	w->items->v[w->items->n - 1].owned = b;
	return 0;
}

/*
 * chk_walk - resolve w->seg[i..] under node; 'parent'/'key' hold node (for
 * *_unavailable reasons), 'elem' the last array element passed
 */
static int chk_walk(struct chk_walk *w, json_t *node, size_t i, const char *label,
		    const char *path, json_t *elem, size_t phrase_from, json_t *parent,
		    const char *key)
{
	char l[256], p[512], k[256];
	const char *why, *s;
	size_t j, len;
	json_t *v;
	int ret;

	if (i == w->nseg || !json_is_object(node)) {
		snprintf(l, sizeof(l), "%s", label);
		chk_phrase(w, phrase_from, l, sizeof(l));
		if (json_is_array(node) && i < w->nseg)
			return chk_walk_array(w, node, i, label, path);
		if (i < w->nseg || json_is_null(node)) {
			why = chk_unavailable(parent, key);
			if (!why && json_is_integer(json_object_get(parent, "count")) &&
			    !json_integer_value(json_object_get(parent, "count")))
				why = "no samples (count 0)";
			v = json_object_get(json_object_get(parent, "bounds"), key);
			if (json_is_null(node) && json_is_object(v))
				/* a percentile known only by a bound (cyclictest's overflows): judged on it */
				return chk_item(w, l, path, NULL, v, elem, parent);
			if (json_is_null(node)) {
				ret = chk_not_measured(w, l, path, "%s%s%s", why ? why : "'",
						       why ? "" : path, why ? "" : "' is null in results.json");
				/* a whole component null (no cyclictest, no app) was not in this run */
				if (!ret && parent != w->root)
					w->items->v[w->items->n - 1].no_value = true;
				return ret;
			}
			return chk_not_measured(w, l, path, "%s is not an object", path);
		}
		if (chk_estimated(parent, key) && json_is_number(node))
			return chk_estimated_item(w, l, path, node, elem, parent);
		return chk_item(w, l, path, node, NULL, elem, parent);
	}
	if (!strcmp(w->seg[i], "*")) {
		const char *mk;

		json_object_foreach(node, mk, v) {
			snprintf(l, sizeof(l), "%s", label);
			chk_append(l, sizeof(l), " ", mk);
			snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", mk);
			ret = chk_walk(w, v, i + 1, l, p, elem, i + 1, node, mk);
			if (ret)
				return ret;
		}
		return 0;
	}
	/* the longest key first: "p99.9" is one key (pf_jpath_key), of as many segments as it has dots + 1 */
	k[0] = '\0';
	for (j = i; j < w->nseg; j++)
		chk_append(k, sizeof(k), ".", w->seg[j]);
	v = pf_jpath_key(node, k, &len);
	if (v) {
		k[len] = '\0';
		for (j = i + 1, s = k; (s = strchr(s, '.')); s++)
			j++;
		snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", k);
		return chk_walk(w, v, j, label, p, elem, phrase_from, node, k);
	}
	snprintf(l, sizeof(l), "%s", label);
	chk_phrase(w, phrase_from, l, sizeof(l));
	snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", w->seg[i]);
	return chk_not_measured(w, l, p, "no '%s' in results.json", p);
}

static const char *chk_num(double v, char *buf, size_t size);
static void chk_note(struct chk_item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* chk_no_value - an item found not measured after all: its value dropped, why said */
static void chk_no_value(struct chk_item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void chk_no_value(struct chk_item *it, const char *fmt, ...)
{
	va_list ap;

	it->value = it->bound = NULL;
	it->no_value = true;	/* results.json has the tail, without a figure */
	va_start(ap, fmt);
	vsnprintf(it->why, sizeof(it->why), fmt, ap);
	va_end(ap);
}

/*
 * chk_tail_apply - one item resolved to a tail object, given the function
 * of its metric: the upper end of the model's 95 % interval is the value
 * judged, so a pass holds at that confidence; no model (too few samples, an
 * assumption rejected) is not measured with the tail's reason, never a
 * pass; 0 or -ENOMEM
 */
static int chk_tail_apply(struct chk_item *it, int fn, double arg, const char *fn_text)
{
	json_t *tail = it->value;
	struct pf_tail m;
	const char *why;
	char a[64], b[64], c[64];
	double v, ci[2];

	chk_append(it->path, sizeof(it->path), ".", fn_text);
	chk_append(it->label, sizeof(it->label), " ", fn_text);
	it->tail = true;
	if (!json_is_object(tail))
		return 0;	/* not measured already, or a number the unit check refuses */
	it->parent = tail;
	if (pf_tail_from_json(tail, &m, &why)) {
		chk_no_value(it, "no tail model: %s", why);
		return 0;
	}
	if (fn == CHK_TAIL_EXCEED) {
		v = pf_tail_exceed(&m, arg, ci);
		if (isnan(v)) {
			/* at or below the threshold the model says only that it is more than zeta */
			it->owned = json_pack("{s:f}", ">=", m.zeta);
			it->value = NULL;
			it->bound = it->owned;
			chk_note(it, "%s is at or below the tail model's threshold %s us: P(X > it) >= %s, "
				 "the share above the threshold", fn_text, chk_num(m.u_ns / 1e3, a, sizeof(a)),
				 chk_num(m.zeta, b, sizeof(b)));
			return it->owned ? 0 : -ENOMEM;
		}
		if (!isfinite(ci[1])) {
			chk_no_value(it, "%s: the model gives no interval there", fn_text);
			return 0;
		}
		chk_note(it, "P(X > %s us) = %.3g per activation, 95 %% interval [%.3g, %.3g], judged on its upper "
			 "end%s%s%s", chk_num(arg / 1e3, a, sizeof(a)), v, ci[0] < 1e-299 ? 0 : ci[0], ci[1],
			 m.rate_hz > 0 ? "; " : "", m.rate_hz > 0 ? chk_num(ci[1] * m.rate_hz * 3600, c, sizeof(c)) : "",
			 m.rate_hz > 0 ? " exceedances per hour at most" : "");
	} else {
		v = pf_tail_quantile(&m, arg, ci);
		if (isnan(v) || !isfinite(ci[1])) {
			chk_no_value(it, "%s: the probability is not below the share above the tail model's threshold "
				     "(%s): the percentiles say it", fn_text, chk_num(m.zeta, a, sizeof(a)));
			return 0;
		}
		chk_note(it, "the latency exceeded with probability %g per activation: %s us, 95 %% interval "
			 "[%s, %s] us, judged on its upper end", arg, chk_num(v / 1e3, a, sizeof(a)),
			 chk_num(ci[0] / 1e3, b, sizeof(b)), chk_num(ci[1] / 1e3, c, sizeof(c)));
	}
	it->owned = json_real(ci[1]);
	it->value = it->owned;
	return it->owned ? 0 : -ENOMEM;
}

/* chk_resolve - every item of one metric path of a requirement */
static int chk_resolve(json_t *root, const struct chk_req *r, const char *metric,
		       struct chk_items *items)
{
	struct chk_walk w = { root, r, items, NULL, 0 };
	char *copy, *tok, *save = NULL, *seg[CHK_MAX_SEGS], why[256];
	size_t base, first = items->n, i;
	double arg;
	int ret, fn;

	copy = strdup(metric);
	if (!copy)
		return -ENOMEM;
	fn = chk_tail_fn(copy, &base, &arg, why, sizeof(why));
	copy[base] = '\0';
	for (tok = strtok_r(copy, ".", &save); tok && w.nseg < CHK_MAX_SEGS;
	     tok = strtok_r(NULL, ".", &save))
		seg[w.nseg++] = tok;
	w.seg = seg;
	ret = chk_walk(&w, root, 0, "", "", NULL, 0, NULL, NULL);
	for (i = first; !ret && fn > 0 && i < items->n; i++)
		ret = chk_tail_apply(&items->v[i], fn, arg, metric + base + 1);
	free(copy);
	return ret;
}

/* chk_metric_kind - what a resolved number is: time (unit_ns), fraction, percent, count */
static enum chk_kind chk_metric_kind(const struct chk_item *it, double *unit_ns)
{
	static const struct { const char *sfx; double ns; } times[] = {
		{ "_ns", 1 }, { "_us", 1e3 }, { "_ms", 1e6 }, { "_s", 1e9 },
	};
	static const char *const fractions[] = { "share", "idle", "hardirq", "softirq" };
	const char *unit = json_string_value(json_object_get(it->parent, "unit"));
	char parent_key[512], *dot;
	const char *key;
	size_t i, n;

	*unit_ns = 1;
	/* a tail's function: pwcet() is a time in ns, exceedance() a probability */
	if ((dot = strrchr(it->path, '.')) && strchr(dot, '('))
		return strncmp(dot, ".pwcet(", 7) ? CHK_PLAIN : CHK_TIME;
	if (unit) {
		for (i = 0; i < PF_ARRAY_SIZE(times); i++)
			if (!strcmp(unit, times[i].sfx + 1)) {
				*unit_ns = times[i].ns;
				return CHK_TIME;
			}
		if (!strcmp(unit, "%") || !strcmp(unit, "percent"))
			return CHK_PERCENT;
		if (!strcmp(unit, "fraction"))
			return CHK_FRACTION;
		return CHK_PLAIN;
	}
	/* the key, or for statistics objects without a unit the object's key */
	snprintf(parent_key, sizeof(parent_key), "%s", it->path);
	dot = strrchr(parent_key, '.');
	key = dot ? dot + 1 : parent_key;
	for (n = 0; n < 2; n++) {
		size_t len = strlen(key);

		for (i = 0; i < PF_ARRAY_SIZE(times); i++) {
			size_t sl = strlen(times[i].sfx);

			if (len > sl && !strncmp(key + len - sl, times[i].sfx, sl)) {
				*unit_ns = times[i].ns;
				return CHK_TIME;
			}
		}
		if (strstr(key, "utilisation") || strstr(key, "utilization") ||
		    (len > 9 && !strcmp(key + len - 9, "_fraction")) ||
		    (len > 6 && !strcmp(key + len - 6, "_ratio")))
			return CHK_FRACTION;
		for (i = 0; i < PF_ARRAY_SIZE(fractions); i++)
			if (!strcmp(key, fractions[i]))
				return CHK_FRACTION;
		if ((len > 4 && !strcmp(key + len - 4, "_pct")) ||
		    (len > 8 && !strcmp(key + len - 8, "_percent")))
			return CHK_PERCENT;
		if (!json_is_object(it->parent) || !json_object_get(it->parent, "count"))
			break;
		/* a member of a statistics object: look at the object's name */
		if (!dot)
			break;
		*dot = '\0';		/* cut within parent_key itself */
		dot = strrchr(parent_key, '.');
		key = dot ? dot + 1 : parent_key;
	}
	return CHK_PLAIN;
}

/*
 * chk_fit_units - every measured item's metric must fit its bound's unit; a
 * string where results.json's schema has a number is the results' fault,
 * named as such (results: its path), an object or array the budget's
 */
static int chk_fit_units(struct chk_budgets *b, struct chk_items *items, const char *results)
{
	static const char *const kind_name[] = { "a count", "a time", "a fraction", "a percentage" };
	struct chk_item *it;
	const struct chk_req *r;
	size_t i;

	for (i = 0; i < items->n; i++) {
		it = &items->v[i];
		r = it->req;
		if (!it->value && !it->bound)
			continue;
		if (it->value && !json_is_number(it->value)) {
			if (json_is_boolean(it->value))
				continue;
			if (json_is_string(it->value)) {
				b->err = 1;
				pf_err("%s: '%s' is a string, not a number: a corrupt or hand-edited results.json "
				       "(read for %s:%u)", results, it->path, b->path, r->line_metric);
				return PF_EXIT_USAGE;
			}
			chk_bad(b, r->line_metric, "metric '%s' is %s, not a number (add .max, "
				".p99, ... for a statistics object)", it->path,
				json_is_object(it->value) ? "an object" : json_is_array(it->value) ?
				"an array" : "a string");
			return PF_EXIT_USAGE;
		}
		it->kind = chk_metric_kind(it, &it->unit_ns);
		if (r->kind == CHK_PLAIN && r->limit == 0)
			continue;	/* "== 0" fits anything */
		if (r->kind == it->kind || (r->kind == CHK_PERCENT && it->kind == CHK_FRACTION))
			continue;
		chk_bad(b, r->line_bound, "bound '%s' is %s but '%s' is %s%s", r->bound,
			kind_name[r->kind], it->path, kind_name[it->kind],
			it->kind == CHK_TIME ? ": give a unit (ns, us, ms, s)" :
			it->kind == CHK_FRACTION ? ": give it in %" : "");
		return PF_EXIT_USAGE;
	}
	return 0;
}

/* ----------------------------------------------------------------------
 * Verdicts
 */

/*
 * chk_num - a number without trailing zeros: 3 decimals, or as many as show 3
 * significant digits of a small one (62 us as seconds: 0.000062, not 0)
 */
static const char *chk_num(double v, char *buf, size_t size)
{
	int decimals = 3;
	char *p;

	if (fabs(v) >= 1e15 || (v != 0 && fabs(v) < 1e-9)) {
		snprintf(buf, size, "%g", v);
		return buf;
	}
	if (v != 0 && fabs(v) < 0.1)
		decimals = 2 - (int)floor(log10(fabs(v)));
	snprintf(buf, size, "%.*f", decimals, v);
	p = buf + strlen(buf) - 1;
	while (*p == '0')
		*p-- = '\0';
	if (*p == '.')
		*p = '\0';
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
	return buf;
}

/* chk_in_bound_unit - the measured value in the unit the bound was written in */
static double chk_in_bound_unit(const struct chk_item *it, double v)
{
	const struct chk_req *r = it->req;

	if (it->kind == CHK_TIME)
		return v * it->unit_ns / (r->kind == CHK_TIME ? r->unit_ns : it->unit_ns);
	if (it->kind == CHK_FRACTION)
		return v * 100;	/* shown (and compared) in % */
	return v;
}

/* chk_shown - a value of the metric's kind as the verdict shows it: the bound's unit, ns for a plain bound */
static double chk_shown(const struct chk_item *it, double v)
{
	if (it->kind == CHK_TIME && it->req->kind == CHK_PLAIN)
		return v * it->unit_ns;
	return chk_in_bound_unit(it, v);
}

/*
 * chk_worst - the worst case of a failed item: the culprit line of the job
 * that holds its max, said for what it is. Culprit lines explain a job from
 * its release (its activation): a wakeup latency of the same job, counted
 * from its waking less the higher-priority tasks' runs, is smaller, and says
 * so; a job without a line of its own never lends it another job's
 */
static void chk_worst(struct chk_item *it)
{
	json_t *c = json_object_get(it->elem, "culprits"), *e, *hit = NULL;
	json_t *max_id = json_object_get(it->parent, "max_id");
	const char *summary;
	double late_us;
	size_t i;

	if (!json_is_array(c) || !json_array_size(c))
		return;
	if (json_is_integer(max_id))
		json_array_foreach(c, i, e)
			if (json_equal(json_object_get(e, "seq"), max_id)) {
				hit = e;
				break;
			}
	summary = json_string_value(json_object_get(hit ? hit : json_array_get(c, 0), "summary"));
	if (!summary)
		return;
	late_us = json_number_value(json_object_get(hit, "latency_ns")) / 1000.0;
	if (json_is_integer(max_id) && !hit)
		snprintf(it->worst, sizeof(it->worst), "not the job that holds the value (job %lld has no "
			 "culprit line: not among the worst activations explained); the worst explained: %s",
			 (long long)json_integer_value(max_id), summary);
	else if (hit && strstr(it->path, ".wakeup_latency_ns.") && json_is_number(json_object_get(hit, "latency_ns")) &&
		 fabs(late_us - it->shown) >= 0.05)
		snprintf(it->worst, sizeof(it->worst), "its activation, %.1f %s from its release (the wakeup "
			 "latency, %.1f %s, counts from its waking, less the higher-priority tasks' runs): %s",
			 late_us, it->unit, it->shown, it->unit, summary);
	else
		snprintf(it->worst, sizeof(it->worst), "%s", summary);
}

/*
 * chk_lost - is the item's element among results.json's lost-event-affected
 * metrics: an entry is a metric path, possibly followed by a note in
 * parentheses ("tasks.ctl100 (3 jobs)", "threads.io (pid 101)"); "every
 * metric: ..." affects them all
 */
static int chk_lost(json_t *root, const struct chk_item *it)
{
	json_t *a = json_object_get(json_object_get(root, "lost_events"), "affected"), *v;
	const char *s;
	size_t i, n;

	if (strstr(it->path, ".joblog."))	/* the job log's own view is not the trace's */
		return 0;
	json_array_foreach(a, i, v) {
		s = json_string_value(v);
		if (s && !strncmp(s, "every metric", 12))
			return 1;
		n = s ? strcspn(s, " ") : 0;
		if (n && !strncmp(it->path, s, n) && (it->path[n] == '.' || !it->path[n]))
			return 1;
	}
	return 0;
}

/* chk_clean - a TAP description may not hold '#' or line breaks */
static void chk_clean(char *s)
{
	for (; *s; s++)
		if (*s == '#' || *s == '\n' || *s == '\r')
			*s = '_';
}

/*
 * chk_ascii - a diagnostic's text with the usual non-ASCII signs of time
 * units and dashes folded ("µs" to "us", "—" to "-"): prove's JUnit
 * formatter and many CI viewers mangle UTF-8 in test output
 */
static const char *chk_ascii(const char *in, char *out, size_t size)
{
	static const struct { const char *utf8, *ascii; } fold[] = {
		{ "\xc2\xb5", "u" }, { "\xce\xbc", "u" }, { "\xe2\x80\x94", "-" },
		{ "\xe2\x80\x93", "-" }, { "\xe2\x89\xa4", "<=" }, { "\xe2\x89\xa5", ">=" },
	};
	size_t n = 0, i, k;

	while (*in && n + 3 < size) {
		for (i = 0; i < PF_ARRAY_SIZE(fold); i++) {
			k = strlen(fold[i].utf8);
			if (!strncmp(in, fold[i].utf8, k))
				break;
		}
		if (i < PF_ARRAY_SIZE(fold)) {
			n += (size_t)snprintf(out + n, size - n, "%s", fold[i].ascii);
			in += k;
		} else {
			out[n++] = *in++;
		}
	}
	out[n] = '\0';
	return out;
}

/* ----------------------------------------------------------------------
 * Emulated interfaces (issue 32.5): what this machine stood in for
 */

enum chk_em { CHK_EM_WIFI, CHK_EM_SPI, CHK_EM_SD, CHK_EM_SIM, CHK_NEM };
static const char *const chk_em_name[CHK_NEM] = { "wifi", "spi", "sd", "sensorsim" };

/* the interfaces results.json shows were emulated, each with how */
struct chk_emul {
	unsigned mask;			/* bit per enum chk_em */
	char     how[CHK_NEM][256];
};

/*
 * chk_emulated_find - which interfaces of this run were stand-ins, read from
 * what the loads and the app reported: the wifi load's ground station is a
 * network namespace behind a veth pair (none with server=, a real link); the
 * spi load talks over a UNIX seqpacket socket (its own echo peer, or a
 * slave's socket); the sd load's fio writes a directory or a loop image of
 * this machine's disk; the app's sensors are the simulator sensorsim, its SPI
 * a seqpacket socket unless its backend is spidev
 */
static void chk_emulated_find(json_t *root, struct chk_emul *em)
{
	json_t *loads = json_object_get(root, "loads"), *fsw = json_object_get(root, "fsw");
	const char *ns = json_string_value(pf_jpath_get(loads, "wifi.achieved.namespace"));
	const char *link = json_string_value(pf_jpath_get(loads, "spi.achieved.link"));
	const char *image = json_string_value(pf_jpath_get(loads, "sd.achieved.image"));
	const char *backend = json_string_value(pf_jpath_get(fsw, "spi_transfer_ns.backend"));

	memset(em, 0, sizeof(*em));
	if (ns) {
		em->mask |= 1u << CHK_EM_WIFI;
		snprintf(em->how[CHK_EM_WIFI], sizeof(em->how[0]), "a veth pair into network namespace %s, "
			 "shaped by tbf: no radio", ns);
	}
	if (json_is_object(json_object_get(loads, "spi"))) {
		em->mask |= 1u << CHK_EM_SPI;
		snprintf(em->how[CHK_EM_SPI], sizeof(em->how[0]), "the spi load's transfers over a UNIX "
			 "seqpacket socket (%s): not a SPI bus", link ? link : "?");
	}
	if (json_is_object(json_object_get(loads, "sd"))) {
		em->mask |= 1u << CHK_EM_SD;
		snprintf(em->how[CHK_EM_SD], sizeof(em->how[0]), "fio writing %s on this machine's disk: "
			 "not an SD card", image && strcmp(image, "none") ? "a loop-device image" : "a directory");
	}
	if (json_is_object(fsw) && (!backend || strcmp(backend, "spidev"))) {
		em->mask |= 1u << CHK_EM_SIM;
		snprintf(em->how[CHK_EM_SIM], sizeof(em->how[0]), "the app's sensors and SPI: the simulator "
			 "sensorsim over a pseudo-terminal (UART) and a UNIX %s socket (SPI): not the board's devices",
			 backend ? backend : "seqpacket");
	}
}

/*
 * chk_emulated_of - the emulated interfaces a verdict on 'path' rests on: a
 * load's figures its own interface; the app's (tasks, slots, utilisation, its
 * flight software's) the simulator's links it ran on
 */
static unsigned chk_emulated_of(const struct chk_emul *em, const char *path)
{
	static const struct { const char *prefix; enum chk_em em; } map[] = {
		{ "loads.wifi.", CHK_EM_WIFI }, { "loads.spi.", CHK_EM_SPI }, { "loads.sd.", CHK_EM_SD },
		{ "fsw.", CHK_EM_SIM }, { "tasks.", CHK_EM_SIM }, { "slots.", CHK_EM_SIM }, { "app.", CHK_EM_SIM },
	};
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(map); i++)
		if (!strncmp(path, map[i].prefix, strlen(map[i].prefix)))
			return em->mask & (1u << map[i].em);
	return 0;
}

/* chk_emulated_text - the names of a set of interfaces, ", "-separated */
static const char *chk_emulated_text(unsigned mask, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < CHK_NEM; i++)
		if (mask & (1u << i))
			n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s", n ? ", " : "", chk_em_name[i]);
	return buf;
}

static const char *const chk_result_name[] = { "pass", "fail", "not_measured", "not_valid" };

/* chk_note - add a diagnostic of the verdict (TAP '#   ' line, verdicts.json 'notes') */
static void chk_note(struct chk_item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void chk_note(struct chk_item *it, const char *fmt, ...)
{
	va_list ap;

	if (it->nnotes >= (int)PF_ARRAY_SIZE(it->notes))
		return;
	va_start(ap, fmt);
	vsnprintf(it->notes[it->nnotes++], sizeof(it->notes[0]), fmt, ap);
	va_end(ap);
}

/* chk_estimate_note - the note of a value that is an estimate (its bound made by chk_estimated_item) */
static void chk_estimate_note(struct chk_item *it)
{
	if (it->owned && !it->tail)
		chk_note(it, "%s is estimated: it depends on values that were not recorded (cyclictest's "
			 "overflows); the estimate is the least spread they allow, a lower bound", it->path);
}

/*
 * chk_small_n - a percentile whose rank is the top sample (results.json's
 * "is_max": fewer samples than it needs) is the max: say so, with n
 */
static void chk_small_n(struct chk_item *it)
{
	json_t *v;
	const char *name;
	size_t i, n, len = strlen(it->path);
	double q;

	json_array_foreach(json_object_get(it->parent, "is_max"), i, v) {
		name = json_string_value(v);
		n = name ? strlen(name) : 0;
		if (!n || n >= len || strcmp(it->path + len - n, name) || it->path[len - n - 1] != '.')
			continue;
		q = strtod(name + 1, NULL) / 100;
		chk_note(it, "%s = max, n = %" JSON_INTEGER_FORMAT ": too few samples for %s (it needs %.0f)",
			 name, json_integer_value(json_object_get(it->parent, "count")), name,
			 q < 1 ? ceil(1 / (1 - q) - 1e-6) : 1.0);
		return;
	}
}

/*
 * chk_n - how many samples the value rests on: the 'count' of its statistics
 * object, the 'jobs' of its task or job log, the rows or transfers of a
 * load's report; -1 unknown (a utilisation, a rate). The value's own key is
 * never its n (tasks.*.jobs >= 100 is judged, not skipped, at 0 jobs).
 */
static json_int_t chk_n(struct chk_item *it)
{
	static const char *const keys[] = { "count", "jobs", "joblog_rows", "transfers" };
	const char *own = strrchr(it->path, '.');
	json_t *holders[2] = { it->parent, it->elem }, *v;
	size_t h, k;

	own = own ? own + 1 : it->path;
	for (h = 0; h < PF_ARRAY_SIZE(holders); h++)
		for (k = 0; k < PF_ARRAY_SIZE(keys); k++) {
			v = json_object_get(holders[h], keys[k]);
			if (!json_is_integer(v) || (holders[h] == it->parent && !strcmp(own, keys[k])))
				continue;
			snprintf(it->n_key, sizeof(it->n_key), "%s", keys[k]);
			return json_integer_value(v);
		}
	return -1;
}

/*
 * chk_judge_bound - a value known only to lie in [lo, hi] (either side may
 * be missing): the requirement fails when every value of it does, passes
 * when every value meets it, and is not measured, with the bound shown, when
 * the bound cannot decide
 */
static void chk_judge_bound(struct chk_item *it)
{
	const struct chk_req *r = it->req;
	json_t *jlo = json_object_get(it->bound, ">="), *jhi = json_object_get(it->bound, "<=");
	bool has_lo = json_is_number(jlo), has_hi = json_is_number(jhi), fail = false, pass = false;
	double lo = has_lo ? chk_in_bound_unit(it, json_number_value(jlo)) : 0;
	double hi = has_hi ? chk_in_bound_unit(it, json_number_value(jhi)) : 0;
	const char *unit = r->kind != CHK_PLAIN ? r->unit : "";
	char a[64], b[64], c[64];

	switch (r->op) {
	case CHK_LE: fail = has_lo && lo > r->limit; pass = has_hi && hi <= r->limit; break;
	case CHK_LT: fail = has_lo && lo >= r->limit; pass = has_hi && hi < r->limit; break;
	case CHK_GE: fail = has_hi && hi < r->limit; pass = has_lo && lo >= r->limit; break;
	case CHK_GT: fail = has_hi && hi <= r->limit; pass = has_lo && lo > r->limit; break;
	default: break;
	}
	snprintf(it->known, sizeof(it->known), "%s%s%s%s%s%s%s%s", has_lo ? ">= " : "",
		 has_lo ? chk_num(lo, a, sizeof(a)) : "", has_lo && *unit ? " " : "", has_lo ? unit : "",
		 has_lo && has_hi ? ", " : "", has_hi ? "<= " : "", has_hi ? chk_num(hi, b, sizeof(b)) : "",
		 has_hi && *unit ? " " : "");
	if (has_hi)
		snprintf(it->known + strlen(it->known), sizeof(it->known) - strlen(it->known), "%s", unit);
	it->unit = unit;
	it->limit = r->limit;
	if (!fail && !pass) {
		it->result = CHK_NOT_MEASURED;
		snprintf(it->why, sizeof(it->why), "only a bound is known (%s), which cannot decide", it->known);
		chk_estimate_note(it);
		return;
	}
	/* the bound that decides: below the limit, the upper one passes and the lower one fails */
	it->decided = true;
	it->shown = (r->op == CHK_LE || r->op == CHK_LT) == pass ? hi : lo;
	snprintf(it->line, sizeof(it->line), "%s%s%s %s %s%s%s (only a bound is known: %s)",
		 chk_num(it->shown, a, sizeof(a)), *unit ? " " : "", unit, chk_op_text[r->op],
		 chk_num(r->limit, c, sizeof(c)), *unit ? " " : "", unit, it->known);
	chk_estimate_note(it);
	snprintf(it->measured, sizeof(it->measured), "%s = %s, known only as %s", it->path,
		 it->tail ? "below the tail model's threshold" : it->owned ? "an estimate" : "null", it->known);
	it->result = pass ? CHK_PASSED : CHK_FAILED;
}

/* chk_judge_value - a measured value against the bound */
static void chk_judge_value(struct chk_item *it)
{
	const struct chk_req *r = it->req;
	char v[64], l[64], margin[64] = "";
	double value, limit;

	value = chk_shown(it, json_is_boolean(it->value) ? json_is_true(it->value) : json_number_value(it->value));
	limit = r->limit;
	if (r->kind == CHK_PLAIN && it->kind == CHK_FRACTION)
		limit = r->limit * 100;		/* "== 0" on a fraction */
	it->unit = r->kind != CHK_PLAIN ? r->unit : it->kind == CHK_FRACTION ? "%" :
		it->kind == CHK_TIME ? "ns" : "";
	it->decided = true;
	it->shown = value;
	it->limit = limit;
	if ((r->op == CHK_LT || r->op == CHK_LE || r->op == CHK_GT || r->op == CHK_GE) && limit) {
		it->margin_pct = (r->op == CHK_LT || r->op == CHK_LE ? limit - value : value - limit) / fabs(limit) * 100;
		/* an absurd value has an absurd margin, but a short one */
		snprintf(margin, sizeof(margin), fabs(it->margin_pct) < 1e6 ? " (margin %.0f %%)" : " (margin %.3g %%)",
			 it->margin_pct + 0.0);
	}
	snprintf(it->line, sizeof(it->line), "%s%s%s %s %s%s%s%s", chk_num(value, v, sizeof(v)),
		 *it->unit ? " " : "", it->unit, chk_op_text[r->op], chk_num(limit, l, sizeof(l)),
		 *it->unit ? " " : "", it->unit, margin);
	chk_clean(it->line);
	chk_small_n(it);
	snprintf(it->measured, sizeof(it->measured), "%s = %s", it->path,
		 chk_num(json_number_value(it->value), v, sizeof(v)));
	it->result = chk_compare(value, r->op, limit) ? CHK_PASSED : CHK_FAILED;
}

/* chk_gate_pct - the least share of its target load 'name' must achieve for verdicts under it (%) */
static double chk_gate_pct(const struct chk_gate *g, const char *name)
{
	for (size_t i = 0; i < g->nover; i++)
		if (!strcmp(g->over[i].name, name))
			return g->over[i].pct;
	return g->min_pct;
}

/*
 * chk_gated_by - does the verdict of 'path' rest on load 'name' having
 * loaded: every verdict of the phase results.json's loads come from, but a
 * load's own figures (loads.spi.* measure the spi load, whatever it achieved)
 * and, when results.json has an app phase, the cyclictest baseline (another
 * phase, with its own loads)
 */
static bool chk_gated_by(json_t *root, const char *path, const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(path, "loads.", 6) && !strncmp(path + 6, name, n) && (path[6 + n] == '.' || !path[6 + n]))
		return false;
	if (!strncmp(path, "cyclictest", 10) && json_array_size(json_object_get(root, "tasks")))
		return false;
	return true;
}

/*
 * chk_gate - a verdict under a load that did not load (docs/budgets.md,
 * [validity]): a pass proves nothing and is not valid, with the load and its
 * share named; a failure under less load than declared stands, with a note
 */
static void chk_gate(json_t *root, const struct chk_gate *g, struct chk_item *it)
{
	json_t *loads = json_object_get(root, "loads"), *load;
	const char *name, *what;
	char why[512] = "";
	double pct, min;

	if (it->result != CHK_PASSED && it->result != CHK_FAILED)
		return;
	json_object_foreach(loads, name, load) {
		pct = pf_load_achieved_pct(name, load, &what);
		min = chk_gate_pct(g, name);
		if ((isnan(pct) && !what) || pct >= min || min <= 0 || !chk_gated_by(root, it->path, name))
			continue;
		if (isnan(pct))	/* a target, but what it achieved is not known: not shown achieved */
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "%swhat the %s load achieved is not "
				 "known (%s), and its verdicts need %.0f %%", *why ? "; " : "", name, what, min);
		else
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "%sthe %s load achieved %.1f %% of its "
				 "target (%s), below the %.0f %% its verdicts need", *why ? "; " : "", name, pct, what, min);
	}
	if (!*why)
		return;
	if (it->result == CHK_FAILED) {
		chk_note(it, "under less load than declared: %s; the failure stands", why);
		return;
	}
	it->result = CHK_NOT_VALID;
	snprintf(it->why, sizeof(it->why), "%s", why);
}

/* chk_judge - the verdict of one item, the same for the TAP and verdicts.json */
static void chk_judge(json_t *root, const struct chk_gate *g, const struct chk_emul *em, struct chk_item *it)
{
	it->margin_pct = NAN;
	it->n = chk_n(it);
	chk_clean(it->label);
	it->emulated = chk_emulated_of(em, it->path);
	it->unit = it->req->unit;
	it->limit = it->req->limit;
	if (!it->value && !it->bound) {
		it->result = CHK_NOT_MEASURED;
		return;
	}
	if (it->n == 0) {
		/* a verdict on nothing is no verdict (issue 32.2): '0 dropped of 0 jobs' passes nothing */
		it->result = CHK_NOT_MEASURED;
		snprintf(it->why, sizeof(it->why), "n = 0: no samples behind %s (its %s is 0)", it->path, it->n_key);
		return;
	}
	if (it->value)
		chk_judge_value(it);
	else
		chk_judge_bound(it);
	if (it->result == CHK_FAILED && it->value)
		chk_worst(it);
	it->lost = it->decided && chk_lost(root, it);
	chk_gate(root, g, it);
}

/* chk_is_failure - a verdict --failures shows: failed, not valid, or (strict) not measured */
static bool chk_is_failure(const struct chk_item *it, int strict)
{
	return it->result == CHK_FAILED || it->result == CHK_NOT_VALID ||
	       (strict && it->result == CHK_NOT_MEASURED);
}

/* chk_tap - one TAP test of a judged item */
static void chk_tap(FILE *out, size_t n, const struct chk_item *it)
{
	const struct chk_req *r = it->req;
	char text[1024], why[sizeof(it->why)];
	int i;

	if (it->result == CHK_NOT_MEASURED) {
		snprintf(why, sizeof(why), "%s", it->why);
		chk_clean(why);
		fprintf(out, "ok %zu - %s %s # SKIP not measured: %s\n", n, r->id, it->label, why);
	} else {
		/* the name stays the same from run to run (CI follows it); the numbers go on the next line */
		fprintf(out, "%s %zu - %s %s\n", it->result == CHK_PASSED ? "ok" : "not ok", n, r->id, it->label);
		fprintf(out, "#   %s\n", it->line);
	}
	for (i = 0; i < it->nnotes; i++)
		fprintf(out, "#   %s\n", chk_ascii(it->notes[i], text, sizeof(text)));
	if (it->result == CHK_FAILED) {
		fprintf(out, "#   requirement: %s\n", chk_ascii(r->text, text, sizeof(text)));
		fprintf(out, "#   measured: %s\n", it->measured);
		if (it->worst[0])
			fprintf(out, "#   worst case: %s\n", chk_ascii(it->worst, text, sizeof(text)));
	}
	if (it->result == CHK_NOT_VALID)
		fprintf(out, "#   not valid: %s\n", chk_ascii(it->why, text, sizeof(text)));
	if (it->lost)
		fprintf(out, "#   lost trace events overlap %s: the value may be wrong\n", it->path);
	if (it->emulated)
		fprintf(out, "#   emulated: %s\n", chk_emulated_text(it->emulated, text, sizeof(text)));
}

/* ----------------------------------------------------------------------
 * verdicts.json (docs/verdicts.md): the records the TAP is written from
 */

/* chk_jnum - a number, null when not finite */
static json_t *chk_jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* chk_jstr - a string, null when NULL or empty */
static json_t *chk_jstr(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

/*
 * chk_evidence - where a verdict's value comes from: its path in
 * results.json and the files of the run it was computed from
 */
static json_t *chk_evidence(json_t *root, const struct chk_item *it)
{
	static const char *const app[] = { "tasks.", "app.", "slots.", "threads.", "cpus.", "trace.", "lost_events" };
	json_t *data = json_array(), *in = json_object_get(root, "inputs");
	char file[128];
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(app); i++)
		if (!strncmp(it->path, app[i], strlen(app[i]))) {
			if (json_is_string(json_object_get(in, "trace")))
				json_array_append(data, json_object_get(in, "trace"));
			if (json_is_string(json_object_get(in, "joblog")))
				json_array_append(data, json_object_get(in, "joblog"));
		}
	if (!strncmp(it->path, "cyclictest", 10) && json_is_string(json_object_get(in, "cyclictest")))
		json_array_append(data, json_object_get(in, "cyclictest"));
	if (!strncmp(it->path, "fsw.", 4))
		json_array_append_new(data, json_string("fsw.json of the app phase"));
	if (!strncmp(it->path, "loads.", 6)) {
		snprintf(file, sizeof(file), "load-%.*s.json (loads.json)", (int)strcspn(it->path + 6, "."), it->path + 6);
		json_array_append_new(data, json_string(file));
	}
	if (!strncmp(it->path, "run.", 4))
		json_array_append_new(data, json_string("run.json"));
	return json_pack("{s:s, s:s, s:o}", "file", "results.json", "path", it->path, "data", data);
}

/*
 * chk_over_s - what a value with no sample count rests on, in seconds: a
 * load's figure (loads.NAME.achieved...) its elapsed time, the app's and
 * the CPUs' utilisation the trace's duration; NULL when unknown or n known
 * (issue 32.3: "N —" beside a utilisation said nothing)
 */
static json_t *chk_over_s(json_t *root, const struct chk_item *it)
{
	char name[128];
	const char *p = it->path, *dot;
	json_t *v = NULL;

	if (it->n >= 0)
		return json_null();
	if (!strncmp(p, "loads.", 6) && (dot = strchr(p + 6, '.')) && !strncmp(dot, ".achieved.", 10) &&
	    (size_t)(dot - p - 6) < sizeof(name)) {
		snprintf(name, sizeof(name), "%.*s", (int)(dot - p - 6), p + 6);
		v = json_object_get(json_object_get(json_object_get(root, "loads"), name), "elapsed_s");
		return json_is_number(v) && json_number_value(v) > 0 ? json_real(json_number_value(v)) : json_null();
	}
	if (!strncmp(p, "app.", 4) || !strncmp(p, "cpus.", 5) || !strncmp(p, "threads.", 8)) {
		v = pf_jpath_get(root, "trace.duration_ns");
		return json_is_number(v) && json_number_value(v) > 0 ? json_real(json_number_value(v) / 1e9) : json_null();
	}
	return json_null();
}

/*
 * chk_clock - the two clocks of a task's time verdict (docs/verdicts.md:
 * clock): the trace's is authoritative; the job log's figure of the same
 * statistic where it measures the same thing, the difference, and the
 * largest difference the matched jobs showed (agreement.uncertainty), with
 * whether the margin is smaller than it. Null for any other verdict, or a
 * task without both clocks.
 */
static json_t *chk_clock(json_t *root, const struct chk_item *it)
{
	static const struct { const char *metric, *joblog, *uncertainty; } kinds[] = {
		{ "activation_latency_ns", "activation_latency_ns", "activation_latency_ns" },
		{ "wakeup_latency_ns", NULL, "activation_latency_ns" },	/* the job log knows no waking */
		{ "response_time_ns", "response_time_ns", NULL },	/* ends, not starts: no bound on them */
		{ "exec_time_ns", "cpu_time_ns", "exec_time_ns" },
	};
	char task[128], path[PATH_MAX];
	const char *rest, *stat;
	json_t *unc, *other;
	double o = NAN, u = NAN;
	size_t k, n;

	if (it->kind != CHK_TIME || !it->decided || strncmp(it->path, "tasks.", 6))
		return json_null();
	rest = it->path + 6;
	n = strcspn(rest, ".");
	if (!rest[n] || n >= sizeof(task))
		return json_null();
	snprintf(task, sizeof(task), "%.*s", (int)n, rest);
	rest += n + 1;
	for (k = 0; k < PF_ARRAY_SIZE(kinds); k++)
		if (!strncmp(rest, kinds[k].metric, strlen(kinds[k].metric)) && rest[strlen(kinds[k].metric)] == '.')
			break;
	snprintf(path, sizeof(path), "tasks.%s.agreement.uncertainty", task);
	unc = pf_jpath_get(root, path);
	if (k == PF_ARRAY_SIZE(kinds) || !json_is_object(unc))
		return json_null();
	stat = rest + strlen(kinds[k].metric) + 1;
	if (kinds[k].joblog) {
		snprintf(path, sizeof(path), "tasks.%s.joblog.%s.%s", task, kinds[k].joblog, stat);
		if (json_is_number(other = pf_jpath_get(root, path)))
			o = chk_shown(it, json_number_value(other));
	}
	if (kinds[k].uncertainty && json_is_number(json_object_get(unc, kinds[k].uncertainty)))
		u = chk_shown(it, json_number_value(json_object_get(unc, kinds[k].uncertainty)));
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "authoritative", "trace", "other", "joblog",
			 "other_value", chk_jnum(o), "difference", chk_jnum(o - it->shown),
			 "uncertainty", chk_jnum(u),
			 "margin_within_uncertainty", isfinite(u) && !isnan(it->margin_pct) ?
			 json_boolean(fabs(it->shown - it->limit) <= u) : json_null());
}

/* chk_record - one verdict of verdicts.json */
static json_t *chk_record(json_t *root, size_t test, const struct chk_item *it)
{
	const struct chk_req *r = it->req;
	json_t *rec, *notes = json_array(), *em = json_array();
	char buf[32];
	const char *elem = it->elem ? chk_elem_name(it->elem, buf, sizeof(buf)) : NULL;
	int i;

	for (i = 0; i < it->nnotes; i++)
		json_array_append_new(notes, json_string(it->notes[i]));
	if (it->lost)
		json_array_append_new(notes, json_pack("s+", it->path, ": lost trace events overlap it, the value may be wrong"));
	for (i = 0; i < CHK_NEM; i++)
		if (it->emulated & (1u << i))
			json_array_append_new(em, json_string(chk_em_name[i]));
	rec = json_pack("{s:I, s:s, s:s, s:o, s:s, s:o, s:s, s:s, s:o, s:s}",
			"test", (json_int_t)test, "id", r->id, "requirement", r->text, "text", chk_jstr(it->line),
			"label", it->label, "element", chk_jstr(elem), "metric", it->path,
			"comparison", chk_op_text[r->op], "bound", chk_jnum(it->limit), "unit", it->unit ? it->unit : "");
	if (!rec)
		return NULL;
	json_object_set_new(rec, "value", it->decided ? chk_jnum(it->shown) : json_null());
	json_object_set_new(rec, "raw_value", it->value ? json_incref(it->value) : json_null());
	json_object_set_new(rec, "known_only_as", chk_jstr(it->known));
	json_object_set_new(rec, "margin_pct", chk_jnum(it->margin_pct));
	json_object_set_new(rec, "n", it->n >= 0 ? json_integer(it->n) : json_null());
	json_object_set_new(rec, "n_from", it->n >= 0 ? json_string(it->n_key) : json_null());
	json_object_set_new(rec, "over_s", chk_over_s(root, it));
	json_object_set_new(rec, "verdict", json_string(chk_result_name[it->result]));
	json_object_set_new(rec, "reason", chk_jstr(it->result == CHK_NOT_MEASURED || it->result == CHK_NOT_VALID ?
						    it->why : NULL));
	json_object_set_new(rec, "notes", notes);
	json_object_set_new(rec, "worst_case", chk_jstr(it->worst[0] ? it->worst : NULL));
	json_object_set_new(rec, "evidence", chk_evidence(root, it));
	json_object_set_new(rec, "emulated", em);
	json_object_set_new(rec, "clock", chk_clock(root, it));
	return rec;
}

/* chk_load_gate - the loads of results.json against [validity], for verdicts.json */
static json_t *chk_load_gate(json_t *root, const struct chk_gate *g)
{
	json_t *loads = json_array(), *load;
	const char *name, *what;
	bool valid = true, ok;
	double pct;

	json_object_foreach(json_object_get(root, "loads"), name, load) {
		pct = pf_load_achieved_pct(name, load, &what);
		/* no target: no gate (ok null); a target not known to be achieved: not ok, unless the gate is off */
		ok = pct >= chk_gate_pct(g, name) || chk_gate_pct(g, name) <= 0;
		valid &= (isnan(pct) && !what) || ok;
		json_array_append_new(loads, json_pack("{s:s, s:o, s:f, s:o, s:o}", "load", name,
						       "achieved_pct", chk_jnum(pct), "min_pct", chk_gate_pct(g, name),
						       "compared", chk_jstr(what),
						       "ok", isnan(pct) && !what ? json_null() : json_boolean(ok)));
	}
	return json_pack("{s:f, s:b, s:o}", "min_load_achieved_pct", g->min_pct, "valid", valid, "loads", loads);
}

/* chk_emulated_json - the emulated interfaces of the run: name, how, the verdicts resting on each */
static json_t *chk_emulated_json(const struct chk_emul *em, const struct chk_items *items)
{
	json_t *a = json_array();
	size_t k, n;

	for (int i = 0; i < CHK_NEM; i++) {
		if (!(em->mask & (1u << i)))
			continue;
		for (k = n = 0; k < items->n; k++)
			n += !!(items->v[k].emulated & (1u << i));
		json_array_append_new(a, json_pack("{s:s, s:s, s:I}", "interface", chk_em_name[i], "how", em->how[i],
						   "verdicts", (json_int_t)n));
	}
	return a;
}

/* chk_write_json - verdicts.json; 0, or an exit code after one line */
static int chk_write_json(const char *path, json_t *root, const char *results, const char *budgets,
			  const struct chk_gate *g, const struct chk_emul *em, const struct chk_items *items,
			  const size_t *count, const char *result, int code, int strict)
{
	json_t *doc, *recs = json_array(), *rec;
	size_t i;
	int ret;

	for (i = 0; i < items->n; i++) {
		rec = chk_record(root, i + 1, &items->v[i]);
		if (!rec || json_array_append_new(recs, rec)) {
			json_decref(recs);
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		}
	}
	doc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:b, s:{s:I, s:I, s:I, s:I}, s:o, s:o, s:o}",
			"schema", CHK_VERDICTS_SCHEMA, "generator", "preflight check " PF_VERSION,
			"results", results, "budgets", budgets, "result", result, "exit_code", code, "strict", strict,
			"counts", "pass", (json_int_t)count[CHK_PASSED], "fail", (json_int_t)count[CHK_FAILED],
			"not_measured", (json_int_t)count[CHK_NOT_MEASURED], "not_valid", (json_int_t)count[CHK_NOT_VALID],
			"load_gate", chk_load_gate(root, g), "emulated", chk_emulated_json(em, items), "verdicts", recs);
	if (!doc)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	ret = pf_outfile_json(path, doc, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	json_decref(doc);
	return ret;
}

/*
 * chk_task_names - every tasks[] element is named by the task-name syntax:
 * a task without one would give a verdict line that names nothing
 */
static int chk_task_names(json_t *root, const char *path)
{
	const char *name;
	char quoted[256];
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(root, "tasks"), i, t) {
		name = json_string_value(json_object_get(t, "name"));
		if (!name)
			return pf_fail(PF_EXIT_USAGE, "%s: tasks[%zu]: no 'name' (a task name, %s)", path, i,
				       PF_TASK_NAME_SYNTAX);
		if (!pf_task_name_valid(name))
			return pf_fail(PF_EXIT_USAGE, "%s: tasks[%zu]: name '%s' is not a task name (%s)", path, i,
				       pf_quote_bytes(name, quoted, sizeof(quoted)), PF_TASK_NAME_SYNTAX);
	}
	return 0;
}

/* chk_load_results - results.json, RUN_DIR/results.json or '-' (stdin); schema and task names checked */
static int chk_load_results(const char *arg, json_t **root, char *path, size_t size)
{
	json_error_t jerr;
	struct stat st;
	const char *schema;

	snprintf(path, size, "%s", arg);
	if (!stat(arg, &st) && S_ISDIR(st.st_mode))
		snprintf(path, size, "%s/results.json", arg);
	if (!strcmp(arg, "-")) {
		snprintf(path, size, "stdin");
		*root = json_loadf(stdin, JSON_REJECT_DUPLICATES, &jerr);
	} else {
		*root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	}
	if (!*root) {
		if (jerr.line < 1)
			return pf_fail(PF_EXIT_USAGE, "%s: cannot read: %s", path, jerr.text);
		return pf_fail(PF_EXIT_USAGE, "%s:%d: not valid JSON: %s", path, jerr.line, jerr.text);
	}
	schema = json_string_value(json_object_get(*root, "schema"));
	if (!json_is_object(*root) || !schema ||
	    strncmp(schema, CHK_RESULTS_SCHEMA, strlen(CHK_RESULTS_SCHEMA)) ||
	    (schema[strlen(CHK_RESULTS_SCHEMA)] && schema[strlen(CHK_RESULTS_SCHEMA)] != '.')) {
		pf_err("%s: schema '%s' is not %s", path, schema ? schema : "(none)",
		       CHK_RESULTS_SCHEMA);
		json_decref(*root);
		*root = NULL;
		return PF_EXIT_USAGE;
	}
	if (chk_task_names(*root, path)) {
		json_decref(*root);
		*root = NULL;
		return PF_EXIT_USAGE;
	}
	return 0;
}

static int chk_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "budgets", required_argument, NULL, 'b' },
		{ "output",  required_argument, NULL, 'o' },
		{ "json",    required_argument, NULL, 'J' },
		{ "strict",  no_argument,       NULL, 'S' },
		{ "failures", no_argument,      NULL, 'F' },
		{ "keys",    no_argument,       NULL, 'K' },
		{ "help",    no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct chk_budgets b = { .gate.min_pct = CHK_MIN_LOAD_PCT };
	struct chk_items items = { 0 };
	struct chk_emul em;
	const char *budgets = NULL, *output = NULL, *json = NULL, *result;
	char results[4096], dflt[4096], text[1024], found[4096];
	size_t i, k, count[CHK_NRESULTS] = { 0 }, no_value = 0;
	json_t *root = NULL, *load;
	FILE *out = stdout;
	int c, strict = 0, failures = 0, ret, code;
	struct stat st;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': budgets = optarg; break;
		case 'o': output = optarg; break;
		case 'J': json = optarg; break;
		case 'S': strict = 1; break;
		case 'F': failures = 1; break;
		case 'K': pf_results_keys_print(stdout); return PF_EXIT_OK;
		case 'h': pf_print_usage(&cmd_check); return PF_EXIT_OK;
		default: return pf_option_error(&cmd_check, argv, "b:o:h");
		}
	}
	if (optind != argc - 1)
		return pf_usage_error(&cmd_check, optind == argc ? "no RESULTS given" :
				      "one RESULTS only");
	if (!budgets) {
		snprintf(dflt, sizeof(dflt), "%s/budgets.ini", argv[optind]);
		if (stat(argv[optind], &st) || !S_ISDIR(st.st_mode) || stat(dflt, &st))
			return pf_usage_error(&cmd_check, "no --budgets given (and '%s' is not "
					      "a run directory with budgets.ini)", argv[optind]);
		budgets = dflt;
	}
	if (output && json && !strcmp(output, json))
		return pf_usage_error(&cmd_check, "-o and --json name the same file '%s'", json);
	/* a name that is no file here: a data file ("seed", "budgets/seed.ini") */
	if (access(budgets, F_OK)) {
		if ((ret = chk_find_budgets(budgets, found, sizeof(found))))
			return ret;
		budgets = found;
	}
	snprintf(results, sizeof(results), "%s/results.json", argv[optind]);
	{
		const char *const in[] = { argv[optind], results, budgets };

		ret = pf_out_guard(output, in, PF_ARRAY_SIZE(in));
		if (!ret)
			ret = pf_out_guard(json, in, PF_ARRAY_SIZE(in));
		if (ret)
			goto out;
	}
	b.path = budgets;
	ret = chk_load_budgets(&b);
	if (ret)
		goto out;
	ret = chk_load_results(argv[optind], &root, results, sizeof(results));
	if (ret)
		goto out;
	for (i = 0; i < b.nreq; i++)
		for (k = 0; k < b.req[i].nmetrics; k++)
			if (chk_resolve(root, &b.req[i], b.req[i].metrics[k], &items)) {
				ret = pf_fail(PF_EXIT_INTERNAL, "out of memory");
				goto out;
			}
	ret = chk_fit_units(&b, &items, results);
	if (ret)
		goto out;
	/* every verdict is decided before anything is written: the TAP and verdicts.json are the same records */
	chk_emulated_find(root, &em);
	for (i = 0; i < items.n; i++) {
		chk_judge(root, &b.gate, &em, &items.v[i]);
		count[items.v[i].result]++;
		no_value += items.v[i].result == CHK_NOT_MEASURED &&
			(items.v[i].no_value || items.v[i].bound || items.v[i].n == 0);
	}
	/* fail and not valid fail the check; nothing passed is no verdict; not measured alone is incomplete */
	result = count[CHK_FAILED] ? "fail" : count[CHK_NOT_VALID] ? "not_valid" : !count[CHK_PASSED] ? "no_verdict" :
		count[CHK_NOT_MEASURED] ? "incomplete" : "pass";
	code = !strcmp(result, "pass") || (!strcmp(result, "incomplete") && !strict) ? PF_EXIT_OK : PF_EXIT_FAILED;
	if (output && (ret = pf_outfile_open(output, &out))) {
		out = stdout;
		goto out;
	}
	if (failures)	/* no plan: the view leaves tests out */
		fprintf(out, "# failures only (not TAP): %zu of %zu verdicts\n", count[CHK_FAILED] +
			count[CHK_NOT_VALID] + (strict ? count[CHK_NOT_MEASURED] : 0), items.n);
	else
		fprintf(out, "1..%zu\n", items.n);
	fprintf(out, "# preflight check: %s against %s\n", results, budgets);
	for (i = 0; i < CHK_NEM; i++)
		if (em.mask & (1u << i))
			fprintf(out, "# EMULATED: %s: %s\n", chk_em_name[i], chk_ascii(em.how[i], text, sizeof(text)));
	{
		const char *name, *what;
		double pct;

		json_object_foreach(json_object_get(root, "loads"), name, load)
			if ((pct = pf_load_achieved_pct(name, load, &what)) < chk_gate_pct(&b.gate, name))
				fprintf(out, "# LOAD SHORT: the %s load achieved %.1f %% of its target (%s), below %.0f %%: "
					"the verdicts under it are not valid\n", name, pct, what, chk_gate_pct(&b.gate, name));
			else if (isnan(pct) && what && chk_gate_pct(&b.gate, name) > 0)
				fprintf(out, "# LOAD SHORT: what the %s load achieved is not known (%s), below %.0f %% "
					"is not ruled out: the verdicts under it are not valid\n", name, what,
					chk_gate_pct(&b.gate, name));
	}
	for (i = 0; i < items.n; i++)
		if (!failures || chk_is_failure(&items.v[i], strict))
			chk_tap(out, i + 1, &items.v[i]);
	fprintf(out, "# %zu passed, %zu failed, %zu not measured", count[CHK_PASSED],
		count[CHK_FAILED], count[CHK_NOT_MEASURED]);
	if (count[CHK_NOT_MEASURED])
		fprintf(out, " (%zu not in this run, %zu without a value)", count[CHK_NOT_MEASURED] - no_value,
			no_value);
	if (count[CHK_NOT_VALID])
		fprintf(out, ", %zu not valid", count[CHK_NOT_VALID]);
	fputc('\n', out);
	if (!strcmp(result, "no_verdict"))
		fprintf(out, "# nothing was measured: no verdict\n");
	ret = code;
	c = output ? pf_outfile_commit(out) : 0;	/* stdout is checked at exit */
	out = stdout;
	if (c)
		ret = c;
	if (json && ret <= PF_EXIT_FAILED) {
		int jret = chk_write_json(json, root, results, budgets, &b.gate, &em, &items, count, result, code, strict);

		if (jret)
			ret = jret;
	}
out:
	if (out != stdout)
		pf_outfile_abort(out);
	for (i = 0; i < items.n; i++)
		json_decref(items.v[i].owned);
	free(items.v);
	json_decref(root);
	chk_free_budgets(&b);
	return ret;
}
