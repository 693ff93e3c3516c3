/*
 * task_stats.h - live per-task statistics of flightapp, written by the task's own
 * thread on the realtime path and read by other threads without tearing.
 *
 * One writer (the task) updates the counters and a preallocated fixed-bin
 * latency histogram inside a sequence lock: the writer never waits, a reader
 * retries until it copied a consistent snapshot. Values past the last bin go
 * to a preallocated array of exact outliers; if even that fills, they are
 * counted in 'outliers_lost' (reported, never silent). At exit the histogram
 * is converted into a lib/hist.h pf_hist for the statistics every report
 * carries (percentiles exact to the bin width).
 */
#ifndef APP_TASK_STATS_H
#define APP_TASK_STATS_H

#include "hist.h"
#include "ring.h"

#include <stdatomic.h>
#include <stdint.h>

#define APP_STATS_OUTLIERS 1024

/* The scalar part: what the live view and the final table show. */
struct app_stats_snap {
	uint64_t jobs;
	uint64_t overruns;		/* jobs flagged APP_JOB_OVERRUN */
	uint64_t missed;		/* missed activations */
	uint64_t deadline_misses;
	int64_t  lat_min_ns, lat_max_ns, lat_last_ns;
	int64_t  lat_sum_ns;
	double   lat_sumsq;		/* ns^2 */
	int64_t  lat_max_at_ns;		/* release of the job with the max latency */
	uint32_t lat_max_seq;		/* its sequence number */
	int64_t  resp_max_ns, resp_sum_ns;
	int64_t  cpu_max_ns, cpu_sum_ns;
	uint64_t outliers_lost;
};

struct app_stats {
	_Atomic uint32_t seq;		/* odd while the writer updates */
	struct app_stats_snap s;
	int64_t  bin_ns;		/* histogram bin width, bins from 0 */
	uint32_t nbins;
	uint32_t noutliers;
	uint64_t *bins;
	int64_t  *outliers;		/* APP_STATS_OUTLIERS exact values past the bins */
};

/* app_stats_init - allocate and prefault; 0 or -errno */
int app_stats_init(struct app_stats *st, int64_t bin_ns, uint32_t nbins);

/* app_stats_free - release the histogram */
void app_stats_free(struct app_stats *st);

/* app_stats_add - writer: account one job (realtime path: no allocation, no syscall) */
void app_stats_add(struct app_stats *st, const struct app_jobrec *rec);

/* app_stats_read - reader: a consistent copy of the scalar statistics */
void app_stats_read(const struct app_stats *st, struct app_stats_snap *out);

/*
 * app_stats_hist - the latency distribution as a pf_hist (same bins, outliers
 * exact) with the exact min / max / mean in 'sum'; call when the writer has
 * stopped. 0 or -errno; free with pf_hist_free.
 */
int app_stats_hist(const struct app_stats *st, struct pf_hist *h, struct pf_stats *sum) __attribute__((warn_unused_result));

#endif
