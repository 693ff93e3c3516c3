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
#include "outguard.h"
#include "results_keys.h"
#include "common.h"
#include "datafile.h"
#include "ini.h"
#include "jpath.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHK_RESULTS_SCHEMA "preflight-results/1"
#define CHK_MAX_SEGS 32

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

struct chk_budgets {
	const char     *path;
	struct pf_ini   ini;	/* the reader: lines read so far, the first error it found */
	struct chk_req *req;
	size_t          nreq, cap;
	int             err;	/* an error was printed */
};

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
	char        why[256];	/* not measured: why */
	bool        no_value;	/* not measured though results.json has the member: null, or a bound that cannot decide */
	enum chk_kind kind;
	double      unit_ns;	/* CHK_TIME: ns per metric unit */
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
	"usage: preflight check RESULTS [--budgets FILE] [-o FILE] [--strict]\n"
	"\n"
	"Checks every requirement of a budget file against a results.json of\n"
	"'preflight analyze' and prints TAP: one test per requirement and selected\n"
	"element, with the measured value, the bound and the margin. A metric that\n"
	"names no key of the results.json schema is an error in the budget file (exit 2);\n"
	"one this results.json does not have, or has no value of, is 'not measured'\n"
	"(a TAP SKIP), never passed: the summary counts those not in this run and those\n"
	"without a value apart.\n"
	"RESULTS is a results.json, a run directory holding one, or - for stdin.\n"
	"\n"
	"options:\n"
	"  -b, --budgets FILE   budget file (INI, docs/budgets.md), or a data file's\n"
	"                       name (seed: budgets/seed.ini); default: the run\n"
	"                       directory's budgets.ini when RESULTS is a directory\n"
	"  -o, --output FILE    write the TAP to FILE instead of stdout (default: stdout)\n"
	"      --strict         a requirement not measured fails the check (default: off)\n"
	"      --keys           print the metric paths results.json has (its schema) and exit\n"
	"                       (default: off)\n"
	"  -h, --help           this text\n"
	"\n"
	"FILE is never an input nor a file a run's SHA256SUMS lists (refused, exit 2).\n"
	"\n"
	"exit: 0 every measured requirement met, 1 a requirement failed (or nothing\n"
	"was measured; with --strict, one was not measured), 2 bad budgets or results\n",
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

/* chk_handler - one "key = value" of the budget file */
static int chk_handler(void *user, const char *section, const char *name, const char *value)
{
	struct chk_budgets *b = user;
	struct chk_req *r;
	char **slot;
	unsigned *line;

	if (b->err)
		return 0;
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
 * ("62us", as budgets/seed.ini writes it) is an upper bound, "<="
 */
static int chk_parse_bound(struct chk_budgets *b, struct chk_req *r)
{
	static const struct { const char *name; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	const char *s = r->bound;
	char *end;
	size_t i;

	while (isspace((unsigned char)*s))
		s++;
	if (chk_parse_op(&s, &r->op))
		r->op = CHK_LE;
	while (isspace((unsigned char)*s))
		s++;
	errno = 0;
	r->limit = strtod(s, &end);
	/* decimal only: strtod also takes 0x10 and 1p3, which no budget means */
	if (end == s || errno || !isfinite(r->limit) || !(isdigit((unsigned char)*s) ||
							 *s == '-' || *s == '.') ||
	    memchr(s, 'x', (size_t)(end - s)) || memchr(s, 'X', (size_t)(end - s))) {
		chk_bad(b, r->line_bound, "bound '%s' is not [<|<=|>|>=|==|!=] NUMBER [UNIT]",
			r->bound);
		return -EINVAL;
	}
	s = end;
	while (isspace((unsigned char)*s))
		s++;
	r->kind = CHK_PLAIN;
	r->unit = "";
	if (!*s)
		return 0;
	if (!strcmp(s, "%")) {
		r->kind = CHK_PERCENT;
		r->unit = "%";
		if (r->limit < 0) {
			chk_bad(b, r->line_bound, "bound '%s': a share is never negative", r->bound);
			return -EINVAL;
		}
		return 0;
	}
	for (i = 0; i < PF_ARRAY_SIZE(units); i++)
		if (!strcmp(s, units[i].name)) {
			r->kind = CHK_TIME;
			r->unit = i == 2 ? "us" : units[i].name;
			r->unit_ns = units[i].ns;
			if (r->limit < 0) {
				chk_bad(b, r->line_bound, "bound '%s': a time is never negative", r->bound);
				return -EINVAL;
			}
			return 0;
		}
	chk_bad(b, r->line_bound, "bound '%s': unknown unit '%s' (ns, us, ms, s, %%, or none "
		"for a count)", r->bound, s);
	return -EINVAL;
}

/* chk_parse_metric - 'metric' split at commas, each a dotted path */
static int chk_parse_metric(struct chk_budgets *b, struct chk_req *r)
{
	char *copy, *tok, *save = NULL, *p, why[256];
	char **m;

	copy = strdup(r->metric);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		for (p = tok; *p; p++)
			if (!isalnum((unsigned char)*p) && !strchr("._*-/", *p))
				break;
		if (*p || *tok == '.' || tok[strlen(tok) - 1] == '.' || strstr(tok, "..")) {
			chk_bad(b, r->line_metric, "metric '%s' is not a dotted path like "
				"tasks.*.activation_latency_ns.max", tok);
			goto fail;
		}
		if (!pf_results_key_known(tok, why, sizeof(why))) {
			chk_bad(b, r->line_metric, "metric '%s' names no key of results.json (docs/results.md; "
				"'preflight check --keys' lists them): %s", tok, why);
			goto fail;
		}
		m = realloc(r->metrics, (r->nmetrics + 1) * sizeof(*m));
		if (!m)
			goto fail;
		r->metrics = m;
		r->metrics[r->nmetrics] = strdup(tok);
		if (!r->metrics[r->nmetrics++])
			goto fail;
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

/* chk_resolve - every item of one metric path of a requirement */
static int chk_resolve(json_t *root, const struct chk_req *r, const char *metric,
		       struct chk_items *items)
{
	struct chk_walk w = { root, r, items, NULL, 0 };
	char *copy, *tok, *save = NULL, *seg[CHK_MAX_SEGS];
	int ret;

	copy = strdup(metric);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ".", &save); tok && w.nseg < CHK_MAX_SEGS;
	     tok = strtok_r(NULL, ".", &save))
		seg[w.nseg++] = tok;
	w.seg = seg;
	ret = chk_walk(&w, root, 0, "", "", NULL, 0, NULL, NULL);
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

/* chk_culprit - the culprit summary of the worst case of the item's element */
static const char *chk_culprit(const struct chk_item *it)
{
	json_t *c = json_object_get(it->elem, "culprits"), *e;
	json_t *max_id = json_object_get(it->parent, "max_id");
	size_t i;

	if (!json_is_array(c) || !json_array_size(c))
		return NULL;
	/* the culprit of the very job that holds the max, when it is among them */
	if (json_is_integer(max_id))
		json_array_foreach(c, i, e)
			if (json_equal(json_object_get(e, "seq"), max_id))
				return json_string_value(json_object_get(e, "summary"));
	return json_string_value(json_object_get(json_array_get(c, 0), "summary"));
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

enum chk_result { CHK_PASSED, CHK_FAILED, CHK_NOT_MEASURED };

/* chk_estimate_note - the diagnostic of a value that is an estimate (its bound made by chk_estimated_item) */
static void chk_estimate_note(FILE *out, const struct chk_item *it)
{
	if (it->owned)
		fprintf(out, "#   %s is estimated: it depends on values that were not recorded (cyclictest's "
			"overflows); the estimate is the least spread they allow, a lower bound\n", it->path);
}

/*
 * chk_small_n - a percentile whose rank is the top sample (results.json's
 * "is_max": fewer samples than it needs) is the max: say so, with n
 */
static void chk_small_n(FILE *out, const struct chk_item *it)
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
		fprintf(out, "#   %s = max, n = %" JSON_INTEGER_FORMAT ": too few samples for %s (it needs %.0f)\n",
			name, json_integer_value(json_object_get(it->parent, "count")), name,
			q < 1 ? ceil(1 / (1 - q) - 1e-6) : 1.0);
		return;
	}
}

/*
 * chk_bound_verdict - a value known only to lie in [lo, hi] (either side may
 * be missing): the requirement fails when every value of it does, passes
 * when every value meets it, and is not measured, with the bound shown, when
 * the bound cannot decide
 */
static enum chk_result chk_bound_verdict(FILE *out, size_t n, struct chk_item *it)
{
	const struct chk_req *r = it->req;
	json_t *jlo = json_object_get(it->bound, ">="), *jhi = json_object_get(it->bound, "<=");
	bool has_lo = json_is_number(jlo), has_hi = json_is_number(jhi), fail = false, pass = false;
	double lo = has_lo ? chk_in_bound_unit(it, json_number_value(jlo)) : 0;
	double hi = has_hi ? chk_in_bound_unit(it, json_number_value(jhi)) : 0;
	const char *unit = r->kind != CHK_PLAIN ? r->unit : "";
	char a[64], b[64], c[64], text[1024], shown[256];

	switch (r->op) {
	case CHK_LE: fail = has_lo && lo > r->limit; pass = has_hi && hi <= r->limit; break;
	case CHK_LT: fail = has_lo && lo >= r->limit; pass = has_hi && hi < r->limit; break;
	case CHK_GE: fail = has_hi && hi < r->limit; pass = has_lo && lo >= r->limit; break;
	case CHK_GT: fail = has_hi && hi <= r->limit; pass = has_lo && lo > r->limit; break;
	default: break;
	}
	snprintf(shown, sizeof(shown), "%s%s%s%s%s%s%s%s", has_lo ? ">= " : "", has_lo ? chk_num(lo, a, sizeof(a)) : "",
		 has_lo && *unit ? " " : "", has_lo ? unit : "", has_lo && has_hi ? ", " : "",
		 has_hi ? "<= " : "", has_hi ? chk_num(hi, b, sizeof(b)) : "", has_hi && *unit ? " " : "");
	if (has_hi)
		snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), "%s", unit);
	if (!fail && !pass) {
		fprintf(out, "ok %zu - %s %s # SKIP not measured: only a bound is known (%s), which cannot decide\n",
			n, r->id, it->label, shown);
		chk_estimate_note(out, it);
		return CHK_NOT_MEASURED;
	}
	/* the bound that decides: below the limit, the upper one passes and the lower one fails */
	fprintf(out, "%s %zu - %s %s\n", pass ? "ok" : "not ok", n, r->id, it->label);
	fprintf(out, "#   %s%s%s %s %s%s%s (only a bound is known: %s)\n",
		chk_num((r->op == CHK_LE || r->op == CHK_LT) == pass ? hi : lo, a, sizeof(a)),
		*unit ? " " : "", unit, chk_op_text[r->op], chk_num(r->limit, c, sizeof(c)), *unit ? " " : "", unit, shown);
	chk_estimate_note(out, it);
	if (fail) {
		fprintf(out, "#   requirement: %s\n", chk_ascii(r->text, text, sizeof(text)));
		fprintf(out, "#   measured: %s = %s, known only as %s\n", it->path, it->owned ? "an estimate" : "null",
			shown);
	}
	return pass ? CHK_PASSED : CHK_FAILED;
}

/* chk_verdict - print one TAP test */
static enum chk_result chk_verdict(FILE *out, json_t *root, size_t n, struct chk_item *it)
{
	const struct chk_req *r = it->req;
	char desc[768], v[64], l[64], margin[64] = "", text[1024];
	const char *unit, *culprit;
	double value, limit, m;
	int pass;

	chk_clean(it->label);
	if (!it->value && it->bound)
		return chk_bound_verdict(out, n, it);
	if (!it->value) {
		chk_clean(it->why);
		fprintf(out, "ok %zu - %s %s # SKIP not measured: %s\n", n, r->id, it->label, it->why);
		return CHK_NOT_MEASURED;
	}
	value = json_is_boolean(it->value) ? json_is_true(it->value) : json_number_value(it->value);
	value = chk_in_bound_unit(it, value);
	limit = r->limit;
	if (r->kind == CHK_PLAIN && it->kind == CHK_FRACTION)
		limit = r->limit * 100;		/* "== 0" on a fraction */
	unit = r->kind != CHK_PLAIN ? r->unit : it->kind == CHK_FRACTION ? "%" :
		it->kind == CHK_TIME ? "ns" : "";
	if (it->kind == CHK_TIME && r->kind == CHK_PLAIN)
		value = json_number_value(it->value) * it->unit_ns;	/* show in ns */
	pass = chk_compare(value, r->op, limit);
	if ((r->op == CHK_LT || r->op == CHK_LE || r->op == CHK_GT || r->op == CHK_GE) && limit) {
		m = (r->op == CHK_LT || r->op == CHK_LE ? limit - value : value - limit) / fabs(limit);
		/* an absurd value has an absurd margin, but a short one */
		snprintf(margin, sizeof(margin), fabs(m * 100) < 1e6 ? " (margin %.0f %%)" : " (margin %.3g %%)",
			 m * 100 + 0.0);
	}
	/* the name stays the same from run to run (CI follows it); the numbers go on the next line */
	fprintf(out, "%s %zu - %s %s\n", pass ? "ok" : "not ok", n, r->id, it->label);
	snprintf(desc, sizeof(desc), "%s%s%s %s %s%s%s%s", chk_num(value, v, sizeof(v)), *unit ? " " : "", unit,
		 chk_op_text[r->op], chk_num(limit, l, sizeof(l)), *unit ? " " : "", unit, margin);
	chk_clean(desc);
	fprintf(out, "#   %s\n", desc);
	chk_small_n(out, it);
	if (!pass) {
		fprintf(out, "#   requirement: %s\n", chk_ascii(r->text, text, sizeof(text)));
		fprintf(out, "#   measured: %s = %s\n", it->path,
			chk_num(json_number_value(it->value), v, sizeof(v)));
		culprit = chk_culprit(it);
		if (culprit)
			fprintf(out, "#   worst case: %s\n", chk_ascii(culprit, text, sizeof(text)));
	}
	if (chk_lost(root, it))
		fprintf(out, "#   lost trace events overlap %s: the value may be wrong\n", it->path);
	return pass ? CHK_PASSED : CHK_FAILED;
}

/* chk_load_results - results.json, RUN_DIR/results.json or '-' (stdin); schema checked */
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
	return 0;
}

static int chk_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "budgets", required_argument, NULL, 'b' },
		{ "output",  required_argument, NULL, 'o' },
		{ "strict",  no_argument,       NULL, 'S' },
		{ "keys",    no_argument,       NULL, 'K' },
		{ "help",    no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct chk_budgets b = { 0 };
	struct chk_items items = { 0 };
	const char *budgets = NULL, *output = NULL;
	char results[4096], dflt[4096], found[4096];
	size_t i, k, count[3] = { 0 }, no_value = 0;
	enum chk_result res;
	json_t *root = NULL;
	FILE *out = stdout;
	int c, strict = 0, ret;
	struct stat st;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': budgets = optarg; break;
		case 'o': output = optarg; break;
		case 'S': strict = 1; break;
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
	if (output && !(out = fopen(output, "w"))) {
		ret = pf_fail(PF_EXIT_USAGE, "%s: cannot write: %s", output, strerror(errno));
		out = stdout;
		goto out;
	}
	fprintf(out, "1..%zu\n", items.n);
	fprintf(out, "# preflight check: %s against %s\n", results, budgets);
	for (i = 0; i < items.n; i++) {
		res = chk_verdict(out, root, i + 1, &items.v[i]);
		count[res]++;
		no_value += res == CHK_NOT_MEASURED && (items.v[i].no_value || items.v[i].bound);
	}
	fprintf(out, "# %zu passed, %zu failed, %zu not measured", count[CHK_PASSED],
		count[CHK_FAILED], count[CHK_NOT_MEASURED]);
	if (count[CHK_NOT_MEASURED])
		fprintf(out, " (%zu not in this run, %zu without a value)", count[CHK_NOT_MEASURED] - no_value,
			no_value);
	fputc('\n', out);
	if (count[CHK_FAILED] || (strict && count[CHK_NOT_MEASURED]))
		ret = PF_EXIT_FAILED;
	else if (!count[CHK_PASSED]) {
		fprintf(out, "# nothing was measured: no verdict\n");
		ret = PF_EXIT_FAILED;
	}
	if (fflush(out) || ferror(out))
		ret = pf_fail(PF_EXIT_ENV, "%s: write error: %s", output ? output : "stdout",
			      strerror(errno));
out:
	if (out != stdout)
		fclose(out);
	for (i = 0; i < items.n; i++)
		json_decref(items.v[i].owned);
	free(items.v);
	json_decref(root);
	chk_free_budgets(&b);
	return ret;
}
