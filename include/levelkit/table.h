/*
 * table.h - the hashed table of unique states.
 *
 * Every search stores each distinct state it meets exactly once here.  The
 * design follows klib's khash and stb_ds: open addressing with linear
 * probing, power-of-two capacity, growth at 3/4 load, and a one-byte hash
 * tag per slot so that most probes never touch a key.
 *
 * Entries (the fixed-size packed key, stored inline, plus the entry's
 * parent and cost so far) live in a dense array of chunks numbered in
 * insertion order; the probe index holds 32-bit entry numbers.  Keeping the
 * entries dense rather than in the slots means empty slots cost 5 bytes,
 * not a whole key, and gives stable entry numbers: parents are numbers, a
 * solution is rebuilt by following them, and breadth-first search needs
 * no separate queue (the entry order is the queue).
 *
 * The table accounts every byte it allocates and refuses to grow past its
 * budget, so a search reports "unknown" instead of meeting the OOM killer.
 */
#ifndef LEVELKIT_TABLE_H
#define LEVELKIT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "levelkit/hash.h"   /* lk_hash_bytes */

#define LK_NO_ENTRY UINT32_MAX
/* Entries per chunk; a power of two so id -> chunk is a shift. */
#define LK_TABLE_CHUNK_BITS 14

struct lk_table {
	size_t key_size;     /* bytes per key */
	size_t stride;       /* bytes per entry: key, parent, cost */
	uint32_t count;      /* entries stored */
	/* probe index */
	uint32_t *slots;     /* entry numbers */
	uint8_t *tags;       /* 0 = empty, else 1..255 from the hash */
	size_t capacity;     /* power of two, or 0 */
	/* entries */
	unsigned char **chunks;
	size_t nchunks, chunks_alloc;
	/* memory accounting */
	size_t bytes;        /* currently allocated */
	size_t peak_bytes;   /* most ever allocated at once (growth overlaps) */
	size_t max_bytes;    /* budget, 0 = unlimited */
};

#define LK_TABLE_INIT { 0, 0, 0, NULL, NULL, 0, NULL, 0, 0, 0, 0, 0 }

/* Prepare an empty table for keys of key_size bytes within max_bytes
 * (0 = no budget).  A table may be re-initialised with lk_table_reset to
 * reuse its memory for another search. */
void lk_table_init(struct lk_table *t, size_t key_size, size_t max_bytes);
void lk_table_reset(struct lk_table *t, size_t key_size, size_t max_bytes);
void lk_table_release(struct lk_table *t);

enum lk_intern {
	LK_INTERN_FULL = -1,   /* the budget forbids storing another state */
	LK_INTERN_FOUND = 0,   /* key already present */
	LK_INTERN_ADDED = 1    /* key stored as a new entry */
};

/* Find key (whose hash must be lk_hash_bytes(key, key_size): growth
 * recomputes hashes that way) or add it with the given parent and cost.
 * *id receives the entry number (unless FULL). */
enum lk_intern lk_table_intern(struct lk_table *t, const void *key, uint64_t hash,
			       uint32_t parent, uint32_t cost, uint32_t *id);
/* Entry number of key, or LK_NO_ENTRY. */
uint32_t lk_table_find(const struct lk_table *t, const void *key, uint64_t hash);

static inline unsigned char *lk_table_entry(const struct lk_table *t, uint32_t id)
{
	return t->chunks[id >> LK_TABLE_CHUNK_BITS] +
	       (size_t)(id & ((1u << LK_TABLE_CHUNK_BITS) - 1)) * t->stride;
}
static inline const void *lk_table_key(const struct lk_table *t, uint32_t id)
{
	return lk_table_entry(t, id);
}
static inline uint32_t lk_table_parent(const struct lk_table *t, uint32_t id)
{
	uint32_t v;
	memcpy(&v, lk_table_entry(t, id) + t->key_size, sizeof v);
	return v;
}
static inline uint32_t lk_table_cost(const struct lk_table *t, uint32_t id)
{
	uint32_t v;
	memcpy(&v, lk_table_entry(t, id) + t->key_size + 4, sizeof v);
	return v;
}
static inline void lk_table_set_link(struct lk_table *t, uint32_t id, uint32_t parent,
				     uint32_t cost)
{
	unsigned char *e = lk_table_entry(t, id) + t->key_size;
	memcpy(e, &parent, sizeof parent);
	memcpy(e + 4, &cost, sizeof cost);
}

/* A hint: start fetching the probe index where a key of this hash is
 * looked up, so that a search looking several keys up in a row overlaps
 * their cache misses.  Changes nothing. */
static inline void lk_table_prefetch(const struct lk_table *t, uint64_t hash)
{
#if defined(__GNUC__)
	if (t->capacity) {
		size_t i = (size_t)hash & (t->capacity - 1);
		__builtin_prefetch(t->tags + i);
		__builtin_prefetch(t->slots + i);
	}
#else
	(void)t;
	(void)hash;
#endif
}

/* Bytes of table memory per stored state beyond the key itself. */
double lk_table_overhead_per_state(const struct lk_table *t);

#endif
