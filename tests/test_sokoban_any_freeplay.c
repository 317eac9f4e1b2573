/*
 * test_sokoban_any_freeplay.c - the parking plan played order-free
 * (src/games/sokoban/sokoban_parkfree.c) and order-free with nudges
 * (sokoban_parknudge.c), measured by bench/park_play.c --free / --nudge
 * (docs/benchmarks.md, h40o).  What they may and may not do:
 *
 *  - in the plan's order (fixed), the play plays no more steps than
 *    sokoban_parkplay.c's, which merges the floor pieces a push may leave
 *    the player in (a piece told apart can only lose steps);
 *  - order-free, where its search ran to its end, it plays at least as
 *    many steps as in the plan's order (that order is one it tries);
 *  - a play to the end is a solution: it is never claimed on a level raw
 *    breadth-first search proves unsolvable (also with routes free, any
 *    box doing a step), the nudge play returns its moves, and its steps, replayed in
 *    the order reported (as a plan, sokoban_parkplay.c), play as far;
 *  - on Sasquatch II 30, whose plan plays no step in order nor order-free
 *    (the start cluster must first be loosened), the play with nudges
 *    plays it to its end.
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
#include "../src/games/sokoban/sokoban_any.h"
#include "../src/games/sokoban/sokoban_parkfree.h"
#include "sokoban_random.h"
#include "sokoban_park_check.h"

/* Plays p fixed, order-free in the goal areas' order and in any order;
 * checks what the header promises; the steps each played into got[3]
 * (with a '+' meaning: to the end, as *full). */
static void play3(const struct sokoban *s, const struct soko_plan *plan,
		  const struct soko_park *p, int got[3], bool full[3])
{
	for (int mode = 0; mode < 3; mode++) {
		struct soko_free_result r = { .max_positions = 2000, .max_work = 2e7 };
		full[mode] = soko_park_free_play(s, plan, p, mode == 0, mode == 1, &r);
		got[mode] = r.played;
		assert_true(r.played <= p->nsteps);
		assert_int_equal(full[mode], r.played == p->nsteps);
		if (mode == 0)
			assert_true(r.played <= plays(s, p));
		else if (!r.stopped)
			assert_true(r.played >= got[0]);
		/* the steps reported, each once, then the others in the plan's
		 * order: as a plan, its first steps play (sokoban_parkplay.c) */
		int m = p->nsteps, k = 0;
		uint8_t *seen = calloc((size_t)m, 1);
		struct soko_park q = *p;
		q.target = malloc((size_t)m * sizeof *q.target);
		q.leaves = malloc((size_t)m * sizeof *q.leaves);
		q.start = malloc((size_t)m * sizeof *q.start);
		assert_true(seen && q.target && q.leaves && q.start);
		for (int i = 0; i < r.played + m; i++) {
			int j = i < r.played ? r.order[i] : i - r.played;
			assert_true(j >= 0 && j < m);
			if (i < r.played)
				assert_false(seen[j]);
			else if (seen[j])
				continue;
			seen[j] = 1;
			q.target[k] = p->target[j];
			q.leaves[k] = p->leaves[j];
			q.start[k++] = p->start[j];
		}
		assert_int_equal(k, m);
		int bad = soko_park_play(s, &q, NULL);
		assert_true(bad < 0 || bad >= r.played);
		free(seen);
		free(q.target);
		free(q.leaves);
		free(q.start);
		soko_free_result_release(&r);
	}
}

static void test_ii30(void **state)
{
	(void)state;
	soko_park_set_always(false);
	struct lk_level *level = soko_test_load(sasquatch_ii30(), NULL, false);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_park *p = plan_of(level);
	assert_non_null(p);
	struct soko_plan plan;
	soko_plan_build(&plan, s, false, NULL);
	int got[3];
	bool full[3];
	play3(s, &plan, p, got, full);
	assert_int_equal(got[0], 0);
	assert_int_equal(got[2], 0);
	struct soko_free_result r = { .max_positions = 20000, .max_work = 4e8 };
	assert_true(soko_park_nudge_play(s, &plan, p, false, false, 12, &r));
	assert_int_equal(r.played, p->nsteps);
	print_message("  Sasquatch II 30: %d steps; %d in order, %d order-free, all %d with nudges "
		      "(%ld positions)\n", p->nsteps, got[0], got[2], r.played, r.positions);
	soko_free_result_release(&r);
	soko_plan_release(&plan);
	soko_park_free(p);
	lk_level_free(level);
}

static void test_random(void **state)
{
	(void)state;
	soko_park_set_always(true);
	struct lk_rng rng;
	lk_rng_seed(&rng, 4040);
	int plans = 0, fixed_full = 0, free_full = 0, nudge_full = 0, further = 0, routes_full = 0;
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
			int got[3];
			bool full[3];
			play3(s, &plan, p, got, full);
			struct soko_free_result r = { .max_positions = 2000, .max_work = 2e7 };
			bool nfull = soko_park_nudge_play(s, &plan, p, false, false, 12, &r);
			assert_int_equal(r.nmoves > 0, nfull && r.played > 0);
			soko_free_result_release(&r);
			struct soko_free_result rf = { .max_positions = 2000, .max_work = 2e7 };
			bool rfull = soko_park_nudge_play(s, &plan, p, true, true, 12, &rf);
			soko_free_result_release(&rf);
			/* a play to the end is a solution */
			if (full[0] || full[1] || full[2] || nfull || rfull)
				assert_int_equal(want, 1);
			routes_full += rfull;
			fixed_full += full[0];
			free_full += full[2];
			nudge_full += nfull;
			further += got[2] > got[0];
			soko_plan_release(&plan);
			soko_park_free(p);
		}
		lk_level_free(level);
		free(text);
	}
	soko_park_set_always(false);
	print_message("  %d random levels: %d plans; to the end %d in order, %d order-free, "
		      "%d with nudges, %d with routes free; %d further order-free\n",
		      mix.levels, plans, fixed_full, free_full, nudge_full, routes_full, further);
	assert_true(free_full >= fixed_full);
	assert_true(nudge_full >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ii30),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
