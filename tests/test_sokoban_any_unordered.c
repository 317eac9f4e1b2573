/*
 * test_sokoban_any_unordered.c - unordered turns (solve -a any,
 * src/games/sokoban/sokoban_any_budget.c): every other turn of the sound
 * search beside a stalled first search, the first turn first, runs under a
 * plan without the packing order (every goal an area of its own).  What it
 * may and may not lose:
 *
 *  - the plan steers a search, it prunes nothing in the sound search, so
 *    with it on every random level must still be answered as raw
 *    breadth-first search over the push graph answers it (a wrong
 *    "unsolvable" or a solution that does not replay would show here), and
 *    the same with it off;
 *  - with it on, turns without the order do run (windows of one unit of
 *    work and turns of a few states, the stall suite's setting, so that
 *    small levels hand over), on both solvable and unsolvable levels;
 *  - switched off it counts nothing.
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

static void test_unordered_turns_lose_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 4040);
	int fired[2] = { 0, 0 };
	soko_any_set_stall_first(1, 8);
	struct soko_mix mix = { .live = true };
	while (mix.levels < 300 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		if (soko_any_off_on(text, want, "unordered-turns") > 0)
			fired[want]++;
		free(text);
	}
	soko_any_set_stall_first(0, 0);
	print_message("  %d levels (%d solvable, %d not); unordered turns ran on %d solvable, "
		      "%d unsolvable\n", mix.levels, mix.yes, mix.no, fired[1], fired[0]);
	assert_true(mix.yes >= 100 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(fired[1] >= 10 / SOKO_TEST_SHARE);
	assert_true(fired[0] >= 3 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unordered_turns_lose_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
