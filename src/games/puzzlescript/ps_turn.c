/*
 * ps_turn.c - one turn of the reference engine (processInput): the
 * players start moving, rules run, movements resolve (rigid groups whose
 * movements fail are banned and the turn is re-run, up to 50 times), late
 * rules run, then the queued commands: cancel, restart, sounds, the win
 * check, checkpoint and again (tried first in a throw-away turn, and
 * taken only if it would change something).  What a turn undoes it undoes
 * through the runtime's log (ps_state.c), back to the mark taken when the
 * turn began.
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

/* Walk the cells holding any of objs (all of them, aggregate), in cell
 * order, calling fn on each; fn returns false to stop. */
static void each_cell_of(const struct ps_runtime *rt, const int *objs, int nobjs, bool aggregate,
			 bool (*fn)(struct ps_runtime *rt, int i, void *ctx), void *ctx)
{
	for (int w = 0; w < rt->bbw; w++) {
		uint64_t bits;
		if (nobjs == 0) {
			bits = aggregate ? ~(uint64_t)0 : 0;
			if (w == rt->bbw - 1 && (rt->n & 63))
				bits &= ((uint64_t)1 << (rt->n & 63)) - 1;
		} else {
			bits = ps_board(rt, objs[0], false)[w];
			for (int k = 1; k < nobjs; k++)
				bits = aggregate ? bits & ps_board(rt, objs[k], false)[w] :
						   bits | ps_board(rt, objs[k], false)[w];
		}
		while (bits) {
			int i = w * 64 + __builtin_ctzll(bits);
			bits &= bits - 1;
			if (!fn((struct ps_runtime *)rt, i, ctx))
				return;
		}
	}
}

static bool start_at(struct ps_runtime *rt, int i, void *ctx)
{
	const ps_word *c = rt->cells + (size_t)i * (size_t)rt->ow;
	if (cell_has_player(rt, c))
		start_player(rt, i, *(int *)ctx);
	return true;
}

void ps_start_movement(struct ps_runtime *rt, int dir)
{
	const struct ps_game *g = rt->g;
	rt->nplayers = 0;
	each_cell_of(rt, g->player_objs, g->nplayer_objs, g->player_aggregate, start_at, &dir);
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
	for (int k = 0; k < mw; k++)
		rt->map_mov[k] |= m[k];
	ps_touch(rt, i);
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
	int tx = rt->cell_x[i], ty = rt->cell_y[i];
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
	ps_word moving[ow], source[ow], target[ow];
	for (int k = 0; k < ow; k++) {
		moving[k] = src[k] & lm[k];
		target[k] = dst[k] | moving[k];
		source[k] = src[k] & ~lm[k];
	}
	ps_write_cell(rt, i, source);
	ps_write_cell(rt, t, target);
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
	/* only the layers with a movement, in layer order */
	for (int k = 0; k < mw; k++) {
		ps_word left = m[k];
		while (left) {
			int l = k * PS_LAYERS_PER_WORD + __builtin_ctzll(left) / 5;
			left &= ~((ps_word)31 << ps_mov_shift(l));
			unsigned lmv = ps_mov_get(m, l);
			if (move_layer(rt, i, l, lmv)) {
				ps_mov_clear(m, l);
				moved = true;
			}
		}
	}
	if (moved) {
		memcpy(mp, m, sizeof m);
		ps_touch(rt, i);
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
			ps_touch(rt, i);
			if (g->rigid) {
				memset(rt->rigid_gi + (size_t)i * (size_t)mw, 0, (size_t)mw * sizeof(ps_word));
				memset(rt->rigid_ma + (size_t)i * (size_t)mw, 0, (size_t)mw * sizeof(ps_word));
			}
		}
	}
	/* every movement is cleared */
	memset(rt->movmap_rm, 0, (size_t)rt->movmap_words * sizeof(uint64_t));
	memset(rt->map_mov, 0, (size_t)mw * sizeof(ps_word));
	rt->mods++;
	return undo;
}

/* ---- end of turn ---- */

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

struct win_scan {
	const struct ps_wincond *wc;
	bool any_both, any_first_only;
};

static bool win_cell(struct ps_runtime *rt, int i, void *ctx)
{
	struct win_scan *ws = ctx;
	const ps_word *c = rt->cells + (size_t)i * (size_t)rt->ow;
	if (!matches_mask(ws->wc->mask1, ws->wc->aggr1, c, rt->ow))
		return true;
	if (matches_mask(ws->wc->mask2, ws->wc->aggr2, c, rt->ow))
		ws->any_both = true;
	else
		ws->any_first_only = true;
	/* stop as soon as the condition is decided */
	return !(ws->wc->quantifier == 1 ? ws->any_first_only : ws->any_both);
}

bool ps_check_win(const struct ps_runtime *rt)
{
	const struct ps_game *g = rt->g;
	if (g->nwins == 0)
		return false;
	for (int k = 0; k < g->nwins; k++) {
		const struct ps_wincond *wc = &g->wins[k];
		/* only cells holding the first objects count */
		struct win_scan ws = { wc, false, false };
		each_cell_of(rt, wc->objs1, wc->nobjs1, wc->aggr1, win_cell, &ws);
		if ((wc->quantifier == -1 && ws.any_both) || (wc->quantifier == 0 && !ws.any_both) ||
		    (wc->quantifier == 1 && ws.any_first_only))
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
	ps_put_cells(rt, rt->restart_cells);
	if (rt->g->flags.run_rules_on_level_start)
		ps_process_input(rt, -1, true, false);
	rt->queue = 0;
	rt->queue_len = 0;
}

/* The host's undo stack gets the cells as they were at mark (only a
 * session has one). */
static void push_undo(struct ps_runtime *rt, size_t mark)
{
	if (rt->host && rt->host->push_undo) {
		ps_cells_at(rt, mark, rt->scratch_cells);
		rt->host->push_undo(rt->host_ctx, rt, rt->scratch_cells);
	}
}

/* Undo everything since mark: the cells as they were, no movements. */
static void undo_to(struct ps_runtime *rt, size_t mark)
{
	ps_rollback(rt, mark);
	ps_clear_movements(rt);
}

static bool process_commands(struct ps_runtime *rt, size_t mark, bool dont_modify,
			     bool dont_do_win, int input)
{
	if (rt->queue & (1u << PS_CMD_CANCEL)) {
		bool left = rt->queue_len > 1;
		if (!dont_modify && rt->info)
			rt->info->sfx_commands |= rt->queue & 0x7ffu;
		undo_to(rt, mark);
		if (rt->info && !dont_modify)
			rt->info->flags |= PS_CANCELLED;
		return left;
	}
	if (rt->queue & (1u << PS_CMD_RESTART)) {
		if (!dont_modify && rt->info)
			rt->info->sfx_commands |= rt->queue & 0x7ffu;
		push_undo(rt, mark);
		if (!dont_modify)
			do_restart(rt);
	}
	bool modified = ps_changed_since(rt, mark);
	if (modified) {
		if (dont_modify) {
			undo_to(rt, mark);
			return true;
		}
		if (input != -1)
			push_undo(rt, mark);
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
	size_t mwn = (size_t)rt->n * (size_t)rt->mw;
	rt->againing = false;
	if (rt->depth >= PS_MAX_DEPTH)
		return false;
	ps_log_trim(rt);
	int depth = rt->depth++;
	/* what this turn writes is logged after mark, under an epoch of its own */
	size_t mark = rt->log_len;
	uint32_t outer_epoch = rt->epoch;
	if (++rt->epochs == 0) {
		memset(rt->logged, 0, (size_t)rt->n * sizeof *rt->logged);
		rt->epochs = 1;
	}
	rt->epoch = rt->epochs;
	if (rt->track)
		track_save(rt, depth);
	rt->nplayers = 0;
	if (dir >= 0 && dir <= 4)
		ps_start_movement(rt, input_dir[dir]);
	rt->queue = 0;
	rt->queue_len = 0;
	if (g->rigid) {
		/* only a rigid game rolls a turn back: its movements now */
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
			ps_rollback(rt, mark);
			memcpy(rt->movs, rt->start_movs, mwn * sizeof(ps_word));
			rt->all_mod = ++rt->mods;
			memcpy(rt->movmap, rt->start_movmap, (size_t)rt->movmap_words * sizeof(uint64_t));
			memset(rt->movmap_rm, 0, (size_t)rt->movmap_words * sizeof(uint64_t));
			for (int w = 0; w < rt->movmap_words; w++) {
				uint64_t bits = rt->movmap[w];
				while (bits) {
					int i = w * 64 + __builtin_ctzll(bits);
					bits &= bits - 1;
					ps_movmap_set(rt, i);
					for (int k = 0; k < rt->mw; k++)
						rt->map_mov[k] |= rt->movs[(size_t)i * (size_t)rt->mw + (size_t)k];
				}
			}
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

	bool modified = false;
	if (rt->nplayers > 0 && g->flags.require_player_movement) {
		bool some_moved = false;
		for (int k = 0; k < rt->nplayers && !some_moved; k++)
			if (!ps_bits_any(g->player_mask, rt->cells + (size_t)rt->players[k] * (size_t)rt->ow,
					 rt->ow))
				some_moved = true;
		if (!some_moved) {
			undo_to(rt, mark);
			if (rt->track)
				track_restore(rt, depth);
			rt->message = NULL;
			rt->text_mode = false;
			if (rt->info)
				rt->info->flags |= PS_NO_MOVE;
			goto out;
		}
	}
	bool cancelled = (rt->queue & (1u << PS_CMD_CANCEL)) != 0;
	modified = process_commands(rt, mark, dont_modify, dont_do_win, dir);
	if (rt->track && (cancelled || dont_modify))
		track_restore(rt, depth);
out:
	rt->epoch = outer_epoch;
	rt->depth--;
	return modified;
}
