/*
 * sokoban_goalroom.c - goal-room macros of Sokoban's search for any
 * solution (solve -a any): Rolling Stone's goal macros and goal cuts
 * (Junghanns and Schaeffer), on the packing order of sokoban_plan.c and
 * with box moves (sokoban_boxmoves.c) as the macro that takes a box from
 * anywhere to its goal in one move.
 *
 *  - goal rooms: the goals an area has filled in its order (those before
 *    its first empty goal) are a unit once packed; their boxes are not
 *    moved again;
 *  - goal cuts: when some box can be moved onto the next goal of an area,
 *    only the moves that do so are kept.
 *
 * Neither keeps every solution: the order is worked out backwards with the
 * other boxes away, and a level may need a packed box moved again or a
 * goal filled out of order.  So sokoban_any.c uses them only in a first
 * feature-space search, and when that search runs out of moves after
 * either cut something it proves nothing: the search runs again without
 * them (docs/games/sokoban.md, "Goal rooms" and "Goal cuts").
 */
#include "sokoban_any.h"

/* Is a box on cell c on a packed goal: one its area's order fills before
 * the area's next empty goal (next current)? */
static bool on_packed_goal(const struct soko_plan *p, const uint16_t *next, int c)
{
	uint16_t area = p->area_of[c];
	if (area == SOKO_NONE || p->rank[c] == SOKO_NONE)
		return false;
	return next[area] == SOKO_NONE || p->rank[c] < p->rank[next[area]];
}

/* Does move m fill the next goal of an area with a box not packed yet? */
static bool fills_next_goal(const struct soko_plan *p, const uint16_t *next,
			    const struct soko_boxmove *m)
{
	uint16_t area = p->area_of[m->to];
	return area != SOKO_NONE && next[area] == m->to && !on_packed_goal(p, next, m->from);
}

size_t soko_goal_macros(const struct sokoban *s, const struct soko_plan *p, uint16_t *next,
			struct soko_scratch *sc, struct soko_boxmove *m, size_t n)
{
	bool rooms = s->use[SOKO_T_GOAL_ROOMS], cuts = s->use[SOKO_T_GOAL_CUTS];
	/* a parking plan fills goals in no order of the goals alone */
	if (!(rooms || cuts) || p->nareas == 0 || n == 0 || p->park)
		return n;
	soko_next_goals(p, sc, next);
	bool filling = false;
	for (size_t i = 0; cuts && i < n && !filling; i++)
		filling = fills_next_goal(p, next, &m[i]);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (filling && !fills_next_goal(p, next, &m[i])) {
			sc->count[SOKO_T_GOAL_CUTS]++;
			continue;
		}
		if (rooms && on_packed_goal(p, next, m[i].from)) {
			sc->count[SOKO_T_GOAL_ROOMS]++;
			continue;
		}
		m[k++] = m[i];
	}
	return k;
}
