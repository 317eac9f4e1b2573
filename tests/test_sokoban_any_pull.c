/*
 * test_sokoban_any_pull.c - the pull search of Sokoban's search for any
 * solution (src/games/sokoban/sokoban_pull.c), on its own: it prunes
 * nothing, so what it may lose is nothing, and what it finds must be true.
 *
 *  - on random levels (the shape of test_sokoban_any.c), -a any with the
 *    feature-space search alone (greedy first off) and the pull search made
 *    to run from the start (it stores at least `min` states, where on its
 *    own it waits for PULL_DELAY forward states) answers each level as raw
 *    breadth-first search does, and every solution, the ones the pull
 *    search gave among them, replays to a win; with a big minimum it mostly
 *    reaches the start itself, with a small one the forward search mostly
 *    meets it: both ways must answer some levels;
 *  - a hand-made level: with a big minimum the pull search answers it before
 *    the forward search moves, with a solution that replays;
 *  - off, it is never counted;
 *  - two-way (pull-two-way): with both sides growing from the first
 *    expansion, a pulled state the forward table holds answers too: random
 *    levels answered as raw BFS answers them, with it and without, every
 *    solution through such a meeting (the forward table's links, then the
 *    pulls) replays, it answers some levels, and off it is never counted;
 *  - shared: with stall turns every unit of work (the first search and the
 *    sound search's turns take turns all along), a level makes one pull
 *    search at most, however many feature-space searches it runs, and the
 *    answers are still raw BFS's;
 *  - alone (greedy, with pull-both-orders off; both orders taking turns, with
 *    pull-both-orders (the default), from the first expansion or only while greedy
 *    stalls; YASS's order alone, with pull-weighted): run
 *    to the end on its own, each order expanding what it generates (with
 *    both, each pushes states on its own list on many levels), it
 *    reaches the start exactly on the levels raw BFS solves, each stored
 *    state's pull count is its path's length, and its path read
 *    forwards is a chain of single pushes of the raw level from the start
 *    to a solved position; the score is monotone in both pulls and bound
 *    and keeps dead states dead.
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
#include "sokoban_random.h"

/* test_sokoban_any.c's shape: interior 3..6 x 3..6, 1 to 4 boxes. */
static const struct soko_random_shape any_shape = { 3, 4, 3, 4, 1, 4, 5, 20 };

/* Random levels against raw BFS with the pull search storing at least min
 * states; returns the levels it answered (its counter). */
static int answered_against_bfs(uint64_t seed, size_t min, int nlevels, int *solvable)
{
	struct lk_rng rng;
	lk_rng_seed(&rng, seed);
	soko_pull_set_min(min);
	struct soko_mix mix = { 0 };
	int answers = 0;
	int pull = soko_test_technique("pull-search");
	while (mix.levels < nlevels) {
		int want;
		char *text = soko_random_mixed(&rng, &any_shape, 400000, 2, &mix, &want);
		for (int on = 1; on >= 0; on--) {
			const char *off[3] = { "greedy-first", on ? NULL : "pull-search", NULL };
			struct lk_search_result r;
			char what[64];
			snprintf(what, sizeof what, "pull search %s (min %zu)", on ? "on" : "off", min);
			struct lk_level *level = soko_any_as_raw(text, off, want, what, &r);
			if (!on && r.technique_counts[pull] != 0)
				fail_msg("pull-search is off but counted");
			if (on && r.technique_counts[pull]) {
				answers++;
				assert_int_equal(r.found_by, LK_BOTH);
				assert_int_equal(r.status, LK_SOLVED);
			}
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_pull_set_min(0);
	*solvable = mix.yes;
	return answers;
}

static void test_reaches_start(void **state)
{
	(void)state;
	int yes, answers = answered_against_bfs(2929, (size_t)1 << 20, 120, &yes);
	print_message("  min 2^20: the pull search answered %d of %d solvable levels (120 in all)\n",
		      answers, yes);
	assert_true(yes >= 40 && answers * 4 >= yes);   /* the others: solved by the first expansion */
}

static void test_met(void **state)
{
	(void)state;
	int yes, answers = answered_against_bfs(2930, 6, 120, &yes);
	print_message("  min 6: the pull search answered %d of %d solvable levels (120 in all)\n",
		      answers, yes);
	assert_true(yes >= 40 && answers >= 5);
}

/* A small level (4 pushes): with a big minimum the pull search reaches the
 * start before the feature-space search expands anything. */
static const char small_level[] =
	"########\n"
	"#@     #\n"
	"# $$ # #\n"
	"#  ..  #\n"
	"#      #\n"
	"########\n";

static void test_small_level(void **state)
{
	(void)state;
	soko_pull_set_min(4096);
	const char *off[2] = { "greedy-first", NULL };
	struct lk_search_result r;
	struct lk_level *level = soko_any_run(small_level, off, false, &r);
	assert_int_equal(r.status, LK_SOLVED);
	soko_check_replays(level, &r);
	assert_int_equal(r.technique_counts[soko_test_technique("pull-search")], 1);
	assert_int_equal(r.found_by, LK_BOTH);
	lk_search_result_release(&r);
	lk_level_free(level);
	soko_pull_set_min(0);
}

/* Random levels with both sides growing from the first expansion
 * (delay 1), pull-two-way on and off: raw BFS's answers, replays; returns
 * the levels two-way meetings answered. */
static int two_way_against_bfs(uint64_t seed, int nlevels, int *solvable)
{
	struct lk_rng rng;
	lk_rng_seed(&rng, seed);
	soko_pull_set_delay(1);
	struct soko_mix mix = { 0 };
	int answers = 0;
	int pull = soko_test_technique("pull-search"), two = soko_test_technique("pull-two-way");
	while (mix.levels < nlevels) {
		int want;
		char *text = soko_random_mixed(&rng, &soko_small_shape, 400000, 4, &mix, &want);
		for (int on = 1; on >= 0; on--) {
			const char *off[3] = { "greedy-first", on ? NULL : "pull-two-way", NULL };
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "two-way on" : "two-way off", &r);
			if (!on && r.technique_counts[two] != 0)
				fail_msg("pull-two-way is off but counted");
			if (on && r.technique_counts[two]) {
				answers++;
				assert_int_equal(r.technique_counts[pull], 1);
				assert_int_equal(r.found_by, LK_BOTH);
			}
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_pull_set_delay(0);
	*solvable = mix.yes;
	return answers;
}

static void test_two_way(void **state)
{
	(void)state;
	int yes, answers = two_way_against_bfs(2931, 150 / SOKO_TEST_SHARE, &yes);
	print_message("  two-way meetings answered %d of %d solvable levels (%d in all)\n", answers,
		      yes, 150 / SOKO_TEST_SHARE);
	assert_true(yes >= 40 / SOKO_TEST_SHARE && answers >= 5 / SOKO_TEST_SHARE);
}

static void test_shared(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 2932);
	soko_pull_set_delay(1);
	soko_any_set_stall_first(1, 8);
	int turns = soko_test_technique("stall-turns");
	int levels = 0, shared = 0, no = 0;
	while (levels < 100 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_answered(&rng, &soko_small_shape, 400000, &want);
		if (want == 0 && no > levels / 4) {
			free(text);
			continue;
		}
		levels++;
		no += want == 0;
		const char *off[] = { "greedy-first", NULL };
		struct lk_search_result r;
		size_t before = soko_pull_starts();
		struct lk_level *level = soko_any_run(text, off, false, &r);
		size_t made = soko_pull_starts() - before;
		if (r.status != (want ? LK_SOLVED : LK_UNSOLVABLE))
			fail_msg("shared: %s, raw BFS says %s\n%s", lk_status_name(r.status),
				 want ? "yes" : "no", text);
		if (r.status == LK_SOLVED)
			soko_check_replays(level, &r);
		if (made > 1)
			fail_msg("%zu pull searches made for one level (%llu stall turns)\n%s", made,
				 (unsigned long long)r.technique_counts[turns], text);
		shared += made == 1 && r.technique_counts[turns] > 0;
		lk_search_result_release(&r);
		lk_level_free(level);
		free(text);
	}
	soko_any_set_stall_first(0, 0);
	soko_pull_set_delay(0);
	print_message("  %d of %d levels ran one pull search beside stall turns\n", shared, levels);
	assert_true(shared >= 10 / SOKO_TEST_SHARE);
}

/* pull_alone: the most expansions YASS's order may make (its cap). */
static size_t alone_cap = SIZE_MAX;

/* The pull search alone on one level, run until it answers or runs out;
 * returns whether it reached the start, after checking its table and path. */
static const char *const *alone_off;   /* switches turned off in test_alone */

static bool pull_alone(const char *text, int *both)
{
	struct lk_level *level = soko_test_load(text, alone_off, false);
	struct lk_level *raw = soko_test_load(text, NULL, true);
	soko_pull_set_min((size_t)1 << 22);
	struct soko_pull p;
	soko_pull_init(&p, (const struct sokoban *)level, (size_t)256 << 20);
	soko_pull_set_min(0);
	assert_true(p.done);
	/* with both orders, the states each order put on its list */
	size_t on[2] = { 0, 0 };
	for (size_t id = 0; id < p.table.count && id < p.flags_alloc; id++)
		for (int c = 0; c < 2; c++)
			on[c] += (p.flags[id] >> c) & 1;
	if (p.share[0] && p.share[1]) {
		*both += on[0] > 1 && on[1] > 1;
		/* its last turn started below the cap */
		assert_true(alone_cap == SIZE_MAX || p.yass < alone_cap + level->max_successors);
	}
	else
		assert_true(on[0] == 0 && on[1] == 0);
	/* each entry's pull count is one more than its parent's */
	for (uint32_t id = 1; id < p.table.count; id++) {
		uint32_t up = lk_table_parent(&p.table, id);
		uint32_t want = up == 0 ? 1 : lk_table_cost(&p.table, up) + 1;
		assert_int_equal(lk_table_cost(&p.table, id), want);
	}
	bool reached = p.found != LK_NO_ENTRY;
	if (reached) {
		size_t ks = level->key_size, n = 1;
		const unsigned char **chain = malloc(sizeof *chain);
		assert_non_null(chain);
		chain[0] = lk_table_key(&p.table, p.found);
		unsigned char *start = calloc(1, ks), *succ = malloc((size_t)raw->max_successors * ks + 1);
		struct lk_edge *edges = malloc(((size_t)raw->max_successors + 1) * sizeof *edges);
		void *scratch = calloc(1, raw->scratch_size);
		assert_true(start && succ && edges && scratch);
		raw->game->initial_state(raw, start);
		assert_memory_equal(chain[0], start, ks);
		unsigned char *back = soko_pull_chain(&p, p.found, &chain, &n);
		assert_int_equal(n, (size_t)lk_table_cost(&p.table, p.found) + 1);
		for (size_t i = 0; i + 1 < n; i++) {
			unsigned m = raw->game->successors(raw, chain[i], scratch, succ, edges);
			bool step = false;
			for (unsigned j = 0; j < m && !step; j++)
				step = memcmp(succ + (size_t)j * ks, chain[i + 1], ks) == 0;
			if (!step)
				fail_msg("pull path: key %zu of %zu is no push from the one before\n%s",
					 i + 1, n, text);
		}
		assert_true(raw->game->is_goal(raw, chain[n - 1]));
		free(back);
		free(chain);
		free(start);
		free(succ);
		free(edges);
		free(scratch);
	}
	soko_pull_release(&p);
	lk_level_free(raw);
	lk_level_free(level);
	return reached;
}

/* The pull search alone, in both orders taking turns (pull-both-orders),
 * greedy (both orders off) and in YASS's order (pull-weighted), on 150 random
 * levels each. */
static void test_alone(void **state)
{
	(void)state;
	static const char *const weighted[] = { "pull-weighted", NULL };
	static const char *const both_orders[] = { "pull-both-orders", NULL };
	static const char *const name[] = { "both orders", "greedy", "weighted",
					     "both orders when greedy stalls",
					     "both orders, YASS's capped at 3 states" };
	for (int k = 0; k < 5; k++) {
		soko_test_on = k == 0 || k >= 3 ? both_orders : k == 2 ? weighted : NULL;
		/* greedy alone: both orders are on by default */
		alone_off = k == 1 ? both_orders : NULL;
		/* both orders from the first expansion (0), or YASS's turns
		 * only after 2 greedy expansions without progress, and
		 * greedy's alone again once it makes some (3), or YASS's
		 * order stopped once it has stored 3 states (4): greedy goes
		 * on alone and must still reach every solvable level */
		soko_pull_set_stall(k >= 3 ? 2 : 0);
		soko_pull_set_cap(k == 4 ? 3 : 0);
		alone_cap = k == 4 ? 3 : SIZE_MAX;
		int both = 0;
		struct lk_rng rng;
		lk_rng_seed(&rng, 3131);
		int levels = 0, yes = 0, no = 0;
		while (levels < 150 / SOKO_TEST_SHARE) {
			int want;
			char *text = soko_random_answered(&rng, &soko_small_shape, 400000, &want);
			struct lk_level *raw = soko_test_load(text, NULL, true);
			unsigned char *start = calloc(1, raw->key_size);
			assert_non_null(start);
			raw->game->initial_state(raw, start);
			bool solved0 = raw->game->is_goal(raw, start);   /* nothing to pull back */
			free(start);
			lk_level_free(raw);
			if (solved0 || (want == 0 && no > levels / 3)) {
				free(text);
				continue;
			}
			levels++;
			yes += want;
			no += !want;
			if (pull_alone(text, &both) != (want == 1))
				fail_msg("the pull search alone (%s) says %s, raw BFS %s\n%s",
					 name[k], want ? "no" : "yes", want ? "yes" : "no", text);
			free(text);
		}
		print_message("  alone, %s: as raw BFS on %d levels: reached the start on the %d "
			      "solvable, ran out on the %d others (both orders pushed states on %d)\n",
			      name[k], levels, yes, no, both);
		assert_true(yes >= 60 / SOKO_TEST_SHARE && no >= 20 / SOKO_TEST_SHARE);
		assert_true(k == 0   ? both >= 50 / SOKO_TEST_SHARE
			    : k >= 3 ? both >= 20 / SOKO_TEST_SHARE
				     : both == 0);
	}
	soko_pull_set_stall(PULL_BOTH_STALL);
	soko_pull_set_cap(0);
	alone_cap = SIZE_MAX;
	soko_test_on = NULL;
	alone_off = NULL;
	/* the score: dead stays dead; more pulls or a higher bound never
	 * ranks a state earlier; the bound weighs three times the pulls */
	assert_int_equal(soko_pull_score(7, LK_H_DEAD), LK_H_DEAD);
	for (unsigned g = 0; g < 40; g++)
		for (unsigned h = 0; h < 40; h++) {
			assert_true(soko_pull_score(g + 1, h) >= soko_pull_score(g, h));
			assert_true(soko_pull_score(g, h + 1) >= soko_pull_score(g, h));
			assert_true(soko_pull_score(g + 3, h) <= soko_pull_score(g, h + 1) + 1);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reaches_start),
		cmocka_unit_test(test_met),
		cmocka_unit_test(test_small_level),
		cmocka_unit_test(test_two_way),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
