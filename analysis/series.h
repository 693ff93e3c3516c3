/*
 * series.h - what series.c offers: each task's per-job series read from the
 * job log after the pass (or, for the wakeup latency, kept by the pass), in
 * release order, and its tail statistics (tail.c) added to results.json's
 * tasks as tasks.*.tail.
 */
#ifndef AN_SERIES_H
#define AN_SERIES_H

#include <errno.h>
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"

/* one job of a task's series */
struct an_sjob {
	int64_t  release_ns;
	uint32_t seq;
	double   lat_ns, resp_ns;
};

/* a task's per-job series, in the order its jobs came (sorted by release when folded) */
struct an_series {
	char           name[32];
	struct an_sjob *v;
	size_t         n, cap;
};

/* an_series_push - one job onto series s (inline: the pass's tasks.c links no statistics); 0 or -ENOMEM */
static inline int an_series_push(struct an_series *s, int64_t release_ns, uint32_t seq, double lat_ns,
				 double resp_ns)
{
	if (pf_grow(&s->v, &s->cap, s->n, sizeof(*s->v), 1024))
		return -ENOMEM;
	s->v[s->n++] = (struct an_sjob){ release_ns, seq, lat_ns, resp_ns };
	return 0;
}

/*
 * an_series_fold - tasks.*.tail of res from the job log (null for a task
 * without rows, and for every task when there is no job log); 0 or an exit
 * code, said
 */
int an_series_fold(const char *joblog, json_t *res);

/*
 * an_series_fold_wakeup - the tail of the trace's wakeup latency (the
 * metric REQ-LAT-001 judges) as task.tail.wakeup_latency_ns from series s
 * (its lat_ns; sorted here), the task's tail object made when it has none;
 * 0 or -ENOMEM
 */
int an_series_fold_wakeup(json_t *task, struct an_series *s);

#endif
