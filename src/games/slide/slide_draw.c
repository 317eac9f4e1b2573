/*
 * slide_draw.c - the slide games (fruit, skiddy) drawn on a canvas: what
 * their boards share (walls, floor, one-way borders as an arrow on the
 * border, pointing the way pieces may cross; a ring round a piece caught
 * in a pit) and the order of drawing; each game draws its own pieces and
 * terrain (fruit/fruit_draw.c, skiddy/skiddy_draw.c) through its rules'
 * draw_piece and draw_terrain.
 */
#include <stdlib.h>

#include "levelkit/canvas.h"
#include "levelkit/grid.h"
#include "slide_game.h"

static const struct lk_paint wall_paint = { .fill = 0x4d4d5c };
static const struct lk_paint floor_paint = { .fill = 0xebe6d7 };
static const struct lk_paint arrow_paint = { .fill = 0xffffff, .stroke = 0x000000, .width = 0.04 };
static const struct lk_paint arrow_bar = { .hollow = true, .stroke = 0x000000, .width = 0.08 };
static const struct lk_paint trapped_paint = { .hollow = true, .stroke = 0x000000, .width = 0.08,
					       .dashed = true };

/* Black or white text, whichever reads on the colour. */
struct lk_paint slide_letter_on(uint32_t rgb)
{
	unsigned r = rgb >> 16 & 255, g = rgb >> 8 & 255, b = rgb & 255;
	bool light = 299 * r + 587 * g + 114 * b > 128000;
	return (struct lk_paint){ .fill = light ? 0x000000 : 0xffffff, .bold = true };
}

void slide_draw_coloured(struct lk_canvas *c, uint32_t rgb, const char *letter, bool round)
{
	struct lk_paint body = { .fill = rgb, .stroke = 0x222222, .width = 0.05 };
	struct lk_paint text = slide_letter_on(rgb);
	if (round)
		lk_canvas_circle(c, 0.5, 0.5, 0.36, &body);
	else
		lk_canvas_round_rect(c, 0.14, 0.14, 0.72, 0.72, 0.16, &body);
	lk_canvas_text(c, 0.5, 0.52, 0.46, &text, letter);
}

static void terrain(struct lk_canvas *c, const struct slide_rules *rules,
		    const struct lk_slide_board *b, int cell)
{
	int x = cell % b->width, y = cell / b->width;
	uint8_t t = b->terrain[cell];
	lk_canvas_layer(c, LK_LAYER_GROUND);
	if (t == LK_T_WALL) {
		lk_canvas_rect(c, x, y, 1, 1, &wall_paint);
		return;
	}
	lk_canvas_rect(c, x, y, 1, 1, t == LK_T_EXIT ? &wall_paint : &floor_paint);
	lk_canvas_layer(c, LK_LAYER_MARKS);
	rules->draw_terrain(c, b, cell);
}

/* One-way borders: oneway[n] bit e means no piece leaves n towards e, so
 * pieces cross that border only the other way, into n. */
static void oneways(struct lk_canvas *c, const struct lk_slide_board *b)
{
	lk_canvas_layer(c, LK_LAYER_OVER);
	for (int n = 0; n < b->width * b->height; n++) {
		for (int e = 0; e < 4; e++) {
			if (!(b->oneway[n] & (1u << e)))
				continue;
			if (lk_canvas_begin_symbol(c, "slide.oneway", "one-way border (cross as it points)")) {
				/* drawn for a border across the cell's middle,
				 * crossed upwards */
				static const double head[] = { 0.5, 0.3, 0.66, 0.56, 0.34, 0.56 };
				lk_canvas_line(c, 0.12, 0.5, 0.88, 0.5, &arrow_bar);
				lk_canvas_poly(c, head, 3, &arrow_paint);
				lk_canvas_end_symbol(c);
			}
			double mx = n % b->width + 0.5 + 0.5 * lk_dir_dx[e];
			double my = n / b->width + 0.5 + 0.5 * lk_dir_dy[e];
			lk_canvas_use(c, "slide.oneway", mx - 0.5, my - 0.5, (int)lk_dir_opposite((enum lk_dir)e));
		}
	}
}

void slide_draw(const struct lk_level *level, const void *key, const char *placement,
		struct lk_canvas *c)
{
	(void)placement;
	const struct slide_level *s = (const struct slide_level *)level;
	struct lk_slide_board b = s->board;   /* terrain shared, pieces our own */
	size_t n = (size_t)b.width * (size_t)b.height;
	lk_canvas_size(c, b.width, b.height);
	if (lk_canvas_begin_board(c)) {
		for (int cell = 0; cell < (int)n; cell++)
			terrain(c, s->rules, &b, cell);
		oneways(c, &b);
		lk_canvas_end_board(c);
	}
	if (key) {
		b.piece = lk_xcalloc(n, 1);
		b.colour = lk_xcalloc(n, 1);
		b.trapped = lk_xcalloc(n, 1);
		b.pieces = NULL;
		slide_unpack_key(level, key, &b);
	}
	lk_canvas_layer(c, LK_LAYER_PIECES);
	for (int cell = 0; cell < (int)n; cell++)
		if (b.piece[cell])
			s->rules->draw_piece(c, &b, cell);
	lk_canvas_layer(c, LK_LAYER_OVER);
	for (int cell = 0; cell < (int)n; cell++) {
		if (!b.trapped[cell])
			continue;
		if (lk_canvas_begin_symbol(c, "slide.trapped", "caught in a pit (sits out a move)")) {
			lk_canvas_circle(c, 0.5, 0.5, 0.45, &trapped_paint);
			lk_canvas_end_symbol(c);
		}
		lk_canvas_use(c, "slide.trapped", cell % b.width, cell / b.width, 0);
	}
	if (key) {
		free(b.piece);
		free(b.colour);
		free(b.trapped);
	}
}
