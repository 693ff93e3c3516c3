/*
 * cyclictest_wakeups.h - what cyclictest_wakeups.c offers: cyclictest's own
 * wakeups found in a trace of a cyclictest run (a baseline phase recorded with
 * cyclictest.trace = full or flight), each measured from its timer's expiry
 * to its switch-in, and the worst of them explained by the culprit code of
 * tasks.c, as rtla timerlat's auto-analysis explains its worst sample.
 * results.json member "cyclictest_wakeups" (docs/results.md). It calls
 * sched.c, tasks.c and results.c (docs/ARCHITECTURE.md); trace.c feeds it.
 */
#ifndef AN_CYCLICTEST_WAKEUPS_H
#define AN_CYCLICTEST_WAKEUPS_H

#include "types.h"

/*
 * an_cw_on_new_thread - a sched_wakeup_new in creator's context: a thread
 * named cyclictest is one of the creator's process (the trace records the
 * whole machine: another cyclictest may run beside); 0 or an exit code
 */
int  an_cw_on_new_thread(struct an_run *r, int creator, int pid, const char *comm);

/*
 * an_cw_on_hrtimer_start - a timer:hrtimer_start in pid's context: a
 * cyclictest thread arming its next sleep, the end of its cycle; 0 or an
 * exit code
 */
int  an_cw_on_hrtimer_start(struct an_run *r, int cpu, int64_t ts, int pid, int64_t expires_ns);

/*
 * an_cw_on_switch - after sched.c took a sched_switch: a cyclictest thread
 * that blocks sleeps until the expiry it armed; one switched in after its
 * waking is a wakeup, measured and, among the worst, explained; 0 or an exit
 * code (out of memory)
 */
int  an_cw_on_switch(struct an_run *r, int cpu, int64_t ts, int prev_pid, int prev_prio, int next_pid);

/*
 * an_cw_merge - a flight-recorder snapshot's analysis s into r: its threads'
 * wakeups and its worst wakeups (named by 'file'); 0 or an exit code
 */
int  an_cw_merge(struct an_run *r, struct an_run *s, const char *file);

/*
 * an_cw_fold - results.json's "cyclictest_wakeups": null when the trace held
 * no cyclictest thread, else its threads (beside what cyclictest itself
 * reported, r->cyclictest) and worst wakeups with their culprits
 */
void an_cw_fold(struct an_run *r, json_t *res);

/* an_cw_print - the text summary's "cyclictest's worst wakeups explained", from results.json */
void an_cw_print(json_t *res, FILE *out);

void an_cw_free(struct an_run *r);

#endif
