/*
 * test_sokoban_any_split.c - the parallel search of one level for any
 * solution (solve -a any --split N, src/games/sokoban/sokoban_any_split.c):
 *
 *  - the lanes' configurations: lane 0 the level's own, the others each
 *    different from it and from one another, none a copy of a switch the
 *    user already turned on;
 *  - no answer lost: with 2, 3 and all lanes, -a any answers random small
 *    levels as raw breadth-first search does (a "no" taken from any lane
 *    is a proof), every solution replays, both as the lanes race and with
 *    the first lane held until another answered (so that the others'
 *    answers are the ones taken: split-wins counts them), and without
 *    --split the counter stays 0;
 *  - stopping: a search whose stop flag is set answers unknown,
 *    interrupted; and the lanes that lose are stopped: held until the
 *    first lane has answered, they come back interrupted, not answered.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "sokoban_random.h"

/* Interior 4..7 x 4..6, 3 to 5 boxes (5: the level has a deadlock table,
 * which each lane's copy makes its own), walls on 10 to 29 % of it. */
static const struct soko_random_shape split_shape = { 4, 4, 4, 3, 3, 3, 10, 20 };

/* -a any on text with split searches (0: none), into r. */
static struct lk_level *run_split(const char *text, unsigned split, struct lk_search_result *r)
{
	struct lk_level *level = soko_test_load(text, NULL, false);
	assert_non_null(level);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = LK_ALGO_ANY;
	o.split = split;
	lk_search_result_init(r);
	lk_search(level, &o, r);
	return level;
}

static void test_configs(void **state)
{
	(void)state;
	static const char text[] = "#####\n#@$.#\n#####\n";
	struct lk_level *level = soko_test_load(text, NULL, false);
	assert_non_null(level);
	const struct sokoban *s = (const struct sokoban *)level;
	bool use[SOKO_SPLIT_MAX][SOKO_NTECH];
	int n = 0;
	while (n < SOKO_SPLIT_MAX && soko_any_split_config(s, n, use[n]))
		n++;
	assert_true(n >= 4);
	assert_memory_equal(use[0], s->use, sizeof s->use);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			assert_true(memcmp(use[i], use[j], sizeof use[i]) != 0);
	/* lane 1 turns the second pull order off; turned off already, it is
	 * not run twice */
	int both = soko_test_technique("pull-both-orders");
	assert_true(!use[1][both] && s->use[both]);
	lk_level_free(level);
	static const char *const off[] = { "pull-both-orders", NULL };
	level = soko_test_load(text, off, false);
	s = (const struct sokoban *)level;
	assert_false(s->use[both]);
	int m = 0;
	bool u[SOKO_NTECH];
	while (m < SOKO_SPLIT_MAX && soko_any_split_config(s, m, u)) {
		assert_true(m == 0 || memcmp(u, s->use, sizeof u) != 0);
		m++;
	}
	assert_int_equal(m, n - 1);
	lk_level_free(level);
}

static void test_sound(void **state)
{
	(void)state;
	int split = soko_test_technique("split");
	/* small slices and an early pull search, so that the lanes' switches
	 * act on small levels too */
	soko_any_set_slice_first(64);
	soko_pull_set_delay(1);
	soko_pull_set_stall(8);
	struct lk_rng rng;
	lk_rng_seed(&rng, 3434);
	struct soko_mix mix = { 0 };
	int other = 0;
#ifdef LEVELKIT_SANITIZED
	int want_levels = 60;
#else
	int want_levels = 300;
#endif
	/* each split run twice: as it races, and with the first lane held
	 * until another answers (so that every lane's answers are taken) */
	static const unsigned splits[] = { 0, 2, 3, SOKO_SPLIT_MAX, 2, 3, SOKO_SPLIT_MAX };
	int held = 0;
	while (mix.levels < want_levels) {
		int want;
		char *text = soko_random_mixed(&rng, &split_shape, 400000, 2, &mix, &want);
		for (size_t k = 0; k < sizeof splits / sizeof splits[0]; k++) {
			soko_any_split_hold(k >= 4 ? SOKO_SPLIT_HOLD_FIRST : 0);
			struct lk_search_result r;
			struct lk_level *level = run_split(text, splits[k], &r);
			if (r.status != (want ? LK_SOLVED : LK_UNSOLVABLE))
				fail_msg("--split %u: %s, raw BFS says %s\n%s", splits[k],
					 lk_status_name(r.status), want ? "yes" : "no", text);
			if (r.status == LK_SOLVED)
				soko_check_replays(level, &r);
			if (splits[k] == 0)
				assert_true(r.technique_counts[split] == 0);
			other += r.technique_counts[split] > 0 && k < 4;
			held += r.technique_counts[split] > 0 && k >= 4;
			/* held, the first lane answers only where all the others
			 * gave up, which with no bound none does (a level dead at
			 * its start is answered before any split) */
			if (k >= 4 && !((const struct sokoban *)level)->impossible)
				assert_true(r.technique_counts[split] == 1);
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_any_split_hold(0);
	soko_any_set_slice_first(0);
	soko_pull_set_delay(0);
	soko_pull_set_stall(PULL_BOTH_STALL);
	print_message("  %d levels (%d solvable); a lane other than the first answered %d runs "
		      "racing, %d with the first held\n", mix.levels, mix.yes, other, held);
	assert_true(mix.yes >= mix.levels / 4 && mix.no >= mix.levels / 10);
	assert_true(held >= mix.yes);
}

/* A search whose stop flag is set stops at once: unknown, interrupted. */
static void test_stop_flag(void **state)
{
	(void)state;
	struct lk_level *level = soko_test_load(soko_test_crossing, NULL, false);
	assert_non_null(level);
	atomic_int stop;
	atomic_init(&stop, 1);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = LK_ALGO_ANY;
	o.bounds.stop = &stop;
	struct lk_search_result r;
	lk_search_result_init(&r);
	lk_search(level, &o, &r);
	assert_int_equal(r.status, LK_UNKNOWN);
	assert_int_equal(r.limit, LK_LIMIT_INTERRUPTED);
	assert_true(r.expanded < 1000);
	lk_search_result_release(&r);
	lk_level_free(level);
}

/* The lanes that lose are stopped: held until the first lane answered,
 * every other lane comes back interrupted, and the answer is the first's. */
static void test_losers_stop(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3435);
	struct soko_mix mix = { 0 };
	int split = soko_test_technique("split");
	soko_any_split_hold(SOKO_SPLIT_HOLD_OTHERS);
	while (mix.levels < 20) {
		int want;
		char *text = soko_random_mixed(&rng, &split_shape, 400000, 3, &mix, &want);
		struct lk_search_result r;
		struct lk_level *level = run_split(text, 3, &r);
		assert_int_equal(r.status, want ? LK_SOLVED : LK_UNSOLVABLE);
		assert_true(r.technique_counts[split] == 0);
		enum lk_status st[SOKO_SPLIT_MAX];
		enum lk_limit lim[SOKO_SPLIT_MAX];
		int n = soko_any_split_last(st, lim, SOKO_SPLIT_MAX);
		if (((const struct sokoban *)level)->impossible) {   /* answered before any split */
			assert_int_equal(n, 0);
			n = 0;
		} else {
			assert_int_equal(n, 3);
		}
		if (n)
			assert_int_equal(st[0], r.status);
		for (int i = 1; i < n; i++) {
			assert_int_equal(st[i], LK_UNKNOWN);
			assert_int_equal(lim[i], LK_LIMIT_INTERRUPTED);
		}
		lk_search_result_release(&r);
		lk_level_free(level);
		free(text);
	}
	soko_any_split_hold(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_configs),
		cmocka_unit_test(test_stop_flag),
		cmocka_unit_test(test_losers_stop),
		cmocka_unit_test(test_sound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
