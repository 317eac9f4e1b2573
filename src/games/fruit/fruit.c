/*
 * fruit.c - Fruit Dating (SBC Games, 2014): tilt the board, every movable
 * object slides; two fruit of one colour that end up touching are matched
 * and removed; the level is won when no fruit is left.
 *
 * Cells: '#' wall, ' ' or '.' floor, 'a'-'z' fruit (the letter is the
 * colour), 'O' stone (a movable obstacle: the game's stones, cars and
 * barrels), '~' mud (stones pass, fruit is lost in it), 'H' sleeping
 * hedgehog (eats fruit that runs into it), 'N' 'E' 'S' 'W' anteater facing
 * north, east, south, west (pulls the first fruit in its line of sight to
 * the cell in front of it).  One-way borders: a field
 * "oneway: x,y,d ..." (x column and y row from 0, d one of u r d l) lets
 * pieces pass from cell (x,y) in direction d but not back.  See
 * docs/games/fruit.md and, for the motion rules, src/games/slide/slide.h.
 */
#include "fruit.h"

#include <string.h>

#include "levelkit/grid.h"
#include "levelkit/record.h"

#define FRUIT(ch) { ch, LK_T_FLOOR, LK_P_FRUIT, (uint8_t)(ch - 'a'), 0 }

static const struct slide_char fruit_legend[] = {
	{ '#', LK_T_WALL, LK_P_NONE, 0, 0 },
	{ 'O', LK_T_FLOOR, LK_P_STONE, 0, 0 },
	{ '~', LK_T_MUD, LK_P_NONE, 0, 0 },
	{ 'H', LK_T_HEDGEHOG, LK_P_NONE, 0, 0 },
	{ 'N', LK_T_ANTEATER, LK_P_NONE, 0, LK_UP },
	{ 'E', LK_T_ANTEATER, LK_P_NONE, 0, LK_RIGHT },
	{ 'S', LK_T_ANTEATER, LK_P_NONE, 0, LK_DOWN },
	{ 'W', LK_T_ANTEATER, LK_P_NONE, 0, LK_LEFT },
	FRUIT('a'), FRUIT('b'), FRUIT('c'), FRUIT('d'), FRUIT('e'), FRUIT('f'), FRUIT('g'),
	FRUIT('h'), FRUIT('i'), FRUIT('j'), FRUIT('k'), FRUIT('l'), FRUIT('m'), FRUIT('n'),
	FRUIT('o'), FRUIT('p'), FRUIT('q'), FRUIT('r'), FRUIT('s'), FRUIT('t'), FRUIT('u'),
	FRUIT('v'), FRUIT('w'), FRUIT('x'), FRUIT('y'), FRUIT('z'),
};

static const char *fruit_check(const struct lk_slide_board *b, int *bad)
{
	bool any = false;
	for (int c = 0; c < b->width * b->height; c++) {
		if (b->piece[c] != LK_P_FRUIT)
			continue;
		any = true;
		/* Partners that touch would match before the first move; the
		 * simulator relies on a settled board (slide.h). */
		int x = c % b->width, y = c / b->width;
		if ((x + 1 < b->width && b->piece[c + 1] == LK_P_FRUIT && b->colour[c + 1] == b->colour[c]) ||
		    (y + 1 < b->height && b->piece[c + b->width] == LK_P_FRUIT &&
		     b->colour[c + b->width] == b->colour[c])) {
			*bad = c;
			return "two fruit of one colour touch at the start (they would match at once)";
		}
	}
	if (any)
		return NULL;
	*bad = 0;
	return "level has no fruit";
}

static const struct slide_rules fruit_rules = {
	.game = "fruit",
	.legend = fruit_legend,
	.nlegend = (int)(sizeof fruit_legend / sizeof fruit_legend[0]),
	.win_without_skiddies = false,
	.combos = false,
	.oneway_field = true,
	.min_w = 3, .min_h = 3, .max_w = 16, .max_h = 16,
	.check = fruit_check,
	.draw_terrain = fruit_draw_terrain,
	.draw_piece = fruit_draw_piece,
};

/* The article throws away levels "full of obstacles": how many stones
 * (its stones, cars and barrels) and what share of the board's open cells
 * they fill, the density its generator draws (0-12 %). */
static const char *const fruit_level_fields[] = { "obstacles", "obstacle-density", NULL };

static void fruit_write_level_fields(const struct lk_level *level, struct lk_record *rec)
{
	const struct slide_level *s = (const struct slide_level *)level;
	const struct lk_slide_board *b = &s->board;
	int stones = 0, open = 0;
	for (int c = 0; c < b->width * b->height; c++) {
		open += b->terrain[c] != LK_T_WALL;
		stones += b->piece[c] == LK_P_STONE;
	}
	lk_record_setf(rec, "obstacles", "%d", stones);
	lk_record_setf(rec, "obstacle-density", "%.3f", open ? (double)stones / open : 0.0);
}

static const struct lk_generator *const fruit_generators[] = {
	&lk_gen_fruit_random,
	NULL,
};

const struct lk_game lk_game_fruit = {
	.name = "fruit",
	.summary = "Fruit Dating: tilt the board until every fruit has met its match",
	.data = &fruit_rules,
	SLIDE_GAME_MEMBERS,
	.level_fields = fruit_write_level_fields,
	.level_field_names = fruit_level_fields,
	.generators = fruit_generators,
};
