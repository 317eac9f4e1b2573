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
 *
 * Cost (session 39: the same decisions, cheaper; 11 % of Sasquatch II 19's
 * time before).  The back flood depends only on the packed boxes, and a
 * search meets few sets of them (under a parking plan about one per step
 * reached) while it floods for every expansion: it is cached by them.  The
 * moves of one box whose children reach the same steps (under a parking
 * plan, every move of a packed box) have children with the same packed
 * boxes and the same other boxes: they share the back flood and the
 * forward flood from the other boxes, the moved box flooded alone only
 * where those miss a goal.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any_search.h"

/* The planes of a->pd_mark: a back flood being cached, the full test's
 * forward flood, and a group's forward floods from the boxes not moved
 * and from the moved box.  Each holds one flood at a time, so each has
 * its own stamp. */
enum { PLANE_BACK, PLANE_FORWARD, PLANE_MOVED, PD_PLANES };
_Static_assert(PD_PLANES == SOKO_PD_PLANES, "sokoban_any_search.h's SOKO_PD_PLANES");
/* Back floods cached (a power of two). */
#define CACHE_SLOTS 64u

static uint32_t *plane(const struct any *a, int k)
{
	return a->pd_mark + (size_t)k * (size_t)a->s->cells;
}

/* A stamp no mark of plane k holds (the plane cleared when it wraps). */
static uint32_t fresh(struct any *a, int k)
{
	if (++a->pd_stamp[k] == 0) {
		uint32_t *mark = plane(a, k);
		for (int i = 0; i < a->s->cells; i++)
			mark[i] = 0;
		a->pd_stamp[k] = 1;
	}
	return a->pd_stamp[k];
}

/* The test hook (soko_plandead_set_check): single-threaded tests only. */
static bool check_on;
static uint64_t check_count, check_differed;

void soko_plandead_set_check(bool on) { check_on = on; }

void soko_plandead_checks(uint64_t *checked, uint64_t *differed)
{
	*checked = check_count;
	*differed = check_differed;
	check_count = check_differed = 0;
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

/* Flood of the pushes with packed boxes as walls and other boxes away,
 * into plane k: backwards from the goals not packed (back: the squares a
 * box can be pushed to one of them from) or forwards from the boxes not
 * packed (but boxes[skip], skip < 0: none); marks with a fresh stamp,
 * returned.  The flood depends on the packed boxes only (and forwards on
 * where it starts), and the forward flood from a set of squares is the
 * union of the floods from each. */
static uint32_t flood(struct any *a, int k, const uint8_t *box, const uint16_t *next,
		      const uint16_t *boxes, int n, int skip, bool back)
{
	const struct sokoban *s = a->s;
	uint32_t st = fresh(a, k), *mark = plane(a, k);
	int sp = 0;
	if (back) {
		for (int i = 0; i < s->ngoals; i++) {
			int g = s->goals[i];
			if (!(box[g] && packed_box(a, next, g))) {
				mark[g] = st;
				a->pd_stack[sp++] = (uint16_t)g;
			}
		}
	} else {
		for (int i = 0; i < n; i++) {
			int c = boxes[i];
			if (i != skip && !packed_box(a, next, c) && mark[c] != st) {
				mark[c] = st;
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
			if (mark[c] == st || blocked(a, box, next, c) || blocked(a, box, next, p))
				continue;
			mark[c] = st;
			a->pd_stack[sp++] = (uint16_t)c;
		}
	}
	return st;
}

/* The back flood (flood, back) of the position in box/boxes as a bitset
 * of compact indices, looked up by its packed boxes, the only thing it
 * depends on: a level's search meets few sets of packed boxes (under a
 * parking plan about one per step reached) and floods for each expansion.
 * Valid until the next call. */
static const uint8_t *back_bits(struct any *a, const uint8_t *box, const uint16_t *next,
				const uint16_t *boxes, int n)
{
	const struct sokoban *s = a->s;
	size_t wb = s->bitset_bytes;
	if (!a->pd_cache) {
		a->pd_cache = lk_xmalloc(CACHE_SLOTS * 2 * wb);
		a->pd_used = lk_xcalloc(CACHE_SLOTS, 1);
		a->pd_key = lk_xmalloc(wb);
		a->pd_parent = lk_xmalloc(wb);
		a->pd_group = lk_xmalloc(wb);
	}
	uint8_t *key = a->pd_key;
	memset(key, 0, wb);
	for (int i = 0; i < n; i++)
		if (packed_box(a, next, boxes[i]))
			soko_bit_flip(key, s->compact[boxes[i]]);
	size_t slot = (size_t)(lk_hash_bytes(key, wb) & (CACHE_SLOTS - 1));
	uint8_t *entry = a->pd_cache + slot * 2 * wb, *bits = entry + wb;
	if (a->pd_used[slot] && memcmp(entry, key, wb) == 0)
		return bits;
	uint32_t st = flood(a, PLANE_BACK, box, next, boxes, n, -1, true);
	const uint32_t *mark = plane(a, PLANE_BACK);
	memcpy(entry, key, wb);
	memset(bits, 0, wb);
	for (int i = 0; i < s->nfloor; i++)
		if (mark[s->cell_of[i]] == st)
			soko_bit_flip(bits, i);
	a->pd_used[slot] = 1;
	return bits;
}

/* Is cell c in back flood bits? */
static bool in_back(const struct any *a, const uint8_t *bits, int c)
{
	return soko_bit(bits, a->s->compact[c]);
}

/* The full test of the position in box/boxes: every box not packed
 * reaches a goal not packed, and every such goal is reached. */
static bool position_dead(struct any *a, const uint8_t *box, const uint16_t *boxes, int n)
{
	const struct sokoban *s = a->s;
	if (!a->plan.park)
		soko_next_goals_box(&a->plan, box, a->pd_next);
	const uint8_t *bits = back_bits(a, box, a->pd_next, boxes, n);
	for (int i = 0; i < n; i++)
		if (!in_back(a, bits, boxes[i]) && !packed_box(a, a->pd_next, boxes[i]))
			return true;
	const uint32_t *mark = plane(a, PLANE_FORWARD);
	uint32_t st = flood(a, PLANE_FORWARD, box, a->pd_next, boxes, n, -1, false);
	for (int i = 0; i < s->ngoals; i++) {
		int g = s->goals[i];
		if (mark[g] != st && !(box[g] && packed_box(a, a->pd_next, g)))
			return true;
	}
	return false;
}

/* position_dead with floods of its own, none cached or shared (the test
 * hook's reference, the full test before session 39). */
static bool position_dead_plain(struct any *a, const uint8_t *box, const uint16_t *boxes, int n)
{
	const struct sokoban *s = a->s;
	if (!a->plan.park)
		soko_next_goals_box(&a->plan, box, a->pd_next);
	const uint32_t *mark = plane(a, PLANE_BACK);
	uint32_t st = flood(a, PLANE_BACK, box, a->pd_next, boxes, n, -1, true);
	for (int i = 0; i < n; i++)
		if (mark[boxes[i]] != st && !packed_box(a, a->pd_next, boxes[i]))
			return true;
	mark = plane(a, PLANE_FORWARD);
	st = flood(a, PLANE_FORWARD, box, a->pd_next, boxes, n, -1, false);
	for (int i = 0; i < s->ngoals; i++) {
		int g = s->goals[i];
		if (mark[g] != st && !(box[g] && packed_box(a, a->pd_next, g)))
			return true;
	}
	return false;
}

/* The test hook: the decision `dead` of the move in sc (its child's boxes
 * when child, else its parent's with the move from -> to applied here)
 * against the reference. */
static void check(struct any *a, struct soko_scratch *sc, int n, bool child, int to,
		  const uint16_t *next, bool dead)
{
	bool want;
	if (child) {
		want = position_dead_plain(a, sc->box, sc->boxes, n);
	} else {
		/* the parent's back flood, fresh: the moved box's square in it */
		uint32_t st = flood(a, PLANE_BACK, sc->box, next, sc->boxes, n, -1, true);
		want = plane(a, PLANE_BACK)[to] != st;
	}
	check_count++;
	check_differed += want != dead;
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

/* Apply (box on from to to, or back) to the position in sc; returns the
 * moved box's index in sc->boxes. */
static int move_box(struct soko_scratch *sc, int n, int from, int to)
{
	int j = 0;
	while (j < n && sc->boxes[j] != from)
		j++;
	sc->box[from] = 0;
	sc->box[to] = 1;
	sc->boxes[j] = (uint16_t)to;
	return j;
}

/* park-deadlocks' full test of a child that changed the steps reached
 * or moved a packed box, shared by the moves of one box that reach the
 * same steps and end off a packed goal: their children have the same
 * packed boxes (so the same back flood) and the same boxes but the one
 * moved (so the same forward flood from those).  from: the group's box,
 * -1 before the first; the rest as position_dead finds it. */
struct group {
	int from, reached;
	bool others_dead;        /* a box not moved is dead already */
	uint32_t forward;        /* the forward flood's stamp (the back one: a->pd_group) */
	int nmissing;            /* goals not packed the others' flood missed */
};

/* position_dead of the child in sc (box j moved to `to`, a->pd_reached
 * set, box `to` not packed) through group g, built first if need be. */
static bool group_dead(struct any *a, struct group *g, const struct soko_scratch *sc, int n,
		       int from, int j, int to)
{
	const struct sokoban *s = a->s;
	const uint8_t *box = sc->box;
	if (g->from != from || g->reached != a->pd_reached) {
		g->from = from;
		g->reached = a->pd_reached;
		const uint32_t *fw = plane(a, PLANE_FORWARD);
		memcpy(a->pd_group, back_bits(a, box, NULL, sc->boxes, n), s->bitset_bytes);
		g->others_dead = false;
		for (int i = 0; i < n; i++)
			if (i != j && !in_back(a, a->pd_group, sc->boxes[i]) &&
			    !packed_box(a, NULL, sc->boxes[i]))
				g->others_dead = true;
		g->forward = flood(a, PLANE_FORWARD, box, NULL, sc->boxes, n, j, false);
		g->nmissing = 0;
		for (int i = 0; i < s->ngoals; i++) {
			int c = s->goals[i];
			if (fw[c] != g->forward && !(box[c] && packed_box(a, NULL, c)))
				a->pd_missing[g->nmissing++] = (uint16_t)c;
		}
	}
	if (g->others_dead || !in_back(a, a->pd_group, to))
		return true;
	if (g->nmissing == 0)
		return false;
	/* the goals the others miss must be reached from the moved box; the
	 * moved box is a goal missed only if it stands on it, and the flood
	 * from it marks its own square */
	uint16_t one = (uint16_t)to;
	uint32_t st = flood(a, PLANE_MOVED, box, NULL, &one, 1, -1, false);
	const uint32_t *mark = plane(a, PLANE_MOVED);
	for (int i = 0; i < g->nmissing; i++)
		if (mark[a->pd_missing[i]] != st)
			return true;
	return false;
}

/* park-deadlocks: the cut under a parking plan.  The boxes on the goals of
 * the steps reached are walls; a move that changes neither the steps
 * reached nor moves such a box keeps the parent's walls, and its box must
 * end where a goal not packed is reached from; any other move's child gets
 * the full test (position_dead, through group_dead where it can share the
 * floods with the moves of the same box before it). */
static size_t park_dead_cut(struct any *a, struct soko_scratch *sc, int n,
			    struct soko_boxmove *m, size_t nmoves)
{
	const struct soko_park *p = a->plan.park;
	int r0 = park_reached(p, sc->box);
	bool flooded = false;   /* the parent's back flood, in a->pd_parent */
	struct group g = { .from = -1 };
	size_t k = 0;
	for (size_t i = 0; i < nmoves; i++) {
		int from = m[i].from, to = m[i].to;
		int j = move_box(sc, n, from, to);
		/* the steps reached read the boxes on targets and squares left */
		int r1 = a->pd_plan[from] || a->pd_plan[to] ? park_reached(p, sc->box) : r0;
		bool dead;
		if (r1 == r0 && a->pd_step[from] >= r0 && a->pd_step[to] >= r1) {
			move_box(sc, n, to, from);
			if (!flooded) {
				a->pd_reached = r0;
				memcpy(a->pd_parent, back_bits(a, sc->box, NULL, sc->boxes, n),
				       a->s->bitset_bytes);
				flooded = true;
			}
			dead = !in_back(a, a->pd_parent, to);
			if (check_on) {
				a->pd_reached = r0;
				check(a, sc, n, false, to, NULL, dead);
			}
		} else {
			a->pd_reached = r1;
			if (a->pd_step[to] >= r1)
				dead = group_dead(a, &g, sc, n, from, j, to);
			else
				dead = position_dead(a, sc->box, sc->boxes, n);
			if (check_on)
				check(a, sc, n, true, to, NULL, dead);
			move_box(sc, n, to, from);
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
		a->pd_mark = lk_xcalloc((size_t)PD_PLANES * (size_t)s->cells, sizeof *a->pd_mark);
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
			const struct soko_park *p = a->plan.park;
			a->pd_plan = lk_xcalloc((size_t)s->cells, 1);
			for (int i = 0; i < p->nsteps; i++) {
				a->pd_plan[p->target[i]] = 1;
				if (p->leaves[i] != SOKO_NONE)
					a->pd_plan[p->leaves[i]] = 1;
			}
			a->pd_missing = lk_xmalloc(((size_t)s->ngoals + 1) * sizeof *a->pd_missing);
		}
		return park_dead_cut(a, sc, n, m, nmoves);
	}
	/* the squares from which a goal not packed is reached, the parent's
	 * packed boxes as walls: a move that packs nothing keeps them (in
	 * their own plane, kept past a full test of a move that packs) */
	soko_next_goals_box(&a->plan, sc->box, a->pd_next2);
	bool flooded = false;   /* the parent's back flood, in a->pd_parent */
	size_t k = 0;
	for (size_t i = 0; i < nmoves; i++) {
		int from = m[i].from, to = m[i].to;
		uint16_t area = a->plan.area_of[to];
		bool packs = area != SOKO_NONE && a->pd_next2[area] == to;
		bool dead;
		if (!packs) {
			if (!flooded) {
				memcpy(a->pd_parent, back_bits(a, sc->box, a->pd_next2, sc->boxes, n),
				       s->bitset_bytes);
				flooded = true;
			}
			dead = !in_back(a, a->pd_parent, to);
			if (check_on)
				check(a, sc, n, false, to, a->pd_next2, dead);
		} else {
			/* the child: the box moved; packing changes the walls */
			int j = 0;
			while (sc->boxes[j] != from)
				j++;
			sc->box[from] = 0;
			sc->box[to] = 1;
			sc->boxes[j] = (uint16_t)to;
			dead = position_dead(a, sc->box, sc->boxes, n);
			if (check_on)
				check(a, sc, n, true, to, NULL, dead);
			sc->boxes[j] = (uint16_t)from;
			sc->box[to] = 0;
			sc->box[from] = 1;
		}
		if (dead) {
			sc->count[SOKO_T_PLAN_DEAD]++;
			continue;
		}
		m[k++] = m[i];
	}
	return k;
}
