/*
 * ps_map.c - a map read from rows of a game's legend characters, outside
 * the script's LEVELS section: a level record's grid (a level piped in,
 * changed by the transformer, or written by gen).  It is read as the
 * compiler reads the script's maps: a row shorter than the first repeats
 * its last character, and cells with no background object get the first
 * background found.
 */
#include <stdlib.h>
#include <string.h>

#include "ps.h"
#include "ps_internal.h"
#include "ps_game.h"
#include "ps_unicode.h"

/* The objects a legend character stands for, or NULL: legend names are
 * case-insensitive, as in the script's own maps. */
static const ps_word *glyph_of(const struct ps_game *g, uint32_t cp)
{
	uint32_t lc = ps_lower(cp);
	for (int k = 0; k < g->nglyphs; k++)
		if (ps_lower(g->glyphs[k].ch) == lc)
			return g->glyphs[k].objects;
	return NULL;
}

/* The code points of a row; returns how many (at most max). */
static size_t decode_row(const char *row, uint32_t *out, size_t max)
{
	/* trimmed, as the reference trims a map's lines: a record may indent
	 * rows that would not read as grid lines (ps_rows_indent) */
	row += strspn(row, " \t");
	size_t n = 0, len = strlen(row);
	while (len > 0 && (row[len - 1] == ' ' || row[len - 1] == '\t'))
		len--;
	const unsigned char *s = (const unsigned char *)row;
	while (len > 0 && n < max) {
		size_t used = 1;
		uint32_t cp = ps_utf8_decode(s, len, &used);
		if (used == 0)
			used = 1;
		out[n++] = cp;
		s += used;
		len -= used;
	}
	return n;
}

/* Give every cell without a background object the first one found. */
static void fill_background(const struct ps_game *g, struct ps_level *lv)
{
	size_t n = (size_t)lv->width * (size_t)lv->height, ow = (size_t)g->ow;
	if (g->background_layer < 0)
		return;
	const ps_word *bgm = g->layer_masks + (size_t)g->background_layer * ow;
	ps_word *fill = lk_xcalloc(ow, sizeof *fill);
	bool found = false;
	for (size_t i = 0; i < n && !found; i++) {
		const ps_word *cell = lv->cells + i * ow;
		if (ps_bits_any(cell, bgm, (int)ow)) {
			for (size_t w = 0; w < ow; w++)
				fill[w] = cell[w] & bgm[w];
			found = true;
		}
	}
	if (!found && g->background_id >= 0)
		ps_bit_set(fill, g->background_id);
	for (size_t i = 0; i < n; i++) {
		ps_word *cell = lv->cells + i * ow;
		if (!ps_bits_any(cell, bgm, (int)ow))
			for (size_t w = 0; w < ow; w++)
				cell[w] |= fill[w];
	}
	free(fill);
}

struct ps_level *ps_map_parse(const struct ps_game *g, const char *const *rows, size_t nrows,
			      struct lk_strbuf *err, size_t *bad_row)
{
	*bad_row = 0;
	if (nrows == 0 || !rows[0][0]) {
		lk_strbuf_addstr(err, "the level has no rows");
		return NULL;
	}
	size_t width = strlen(rows[0]);
	uint32_t *cps = lk_xmalloc((width + 1) * sizeof *cps);
	width = decode_row(rows[0], cps, width);
	if (width > 1000 || nrows > 1000) {
		lk_strbuf_addstr(err, "the level is larger than 1000 cells a side");
		free(cps);
		return NULL;
	}
	struct ps_level *lv = lk_xcalloc(1, sizeof *lv);
	lv->width = (int)width;
	lv->height = (int)nrows;
	size_t ow = (size_t)g->ow, n = width * nrows;
	lv->cells = lk_xcalloc(n * ow, sizeof(ps_word));
	for (size_t y = 0; y < nrows; y++) {
		size_t rl = decode_row(rows[y], cps, width);
		for (size_t x = 0; x < width; x++) {
			uint32_t cp = x < rl ? cps[x] : rl ? cps[rl - 1] : 0;
			const ps_word *objs = glyph_of(g, cp);
			if (!objs) {
				lk_strbuf_addstr(err, "symbol '");
				ps_utf8_put(err, cp);
				lk_strbuf_addstr(err, "' is not a legend character of the game that can "
					      "be used in a map");
				*bad_row = y + 1;
				free(cps);
				ps_map_free(lv);
				return NULL;
			}
			ps_word *cell = lv->cells + (x * nrows + y) * ow;
			for (size_t w = 0; w < ow; w++)
				cell[w] |= objs[w];
		}
	}
	free(cps);
	fill_background(g, lv);
	size_t slots = n * (size_t)g->nlayers + 1;
	lv->slot_cell = lk_xcalloc(slots, sizeof(int));
	lv->slot_layer = lk_xcalloc(slots, sizeof(int));
	ps_level_layout(g, lv);
	return lv;
}

void ps_map_free(struct ps_level *lv)
{
	if (!lv)
		return;
	free(lv->cells);
	free(lv->slot_cell);
	free(lv->slot_layer);
	free(lv);
}

int ps_map_width(const struct ps_level *lv)
{
	return lv->width;
}

int ps_map_height(const struct ps_level *lv)
{
	return lv->height;
}

size_t ps_map_key_size(const struct ps_level *lv)
{
	return lv->key_size;
}

const uint64_t *ps_map_cells(const struct ps_level *lv)
{
	return lv->cells;
}

bool ps_map_key_won(const struct ps_level *lv, const void *key)
{
	size_t b = lv->key_bits - 1;
	return (((const unsigned char *)key)[b / 8] >> (b % 8)) & 1;
}
