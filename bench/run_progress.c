/*
 * run_progress.c - what `preflight run` shows while a phase runs: one
 * progress line on a terminal (or one every RUN_PLAIN_PROGRESS_NS when stderr
 * is no terminal) with the phase, its time, the loads and the live worst
 * latency per thread or task, read from the measurement's status lines.
 */
#define _GNU_SOURCE
#include "run.h"
#include "run_private.h"

#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

/*
 * run_live_read - merge the last status lines of cyclictest ("T: 0 (...)
 * P:90 ... Max: 12") or flightapp ("T:io P:fifo:90 ... Max: 62.5 ... (us)")
 * into lv: a thread keeps its place and its worst only grows. Only whole
 * lines count: the tail's first line may start in the middle, its last may
 * be still being written.
 */
void run_live_read(const char *file, struct run_live *lv)
{
	char text[8192], *line, *save = NULL, *m, *t, *end;
	size_t len = run_tail(file, text, sizeof(text));
	struct stat st;
	double max_us;
	int i, j;

	end = strrchr(text, '\n');
	if (!end)
		return;
	end[1] = '\0';	/* a last line without its newline is not whole yet */
	line = text;
	if (stat(file, &st) == 0 && (size_t)st.st_size > len)
		line = strchr(text, '\n') + 1;	/* the tail began inside a line */
	for (line = strtok_r(line, "\n\r", &save); line; line = strtok_r(NULL, "\n\r", &save)) {
		char name[24];

		t = strstr(line, "T:");
		m = strstr(line, "Max:");
		if (!t || !m || sscanf(t + 2, " %23[^ (]", name) != 1 || sscanf(m + 4, "%lf", &max_us) != 1)
			continue;
		for (i = 0; i < lv->n && strverscmp(lv->name[i], name) < 0; i++)
			;
		if (i == lv->n || strcmp(lv->name[i], name)) {
			if (lv->n == 16)
				continue;
			for (j = lv->n++; j > i; j--) {
				memcpy(lv->name[j], lv->name[j - 1], sizeof(lv->name[0]));
				lv->max_us[j] = lv->max_us[j - 1];
				lv->rt[j] = lv->rt[j - 1];
			}
			snprintf(lv->name[i], sizeof(lv->name[0]), "%s", name);
			lv->max_us[i] = 0;
		}
		if (max_us > lv->max_us[i])
			lv->max_us[i] = max_us;
		lv->rt[i] = !strstr(line, "P:other");
	}
}
/* run_width - the terminal's width for the progress line (COLUMNS, else 80, when it cannot be asked) */
static int run_width(void)
{
	struct winsize ws;
	long cols;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	if (getenv("COLUMNS") && !pf_parse_long(getenv("COLUMNS"), 20, 1000, &cols))
		return (int)cols;
	return 80;
}

/* run_fit - cut a line to at most 'width' characters, at a blank (whole words); true when it was cut */
static bool run_fit(char *line, size_t width)
{
	char *blank;

	if (strlen(line) <= width)
		return false;
	line[width] = '\0';
	blank = strrchr(line, ' ');
	if (blank && blank > line)
		*blank = '\0';
	while (blank && blank > line && (blank[-1] == ',' || blank[-1] == ' '))
		*--blank = '\0';
	return true;
}

/*
 * run_waiting - why a phase runs past its planned time: what its
 * measurement still does (cyclictest writes its results; flightapp drains
 * its job log and stops the simulator's links; the recorder writes the trace)
 */
static const char *run_waiting(const struct scn_phase *p, const char *pdir, char *buf, size_t size)
{
	char path[PATH_MAX];
	struct stat st;

	if (p->measure == SCN_CYCLICTEST)
		return "waiting for cyclictest to end";
	if (stat(run_path(path, sizeof(path), pdir, "app-stats.json"), &st) || !st.st_size)
		return "waiting for flightapp and the simulator to end";
	if (stat(run_path(path, sizeof(path), pdir, "trace.dat"), &st) == 0) {
		snprintf(buf, size, "waiting for the recorder to write the trace (%lld MiB)",
			 (long long)(st.st_size >> 20));
		return buf;
	}
	return "waiting for the recorder to write the trace";
}

/*
 * run_progress - the progress line: phase, time, and the live worst per
 * thread / task in a stable order, redrawn in place on a terminal and
 * fitted to its width (whole entries, "+N" for those left out); else a
 * plain line every RUN_PLAIN_PROGRESS_NS (or --progress-every) for CI logs. Past the planned time
 * it says what the phase waits for.
 */
void run_progress(struct run *r, int idx, const struct scn_phase *p,
			    int64_t elapsed_ns, const char *pdir)
{
	static int64_t plain_next_ns, plain_t0_ns;	/* the plain line: when next, in which run */
	static int plain_idx = -1;
	char path[PATH_MAX], line[1200], items[16][48], why[96];
	int64_t left = p->duration_ns - elapsed_ns;
	struct run_live *lv = &r->live;
	int i, width = r->tty ? run_width() - 1 : (int)sizeof(line) - 1;
	size_t len;

	if (!r->tty && r->t0_ns == plain_t0_ns && idx == plain_idx && elapsed_ns < plain_next_ns)
		return;
	if (p->measure != SCN_NONE)
		run_live_read(run_path(path, sizeof(path), pdir, p->measure == SCN_CYCLICTEST ?
					     "cyclictest.out" : "flightapp.err"), lv);
	if (width > (int)sizeof(line) - 1)
		width = (int)sizeof(line) - 1;
	for (i = 0; i < lv->n; i++)
		snprintf(items[i], sizeof(items[i]), "%s%s %.0fus", p->measure == SCN_CYCLICTEST ? "T" : "",
			 lv->name[i], lv->max_us[i]);
	/* the head, shorter when the terminal is narrow (the worst figures matter more than the words) */
	snprintf(line, sizeof(line), "[%d/%d] %s (%s): %llds / %llds, ", idx + 1, r->scn.nphases, p->name,
		 scn_measure_name(p->measure), (long long)(elapsed_ns / PF_NS_PER_SEC),
		 (long long)(p->duration_ns / PF_NS_PER_SEC));
	if (lv->n && strlen(line) + 24 + strlen(items[0]) > (size_t)width)
		snprintf(line, sizeof(line), "[%d/%d] %s %llds/%llds, ", idx + 1, r->scn.nphases, p->name,
			 (long long)(elapsed_ns / PF_NS_PER_SEC), (long long)(p->duration_ns / PF_NS_PER_SEC));
	len = strlen(line);
	if (left >= 0)
		snprintf(line + len, sizeof(line) - len, "%llds left", (long long)(left / PF_NS_PER_SEC));
	else
		snprintf(line + len, sizeof(line) - len, "%s", run_waiting(p, pdir, why, sizeof(why)));
	for (i = run_fit(line, (size_t)width) ? lv->n : 0; i < lv->n; i++) {
		len = strlen(line);
		/* room for this one, and for " +N" after it unless it is the last */
		if (len + strlen(items[i]) + (i ? 1 : 9) + (i + 1 < lv->n ? 4 : 0) > (size_t)width) {
			if (len + 4 <= (size_t)width)
				snprintf(line + len, sizeof(line) - len, " +%d", lv->n - i);
			break;
		}
		snprintf(line + len, sizeof(line) - len, "%s%s", i ? " " : "  worst: ", items[i]);
	}
	if (r->tty) {
		fprintf(stderr, "\r\033[K%s", line);
	} else {
		fprintf(stderr, "preflight: run: %s\n", line);
		plain_idx = idx;
		plain_t0_ns = r->t0_ns;
		plain_next_ns = elapsed_ns + (r->o->progress_every_s ? r->o->progress_every_s * PF_NS_PER_SEC :
					      RUN_PLAIN_PROGRESS_NS);
	}
	fflush(stderr);
}
