/*
 * work.c - calibrated CPU work: burn a given amount of this thread's CPU time.
 *
 * The work is measured on CLOCK_THREAD_CPUTIME_ID, so a job that is preempted
 * still does all of its work and a profile reproduces a target's CPU load on
 * any machine. The clock is read between short chunks of arithmetic (about a
 * microsecond each), so the overshoot stays around one chunk plus one read.
 */
#include "work.h"
#include "common.h"
#include "task.h"

#define APP_WORK_CHUNK 256	/* iterations between two clock reads */

/* app_work_chunk - a short, unoptimisable piece of integer and FP arithmetic */
static void app_work_chunk(void)
{
	static __thread volatile uint64_t sink;
	uint64_t x = sink | 1;
	double d = 1.0;
	int i;

	for (i = 0; i < APP_WORK_CHUNK; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		d = d * 1.0000001 + (double)(x & 0xff);
	}
	sink = x + (uint64_t)d;
}

int64_t app_work_cpu_ns(int64_t work_ns)
{
	return app_work_from_ns(pf_clock_ns(CLOCK_THREAD_CPUTIME_ID), work_ns);
}

int64_t app_work_from_ns(int64_t cpu_now_ns, int64_t work_ns)
{
	int64_t now = cpu_now_ns;
	int64_t end = now + work_ns;

	while (now < end) {
		app_work_chunk();
		now = pf_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	}
	return now;
}
