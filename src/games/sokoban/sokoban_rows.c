/*
 * sokoban_rows.c - the player's flood a board row at a time, for the
 * deadlock table's small searches.
 *
 * A small search (sokoban_deadtab.c) has two to sixteen boxes on an
 * otherwise empty board, so the player's area is nearly the whole level,
 * and it floods it once for every position it expands and again for
 * most pushes whose local test cannot tell: on Sasquatch II 19 those
 * floods, square by square, were a sixth of the time of -a any (session
 * 42).  Here a row of the padded board is one 64-bit word (boards up to
 * 64 squares wide; wider ones keep the square-by-square flood): a row's
 * free runs that touch a seed are filled at once (an addition carries the
 * fill towards the higher bits, a doubling shift towards the lower), and
 * a row whose area grew passes it on to the rows above and below, until
 * none grows.  A work list holds each row once, so a row is visited
 * about as many times as its area gains runs, not once per square.
 *
 * The area found is the same set of squares as the square-by-square
 * flood's, so the least square (the normalised player), and every test
 * read from it, are the same: the small searches search what they did.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban.h"

bool soko_rows_init(struct soko_rows *r, const struct sokoban *s)
{
	memset(r, 0, sizeof *r);
	if (s->width > 64 || s->width < 3 || s->height < 3 || s->height > 255)
		return false;
	size_t h = (size_t)s->height, n = (size_t)s->cells;
	r->width = s->width;
	r->height = s->height;
	r->floor = lk_xcalloc(h, sizeof *r->floor);
	r->box = lk_xcalloc(h, sizeof *r->box);
	r->area = lk_xcalloc(h, sizeof *r->area);
	r->area2 = lk_xcalloc(h, sizeof *r->area2);
	r->stack = lk_xmalloc(h * sizeof *r->stack);
	r->queued = lk_xcalloc(h, 1);
	r->row_of = lk_xmalloc(n * sizeof *r->row_of);
	r->bit_of = lk_xmalloc(n * sizeof *r->bit_of);
	for (int c = 0; c < s->cells; c++) {
		int y = c / s->width, x = c % s->width;
		r->row_of[c] = (uint8_t)y;
		r->bit_of[c] = (uint64_t)1 << x;
		if (!s->wall[c])
			r->floor[y] |= r->bit_of[c];
	}
	return true;
}

void soko_rows_release(struct soko_rows *r)
{
	free(r->floor);
	free(r->box);
	free(r->area);
	free(r->area2);
	free(r->stack);
	free(r->queued);
	free(r->row_of);
	free(r->bit_of);
	memset(r, 0, sizeof *r);
}

void soko_rows_boxes(struct soko_rows *r, const uint16_t *boxes, int n)
{
	for (int i = 0; i < n; i++)
		r->box[r->row_of[boxes[i]]] ^= r->bit_of[boxes[i]];
}

/* The squares of free (one row) in a run that holds a square of seed
 * (seed within free). */
static inline uint64_t row_fill(uint64_t seed, uint64_t free_)
{
	/* towards higher bits: the carry of seed runs along its run of free
	 * and stops on the square past it (several seeds in one run: the
	 * lowest's carry clears the others, which the or puts back) */
	uint64_t up = (((free_ + seed) ^ free_) & free_) | seed;
	/* towards lower bits: spread by 1, 2, 4, ... squares through free */
	uint64_t g = seed, p = free_;
	g |= p & (g >> 1);
	p &= p >> 1;
	g |= p & (g >> 2);
	p &= p >> 2;
	g |= p & (g >> 4);
	p &= p >> 4;
	g |= p & (g >> 8);
	p &= p >> 8;
	g |= p & (g >> 16);
	p &= p >> 16;
	g |= p & (g >> 32);
	return up | g;
}

int soko_rows_flood(struct soko_rows *r, uint64_t *area, int cell, int stop)
{
	const uint64_t *floor = r->floor, *box = r->box;
	memset(area, 0, (size_t)r->height * sizeof *area);
	int y = r->row_of[cell], ymin = y, sp = 0;
	int stop_y = stop >= 0 ? r->row_of[stop] : -1;
	uint64_t stop_bit = stop >= 0 ? r->bit_of[stop] : 0;
	area[y] = row_fill(r->bit_of[cell], floor[y] & ~box[y]);
	if (y == stop_y && (area[y] & stop_bit))
		return -1;
	r->queued[y] = 1;
	r->stack[sp++] = y;
	while (sp > 0) {
		y = r->stack[--sp];
		r->queued[y] = 0;
		uint64_t a = area[y];
		/* the padding's walls: rows 0 and height - 1 hold no floor,
		 * so a floor row's neighbours are rows of the board */
		for (int ny = y + 1; ny >= y - 1; ny -= 2) {
			uint64_t f = floor[ny] & ~box[ny];
			uint64_t seed = a & f & ~area[ny];
			if (!seed)
				continue;
			area[ny] |= row_fill(seed, f);
			if (ny == stop_y && (area[ny] & stop_bit)) {
				while (sp > 0)
					r->queued[r->stack[--sp]] = 0;
				return -1;
			}
			if (ny < ymin)
				ymin = ny;
			if (!r->queued[ny]) {
				r->queued[ny] = 1;
				r->stack[sp++] = ny;
			}
		}
	}
	return ymin * r->width + lk_lowest_bit64(area[ymin]);
}

int soko_rows_pushed(const struct sokoban *s, struct soko_rows *r, const struct soko_scratch *sc,
		     int b, int to, unsigned least)
{
	const uint64_t *area = r->area;
	/* soko_pushed_player's local test, read from the area's bits */
	if (soko_rows_in(r, area, to) && (unsigned)s->compact[to] != least) {
		bool enclosed = true;
		for (int d = 0; d < 4; d++) {
			int x = b + s->off[d];
			if (x != to && !(s->wall[x] | sc->box[x]) && !soko_rows_in(r, area, x))
				enclosed = false;
		}
		if (enclosed && soko_ring_joined(s, sc, to)) {
			int mine = s->compact[b];
			return mine < (int)least ? mine : (int)least;
		}
	}
	/* pushed_flood's: the flood may stop at the old least square when
	 * b opens onto nothing but the old area (and `to`) */
	int stop = s->cell_of[least];
	for (int d = 0; d < 4 && stop >= 0; d++) {
		int x = b + s->off[d];
		if (x != to && !(s->wall[x] | sc->box[x]) && !soko_rows_in(r, area, x))
			stop = -1;
	}
	if (stop == to)
		stop = -1;
	int low = soko_rows_flood(r, r->area2, b, stop);
	if (low < 0)
		return (int)least < s->compact[b] ? (int)least : s->compact[b];
	return s->compact[low];
}
