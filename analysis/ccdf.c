/*
 * ccdf.c - the exceedance curve of a latency distribution (see ccdf.h):
 * points [x_ns, P(X >= x)], x ascending, at the ranks the curve is drawn at
 * - the AN_CCDF_TOP largest samples, then ranks spaced evenly in log down to
 * the smallest - AN_CCDF_MAX points at most, a value shared by several of
 * those ranks given once. The same rule reads two sources through one
 * question, "the sample of rank r from the top: its value and how many
 * samples are at or above it": a sorted series answers it exactly; a
 * histogram with the lower edge of the bucket holding that rank, where the
 * count is exact too (every sample of that bucket or above is >= its edge).
 * Samples past a histogram's last bucket have no known value: every rank
 * among them answers with that bucket's end, so the curve stops there.
 */
#include "ccdf.h"

#include <math.h>
#include <stdlib.h>

/* an_ccdf_at - the sample of rank r from the top (1: the largest): its value, the samples >= it */
typedef void an_ccdf_at_fn(const void *src, size_t r, double *x, size_t *above);

/*
 * an_ccdf_ranks - the curve of n samples that 'at' answers for: every value
 * where it changes when there are at most AN_CCDF_MAX, else the
 * AN_CCDF_TOP largest values and the values at ranks n^(j / 48) below them;
 * NULL out of memory
 */
static json_t *an_ccdf_ranks(size_t n, an_ccdf_at_fn *at, const void *src)
{
	struct { double x; size_t above; } p[AN_CCDF_MAX + 1];
	size_t np = 0, r = 1, rank;
	json_t *a = json_array(), *pt;
	int j;

	if (!a)
		return NULL;
	/* the values from the largest down: the next one is the rank after those at or above this one */
	while (r <= n && np < AN_CCDF_MAX + 1) {
		at(src, r, &p[np].x, &p[np].above);
		r = p[np++].above + 1;
	}
	if (r <= n) {
		/* more than AN_CCDF_MAX values: the largest ones, then ranks spaced evenly in log */
		np = AN_CCDF_TOP;
		r = p[np - 1].above + 1;
		for (j = 0; np < AN_CCDF_MAX && j < AN_CCDF_MAX - AN_CCDF_TOP; j++) {
			rank = (size_t)llround(pow((double)n, (j + 1.0) / (AN_CCDF_MAX - AN_CCDF_TOP)));
			if (rank < r || rank > n)
				continue;
			at(src, rank, &p[np].x, &p[np].above);
			r = p[np++].above + 1;
		}
	}
	/* the smallest x first */
	while (np--) {
		pt = json_array();
		if (!pt || json_array_append_new(a, pt) || json_array_append_new(pt, json_real(p[np].x)) ||
		    json_array_append_new(pt, json_real((double)p[np].above / (double)n))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* the sorted series a curve is of */
struct an_ccdf_series {
	const double *s;
	size_t n;
};

static void an_ccdf_series_at(const void *src, size_t r, double *x, size_t *above)
{
	const struct an_ccdf_series *c = src;
	size_t lo = 0, hi = c->n, mid;

	*x = c->s[c->n - r];
	/* samples >= x: those from the first index holding x */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c->s[mid] < *x)
			lo = mid + 1;
		else
			hi = mid;
	}
	*above = c->n - lo;
}

json_t *an_ccdf_sorted(const double *s, size_t n)
{
	struct an_ccdf_series c = { s, n };

	return an_ccdf_ranks(n, an_ccdf_series_at, &c);
}

/* a histogram's non-empty buckets, ascending, with the samples at or above each */
struct an_ccdf_hist {
	double *x;	/* lower edge (ns); the last one the histogram's end when samples lie past it */
	size_t *ge;	/* samples >= x, falling */
	size_t  m;
};

static void an_ccdf_hist_at(const void *src, size_t r, double *x, size_t *above)
{
	const struct an_ccdf_hist *h = src;
	size_t lo = 0, hi = h->m, mid;

	/* the last bucket with at least r samples at or above it */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (h->ge[mid] >= r)
			lo = mid;
		else
			hi = mid;
	}
	*x = h->x[lo];
	*above = h->ge[lo];
}

json_t *an_ccdf_buckets(const uint64_t *bins, uint64_t nbuckets, int64_t width_ns, uint64_t above)
{
	struct an_ccdf_hist h = { 0 };
	uint64_t b, n = above;
	size_t m = above ? 1 : 0, k;
	json_t *a = NULL;

	for (b = 0; b < nbuckets; b++) {
		n += bins[b];
		m += bins[b] != 0;
	}
	h.x = malloc((m ? m : 1) * sizeof(*h.x));
	h.ge = malloc((m ? m : 1) * sizeof(*h.ge));
	if (!h.x || !h.ge)
		goto out;
	k = m;
	if (above) {
		k--;
		h.x[k] = (double)nbuckets * (double)width_ns;
		h.ge[k] = above;
	}
	for (b = nbuckets, n = above; b-- > 0;) {
		if (!bins[b])
			continue;
		n += bins[b];
		k--;
		h.x[k] = (double)b * (double)width_ns;
		h.ge[k] = n;
	}
	h.m = m;
	a = an_ccdf_ranks(n, an_ccdf_hist_at, &h);
out:
	free(h.x);
	free(h.ge);
	return a;
}
