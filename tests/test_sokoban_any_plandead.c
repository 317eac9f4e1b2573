/*
 * test_sokoban_any_plandead.c - plan deadlocks of Sokoban's first
 * feature-space search (solve -a any, src/games/sokoban/sokoban_plandead.c):
 * with goal rooms on, a packed box never moves again, so a move after which
 * a box can no longer reach a goal not packed (or such a goal no box), the
 * packed boxes as walls, is cut.  What it may and may not lose:
 *
 *  - in the first search alone (goal rooms and goal cuts on, relevance cuts
 *    off: they depend on the path, so a search that takes its states in
 *    another order may keep other ones), the cut loses nothing the goal
 *    rooms keep: on random levels, the first search with it answers as the
 *    first search without it (solved, or out of moves), its solutions
 *    replay, and it does cut moves on some of them;
 *  - the whole of -a any with it (off by default: asked for here) still answers every random
 *    level as raw breadth-first search does (a first search that ran out of
 *    moves after a plan-deadlock cut proves nothing: the search without
 *    cuts runs), and switched off it counts nothing.
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

/* plan-deadlocks asked for (it is off by default) */
static const char *const with_pd[] = { "plan-deadlocks", NULL };

static void test_first_search_same_answers(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3535);
	int cuts = soko_test_technique("plan-deadlocks");
	soko_plandead_set_check(true);
	int levels = 0, fired = 0, solved = 0;
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
					      on ? NULL : "plan-deadlocks", NULL };
			soko_test_on = on ? with_pd : NULL;
			struct lk_level *level = soko_any_run(text, off, true, &r[on]);
			if (!on)
				assert_true(r[on].technique_counts[cuts] == 0);
			if (r[on].status == LK_SOLVED)
				soko_check_replays(level, &r[on]);
			lk_level_free(level);
		}
		if (r[0].status != r[1].status)
			fail_msg("first search: %s without plan deadlocks, %s with\n%s",
				 lk_status_name(r[0].status), lk_status_name(r[1].status), text);
		fired += r[1].technique_counts[cuts] > 0;
		solved += r[1].status == LK_SOLVED;
		lk_search_result_release(&r[0]);
		lk_search_result_release(&r[1]);
		free(text);
	}
	soko_test_on = NULL;
	print_message("  %d solvable levels, the first search solved %d; plan deadlocks cut "
		      "moves in %d\n", levels, solved, fired);
	assert_true(fired >= 10 / SOKO_TEST_SHARE);
	soko_check_plandead_same("plan deadlocks");
}

static void test_any_loses_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 5353);
	int cuts = soko_test_technique("plan-deadlocks");
	struct soko_mix mix = { 0 };
	int fired = 0;
	while (mix.levels < 200 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		for (int on = 0; on < 2; on++) {
			const char *off[] = { "greedy-first", on ? NULL : "plan-deadlocks", NULL };
			soko_test_on = on ? with_pd : NULL;
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "plan deadlocks on" :
								      "plan deadlocks off", &r);
			if (!on)
				assert_true(r.technique_counts[cuts] == 0);
			fired += on && r.technique_counts[cuts] > 0;
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_test_on = NULL;
	print_message("  %d levels (%d solvable, %d not); plan deadlocks cut moves in %d\n",
		      mix.levels, mix.yes, mix.no, fired);
	assert_true(mix.yes >= 100 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(fired >= 10 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_search_same_answers),
		cmocka_unit_test(test_any_loses_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
