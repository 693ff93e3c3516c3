/*
 * report_plots.c - the figures of the reviewer report, drawn by gnuplot's svg
 * terminal and embedded in the HTML as data: URIs (gnuplot's SVGs share
 * element ids, so inlining several would clash; an <img> keeps each apart).
 * Each figure's data goes into its script as a data block; the SVG is
 * stripped of gnuplot's version line so that the same run directory gives
 * the same bytes. One fixed colour-blind-safe colour per task (Okabe-Ito)
 * in every figure; names are printed literally (noenhanced). Every string
 * of a run's (task, thread and phase names) and every path goes into a script
 * quoted by lib/gnuplot.c, as data, never as code; data blocks are named by
 * number, never by a task.
 *
 * The figures, in the report's order (t/0820 reportrun-1.5 checks a real run's):
 *   V1    each requirement: its value against its budget (verdicts)
 *   V2    each requirement in the history's runs, V2.n when several (--history)
 *   L1.1  loads: achieved against target, each second
 *   L1.2  loads: achieved against target, per phase
 *   B1    kernel baseline: cyclictest per CPU, idle and loaded
 *   X2    exceedance curve per cyclictest thread, log-log
 *   H1    latency histogram per task, log y
 *   E1    exceedance: share of jobs at or above a latency, log y
 *   X1    exceedance curve per task, log-log
 *   T1    activation latency over time (job log)
 *   R1    response time against deadline over time (job log)
 *   U1    utilisation over time, stacked per task
 *   G1.n  a worst-case job's trace, one per worst case (section 8 and appendix A2)
 *   F1.1  flight: trajectory over the mission circuit, truth and estimate (appendix A1)
 *   F1.2  flight: position, track and altitude error over time (appendix A1)
 */
#define _GNU_SOURCE
#include "common.h"
#include "gnuplot.h"
#include "jpath.h"
#include "load_achieved.h"
#include "proc.h"
#include "report.h"
#include "results_keys.h"
#include "tail_model.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RPT_PLOT_W 900
#define RPT_PLOT_H 400	/* 460 put U1 and E1 each on a page of its own (issue 32.13) */
#define RPT_KEY_BELOW_H 80
#define RPT_MAX_BINS 600
#define RPT_DOT_COLS 80	/* T1, R1: a task's lowest and highest job in each of this many time columns ... */
#define RPT_DOT_WORST 10	/* ... and its this many worst jobs are its dots */
#define RPT_E1_STEP_DECADE 0.006	/* E1: steps closer than this (log10 of µs; a pixel is about 0.008) drawn as one */
#define RPT_U1_WINDOWS 300	/* U1: at most this many windows (a 1-hour run: 1 min windows) */
#define RPT_LOG_FLOOR_US 0.0625	/* on a log axis, smaller latencies (0) are drawn here: the first bin */

static const char *const rpt_palette[] = {
	"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#000000", "#8C6D1F", "#999999",
};

const char *rpt_task_colour(int i)
{
	return rpt_palette[(unsigned)i % PF_ARRAY_SIZE(rpt_palette)];
}

/*
 * Each task also has its own dash and point shape, so that its series are told apart printed in
 * grey: solid and the long dashes first; never gnuplot's dash type 2, the budgets' line.
 */
static const char *const rpt_dashes[] = {
	"1", "(10,4)", "(3,3)", "(12,4,3,4)", "(12,4,3,4,3,4)", "(20,6)", "(1,4)", "(6,3,1,3)",
};
static const int rpt_points[] = { 7, 5, 9, 11, 13, 6, 4, 8 };

/* rpt_task_dash - task i's gnuplot dash type (dt) */
static const char *rpt_task_dash(int i)
{
	return rpt_dashes[(unsigned)i % PF_ARRAY_SIZE(rpt_dashes)];
}

/* rpt_task_point - task i's gnuplot point type (pt) */
static int rpt_task_point(int i)
{
	return rpt_points[(unsigned)i % PF_ARRAY_SIZE(rpt_points)];
}

/* rpt_exec - run argv to completion, stdout and stderr to files; its exit status, or -errno */
int rpt_exec(char *const argv[], const char *out_path, const char *err_path)
{
	struct pf_proc p;
	int ret = pf_proc_spawn(&p, argv, out_path, err_path, 0);

	if (ret == -ENOENT)
		return 127;	/* not installed: the shell's code, which the callers name */
	return ret < 0 ? ret : pf_proc_wait(&p);
}

/* rpt_slurp - a whole file into a malloc'd NUL-terminated buffer; NULL on error */
char *rpt_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 65536 + 1 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 131072);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* rpt_base64 - write bytes as base64 */
static void rpt_base64(FILE *out, const unsigned char *p, size_t n)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		unsigned v = p[i] << 16 | p[i + 1] << 8 | p[i + 2];

		fputc(b64[v >> 18], out);
		fputc(b64[v >> 12 & 63], out);
		fputc(b64[v >> 6 & 63], out);
		fputc(b64[v & 63], out);
	}
	if (i < n) {
		unsigned v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0);

		fputc(b64[v >> 18], out);
		fputc(b64[v >> 12 & 63], out);
		fputc(i + 1 < n ? b64[v >> 6 & 63] : '=', out);
		fputc('=', out);
	}
}

/* rpt_strip_desc - cut gnuplot's "<desc>Produced by GNUPLOT ...</desc>" (its version) out of an SVG */
static void rpt_strip_desc(char *svg, size_t *len)
{
	char *a = strstr(svg, "<desc>"), *b = a ? strstr(a, "</desc>") : NULL;

	if (!b)
		return;
	b += strlen("</desc>");
	memmove(a, b, svg + *len - b + 1);
	*len -= b - a;
}

/*
 * rpt_svg_squeeze - gnuplot's SVG without what draws nothing (issue 32.13: a fifth of the HTML):
 * the indentation of its lines, runs of blanks inside a tag (and around an attribute's '='), and
 * groups left empty; an element's text is kept as it is (xml:space="preserve" labels)
 */
static void rpt_svg_squeeze(char *svg, size_t *len)
{
	char *in = svg, *out = svg, *end = svg + *len, quote = 0;
	bool tag = false, bol = true;

	for (; in < end; in++) {
		char ch = *in;
		bool blank = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';

		if (bol && !tag && (ch == ' ' || ch == '\t'))
			continue;	/* indentation */
		bol = ch == '\n' && !tag;
		if (tag && blank) {
			char next = in + 1 < end ? in[1] : 0;

			/* a run of blanks is one space, none before '=', '>' or '/>' nor after '=' */
			if (next == ' ' || next == '\t' || next == '\n' || next == '\r')
				continue;
			if (!quote && (next == '=' || next == '>' || next == '/' || (out > svg && out[-1] == '=')))
				continue;
			ch = ' ';
		}
		if (tag && !quote && (ch == '\'' || ch == '"'))
			quote = ch;
		else if (tag && ch == quote)
			quote = 0;
		else if (!quote && ch == '<')
			tag = true;
		else if (!quote && ch == '>')
			tag = false;
		*out++ = ch;
	}
	*out = '\0';
	*len = out - svg;
	/* groups with nothing in them (gnuplot opens one for each change of colour or line) */
	for (bool again = true; again;) {
		char *g = svg;

		again = false;
		while ((g = strstr(g, "<g "))) {
			char *close = strchr(g, '>'), *after = close ? close + 1 : NULL;

			while (after && (*after == '\n' || *after == ' '))
				after++;
			if (close && close[-1] != '/' && !strncmp(after, "</g>", 4)) {
				after += 4;
				if (*after == '\n')
					after++;
				memmove(g, after, svg + *len - after + 1);
				*len -= after - g;
				again = true;
			} else
				g++;
		}
	}
}

/* rpt_attr - the value of attribute 'name' in the tag at p (up to its '>'), its length in *n */
static const char *rpt_attr(const char *p, const char *name, size_t *n)
{
	const char *end = strchr(p, '>'), *v;
	size_t k = strlen(name);

	for (v = p; end && (v = strstr(v, name)) && v < end; v += k)
		if (v[-1] == ' ' && v[k] == '=' && v[k + 1] == '\'') {
			const char *q = strchr(v + k + 2, '\'');

			if (!q || q > end)
				return NULL;
			*n = q - (v + k + 2);
			return v + k + 2;
		}
	return NULL;
}

/*
 * rpt_svg_rects - gnuplot's filled boxes (a polygon of four corners for each: G1 has a thousand)
 * as paths of the same rectangle, 'M x0,y0 H x1 V y1 H x0 Z', the colour as #rrggbb and the
 * opacity without its trailing zeros: two fifths of such a figure's bytes, the same picture. The
 * corners keep gnuplot's text; a polygon that is not a rectangle of the axes stays as it is. On
 * a squeezed SVG (rpt_svg_squeeze), which it makes shorter.
 */
static void rpt_svg_rects(char *svg, size_t *len)
{
	char *in = svg, *out = svg, *end = svg + *len, *tag;

	while ((tag = strstr(in, "<polygon "))) {
		const char *fill, *opacity, *points, *close = strchr(tag, '>');
		size_t nf = 0, no = 0, np = 0;
		char x[4][24], y[4][24], path[256], colour[32];
		int r, g, b, used = 0, w;

		fill = rpt_attr(tag, "fill", &nf);
		opacity = rpt_attr(tag, "fill-opacity", &no);
		points = rpt_attr(tag, "points", &np);
		memmove(out, in, tag - in);
		out += tag - in;
		in = tag;
		if (!close || close[-1] != '/' || !fill || !points || nf >= sizeof(colour) || np >= 200 ||
		    sscanf(points, "%23[0-9.-],%23[0-9.-] %23[0-9.-],%23[0-9.-] %23[0-9.-],%23[0-9.-] %23[0-9.-],%23[0-9.-] %n",
			   x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3], &used) != 8 || (size_t)used != np ||
		    strcmp(x[0], x[3]) || strcmp(x[1], x[2]) || strcmp(y[0], y[1]) || strcmp(y[2], y[3])) {
			*out++ = *in++;
			continue;
		}
		if (sscanf(fill, "rgb(%d ,%d ,%d )", &r, &g, &b) == 3 && fill[nf - 1] == ')')
			snprintf(colour, sizeof(colour), "#%02x%02x%02x", r & 255, g & 255, b & 255);
		else
			snprintf(colour, sizeof(colour), "%.*s", (int)nf, fill);
		w = snprintf(path, sizeof(path), "<path fill='%s'", colour);
		if (opacity && no < 16)
			w += snprintf(path + w, sizeof(path) - w, " fill-opacity='%g'", strtod(opacity, NULL));
		w += snprintf(path + w, sizeof(path) - w, " d='M%s,%sH%sV%sH%sZ'/>", x[0], y[0], x[1], y[2], x[0]);
		if (w >= (int)sizeof(path) || w > close + 1 - tag) {
			*out++ = *in++;
			continue;
		}
		memcpy(out, path, w);
		out += w;
		in = (char *)close + 1;
	}
	memmove(out, in, end - in + 1);
	*len = out + (end - in) - svg;
}

/* rpt_plot_h - rpt_plot at a height of h px (the width is always RPT_PLOT_W) */
static int rpt_plot_h(struct rpt *r, const char *id, const char *title, const char *caption, const char *script, int h);

int rpt_plot(struct rpt *r, const char *id, const char *title, const char *caption, const char *script)
{
	/* a key below the plot (H1, V1) takes its rows from the figure's height: they are added */
	return rpt_plot_h(r, id, title, caption, script, RPT_PLOT_H + (strstr(script, "set key below") ? RPT_KEY_BELOW_H : 0));
}

static int rpt_plot_h(struct rpt *r, const char *id, const char *title, const char *caption, const char *script, int h)
{
	char gp[PATH_MAX], svg[PATH_MAX], err[PATH_MAX], svg_q[PATH_MAX * 2], title_q[1024];
	char *argv[] = { "gnuplot", gp, NULL };
	char *data;
	size_t len;
	FILE *f;
	int ret;

	snprintf(gp, sizeof(gp), "%s/%s.gp", r->tmpdir, id);
	snprintf(svg, sizeof(svg), "%s/%s.svg", r->tmpdir, id);
	snprintf(err, sizeof(err), "%s/%s.err", r->tmpdir, id);
	f = fopen(gp, "we");
	if (!f)
		return -errno;
	fprintf(f, "set terminal svg size %d,%d font 'DejaVu Sans,14' background '#ffffff'\n"
		   "set output '%s'\nset encoding utf8\nset termoption noenhanced\n"
		   "set grid lc rgb '#dddddd'\nset key top right opaque box lc rgb '#bbbbbb'\n"
		   "set style textbox opaque noborder\n"
		   "set title '%s'\n%s\n", RPT_PLOT_W, h, pf_gp_quote(svg, '\'', svg_q, sizeof(svg_q)),
		pf_gp_quote(title, '\'', title_q, sizeof(title_q)), script);
	fclose(f);
	ret = rpt_exec(argv, "/dev/null", err);
	data = ret == 0 ? rpt_slurp(svg, &len) : NULL;
	if (!data) {
		char *why = rpt_slurp(err, NULL), *last = why;
		size_t n = why ? strlen(why) : 0;

		while (n && (why[n - 1] == '\n' || why[n - 1] == ' '))
			why[--n] = '\0';	/* gnuplot's message is its last line */
		if (why && strrchr(why, '\n'))
			last = strrchr(why, '\n') + 1;
		r->plot_failures++;
		rpt_note_missing(r, "figure %s could not be drawn (gnuplot exit %d: %.300s)", id, ret,
				 last && *last ? last : "no message");
		free(why);
		return -EIO;
	}
	rpt_strip_desc(data, &len);
	rpt_svg_squeeze(data, &len);
	rpt_svg_rects(data, &len);
	fprintf(r->out, "<figure id=\"fig-%s\"><img alt=\"", id);
	rpt_esc(r->out, title);
	fprintf(r->out, "\" width=\"%d\" height=\"%d\" src=\"data:image/svg+xml;base64,", RPT_PLOT_W, h);
	rpt_base64(r->out, (unsigned char *)data, len);
	fprintf(r->out, "\"><figcaption><b>%s</b> ", id);
	rpt_esc(r->out, caption);
	fprintf(r->out, "</figcaption></figure>\n");
	free(data);
	r->nplots++;
	return 0;
}

/*
 * Histograms are drawn on a log x axis, in bins of 1/RPT_BINS_PER_OCTAVE of
 * an octave (9 %): latencies span decades (tens of µs to milliseconds), and
 * the histogram of results.json is log-linear itself. Bin k holds
 * [2^(k/8 - 4), 2^((k+1)/8 - 4)) µs.
 */
#define RPT_BINS_PER_OCTAVE 8
#define RPT_BIN_OCTAVES 34	/* 1/16 µs to 2^30 µs */
#define RPT_NBINS (RPT_BINS_PER_OCTAVE * RPT_BIN_OCTAVES)

/* rpt_bin_of - the log bin of a value in µs */
static int rpt_bin_of(double v_us)
{
	int k = v_us > 0 ? (int)floor((log2(v_us) + 4) * RPT_BINS_PER_OCTAVE) : 0;

	return k < 0 ? 0 : k >= RPT_NBINS ? RPT_NBINS - 1 : k;
}

/* rpt_bin_us - the lower edge of log bin k in µs */
static double rpt_bin_us(int k)
{
	return exp2((double)k / RPT_BINS_PER_OCTAVE - 4);
}

/*
 * rpt_hist_block - a distribution's sparse histogram (ns) as a data block
 * "$name" of log bins (x µs at the bin's geometric centre, count; empty bins
 * just below the axis so that the steps fall to it); false without one
 */
static bool rpt_hist_block(FILE *s, const char *name, json_t *dist)
{
	static uint64_t bins[RPT_NBINS];
	json_t *buckets = pf_jpath_get(dist, "hist.buckets"), *b;
	int lo = RPT_NBINS, hi = -1;
	size_t i;

	fprintf(s, "$%s << EOD\n", name);
	memset(bins, 0, sizeof(bins));
	json_array_foreach(buckets, i, b) {
		/* a bucket counts in the bin of its lowest value: buckets are narrower than bins above 1.4 µs */
		int k = rpt_bin_of(fabs(json_number_value(json_array_get(b, 0))) / 1e3);

		bins[k] += json_integer_value(json_array_get(b, 1));
		lo = k < lo ? k : lo;
		hi = k > hi ? k : hi;
	}
	for (int k = lo - 1; k <= hi + 1 && hi >= 0; k++)
		if (k >= 0 && k < RPT_NBINS)
			fprintf(s, "%.4g %g\n", rpt_bin_us(k) * exp2(0.5 / RPT_BINS_PER_OCTAVE),
				bins[k] ? (double)bins[k] : 0.1);
	fprintf(s, "EOD\n");
	return hi >= 0;
}

/* rpt_span_us - widen [*lo, *hi] (µs) to a distribution's min and max */
static void rpt_span_us(json_t *dist, double *lo, double *hi)
{
	double mn = rpt_num(dist, "min") / 1e3, mx = rpt_num(dist, "max") / 1e3;

	if (mn < RPT_LOG_FLOOR_US)
		mn = RPT_LOG_FLOOR_US;	/* a log axis cannot show 0 */
	if (mn < *lo)
		*lo = mn;
	if (mx > *hi)
		*hi = mx;
}

/* rpt_xrange - a log x range around [lo, hi] µs that also holds every task's budget of 'metric' */
static void rpt_xrange(FILE *s, struct rpt *r, const char *metric, double lo, double hi)
{
	char path[256];

	for (int i = 0; i < r->ntasks && metric; i++) {
		double b;

		snprintf(path, sizeof(path), "tasks.%s.%s.max", r->task_names[i], metric);
		b = rpt_budget_ns(r, path) / 1e3;
		if (!isnan(b) && b > 0) {
			lo = b < lo ? b : lo;
			hi = b > hi ? b : hi;
		}
	}
	if (!(lo < hi))
		lo = RPT_LOG_FLOOR_US, hi = lo > hi ? lo * 10 : hi;
	lo /= 1.3, hi *= 1.4;
	fprintf(s, "set logscale x\nset xrange [%g:%g]\nset format x '%%g'\n", lo, hi);
	/* a range within two decades gets few or no powers of ten to label: its 1-2-5 values instead */
	if (hi / lo < 100) {
		static const double steps[] = { 1, 2, 5 };
		int n = 0;

		fputs("set xtics (", s);
		for (double d = pow(10, floor(log10(lo))); d <= hi; d *= 10)
			for (size_t k = 0; k < PF_ARRAY_SIZE(steps); k++)
				if (steps[k] * d >= lo && steps[k] * d <= hi)
					fprintf(s, "%s%g", n++ ? ", " : "", steps[k] * d);
		fputs(n ? ")\n" : "1)\n", s);
	}
}

/*
 * rpt_budget_mark - a red dashed vertical (x) or horizontal (y; 'l': y in log10 µs) line at a
 * budget of b_ns, labelled with its value and 'what' (already quoted for gnuplot, "" for nothing)
 */
static void rpt_budget_mark(FILE *s, double b_ns, char axis, const char *what)
{
	double b = b_ns / 1e3, at = axis == 'l' ? log10(b) : b;

	if (axis == 'x')
		fprintf(s, "set arrow from %g, graph 0 to %g, graph 1 nohead lc rgb '#D00000' dt 2 lw 2 front\n"
			   "set label 'budget %g µs%s' at %g, graph 0.04 left offset 0.5,0 tc rgb '#D00000' boxed front\n",
			at, at, b, what, at);
	else
		fprintf(s, "set arrow from graph 0, first %g to graph 1, first %g nohead lc rgb '#D00000' dt 2 lw 2 front\n"
			   "set label 'budget %g µs%s' at graph 0.99, first %g right offset 0,0.8 tc rgb '#D00000' boxed front\n",
			at, at, b, what, at);
}

/*
 * rpt_budget_marks - rpt_budget_mark at each distinct budget of the tasks' 'metric'
 */
static void rpt_budget_marks(FILE *s, struct rpt *r, const char *metric, char axis)
{
	double seen[RPT_MAX_TASKS];
	int nseen = 0;
	char path[256];

	for (int i = 0; i < r->ntasks; i++) {
		double b;
		int j;

		snprintf(path, sizeof(path), "tasks.%s.%s.max", r->task_names[i], metric);
		b = rpt_budget_ns(r, path);
		if (isnan(b))
			continue;
		for (j = 0; j < nseen && seen[j] != b; j++)
			;
		if (j < nseen)
			continue;
		seen[nseen++] = b;
		rpt_budget_mark(s, b, axis, "");
	}
}

/* rpt_script - an in-memory script */
struct rpt_script {
	char  *text;
	size_t len;
	FILE  *f;
};

static FILE *rpt_script_open(struct rpt_script *s)
{
	s->text = NULL;
	s->f = open_memstream(&s->text, &s->len);
	return s->f;
}

/* rpt_script_plot - end a script with its plot line and draw it; when nothing was plotted (n 0), say why not */
static void rpt_script_plot(struct rpt *r, struct rpt_script *sc, int n, const char *id, const char *title,
			    const char *caption, const char *why_not)
{
	fprintf(sc->f, "\n");
	fclose(sc->f);
	if (n)
		rpt_plot(r, id, title, caption, sc->text);
	else
		rpt_note_missing(r, "%s: %s", id, why_not);
	free(sc->text);
}

/*
 * rpt_budget_use - how much of its budget a verdict record's value uses, in %: value / bound for
 * "<=" and "<", bound / value for ">=" and ">" (above 100 %: the budget is exceeded either way);
 * NAN when there is no value or the budget is no ratio (a count that must be == 0)
 */
static double rpt_budget_use(json_t *rec)
{
	double v = rpt_num(rec, "value"), b = rpt_num(rec, "bound");
	const char *op = rpt_str(rec, "comparison", "");

	if (isnan(v) || isnan(b) || b <= 0)
		return NAN;
	if (op[0] == '<')
		return 100 * v / b;
	if (op[0] == '>' && v > 0)
		return 100 * b / v;
	return NAN;
}

/* rpt_prev_record - the record of the previous run's verdicts with the same requirement and metric, or NULL */
static json_t *rpt_prev_record(struct rpt *r, json_t *rec)
{
	json_t *p;
	size_t i;

	json_array_foreach(pf_jpath_get(r->prev_verdicts, "verdicts"), i, p)
		if (!strcmp(rpt_str(p, "id", "?"), rpt_str(rec, "id", "")) &&
		    !strcmp(rpt_str(p, "metric", "?"), rpt_str(rec, "metric", "")))
			return p;
	return NULL;
}

/*
 * rpt_baseline_metric - a baseline's metric of a verdict record's path: the
 * path is its name (docs/ci.md, "Metrics"); a baseline of an earlier version
 * has it under compare's older name (lib/results_keys.h); NULL for one it has not
 */
static json_t *rpt_baseline_metric(struct rpt *r, const char *path)
{
	json_t *metrics = json_object_get(r->baseline, "metrics"), *m = json_object_get(metrics, path);
	char old[256];

	if (!m && pf_metric_old_name(path, old, sizeof(old)))
		m = json_object_get(metrics, old);
	return m;
}

/* rpt_share - a value in the record's raw unit (ns, a fraction, a count) as a share of its budget, as rpt_budget_use */
static double rpt_share(json_t *rec, double raw)
{
	double v = rpt_num(rec, "value"), rv = rpt_num(rec, "raw_value"), b = rpt_num(rec, "bound"), scale;
	const char *op = rpt_str(rec, "comparison", ""), *u = rpt_str(rec, "unit", "");

	scale = !isnan(v) && !isnan(rv) && rv != 0 ? v / rv : !strcmp(u, "us") ? 1e-3 : !strcmp(u, "ms") ? 1e-6 :
		!strcmp(u, "s") ? 1e-9 : !strcmp(u, "%") ? 100 : 1;
	if (isnan(raw) || isnan(b) || b <= 0)
		return NAN;
	if (op[0] == '<')
		return 100 * raw * scale / b;
	if (op[0] == '>' && raw > 0)
		return 100 * b / (raw * scale);
	return NAN;
}

/*
 * rpt_baseline_shares - a baseline's runs of a record's metric: median, min, max, as shares of the
 * record's budget (raw false) or in the baseline's own unit (raw true); false without any
 */
static bool rpt_baseline_shares(struct rpt *r, json_t *rec, bool raw, double *med, double *mn, double *mx)
{
	json_t *v;
	double x[256];
	size_t i, n = 0;

	if (!r->baseline)
		return false;
	json_array_foreach(json_object_get(rpt_baseline_metric(r, rpt_str(rec, "metric", "")), "values"), i, v) {
		double y = json_is_number(v) ? (raw ? json_number_value(v) : rpt_share(rec, json_number_value(v))) : NAN;

		if (!isnan(y) && n < PF_ARRAY_SIZE(x))
			x[n++] = y;
	}
	if (!n)
		return false;
	for (size_t a = 1; a < n; a++)	/* insertion sort: a baseline has tens of runs */
		for (size_t b = a; b > 0 && x[b] < x[b - 1]; b--) {
			double t = x[b];

			x[b] = x[b - 1];
			x[b - 1] = t;
		}
	*med = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
	*mn = x[0];
	*mx = x[n - 1];
	return true;
}

/* rpt_verdict_colour - the colour of a verdict (verdicts.json's, or the history's pass / fail / skip), "#rrggbb" */
static const char *rpt_verdict_colour(const char *verdict)
{
	static const struct { const char *verdict, *colour; } col[] = {
		{ "pass", "#0a6b2d" }, { "fail", "#b00000" }, { "not_valid", "#e69f00" }, { "not_measured", "#7f7f7f" },
		{ "skip", "#7f7f7f" },
	};

	for (size_t k = 0; k < PF_ARRAY_SIZE(col); k++)
		if (!strcmp(verdict, col[k].verdict))
			return col[k].colour;
	return "#7f7f7f";
}

/* rpt_verdict_point - a verdict's gnuplot point type: pass a filled circle, fail a square, not valid a triangle */
static int rpt_verdict_point(const char *verdict)
{
	return !strcmp(verdict, "pass") ? 7 : !strcmp(verdict, "fail") ? 5 : !strcmp(verdict, "not_valid") ? 9 : 13;
}

/*
 * rpt_plot_v1 - one row per verdict record: the share of its budget the measured value uses (log x;
 * the budget at 100 %), coloured and shaped by its verdict; with --previous, the previous run's value on the
 * same row (hollow) and a line to this run's. A record with no value, or a count that must be 0,
 * has its value written at the row's end instead (issue 32.14).
 */
void rpt_plot_v1(struct rpt *r)
{
	char name_q[512], row[256], prev_q[512], caption[512], full[1024];
	json_t *recs = pf_jpath_get(r->verdicts, "verdicts"), *rec, *p;
	double lo = 100, hi = 100;
	struct rpt_script sc;
	size_t i, n = json_array_size(recs);
	int drawn = 0, prev = 0, base = 0;
	double med, mn, mx;
	FILE *s;

	if (!n)
		return;
	s = rpt_script_open(&sc);
	if (!s)
		return;
	/* $V: row, this run's share, colour; $P: row, the previous run's share */
	fprintf(s, "$V << EOD\n");
	json_array_foreach(recs, i, rec) {
		double u = rpt_budget_use(rec);
		const char *c = rpt_verdict_colour(rpt_str(rec, "verdict", ""));

		if (isnan(u))
			continue;
		/* the verdict by shape too (greyscale-safe): pass a circle, fail a square, not valid a triangle */
		fprintf(s, "%zu %.6g 0x%s %d\n", n - 1 - i, u, c + 1, rpt_verdict_point(rpt_str(rec, "verdict", "")));
		lo = fmin(lo, u), hi = fmax(hi, u);
		drawn++;
	}
	fprintf(s, "EOD\n$P << EOD\n");
	json_array_foreach(recs, i, rec) {
		double u = rpt_budget_use(rec), pu;

		p = r->prev_verdicts ? rpt_prev_record(r, rec) : NULL;
		pu = p ? rpt_budget_use(p) : NAN;
		if (isnan(pu))
			continue;
		fprintf(s, "%zu %.6g %.6g\n", n - 1 - i, pu, isnan(u) ? pu : u);
		lo = fmin(lo, pu), hi = fmax(hi, pu);
		prev++;
	}
	/* $B: row, the baseline's median, min and max share */
	fprintf(s, "EOD\n$B << EOD\n");
	json_array_foreach(recs, i, rec) {
		if (!rpt_baseline_shares(r, rec, false, &med, &mn, &mx))
			continue;
		fprintf(s, "%zu %.6g %.6g %.6g\n", n - 1 - i, med, mn, mx);
		lo = fmin(lo, mn), hi = fmax(hi, mx);
		base++;
	}
	fprintf(s, "EOD\nset logscale x\nset xrange [%g:%g]\nset yrange [-0.7:%zu.7]\nset format x '%%g %%%%'\n"
		   "set xlabel 'measured value as a share of its budget (log; above 100 %%: exceeded)'\n"
		   "set key below center horizontal maxcols 2 noopaque height 1.5\nset grid noytics\nset ytics (", lo / 2, hi * 2, n - 1);
	json_array_foreach(recs, i, rec) {
		const char *label = rpt_str(rec, "label", "?"), *sp = strchr(label, ' ');

		/* the task, else the label's first two words ("loads wifi", "app utilisation") */
		sp = sp ? strchr(sp + 1, ' ') : NULL;
		if (rpt_str(rec, "element", NULL) && strncmp(label, "loads ", 6))
			snprintf(row, sizeof(row), "%s %s", rpt_str(rec, "id", "?"), rpt_str(rec, "element", ""));
		else
			snprintf(row, sizeof(row), "%s %.*s", rpt_str(rec, "id", "?"), sp ? (int)(sp - label) : 60, label);
		fprintf(s, "%s'%s' %zu", i ? ", " : "", pf_gp_quote(row, '\'', name_q, sizeof(name_q)), n - 1 - i);
	}
	fprintf(s, ")\nset arrow from 100, graph 0 to 100, graph 1 nohead lc rgb '#D00000' dt 2 lw 2 back\n");
	/* a value that is no share of its budget: said at the row's end */
	json_array_foreach(recs, i, rec)
		if (isnan(rpt_budget_use(rec))) {
			if (json_is_number(json_object_get(rec, "value")))
				snprintf(row, sizeof(row), "%g %s %g: %s", rpt_num(rec, "value"), rpt_str(rec, "comparison", "?"),
					 rpt_num(rec, "bound"), rpt_str(rec, "verdict", "?"));
			else
				snprintf(row, sizeof(row), "%s", rpt_str(rec, "verdict", "?"));
			p = r->prev_verdicts ? rpt_prev_record(r, rec) : NULL;
			if (p && json_is_number(json_object_get(p, "value")))
				snprintf(row + strlen(row), sizeof(row) - strlen(row), " (previous %g)", rpt_num(p, "value"));
			if (rpt_baseline_shares(r, rec, true, &med, &mn, &mx))
				snprintf(row + strlen(row), sizeof(row) - strlen(row), " (baseline %g to %g)", mn, mx);
			for (char *c = row; *c; c++)
				*c = *c == '_' ? ' ' : *c;
			fprintf(s, "set label '%s' at graph 0.97, first %zu right front\n",
				pf_gp_quote(row, '\'', name_q, sizeof(name_q)), n - 1 - i);
		}
	snprintf(row, sizeof(row), "previous run (%s)", r->previous_dir ? (strrchr(r->previous_dir, '/') &&
		 strrchr(r->previous_dir, '/')[1] ? strrchr(r->previous_dir, '/') + 1 : r->previous_dir) : "");
	fprintf(s, "plot $V using 2:1:4:3 with points pt variable ps 1.6 lc rgb variable notitle");
	if (prev)
		fprintf(s, ", $P using 2:1:($3 - $2):(0) with vectors nohead lc rgb '#7f7f7f' lw 1 notitle, "
			   "$P using 2:1 with points pt 6 ps 1.6 lc rgb '#000000' title '%s'",
			pf_gp_quote(row, '\'', prev_q, sizeof(prev_q)));
	if (base)
		fprintf(s, ", $B using 2:1:3:4 with xerrorbars pt 4 ps 1.4 lw 1.5 lc rgb '#444444' title 'baseline, %d runs'",
			(int)json_array_size(pf_jpath_get(r->baseline, "runs")));
	fprintf(s, ", keyentry with points pt 7 lc rgb '#0a6b2d' title 'pass', keyentry with points pt 5 lc rgb '#b00000' "
		   "title 'fail', keyentry with points pt 9 lc rgb '#e69f00' title 'not valid', keyentry with lines dt 2 "
		   "lw 2 lc rgb '#D00000' title 'budget (100 %%)'\n");
	fclose(s);
	snprintf(caption, sizeof(caption), "%s%s", prev ? " Hollow and joined to it: the previous run's value (--previous)." : "",
		 base ? " Hollow square with a bar: the baseline's median and the range of its runs (--baseline; a requirement "
		 "whose metric the baseline does not hold, as the wakeup latency, has none)." : "");
	snprintf(full, sizeof(full), "One row per verdict: the value as a share of its budget (value / bound for a "
		 "maximum, bound / value for a minimum; log scale), coloured and shaped by its verdict (pass a circle, "
		 "fail a square, not valid a triangle); the red dashed line is the budget. A count that must be 0, "
		 "or a verdict with no value, is written at its row's end.%s", caption);
	if (drawn || prev || base)
		rpt_plot_h(r, "V1", "V1 each requirement: the measured value against its budget", full, sc.text,
			   140 + 24 * (int)n + (prev || base ? 40 : 0));
	free(sc.text);
}

/*
 * rpt_history_value - an earlier run's value of a verdict record (by its history name, "id label"),
 * NAN when it has none or gives it in another unit; its result into *result
 */
static double rpt_history_value(json_t *run, json_t *rec, const char **result)
{
	char name[512];
	json_t *v;

	snprintf(name, sizeof(name), "%s %s", rpt_str(rec, "id", "?"), rpt_str(rec, "label", "?"));
	v = json_object_get(json_object_get(run, "verdicts"), name);
	*result = rpt_str(v, "result", "skip");
	if (!v || strcmp(rpt_str(v, "unit", ""), rpt_str(rec, "unit", "")))
		return NAN;
	return rpt_num(v, "value");
}

#define RPT_V2_PANELS 8	/* V2: at most this many panels (4 rows) a figure, so that one fits a page */

/* rpt_v2_points - how many points a verdict record's panel has: this run's value and the earlier runs' */
static int rpt_v2_points(json_t *rec, json_t *runs)
{
	const char *result;
	json_t *run;
	size_t j;
	int pts = !isnan(rpt_num(rec, "value"));

	json_array_foreach(runs, j, run)
		pts += !isnan(rpt_history_value(run, rec, &result));
	return pts;
}

/* rpt_v2_panel - the panel of record k into script s: the earlier runs' values ($Hk), this run's, the bound */
static void rpt_v2_panel(FILE *s, size_t k, json_t *rec, json_t *runs)
{
	int nruns = (int)json_array_size(runs), pts = rpt_v2_points(rec, runs);
	double v = rpt_num(rec, "value"), b = rpt_num(rec, "bound"), top = isnan(b) ? 0 : b, h;
	char name_q[512], label[300];
	const char *result;
	json_t *run;
	size_t j;

	/* $Hk: x, value, colour of each earlier run; this run's point drawn on its own */
	fprintf(s, "$H%zu << EOD\n", k);
	json_array_foreach(runs, j, run)
		if (!isnan(h = rpt_history_value(run, rec, &result))) {
			fprintf(s, "%d %.9g 0x%s\n", (int)j - nruns, h, rpt_verdict_colour(result) + 1);
			top = fmax(top, h);
		}
	fprintf(s, "EOD\n");
	if (!isnan(v))
		top = fmax(top, v);
	snprintf(label, sizeof(label), "%s %s%s%s%s", rpt_str(rec, "id", "?"), rpt_str(rec, "label", "?"),
		 *rpt_str(rec, "unit", "") ? " (" : "", rpt_str(rec, "unit", ""), *rpt_str(rec, "unit", "") ? ")" : "");
	for (char *c = label; *c; c++)
		*c = *c == '_' ? ' ' : *c;
	fprintf(s, "set title '%s'\nset yrange [0:%.9g]\nunset arrow\nunset label\n",
		pf_gp_quote(label, '\'', name_q, sizeof(name_q)), top > 0 ? top * 1.2 : 1);
	if (!isnan(b))
		fprintf(s, "set arrow from graph 0, first %.9g to graph 1, first %.9g nohead lc rgb '#D00000' dt 2 lw 2 back\n",
			b, b);
	if (isnan(v))
		fprintf(s, "set label 'this run: %s' at graph 0.98, graph 0.9 right front\n",
			!strcmp(rpt_str(rec, "verdict", ""), "not_measured") ? "not measured" : "no value");
	fprintf(s, "plot ");
	if (pts > !isnan(v))
		fprintf(s, "$H%zu using 1:2 with lines lc rgb '#999999' notitle, $H%zu using 1:2:3 with points pt 6 ps 1.3 "
			   "lw 2 lc rgb variable notitle%s", k, k, isnan(v) ? "" : ", ");
	if (!isnan(v))
		fprintf(s, "'+' using (0):(%.9g) every ::0::0 with points pt 13 ps 2.4 lc rgb '%s' notitle", v,
			rpt_verdict_colour(rpt_str(rec, "verdict", "")));
	fprintf(s, "\n");
}

/*
 * rpt_v2_runs - which runs V2 draws, in words: this run and those of the history before it (a run.json
 * with its start time: 'history verdicts --until' it), else the scenario's latest in the history,
 * whatever their date (they may be later than this run)
 */
static void rpt_v2_runs(struct rpt *r, char *buf, size_t size)
{
	int nruns = (int)json_array_size(json_object_get(r->history, "runs"));
	const char *scenario = rpt_str(r->history, "scenario", "?");

	if (rpt_str(r->run, "started_utc", NULL))
		snprintf(buf, size, "this run and the %d run%s of scenario %s before it", nruns, nruns == 1 ? "" : "s",
			 scenario);
	else
		snprintf(buf, size, "this run and the %d latest other run%s of scenario %s (any date)", nruns,
			 nruns == 1 ? "" : "s", scenario);
}

/* rpt_v2_figure - draw the panels of one V2 figure (id "V2", or "V2.n" of several): body is their script */
static void rpt_v2_figure(struct rpt *r, const char *id, int panels, const char *body)
{
	int nruns = (int)json_array_size(json_object_get(r->history, "runs"));
	char runs[400], title[600], title_q[1200], caption[1200], *full = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&full, &len);

	if (!f)
		return;
	rpt_v2_runs(r, runs, sizeof(runs));
	snprintf(title, sizeof(title), "%s each requirement in %s", id, runs);	/* x: said by the caption */
	fprintf(f, "unset key\nset xrange [%g:0.5]\nset xtics 1 out nomirror\nset ytics out\nset format y '%%g'\n"
		   "set lmargin 10\nset multiplot layout %d,2 rowsfirst title '%s'\n%sunset multiplot\n",
		-nruns - 0.5, (panels + 1) / 2, pf_gp_quote(title, '\'', title_q, sizeof(title_q)), body);
	fclose(f);
	snprintf(caption, sizeof(caption), "One panel per verdict with a value: its value in each of %d %s in the "
		 "history database (--history; hollow circles, x: runs before this one) and this run's at 0 (filled "
		 "diamond), each coloured by its verdict (green pass, red fail, grey not measured); the red dashed line "
		 "is the bound. A run added without values (before schema 4), or giving a value in another unit, has "
		 "no point.", nruns, rpt_str(r->run, "started_utc", NULL) ? "runs of the scenario started at or before "
		 "this one (at most 9)" : "latest runs of the scenario, whatever their date (run.json gives no start "
		 "time to take those before it)");
	rpt_plot_h(r, id, title, caption, full, 60 + 230 * ((panels + 1) / 2));
	free(full);
}

/*
 * rpt_plot_v2 - with --history: one small panel per verdict record with a value, that value over
 * the scenario's earlier runs in the history database (x: runs before this one) and this run's at
 * x = 0 (a large filled diamond), each point coloured by its verdict, the record's bound the red
 * dashed line (issue 32.14: "a comparison with a previous run when a baseline or history is given");
 * RPT_V2_PANELS a figure (V2, or V2.1, V2.2, ... when there are more)
 */
void rpt_plot_v2(struct rpt *r)
{
	json_t *recs = pf_jpath_get(r->verdicts, "verdicts"), *runs = json_object_get(r->history, "runs"), *rec;
	int total = 0, left, panels = 0, nfig = 0;
	struct rpt_script sc = { 0 };
	char id[16];
	size_t i;

	if (!r->history)
		return;
	json_array_foreach(recs, i, rec)
		total += rpt_v2_points(rec, runs) > 0;
	if (!total) {
		rpt_note_missing(r, "V2: the history has no value of this run's requirements (scenario %s)",
				 rpt_str(r->history, "scenario", "?"));
		return;
	}
	left = total;
	json_array_foreach(recs, i, rec) {
		if (!rpt_v2_points(rec, runs))
			continue;
		if (!panels && !rpt_script_open(&sc))
			return;
		rpt_v2_panel(sc.f, i, rec, runs);
		panels++, left--;
		if (panels < RPT_V2_PANELS && left)
			continue;
		fclose(sc.f);
		nfig++;
		if (total > RPT_V2_PANELS)
			snprintf(id, sizeof(id), "V2.%d", nfig);
		else
			snprintf(id, sizeof(id), "V2");
		rpt_v2_figure(r, id, panels, sc.text);
		free(sc.text);
		panels = 0;
	}
}

/* a task latency the histograms can draw: its results.json key and its words */
struct rpt_latency {
	const char *metric;	/* tasks[].<metric>: activation_latency_ns, wakeup_latency_ns */
	const char *words;	/* "wakeup latency" */
	const char *span;	/* from what to what */
};

/*
 * rpt_latency_of - the latency the budgets judge, so that its budget is the line on a figure
 * (REQ-LAT-001 judges the wakeup latency: docs/budgets.md "Which latency is which"); the
 * activation latency when no task's wakeup latency has a budget (and, with need_hist, a
 * histogram to draw)
 */
static struct rpt_latency rpt_latency_of(struct rpt *r, bool need_hist)
{
	static const struct rpt_latency wakeup = { "wakeup_latency_ns", "wakeup latency", "release signal to start" };
	static const struct rpt_latency activation = { "activation_latency_ns", "activation latency", "release to start" };
	char path[256];
	bool budget = false, hist = false;

	for (int i = 0; i < r->ntasks; i++) {
		snprintf(path, sizeof(path), "tasks.%s.%s.max", r->task_names[i], wakeup.metric);
		budget = budget || !isnan(rpt_budget_ns(r, path));
		snprintf(path, sizeof(path), "tasks.%s.%s.hist.buckets", r->task_names[i], wakeup.metric);
		hist = hist || json_array_size(pf_jpath_get(r->results, path)) > 0;
	}
	return budget && (hist || !need_hist) ? wakeup : activation;
}

/* rpt_judged_latency - the latency H1 and E1 draw (rpt_latency_of with its histogram) */
static struct rpt_latency rpt_judged_latency(struct rpt *r)
{
	return rpt_latency_of(r, true);
}

/* rpt_latency_caption - a histogram's caption: what it shows, then what its budget line is */
static const char *rpt_latency_caption(struct rpt_latency lat, char *buf, size_t size, const char *what)
{
	snprintf(buf, size, "%s Red dashed: the budget of the requirement judging the %s; a task marked (info) has "
		 "none, and the axes are those of the tasks that have one.%s", what, lat.words,
		 strcmp(lat.metric, "wakeup_latency_ns") ? "" :
		 " It runs from the task's release signal: its timer's release, or its waking by the task that "
		 "releases it; the activation latency from the slot start, which holds the releaser's own work, "
		 "is in the per-task table and T1 (docs/budgets.md).");
	return buf;
}

/*
 * rpt_latency_judged - which tasks' latency a budget judges (their wakeup or activation latency's
 * maximum) into judged[]; how many. When some are, those without (telemetry, the logger) are drawn
 * on the axes of those with one, not stretching them, and marked in the key.
 */
int rpt_latency_judged(struct rpt *r, bool *judged)
{
	static const char *const metrics[] = { "wakeup_latency_ns", "activation_latency_ns" };
	char path[256];
	int n = 0;

	for (int i = 0; i < r->ntasks; i++) {
		judged[i] = false;
		for (size_t m = 0; m < PF_ARRAY_SIZE(metrics) && !judged[i]; m++) {
			snprintf(path, sizeof(path), "tasks.%s.%s.max", r->task_names[i], metrics[m]);
			judged[i] = !isnan(rpt_budget_ns(r, path));
		}
		n += judged[i];
	}
	return n;
}

/* rpt_key_name - task i's name in a figure's key, "(info)" when no requirement judges it but others are judged */
static const char *rpt_key_name(struct rpt *r, int i, const bool *judged, int njudged, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", r->task_names[i], njudged && !judged[i] ? " (info)" : "");
	return buf;
}

void rpt_plot_h1(struct rpt *r)
{
	struct rpt_latency lat = rpt_judged_latency(r);
	char title[256], xlabel[256], caption[768], name[160];
	bool judged[RPT_MAX_TASKS];
	int njudged = rpt_latency_judged(r, judged);
	char name_q[512];
	struct rpt_script sc;
	double lo = INFINITY, hi = 0;
	bool drawn[RPT_MAX_TASKS] = { false };
	char path[256], key[256];
	FILE *s;
	int i, n = 0;

	s = rpt_script_open(&sc);
	if (!s)
		return;
	for (i = 0; i < r->ntasks; i++) {
		json_t *d;

		snprintf(path, sizeof(path), "tasks.%s.%s", r->task_names[i], lat.metric);
		d = pf_jpath_get(r->results, path);
		snprintf(key, sizeof(key), "H%d", i);
		drawn[i] = rpt_hist_block(s, key, d);
		if (drawn[i] && (!njudged || judged[i]))
			rpt_span_us(d, &lo, &hi);
	}
	rpt_xrange(s, r, lat.metric, lo, hi);
	snprintf(xlabel, sizeof(xlabel), "%s (µs, log; bins of 1/%d octave)", lat.words, RPT_BINS_PER_OCTAVE);
	/* the key below the plot: inside, its box hid the histograms' peaks (issue 32.14) */
	fprintf(s, "set logscale y\nset yrange [0.8:*]\nset xlabel '%s'\nset ylabel 'jobs (log)'\n"
		   "set key below center horizontal maxcols 3 noopaque height 1.5\n", pf_gp_quote(xlabel, '\'', name_q, sizeof(name_q)));
	rpt_budget_marks(s, r, lat.metric, 'x');
	fprintf(s, "plot ");
	for (i = 0; i < r->ntasks; i++) {
		if (!drawn[i])
			continue;
		snprintf(path, sizeof(path), "tasks.%s.%s.max", r->task_names[i], lat.metric);
		snprintf(key, sizeof(key), "%s  max %.1f µs", rpt_key_name(r, i, judged, njudged, name, sizeof(name)),
			 rpt_num(r->results, path) / 1e3);
		fprintf(s, "%s$H%d using 1:2 with histeps lw 1.5 dt %s lc rgb '%s' title '%s'", n++ ? ", " : "",
			i, rpt_task_dash(i), rpt_task_colour(i), pf_gp_quote(key, '\'', name_q, sizeof(name_q)));
	}
	snprintf(title, sizeof(title), "H1 %s histogram per task (%s)", lat.words, lat.span);
	rpt_script_plot(r, &sc, n, "H1", title,
			rpt_latency_caption(lat, caption, sizeof(caption), "Jobs per latency bin, log scales, y from 0.8 so that a "
					    "single job shows; the key gives each task's exact maximum."),
			"no task has a latency histogram in results.json");
}

void rpt_plot_e1(struct rpt *r)
{
	struct rpt_latency lat = rpt_judged_latency(r);
	char xlabel[256], caption[768], name[160];
	char name_q[512];
	bool judged[RPT_MAX_TASKS];
	int njudged = rpt_latency_judged(r, judged);
	struct rpt_script sc;
	double min_p = 1, lo = INFINITY, hi = 0;
	bool drawn[RPT_MAX_TASKS] = { false };
	char path[256];
	FILE *s;
	int i, n = 0;

	s = rpt_script_open(&sc);
	if (!s)
		return;
	for (i = 0; i < r->ntasks; i++) {
		json_t *d, *buckets, *b;
		double count, cum = 0, last_x;
		size_t k;

		snprintf(path, sizeof(path), "tasks.%s.%s", r->task_names[i], lat.metric);
		d = pf_jpath_get(r->results, path);
		buckets = pf_jpath_get(d, "hist.buckets");
		count = rpt_num(d, "count");
		if (!json_is_array(buckets) || !(count > 0))
			continue;
		if (1 / count < min_p)
			min_p = 1 / count;
		if (!njudged || judged[i])
			rpt_span_us(d, &lo, &hi);
		fprintf(s, "$E%d << EOD\n", i);
		last_x = -INFINITY;
		json_array_foreach(buckets, k, b) {
			double x = json_number_value(json_array_get(b, 0)) / 1e3;

			/* a step less than a pixel from the last drawn is not drawn apart */
			if (log10(fmax(x, 1e-9)) - last_x >= RPT_E1_STEP_DECADE) {
				fprintf(s, "%.3f %.10g\n", x, (count - cum) / count);
				last_x = log10(fmax(x, 1e-9));
			}
			cum += json_integer_value(json_array_get(b, 1));
		}
		fprintf(s, "%.3f %.10g\nEOD\n", rpt_num(d, "max") / 1e3, 1 / count);
		drawn[i] = true;
	}
	rpt_xrange(s, r, lat.metric, lo, hi);
	snprintf(xlabel, sizeof(xlabel), "%s x (µs, log)", lat.words);
	fprintf(s, "set logscale y\nset yrange [%g:1.5]\nset format y '%%g'\nset key outside right top\n"
		   "set xlabel '%s'\nset ylabel 'share of jobs with latency ≥ x (log)'\n",
		min_p / 2, pf_gp_quote(xlabel, '\'', name_q, sizeof(name_q)));
	rpt_budget_marks(s, r, lat.metric, 'x');
	fprintf(s, "plot ");
	for (i = 0; i < r->ntasks; i++) {
		if (!drawn[i])
			continue;
		snprintf(path, sizeof(path), "tasks.%s.%s.count", r->task_names[i], lat.metric);
		fprintf(s, "%s$E%d using 1:2 with steps lw 1.5 dt %s lc rgb '%s' title '%s  N %.0f'", n++ ? ", " : "",
			i, rpt_task_dash(i), rpt_task_colour(i),
			pf_gp_quote(rpt_key_name(r, i, judged, njudged, name, sizeof(name)), '\'', name_q, sizeof(name_q)),
			rpt_num(r->results, path));
	}
	rpt_script_plot(r, &sc, n, "E1", "E1 exceedance: share of jobs at or above a latency",
			rpt_latency_caption(lat, caption, sizeof(caption), "1 − CDF from the exact bucket counts (not "
					    "smoothed), down to 1/N: the last step of each task is its single worst job."),
			"no task has a latency histogram in results.json");
}

/* a value of a job drawn over time: T1's latency (µs), R1's response as % of the deadline */
typedef double (*rpt_job_value)(struct rpt *r, const struct rpt_job *j);

/*
 * rpt_series - write task i's data blocks over time: $D<i> the dots, thinned to what can be told
 * apart printed (issue 32.13: 8 938 dots made T1 1.3 MB): in each of RPT_DOT_COLS time columns
 * the task's lowest and highest job, and its RPT_DOT_WORST worst jobs wherever they are; $M<i>
 * the maximum of each second. False when the task has no job.
 */
static bool rpt_series(FILE *s, struct rpt *r, int i, rpt_job_value val, int64_t t0, int64_t t1)
{
	size_t lo[RPT_DOT_COLS], hi[RPT_DOT_COLS], worst[RPT_DOT_WORST], nworst = 0, k;
	double sec_max = -INFINITY;
	int64_t sec = -1;
	uint8_t *pick;
	bool any = false;

	pick = calloc(r->njobs ? r->njobs : 1, 1);
	if (!pick)
		return false;
	for (k = 0; k < RPT_DOT_COLS; k++)
		lo[k] = hi[k] = SIZE_MAX;
	for (k = 0; k < r->njobs; k++) {
		const struct rpt_job *j = &r->jobs[k];
		double v = j->task == i ? val(r, j) : NAN;
		size_t col = (size_t)((double)(j->release_ns - t0) / (t1 - t0 + 1) * RPT_DOT_COLS), w;

		if (isnan(v))
			continue;
		any = true;
		if (lo[col] == SIZE_MAX || v < val(r, &r->jobs[lo[col]]))
			lo[col] = k;
		if (hi[col] == SIZE_MAX || v > val(r, &r->jobs[hi[col]]))
			hi[col] = k;
		/* the worst jobs, worst first: insert in place */
		for (w = nworst; w > 0 && v > val(r, &r->jobs[worst[w - 1]]); w--)
			if (w < RPT_DOT_WORST)
				worst[w] = worst[w - 1];
		if (w < RPT_DOT_WORST) {
			worst[w] = k;
			nworst += nworst < RPT_DOT_WORST;
		}
	}
	if (!any) {
		free(pick);
		return false;
	}
	for (k = 0; k < RPT_DOT_COLS; k++)
		if (lo[k] != SIZE_MAX)
			pick[lo[k]] = pick[hi[k]] = 1;
	for (k = 0; k < nworst; k++)
		pick[worst[k]] = 1;
	fprintf(s, "$D%d << EOD\n", i);
	for (k = 0; k < r->njobs; k++)
		if (pick[k])
			fprintf(s, "%.6f %.4g\n", (r->jobs[k].release_ns - t0) / 1e9,
				fmax(val(r, &r->jobs[k]), RPT_LOG_FLOOR_US));
	free(pick);
	fprintf(s, "EOD\n$M%d << EOD\n", i);
	/* jobs are in release order per task */
	for (k = 0; k <= r->njobs; k++) {
		const struct rpt_job *j = k < r->njobs ? &r->jobs[k] : NULL;
		int64_t js = j ? (j->release_ns - t0) / PF_NS_PER_SEC : -2;
		double v = j ? val(r, j) : NAN;

		if (j && (j->task != i || isnan(v)))
			continue;
		if (js != sec && sec >= 0)
			fprintf(s, "%.1f %.4g\n", sec + 0.5, fmax(sec_max, RPT_LOG_FLOOR_US));
		if (js != sec)
			sec = js, sec_max = -INFINITY;
		if (j && v > sec_max)
			sec_max = v;
	}
	fprintf(s, "EOD\n");
	return true;
}

/*
 * rpt_t1_budgets - T1's red lines, within [*lo, *hi]: the budgets of the activation latency
 * ('metric'); without one, the wakeup latency's budget where the two latencies are one: a task
 * released by its own timer (no job chained to another task's), as io of the seed (REQ-LAT-001
 * judges the wakeup latency, docs/budgets.md). A sentence for the caption, "" for none.
 */
static const char *rpt_t1_budgets(FILE *s, struct rpt *r, const char *metric, double *lo, double *hi)
{
	static char note[512];
	char path[256], what[256], what_q[512], names[160] = "";
	const char *id = NULL, *first_id = NULL;
	double b = NAN, seen = NAN;
	bool any = false;

	for (int i = 0; i < r->ntasks; i++) {
		snprintf(path, sizeof(path), "tasks.%s.%s.max", r->task_names[i], metric);
		b = rpt_budget_ns(r, path) / 1e3;
		if (!isnan(b))
			*lo = fmin(*lo, b), *hi = fmax(*hi, b), any = true;
	}
	if (any) {
		rpt_budget_marks(s, r, metric, 'y');
		return " Red dashed: the activation latency's budget.";
	}
	/* the wakeup latency's budget, for the tasks whose activation latency it is */
	for (int i = 0; i < r->ntasks; i++) {
		snprintf(path, sizeof(path), "tasks.%s.chained_jobs", r->task_names[i]);
		if (rpt_int(r->results, path, -1) != 0)
			continue;
		snprintf(path, sizeof(path), "tasks.%s.wakeup_latency_ns.max", r->task_names[i]);
		b = rpt_budget_match_ns(r, path, &id);
		if (isnan(b) || (!isnan(seen) && b != seen))
			continue;	/* one line: the first budget of the timer-released tasks */
		seen = b;
		first_id = first_id ? first_id : id;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", names[0] ? ", " : "",
			 r->task_names[i]);
	}
	if (isnan(seen))
		return "";
	*lo = fmin(*lo, seen / 1e3), *hi = fmax(*hi, seen / 1e3);
	snprintf(what, sizeof(what), " (%s, wakeup latency: %s)", first_id ? first_id : "?", names);
	rpt_budget_mark(s, seen, 'y', pf_gp_quote(what, '\'', what_q, sizeof(what_q)));
	snprintf(note, sizeof(note), " Red dashed: the wakeup latency's budget (%s), drawn for the tasks released by their "
		 "own timer (%s), whose activation latency is their wakeup latency; a chained task's activation latency "
		 "also holds its releaser's work and is judged in H1 and E1.", first_id ? first_id : "?", names);
	return note;
}

/* rpt_over_time - a figure of a job value over time for every task, dots and per-second maxima */
static void rpt_over_time(struct rpt *r, const char *id, const char *title, const char *what, rpt_job_value val,
			  const char *metric, const char *setup)
{
	char name_q[512], name[160];
	struct rpt_script sc;
	int64_t t0 = INT64_MAX, t1 = INT64_MIN;
	bool has[RPT_MAX_TASKS], judged[RPT_MAX_TASKS];
	char path[256], caption[1024];
	const char *budget_note = "";
	double lo = INFINITY, hi = -INFINITY;
	int njudged = metric ? rpt_latency_judged(r, judged) : 0;
	bool fit = njudged && njudged < r->ntasks;
	FILE *s;
	int i, n = 0;

	if (rpt_read_jobs(r) < 0 || !r->njobs) {
		rpt_note_missing(r, "%s: no job log (jobs.csv) to draw %s over time from", id, what);
		return;
	}
	for (size_t k = 0; k < r->njobs; k++) {
		t0 = r->jobs[k].release_ns < t0 ? r->jobs[k].release_ns : t0;
		t1 = r->jobs[k].release_ns > t1 ? r->jobs[k].release_ns : t1;
	}
	s = rpt_script_open(&sc);
	if (!s)
		return;
	for (i = 0; i < r->ntasks; i++) {
		double th = NAN;

		if (metric) {
			snprintf(path, sizeof(path), "tasks.%s.%s.max", r->task_names[i], metric);
			th = rpt_budget_ns(r, path) / 1e3;
		}
		has[i] = rpt_series(s, r, i, val, t0, t1);
		if (fit && judged[i] && th > 0)
			lo = fmin(lo, th), hi = fmax(hi, th);
	}
	/* the tasks with a latency requirement set the latency axis; the others are drawn on it */
	for (size_t k = 0; k < r->njobs && metric; k++) {
		double v = !fit || judged[r->jobs[k].task] ? val(r, &r->jobs[k]) : NAN;

		if (v > 0)
			lo = fmin(lo, v), hi = fmax(hi, v);
	}
	if (metric)
		budget_note = rpt_t1_budgets(s, r, metric, &lo, &hi);
	if (lo <= hi)
		fprintf(s, "set yrange [%g:%g]\n", lo / 1.5, hi * 1.5);
	fprintf(s, "set logscale y\nset xlabel 'time since the first release (s)'\nset key outside right top\n%s", setup);
	fprintf(s, "plot ");
	for (i = 0; i < r->ntasks; i++)
		if (has[i])
			fprintf(s, "%s$D%d using 1:2 with points pt %d ps 0.5 lc rgb '%s' title '%s', "
				   "$M%d using 1:2 with lines lw 1.2 dt %s lc rgb '%s' notitle", n++ ? ", " : "",
				i, rpt_task_point(i), rpt_task_colour(i),
				pf_gp_quote(rpt_key_name(r, i, judged, njudged, name, sizeof(name)), '\'', name_q, sizeof(name_q)),
				i, rpt_task_dash(i), rpt_task_colour(i));
	snprintf(caption, sizeof(caption), "Dots: in each of %d time columns each task's lowest and highest job, "
		 "and its %d worst jobs wherever they are (not every job: a peak or a trough is never dropped); line: "
		 "each task's maximum per second.%s%s", RPT_DOT_COLS, RPT_DOT_WORST, budget_note,
		 fit ? " A task marked (info) has no latency requirement: the latency axis is that of the tasks that "
		 "have one." : "");
	rpt_script_plot(r, &sc, n, id, title, caption, "no task has jobs in the job log");
}

/* rpt_latency_us - T1's value: the activation latency in µs */
static double rpt_latency_us(struct rpt *r, const struct rpt_job *j)
{
	return j->latency_ns / 1e3;
}

/* rpt_response_pct - R1's value: the response time as % of the task's deadline (NAN without one) */
static double rpt_response_pct(struct rpt *r, const struct rpt_job *j)
{
	char path[256];

	if (!r->deadline_ns[j->task]) {
		snprintf(path, sizeof(path), "tasks.%s.deadline_ns", r->task_names[j->task]);
		r->deadline_ns[j->task] = rpt_num(r->results, path) > 0 ? rpt_num(r->results, path) : -1;
	}
	return r->deadline_ns[j->task] > 0 && j->response_ns >= 0 ? 100.0 * j->response_ns / r->deadline_ns[j->task] : NAN;
}

void rpt_plot_t1(struct rpt *r)
{
	rpt_over_time(r, "T1", "T1 activation latency over time (job log)", "activations", rpt_latency_us,
		      "activation_latency_ns", "set ylabel 'activation latency (µs, log)'\n");
}

void rpt_plot_r1(struct rpt *r)
{
	double top = 300;	/* the deadline zone stays in sight */
	char setup[1024];

	if (rpt_read_jobs(r) == 0)
		for (size_t k = 0; k < r->njobs; k++)
			if (rpt_response_pct(r, &r->jobs[k]) * 2 > top)
				top = rpt_response_pct(r, &r->jobs[k]) * 2;
	snprintf(setup, sizeof(setup),
		 "set ylabel 'response time (%% of the deadline, log)'\nset yrange [*:%g]\n"
		 "set object 1 rect from graph 0, first 100 to graph 1, graph 1 fc rgb '#D00000' "
		 "fs transparent solid 0.12 noborder behind\n"
		 "set label 'deadline missed' at graph 0.01, first 100 offset 0,0.8 tc rgb '#D00000' front\n"
		 "set arrow from graph 0, first 100 to graph 1, first 100 nohead lc rgb '#D00000' lw 1.5 front\n", top);
	rpt_over_time(r, "R1", "R1 response time against deadline (job log)", "responses", rpt_response_pct, NULL,
		      setup);
}

void rpt_plot_u1(struct rpt *r)
{
	char name_q[512];
	struct rpt_script sc;
	int64_t t0 = INT64_MAX, t1 = INT64_MIN, win_ns;
	double *u, top = 0, ymax;
	size_t top_k = 0;
	size_t k, nwin;
	FILE *s;
	int i, w;

	if (rpt_read_jobs(r) < 0 || !r->njobs) {
		rpt_note_missing(r, "U1: no job log (jobs.csv) to draw utilisation over time from");
		return;
	}
	for (k = 0; k < r->njobs; k++) {
		if (r->jobs[k].release_ns < t0)
			t0 = r->jobs[k].release_ns;
		if (r->jobs[k].release_ns > t1)
			t1 = r->jobs[k].release_ns;
	}
	/* the shortest of 100 ms, 1 s, 10 s, 1 min, 10 min that needs at most RPT_U1_WINDOWS windows */
	for (win_ns = 100 * PF_NS_PER_MS; (t1 - t0) / win_ns + 1 > RPT_U1_WINDOWS && win_ns < 600 * PF_NS_PER_SEC;
	     win_ns *= win_ns < 10 * PF_NS_PER_SEC ? 10 : win_ns < 60 * PF_NS_PER_SEC ? 6 : 10)
		;
	nwin = (t1 - t0) / win_ns + 1;
	u = calloc(nwin * r->ntasks, sizeof(*u));
	s = u ? rpt_script_open(&sc) : NULL;
	if (!s) {
		free(u);
		return;
	}
	for (k = 0; k < r->njobs; k++)
		u[(r->jobs[k].release_ns - t0) / win_ns * r->ntasks + r->jobs[k].task] += r->jobs[k].cpu_ns;
	/* columns: time, then the running sum over tasks (stacked) */
	fprintf(s, "$U << EOD\n");
	for (k = 0; k < nwin; k++) {
		double cum = 0;

		fprintf(s, "%.3f", (k + 0.5) * win_ns / 1e9);
		for (i = 0; i < r->ntasks; i++)
			fprintf(s, " %.4f", cum += 100.0 * u[k * r->ntasks + i] / win_ns);
		fprintf(s, "\n");
		if (cum > top)
			top = cum, top_k = k;
	}
	/* the axes fitted to the data: the run's windows, and a quarter above the worst one */
	ymax = top > 0 ? top * 1.25 : 1;
	fprintf(s, "EOD\nset xlabel 'time since the first release (s), windows of %g ms'\nset xrange [0:%g]\n"
		   "set ylabel 'CPU time of the app (%% of one CPU)'\nset yrange [0:%g]\nset key outside right top\n"
		   "set style fill solid 0.7 noborder\n", win_ns / 1e6, nwin * win_ns / 1e9, ymax);
	if (60 <= ymax)
		fprintf(s, "set arrow from graph 0, first 60 to graph 1, first 60 nohead lc rgb '#D00000' dt 2 lw 2 front\n"
			   "set label '60 %% line' at graph 0.01, first 60 offset 0,0.7 tc rgb '#D00000' front\n");
	else
		fprintf(s, "set label '60 %% line: above this axis' at graph 0.99, graph 0.94 right tc rgb '#D00000' front\n");
	/*
	 * The highest bar is no "worst window" (section 7's name, the trace's any-start 1 s window,
	 * app.utilisation_max_1s): these windows start at the first release and count each job's CPU
	 * time in its release's window (issue 32.15: one definition per name)
	 */
	fprintf(s, "set arrow from %.3f, first %.3f to %.3f, first %.3f head filled lc rgb '#000000' front\n"
		   "set label 'highest bar %.1f %%' at %.3f, first %.3f %s offset %s,0.6 front\nplot ",
		(top_k + 0.5) * win_ns / 1e9, top + 0.12 * ymax, (top_k + 0.5) * win_ns / 1e9, top + 0.01 * ymax,
		top, (top_k + 0.5) * win_ns / 1e9, top + 0.12 * ymax, top_k < nwin / 2 ? "left" : "right",
		top_k < nwin / 2 ? "-0.5" : "0.5");
	/*
	 * each band twice: its colour, light, then a hatch of its own in the colour (the one the key
	 * shows), so that bands next to each other differ in greyscale too (issue 32.14)
	 */
	for (w = 0, i = r->ntasks - 1; i >= 0; i--) {
		static const int hatch[] = { 3, 4, 5, 1, 6, 7, 2, 0 };	/* gnuplot fill patterns: 3 solid */
		char lower[16] = "(0)";	/* a band lies between the sum below it and its own */

		if (i)
			snprintf(lower, sizeof(lower), "%d", i + 1);
		fprintf(s, "%s$U using 1:%s:%d with filledcurves fs solid 0.35 noborder lc rgb '%s' notitle, "
			"$U using 1:%s:%d with filledcurves fs transparent pattern %d noborder lc rgb '%s' title '%s'",
			w++ ? ", " : "", lower, i + 2, rpt_task_colour(i), lower, i + 2,
			hatch[i % (int)PF_ARRAY_SIZE(hatch)], rpt_task_colour(i),
			pf_gp_quote(r->task_names[i], '\'', name_q, sizeof(name_q)));
	}
	fprintf(s, "\n");
	fclose(s);
	rpt_plot(r, "U1", "U1 utilisation over time, stacked per task (job log CPU time)",
		 "Each band is one task's CPU time (the job log's cpu_ns, counted in the window of the job's "
		 "release) as a share of one CPU; the top edge is the app's total; the windows start at the first "
		 "release, so the highest bar is not section 7's worst 1 s window (the trace's, windows aligned to its start). Each "
		 "task has its hatch as well as its colour. Red dashed: the 60 % line.",
		 sc.text);
	free(sc.text);
	free(u);
}

void rpt_plot_b1(struct rpt *r)
{
	struct { json_t *res; const char *what; const char *dash; } ph[] = {
		{ r->base_idle, "idle", "1" }, { r->base_loaded, "loaded", "2" },
	};
	struct rpt_script sc;
	double lo = INFINITY, hi = 0, budget;
	char key[256], what[160] = "", what_q[400];
	const char *req;
	FILE *s;
	int n = 0;

	s = rpt_script_open(&sc);
	if (!s)
		return;
	for (size_t p = 0; p < 2; p++) {
		json_t *t;
		size_t k;

		json_array_foreach(pf_jpath_get(ph[p].res, "cyclictest.threads"), k, t) {
			snprintf(key, sizeof(key), "%s%zu", ph[p].what, k);
			if (rpt_hist_block(s, key, pf_jpath_get(t, "latency_ns")))
				rpt_span_us(pf_jpath_get(t, "latency_ns"), &lo, &hi);
		}
	}
	/* the profile's own cyclictest budget, else the wakeup latency's the app is judged by: the same delay */
	budget = rpt_budget_match_ns(r, "cyclictest.*latency_ns.max", &req);
	if (isnan(budget) && !isnan(budget = rpt_budget_match_ns(r, "tasks.*.wakeup_latency_ns.max", &req)))
		snprintf(what, sizeof(what), " (%s, the tasks' wakeup latency)", req);
	if (!isnan(budget)) {
		lo = budget / 1e3 < lo ? budget / 1e3 : lo;
		hi = budget / 1e3 > hi ? budget / 1e3 : hi;
		rpt_budget_mark(s, budget, 'x', pf_gp_quote(what, '\'', what_q, sizeof(what_q)));
	}
	rpt_xrange(s, r, NULL, lo, hi);
	fprintf(s, "set logscale y\nset yrange [0.8:*]\n"
		   "set xlabel 'cyclictest latency (µs, log; bins of 1/%d octave)'\nset ylabel 'samples (log)'\nplot ",
		RPT_BINS_PER_OCTAVE);
	for (size_t p = 0; p < 2; p++) {
		json_t *t;
		size_t k;

		json_array_foreach(pf_jpath_get(ph[p].res, "cyclictest.threads"), k, t) {
			int cpu = (int)rpt_int(t, "cpu", -1);

			if (!pf_jpath_get(t, "latency_ns.hist"))
				continue;
			snprintf(key, sizeof(key), "CPU%d %s  max %.0f µs", cpu, ph[p].what, rpt_num(t, "latency_ns.max") / 1e3);
			fprintf(s, "%s$%s%zu using 1:2 with histeps lw 1.5 dt %s lc rgb '%s' title '%s'", n++ ? ", " : "",
				ph[p].what, k, ph[p].dash, rpt_task_colour(cpu < 0 ? 0 : cpu), key);
		}
	}
	rpt_script_plot(r, &sc, n, "B1", "B1 kernel baseline: cyclictest per CPU, idle and loaded",
			"Samples per latency bin, log scales; solid: idle, dashed: under the phase's loads. One colour "
			"per CPU; the key gives each CPU's exact maximum. Red dashed: the budget of a requirement on "
			"cyclictest's maximum, else that of the app tasks' wakeup latency (the same kernel wakeup delay).",
			"no cyclictest baseline with a histogram in this run");
}

/* the truth log's columns F1 reads (docs/sim.md) */
enum { F1_T, F1_N, F1_E, F1_ALT, F1_MODE, F1_EN, F1_EE, F1_EALT, F1_POS, F1_TRACK, F1_ALTERR, F1_NCOL };
static const char *const rpt_f1_cols[F1_NCOL] = {
	"t_s", "north_m", "east_m", "alt_m", "app_mode", "est_north_m", "est_east_m", "est_alt_m",
	"pos_err_m", "track_err_m", "alt_err_m",
};
#define RPT_F1_POINTS 1000	/* rows drawn at most: beyond, each drawn row is a bucket's (errors: its worst) */

/* rpt_f1_row - one CSV row's columns of interest (NAN when empty or absent) */
static void rpt_f1_row(char *line, const int *col, double *v)
{
	char *p = line, *end;
	int i = 0, k;

	for (k = 0; k < F1_NCOL; k++)
		v[k] = NAN;
	while (p) {
		end = strchr(p, ',');
		for (k = 0; k < F1_NCOL; k++)
			if (col[k] == i && *p && *p != ',' && *p != '\n')
				v[k] = strtod(p, NULL);
		p = end ? end + 1 : NULL;
		i++;
	}
}

/* rpt_f1_rect - shade [a, b] of the time axis: failsafe (mode 2) red, no current estimate (-1) grey */
static void rpt_f1_rect(FILE *s, double a, double b, int mode)
{
	fprintf(s, "set object rect from %.2f, graph 0 to %.2f, graph 1 fc rgb '%s' fs solid 0.25 noborder behind\n",
		a, b, mode == 2 ? "#D00000" : "#999999");
}

/* rpt_f1_no_app - hatch [a, b] of the time axis: the simulator flew without the app (before or after it) */
static void rpt_f1_no_app(FILE *s, double a, double b)
{
	if (b > a)
		fprintf(s, "set object rect from %.2f, graph 0 to %.2f, graph 1 fc rgb '#56B4E9' "
			   "fs transparent pattern 4 border rgb '#56B4E9' behind\n", a, b);
}

/* rpt_f1_circuit - the header's circuit_m=north:east:alt,... as "east north" rows, closed; waypoints read */
static int rpt_f1_circuit(const char *p, FILE *out)
{
	double cn, ce, ca, n0 = 0, e0 = 0;
	int n = 0;

	while (*p && *p != '\n') {
		if (sscanf(p, "%lf:%lf:%lf", &cn, &ce, &ca) == 3) {
			fprintf(out, "%g %g\n", ce, cn);
			if (!n++)
				n0 = cn, e0 = ce;
		}
		p += strcspn(p, ",\n");
		if (*p == ',')
			p++;
	}
	if (n)
		fprintf(out, "%g %g\n", e0, n0);
	return n;
}

/*
 * rpt_f1_panel - one panel of F1.2: column c of $E from 0, its n values' largest max; none is
 * "no data" (nothing plotted: gnuplot warns of a series without a valid point), all 0 an axis to 1
 * (gnuplot warns of an empty range)
 */
static void rpt_f1_panel(FILE *p, int c, int n, double max, const char *colour, const char *title)
{
	fprintf(p, "set yrange [0:%s]\nunset label 1\n", n && max > 0 ? "*" : "1");
	if (!n)
		fprintf(p, "set label 1 'no data: %s' at graph 0.5, graph 0.5 center front\nplot 1/0 notitle\n", title);
	else
		fprintf(p, "plot $E using 1:%d with lines lw 1.5 lc rgb '%s' title '%s'\n", c, colour, title);
}

/*
 * rpt_plot_f1 - the flight from the simulator's truth log: F1.1 the
 * trajectory from above, truth and the app's estimate over the mission
 * circuit, failsafe marked; F1.2 the estimate's position error and the
 * truth's track and altitude errors over time, failsafe (and not yet
 * aligned) shaded
 */
void rpt_plot_f1(struct rpt *r, double app_start_s, double app_end_s)
{
	struct rpt_script sc = { 0 }, st = { 0 }, se = { 0 }, sr = { 0 };
	char path[PATH_MAX], line[2048], *circ;
	double n_lo = INFINITY, n_hi = -INFINITY, e_lo = INFINITY, e_hi = -INFINITY, half, v[F1_NCOL], acc[F1_NCOL];
	double seg_t = NAN, last_t = 0, err_max[F1_NCOL] = { 0 };
	int col[F1_NCOL], n = 0, nest = 0, nwp = 0, every, k, seg_mode = 1, mode, rows = 0, inb = 0, nerr[F1_NCOL] = { 0 };
	FILE *f, *c, *t, *e, *rc;

	snprintf(path, sizeof(path), "%.4000s/truth.csv", r->app_dir);
	f = r->app_dir[0] ? fopen(path, "re") : NULL;
	if (!f) {
		rpt_note_missing(r, "F1: no truth.csv of the app phase (the simulator's trajectory)");
		return;
	}
	while (fgets(line, sizeof(line), f))	/* count the rows, for the decimation */
		rows += line[0] != '#';
	rewind(f);
	every = rows / RPT_F1_POINTS + 1;
	c = rpt_script_open(&sc);
	t = rpt_script_open(&st);
	e = rpt_script_open(&se);
	rc = rpt_script_open(&sr);
	if (!c || !t || !e || !rc)
		goto out;
	for (k = 0; k < F1_NCOL; k++)
		col[k] = -1, acc[k] = NAN;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			if ((circ = strstr(line, "circuit_m=")))
				nwp = rpt_f1_circuit(circ + strlen("circuit_m="), c);
			continue;
		}
		if (col[F1_T] < 0) {	/* the header: where each column is */
			char *tok, *save = NULL;
			int i = 0;

			for (tok = strtok_r(line, ",\r\n", &save); tok; tok = strtok_r(NULL, ",\r\n", &save), i++)
				for (k = 0; k < F1_NCOL; k++)
					if (!strcmp(tok, rpt_f1_cols[k]))
						col[k] = i;
			if (col[F1_T] < 0 || col[F1_N] < 0 || col[F1_E] < 0)
				break;
			continue;
		}
		rpt_f1_row(line, col, v);
		if (isnan(v[F1_T]) || isnan(v[F1_N]) || isnan(v[F1_E]))
			continue;
		/* failsafe, and no current estimate (not yet aligned, or the app silent) */
		mode = col[F1_EN] >= 0 && isnan(v[F1_EN]) ? -1 : (int)v[F1_MODE] == 2 ? 2 : 1;
		if (mode != seg_mode) {
			if (seg_mode != 1 && !isnan(seg_t))
				rpt_f1_rect(rc, seg_t, v[F1_T], seg_mode);
			seg_mode = mode;
			seg_t = v[F1_T];
		}
		last_t = v[F1_T];
		for (k = F1_POS; k <= F1_ALTERR; k++)	/* a bucket's errors: its worst */
			if (!isnan(v[k]) && (isnan(acc[k]) || v[k] > acc[k]))
				acc[k] = v[k];
		if (inb++ % every)
			continue;
		n_lo = fmin(n_lo, v[F1_N]), n_hi = fmax(n_hi, v[F1_N]);
		e_lo = fmin(e_lo, v[F1_E]), e_hi = fmax(e_hi, v[F1_E]);
		/* t north east est_north est_east mode; t pos_err track_err alt_err (NaN: not known) */
		fprintf(t, "%g %g %g %g %g %d\n", v[F1_T], v[F1_N], v[F1_E], v[F1_EN], v[F1_EE],
			isnan(v[F1_MODE]) ? 1 : (int)v[F1_MODE]);
		fprintf(e, "%g %g %g %g\n", v[F1_T], acc[F1_POS], acc[F1_TRACK], acc[F1_ALTERR]);
		nest += !isnan(v[F1_EN]) && !isnan(v[F1_EE]);
		for (k = F1_POS; k <= F1_ALTERR; k++) {
			if (!isnan(acc[k]))
				nerr[k]++, err_max[k] = fmax(err_max[k], acc[k]);
			acc[k] = NAN;
		}
		n++;
	}
	if (seg_mode != 1 && !isnan(seg_t))
		rpt_f1_rect(rc, seg_t, last_t, seg_mode);
	if (!isnan(app_start_s) && !isnan(app_end_s)) {	/* the app's flight, from sim.json (issue 32.15) */
		rpt_f1_no_app(rc, 0, app_start_s);
		rpt_f1_no_app(rc, app_end_s, last_t);
	}
	fclose(c), c = NULL;
	fclose(t), t = NULL;
	fclose(e), e = NULL;
	fclose(rc), rc = NULL;
	if (!nwp)
		rpt_note_missing(r, "F1: truth.csv names no mission circuit (a simulator of an older preflight): "
				 "the trajectory is drawn without it");
	if (!nest)
		rpt_note_missing(r, "F1: truth.csv carries no position estimate of the app (a simulator of an older "
				 "preflight, or the app never sent one): only the truth is drawn");
	{
		struct rpt_script s1, s2;
		FILE *p1 = rpt_script_open(&s1), *p2 = p1 ? rpt_script_open(&s2) : NULL;

		if (!p2) {
			if (p1)
				fclose(p1), free(s1.text);
			goto out;
		}
		/* a square window around the path and the circuit, so that north and east keep one scale */
		half = fmax(n_hi - n_lo, e_hi - e_lo) * 0.55 + 10;
		fprintf(p1, "$C << EOD\n%sEOD\n$T << EOD\n%sEOD\n", sc.text ? sc.text : "", st.text ? st.text : "");
		fprintf(p1, "set size ratio -1\nset xrange [%g:%g]\nset yrange [%g:%g]\n"
			    "set xlabel 'east (m)'\nset ylabel 'north (m)'\nset key outside right top vertical\nplot ",
			(e_lo + e_hi) / 2 - half, (e_lo + e_hi) / 2 + half, (n_lo + n_hi) / 2 - half,
			(n_lo + n_hi) / 2 + half);
		if (nwp)
			fprintf(p1, "$C using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 1.5 lc rgb '#7f7f7f' "
				    "title 'mission circuit', ");
		fprintf(p1, "$T using 3:2 with lines lw 2 lc rgb '#0072B2' title 'truth (simulator)', "
			    "$T using 5:4 with lines dt 2 lw 1.5 lc rgb '#E69F00' title 'estimate (app)', "
			    "$T using ($6 == 2 ? $3 : 1/0):2 with points pt 7 ps 0.5 lc rgb '#D00000' title 'failsafe', "
			    "$T every ::0::0 using 3:2 with points pt 7 ps 1.2 lc rgb '#000000' title 'start'");
		rpt_script_plot(r, &s1, n, "F1.1", "F1.1 flight: trajectory over the mission circuit, truth and estimate",
				"Seen from above, one scale for north and east: the mission circuit (grey dashes, its "
				"waypoints as circles), the simulated aircraft's true path (blue), the app's own position "
				"estimate (orange dashes: the navigation solution it sent with each actuator frame), and the "
				"truth where the app was in failsafe (red dots).", "truth.csv has no samples");
		fprintf(p2, "$E << EOD\n%sEOD\n%s", se.text ? se.text : "", sr.text ? sr.text : "");
		fprintf(p2, "set multiplot layout 3,1 margins 0.09,0.97,0.13,0.9 spacing 0,0.04\n"
			    "set xrange [0:%g]\nset format x ''\nunset xlabel\nset key top right opaque\nset offsets 0, 0, graph 0.15, 0\n"
			    "set ylabel 'position (m)'\n", last_t);
		rpt_f1_panel(p2, 2, nerr[F1_POS], err_max[F1_POS], "#E69F00", "position error of the estimate (3-D)");
		fprintf(p2, "unset title\nset ylabel 'track (m)'\n");
		rpt_f1_panel(p2, 3, nerr[F1_TRACK], err_max[F1_TRACK], "#0072B2", "cross-track error (truth to circuit)");
		fprintf(p2, "set format x '%%g'\nset xlabel 'simulated time (s); red: failsafe, grey: no current estimate, hatched: the app not flying'\n"
			    "set ylabel 'altitude (m)'\n");
		rpt_f1_panel(p2, 4, nerr[F1_ALTERR], err_max[F1_ALTERR], "#009E73", "altitude error (truth to circuit)");
		fprintf(p2, "unset multiplot");
		rpt_script_plot(r, &s2, n, "F1.2", "F1.2 flight: position, track and altitude error over time",
				"The app's position estimate against the truth at the estimate's own time, and the "
				"simulated aircraft's cross-track and altitude error against the mission circuit; beyond "
				"1000 rows each point is the worst of its stretch. Shaded: the app in failsafe (red), and no "
				"current estimate (grey: not aligned yet, or no actuator frame for a second: the app silent). "
				"Hatched blue: the simulator flew without the app, before its first actuator frame and after its "
				"SPI link ended (the aircraft drifting: not the app's errors; the tables count only while it flew).",
				"truth.csv has no samples");
	}
out:
	if (c)
		fclose(c);
	if (t)
		fclose(t);
	if (e)
		fclose(e);
	if (rc)
		fclose(rc);
	free(sc.text), free(st.text), free(se.text), free(sr.text);
	fclose(f);
}

/* the loads' fixed colours and dashes in L1.1 (Tol's muted palette: not the tasks' colours) */
static const char *const rpt_load_names[] = { "wifi", "sd", "spi", "cpu", "rt-swarm" };
static const char *const rpt_load_colours[] = { "#332288", "#117733", "#882255", "#999933", "#AA4499" };

/* a load's samples drawn: the script and the run's start */
struct rpt_l1_rows {
	FILE *s;
	int64_t t0_ns;
	int n;		/* rows written */
};

/* rpt_phase_end_ns - a phase's end (run.json end_ns; its start and elapsed_s when that is not known) */
static int64_t rpt_phase_end_ns(json_t *ph)
{
	double start = rpt_num(ph, "start_ns"), end = rpt_num(ph, "end_ns"), elapsed = rpt_num(ph, "elapsed_s");

	if (end > start)
		return (int64_t)end;
	return isfinite(elapsed) ? (int64_t)(start + elapsed * 1e9) : INT64_MAX;
}

/* rpt_l1_row - one sample as a gnuplot row "seconds-from-the-run's-start achieved-%" */
static void rpt_l1_row(void *arg, int64_t t_ns, double pct)
{
	struct rpt_l1_rows *w = arg;

	fprintf(w->s, "%.3f %.3f\n", (double)(t_ns - w->t0_ns) / 1e9, pct);
	w->n++;
}

/*
 * rpt_plot_l1_time - L1.1: each load's achieved share of its target each
 * second over the whole run, from the samples files of the phases, and a table
 * of each phase's mean and worst second
 */
static void rpt_plot_l1_time(struct rpt *r)
{
	char name_q[512];
	json_t *ph, *ln, *first = json_array_get(pf_jpath_get(r->run, "phases"), 0);
	int64_t t0 = (int64_t)rpt_num(first, "start_ns");
	char path[PATH_MAX], unit[32], rows[8192] = "";
	int nblocks = 0, block_of[PF_ARRAY_SIZE(rpt_load_names)];
	struct rpt_script sc;
	size_t i, j, k;
	FILE *s;

	if (!json_is_object(first))
		return;
	s = rpt_script_open(&sc);
	if (!s)
		return;
	for (k = 0; k < PF_ARRAY_SIZE(rpt_load_names); k++) {
		int m = 0;

		block_of[k] = -1;
		fprintf(s, "$L%zu << EOD\n", k);
		json_array_foreach(pf_jpath_get(r->run, "phases"), i, ph)
			json_array_foreach(pf_jpath_get(ph, "loads"), j, ln) {
				struct rpt_l1_rows w = { s, t0, 0 };
				struct pf_load_samples ls;
				int c;

				if (strcmp(json_string_value(ln) ? json_string_value(ln) : "", rpt_load_names[k]))
					continue;
				snprintf(path, sizeof(path), "%.2000s/%.1000s/load-%s.csv", r->dir, rpt_str(ph, "dir", "."),
					 rpt_load_names[k]);
				/* every second drawn; the table's figures are those within the phase, as the gate's */
				pf_load_samples_read(path, (int64_t)rpt_num(ph, "start_ns"), rpt_phase_end_ns(ph), &ls,
						     rpt_l1_row, &w);
				snprintf(unit, sizeof(unit), "%s", ls.unit);
				c = ls.seconds;
				if (w.n)
					fprintf(s, "\n");	/* a gap between phases */
				if (c) {
					char name[256], unit_html[200];

					snprintf(rows + strlen(rows), sizeof(rows) - strlen(rows),
						 "<tr><td>%s</td><td>%s</td><td>%s</td><td class=\"n\" data-v=\"%d\">%d</td>"
						 "<td class=\"n\">%.1f %%</td><td class=\"n\">%.1f %%</td></tr>\n",
						 rpt_esc_str(rpt_str(ph, "name", "?"), name, sizeof(name)),
						 rpt_load_names[k], rpt_esc_str(unit, unit_html, sizeof(unit_html)), c, c, ls.mean_pct,
						 ls.worst_pct);
				}
				m += w.n;
			}
		fprintf(s, "EOD\n");
		if (m)
			block_of[k] = nblocks++;
	}
	if (rows[0]) {
		fputs("<p>Sampled each second by the loads themselves (docs/loads.md, \"Samples\"): the share of the "
		      "target achieved, its mean and its worst second over each phase's own time (the load gate judges "
		      "the lesser of this mean and the load's own report: docs/budgets.md).</p>\n<table id=\"load-samples\"><tr>"
		      "<th>phase</th><th>load</th><th>unit</th><th>seconds</th><th>mean</th><th>worst second</th></tr>\n",
		      r->out);
		fputs(rows, r->out);
		fputs("</table>\n", r->out);
	}
	json_array_foreach(pf_jpath_get(r->run, "phases"), i, ph) {
		double x = (rpt_num(ph, "start_ns") - t0) / 1e9;

		fprintf(s, "set arrow from %.3f, graph 0 to %.3f, graph 1 nohead lc rgb '#7f7f7f' dt 3 back\n"
			   "set label '%s' at %.3f, graph 0.97 left offset 0.3,0 tc rgb '#555555' front\n",
			x, x, pf_gp_quote(rpt_str(ph, "name", "?"), '\'', name_q, 41), x);	/* 40 characters at most */
	}
	fprintf(s, "set xrange [0:*]\nset xlabel 'time from the start of the run (s)'\nset ylabel 'achieved (%% of the target)'\n"
		   "set yrange [0:*]\nset offsets 0, 0, graph 0.05, 0\nset key outside right top vertical\n"
		   "set arrow from graph 0, first 100 to graph 1, first 100 nohead lc rgb '#D00000' dt 2 lw 2 back\n"
		   "set label 'target' at graph 0.01, first 100 offset 0,0.7 tc rgb '#D00000' front\nplot ");
	for (k = 0; k < PF_ARRAY_SIZE(rpt_load_names); k++)
		if (block_of[k] >= 0)
			fprintf(s, "%s$L%zu using 1:2 with lines lw 1.5 dt %d lc rgb '%s' title '%s'",
				block_of[k] ? ", " : "", k, (int)k + 1, rpt_load_colours[k], rpt_load_names[k]);
	rpt_script_plot(r, &sc, nblocks, "L1.1", "L1.1 loads: achieved against target, each second",
			"What each load achieved each second as a share of its target, from its samples file: wifi the "
			"bits its link passed to the ground station (against the link rate), sd the bytes fio wrote, spi "
			"the transfers, cpu stress-ng's CPU use per worker, rt-swarm the jobs. Dotted: the start of each "
			"phase; red dashed: the target.",
			"the loads wrote no samples (a run of an older preflight, or no load with a target)");
}

void rpt_plot_l1(struct rpt *r)
{
	char name_q[512], load_q[256];
	struct rpt_script sc;
	json_t *ph, *load;
	const char *name, *what;
	size_t i;
	int n = 0;
	FILE *s;

	rpt_plot_l1_time(r);
	s = rpt_script_open(&sc);
	if (!s)
		return;
	fprintf(s, "$L << EOD\n");
	json_array_foreach(pf_jpath_get(r->loads, "phases"), i, ph)
		json_object_foreach(pf_jpath_get(ph, "loads"), name, load) {
			double pct = pf_load_achieved_pct(name, load, &what);

			if (isnan(pct))
				continue;
			fprintf(s, "%d %.2f \"%s: %s\"\n", n++, pct, pf_gp_quote(rpt_str(ph, "phase", "?"), '"', name_q, sizeof(name_q)),
				pf_gp_quote(name, '"', load_q, sizeof(load_q)));
		}
	fprintf(s, "EOD\nset style fill solid 0.8 noborder\nset boxwidth 0.6\nunset key\n"
		   "set xtics rotate by -30 nomirror\nset yrange [0:*]\nset offsets 0, 0, graph 0.12, 0\nset xrange [-0.7:%d.7]\n"
		   "set ylabel 'achieved (%% of the target)'\n"
		   "set arrow from graph 0, first 100 to graph 1, first 100 nohead lc rgb '#D00000' dt 2 lw 2 front\n"
		   "set label 'target' at graph 0.01, first 100 offset 0,0.7 tc rgb '#D00000' front\n"
		   "plot $L using 1:2:xtic(3) with boxes lc rgb '#7f7f7f', $L using 1:2:(sprintf('%%.1f %%%%', $2)) "
		   "with labels offset 0,0.7 notitle", n - 1);
	rpt_script_plot(r, &sc, n, "L1.2", "L1.2 loads: achieved against target, per phase",
			"What each load achieved as a share of what was configured, from its own report: wifi the "
			"received rate, rt-swarm the jobs per second, cpu stress-ng's CPU use, spi the transfers per "
			"second, sd the bytes per second fio wrote (with a rate limit). Loads whose report carries no "
			"target (hackbench, sd unlimited) are in the table only. Red dashed: the target; 'check' "
			"takes a phase's verdicts as valid only above its [validity] threshold (docs/budgets.md).",
			"no load of this run reports a target");
}

/*
 * rpt_g1_culprit - which of the first four culprits a segment (its comm and
 * state) is, -1 none: a thread by its name, an IRQ by "irq N (name)", a
 * softirq ("softirq NET_RX", or "ksoftirqd/1 (NET_RX)" when it ran in
 * ksoftirqd) by its vector
 */
static int rpt_g1_culprit(json_t *culprit, const char *comm, const char *state)
{
	json_t *k;
	size_t i;

	json_array_foreach(pf_jpath_get(culprit, "contributors"), i, k) {
		const char *name = rpt_str(k, "name", ""), *kind = rpt_str(k, "kind", ""), *vec;

		if (i >= 4)
			break;
		if (strcmp(kind, state[0] == 'r' ? "thread" : state))
			continue;	/* "running" is a thread; "irq", "softirq" are those kinds */
		if (!strcmp(name, comm))
			return (int)i;
		vec = strchr(name, '(');
		if (!strcmp(kind, "softirq") && vec && !strncmp(comm, "softirq ", 8) &&
		    !strncmp(vec + 1, comm + 8, strlen(comm + 8)) && vec[1 + strlen(comm + 8)] == ')')
			return (int)i;
	}
	return -1;
}

/* the fields of a timeline segment (results.json culprits[].timeline.columns) */
#define RPT_TL_CPU   "0"
#define RPT_TL_START "1"
#define RPT_TL_END   "2"
#define RPT_TL_PID   "3"
#define RPT_TL_COMM  "4"
#define RPT_TL_STATE "5"

/* rpt_box - a box of G1 still open to the next one of its row and colour */
struct rpt_box {
	bool   open;
	double a, b, y, hh;	/* from, to (ms), row, half height */
	int    colour;
};

/* rpt_box_flush - write the open box as "x-centre row half-width half-height colour" */
static void rpt_box_flush(FILE *s, struct rpt_box *p)
{
	if (p->open)
		fprintf(s, "%.4f %.2f %.4f %g %d\n", (p->a + p->b) / 2, p->y, fmax((p->b - p->a) / 2, 0.002), p->hh,
			p->colour);
	p->open = false;
}

/*
 * rpt_box_put - a box [a, b] on row y: joined to the open one when it has
 * the same colour and starts within eps of its end (less than a pixel: the
 * same picture, a fraction of the SVG)
 */
static void rpt_box_put(FILE *s, struct rpt_box *p, double a, double b, double y, double hh, int colour, double eps)
{
	if (p->open && p->y == y && p->colour == colour && a <= p->b + eps) {
		p->b = fmax(p->b, b);
		return;
	}
	rpt_box_flush(s, p);
	*p = (struct rpt_box){ true, a, b, y, hh, colour };
}

/*
 * rpt_plot_g1 - the timeline around one worst activation from the trace
 * (results.json's culprits[].timeline): one row per CPU with every thread
 * that ran on it (the app's tasks in their colour, the culprits dark and
 * named, other threads light grey; IRQ and softirq time as a thin black /
 * brown bar at the bottom of the row), and the victim's row: its releases
 * (ticks), runnable but waiting (hollow, red) and running (solid), KernelShark's
 * convention. Idle is a gap.
 */
/* G1's layout: the zoomed view on top, the key and the whole window (the inset) below it */
#define RPT_G1_H 620			/* px: taller than the others, for the inset */
#define RPT_G1_SPLIT 0.32		/* screen share below the zoomed view */
#define RPT_G1_H_ALONE 500		/* px without an inset: the key in two rows below */
#define RPT_G1_SPLIT_ALONE 0.13
#define RPT_G1_MAIN_W 770.0		/* px of the zoomed view's time axis (about) */
#define RPT_G1_MAIN_H 330.0		/* px of its rows (about) */
#define RPT_G1_CHAR_PX 8.6		/* the mean width of a 14 px DejaVu Sans character */
#define RPT_G1_LINE_PX 19.0		/* a line of 14 px text */

/* rpt_chars - the characters of a UTF-8 string (its bytes that do not continue a character) */
static size_t rpt_chars(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += ((unsigned char)*text & 0xc0) != 0x80;
	return n;
}

/* the culprits named in G1: up to four, on the victim's CPU */
struct rpt_g1_labels {
	double x[4], len[4], y[4];	/* where (ms), the stretch it is on (ms), the line (row) */
	int    cpu[4];
};

/* rpt_g1_label_take - a stretch [a, b] (ms) of culprit c on cpu: its label goes on the longest during the wait */
static void rpt_g1_label_take(struct rpt_g1_labels *l, json_t *culprit, int c, int cpu, double a, double b,
			      double lat_ms)
{
	if (c < 0 || cpu != (int)rpt_int(culprit, "cpu", -1) || b <= 0 || a >= lat_ms)
		return;
	if (fmin(b, lat_ms) - fmax(a, 0) > l->len[c]) {
		l->len[c] = fmin(b, lat_ms) - fmax(a, 0);
		l->x[c] = fmax(a, 0);
		l->cpu[c] = cpu;
	}
}

/*
 * rpt_g1_label_short - a label made shorter before it is cut (issue 32.14: "local_timer interrupt
 * (ve… 18521 µs"): its parenthesised part dropped ("(vector 236)", "(pid 12)"), then "interrupt"
 * written "IRQ"; false when neither applies
 */
static bool rpt_g1_label_short(char *text)
{
	char *open = strchr(text, '('), *close = open ? strchr(open, ')') : NULL, *word;

	if (open && close) {
		if (open > text && open[-1] == ' ')
			open--;
		memmove(open, close + 1, strlen(close + 1) + 1);
		return true;
	}
	if ((word = strstr(text, "interrupt"))) {
		memcpy(word, "IRQ", 3);
		memmove(word + 3, word + 9, strlen(word + 9) + 1);
		return true;
	}
	return false;
}

/*
 * rpt_g1_label_lines - lines for the labels in the gap above their CPU's row, none overlapping
 * another (issue 32.14: at 10 px they overlapped): each on the line where, moved right past the
 * labels already there if need be, it has the most room; in a short form (rpt_g1_label_short),
 * then cut short with "…", when even that is too little. text: the labels (cut in place); ms_per_char: a character's width on the time
 * axis; rows: the plot's rows.
 */
static void rpt_g1_label_lines(struct rpt_g1_labels *l, char text[][256], double ms_per_char, double rows,
			       double lo, double hi)
{
	double row_px = RPT_G1_MAIN_H / rows, end[8];
	int nlines = (int)floor(0.5 * row_px / RPT_G1_LINE_PX), order[4], n = 0;

	nlines = nlines < 1 ? 1 : nlines > 8 ? 8 : nlines;
	for (int k = 0; k < 4; k++)
		if (l->len[k] >= 0)
			order[n++] = k;
	for (int a = 0; a < n; a++)	/* left to right */
		for (int b = a + 1; b < n; b++)
			if (l->x[order[b]] < l->x[order[a]]) {
				int t = order[a];

				order[a] = order[b];
				order[b] = t;
			}
	for (int j = 0; j < nlines; j++)
		end[j] = -INFINITY;
	for (int a = 0; a < n; a++) {
		int k = order[a], best = 0;
		double x = fmax(l->x[k], lo), w = rpt_chars(text[k]) * ms_per_char;

		if (x + w > hi)
			x = fmax(lo, hi - w);	/* a label near the right edge ends at it */
		for (int j = 1; j < nlines; j++)
			if (fmax(x, end[j]) < fmax(x, end[best]))
				best = j;
		x = fmax(x, end[best]);
		while (x + w > hi && rpt_g1_label_short(text[k]))	/* no room: the short form first */
			w = rpt_chars(text[k]) * ms_per_char;
		if (x + w > hi) {	/* still no room for all of it: the name cut short ("…"), its µs kept */
			char *us = strrchr(text[k], ' '), suffix[64];
			size_t keep, cut = 0, c = 0;

			while (us && us > text[k] && us[-1] != ' ')
				us--;	/* " 18521 µs": the number before the unit */
			us = us && us > text[k] ? us - 1 : text[k] + strlen(text[k]);
			snprintf(suffix, sizeof(suffix), "%s", us);
			keep = (size_t)fmax(1, (hi - x) / ms_per_char - 1 - rpt_chars(suffix));
			while (text[k] + cut < us && c < keep)
				c += ((unsigned char)text[k][++cut] & 0xc0) != 0x80;
			snprintf(text[k] + cut, 256 - cut, "…%s", suffix);
			w = rpt_chars(text[k]) * ms_per_char;
		}
		l->x[k] = x;
		end[best] = x + w + 2 * ms_per_char;
		l->y[k] = l->cpu[k] + 0.25 + (best + 0.6) * RPT_G1_LINE_PX / row_px;
	}
}

/*
 * rpt_g1_blocks - the timeline's data blocks for a view of [lo, hi] ms (suffix 'v'): $S<v> threads
 * (x centre, row, half width, half height, colour), $I<v> IRQ and softirq time (thin bars at the
 * bottom of a row), $W<v> the victim runnable; boxes clipped to the view, and those closer than
 * eps of one colour joined. Which of them hold a row: RPT_G1_S, RPT_G1_I, RPT_G1_W (gnuplot warns
 * of an empty one: "Skipping data file with no valid points")
 */
enum { RPT_G1_S = 1, RPT_G1_I = 2, RPT_G1_W = 4, RPT_G1_L = 8, RPT_G1_N = 16 };

static unsigned rpt_g1_blocks(FILE *s, struct rpt *r, int task, json_t *culprit, const int *tids, int ncpus, char v,
			 double lo, double hi, double eps)
{
	json_t *tl = pf_jpath_get(culprit, "timeline"), *seg;
	int64_t release = rpt_int(culprit, "release_ns", -1);
	int victim = (int)rpt_int(tl, "victim_pid", -1);
	struct rpt_box box = { 0 }, vbox = { 0 };
	unsigned held = 0;
	size_t i;

	for (int pass = 0; pass < 3; pass++) {
		fprintf(s, "$%c%c << EOD\n", "SIW"[pass], v);
		json_array_foreach(pf_jpath_get(tl, "segments"), i, seg) {
			const char *st = rpt_str(seg, RPT_TL_STATE, ""), *comm = rpt_str(seg, RPT_TL_COMM, "?");
			double a = (rpt_num(seg, RPT_TL_START) - release) / 1e6, b = (rpt_num(seg, RPT_TL_END) - release) / 1e6;
			int cpu = (int)rpt_int(seg, RPT_TL_CPU, -1), pid = (int)rpt_int(seg, RPT_TL_PID, -1), colour = 0xc8c8c8;

			if (b < lo || a > hi)
				continue;
			a = fmax(a, lo), b = fmin(b, hi);
			if (pass == 0 && (!strcmp(st, "running") || !strcmp(st, "busy"))) {
				/* busy: short runs of several threads, merged by the analysis */
				for (int k = 0; k < r->ntasks; k++)
					if (tids[k] == pid)
						colour = (int)strtol(rpt_task_colour(k) + 1, NULL, 16);
				if (rpt_g1_culprit(culprit, comm, st) >= 0 && colour == 0xc8c8c8)
					colour = 0x505050;
				rpt_box_put(s, &box, a, b, cpu, 0.25, colour, eps);
				held |= RPT_G1_S;
				if (pid == victim)
					rpt_box_put(s, &vbox, a, b, ncpus, 0.25,
						    (int)strtol(rpt_task_colour(task) + 1, NULL, 16), eps);
			} else if (pass == 1 && (!strcmp(st, "irq") || !strcmp(st, "softirq"))) {
				rpt_box_put(s, &box, a, b, cpu - 0.19, 0.06, !strcmp(st, "irq") ? 0x000000 : 0x8c510a, eps);
				held |= RPT_G1_I;
			} else if (pass == 2 && !strcmp(st, "runnable")) {
				fprintf(s, "%.4f %d %.4f 0.23\n", (a + b) / 2, ncpus, fmax((b - a) / 2, 0.002));
				held |= RPT_G1_W;
			}
		}
		rpt_box_flush(s, &box);
		rpt_box_flush(s, &vbox);
		fprintf(s, "EOD\n");
	}
	return held;
}

/*
 * rpt_g1_view - the plot command of one view's blocks (suffix v) that hold a row ('held'), with
 * or without the labels ($L) and the not-yet-woken span ($N); a view with none plots nothing
 * (1/0 on the axes set) and says "no data"
 */
static void rpt_g1_view(FILE *s, char v, bool main, unsigned held)
{
	const char *sep = "plot ";

	if (held & RPT_G1_S)
		fprintf(s, "%s$S%c using 1:2:3:4:5 with boxxyerror fs solid 0.9 noborder lc rgb variable notitle", sep, v),
			sep = ", ";
	if (held & RPT_G1_I)
		fprintf(s, "%s$I%c using 1:2:3:4:5 with boxxyerror fs solid 1 noborder lc rgb variable notitle", sep, v),
			sep = ", ";
	if (held & RPT_G1_W)
		fprintf(s, "%s$W%c using 1:2:3:4 with boxxyerror fs empty border lc rgb '#D00000' lw %d notitle", sep, v,
			main ? 2 : 1), sep = ", ";
	if (main && (held & RPT_G1_L))
		fprintf(s, "%s$L using 1:2:3 with labels left notitle", sep), sep = ", ";
	if (main && (held & RPT_G1_N))
		fprintf(s, "%s$N using 1:2:3:4 with vectors nohead dt 2 lw 2 lc rgb '#D00000' notitle", sep), sep = ", ";
	if (!(held & (RPT_G1_S | RPT_G1_I | RPT_G1_W)))
		fprintf(s, "%s1/0 notitle", sep);
}

void rpt_plot_g1(struct rpt *r, int task, json_t *culprit, int nth)
{
	char name_q[512];
	json_t *tl = pf_jpath_get(culprit, "timeline"), *seg, *rel, *t;
	int64_t release = rpt_int(culprit, "release_ns", -1), seq = rpt_int(culprit, "seq", -1);
	double lat_ms = rpt_num(culprit, "latency_ns") / 1e6, from, to, lo, hi, split;
	int64_t wake_ns;
	char woken[48];
	int victim = (int)rpt_int(tl, "victim_pid", -1), ncpus = 0, tids[RPT_MAX_TASKS];
	struct rpt_g1_labels lab;
	char id[16], title[256], vname[64], text[4][256];
	struct rpt_script sc;
	unsigned held, held_w = 0;
	bool inset;
	size_t i;
	FILE *s;

	snprintf(id, sizeof(id), "G1.%d", nth);
	if (!json_is_object(tl)) {
		rpt_note_missing(r, "%s: results.json keeps no timeline of %s job %lld (no trace, or an older analysis)",
				 id, r->task_names[task], (long long)seq);
		return;
	}
	from = (rpt_num(tl, "from_ns") - release) / 1e6;
	to = (rpt_num(tl, "to_ns") - release) / 1e6;
	/* the view a reviewer reads: from 1 ms before the release to 1 ms after the start (issue 32.14) */
	lo = fmax(from, -1.0);
	hi = fmin(to, lat_ms + 1.0);
	inset = hi - lo < 0.8 * (to - from);
	split = inset ? RPT_G1_SPLIT : RPT_G1_SPLIT_ALONE;
	ncpus = (int)rpt_int(r->results, "trace.cpus", -1);
	json_array_foreach(pf_jpath_get(tl, "segments"), i, seg)
		if ((int)rpt_int(seg, RPT_TL_CPU, -1) + 1 > ncpus)
			ncpus = (int)rpt_int(seg, RPT_TL_CPU, -1) + 1;
	if (ncpus <= 0 || ncpus > 64) {
		rpt_note_missing(r, "%s: the timeline of %s job %lld names no CPU", id, r->task_names[task], (long long)seq);
		return;
	}
	for (int k = 0; k < r->ntasks; k++)
		tids[k] = -1;
	json_array_foreach(pf_jpath_get(r->results, "tasks"), i, t)
		if (i < RPT_MAX_TASKS && json_is_integer(pf_jpath_get(t, "tid")))
			tids[i] = (int)rpt_int(t, "tid", -1);
	/* the culprits' labels: each on its longest stretch on the victim's CPU during the wait */
	for (int k = 0; k < 4; k++)
		lab.len[k] = -1;
	json_array_foreach(pf_jpath_get(tl, "segments"), i, seg) {
		const char *st = rpt_str(seg, RPT_TL_STATE, ""), *comm = rpt_str(seg, RPT_TL_COMM, "?");

		if (strcmp(st, "running") && strcmp(st, "busy") && strcmp(st, "irq") && strcmp(st, "softirq"))
			continue;
		rpt_g1_label_take(&lab, culprit, rpt_g1_culprit(culprit, comm, st), (int)rpt_int(seg, RPT_TL_CPU, -1),
				  (rpt_num(seg, RPT_TL_START) - release) / 1e6, (rpt_num(seg, RPT_TL_END) - release) / 1e6,
				  lat_ms);
	}
	for (int k = 0; k < 4; k++)
		if (lab.len[k] >= 0) {
			json_t *kk = json_array_get(pf_jpath_get(culprit, "contributors"), k);

			snprintf(text[k], sizeof(text[k]), "%s %.0f µs", rpt_str(kk, "name", "?"),
				 rpt_num(kk, "duration_ns") / 1e3);
		}
	rpt_g1_label_lines(&lab, text, RPT_G1_CHAR_PX * (hi - lo) / RPT_G1_MAIN_W, ncpus + 1.35, lo, hi);
	s = rpt_script_open(&sc);
	if (!s)
		return;
	held = rpt_g1_blocks(s, r, task, culprit, tids, ncpus, 'z', lo, hi, (hi - lo) / RPT_G1_MAIN_W);
	if (inset)
		held_w = rpt_g1_blocks(s, r, task, culprit, tids, ncpus, 'w', from, to, (to - from) / 250);
	fprintf(s, "$L << EOD\n");
	for (int k = 0; k < 4; k++)
		if (lab.len[k] >= 0) {
			fprintf(s, "%.4f %.3f \"%s\"\n", lab.x[k], lab.y[k], pf_gp_quote(text[k], '"', name_q, sizeof(name_q)));
			held |= RPT_G1_L;
		}
	/* $N released but not yet woken: release to sched_waking */
	fprintf(s, "EOD\n$N << EOD\n");
	if (!isnan(rpt_num(culprit, "not_woken_ns")) && rpt_num(culprit, "not_woken_ns") > 0) {
		fprintf(s, "0 %d %.4f 0\n", ncpus, rpt_num(culprit, "not_woken_ns") / 1e6);
		held |= RPT_G1_N;
	}
	fprintf(s, "EOD\n");
	snprintf(vname, sizeof(vname), "%s (pid %d)", r->task_names[task], victim);
	fprintf(s, "set multiplot\nset origin 0, %g\nset size 1, %g\nset bmargin 3.2\n"
		   "set xrange [%.3f:%.3f]\nset yrange [-0.6:%d.75]\nset xlabel 'time from the release of job %lld (ms)' offset 0,0.4\n"
		   "set ytics (", split, 1 - split, lo, hi, ncpus, (long long)seq);
	for (int c = 0; c < ncpus; c++)
		fprintf(s, "'CPU%d' %d, ", c, c);
	fprintf(s, "'%s' %d)\nset grid noytics\n", pf_gp_quote(vname, '\'', name_q, sizeof(name_q)), ncpus);
	if (inset)	/* the key beside the inset, else in two rows across */
		fprintf(s, "set key at screen 0.02, screen %g left top vertical maxrows 7 samplen 1.5 noopaque nobox\n",
			split - 0.01);
	else
		fprintf(s, "set key at screen 0.5, screen 0.01 center bottom horizontal maxrows 2 samplen 1.5 noopaque nobox\n");
	json_array_foreach(pf_jpath_get(tl, "releases_ns"), i, rel) {
		double x = ((double)json_integer_value(rel) - release) / 1e6;

		if (x < lo || x > hi)
			continue;	/* an arrow is not clipped to the view */
		fprintf(s, "set arrow from %.4f, %g to %.4f, %g nohead lc rgb '#000000' lw %d front\n", x, ncpus - 0.45,
			x, ncpus + 0.45, fabs(x) < 1e-9 ? 3 : 1);
	}
	fprintf(s, "set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb '#000000' dt 3 lw 1 back\n"
		   "set arrow from %.4f, graph 0 to %.4f, graph 1 nohead lc rgb '#D00000' dt 3 lw 1 back\n"
		   "set label 1 'release' at 0, %g right offset -0.3,0 front\n"
		   "set label 2 'start (+%.3f ms)' at %.4f, %g %s tc rgb '#D00000' front\n",
		lat_ms, lat_ms, ncpus + 0.6, lat_ms, lat_ms, ncpus + 0.6,
		hi - lat_ms < 0.25 * (hi - lo) ? "right offset -0.3,0" : "left offset 0.3,0");
	if (json_is_false(pf_jpath_get(tl, "complete")))
		fprintf(s, "set label 3 'incomplete: %lld short segments left out (a gap is not idle)' at graph 0.99, "
			   "graph 0.04 right tc rgb '#D00000' boxed front\n", (long long)rpt_num(tl, "dropped"));
	if (!(held & (RPT_G1_S | RPT_G1_I | RPT_G1_W)))
		fprintf(s, "set label 5 'no data: the timeline holds no segment in this view' at graph 0.5, graph 0.5 center front\n");
	rpt_g1_view(s, 'z', true, held);
	/* what the view does not hold, its key says: the job woken at its release, or never runnable unseen */
	fprintf(s, ", keyentry with boxes fs solid 0.9 noborder lc rgb '%s' title '%s running', "
		   "keyentry with boxes fs empty border lc rgb '#D00000' lw 2 lc rgb '#D00000' title 'runnable, waiting%s', "
		   "keyentry with lines dt 2 lw 2 lc rgb '#D00000' title 'released, not yet woken%s', "
		   "keyentry with boxes fs solid 0.9 noborder lc rgb '#505050' title 'culprit thread', "
		   "keyentry with boxes fs solid 0.9 noborder lc rgb '#c8c8c8' title 'other thread', "
		   "keyentry with boxes fs solid 1 noborder lc rgb '#000000' title 'hard IRQ', "
		   "keyentry with boxes fs solid 1 noborder lc rgb '#8c510a' title 'softirq'\n",
		rpt_task_colour(task), pf_gp_quote(r->task_names[task], '\'', name_q, sizeof(name_q)),
		held & RPT_G1_W ? "" : " (none here)", held & RPT_G1_N ? "" : " (none here)");
	/* the inset: the whole window kept, ±2 slots, the zoomed view framed */
	if (inset)
		fprintf(s, "unset title\nunset key\nunset label\nunset arrow\nset origin 0.46, 0\nset size 0.54, %g\n"
			   "set tmargin 1.4\nset bmargin 1.6\nset lmargin 6\nset xlabel\nset xrange [%.3f:%.3f]\nset ytics (",
			RPT_G1_SPLIT, from, to);
	for (int c = 0; c < ncpus && inset; c++)
		fprintf(s, "'CPU%d' %d, ", c, c);
	if (inset) {
		fprintf(s, "'' %d)\nset xtics format '%%g'\nset label 4 'whole window, ±2 slots (ms)' at graph 0, graph 1 left "
			   "offset 0,0.6\nset object 1 rect from %.4f, graph 0 to %.4f, graph 1 fs empty border lc rgb '#D00000' "
			   "lw 1.5 front\nset arrow from 0, graph 0 to 0, graph 1 nohead lc rgb '#000000' dt 3 lw 1 back\n",
			ncpus, lo, hi);
		if (!(held_w & (RPT_G1_S | RPT_G1_I | RPT_G1_W)))
			fprintf(s, "set label 5 'no data' at graph 0.5, graph 0.5 center front\n");
		rpt_g1_view(s, 'w', false, held_w);
		fprintf(s, "\n");
	}
	fprintf(s, "unset multiplot\n");
	fclose(s);
	/* a chained job's lateness holds its releaser's work: the wakeup latency it is judged on beside
	 * it, when the two differ by half a µs or more (the title's unit) */
	wake_ns = rpt_int(culprit, "wakeup_latency_ns", -1);
	snprintf(woken, sizeof(woken), wake_ns >= 0 && llabs(wake_ns - (int64_t)llround(lat_ms * 1e6)) >= 500 ?
		 ", woken in %.0f µs" : "", wake_ns / 1e3);
	snprintf(title, sizeof(title), "%s %s job %lld: %.0f µs late%s (trace)", id, r->task_names[task],
		 (long long)seq, lat_ms * 1e3, woken);
	rpt_plot_h(r, id, title,
			   inset ? "The trace from 1 ms before this job's release to 1 ms after its start, and (the inset, "
			   "below right) the whole window kept, 2 slots either side, the zoomed view framed in red: one row per "
			   "CPU with every thread that ran on it (the app's tasks in their colour as in the task table, the "
			   "culprits of the table above dark grey and named on the victim's CPU with their share of the wait, "
			   "other threads light grey, idle a gap; hard IRQ and softirq time as the thin bar at the bottom of a "
			   "row); the top row is the victim: its releases (ticks, this job's bold), released but not yet woken "
			   "(red dashes: a late timer or releaser), runnable but waiting for a CPU (hollow, red) and running "
			   "(solid). Dotted: this job's release (black) and start (red)." :
			   "The trace around this activation, 2 slots either side: one row per CPU with every thread that "
			   "ran on it (the app's tasks in their colour as in the task table, the culprits of the table above "
			   "dark grey and named on the victim's CPU with their share of the wait, other threads light grey, "
			   "idle a gap; hard IRQ and softirq time as the thin bar at the bottom of a row); the top row is the "
			   "victim: its releases (ticks, this job's bold), released but not yet woken (red dashes: a late timer "
			   "or releaser), runnable but waiting for a CPU (hollow, red) and running (solid). Dotted: this job's "
			   "release (black) and start (red).", sc.text, inset ? RPT_G1_H : RPT_G1_H_ALONE);
	free(sc.text);
	if (json_is_false(pf_jpath_get(tl, "complete")))
		rpt_note_missing(r, "%s: the timeline is incomplete (%lld segments farthest from the release left out, "
				 "or the trace's history or the trace itself ended inside the window)", id,
				 (long long)rpt_num(tl, "dropped"));
}

/*
 * rpt_ccdf_block - an exceedance curve (a tail object's ccdf, x in ns) as data block $name in µs,
 * widening the x range [lo, hi] (µs) and the smallest probability pmin; its largest x (µs)
 */
static double rpt_ccdf_block(FILE *s, const char *name, json_t *ccdf, double *lo, double *hi, double *pmin)
{
	double x, p, xmax = 0;
	json_t *pt;
	size_t k;

	fprintf(s, "$%s << EOD\n", name);
	json_array_foreach(ccdf, k, pt) {
		x = json_number_value(json_array_get(pt, 0)) / 1e3;
		p = json_number_value(json_array_get(pt, 1));
		fprintf(s, "%.6g %.6g\n", x, p);
		xmax = x > xmax ? x : xmax;
		*pmin = p < *pmin ? p : *pmin;
		*lo = x > 0 && x < *lo ? x : *lo;
		*hi = x > *hi ? x : *hi;
	}
	fprintf(s, "EOD\n");
	return xmax;
}

/*
 * rpt_plot_x1 - X1: each task's exceedance curve P(X >= x) of the latency its requirement
 * judges (tasks.*.tail: docs/statistics.md; lib/tail_model.c's pf_tail_of_verdict: the
 * trace's wakeup latency when REQ-LAT-001 judges it, else the job log's activation latency)
 * on log-log axes, the fitted tail model beside it where its assumptions held, and the
 * budget. Nothing at all for a results.json without tails (older analyses).
 */
void rpt_plot_x1(struct rpt *r)
{
	char key[256], name[160], name_q[512], path[256], caption[1024];
	bool judged[RPT_MAX_TASKS], model[RPT_MAX_TASKS] = { false }, any = false;
	int njudged = rpt_latency_judged(r, judged), i, n = 0;
	struct rpt_latency lat = rpt_latency_of(r, false);	/* its series is the tail's, no histogram */
	const char *what, *series = NULL;	/* the series drawn: one for every task, or NULL when they differ */
	bool mixed = false;
	struct rpt_script sc;
	double pmin = 1, lo = INFINITY, hi = 0;	/* the x range drawn (µs) */
	json_t *tails[RPT_MAX_TASKS];
	FILE *s;

	for (i = 0; i < r->ntasks; i++) {
		snprintf(path, sizeof(path), "tasks.%s", r->task_names[i]);
		tails[i] = pf_tail_of_verdict(pf_jpath_get(r->results, path), lat.metric, &what);
		if (!json_array_size(json_object_get(tails[i], "ccdf")))
			tails[i] = NULL;
		any = any || tails[i];
		if (tails[i] && series && strcmp(series, what))
			mixed = true;
		if (tails[i] && !series)
			series = what;
	}
	if (!any)
		return;
	s = rpt_script_open(&sc);
	if (!s)
		return;
	for (i = 0; i < r->ntasks; i++) {
		struct pf_tail m;
		const char *why;
		double x, ci[2], xmax = 0, top;
		size_t k;

		if (!tails[i])
			continue;
		snprintf(name, sizeof(name), "X%d", i);
		xmax = rpt_ccdf_block(s, name, json_object_get(tails[i], "ccdf"), &lo, &hi, &pmin);
		if (pf_tail_from_json(tails[i], &m, &why))
			continue;
		m.k = 0;	/* the curve only: no interval is drawn, so none of the profile's is computed */
		/* the model from its threshold out to where it reaches 1e-12 (or 10 times the largest sample) */
		fprintf(s, "$M%d << EOD\n", i);
		top = pf_tail_quantile(&m, 1e-12, ci);
		if (!isfinite(top) || top > 10 * xmax * 1e3)
			top = 10 * xmax * 1e3;
		for (k = 0; k <= 60; k++) {
			double p;

			x = m.u_ns * pow(top / m.u_ns, (double)k / 60);
			p = k ? pf_tail_exceed(&m, x, ci) : m.zeta;
			if (p > 0) {
				fprintf(s, "%.6g %.6g\n", x / 1e3, p);
				hi = x / 1e3 > hi ? x / 1e3 : hi;
			}
		}
		fprintf(s, "EOD\n");
		pmin = 1e-12 < pmin ? 1e-12 : pmin;
		model[i] = true;
	}
	/* the axes around the data and the budget (a budget at the axis hid its tick labels) */
	rpt_xrange(s, r, lat.metric, isfinite(lo) ? lo : 0, hi);
	fprintf(s, "set logscale y\nset format y '1e%%L'\nset yrange [%g:1.5]\nset key outside right top\n"
		"set xlabel '%s x (µs, log)'\nset ylabel 'P(X >= x) per activation (log)'\n",
		pmin / 2, mixed ? "latency" : strstr(series, "wakeup") ? "wakeup latency" : "activation latency");
	rpt_budget_marks(s, r, lat.metric, 'x');
	fprintf(s, "plot ");
	for (i = 0; i < r->ntasks; i++) {
		if (!tails[i])
			continue;
		snprintf(key, sizeof(key), "%s", rpt_key_name(r, i, judged, njudged, name, sizeof(name)));
		fprintf(s, "%s$X%d using 1:2 with steps lw 1.5 lc rgb '%s' title '%s'", n++ ? ", " : "", i,
			rpt_task_colour(i), pf_gp_quote(key, '\'', name_q, sizeof(name_q)));
		if (model[i]) {
			snprintf(key, sizeof(key), "%s: tail model", r->task_names[i]);
			fprintf(s, ", $M%d using 1:2 with lines lw 1 dt 2 lc rgb '%s' title '%s'", i,
				rpt_task_colour(i), pf_gp_quote(key, '\'', name_q, sizeof(name_q)));
		}
	}
	snprintf(caption, sizeof(caption), "Solid: the share of each task's jobs whose %s reached x (%s); dashed: "
		 "the generalised Pareto tail fitted above its threshold, drawn to 1e-12 per activation, only where "
		 "the model's assumptions held (docs/statistics.md; results.json tasks.*.tail says why a task has "
		 "none). Red dashed: the budget of the requirement judging the %s.",
		 mixed ? "latency" : strstr(series, "wakeup") ? "wakeup latency" : "activation latency",
		 mixed ? "the trace's wakeup latency where the trace has it, else the job log's activation latency, "
		 "release to start" : strstr(series, "wakeup") ? "from its release signal to its start, the trace's" :
		 "release to start, the job log's", lat.words);
	rpt_script_plot(r, &sc, n, "X1", mixed ? "X1 exceedance curve per task (latency, log-log)" :
			strstr(series, "wakeup") ? "X1 exceedance curve per task (wakeup latency, log-log)" :
			"X1 exceedance curve per task (activation latency, log-log)", caption,
			"no task has an exceedance curve in results.json (no job log)");
}

/*
 * rpt_plot_x2 - X2: each cyclictest thread's exceedance curve P(X >= x), idle and loaded, on
 * log-log axes, from cyclictest's histogram (cyclictest.threads[].tail: docs/cyclictest-import.md);
 * a histogram that overflowed ends at its last bucket, its max drawn alone (P >= 1/n there), and
 * the budget of a requirement on cyclictest's maximum. Nothing at all when no thread has a curve
 * (an analysis before them, or cyclictest without -h).
 */
void rpt_plot_x2(struct rpt *r)
{
	struct { json_t *res; const char *what; const char *dash; } ph[] = {
		{ r->base_idle, "idle", "1" }, { r->base_loaded, "loaded", "2" },
	};
	char key[256], name[32], what[160] = "", what_q[400], caption[1024];
	double pmin = 1, lo = INFINITY, hi = 0, budget;
	bool any = false, overflowed = false;
	struct rpt_script sc;
	const char *req;
	json_t *t;
	size_t p, k;
	FILE *s;
	int n = 0;

	for (p = 0; p < PF_ARRAY_SIZE(ph); p++)
		json_array_foreach(pf_jpath_get(ph[p].res, "cyclictest.threads"), k, t)
			any = any || json_array_size(pf_jpath_get(t, "tail.ccdf"));
	if (!any)
		return;
	s = rpt_script_open(&sc);
	if (!s)
		return;
	for (p = 0; p < PF_ARRAY_SIZE(ph); p++) {
		json_array_foreach(pf_jpath_get(ph[p].res, "cyclictest.threads"), k, t) {
			double end = rpt_num(t, "tail.ccdf_ends_ns") / 1e3, max = rpt_num(t, "latency_ns.max") / 1e3,
			       count = rpt_num(t, "tail.count");

			if (!json_array_size(pf_jpath_get(t, "tail.ccdf")))
				continue;
			snprintf(name, sizeof(name), "C%zu_%zu", p, k);
			rpt_ccdf_block(s, name, pf_jpath_get(t, "tail.ccdf"), &lo, &hi, &pmin);
			if (isnan(end) || !(max > 0 && count > 0))
				continue;
			/* past the histogram only the max is known: at least one sample reached it */
			fprintf(s, "$M%zu_%zu << EOD\n%.6g %.6g\nEOD\n", p, k, max, 1 / count);
			hi = max > hi ? max : hi;
			pmin = 1 / count < pmin ? 1 / count : pmin;
			overflowed = true;
		}
	}
	budget = rpt_budget_match_ns(r, "cyclictest.*latency_ns.max", &req);
	if (!isnan(budget)) {
		snprintf(what, sizeof(what), " (%s)", req);
		lo = budget / 1e3 < lo ? budget / 1e3 : lo;
		hi = budget / 1e3 > hi ? budget / 1e3 : hi;
		rpt_budget_mark(s, budget, 'x', pf_gp_quote(what, '\'', what_q, sizeof(what_q)));
	}
	rpt_xrange(s, r, NULL, isfinite(lo) ? lo : 0, hi);
	fprintf(s, "set logscale y\nset format y '1e%%L'\nset yrange [%g:1.5]\nset key outside right top\n"
		"set xlabel 'cyclictest latency x (µs, log)'\nset ylabel 'P(X >= x) per wakeup (log)'\nplot ",
		pmin / 2);
	for (p = 0; p < PF_ARRAY_SIZE(ph); p++) {
		json_array_foreach(pf_jpath_get(ph[p].res, "cyclictest.threads"), k, t) {
			int cpu = (int)rpt_int(t, "cpu", -1);
			const char *colour = rpt_task_colour(cpu < 0 ? (int)k : cpu);

			if (!json_array_size(pf_jpath_get(t, "tail.ccdf")))
				continue;
			if (json_is_number(pf_jpath_get(t, "tail.ccdf_ends_ns")))
				snprintf(key, sizeof(key), "CPU%d %s: %lld ≥ %.0f µs", cpu, ph[p].what,
					 (long long)rpt_num(t, "overflows.count"), rpt_num(t, "tail.ccdf_ends_ns") / 1e3);
			else
				snprintf(key, sizeof(key), "CPU%d %s", cpu, ph[p].what);
			fprintf(s, "%s$C%zu_%zu using 1:2 with steps lw 1.5 dt %s lc rgb '%s' title '%s'", n++ ? ", " : "",
				p, k, ph[p].dash, colour, key);
			if (!json_is_number(pf_jpath_get(t, "tail.ccdf_ends_ns")))
				continue;
			fprintf(s, ", $C%zu_%zu every ::(|$C%zu_%zu|-1) using 1:2 with points pt 7 ps 0.9 lc rgb '%s' notitle"
				", $M%zu_%zu using 1:2 with points pt 2 ps 1.2 lw 1.5 lc rgb '%s' notitle",
				p, k, p, k, colour, p, k, colour);
		}
	}
	if (overflowed)
		fprintf(s, ", keyentry with points pt 7 ps 0.9 lc rgb '#000000' title 'end of the histogram'"
			   ", keyentry with points pt 2 ps 1.2 lw 1.5 lc rgb '#000000' title 'max (P >= 1/n)'");
	snprintf(caption, sizeof(caption), "Solid: idle, dashed: under the phase's loads, one colour per CPU: the share "
		 "of cyclictest's wakeups whose latency reached x, from cyclictest's own histogram (exact at each bucket's "
		 "lower edge; results.json cyclictest.threads[].tail). A histogram that overflowed ends at its last bucket "
		 "(dot): cyclictest wrote no value past it but the max (cross: at least one wakeup, P >= 1/n); between "
		 "them the curve is not known. No tail model: cyclictest keeps no per-sample series.%s",
		 isnan(budget) ? "" : " Red dashed: the budget of the requirement judging cyclictest's maximum.");
	rpt_script_plot(r, &sc, n, "X2", "X2 exceedance curve per cyclictest thread (log-log)", caption,
			"no cyclictest thread has an exceedance curve in results.json");
}
