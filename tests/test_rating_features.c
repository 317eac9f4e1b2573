/*
 * test_rating_features.c - the rating's decomposition and search-shape
 * features (rating_features.c), each checked against numbers worked out
 * by hand:
 *
 *  - juggle, the most objects left part-way while another moves, on
 *    sequences of moved objects (A A B B: 0; A B A: 1; A B C A C B: 2) and
 *    on two Sokoban levels whose every solution is known: two boxes one
 *    push each from their goals (0: no box is ever left part-way), and
 *    Microban 21, where one box must leave its goal so that the other can
 *    pass (1, in every solution: argued below);
 *  - expand-share, the optimal solve's expanded over generated states, as
 *    arithmetic and as rate writes it (the same counts --stats writes);
 *  - narrow, the cells' sides that face a wall per cell, on a corridor, an
 *    open room and a Fruit Dating board with an obstacle, counted by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/difficulty.h"
#include "levelkit/game.h"
#include "levelkit/rating.h"
#include "test_records.h"

/* ------------------------------------------------------------ juggle */

static void test_juggle_sequences(void **state)
{
	(void)state;
	enum { A, B, C };
	/* one object after another: none ever waits half done */
	static const uint16_t apart[] = { A, A, B, B };
	assert_int_equal(lk_rating_juggle(apart, 4, 3), 0);
	/* B moves while A waits between its first and last move */
	static const uint16_t aba[] = { A, B, A };
	assert_int_equal(lk_rating_juggle(aba, 3, 3), 1);
	/* A 0..3, B 1..5, C 2..4: at step 2 (C) A and B wait, at step 3 (A)
	 * B and C wait; at no step three others */
	static const uint16_t three[] = { A, B, C, A, C, B };
	assert_int_equal(lk_rating_juggle(three, 6, 3), 2);
	/* a run of one object is no juggling, however long */
	static const uint16_t runs[] = { A, A, A, B, B, C };
	assert_int_equal(lk_rating_juggle(runs, 6, 3), 0);
	/* no moves, and ids the game does not count (>= nobjects), are none */
	assert_int_equal(lk_rating_juggle(NULL, 0, 3), 0);
	static const uint16_t stray[] = { A, 7, A };
	assert_int_equal(lk_rating_juggle(stray, 3, 3), 0);
}

static const struct lk_level_options lopt = { 0 };

/* The features of a level as rate computes them (default options, the
 * optimal solve searching in direction dir). */
static void features_dir(const char *text, enum lk_direction dir, struct lk_features *f,
			 struct lk_rating *r)
{
	struct lk_level *level = test_load_level(text, &lopt, "sokoban");
	struct lk_solver s;
	lk_solver_init(&s);
	struct lk_rate_options o;
	lk_rate_options_init(&o);
	o.search.bounds.max_states = 100000;
	o.search.bounds.max_seconds = 20;
	o.search.direction = dir;
	o.runs = 10;
	lk_rating_init(r);
	lk_rate(&s, level, &o, r);
	struct lk_feature_options fo = { o.search, o.seed, 0 };
	lk_features_compute(&s, level, r, &fo, f);
	lk_solver_release(&s);
	lk_level_free(level);
}

static void features_of(const char *text, struct lk_features *f, struct lk_rating *r)
{
	features_dir(text, LK_FORWARD, f, r);
}

static void test_juggle_levels(void **state)
{
	(void)state;
	struct lk_features f;
	struct lk_rating r;
	/* each box one push from its goal: two single-push runs */
	features_of("#######\n#.$@$.#\n#######\n", &f, &r);
	assert_int_equal(f.how[LK_F_JUGGLE], LK_KNOWN_EXACT);
	assert_int_equal(f.value[LK_F_JUGGLE], 0);
	assert_int_equal(f.value[LK_F_MOVED], 2);
	lk_rating_release(&r);
	/*
	 * Microban 21.  The right box R (under the left goal's right-hand
	 * neighbour) can only go up, then must be pushed sideways onto a goal:
	 * right from the left goal's square, or left from the right goal's,
	 * which would put it on the left goal, where the left box L must go
	 * (L can only go up: right of it is R's column, reachable from the
	 * enclosed left pocket only).  So R goes right, from the left goal's
	 * square, which the player reaches only through L's square or with L
	 * on the goal and pushed down again: L moves between R's first and
	 * last push, or R between L's; with two boxes never more than one
	 * waits.  The optimum, 5 pushes: R up, L up, L down, R right, L up.
	 */
	features_of("####\n#  ####\n# . . #\n# $$#@#\n##    #\n ######\n", &f, &r);
	assert_int_equal(r.optimal.status, LK_SOLVED);
	assert_int_equal(r.optimal.cost, 5);
	assert_int_equal(f.how[LK_F_JUGGLE], LK_KNOWN_EXACT);
	assert_int_equal(f.value[LK_F_JUGGLE], 1);
	assert_true(f.value[LK_F_SESSIONS] >= 3);
	lk_rating_release(&r);
}

/* ------------------------------------------------------------ narrow */

static void test_narrow(void **state)
{
	(void)state;
	struct lk_features f;
	struct lk_rating r;
	/* a corridor of three: 3 + 2 + 3 sides face a wall */
	features_of("#####\n#@$.#\n#####\n", &f, &r);
	assert_int_equal(f.how[LK_F_NARROW], LK_KNOWN_EXACT);
	assert_true(fabs(f.value[LK_F_NARROW] - 8.0 / 3.0) < 1e-12);
	lk_rating_release(&r);
	/* an open room of 3 x 3: four corners of 2, four edges of 1, a middle
	 * of 0 */
	features_of("#####\n#@  #\n# $ #\n#  .#\n#####\n", &f, &r);
	assert_true(fabs(f.value[LK_F_NARROW] - 12.0 / 9.0) < 1e-12);
	assert_int_equal(f.value[LK_F_CELLS], 9);
	lk_rating_release(&r);
	/* Fruit Dating, through the hook: a 4 x 3 board with an obstacle
	 * inside it (second column, middle row), so 11 cells */
	struct lk_level *fruit = test_load_level("game: fruit\n######\n#a..a#\n#.#..#\n#....#\n######\n",
						 &lopt, "fruit");
	unsigned cells = 0, objects = 0;
	fruit->game->rating_counts(fruit, &cells, &objects);
	assert_int_equal(cells, 11);
	/* the 4 x 3 box's border, 2 (4 + 3) = 14 sides, and one side each of
	 * the four cells beside the obstacle */
	assert_int_equal(fruit->game->rating_wall_sides(fruit), 14 + 4);
	lk_level_free(fruit);
	/* a game without walls has no narrowness: it is absent, not 0 */
	struct lk_level *lights = test_load_level("game: lightsout\n*.\n.*\n", &lopt, "lightsout");
	assert_null(lights->game->rating_wall_sides);
	lk_level_free(lights);
}

/* ------------------------------------------------------------ expand-share */

static void test_expand_share(void **state)
{
	(void)state;
	assert_true(fabs(lk_rating_expand_share(3, 12) - 0.25) < 1e-12);
	assert_true(lk_rating_expand_share(0, 0) == 0.0);
	assert_true(fabs(lk_rating_expand_share(5, 5) - 1.0) < 1e-12);
	/* as rate computes it: the optimal solve's own counts */
	struct lk_features f;
	struct lk_rating r;
	features_of("####\n#  ####\n# . . #\n# $$#@#\n##    #\n ######\n", &f, &r);
	assert_int_equal(f.how[LK_F_EXPAND_SHARE], LK_KNOWN_EXACT);
	assert_true(r.optimal.generated > 0);
	assert_true(fabs(f.value[LK_F_EXPAND_SHARE] -
			 (double)r.optimal.expanded / (double)r.optimal.generated) < 1e-12);
	lk_rating_release(&r);
	/* an optimal solve that gave up: a share of an unfinished search
	 * bounds nothing, so it is not known */
	struct lk_level *level =
		test_load_level("####\n#  ####\n# . . #\n# $$#@#\n##    #\n ######\n", &lopt, "sokoban");
	struct lk_solver s;
	lk_solver_init(&s);
	struct lk_rate_options o;
	lk_rate_options_init(&o);
	o.search.bounds.max_states = 2;
	o.runs = 0;
	lk_rating_init(&r);
	lk_rate(&s, level, &o, &r);
	if (r.optimal.status != LK_SOLVED) {
		struct lk_feature_options fo = { o.search, o.seed, 0 };
		lk_features_compute(&s, level, &r, &fo, &f);
		assert_int_equal(f.how[LK_F_EXPAND_SHARE], LK_KNOWN_NOT);
	}
	lk_rating_release(&r);
	lk_solver_release(&s);
	lk_level_free(level);
}

/* ------------------------------------------------------------ the walk */

/* Steps of r's optimal path whose next state the level's successors (as
 * the forward search prunes them) leave out. */
static unsigned steps_pruned_out(const char *text, const struct lk_search_result *r)
{
	struct lk_level *level = test_load_level(text, &lopt, "sokoban");
	const struct lk_game *g = level->game;
	size_t ks = level->key_size;
	void *sc = calloc(1, level->scratch_size);
	unsigned char *keys = calloc(level->max_successors, ks);
	struct lk_edge *edges = calloc(level->max_successors, sizeof *edges);
	assert_true(sc && keys && edges);
	unsigned out = 0;
	for (size_t i = 0; i + 2 < r->nkeys; i++) {
		unsigned n = g->successors(level, r->path + i * ks, sc, keys, edges);
		bool found = false;
		for (unsigned k = 0; k < n && !found; k++)
			found = memcmp(keys + k * ks, r->path + (i + 1) * ks, ks) == 0;
		out += !found;
	}
	free(edges);
	free(keys);
	free(sc);
	lk_level_free(level);
	return out;
}

/*
 * Microban 99, solved backwards: the optimal path, found by pulls, pushes
 * a box on the right while the goal room is a PI-corral (push 15 of 131),
 * a push the forward search's pruning leaves out (it keeps the corral's
 * two pushes; pushing the corral's box first is as short, but another
 * path).  The walk along the solution used to stop there and leave the
 * solution's features unknown, the rating a bound with no limit that made
 * it; it now looks for such a step among every push (whole_successors).
 */
static const char microban99[] =
	"               #####\n"
	"               #   #\n"
	"#######  ####### # #\n"
	"#     #  #  #      #\n"
	"#  @  ####  #     ####\n"
	"#  #    ....## ####  #\n"
	"#    ##### ## $$ $ $ #\n"
	"######   #           #\n"
	"         #  ##########\n"
	"         ####\n";

static void test_walk_path_found_backwards(void **state)
{
	(void)state;
	struct lk_features f;
	struct lk_rating r;
	features_dir(microban99, LK_BACKWARD, &f, &r);
	assert_int_equal(r.optimal.status, LK_SOLVED);
	assert_int_equal(r.optimal.cost, 131);
	assert_true(steps_pruned_out(microban99, &r.optimal) > 0);
	static const enum lk_feature walked[] = { LK_F_UPHILL, LK_F_AGAINST, LK_F_BRANCHING,
						  LK_F_MOVED, LK_F_SESSIONS, LK_F_JUGGLE };
	for (size_t i = 0; i < sizeof walked / sizeof walked[0]; i++)
		if (f.how[walked[i]] != LK_KNOWN_EXACT)
			fail_msg("%s not known exactly", lk_feature_name(walked[i]));
	/* its four boxes all move; in the order of the path */
	assert_int_equal(f.value[LK_F_MOVED], 4);
	lk_rating_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_juggle_sequences),
		cmocka_unit_test(test_juggle_levels),
		cmocka_unit_test(test_expand_share),
		cmocka_unit_test(test_narrow),
		cmocka_unit_test(test_walk_path_found_backwards),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
