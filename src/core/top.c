/*
 * top.c - the k best records by a key (top.h): a bounded heap, worst at
 * the root, sorted best first at the end by taking the worst out in turn.
 */
#include "levelkit/top.h"

#include <stdlib.h>
#include <string.h>

#include "levelkit/strbuf.h"

/* Does a come before b in the output (a is "better")? */
static bool better(const struct lk_top *t, const struct lk_top_item *a,
		   const struct lk_top_item *b)
{
	if (a->key != b->key)
		return t->ascending ? a->key < b->key : a->key > b->key;
	return a->seq < b->seq;
}

static void swap_items(struct lk_top_item *a, struct lk_top_item *b)
{
	struct lk_top_item x = *a;
	*a = *b;
	*b = x;
}

/* Restore the heap below i among the first n items. */
static void sift_down(struct lk_top *t, size_t i, size_t n)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, worst = i;
		if (l < n && better(t, &t->items[worst], &t->items[l]))
			worst = l;
		if (r < n && better(t, &t->items[worst], &t->items[r]))
			worst = r;
		if (worst == i)
			return;
		swap_items(&t->items[i], &t->items[worst]);
		i = worst;
	}
}

void lk_top_init(struct lk_top *t, size_t limit, bool ascending)
{
	memset(t, 0, sizeof *t);
	t->limit = limit;
	t->ascending = ascending;
}

void lk_top_offer(struct lk_top *t, double key, size_t seq, struct lk_record *rec)
{
	struct lk_top_item item = { .key = key, .seq = seq };
	if (t->n < t->limit) {
		LK_ALLOC_GROW(t->items, t->n + 1, t->alloc);
		item.rec = *rec;
		lk_record_init(rec);
		size_t i = t->n++;
		t->items[i] = item;
		while (i > 0 && better(t, &t->items[(i - 1) / 2], &t->items[i])) {
			swap_items(&t->items[(i - 1) / 2], &t->items[i]);
			i = (i - 1) / 2;
		}
		return;
	}
	if (t->n == 0 || !better(t, &item, &t->items[0]))
		return;
	lk_record_release(&t->items[0].rec);
	item.rec = *rec;
	lk_record_init(rec);
	t->items[0] = item;
	sift_down(t, 0, t->n);
}

void lk_top_sort(struct lk_top *t)
{
	/* the worst goes last, then the worst of the rest before it, ... */
	for (size_t n = t->n; n > 1; n--) {
		swap_items(&t->items[0], &t->items[n - 1]);
		sift_down(t, 0, n - 1);
	}
}

void lk_top_release(struct lk_top *t)
{
	for (size_t i = 0; i < t->n; i++)
		lk_record_release(&t->items[i].rec);
	free(t->items);
	memset(t, 0, sizeof *t);
}
