/*
 * test_sokoban_any_turnkinds.c - unparked turns and dry turns (solve -a
 * any, src/games/sokoban/sokoban_any_budget.c), both off by default:
 *
 *  - unparked-turns adds a third kind of sound turn beside a stalled first
 *    search, under the packing order without the parking plan;
 *  - dry-turns gives the sound search run again after the first search ran
 *    dry the stall turns too, of the kinds unordered-turns and
 *    unparked-turns enable (never its own plan's).
 *
 * What they may and may not lose:
 *
 *  - a plan steers a search, it prunes nothing in the sound search, so with
 *    both on (and unordered-turns) every random level must still be
 *    answered as raw breadth-first search over the push graph answers it (a
 *    wrong "unsolvable" or a solution that does not replay would show
 *    here), and the same with both off;
 *  - with them on, dry turns and unparked turns do run (windows of one unit
 *    of work and turns of a few states, the stall suite's setting, so that
 *    small levels hand over; on every other level parking plans kept even
 *    where they park no box, as the park suite does, since few random
 *    levels need one);
 *  - switched off they count nothing.
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

/* off by default: asked for (unordered-turns in both runs, the baseline
 * the two new kinds are measured against) */
static const char *const with_both[] = { "unordered-turns", "unparked-turns", "dry-turns", NULL };
static const char *const with_base[] = { "unordered-turns", NULL };

static void test_turn_kinds_lose_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 4041);
	int unparked = soko_test_technique("unparked-turns");
	int dry = soko_test_technique("dry-turns");
	int fired_dry[2] = { 0, 0 }, fired_unparked = 0;
	soko_any_set_stall_first(1, 8);
	struct soko_mix mix = { .live = true };
	while (mix.levels < 300 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		/* every other level with its plan kept (unparked turns), every
		 * other as solve has it (more first searches run dry there) */
		soko_park_set_always(mix.levels % 2 == 0);
		for (int on = 0; on < 2; on++) {
			const char *off[] = { "greedy-first", NULL };
			soko_test_on = on ? with_both : with_base;
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "turn kinds on" : "turn kinds off", &r);
			soko_test_on = NULL;
			if (!on) {
				assert_true(r.technique_counts[unparked] == 0);
				assert_true(r.technique_counts[dry] == 0);
			} else {
				fired_dry[want] += r.technique_counts[dry] > 0;
				fired_unparked += r.technique_counts[unparked] > 0;
			}
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_any_set_stall_first(0, 0);
	soko_park_set_always(false);
	print_message("  %d levels (%d solvable, %d not); dry turns ran on %d solvable, %d unsolvable; "
		      "unparked turns on %d\n", mix.levels, mix.yes, mix.no, fired_dry[1], fired_dry[0],
		      fired_unparked);
	assert_true(mix.yes >= 100 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(fired_dry[1] + fired_dry[0] >= 3 / SOKO_TEST_SHARE);
	assert_true(fired_unparked >= 10 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_turn_kinds_lose_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
