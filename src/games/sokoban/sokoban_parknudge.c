/*
 * sokoban_parknudge.c - the parking plan played order-free with box moves
 * between its steps (issue 23; docs/benchmarks.md, section h40o).
 *
 * Order-free play (sokoban_parkfree.c) still brings each box from where
 * the plan left it straight to its next target; on Sasquatch that is
 * rarely possible from the start, because the start cluster must first be
 * loosened (h38a: boxes pushed along the row of start squares and back).
 * Shuffle-plan (sokoban_parkshuffle.c) loosens it with box moves but keeps
 * the plan's order.  Here both: a best-first search over positions whose
 * moves are a step of the plan (any step whose box's earlier steps are
 * done, with goal_order those of its goal area, its target free), or a
 * nudge: one box move (sokoban_boxmoves.c: one box pushed as far as it
 * goes, not onto a dead square or into a freeze deadlock, the position
 * after it not dead by the lower bound) of a box whose route is not
 * finished, at most max_nudges on a way.  Each box keeps its route (the
 * plan's steps of that box), so a position is where each box stands, how
 * many of its route's steps it has done, and the player's floor piece.
 * With routes_free a step may be taken by any box whose route is not
 * finished: the two boxes swap routes, so each route still ends on its
 * goal (the plan's box-to-target assignment was made on an empty level;
 * h40o measured what freeing it gains).  Positions with fewer nudges are
 * expanded first, then those with more steps done; bounded in positions
 * expanded and (box, player) pairs searched.  All steps done is a
 * solution (each box on the goal its route ends on); its box moves, with
 * the player's piece after each, are returned for replay. */
#include <stdlib.h>
#include <string.h>

#include "sokoban_parkplay.h"
#include "sokoban_parkfree.h"

/* The priority of a position: the fewest nudges first, then the most
 * steps (steps first is greedy: it plays what plays at once, then spends
 * the nudges where no further step can follow; docs/benchmarks.md, h40o,
 * measured both). */
#define NUDGE_COST 256

struct nudge {
	struct play pl;
	const struct sokoban *s;
	const struct soko_park *p;
	int n, nch, rec;          /* cells, routes, uint16s a position */
	int *first, *len, *steps; /* route k: steps[first[k] .. first[k] + len[k]) */
	int *route_of, *pos_of;   /* per step: its route, its place on it */
	int *gpred;               /* per step: the goal area's step before (-1) */
	uint64_t *zc, *zn, *zp;   /* hash terms: route x cell, route x done, player */
	uint16_t *pos;            /* positions: cell[nch], next[nch], player, nudges, steps */
	size_t npos, cap;
	uint64_t *table;          /* hashes of the positions kept; 0 empty */
	size_t tmask, nkept;
	int64_t *heap;            /* priority << 32 | position */
	size_t nheap, hcap;
	int32_t *par;             /* per position: the one it came from (-1: the start) */
	uint16_t *mv;             /* per position: its box move, from and to */
	int32_t parent;           /* of the positions keep adds now */
	uint16_t mfrom, mto;
	uint16_t *cur;            /* the position being expanded */
	uint8_t *all;
	int *stack;
};

static uint64_t mix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t hash_of(const struct nudge *g, const uint16_t *q)
{
	uint64_t h = g->zp[q[2 * g->nch]];
	for (int k = 0; k < g->nch; k++)
		h ^= g->zc[(size_t)k * (size_t)g->n + q[k]] ^
		     g->zn[(size_t)k * 256 + q[g->nch + k]];
	return h | 1;
}

static void heap_push(struct nudge *g, int64_t v)
{
	if (g->nheap == g->hcap) {
		g->hcap = g->hcap ? 2 * g->hcap : 1024;
		g->heap = lk_xrealloc(g->heap, g->hcap * sizeof *g->heap);
	}
	size_t i = g->nheap++;
	while (i > 0 && g->heap[(i - 1) / 2] < v) {
		g->heap[i] = g->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	g->heap[i] = v;
}

static int64_t heap_pop(struct nudge *g)
{
	int64_t top = g->heap[0], v = g->heap[--g->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= g->nheap)
			break;
		if (c + 1 < g->nheap && g->heap[c + 1] > g->heap[c])
			c++;
		if (g->heap[c] <= v)
			break;
		g->heap[i] = g->heap[c];
		i = c;
	}
	if (g->nheap)
		g->heap[i] = v;
	return top;
}

/* Keep position q (its player square any of its piece: the lowest is
 * taken) unless met before; false when the table is full. */
static bool keep(struct nudge *g, uint16_t *q)
{
	if (g->nkept * 2 >= g->tmask)
		return false;
	if (!soko_hashset_add(g->table, g->tmask, hash_of(g, q)))
		return true;   /* met before */
	g->nkept++;
	if (g->npos == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->pos = lk_xrealloc(g->pos, g->cap * (size_t)g->rec * sizeof *g->pos);
		g->par = lk_xrealloc(g->par, g->cap * sizeof *g->par);
		g->mv = lk_xrealloc(g->mv, g->cap * 2 * sizeof *g->mv);
	}
	g->par[g->npos] = g->parent;
	g->mv[2 * g->npos] = g->mfrom;
	g->mv[2 * g->npos + 1] = g->mto;
	memcpy(g->pos + g->npos * (size_t)g->rec, q, (size_t)g->rec * sizeof *q);
	int steps = q[2 * g->nch + 2], nudges = q[2 * g->nch + 1];
	heap_push(g, ((int64_t)(steps + NUDGE_COST * (255 - nudges)) << 32) | (int64_t)g->npos);
	g->npos++;
	return true;
}

/* The lowest cell of the floor piece holding c (the boxes as pl.box). */
static int piece_of(struct nudge *g, int c)
{
	memset(g->pl.from, 0, (size_t)g->n);
	g->pl.from[c] = 1;
	soko_play_walk_on(&g->pl);
	int lo = 0;
	while (!g->pl.from[lo])
		lo++;
	return lo;
}

/* The search's key of the board in pl (its boxes, the player's piece). */
static void key_of(const struct nudge *g, uint8_t *key)
{
	const struct sokoban *s = g->s;
	memset(key, 0, s->base.key_size);
	int least = -1;
	for (int c = 0; c < s->cells; c++) {
		if (s->wall[c] || s->compact[c] < 0)
			continue;
		if (g->pl.box[c])
			soko_bit_flip(key + 2, s->compact[c]);
		else if (g->pl.from[c] && (least < 0 || s->compact[c] < s->compact[least]))
			least = c;
	}
	soko_key_set_player(key, least < 0 ? 0 : (unsigned)s->compact[least]);
}

static bool step_ready(const struct nudge *g, const uint16_t *q, int i)
{
	int j = g->gpred[i];
	return j < 0 || q[g->nch + g->route_of[j]] > g->pos_of[j];
}

bool soko_park_nudge_play(const struct sokoban *s, const struct soko_plan *plan,
			  const struct soko_park *p, bool goal_order, bool routes_free,
			  int max_nudges, struct soko_free_result *r)
{
	struct nudge g;
	memset(&g, 0, sizeof g);
	int n = s->cells, m = p->nsteps;
	g.s = s;
	g.p = p;
	g.n = n;
	soko_play_init(&g.pl, s);
	g.route_of = lk_xmalloc((size_t)m * sizeof *g.route_of);
	g.pos_of = lk_xmalloc((size_t)m * sizeof *g.pos_of);
	g.gpred = lk_xmalloc((size_t)m * sizeof *g.gpred);
	g.first = lk_xmalloc((size_t)m * sizeof *g.first);
	g.len = lk_xcalloc((size_t)m, sizeof *g.len);
	g.steps = lk_xmalloc((size_t)m * sizeof *g.steps);
	int *head = lk_xmalloc((size_t)m * sizeof *head);
	/* routes: a step leaving a parking square continues the route of the
	 * last step before it that parked there */
	for (int i = 0; i < m; i++) {
		int k = -1;
		for (int j = i - 1; j >= 0 && k < 0 && p->leaves[i] != SOKO_NONE; j--)
			if (p->target[j] == p->leaves[i])
				k = g.route_of[j];
		if (k < 0)
			head[k = g.nch++] = p->start[i];
		g.route_of[i] = k;
		g.pos_of[i] = g.len[k]++;
		g.gpred[i] = -1;
		int a = plan->area_of[p->target[i]];
		for (int j = i - 1; goal_order && a != SOKO_NONE && j >= 0 && g.gpred[i] < 0; j--)
			if (plan->area_of[p->target[j]] == a)
				g.gpred[i] = j;
	}
	for (int k = 0, at = 0; k < g.nch; k++) {
		g.first[k] = at;
		at += g.len[k];
	}
	for (int i = 0; i < m; i++)
		g.steps[g.first[g.route_of[i]] + g.pos_of[i]] = i;
	g.rec = 2 * g.nch + 3;
	uint64_t seed = 0x2345678ull;
	g.zc = lk_xmalloc((size_t)g.nch * (size_t)n * sizeof *g.zc);
	g.zn = lk_xmalloc((size_t)g.nch * 256 * sizeof *g.zn);
	g.zp = lk_xmalloc((size_t)n * sizeof *g.zp);
	for (size_t i = 0; i < (size_t)g.nch * (size_t)n; i++)
		g.zc[i] = mix(&seed);
	for (size_t i = 0; i < (size_t)g.nch * 256; i++)
		g.zn[i] = mix(&seed);
	for (int c = 0; c < n; c++)
		g.zp[c] = mix(&seed);
	size_t tsize = 1 << 16;
	while (tsize < (size_t)r->max_positions * 64 && tsize < ((size_t)1 << 22))
		tsize <<= 1;
	g.table = lk_xcalloc(tsize, sizeof *g.table);
	g.tmask = tsize - 1;
	g.cur = lk_xmalloc((size_t)g.rec * sizeof *g.cur);
	uint16_t *q = lk_xmalloc((size_t)g.rec * sizeof *q);
	r->played = 0;
	r->nmoves = 0;
	r->moves = NULL;
	r->positions = 0;
	r->stopped = false;
	r->order = lk_xcalloc((size_t)m + 1, sizeof *r->order);
	r->player = lk_xcalloc((size_t)m + 1, sizeof *r->player);
	bool full = false;
	int32_t last = -1;   /* the position with every step done */
	struct soko_movegen gen;
	soko_movegen_init(&gen, s);
	void *mem = lk_xcalloc(1, s->base.scratch_size), *mem2 = lk_xcalloc(1, s->base.scratch_size);
	struct soko_scratch *sc = soko_scratch(s, mem);
	soko_scratch(s, mem2);
	uint8_t *key = lk_xcalloc(1, s->base.key_size), *child = lk_xcalloc(1, s->base.key_size);
	uint8_t *allow = lk_xcalloc((size_t)n, 1);
	if (g.nch > 255 || m > 255)
		goto out;   /* the position's counts are bytes' worth */
	if (max_nudges > 255)
		max_nudges = 255;
	soko_play_start(&g.pl);
	for (int k = 0; k < g.nch; k++) {
		q[k] = (uint16_t)head[k];
		q[g.nch + k] = 0;
	}
	q[2 * g.nch] = (uint16_t)piece_of(&g, s->player0);
	q[2 * g.nch + 1] = q[2 * g.nch + 2] = 0;
	g.parent = -1;
	keep(&g, q);
	while (g.nheap > 0 && !full) {
		if (r->positions >= r->max_positions || g.pl.work >= r->max_work) {
			r->stopped = true;
			break;
		}
		int64_t top = heap_pop(&g);
		g.parent = (int32_t)(top & 0xffffffff);
		memcpy(g.cur, g.pos + (size_t)(top & 0xffffffff) * (size_t)g.rec,
		       (size_t)g.rec * sizeof *g.cur);
		r->positions++;
		const uint16_t *c = g.cur;
		int done = c[2 * g.nch + 2], nudges = c[2 * g.nch + 1];
		if (done > r->played)
			r->played = done;
		memset(g.pl.box, 0, (size_t)n);
		for (int k = 0; k < g.nch; k++)
			g.pl.box[c[k]] = 1;
		for (int k = 0; k < g.nch && !full; k++) {
			if (c[g.nch + k] >= g.len[k])
				continue;
			int i = g.steps[g.first[k] + c[g.nch + k]], t = p->target[i];
			if (!step_ready(&g, c, i) || (t != c[k] && g.pl.box[t]))
				continue;
			/* the step's box, or with routes_free any box whose route
			 * is not finished (the two boxes then swap routes) */
			for (int j = routes_free ? 0 : k; j < (routes_free ? g.nch : k + 1) && !full; j++) {
				int x = c[j];
				if (c[g.nch + j] >= g.len[j] || (j != k && (x == t || c[k] == t)))
					continue;
				/* a step: every piece a way of pushing leaves the player in */
				piece_of(&g, c[2 * g.nch]);
				if (!soko_play_push_to(&g.pl, x, t))
					continue;
				g.all = g.all ? g.all : lk_xmalloc((size_t)n);
				memcpy(g.all, g.pl.from, (size_t)n);
				memcpy(q, c, (size_t)g.rec * sizeof *q);
				q[j] = c[k];
				q[k] = (uint16_t)t;
				q[g.nch + k]++;
				q[2 * g.nch + 2] = (uint16_t)(done + 1);
				full = done + 1 == m;
				g.mfrom = (uint16_t)x;
				g.mto = (uint16_t)t;
				for (int y = 0; y < n; y++) {
					if (!g.all[y])
						continue;
					int lo = piece_of(&g, y);
					for (int z = 0; z < n; z++)
						if (g.pl.from[z])
							g.all[z] = 0;
					q[2 * g.nch] = (uint16_t)lo;
					size_t before = g.npos;
					keep(&g, q);
					if (full && g.npos > before) {
						last = (int32_t)before;   /* all steps done: new */
						break;
					}
				}
				g.pl.box[t] = 0;
				g.pl.box[x] = 1;
			}
		}
		if (full) {
			r->played = m;
			break;
		}
		if (nudges >= max_nudges)
			continue;
		/* nudges: box moves (sokoban_boxmoves.c: dead squares and freeze
		 * deadlocks left out) of the boxes whose route is not finished */
		memset(allow, 0, (size_t)n);
		for (int k = 0; k < g.nch; k++)
			allow[c[k]] = c[g.nch + k] < g.len[k];
		piece_of(&g, c[2 * g.nch]);
		key_of(&g, key);
		int nb = soko_unpack(s, key, sc);
		soko_movegen_reach(&gen, sc, s->cell_of[soko_key_player(key)]);
		size_t nm = soko_box_moves(&gen, sc, nb, allow);
		soko_clear_boxes(s, sc, nb);
		for (size_t i = 0; i < nm; i++) {
			const struct soko_boxmove *mv = &gen.moves[i];
			int k = 0;
			while (k < g.nch && c[k] != mv->from)
				k++;
			memcpy(child, key, s->base.key_size);
			soko_bit_flip(child + 2, s->compact[mv->from]);
			soko_bit_flip(child + 2, s->compact[mv->to]);
			soko_key_set_player(child, mv->player);
			if (k == g.nch || soko_heuristic(&s->base, child, mem2) == LK_H_DEAD)
				continue;
			g.pl.box[mv->from] = 0;
			g.pl.box[mv->to] = 1;
			memcpy(q, c, (size_t)g.rec * sizeof *q);
			q[k] = mv->to;
			g.mfrom = mv->from;
			g.mto = mv->to;
			q[2 * g.nch] = (uint16_t)piece_of(&g, s->cell_of[mv->player]);
			q[2 * g.nch + 1] = (uint16_t)(nudges + 1);
			keep(&g, q);
			g.pl.box[mv->to] = 0;
			g.pl.box[mv->from] = 1;
		}
	}
	if (full && last >= 0) {
		/* the box moves from the start, each with the player's piece after it */
		int len = 0;
		for (int32_t at = last; g.par[at] >= 0; at = g.par[at])
			len++;
		r->nmoves = len;
		r->moves = lk_xmalloc((size_t)(len + 1) * 3 * sizeof *r->moves);
		for (int32_t at = last, i = len - 1; g.par[at] >= 0; at = g.par[at], i--) {
			r->moves[3 * i] = g.mv[2 * at];
			r->moves[3 * i + 1] = g.mv[2 * at + 1];
			r->moves[3 * i + 2] = g.pos[(size_t)at * (size_t)g.rec + 2 * (size_t)g.nch];
		}
	}
out:
	r->work = g.pl.work;
	free(g.par);
	free(g.mv);
	soko_movegen_release(&gen);
	free(mem);
	free(mem2);
	free(key);
	free(child);
	free(allow);
	soko_play_release(&g.pl);
	free(head);
	free(g.route_of);
	free(g.pos_of);
	free(g.gpred);
	free(g.first);
	free(g.len);
	free(g.steps);
	free(g.zc);
	free(g.zn);
	free(g.zp);
	free(g.pos);
	free(g.table);
	free(g.heap);
	free(g.cur);
	free(g.all);
	free(q);
	return full;
}
