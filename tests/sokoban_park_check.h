/*
 * sokoban_park_check.h - the parking suites' shared checks
 * (test_sokoban_any_park.c, test_sokoban_any_repair.c,
 * test_sokoban_any_shuffle.c, test_sokoban_any_freeplay.c): the shape of
 * their random levels, the plan -a any builds, and what every parking plan
 * must be: each step's target a floor square the plan marks, free when the
 * step is played; a step either brings a box from its start square (one
 * for each goal) or moves one an earlier step parked off the goals (or, in
 * a shuffled plan, on a goal); at the
 * end exactly the goals are held, and each step's size counts the boxes
 * brought in so far; how many of a plan's steps play push by push; and
 * -a any with one of their techniques off and on answering as raw BFS.
 * Header-only (static inline), included after cmocka.h, sokoban_any.h and
 * sokoban_random.h.
 */
#ifndef LEVELKIT_TESTS_SOKOBAN_PARK_CHECK_H
#define LEVELKIT_TESTS_SOKOBAN_PARK_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Sasquatch II 30 (David W. Skinner): the one Sasquatch level whose plan
 * plays to its end after a shuffle or with nudges (shuffle and freeplay
 * suites).  A function, so that suites without it get no unused constant. */
static inline const char *sasquatch_ii30(void)
{
	return
		"    ####\n"
		"#####  ##########\n"
		"#      #  #     #\n"
		"# #  ..   ##   $###\n"
		"# # ##.#.  # $$$@ #\n"
		"#      #.  # $  # #\n"
		"#   ######## $  # #\n"
		"###    $       ## #\n"
		"  #.############  #\n"
		"  #.             ##\n"
		"  ################\n";
}

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

/* -a any (greedy first off, so that the plan's search answers) on text
 * with the off-by-default technique `name` off, then on: both must answer
 * as raw breadth-first search did (want); off, its counter stays 0.
 * Returns whether the run with it counted. */
static inline bool as_raw_off_on(const char *text, int want, const char *name)
{
	const char *const with[] = { name, NULL };
	const char *skip[] = { "greedy-first", NULL };
	int counter = soko_test_technique(name);
	bool counted = false;
	for (int k = 0; k < 2; k++) {
		char label[64];
		snprintf(label, sizeof label, "%s %s", name, k ? "on" : "off");
		soko_test_on = k ? with : NULL;
		struct lk_search_result r;
		struct lk_level *level = soko_any_as_raw(text, skip, want, label, &r);
		uint64_t n = r.technique_counts[counter];
		if (!k)
			assert_true(n == 0);   /* off: counts nothing */
		counted = n > 0;
		lk_search_result_release(&r);
		lk_level_free(level);
	}
	soko_test_on = NULL;
	return counted;
}

#endif
