/*
 * rules_apply.c - rewriting cells with transformer rules (see rules.h).
 *
 * A match of a rule is a direction and, for each of its patterns, a start
 * cell from which the pattern's cells run in that direction.  Only matches
 * that would change something and touch no frozen cell count, so a plain
 * rule ("apply wherever it matches") stops once it has nothing left to do,
 * as in PuzzleScript.
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

struct match_list {
	struct match *m;
	int *rule;        /* which alternative each match belongs to */
	size_t n, alloc, alloc2;
};

/* Append the matches of rule (index ri) that change something; stop
 * after `first` when first_only. */
static void find_matches(const struct lk_legend *lg, const struct rule *r, int ri,
			 const struct lk_cells *g, struct match_list *out, bool first_only)
{
	int cells = g->width * g->height;
	if (r->npatterns > 4)
		return;
	unsigned dirs = rule_dirs(r);
	for (int dir = 0; dir < 4; dir++) {
		if (!(dirs & (1u << dir)))
			continue;
		/* For each pattern, the start cells where it matches. */
		int *starts[4], nstart[4];
		bool *chg[4];
		for (int k = 0; k < r->npatterns; k++) {
			starts[k] = lk_xmalloc((size_t)cells * sizeof **starts);
			chg[k] = lk_xmalloc((size_t)cells * sizeof **chg);
			nstart[k] = 0;
			for (int c = 0; c < cells; c++) {
				bool ch;
				if (pattern_at(lg, &r->patterns[k], g, c, dir, &ch)) {
					chg[k][nstart[k]] = ch;
					starts[k][nstart[k]++] = c;
				}
			}
		}
		/* The cartesian product, keeping combinations that change. */
		int idx[4] = { 0, 0, 0, 0 };
		bool empty = false;
		for (int k = 0; k < r->npatterns; k++)
			empty |= nstart[k] == 0;
		while (!empty && out->n < MAX_MATCHES) {
			bool ch = false;
			for (int k = 0; k < r->npatterns; k++)
				ch |= chg[k][idx[k]];
			if (ch) {
				LK_ALLOC_GROW(out->m, out->n + 1, out->alloc);
				LK_ALLOC_GROW(out->rule, out->n + 1, out->alloc2);
				out->m[out->n].dir = dir;
				for (int k = 0; k < r->npatterns; k++)
					out->m[out->n].start[k] = starts[k][idx[k]];
				out->rule[out->n++] = ri;
				if (first_only)
					break;
			}
			int k = r->npatterns - 1;
			while (k >= 0 && ++idx[k] == nstart[k])
				idx[k--] = 0;
			if (k < 0)
				break;
		}
		for (int k = 0; k < r->npatterns; k++) {
			free(starts[k]);
			free(chg[k]);
		}
		if (first_only && out->n)
			return;
	}
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

static unsigned apply_group(const struct lk_rules *rules, const struct group *gr,
			    struct lk_cells *g, struct lk_rng *rng)
{
	const struct lk_legend *lg = rules->legend;
	struct match_list ml = { 0 };
	unsigned done = 0;
	if (gr->choose) {
		/* choose N: each time, one changing match of any alternative,
		 * uniformly, applied with its alternative's probability. */
		for (long t = 0; t < gr->choose; t++) {
			ml.n = 0;
			for (int ri = 0; ri < gr->nrules; ri++)
				find_matches(lg, &gr->rules[ri], ri, g, &ml, false);
			if (!ml.n)
				break;
			size_t pick = lk_rng_below(rng, (uint32_t)ml.n);
			const struct rule *r = &gr->rules[ml.rule[pick]];
			if (r->option >= 1.0 || lk_rng_double(rng) < r->option) {
				apply_match(lg, r, g, &ml.m[pick]);
				done++;
			}
		}
	} else {
		for (int ri = 0; ri < gr->nrules; ri++) {
			const struct rule *r = &gr->rules[ri];
			if (r->option < 1.0) {
				/* option P: every match found now, each with P. */
				ml.n = 0;
				find_matches(lg, r, ri, g, &ml, false);
				for (size_t i = 0; i < ml.n; i++) {
					if (lk_rng_double(rng) >= r->option || !still_matches(lg, r, g, &ml.m[i]))
						continue;
					apply_match(lg, r, g, &ml.m[i]);
					done++;
				}
				continue;
			}
			/* A plain rule: rewrite until nothing changes. */
			long limit = (long)g->width * g->height * REWRITES_PER_CELL;
			for (long t = 0; t < limit; t++) {
				ml.n = 0;
				find_matches(lg, r, ri, g, &ml, true);
				if (!ml.n)
					break;
				apply_match(lg, r, g, &ml.m[0]);
				done++;
			}
		}
	}
	free(ml.m);
	free(ml.rule);
	return done;
}

unsigned lk_rules_apply(const struct lk_rules *rules, struct lk_cells *cells, struct lk_rng *rng)
{
	unsigned done = 0;
	for (int i = 0; i < rules->ngroups; i++)
		done += apply_group(rules, &rules->groups[i], cells, rng);
	return done;
}
