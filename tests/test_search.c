/*
 * test_search.c - tests of the solvers (search.c) on a toy game
 * (search_toy.c): a weighted directed graph given as adjacency lists, a
 * state being a node number packed into 2, 3 or 4 bytes, edges costing
 * 1..5, a set of goal nodes and an optional admissible heuristic (0, exact
 * distance / 2, exact distance, or a random value below the exact
 * distance, which is admissible but inconsistent).  Levels with one goal
 * also offer a reversed level (edges turned round, start and goal
 * swapped) for backward and bidirectional search.
 *
 * The truths are computed in search_toy.c: a Dijkstra for least costs and
 * a BFS for fewest edges, on hundreds of random graphs made with a fixed
 * seed.
 * Checked: BFS finds fewest edges, UCS and A* the least cost, greedy some
 * path; every path starts at the start, ends at a goal and follows real
 * edges; unreachable goals give LK_UNSOLVABLE; the state, memory and
 * cancel bounds give LK_UNKNOWN with the right limit and never a wrong
 * answer; seeds change the order but not the optimum; a solver reused
 * across levels of other key sizes gives the same answers as a fresh one.
 *
 * This file holds the answers on random and hand-made graphs, the names,
 * the auto portfolio, the backward rerun, and the main that runs them all;
 * the toy game and the truths are in search_toy.c, the tests of bounds,
 * cancellation, ticks, seeds and solver reuse in search_bounds.c.
 */
#include "search_toy.h"

#include <stdlib.h>

/* ---------------------------------------------------- random graphs */

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
		cmocka_unit_test_teardown(test_slow_expansions, slow_expansions_done),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_solver_reuse),
		cmocka_unit_test(test_backward),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
