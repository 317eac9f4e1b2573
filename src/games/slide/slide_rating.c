/*
 * slide_rating.c - what the rating (rating.h) reads of a tilt-and-slide
 * level itself: the cells a piece can stand on, and the pieces.
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
