/*
 * ps_rules.c - running rules: find every place a rule's rows match
 * (rows with ellipses match at every gap length), apply the replacement
 * at each combination of row matches (re-checking all but the first, as
 * an earlier replacement may have spoilt a later match), queue the rule's
 * commands, repeat a group until nothing changes, and walk the groups
 * with startloop/endloop jumps.  Random groups apply one match, chosen
 * with the reference's generator, among all matches of all their rules.
 *
 * Scan order, tuple order and re-checking follow the reference exactly:
 * they decide which of several overlapping matches wins.
 */
#include <string.h>

#include "ps_runtime.h"

static int delta_of(const struct ps_runtime *rt, int dir)
{
	switch (dir) {
	case PS_DIR_UP: return -1;
	case PS_DIR_DOWN: return 1;
	case PS_DIR_LEFT: return -rt->h;
	case PS_DIR_RIGHT: return rt->h;
	default: return 0;
	}
}

void ps_calc_masks(struct ps_runtime *rt)
{
	int ow = rt->ow, mw = rt->mw;
	memset(rt->map_obj, 0, (size_t)ow * sizeof(ps_word));
	memset(rt->map_mov, 0, (size_t)mw * sizeof(ps_word));
	memset(rt->row_obj, 0, (size_t)(rt->h * ow) * sizeof(ps_word));
	memset(rt->col_obj, 0, (size_t)(rt->w * ow) * sizeof(ps_word));
	memset(rt->row_mov, 0, (size_t)(rt->h * mw) * sizeof(ps_word));
	memset(rt->col_mov, 0, (size_t)(rt->w * mw) * sizeof(ps_word));
	if (ow == 1 && mw == 1) {
		for (int x = 0; x < rt->w; x++) {
			ps_word co = 0, cm = 0;
			for (int y = 0; y < rt->h; y++) {
				ps_word c = rt->cells[x * rt->h + y], m = rt->movs[x * rt->h + y];
				co |= c;
				cm |= m;
				rt->row_obj[y] |= c;
				rt->row_mov[y] |= m;
			}
			rt->col_obj[x] = co;
			rt->col_mov[x] = cm;
			rt->map_obj[0] |= co;
			rt->map_mov[0] |= cm;
		}
		return;
	}
	for (int x = 0; x < rt->w; x++)
		for (int y = 0; y < rt->h; y++) {
			int i = x * rt->h + y;
			const ps_word *c = rt->cells + (size_t)i * (size_t)ow;
			const ps_word *m = rt->movs + (size_t)i * (size_t)mw;
			for (int k = 0; k < ow; k++) {
				rt->map_obj[k] |= c[k];
				rt->row_obj[y * ow + k] |= c[k];
				rt->col_obj[x * ow + k] |= c[k];
			}
			for (int k = 0; k < mw; k++) {
				rt->map_mov[k] |= m[k];
				rt->row_mov[y * mw + k] |= m[k];
				rt->col_mov[x * mw + k] |= m[k];
			}
		}
}

static bool pattern_matches(const struct ps_runtime *rt, const struct ps_pattern *p, int i)
{
	int ow = rt->ow, mw = rt->mw;
	if (ow == 1 && mw == 1) {
		/* most games: one word of objects, one of movements */
		ps_word c = rt->cells[i], m = rt->movs[i];
		if ((c & p->present[0]) != p->present[0] || (c & p->missing[0]) ||
		    (m & p->mov_present[0]) != p->mov_present[0] || (m & p->mov_missing[0]))
			return false;
		for (int a = 0; a < p->nany; a++)
			if (!(c & p->any[a]))
				return false;
		return true;
	}
	const ps_word *c = rt->cells + (size_t)i * (size_t)ow;
	const ps_word *m = rt->movs + (size_t)i * (size_t)mw;
	for (int k = 0; k < ow; k++)
		if ((c[k] & p->present[k]) != p->present[k] || (c[k] & p->missing[k]))
			return false;
	for (int k = 0; k < mw; k++)
		if ((m[k] & p->mov_present[k]) != p->mov_present[k] || (m[k] & p->mov_missing[k]))
			return false;
	for (int a = 0; a < p->nany; a++) {
		const ps_word *any = p->any + a * ow;
		bool hit = false;
		for (int k = 0; k < ow; k++)
			if (c[k] & any[k])
				hit = true;
		if (!hit)
			return false;
	}
	return true;
}

/* cells [from, to) of a row, the first at position i */
static bool cells_match(const struct ps_runtime *rt, const struct ps_row *row, int from, int to, int i,
			int d)
{
	const struct ps_pattern *pats = rt->g->patterns;
	for (int c = from; c < to; c++, i += d)
		if (!pattern_matches(rt, &pats[row->cells[c]], i))
			return false;
	return true;
}

static void push_match(struct ps_match_list *l, int i, int k1, int k2)
{
	LK_ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n].i = i;
	l->v[l->n].k1 = k1;
	l->v[l->n].k2 = k2;
	l->n++;
}

static int ellipsis_at(const struct ps_row *row, int from)
{
	for (int c = from; c < row->ncells; c++)
		if (row->cells[c] < 0)
			return c;
	return row->ncells;
}

/* One-ellipsis row at i for gap lengths [kmin, kmax). */
static bool wild1(const struct ps_runtime *rt, const struct ps_row *row, int i, int kmin, int kmax,
		  int d, struct ps_match_list *out)
{
	int e = ellipsis_at(row, 0);
	bool any = false;
	if (!cells_match(rt, row, 0, e, i, d))
		return false;
	for (int k = kmin; k < kmax; k++)
		if (cells_match(rt, row, e + 1, row->ncells, i + d * (k + e), d)) {
			any = true;
			if (out)
				push_match(out, i, k, 0);
		}
	return any;
}

static bool wild2(const struct ps_runtime *rt, const struct ps_row *row, int i, int kmax, int kmin,
		  int k1max, int k1min, int k2max, int k2min, int d, struct ps_match_list *out)
{
	(void)kmin;
	int e1 = ellipsis_at(row, 0), e2 = ellipsis_at(row, e1 + 1);
	bool any = false;
	if (!cells_match(rt, row, 0, e1, i, d))
		return false;
	for (int k1 = k1min; k1 < k1max; k1++) {
		if (!cells_match(rt, row, e1 + 1, e2, i + d * (k1 + e1), d))
			continue;
		for (int k2 = k2min; k1 + k2 < kmax && k2 < k2max; k2++)
			if (cells_match(rt, row, e2 + 1, row->ncells, i + d * (k1 + k2 + e2 - 1), d)) {
				any = true;
				if (out)
					push_match(out, i, k1, k2);
			}
	}
	return any;
}

/* Whether a line (or the map) that held obj and mov may hold the row. */
static bool masks_allow(const struct ps_runtime *rt, const struct ps_row *row, const ps_word *obj,
			const ps_word *mov)
{
	if (!ps_bits_subset(row->obj_mask, obj, rt->ow) || !ps_bits_subset(row->mov_mask, mov, rt->mw))
		return false;
	for (int a = 0; a < row->nany; a++)
		if (!ps_bits_any(row->any_masks + a * rt->ow, obj, rt->ow))
			return false;
	return true;
}

static void match_row(struct ps_runtime *rt, const struct ps_rule *rule, const struct ps_row *row,
		      struct ps_match_list *out)
{
	int w = rt->w, h = rt->h, ow = rt->ow, mw = rt->mw, dir = rule->dir;
	int d = delta_of(rt, dir);
	out->n = 0;
	if (!masks_allow(rt, row, rt->map_obj, rt->map_mov))
		return;
	int len = row->ncells - row->nellipses;
	int xmin = 0, xmax = w, ymin = 0, ymax = h;
	switch (dir) {
	case PS_DIR_UP: ymin += len - 1; break;
	case PS_DIR_DOWN: ymax -= len - 1; break;
	case PS_DIR_LEFT: xmin += len - 1; break;
	case PS_DIR_RIGHT: xmax -= len - 1; break;
	default: break;
	}
	bool horizontal = dir > 2;
	if (!horizontal && row->ncells == 1 && !ps_bits_zero(row->mov_mask, mw)) {
		/* a one-cell row that needs a movement, read in cell order: only
		 * cells that may have movements can match */
		for (int wd = 0; wd < rt->movmap_words; wd++) {
			uint64_t bits = rt->movmap[wd];
			while (bits) {
				int i = wd * 64 + __builtin_ctzll(bits);
				bits &= bits - 1;
				if (cells_match(rt, row, 0, 1, i, d))
					push_match(out, i, 0, 0);
			}
		}
		return;
	}
	int outer_lo = horizontal ? ymin : xmin, outer_hi = horizontal ? ymax : xmax;
	int inner_lo = horizontal ? xmin : ymin, inner_hi = horizontal ? xmax : ymax;
	for (int a = outer_lo; a < outer_hi; a++) {
		const ps_word *lo = horizontal ? rt->row_obj + a * ow : rt->col_obj + a * ow;
		const ps_word *lm = horizontal ? rt->row_mov + a * mw : rt->col_mov + a * mw;
		if (!masks_allow(rt, row, lo, lm))
			continue;
		const struct ps_pattern *first = row->cells[0] >= 0 ? &rt->g->patterns[row->cells[0]] : NULL;
		bool quick = first && ow == 1 && mw == 1;
		for (int b = inner_lo; b < inner_hi; b++) {
			int x = horizontal ? b : a, y = horizontal ? a : b;
			int i = x * h + y;
			if (quick) {
				/* reject on the first cell's objects before anything else */
				ps_word c = rt->cells[i];
				if ((c & first->present[0]) != first->present[0] || (c & first->missing[0]) ||
				    (first->nany && !(c & first->any[0])))
					continue;
			}
			if (row->nellipses == 0) {
				if (cells_match(rt, row, 0, row->ncells, i, d))
					push_match(out, i, 0, 0);
				continue;
			}
			int kmax;
			switch (dir) {
			case PS_DIR_LEFT: kmax = x - len + 2; break;
			case PS_DIR_RIGHT: kmax = w - (x + len) + 1; break;
			case PS_DIR_DOWN: kmax = h - (y + len) + 1; break;
			default: kmax = y - len + 2; break;
			}
			if (row->nellipses == 1)
				wild1(rt, row, i, 0, kmax, d, out);
			else
				wild2(rt, row, i, kmax, 0, kmax, 0, kmax, 0, d, out);
		}
	}
}

static bool find_matches(struct ps_runtime *rt, const struct ps_rule *rule)
{
	if (!ps_bits_subset(rule->mask, rt->map_obj, rt->ow))
		return false;
	for (int r = 0; r < rule->nrows; r++) {
		match_row(rt, rule, &rule->rows[r], &rt->rows[r]);
		if (rt->rows[r].n == 0)
			return false;
	}
	return true;
}

/* ---- replacement ---- */

static void or_masks_at(struct ps_runtime *rt, int i, const ps_word *c, const ps_word *m)
{
	int ow = rt->ow, mw = rt->mw, x = i / rt->h, y = i % rt->h;
	for (int k = 0; k < ow; k++) {
		rt->col_obj[x * ow + k] |= c[k];
		rt->row_obj[y * ow + k] |= c[k];
		rt->map_obj[k] |= c[k];
	}
	for (int k = 0; k < mw; k++) {
		rt->col_mov[x * mw + k] |= m[k];
		rt->row_mov[y * mw + k] |= m[k];
		rt->map_mov[k] |= m[k];
	}
}

static bool replace(struct ps_runtime *rt, const struct ps_rule *rule, const struct ps_pattern *p, int i)
{
	const struct ps_game *g = rt->g;
	int ow = rt->ow, mw = rt->mw;
	if (!p->has_rep)
		return false;
	ps_word set[ow], clear[ow], mset[mw], mclear[mw];
	memcpy(set, p->set, sizeof set);
	memcpy(clear, p->clear, sizeof clear);
	memcpy(mset, p->mov_set, sizeof mset);
	memcpy(mclear, p->mov_clear, sizeof mclear);
	if (p->rep_random_obj) {
		int choices = 0;
		for (int b = 0; b < 64 * ow; b++)
			if (ps_bit_get(p->random_obj, b))
				choices++;
		int pick = ps_rng_below(&rt->rng, choices), id = -1;
		for (int b = 0; b < 64 * ow && id < 0; b++)
			if (ps_bit_get(p->random_obj, b) && pick-- == 0)
				id = b;
		int layer = id < g->nobjects ? g->objects[id].layer : -1;
		ps_bit_set(set, id);
		if (layer >= 0) {
			for (int k = 0; k < ow; k++)
				clear[k] |= g->layer_masks[layer * ow + k];
			ps_mov_or(mclear, layer, 31);
		}
	}
	if (p->rep_random_dir) {
		for (int l = 0; l < g->nlayers; l++)
			if (ps_mov_get(p->random_dir, l) & 1) {
				int r = ps_rng_below(&rt->rng, 4);
				ps_mov_or(mset, l, 1u << r);
			}
	}
	ps_word *cell = rt->cells + (size_t)i * (size_t)ow;
	ps_word *mov = rt->movs + (size_t)i * (size_t)mw;
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
	for (int k = 0; k < ow; k++) {
		rt->sfx_create[k] |= cur[k] & ~cell[k];
		rt->sfx_destroy[k] |= cell[k] & ~cur[k];
	}
	memcpy(cell, cur, sizeof cur);
	memcpy(mov, curm, sizeof curm);
	if (!ps_bits_zero(curm, mw))
		ps_movmap_set(rt, i);
	or_masks_at(rt, i, cur, curm);
	return true;
}

static bool recheck_row(const struct ps_runtime *rt, const struct ps_row *row, const struct ps_match *m,
			int d)
{
	if (row->nellipses == 0)
		return cells_match(rt, row, 0, row->ncells, m->i, d);
	if (row->nellipses == 1)
		return wild1(rt, row, m->i, m->k1, m->k1 + 1, d, NULL);
	return wild2(rt, row, m->i, m->k1 + m->k2 + 1, m->k1 + m->k2, m->k1 + 1, m->k1, m->k2 + 1,
		     m->k2, d, NULL);
}

static bool apply_at(struct ps_runtime *rt, const struct ps_rule *rule, const int *pick, bool check)
{
	int d = delta_of(rt, rule->dir);
	if (check)
		for (int r = 0; r < rule->nrows; r++)
			if (!recheck_row(rt, &rule->rows[r], &rt->rows[r].v[pick[r]], d))
				return false;
	bool result = false;
	for (int r = 0; r < rule->nrows; r++) {
		const struct ps_row *row = &rule->rows[r];
		const struct ps_match *m = &rt->rows[r].v[pick[r]];
		int i = m->i, e = 0;
		for (int c = 0; c < row->ncells; c++) {
			if (row->cells[c] < 0) {
				i += d * (e++ == 0 ? m->k1 : m->k2);
				continue;
			}
			result = replace(rt, rule, &rt->g->patterns[row->cells[c]], i) || result;
			i += d;
		}
	}
	if (result && rt->track)
		rt->fired[rule->index >> 6] |= (uint64_t)1 << (rule->index & 63);
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
	if (!find_matches(rt, rule))
		return false;
	bool result = false;
	if (rule->has_replacements) {
		int pick[rule->nrows];
		memset(pick, 0, sizeof pick);
		for (bool first = true;; first = false) {
			result = apply_at(rt, rule, pick, !first) || result;
			/* the first row varies fastest */
			int r = 0;
			while (r < rule->nrows && ++pick[r] == (int)rt->rows[r].n)
				pick[r++] = 0;
			if (r == rule->nrows)
				break;
		}
	}
	queue_commands(rt, rule);
	return result;
}

static bool apply_random_group(struct ps_runtime *rt, const struct ps_group *grp)
{
	const struct ps_rule *rules = rt->g->rules + grp->first;
	size_t total = 0;
	for (int k = 0; k < grp->count; k++) {
		if (!find_matches(rt, &rules[k]))
			continue;
		size_t t = 1;
		for (int r = 0; r < rules[k].nrows; r++)
			t *= rt->rows[r].n;
		total += t;
	}
	if (total == 0)
		return false;
	size_t pick_index = (size_t)ps_rng_below(&rt->rng, (int)total);
	for (int k = 0; k < grp->count; k++) {
		if (!find_matches(rt, &rules[k]))
			continue;
		size_t t = 1;
		for (int r = 0; r < rules[k].nrows; r++)
			t *= rt->rows[r].n;
		if (pick_index >= t) {
			pick_index -= t;
			continue;
		}
		int pick[rules[k].nrows];
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

static bool apply_group(struct ps_runtime *rt, const struct ps_group *grp)
{
	if (grp->random)
		return apply_random_group(rt, grp);
	const struct ps_rule *rules = rt->g->rules + grp->first;
	bool has_changes = false, changed = true;
	int loops = 0;
	while (changed && loops++ < 200) {
		changed = false;
		int failures = 0;
		for (int k = 0; k < grp->count; k++) {
			if (try_apply(rt, &rules[k])) {
				changed = true;
				failures = 0;
			} else if (++failures == grp->count) {
				break;
			}
		}
		if (changed)
			has_changes = true;
	}
	return has_changes;
}

void ps_apply_rule_groups(struct ps_runtime *rt, int first, int count, const int *loop_point,
			  bool *banned)
{
	bool propagated = false;
	int loops = 0, gi = 0;
	while (gi < count) {
		if (!banned || !banned[gi])
			propagated = apply_group(rt, &rt->g->groups[first + gi]) || propagated;
		if (propagated && loop_point[gi] >= 0) {
			gi = loop_point[gi];
			propagated = false;
			if (++loops > 200)
				break;
			continue;
		}
		gi++;
	}
}
