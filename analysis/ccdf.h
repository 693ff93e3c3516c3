/*
 * ccdf.h - what ccdf.c offers: the exceedance curve P(X >= x) of a latency
 * distribution in results.json's compact form, one rule for a task's per-job
 * series (tasks.*.tail.*.ccdf) and for cyclictest's histogram
 * (cyclictest.threads[].tail.ccdf): docs/statistics.md, "The exceedance
 * curve".
 */
#ifndef AN_CCDF_H
#define AN_CCDF_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define AN_CCDF_MAX  64	/* points of an exceedance curve */
#define AN_CCDF_TOP  16	/* of them the largest samples' ranks, each one */

/* an_ccdf_sorted - the curve of n exact samples s, sorted ascending; NULL out of memory */
json_t *an_ccdf_sorted(const double *s, size_t n);

/*
 * an_ccdf_buckets - the curve of a histogram of nbuckets buckets of width_ns
 * (bins[b] samples in [b, b + 1) x width_ns) and 'above' samples at or past
 * its last bucket, whose values are not known: the curve ends at
 * nbuckets x width_ns with their share; NULL out of memory
 */
json_t *an_ccdf_buckets(const uint64_t *bins, uint64_t nbuckets, int64_t width_ns, uint64_t above);

#endif
