/*
 * fsw_shared.h - how the flight software's tasks share data without ever
 * blocking the realtime path:
 *
 *   fsw_seqlock     one writer, many readers; a reader copies the value and
 *                   retries (a bounded number of times) if the writer was in
 *                   the middle of an update. Used for every "latest value"
 *                   mailbox (GPS fix, slow sensors, navigation state, EKF
 *                   correction, guidance, mission, actuators).
 *   fsw_spsc        single-producer single-consumer ring of fixed-size
 *                   records (IMU samples from io to ctl100).
 *
 * Every mailbox carries a count (how many times it was written) and the
 * writer's time, so a reader always knows the age of what it read.
 */
#ifndef FSW_SHARED_H
#define FSW_SHARED_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct fsw_seqlock {
	_Atomic uint32_t seq;
};

/* fsw_seq_write - publish n bytes at dst (single writer) */
static inline void fsw_seq_write(struct fsw_seqlock *l, void *dst, const void *src, size_t n)
{
	uint32_t s = atomic_load_explicit(&l->seq, memory_order_relaxed);

	atomic_store_explicit(&l->seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	memcpy(dst, src, n);
	atomic_store_explicit(&l->seq, s + 2, memory_order_release);
}

/* fsw_seq_read - copy a consistent value; false if the writer kept interfering (dst then unchanged-ish: do not use) */
static inline bool fsw_seq_read(struct fsw_seqlock *l, void *dst, const void *src, size_t n)
{
	int tries;

	for (tries = 0; tries < 16; tries++) {
		uint32_t s1 = atomic_load_explicit(&l->seq, memory_order_acquire), s2;

		if (s1 & 1)
			continue;
		memcpy(dst, src, n);
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&l->seq, memory_order_relaxed);
		if (s1 == s2)
			return true;
	}
	return false;
}

/* A mailbox of one value of 'type'. */
#define FSW_MAILBOX(type) struct { struct fsw_seqlock lock; type val; }
#define fsw_mb_put(mb, v) fsw_seq_write(&(mb)->lock, &(mb)->val, (v), sizeof((mb)->val))
#define fsw_mb_get(mb, v) fsw_seq_read(&(mb)->lock, (v), &(mb)->val, sizeof((mb)->val))

/* A single-producer single-consumer ring of 'size' (power of two) records of 'type'. */
#define FSW_SPSC(type, size) struct { _Atomic uint32_t head, tail; uint32_t dropped; type rec[size]; }
#define FSW_SPSC_SIZE(r) (sizeof((r)->rec) / sizeof((r)->rec[0]))

/* fsw_spsc_push - producer side; false (and counted) when full */
#define fsw_spsc_push(r, v) ({							\
	uint32_t h_ = atomic_load_explicit(&(r)->head, memory_order_relaxed);	\
	uint32_t t_ = atomic_load_explicit(&(r)->tail, memory_order_acquire);	\
	bool ok_ = h_ - t_ < FSW_SPSC_SIZE(r);					\
	if (ok_) {								\
		(r)->rec[h_ & (FSW_SPSC_SIZE(r) - 1)] = *(v);			\
		atomic_store_explicit(&(r)->head, h_ + 1, memory_order_release); \
	} else {								\
		(r)->dropped++;							\
	}									\
	ok_; })

/* fsw_spsc_pop - consumer side; false when empty */
#define fsw_spsc_pop(r, v) ({							\
	uint32_t t_ = atomic_load_explicit(&(r)->tail, memory_order_relaxed);	\
	uint32_t h_ = atomic_load_explicit(&(r)->head, memory_order_acquire);	\
	bool ok_ = h_ != t_;							\
	if (ok_) {								\
		*(v) = (r)->rec[t_ & (FSW_SPSC_SIZE(r) - 1)];			\
		atomic_store_explicit(&(r)->tail, t_ + 1, memory_order_release); \
	}									\
	ok_; })

#endif
