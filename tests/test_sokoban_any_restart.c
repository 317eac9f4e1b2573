/*
 * test_sokoban_any_restart.c - restart (solve -a any,
 * src/games/sokoban/sokoban_any_restart.c): where the first feature-space
 * search under a parking plan stalls or runs dry, fresh searches from the
 * first positions of each plan step on its best path, each as a level of
 * its own, an answer joined to the first search's path to its position.
 * What it may and may not lose:
 *
 *  - a restart's "no" proves only its position dead, so -a any with it
 *    must still answer every random level as raw breadth-first search
 *    does (a wrong "unsolvable" would show here), with it and without;
 *  - an answer a restart gives is two paths joined, the first search's box
 *    moves written out as pushes and the restart's, and must replay from
 *    the level's own start to a win (soko_any_as_raw replays every
 *    solution), on enough levels that the join is exercised;
 *  - switched off it counts nothing.
 * Restarts are made to happen on small levels: every complete parking plan
 * kept, greedy first off, a stall at once and restarts of a few states.
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
static const char *const with_restart[] = { "restart", NULL };

static void test_restart_loses_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3939);
	int restarts = soko_test_technique("restart");
	int fired = 0;
	uint64_t answered = 0;
	soko_park_set_always(true);
	soko_any_set_stall_first(1, 8);
	soko_restart_set_min(16);
	struct soko_mix mix = { .live = true };
	while (mix.levels < 400 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		for (int on = 0; on < 2; on++) {
			const char *off[] = { "greedy-first", on ? NULL : "restart", NULL };
			uint64_t before = soko_restart_answers();
			soko_test_on = on ? with_restart : NULL;
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "restart on" : "restart off", &r);
			soko_test_on = NULL;
			if (!on) {
				assert_true(r.technique_counts[restarts] == 0);
				assert_true(soko_restart_answers() == before);
			}
			fired += on && r.technique_counts[restarts] > 0;
			answered += soko_restart_answers() - before;
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_restart_set_min(0);
	soko_any_set_stall_first(0, 0);
	soko_park_set_always(false);
	print_message("  %d levels (%d solvable, %d not); restarts ran in %d, answered %llu "
		      "(joined, replayed)\n", mix.levels, mix.yes, mix.no, fired,
		      (unsigned long long)answered);
	assert_true(mix.yes >= 100 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(fired >= 10 / SOKO_TEST_SHARE);
	assert_true(answered >= 5 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restart_loses_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
