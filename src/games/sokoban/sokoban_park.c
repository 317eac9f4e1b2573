/*
 * sokoban_park.c - the parking plan of Sokoban's search for any solution
 * (solve -a any; docs/games/sokoban.md, "Parking plan"): a packing order
 * that may first move boxes to squares that are no goal (parking squares)
 * and bring them on to their goals later, for levels where the boxes
 * cannot be brought onto the goals from where they start in any order of
 * the goals alone (Sasquatch I 36: every box must cross the goal row to
 * the room beyond it before the first goal of the row may be filled).
 *
 * It is worked out backwards, as the packing order of sokoban_plan.c is,
 * but with the level's boxes where they start: from the solved position,
 * with the player on one side of it, a box is taken out when it can be
 * pulled, the other boxes where they are, onto a start square no other box
 * has taken (in the level that box came from there); when no box can, a
 * box on a goal is pulled off it (the other boxes in place) onto a square
 * that is no goal, from which the player can walk back to the goal it
 * left, and it stays there (parked) until it can be taken out in turn.  A
 * box taken out takes, of the start squares it reaches, the one the
 * fewest other boxes reach.  Where parking is needed, two squares a box
 * are tried, in a first order: squares that are no gate (a box there
 * would split the free squares around it into two groups, breaking a way
 * round that later retrievals or the player need, as YASS avoids gate
 * squares) before gates, then the farthest from the goals (the boxes
 * parked first fill the far rooms, those parked last, taken out first,
 * stand nearest); and the retrieval backtracks over them as a limited
 * discrepancy search (the first choice everywhere, then paths that take a
 * later choice at one step, two, ...), within a budget of work.  Only
 * when no side gets a complete plan so, each is tried in a second order,
 * the farthest by pulls (YASS parks boxes so too; Sasquatch II 45 needs
 * it).  Of the sides the player may stand on, the plan that parks fewest
 * boxes is kept; a level whose boxes need no parking keeps the packing
 * order alone.  Fewest-parked: once a side has a plan, its search goes on
 * (within its budget) for one that parks fewer, and a later side looks
 * only for a plan that parks fewer than the best so far.  Played
 * forwards, the plan is a list of steps, each a box arriving on a target
 * (a goal or a parking square), from the parking square it stood on or
 * from the start square the retrieval gave it.
 *
 * The features (sokoban_plan.c) then count, instead of the packed boxes,
 * the steps of the plan a position has reached (the last step whose
 * targets, as the plan leaves them, all hold boxes), and out of plan the
 * boxes on targets beyond those; the packing advisor so proposes the move
 * onto the next parking square, and the goal-room macros, which trust an
 * order of the goals alone, stand aside (sokoban_goalroom.c).  It changes
 * which state is expanded next and prunes no move, so it cannot lose a
 * solution (tests/test_sokoban_any_park.c).
 *
 * The boxes taken out are lifted off the board, so in play a step's pushes
 * may meet boxes the plan moves only later, where they start (on Sasquatch
 * every plan so found fails push by push: sokoban_parkplay.c).  With
 * playable-plan (off by default) a retrieval that keeps them on their
 * start squares is tried first (sokoban_parkfix.c).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sokoban_parkwork.h"

/* Of it, what the first order of parking choices may use. */
#define PARK_FIRST 0.6
/* Of the budget, what playable-plan's peeling of the start may use
 * (beside it: sokoban_parkfix.c). */
#define PARK_PEEL 0.1
/* playable-plan's own run, before the runs without it: this share of
 * their budgets (it finds a plan, where it does, within far less). */
#define PARK_FIXED 0.2
/* Sides of the solved position tried, at most. */
#define PARK_SIDES 4

/* Tests: use a complete plan even without a parking step. */
static bool park_always;

void soko_park_set_always(bool always) { park_always = always; }

/* fewest-parked: look on for plans that park fewer boxes. */
static bool fewest_parked = true;

void soko_park_set_fewest(bool fewest) { fewest_parked = fewest; }

uint32_t soko_park_next_stamp(uint32_t *stamp, uint32_t *arr, size_t n)
{
	if (++*stamp == 0) {
		memset(arr, 0, n * sizeof *arr);
		*stamp = 1;
	}
	return *stamp;
}

/* Flood the free floor from cell (boxes in w->box) into w->mark. */
uint32_t soko_park_flood(struct park_work *w, int from)
{
	const struct sokoban *s = w->s;
	uint32_t st = soko_park_next_stamp(&w->stamp, w->mark, (size_t)s->cells);
	int sp = 0;
	if (soko_stopped(w->stop))
		w->budget = -1;   /* every budget test fails from here on */
	w->flooded = 0;
	w->mark[from] = st;
	w->stack[sp++] = (uint16_t)from;
	while (sp > 0) {
		int c = w->stack[--sp];
		w->work++;
		w->flooded++;
		for (int d = 0; d < 4; d++) {
			int nc = c + s->off[d];
			if (s->wall[nc] || w->box[nc] || w->mark[nc] == st)
				continue;
			w->mark[nc] = st;
			w->stack[sp++] = (uint16_t)nc;
		}
	}
	return st;
}

/* The player's components around a box on x (w->box[x] set): which of
 * x's four neighbours share one, and which hold cell back. */
void soko_park_label_around(struct park_work *w, int x, int back)
{
	const struct sokoban *s = w->s;
	uint32_t ids[4];
	int n = 0;
	for (int d = 0; d < 4; d++) {
		int c = x + s->off[d];
		w->nb[x * 4 + d] = 255;
		w->nb_back[x * 4 + d] = 0;
		if (s->wall[c] || w->box[c])
			continue;
		int k = 0;
		while (k < n && w->mark[c] != ids[k])
			k++;
		if (k == n)
			ids[n++] = soko_park_flood(w, c);
		w->nb[x * 4 + d] = (uint8_t)k;
		w->nb_back[x * 4 + d] = w->mark[back] == ids[k];
	}
}

/* Pull the box on b, the other boxes in place, the player starting at
 * player: w->queue[0 .. w->tail) holds (square << 2 | side the player
 * stands on) in order of pulls, w->nb_back whether the player can walk
 * back to b from a side of a square reached. */
void soko_park_pull_search(struct park_work *w, int b, int player)
{
	const struct sokoban *s = w->s;
	uint32_t seen = soko_park_next_stamp(&w->seen_stamp, w->seen, (size_t)s->cells * 4);
	uint32_t st = soko_park_flood(w, player);
	int head = 0, tail = 0;
	for (int e = 0; e < 4; e++) {
		int p = b + s->off[e], q = p + s->off[e];
		if (s->wall[p] || w->box[p] || w->mark[p] != st || s->wall[q] || w->box[q])
			continue;
		w->seen[p * 4 + e] = seen;
		w->queue[tail++] = (uint32_t)p * 4 + (uint32_t)e;
	}
	w->box[b] = 0;
	while (head < tail && w->work <= w->budget) {
		int x = (int)(w->queue[head] >> 2), e = (int)(w->queue[head] & 3);
		head++;
		w->box[x] = 1;
		if (w->xdone[x] != seen) {
			w->xdone[x] = seen;
			soko_park_label_around(w, x, b);
		}
		w->box[x] = 0;
		for (int f = 0; f < 4; f++) {
			int p = x + s->off[f], q = p + s->off[f];
			if (w->nb[x * 4 + f] == 255 || w->nb[x * 4 + f] != w->nb[x * 4 + e] ||
			    s->wall[q] || w->box[q] || w->seen[p * 4 + f] == seen)
				continue;
			w->seen[p * 4 + f] = seen;
			w->queue[tail++] = (uint32_t)p * 4 + (uint32_t)f;
		}
	}
	w->box[b] = 1;
	w->tail = head;   /* what was searched */
}

/* Does a box on x, moved there from b, leave the player's floor around b
 * whole but for x (it cuts no piece of floor off)? */
static bool parks_whole(struct park_work *w, int b, int x)
{
	w->box[b] = 0;
	soko_park_flood(w, b);
	int before = w->flooded;
	w->box[x] = 1;
	soko_park_flood(w, b);
	int after = w->flooded;
	w->box[x] = 0;
	w->box[b] = 1;
	return after == before - 1;
}

/* Is x a gate: do its free neighbours (walls and boxes block, the box
 * on b lifted) fall into two or more groups around it, so that a box on
 * x breaks a way round (or cuts the floor)?  The eight squares around x
 * in turn: a run of free ones is one group when it holds a side square
 * (a lone free corner does not touch x). */
static bool is_gate(struct park_work *w, int b, int x)
{
	const struct sokoban *s = w->s;
	static const int ring[8][2] = { { -1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 },
					{ 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, -1 } };
	bool free_sq[8];
	for (int i = 0; i < 8; i++) {
		int c = x + ring[i][0] * s->width + ring[i][1];
		free_sq[i] = !s->wall[c] && (!w->box[c] || c == b);
	}
	int start = 0;
	while (start < 8 && free_sq[start])
		start++;
	if (start == 8)
		return false;   /* free all round */
	int groups = 0;
	bool in_run = false, side = false;
	for (int k = 1; k <= 8; k++) {
		int i = (start + k) % 8;
		if (free_sq[i]) {
			in_run = true;
			side |= i % 2 == 0;
		} else {
			groups += in_run && side;
			in_run = side = false;
		}
	}
	return groups >= 2;
}

/* Is choice a better than b (the order of PARK_PER_BOX's comment in
 * sokoban_parkwork.h, or by pulls alone)? */
static bool try_better(const struct park_work *w, const struct park_try *a,
		       const struct park_try *b)
{
	if (w->by_pulls)
		return a->rank > b->rank;
	if (a->gate != b->gate)
		return a->gate < b->gate;
	if (a->far != b->far)
		return a->far > b->far;
	return a->rank > b->rank;
}

/* Take out a box onto a free start square it can be pulled to (or stands
 * on): of the boxes, the one whose pull reaches the most squares; of its
 * start squares, the one the fewest other boxes reach (the others need
 * theirs), then the fewest pulls away.  True when one could be (the step
 * done into w's position, *player where the pull left the player). */
static bool take_out(struct park_work *w, int *player, int *box, int *to)
{
	const struct sokoban *s = w->s;
	int nb = 0, reach[64], first[64];
	int cell[64];
	uint64_t starts[64];
	for (int i = 0; i < s->nfloor && nb < 64; i++) {
		int c = s->cell_of[i];
		if (!w->box[c])
			continue;
		soko_park_pull_search(w, c, *player);
		uint64_t m = 0;
		int f = -1;
		if (w->start_of[c] >= 0 && !w->used[c])
			m |= (uint64_t)1 << w->start_of[c];
		for (int qi = 0; qi < w->tail; qi++) {
			int x = (int)(w->queue[qi] >> 2);
			if (w->start_of[x] >= 0 && !w->used[x]) {
				m |= (uint64_t)1 << w->start_of[x];
				if (f < 0)
					f = qi;
			}
		}
		cell[nb] = c;
		starts[nb] = m;
		reach[nb] = w->tail;
		first[nb++] = f;
	}
	int out = -1;
	for (int k = 0; k < nb; k++)
		if (starts[k] && (out < 0 || reach[k] > reach[out]))
			out = k;
	if (out < 0)
		return false;
	int c = cell[out], best = -1, best_rivals = 0;
	for (uint64_t m = starts[out]; m; m &= m - 1) {
		int j = lk_lowest_bit64(m), rivals = 0;
		for (int k = 0; k < nb; k++)
			rivals += k != out && (starts[k] >> j & 1);
		if (best < 0 || rivals < best_rivals) {
			best = j;
			best_rivals = rivals;
		}
	}
	int x = w->start_cell[best], end = c;
	if (x != c) {   /* where the pull leaves the player: search again */
		soko_park_pull_search(w, c, *player);
		for (int qi = 0; qi < w->tail; qi++)
			if ((int)(w->queue[qi] >> 2) == x) {
				end = x + s->off[w->queue[qi] & 3];
				break;
			}
	}
	(void)first;
	w->box[c] = 0;
	w->used[x] = 1;
	*player = end == c ? *player : end;
	*box = c;
	*to = x;
	return true;
}

/* The parking choices of the position (boxes on goals only), at most
 * PARK_TRIES, best first. */
int soko_park_choices(struct park_work *w, int player, struct park_try *tries)
{
	const struct sokoban *s = w->s;
	int n = 0;
	for (int i = 0; i < s->nfloor; i++) {
		int c = s->cell_of[i];
		if (!w->box[c] || w->parked[c] || (w->fixed && w->used[c]))
			continue;
		soko_park_pull_search(w, c, player);
		struct park_try mine[PARK_PER_BOX];
		int found = 0;
		for (int qi = w->tail - 1; qi >= 0; qi--) {
			int x = (int)(w->queue[qi] >> 2), e = (int)(w->queue[qi] & 3);
			if (s->goal[x] || s->dead[x] || w->doorway[x] || !w->nb_back[x * 4 + e])
				continue;
			/* playable-parking: a box taken out onto x (lifted off
			 * the board here) starts on x in play and leaves it
			 * only after the box parked now has come and gone, so
			 * the plan could not be played */
			if (w->playable && w->used[x]) {
				w->refused++;
				continue;
			}
			struct park_try t = { .box = c, .to = x, .rank = qi,
					      .gate = is_gate(w, c, x), .far = w->far[x] };
			int k = 0;
			while (k < found && mine[k].to != x)
				k++;
			if (k < found)
				continue;   /* reached from another side before */
			if (found == PARK_PER_BOX && !try_better(w, &t, &mine[found - 1]))
				continue;
			if (!parks_whole(w, c, x))
				continue;
			if (found < PARK_PER_BOX)
				found++;
			int j = found - 1;
			for (; j > 0 && try_better(w, &t, &mine[j - 1]); j--)
				mine[j] = mine[j - 1];
			mine[j] = t;
		}
		for (int k = 0; k < found; k++)
			tries[n++] = mine[k];
	}
	/* best first (insertion sort: a few dozen at most) */
	for (int i = 1; i < n; i++) {
		struct park_try k = tries[i];
		int j = i;
		for (; j > 0 && try_better(w, &k, &tries[j - 1]); j--)
			tries[j] = tries[j - 1];
		tries[j] = k;
	}
	return n < PARK_TRIES ? n : PARK_TRIES;
}


/* Depth-first: take boxes out while one can be, else try the parking
 * choices in turn, the k-th spending k of the path's disc discrepancies.
 * True when every box is out (the steps in path, in reverse order); left:
 * boxes still in. */
static bool retrieve_from(struct park_work *w, int player, int left, int disc,
			  struct park_path *path)
{
	const struct sokoban *s = w->s;
	int steps0 = path->steps, parked0 = path->parked;
	int box, to;
	/* take-outs are not undone one by one: their squares are logged */
	int log_box[64], log_to[64], nlog = 0;
	bool ok = false;
	while (left > 0 && w->work <= w->budget && take_out(w, &player, &box, &to)) {
		bool was_parked = w->parked[box];
		w->parked[box] = 0;
		if (nlog < 64) {
			log_box[nlog] = box | (was_parked ? 1 << 20 : 0);
			log_to[nlog++] = to;
		}
		path->target[path->steps] = (uint16_t)box;
		path->start[path->steps] = (uint16_t)to;
		path->leaves[path->steps++] = SOKO_NONE;
		left--;
	}
	if (left < path->best_left)
		path->best_left = left;
	if (left == 0) {
		ok = true;
	} else if (nlog < 64 && path->steps < 2 * s->ngoals && path->parked < path->max_parked &&
		   w->work <= w->budget) {
		struct park_try *choice = lk_xmalloc((size_t)s->ngoals * PARK_PER_BOX * sizeof *choice);
		int nc = soko_park_choices(w, player, choice);
		for (int k = 0; k < nc && k <= disc && !ok && w->work <= w->budget; k++) {
			int c = choice[k].box, x = choice[k].to;
			w->box[c] = 0;
			w->box[x] = w->parked[x] = 1;
			path->target[path->steps] = (uint16_t)c;
			path->start[path->steps] = SOKO_NONE;
			path->leaves[path->steps++] = (uint16_t)x;
			path->parked++;
			ok = retrieve_from(w, c, left, disc - k, path);
			if (!ok) {
				path->steps--;
				path->parked--;
				w->box[x] = w->parked[x] = 0;
				w->box[c] = 1;
			}
		}
		free(choice);
	}
	if (!ok) {   /* undo the take-outs */
		while (nlog > 0) {
			nlog--;
			int c = log_box[nlog] & 0xfffff;
			w->box[c] = 1;
			w->parked[c] = (log_box[nlog] >> 20) & 1;
			w->used[log_to[nlog]] = 0;
		}
		path->steps = steps0;
		path->parked = parked0;
	}
	return ok;
}

/* One retrieval from the solved position with the player at player,
 * parking at most bound boxes (the search in path), as a limited
 * discrepancy search (the first choice everywhere, then paths that take a
 * later choice at one step, two, ...): the plan's steps in reverse order
 * into out; returns the boxes taken out (all, or fewer when it found no
 * way).  Fewest-parked: once a plan is found, one that parks fewer is
 * asked for while the budget lasts (the last found is kept). */
static int retrieve(struct park_work *w, int player, int bound, struct park_path *path,
		    struct park_path *out)
{
	const struct sokoban *s = w->s;
	size_t n = (size_t)s->cells;
	path->best_left = s->ngoals;
	path->max_parked = bound;
	bool found = false, ok = true;
	while (ok && w->work <= w->budget) {
		memset(w->box, 0, n);
		memset(w->parked, 0, n);
		memset(w->used, 0, n);
		for (int i = 0; i < s->ngoals; i++)
			w->box[s->goals[i]] = 1;
		path->steps = path->parked = 0;
		ok = false;
		for (int disc = 0; disc <= PARK_DISCREPANCIES && !ok && w->work <= w->budget; disc++)
			ok = w->fixed ? soko_park_retrieve_fixed(w, player, s->ngoals, disc, path) :
					retrieve_from(w, player, s->ngoals, disc, path);
		if (!ok)
			break;
		found = true;
		out->steps = path->steps;
		out->parked = path->parked;
		size_t bytes = (size_t)path->steps * sizeof *out->target;
		memcpy(out->target, path->target, bytes);
		memcpy(out->leaves, path->leaves, bytes);
		memcpy(out->start, path->start, bytes);
		/* a plan that parks none needs no parking plan: not asked for */
		if (!fewest_parked || path->parked <= (park_always ? 0 : 1))
			break;
		path->max_parked = path->parked - 1;
	}
	return found ? s->ngoals : s->ngoals - path->best_left;
}

static void work_init(struct park_work *w, const struct sokoban *s)
{
	size_t n = (size_t)s->cells;
	memset(w, 0, sizeof *w);
	w->s = s;
	w->box = lk_xcalloc(n, 1);
	w->parked = lk_xcalloc(n, 1);
	w->used = lk_xcalloc(n, 1);
	w->mark = lk_xcalloc(n, sizeof *w->mark);
	w->seen = lk_xcalloc(n * 4, sizeof *w->seen);
	w->xdone = lk_xcalloc(n, sizeof *w->xdone);
	w->nb = lk_xcalloc(n * 4, 1);
	w->nb_back = lk_xcalloc(n * 4, 1);
	w->queue = lk_xmalloc(n * 4 * sizeof *w->queue);
	w->stack = lk_xmalloc(n * sizeof *w->stack);
	w->budget = PARK_BUDGET;
	w->far = lk_xmalloc(n * sizeof *w->far);
	for (size_t c = 0; c < n; c++)
		w->far[c] = SOKO_INF;
	int head = 0, tail = 0;
	for (int i = 0; i < s->ngoals; i++) {
		w->far[s->goals[i]] = 0;
		w->queue[tail++] = s->goals[i];
	}
	while (head < tail) {
		int c = (int)w->queue[head++];
		for (int d = 0; d < 4; d++) {
			int nc = c + s->off[d];
			if (s->wall[nc] || w->far[nc] != SOKO_INF)
				continue;
			w->far[nc] = (uint16_t)(w->far[c] + 1);
			w->queue[tail++] = (uint32_t)nc;
		}
	}
	w->start_of = lk_xmalloc(n * sizeof *w->start_of);
	w->start_cell = lk_xmalloc(64 * sizeof *w->start_cell);
	for (int k = 0; k < 64; k++)
		w->start_cell[k] = -1;
	int k = 0;
	for (size_t c = 0; c < n; c++) {
		w->start_of[c] = -1;
		if (!s->wall[c] && s->compact[c] >= 0 && soko_bit(s->box0, s->compact[c]) && k < 64) {
			w->start_cell[k] = (int)c;
			w->start_of[c] = k++;
		}
	}
}

static void work_release(struct park_work *w)
{
	free(w->box);
	free(w->parked);
	free(w->used);
	free(w->start_of);
	free(w->start_cell);
	free(w->far);
	free(w->mark);
	free(w->seen);
	free(w->xdone);
	free(w->nb);
	free(w->nb_back);
	free(w->queue);
	free(w->stack);
}

/* The sides of the solved position: the start's, then each other region
 * of free floor touching a goal, at most PARK_SIDES. */
static int find_sides(struct park_work *w, int *sides)
{
	const struct sokoban *s = w->s;
	memset(w->box, 0, (size_t)s->cells);
	for (int i = 0; i < s->ngoals; i++)
		w->box[s->goals[i]] = 1;
	int nsides = 0;
	for (int i = -1; i < s->ngoals && nsides < PARK_SIDES; i++)
		for (int d = 0; d < 4 && nsides < PARK_SIDES; d++) {
			int c = i < 0 ? s->player0 : s->goals[i] + s->off[d];
			if (i < 0 && d > 0)
				break;
			if (s->wall[c] || w->box[c])
				continue;
			bool known = false;
			for (int k = 0; k < nsides && !known; k++) {
				soko_park_flood(w, sides[k]);
				known = w->mark[c] == w->stamp;
			}
			if (!known)
				sides[nsides++] = c;
		}
	return nsides;
}

/* The plan search; fixed_only > 0: playable-plan's run alone (the boxes
 * taken out kept on their start squares), its budgets scaled by it
 * (shuffle-plan, sokoban_parkshuffle.c, asks so from shuffled starts). */
static struct soko_park *park_build(const struct sokoban *s, const uint8_t *doorway,
				    struct soko_stop *stop, uint64_t *refused, bool *retried,
				    double fixed_only)
{
	int ng = s->ngoals;
	if (ng == 0 || ng != s->nboxes || ng > 64)
		return NULL;
	struct park_work w;
	work_init(&w, s);
	w.doorway = doorway;
	w.stop = stop;
	w.playable = s->use[SOKO_T_PLAYABLE_PARK];
	double scale = fixed_only > 0 ? fixed_only : 1;
	if (s->use[SOKO_T_PLAYABLE_PLAN] || fixed_only > 0) {
		w.budget = PARK_BUDGET * PARK_PEEL * scale;
		soko_park_peel_layers(&w);
	}
	int sides[PARK_SIDES], nsides = find_sides(&w, sides);
	size_t room = (size_t)ng * 2 * sizeof(uint16_t);
	struct park_path path = { .target = lk_xmalloc(room), .leaves = lk_xmalloc(room),
				  .start = lk_xmalloc(room) };
	struct park_path out = { .target = lk_xmalloc(room), .leaves = lk_xmalloc(room),
				 .start = lk_xmalloc(room) };
	const uint16_t *target = out.target, *leaves = out.leaves, *start = out.start;
	struct soko_park *best = NULL;
	/* each side in the first order (gates last, farthest first) with
	 * PARK_FIRST of the budget, and only if none gives a complete plan,
	 * each in the second (by pulls alone) with what is left; a run's
	 * share is what the runs before it left, split among those still to
	 * come */
	/* parking-retry: where no side gave a complete plan at all (not
	 * where the plans found park nothing), the plan search runs again
	 * refusing the start squares taken, as playable-parking does; the
	 * refusals send the bounded search down other branches, and a plan
	 * found so can be played (Sasquatch II 21 has one only so) */
	/* playable-plan: first a run that keeps the boxes taken out on their
	 * start squares, so that its plan plays push by push; where it gets
	 * no complete plan, the runs above as without it */
	bool complete = false, retry = s->use[SOKO_T_PARK_RETRY] && !w.playable;
	bool fixed_first = s->use[SOKO_T_PLAYABLE_PLAN] || fixed_only > 0;
	for (int attempt = fixed_first ? 0 : 1; attempt < (fixed_only > 0 ? 1 : 3); attempt++) {
		w.fixed = attempt == 0;
		if (attempt == 1 && (best || complete))
			break;   /* the playable run's answer stands */
		if (attempt == 2) {
			if (!retry || best || complete || soko_stopped(stop))
				break;
			w.playable = true;
		}
		double spent = 0;
		for (int run = 0; run < 2 * nsides && !soko_stopped(stop); run++) {
			int k = run % nsides;
			w.by_pulls = run >= nsides;
			if (run == nsides && best)
				break;
			double total = w.by_pulls ? PARK_BUDGET : PARK_BUDGET * PARK_FIRST;
			if (w.fixed)   /* playable-plan's own run: a share of it */
				total *= PARK_FIXED * scale;
			/* fewest-parked: a side need only beat the best plan so far */
			int bound = best && fewest_parked ? best->nparked - 1 : INT_MAX;
			/* from a shuffled start a plan that parks nothing is kept:
			 * the prelude parked */
			bool any = park_always || fixed_only > 0;
			if (bound < (any ? 0 : 1))
				continue;
			w.work = 0;
			w.budget = (total - spent) / (nsides - k);
			int got = retrieve(&w, sides[k], bound, &path, &out);
			int nsteps = out.steps, nparked = out.parked;
			spent += w.work;
			if (got < ng)
				continue;
			complete = true;
			if ((nparked == 0 && !any) || (best && best->nparked <= nparked))
				continue;
			if (!best)
				best = lk_xcalloc(1, sizeof *best);
			free(best->target);
			free(best->leaves);
			free(best->start);
			free(best->size);
			best->nsteps = nsteps;
			best->nparked = nparked;
			best->playable = w.fixed;
			best->target = lk_xmalloc((size_t)nsteps * sizeof *best->target);
			best->leaves = lk_xmalloc((size_t)nsteps * sizeof *best->leaves);
			best->start = lk_xmalloc((size_t)nsteps * sizeof *best->start);
			best->size = lk_xmalloc((size_t)nsteps * sizeof *best->size);
			/* forwards: the reverse of the retrieval */
			int held = 0;
			for (int i = 0; i < nsteps; i++) {
				best->target[i] = target[nsteps - 1 - i];
				best->leaves[i] = leaves[nsteps - 1 - i];
				best->start[i] = start[nsteps - 1 - i];
				held += best->leaves[i] == SOKO_NONE;
				best->size[i] = (uint16_t)held;
			}
		}
	}
	if (retried)
		*retried = retry && w.playable && best;
	free(path.target);
	free(path.leaves);
	free(path.start);
	free(out.target);
	free(out.leaves);
	free(out.start);
	if (best) {
		best->on_target = lk_xcalloc((size_t)s->cells, 1);
		for (int i = 0; i < best->nsteps; i++)
			best->on_target[best->target[i]] = 1;
	}
	if (refused)   /* playable-parking's own, not a retry's */
		*refused = s->use[SOKO_T_PLAYABLE_PARK] ? w.refused : 0;
	work_release(&w);
	return best;
}

struct soko_park *soko_park_build(const struct sokoban *s, const uint8_t *doorway,
				  struct soko_stop *stop, uint64_t *refused, bool *retried)
{
	return park_build(s, doorway, stop, refused, retried, 0);
}

struct soko_park *soko_park_build_fixed(const struct sokoban *s, const uint8_t *doorway,
					struct soko_stop *stop, double scale)
{
	return park_build(s, doorway, stop, NULL, NULL, scale);
}

void soko_park_free(struct soko_park *p)
{
	if (!p)
		return;
	free(p->target);
	free(p->leaves);
	free(p->start);
	free(p->size);
	free(p->on_target);
	free(p);
}

/*
 * The steps of the plan the boxes in sc have reached: the last step after
 * which every target the plan holds (each step's target, less the parking
 * squares left since) has a box.  Held and missing are counted step by
 * step: a step adds its target and frees the square it leaves.
 */
void soko_park_features(const struct soko_park *p,
			const struct soko_scratch *sc, int nboxes, struct soko_features *f)
{
	int missing = 0, reached = 0;
	for (int i = 0; i < p->nsteps; i++) {
		missing += !sc->box[p->target[i]];
		if (p->leaves[i] != SOKO_NONE)
			missing -= !sc->box[p->leaves[i]];
		if (missing == 0)
			reached = i + 1;
	}
	int on = 0;
	for (int i = 0; i < nboxes; i++)
		on += p->on_target[sc->boxes[i]];
	int held = reached ? p->size[reached - 1] : 0;
	f->packed = (uint8_t)(reached > 255 ? 255 : reached);
	f->out_of_plan = (uint8_t)(on - held > 63 ? 63 : on - held);
}
