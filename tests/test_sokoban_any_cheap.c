/*
 * test_sokoban_any_cheap.c - the structures that make solve -a any cheaper
 * per state without changing what it searches (docs/benchmarks.md, section
 * hard-speed30), each against an oracle written here, on random positions
 * (random boxes and player) of random levels with walls:
 *
 *  - the dead-state test (sokoban_matchable.c: the goals a box reaches as
 *    bits, augmenting paths that take a free goal first): dead exactly when
 *    some box reaches no goal or no assignment of distinct goals exists,
 *    found by trying every assignment; from scratch and from a parent's
 *    matching (soko_unmatchable_move), with the same counters;
 *  - the unreached areas labelled ahead by the floor's depth-first search
 *    (soko_movegen_reach) for the PI-corrals: the labels a flood in the
 *    order of the floor gives, and soko_pi_corral answers (corral, its
 *    border boxes, every area's flags) as it does labelling them itself;
 *  - the deadlock table's index (sokoban_deadtab.c: each pattern's other
 *    boxes listed per square): a probe matches exactly when a pattern
 *    scanned in the table's own arrays has a box on the square, all its
 *    boxes present and the player's square in its area;
 *  - the player's flood by scan lines (soko_reach): the squares and least
 *    index of a flood by neighbours;
 *  - the out-of-plan zones as lists (sokoban_plan.c, read by
 *    sokoban_features.c): the feature as counted over every box against
 *    the zone's bits, skipping the boxes on the area's packed goals;
 *  - the moved box found a word of bits at a time (soko_moved_box): the
 *    squares a bit at a time finds.
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
#include "../src/games/sokoban/sokoban_any.h"
#include "sokoban_random.h"

/* Interior 5..11 x 4..8, 2 to 9 boxes, walls on 5 to 29 % of it. */
static const struct soko_random_shape cheap_shape = { 5, 7, 4, 5, 2, 8, 5, 25 };

/* A random position of the level into key: s->nboxes boxes on distinct
 * floor squares (dead ones too when any_square), the player on a free
 * one; returns the player's cell. */
static int random_position(struct lk_rng *rng, const struct sokoban *s, unsigned char *key,
			   bool any_square)
{
	memset(key, 0, s->base.key_size);
	uint8_t *used = calloc((size_t)s->cells, 1);
	assert_non_null(used);
	int placed = 0, tries = 0;
	while (placed < s->nboxes && tries++ < 10000) {
		int c = s->cell_of[lk_rng_below(rng, (uint32_t)s->nfloor)];
		if (used[c] || (!any_square && s->dead[c]))
			continue;
		used[c] = 1;
		soko_bit_flip(key + 2, s->compact[c]);
		placed++;
	}
	int player = -1;
	while (player < 0) {
		int c = s->cell_of[lk_rng_below(rng, (uint32_t)s->nfloor)];
		if (!used[c])
			player = c;
	}
	free(used);
	soko_key_set_player(key, (unsigned)s->compact[player]);
	return player;
}

/* The oracle: can boxes[k..n) get distinct goals not in taken, each one
 * it reaches?  Every assignment tried. */
static bool assignable(const struct sokoban *s, const uint16_t *boxes, int k, int n, uint8_t *taken)
{
	if (k == n)
		return true;
	for (int g = 0; g < s->ntargets; g++) {
		if (taken[g] || s->tdist[(size_t)g * (size_t)s->cells + boxes[k]] == SOKO_INF)
			continue;
		taken[g] = 1;
		bool ok = assignable(s, boxes, k + 1, n, taken);
		taken[g] = 0;
		if (ok)
			return true;
	}
	return false;
}

/* The dead-state test the oracle's way: 1 a box reaches no goal, 2 no
 * assignment, 0 alive. */
static int oracle_dead(const struct sokoban *s, const uint16_t *boxes, int n)
{
	for (int i = 0; i < n; i++) {
		bool any = false;
		for (int g = 0; g < s->ntargets; g++)
			any |= s->tdist[(size_t)g * (size_t)s->cells + boxes[i]] != SOKO_INF;
		if (!any)
			return 1;
	}
	uint8_t taken[256] = { 0 };
	assert_true(s->ntargets <= 256);
	return assignable(s, boxes, 0, n, taken) ? 0 : 2;
}

static void test_matching(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3030);
	int positions = 0, dead = 0, bipartite = 0, children = 0, dead_children = 0;
	for (int levels = 0; levels < 120; levels++) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &cheap_shape, NULL, &text);
		const struct sokoban *s = (const struct sokoban *)level;
		void *scratch = calloc(1, level->scratch_size);
		unsigned char *key = calloc(1, level->key_size);
		uint16_t *child = malloc((size_t)(s->nboxes + 1) * sizeof *child);
		assert_true(scratch && key && child);
		struct soko_scratch *sc = soko_scratch(s, scratch);
		struct soko_matcher m;
		soko_matcher_init(&m, s);
		assert_non_null(m.reach_bits);   /* at most 64 goals here */
		for (int p = 0; p < 40; p++) {
			random_position(&rng, s, key, true);
			int n = soko_unpack(s, key, sc);
			int want = oracle_dead(s, sc->boxes, n);
			uint64_t ds = sc->count[SOKO_T_DEAD_SQUARES], bp = sc->count[SOKO_T_BIPARTITE];
			bool got = soko_unmatchable(s, sc, n, &m);
			if (got != (want != 0))
				fail_msg("dead-state test %d, oracle %d\n%s", got, want, text);
			assert_int_equal(sc->count[SOKO_T_DEAD_SQUARES] - ds, want == 1);
			assert_int_equal(sc->count[SOKO_T_BIPARTITE] - bp, want == 2);
			positions++;
			dead += want == 1;
			bipartite += want == 2;
			/* every single push's child from this parent's matching */
			soko_matcher_base(s, sc, n, &m);
			assert_int_equal(m.base_ok, want == 0);
			for (int i = 0; want == 0 && i < n; i++)
				for (int d = 0; d < 4; d++) {
					int from = sc->boxes[i], to = from + s->off[d];
					if (s->wall[to] || sc->box[to])
						continue;
					memcpy(child, sc->boxes, (size_t)n * sizeof *child);
					child[i] = (uint16_t)to;
					int cw = oracle_dead(s, child, n);
					sc->box[from] = 0;
					sc->box[to] = 1;
					sc->boxes[i] = (uint16_t)to;
					ds = sc->count[SOKO_T_DEAD_SQUARES];
					bp = sc->count[SOKO_T_BIPARTITE];
					bool cg = soko_unmatchable_move(s, sc, n, &m, from, to);
					sc->boxes[i] = (uint16_t)from;
					sc->box[to] = 0;
					sc->box[from] = 1;
					if (cg != (cw != 0))
						fail_msg("child's dead-state test %d, oracle %d\n%s", cg, cw,
							 text);
					assert_int_equal(sc->count[SOKO_T_DEAD_SQUARES] - ds, cw == 1);
					assert_int_equal(sc->count[SOKO_T_BIPARTITE] - bp, cw == 2);
					children++;
					dead_children += cw != 0;
				}
			soko_clear_boxes(s, sc, n);
		}
		soko_matcher_release(&m);
		free(child);
		free(scratch);
		free(key);
		lk_level_free(level);
		free(text);
	}
	/* the draws meet every answer */
	assert_true(dead > 0 && bipartite > 0 && positions - dead - bipartite > 0);
	assert_true(dead_children > 0 && children - dead_children > 0);
}

/* The oracle's labels: -1 on boxes and the squares of mark stamp st, else
 * the areas numbered in the order of their least squares, flooded. */
static int oracle_labels(const struct sokoban *s, const struct soko_scratch *sc, uint32_t st,
			 int *label, uint8_t *goal_in)
{
	int *stack = malloc((size_t)s->cells * sizeof *stack), areas = 0;
	assert_non_null(stack);
	for (int c = 0; c < s->cells; c++)
		label[c] = -2;
	for (int i = 0; i < s->nfloor; i++) {
		int c = s->cell_of[i];
		if (sc->box[c] || sc->mark[c] == st) {
			label[c] = -1;
			continue;
		}
		if (label[c] != -2)
			continue;
		int k = areas++, sp = 0;
		goal_in[k] = 0;
		label[c] = k;
		stack[sp++] = c;
		while (sp) {
			int x = stack[--sp];
			goal_in[k] |= s->goal[x] != 0;
			for (int d = 0; d < 4; d++) {
				int y = x + s->off[d];
				if (s->wall[y] || sc->box[y] || label[y] != -2)
					continue;
				label[y] = k;
				stack[sp++] = y;
			}
		}
	}
	free(stack);
	return areas;
}

static void test_corral_areas(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3031);
	int positions = 0, with_areas = 0, corrals = 0;
	for (int levels = 0; levels < 120; levels++) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &cheap_shape, NULL, &text);
		const struct sokoban *s = (const struct sokoban *)level;
		size_t n = (size_t)s->cells;
		void *ahead = calloc(1, level->scratch_size), *self = calloc(1, level->scratch_size);
		unsigned char *key = calloc(1, level->key_size);
		int *label = malloc(n * sizeof *label);
		uint8_t *goal_in = malloc(n);
		assert_true(ahead && self && key && label && goal_in);
		struct soko_scratch *a = soko_scratch(s, ahead), *b = soko_scratch(s, self);
		struct soko_movegen g;
		soko_movegen_init(&g, s);
		for (int p = 0; p < 40; p++) {
			int player = random_position(&rng, s, key, false);
			int na = soko_unpack(s, key, a), nb = soko_unpack(s, key, b);
			soko_movegen_reach(&g, a, player);
			soko_reach(s, b, player);
			/* the labels ahead, as the oracle's */
			assert_int_equal(a->areas_stamp, a->stamp);
			int areas = oracle_labels(s, a, a->stamp, label, goal_in);
			assert_int_equal(a->areas, areas);
			for (int i = 0; i < s->nfloor; i++) {
				int c = s->cell_of[i];
				if (a->label[c] != label[c])
					fail_msg("label of %d: %d, oracle %d\n%s", c, a->label[c],
						 label[c], text);
			}
			for (int k = 0; k < areas; k++) {
				assert_int_equal(a->uf[k], k);
				assert_int_equal(a->corral_goal[k], goal_in[k]);
				assert_int_equal(a->corral_flags[k] | a->corral_pushes[k], 0);
			}
			/* the PI-corral from them, as from its own labels */
			assert_true(b->areas_stamp != b->stamp);
			int ca = soko_pi_corral(s, a, na), cb = soko_pi_corral(s, b, nb);
			assert_int_equal(ca, cb);
			for (int k = 0; k < areas; k++) {
				assert_int_equal(a->uf[k], b->uf[k]);
				assert_int_equal(a->corral_goal[k], b->corral_goal[k]);
				assert_int_equal(a->corral_flags[k], b->corral_flags[k]);
				assert_int_equal(a->corral_pushes[k], b->corral_pushes[k]);
			}
			for (int i = 0; ca >= 0 && i < na; i++)
				assert_int_equal(soko_corral_allows(s, a, ca, a->boxes[i]),
						 soko_corral_allows(s, b, cb, a->boxes[i]));
			positions++;
			with_areas += areas > 0;
			corrals += ca >= 0;
			soko_clear_boxes(s, a, na);
			soko_clear_boxes(s, b, nb);
		}
		soko_movegen_release(&g);
		free(ahead);
		free(self);
		free(key);
		free(label);
		free(goal_in);
		lk_level_free(level);
		free(text);
	}
	assert_true(with_areas > 0 && with_areas < positions && corrals > 0);
}

/* The oracle's probe: a pattern, scanned in the table's arrays, with a box
 * on cell, all its boxes in sc and the player's square in its area. */
static bool oracle_probe(const struct soko_deadtab *t, const struct soko_scratch *sc, int cell,
			 unsigned player)
{
	for (size_t i = 0; i < t->npatterns; i++) {
		bool on_cell = false, all = true;
		for (uint32_t k = t->first[i]; k < t->first[i + 1]; k++) {
			on_cell |= t->boxes[k] == cell;
			all &= sc->box[t->boxes[k]] != 0;
		}
		const uint8_t *p = t->player + i * t->player_bytes;
		if (on_cell && all && (p[player >> 3] >> (player & 7) & 1))
			return true;
	}
	return false;
}

/* Worked by hand: the right room is a PI-corral fenced by the box in the
 * gate alone (its pushes: into the room, which the player can make; up and
 * down from a wall; out from the room itself), off its goal, so needed.
 * The box beside the pillar borders no corral: a wall beside a box is no
 * area (walls once read as area 0, which made that box a border box whose
 * push down, onto a live square, rejected the corral). */
static void test_corral_walls(void **state)
{
	(void)state;
	static const char text[] =
		"#########\n"
		"#@   #  #\n"
		"# #$ $ .#\n"
		"#.   #  #\n"
		"#########\n";
	struct lk_level *level = soko_test_load(text, NULL, false);
	assert_non_null(level);
	const struct sokoban *s = (const struct sokoban *)level;
	void *block = calloc(1, level->scratch_size);
	unsigned char *key = calloc(1, level->key_size);
	assert_true(block && key);
	struct soko_scratch *sc = soko_scratch(s, block);
	level->game->initial_state(level, key);
	int n = soko_unpack(s, key, sc);
	soko_reach(s, sc, s->player0);
	int c = soko_pi_corral(s, sc, n);
	assert_true(c >= 0);
	/* the board may be padded: cells from the player's (column 1, row 1) */
	int w = s->width, gate = s->player0 + w + 4, pillar_box = s->player0 + w + 2;
	assert_true(sc->box[gate] && sc->box[pillar_box]);
	assert_true(soko_corral_allows(s, sc, c, gate));
	assert_false(soko_corral_allows(s, sc, c, pillar_box));
	free(key);
	free(block);
	lk_level_free(level);
}

static void test_deadtab_index(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3032);
	int probes = 0, matched = 0, patterns = 0;
	for (int levels = 0; levels < 80; levels++) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &cheap_shape, NULL, &text);
		const struct sokoban *s = (const struct sokoban *)level;
		void *scratch = calloc(1, level->scratch_size);
		unsigned char *key = calloc(1, level->key_size);
		assert_true(scratch && key);
		struct soko_scratch *sc = soko_scratch(s, scratch);
		struct soko_deadtab *t = soko_deadtab_new(s);
		for (int p = 0; p < 150; p++) {
			int player = random_position(&rng, s, key, false);
			int n = soko_unpack(s, key, sc);
			unsigned least = (unsigned)soko_reach(s, sc, player);
			int cell = sc->boxes[lk_rng_below(&rng, (uint32_t)n)];
			/* the first half learns, the second only probes */
			bool learn = p < 75;
			bool want = oracle_probe(t, sc, cell, least);
			bool got = soko_deadtab_check(t, sc, cell, least, learn);
			if (!learn && got != want)
				fail_msg("probe %d, oracle %d\n%s", got, want, text);
			if (learn && want && !got)
				fail_msg("a pattern known missed\n%s", text);
			probes += !learn;
			matched += !learn && got;
			soko_clear_boxes(s, sc, n);
		}
		patterns += (int)t->npatterns;
		soko_deadtab_free(t);
		free(scratch);
		free(key);
		lk_level_free(level);
		free(text);
	}
	assert_true(patterns > 0 && matched > 0 && matched < probes);
}

static void test_reach_flood(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3033);
	for (int levels = 0; levels < 100; levels++) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &cheap_shape, NULL, &text);
		const struct sokoban *s = (const struct sokoban *)level;
		size_t n = (size_t)s->cells;
		void *scratch = calloc(1, level->scratch_size);
		unsigned char *key = calloc(1, level->key_size);
		uint8_t *mark = malloc(n);
		int *stack = malloc(n * sizeof *stack);
		assert_true(scratch && key && mark && stack);
		struct soko_scratch *sc = soko_scratch(s, scratch);
		for (int p = 0; p < 30; p++) {
			int player = random_position(&rng, s, key, true);
			int nb = soko_unpack(s, key, sc);
			int least = soko_reach(s, sc, player);
			/* the oracle: a flood by neighbours */
			memset(mark, 0, n);
			int sp = 0, want = s->compact[player];
			mark[player] = 1;
			stack[sp++] = player;
			while (sp) {
				int c = stack[--sp];
				if (s->compact[c] < want)
					want = s->compact[c];
				for (int d = 0; d < 4; d++) {
					int x = c + s->off[d];
					if (s->wall[x] || sc->box[x] || mark[x])
						continue;
					mark[x] = 1;
					stack[sp++] = x;
				}
			}
			assert_int_equal(least, want);
			for (size_t c = 0; c < n; c++)
				if (mark[c] != (sc->mark[c] == sc->stamp))
					fail_msg("the flood differs at %zu\n%s", c, text);
			soko_clear_boxes(s, sc, nb);
		}
		free(scratch);
		free(key);
		free(mark);
		free(stack);
		lk_level_free(level);
		free(text);
	}
}

/* The out-of-plan feature as soko_features counted it before the zones
 * were lists: every box against the next goal's zone bits, the boxes on
 * the area's goals packed before it skipped. */
static int oracle_out_of_plan(const struct soko_plan *p, const struct sokoban *s,
			      const struct soko_scratch *sc, int nboxes, int *in_way_out)
{
	int packed = 0, on_goal = 0, in_way = 0;
	for (int a = 0; a < p->nareas; a++) {
		int i = p->area_first[a];
		while (i < p->area_first[a + 1] && sc->box[p->area_goals[i]])
			i++;
		packed += i - p->area_first[a];
		if (i == p->area_first[a + 1] || !p->zone || !p->zone[i])
			continue;
		for (int b = 0; b < nboxes; b++) {
			int c = sc->boxes[b], k = s->compact[c];
			if (p->rank[c] != SOKO_NONE && p->area_of[c] == a &&
			    (int)p->rank[c] < (int)p->rank[p->area_goals[i]])
				continue;
			in_way += p->zone[i][k >> 3] >> (k & 7) & 1;
		}
	}
	for (int i = 0; i < nboxes; i++)
		on_goal += s->goal[sc->boxes[i]];
	*in_way_out = in_way;
	int v = on_goal - packed + in_way;
	return v > 63 ? 63 : v;
}

static void test_zone_lists(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3435);
	static const struct soko_random_shape shape = { 5, 7, 4, 5, 3, 6, 5, 20 };
	long positions = 0, in_way_seen = 0;
	for (int levels = 0; levels < 60; levels++) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &shape, NULL, &text);
		const struct sokoban *s = (const struct sokoban *)level;
		void *scratch = calloc(1, level->scratch_size);
		unsigned char *key = calloc(1, level->key_size);
		assert_true(scratch && key);
		struct soko_scratch *sc = soko_scratch(s, scratch);
		struct soko_plan plan;
		soko_plan_build(&plan, s, true, NULL);
		for (int p = 0; p < 60; p++) {
			/* boxes on goals more often than not: packed prefixes */
			random_position(&rng, s, key, false);
			for (int g = 0; g < s->ngoals; g++)
				if (lk_rng_below(&rng, 2) == 0) {
					int c = s->compact[s->goals[g]];
					if (!soko_bit(key + 2, c)) {
						/* move some box off a non-goal onto it */
						for (int k = 0; k < s->nfloor; k++)
							if (soko_bit(key + 2, k) && !s->goal[s->cell_of[k]]) {
								soko_bit_flip(key + 2, k);
								soko_bit_flip(key + 2, c);
								break;
							}
					}
				}
			int nb = soko_unpack(s, key, sc);
			struct soko_features f;
			soko_features(&plan, s, sc, nb, &f);
			int in_way;
			int want = oracle_out_of_plan(&plan, s, sc, nb, &in_way);
			if (f.out_of_plan != want)
				fail_msg("out of plan %d, counted over every box %d\n%s", f.out_of_plan,
					 want, text);
			positions++;
			in_way_seen += in_way > 0;
			soko_clear_boxes(s, sc, nb);
		}
		soko_plan_release(&plan);
		free(scratch);
		free(key);
		lk_level_free(level);
		free(text);
	}
	/* the zones counted something */
	assert_true(in_way_seen > 0 && in_way_seen < positions);
	print_message("zones: %ld positions, %ld with boxes in the way\n", positions, in_way_seen);
}

static void test_moved_box(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3436);
	/* wide levels too: bitsets of more than eight bytes */
	static const struct soko_random_shape shape = { 5, 20, 4, 12, 2, 6, 5, 20 };
	for (int levels = 0; levels < 60; levels++) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &shape, NULL, &text);
		const struct sokoban *s = (const struct sokoban *)level;
		unsigned char *a = calloc(1, level->key_size), *b = calloc(1, level->key_size);
		assert_true(a && b);
		for (int p = 0; p < 200; p++) {
			random_position(&rng, s, a, true);
			memcpy(b, a, level->key_size);
			/* zero, one or two bits flipped each way */
			int flips = (int)lk_rng_below(&rng, 5);
			for (int k = 0; k < flips; k++)
				soko_bit_flip(b + 2, (int)lk_rng_below(&rng, (uint32_t)s->nfloor));
			int want_to = -1, want_was = -1;
			for (int c = 0; c < s->nfloor; c++) {
				bool was = soko_bit(a + 2, c), is = soko_bit(b + 2, c);
				if (is && !was)
					want_to = s->cell_of[c];
				if (was && !is)
					want_was = s->cell_of[c];
			}
			int was, to = soko_moved_box(s, a, b, &was);
			assert_int_equal(to, want_to);
			assert_int_equal(was, want_was);
		}
		free(a);
		free(b);
		lk_level_free(level);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matching),
		cmocka_unit_test(test_corral_areas),
		cmocka_unit_test(test_corral_walls),
		cmocka_unit_test(test_deadtab_index),
		cmocka_unit_test(test_reach_flood),
		cmocka_unit_test(test_zone_lists),
		cmocka_unit_test(test_moved_box),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
