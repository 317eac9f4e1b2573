/*
 * ps_state.c - a runtime's cells and what is kept with them: every write
 * keeps each object's bit boards, its count and the union of the objects
 * present, and a write during a turn is logged with the cell's objects
 * before it.  The log is how a turn is undone (replayed backwards to the
 * mark taken when a nested turn began) and how keys are made without
 * touching the whole grid: a search loads a state, runs one input and
 * stores the result, so loading the next input's start is undoing the log
 * and storing is re-packing, in the loaded key, the slots of the layers
 * whose objects changed in the cells the log names; a state the runtime
 * did not just hold is loaded by patching only the key bytes that differ
 * from the one it holds.
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/bits.h"
#include "ps_runtime.h"

static void *zalloc(size_t n)
{
	return lk_xcalloc(n ? n : 1, 1);
}

void ps_state_init(struct ps_runtime *rt)
{
	const struct ps_game *g = rt->g;
	const struct ps_level *lv = rt->lv;
	size_t n = (size_t)rt->n, ow = (size_t)rt->ow;
	rt->bbw = (rt->n + 63) / 64;
	rt->bb = zalloc((size_t)g->nobjects * 2 * (size_t)rt->bbw * sizeof(uint64_t));
	rt->row_major = zalloc(n * sizeof(int));
	rt->cell_of_rm = zalloc(n * sizeof(int));
	rt->cell_x = zalloc(n * sizeof(int));
	rt->cell_y = zalloc(n * sizeof(int));
	for (int x = 0; x < rt->w; x++)
		for (int y = 0; y < rt->h; y++) {
			int i = x * rt->h + y;
			rt->row_major[i] = y * rt->w + x;
			rt->cell_of_rm[y * rt->w + x] = i;
			rt->cell_x[i] = x;
			rt->cell_y[i] = y;
		}
	rt->movmap_rm = zalloc((size_t)rt->bbw * sizeof(uint64_t));
	/* the starts that keep a row of len cells on the board, per direction */
	int maxlen = g->max_row_len > 0 ? g->max_row_len : 1;
	rt->valid_starts = zalloc(4 * (size_t)maxlen * (size_t)rt->bbw * sizeof(uint64_t));
	static const int dirs[4] = { PS_DIR_UP, PS_DIR_DOWN, PS_DIR_LEFT, PS_DIR_RIGHT };
	for (int dk = 0; dk < 4 && g->max_row_len > 0; dk++)
		for (int len = 1; len <= maxlen; len++) {
			uint64_t *v = (uint64_t *)ps_valid_starts(rt, dirs[dk], len);
			bool horizontal = dk >= 2;
			for (int i = 0; i < rt->n; i++) {
				int x = rt->cell_x[i], y = rt->cell_y[i];
				bool ok = dk == 0 ? y >= len - 1 : dk == 1 ? y <= rt->h - len :
					  dk == 2 ? x >= len - 1 : x <= rt->w - len;
				int p = horizontal ? rt->row_major[i] : i;
				if (ok)
					v[p >> 6] |= (uint64_t)1 << (p & 63);
			}
		}
	rt->cell_words = zalloc((size_t)(g->max_row_cells + 3) * (size_t)rt->bbw * sizeof(uint64_t));
	rt->obj_count = zalloc((size_t)(g->nobjects + 1) * sizeof(int));
	rt->map_obj = zalloc(ow * sizeof(ps_word));
	rt->map_mov = zalloc((size_t)rt->mw * sizeof(ps_word));
	rt->logged = zalloc(n * sizeof(uint32_t));
	rt->seen = zalloc(n * sizeof(uint32_t));
	rt->cell_mod = zalloc(n * sizeof(uint64_t));
	rt->base_key = zalloc(lv->key_size);
	rt->scratch_cells = zalloc(n * ow * sizeof(ps_word));
	/* where each slot's bits are */
	rt->slot_pos = zalloc((size_t)(lv->nslots + 1) * sizeof(uint32_t));
	rt->cell_slot = zalloc((n + 1) * sizeof(int));
	rt->byte_slot = zalloc((lv->key_size + 1) * sizeof(int));
	uint32_t pos = 0;
	int s = 0;
	for (int c = 0; c <= rt->n; c++) {
		rt->cell_slot[c] = s;
		while (s < lv->nslots && lv->slot_cell[s] == c) {
			rt->slot_pos[s] = pos;
			pos += (uint32_t)g->layer_bits[lv->slot_layer[s]];
			s++;
		}
	}
	rt->slot_pos[lv->nslots] = pos;
	rt->slot_of = zalloc(n * (size_t)g->nlayers * sizeof(int));
	for (size_t k = 0; k < n * (size_t)g->nlayers; k++)
		rt->slot_of[k] = -1;
	for (s = 0; s < lv->nslots; s++)
		rt->slot_of[(size_t)lv->slot_cell[s] * (size_t)g->nlayers + (size_t)lv->slot_layer[s]] = s;
	s = 0;
	for (size_t b = 0; b <= lv->key_size; b++) {
		/* the first slot whose bits end after this byte begins */
		while (s < lv->nslots && rt->slot_pos[s + 1] <= 8 * b)
			s++;
		rt->byte_slot[b] = s;
	}
}

void ps_state_free(struct ps_runtime *rt)
{
	free(rt->bb);
	free(rt->row_major);
	free(rt->cell_of_rm);
	free(rt->cell_x);
	free(rt->cell_y);
	free(rt->movmap_rm);
	free(rt->valid_starts);
	free(rt->cell_words);
	free(rt->obj_count);
	free(rt->map_obj);
	free(rt->map_mov);
	free(rt->log_cell);
	free(rt->log_old);
	free(rt->logged);
	free(rt->seen);
	free(rt->cell_mod);
	free(rt->base_key);
	free(rt->scratch_cells);
	free(rt->slot_pos);
	free(rt->slot_of);
	free(rt->cell_slot);
	free(rt->byte_slot);
}

/* ---- writes ---- */

static inline void flip(struct ps_runtime *rt, int id, int i, bool on)
{
	uint64_t *col = rt->bb + (size_t)id * 2 * (size_t)rt->bbw;
	uint64_t *row = col + rt->bbw;
	int r = rt->row_major[i];
	col[i >> 6] ^= (uint64_t)1 << (i & 63);
	row[r >> 6] ^= (uint64_t)1 << (r & 63);
	if (on) {
		if (rt->obj_count[id]++ == 0)
			rt->map_obj[id >> 6] |= (ps_word)1 << (id & 63);
	} else if (--rt->obj_count[id] == 0) {
		rt->map_obj[id >> 6] &= ~((ps_word)1 << (id & 63));
	}
}

/* Cell i's objects, unlogged, keeping the boards, counts and map mask. */
static void set_objects(struct ps_runtime *rt, int i, const ps_word *objects)
{
	if (rt->ow == 1) {
		ps_word d = rt->cells[i] ^ objects[0];
		if (!d)
			return;
		ps_word now = objects[0];
		while (d) {
			int b = lk_lowest_bit64(d);
			d &= d - 1;
			flip(rt, b, i, (now >> b) & 1);
		}
		rt->cells[i] = now;
		ps_touch(rt, i);
		return;
	}
	ps_word *c = rt->cells + (size_t)i * (size_t)rt->ow;
	bool changed = false;
	for (int k = 0; k < rt->ow; k++) {
		ps_word d = c[k] ^ objects[k];
		changed |= d != 0;
		while (d) {
			int b = lk_lowest_bit64(d);
			d &= d - 1;
			flip(rt, k * 64 + b, i, (objects[k] >> b) & 1);
		}
		c[k] = objects[k];
	}
	if (changed)
		ps_touch(rt, i);
}

void ps_write_cell(struct ps_runtime *rt, int i, const ps_word *objects)
{
	size_t ow = (size_t)rt->ow;
	if (rt->logged[i] != rt->epoch) {
		if (rt->log_len == rt->log_alloc) {
			size_t na = rt->log_alloc ? rt->log_alloc * 2 : 256;
			rt->log_cell = lk_xrealloc(rt->log_cell, na * sizeof *rt->log_cell);
			rt->log_old = lk_xrealloc(rt->log_old, na * ow * sizeof *rt->log_old);
			rt->log_alloc = na;
		}
		rt->log_cell[rt->log_len] = i;
		memcpy(rt->log_old + rt->log_len * ow, rt->cells + (size_t)i * ow, ow * sizeof(ps_word));
		rt->log_len++;
		rt->logged[i] = rt->epoch;
	}
	set_objects(rt, i, objects);
}

void ps_rollback(struct ps_runtime *rt, size_t mark)
{
	size_t ow = (size_t)rt->ow;
	while (rt->log_len > mark) {
		size_t e = --rt->log_len;
		int i = rt->log_cell[e];
		set_objects(rt, i, rt->log_old + e * ow);
		rt->logged[i] = 0;
	}
	rt->mods++;
}

static uint32_t next_seen(struct ps_runtime *rt)
{
	if (++rt->seen_stamp == 0) {
		memset(rt->seen, 0, (size_t)rt->n * sizeof *rt->seen);
		rt->seen_stamp = 1;
	}
	return rt->seen_stamp;
}

bool ps_changed_since(struct ps_runtime *rt, size_t mark)
{
	size_t ow = (size_t)rt->ow;
	uint32_t st = next_seen(rt);
	/* a cell's first entry after mark holds what it had at mark */
	for (size_t e = mark; e < rt->log_len; e++) {
		int i = rt->log_cell[e];
		if (rt->seen[i] == st)
			continue;
		rt->seen[i] = st;
		if (memcmp(rt->cells + (size_t)i * ow, rt->log_old + e * ow, ow * sizeof(ps_word)))
			return true;
	}
	return false;
}

void ps_cells_at(struct ps_runtime *rt, size_t mark, ps_word *out)
{
	size_t ow = (size_t)rt->ow;
	memcpy(out, rt->cells, (size_t)rt->n * ow * sizeof(ps_word));
	for (size_t e = rt->log_len; e-- > mark;)
		memcpy(out + (size_t)rt->log_cell[e] * ow, rt->log_old + e * ow, ow * sizeof(ps_word));
}

void ps_clear_movements(struct ps_runtime *rt)
{
	size_t mw = (size_t)rt->mw;
	for (int w = 0; w < rt->movmap_words; w++) {
		uint64_t bits = rt->movmap[w];
		rt->movmap[w] = 0;
		while (bits) {
			size_t i = (size_t)(w * 64 + lk_lowest_bit64(bits));
			bits &= bits - 1;
			memset(rt->movs + i * mw, 0, mw * sizeof(ps_word));
			ps_touch(rt, (int)i);
			if (rt->g->rigid) {
				memset(rt->rigid_gi + i * mw, 0, mw * sizeof(ps_word));
				memset(rt->rigid_ma + i * mw, 0, mw * sizeof(ps_word));
			}
		}
	}
	memset(rt->movmap_rm, 0, (size_t)rt->bbw * sizeof(uint64_t));
	memset(rt->map_mov, 0, mw * sizeof(ps_word));
	rt->againing = false;
	rt->queue = 0;
	rt->queue_len = 0;
	rt->mods++;
}

void ps_put_cells(struct ps_runtime *rt, const ps_word *cells)
{
	size_t ow = (size_t)rt->ow;
	bool logged = rt->depth > 0;
	for (int i = 0; i < rt->n; i++) {
		const ps_word *c = cells + (size_t)i * ow;
		if (!memcmp(rt->cells + (size_t)i * ow, c, ow * sizeof(ps_word)))
			continue;
		if (logged)
			ps_write_cell(rt, i, c);
		else
			set_objects(rt, i, c);
	}
	if (!logged) {
		rt->base_valid = false;
		rt->log_len = 0;
	}
	ps_clear_movements(rt);
}

void ps_log_trim(struct ps_runtime *rt)
{
	if (rt->depth > 0 || rt->in_turn)
		return;
	/* a long log (a session's many turns) costs more to store than a
	 * whole key: start again from no key */
	if (rt->base_valid && rt->log_len > 4 * (size_t)rt->n + 64)
		rt->base_valid = false;
	if (!rt->base_valid)
		rt->log_len = 0;
}

/* ---- keys ---- */

static unsigned get_bits(const unsigned char *key, uint32_t pos, int nbits)
{
	unsigned v = 0;
	for (int k = 0; k < nbits;) {
		uint32_t p = pos + (uint32_t)k;
		int off = (int)(p & 7), take = 8 - off < nbits - k ? 8 - off : nbits - k;
		v |= ((unsigned)(key[p >> 3] >> off) & ((1u << take) - 1)) << k;
		k += take;
	}
	return v;
}

static void put_bits(unsigned char *key, uint32_t pos, int nbits, unsigned v)
{
	for (int k = 0; k < nbits;) {
		uint32_t p = pos + (uint32_t)k;
		int off = (int)(p & 7), take = 8 - off < nbits - k ? 8 - off : nbits - k;
		unsigned m = ((1u << take) - 1) << off;
		key[p >> 3] = (unsigned char)((key[p >> 3] & ~m) | (((v >> k) << off) & m));
		k += take;
	}
}

/* put_bits into a key of ks bytes: where eight bytes from the slot's first
 * are in the key, one read and one write of them (the key's bit k is bit
 * k % 8 of byte k / 8, a little-endian word's order) */
static inline void put_slot(unsigned char *key, size_t ks, uint32_t pos, int nbits, unsigned v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	size_t b = pos >> 3;
	if (b + 8 <= ks) {
		uint64_t w, m = (((uint64_t)1 << nbits) - 1) << (pos & 7);
		memcpy(&w, key + b, 8);
		w = (w & ~m) | (((uint64_t)v << (pos & 7)) & m);
		memcpy(key + b, &w, 8);
		return;
	}
#else
	(void)ks;
#endif
	put_bits(key, pos, nbits, v);
}

/* The rank of cell c's object on layer l among the layer's dynamic ones. */
static unsigned rank_at(const struct ps_runtime *rt, const ps_word *c, int l)
{
	const struct ps_game *g = rt->g;
	const ps_word *lm = g->dynamic_masks + (size_t)l * (size_t)rt->ow;
	for (int k = 0; k < rt->ow; k++) {
		ps_word b = c[k] & lm[k];
		if (b)
			return (unsigned)g->obj_rank[k * 64 + lk_lowest_bit64(b)];
	}
	return 0;
}

/* The numbers drawn, in the key's last four bytes (keyed games). */
static void put_draws(const struct ps_runtime *rt, unsigned char *key)
{
	if (!rt->lv->rng_in_key)
		return;
	uint32_t d = rt->rng_keyed ? rt->draws : 0;
	unsigned char *at = key + rt->lv->key_size - 4;
	for (int b = 0; b < 4; b++)
		at[b] = (unsigned char)(d >> (8 * b));
}

static uint32_t get_draws(const struct ps_runtime *rt, const unsigned char *key)
{
	const unsigned char *at = key + rt->lv->key_size - 4;
	return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

static void set_won(const struct ps_runtime *rt, unsigned char *key, bool won)
{
	size_t b = rt->lv->key_bits - 1;
	key[b / 8] = (unsigned char)(key[b / 8] & ~(1u << (b % 8)));
	if (won)
		key[b / 8] |= (unsigned char)(1u << (b % 8));
}

void ps_store(const struct ps_runtime *rt_c, void *key)
{
	struct ps_runtime *rt = (struct ps_runtime *)rt_c;   /* the seen stamps only */
	const struct ps_level *lv = rt->lv;
	unsigned char *out = key;
	if (!rt->base_valid) {
		ps_pack_cells(rt, rt->cells, key);
	} else {
		size_t ow = (size_t)rt->ow;
		memcpy(out, rt->base_key, lv->key_size);
		uint32_t st = next_seen(rt);
		for (size_t e = 0; e < rt->log_len; e++) {
			int i = rt->log_cell[e];
			if (rt->seen[i] == st)
				continue;
			rt->seen[i] = st;
			/* the cell's first entry holds what the key has: only
			 * the slots of layers whose objects changed since are
			 * re-packed (an animated background changes one layer
			 * of each cell, two of its bits) */
			const ps_word *c = rt->cells + (size_t)i * ow, *was = rt->log_old + e * ow;
			const int *slot_of = rt->slot_of + (size_t)i * (size_t)rt->g->nlayers;
			for (size_t k = 0; k < ow; k++) {
				ps_word d = c[k] ^ was[k];
				while (d) {
					int id = (int)k * 64 + lk_lowest_bit64(d);
					d &= d - 1;
					int l = rt->g->objects[id].layer, s = l >= 0 ? slot_of[l] : -1;
					if (s >= 0)
						put_slot(out, lv->key_size, rt->slot_pos[s], rt->g->layer_bits[l],
							 rank_at(rt, c, l));
				}
			}
		}
	}
	set_won(rt, out, rt->won);
	put_draws(rt, out);
}

bool ps_key_won(const struct ps_runtime *rt, const void *key)
{
	size_t b = rt->lv->key_bits - 1;
	return (((const unsigned char *)key)[b / 8] >> (b % 8)) & 1;
}

/* Patch the cells from the base key to key: only the slots in bytes
 * that differ. */
static void patch(struct ps_runtime *rt, const unsigned char *key)
{
	const struct ps_game *g = rt->g;
	const struct ps_level *lv = rt->lv;
	const unsigned char *base = rt->base_key;
	size_t ks = lv->key_size, ow = (size_t)rt->ow;
	int done = -1;
	ps_word cell[ow];
	for (size_t b = 0; b < ks; b++) {
		if (b + 8 <= ks && !memcmp(base + b, key + b, 8)) {
			b += 7;
			continue;
		}
		if (base[b] == key[b])
			continue;
		for (int s = rt->byte_slot[b] > done ? rt->byte_slot[b] : done + 1;
		     s < lv->nslots && rt->slot_pos[s] < 8 * (b + 1); s++) {
			done = s;
			int l = lv->slot_layer[s], bits = g->layer_bits[l];
			unsigned was = get_bits(base, rt->slot_pos[s], bits), now = get_bits(key, rt->slot_pos[s], bits);
			if (was == now)
				continue;
			int i = lv->slot_cell[s];
			const ps_word *lm = g->dynamic_masks + (size_t)l * ow;
			memcpy(cell, rt->cells + (size_t)i * ow, sizeof cell);
			for (size_t k = 0; k < ow; k++)
				cell[k] &= ~lm[k];
			if (now)
				ps_bit_set(cell, g->layer_objs[l][now - 1]);
			set_objects(rt, i, cell);
		}
	}
}

void ps_load(struct ps_runtime *rt, const void *key)
{
	size_t ks = rt->lv->key_size;
	if (rt->depth > 0) {
		/* inside a turn (a session's restart): a logged write */
		ps_unpack_cells(rt, key, rt->scratch_cells);
		ps_put_cells(rt, rt->scratch_cells);
	} else {
		ps_clear_movements(rt);
		if (rt->base_valid) {
			ps_rollback(rt, 0);
			patch(rt, key);
		} else {
			ps_unpack_cells(rt, key, rt->scratch_cells);
			ps_put_cells(rt, rt->scratch_cells);
		}
		memcpy(rt->base_key, key, ks);
		set_won(rt, rt->base_key, false);
		rt->base_valid = true;
		rt->log_len = 0;
	}
	rt->won = ps_key_won(rt, key);
	if (rt->rng_keyed)
		rt->draws = get_draws(rt, key);
	rt->mods++;
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
		uint64_t rank = rank_at(rt, c, l);
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
