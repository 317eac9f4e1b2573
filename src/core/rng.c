/*
 * rng.c - xoshiro256** with splitmix64 seeding (public-domain algorithms
 * by Blackman and Vigna, written here from their description).
 */
#include "levelkit/rng.h"

uint64_t lk_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

void lk_rng_seed(struct lk_rng *rng, uint64_t seed)
{
	uint64_t z = seed;
	for (int i = 0; i < 4; i++) {
		z += 0x9e3779b97f4a7c15ULL;
		rng->s[i] = lk_mix64(z);
	}
}

void lk_rng_seed2(struct lk_rng *rng, uint64_t seed, uint64_t index)
{
	lk_rng_seed(rng, lk_mix64(seed ^ 0x6a09e667f3bcc909ULL) ^ lk_mix64(index + 0x3c6ef372fe94f82bULL));
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t lk_rng_next(struct lk_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint32_t lk_rng_below(struct lk_rng *rng, uint32_t bound)
{
	/* Lemire's multiply-shift with rejection: unbiased and division-free
	 * in the common case. */
	uint64_t m = (lk_rng_next(rng) >> 32) * (uint64_t)bound;
	uint32_t low = (uint32_t)m;
	if (low < bound) {
		uint32_t threshold = (uint32_t)(-bound) % bound;
		while (low < threshold) {
			m = (lk_rng_next(rng) >> 32) * (uint64_t)bound;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

double lk_rng_double(struct lk_rng *rng)
{
	return (double)(lk_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}
