/*
 * encode.c - the dictionary of paints and symbols, and primitives written
 * out: as the page's compact code, and as SVG elements.
 */
#include <stdlib.h>
#include <string.h>

#include "view_internal.h"

/* ------------------------------------------------------------ text bits */

static void put_int(struct lk_strbuf *out, long v)
{
	char buf[24];
	int n = 0;
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	do {
		buf[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[n++] = '-';
	lk_strbuf_grow(out, (size_t)n);
	while (n)
		out->buf[out->len++] = buf[--n];
	out->buf[out->len] = '\0';
}

void view_xml_escape(struct lk_strbuf *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': lk_strbuf_addstr(out, "&amp;"); break;
		case '<': lk_strbuf_addstr(out, "&lt;"); break;
		case '>': lk_strbuf_addstr(out, "&gt;"); break;
		case '"': lk_strbuf_addstr(out, "&quot;"); break;
		case '\'': lk_strbuf_addstr(out, "&#39;"); break;
		default:
			/* XML 1.0 allows no control characters but tab and
			 * newline. */
			lk_strbuf_addch(out, (unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? '?' : *s);
		}
	}
}

void view_json_string(struct lk_strbuf *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	lk_strbuf_addch(out, '"');
	while (*s) {
		/* a run that needs no escape, added at once */
		size_t n = 0;
		for (unsigned char ch; (ch = (unsigned char)s[n]) >= 0x20 && ch != '"' && ch != '\\' &&
				       ch != '<' && ch != '>' && ch != '&';)
			n++;
		lk_strbuf_add(out, s, n);
		s += n;
		if (!*s)
			break;
		unsigned char ch = (unsigned char)*s++;
		if (ch == '"' || ch == '\\') {
			lk_strbuf_addch(out, '\\');
			lk_strbuf_addch(out, (char)ch);
		} else if (ch == '\n') {
			lk_strbuf_addstr(out, "\\n");
		} else if (ch == '\t') {
			lk_strbuf_addstr(out, "\\t");
		} else {
			/* '<' would let "</script>" or "<!--" end or confuse
			 * the script element the data stands in */
			lk_strbuf_addstr(out, "\\u00");
			lk_strbuf_addch(out, hex[ch >> 4]);
			lk_strbuf_addch(out, hex[ch & 15]);
		}
	}
	lk_strbuf_addch(out, '"');
}

void film_put_id(struct lk_strbuf *out, size_t id, int width)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	lk_strbuf_grow(out, (size_t)width);
	for (int i = width - 1; i >= 0; i--)
		out->buf[out->len++] = digits[(id >> (6 * i)) & 63];
	out->buf[out->len] = '\0';
}

/* ------------------------------------------------------------- paints */

static void put_colour(struct lk_strbuf *out, uint32_t rgb)
{
	static const char hex[] = "0123456789abcdef";
	lk_strbuf_addch(out, '#');
	for (int shift = 20; shift >= 0; shift -= 4)
		lk_strbuf_addch(out, hex[rgb >> shift & 15]);
}

void view_paint_attrs(const struct lk_paint *p, struct lk_strbuf *out)
{
	lk_strbuf_addstr(out, "fill=\"");
	if (p->hollow)
		lk_strbuf_addstr(out, "none");
	else
		put_colour(out, p->fill);
	lk_strbuf_addch(out, '"');
	long width = (long)(p->width * LK_CANVAS_UNIT + 0.5);
	if (p->width > 0) {
		lk_strbuf_addstr(out, " stroke=\"");
		put_colour(out, p->stroke);
		lk_strbuf_addstr(out, "\" stroke-width=\"");
		if (width < 1)
			width = 1;
		put_int(out, width);
		lk_strbuf_addstr(out, "\" stroke-linecap=\"round\" stroke-linejoin=\"round\"");
		if (p->dashed) {
			lk_strbuf_addstr(out, " stroke-dasharray=\"");
			put_int(out, 3 * width);
			lk_strbuf_addch(out, ' ');
			put_int(out, 2 * width);
			lk_strbuf_addch(out, '"');
		}
	}
	if (p->bold)
		lk_strbuf_addstr(out, " font-weight=\"bold\"");
}

static bool same_paint(const struct lk_paint *a, const struct lk_paint *b)
{
	return a->fill == b->fill && a->hollow == b->hollow && a->stroke == b->stroke &&
	       a->width == b->width && a->dashed == b->dashed && a->bold == b->bold;
}

/* ---------------------------------------------------------- dictionary */

void view_dict_init(struct view_dict *d)
{
	memset(d, 0, sizeof *d);
}

void view_dict_release(struct view_dict *d)
{
	for (size_t i = 0; i < d->nsymbols; i++) {
		struct view_symbol *s = &d->symbols[i];
		free(s->key);
		free(s->name);
		free(s->label);
		free(s->code);
		free(s->svg);
	}
	free(d->symbols);
	free(d->paints);
	view_dict_init(d);
}

void view_map_init(struct view_map *m)
{
	memset(m, 0, sizeof *m);
}

void view_map_release(struct view_map *m)
{
	free(m->paint);
	free(m->symbol);
	view_map_init(m);
}

static size_t dict_paint(struct view_dict *d, const struct lk_paint *p)
{
	for (size_t i = 0; i < d->npaints; i++)
		if (same_paint(&d->paints[i], p))
			return i;
	LK_ALLOC_GROW(d->paints, d->npaints + 1, d->paints_alloc);
	d->paints[d->npaints] = *p;
	return d->npaints++;
}

static size_t dict_symbol(struct view_dict *d, const struct lk_canvas *c, const struct view_map *m,
			  const struct lk_symbol *sym)
{
	struct lk_strbuf key = LK_STRBUF_INIT, code = LK_STRBUF_INIT;
	for (size_t i = 0; i < sym->count; i++) {
		if (i)
			lk_strbuf_addch(&code, ';');
		view_encode_prim(c, &c->sym_prims[sym->first + i], m, &code);
	}
	lk_strbuf_addf(&key, "%s\n%s\n%s", sym->name, sym->label ? sym->label : "", code.buf);
	for (size_t i = 0; i < d->nsymbols; i++) {
		if (strcmp(d->symbols[i].key, key.buf) == 0) {
			lk_strbuf_release(&key);
			lk_strbuf_release(&code);
			return i;
		}
	}
	LK_ALLOC_GROW(d->symbols, d->nsymbols + 1, d->symbols_alloc);
	struct view_symbol *s = &d->symbols[d->nsymbols];
	struct lk_strbuf svg = LK_STRBUF_INIT;
	for (size_t i = 0; i < sym->count; i++)
		view_svg_prim(c, &c->sym_prims[sym->first + i], m, d, NULL, NULL, &svg);
	s->key = lk_strbuf_detach(&key, NULL);
	s->code = lk_strbuf_detach(&code, NULL);
	s->svg = lk_strbuf_detach(&svg, NULL);
	s->name = lk_xstrdup(sym->name);
	s->label = sym->label ? lk_xstrdup(sym->label) : NULL;
	return d->nsymbols++;
}

void view_map_update(struct view_map *m, struct view_dict *d, const struct lk_canvas *c)
{
	for (; m->npaints < c->npaints; m->npaints++) {
		LK_ALLOC_GROW(m->paint, m->npaints + 1, m->paints_alloc);
		m->paint[m->npaints] = dict_paint(d, &c->paints[m->npaints]);
	}
	for (; m->nsymbols < c->nsymbols; m->nsymbols++) {
		LK_ALLOC_GROW(m->symbol, m->nsymbols + 1, m->symbols_alloc);
		m->symbol[m->nsymbols] = dict_symbol(d, c, m, &c->symbols[m->nsymbols]);
	}
}

/* ------------------------------------------------------------ encoding */

static void put_ints(struct lk_strbuf *out, const int32_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			lk_strbuf_addch(out, ',');
		put_int(out, v[i]);
	}
}

void view_encode_prim(const struct lk_canvas *c, const struct lk_prim *p, const struct view_map *m,
		      struct lk_strbuf *out)
{
	switch (p->kind) {
	case LK_PRIM_RECT:
		lk_strbuf_addch(out, 'r');
		put_ints(out, p->v, 4);
		lk_strbuf_addch(out, ',');
		put_int(out, (long)m->paint[p->ref]);
		if (p->v[4]) {
			lk_strbuf_addch(out, ',');
			put_int(out, p->v[4]);
		}
		break;
	case LK_PRIM_CIRCLE:
		lk_strbuf_addch(out, 'c');
		put_ints(out, p->v, 3);
		lk_strbuf_addch(out, ',');
		put_int(out, (long)m->paint[p->ref]);
		break;
	case LK_PRIM_POLY:
		lk_strbuf_addch(out, 'p');
		put_int(out, (long)m->paint[p->ref]);
		lk_strbuf_addch(out, ',');
		put_ints(out, c->points + p->v[1], 2 * p->v[0]);
		break;
	case LK_PRIM_LINE:
		lk_strbuf_addch(out, 'l');
		put_ints(out, p->v, 4);
		lk_strbuf_addch(out, ',');
		put_int(out, (long)m->paint[p->ref]);
		break;
	case LK_PRIM_TEXT:
		lk_strbuf_addch(out, 't');
		put_ints(out, p->v, 3);
		lk_strbuf_addch(out, ',');
		put_int(out, (long)m->paint[p->ref]);
		lk_strbuf_addch(out, ',');
		lk_strbuf_addstr(out, lk_canvas_text_of(c, p));
		break;
	case LK_PRIM_USE:
		lk_strbuf_addch(out, 'u');
		put_int(out, (long)m->symbol[p->ref]);
		lk_strbuf_addch(out, ',');
		put_ints(out, p->v, 2);
		if (p->v[2]) {
			lk_strbuf_addch(out, ',');
			put_int(out, p->v[2]);
		}
		break;
	default:
		break;
	}
}

static void attr(struct lk_strbuf *out, const char *name, long v)
{
	lk_strbuf_addch(out, ' ');
	lk_strbuf_addstr(out, name);
	lk_strbuf_addstr(out, "=\"");
	put_int(out, v);
	lk_strbuf_addch(out, '"');
}

void view_svg_prim(const struct lk_canvas *c, const struct lk_prim *p, const struct view_map *m,
		   const struct view_dict *d, const char *href, const char *id_prefix,
		   struct lk_strbuf *out)
{
	const struct lk_paint *paint = p->kind == LK_PRIM_USE ? NULL : &d->paints[m->paint[p->ref]];
	switch (p->kind) {
	case LK_PRIM_RECT:
		lk_strbuf_addstr(out, "<rect");
		attr(out, "x", p->v[0]);
		attr(out, "y", p->v[1]);
		attr(out, "width", p->v[2]);
		attr(out, "height", p->v[3]);
		if (p->v[4])
			attr(out, "rx", p->v[4]);
		else   /* no hairlines between the squares of a board */
			lk_strbuf_addstr(out, " shape-rendering=\"crispEdges\"");
		break;
	case LK_PRIM_CIRCLE:
		lk_strbuf_addstr(out, "<circle");
		attr(out, "cx", p->v[0]);
		attr(out, "cy", p->v[1]);
		attr(out, "r", p->v[2]);
		break;
	case LK_PRIM_POLY:
		lk_strbuf_addstr(out, "<polygon points=\"");
		for (int i = 0; i < p->v[0]; i++) {
			if (i)
				lk_strbuf_addch(out, ' ');
			put_int(out, c->points[p->v[1] + 2 * i]);
			lk_strbuf_addch(out, ',');
			put_int(out, c->points[p->v[1] + 2 * i + 1]);
		}
		lk_strbuf_addch(out, '"');
		break;
	case LK_PRIM_LINE:
		lk_strbuf_addstr(out, "<line");
		attr(out, "x1", p->v[0]);
		attr(out, "y1", p->v[1]);
		attr(out, "x2", p->v[2]);
		attr(out, "y2", p->v[3]);
		break;
	case LK_PRIM_TEXT:
		lk_strbuf_addstr(out, "<text");
		attr(out, "x", p->v[0]);
		attr(out, "y", p->v[1]);
		attr(out, "font-size", p->v[2]);
		lk_strbuf_addstr(out, " text-anchor=\"middle\" dominant-baseline=\"central\" "
				 "font-family=\"sans-serif\" ");
		view_paint_attrs(paint, out);
		lk_strbuf_addch(out, '>');
		view_xml_escape(out, lk_canvas_text_of(c, p));
		lk_strbuf_addstr(out, "</text>");
		return;
	case LK_PRIM_USE:
		lk_strbuf_addch(out, '<');
		lk_strbuf_addstr(out, "use ");
		lk_strbuf_addstr(out, href ? href : "href");
		lk_strbuf_addstr(out, "=\"#");
		lk_strbuf_addstr(out, id_prefix ? id_prefix : "s");
		put_int(out, (long)m->symbol[p->ref]);
		lk_strbuf_addch(out, '"');
		attr(out, "x", p->v[0]);
		attr(out, "y", p->v[1]);
		if (p->v[2]) {
			lk_strbuf_addstr(out, " transform=\"rotate(");
			put_int(out, 90L * p->v[2]);
			lk_strbuf_addch(out, ' ');
			put_int(out, p->v[0] + LK_CANVAS_UNIT / 2);
			lk_strbuf_addch(out, ' ');
			put_int(out, p->v[1] + LK_CANVAS_UNIT / 2);
			lk_strbuf_addstr(out, ")\"");
		}
		lk_strbuf_addstr(out, "/>");
		return;
	default:
		return;
	}
	lk_strbuf_addch(out, ' ');
	view_paint_attrs(paint, out);
	lk_strbuf_addstr(out, "/>");
}
