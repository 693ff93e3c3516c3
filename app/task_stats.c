/*
 * task_stats.c - per-task live statistics under a sequence lock, and their
 * conversion to lib/hist.h at exit. See task_stats.h.
 */
#include "task_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int app_stats_init(struct app_stats *st, int64_t bin_ns, uint32_t nbins)
{
	memset(st, 0, sizeof(*st));
	if (bin_ns <= 0 || nbins == 0)
		return -EINVAL;
	/* calloc'd pages are touched here so the realtime path never faults them in */
	st->bins = calloc(nbins, sizeof(*st->bins));
	st->outliers = calloc(APP_STATS_OUTLIERS, sizeof(*st->outliers));
	if (!st->bins || !st->outliers) {
		app_stats_free(st);
		return -ENOMEM;
	}
	memset(st->bins, 0, nbins * sizeof(*st->bins));
	memset(st->outliers, 0, APP_STATS_OUTLIERS * sizeof(*st->outliers));
	st->bin_ns = bin_ns;
	st->nbins = nbins;
	st->s.lat_min_ns = INT64_MAX;
	st->s.lat_max_ns = INT64_MIN;
	return 0;
}

void app_stats_free(struct app_stats *st)
{
	free(st->bins);
	free(st->outliers);
	st->bins = NULL;
	st->outliers = NULL;
}

void app_stats_add(struct app_stats *st, const struct app_jobrec *rec)
{
	uint32_t seq = atomic_load_explicit(&st->seq, memory_order_relaxed);
	struct app_stats_snap *s = &st->s;
	int64_t lat = rec->start_ns - rec->release_ns;
	int64_t resp = rec->end_ns - rec->release_ns;
	int64_t bin;

	atomic_store_explicit(&st->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);

	s->jobs++;
	s->overruns += !!(rec->flags & APP_JOB_OVERRUN);
	s->deadline_misses += !!(rec->flags & APP_JOB_DEADLINE);
	s->missed += rec->missed;
	if (lat < s->lat_min_ns)
		s->lat_min_ns = lat;
	if (lat > s->lat_max_ns) {
		s->lat_max_ns = lat;
		s->lat_max_at_ns = rec->release_ns;
		s->lat_max_seq = rec->seq;
	}
	s->lat_last_ns = lat;
	s->lat_sum_ns += lat;
	s->lat_sumsq += (double)lat * (double)lat;
	if (resp > s->resp_max_ns)
		s->resp_max_ns = resp;
	s->resp_sum_ns += resp;
	if (rec->cpu_ns > s->cpu_max_ns)
		s->cpu_max_ns = rec->cpu_ns;
	s->cpu_sum_ns += rec->cpu_ns;

	bin = lat >= 0 ? lat / st->bin_ns : -1;
	if (bin >= 0 && bin < (int64_t)st->nbins)
		st->bins[bin]++;
	else if (st->noutliers < APP_STATS_OUTLIERS)
		st->outliers[st->noutliers++] = lat;
	else
		s->outliers_lost++;

	atomic_store_explicit(&st->seq, seq + 2, memory_order_release);
}

void app_stats_read(const struct app_stats *st, struct app_stats_snap *out)
{
	uint32_t s1, s2;

	do {
		s1 = atomic_load_explicit(&st->seq, memory_order_acquire);
		if (s1 & 1)
			continue;
		*out = st->s;
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&st->seq, memory_order_relaxed);
		if (s1 == s2)
			return;
	} while (1);
}

int app_stats_hist(const struct app_stats *st, struct pf_hist *h, struct pf_stats *sum)
{
	struct app_stats_snap s;
	double var;
	uint32_t i;
	int ret;

	app_stats_read(st, &s);
	pf_hist_init(h);
	/* a bin's count at its lower edge: percentiles within the bin width (plus the histogram's 1/128) */
	for (i = 0; i < st->nbins; i++) {
		if (st->bins[i] && (ret = pf_hist_add_n(h, (int64_t)i * st->bin_ns, st->bins[i])))
			goto fail;
	}
	for (i = 0; i < st->noutliers; i++)
		if ((ret = pf_hist_add(h, st->outliers[i], 0, 0)))
			goto fail;
	pf_hist_stats(h, sum);
	/* moments and extremes from the exact running sums, not the bin edges */
	if (s.jobs) {
		sum->count = s.jobs;
		sum->min = s.lat_min_ns;
		sum->max = s.lat_max_ns;
		sum->max_at = s.lat_max_at_ns;
		sum->max_id = s.lat_max_seq;
		sum->mean = (double)s.lat_sum_ns / (double)s.jobs;
		var = s.lat_sumsq / (double)s.jobs - sum->mean * sum->mean;
		sum->stddev = s.jobs > 1 ? sqrt(fmax(var, 0) * (double)s.jobs / (double)(s.jobs - 1)) : 0;
		for (i = 0; i < PF_HIST_NPCT; i++)
			if (sum->pct[i] > sum->max)
				sum->pct[i] = sum->max;
	}
	return 0;
fail:
	pf_hist_free(h);
	return ret;
}
