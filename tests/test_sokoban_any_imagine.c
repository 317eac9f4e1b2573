/*
 * test_sokoban_any_imagine.c - Festival's imagine advisor of Sokoban's
 * search for any solution (src/games/sokoban/sokoban_any_imagine.c):
 *
 *  - the imagined positions of a hand-made parking plan: before each step
 *    that packs a goal, every box where the plan has it then, the goals
 *    packed so far marked so;
 *  - on hand-made positions (each child written out as a level of the
 *    same walls, the plan given by hand): it proposes the move that puts
 *    one more box where the imagined position has one, not a move that
 *    puts none there, not one that loses a packed box, not a child already
 *    expanded, nothing without a parking plan; of two moves that each put
 *    a box there, the one after which the boxes are nearer the imagined
 *    position, though the other's child is better in features;
 *  - it only orders moves, so it may lose nothing: with it on, and every
 *    complete parking plan used (parking or not), -a any still answers
 *    random small levels as raw breadth-first search does, every solution
 *    replays, it counts in some runs, and off it counts nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "../src/games/sokoban/sokoban_any_search.h"
#include "sokoban_random.h"
#include "sokoban_any_bench.h"

/* The cell of row y, column x of a level's text (soko_level pads the grid
 * with one square of wall all round). */
static uint16_t cell(const struct sokoban *s, int y, int x)
{
	return (uint16_t)((y + 1) * s->width + x + 1);
}

static long bench_run(struct bench *b, const struct soko_features *f)
{
	struct expansion x = bench_expansion(b);
	/* each run builds its positions afresh, as a new search does */
	soko_imagine_free(b->a.imagine);
	b->a.imagine = NULL;
	b->a.imagine_tried = false;
	return soko_fess_imagine(&b->a, &x, f);
}

/* ---- the level and its plan ---- */

/* Three goals on the left; boxes B (row 2, column 4), A (2, 6), C (4, 7). */
static const char parent_text[] =
	"##########\n"
	"#.       #\n"
	"#.  $ $  #\n"
	"#.       #\n"
	"#      $ #\n"
	"#   @    #\n"
	"##########\n";
/* A pushed down onto its parking square P1 (3, 6) */
static const char kid_a[] =
	"##########\n"
	"#.       #\n"
	"#.  $ @  #\n"
	"#.    $  #\n"
	"#      $ #\n"
	"#        #\n"
	"##########\n";
/* C pushed two squares left onto its parking square P2 (4, 5) */
static const char kid_c[] =
	"##########\n"
	"#.       #\n"
	"#.  $ $  #\n"
	"#.       #\n"
	"#    $@  #\n"
	"#        #\n"
	"##########\n";
/* C pushed one square left: on no square of the plan */
static const char kid_c1[] =
	"##########\n"
	"#.       #\n"
	"#.  $ $  #\n"
	"#.       #\n"
	"#     $@ #\n"
	"#        #\n"
	"##########\n";
/* B pushed away from its start square, up */
static const char kid_b[] =
	"##########\n"
	"#.  $    #\n"
	"#.  @ $  #\n"
	"#.       #\n"
	"#      $ #\n"
	"#        #\n"
	"##########\n";

/* The plan, forwards: A to P1, C to P2 (parking), B from its start onto
 * goal (2, 1), the box on P1 onto goal (1, 1), the box on P2 onto (3, 1). */
struct hand_plan {
	struct soko_park p;
	uint16_t target[5], leaves[5], start[5], size[5];
	uint8_t on_target[256];
};

static void hand_plan(struct hand_plan *h, const struct sokoban *s)
{
	assert_true(s->cells <= 256);
	memset(h, 0, sizeof *h);
	uint16_t p1 = cell(s, 3, 6), p2 = cell(s, 4, 5);
	uint16_t target[5] = { p1, p2, cell(s, 2, 1), cell(s, 1, 1), cell(s, 3, 1) };
	uint16_t leaves[5] = { SOKO_NONE, SOKO_NONE, SOKO_NONE, p1, p2 };
	uint16_t start[5] = { cell(s, 2, 6), cell(s, 4, 7), cell(s, 2, 4), SOKO_NONE, SOKO_NONE };
	uint16_t size[5] = { 1, 2, 3, 3, 3 };
	memcpy(h->target, target, sizeof target);
	memcpy(h->leaves, leaves, sizeof leaves);
	memcpy(h->start, start, sizeof start);
	memcpy(h->size, size, sizeof size);
	for (int i = 0; i < 5; i++)
		h->on_target[target[i]] = 1;
	h->p = (struct soko_park){ .nsteps = 5, .nparked = 2, .target = h->target,
				   .leaves = h->leaves, .start = h->start, .size = h->size,
				   .on_target = h->on_target };
}

/* ---- the imagined positions ---- */

static void test_positions(void **state)
{
	(void)state;
	struct lk_level *l = soko_test_load(parent_text, NULL, false);
	const struct sokoban *s = (const struct sokoban *)l;
	struct hand_plan h;
	hand_plan(&h, s);
	struct soko_imagine *im = soko_imagine_build(s, &h.p);
	assert_non_null(im);
	uint16_t a0 = cell(s, 2, 6), c0 = cell(s, 4, 7), b0 = cell(s, 2, 4);
	uint16_t p1 = cell(s, 3, 6), p2 = cell(s, 4, 5);
	uint16_t g1 = cell(s, 1, 1), g2 = cell(s, 2, 1), g3 = cell(s, 3, 1);
	/* before the plan packs its first goal (steps 0 to 2 reached): A and C
	 * parked, B on its start, goal (2, 1) the one to pack */
	for (int r = 0; r <= 2; r++) {
		assert_int_equal(soko_imagine_square(im, r, p1), 1);
		assert_int_equal(soko_imagine_square(im, r, p2), 1);
		assert_int_equal(soko_imagine_square(im, r, b0), 1);
		assert_int_equal(soko_imagine_square(im, r, a0), 0);
		assert_int_equal(soko_imagine_square(im, r, c0), 0);
		assert_int_equal(soko_imagine_square(im, r, g2), 2);
		assert_int_equal(soko_imagine_square(im, r, g1), 0);
	}
	/* before the second: B packed, both still parked */
	assert_int_equal(soko_imagine_square(im, 3, b0), 0);
	assert_int_equal(soko_imagine_square(im, 3, p1), 1);
	assert_int_equal(soko_imagine_square(im, 3, g2), 2);
	assert_int_equal(soko_imagine_square(im, 3, g1), 2);
	/* before the last: P1's box packed, P2's still there */
	assert_int_equal(soko_imagine_square(im, 4, p1), 0);
	assert_int_equal(soko_imagine_square(im, 4, p2), 1);
	assert_int_equal(soko_imagine_square(im, 4, g3), 2);
	/* all five steps reached: nothing left to imagine */
	assert_int_equal(soko_imagine_square(im, 5, p2), -1);
	/* a start square given twice is no plan of the level's boxes */
	struct hand_plan bad;
	hand_plan(&bad, s);
	bad.start[1] = bad.start[0];
	assert_null(soko_imagine_build(s, &bad.p));
	soko_imagine_free(im);
	lk_level_free(l);
}

/* ---- the advisor ---- */

static void test_imagine(void **state)
{
	(void)state;
	struct soko_features f = { .packed = 0, .areas = 1 };
	struct soko_features same = f, better = f, one = f, unpacked = f;
	better.areas = 0;
	one.packed = 1;
	struct bench b;
	struct lk_level *l = soko_test_load(parent_text, NULL, false);
	struct hand_plan h;
	hand_plan(&h, (const struct sokoban *)l);
	lk_level_free(l);

	/* A onto P1 (one more box where the plan has it), not B moved off its
	 * start nor C moved short of P2 */
	const char *kids[3] = { kid_b, kid_c1, kid_a };
	struct soko_features kf[3] = { better, better, one };
	bench_init(&b, parent_text, &f, kids, kf, 3, true, &h.p);
	assert_int_equal(bench_run(&b, &f), 2);
	/* not once that child is expanded (or dead) */
	b.flags[b.id[3]] = NODE_EXPANDED;
	assert_int_equal(bench_run(&b, &f), -1);
	bench_release(&b);

	/* nothing without a parking plan */
	bench_init(&b, parent_text, &f, kids, kf, 3, true, NULL);
	assert_int_equal(bench_run(&b, &f), -1);
	bench_release(&b);

	/* not a move that loses a packed step of the plan */
	struct soko_features fp = one;
	unpacked.packed = 0;
	struct soko_features kf2[3] = { same, same, unpacked };
	bench_init(&b, parent_text, &fp, kids, kf2, 3, true, &h.p);
	assert_int_equal(bench_run(&b, &fp), -1);
	bench_release(&b);

	/* of A onto P1 and C onto P2, C: after it A is one push from P1,
	 * after A's move C is two from P2; though A's child is better */
	const char *two[2] = { kid_a, kid_c };
	struct soko_features kf3[2] = { better, same };
	bench_init(&b, parent_text, &f, two, kf3, 2, true, &h.p);
	assert_int_equal(bench_run(&b, &f), 1);
	bench_release(&b);
}

/* ---- no solution lost, on or off ---- */

static void test_sound(void **state)
{
	(void)state;
	static const char *const on[2] = { "imagine", NULL };
	static const char *const greedy_off[2] = { "greedy-first", NULL };
	int imagine = soko_test_technique("imagine");
	struct lk_rng rng;
	lk_rng_seed(&rng, 3737);
	struct soko_mix mix = { 0 };
	int counted = 0;
#ifdef LEVELKIT_SANITIZED
	int want_levels = 100;
#else
	int want_levels = 300;
#endif
	while (mix.levels < want_levels) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 2, &mix, &want);
		/* every complete plan in force, so that the advisor has positions */
		soko_park_set_always(true);
		for (int k = 0; k < 2; k++) {
			soko_test_on = k == 0 ? on : NULL;
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, greedy_off, want,
								 k == 0 ? "imagine" : "off", &r);
			uint64_t c = r.technique_counts[imagine];
			if (k == 1)
				assert_true(c == 0);
			counted += c > 0;
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		soko_test_on = NULL;
		soko_park_set_always(false);
		free(text);
	}
	print_message("  %d levels (%d solvable); the imagine advisor proposed moves in %d runs\n",
		      mix.levels, mix.yes, counted);
	assert_true(mix.yes >= mix.levels / 4);
	assert_true(counted >= want_levels / 25);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_imagine),
		cmocka_unit_test(test_sound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
