/*
 * sokoban_replan.c - which goals a new packing order fills later, read off
 * the position where the first feature-space search stalled (solve -a any,
 * the `replan` technique; docs/games/sokoban.md, "Hard levels").
 *
 * The packing order (sokoban_plan.c) is worked out once, backwards from
 * the solved position, and knows nothing of where the boxes start.  When
 * it is wrong the first search (goal rooms on: a packed box is a wall to
 * it) packs most of the boxes and then stalls with a box shut off from the
 * goals left by boxes it packed too soon (Sasquatch I 5 and I 25: a
 * corridor of goals filled before the boxes that must pass through it).
 * Here, for each box not on a packed goal, the cheapest way by pushes
 * (the player anywhere free, as in sokoban_plandead.c) to a goal not
 * packed is found, a packed box on the way costing one: where that way
 * crosses packed boxes, as the box's square or the player's, their goals
 * are the ones to fill later.  A box with a way free of packed boxes, or
 * none even through them, says nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any.h"

/* Is the box on c (boxes in box, the next goals of the areas in next) on
 * a packed goal? */
static bool packed_at(const struct soko_plan *p, const uint8_t *box, const uint16_t *next, int c)
{
	if (!box[c])
		return false;
	uint16_t area = p->area_of[c];
	if (area == SOKO_NONE || p->rank[c] == SOKO_NONE)
		return false;
	return next[area] == SOKO_NONE || p->rank[c] < p->rank[next[area]];
}

int soko_replan_late(const struct sokoban *s, const struct soko_plan *p, const unsigned char *key,
		     uint8_t *late)
{
	if (p->park || p->nareas == 0)
		return 0;   /* a parking plan's steps are not the order */
	size_t cells = (size_t)s->cells;
	/* the key's boxes (a bit per floor square after the player's two
	 * bytes), read here: a search's scratch is not to be touched */
	uint8_t *box = lk_xcalloc(cells, 1);
	uint16_t *boxes = lk_xmalloc((size_t)(s->nboxes ? s->nboxes : 1) * sizeof *boxes);
	int n = 0;
	for (int i = 0; i < s->nfloor && n < s->nboxes; i++)
		if (soko_bit(key + 2, i)) {
			box[s->cell_of[i]] = 1;
			boxes[n++] = s->cell_of[i];
		}
	uint16_t *next = lk_xmalloc(((size_t)p->nareas + 1) * sizeof *next);
	soko_next_goals_box(p, box, next);
	uint32_t *dist = lk_xmalloc(cells * sizeof *dist);
	int32_t *from = lk_xmalloc(cells * sizeof *from);
	uint8_t *queued = lk_xcalloc(cells, 1);
	int *queue = lk_xmalloc((cells + 1) * sizeof *queue);
	int added = 0;
	for (int i = 0; i < n; i++) {
		int b = boxes[i];
		if (packed_at(p, box, next, b))
			continue;
		/* shortest ways by pushes, a packed box crossed costing one
		 * (a FIFO queue, entries improved put back: the board is small) */
		for (size_t c = 0; c < cells; c++) {
			dist[c] = UINT32_MAX;
			from[c] = -1;
		}
		size_t head = 0, tail = 0, size = cells + 1;
		dist[b] = 0;
		queue[tail++] = b;
		queued[b] = 1;
		while (head != tail) {
			int t = queue[head];
			head = (head + 1) % size;
			queued[t] = 0;
			for (int d = 0; d < 4; d++) {
				int o = s->off[d], c = t + o, pl = t - o;
				if (s->wall[c] || s->wall[pl])
					continue;
				uint32_t w = dist[t] + (packed_at(p, box, next, c) ? 1u : 0u) +
					     (packed_at(p, box, next, pl) ? 1u : 0u);
				if (w >= dist[c])
					continue;
				dist[c] = w;
				from[c] = t;
				if (!queued[c]) {
					queued[c] = 1;
					queue[tail] = c;
					tail = (tail + 1) % size;
				}
			}
		}
		/* the nearest goal not packed and free (or the box's own) */
		int target = -1;
		for (int k = 0; k < s->ngoals; k++) {
			int g = s->goals[k];
			if (packed_at(p, box, next, g) || (box[g] && g != b) || dist[g] == UINT32_MAX)
				continue;
			if (target < 0 || dist[g] < dist[target])
				target = g;
		}
		if (target < 0 || dist[target] == 0)
			continue;   /* no way at all, or a free one */
		for (int c = target; from[c] >= 0; c = from[c]) {
			int t = from[c], pl = 2 * t - c;
			if (packed_at(p, box, next, c) && !late[c]) {
				late[c] = 1;
				added++;
			}
			if (packed_at(p, box, next, pl) && !late[pl]) {
				late[pl] = 1;
				added++;
			}
		}
	}
	free(box);
	free(boxes);
	free(next);
	free(dist);
	free(from);
	free(queued);
	free(queue);
	return added;
}
