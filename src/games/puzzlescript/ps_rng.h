/*
 * ps_rng.h - the reference engine's random numbers: RC4 keyed by the
 * bytes of a seed string, read seven bytes at a time as a fraction.
 *
 * Random rules must draw exactly the numbers the reference draws, in the
 * same order, for a seeded test to replay; so this is that generator,
 * double-precision rounding included.
 */
#ifndef LEVELKIT_PS_RNG_H
#define LEVELKIT_PS_RNG_H

#include <stdint.h>

struct ps_rng {
	uint8_t s[256];
	uint8_t i, j;
};

/* Seed from a string (its UTF-8 is read as the reference reads a
 * JavaScript string: each UTF-16 unit's bytes, high byte first). */
void ps_rng_seed(struct ps_rng *r, const char *seed);
/* Uniform in [0, 1]. */
double ps_rng_uniform(struct ps_rng *r);
/* floor(uniform * n), as the engine uses it. */
int ps_rng_below(struct ps_rng *r, int n);

#endif
