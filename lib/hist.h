/*
 * hist.h - the log-linear histogram behind every distribution preflight
 * reports (the HdrHistogram design: power-of-two ranges, each split into
 * linear sub-buckets).
 *
 * Values are int64 (nanoseconds, or any integer quantity), of either sign.
 * A value's magnitude falls into a power-of-two range: range 0 holds 0..127
 * in buckets of width 1; range r >= 1 holds [2^(r+6), 2^(r+7)) in
 * PF_HIST_SUB = 128 buckets of width 2^(r-1). So values below 256 are exact
 * and a bucket is never wider than 1/128 of its lowest value: any value
 * reported from a bucket is within 0.79 % of every sample in it. Negative
 * values use a mirrored set of ranges.
 *
 * The first PF_HIST_FEW_MAX samples are kept exactly (the first 116 in the
 * struct itself while each is in 0 .. 2^32-1 (4.3 s in ns), 58 otherwise, then on the heap,
 * 4 or 8 bytes each): the thousands of threads of a busy
 * system that are woken a few dozen times each cost no buckets at all, and
 * their percentiles are exact. A histogram of a pool (pf_hist_init_pool: one
 * of thousands, a thread's latencies) keeps only the samples the struct holds
 * and bins from the next one: a heap block of 512 or 1024 bytes of exact
 * samples costs more than the few 64-byte ranges a thread's latencies reach,
 * and a binned percentile is within 0.79 % (exact below 256). Past that the
 * samples go into buckets:
 * memory is allocated per range (64 bytes of 4-bit counters, widened to 16,
 * 32 and 64 bits when one would overflow) when the first value lands in it: a
 * distribution spanning 1 us - 10 ms costs 15 ranges plus the struct, under
 * 16 KiB even with every counter 64-bit. Once its ranges exist, pf_hist_add never allocates; with a pool
 * (pf_hist_init_pool) the ranges come from slabs shared by many histograms.
 * pf_hist_init_range() preallocates the ranges of [lo, hi] and forbids any
 * later allocation: that is the mode for the realtime path (a value outside
 * is counted as a tail sample, below).
 *
 * count, min, max (with the caller's time and id of the max) and the mean
 * (from an exact 128-bit sum) are exact; the stddev comes from Welford's
 * running moments in long double. Samples whose value is not known, only a
 * bound (a tail: cyclictest's overflows, or values outside a preallocated
 * range), are counted apart: a percentile whose rank falls among them is
 * reported as a bound [lo, hi], not a value.
 *
 * The percentile of a rank is the representative value of the bucket holding
 * it: the number with the fewest significant decimal digits inside the
 * bucket, nearest the bucket's midpoint, clamped to [min, max] (95000, not
 * 94975). docs/results.md documents the JSON form and its "hist" member.
 */
#ifndef PF_HIST_H
#define PF_HIST_H

#include "i128.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_t;

/* The percentiles every report carries, in this order. */
#define PF_HIST_NPCT 6
extern const double pf_hist_pct[PF_HIST_NPCT];		/* 50, 90, 99, 99.9, 99.99, 99.999 */
extern const char *const pf_hist_pct_name[PF_HIST_NPCT];	/* "p50" ... "p99.999" */

#define PF_HIST_SUB_BITS	7			/* each range: 2^7 linear buckets */
#define PF_HIST_SUB		(1 << PF_HIST_SUB_BITS)
#define PF_HIST_NRANGES		58			/* range 57 ends at 2^64 */

#define PF_HIST_FEW_INLINE	PF_HIST_NRANGES		/* exact samples kept in the struct itself */
#define PF_HIST_FEW_MAX		256			/* exact samples kept before binning (but pf_hist_init_pool) */

struct pf_hist_pool;

struct pf_hist {
	/* what every sample touches comes first: two cache lines, then the range it lands in */
	bool       binned;			/* samples are in buckets (else exact in few_in / few) */
	bool       fixed;			/* pf_hist_init_range: never allocate after init */
	bool       m2_estimated;		/* tail samples of unknown value went into m2 */
	bool       few64;			/* exact samples held as int64 (else as uint32: each is 0 .. 2^32-1) */
	bool       few_inline;			/* exact samples only in few_in, never on the heap (pf_hist_init_pool) */
	uint32_t   nfew, few_cap;		/* exact samples held, heap capacity (0: inline) */
	uint64_t   lvl_pos[2];			/* by range, its counters' width: bit r of [0] + 2 x bit r of [1] (hist.c) */
	uint64_t   count;			/* every sample, tails included */
	int64_t    min, max;
	struct pf_i128 sum;			/* exact sum of the samples */
	long double wmean, m2;			/* Welford running mean and sum of squared deviations */
	void      *few;				/* exact, more than fit inline: few_cap samples on the heap */
	void     **neg;				/* binned: the same for values < 0 (by magnitude); NULL until one */
	uint64_t   lvl_neg[2];
	int64_t    max_at;			/* caller's time stamp of the (first) max */
	int64_t    max_id;			/* caller's id of the max: job sequence, pid, ... */
	struct pf_hist_pool *pool;		/* where its memory comes from; NULL: malloc */
	uint64_t   below_n, above_n;		/* tail samples known only to be <= below_hi, >= above_lo */
	int64_t    below_hi, above_lo;
	size_t     bytes;			/* heap bytes held */
	uint64_t   nalloc;			/* allocations made since init */
	union {
		void    *pos[PF_HIST_NRANGES];	/* binned: counters of values >= 0 by range, NULL until used */
		int64_t  few_in[PF_HIST_FEW_INLINE];	/* exact: the first samples, in the struct (few64) */
		uint32_t few_in32[2 * PF_HIST_FEW_INLINE];	/* the same, twice as many, while each is 0 .. 2^32-1 */
	};
};

struct pf_stats {
	uint64_t count;
	int64_t  min, max;
	int64_t  max_at, max_id;
	double   mean, stddev;
	bool     stddev_estimated;		/* depends on tail samples of unknown value */
	int64_t  pct[PF_HIST_NPCT];		/* representative value; 0 when a bound */
	bool     pct_bound[PF_HIST_NPCT];	/* rank among tail samples: only [lo, hi] known */
	int64_t  pct_lo[PF_HIST_NPCT], pct_hi[PF_HIST_NPCT];
	int64_t  bin_width;			/* widest bucket holding a reported percentile */
};

/* pf_hist_init - set up an empty histogram; it allocates lazily, per range */
void pf_hist_init(struct pf_hist *h);

/*
 * pf_hist_pool_new - a pool the memory of many histograms comes from: carved
 * out of 64 KiB slabs, what a freed histogram held is reused, so that
 * thousands of histograms growing while a trace streams cost a malloc per
 * slab, not per range. NULL when out of memory. Not thread-safe: one owner.
 */
struct pf_hist_pool *pf_hist_pool_new(void);

/* pf_hist_pool_free - release the pool and every block it gave out */
void pf_hist_pool_free(struct pf_hist_pool *p);

/* pf_hist_pool_alloc - a zeroed block of size bytes from the pool (malloc'd when p is NULL), or NULL */
void *pf_hist_pool_alloc(struct pf_hist_pool *p, size_t size);

/* pf_hist_pool_put - give a block of size bytes back (free() when p is NULL) */
void pf_hist_pool_put(struct pf_hist_pool *p, void *block, size_t size);


/*
 * pf_hist_init_pool - pf_hist_init for one of many histograms: its memory
 * from pool p, and its exact samples only those the struct holds (116, or
 * 58 when one needs 64 bits): the next sample bins them all, rather than
 * move them to a heap block of up to PF_HIST_FEW_MAX. pf_hist_free keeps
 * both properties.
 */
void pf_hist_init_pool(struct pf_hist *h, struct pf_hist_pool *p);

/*
 * pf_hist_init_range - set up an empty histogram with every range holding a
 * value of [lo, hi] allocated now; pf_hist_add never allocates afterwards (a
 * value outside those ranges becomes a tail sample, its moments exact).
 * 0 or -ENOMEM (nothing held).
 */
int pf_hist_init_range(struct pf_hist *h, int64_t lo, int64_t hi) __attribute__((warn_unused_result));

/* pf_hist_free - release a histogram's memory */
void pf_hist_free(struct pf_hist *h);

/* pf_hist_add - add one value with the time and id reported if it is the max; 0 or -ENOMEM */
int pf_hist_add(struct pf_hist *h, int64_t value, int64_t at, int64_t id) __attribute__((warn_unused_result));
/*
 * pf_hist_add_batch - pf_hist_add of v[0], v[stride], ... (n of them, each
 * with its time at[k * stride]), skipping those equal to INT64_MIN (none
 * there): the same histogram, bit for bit, in one call; 0 or -ENOMEM
 * (the samples from the one that failed on are left out)
 */
int pf_hist_add_batch(struct pf_hist *h, const int64_t *v, const int64_t *at, size_t n, size_t stride, int64_t id)
	__attribute__((warn_unused_result));

/*
 * pf_hist_add_n - add n copies of one value (a bin of a histogram imported
 * from another tool or a fixed-bin counter): such values are quantized, so the
 * histogram is binned from then on, never reported as exact; 0 or -errno
 */
int pf_hist_add_n(struct pf_hist *h, int64_t value, uint64_t n) __attribute__((warn_unused_result));

/*
 * pf_hist_add_above - add n samples of unknown value, known only to lie in
 * [lo, max] and to add up to 'sum': count and mean stay exact, percentiles
 * among them become bounds, the stddev is estimated (as if all were equal,
 * the least spread the sum allows). min / max are the caller's to add as
 * samples. 0 or -EINVAL (n and sum disagree with lo).
 */
int pf_hist_add_above(struct pf_hist *h, uint64_t n, int64_t lo, struct pf_i128 sum) __attribute__((warn_unused_result));

/* pf_hist_merge - add every sample of src to dst (allocating as needed); 0 or -ENOMEM */
int pf_hist_merge(struct pf_hist *dst, const struct pf_hist *src) __attribute__((warn_unused_result));

/* pf_hist_percentile - the representative value at fraction q (0..1] of the sorted samples (0 if empty or a bound) */
int64_t pf_hist_percentile(const struct pf_hist *h, double q);

/* pf_hist_stats - summarise: count, min, mean, stddev, max with where, percentiles */
void pf_hist_stats(const struct pf_hist *h, struct pf_stats *s);

/* pf_hist_bytes - memory a histogram holds: the struct and its ranges */
size_t pf_hist_bytes(const struct pf_hist *h);

/*
 * pf_stats_json - the statistics as a JSON object {unit, bin_width, count,
 * min, mean, stddev, max, max_at, max_id, p50 ... p99.999}, plus "bounds"
 * for percentiles known only as a bound, "estimated" naming estimated
 * members and "is_max" naming the percentiles whose rank is the top sample
 * (too few samples for them: p99.99 of fewer than 10 000 is the max);
 * empty statistics give count 0 and nulls.
 */
struct json_t *pf_stats_json(const struct pf_stats *s, const char *unit);

/* pf_hist_json - pf_stats_json of h with its buckets as member "hist" (docs/results.md) */
struct json_t *pf_hist_json(const struct pf_hist *h, const char *unit);

/*
 * pf_hist_from_json - a histogram back from a distribution object written by
 * pf_hist_json (count, min, max, max_at, max_id, mean, stddev and "hist");
 * 0, -EINVAL (not such an object, or inconsistent) or -ENOMEM.
 */
int pf_hist_from_json(const struct json_t *o, struct pf_hist *h) __attribute__((warn_unused_result));

#endif
