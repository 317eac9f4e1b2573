/*
 * sokoban_reverse.c - the reversed Sokoban level: search from the solved
 * position back to the start by pulling boxes.
 *
 * Pulls are pushes run backwards, so a path of the reversed level read
 * from its end is a path of the forward level, with the same keys (boxes
 * plus the player's normalised square).  The reversed start is virtual:
 * every box on a goal and the player anywhere (player index
 * SOKO_ANYWHERE), since a solution may end with the player in any area.
 * The reversed goal is the forward start state.  Its heuristic matches
 * boxes to the start squares by forward push distance, and its dead
 * squares are those no start box can be pushed to.
 *
 * Some levels are far easier one way than the other: packing boxes into a
 * deep goal room is a puzzle forwards but a matter of course backwards.
 * Only levels with as many boxes as goals have one solved position, so
 * only those are reversed.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban.h"

/* Forward push distances from cell start to every cell (others ignored). */
static void push_distances(const struct sokoban *s, int start, uint16_t *dist, uint16_t *queue)
{
	for (int c = 0; c < s->cells; c++)
		dist[c] = SOKO_INF;
	int head = 0, tail = 0;
	dist[start] = 0;
	queue[tail++] = (uint16_t)start;
	while (head < tail) {
		int y = queue[head++];
		for (int d = 0; d < 4; d++) {
			int to = y + s->off[d], player = y - s->off[d];
			if (s->wall[to] || s->wall[player] || dist[to] != SOKO_INF)
				continue;
			dist[to] = (uint16_t)(dist[y] + 1);
			queue[tail++] = (uint16_t)to;
		}
	}
}

struct lk_level *soko_new_reverse(const struct lk_level *level)
{
	const struct sokoban *f = (const struct sokoban *)level;
	if (f->forward || !f->push_graph || f->impossible || f->nboxes != f->ngoals ||
	    f->nboxes == 0)
		return NULL;
	struct sokoban *r = lk_xmalloc(sizeof *r);
	*r = *f;
	r->forward = f;
	r->deadend = NULL;   /* pulls have no tunnel macros */
	r->deadtab = NULL;   /* nor a deadlock table */
	r->patterns = NULL;  /* nor pattern searches */

	size_t n = (size_t)f->cells, nb = (size_t)f->nboxes;
	uint16_t *targets = lk_xmalloc(nb * sizeof *targets);
	uint16_t *tdist = lk_xmalloc(nb * n * sizeof *tdist);
	uint16_t *queue = lk_xmalloc(n * sizeof *queue);
	int k = 0;
	for (int i = 0; i < f->nfloor; i++)
		if (soko_bit(f->box0, i))
			targets[k++] = f->cell_of[i];
	for (int j = 0; j < k; j++)
		push_distances(f, targets[j], tdist + (size_t)j * n, queue);
	free(queue);

	r->dead = lk_xcalloc(n, 1);
	for (size_t c = 0; c < n; c++) {
		if (f->wall[c])
			continue;
		bool reachable = false;
		for (int j = 0; j < k && !reachable; j++)
			reachable = tdist[(size_t)j * n + c] != SOKO_INF;
		r->dead[c] = !reachable && f->use[SOKO_T_DEAD_SQUARES];
	}
	r->targets = targets;
	r->ntargets = k;
	r->tdist = tdist;
	soko_targets_by_cell(r);
	/* player-aware pull distances to the start squares (sokoban_aware.c) */
	if (f->aware_side)
		r->aware_tdist = soko_aware_distances(f, targets, k, true);
	soko_aware_by_cell(r);
	/* pair conflicts of pulls to the start squares (sokoban_pairs.c) */
	r->pairs = soko_pairs_new(r, true);
	soko_target_order(r);
	r->start_key = lk_xcalloc(1, level->key_size);
	f->base.game->initial_state(level, r->start_key);
	/* Pulling a box off a goal square that is dead for the reversed
	 * level would strand it; such a level cannot be solved forwards
	 * either, but the forward search will say so. */
	return &r->base;
}

struct lk_level *soko_new_unpacking(const struct lk_level *level)
{
	const struct sokoban *f = (const struct sokoban *)level;
	if (f->forward || !f->push_graph || f->nboxes != f->ngoals || f->nboxes == 0)
		return NULL;
	struct sokoban *r = lk_xmalloc(sizeof *r);
	*r = *f;
	r->forward = f;
	r->deadend = NULL;
	r->deadtab = NULL;
	r->patterns = NULL;
	r->impossible = false;
	/* No target, so nothing is dead and no state is a goal: exploring
	 * it visits every position from which the level can be solved. */
	r->dead = lk_xcalloc((size_t)f->cells, 1);
	r->targets = NULL;
	r->ntargets = 0;
	r->tdist = NULL;
	r->aware_tdist = NULL;
	r->aware_by_cell = NULL;
	r->aware_row_flags = NULL;
	r->pairs = NULL;
	r->start_key = NULL;
	soko_target_order(r);
	return &r->base;
}
