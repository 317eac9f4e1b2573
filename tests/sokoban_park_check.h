/*
 * sokoban_park_check.h - the parking suites' shared checks
 * (test_sokoban_any_park.c, test_sokoban_any_repair.c,
 * test_sokoban_any_shuffle.c): the shape of
 * their random levels, the plan -a any builds, and what every parking plan
 * must be: each step's target a floor square the plan marks, free when the
 * step is played; a step either brings a box from its start square (one
 * for each goal) or moves one an earlier step parked off the goals (or, in
 * a shuffled plan, on a goal); at the
 * end exactly the goals are held, and each step's size counts the boxes
 * brought in so far; and how many of a plan's steps play push by push.
 * Header-only (static inline), included after cmocka.h, sokoban_any.h and
 * sokoban_random.h.
 */
#ifndef LEVELKIT_TESTS_SOKOBAN_PARK_CHECK_H
#define LEVELKIT_TESTS_SOKOBAN_PARK_CHECK_H

#include <stdint.h>
#include <stdlib.h>

/* Interior 4..7 x 4..6, 2 to 5 boxes. */
static const struct soko_random_shape park_shape = { 4, 4, 4, 3, 2, 4, 5, 15 };

/* Fails unless plan p of level s is a parking plan as sokoban_any.h
 * describes one (above). */
static inline void check_plan(const struct sokoban *s, const struct soko_park *p)
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
			assert_true(p->start[i] != SOKO_NONE);
			from_start++;
			size++;
		} else {
			assert_int_equal(held[l], 1);
			/* shuffle-plan's prelude may stand a box on a goal
			 * for a while */
			assert_true(p->shuffled || !s->goal[l]);
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

/* The parking plan -a any builds for level (before any mending; with
 * soko_park_set_always, every complete plan is kept, parking or not). */
static inline struct soko_park *plan_of(const struct lk_level *level)
{
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_plan plan;
	soko_plan_build(&plan, s, false, NULL);   /* the doorways */
	struct soko_park *p = soko_park_build(s, plan.doorway, NULL, NULL, NULL);
	soko_plan_release(&plan);
	return p;
}

/* Steps of p that play push by push before the first that does not. */
static inline int plays(const struct sokoban *s, const struct soko_park *p)
{
	int bad = soko_park_play(s, p, NULL);
	return bad < 0 ? p->nsteps : bad;
}

#endif
