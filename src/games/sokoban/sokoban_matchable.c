/*
 * sokoban_matchable.c - the dead-state test of Sokoban's search for any
 * solution (solve -a any): can every box still be given a goal of its own
 * that it can reach (ignoring the other boxes)?  The push searches get the
 * same answer from the minimum-cost matching of their heuristic
 * (sokoban_heuristic.c: dead when no matching exists); the search for any
 * solution needs only the yes or no, and augmenting paths (Kuhn's
 * algorithm) give it at a fraction of the cost of the Hungarian method.
 * Counted and switched as the heuristic does: a box that reaches no goal
 * is a dead square (dead-squares), boxes that cannot all be matched a
 * bipartite deadlock (bipartite).  A child differs from its parent by one
 * box, so it starts from the parent's matching and needs one augmenting
 * path, not one for every box (soko_unmatchable_move).
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any.h"

void soko_matcher_init(struct soko_matcher *m, const struct sokoban *s)
{
	size_t n = (size_t)(s->ntargets > 0 ? s->ntargets : 1);
	m->owner = lk_xmalloc(n * sizeof *m->owner);
	m->base = lk_xmalloc(n * sizeof *m->base);
	m->base_ok = false;
	m->seen = lk_xcalloc(n, sizeof *m->seen);
	m->stamp = 0;
}

void soko_matcher_release(struct soko_matcher *m)
{
	free(m->owner);
	free(m->base);
	free(m->seen);
	memset(m, 0, sizeof *m);
}

static void new_stamp(const struct sokoban *s, struct soko_matcher *m)
{
	if (++m->stamp == 0) {
		memset(m->seen, 0, (size_t)s->ntargets * sizeof *m->seen);
		m->stamp = 1;
	}
}

/* Find the box on cell a goal, moving the boxes already matched along an
 * augmenting path. */
static bool augment(const struct sokoban *s, struct soko_matcher *m, int cell)
{
	const uint16_t *dist = s->tdist + cell;
	for (int g = 0; g < s->ntargets; g++) {
		if (m->seen[g] == m->stamp || dist[(size_t)g * (size_t)s->cells] == SOKO_INF)
			continue;
		m->seen[g] = m->stamp;
		if (m->owner[g] < 0 || augment(s, m, m->owner[g])) {
			m->owner[g] = cell;
			return true;
		}
	}
	return false;
}

/* Does the box on cell reach some goal? */
static bool reaches_goal(const struct sokoban *s, int cell)
{
	const uint16_t *dist = s->tdist + cell;
	for (int g = 0; g < s->ntargets; g++)
		if (dist[(size_t)g * (size_t)s->cells] != SOKO_INF)
			return true;
	return false;
}

/* Match every box of sc from scratch into m->owner: false at the first
 * box that finds no goal. */
static bool match_all(const struct sokoban *s, const struct soko_scratch *sc, int n,
		      struct soko_matcher *m)
{
	for (int g = 0; g < s->ntargets; g++)
		m->owner[g] = -1;
	for (int i = 0; i < n; i++) {
		new_stamp(s, m);
		if (!augment(s, m, sc->boxes[i]))
			return false;
	}
	return true;
}

bool soko_unmatchable(const struct sokoban *s, struct soko_scratch *sc, int n,
		      struct soko_matcher *m)
{
	if (s->heuristic != SOKO_H_MATCHING)
		return false;   /* the heuristic calls nothing dead: nor does this */
	/* a box that reaches no goal at all first: the cheaper test */
	for (int i = 0; i < n; i++) {
		if (!reaches_goal(s, sc->boxes[i])) {
			if (!s->use[SOKO_T_DEAD_SQUARES])
				return false;
			sc->count[SOKO_T_DEAD_SQUARES]++;
			return true;
		}
	}
	if (!match_all(s, sc, n, m)) {
		if (!s->use[SOKO_T_BIPARTITE])
			return false;
		sc->count[SOKO_T_BIPARTITE]++;
		return true;
	}
	return false;
}

void soko_matcher_base(const struct sokoban *s, const struct soko_scratch *sc, int n,
		       struct soko_matcher *m)
{
	m->base_ok = s->heuristic == SOKO_H_MATCHING && match_all(s, sc, n, m);
	if (m->base_ok)
		memcpy(m->base, m->owner, (size_t)s->ntargets * sizeof *m->base);
}

bool soko_unmatchable_move(const struct sokoban *s, struct soko_scratch *sc, int n,
			   struct soko_matcher *m, int from, int to)
{
	/* with a test off, a parent may be unmatched and still searched */
	if (!m->base_ok || !s->use[SOKO_T_DEAD_SQUARES] || !s->use[SOKO_T_BIPARTITE])
		return soko_unmatchable(s, sc, n, m);
	if (from == to)
		return false;   /* the parent's boxes, all matched */
	/* every other box reaches a goal, as it did in the parent */
	if (!reaches_goal(s, to)) {
		sc->count[SOKO_T_DEAD_SQUARES]++;
		return true;
	}
	memcpy(m->owner, m->base, (size_t)s->ntargets * sizeof *m->owner);
	for (int g = 0; g < s->ntargets; g++)
		if (m->owner[g] == from)
			m->owner[g] = -1;
	new_stamp(s, m);
	if (!augment(s, m, to)) {
		sc->count[SOKO_T_BIPARTITE]++;
		return true;
	}
	return false;
}
