/*
 * results.h - what results.c offers: results.json (docs/results.md) from a
 * finished analysis, the CSV tables and the text summary made from it.
 */
#ifndef AN_RESULTS_H
#define AN_RESULTS_H

#include "types.h"

/*
 * an_results_json - results.json as a document, but for its threads[]: that
 * array is left empty there and each entry is made on demand
 * (an_threads_each, an_results_dump), so memory does not grow with the
 * number of threads
 */
json_t *an_results_json(struct an_run *r);

/* an_threads_each - call fn on each entry of threads[] in turn (freed after); 0 or fn's non-zero value */
int  an_threads_each(struct an_run *r, int (*fn)(json_t *thread, void *arg), void *arg);

/* an_results_dump - write the document with its threads[] to f (one thread per line); 0 or -1 */
int  an_results_dump(struct an_run *r, json_t *res, FILE *f);
/* an_culprit_json - one of a task's worst activations with what stood between its release and start */
json_t *an_culprit_json(const struct an_run *r, const struct an_task *t, const struct an_culprit *c);
/* an_culprit_parts_json - into o: what any culprit holds (times, decomposition, contributors); 'self' names the victim */
void an_culprit_parts_json(const char *self, const struct an_culprit *c, json_t *o);

/*
 * an_threads_sweep - drop the dead threads threads[] can no longer list
 * (an_threads_select's rules, on what is final once a thread died and left
 * every CPU's history): with --all-threads none; with --threads those not
 * matching; by default those neither realtime, nor the app's, nor a task's,
 * nor named in a worst activation, whose runtime and worst wakeup are below
 * the tenth of the dead threads that compete for the top lists to the end
 * (pool_run, pool_wake). A busy system starts and ends thousands of
 * threads: memory then follows the threads alive, not the trace's length.
 */
void an_threads_sweep(struct an_run *r);

int  an_write_csv(struct an_run *r, json_t *res, const char *dir);
void an_print_summary(struct an_run *r, json_t *res, FILE *out);

#endif
