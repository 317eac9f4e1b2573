/*
 * rating_walker.c - the rating's `walker` feature (rating.h): how unlikely
 * a soft greedy walker is to win, on a bounded part of the state graph.
 *
 * The walker stands for a person who mostly follows the obvious move: at
 * each state it picks a move with weight exp(-BETA * (the move's rank -
 * the best rank)), ranks being greedy search's (the game's estimate, else
 * its heuristic), and it gives up after twice the shortest solution's
 * steps.  The feature is -log10 of its chance to win, by dynamic
 * programming over the steps left.
 *
 * The graph is explored most likely first: the state expanded next is the
 * one the walker reaches by the likeliest path (Dijkstra's order on
 * -log of the moves' chances), up to max_states states
 * (LK_RATING_WALKER_STATES), so that every level gets a value at a bounded
 * cost and what is left out is what the walker seldom sees.  A state the
 * exploration did not expand (the frontier) counts as won: the walker has
 * left the part that was looked at.  That can only raise the chance, by at
 * most the chance of reaching the frontier, so the feature on a bounded
 * graph is at most the whole graph's (a lower bound on it); it is the same
 * number on any machine when the state bound stopped the exploration, so
 * it is an exact value of the bounded feature.  A state the game's
 * heuristic proves dead is lost and not expanded.  An exploration cut short
 * by time or memory gives a smaller graph, hence a lower bound (how
 * AT_LEAST), as does a horizon taken from a solution that may not be the
 * shortest.
 */
#include "levelkit/rating.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How sharply the walker prefers the best-ranked move. */
#define BETA 0.5
#define CHECK_EVERY 1024

enum { OPEN, EXPANDED, WON, LOST };

struct node {
	double cost;       /* -log of the likeliest path's chance */
	double rank;
	uint32_t first;    /* its edges, once expanded */
	uint32_t nedges;
	uint8_t state;
};

struct heap_item {
	double cost;
	uint32_t id;
};

struct walk {
	const struct lk_level *level;
	struct lk_table table;
	struct node *node;
	size_t node_alloc;
	struct heap_item *heap;
	size_t nheap, heap_alloc;
	uint32_t *to;
	double *p;
	size_t nedges, edges_alloc;
	void *scratch;
};

static void heap_push(struct walk *w, double cost, uint32_t id)
{
	LK_ALLOC_GROW(w->heap, w->nheap + 1, w->heap_alloc);
	size_t i = w->nheap++;
	while (i > 0 && w->heap[(i - 1) / 2].cost > cost) {
		w->heap[i] = w->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	w->heap[i] = (struct heap_item){ cost, id };
}

static struct heap_item heap_pop(struct walk *w)
{
	struct heap_item top = w->heap[0], last = w->heap[--w->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= w->nheap)
			break;
		if (c + 1 < w->nheap && w->heap[c + 1].cost < w->heap[c].cost)
			c++;
		if (w->heap[c].cost >= last.cost)
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (w->nheap)
		w->heap[i] = last;
	return top;
}

static double rank_of(const struct lk_level *level, const void *key, void *scratch)
{
	const struct lk_game *g = level->game;
	unsigned e = g->estimate ? g->estimate(level, key, scratch) : g->heuristic(level, key, scratch);
	return e == LK_H_DEAD ? HUGE_VAL : (double)e;
}

/* Store a state met for the first time (its rank, won or lost at once). */
static bool meet(struct walk *w, const void *key, uint32_t *id, bool *added)
{
	enum lk_intern got = lk_table_intern(&w->table, key, lk_hash_bytes(key, w->level->key_size),
					     0, 0, id);
	if (got == LK_INTERN_FULL)
		return false;
	*added = got == LK_INTERN_ADDED;
	if (*added) {
		LK_ALLOC_GROW(w->node, (size_t)*id + 1, w->node_alloc);
		struct node *nd = &w->node[*id];
		memset(nd, 0, sizeof *nd);
		nd->cost = HUGE_VAL;
		nd->rank = rank_of(w->level, key, w->scratch);
		nd->state = w->level->game->is_goal(w->level, key) ? WON : isinf(nd->rank) ? LOST : OPEN;
	}
	return true;
}

/* Expand v: its moves' chances and their heads, queued by the likeliest
 * path.  False when memory ran out. */
static bool expand(struct walk *w, uint32_t v, unsigned char *keys, struct lk_edge *edges)
{
	const struct lk_level *level = w->level;
	size_t ks = level->key_size;
	unsigned n = level->game->successors(level, lk_table_key(&w->table, v), w->scratch, keys,
					     edges);
	LK_ALLOC_GROW(w->to, w->nedges + n + 1, w->edges_alloc);
	w->p = lk_xrealloc(w->p, w->edges_alloc * sizeof *w->p);
	uint32_t first = (uint32_t)w->nedges;
	double lo = HUGE_VAL, sum = 0;
	for (unsigned i = 0; i < n; i++) {
		uint32_t id;
		bool added;
		if (!meet(w, keys + (size_t)i * ks, &id, &added))
			return false;
		w->to[w->nedges++] = id;
		if (w->node[id].rank < lo)
			lo = w->node[id].rank;
	}
	for (uint32_t e = first; e < w->nedges; e++) {
		double r = w->node[w->to[e]].rank;
		sum += w->p[e] = isinf(r) ? 0.0 : exp(-BETA * (r - lo));
	}
	w->node[v].first = first;
	w->node[v].nedges = n;
	w->node[v].state = EXPANDED;
	for (uint32_t e = first; e < w->nedges; e++) {
		w->p[e] = sum > 0 ? w->p[e] / sum : 0.0;
		struct node *h = &w->node[w->to[e]];
		double c = w->node[v].cost - log(w->p[e]);
		if (h->state == OPEN && w->p[e] > 0 && c < h->cost) {
			h->cost = c;
			heap_push(w, c, w->to[e]);
		}
	}
	return true;
}

/* The fewest steps from the start to a win within the graph (UINT32_MAX:
 * none): breadth-first over the expanded states. */
static uint32_t nearest_win(const struct walk *w)
{
	uint32_t n = w->table.count;
	uint32_t *depth = lk_xmalloc((size_t)n * sizeof *depth), *queue = lk_xmalloc((size_t)n * sizeof *queue);
	for (uint32_t v = 0; v < n; v++)
		depth[v] = UINT32_MAX;
	uint32_t head = 0, tail = 0, best = UINT32_MAX;
	depth[0] = 0;
	queue[tail++] = 0;
	while (head < tail && best == UINT32_MAX) {
		uint32_t v = queue[head++];
		if (w->node[v].state == WON) {
			best = depth[v];
			break;
		}
		for (uint32_t e = w->node[v].first; e < w->node[v].first + w->node[v].nedges; e++)
			if (depth[w->to[e]] == UINT32_MAX) {
				depth[w->to[e]] = depth[v] + 1;
				queue[tail++] = w->to[e];
			}
	}
	free(depth);
	free(queue);
	return best;
}

/* The walker's chance to win from the start within `steps` steps. */
static double chance(const struct walk *w, uint64_t steps)
{
	uint32_t n = w->table.count;
	double *now = lk_xmalloc((size_t)n * sizeof *now), *next = lk_xmalloc((size_t)n * sizeof *next);
	for (uint32_t v = 0; v < n; v++)
		now[v] = w->node[v].state == WON || w->node[v].state == OPEN;
	for (uint64_t t = 0; t < steps; t++) {
		for (uint32_t v = 0; v < n; v++) {
			const struct node *nd = &w->node[v];
			double s = nd->state == EXPANDED ? 0.0 : now[v];   /* won, lost, frontier stay */
			for (uint32_t e = nd->first; nd->state == EXPANDED && e < nd->first + nd->nedges; e++)
				s += w->p[e] * now[w->to[e]];
			next[v] = s;
		}
		double *tmp = now;
		now = next;
		next = tmp;
	}
	double c = now[0];
	free(now);
	free(next);
	return c;
}

void lk_features_walker(const struct lk_level *level, const struct lk_search_options *search,
			uint64_t max_states, unsigned solution_steps, bool steps_shortest,
			struct lk_features *f)
{
	const struct lk_game *game = level->game;
	if (!game->heuristic || !level->has_heuristic) {
		lk_feature_set(f, LK_F_WALKER, LK_KNOWN_ABSENT, 0);   /* no ranks to follow */
		return;
	}
	struct walk w = { .level = level };
	lk_table_init(&w.table, level->key_size, search->bounds.max_memory);
	w.scratch = lk_xcalloc(1, level->scratch_size ? level->scratch_size : 1);
	unsigned char *keys = lk_xcalloc((size_t)level->max_successors + 1,
					 level->key_size ? level->key_size : 1);
	struct lk_edge *edges = lk_xcalloc((size_t)level->max_successors + 1, sizeof *edges);
	double deadline = lk_bounds_deadline(&search->bounds, lk_now());
	bool complete = false, cut = false;   /* cut: by time, memory or a signal */
	enum lk_limit why = LK_LIMIT_MEMORY;  /* what cut it, said in f->limits */
	uint32_t id;
	bool added;
	game->initial_state(level, keys);
	if (!meet(&w, keys, &id, &added)) {
		cut = true;
	} else if (w.node[0].state == OPEN) {
		w.node[0].cost = 0;
		heap_push(&w, 0, 0);
	}
	for (unsigned long k = 0; !cut; k++) {
		if (!w.nheap) {
			complete = true;
			break;
		}
		if (w.table.count >= max_states)
			break;
		if (k % CHECK_EVERY == 0 && lk_bounds_cancelled(&search->bounds)) {
			why = LK_LIMIT_INTERRUPTED;
			cut = true;
			break;
		}
		if (k % CHECK_EVERY == 0 && lk_bounds_time_up(&search->bounds, deadline)) {
			why = LK_LIMIT_TIME;
			cut = true;
			break;
		}
		struct heap_item top = heap_pop(&w);
		if (w.node[top.id].state != OPEN || top.cost > w.node[top.id].cost)
			continue;   /* expanded already, or queued again cheaper */
		if (!expand(&w, top.id, keys, edges))
			cut = true;
	}
	/* the horizon: the shortest solution's steps, known from rate's
	 * solution or from the whole graph; else an upper bound on them (the
	 * graph's nearest win or the solution), giving a lower bound */
	uint32_t shortest = w.table.count ? nearest_win(&w) : UINT32_MAX;
	bool exact = !cut && (complete || steps_shortest);
	/* a value left a bound says why: cut short, or stopped at the state
	 * cap without the shortest solution's steps (at the cap with them it
	 * is the bounded feature's exact value, the same on any machine) */
	if (cut)
		f->limits |= LK_LIMIT_BIT(why);
	else if (!exact)
		f->limits |= LK_LIMIT_BIT(LK_LIMIT_STATES);
	if (steps_shortest && solution_steps)
		shortest = solution_steps;
	else if (solution_steps && solution_steps < shortest)
		shortest = solution_steps;
	if (w.table.count && shortest != UINT32_MAX) {
		double c = chance(&w, 2 * (uint64_t)shortest);
		double x = c > 1e-300 ? -log10(c) : 300.0;
		lk_feature_set(f, LK_F_WALKER, exact ? LK_KNOWN_EXACT : LK_KNOWN_AT_LEAST,
			       x > 0 ? x : 0.0);
	}
	free(keys);
	free(edges);
	free(w.scratch);
	free(w.node);
	free(w.heap);
	free(w.to);
	free(w.p);
	lk_table_release(&w.table);
}
