/*
 * st_compare.c - the selftest's comparison: for each case, the injector's own
 * time stamps (ground truth) against the analysis of the trace, into an
 * error distribution (measured - expected, per injection) and exact counts;
 * then selftest.json and TAP (docs/selftest.md says what each case expects).
 *
 * Expected values come only from the injector log (st_log.h) - never from
 * the nominal sizes of the plan - and each from a time stamp of the instant
 * its metric denotes (docs/selftest.md). The executive's job log serves
 * twice: to tell whether a preemption fell inside the job, and as the other
 * side of case 9. Everything here is arithmetic on files: no clock is read.
 */
#define _GNU_SOURCE
#include "st_compare.h"
#include "common.h"
#include "joblog_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* a preempted job that lost this much more than the phase's usual unexplained time was stalled by the host */
#define ST_STALL_NS (10 * PF_NS_PER_US)

/* ---- reading ---- */

/* st_split - split a CSV line in place (fields may be quoted, no embedded commas); the field count */
static int st_split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line, *e;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		if (*p == '"') {
			f[n++] = ++p;
			e = strchr(p, '"');
			if (e) {
				*e = '\0';
				p = e + 1;
			}
		} else {
			f[n++] = p;
		}
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

/* st_num - a decimal integer field; 0 or -EINVAL */
static int st_num(const char *s, int64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || end == s || *end ? -EINVAL : 0;
}

/* st_log_key - one "# key=value" line of the log header */
static void st_log_key(struct st_log *log, const char *key, const char *val)
{
	int64_t v;
	int c;

	for (c = 1; c <= ST_NCASES; c++)
		if (!strncmp(key, "skip.", 5) && !strcmp(key + 5, st_case_name(c)))
			snprintf(log->skip[c], sizeof(log->skip[c]), "%s", val);
	if (st_num(val, &v))
		return;
	if (!strcmp(key, "slot_ns")) log->slot_ns = v;
	else if (!strcmp(key, "t0_ns")) log->t0_ns = v;
	else if (!strcmp(key, "cpu_victim")) log->cpu_victim = (int)v;
	else if (!strcmp(key, "cpu_tick")) log->cpu_tick = (int)v;
	else if (!strcmp(key, "ncpus")) log->ncpus = (int)v;
	else if (!strcmp(key, "gap_ns")) log->gap_ns = v;
	else if (!strcmp(key, "quick")) log->quick = v != 0;
	else if (!strcmp(key, "storm")) log->storm = v != 0;
	for (c = 1; c <= ST_NCASES; c++) {
		if (!strncmp(key, "first_slot.", 11) && !strcmp(key + 11, st_case_name(c)))
			log->first_slot[c] = v;
		if (!strncmp(key, "last_slot.", 10) && !strcmp(key + 10, st_case_name(c)))
			log->last_slot[c] = v;
	}
}

int st_log_read(const char *path, struct st_log *log, char *err, size_t err_size)
{
	FILE *f = fopen(path, "re");
	char line[1024], *fl[ST_LOG_NCOLS + 2], *eq;
	size_t cap = 0;
	int lineno = 0, n, c, k, ret = 0;
	int64_t v[ST_LOG_NCOLS];

	memset(log, 0, sizeof(*log));
	for (c = 0; c <= ST_NCASES; c++)
		log->first_slot[c] = log->last_slot[c] = -1;
	if (!f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (lineno == 1 && strcmp(line, ST_LOG_HEADER)) {
			snprintf(err, err_size, "%s:1: not an injector log (no '%s')", path, ST_LOG_HEADER);
			ret = -EINVAL;
			break;
		}
		if (line[0] == '#') {
			eq = strchr(line, '=');
			if (eq && line[1] == ' ') {
				*eq = '\0';
				st_log_key(log, line + 2, eq + 1);
			}
			continue;
		}
		if (!strcmp(line, ST_LOG_COLUMNS) || !line[0])
			continue;
		n = st_split(line, fl, ST_LOG_NCOLS + 2);
		for (c = 1; c <= ST_NCASES && strcmp(st_case_name(c), fl[0]); c++)
			;
		for (k = 2; n == ST_LOG_NCOLS && k < ST_LOG_NCOLS && !st_num(fl[k], &v[k]); k++)
			;
		if (n != ST_LOG_NCOLS || c > ST_NCASES || k < ST_LOG_NCOLS) {
			snprintf(err, err_size, "%s:%d: bad injection row", path, lineno);
			ret = -EINVAL;
			break;
		}
		if (pf_grow(&log->rows, &cap, (size_t)log->nrows + 1, sizeof(*log->rows), 256)) {
			ret = -ENOMEM;
			snprintf(err, err_size, "out of memory");
			break;
		}
		log->rows[log->nrows] = (struct st_row){ .c = c, .slot = v[2], .release_ns = v[3], .t0_ns = v[4],
							 .t1_ns = v[5], .t2_ns = v[6], .gaps_ns = v[7],
							 .pid = (int)v[8], .param = v[9], .t3_ns = v[10],
							 .cpu_ns = v[11], .t4_ns = v[12], .t5_ns = v[13],
							 .t6_ns = v[14], .pid2 = (int)v[15] };
		snprintf(log->rows[log->nrows].task, ST_TASK_MAX, "%s", fl[1]);
		log->nrows++;
	}
	if (!ret && lineno == 0) {
		snprintf(err, err_size, "%s: empty", path);
		ret = -EINVAL;
	}
	if (!ret && !log->slot_ns) {
		snprintf(err, err_size, "%s: no slot_ns in the header", path);
		ret = -EINVAL;
	}
	fclose(f);
	return ret;
}

void st_log_free(struct st_log *log)
{
	free(log->rows);
	log->rows = NULL;
	log->nrows = 0;
}

int st_jobs_read(const char *path, struct st_jobs *jobs, char *err, size_t err_size)
{
	static const char *const names[] = {
		"task", "seq", "release_ns", "start_ns", "end_ns", "latency_ns", "response_ns", "exec_ns",
		"cpu", "preemptions", "migrations", "overrun", "deadline_miss", "lost", "missed",
	};
	enum { NCOL = 15 };
	FILE *f = fopen(path, "re");
	char line[2048], *fl[32];
	int col[NCOL], lineno = 0, n, i, k, ret = 0;
	int64_t v[NCOL];
	struct st_job *j;
	size_t cap = 0;
	bool header = false;

	memset(jobs, 0, sizeof(*jobs));
	if (!f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		n = st_split(line, fl, 32);
		if (!header) {
			for (k = 0; k < NCOL; k++)
				for (col[k] = -1, i = 0; i < n; i++)
					if (!strcmp(fl[i], names[k]))
						col[k] = i;
			header = true;
			if (col[0] < 0 || col[2] < 0 || col[3] < 0 || col[4] < 0) {
				snprintf(err, err_size, "%s:%d: no task, release_ns, start_ns, end_ns columns", path, lineno);
				ret = -EINVAL;
				break;
			}
			continue;
		}
		for (k = 1; k < NCOL; k++) {
			v[k] = -1;
			if (col[k] >= 0 && (col[k] >= n || st_num(fl[col[k]], &v[k]))) {
				snprintf(err, err_size, "%s:%d: bad %s", path, lineno, names[k]);
				ret = -EINVAL;
				goto out;
			}
		}
		if (pf_grow(&jobs->v, &cap, (size_t)jobs->n + 1, sizeof(*jobs->v), 1024)) {
			snprintf(err, err_size, "out of memory");
			ret = -ENOMEM;
			break;
		}
		j = &jobs->v[jobs->n++];
		snprintf(j->task, sizeof(j->task), "%s", col[0] < n ? fl[col[0]] : "");
		j->seq = v[1];
		j->release_ns = v[2];
		j->start_ns = v[3];
		j->end_ns = v[4];
		j->latency_ns = v[5] >= 0 ? v[5] : j->start_ns - j->release_ns;
		j->response_ns = v[6] >= 0 ? v[6] : j->end_ns - j->release_ns;
		j->exec_ns = v[7];
		j->cpu = (int)v[8];
		j->preemptions = (int)v[9];
		j->migrations = (int)v[10];
		j->overrun = (int)v[11];
		j->deadline_miss = (int)v[12];
		j->lost = (int)v[13];
		j->missed = (int)v[14];
	}
out:
	if (!ret && !header) {
		snprintf(err, err_size, "%s: no column row", path);
		ret = -EINVAL;
	}
	fclose(f);
	return ret;
}

int st_joblog_read(const char *path, struct st_jobs *jobs)
{
	struct pf_joblog *jl;
	struct pf_jlrow *row;
	struct st_job *j;
	size_t cap = 0;
	int ret;

	memset(jobs, 0, sizeof(*jobs));
	if ((ret = pf_joblog_open(path, NULL, NULL, &jl)))
		return ret;
	while ((ret = pf_joblog_next(jl, NULL, NULL, &row)) > 0) {
		if (pf_grow(&jobs->v, &cap, (size_t)jobs->n + 1, sizeof(*jobs->v), 1024)) {
			ret = -pf_fail(PF_EXIT_INTERNAL, "out of memory");
			break;
		}
		j = &jobs->v[jobs->n++];
		/* what the job log has; the analysis's columns it lacks are -1 */
		*j = (struct st_job){ .seq = row->seq, .release_ns = row->release_ns, .start_ns = row->start_ns,
				      .end_ns = row->end_ns, .latency_ns = row->start_ns - row->release_ns,
				      .response_ns = row->end_ns - row->release_ns, .exec_ns = -1, .cpu = row->cpu,
				      .preemptions = -1, .migrations = -1, .overrun = -1, .deadline_miss = -1,
				      .lost = -1, .missed = (int)row->missed };
		snprintf(j->task, sizeof(j->task), "%.*s", (int)sizeof(j->task) - 1, row->task);	/* names are 15 bytes at most */
	}
	pf_joblog_close(jl);
	return -ret;
}

void st_jobs_free(struct st_jobs *jobs)
{
	free(jobs->v);
	jobs->v = NULL;
	jobs->n = 0;
}

/* ---- look-ups ---- */

/* st_job_at - the job of 'task' released at release_ns, NULL when there is none */
static const struct st_job *st_job_at(const struct st_jobs *jobs, const char *task, int64_t release_ns)
{
	int i;

	for (i = 0; jobs && i < jobs->n; i++)
		if (jobs->v[i].release_ns == release_ns && !strcmp(jobs->v[i].task, task))
			return &jobs->v[i];
	return NULL;
}

/* st_job_after - the job of 'task' released first after release_ns, NULL when none */
static const struct st_job *st_job_after(const struct st_jobs *jobs, const char *task, int64_t release_ns)
{
	const struct st_job *best = NULL;
	int i;

	for (i = 0; jobs && i < jobs->n; i++)
		if (jobs->v[i].release_ns > release_ns && !strcmp(jobs->v[i].task, task) &&
		    (!best || jobs->v[i].release_ns < best->release_ns))
			best = &jobs->v[i];
	return best;
}

/* st_task - the tasks[] object of results.json named 'name', NULL when absent */
static json_t *st_task(json_t *results, const char *name)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(results, "tasks"), i, t)
		if (json_is_string(json_object_get(t, "name")) && !strcmp(json_string_value(json_object_get(t, "name")), name))
			return t;
	return NULL;
}

/* st_culprit - the culprit entry of a task's job released at release_ns, NULL when not kept */
static json_t *st_culprit(json_t *results, const char *task, int64_t release_ns)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(st_task(results, task), "culprits"), i, c)
		if (json_integer_value(json_object_get(c, "release_ns")) == release_ns)
			return c;
	return NULL;
}

/* st_int - an integer member, or 'dflt' when it is absent or null */
static int64_t st_int(json_t *o, const char *key, int64_t dflt)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : dflt;
}

/* st_slot_of - the app slot of a release */
static int64_t st_slot_of(const struct st_log *log, int64_t release_ns)
{
	return (release_ns - log->t0_ns + log->slot_ns / 2) / log->slot_ns;
}

/* st_in_phase - is a release inside case c's slots, with 'after' slots of tail */
static bool st_in_phase(const struct st_log *log, int c, int64_t release_ns, int64_t after)
{
	int64_t k = st_slot_of(log, release_ns);

	return log->first_slot[c] >= 0 && k >= log->first_slot[c] && k <= log->last_slot[c] + after;
}

/* ---- results ---- */

/* st_err - add one error sample; remembers the worst; 0 or -ENOMEM */
static int st_err(struct st_result *r, int64_t e, int row)
{
	size_t cap = (size_t)r->cap;

	if (pf_grow(&r->err, &cap, (size_t)r->nerr + 1, sizeof(*r->err), 128))
		return -ENOMEM;
	r->cap = (int)cap;
	r->err[r->nerr++] = e;
	if (r->worst < 0 || llabs(e) > llabs(r->worst_err)) {
		r->worst = row;
		r->worst_err = e;
	}
	return 0;
}

/* st_check - record an exact count */
static void st_check(struct st_result *r, const char *name, int64_t expected, int64_t measured)
{
	if (r->nchecks < ST_CHECKS_MAX)
		r->check[r->nchecks++] = (struct st_check){ name, expected, measured };
}

static int st_cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int64_t st_pct(const int64_t *sorted, int n, double q)
{
	int64_t rank;

	if (n <= 0)
		return 0;
	rank = (int64_t)(q * n + 0.999999);
	if (rank < 1)
		rank = 1;
	return sorted[rank > n ? n - 1 : rank - 1];
}

/* st_abs_p99 - p99 of |error| */
static int64_t st_abs_p99(const int64_t *err, int n)
{
	int64_t *a = malloc(sizeof(*a) * (size_t)(n ? n : 1)), p;
	int i;

	if (!a)
		return INT64_MAX;
	for (i = 0; i < n; i++)
		a[i] = llabs(err[i]);
	qsort(a, (size_t)n, sizeof(*a), st_cmp64);
	p = st_pct(a, n, 0.99);
	free(a);
	return p;
}

/* st_dist_json - {count, min, p50, p99, max} of a set of samples (sorts them) */
static json_t *st_dist_json(int64_t *v, int n, const char *unit)
{
	if (n <= 0)
		return json_pack("{s:s, s:i, s:n, s:n, s:n, s:n}", "unit", unit, "count", 0, "min", "p50", "p99", "max");
	qsort(v, (size_t)n, sizeof(*v), st_cmp64);
	return json_pack("{s:s, s:i, s:I, s:I, s:I, s:I}", "unit", unit, "count", n, "min", (json_int_t)v[0],
			 "p50", (json_int_t)st_pct(v, n, 0.5), "p99", (json_int_t)st_pct(v, n, 0.99),
			 "max", (json_int_t)v[n - 1]);
}

/* st_verdict - pass when enough injections were valid, |error| p99 is within the goal and every count holds */
static void st_verdict(struct st_result *r)
{
	int i;

	/* half the injections valid; the lost case's 'injections' are loss windows, its samples the jobs overlapping one */
	r->pass = r->run && r->injections > 0 && (r->c == ST_LOST || r->nerr * 2 >= r->injections);
	if (r->goal_ns && r->nerr)
		r->pass = r->pass && st_abs_p99(r->err, r->nerr) <= r->goal_ns;
	for (i = 0; i < r->nchecks; i++)
		if (r->check[i].expected != r->check[i].measured)
			r->pass = false;
}

/* ---- the cases ---- */

/*
 * st_case_block - a hog spun from before the release until after the
 * victim's job was released; the victim started after it. The activation
 * latency against the job's own start stamp (t3 - r); the hog against the
 * instants the trace gives it: the victim's switch-in comes after the hog's
 * last clock read, the culprit line names the hog, the decomposition adds up
 */
static int st_case_block(const struct st_inputs *in, struct st_result *r)
{
	const struct st_log *log = in->log;
	int64_t *cul_err, *exit_ns, *start_ns, lat, d, sw;
	int ncul = 0, nexit = 0, nstart = 0, named = 0, adds = 0, kept = 0, after = 0, i, ret = 0;
	size_t k;
	const struct st_job *j;
	json_t *c, *top;

	cul_err = calloc((size_t)log->nrows + 1, sizeof(*cul_err));
	exit_ns = calloc((size_t)log->nrows + 1, sizeof(*exit_ns));
	start_ns = calloc((size_t)log->nrows + 1, sizeof(*start_ns));
	if (!cul_err || !exit_ns || !start_ns) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < log->nrows; i++) {
		const struct st_row *w = &log->rows[i];

		if (w->c != ST_BLOCK)
			continue;
		r->injections++;
		j = st_job_at(in->jobs, w->task, w->release_ns);
		/*
		 * valid, by the injector's stamps: the hog ran over the release, saw the
		 * victim's job released (t2) while it spun and spun on long enough for
		 * the wakeup to land, and the job stamped its start (t3) after the hog
		 */
		if (!j || w->t0_ns >= w->release_ns || !w->t2_ns || w->t1_ns < w->t2_ns + ST_WAKE_MARGIN_NS ||
		    w->t3_ns <= w->t1_ns) {
			r->invalid++;
			continue;
		}
		if ((ret = st_err(r, j->latency_ns - (w->t3_ns - w->release_ns), i)))
			break;
		start_ns[nstart++] = w->t3_ns - w->t1_ns;
		c = st_culprit(in->results, w->task, w->release_ns);
		if (!c)
			continue;	/* not among the task's worst --top activations: no culprit line */
		kept++;
		/* the hog among the contributors (a foreign realtime thread may have taken more) */
		for (k = 0; (top = json_array_get(json_object_get(c, "contributors"), k)); k++)
			if (!strcmp(json_string_value(json_object_get(top, "kind")) ?: "", "thread") &&
			    st_int(top, "id", -1) == w->pid)
				break;
		if (top) {
			named++;
			cul_err[ncul++] = st_int(top, "duration_ns", 0) - (w->t1_ns - w->t2_ns);
		}
		lat = st_int(c, "latency_ns", -1);
		d = st_int(c, "not_woken_ns", INT64_MIN / 4) + st_int(c, "runnable_ns", INT64_MIN / 4) +
		    st_int(c, "app_delay_ns", INT64_MIN / 4);
		adds += d == lat && lat == j->latency_ns;
		/* release -> switch-in: the instant the hog left the CPU to the victim */
		sw = lat - st_int(c, "app_delay_ns", 0);
		after += sw >= w->t1_ns - w->release_ns;
		exit_ns[nexit++] = sw - (w->t1_ns - w->release_ns);
	}
	st_check(r, "culprit line kept names the hog (its pid among the contributors)", kept, named);
	st_check(r, "decomposition adds up to the latency", kept, adds);
	st_check(r, "victim switched in after the hog's last clock read", kept, after);
	r->extra = json_pack("{s:o, s:o, s:o}", "culprit_duration_error_ns", st_dist_json(cul_err, ncul, "ns"),
			     "hog_end_to_switch_in_ns", st_dist_json(exit_ns, nexit, "ns"),
			     "hog_end_to_start_ns", st_dist_json(start_ns, nstart, "ns"));
	snprintf(r->note, sizeof(r->note), "expected activation latency = the job's own start stamp (its clock read "
		 "right after its start marker, t3) - release; invalid: the hog did not start before the release, did "
		 "not see the victim released while it spun, or the job started before the hog's end; culprit lines "
		 "exist for the task's 1000 worst activations (%d of the valid injections)", kept);
out:
	free(cul_err);
	free(exit_ns);
	free(start_ns);
	return ret;
}

/* st_injected - is a row an injection (a preemption phase's row of param 0 is a clean job's baseline) */
static bool st_injected(const struct st_row *w)
{
	return !(w->c == ST_PREEMPT && w->param == 0);
}

/* st_median_clean - median run (end - start) and execution time of the case's jobs without an injection */
static void st_median_clean(const struct st_inputs *in, int c, const char *task, int64_t *resp, int64_t *exec,
			    int *nclean, int *clean_ok)
{
	const struct st_log *log = in->log;
	int64_t *a = calloc((size_t)in->jobs->n + 1, sizeof(*a)), *b = calloc((size_t)in->jobs->n + 1, sizeof(*b));
	int n = 0, i, k;
	bool injected;

	*resp = *exec = 0;
	*nclean = *clean_ok = 0;
	for (i = 0; a && b && i < in->jobs->n; i++) {
		const struct st_job *j = &in->jobs->v[i];

		if (strcmp(j->task, task) || !st_in_phase(log, c, j->release_ns, 0))
			continue;
		for (injected = false, k = 0; k < log->nrows && !injected; k++)
			injected = log->rows[k].c == c && log->rows[k].release_ns == j->release_ns &&
				   st_injected(&log->rows[k]);
		if (injected)
			continue;
		(*nclean)++;
		*clean_ok += j->preemptions == 0;
		a[n] = j->response_ns - j->latency_ns;
		b[n++] = j->exec_ns;
	}
	if (n) {
		qsort(a, (size_t)n, sizeof(*a), st_cmp64);
		qsort(b, (size_t)n, sizeof(*b), st_cmp64);
		*resp = st_pct(a, n, 0.5);
		*exec = st_pct(b, n, 0.5);
	}
	free(a);
	free(b);
}

/*
 * st_unexplained - what a preempted job's spin lost (t3, by its own clock)
 * that neither its thread's CPU clock (cpu_ns) nor the hog's run explains:
 * the switches to and from the hog, and time the host took its vCPU (steal:
 * out of the CPU clock, in no trace)
 */
static int64_t st_unexplained(const struct st_row *w)
{
	return w->t3_ns + ST_VICTIM_WORK_NS - w->cpu_ns - (w->t1_ns - w->t0_ns);
}

/* st_p50 - the median of n samples (a sorted copy; 0 when none), or -ENOMEM in *ret */
static int64_t st_p50(const int64_t *v, int n, int *ret)
{
	int64_t *a, m;

	if (n <= 0)
		return 0;
	a = malloc(sizeof(*a) * (size_t)n);
	if (!a) {
		*ret = -ENOMEM;
		return 0;
	}
	memcpy(a, v, sizeof(*a) * (size_t)n);
	qsort(a, (size_t)n, sizeof(*a), st_cmp64);
	m = st_pct(a, n, 0.5);
	free(a);
	return m;
}

/*
 * st_case_preempt - a hog ran t0..t1 inside the job. The response time is
 * compared with the job's own end stamp (the executive's clock read before
 * its end marker; the clean jobs give the constant path between the two).
 * Each job of the phase, preempted or clean, also measured what it lost from
 * its start stamp on (t3) and the CPU time the kernel gave its thread over
 * its spin (cpu_ns), so the clean jobs give the job's constant parts: the
 * response grows by t3 (latency + median(run - t3) + t3), the execution time
 * is median(exec - cpu_ns) + cpu_ns: the hog's run is in the first, not in
 * the second. The growth is checked at its median, the execution time per
 * job against the hog's run; its error against the CPU clock is a figure:
 * the clock counts a tick or an IPI inside the job, the execution time does
 * not, and where the ticks fall is fixed by the slots (half the jobs, or
 * none, on this VM), so no statistic of it is a check.
 * Exactly these jobs have one preemption.
 */
static int st_case_preempt(const struct st_inputs *in, struct st_result *r)
{
	const struct st_log *log = in->log;
	int64_t resp0, exec0, base, cbase, ebase, ubase, *exec_err, *off_err, *grow_err, *b, *cb, *eb, *u;
	int nclean, clean_ok, one = 0, nexec = 0, nb = 0, nu = 0, not_hog = 0, stalled = 0, i, ret = 0;
	const struct st_job *j, *jl;
	size_t n = (size_t)log->nrows + 1;

	exec_err = calloc(n, sizeof(*exec_err));
	off_err = calloc(n, sizeof(*off_err));
	grow_err = calloc(n, sizeof(*grow_err));
	b = calloc(n, sizeof(*b));
	cb = calloc(n, sizeof(*cb));
	eb = calloc(n, sizeof(*eb));
	u = calloc(n, sizeof(*u));
	if (!exec_err || !off_err || !grow_err || !b || !cb || !eb || !u) {
		ret = -ENOMEM;
		goto out;
	}
	st_median_clean(in, ST_PREEMPT, ST_TASK_VICTIM, &resp0, &exec0, &nclean, &clean_ok);
	for (i = 0; i < log->nrows; i++) {
		const struct st_row *w = &log->rows[i];

		if (w->c != ST_PREEMPT || st_injected(w) || !(j = st_job_at(in->jobs, w->task, w->release_ns)) ||
		    !(jl = st_job_at(in->joblog, w->task, w->release_ns)))
			continue;
		b[nb] = j->response_ns - j->latency_ns - w->t3_ns;
		cb[nb] = j->exec_ns - w->cpu_ns;
		eb[nb++] = j->end_ns - jl->end_ns;
	}
	for (i = 0; i < log->nrows; i++)
		if (log->rows[i].c == ST_PREEMPT && st_injected(&log->rows[i]) && log->rows[i].cpu_ns)
			u[nu++] = st_unexplained(&log->rows[i]);
	ubase = st_p50(u, nu, &ret);
	base = st_p50(b, nb, &ret);
	cbase = st_p50(cb, nb, &ret);
	ebase = st_p50(eb, nb, &ret);
	for (i = 0; i < log->nrows && !ret; i++) {
		const struct st_row *w = &log->rows[i];

		if (w->c != ST_PREEMPT || !st_injected(w))
			continue;
		r->injections++;
		j = st_job_at(in->jobs, w->task, w->release_ns);
		jl = st_job_at(in->joblog, w->task, w->release_ns);
		/*
		 * valid: the hog woke while the job ran (the executive's own start and
		 * end), the job measured what it lost (its spin ran its whole work
		 * before its wall-clock cap: cpu_ns set), the phase had a baseline
		 */
		if (!j || !jl || !(jl->start_ns < w->t0_ns && w->t0_ns < jl->end_ns) || !w->cpu_ns || !nb) {
			r->invalid++;
			continue;
		}
		if ((ret = st_err(r, j->end_ns - jl->end_ns - ebase, i)))
			break;
		grow_err[nexec] = j->response_ns - (j->latency_ns + base + w->t3_ns);
		exec_err[nexec] = j->exec_ns - (cbase + w->cpu_ns);
		if (st_unexplained(w) - ubase > ST_STALL_NS)
			stalled++;	/* the host took the vCPU: not the job's, yet in its execution time */
		else
			not_hog += exec_err[nexec] < w->t1_ns - w->t0_ns;
		/* the job's time off the CPU (trace) beyond the hog's own run (injector): the hog's switch paths */
		off_err[nexec++] = (j->response_ns - j->latency_ns - j->exec_ns) - (w->t1_ns - w->t0_ns);
		one += j->preemptions == 1;
	}
	st_check(r, "preempted jobs with 1 preemption", r->nerr, one);
	st_check(r, "other jobs with 0 preemptions", nclean, clean_ok);
	if (nexec) {
		st_check(r, "response time grows by what the job lost, the hog's run (|error| p50 within the goal)", 1,
			 llabs(st_p50(grow_err, nexec, &ret)) <= r->goal_ns);
		st_check(r, "the hog's run is in no job's execution time (error < the hog's run; jobs the host did not stall)",
			 nexec - stalled, not_hog);
	}
	r->extra = json_pack("{s:i, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o}", "clean_jobs_measured", nb,
			     "jobs_stalled_by_the_host", stalled, "unexplained_loss_median_ns", (json_int_t)ubase,
			     "clean_end_marker_less_end_stamp_median_ns", (json_int_t)ebase,
			     "clean_run_less_lost_median_ns", (json_int_t)base,
			     "clean_exec_less_cpu_median_ns", (json_int_t)cbase,
			     "clean_run_median_ns", (json_int_t)resp0, "clean_exec_median_ns", (json_int_t)exec0,
			     "response_growth_error_ns", st_dist_json(grow_err, nexec, "ns"),
			     "exec_time_error_ns", st_dist_json(exec_err, nexec, "ns"),
			     "off_cpu_minus_hog_run_ns", st_dist_json(off_err, nexec, "ns"));
	snprintf(r->note, sizeof(r->note), "expected response time = the job's own end stamp - release + the clean "
		 "jobs' median of (end marker - end stamp); it grows by what the job lost (t3, at p50); the execution "
		 "time does not grow by the hog's run (per job; its error against the thread's CPU time is the figure "
		 "exec_time_error_ns); invalid: the hog did not wake inside the job, or the job's spin did not run its "
		 "work before its wall-clock cap (what it lost unknown)");
out:
	free(exec_err);
	free(off_err);
	free(grow_err);
	free(b);
	free(cb);
	free(eb);
	free(u);
	return ret;
}

/*
 * st_case_timer - a hog spun over the tick's release on the tick's CPU, above
 * the tick. The tick's timer (a realtime task's sleep: a hard timer on
 * PREEMPT_RT too) expired in the first interruption of the hog's spin that
 * ended at or after the release: the decomposition's timer expiry delay (the
 * expiry pass's clock read - r) lies between the hog's last read before it
 * (t2) and its first after (t4). Error: how far the measured expiry lies
 * outside [t2 - r, t4 - r] (0 inside); the interval's width, the truth's own
 * uncertainty, and the expiry's place in it are figures.
 */
static int st_case_timer(const struct st_inputs *in, struct st_result *r)
{
	const struct st_log *log = in->log;
	int64_t *lat_err, *irq_err, *width, ted, lo, hi;
	int nlat = 0, i, ret = 0;
	const struct st_job *j;
	json_t *c;

	lat_err = calloc((size_t)log->nrows + 1, sizeof(*lat_err));
	irq_err = calloc((size_t)log->nrows + 1, sizeof(*irq_err));
	width = calloc((size_t)log->nrows + 1, sizeof(*width));
	if (!lat_err || !irq_err || !width) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < log->nrows; i++) {
		const struct st_row *w = &log->rows[i];

		if (w->c != ST_TIMER)
			continue;
		r->injections++;
		j = st_job_at(in->jobs, w->task, w->release_ns);
		c = st_culprit(in->results, w->task, w->release_ns);
		ted = st_int(c, "timer_expiry_delay_ns", INT64_MIN);
		/* valid: the hog spun over the release, saw an interruption end at or after it, the job has a timer */
		if (!j || w->t0_ns >= w->release_ns || !w->t2_ns || !w->t4_ns || ted == INT64_MIN) {
			r->invalid++;
			continue;
		}
		lo = w->t2_ns - w->release_ns;
		hi = w->t4_ns - w->release_ns;
		if ((ret = st_err(r, ted < lo ? ted - lo : ted > hi ? ted - hi : 0, i)))
			break;
		lat_err[nlat] = j->latency_ns - (w->t1_ns - w->release_ns);
		width[nlat] = hi - lo;
		irq_err[nlat++] = ted - lo;
	}
	r->extra = json_pack("{s:o, s:o, s:o}", "latency_error_ns", st_dist_json(lat_err, nlat, "ns"),
			     "interruption_ns", st_dist_json(width, nlat, "ns"),
			     "expiry_minus_interruption_ns", st_dist_json(irq_err, nlat, "ns"));
	snprintf(r->note, sizeof(r->note), "expected timer expiry delay inside the hog's interruption at the release "
		 "[t2 - r, t4 - r] (the tick's timer expires in it); error = the distance outside it (0 inside; its "
		 "width is the figure interruption_ns); invalid: the hog did not spin over the release, saw no "
		 "interruption end at or after it, or no culprit with a timer for the job");
out:
	free(lat_err);
	free(irq_err);
	free(width);
	return ret;
}

/*
 * st_overran_slot - did a base-rate job of the job log (released on a slot
 * boundary: every task of the selftest but the event task) end, by its own
 * end stamp, after the end of its slot
 */
static bool st_overran_slot(const struct st_log *log, const struct st_job *jl)
{
	return strcmp(jl->task, ST_TASK_EKF) && (jl->release_ns - log->t0_ns) % log->slot_ns == 0 &&
	       jl->end_ns > jl->release_ns + log->slot_ns;
}

/*
 * st_case_overrun - jobs given 1.2 periods of extra work: overruns, deadline
 * misses, missed activations and slot overruns counted exactly. Expected
 * from every job's own end stamp in the case's slots (job log), the injected
 * ones and any other the machine made late (under emulation a clean job ends
 * milliseconds late now and then: it overran, and the analysis must say so)
 */
static int st_case_overrun(const struct st_inputs *in, struct st_result *r)
{
	const struct st_log *log = in->log;
	int64_t exp_ovr = 0, exp_miss = 0, exp_skip = 0, exp_slots = 0, ovr = 0, miss = 0, skip = 0, jl_skip = 0;
	int64_t k, T = log->slot_ns, dl, end, slots, first = log->first_slot[ST_OVERRUN];
	const struct st_job *j, *jl, *next;
	json_t *t = st_task(in->results, ST_TASK_OVR), *v;
	size_t n;
	int i, ret;
	bool *late;

	if (first < 0)
		return 0;
	late = calloc((size_t)(log->last_slot[ST_OVERRUN] + 4 - first), sizeof(*late));
	if (!late)
		return -ENOMEM;
	dl = st_int(t, "deadline_ns", T);
	for (i = 0; i < log->nrows; i++) {
		const struct st_row *w = &log->rows[i];

		if (w->c != ST_OVERRUN)
			continue;
		r->injections++;
		j = st_job_at(in->jobs, w->task, w->release_ns);
		jl = st_job_at(in->joblog, w->task, w->release_ns);
		if (!j) {
			r->invalid++;
			continue;
		}
		/* the job's own end stamp (a stall after the extra work moves it on), else the work's end */
		end = jl ? jl->end_ns : w->t1_ns;
		if ((ret = st_err(r, j->overrun - (end > w->release_ns + T), i))) {
			free(late);
			return ret;
		}
	}
	/* every job of the case's slots: by its own end stamp (job log), and as the trace has it */
	for (i = 0; i < in->joblog->n; i++) {
		jl = &in->joblog->v[i];
		if (!st_in_phase(log, ST_OVERRUN, jl->release_ns, 3))
			continue;
		k = st_slot_of(log, jl->release_ns) - first;
		if (st_overran_slot(log, jl) && !late[k]) {
			exp_slots++;	/* one per slot, however many of its jobs ran late */
			late[k] = true;
		}
		if (strcmp(jl->task, ST_TASK_OVR))
			continue;
		exp_ovr += jl->end_ns > jl->release_ns + T;
		exp_miss += jl->end_ns - jl->release_ns > dl;
		/*
		 * the releases the executive did not make before the task's next job:
		 * those its overrun took (floor((e - r) / T)) and any slot a late tick
		 * skipped (under emulation the tick stalls for slots on end)
		 */
		if ((next = st_job_after(in->joblog, jl->task, jl->release_ns))) {
			exp_skip += (next->release_ns - jl->release_ns + T / 2) / T - 1;
			jl_skip += next->missed;
		}
	}
	for (i = 0; i < in->jobs->n; i++) {
		j = &in->jobs->v[i];
		if (strcmp(j->task, ST_TASK_OVR) || !st_in_phase(log, ST_OVERRUN, j->release_ns, 3))
			continue;
		ovr += j->overrun > 0;
		miss += j->deadline_miss > 0;
		/* the releases the task missed after this job: up to its next job */
		if ((next = st_job_after(in->jobs, j->task, j->release_ns)))
			skip += (next->release_ns - j->release_ns + T / 2) / T - 1;
	}
	/*
	 * slot overruns: the analysis's count, less those its list (slot 0 = the
	 * first base-rate release, t0) places outside the case's slots
	 */
	slots = st_int(json_object_get(in->results, "slots"), "overruns", 0);
	json_array_foreach(json_object_get(json_object_get(in->results, "slots"), "overrun_slots"), n, v) {
		k = json_integer_value(v);
		slots -= k < log->first_slot[ST_OVERRUN] || k > log->last_slot[ST_OVERRUN] + 3;
	}
	st_check(r, "overruns", exp_ovr, ovr);
	st_check(r, "deadline misses", exp_miss, miss);
	st_check(r, "missed activations (trace)", exp_skip, skip);
	st_check(r, "missed activations (job log, none resynchronised silently)", exp_skip, jl_skip);
	st_check(r, "slot overruns", exp_slots, slots);
	snprintf(r->note, sizeof(r->note), "expected from each job's own end stamp e in the case's slots (job log; "
		 "the injected ones and any the machine made late): overrun when e > r + T, miss when e - r > D, "
		 "releases missed before the task's next job: the job log's release gap (its overrun's floor((e - r) "
		 "/ T) and any slot a late tick skipped), a slot overrun where a base-rate job ended after its slot; "
		 "an injection's error: its job's overrun (trace) - (e > r + T)");
	free(late);
	return 0;
}

/* st_case_migrate - jobs that moved themselves to the other CPU: one migration each, none in the others */
static int st_case_migrate(const struct st_inputs *in, struct st_result *r)
{
	const struct st_log *log = in->log;
	int64_t exp_total = 0, total = 0, want;
	int jobs = 0, right = 0, i, k, row, ret;
	const struct st_job *j;

	for (i = 0; i < log->nrows; i++)
		if (log->rows[i].c == ST_MIGRATE) {
			r->injections++;
			r->invalid += log->rows[i].t2_ns == log->rows[i].param;	/* it did not change CPU */
		}
	for (i = 0; i < in->jobs->n; i++) {
		j = &in->jobs->v[i];
		if (strcmp(j->task, ST_TASK_MIG) || !st_in_phase(log, ST_MIGRATE, j->release_ns, 1))
			continue;
		for (row = -1, k = 0; k < log->nrows; k++)
			if (log->rows[k].c == ST_MIGRATE && log->rows[k].release_ns == j->release_ns)
				row = k;
		want = row >= 0 && log->rows[row].t2_ns != log->rows[row].param;
		jobs++;
		right += j->migrations == want;
		exp_total += want;
		total += j->migrations;
		if (row >= 0 && want && (ret = st_err(r, j->migrations - want, row)))
			return ret;
	}
	st_check(r, "migrations", exp_total, total);
	st_check(r, "jobs with the right count", jobs, right);
	snprintf(r->note, sizeof(r->note), "expected one migration in each job that moved itself (the injector's "
		 "CPU before and after), none in the case's other jobs");
	return 0;
}

/*
 * st_case_event - a pipe write at W woke the reader, which released st_ekf
 * at W (the event's own time stamp): the job released at W, its reported
 * latency against its own start stamp (t3) - W
 */
static int st_case_event(const struct st_inputs *in, struct st_result *r)
{
	const struct st_log *log = in->log;
	int64_t *trig;
	const struct st_job *j;
	int i, ntrig = 0, ran = 0, ret = 0;

	trig = calloc((size_t)log->nrows + 1, sizeof(*trig));
	if (!trig)
		return -ENOMEM;
	for (i = 0; i < log->nrows; i++) {
		const struct st_row *w = &log->rows[i];

		if (w->c != ST_EVENT)
			continue;
		r->injections++;
		trig[ntrig++] = w->t1_ns - w->release_ns;	/* W -> the reader had the event */
		j = st_job_at(in->jobs, ST_TASK_EKF, w->release_ns);
		/* valid: the job stamped its start (it ran for this event) */
		if (!w->t3_ns) {
			r->invalid++;
			continue;
		}
		ran++;
		if (!j)
			continue;	/* the job ran, the analysis has none released at W: the check below fails */
		if ((ret = st_err(r, j->latency_ns - (w->t3_ns - w->release_ns), i)))
			break;
	}
	st_check(r, "jobs released at the event's time stamp", ran, r->nerr);
	r->extra = json_pack("{s:o}", "write_to_reader_ns", st_dist_json(trig, ntrig, "ns"));
	snprintf(r->note, sizeof(r->note), "expected event-to-start latency = the job's own start stamp (its clock "
		 "read right after its start marker, t3) - the injector's write time W, the release the reader gave "
		 "the job (app_task_trigger_at); invalid: the job did not run for the event");
	free(trig);
	return ret;
}

/* st_overlaps - does a job's [release, end] overlap a lost-event window */
static bool st_overlaps(const struct st_job *j, json_t *windows)
{
	json_t *w;
	size_t i;

	json_array_foreach(windows, i, w)
		if (j->release_ns <= st_int(w, "end_ns", 0) && j->end_ns >= st_int(w, "start_ns", 0))
			return true;
	return false;
}

/* st_joblog_missed - the releases a task's job log says it skipped */
static int64_t st_joblog_missed(const struct st_jobs *jl, const char *task)
{
	int64_t n = 0;
	int i;

	for (i = 0; i < jl->n; i++)
		if (!strcmp(jl->v[i].task, task))
			n += jl->v[i].missed;
	return n;
}

/*
 * st_case_lost - the storm's trace: lost events as the recorder counted them,
 * per CPU, every job that overlaps a loss flagged, and every release a loss
 * hid (the gap between two traced jobs overlaps a window) not called missed:
 * the trace's missed activations are never more than the job log's. The
 * samples are the traced jobs overlapping a window and the hidden releases
 * (with one CPU, most jobs under the storm are hidden).
 */
static int st_case_lost(const struct st_inputs *in, struct st_result *r)
{
	json_t *le = json_object_get(in->lost_results, "lost_events");
	json_t *windows = json_object_get(le, "windows"), *v;
	int64_t total = st_int(le, "total", -1), by_cpu = 0, overlap = 0, flagged = 0, all = 0, listed = 0, ret;
	int64_t excess = 0, h, extra;
	size_t i;

	if (!in->lost_results || !in->lost_jobs || !in->lost_joblog) {
		snprintf(r->note, sizeof(r->note), "the storm run's results are missing");
		return 0;
	}
	json_array_foreach(json_object_get(json_object_get(in->lost_results, "trace"), "lost_by_cpu"), i, v)
		by_cpu += json_integer_value(v);
	json_array_foreach(json_object_get(in->lost_results, "tasks"), i, v) {
		listed += st_int(v, "lost_events_jobs", 0);
		h = st_int(v, "hidden_releases", 0);
		extra = st_int(v, "missed_activations", 0) -
			st_joblog_missed(in->lost_joblog, json_string_value(json_object_get(v, "name")) ?: "");
		excess += extra > 0 ? extra : 0;
		for (; h > 0; h--)	/* each hidden release a sample: not called missed */
			if (st_err(r, 0, -1))
				return -ENOMEM;
	}
	r->injections = (int)json_array_size(windows);
	for (i = 0; i < (size_t)in->lost_jobs->n; i++) {
		const struct st_job *j = &in->lost_jobs->v[i];
		bool o = st_overlaps(j, windows);

		overlap += o;
		flagged += o && j->lost > 0;
		all += j->lost > 0;
		if (o && (ret = st_err(r, (j->lost > 0) - 1, -1)))
			return (int)ret;
	}
	st_check(r, "lost events (analysis = recorder)", in->lost_recorded, total);
	st_check(r, "lost events per CPU add up", total, by_cpu);
	st_check(r, "jobs overlapping a loss flagged", overlap, flagged);
	st_check(r, "flagged jobs: results.json = results-jobs.csv", all, listed);
	st_check(r, "missed activations the job log does not have (hidden by a loss)", 0, excess);
	if (total <= 0)
		st_check(r, "events were lost (the storm overflowed the ring)", 1, 0);
	snprintf(r->note, sizeof(r->note), "a storm of scheduler events under a tiny ring buffer; injections are the "
		 "lost-event windows; the recorder's count is the kernel's per-CPU statistics%s",
		 json_is_true(json_object_get(le, "windows_truncated")) ? " (windows truncated: overlaps are a lower bound)" : "");
	return 0;
}

/* st_perf_value - a '# key=value' number of flightapp-perf's output, NAN-free: -1 when absent */
static double st_perf_value(const char *path, const char *key)
{
	char line[512];
	size_t n = strlen(key);
	double v = -1;
	FILE *f = path ? fopen(path, "re") : NULL;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "# ", 2) && !strncmp(line + 2, key, n) && line[2 + n] == '=')
			v = strtod(line + 3 + n, NULL);
	if (f)
		fclose(f);
	return v;
}

/*
 * st_case_probe - what the instrumentation costs a job: off, job log only,
 * markers on (flightapp-perf on this machine), against the bench goals
 */
static int st_case_probe(const struct st_inputs *in, struct st_result *r)
{
	double jl = st_perf_value(in->perf_path, "instrumentation_per_job_ns");
	double jl_nocpu = st_perf_value(in->perf_path, "instrumentation_per_job_without_cpu_time_ns");
	double mk = st_perf_value(in->perf_path, "marker_app_ns");
	double bare = st_perf_value(in->perf_path, "marker_bare_write_ns");

	r->unit = "count";	/* the figures are in 'figures'; the verdict is on the bench goals */
	if (jl < 0 || jl_nocpu < 0 || mk < 0) {
		snprintf(r->note, sizeof(r->note), "flightapp-perf's figures are missing (%s)",
			 in->perf_path ? in->perf_path : "not run");
		return 0;
	}
	r->injections = 1;
	st_check(r, "instrumentation per job without CPU-time reads <= 150 ns (bench goal)", 1, jl_nocpu <= 150);
	st_check(r, "marker <= 1500 ns (bench goal)", 1, mk <= 1500);
	r->extra = json_pack("{s:f, s:f, s:f, s:f, s:f}", "job_cost_off_ns", 0.0, "job_cost_joblog_ns", jl,
			     "job_cost_joblog_without_cpu_time_ns", jl_nocpu, "job_cost_markers_ns", jl + 2 * mk,
			     "marker_bare_write_ns", bare);
	snprintf(r->note, sizeof(r->note), "per job: off 0 ns, job log only %.1f ns (%.1f ns without the CPU-time "
		 "reads), markers on %.1f ns (2 markers of %.1f ns; a bare write %.1f ns)", jl, jl_nocpu, jl + 2 * mk,
		 mk, bare);
	return st_err(r, 0, -1);
}

/*
 * st_case_agree - activation latency from the trace against the job log,
 * job by job, and the analysis's own agreement figures against that
 */
static int st_case_agree(const struct st_inputs *in, struct st_result *r)
{
	int64_t matched = 0, both = 0, maxabs = 0, amax = -1, d;
	const struct st_job *jl;
	json_t *t;
	size_t i;
	int k, ret;

	r->unit = "ns";
	for (k = 0; k < in->jobs->n; k++) {
		const struct st_job *j = &in->jobs->v[k];

		jl = st_job_at(in->joblog, j->task, j->release_ns);
		r->injections++;
		if (!jl) {
			r->invalid++;
			continue;
		}
		both++;
		d = j->latency_ns - (jl->start_ns - jl->release_ns);
		if (llabs(d) > maxabs)
			maxabs = llabs(d);
		if ((ret = st_err(r, d, -1)))
			return ret;
	}
	json_array_foreach(json_object_get(in->results, "tasks"), i, t) {
		json_t *a = json_object_get(t, "agreement");

		matched += st_int(a, "matched", 0);
		d = st_int(json_object_get(a, "activation_latency_diff_ns"), "max", -1);
		if (d > amax)
			amax = d;
	}
	st_check(r, "jobs matched by the analysis", both, matched);
	st_check(r, "analysis max |difference| = recomputed", maxabs, amax);
	snprintf(r->note, sizeof(r->note), "error = trace - job log activation latency of the same job (every "
		 "task); invalid: a trace job the job log does not have");
	return 0;
}

/*
 * The analysis's names for a job's wait on a lock (docs/results.md, culprits:
 * PREEMPT_RT fields): in the culprit entry of the victim's job, `pi` (a
 * priority-inheritance lock: holder, the kernel priority it was boosted to,
 * its CPU time while boosted, how long the task was blocked) and `inversion`
 * (non-null: the job was woken by a lower-priority thread, its waker and how
 * long it waited); per task, `inversion_count`. Priorities are the kernel's
 * (99 - the SCHED_FIFO priority).
 */
#define ST_KEY_PI          "pi"
#define ST_KEY_HOLDER_PID  "holder_pid"
#define ST_KEY_BOOST_PRIO  "boost_prio"
#define ST_KEY_BOOSTED_NS  "boosted_ns"
#define ST_KEY_BLOCKED_NS  "blocked_ns"
#define ST_KEY_INVERSION   "inversion"
#define ST_KEY_WAKER_PID   "waker_pid"
#define ST_KEY_INV_COUNT   "inversion_count"

/*
 * st_case_pi - st_pi's job (the victim) blocked on a mutex the low-priority
 * holder took before the release, while a medium-priority hog woke inside the
 * block. Truth from the threads' own clocks: blocked from the victim's read
 * before its lock (t3) to its read after it (t4); the holder (pid) let go
 * between t1 and t2; with PTHREAD_PRIO_INHERIT (param 1) the kernel boosts
 * the holder to the victim's priority from the victim's block to the unlock
 * (t1 - t3, the holder spinning all along) and the hog (t5..t6) runs only
 * after the victim had the mutex; with PTHREAD_PRIO_NONE (param 0) the hog
 * runs inside the block and the holder's unlock wakes the victim: an
 * inversion. Error: the blocked time (`pi` or `inversion`) - (t4 - t3), on
 * the jobs with a culprit line (the task's --top worst).
 */
static int st_case_pi(const struct st_inputs *in, struct st_result *r)
{
	const struct st_log *log = in->log;
	int64_t *boost_err, boosted, blocked, inv_expected = 0;
	int nboost = 0, npi = 0, nnone = 0, holder = 0, prio = 0, held_off = 0, pi_inv = 0, inv = 0, waker = 0;
	int kept = 0, vpi = 0, i, ret = 0;
	json_t *task = st_task(in->results, ST_TASK_PI), *c, *pi, *iv;

	if (!json_object_get(task, ST_KEY_INV_COUNT)) {
		r->skip = "the analysis of this build reports no locks or inversions (results.json: no "
			  "tasks[]." ST_KEY_INV_COUNT ")";
		r->run = false;
		return 0;
	}
	boost_err = calloc((size_t)log->nrows + 1, sizeof(*boost_err));
	if (!boost_err)
		return -ENOMEM;
	for (i = 0; i < log->nrows; i++) {
		const struct st_row *w = &log->rows[i];

		if (w->c != ST_PI)
			continue;
		r->injections++;
		/* without PI the holder's unlock woke the victim whenever it blocked: an inversion, valid or not */
		inv_expected += !w->param && w->t3_ns && w->t0_ns < w->t3_ns && w->t3_ns < w->t1_ns;
		/*
		 * valid: the holder had the mutex when the victim asked (t0 < t3 < t1), the
		 * victim got it after the holder's unlock began (t4 > t1); without PI the
		 * medium hog began inside the block (t3 < t5 < t4)
		 */
		if (!w->t3_ns || !w->t4_ns || !(w->t0_ns < w->t3_ns && w->t3_ns < w->t1_ns) || w->t4_ns <= w->t1_ns ||
		    (!w->param && !(w->t3_ns < w->t5_ns && w->t5_ns < w->t4_ns))) {
			r->invalid++;
			continue;
		}
		if (w->param) {
			vpi++;
			held_off += w->t5_ns > w->t4_ns;
		}
		if (!(c = st_culprit(in->results, w->task, w->release_ns)))
			continue;	/* not among the task's --top worst: no culprit line */
		kept++;
		pi = json_object_get(c, ST_KEY_PI);
		iv = json_object_get(c, ST_KEY_INVERSION);
		if (w->param) {
			npi++;
			holder += st_int(pi, ST_KEY_HOLDER_PID, -1) == w->pid;
			prio += st_int(pi, ST_KEY_BOOST_PRIO, -1) == 99 - ST_PI_VICTIM_PRIO;
			pi_inv += json_is_object(iv);
			boosted = st_int(pi, ST_KEY_BOOSTED_NS, INT64_MIN);
			if (boosted != INT64_MIN)
				boost_err[nboost++] = boosted - (w->t1_ns - w->t3_ns);
			blocked = st_int(pi, ST_KEY_BLOCKED_NS, INT64_MIN);
		} else {
			nnone++;
			inv += json_is_object(iv);
			waker += st_int(iv, ST_KEY_WAKER_PID, -1) == w->pid;
			blocked = st_int(iv, ST_KEY_BLOCKED_NS, INT64_MIN);
		}
		if (blocked != INT64_MIN && (ret = st_err(r, blocked - (w->t4_ns - w->t3_ns), i)))
			break;
	}
	st_check(r, "PI: the medium hog held off until the victim had the mutex (the kernel boosted the holder)",
		 vpi, held_off);
	st_check(r, "PI: the culprit names the holder", npi, holder);
	st_check(r, "PI: the holder boosted to the victim's kernel priority", npi, prio);
	st_check(r, "PI: boosted time known", npi, nboost);
	st_check(r, "PI: no inversion flagged", 0, pi_inv);
	st_check(r, "none: the block flagged as an inversion", nnone, inv);
	st_check(r, "none: the inversion names the holder as the waker", nnone, waker);
	st_check(r, "inversions of the task (inversion_count)", inv_expected, st_int(task, ST_KEY_INV_COUNT, -1));
	r->extra = json_pack("{s:i, s:i, s:i, s:o}", "culprit_lines", kept, "inherit_compared", npi,
			     "none_compared", nnone, "boosted_error_ns", st_dist_json(boost_err, nboost, "ns"));
	snprintf(r->note, sizeof(r->note), "expected blocked time = the victim's clock after its lock - before it "
		 "(t4 - t3); PI: holder = the holder's pid, boost to kernel priority %d, boosted about unlock - the "
		 "victim's lock (t1 - t3, figure), no inversion; none: an inversion woken by the holder; compared on "
		 "the jobs with a culprit line (%d); invalid: the holder did not hold the mutex when the victim asked, "
		 "or (none) the medium hog did not begin inside the block", 99 - ST_PI_VICTIM_PRIO, kept);
	free(boost_err);
	return ret;
}

int st_compare(const struct st_inputs *in, struct st_result res[ST_NCASES + 1])
{
	static int (*const fn[ST_NCASES + 1])(const struct st_inputs *, struct st_result *) = {
		NULL, st_case_block, st_case_preempt, st_case_timer, st_case_overrun, st_case_migrate,
		st_case_event, st_case_lost, st_case_probe, st_case_agree, st_case_pi,
	};
	int c, ret;

	for (c = 0; c <= ST_NCASES; c++) {
		memset(&res[c], 0, sizeof(res[c]));
		res[c].c = c;
		res[c].worst = -1;
		res[c].unit = c == ST_OVERRUN || c == ST_MIGRATE || c == ST_LOST || c == ST_PROBE ? "count" : "ns";
		res[c].goal_ns = c == ST_BLOCK || c == ST_PREEMPT || c == ST_TIMER || c == ST_EVENT || c == ST_PI ?
				 ST_GOAL_NS : 0;
	}
	for (c = 1; c <= ST_NCASES; c++) {
		res[c].run = c == ST_LOST || c == ST_PROBE || (in->log && in->jobs && in->results);
		if (res[c].run && in->log && in->log->skip[c][0]) {
			res[c].run = false;	/* not on this platform: not failed */
			res[c].skip = in->log->skip[c];
		}
		if (!res[c].run)
			continue;
		ret = fn[c](in, &res[c]);
		if (ret)
			return ret;
		if (res[c].run)
			st_verdict(&res[c]);
	}
	for (c = 1; c <= ST_NCASES; c++)
		if (res[c].skip)
			res[c].pass = true;
	return 0;
}

void st_results_free(struct st_result res[ST_NCASES + 1])
{
	int c;

	for (c = 0; c <= ST_NCASES; c++) {
		free(res[c].err);
		json_decref(res[c].extra);
		res[c].err = NULL;
		res[c].extra = NULL;
	}
}

/* ---- output ---- */

/* st_worst_json - the worst injection's time stamps, to find it in the trace */
static json_t *st_worst_json(const struct st_inputs *in, const struct st_result *r)
{
	const struct st_row *w;

	if (r->worst < 0 || !in->log || r->worst >= in->log->nrows)
		return json_null();
	w = &in->log->rows[r->worst];
	return json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:i, s:I}", "task", w->task, "slot", (json_int_t)w->slot,
			 "release_ns", (json_int_t)w->release_ns, "t0_ns", (json_int_t)w->t0_ns,
			 "t1_ns", (json_int_t)w->t1_ns, "t2_ns", (json_int_t)w->t2_ns, "t3_ns", (json_int_t)w->t3_ns,
			 "pid", w->pid, "error", (json_int_t)r->worst_err);
}

json_t *st_json(const struct st_inputs *in, struct st_result res[ST_NCASES + 1])
{
	json_t *doc, *cases = json_array(), *checks, *o;
	int64_t *tmp;
	bool pass = true;
	int c, i;

	for (c = 1; c <= ST_NCASES; c++) {
		struct st_result *r = &res[c];

		checks = json_array();
		for (i = 0; i < r->nchecks; i++)
			json_array_append_new(checks, json_pack("{s:s, s:I, s:I, s:b}", "name", r->check[i].name,
								"expected", (json_int_t)r->check[i].expected,
								"measured", (json_int_t)r->check[i].measured,
								"ok", r->check[i].expected == r->check[i].measured));
		tmp = malloc(sizeof(*tmp) * (size_t)(r->nerr ? r->nerr : 1));
		if (tmp && r->nerr)
			memcpy(tmp, r->err, sizeof(*tmp) * (size_t)r->nerr);
		o = json_pack("{s:i, s:s, s:b, s:i, s:i, s:i, s:o, s:o, s:o, s:o, s:b, s:s}", "case", c,
			      "name", st_case_name(c), "run", r->run, "injections", r->injections,
			      "invalid", r->invalid, "valid", r->nerr,
			      "error", tmp ? st_dist_json(tmp, r->nerr, r->unit) : json_null(),
			      "abs_error_p99", r->nerr ? json_integer(st_abs_p99(r->err, r->nerr)) : json_null(),
			      "goal_abs_p99_ns", r->goal_ns ? json_integer(r->goal_ns) : json_null(),
			      "checks", checks, "pass", r->pass, "note", r->note);
		free(tmp);
		if (r->skip)
			json_object_set_new(o, "not_run", json_string(r->skip));
		if (!r->pass)
			json_object_set_new(o, "worst", st_worst_json(in, r));
		if (r->extra)
			json_object_set(o, "figures", r->extra);
		json_array_append_new(cases, o);
		pass = pass && r->pass;
	}
	doc = json_pack("{s:s, s:s, s:b, s:o, s:o, s:o, s:b}", "schema", "preflight-selftest/1",
			"generator", "preflight selftest " PF_VERSION, "quick", in->log && in->log->quick,
			"cpu_victim", in->log ? json_integer(in->log->cpu_victim) : json_null(),
			"cpu_tick", in->log ? json_integer(in->log->cpu_tick) : json_null(),
			"cases", cases, "pass", pass);
	return doc;
}

int st_tap(FILE *out, const struct st_inputs *in, struct st_result res[ST_NCASES + 1])
{
	int64_t *v;
	int c, i, failed = 0;

	fprintf(out, "TAP version 13\n1..%d\n", ST_NCASES);
	for (c = 1; c <= ST_NCASES; c++) {
		struct st_result *r = &res[c];

		failed += !r->pass;
		if (r->skip) {
			fprintf(out, "ok %d - selftest-%d %s # SKIP not run on this platform: %s\n", c, c, st_case_name(c),
				r->skip);
			continue;
		}
		fprintf(out, r->c == ST_LOST ? "%s %d - selftest-%d %s: %d loss windows, %d jobs overlapping one or hidden by one" :
			"%s %d - selftest-%d %s: %d injections, %d valid", r->pass ? "ok" : "not ok", c, c,
			st_case_name(c), r->injections, r->nerr);
		v = malloc(sizeof(*v) * (size_t)(r->nerr ? r->nerr : 1));
		if (v && r->nerr && strcmp(r->unit, "count")) {
			memcpy(v, r->err, sizeof(*v) * (size_t)r->nerr);
			qsort(v, (size_t)r->nerr, sizeof(*v), st_cmp64);
			fprintf(out, ", error ns min %lld p50 %lld p99 %lld max %lld", (long long)v[0],
				(long long)st_pct(v, r->nerr, 0.5), (long long)st_pct(v, r->nerr, 0.99),
				(long long)v[r->nerr - 1]);
			if (r->goal_ns)
				fprintf(out, ", |error| p99 %lld (goal <= %lld)", (long long)st_abs_p99(r->err, r->nerr),
					(long long)r->goal_ns);
		}
		free(v);
		fputc('\n', out);
		for (i = 0; i < r->nchecks; i++)
			fprintf(out, "#   %s %s: expected %lld, measured %lld\n",
				r->check[i].expected == r->check[i].measured ? "ok " : "NOT", r->check[i].name,
				(long long)r->check[i].expected, (long long)r->check[i].measured);
		if (!r->pass && r->worst >= 0 && in->log && r->worst < in->log->nrows) {
			const struct st_row *w = &in->log->rows[r->worst];

			fprintf(out, "#   worst: %s slot %lld release_ns %lld t0_ns %lld t1_ns %lld t2_ns %lld t3_ns %lld pid %d "
				"error %lld\n", w->task, (long long)w->slot, (long long)w->release_ns, (long long)w->t0_ns,
				(long long)w->t1_ns, (long long)w->t2_ns, (long long)w->t3_ns, w->pid, (long long)r->worst_err);
		}
		if (!r->pass || r->invalid)
			fprintf(out, "#   %s\n", r->note);
	}
	return failed;
}
