/*
 * sim_harness.h - the faster-than-real-time closed loop: the simulated DAQ
 * (sim_daq) and the flight software (app/fsw) in one thread, in simulation
 * time, with no sleeping. Each 10 ms slot: the aircraft advances ten 1 ms
 * steps, the UART carries what the line rate allows (with the scenario's
 * faults), then the app's task jobs run in the executive's order: io,
 * ctl100, ekf (when io released it), nav10 every 10th slot, mission1 every
 * 100th. The links are in-memory ("mem" backends) with the same semantics
 * as the real ones: non-blocking UART reads, SPI answer read one slot later.
 *
 * Metrics compare the truth with the mission and with the navigation:
 * cross-track error (distance to the nearest leg of the circuit), altitude
 * error, INS position error, stall.
 */
#ifndef SIM_HARNESS_H
#define SIM_HARNESS_H

#include "sim_scenario.h"

struct sim_metrics {
	double   t_s;
	uint64_t n;				/* samples (one per slot after metrics_start_s) */
	double   pos_err_ss, track_err_ss, alt_err_ss;	/* sums of squares */
	double   pos_err_max_m, track_err_max_m, alt_err_max_m;
	double   pos_err_rms_m, track_err_rms_m, alt_err_rms_m;
};

struct sim_harness {
	struct sim_scenario scen;
	struct sim_daq daq;
	struct fsw *fsw;			/* allocated (large) */
	uint64_t slot;
	double   uart_budget;			/* bytes the line may carry now */
	uint8_t  spi_q[4][FSW_SPI_FRAME_MAX];	/* answers waiting to be read */
	size_t   spi_len[4];
	int      spi_n;
	uint64_t ekf_jobs;
	struct sim_metrics m;
	/* with time_jobs: CPU time of each task's jobs (io, ctl100, ekf, nav10, mission1) */
	bool     time_jobs;
	struct sim_job_cpu { uint64_t n; int64_t sum_ns, max_ns; } job_cpu[5];
	/* per-slot hook for tests (NULL = none): called after the jobs of each slot */
	void   (*hook)(struct sim_harness *h, void *ctx);
	void    *hook_ctx;
};

/* sim_harness_init - 0 or -errno (message in err) */
int sim_harness_init(struct sim_harness *h, const struct sim_scenario *s, char *err, size_t err_size)
	__attribute__((warn_unused_result));
void sim_harness_fini(struct sim_harness *h);
/* sim_harness_slot - one 10 ms slot of the closed loop */
void sim_harness_slot(struct sim_harness *h);
/* sim_harness_run - slots until duration_s; metrics are final afterwards */
void sim_harness_run(struct sim_harness *h);
/* sim_harness_nav_error_m - |INS position - truth| now; -1 if not aligned */
double sim_harness_nav_error_m(struct sim_harness *h);
/* sim_harness_track_error_m - distance of a position to the circuit's nearest leg */
double sim_harness_track_error_m(const struct fsw_config *c, fsw_vec3 pos);

#endif
