/*
 * canvas.c - recording a picture (see canvas.h).
 *
 * Everything is appended to growable arrays and nothing is freed between
 * frames, so drawing a solution frame by frame allocates only while the
 * arrays still grow.
 */
#include "levelkit/canvas.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/strbuf.h"

void lk_canvas_init(struct lk_canvas *c)
{
	memset(c, 0, sizeof *c);
	c->defining = -1;
}

void lk_canvas_release(struct lk_canvas *c)
{
	for (size_t i = 0; i < c->nsymbols; i++) {
		free(c->symbols[i].name);
		free(c->symbols[i].label);
	}
	free(c->symbols);
	free(c->prims);
	free(c->sym_prims);
	free(c->paints);
	free(c->paint_ptrs);
	free(c->points);
	free(c->text);
	lk_canvas_init(c);
}

void lk_canvas_clear(struct lk_canvas *c)
{
	c->nprims = 0;
	c->layer = 0;
	c->in_board = false;
	c->defining = -1;
}

void lk_canvas_reset(struct lk_canvas *c)
{
	for (size_t i = 0; i < c->nsymbols; i++) {
		free(c->symbols[i].name);
		free(c->symbols[i].label);
	}
	c->nsymbols = 0;
	c->nsym_prims = 0;
	c->npaints = 0;
	c->npoints = 0;
	c->ntext = 0;
	c->width = c->height = 0;
	c->skip_board = false;
	lk_canvas_clear(c);
}

void lk_canvas_size(struct lk_canvas *c, int width, int height)
{
	c->width = width;
	c->height = height;
}

void lk_canvas_layer(struct lk_canvas *c, int layer)
{
	c->layer = layer < 0 ? 0 : layer >= LK_CANVAS_LAYERS ? LK_CANVAS_LAYERS - 1 : layer;
}

bool lk_canvas_begin_board(struct lk_canvas *c)
{
	if (c->skip_board)
		return false;
	c->in_board = true;
	return true;
}

void lk_canvas_end_board(struct lk_canvas *c)
{
	c->in_board = false;
}

static int32_t units(double cells)
{
	return (int32_t)floor(cells * LK_CANVAS_UNIT + 0.5);
}

static bool same_paint(const struct lk_paint *a, const struct lk_paint *b)
{
	return a->fill == b->fill && a->hollow == b->hollow && a->stroke == b->stroke &&
	       a->width == b->width && a->dashed == b->dashed && a->bold == b->bold;
}

/* The canvas's index of a paint: games pass pointers to static tables, so
 * the pointer finds it at once; a pointer is trusted only while its paint
 * is still the same. */
static uint16_t paint_index(struct lk_canvas *c, const struct lk_paint *p)
{
	for (size_t i = 0; i < c->npaints; i++)
		if (c->paint_ptrs[i] == p && same_paint(&c->paints[i], p))
			return (uint16_t)i;
	for (size_t i = 0; i < c->npaints; i++)
		if (same_paint(&c->paints[i], p))
			return (uint16_t)i;
	size_t alloc = c->paints_alloc;
	LK_ALLOC_GROW(c->paints, c->npaints + 1, alloc);
	LK_ALLOC_GROW(c->paint_ptrs, c->npaints + 1, c->paints_alloc);
	c->paints[c->npaints] = *p;
	c->paint_ptrs[c->npaints] = p;
	return (uint16_t)c->npaints++;
}

static struct lk_prim *add(struct lk_canvas *c, enum lk_prim_kind kind)
{
	struct lk_prim *p;
	if (c->defining >= 0) {
		LK_ALLOC_GROW(c->sym_prims, c->nsym_prims + 1, c->sym_prims_alloc);
		p = &c->sym_prims[c->nsym_prims++];
		c->symbols[c->defining].count++;
	} else {
		LK_ALLOC_GROW(c->prims, c->nprims + 1, c->prims_alloc);
		p = &c->prims[c->nprims++];
	}
	memset(p, 0, sizeof *p);
	p->kind = (uint8_t)kind;
	p->layer = (uint8_t)c->layer;
	p->board = c->in_board;
	return p;
}

void lk_canvas_round_rect(struct lk_canvas *c, double x, double y, double w, double h,
			  double radius, const struct lk_paint *p)
{
	int32_t ux = units(x), uy = units(y), uw = units(x + w) - ux, uh = units(y + h) - uy;
	uint16_t ref = paint_index(c, p);
	/* Runs of square cells of one paint on a row become one rectangle:
	 * walls and floor are most of a board. */
	if (c->defining < 0 && c->nprims && radius == 0) {
		struct lk_prim *last = &c->prims[c->nprims - 1];
		if (last->kind == LK_PRIM_RECT && last->ref == ref && last->layer == c->layer &&
		    last->board == c->in_board && last->v[4] == 0 && last->v[1] == uy &&
		    last->v[3] == uh && last->v[0] + last->v[2] == ux) {
			last->v[2] += uw;
			return;
		}
	}
	struct lk_prim *r = add(c, LK_PRIM_RECT);
	r->ref = ref;
	r->v[0] = ux;
	r->v[1] = uy;
	r->v[2] = uw;
	r->v[3] = uh;
	r->v[4] = units(radius);
}

void lk_canvas_rect(struct lk_canvas *c, double x, double y, double w, double h,
		    const struct lk_paint *p)
{
	lk_canvas_round_rect(c, x, y, w, h, 0, p);
}

void lk_canvas_circle(struct lk_canvas *c, double cx, double cy, double r, const struct lk_paint *p)
{
	uint16_t ref = paint_index(c, p);
	struct lk_prim *q = add(c, LK_PRIM_CIRCLE);
	q->ref = ref;
	q->v[0] = units(cx);
	q->v[1] = units(cy);
	q->v[2] = units(r);
}

void lk_canvas_poly(struct lk_canvas *c, const double *xy, int n, const struct lk_paint *p)
{
	if (n < 2)
		return;
	uint16_t ref = paint_index(c, p);
	LK_ALLOC_GROW(c->points, c->npoints + 2 * (size_t)n, c->points_alloc);
	struct lk_prim *q = add(c, LK_PRIM_POLY);
	q->ref = ref;
	q->v[0] = n;
	q->v[1] = (int32_t)c->npoints;
	for (int i = 0; i < 2 * n; i++)
		c->points[c->npoints++] = units(xy[i]);
}

void lk_canvas_line(struct lk_canvas *c, double x1, double y1, double x2, double y2,
		    const struct lk_paint *p)
{
	uint16_t ref = paint_index(c, p);
	struct lk_prim *q = add(c, LK_PRIM_LINE);
	q->ref = ref;
	q->v[0] = units(x1);
	q->v[1] = units(y1);
	q->v[2] = units(x2);
	q->v[3] = units(y2);
}

void lk_canvas_text(struct lk_canvas *c, double x, double y, double size, const struct lk_paint *p,
		    const char *text)
{
	uint16_t ref = paint_index(c, p);
	size_t n = strlen(text);
	LK_ALLOC_GROW(c->text, c->ntext + n + 1, c->text_alloc);
	struct lk_prim *q = add(c, LK_PRIM_TEXT);
	q->ref = ref;
	q->v[0] = units(x);
	q->v[1] = units(y);
	q->v[2] = units(size);
	q->text = (uint32_t)c->ntext;
	/* Only printable ASCII, and nothing the writers' encodings use as
	 * separators. */
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)text[i];
		c->text[c->ntext++] = ch >= 0x20 && ch < 0x7f && !strchr(";,<>&\"'\\", ch) ? (char)ch : '?';
	}
	c->text[c->ntext++] = '\0';
}

long lk_canvas_find_symbol(const struct lk_canvas *c, const char *name)
{
	/* Games name symbols with literals: the same pointer finds it at
	 * once (and is trusted only when the text still matches). */
	for (size_t i = 0; i < c->nsymbols; i++)
		if (c->symbols[i].given == name && strcmp(c->symbols[i].name, name) == 0)
			return (long)i;
	for (size_t i = 0; i < c->nsymbols; i++)
		if (strcmp(c->symbols[i].name, name) == 0)
			return (long)i;
	return -1;
}

bool lk_canvas_begin_symbol(struct lk_canvas *c, const char *name, const char *label)
{
	if (lk_canvas_find_symbol(c, name) >= 0)
		return false;
	LK_ALLOC_GROW(c->symbols, c->nsymbols + 1, c->symbols_alloc);
	struct lk_symbol *s = &c->symbols[c->nsymbols];
	s->name = lk_xstrdup(name);
	s->given = name;
	s->label = label ? lk_xstrdup(label) : NULL;
	s->first = c->nsym_prims;
	s->count = 0;
	s->used = false;
	c->defining = (long)c->nsymbols++;
	return true;
}

void lk_canvas_end_symbol(struct lk_canvas *c)
{
	c->defining = -1;
}

void lk_canvas_use(struct lk_canvas *c, const char *name, double x, double y, int quarter_turns)
{
	long i = lk_canvas_find_symbol(c, name);
	if (i < 0 || c->defining >= 0)
		return;   /* a game's bug; drawing nothing is the safe answer */
	c->symbols[i].used = true;
	struct lk_prim *q = add(c, LK_PRIM_USE);
	q->ref = (uint16_t)i;
	q->v[0] = units(x);
	q->v[1] = units(y);
	q->v[2] = ((quarter_turns % 4) + 4) % 4;
}

void lk_canvas_legend_only(struct lk_canvas *c, const char *name)
{
	long i = lk_canvas_find_symbol(c, name);
	if (i >= 0)
		c->symbols[i].used = true;
}
