/*
 * test_sokoban_meet.c - A* in both directions stops where its two lanes
 * meet on a solution their bounds prove optimal (src/search/search.c,
 * note_meeting): the push counts must be the fewest there are.
 *
 * The truth is the brute-force enumerator of sokoban_bf.c (0-1 BFS over
 * the player and the boxes, nothing pruned, written apart from the
 * library).  On random small levels of two and three boxes the default
 * search (both directions, meetings on) must answer as the enumerator
 * does, call its answer optimal, and give a path of real pushes (each key
 * a successor of the one before, the edges' costs adding up to the
 * count); the same search without meetings must give the same counts.
 * Meetings must answer some of the levels, or the checks would prove
 * nothing: the lanes take turns of a few expansions, so that they do.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"
#include "sokoban_bf.h"
#include "sokoban_random.h"

/* Interior 4..5 x 3..4, 2 or 3 boxes (the enumerator's limits), walls on
 * 10 to 40 % of it. */
static const struct soko_random_shape shape = { 4, 2, 3, 2, 2, 2, 10, 31 };
#define SOLVABLE (300 / SOKO_TEST_SHARE)
#define MAX_DRAWS 40000
/* Expansions per turn of each lane: short, so that both lanes search
 * these small levels and meet (at search.c's 4096 the forward lane alone
 * answers every one of them). */
#define SLICE 1
#define MAX_STATES 200000

/* The pushes along the path of r, each key checked to be a successor of
 * the one before; -1 when one is not. */
static long path_pushes(const struct lk_level *level, const struct lk_search_result *r)
{
	const struct lk_game *g = level->game;
	size_t ks = level->key_size;
	void *scratch = calloc(1, level->scratch_size ? level->scratch_size : 1);
	unsigned char *succ = calloc((size_t)level->max_successors + 1, ks);
	struct lk_edge *edges = calloc((size_t)level->max_successors + 1, sizeof *edges);
	long total = 0;
	for (size_t i = 0; i + 1 < r->nkeys && total >= 0; i++) {
		unsigned n = g->successors(level, r->path + i * ks, scratch, succ, edges);
		/* the last key of a path through the backward lane is its
		 * start, the solved boxes with the player anywhere (its first
		 * two bytes): only the boxes are compared there */
		size_t skip = i + 2 == r->nkeys && r->found_by != LK_FORWARD ? 2 : 0;
		long cost = -1;
		for (unsigned j = 0; j < n && cost < 0; j++)
			if (memcmp(succ + (size_t)j * ks + skip, r->path + (i + 1) * ks + skip,
				   ks - skip) == 0)
				cost = edges[j].cost;
		total = cost < 0 ? -1 : total + cost;
	}
	free(edges);
	free(succ);
	free(scratch);
	return total;
}

static void test_random_levels(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 2311);
	int levels = 0, solvable = 0, met = 0;
	/* most draws of this size cannot be solved: draw until enough can */
	while (solvable < SOLVABLE && levels < MAX_DRAWS) {
		char *text = soko_random_level(&rng, &shape);
		if (!text)
			continue;
		struct bf b;
		bf_parse(&b, text);
		long want = bf_solve(&b, true, NULL);
		bf_free(&b);
		struct lk_level *level = load(text, "pushes", NULL);
		levels++;
		struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
		o.direction = LK_BOTH;
		o.bounds.max_states = MAX_STATES;
		o.slice = SLICE;
		struct lk_search_result r, plain;
		lk_search_result_init(&r);
		lk_search_result_init(&plain);
		lk_search(level, &o, &r);
		o.no_meeting = true;
		lk_search(level, &o, &plain);
		if (want < 0) {
			assert_int_equal(r.status, LK_UNSOLVABLE);
		} else {
			solvable++;
			assert_int_equal(r.status, LK_SOLVED);
			assert_true(r.optimal);
			assert_int_equal((long)r.cost, want);
			assert_int_equal(path_pushes(level, &r), want);
			assert_int_equal(plain.status, LK_SOLVED);
			assert_int_equal((long)plain.cost, want);
			met += r.found_by == LK_BOTH;
		}
		lk_search_result_release(&r);
		lk_search_result_release(&plain);
		lk_level_free(level);
		free(text);
	}
	/* enough solvable levels, and meetings answered some */
	print_message("%d levels, %d solvable, %d answered by a meeting\n", levels, solvable, met);
	assert_int_equal(solvable, SOLVABLE);
	assert_true(met >= solvable / 100); /* 22 of 300 in release, 2 of 100 under the sanitizers */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_levels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
