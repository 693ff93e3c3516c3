/*
 * i128.h - a signed 128-bit integer that every target has: the exact sum of a
 * histogram's samples (lib/hist.h). GCC's __int128 exists on 64-bit targets
 * only; 32-bit ARM (armhf) has none, so the value is two 64-bit halves, and
 * the same code runs on every build: value = hi * 2^64 + lo.
 */
#ifndef PF_I128_H
#define PF_I128_H

#include <stdbool.h>
#include <stdint.h>

struct pf_i128 {
	int64_t  hi;	/* high half, two's complement: -1 for a small negative value */
	uint64_t lo;	/* low half */
};

/* pf_i128_from - an int64 widened */
static inline struct pf_i128 pf_i128_from(int64_t v)
{
	return (struct pf_i128){ .hi = v < 0 ? -1 : 0, .lo = (uint64_t)v };
}

/* pf_i128_add - a + b (wraps modulo 2^128, as the sum of 2^64 int64 values never does) */
static inline struct pf_i128 pf_i128_add(struct pf_i128 a, struct pf_i128 b)
{
	uint64_t lo = a.lo + b.lo;

	return (struct pf_i128){ .hi = (int64_t)((uint64_t)a.hi + (uint64_t)b.hi + (lo < a.lo)), .lo = lo };
}

/* pf_i128_neg - -a */
static inline struct pf_i128 pf_i128_neg(struct pf_i128 a)
{
	return (struct pf_i128){ .hi = (int64_t)(~(uint64_t)a.hi + (a.lo == 0)), .lo = ~a.lo + 1 };
}

/* pf_i128_mul - the exact product v * n (32-bit halves: no wider type needed) */
static inline struct pf_i128 pf_i128_mul(int64_t v, uint64_t n)
{
	uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;
	uint64_t m0 = (uint32_t)m, m1 = m >> 32, n0 = (uint32_t)n, n1 = n >> 32;
	uint64_t p00 = m0 * n0, p01 = m0 * n1, p10 = m1 * n0, p11 = m1 * n1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	struct pf_i128 r = {
		.hi = (int64_t)(p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32)),
		.lo = (mid << 32) | (uint32_t)p00,
	};

	return v < 0 ? pf_i128_neg(r) : r;
}

/* pf_i128_lt - a < b */
static inline bool pf_i128_lt(struct pf_i128 a, struct pf_i128 b)
{
	return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

/* pf_i128_is_i64 - whether a fits an int64 */
static inline bool pf_i128_is_i64(struct pf_i128 a)
{
	return a.hi == ((int64_t)a.lo < 0 ? -1 : 0);
}

/* pf_i128_ld - a as a long double: the magnitude converted, so a small negative value stays exact */
static inline long double pf_i128_ld(struct pf_i128 a)
{
	struct pf_i128 m = a.hi < 0 ? pf_i128_neg(a) : a;
	long double ld = (long double)(uint64_t)m.hi * 18446744073709551616.0L + (long double)m.lo;

	return a.hi < 0 ? -ld : ld;
}

#endif
