/*
 * ct_overflow.c - what a cyclictest histogram that overflowed leaves unknown,
 * said in words (issue 32.15: the idle baseline's -h 10000 histogram
 * overflowed and the summary showed "p99.99 -" without a word). cyclictest
 * counts the samples at or above its -h size but writes no value of theirs
 * but the max (analysis/cyclictest.c, docs/cyclictest-import.md), so a
 * percentile whose rank falls among them is known only by its bounds. The
 * summary and the report print the same sentence from results.json's
 * cyclictest.all.overflows, cyclictest.buckets, cyclictest.threads[].overflows
 * .threshold_ns and the percentiles analyze left null with "bounds".
 */
#include "ct_overflow.h"
#include "common.h"
#include "hist.h"
#include "jpath.h"

#include <stdio.h>

int ct_overflow_text(json_t *res, char *buf, size_t size)
{
	json_t *lat = pf_jpath_get(res, "cyclictest.all.latency_ns");
	json_t *bounds = json_object_get(lat, "bounds");
	long long k = json_integer_value(pf_jpath_get(res, "cyclictest.all.overflows"));
	long long n = json_integer_value(json_object_get(lat, "count"));
	double end_ns = json_number_value(pf_jpath_get(res, "cyclictest.threads.0.overflows.threshold_ns"));
	double max_ns = json_number_value(json_object_get(lat, "max"));
	char names[96] = "", end_us[32], max_us[32];
	size_t len = 0;
	int i, w, last = -1, nunknown = 0;

	if (k <= 0 || n <= 0)
		return 0;
	for (i = 0; i < PF_HIST_NPCT; i++)
		if (json_object_get(bounds, pf_hist_pct_name[i]))
			last = i, nunknown++;
	for (i = 0; i < PF_HIST_NPCT; i++)
		if (json_object_get(bounds, pf_hist_pct_name[i]) && len < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						!len ? "" : i == last ? " and " : ", ", pf_hist_pct_name[i]);
	w = snprintf(buf, size, "histogram overflowed: %lld of %lld samples (%.2f %%) at or above %s, the end of "
		     "its range (-h %lld), have no value but the max, %s; the histogram covers %.2f %% of the "
		     "samples, so %s%s", k, n, 100.0 * (double)k / (double)n, pf_fmt_us(end_us, sizeof(end_us), end_ns, false),
		     (long long)json_integer_value(pf_jpath_get(res, "cyclictest.buckets")),
		     pf_fmt_us(max_us, sizeof(max_us), max_ns, false),
		     100.0 * (double)(n - k) / (double)n, nunknown ? names : "every percentile shown is known",
		     !nunknown ? "" : nunknown == 1 ? ", above that, is unknown (only >= the range's end and <= the max)" :
		     ", above that, are unknown (only >= the range's end and <= the max)");
	return w < 0 ? 0 : w;
}
