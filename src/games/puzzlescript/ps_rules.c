/*
 * ps_rules.c - running rules, once ps_rule_match.c has found where their
 * rows match: apply the replacement at each combination of row matches
 * (re-checking all but the first, as an earlier replacement may have
 * spoilt a later match), queue the rule's commands, repeat a group until
 * nothing changes, and walk the groups with startloop/endloop jumps.
 * Random groups apply one match, chosen with the reference's generator,
 * among all matches of all their rules.
 *
 * Tuple order and re-checking follow the reference exactly: they decide
 * which of several overlapping matches wins.  What is faster here changes
 * none of that: a tuple re-checks or re-applies a row only when something
 * changed since the same row at the same place last matched or changed
 * nothing, and a loop whose pass brings the level back to where the pass
 * began stops at once (every later pass would do the same, to the
 * reference's limit of 200).
 */
#include <string.h>

#include "ps_runtime.h"

#if defined(__GNUC__)
#define PS_NOINLINE __attribute__((noinline))
#else
#define PS_NOINLINE
#endif

/* ---- replacement ---- */

/* Write a replacement's result into cell i: the objects (logged, with
 * what they create and destroy for the sounds) and the movements. */
static void put_result(struct ps_runtime *rt, int i, const ps_word *cur, const ps_word *curm,
		       bool rigid_change)
{
	int ow = rt->ow, mw = rt->mw;
	if (ow == 1 && mw == 1) {
		ps_word cell = rt->cells[i], c = cur[0], mv = curm[0];
		rt->sfx_create[0] |= c & ~cell;
		rt->sfx_destroy[0] |= cell & ~c;
		if (c != cell)
			ps_write_cell(rt, i, cur);
		rt->movs[i] = mv;
		rt->map_mov[0] |= mv;
		if (mv || rigid_change)
			ps_movmap_set(rt, i);
		ps_touch(rt, i);
		return;
	}
	ps_word *cell = rt->cells + (size_t)i * (size_t)ow;
	bool objects = false;
	for (int k = 0; k < ow; k++) {
		rt->sfx_create[k] |= cur[k] & ~cell[k];
		rt->sfx_destroy[k] |= cell[k] & ~cur[k];
		objects |= cur[k] != cell[k];
	}
	if (objects)
		ps_write_cell(rt, i, cur);
	ps_word *mov = rt->movs + (size_t)i * (size_t)mw;
	bool moving = false;
	for (int k = 0; k < mw; k++) {
		mov[k] = curm[k];
		rt->map_mov[k] |= curm[k];
		moving |= curm[k] != 0;
	}
	/* the movement phase clears movements and rigid marks where the map
	 * says there may be some */
	if (moving || rigid_change)
		ps_movmap_set(rt, i);
	ps_touch(rt, i);
}

/* The replacement of pattern p in cell i; whether it changed anything.
 * Most replacements are one word of objects and one of movements, not
 * rigid: that case is small and inline, the rest is a call (its frame,
 * with room for any number of words, costs more than the case itself). */
static bool replace_wide(struct ps_runtime *rt, const struct ps_rule *rule, const struct ps_pattern *p,
			 int i) PS_NOINLINE;

static inline bool replace(struct ps_runtime *rt, const struct ps_rule *rule, const struct ps_pattern *p,
			   int i)
{
	const struct ps_game *g = rt->g;
	if (!p->has_rep)
		return false;
	if (rt->ow == 1 && rt->mw == 1 && !rule->rigid) {
		/* most replacements: one word each, not rigid */
		ps_word set = p->set0, clear = p->clear0, mset = p->movset0, mclear = p->movclear0;
		if (p->rep_random_obj) {
			int id = p->random_objs[ps_draw_below(rt, p->nrandom)];
			int layer = g->objects[id].layer;
			set |= (ps_word)1 << id;
			if (layer >= 0) {
				clear |= g->layer_masks[layer];
				mclear |= (ps_word)31 << ps_mov_shift(layer);
			}
		}
		if (p->rep_random_dir)
			for (int l = 0; l < g->nlayers; l++)
				if (ps_mov_get(p->random_dir, l) & 1)
					mset |= (ps_word)(1u << ps_draw_below(rt, 4)) << ps_mov_shift(l);
		ps_word cell = rt->cells[i], mov = rt->movs[i];
		ps_word cur = (cell & ~clear) | set, curm = (mov & ~mclear) | mset;
		if (cur == cell && curm == mov)
			return false;
		put_result(rt, i, &cur, &curm, false);
		return true;
	}
	return replace_wide(rt, rule, p, i);
}

static bool replace_wide(struct ps_runtime *rt, const struct ps_rule *rule, const struct ps_pattern *p,
			 int i)
{
	const struct ps_game *g = rt->g;
	int ow = rt->ow, mw = rt->mw;
	const ps_word *set = p->set, *clear = p->clear, *mset = p->mov_set, *mclear = p->mov_clear;
	ps_word rset[ow], rclear[ow], rmset[mw], rmclear[mw];
	if (p->rep_random_obj || p->rep_random_dir) {
		/* the masks with this draw's object or direction added */
		memcpy(rset, p->set, sizeof rset);
		memcpy(rclear, p->clear, sizeof rclear);
		memcpy(rmset, p->mov_set, sizeof rmset);
		memcpy(rmclear, p->mov_clear, sizeof rmclear);
		set = rset;
		clear = rclear;
		mset = rmset;
		mclear = rmclear;
	}
	if (p->rep_random_obj) {
		int id = p->random_objs[ps_draw_below(rt, p->nrandom)];
		int layer = g->objects[id].layer;
		ps_bit_set(rset, id);
		if (layer >= 0) {
			for (int k = 0; k < ow; k++)
				rclear[k] |= g->layer_masks[layer * ow + k];
			ps_mov_or(rmclear, layer, 31);
		}
	}
	if (p->rep_random_dir) {
		for (int l = 0; l < g->nlayers; l++)
			if (ps_mov_get(p->random_dir, l) & 1) {
				int r = ps_draw_below(rt, 4);
				ps_mov_or(rmset, l, 1u << r);
			}
	}
	const ps_word *cell = rt->cells + (size_t)i * (size_t)ow;
	const ps_word *mov = rt->movs + (size_t)i * (size_t)mw;
	ps_word cur[ow], curm[mw];
	bool same = true;
	for (int k = 0; k < ow; k++) {
		cur[k] = (cell[k] & ~clear[k]) | set[k];
		if (cur[k] != cell[k])
			same = false;
	}
	for (int k = 0; k < mw; k++) {
		curm[k] = (mov[k] & ~mclear[k]) | mset[k];
		if (curm[k] != mov[k])
			same = false;
	}
	bool rigid_change = false;
	if (rule->rigid) {
		unsigned rgi = (unsigned)rule->rigid_index;
		ps_word rmask[mw];
		memset(rmask, 0, sizeof rmask);
		for (int l = 0; l < g->nlayers; l++)
			ps_mov_or(rmask, l, rgi);
		for (int k = 0; k < mw; k++)
			rmask[k] &= p->mov_layers[k];
		ps_word *gi = rt->rigid_gi + (size_t)i * (size_t)mw;
		ps_word *ma = rt->rigid_ma + (size_t)i * (size_t)mw;
		if (!ps_bits_subset(rmask, gi, mw) && !ps_bits_subset(p->mov_layers, ma, mw)) {
			for (int k = 0; k < mw; k++) {
				gi[k] |= rmask[k];
				ma[k] |= p->mov_layers[k];
			}
			rigid_change = true;
		}
	}
	if (same && !rigid_change)
		return false;
	put_result(rt, i, cur, curm, rigid_change);
	return true;
}

/* The replacement of one row at match m; whether it changed anything. */
static bool apply_row(struct ps_runtime *rt, const struct ps_rule *rule, const struct ps_row *row,
		      const struct ps_match *m, int d)
{
	bool result = false;
	int i = m->i, e = 0;
	for (int c = 0; c < row->ncells; c++) {
		if (row->cells[c] < 0) {
			i += d * (e++ == 0 ? m->k1 : m->k2);
			continue;
		}
		result = replace(rt, rule, &rt->g->patterns[row->cells[c]], i) || result;
		i += d;
	}
	return result;
}

static void note_fired(struct ps_runtime *rt, const struct ps_rule *rule)
{
	if (rt->track)
		rt->fired[rule->index >> 6] |= (uint64_t)1 << (rule->index & 63);
}

/* One tuple of row matches (pick), re-checked first unless it is the
 * first: the reference's applyAt. */
static bool apply_at(struct ps_runtime *rt, const struct ps_rule *rule, const int *pick, bool check)
{
	int d = ps_rule_delta(rt, rule->dir);
	if (check)
		for (int r = 0; r < rule->nrows; r++)
			if (!ps_recheck_row(rt, &rule->rows[r], &rt->rows[r].v[pick[r]], d))
				return false;
	bool result = false;
	for (int r = 0; r < rule->nrows; r++)
		result = apply_row(rt, rule, &rule->rows[r], &rt->rows[r].v[pick[r]], d) || result;
	if (result)
		note_fired(rt, rule);
	return result;
}

/* Whether no cell of the row at m changed after stamp: a row without
 * ellipses reads only its own cells; one with them reads the gaps too, so
 * only "nothing changed anywhere" will do. */
static bool unchanged_since(const struct ps_runtime *rt, const struct ps_row *row,
			    const struct ps_match *m, int d, uint64_t stamp)
{
	if (row->nellipses > 0)
		return rt->mods == stamp;
	if (rt->all_mod > stamp)
		return false;
	for (int c = 0, i = m->i; c < row->ncells; c++, i += d)
		if (rt->cell_mod[i] > stamp)
			return false;
	return true;
}

/*
 * The same over every tuple, in the reference's order (the first row
 * varying fastest), with two caches that change no result: a row's match
 * re-checked (or just found) need not be re-checked while none of its
 * cells changes, and a row whose replacement changed nothing changes
 * nothing again while none of its cells does (unless it draws random
 * numbers: then it must draw them again).  A rule whose rows match many
 * places each (Singleton Traffic's [ Action Player ] [ Player ]) has as
 * many tuples as their product.
 */
static bool apply_tuples(struct ps_runtime *rt, const struct ps_rule *rule)
{
	int d = ps_rule_delta(rt, rule->dir), nrows = rule->nrows;
	if (nrows == 1) {
		/* one row (most rules): its matches in order, each re-checked
		 * unless none of its cells changed since it was found */
		const struct ps_row *row = &rule->rows[0];
		struct ps_match_list *l = &rt->rows[0];
		bool result = false;
		for (size_t k = 0; k < l->n; k++) {
			struct ps_match *m = &l->v[k];
			if (k > 0 && !unchanged_since(rt, row, m, d, m->chk) && !ps_recheck_row(rt, row, m, d))
				continue;
			if (apply_row(rt, rule, row, m, d))
				result = true;
		}
		if (result)
			note_fired(rt, rule);
		return result;
	}
	int pick[nrows > 0 ? nrows : 1];   /* a VLA may not be empty */
	memset(pick, 0, sizeof pick);
	bool result = false;
	/* mods when the current cycle of the first row began, and whether
	 * every tuple of it failed on the first row */
	uint64_t cycle_mods = rt->mods;
	bool cycle_failed = true;
	for (bool first = true;; first = false) {
		bool ok = true;
		for (int r = 0; r < nrows && !first; r++) {
			const struct ps_row *row = &rule->rows[r];
			struct ps_match *m = &rt->rows[r].v[pick[r]];
			if (!unchanged_since(rt, row, m, d, m->chk)) {
				m->ok = ps_recheck_row(rt, row, m, d);
				m->chk = rt->mods;
			}
			if (!m->ok) {
				ok = false;
				/* while nothing changes, every tuple that keeps rows r..
				 * fails here too: skip to the next match of row r */
				for (int q = 0; q < r; q++)
					pick[q] = (int)rt->rows[q].n - 1;
				break;
			}
			if (r == 0)
				cycle_failed = false;
		}
		if (first)
			cycle_failed = false;
		if (ok) {
			bool changed = false;
			for (int r = 0; r < nrows; r++) {
				const struct ps_row *row = &rule->rows[r];
				struct ps_match *m = &rt->rows[r].v[pick[r]];
				if (m->nop_ok && !row->random_rep && unchanged_since(rt, row, m, d, m->nop))
					continue;
				uint64_t before = rt->mods;
				if (apply_row(rt, rule, row, m, d)) {
					changed = true;
				} else {
					m->nop = before;
					m->nop_ok = true;
				}
			}
			if (changed) {
				result = true;
				note_fired(rt, rule);
			}
		}
		int r = 0;
		while (r < nrows && ++pick[r] == (int)rt->rows[r].n)
			pick[r++] = 0;
		if (r == nrows)
			break;
		if (r > 0) {
			/* a whole cycle of the first row failed on it and changed
			 * nothing: every later cycle fails the same way */
			if (cycle_failed && cycle_mods == rt->mods)
				break;
			cycle_mods = rt->mods;
			cycle_failed = true;
		}
	}
	return result;
}

static void queue_commands(struct ps_runtime *rt, const struct ps_rule *rule)
{
	uint32_t cmds = rule->commands;
	if (!cmds)
		return;
	const uint32_t cancel = 1u << PS_CMD_CANCEL, restart = 1u << PS_CMD_RESTART;
	if (rt->queue & cancel)
		return;
	if ((rt->queue & restart) && !(cmds & cancel))
		return;
	if (cmds & (cancel | restart)) {
		rt->queue = 0;
		rt->queue_len = 0;
		rt->message = NULL;
	}
	for (int c = 0; c < PS_NCMDS; c++) {
		if (!(cmds & (1u << c)) || (rt->queue & (1u << c)))
			continue;
		rt->queue |= 1u << c;
		rt->queue_len++;
		if (c == PS_CMD_MESSAGE)
			rt->message = rule->message;
	}
}

static bool try_apply(struct ps_runtime *rt, const struct ps_rule *rule)
{
	if (!ps_find_matches(rt, rule))
		return false;
	bool result = rule->has_replacements && apply_tuples(rt, rule);
	queue_commands(rt, rule);
	return result;
}

static bool apply_random_group(struct ps_runtime *rt, const struct ps_group *grp)
{
	const struct ps_rule *rules = rt->g->rules + grp->first;
	size_t total = 0;
	for (int k = 0; k < grp->count; k++) {
		if (!ps_find_matches(rt, &rules[k]))
			continue;
		size_t t = 1;
		for (int r = 0; r < rules[k].nrows; r++)
			t *= rt->rows[r].n;
		total += t;
	}
	if (total == 0)
		return false;
	size_t pick_index = (size_t)ps_draw_below(rt, (int)total);
	for (int k = 0; k < grp->count; k++) {
		if (!ps_find_matches(rt, &rules[k]))
			continue;
		size_t t = 1;
		for (int r = 0; r < rules[k].nrows; r++)
			t *= rt->rows[r].n;
		if (pick_index >= t) {
			pick_index -= t;
			continue;
		}
		int pick[rules[k].nrows > 0 ? rules[k].nrows : 1];   /* a VLA may not be empty */
		for (int r = 0; r < rules[k].nrows; r++) {
			pick[r] = (int)(pick_index % rt->rows[r].n);
			pick_index /= rt->rows[r].n;
		}
		bool modified = apply_at(rt, &rules[k], pick, false);
		queue_commands(rt, &rules[k]);
		return modified;
	}
	return false;
}

/*
 * A pass that brings the level back to where it began: a group whose rules
 * undo each other ([ A ] -> [ B ] then [ B ] -> [ A ]), or a startloop
 * whose groups do.  The reference repeats such a pass to its limit of 200
 * (and says it was caught looping); every repeat starts from the same
 * cells, movements and rigid marks with the same generator, so it ends
 * the same way, and the commands it queues are queued already: stopping
 * after the first repeat leaves exactly what the 200th would.  A pass that
 * drew a random number is not a repeat (the generator moved on).  The
 * level is copied only after PASS_FIRST_COPY passes, so that the many
 * groups and loops that settle within a few passes (a push down a row of
 * crates) pay nothing.
 */
#define PASS_FIRST_COPY 4

static size_t pass_words(const struct ps_runtime *rt)
{
	size_t n = (size_t)rt->n;
	return n * (size_t)rt->ow + n * (size_t)rt->mw * (rt->rigid_gi ? 3 : 1);
}

/* Whether the level and the generator are as pass_take(which) left them. */
static bool pass_same(const struct ps_runtime *rt, int which)
{
	const ps_word *s = rt->pass_state[which];
	size_t cw = (size_t)rt->n * (size_t)rt->ow, mw = (size_t)rt->n * (size_t)rt->mw;
	if (!s || rt->rolls != rt->pass_rolls[which] || memcmp(s, rt->cells, cw * sizeof *s) ||
	    memcmp(s + cw, rt->movs, mw * sizeof *s))
		return false;
	return !rt->rigid_gi || (!memcmp(s + cw + mw, rt->rigid_gi, mw * sizeof *s) &&
				 !memcmp(s + cw + 2 * mw, rt->rigid_ma, mw * sizeof *s));
}

static void pass_take(struct ps_runtime *rt, int which)
{
	if (!rt->pass_state[which])
		rt->pass_state[which] = lk_xcalloc(pass_words(rt), sizeof(ps_word));
	ps_word *s = rt->pass_state[which];
	size_t cw = (size_t)rt->n * (size_t)rt->ow, mw = (size_t)rt->n * (size_t)rt->mw;
	memcpy(s, rt->cells, cw * sizeof *s);
	memcpy(s + cw, rt->movs, mw * sizeof *s);
	if (rt->rigid_gi) {
		memcpy(s + cw + mw, rt->rigid_gi, mw * sizeof *s);
		memcpy(s + cw + 2 * mw, rt->rigid_ma, mw * sizeof *s);
	}
	rt->pass_rolls[which] = rt->rolls;
}

static bool apply_group(struct ps_runtime *rt, const struct ps_group *grp)
{
	if (grp->random)
		return apply_random_group(rt, grp);
	const struct ps_rule *rules = rt->g->rules + grp->first;
	bool has_changes = false, changed = true;
	int loops = 0, copied = -1;   /* the pass after which the level was copied */
	while (changed && loops++ < 200) {
		changed = false;
		int failures = 0;
		uint64_t rolls = rt->rolls;
		for (int k = 0; k < grp->count; k++) {
			if (try_apply(rt, &rules[k])) {
				changed = true;
				failures = 0;
			} else if (++failures == grp->count) {
				break;
			}
		}
		if (changed) {
			has_changes = true;
			/* a pass that changed things and came back: the rest
			 * of the 200 would too */
			if (copied == loops - 1 && pass_same(rt, 0))
				break;
			/* a pass that drew numbers is followed by one that
			 * draws (the same rules match): no use copying */
			if (loops >= PASS_FIRST_COPY && rt->rolls == rolls) {
				pass_take(rt, 0);
				copied = loops;
			}
		}
	}
	return has_changes;
}

void ps_apply_rule_groups(struct ps_runtime *rt, int first, int count, const int *loop_point,
			  bool *banned)
{
	bool propagated = false;
	int loops = 0, gi = 0;
	uint64_t rolls = rt->rolls;   /* as the pass began */
	int copied_at = -1;           /* the loop's first group, when the level was copied */
	while (gi < count) {
		if (!banned || !banned[gi])
			propagated = apply_group(rt, &rt->g->groups[first + gi]) || propagated;
		if (propagated && loop_point[gi] >= 0) {
			gi = loop_point[gi];
			propagated = false;
			if (++loops > 200)
				break;
			/* the pass from gi back to here came back to where it
			 * began (propagated was false then too): so would every
			 * pass up to the limit, after which the reference leaves
			 * the rules (the groups after the loop are not run) */
			if (copied_at == gi && pass_same(rt, 1))
				break;
			copied_at = -1;
			if (loops >= PASS_FIRST_COPY && rt->rolls == rolls) {
				pass_take(rt, 1);
				copied_at = gi;
			}
			rolls = rt->rolls;
			continue;
		}
		gi++;
	}
}
