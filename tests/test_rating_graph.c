/*
 * test_rating_graph.c - the rating's graph features (rating_graph.c)
 * worked out by hand on a four-state toy game, so that each number is
 * checked against arithmetic done apart from the code: reachable states,
 * the dead-end share, greedy choices into dead ends, shortest solutions and
 * their narrowest layer and their scarcity, the solution's traps, detours and irreversible
 * steps; and the soft greedy walker's chance to win (rating_walker.c), on
 * the whole graph and on a bounded part of a second toy graph; and that a
 * signal cutting either short is said in the features' limits.
 *
 * The toy graph (h: the heuristic each state is ranked by):
 *
 *     0 (start, h 2) -> 1, 2
 *     1 (h 1)        -> 3, 0
 *     2 (h 0)           no moves: a dead end
 *     3 (goal, h 0)
 *
 * and the solution 0, 1, 3.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/rating.h"
#include "levelkit/search.h"

static const unsigned char moves_from[4][2] = { { 1, 2 }, { 3, 0 }, { 0, 0 }, { 0, 0 } };
static const unsigned nmoves[4] = { 2, 2, 0, 0 };
static const unsigned rank[4] = { 2, 1, 0, 0 };

static void toy_initial(const struct lk_level *level, void *key)
{
	(void)level;
	*(unsigned char *)key = 0;
}

static unsigned toy_successors(const struct lk_level *level, const void *key, void *scratch,
			       unsigned char *keys_out, struct lk_edge *edges)
{
	(void)level;
	(void)scratch;
	unsigned v = *(const unsigned char *)key;
	for (unsigned i = 0; i < nmoves[v]; i++) {
		keys_out[i] = moves_from[v][i];
		edges[i] = (struct lk_edge){ .cost = 1, .move = i };
	}
	return nmoves[v];
}

static bool toy_is_goal(const struct lk_level *level, const void *key)
{
	(void)level;
	return *(const unsigned char *)key == 3;
}

static unsigned toy_heuristic(const struct lk_level *level, const void *key, void *scratch)
{
	(void)level;
	(void)scratch;
	return rank[*(const unsigned char *)key];
}

static const struct lk_game toy_game = {
	.name = "toy",
	.summary = "four states by hand",
	.initial_state = toy_initial,
	.successors = toy_successors,
	.is_goal = toy_is_goal,
	.heuristic = toy_heuristic,
};

static void test_by_hand(void **state)
{
	(void)state;
	struct lk_level level = {
		.game = &toy_game,
		.key_size = 1,
		.max_successors = 2,
		.scratch_size = 0,
		.metric = "moves",
		.has_heuristic = true,
	};
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	static const unsigned char path[] = { 0, 1, 3 };
	struct lk_features f;
	lk_features_init(&f);
	lk_features_graph(&level, &so, 1000, path, 3, &f);

	assert_int_equal(f.how[LK_F_REACHABLE], LK_KNOWN_EXACT);
	assert_true(f.value[LK_F_REACHABLE] == 4);
	/* state 2 alone cannot win */
	assert_true(fabs(f.value[LK_F_DEAD_SHARE] - 0.25) < 1e-12);
	/* the live states with moves are 0 and 1; greedy's best-ranked
	 * move from 0 is 2 (h 0), a dead end; from 1 it is the goal */
	assert_true(fabs(f.value[LK_F_GREEDY_TRAP] - 0.5) < 1e-12);
	/* one shortest solution, 0 1 3; at depth 1 only state 1 lies on it */
	assert_true(f.value[LK_F_SOLUTIONS] == 1);
	/* a single shortest solution is as scarce as solutions get */
	assert_int_equal(f.how[LK_F_SCARCITY], LK_KNOWN_EXACT);
	assert_true(fabs(f.value[LK_F_SCARCITY] - 6.0) < 1e-12);
	assert_true(f.value[LK_F_WIDTH] == 1);
	/* beside 0 -> 1 the move into 2 is a trap; beside 1 -> 3 the move
	 * back to 0 is a detour (2 moves to go there, 1 here); 1 -> 3 leaves
	 * the component {0, 1} and cannot be undone */
	assert_true(f.value[LK_F_TRAPS] == 1);
	assert_true(f.value[LK_F_DETOURS] == 1);
	assert_true(f.value[LK_F_COMMITS] == 1);
}

/* The scarcity's arithmetic: 6 - log10(solutions), at least 0. */
static void test_scarcity(void **state)
{
	(void)state;
	assert_true(fabs(lk_rating_scarcity(1) - 6.0) < 1e-12);
	assert_true(fabs(lk_rating_scarcity(10) - 5.0) < 1e-12);
	assert_true(fabs(lk_rating_scarcity(1000) - 3.0) < 1e-12);
	assert_true(lk_rating_scarcity(1e6) == 0.0);
	assert_true(lk_rating_scarcity(3e9) == 0.0);   /* never below 0 */
	/* fewer solutions, scarcer */
	assert_true(lk_rating_scarcity(2) > lk_rating_scarcity(3));
}

/* A bound too small to explore the graph gives a lower bound on the
 * reachable states and no other graph feature. */
static void test_bounded(void **state)
{
	(void)state;
	struct lk_level level = {
		.game = &toy_game,
		.key_size = 1,
		.max_successors = 2,
		.metric = "moves",
		.has_heuristic = true,
	};
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	struct lk_features f;
	lk_features_init(&f);
	lk_features_graph(&level, &so, 2, NULL, 0, &f);
	assert_int_equal(f.how[LK_F_REACHABLE], LK_KNOWN_AT_LEAST);
	assert_int_equal(f.how[LK_F_DEAD_SHARE], LK_KNOWN_NOT);
	assert_int_equal(f.how[LK_F_SCARCITY], LK_KNOWN_NOT);   /* not known: counts at its least */
	/* the state cap left them unknown, and says so */
	assert_int_equal(f.limits, LK_LIMIT_BIT(LK_LIMIT_STATES));
}

static struct lk_level toy_level(const struct lk_game *game)
{
	return (struct lk_level){
		.game = game,
		.key_size = 1,
		.max_successors = 2,
		.metric = "moves",
		.has_heuristic = true,
	};
}

/* The walker on the first toy's whole graph. */
static void test_walker_whole(void **state)
{
	(void)state;
	struct lk_level level = toy_level(&toy_game);
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	struct lk_features f;
	lk_features_init(&f);
	lk_features_walker(&level, &so, 1000, 2, true, &f);
	/* The walker weighs a move by exp(-0.5 * (its rank - the best)) and
	 * has twice the shortest solution's 2 moves.  From 0: p(1) =
	 * e^-0.5 / (1 + e^-0.5); from 1: p(3) = a = 1 / (1 + e^-1), p(0) =
	 * 1 - a.  Winning within 4 moves from 0 needs 0 1 3 or 0 1 0 1 3:
	 * p(1) a (1 + (1 - a) p(1)). */
	double p1 = exp(-0.5) / (1 + exp(-0.5)), a = 1 / (1 + exp(-1.0));
	double win = p1 * a * (1 + (1 - a) * p1);
	assert_true(fabs(win - 0.304029) < 1e-5);   /* worked out on paper */
	assert_int_equal(f.how[LK_F_WALKER], LK_KNOWN_EXACT);
	assert_true(fabs(f.value[LK_F_WALKER] - -log10(win)) < 1e-9);
	/* the same without the solution: the whole graph gives the horizon */
	lk_features_init(&f);
	lk_features_walker(&level, &so, 1000, 0, false, &f);
	assert_int_equal(f.how[LK_F_WALKER], LK_KNOWN_EXACT);
	assert_true(fabs(f.value[LK_F_WALKER] - -log10(win)) < 1e-9);
}

/*
 * The second toy, for the bound (h: rank):
 *
 *     0 (start, h 3) -> 2 (h 0, no moves: a dead end), 1 (h 1)
 *     1 (h 1)        -> 3
 *     3 (h 1)        -> 4 (goal, h 0), 5 (h 0, no moves)
 *
 * The shortest solution is 0 1 3 4: 3 steps, a horizon of 6.  From 0 the
 * walker takes 2 with a = 1 / (1 + e^-0.5) and 1 with 1 - a; from 3 it
 * wins with 1/2.  On the whole graph its chance is (1 - a) / 2.
 * Explored most likely first: 0, then 2 (a > 1 - a), then 1 (meeting 3:
 * four states); with a bound of four states 3 is left unexpanded, counts
 * as won, and the chance is 1 - a: higher, so the feature is lower (a
 * lower bound on the whole graph's).
 */
static const unsigned char moves2[6][2] = { { 2, 1 }, { 3, 0 }, { 0, 0 }, { 4, 5 }, { 0, 0 }, { 0, 0 } };
static const unsigned nmoves2[6] = { 2, 1, 0, 2, 0, 0 };
static const unsigned rank2[6] = { 3, 1, 0, 1, 0, 0 };

static unsigned toy2_successors(const struct lk_level *level, const void *key, void *scratch,
				unsigned char *keys_out, struct lk_edge *edges)
{
	(void)level;
	(void)scratch;
	unsigned v = *(const unsigned char *)key;
	for (unsigned i = 0; i < nmoves2[v]; i++) {
		keys_out[i] = moves2[v][i];
		edges[i] = (struct lk_edge){ .cost = 1, .move = i };
	}
	return nmoves2[v];
}

static bool toy2_is_goal(const struct lk_level *level, const void *key)
{
	(void)level;
	return *(const unsigned char *)key == 4;
}

static unsigned toy2_heuristic(const struct lk_level *level, const void *key, void *scratch)
{
	(void)level;
	(void)scratch;
	return rank2[*(const unsigned char *)key];
}

static const struct lk_game toy2_game = {
	.name = "toy2",
	.summary = "six states by hand",
	.initial_state = toy_initial,
	.successors = toy2_successors,
	.is_goal = toy2_is_goal,
	.heuristic = toy2_heuristic,
};

static void test_walker_bounded(void **state)
{
	(void)state;
	struct lk_level level = toy_level(&toy2_game);
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	double a = 1 / (1 + exp(-0.5));
	assert_true(fabs(a - 0.622459) < 1e-6);   /* worked out on paper */
	struct lk_features f;
	lk_features_init(&f);
	lk_features_walker(&level, &so, 1000, 3, true, &f);
	assert_int_equal(f.how[LK_F_WALKER], LK_KNOWN_EXACT);
	assert_true(fabs(f.value[LK_F_WALKER] - -log10((1 - a) / 2)) < 1e-9);
	/* four states: 3 is the frontier, won; still exact (the state bound
	 * stopped it, the horizon is the shortest solution's) */
	lk_features_init(&f);
	lk_features_walker(&level, &so, 4, 3, true, &f);
	assert_int_equal(f.how[LK_F_WALKER], LK_KNOWN_EXACT);
	assert_true(fabs(f.value[LK_F_WALKER] - -log10(1 - a)) < 1e-9);
	assert_true(f.value[LK_F_WALKER] < -log10((1 - a) / 2));
	/* a solution not known to be the shortest bounds the horizon only:
	 * the same number, as a lower bound */
	lk_features_init(&f);
	lk_features_walker(&level, &so, 4, 3, false, &f);
	assert_int_equal(f.how[LK_F_WALKER], LK_KNOWN_AT_LEAST);
	assert_true(fabs(f.value[LK_F_WALKER] - -log10(1 - a)) < 1e-9);
	/* no solution and no win in the part explored: no horizon, unknown */
	lk_features_init(&f);
	lk_features_walker(&level, &so, 4, 0, false, &f);
	assert_int_equal(f.how[LK_F_WALKER], LK_KNOWN_NOT);
	/* a game without a heuristic has no walker */
	struct lk_level flat = level;
	flat.has_heuristic = false;
	lk_features_init(&f);
	lk_features_walker(&flat, &so, 1000, 3, true, &f);
	assert_int_equal(f.how[LK_F_WALKER], LK_KNOWN_ABSENT);
}

/* Cut short by a signal (Ctrl-C in rate), the graph and the walker say
 * so in the features' limits, which rate writes as `limit: interrupted`
 * beside the rating the cut made a bound; at its state cap the walker
 * says `states` only where the cap left its value a bound. */
static void test_cut_by_signal(void **state)
{
	(void)state;
	static volatile sig_atomic_t stop = 1;
	struct lk_level level = toy_level(&toy2_game);
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	so.bounds.cancel = &stop;
	struct lk_features f;
	lk_features_init(&f);
	lk_features_walker(&level, &so, 1000, 3, false, &f);
	assert_true(f.limits & LK_LIMIT_BIT(LK_LIMIT_INTERRUPTED));
	assert_true(f.how[LK_F_WALKER] != LK_KNOWN_EXACT);
	lk_features_init(&f);
	lk_features_graph(&level, &so, 1000, NULL, 0, &f);
	assert_true(f.limits & LK_LIMIT_BIT(LK_LIMIT_INTERRUPTED));
	assert_int_equal(f.how[LK_F_SCARCITY], LK_KNOWN_NOT);
	/* not cancelled, stopped at its state cap: exact with the shortest
	 * solution's steps, no limit; a bound without them, `states` */
	stop = 0;
	lk_features_init(&f);
	lk_features_walker(&level, &so, 4, 3, true, &f);
	assert_int_equal(f.limits, 0);
	assert_int_equal(f.how[LK_F_WALKER], LK_KNOWN_EXACT);
	lk_features_init(&f);
	lk_features_walker(&level, &so, 4, 3, false, &f);
	assert_int_equal(f.limits, LK_LIMIT_BIT(LK_LIMIT_STATES));
	assert_int_equal(f.how[LK_F_WALKER], LK_KNOWN_AT_LEAST);
	/* the whole graph: exact, no limit */
	lk_features_init(&f);
	lk_features_walker(&level, &so, 1000, 3, false, &f);
	assert_int_equal(f.limits, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_scarcity),
		cmocka_unit_test(test_walker_whole),
		cmocka_unit_test(test_walker_bounded),
		cmocka_unit_test(test_cut_by_signal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
