/*
 * hash.c - the hash functions and the general hash table (see hash.h).
 */
#include "levelkit/hash.h"

#include <stdlib.h>
#include <string.h>

#include "levelkit/strbuf.h"

uint64_t lk_hash_bytes(const void *key, size_t len)
{
	/* Word-at-a-time multiply-xorshift; keys are short (a few words) and
	 * fully random-looking bits are needed only for the index and tag. */
	const unsigned char *p = key;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (len * 0xff51afd7ed558ccdULL);
	while (len >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 29;
		p += 8;
		len -= 8;
	}
	if (len) {
		uint64_t w = 0;
		memcpy(&w, p, len);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 29;
	}
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 32;
	return h;
}

uint64_t lk_hash_text(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* ------------------------------------------------------- the keyed table */

static inline uint8_t tag_of(uint64_t hash)
{
	/* 1..255: zero marks an empty slot. */
	return (uint8_t)(1 + (hash >> 56) % 255);
}

void lk_keyed_init(struct lk_keyed *t)
{
	memset(t, 0, sizeof *t);
}

void lk_keyed_release(struct lk_keyed *t)
{
	free(t->slots);
	free(t->tags);
	free(t->keys);
	free(t->key_off);
	lk_keyed_init(t);
}

void lk_keyed_clear(struct lk_keyed *t)
{
	if (t->tags)
		memset(t->tags, 0, t->capacity);
	t->count = 0;
	t->keys_len = 0;
}

static bool same_key(const struct lk_keyed *t, uint32_t id, const void *key, size_t len)
{
	size_t n;
	const char *k = lk_keyed_key(t, id, &n);
	return n == len && memcmp(k, key, len) == 0;
}

uint32_t lk_keyed_find(const struct lk_keyed *t, const void *key, size_t len)
{
	if (!t->capacity)
		return UINT32_MAX;
	uint64_t h = lk_hash_bytes(key, len);
	uint8_t tag = tag_of(h);
	size_t mask = t->capacity - 1;
	for (size_t i = (size_t)h & mask; t->tags[i]; i = (i + 1) & mask)
		if (t->tags[i] == tag && same_key(t, t->slots[i], key, len))
			return t->slots[i];
	return UINT32_MAX;
}

static void grow(struct lk_keyed *t)
{
	size_t cap = t->capacity ? 2 * t->capacity : 64, mask = cap - 1;
	free(t->slots);
	free(t->tags);
	t->slots = lk_xmalloc(cap * sizeof *t->slots);
	t->tags = lk_xcalloc(cap, 1);
	t->capacity = cap;
	for (uint32_t id = 0; id < t->count; id++) {
		size_t len;
		const char *k = lk_keyed_key(t, id, &len);
		uint64_t h = lk_hash_bytes(k, len);
		size_t i = (size_t)h & mask;
		while (t->tags[i])
			i = (i + 1) & mask;
		t->tags[i] = tag_of(h);
		t->slots[i] = id;
	}
}

uint32_t lk_keyed_add(struct lk_keyed *t, const void *key, size_t len, bool *added)
{
	if (4 * ((size_t)t->count + 1) > 3 * t->capacity)
		grow(t);
	uint64_t h = lk_hash_bytes(key, len);
	uint8_t tag = tag_of(h);
	size_t mask = t->capacity - 1, i = (size_t)h & mask;
	for (; t->tags[i]; i = (i + 1) & mask) {
		if (t->tags[i] == tag && same_key(t, t->slots[i], key, len)) {
			if (added)
				*added = false;
			return t->slots[i];
		}
	}
	uint32_t id = t->count++;
	LK_ALLOC_GROW(t->key_off, (size_t)id + 2, t->off_alloc);
	LK_ALLOC_GROW(t->keys, t->keys_len + len + 1, t->keys_alloc);
	t->key_off[id] = t->keys_len;
	memcpy(t->keys + t->keys_len, key, len);
	t->keys_len += len;
	t->keys[t->keys_len++] = '\0';   /* a text key reads as a C string */
	t->key_off[id + 1] = t->keys_len;
	t->tags[i] = tag;
	t->slots[i] = id;
	if (added)
		*added = true;
	return id;
}
