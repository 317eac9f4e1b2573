/*
 * hash.h - the library's hashing, in one place: two hash functions (one
 * fast, for tables; one stable, for fingerprints written into records) and
 * the general hash table, which numbers distinct byte strings densely in
 * the order they first come (a film's primitives, a script's names).  The
 * state table of the searches (table.h) is its specialised sibling: fixed
 * keys with a parent and a cost, a memory budget, entries in chunks.
 *
 * Both tables follow khash and stb_ds: open addressing with linear
 * probing, a power-of-two number of slots, growth at 3/4 load, and a
 * one-byte tag per slot so that most probes never compare a key.
 */
#ifndef LEVELKIT_HASH_H
#define LEVELKIT_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A 64-bit hash of a key (any length), fast on keys of a few words; its
 * values may change between versions (never write them out). */
uint64_t lk_hash_bytes(const void *key, size_t len);

/* 64-bit FNV-1a of a text: a fingerprint that records and files keep
 * (gen's settings line, a PuzzleScript script's script-hash), so it must
 * never change. */
uint64_t lk_hash_text(const void *data, size_t len);

/* Distinct byte strings numbered 0, 1, 2, ... in the order they were
 * added; the keys are copied into the table. */
struct lk_keyed {
	uint32_t *slots;     /* entry numbers */
	uint8_t *tags;       /* 0 = empty, else 1..255 from the hash */
	size_t capacity;     /* power of two, or 0 */
	uint32_t count;      /* entries */
	char *keys;          /* the keys back to back */
	size_t keys_len, keys_alloc;
	size_t *key_off;     /* per entry: offset into keys (each key is followed
			      * by a NUL); count + 1 of them */
	size_t off_alloc;
};

void lk_keyed_init(struct lk_keyed *t);
void lk_keyed_release(struct lk_keyed *t);
/* Empty the table, keeping its memory for the next use. */
void lk_keyed_clear(struct lk_keyed *t);
/* The number of key (len bytes), adding it when it is new (*added says
 * so; added may be NULL). */
uint32_t lk_keyed_add(struct lk_keyed *t, const void *key, size_t len, bool *added);
/* The number of key, or UINT32_MAX when it is not in the table. */
uint32_t lk_keyed_find(const struct lk_keyed *t, const void *key, size_t len);
/* Entry id's key (followed by a NUL, so a text key is a C string) and its
 * length. */
static inline const char *lk_keyed_key(const struct lk_keyed *t, uint32_t id, size_t *len)
{
	if (len)
		*len = t->key_off[id + 1] - t->key_off[id] - 1;
	return t->keys + t->key_off[id];
}

#endif
