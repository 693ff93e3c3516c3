/*
 * hist.c - fixed-bin histogram with exact outliers and summary statistics.
 * See hist.h for the guarantees.
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

int pf_hist_init(struct pf_hist *h, int64_t lo, int64_t width, uint32_t nbins)
{
	memset(h, 0, sizeof(*h));
	if (width <= 0 || nbins == 0)
		return -EINVAL;
	h->bins = calloc(nbins, sizeof(*h->bins));
	if (!h->bins)
		return -ENOMEM;
	h->lo = lo;
	h->width = width;
	h->nbins = nbins;
	h->min = INT64_MAX;
	h->max = INT64_MIN;
	return 0;
}

void pf_hist_free(struct pf_hist *h)
{
	free(h->bins);
	free(h->outliers);
	memset(h, 0, sizeof(*h));
}

/* pf_hist_keep_outlier - store one value outside the bins exactly */
static int pf_hist_keep_outlier(struct pf_hist *h, int64_t value)
{
	if (pf_grow(&h->outliers, &h->outliers_cap, h->noutliers, sizeof(*h->outliers), 64))
		return -ENOMEM;
	h->outliers[h->noutliers++] = value;
	return 0;
}

/* pf_hist_bin_of - bin index of a value, or -1 when it is an outlier */
static int64_t pf_hist_bin_of(const struct pf_hist *h, int64_t value)
{
	int64_t i;

	if (value < h->lo)
		return -1;
	i = (value - h->lo) / h->width;
	return i < h->nbins ? i : -1;
}

/* pf_hist_account - update count, min, max and the running moments */
static void pf_hist_account(struct pf_hist *h, int64_t value, uint64_t n, int64_t at, int64_t id)
{
	double delta;
	uint64_t k;

	if (value < h->min)
		h->min = value;
	if (value > h->max) {
		h->max = value;
		h->max_at = at;
		h->max_id = id;
	}
	for (k = 0; k < n; k++) {
		h->count++;
		delta = (double)value - h->mean;
		h->mean += delta / (double)h->count;
		h->m2 += delta * ((double)value - h->mean);
	}
}

int pf_hist_add(struct pf_hist *h, int64_t value, int64_t at, int64_t id)
{
	int64_t i = pf_hist_bin_of(h, value);
	int ret;

	if (i < 0) {
		ret = pf_hist_keep_outlier(h, value);
		if (ret)
			return ret;
	} else {
		h->bins[i]++;
	}
	pf_hist_account(h, value, 1, at, id);
	return 0;
}

int pf_hist_add_n(struct pf_hist *h, int64_t value, uint64_t n)
{
	int64_t i = pf_hist_bin_of(h, value);
	uint64_t k;
	int ret;

	if (n == 0)
		return 0;
	if (i < 0) {
		for (k = 0; k < n; k++) {
			ret = pf_hist_keep_outlier(h, value);
			if (ret)
				return ret;
		}
	} else {
		h->bins[i] += n;
	}
	pf_hist_account(h, value, n, 0, 0);
	return 0;
}

int pf_hist_merge(struct pf_hist *dst, const struct pf_hist *src)
{
	double delta, n;
	uint32_t i;
	size_t k;
	int ret;

	if (dst->lo != src->lo || dst->width != src->width || dst->nbins != src->nbins)
		return -EINVAL;
	if (!src->count)
		return 0;
	for (k = 0; k < src->noutliers; k++) {
		ret = pf_hist_keep_outlier(dst, src->outliers[k]);
		if (ret)
			return ret;
	}
	for (i = 0; i < src->nbins; i++)
		dst->bins[i] += src->bins[i];
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max) {
		dst->max = src->max;
		dst->max_at = src->max_at;
		dst->max_id = src->max_id;
	}
	/* Chan et al. parallel combination of the moments */
	n = (double)dst->count + (double)src->count;
	delta = src->mean - dst->mean;
	dst->m2 += src->m2 + delta * delta * (double)dst->count * (double)src->count / n;
	dst->mean += delta * (double)src->count / n;
	dst->count += src->count;
	return 0;
}

static int pf_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int64_t pf_hist_percentile(struct pf_hist *h, double q)
{
	uint64_t rank, seen = 0;
	size_t below = 0, k;
	int64_t v;
	uint32_t i;

	if (!h->count)
		return 0;
	qsort(h->outliers, h->noutliers, sizeof(*h->outliers), pf_cmp_i64);
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	while (below < h->noutliers && h->outliers[below] < h->lo)
		below++;
	if (rank <= below)
		return h->outliers[rank - 1];
	seen = below;
	for (i = 0; i < h->nbins; i++) {
		seen += h->bins[i];
		if (seen >= rank) {
			v = h->lo + (int64_t)(i + 1) * h->width - 1;
			return v < h->max ? v : h->max;
		}
	}
	k = below + (rank - seen) - 1;
	return h->outliers[k];
}

void pf_hist_stats(struct pf_hist *h, struct pf_stats *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->count = h->count;
	if (!h->count)
		return;
	s->min = h->min;
	s->max = h->max;
	s->max_at = h->max_at;
	s->max_id = h->max_id;
	s->mean = h->mean;
	s->stddev = h->count > 1 ? sqrt(h->m2 / (double)(h->count - 1)) : 0.0;
	for (i = 0; i < PF_HIST_NPCT; i++)
		s->pct[i] = pf_hist_percentile(h, pf_hist_pct[i]);
}

json_t *pf_stats_json(const struct pf_stats *s, int64_t bin_width, const char *unit)
{
	json_t *o = json_object();
	int i;

	if (!o)
		return NULL;
	json_object_set_new(o, "unit", json_string(unit));
	json_object_set_new(o, "bin_width", json_integer(bin_width));
	json_object_set_new(o, "count", json_integer((json_int_t)s->count));
	if (!s->count) {
		static const char *const keys[] = { "min", "mean", "stddev", "max", "max_at", "max_id" };

		for (i = 0; i < (int)(sizeof(keys) / sizeof(keys[0])); i++)
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
	for (i = 0; i < PF_HIST_NPCT; i++)
		json_object_set_new(o, pf_hist_pct_name[i], json_integer(s->pct[i]));
	return o;
}
