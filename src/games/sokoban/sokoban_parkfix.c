/*
 * sokoban_parkfix.c - playable-plan: a parking plan (sokoban_park.c) that
 * can be played push by push (solve -a any; docs/games/sokoban.md,
 * "Playable plan").
 *
 * The parking plan's retrieval lifts every box it takes out off the board,
 * so in play its pulls pass over the start squares of boxes the plan moves
 * only later: on Sasquatch every plan so found fails push by push, nearly
 * all at step 0 (bench/park_play.c).  Here the boxes taken out stay on
 * their start squares, walls to the later retrievals, and the position
 * the retrieval pulls in is exactly the one the plan is played in, so a
 * plan found plays push by push (sokoban_parkplay.c checks it).  With the
 * start squares walls, the greedy choice of the plain retrieval (take out
 * whatever box can be, onto the square fewest others reach) walls itself
 * in, so here the take-outs are searched too (a limited discrepancy
 * search over the best take-out of each box), and the start squares are
 * filled deepest first: a layer per square, peeled forwards from the start
 * (the boxes that can be pushed out of the starting cluster first, then
 * those freed by them, ...), the deepest filled first in the retrieval,
 * so that in play the boxes nearer the way out move first.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sokoban_parkwork.h"

/* Can the box on b be pushed, the other boxes in place, by a player on
 * player, out of the starting cluster: onto a square nearer the goals
 * than every start square (near: w->far below it), or a goal (near < 0:
 * can it be pushed at all)?  A push search over (square, side of the
 * player), the player's components labelled as the pull search's. */
static bool push_gets_out(struct park_work *w, int b, int player, int near)
{
	const struct sokoban *s = w->s;
	if (s->goal[b] || w->far[b] < near)
		return true;
	uint32_t seen = soko_park_next_stamp(&w->seen_stamp, w->seen, (size_t)s->cells * 4);
	uint32_t st = soko_park_flood(w, player);
	int head = 0, tail = 0;
	for (int e = 0; e < 4; e++) {
		int p = b + s->off[e];
		if (s->wall[p] || w->box[p] || w->mark[p] != st)
			continue;
		w->seen[b * 4 + e] = seen;
		w->queue[tail++] = (uint32_t)b * 4 + (uint32_t)e;
	}
	bool found = false;
	w->box[b] = 0;
	while (head < tail && !found && w->work <= w->budget) {
		int x = (int)(w->queue[head] >> 2), e = (int)(w->queue[head] & 3);
		head++;
		w->box[x] = 1;
		if (w->xdone[x] != seen) {
			w->xdone[x] = seen;
			soko_park_label_around(w, x, x);
		}
		w->box[x] = 0;
		for (int f = 0; f < 4 && !found; f++) {
			/* the player on side f pushes the box away from it */
			int y = x - s->off[f];
			if (w->nb[x * 4 + f] == 255 || w->nb[x * 4 + f] != w->nb[x * 4 + e] ||
			    s->wall[y] || w->box[y] || s->dead[y] || w->seen[y * 4 + f] == seen)
				continue;
			w->seen[y * 4 + f] = seen;
			w->queue[tail++] = (uint32_t)y * 4 + (uint32_t)f;
			found = s->goal[y] || w->far[y] < near || near < 0;
		}
	}
	w->box[b] = 1;
	return found;
}

/* Each start square's layer, peeled forwards from the level's start:
 * layer 0 holds the boxes that can be pushed out of the starting cluster
 * (push_gets_out) with every other box where it starts, layer 1 those
 * that can once layer 0's are gone, and so on; in a round where none can,
 * those that can be pushed at all; the rest (stuck, or the budget spent)
 * the last layer.  The retrieval fills the deepest layers first, so that
 * in play the boxes nearer the way out move first. */
void soko_park_peel_layers(struct park_work *w)
{
	const struct sokoban *s = w->s;
	memset(w->box, 0, (size_t)s->cells);
	int left = 0, near = SOKO_INF;
	for (int k = 0; k < 64 && w->start_cell[k] >= 0; k++) {
		w->box[w->start_cell[k]] = 1;
		if (w->far[w->start_cell[k]] < near && !s->goal[w->start_cell[k]])
			near = w->far[w->start_cell[k]];
		w->layer[k] = -1;
		left++;
	}
	int player = s->player0, last = 0;
	for (int round = 0; left > 0 && w->work <= w->budget; round++) {
		int got = 0;
		for (int k = 0; k < 64 && w->start_cell[k] >= 0; k++)
			if (w->layer[k] < 0 && push_gets_out(w, w->start_cell[k], player, near)) {
				w->layer[k] = round;
				got++;
			}
		/* none gets out: those that can be pushed at all peel first */
		bool stuck = got == 0;
		for (int k = 0; k < 64 && w->start_cell[k] >= 0 && stuck; k++)
			if (w->layer[k] < 0 && push_gets_out(w, w->start_cell[k], player, -1)) {
				w->layer[k] = round;
				got++;
			}
		for (int k = 0; k < 64 && w->start_cell[k] >= 0; k++)
			if (w->layer[k] == round)
				w->box[w->start_cell[k]] = 0;
		left -= got;
		last = round;
		if (got == 0)
			break;
	}
	for (int k = 0; k < 64 && w->start_cell[k] >= 0; k++)
		if (w->layer[k] < 0)
			w->layer[k] = last;
	memset(w->box, 0, (size_t)s->cells);
}

/* playable-plan: does the player on from, a box on x in place of the box
 * on c, reach a square beside a box still to be taken out (or, none
 * left, the level's start)?  A take-out that shuts the player away from
 * them ends the retrieval. */
static bool fixed_reaches(struct park_work *w, int c, int x, int from)
{
	const struct sokoban *s = w->s;
	w->box[c] = 0;
	w->box[x] = 1;
	uint32_t st = soko_park_flood(w, from);
	bool any = false, near = false;
	for (int i = 0; i < s->nfloor && !near; i++) {
		int z = s->cell_of[i];
		if (!w->box[z] || w->used[z] || z == x)
			continue;
		any = true;
		for (int d = 0; d < 4 && !near; d++)
			near = w->mark[z + s->off[d]] == st;
	}
	if (!any)
		near = w->mark[s->player0] == st;
	w->box[x] = 0;
	w->box[c] = 1;
	return near;
}

/* playable-plan: the start square the box on c (its pulls in w->queue) is
 * taken out onto, unless it stands on one (where in play it need never
 * move): of the free start squares, the deepest layer first (in play its
 * box moves after those nearer the way out have cleared it), then the
 * most pulls away, and of those one whose pulls leave the player free to
 * reach the boxes still in (fixed_reaches); else first (the choice
 * without it).  *end: where the pulls leave the player. */
static int fixed_choice(struct park_work *w, int c, int first, int *end)
{
	const struct sokoban *s = w->s;
	int best = -1, best_layer = -1, any = -1, any_layer = -1;
	for (int qi = w->tail - 1; qi >= 0; qi--) {
		int y = (int)(w->queue[qi] >> 2);
		if (w->start_of[y] < 0 || w->used[y])
			continue;
		int layer = w->layer[w->start_of[y]];
		if (layer > any_layer) {
			any = qi;
			any_layer = layer;
		}
		if (layer <= best_layer)
			continue;
		if (fixed_reaches(w, c, y, y + s->off[w->queue[qi] & 3])) {
			best = qi;
			best_layer = layer;
		}
	}
	int qi = best >= 0 ? best : any;
	if (qi < 0) {
		*end = c;
		return first;   /* none: first (-1 from retrieve_fixed) */
	}
	int y = (int)(w->queue[qi] >> 2);
	*end = y + s->off[w->queue[qi] & 3];
	return y;
}

/* playable-plan's retrieval: the boxes taken out stay on their start
 * squares, and the take-outs, not only the parking choices, are searched
 * as a limited discrepancy search: at each step the best take-out of each
 * box (fixed_choice), the boxes standing on a start square first, then by
 * the layer of the square, then those that leave the player free to reach
 * the others, at most PARK_TRIES; only where no box can be taken out, the
 * parking choices.  Done when every box is out and the player reaches
 * the level's start. */
struct fixed_try {
	int box, to, end, rank;
};

bool soko_park_retrieve_fixed(struct park_work *w, int player, int left, int disc,
			 struct park_path *path)
{
	const struct sokoban *s = w->s;
	if (left == 0) {   /* counted out only where the player reaches the start */
		uint32_t st = soko_park_flood(w, player);
		bool ok = w->mark[s->player0] == st;
		if (ok)
			path->best_left = 0;
		return ok;
	}
	if (left < path->best_left)
		path->best_left = left;
	if (w->work > w->budget || path->steps >= 2 * s->ngoals)
		return false;
	struct fixed_try tries[PARK_TRIES];
	int nt = 0;
	for (int i = 0; i < s->nfloor; i++) {
		int c = s->cell_of[i];
		if (!w->box[c] || w->used[c])
			continue;
		struct fixed_try t = { .box = c, .to = -1, .end = player };
		if (w->start_of[c] >= 0) {
			t.to = c;   /* in place: in play it need never move */
			t.rank = INT_MAX;
		} else {
			soko_park_pull_search(w, c, player);
			int end, y = fixed_choice(w, c, -1, &end);
			if (y < 0)
				continue;
			t.to = y;
			t.end = end;
			t.rank = w->layer[w->start_of[y]] * 2 + fixed_reaches(w, c, y, end);
		}
		int k = nt < PARK_TRIES ? nt++ : PARK_TRIES;
		for (; k > 0 && tries[k - 1].rank < t.rank; k--)
			if (k < PARK_TRIES)
				tries[k] = tries[k - 1];
		if (k < PARK_TRIES)
			tries[k] = t;
	}
	bool ok = false;
	for (int k = 0; k < nt && k <= disc && !ok && w->work <= w->budget; k++) {
		int c = tries[k].box, x = tries[k].to;
		bool was_parked = w->parked[c];
		w->parked[c] = 0;
		w->box[c] = 0;
		w->box[x] = 1;
		w->used[x] = 1;
		path->target[path->steps] = (uint16_t)c;
		path->start[path->steps] = (uint16_t)x;
		path->leaves[path->steps++] = SOKO_NONE;
		ok = soko_park_retrieve_fixed(w, tries[k].end, left - 1, disc - k, path);
		if (!ok) {
			path->steps--;
			w->used[x] = 0;
			w->box[x] = 0;
			w->box[c] = 1;
			w->parked[c] = was_parked;
		}
	}
	if (ok || nt > disc || path->parked >= path->max_parked)
		return ok;
	/* the parking choices after the take-outs (with the start squares
	 * walls, a take-out that can be made may still lead nowhere) */
	struct park_try *choice = lk_xmalloc((size_t)s->ngoals * PARK_PER_BOX * sizeof *choice);
	int nc = soko_park_choices(w, player, choice);
	for (int k = 0; k < nc && nt + k <= disc && !ok && w->work <= w->budget; k++) {
		int c = choice[k].box, x = choice[k].to;
		w->box[c] = 0;
		w->box[x] = w->parked[x] = 1;
		path->target[path->steps] = (uint16_t)c;
		path->start[path->steps] = SOKO_NONE;
		path->leaves[path->steps++] = (uint16_t)x;
		path->parked++;
		ok = soko_park_retrieve_fixed(w, c, left, disc - nt - k, path);
		if (!ok) {
			path->steps--;
			path->parked--;
			w->box[x] = w->parked[x] = 0;
			w->box[c] = 1;
		}
	}
	free(choice);
	return ok;
}
