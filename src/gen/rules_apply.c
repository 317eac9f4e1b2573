/*
 * rules_apply.c - rewriting cells with transformer rules (see rules.h).
 *
 * A match of a rule is a direction and, for each of its patterns, a start
 * cell from which the pattern's cells run in that direction.  Only matches
 * that would change something and touch no frozen cell count, so a plain
 * rule ("apply wherever it matches") stops once it has nothing left to do,
 * as in PuzzleScript.
 *
 * The matches of a rule with several patterns are every combination of
 * their start cells, up to (cells)^4 of them, so they are never listed to
 * be counted or drawn from: for each rule and direction (a block) the
 * start cells of each pattern are found, and the changing combinations
 * are counted and the k-th of them found by arithmetic over those lists.
 * Their order is fixed (alternatives, then directions, then the start
 * cells in reading order, the last pattern's varying fastest) and at most
 * MAX_MATCHES are taken, so a seed always gives the same rewrites.
 */
#include <stdlib.h>
#include <string.h>

#include "rules_internal.h"

/* Guards against plain rules that never settle, e.g. [Crate] -> [Target Crate]
 * alternating with its inverse: at most this many rewrites per cell. */
#define REWRITES_PER_CELL 8
/* Matches enumerated at most for one choice (patterns multiply). */
#define MAX_MATCHES 1000000

struct match {
	int dir;
	int start[4];    /* start cell of each pattern (rules have few) */
};

static bool cell_matches(const struct rule_cell *c, uint16_t v)
{
	for (int i = 0; i < c->nconds; i++) {
		bool any = (v & c->conds[i].mask) != 0;
		if (any == c->conds[i].negate)
			return false;
	}
	return true;
}

/* The cell after the replacement. */
static uint16_t rewrite(const struct lk_legend *lg, const struct rule_cell *c, uint16_t v)
{
	v &= (uint16_t)~(c->named & ~c->put);
	for (int o = 0; o < lg->nobjects; o++) {
		uint16_t bit = (uint16_t)(1u << o);
		if (c->put & bit)
			v = (uint16_t)((v & ~lg->objects[o].layer_mask) | bit);
	}
	return v;
}

/* Cell index of cell i of a pattern starting at start in direction dir,
 * or -1 off the grid. */
static int step(const struct lk_cells *g, int start, int dir, int i)
{
	int x = start % g->width + lk_dir_dx[dir] * i, y = start / g->width + lk_dir_dy[dir] * i;
	if (x < 0 || y < 0 || x >= g->width || y >= g->height)
		return -1;
	return y * g->width + x;
}

/* Does the pattern match at start/dir; *changes when its rewrite would
 * change a cell.  False also when it would change a frozen cell. */
static bool pattern_at(const struct lk_legend *lg, const struct pattern *p,
		       const struct lk_cells *g, int start, int dir, bool *changes)
{
	bool change = false;
	for (int i = 0; i < p->ncells; i++) {
		int c = step(g, start, dir, i);
		if (c < 0 || !cell_matches(&p->cells[i], g->cell[c]))
			return false;
		if (rewrite(lg, &p->cells[i], g->cell[c]) != g->cell[c]) {
			if (g->frozen && g->frozen[c])
				return false;
			change = true;
		}
	}
	*changes = change;
	return true;
}

static void apply_match(const struct lk_legend *lg, const struct rule *r, struct lk_cells *g,
			const struct match *m)
{
	for (int k = 0; k < r->npatterns; k++) {
		const struct pattern *p = &r->patterns[k];
		for (int i = 0; i < p->ncells; i++) {
			int c = step(g, m->start[k], m->dir, i);
			g->cell[c] = rewrite(lg, &p->cells[i], g->cell[c]);
		}
	}
}

/* Directions a rule is tried in: one suffices for one-cell patterns. */
static unsigned rule_dirs(const struct rule *r)
{
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

/* The matches of one rule in one direction. */
struct block {
	int ri, dir, npat;
	int *start[4];        /* start cells where pattern k matches, in order */
	bool *chg[4];         /* whether its rewrite there changes something */
	int *chg_at[4];       /* the positions i in start[k] where chg[k][i] */
	int n[4], nchg[4];
	/* Combinations of the start cells of patterns k.. (all), and those
	 * in which some pattern changes something (changing); [npat] = 1, 0.
	 * changing[0] is the number of matches. */
	uint64_t all[5], changing[5];
};

static void block_init(struct block *b, const struct lk_legend *lg, const struct rule *r,
		       int ri, int dir, const struct lk_cells *g)
{
	int cells = g->width * g->height;
	b->ri = ri;
	b->dir = dir;
	b->npat = r->npatterns;
	for (int k = 0; k < b->npat; k++) {
		b->start[k] = lk_xmalloc((size_t)cells * sizeof **b->start);
		b->chg[k] = lk_xmalloc((size_t)cells * sizeof **b->chg);
		b->chg_at[k] = lk_xmalloc((size_t)cells * sizeof **b->chg_at);
		b->n[k] = b->nchg[k] = 0;
		for (int c = 0; c < cells; c++) {
			bool ch;
			if (!pattern_at(lg, &r->patterns[k], g, c, dir, &ch))
				continue;
			if (ch)
				b->chg_at[k][b->nchg[k]++] = b->n[k];
			b->chg[k][b->n[k]] = ch;
			b->start[k][b->n[k]++] = c;
		}
	}
	b->all[b->npat] = 1;
	b->changing[b->npat] = 0;
	for (int k = b->npat - 1; k >= 0; k--) {
		/* the first pattern that changes something is k, or a later one */
		b->all[k] = mul_sat((uint64_t)b->n[k], b->all[k + 1]);
		b->changing[k] = add_sat(mul_sat((uint64_t)b->nchg[k], b->all[k + 1]),
					 mul_sat((uint64_t)(b->n[k] - b->nchg[k]), b->changing[k + 1]));
	}
}

static void block_release(struct block *b)
{
	for (int k = 0; k < b->npat; k++) {
		free(b->start[k]);
		free(b->chg[k]);
		free(b->chg_at[k]);
	}
	b->npat = 0;
}

/* The match of rank p (< changing[0]) in the block's order. */
static void block_match(const struct block *b, uint64_t p, struct match *m)
{
	bool any = false;
	m->dir = b->dir;
	for (int k = 0; k < b->npat; k++) {
		for (int i = 0; i < b->n[k]; i++) {
			bool a = any || b->chg[k][i];
			uint64_t below = a ? b->all[k + 1] : b->changing[k + 1];
			if (p < below) {
				m->start[k] = b->start[k][i];
				any = a;
				break;
			}
			p -= below;
		}
	}
}

/* Call fn on the block's matches in order, while it returns true; the
 * work is linear in the matches visited, however many combinations of
 * start cells change nothing. */
struct visit {
	const struct block *b;
	struct match m;
	bool (*fn)(void *ctx, const struct block *b, const struct match *m);
	void *ctx;
	bool stop;
};

static void visit_from(struct visit *v, int k, bool any)
{
	const struct block *b = v->b;
	if (k == b->npat || k == 4) {   /* (npat is at most 4) */
		v->stop = !v->fn(v->ctx, b, &v->m);
		return;
	}
	if (any || b->changing[k + 1] > 0) {
		for (int i = 0; i < b->n[k] && !v->stop; i++) {
			v->m.start[k] = b->start[k][i];
			visit_from(v, k + 1, any || b->chg[k][i]);
		}
	} else {
		/* nothing after k changes: only k's changing starts lead anywhere */
		for (int j = 0; j < b->nchg[k] && !v->stop; j++) {
			v->m.start[k] = b->start[k][b->chg_at[k][j]];
			visit_from(v, k + 1, true);
		}
	}
}

static void block_visit(const struct block *b,
			bool (*fn)(void *ctx, const struct block *b, const struct match *m), void *ctx)
{
	struct visit v = { b, { b->dir, { 0, 0, 0, 0 } }, fn, ctx, false };
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

static void blocks_add(struct blocks *bs, const struct lk_legend *lg, const struct rule *r,
		       int ri, const struct lk_cells *g)
{
	if (r->npatterns > 4)
		return;
	unsigned dirs = rule_dirs(r);
	for (int dir = 0; dir < 4; dir++) {
		if (!(dirs & (1u << dir)))
			continue;
		LK_ALLOC_GROW(bs->b, bs->n + 1, bs->alloc);
		struct block *b = &bs->b[bs->n++];
		block_init(b, lg, r, ri, dir, g);
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

/* The match of rank p < bs->total over all the blocks; *ri its rule. */
static void blocks_match(const struct blocks *bs, uint64_t p, struct match *m, int *ri)
{
	for (size_t i = 0; i < bs->n; i++) {
		if (p < bs->b[i].changing[0]) {
			block_match(&bs->b[i], p, m);
			*ri = bs->b[i].ri;
			return;
		}
		p -= bs->b[i].changing[0];
	}
	abort();   /* p < total: unreachable */
}

/* Is the match still a changing match of rule r (after other rewrites)? */
static bool still_matches(const struct lk_legend *lg, const struct rule *r,
			  const struct lk_cells *g, const struct match *m)
{
	bool any = false;
	for (int k = 0; k < r->npatterns; k++) {
		bool ch;
		if (!pattern_at(lg, &r->patterns[k], g, m->start[k], m->dir, &ch))
			return false;
		any |= ch;
	}
	return any;
}

/* option P without choose: each match found now, in order, is applied
 * with probability P if it still matches by then. */
struct optional {
	const struct lk_legend *lg;
	const struct rule *r;
	struct lk_cells *g;
	struct lk_rng *rng;
	uint64_t left;        /* matches still to visit (MAX_MATCHES in all) */
	unsigned done;
	struct match *later;  /* matches of this block, applied after it */
	size_t nlater, alloc;
};

static bool collect(void *ctx, const struct block *b, const struct match *m)
{
	struct optional *o = ctx;
	(void)b;
	LK_ALLOC_GROW(o->later, o->nlater + 1, o->alloc);
	o->later[o->nlater++] = *m;
	return --o->left > 0;
}

static unsigned apply_optional(const struct lk_legend *lg, const struct rule *r, int ri,
			       struct lk_cells *g, struct lk_rng *rng)
{
	struct optional o = { lg, r, g, rng, MAX_MATCHES, 0, NULL, 0, 0 };
	unsigned dirs = rule_dirs(r);
	struct block b;
	if (r->npatterns > 4)
		return 0;
	/* Every direction's matches are found before any is applied. */
	for (int dir = 0; dir < 4 && o.left > 0; dir++) {
		if (!(dirs & (1u << dir)))
			continue;
		block_init(&b, lg, r, ri, dir, g);
		block_visit(&b, collect, &o);
		block_release(&b);
	}
	for (size_t i = 0; i < o.nlater; i++) {
		if (lk_rng_double(rng) >= r->option || !still_matches(lg, r, g, &o.later[i]))
			continue;
		apply_match(lg, r, g, &o.later[i]);
		o.done++;
	}
	free(o.later);
	return o.done;
}

static unsigned apply_group(const struct lk_rules *rules, const struct group *gr,
			    struct lk_cells *g, struct lk_rng *rng)
{
	const struct lk_legend *lg = rules->legend;
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
					blocks_add(&bs, lg, &gr->rules[ri], ri, g);
				stale = false;
			}
			if (!bs.total)
				break;
			uint64_t pick = lk_rng_below(rng, (uint32_t)bs.total);
			blocks_match(&bs, pick, &m, &ri);
			const struct rule *r = &gr->rules[ri];
			if (r->option >= 1.0 || lk_rng_double(rng) < r->option) {
				apply_match(lg, r, g, &m);
				done++;
				stale = true;
			}
		}
	} else {
		for (ri = 0; ri < gr->nrules; ri++) {
			const struct rule *r = &gr->rules[ri];
			if (r->option < 1.0) {
				done += apply_optional(lg, r, ri, g, rng);
				continue;
			}
			/* A plain rule: rewrite until nothing changes, each time
			 * the first match (directions in turn). */
			long limit = (long)g->width * g->height * REWRITES_PER_CELL;
			for (long t = 0; t < limit; t++) {
				bool found = false;
				unsigned dirs = rule_dirs(r);
				for (int dir = 0; dir < 4 && !found && r->npatterns <= 4; dir++) {
					struct block b;
					if (!(dirs & (1u << dir)))
						continue;
					block_init(&b, lg, r, ri, dir, g);
					if (b.changing[0] > 0) {
						block_match(&b, 0, &m);
						found = true;
					}
					block_release(&b);
				}
				if (!found)
					break;
				apply_match(lg, r, g, &m);
				done++;
			}
		}
	}
	blocks_clear(&bs);
	free(bs.b);
	return done;
}

unsigned lk_rules_apply(const struct lk_rules *rules, struct lk_cells *cells, struct lk_rng *rng)
{
	unsigned done = 0;
	for (int i = 0; i < rules->ngroups; i++)
		done += apply_group(rules, &rules->groups[i], cells, rng);
	return done;
}
