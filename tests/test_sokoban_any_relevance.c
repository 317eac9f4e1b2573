/*
 * test_sokoban_any_relevance.c - the relevance cuts of Sokoban's search for
 * any solution (src/games/sokoban/sokoban_relevance.c), on their own:
 *
 *  - the rule, on hand-made paths in an open room (where the distance over
 *    the floor is the Manhattan distance, worked out here): nothing is cut
 *    while the path's budget of unrelated moves is not spent; once it is,
 *    exactly the moves whose ends are both farther than the radius from
 *    the last moved box are cut, and counted; a state is never left
 *    without moves;
 *  - the path of box moves the search keeps per expansion (instead of
 *    reading its ancestors' keys) cuts exactly as the keys do, on random
 *    paths with moves of the player alone among them;
 *  - what they may lose: on random levels, bigger than the other suites'
 *    so that moves can be far apart, the first feature-space search with
 *    relevance cuts alone (no goal-room macros) either solves the level
 *    with a solution that replays, or runs out of moves only after a cut;
 *    -a any then still answers as raw breadth-first search does (the
 *    search without the cuts runs), and so does -a any with them off.
 *    (Seed 2828, radius 6: they cut moves in 18 of 150 levels, lost none;
 *    the search run again without them is the goal rooms' own, tested in
 *    test_sokoban_any.c.)
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
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "test_records.h"
#include "sokoban_random.h"

/* Interior 8..14 x 4..7, 3 boxes, walls on 10 to 29 % of it: wide enough
 * that two moves can be farther apart than the radius. */
static const struct soko_random_shape wide_shape = { 8, 7, 4, 4, 3, 1, 10, 20 };

/* ---- the rule on hand-made paths ---- */

/* An open room 22 x 6 inside its walls: floor distance is Manhattan. */
static const char open_room[] =
	"########################\n"
	"#@                     #\n"
	"# $ $ $              ..#\n"
	"#                    . #\n"
	"#                      #\n"
	"#                      #\n"
	"#                      #\n"
	"########################\n";

/* The cell of (x, y) of the text above in the level (padded board). */
static int cell_at(const struct sokoban *s, int x, int y)
{
	/* the padded board keeps the text's layout: find the offset from the
	 * player's start, at (1, 1) of the text */
	int px = s->player0 % s->width, py = s->player0 / s->width;
	return (py + y - 1) * s->width + (px + x - 1);
}

/* A key with boxes on the cells given (-1 ends), the player anywhere. */
static void make_key(const struct sokoban *s, unsigned char *key, size_t key_size, const int *cells)
{
	memset(key, 0, key_size);
	for (int i = 0; cells[i] >= 0; i++)
		soko_bit_flip(key + 2, s->compact[cells[i]]);
}

static int manhattan(const struct sokoban *s, int a, int b)
{
	return abs(a % s->width - b % s->width) + abs(a / s->width - b / s->width);
}

static void test_rule(void **state)
{
	(void)state;
	struct lk_level *level = soko_test_load(open_room, NULL, false);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_relevance rel;
	soko_relevance_init(&rel, s);
	struct soko_scratch *sc = soko_scratch(s, lk_xcalloc(1, level->scratch_size));
	size_t ks = level->key_size;
	unsigned char k0[64], k1[64], k2[64], k3[64];
	assert_true(ks <= sizeof k0);
	int R = SOKO_RELEVANCE_RADIUS;
	/* boxes A, B, C at x = 2, 4, 6 of row 2; paths of moves of A and C */
	int A = cell_at(s, 2, 2), B = cell_at(s, 4, 2), C = cell_at(s, 6, 2);
	int A2 = cell_at(s, 2, 5), C2 = cell_at(s, 19, 5);
	make_key(s, k3, ks, (int[]){ A, B, C, -1 });
	make_key(s, k2, ks, (int[]){ A2, B, C, -1 });    /* A down: the first move */
	make_key(s, k1, ks, (int[]){ A2, B, C2, -1 });   /* C far: unrelated */
	make_key(s, k0, ks, (int[]){ A2, B, C2, -1 });   /* the state expanded */
	/* candidate moves: B near C2, B far, C2 on, A2 near B's far end */
	struct soko_boxmove cand[] = {
		{ .from = (uint16_t)B, .to = (uint16_t)cell_at(s, 16, 4) },   /* to near C2 */
		{ .from = (uint16_t)B, .to = (uint16_t)cell_at(s, 5, 6) },    /* far */
		{ .from = (uint16_t)C2, .to = (uint16_t)cell_at(s, 19, 6) },  /* the same box */
		{ .from = (uint16_t)A2, .to = (uint16_t)cell_at(s, 1, 6) },   /* far */
	};
	size_t n = sizeof cand / sizeof *cand;
	int last = C2;
	bool want[4];
	for (size_t i = 0; i < n; i++)
		want[i] = manhattan(s, cand[i].from, last) <= R || manhattan(s, cand[i].to, last) <= R;
	assert_true(want[0] && !want[1] && want[2] && !want[3]);

	/* one unrelated move on the path (A then C): budget spent, cut */
	struct soko_boxmove m[4];
	memcpy(m, cand, sizeof m);
	const unsigned char *path[] = { k0, k1, k2, k3 };
	/* k0 == k1: the player alone moved last; the moves are k2->k1 (C)
	 * and k3->k2 (A) */
	sc->count[SOKO_T_RELEVANCE] = 0;
	size_t k = soko_relevance_cut(&rel, sc, path, 4, m, n);
	assert_int_equal(k, 2);
	assert_int_equal(m[0].to, cand[0].to);
	assert_int_equal(m[1].from, cand[2].from);
	assert_int_equal(sc->count[SOKO_T_RELEVANCE], 2);

	/* one move only on the path: nothing unrelated yet, nothing cut */
	memcpy(m, cand, sizeof m);
	const unsigned char *short_path[] = { k1, k2 };
	assert_int_equal(soko_relevance_cut(&rel, sc, short_path, 2, m, n), n);
	/* a related path (A, then A again near it): nothing cut */
	unsigned char k4[64];
	make_key(s, k4, ks, (int[]){ cell_at(s, 3, 5), B, C, -1 });
	const unsigned char *related_path[] = { k4, k2, k3 };
	memcpy(m, cand, sizeof m);
	assert_int_equal(soko_relevance_cut(&rel, sc, related_path, 3, m, n), n);
	/* every move far: all kept, none counted */
	struct soko_boxmove far[] = { cand[1], cand[3] };
	sc->count[SOKO_T_RELEVANCE] = 0;
	assert_int_equal(soko_relevance_cut(&rel, sc, path, 4, far, 2), 2);
	assert_int_equal(sc->count[SOKO_T_RELEVANCE], 0);

	soko_relevance_release(&rel);
	free(sc);
	lk_level_free(level);
}

/* ---- the path kept per expansion reads as the keys ---- */

/* Random paths in the open room (3 boxes; a move takes a box to any free
 * square, or moves the player alone: the keys stay the same), the path of
 * each state built from its parent's (soko_relevance_extend) as the search
 * builds it: at every state of every path, the cut on the path kept cuts
 * the same moves, and counts as many, as the cut on the last
 * SOKO_RELEVANCE_KEYS keys.  Paths of 1 to 14 moves, half the moves near
 * the last (so that some paths spend the budget and some do not). */
static void test_path_same(void **state)
{
	(void)state;
	struct lk_level *level = soko_test_load(open_room, NULL, false);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_relevance rel;
	soko_relevance_init(&rel, s);
	struct soko_scratch *sc = soko_scratch(s, lk_xcalloc(1, level->scratch_size));
	size_t ks = level->key_size;
	enum { DEPTH = 15, CAND = 8 };
	unsigned char keys[DEPTH][64];
	assert_true(ks <= sizeof keys[0]);
	struct lk_rng rng;
	lk_rng_seed(&rng, 3939);
	int cut_paths = 0, kept_paths = 0;
	for (int round = 0; round < 400; round++) {
		int box[3] = { cell_at(s, 2, 2), cell_at(s, 4, 2), cell_at(s, 6, 2) };
		make_key(s, keys[0], ks, (int[]){ box[0], box[1], box[2], -1 });
		struct soko_rel_path path = soko_relevance_extend(&rel, NULL, -1, -1);
		int depth = 1 + (int)lk_rng_below(&rng, DEPTH - 1), last = box[0];
		for (int d = 1; d <= depth; d++) {
			int which = (int)lk_rng_below(&rng, 3), was = -1, dest = -1;
			if (lk_rng_below(&rng, 4) != 0) {
				/* a box to a free square, near the last moved half the time */
				int to;
				do {
					to = cell_at(s, 1 + (int)lk_rng_below(&rng, 22),
						     1 + (int)lk_rng_below(&rng, 6));
				} while (to == box[0] || to == box[1] || to == box[2] ||
					 (lk_rng_below(&rng, 2) && manhattan(s, to, last) > 4));
				was = box[which];
				dest = to;
				box[which] = to;
				last = to;
			}
			make_key(s, keys[d], ks, (int[]){ box[0], box[1], box[2], -1 });
			/* the search reads the move off the keys (soko_moved_box) */
			int w2, d2 = soko_moved_box(s, keys[d - 1], keys[d], &w2);
			assert_int_equal(d2, dest);
			if (dest >= 0)
				assert_int_equal(w2, was);
			path = soko_relevance_extend(&rel, &path, w2, d2);
			/* the keys the search read: this state's and its ancestors' */
			const unsigned char *chain[SOKO_RELEVANCE_KEYS];
			int nkeys = 0;
			for (int e = d; e >= 0 && nkeys < SOKO_RELEVANCE_KEYS; e--)
				chain[nkeys++] = keys[e];
			struct soko_boxmove m1[CAND], m2[CAND];
			for (int i = 0; i < CAND; i++) {
				int b = box[lk_rng_below(&rng, 3)];
				int to = cell_at(s, 1 + (int)lk_rng_below(&rng, 22),
						 1 + (int)lk_rng_below(&rng, 6));
				m1[i] = (struct soko_boxmove){ .from = (uint16_t)b, .to = (uint16_t)to };
			}
			memcpy(m2, m1, sizeof m1);
			sc->count[SOKO_T_RELEVANCE] = 0;
			size_t k1 = soko_relevance_cut(&rel, sc, chain, nkeys, m1, CAND);
			uint64_t c1 = sc->count[SOKO_T_RELEVANCE];
			sc->count[SOKO_T_RELEVANCE] = 0;
			size_t k2 = soko_relevance_cut_path(&rel, sc, &path, m2, CAND);
			assert_int_equal(k1, k2);
			assert_int_equal(c1, sc->count[SOKO_T_RELEVANCE]);
			for (size_t i = 0; i < k1; i++) {
				assert_int_equal(m1[i].from, m2[i].from);
				assert_int_equal(m1[i].to, m2[i].to);
			}
			if (k1 < CAND)
				cut_paths++;
			else
				kept_paths++;
		}
	}
	print_message("  states with moves cut: %d, with none cut: %d\n", cut_paths, kept_paths);
	/* both kinds met, or the comparison proves little */
	assert_true(cut_paths >= 100 && kept_paths >= 100);
	soko_relevance_release(&rel);
	free(sc);
	lk_level_free(level);
}

/* ---- what the cuts may lose, on random levels ---- */

static enum lk_status any_answer(const char *text, const char *const *off)
{
	struct lk_search_result r;
	struct lk_level *level = soko_any_run(text, off, false, &r);
	if (r.status == LK_SOLVED)
		soko_check_replays(level, &r);
	if (off[0] && strcmp(off[0], "relevance-cuts") == 0)
		assert_int_equal(r.technique_counts[soko_test_technique("relevance-cuts")], 0);
	enum lk_status status = r.status;
	lk_search_result_release(&r);
	lk_level_free(level);
	return status;
}

static void test_may_lose(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 2828);
	int levels = 0, yes = 0, cut = 0, lost = 0;
	int rel = soko_test_technique("relevance-cuts");
	while (levels < 150 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_answered(&rng, &wide_shape, 300000, &want);
		if (want == 0 && levels - yes > levels / 3) {
			free(text);
			continue;
		}
		levels++;
		yes += want == 1;
		/* the first search with the relevance cuts alone */
		const char *alone[] = { "greedy-first", "goal-rooms", "goal-cuts", NULL };
		struct lk_search_result r;
		struct lk_level *level = soko_any_run(text, alone, true, &r);
		cut += r.technique_counts[rel] != 0;
		if (r.status == LK_SOLVED) {
			assert_int_equal(want, 1);
			soko_check_replays(level, &r);
		} else {
			assert_int_equal(r.status, LK_UNSOLVABLE);
			if (want == 1) {
				assert_true(r.technique_counts[rel] != 0);
				lost++;
			}
		}
		lk_search_result_release(&r);
		lk_level_free(level);
		/* -a any with them (and the sound search after) and without */
		enum lk_status expect = want ? LK_SOLVED : LK_UNSOLVABLE;
		const char *with[] = { "greedy-first", NULL };
		const char *without[] = { "relevance-cuts", "greedy-first", NULL };
		if (any_answer(text, with) != expect || any_answer(text, without) != expect)
			fail_msg("-a any does not answer as raw BFS (%s)\n%s", want ? "yes" : "no", text);
		free(text);
	}
	print_message("  %d levels (%d solvable); relevance cuts cut moves in %d, lost every "
		      "solution in %d\n", levels, yes, cut, lost);
	assert_true(yes >= 60 / SOKO_TEST_SHARE && cut >= 10 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_path_same),
		cmocka_unit_test(test_may_lose),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
