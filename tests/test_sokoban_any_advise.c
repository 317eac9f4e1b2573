/*
 * test_sokoban_any_advise.c - FESS's explorer and opener advisors of
 * Sokoban's search for any solution (src/games/sokoban/sokoban_any_advise.c):
 *
 *  - the explorer, on hand-made positions (each child written out as a
 *    level of the same walls): it proposes the move after which the
 *    player reaches a push that was out of reach, not a move that opens
 *    nothing, not one that loses a packed box, not one whose box cannot be
 *    pushed back, not a child already expanded; of two that open, the one
 *    of better features;
 *  - the opener: nothing when some move packs a box; else the move that
 *    takes the box nearest the next goal of the plan away from it, never
 *    one that brings its box nearer, nor one that makes the player areas
 *    worse;
 *  - both only order moves, so they may lose nothing: with each on alone,
 *    and both on, -a any still answers random small levels as raw
 *    breadth-first search does, every solution replays, each counts in
 *    some runs, and off they count nothing.
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

/* ---- a search state around hand-made positions (sokoban_any_bench.h) ---- */

static long bench_run(struct bench *b, bool opener, const struct soko_features *f)
{
	struct expansion x = bench_expansion(b);
	return opener ? soko_fess_opener(&b->a, &x, f) : soko_fess_explorer(&b->a, &x, f);
}

/* ---- the explorer ---- */

/* A room on the right, shut by the box in its doorway; inside it a box
 * the player can push only from inside. */
static const char explore_parent[] =
	"###########\n"
	"#    #    #\n"
	"# .$ $    #\n"
	"# .  # $  #\n"
	"#  .@#    #\n"
	"###########\n";
/* the doorway box pushed two squares in: the inner box's pushes come
 * within reach */
static const char explore_open[] =
	"###########\n"
	"#    #    #\n"
	"# .$  @$  #\n"
	"# .  # $  #\n"
	"#  . #    #\n"
	"###########\n";
/* the same, three squares in */
static const char explore_open2[] =
	"###########\n"
	"#    #    #\n"
	"# .$   @$ #\n"
	"# .  # $  #\n"
	"#  . #    #\n"
	"###########\n";
/* a box of the left room pushed down: nothing new in reach */
static const char explore_shut[] =
	"###########\n"
	"#    #    #\n"
	"# .@ $    #\n"
	"# .$ # $  #\n"
	"#  . #    #\n"
	"###########\n";
/* the doorway box pushed on to the far wall, which opens the room too but
 * leaves the box where nothing pushes it back */
static const char explore_far[] =
	"###########\n"
	"#    #    #\n"
	"# .$    @$#\n"
	"# .  # $  #\n"
	"#  . #    #\n"
	"###########\n";

static void test_explorer(void **state)
{
	(void)state;
	struct soko_features f = { .packed = 1, .areas = 3, .doorways = 1, .out_of_plan = 0 };
	struct soko_features same = f, worse = f, better = f, unpacked = f;
	worse.areas = 4;
	better.areas = 2;
	unpacked.packed = 0;
	const char *kids[3] = { explore_shut, explore_open, explore_far };
	struct bench b;

	/* it proposes the move that opens the room, though another move's
	 * child is better in features */
	struct soko_features kf[3] = { better, worse, same };
	bench_init(&b, explore_parent, &f, kids, kf, 3, false, NULL);
	assert_int_equal(bench_run(&b, false, &f), 1);
	/* not once that child is expanded (or dead) */
	b.flags[b.id[2]] = NODE_EXPANDED;
	assert_int_equal(bench_run(&b, false, &f), -1);
	bench_release(&b);

	/* not when it loses a packed box; the move whose box cannot come
	 * back is never proposed, so then nothing */
	struct soko_features kf2[3] = { same, unpacked, better };
	bench_init(&b, explore_parent, &f, kids, kf2, 3, false, NULL);
	assert_int_equal(bench_run(&b, false, &f), -1);
	bench_release(&b);

	/* of two moves that open, the better child */
	const char *two[3] = { explore_shut, explore_open, explore_open2 };
	struct soko_features kf3[3] = { better, worse, same };
	bench_init(&b, explore_parent, &f, two, kf3, 3, false, NULL);
	assert_int_equal(bench_run(&b, false, &f), 2);
	bench_release(&b);
}

/* ---- the opener ---- */

/* One goal area of two goals in a dead end; the box nearest it in the
 * way, another further off. */
static const char open_parent[] =
	"#########\n"
	"#..$    #\n"
	"#    $  #\n"
	"#   @   #\n"
	"#########\n";
static const char open_away[] =   /* the near box pushed away from the goals */
	"#########\n"
	"#.. @$  #\n"
	"#    $  #\n"
	"#       #\n"
	"#########\n";
static const char open_far[] =    /* the far box pushed away */
	"#########\n"
	"#..$    #\n"
	"#     $ #\n"
	"#    @  #\n"
	"#########\n";
static const char open_nearer[] = /* the far box pushed nearer */
	"#########\n"
	"#..$    #\n"
	"#   $@  #\n"
	"#       #\n"
	"#########\n";
static const char open_pack[] =   /* the near box pushed onto a goal */
	"#########\n"
	"#.*@    #\n"
	"#    $  #\n"
	"#       #\n"
	"#########\n";

static void test_opener(void **state)
{
	(void)state;
	struct soko_features f = { .packed = 0, .areas = 1 };
	struct soko_features same = f, worse = f, packs = f;
	worse.areas = 2;
	packs.packed = 1;
	struct bench b;

	/* the near box pushed away, not the far one */
	const char *kids[3] = { open_far, open_nearer, open_away };
	struct soko_features kf[3] = { same, same, same };
	bench_init(&b, open_parent, &f, kids, kf, 3, false, NULL);
	assert_int_equal(bench_run(&b, true, &f), 2);
	bench_release(&b);

	/* not when that makes the player areas worse: then the far box */
	struct soko_features kf2[3] = { same, same, worse };
	bench_init(&b, open_parent, &f, kids, kf2, 3, false, NULL);
	assert_int_equal(bench_run(&b, true, &f), 0);
	bench_release(&b);

	/* never a box brought nearer */
	const char *nearer[1] = { open_nearer };
	bench_init(&b, open_parent, &f, nearer, kf, 1, false, NULL);
	assert_int_equal(bench_run(&b, true, &f), -1);
	bench_release(&b);

	/* nothing when a move packs a box (the packing advisor's turn) */
	const char *packing[2] = { open_away, open_pack };
	struct soko_features kf3[2] = { same, packs };
	bench_init(&b, open_parent, &f, packing, kf3, 2, false, NULL);
	assert_int_equal(bench_run(&b, true, &f), -1);
	bench_release(&b);
}

/* ---- no solution lost, on or off ---- */

/* Interior 4..7 x 4..6, 2 to 4 boxes, walls on 15 to 34 % of it: walls
 * enough to shut parts of the level off, which the explorer needs. */
static const struct soko_random_shape advise_shape = { 5, 4, 4, 3, 2, 3, 15, 20 };

static void test_sound(void **state)
{
	(void)state;
	static const char *const on_sets[3][3] = {
		{ "explorer", NULL, NULL }, { "opener", NULL, NULL }, { "explorer", "opener", NULL },
	};
	static const char *const greedy_off[2] = { "greedy-first", NULL };
	int explorer = soko_test_technique("explorer"), opener = soko_test_technique("opener");
	struct lk_rng rng;
	lk_rng_seed(&rng, 3333);
	struct soko_mix mix = { 0 };
	int counted[2] = { 0, 0 };
#ifdef LEVELKIT_SANITIZED
	int want_levels = 200;
#else
	int want_levels = 500;
#endif
	while (mix.levels < want_levels) {
		int want;
		char *text = soko_random_mixed(&rng, &advise_shape, 400000, 2, &mix, &want);
		/* k = 3: both off (the default) */
		for (int k = 0; k < 4; k++) {
			soko_test_on = k < 3 ? on_sets[k] : NULL;
			struct lk_search_result r;
			struct lk_level *level =
				soko_any_as_raw(text, greedy_off, want, k < 3 ? on_sets[k][0] : "off", &r);
			uint64_t ce = r.technique_counts[explorer], co = r.technique_counts[opener];
			if (k == 3 || k == 1)
				assert_true(ce == 0);
			if (k == 3 || k == 0)
				assert_true(co == 0);
			counted[0] += ce > 0;
			counted[1] += co > 0;
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		soko_test_on = NULL;
		free(text);
	}
	print_message("  %d levels (%d solvable); the explorer proposed moves in %d runs, the "
		      "opener in %d\n", mix.levels, mix.yes, counted[0], counted[1]);
	assert_true(mix.yes >= mix.levels / 4);
	assert_true(counted[0] >= want_levels / 25 && counted[1] >= want_levels / 25);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explorer),
		cmocka_unit_test(test_opener),
		cmocka_unit_test(test_sound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
