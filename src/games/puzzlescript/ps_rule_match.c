/*
 * ps_rule_match.c - where a rule's rows match: every start of each row
 * (rows with ellipses at every gap length), in the reference's scan order,
 * looked for only where the row's rarest anchor object is (the runtime's
 * bit boards) or, where no anchor is rare, a word of starts at a time; and
 * the re-check of one match before a later tuple applies it.  Applying what
 * matched is ps_rules.c's.
 */
#include <string.h>

#include "ps_runtime.h"

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
	int d = ps_rule_delta(rt, dir);
	out->n = 0;
	out->stamp = rt->mods;
	int len = row->ncells - row->nellipses;
	/* a row without cells: only a game compiled leniently has one (the
	 * reference's parser leaves it too, "[moving Plazer]" with the name
	 * unknown, after reporting the error); it matches nowhere, as in
	 * the reference, whose matcher for a row without cells is one that
	 * returns false (engine.js, generateCellRowMatchesFunction), so the
	 * rule never applies.  Sizing its starts by len - 1 overflowed
	 * (fuzz_script, UBSan). */
	if (len <= 0 || !map_allows(rt, row))
		return;
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

bool ps_find_row_matches(struct ps_runtime *rt, const struct ps_rule *rule)
{
	for (int r = 0; r < rule->nrows; r++) {
		match_row(rt, rule, &rule->rows[r], &rt->rows[r]);
		if (rt->rows[r].n == 0)
			return false;
	}
	return true;
}

bool ps_recheck_row(const struct ps_runtime *rt, const struct ps_row *row, const struct ps_match *m,
			int d)
{
	if (row->nellipses == 0)
		return cells_match(rt, row, 0, row->ncells, m->i, d);
	if (row->nellipses == 1)
		return wild1(rt, row, m->i, m->k1, m->k1 + 1, d, NULL);
	return wild2(rt, row, m->i, m->k1 + m->k2 + 1, m->k1 + m->k2, m->k1 + 1, m->k1, m->k2 + 1,
		     m->k2, d, NULL);
}
