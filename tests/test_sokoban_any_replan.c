/*
 * test_sokoban_any_replan.c - re-planning of Sokoban's search for any
 * solution (solve -a any, the `replan` technique: src/games/sokoban/
 * sokoban_replan.c and the schedule in sokoban_any_budget.c): when the
 * first feature-space search stalls at a position where a box not packed
 * is shut off from the goals left by packed boxes, it runs again from the
 * start under a packing order that fills those packed goals last.
 *
 *  - the goals it marks late are packed goals holding a box in the
 *    stalled position, and the new plan is a plan: every goal once;
 *  - with stall windows of one unit of work (the test's setting, as in
 *    test_sokoban_any_stall.c), every random level is still answered as
 *    raw breadth-first search over the push graph answers it, with the
 *    solutions replayed; some levels are re-planned, and switched off (the
 *    default) the technique counts nothing.
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

/* replan asked for (it is off by default) */
static const char *const with_replan[] = { "replan", NULL };

/* Interior 4..7 x 4..6, 2 to 5 boxes, 15 to 29 % walls (corridors, where
 * packed boxes shut others off). */
static const struct soko_random_shape replan_shape = { 4, 4, 4, 3, 2, 4, 15, 15 };
/* For the positions alone (no search): bigger, 3 to 7 boxes. */
static const struct soko_random_shape position_shape = { 5, 6, 4, 5, 3, 5, 15, 20 };

/* Every position with the boxes on some of the goals and the rest on
 * floor squares (drawn at random): the goals marked late hold boxes on
 * packed goals, and the plan built with them orders every goal once. */
static void test_late_goals_are_packed(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3636);
	int marked = 0, positions = 0;
	for (int levels = 0;
	     levels < 3000 / SOKO_TEST_SHARE && positions < 2000 / SOKO_TEST_SHARE; levels++) {
		char *text = soko_random_level(&rng, &position_shape);
		if (!text)
			continue;
		struct lk_level *level = soko_test_load(text, (const char *const[]){ NULL }, false);
		free(text);
		const struct sokoban *s = (const struct sokoban *)level;
		if (!level || s->impossible || s->ngoals < 2) {
			if (level)
				lk_level_free(level);
			continue;
		}
		struct soko_plan plan;
		soko_plan_build(&plan, s, true, NULL);
		size_t cells = (size_t)s->cells;
		uint8_t *late = calloc(cells, 1);
		unsigned char *key = calloc(1, level->key_size);
		for (int k = 0; k < 20; k++) {
			/* the first j goals of the order filled, the other boxes
			 * on floor squares not goals, drawn */
			memset(key, 0, level->key_size);
			int j = (int)lk_rng_below(&rng, (uint32_t)s->ngoals);
			uint8_t *box = calloc(cells, 1);
			for (int i = 0; i < j; i++)
				box[plan.order[i]] = 1;
			int placed = j, tries = 0;
			while (placed < s->nboxes && tries++ < 1000) {
				int c = s->cell_of[lk_rng_below(&rng, (uint32_t)s->nfloor)];
				if (box[c] || s->goal[c])
					continue;
				box[c] = 1;
				placed++;
			}
			if (placed < s->nboxes) {
				free(box);
				continue;
			}
			for (int i = 0; i < s->nfloor; i++)
				if (box[s->cell_of[i]])
					key[2 + i / 8] |= (unsigned char)(1u << (i % 8));
			memset(late, 0, cells);
			int added = soko_replan_late(s, &plan, key, late);
			int count = 0;
			for (size_t c = 0; c < cells; c++)
				if (late[c]) {
					count++;
					assert_true(box[c] && s->goal[c]);
					/* packed: before the first empty goal of its area */
					uint16_t area = plan.area_of[c];
					for (int i = plan.area_first[area]; plan.area_goals[i] != c; i++)
						assert_true(box[plan.area_goals[i]]);
				}
			assert_int_equal(count, added);
			marked += added > 0;
			positions++;
			struct soko_plan again;
			soko_plan_build_late(&again, s, true, NULL, late);
			uint8_t *seen = calloc(cells, 1);
			for (int i = 0; i < s->ngoals; i++) {
				assert_true(s->goal[again.order[i]] && !seen[again.order[i]]);
				seen[again.order[i]] = 1;
			}
			free(seen);
			soko_plan_release(&again);
			free(box);
		}
		free(key);
		free(late);
		soko_plan_release(&plan);
		lk_level_free(level);
	}
	print_message("  %d positions, %d with goals marked late\n", positions, marked);
	assert_true(positions >= 2000 / SOKO_TEST_SHARE && marked >= 20 / SOKO_TEST_SHARE);
}

static void test_replan_loses_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3737);
	int replans = soko_test_technique("replan");
	int replanned = 0;
	soko_any_set_stall_first(1, 1);
	struct soko_mix mix = { .live = true };
	while (mix.levels < 400 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &replan_shape, 400000, 3, &mix, &want);
		for (int on = 0; on < 2; on++) {
			/* off by default: asked for */
			const char *off[] = { "greedy-first", on ? NULL : "replan", NULL };
			soko_test_on = on ? with_replan : NULL;
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "replan on" : "replan off", &r);
			soko_test_on = NULL;
			if (!on)
				assert_true(r.technique_counts[replans] == 0);
			replanned += on && r.technique_counts[replans] > 0;
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_any_set_stall_first(0, 0);
	print_message("  %d levels (%d solvable, %d not), %d re-planned\n", mix.levels, mix.yes,
		      mix.no, replanned);
	assert_true(mix.yes >= 100 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(replanned >= 3 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_late_goals_are_packed),
		cmocka_unit_test(test_replan_loses_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
