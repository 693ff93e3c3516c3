/*
 * series.h - what series.c offers: each task's per-job series read from the
 * job log after the pass, in release order, and its tail statistics
 * (tail.c) added to results.json's tasks as tasks.*.tail.
 */
#ifndef AN_SERIES_H
#define AN_SERIES_H

#include <jansson.h>

/*
 * an_series_fold - tasks.*.tail of res from the job log (null for a task
 * without rows, and for every task when there is no job log); 0 or an exit
 * code, said
 */
int an_series_fold(const char *joblog, json_t *res);

#endif
