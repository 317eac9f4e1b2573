/*
 * sokoban_parkplay.c - can a parking plan be played push by push?  (solve
 * -a any; docs/games/sokoban.md, "Playable plan".)
 *
 * The parking plan (sokoban_park.c) is a list of steps, each one box
 * brought from its start square or a parking square onto a target (a
 * goal or a parking square).  It steers the search, which does not have to
 * follow it; but a plan that cannot be played as written steers the search
 * towards a position it cannot reach.  Here the plan is played forwards
 * from the level's start, exactly: the boxes the plan has not moved yet on
 * their start squares, every step one box pushed to its target by a player
 * who walks on from where the step before left it, the other boxes in
 * place.  Where a step cannot be pushed, the play is tried again with the
 * boxes not moved yet lifted off the board, to tell a step that such a box
 * blocks (the retrieval lifts them: the fault playable-plan repairs) from
 * one blocked otherwise.
 *
 * The search is over (box square, player square) pairs, cells squared, so
 * it is meant for tests, bench/park_play.c and plan-repair's mending of
 * the plan once per level (sokoban_parkrepair.c, which shares the play
 * through sokoban_parkplay.h), not for the search's hot path; each search
 * is bounded by the level's size (the seen marks are stamps, so a search
 * clears nothing).
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_parkplay.h"

void soko_play_init(struct play *pl, const struct sokoban *s)
{
	size_t n = (size_t)s->cells;
	memset(pl, 0, sizeof *pl);
	pl->s = s;
	pl->box = lk_xcalloc(n, 1);
	pl->from = lk_xcalloc(n, 1);
	pl->seen = lk_xcalloc(n * n, sizeof *pl->seen);
	pl->queue = lk_xmalloc(n * n * sizeof *pl->queue);
	pl->stack = lk_xmalloc(n * sizeof *pl->stack);
}

void soko_play_release(struct play *pl)
{
	free(pl->box);
	free(pl->from);
	free(pl->seen);
	free(pl->queue);
	free(pl->stack);
}

void soko_play_start(struct play *pl)
{
	const struct sokoban *s = pl->s;
	for (int c = 0; c < s->cells; c++) {
		pl->box[c] = !s->wall[c] && s->compact[c] >= 0 && soko_bit(s->box0, s->compact[c]);
		pl->from[c] = 0;
	}
	pl->from[s->player0] = 1;
	soko_play_walk_on(pl);
}

void soko_play_walk_on(struct play *pl)
{
	const struct sokoban *s = pl->s;
	int sp = 0;
	for (int c = 0; c < s->cells; c++)
		if (pl->from[c])
			pl->stack[sp++] = c;
	while (sp > 0) {
		int c = pl->stack[--sp];
		for (int d = 0; d < 4; d++) {
			int nc = c + s->off[d];
			if (s->wall[nc] || pl->box[nc] || pl->from[nc])
				continue;
			pl->from[nc] = 1;
			pl->stack[sp++] = nc;
		}
	}
}

int soko_play_search(struct play *pl, int b)
{
	const struct sokoban *s = pl->s;
	int n = s->cells;
	if (++pl->stamp == 0) {
		memset(pl->seen, 0, (size_t)n * (size_t)n * sizeof *pl->seen);
		pl->stamp = 1;
	}
	uint32_t st = pl->stamp;
	int head = 0, tail = 0;
	pl->box[b] = 0;
	for (int c = 0; c < n; c++)
		if (pl->from[c] && c != b) {
			pl->seen[(size_t)b * (size_t)n + (size_t)c] = st;
			pl->queue[tail++] = b * n + c;
		}
	while (head < tail) {
		int x = pl->queue[head] / n, p = pl->queue[head] % n;
		head++;
		for (int d = 0; d < 4; d++) {
			int q = p + s->off[d], nx = x;
			if (s->wall[q] || pl->box[q])
				continue;
			if (q == x) {   /* a push */
				nx = x + s->off[d];
				if (s->wall[nx] || pl->box[nx])
					continue;
			}
			size_t k = (size_t)nx * (size_t)n + (size_t)q;
			if (pl->seen[k] == st)
				continue;
			pl->seen[k] = st;
			pl->queue[tail++] = nx * n + q;
		}
	}
	pl->work += tail;
	return tail;
}

/* Push the box on b to to, the other boxes in place, the player starting
 * anywhere in from[]; on success from[] is where the player can walk after
 * the last push and the box stands on to.  Every way there counts: the
 * search runs to its end and the player may stand, the box on to, on any
 * square a way leaves it (the shortest way may shut it in where a longer
 * one, the box taken round, does not). */
bool soko_play_push_to(struct play *pl, int b, int to)
{
	const struct sokoban *s = pl->s;
	size_t n = (size_t)s->cells;
	if (b == to)
		return true;
	int tail = soko_play_search(pl, b);
	bool reached = false;
	for (int i = 0; i < tail && !reached; i++)
		reached = pl->queue[i] / (int)n == to;
	if (!reached) {
		pl->box[b] = 1;
		return false;
	}
	pl->box[to] = 1;
	for (size_t c = 0; c < n; c++)
		pl->from[c] = pl->seen[(size_t)to * n + c] == pl->stamp;
	soko_play_walk_on(pl);
	return true;
}

int soko_park_play(const struct sokoban *s, const struct soko_park *p, enum soko_play_fault *fault)
{
	size_t n = (size_t)s->cells;
	struct play pl;
	soko_play_init(&pl, s);
	uint8_t *box2 = lk_xmalloc(n), *from2 = lk_xmalloc(n);
	soko_play_start(&pl);
	int bad = -1;
	enum soko_play_fault why = SOKO_PLAY_OK;
	for (int i = 0; i < p->nsteps && bad < 0; i++) {
		int src = p->leaves[i] != SOKO_NONE ? p->leaves[i] : p->start[i], t = p->target[i];
		if (!pl.box[src]) {
			bad = i;
			why = SOKO_PLAY_NO_BOX;
		} else if (t != src && pl.box[t]) {
			bad = i;
			why = SOKO_PLAY_TARGET_HELD;
		} else {
			memcpy(box2, pl.box, n);
			memcpy(from2, pl.from, n);
			if (soko_play_push_to(&pl, src, t))
				continue;
			bad = i;
			why = SOKO_PLAY_BLOCKED;
			/* again with the boxes the plan moves only later lifted:
			 * as the retrieval saw the level */
			for (int j = i + 1; j < p->nsteps; j++)
				if (p->leaves[j] == SOKO_NONE && p->start[j] != src)
					pl.box[p->start[j]] = 0;
			memcpy(pl.from, from2, n);
			soko_play_walk_on(&pl);
			if (soko_play_push_to(&pl, src, t))
				why = SOKO_PLAY_UNMOVED;
			memcpy(pl.box, box2, n);
		}
	}
	free(box2);
	free(from2);
	soko_play_release(&pl);
	if (fault)
		*fault = why;
	return bad;
}
