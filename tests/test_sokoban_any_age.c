/*
 * test_sokoban_any_age.c - cell-age in Sokoban's feature-space search
 * (solve -a any --with cell-age, src/games/sokoban/sokoban_any_order.c):
 * every 8th turn of a cell plays the expansion that has waited in it
 * longest, not the lightest.  What it may and may not lose:
 *
 *  - with every other turn of a cell by age (the test's setting: small
 *    levels' cells get few turns), it only reorders the turns, so every
 *    random level is answered as raw breadth-first search over the push
 *    graph answers it (with greedy search first off, so that the
 *    feature-space search answers; a "no" means every cell ran empty, the
 *    expansions taken by age and their left-over heap items included), and
 *    every solution replays to a win;
 *  - switched off, it counts nothing and the answers are the same;
 *  - the same level searched twice makes the same turns and effort.
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

static void test_cell_age_loses_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3839);
	int aged = soko_test_technique("cell-age");
	int used[2] = { 0, 0 };
	struct soko_mix mix = { .live = true };
	/* every other turn of a cell: small levels' cells get few turns */
	soko_any_set_age_every(2);
	while (mix.levels < 300 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		for (int on = 0; on < 2; on++) {
			static const char *const age_on[] = { "cell-age", NULL };
			const char *off[] = { "greedy-first", NULL };
			soko_test_on = on ? age_on : NULL;
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "cell-age on" : "cell-age off", &r);
			if (!on)
				assert_true(r.technique_counts[aged] == 0);
			if (on && r.technique_counts[aged] > 0) {
				used[want]++;
				struct lk_search_result again;
				struct lk_level *twice = soko_any_run(text, off, false, &again);
				assert_int_equal(again.technique_counts[aged], r.technique_counts[aged]);
				assert_int_equal(again.expanded, r.expanded);
				assert_int_equal(again.status, r.status);
				lk_search_result_release(&again);
				lk_level_free(twice);
			}
			soko_test_on = NULL;
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_any_set_age_every(0);
	print_message("  %d levels (%d solvable, %d not); turns by age in %d solvable and %d "
		      "unsolvable ones\n", mix.levels, mix.yes, mix.no, used[1], used[0]);
	assert_true(mix.yes >= 150 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(used[1] >= 10 / SOKO_TEST_SHARE && used[0] >= 5 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cell_age_loses_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
