/*
 * ps_rng.c - the reference's seeded generator (RC4; see ps_rng.h).
 */
#include "ps_rng.h"

#include <string.h>

#include "ps_unicode.h"

static uint8_t next_byte(struct ps_rng *r)
{
	r->i = (uint8_t)(r->i + 1);
	r->j = (uint8_t)(r->j + r->s[r->i]);
	uint8_t t = r->s[r->i];
	r->s[r->i] = r->s[r->j];
	r->s[r->j] = t;
	return r->s[(uint8_t)(r->s[r->i] + r->s[r->j])];
}

void ps_rng_seed(struct ps_rng *r, const char *seed)
{
	uint8_t input[1024];
	size_t n = 0, len = strlen(seed);
	for (size_t at = 0; at < len && n + 4 <= sizeof input;) {
		size_t used;
		uint32_t cp = ps_utf8_decode((const unsigned char *)seed + at, len - at, &used);
		at += used;
		uint32_t units[2];
		int nu = 1;
		if (cp >= 0x10000) {
			units[0] = 0xd800 + ((cp - 0x10000) >> 10);
			units[1] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
			nu = 2;
		} else {
			units[0] = cp;
		}
		for (int u = 0; u < nu; u++) {
			if (units[u] > 0xff)
				input[n++] = (uint8_t)(units[u] >> 8);
			input[n++] = (uint8_t)units[u];
		}
	}
	for (int k = 0; k < 256; k++)
		r->s[k] = (uint8_t)k;
	r->i = r->j = 0;
	if (n == 0)
		return;
	unsigned j = 0;
	for (unsigned k = 0; k < 256; k++) {
		j = (j + r->s[k] + input[k % n]) % 256;
		uint8_t t = r->s[k];
		r->s[k] = r->s[j];
		r->s[j] = t;
	}
}

double ps_rng_uniform(struct ps_rng *r)
{
	double out = 0;
	for (int k = 0; k < 7; k++) {
		out *= 256;
		out += next_byte(r);
	}
	return out / 72057594037927935.0;   /* 2^56 - 1 */
}

int ps_rng_below(struct ps_rng *r, int n)
{
	return (int)(ps_rng_uniform(r) * n);   /* floor(): never negative */
}
