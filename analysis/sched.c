/*
 * sched.c - per-thread and per-CPU metrics from scheduler, IRQ and timer
 * events: runtime, utilisation windows, preemptions, migrations, wakeup
 * latency (sched_waking and sched_wakeup based), hard IRQ / softirq / idle
 * time, and the recent history of each CPU that culprit analysis reads.
 *
 * The trace reader (trace.c) decodes fields and calls an_on_*() in time
 * order. State is per thread and per CPU, so memory does not grow with the
 * length of the trace.
 */
#define _GNU_SOURCE
#include "sched.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* an_win_init - windows of width_ns aligned to origin_ns (a struct never initialised: an_win_free first) */
void an_win_init(struct an_win *w, int64_t width_ns, int64_t origin_ns)
{
	memset(w, 0, sizeof(*w));
	w->width_ns = width_ns;
	w->origin_ns = origin_ns;
	w->idx = -1;
	w->cap = AN_WIN_RING0;
}

/* an_win_free - what the ring grew into */
void an_win_free(struct an_win *w)
{
	free(w->big);
	w->big = NULL;
	w->cap = AN_WIN_RING0;
}

/* an_win_acc - the busy time of window k */
static int64_t *an_win_acc(struct an_win *w, int64_t k)
{
	return (w->big ? w->big : w->ring0) + (k & (w->cap - 1));
}

/*
 * an_win_grow - while no window has closed (all since window 0 are open), a ring that holds
 * window 'last' too, at most AN_WIN_RING; windows k < cap sit at k in any ring of them, so
 * growing copies them as they are. Out of memory: the ring stays as it is
 */
static void an_win_grow(struct an_win *w, int64_t last)
{
	int64_t cap = w->cap, *big;

	if (w->idx >= w->cap || last < w->cap || w->cap >= AN_WIN_RING)
		return;
	while (cap <= last && cap < AN_WIN_RING)
		cap *= 2;
	big = calloc((size_t)cap, sizeof(*big));
	if (!big)
		return;
	memcpy(big, w->big ? w->big : w->ring0, (size_t)w->cap * sizeof(*big));
	free(w->big);
	w->big = big;
	w->cap = cap;
}

/*
 * an_win_add - add busy time [start_ns, end_ns). Intervals arrive out of
 * time order (a run on another CPU may close later than a newer one; the
 * job log's rows come task by task, the logger's lag apart): the last
 * w->cap windows stay open for them, every window until AN_WIN_RING were
 * seen. A part older than that is added to the oldest open window: no time
 * is lost, and that window is overstated by at most that part.
 */
void an_win_add(struct an_win *w, int64_t start_ns, int64_t end_ns)
{
	int64_t idx, part, k, last;

	if (start_ns < w->origin_ns)
		start_ns = w->origin_ns;
	while (start_ns < end_ns) {
		idx = (start_ns - w->origin_ns) / w->width_ns;
		last = (end_ns - 1 - w->origin_ns) / w->width_ns;
		an_win_grow(w, last);
		if (last - idx > w->cap) {
			/*
			 * windows wholly inside the interval are full: one is the
			 * maximum, and the open ones past them start afresh (a
			 * huge interval takes no time)
			 */
			for (k = 0; k < w->cap; k++)
				if (*an_win_acc(w, k) > w->max_ns)
					w->max_ns = *an_win_acc(w, k);
			memset(an_win_acc(w, 0), 0, (size_t)w->cap * sizeof(int64_t));
			if (w->width_ns > w->max_ns)
				w->max_ns = w->width_ns;
			w->idx = last - w->cap;
			start_ns = w->origin_ns + (last - w->cap + 1) * w->width_ns;
			continue;
		}
		/* the part up to the window's end (computed so that no sum can overflow) */
		part = w->width_ns - (start_ns - w->origin_ns) % w->width_ns;
		if (end_ns - start_ns < part)
			part = end_ns - start_ns;
		for (k = w->idx + 1; k <= idx; k++) {
			/* window k replaces window k - cap: close it */
			int64_t *slot = an_win_acc(w, k);

			if (*slot > w->max_ns)
				w->max_ns = *slot;
			*slot = 0;
			if (k < idx - w->cap)
				k = idx - w->cap;
		}
		if (idx > w->idx)
			w->idx = idx;
		if (idx <= w->idx - w->cap)
			idx = w->idx - w->cap + 1;
		*an_win_acc(w, idx) += part;
		start_ns += part;
	}
}

void an_mwin_init(struct an_mwin *w, int64_t width_ns, int64_t origin_ns)
{
	w->width_ns = width_ns;
	w->origin_ns = origin_ns;
	w->idx = -1;
	w->open_ns = w->close_ns = INT64_MIN;
	w->acc_ns = w->max_ns = 0;
}

/* an_mwin_open - make window idx the open one, its bounds computed once */
static void an_mwin_open(struct an_mwin *w, int64_t idx)
{
	w->idx = idx;
	w->open_ns = w->origin_ns + idx * w->width_ns;
	w->close_ns = INT64_MAX - w->open_ns < w->width_ns ? INT64_MAX : w->open_ns + w->width_ns;
}

/*
 * an_mwin_add_slow - an_mwin_add of an interval not inside the open window
 * (a part before it is added to it: no time is lost, that window is
 * overstated by at most the part); windows wholly inside the interval are
 * full and skipped in one step
 */
void an_mwin_add_slow(struct an_mwin *w, int64_t start_ns, int64_t end_ns)
{
	int64_t idx, rem, last;

	if (start_ns < w->origin_ns)
		start_ns = w->origin_ns;
	if (start_ns >= end_ns)
		return;
	if (w->idx >= 0 && start_ns < w->open_ns) {
		/* older than the open window: that part is counted in it */
		rem = (end_ns < w->open_ns ? end_ns : w->open_ns) - start_ns;
		w->acc_ns += rem;
		start_ns += rem;
		if (start_ns >= end_ns)
			return;
	}
	idx = (start_ns - w->origin_ns) / w->width_ns;
	if (idx > w->idx) {
		if (w->acc_ns > w->max_ns)
			w->max_ns = w->acc_ns;
		w->acc_ns = 0;
		an_mwin_open(w, idx);
	}
	rem = w->close_ns - start_ns;	/* room left in the open window */
	if (end_ns - start_ns <= rem) {
		w->acc_ns += end_ns - start_ns;
		return;
	}
	w->acc_ns += rem;
	if (w->acc_ns > w->max_ns)
		w->max_ns = w->acc_ns;
	last = (end_ns - 1 - w->origin_ns) / w->width_ns;
	if (last - w->idx > 1 && w->width_ns > w->max_ns)
		w->max_ns = w->width_ns;	/* a full window in between */
	an_mwin_open(w, last);
	w->acc_ns = end_ns - w->open_ns;
}

/* an_mwin_max - an_win_max of in-order windows */
double an_mwin_max(const struct an_mwin *w, int64_t duration_ns)
{
	int64_t m = w->acc_ns > w->max_ns ? w->acc_ns : w->max_ns, den = w->width_ns;

	if (duration_ns > 0 && duration_ns < den)
		den = duration_ns;
	return (double)m / (double)den;
}

/*
 * an_win_max - the busiest window as a fraction of its width, or of the
 * trace duration when the trace is shorter than one window
 */
double an_win_max(const struct an_win *w, int64_t duration_ns)
{
	const int64_t *acc = w->big ? w->big : w->ring0;
	int64_t m = w->max_ns, den = w->width_ns, k;

	for (k = 0; k < w->cap; k++)
		if (acc[k] > m)
			m = acc[k];
	if (duration_ns > 0 && duration_ns < den)
		den = duration_ns;
	return (double)m / (double)den;
}

static const char *const an_softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

/* an_softirq_name - the kernel's name of a softirq vector */
const char *an_softirq_name(int vec)
{
	return vec >= 0 && vec < (int)PF_ARRAY_SIZE(an_softirq_names) ? an_softirq_names[vec] : "SOFTIRQ";
}

/* an_name - intern a short name (IRQ handler names); its index */
uint16_t an_name(struct an_run *r, const char *s, int len)
{
	size_t i;
	char **n;

	for (i = 0; i < r->nnames; i++)
		if ((int)strlen(r->names[i]) == len && !memcmp(r->names[i], s, len))
			return (uint16_t)i;
	if (r->nnames >= 65535)
		return 0;
	n = realloc(r->names, (r->nnames + 1) * sizeof(*n));
	if (!n)
		return 0;
	r->names = n;
	r->names[r->nnames] = strndup(s, len);
	if (!r->names[r->nnames])
		return 0;
	return (uint16_t)r->nnames++;
}

int an_sched_init(struct an_run *r, int ncpus)
{
	int i;

	r->ncpus = ncpus;
	if (!r->opt.tick_ns)
		r->opt.tick_ns = AN_TICK_NS;
	r->cpu = calloc(ncpus, sizeof(*r->cpu));
	if (!r->cpu)
		return -ENOMEM;
	for (i = 0; i < ncpus; i++) {
		r->cpu[i].hist = calloc(AN_CPU_HISTORY, sizeof(struct an_seg));
		if (!r->cpu[i].hist)
			return -ENOMEM;
		r->cpu[i].curr = -1;
		r->cpu[i].curr_idx = -1;
	}
	r->hpool = pf_hist_pool_new();
	if (!r->hpool)
		return -ENOMEM;
	r->hash_cap = 1024;
	r->thr_hash = malloc(r->hash_cap * sizeof(*r->thr_hash));
	if (!r->thr_hash)
		return -ENOMEM;
	memset(r->thr_hash, 0xff, r->hash_cap * sizeof(*r->thr_hash));
	an_name(r, "?", 1);
	return 0;
}

void an_sched_free(struct an_run *r)
{
	size_t i;

	/* the threads' histograms, and what dead threads kept of theirs, live in the pool */
	pf_hist_pool_free(r->hpool);
	r->hpool = NULL;
	an_win_free(&r->app_w1s);
	an_win_free(&r->app_wslot);
	for (i = 0; i < r->nthr; i++)
		free(r->thr[i].rt);
	if (r->thr)
		munmap(r->thr, r->thr_cap * sizeof(*r->thr));
	r->thr = NULL;
	free(r->thr_hash);
	free(r->tomb);
	for (i = 0; r->cpu && i < (size_t)r->ncpus; i++)
		free(r->cpu[i].hist);
	free(r->cpu);
	for (i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	free(r->lost);
	free(r->observers);
	r->observers = NULL;
	r->nobservers = 0;
}

static inline size_t an_hash(int pid, size_t cap)
{
	return ((uint32_t)pid * 2654435761u) & (cap - 1);
}

/* an_slot_of - the hash slot of pid, NULL when it has none */
static struct an_slot *an_slot_of(const struct an_run *r, int pid)
{
	struct an_slot *s;
	size_t h;

	for (h = an_hash(pid, r->hash_cap); (s = &r->thr_hash[h])->idx != -1; h = (h + 1) & (r->hash_cap - 1))
		if (s->pid == pid)
			return s;
	return NULL;
}

/* an_thread_find - the thread of pid (its newest, if the pid was used again), or NULL */
struct an_thread *an_thread_find(struct an_run *r, int pid)
{
	const struct an_slot *s;

	/* the last thread asked for: a wakeup's sched_waking, sched_wakeup and migration name one thread */
	if (r->last_idx < r->nthr && r->thr[r->last_idx].pid == pid)
		return &r->thr[r->last_idx];
	s = an_slot_of(r, pid);
	if (!s || s->idx < 0)
		return NULL;	/* none, or its last thread is gone */
	r->last_idx = (size_t)s->idx;
	return &r->thr[r->last_idx];
}

/* an_slot_put - the slot of a new pid (the table has room: it is kept at most half full) */
static void an_slot_put(struct an_slot *tab, size_t cap, int pid, int32_t idx)
{
	size_t h = an_hash(pid, cap);

	while (tab[h].idx != -1)
		h = (h + 1) & (cap - 1);
	tab[h].pid = pid;
	tab[h].idx = idx;
}

/* an_rehash - double the pid hash (its slots moved: a dead thread whose pid came again has none) */
static int an_rehash(struct an_run *r)
{
	size_t cap = r->hash_cap * 2, i;
	struct an_slot *n = malloc(cap * sizeof(*n));

	if (!n)
		return -ENOMEM;
	memset(n, 0xff, cap * sizeof(*n));
	for (i = 0; i < r->hash_cap; i++)
		if (r->thr_hash[i].idx != -1)
			an_slot_put(n, cap, r->thr_hash[i].pid, r->thr_hash[i].idx);
	free(r->thr_hash);
	r->thr_hash = n;
	r->hash_cap = cap;
	return 0;
}

/*
 * an_thr_compact - the gone threads' entries out of the table, the others
 * moved down in their order (which results.c lists them in): the pid hash,
 * the CPUs' and an_thread_find's caches follow. 0 or -ENOMEM (nothing moved).
 */
static int an_thr_compact(struct an_run *r)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), from, end;
	int32_t *to;
	size_t i, n = 0;
	int k;

	if (!r->ngone)
		return 0;
	to = malloc(r->nthr * sizeof(*to));
	if (!to)
		return -ENOMEM;
	for (i = 0; i < r->nthr; i++) {
		to[i] = r->thr[i].life == AN_GONE ? -1 : (int32_t)n;
		if (to[i] >= 0 && n != i)
			r->thr[n] = r->thr[i];
		n += to[i] >= 0;
	}
	for (i = 0; i < r->hash_cap; i++)
		if (r->thr_hash[i].idx >= 0)
			r->thr_hash[i].idx = to[r->thr_hash[i].idx];	/* a gone thread holds no slot */
	for (k = 0; k < r->ncpus; k++) {
		struct an_cpu *c = &r->cpu[k];
		uint32_t j;

		if (c->curr_idx >= 0 && (size_t)c->curr_idx < r->nthr)
			c->curr_idx = to[c->curr_idx];
		for (j = 0; j < AN_INTR_CHARGES; j++)	/* a gone thread's: -1, matching none */
			if (c->charge[j].idx >= 0 && (size_t)c->charge[j].idx < r->nthr)
				c->charge[j].idx = to[c->charge[j].idx];
	}
	r->last_idx = r->last_idx < r->nthr && to[r->last_idx] >= 0 ? (size_t)to[r->last_idx] : SIZE_MAX;
	/* the whole pages left behind go back: the table's memory is what it holds */
	from = ((uintptr_t)(r->thr + n) + page - 1) & ~(page - 1);
	end = (uintptr_t)(r->thr + r->nthr);
	if (from < end)
		madvise((void *)from, end - from, MADV_DONTNEED);
	r->nthr = n;
	r->ngone = 0;
	free(to);
	return 0;
}

/*
 * an_thr_grow - room in the thread table for one more: the gone threads'
 * entries, when they are a quarter of it, else a table twice the size. The
 * table is a mapping of its own, doubled by mremap, which moves its pages
 * instead of copying them. realloc copied it into a new block and kept the
 * old one's pages in the heap: rt-swarm-2000's table of 4 909 threads left
 * 3.1 MiB behind when it doubled. 0 or -ENOMEM.
 */
static int an_thr_grow(struct an_run *r)
{
	size_t cap = r->thr_cap ? r->thr_cap * 2 : 256;
	void *p;

	if (r->nthr < r->thr_cap)
		return 0;
	if (r->ngone && r->ngone >= r->nthr / 4 && !an_thr_compact(r))
		return 0;
	if (r->thr)
		p = mremap(r->thr, r->thr_cap * sizeof(*r->thr), cap * sizeof(*r->thr), MREMAP_MAYMOVE);
	else
		p = mmap(NULL, cap * sizeof(*r->thr), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	r->thr = p;
	r->thr_cap = cap;
	return 0;
}

/*
 * an_thread_get - the thread of pid, created on first sight, and again when
 * the pid comes back after its thread died (the kernel reuses pids: the
 * dead one keeps its entry, the pid's hash slot names the new one); NULL
 * only when out of memory (the caller then ignores the event: the analysis
 * is incomplete, never wrong about what it reports).
 */
struct an_thread *an_thread_get(struct an_run *r, int pid)
{
	struct an_thread *t = an_thread_find(r, pid);
	struct an_slot *s;

	if (t && t->life != AN_DEAD)
		return t;
	if ((r->hash_used + 1) * 2 > r->hash_cap && an_rehash(r))
		return NULL;
	if (an_thr_grow(r))
		return NULL;
	t = &r->thr[r->nthr];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->cpu = -1;
	t->prio = -1000;
	an_mwin_init(&t->w10ms, 10 * PF_NS_PER_MS, r->start_ns);
	an_mwin_init(&t->w1s, PF_NS_PER_SEC, r->start_ns);
	s = an_slot_of(r, pid);
	if (s) {
		s->idx = (int32_t)r->nthr;
	} else {
		an_slot_put(r->thr_hash, r->hash_cap, pid, (int32_t)r->nthr);
		r->hash_used++;
	}
	r->last_idx = r->nthr++;
	return t;
}

/* an_thread_runtime_now - runtime including the current run up to now_ns */
int64_t an_thread_runtime_now(const struct an_thread *t, int64_t now_ns)
{
	return t->runtime_ns + (t->running ? now_ns - t->switch_in_ns : 0);
}

int64_t an_thread_exec_now(const struct an_thread *t, int64_t now_ns)
{
	return an_thread_runtime_now(t, now_ns) - t->intr_ns;
}

/*
 * The number and the words around the name are always whole: a name too long
 * for buf is cut at a character boundary and ends in an ellipsis (snprintf
 * alone once cut "call_function_single interrupt (vector 251)" to "... (vector ")
 */
void an_irq_label(char *buf, size_t size, int irq, const char *name)
{
	static const char ell[] = "\u2026";
	char head[24] = "", tail[40] = ")";
	size_t len = strlen(name), fixed;

	if (irq < 0)
		snprintf(tail, sizeof(tail), " interrupt (vector %d)", -irq);
	else
		snprintf(head, sizeof(head), "irq %d (", irq);
	fixed = strlen(head) + strlen(tail) + sizeof(ell);	/* sizeof: the NUL too */
	if (size > fixed && len + fixed - (sizeof(ell) - 1) > size) {
		len = size - fixed;
		while (len && ((unsigned char)name[len] & 0xc0) == 0x80)
			len--;		/* not inside a UTF-8 character */
		snprintf(buf, size, "%s%.*s%s%s", head, (int)len, name, ell, tail);
		return;
	}
	snprintf(buf, size, "%s%s%s", head, name, tail);
}

/*
 * an_intr_charge - the CPU's interrupt context so far is the time of the
 * thread on it (an_thread.intr_ns) up to ts; it goes on from ts while the
 * CPU is still in an interrupt, else it has ended
 */
static void an_intr_charge(struct an_run *r, struct an_cpu *c, int64_t ts)
{
	struct an_thread *t;

	if (!c->intr_since_ns)
		return;
	if (ts < c->intr_since_ns && (c->irq_depth || c->in_softirq))
		return;		/* a switch moved back before the interrupt (an_on_running): it goes on */
	t = c->curr_idx >= 0 && (size_t)c->curr_idx < r->nthr ? &r->thr[c->curr_idx] : NULL;
	/* only a thread whose runtime runs on this CPU: interrupt time is part of its runtime */
	if (t && t->pid == c->curr && t->running && t->cpu == c - r->cpu && ts > c->intr_since_ns) {
		t->intr_ns += ts - c->intr_since_ns;
		c->charge[c->charge_n++ % AN_INTR_CHARGES] =
			(struct an_charge){ .from_ns = c->intr_since_ns, .to_ns = ts, .idx = c->curr_idx };
	}
	c->intr_since_ns = c->irq_depth || c->in_softirq ? ts : 0;
}

/*
 * an_intr_move - an inferred switch moved back to 'at' (an_on_running): the
 * interrupt time charged to thread 'from' on this CPU after 'at' was the
 * time of thread 'to', whose runtime now holds it; it leaves 'from' (whose
 * runtime ended at 'at': an execution time below zero otherwise) for 'to'.
 * Past the AN_INTR_CHARGES kept, 'from' keeps no more than its run's length.
 */
static void an_intr_move(struct an_run *r, struct an_cpu *c, int32_t from, int32_t to, int64_t at)
{
	uint32_t i, n = c->charge_n < AN_INTR_CHARGES ? c->charge_n : AN_INTR_CHARGES;
	struct an_charge *k;
	int64_t moved = 0;

	for (i = 1; i <= n; i++) {
		k = &c->charge[(c->charge_n - i) % AN_INTR_CHARGES];
		if (k->to_ns <= at)
			break;
		if (k->idx != from)
			continue;
		if (k->from_ns >= at) {
			moved += k->to_ns - k->from_ns;
			k->idx = to;
		} else {
			moved += k->to_ns - at;
			k->to_ns = at;
		}
	}
	/* its interrupts from its switch-in to 'at' (where an_switch_out ended its run) fit in that run */
	if (r->thr[from].intr_ns - moved - r->thr[from].intr_in_ns > at - r->thr[from].switch_in_ns)
		moved = r->thr[from].intr_ns - r->thr[from].intr_in_ns - (at - r->thr[from].switch_in_ns);
	r->thr[from].intr_ns -= moved;
	r->thr[to].intr_ns += moved;
}

/* an_seg_push - close a piece of CPU history */
static inline void an_seg_push(struct an_cpu *c, int kind, int64_t start_ns, int64_t end_ns,
			int32_t id, int32_t pid, uint16_t name)
{
	struct an_seg *s = &c->hist[c->hist_head];

	s->start_ns = start_ns;
	s->end_ns = end_ns;
	s->kind = (uint8_t)kind;
	s->id = id;
	s->pid = pid;
	s->name = name;
	s->in_softirq = kind == AN_SEG_IRQ && c->in_softirq;
	s->softirq_vec = c->vec;
	c->hist_head = (c->hist_head + 1) % AN_CPU_HISTORY;
	if (c->hist_n < AN_CPU_HISTORY)
		c->hist_n++;
}

/* an_hist_get - a thread's histogram *hp, allocated from the pool if it has none yet; NULL when out of memory */
static struct pf_hist *an_hist_get(struct an_run *r, struct pf_hist **hp)
{
	if (!*hp && (*hp = pf_hist_pool_alloc(r->hpool, sizeof(**hp))))
		pf_hist_init_pool(*hp, r->hpool);
	return *hp;
}

/*
 * an_hist_sample - add a latency sample to a thread's histogram, allocated on
 * first use (the histogram itself allocates per power-of-two range, so the
 * thousands of short-lived threads of a busy system cost little each)
 */
static void an_hist_sample(struct an_run *r, struct pf_hist **hp, int64_t v, int64_t at, int64_t id)
{
	if (an_hist_get(r, hp) && pf_hist_add(*hp, v, at, id))
		return;
}

/*
 * an_stage_flush - the thread's staged wakeup-latency samples into its
 * histograms: a sample costs a write into the thread, which the event has
 * in cache anyway, and the histograms are touched once per AN_STAGE samples
 */
void an_stage_flush(struct an_run *r, struct an_thread *t)
{
	const size_t stride = sizeof(t->stage[0]) / sizeof(int64_t);
	bool wake = false, wakeup = false;
	uint8_t i;
	int ret = 0;

	/* a histogram exists once it has a sample: an empty one would be a distribution of none */
	for (i = 0; i < t->nstage; i++) {
		wake = wake || t->stage[i].wake_ns != INT64_MIN;
		wakeup = wakeup || t->stage[i].wakeup_ns != INT64_MIN;
	}
	if (wake && an_hist_get(r, &t->wake_lat))
		ret = pf_hist_add_batch(t->wake_lat, &t->stage[0].wake_ns, &t->stage[0].at_ns, t->nstage, stride, t->pid);
	if (!ret && wakeup && an_hist_get(r, &t->wakeup_lat))
		ret = pf_hist_add_batch(t->wakeup_lat, &t->stage[0].wakeup_ns, &t->stage[0].at_ns, t->nstage, stride,
					t->pid);
	t->nstage = 0;	/* out of memory (ret): the rest is left out, as an_hist_sample leaves a sample */
}

/* an_lat_hist - the histogram of one of a thread's latency distributions (enum an_lat) */
static struct pf_hist **an_lat_hist(struct an_thread *t, enum an_lat k)
{
	return k == AN_LAT_WAKE ? &t->wake_lat : k == AN_LAT_WAKEUP ? &t->wakeup_lat : &t->wake_lat_inf;
}

/* an_lat_final - what a dead thread kept of one of its latency distributions, NULL when nothing */
static const struct an_lat_stats *an_lat_final(const struct an_thread *t, enum an_lat k)
{
	return t->final && t->final->at[k] >= 0 ? &t->final->st[t->final->at[k]] : NULL;
}

bool an_thread_lat(const struct an_thread *t, enum an_lat k, struct pf_stats *s)
{
	const struct pf_hist *h = *an_lat_hist((struct an_thread *)t, k);
	const struct an_lat_stats *f = an_lat_final(t, k);

	if (h) {
		pf_hist_stats(h, s);
		return true;
	}
	if (!f)
		return false;
	*s = (struct pf_stats){ .count = f->count, .min = f->min, .max = f->max, .max_at = f->max_at,
				.max_id = f->max_id, .mean = f->mean, .stddev = f->stddev, .bin_width = f->bin_width };
	memcpy(s->pct, f->pct, sizeof(s->pct));
	return true;
}

int64_t an_thread_lat_max(const struct an_thread *t, enum an_lat k)
{
	const struct pf_hist *h = *an_lat_hist((struct an_thread *)t, k);
	const struct an_lat_stats *s = an_lat_final(t, k);

	if (h)
		return h->count ? h->max : -1;
	return s && s->count ? s->max : -1;
}

/*
 * an_thread_freeze - a thread died: its staged samples go into its
 * histograms, which are then replaced by their statistics (an_final) and
 * given back to the pool, for the threads that come after it (a busy system
 * starts thousands: their histograms would otherwise add up). A histogram
 * with tail samples (none today) and all of them when out of memory stay.
 */
static void an_thread_freeze(struct an_run *r, struct an_thread *t)
{
	struct pf_stats st[AN_NLAT];
	struct an_lat_stats *c;
	struct pf_hist **h;
	struct an_final *f;
	bool keep[AN_NLAT];
	int k, i, n = 0;

	an_stage_flush(r, t);
	t->life = AN_DEAD;
	for (k = 0; k < AN_NLAT; k++) {
		h = an_lat_hist(t, k);
		keep[k] = *h != NULL;
		if (!*h)
			continue;
		pf_hist_stats(*h, &st[k]);
		for (i = 0; i < PF_HIST_NPCT; i++)
			keep[k] = keep[k] && !st[k].pct_bound[i];
		keep[k] = keep[k] && !st[k].stddev_estimated;
		n += keep[k];
	}
	if (!n || !(f = pf_hist_pool_alloc(r->hpool, sizeof(*f) + n * sizeof(f->st[0]))))
		return;
	for (k = 0; k < AN_NLAT; k++) {
		h = an_lat_hist(t, k);
		f->at[k] = -1;
		if (!keep[k])
			continue;
		f->at[k] = (int8_t)f->n;
		c = &f->st[f->n++];
		*c = (struct an_lat_stats){ .count = st[k].count, .min = st[k].min, .max = st[k].max,
					    .max_at = st[k].max_at, .max_id = st[k].max_id, .mean = st[k].mean,
					    .stddev = st[k].stddev, .bin_width = st[k].bin_width };
		memcpy(c->pct, st[k].pct, sizeof(c->pct));
		pf_hist_free(*h);
		pf_hist_pool_put(r->hpool, *h, sizeof(**h));
		*h = NULL;
	}
	t->final = f;
}

/*
 * an_thread_settled - whether a dead thread is out of every CPU's history
 * (the ring an_seg_push fills): no culprit nor timeline can name it from
 * now on. Its segments were all closed by its last switch-out (last_ns), so
 * a full ring whose oldest segment closed after that holds none of them.
 */
bool an_thread_settled(const struct an_run *r, const struct an_thread *t)
{
	const struct an_cpu *c;
	int k;

	if (t->life != AN_DEAD)
		return false;
	for (k = 0; k < r->ncpus; k++) {
		if (!(t->cpus_ran & 1ull << (k < 63 ? k : 63)))
			continue;
		c = &r->cpu[k];
		if (c->hist_n < AN_CPU_HISTORY || c->hist[c->hist_head].end_ns <= t->last_ns)
			return false;
	}
	return true;
}

/* an_final_bytes - the size of a dead thread's an_final block */
static size_t an_final_bytes(const struct an_final *f)
{
	return sizeof(*f) + f->n * sizeof(f->st[0]);
}

int an_thread_drop(struct an_run *r, struct an_thread *t)
{
	size_t idx = (size_t)(t - r->thr);
	struct an_slot *s = an_slot_of(r, t->pid);
	struct pf_hist **h;
	void *grown;
	int k;

	if (s && s->idx == (int32_t)idx) {
		/* the pid's last thread: its comm stays for the timelines that show it */
		if (r->ntomb == r->tomb_cap) {
			grown = realloc(r->tomb, (r->tomb_cap ? r->tomb_cap * 2 : 64) * sizeof(*r->tomb));
			if (!grown)
				return -ENOMEM;
			r->tomb = grown;
			r->tomb_cap = r->tomb_cap ? r->tomb_cap * 2 : 64;
		}
		memcpy(r->tomb[r->ntomb].comm, t->comm, sizeof(t->comm));
		r->tomb[r->ntomb].to = -1;
		s->idx = -2 - (int32_t)r->ntomb++;
	}
	for (k = 0; k < AN_NLAT; k++) {
		h = an_lat_hist(t, k);
		if (*h) {
			pf_hist_free(*h);
			pf_hist_pool_put(r->hpool, *h, sizeof(**h));
			*h = NULL;
		}
	}
	if (t->final)
		pf_hist_pool_put(r->hpool, t->final, an_final_bytes(t->final));
	t->final = NULL;
	free(t->rt);
	t->rt = NULL;
	r->gone_active++;
	r->gone_unresolved += t->unresolved;
	if (r->last_idx == idx)
		r->last_idx = SIZE_MAX;
	t->life = AN_GONE;
	r->ngone++;
	return 0;
}

const char *an_thread_comm(struct an_run *r, int pid)
{
	const struct an_thread *t = an_thread_find(r, pid);
	const struct an_slot *s;

	if (t)
		return t->comm;
	s = an_slot_of(r, pid);
	return s && s->idx <= -2 ? r->tomb[-2 - s->idx].comm : NULL;
}

void an_tomb_keep(struct an_run *r, int pid)
{
	struct an_slot *s = an_thread_find(r, pid) ? NULL : an_slot_of(r, pid);

	if (s && s->idx <= -2)
		r->tomb[-2 - s->idx].to = 0;
}

int an_tombs_prune(struct an_run *r)
{
	struct an_slot *n = malloc(r->hash_cap * sizeof(*n)), *s;
	size_t i, kept = 0;

	if (!n)
		return -ENOMEM;
	for (i = 0; i < r->ntomb; i++)
		if (r->tomb[i].to >= 0)
			r->tomb[i].to = (int32_t)kept++;
	memset(n, 0xff, r->hash_cap * sizeof(*n));
	r->hash_used = 0;
	for (i = 0; i < r->hash_cap; i++) {
		s = &r->thr_hash[i];
		if (s->idx == -1 || (s->idx <= -2 && r->tomb[-2 - s->idx].to < 0))
			continue;
		an_slot_put(n, r->hash_cap, s->pid, s->idx >= 0 ? s->idx : -2 - r->tomb[-2 - s->idx].to);
		r->hash_used++;
	}
	free(r->thr_hash);
	r->thr_hash = n;
	for (i = 0; i < r->ntomb; i++)
		if (r->tomb[i].to >= 0) {
			r->tomb[r->tomb[i].to] = r->tomb[i];
			r->tomb[r->tomb[i].to].to = -1;
		}
	r->ntomb = r->ntomb_pruned = kept;
	return 0;
}

/*
 * an_note_prio - remember a priority seen; 'prio' keeps the highest (it is
 * what latency depends on), 'normal_seen' whether it was ever not realtime
 */
static void an_note_prio(struct an_thread *t, int prio)
{
	int i;

	if (!t->nprios || prio < t->prio)
		t->prio = prio;
	if (prio >= 100)
		t->normal_seen = true;
	for (i = 0; i < t->nprios; i++)
		if (t->prios[i] == prio)
			return;
	if (t->nprios < AN_NPRIOS)
		t->prios[t->nprios++] = prio;
}

/* an_switch_out - the thread leaves the CPU at ts */
static void an_switch_out(struct an_run *r, struct an_cpu *c, struct an_thread *t, int64_t ts,
			  long prev_state)
{
	int64_t d;

	if (t->running) {
		d = ts - t->switch_in_ns;
		t->runtime_ns += d;
		an_mwin_add(&t->w10ms, t->switch_in_ns, ts);
		an_mwin_add(&t->w1s, t->switch_in_ns, ts);
		if (t->app_rt) {
			r->app_runtime_ns += d;
			c->app_ns += d;
			an_win_add(&r->app_w1s, t->switch_in_ns, ts);
			an_win_add(&r->app_wslot, t->switch_in_ns, ts);
		}
	}
	t->running = false;
	if ((prev_state & 0xff) == 0) {
		/* R or R+: it wanted to keep running */
		t->preemptions++;
		t->runnable = true;
	} else {
		t->runnable = false;
		t->block_ns = ts;
		t->block_preempt = t->preemptions;
		t->block_migr = t->migrations;
	}
	t->last_ns = ts;
}

/*
 * an_switch_in - the thread gets the CPU at ts (seen, or inferred from its
 * events). A wakeup closed by an inferred switch-in is a sample of its own
 * distribution (an upper bound) only within a tick of the waking; later than
 * that, the thread may have run and slept unseen, so the gap is an artefact
 * of the missing switch, not a latency: counted as unresolved.
 */
static void an_switch_in(struct an_run *r, struct an_thread *t, int cpu, int64_t ts, bool inferred)
{
	struct an_stage *e = NULL;
	int64_t d;

	if (t->cpu >= 0 && t->cpu != cpu)
		t->migrations++;
	t->cpu = cpu;
	t->cpus_ran |= 1ull << (cpu < 63 ? cpu : 63);
	t->running = true;
	t->runnable = false;
	t->switch_in_ns = ts;
	t->intr_in_ns = t->intr_ns;
	t->switches++;
	if (inferred)
		t->inferred++;
	if (!inferred && (t->waking_ns || t->wakeup_ns)) {
		e = &t->stage[t->nstage++];
		e->wake_ns = e->wakeup_ns = INT64_MIN;
		e->at_ns = ts;
	}
	if (t->waking_ns) {
		d = ts - t->waking_ns;
		if (e)
			e->wake_ns = d;
		else if (d <= r->opt.tick_ns)
			an_hist_sample(r, &t->wake_lat_inf, d, ts, t->pid);
		else
			t->unresolved++;
		t->last_waking_ns = t->waking_ns;
		t->last_timer_ns = t->wake_timer_ns;
		t->last_waker_pid = t->waker_pid;
		t->last_quiet_from_ns = t->wake_quiet_from_ns;
		t->last_quiet_to_ns = t->wake_quiet_to_ns;
		t->last_switch_in_ns = ts;
		t->last_inferred = inferred;
		t->waking_ns = 0;
		t->wake_timer_ns = 0;
	}
	if (t->wakeup_ns) {
		if (e)
			e->wakeup_ns = ts - t->wakeup_ns;
		t->wakeup_ns = 0;
	}
	if (t->nstage == AN_STAGE)
		an_stage_flush(r, t);
	if (!t->first_ns)
		t->first_ns = ts;
	t->last_ns = ts;
}

/*
 * an_copy_comm - a comm field (16 bytes, not always NUL-terminated) into a
 * thread; compared and copied as 15 fixed bytes (the kernel pads comm with
 * NULs), which is two word compares on the per-event path
 */
static inline void an_copy_comm(struct an_thread *t, const char *comm)
{
	if (!comm[0] || !memcmp(t->comm, comm, sizeof(t->comm) - 1))
		return;
	memcpy(t->comm, comm, sizeof(t->comm) - 1);
	t->comm[sizeof(t->comm) - 1] = '\0';
}

/* an_cpu_thread - the thread of pid, through the CPU's cache when it is the one on that CPU */
static inline struct an_thread *an_cpu_thread(struct an_run *r, const struct an_cpu *c, int pid)
{
	if (pid == c->curr && c->curr_idx >= 0 && (size_t)c->curr_idx < r->nthr && r->thr[c->curr_idx].pid == pid)
		return &r->thr[c->curr_idx];
	return an_thread_get(r, pid);
}

/*
 * an_cpu_advance - the CPU's current thread ends its run at ts: its time
 * goes to busy or idle and into the CPU history; false when this is the
 * CPU's first event (nothing was known before it)
 */
static inline bool an_cpu_advance(struct an_cpu *c, int64_t ts)
{
	int64_t d = ts - c->curr_since_ns;

	if (!c->known) {
		c->known = true;
		c->first_ns = ts;
		return false;
	}
	if (c->curr == 0)
		c->idle_ns += d;
	else
		c->busy_ns += d;
	an_seg_push(c, AN_SEG_THREAD, c->curr_since_ns, ts, c->curr, c->curr, 0);
	return true;
}

/* an_softirq_close - the CPU's softirq ends (or leaves it with its thread) at ts: its time and its piece of history */
static void an_softirq_close(struct an_cpu *c, int64_t ts)
{
	c->in_softirq = false;
	c->softirq_ns += ts - c->softirq_start_ns;
	an_seg_push(c, AN_SEG_SOFTIRQ, c->softirq_start_ns, ts, c->vec, c->curr, 0);
}

/* an_softirq_resume - a thread switched in at ts goes back into the softirq it was preempted in, if any */
static void an_softirq_resume(struct an_cpu *c, struct an_thread *t, int64_t ts)
{
	if (!t->softirq_vec)
		return;
	c->in_softirq = true;
	c->softirq_start_ns = c->intr_since_ns = ts;
	c->vec = t->softirq_vec - 1;
	t->softirq_vec = 0;
}

/*
 * The prev_state of a thread's last switch-out: X (EXIT_DEAD, 0x10) or Z
 * (EXIT_ZOMBIE, 0x20) since Linux 4.14, TASK_DEAD (0x40) before. After its
 * sched_process_exit a thread may still sleep (closing its files: S, D),
 * be woken and run; none of these bits is set then.
 */
#define AN_STATE_DEAD 0x70

void an_on_switch(struct an_run *r, int cpu, int64_t ts, int prev_pid, const char *prev_comm,
		  int prev_prio, long prev_state, int next_pid, const char *next_comm, int next_prio)
{
	struct an_cpu *c = &r->cpu[cpu];
	struct an_thread *t;
	uint8_t softirq_vec = 0;

	r->n_switch++;
	an_cpu_advance(c, ts);
	if (c->irq_depth) {	/* no switch inside a hard IRQ: an exit was not seen, its time is unknown */
		c->irq_depth = 0;
		c->intr_since_ns = 0;
	}
	an_intr_charge(r, c, ts);
	/*
	 * A switch inside a softirq: on PREEMPT_RT softirqs run in threads
	 * (ktimers/N, ksoftirqd/N, a threaded IRQ's bottom half) that can be
	 * preempted there. The softirq leaves the CPU with its thread and goes
	 * on when that thread runs again; the next thread's time is its own.
	 */
	if (c->in_softirq) {
		softirq_vec = (uint8_t)(c->vec + 1);
		an_softirq_close(c, ts);
		c->intr_since_ns = 0;
	}
	if (prev_pid) {
		t = an_cpu_thread(r, c, prev_pid);
		if (t) {
			an_copy_comm(t, prev_comm);
			if (!t->rt || !t->rt->boost_since_ns)	/* a PI boost is not its priority (rt.c) */
				an_note_prio(t, prev_prio);
			t->eprio = prev_prio;
			t->eprio_known = true;
			t->sw_seen = true;
			if (!t->first_ns)
				t->first_ns = ts;
			an_switch_out(r, c, t, ts, prev_state);
			t->softirq_vec = softirq_vec;
			if (t->life == AN_EXITING && (prev_state & AN_STATE_DEAD))
				an_thread_freeze(r, t);
		}
	}
	c->curr_idx = -1;
	if (next_pid) {
		t = an_thread_get(r, next_pid);
		if (t) {
			an_copy_comm(t, next_comm);
			if (!t->rt || !t->rt->boost_since_ns)
				an_note_prio(t, next_prio);
			t->eprio = next_prio;
			t->eprio_known = true;
			t->sw_seen = true;
			an_switch_in(r, t, cpu, ts, false);
			c->curr_idx = (int32_t)(t - r->thr);
			an_softirq_resume(c, t, ts);
		}
	}
	c->curr = next_pid;
	c->curr_since_ns = ts;
}

/*
 * an_on_running - an event of 'pid' on a CPU that, by its last sched_switch,
 * runs another thread: a switch was not recorded (some kernels never trace
 * the switch away from idle on some CPUs; a filter or a loss can drop one).
 * The event's pid is the thread on the CPU (common_pid is always current),
 * so the switch is inferred here - late by the time between the real switch
 * and this first event, which is why it adds no wakeup-latency sample - or,
 * on a CPU that was idle, at the thread's wakeup.
 */
void an_on_running(struct an_run *r, int cpu, int64_t ts, int pid)
{
	struct an_cpu *c = &r->cpu[cpu];
	struct an_thread *t = pid > 0 && c->known ? an_thread_find(r, pid) : NULL, *cur;
	int64_t wake, at = ts;
	int32_t old = -1;

	/*
	 * An idle CPU runs a thread woken for it at once, and so does one that
	 * runs a thread of lower priority than the realtime thread woken for it
	 * (the wakeup preempts it on its way back from the interrupt, or, on a
	 * kernel without preemption, from the system call it is in): when that
	 * switch is missing, the CPU's time is the woken thread's from its
	 * wakeup, not from its first event (a spinning thread may have none
	 * until it leaves the CPU). The wakeup-latency bound still ends at the
	 * event.
	 */
	cur = t && c->curr != 0 ? an_thread_find(r, c->curr) : NULL;
	if (t && c->curr != 0 && !(t->nprios && t->prio < 100 && (!cur || !cur->nprios || cur->prio > t->prio)))
		t = NULL;	/* not woken for an idle CPU nor above its thread (whose priority may be unknown) */
	wake = t && !t->running ? (t->wakeup_ns ? t->wakeup_ns : t->waking_ns) : 0;
	if (wake && wake >= c->curr_since_ns && wake <= ts)
		at = wake;
	an_intr_charge(r, c, at);
	if (an_cpu_advance(c, at)) {
		if (c->curr > 0 && (t = an_thread_find(r, c->curr)) && t->running && t->cpu == cpu) {
			an_switch_out(r, c, t, at, 1);	/* state unknown: not a preemption */
			old = (int32_t)(t - r->thr);
		}
		r->n_inferred++;
	}
	c->curr_idx = -1;
	if (pid > 0 && (t = an_thread_get(r, pid))) {
		if (t->running && t->cpu >= 0 && t->cpu != cpu)
			an_switch_out(r, &r->cpu[t->cpu], t, ts, 1);
		an_switch_in(r, t, cpu, ts, true);
		t->switch_in_ns = at;
		c->curr_idx = (int32_t)(t - r->thr);
		if (old >= 0 && at < ts)
			an_intr_move(r, c, old, c->curr_idx, at);
		/* its switch-in was not recorded: its softirq goes on from its first event (the exit, often) */
		an_softirq_resume(c, t, ts);
	}
	c->curr = pid;
	c->curr_since_ns = at;
}

void an_on_waking(struct an_run *r, int cpu, int64_t ts, int pid, const char *comm, int prio, bool waking)
{
	struct an_thread *t = an_thread_get(r, pid);

	if (waking)
		r->n_waking++;
	else
		r->n_wakeup++;
	if (!t)
		return;
	an_copy_comm(t, comm);
	if (!t->first_ns)
		t->first_ns = ts;
	t->last_ns = ts;
	if (t->running)
		return;		/* woken before it managed to sleep */
	/*
	 * The kernel traces a wakeup only of a thread that sleeps: a second one
	 * while a wakeup is pending means the thread ran and slept in between
	 * unseen (a switch missing from the trace). The pending one gets no
	 * latency sample; the new one starts afresh.
	 */
	if (waking) {
		struct an_cpu *c = &r->cpu[cpu];

		t->wakeups++;
		if (t->waking_ns)
			t->unresolved++;
		t->waking_ns = ts;
		t->wake_timer_ns = c->hrtimer_ns;
		t->wake_quiet_from_ns = c->hrtimer_ns ? c->hrt_quiet_from_ns : 0;
		t->wake_quiet_to_ns = c->hrtimer_ns ? c->hrt_quiet_to_ns : 0;
		/* the thread on the CPU woke it, unless a timer, an IRQ or a softirq did */
		t->waker_pid = c->hrtimer_ns || c->irq_depth || c->in_softirq || c->curr < 0 ? 0 : c->curr;
		t->wakeup_ns = 0;
	} else {
		t->wakeup_ns = ts;
	}
	t->runnable = true;
}

void an_on_migrate(struct an_run *r, int64_t ts, int pid, int dest_cpu)
{
	r->n_migrate++;
}

void an_on_exit(struct an_run *r, int pid)
{
	struct an_thread *t = pid > 0 ? an_thread_find(r, pid) : NULL;

	if (t && t->life == AN_LIVE)
		t->life = AN_EXITING;
}

void an_on_irq(struct an_run *r, int cpu, int64_t ts, bool entry, int irq, const char *name, int len)
{
	struct an_cpu *c = &r->cpu[cpu];
	int64_t d;

	if (entry) {
		if (irq < 0)
			r->n_vec++;
		else
			r->n_irq++;
		if (!c->intr_since_ns)
			c->intr_since_ns = ts;
		if (c->irq_depth++ == 0) {
			c->irq_quiet_ns = c->prev_ns;
			c->irq_start_ns = ts;
			c->irq = irq;
			c->irq_name = name ? an_name(r, name, len) : 0;
		}
		return;
	}
	if (c->irq_depth == 0)
		return;		/* the entry was before the trace */
	if (--c->irq_depth)
		return;
	d = ts - c->irq_start_ns;
	c->hardirq_ns += d;
	an_seg_push(c, AN_SEG_IRQ, c->irq_start_ns, ts, c->irq, c->curr, c->irq_name);
	an_intr_charge(r, c, ts);
}

void an_on_softirq(struct an_run *r, int cpu, int64_t ts, bool entry, int vec)
{
	struct an_cpu *c = &r->cpu[cpu];

	if (entry) {
		r->n_softirq++;
		c->in_softirq = true;
		c->softirq_start_ns = ts;
		c->vec = vec;
		if (!c->intr_since_ns)
			c->intr_since_ns = ts;
		return;
	}
	if (!c->in_softirq)
		return;
	an_softirq_close(c, ts);
	an_intr_charge(r, c, ts);
}

/*
 * The expiry pass reads the clock once ('now') and then runs the callbacks of
 * every timer due; the callbacks before this one (and, on a virtual machine,
 * the host's stalls) delay its entry event by microseconds, not its expiry.
 * A timer of another clock base (REALTIME, BOOTTIME after a suspend) has a
 * 'now' of that clock: the entry's time stamp stands for it.
 */
#define AN_HRTIMER_NOW_MAX_NS (1000 * 1000)

void an_on_hrtimer(struct an_run *r, int cpu, int64_t ts, int64_t now_ns, bool entry)
{
	struct an_cpu *c = &r->cpu[cpu];

	if (entry) {
		r->n_hrtimer++;
		c->hrt_quiet_from_ns = c->irq_depth ? c->irq_quiet_ns : c->in_softirq ? 0 : c->prev_ns;
		c->hrt_quiet_to_ns = c->irq_depth ? c->irq_start_ns : c->in_softirq ? 0 : ts;
	}
	if (entry && now_ns > 0 && now_ns <= ts && ts - now_ns <= AN_HRTIMER_NOW_MAX_NS)
		ts = now_ns;
	r->cpu[cpu].hrtimer_ns = entry ? ts : 0;
}

static int an_int_cmp(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* an_observers_set - preflight's own thread ids, as the trace lists them; 0 or -ENOMEM */
int an_observers_set(struct an_run *r, const int *pids, int n)
{
	free(r->observers);
	r->observers = NULL;
	r->nobservers = 0;
	r->observers_known = true;
	if (n <= 0)
		return 0;
	r->observers = malloc((size_t)n * sizeof(*pids));
	if (!r->observers)
		return -ENOMEM;
	memcpy(r->observers, pids, (size_t)n * sizeof(*pids));
	qsort(r->observers, (size_t)n, sizeof(*pids), an_int_cmp);
	r->nobservers = n;
	return 0;
}

/* an_is_observer - pid is one of preflight's own threads (the recorder's list) */
bool an_is_observer(const struct an_run *r, int pid)
{
	return pid > 0 && r->nobservers &&
	       bsearch(&pid, r->observers, (size_t)r->nobservers, sizeof(pid), an_int_cmp);
}

/*
 * an_observer_ns - how long preflight's own threads ran on 'cpu' inside
 * [from_ns, to_ns]: their runs in the CPU's history and the one open now,
 * less the IRQs and softirqs that interrupted them (those are not theirs)
 */
int64_t an_observer_ns(const struct an_run *r, int cpu, int64_t from_ns, int64_t to_ns)
{
	const struct an_cpu *cp;
	const struct an_seg *s;
	int64_t sum = 0, a, b;
	uint32_t i;

	if (!r->nobservers || cpu < 0 || cpu >= r->ncpus || to_ns <= from_ns)
		return 0;
	cp = &r->cpu[cpu];
	for (i = 0; i < cp->hist_n; i++) {
		s = &cp->hist[(cp->hist_head + AN_CPU_HISTORY - 1 - i) % AN_CPU_HISTORY];
		if (s->end_ns <= from_ns && s->kind == AN_SEG_THREAD)
			break;
		a = s->start_ns > from_ns ? s->start_ns : from_ns;
		b = s->end_ns < to_ns ? s->end_ns : to_ns;
		if (b <= a)
			continue;
		if (s->kind == AN_SEG_THREAD && an_is_observer(r, s->id))
			sum += b - a;
		else if (s->kind != AN_SEG_THREAD && !s->in_softirq && an_is_observer(r, s->pid))
			sum -= b - a;
	}
	if (cp->known && an_is_observer(r, cp->curr)) {
		a = cp->curr_since_ns > from_ns ? cp->curr_since_ns : from_ns;
		if (to_ns > a)
			sum += to_ns - a;
	}
	return sum > 0 ? sum : 0;
}

/* an_lost_add - record a place where events were lost; 0, or -1 when its window could not be kept */
int an_lost_add(struct an_run *r, int cpu, int64_t start_ns, int64_t end_ns, int64_t events)
{
	if (events > 0) {
		r->lost_total += events;
		r->cpu[cpu].lost += events;
	} else {
		r->lost_unknown++;
	}
	if (pf_grow(&r->lost, &r->lost_cap, r->nlost, sizeof(*r->lost), 64))
		return -1;
	r->lost[r->nlost++] = (struct an_lost){ cpu, start_ns, end_ns, events };
	return 0;
}

/*
 * an_lost_overlaps - does [start_ns, end_ns] overlap a known lost window?
 * Windows are found in the order of their end, so the scan walks back only
 * over windows that end after start_ns.
 */
bool an_lost_overlaps(const struct an_run *r, int64_t start_ns, int64_t end_ns)
{
	size_t i = r->nlost;

	while (i-- > 0) {
		if (r->lost[i].end_ns < start_ns)
			break;
		if (r->lost[i].start_ns <= end_ns)
			return true;
	}
	return false;
}

/* an_sched_finish - close every thread's current run at the trace end */
void an_sched_finish(struct an_run *r)
{
	struct an_cpu *c;
	size_t i;
	int k;

	for (k = 0; k < r->ncpus; k++) {
		c = &r->cpu[k];
		if (!c->known)
			continue;
		an_cpu_advance(c, r->end_ns);
		c->curr_since_ns = r->end_ns;
		if (c->irq_depth)
			c->hardirq_ns += r->end_ns - c->irq_start_ns;
		if (c->in_softirq)
			c->softirq_ns += r->end_ns - c->softirq_start_ns;
	}
	an_thr_compact(r);	/* out of memory: the gone stay, results.c skips them */
	for (i = 0; i < r->nthr; i++) {
		struct an_thread *t = &r->thr[i];

		if (t->life == AN_GONE)
			continue;
		an_stage_flush(r, t);
		if (t->running && t->cpu >= 0) {
			an_switch_out(r, &r->cpu[t->cpu], t, r->end_ns, 1);	/* not a preemption */
		}
	}
}
