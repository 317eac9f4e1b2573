/*
 * open_list.h - the priority queue of best-first searches: a bucket queue.
 *
 * Priorities (g, f = g + h, or h) are small integers, so an array of
 * buckets indexed by priority beats a binary heap: push and pop are O(1)
 * and an item is 8 bytes.  Each bucket is a stack, so among equal
 * priorities the most recently pushed state comes out first; for A* that
 * prefers deeper states, the usual good tie-break.
 */
#ifndef LEVELKIT_OPEN_LIST_H
#define LEVELKIT_OPEN_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lk_open_item {
	uint32_t id;   /* table entry */
	uint32_t g;    /* cost when pushed; stale if the entry's cost is lower */
};

struct lk_open_bucket {
	struct lk_open_item *items;
	size_t n, alloc;
};

struct lk_open_list {
	struct lk_open_bucket *buckets;
	size_t nbuckets;
	size_t min;        /* no non-empty bucket below this */
	size_t count;
	size_t bytes;      /* memory held by item arrays */
};

void lk_open_init(struct lk_open_list *q);
/* Empty the list but keep its memory. */
void lk_open_clear(struct lk_open_list *q);
void lk_open_release(struct lk_open_list *q);
/* Returns -1 if memory ran out. */
int lk_open_push(struct lk_open_list *q, size_t priority, uint32_t id, uint32_t g);
/* Pop an item of least priority; false if empty. */
bool lk_open_pop(struct lk_open_list *q, struct lk_open_item *item, size_t *priority);

#endif
