/*
 * sokoban_order.c - which targets must be filled before which (the target
 * order), for greedy search's estimate.
 *
 * A box standing on one target can shut off another: in Microban 153 the
 * goals form a dead-end column filled from its open end, and a box parked
 * at the mouth of the column (or on the square the player must stand on to
 * push up the column) leaves every goal behind it unreachable.  Such a box
 * is not a deadlock (it can be pushed off again), so pruning cannot see
 * it, and the matching bound even rewards it.
 *
 * blocks[t'] has bit t set when, with a wall on target t' and no other box
 * on the board, no box can be brought onto t from a square that is not a
 * target.  "Brought" means by the level's own moves, pushes forwards and
 * pulls in a reversed level, with the player's reach taken into account.
 * A box on a target counts as finished only when every target it shuts off
 * is filled too; the greedy estimate adds the unfinished boxes to the bound,
 * so it drops when a box is finished and not when one is parked in the way.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban.h"

/* Working memory of the searches. */
struct order_work {
	uint8_t *seen;       /* per cell and side: (box, player side) visited */
	uint32_t *mark;      /* player flood stamps */
	uint32_t stamp;
	uint32_t *queue;     /* box cell << 2 | side the player stands on */
	uint16_t *stack;
	const uint8_t *is_target;
};

/* Flood the player's squares from cell, with a box on `box` and a wall on
 * `wall`, into w->mark with a fresh stamp. */
static void player_flood(const struct sokoban *s, struct order_work *w, int cell, int box, int wall)
{
	int sp = 0;
	if (++w->stamp == 0) {
		memset(w->mark, 0, (size_t)s->cells * sizeof *w->mark);
		w->stamp = 1;
	}
	w->mark[cell] = w->stamp;
	w->stack[sp++] = (uint16_t)cell;
	while (sp > 0) {
		int c = w->stack[--sp];
		for (int d = 0; d < 4; d++) {
			int nc = c + s->off[d];
			if (s->wall[nc] || nc == box || nc == wall || w->mark[nc] == w->stamp)
				continue;
			w->mark[nc] = w->stamp;
			w->stack[sp++] = (uint16_t)nc;
		}
	}
}

static int opposite(int d)
{
	return (d + 2) & 3;
}

/*
 * Can a box on `target` have come there from a square that is not a
 * target, with cell `wall` walled up and no other box on the board?  A
 * breadth-first search over (box square, side the player stands on) that
 * undoes the level's moves from the target, the player starting on any
 * side.  Undoing a push towards -e: the player steps from box+e to box+2e
 * and the box follows to box+e.  Undoing a pull towards -e: the player
 * stands at box-e and the box goes back to box+e, the player to box.
 */
static bool target_open(const struct sokoban *s, int target, int wall, bool pulls,
			struct order_work *w)
{
	memset(w->seen, 0, (size_t)s->cells * 4);
	int head = 0, tail = 0;
	for (int d = 0; d < 4; d++) {
		int p = target + s->off[d];
		if (!s->wall[p] && p != wall) {
			w->seen[target * 4 + d] = 1;
			w->queue[tail++] = (uint32_t)target << 2 | (uint32_t)d;
		}
	}
	while (head < tail) {
		int box = (int)(w->queue[head] >> 2), side = (int)(w->queue[head] & 3);
		head++;
		player_flood(s, w, box + s->off[side], box, wall);
		for (int e = 0; e < 4; e++) {
			int to = box + s->off[e];
			int stand = pulls ? box - s->off[e] : to;          /* must be reachable */
			int needs = pulls ? to : to + s->off[e];           /* must be free */
			int side_after = pulls ? opposite(e) : e;
			if (s->wall[to] || to == wall || w->mark[stand] != w->stamp ||
			    s->wall[needs] || needs == wall || w->seen[to * 4 + side_after])
				continue;
			if (!w->is_target[to])
				return true;
			w->seen[to * 4 + side_after] = 1;
			w->queue[tail++] = (uint32_t)to << 2 | (uint32_t)side_after;
		}
	}
	return false;
}

/* The searches cost at most about 4 * floor^2 steps per pair of targets
 * (a tenth of a second for this many), paid at every level load: past it
 * the order is not worked out and the estimate counts the boxes off
 * target.  Microban 153 needs 2 million. */
#define ORDER_BUDGET 5e7

void soko_target_order(struct sokoban *s)
{
	s->blocks = NULL;
	size_t n = (size_t)s->cells;
	s->target_index = lk_xmalloc(n * sizeof *s->target_index);
	for (size_t c = 0; c < n; c++)
		s->target_index[c] = SOKO_NO_TARGET;
	for (int t = 0; t < s->ntargets; t++)
		s->target_index[s->targets[t]] = (uint16_t)t;
	double floor = s->nfloor, pairs = (double)s->ntargets * s->ntargets;
	if (s->ntargets < 2 || s->ntargets > 64 || 4.0 * floor * floor * pairs > ORDER_BUDGET)
		return;
	uint8_t *is_target = lk_xcalloc(n, 1);
	for (int t = 0; t < s->ntargets; t++)
		is_target[s->targets[t]] = 1;
	struct order_work w = {
		.seen = lk_xmalloc(n * 4),
		.mark = lk_xcalloc(n, sizeof *w.mark),
		.queue = lk_xmalloc(n * 4 * sizeof *w.queue),
		.stack = lk_xmalloc(n * sizeof *w.stack),
		.is_target = is_target,
	};
	bool pulls = s->forward != NULL;
	uint64_t *blocks = lk_xcalloc((size_t)s->ntargets, sizeof *blocks);
	bool any = false;
	for (int t = 0; t < s->ntargets; t++) {
		if (!target_open(s, s->targets[t], -1, pulls, &w))
			continue;   /* shut off anyway: nothing to order */
		for (int tw = 0; tw < s->ntargets; tw++) {
			if (tw != t && !target_open(s, s->targets[t], s->targets[tw], pulls, &w)) {
				blocks[tw] |= (uint64_t)1 << t;
				any = true;
			}
		}
	}
	free(w.seen);
	free(w.mark);
	free(w.queue);
	free(w.stack);
	free(is_target);
	if (any)
		s->blocks = blocks;
	else
		free(blocks);
}

unsigned soko_unfinished(const struct sokoban *s, const struct soko_scratch *sc, int nboxes)
{
	uint64_t filled = 0;
	int finished = 0;
	for (int i = 0; i < nboxes; i++) {
		unsigned t = s->target_index[sc->boxes[i]];
		if (t == SOKO_NO_TARGET)
			continue;
		finished++;
		if (t < 64)
			filled |= (uint64_t)1 << t;
	}
	if (s->blocks)
		for (uint64_t f = filled; f; f &= f - 1)
			if (s->blocks[lk_lowest_bit64(f)] & ~filled)
				finished--;
	return (unsigned)(nboxes - finished);
}
