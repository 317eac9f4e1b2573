/*
 * test_search.c - tests of the solvers (search.c) on a toy game defined
 * here: a weighted directed graph given as adjacency lists, a state being
 * a node number packed into 2, 3 or 4 bytes, edges costing 1..5, a set of
 * goal nodes and an optional admissible heuristic (0, exact distance / 2,
 * exact distance, or a random value below the exact distance, which is
 * admissible but inconsistent).  Levels with one goal also offer a
 * reversed level (edges turned round, start and goal swapped) for
 * backward and bidirectional search.
 *
 * The truths are computed here: a Dijkstra for least costs and a BFS for
 * fewest edges, on hundreds of random graphs made with a fixed seed.
 * Checked: BFS finds fewest edges, UCS and A* the least cost, greedy some
 * path; every path starts at the start, ends at a goal and follows real
 * edges; unreachable goals give LK_UNSOLVABLE; the state, memory and
 * cancel bounds give LK_UNKNOWN with the right limit and never a wrong
 * answer; seeds change the order but not the optimum; a solver reused
 * across levels of other key sizes gives the same answers as a fresh one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/rng.h"
#include "levelkit/search.h"

#define INF UINT32_MAX

/* ------------------------------------------------------------ the graph */

struct graph {
	unsigned n;
	unsigned *first;     /* edges of u: first[u] .. first[u + 1] - 1 */
	unsigned *to;
	unsigned *cost;
	uint8_t *goal;
	unsigned start;
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	assert_non_null(p);
	return p;
}

static void graph_free(struct graph *g)
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
static void graph_from_edges(struct graph *g, unsigned n, const unsigned *e, size_t ne)
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

enum hmode { H_ZERO, H_HALF, H_EXACT, H_RANDOM };

struct toy {
	struct lk_level base;
	struct graph g;
	uint32_t *h;            /* heuristic value per node (LK_H_DEAD allowed) */
	enum hmode hmode;
	uint64_t hseed;
	bool reversible;        /* offer a reversed level */
};

static const struct lk_game toy_game, toy_game_noh;
/* Expansions counted over all toy levels; cancel raised after a number. */
static unsigned long toy_expansions;
static unsigned long cancel_after;
static volatile sig_atomic_t *cancel_flag;

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

static struct toy *toy_new(const struct graph *src, size_t ks, enum hmode hm, uint64_t hseed,
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

static void toy_free(struct lk_level *level)
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
static const enum lk_direction forward_both[] = { LK_FORWARD, LK_BOTH };
static const enum lk_direction backward_only[] = { LK_BACKWARD };
static const enum lk_direction *dirs = forward_both;
static size_t ndirs = 2;

/* ---------------------------------------------------------- checking */

/* Check a solved result's path against the graph; returns its cost. */
static unsigned long check_path(const struct toy *t, const struct lk_search_result *r)
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

struct truth {
	uint32_t *dist, *hops;
};

static void truth_of(const struct toy *t, struct truth *tr)
{
	tr->dist = xcalloc(t->g.n, sizeof *tr->dist);
	tr->hops = xcalloc(t->g.n, sizeof *tr->hops);
	distances_to_goals(&t->g, tr->dist, tr->hops);
}

static void truth_free(struct truth *tr)
{
	free(tr->dist);
	free(tr->hops);
}

/* Run one search and check it against the truth. */
static void check_run(struct lk_solver *s, const struct toy *t, const struct truth *tr,
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
		if (r.found_by == LK_BOTH)
			assert_true(algo == LK_ALGO_GREEDY || algo == LK_ALGO_ANY);
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

static void random_graph(struct graph *g, struct lk_rng *rng, unsigned n, unsigned maxdeg,
			 int goals)
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

static void test_random_graphs(void **state)
{
	(void)state;
	struct lk_rng rng;
	struct lk_solver s;
	unsigned solvable = 0, unsolvable = 0;
	lk_rng_seed(&rng, 20240611);
	lk_solver_init(&s);
	for (int trial = 0; trial < 400; trial++) {
		struct graph g;
		unsigned n = 1 + lk_rng_below(&rng, trial < 50 ? 8 : 250);
		int goals = (int)lk_rng_below(&rng, 10);
		goals = goals == 0 ? 0 : goals < 5 ? 1 : goals - 3;
		random_graph(&g, &rng, n, 2 + lk_rng_below(&rng, 3), goals);
		size_t ks = 2 + (size_t)(trial % 3);
		enum hmode hm = (enum hmode)(trial % 4);
		struct toy *t = toy_new(&g, ks, hm, (uint64_t)trial, trial % 7 != 6, true);
		struct truth tr;
		truth_of(t, &tr);
		if (tr.dist[t->g.start] == INF)
			unsolvable++;
		else
			solvable++;
		for (int a = 0; a < LK_ALGO_COUNT; a++)
			for (size_t di = 0; di < ndirs; di++)
				check_run(&s, t, &tr, (enum lk_algo)a, dirs[di],
					  (uint64_t)(trial % 3));
		truth_free(&tr);
		toy_free(&t->base);
		graph_free(&g);
	}
	print_message("  %u solvable, %u unsolvable graphs\n", solvable, unsolvable);
	assert_true(solvable > 100);
	assert_true(unsolvable > 30);
	lk_solver_release(&s);
}

/* ------------------------------------------------- hand-made graphs */

/* A 0 -> ... -> n-1 chain of unit edges, goal at the end. */
static void chain(struct graph *g, unsigned n)
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

static void search_one(const struct toy *t, enum lk_algo a, enum lk_direction d,
		       struct lk_search_result *r)
{
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = a;
	o.direction = d;
	lk_search(&t->base, &o, r);
}

static void test_small_cases(void **state)
{
	(void)state;
	/*
	 * 0 -1-> 1 -1-> 3 (goal)     fewest edges: 0 -> 3 (1 edge, cost 5);
	 * 0 -5-> 3                   least cost: 0 -> 1 -> 3 (cost 2);
	 * 0 -1-> 2 -1-> 1            0 -> 2 -> 1 -> 3 costs 3.
	 */
	const unsigned e[] = { 0, 1, 1, 1, 3, 1, 0, 3, 5, 0, 2, 1, 2, 1, 1 };
	struct graph g;
	struct lk_search_result r;
	graph_from_edges(&g, 4, e, 5);
	g.goal[3] = 1;
	lk_search_result_init(&r);
	for (int hm = 0; hm < 4; hm++) {
		struct toy *t = toy_new(&g, 2, (enum hmode)hm, 1, true, true);
		for (size_t di = 0; di < ndirs; di++) {
			search_one(t, LK_ALGO_BFS, dirs[di], &r);
			assert_int_equal(check_path(t, &r), 5);
			assert_int_equal(r.nkeys, 2);
			search_one(t, LK_ALGO_UCS, dirs[di], &r);
			assert_int_equal(check_path(t, &r), 2);
			assert_int_equal(r.nkeys, 3);
			search_one(t, LK_ALGO_ASTAR, dirs[di], &r);
			assert_int_equal(check_path(t, &r), 2);
			search_one(t, LK_ALGO_GREEDY, dirs[di], &r);
			check_path(t, &r);
		}
		toy_free(&t->base);
	}

	/* The start is a goal: a path of one state and cost 0. */
	g.goal[0] = 1;
	struct toy *t = toy_new(&g, 3, H_ZERO, 1, true, false);
	for (int a = 0; a < LK_ALGO_COUNT; a++) {
		search_one(t, (enum lk_algo)a, LK_FORWARD, &r);
		assert_int_equal(check_path(t, &r), 0);
		assert_int_equal(r.nkeys, 1);
	}
	toy_free(&t->base);
	graph_free(&g);

	/* One node, no edges, no goal: unsolvable at once. */
	graph_from_edges(&g, 1, NULL, 0);
	t = toy_new(&g, 4, H_EXACT, 1, true, true);
	for (int a = 0; a < LK_ALGO_COUNT; a++) {
		for (size_t di = 0; di < ndirs; di++) {
			search_one(t, (enum lk_algo)a, dirs[di], &r);
			assert_int_equal(r.status, LK_UNSOLVABLE);
		}
	}
	toy_free(&t->base);
	graph_free(&g);

	/* A* marks a heuristic it is not told is admissible as not optimal. */
	chain(&g, 10);
	t = toy_new(&g, 2, H_EXACT, 1, true, false);
	t->base.heuristic_admissible = false;
	search_one(t, LK_ALGO_ASTAR, LK_FORWARD, &r);
	check_path(t, &r);
	assert_false(r.optimal);
	toy_free(&t->base);
	graph_free(&g);
	lk_search_result_release(&r);
}

static void test_long_chain_both_ways(void **state)
{
	(void)state;
	/* Long enough that the two lanes of a bidirectional search take
	 * several turns each; greedy lanes then meet in the middle. */
	struct graph g;
	chain(&g, 20000);
	struct lk_solver s;
	lk_solver_init(&s);
	for (int hm = 0; hm < 2; hm++) {
		struct toy *t = toy_new(&g, 3, (enum hmode)hm, 5, true, true);
		struct truth tr;
		truth_of(t, &tr);
		for (int a = 0; a < LK_ALGO_COUNT; a++)
			for (size_t di = 0; di < ndirs; di++)
				check_run(&s, t, &tr, (enum lk_algo)a, dirs[di], 0);
		truth_free(&tr);
		toy_free(&t->base);
	}
	lk_solver_release(&s);
	graph_free(&g);
}

static struct lk_search_result shared_result;

static void expect_unknown(struct lk_solver *s, const struct toy *t, struct lk_search_options *o,
			   uint64_t max_states, size_t max_memory, enum lk_limit limit)
{
	o->bounds.max_states = max_states;
	o->bounds.max_memory = max_memory;
	lk_solver_run(s, &t->base, o, &shared_result);
	assert_int_equal(shared_result.status, LK_UNKNOWN);
	assert_int_equal(shared_result.limit, limit);
	assert_null(shared_result.path);
}

static void test_bounds(void **state)
{
	(void)state;
	struct graph g;
	chain(&g, 100000);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_solver s;
	lk_search_result_init(&shared_result);
	lk_solver_init(&s);
	struct toy *t = toy_new(&g, 4, H_ZERO, 1, true, true);
	for (int a = 0; a < LK_ALGO_COUNT; a++) {
		for (size_t di = 0; di < ndirs; di++) {
			o.algo = (enum lk_algo)a;
			o.direction = dirs[di];

			expect_unknown(&s, t, &o, 10, 0, LK_LIMIT_STATES);
			assert_true(shared_result.stored <= 10);
			/* forward BFS stored nodes 0..9 of the chain and stopped
			 * expanding node 8: every node within 8 edges was tested */
			if (a == LK_ALGO_BFS && dirs[di] == LK_FORWARD) {
				assert_true(shared_result.has_depth);
				assert_int_equal(shared_result.depth, 8);
				assert_true(shared_result.has_floor);
				assert_int_equal(shared_result.floor, 9);
			}
			/* a few chunks of memory */
			expect_unknown(&s, t, &o, 0, 300 * 1024, LK_LIMIT_MEMORY);
		}
	}
	/* A generous budget does not get in the way. */
	o.bounds.max_memory = 64u << 20;
	o.bounds.max_states = 250000;
	o.algo = LK_ALGO_UCS;
	o.direction = LK_FORWARD;
	lk_solver_run(&s, &t->base, &o, &shared_result);
	assert_int_equal(shared_result.status, LK_SOLVED);
	check_path(t, &shared_result);
	toy_free(&t->base);
	graph_free(&g);

	/* On random graphs, any bound yields the truth or "unknown". */
	unsigned depth_seen = 0;
	struct lk_rng rng;
	lk_rng_seed(&rng, 99);
	for (int trial = 0; trial < 150; trial++) {
		random_graph(&g, &rng, 2 + lk_rng_below(&rng, 200), 3, trial % 4 ? 1 : 0);
		t = toy_new(&g, 2, (enum hmode)(trial % 4), 7, true, true);
		struct truth tr;
		truth_of(t, &tr);
		bool reachable = tr.dist[t->g.start] != INF;
		for (int a = 0; a < LK_ALGO_COUNT; a++) {
			o.algo = (enum lk_algo)a;
			o.direction = dirs[(size_t)trial % ndirs];
			o.bounds.max_memory = 0;
			o.bounds.max_states = 1 + lk_rng_below(&rng, 60);
			lk_solver_run(&s, &t->base, &o, &shared_result);
			if (shared_result.status == LK_UNKNOWN) {
				assert_int_equal(shared_result.limit, LK_LIMIT_STATES);
				/* a BFS's finished depth is below the fewest edges to a
				 * goal, and its floor at most the least cost */
				assert_true(!shared_result.has_depth || a == LK_ALGO_BFS);
				if (shared_result.has_depth && reachable)
					assert_true(shared_result.depth < tr.hops[t->g.start]);
				if (shared_result.has_floor && reachable)
					assert_true(shared_result.floor <= tr.dist[t->g.start]);
				depth_seen += shared_result.has_depth;
				continue;
			}
			assert_int_equal(shared_result.status, reachable ? LK_SOLVED : LK_UNSOLVABLE);
			if (reachable) {
				unsigned long c = check_path(t, &shared_result);
				if (a == LK_ALGO_UCS || a == LK_ALGO_ASTAR)
					assert_int_equal(c, tr.dist[t->g.start]);
			}
			/* With room for every node twice the answer must come. */
			o.bounds.max_states = 2ull * t->g.n + 2;
			lk_solver_run(&s, &t->base, &o, &shared_result);
			assert_int_equal(shared_result.status, reachable ? LK_SOLVED : LK_UNSOLVABLE);
		}
		truth_free(&tr);
		toy_free(&t->base);
		graph_free(&g);
	}
	assert_true(depth_seen > 0);
	lk_search_result_release(&shared_result);
	lk_solver_release(&s);
}

/* The smallest bounds still bound: split between two lanes, they must
 * not become 0, "no bound". */
static void test_tiny_bounds(void **state)
{
	(void)state;
	struct graph g;
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_solver s;
	chain(&g, 1000);
	struct toy *t = toy_new(&g, 2, H_HALF, 1, true, true);
	lk_solver_init(&s);
	for (int a = 0; a < LK_ALGO_COUNT; a++) {
		for (size_t di = 0; di < ndirs; di++) {
			o.algo = (enum lk_algo)a;
			o.direction = dirs[di];
			expect_unknown(&s, t, &o, 1, 0, LK_LIMIT_STATES);
			expect_unknown(&s, t, &o, 0, 1, LK_LIMIT_MEMORY);
		}
	}
	lk_search_result_release(&shared_result);
	lk_solver_release(&s);
	toy_free(&t->base);
	graph_free(&g);
}

static void test_cancel(void **state)
{
	(void)state;
	static volatile sig_atomic_t flag;
	struct graph g;
	chain(&g, 50000);
	struct toy *t = toy_new(&g, 4, H_HALF, 1, true, true);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_search_result r;
	lk_search_result_init(&r);
	o.bounds.cancel = &flag;
	for (int a = 0; a < LK_ALGO_COUNT; a++) {
		for (size_t di = 0; di < ndirs; di++) {
			o.algo = (enum lk_algo)a;
			o.direction = dirs[di];
			/* Set before the search: it stops before the goal. */
			flag = 1;
			cancel_flag = NULL;
			lk_search(&t->base, &o, &r);
			assert_int_equal(r.status, LK_UNKNOWN);
			assert_int_equal(r.limit, LK_LIMIT_INTERRUPTED);
			/* Raised by the game after 10 expansions. */
			flag = 0;
			toy_expansions = 0;
			cancel_after = 10;
			cancel_flag = &flag;
			lk_search(&t->base, &o, &r);
			cancel_flag = NULL;
			assert_int_equal(r.status, LK_UNKNOWN);
			assert_int_equal(r.limit, LK_LIMIT_INTERRUPTED);
			assert_true(r.expanded >= 10);
			assert_true(r.expanded < 40000);
			/* Left clear, the same search finishes. */
			flag = 0;
			lk_search(&t->base, &o, &r);
			check_path(t, &r);
		}
	}
	lk_search_result_release(&r);
	toy_free(&t->base);
	graph_free(&g);
}

/* The tick hook: called all through a long search (a progress line
 * drawn from it never stands still), and it changes nothing found. */
static unsigned long ticks;
static void count_tick(void *ctx)
{
	assert_ptr_equal(ctx, &ticks);
	ticks++;
}

static void test_tick(void **state)
{
	(void)state;
	struct graph g;
	chain(&g, 50000);
	struct toy *t = toy_new(&g, 4, H_HALF, 1, true, true);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_search_result r, plain;
	lk_search_result_init(&r);
	lk_search_result_init(&plain);
	for (int a = 0; a < LK_ALGO_COUNT; a++) {
		for (size_t di = 0; di < ndirs; di++) {
			o.algo = (enum lk_algo)a;
			o.direction = dirs[di];
			o.tick = NULL;
			o.tick_ctx = NULL;
			lk_search(&t->base, &o, &plain);
			ticks = 0;
			o.tick = count_tick;
			o.tick_ctx = &ticks;
			lk_search(&t->base, &o, &r);
			check_path(t, &r);
			assert_int_equal(r.cost, plain.cost);
			assert_int_equal(r.expanded, plain.expanded);
			/* once every 256 expansions of each lane, give or take
			 * the slices two lanes take in turn */
			assert_true(r.expanded >= 25000);
			assert_true(ticks >= r.expanded / 256 / 2 - 2);
			assert_true(ticks <= r.expanded / 256 + 2);
		}
	}
	lk_search_result_release(&r);
	lk_search_result_release(&plain);
	toy_free(&t->base);
	graph_free(&g);
}

/* A w x h grid of unit edges both ways: many shortest paths. */
static void grid_graph(struct graph *g, unsigned w, unsigned h)
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

static void test_seeds(void **state)
{
	(void)state;
	struct graph g;
	grid_graph(&g, 12, 9);
	struct toy *t = toy_new(&g, 2, H_ZERO, 1, true, true);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_search_result r, again;
	lk_search_result_init(&r);
	lk_search_result_init(&again);
	for (int a = 0; a < LK_ALGO_COUNT; a++) {
		unsigned char paths[12][256];
		int distinct = 0;
		for (uint64_t seed = 1; seed <= 12; seed++) {
			o.algo = (enum lk_algo)a;
			o.direction = dirs[0];
			o.seed = seed;
			lk_search(&t->base, &o, &r);
			unsigned long c = check_path(t, &r);
			if (lk_algo_optimal((enum lk_algo)a))
				assert_int_equal(c, 11 + 8);
			assert_true(r.nkeys * 2 <= sizeof paths[0]);
			/* The same seed gives the same search. */
			lk_search(&t->base, &o, &again);
			assert_int_equal(again.nkeys, r.nkeys);
			assert_memory_equal(again.path, r.path, r.nkeys * 2);
			assert_int_equal(again.expanded, r.expanded);
			assert_int_equal(again.generated, r.generated);
			memset(paths[seed - 1], 0, sizeof paths[0]);
			memcpy(paths[seed - 1], r.path, r.nkeys * 2);
			bool seen = false;
			for (uint64_t k = 1; k < seed; k++)
				seen |= memcmp(paths[k - 1], paths[seed - 1], sizeof paths[0]) == 0;
			distinct += !seen;
		}
		/* Shuffled move orders find different (equally short) paths. */
		if (distinct < 2)
			fail_msg("%s: 12 seeds gave %d distinct paths", lk_algo_name((enum lk_algo)a),
				 distinct);
	}
	lk_search_result_release(&r);
	lk_search_result_release(&again);
	toy_free(&t->base);
	graph_free(&g);
}

static void test_solver_reuse(void **state)
{
	(void)state;
	struct graph ga, gb, gc;
	struct lk_rng rng;
	lk_rng_seed(&rng, 1234);
	random_graph(&ga, &rng, 120, 3, 1);
	grid_graph(&gb, 20, 15);
	random_graph(&gc, &rng, 41, 30, 1);   /* many successors per state */
	struct toy *levels[] = {
		toy_new(&ga, 2, H_HALF, 1, true, true),
		toy_new(&gb, 4, H_EXACT, 1, true, true),
		toy_new(&gc, 3, H_RANDOM, 1, true, true),
		toy_new(&gb, 3, H_ZERO, 1, false, false),
	};
	struct lk_solver s;
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_search_result mine, fresh;
	lk_search_result_init(&mine);
	lk_search_result_init(&fresh);
	lk_solver_init(&s);
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
			for (int a = 0; a < LK_ALGO_COUNT; a++) {
				o.algo = (enum lk_algo)a;
				o.direction = dirs[(size_t)(round + (int)i) % ndirs];
				o.seed = (uint64_t)round;
				lk_solver_run(&s, &levels[i]->base, &o, &mine);
				lk_search(&levels[i]->base, &o, &fresh);
				assert_int_equal(mine.status, fresh.status);
				assert_int_equal(mine.cost, fresh.cost);
				assert_int_equal(mine.nkeys, fresh.nkeys);
				assert_int_equal(mine.expanded, fresh.expanded);
				assert_int_equal(mine.stored, fresh.stored);
				if (mine.status == LK_SOLVED) {
					check_path(levels[i], &mine);
					assert_memory_equal(mine.path, fresh.path,
							    mine.nkeys * levels[i]->base.key_size);
				}
				struct truth tr;
				truth_of(levels[i], &tr);
				check_run(&s, levels[i], &tr, o.algo, o.direction, o.seed);
				truth_free(&tr);
			}
		}
	}
	lk_solver_release(&s);
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
		toy_free(&levels[i]->base);
	lk_search_result_release(&mine);
	lk_search_result_release(&fresh);
	graph_free(&ga);
	graph_free(&gb);
	graph_free(&gc);
}

/* The auto portfolio: a heuristic that is no proven bound and sends A*
 * down a long dead end first.  A* alone runs out of states there; auto
 * runs BFS beside it, which finds the three-step path; and where the same
 * heuristic is declared admissible, auto is A* itself, state for state. */
static void test_auto_portfolio(void **state)
{
	(void)state;
	const unsigned chain = 3000;
	unsigned n = 4 + chain;
	unsigned *e = xcalloc(3 * (size_t)(n + 4), sizeof *e);
	size_t ne = 0;
	const unsigned path[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 0, 4 } };
	for (size_t i = 0; i < 4; i++) {
		e[3 * ne] = path[i][0];
		e[3 * ne + 1] = path[i][1];
		e[3 * ne + 2] = 1;
		ne++;
	}
	for (unsigned v = 4; v + 1 < n; v++) {
		e[3 * ne] = v;
		e[3 * ne + 1] = v + 1;
		e[3 * ne + 2] = 1;
		ne++;
	}
	struct graph g;
	graph_from_edges(&g, n, e, ne);
	g.goal[3] = 1;
	free(e);
	struct toy *t = toy_new(&g, 2, H_EXACT, 1, true, false);
	/* misleading: the dead end looks free, the way to the goal dear */
	t->h[1] = t->h[2] = 1000;
	for (unsigned v = 4; v < n; v++)
		t->h[v] = 0;
	t->base.heuristic_admissible = false;
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.bounds.max_states = 400;
	struct lk_search_result a, b;
	lk_search_result_init(&a);
	lk_search_result_init(&b);
	o.algo = LK_ALGO_ASTAR;
	lk_search(&t->base, &o, &a);
	assert_int_equal(a.status, LK_UNKNOWN);
	assert_int_equal(a.limit, LK_LIMIT_STATES);
	assert_false(a.portfolio);
	o.algo = LK_ALGO_AUTO;
	lk_search(&t->base, &o, &b);
	assert_int_equal(b.status, LK_SOLVED);
	assert_true(b.portfolio);
	assert_int_equal(b.algo, LK_ALGO_BFS);
	assert_int_equal(b.cost, 3);
	assert_true(b.optimal);
	/* declared a bound, the same heuristic makes auto plain A* */
	t->base.heuristic_admissible = true;
	lk_search(&t->base, &o, &b);
	assert_false(b.portfolio);
	o.algo = LK_ALGO_ASTAR;
	lk_search(&t->base, &o, &a);
	assert_int_equal(b.status, a.status);
	assert_int_equal(b.expanded, a.expanded);
	assert_int_equal(b.stored, a.stored);
	lk_search_result_release(&a);
	lk_search_result_release(&b);
	toy_free(&t->base);
	graph_free(&g);
	assert_string_equal(lk_algo_name(LK_ALGO_AUTO), "auto");
	enum lk_algo algo;
	assert_int_equal(lk_algo_parse("auto", &algo), 0);
	assert_int_equal(algo, LK_ALGO_AUTO);
}

static void test_names(void **state)
{
	(void)state;
	enum lk_algo algo;
	enum lk_direction dir;
	for (int a = 0; a < LK_ALGO_COUNT; a++) {
		assert_int_equal(lk_algo_parse(lk_algo_name((enum lk_algo)a), &algo), 0);
		assert_int_equal(algo, a);
		assert_int_equal(lk_algo_optimal((enum lk_algo)a),
				 a != LK_ALGO_GREEDY && a != LK_ALGO_ANY);
	}
	assert_int_equal(lk_algo_parse("dfs", &algo), -1);
	assert_string_equal(lk_algo_name(LK_ALGO_ASTAR), "astar");
	for (int d = 0; d <= LK_BOTH; d++) {
		assert_int_equal(lk_direction_parse(lk_direction_name((enum lk_direction)d), &dir), 0);
		assert_int_equal(dir, d);
	}
	assert_int_equal(lk_direction_parse("sideways", &dir), -1);
	assert_string_equal(lk_status_name(LK_SOLVED), "yes");
	assert_string_equal(lk_status_name(LK_UNSOLVABLE), "no");
	assert_string_equal(lk_status_name(LK_UNKNOWN), "unknown");
	const char *limits[] = { "states", "memory", "time", "interrupted" };
	for (int l = LK_LIMIT_STATES; l <= LK_LIMIT_INTERRUPTED; l++)
		assert_string_equal(lk_limit_name((enum lk_limit)l), limits[l - LK_LIMIT_STATES]);
}

/* Backward search on reversed levels: the same checks again. */
static void test_backward(void **state)
{
	dirs = backward_only;
	ndirs = 1;
	test_small_cases(state);
	test_random_graphs(state);
	test_long_chain_both_ways(state);
	test_bounds(state);
	test_tiny_bounds(state);
	test_cancel(state);
	test_seeds(state);
	test_solver_reuse(state);
	dirs = forward_both;
	ndirs = 2;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_auto_portfolio),
		cmocka_unit_test(test_small_cases),
		cmocka_unit_test(test_random_graphs),
		cmocka_unit_test(test_long_chain_both_ways),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_tiny_bounds),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_tick),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_solver_reuse),
		cmocka_unit_test(test_backward),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
