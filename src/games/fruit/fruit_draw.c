/*
 * fruit_draw.c - Fruit Dating's pieces and terrain on a canvas: fruit by
 * colour (Okabe and Ito's palette, each with its letter, so no reader
 * depends on telling colours apart), stones, mud, sleeping hedgehogs and
 * anteaters (their snout points where they look).  The board, one-way
 * borders and the order of drawing are the slide games' (slide_draw.c).
 */
#include <math.h>
#include <stdio.h>

#include "fruit.h"
#include "levelkit/canvas.h"

/* Okabe-Ito, then two more that stay apart from them. */
static const uint32_t palette[] = {
	0xe69f00, 0x56b4e9, 0x009e73, 0xf0e442, 0x0072b2, 0xd55e00, 0xcc79a7, 0x999999,
};

static const struct lk_paint mud_paint = { .fill = 0x8b5a2b };
static const struct lk_paint mud_dot = { .fill = 0x5c3a1a };
static const struct lk_paint hedgehog_paint = { .fill = 0x6b4f3a, .stroke = 0x2e2118, .width = 0.04 };
static const struct lk_paint anteater_paint = { .fill = 0xa0522d, .stroke = 0x3d1f10, .width = 0.05 };
static const struct lk_paint stone_paint = { .fill = 0xa8a8a8, .stroke = 0x555555, .width = 0.06 };
static const struct lk_paint white = { .fill = 0xffffff };

void fruit_draw_piece(struct lk_canvas *c, const struct lk_slide_board *b, int cell)
{
	int x = cell % b->width, y = cell / b->width, colour = b->colour[cell];
	char name[32], label[48], letter[2] = { 0, 0 };
	switch (b->piece[cell]) {
	case LK_P_FRUIT:
		letter[0] = (char)('a' + colour % 26);
		snprintf(name, sizeof name, "slide.fruit.%s", letter);
		snprintf(label, sizeof label, "fruit of colour %s", letter);
		if (lk_canvas_begin_symbol(c, name, label)) {
			slide_draw_coloured(c, palette[colour % 8], letter, true);
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
	default:
		return;
	}
	lk_canvas_use(c, name, x, y, 0);
}

void fruit_draw_terrain(struct lk_canvas *c, const struct lk_slide_board *b, int cell)
{
	int x = cell % b->width, y = cell / b->width;
	switch (b->terrain[cell]) {
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
	default:
		break;
	}
}
