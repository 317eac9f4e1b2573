/*
 * skiddy_draw.c - Skiddy's pieces and terrain on a canvas: skiddies by
 * colour (a bar joins touching skiddies of one colour, which move as one),
 * exits in their skiddies' colour, blocks, pits, ice cubes and crates;
 * every coloured thing also carries its letter.  The board, pieces caught
 * in pits and the order of drawing are the slide games' (slide_draw.c).
 */
#include <stdio.h>

#include "skiddy.h"
#include "levelkit/canvas.h"

/* Skiddy's colours by index: red, green, blue, yellow, purple. */
static const uint32_t skiddy_colours[] = { 0xd55e00, 0x009e73, 0x0072b2, 0xf0e442, 0xcc79a7 };
static const char skiddy_letters[] = "rgbyp";
static const char *const skiddy_names[] = { "red", "green", "blue", "yellow", "purple" };

static const struct lk_paint dark_line = { .hollow = true, .stroke = 0x222222, .width = 0.06 };
static const struct lk_paint block_paint = { .fill = 0x6f6f7f, .stroke = 0x2b2b35, .width = 0.06 };
static const struct lk_paint pit_paint = { .fill = 0x1a1a1a, .stroke = 0x555555, .width = 0.05 };
static const struct lk_paint ice_paint = { .fill = 0xd6f1ff, .stroke = 0x56b4e9, .width = 0.06 };
static const struct lk_paint crate_paint = { .fill = 0xc48a4a, .stroke = 0x5c3a1a, .width = 0.06 };
static const struct lk_paint crate_line = { .hollow = true, .stroke = 0x5c3a1a, .width = 0.06 };

static void piece_symbol(struct lk_canvas *c, int kind, int colour, int x, int y)
{
	char name[32], label[48], letter[2] = { 0, 0 };
	switch (kind) {
	case LK_P_SKIDDY:
		colour %= 5;
		letter[0] = skiddy_letters[colour];
		snprintf(name, sizeof name, "slide.skiddy.%s", letter);
		snprintf(label, sizeof label, "%s skiddy", skiddy_names[colour]);
		if (lk_canvas_begin_symbol(c, name, label)) {
			slide_draw_coloured(c, skiddy_colours[colour], letter, false);
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

/* The piece, and a bar to the touching skiddies of its colour on its
 * right and below: they are one body. */
void skiddy_draw_piece(struct lk_canvas *c, const struct lk_slide_board *b, int cell)
{
	int x = cell % b->width, y = cell / b->width;
	piece_symbol(c, b->piece[cell], b->colour[cell], x, y);
	if (b->piece[cell] != LK_P_SKIDDY)
		return;
	struct lk_paint bar = { .fill = skiddy_colours[b->colour[cell] % 5], .stroke = 0x222222,
				.width = 0.04 };
	if (x + 1 < b->width && b->piece[cell + 1] == LK_P_SKIDDY && b->colour[cell + 1] == b->colour[cell])
		lk_canvas_rect(c, x + 0.8, y + 0.36, 0.4, 0.28, &bar);
	if (y + 1 < b->height && b->piece[cell + b->width] == LK_P_SKIDDY &&
	    b->colour[cell + b->width] == b->colour[cell])
		lk_canvas_rect(c, x + 0.36, y + 0.8, 0.28, 0.4, &bar);
}

void skiddy_draw_terrain(struct lk_canvas *c, const struct lk_slide_board *b, int cell)
{
	int x = cell % b->width, y = cell / b->width;
	char name[32], label[48];
	switch (b->terrain[cell]) {
	case LK_T_BLOCK:
		if (lk_canvas_begin_symbol(c, "slide.block", "block (fixed)")) {
			lk_canvas_rect(c, 0.06, 0.06, 0.88, 0.88, &block_paint);
			lk_canvas_line(c, 0.2, 0.2, 0.8, 0.8, &dark_line);
			lk_canvas_line(c, 0.8, 0.2, 0.2, 0.8, &dark_line);
			lk_canvas_end_symbol(c);
		}
		lk_canvas_use(c, "slide.block", x, y, 0);
		break;
	case LK_T_PIT:
		if (lk_canvas_begin_symbol(c, "slide.pit", "pit (traps a piece for a move)")) {
			lk_canvas_circle(c, 0.5, 0.5, 0.4, &pit_paint);
			lk_canvas_end_symbol(c);
		}
		lk_canvas_use(c, "slide.pit", x, y, 0);
		break;
	case LK_T_EXIT: {
		int colour = b->terrain_colour[cell] % 5;
		char letter[2] = { (char)(skiddy_letters[colour] - 'a' + 'A'), 0 };
		snprintf(name, sizeof name, "slide.exit.%s", letter);
		snprintf(label, sizeof label, "%s exit", skiddy_names[colour]);
		if (lk_canvas_begin_symbol(c, name, label)) {
			struct lk_paint door = { .fill = skiddy_colours[colour], .stroke = 0xffffff,
						 .width = 0.06 };
			struct lk_paint text = slide_letter_on(skiddy_colours[colour]);
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
