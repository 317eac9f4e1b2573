/*
 * test_sokoban_plan.c - the packing order of Sokoban's search for any
 * solution (src/games/sokoban/sokoban_plan.c), against truths worked out
 * here rather than by the retrieval it checks:
 *
 *  - the order is a permutation of the goals and rank is its inverse;
 *  - every goal the retrieval says it ordered can really be emptied in that
 *    order: with boxes on the goals filled before it and nothing else on the
 *    board, a box on it can be pulled (player anywhere) to a square that is
 *    no goal, found by a breadth-first search over (box, player) written
 *    here.  Forwards: a box from off the goals can be pushed onto it once
 *    the goals before it are filled.  Random small levels and Microban;
 *  - a dead-end corridor of goals, worked by hand: the deepest goal first,
 *    whichever side of the board the player starts on;
 *  - a plan built once and shared (soko_plan_view): a search with a view
 *    searches exactly as one that builds its own plan (same status,
 *    states, counters and path), and the shared plan is not written by the
 *    searches that view it (its contents hashed before and after);
 *  - a plan whose search is stopped while it is built (soko_stop): a stop
 *    that never fires builds the same plan as none; one that fires gives a
 *    plan cut short but whole (a permutation, no parking plan).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/rng.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "sokoban_random.h"

/* Is cell `to` reachable by the player from `from`, boxes[] and the box
 * on b (-1: none) in the way? */
static bool walks(const struct sokoban *s, const uint8_t *boxes, int b, int from, int to)
{
	size_t n = (size_t)s->cells;
	uint8_t *m = calloc(n, 1);
	int *stack = malloc(n * sizeof *stack), sp = 0;
	assert_non_null(m);
	assert_non_null(stack);
	m[from] = 1;
	stack[sp++] = from;
	while (sp > 0) {
		int c = stack[--sp];
		for (int d = 0; d < 4; d++) {
			int x = c + s->off[d];
			if (!s->wall[x] && !boxes[x] && x != b && !m[x]) {
				m[x] = 1;
				stack[sp++] = x;
			}
		}
	}
	bool ok = m[to];
	free(m);
	free(stack);
	return ok;
}

/* Can the box on goal g be pulled to a square that is no goal, with boxes
 * on the cells of boxes[] (walls as the level's) and the player starting
 * on any free square?  BFS over (box cell, player cell).  With `home`
 * (>= 0, the start square, and the start's side holding g), only where
 * the player then walks to home: forwards, a box brought in from there
 * with the player coming from the start. */
static bool pulls_out_home(const struct sokoban *s, const uint8_t *boxes, int g, int home)
{
	if (home >= 0 && (s->goal[home] || !walks(s, boxes, -1, home, g)))
		home = -1;
	size_t n = (size_t)s->cells;
	uint8_t *seen = calloc(n * n, 1);
	uint32_t *queue = malloc(n * n * sizeof *queue);
	assert_non_null(seen);
	assert_non_null(queue);
	size_t head = 0, tail = 0;
	for (size_t p = 0; p < n; p++)
		if (!s->wall[p] && !boxes[p] && (int)p != g) {
			seen[(size_t)g * n + p] = 1;
			queue[tail++] = (uint32_t)((size_t)g * n + p);
		}
	bool out = false;
	while (head < tail && !out) {
		int b = (int)(queue[head] / n), p = (int)(queue[head] % n);
		head++;
		if (!s->goal[b] && (home < 0 || walks(s, boxes, b, p, home))) {
			out = true;
			break;
		}
		for (int d = 0; d < 4; d++) {
			int q = p + s->off[d];
			if (s->wall[q] || boxes[q] || q == b)
				continue;
			/* a step; and a pull when the box is behind the player */
			int nb = p - s->off[d] == b ? p : b;
			size_t k = (size_t)nb * n + (size_t)q;
			if (!seen[k]) {
				seen[k] = 1;
				queue[tail++] = (uint32_t)k;
			}
		}
	}
	free(seen);
	free(queue);
	return out;
}

static bool pulls_out(const struct sokoban *s, const uint8_t *boxes, int g)
{
	return pulls_out_home(s, boxes, g, -1);
}

/* Checks the plan of level text; returns how many goals it ordered. */
static int check_plan(const char *text)
{
	struct lk_level *level = soko_test_load(text, NULL, false);
	assert_non_null(level);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_plan p;
	soko_plan_build(&p, s, true, NULL);
	int ng = s->ngoals;
	assert_int_equal(p.ngoals, ng);
	assert_true(p.ordered >= 0 && p.ordered <= ng);
	/* a permutation of the goals, rank its inverse */
	uint8_t *boxes = calloc((size_t)s->cells, 1);
	for (int i = 0; i < ng; i++) {
		int g = p.order[i];
		assert_true(g >= 0 && g < s->cells && s->goal[g]);
		assert_false(boxes[g]);
		boxes[g] = 1;
		assert_int_equal(p.rank[g], i);
	}
	/* the ordered goals (the last p.ordered) empty in that order */
	memset(boxes, 0, (size_t)s->cells);
	for (int i = 0; i < ng - p.ordered; i++)
		boxes[p.order[i]] = 1;
	for (int i = ng - p.ordered; i < ng; i++) {
		if (!pulls_out(s, boxes, p.order[i]))
			fail_msg("goal %d (%d of %d in the order) cannot be emptied with the goals "
				 "before it filled\n%s", p.order[i], i, ng, text);
		boxes[p.order[i]] = 1;
	}
	free(boxes);
	int ordered = p.ordered;
	soko_plan_release(&p);
	lk_level_free(level);
	return ordered;
}

/* The text of the next random level of the shape that loads (the ones
 * that do not are drawn past). */
static char *loadable_level(struct lk_rng *rng, const struct soko_random_shape *shape)
{
	for (;;) {
		char *text = soko_random_level(rng, shape);
		if (!text)
			continue;
		struct lk_level *level = soko_test_load(text, NULL, false);
		if (level) {
			lk_level_free(level);
			return text;
		}
		free(text);
	}
}

static void test_random_orders_can_be_packed(void **state)
{
	(void)state;
	/* interior 4..8 x 4..7, 2 to 6 boxes, 5-24 % walls */
	static const struct soko_random_shape shape = { 4, 5, 4, 4, 2, 5, 5, 20 };
	struct lk_rng rng;
	lk_rng_seed(&rng, 3030);
	int levels = 0, ordered = 0, goals = 0;
	while (levels < 400) {
		char *text = loadable_level(&rng, &shape);
		struct lk_level *level = soko_test_load(text, NULL, false);
		goals += ((const struct sokoban *)level)->ngoals;
		lk_level_free(level);
		ordered += check_plan(text);
		levels++;
		free(text);
	}
	/* most goals get ordered, or the check above tests little */
	assert_true(ordered * 10 >= goals * 8);
}

static void test_microban_orders_can_be_packed(void **state)
{
	(void)state;
	const char *dir = getenv("LEVELKIT_DATA");
	char path[4096];
	snprintf(path, sizeof path, "%s/sokoban/microban.xsb", dir ? dir : "../../shared/data");
	FILE *f = fopen(path, "r");
	if (!f)
		skip();
	/* levels are separated by lines that are not board lines */
	char line[512], text[16384];
	size_t len = 0;
	int levels = 0, ordered = 0;
	for (bool more = true; more;) {
		more = fgets(line, sizeof line, f) != NULL;
		bool board = more && strchr(line, '#') && !strchr(line, ';');
		if (board && len + strlen(line) < sizeof text) {
			memcpy(text + len, line, strlen(line) + 1);
			len += strlen(line);
		} else if (len > 0) {
			ordered += check_plan(text);
			levels++;
			len = 0;
		}
	}
	fclose(f);
	assert_int_equal(levels, 155);
	assert_true(ordered > 0);
}

/* A dead-end corridor of goals: the deepest is filled first, the one at
 * the corridor's mouth last, with the player starting in the room. */
static void test_corridor_deepest_first(void **state)
{
	(void)state;
	static const char *const levels[] = {
		"#######\n"
		"#@ $$ #\n"
		"#     #\n"
		"###.###\n"
		"  #.#\n"
		"  ###\n",
		/* the same with three goals, the player elsewhere */
		"########\n"
		"#  $ $ #\n"
		"# $  @ #\n"
		"####.###\n"
		"   #.#\n"
		"   #.#\n"
		"   ###\n",
	};
	for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
		struct lk_level *level = soko_test_load(levels[i], NULL, false);
		assert_non_null(level);
		const struct sokoban *s = (const struct sokoban *)level;
		struct soko_plan p;
		soko_plan_build(&p, s, true, NULL);
		assert_int_equal(p.ordered, s->ngoals);
		/* deepest first: each goal lower on the board than the next */
		for (int k = 1; k < s->ngoals; k++)
			assert_true(p.order[k - 1] / s->width > p.order[k] / s->width);
		soko_plan_release(&p);
		lk_level_free(level);
		check_plan(levels[i]);
	}
}

/* How many goals of p's order, from the first, a box can be brought onto
 * from the open with the player coming from the start, the goals before it
 * filled (pulls_out_home, a truth of this file's own). */
static int entry_prefix(const struct sokoban *s, const struct soko_plan *p)
{
	uint8_t *boxes = calloc((size_t)s->cells, 1);
	assert_non_null(boxes);
	int k = 0;
	for (; k < s->ngoals && pulls_out_home(s, boxes, p->order[k], s->player0); k++)
		boxes[p->order[k]] = 1;
	free(boxes);
	return k;
}

/* entry_prefix of level text's plan with packing-entry on or off, into
 * pre[on]; returns whether the two orders differ. */
static bool entry_prefixes(const char *text, int pre[2])
{
	struct lk_level *level = soko_test_load(text, NULL, false);
	assert_non_null(level);
	struct sokoban *s = (struct sokoban *)level;
	struct soko_plan p[2];
	for (int on = 0; on < 2; on++) {
		s->use[SOKO_T_PACK_ENTRY] = on;
		soko_plan_build(&p[on], s, true, NULL);
		pre[on] = entry_prefix(s, &p[on]);
		if (!on)
			assert_int_equal(p[on].entry_refused, 0);
	}
	bool differ = memcmp(p[0].order, p[1].order, (size_t)s->ngoals * sizeof *p[0].order) != 0;
	soko_plan_release(&p[0]);
	soko_plan_release(&p[1]);
	lk_level_free(level);
	return differ;
}

/*
 * packing-entry: a box counts as taken out only where the pulls leave the
 * player with the start.  It may reorder the goals, and may then lose
 * goals ordered only as the retrieval without it loses them elsewhere (the
 * orders stay packable: check_plan, on by default, above); what it is for:
 * over random levels, the orders' goals that can be filled, from the first
 * on, with a box brought from the open by a player coming from the start
 * (entry_prefix) are more with it, and fewer on no more levels than they
 * are more on.
 */
static void test_entry_orders(void **state)
{
	(void)state;
	static const struct soko_random_shape shape = { 4, 5, 4, 4, 2, 5, 5, 20 };
	struct lk_rng rng;
	lk_rng_seed(&rng, 4141);
	int levels = 0, differ = 0, more = 0, fewer = 0, sum[2] = { 0, 0 };
	while (levels < 400) {
		char *text = loadable_level(&rng, &shape);
		int pre[2];
		differ += entry_prefixes(text, pre);
		more += pre[1] > pre[0];
		fewer += pre[1] < pre[0];
		sum[0] += pre[0];
		sum[1] += pre[1];
		levels++;
		free(text);
	}
	print_message("packing-entry: %d of %d orders differ, entry prefix %d -> %d "
		      "(more on %d levels, fewer on %d)\n", differ, levels, sum[0], sum[1], more, fewer);
	assert_true(sum[1] >= sum[0]);
	assert_true(more >= fewer);
}

/* FNV-1a over n bytes, into h. */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* Everything a view borrows from plan p (not its working memory). */
static uint64_t plan_hash(const struct soko_plan *p, const struct sokoban *s)
{
	size_t n = (size_t)s->cells, ng = (size_t)p->ngoals;
	uint64_t h = 0xcbf29ce484222325ull;
	h = mix(h, p->order, ng * sizeof *p->order);
	h = mix(h, p->rank, n * sizeof *p->rank);
	h = mix(h, p->area_of, n * sizeof *p->area_of);
	h = mix(h, p->area_first, ((size_t)p->nareas + 1) * sizeof *p->area_first);
	h = mix(h, p->area_goals, ng * sizeof *p->area_goals);
	h = mix(h, p->doorway, n);
	h = mix(h, p->cuts, (size_t)p->nfloor * (size_t)p->nfloor);
	for (size_t i = 0; p->zone && i < ng; i++)
		if (p->zone[i])
			h = mix(h, p->zone[i], p->zone_bytes);
	if (p->park) {
		size_t k = (size_t)p->park->nsteps;
		h = mix(h, p->park->target, k * sizeof *p->park->target);
		h = mix(h, p->park->leaves, k * sizeof *p->park->leaves);
		h = mix(h, p->park->start, k * sizeof *p->park->start);
		h = mix(h, p->park->size, k * sizeof *p->park->size);
		h = mix(h, p->park->on_target, n);
	}
	return h;
}

static void assert_same_search(const struct lk_search_result *a, const struct lk_search_result *b,
			       const struct sokoban *s)
{
	assert_int_equal(a->status, b->status);
	assert_int_equal(a->limit, b->limit);
	assert_int_equal(a->expanded, b->expanded);
	assert_int_equal(a->generated, b->generated);
	assert_int_equal(a->stored, b->stored);
	assert_int_equal(a->nkeys, b->nkeys);
	if (a->nkeys)
		assert_memory_equal(a->path, b->path, a->nkeys * s->base.key_size);
	for (int i = 0; i < LK_MAX_TECHNIQUES; i++)
		assert_int_equal(a->technique_counts[i], b->technique_counts[i]);
}

/* The feature-space search of level text with a plan of its own, then
 * twice with views of one plan built once: the same search each time, and
 * the plan unchanged.  Returns whether the level got a parking plan. */
static bool check_view(const char *text)
{
	struct lk_level *level = soko_test_load(text, NULL, false);
	assert_non_null(level);
	const struct sokoban *s = (const struct sokoban *)level;
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = LK_ALGO_ANY;
	o.bounds.max_states = 20000;
	struct lk_search_result own, shared;
	lk_search_result_init(&own);
	soko_fess(level, &o, &own, true, NULL, NULL, NULL);
	struct soko_plan p;
	soko_plan_build(&p, s, s->use[SOKO_T_PACKING], NULL);
	uint64_t before = plan_hash(&p, s);
	for (int round = 0; round < 2; round++) {
		lk_search_result_init(&shared);
		soko_fess(level, &o, &shared, round == 0, NULL, NULL, &p);
		if (round == 0)
			assert_same_search(&own, &shared, s);
		lk_search_result_release(&shared);
		assert_true(plan_hash(&p, s) == before);
	}
	bool parks = p.park != NULL;
	soko_plan_release(&p);
	lk_search_result_release(&own);
	lk_level_free(level);
	return parks;
}

static void test_view_searches_as_own_plan(void **state)
{
	(void)state;
	assert_true(check_view(soko_test_crossing));
	/* and with room connectivity (off by default), whose working memory
	 * each view has of its own */
	static const char *const rooms_on[] = { "room-connectivity", NULL };
	soko_test_on = rooms_on;
	assert_true(check_view(soko_test_crossing));
	soko_test_on = NULL;
	static const struct soko_random_shape shape = { 4, 5, 4, 4, 2, 5, 5, 20 };
	struct lk_rng rng;
	lk_rng_seed(&rng, 3232);
	for (int levels = 0; levels < 60 / SOKO_TEST_SHARE; levels++) {
		char *text = loadable_level(&rng, &shape);
		check_view(text);
		free(text);
	}
}

/* Building the plan stops when the search's bounds say so, and only then. */
static void test_stop_cuts_plan_short(void **state)
{
	(void)state;
	struct lk_level *level = soko_test_load(soko_test_crossing, NULL, false);
	assert_non_null(level);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_plan p;
	soko_plan_build(&p, s, true, NULL);
	uint64_t whole = plan_hash(&p, s);
	assert_non_null(p.park);
	soko_plan_release(&p);
	/* a stop that never fires: no cancel, no time bound */
	volatile sig_atomic_t flag = 0;
	struct lk_bounds b = { .cancel = &flag };
	struct soko_stop never = { .bounds = &b };
	soko_plan_build(&p, s, true, &never);
	assert_false(never.stopped);
	assert_true(plan_hash(&p, s) == whole);
	soko_plan_release(&p);
	/* cancelled before it starts (calls 63: the first test reads it) */
	flag = 1;
	struct soko_stop now = { .bounds = &b, .calls = 63 };
	soko_plan_build(&p, s, true, &now);
	assert_true(now.stopped);
	assert_null(p.park);
	uint8_t *seen = calloc((size_t)s->cells, 1);
	for (int i = 0; i < s->ngoals; i++) {
		int g = p.order[i];
		assert_true(s->goal[g] && !seen[g]);
		seen[g] = 1;
		assert_int_equal(p.rank[g], i);
	}
	free(seen);
	soko_plan_release(&p);
	lk_level_free(level);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corridor_deepest_first),
		cmocka_unit_test(test_random_orders_can_be_packed),
		cmocka_unit_test(test_microban_orders_can_be_packed),
		cmocka_unit_test(test_view_searches_as_own_plan),
		cmocka_unit_test(test_stop_cuts_plan_short),
		cmocka_unit_test(test_entry_orders),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
