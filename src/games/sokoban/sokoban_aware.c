/*
 * sokoban_aware.c - player-aware push distances, the stronger lower bound
 * of the push-optimal searches (technique "player-aware").
 *
 * The plain push distance of a box to a goal (sokoban_level.c) lets the
 * box be pushed from any side at any time.  But with the box alone on the
 * board the player can only reach the squares of its own area of the
 * floor with the box's square taken out: the box's square cuts the floor
 * into up to four areas, and the player crosses from one to another only
 * by pushing that box.  So the distance here is a breadth-first search over
 * (box square, player area) pairs: a push needs the player's square in the
 * player's area, and after it the player stands on the box's old square,
 * in one of the areas of the new square.  In a level whose rooms have
 * one-way doors (Microban 153: a box brought up to a door with the player
 * behind it can only go back the long way round) this adds tens of pushes
 * to a box's distance.
 *
 * Why it is a lower bound (and A* stays optimal): until a box is pushed,
 * the player stays in its area (only the box joins the areas; other boxes
 * only take squares away), and every walk of the player between two pushes
 * of that box is a walk on the board with that box alone.  So any
 * solution's pushes of one box are a push path of this search from (its
 * square, the player's area), at least this distance long, and the
 * minimum-cost matching of boxes to goals over these costs bounds the
 * pushes left.  A push changes one box's pair along one edge of the search
 * and leaves the others' areas alone (the player reached its pushing
 * square without crossing them), so the bound falls by at most one a push:
 * it stays consistent.  A box with no goal at any distance makes the state
 * dead.
 *
 * The reversed level (backward search, pulls towards the start squares)
 * has the same bound with pulls: a pull needs the player on the square the
 * box moves to and the one beyond, and leaves it on the latter.
 *
 * Memory: one byte per pair of floor squares (the area of a player square
 * for a box square) and four distances per goal and square; levels with
 * more than SOKO_AWARE_MAX_FLOOR floor squares keep the plain distances.
 */
#include <string.h>

#include "sokoban.h"

/* nfloor^2 bytes for the areas: 4 MB at most. */
#define SOKO_AWARE_MAX_FLOOR 2048

/* Label the areas of the floor with cell c taken out: each area is named
 * by the first direction (0..3) in which c's neighbour lies in it.  Writes
 * side[compact p] for every floor square p (0xff for c itself). */
static void label_areas(const struct sokoban *s, int c, uint8_t *side, uint16_t *stack)
{
	memset(side, 0xff, (size_t)s->nfloor);
	for (int d = 0; d < 4; d++) {
		int start = c + s->off[d];
		if (s->wall[start] || side[s->compact[start]] != 0xff)
			continue;
		int sp = 0;
		side[s->compact[start]] = (uint8_t)d;
		stack[sp++] = (uint16_t)start;
		while (sp > 0) {
			int x = stack[--sp];
			for (int e = 0; e < 4; e++) {
				int y = x + s->off[e];
				if (s->wall[y] || y == c || side[s->compact[y]] != 0xff)
					continue;
				side[s->compact[y]] = (uint8_t)d;
				stack[sp++] = (uint16_t)y;
			}
		}
	}
}

/* The area of player square p for a box on square c. */
static inline int area(const struct sokoban *s, int c, int p)
{
	return s->aware_side[(size_t)s->compact[c] * (size_t)s->nfloor + (size_t)s->compact[p]];
}

/* Distances to target square g over (box square, player area) pairs into
 * dist (cells x 4), by a breadth-first search backwards from g with the
 * player anywhere: of pushes, or for a reversed level of pulls. */
static void target_distances(const struct sokoban *s, int g, bool pulls, uint16_t *dist,
			     uint32_t *queue)
{
	for (size_t i = 0; i < (size_t)s->cells * 4; i++)
		dist[i] = SOKO_INF;
	size_t head = 0, tail = 0;
	for (int k = 0; k < 4; k++) {
		dist[g * 4 + k] = 0;
		queue[tail++] = (uint32_t)(g * 4 + k);
	}
	while (head < tail) {
		int y = (int)(queue[head] / 4), k = (int)(queue[head] % 4);
		unsigned dy = dist[queue[head++]];
		/* (y, k) was reached by a move in direction d from c = y - d:
		 * a push, the player on p = c - d before it and on c after it,
		 * or a pull, the player on y before it and on y + d after it */
		for (int d = 0; d < 4; d++) {
			int c = y - s->off[d], p = pulls ? y : c - s->off[d];
			int after = pulls ? y + s->off[d] : c;
			if (s->wall[c] || s->wall[p] || s->wall[after] || area(s, y, after) != k)
				continue;
			size_t at = (size_t)c * 4 + (size_t)area(s, c, p);
			if (dist[at] != SOKO_INF)
				continue;
			dist[at] = (uint16_t)(dy + 1);
			queue[tail++] = (uint32_t)at;
		}
	}
}

void soko_aware_build(struct sokoban *s)
{
	s->aware_side = NULL;
	s->aware_dist = NULL;
	s->aware_tdist = NULL;
	if (!s->use[SOKO_T_AWARE] || !s->push_graph || s->forward || s->ngoals == 0 ||
	    s->nfloor > SOKO_AWARE_MAX_FLOOR)
		return;
	size_t nf = (size_t)s->nfloor;
	s->aware_side = lk_xmalloc(nf * nf);
	uint16_t *stack = lk_xmalloc((size_t)s->cells * sizeof *stack);
	for (int i = 0; i < s->nfloor; i++)
		label_areas(s, s->cell_of[i], s->aware_side + (size_t)i * nf, stack);
	free(stack);
	s->aware_dist = soko_aware_distances(s, s->goals, s->ngoals, false);
	s->aware_tdist = s->aware_dist;
}

uint16_t *soko_aware_distances(const struct sokoban *s, const uint16_t *targets, int n,
			       bool pulls)
{
	size_t per = (size_t)s->cells * 4;
	uint16_t *dist = lk_xmalloc((size_t)(n ? n : 1) * per * sizeof *dist);
	uint32_t *queue = lk_xmalloc(per * sizeof *queue);
	for (int i = 0; i < n; i++)
		target_distances(s, targets[i], pulls, dist + (size_t)i * per, queue);
	free(queue);
	return dist;
}

/* The heuristic's row of a box on square c with the player in area k was
 * read target by target, a distance a cache line apart (the tables are by
 * target): on Microban 153 a tenth of A*'s time.  By square and area it is
 * one run, read as the plain rows are. */
void soko_aware_by_cell(struct sokoban *s)
{
	s->aware_by_cell = NULL;
	s->aware_row_flags = NULL;
	s->aware_of = s->aware_tdist;
	s->plain_of = s->tdist;
	if (!s->aware_tdist || !s->tdist || s->ntargets == 0)
		return;
	size_t m = (size_t)s->ntargets, rows = (size_t)s->cells * 4;
	s->aware_by_cell = lk_xmalloc(rows * m * sizeof *s->aware_by_cell);
	s->aware_row_flags = lk_xcalloc(rows, 1);
	for (size_t r = 0; r < rows; r++) {
		size_t c = r / 4;
		bool any = false;
		for (size_t g = 0; g < m; g++) {
			uint16_t d = s->tdist[g * (size_t)s->cells + c];
			uint16_t a = s->aware_tdist[g * SOKO_AWARE_STRIDE(s) + r];
			any |= d != SOKO_INF;
			if (d != SOKO_INF && a != d)
				s->aware_row_flags[r] |= SOKO_ROW_RAISED;
			s->aware_by_cell[r * m + g] = d == SOKO_INF ? SOKO_INF : a;
		}
		if (!any)
			s->aware_row_flags[r] |= SOKO_ROW_STRANDED;
	}
}

void soko_aware_free(struct sokoban *s)
{
	free(s->aware_by_cell);
	free(s->aware_row_flags);
	free(s->aware_side);
	free(s->aware_dist);
}

const uint16_t *soko_aware_row(const struct sokoban *s, int box, int player)
{
	return s->aware_tdist + (size_t)box * 4 + (size_t)area(s, box, player);
}
