/*
 * test_sokoban_any_incr.c - the structures that let solve -a any score a
 * state from the one scored before it instead of from scratch (on the big
 * Sasquatch levels, 50 to 130 boxes, the from-scratch work was most of a
 * state's cost; docs/benchmarks.md, section h31s), each against the
 * from-scratch computation or an oracle written here:
 *
 *  - the dead-state matcher's parent matching started from the last
 *    parent's (soko_matcher_base, sokoban_matchable.c), with more than 64
 *    goals as several words of bits: along random walks of box jumps and
 *    random restarts on big open levels (70 and 130 goals) and on small
 *    ones, base_ok is exactly "every box gets a goal of its own it reaches"
 *    (Kuhn's augmenting paths written here, over the distances), and every
 *    one-square child from that base answers as the oracle;
 *  - a child's hotspots from its parent's count of cutters per box
 *    (soko_features_move, sokoban_features.c), the parent's from the last
 *    parent's (soko_features_base): every feature equal to
 *    soko_features_areas's from scratch, for every box move of every state
 *    on random walks (box moves and jumps) of random levels with walls,
 *    small and big (30 boxes);
 *  - the matching bound read from the distances by square
 *    (tdist_by_cell): the same bound as read from the distances by goal,
 *    forwards and on the reversed level, on random positions;
 *  - the matching warm-started from the nearest of the solutions kept
 *    (soko_matching with nearest, greedy search's): the value of the full
 *    Hungarian algorithm (lk_assign) from scratch, along random walks of
 *    box jumps and restarts on big and small levels;
 *  - the cells' queues (soko_cells, sokoban_cells.c: heaps of four children
 *    a node since session 37): distinct items pushed and popped in random
 *    turns over several cells come out least first, as a list of the same
 *    items says, so the searches pop the same order as with the
 *    binary heap before.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/assign.h"
#include "levelkit/game.h"
#include "levelkit/rng.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "sokoban_random.h"

/* Interior 4..11 x 3..9, 1 to 7 boxes, walls on 5 to 34 % of it. */
static const struct soko_random_shape small_shape = { 4, 8, 3, 7, 1, 7, 5, 30 };

/* A big level: a w x h room, walls on about walls % of it, ngoals goals
 * and as many boxes on random squares.  The caller frees the text. */
static char *big_level(struct lk_rng *rng, int w, int h, int walls, int ngoals)
{
	int W = w + 2, H = h + 2;
	char *grid = malloc((size_t)(W * H));
	assert_non_null(grid);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			grid[y * W + x] = y == 0 || x == 0 || y == H - 1 || x == W - 1 ? '#' : ' ';
	for (int y = 1; y < H - 1; y++)
		for (int x = 1; x < W - 1; x++)
			if ((int)lk_rng_below(rng, 100) < walls)
				grid[y * W + x] = '#';
	for (int k = 0; k < 2 * ngoals + 1;) {
		int c = W + 1 + (int)lk_rng_below(rng, (uint32_t)(W * (H - 2) - 2));
		char *at = &grid[c];
		if (k < ngoals) {   /* the goals */
			if (*at != ' ')
				continue;
			*at = '.';
		} else if (k < 2 * ngoals) {   /* the boxes */
			if (*at != ' ' && *at != '.')
				continue;
			*at = *at == '.' ? '*' : '$';
		} else {   /* the player */
			if (*at != ' ' && *at != '.')
				continue;
			*at = *at == '.' ? '+' : '@';
		}
		k++;
	}
	char *text = malloc((size_t)(H * (W + 1) + 1));
	assert_non_null(text);
	char *o = text;
	for (int y = 0; y < H; y++) {
		memcpy(o, grid + y * W, (size_t)W);
		o += W;
		*o++ = '\n';
	}
	*o = 0;
	free(grid);
	return text;
}

/* ---- the oracle: Kuhn's augmenting paths over the distances ---- */

struct kuhn {
	const struct sokoban *s;
	int owner[256];
	uint8_t seen[256];
};

static bool kuhn_path(struct kuhn *k, int cell)
{
	const struct sokoban *s = k->s;
	for (int g = 0; g < s->ntargets; g++) {
		if (k->seen[g] || s->tdist[(size_t)g * (size_t)s->cells + (size_t)cell] == SOKO_INF)
			continue;
		k->seen[g] = 1;
		if (k->owner[g] < 0 || kuhn_path(k, k->owner[g])) {
			k->owner[g] = cell;
			return true;
		}
	}
	return false;
}

/* Can every box of boxes get a goal of its own that it reaches? */
static bool matchable(const struct sokoban *s, const uint16_t *boxes, int n)
{
	struct kuhn k = { .s = s };
	assert_true(s->ntargets <= 256);
	for (int g = 0; g < s->ntargets; g++)
		k.owner[g] = -1;
	for (int i = 0; i < n; i++) {
		memset(k.seen, 0, sizeof k.seen);
		if (!kuhn_path(&k, boxes[i]))
			return false;
	}
	return true;
}

/* The boxes of key unpacked into sc (n of them). */
static int unpack(const struct sokoban *s, const unsigned char *key, struct soko_scratch *sc)
{
	return soko_unpack(s, key, sc);
}

/* Put the boxes on random distinct floor squares, the player anywhere. */
static void random_boxes(struct lk_rng *rng, const struct sokoban *s, unsigned char *key)
{
	memset(key, 0, s->base.key_size);
	for (int placed = 0; placed < s->nboxes;) {
		int c = s->cell_of[lk_rng_below(rng, (uint32_t)s->nfloor)];
		if (soko_bit(key + 2, s->compact[c]))
			continue;
		soko_bit_flip(key + 2, s->compact[c]);
		placed++;
	}
	soko_key_set_player(key, 0);
}

/* Move one random box of key to a random free square. */
static void jump_box(struct lk_rng *rng, const struct sokoban *s, unsigned char *key)
{
	int from, to;
	do
		from = (int)lk_rng_below(rng, (uint32_t)s->nfloor);
	while (!soko_bit(key + 2, from));
	do
		to = (int)lk_rng_below(rng, (uint32_t)s->nfloor);
	while (soko_bit(key + 2, to));
	soko_bit_flip(key + 2, from);
	soko_bit_flip(key + 2, to);
}

/* The matcher's base along a walk of positions, and every one-square child. */
static void walk_matcher(struct lk_rng *rng, const struct sokoban *s, int steps, int *alive,
			 int *dead, int *children)
{
	void *scratch = calloc(1, s->base.scratch_size);
	unsigned char *key = calloc(1, s->base.key_size);
	uint16_t *child = malloc((size_t)(s->nboxes + 1) * sizeof *child);
	assert_true(scratch && key && child);
	struct soko_scratch *sc = soko_scratch(s, scratch);
	struct soko_matcher m;
	soko_matcher_init(&m, s);
	assert_non_null(m.reach_bits);
	random_boxes(rng, s, key);
	for (int step = 0; step < steps; step++) {
		if (lk_rng_below(rng, 10) == 0)
			random_boxes(rng, s, key);
		else
			for (int j = 1 + (int)lk_rng_below(rng, 3); j > 0; j--)
				jump_box(rng, s, key);
		int n = unpack(s, key, sc);
		bool want = matchable(s, sc->boxes, n);
		soko_matcher_base(s, sc, n, &m);
		if (m.base_ok != want)
			fail_msg("step %d: base %d, oracle %d", step, m.base_ok, want);
		*alive += want;
		*dead += !want;
		for (int i = 0; want && i < n; i++)
			for (int d = 0; d < 4; d++) {
				int from = sc->boxes[i], to = from + s->off[d];
				if (s->wall[to] || sc->box[to])
					continue;
				memcpy(child, sc->boxes, (size_t)n * sizeof *child);
				child[i] = (uint16_t)to;
				bool cw = matchable(s, child, n);
				sc->box[from] = 0;
				sc->box[to] = 1;
				sc->boxes[i] = (uint16_t)to;
				bool cg = soko_unmatchable_move(s, sc, n, &m, from, to);
				sc->boxes[i] = (uint16_t)from;
				sc->box[to] = 0;
				sc->box[from] = 1;
				if (cg == cw)
					fail_msg("step %d, %d -> %d: child dead %d, oracle alive %d", step,
						 from, to, cg, cw);
				(*children)++;
			}
		soko_clear_boxes(s, sc, n);
	}
	soko_matcher_release(&m);
	free(child);
	free(scratch);
	free(key);
}

static void test_matcher_from_last(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3131);
	static const char *const off[] = { "pair-conflicts", "pattern-search", "deadlock-table",
					   NULL };
	int alive = 0, dead = 0, children = 0;
	/* big: 70 goals (two words), 130 (three) */
	for (int lv = 0; lv < 6; lv++) {
		int goals = lv % 2 ? 130 : 70, w = lv % 2 ? 22 : 16, h = lv % 2 ? 13 : 9;
		char *text = big_level(&rng, w, h, 4 + lv, goals);
		struct lk_level *level = soko_test_load(text, off, false);
		assert_non_null(level);
		const struct sokoban *s = (const struct sokoban *)level;
		assert_true(s->ntargets == goals);
		walk_matcher(&rng, s, 60, &alive, &dead, &children);
		lk_level_free(level);
		free(text);
	}
	/* small levels with walls: one word */
	for (int lv = 0; lv < 60; lv++) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &small_shape, NULL, &text);
		walk_matcher(&rng, (const struct sokoban *)level, 20, &alive, &dead, &children);
		lk_level_free(level);
		free(text);
	}
	/* the walks meet both answers */
	assert_true(alive > 50 && dead > 50 && children > 1000);
}

/* Under the sanitizers (a Debug build, many times slower, where each level's
 * plan costs most of the time) a quarter of the levels check the memory;
 * the release suite walks them all. */
#ifdef LEVELKIT_SANITIZED
#define WALK_SHARE 4
#else
#define WALK_SHARE 1
#endif

/* Every box move's child scored from its parent as from scratch. */
static void walk_features(struct lk_rng *rng, const struct sokoban *s, const char *text,
			  int steps, int *moves, int *hot_changed)
{
	void *scratch = calloc(1, s->base.scratch_size);
	unsigned char *key = calloc(1, s->base.key_size);
	assert_true(scratch && key);
	struct soko_scratch *sc = soko_scratch(s, scratch);
	struct soko_movegen g;
	soko_movegen_init(&g, s);
	struct soko_plan plan;
	soko_plan_build(&plan, s, true, NULL);
	s->base.game->initial_state(&s->base, key);
	for (int step = 0; step < steps; step++) {
		int n = unpack(s, key, sc);
		soko_movegen_reach(&g, sc, s->cell_of[soko_key_player(key)]);
		size_t m = soko_box_moves(&g, sc, n, NULL);
		struct soko_features parent;
		soko_features_areas(&plan, s, sc, n, -1, &parent);
		soko_features_base(&plan, s, sc, n);
		for (size_t k = 0; k < m; k++) {
			int from = g.moves[k].from, to = g.moves[k].to, i = 0;
			while (sc->boxes[i] != from)
				i++;
			sc->box[from] = 0;
			sc->box[to] = 1;
			sc->boxes[i] = (uint16_t)to;
			int areas = soko_move_areas(&g, from, to);
			struct soko_features want, got;
			soko_features_areas(&plan, s, sc, n, areas, &want);
			soko_features_move(&plan, s, sc, n, areas, from, to, &got);
			sc->boxes[i] = (uint16_t)from;
			sc->box[to] = 0;
			sc->box[from] = 1;
			if (soko_features_pack(&want) != soko_features_pack(&got))
				fail_msg("move %d -> %d: features %08x from the parent, %08x from "
					 "scratch\n%s", from, to, soko_features_pack(&got),
					 soko_features_pack(&want), text);
			*moves += 1;
			*hot_changed += want.hotspots != parent.hotspots;
		}
		soko_clear_boxes(s, sc, n);
		if (m == 0 || lk_rng_below(rng, 5) == 0) {
			/* a jump elsewhere: the next parent's counts from further */
			for (int j = 1 + (int)lk_rng_below(rng, 6); j > 0; j--)
				jump_box(rng, s, key);
			int pl;
			do
				pl = (int)lk_rng_below(rng, (uint32_t)s->nfloor);
			while (soko_bit(key + 2, pl));
			soko_key_set_player(key, (unsigned)pl);
			continue;
		}
		const struct soko_boxmove *mv = &g.moves[lk_rng_below(rng, (uint32_t)m)];
		soko_bit_flip(key + 2, s->compact[mv->from]);
		soko_bit_flip(key + 2, s->compact[mv->to]);
		soko_key_set_player(key, mv->player);
	}
	soko_plan_release(&plan);
	soko_movegen_release(&g);
	free(scratch);
	free(key);
}

static void test_features_from_parent(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3132);
	int moves = 0, hot_changed = 0;
	for (int lv = 0; lv < 150 / WALK_SHARE; lv++) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &small_shape, NULL, &text);
		walk_features(&rng, (const struct sokoban *)level, text, 12, &moves, &hot_changed);
		lk_level_free(level);
		free(text);
	}
	/* big levels with walls: the parents' counts from the last parent's */
	static const char *const off[] = { "pair-conflicts", "pattern-search", "deadlock-table",
					   NULL };
	for (int lv = 0; lv < 6 / WALK_SHARE; lv++) {
		char *text = big_level(&rng, 16, 9, 18, 30);
		struct lk_level *level = soko_test_load(text, off, false);
		assert_non_null(level);
		walk_features(&rng, (const struct sokoban *)level, text, 40, &moves, &hot_changed);
		lk_level_free(level);
		free(text);
	}
	/* the walks meet children whose hotspots differ from their parent's */
	print_message("%d moves, %d with other hotspots than their parent\n", moves, hot_changed);
	assert_true(moves > 1000 / WALK_SHARE && hot_changed > 50 / WALK_SHARE);
}

/* The bound by square equals the bound by goal on random positions. */
static void bound_both_ways(struct lk_rng *rng, const struct lk_level *level, int *finite)
{
	struct sokoban *s = (struct sokoban *)(uintptr_t)level;
	assert_non_null(s->tdist_by_cell);
	void *scratch = calloc(1, level->scratch_size);
	unsigned char *key = calloc(1, level->key_size);
	assert_true(scratch && key);
	for (int p = 0; p < 40; p++) {
		random_boxes(rng, s, key);
		int pl;
		do
			pl = (int)lk_rng_below(rng, (uint32_t)s->nfloor);
		while (soko_bit(key + 2, pl));
		soko_key_set_player(key, (unsigned)pl);
		unsigned by_cell = soko_heuristic(level, key, scratch);
		unsigned by_cell_est = soko_estimate(level, key, scratch);
		const uint16_t *keep = s->by_cell_of;
		s->by_cell_of = NULL;   /* read the distances by goal */
		unsigned by_goal = soko_heuristic(level, key, scratch);
		unsigned by_goal_est = soko_estimate(level, key, scratch);
		s->by_cell_of = keep;
		assert_int_equal(by_cell, by_goal);
		assert_int_equal(by_cell_est, by_goal_est);
		*finite += by_cell != LK_H_DEAD;
	}
	free(scratch);
	free(key);
}

static void test_bound_by_square(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3133);
	int finite = 0;
	for (int lv = 0; lv < 80; lv++) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &small_shape, NULL, &text);
		bound_both_ways(&rng, level, &finite);
		struct lk_level *rev = soko_new_reverse(level);
		if (rev) {
			bound_both_ways(&rng, rev, &finite);
			lk_level_free(rev);
		}
		lk_level_free(level);
		free(text);
	}
	assert_true(finite > 500);
}

/* soko_matching (nearest) against lk_assign from scratch along a walk. */
static void walk_nearest(struct lk_rng *rng, const struct sokoban *s, int steps, int *warm_equal,
			 int *none)
{
	void *scratch = calloc(1, s->base.scratch_size);
	unsigned char *key = calloc(1, s->base.key_size);
	int n0 = s->nboxes, m = s->ntargets;
	int *cost = malloc((size_t)(n0 * m + 1) * sizeof *cost);
	int *work = malloc(lk_assign_work(n0, m) * sizeof *work);
	assert_true(scratch && key && cost && work);
	struct soko_scratch *sc = soko_scratch(s, scratch);
	random_boxes(rng, s, key);
	for (int step = 0; step < steps; step++) {
		if (lk_rng_below(rng, 8) == 0)
			random_boxes(rng, s, key);
		else
			for (int j = (int)lk_rng_below(rng, 5); j > 0; j--)   /* 0: the same boxes */
				jump_box(rng, s, key);
		int n = unpack(s, key, sc);
		/* a third of the steps match other costs over the same scratch,
		 * as rate's features do: a warm start from a slot of other costs
		 * must still give the optimum (an old u reused as it stood sent
		 * the augmentation round for ever) */
		int other = lk_rng_below(rng, 3) == 0;
		for (int i = 0; i < n; i++)
			for (int g = 0; g < m; g++) {
				unsigned d = s->tdist[(size_t)g * (size_t)s->cells + sc->boxes[i]];
				sc->cost[i * m + g] = d == SOKO_INF ? LK_ASSIGN_NONE :
						      (int)d + (other ? g % 3 : 0);
			}
		memcpy(cost, sc->cost, (size_t)(n * m) * sizeof *cost);
		long got = soko_matching(sc, n, m, true);
		long want = lk_assign(cost, n, m, work);
		if ((got < LK_ASSIGN_NONE || want < LK_ASSIGN_NONE) && got != want)
			fail_msg("step %d: nearest warm start %ld, from scratch %ld", step, got, want);
		*warm_equal += want < LK_ASSIGN_NONE;
		*none += want >= LK_ASSIGN_NONE;
		soko_clear_boxes(s, sc, n);
	}
	free(work);
	free(cost);
	free(scratch);
	free(key);
}

static void test_matching_nearest(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3134);
	static const char *const off[] = { "pair-conflicts", "pattern-search", "deadlock-table",
					   NULL };
	int equal = 0, none = 0;
	for (int lv = 0; lv < 4; lv++) {
		char *text = big_level(&rng, 16, 9, 4 + lv, 70);
		struct lk_level *level = soko_test_load(text, off, false);
		assert_non_null(level);
		walk_nearest(&rng, (const struct sokoban *)level, 150, &equal, &none);
		lk_level_free(level);
		free(text);
	}
	for (int lv = 0; lv < 60; lv++) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &small_shape, NULL, &text);
		walk_nearest(&rng, (const struct sokoban *)level, 40, &equal, &none);
		lk_level_free(level);
		free(text);
	}
	assert_true(equal > 600 && none > 50);
}

static void test_cells_order(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 37);
	enum { NCELLS = 3, MOST = 5000 };
	struct soko_cells cells = { 0 };
	uint64_t *ref[NCELLS];
	size_t nref[NCELLS] = { 0 }, pops = 0;
	bool made;
	for (int c = 0; c < NCELLS; c++) {
		ref[c] = malloc(MOST * sizeof *ref[c]);
		assert_non_null(ref[c]);
		assert_int_equal(soko_cells_find(&cells, (uint32_t)(100 + c), &made), (size_t)c);
		assert_true(made);
	}
	uint64_t next = 0;
	for (int step = 0; step < 60000; step++) {
		size_t c = lk_rng_below(&rng, NCELLS);
		/* pushes outnumber pops early, then the queues drain */
		bool push = nref[c] == 0 ||
			    (nref[c] < MOST && lk_rng_below(&rng, 100) < (step < 30000 ? 60u : 35u));
		if (push) {
			/* distinct items: random high bits, a serial number low */
			uint64_t v = (uint64_t)lk_rng_below(&rng, 50) << 32 | next++;
			soko_cells_push(&cells, c, v);
			ref[c][nref[c]++] = v;
			continue;
		}
		size_t least = 0;
		for (size_t i = 1; i < nref[c]; i++)
			if (ref[c][i] < ref[c][least])
				least = i;
		uint64_t got = soko_cells_pop(&cells, c);
		assert_true(got == ref[c][least]);
		ref[c][least] = ref[c][--nref[c]];
		assert_int_equal(cells.cells[c].n, nref[c]);
		pops++;
	}
	assert_true(pops > 20000);
	for (int c = 0; c < NCELLS; c++)
		free(ref[c]);
	soko_cells_release(&cells);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matcher_from_last),
		cmocka_unit_test(test_features_from_parent),
		cmocka_unit_test(test_bound_by_square),
		cmocka_unit_test(test_matching_nearest),
		cmocka_unit_test(test_cells_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
