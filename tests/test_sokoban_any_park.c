/*
 * test_sokoban_any_park.c - the parking plan of Sokoban's search for any
 * solution (solve -a any, src/games/sokoban/sokoban_park.c): a packing
 * order that may park boxes off the goals first.  What it may and may not
 * do:
 *
 *  - a plan is a list of steps that can be played: each step's target is
 *    empty before it and the parking square it leaves holds a box, each
 *    parking square is left again, the last step leaves every goal and
 *    nothing else filled, and the boxes taken in from their start are as
 *    many as the goals;
 *  - it only steers the search (the features, which state is expanded
 *    next) and stands the goal-room macros aside: it prunes nothing, so
 *    with every complete plan used (parking or not), every random level is
 *    answered as raw breadth-first search answers it, and every solution
 *    replays to a win;
 *  - off, it counts nothing.
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

/* Interior 4..7 x 4..6, 2 to 5 boxes. */
static const struct soko_random_shape park_shape = { 4, 4, 4, 3, 2, 4, 5, 15 };

/* Fails unless plan p of level s can be played as the header says. */
static void check_plan(const struct sokoban *s, const struct soko_park *p)
{
	uint8_t *held = calloc((size_t)s->cells, 1);
	assert_non_null(held);
	int from_start = 0, size = 0;
	for (int i = 0; i < p->nsteps; i++) {
		int t = p->target[i], l = p->leaves[i];
		assert_false(s->wall[t]);
		assert_int_equal(held[t], 0);
		assert_true(p->on_target[t]);
		if (l == SOKO_NONE) {
			from_start++;
			size++;
		} else {
			assert_int_equal(held[l], 1);
			assert_false(s->goal[l]);
			held[l] = 0;
		}
		held[t] = 1;
		assert_int_equal(p->size[i], size);
	}
	assert_int_equal(from_start, s->ngoals);
	for (int c = 0; c < s->cells; c++)
		assert_int_equal(held[c], s->goal[c] ? 1 : 0);
	free(held);
}

/* The plan of a level with every complete one kept (parking or not). */
static struct soko_park *plan_of(const struct lk_level *level)
{
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_plan plan;
	soko_plan_build(&plan, s, false);   /* the doorways */
	struct soko_park *p = soko_park_build(s, plan.doorway);
	soko_plan_release(&plan);
	return p;
}

/* A level whose boxes must be parked: David W. Skinner's Sasquatch II
 * level 19 (../shared/data/sokoban/sasquatch2.xsb; YASS parks two boxes on
 * it): the goals at the top and the right can only be filled once boxes
 * have been moved out of the way and back. */
static const char *crossing =
	"       #####  #####\n"
	"       #   #  #   #\n"
	"       # #.####.# #\n"
	"       # ..    .. #\n"
	"#####  ### #### ###\n"
	"#   #    # #    #\n"
	"# # ##   # #@## #\n"
	"#  $ ##  # #  # ###\n"
	"##  $ ## # $  $.. #\n"
	" ##  $ ### #  #.# #\n"
	"  ##  $ ## ## #   #\n"
	"   ##  $ # #  #####\n"
	"    ##  $  $ ##\n"
	"     #####  ##\n"
	"         ####\n";

static void test_parking_needed(void **state)
{
	(void)state;
	soko_park_set_always(false);
	struct lk_level *level = soko_test_load(crossing, NULL, false);
	struct soko_park *p = plan_of(level);
	assert_non_null(p);
	check_plan((const struct sokoban *)level, p);
	print_message("  Sasquatch II 19: %d steps, %d boxes parked\n", p->nsteps, p->nparked);
	assert_true(p->nparked >= 1);
	soko_park_free(p);
	lk_level_free(level);
}

static void test_parking_plans_lose_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3030);
	int parking = soko_test_technique("parking-plan");
	int levels = 0, yes = 0, no = 0, plans = 0, parked = 0;
	while (levels < 150) {
		int want;
		char *text = soko_random_answered(&rng, &park_shape, 400000, &want);
		if (want == 0 && no > levels / 3) {
			free(text);
			continue;
		}
		levels++;
		yes += want == 1;
		no += want == 0;
		struct lk_level *plain = soko_test_load(text, NULL, false);
		soko_park_set_always(true);
		struct soko_park *p = plan_of(plain);
		if (p) {
			check_plan((const struct sokoban *)plain, p);
			plans++;
			parked += p->nparked > 0;
		}
		soko_park_free(p);
		lk_level_free(plain);
		for (int on = 0; on < 2; on++) {
			const char *off[] = { "greedy-first", on ? NULL : "parking-plan", NULL };
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "parking plan on" : "parking plan off", &r);
			if (!on)
				assert_true(r.technique_counts[parking] == 0);
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		soko_park_set_always(false);
		free(text);
	}
	print_message("  %d levels (%d solvable, %d not): a complete plan for %d, parking in %d\n",
		      levels, yes, no, plans, parked);
	assert_true(yes >= 80 && no >= 15);
	assert_true(plans >= 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parking_needed),
		cmocka_unit_test(test_parking_plans_lose_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
