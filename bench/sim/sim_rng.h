/*
 * sim_rng.h - the seeded random numbers of the simulator and the tests:
 * xoshiro256** (Blackman & Vigna) seeded through splitmix64, with normal
 * deviates by the Box-Muller transform. One generator per noise source, so
 * turning one source on or off does not change the others' sequences.
 */
#ifndef SIM_RNG_H
#define SIM_RNG_H

#include <stdint.h>

struct sim_rng {
	uint64_t s[4];
	double   spare;
	int      has_spare;
};

void sim_rng_seed(struct sim_rng *r, uint64_t seed);
uint64_t sim_rng_u64(struct sim_rng *r);
/* sim_rng_uniform - in [0, 1) */
double sim_rng_uniform(struct sim_rng *r);
/* sim_rng_gauss - standard normal */
double sim_rng_gauss(struct sim_rng *r);

#endif
