/*
 * load_achieved.h - how much of its target a load achieved, from its own
 * report (the 'preflight load' report, schema preflight-load-v1, docs/loads.md):
 * one definition that 'check' gates its verdicts on (docs/budgets.md,
 * [validity]) and the reviewer report draws in L1.2.
 */
#ifndef PF_LOAD_ACHIEVED_H
#define PF_LOAD_ACHIEVED_H

#include <jansson.h>
#include <stdint.h>

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

/* what a load achieved each second over a window (docs/loads.md, Samples) */
struct pf_load_samples {
	int    seconds;		/* samples with a target in the window */
	int    total;		/* samples with a target in the whole file */
	double mean_pct;	/* the mean of their achieved / target, % (NAN: none) */
	double worst_pct;	/* the lowest, % (NAN: none) */
	char   unit[32];	/* the file's unit ("bit/s"), "" when it says none */
};

/*
 * pf_load_samples_read - the samples file 'path' of a load: each sample with
 * a target through each(arg, t_ns, pct) when each is not NULL, and into *s
 * the statistics of those whose second lies mostly in [from_ns, to_ns]
 * (CLOCK_MONOTONIC; 0 and INT64_MAX for all). 0, or -1 when it cannot be
 * opened (*s then holds no second).
 */
int pf_load_samples_read(const char *path, int64_t from_ns, int64_t to_ns, struct pf_load_samples *s,
			 void (*each)(void *arg, int64_t t_ns, double pct), void *arg);

#endif
