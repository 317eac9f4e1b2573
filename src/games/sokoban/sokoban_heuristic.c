/*
 * sokoban_heuristic.c - lower bounds on the pushes still needed.
 *
 * "matching": the minimum-cost perfect matching of boxes to goals where a
 * pair costs the box's push distance to that goal with other boxes
 * ignored (Junghanns and Schaeffer).  Each push moves one box one cell, so
 * the bound is admissible for pushes and for moves, and consistent.  A box
 * that can reach no free goal makes the state dead.  With "player-aware"
 * on (the default of the forward push levels) a pair costs instead the
 * box's player-aware push distance (sokoban_aware.c): the side of the box
 * the player can reach is taken into account, which is still a bound.
 * Greedy search's estimate keeps the plain distances: it is MixedAim's
 * search, whose counts the difficulty measures need as they were.
 *
 * "mixedaim": MixedAim's generalised heuristic for "All Crate on Target":
 * a greedy maximal matching on Manhattan distances, halved because a
 * greedy matching may cost up to twice the optimum.  Weaker, but it is
 * what reproduces the thesis's difficulty figures.
 */
#include <stdlib.h>

#include "levelkit/assign.h"
#include "sokoban.h"

#define BIG LK_ASSIGN_NONE

void soko_targets_by_cell(struct sokoban *s)
{
	size_t n = (size_t)s->cells, m = (size_t)s->ntargets;
	s->tdist_by_cell = NULL;
	s->by_cell_of = s->tdist;
	if (!s->tdist || m == 0)
		return;
	s->tdist_by_cell = lk_xmalloc(n * m * sizeof *s->tdist_by_cell);
	for (size_t c = 0; c < n; c++)
		for (size_t g = 0; g < m; g++)
			s->tdist_by_cell[c * m + g] = s->tdist[g * n + c];
}

/* A box's row of plain distances into the cost matrix (a target it cannot
 * reach costing BIG); returns the row's least.  Greedy search fills n rows
 * of m a state, a quarter of its time on the big Sasquatch levels (II 17:
 * 84 boxes), so on x86 the loop is also built for AVX2 (a widening load
 * and a minimum instruction where the baseline unpacks, compares and
 * blends) and chosen when the processor has it: the same integers. */
static inline int plain_row_body(const uint16_t *row, int *out, int m)
{
	int best = BIG;
	for (int g = 0; g < m; g++) {
		int c = row[g] == SOKO_INF ? BIG : (int)row[g];
		out[g] = c;
		best = c < best ? c : best;
	}
	return best;
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__AVX2__)
__attribute__((target("avx2"))) static int plain_row_avx2(const uint16_t *row, int *out, int m)
{
	return plain_row_body(row, out, m);
}

static int plain_row(const uint16_t *row, int *out, int m)
{
	return __builtin_cpu_supports("avx2") ? plain_row_avx2(row, out, m)
					      : plain_row_body(row, out, m);
}
#else
static int plain_row(const uint16_t *row, int *out, int m)
{
	return plain_row_body(row, out, m);
}
#endif

/* The minimum-cost matching; a box that can reach no target is a dead
 * square, boxes that cannot all be matched a bipartite deadlock.  With
 * either technique off such a state still gets a bound: each box's
 * nearest target, the boxes that have none counting 0. */
static unsigned matching_bound(const struct sokoban *s, struct soko_scratch *sc, int n,
			       int player, bool nearest)
{
	int m = s->ntargets;
	long relaxed = 0;
	bool stranded = false, raised = false, aware_dead = false;
	size_t stride = player >= 0 ? SOKO_AWARE_STRIDE(s) : 0;
	/* the distances by square when they are built for these targets */
	bool by_cell = s->tdist_by_cell && s->by_cell_of == s->tdist;
	/* the aware rows by square and area, when built for these distances */
	bool aware_rows = player >= 0 && s->aware_by_cell && s->aware_of == s->aware_tdist &&
			  s->plain_of == s->tdist;
	for (int i = 0; aware_rows && i < n; i++) {
		size_t r = (size_t)sc->boxes[i] * 4 +
			   (size_t)s->aware_side[(size_t)s->compact[sc->boxes[i]] * (size_t)s->nfloor +
						 (size_t)s->compact[player]];
		int best = plain_row(s->aware_by_cell + r * (size_t)m, sc->cost + i * m, m);
		unsigned flags = s->aware_row_flags[r];
		raised |= (flags & SOKO_ROW_RAISED) != 0;
		if (flags & SOKO_ROW_STRANDED)
			stranded = true;
		else if (best == BIG)
			aware_dead = true;
		else
			relaxed += best;
	}
	for (int i = 0; !aware_rows && i < n; i++) {
		int best = BIG, plain_best = BIG;
		const uint16_t *aware = player >= 0 && s->aware_tdist
						? soko_aware_row(s, sc->boxes[i], player)
						: NULL;
		if (!aware && by_cell) {
			/* plain distances, one run: plain_best is best */
			best = plain_row(s->tdist_by_cell + (size_t)sc->boxes[i] * (size_t)m,
					 sc->cost + i * m, m);
			if (best == BIG)
				stranded = true;
			else
				relaxed += best;
			continue;
		}
		for (int g = 0; g < m; g++) {
			unsigned d = by_cell ? s->tdist_by_cell[(size_t)sc->boxes[i] * (size_t)m + (size_t)g]
					     : s->tdist[(size_t)g * (size_t)s->cells + sc->boxes[i]];
			if (d != SOKO_INF && (int)d < plain_best)
				plain_best = (int)d;
			if (aware && d != SOKO_INF) {
				unsigned a = aware[(size_t)g * stride];
				raised |= a != d;
				d = a;
			}
			int c = d == SOKO_INF ? BIG : (int)d;
			sc->cost[i * m + g] = c;
			if (c < best)
				best = c;
		}
		if (plain_best == BIG)
			stranded = true;
		else if (best == BIG)
			aware_dead = true;
		else
			relaxed += best;
	}
	if (stranded) {
		if (!s->use[SOKO_T_DEAD_SQUARES])
			return (unsigned)relaxed;
		sc->count[SOKO_T_DEAD_SQUARES]++;
		return LK_H_DEAD;
	}
	sc->count[SOKO_T_AWARE] += raised;
	if (aware_dead)
		return LK_H_DEAD;   /* a box no push path takes to any goal */
	long total = soko_matching(sc, n, m, nearest);
	if (total < BIG) {
		if (player < 0 || (!s->pairs && !s->patterns))
			return (unsigned)total;
		/* learned penalties of clusters, then pairs beside them */
		uint64_t gmask[SOKO_PAT_MAX_GROUPS];
		uint8_t gweight[SOKO_PAT_MAX_GROUPS];
		int ng = s->patterns ? soko_patterns_groups(s->patterns, sc, n, player, gmask,
							     gweight)
				     : 0;
		long alone = total;
		for (int i = 0; i < ng; i++)
			alone += gweight[i];
		unsigned h = soko_pairs_bound(s, sc, n, player, total, gmask, gweight, ng);
		sc->count[SOKO_T_PAIRS] += h == LK_H_DEAD || h > (unsigned)alone;
		return h;
	}
	if (!s->use[SOKO_T_BIPARTITE])
		return (unsigned)relaxed;
	sc->count[SOKO_T_BIPARTITE]++;
	return LK_H_DEAD;
}

static int manhattan(const struct sokoban *s, int a, int b)
{
	int ax = a % s->width, ay = a / s->width, bx = b % s->width, by = b / s->width;
	return abs(ax - bx) + abs(ay - by);
}

static unsigned mixedaim_bound(const struct sokoban *s, struct soko_scratch *sc, int n)
{
	int m = s->ntargets;
	int *row_used = sc->hung, *col_used = row_used + n;
	for (int i = 0; i < n; i++)
		row_used[i] = 0;
	for (int g = 0; g < m; g++)
		col_used[g] = 0;
	long total = 0;
	for (int k = 0; k < n; k++) {
		int bi = -1, bg = -1, best = 0x7fffffff;
		for (int i = 0; i < n; i++) {
			if (row_used[i])
				continue;
			for (int g = 0; g < m; g++) {
				if (col_used[g])
					continue;
				int d = manhattan(s, sc->boxes[i], s->targets[g]);
				if (d < best) {
					best = d;
					bi = i;
					bg = g;
				}
			}
		}
		row_used[bi] = col_used[bg] = 1;
		total += best;
	}
	return (unsigned)(total / 2);
}

/* Greedy search's guess adds, under the matching heuristic, the boxes not
 * yet finished (see sokoban_order.c) at FINISH_WEIGHT pushes each, so that
 * greedy search completes boxes in an order that works instead of crowding
 * every box towards the goals at once.  MixedAim's heuristic stays as the
 * thesis used it.  The weight was tuned on Microban: 3 to 5 all solve level
 * 153 (backwards, in 1.5 to 1.7 million states), 1 does not, 6 takes twice
 * as long; docs/design.md. */
#define FINISH_WEIGHT 4u

static unsigned evaluate(const struct lk_level *level, const void *key, void *scratch,
			 bool estimate)
{
	const struct sokoban *s = (const struct sokoban *)level;
	if (s->impossible && !s->forward)
		return LK_H_DEAD;
	struct soko_scratch *sc = soko_scratch(s, scratch);
	int n = soko_unpack(s, key, sc);
	unsigned h;
	if (s->heuristic == SOKO_H_MIXEDAIM) {
		h = mixedaim_bound(s, sc, n);
	} else {
		/* the player's square, for the player-aware distances, the
		 * pair conflicts and the patterns */
		int player = -1;
		unsigned at = soko_key_player(key);
		if ((s->aware_tdist || s->pairs || s->patterns) && !estimate && at != SOKO_ANYWHERE)
			player = s->cell_of[at];
		/* greedy search's estimate reads only the matching's value, so
		 * it may start from the nearest solution kept; the bound of the
		 * push searches keeps its sequence of potentials, which the pair
		 * conflicts and patterns read */
		h = matching_bound(s, sc, n, player, estimate);
		if (estimate && h != LK_H_DEAD)
			h += FINISH_WEIGHT * soko_unfinished(s, sc, n);
	}
	soko_clear_boxes(s, sc, n);
	return h;
}

unsigned soko_heuristic(const struct lk_level *level, const void *key, void *scratch)
{
	return evaluate(level, key, scratch, false);
}

unsigned soko_estimate(const struct lk_level *level, const void *key, void *scratch)
{
	return evaluate(level, key, scratch, true);
}
