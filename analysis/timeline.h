/*
 * timeline.h - what timeline.c offers: the per-CPU timeline around each of
 * a task's worst activations, captured while the trace is read and written
 * into results.json as tasks[].culprits[].timeline (docs/results.md). It
 * calls sched.c only (docs/ARCHITECTURE.md).
 */
#ifndef AN_TIMELINE_H
#define AN_TIMELINE_H

#include "types.h"

/*
 * an_tl_step - at a job start of task t (now_ns): capture what is behind an
 * activation that just entered t's worst list, drop those that left it, and
 * complete every window the trace has passed; 0 or -ENOMEM
 */
int  an_tl_step(struct an_run *r, struct an_task *t, int64_t now_ns);
/* an_tl_finish - the trace has ended: complete the open windows with what there is; 0 or -ENOMEM */
int  an_tl_finish(struct an_run *r);
/* an_tl_json - the timeline of activation c of task t (new reference), JSON null when none was captured */
json_t *an_tl_json(struct an_run *r, const struct an_task *t, const struct an_culprit *c);
/* an_tl_pids - fn on the pid of every thread a timeline shows (an_tl_seg_json names them by pid at the end) */
void an_tl_pids(struct an_run *r, void (*fn)(struct an_run *r, int pid));
void an_tl_free(struct an_run *r);

#endif
