/*
 * sokoban_cells.c - the cells of feature space of the search for any
 * solution (sokoban_any.c): one priority queue per cell, found by the
 * cell's code in a small open-addressing index.
 *
 * A queue holds 64-bit items, least first (the search packs a weight and an
 * expansion number into them); a heap, since a cell's queue is usually
 * short and its priorities spread.  Four children a node, not two: the
 * pull search's open list (sokoban_pull.c) holds millions of items, and a
 * pop's walk down is half as deep, its four children on one or two cache
 * lines (the pops were a fiftieth of -a any's time on Sasquatch III 39).
 * The items a search pushes are distinct (an expansion number or a table
 * entry in the low bits), so they come out in the same order whatever the
 * heap's shape.
 *
 * cell-age keeps a second queue a cell, in the order pushed, so that the
 * item waiting longest can be found; items the heap gave out stay in it
 * until the owner's test calls them invalid, and are then dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any.h"

/* children of a heap node */
#define ARITY 4

void soko_cells_release(struct soko_cells *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->cells[i].heap);
		free(t->cells[i].fifo);
	}
	free(t->cells);
	free(t->index);
	memset(t, 0, sizeof *t);
}

static uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	return x ^ (x >> 16);
}

static void index_grow(struct soko_cells *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	uint32_t *idx = lk_xcalloc(cap, sizeof *idx);
	for (size_t i = 0; i < t->n; i++) {
		size_t h = hash32(t->cells[i].code) & (cap - 1);
		while (idx[h])
			h = (h + 1) & (cap - 1);
		idx[h] = (uint32_t)i + 1;
	}
	t->bytes += (cap - t->cap) * sizeof *idx;
	free(t->index);
	t->index = idx;
	t->cap = cap;
}

size_t soko_cells_find(struct soko_cells *t, uint32_t code, bool *made)
{
	*made = false;
	if (4 * (t->n + 1) > 3 * t->cap)
		index_grow(t);
	size_t h = hash32(code) & (t->cap - 1);
	while (t->index[h]) {
		size_t c = t->index[h] - 1;
		if (t->cells[c].code == code)
			return c;
		h = (h + 1) & (t->cap - 1);
	}
	size_t before = t->alloc;
	LK_ALLOC_GROW(t->cells, t->n + 1, t->alloc);
	t->bytes += (t->alloc - before) * sizeof *t->cells;
	struct soko_cell *c = &t->cells[t->n];
	memset(c, 0, sizeof *c);
	c->code = code;
	t->index[h] = (uint32_t)++t->n;
	*made = true;
	return t->n - 1;
}

void soko_cells_push(struct soko_cells *t, size_t cell, uint64_t v)
{
	struct soko_cell *c = &t->cells[cell];
	if (c->n == c->alloc) {
		size_t old = c->alloc;
		c->alloc = c->alloc ? 2 * c->alloc : 16;
		c->heap = lk_xrealloc(c->heap, c->alloc * sizeof *c->heap);
		t->bytes += (c->alloc - old) * sizeof *c->heap;
	}
	size_t i = c->n++;
	while (i > 0 && c->heap[(i - 1) / ARITY] > v) {
		c->heap[i] = c->heap[(i - 1) / ARITY];
		i = (i - 1) / ARITY;
	}
	c->heap[i] = v;
}

uint64_t soko_cells_pop(struct soko_cells *t, size_t cell)
{
	struct soko_cell *c = &t->cells[cell];
	uint64_t top = c->heap[0], v = c->heap[--c->n];
	size_t i = 0;
	for (;;) {
		size_t first = ARITY * i + 1, k = first;
		if (first >= c->n)
			break;
		size_t end = first + ARITY < c->n ? first + ARITY : c->n;
		for (size_t j = first + 1; j < end; j++)
			if (c->heap[j] < c->heap[k])
				k = j;
		if (c->heap[k] >= v)
			break;
		c->heap[i] = c->heap[k];
		i = k;
	}
	if (c->n)
		c->heap[i] = v;
	return top;
}

/* Drop the invalid items of cell c's push-order queue, keeping the order. */
static void fifo_compact(struct soko_cell *c, bool (*valid)(const void *ctx, uint64_t item),
			 const void *ctx)
{
	size_t k = 0;
	for (size_t i = c->head; i < c->head + c->fn; i++)
		if (valid(ctx, c->fifo[i]))
			c->fifo[k++] = c->fifo[i];
	c->head = 0;
	c->fn = k;
}

void soko_cells_fifo_push(struct soko_cells *t, size_t cell, uint64_t v,
			  bool (*valid)(const void *ctx, uint64_t item), const void *ctx)
{
	struct soko_cell *c = &t->cells[cell];
	if (c->fn > 2 * c->n + 64)
		fifo_compact(c, valid, ctx);
	if (c->head + c->fn == c->falloc) {
		if (c->head > c->falloc / 2) {   /* room at the front: move down */
			memmove(c->fifo, c->fifo + c->head, c->fn * sizeof *c->fifo);
			c->head = 0;
		} else {
			size_t old = c->falloc;
			c->falloc = c->falloc ? 2 * c->falloc : 16;
			c->fifo = lk_xrealloc(c->fifo, c->falloc * sizeof *c->fifo);
			t->bytes += (c->falloc - old) * sizeof *c->fifo;
		}
	}
	c->fifo[c->head + c->fn++] = v;
}

bool soko_cells_fifo_take(struct soko_cells *t, size_t cell, uint64_t *v,
			  bool (*valid)(const void *ctx, uint64_t item), const void *ctx)
{
	struct soko_cell *c = &t->cells[cell];
	while (c->fn) {
		uint64_t item = c->fifo[c->head++];
		c->fn--;
		if (valid(ctx, item)) {
			*v = item;
			return true;
		}
	}
	c->head = 0;
	return false;
}
