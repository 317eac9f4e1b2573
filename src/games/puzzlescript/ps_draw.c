/*
 * ps_draw.c - a PuzzleScript map drawn as the reference engine draws it:
 * the background colour behind the level, then in every cell each object
 * it holds, by object number (collision layer by collision layer, so the
 * later layers cover the earlier ones), each its 5x5 sprite in the
 * object's colours, '.' pixels clear; an object without a sprite is one
 * square of its first colour (the reference gives it a sprite of all 0).
 *
 * Each object is a symbol (its name is the legend's label), so a page
 * defines a sprite once however many cells show it, and its pixels are
 * rectangles, a run of one colour being one rectangle.  The canvas layer
 * is the object's collision layer (up to the canvas's last), which keeps
 * the layers' order in the frames of a solution too, where things are
 * drawn in order of their first appearance within a layer.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "levelkit/canvas.h"
#include "ps_draw.h"
#include "ps_internal.h"

#define PIXEL 0.2   /* a sprite pixel, in cells */

/* The legend character that stands for exactly this object, or 0. */
static uint32_t own_glyph(const struct ps_game *g, int id)
{
	for (int i = 0; i < g->nglyphs; i++) {
		const ps_word *m = g->glyphs[i].objects;
		bool alone = ps_bit_get(m, id);
		for (int w = 0; alone && w < g->ow; w++) {
			ps_word rest = m[w];
			if (id >> 6 == w)
				rest &= ~((ps_word)1 << (id & 63));
			alone = rest == 0;
		}
		if (alone)
			return g->glyphs[i].ch;
	}
	return 0;
}

static const char *palette_of(const struct ps_game *g)
{
	return g->flags.color_palette;
}

/* The symbol's pixels: colour by colour, most pixels first (the text
 * view takes a symbol's first colour as its colour), each colour's
 * pixels as rectangles grown right, then down. */
static void sprite(struct lk_canvas *c, const struct ps_game *g, const struct ps_object *o)
{
	int count[10] = { 0 };
	uint32_t rgb[10];
	bool shown[10];
	for (int k = 0; k < 10; k++) {
		shown[k] = false;
		if (k < o->ncolors) {
			enum ps_color_kind kind = ps_color_rgb(palette_of(g), o->colors[k], &rgb[k]);
			shown[k] = kind != PS_COLOR_TRANSPARENT;
		}
	}
	if (o->ncolors == 0) {
		rgb[0] = 0xff00ff;   /* the reference's, for an object without colours */
		shown[0] = true;
	}
	for (int y = 0; y < 5; y++)
		for (int x = 0; x < 5; x++) {
			int k = o->sprite[y][x];
			if (k >= 0 && k < 10 && shown[k])
				count[k]++;
		}
	bool done[5][5] = { { false } };
	for (;;) {
		int k = -1;
		for (int i = 0; i < 10; i++)
			if (count[i] > 0 && (k < 0 || count[i] > count[k]))
				k = i;
		if (k < 0)
			break;
		count[k] = 0;
		struct lk_paint paint = { .fill = rgb[k] };
		for (int y = 0; y < 5; y++)
			for (int x = 0; x < 5; x++) {
				if (done[y][x] || o->sprite[y][x] != k)
					continue;
				int w = 1, h = 1;
				while (x + w < 5 && !done[y][x + w] && o->sprite[y][x + w] == k)
					w++;
				for (bool grow = true; grow && y + h < 5; ) {
					for (int i = 0; i < w; i++)
						grow = grow && !done[y + h][x + i] && o->sprite[y + h][x + i] == k;
					h += grow;
				}
				for (int j = 0; j < h; j++)
					for (int i = 0; i < w; i++)
						done[y + j][x + i] = true;
				lk_canvas_rect(c, x * PIXEL, y * PIXEL, w * PIXEL, h * PIXEL, &paint);
			}
	}
}

/* The symbol of an object, defined the first time; its name in name. */
static void object_symbol(struct lk_canvas *c, const struct ps_game *g, int id, char *name,
			  size_t size)
{
	const struct ps_object *o = &g->objects[id];
	snprintf(name, size, "ps.%s", o->name);
	char label[160];
	uint32_t ch = own_glyph(g, id);
	if (ch > 0x20 && ch < 0x7f)
		snprintf(label, sizeof label, "%s (%c)", o->display, (char)ch);
	else
		snprintf(label, sizeof label, "%s", o->display);
	if (lk_canvas_begin_symbol(c, name, label)) {
		sprite(c, g, o);
		lk_canvas_end_symbol(c);
	}
}

static void draw_objects(struct lk_canvas *c, const struct ps_game *g, int width, int height,
			 const uint64_t *cells, bool statics)
{
	char name[128];
	for (int id = 0; id < g->nobjects; id++) {
		const struct ps_object *o = &g->objects[id];
		if (o->layer < 0 || ps_bit_get(g->static_mask, id) != statics)
			continue;
		bool defined = false;
		lk_canvas_layer(c, o->layer);
		for (int x = 0; x < width; x++)
			for (int y = 0; y < height; y++) {
				const ps_word *cell = cells + ((size_t)x * (size_t)height + (size_t)y) * (size_t)g->ow;
				if (!ps_bit_get(cell, id))
					continue;
				if (!defined) {
					object_symbol(c, g, id, name, sizeof name);
					defined = true;
				}
				lk_canvas_use(c, name, x, y, 0);
			}
	}
}

void ps_draw_cells(const struct ps_game *g, int width, int height, const uint64_t *cells,
		   struct lk_canvas *c)
{
	lk_canvas_size(c, width, height);
	if (lk_canvas_begin_board(c)) {
		uint32_t bg = 0x000000;   /* the reference's when none is given */
		if (g->flags.background_color &&
		    ps_color_rgb(palette_of(g), g->flags.background_color, &bg) != PS_COLOR_RGB)
			bg = 0x000000;
		lk_canvas_layer(c, LK_LAYER_GROUND);
		lk_canvas_rect(c, 0, 0, width, height, &(struct lk_paint){ .fill = bg });
		draw_objects(c, g, width, height, cells, true);
		lk_canvas_end_board(c);
	}
	draw_objects(c, g, width, height, cells, false);
}
