/*
 * cyclictest.h - import of rt-tests' cyclictest results into preflight's
 * statistics, so the kernel baseline and the app stand side by side in one
 * schema (results.json member "cyclictest", docs/cyclictest-import.md).
 *
 * Two inputs are read, the format is detected from the content:
 *   - the file of 'cyclictest --json=FILE' (rt-tests 2.x, file_version 1);
 *   - the histogram text of 'cyclictest -h N' / '-H N' (stdout or
 *     --histfile), in microseconds, or in nanoseconds with -N.
 *
 * Every distribution becomes a statistics object of lib/hist.h in
 * nanoseconds: each cyclictest bucket is one bin, the values past the last
 * bucket (cyclictest's overflows) are kept outside the bins. Its min, mean
 * and max reproduce cyclictest's own summary exactly (mean to the precision
 * cyclictest prints it: two decimals in JSON, truncated in the histogram
 * text); the loader refuses a file whose summary contradicts its histogram.
 *
 * The object returned (documented in docs/cyclictest-import.md):
 *   { "schema": "preflight-cyclictest/1", "file", "format" ("json" or
 *     "histogram"), "unit" (cyclictest's: "us" or "ns"), "unit_from",
 *     "rt_tests_version", "cmdline", "start_time", "end_time",
 *     "return_code", "sysinfo", "buckets", "histofall",
 *     "threads": [ { "name": "T0", "thread", "cpu", "node",
 *                    "latency_ns": <statistics>,
 *                    "reported": { "cycles", "min", "avg", "max", "unit" },
 *                    "overflows": { "count", "threshold_ns", "exact",
 *                                   "estimated", "estimated_min_ns",
 *                                   "estimated_max_ns", "cycles",
 *                                   "cycles_not_listed" },
 *                    "tail": <the exceedance curve from the buckets, no
 *                             model; null without a histogram> } ],
 *     "all": { "latency_ns": <statistics of every thread>, "overflows" } }
 */
#ifndef CYCLICTEST_H
#define CYCLICTEST_H

#include <jansson.h>

#define CYCLICTEST_SCHEMA "preflight-cyclictest/1"

/*
 * cyclictest_load - read a cyclictest --json file or -h/-H histogram text
 * into a new JSON object (*out, the caller's reference).
 *
 * 'path' may end in ":us" or ":ns" (when no file of the full name exists) to
 * state the unit of a histogram text file, which the text itself does not
 * record; without it the unit is guessed (docs/cyclictest-import.md).
 *
 * Returns 0; PF_EXIT_USAGE after printing one error line naming the file
 * and line for unreadable or malformed input; PF_EXIT_INTERNAL when out of
 * memory.
 */
int cyclictest_load(const char *path, json_t **out) __attribute__((warn_unused_result));

#endif
