/*
 * ps_runtime.c - a thread's runtime for one level: allocation, starting
 * the level, a whole turn with its again turns, the per-turn facts, and the
 * reference's debug string.  The cells, the undo log and the keys are
 * ps_state.c's.
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
	rt->movmap_words = (rt->n + 63) / 64;
	rt->movmap = zalloc((size_t)rt->movmap_words * sizeof(uint64_t));
	if (g->rigid) {
		rt->rigid_gi = zalloc(n * mw * sizeof(ps_word));
		rt->rigid_ma = zalloc(n * mw * sizeof(ps_word));
		rt->start_movs = zalloc(n * mw * sizeof(ps_word));
		rt->start_movmap = zalloc((size_t)rt->movmap_words * sizeof(uint64_t));
	}
	rt->restart_cells = zalloc(n * ow * sizeof(ps_word));
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
	ps_state_init(rt);
	ps_put_cells(rt, lv->cells);
	memcpy(rt->restart_cells, lv->cells, n * ow * sizeof(ps_word));
	ps_rng_seed(&rt->rng, "0");
	rt->rng_keyed = lv->rng_in_key;
	return rt;
}

void ps_runtime_free(struct ps_runtime *rt)
{
	if (!rt)
		return;
	ps_state_free(rt);
	free(rt->cells);
	free(rt->movs);
	free(rt->rigid_gi);
	free(rt->pass_state[0]);
	free(rt->pass_state[1]);
	free(rt->rigid_ma);
	free(rt->movmap);
	free(rt->start_movs);
	free(rt->start_movmap);
	free(rt->restart_cells);
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
	free(rt->drawn);
	free(rt->forced);
	free(rt->ranges);
	for (int r = 0; r <= rt->g->max_rows; r++)
		free(rt->rows[r].v);
	free(rt->rows);
	free(rt);
}

void ps_runtime_seed(struct ps_runtime *rt, const char *seed)
{
	ps_rng_seed(&rt->rng, seed);
	rt->draws = 0;
	rt->ndrawn = 0;
}

int ps_draw_below_slow(struct ps_runtime *rt, int n)
{
	rt->rolls++;
	if (rt->choosing) {
		/* the dice as ps_rolls.c sets them */
		if (rt->nchoices >= PS_MAX_CHOICES) {
			rt->choice_overflow = true;
			return 0;
		}
		int k = rt->nchoices++;
		rt->ranges[k] = n > 1 ? n : 1;
		int v = k < rt->nforced ? rt->forced[k] : 0;
		return v < n ? v : 0;
	}
	if (!rt->rng_keyed)
		return ps_rng_below(&rt->rng, n);
	/* keyed: the k-th number since the seed, whatever was drawn since */
	while (rt->ndrawn <= rt->draws) {
		if (rt->ndrawn == rt->drawn_alloc) {
			rt->drawn_alloc = rt->drawn_alloc ? 2 * rt->drawn_alloc : 256;
			rt->drawn = lk_xrealloc(rt->drawn, rt->drawn_alloc * sizeof *rt->drawn);
		}
		rt->drawn[rt->ndrawn++] = ps_rng_uniform(&rt->rng);
	}
	/* floor(): the product is never negative */
	return (int)(rt->drawn[rt->draws++] * n);
}

void ps_runtime_track(struct ps_runtime *rt, bool on)
{
	rt->track = on;
}

void ps_set_host(struct ps_runtime *rt, const struct ps_host *host, void *ctx)
{
	rt->host = host;
	rt->host_ctx = ctx;
	/* a session never goes back to an earlier draw (undo does not) */
	rt->rng_keyed = false;
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
	ps_log_trim(rt);
	rt->in_turn = true;
	rt->turn_mark = rt->log_len;
}

static unsigned finish(struct ps_runtime *rt, struct ps_turn_info *info)
{
	rt->info = NULL;
	rt->in_turn = false;
	unsigned flags = 0;
	if (ps_changed_since(rt, rt->turn_mark))
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
	ps_put_cells(rt, rt->lv->cells);
	memcpy(rt->restart_cells, rt->lv->cells, (size_t)rt->n * (size_t)rt->ow * sizeof(ps_word));
	if (rt->rng_keyed)
		rt->draws = 0;   /* the start draws from the seed */
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
