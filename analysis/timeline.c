/*
 * timeline.c - the per-CPU timeline around each worst activation, for the
 * report's Gantt figure (G1) and for a reader of results.json
 * (tasks[].culprits[].timeline, docs/results.md).
 *
 * Which activations end up among a task's worst is known only at the end,
 * and the trace is read once, so a timeline is captured while the
 * activation is among the worst so far: when it enters a task's --top
 * list, the closed history of every CPU back to 2 slots before its release
 * is copied (the history ring of sched.c still holds it); when the trace has
 * passed 2 slots after its start, what closed since is added. One that
 * leaves the list is dropped. Memory: at most --top timelines per task, each
 * of at most AN_TL_MAX_SEGS segments: when there are more, those during the
 * wait and then the longest are kept (and the rest counted as dropped).
 *
 * Below it: sched.c's state (CPU history, threads) only; tasks.c calls it as
 * the worst lists change, results.c writes it (docs/ARCHITECTURE.md).
 */
#define _GNU_SOURCE
#include "timeline.h"
#include "sched.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define AN_TL_SLOTS    2	/* slots either side of the activation */
#define AN_TL_MAX_SEGS 1000	/* segments kept per timeline */
#define AN_TL_SHORT    1000	/* a run shorter than this part of the window may be merged */
#define AN_TL_MAX_JOBS 32	/* the victim task's jobs kept per timeline */

/* an_tl_seg - one piece of a CPU's history in a timeline */
struct an_tl_seg {
	int64_t  start_ns, end_ns;
	int32_t  id;		/* pid, IRQ number or softirq vector */
	int16_t  cpu;
	uint8_t  kind;		/* enum an_seg_kind */
	uint16_t name;		/* an IRQ's interned name */
	uint16_t runs;		/* > 1: short runs of several threads, merged (id -1) */
};

/* an_tl - the timeline of one activation among its task's worst so far */
struct an_tl {
	const struct an_task *task;
	uint32_t seq;
	int64_t  release_ns, start_ns;
	int64_t  from_ns, to_ns;	/* the window: 2 slots before the release .. 2 slots after the start */
	bool     done;			/* the trace has passed to_ns: nothing more to add */
	bool     complete;		/* every CPU's history covered the window */
	uint64_t dropped;		/* segments beyond AN_TL_MAX_SEGS */
	struct an_job jobs[AN_TL_MAX_JOBS];	/* the task's jobs in the window, oldest first */
	int      njobs;
	struct an_tl_seg *seg;
	size_t   n, cap;
};

struct an_tl_set {
	struct an_tl *tl;
	size_t n, cap;
};

/* an_tl_slot_ns - the slot length the window is measured in */
static int64_t an_tl_slot_ns(const struct an_run *r)
{
	return r->opt.slot_ns > 0 ? r->opt.slot_ns : 10 * PF_NS_PER_MS;
}

/* an_tl_add - one segment (clipped to the window, idle left out); 0 or -ENOMEM */
static int an_tl_add(struct an_tl *tl, const struct an_seg *s, int cpu)
{
	struct an_tl_seg *x;

	if (s->end_ns <= tl->from_ns || s->start_ns >= tl->to_ns || s->end_ns <= s->start_ns)
		return 0;
	if (s->kind == AN_SEG_THREAD && s->id == 0)
		return 0;	/* idle: a gap in the row */
	if (tl->n == tl->cap) {
		size_t cap = tl->cap ? 2 * tl->cap : 64;

		x = realloc(tl->seg, cap * sizeof(*x));
		if (!x)
			return -ENOMEM;
		tl->seg = x;
		tl->cap = cap;
	}
	x = &tl->seg[tl->n++];
	x->start_ns = s->start_ns > tl->from_ns ? s->start_ns : tl->from_ns;
	x->end_ns = s->end_ns < tl->to_ns ? s->end_ns : tl->to_ns;
	x->id = s->id;
	x->cpu = (int16_t)cpu;
	x->kind = s->kind;
	x->name = s->name;
	x->runs = 1;
	return 0;
}

/*
 * an_tl_collect - add every CPU's closed segments that ended after 'after_ns'
 * (all of them when INT64_MIN); with 'open', also what runs now, cut at now_ns
 */
static int an_tl_collect(struct an_run *r, struct an_tl *tl, int64_t after_ns, bool open, int64_t now_ns)
{
	uint32_t i, k;
	int cpu;

	for (cpu = 0; cpu < r->ncpus; cpu++) {
		struct an_cpu *cp = &r->cpu[cpu];
		int64_t oldest = INT64_MAX;

		for (i = 0; i < cp->hist_n; i++) {
			k = (cp->hist_head + AN_CPU_HISTORY - 1 - i) % AN_CPU_HISTORY;
			if (cp->hist[k].start_ns < oldest)
				oldest = cp->hist[k].start_ns;
			/* newest first: once a thread segment ends before what is wanted, the rest does too */
			if (cp->hist[k].kind == AN_SEG_THREAD &&
			    (cp->hist[k].end_ns <= tl->from_ns || cp->hist[k].end_ns <= after_ns))
				break;
			if (cp->hist[k].end_ns > after_ns && an_tl_add(tl, &cp->hist[k], cpu))
				return -ENOMEM;
		}
		if (i == cp->hist_n && cp->hist_n == AN_CPU_HISTORY && oldest > tl->from_ns && oldest > after_ns)
			tl->complete = false;	/* the ring had already let go of part of the window */
		if (open && cp->known && cp->curr) {
			struct an_seg s = { cp->curr_since_ns, now_ns, cp->curr, cp->curr, 0, AN_SEG_THREAD, 0, 0 };

			if (an_tl_add(tl, &s, cpu))
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * an_tl_keep_cmp - which segments a full timeline keeps first: the victim's,
 * those during the wait (release to start), then the longer ones; the
 * shortest, which no figure could show anyway, are dropped
 */
static inline int an_tl_keep_order(const struct an_tl *tl, const struct an_tl_seg *x, const struct an_tl_seg *y)
{
	bool xv = x->kind == AN_SEG_THREAD && x->id == tl->task->tid;
	bool yv = y->kind == AN_SEG_THREAD && y->id == tl->task->tid;
	bool xw = x->end_ns > tl->release_ns && x->start_ns < tl->start_ns;
	bool yw = y->end_ns > tl->release_ns && y->start_ns < tl->start_ns;
	int64_t dx = x->end_ns - x->start_ns, dy = y->end_ns - y->start_ns;

	if (xv != yv)
		return xv ? -1 : 1;
	if (xw != yw)
		return xw ? -1 : 1;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* an_tl_keep_cmp - an_tl_keep_order for qsort_r */
static int an_tl_keep_cmp(const void *a, const void *b, void *arg)
{
	return an_tl_keep_order(arg, a, b);
}

/* an_tl_jobs - the victim task's jobs in the window, from its ring of recent jobs (the worst one always) */
static void an_tl_jobs(struct an_tl *tl)
{
	const struct an_task *t = tl->task;
	uint32_t n = t->ring_n < AN_JOB_RING ? t->ring_n : AN_JOB_RING, j;
	bool worst = false;

	for (j = n; j-- > 0 && tl->njobs < AN_TL_MAX_JOBS;) {
		const struct an_job *job = &t->ring[(t->ring_n - 1 - j) % AN_JOB_RING];

		if (job->end_ns <= tl->from_ns || job->release_ns >= tl->to_ns)
			continue;
		tl->jobs[tl->njobs++] = *job;
		worst |= job->seq == tl->seq && job->release_ns == tl->release_ns;
	}
	if (t->job_open && tl->njobs < AN_TL_MAX_JOBS && t->cur.release_ns < tl->to_ns &&
	    !(t->cur.seq == tl->seq && t->cur.release_ns == tl->release_ns)) {
		tl->jobs[tl->njobs] = t->cur;	/* running at the window's end */
		tl->jobs[tl->njobs++].end_ns = tl->to_ns;
	}
	if (!worst && tl->njobs < AN_TL_MAX_JOBS)	/* still running at the window's end */
		tl->jobs[tl->njobs++] = (struct an_job){ .seq = tl->seq, .release_ns = tl->release_ns,
							 .start_ns = tl->start_ns, .end_ns = tl->to_ns };
}

/* an_tl_cpu_cmp - by CPU, then start */
static int an_tl_cpu_cmp(const void *a, const void *b)
{
	const struct an_tl_seg *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* an_tl_before - x sorts before y: by CPU then start, or (keep) in an_tl_keep_cmp's order */
static inline bool an_tl_before(const struct an_tl *tl, bool keep, const struct an_tl_seg *x,
				const struct an_tl_seg *y)
{
	return keep ? an_tl_keep_order(tl, x, y) < 0 : an_tl_cpu_cmp(x, y) < 0;
}

/* an_tl_reverse - reverse n segments in place */
static void an_tl_reverse(struct an_tl_seg *a, size_t n)
{
	struct an_tl_seg t;
	size_t i;

	for (i = 0; i < n / 2; i++) {
		t = a[i];
		a[i] = a[n - 1 - i];
		a[n - 1 - i] = t;
	}
}

/*
 * an_tl_sort - sort the segments stably (glibc's qsort, a merge sort, is
 * stable too: the same order) by a natural merge sort with the comparison
 * inlined: a window of a busy trace holds tens of thousands of segments,
 * collected CPU by CPU newest first, so by CPU and start they are a few
 * runs (a strictly falling one is reversed, which keeps the sort stable),
 * and qsort's call per comparison was a tenth of the analysis of such a trace
 */
static void an_tl_sort(struct an_tl *tl, bool keep)
{
	struct an_tl_seg *a = tl->seg, *b, *t;
	size_t n = tl->n, *run, nrun = 0, i, j, k, r, o, lo, mid, hi;

	if (n < 2)
		return;
	b = malloc(n * sizeof(*b));
	run = malloc((n + 1) * sizeof(*run));
	if (!b || !run) {
		free(b);
		free(run);
		if (keep)
			qsort_r(a, n, sizeof(*a), an_tl_keep_cmp, tl);
		else
			qsort(a, n, sizeof(*a), an_tl_cpu_cmp);
		return;
	}
	for (i = 0; i < n; i = j) {
		run[nrun++] = i;
		j = i + 1;
		if (j < n && an_tl_before(tl, keep, &a[j], &a[i])) {
			while (j < n && an_tl_before(tl, keep, &a[j], &a[j - 1]))
				j++;
			an_tl_reverse(a + i, j - i);
		} else {
			while (j < n && !an_tl_before(tl, keep, &a[j], &a[j - 1]))
				j++;
		}
	}
	run[nrun] = n;
	while (nrun > 1) {
		for (r = 0, o = 0; r < nrun; r += 2, o++) {
			lo = run[r];
			mid = r + 1 < nrun ? run[r + 1] : n;
			hi = r + 2 <= nrun ? run[r + 2 < nrun ? r + 2 : nrun] : n;
			/* the left run's element first unless the right one sorts strictly before it */
			for (i = lo, j = mid, k = lo; i < mid && j < hi;)
				b[k++] = an_tl_before(tl, keep, &a[j], &a[i]) ? a[j++] : a[i++];
			while (i < mid)
				b[k++] = a[i++];
			while (j < hi)
				b[k++] = a[j++];
			run[o] = lo;
		}
		nrun = o;
		run[nrun] = n;
		t = a;
		a = b;
		b = t;
	}
	if (a != tl->seg)
		memcpy(tl->seg, a, n * sizeof(*a));
	free(a == tl->seg ? b : a);
	free(run);
}

/* an_tl_key - a segment's place in the CPU order, and where it is now */
struct an_tl_key {
	uint64_t key;		/* start less the earliest start: the radix digits */
	uint32_t idx;
	uint16_t cpu;
};

/*
 * an_tl_sort_cpu - sort the segments by CPU, then start: an LSD radix sort
 * (stable, as qsort's merge sort is: the same order), a byte of the start
 * per pass, as many as the window's span needs, then the CPU; the merge
 * sort's comparisons were most of a close of a busy window
 */
static void an_tl_sort_cpu(struct an_tl *tl)
{
	struct an_tl_key *a, *b, *t;
	struct an_tl_seg *seg;
	size_t n = tl->n, i, cnt[256], sum, pass, npass, shift;
	int64_t lo = INT64_MAX;
	uint64_t span = 0;
	uint16_t maxcpu = 0;

	if (n < 2)
		return;
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	seg = malloc(n * sizeof(*seg));
	if (!a || !b || !seg || n > UINT32_MAX) {
		free(a);
		free(b);
		free(seg);
		an_tl_sort(tl, false);
		return;
	}
	for (i = 0; i < n; i++)
		if (tl->seg[i].start_ns < lo)
			lo = tl->seg[i].start_ns;
	for (i = 0; i < n; i++) {
		a[i].key = (uint64_t)tl->seg[i].start_ns - (uint64_t)lo;
		a[i].idx = (uint32_t)i;
		a[i].cpu = (uint16_t)tl->seg[i].cpu;	/* CPUs are never negative: the order is the same */
		if (a[i].key > span)
			span = a[i].key;
		if (a[i].cpu > maxcpu)
			maxcpu = a[i].cpu;
	}
	for (npass = 0; npass < 8 && span >> (8 * npass); npass++)
		;
	for (pass = 0; pass <= npass; pass++) {
		/* the start's bytes, least significant first; the last pass, the CPU's low byte ... */
		memset(cnt, 0, sizeof(cnt));
		shift = 8 * pass;
		for (i = 0; i < n; i++)
			cnt[pass < npass ? (a[i].key >> shift) & 0xff : a[i].cpu & 0xff]++;
		for (i = 0, sum = 0; i < 256; i++) {
			size_t c = cnt[i];

			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[cnt[pass < npass ? (a[i].key >> shift) & 0xff : a[i].cpu & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	if (maxcpu > 0xff) {	/* CPUs past 255: one more pass, on the high byte */
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[a[i].cpu >> 8]++;
		for (i = 0, sum = 0; i < 256; i++) {
			size_t c = cnt[i];

			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[cnt[a[i].cpu >> 8]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	for (i = 0; i < n; i++)
		seg[i] = tl->seg[a[i].idx];
	memcpy(tl->seg, seg, n * sizeof(*seg));
	free(a);
	free(b);
	free(seg);
}

/* an_tl_worse - segment i goes after segment j in the keeping order (an_tl_keep_cmp, then position) */
static inline bool an_tl_worse(const struct an_tl *tl, uint32_t i, uint32_t j)
{
	int c = an_tl_keep_order(tl, &tl->seg[i], &tl->seg[j]);

	return c > 0 || (c == 0 && i > j);
}

/* an_tl_sift - restore the heap of the worst kept segment at the top, from position k down */
static void an_tl_sift(const struct an_tl *tl, uint32_t *h, size_t n, size_t k)
{
	size_t c;
	uint32_t t;

	for (; (c = 2 * k + 1) < n; k = c) {
		if (c + 1 < n && an_tl_worse(tl, h[c + 1], h[c]))
			c++;
		if (!an_tl_worse(tl, h[c], h[k]))
			break;
		t = h[k];
		h[k] = h[c];
		h[c] = t;
	}
}

/* an_tl_u32_cmp - ascending positions, for qsort */
static int an_tl_u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * an_tl_keep - cut to the first 'keep' segments of a stable sort in the
 * keeping order: those are chosen through a heap of the worst kept one (a
 * segment most often loses to it at once), then only they are sorted -
 * from their order in the timeline, so that equal ones stay in it, as in
 * the stable sort of them all
 */
static void an_tl_keep(struct an_tl *tl, size_t keep)
{
	uint32_t *h = keep < tl->n ? malloc(keep * sizeof(*h)) : NULL;
	struct an_tl_seg *kept;
	size_t i;

	if (!h || tl->n > UINT32_MAX) {
		free(h);
		an_tl_sort(tl, true);
		return;
	}
	for (i = 0; i < keep; i++)
		h[i] = (uint32_t)i;
	for (i = keep / 2; i-- > 0;)
		an_tl_sift(tl, h, keep, i);
	for (i = keep; i < tl->n; i++)
		if (an_tl_worse(tl, h[0], (uint32_t)i)) {
			h[0] = (uint32_t)i;
			an_tl_sift(tl, h, keep, 0);
		}
	qsort(h, keep, sizeof(*h), an_tl_u32_cmp);
	kept = malloc(keep * sizeof(*kept));
	if (!kept) {
		free(h);
		an_tl_sort(tl, true);
		return;
	}
	for (i = 0; i < keep; i++)
		kept[i] = tl->seg[h[i]];
	memcpy(tl->seg, kept, keep * sizeof(*kept));
	free(kept);
	free(h);
	tl->n = keep;
	an_tl_sort(tl, true);
}

/*
 * an_tl_merge - join the runs of other threads shorter than 1/AN_TL_SHORT of
 * the window that follow one another on a CPU (less than that apart) into one
 * segment of several runs: the CPU was busy, no figure could name them
 */
static void an_tl_merge(struct an_tl *tl)
{
	int64_t short_ns = (tl->to_ns - tl->from_ns) / AN_TL_SHORT;
	size_t i, o = 0;

	an_tl_sort_cpu(tl);
	for (i = 0; i < tl->n; i++) {
		struct an_tl_seg *x = &tl->seg[i], *p = o ? &tl->seg[o - 1] : NULL;
		bool shrt = x->kind == AN_SEG_THREAD && x->id != tl->task->tid && x->end_ns - x->start_ns < short_ns;

		if (shrt && p && p->cpu == x->cpu && p->kind == AN_SEG_THREAD && p->id != tl->task->tid &&
		    (p->runs > 1 || p->end_ns - p->start_ns < short_ns) && x->start_ns - p->end_ns < short_ns &&
		    p->runs < UINT16_MAX) {
			p->end_ns = x->end_ns > p->end_ns ? x->end_ns : p->end_ns;
			p->id = -1;
			p->runs++;
			continue;
		}
		tl->seg[o++] = *x;
	}
	tl->n = o;
}

/* an_tl_close - the window is over (or the trace is): add what closed since the start, cut to AN_TL_MAX_SEGS */
static int an_tl_close(struct an_run *r, struct an_tl *tl, int64_t now_ns, bool trace_end)
{
	if (an_tl_collect(r, tl, tl->start_ns, !trace_end, now_ns < tl->to_ns ? now_ns : tl->to_ns))
		return -ENOMEM;
	if (trace_end && r->end_ns < tl->to_ns)
		tl->complete = false;	/* the trace ended inside the window */
	tl->done = true;
	an_tl_jobs(tl);
	if (tl->n <= AN_TL_MAX_SEGS)
		return 0;
	an_tl_merge(tl);
	if (tl->n <= AN_TL_MAX_SEGS)
		return 0;
	tl->dropped += tl->n - AN_TL_MAX_SEGS;
	an_tl_keep(tl, AN_TL_MAX_SEGS);
	tl->n = AN_TL_MAX_SEGS;
	return 0;
}

/* an_tl_find - the timeline of this task's activation, or NULL */
static struct an_tl *an_tl_find(struct an_run *r, const struct an_task *t, uint32_t seq, int64_t release_ns)
{
	struct an_tl_set *set = r->tl;
	size_t i;

	for (i = 0; set && i < set->n; i++)
		if (set->tl[i].task == t && set->tl[i].seq == seq && set->tl[i].release_ns == release_ns)
			return &set->tl[i];
	return NULL;
}

/* an_tl_in_top - this timeline's activation is still among its task's worst */
/*
 * a timeline is kept for each task's AN_TL_TOP worst activations only: what
 * the report draws; an analysis with a long --top (the selftest's 1000) would
 * otherwise keep a thousand windows of 1000 segments each
 */
#define AN_TL_TOP 5
#define AN_TL_NTOP(t) ((t)->ntop < AN_TL_TOP ? (t)->ntop : AN_TL_TOP)

static bool an_tl_in_top(const struct an_tl *tl)
{
	int i;

	for (i = 0; i < AN_TL_NTOP(tl->task); i++)
		if (tl->task->top[i].seq == tl->seq && tl->task->top[i].release_ns == tl->release_ns)
			return true;
	return false;
}

int an_tl_step(struct an_run *r, struct an_task *t, int64_t now_ns)
{
	struct an_tl_set *set = r->tl;
	struct an_tl *tl;
	size_t i;
	int k;

	if (!r->ncpus || !r->cpu)
		return 0;
	if (!set) {
		set = r->tl = calloc(1, sizeof(*set));
		if (!set)
			return -ENOMEM;
	}
	/* those of t that left its worst list */
	for (i = 0; i < set->n;) {
		if (set->tl[i].task == t && !an_tl_in_top(&set->tl[i])) {
			free(set->tl[i].seg);
			set->tl[i] = set->tl[--set->n];
		} else {
			i++;
		}
	}
	/* the one that entered it now: what is behind it */
	for (k = 0; k < AN_TL_NTOP(t); k++) {
		const struct an_culprit *c = &t->top[k];

		if (an_tl_find(r, t, c->seq, c->release_ns))
			continue;
		if (set->n == set->cap) {
			size_t cap = set->cap ? 2 * set->cap : 16;
			struct an_tl *x = realloc(set->tl, cap * sizeof(*x));

			if (!x)
				return -ENOMEM;
			set->tl = x;
			set->cap = cap;
		}
		tl = &set->tl[set->n++];
		memset(tl, 0, sizeof(*tl));
		tl->task = t;
		tl->seq = c->seq;
		tl->release_ns = c->release_ns;
		tl->start_ns = c->start_ns;
		tl->from_ns = c->release_ns - AN_TL_SLOTS * an_tl_slot_ns(r);
		tl->to_ns = c->start_ns + AN_TL_SLOTS * an_tl_slot_ns(r);
		tl->complete = true;
		if (an_tl_collect(r, tl, INT64_MIN, false, now_ns))
			return -ENOMEM;
	}
	/* every open window the trace has passed */
	for (i = 0; i < set->n; i++)
		if (!set->tl[i].done && now_ns >= set->tl[i].to_ns && an_tl_close(r, &set->tl[i], now_ns, false))
			return -ENOMEM;
	return 0;
}

int an_tl_finish(struct an_run *r)
{
	struct an_tl_set *set = r->tl;
	size_t i;

	for (i = 0; set && i < set->n; i++)
		if (!set->tl[i].done && an_tl_close(r, &set->tl[i], r->end_ns, true))
			return -ENOMEM;
	return 0;
}

void an_tl_pids(struct an_run *r, void (*fn)(struct an_run *r, int pid))
{
	struct an_tl_set *set = r->tl;
	size_t i, k;

	for (i = 0; set && i < set->n; i++)
		for (k = 0; k < set->tl[i].n; k++)
			if (set->tl[i].seg[k].kind == AN_SEG_THREAD && set->tl[i].seg[k].runs <= 1)
				fn(r, set->tl[i].seg[k].id);
}

/*
 * an_tl_seg_json - one segment as a row of AN_TL_COLUMNS: cpu, start_ns,
 * end_ns, pid (null for IRQ, softirq and merged runs), comm, state, id (the
 * IRQ number, the softirq vector, the number of merged runs; else null)
 */
static json_t *an_tl_seg_json(struct an_run *r, int cpu, int64_t start_ns, int64_t end_ns, int kind, int32_t id,
			      uint16_t name, const char *state, int runs)
{
	const char *name_s;
	char comm[AN_LABEL_LEN];
	json_t *pid = json_null(), *num = json_null();

	switch (runs > 1 ? -1 : kind) {
	case -1:
		snprintf(comm, sizeof(comm), "%d short runs", runs);
		num = json_integer(runs);
		break;
	case AN_SEG_THREAD:
		name_s = an_thread_comm(r, id);
		snprintf(comm, sizeof(comm), "%s", name_s && name_s[0] ? name_s : "?");
		pid = json_integer(id);
		break;
	case AN_SEG_IRQ:
		an_irq_label(comm, sizeof(comm), id, name < r->nnames ? r->names[name] : "?");
		num = json_integer(id);
		break;
	default:
		snprintf(comm, sizeof(comm), "softirq %s", an_softirq_name(id));
		num = json_integer(id);
		break;
	}
	return json_pack("[i, I, I, o, s, s, o]", cpu, (json_int_t)start_ns, (json_int_t)end_ns, pid, comm, state, num);
}

/*
 * an_tl_runnable - the victim's runnable-but-waiting spans: from its wakeup
 * (for the worst job, sched_waking when seen; else the release) to its
 * first run, and inside each job between its runs (preempted)
 */
static void an_tl_runnable(struct an_run *r, const struct an_tl *tl, const struct an_culprit *c, json_t *arr)
{
	const struct an_task *t = tl->task;
	size_t i;
	int j;

	for (j = 0; j < tl->njobs; j++) {
		const struct an_job *job = &tl->jobs[j];
		bool worst = job->seq == tl->seq && job->release_ns == tl->release_ns;
		int64_t from = worst && c->waking_ns ? c->waking_ns : job->release_ns, at = from;
		int cpu = worst ? c->cpu : -1;

		if (job->end_ns <= tl->from_ns || job->release_ns >= tl->to_ns)
			continue;
		/* the victim's runs inside [from, end], in time order (the segments are sorted by CPU, then start) */
		for (;;) {
			const struct an_tl_seg *next = NULL;

			for (i = 0; i < tl->n; i++) {
				const struct an_tl_seg *s = &tl->seg[i];

				if (s->kind == AN_SEG_THREAD && s->id == t->tid && s->end_ns > at && s->start_ns < job->end_ns &&
				    (!next || s->start_ns < next->start_ns))
					next = s;
			}
			if (!next)
				break;
			if (next->start_ns > at && at < job->end_ns)
				json_array_append_new(arr, an_tl_seg_json(r, cpu >= 0 ? cpu : next->cpu,
					at > tl->from_ns ? at : tl->from_ns, next->start_ns, AN_SEG_THREAD, t->tid, 0,
					"runnable", 1));
			cpu = next->cpu;
			at = next->end_ns;
		}
	}
}

json_t *an_tl_json(struct an_run *r, const struct an_task *t, const struct an_culprit *c)
{
	struct an_tl *tl = an_tl_find(r, t, c->seq, c->release_ns);
	json_t *o, *segs, *rel;
	size_t i;
	int j;

	if (!tl)
		return json_null();
	an_tl_sort_cpu(tl);
	o = json_object();
	json_object_set_new(o, "from_ns", json_integer(tl->from_ns));
	json_object_set_new(o, "to_ns", json_integer(tl->to_ns));
	json_object_set_new(o, "complete", json_boolean(tl->complete && !tl->dropped));
	json_object_set_new(o, "dropped", json_integer((json_int_t)tl->dropped));
	json_object_set_new(o, "victim_pid", t->tid ? json_integer(t->tid) : json_null());
	rel = json_array();
	for (j = 0; j < tl->njobs; j++)
		if (tl->jobs[j].release_ns >= tl->from_ns && tl->jobs[j].release_ns < tl->to_ns)
			json_array_append_new(rel, json_integer(tl->jobs[j].release_ns));
	json_object_set_new(o, "releases_ns", rel);
	json_object_set_new(o, "columns", json_pack("[s, s, s, s, s, s, s]", "cpu", "start_ns", "end_ns", "pid", "comm",
						    "state", "id"));
	segs = json_array();
	for (i = 0; i < tl->n; i++) {
		const struct an_tl_seg *s = &tl->seg[i];

		json_array_append_new(segs, an_tl_seg_json(r, s->cpu, s->start_ns, s->end_ns, s->kind, s->id, s->name,
							   s->runs > 1 ? "busy" : s->kind == AN_SEG_THREAD ? "running" :
							   s->kind == AN_SEG_IRQ ? "irq" : "softirq", s->runs));
	}
	an_tl_runnable(r, tl, c, segs);
	json_object_set_new(o, "segments", segs);
	return o;
}

void an_tl_free(struct an_run *r)
{
	struct an_tl_set *set = r->tl;
	size_t i;

	for (i = 0; set && i < set->n; i++)
		free(set->tl[i].seg);
	if (set)
		free(set->tl);
	free(set);
	r->tl = NULL;
}
