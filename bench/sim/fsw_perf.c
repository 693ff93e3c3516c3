/*
 * fsw_perf.c - benchmark of the flight software in the harness: the CPU
 * time of each task's jobs (io, ctl100, ekf, nav10, mission1) over three
 * laps of the default circuit, with the IMU at 100 Hz and at 1 kHz, and how
 * much faster than real time the harness runs. Run by 'make perf'.
 *
 * usage: fsw-perf [--duration S]
 */
#include "command.h"
#include "common.h"
#include "sim_harness.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* perf_one - one flight, one table */
static int perf_one(double duration_s, double imu_hz, int baud)
{
	static const char *const names[5] = { "io", "ctl100", "ekf", "nav10", "mission1" };
	static struct sim_harness h;
	struct sim_scenario s;
	char err[256];
	int64_t t0;
	double wall;
	int i;

	sim_scenario_default(&s);
	s.duration_s = duration_s;
	s.sens.imu_rate_hz = imu_hz;
	s.uart_baud = baud;
	if (sim_harness_init(&h, &s, err, sizeof(err)))
		return pf_fail(PF_EXIT_INTERNAL, "harness: %s", err);
	h.time_jobs = true;
	t0 = pf_now_ns();
	sim_harness_run(&h);
	wall = (pf_now_ns() - t0) / 1e9;
	printf("fsw-perf: IMU %.0f Hz, %.0f s simulated in %.2f s wall (%.0fx real time), track RMS %.2f m, position RMS %.2f m\n",
	       imu_hz, h.daq.model.st.t_s, wall, h.daq.model.st.t_s / wall, h.m.track_err_rms_m, h.m.pos_err_rms_m);
	printf("  %-9s %9s %12s %12s\n", "task", "jobs", "cpu_avg_us", "cpu_max_us");
	for (i = 0; i < 5; i++)
		printf("  %-9s %9llu %12.2f %12.2f\n", names[i], (unsigned long long)h.job_cpu[i].n,
		       h.job_cpu[i].n ? h.job_cpu[i].sum_ns / 1e3 / h.job_cpu[i].n : 0.0, h.job_cpu[i].max_ns / 1e3);
	sim_harness_fini(&h);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "duration", required_argument, NULL, 'd' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	double duration_s = 330;
	int64_t ns;
	char why[256];
	int c, rc;

	pf_set_prog("fsw-perf");
	opterr = 0;	/* one line for a bad option: ours */
	while ((c = getopt_long(argc, argv, "d:h", lo, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (pf_parse_duration_ns(optarg, PF_NS_PER_SEC, &ns) || ns <= 0)
				return pf_fail(PF_EXIT_USAGE, "--duration: '%s': expected a positive duration", optarg);
			duration_s = ns / 1e9;
			break;
		case 'h':
			printf("usage: fsw-perf [--duration S]\n\n"
			       "CPU time per job of each flight-software task in the harness.\n\n"
			       "  -d, --duration SECONDS  simulated flight per configuration (default: 330)\n"
			       "  -h, --help              this text\n");
			return PF_EXIT_OK;
		default:
			return pf_fail(PF_EXIT_USAGE, "%s (see 'fsw-perf --help')",
				       pf_option_why(why, sizeof(why), argv, "d:h"));
		}
	}
	rc = perf_one(duration_s, 100, 115200);
	if (!rc)
		rc = perf_one(duration_s, 1000, 460800);
	return rc;
}
