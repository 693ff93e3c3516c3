/*
 * series.c - the per-job series the tail statistics need (docs/statistics.md):
 * after the pass, the job log is read once more, each task's activation
 * latency (s_k - r_k) and response time (e_k - r_k) put in release order,
 * and tail.c's object for each added to the task in results.json
 * (tasks.*.tail). The pass itself keeps only histograms, so its speed and
 * memory do not change; this costs one more reading of the job log and
 * its rows' three numbers while the statistics run.
 */
#include "series.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "joblog_read.h"
#include "tail.h"

static int an_sjob_cmp(const void *a, const void *b)
{
	const struct an_sjob *x = a, *y = b;

	if (x->release_ns != y->release_ns)
		return x->release_ns < y->release_ns ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* an_series_of - the series of task 'name' among s[0..n), or NULL */
static struct an_series *an_series_of(struct an_series *s, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s[i].name, name))
			return &s[i];
	return NULL;
}

/* an_series_rate - the jobs per second of a series sorted by release, 0 when unknown */
static double an_series_rate(const struct an_series *s)
{
	if (s->n > 1 && s->v[s->n - 1].release_ns > s->v[0].release_ns)
		return (double)(s->n - 1) * 1e9 / (double)(s->v[s->n - 1].release_ns - s->v[0].release_ns);
	return 0;
}

int an_series_fold_wakeup(json_t *task, struct an_series *s)
{
	json_t *tail = json_object_get(task, "tail"), *w;
	double *x = malloc((s->n ? s->n : 1) * sizeof(*x));
	size_t i;

	if (!x)
		return -ENOMEM;
	qsort(s->v, s->n, sizeof(*s->v), an_sjob_cmp);
	for (i = 0; i < s->n; i++)
		x[i] = s->v[i].lat_ns;
	w = an_tail_json(x, s->n, an_series_rate(s), "trace");
	free(x);
	if (!w)
		return -ENOMEM;
	if (!json_is_object(tail)) {
		tail = json_object();
		if (!tail || json_object_set_new(task, "tail", tail)) {
			json_decref(w);
			return -ENOMEM;
		}
	}
	return json_object_set_new(tail, "wakeup_latency_ns", w) ? -ENOMEM : 0;
}

/* an_series_task - the tail objects of one task's series, in release order; 0 or -ENOMEM */
static int an_series_task(json_t *task, struct an_series *s)
{
	json_t *tail = json_object(), *a, *b;
	double *lat = malloc((s->n ? s->n : 1) * sizeof(*lat)), *resp = malloc((s->n ? s->n : 1) * sizeof(*resp));
	double rate_hz;
	size_t i;
	int ret = -ENOMEM;

	if (!tail || !lat || !resp)
		goto out;
	qsort(s->v, s->n, sizeof(*s->v), an_sjob_cmp);
	for (i = 0; i < s->n; i++) {
		lat[i] = s->v[i].lat_ns;
		resp[i] = s->v[i].resp_ns;
	}
	rate_hz = an_series_rate(s);
	a = an_tail_json(lat, s->n, rate_hz, "joblog");
	b = an_tail_json(resp, s->n, rate_hz, "joblog");
	if (!a || !b) {
		json_decref(a);
		json_decref(b);
		goto out;
	}
	json_object_set_new(tail, "activation_latency_ns", a);
	json_object_set_new(tail, "response_time_ns", b);
	json_object_set_new(task, "tail", tail);
	tail = NULL;
	ret = 0;
out:
	json_decref(tail);
	free(lat);
	free(resp);
	return ret;
}

int an_series_fold(const char *joblog, json_t *res)
{
	json_t *tasks = json_object_get(res, "tasks"), *t;
	struct an_series *s = NULL, *cur;
	struct pf_joblog *jl = NULL;
	struct pf_jlrow *row;
	size_t ns = 0, i;
	const char *name;
	int ret;

	json_array_foreach(tasks, i, t)
		json_object_set_new(t, "tail", json_null());
	if (!joblog || !json_array_size(tasks))
		return 0;
	s = calloc(json_array_size(tasks), sizeof(*s));
	if (!s)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	json_array_foreach(tasks, i, t) {
		name = json_string_value(json_object_get(t, "name"));
		snprintf(s[ns++].name, sizeof(s->name), "%s", name ? name : "");
	}
	ret = pf_joblog_open(joblog, NULL, NULL, &jl);
	if (ret)
		goto out;
	while ((ret = pf_joblog_next(jl, NULL, NULL, &row)) == 1) {
		cur = an_series_of(s, ns, row->task);
		if (!cur || row->start_ns < row->release_ns || row->end_ns < row->start_ns)
			continue;
		if (an_series_push(cur, row->release_ns, row->seq, (double)(row->start_ns - row->release_ns),
				   (double)(row->end_ns - row->release_ns))) {
			ret = pf_fail(PF_EXIT_INTERNAL, "out of memory");
			goto out;
		}
	}
	if (ret < 0) {
		ret = -ret;
		goto out;
	}
	json_array_foreach(tasks, i, t) {
		if (!s[i].n)
			continue;
		if (an_series_task(t, &s[i])) {
			ret = pf_fail(PF_EXIT_INTERNAL, "out of memory");
			goto out;
		}
	}
	ret = 0;
out:
	pf_joblog_close(jl);
	for (i = 0; s && i < ns; i++)
		free(s[i].v);
	free(s);
	return ret;
}
