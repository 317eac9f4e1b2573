/*
 * comb_draw.c - Combination drawn on a canvas: empty squares, walls and
 * holes, and for a placement (a solution text) the pieces and their rays.
 *
 * A piece's kind is its shape (rook a square, bishop a diamond, queen an
 * octagon) and its colour is a fill and a letter, so that colours need
 * not be told apart by hue.  Rays are drawn from every piece along the
 * directions it attacks, up to the first wall, edge or piece, in the
 * piece's colour: in a solution no ray ends on a piece of another colour
 * that it attacks.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comb.h"
#include "levelkit/canvas.h"

static const struct lk_paint wall_paint = { .fill = 0x4d4d5c };
static const struct lk_paint floor_paint = { .fill = 0xebe6d7 };
static const struct lk_paint hole_paint = { .fill = 0x2b2b35, .stroke = 0x8a8a99, .width = 0.05 };
static const struct lk_paint ray_legend = { .stroke = 0x555555, .width = 0.06, .dashed = true };

static const struct {
	const char *name;
	uint32_t rgb;
} named[] = {
	{ "red", 0xd55e00 }, { "blue", 0x0072b2 }, { "green", 0x009e73 }, { "yellow", 0xf0e442 },
	{ "orange", 0xe69f00 }, { "purple", 0xcc79a7 }, { "pink", 0xcc79a7 }, { "sky", 0x56b4e9 },
	{ "cyan", 0x56b4e9 }, { "black", 0x222222 }, { "white", 0xffffff }, { "grey", 0x999999 },
	{ "gray", 0x999999 }, { "brown", 0x8b5a2b },
};
static const uint32_t palette[] = { 0xd55e00, 0x0072b2, 0x009e73, 0xf0e442,
				    0xe69f00, 0xcc79a7, 0x56b4e9, 0x999999 };

static uint32_t colour_rgb(const struct comb_level *s, int colour)
{
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		if (strcmp(s->colour_names[colour], named[i].name) == 0)
			return named[i].rgb;
	return palette[colour % 8];
}

/* The colour's initial, or its number when two colours share an initial. */
static void colour_letter(const struct comb_level *s, int colour, char out[12])
{
	char first = (char)toupper((unsigned char)s->colour_names[colour][0]);
	bool shared = !isalnum((unsigned char)first);
	for (int c = 0; c < s->ncolours; c++)
		shared |= c != colour && toupper((unsigned char)s->colour_names[c][0]) == first;
	if (shared)
		snprintf(out, 12, "%d", colour + 1);
	else
		snprintf(out, 12, "%c", first);
}

static bool light(uint32_t rgb)
{
	unsigned r = rgb >> 16 & 255, g = rgb >> 8 & 255, b = rgb & 255;
	return 299 * r + 587 * g + 114 * b > 128000;
}

static const char *const kind_names[] = { "rook", "bishop", "queen" };

static void type_name(const struct comb_level *s, int t, char *name, size_t n)
{
	snprintf(name, n, "comb.%d.%s", s->types[t].colour, kind_names[s->types[t].kind]);
}

static void define_type(struct lk_canvas *c, const struct comb_level *s, int t)
{
	char name[48], label[80], letter[12];
	const struct comb_type *ty = &s->types[t];
	type_name(s, t, name, sizeof name);
	snprintf(label, sizeof label, "%.40s %s", s->colour_names[ty->colour], kind_names[ty->kind]);
	if (!lk_canvas_begin_symbol(c, name, label))
		return;
	uint32_t rgb = colour_rgb(s, ty->colour);
	struct lk_paint body = { .fill = rgb, .stroke = 0x111111, .width = 0.05 };
	struct lk_paint text = { .fill = light(rgb) ? 0x000000 : 0xffffff, .bold = true };
	static const double diamond[] = { 0.5, 0.08, 0.92, 0.5, 0.5, 0.92, 0.08, 0.5 };
	static const double octagon[] = { 0.34, 0.1, 0.66, 0.1, 0.9, 0.34, 0.9, 0.66,
					  0.66, 0.9, 0.34, 0.9, 0.1, 0.66, 0.1, 0.34 };
	if (ty->kind == COMB_ROOK)
		lk_canvas_rect(c, 0.16, 0.16, 0.68, 0.68, &body);
	else if (ty->kind == COMB_BISHOP)
		lk_canvas_poly(c, diamond, 4, &body);
	else
		lk_canvas_poly(c, octagon, 8, &body);
	colour_letter(s, ty->colour, letter);
	lk_canvas_text(c, 0.5, 0.52, 0.42, &text, letter);
	lk_canvas_end_symbol(c);
}

/* The placement's type at each cell (-1 none), as far as it reads. */
static void read_placement(const struct comb_level *s, const char *placement, int *type_at)
{
	int x = 0, y = 0;
	for (int i = 0; i < s->width * s->height; i++)
		type_at[i] = -1;
	for (const char *p = placement; *p && y < s->height; p++) {
		if (*p == '/') {
			x = 0;
			y++;
			continue;
		}
		int t = comb_char_type(*p);
		if (x < s->width && t >= 0 && t < s->ntypes && s->cells[y * s->width + x] == '.')
			type_at[y * s->width + x] = t;
		x++;
	}
}

static void rays(struct lk_canvas *c, const struct comb_level *s, const int *type_at, int cell)
{
	const struct comb_type *ty = &s->types[type_at[cell]];
	int x0 = cell % s->width, y0 = cell / s->width;
	struct lk_paint ray = { .stroke = colour_rgb(s, ty->colour), .width = 0.06, .dashed = true };
	for (int d = 0; d < LK_DIR_COUNT; d++) {
		if (!comb_attacks(ty->kind, comb_axis(d)))
			continue;
		int dx = lk_dir_dx[d], dy = lk_dir_dy[d], k = 1;
		double end = 0;
		for (;; k++) {
			int x = x0 + k * dx, y = y0 + k * dy;
			if (x < 0 || y < 0 || x >= s->width || y >= s->height ||
			    s->cells[y * s->width + x] == '#') {
				end = k - 0.5;   /* to the wall's face */
				break;
			}
			if (type_at[y * s->width + x] >= 0) {
				end = k - 0.34;  /* to the piece it meets */
				break;
			}
		}
		if (end <= 0.5)
			continue;
		lk_canvas_line(c, x0 + 0.5 + 0.34 * dx, y0 + 0.5 + 0.34 * dy, x0 + 0.5 + end * dx,
			       y0 + 0.5 + end * dy, &ray);
	}
}

void comb_draw(const struct lk_level *level, const void *key, const char *placement,
	       struct lk_canvas *c)
{
	(void)key;
	const struct comb_level *s = (const struct comb_level *)level;
	int n = s->width * s->height;
	lk_canvas_size(c, s->width, s->height);
	if (lk_canvas_begin_board(c)) {
		lk_canvas_layer(c, LK_LAYER_GROUND);
		for (int i = 0; i < n; i++)
			lk_canvas_rect(c, i % s->width, i / s->width, 1, 1,
				       s->cells[i] == '#' ? &wall_paint : &floor_paint);
		lk_canvas_layer(c, LK_LAYER_MARKS);
		for (int i = 0; i < n; i++) {
			if (s->cells[i] != 'o')
				continue;
			if (lk_canvas_begin_symbol(c, "comb.hole", "hole (no piece; rays pass over)")) {
				lk_canvas_circle(c, 0.5, 0.5, 0.3, &hole_paint);
				lk_canvas_end_symbol(c);
			}
			lk_canvas_use(c, "comb.hole", i % s->width, i / s->width, 0);
		}
		lk_canvas_end_board(c);
	}
	if (!placement)
		return;
	int *type_at = lk_xmalloc((size_t)(n ? n : 1) * sizeof *type_at);
	read_placement(s, placement, type_at);
	lk_canvas_layer(c, LK_LAYER_MARKS);
	bool any = false;
	for (int i = 0; i < n; i++) {
		if (type_at[i] >= 0) {
			rays(c, s, type_at, i);
			any = true;
		}
	}
	if (any && lk_canvas_begin_symbol(c, "comb.ray", "ray: where a piece attacks")) {
		lk_canvas_line(c, 0.1, 0.5, 0.9, 0.5, &ray_legend);
		lk_canvas_end_symbol(c);
		lk_canvas_legend_only(c, "comb.ray");
	}
	lk_canvas_layer(c, LK_LAYER_PIECES);
	for (int i = 0; i < n; i++) {
		if (type_at[i] < 0)
			continue;
		char name[48];
		define_type(c, s, type_at[i]);
		type_name(s, type_at[i], name, sizeof name);
		lk_canvas_use(c, name, i % s->width, i / s->width, 0);
	}
	free(type_at);
}
