/*
 * sokoban_corral.c - PI-corral pruning (Damgaard's YASS; Sokoban wiki).
 *
 * A corral is an area the player cannot reach, fenced by walls and boxes;
 * its border boxes are the boxes next to it.  Call a corral PI when
 *   I: no border box can leave the corral's side: every push of a border
 *      box that does not go into the corral is blocked by something that
 *      stays put until a border box moves (a wall, another border box, the
 *      corral itself on the player's side) or ends on a dead square, and
 *   P: every push of a border box into the corral can be made now (the
 *      player reaches the pushing square), unless it too is blocked for
 *      good in that sense,
 * and when the corral still needs a push: a border box stands off a goal,
 * or (as many boxes as goals) a goal inside it is empty.
 *
 * Then only the pushes of that corral's border boxes need be searched, and
 * no solution is lost, not even an optimal one: take an optimal solution
 * and its first push of a border box.  Pushes before it move other boxes,
 * which can neither enter the corral nor free a border box (a free square
 * next to the corral would be part of it), so by I that push goes into the
 * corral and by P it is possible now; moving it to the front only enlarges
 * the player's area, so the other pushes still work and the push count is
 * unchanged.  If a needed PI-corral allows no push at all, the state is a
 * deadlock.
 */
#include <string.h>

#include "sokoban.h"

enum { CORRAL_OK = 0, CORRAL_REJECTED = 1 };

static int find_root(int *parent, int x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

/* Corral root of a free unreachable cell, or -1 (a wall reads -1: the
 * scratch sets every label so when it is made). */
static int corral_of(const struct sokoban *s, struct soko_scratch *sc, int cell)
{
	(void)s;
	int label = sc->label[cell];
	return label < 0 ? -1 : find_root(sc->uf, label);
}

/* corral_of once the union-find is flat (every area's parent its root) */
static inline int flat_corral_of(const struct soko_scratch *sc, int cell)
{
	int label = sc->label[cell];
	return label < 0 ? -1 : sc->uf[label];
}

/* Is box cell x a border box of corral c?  (The union-find flat.) */
static inline bool flat_border_of(const struct sokoban *s, const struct soko_scratch *sc, int x,
				  int c)
{
	if (!sc->box[x])
		return false;
	for (int d = 0; d < 4; d++)
		if (flat_corral_of(sc, x + s->off[d]) == c)
			return true;
	return false;
}

/* Label the free squares the player does not reach (stamp reach of
 * sc->mark) by connected area, in the order of their least square;
 * returns how many areas. */
static int label_areas(const struct sokoban *s, struct soko_scratch *sc, uint32_t reach)
{
	int ncomp = 0;
	/* every square unlabelled at once: a wall's label is -1 already
	 * (soko_scratch), and -1 is every byte 0xff */
	memset(sc->label, 0xff, (size_t)s->cells * sizeof *sc->label);
	for (int i = 0; i < s->nfloor; i++) {
		int c = s->cell_of[i];
		if (sc->box[c] || sc->mark[c] == reach || sc->label[c] >= 0)
			continue;
		int k = ncomp++, sp = 0;
		sc->uf[k] = k;
		sc->corral_flags[k] = 0;
		sc->corral_pushes[k] = 0;
		sc->corral_goal[k] = 0;
		sc->label[c] = k;
		sc->stack[sp++] = (uint16_t)c;
		while (sp > 0) {
			int x = sc->stack[--sp];
			if (s->goal[x])
				sc->corral_goal[k] = 1;
			for (int d = 0; d < 4; d++) {
				int y = x + s->off[d];
				if ((s->wall[y] | sc->box[y]) || sc->label[y] >= 0)
					continue;
				sc->label[y] = k;
				sc->stack[sp++] = (uint16_t)y;
			}
		}
	}
	return ncomp;
}

int soko_pi_corral(const struct sokoban *s, struct soko_scratch *sc, int nboxes)
{
	uint32_t reach = sc->stamp;
	/* the areas as the reach that made this stamp labelled them
	 * (soko_movegen_reach), or labelled here */
	int ncomp = sc->areas_stamp == reach && reach != 0 ? sc->areas : label_areas(s, sc, reach);
	if (ncomp == 0)
		return -1;

	/* Areas that share a box are one corral: that box can only be
	 * pushed from inside either of them. */
	for (int i = 0; i < nboxes; i++) {
		int b = sc->boxes[i], first = -1;
		for (int d = 0; d < 4; d++) {
			int r = corral_of(s, sc, b + s->off[d]);
			if (r < 0)
				continue;
			if (first < 0) {
				first = r;
			} else if (r != first) {
				sc->uf[r] = first;
				sc->corral_goal[first] |= sc->corral_goal[r];
			}
		}
	}
	/* no union after this: each area's parent becomes its root, so that
	 * the rest reads an area's corral in one step */
	for (int k = 0; k < ncomp; k++) {
		int r = find_root(sc->uf, k);
		sc->uf[k] = r;
		if (r != k)
			sc->corral_goal[r] |= sc->corral_goal[k];
	}

	/* Examine every push of every border box against its corral(s). */
	bool need_goal_fill = s->nboxes == s->ngoals;
	for (int i = 0; i < nboxes; i++) {
		int b = sc->boxes[i];
		int roots[4], nroots = 0;
		for (int d = 0; d < 4; d++) {
			int r = flat_corral_of(sc, b + s->off[d]);
			bool seen = false;
			for (int j = 0; j < nroots; j++)
				seen |= roots[j] == r;
			if (r >= 0 && !seen)
				roots[nroots++] = r;
		}
		for (int j = 0; j < nroots; j++) {
			int c = roots[j];
			if (sc->corral_flags[c] & CORRAL_REJECTED)
				continue;
			if (!s->goal[b])
				sc->corral_goal[c] |= 2;   /* bit 1: an off-goal border box */
			for (int d = 0; d < 4; d++) {
				int to = b + s->off[d], from = b - s->off[d];
				bool from_stuck = s->wall[from] || flat_corral_of(sc, from) == c ||
						  flat_border_of(s, sc, from, c);
				if (flat_corral_of(sc, to) == c) {
					if (from_stuck || s->dead[to])
						continue;
					if (sc->mark[from] == reach) {
						sc->corral_pushes[c]++;
						continue;
					}
					sc->corral_flags[c] |= CORRAL_REJECTED;
					break;
				}
				if (from_stuck || s->wall[to] || s->dead[to] || flat_border_of(s, sc, to, c))
					continue;
				sc->corral_flags[c] |= CORRAL_REJECTED;
				break;
			}
		}
	}

	/* Pick the needed PI-corral with the fewest pushes. */
	int best = -1;
	for (int k = 0; k < ncomp; k++) {
		if (sc->uf[k] != k || (sc->corral_flags[k] & CORRAL_REJECTED))
			continue;
		bool needed = (sc->corral_goal[k] & 2) || (need_goal_fill && (sc->corral_goal[k] & 1));
		if (!needed)
			continue;
		if (best < 0 || sc->corral_pushes[k] < sc->corral_pushes[best])
			best = k;
	}
	return best;
}

bool soko_corral_allows(const struct sokoban *s, struct soko_scratch *sc, int corral, int box)
{
	return flat_border_of(s, sc, box, corral);
}
