/*
 * sokoban_parkshuffle.c - shuffle-plan: a prelude of box moves from the
 * level's start after which the parking plan (sokoban_park.c) plays push
 * by push (solve -a any; docs/games/sokoban.md, "Shuffle plan").
 *
 * The retrieval works the plan out backwards with the boxes it has taken
 * out lifted off the board, so play's first step is worked out on an
 * empty level: in play (sokoban_parkplay.c) its box runs into the boxes
 * still on their start squares, and on Sasquatch nearly every plan fails
 * at its first step.  Plan-repair (sokoban_parkrepair.c) mends single
 * steps; what the start clusters need is a shuffle inside them, boxes
 * pushed out of one another's way before the plan's first step, two or
 * more boxes in turn.  Here that shuffle is searched for: a best-first
 * search over box moves (sokoban_boxmoves.c, so dead squares and freeze
 * deadlocks are left out; positions the lower bound proves dead too) from
 * the level's start.  After each move the plan's next steps are played
 * push by push as far as they go, so shuffles may come between steps too;
 * a box a shuffle moved leaves, in its next step, from where the shuffle
 * left it (boxes are named by their start squares to follow them), and
 * only a box with a step still to come is moved (one whose steps are done
 * stands on its goal, and no step would bring it back).  Shuffles may
 * stand a box on a goal for a while (Sasquatch I 11's cluster needs it).
 * A position is keyed by its boxes, its player and the steps played; the
 * one whose plan plays furthest comes next (then the fewest moves), and
 * the search ends at a plan that plays to its end, or at its bounds:
 * SHUFFLE_POSITIONS positions, SHUFFLE_DEPTH moves, SHUFFLE_WORK (box,
 * player) pairs of the play searches, and the plan's stop.  Where none
 * plays to its end, playable-plan's retrieval (sokoban_parkfix.c) is run
 * from the first SHUFFLE_PLANS positions stored as from starts of their
 * own, and the shuffle followed by its plan kept when that plays from the
 * level's start to its end.  The plan returned is the shuffles as
 * parking steps among the plan's steps, a plan of the same kind as the
 * retrieval's (each box taken in from its start once, every parking
 * square left later), so the features read it unchanged.
 *
 * It only steers the search (it prunes no move itself); park deadlocks
 * cut moves under the plan in force, and a first search that runs dry
 * after such cuts is run again without them (sokoban_any_budget.c).
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_parkplay.h"

/* Positions stored, box moves from the start, and (box, player) pairs
 * the play searches visit, at most. */
#define SHUFFLE_POSITIONS 5000
#define SHUFFLE_DEPTH 12
#define SHUFFLE_WORK 2e7
/* The play takes eight bytes per (box, player) pair of cells, as
 * plan-repair's. */
#define SHUFFLE_MAX_CELLS 1400
/* Where no shuffle lets the plan play: shuffled positions from which
 * playable-plan's run is tried, at most, and its budgets' scale. */
#define SHUFFLE_PLANS 8
#define SHUFFLE_SCALE 0.25

/* A shuffled plan is kept only when it plays to its end, unless built
 * with SHUFFLE_PARTIAL 1 (then when it plays further than the plan:
 * docs/benchmarks.md, h39b, measured both). */
#ifndef SHUFFLE_PARTIAL
#define SHUFFLE_PARTIAL 0
#endif

/* A position of the search: the box move that made it out of its parent
 * (none for the start), then the plan's steps it played. */
struct node {
	uint16_t from, to;        /* the shuffle (from == to: none) */
	uint16_t k0, k;           /* plan steps done before the shuffle, after the steps */
	uint16_t depth;           /* shuffles from the start */
};

struct shuf {
	const struct sokoban *s;
	const struct soko_park *p;
	struct play pl;
	struct lk_table t;
	size_t ks;                /* the level's key size (the table's: 2 more, k) */
	struct node *node;        /* per position */
	size_t alloc;
	uint64_t *heap;           /* positions to expand, best first */
	size_t nheap, heap_alloc;
	int *box_of;              /* per plan step: its box (the box's start square) */
	int *last_step;           /* per start square: the last step of its box */
	int *id_on;               /* per cell: the box on it (its start square), -1 */
	int *pos;                 /* per start square: where its box stands */
	uint32_t *path;           /* a position's ancestors, the start first */
};

static void heap_push(struct shuf *h, uint64_t v)
{
	LK_ALLOC_GROW(h->heap, h->nheap + 1, h->heap_alloc);
	size_t i = h->nheap++;
	while (i > 0 && h->heap[(i - 1) / 2] > v) {
		h->heap[i] = h->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->heap[i] = v;
}

static uint64_t heap_pop(struct shuf *h)
{
	uint64_t top = h->heap[0], v = h->heap[--h->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->nheap)
			break;
		if (c + 1 < h->nheap && h->heap[c + 1] < h->heap[c])
			c++;
		if (h->heap[c] >= v)
			break;
		h->heap[i] = h->heap[c];
		i = c;
	}
	if (h->nheap)
		h->heap[i] = v;
	return top;
}

static bool start_box(const struct sokoban *s, int c)
{
	return !s->wall[c] && s->compact[c] >= 0 && soko_bit(s->box0, s->compact[c]);
}

/* Which box each plan step moves (boxes named by their start squares). */
static void name_boxes(struct shuf *h)
{
	const struct soko_park *p = h->p;
	for (int c = 0; c < h->s->cells; c++)
		h->id_on[c] = -1;
	for (int i = 0; i < p->nsteps; i++) {
		int id = p->leaves[i] == SOKO_NONE ? p->start[i] : h->id_on[p->leaves[i]];
		h->box_of[i] = id;
		h->last_step[id] = i;
		h->id_on[p->target[i]] = id;
	}
}

/* The ancestors of position id, the start first, into h->path; returns
 * how many (id last). */
static int path_of(struct shuf *h, uint32_t id)
{
	int n = h->node[id].depth + 1;
	for (int k = n; k-- > 0; id = lk_table_parent(&h->t, id))
		h->path[k] = id;
	return n;
}

/* Move the box on from to to in id_on[] and pos[]. */
static void move_id(struct shuf *h, int from, int to)
{
	int id = h->id_on[from];
	h->id_on[from] = -1;
	h->id_on[to] = id;
	h->pos[id] = to;
}

/* id_on[] and pos[] as the level's start has its boxes. */
static void start_boxes(struct shuf *h)
{
	const struct sokoban *s = h->s;
	for (int c = 0; c < s->cells; c++) {
		h->id_on[c] = start_box(s, c) ? c : -1;
		h->pos[c] = c;
	}
}

/* id_on[] and pos[] as position id leaves the boxes. */
static void boxes_of(struct shuf *h, uint32_t id)
{
	start_boxes(h);
	int n = path_of(h, id);
	for (int j = 0; j < n; j++) {
		const struct node *x = &h->node[h->path[j]];
		if (x->from != x->to)
			move_id(h, x->from, x->to);
		for (int i = x->k0; i < x->k; i++)
			move_id(h, h->pos[h->box_of[i]], h->p->target[i]);
	}
}

/* Play the plan's steps from step k on, the board in h->pl, as far as
 * they play push by push (moving id_on[] and pos[] along); returns the
 * steps then done. */
static int play_on(struct shuf *h, int k)
{
	struct play *pl = &h->pl;
	for (; k < h->p->nsteps; k++) {
		int src = h->pos[h->box_of[k]], t = h->p->target[k];
		if (t != src && (pl->box[t] || !soko_play_push_to(pl, src, t)))
			break;
		if (t != src)
			move_id(h, src, t);
	}
	return k;
}

static uint64_t rank(const struct shuf *h, uint32_t id)
{
	const struct node *x = &h->node[id];
	return (uint64_t)(h->p->nsteps - x->k) << 48 | (uint64_t)x->depth << 32 | id;
}

/* Step k of plan q: the box on src to t (a box is fresh, taken in from
 * its start square, until its first move); returns the steps written, 0
 * for a box moved before that stands on t already (it needs no step). */
static int emit(struct shuf *h, struct soko_park *q, uint8_t *moved, int k, int src, int t,
		int *held)
{
	int box = h->id_on[src];
	bool fresh = !moved[box];
	if (!fresh && src == t)
		return 0;
	q->target[k] = (uint16_t)t;
	q->leaves[k] = fresh ? SOKO_NONE : (uint16_t)src;
	q->start[k] = fresh ? (uint16_t)src : SOKO_NONE;
	*held += fresh;
	q->size[k] = (uint16_t)*held;
	q->on_target[t] = 1;
	moved[box] = 1;
	if (t != src)
		move_id(h, src, t);
	return 1;
}

/* The plan of position id: its shuffles as parking steps among the
 * plan's steps it played, each step's box leaving from where the moves
 * before left it; with rest, then the plan's steps left, so remapped.
 * Leaves id_on[] and pos[] as the last step leaves the boxes. */
static struct soko_park *plan_of(struct shuf *h, uint32_t id, bool rest)
{
	const struct sokoban *s = h->s;
	const struct soko_park *p = h->p;
	int n = path_of(h, id), m = p->nsteps + h->node[id].depth;
	struct soko_park *q = lk_xcalloc(1, sizeof *q);
	q->nparked = p->nparked + h->node[id].depth;
	q->playable = p->playable;
	q->repaired = p->repaired;
	q->shuffled = true;
	q->target = lk_xmalloc((size_t)m * sizeof *q->target);
	q->leaves = lk_xmalloc((size_t)m * sizeof *q->leaves);
	q->start = lk_xmalloc((size_t)m * sizeof *q->start);
	q->size = lk_xmalloc((size_t)m * sizeof *q->size);
	q->on_target = lk_xcalloc((size_t)s->cells, 1);
	start_boxes(h);
	int k = 0, held = 0;
	uint8_t *moved = lk_xcalloc((size_t)s->cells, 1);
	for (int j = 0; j < n; j++) {
		const struct node *x = &h->node[h->path[j]];
		if (x->from != x->to)
			k += emit(h, q, moved, k, x->from, x->to, &held);
		for (int i = x->k0; i < x->k; i++)
			k += emit(h, q, moved, k, h->pos[h->box_of[i]], p->target[i], &held);
	}
	for (int i = h->node[id].k; rest && i < p->nsteps; i++)
		k += emit(h, q, moved, k, h->pos[h->box_of[i]], p->target[i], &held);
	q->nsteps = k;
	free(moved);
	return q;
}

/* The plan of position id followed by plan r, built from that position
 * (its start squares the boxes there): a box the moves to id moved
 * leaves from where they left it. */
static struct soko_park *plan_then(struct shuf *h, uint32_t id, const struct soko_park *r)
{
	const struct sokoban *s = h->s;
	struct soko_park *q = plan_of(h, id, false);   /* id_on[] as id has it */
	uint8_t *moved = lk_xcalloc((size_t)s->cells, 1);
	for (int i = 0; i < q->nsteps; i++)
		if (q->leaves[i] == SOKO_NONE)
			moved[q->start[i]] = 1;
	int m0 = q->nsteps, m = m0 + r->nsteps, held = m0 ? q->size[m0 - 1] : 0;
	q->nparked += r->nparked;
	q->target = lk_xrealloc(q->target, (size_t)m * sizeof *q->target);
	q->leaves = lk_xrealloc(q->leaves, (size_t)m * sizeof *q->leaves);
	q->start = lk_xrealloc(q->start, (size_t)m * sizeof *q->start);
	q->size = lk_xrealloc(q->size, (size_t)m * sizeof *q->size);
	int k = m0;
	for (int i = 0; i < r->nsteps; i++) {
		bool fresh = r->leaves[i] == SOKO_NONE && !moved[h->id_on[r->start[i]]];
		int src = r->leaves[i] != SOKO_NONE ? r->leaves[i] : r->start[i];
		if (!fresh && src == r->target[i])
			continue;   /* a box moved before, already there */
		q->target[k] = r->target[i];
		q->leaves[k] = fresh ? SOKO_NONE : (uint16_t)src;
		q->start[k] = fresh ? r->start[i] : SOKO_NONE;
		held += fresh;
		q->size[k] = (uint16_t)held;
		q->on_target[r->target[i]] = 1;
		k++;
	}
	q->nsteps = k;
	free(moved);
	return q;
}

/* Store position key (k steps done) made out of parent by a shuffle of
 * from to to, then k0 .. k of the plan's steps; queue it.  Returns its
 * number, or UINT32_MAX when it was stored already. */
static uint32_t add(struct shuf *h, unsigned char *key, uint32_t parent, int from, int to,
		    int k0, int k)
{
	uint32_t id;
	key[h->ks] = (uint8_t)(k & 0xff);
	key[h->ks + 1] = (uint8_t)(k >> 8);
	if (lk_table_intern(&h->t, key, lk_hash_bytes(key, h->ks + 2), parent, 0, &id) !=
	    LK_INTERN_ADDED)
		return UINT32_MAX;
	LK_ALLOC_GROW(h->node, (size_t)id + 1, h->alloc);
	h->node[id] = (struct node){ (uint16_t)from, (uint16_t)to, (uint16_t)k0, (uint16_t)k,
				     id == 0 ? 0 : (uint16_t)(h->node[parent].depth + 1) };
	heap_push(h, rank(h, id));
	return id;
}

/* The key of the board in h->pl: its boxes, the player's least square. */
static void key_of(const struct shuf *h, unsigned char *key)
{
	const struct sokoban *s = h->s;
	memset(key, 0, h->ks + 2);
	int least = -1;
	for (int c = 0; c < s->cells; c++) {
		if (s->wall[c] || s->compact[c] < 0)
			continue;
		if (h->pl.box[c])
			soko_bit_flip(key + 2, s->compact[c]);
		else if (h->pl.from[c] && (least < 0 || s->compact[c] < s->compact[least]))
			least = c;
	}
	soko_key_set_player(key, least < 0 ? 0 : (unsigned)s->compact[least]);
}

/* The board of key into h->pl: its boxes, the player's area. */
static void board_of(struct shuf *h, const unsigned char *key)
{
	const struct sokoban *s = h->s;
	for (int c = 0; c < s->cells; c++) {
		h->pl.box[c] = !s->wall[c] && s->compact[c] >= 0 && soko_bit(key + 2, s->compact[c]);
		h->pl.from[c] = 0;
	}
	h->pl.from[s->cell_of[soko_key_player(key)]] = 1;
	soko_play_walk_on(&h->pl);
}

/* Playable-plan's run from position id of the search (a start of its
 * own): the moves to id then that plan, when it plays from the level's
 * start to its end; else NULL. */
static struct soko_park *plan_from(struct shuf *h, uint32_t id, const uint8_t *doorway,
				   struct soko_stop *stop)
{
	const struct sokoban *s = h->s;
	struct sokoban at = *s;
	const unsigned char *key = lk_table_key(&h->t, id);
	uint8_t *box0 = lk_xmalloc(s->bitset_bytes);
	memcpy(box0, key + 2, s->bitset_bytes);
	at.box0 = box0;
	at.player0 = s->cell_of[soko_key_player(key)];
	struct soko_park *r = soko_park_build_fixed(&at, doorway, stop, SHUFFLE_SCALE);
	if (!r) {
		free(box0);
		return NULL;
	}
	struct soko_park *q = plan_then(h, id, r);
	free(box0);
	soko_park_free(r);
	if (soko_park_play(s, q, NULL) >= 0) {
		soko_park_free(q);
		return NULL;
	}
	return q;
}

struct soko_park *soko_park_shuffle(const struct sokoban *s, const struct soko_park *p,
				    const uint8_t *doorway, struct soko_stop *stop,
				    int *played_before, int *played_after, int *moves)
{
	if (played_before)
		*played_before = -1;
	if (played_after)
		*played_after = -1;
	if (moves)
		*moves = 0;
	if (s->cells > SHUFFLE_MAX_CELLS || p->nsteps >= 0xffff - SHUFFLE_DEPTH)
		return NULL;
	size_t n = (size_t)s->cells, ks = s->base.key_size;
	struct shuf h = { .s = s, .p = p, .ks = ks };
	soko_play_init(&h.pl, s);
	lk_table_init(&h.t, ks + 2, 0);
	h.box_of = lk_xmalloc((size_t)p->nsteps * sizeof *h.box_of);
	h.last_step = lk_xmalloc(n * sizeof *h.last_step);
	h.id_on = lk_xmalloc(n * sizeof *h.id_on);
	h.pos = lk_xmalloc(n * sizeof *h.pos);
	h.path = lk_xmalloc((SHUFFLE_DEPTH + 2) * sizeof *h.path);
	name_boxes(&h);
	struct soko_movegen gen;
	soko_movegen_init(&gen, s);
	void *mem = lk_xcalloc(1, s->base.scratch_size), *mem2 = lk_xcalloc(1, s->base.scratch_size);
	struct soko_scratch *sc = soko_scratch(s, mem);
	soko_scratch(s, mem2);
	unsigned char *key = lk_xcalloc(1, ks + 2), *child = lk_xcalloc(1, ks + 2);
	/* the start, and the plan's steps that play from it */
	soko_play_start(&h.pl);
	start_boxes(&h);
	int base = play_on(&h, 0);
	key_of(&h, key);
	add(&h, key, 0, 0, 0, 0, base);
	uint32_t best = 0;
	while (h.nheap > 0 && h.node[best].k < p->nsteps && h.t.count < SHUFFLE_POSITIONS &&
	       h.pl.work < SHUFFLE_WORK && !soko_stopped(stop)) {
		uint32_t id = (uint32_t)(heap_pop(&h) & 0xffffffffu);
		if (h.node[id].depth >= SHUFFLE_DEPTH)
			continue;
		int k = h.node[id].k;
		memcpy(key, lk_table_key(&h.t, id), ks + 2);
		int nb = soko_unpack(s, key, sc);
		soko_movegen_reach(&gen, sc, s->cell_of[soko_key_player(key)]);
		size_t nm = soko_box_moves(&gen, sc, nb, NULL);
		soko_clear_boxes(s, sc, nb);
		for (size_t i = 0; i < nm && h.node[best].k < p->nsteps; i++) {
			const struct soko_boxmove *m = &gen.moves[i];
			boxes_of(&h, id);
			/* only a box with a step to come: one whose steps are all
			 * done stands on its goal, and no step would bring it back */
			if (h.last_step[h.id_on[m->from]] < k)
				continue;
			memcpy(child, key, ks + 2);
			soko_bit_flip(child + 2, s->compact[m->from]);
			soko_bit_flip(child + 2, s->compact[m->to]);
			soko_key_set_player(child, m->player);
			if (soko_heuristic(&s->base, child, mem2) == LK_H_DEAD)
				continue;
			move_id(&h, m->from, m->to);
			board_of(&h, child);
			int k1 = play_on(&h, k);
			key_of(&h, child);
			uint32_t c = add(&h, child, id, m->from, m->to, k, k1);
			if (c != UINT32_MAX && (h.node[c].k > h.node[best].k ||
						(h.node[c].k == h.node[best].k &&
						 h.node[c].depth < h.node[best].depth)))
				best = c;
		}
	}
	/* no shuffle lets the plan play to its end: a new plan, playable-plan's,
	 * from shuffled positions, the first stored first */
	struct soko_park *fresh = NULL;
	uint32_t tried = 0, from_id = 0;
	for (uint32_t id = 1; id < h.t.count && !fresh && tried < SHUFFLE_PLANS &&
			      h.node[best].k < p->nsteps && !soko_stopped(stop); id++) {
		if (h.node[id].k != base)
			continue;
		tried++;
		fresh = plan_from(&h, id, doorway, stop);
		from_id = id;
	}
	if (played_before)
		*played_before = base;
	if (played_after)
		*played_after = h.node[best].k;
	struct soko_park *q = fresh;
	if (fresh) {
		if (played_after)
			*played_after = p->nsteps;
		if (moves)
			*moves = h.node[from_id].depth;
	}
	bool keep = h.node[best].k == p->nsteps || (SHUFFLE_PARTIAL && h.node[best].k > base);
	if (!q && best != 0 && keep) {
		q = plan_of(&h, best, true);
		if (moves)
			*moves = h.node[best].depth;
	}
	free(key);
	free(child);
	free(mem);
	free(mem2);
	soko_movegen_release(&gen);
	free(h.box_of);
	free(h.last_step);
	free(h.id_on);
	free(h.pos);
	free(h.path);
	free(h.node);
	free(h.heap);
	lk_table_release(&h.t);
	soko_play_release(&h.pl);
	return q;
}
