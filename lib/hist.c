/*
 * hist.c - log-linear histogram with exact count, min, max and mean, running
 * moments, tail samples known only by a bound, and its JSON form. See hist.h
 * for the layout and the guarantees, docs/results.md for the JSON.
 */
#include "hist.h"
#include "common.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const double pf_hist_pct[PF_HIST_NPCT] = { 0.50, 0.90, 0.99, 0.999, 0.9999, 0.99999 };
const char *const pf_hist_pct_name[PF_HIST_NPCT] = {
	"p50", "p90", "p99", "p99.9", "p99.99", "p99.999",
};

/*
 * A range's counters have one width, its level: 0, 1, 2, 3 are 4-, 16-, 32-
 * and 64-bit. Most ranges of most histograms hold a few samples in a few
 * buckets (the thousands of threads of a busy system, the tails of every
 * distribution), so a range starts with 4-bit counters, 64 bytes, and is
 * widened when one of its counters would overflow.
 */
#define PF_HIST_LEVELS	4

/* pf_hist_range_bytes - size of a range's counters at a level */
static size_t pf_hist_range_bytes(unsigned level)
{
	return level ? PF_HIST_SUB << level : PF_HIST_SUB / 2;
}

/* pf_hist_level - the counter width level of range r on one side: bit r of m[0] and of m[1] */
static unsigned pf_hist_level(const struct pf_hist *h, bool neg, unsigned r)
{
	const uint64_t *m = neg ? h->lvl_neg : h->lvl_pos;

	return (unsigned)((m[0] >> r) & 1) | (unsigned)((m[1] >> r) & 1) << 1;
}

/* pf_hist_set_level - record the counter width level of range r on one side */
static void pf_hist_set_level(struct pf_hist *h, bool neg, unsigned r, unsigned level)
{
	uint64_t *m = neg ? h->lvl_neg : h->lvl_pos, b = 1ull << r;

	m[0] = level & 1 ? m[0] | b : m[0] & ~b;
	m[1] = level & 2 ? m[1] | b : m[1] & ~b;
}

/* pf_hist_get - counter sub of a range block of the given level */
static inline uint64_t pf_hist_get(const void *c, unsigned level, unsigned sub)
{
	switch (level) {
	case 0:
		return ((const uint8_t *)c)[sub / 2] >> (sub % 2 * 4) & 0xf;
	case 1:
		return ((const uint16_t *)c)[sub];
	case 2:
		return ((const uint32_t *)c)[sub];
	default:
		return ((const uint64_t *)c)[sub];
	}
}

/* pf_hist_put - set counter sub of a range block of the given level to x (which fits) */
static inline void pf_hist_put(void *c, unsigned level, unsigned sub, uint64_t x)
{
	uint8_t *b;

	switch (level) {
	case 0:
		b = &((uint8_t *)c)[sub / 2];
		*b = (uint8_t)((*b & ~(0xf << (sub % 2 * 4))) | x << (sub % 2 * 4));
		break;
	case 1:
		((uint16_t *)c)[sub] = (uint16_t)x;
		break;
	case 2:
		((uint32_t *)c)[sub] = (uint32_t)x;
		break;
	default:
		((uint64_t *)c)[sub] = x;
	}
}

/* pf_hist_inc - add one to counter sub of a range block of the given level; false when it would overflow */
static inline bool pf_hist_inc(void *c, unsigned level, unsigned sub)
{
	uint8_t *b;

	switch (level) {
	case 0:
		b = (uint8_t *)c + sub / 2;
		if ((*b >> (sub % 2 * 4) & 0xf) == 0xf)
			return false;
		*b = (uint8_t)(*b + (1u << (sub % 2 * 4)));
		return true;
	case 1:
		if (((uint16_t *)c)[sub] == UINT16_MAX)
			return false;
		((uint16_t *)c)[sub]++;
		return true;
	case 2:
		if (((uint32_t *)c)[sub] == UINT32_MAX)
			return false;
		((uint32_t *)c)[sub]++;
		return true;
	default:
		((uint64_t *)c)[sub]++;
		return true;
	}
}

/* pf_hist_index - range and bucket of a magnitude */
static void pf_hist_index(uint64_t u, unsigned *r, unsigned *sub)
{
	unsigned m;

	if (u < PF_HIST_SUB) {
		*r = 0;
		*sub = (unsigned)u;
		return;
	}
	m = 63u - (unsigned)__builtin_clzll(u);		/* >= PF_HIST_SUB_BITS */
	*r = m - PF_HIST_SUB_BITS + 1;
	*sub = (unsigned)(u >> (m - PF_HIST_SUB_BITS)) - PF_HIST_SUB;
}

/* pf_hist_low - lowest magnitude of bucket sub of range r */
static uint64_t pf_hist_low(unsigned r, unsigned sub)
{
	return r ? (uint64_t)(PF_HIST_SUB + sub) << (r - 1) : sub;
}

/* pf_hist_width - width of the buckets of range r */
static uint64_t pf_hist_width(unsigned r)
{
	return r ? (uint64_t)1 << (r - 1) : 1;
}

/* pf_hist_mag - magnitude of a value */
static uint64_t pf_hist_mag(int64_t v)
{
	return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

/* The pool: blocks in size classes of PF_POOL_GRAIN bytes, carved from slabs. */
#define PF_POOL_SLAB	(64 * 1024)
#define PF_POOL_GRAIN	64
#define PF_POOL_CLASSES	(4096 / PF_POOL_GRAIN + 1)

struct pf_pool_slab {
	struct pf_pool_slab *next;
	max_align_t align[];		/* the blocks */
};

struct pf_hist_pool {
	void    *free[PF_POOL_CLASSES];	/* blocks given back, by class, linked through their first word */
	char    *cur;			/* the slab being carved */
	size_t   left;			/* bytes left in it */
	struct pf_pool_slab *slabs;	/* every slab, for pf_hist_pool_free */
};

struct pf_hist_pool *pf_hist_pool_new(void)
{
	return calloc(1, sizeof(struct pf_hist_pool));
}

void pf_hist_pool_free(struct pf_hist_pool *p)
{
	struct pf_pool_slab *s, *next;

	if (!p)
		return;
	for (s = p->slabs; s; s = next) {
		next = s->next;
		free(s);
	}
	free(p);
}

void *pf_hist_pool_alloc(struct pf_hist_pool *p, size_t size)
{
	size_t cls = (size + PF_POOL_GRAIN - 1) / PF_POOL_GRAIN, bytes = cls * PF_POOL_GRAIN, big;
	struct pf_pool_slab *s;
	char *rest;
	void *b;

	if (!p || cls >= PF_POOL_CLASSES || !cls)
		return calloc(1, size ? size : 1);
	if ((b = p->free[cls])) {
		p->free[cls] = *(void **)b;
		return memset(b, 0, bytes);
	}
	/* a larger block given back is split: its rest goes to the free list of its size */
	for (big = cls + 1; big < PF_POOL_CLASSES; big++) {
		if (!(b = p->free[big]))
			continue;
		p->free[big] = *(void **)b;
		rest = (char *)b + bytes;
		*(void **)rest = p->free[big - cls];
		p->free[big - cls] = rest;
		return memset(b, 0, bytes);
	}
	if (p->left < bytes) {
		s = malloc(sizeof(*s) + PF_POOL_SLAB);
		if (!s)
			return NULL;
		s->next = p->slabs;
		p->slabs = s;
		p->cur = (char *)s->align;
		p->left = PF_POOL_SLAB;
	}
	b = p->cur;
	p->cur += bytes;
	p->left -= bytes;
	return memset(b, 0, bytes);
}

void pf_hist_pool_put(struct pf_hist_pool *p, void *block, size_t size)
{
	size_t cls = (size + PF_POOL_GRAIN - 1) / PF_POOL_GRAIN;

	if (!block)
		return;
	if (!p || cls >= PF_POOL_CLASSES || !cls) {
		free(block);
		return;
	}
	*(void **)block = p->free[cls];
	p->free[cls] = block;
}

/* pf_hist_block - a zeroed block of the histogram's memory, accounted; NULL when out of memory */
static void *pf_hist_block(struct pf_hist *h, size_t size)
{
	void *b = pf_hist_pool_alloc(h->pool, size);

	if (b) {
		h->bytes += size;
		h->nalloc++;
	}
	return b;
}

/* pf_hist_unblock - give a block back */
static void pf_hist_unblock(struct pf_hist *h, void *b, size_t size)
{
	if (!b)
		return;
	pf_hist_pool_put(h->pool, b, size);
	h->bytes -= size;
}

/* pf_hist_count - the counter of bucket sub of range r on one side */
static uint64_t pf_hist_count(const struct pf_hist *h, bool neg, unsigned r, unsigned sub)
{
	void *const *side = neg ? (void *const *)h->neg : h->pos;

	if (!side || !side[r])
		return 0;
	return pf_hist_get(side[r], pf_hist_level(h, neg, r), sub);
}

/*
 * pf_hist_range - the counters of range r on one side, allocated at the
 * given width level when 'alloc'; NULL when absent or out of memory
 */
static void *pf_hist_range(struct pf_hist *h, bool neg, unsigned r, bool alloc, unsigned level)
{
	void **side = h->pos;

	if (neg) {
		if (!h->neg) {
			if (!alloc || !(h->neg = pf_hist_block(h, PF_HIST_NRANGES * sizeof(*h->neg))))
				return NULL;
		}
		side = h->neg;
	}
	if (!side[r] && alloc) {
		side[r] = pf_hist_block(h, pf_hist_range_bytes(level));
		if (side[r])
			pf_hist_set_level(h, neg, r, level);
	}
	return side[r];
}

/*
 * pf_hist_bump - add n to the bucket of v: its range allocated when needed
 * (never in a fixed histogram), its counters widened when one would
 * overflow; 0, -ERANGE (fixed: v lies in no range) or -ENOMEM
 */
static int pf_hist_bump(struct pf_hist *h, int64_t v, uint64_t n)
{
	static const uint64_t top[PF_HIST_LEVELS] = { 0xf, UINT16_MAX, UINT32_MAX, UINT64_MAX };
	bool neg = v < 0;
	unsigned r, sub, k, level, to;
	uint64_t now;
	void **side, *c, *w;

	pf_hist_index(pf_hist_mag(v), &r, &sub);
	side = neg ? h->neg : h->pos;
	c = side ? side[r] : NULL;
	if (!c && !(c = pf_hist_range(h, neg, r, !h->fixed, 0)))
		return h->fixed ? -ERANGE : -ENOMEM;
	level = pf_hist_level(h, neg, r);
	if (n == 1 && pf_hist_inc(c, level, sub))
		return 0;
	now = pf_hist_get(c, level, sub);
	if (n <= top[level] - now) {
		pf_hist_put(c, level, sub, now + n);
		return 0;
	}
	/* widen the range's counters to the narrowest that holds the sum */
	for (to = level + 1; to < PF_HIST_LEVELS - 1 && n > top[to] - now; to++)
		;
	w = pf_hist_block(h, pf_hist_range_bytes(to));
	if (!w)
		return -ENOMEM;
	for (k = 0; k < PF_HIST_SUB; k++)
		pf_hist_put(w, to, k, pf_hist_get(c, level, k) + (k == sub ? n : 0));
	side = neg ? h->neg : h->pos;
	side[r] = w;
	pf_hist_set_level(h, neg, r, to);
	pf_hist_unblock(h, c, pf_hist_range_bytes(level));
	return 0;
}

/* pf_hist_cmp - order of two int64 values, for qsort */
static int pf_hist_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* pf_hist_few_width - bytes of one exact sample as held now */
static size_t pf_hist_few_width(const struct pf_hist *h)
{
	return h->few64 ? sizeof(int64_t) : sizeof(uint32_t);
}

/* pf_hist_few_at - exact sample i (inline or on the heap, unsigned 32-bit or 64-bit) */
static inline int64_t pf_hist_few_at(const struct pf_hist *h, uint32_t i)
{
	if (h->few64)
		return ((const int64_t *)(h->few ? h->few : (const void *)h->few_in))[i];
	return ((const uint32_t *)(h->few ? h->few : (const void *)h->few_in32))[i];
}

/* pf_hist_few_copy - the exact samples into v (room for nfew), as int64 */
static void pf_hist_few_copy(const struct pf_hist *h, int64_t *v)
{
	uint32_t i;

	for (i = 0; i < h->nfew; i++)
		v[i] = pf_hist_few_at(h, i);
}

/*
 * pf_hist_bin - move the exact samples into buckets: from now on the
 * histogram is binned; 0 or -ENOMEM (samples not placed are lost from the
 * buckets, never from count, min, max and the moments)
 */
static int pf_hist_bin(struct pf_hist *h)
{
	int64_t v[PF_HIST_FEW_MAX];
	void *heap = h->few;
	size_t heap_bytes = h->few_cap * pf_hist_few_width(h);
	uint32_t i, n = h->nfew;
	int ret = 0;

	if (h->binned)
		return 0;
	pf_hist_few_copy(h, v);
	memset(h->pos, 0, sizeof(h->pos));
	h->few = NULL;
	h->nfew = h->few_cap = 0;
	h->few64 = false;
	h->binned = true;
	for (i = 0; i < n && !ret; i++)
		ret = pf_hist_bump(h, v[i], 1);
	if (heap)
		pf_hist_unblock(h, heap, heap_bytes);
	return ret;
}

/*
 * pf_hist_few_move - hold the exact samples in a heap block of cap samples,
 * 64-bit ones when 'wide' (or inline, cap 0: they fit); 0 or -ENOMEM
 */
static int pf_hist_few_move(struct pf_hist *h, uint32_t cap, bool wide)
{
	int64_t v[PF_HIST_FEW_MAX];
	void *old = h->few, *n = NULL;
	size_t old_bytes = h->few_cap * pf_hist_few_width(h);
	uint32_t i;

	if (cap && !(n = pf_hist_block(h, cap * (wide ? sizeof(int64_t) : sizeof(uint32_t)))))
		return -ENOMEM;
	pf_hist_few_copy(h, v);
	h->few = n;
	h->few_cap = cap;
	h->few64 = wide;
	for (i = 0; i < h->nfew; i++) {
		if (wide)
			((int64_t *)(n ? n : (void *)h->few_in))[i] = v[i];
		else
			((uint32_t *)(n ? n : (void *)h->few_in32))[i] = (uint32_t)v[i];
	}
	if (old)
		pf_hist_unblock(h, old, old_bytes);
	return 0;
}

/* pf_hist_keep - keep one sample exactly; 1 when the exact store is full (bin it), 0, or -ENOMEM */
static int pf_hist_keep(struct pf_hist *h, int64_t v)
{
	bool wide = h->few64 || v < 0 || v > UINT32_MAX;
	uint32_t inline_cap = wide ? PF_HIST_FEW_INLINE : 2 * PF_HIST_FEW_INLINE, cap;
	int ret;

	if (h->nfew >= PF_HIST_FEW_MAX)
		return 1;
	if (wide != h->few64 || (h->few ? h->nfew == h->few_cap : h->nfew >= inline_cap)) {
		/* a sample that needs 64 bits among 32-bit ones, or the store is full: a new home */
		if (!h->few && h->nfew < inline_cap)
			cap = 0;
		else if (h->few_inline)
			return 1;	/* one of many small histograms (pf_hist_init_pool): no heap block, binned */
		else
			for (cap = 128; cap <= h->nfew && cap < PF_HIST_FEW_MAX; cap *= 2)
				;
		if ((ret = pf_hist_few_move(h, cap, wide)))
			return ret;
	}
	if (h->few64)
		((int64_t *)(h->few ? h->few : (void *)h->few_in))[h->nfew++] = v;
	else
		((uint32_t *)(h->few ? h->few : (void *)h->few_in32))[h->nfew++] = (uint32_t)v;
	return 0;
}

void pf_hist_init(struct pf_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = INT64_MAX;
	h->max = INT64_MIN;
	h->below_hi = INT64_MIN;
	h->above_lo = INT64_MAX;
}

void pf_hist_init_pool(struct pf_hist *h, struct pf_hist_pool *p)
{
	pf_hist_init(h);
	h->pool = p;
	h->few_inline = true;
}

int pf_hist_init_range(struct pf_hist *h, int64_t lo, int64_t hi)
{
	unsigned r, sub, rlo, rhi;

	pf_hist_init(h);
	h->binned = true;
	if (lo > hi)
		return -EINVAL;
	/* the negative side [lo, min(hi, -1)], then the positive [max(lo, 0), hi]; 64-bit counters (never widened) */
	if (lo < 0) {
		pf_hist_index(pf_hist_mag(hi < 0 ? hi : -1), &rlo, &sub);
		pf_hist_index(pf_hist_mag(lo), &rhi, &sub);
		for (r = rlo; r <= rhi; r++)
			if (!pf_hist_range(h, true, r, true, PF_HIST_LEVELS - 1))
				goto nomem;
	}
	if (hi >= 0) {
		pf_hist_index((uint64_t)(lo > 0 ? lo : 0), &rlo, &sub);
		pf_hist_index((uint64_t)hi, &rhi, &sub);
		for (r = rlo; r <= rhi; r++)
			if (!pf_hist_range(h, false, r, true, PF_HIST_LEVELS - 1))
				goto nomem;
	}
	h->fixed = true;
	return 0;
nomem:
	pf_hist_free(h);
	return -ENOMEM;
}

void pf_hist_free(struct pf_hist *h)
{
	struct pf_hist_pool *pool = h->pool;
	bool few_inline = h->few_inline;
	unsigned r;

	if (h->binned) {
		for (r = 0; r < PF_HIST_NRANGES; r++) {
			pf_hist_unblock(h, h->pos[r], pf_hist_range_bytes(pf_hist_level(h, false, r)));
			if (h->neg)
				pf_hist_unblock(h, h->neg[r], pf_hist_range_bytes(pf_hist_level(h, true, r)));
		}
		pf_hist_unblock(h, h->neg, PF_HIST_NRANGES * sizeof(*h->neg));
	} else if (h->few) {
		pf_hist_unblock(h, h->few, h->few_cap * pf_hist_few_width(h));
	}
	pf_hist_init(h);
	h->pool = pool;
	h->few_inline = few_inline;
}

size_t pf_hist_bytes(const struct pf_hist *h)
{
	return sizeof(*h) + h->bytes;
}

/* pf_hist_moments - n samples of mean 'v' into count, sum and the Welford moments */
static void pf_hist_moments(struct pf_hist *h, long double v, uint64_t n)
{
	long double delta = v - h->wmean, before = (long double)h->count;

	h->count += n;
	h->wmean += delta * (long double)n / (long double)h->count;
	h->m2 += delta * delta * before * (long double)n / (long double)h->count;
}

/* pf_hist_extremes - min, and max with where and of what it was seen */
static inline void pf_hist_extremes(struct pf_hist *h, int64_t value, int64_t at, int64_t id)
{
	if (value < h->min)
		h->min = value;
	if (value > h->max) {
		h->max = value;
		h->max_at = at;
		h->max_id = id;
	}
}

/* pf_hist_account - update count, sum, min, max and the running moments for n copies of value */
static void pf_hist_account(struct pf_hist *h, int64_t value, uint64_t n, int64_t at, int64_t id)
{
	pf_hist_extremes(h, value, at, id);
	h->sum = pf_i128_add(h->sum, pf_i128_mul(value, n));
	pf_hist_moments(h, (long double)value, n);
}

/* pf_hist_above_ranges - whether a value of no preallocated range lies above them (else below) */
static bool pf_hist_above_ranges(const struct pf_hist *h, int64_t value)
{
	unsigned r, sub, k;

	pf_hist_index(pf_hist_mag(value), &r, &sub);
	if (value >= 0) {
		for (k = r + 1; k < PF_HIST_NRANGES; k++)
			if (h->pos[k])
				return false;
		return true;
	}
	for (k = r + 1; h->neg && k < PF_HIST_NRANGES; k++)
		if (h->neg[k])
			return true;
	return false;
}

/*
 * pf_hist_place - store n copies of value: exactly while the exact store
 * holds them (n == 1), else in its bucket, or as a tail of a preallocated
 * histogram (value outside its ranges); count and moments are the caller's;
 * 0 or -ENOMEM
 */
static int pf_hist_place(struct pf_hist *h, int64_t value, uint64_t n)
{
	int ret;

	if (!h->binned) {
		ret = n == 1 ? pf_hist_keep(h, value) : 1;
		if (ret <= 0)
			return ret;
		if ((ret = pf_hist_bin(h)))
			return ret;
	}
	ret = pf_hist_bump(h, value, n);
	if (ret != -ERANGE)
		return ret;
	if (pf_hist_above_ranges(h, value)) {
		/* outside the preallocated ranges: a tail whose bound is exact */
		h->above_n += n;
		if (value < h->above_lo)
			h->above_lo = value;
	} else {
		h->below_n += n;
		if (value > h->below_hi)
			h->below_hi = value;
	}
	return 0;
}

/* pf_hist_add_one - n copies of value, with the time and id of the max */
static int pf_hist_add_one(struct pf_hist *h, int64_t value, uint64_t n, int64_t at, int64_t id)
{
	int ret;

	if (!n)
		return 0;
	if ((ret = pf_hist_place(h, value, n)))
		return ret;
	pf_hist_account(h, value, n, at, id);
	return 0;
}

/*
 * pf_hist_bump_fast - one sample >= 0 into a binned histogram's existing
 * range whose counter does not overflow: the usual case, without a call;
 * false when the general path (pf_hist_place) is needed
 */
static inline bool pf_hist_bump_fast(struct pf_hist *h, int64_t v)
{
	unsigned r, sub;

	if (!h->binned || v < 0)
		return false;
	pf_hist_index((uint64_t)v, &r, &sub);
	return h->pos[r] && pf_hist_inc(h->pos[r], pf_hist_level(h, false, r), sub);
}

/*
 * pf_hist_add - pf_hist_add_one for one copy: the same arithmetic (a product
 * by n = 1 is exact, in the sum and in the moments), fewer operations
 */
/* pf_hist_welford - one sample into a running count, mean and sum of squared deviations */
static inline void pf_hist_welford(uint64_t *count, long double *wmean, long double *m2, int64_t value)
{
	long double delta = (long double)value - *wmean, before = (long double)(*count)++;

	*wmean += delta / (long double)*count;
	*m2 += delta * delta * before / (long double)*count;
}

int pf_hist_add(struct pf_hist *h, int64_t value, int64_t at, int64_t id)
{
	int ret;

	if (!pf_hist_bump_fast(h, value) && (ret = pf_hist_place(h, value, 1)))
		return ret;
	pf_hist_extremes(h, value, at, id);
	h->sum = pf_i128_add(h->sum, pf_i128_from(value));
	pf_hist_welford(&h->count, &h->wmean, &h->m2, value);
	return 0;
}

int pf_hist_add_batch(struct pf_hist *h, const int64_t *v, const int64_t *at, size_t n, size_t stride, int64_t id)
{
	long double wmean = h->wmean, m2 = h->m2;
	uint64_t count = h->count;
	size_t i;
	int ret = 0;

	/* pf_hist_add's arithmetic in the same order, the moments held in registers between samples */
	for (i = 0; i < n * stride; i += stride) {
		if (v[i] == INT64_MIN)
			continue;
		if (!pf_hist_bump_fast(h, v[i]) && (ret = pf_hist_place(h, v[i], 1)))
			break;
		pf_hist_extremes(h, v[i], at[i], id);
		h->sum = pf_i128_add(h->sum, pf_i128_from(v[i]));
		pf_hist_welford(&count, &wmean, &m2, v[i]);
	}
	h->wmean = wmean;
	h->m2 = m2;
	h->count = count;
	return ret;
}

int pf_hist_add_n(struct pf_hist *h, int64_t value, uint64_t n)
{
	int ret;

	/* a bin of another histogram, not a sample: never kept as if it were exact */
	if (n && (ret = pf_hist_bin(h)))
		return ret;
	return pf_hist_add_one(h, value, n, 0, 0);
}

int pf_hist_add_above(struct pf_hist *h, uint64_t n, int64_t lo, struct pf_i128 sum)
{
	int ret;

	if (!n)
		return 0;
	if (pf_i128_lt(sum, pf_i128_mul(lo, n)))
		return -EINVAL;
	if ((ret = pf_hist_bin(h)))
		return ret;
	h->above_n += n;
	if (lo < h->above_lo)
		h->above_lo = lo;
	h->sum = pf_i128_add(h->sum, sum);
	pf_hist_moments(h, pf_i128_ld(sum) / (long double)n, n);
	h->m2_estimated = true;
	return 0;
}

/* pf_hist_repr - the representative of magnitudes [lo, hi]: fewest significant digits, nearest the middle */
static uint64_t pf_hist_repr(uint64_t lo, uint64_t hi)
{
	uint64_t p = 1, mid = lo + (hi - lo) / 2, c;

	while (p <= hi / 10)
		p *= 10;
	for (; p > 1; p /= 10) {
		c = (mid + p / 2) / p * p;
		if (c >= lo && c <= hi)
			return c;
		c = (lo + p - 1) / p * p;
		if (c <= hi)
			return c;
	}
	return mid;
}

/* a non-empty bucket: its values lo..hi and how many samples it holds */
struct pf_hist_bucket {
	int64_t  lo, hi;
	uint64_t n;
};

typedef int (*pf_hist_visit_fn)(const struct pf_hist_bucket *b, void *arg);

/* pf_hist_visit - call fn on bucket sub of range r (negative side when neg) if it holds samples */
static int pf_hist_visit(const struct pf_hist *h, unsigned r, unsigned sub, bool neg, pf_hist_visit_fn fn, void *arg)
{
	uint64_t lo = pf_hist_low(r, sub), w = pf_hist_width(r);
	struct pf_hist_bucket b = { (int64_t)lo, (int64_t)(lo + w - 1), pf_hist_count(h, neg, r, sub) };

	if (!b.n)
		return 0;
	if (neg) {
		b.lo = -(int64_t)(lo + w - 1);
		b.hi = -(int64_t)lo;
	}
	return fn(&b, arg);
}

/* pf_hist_bucket_of - the bucket (values lo..hi) holding v */
static void pf_hist_bucket_of(int64_t v, struct pf_hist_bucket *b)
{
	unsigned r, sub;
	uint64_t lo, w;

	pf_hist_index(pf_hist_mag(v), &r, &sub);
	lo = pf_hist_low(r, sub);
	w = pf_hist_width(r);
	b->lo = v < 0 ? -(int64_t)(lo + w - 1) : (int64_t)lo;
	b->hi = v < 0 ? -(int64_t)lo : (int64_t)(lo + w - 1);
}

/* counters of a range at a level held in one 8-byte word: 16 of 4 bits, 4 of 16, 2 of 32, 1 of 64 */
#define PF_HIST_PER_WORD(level) (64u >> ((level) == 0 ? 2 : (level) + 3))

/* pf_hist_word_empty - whether the k-th 8-byte word of a range's counters is all zero: buckets a walk skips */
static inline bool pf_hist_word_empty(const void *c, unsigned k)
{
	uint64_t w;

	memcpy(&w, (const char *)c + 8 * k, sizeof(w));
	return !w;
}

/*
 * pf_hist_walk_few - pf_hist_walk of an exact histogram: its sorted samples,
 * each distinct value a bucket of its own when 'exact', else grouped into
 * the buckets a binned histogram would have
 */
static int pf_hist_walk_few(const struct pf_hist *h, bool exact, pf_hist_visit_fn fn, void *arg)
{
	int64_t v[PF_HIST_FEW_MAX];
	struct pf_hist_bucket b, nb;
	uint32_t i;
	int ret;

	pf_hist_few_copy(h, v);
	qsort(v, h->nfew, sizeof(*v), pf_hist_cmp);
	for (i = 0; i < h->nfew; i++) {
		if (exact)
			nb.lo = nb.hi = v[i];
		else
			pf_hist_bucket_of(v[i], &nb);
		if (i && nb.lo == b.lo) {
			b.n++;
			continue;
		}
		if (i && (ret = fn(&b, arg)))
			return ret;
		b = nb;
		b.n = 1;
	}
	return h->nfew ? fn(&b, arg) : 0;
}

/*
 * pf_hist_walk - call fn on every non-empty bucket in ascending value order
 * (negative ranges by falling magnitude, then positive ones) until it
 * returns non-zero; that value, or 0. An exact histogram's samples are
 * buckets of width 1 when 'exact', else grouped into the binned buckets.
 */
static int pf_hist_walk(const struct pf_hist *h, bool exact, pf_hist_visit_fn fn, void *arg)
{
	int r, sub, ret;
	unsigned per;

	if (!h->binned)
		return pf_hist_walk_few(h, exact, fn, arg);
	for (r = PF_HIST_NRANGES - 1; h->neg && r >= 0; r--) {
		per = PF_HIST_PER_WORD(pf_hist_level(h, true, r));
		for (sub = PF_HIST_SUB - 1; h->neg[r] && sub >= 0; sub--) {
			if ((unsigned)sub % per == per - 1 && pf_hist_word_empty(h->neg[r], (unsigned)sub / per)) {
				sub -= (int)per - 1;
				continue;
			}
			if ((ret = pf_hist_visit(h, (unsigned)r, (unsigned)sub, true, fn, arg)))
				return ret;
		}
	}
	for (r = 0; r < PF_HIST_NRANGES; r++) {
		per = PF_HIST_PER_WORD(pf_hist_level(h, false, r));
		for (sub = 0; h->pos[r] && sub < PF_HIST_SUB; sub++) {
			if ((unsigned)sub % per == 0 && pf_hist_word_empty(h->pos[r], (unsigned)sub / per)) {
				sub += (int)per - 1;
				continue;
			}
			if ((ret = pf_hist_visit(h, (unsigned)r, (unsigned)sub, false, fn, arg)))
				return ret;
		}
	}
	return 0;
}

/* pf_hist_merge_bucket - pf_hist_walk step: a bucket of the source into the destination arg */
static int pf_hist_merge_bucket(const struct pf_hist_bucket *b, void *arg)
{
	return pf_hist_place(arg, b->lo, b->n);
}

int pf_hist_merge(struct pf_hist *dst, const struct pf_hist *src)
{
	long double delta, n;
	uint32_t i;
	int ret;

	if (!src->count)
		return 0;
	if (!src->binned) {
		for (i = 0; i < src->nfew; i++)
			if ((ret = pf_hist_place(dst, pf_hist_few_at(src, i), 1)))
				return ret;
	} else if ((ret = pf_hist_bin(dst)) || (ret = pf_hist_walk(src, false, pf_hist_merge_bucket, dst))) {
		return ret;
	}
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max) {
		dst->max = src->max;
		dst->max_at = src->max_at;
		dst->max_id = src->max_id;
	}
	dst->below_n += src->below_n;
	dst->above_n += src->above_n;
	if (src->below_hi > dst->below_hi)
		dst->below_hi = src->below_hi;
	if (src->above_lo < dst->above_lo)
		dst->above_lo = src->above_lo;
	dst->m2_estimated |= src->m2_estimated;
	dst->sum = pf_i128_add(dst->sum, src->sum);
	/* Chan et al. parallel combination of the moments */
	n = (long double)dst->count + (long double)src->count;
	delta = src->wmean - dst->wmean;
	dst->m2 += src->m2 + delta * delta * (long double)dst->count * (long double)src->count / n;
	dst->wmean += delta * (long double)src->count / n;
	dst->count += src->count;
	return 0;
}

/* where a rank falls: the k-th bucketed sample, the bucket found */
struct pf_hist_find {
	uint64_t k, seen;
	struct pf_hist_bucket b;
};

/* pf_hist_find_k - pf_hist_walk step: stop at the bucket holding the k-th sample */
static int pf_hist_find_k(const struct pf_hist_bucket *b, void *arg)
{
	struct pf_hist_find *f = arg;

	f->seen += b->n;
	if (f->seen < f->k)
		return 0;
	f->b = *b;
	return 1;
}

/* pf_hist_value - the representative value of a bucket, clamped to [min, max]; *width the bucket's */
static int64_t pf_hist_value(const struct pf_hist *h, const struct pf_hist_bucket *b, int64_t *width)
{
	int64_t v = b->lo < 0 ? -(int64_t)pf_hist_repr(pf_hist_mag(b->hi), pf_hist_mag(b->lo)) :
		    (int64_t)pf_hist_repr((uint64_t)b->lo, (uint64_t)b->hi);

	*width = b->hi - b->lo + 1;
	return v < h->min ? h->min : v > h->max ? h->max : v;
}

/* pf_hist_find_all - a walk's step finding the buckets of several ascending ranks at once */
struct pf_hist_find_all {
	uint64_t seen;
	const uint64_t *k;		/* the ranks, ascending */
	int n, i;			/* how many, found so far */
	struct pf_hist_bucket *b;	/* the bucket of each */
};

static int pf_hist_find_all(const struct pf_hist_bucket *b, void *arg)
{
	struct pf_hist_find_all *f = arg;

	f->seen += b->n;
	while (f->i < f->n && f->seen >= f->k[f->i])
		f->b[f->i++] = *b;
	return f->i == f->n;
}

/*
 * pf_hist_rank - value (or bound) of the rank-th sample: min and max are
 * exact; a rank among the tails, or in a bucket whose values reach a tail's
 * bound, is only known to lie in [*lo, *hi]; *width is the bucket's width
 */
static int64_t pf_hist_rank(const struct pf_hist *h, uint64_t rank, bool *bound,
			    int64_t *lo, int64_t *hi, int64_t *width)
{
	uint64_t binned = h->count - h->below_n - h->above_n;
	struct pf_hist_find f = { 0 };
	bool found, lower;

	*bound = false;
	*width = 1;
	if (rank >= h->count)
		return h->max;
	if (rank <= 1)
		return h->min;
	if (rank > h->below_n && rank <= h->below_n + binned) {
		f.k = rank - h->below_n;
		found = pf_hist_walk(h, true, pf_hist_find_k, &f);
		if (found && !(h->below_n && f.b.lo <= h->below_hi) && !(h->above_n && f.b.hi >= h->above_lo))
			return pf_hist_value(h, &f.b, width);
		lower = found && h->below_n && f.b.lo <= h->below_hi;	/* mixed with a tail */
	} else {
		lower = rank <= h->below_n;
	}
	*bound = true;
	if (lower) {
		*lo = h->min;
		*hi = h->below_hi;
	} else {
		*lo = h->above_lo;
		*hi = h->max;
	}
	return 0;
}

/* pf_hist_rank_of - the rank pf_hist_percentile takes for fraction q */
static uint64_t pf_hist_rank_of(uint64_t count, double q)
{
	uint64_t rank = (uint64_t)ceil(q * (double)count);

	return rank < 1 ? 1 : rank > count ? count : rank;
}

int64_t pf_hist_percentile(const struct pf_hist *h, double q)
{
	int64_t lo, hi, w;
	bool bound;

	if (!h->count)
		return 0;
	return pf_hist_rank(h, pf_hist_rank_of(h->count, q), &bound, &lo, &hi, &w);
}

void pf_hist_stats(const struct pf_hist *h, struct pf_stats *s)
{
	int64_t w;
	int i;

	memset(s, 0, sizeof(*s));
	s->count = h->count;
	s->bin_width = 1;
	if (!h->count)
		return;
	s->min = h->min;
	s->max = h->max;
	s->max_at = h->max_at;
	s->max_id = h->max_id;
	s->mean = (double)(pf_i128_ld(h->sum) / (long double)h->count);
	s->stddev = h->count > 1 ? (double)sqrtl(h->m2 / (long double)(h->count - 1)) : 0.0;
	s->stddev_estimated = h->m2_estimated;
	if (!h->binned) {
		/* exact samples (no tails then): sorted once, every percentile is one of them */
		int64_t v[PF_HIST_FEW_MAX];

		pf_hist_few_copy(h, v);
		qsort(v, h->nfew, sizeof(*v), pf_hist_cmp);
		for (i = 0; i < PF_HIST_NPCT; i++)
			s->pct[i] = v[pf_hist_rank_of(h->nfew, pf_hist_pct[i]) - 1];
		return;
	}
	if (!h->below_n && !h->above_n) {
		/* no tails (the usual case): one walk finds the bucket of every percentile, as pf_hist_rank would */
		uint64_t k[PF_HIST_NPCT];
		struct pf_hist_bucket b[PF_HIST_NPCT];
		struct pf_hist_find_all f = { .k = k, .b = b };
		int at[PF_HIST_NPCT];

		for (i = 0; i < PF_HIST_NPCT; i++) {
			k[f.n] = pf_hist_rank_of(h->count, pf_hist_pct[i]);
			s->pct[i] = k[f.n] >= h->count ? h->max : h->min;
			at[i] = k[f.n] > 1 && k[f.n] < h->count ? f.n++ : -1;
		}
		if (f.n && pf_hist_walk(h, true, pf_hist_find_all, &f))
			for (i = 0; i < PF_HIST_NPCT; i++) {
				if (at[i] < 0)
					continue;
				s->pct[i] = pf_hist_value(h, &b[at[i]], &w);
				if (w > s->bin_width)
					s->bin_width = w;
			}
		if (f.i == f.n)
			return;
		s->bin_width = 1;	/* counters short of count (out of memory): the general way */
	}
	for (i = 0; i < PF_HIST_NPCT; i++) {
		s->pct[i] = pf_hist_rank(h, pf_hist_rank_of(h->count, pf_hist_pct[i]), &s->pct_bound[i],
					 &s->pct_lo[i], &s->pct_hi[i], &w);
		if (w > s->bin_width)
			s->bin_width = w;
	}
}

json_t *pf_stats_json(const struct pf_stats *s, const char *unit)
{
	json_t *o = json_object(), *b = NULL, *r;
	int i;

	if (!o)
		return NULL;
	json_object_set_new(o, "unit", json_string(unit));
	json_object_set_new(o, "bin_width", json_integer(s->bin_width ? s->bin_width : 1));
	json_object_set_new(o, "count", json_integer((json_int_t)s->count));
	if (!s->count) {
		static const char *const keys[] = { "min", "mean", "stddev", "max", "max_at", "max_id" };

		for (i = 0; i < (int)PF_ARRAY_SIZE(keys); i++)
			json_object_set_new(o, keys[i], json_null());
		for (i = 0; i < PF_HIST_NPCT; i++)
			json_object_set_new(o, pf_hist_pct_name[i], json_null());
		return o;
	}
	json_object_set_new(o, "min", json_integer(s->min));
	json_object_set_new(o, "mean", json_real(s->mean));
	json_object_set_new(o, "stddev", json_real(s->stddev));
	json_object_set_new(o, "max", json_integer(s->max));
	json_object_set_new(o, "max_at", json_integer(s->max_at));
	json_object_set_new(o, "max_id", json_integer(s->max_id));
	for (i = 0; i < PF_HIST_NPCT; i++) {
		if (!s->pct_bound[i]) {
			json_object_set_new(o, pf_hist_pct_name[i], json_integer(s->pct[i]));
			continue;
		}
		json_object_set_new(o, pf_hist_pct_name[i], json_null());
		if (!b)
			b = json_object();
		r = json_pack("{sIsI}", ">=", (json_int_t)s->pct_lo[i], "<=", (json_int_t)s->pct_hi[i]);
		if (b && r)
			json_object_set_new(b, pf_hist_pct_name[i], r);
	}
	if (b)
		json_object_set_new(o, "bounds", b);
	/* too few samples for a tail percentile: its rank is the top one, it is the max */
	for (i = 0, b = NULL; i < PF_HIST_NPCT; i++) {
		if (pf_hist_rank_of(s->count, pf_hist_pct[i]) < s->count)
			continue;
		if (!b)
			b = json_array();
		json_array_append_new(b, json_string(pf_hist_pct_name[i]));
	}
	if (b)
		json_object_set_new(o, "is_max", b);
	if (s->stddev_estimated)
		json_object_set_new(o, "estimated", json_pack("[s]", "stddev"));
	return o;
}

/* pf_hist_int_json - a 128-bit integer as a JSON integer, or a real past int64 */
static json_t *pf_hist_int_json(struct pf_i128 v)
{
	if (pf_i128_is_i64(v))
		return json_integer((json_int_t)v.lo);
	return json_real((double)pf_i128_ld(v));
}

/* pf_hist_tail_json - a tail as {"count": n, op: bound} */
static json_t *pf_hist_tail_json(uint64_t n, const char *op, int64_t bound)
{
	return json_pack("{sIsI}", "count", (json_int_t)n, op, (json_int_t)bound);
}

/* pf_hist_bucket_json - pf_hist_walk step: append [lowest value, count] to the array arg */
static int pf_hist_bucket_json(const struct pf_hist_bucket *b, void *arg)
{
	return json_array_append_new(arg, json_pack("[II]", (json_int_t)b->lo, (json_int_t)b->n)) ? -ENOMEM : 0;
}

/* pf_hist_buckets_json - the non-empty buckets as [lowest value, count], ascending */
static json_t *pf_hist_buckets_json(const struct pf_hist *h)
{
	json_t *a = json_array();

	if (a && pf_hist_walk(h, false, pf_hist_bucket_json, a)) {
		json_decref(a);
		return NULL;
	}
	return a;
}

json_t *pf_hist_json(const struct pf_hist *h, const char *unit)
{
	struct pf_stats s;
	json_t *o, *hj;

	pf_hist_stats(h, &s);
	o = pf_stats_json(&s, unit);
	hj = json_object();
	if (!o || !hj) {
		json_decref(hj);
		return o;
	}
	json_object_set_new(hj, "unit", json_string(unit));
	json_object_set_new(hj, "sub_bucket_bits", json_integer(PF_HIST_SUB_BITS));
	json_object_set_new(hj, "sum", pf_hist_int_json(h->sum));
	json_object_set_new(hj, "buckets", pf_hist_buckets_json(h));
	if (h->below_n)
		json_object_set_new(hj, "below", pf_hist_tail_json(h->below_n, "<=", h->below_hi));
	if (h->above_n)
		json_object_set_new(hj, "above", pf_hist_tail_json(h->above_n, ">=", h->above_lo));
	json_object_set_new(o, "hist", hj);
	return o;
}

/* pf_hist_json_int - member k of o as an integer: 0, or -EINVAL when absent or not one */
static int pf_hist_json_int(const json_t *o, const char *k, int64_t *v)
{
	json_t *j = json_object_get(o, k);

	if (!json_is_integer(j))
		return -EINVAL;
	*v = json_integer_value(j);
	return 0;
}

/* pf_hist_tail_from_json - tail member k of hj ({"count", op}) into *n, *bound */
static int pf_hist_tail_from_json(const json_t *hj, const char *k, const char *op,
				  uint64_t *n, int64_t *bound)
{
	json_t *t = json_object_get(hj, k);
	int64_t c;

	if (!t)
		return 0;
	if (pf_hist_json_int(t, "count", &c) || c < 0 || pf_hist_json_int(t, op, bound))
		return -EINVAL;
	*n = (uint64_t)c;
	return 0;
}

int pf_hist_from_json(const json_t *o, struct pf_hist *h)
{
	json_t *hj = json_object_get(o, "hist"), *b, *sum, *est;
	int64_t count, v, n;
	uint64_t binned = 0;
	double sd;
	size_t i;
	int ret = -EINVAL;

	pf_hist_init(h);
	h->binned = true;
	if (!json_is_object(hj) || pf_hist_json_int(o, "count", &count) || count < 0)
		return -EINVAL;
	if (!count)
		return 0;
	if (json_integer_value(json_object_get(hj, "sub_bucket_bits")) != PF_HIST_SUB_BITS ||
	    pf_hist_json_int(o, "min", &h->min) || pf_hist_json_int(o, "max", &h->max) ||
	    !json_is_array(json_object_get(hj, "buckets")) || !json_is_number(json_object_get(o, "stddev")))
		goto out;
	if (pf_hist_json_int(o, "max_at", &h->max_at))
		h->max_at = 0;
	if (pf_hist_json_int(o, "max_id", &h->max_id))
		h->max_id = 0;
	json_array_foreach(json_object_get(hj, "buckets"), i, b) {
		if (!json_is_integer(json_array_get(b, 0)) || !json_is_integer(json_array_get(b, 1)) ||
		    json_array_size(b) != 2)
			goto out;
		v = json_integer_value(json_array_get(b, 0));
		n = json_integer_value(json_array_get(b, 1));
		if (n <= 0)
			goto out;
		if ((ret = pf_hist_bump(h, v, (uint64_t)n)))
			goto out;
		ret = -EINVAL;
		binned += (uint64_t)n;
	}
	if (pf_hist_tail_from_json(hj, "below", "<=", &h->below_n, &h->below_hi) ||
	    pf_hist_tail_from_json(hj, "above", ">=", &h->above_n, &h->above_lo) ||
	    binned + h->below_n + h->above_n != (uint64_t)count)
		goto out;
	h->count = (uint64_t)count;
	sum = json_object_get(hj, "sum");
	if (json_is_integer(sum))
		h->sum = pf_i128_from(json_integer_value(sum));
	else if (json_is_real(sum))
		h->sum = pf_i128_from(llroundl((long double)json_real_value(sum)));
	else
		h->sum = pf_i128_from(llroundl((long double)json_number_value(json_object_get(o, "mean")) * count));
	h->wmean = pf_i128_ld(h->sum) / (long double)count;
	sd = json_number_value(json_object_get(o, "stddev"));
	h->m2 = (long double)sd * (long double)sd * (long double)(count - 1);
	est = json_object_get(o, "estimated");
	json_array_foreach(est, i, b)
		if (json_is_string(b) && !strcmp(json_string_value(b), "stddev"))
			h->m2_estimated = true;
	return 0;
out:
	pf_hist_free(h);
	return ret;
}
