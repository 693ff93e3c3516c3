/*
 * load_achieved.h - how much of its target a load achieved, from its own
 * report (the 'preflight load' report, schema preflight-load-v1, docs/loads.md):
 * one definition that 'check' gates its verdicts on (docs/budgets.md,
 * [validity]) and the reviewer report draws in L1.2.
 */
#ifndef PF_LOAD_ACHIEVED_H
#define PF_LOAD_ACHIEVED_H

#include <jansson.h>

/*
 * pf_load_achieved_pct - what load 'name' achieved as a share of its target,
 * in % (100: as configured), from its report 'load' (the object with
 * "achieved"); *what says what was compared ("received / configured rate").
 * NAN, *what NULL, when the report carries no target (hackbench, an
 * unlimited sd, a report without "achieved"); NAN with *what set when it has
 * a target but its achievement is not known (stress-ng's CPU use null): a
 * gate must take that as not achieved, never as achieved.
 */
double pf_load_achieved_pct(const char *name, json_t *load, const char **what);

#endif
