/*
 * ring.h - the per-task job record and the lock-free single-producer /
 * single-consumer ring that carries it from a task's thread (producer, on the
 * realtime path) to the logger thread (consumer).
 *
 * The ring is allocated and prefaulted at setup; a push is two loads, a copy
 * and one release store, never a syscall or a wait. A full ring drops the
 * record and counts it (the job log says how many, docs/joblog.md).
 */
#ifndef APP_RING_H
#define APP_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Job-log flags (docs/joblog.md). */
#define APP_JOB_OVERRUN   0x1	/* still running at the next release */
#define APP_JOB_DEADLINE  0x2	/* end - release > deadline */
#define APP_JOB_NO_RT     0x4	/* the app ran with --no-rt */

/* One job, as the job log and the statistics see it. */
struct app_jobrec {
	int64_t  release_ns;	/* r_k */
	int64_t  start_ns;	/* s_k */
	int64_t  end_ns;	/* e_k */
	int64_t  cpu_ns;	/* CPU time of the job */
	uint32_t seq;		/* job sequence number */
	uint32_t missed;	/* missed activations just before this job */
	uint16_t cpu;		/* CPU the job ended on */
	uint16_t flags;		/* APP_JOB_* */
	uint32_t task_id;
};

#define APP_CACHELINE 64

struct app_ring {
	_Atomic uint32_t head __attribute__((aligned(APP_CACHELINE)));	/* next slot to write (producer) */
	uint32_t tail_seen;		/* producer's last view of tail */
	_Atomic uint64_t dropped;	/* records lost to a full ring (producer writes, anyone reads) */
	_Atomic uint32_t tail __attribute__((aligned(APP_CACHELINE)));	/* next slot to read (consumer) */
	uint32_t mask;			/* entries - 1 */
	_Atomic uint32_t high_water;	/* most records ever waiting, seen by the consumer */
	struct app_jobrec *rec;
};

/* app_ring_init - allocate and prefault a ring of 'entries' (a power of two); 0 or -errno */
int app_ring_init(struct app_ring *r, uint32_t entries);

/* app_ring_free - release a ring's memory */
void app_ring_free(struct app_ring *r);

/* app_ring_push - producer: copy a record in; false (and counted) when full */
static inline bool app_ring_push(struct app_ring *r, const struct app_jobrec *rec)
{
	uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	if (head - r->tail_seen > r->mask) {
		r->tail_seen = atomic_load_explicit(&r->tail, memory_order_acquire);
		if (head - r->tail_seen > r->mask) {
			atomic_store_explicit(&r->dropped, atomic_load_explicit(&r->dropped, memory_order_relaxed) + 1,
					      memory_order_relaxed);
			return false;
		}
	}
	r->rec[head & r->mask] = *rec;
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	return true;
}

/* app_ring_pop - consumer: copy the oldest record out; false when empty */
static inline bool app_ring_pop(struct app_ring *r, struct app_jobrec *rec)
{
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint32_t waiting = atomic_load_explicit(&r->head, memory_order_acquire) - tail;

	if (!waiting)
		return false;
	/* the consumer alone writes the mark, so the realtime push stays as cheap */
	if (waiting > atomic_load_explicit(&r->high_water, memory_order_relaxed))
		atomic_store_explicit(&r->high_water, waiting, memory_order_relaxed);
	*rec = r->rec[tail & r->mask];
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
	return true;
}

/* app_ring_high_water - most records that were ever waiting in the ring (any thread) */
static inline uint32_t app_ring_high_water(struct app_ring *r)
{
	return atomic_load_explicit(&r->high_water, memory_order_relaxed);
}

/* app_ring_dropped - records dropped so far (any thread) */
static inline uint64_t app_ring_dropped(struct app_ring *r)
{
	return atomic_load_explicit(&r->dropped, memory_order_relaxed);
}

#endif
