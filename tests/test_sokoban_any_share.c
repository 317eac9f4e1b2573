/*
 * test_sokoban_any_share.c - greedy search's share of Sokoban's search for
 * any solution counted in states (greedy-share, solve -a any,
 * src/games/sokoban/sokoban_any_budget.c): the 30 % of the time bound greedy
 * search gets first is turned into states at a fixed rate, so that where it
 * stops does not depend on the machine's speed.  What it may and may not
 * lose, and what it buys:
 *
 *  - with a share of 1 to 50 states (a test rate: small levels would never
 *    reach the real one), every random level is answered as raw breadth-first
 *    search over the push graph answers it, greedy search stopped by its
 *    share or not (the feature-space search then answers), and every
 *    solution replays to a win; switched off, it counts nothing and the
 *    answers are the same;
 *  - the course is the same every run: Microban 153 (which greedy search
 *    does not solve within its share) searched twice under a time bound
 *    makes the same effort and counts the same, greedy search stopped by its
 *    share both times.
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

/* The time bound of the runs here: far more than any of them takes, so
 * that only the share (in states) decides where greedy search stops. */
#define BOUND 120.0

/* The level searched for any solution under BOUND seconds. */
static struct lk_level *run_bounded(const char *text, const char *const *off,
				    struct lk_search_result *r)
{
	struct lk_level *level = soko_test_load(text, off, false);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = LK_ALGO_ANY;
	o.bounds.max_seconds = BOUND;
	lk_search_result_init(r);
	lk_search(level, &o, r);
	return level;
}

static void test_share_loses_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3838);
	int share = soko_test_technique("greedy-share");
	int stopped[2] = { 0, 0 };
	struct soko_mix mix = { .live = true };
	while (mix.levels < 300 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 3, &mix, &want);
		/* a share of 1 to 50 states */
		double states = 1 + (double)(mix.levels % 50);
		soko_any_set_greedy_rate(states / (0.3 * BOUND));
		for (int on = 0; on < 2; on++) {
			const char *off[] = { on ? NULL : "greedy-share", NULL };
			struct lk_search_result r;
			struct lk_level *level = run_bounded(text, off, &r);
			if (r.status != (want ? LK_SOLVED : LK_UNSOLVABLE))
				fail_msg("greedy share %s: %s, raw BFS says %s\n%s", on ? "on" : "off",
					 lk_status_name(r.status), want ? "yes" : "no", text);
			if (r.status == LK_SOLVED)
				soko_check_replays(level, &r);
			if (!on)
				assert_true(r.technique_counts[share] == 0);
			stopped[want] += on && r.technique_counts[share] > 0;
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_any_set_greedy_rate(0);
	print_message("  %d levels (%d solvable, %d not); greedy search stopped by its share in "
		      "%d solvable and %d unsolvable ones\n", mix.levels, mix.yes, mix.no, stopped[1],
		      stopped[0]);
	assert_true(mix.yes >= 150 / SOKO_TEST_SHARE && mix.no >= 15 / SOKO_TEST_SHARE);
	assert_true(stopped[1] >= 30 / SOKO_TEST_SHARE && stopped[0] >= 5 / SOKO_TEST_SHARE);
}

/* Microban 153 (David W. Skinner's Microban, ../shared/data/sokoban/
 * microban.xsb): greedy search's first slice of 131,072 states does not
 * solve it; the feature-space search does, in about 150,000 states. */
static const char microban_153[] = "#############\n"
				   "#.# @#  #   #\n"
				   "#.#$$   # $ #\n"
				   "#.#  # $#   #\n"
				   "#.# $#  # $##\n"
				   "#.#  # $#  #\n"
				   "#.# $#  # $#\n"
				   "#..  # $   #\n"
				   "#..  #  #  #\n"
				   "############\n";

static void test_share_same_course(void **state)
{
	(void)state;
	int share = soko_test_technique("greedy-share");
	/* a share of 20,000 states, where the first slice is 131,072 */
	soko_any_set_greedy_rate(20000 / (0.3 * BOUND));
	struct lk_search_result r[2];
	for (int i = 0; i < 2; i++) {
		struct lk_level *level = run_bounded(microban_153, NULL, &r[i]);
		assert_int_equal(r[i].status, LK_SOLVED);
		soko_check_replays(level, &r[i]);
		assert_true(r[i].technique_counts[share] == 1);
		lk_level_free(level);
	}
	soko_any_set_greedy_rate(0);
	print_message("  Microban 153: %llu expanded, %llu generated, %zu stored, both runs\n",
		      (unsigned long long)r[0].expanded, (unsigned long long)r[0].generated,
		      r[0].stored);
	assert_true(r[0].expanded == r[1].expanded && r[0].generated == r[1].generated);
	assert_true(r[0].stored == r[1].stored && r[0].nkeys == r[1].nkeys);
	for (int t = 0; t < LK_MAX_TECHNIQUES; t++)
		if (r[0].technique_counts[t] != r[1].technique_counts[t])
			fail_msg("counter %d: %llu, then %llu", t,
				 (unsigned long long)r[0].technique_counts[t],
				 (unsigned long long)r[1].technique_counts[t]);
	lk_search_result_release(&r[0]);
	lk_search_result_release(&r[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share_loses_nothing),
		cmocka_unit_test(test_share_same_course),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
