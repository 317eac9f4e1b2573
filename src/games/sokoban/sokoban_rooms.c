/*
 * sokoban_rooms.c - FESS's room connectivity feature for Sokoban's search
 * for any solution (solve -a any; Shoham and Schaeffer, "The FESS
 * Algorithm", IEEE CoG 2020; docs/games/sokoban.md, "Room connectivity").
 *
 * Levels are mostly rooms joined by corridors, and a box left in a corridor
 * cuts the rooms on either side apart, which the player areas (a count of
 * connected free floor) see only while the cut lasts square for square.
 * Here a room is a 4-connected piece of the squares that lie in some 2 x 3
 * or 3 x 2 rectangle of floor (the paper's definition, "a connected area of
 * 2x3 squares"); every other floor square is a corridor.  Two rooms are
 * linked in a position when from every piece of the first room's free
 * squares (split up by the boxes inside it) the player can walk, over that
 * room's free squares and free corridor squares, to a square of the other
 * room (whether or not a box stands on it: the box is then in the other
 * room, not in the passage), and the same the other way.  The feature is
 * the number of links of the empty level that the position's boxes cut.  A
 * level with no link (fewer than two rooms, or more than 64, which are not
 * counted) keeps the boxes in doorways instead (sokoban_plan.c).
 *
 * It costs a flood of the floor per position scored (every child of an
 * expanded state), where the player areas need none: each piece of a room
 * once, the corridors once per piece that reaches them.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any.h"

/* Is c the top-left corner of a w x h rectangle of floor? */
static bool floor_rect(const struct sokoban *s, int c, int w, int h)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int q = c + y * s->width + x;
			if (q < 0 || q >= s->cells || s->wall[q])
				return false;
		}
	return true;
}

static void mark_rect(uint8_t *in, const struct sokoban *s, int c, int w, int h)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			in[c + y * s->width + x] = 1;
}

static uint32_t next_stamp(struct soko_rooms *r, size_t cells)
{
	if (r->stamp >= UINT32_MAX - 1) {
		memset(r->mark, 0, cells * sizeof *r->mark);
		r->stamp = 0;
	}
	return ++r->stamp;
}

/* The rooms linked to each room (bits) in the position whose boxes are
 * box (per cell; NULL: none), into r->links. */
static void find_links(struct soko_rooms *r, const struct sokoban *s, const uint8_t *box)
{
	size_t cells = (size_t)s->cells;
	if (r->stamp >= UINT32_MAX - cells - 2) {
		memset(r->mark, 0, cells * sizeof *r->mark);
		r->stamp = 0;
	}
	uint32_t first = r->stamp + 1;   /* a room square is seen when mark >= first */
	for (int i = 0; i < r->nrooms; i++)
		r->links[i] = 0;
	uint8_t *any = r->any;
	memset(any, 0, (size_t)r->nrooms);
	for (int k = 0; k < s->nfloor; k++) {
		int c = s->cell_of[k], room = r->room[c] - 1;
		if (room < 0 || (box && box[c]) || r->mark[c] >= first)
			continue;
		/* a new piece of room `room`: flood it and the corridors off it */
		uint32_t st = next_stamp(r, cells);
		uint64_t seen = 0;
		int sp = 0;
		r->mark[c] = st;
		r->stack[sp++] = (uint16_t)c;
		while (sp > 0) {
			int x = r->stack[--sp];
			for (int d = 0; d < 4; d++) {
				int y = x + s->off[d];
				if (s->wall[y])
					continue;
				int other = r->room[y] - 1;
				if (other >= 0 && other != room) {
					seen |= (uint64_t)1 << other;
					continue;
				}
				if ((box && box[y]) || r->mark[y] == st ||
				    (other == room && r->mark[y] >= first))
					continue;
				r->mark[y] = st;
				r->stack[sp++] = (uint16_t)y;
			}
		}
		r->links[room] = any[room] ? r->links[room] & seen : seen;
		any[room] = 1;
	}
	/* a link holds both ways or not at all */
	for (int i = 0; i < r->nrooms; i++)
		for (int j = 0; j < r->nrooms; j++)
			if (!(r->links[j] >> i & 1))
				r->links[i] &= ~((uint64_t)1 << j);
}

static int count_links(const struct soko_rooms *r)
{
	int n = 0;
	for (int i = 0; i < r->nrooms; i++)
		for (int j = i + 1; j < r->nrooms; j++)
			n += (int)(r->links[i] >> j & 1);
	return n;
}

struct soko_rooms *soko_rooms_new(const struct sokoban *s)
{
	size_t n = (size_t)s->cells;
	struct soko_rooms *r = lk_xcalloc(1, sizeof *r);
	r->room = lk_xcalloc(n, sizeof *r->room);
	r->mark = lk_xcalloc(n, sizeof *r->mark);
	r->stack = lk_xmalloc(n * sizeof *r->stack);
	uint8_t *in = lk_xcalloc(n, 1);
	for (int c = 0; c < s->cells; c++) {
		if (floor_rect(s, c, 2, 3))
			mark_rect(in, s, c, 2, 3);
		if (floor_rect(s, c, 3, 2))
			mark_rect(in, s, c, 3, 2);
	}
	/* rooms: 4-connected pieces of the squares in such rectangles */
	int nrooms = 0;
	for (int k = 0; k < s->nfloor && nrooms <= SOKO_MAX_ROOMS; k++) {
		int c = s->cell_of[k];
		if (!in[c] || r->room[c])
			continue;
		nrooms++;
		int sp = 0;
		r->room[c] = (uint8_t)(nrooms <= SOKO_MAX_ROOMS ? nrooms : 0);
		r->stack[sp++] = (uint16_t)c;
		while (sp > 0 && nrooms <= SOKO_MAX_ROOMS) {
			int x = r->stack[--sp];
			for (int d = 0; d < 4; d++) {
				int y = x + s->off[d];
				if (s->wall[y] || !in[y] || r->room[y])
					continue;
				r->room[y] = (uint8_t)nrooms;
				r->stack[sp++] = (uint16_t)y;
			}
		}
	}
	free(in);
	if (nrooms > SOKO_MAX_ROOMS) {   /* too many to count in 64 bits: none */
		memset(r->room, 0, n * sizeof *r->room);
		nrooms = 0;
	}
	r->nrooms = nrooms;
	r->links = lk_xcalloc((size_t)(nrooms ? nrooms : 1), sizeof *r->links);
	r->base = lk_xcalloc((size_t)(nrooms ? nrooms : 1), sizeof *r->base);
	r->any = lk_xcalloc((size_t)(nrooms ? nrooms : 1), 1);
	if (nrooms > 1) {
		find_links(r, s, NULL);
		memcpy(r->base, r->links, (size_t)nrooms * sizeof *r->base);
		r->base_links = count_links(r);
	}
	return r;
}

void soko_rooms_free(struct soko_rooms *r)
{
	if (!r)
		return;
	free(r->room);
	free(r->mark);
	free(r->stack);
	free(r->links);
	free(r->base);
	free(r->any);
	free(r);
}

int soko_rooms_cut(struct soko_rooms *r, const struct sokoban *s, const uint8_t *box)
{
	if (r->base_links == 0)
		return 0;
	find_links(r, s, box);
	return r->base_links - count_links(r);
}
