/*
 * search_toy.c - the solver tests' toy game and truths (search_toy.h): a
 * weighted directed graph given as adjacency lists, a state being a node
 * number packed into 2, 3 or 4 bytes, edges costing 1..5, a set of goal
 * nodes and an optional admissible heuristic (0, exact distance / 2, exact
 * distance, or a random value below the exact distance, which is
 * admissible but inconsistent).  Levels with one goal also offer a
 * reversed level (edges turned round, start and goal swapped) for
 * backward and bidirectional search.
 *
 * The truths are computed here: a Dijkstra for least costs and a BFS for
 * fewest edges; check_run holds a search's answer against them.
 */
#include "search_toy.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the graph */

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	assert_non_null(p);
	return p;
}

void graph_free(struct graph *g)
{
	free(g->first);
	free(g->to);
	free(g->cost);
	free(g->goal);
	memset(g, 0, sizeof *g);
}

/* Build from an edge list of (u, v, cost) triples, which must not repeat
 * a pair (u, v), so that a path of nodes determines its edges.  Edges of
 * a node keep their order in the list (a stable counting sort). */
void graph_from_edges(struct graph *g, unsigned n, const unsigned *e, size_t ne)
{
	g->n = n;
	g->first = xcalloc(n + 1, sizeof *g->first);
	g->to = xcalloc(ne, sizeof *g->to);
	g->cost = xcalloc(ne, sizeof *g->cost);
	g->goal = xcalloc(n, 1);
	g->start = 0;
	unsigned *at = xcalloc(n + 1, sizeof *at);
	for (size_t i = 0; i < ne; i++)
		g->first[e[3 * i] + 1]++;
	for (unsigned u = 0; u < n; u++)
		g->first[u + 1] += g->first[u];
	memcpy(at, g->first, (n + 1) * sizeof *at);
	for (size_t i = 0; i < ne; i++) {
		unsigned k = at[e[3 * i]]++;
		g->to[k] = e[3 * i + 1];
		g->cost[k] = e[3 * i + 2];
	}
	free(at);
}

/* The reversed graph, goal = g's start, start = g's only goal (or 0). */
static void graph_reverse(struct graph *r, const struct graph *g)
{
	size_t ne = g->first[g->n];
	unsigned *e = xcalloc(3 * ne, sizeof *e);
	for (unsigned u = 0; u < g->n; u++)
		for (unsigned i = g->first[u]; i < g->first[u + 1]; i++) {
			e[3 * i] = g->to[i];
			e[3 * i + 1] = u;
			e[3 * i + 2] = g->cost[i];
		}
	graph_from_edges(r, g->n, e, ne);
	free(e);
	r->goal[g->start] = 1;
	r->start = 0;
	for (unsigned v = 0; v < g->n; v++)
		if (g->goal[v])
			r->start = v;
}

static void relax(uint32_t *d, size_t *queue, size_t *tail, size_t y, size_t x)
{
	if (d[y] == INF) {
		d[y] = d[x] + 1;
		queue[(*tail)++] = y;
	}
}

/* Least cost from every node to a goal and fewest edges, INF where no
 * goal is reachable.  Costs are 1..5, so the least cost is a BFS on the
 * reversed graph where an edge of cost c is a path of c unit steps
 * through waiting states (w, k): "k more steps to w". */
static void distances_to_goals(const struct graph *g, uint32_t *dist, uint32_t *hops)
{
	struct graph r;
	graph_reverse(&r, g);
	uint32_t *d5 = xcalloc(5 * (size_t)g->n, sizeof *d5);
	size_t *queue = xcalloc(5 * (size_t)g->n, sizeof *queue);
	for (int pass = 0; pass < 2; pass++) {
		size_t head = 0, tail = 0;
		for (size_t x = 0; x < 5 * (size_t)g->n; x++) {
			d5[x] = x % 5 == 0 && g->goal[x / 5] ? 0 : INF;
			if (d5[x] == 0)
				queue[tail++] = x;
		}
		while (head < tail) {
			size_t x = queue[head++], v = x / 5;
			if (x % 5) {   /* a waiting state has one way on */
				relax(d5, queue, &tail, x - 1, x);
				continue;
			}
			/* pass 0: hops (every edge one step); pass 1: costs */
			for (unsigned i = r.first[v]; i < r.first[v + 1]; i++)
				relax(d5, queue, &tail, 5 * (size_t)r.to[i] + (pass ? r.cost[i] - 1 : 0), x);
		}
		for (unsigned v = 0; v < g->n; v++)
			(pass ? dist : hops)[v] = d5[5 * (size_t)v];
	}
	free(d5);
	free(queue);
	graph_free(&r);
}

/* ------------------------------------------------------- the toy game */

static const struct lk_game toy_game, toy_game_noh;
/* Expansions counted over all toy levels; cancel raised after a number. */
unsigned long toy_expansions;
unsigned long cancel_after;
double toy_delay;
volatile sig_atomic_t *cancel_flag;

static void put_node(unsigned char *k, size_t ks, unsigned v)
{
	memset(k, 0, ks);
	for (size_t b = 0; b < ks && b < 4; b++)
		k[b] = (unsigned char)(v >> (8 * b));
}

static unsigned get_node(const struct toy *t, const unsigned char *k)
{
	unsigned v = 0;
	for (size_t b = 0; b < t->base.key_size && b < 4; b++)
		v |= (unsigned)k[b] << (8 * b);
	assert_true(v < t->g.n);
	return v;
}

struct toy *toy_new(const struct graph *src, size_t ks, enum hmode hm, uint64_t hseed,
		    bool with_h, bool reversible)
{
	struct toy *t = calloc(1, sizeof *t);
	assert_non_null(t);
	/* private copy of the graph */
	size_t ne = src->first[src->n];
	t->g = *src;
	t->g.first = xcalloc(src->n + 1, sizeof *t->g.first);
	t->g.to = xcalloc(ne, sizeof *t->g.to);
	t->g.cost = xcalloc(ne, sizeof *t->g.cost);
	t->g.goal = xcalloc(src->n, 1);
	memcpy(t->g.first, src->first, (src->n + 1) * sizeof *t->g.first);
	memcpy(t->g.to, src->to, ne * sizeof *t->g.to);
	memcpy(t->g.cost, src->cost, ne * sizeof *t->g.cost);
	memcpy(t->g.goal, src->goal, src->n);

	unsigned maxdeg = 0;
	for (unsigned u = 0; u < t->g.n; u++)
		if (t->g.first[u + 1] - t->g.first[u] > maxdeg)
			maxdeg = t->g.first[u + 1] - t->g.first[u];
	t->base.game = with_h ? &toy_game : &toy_game_noh;
	t->base.key_size = ks;
	t->base.max_successors = maxdeg;
	t->base.scratch_size = 16 + t->g.n;
	t->base.metric = "cost";
	t->base.has_heuristic = with_h;
	t->base.heuristic_admissible = true;
	t->hmode = hm;
	t->hseed = hseed;
	t->reversible = reversible;

	uint32_t *dist = xcalloc(t->g.n, sizeof *dist);
	uint32_t *hops = xcalloc(t->g.n, sizeof *hops);
	t->h = xcalloc(t->g.n, sizeof *t->h);
	distances_to_goals(&t->g, dist, hops);
	struct lk_rng rng;
	lk_rng_seed(&rng, hseed);
	for (unsigned v = 0; v < t->g.n; v++) {
		if (hm == H_ZERO)
			t->h[v] = 0;
		else if (dist[v] == INF)
			t->h[v] = LK_H_DEAD;
		else if (hm == H_HALF)
			t->h[v] = dist[v] / 2;
		else if (hm == H_EXACT)
			t->h[v] = dist[v];
		else
			t->h[v] = lk_rng_below(&rng, dist[v] + 1);
	}
	free(dist);
	free(hops);
	return t;
}

void toy_free(struct lk_level *level)
{
	struct toy *t = (struct toy *)level;
	graph_free(&t->g);
	free(t->h);
	free(t);
}

static void toy_initial(const struct lk_level *level, void *key)
{
	const struct toy *t = (const struct toy *)level;
	put_node(key, level->key_size, t->g.start);
}

static unsigned toy_successors(const struct lk_level *level, const void *key, void *scratch,
			       unsigned char *keys_out, struct lk_edge *edges)
{
	const struct toy *t = (const struct toy *)level;
	unsigned u = get_node(t, key);
	/* The scratch block must be ours to write, all of it. */
	assert_non_null(scratch);
	memset(scratch, 0xa5, level->scratch_size);
	unsigned n = 0;
	for (unsigned i = t->g.first[u]; i < t->g.first[u + 1]; i++, n++) {
		put_node(keys_out + (size_t)n * level->key_size, level->key_size, t->g.to[i]);
		edges[n].cost = t->g.cost[i];
	}
	assert_true(n <= level->max_successors);
	if (cancel_flag && ++toy_expansions >= cancel_after)
		*cancel_flag = 1;
	for (double t0 = lk_now(); toy_delay > 0 && lk_now() - t0 < toy_delay;)
		;   /* busy: the clock the bounds read must move */
	return n;
}

static bool toy_is_goal(const struct lk_level *level, const void *key)
{
	const struct toy *t = (const struct toy *)level;
	return t->g.goal[get_node(t, key)];
}

static unsigned toy_heuristic(const struct lk_level *level, const void *key, void *scratch)
{
	const struct toy *t = (const struct toy *)level;
	assert_non_null(scratch);
	return t->h[get_node(t, key)];
}

static bool has_reverse(const struct toy *t)
{
	unsigned goals = 0;
	for (unsigned v = 0; v < t->g.n; v++)
		goals += t->g.goal[v];
	return t->reversible && goals == 1;
}

static struct lk_level *toy_reverse(const struct lk_level *level)
{
	const struct toy *t = (const struct toy *)level;
	if (!has_reverse(t))
		return NULL;
	struct graph r;
	graph_reverse(&r, &t->g);
	struct toy *rev = toy_new(&r, level->key_size, t->hmode, t->hseed + 1,
				  level->game->heuristic != NULL, false);
	graph_free(&r);
	return &rev->base;
}

static const struct lk_game toy_game = {
	.name = "toy",
	.summary = "a weighted directed graph",
	.free_level = toy_free,
	.initial_state = toy_initial,
	.successors = toy_successors,
	.is_goal = toy_is_goal,
	.heuristic = toy_heuristic,
	.reverse_level = toy_reverse,
};

static const struct lk_game toy_game_noh = {
	.name = "toy-noh",
	.summary = "a weighted directed graph without heuristic",
	.free_level = toy_free,
	.initial_state = toy_initial,
	.successors = toy_successors,
	.is_goal = toy_is_goal,
	.reverse_level = toy_reverse,
};

/* The directions the tests run in: forward and both, and in a separate
 * test (run last) backward. */
const enum lk_direction forward_both[2] = { LK_FORWARD, LK_BOTH };
const enum lk_direction backward_only[1] = { LK_BACKWARD };
const enum lk_direction *dirs = forward_both;
size_t ndirs = 2;

/* ---------------------------------------------------------- checking */

/* Check a solved result's path against the graph; returns its cost. */
unsigned long check_path(const struct toy *t, const struct lk_search_result *r)
{
	const size_t ks = t->base.key_size;
	assert_int_equal(r->status, LK_SOLVED);
	assert_non_null(r->path);
	assert_true(r->nkeys >= 1);
	for (size_t i = 0; i < r->nkeys; i++) {
		/* padding bytes beyond the node number stay zero */
		for (size_t b = 4; b < ks; b++)
			assert_int_equal(r->path[i * ks + b], 0);
	}
	assert_int_equal(get_node(t, r->path), t->g.start);
	assert_true(t->g.goal[get_node(t, r->path + (r->nkeys - 1) * ks)]);
	unsigned long total = 0;
	for (size_t i = 1; i < r->nkeys; i++) {
		unsigned u = get_node(t, r->path + (i - 1) * ks);
		unsigned v = get_node(t, r->path + i * ks);
		unsigned c = 0;
		for (unsigned e = t->g.first[u]; e < t->g.first[u + 1]; e++)
			if (t->g.to[e] == v)
				c = t->g.cost[e];
		if (c == 0)
			fail_msg("path step %zu: no edge %u -> %u", i, u, v);
		total += c;
	}
	assert_int_equal(r->cost, total);
	return total;
}

void truth_of(const struct toy *t, struct truth *tr)
{
	tr->dist = xcalloc(t->g.n, sizeof *tr->dist);
	tr->hops = xcalloc(t->g.n, sizeof *tr->hops);
	distances_to_goals(&t->g, tr->dist, tr->hops);
}

void truth_free(struct truth *tr)
{
	free(tr->dist);
	free(tr->hops);
}

/* Run one search and check it against the truth. */
void check_run(struct lk_solver *s, const struct toy *t, const struct truth *tr,
	       enum lk_algo algo, enum lk_direction dir, uint64_t seed)
{
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_search_result r;
	o.algo = algo;
	o.direction = dir;
	o.seed = seed;
	lk_search_result_init(&r);
	lk_solver_run(s, &t->base, &o, &r);
	uint32_t best = tr->dist[t->g.start];
	if (best == INF) {
		if (r.status != LK_UNSOLVABLE)
			fail_msg("%s/%s: status %s for an unreachable goal", lk_algo_name(algo),
				 lk_direction_name(dir), lk_status_name(r.status));
		assert_null(r.path);
	} else {
		if (r.status != LK_SOLVED)
			fail_msg("%s/%s: status %s, expected yes (cost %u)", lk_algo_name(algo),
				 lk_direction_name(dir), lk_status_name(r.status), best);
		unsigned long cost = check_path(t, &r);
		switch (algo) {
		case LK_ALGO_BFS:
			assert_int_equal(r.nkeys - 1, tr->hops[t->g.start]);
			assert_true(r.optimal);
			break;
		case LK_ALGO_UCS:
		case LK_ALGO_ASTAR:
			if (cost != best)
				fail_msg("%s/%s seed %llu: cost %lu, least is %u", lk_algo_name(algo),
					 lk_direction_name(dir), (unsigned long long)seed, cost, best);
			assert_true(r.optimal);
			break;
		default:
			assert_true(cost >= best);
			assert_false(r.optimal);
			break;
		}
		/* Only a reversible level can be answered backwards; asked
		 * for backward search, it must be. */
		if (!has_reverse(t) || dir == LK_FORWARD)
			assert_int_equal(r.found_by, LK_FORWARD);
		else if (dir == LK_BACKWARD)
			assert_int_equal(r.found_by, LK_BACKWARD);
		/* the lanes meet in greedy search, and in A* where a meeting
		 * is proved optimal by the lanes' bounds (its cost checked
		 * above against the least) */
		if (r.found_by == LK_BOTH)
			assert_true(algo == LK_ALGO_GREEDY || algo == LK_ALGO_ANY ||
				    algo == LK_ALGO_ASTAR);
	}
	/* Counters are plausible: never more distinct states than nodes per
	 * direction, and nothing expanded that was not stored. */
	assert_true(r.stored <= 2u * t->g.n);
	if (dir == LK_FORWARD || !has_reverse(t))
		assert_true(r.stored <= t->g.n);
	assert_true(r.generated >= r.stored - 2 || r.stored < 2);
	assert_true(r.overhead_per_state >= 0.0);
	lk_search_result_release(&r);
	assert_null(r.path);
}

/* ---------------------------------------------------- random graphs */

void random_graph(struct graph *g, struct lk_rng *rng, unsigned n, unsigned maxdeg, int goals)
{
	size_t cap = (size_t)n * maxdeg + 1, ne = 0;
	unsigned *e = xcalloc(cap * 3, sizeof *e);
	for (unsigned u = 0; u < n; u++) {
		unsigned deg = lk_rng_below(rng, maxdeg + 1);
		size_t from = ne;
		for (unsigned k = 0; k < deg; k++) {
			unsigned v = lk_rng_below(rng, n);
			bool dup = false;
			for (size_t j = from; j < ne; j++)
				dup |= e[3 * j + 1] == v;
			if (dup)
				continue;
			e[3 * ne] = u;
			e[3 * ne + 1] = v;
			e[3 * ne + 2] = 1 + lk_rng_below(rng, 5);
			ne++;
		}
	}
	graph_from_edges(g, n, e, ne);
	free(e);
	g->start = lk_rng_below(rng, n);
	for (int i = 0; i < goals; i++)
		g->goal[lk_rng_below(rng, n)] = 1;
}

/* ------------------------------------------------- hand-made graphs */

/* A 0 -> ... -> n-1 chain of unit edges, goal at the end. */
void chain(struct graph *g, unsigned n)
{
	unsigned *e = xcalloc((size_t)n * 3, sizeof *e);
	for (unsigned i = 0; i + 1 < n; i++) {
		e[3 * i] = i;
		e[3 * i + 1] = i + 1;
		e[3 * i + 2] = 1 + i % 3;
	}
	graph_from_edges(g, n, e, n - 1);
	free(e);
	g->goal[n - 1] = 1;
	g->start = 0;
}

void search_one(const struct toy *t, enum lk_algo a, enum lk_direction d,
		struct lk_search_result *r)
{
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = a;
	o.direction = d;
	lk_search(&t->base, &o, r);
}

/* A w x h grid of unit edges both ways: many shortest paths. */
void grid_graph(struct graph *g, unsigned w, unsigned h)
{
	unsigned *e = xcalloc((size_t)w * h * 12, sizeof *e);
	size_t ne = 0;
	for (unsigned u = 0; u < w * h; u++) {
		unsigned x = u % w, nb[4], k = 0;
		if (x + 1 < w)
			nb[k++] = u + 1;
		if (x > 0)
			nb[k++] = u - 1;
		if (u + w < w * h)
			nb[k++] = u + w;
		if (u >= w)
			nb[k++] = u - w;
		for (unsigned i = 0; i < k; i++, ne++) {
			e[3 * ne] = u;
			e[3 * ne + 1] = nb[i];
			e[3 * ne + 2] = 1;
		}
	}
	graph_from_edges(g, w * h, e, ne);
	free(e);
	g->start = 0;
	g->goal[w * h - 1] = 1;
}
