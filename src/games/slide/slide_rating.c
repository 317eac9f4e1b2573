/*
 * slide_rating.c - what the rating (rating.h) reads of a tilt-and-slide
 * level itself: the cells a piece can stand on, the pieces, and the
 * cells' sides that face a wall or the board's edge.
 */
#include "slide_game.h"

void slide_rating_counts(const struct lk_level *level, unsigned *cells, unsigned *objects)
{
	const struct slide_level *s = (const struct slide_level *)level;
	const struct lk_slide_board *b = &s->board;
	unsigned pieces = 0;
	for (int c = 0; c < b->width * b->height; c++)
		pieces += b->piece[c] != LK_P_NONE;
	*cells = s->nslots > 0 ? (unsigned)s->nslots : 0;
	*objects = pieces;
}

unsigned slide_rating_wall_sides(const struct lk_level *level)
{
	const struct slide_level *s = (const struct slide_level *)level;
	const struct lk_slide_board *b = &s->board;
	static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
	unsigned sides = 0;
	for (int i = 0; i < s->nslots; i++) {
		int x = s->slot_cell[i] % b->width, y = s->slot_cell[i] / b->width;
		for (int d = 0; d < 4; d++) {
			int nx = x + dx[d], ny = y + dy[d];
			sides += nx < 0 || ny < 0 || nx >= b->width || ny >= b->height ||
				 s->cell_slot[ny * b->width + nx] < 0;
		}
	}
	return sides;
}
