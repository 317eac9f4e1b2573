/*
 * sokoban_plan.c - what the search for any solution works out about a
 * level before it starts (the features of a position it steers by, which
 * read the plan, are in sokoban_features.c; Shoham and Schaeffer's FESS,
 * docs/games/sokoban.md, "Hard levels").
 *
 * The packing order is found backwards, by taking the boxes out of the
 * solved position one at a time (Junghanns' and Damgaard's "retrieval"):
 * from every box still on a goal, pull it with the player coming from its
 * own side of the board (where the last box taken out left it: in the
 * level the player walks from each goal it fills to the next, around the
 * boxes already packed) and the other boxes left where they are; of those
 * that can be pulled out into the open (a square that is no goal and
 * touches none), take the one that reaches the most squares.  The player's
 * first side (where it stands when the last box goes in) is each side of
 * the solved position that touches a goal in turn, the start's first, and
 * the retrieval that goes furthest before the player has to be moved
 * elsewhere is kept.  The goals are to be filled in the reverse of that
 * order: the last box out (the deepest in a goal room) goes in first.
 * Goals at most two steps apart form an area, and each area is packed in
 * its own order.
 *
 * packing-entry (a switch): when the start square is on the goal's side
 * (the box taken away), a pulled box counts as out only where the pulls
 * leave the player still on the start's side.  Forwards that is a box
 * brought in from the open by a player who came from the start; without
 * it, a box pulled into a pocket's mouth, the player shut in the pocket
 * behind it by a goal still filled, counts as out, and the order then
 * fills a goal whose only way in that earlier goal closes.  Where no box
 * can be taken out so, the retrieval takes one out as without the test.
 *
 * The plan is built once per level (sokoban_any_budget.c) and every
 * feature-space search of the level reads it through a view of its own
 * (soko_plan_view): the plan is never written once built, and each view
 * holds the features' working memory and its own room links.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any.h"

/* Work of the retrieval's pull searches (square visits) before the
 * packing order gives up and takes the goals as they come, and before the
 * out-of-plan zones are left incomplete. */
#define RETRIEVAL_BUDGET 4e7
#define ZONE_BUDGET 6e7
/* Sides of the solved position the retrieval starts from, at most. */
#define MAX_SIDES 4
/* Squares tried for the zone of a goal: at most this many steps away. */
#define ZONE_REACH 8

/* ---- doorways: articulation points of the floor (Tarjan, iterative) ---- */

static void find_doorways(struct soko_plan *p, const struct sokoban *s)
{
	size_t n = (size_t)s->cells;
	int *disc = lk_xcalloc(n, sizeof *disc), *low = lk_xmalloc(n * sizeof *low);
	int *parent = lk_xmalloc(n * sizeof *parent), *next_dir = lk_xmalloc(n * sizeof *next_dir);
	int *children = lk_xcalloc(n, sizeof *children), *stack = lk_xmalloc(n * sizeof *stack);
	int time = 0;
	p->doorway = lk_xcalloc(n, 1);
	for (int i = 0; i < s->nfloor; i++) {
		int root = s->cell_of[i];
		if (disc[root])
			continue;
		int sp = 0;
		stack[sp++] = root;
		disc[root] = low[root] = ++time;
		parent[root] = -1;
		next_dir[root] = 0;
		while (sp > 0) {
			int c = stack[sp - 1];
			if (next_dir[c] < 4) {
				int nc = c + s->off[next_dir[c]++];
				if (s->wall[nc])
					continue;
				if (!disc[nc]) {
					disc[nc] = low[nc] = ++time;
					parent[nc] = c;
					next_dir[nc] = 0;
					children[c]++;
					stack[sp++] = nc;
				} else if (nc != parent[c] && disc[nc] < low[c]) {
					low[c] = disc[nc];
				}
				continue;
			}
			sp--;
			int up = parent[c];
			if (up < 0)
				continue;
			if (low[c] < low[up])
				low[up] = low[c];
			if (parent[up] >= 0 && low[c] >= disc[up])
				p->doorway[up] = 1;
		}
		if (children[root] > 1)
			p->doorway[root] = 1;
	}
	free(disc);
	free(low);
	free(parent);
	free(next_dir);
	free(children);
	free(stack);
}

/* ---- goal areas ---- */

static int find_root(int *uf, int x)
{
	while (uf[x] != x)
		x = uf[x] = uf[uf[x]];
	return x;
}

/* Goals at most two steps apart over the floor share an area. */
static void group_goals(struct soko_plan *p, const struct sokoban *s)
{
	p->area_of = lk_xmalloc((size_t)s->cells * sizeof *p->area_of);
	p->nareas = soko_goal_areas(s, p->area_of);
}

int soko_goal_areas(const struct sokoban *s, uint16_t *area_of)
{
	size_t n = (size_t)s->cells;
	int ng = s->ngoals;
	int *uf = lk_xmalloc((size_t)(ng ? ng : 1) * sizeof *uf);
	uint16_t *goal_index = lk_xmalloc(n * sizeof *goal_index);
	for (size_t c = 0; c < n; c++)
		goal_index[c] = SOKO_NONE;
	for (int g = 0; g < ng; g++) {
		uf[g] = g;
		goal_index[s->goals[g]] = (uint16_t)g;
	}
	for (int g = 0; g < ng; g++) {
		int a = s->goals[g];
		for (int d = 0; d < 4; d++) {
			int b = a + s->off[d];
			if (s->wall[b])
				continue;
			for (int e = 0; e < 4; e++) {
				int c = e == 0 ? b : b + s->off[e - 1];
				if (c != b && (s->wall[c] || c == a))
					continue;
				if (goal_index[c] != SOKO_NONE) {
					int r1 = find_root(uf, g), r2 = find_root(uf, goal_index[c]);
					if (r1 != r2)
						uf[r1] = r2;
				}
			}
		}
	}
	for (size_t c = 0; c < n; c++)
		area_of[c] = SOKO_NONE;
	int *area_of_root = lk_xmalloc((size_t)(ng ? ng : 1) * sizeof *area_of_root);
	for (int g = 0; g < ng; g++)
		area_of_root[g] = -1;
	int nareas = 0;
	for (int g = 0; g < ng; g++) {
		int r = find_root(uf, g);
		if (area_of_root[r] < 0)
			area_of_root[r] = nareas++;
		area_of[s->goals[g]] = (uint16_t)area_of_root[r];
	}
	free(area_of_root);
	free(uf);
	free(goal_index);
	return nareas;
}

/* ---- the packing order ---- */

struct retrieval {
	const struct sokoban *s;
	uint8_t *filled;         /* per cell: a box on this goal still */
	uint8_t *box;            /* per cell: filled, plus the box being pulled */
	uint32_t *mark, stamp;   /* player floods */
	uint32_t *seen, seen_stamp;
	uint8_t *reached;        /* per cell: the pulled box stood here */
	uint32_t *queue;
	uint16_t *stack;
	double work, budget;
	int player;              /* a square of the player's side */
	struct soko_stop *stop;  /* NULL: never */
	/* packing-entry: a box is out only where the pulls leave the player
	 * with the start square `home` (when the goal's side holds it); how
	 * many pulled positions (box square and player side) in the open it
	 * refused so */
	bool use_home;
	int home;
	uint64_t refused;
	/* replan: per cell, goals to fill late (taken out first), or NULL;
	 * while set, only those are tried */
	const uint8_t *late;
	bool late_only;
};

static uint32_t fresh(uint32_t *mark, uint32_t *stamp, size_t n)
{
	if (++*stamp == 0) {
		memset(mark, 0, n * sizeof *mark);
		*stamp = 1;
	}
	return *stamp;
}

static uint32_t flood(struct retrieval *r, int from)
{
	const struct sokoban *s = r->s;
	uint32_t st = fresh(r->mark, &r->stamp, (size_t)s->cells);
	int sp = 0;
	if (soko_stopped(r->stop))
		r->budget = -1;   /* every budget test fails from here on */
	r->mark[from] = st;
	r->stack[sp++] = (uint16_t)from;
	while (sp > 0) {
		int c = r->stack[--sp];
		r->work++;
		for (int d = 0; d < 4; d++) {
			int nc = c + s->off[d];
			if ((s->wall[nc] | r->box[nc]) || r->mark[nc] == st)
				continue;
			r->mark[nc] = st;
			r->stack[sp++] = (uint16_t)nc;
		}
	}
	return st;
}

/* Is cell in the open: no goal, and no filled goal beside it? */
static bool open_square(const struct sokoban *s, const struct retrieval *r, int c)
{
	if (s->goal[c])
		return false;
	for (int d = 0; d < 4; d++)
		if (r->filled[c + s->off[d]])
			return false;
	return true;
}

/* Pull the box on goal g with the player starting in the area `outside`
 * (flood stamp st of r->mark, taken with the box on g), or anywhere when
 * st is 0.  Returns the number of squares the box reaches if it reaches
 * one in the open (any non-goal square when lenient), else -1. */
static int pull_out(struct retrieval *r, int g, uint32_t st, bool lenient)
{
	const struct sokoban *s = r->s;
	size_t n = (size_t)s->cells;
	uint32_t seen = fresh(r->seen, &r->seen_stamp, n * 4);
	int head = 0, tail = 0, squares = 0;
	bool out = false;
	memset(r->reached, 0, n);
	for (int e = 0; e < 4; e++) {
		int p = g + s->off[e], q = p + s->off[e];
		if ((s->wall[p] | r->box[p]) || (s->wall[q] | r->box[q]) || (st && r->mark[p] != st))
			continue;
		r->seen[p * 4 + e] = seen;
		r->queue[tail++] = (uint32_t)p * 4 + (uint32_t)e;
	}
	r->box[g] = 0;
	/* packing-entry: the start's side holds the goal (the box taken
	 * away), so a box brought in from the open comes with the player
	 * from there, and a square where the pulls leave the player shut off
	 * from it (in a pocket the box closes) is no way in */
	bool home = false;
	if (r->use_home && head < tail) {
		uint32_t hs = flood(r, r->home);
		home = r->mark[g] == hs;
	}
	while (head < tail && r->budget >= 0) {   /* budget -1: stopped */
		int x = (int)(r->queue[head] >> 2), e = (int)(r->queue[head] & 3);
		head++;
		if (!r->reached[x]) {
			r->reached[x] = 1;
			squares++;
		}
		bool in_open = !out && (lenient ? !s->goal[x] : open_square(s, r, x));
		r->box[x] = 1;
		uint32_t reach = flood(r, x + s->off[e]);
		if (in_open && (!home || r->mark[r->home] == reach))
			out = true;
		else if (in_open)
			r->refused++;
		r->box[x] = 0;
		for (int f = 0; f < 4; f++) {
			int p = x + s->off[f], q = p + s->off[f];
			if (r->mark[p] != reach || (s->wall[q] | r->box[q]) || r->seen[p * 4 + f] == seen)
				continue;
			r->seen[p * 4 + f] = seen;
			r->queue[tail++] = (uint32_t)p * 4 + (uint32_t)f;
		}
	}
	r->box[g] = 1;
	return out ? squares : -1;
}

/* The goal to take out next, or -1: pulled by the player from where it
 * stands (r->player's side), or from anywhere. */
static int next_out(struct retrieval *r, bool lenient, bool anywhere)
{
	const struct sokoban *s = r->s;
	uint32_t st = anywhere ? 0 : flood(r, r->player);
	int best = -1, best_score = -1;
	for (int i = 0; i < s->ngoals; i++) {
		int g = s->goals[i];
		if (!r->filled[g] || (r->late_only && !r->late[g]))
			continue;
		/* the stamp is taken again for each goal: pull_out floods */
		uint32_t here = anywhere ? 0 : st;
		int score = pull_out(r, g, here, lenient);
		if (!anywhere)
			st = flood(r, r->player);
		if (score > best_score) {
			best = g;
			best_score = score;
		}
		if (r->work > r->budget)
			return -1;
	}
	return best;
}

static void retrieval_init(struct retrieval *r, const struct sokoban *s)
{
	size_t n = (size_t)s->cells;
	memset(r, 0, sizeof *r);
	r->s = s;
	r->filled = lk_xcalloc(n, 1);
	r->box = lk_xcalloc(n, 1);
	r->mark = lk_xcalloc(n, sizeof *r->mark);
	r->seen = lk_xcalloc(n * 4, sizeof *r->seen);
	r->reached = lk_xmalloc(n);
	r->queue = lk_xmalloc(n * 4 * sizeof *r->queue);
	r->stack = lk_xmalloc(n * sizeof *r->stack);
}

static void retrieval_release(struct retrieval *r)
{
	free(r->filled);
	free(r->box);
	free(r->mark);
	free(r->seen);
	free(r->reached);
	free(r->queue);
	free(r->stack);
}

/* Take the boxes out of the solved position with the player starting on
 * the side of square `from`, into order (the last out first): the goals
 * ordered, and in *kept how many before the player first had to be moved
 * elsewhere (the retrieval found no box its side could pull out). */
static int retrieve(struct retrieval *r, int from, uint16_t *order, int *kept)
{
	const struct sokoban *s = r->s;
	size_t n = (size_t)s->cells;
	memset(r->filled, 0, n);
	memset(r->box, 0, n);
	for (int i = 0; i < s->ngoals; i++)
		r->filled[s->goals[i]] = r->box[s->goals[i]] = 1;
	r->player = from;
	int left = s->ngoals;
	*kept = -1;
	while (left > 0) {
		int g = -1, k = 0;
		/* replan: a late goal out first, from the player's side, wherever
		 * one can be (so filled after every goal taken out after it) */
		r->late_only = r->late != NULL;
		for (int j = 0; r->late_only && j < 2 && g < 0 && r->work <= r->budget; j++)
			g = next_out(r, j >= 1, false);
		r->late_only = false;
		for (; k < 3 && g < 0 && r->work <= r->budget; k++)
			g = next_out(r, k >= 1, k >= 2);
		if (g < 0 && r->use_home) {   /* no way in so: as without the test */
			r->use_home = false;
			for (k = 0; k < 3 && g < 0 && r->work <= r->budget; k++)
				g = next_out(r, k >= 1, k >= 2);
			r->use_home = true;
		}
		if (g < 0)
			break;
		if (k == 3 && *kept < 0)
			*kept = s->ngoals - left;
		r->filled[g] = r->box[g] = 0;
		order[--left] = (uint16_t)g;
		/* the player leaves where the box went: the goal's side */
		r->player = g;
	}
	if (*kept < 0)
		*kept = s->ngoals - left;
	return s->ngoals - left;
}

/*
 * Where the player stands when the last box goes in is free, but from then
 * back it must walk from each goal it filled to the next (the retrieval's
 * player stays on the side of the goal it last emptied).  Each side of the
 * solved position that touches a goal is tried, the start's first, and the
 * one whose retrieval goes furthest before the player must be moved
 * elsewhere is taken (the start's side on a tie).
 */
static void packing_order(struct soko_plan *p, const struct sokoban *s, struct soko_stop *stop,
			  const uint8_t *late)
{
	struct retrieval r;
	retrieval_init(&r, s);
	r.stop = stop;
	r.late = late;
	size_t n = (size_t)s->cells;
	int ng = s->ngoals;
	r.use_home = s->use[SOKO_T_PACK_ENTRY] && !s->goal[s->player0];
	r.home = s->player0;
	uint64_t refused = 0;
	/* the sides: the player0's first, then each other one touching a goal */
	int sides[MAX_SIDES], nsides = 0;
	for (int i = 0; i < ng; i++)
		r.box[s->goals[i]] = 1;
	uint32_t *side_of = lk_xcalloc(n, sizeof *side_of);
	int candidates[MAX_SIDES * 4 + 1], ncand = 0;
	candidates[ncand++] = s->player0;
	for (int i = 0; i < ng && ncand <= MAX_SIDES * 4; i++)
		for (int d = 0; d < 4 && ncand <= MAX_SIDES * 4; d++) {
			int c = s->goals[i] + s->off[d];
			if (!s->wall[c] && !r.box[c])
				candidates[ncand++] = c;
		}
	for (int i = 0; i < ncand && nsides < MAX_SIDES; i++) {
		int c = candidates[i];
		if (r.box[c] || side_of[c])
			continue;
		uint32_t st = flood(&r, c);
		for (size_t x = 0; x < n; x++)
			if (r.mark[x] == st)
				side_of[x] = (uint32_t)nsides + 1;
		sides[nsides++] = c;
	}
	free(side_of);
	uint16_t *order = lk_xmalloc((size_t)(ng ? ng : 1) * sizeof *order);
	int best_kept = -1, best_ordered = 0;
	long best_lateness = -1;
	for (int i = 0; i < nsides && !soko_stopped(stop); i++) {
		r.work = 0;
		r.refused = 0;
		r.budget = RETRIEVAL_BUDGET / nsides;
		int kept, ordered = retrieve(&r, sides[i], order, &kept);
		/* replan: the side whose order fills the late goals latest (the
		 * sum of their places), then as without */
		long lateness = 0;
		for (int j = ng - ordered; late && j < ng; j++)
			if (late[order[j]])
				lateness += j;
		if (lateness > best_lateness || (lateness == best_lateness && kept > best_kept)) {
			best_lateness = lateness;
			refused = r.refused;
			best_kept = kept;
			best_ordered = ordered;
			memcpy(p->order, order, (size_t)ng * sizeof *order);
		}
	}
	if (nsides == 0) {   /* the start walled in by goals alone and no side */
		r.work = 0;
		r.refused = 0;
		r.budget = RETRIEVAL_BUDGET;
		best_ordered = retrieve(&r, s->player0, p->order, &best_kept);
		refused = r.refused;
	}
	p->entry_refused = refused;
	free(order);
	p->ordered = best_ordered;
	/* Whatever could not be ordered goes first, as the goals come. */
	int left = ng - best_ordered;
	if (left > 0) {
		uint8_t *in = lk_xcalloc(n, 1);
		for (int i = left; i < ng; i++)
			in[p->order[i]] = 1;
		int k = 0;
		for (int i = 0; i < ng; i++)
			if (!in[s->goals[i]])
				p->order[k++] = s->goals[i];
		free(in);
	}
	retrieval_release(&r);
}

/*
 * Out of plan: for each goal of an area's packing order, with the goals
 * before it filled, the squares near it where a box would stop a box being
 * brought onto it from the open (the pull of the retrieval fails with a
 * box there).  A box on such a square is in the way of the plan.
 */
static void out_of_plan_zones(struct soko_plan *p, const struct sokoban *s, struct soko_stop *stop)
{
	size_t n = (size_t)s->cells;
	p->zone_bytes = ((size_t)s->nfloor + 7) / 8;
	p->zone = lk_xcalloc((size_t)(p->ngoals ? p->ngoals : 1), sizeof *p->zone);
	struct retrieval r;
	retrieval_init(&r, s);
	r.stop = stop;
	uint16_t *dist = lk_xmalloc(n * sizeof *dist), *queue = lk_xmalloc(n * sizeof *queue);
	for (int a = 0; a < p->nareas; a++) {
		for (int i = p->area_first[a]; i < p->area_first[a + 1]; i++) {
			int t = p->area_goals[i];
			p->zone[i] = lk_xcalloc(p->zone_bytes, 1);
			memset(r.filled, 0, n);
			memset(r.box, 0, n);
			for (int j = p->area_first[a]; j < i; j++)
				r.filled[p->area_goals[j]] = r.box[p->area_goals[j]] = 1;
			r.box[t] = 1;
			/* the test as strict as the goal allows */
			bool lenient = false;
			uint32_t st = flood(&r, s->player0);
			if (pull_out(&r, t, st, false) < 0) {
				lenient = true;
				st = flood(&r, s->player0);
				if (pull_out(&r, t, st, true) < 0)
					continue;
			}
			/* the squares within reach of t */
			for (size_t c = 0; c < n; c++)
				dist[c] = SOKO_NONE;
			int head = 0, tail = 0;
			dist[t] = 0;
			queue[tail++] = (uint16_t)t;
			while (head < tail && r.work < ZONE_BUDGET && r.budget >= 0) {
				int c = queue[head++];
				if (c != t && !r.box[c]) {
					r.box[c] = 1;
					uint32_t st2 = flood(&r, s->player0);
					if (r.mark[s->player0] == st2 && pull_out(&r, t, st2, lenient) < 0)
						p->zone[i][s->compact[c] >> 3] |= (uint8_t)(1u << (s->compact[c] & 7));
					r.box[c] = 0;
				}
				if (dist[c] >= ZONE_REACH)
					continue;
				for (int d = 0; d < 4; d++) {
					int nc = c + s->off[d];
					if (s->wall[nc] || dist[nc] != SOKO_NONE)
						continue;
					dist[nc] = (uint16_t)(dist[c] + 1);
					queue[tail++] = (uint16_t)nc;
				}
			}
		}
	}
	free(dist);
	free(queue);
	retrieval_release(&r);
	/* the zones as lists: a child's boxes in the way are counted over
	 * its zone's few squares, not over every box (sokoban_features.c) */
	size_t ng = (size_t)(p->ngoals ? p->ngoals : 1), total = 0;
	p->zone_first = lk_xcalloc(ng + 1, sizeof *p->zone_first);
	p->zone_packed = lk_xcalloc(ng, sizeof *p->zone_packed);
	for (int i = 0; i < p->ngoals; i++)
		for (int k = 0; p->zone[i] && k < s->nfloor; k++)
			total += p->zone[i][k >> 3] >> (k & 7) & 1;
	p->zone_cells = lk_xmalloc((total ? total : 1) * sizeof *p->zone_cells);
	total = 0;
	for (int a = 0; a < p->nareas; a++)
		for (int i = p->area_first[a]; i < p->area_first[a + 1]; i++) {
			p->zone_first[i] = (uint32_t)total;
			for (int k = 0; p->zone[i] && k < s->nfloor; k++)
				if (p->zone[i][k >> 3] >> (k & 7) & 1)
					p->zone_cells[total++] = (uint16_t)s->cell_of[k];
			for (int j = p->area_first[a]; p->zone[i] && j < i; j++) {
				int g = s->compact[p->area_goals[j]];
				p->zone_packed[i] = (uint16_t)(p->zone_packed[i] +
							       (p->zone[i][g >> 3] >> (g & 7) & 1));
			}
		}
	p->zone_first[p->ngoals] = (uint32_t)total;
}

/* Hotspots: with a box on y and no other box, which squares x can no
 * longer bring a box to any goal (they could before)?  One multi-source
 * pull search from the goals per y. */
static void find_cuts(struct soko_plan *p, const struct sokoban *s)
{
	size_t n = (size_t)s->cells, nf = (size_t)s->nfloor;
	p->nfloor = s->nfloor;
	p->cuts = lk_xcalloc(nf * nf, 1);
	p->cut_words = nf / 64 + 1;
	p->cut_bits = lk_xcalloc(nf * p->cut_words, sizeof *p->cut_bits);
	uint8_t *reach = lk_xmalloc(n);
	uint16_t *queue = lk_xmalloc(n * sizeof *queue);
	for (size_t yi = 0; yi < nf; yi++) {
		int y = s->cell_of[yi];
		memset(reach, 0, n);
		int head = 0, tail = 0;
		for (int g = 0; g < s->ngoals; g++)
			if (s->goals[g] != y) {
				reach[s->goals[g]] = 1;
				queue[tail++] = s->goals[g];
			}
		while (head < tail) {
			int c = queue[head++];
			for (int d = 0; d < 4; d++) {
				int x = c - s->off[d], pl = x - s->off[d];
				if (s->wall[x] || s->wall[pl] || x == y || pl == y || reach[x])
					continue;
				reach[x] = 1;
				queue[tail++] = (uint16_t)x;
			}
		}
		for (size_t xi = 0; xi < nf; xi++) {
			int x = s->cell_of[xi];
			if ((int)xi != (int)yi && !s->dead[x] && !reach[x]) {
				p->cuts[yi * nf + xi] = 1;
				p->cut_bits[yi * p->cut_words + xi / 64] |= (uint64_t)1 << (xi % 64);
			}
		}
	}
	free(reach);
	free(queue);
}

void soko_plan_build(struct soko_plan *p, const struct sokoban *s, bool use_order,
		     struct soko_stop *stop)
{
	soko_plan_build_late(p, s, use_order, stop, NULL);
}

void soko_plan_build_late(struct soko_plan *p, const struct sokoban *s, bool use_order,
			  struct soko_stop *stop, const uint8_t *late)
{
	size_t n = (size_t)s->cells;
	int ng = s->ngoals;
	memset(p, 0, sizeof *p);
	p->ngoals = ng;
	p->order = lk_xmalloc((size_t)(ng ? ng : 1) * sizeof *p->order);
	p->rank = lk_xmalloc(n * sizeof *p->rank);
	p->mark = lk_xcalloc(n, sizeof *p->mark);
	p->stack = lk_xmalloc(n * sizeof *p->stack);
	find_doorways(p, s);
	if (use_order) {
		group_goals(p, s);
		packing_order(p, s, stop, late);
	} else {
		p->area_of = lk_xmalloc(n * sizeof *p->area_of);
		for (size_t c = 0; c < n; c++)
			p->area_of[c] = SOKO_NONE;
		for (int g = 0; g < ng; g++) {
			p->order[g] = s->goals[g];
			p->area_of[s->goals[g]] = (uint16_t)g;
		}
		p->nareas = ng;
	}
	for (size_t c = 0; c < n; c++)
		p->rank[c] = SOKO_NONE;
	for (int i = 0; i < ng; i++)
		p->rank[p->order[i]] = (uint16_t)i;
	/* each area's goals, in packing order */
	p->area_first = lk_xcalloc((size_t)p->nareas + 1, sizeof *p->area_first);
	p->area_goals = lk_xmalloc((size_t)(ng ? ng : 1) * sizeof *p->area_goals);
	for (int i = 0; i < ng; i++)
		p->area_first[p->area_of[p->order[i]] + 1]++;
	for (int a = 0; a < p->nareas; a++)
		p->area_first[a + 1] = (uint16_t)(p->area_first[a + 1] + p->area_first[a]);
	uint16_t *fill = lk_xmalloc((size_t)(p->nareas ? p->nareas : 1) * sizeof *fill);
	memcpy(fill, p->area_first, (size_t)p->nareas * sizeof *fill);
	for (int i = 0; i < ng; i++)
		p->area_goals[fill[p->area_of[p->order[i]]]++] = p->order[i];
	free(fill);
	find_cuts(p, s);
	if (use_order)
		out_of_plan_zones(p, s, stop);
	p->park = use_order && s->use[SOKO_T_PARKING] ?
		  soko_park_build(s, p->doorway, stop, &p->park_refused, &p->park_retried) : NULL;
	if (p->park && s->use[SOKO_T_PLAN_REPAIR]) {
		struct soko_park *mended = soko_park_repair(s, p->park, stop, true, NULL, NULL);
		if (mended) {
			soko_park_free(p->park);
			p->park = mended;
		}
	}
	if (p->park && s->use[SOKO_T_SHUFFLE_PLAN] && soko_park_play(s, p->park, NULL) >= 0) {
		struct soko_park *shuffled = soko_park_shuffle(s, p->park, p->doorway, stop, NULL, NULL, NULL);
		if (shuffled) {
			soko_park_free(p->park);
			p->park = shuffled;
		}
	}
	p->rooms = s->use[SOKO_T_ROOMS] ? soko_rooms_new(s) : NULL;
	if (p->rooms && p->rooms->base_links == 0) {   /* no link to cut: doorways instead */
		soko_rooms_free(p->rooms);
		p->rooms = NULL;
	}
}

void soko_plan_view(struct soko_plan *p, const struct soko_plan *from, const struct sokoban *s)
{
	size_t n = (size_t)s->cells;
	*p = *from;
	p->shared = true;
	/* the working memory, as soko_plan_build leaves it */
	p->mark = lk_xcalloc(n, sizeof *p->mark);
	p->stamp = 0;
	p->stack = lk_xmalloc(n * sizeof *p->stack);
	p->cutters = p->cut_boxes = p->cut_gone = p->cut_come = NULL;
	p->cut_off = NULL;
	p->cut_n = 0;
	p->rooms = from->rooms ? soko_rooms_new(s) : NULL;
}

void soko_plan_release(struct soko_plan *p)
{
	if (!p->shared) {   /* a view only reads these from the plan it views */
		free(p->order);
		free(p->rank);
		free(p->area_of);
		free(p->area_first);
		free(p->area_goals);
		free(p->doorway);
		free(p->cuts);
		free(p->cut_bits);
		for (int i = 0; p->zone && i < p->ngoals; i++)
			free(p->zone[i]);
		free(p->zone);
		free(p->zone_cells);
		free(p->zone_first);
		free(p->zone_packed);
		soko_park_free(p->park);
	}
	soko_rooms_free(p->rooms);
	free(p->cutters);
	free(p->cut_boxes);
	free(p->cut_off);
	free(p->mark);
	free(p->stack);
	memset(p, 0, sizeof *p);
}
