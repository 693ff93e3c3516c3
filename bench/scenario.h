/*
 * scenario.h - a bench scenario (bench/scenarios/NAME.ini, docs/scenarios.md):
 * phases run one after another, each with a duration, a set of loads with
 * their parameters, and what is measured (a cyclictest baseline, the flight
 * application with its simulator, recorder and job log, or nothing).
 *
 * Parsed with inih; every error names the file and line ("quick.ini:12:
 * ...") and is a usage error (exit 2). Load parameters are checked by the
 * loads themselves at parse time, so a typo never reaches a run.
 */
#ifndef SCENARIO_H
#define SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#define SCN_MAX_PHASES 16
#define SCN_MAX_LOADS  8	/* loads in one phase */
#define SCN_MAX_KV     64	/* parameters in one section */

enum scn_measure {
	SCN_NONE,		/* loads only */
	SCN_CYCLICTEST,	/* kernel baseline: cyclictest at the app's top priority */
	SCN_FLIGHTAPP,	/* the app with simulator, recorder and job log */
};

/* scn_kv - one parameter: for a load ('owner' = load name) or a measurement ("cyclictest", "flightapp") */
struct scn_kv {
	char owner[16];
	char key[48];
	char value[256];
	int line;
};

struct scn_phase {
	char name[48];
	int line;				/* of the [phase NAME] header */
	int64_t duration_ns;
	enum scn_measure measure;
	char loads[SCN_MAX_LOADS][16];	/* load names, in start order */
	int nloads;
	struct scn_kv kv[SCN_MAX_KV];	/* overrides: "<load>.key", "cyclictest.key", "flightapp.key" */
	int nkv;
};

struct scn {
	char path[512];
	char name[64];
	char description[256];
	char budgets[256];			/* default budgets for qualify, "" = none given */
	int budgets_line;			/* of 'budgets =', 0 = none given */
	struct scn_kv defaults[SCN_MAX_KV];	/* [load NAME], [cyclictest], [flightapp] sections */
	int ndefaults;
	struct scn_phase phases[SCN_MAX_PHASES];
	int nphases;
	char error[1024];			/* "file:line: what" after a failed parse */
};

/*
 * scn_load - parse a scenario file. 0, or -EINVAL (bad content) / -errno
 * (unreadable) with the "file:line: what" message in scn->error.
 */
int scn_load(struct scn *scn, const char *path) __attribute__((warn_unused_result));

/*
 * scn_resolve - the path of a scenario given by path, or by name ("quick":
 * the data file scenarios/quick.ini, lib/datafile.h). 0, or -ENOENT with
 * 'path' saying what was searched (a name) or the path itself.
 */
int scn_resolve(const char *name_or_path, char *path, int size);

/*
 * scn_params - the parameters of 'owner' in phase p: the scenario-wide
 * section first, then the phase's overrides (later ones win when applied in
 * order). Fills 'out' with pointers; returns the count.
 */
int scn_params(const struct scn *scn, const struct scn_phase *p, const char *owner,
		  const struct scn_kv **out, int max);

/* scn_param_kv - the effective owner.key of phase p (its value and line), or NULL */
const struct scn_kv *scn_param_kv(const struct scn *scn, const struct scn_phase *p, const char *owner,
				  const char *key);

/* scn_param - the effective value of owner.key in phase p, or 'fallback' */
const char *scn_param(const struct scn *scn, const struct scn_phase *p, const char *owner,
			 const char *key, const char *fallback);

/* scn_measure_name - "none", "cyclictest", "flightapp" */
const char *scn_measure_name(enum scn_measure m);

/* scn_total_ns - the sum of every phase's duration */
int64_t scn_total_ns(const struct scn *scn);

#endif
