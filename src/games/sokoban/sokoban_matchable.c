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
 * path, not one for every box (soko_unmatchable_move).  With at most 64
 * goals, the goals a box on each square reaches are one word of bits, so
 * that an augmenting path visits only the goals it can take, a free one
 * first; only the yes or no is ever read, and that does not depend on
 * which matching is found.
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
	m->reach_bits = NULL;
	m->seen_bits = 0;
	m->bits_of = NULL;
	m->bits_n = 0;
	if (s->ntargets > 0 && s->ntargets <= 64 && s->tdist) {
		m->reach_bits = lk_xcalloc((size_t)s->cells, sizeof *m->reach_bits);
		for (int c = 0; c < s->cells; c++)
			for (int g = 0; g < s->ntargets; g++)
				if (s->tdist[(size_t)g * (size_t)s->cells + (size_t)c] != SOKO_INF)
					m->reach_bits[c] |= (uint64_t)1 << g;
		m->bits_of = s->tdist;
		m->bits_n = s->ntargets;
	}
}

void soko_matcher_release(struct soko_matcher *m)
{
	free(m->owner);
	free(m->base);
	free(m->seen);
	free(m->reach_bits);
	memset(m, 0, sizeof *m);
}

/* Are the goal bits built for the distances s searches with? */
static bool use_bits(const struct sokoban *s, const struct soko_matcher *m)
{
	return m->reach_bits && m->bits_of == s->tdist && m->bits_n == s->ntargets;
}

static void new_stamp(const struct sokoban *s, struct soko_matcher *m)
{
	m->seen_bits = 0;
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

/* augment with the goals as bits: a free goal the box reaches first
 * (the lowest), else the goals it reaches not seen yet, lowest first.
 * The matching found may differ from augment's, never whether one is:
 * one augmenting search from a box finds a path whenever one exists. */
static bool augment_bits(struct soko_matcher *m, int cell)
{
	const uint64_t reach = m->reach_bits[cell];
	uint64_t free_goals = reach & m->free_bits;
	if (free_goals) {
		int g = lk_lowest_bit64(free_goals);
		m->free_bits &= ~((uint64_t)1 << g);
		m->owner[g] = cell;
		return true;
	}
	uint64_t avail = reach & ~m->seen_bits;
	while (avail) {
		int g = lk_lowest_bit64(avail);
		m->seen_bits |= (uint64_t)1 << g;
		if (augment_bits(m, m->owner[g])) {
			m->owner[g] = cell;
			return true;
		}
		/* the path from the goal's box saw more goals */
		avail = reach & ~m->seen_bits;
	}
	return false;
}

static bool augment_any(const struct sokoban *s, struct soko_matcher *m, int cell)
{
	return use_bits(s, m) ? augment_bits(m, cell) : augment(s, m, cell);
}

/* Does the box on cell reach some goal? */
static bool reaches_goal(const struct sokoban *s, const struct soko_matcher *m, int cell)
{
	if (use_bits(s, m))
		return m->reach_bits[cell] != 0;
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
	m->free_bits = s->ntargets >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << s->ntargets) - 1;
	for (int i = 0; i < n; i++) {
		new_stamp(s, m);
		if (!augment_any(s, m, sc->boxes[i]))
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
		if (!reaches_goal(s, m, sc->boxes[i])) {
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
	if (m->base_ok) {
		memcpy(m->base, m->owner, (size_t)s->ntargets * sizeof *m->base);
		m->base_free = m->free_bits;
	}
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
	if (!reaches_goal(s, m, to)) {
		sc->count[SOKO_T_DEAD_SQUARES]++;
		return true;
	}
	memcpy(m->owner, m->base, (size_t)s->ntargets * sizeof *m->owner);
	m->free_bits = m->base_free;
	for (int g = 0; g < s->ntargets; g++)
		if (m->owner[g] == from) {
			m->owner[g] = -1;
			if (g < 64)
				m->free_bits |= (uint64_t)1 << g;
		}
	new_stamp(s, m);
	if (!augment_any(s, m, to)) {
		sc->count[SOKO_T_BIPARTITE]++;
		return true;
	}
	return false;
}
