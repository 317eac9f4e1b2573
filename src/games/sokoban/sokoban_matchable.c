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
 * bipartite deadlock (bipartite).
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any.h"

void soko_matcher_init(struct soko_matcher *m, const struct sokoban *s)
{
	size_t n = (size_t)(s->ntargets > 0 ? s->ntargets : 1);
	m->owner = lk_xmalloc(n * sizeof *m->owner);
	m->seen = lk_xcalloc(n, sizeof *m->seen);
	m->stamp = 0;
}

void soko_matcher_release(struct soko_matcher *m)
{
	free(m->owner);
	free(m->seen);
	memset(m, 0, sizeof *m);
}

/* Find box i a goal, moving the boxes already matched along an
 * augmenting path. */
static bool augment(const struct sokoban *s, const struct soko_scratch *sc, struct soko_matcher *m,
		    int i)
{
	const uint16_t *dist = s->tdist + sc->boxes[i];
	for (int g = 0; g < s->ntargets; g++) {
		if (m->seen[g] == m->stamp || dist[(size_t)g * (size_t)s->cells] == SOKO_INF)
			continue;
		m->seen[g] = m->stamp;
		if (m->owner[g] < 0 || augment(s, sc, m, m->owner[g])) {
			m->owner[g] = i;
			return true;
		}
	}
	return false;
}

bool soko_unmatchable(const struct sokoban *s, struct soko_scratch *sc, int n,
		      struct soko_matcher *m)
{
	if (s->heuristic != SOKO_H_MATCHING)
		return false;   /* the heuristic calls nothing dead: nor does this */
	for (int g = 0; g < s->ntargets; g++)
		m->owner[g] = -1;
	/* a box that reaches no goal at all first: the cheaper test */
	for (int i = 0; i < n; i++) {
		const uint16_t *dist = s->tdist + sc->boxes[i];
		bool any = false;
		for (int g = 0; g < s->ntargets && !any; g++)
			any = dist[(size_t)g * (size_t)s->cells] != SOKO_INF;
		if (!any) {
			if (!s->use[SOKO_T_DEAD_SQUARES])
				return false;
			sc->count[SOKO_T_DEAD_SQUARES]++;
			return true;
		}
	}
	for (int i = 0; i < n; i++) {
		if (++m->stamp == 0) {
			memset(m->seen, 0, (size_t)s->ntargets * sizeof *m->seen);
			m->stamp = 1;
		}
		if (!augment(s, sc, m, i)) {
			if (!s->use[SOKO_T_BIPARTITE])
				return false;
			sc->count[SOKO_T_BIPARTITE]++;
			return true;
		}
	}
	return false;
}
