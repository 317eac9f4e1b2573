/*
 * sheet.c - levels as one SVG picture: a single level with its title and
 * legend, or several as a sheet with one legend.  Each record is drawn as
 * it comes (so a bad record is reported in order) and the picture is
 * written at the end, when its size is known.
 *
 * The sheet is a wrapping grid sized to the levels, not to the largest
 * one: levels fill rows of a bounded width, each row as tall as its
 * tallest level, and every level stands on the row's line with its
 * caption right under it (a small level's caption is not a row away).  A
 * caption too long for its place is shortened in the middle, so that the
 * end that tells levels apart ("... #17") survives; the whole title is
 * the group's tooltip.
 *
 * The SVG is plain SVG 1.1 (xlink:href, presentation attributes, no CSS),
 * which every viewer and converter reads.
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/csp.h"
#include "levelkit/game.h"
#include "levelkit/registry.h"
#include "view_internal.h"

#define U LK_CANVAS_UNIT
#define PAD (U / 2)
#define TITLE_H U                     /* a title line under a level */
#define CAPTION_SIZE (U / 2)          /* the captions' font size */
/* An estimate of a sans-serif letter's width at CAPTION_SIZE, on the
 * wide side (0.6 em), so that a caption never runs into its neighbour. */
#define CAPTION_CHAR_W (CAPTION_SIZE * 6 / 10)
#define CAPTION_MAX_W (14 * U)        /* a caption may be wider than its level, to here */
#define NOTE_W (6 * U)               /* a level that could not be drawn: its note */
#define NOTE_H (3 * U)
#define LEGEND_ITEM_W (11 * U)
#define SHEET_MAX_W 1600              /* units: the widest a sheet's rows grow */
#define PX_PER_UNIT 1.5               /* 36 pixels a cell, less for a wide sheet */
#define MAX_PX_W 1600.0               /* the picture's width in pixels, at most */

struct sheet_item {
	char *title;
	char *body;                       /* SVG elements at the origin */
	int width, height;                /* cells; 0 when not drawn */
	char *note;                       /* why it is not drawn */
};

struct view_sheet {
	struct view_dict dict;
	struct lk_canvas canvas;
	struct sheet_item *items;
	size_t nitems, items_alloc;
	bool *in_legend;                  /* per dictionary symbol */
	size_t legend_n, legend_alloc;
};

struct view_sheet *view_sheet_new(void)
{
	struct view_sheet *sh = lk_xcalloc(1, sizeof *sh);
	view_dict_init(&sh->dict);
	lk_canvas_init(&sh->canvas);
	return sh;
}

void view_sheet_free(struct view_sheet *sh)
{
	if (!sh)
		return;
	for (size_t i = 0; i < sh->nitems; i++) {
		free(sh->items[i].title);
		free(sh->items[i].body);
		free(sh->items[i].note);
	}
	free(sh->items);
	free(sh->in_legend);
	lk_canvas_release(&sh->canvas);
	view_dict_release(&sh->dict);
	free(sh);
}

void view_svg_body(const struct lk_canvas *c, const struct view_map *m, const struct view_dict *d,
		   int32_t ox, int32_t oy, struct lk_strbuf *out)
{
	lk_strbuf_addf(out, "<g transform=\"translate(%ld %ld)\">\n", (long)ox, (long)oy);
	/* most games use a few of the layers: pass over the used ones only */
	int top = 0;
	for (size_t i = 0; i < c->nprims; i++)
		top = c->prims[i].layer > top ? c->prims[i].layer : top;
	for (int layer = 0; layer <= top; layer++) {
		for (size_t i = 0; i < c->nprims; i++) {
			if (c->prims[i].layer != layer)
				continue;
			view_svg_prim(c, &c->prims[i], m, d, "xlink:href", "s", out);
			lk_strbuf_addch(out, '\n');
		}
	}
	lk_strbuf_addstr(out, "</g>\n");
}

/* Draw a record: its start, or a constraint game's placement when the
 * record has a solution (the empty grid alone shows little of it). */
static int draw(struct lk_canvas *c, const struct lk_record *rec, struct lk_strbuf *err)
{
	const struct lk_game *game = lk_game_find(lk_record_game(rec));
	const char *solution = lk_record_get(rec, "solution");
	if (!game || !game->csp || !solution || !game->draw)
		return lk_view_draw_record(rec, c, err);
	struct lk_level_options opt = { 0 };
	size_t line;
	struct lk_level *level = lk_level_load(rec, &opt, err, &line);
	if (!level)
		return -1;
	lk_canvas_reset(c);
	game->draw(level, NULL, solution, c);
	lk_level_free(level);
	return 0;
}

void view_sheet_add(struct view_sheet *sh, const struct lk_record *rec)
{
	if (!lk_record_grid(rec, NULL))
		return;   /* a pack header is not a picture */
	struct lk_strbuf title = LK_STRBUF_INIT, err = LK_STRBUF_INIT, body = LK_STRBUF_INIT;
	LK_ALLOC_GROW(sh->items, sh->nitems + 1, sh->items_alloc);
	struct sheet_item *it = &sh->items[sh->nitems++];
	memset(it, 0, sizeof *it);
	it->title = lk_xstrdup(view_record_title(rec, &title));
	if (draw(&sh->canvas, rec, &err) < 0) {
		it->note = lk_xstrdup(err.buf);
	} else {
		struct view_map m;
		view_map_init(&m);
		view_map_update(&m, &sh->dict, &sh->canvas);
		view_svg_body(&sh->canvas, &m, &sh->dict, 0, 0, &body);
		it->body = lk_strbuf_detach(&body, NULL);
		it->width = sh->canvas.width;
		it->height = sh->canvas.height;
		LK_ALLOC_GROW(sh->in_legend, sh->dict.nsymbols, sh->legend_alloc);
		for (; sh->legend_n < sh->dict.nsymbols; sh->legend_n++)
			sh->in_legend[sh->legend_n] = false;
		for (size_t i = 0; i < sh->canvas.nsymbols; i++) {
			const struct lk_symbol *s = &sh->canvas.symbols[i];
			if (s->used && s->label)
				sh->in_legend[m.symbol[i]] = true;
		}
		view_map_release(&m);
	}
	lk_strbuf_release(&title);
	lk_strbuf_release(&err);
	lk_strbuf_release(&body);
}

/* Characters (UTF-8 code points) of s[0, n). */
static size_t utf8_chars(const char *s, size_t n)
{
	size_t chars = 0;
	for (size_t i = 0; i < n; i++)
		chars += ((unsigned char)s[i] & 0xc0) != 0x80;
	return chars;
}

/* The byte offset of character k of s (k <= its characters). */
static size_t utf8_offset(const char *s, size_t k)
{
	size_t i = 0;
	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (k == 0)
				return i;
			k--;
		}
	}
	return i;
}

void view_middle_cut(const char *s, size_t max_chars, struct lk_strbuf *out)
{
	size_t n = strlen(s), chars = utf8_chars(s, n);
	if (chars <= max_chars || max_chars < 3) {
		lk_strbuf_add(out, s, n);
		return;
	}
	/* the end tells levels of a pack apart: it keeps the larger part */
	size_t keep = max_chars - 1, head = keep * 2 / 5, tail = keep - head;
	lk_strbuf_add(out, s, utf8_offset(s, head));
	lk_strbuf_addstr(out, "\xe2\x80\xa6");   /* … */
	lk_strbuf_addstr(out, s + utf8_offset(s, chars - tail));
}

static void text(struct lk_strbuf *out, long x, long y, int size, const char *anchor, const char *s,
		 size_t max_chars)
{
	lk_strbuf_addf(out, "<text x=\"%ld\" y=\"%ld\" font-size=\"%d\" font-family=\"sans-serif\" "
		       "text-anchor=\"%s\" dominant-baseline=\"central\" fill=\"#222222\">", x, y, size,
		       anchor);
	struct lk_strbuf cut = LK_STRBUF_INIT;
	view_middle_cut(s, max_chars, &cut);
	view_xml_escape(out, cut.buf);
	lk_strbuf_release(&cut);
	lk_strbuf_addstr(out, "</text>\n");
}

/* Where a level stands on the sheet: its place (x, y: the top left of
 * its box, units), the box's width, and its row's height. */
struct place {
	long x, y, w, h;        /* the item's box: the level, then its caption */
	long pic_w, pic_h;      /* the level's picture (or its note) */
};

static long caption_width(const char *title)
{
	return (long)utf8_chars(title, strlen(title)) * CAPTION_CHAR_W + PAD;
}

/* Rows of a bounded width, each as tall as its tallest item; every item
 * stands on its row's line (its caption right under it) and is centred in
 * its box.  Returns the width of the widest row. */
static long layout(const struct view_sheet *sh, struct place *pl, size_t nlegend, long top,
		   long *bottom)
{
	/* the legend's room counts, so that a long legend is not one column */
	long area = (long)nlegend * LEGEND_ITEM_W * (U + PAD / 2), widest = 0;
	for (size_t i = 0; i < sh->nitems; i++) {
		const struct sheet_item *it = &sh->items[i];
		struct place *p = &pl[i];
		p->pic_w = it->body ? (long)it->width * U : NOTE_W;
		p->pic_h = it->body ? (long)it->height * U : NOTE_H;
		long cap = caption_width(it->title), cap_max = CAPTION_MAX_W;
		if (cap_max < p->pic_w)
			cap_max = p->pic_w;
		p->w = p->pic_w > cap ? p->pic_w : cap < cap_max ? cap : cap_max;
		p->h = p->pic_h + TITLE_H;
		area += (p->w + PAD) * (p->h + PAD);
		widest = p->w > widest ? p->w : widest;
	}
	/* a sheet about as wide as it is tall, within bounds */
	long want = 4 * U;
	while (want * want < area)
		want += U;
	if (want > SHEET_MAX_W)
		want = SHEET_MAX_W;
	if (want < widest + PAD)
		want = widest + PAD;
	long width = 0, y = top;
	for (size_t i = 0; i < sh->nitems;) {
		size_t end = i;
		long x = PAD, row_h = 0;
		while (end < sh->nitems && (end == i || x + pl[end].w + PAD <= want)) {
			pl[end].x = x;
			x += pl[end].w + PAD;
			row_h = pl[end].h > row_h ? pl[end].h : row_h;
			end++;
		}
		for (size_t k = i; k < end; k++)
			pl[k].y = y + row_h - pl[k].h;   /* on the row's line */
		width = x > width ? x : width;
		y += row_h + PAD;
		i = end;
	}
	*bottom = y;
	return width;
}

void view_sheet_finish(struct view_sheet *sh, const struct lk_view_options *opt,
		       struct lk_strbuf *out)
{
	const char *title = opt && opt->title ? opt->title : NULL;
	long top = PAD + (title && sh->nitems > 1 ? TITLE_H + PAD / 2 : 0);
	struct place *pl = lk_xcalloc(sh->nitems ? sh->nitems : 1, sizeof *pl);
	size_t nlegend = 0;
	for (size_t i = 0; i < sh->dict.nsymbols; i++)
		nlegend += sh->in_legend[i];
	long legend_top;
	long width = layout(sh, pl, nlegend, top, &legend_top);
	if (width < 4 * U)
		width = 4 * U;
	long legend_cols = width / LEGEND_ITEM_W > 0 ? width / LEGEND_ITEM_W : 1;
	if (legend_cols > (long)nlegend && nlegend)
		legend_cols = (long)nlegend;
	long legend_rows = nlegend ? ((long)nlegend + legend_cols - 1) / legend_cols : 0;
	if (legend_cols * LEGEND_ITEM_W + 2 * PAD > width)
		width = legend_cols * LEGEND_ITEM_W + 2 * PAD;
	long height = legend_top + legend_rows * (U + PAD / 2) + PAD / 2;
	double px = PX_PER_UNIT;
	if ((double)width * px > MAX_PX_W)
		px = MAX_PX_W / (double)width;

	lk_strbuf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		       "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		       "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" "
		       "viewBox=\"0 0 %ld %ld\" width=\"%.0f\" height=\"%.0f\">\n",
		       width, height, (double)width * px, (double)height * px);
	lk_strbuf_addstr(out, "<title>");
	/* one level: the picture is of it, named after it */
	view_xml_escape(out, sh->nitems == 1 ? sh->items[0].title : title ? title : "levelkit");
	lk_strbuf_addstr(out, "</title>\n<defs>\n");
	for (size_t i = 0; i < sh->dict.nsymbols; i++)
		lk_strbuf_addf(out, "<g id=\"s%zu\">%s</g>\n", i, sh->dict.symbols[i].svg);
	lk_strbuf_addf(out, "</defs>\n<rect width=\"%ld\" height=\"%ld\" fill=\"#ffffff\"/>\n", width,
		       height);
	if (title && sh->nitems > 1)
		text(out, width / 2, PAD + TITLE_H / 2, U * 2 / 3, "middle", title,
		     (size_t)(width / (U * 2 / 3 * 6 / 10)));
	for (size_t i = 0; i < sh->nitems; i++) {
		const struct sheet_item *it = &sh->items[i];
		const struct place *p = &pl[i];
		/* a level and its caption are one group, the whole title its
		 * tooltip; the picture is centred over its caption */
		lk_strbuf_addf(out, "<g class=\"level\" transform=\"translate(%ld %ld)\">\n<title>",
			       p->x, p->y);
		view_xml_escape(out, it->title);
		lk_strbuf_addstr(out, "</title>\n");
		long ox = (p->w - p->pic_w) / 2;
		if (it->body) {
			lk_strbuf_addf(out, "<g transform=\"translate(%ld 0)\">\n", ox);
			lk_strbuf_addstr(out, it->body);
			lk_strbuf_addstr(out, "</g>\n");
		} else {
			/* the start of the reason shown, the whole of it on hover */
			lk_strbuf_addstr(out, "<g><title>");
			view_xml_escape(out, it->note ? it->note : "not drawn");
			lk_strbuf_addstr(out, "</title>\n");
			lk_strbuf_addf(out, "<rect x=\"%ld\" y=\"0\" width=\"%ld\" height=\"%ld\" "
				       "fill=\"#f4f0e6\" stroke=\"#d8d4c8\"/>\n", ox, p->pic_w, p->pic_h);
			text(out, p->w / 2, p->pic_h / 2, CAPTION_SIZE, "middle",
			     it->note ? it->note : "not drawn", (size_t)(p->pic_w / CAPTION_CHAR_W));
			lk_strbuf_addstr(out, "</g>\n");
		}
		text(out, p->w / 2, p->pic_h + TITLE_H / 2, CAPTION_SIZE, "middle", it->title,
		     (size_t)(p->w / CAPTION_CHAR_W));
		lk_strbuf_addstr(out, "</g>\n");
	}
	free(pl);
	size_t k = 0;
	for (size_t i = 0; i < sh->dict.nsymbols; i++) {
		if (!sh->in_legend[i])
			continue;
		long x = PAD + (long)(k % (size_t)legend_cols) * LEGEND_ITEM_W;
		long y = legend_top + (long)(k / (size_t)legend_cols) * (U + PAD / 2);
		lk_strbuf_addf(out, "<use xlink:href=\"#s%zu\" x=\"%ld\" y=\"%ld\"/>\n", i, x, y);
		text(out, x + U + PAD / 2, y + U / 2, CAPTION_SIZE, "start", sh->dict.symbols[i].label,
		     (size_t)(LEGEND_ITEM_W - U - PAD) * 10 / 64);   /* about 6.4 units a letter */
		k++;
	}
	lk_strbuf_addstr(out, "</svg>\n");
}
