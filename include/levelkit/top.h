/*
 * top.h - the k best records by a numeric key (filter --top K --by FIELD):
 * a bounded heap whose root is the worst record kept, so that a new record
 * either loses to the root or replaces it, and a stream of any length is
 * ranked in O(k) memory.  Ties go to the earlier record (its sequence
 * number), so the result does not depend on how the records arrived.
 */
#ifndef LEVELKIT_TOP_H
#define LEVELKIT_TOP_H

#include <stdbool.h>
#include <stddef.h>

#include "levelkit/record.h"

struct lk_top_item {
	double key;
	size_t seq;              /* input order, for ties */
	struct lk_record rec;
};

struct lk_top {
	struct lk_top_item *items;
	size_t n, alloc, limit;
	bool ascending;          /* keep the smallest keys instead */
};

void lk_top_init(struct lk_top *t, size_t limit, bool ascending);
/* Offer a record (moved into t if kept; rec is left initialised). */
void lk_top_offer(struct lk_top *t, double key, size_t seq, struct lk_record *rec);
/* Sort the items kept, best first (the heap is used up: offer no more). */
void lk_top_sort(struct lk_top *t);
void lk_top_release(struct lk_top *t);

#endif
