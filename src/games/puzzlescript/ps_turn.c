/*
 * ps_turn.c - one turn of the reference engine (processInput): the
 * players start moving, rules run, movements resolve (rigid groups whose
 * movements fail are banned and the turn is re-run, up to 50 times), late
 * rules run, then the queued commands: cancel, restart, sounds, the win
 * check, checkpoint and again (tried first in a throw-away turn, and
 * taken only if it would change something).
 */
#include <string.h>

#include "ps_runtime.h"

static const int input_dir[5] = {PS_DIR_UP, PS_DIR_LEFT, PS_DIR_DOWN, PS_DIR_RIGHT, PS_DIR_ACTION};

static bool cell_has_player(const struct ps_runtime *rt, const ps_word *c)
{
	const struct ps_game *g = rt->g;
	return g->player_aggregate ? ps_bits_subset(g->player_mask, c, rt->ow) :
				     ps_bits_any(g->player_mask, c, rt->ow);
}

static void start_player(struct ps_runtime *rt, int i, int dir);

static void start_movement(struct ps_runtime *rt, int dir)
{
	int ow = rt->ow;
	rt->nplayers = 0;
	for (int x = 0; x < rt->w; x++) {
		/* skip columns that never held a player (the masks only grow) */
		if (!cell_has_player(rt, rt->col_obj + (size_t)x * (size_t)ow))
			continue;
		for (int y = 0; y < rt->h; y++) {
			int i = x * rt->h + y;
			const ps_word *c = rt->cells + (size_t)i * (size_t)ow;
			if (cell_has_player(rt, c))
				start_player(rt, i, dir);
		}
	}
}

static void start_player(struct ps_runtime *rt, int i, int dir)
{
	const struct ps_game *g = rt->g;
	int ow = rt->ow, mw = rt->mw;
	const ps_word *c = rt->cells + (size_t)i * (size_t)ow;
	ps_word *m = rt->movs + (size_t)i * (size_t)mw;
	rt->players[rt->nplayers++] = i;
	for (int k = 0; k < ow; k++) {
		ps_word bits = c[k] & g->player_mask[k];
		while (bits) {
			int id = k * 64 + __builtin_ctzll(bits);
			bits &= bits - 1;
			if (g->objects[id].layer >= 0)
				ps_mov_or(m, g->objects[id].layer, (unsigned)dir);
		}
	}
	ps_movmap_set(rt, i);
	int x = i / rt->h, y = i % rt->h;
	for (int k = 0; k < mw; k++) {
		rt->col_mov[x * mw + k] |= m[k];
		rt->row_mov[y * mw + k] |= m[k];
		rt->map_mov[k] |= m[k];
	}
}

static void push_seed(int *list, int *n, int seed)
{
	for (int k = 0; k < *n; k++)
		if (list[k] == seed)
			return;
	list[(*n)++] = seed;
}

static bool move_layer(struct ps_runtime *rt, int i, int layer, unsigned dir)
{
	const struct ps_game *g = rt->g;
	int ow = rt->ow, h = rt->h;
	int dx = 0, dy = 0;
	switch (dir) {
	case PS_DIR_UP: dy = -1; break;
	case PS_DIR_DOWN: dy = 1; break;
	case PS_DIR_LEFT: dx = -1; break;
	case PS_DIR_RIGHT: dx = 1; break;
	default: break;
	}
	int tx = i / h, ty = i % h;
	if ((tx == 0 && dx < 0) || (tx == rt->w - 1 && dx > 0) || (ty == 0 && dy < 0) ||
	    (ty == h - 1 && dy > 0))
		return false;
	int t = i + dy + dx * h;
	const ps_word *lm = g->layer_masks + (size_t)layer * (size_t)ow;
	ps_word *src = rt->cells + (size_t)i * (size_t)ow, *dst = rt->cells + (size_t)t * (size_t)ow;
	if (dir != PS_DIR_ACTION && ps_bits_any(lm, dst, ow))
		return false;
	const ps_word *m = rt->movs + (size_t)i * (size_t)rt->mw;
	for (int k = 0; k < g->sfx_move_count[layer]; k++) {
		const struct ps_sfx_mask *o = &g->sfx_move[g->sfx_move_first[layer] + k];
		if (ps_bits_any(o->objects, src, ow) && ps_bits_any(m, o->dirs, rt->mw))
			push_seed(rt->seeds_can, &rt->ncan, o->seed);
	}
	ps_word moving[ow], target[ow];
	for (int k = 0; k < ow; k++) {
		moving[k] = src[k] & lm[k];
		target[k] = dst[k] | moving[k];
	}
	for (int k = 0; k < ow; k++)
		src[k] &= ~lm[k];
	memcpy(dst, target, sizeof target);
	int x = t / h, y = t % h;
	for (int k = 0; k < ow; k++) {
		rt->col_obj[x * ow + k] |= moving[k];
		rt->row_obj[y * ow + k] |= moving[k];
	}
	if (rt->track)
		for (int k = 0; k < ow; k++)
			rt->moved[k] |= moving[k];
	return true;
}

static bool move_cell(struct ps_runtime *rt, int i)
{
	int mw = rt->mw;
	ps_word *mp = rt->movs + (size_t)i * (size_t)mw;
	if (ps_bits_zero(mp, mw))
		return false;
	ps_word m[mw];
	memcpy(m, mp, sizeof m);
	bool moved = false;
	for (int l = 0; l < rt->g->nlayers; l++) {
		unsigned lmv = ps_mov_get(m, l);
		if (lmv && move_layer(rt, i, l, lmv)) {
			ps_mov_clear(m, l);
			moved = true;
		}
	}
	memcpy(mp, m, sizeof m);
	int x = i / rt->h, y = i % rt->h;
	for (int k = 0; k < mw; k++) {
		rt->col_mov[x * mw + k] |= m[k];
		rt->row_mov[y * mw + k] |= m[k];
		rt->map_mov[k] |= m[k];
	}
	return moved;
}

/* Move everything that can move; report rigid groups whose movements
 * failed (banning them) so the turn is re-run. */
static bool resolve_movements(struct ps_runtime *rt, bool *banned)
{
	const struct ps_game *g = rt->g;
	int ow = rt->ow, mw = rt->mw;
	bool moved = true;
	while (moved) {
		moved = false;
		for (int w = 0; w < rt->movmap_words; w++) {
			uint64_t bits = rt->movmap[w];
			while (bits) {
				int i = w * 64 + __builtin_ctzll(bits);
				bits &= bits - 1;
				moved = move_cell(rt, i) || moved;
			}
		}
	}
	bool undo = false;
	for (int w = 0; w < rt->movmap_words; w++) {
		uint64_t bits = rt->movmap[w];
		rt->movmap[w] = 0;
		while (bits) {
			int i = w * 64 + __builtin_ctzll(bits);
			bits &= bits - 1;
			ps_word *mp = rt->movs + (size_t)i * (size_t)mw;
			if (!ps_bits_zero(mp, mw)) {
				ps_word m[mw];
				memcpy(m, mp, sizeof m);
				if (g->rigid) {
					const ps_word *ma = rt->rigid_ma + (size_t)i * (size_t)mw;
					const ps_word *gi = rt->rigid_gi + (size_t)i * (size_t)mw;
					if (!ps_bits_zero(ma, mw)) {
						for (int k = 0; k < mw; k++)
							m[k] &= ma[k];
						for (int l = 0; l < g->nlayers && !ps_bits_zero(m, mw); l++) {
							if (!ps_mov_get(m, l))
								continue;
							int rg = (int)ps_mov_get(gi, l) - 1;
							if (rg >= 0) {
								int group = g->group_of_rigid[rg];
								if (!banned[group]) {
									banned[group] = true;
									undo = true;
								}
							}
							break;
						}
					}
				}
				const ps_word *c = rt->cells + (size_t)i * (size_t)ow;
				for (int k = 0; k < g->nsfx_cantmove; k++) {
					const struct ps_sfx_mask *o = &g->sfx_cantmove[k];
					if (ps_bits_any(c, o->objects, ow) && ps_bits_any(o->dirs, m, mw))
						push_seed(rt->seeds_cant, &rt->ncant, o->seed);
				}
			}
			memset(mp, 0, (size_t)mw * sizeof *mp);
			if (g->rigid) {
				memset(rt->rigid_gi + (size_t)i * (size_t)mw, 0, (size_t)mw * sizeof(ps_word));
				memset(rt->rigid_ma + (size_t)i * (size_t)mw, 0, (size_t)mw * sizeof(ps_word));
			}
		}
	}
	return undo;
}

/* ---- end of turn ---- */

void ps_restore_cells(struct ps_runtime *rt, const ps_word *cells)
{
	size_t nw = (size_t)rt->n * (size_t)rt->ow;
	if (cells != rt->cells)
		memcpy(rt->cells, cells, nw * sizeof(ps_word));
	memset(rt->movs, 0, (size_t)rt->n * (size_t)rt->mw * sizeof(ps_word));
	memset(rt->movmap, 0, (size_t)rt->movmap_words * sizeof(uint64_t));
	if (rt->g->rigid) {
		memset(rt->rigid_gi, 0, (size_t)rt->n * (size_t)rt->mw * sizeof(ps_word));
		memset(rt->rigid_ma, 0, (size_t)rt->n * (size_t)rt->mw * sizeof(ps_word));
	}
	rt->againing = false;
	rt->queue = 0;
	rt->queue_len = 0;
}

static void play_seed(struct ps_runtime *rt, int seed)
{
	struct ps_turn_info *info = rt->info;
	if (info && info->nsounds < PS_MAX_TURN_SOUNDS)
		info->sounds[info->nsounds++] = rt->g->seeds[seed];
	if (rt->host && rt->host->sound)
		rt->host->sound(rt->host_ctx, seed);
}

static void play_sounds(struct ps_runtime *rt)
{
	const struct ps_game *g = rt->g;
	for (int k = 0; k < rt->ncant; k++)
		play_seed(rt, rt->seeds_cant[k]);
	for (int k = 0; k < rt->ncan; k++)
		play_seed(rt, rt->seeds_can[k]);
	for (int k = 0; k < g->nsfx_create; k++)
		if (ps_bits_any(rt->sfx_create, g->sfx_create[k].objects, rt->ow))
			play_seed(rt, g->sfx_create[k].seed);
	for (int k = 0; k < g->nsfx_destroy; k++)
		if (ps_bits_any(rt->sfx_destroy, g->sfx_destroy[k].objects, rt->ow))
			play_seed(rt, g->sfx_destroy[k].seed);
}

static bool matches_mask(const ps_word *mask, bool aggr, const ps_word *c, int ow)
{
	return aggr ? ps_bits_subset(mask, c, ow) : ps_bits_any(mask, c, ow);
}

bool ps_check_win(const struct ps_runtime *rt)
{
	const struct ps_game *g = rt->g;
	int ow = rt->ow;
	if (g->nwins == 0)
		return false;
	for (int k = 0; k < g->nwins; k++) {
		const struct ps_wincond *wc = &g->wins[k];
		bool any_both = false, any_first_only = false;
		for (int x = 0; x < rt->w; x++) {
			/* a column without the first objects has no cell to test */
			if (!matches_mask(wc->mask1, wc->aggr1, rt->col_obj + (size_t)x * (size_t)ow, ow))
				continue;
			for (int y = 0; y < rt->h; y++) {
				const ps_word *c = rt->cells + (size_t)(x * rt->h + y) * (size_t)ow;
				if (!matches_mask(wc->mask1, wc->aggr1, c, ow))
					continue;
				if (matches_mask(wc->mask2, wc->aggr2, c, ow))
					any_both = true;
				else
					any_first_only = true;
			}
		}
		if ((wc->quantifier == -1 && any_both) || (wc->quantifier == 0 && !any_both) ||
		    (wc->quantifier == 1 && any_first_only))
			return false;
	}
	return true;
}

static void do_win(struct ps_runtime *rt)
{
	if (rt->info)
		rt->info->flags |= PS_WON;
	rt->againing = false;
	if (rt->host && rt->host->win)
		rt->left_level = rt->host->win(rt->host_ctx, rt);
	else
		rt->left_level = true;
}

static void check_win(struct ps_runtime *rt, bool dont_do_win)
{
	if (rt->queue & (1u << PS_CMD_WIN)) {
		if (!dont_do_win)
			do_win(rt);
		return;
	}
	if (ps_check_win(rt) && !dont_do_win)
		do_win(rt);
}

static void do_restart(struct ps_runtime *rt)
{
	if (rt->info)
		rt->info->flags |= PS_RESTARTED;
	if (rt->host && rt->host->restart) {
		rt->host->restart(rt->host_ctx, rt);
		return;
	}
	ps_reset_cells(rt, rt->restart_cells);
	if (rt->g->flags.run_rules_on_level_start)
		ps_process_input(rt, -1, true, false);
	rt->queue = 0;
	rt->queue_len = 0;
}

static void push_undo(struct ps_runtime *rt, const ps_word *bak)
{
	if (rt->host && rt->host->push_undo)
		rt->host->push_undo(rt->host_ctx, rt, bak);
}

static bool process_commands(struct ps_runtime *rt, const ps_word *bak, bool dont_modify,
			     bool dont_do_win, int input)
{
	size_t nw = (size_t)rt->n * (size_t)rt->ow;
	if (rt->queue & (1u << PS_CMD_CANCEL)) {
		bool left = rt->queue_len > 1;
		if (!dont_modify && rt->info)
			rt->info->sfx_commands |= rt->queue & 0x7ffu;
		ps_restore_cells(rt, bak);
		if (rt->info && !dont_modify)
			rt->info->flags |= PS_CANCELLED;
		return left;
	}
	if (rt->queue & (1u << PS_CMD_RESTART)) {
		if (!dont_modify && rt->info)
			rt->info->sfx_commands |= rt->queue & 0x7ffu;
		push_undo(rt, bak);
		if (!dont_modify)
			do_restart(rt);
	}
	bool modified = memcmp(rt->cells, bak, nw * sizeof(ps_word)) != 0;
	if (modified) {
		if (dont_modify) {
			ps_restore_cells(rt, bak);
			return true;
		}
		if (input != -1)
			push_undo(rt, bak);
	}
	if (dont_modify && (rt->queue & ((1u << PS_CMD_WIN) | (1u << PS_CMD_RESTART))))
		return true;
	if (!dont_modify) {
		play_sounds(rt);
		if (rt->info) {
			rt->info->sfx_commands |= rt->queue & 0x7ffu;
			if (rt->queue & (1u << PS_CMD_MESSAGE)) {
				rt->info->flags |= PS_MESSAGE;
				rt->info->message = rt->message;
			}
		}
	}
	if (!rt->text_mode)
		check_win(rt, dont_do_win);
	if (rt->left_level) {
		rt->queue = 0;
		rt->queue_len = 0;
		return modified;
	}
	if (rt->queue & (1u << PS_CMD_CHECKPOINT)) {
		if (rt->info)
			rt->info->flags |= PS_CHECKPOINT;
		if (rt->host && rt->host->checkpoint)
			rt->host->checkpoint(rt->host_ctx, rt);
	}
	if ((rt->queue & (1u << PS_CMD_AGAIN)) && modified) {
		const char *saved = rt->message;
		if (ps_process_input(rt, -1, true, true))
			rt->againing = true;
		rt->message = saved;
	}
	rt->queue = 0;
	rt->queue_len = 0;
	return modified;
}

/* The per-turn facts (tracking) as they stand at depth d, and putting
 * them back: what a turn undoes (a rigid re-run, a cancel, the players
 * who had to move and did not, again's trial turn) did not happen. */
static void track_save(struct ps_runtime *rt, int d)
{
	size_t fw = (size_t)(rt->g->nrules / 64 + 1), ow = (size_t)rt->ow;
	memcpy(rt->fired_save + (size_t)d * fw, rt->fired, fw * sizeof(uint64_t));
	memcpy(rt->moved_save + (size_t)d * ow, rt->moved, ow * sizeof(ps_word));
}

static void track_restore(struct ps_runtime *rt, int d)
{
	size_t fw = (size_t)(rt->g->nrules / 64 + 1), ow = (size_t)rt->ow;
	memcpy(rt->fired, rt->fired_save + (size_t)d * fw, fw * sizeof(uint64_t));
	memcpy(rt->moved, rt->moved_save + (size_t)d * ow, ow * sizeof(ps_word));
}

bool ps_process_input(struct ps_runtime *rt, int dir, bool dont_do_win, bool dont_modify)
{
	const struct ps_game *g = rt->g;
	size_t nw = (size_t)rt->n * (size_t)rt->ow, mwn = (size_t)rt->n * (size_t)rt->mw;
	rt->againing = false;
	if (rt->depth >= PS_MAX_DEPTH)
		return false;
	int depth = rt->depth;
	ps_word *bak = rt->bak[rt->depth++];
	memcpy(bak, rt->cells, nw * sizeof(ps_word));
	if (rt->track)
		track_save(rt, depth);
	rt->nplayers = 0;
	if (dir >= 0 && dir <= 4)
		start_movement(rt, input_dir[dir]);
	rt->queue = 0;
	rt->queue_len = 0;
	if (g->rigid) {
		/* only a rigid game rolls a turn back */
		memcpy(rt->start_cells, rt->cells, nw * sizeof(ps_word));
		memcpy(rt->start_movs, rt->movs, mwn * sizeof(ps_word));
		memcpy(rt->start_movmap, rt->movmap, (size_t)rt->movmap_words * sizeof(uint64_t));
		memset(rt->banned, 0, (size_t)(g->ngroups + 1) * sizeof(bool));
	}
	memset(rt->sfx_create, 0, (size_t)rt->ow * sizeof(ps_word));
	memset(rt->sfx_destroy, 0, (size_t)rt->ow * sizeof(ps_word));
	rt->ncan = rt->ncant = 0;
	bool rigid_loop;
	int loops = 0;
	do {
		rigid_loop = false;
		loops++;
		ps_apply_rule_groups(rt, 0, g->nearly, g->loop_point, rt->banned);
		if (resolve_movements(rt, rt->banned)) {
			rigid_loop = true;
			memcpy(rt->cells, rt->start_cells, nw * sizeof(ps_word));
			memcpy(rt->movs, rt->start_movs, mwn * sizeof(ps_word));
			memcpy(rt->movmap, rt->start_movmap, (size_t)rt->movmap_words * sizeof(uint64_t));
			rt->queue = 0;
			rt->queue_len = 0;
			memset(rt->sfx_create, 0, (size_t)rt->ow * sizeof(ps_word));
			memset(rt->sfx_destroy, 0, (size_t)rt->ow * sizeof(ps_word));
			rt->ncan = 0;   /* cantmove sounds are kept, as the reference keeps them */
			if (rt->track)
				track_restore(rt, depth);
		} else {
			ps_apply_rule_groups(rt, g->nearly, g->ngroups - g->nearly, g->loop_point + g->nearly,
					     NULL);
		}
	} while (loops < 50 && rigid_loop);

	if (rt->nplayers > 0 && g->flags.require_player_movement) {
		bool some_moved = false;
		for (int k = 0; k < rt->nplayers && !some_moved; k++)
			if (!ps_bits_any(g->player_mask, rt->cells + (size_t)rt->players[k] * (size_t)rt->ow,
					 rt->ow))
				some_moved = true;
		if (!some_moved) {
			ps_restore_cells(rt, bak);
			if (rt->track)
				track_restore(rt, depth);
			rt->message = NULL;
			rt->text_mode = false;
			if (rt->info)
				rt->info->flags |= PS_NO_MOVE;
			rt->depth--;
			return false;
		}
	}
	bool cancelled = (rt->queue & (1u << PS_CMD_CANCEL)) != 0;
	bool modified = process_commands(rt, bak, dont_modify, dont_do_win, dir);
	if (rt->track && (cancelled || dont_modify))
		track_restore(rt, depth);
	rt->depth--;
	return modified;
}
