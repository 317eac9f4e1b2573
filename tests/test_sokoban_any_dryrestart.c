/*
 * test_sokoban_any_dryrestart.c - dry-restart (solve -a any,
 * src/games/sokoban/sokoban_any_budget.c), off by default: where the first
 * feature-space search runs dry and the sound search runs again in its
 * place, restart's rounds (sokoban_any_restart.c) at that search's stalls,
 * from the first positions of each number of packed boxes on its best
 * path, each a level of its own with a plan made there, parking plan or
 * not.  What it may and may not lose:
 *
 *  - a restart's "no" proves only its position dead, and the search run
 *    again goes on after a round, so -a any with it must still answer
 *    every random level as raw breadth-first search over the push graph
 *    does (a wrong "unsolvable" would show here), and the same without it;
 *  - an answer a restart gives is the search run again's box moves to the
 *    position written out as pushes, then the restart's; soko_any_as_raw
 *    replays every solution from the level's own start, and enough levels
 *    must be answered so that the join is exercised;
 *  - switched off it counts nothing.
 * Rounds are made to happen on small levels: greedy first off, a stall at
 * once (one unit of work) and restarts of a few states; no parking plan
 * kept where the level needs none, so that it is the rounds without one
 * (all that restart alone never runs) that are tested.
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

/* off by default: asked for */
static const char *const with_dry[] = { "dry-restart", NULL };

static void test_dry_restart_loses_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 4141);
	int counter = soko_test_technique("dry-restart");
	int fired[2] = { 0, 0 };
	uint64_t answered = 0;
	soko_any_set_stall_first(1, 8);
	soko_restart_set_min(16);
	struct soko_mix mix = { .live = true };
	while (mix.levels < 400 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		for (int on = 0; on < 2; on++) {
			const char *off[] = { "greedy-first", NULL };
			uint64_t before = soko_restart_answers();
			soko_test_on = on ? with_dry : NULL;
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "dry-restart on" : "dry-restart off",
								 &r);
			soko_test_on = NULL;
			if (!on) {
				assert_true(r.technique_counts[counter] == 0);
				assert_true(soko_restart_answers() == before);
			} else {
				fired[want] += r.technique_counts[counter] > 0;
				answered += soko_restart_answers() - before;
			}
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_restart_set_min(0);
	soko_any_set_stall_first(0, 0);
	print_message("  %d levels (%d solvable, %d not); dry restarts ran on %d solvable, %d "
		      "unsolvable; answered %llu (joined, replayed)\n", mix.levels, mix.yes, mix.no,
		      fired[1], fired[0], (unsigned long long)answered);
	assert_true(mix.yes >= 100 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(fired[1] + fired[0] >= 5 / SOKO_TEST_SHARE);
	assert_true((long long)answered >= 2 / SOKO_TEST_SHARE);   /* signed: 0 under a share */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dry_restart_loses_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
