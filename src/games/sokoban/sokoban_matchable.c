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
 * path, not one for every box (soko_unmatchable_move).  The goals a box
 * on each square reaches are words of bits, so that an augmenting path
 * visits only the goals it can take, a free one first; only the yes or no
 * is ever read, and that does not depend on which matching is found.
 *
 * A parent too starts from the last parent's matching (soko_matcher_base):
 * on the big levels (Sasquatch II 17: 84 boxes) matching every box of each
 * expanded state from scratch was 60 % of the feature-space search's time,
 * and two states expanded one after the other differ in a few boxes.  The
 * boxes gone give up their goals and the boxes new are augmented one at a
 * time.  Why the answer is the one from scratch: if a matching M of some
 * boxes has no augmenting path from a box b, no matching covers M's boxes
 * and b (take one, M'; the alternating path of M and M' from b never ends
 * on a box, every box M covers M' covers too, so it ends on a goal M leaves
 * free: an augmenting path).  So the first box that fails proves that no
 * matching takes every box, and when none fails one does.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any.h"

void soko_matcher_init(struct soko_matcher *m, const struct sokoban *s)
{
	size_t n = (size_t)(s->ntargets > 0 ? s->ntargets : 1);
	size_t nb = (size_t)(s->nboxes > s->ntargets ? s->nboxes : s->ntargets) + 1;
	m->owner = lk_xmalloc(n * sizeof *m->owner);
	m->base = lk_xmalloc(n * sizeof *m->base);
	m->base_ok = false;
	m->base_boxes = lk_xmalloc(nb * sizeof *m->base_boxes);
	m->base_n = -1;
	m->seen = lk_xcalloc(n, sizeof *m->seen);
	m->stamp = 0;
	m->reach_bits = NULL;
	m->words = (int)((n + 63) / 64);
	m->seen_bits = lk_xcalloc((size_t)m->words * 3, sizeof *m->seen_bits);
	m->free_bits = m->seen_bits + m->words;
	m->base_free = m->free_bits + m->words;
	m->bits_of = NULL;
	m->bits_n = 0;
	if (s->ntargets > 0 && s->tdist) {
		size_t w = (size_t)m->words;
		m->reach_bits = lk_xcalloc((size_t)s->cells * w, sizeof *m->reach_bits);
		for (int c = 0; c < s->cells; c++)
			for (int g = 0; g < s->ntargets; g++)
				if (s->tdist[(size_t)g * (size_t)s->cells + (size_t)c] != SOKO_INF)
					m->reach_bits[(size_t)c * w + (size_t)(g / 64)] |=
						(uint64_t)1 << (g % 64);
		m->bits_of = s->tdist;
		m->bits_n = s->ntargets;
	}
}

void soko_matcher_release(struct soko_matcher *m)
{
	free(m->owner);
	free(m->base);
	free(m->base_boxes);
	free(m->seen);
	free(m->seen_bits);
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
	memset(m->seen_bits, 0, (size_t)m->words * sizeof *m->seen_bits);
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
	const int words = m->words;
	const uint64_t *reach = m->reach_bits + (size_t)cell * (size_t)words;
	for (int w = 0; w < words; w++) {
		uint64_t free_goals = reach[w] & m->free_bits[w];
		if (free_goals) {
			int b = lk_lowest_bit64(free_goals);
			m->free_bits[w] &= ~((uint64_t)1 << b);
			m->owner[w * 64 + b] = cell;
			return true;
		}
	}
	for (int w = 0; w < words; w++) {
		uint64_t avail = reach[w] & ~m->seen_bits[w];
		while (avail) {
			int b = lk_lowest_bit64(avail);
			m->seen_bits[w] |= (uint64_t)1 << b;
			if (augment_bits(m, m->owner[w * 64 + b])) {
				m->owner[w * 64 + b] = cell;
				return true;
			}
			/* the path from the goal's box saw more goals */
			avail = reach[w] & ~m->seen_bits[w];
		}
	}
	return false;
}

static bool augment_any(const struct sokoban *s, struct soko_matcher *m, int cell)
{
	return use_bits(s, m) ? augment_bits(m, cell) : augment(s, m, cell);
}

/* Goal g free (bits). */
static void set_free(struct soko_matcher *m, int g)
{
	m->free_bits[g / 64] |= (uint64_t)1 << (g % 64);
}

/* Does the box on cell reach some goal? */
static bool reaches_goal(const struct sokoban *s, const struct soko_matcher *m, int cell)
{
	if (use_bits(s, m)) {
		const uint64_t *reach = m->reach_bits + (size_t)cell * (size_t)m->words;
		for (int w = 0; w < m->words; w++)
			if (reach[w])
				return true;
		return false;
	}
	const uint16_t *dist = s->tdist + cell;
	for (int g = 0; g < s->ntargets; g++)
		if (dist[(size_t)g * (size_t)s->cells] != SOKO_INF)
			return true;
	return false;
}

/* No goal matched: owner all -1, every goal free. */
static void clear_matching(const struct sokoban *s, struct soko_matcher *m)
{
	for (int g = 0; g < s->ntargets; g++)
		m->owner[g] = -1;
	for (int w = 0; w < m->words; w++) {
		int left = s->ntargets - w * 64;
		m->free_bits[w] = left >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << left) - 1;
	}
}

/* Match every box of sc from scratch into m->owner: false at the first
 * box that finds no goal. */
static bool match_all(const struct sokoban *s, const struct soko_scratch *sc, int n,
		      struct soko_matcher *m)
{
	clear_matching(s, m);
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

/* Start owner from the last parent's matching (base, of the boxes
 * base_boxes) for the boxes of sc, both lists in cell order: the boxes
 * gone give up their goals, the boxes new are augmented.  False when one
 * finds no goal: then no matching takes every box (see the top). */
static bool match_from_base(const struct sokoban *s, const struct soko_scratch *sc, int n,
			    struct soko_matcher *m)
{
	memcpy(m->owner, m->base, (size_t)s->ntargets * sizeof *m->owner);
	memcpy(m->free_bits, m->base_free, (size_t)m->words * sizeof *m->free_bits);
	int *fresh = m->base;   /* rewritten from owner at the end */
	int nfresh = 0, i = 0, k = 0;
	while (i < n || k < m->base_n) {
		int now = i < n ? sc->boxes[i] : INT32_MAX;
		int was = k < m->base_n ? m->base_boxes[k] : INT32_MAX;
		if (now == was) {
			i++;
			k++;
		} else if (was < now) {   /* gone: its goal is free */
			for (int g = 0; g < s->ntargets; g++)
				if (m->owner[g] == was) {
					m->owner[g] = -1;
					set_free(m, g);
					break;
				}
			k++;
		} else {
			fresh[nfresh++] = now;
			i++;
		}
	}
	for (int f = 0; f < nfresh; f++) {
		new_stamp(s, m);
		if (!augment_bits(m, fresh[f]))
			return false;
	}
	return true;
}

void soko_matcher_base(const struct sokoban *s, const struct soko_scratch *sc, int n,
		       struct soko_matcher *m)
{
	if (s->heuristic != SOKO_H_MATCHING)
		m->base_ok = false;
	else if (m->base_n >= 0 && use_bits(s, m) && n <= s->ntargets)
		m->base_ok = match_from_base(s, sc, n, m);
	else
		m->base_ok = match_all(s, sc, n, m);
	m->base_n = -1;
	if (m->base_ok) {
		memcpy(m->base, m->owner, (size_t)s->ntargets * sizeof *m->base);
		memcpy(m->base_free, m->free_bits, (size_t)m->words * sizeof *m->base_free);
		for (int i = 0; i < n; i++)
			m->base_boxes[i] = sc->boxes[i];
		m->base_n = n;
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
	memcpy(m->free_bits, m->base_free, (size_t)m->words * sizeof *m->free_bits);
	for (int g = 0; g < s->ntargets; g++)
		if (m->owner[g] == from) {
			m->owner[g] = -1;
			set_free(m, g);
		}
	new_stamp(s, m);
	if (!augment_any(s, m, to)) {
		sc->count[SOKO_T_BIPARTITE]++;
		return true;
	}
	return false;
}
