/*
 * ps_level.c - a game's levels: maps read through the legend (with the
 * reference's background fill), the legend characters kept for writing a
 * state back in the game's own characters, and the packed key layout
 * (which collision layers can change, and how many bits each needs).
 */
#include <string.h>

#include "levelkit/bits.h"
#include "ps_compile.h"
#include "ps_unicode.h"

static void fill_from_glyph(const struct ps_game *g, const int *glyph, ps_word *cell)
{
	for (int l = 0; l < g->nlayers; l++)
		if (glyph[l] >= 0)
			ps_bit_set(cell, glyph[l]);
}

static int read_map(struct ps_ctx *c, const struct ps_plevel *pl, struct ps_level *lv)
{
	struct ps_game *g = c->g;
	int ow = g->ow;
	lv->width = (int)pl->rowlen[0];
	lv->height = (int)pl->nrows;
	lv->line = pl->line;
	size_t n = (size_t)lv->width * (size_t)lv->height;
	lv->cells = ps_keep_words(c, n * (size_t)ow);
	struct lk_strbuf ch = LK_STRBUF_INIT;
	for (int x = 0; x < lv->width; x++)
		for (int y = 0; y < lv->height; y++) {
			const uint32_t *row = pl->rows[y];
			size_t rl = pl->rowlen[y];
			uint32_t cp = (size_t)x < rl ? row[x] : rl ? row[rl - 1] : 0;
			lk_strbuf_reset(&ch);
			if (cp)
				ps_utf8_put(&ch, cp);
			int sym = ps_sym_find(c->syms, ch.buf);
			const int *glyph = sym >= 0 && sym < c->nsyms ? c->glyph[sym] : NULL;
			if (!glyph) {
				if (sym >= 0 && sym < c->nsyms && c->props.val[sym])
					ps_diag_add(c->diags, true, pl->line + y, "error, symbol \"%s\" is defined using or, and therefore ambiguous - it cannot be used in a map; did you mean to define it in terms of and?", ch.buf);
				else
					ps_diag_add(c->diags, true, pl->line + y, "error, symbol \"%s\", used in map, not found", ch.buf);
				lk_strbuf_release(&ch);
				return -1;
			}
			fill_from_glyph(g, glyph, lv->cells + ((size_t)x * (size_t)lv->height + (size_t)y) * (size_t)ow);
		}
	lk_strbuf_release(&ch);
	/* cells without a background-layer object get the first one found */
	if (g->background_layer < 0) {
		ps_diag_add(c->diags, true, 0, "you have to have a background layer");
		return 0;
	}
	const ps_word *bgm = g->layer_masks + (size_t)g->background_layer * (size_t)ow;
	ps_word *fill = ps_ctx_mask(c);
	bool found = false;
	for (size_t i = 0; i < n && !found; i++) {
		const ps_word *cell = lv->cells + i * (size_t)ow;
		if (ps_bits_any(cell, bgm, ow)) {
			for (int w = 0; w < ow; w++)
				fill[w] = cell[w] & bgm[w];
			found = true;
		}
	}
	if (!found && g->background_id >= 0)
		ps_bit_set(fill, g->background_id);
	for (size_t i = 0; i < n; i++) {
		ps_word *cell = lv->cells + i * (size_t)ow;
		if (!ps_bits_any(cell, bgm, ow))
			for (int w = 0; w < ow; w++)
				cell[w] |= fill[w];
	}
	return 0;
}

static void collect_glyphs(struct ps_ctx *c)
{
	struct ps_game *g = c->g;
	int n = 0;
	int *syms = ps_alloc(c->arena, (size_t)(c->nsyms + 1) * sizeof(int));
	int *lines = ps_alloc(c->arena, (size_t)(c->nsyms + 1) * sizeof(int));
	for (int s = 0; s < c->nsyms; s++) {
		if (!c->glyph[s])
			continue;
		const char *name = c->syms->names[s];
		size_t len = strlen(name), used;
		if (!len)
			continue;
		ps_utf8_decode((const unsigned char *)name, len, &used);
		if (used != len)
			continue;
		int line = 0;
		ps_parse_declared(c->p, s, &line);
		int at = n++;
		while (at > 0 && lines[at - 1] > line) {
			syms[at] = syms[at - 1];
			lines[at] = lines[at - 1];
			at--;
		}
		syms[at] = s;
		lines[at] = line;
	}
	g->glyphs = ps_alloc(c->keep, (size_t)(n + 1) * sizeof *g->glyphs);
	g->nglyphs = n;
	for (int i = 0; i < n; i++) {
		const char *name = ps_parse_display(c->p, syms[i]);
		if (!name || strlen(name) != strlen(c->syms->names[syms[i]]))
			name = c->syms->names[syms[i]];
		size_t used;
		g->glyphs[i].ch = ps_utf8_decode((const unsigned char *)name, strlen(name), &used);
		g->glyphs[i].objects = ps_keep_words(c, (size_t)g->ow);
		fill_from_glyph(g, c->glyph[syms[i]], g->glyphs[i].objects);
	}
}

int ps_compile_levels(struct ps_ctx *c)
{
	struct ps_game *g = c->g;
	const struct ps_parse *p = c->p;
	g->levels = ps_alloc(c->keep, (p->nlevels + 1) * sizeof *g->levels);
	for (size_t i = 0; i < p->nlevels; i++) {
		const struct ps_plevel *pl = &p->levels[i];
		struct ps_level *lv = &g->levels[g->nlevels];
		if (pl->is_message) {
			lv->is_message = true;
			lv->message = ps_strdup(c->keep, pl->message);
			lv->line = pl->line;
			g->nlevels++;
		} else if (pl->nrows > 0) {
			read_map(c, pl, lv);
			g->nlevels++;
		}
	}
	collect_glyphs(c);
	return 0;
}

static int bits_for(int values)
{
	int b = 0;
	while ((1 << b) < values)
		b++;
	return b;
}

bool ps_pattern_may_hold(const struct ps_game *g, const struct ps_pattern *p, int id)
{
	int ow = g->ow, layer = g->objects[id].layer;
	const ps_word *lm = g->layer_masks + (size_t)layer * (size_t)ow;
	if (ps_bit_get(p->missing, id))
		return false;
	for (int k = 0; k < ow; k++) {
		ps_word others = p->present[k] & lm[k];
		if (k == id / 64)
			others &= ~((ps_word)1 << (id & 63));
		if (others)
			return false;
	}
	for (int a = 0; a < p->nany; a++) {
		const ps_word *any = p->any + a * ow;
		if (ps_bits_subset(any, lm, ow) && !ps_bit_get(any, id))
			return false;
	}
	return true;
}

/* An object is static when nothing can create, destroy or move it: it is
 * not a player, no rule puts it anywhere, and no rule clears its layer or
 * gives its layer a movement in a cell that may hold it.  Where a level
 * has a static object, that cell's layer never changes and stays out of
 * the key (Sokoban's walls, say). */
static void find_static_objects(struct ps_ctx *c, bool *dynamic)
{
	struct ps_game *g = c->g;
	int ow = g->ow;
	for (int id = 0; id < g->nobjects; id++) {
		int layer = g->objects[id].layer;
		if (layer < 0)
			continue;
		bool dyn = ps_bit_get(g->player_mask, id);
		for (int i = 0; i < g->npatterns && !dyn; i++) {
			const struct ps_pattern *p = &g->patterns[i];
			if (!p->has_rep)
				continue;
			if (ps_bit_get(p->set, id) || ps_bit_get(p->random_obj, id)) {
				dyn = true;
				break;
			}
			bool touches = ps_bit_get(p->clear, id) || ps_mov_get(p->mov_set, layer) ||
				       ps_mov_get(p->random_dir, layer) ||
				       ps_bits_any(p->random_obj, g->layer_masks + (size_t)layer * (size_t)ow, ow);
			if (touches && ps_pattern_may_hold(g, p, id))
				dyn = true;
		}
		dynamic[id] = dyn;
	}
}

int ps_compile_layout(struct ps_ctx *c)
{
	struct ps_game *g = c->g;
	int ow = g->ow, nl = g->nlayers;
	for (int i = 0; i < g->ngroups; i++)
		g->random |= g->groups[i].random;
	for (int i = 0; i < g->npatterns; i++)
		g->random |= g->patterns[i].has_rep &&
			     (g->patterns[i].rep_random_obj || g->patterns[i].rep_random_dir);
	g->obj_dynamic = ps_alloc(c->keep, (size_t)(g->nobjects + 1) * sizeof(bool));
	find_static_objects(c, g->obj_dynamic);
	g->layer_dynamic = ps_alloc(c->keep, (size_t)(nl + 1) * sizeof(bool));
	g->layer_bits = ps_alloc(c->keep, (size_t)(nl + 1) * sizeof(int));
	g->layer_nobjs = ps_alloc(c->keep, (size_t)(nl + 1) * sizeof(int));
	g->layer_objs = ps_alloc(c->keep, (size_t)(nl + 1) * sizeof(int *));
	g->obj_rank = ps_alloc(c->keep, (size_t)(g->nobjects + 1) * sizeof(int));
	g->dynamic_masks = ps_keep_words(c, (size_t)(nl + 1) * (size_t)ow);
	g->static_mask = ps_keep_words(c, (size_t)ow);
	for (int l = 0; l < nl; l++)
		g->layer_objs[l] = ps_alloc(c->keep, (size_t)(g->nobjects + 1) * sizeof(int));
	for (int id = 0; id < g->nobjects; id++) {
		int l = g->objects[id].layer;
		if (l < 0)
			continue;
		if (!g->obj_dynamic[id]) {
			ps_bit_set(g->static_mask, id);
			continue;
		}
		g->layer_dynamic[l] = true;
		g->layer_objs[l][g->layer_nobjs[l]++] = id;
		g->obj_rank[id] = g->layer_nobjs[l];
		ps_bit_set(g->dynamic_masks + (size_t)l * (size_t)ow, id);
	}
	for (int l = 0; l < nl; l++)
		g->layer_bits[l] = g->layer_dynamic[l] ? bits_for(g->layer_nobjs[l] + 1) : 0;
	for (int i = 0; i < g->nlevels; i++) {
		struct ps_level *lv = &g->levels[i];
		if (lv->is_message)
			continue;
		size_t n = (size_t)(lv->width * lv->height * nl + 1);
		lv->slot_cell = ps_alloc(c->keep, n * sizeof(int));
		lv->slot_layer = ps_alloc(c->keep, n * sizeof(int));
		ps_level_layout(g, lv);
	}
	return 0;
}

void ps_level_layout(const struct ps_game *g, struct ps_level *lv)
{
	int ow = g->ow, nl = g->nlayers;
	int n = lv->width * lv->height, ns = 0;
	lv->key_bits = 0;
	for (int cell = 0; cell < n; cell++) {
		const ps_word *cw = lv->cells + (size_t)cell * (size_t)ow;
		for (int l = 0; l < nl; l++) {
			if (!g->layer_dynamic[l])
				continue;
			/* a static object holds this layer here for good */
			const ps_word *lm = g->layer_masks + (size_t)l * (size_t)ow;
			bool fixed = false;
			for (int k = 0; k < ow; k++)
				if (cw[k] & lm[k] & g->static_mask[k])
					fixed = true;
			if (fixed)
				continue;
			lv->slot_cell[ns] = cell;
			lv->slot_layer[ns] = l;
			ns++;
			lv->key_bits += (size_t)g->layer_bits[l];
		}
	}
	lv->nslots = ns;
	lv->key_bits++;   /* won */
	lv->key_size = (lv->key_bits + 7) / 8;
	lv->rng_in_key = g->random;
	if (g->random)
		lv->key_size += 4;   /* the numbers drawn */
}

/* ---- accessors ---- */

int ps_game_level_count(const struct ps_game *g)
{
	return g->nlevels;
}

bool ps_level_is_message(const struct ps_game *g, int level)
{
	return g->levels[level].is_message;
}

const char *ps_level_message(const struct ps_game *g, int level)
{
	return g->levels[level].is_message ? g->levels[level].message : NULL;
}

int ps_level_line(const struct ps_game *g, int level)
{
	return g->levels[level].line;
}

int ps_level_width(const struct ps_game *g, int level)
{
	return g->levels[level].width;
}

int ps_level_height(const struct ps_game *g, int level)
{
	return g->levels[level].height;
}

size_t ps_level_key_size(const struct ps_game *g, int level)
{
	return g->levels[level].key_size;
}

const uint64_t *ps_level_cells(const struct ps_game *g, int level, int *words_per_cell)
{
	if (words_per_cell)
		*words_per_cell = g->ow;
	return g->levels[level].is_message ? NULL : g->levels[level].cells;
}

int ps_level_write(const struct ps_game *g, int level, const uint64_t *cells, struct lk_strbuf *out)
{
	return ps_map_write(g, &g->levels[level], cells, out);
}

int ps_map_write(const struct ps_game *g, const struct ps_level *lv, const uint64_t *cells,
		 struct lk_strbuf *out)
{
	int ow = g->ow, inexact = 0;
	if (lv->is_message)
		return 0;
	if (!cells)
		cells = lv->cells;
	const ps_word *bgm = g->background_layer >= 0 ?
		g->layer_masks + (size_t)g->background_layer * (size_t)ow : NULL;
	for (int y = 0; y < lv->height; y++) {
		for (int x = 0; x < lv->width; x++) {
			const ps_word *cell = cells + ((size_t)x * (size_t)lv->height + (size_t)y) * (size_t)ow;
			int best = -1, best_size = -1;
			bool exact = false;
			for (int k = 0; k < g->nglyphs && !exact; k++) {
				const ps_word *gm = g->glyphs[k].objects;
				/* a glyph without a background object stands for itself
				 * plus the cell's background */
				bool add_bg = bgm && !ps_bits_any(gm, bgm, ow);
				int size = 0;
				bool subset = true, equal = true;
				for (int w = 0; w < ow; w++) {
					ps_word want = gm[w] | (add_bg ? cell[w] & bgm[w] : 0);
					if (want & ~cell[w])
						subset = false;
					if (want != cell[w])
						equal = false;
					size += lk_popcount64(gm[w]);
				}
				if (equal) {
					best = k;
					exact = true;
				} else if (subset && size > best_size) {
					best = k;
					best_size = size;
				}
			}
			if (!exact)
				inexact++;
			if (best >= 0)
				ps_utf8_put(out, g->glyphs[best].ch);
			else
				lk_strbuf_addch(out, '?');
		}
		lk_strbuf_addch(out, '\n');
	}
	return inexact;
}
