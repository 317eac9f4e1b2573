/*
 * table.c - open-addressing hash table of packed states (see table.h for
 * the layout and why entries are kept apart from the probe index).
 */
#include "levelkit/table.h"

#include <stdlib.h>

#include "levelkit/strbuf.h"

#define CHUNK_ENTRIES ((size_t)1 << LK_TABLE_CHUNK_BITS)
#define MIN_CAPACITY 1024

void lk_table_init(struct lk_table *t, size_t key_size, size_t max_bytes)
{
	memset(t, 0, sizeof *t);
	t->key_size = key_size;
	t->stride = key_size + 2 * sizeof(uint32_t);
	t->max_bytes = max_bytes;
}

static void free_storage(struct lk_table *t)
{
	for (size_t i = 0; i < t->nchunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->slots);
	free(t->tags);
}

void lk_table_release(struct lk_table *t)
{
	free_storage(t);
	lk_table_init(t, 0, 0);
}

/* What a reset table keeps for the next search: enough for the many small
 * searches of a generator to allocate nothing, little enough that a big
 * search does not leave its memory to every later one. */
#define KEEP_CHUNKS 4
#define KEEP_CAPACITY ((size_t)1 << 16)

void lk_table_reset(struct lk_table *t, size_t key_size, size_t max_bytes)
{
	size_t stride = key_size + 2 * sizeof(uint32_t);
	/* Chunks are sized by the stride, so they go when it changes. */
	size_t keep = stride == t->stride ? KEEP_CHUNKS : 0;
	while (t->nchunks > keep) {
		free(t->chunks[--t->nchunks]);
		t->bytes -= CHUNK_ENTRIES * t->stride;
	}
	if (t->capacity > KEEP_CAPACITY) {
		t->bytes -= t->capacity * (sizeof(uint32_t) + 1);
		free(t->slots);
		free(t->tags);
		t->slots = NULL;
		t->tags = NULL;
		t->capacity = 0;
	}
	t->key_size = key_size;
	t->stride = stride;
	t->count = 0;
	t->max_bytes = max_bytes;
	if (max_bytes && t->bytes > max_bytes) {
		free_storage(t);
		lk_table_init(t, key_size, max_bytes);
		return;
	}
	if (t->capacity)
		memset(t->tags, 0, t->capacity);
	t->peak_bytes = t->bytes;
}

static inline uint8_t tag_of(uint64_t hash)
{
	/* 1..255: zero marks an empty slot. */
	return (uint8_t)(1 + (hash >> 56) % 255);
}

/* Keys are a few words long: comparing them inline, a word at a time,
 * beats a call to memcmp in the probe loop. */
static inline bool keys_equal(const unsigned char *a, const unsigned char *b, size_t n)
{
	for (; n >= 8; a += 8, b += 8, n -= 8) {
		uint64_t x, y;
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return false;
	}
	for (; n; a++, b++, n--)
		if (*a != *b)
			return false;
	return true;
}

static bool over_budget(const struct lk_table *t, size_t extra)
{
	return t->max_bytes && t->bytes + extra > t->max_bytes;
}

static void note_bytes(struct lk_table *t, size_t extra_now, size_t freed_after)
{
	t->bytes += extra_now;
	if (t->bytes > t->peak_bytes)
		t->peak_bytes = t->bytes;
	t->bytes -= freed_after;
}

static void place(uint32_t *slots, uint8_t *tags, size_t mask, uint64_t hash, uint32_t id)
{
	size_t i = (size_t)hash & mask;
	while (tags[i])
		i = (i + 1) & mask;
	tags[i] = tag_of(hash);
	slots[i] = id;
}

/* Keys rehashed together when the index grows. */
#define REHASH_BLOCK 16u

static int grow_index(struct lk_table *t)
{
	size_t cap = t->capacity ? t->capacity * 2 : MIN_CAPACITY;
	size_t need = cap * (sizeof(uint32_t) + 1);
	if (over_budget(t, need))
		return -1;
	uint32_t *slots = malloc(cap * sizeof *slots);
	uint8_t *tags = calloc(cap, 1);
	if (!slots || !tags) {
		free(slots);
		free(tags);
		return -1;
	}
	size_t mask = cap - 1;
	/* In blocks: the hashes of a block first (keys read in order), the
	 * new index's lines they land on fetched, then placed in id order (the
	 * same index as one at a time): the random writes' cache misses
	 * overlap instead of coming one after another (a quarter of the
	 * table's time on the big Sasquatch levels). */
	uint64_t h[REHASH_BLOCK];
	for (uint32_t id0 = 0; id0 < t->count; id0 += REHASH_BLOCK) {
		uint32_t k = t->count - id0 < REHASH_BLOCK ? t->count - id0 : REHASH_BLOCK;
		for (uint32_t i = 0; i < k; i++) {
			h[i] = lk_hash_bytes(lk_table_key(t, id0 + i), t->key_size);
#if defined(__GNUC__)
			__builtin_prefetch(tags + (h[i] & mask), 1);
			__builtin_prefetch(slots + (h[i] & mask), 1);
#endif
		}
		for (uint32_t i = 0; i < k; i++)
			place(slots, tags, mask, h[i], id0 + i);
	}
	note_bytes(t, need, t->capacity * (sizeof(uint32_t) + 1));
	free(t->slots);
	free(t->tags);
	t->slots = slots;
	t->tags = tags;
	t->capacity = cap;
	return 0;
}

static int add_chunk(struct lk_table *t)
{
	size_t need = CHUNK_ENTRIES * t->stride;
	size_t ptr_growth = t->nchunks + 1 > t->chunks_alloc ? sizeof(void *) * 16 : 0;
	if (over_budget(t, need + ptr_growth))
		return -1;
	if (ptr_growth) {
		size_t n = t->chunks_alloc * 2 + 16;
		unsigned char **c = realloc(t->chunks, n * sizeof *c);
		if (!c)
			return -1;
		t->chunks = c;
		note_bytes(t, (n - t->chunks_alloc) * sizeof *c, 0);
		t->chunks_alloc = n;
	}
	unsigned char *chunk = malloc(need);
	if (!chunk)
		return -1;
	t->chunks[t->nchunks++] = chunk;
	note_bytes(t, need, 0);
	return 0;
}

uint32_t lk_table_find(const struct lk_table *t, const void *key, uint64_t hash)
{
	if (!t->capacity)
		return LK_NO_ENTRY;
	size_t mask = t->capacity - 1;
	uint8_t tag = tag_of(hash);
	for (size_t i = (size_t)hash & mask; t->tags[i]; i = (i + 1) & mask) {
		if (t->tags[i] == tag &&
		    keys_equal(lk_table_key(t, t->slots[i]), key, t->key_size))
			return t->slots[i];
	}
	return LK_NO_ENTRY;
}

enum lk_intern lk_table_intern(struct lk_table *t, const void *key, uint64_t hash,
			       uint32_t parent, uint32_t cost, uint32_t *id)
{
	if (t->capacity) {
		size_t mask = t->capacity - 1;
		uint8_t tag = tag_of(hash);
		size_t i = (size_t)hash & mask;
		for (; t->tags[i]; i = (i + 1) & mask) {
			if (t->tags[i] == tag &&
			    keys_equal(lk_table_key(t, t->slots[i]), key, t->key_size)) {
				*id = t->slots[i];
				return LK_INTERN_FOUND;
			}
		}
	}
	if (t->count == LK_NO_ENTRY - 1)
		return LK_INTERN_FULL;
	/* Grow at 3/4 load. */
	if ((size_t)(t->count + 1) * 4 > t->capacity * 3 && grow_index(t) < 0)
		return LK_INTERN_FULL;
	if (((size_t)t->count >> LK_TABLE_CHUNK_BITS) >= t->nchunks && add_chunk(t) < 0)
		return LK_INTERN_FULL;
	uint32_t n = t->count++;
	unsigned char *e = lk_table_entry(t, n);
	memcpy(e, key, t->key_size);
	lk_table_set_link(t, n, parent, cost);
	place(t->slots, t->tags, t->capacity - 1, hash, n);
	*id = n;
	return LK_INTERN_ADDED;
}

double lk_table_overhead_per_state(const struct lk_table *t)
{
	if (!t->count)
		return 0.0;
	double key_bytes = (double)t->count * (double)t->key_size;
	return ((double)t->bytes - key_bytes) / (double)t->count;
}
