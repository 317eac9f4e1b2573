/*
 * grid.c - the shared grid model: decoding rows (with optional run-length
 * encoding), writing them back, and the eight board symmetries.
 */
#include "levelkit/grid.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const int lk_dir_dx[LK_DIR_COUNT] = { 0, 1, 0, -1, 1, 1, -1, -1 };
const int lk_dir_dy[LK_DIR_COUNT] = { -1, 0, 1, 0, -1, 1, 1, -1 };
const char lk_dir_letter[4] = { 'u', 'r', 'd', 'l' };

void lk_grid_init(struct lk_grid *g, int width, int height, char fill)
{
	size_t n = (size_t)width * (size_t)height;
	g->width = width;
	g->height = height;
	g->cells = lk_xmalloc(n ? n : 1);
	memset(g->cells, fill, n);
}

void lk_grid_release(struct lk_grid *g)
{
	free(g->cells);
	g->cells = NULL;
	g->width = g->height = 0;
}

void lk_grid_copy(struct lk_grid *dst, const struct lk_grid *src)
{
	lk_grid_init(dst, src->width, src->height, ' ');
	memcpy(dst->cells, src->cells, (size_t)src->width * (size_t)src->height);
}

/* Expand one text row, honouring run lengths and '|' row breaks, into a
 * list of rows appended to *out (as a single string with '\n' between). */
static int expand_row(const char *row, bool run_length, struct lk_strbuf *out,
		      struct lk_strbuf *err)
{
	size_t len = strlen(row);
	if (len && row[len - 1] == '\r')
		len--;
	if (!run_length) {
		lk_strbuf_add(out, row, len);
		lk_strbuf_addch(out, '\n');
		return 0;
	}
	for (size_t i = 0; i < len; i++) {
		char c = row[i];
		if (c == '|') {
			lk_strbuf_addch(out, '\n');
			continue;
		}
		if (isdigit((unsigned char)c)) {
			long n = 0;
			while (i < len && isdigit((unsigned char)row[i])) {
				n = n * 10 + (row[i] - '0');
				if (n > LK_GRID_MAX_SIDE) {
					lk_strbuf_addf(err, "run length too large");
					return -1;
				}
				i++;
			}
			if (i == len || row[i] == '|') {
				lk_strbuf_addf(err, "run length %ld is not followed by a cell", n);
				return -1;
			}
			for (long k = 0; k < n; k++)
				lk_strbuf_addch(out, row[i]);
			continue;
		}
		lk_strbuf_addch(out, c);
	}
	lk_strbuf_addch(out, '\n');
	return 0;
}

int lk_grid_parse_rows(struct lk_grid *g, const char *const *rows, size_t nrows,
		       const struct lk_grid_parse *opt, struct lk_strbuf *err,
		       size_t *bad_row)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	/* Expanded rows, remembering which input row each came from so that
	 * errors point at the user's line. */
	size_t *origin = NULL, norigin = 0, alloc = 0;
	int width = 0, height = 0;

	for (size_t r = 0; r < nrows; r++) {
		size_t before = text.len;
		if (expand_row(rows[r], opt->run_length, &text, err) < 0) {
			*bad_row = r;
			goto fail;
		}
		for (size_t i = before; i < text.len; i++) {
			if (text.buf[i] != '\n')
				continue;
			LK_ALLOC_GROW(origin, norigin + 1, alloc);
			origin[norigin++] = r;
		}
	}
	/* Measure. */
	{
		size_t start = 0;
		for (size_t i = 0, row = 0; i < text.len; i++) {
			if (text.buf[i] != '\n')
				continue;
			size_t w = i - start;
			if (w > LK_GRID_MAX_SIDE) {
				lk_strbuf_addf(err, "row is wider than %d cells", LK_GRID_MAX_SIDE);
				*bad_row = origin[row];
				goto fail;
			}
			if ((int)w > width)
				width = (int)w;
			start = i + 1;
			row++;
		}
	}
	height = (int)norigin;
	if (height > LK_GRID_MAX_SIDE) {
		lk_strbuf_addf(err, "grid is taller than %d rows", LK_GRID_MAX_SIDE);
		*bad_row = origin[LK_GRID_MAX_SIDE];
		goto fail;
	}
	if (height == 0 || width == 0) {
		lk_strbuf_addf(err, "empty grid");
		*bad_row = 0;
		goto fail;
	}
	lk_grid_init(g, width, height, opt->fill);
	{
		size_t start = 0;
		int y = 0;
		for (size_t i = 0; i < text.len; i++) {
			if (text.buf[i] != '\n')
				continue;
			memcpy(g->cells + (size_t)y * (size_t)width, text.buf + start, i - start);
			start = i + 1;
			y++;
		}
	}
	free(origin);
	lk_strbuf_release(&text);
	return 0;
fail:
	free(origin);
	lk_strbuf_release(&text);
	return -1;
}

void lk_grid_write(const struct lk_grid *g, struct lk_strbuf *out, char trim_fill)
{
	for (int y = 0; y < g->height; y++) {
		const char *row = g->cells + (size_t)y * (size_t)g->width;
		int n = g->width;
		while (trim_fill && n > 0 && row[n - 1] == trim_fill)
			n--;
		lk_strbuf_add(out, row, (size_t)n);
		lk_strbuf_addch(out, '\n');
	}
}

/* Symmetry s: bit 0 = mirror x, bit 1 = mirror y, bit 2 = transpose first. */
void lk_grid_transform(struct lk_grid *dst, const struct lk_grid *src, int sym)
{
	bool transpose = sym & 4;
	int w = transpose ? src->height : src->width;
	int h = transpose ? src->width : src->height;
	lk_grid_init(dst, w, h, ' ');
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			int sx = (sym & 1) ? w - 1 - x : x;
			int sy = (sym & 2) ? h - 1 - y : y;
			if (transpose) {
				int t = sx;
				sx = sy;
				sy = t;
			}
			lk_grid_set(dst, x, y, lk_grid_get(src, sx, sy));
		}
	}
}

void lk_grid_write_trimmed(const struct lk_grid *g, struct lk_strbuf *out)
{
	int x0 = g->width, y0 = g->height, x1 = -1, y1 = -1;
	for (int y = 0; y < g->height; y++) {
		for (int x = 0; x < g->width; x++) {
			if (lk_grid_get(g, x, y) == ' ')
				continue;
			if (x < x0) x0 = x;
			if (x > x1) x1 = x;
			if (y < y0) y0 = y;
			if (y > y1) y1 = y;
		}
	}
	for (int y = y0; y <= y1; y++) {
		const char *row = g->cells + (size_t)y * (size_t)g->width;
		int end = x1 + 1;
		while (end > x0 && row[end - 1] == ' ')
			end--;
		lk_strbuf_add(out, row + x0, (size_t)(end - x0));
		lk_strbuf_addch(out, '\n');
	}
}
