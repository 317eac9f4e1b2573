/*
 * sokoban_any_advise.c - FESS's explorer and opener advisors for Sokoban's
 * feature-space search (solve -a any, sokoban_any.c; the other advisors
 * are in sokoban_any_order.c).  Unlike the feature advisors, which read the
 * children's features only, these two look at the boxes: the explorer at
 * the pushes a move makes possible, the opener at where the moved box
 * stands from the next goal to fill.  After Shoham and Schaeffer ("The
 * FESS Algorithm", IEEE CoG 2020) and Festival's published source; our own
 * code, see docs/games/sokoban.md, "Hard levels".
 *
 * Like every advisor they only mark a move (weight 0 instead of 1): the
 * move stays in the search either way, so they can never lose a solution.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any_search.h"

static uint32_t fresh(struct any *a)
{
	if (++a->adv_stamp == 0) {
		memset(a->adv_mark, 0, (size_t)a->s->cells * sizeof *a->adv_mark);
		a->adv_stamp = 1;
	}
	return a->adv_stamp;
}

/* Flood the player's squares from cell `from` over the floor free of the
 * boxes in box[] (a fresh stamp in adv_mark).  With `goal` set: stop and
 * return true as soon as a square whose adv_goal holds goal is reached. */
static bool flood(struct any *a, const uint8_t *box, int from, uint32_t goal)
{
	const struct sokoban *s = a->s;
	uint32_t st = fresh(a);
	int sp = 0;
	a->adv_mark[from] = st;
	a->adv_stack[sp++] = (uint16_t)from;
	while (sp > 0) {
		int c = a->adv_stack[--sp];
		if (goal && a->adv_goal[c] == goal)
			return true;
		for (int d = 0; d < 4; d++) {
			int y = c + s->off[d];
			if (s->wall[y] || box[y] || a->adv_mark[y] == st)
				continue;
			a->adv_mark[y] = st;
			a->adv_stack[sp++] = (uint16_t)y;
		}
	}
	return false;
}

/* Can a box on `from`, alone on the level, be pushed back to `to`?  (A
 * push needs floor on both sides of the box; the player's way round it is
 * not checked, which only lets more moves count as reversible.) */
static bool box_reaches(struct any *a, int from, int to)
{
	const struct sokoban *s = a->s;
	uint32_t st = fresh(a);
	int sp = 0;
	a->adv_mark[from] = st;
	a->adv_stack[sp++] = (uint16_t)from;
	while (sp > 0) {
		int c = a->adv_stack[--sp];
		if (c == to)
			return true;
		for (int d = 0; d < 4; d++) {
			int y = c + s->off[d];
			if (s->wall[y] || s->wall[c - s->off[d]] || a->adv_mark[y] == st)
				continue;
			a->adv_mark[y] = st;
			a->adv_stack[sp++] = (uint16_t)y;
		}
	}
	return false;
}

/* A push the player cannot make in the parent for want of reaching its
 * square: box b pushed by a player on q (b's neighbour) towards t. */
struct closed_push {
	uint16_t b, q, t;
};

/*
 * The explorer (FESS: "opens a path to a free square which enables a new
 * push"; built for breaking into closed rooms).  Among the moves that lose
 * no packed box and that the moved box could undo (it can be pushed back
 * where it came from, on the empty level), those after which the player
 * reaches the square behind a box that stood still, a square free before
 * and out of reach, with the square beyond that box free: a push no
 * position on the parent's side of the boxes allowed.  The best such move
 * by the features' order, or -1.
 */
long soko_fess_explorer(struct any *a, const struct expansion *x, const struct soko_features *f)
{
	const struct sokoban *s = a->s;
	struct soko_scratch *sc = a->scratch2;
	const unsigned char *pk = lk_table_key(&a->table, x->node);
	int n = soko_unpack(s, pk, sc);
	flood(a, sc->box, s->cell_of[soko_key_player(pk)], 0);
	uint32_t reached = a->adv_stamp;
	size_t nclosed = 0;
	for (int i = 0; i < n; i++) {
		int b = sc->boxes[i];
		for (int d = 0; d < 4; d++) {
			int q = b - s->off[d], t = b + s->off[d];
			if (s->wall[q] || sc->box[q] || a->adv_mark[q] == reached || s->wall[t])
				continue;
			LK_ALLOC_GROW(a->closed, nclosed + 1, a->closed_alloc);
			a->closed[nclosed++] = (struct closed_push){ (uint16_t)b, (uint16_t)q, (uint16_t)t };
		}
	}
	long best = -1;
	struct soko_features bf;
	for (uint32_t i = 0; i < x->nmoves && nclosed; i++) {
		uint32_t child = a->moves[x->moves + i].child;
		if (a->flags[child])
			continue;
		struct soko_features c;
		soko_features_unpack(lk_table_cost(&a->table, child), &c);
		if (c.packed < f->packed || (best >= 0 && !soko_features_better(&c, &bf)))
			continue;
		const unsigned char *ck = lk_table_key(&a->table, child);
		int from, to = soko_moved_box(s, pk, ck, &from);
		if (to < 0 || from < 0)
			continue;
		/* the pushes still open in the child: their targets */
		if (++a->adv_goal_stamp == 0) {
			memset(a->adv_goal, 0, (size_t)s->cells * sizeof *a->adv_goal);
			a->adv_goal_stamp = 1;
		}
		bool any = false;
		for (size_t k = 0; k < nclosed; k++) {
			const struct closed_push *p = &a->closed[k];
			if (p->b == from || p->q == to || p->t == to || (sc->box[p->t] && p->t != from))
				continue;
			a->adv_goal[p->q] = a->adv_goal_stamp;
			any = true;
		}
		if (!any)
			continue;
		sc->box[from] = 0;
		sc->box[to] = 1;
		bool opens = flood(a, sc->box, s->cell_of[soko_key_player(ck)], a->adv_goal_stamp);
		sc->box[to] = 0;
		sc->box[from] = 1;
		if (!opens || !box_reaches(a, to, from))
			continue;
		best = (long)i;
		bf = c;
	}
	soko_clear_boxes(s, sc, n);
	return best;
}

/* Steps over the floor (boxes ignored) from goal g to every cell, kept
 * while g stays the goal asked for. */
static const uint16_t *goal_steps(struct any *a, int g)
{
	const struct sokoban *s = a->s;
	if (a->open_goal == g)
		return a->open_dist;
	size_t cells = (size_t)s->cells;
	if (!a->open_dist)
		a->open_dist = lk_xmalloc(cells * sizeof *a->open_dist);
	for (size_t c = 0; c < cells; c++)
		a->open_dist[c] = UINT16_MAX;
	size_t head = 0, tail = 0;
	a->open_dist[g] = 0;
	a->adv_stack[tail++] = (uint16_t)g;
	while (head < tail) {
		int c = a->adv_stack[head++];
		for (int d = 0; d < 4; d++) {
			int y = c + s->off[d];
			if (s->wall[y] || a->open_dist[y] != UINT16_MAX)
				continue;
			a->open_dist[y] = (uint16_t)(a->open_dist[c] + 1);
			a->adv_stack[tail++] = (uint16_t)y;
		}
	}
	a->open_goal = g;
	return a->open_dist;
}

/*
 * The opener (Festival's published form; the paper's describes clearing
 * round the hotspot that blocks most boxes, the code round the next goal
 * of the packing order).  When no move packs a box: the next goal to fill
 * (of the goal areas' next goals, the first in the packing order), and
 * among the moves that lose no packed box and make neither player areas
 * nor boxes in doorways worse, those that take their box no nearer to that
 * goal; of these the one whose box stood nearest the goal, then the one
 * that takes it furthest, or -1.  It clears the way to the goal the plan
 * fills next.
 */
long soko_fess_opener(struct any *a, const struct expansion *x, const struct soko_features *f)
{
	const struct sokoban *s = a->s;
	const struct soko_plan *p = &a->plan;
	for (uint32_t i = 0; i < x->nmoves; i++) {
		uint32_t child = a->moves[x->moves + i].child;
		struct soko_features c;
		soko_features_unpack(lk_table_cost(&a->table, child), &c);
		if (!a->flags[child] && c.packed > f->packed)
			return -1;
	}
	const unsigned char *pk = lk_table_key(&a->table, x->node);
	int g = -1;
	for (int ar = 0; ar < p->nareas; ar++) {
		int i = p->area_first[ar];
		while (i < p->area_first[ar + 1] &&
		       soko_bit(pk + 2, s->compact[p->area_goals[i]]))
			i++;
		if (i == p->area_first[ar + 1])
			continue;
		int goal = p->area_goals[i];
		if (g < 0 || p->rank[goal] < p->rank[g])
			g = goal;
	}
	if (g < 0)
		return -1;
	const uint16_t *dist = goal_steps(a, g);
	long best = -1;
	unsigned near = UINT16_MAX, far = 0;
	for (uint32_t i = 0; i < x->nmoves; i++) {
		uint32_t child = a->moves[x->moves + i].child;
		if (a->flags[child])
			continue;
		struct soko_features c;
		soko_features_unpack(lk_table_cost(&a->table, child), &c);
		if (c.packed < f->packed || c.areas > f->areas || c.doorways > f->doorways)
			continue;
		int from, to = soko_moved_box(s, pk, lk_table_key(&a->table, child), &from);
		if (to < 0 || from < 0)
			continue;
		unsigned d1 = dist[from], d2 = dist[to];
		if (d1 == UINT16_MAX || d2 < d1 || d1 > near || (d1 == near && d2 <= far))
			continue;
		best = (long)i;
		near = d1;
		far = d2;
	}
	return best;
}
