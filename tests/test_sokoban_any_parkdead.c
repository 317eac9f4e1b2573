/*
 * test_sokoban_any_parkdead.c - park deadlocks of Sokoban's first
 * feature-space search (solve -a any, src/games/sokoban/sokoban_plandead.c):
 * where a parking plan is in force, a move is cut when after it a box can
 * no longer reach a goal the plan has not reached, or such a goal no box,
 * with the boxes on the goals of the steps reached as walls.  Unlike the
 * goal rooms' plan deadlocks, nothing freezes those boxes in the first
 * search, so the cut may lose solutions there.  What it may and may not
 * lose:
 *
 *  - Sasquatch I 31, whose first search without it stands for millions of
 *    states on positions with the last box shut in a room whose doors are
 *    packed goals (dead, as -a any proves of them), is solved by -a any
 *    with it within a bound of states it is not solved in without (its
 *    first search then meets the pull search), and its solution replays;
 *  - on random levels with every complete plan in force, the first search
 *    alone may run out of moves with it where it solved without (counted,
 *    allowed: the first search proves nothing), and what it solves replays;
 *  - the whole of -a any with it (on by default) answers
 *    every random level as raw breadth-first search does, so a first
 *    search that ran out of moves after a park-deadlock cut never gives a
 *    wrong "unsolvable" (the search without cuts runs), and switched off it
 *    counts nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>

#include "levelkit/game.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "sokoban_random.h"

/* Sasquatch I level 31 (sasquatch1.xsb), by David W. Skinner. */
static const char *sasquatch_i31 =
	"   #####\n"
	"   #   #####\n"
	"   # $$#   ######\n"
	" ###.  . $ #    #\n"
	" #  .##.####### #\n"
	" # $.  . #    # #\n"
	"##.##$$$$#$$$ ######\n"
	" #...    .    #    #\n"
	" #..##.####.### ##@#\n"
	" ## # $ $ $ # $ $  #\n"
	"  # #       #     ###\n"
	"  # #.##.#.######  #\n"
	"  #  $ # $.     $  #\n"
	"  #    ###.## ###$##\n"
	"  ###### #        #\n"
	"         ##########\n";

/* -a any on text (greedy first and all), at most max_states states, with
 * park deadlocks on or off. */
static struct lk_level *any_search(const char *text, bool on, size_t max_states,
				   struct lk_search_result *r)
{
	const char *off[] = { on ? NULL : "park-deadlocks", NULL };
	struct lk_level *level = soko_test_load(text, off, false);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = LK_ALGO_ANY;
	o.bounds.max_states = max_states;
	o.bounds.max_seconds = 600;   /* the state bound decides, on any machine */
	lk_search_result_init(r);
	lk_search(level, &o, r);
	return level;
}

/* Sasquatch I 31 at 3,000,000 states: with the cut, the first search's
 * positions meet the pull search (solved in about 2 processor seconds);
 * without, it is not solved within the bound (under the sanitizers only
 * the run with the cut). */
static void test_sasquatch_i31(void **state)
{
	(void)state;
	int cuts = soko_test_technique("park-deadlocks");
	struct lk_search_result r[2];
#ifdef LEVELKIT_SANITIZED
	int first = 1;
#else
	int first = 0;
#endif
	for (int on = first; on < 2; on++) {
		struct lk_level *level = any_search(sasquatch_i31, on, 3000000, &r[on]);
		if (r[on].status == LK_SOLVED)
			soko_check_replays(level, &r[on]);
		lk_level_free(level);
	}
	if (!first) {
		print_message("  Sasquatch I 31 at 3,000,000 states: %s without (%llu states "
			      "expanded)\n", lk_status_name(r[0].status),
			      (unsigned long long)r[0].expanded);
		assert_true(r[0].technique_counts[cuts] == 0);
		assert_int_equal(r[0].status, LK_UNKNOWN);
		lk_search_result_release(&r[0]);
	}
	print_message("  Sasquatch I 31 at 3,000,000 states: %s with (%llu states expanded, "
		      "%llu moves cut)\n", lk_status_name(r[1].status),
		      (unsigned long long)r[1].expanded,
		      (unsigned long long)r[1].technique_counts[cuts]);
	assert_int_equal(r[1].status, LK_SOLVED);
	assert_true(r[1].technique_counts[cuts] > 0);
	lk_search_result_release(&r[1]);
}

static void test_first_search_random(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3838);
	int cuts = soko_test_technique("park-deadlocks");
	soko_plandead_set_check(true);
	int levels = 0, fired = 0, lost = 0, gained = 0;
	soko_park_set_always(true);
	while (levels < 300 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_answered(&rng, &soko_small_shape, 400000, &want);
		if (want != 1) {
			free(text);
			continue;
		}
		levels++;
		struct lk_search_result r[2];
		for (int on = 0; on < 2; on++) {
			const char *off[] = { "greedy-first", "relevance-cuts",
					      on ? NULL : "park-deadlocks", NULL };
			struct lk_level *level = soko_any_run(text, off, true, &r[on]);
			if (!on)
				assert_true(r[on].technique_counts[cuts] == 0);
			if (r[on].status == LK_SOLVED)
				soko_check_replays(level, &r[on]);
			assert_true(r[on].status != LK_UNKNOWN);
			lk_level_free(level);
		}
		fired += r[1].technique_counts[cuts] > 0;
		lost += r[0].status == LK_SOLVED && r[1].status != LK_SOLVED;
		gained += r[0].status != LK_SOLVED && r[1].status == LK_SOLVED;
		lk_search_result_release(&r[0]);
		lk_search_result_release(&r[1]);
		free(text);
	}
	soko_park_set_always(false);
	print_message("  %d solvable levels, every complete plan in force; park deadlocks cut "
		      "moves in %d; the first search alone: %d lost, %d gained\n",
		      levels, fired, lost, gained);
	assert_true(fired >= 10 / SOKO_TEST_SHARE);
	soko_check_plandead_same("park deadlocks");
}

static void test_any_loses_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 8383);
	int cuts = soko_test_technique("park-deadlocks");
	struct soko_mix mix = { 0 };
	int fired = 0;
	soko_park_set_always(true);
	while (mix.levels < 300 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		for (int on = 0; on < 2; on++) {
			const char *off[] = { "greedy-first", on ? NULL : "park-deadlocks", NULL };
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "park deadlocks on" :
								      "park deadlocks off", &r);
			if (!on)
				assert_true(r.technique_counts[cuts] == 0);
			fired += on && r.technique_counts[cuts] > 0;
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_park_set_always(false);
	print_message("  %d levels (%d solvable, %d not); park deadlocks cut moves in %d\n",
		      mix.levels, mix.yes, mix.no, fired);
	assert_true(mix.yes >= 150 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(fired >= 10 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sasquatch_i31),
		cmocka_unit_test(test_first_search_random),
		cmocka_unit_test(test_any_loses_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
