/*
 * bits.h - bit counting for bitsets, with the compiler's instructions
 * where it has them and plain C elsewhere.
 */
#ifndef LEVELKIT_BITS_H
#define LEVELKIT_BITS_H

#include <stdint.h>

/* Number of set bits. */
static inline int lk_popcount64(uint64_t v)
{
#if defined(__GNUC__)
	return __builtin_popcountll(v);
#else
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
#endif
}

/* Index of the lowest set bit of a non-zero value. */
static inline int lk_lowest_bit64(uint64_t v)
{
#if defined(__GNUC__)
	return __builtin_ctzll(v);
#else
	int i = 0;
	while (!(v & 1u)) {
		v >>= 1;
		i++;
	}
	return i;
#endif
}

#endif
