/*
 * test_sokoban_any_shuffle.c - shuffle-plan (src/games/sokoban/
 * sokoban_parkshuffle.c): a prelude of box moves from the level's start
 * after which the parking plan plays push by push.  What it may and may
 * not do:
 *
 *  - a plan it returns is still a plan (sokoban_park_check.h: targets
 *    empty before their step, every box taken in from its start once, the
 *    goals and nothing else filled at the end), marked shuffled, and plays
 *    push by push (sokoban_parkplay.c) to its end, from the level's start;
 *  - it reports the original plan's steps played before as the play does,
 *    and after at least as many; it returns a plan only when one plays to
 *    its end;
 *  - it only steers the search (it prunes no move itself): -a any answers
 *    random levels as raw breadth-first search with it on and off; off it
 *    counts nothing;
 *  - on Sasquatch II 30, whose plan fails at its first step (a box of the
 *    start cluster in the way), the search with it builds a plan in force
 *    that plays to its end.
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
#include "../src/games/sokoban/sokoban_any.h"
#include "sokoban_random.h"
#include "sokoban_park_check.h"

/* Shuffles p and checks what the header promises; returns the plan
 * (NULL: none). */
static struct soko_park *shuffle(const struct sokoban *s, const struct soko_park *p,
				 const uint8_t *doorway, int *before, int *after)
{
	int moves;
	struct soko_park *q = soko_park_shuffle(s, p, doorway, NULL, before, after, &moves);
	if (*before < 0) {   /* too large to search */
		assert_null(q);
		return NULL;
	}
	assert_int_equal(*before, plays(s, p));
	assert_true(*after >= *before);
	if (!q)
		return NULL;
	assert_int_equal(*after, p->nsteps);
	assert_true(q->shuffled);
	assert_true(moves >= 1);
	check_plan(s, q);
	assert_true(soko_park_play(s, q, NULL) < 0);
	return q;
}

static void test_ii30(void **state)
{
	(void)state;
	soko_park_set_always(false);
	struct lk_level *level = soko_test_load(sasquatch_ii30(), NULL, false);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_park *p = plan_of(level);
	assert_non_null(p);
	assert_int_equal(soko_park_play(s, p, NULL), 0);
	struct soko_plan plan;
	soko_plan_build(&plan, s, false, NULL);   /* the doorways */
	int before, after;
	struct soko_park *q = shuffle(s, p, plan.doorway, &before, &after);
	assert_non_null(q);
	print_message("  Sasquatch II 30: %d of %d steps play; shuffled, %d steps play to the end\n",
		      before, p->nsteps, q->nsteps);
	soko_park_free(q);
	soko_plan_release(&plan);
	soko_park_free(p);
	lk_level_free(level);
	/* the search's own plan, with the switch */
	static const char *const with[] = { "shuffle-plan", NULL };
	soko_test_on = with;
	level = soko_test_load(sasquatch_ii30(), NULL, false);
	s = (const struct sokoban *)level;
	soko_plan_build(&plan, s, true, NULL);
	assert_non_null(plan.park);
	assert_true(plan.park->shuffled);
	assert_true(soko_park_play(s, plan.park, NULL) < 0);
	soko_plan_release(&plan);
	lk_level_free(level);
	soko_test_on = NULL;
}

static void test_random(void **state)
{
	(void)state;
	soko_park_set_always(true);
	struct lk_rng rng;
	lk_rng_seed(&rng, 3944);
	int plans = 0, failing = 0, shuffled = 0, further = 0, counted = 0;
	/* a plan needs a solvable level: at most a third unsolvable */
	struct soko_mix mix = { 0 };
	while (mix.levels < 150 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		struct lk_level *level = soko_test_load(text, NULL, false);
		const struct sokoban *s = (const struct sokoban *)level;
		struct soko_park *p = plan_of(level);
		if (p) {
			plans++;
			struct soko_plan plan;
			soko_plan_build(&plan, s, false, NULL);
			int before, after;
			struct soko_park *q = shuffle(s, p, plan.doorway, &before, &after);
			failing += before < p->nsteps;
			shuffled += q != NULL;
			further += after > before;
			soko_park_free(q);
			soko_plan_release(&plan);
			soko_park_free(p);
		}
		lk_level_free(level);
		counted += as_raw_off_on(text, want, "shuffle-plan");
		free(text);
	}
	soko_park_set_always(false);
	print_message("  %d random levels: %d plans, %d fail push by push, %d play further "
		      "shuffled, %d to the end; %d searches count it\n",
		      mix.levels, plans, failing, further, shuffled, counted);
	assert_true(shuffled >= 5 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ii30),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
