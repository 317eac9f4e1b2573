/*
 * ps_heuristic.c - MixedAim's generalised heuristic over a PuzzleScript
 * game's win conditions, on the facts ps_analysis.c read off its rules.
 *
 * Each condition gives a term: T, the least total number of single-cell
 * steps its walkers still need (a minimum-cost matching where MixedAim
 * halves a greedy one), and L, the most any one walker needs.
 *   no X           T = the cells holding X
 *   some X         T = 1 while there is none
 *   no X on Y      T = the walkers' steps off the static side's cells
 *   some X on Y    T = L = the nearest walker's steps to a static cell
 *   all X on Y     T = the matching of walkers to static cells (or static
 *                  cells to walkers), L = the farthest walker's nearest
 * Distances are the walker's steps under the rules (ps_analysis.c); a side
 * that is not one static and one walking gets Manhattan distances, and
 * its term proves nothing.
 *
 * "mixedaim" (the thesis's, its greedy matching replaced): the terms'
 * sum, each T divided by k (rounded up) where one turn moves at most k of
 * the condition's walkers.  A lower bound when the game has one condition
 * and its term is proven (ps_mixedaim_admissible).
 * "bound": the largest over the conditions of max(L, T / k) where proven,
 * else 1 for a condition not yet met: a lower bound in every game.
 * Greedy search's estimate: the sum of the undivided T.
 */
#include <stdlib.h>

#include "levelkit/assign.h"
#include "levelkit/strbuf.h"
#include "levelkit/game.h"
#include "ps_solve.h"

/* Manhattan matchings beyond this many rows or columns fall back to the
 * sum of each row's nearest column (a weaker relaxation, in linear room). */
#define MATCH_CAP 64

struct term {
	unsigned long total;   /* T */
	unsigned longest;      /* L */
	bool proven;           /* T and L are steps of walkers under the rules */
	bool single;           /* one walker's steps: no division by k */
	bool dead;             /* the condition can never be met from here */
};

static int manhattan(const struct ps_analysis *an, int a, int b)
{
	return abs(a / an->h - b / an->h) + abs(a % an->h - b % an->h);
}

static const ps_word *cell_at(const struct ps_analysis *an, const ps_word *cells, int c)
{
	return cells + (size_t)c * (size_t)an->ow;
}

/* The cells matching a side, into out; how many. */
static int side_positions(const struct ps_analysis *an, const struct ps_side *s,
			  const ps_word *cells, int *out)
{
	int k = 0;
	for (int c = 0; c < an->n; c++)
		if (ps_side_match(s, cell_at(an, cells, c), an->ow))
			out[k++] = c;
	return k;
}

/* A walk distance, FAR made finite when a dead state may not be called
 * dead (a restart or a win command can still end it well). */
static int walk_cost(const struct ps_analysis *an, unsigned d, bool *dead)
{
	if (d == PS_FAR) {
		*dead = true;
		return an->n;
	}
	return (int)d;
}

/* The least-cost assignment of n rows to m columns (n <= m) of cost. */
static long match(const int *cost, int n, int m, int *work)
{
	return n == 0 ? 0 : lk_assign(cost, n, m, work);
}

static void all_on_manhattan(const struct ps_analysis *an, const struct ps_cond *c,
			     const ps_word *cells, int *ints, struct term *t);

/* "all X on Y" with one static side and one walker side. */
static void all_on_walk(const struct ps_analysis *an, const struct ps_cond *c,
			const ps_word *cells, int *ints, bool need_total, struct term *t)
{
	const struct ps_side *st = c->st, *wk = c->wk;
	int *pos = ints, *cost = ints + an->n;
	int np = side_positions(an, wk, cells, pos);
	bool walkers_rows = wk == &c->x;
	int rows = walkers_rows ? np : st->ncells, cols = walkers_rows ? st->ncells : np;
	t->proven = true;
	if (rows > cols) {
		/* more walkers than cells for them, or cells than walkers to cover them */
		t->dead = true;
		t->total = (unsigned long)rows;
		t->longest = 1;
		return;
	}
	if ((size_t)rows * (size_t)cols > an->max_rows * an->max_cols) {
		all_on_manhattan(an, c, cells, ints, t);   /* never for true walkers */
		t->proven = false;
		return;
	}
	int *work = cost + (size_t)rows * (size_t)cols;
	for (int i = 0; i < rows; i++) {
		unsigned best = PS_FAR;
		for (int j = 0; j < cols; j++) {
			int p = walkers_rows ? pos[i] : pos[j], s = walkers_rows ? j : i;
			unsigned d = c->dist[(size_t)s * (size_t)an->n + (size_t)p];
			/* a pair that can never meet: no matching may use it */
			cost[i * cols + j] = d == PS_FAR ? LK_ASSIGN_NONE : (int)d;
			best = d < best ? d : best;
		}
		unsigned need = (unsigned)walk_cost(an, best, &t->dead);
		t->longest = need > t->longest ? need : t->longest;
	}
	/* the matching is most of a search's time in games with many
	 * walkers: skipped when only L is read ("bound", k unbounded) */
	long total = need_total ? match(cost, rows, cols, work) : 0;
	if (total >= LK_ASSIGN_NONE) {
		t->dead = true;
		total = (long)rows * an->n;
	}
	t->total = (unsigned long)total;
}

/* "all X on Y" by Manhattan distances between the sides' cells. */
static void all_on_manhattan(const struct ps_analysis *an, const struct ps_cond *c,
			     const ps_word *cells, int *ints, struct term *t)
{
	int *xs = ints, *ys = ints + an->n;
	int nx = 0, ny = 0;
	for (int k = 0; k < an->n; k++) {
		const ps_word *cell = cell_at(an, cells, k);
		bool x = ps_side_match(&c->x, cell, an->ow), y = ps_side_match(&c->y, cell, an->ow);
		if (x && !y)
			xs[nx++] = k;   /* an X already on a Y needs nothing */
		if (y)
			ys[ny++] = k;
	}
	t->longest = nx > 0;
	if (nx == 0)
		return;
	if (ny == 0) {
		t->total = (unsigned long)nx;   /* a Y must appear under each */
		return;
	}
	/* rows the smaller side: a maximum matching, as the thesis asks */
	bool xrows = nx <= ny;
	int rows = xrows ? nx : ny, cols = xrows ? ny : nx;
	int *cost = ys + an->n, *work = cost + MATCH_CAP * MATCH_CAP;
	if (cols > MATCH_CAP) {
		for (int i = 0; i < rows; i++) {
			int best = INT32_MAX;
			for (int j = 0; j < cols; j++) {
				int d = manhattan(an, xrows ? xs[i] : ys[i], xrows ? ys[j] : xs[j]);
				best = d < best ? d : best;
			}
			t->total += (unsigned long)best;
		}
		return;
	}
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++)
			cost[i * cols + j] = manhattan(an, xrows ? xs[i] : ys[i], xrows ? ys[j] : xs[j]);
	t->total = (unsigned long)match(cost, rows, cols, work);
}

/* "some X on Y" */
static void some_on(const struct ps_analysis *an, const struct ps_cond *c, const ps_word *cells,
		    int *ints, struct term *t)
{
	t->single = true;
	if (c->dist) {
		int *pos = ints, np = side_positions(an, c->wk, cells, pos);
		unsigned best = PS_FAR;
		for (int i = 0; i < np; i++)
			for (int s = 0; s < c->st->ncells; s++) {
				unsigned d = c->dist[(size_t)s * (size_t)an->n + (size_t)pos[i]];
				best = d < best ? d : best;
			}
		t->proven = true;
		t->total = t->longest = (unsigned)walk_cost(an, best, &t->dead);
		return;
	}
	int *xs = ints, *ys = ints + an->n;
	int nx = side_positions(an, &c->x, cells, xs), ny = side_positions(an, &c->y, cells, ys);
	int best = nx && ny ? INT32_MAX : 1;
	for (int i = 0; i < nx; i++)
		for (int j = 0; j < ny; j++) {
			int d = manhattan(an, xs[i], ys[j]);
			best = d < best ? d : best;
		}
	t->total = (unsigned long)(best > 0 ? best : 1);
	t->longest = 1;
}

/* "no X on Y" */
static void no_on(const struct ps_analysis *an, const struct ps_cond *c, const ps_word *cells,
		  struct term *t)
{
	t->proven = c->escape != NULL;
	t->longest = 1;
	for (int k = 0; k < an->n; k++) {
		const ps_word *cell = cell_at(an, cells, k);
		if (!ps_side_match(&c->x, cell, an->ow) || !ps_side_match(&c->y, cell, an->ow))
			continue;
		if (!c->escape) {
			t->total++;
			continue;
		}
		unsigned e = (unsigned)walk_cost(an, c->escape[k], &t->dead);
		t->total += e;
		t->longest = e > t->longest ? e : t->longest;
	}
}

/* Whether the condition holds in cells. */
static bool holds(const struct ps_analysis *an, const struct ps_cond *c, const ps_word *cells)
{
	for (int k = 0; k < an->n; k++) {
		const ps_word *cell = cell_at(an, cells, k);
		if (!ps_side_match(&c->x, cell, an->ow))
			continue;
		bool both = c->y.all || ps_side_match(&c->y, cell, an->ow);
		if (c->quantifier == -1 && both)
			return false;
		if (c->quantifier == 0 && both)
			return true;
		if (c->quantifier == 1 && !both)
			return false;
	}
	return c->quantifier != 0;
}

static void cond_term(const struct ps_analysis *an, const struct ps_cond *c, const ps_word *cells,
		      int *ints, bool need_total, struct term *t)
{
	*t = (struct term){ 0 };
	if (c->never) {
		*t = (struct term){ .total = 1, .longest = 1, .dead = true };
		return;
	}
	if (holds(an, c, cells))
		return;
	if (c->y.all) {
		/* no X / some X: walkers are never made or destroyed */
		t->total = 1;
		if (c->quantifier == -1)
			t->total = (unsigned long)side_positions(an, &c->x, cells, ints);
		t->longest = 1;
		t->proven = c->quantifier == 0;
		t->dead = c->x.mob != PS_MOB_OTHER;
		return;
	}
	if (c->quantifier == -1)
		no_on(an, c, cells, t);
	else if (c->quantifier == 0)
		some_on(an, c, cells, ints, t);
	else if (c->dist)
		all_on_walk(an, c, cells, ints, need_total, t);
	else
		all_on_manhattan(an, c, cells, ints, t);
	if (t->longest == 0)
		t->longest = 1;   /* not met: a move at least */
}

/* How many of the condition's walkers one turn can move (0: unbounded). */
static int cond_k(const struct ps_analysis *an, const struct ps_cond *c)
{
	return c->wk && c->wk->per_turn > 0 ? c->wk->per_turn * an->players : 0;
}

static unsigned long div_up(unsigned long a, int k)
{
	return k > 0 ? (a + (unsigned long)k - 1) / (unsigned long)k : a;
}

unsigned ps_evaluate(const struct ps_analysis *an, enum ps_heuristic kind, bool estimate,
		     bool allow_dead, const ps_word *cells, int *ints, bool *dead)
{
	unsigned long sum = 0, most = 0;
	*dead = false;
	for (int i = 0; i < an->nconds; i++) {
		const struct ps_cond *c = &an->conds[i];
		struct term t;
		int k = cond_k(an, c);
		cond_term(an, c, cells, ints, estimate || kind == PS_H_MIXEDAIM || k > 0, &t);
		if (t.dead && an->dead_ok && allow_dead) {
			*dead = true;
			return LK_H_DEAD;
		}
		if (estimate) {
			sum += t.total;
		} else if (kind == PS_H_MIXEDAIM) {
			sum += t.proven && !t.single ? div_up(t.total, k) : t.total;
		} else if (t.total > 0 || t.longest > 0) {
			unsigned long b = 1;
			if (an->admissible && t.proven) {
				b = t.longest;
				if (k > 0 && div_up(t.total, k) > b)
					b = div_up(t.total, k);
			}
			most = b > most ? b : most;
		}
	}
	unsigned long h = estimate || kind == PS_H_MIXEDAIM ? sum : most;
	return h >= LK_H_DEAD ? LK_H_DEAD - 1 : (unsigned)h;
}

size_t ps_heuristic_ints(const struct ps_analysis *an)
{
	size_t r = an->max_rows, m = an->max_cols;
	if (r > m) {
		size_t t = r;
		r = m;
		m = t;
	}
	size_t walk = an->max_rows * an->max_cols + lk_assign_work((int)r, (int)m);
	size_t flat = MATCH_CAP * MATCH_CAP + lk_assign_work(MATCH_CAP, MATCH_CAP);
	size_t most = walk > flat ? walk : flat;
	if (most < 2 * (size_t)an->n)
		most = 2 * (size_t)an->n;   /* the thesis's matching: a flag per cell of each side */
	return 2 * (size_t)an->n + most + 8;
}

bool ps_mixedaim_admissible(const struct ps_analysis *an)
{
	if (!an->admissible)
		return false;
	int open = 0;
	bool proven = true;
	for (int i = 0; i < an->nconds; i++) {
		const struct ps_cond *c = &an->conds[i];
		if (c->never)
			continue;   /* dead from the start: every value is a bound */
		bool both_static = c->x.mob == PS_MOB_STATIC && (c->y.all || c->y.mob == PS_MOB_STATIC);
		if (both_static)
			continue;   /* holds for good: its term is always 0 */
		open++;
		if (c->y.all)
			proven = proven && (c->quantifier == 0 || c->x.mob != PS_MOB_OTHER);
		else if (c->quantifier == -1)
			proven = proven && c->escape && cond_k(an, c) > 0;
		else if (c->quantifier == 0)
			proven = proven && c->dist;
		else
			proven = proven && c->dist && cond_k(an, c) > 0;
	}
	/* a sum of bounds bounds nothing when one turn may serve two conditions */
	return proven && open <= 1;
}

/* Why a condition's term is not proven, or NULL when it is. */
static const char *unproven(const struct ps_analysis *an, const struct ps_cond *c)
{
	if (c->y.all) {
		if (c->quantifier == 0 || c->x.mob != PS_MOB_OTHER)
			return NULL;
		return "rules make or destroy its objects";
	}
	if (!c->dist && !c->escape)
		return "neither side is static with the other walking on one layer";
	if (c->quantifier == 0)
		return NULL;
	return cond_k(an, c) > 0 ? NULL : "nothing bounds how many of its walkers one turn moves";
}

void ps_heuristic_note(const struct ps_analysis *an, const struct ps_game *g, enum ps_heuristic kind,
		       struct lk_strbuf *out)
{
	if (kind == PS_H_BOUND) {
		lk_strbuf_addstr(out, "bound, a lower bound (the largest condition's)");
		return;
	}
	if (kind == PS_H_THESIS) {
		lk_strbuf_addstr(out, "thesis, as the thesis writes it (no proven bound)");
		return;
	}
	if (ps_mixedaim_admissible(an)) {
		lk_strbuf_addstr(out, "mixedaim, a lower bound");
		for (int i = 0; i < an->nconds; i++) {
			const struct ps_cond *c = &an->conds[i];
			if (c->wk && c->wk->per_turn > 0)
				lk_strbuf_addf(out, " (line %d: walkers move %d a turn)", g->wins[i].line,
					       cond_k(an, c));
		}
		return;
	}
	lk_strbuf_addstr(out, "mixedaim, no proven bound: ");
	if (an->again)
		lk_strbuf_addstr(out, "a rule says again (an input may take many turns)");
	else if (an->restart)
		lk_strbuf_addstr(out, "a rule restarts the level");
	else if (an->win_cmd)
		lk_strbuf_addstr(out, "a rule wins by command");
	else {
		int open = 0;
		const char *why = NULL;
		int line = 0;
		for (int i = 0; i < an->nconds; i++) {
			const struct ps_cond *c = &an->conds[i];
			bool both_static = c->x.mob == PS_MOB_STATIC && (c->y.all || c->y.mob == PS_MOB_STATIC);
			if (c->never || both_static)
				continue;
			open++;
			const char *w = unproven(an, c);
			if (w && !why) {
				why = w;
				line = g->wins[i].line;
			}
		}
		if (why)
			lk_strbuf_addf(out, "the win condition on line %d: %s", line, why);
		else if (open > 1)
			lk_strbuf_addf(out, "%d win conditions to meet (one turn may serve several)", open);
		else
			lk_strbuf_addstr(out, "unproven");
	}
}
