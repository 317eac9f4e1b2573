/*
 * test_sokoban_any_areas.c - area by area (solve -a any,
 * src/games/sokoban/sokoban_any_areas.c): the goal areas solved one at a
 * time as levels of their own, every other box a wall, then the rest
 * searched whole, and the search of the whole level after that when they
 * do not answer.  What it may and may not lose:
 *
 *  - it only ever answers "solved", with a path joined from its parts, and
 *    otherwise leaves the level to the search as before; so with it on
 *    every random level must still be answered as raw breadth-first search
 *    over the push graph answers it, and the joined solutions must replay
 *    (levels of two boxes and more take part here, not ten as in solve,
 *    and the probe of the whole level before the areas is cut to two
 *    states, so that the areas get their turn);
 *  - with it on, areas are solved apart on solvable levels; off it counts
 *    nothing;
 *  - the exit (soko_set_exit): a level counts as solved only with the player
 *    where the exit says, forwards and backwards (the reversed search's
 *    virtual start pulls only from there), worked out by hand on a doorway
 *    level whose one solution leaves the player on the left;
 *  - a level of two rooms, each solved apart, the rooms' parts joined;
 *  - area-restarts (an area proved unsolvable taken as one with an area
 *    solved before it, and the areas solved again from the start) loses
 *    nothing either: random levels answered as raw breadth-first search
 *    answers them, on and off, and it restarts on some; and on a small
 *    level where the rounds alone leave an area proved unsolvable, the
 *    areas answer only with restarts, with a path that replays;
 *  - area-restore (a second pass, where the first and the rest after it
 *    did not solve the level, in which an area whose level, the other
 *    boxes walls, is dead or unsolvable is solved with the boxes near it
 *    in it, each to end where it stands): with the rest off, so that its
 *    pass runs, random levels answered as raw breadth-first search answers
 *    them, on and off, restoring on some; on a small level the areas
 *    answer only with it, with a path that replays.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"
#include "levelkit/strbuf.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "sokoban_random.h"

/* Random levels answered as raw BFS answers them with technique `name`
 * on and off (areas from two boxes up, and a probe of two states before
 * them: the areas' turn); how many it counted on, solvable and not, into
 * fired.  Returns the levels drawn. */
static struct soko_mix random_off_on(const char *name, unsigned long seed, int levels,
				     int fired[2])
{
	struct lk_rng rng;
	lk_rng_seed(&rng, seed);
	soko_any_areas_set_min_boxes(2);
	soko_any_set_slice_first(1);
	struct soko_mix mix = { .live = true };
	while (mix.levels < levels / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		if (soko_any_off_on(text, want, name) > 0)
			fired[want]++;
		free(text);
	}
	soko_any_areas_set_min_boxes(0);
	soko_any_set_slice_first(0);
	print_message("  %s: %d levels (%d solvable, %d not); it counted on %d solvable, "
		      "%d unsolvable\n", name, mix.levels, mix.yes, mix.no, fired[1], fired[0]);
	return mix;
}

static void test_areas_lose_nothing(void **state)
{
	(void)state;
	int fired[2] = { 0, 0 };
	struct soko_mix mix = random_off_on("area-by-area", 4242, 300, fired);
	assert_true(mix.yes >= 100 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(fired[1] >= 10 / SOKO_TEST_SHARE);
}

/* A level where the first pass leaves areas whose level, the other boxes
 * walls, is dead or unsolvable, and the areas answer only with
 * area-restore's pass, the rest after the first pass off (found among
 * random levels). */
static const char restore_level[] = "#########\n"
				    "#   $.  #\n"
				    "#  $@   #\n"
				    "# $$.   #\n"
				    "#  .  . #\n"
				    "#########\n";

/* Do the areas alone answer `text` with technique `name` on or off?  A
 * path they answer with must replay, and the technique counts only when
 * on, and then where they answer. */
static bool areas_answered(const char *text, const char *name, bool on)
{
	const char *const with[] = { name, NULL };
	const char *off[] = { on ? NULL : name, NULL };
	soko_test_on = on ? with : NULL;   /* some are off by default */
	struct lk_level *level = soko_test_load(text, off, false);
	soko_test_on = NULL;
	struct lk_search_options opt = { .algo = LK_ALGO_ANY };
	struct lk_search_result r;
	lk_search_result_init(&r);
	bool answered = soko_any_areas(level, &opt, &r);
	uint64_t counted = r.technique_counts[soko_test_technique(name)];
	if (answered) {
		assert_true(r.status == LK_SOLVED);
		soko_check_replays(level, &r);
	}
	assert_true(on ? !answered || counted >= 1 : counted == 0);
	lk_search_result_release(&r);
	lk_level_free(level);
	return answered;
}

static void test_restore_answers(void **state)
{
	(void)state;
	soko_any_areas_set_min_boxes(2);
	soko_any_areas_set_rest(false);
	assert_false(areas_answered(restore_level, "area-restore", false));
	assert_true(areas_answered(restore_level, "area-restore", true));
	soko_any_areas_set_rest(true);
	soko_any_areas_set_min_boxes(0);
}

static void test_restore_loses_nothing(void **state)
{
	(void)state;
	int fired[2] = { 0, 0 };
	soko_any_areas_set_rest(false);   /* else its pass is seldom reached */
	random_off_on("area-restore", 4243, 1000, fired);
	soko_any_areas_set_rest(true);
	/* it runs only where the first pass solved some areas and left
	 * others: on few small levels, most of them unsolvable */
	assert_true(fired[0] + fired[1] >= 8 / SOKO_TEST_SHARE);
}

static void test_restarts_lose_nothing(void **state)
{
	(void)state;
	int fired[2] = { 0, 0 };
	random_off_on("area-restarts", 777, 300, fired);
	assert_true(fired[1] + fired[0] >= 15 / SOKO_TEST_SHARE);
}

/* A level where the rounds of area by area leave an area proved
 * unsolvable, and a restart with it taken as one with an area solved
 * before it answers (found among random levels).  Goals two steps apart
 * form an area: the two on the right are one, the one on the left
 * another. */
static const char swap_level[] = "########\n"
				 "###  # #\n"
				 "# . @$.#\n"
				 "#  # $ #\n"
				 "# $   .#\n"
				 "########\n";

static void test_restart_answers(void **state)
{
	(void)state;
	soko_any_areas_set_min_boxes(2);
	assert_false(areas_answered(swap_level, "area-restarts", false));
	assert_true(areas_answered(swap_level, "area-restarts", true));
	soko_any_areas_set_min_boxes(0);
}

/* The box can only be pushed right into the doorway, from the left: the
 * one solution leaves the player on the left of the wall. */
static const char doorway[] = "#######\n"
			      "#  #  #\n"
			      "# $.  #\n"
			      "#@ #  #\n"
			      "#######\n";

/* Search doorway with the exit on the left (x < 3) or the right, in one
 * direction; 1 solved, 0 unsolvable. */
static int doorway_answer(bool left, enum lk_direction dir)
{
	struct lk_level *level = soko_test_load(doorway, NULL, false);
	struct sokoban *s = (struct sokoban *)level;
	uint8_t *exit_area = lk_xcalloc((size_t)s->cells, 1);
	for (int c = 0; c < s->cells; c++) {
		int x = c % s->width - 1;   /* the board is padded by one */
		if (!s->wall[c] && !s->goal[c])
			exit_area[c] = left ? x < 3 : x > 3;
	}
	soko_set_exit(s, exit_area);
	struct lk_search_options opt = { .algo = LK_ALGO_BFS, .direction = dir };
	struct lk_search_result r;
	lk_search_result_init(&r);
	lk_search(level, &opt, &r);
	assert_true(r.status != LK_UNKNOWN);
	int answer = r.status == LK_SOLVED;
	if (answer)
		soko_check_replays(level, &r);
	lk_search_result_release(&r);
	lk_level_free(level);
	return answer;
}

static void test_exit(void **state)
{
	(void)state;
	assert_int_equal(doorway_answer(true, LK_FORWARD), 1);
	assert_int_equal(doorway_answer(false, LK_FORWARD), 0);
	assert_int_equal(doorway_answer(true, LK_BACKWARD), 1);
	assert_int_equal(doorway_answer(false, LK_BACKWARD), 0);
	/* -a any under the exit on the right: never solved */
	struct lk_level *level = soko_test_load(doorway, NULL, false);
	struct sokoban *s = (struct sokoban *)level;
	uint8_t *exit_area = lk_xcalloc((size_t)s->cells, 1);
	for (int c = 0; c < s->cells; c++)
		exit_area[c] = !s->wall[c] && c % s->width - 1 > 3;
	soko_set_exit(s, exit_area);
	struct lk_search_options opt = { .algo = LK_ALGO_ANY };
	struct lk_search_result r;
	lk_search_result_init(&r);
	soko_solve_any(level, &opt, &r);
	assert_true(r.status == LK_UNSOLVABLE);
	lk_search_result_release(&r);
	lk_level_free(level);
}

/* Two rooms with a box and a goal each pair, joined by the corridor
 * where the player starts. */
static const char two_rooms[] = "###############\n"
				"#. $  # #  $ .#\n"
				"# .$  # #  $. #\n"
				"#     #@#     #\n"
				"#. $         $.#\n"
				"###############\n";

static void test_two_rooms(void **state)
{
	(void)state;
	soko_any_areas_set_min_boxes(2);
	soko_any_set_slice_first(1);
	struct lk_level *level = soko_test_load(two_rooms, NULL, false);
	struct lk_search_options opt = { .algo = LK_ALGO_ANY };
	struct lk_search_result r;
	lk_search_result_init(&r);
	soko_solve_any(level, &opt, &r);
	assert_true(r.status == LK_SOLVED);
	soko_check_replays(level, &r);
	int t = soko_test_technique("area-by-area");
	print_message("  two rooms: %llu areas apart, %lu pushes\n",
		      (unsigned long long)r.technique_counts[t], r.cost);
	assert_true(r.technique_counts[t] >= 2);
	lk_search_result_release(&r);
	lk_level_free(level);
	soko_any_areas_set_min_boxes(0);
	soko_any_set_slice_first(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit),
		cmocka_unit_test(test_two_rooms),
		cmocka_unit_test(test_areas_lose_nothing),
		cmocka_unit_test(test_restarts_lose_nothing),
		cmocka_unit_test(test_restart_answers),
		cmocka_unit_test(test_restore_loses_nothing),
		cmocka_unit_test(test_restore_answers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
