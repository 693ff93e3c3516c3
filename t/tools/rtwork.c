/*
 * rtwork.c - test workload: the PREEMPT_RT situations the analysis names
 * (analysis/rt.c), staged on one CPU under 'preflight record' so that the
 * traces of t/fixtures/rt/ are real kernel traces with small known stories.
 * Each case's realtime thread is an app task: it declares itself and writes
 * a start and an end marker per job (docs/markers.md, text form) into the
 * recorder's instance ($PREFLIGHT_TRACE_DIR), so 'preflight analyze --trace'
 * alone gives its jobs and culprits.
 *
 * usage: rtwork pi|nopi|timerfd|irq [--cpu N]   (default CPU 1)
 *
 *   pi       3 rounds of 30 ms: rt-low (SCHED_OTHER) takes a PTHREAD_PRIO_INHERIT
 *            mutex and spins 5 ms of CPU time; task 'hi' (FIFO 80) is released
 *            2 ms into the round and locks it; rt-mid (FIFO 50) is released at
 *            3 ms and spins 5 ms. rt-low runs boosted to FIFO 80 until it unlocks.
 *   nopi     the same with PTHREAD_PRIO_NONE: rt-mid preempts rt-low while 'hi'
 *            waits, and rt-low's unlock wakes 'hi' (a priority inversion).
 *   timerfd  task 'tfd' (FIFO 80) released 25 times by a 2 ms timerfd, which
 *            expires in ktimers/N on PREEMPT_RT (FIFO 1); rt-fifo1 (FIFO 1)
 *            spins 3 ms of every 7 ms and keeps ktimers/N waiting.
 *   irq      task 'nav' (FIFO 40, below the IRQ threads' FIFO 50) released 60
 *            times by a 1 ms clock_nanosleep while a child on another CPU
 *            writes a 23-byte line to /dev/ttyS0 every 5 ms, whose threaded
 *            handler irq/4-ttyS0 runs on the CPU where its interrupt arrives
 *            (route it there first: /proc/irq/4/smp_affinity_list).
 *
 * Every spin is bounded (CPU time, and at most 50 ms of wall time), so the
 * kernel's own FIFO 1 threads are never starved for long. Needs root
 * (SCHED_FIFO). Exit 0, 2 usage, 3 environment.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MS 1000000LL

static int rw_cpu = 1;			/* the CPU every case runs on */
static int rw_marker_fd = -1;		/* the instance's trace_marker */
static int64_t rw_t0_ns;		/* the first round's start, CLOCK_MONOTONIC */
static pthread_mutex_t rw_lock;		/* the pi / nopi cases' lock */

/* rw_die - one line, exit 3 */
static void rw_die(const char *what, int err)
{
	fprintf(stderr, "rtwork: %s: %s\n", what, strerror(err));
	exit(3);
}

/* rw_now_ns - CLOCK_MONOTONIC */
static int64_t rw_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* rw_cpu_ns - this thread's CPU time */
static int64_t rw_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* rw_spin - run 'cpu_ns' of CPU time, at most 50 ms of wall time */
static void rw_spin(int64_t cpu_ns)
{
	int64_t c0 = rw_cpu_ns(), w0 = rw_now_ns();

	while (rw_cpu_ns() - c0 < cpu_ns && rw_now_ns() - w0 < 50 * MS)
		;
}

/* rw_sleep_until - absolute CLOCK_MONOTONIC sleep */
static void rw_sleep_until(int64_t t_ns)
{
	struct timespec ts = { .tv_sec = t_ns / 1000000000LL, .tv_nsec = t_ns % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* rw_marker - one text marker line into the recorder's instance */
__attribute__((format(printf, 1, 2)))
static void rw_marker(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (write(rw_marker_fd, buf, (size_t)n) != n)
		fprintf(stderr, "rtwork: trace_marker: %s\n", strerror(errno));
}

/* rw_setup - name the calling thread, pin it to the case's CPU, give it its policy (prio 0: SCHED_OTHER) */
static void rw_setup(const char *name, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	cpu_set_t set;
	int err;

	pthread_setname_np(pthread_self(), name);
	CPU_ZERO(&set);
	CPU_SET(rw_cpu, &set);
	if ((err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set)))
		rw_die("sched_setaffinity", err);
	if ((err = pthread_setschedparam(pthread_self(), prio ? SCHED_FIFO : SCHED_OTHER, &sp)))
		rw_die("sched_setscheduler", err);
}

/* rw_declare - the task's declaration marker (docs/markers.md) */
static void rw_declare(int id, const char *name, int64_t period_ns, int prio)
{
	rw_marker("pf1 T %d %s tid=%d period_ns=%lld deadline_ns=%lld prio=%d policy=fifo\n", id, name,
		  (int)gettid(), (long long)period_ns, (long long)period_ns, prio);
}

#define PI_ROUNDS 3
#define PI_ROUND_NS (30 * MS)

/* rw_low_main - the lock's holder: takes it at each round's start, spins 5 ms, releases it */
static void *rw_low_main(void *arg)
{
	int k;

	rw_setup("rt-low", 0);
	for (k = 0; k < PI_ROUNDS; k++) {
		rw_sleep_until(rw_t0_ns + k * PI_ROUND_NS);
		pthread_mutex_lock(&rw_lock);
		rw_spin(5 * MS);
		pthread_mutex_unlock(&rw_lock);
	}
	return arg;
}

/* rw_mid_main - the medium hog: released 3 ms into each round, spins 5 ms */
static void *rw_mid_main(void *arg)
{
	int k;

	rw_setup("rt-mid", 50);
	for (k = 0; k < PI_ROUNDS; k++) {
		rw_sleep_until(rw_t0_ns + k * PI_ROUND_NS + 3 * MS);
		rw_spin(5 * MS);
	}
	return arg;
}

/* rw_hi_main - task 'hi': released 2 ms into each round, takes the lock, ends */
static void *rw_hi_main(void *arg)
{
	int64_t r;
	int k;

	rw_setup("rt-hi", 80);
	rw_declare(0, "hi", PI_ROUND_NS, 80);
	for (k = 0; k < PI_ROUNDS; k++) {
		r = rw_t0_ns + k * PI_ROUND_NS + 2 * MS;
		rw_sleep_until(r);
		rw_marker("pf1 S 0 %d %lld\n", k, (long long)r);
		pthread_mutex_lock(&rw_lock);
		pthread_mutex_unlock(&rw_lock);
		rw_marker("pf1 E 0 %d %lld 0\n", k, (long long)r);
	}
	return arg;
}

/* rw_case_pi - the pi and nopi cases */
static void rw_case_pi(int protocol)
{
	pthread_mutexattr_t ma;
	pthread_t th[3];
	int k;

	pthread_mutexattr_init(&ma);
	if (pthread_mutexattr_setprotocol(&ma, protocol) || pthread_mutex_init(&rw_lock, &ma))
		rw_die("pthread_mutex_init", EINVAL);
	rw_t0_ns = rw_now_ns() + 50 * MS;	/* the threads are set up by then */
	pthread_create(&th[0], NULL, rw_low_main, NULL);
	pthread_create(&th[1], NULL, rw_mid_main, NULL);
	pthread_create(&th[2], NULL, rw_hi_main, NULL);
	for (k = 0; k < 3; k++)
		pthread_join(th[k], NULL);
}

static volatile int rw_stop;

/* rw_fifo1_main - rt-fifo1 (FIFO 1, ktimers' priority): spins 3 ms of every 7 ms */
static void *rw_fifo1_main(void *arg)
{
	int64_t t = rw_t0_ns;

	rw_setup("rt-fifo1", 1);
	while (!rw_stop) {
		rw_sleep_until(t);
		rw_spin(3 * MS);
		t += 7 * MS;
	}
	return arg;
}

/* rw_case_timerfd - task 'tfd' on a 2 ms timerfd, rt-fifo1 beside it */
static void rw_case_timerfd(void)
{
	struct itimerspec its = { 0 };
	pthread_t hog;
	uint64_t n;
	int64_t r;
	int fd, k;

	rw_t0_ns = rw_now_ns() + 50 * MS;
	pthread_create(&hog, NULL, rw_fifo1_main, NULL);
	rw_setup("rt-tfd", 80);
	rw_declare(0, "tfd", 2 * MS, 80);
	fd = timerfd_create(CLOCK_MONOTONIC, 0);
	if (fd < 0)
		rw_die("timerfd_create", errno);
	its.it_value.tv_sec = rw_t0_ns / 1000000000LL;
	its.it_value.tv_nsec = rw_t0_ns % 1000000000LL;
	its.it_interval.tv_nsec = 2 * MS;
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL))
		rw_die("timerfd_settime", errno);
	for (k = 0, r = rw_t0_ns; k < 25; k++) {
		if (read(fd, &n, sizeof(n)) != sizeof(n))
			rw_die("timerfd read", errno);
		rw_marker("pf1 S 0 %d %lld\n", k, (long long)r);
		rw_spin(100000);
		rw_marker("pf1 E 0 %d %lld 0\n", k, (long long)r);
		r += (int64_t)n * 2 * MS;
	}
	rw_stop = 1;
	pthread_join(hog, NULL);
	close(fd);
}

/* rw_case_irq - task 'nav' (FIFO 40) every 1 ms, /dev/ttyS0 written from the other CPU */
static void rw_case_irq(void)
{
	static const char line[] = "rtwork irq: ttyS0 ...\r\n";
	cpu_set_t set;
	pid_t child;
	int64_t r;
	int fd, k;

	fd = open("/dev/ttyS0", O_WRONLY | O_NOCTTY);
	if (fd < 0)
		rw_die("/dev/ttyS0", errno);
	child = fork();
	if (child < 0)
		rw_die("fork", errno);
	if (!child) {
		int64_t t = rw_now_ns(), end = t + 100 * MS;

		CPU_ZERO(&set);
		CPU_SET(rw_cpu ? 0 : 1, &set);
		sched_setaffinity(0, sizeof(set), &set);
		for (; t < end; t += 5 * MS) {
			rw_sleep_until(t);
			if (write(fd, line, sizeof(line) - 1) < 0)
				_exit(3);
		}
		_exit(0);
	}
	close(fd);
	rw_setup("rt-nav", 40);
	rw_declare(0, "nav", MS, 40);
	for (k = 0, r = rw_now_ns() + 20 * MS; k < 60; k++, r += MS) {
		rw_sleep_until(r);
		rw_marker("pf1 S 0 %d %lld\n", k, (long long)r);
		rw_spin(50000);
		rw_marker("pf1 E 0 %d %lld 0\n", k, (long long)r);
	}
	kill(child, SIGTERM);
	waitpid(child, NULL, 0);
}

int main(int argc, char **argv)
{
	const char *dir = getenv("PREFLIGHT_TRACE_DIR");
	char path[4096];

	if (argc == 4 && !strcmp(argv[2], "--cpu"))
		rw_cpu = atoi(argv[3]);
	else if (argc != 2)
		goto usage;
	if (!dir) {
		fprintf(stderr, "rtwork: PREFLIGHT_TRACE_DIR: not set: run under preflight record\n");
		return 3;
	}
	snprintf(path, sizeof(path), "%s/trace_marker", dir);
	rw_marker_fd = open(path, O_WRONLY);
	if (rw_marker_fd < 0)
		rw_die(path, errno);
	if (!strcmp(argv[1], "pi"))
		rw_case_pi(PTHREAD_PRIO_INHERIT);
	else if (!strcmp(argv[1], "nopi"))
		rw_case_pi(PTHREAD_PRIO_NONE);
	else if (!strcmp(argv[1], "timerfd"))
		rw_case_timerfd();
	else if (!strcmp(argv[1], "irq"))
		rw_case_irq();
	else
		goto usage;
	return 0;
usage:
	fprintf(stderr, "usage: rtwork pi|nopi|timerfd|irq [--cpu N]\n");
	return 2;
}
