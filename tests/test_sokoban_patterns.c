/*
 * test_sokoban_patterns.c - the pattern searches (sokoban_patterns.c,
 * technique "pattern-search") never make the lower bound exceed the
 * pushes still needed, find patterns, and leave A*'s push counts as they
 * were.
 *
 * The truth is the whole push graph of small random levels with nothing
 * pruned (sokoban_graph.c): every state's fewest pushes to a solution.
 * Each level's states are evaluated twice in a row, the second time with
 * every pattern the first pass learned, and with no budget on the small
 * searches (soko_patterns_unlimited); the bound must never exceed the
 * truth, with pair conflicts on and off.  On Microban's first 40 levels
 * A* forwards must find the same push counts with the technique on and
 * off, and the bound along an optimal solution must not exceed the pushes
 * left; the counter must show patterns found there (A* itself starts its
 * pattern searches only after PAT_START evaluations, which few of these
 * levels reach).
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
#include "../src/games/sokoban/sokoban.h"
#include "test_records.h"
#include "sokoban_random.h"
#include "sokoban_graph.h"

/* Interior 4..8 x 3..7, 2 to 6 boxes, walls on 10 to 40 % of it. */
static const struct soko_random_shape shape = { 4, 5, 3, 5, 2, 5, 10, 31 };
#define LEVELS 300
#define MAX_STATES 60000
#define INF SOKO_GRAPH_INF

struct tally {
	unsigned long states, raised, raised_alone, found, levels;
};

static const char *const off_pat[] = { "pattern-search", NULL };
static const char *const off_pairs[] = { "pair-conflicts", NULL };
static const char *const off_both[] = { "pattern-search", "pair-conflicts", NULL };

/* The bound of level lv (fresh scratch sc) at every state of g, twice;
 * fails where it exceeds the truth; into h the second pass's bounds. */
static void bounds(const struct soko_graph *g, const struct lk_level *lv, void *sc, unsigned *h,
		   const char *name, const char *what)
{
	soko_pairs_at_once(((const struct sokoban *)lv)->pairs);
	soko_patterns_unlimited(((const struct sokoban *)lv)->patterns);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < g->n; i++) {
			unsigned b = lv->game->heuristic(lv, g->keys + i * g->ks, sc);
			if (g->to_goal[i] != INF && (b == LK_H_DEAD || b > g->to_goal[i]))
				fail_msg("%s (%s): state %zu, pass %d: bound %u, %u pushes left", name,
					 what, i, pass, b, g->to_goal[i]);
			h[i] = b;
		}
}

static void test_random(void **state)
{
	(void)state;
	struct lk_rng rng;
	struct tally t = { 0 };
	lk_rng_seed(&rng, 3017);
	int pat = soko_test_technique("pattern-search");
	for (int n = 0; t.levels < LEVELS; n++) {
		assert_true(n < 100 * LEVELS);
		char *text = soko_random_level(&rng, &shape);
		if (!text)
			continue;
		struct lk_level *plain = soko_test_load(text, NULL, true);
		struct soko_graph g;
		if (soko_graph_enumerate(plain, &g, MAX_STATES)) {
			struct lk_level *lv[4] = {
				soko_test_load(text, NULL, false), soko_test_load(text, off_pat, false),
				soko_test_load(text, off_pairs, false), soko_test_load(text, off_both, false),
			};
			static const char *const what[4] = { "all", "no patterns", "no pairs",
							     "neither" };
			unsigned *h[4];
			void *sc[4];
			char name[160];
			snprintf(name, sizeof name, "random level %d:\n%s", n, text);
			for (int k = 0; k < 4; k++) {
				h[k] = malloc(g.n * sizeof *h[k]);
				sc[k] = calloc(1, lv[k]->scratch_size);
				assert_true(h[k] && sc[k]);
				bounds(&g, lv[k], sc[k], h[k], name, what[k]);
			}
			for (size_t i = 0; i < g.n; i++) {
				t.raised += h[0][i] != LK_H_DEAD && h[0][i] > h[1][i];
				t.raised_alone += h[2][i] != LK_H_DEAD && h[2][i] > h[3][i];
			}
			uint64_t counts[LK_MAX_TECHNIQUES] = { 0 };
			soko_technique_counts(lv[0], sc[0], counts);
			t.found += counts[pat];
			t.states += g.n;
			t.levels++;
			for (int k = 0; k < 4; k++) {
				free(h[k]);
				free(sc[k]);
				lk_level_free(lv[k]);
			}
		}
		soko_graph_free(&g);
		lk_level_free(plain);
		free(text);
	}
	print_message("  %lu levels, %lu states: %lu patterns found; raised %lu with pairs, "
		      "%lu without\n",
		      t.levels, t.states, t.found, t.raised, t.raised_alone);
	assert_true(t.found > 0);
	assert_true(t.raised > 0);
	assert_true(t.raised_alone > 0);
}

/* Microban: A* forwards with and without the technique (tunnel macros off
 * so that every edge is one push) finds the same push counts; along the
 * optimal solution the bound with it never exceeds the pushes left. */
#define MICROBAN_LEVELS 40
static void test_microban(void **state)
{
	(void)state;
	char path[4096];
	FILE *fp = test_open_data("sokoban/microban.xsb", path, sizeof path);
	struct lk_reader rd;
	struct lk_record rec = LK_RECORD_INIT;
	static const char *const off0[] = { "pattern-search", "tunnel-macros", NULL };
	static const char *const off1[] = { "tunnel-macros", NULL };
	int pat = soko_test_technique("pattern-search");
	unsigned long found = 0, searched = 0, solved = 0, raised = 0;
	lk_reader_init_fp(&rd, fp, path);
	for (int n = 0; n < MICROBAN_LEVELS && lk_reader_next(&rd, &rec, NULL, NULL) == 1; n++) {
		struct lk_level_options o0 = { .metric = "pushes", .off = off0 };
		struct lk_level_options o1 = { .metric = "pushes", .off = off1 };
		struct lk_strbuf err = LK_STRBUF_INIT;
		size_t line = 0;
		struct lk_level *without = lk_level_load(&rec, &o0, &err, &line);
		struct lk_level *with = lk_level_load(&rec, &o1, &err, &line);
		assert_true(without && with);
		lk_strbuf_release(&err);
		struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
		so.algo = LK_ALGO_ASTAR;
		so.direction = LK_FORWARD;
		so.bounds.max_states = 2000000;
		struct lk_search_result r0, r1;
		lk_search_result_init(&r0);
		lk_search_result_init(&r1);
		lk_search(without, &so, &r0);
		lk_search(with, &so, &r1);
		searched += r1.technique_counts[pat];
		if (r0.status == LK_SOLVED) {
			assert_int_equal(r1.status, LK_SOLVED);
			if (r1.cost != r0.cost)
				fail_msg("Microban %d: %lu pushes with pattern searches, %lu without",
					 n + 1, (unsigned long)r1.cost, (unsigned long)r0.cost);
			solved++;
			/* the bound along the solution, patterns learned without budget */
			void *sc = calloc(1, with->scratch_size), *sc0 = calloc(1, without->scratch_size);
			assert_true(sc && sc0);
			soko_patterns_unlimited(((const struct sokoban *)with)->patterns);
			for (int pass = 0; pass < 2; pass++)
				for (size_t i = 0; i < r0.nkeys; i++) {
					const unsigned char *key = r0.path + i * with->key_size;
					unsigned h = with->game->heuristic(with, key, sc);
					unsigned left = (unsigned)(r0.nkeys - 1 - i);
					if (h == LK_H_DEAD || h > left)
						fail_msg("Microban %d: push %zu: bound %u, %u left", n + 1, i,
							 h, left);
					if (pass == 1)
						raised += h > without->game->heuristic(without, key, sc0);
				}
			uint64_t counts[LK_MAX_TECHNIQUES] = { 0 };
			soko_technique_counts(with, sc, counts);
			found += counts[pat];
			free(sc0);
			free(sc);
		}
		lk_search_result_release(&r1);
		lk_search_result_release(&r0);
		lk_level_free(with);
		lk_level_free(without);
	}
	print_message("  %lu levels solved alike (A* found %lu patterns: its searches start late); "
		      "along the solutions %lu patterns found, %lu states raised\n",
		      solved, searched, found, raised);
	assert_true(solved >= MICROBAN_LEVELS / 2);
	assert_true(found > 0);
	lk_record_release(&rec);
	lk_reader_close(&rd);
	fclose(fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_microban),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
