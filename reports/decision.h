/*
 * decision.h - what page 1 decides (issue 32.10): the result, and the four
 * things a reviewer weighs it by — was the measurement validated, is the
 * platform representative of a board, was the run long enough, and does the
 * idle kernel alone stay within the latency budget. Read once from a run
 * directory's files, so that the summary and the report say the same.
 */
#ifndef PREFLIGHT_DECISION_H
#define PREFLIGHT_DECISION_H

#include <jansson.h>
#include <stdbool.h>

enum decision_item {
	DECISION_RESULT,
	DECISION_MEASUREMENT,
	DECISION_PLATFORM,
	DECISION_RUN_LENGTH,
	DECISION_BASELINE,
	DECISION_N
};

struct decision_line {
	const char *name;	/* "result", "measurement", "platform", "run length", "idle kernel" */
	const char *state;	/* the answer in capitals: "FAIL", "NOT VALIDATED", "VALIDATED", ... */
	bool ok;		/* the answer a signature needs */
	char text[1024];	/* why, in one sentence */
};

struct decision {
	struct decision_line line[DECISION_N];
};

/*
 * decision_read - the five lines of run directory 'dir' from its files as the
 * caller loaded them (any may be NULL: that line then says what is missing)
 * and the idle phase's results.json, read here. 'plain' writes "us" where
 * the report writes "µs".
 */
void decision_read(const char *dir, json_t *verdicts, json_t *selftest, json_t *sysinfo, json_t *run,
		   json_t *results, bool plain, struct decision *d);

/* decision_bound_ns - a verdict's bound in nanoseconds, NAN when its unit is not a time */
double decision_bound_ns(json_t *verdict);

#endif
