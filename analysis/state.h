/*
 * state.h - what state.c offers: the end of one analysis run's state as a whole
 * (struct an_run, types.h), whichever parts of it were set up: the callers
 * are analyze.c, snapshots.c (a run per snapshot) and the tests and fuzz
 * harnesses that drive the building blocks.
 */
#ifndef AN_STATE_H
#define AN_STATE_H

#include "types.h"

/* an_run_free - free what sched.c, tasks.c and cyclictest_wakeups.c hold of r (not r itself) */
void an_run_free(struct an_run *r);

#endif
