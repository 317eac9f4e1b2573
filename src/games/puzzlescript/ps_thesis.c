/*
 * ps_thesis.c - the heuristic of De Keyser's thesis (3.3) exactly as it
 * is written, over a PuzzleScript game's win conditions, for the thesis
 * measure (rate --measure thesis): the sum of one term per condition,
 *   no X          +1 for every cell holding X
 *   some X        +1 when no cell holds X
 *   no X on Y     +1 for every cell holding both
 *   some X on Y   the Manhattan distance of the nearest X, Y pair
 *                 (1 when there is no X or no Y: the thesis says nothing)
 *   all X on Y    a greedy maximal matching of X cells to Y cells on
 *                 Manhattan distance (the nearest pair first), halved
 * and 0 for a condition that holds.  No walk distances, no dead states,
 * nothing divided by how many objects a turn moves: that is ps_heuristic.c.
 *
 * Cells are visited in reading order (row by row, left to right) and the
 * greedy matching takes, among equally near pairs, the X first in that
 * order and then the Y: the tie-break Sokoban's "mixedaim" heuristic uses
 * (boxes and goals in reading order), so that a Sokoban level as
 * PuzzleScript and as native Sokoban gets the same value in every state.
 * The thesis claims the halved matching never overestimates; a greedy
 * matching can cost more than twice the optimum (Reingold and Tarjan), so
 * levelkit does not call it admissible (test_ps_solve's counter-example).
 */
#include <stdlib.h>

#include "levelkit/game.h"
#include "ps_solve.h"

/* The cells matching a side, in reading order, into out; how many. */
static int side_cells(const struct ps_analysis *an, const struct ps_side *s, const ps_word *cells,
		      int *out)
{
	int k = 0;
	for (int y = 0; y < an->h; y++)
		for (int x = 0; x < an->w; x++) {
			int c = x * an->h + y;
			if (ps_side_match(s, cells + (size_t)c * (size_t)an->ow, an->ow))
				out[k++] = c;
		}
	return k;
}

static int manhattan(const struct ps_analysis *an, int a, int b)
{
	return abs(a / an->h - b / an->h) + abs(a % an->h - b % an->h);
}

/* Whether a cell matches both sides (y.all: any cell). */
static bool both(const struct ps_analysis *an, const struct ps_cond *c, const ps_word *cell)
{
	return ps_side_match(&c->x, cell, an->ow) && (c->y.all || ps_side_match(&c->y, cell, an->ow));
}

/* The greedy maximal matching of xs to ys: its cost. */
static unsigned long greedy_matching(const struct ps_analysis *an, const int *xs, int nx,
				     const int *ys, int ny, int *used)
{
	int *xused = used, *yused = used + nx;
	for (int i = 0; i < nx + ny; i++)
		used[i] = 0;
	unsigned long total = 0;
	int pairs = nx < ny ? nx : ny;
	for (int k = 0; k < pairs; k++) {
		int bi = -1, bj = -1, best = 0;
		for (int i = 0; i < nx; i++) {
			if (xused[i])
				continue;
			for (int j = 0; j < ny; j++) {
				if (yused[j])
					continue;
				int d = manhattan(an, xs[i], ys[j]);
				if (bi < 0 || d < best) {
					best = d;
					bi = i;
					bj = j;
				}
			}
		}
		xused[bi] = yused[bj] = 1;
		total += (unsigned long)best;
	}
	return total;
}

static unsigned long term(const struct ps_analysis *an, const struct ps_cond *c,
			  const ps_word *cells, int *ints)
{
	int count = 0;
	bool all_hold = true;
	for (int k = 0; k < an->n; k++) {
		const ps_word *cell = cells + (size_t)k * (size_t)an->ow;
		if (!ps_side_match(&c->x, cell, an->ow))
			continue;
		if (both(an, c, cell))
			count++;
		else
			all_hold = false;
	}
	if (c->quantifier == -1)
		return (unsigned long)count;     /* no X (on Y): one per cell */
	if (c->quantifier == 0 && c->y.all)
		return count ? 0 : 1;             /* some X */
	if (c->quantifier == 0 && count)
		return 0;                         /* some X on Y holds */
	if (c->quantifier == 1 && all_hold)
		return 0;                         /* all X on Y holds */
	int *xs = ints, *ys = ints + an->n, *used = ints + 2 * (size_t)an->n;
	int nx = side_cells(an, &c->x, cells, xs), ny = side_cells(an, &c->y, cells, ys);
	if (c->quantifier == 1)
		return greedy_matching(an, xs, nx, ys, ny, used) / 2;
	if (!nx || !ny)
		return 1;
	int best = -1;
	for (int i = 0; i < nx; i++)
		for (int j = 0; j < ny; j++) {
			int d = manhattan(an, xs[i], ys[j]);
			if (best < 0 || d < best)
				best = d;
		}
	return (unsigned long)best;
}

unsigned ps_thesis_heuristic(const struct ps_analysis *an, const ps_word *cells, int *ints)
{
	unsigned long sum = 0;
	for (int i = 0; i < an->nconds; i++)
		sum += term(an, &an->conds[i], cells, ints);
	return sum >= LK_H_DEAD ? LK_H_DEAD - 1 : (unsigned)sum;
}
