/*
 * ps_runtime.c - a thread's runtime for one level: allocation, the packed
 * state key (load and store), starting the level, a whole turn with its
 * again turns, the per-turn facts, and the reference's debug string.
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/bits.h"
#include "ps_runtime.h"

static void *zalloc(size_t n)
{
	return lk_xcalloc(n ? n : 1, 1);
}

struct ps_runtime *ps_runtime_new(const struct ps_game *g, int level)
{
	if (level < 0 || level >= g->nlevels || g->levels[level].is_message)
		return NULL;
	struct ps_runtime *rt = ps_runtime_new_map(g, &g->levels[level]);
	rt->level = level;
	return rt;
}

struct ps_runtime *ps_runtime_new_map(const struct ps_game *g, const struct ps_level *lv)
{
	struct ps_runtime *rt = zalloc(sizeof *rt);
	rt->g = g;
	rt->lv = lv;
	rt->level = -1;
	rt->w = lv->width;
	rt->h = lv->height;
	rt->n = lv->width * lv->height;
	rt->ow = g->ow;
	rt->mw = g->mw;
	size_t n = (size_t)rt->n, ow = (size_t)g->ow, mw = (size_t)g->mw;
	rt->cells = zalloc(n * ow * sizeof(ps_word));
	rt->movs = zalloc(n * mw * sizeof(ps_word));
	if (g->rigid) {
		rt->rigid_gi = zalloc(n * mw * sizeof(ps_word));
		rt->rigid_ma = zalloc(n * mw * sizeof(ps_word));
	}
	rt->row_obj = zalloc((size_t)rt->h * ow * sizeof(ps_word));
	rt->col_obj = zalloc((size_t)rt->w * ow * sizeof(ps_word));
	rt->map_obj = zalloc(ow * sizeof(ps_word));
	rt->row_mov = zalloc((size_t)rt->h * mw * sizeof(ps_word));
	rt->col_mov = zalloc((size_t)rt->w * mw * sizeof(ps_word));
	rt->map_mov = zalloc(mw * sizeof(ps_word));
	rt->movmap_words = (rt->n + 63) / 64;
	rt->movmap = zalloc((size_t)rt->movmap_words * sizeof(uint64_t));
	rt->start_movmap = zalloc((size_t)rt->movmap_words * sizeof(uint64_t));
	for (int d = 0; d < PS_MAX_DEPTH; d++)
		rt->bak[d] = zalloc(n * ow * sizeof(ps_word));
	rt->start_cells = zalloc(n * ow * sizeof(ps_word));
	rt->start_movs = zalloc(n * mw * sizeof(ps_word));
	rt->restart_cells = zalloc(n * ow * sizeof(ps_word));
	rt->turn_start = zalloc(n * ow * sizeof(ps_word));
	rt->sfx_create = zalloc(ow * sizeof(ps_word));
	rt->sfx_destroy = zalloc(ow * sizeof(ps_word));
	rt->seeds_can = zalloc((size_t)(g->nseeds + 1) * sizeof(int));
	rt->seeds_cant = zalloc((size_t)(g->nseeds + 1) * sizeof(int));
	rt->banned = zalloc((size_t)(g->ngroups + 1) * sizeof(bool));
	rt->players = zalloc(n * sizeof(int));
	rt->rows = zalloc((size_t)(g->max_rows + 1) * sizeof *rt->rows);
	/* room for a match at every cell of every row: only rows with
	 * ellipses can have more, and their buffers grow once and stay */
	for (int r = 0; r <= g->max_rows; r++) {
		rt->rows[r].alloc = n + 1;
		rt->rows[r].v = zalloc((n + 1) * sizeof *rt->rows[r].v);
	}
	rt->fired = zalloc((size_t)(g->nrules / 64 + 1) * sizeof(uint64_t));
	rt->moved = zalloc(ow * sizeof(ps_word));
	rt->fired_save = zalloc(PS_MAX_DEPTH * (size_t)(g->nrules / 64 + 1) * sizeof(uint64_t));
	rt->moved_save = zalloc(PS_MAX_DEPTH * ow * sizeof(ps_word));
	/* the static layers never change: keep the level's */
	rt->static_cells = zalloc(n * ow * sizeof(ps_word));
	ps_word *dyn = zalloc(ow * sizeof(ps_word));
	for (int l = 0; l < g->nlayers; l++)
		for (size_t k = 0; k < ow; k++)
			dyn[k] |= g->dynamic_masks[(size_t)l * ow + k];
	for (size_t i = 0; i < n * ow; i++)
		rt->static_cells[i] = lv->cells[i] & ~dyn[i % ow];
	free(dyn);
	rt->cache_key = zalloc(lv->key_size);
	rt->cache_cells = zalloc(n * ow * sizeof(ps_word));
	rt->cache_row = zalloc((size_t)rt->h * ow * sizeof(ps_word));
	rt->cache_col = zalloc((size_t)rt->w * ow * sizeof(ps_word));
	rt->cache_map = zalloc(ow * sizeof(ps_word));
	ps_reset_cells(rt, lv->cells);
	memcpy(rt->restart_cells, lv->cells, n * ow * sizeof(ps_word));
	ps_rng_seed(&rt->rng, "0");
	return rt;
}

void ps_runtime_free(struct ps_runtime *rt)
{
	if (!rt)
		return;
	free(rt->cells);
	free(rt->movs);
	free(rt->rigid_gi);
	free(rt->rigid_ma);
	free(rt->row_obj);
	free(rt->col_obj);
	free(rt->map_obj);
	free(rt->row_mov);
	free(rt->col_mov);
	free(rt->map_mov);
	free(rt->movmap);
	free(rt->start_movmap);
	for (int d = 0; d < PS_MAX_DEPTH; d++)
		free(rt->bak[d]);
	free(rt->start_cells);
	free(rt->start_movs);
	free(rt->restart_cells);
	free(rt->turn_start);
	free(rt->sfx_create);
	free(rt->sfx_destroy);
	free(rt->seeds_can);
	free(rt->seeds_cant);
	free(rt->banned);
	free(rt->players);
	free(rt->fired);
	free(rt->moved);
	free(rt->fired_save);
	free(rt->moved_save);
	free(rt->static_cells);
	free(rt->cache_key);
	free(rt->cache_cells);
	free(rt->cache_row);
	free(rt->cache_col);
	free(rt->cache_map);
	for (int r = 0; r <= rt->g->max_rows; r++)
		free(rt->rows[r].v);
	free(rt->rows);
	free(rt);
}

void ps_runtime_seed(struct ps_runtime *rt, const char *seed)
{
	ps_rng_seed(&rt->rng, seed);
}

void ps_runtime_track(struct ps_runtime *rt, bool on)
{
	rt->track = on;
}

void ps_set_host(struct ps_runtime *rt, const struct ps_host *host, void *ctx)
{
	rt->host = host;
	rt->host_ctx = ctx;
}

size_t ps_key_size(const struct ps_runtime *rt)
{
	return rt->lv->key_size;
}

const uint64_t *ps_cells(const struct ps_runtime *rt, int *words_per_cell)
{
	if (words_per_cell)
		*words_per_cell = rt->ow;
	return rt->cells;
}

/* ---- keys ---- */

void ps_store(const struct ps_runtime *rt, void *key)
{
	ps_pack_cells(rt, rt->cells, key);
	/* the last bit: the turn that led here won */
	size_t b = rt->lv->key_bits - 1;
	if (rt->won)
		((unsigned char *)key)[b / 8] |= (unsigned char)(1u << (b % 8));
}

bool ps_key_won(const struct ps_runtime *rt, const void *key)
{
	size_t b = rt->lv->key_bits - 1;
	return (((const unsigned char *)key)[b / 8] >> (b % 8)) & 1;
}

void ps_reset_cells(struct ps_runtime *rt, const ps_word *cells)
{
	ps_restore_cells(rt, cells);
	ps_calc_masks(rt);
}

void ps_load(struct ps_runtime *rt, const void *key)
{
	size_t ow = (size_t)rt->ow, ks = rt->lv->key_size;
	/* a search loads each state once per input: keep the last one */
	if (rt->cache_valid && !memcmp(rt->cache_key, key, ks)) {
		ps_restore_cells(rt, rt->cache_cells);
		rt->won = ps_key_won(rt, key);
		memcpy(rt->row_obj, rt->cache_row, (size_t)rt->h * ow * sizeof(ps_word));
		memcpy(rt->col_obj, rt->cache_col, (size_t)rt->w * ow * sizeof(ps_word));
		memcpy(rt->map_obj, rt->cache_map, ow * sizeof(ps_word));
		memset(rt->row_mov, 0, (size_t)rt->h * (size_t)rt->mw * sizeof(ps_word));
		memset(rt->col_mov, 0, (size_t)rt->w * (size_t)rt->mw * sizeof(ps_word));
		memset(rt->map_mov, 0, (size_t)rt->mw * sizeof(ps_word));
		return;
	}
	ps_unpack_cells(rt, key, rt->cells);
	ps_reset_cells(rt, rt->cells);
	rt->won = ps_key_won(rt, key);
	memcpy(rt->cache_key, key, ks);
	memcpy(rt->cache_cells, rt->cells, (size_t)rt->n * ow * sizeof(ps_word));
	memcpy(rt->cache_row, rt->row_obj, (size_t)rt->h * ow * sizeof(ps_word));
	memcpy(rt->cache_col, rt->col_obj, (size_t)rt->w * ow * sizeof(ps_word));
	memcpy(rt->cache_map, rt->map_obj, ow * sizeof(ps_word));
	rt->cache_valid = true;
}

void ps_pack_cells(const struct ps_runtime *rt, const ps_word *cells, void *key)
{
	const struct ps_game *g = rt->g;
	const struct ps_level *lv = rt->lv;
	unsigned char *out = key;
	uint64_t acc = 0;
	int nacc = 0, ow = rt->ow;
	size_t at = 0;
	for (int s = 0; s < lv->nslots; s++) {
		int l = lv->slot_layer[s], bits = g->layer_bits[l];
		const ps_word *c = cells + (size_t)lv->slot_cell[s] * (size_t)ow;
		const ps_word *lm = g->dynamic_masks + (size_t)l * (size_t)ow;
		uint64_t rank = 0;
		if (ow == 1) {
			ps_word b = c[0] & lm[0];
			rank = b ? (uint64_t)g->obj_rank[lk_lowest_bit64(b)] : 0;
		} else {
			for (int k = 0; k < ow; k++) {
				ps_word b = c[k] & lm[k];
				if (b) {
					rank = (uint64_t)g->obj_rank[k * 64 + lk_lowest_bit64(b)];
					break;
				}
			}
		}
		acc |= rank << nacc;
		nacc += bits;
		if (nacc >= 32) {
			for (int b = 0; b < 4; b++) {
				out[at++] = (unsigned char)acc;
				acc >>= 8;
			}
			nacc -= 32;
		}
	}
	while (nacc > 0) {
		out[at++] = (unsigned char)acc;
		acc >>= 8;
		nacc -= 8;
	}
	while (at < lv->key_size)
		out[at++] = 0;
}

void ps_unpack_cells(const struct ps_runtime *rt, const void *key, ps_word *cells)
{
	const struct ps_game *g = rt->g;
	const struct ps_level *lv = rt->lv;
	const unsigned char *in = key;
	size_t nw = (size_t)rt->n * (size_t)rt->ow;
	uint64_t acc = 0;
	int nacc = 0, ow = rt->ow;
	size_t at = 0;
	memcpy(cells, rt->static_cells, nw * sizeof(ps_word));
	for (int s = 0; s < lv->nslots; s++) {
		int l = lv->slot_layer[s], bits = g->layer_bits[l];
		while (nacc < bits) {
			acc |= (uint64_t)in[at++] << nacc;
			nacc += 8;
		}
		unsigned rank = (unsigned)(acc & ((1u << bits) - 1));
		acc >>= bits;
		nacc -= bits;
		if (rank)
			ps_bit_set(cells + (size_t)lv->slot_cell[s] * (size_t)ow, g->layer_objs[l][rank - 1]);
	}
}

/* ---- turns ---- */

static void info_reset(struct ps_turn_info *info)
{
	if (info)
		memset(info, 0, sizeof *info);
}

static void again_loop(struct ps_runtime *rt, struct ps_turn_info *info)
{
	int n = 0;
	while (rt->againing && !rt->left_level) {
		if (n == PS_MAX_AGAIN) {
			if (info)
				info->flags |= PS_AGAIN_LIMIT;
			rt->againing = false;
			break;
		}
		rt->againing = false;
		ps_process_input(rt, -1, false, false);
		n++;
	}
	if (info && n) {
		info->flags |= PS_AGAIN;
		info->again_turns = n;
	}
}

static void begin(struct ps_runtime *rt, struct ps_turn_info *info)
{
	info_reset(info);
	rt->info = info;
	rt->left_level = false;
	if (rt->track) {
		memset(rt->fired, 0, (size_t)(rt->g->nrules / 64 + 1) * sizeof(uint64_t));
		memset(rt->moved, 0, (size_t)rt->ow * sizeof(ps_word));
	}
	memcpy(rt->turn_start, rt->cells, (size_t)rt->n * (size_t)rt->ow * sizeof(ps_word));
}

static unsigned finish(struct ps_runtime *rt, struct ps_turn_info *info)
{
	rt->info = NULL;
	unsigned flags = 0;
	if (memcmp(rt->turn_start, rt->cells, (size_t)rt->n * (size_t)rt->ow * sizeof(ps_word)))
		flags |= PS_CHANGED;
	if (info) {
		info->flags |= flags;
		flags = info->flags;
	}
	return flags;
}

unsigned ps_turn(struct ps_runtime *rt, int input, struct ps_turn_info *info)
{
	struct ps_turn_info local;
	if (!info)
		info = &local;
	begin(rt, info);
	ps_process_input(rt, input, false, false);
	again_loop(rt, info);
	unsigned flags = finish(rt, info);
	rt->won = (flags & PS_WON) != 0;
	return flags;
}

void ps_start(struct ps_runtime *rt, struct ps_turn_info *info)
{
	struct ps_turn_info local;
	if (!info)
		info = &local;
	ps_reset_cells(rt, rt->lv->cells);
	memcpy(rt->restart_cells, rt->lv->cells, (size_t)rt->n * (size_t)rt->ow * sizeof(ps_word));
	begin(rt, info);
	if (rt->g->flags.run_rules_on_level_start)
		ps_process_input(rt, -1, true, false);
	/* the start turn itself never wins (the reference passes dontDoWin),
	 * but the again turns it queues are ordinary turns: a win there wins
	 * the level on load, as cratopia's cut-scene levels do */
	again_loop(rt, info);
	unsigned flags = finish(rt, info);
	rt->won = (flags & PS_WON) != 0;
}

bool ps_rule_fired(const struct ps_runtime *rt, int rule)
{
	return rule >= 0 && rule < rt->g->nrules && ((rt->fired[rule >> 6] >> (rule & 63)) & 1);
}

bool ps_object_moved(const struct ps_runtime *rt, int id)
{
	return id >= 0 && id < rt->g->nobjects && ps_bit_get(rt->moved, id);
}

/* ---- the debug string ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void ps_debug_string(const struct ps_runtime *rt, struct lk_strbuf *out)
{
	const struct ps_game *g = rt->g;
	const char **names = lk_xmalloc((size_t)(g->nobjects + 1) * sizeof *names);
	char **seen = NULL;
	size_t nseen = 0, seen_alloc = 0;
	struct lk_strbuf cell = LK_STRBUF_INIT;
	for (int i = 0; i < rt->n; i++) {
		const ps_word *c = rt->cells + (size_t)i * (size_t)rt->ow;
		int nn = 0;
		for (int id = 0; id < g->nobjects; id++)
			if (ps_bit_get(c, id))
				names[nn++] = g->objects[id].name;
		qsort(names, (size_t)nn, sizeof *names, cmp_str);
		lk_strbuf_reset(&cell);
		for (int k = 0; k < nn; k++) {
			if (k)
				lk_strbuf_addch(&cell, ' ');
			lk_strbuf_addstr(&cell, names[k]);
		}
		size_t idx = nseen;
		for (size_t s = 0; s < nseen; s++)
			if (!strcmp(seen[s], cell.buf)) {
				idx = s;
				break;
			}
		if (idx == nseen) {
			LK_ALLOC_GROW(seen, nseen + 1, seen_alloc);
			seen[nseen++] = lk_xstrdup(cell.buf);
			lk_strbuf_addf(out, "%s:", cell.buf);
		}
		lk_strbuf_addf(out, "%zu,", idx);
		if ((i + 1) % rt->w == 0)
			lk_strbuf_addch(out, '\n');
	}
	for (size_t s = 0; s < nseen; s++)
		free(seen[s]);
	free(seen);
	free(names);
	lk_strbuf_release(&cell);
}
