/*
 * snapshots.h - what snapshots.c offers: the analysis of a phase recorded by
 * the flight recorder. The job log gives every job's figures; the snapshots
 * (trace-NNN.dat, each a window ending at its trigger) give the kernel's view
 * of the jobs they cover, so the worst activations of each task are explained
 * when a snapshot holds them, and said to be unexplained, with why, when none
 * does. docs/results.md ("Flight-recorder runs").
 */
#ifndef AN_SNAPSHOTS_H
#define AN_SNAPSHOTS_H

#include "types.h"

/*
 * an_snapshots_find - the flight-recorder snapshots of a phase directory
 * (trace-NNN.dat, in file-name order) into r->opt.snapshots; 0, or an exit
 * code when out of memory
 */
int an_snapshots_find(struct an_run *r, const char *dir);

/*
 * an_snapshots_explain - analyse each snapshot alone with the tasks the job
 * log declares, and give each of the tasks' worst activations the culprits of
 * the first snapshot that covers it; 0 or an exit code (a corrupt snapshot is
 * a bad input, as a trace is)
 */
int an_snapshots_explain(struct an_run *r);

/*
 * an_snapshots_fold - into results.json: 'trace' describes the snapshots,
 * each task's 'culprits' the explained worst activations, 'unexplained' the
 * others with why, and 'culprit_coverage' counts them with the setting that
 * would capture more
 */
void an_snapshots_fold(struct an_run *r, json_t *res);

void an_snapshots_free(struct an_run *r);

#endif
