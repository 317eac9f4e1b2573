/*
 * open_list.c - bucket queue for best-first search (see open_list.h).
 */
#include "open_list.h"

#include <stdlib.h>
#include <string.h>

void lk_open_init(struct lk_open_list *q)
{
	memset(q, 0, sizeof *q);
}

void lk_open_clear(struct lk_open_list *q)
{
	for (size_t i = 0; i < q->nbuckets; i++)
		q->buckets[i].n = 0;
	q->min = 0;
	q->count = 0;
}

void lk_open_release(struct lk_open_list *q)
{
	for (size_t i = 0; i < q->nbuckets; i++)
		free(q->buckets[i].items);
	free(q->buckets);
	lk_open_init(q);
}

int lk_open_push(struct lk_open_list *q, size_t priority, uint32_t id, uint32_t g)
{
	if (priority >= q->nbuckets) {
		size_t n = q->nbuckets ? q->nbuckets : 64;
		while (n <= priority)
			n *= 2;
		struct lk_open_bucket *b = realloc(q->buckets, n * sizeof *b);
		if (!b)
			return -1;
		memset(b + q->nbuckets, 0, (n - q->nbuckets) * sizeof *b);
		q->bytes += (n - q->nbuckets) * sizeof *b;
		q->buckets = b;
		q->nbuckets = n;
	}
	struct lk_open_bucket *b = &q->buckets[priority];
	if (b->n == b->alloc) {
		size_t n = b->alloc ? b->alloc * 2 : 64;
		struct lk_open_item *items = realloc(b->items, n * sizeof *items);
		if (!items)
			return -1;
		q->bytes += (n - b->alloc) * sizeof *items;
		b->items = items;
		b->alloc = n;
	}
	b->items[b->n].id = id;
	b->items[b->n].g = g;
	b->n++;
	q->count++;
	if (priority < q->min)
		q->min = priority;
	return 0;
}

bool lk_open_pop(struct lk_open_list *q, struct lk_open_item *item, size_t *priority)
{
	if (!q->count)
		return false;
	while (q->buckets[q->min].n == 0)
		q->min++;
	struct lk_open_bucket *b = &q->buckets[q->min];
	*item = b->items[--b->n];
	*priority = q->min;
	q->count--;
	return true;
}
