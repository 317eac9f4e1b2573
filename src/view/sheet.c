/*
 * sheet.c - levels as one SVG picture: a single level with its title and
 * legend, or several as a sheet in rows with one legend.  Each record is
 * drawn as it comes (so a bad record is reported in order) and the
 * picture is written at the end, when its size is known.
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
#define LEGEND_ITEM_W (11 * U)
#define PX_PER_UNIT 1.5               /* 36 pixels a cell */

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
	const char *t = lk_record_title(rec, &title);
	LK_ALLOC_GROW(sh->items, sh->nitems + 1, sh->items_alloc);
	struct sheet_item *it = &sh->items[sh->nitems++];
	memset(it, 0, sizeof *it);
	if (t)
		it->title = lk_xstrdup(t);
	else {
		lk_strbuf_reset(&title);
		lk_strbuf_addf(&title, "record %zu", rec->number);
		it->title = lk_xstrdup(title.buf);
	}
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

static void text(struct lk_strbuf *out, long x, long y, int size, const char *anchor, const char *s,
		 size_t max_chars)
{
	lk_strbuf_addf(out, "<text x=\"%ld\" y=\"%ld\" font-size=\"%d\" font-family=\"sans-serif\" "
		       "text-anchor=\"%s\" dominant-baseline=\"central\" fill=\"#222222\">", x, y, size,
		       anchor);
	struct lk_strbuf cut = LK_STRBUF_INIT;
	size_t n = strlen(s);
	if (n > max_chars && max_chars > 3) {
		lk_strbuf_add(&cut, s, max_chars - 3);
		lk_strbuf_addstr(&cut, "...");
	} else {
		lk_strbuf_add(&cut, s, n);
	}
	view_xml_escape(out, cut.buf);
	lk_strbuf_release(&cut);
	lk_strbuf_addstr(out, "</text>\n");
}

void view_sheet_finish(struct view_sheet *sh, const struct lk_view_options *opt,
		       struct lk_strbuf *out)
{
	int slot_w = 4, slot_h = 2;
	for (size_t i = 0; i < sh->nitems; i++) {
		if (sh->items[i].width > slot_w)
			slot_w = sh->items[i].width;
		if (sh->items[i].height > slot_h)
			slot_h = sh->items[i].height;
	}
	size_t cols = 1;
	while (cols * cols < sh->nitems && cols < 8)
		cols++;
	size_t rows = sh->nitems ? (sh->nitems + cols - 1) / cols : 0;
	long cell_w = (long)slot_w * U + PAD, cell_h = (long)slot_h * U + TITLE_H + PAD;
	long width = (long)cols * cell_w + PAD;
	const char *title = opt && opt->title ? opt->title : NULL;
	long top = PAD + (title && sh->nitems > 1 ? TITLE_H + PAD / 2 : 0);
	size_t nlegend = 0;
	for (size_t i = 0; i < sh->dict.nsymbols; i++)
		nlegend += sh->in_legend[i];
	long legend_cols = width / LEGEND_ITEM_W > 0 ? width / LEGEND_ITEM_W : 1;
	if (legend_cols > (long)nlegend && nlegend)
		legend_cols = (long)nlegend;
	long legend_rows = nlegend ? ((long)nlegend + legend_cols - 1) / legend_cols : 0;
	if (legend_cols * LEGEND_ITEM_W + 2 * PAD > width)
		width = legend_cols * LEGEND_ITEM_W + 2 * PAD;
	long legend_top = top + (long)rows * cell_h;
	long height = legend_top + legend_rows * (U + PAD / 2) + PAD;

	lk_strbuf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		       "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		       "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" "
		       "viewBox=\"0 0 %ld %ld\" width=\"%.0f\" height=\"%.0f\">\n",
		       width, height, (double)width * PX_PER_UNIT, (double)height * PX_PER_UNIT);
	lk_strbuf_addstr(out, "<title>");
	/* one level: the picture is of it, named after it */
	view_xml_escape(out, sh->nitems == 1 ? sh->items[0].title : title ? title : "levelkit");
	lk_strbuf_addstr(out, "</title>\n<defs>\n");
	for (size_t i = 0; i < sh->dict.nsymbols; i++)
		lk_strbuf_addf(out, "<g id=\"s%zu\">%s</g>\n", i, sh->dict.symbols[i].svg);
	lk_strbuf_addf(out, "</defs>\n<rect width=\"%ld\" height=\"%ld\" fill=\"#ffffff\"/>\n", width,
		       height);
	if (title && sh->nitems > 1)
		text(out, width / 2, PAD + TITLE_H / 2, U * 2 / 3, "middle", title, 200);
	for (size_t i = 0; i < sh->nitems; i++) {
		const struct sheet_item *it = &sh->items[i];
		long x = PAD + (long)(i % cols) * cell_w, y = top + (long)(i / cols) * cell_h;
		if (it->body) {
			/* centred in its slot */
			long ox = x + ((long)slot_w - it->width) * U / 2;
			lk_strbuf_addf(out, "<g transform=\"translate(%ld %ld)\">\n", ox, y);
			lk_strbuf_addstr(out, it->body);
			lk_strbuf_addstr(out, "</g>\n");
		} else {
			/* the whole reason as the tooltip, the start of it shown */
			lk_strbuf_addstr(out, "<g><title>");
			view_xml_escape(out, it->note ? it->note : "not drawn");
			lk_strbuf_addstr(out, "</title>\n");
			text(out, x + cell_w / 2, y + (long)slot_h * U / 2, U / 2, "middle",
			     it->note ? it->note : "not drawn", (size_t)slot_w * 3);
			lk_strbuf_addstr(out, "</g>\n");
		}
		text(out, x + (cell_w - PAD) / 2, y + (long)slot_h * U + TITLE_H / 2, U / 2, "middle",
		     it->title, (size_t)slot_w * 3);
	}
	size_t k = 0;
	for (size_t i = 0; i < sh->dict.nsymbols; i++) {
		if (!sh->in_legend[i])
			continue;
		long x = PAD + (long)(k % (size_t)legend_cols) * LEGEND_ITEM_W;
		long y = legend_top + (long)(k / (size_t)legend_cols) * (U + PAD / 2);
		lk_strbuf_addf(out, "<use xlink:href=\"#s%zu\" x=\"%ld\" y=\"%ld\"/>\n", i, x, y);
		text(out, x + U + PAD / 2, y + U / 2, U / 2, "start", sh->dict.symbols[i].label,
		     (size_t)(LEGEND_ITEM_W - U - PAD) * 10 / 64);   /* about 6.4 units a letter */
		k++;
	}
	lk_strbuf_addstr(out, "</svg>\n");
}
