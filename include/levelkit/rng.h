/*
 * rng.h - a small deterministic pseudo-random generator (xoshiro256**
 * seeded through splitmix64).
 *
 * Every random choice in levelkit goes through one of these so that a
 * --seed reproduces a run exactly on every platform; the C library's
 * rand() is neither portable in its sequence nor thread-safe.
 */
#ifndef LEVELKIT_RNG_H
#define LEVELKIT_RNG_H

#include <stdint.h>

struct lk_rng {
	uint64_t s[4];
};

void lk_rng_seed(struct lk_rng *rng, uint64_t seed);
/* Derive an independent stream from (seed, index), e.g. level i of a run. */
void lk_rng_seed2(struct lk_rng *rng, uint64_t seed, uint64_t index);
uint64_t lk_rng_next(struct lk_rng *rng);
/* Uniform integer in [0, bound); bound must be > 0. */
uint32_t lk_rng_below(struct lk_rng *rng, uint32_t bound);
/* Uniform double in [0, 1). */
double lk_rng_double(struct lk_rng *rng);
/* The splitmix64 finaliser, also a good 64-bit integer hash. */
uint64_t lk_mix64(uint64_t x);

#endif
