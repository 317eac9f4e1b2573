/*
 * slide_draw.c - the slide games (fruit, skiddy) drawn on a canvas.
 *
 * Terrain: walls, floor, blocks, mud, pits, sleeping hedgehogs, anteaters
 * (their snout points where they look), exits in their skiddies' colour,
 * and one-way borders as an arrow on the border, pointing the way pieces
 * may cross.  Pieces: fruit by colour, stones, skiddies by colour (a bar
 * joins touching skiddies of one colour, which move as one), ice cubes and
 * crates; a piece caught in a pit gets a ring.
 *
 * Colours are Okabe and Ito's palette, and every coloured thing also
 * carries its letter, so no reader depends on telling colours apart.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "levelkit/canvas.h"
#include "levelkit/grid.h"
#include "slide_game.h"

/* Okabe-Ito, then two more that stay apart from them. */
static const uint32_t palette[] = {
	0xe69f00, 0x56b4e9, 0x009e73, 0xf0e442, 0x0072b2, 0xd55e00, 0xcc79a7, 0x999999,
};
/* Skiddy's colours by index: red, green, blue, yellow, purple. */
static const uint32_t skiddy_colours[] = { 0xd55e00, 0x009e73, 0x0072b2, 0xf0e442, 0xcc79a7 };
static const char skiddy_letters[] = "rgbyp";
static const char *const skiddy_names[] = { "red", "green", "blue", "yellow", "purple" };

static const struct lk_paint wall_paint = { .fill = 0x4d4d5c };
static const struct lk_paint floor_paint = { .fill = 0xebe6d7 };
static const struct lk_paint dark_line = { .hollow = true, .stroke = 0x222222, .width = 0.06 };
static const struct lk_paint block_paint = { .fill = 0x6f6f7f, .stroke = 0x2b2b35, .width = 0.06 };
static const struct lk_paint mud_paint = { .fill = 0x8b5a2b };
static const struct lk_paint mud_dot = { .fill = 0x5c3a1a };
static const struct lk_paint pit_paint = { .fill = 0x1a1a1a, .stroke = 0x555555, .width = 0.05 };
static const struct lk_paint hedgehog_paint = { .fill = 0x6b4f3a, .stroke = 0x2e2118, .width = 0.04 };
static const struct lk_paint anteater_paint = { .fill = 0xa0522d, .stroke = 0x3d1f10, .width = 0.05 };
static const struct lk_paint stone_paint = { .fill = 0xa8a8a8, .stroke = 0x555555, .width = 0.06 };
static const struct lk_paint ice_paint = { .fill = 0xd6f1ff, .stroke = 0x56b4e9, .width = 0.06 };
static const struct lk_paint crate_paint = { .fill = 0xc48a4a, .stroke = 0x5c3a1a, .width = 0.06 };
static const struct lk_paint crate_line = { .hollow = true, .stroke = 0x5c3a1a, .width = 0.06 };
static const struct lk_paint arrow_paint = { .fill = 0xffffff, .stroke = 0x000000, .width = 0.04 };
static const struct lk_paint arrow_bar = { .hollow = true, .stroke = 0x000000, .width = 0.08 };
static const struct lk_paint trapped_paint = { .hollow = true, .stroke = 0x000000, .width = 0.08,
					       .dashed = true };
static const struct lk_paint white = { .fill = 0xffffff };

/* Black or white text, whichever reads on the colour. */
static struct lk_paint letter_on(uint32_t rgb)
{
	unsigned r = rgb >> 16 & 255, g = rgb >> 8 & 255, b = rgb & 255;
	bool light = 299 * r + 587 * g + 114 * b > 128000;
	return (struct lk_paint){ .fill = light ? 0x000000 : 0xffffff, .bold = true };
}

static void coloured_piece(struct lk_canvas *c, uint32_t rgb, const char *letter, bool round)
{
	struct lk_paint body = { .fill = rgb, .stroke = 0x222222, .width = 0.05 };
	struct lk_paint text = letter_on(rgb);
	if (round)
		lk_canvas_circle(c, 0.5, 0.5, 0.36, &body);
	else
		lk_canvas_round_rect(c, 0.14, 0.14, 0.72, 0.72, 0.16, &body);
	lk_canvas_text(c, 0.5, 0.52, 0.46, &text, letter);
}

/* Define (once) and place the symbol of a piece. */
static void piece(struct lk_canvas *c, int kind, int colour, int x, int y)
{
	char name[32], label[48], letter[2] = { 0, 0 };
	switch (kind) {
	case LK_P_FRUIT:
		letter[0] = (char)('a' + colour % 26);
		snprintf(name, sizeof name, "slide.fruit.%s", letter);
		snprintf(label, sizeof label, "fruit of colour %s", letter);
		if (lk_canvas_begin_symbol(c, name, label)) {
			coloured_piece(c, palette[colour % 8], letter, true);
			lk_canvas_end_symbol(c);
		}
		break;
	case LK_P_SKIDDY:
		colour %= 5;
		letter[0] = skiddy_letters[colour];
		snprintf(name, sizeof name, "slide.skiddy.%s", letter);
		snprintf(label, sizeof label, "%s skiddy", skiddy_names[colour]);
		if (lk_canvas_begin_symbol(c, name, label)) {
			coloured_piece(c, skiddy_colours[colour], letter, false);
			lk_canvas_end_symbol(c);
		}
		break;
	case LK_P_STONE:
		snprintf(name, sizeof name, "slide.stone");
		if (lk_canvas_begin_symbol(c, name, "stone (slides)")) {
			static const double rock[] = { 0.2, 0.45, 0.35, 0.2, 0.68, 0.18, 0.84, 0.42,
						       0.78, 0.78, 0.4, 0.84, 0.16, 0.7 };
			lk_canvas_poly(c, rock, 7, &stone_paint);
			lk_canvas_end_symbol(c);
		}
		break;
	case LK_P_ICE:
		snprintf(name, sizeof name, "slide.ice");
		if (lk_canvas_begin_symbol(c, name, "ice cube (slides, never leaves)")) {
			lk_canvas_round_rect(c, 0.14, 0.14, 0.72, 0.72, 0.08, &ice_paint);
			lk_canvas_line(c, 0.3, 0.62, 0.62, 0.3, &(struct lk_paint){ .stroke = 0xffffff,
				       .width = 0.07 });
			lk_canvas_end_symbol(c);
		}
		break;
	case LK_P_CRATE:
		snprintf(name, sizeof name, "slide.crate");
		if (lk_canvas_begin_symbol(c, name, "crate (moves when pushed)")) {
			lk_canvas_rect(c, 0.12, 0.12, 0.76, 0.76, &crate_paint);
			lk_canvas_line(c, 0.12, 0.12, 0.88, 0.88, &crate_line);
			lk_canvas_line(c, 0.88, 0.12, 0.12, 0.88, &crate_line);
			lk_canvas_end_symbol(c);
		}
		break;
	default:
		return;
	}
	lk_canvas_use(c, name, x, y, 0);
}

static void terrain(struct lk_canvas *c, const struct lk_slide_board *b, int cell)
{
	int x = cell % b->width, y = cell / b->width;
	uint8_t t = b->terrain[cell];
	char name[32], label[48];
	lk_canvas_layer(c, LK_LAYER_GROUND);
	if (t == LK_T_WALL) {
		lk_canvas_rect(c, x, y, 1, 1, &wall_paint);
		return;
	}
	lk_canvas_rect(c, x, y, 1, 1, t == LK_T_EXIT ? &wall_paint : &floor_paint);
	lk_canvas_layer(c, LK_LAYER_MARKS);
	switch (t) {
	case LK_T_BLOCK:
		if (lk_canvas_begin_symbol(c, "slide.block", "block (fixed)")) {
			lk_canvas_rect(c, 0.06, 0.06, 0.88, 0.88, &block_paint);
			lk_canvas_line(c, 0.2, 0.2, 0.8, 0.8, &dark_line);
			lk_canvas_line(c, 0.8, 0.2, 0.2, 0.8, &dark_line);
			lk_canvas_end_symbol(c);
		}
		lk_canvas_use(c, "slide.block", x, y, 0);
		break;
	case LK_T_MUD:
		if (lk_canvas_begin_symbol(c, "slide.mud", "mud (stones pass, fruit is lost)")) {
			lk_canvas_rect(c, 0, 0, 1, 1, &mud_paint);
			static const double dots[][2] = { { 0.25, 0.3 }, { 0.7, 0.25 }, { 0.45, 0.6 },
							  { 0.2, 0.8 }, { 0.8, 0.75 } };
			for (size_t i = 0; i < sizeof dots / sizeof dots[0]; i++)
				lk_canvas_circle(c, dots[i][0], dots[i][1], 0.07, &mud_dot);
			lk_canvas_end_symbol(c);
		}
		lk_canvas_use(c, "slide.mud", x, y, 0);
		break;
	case LK_T_PIT:
		if (lk_canvas_begin_symbol(c, "slide.pit", "pit (traps a piece for a move)")) {
			lk_canvas_circle(c, 0.5, 0.5, 0.4, &pit_paint);
			lk_canvas_end_symbol(c);
		}
		lk_canvas_use(c, "slide.pit", x, y, 0);
		break;
	case LK_T_HEDGEHOG:
		if (lk_canvas_begin_symbol(c, "slide.hedgehog", "hedgehog (eats fruit)")) {
			double spikes[24];
			for (int i = 0; i < 12; i++) {
				double r = i % 2 ? 0.24 : 0.42, a = i * 3.14159265358979 / 6;
				spikes[2 * i] = 0.5 + r * cos(a);
				spikes[2 * i + 1] = 0.5 + r * sin(a);
			}
			lk_canvas_poly(c, spikes, 12, &hedgehog_paint);
			lk_canvas_circle(c, 0.5, 0.5, 0.06, &white);
			lk_canvas_end_symbol(c);
		}
		lk_canvas_use(c, "slide.hedgehog", x, y, 0);
		break;
	case LK_T_ANTEATER:
		/* drawn looking up; turned to its facing */
		if (lk_canvas_begin_symbol(c, "slide.anteater", "anteater (snout: where it looks)")) {
			static const double body[] = { 0.5, 0.06, 0.62, 0.4, 0.82, 0.62, 0.7, 0.88,
						       0.3, 0.88, 0.18, 0.62, 0.38, 0.4 };
			lk_canvas_poly(c, body, 7, &anteater_paint);
			lk_canvas_circle(c, 0.5, 0.5, 0.06, &white);
			lk_canvas_end_symbol(c);
		}
		lk_canvas_use(c, "slide.anteater", x, y, b->terrain_dir[cell]);
		break;
	case LK_T_EXIT: {
		int colour = b->terrain_colour[cell] % 5;
		char letter[2] = { (char)(skiddy_letters[colour] - 'a' + 'A'), 0 };
		snprintf(name, sizeof name, "slide.exit.%s", letter);
		snprintf(label, sizeof label, "%s exit", skiddy_names[colour]);
		if (lk_canvas_begin_symbol(c, name, label)) {
			struct lk_paint door = { .fill = skiddy_colours[colour], .stroke = 0xffffff,
						 .width = 0.06 };
			struct lk_paint text = letter_on(skiddy_colours[colour]);
			lk_canvas_rect(c, 0.08, 0.08, 0.84, 0.84, &door);
			lk_canvas_text(c, 0.5, 0.52, 0.5, &text, letter);
			lk_canvas_end_symbol(c);
		}
		lk_canvas_use(c, name, x, y, 0);
		break;
	}
	default:
		break;
	}
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
			terrain(c, &b, cell);
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
	for (int cell = 0; cell < (int)n; cell++) {
		if (!b.piece[cell])
			continue;
		int x = cell % b.width, y = cell / b.width;
		piece(c, b.piece[cell], b.colour[cell], x, y);
		/* Skiddies of one colour that touch are one body. */
		if (b.piece[cell] != LK_P_SKIDDY)
			continue;
		struct lk_paint bar = { .fill = skiddy_colours[b.colour[cell] % 5], .stroke = 0x222222,
					.width = 0.04 };
		if (x + 1 < b.width && b.piece[cell + 1] == LK_P_SKIDDY && b.colour[cell + 1] == b.colour[cell])
			lk_canvas_rect(c, x + 0.8, y + 0.36, 0.4, 0.28, &bar);
		if (y + 1 < b.height && b.piece[cell + b.width] == LK_P_SKIDDY &&
		    b.colour[cell + b.width] == b.colour[cell])
			lk_canvas_rect(c, x + 0.36, y + 0.8, 0.28, 0.4, &bar);
	}
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
