/*
 * ansi.c - a record as coloured text for a terminal: the record's own
 * lines, its grid characters coloured from the game's drawing (each cell's
 * ground as the background, the topmost thing on it as the foreground),
 * comments dim and field names bold.  The characters are the record's, so
 * what is copied from the terminal is still the level.
 *
 * Colours are the 256 of xterm, which nearly every terminal has.
 */
#include <stdlib.h>
#include <string.h>

#include "view_internal.h"

#define NONE 0xffffffffu

/* The nearest of xterm's 6x6x6 cube and grey ramp. */
static int xterm256(uint32_t rgb)
{
	static const int level[6] = { 0, 95, 135, 175, 215, 255 };
	int c[3] = { (int)(rgb >> 16 & 255), (int)(rgb >> 8 & 255), (int)(rgb & 255) }, idx[3];
	long cube = 0;
	for (int i = 0; i < 3; i++) {
		int best = 0;
		for (int k = 1; k < 6; k++)
			if (abs(level[k] - c[i]) < abs(level[best] - c[i]))
				best = k;
		idx[i] = best;
		cube += (long)(level[best] - c[i]) * (level[best] - c[i]);
	}
	int mean = (c[0] + c[1] + c[2]) / 3, g = mean < 8 ? 0 : mean > 238 ? 23 : (mean - 8) / 10;
	int gv = 8 + 10 * g;
	long grey = 0;
	for (int i = 0; i < 3; i++)
		grey += (long)(gv - c[i]) * (gv - c[i]);
	return grey < cube ? 232 + g : 16 + 36 * idx[0] + 6 * idx[1] + idx[2];
}

static bool light(uint32_t rgb)
{
	unsigned r = rgb >> 16 & 255, g = rgb >> 8 & 255, b = rgb & 255;
	return 299 * r + 587 * g + 114 * b > 128000;
}

/* What a primitive looks like from afar: its fill, else its stroke. */
static uint32_t colour_of(const struct lk_canvas *c, const struct lk_prim *p)
{
	const struct lk_paint *paint = &c->paints[p->ref];
	return !paint->hollow ? paint->fill : paint->width > 0 ? paint->stroke : NONE;
}

static uint32_t symbol_colour(const struct lk_canvas *c, const struct lk_symbol *s)
{
	for (size_t i = 0; i < s->count; i++) {
		const struct lk_prim *p = &c->sym_prims[s->first + i];
		if (p->kind != LK_PRIM_TEXT && p->kind != LK_PRIM_LINE && colour_of(c, p) != NONE)
			return colour_of(c, p);
	}
	return NONE;
}

/* Per cell: background (ground-layer rectangles and symbols) and
 * foreground (the topmost other thing whose centre is in the cell). */
static void raster(const struct lk_canvas *c, uint32_t *bg, uint32_t *fg)
{
	int w = c->width, h = c->height, top = 0;
	for (int i = 0; i < w * h; i++)
		bg[i] = fg[i] = NONE;
	for (size_t i = 0; i < c->nprims; i++)
		top = c->prims[i].layer > top ? c->prims[i].layer : top;
	for (int layer = 0; layer <= top; layer++) {
		for (size_t i = 0; i < c->nprims; i++) {
			const struct lk_prim *p = &c->prims[i];
			if (p->layer != layer)
				continue;
			if (p->kind == LK_PRIM_RECT && layer == LK_LAYER_GROUND) {
				uint32_t col = colour_of(c, p);
				for (int y = 0; y < h; y++)
					for (int x = 0; x < w; x++) {
						long cx = (long)x * LK_CANVAS_UNIT + LK_CANVAS_UNIT / 2;
						long cy = (long)y * LK_CANVAS_UNIT + LK_CANVAS_UNIT / 2;
						if (cx >= p->v[0] && cx < p->v[0] + p->v[2] && cy >= p->v[1] &&
						    cy < p->v[1] + p->v[3] && col != NONE)
							bg[y * w + x] = col;
					}
				continue;
			}
			long cx, cy;
			uint32_t col;
			if (p->kind == LK_PRIM_USE) {
				/* marks between cells (one-way borders) have no cell */
				if (p->v[0] % LK_CANVAS_UNIT || p->v[1] % LK_CANVAS_UNIT)
					continue;
				cx = p->v[0] + LK_CANVAS_UNIT / 2;
				cy = p->v[1] + LK_CANVAS_UNIT / 2;
				col = symbol_colour(c, &c->symbols[p->ref]);
			} else if (p->kind == LK_PRIM_CIRCLE) {
				cx = p->v[0];
				cy = p->v[1];
				col = colour_of(c, p);
			} else if (p->kind == LK_PRIM_RECT) {
				cx = p->v[0] + p->v[2] / 2;
				cy = p->v[1] + p->v[3] / 2;
				col = colour_of(c, p);
			} else {
				continue;   /* lines, text and polygons say little about a cell */
			}
			long x = cx / LK_CANVAS_UNIT, y = cy / LK_CANVAS_UNIT;
			if (cx >= 0 && cy >= 0 && x < w && y < h && col != NONE) {
				/* a symbol on the ground is the cell's ground
				 * (PuzzleScript's background objects) */
				if (p->kind == LK_PRIM_USE && layer == LK_LAYER_GROUND)
					bg[y * w + x] = col;
				else
					fg[y * w + x] = col;
			}
		}
	}
}

static void put_char(struct lk_strbuf *out, char ch)
{
	unsigned char u = (unsigned char)ch;
	lk_strbuf_addch(out, u < 0x20 || u == 0x7f ? '?' : ch);
}

static void plain(struct lk_strbuf *out, const char *text)
{
	for (; *text; text++)
		put_char(out, *text);
}

/* An escape sequence, only when colouring. */
static void esc(struct lk_strbuf *out, bool colour, const char *seq)
{
	if (colour)
		lk_strbuf_addstr(out, seq);
}

void view_ansi_record(const struct lk_record *rec, const struct lk_canvas *c, bool drawn,
		      const char *description, bool colour, struct lk_strbuf *out)
{
	size_t first = 0, rows = lk_record_grid(rec, &first);
	int w = drawn && colour ? c->width : 0, h = drawn && colour ? c->height : 0;
	uint32_t *bg = lk_xmalloc((size_t)(w * h > 0 ? w * h : 1) * sizeof *bg);
	uint32_t *fg = lk_xmalloc((size_t)(w * h > 0 ? w * h : 1) * sizeof *fg);
	if (w * h > 0)
		raster(c, bg, fg);
	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *line = &rec->lines[i];
		const char *text = line->text;
		if (rows && i >= first && i < first + rows && !colour) {
			plain(out, text);
			lk_strbuf_addch(out, '\n');
		} else if (rows && i >= first && i < first + rows) {
			int y = (int)(i - first);
			/* A run-length encoded row's characters are not cells. */
			bool cells = !strpbrk(text, "0123456789|(");
			int last_bg = -1, last_fg = -1;
			for (int x = 0; text[x]; x++) {
				uint32_t b = NONE, f = NONE;
				if (cells && y < h && x < w) {
					b = bg[y * w + x];
					f = fg[y * w + x];
				}
				if (f == NONE && b != NONE)
					f = light(b) ? 0x777777 : 0xbbbbbb;
				int bi = b == NONE ? -1 : xterm256(b), fi = f == NONE ? -1 : xterm256(f);
				if (bi != last_bg || fi != last_fg) {
					lk_strbuf_addstr(out, "\033[0m");
					if (bi >= 0)
						lk_strbuf_addf(out, "\033[48;5;%dm", bi);
					if (fi >= 0)
						lk_strbuf_addf(out, "\033[1;38;5;%dm", fi);
					last_bg = bi;
					last_fg = fi;
				}
				put_char(out, text[x]);
			}
			lk_strbuf_addstr(out, "\033[0m\n");
		} else if (line->kind == LK_LINE_COMMENT) {
			esc(out, colour, "\033[2m");
			plain(out, text);
			esc(out, colour, "\033[0m");
			lk_strbuf_addch(out, '\n');
		} else if (line->kind == LK_LINE_FIELD || line->kind == LK_LINE_TITLE) {
			size_t n = line->kind == LK_LINE_FIELD ? line->name_len : strlen(text);
			esc(out, colour, "\033[1m");
			for (size_t k = 0; k < n; k++)
				put_char(out, text[k]);
			esc(out, colour, "\033[0m");
			plain(out, text + n);
			lk_strbuf_addch(out, '\n');
		} else {
			plain(out, text);
			lk_strbuf_addch(out, '\n');
		}
	}
	/* comment lines, so that what is copied is still a record */
	for (const char *s = description; s && *s;) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		esc(out, colour, "\033[2m");
		lk_strbuf_addstr(out, "; ");
		for (size_t k = 0; k < n; k++)
			put_char(out, s[k]);
		esc(out, colour, "\033[0m");
		lk_strbuf_addch(out, '\n');
		s += n + (nl != NULL);
	}
	lk_strbuf_addch(out, '\n');
	free(bg);
	free(fg);
}
