/*
 * sim_rng.c - xoshiro256** with splitmix64 seeding and Box-Muller normals.
 * Deterministic for a given seed on every platform (integer arithmetic,
 * then libm's log / sqrt / cos).
 */
#include "sim_rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void sim_rng_seed(struct sim_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
	r->has_spare = 0;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t sim_rng_u64(struct sim_rng *r)
{
	uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

double sim_rng_uniform(struct sim_rng *r)
{
	return (sim_rng_u64(r) >> 11) * 0x1.0p-53;
}

double sim_rng_gauss(struct sim_rng *r)
{
	double u, v;

	if (r->has_spare) {
		r->has_spare = 0;
		return r->spare;
	}
	do
		u = sim_rng_uniform(r);
	while (u <= 0);
	v = sim_rng_uniform(r);
	r->spare = sqrt(-2 * log(u)) * sin(2 * M_PI * v);
	r->has_spare = 1;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}
