/*
 * hist.h - the fixed-bin histogram behind every distribution preflight reports.
 *
 * Values (nanoseconds, or any int64 quantity) fall into bins of a fixed width
 * starting at 'lo'. A value outside the binned range is kept exactly in an
 * outlier array, so no sample is ever dropped and min / max / mean / stddev
 * are exact. Percentiles are exact to the bin width inside the binned range
 * (the reported value is the upper edge of the bin holding the rank, never
 * more than the true maximum) and exact among the outliers.
 *
 * pf_hist_add may allocate (the outlier array grows): it is for analysis and
 * setup code, not for the realtime path.
 */
#ifndef PF_HIST_H
#define PF_HIST_H

#include <stddef.h>
#include <stdint.h>

struct json_t;

/* The percentiles every report carries, in this order. */
#define PF_HIST_NPCT 6
extern const double pf_hist_pct[PF_HIST_NPCT];		/* 50, 90, 99, 99.9, 99.99, 99.999 */
extern const char *const pf_hist_pct_name[PF_HIST_NPCT];	/* "p50" ... "p99.999" */

struct pf_hist {
	int64_t   lo;		/* lower edge of bin 0 */
	int64_t   width;	/* bin width, > 0 */
	uint32_t  nbins;	/* number of bins */
	uint64_t *bins;		/* bins[i] counts [lo + i*width, lo + (i+1)*width) */
	int64_t  *outliers;	/* values outside the bins, exact */
	size_t    noutliers;
	size_t    outliers_cap;
	uint64_t  count;	/* every value added */
	int64_t   min, max;
	int64_t   max_at;	/* caller's time stamp of the (first) max */
	int64_t   max_id;	/* caller's id of the max: job sequence, pid, ... */
	double    mean, m2;	/* Welford running mean and sum of squares */
};

struct pf_stats {
	uint64_t count;
	int64_t  min, max;
	int64_t  max_at, max_id;
	double   mean, stddev;
	int64_t  pct[PF_HIST_NPCT];
};

/* pf_hist_init - set up an empty histogram of nbins bins of width from lo; 0 or -errno */
int pf_hist_init(struct pf_hist *h, int64_t lo, int64_t width, uint32_t nbins) __attribute__((warn_unused_result));

/* pf_hist_free - release a histogram's memory */
void pf_hist_free(struct pf_hist *h);

/* pf_hist_add - add one value with the time and id reported if it is the max; 0 or -ENOMEM */
int pf_hist_add(struct pf_hist *h, int64_t value, int64_t at, int64_t id) __attribute__((warn_unused_result));

/* pf_hist_merge - add every value of src to dst (same lo, width and nbins); 0 or -errno */
int pf_hist_merge(struct pf_hist *dst, const struct pf_hist *src) __attribute__((warn_unused_result));

/* pf_hist_add_n - add n copies of one value (histograms imported from other tools); 0 or -errno */
int pf_hist_add_n(struct pf_hist *h, int64_t value, uint64_t n) __attribute__((warn_unused_result));

/* pf_hist_percentile - the value at fraction q (0..1] of the sorted samples */
int64_t pf_hist_percentile(struct pf_hist *h, double q);

/* pf_hist_stats - summarise: count, min, mean, stddev, max with where, percentiles */
void pf_hist_stats(struct pf_hist *h, struct pf_stats *s);

/*
 * pf_stats_json - the statistics as a JSON object {count, min, mean, stddev,
 * max, max_at, max_id, p50 ... p99.999, bin_width}; empty statistics give
 * count 0 and nulls. 'unit' (e.g. "ns") is recorded as "unit".
 */
struct json_t *pf_stats_json(const struct pf_stats *s, int64_t bin_width, const char *unit);

#endif
