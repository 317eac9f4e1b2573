/*
 * test_sokoban_any_stall.c - stall turns of Sokoban's search for any
 * solution (solve -a any, src/games/sokoban/sokoban_any_budget.c): while the
 * first feature-space search (goal-room macros, goal cuts and relevance
 * cuts, which may lose solutions) packs no more boxes, the sound search
 * without them gets turns.  What the turns may and may not lose:
 *
 *  - with windows of one unit of work and turns of a few states, counted from
 *    the first expansion (the test's setting: small levels pack a box with
 *    nearly every move, so the gate, a box packed, would leave them no
 *    turn; it decides when a turn comes, not what a turn may answer), every
 *    random level is answered as raw
 *    breadth-first search over the push graph answers it (a "no" only ever
 *    comes from a search with sound pruning alone), and every solution
 *    replays to a win, whether a turn or the first search found it;
 *  - switched off, the turns count nothing and the answers are the same;
 *  - the schedule is counted in work and states, not seconds: the
 *    same level searched twice makes the same turns, the same effort.
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

static void test_stall_turns_lose_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 2929);
	int turns = soko_test_technique("stall-turns");
	int handed[2] = { 0, 0 };
	soko_any_set_stall_first(1, 1);
	struct soko_mix mix = { .live = true };
	while (mix.levels < 200 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		for (int on = 0; on < 2; on++) {
			const char *off[] = { "greedy-first", on ? NULL : "stall-turns", NULL };
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "stall turns on" : "stall turns off", &r);
			if (!on)
				assert_true(r.technique_counts[turns] == 0);
			if (on && r.technique_counts[turns] > 0) {
				handed[want]++;
				/* the same search again: the same turns, the same effort */
				struct lk_search_result again;
				struct lk_level *twice = soko_any_run(text, off, false, &again);
				assert_int_equal(again.technique_counts[turns], r.technique_counts[turns]);
				assert_int_equal(again.expanded, r.expanded);
				assert_int_equal(again.status, r.status);
				lk_search_result_release(&again);
				lk_level_free(twice);
			}
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_any_set_stall_first(0, 0);
	print_message("  %d levels (%d solvable, %d not); the sound search had turns in %d "
		      "solvable and %d unsolvable ones\n", mix.levels, mix.yes, mix.no, handed[1],
		      handed[0]);
	assert_true(mix.yes >= 100 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(handed[1] >= 20 / SOKO_TEST_SHARE && handed[0] >= 10 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stall_turns_lose_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
