/*
 * rules_apply.c - rewriting cells with transformer rules (see rules.h).
 *
 * A match of a rule is a direction and, for each of its patterns, a
 * placement: a start cell from which the pattern's cells run in that
 * direction, and the length of each ellipsis in it.  Only matches that
 * would change something count (and never those that would change a
 * frozen cell, make a cell the game cannot hold, or move an object where
 * it cannot go), so a plain rule ("apply wherever it matches") stops once
 * it has nothing left to do, as in PuzzleScript.
 *
 * The matches of a rule with several patterns are every combination of
 * their placements, up to (cells)^4 of them, so they are never listed to
 * be counted or drawn from: for each rule and direction (a block) the
 * placements of each pattern are found, and the changing combinations
 * are counted and the k-th of them found by arithmetic over those lists.
 * Their order is fixed (alternatives, then directions, then the start
 * cells in reading order and the ellipses shortest first, the last
 * pattern's varying fastest) and at most MAX_MATCHES are taken, so a seed
 * always gives the same rewrites.
 *
 * Forces are carried out as part of a pattern's rewrite: every mover
 * leaves its cell first, then each lands one cell on, where nothing of its
 * layer may be left.  Patterns of one match are rewritten in order, each
 * on what the ones before left (they may overlap); a move one of them
 * blocks then stays where it is, blocking a mover that would land there,
 * and a pattern whose rewrite would still make a cell the game cannot
 * hold (or two objects of one layer in a cell) is left out.
 */
#include <stdlib.h>
#include <string.h>

#include "rules_internal.h"

/* Guards against plain rules that never settle, e.g. [Crate] -> [Target Crate]
 * alternating with its inverse: at most this many rewrites per cell. */
#define REWRITES_PER_CELL 8
/* Matches enumerated at most for one choice (patterns multiply). */
#define MAX_MATCHES 1000000
/* Cells one placement touches: its own and where its movers land. */
#define MAX_TOUCH (MAX_CELLS * (1 + MAX_MOVES))

struct place {
	int start;
	int gap[MAX_ELLIPSES];
};

struct match {
	int dir;
	struct place at[MAX_PATTERNS];
};

/* One lk_rules_apply: the rules, the grid, and the cells a placement
 * would write (tidx[i] gets tval's i-th cell). */
struct run {
	const struct lk_rules *rules;
	struct lk_cells *g;
	int words;
	int tidx[MAX_TOUCH];
	uint64_t *tval;
	uint64_t *saved;   /* tval before the movers land */
	int nt;
};

enum { NONE, SAME, CHANGE };

static const uint64_t *cell_of(const struct run *x, int i)
{
	return x->g->cell + (size_t)i * (size_t)x->words;
}

static bool cell_matches(const struct run *x, const struct rule_cell *c, const uint64_t *v)
{
	for (int i = 0; i < c->nconds; i++) {
		const uint64_t *m = rules_mask(x->rules, c->conds[i].mask);
		bool any = false;
		for (int w = 0; w < x->words && !any; w++)
			any = (v[w] & m[w]) != 0;
		if (any == c->conds[i].negate)
			return false;
	}
	return true;
}

/* The cell after the replacement (before its movers leave). */
static void rewrite(const struct run *x, const struct rule_cell *c, uint64_t *v)
{
	const uint64_t *named = rules_mask(x->rules, c->named), *put = rules_mask(x->rules, c->put);
	const uint64_t *layers = rules_mask(x->rules, c->put_layers);
	const uint64_t *removed = rules_mask(x->rules, c->removed);
	for (int w = 0; w < x->words; w++)
		v[w] = (v[w] & ~(named[w] & ~put[w]) & ~removed[w] & ~layers[w]) | put[w];
}

/* Cell index `off` cells from start in direction dir, or -1 off the grid. */
static int step(const struct lk_cells *g, int start, int dir, int off)
{
	int x = start % g->width + lk_dir_dx[dir] * off, y = start / g->width + lk_dir_dy[dir] * off;
	if (x < 0 || y < 0 || x >= g->width || y >= g->height)
		return -1;
	return y * g->width + x;
}

/* The touched cell idx (added with the grid's value if new). */
static uint64_t *touch(struct run *x, int idx)
{
	size_t w = (size_t)x->words;
	for (int i = 0; i < x->nt; i++)
		if (x->tidx[i] == idx)
			return x->tval + (size_t)i * w;
	uint64_t *t = x->tval + (size_t)x->nt * w;
	memcpy(t, cell_of(x, idx), w * sizeof *t);
	x->tidx[x->nt++] = idx;
	return t;
}

/* Does the cell hold at most one object of each layer? */
static bool layers_ok(const struct run *x, const uint64_t *v)
{
	for (int w = 0; w < x->words; w++)
		for (uint64_t bits = v[w]; bits; bits &= bits - 1) {
			int obj = w * 64 + __builtin_ctzll(bits);
			const uint64_t *layer = rules_mask(x->rules, x->rules->layer_mask[obj]);
			for (int u = 0; u < x->words; u++)
				if (v[u] & layer[u] & ~(u == w ? (bits & -bits) : 0))
					return false;
		}
	return true;
}

/* The pattern at a placement: NONE (no match), SAME (a match changing
 * nothing) or CHANGE, the new cells in x->tidx/tval.  Without check the
 * conditions are not tested and a blocked move stays: the rewrite of a
 * match found earlier. */
static int eval(struct run *x, const struct pattern *p, const struct place *pl, int dir,
		bool check)
{
	const struct lk_cells *g = x->g;
	size_t W = (size_t)x->words;
	int off = 0, e = 0, at[MAX_CELLS];
	x->nt = 0;
	for (int i = 0; i < p->ncells; i++) {
		const struct rule_cell *c = &p->cells[i];
		at[i] = -1;
		if (c->ellipsis) {
			off += pl->gap[e++];
			continue;
		}
		int idx = step(g, pl->start, dir, off++);
		if (idx < 0 || (check && !cell_matches(x, c, cell_of(x, idx))))
			return NONE;
		at[i] = x->nt;
		rewrite(x, c, touch(x, idx));
	}
	struct {
		int from, to, obj;
	} mv[MAX_CELLS * MAX_MOVES];
	int nmv = 0;
	for (int i = 0; i < p->ncells; i++) {
		const struct rule_cell *c = &p->cells[i];
		for (int k = 0; k < c->nmoves && !c->ellipsis; k++) {
			const struct move *m = &c->moves[k];
			int d = m->relative ? (dir + m->dir) & 3 : m->dir;
			int to = step(g, x->tidx[at[i]], d, 1);
			if (to < 0) {
				if (check)
					return NONE;
				continue;
			}
			x->tval[(size_t)at[i] * W + (size_t)m->object / 64] &= ~((uint64_t)1 << (m->object % 64));
			mv[nmv].from = at[i];
			mv[nmv].to = to;
			mv[nmv++].obj = m->object;
		}
	}
	/* Landing.  A blocked mover stays, and may block a mover landing
	 * where it stays (a row of crates behind a wall): landings are redone
	 * with the stayers placed first until no more are blocked, at most
	 * once per mover.  Only unchecked rewrites get here with a block. */
	bool stays[MAX_CELLS * MAX_MOVES] = { false };
	for (int i = 0; i < nmv; i++) {   /* from now on `to` is a touched cell too */
		uint64_t *t = touch(x, mv[i].to);
		mv[i].to = (int)((t - x->tval) / (ptrdiff_t)W);
	}
	size_t snap = (size_t)x->nt * W;
	if (!check)
		memcpy(x->saved, x->tval, snap * sizeof *x->saved);
	for (bool first = true, again = true; again; first = false) {
		again = false;
		if (!first)
			memcpy(x->tval, x->saved, snap * sizeof *x->saved);
		for (int i = 0; i < nmv; i++)
			if (stays[i])
				x->tval[(size_t)mv[i].from * W + (size_t)mv[i].obj / 64] |=
					(uint64_t)1 << (mv[i].obj % 64);
		for (int i = 0; i < nmv && !again; i++) {
			if (stays[i])
				continue;
			uint64_t *t = x->tval + (size_t)mv[i].to * W;
			const uint64_t *layer = rules_mask(x->rules, x->rules->layer_mask[mv[i].obj]);
			bool blocked = g->frozen && g->frozen[x->tidx[mv[i].to]];
			for (size_t w = 0; w < W && !blocked; w++)
				blocked = (t[w] & layer[w]) != 0;
			if (!blocked) {
				t[mv[i].obj / 64] |= (uint64_t)1 << (mv[i].obj % 64);
				continue;
			}
			if (check)
				return NONE;
			stays[i] = again = true;
		}
	}
	bool changed = false;
	for (int i = 0; i < x->nt; i++) {
		const uint64_t *t = x->tval + (size_t)i * W;
		if (memcmp(t, cell_of(x, x->tidx[i]), W * sizeof *t) == 0)
			continue;
		changed = true;
		/* Unchecked too: a rewrite on what earlier patterns left may
		 * make a cell the game cannot hold; it is then not made. */
		if ((g->frozen && g->frozen[x->tidx[i]]) ||
		    (g->cell_ok && !g->cell_ok(g->cell_ok_ctx, t)) || !layers_ok(x, t))
			return NONE;
	}
	return changed ? CHANGE : SAME;
}

static void write_touched(struct run *x)
{
	size_t W = (size_t)x->words;
	for (int i = 0; i < x->nt; i++)
		memcpy(x->g->cell + (size_t)x->tidx[i] * W, x->tval + (size_t)i * W, W * sizeof *x->tval);
}

static void apply_match(struct run *x, const struct rule *r, const struct match *m)
{
	for (int k = 0; k < r->npatterns; k++) {
		if (eval(x, &r->patterns[k], &m->at[k], m->dir, false) == CHANGE)
			write_touched(x);
	}
}

/* Directions a rule is tried in: one suffices when none of its patterns
 * reads in a direction. */
static unsigned rule_dirs(const struct rule *r)
{
	if (r->turns)
		return r->dirs;
	for (int k = 0; k < r->npatterns; k++)
		if (r->patterns[k].ncells > 1)
			return r->dirs;
	return r->dirs & (unsigned)-(int)r->dirs;   /* the lowest direction bit */
}

/* Counts saturate here (an exact count is only needed below MAX_MATCHES). */
#define SATURATED ((uint64_t)1 << 62)

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	if (a == 0 || b == 0)
		return 0;
	return a >= SATURATED / b ? SATURATED : a * b;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b >= SATURATED ? SATURATED : a + b;
}

/* The placements of one pattern in one direction where it matches. */
struct places {
	struct place *at;     /* in order */
	bool *chg;            /* whether its rewrite there changes something */
	int *chg_at;          /* the positions i where chg[i] */
	int n, nchg;
	size_t alloc_at, alloc_chg, alloc_chg_at;
};

/* The matches of one rule in one direction. */
struct block {
	int ri, dir, npat;
	struct places p[MAX_PATTERNS];
	/* Combinations of the placements of patterns k.. (all), and those in
	 * which some pattern changes something (changing); [npat] = 1, 0.
	 * changing[0] is the number of matches. */
	uint64_t all[MAX_PATTERNS + 1], changing[MAX_PATTERNS + 1];
};

static void places_try(struct run *x, const struct pattern *pat, struct places *ps,
		       const struct place *pl, int dir)
{
	int r = eval(x, pat, pl, dir, true);
	if (r == NONE)
		return;
	LK_ALLOC_GROW(ps->at, (size_t)ps->n + 1, ps->alloc_at);
	LK_ALLOC_GROW(ps->chg, (size_t)ps->n + 1, ps->alloc_chg);
	if (r == CHANGE) {
		LK_ALLOC_GROW(ps->chg_at, (size_t)ps->nchg + 1, ps->alloc_chg_at);
		ps->chg_at[ps->nchg++] = ps->n;
	}
	ps->chg[ps->n] = r == CHANGE;
	ps->at[ps->n++] = *pl;
}

/* Every placement of pat in direction dir: start cells, then ellipsis
 * lengths as long as the pattern stays on the grid. */
static void places_find(struct run *x, const struct pattern *pat, struct places *ps, int dir)
{
	const struct lk_cells *g = x->g;
	int cells = g->width * g->height, fixed = pat->ncells - pat->nellipses - 1;
	memset(ps, 0, sizeof *ps);
	for (int c = 0; c < cells; c++) {
		struct place pl = { c, { 0, 0 } };
		if (pat->nellipses == 0) {
			places_try(x, pat, ps, &pl, dir);
			continue;
		}
		for (pl.gap[0] = 0; step(g, c, dir, fixed + pl.gap[0]) >= 0; pl.gap[0]++) {
			if (pat->nellipses == 1) {
				places_try(x, pat, ps, &pl, dir);
				continue;
			}
			for (pl.gap[1] = 0; step(g, c, dir, fixed + pl.gap[0] + pl.gap[1]) >= 0; pl.gap[1]++)
				places_try(x, pat, ps, &pl, dir);
		}
	}
}

static void block_init(struct block *b, struct run *x, const struct rule *r, int ri, int dir)
{
	b->ri = ri;
	b->dir = dir;
	b->npat = r->npatterns;
	for (int k = 0; k < b->npat; k++)
		places_find(x, &r->patterns[k], &b->p[k], dir);
	b->all[b->npat] = 1;
	b->changing[b->npat] = 0;
	for (int k = b->npat - 1; k >= 0; k--) {
		/* the first pattern that changes something is k, or a later one */
		const struct places *ps = &b->p[k];
		b->all[k] = mul_sat((uint64_t)ps->n, b->all[k + 1]);
		b->changing[k] = add_sat(mul_sat((uint64_t)ps->nchg, b->all[k + 1]),
					 mul_sat((uint64_t)(ps->n - ps->nchg), b->changing[k + 1]));
	}
}

static void block_release(struct block *b)
{
	for (int k = 0; k < b->npat; k++) {
		free(b->p[k].at);
		free(b->p[k].chg);
		free(b->p[k].chg_at);
	}
	b->npat = 0;
}

/* The match of rank q (< changing[0]) in the block's order. */
static void block_match(const struct block *b, uint64_t q, struct match *m)
{
	bool any = false;
	m->dir = b->dir;
	for (int k = 0; k < b->npat; k++) {
		const struct places *ps = &b->p[k];
		for (int i = 0; i < ps->n; i++) {
			bool a = any || ps->chg[i];
			uint64_t below = a ? b->all[k + 1] : b->changing[k + 1];
			if (q < below) {
				m->at[k] = ps->at[i];
				any = a;
				break;
			}
			q -= below;
		}
	}
}

/* Call fn on the block's matches in order, while it returns true; the
 * work is linear in the matches visited, however many combinations of
 * placements change nothing. */
struct visit {
	const struct block *b;
	struct match m;
	bool (*fn)(void *ctx, const struct match *m);
	void *ctx;
	bool stop;
};

static void visit_from(struct visit *v, int k, bool any)
{
	const struct block *b = v->b;
	if (k == b->npat || k == MAX_PATTERNS) {
		v->stop = !v->fn(v->ctx, &v->m);
		return;
	}
	const struct places *ps = &b->p[k];
	if (any || b->changing[k + 1] > 0) {
		for (int i = 0; i < ps->n && !v->stop; i++) {
			v->m.at[k] = ps->at[i];
			visit_from(v, k + 1, any || ps->chg[i]);
		}
	} else {
		/* nothing after k changes: only k's changing placements lead anywhere */
		for (int j = 0; j < ps->nchg && !v->stop; j++) {
			v->m.at[k] = ps->at[ps->chg_at[j]];
			visit_from(v, k + 1, true);
		}
	}
}

static void block_visit(const struct block *b, bool (*fn)(void *ctx, const struct match *m),
			void *ctx)
{
	struct visit v;
	memset(&v, 0, sizeof v);
	v.b = b;
	v.m.dir = b->dir;
	v.fn = fn;
	v.ctx = ctx;
	if (b->changing[0] > 0)
		visit_from(&v, 0, false);
}

/* The blocks of a group: every alternative in every direction it is
 * tried in, and how many of their matches count (MAX_MATCHES at most). */
struct blocks {
	struct block *b;
	size_t n, alloc;
	uint64_t total;
};

static void blocks_add(struct blocks *bs, struct run *x, const struct rule *r, int ri)
{
	unsigned dirs = rule_dirs(r);
	for (int dir = 0; dir < 4; dir++) {
		if (!(dirs & (1u << dir)))
			continue;
		LK_ALLOC_GROW(bs->b, bs->n + 1, bs->alloc);
		struct block *b = &bs->b[bs->n++];
		block_init(b, x, r, ri, dir);
		uint64_t room = MAX_MATCHES - bs->total;
		bs->total += b->changing[0] < room ? b->changing[0] : room;
	}
}

static void blocks_clear(struct blocks *bs)
{
	for (size_t i = 0; i < bs->n; i++)
		block_release(&bs->b[i]);
	bs->n = 0;
	bs->total = 0;
}

/* The match of rank q < bs->total over all the blocks; *ri its rule. */
static void blocks_match(const struct blocks *bs, uint64_t q, struct match *m, int *ri)
{
	for (size_t i = 0; i < bs->n; i++) {
		if (q < bs->b[i].changing[0]) {
			block_match(&bs->b[i], q, m);
			*ri = bs->b[i].ri;
			return;
		}
		q -= bs->b[i].changing[0];
	}
	abort();   /* q < total: unreachable */
}

/* Is the match still a changing match of rule r (after other rewrites)? */
static bool still_matches(struct run *x, const struct rule *r, const struct match *m)
{
	bool any = false;
	for (int k = 0; k < r->npatterns; k++) {
		int e = eval(x, &r->patterns[k], &m->at[k], m->dir, true);
		if (e == NONE)
			return false;
		any |= e == CHANGE;
	}
	return any;
}

/* option P without choose: each match found now, in order, is applied
 * with probability P if it still matches by then. */
struct optional {
	uint64_t left;        /* matches still to visit (MAX_MATCHES in all) */
	struct match *later;  /* the matches found, applied after all are found */
	size_t nlater, alloc;
};

static bool collect(void *ctx, const struct match *m)
{
	struct optional *o = ctx;
	LK_ALLOC_GROW(o->later, o->nlater + 1, o->alloc);
	o->later[o->nlater++] = *m;
	return --o->left > 0;
}

static unsigned apply_optional(struct run *x, const struct rule *r, int ri, struct lk_rng *rng)
{
	struct optional o = { MAX_MATCHES, NULL, 0, 0 };
	unsigned dirs = rule_dirs(r), done = 0;
	struct block b;
	/* Every direction's matches are found before any is applied. */
	for (int dir = 0; dir < 4 && o.left > 0; dir++) {
		if (!(dirs & (1u << dir)))
			continue;
		block_init(&b, x, r, ri, dir);
		block_visit(&b, collect, &o);
		block_release(&b);
	}
	for (size_t i = 0; i < o.nlater; i++) {
		if (lk_rng_double(rng) >= r->option || !still_matches(x, r, &o.later[i]))
			continue;
		apply_match(x, r, &o.later[i]);
		done++;
	}
	free(o.later);
	return done;
}

/* A plain rule: rewrite until nothing changes, each time the first match
 * (directions in turn). */
static unsigned apply_plain(struct run *x, const struct rule *r, int ri)
{
	long limit = (long)x->g->width * x->g->height * REWRITES_PER_CELL;
	unsigned done = 0;
	struct match m;
	for (long t = 0; t < limit; t++) {
		bool found = false;
		unsigned dirs = rule_dirs(r);
		for (int dir = 0; dir < 4 && !found; dir++) {
			struct block b;
			if (!(dirs & (1u << dir)))
				continue;
			block_init(&b, x, r, ri, dir);
			if (b.changing[0] > 0) {
				block_match(&b, 0, &m);
				found = true;
			}
			block_release(&b);
		}
		if (!found)
			break;
		apply_match(x, r, &m);
		done++;
	}
	return done;
}

static unsigned apply_group(struct run *x, const struct group *gr, struct lk_rng *rng)
{
	struct blocks bs = { NULL, 0, 0, 0 };
	struct match m;
	int ri;
	unsigned done = 0;
	if (gr->choose) {
		/* choose N: each time, one changing match of any alternative,
		 * uniformly, applied with its alternative's probability.  The
		 * matches are found again only after the cells changed. */
		bool stale = true;
		for (long t = 0; t < gr->choose; t++) {
			if (stale) {
				blocks_clear(&bs);
				for (ri = 0; ri < gr->nrules; ri++)
					blocks_add(&bs, x, &gr->rules[ri], ri);
				stale = false;
			}
			if (!bs.total)
				break;
			uint64_t pick = lk_rng_below(rng, (uint32_t)bs.total);
			blocks_match(&bs, pick, &m, &ri);
			const struct rule *r = &gr->rules[ri];
			if (r->option >= 1.0 || lk_rng_double(rng) < r->option) {
				apply_match(x, r, &m);
				done++;
				stale = true;
			}
		}
	} else {
		for (ri = 0; ri < gr->nrules; ri++) {
			const struct rule *r = &gr->rules[ri];
			done += r->option < 1.0 ? apply_optional(x, r, ri, rng) : apply_plain(x, r, ri);
		}
	}
	blocks_clear(&bs);
	free(bs.b);
	return done;
}

/* The cell a mirror maps (x, y) to. */
static int mirrored(const struct lk_cells *g, enum rules_mirror m, int x, int y)
{
	int w = g->width, h = g->height;
	switch (m) {
	case MIRROR_HORIZONTAL: return y * w + (w - 1 - x);
	case MIRROR_VERTICAL: return (h - 1 - y) * w + x;
	default: return (h - 1 - y) * w + (w - 1 - x);   /* both, rotate: half a turn */
	}
}

/* Whether cell (x, y) is on the side that is copied: the first half in
 * reading order (of the columns for horizontal, of the rows otherwise),
 * or the other half when the player stands there. */
static bool source_side(const struct lk_cells *g, enum rules_mirror m, int x, int y, bool flip)
{
	int w = g->width, h = g->height;
	bool first = m == MIRROR_HORIZONTAL ? 2 * x < w - 1
		     : m == MIRROR_VERTICAL ? 2 * y < h - 1
		     : y * w + x < mirrored(g, m, x, y);
	return first != flip;
}

/*
 * symmetrise AXIS: copy one half of the grid onto the other, so that the
 * level is its own mirror image (both: mirrored left-right and top-bottom,
 * each quarter the copy of the first; rotate: unchanged by half a turn).
 * The half that holds the player is the one kept, and the player is not
 * copied, so the level keeps one.  Frozen cells are left as they are.
 */
static unsigned symmetrise(struct run *x, enum rules_mirror m)
{
	const struct lk_rules *r = x->rules;
	struct lk_cells *g = x->g;
	size_t words = (size_t)x->words;
	uint64_t pbit = r->player >= 0 ? (uint64_t)1 << (r->player % 64) : 0;
	size_t pword = r->player >= 0 ? (size_t)r->player / 64 : 0;
	unsigned changed = 0;
	/* both is two passes: left onto right, then top onto bottom */
	enum rules_mirror passes[2] = { m == MIRROR_BOTH ? MIRROR_HORIZONTAL : m,
					m == MIRROR_BOTH ? MIRROR_VERTICAL : MIRROR_NONE };
	for (int pass = 0; pass < 2 && passes[pass] != MIRROR_NONE; pass++) {
		enum rules_mirror mm = passes[pass];
		bool flip = false;
		for (int y = 0; y < g->height && pbit; y++)
			for (int xx = 0; xx < g->width; xx++)
				if ((g->cell[((size_t)y * (size_t)g->width + (size_t)xx) * words + pword] & pbit) &&
				    mirrored(g, mm, xx, y) != y * g->width + xx)
					flip = !source_side(g, mm, xx, y, false);
		for (int y = 0; y < g->height; y++)
			for (int xx = 0; xx < g->width; xx++) {
				int from = y * g->width + xx, to = mirrored(g, mm, xx, y);
				if (to == from || !source_side(g, mm, xx, y, flip) ||
				    (g->frozen && g->frozen[to]))
					continue;
				uint64_t *dst = g->cell + (size_t)to * words;
				const uint64_t *src = g->cell + (size_t)from * words;
				/* the player is not copied, and one stays where it is */
				bool same = true;
				for (size_t k = 0; k < words && same; k++) {
					uint64_t want = src[k];
					if (pbit && k == pword)
						want = (want & ~pbit) | (dst[k] & pbit);
					same = dst[k] == want;
				}
				if (same)
					continue;
				uint64_t keep = pbit ? dst[pword] & pbit : 0;
				memcpy(dst, src, words * sizeof *dst);
				if (pbit)
					dst[pword] = (dst[pword] & ~pbit) | keep;
				changed++;
			}
	}
	return changed;
}

unsigned lk_rules_apply(const struct lk_rules *rules, struct lk_cells *cells, struct lk_rng *rng)
{
	struct run x = { .rules = rules, .g = cells, .words = rules->words };
	unsigned done = 0;
	x.tval = lk_xmalloc((size_t)MAX_TOUCH * (size_t)x.words * sizeof *x.tval);
	x.saved = lk_xmalloc((size_t)MAX_TOUCH * (size_t)x.words * sizeof *x.saved);
	for (int i = 0; i < rules->ngroups; i++)
		done += rules->groups[i].mirror ? symmetrise(&x, rules->groups[i].mirror)
						: apply_group(&x, &rules->groups[i], rng);
	free(x.tval);
	free(x.saved);
	return done;
}
