/*
 * test_sokoban_pairs.c - the pair-conflict lower bound (sokoban_pairs.c)
 * never exceeds the pushes still needed, forwards or backwards.
 *
 * The truth is the whole push graph of a small level with nothing pruned,
 * enumerated here state by state through the plain level's successors: a
 * breadth-first search backwards from its solved states gives every
 * state's fewest pushes to a solution, one forwards from the start the
 * fewest pushes from the start (what the reversed level's bound must not
 * exceed).  On random small levels every state is checked; on Microban,
 * the states along an optimal solution.  The technique must also raise the
 * bound somewhere, or the checks would prove nothing.  Every bound is
 * also read the slow way (the player-aware rows target by target) and must
 * be the same as read by square and area.  The tables are
 * used from the first state on (soko_pairs_at_once), where a search waits
 * until they pay.
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

/* Interior 4..8 x 3..7, 2 to 5 boxes, walls on 10 to 40 % of it. */
static const struct soko_random_shape shape = { 4, 5, 3, 5, 2, 4, 10, 31 };
#define LEVELS 400
#define MAX_STATES 60000
#define INF SOKO_GRAPH_INF

struct tally {
	unsigned long states, raised, raised_back, dead_found, levels;
};

/* The bound of key with the player-aware rows read target by target
 * (the rows by square and area left aside). */
static unsigned slow_bound(const struct lk_level *level, const void *key, void *scratch)
{
	struct sokoban *s = (struct sokoban *)level;
	const uint16_t *keep = s->aware_of;
	s->aware_of = NULL;
	unsigned h = level->game->heuristic(level, key, scratch);
	s->aware_of = keep;
	return h;
}

/* Every state of the graph: the bound with every technique on never
 * exceeds its true distance (forwards to a solution, backwards from the
 * start), and how often it is above the bound without pair conflicts. */
static void check_graph(const struct soko_graph *g, const struct lk_level *full,
			const struct lk_level *nopair, const char *name, struct tally *t)
{
	const struct lk_game *gm = full->game;
	assert_int_equal(full->key_size, g->ks);
	struct lk_level *back = gm->reverse_level(full);
	struct lk_level *back0 = gm->reverse_level(nopair);
	/* the tables from the first state on, not once they pay */
	soko_pairs_at_once(((const struct sokoban *)full)->pairs);
	if (back)
		soko_pairs_at_once(((struct sokoban *)back)->pairs);
	void *sc = calloc(1, full->scratch_size), *sc0 = calloc(1, nopair->scratch_size);
	void *bsc = back ? calloc(1, back->scratch_size) : NULL;
	void *bsc0 = back0 ? calloc(1, back0->scratch_size) : NULL;
	/* the same bounds read the slow way: the player-aware rows target by
	 * target instead of by square and area (sokoban_aware.c), through
	 * scratch blocks that see the same states in the same order (the
	 * matching's warm start, and so the pairs' potentials, follow them) */
	void *ssc = calloc(1, full->scratch_size);
	void *bssc = back ? calloc(1, back->scratch_size) : NULL;
	assert_true(sc && sc0 && ssc);
	for (size_t i = 0; i < g->n; i++) {
		const unsigned char *key = g->keys + i * g->ks;
		unsigned h = gm->heuristic(full, key, sc), h0 = gm->heuristic(nopair, key, sc0);
		unsigned slow = slow_bound(full, key, ssc);
		if (slow != h)
			fail_msg("%s: state %zu: bound %u by square and area, %u target by target",
				 name, i, h, slow);
		if (g->to_goal[i] != INF && (h == LK_H_DEAD || h > g->to_goal[i]))
			fail_msg("%s: state %zu: bound %u, %u pushes left", name, i, h, g->to_goal[i]);
		if (h0 == LK_H_DEAD && h != LK_H_DEAD)
			fail_msg("%s: state %zu: dead without pairs, %u with", name, i, h);
		t->raised += h != LK_H_DEAD && h > h0;
		t->dead_found += h == LK_H_DEAD && h0 != LK_H_DEAD;
		t->states++;
		if (!back || i == 0)
			continue;
		h = gm->heuristic(back, key, bsc);
		h0 = gm->heuristic(back0, key, bsc0);
		if (slow_bound(back, key, bssc) != h)
			fail_msg("%s: state %zu backwards: rows by square and area differ", name, i);
		if (h == LK_H_DEAD || h > g->from_start[i])
			fail_msg("%s: state %zu backwards: bound %u, %u pulls to the start", name, i,
				 h, g->from_start[i]);
		t->raised_back += h > h0;
	}
	free(bssc);
	free(ssc);
	free(bsc0);
	free(bsc);
	free(sc0);
	free(sc);
	if (back0)
		lk_level_free(back0);
	if (back)
		lk_level_free(back);
}

static const char *const no_pairs[] = { "pair-conflicts", NULL };

static void test_random(void **state)
{
	(void)state;
	struct lk_rng rng;
	struct tally t = { 0 };
	lk_rng_seed(&rng, 2329);
	for (int n = 0; t.levels < LEVELS; n++) {
		assert_true(n < 100 * LEVELS);
		char *text = soko_random_level(&rng, &shape);
		if (!text)
			continue;
		struct lk_level *plain = soko_test_load(text, NULL, true);
		struct soko_graph g;
		if (soko_graph_enumerate(plain, &g, MAX_STATES)) {
			struct lk_level *full = soko_test_load(text, NULL, false);
			struct lk_level *nopair = soko_test_load(text, no_pairs, false);
			char name[160];
			snprintf(name, sizeof name, "random level %d:\n%s", n, text);
			check_graph(&g, full, nopair, name, &t);
			t.levels++;
			lk_level_free(nopair);
			lk_level_free(full);
		}
		soko_graph_free(&g);
		lk_level_free(plain);
		free(text);
	}
	print_message("  %lu levels, %lu states: raised %lu forwards, %lu backwards, %lu found dead\n",
		      t.levels, t.states, t.raised, t.raised_back, t.dead_found);
	assert_true(t.raised > 0);
	assert_true(t.raised_back > 0);
}

/* Microban: along an optimal solution (A* without the technique, tunnel
 * macros off so that every edge is one push), the bound with it never
 * exceeds the pushes left, nor the reversed level's the pushes made, and
 * A* with it finds the same count.  The first MICROBAN_LEVELS levels. */
#define MICROBAN_LEVELS 40
static void test_microban(void **state)
{
	(void)state;
	char path[4096];
	FILE *fp = test_open_data("sokoban/microban.xsb", path, sizeof path);
	struct lk_reader rd;
	struct lk_record rec = LK_RECORD_INIT;
	struct tally t = { 0 };
	static const char *const off_pairs[] = { "pair-conflicts", "tunnel-macros", NULL };
	static const char *const off_tunnels[] = { "tunnel-macros", NULL };
	lk_reader_init_fp(&rd, fp, path);
	for (int n = 0; n < MICROBAN_LEVELS && lk_reader_next(&rd, &rec, NULL, NULL) == 1; n++) {
		struct lk_level_options o0 = { .metric = "pushes", .off = off_pairs };
		struct lk_level_options o1 = { .metric = "pushes", .off = off_tunnels };
		struct lk_strbuf err = LK_STRBUF_INIT;
		size_t line = 0;
		struct lk_level *nopair = lk_level_load(&rec, &o0, &err, &line);
		struct lk_level *full = lk_level_load(&rec, &o1, &err, &line);
		assert_true(nopair && full);
		soko_pairs_at_once(((const struct sokoban *)full)->pairs);
		lk_strbuf_release(&err);
		struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
		so.algo = LK_ALGO_ASTAR;
		so.direction = LK_FORWARD;
		so.bounds.max_states = 2000000;
		struct lk_search_result r0, r1;
		lk_search_result_init(&r0);
		lk_search_result_init(&r1);
		lk_search(nopair, &so, &r0);
		lk_search(full, &so, &r1);
		if (r0.status == LK_SOLVED) {
			assert_int_equal(r1.status, LK_SOLVED);
			if (r1.cost != r0.cost)
				fail_msg("Microban %d: %lu pushes with pair conflicts, %lu without", n + 1,
					 (unsigned long)r1.cost, (unsigned long)r0.cost);
			/* the path as a graph: state i, i + 1 pushes from the start */
			struct soko_graph g;
			memset(&g, 0, sizeof g);
			g.ks = full->key_size;
			g.n = r0.nkeys;
			g.keys = r0.path;
			g.to_goal = malloc(g.n * sizeof *g.to_goal);
			g.from_start = malloc(g.n * sizeof *g.from_start);
			assert_true(g.to_goal && g.from_start);
			assert_int_equal(g.n, r0.cost + 1);
			for (size_t i = 0; i < g.n; i++) {
				g.to_goal[i] = (uint32_t)(g.n - 1 - i);
				g.from_start[i] = (uint32_t)i;
			}
			char name[32];
			snprintf(name, sizeof name, "Microban %d", n + 1);
			check_graph(&g, full, nopair, name, &t);
			free(g.to_goal);
			free(g.from_start);
			t.levels++;
		}
		lk_search_result_release(&r1);
		lk_search_result_release(&r0);
		lk_level_free(full);
		lk_level_free(nopair);
	}
	print_message("  %lu levels, %lu states: raised %lu forwards, %lu backwards\n", t.levels,
		      t.states, t.raised, t.raised_back);
	assert_true(t.levels >= MICROBAN_LEVELS / 2);
	assert_true(t.raised > 0);
	assert_true(t.raised_back > 0);
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
