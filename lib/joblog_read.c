/*
 * joblog_read.c - the one reader of the app's job log (docs/joblog.md; the
 * writer is app/joblog_write.c), with libcsv, one row at a time: its version line,
 * columns and rows are checked here (a bad one is one line naming the file and
 * line), every other '#' line is handed to the caller as metadata. A plain row
 * reader for every command that reads jobs.csv (analyze, report, selftest):
 * what the rows and the metadata mean is the caller's (analysis/tasks.c:
 * tasks, slots, matching with the trace).
 */
#define _GNU_SOURCE
#include "joblog_read.h"
#include "common.h"
#include "text.h"

#include <csv.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * What a row can physically hold: no job lasts a day (the longest run, soak,
 * is 8 h), and one thread uses no more CPU than the time that passed (1 ms
 * of slack for two clocks read one after the other).
 */
#define PF_JL_MAX_JOB_NS    (86400LL * PF_NS_PER_SEC)
#define PF_JL_CPU_SLACK_NS  PF_NS_PER_MS

enum pf_jlcol { C_TASK, C_SEQ, C_RELEASE, C_START, C_END, C_CPU_NS, C_CPU, C_FLAGS, C_MISSED, C_NCOLS };

static const char *const pf_jlcol_name[C_NCOLS] = {
	"task", "seq", "release_ns", "start_ns", "end_ns", "cpu_ns", "cpu", "flags", "missed",
};

struct pf_joblog {
	const char *path;
	FILE    *f;
	struct csv_parser p;
	char    *line;
	size_t   line_cap;
	long     lineno;
	bool     in_quotes;
	bool     header_seen, version_seen;
	int      col[C_NCOLS];		/* column index of each field, -1 absent */
	int      nfields, ncols;
	char     fields[16][64];
	bool     field_long;
	bool     row_ready;
	struct pf_jlrow row;
	int      err;
	long     cut_line;		/* the last line, cut before its end (a full disk): skipped */
};

/* pf_jl_field - libcsv: one field of the current row */
static void pf_jl_field(void *s, size_t len, void *data)
{
	struct pf_joblog *jl = data;

	if (jl->nfields >= (int)PF_ARRAY_SIZE(jl->fields)) {
		jl->nfields++;
		return;
	}
	if (len >= sizeof(jl->fields[0])) {
		jl->field_long = true;
		len = sizeof(jl->fields[0]) - 1;
	}
	memcpy(jl->fields[jl->nfields], s ? s : "", s ? len : 0);
	jl->fields[jl->nfields][s ? len : 0] = '\0';
	jl->nfields++;
}

/* pf_jl_int - a whole decimal field; 0 or -1 */
static int pf_jl_int(struct pf_joblog *jl, int c, long long min, long long *out)
{
	char *end;
	const char *s;

	if (jl->col[c] < 0) {
		*out = 0;
		return 0;
	}
	s = jl->fields[jl->col[c]];
	errno = 0;
	*out = strtoll(s, &end, 0);
	if (!*s || *end || errno || *out < min) {
		jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log row: %s '%s' is not a number >= %lld",
				  jl->path, jl->lineno, pf_jlcol_name[c], s, min);
		return -1;
	}
	return 0;
}

/* pf_jl_header - map the column names */
static void pf_jl_header(struct pf_joblog *jl)
{
	int i, c;

	for (c = 0; c < C_NCOLS; c++)
		jl->col[c] = -1;
	for (i = 0; i < jl->nfields && i < (int)PF_ARRAY_SIZE(jl->fields); i++)
		for (c = 0; c < C_NCOLS; c++)
			if (!strcmp(jl->fields[i], pf_jlcol_name[c]))
				jl->col[c] = i;
	for (c = 0; c <= C_CPU_NS; c++)
		if (jl->col[c] < 0) {
			jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log header: no '%s' column",
					  jl->path, jl->lineno, pf_jlcol_name[c]);
			return;
		}
	jl->header_seen = true;
}

/* pf_jl_row - libcsv: end of a row */
static void pf_jl_row(int ch, void *data)
{
	struct pf_joblog *jl = data;
	struct pf_jlrow *row = &jl->row;
	long long v[C_NCOLS];
	char quoted[4 * sizeof(jl->fields[0])];
	int c;

	if (jl->err)
		goto out;
	if (jl->nfields == 1 && !jl->fields[0][0])
		goto out;	/* blank line */
	if (!jl->header_seen) {
		jl->ncols = jl->nfields;
		pf_jl_header(jl);
		goto out;
	}
	if (jl->nfields != jl->ncols) {
		jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log row: %d fields, the header has %d",
				  jl->path, jl->lineno, jl->nfields, jl->ncols);
		goto out;
	}
	if (jl->field_long) {
		jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log row: a field is too long",
				  jl->path, jl->lineno);
		goto out;
	}
	if (!pf_task_name_valid(jl->fields[jl->col[C_TASK]])) {
		jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log row: task name '%s' is not %s",
				  jl->path, jl->lineno, pf_quote_bytes(jl->fields[jl->col[C_TASK]], quoted,
				  sizeof(quoted)), PF_TASK_NAME_SYNTAX);
		goto out;
	}
	for (c = C_SEQ; c < C_NCOLS; c++)
		if (pf_jl_int(jl, c, c == C_CPU ? -1 : 0, &v[c]))
			goto out;
	if (v[C_SEQ] > UINT32_MAX) {
		jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log row: seq %lld is not a number < 2^32",
				  jl->path, jl->lineno, v[C_SEQ]);
		goto out;
	}
	/* a job starts at or after its release and ends after its start: a negative latency or
	 * response time is a corrupt row (columns swapped), never a measurement */
	if (v[C_START] < v[C_RELEASE] || v[C_END] < v[C_START]) {
		jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log row: times out of order (release %lld, start %lld, "
				  "end %lld): a negative %s", jl->path, jl->lineno, v[C_RELEASE], v[C_START], v[C_END],
				  v[C_START] < v[C_RELEASE] ? "activation latency (start_ns before release_ns)"
							    : "run time (end_ns before start_ns)");
		goto out;
	}
	if (v[C_END] - v[C_RELEASE] > PF_JL_MAX_JOB_NS) {
		jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log row: a job of %lld s (release %lld, end %lld) "
				  "is not possible", jl->path, jl->lineno,
				  (v[C_END] - v[C_RELEASE]) / PF_NS_PER_SEC, v[C_RELEASE], v[C_END]);
		goto out;
	}
	if (v[C_CPU_NS] > v[C_END] - v[C_START] + PF_JL_CPU_SLACK_NS) {
		jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log row: cpu_ns %lld exceeds the job's wall time "
				  "(end - start = %lld ns): one thread cannot use more CPU than time passed",
				  jl->path, jl->lineno, v[C_CPU_NS], v[C_END] - v[C_START]);
		goto out;
	}
	memcpy(row->task, jl->fields[jl->col[C_TASK]], strlen(jl->fields[jl->col[C_TASK]]) + 1);
	row->seq = (uint32_t)v[C_SEQ];
	row->release_ns = v[C_RELEASE];
	row->start_ns = v[C_START];
	row->end_ns = v[C_END];
	row->cpu_ns = v[C_CPU_NS];
	row->cpu = (int)v[C_CPU];
	row->flags = (unsigned)v[C_FLAGS];
	row->missed = (uint64_t)v[C_MISSED];
	jl->row_ready = true;
out:
	jl->nfields = 0;
	jl->field_long = false;
}

/* pf_jl_comment - a '#' line: the version header checked here, anything else to meta */
static void pf_jl_comment(struct pf_joblog *jl, const char *line, pf_jl_meta_fn *meta, void *ctx)
{
	int ver, ret;

	/* preflight-joblog/1, the form of every schema name; older job logs have " v1" after the name */
	if (sscanf(line, "# preflight-joblog/%d", &ver) == 1 || sscanf(line, "# preflight-joblog v%d", &ver) == 1) {
		if (ver != 1)
			jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: job-log format v%d is not supported (v1 is)",
					  jl->path, jl->lineno, ver);
		jl->version_seen = true;
		return;
	}
	ret = meta ? meta(ctx, line) : 0;
	if (ret)
		jl->err = ret;
}

int pf_joblog_open(const char *path, pf_jl_meta_fn *head, void *ctx, struct pf_joblog **out)
{
	struct pf_joblog *jl = calloc(1, sizeof(*jl));
	int ret = 0;

	*out = NULL;
	if (!jl)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	jl->path = path;
	jl->f = fopen(path, "r");
	if (!jl->f) {
		free(jl);
		return pf_fail(PF_EXIT_USAGE, "%s: %s", path, strerror(errno));
	}
	if (csv_init(&jl->p, CSV_STRICT | CSV_APPEND_NULL)) {
		fclose(jl->f);
		free(jl);
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	}
	*out = jl;
	/* the metadata before the rows (slot length, tasks) is needed before the trace pass */
	while (!ret && getline(&jl->line, &jl->line_cap, jl->f) > 0 && jl->line[0] == '#') {
		jl->lineno++;
		ret = head ? head(ctx, jl->line) : 0;
	}
	rewind(jl->f);
	jl->lineno = 0;
	return ret;
}

void pf_joblog_close(struct pf_joblog *jl)
{
	if (!jl)
		return;
	csv_free(&jl->p);
	fclose(jl->f);
	free(jl->line);
	free(jl);
}

/* pf_jl_at_end - nothing follows in the file (the line just read was its last) */
static bool pf_jl_at_end(struct pf_joblog *jl)
{
	int c = getc(jl->f);

	if (c == EOF)
		return true;
	ungetc(c, jl->f);
	return false;
}

long pf_joblog_cut_line(const struct pf_joblog *jl)
{
	return jl ? jl->cut_line : 0;
}

const char *pf_joblog_path(const struct pf_joblog *jl)
{
	return jl->path;
}

long pf_joblog_lineno(const struct pf_joblog *jl)
{
	return jl->lineno;
}

/* pf_joblog_next - read up to the next row: 1 row in *row, 0 end of file, or -exit code */
int pf_joblog_next(struct pf_joblog *jl, pf_jl_meta_fn *meta, void *ctx, struct pf_jlrow **row)
{
	ssize_t n;
	const char *p;

	while (!jl->err) {
		n = getline(&jl->line, &jl->line_cap, jl->f);
		if (n < 0) {
			if (csv_fini(&jl->p, pf_jl_field, pf_jl_row, jl) && !jl->err)
				jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log row: %s", jl->path,
						  jl->lineno, csv_strerror(csv_error(&jl->p)));
			if (jl->err)
				break;
			if (!jl->version_seen)
				return -pf_fail(PF_EXIT_USAGE, "%s: not a preflight job log (no '# preflight-joblog/1' line)",
					       jl->path);
			if (jl->row_ready) {
				jl->row_ready = false;
				*row = &jl->row;
				return 1;
			}
			return 0;
		}
		jl->lineno++;
		if (jl->line[n - 1] != '\n' && !jl->in_quotes && pf_jl_at_end(jl)) {
			jl->cut_line = jl->lineno;	/* a row or trailer line cut short: never half a row */
			continue;
		}
		if (!jl->in_quotes && jl->line[0] == '#') {
			pf_jl_comment(jl, jl->line, meta, ctx);
			continue;
		}
		if (!jl->version_seen)
			return -pf_fail(PF_EXIT_USAGE, "%s:%ld: not a preflight job log (no '# preflight-joblog/1' line first)",
				       jl->path, jl->lineno);
		for (p = jl->line; *p; p++)
			if (*p == '"')
				jl->in_quotes = !jl->in_quotes;
		if (csv_parse(&jl->p, jl->line, n, pf_jl_field, pf_jl_row, jl) != (size_t)n && !jl->err)
			jl->err = pf_fail(PF_EXIT_USAGE, "%s:%ld: bad job-log row: %s", jl->path, jl->lineno,
					  csv_strerror(csv_error(&jl->p)));
		if (jl->row_ready && !jl->err) {
			jl->row_ready = false;
			*row = &jl->row;
			return 1;
		}
	}
	return -jl->err;
}
