/*
 * sokoban_plandead.c - plan deadlocks of Sokoban's first feature-space
 * search (solve -a any with goal rooms): positions that search can never
 * solve because the boxes it has packed are walls to the boxes left.
 *
 * With goal rooms on, a box on a packed goal (one its area's order fills
 * before the area's first empty goal) is never moved again in the first
 * search (sokoban_goalroom.c).  A level whose order is a little wrong is
 * then often packed to its last box or two, and that box shut off from the
 * goals left by the packed ones (Sasquatch I 5: the last box in a quarter
 * whose goals are full, the empty goal in another; I 31 likewise); no
 * deadlock test sees it, as every test lets a packed box move, and the
 * first search spent 90,000 expansions and more below such a position.
 * Here the packed boxes are walls: a box not on a packed goal must be
 * able to reach, by pushes with the player anywhere free (not through a
 * wall or packed box), some goal not packed, and every goal not packed must
 * be reachable so by some box; a move whose box cannot, or that packs a
 * box after which the position fails either test, is cut.  Like the goal
 * rooms it trusts (it cuts nothing the goal rooms leave solvable), it is
 * used in the first search only: when that search runs out of moves after
 * it cut one, the search without cuts runs (sokoban_any_budget.c).
 *
 * Park deadlocks (a switch of their own) make the same test where a
 * parking plan is in force, the packed boxes those on the goals of the
 * plan's steps reached.  The plan says which target each step fills but
 * not with which box, and the first search fills a goal with whatever box
 * gets there: on Sasquatch I 31 it packs 20 of 21 steps with the last box
 * left in a room whose doors are packed goals, and spends its time below
 * it (II 42's and I 35's deepest positions are dead too, as -a any proves,
 * but each box left there still reaches some goal left: this test sees
 * I 31's, not theirs).
 * Nothing freezes a packed box under a parking plan, so unlike the goal
 * rooms' test this one may cut a solution the first search would have
 * found; it too is used in the first search only, and a first search that
 * ran out of moves after it cut one proves nothing.
 */
#include <stdlib.h>

#include "sokoban_any_search.h"

static uint32_t fresh(struct any *a)
{
	if (++a->pd_stamp == 0) {
		for (int i = 0; i < a->s->cells; i++)
			a->pd_mark[i] = 0;
		a->pd_stamp = 1;
	}
	return a->pd_stamp;
}

/* Is the box on cell c (boxes in box, next goals of the areas in next)
 * on a packed goal? */
static bool packed_at(const struct soko_plan *p, const uint16_t *next, int c)
{
	uint16_t area = p->area_of[c];
	if (area == SOKO_NONE || p->rank[c] == SOKO_NONE)
		return false;
	return next[area] == SOKO_NONE || p->rank[c] < p->rank[next[area]];
}

/* Is the box on cell c packed: on a packed goal of the packing order, or
 * under a parking plan (park-deadlocks) on the goal of a step reached? */
static bool packed_box(const struct any *a, const uint16_t *next, int c)
{
	if (a->plan.park)
		return a->pd_step[c] < a->pd_reached;
	return packed_at(&a->plan, next, c);
}

static bool blocked(const struct any *a, const uint8_t *box, const uint16_t *next, int c)
{
	return a->s->wall[c] || (box[c] && packed_box(a, next, c));
}

/* Flood of the pushes with packed boxes as walls and other boxes away:
 * backwards from the goals not packed (back: the squares a box can be
 * pushed to one of them from) or forwards from the boxes not packed;
 * marks with a fresh stamp, returned. */
static uint32_t flood(struct any *a, const uint8_t *box, const uint16_t *next,
		      const uint16_t *boxes, int n, bool back)
{
	const struct sokoban *s = a->s;
	uint32_t st = fresh(a);
	int sp = 0;
	if (back) {
		for (int i = 0; i < s->ngoals; i++) {
			int g = s->goals[i];
			if (!(box[g] && packed_box(a, next, g))) {
				a->pd_mark[g] = st;
				a->pd_stack[sp++] = (uint16_t)g;
			}
		}
	} else {
		for (int i = 0; i < n; i++) {
			int c = boxes[i];
			if (!packed_box(a, next, c) && a->pd_mark[c] != st) {
				a->pd_mark[c] = st;
				a->pd_stack[sp++] = (uint16_t)c;
			}
		}
	}
	while (sp > 0) {
		int t = a->pd_stack[--sp];
		for (int d = 0; d < 4; d++) {
			int o = s->off[d];
			/* back: a box on t - o pushed onto t, the player on t - 2o;
			 * forwards: a box on t pushed onto t + o from t - o */
			int c = back ? t - o : t + o, p = back ? t - 2 * o : t - o;
			if (a->pd_mark[c] == st || blocked(a, box, next, c) || blocked(a, box, next, p))
				continue;
			a->pd_mark[c] = st;
			a->pd_stack[sp++] = (uint16_t)c;
		}
	}
	return st;
}

/* The full test of the position in box/boxes: every box not packed
 * reaches a goal not packed, and every such goal is reached. */
static bool position_dead(struct any *a, const uint8_t *box, const uint16_t *boxes, int n)
{
	const struct sokoban *s = a->s;
	if (!a->plan.park)
		soko_next_goals_box(&a->plan, box, a->pd_next);
	uint32_t st = flood(a, box, a->pd_next, boxes, n, true);
	for (int i = 0; i < n; i++)
		if (a->pd_mark[boxes[i]] != st && !packed_box(a, a->pd_next, boxes[i]))
			return true;
	st = flood(a, box, a->pd_next, boxes, n, false);
	for (int i = 0; i < s->ngoals; i++) {
		int g = s->goals[i];
		if (a->pd_mark[g] != st && !(box[g] && packed_box(a, a->pd_next, g)))
			return true;
	}
	return false;
}

/* The steps of the parking plan the boxes in box have reached (as
 * soko_park_features counts them). */
static int park_reached(const struct soko_park *p, const uint8_t *box)
{
	int missing = 0, reached = 0;
	for (int i = 0; i < p->nsteps; i++) {
		missing += !box[p->target[i]];
		if (p->leaves[i] != SOKO_NONE)
			missing -= !box[p->leaves[i]];
		if (missing == 0)
			reached = i + 1;
	}
	return reached;
}

/* Apply (box on from to to, or back) to the position in sc. */
static void move_box(struct soko_scratch *sc, int n, int from, int to)
{
	int j = 0;
	while (j < n && sc->boxes[j] != from)
		j++;
	sc->box[from] = 0;
	sc->box[to] = 1;
	sc->boxes[j] = (uint16_t)to;
}

/* park-deadlocks: the cut under a parking plan.  The boxes on the goals of
 * the steps reached are walls; a move that changes neither the steps
 * reached nor moves such a box keeps the parent's walls, and its box must
 * end where a goal not packed is reached from; any other move's child gets
 * the full test. */
static size_t park_dead_cut(struct any *a, struct soko_scratch *sc, int n,
			    struct soko_boxmove *m, size_t nmoves)
{
	const struct soko_park *p = a->plan.park;
	int r0 = park_reached(p, sc->box);
	uint32_t st = 0;   /* the parent's flood's stamp, 0: to be flooded */
	size_t k = 0;
	for (size_t i = 0; i < nmoves; i++) {
		int from = m[i].from, to = m[i].to;
		move_box(sc, n, from, to);
		int r1 = park_reached(p, sc->box);
		bool dead;
		if (r1 == r0 && a->pd_step[from] >= r0 && a->pd_step[to] >= r1) {
			move_box(sc, n, to, from);
			if (st == 0) {
				a->pd_reached = r0;
				st = flood(a, sc->box, NULL, sc->boxes, n, true);
			}
			dead = a->pd_mark[to] != st;
		} else {
			a->pd_reached = r1;
			dead = position_dead(a, sc->box, sc->boxes, n);
			move_box(sc, n, to, from);
			st = 0;
		}
		if (dead) {
			sc->count[SOKO_T_PARK_DEAD]++;
			continue;
		}
		m[k++] = m[i];
	}
	return k;
}

size_t soko_plan_dead_cut(struct any *a, struct soko_scratch *sc, int n,
			  struct soko_boxmove *m, size_t nmoves)
{
	const struct sokoban *s = a->s;
	bool park = a->plan.park && s->use[SOKO_T_PARK_DEAD];
	if (nmoves == 0 || (!park && (!s->use[SOKO_T_PLAN_DEAD] || !s->use[SOKO_T_GOAL_ROOMS] ||
				      a->plan.park || a->plan.nareas == 0)))
		return nmoves;
	if (!a->pd_mark) {
		a->pd_mark = lk_xcalloc((size_t)s->cells, sizeof *a->pd_mark);
		a->pd_stack = lk_xmalloc((size_t)s->cells * sizeof *a->pd_stack);
		a->pd_next = lk_xmalloc(((size_t)a->plan.nareas + 1) * sizeof *a->pd_next);
		a->pd_next2 = lk_xmalloc(((size_t)a->plan.nareas + 1) * sizeof *a->pd_next2);
	}
	if (park) {
		if (!a->pd_step) {
			a->pd_step = lk_xmalloc((size_t)s->cells * sizeof *a->pd_step);
			for (int c = 0; c < s->cells; c++)
				a->pd_step[c] = SOKO_NONE;
			for (int i = 0; i < a->plan.park->nsteps; i++)
				if (s->goal[a->plan.park->target[i]])
					a->pd_step[a->plan.park->target[i]] = (uint16_t)i;
		}
		return park_dead_cut(a, sc, n, m, nmoves);
	}
	/* the squares from which a goal not packed is reached, the parent's
	 * packed boxes as walls: a move that packs nothing keeps them */
	soko_next_goals_box(&a->plan, sc->box, a->pd_next2);
	uint32_t st = 0;   /* the parent's flood's stamp, 0: to be flooded */
	size_t k = 0;
	for (size_t i = 0; i < nmoves; i++) {
		int from = m[i].from, to = m[i].to;
		uint16_t area = a->plan.area_of[to];
		bool packs = area != SOKO_NONE && a->pd_next2[area] == to;
		bool dead;
		if (!packs) {
			if (st == 0)
				st = flood(a, sc->box, a->pd_next2, sc->boxes, n, true);
			dead = a->pd_mark[to] != st;
		} else {
			/* the child: the box moved; packing changes the walls */
			int j = 0;
			while (sc->boxes[j] != from)
				j++;
			sc->box[from] = 0;
			sc->box[to] = 1;
			sc->boxes[j] = (uint16_t)to;
			dead = position_dead(a, sc->box, sc->boxes, n);
			sc->boxes[j] = (uint16_t)from;
			sc->box[to] = 0;
			sc->box[from] = 1;
			st = 0;
		}
		if (dead) {
			sc->count[SOKO_T_PLAN_DEAD]++;
			continue;
		}
		m[k++] = m[i];
	}
	return k;
}
