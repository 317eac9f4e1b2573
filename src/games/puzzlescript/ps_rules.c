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
 * they decide which of several overlapping matches wins.  What is faster
 * here changes none of that: a row is looked for only where its rarest
 * anchor object is (the runtime's bit boards, in the reference's scan
 * order), and a tuple re-checks or re-applies a row only when something
 * changed since the same row at the same place last matched or changed
 * nothing.
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

static bool pattern_matches(const struct ps_runtime *rt, const struct ps_pattern *p, int i)
{
	int ow = rt->ow, mw = rt->mw;
	if (ow == 1 && mw == 1) {
		/* most games: one word of objects, one of movements */
		ps_word c = rt->cells[i], m = rt->movs[i];
		if ((c & p->present0) != p->present0 || (c & p->missing0) ||
		    (m & p->movp0) != p->movp0 || (m & p->movm0))
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

/* Only the movements of cells [from, to) (their objects known to match,
 * from the bit boards). */
static bool moves_match(const struct ps_runtime *rt, const struct ps_row *row, int from, int to, int i,
			int d)
{
	const struct ps_pattern *pats = rt->g->patterns;
	int mw = rt->mw;
	for (int c = from; c < to; c++, i += d) {
		const struct ps_pattern *p = &pats[row->cells[c]];
		if (!p->movements)
			continue;
		const ps_word *m = rt->movs + (size_t)i * (size_t)mw;
		for (int k = 0; k < mw; k++)
			if ((m[k] & p->mov_present[k]) != p->mov_present[k] || (m[k] & p->mov_missing[k]))
				return false;
	}
	return true;
}

static void push_match(struct ps_match_list *l, int i, int k1, int k2)
{
	if (l->n == l->alloc)
		LK_ALLOC_GROW(l->v, l->n + 1, l->alloc);
	struct ps_match *m = &l->v[l->n++];
	m->i = i;
	m->k1 = k1;
	m->k2 = k2;
	m->chk = l->stamp;   /* just found: matching while nothing changes */
	m->ok = true;
	m->nop_ok = false;
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

/* Whether the map may hold the row: its objects, one of each of its
 * one-of sets, and its movements. */
static bool map_allows(const struct ps_runtime *rt, const struct ps_row *row)
{
	if (!ps_bits_subset(row->obj_mask, rt->map_obj, rt->ow) ||
	    !ps_bits_subset(row->mov_mask, rt->map_mov, rt->mw))
		return false;
	for (int a = 0; a < row->nany; a++)
		if (!ps_bits_any(row->any_masks + a * rt->ow, rt->map_obj, rt->ow))
			return false;
	return true;
}

/* The row's anchor with the fewest cells to start from (*count of
 * them), or NULL. */
static const struct ps_anchor *rarest_anchor(const struct ps_runtime *rt, const struct ps_row *row,
					     long *count)
{
	const struct ps_anchor *best = NULL;
	long best_count = 0;
	for (int a = 0; a < row->nanchors; a++) {
		const struct ps_anchor *an = &row->anchors[a];
		long n = 0;
		for (int k = 0; k < an->nobjs; k++)
			n += rt->obj_count[an->objs[k]];
		if (!best || n < best_count) {
			best = an;
			best_count = n;
		}
	}
	*count = best_count;
	return best;
}

/* Try the row starting at cell i = (x, y); add its matches. */
static void match_at(struct ps_runtime *rt, const struct ps_row *row, int dir, int d, int len, int x,
		     int y, struct ps_match_list *out)
{
	int i = x * rt->h + y;
	if (row->nellipses == 0) {
		if (cells_match(rt, row, 0, row->ncells, i, d))
			push_match(out, i, 0, 0);
		return;
	}
	int kmax;
	switch (dir) {
	case PS_DIR_LEFT: kmax = x - len + 2; break;
	case PS_DIR_RIGHT: kmax = rt->w - (x + len) + 1; break;
	case PS_DIR_DOWN: kmax = rt->h - (y + len) + 1; break;
	default: kmax = y - len + 2; break;
	}
	if (row->nellipses == 1)
		wild1(rt, row, i, 0, kmax, d, out);
	else
		wild2(rt, row, i, kmax, 0, kmax, 0, kmax, 0, d, out);
}

/* One word of the cells a pattern may match, in the order of the
 * direction (row-major for horizontal rules): exact for the objects, and
 * for movements only "has some" when it needs one. */
static uint64_t pattern_word(const struct ps_runtime *rt, const struct ps_pattern *p, bool horizontal,
			     int wd)
{
	uint64_t v = ~(uint64_t)0;
	if (wd == rt->bbw - 1 && (rt->n & 63))
		v = ((uint64_t)1 << (rt->n & 63)) - 1;
	for (int k = 0; k < p->npresent && v; k++)
		v &= ps_board(rt, p->present_objs[k], horizontal)[wd];
	for (int k = 0; k < p->nmissing && v; k++)
		v &= ~ps_board(rt, p->missing_objs[k], horizontal)[wd];
	for (int s = 0; s < p->nany && v; s++) {
		uint64_t u = 0;
		for (int k = p->any_first[s]; k < p->any_first[s + 1]; k++)
			u |= ps_board(rt, p->any_objs[k], horizontal)[wd];
		v &= u;
	}
	if (v && !ps_bits_zero(p->mov_present, rt->mw))
		v &= (horizontal ? rt->movmap_rm : rt->movmap)[wd];
	return v;
}

/* Word wd of the bit array a (nw words) read t bits further on. */
static inline uint64_t shifted(const uint64_t *a, int nw, int t, int wd)
{
	int base = wd * 64 + t;
	int q = base >= 0 ? base / 64 : -((-base + 63) / 64), r = base - q * 64;
	uint64_t lo = q >= 0 && q < nw ? a[q] : 0;
	if (!r)
		return lo;
	uint64_t hi = q + 1 >= 0 && q + 1 < nw ? a[q + 1] : 0;
	return (lo >> r) | (hi << (64 - r));
}

/* Where cells [from, to) of a row match, as a board of the cells the
 * segment starts at: the AND of each cell's word (rt->cell_words) read
 * its distance further on.  Whether that is exact (no cell reads
 * movements) is *exact. */
static void segment_board(const struct ps_runtime *rt, const struct ps_row *row, int from, int to,
			  int step, uint64_t *out, bool *exact)
{
	int bbw = rt->bbw;
	*exact = true;
	for (int j = from; j < to; j++)
		if (rt->g->patterns[row->cells[j]].movements)
			*exact = false;
	for (int wd = 0; wd < bbw; wd++) {
		uint64_t m = ~(uint64_t)0;
		for (int j = from; j < to && m; j++)
			m &= shifted(rt->cell_words + (size_t)j * (size_t)bbw, bbw, (j - from) * step, wd);
		out[wd] = m;
	}
}

static inline bool bit_at(const uint64_t *a, int p)
{
	return (a[p >> 6] >> (p & 63)) & 1;
}

/*
 * A row with ellipses, a board at a time: each segment between ellipses
 * is a board of where it can start; a start is walked along its line as
 * wild1 and wild2 walk it (the first gap, then the second, shortest
 * first), testing a bit instead of the segment's cells, which are checked
 * one by one only when they read movements.
 */
static void match_gaps(struct ps_runtime *rt, const struct ps_row *row, int dir, int d, int len,
		       bool horizontal, int step, struct ps_match_list *out)
{
	int bbw = rt->bbw, e1 = ellipsis_at(row, 0), e2 = ellipsis_at(row, e1 + 1);
	uint64_t *pre = rt->cell_words + (size_t)row->ncells * (size_t)bbw;
	uint64_t *mid = pre + bbw, *suf = mid + bbw;
	bool pre_exact, mid_exact = true, suf_exact;
	segment_board(rt, row, 0, e1, step, pre, &pre_exact);
	if (row->nellipses == 2) {
		segment_board(rt, row, e1 + 1, e2, step, mid, &mid_exact);
		segment_board(rt, row, e2 + 1, row->ncells, step, suf, &suf_exact);
	} else {
		segment_board(rt, row, e1 + 1, row->ncells, step, suf, &suf_exact);
	}
	const uint64_t *valid = ps_valid_starts(rt, dir, len);
	for (int wd = 0; wd < bbw; wd++) {
		uint64_t m = valid[wd] & pre[wd];
		while (m) {
			int p = wd * 64 + __builtin_ctzll(m);
			m &= m - 1;
			int i = horizontal ? rt->cell_of_rm[p] : p;
			if (!pre_exact && !moves_match(rt, row, 0, e1, i, d))
				continue;
			int x = rt->cell_x[i], y = rt->cell_y[i], kmax;
			switch (dir) {
			case PS_DIR_LEFT: kmax = x - len + 2; break;
			case PS_DIR_RIGHT: kmax = rt->w - (x + len) + 1; break;
			case PS_DIR_DOWN: kmax = rt->h - (y + len) + 1; break;
			default: kmax = y - len + 2; break;
			}
			if (row->nellipses == 1) {
				for (int k = 0; k < kmax; k++)
					if (bit_at(suf, p + step * (k + e1)) &&
					    (suf_exact || moves_match(rt, row, e1 + 1, row->ncells, i + d * (k + e1), d)))
						push_match(out, i, k, 0);
				continue;
			}
			for (int k1 = 0; k1 < kmax; k1++) {
				if (!bit_at(mid, p + step * (k1 + e1)) ||
				    (!mid_exact && !moves_match(rt, row, e1 + 1, e2, i + d * (k1 + e1), d)))
					continue;
				for (int k2 = 0; k1 + k2 < kmax; k2++)
					if (bit_at(suf, p + step * (k1 + k2 + e2 - 1)) &&
					    (suf_exact ||
					     moves_match(rt, row, e2 + 1, row->ncells, i + d * (k1 + k2 + e2 - 1), d)))
						push_match(out, i, k1, k2);
			}
		}
	}
}

/*
 * Every match of a row, in the reference's scan order: rows of cells
 * (y, then x) for horizontal rules, columns (x, then y) for vertical ones;
 * in the order of the bit boards (row-major and column-major), that is
 * their bit order.  A rare anchor's cells are walked one by one, each
 * giving the one start its offset allows; otherwise the starts are found
 * a word of the board at a time: each cell gives the word of cells its
 * pattern's objects match, read `offset` cells further on, and their AND
 * with the starts that keep the row on the board is every start (the
 * movements, which the boards do not hold, are then checked start by
 * start).  Starts come out in scan order either
 * way, and a start no anchor or word allows could not match.
 */
static void match_row(struct ps_runtime *rt, const struct ps_rule *rule, const struct ps_row *row,
		      struct ps_match_list *out)
{
	int w = rt->w, h = rt->h, dir = rule->dir;
	int d = delta_of(rt, dir);
	out->n = 0;
	out->stamp = rt->mods;
	if (!map_allows(rt, row))
		return;
	int len = row->ncells - row->nellipses;
	bool horizontal = dir > 2;
	int step = dir == PS_DIR_RIGHT || dir == PS_DIR_DOWN ? 1 : -1;
	long count;
	const struct ps_anchor *an = rarest_anchor(rt, row, &count);
	if (an && count <= rt->bbw) {
		int xmin = 0, xmax = w, ymin = 0, ymax = h;
		switch (dir) {
		case PS_DIR_UP: ymin += len - 1; break;
		case PS_DIR_DOWN: ymax -= len - 1; break;
		case PS_DIR_LEFT: xmin += len - 1; break;
		case PS_DIR_RIGHT: xmax -= len - 1; break;
		default: break;
		}
		/* the anchor cell is `offset` steps along the row from its start */
		int ax = horizontal ? step * an->offset : 0, ay = horizontal ? 0 : step * an->offset;
		for (int wd = 0; wd < rt->bbw; wd++) {
			uint64_t bits = ps_board(rt, an->objs[0], horizontal)[wd];
			for (int k = 1; k < an->nobjs; k++)
				bits |= ps_board(rt, an->objs[k], horizontal)[wd];
			while (bits) {
				int p = wd * 64 + __builtin_ctzll(bits);
				bits &= bits - 1;
				int i = horizontal ? rt->cell_of_rm[p] : p;
				int x = rt->cell_x[i] - ax, y = rt->cell_y[i] - ay;
				if (x < xmin || x >= xmax || y < ymin || y >= ymax)
					continue;
				match_at(rt, row, dir, d, len, x, y, out);
			}
		}
		return;
	}
	int bbw = rt->bbw, e1 = ellipsis_at(row, 0);
	uint64_t *cw = rt->cell_words;
	for (int k = 0; k < row->ncells; k++)
		if (row->cells[k] >= 0)
			for (int wd = 0; wd < bbw; wd++)
				cw[(size_t)k * (size_t)bbw + (size_t)wd] =
					pattern_word(rt, &rt->g->patterns[row->cells[k]], horizontal, wd);
	if (row->nellipses > 0) {
		match_gaps(rt, row, dir, d, len, horizontal, step, out);
		return;
	}
	const uint64_t *valid = ps_valid_starts(rt, dir, len);
	for (int wd = 0; wd < bbw; wd++) {
		uint64_t m = valid[wd];
		for (int k = 0; k < e1 && m; k++)
			m &= shifted(cw + (size_t)k * (size_t)bbw, bbw, k * step, wd);
		while (m) {
			int p = wd * 64 + __builtin_ctzll(m);
			m &= m - 1;
			int i = horizontal ? rt->cell_of_rm[p] : p;
			if (row->objects_only || moves_match(rt, row, 0, row->ncells, i, d))
				push_match(out, i, 0, 0);
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

static bool replace(struct ps_runtime *rt, const struct ps_rule *rule, const struct ps_pattern *p, int i)
{
	const struct ps_game *g = rt->g;
	int ow = rt->ow, mw = rt->mw;
	if (!p->has_rep)
		return false;
	if (ow == 1 && mw == 1 && !rule->rigid) {
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
	int d = delta_of(rt, rule->dir);
	if (check)
		for (int r = 0; r < rule->nrows; r++)
			if (!recheck_row(rt, &rule->rows[r], &rt->rows[r].v[pick[r]], d))
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
	int d = delta_of(rt, rule->dir), nrows = rule->nrows;
	if (nrows == 1) {
		/* one row (most rules): its matches in order, each re-checked
		 * unless none of its cells changed since it was found */
		const struct ps_row *row = &rule->rows[0];
		struct ps_match_list *l = &rt->rows[0];
		bool result = false;
		for (size_t k = 0; k < l->n; k++) {
			struct ps_match *m = &l->v[k];
			if (k > 0 && !unchanged_since(rt, row, m, d, m->chk) && !recheck_row(rt, row, m, d))
				continue;
			if (apply_row(rt, rule, row, m, d))
				result = true;
		}
		if (result)
			note_fired(rt, rule);
		return result;
	}
	int pick[nrows];
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
				m->ok = recheck_row(rt, row, m, d);
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
	if (!find_matches(rt, rule))
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
		if (!find_matches(rt, &rules[k]))
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
