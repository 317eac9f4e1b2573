/*
 * test_sokoban_any_pullcap.c - pull-cap-turns (solve -a any,
 * src/games/sokoban/sokoban_pull.c and sokoban_any_budget.c): each stall
 * turn of the sound search that does not answer raises the cap on the
 * states pull-both-orders' YASS order may store, fourfold, its states past
 * the old cap then taking turns in the pull search's share.  What it may
 * and may not lose:
 *
 *  - the pull search never prunes a forward move and its answers are
 *    replayed, so with it on every random level must still be answered as
 *    raw breadth-first search over the push graph answers it (a wrong
 *    "unsolvable" or a solution that does not replay would show here), and
 *    the same with it off; the cap is set to 2 states and the greedy
 *    stall to none, so that YASS's order runs into the cap at once and the
 *    raises change what the pull search does;
 *  - with it on, raises do happen (windows of one unit of work and turns
 *    of a few states, the stall suite's setting), on solvable and
 *    unsolvable levels; switched off it counts nothing;
 *  - the raise itself: fourfold where both orders are in use (and from
 *    then on YASS's states past the old cap count in the pull search's
 *    share), nothing with one order (pull-weighted), with the pull search
 *    off, or with a factor below 2.
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

static const char small_level[] = "#######\n"
				   "#.  $ #\n"
				   "# @$ .#\n"
				   "#     #\n"
				   "#######\n";

static void test_raise(void **state)
{
	(void)state;
	soko_pull_set_cap(10);
	for (int k = 0; k < 3; k++) {
		/* both orders (the default), YASS's alone, no pull search */
		static const char *const weighted[] = { "pull-weighted", NULL };
		static const char *const no_pull[] = { "pull-search", NULL };
		soko_test_on = k == 1 ? weighted : NULL;
		struct lk_level *level = soko_test_load(small_level, k == 2 ? no_pull : NULL, false);
		soko_test_on = NULL;
		struct soko_pull p;
		soko_pull_init(&p, (const struct sokoban *)level, (size_t)1 << 24);
		assert_true(p.cap == 10);
		assert_false(soko_pull_raise_cap(&p, 1));
		assert_true(p.cap == 10);
		bool raised = soko_pull_raise_cap(&p, 4);
		assert_true(raised == (k == 0));
		assert_true(p.cap == (k == 0 ? 40u : 10u));
		/* past the old cap its states then count in the share */
		assert_true(p.raised == (k == 0));
		if (k == 0) {   /* no overflow past SIZE_MAX */
			p.cap = SIZE_MAX / 2;
			assert_true(soko_pull_raise_cap(&p, 4));
			assert_true(p.cap == SIZE_MAX);
		}
		soko_pull_release(&p);
		lk_level_free(level);
	}
	soko_pull_set_cap(0);
}

static void test_pull_cap_turns_lose_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 4141);
	int fired[2] = { 0, 0 };
	soko_any_set_stall_first(1, 8);
	soko_pull_set_delay(1);
	soko_pull_set_stall(0);
	soko_pull_set_cap(2);
	struct soko_mix mix = { .live = true };
	while (mix.levels < 300 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		if (soko_any_off_on(text, want, "pull-cap-turns") > 0)
			fired[want]++;
		free(text);
	}
	soko_pull_set_cap(0);
	soko_pull_set_stall(PULL_BOTH_STALL);
	soko_pull_set_delay(0);
	soko_any_set_stall_first(0, 0);
	print_message("  %d levels (%d solvable, %d not); the cap was raised on %d solvable, "
		      "%d unsolvable\n", mix.levels, mix.yes, mix.no, fired[1], fired[0]);
	assert_true(mix.yes >= 100 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(fired[1] >= 10 / SOKO_TEST_SHARE);
	assert_true(fired[0] >= 3 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raise),
		cmocka_unit_test(test_pull_cap_turns_lose_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
