/*
 * sokoban_tunnel.c - tunnel macros: a box pushed into a dead-end corridor
 * goes on at once to the deepest empty goal in it.
 *
 * A dead-end corridor, entered at square q going in direction d, is a run
 * of squares q, q+d, q+2d, ... each with walls on both sides across d,
 * ending in a wall.  Once a box is pushed onto q from behind, nothing can
 * get ahead of it: the squares beyond are reached only through q.  So the
 * box never leaves the corridor (a push back needs the player ahead of it),
 * and since every goal must be filled and no later box can pass it, it must
 * end on the deepest empty goal before the first box or wall ahead; with no
 * such goal the push is dead.  Taking its remaining pushes at once, before
 * anything else, only frees corridor squares earlier, which nothing else
 * can use: any solution can be reordered so, with the same number of
 * pushes.  So the macro keeps push-optimal solutions (not move-optimal
 * ones: the player's walks change), and is used only under the pushes
 * metric, forwards, in levels with as many boxes as goals.
 */
#include <stdlib.h>

#include "sokoban.h"

/* Walls on both sides of cell across direction d? */
static bool walled(const struct sokoban *s, int cell, int d)
{
	return s->wall[cell + s->off[(d + 1) & 3]] && s->wall[cell + s->off[(d + 3) & 3]];
}

void soko_find_deadends(struct sokoban *s)
{
	s->deadend = NULL;
	if (!s->use[SOKO_T_TUNNELS] || !s->push_graph || s->forward || s->nboxes != s->ngoals)
		return;
	s->deadend = lk_xcalloc((size_t)s->cells * 4, 1);
	for (int i = 0; i < s->nfloor; i++) {
		int q = s->cell_of[i];
		for (int d = 0; d < 4; d++) {
			int x = q;
			while (!s->wall[x] && walled(s, x, d))
				x += s->off[d];
			s->deadend[q * 4 + d] = s->wall[x] && x != q;
		}
	}
}

int soko_tunnel_end(const struct sokoban *s, const struct soko_scratch *sc, int to, int d)
{
	int deepest = -1;
	for (int x = to; !s->wall[x] && !sc->box[x]; x += s->off[d])
		if (s->goal[x])
			deepest = x;
	return deepest;
}
