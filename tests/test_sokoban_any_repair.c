/*
 * test_sokoban_any_repair.c - plan-repair (src/games/sokoban/
 * sokoban_parkrepair.c): the parking plan mended forwards so that more of
 * it plays push by push.  What it may and may not do:
 *
 *  - a plan it returns is still a plan: each step's target is empty before
 *    it, each square a step leaves (a parking or set-aside square, never a
 *    goal) holds a box, the boxes taken from their start are as many as
 *    the goals, and the last step leaves the goals and nothing else
 *    filled;
 *  - a plan it returns plays push by push (sokoban_parkplay.c) further
 *    than the plan it mended, and the original steps it reports played
 *    are more than before; where it returns none it reports the same
 *    count both ways, and a plan that plays to its end is never mended;
 *  - as the search asks for it (held_only), it mends only a plan whose
 *    first failing step finds its target holding a box, and that plan as
 *    without held_only;
 *  - it only steers the search (it prunes no move): -a any answers random
 *    levels as raw breadth-first search with it on (every failing plan
 *    mended: soko_park_set_repair_all, since random plans seldom fail with the
 *    target held); off it counts nothing;
 *  - on Sasquatch II 19 (soko_test_crossing), whose plan's first step
 *    finds its target holding a box not moved yet, the mended plan's
 *    first original step plays.
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

/* Mends p and checks what the header promises; returns the mended plan
 * (NULL: none), the original steps played before and after in *before
 * and *after. */
static struct soko_park *mend(const struct sokoban *s, const struct soko_park *p, int *before,
			      int *after)
{
	struct soko_park *q = soko_park_repair(s, p, NULL, false, before, after);
	assert_int_equal(*before, plays(s, p));
	if (!q) {
		assert_int_equal(*after, *before);
		return NULL;
	}
	assert_true(*after > *before);
	assert_true(q->repaired);
	check_plan(s, q);
	/* its steps so played hold the original ones counted, and more
	 * than the original plan plays */
	assert_true(plays(s, q) >= *after);
	assert_true(plays(s, q) > plays(s, p));
	return q;
}

static void test_crossing(void **state)
{
	(void)state;
	soko_park_set_always(false);
	struct lk_level *level = soko_test_load(soko_test_crossing, NULL, false);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_park *p = plan_of(level);
	assert_non_null(p);
	enum soko_play_fault why;
	assert_int_equal(soko_park_play(s, p, &why), 0);
	assert_int_equal(why, SOKO_PLAY_TARGET_HELD);
	int before, after;
	struct soko_park *q = mend(s, p, &before, &after);
	assert_non_null(q);
	assert_int_equal(before, 0);
	print_message("  Sasquatch II 19: %d steps play of %d, mended %d (%d steps)\n", before,
		      p->nsteps, after, q->nsteps);
	soko_park_free(q);
	soko_park_free(p);
	lk_level_free(level);
}

static void test_random(void **state)
{
	(void)state;
	soko_park_set_always(true);
	struct lk_rng rng;
	lk_rng_seed(&rng, 3844);
	int plans = 0, failing = 0, mended = 0, whole = 0, counted = 0;
	/* a plan needs a solvable level: at most a third unsolvable */
	struct soko_mix mix = { 0 };
	int held = 0;
	while (mix.levels < 150 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		struct lk_level *level = soko_test_load(text, NULL, false);
		const struct sokoban *s = (const struct sokoban *)level;
		struct soko_park *p = plan_of(level);
		if (p) {
			plans++;
			int before, after;
			struct soko_park *q = mend(s, p, &before, &after);
			if (before < p->nsteps)
				failing++;
			else
				assert_null(q);   /* nothing to mend */
			if (q) {
				mended++;
				whole += soko_park_play(s, q, NULL) < 0;
			}
			/* as the search asks: only a plan whose failing step
			 * finds its target held, and then as mended above */
			enum soko_play_fault why;
			soko_park_play(s, p, &why);
			int b2, a2;
			struct soko_park *h = soko_park_repair(s, p, NULL, true, &b2, &a2);
			assert_int_equal(b2, before);
			if (why != SOKO_PLAY_TARGET_HELD) {
				assert_null(h);
				assert_int_equal(a2, before);
			} else {
				held++;
				assert_int_equal(a2, after);
				assert_int_equal(h != NULL, q != NULL);
				if (h) {
					assert_int_equal(h->nsteps, q->nsteps);
					assert_memory_equal(h->target, q->target,
							    (size_t)q->nsteps * sizeof *q->target);
				}
			}
			soko_park_free(h);
			soko_park_free(q);
			soko_park_free(p);
		}
		lk_level_free(level);
		soko_park_set_repair_all(true);   /* random plans seldom fail held */
		counted += as_raw_off_on(text, want, "plan-repair");
		soko_park_set_repair_all(false);
		free(text);
	}
	soko_park_set_always(false);
	print_message("  %d random levels: %d plans, %d fail push by push (%d with the target "
		      "held), %d mended (%d to the end); %d searches count it\n",
		      mix.levels, plans, failing, held, mended, whole, counted);
	assert_true(mended >= 10 / SOKO_TEST_SHARE);
	assert_true(counted >= 10 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crossing),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
