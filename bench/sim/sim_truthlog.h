/*
 * sim_truthlog.h - sensorsim's truth log: the aircraft's true state and the
 * commands it flew with, one CSV row (libcsv) per interval, with a versioned
 * header comment. Columns are listed in docs/sim.md.
 */
#ifndef SIM_TRUTHLOG_H
#define SIM_TRUTHLOG_H

#include "sim_daq.h"

#include <stdio.h>

struct sim_truthlog {
	FILE *f;
	uint64_t rows;
};

/* sim_truthlog_open - create the file and write the header (with the mission circuit); 0 or -errno */
int sim_truthlog_open(struct sim_truthlog *l, const char *path, uint64_t seed, const fsw_vec3 *wp, int n_wp);
/*
 * sim_truthlog_row - one row of the current state, the app's latest position estimate and
 * the errors: track and altitude of the truth against the circuit, the estimate against the truth
 */
void sim_truthlog_row(struct sim_truthlog *l, const struct sim_daq *d, double track_err_m, double alt_err_m);
/* sim_truthlog_close - flush and close; 0 or -errno */
int sim_truthlog_close(struct sim_truthlog *l);

#endif
