/*
 * perf.c - flightapp-perf: what the executive's instrumentation costs.
 *
 *  1. per job without tracing: app_run_job() of a task with no body and no
 *     work, i.e. the clock reads, release bookkeeping, ring push, statistics
 *     and the (disabled) marker and USDT sites, over >= 1e6 jobs; once
 *     without and once with the two reads of the thread's CPU clock (each a
 *     syscall), with the parts measured alone next to it;
 *  2. per marker with tracing on (root and tracefs): app_marker_job() into a
 *     tracefs instance made for the run, side by side with a bare write(2)
 *     of the same 24 bytes to the same trace_marker_raw, in alternating
 *     blocks, and their ratio.
 *
 * Output is '#'-prefixed key=value lines for machines plus one summary line
 * per measurement. The tracefs instance is removed at exit, also on SIGINT.
 */
#define _GNU_SOURCE
#include "common.h"
#include "exec.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#define PERF_JOBS    2000000
#define PERF_BATCH   4096
#define PERF_MARKERS 200000
#define PERF_BLOCK   1000

static volatile sig_atomic_t perf_stop;

static void perf_on_signal(int sig)
{
	perf_stop = sig;
}

/* perf_app - an app with one periodic task and nothing else, set up without threads */
static int perf_app(struct app *app)
{
	struct app_config cfg;
	char err[256];
	int ret;

	app_config_defaults(&cfg);
	ret = app_config_load_string(&cfg, "bench",
				     "[task io]\nwork = 0ns\n[task ctl100]\nenabled = false\n[task nav10]\nenabled = false\n"
				     "[task ekf]\nenabled = false\n[task mission1]\nenabled = false\n"
				     "[task telemetry]\nenabled = false\n[task logger]\nenabled = false\n"
				     "[task bench]\nperiod = 10ms\nwork = 0ns\n[app]\nring = 8192\n",
				     err, sizeof(err));
	if (!ret)
		ret = app_init(app, &cfg, err, sizeof(err));
	if (ret)
		fprintf(stderr, "flightapp-perf: setup: %s\n", err);
	return ret;
}

/* perf_jobs - nanoseconds per instrumented job over n jobs */
static double perf_jobs(struct app *app, struct app_task *t, long n)
{
	struct app_jobrec rec;
	struct app_job job;
	int64_t total = 0, t0;
	long done = 0, i;

	memset(&job, 0, sizeof(job));
	while (done < n && !perf_stop) {
		t0 = pf_now_ns();
		for (i = 0; i < PERF_BATCH; i++) {
			/* what the task loop does around a job: the release grant and the start read */
			app_release(t, t0, 0);
			job.release_ns = t0;
			job.start_ns = pf_now_ns();
			app_run_job(t, &job);
		}
		total += pf_now_ns() - t0;
		done += PERF_BATCH;
		while (app_ring_pop(&t->ring, &rec))	/* the logger's part, not timed */
			;
		/* app_release posted the semaphore once per job: take the posts back, untimed */
		while (!sem_trywait(&t->sem))
			;
	}
	(void)app;
	return done ? (double)total / (double)done : 0;
}

/* perf_part - nanoseconds per call of one piece of the instrumentation */
static double perf_part(int which, struct app_task *t, long n)
{
	struct app_jobrec rec = { 0 };
	int64_t t0 = pf_now_ns(), sink = 0;
	long i;

	for (i = 0; i < n; i++) {
		switch (which) {
		case 0: sink += pf_now_ns(); break;
		case 1: sink += pf_clock_ns(CLOCK_THREAD_CPUTIME_ID); break;
		case 2:
			rec.seq = (uint32_t)i;
			app_ring_push(&t->ring, &rec);
			app_ring_pop(&t->ring, &rec);
			break;
		case 3: app_stats_add(&t->stats, &rec); break;
		}
	}
	(void)sink;
	return (double)(pf_now_ns() - t0) / (double)n;
}

/* perf_markers - per-marker cost of app_marker_job and of a bare write, side by side */
static int perf_markers(void)
{
	char name[64], err[256], *path = NULL;
	struct tracefs_instance *inst;
	struct app_marker m;
	struct app_marker_raw raw;
	int64_t t_app = 0, t_bare = 0, t0;
	long n_app = 0, n_bare = 0, fails = 0, i;
	int fd = -1, ret = 0, block;

	if (geteuid() != 0) {
		printf("# markers=skipped reason=needs-root\n");
		return 0;
	}
	snprintf(name, sizeof(name), "preflight-perf-%d", (int)getpid());
	inst = tracefs_instance_create(name);
	if (!inst) {
		printf("# markers=skipped reason=tracefs-instance-create-failed\n");
		return 0;
	}
	if (app_marker_open(&m, name, false, err, sizeof(err))) {
		fprintf(stderr, "flightapp-perf: %s\n", err);
		ret = -1;
		goto out;
	}
	path = tracefs_instance_get_file(inst, "trace_marker_raw");
	fd = path ? open(path, O_WRONLY | O_CLOEXEC) : -1;
	if (fd < 0) {
		fprintf(stderr, "flightapp-perf: trace_marker_raw: %s\n", strerror(errno));
		ret = -1;
		goto out_m;
	}
	app_marker_encode_raw(&raw, APP_MARKER_START, 1, 0, 0, pf_now_ns());
	for (block = 0; n_app < PERF_MARKERS && !perf_stop; block++) {
		t0 = pf_now_ns();
		if (block & 1) {
			for (i = 0; i < PERF_BLOCK; i++)
				fails += write(fd, &raw, sizeof(raw)) != (ssize_t)sizeof(raw);
			t_bare += pf_now_ns() - t0;
			n_bare += PERF_BLOCK;
		} else {
			for (i = 0; i < PERF_BLOCK; i++)
				fails += app_marker_job(&m, APP_MARKER_START, 1, 0, (uint32_t)i, t0) != 0;
			t_app += pf_now_ns() - t0;
			n_app += PERF_BLOCK;
		}
	}
	printf("# marker_app_ns=%.1f\n# marker_bare_write_ns=%.1f\n# marker_ratio=%.2f\n# markers=%ld\n# marker_failures=%ld\n",
	       (double)t_app / (double)n_app, (double)t_bare / (double)n_bare,
	       ((double)t_app / (double)n_app) / ((double)t_bare / (double)n_bare), n_app + n_bare, fails);
	printf("marker with tracing on: %.1f ns per marker (goal <= 1500 ns); bare write to trace_marker_raw %.1f ns; ratio %.2f\n",
	       (double)t_app / (double)n_app, (double)t_bare / (double)n_bare,
	       ((double)t_app / (double)n_app) / ((double)t_bare / (double)n_bare));
	close(fd);
	tracefs_put_tracing_file(path);
out_m:
	app_marker_close(&m);
out:
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	return ret;
}

int main(int argc, char **argv)
{
	static struct app app;
	struct sigaction sa = { .sa_handler = perf_on_signal };
	struct sched_param sp = { 0 };
	struct app_task *t;
	bool rt;
	double per_job, per_job_nocpu, now_ns, cpu_ns, ring_ns, stats_ns;
	int ret;

	pf_set_prog("flightapp-perf");
	if (argc > 1) {
		printf("usage: flightapp-perf\n  measures instrumentation cost per job (%d jobs) and per trace marker "
		       "(root: a temporary tracefs instance); no options\n", PERF_JOBS);
		return strcmp(argv[1], "--help") && strcmp(argv[1], "-h") ? PF_EXIT_USAGE : PF_EXIT_OK;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (perf_app(&app))
		return PF_EXIT_INTERNAL;
	t = app_find_task(&app, "bench");
	/* realtime when permitted, so other load on the machine does not land in the numbers */
	sp.sched_priority = 50;
	rt = !sched_setscheduler(0, SCHED_FIFO, &sp);
	printf("# flightapp-perf v1\n# sched=%s\n", rt ? "fifo:50" : "other (not permitted: numbers include other load)");
	perf_jobs(&app, t, PERF_BATCH * 16);	/* warm up */
	per_job = perf_jobs(&app, t, PERF_JOBS);
	app.no_cpu_time = true;
	per_job_nocpu = perf_jobs(&app, t, PERF_JOBS);
	app.no_cpu_time = false;
	now_ns = perf_part(0, t, 1000000);
	cpu_ns = perf_part(1, t, 1000000);
	ring_ns = perf_part(2, t, 1000000);
	stats_ns = perf_part(3, t, 1000000);
	printf("# jobs=%d\n# instrumentation_per_job_ns=%.1f\n# instrumentation_per_job_without_cpu_time_ns=%.1f\n"
	       "# clock_monotonic_ns=%.1f\n# clock_thread_cputime_ns=%.1f\n# ring_push_pop_ns=%.1f\n# stats_add_ns=%.1f\n",
	       PERF_JOBS, per_job, per_job_nocpu, now_ns, cpu_ns, ring_ns, stats_ns);
	printf("instrumentation per job without tracing: %.1f ns over %d jobs (goal <= 150 ns) without the job's "
	       "CPU-time reads; %.1f ns with them (2 x CLOCK_THREAD_CPUTIME_ID at %.1f ns each: a syscall, no vDSO; "
	       "a job with calibrated work shares them with its work loop)\n",
	       per_job_nocpu, PERF_JOBS, per_job, cpu_ns);
	printf("parts alone: CLOCK_MONOTONIC %.1f ns, ring push+pop %.1f ns, statistics update %.1f ns\n",
	       now_ns, ring_ns, stats_ns);
	ret = perf_markers();
	app_fini(&app);
	return ret ? PF_EXIT_ENV : PF_EXIT_OK;
}
