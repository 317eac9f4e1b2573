/*
 * test_rating_traces.c - the shortest solutions counted up to the order of
 * independent moves (rating_traces.c, the scarcity feature's count):
 *
 *  - by hand on toy games: two counters raised in any order (six
 *    interleavings, one solution), a grid walk around a blocked cell (two
 *    routes that no swap joins), and the memo's bound (unknown, never a
 *    made-up count);
 *  - against a brute force on small Sokoban levels: every shortest solution
 *    enumerated through the game interface, and the classes joined by
 *    swapping two adjacent moves that close a diamond, counted apart from
 *    the code's sleep sets; among them the same room with one box and
 *    with two independent boxes, whose interleavings must not multiply the
 *    count; and the scarcity computed alone (lk_features_scarcity, what
 *    every rating runs) the same as with the other graph features.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/explore.h"
#include "levelkit/rating.h"
#include "levelkit/search.h"
#include "test_records.h"

/* ------------------------------------------------------------ toy games */

/* Two counters, each raised by its own move up to 2; the goal is both at
 * 2.  With blocked, the grid walk: raising a counter to (1, 1) is not a
 * move, so the routes go round it. */
static bool blocked;

static void counters_initial(const struct lk_level *level, void *key)
{
	(void)level;
	memset(key, 0, 2);
}

static unsigned counters_successors(const struct lk_level *level, const void *key, void *scratch,
				    unsigned char *keys_out, struct lk_edge *edges)
{
	(void)level;
	(void)scratch;
	const unsigned char *k = key;
	unsigned n = 0;
	for (unsigned i = 0; i < 2; i++) {
		if (k[i] >= 2)
			continue;
		unsigned char next[2] = { k[0], k[1] };
		next[i]++;
		if (blocked && next[0] == 1 && next[1] == 1)
			continue;
		memcpy(keys_out + 2 * n, next, 2);
		edges[n++] = (struct lk_edge){ .cost = 1, .move = i };
	}
	return n;
}

static bool counters_goal(const struct lk_level *level, const void *key)
{
	(void)level;
	const unsigned char *k = key;
	return k[0] == 2 && k[1] == 2;
}

static const struct lk_game counters_game = {
	.name = "counters",
	.summary = "two counters by hand",
	.initial_state = counters_initial,
	.successors = counters_successors,
	.is_goal = counters_goal,
};

static const struct lk_level counters_level = {
	.game = &counters_game,
	.key_size = 2,
	.max_successors = 2,
	.metric = "moves",
};

static double toy_features(struct lk_features *f)
{
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	lk_features_init(f);
	lk_features_graph(&counters_level, &so, 1000, NULL, 0, f);
	assert_int_equal(f->how[LK_F_TRACES], LK_KNOWN_EXACT);
	return f->value[LK_F_TRACES];
}

static void test_counters_by_hand(void **state)
{
	(void)state;
	struct lk_features f;
	blocked = false;
	/* 0 0 -> 2 2 in four moves: C(4, 2) = 6 orders of the same moves */
	assert_true(toy_features(&f) == 1);
	assert_true(f.value[LK_F_SOLUTIONS] == 6);
	assert_true(fabs(f.value[LK_F_SCARCITY] - 6.0) < 1e-12);
	/* round (1, 1): 0 0, 1 0, 2 0, 2 1, 2 2 and its mirror; no square of
	 * moves closes, so they stay two */
	blocked = true;
	assert_true(toy_features(&f) == 2);
	assert_true(f.value[LK_F_SOLUTIONS] == 2);
	blocked = false;
}

/* The memo's bound: too small a bound gives no count, never a smaller one. */
static void test_bound(void **state)
{
	(void)state;
	blocked = false;
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	struct lk_graph g;
	lk_graph_init(&g);
	g.record_edges = true;
	g.stop_at_goals = true;
	lk_explore(&g, &counters_level, &so);
	assert_true(g.complete);
	uint32_t *togo = calloc(g.table.count, sizeof *togo);
	for (uint32_t v = 0; v < g.table.count; v++) {
		const unsigned char *k = lk_table_key(&g.table, v);
		togo[v] = 4u - k[0] - k[1];
	}
	double c = -1;
	assert_true(lk_rating_traces(&counters_level, &g, togo, 4, 1000, &c));
	assert_true(c == 1);
	assert_false(lk_rating_traces(&counters_level, &g, togo, 4, 1, &c));
	assert_true(c == 0);
	free(togo);
	lk_graph_release(&g);
}

/* ------------------------------------------------------------ brute force */

struct brute {
	const struct lk_level *level;
	size_t ks;
	unsigned depth;             /* of the shortest solutions */
	unsigned char *path;        /* the path being built: depth + 1 keys */
	uint32_t *moves;            /* and its moves */
	unsigned char *succ;        /* successor keys, a buffer per depth */
	struct lk_edge *edges;
	void *scratch;
	unsigned char *keys;        /* every solution's keys */
	uint32_t *labels;           /* and moves */
	size_t n, alloc;
};

/* The successors of key, one per state reached (the least move), into
 * the depth's buffer. */
static unsigned brute_successors(struct brute *b, unsigned d, const unsigned char *key)
{
	const struct lk_level *level = b->level;
	unsigned char *out = b->succ + (size_t)d * level->max_successors * b->ks;
	struct lk_edge *e = b->edges + (size_t)d * level->max_successors;
	unsigned n = level->game->successors(level, key, b->scratch, out, e), kept = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned j = 0;
		while (j < kept && memcmp(out + j * b->ks, out + i * b->ks, b->ks) != 0)
			j++;
		if (j == kept) {
			memmove(out + kept * b->ks, out + i * b->ks, b->ks);
			e[kept++] = e[i];
		} else if (e[i].move < e[j].move) {
			e[j] = e[i];
		}
	}
	return kept;
}

static void brute_dfs(struct brute *b, unsigned d)
{
	const struct lk_game *g = b->level->game;
	const unsigned char *cur = b->path + (size_t)d * b->ks;
	if (g->is_goal(b->level, cur)) {
		if (d < b->depth)
			return;
		if (b->n == b->alloc) {
			b->alloc = 2 * b->alloc + 16;
			b->keys = realloc(b->keys, b->alloc * (b->depth + 1) * b->ks);
			b->labels = realloc(b->labels, b->alloc * (b->depth + 1) * sizeof *b->labels);
		}
		memcpy(b->keys + b->n * (b->depth + 1) * b->ks, b->path, (b->depth + 1) * b->ks);
		memcpy(b->labels + b->n * (b->depth + 1), b->moves, b->depth * sizeof *b->moves);
		b->n++;
		return;
	}
	if (d == b->depth)
		return;
	unsigned n = brute_successors(b, d, cur);
	const unsigned char *out = b->succ + (size_t)d * b->level->max_successors * b->ks;
	for (unsigned i = 0; i < n; i++) {
		memcpy(b->path + (size_t)(d + 1) * b->ks, out + i * b->ks, b->ks);
		b->moves[d] = b->edges[(size_t)d * b->level->max_successors + i].move;
		brute_dfs(b, d + 1);
	}
}

/* Where move leads from key (into the buffer of depth d), or NULL. */
static const unsigned char *brute_apply(struct brute *b, unsigned d, const unsigned char *key,
					uint32_t move)
{
	unsigned n = brute_successors(b, d, key);
	for (unsigned i = 0; i < n; i++)
		if (b->edges[(size_t)d * b->level->max_successors + i].move == move)
			return b->succ + ((size_t)d * b->level->max_successors + i) * b->ks;
	return NULL;
}

static size_t find_root(size_t *parent, size_t x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

/* The shortest solutions (up to 30 steps) and their classes under swaps
 * of adjacent moves that close a diamond. */
static void brute_count(const struct lk_level *level, size_t *paths, size_t *classes)
{
	struct brute b = { .level = level, .ks = level->key_size };
	size_t ms = level->max_successors;
	b.path = calloc(32, b.ks);
	b.moves = calloc(32, sizeof *b.moves);
	b.succ = calloc(33 * ms, b.ks);
	b.edges = calloc(33 * ms, sizeof *b.edges);
	b.scratch = calloc(1, level->scratch_size ? level->scratch_size : 1);
	level->game->initial_state(level, b.path);
	for (b.depth = 0; b.depth < 30 && !b.n; b.depth++)
		brute_dfs(&b, 0);
	b.depth--;
	assert_true(b.n > 0);
	size_t L = b.depth + 1, *parent = calloc(b.n, sizeof *parent);
	unsigned char *q = calloc(L, b.ks);
	for (size_t p = 0; p < b.n; p++)
		parent[p] = p;
	for (size_t p = 0; p < b.n; p++) {
		const unsigned char *k = b.keys + p * L * b.ks;
		const uint32_t *m = b.labels + p * L;
		for (size_t i = 0; i + 1 < b.depth; i++) {
			/* s -a-> s1 -b-> s2 against s -b-> t -a-> s2 */
			const unsigned char *t = brute_apply(&b, 30, k + i * b.ks, m[i + 1]);
			if (!t || memcmp(t, k + (i + 1) * b.ks, b.ks) == 0)
				continue;
			memcpy(q, k, L * b.ks);
			memcpy(q + (i + 1) * b.ks, t, b.ks);
			const unsigned char *s2 = brute_apply(&b, 31, q + (i + 1) * b.ks, m[i]);
			if (!s2 || memcmp(s2, k + (i + 2) * b.ks, b.ks) != 0)
				continue;
			size_t o = 0;
			while (o < b.n && memcmp(b.keys + o * L * b.ks, q, L * b.ks) != 0)
				o++;
			assert_true(o < b.n);   /* a swap of a shortest solution is one */
			parent[find_root(parent, p)] = find_root(parent, o);
		}
	}
	*paths = b.n;
	*classes = 0;
	for (size_t p = 0; p < b.n; p++)
		*classes += find_root(parent, p) == p;
	free(q);
	free(parent);
	free(b.path);
	free(b.moves);
	free(b.succ);
	free(b.edges);
	free(b.scratch);
	free(b.keys);
	free(b.labels);
}

/* ------------------------------------------------------------ Sokoban */

static const char *const levels[] = {
	/* one box, two pushes right and one down, the room to go round */
	"######\n#@   #\n# $  #\n#   .#\n######\n",
	/* the same room as test_rating.c's family: one box, then two that
	 * never meet (their 20 interleavings are one solution), then three */
	"########\n#      #\n# $  . #\n#  @   #\n#      #\n#      #\n########\n",
	"########\n#      #\n# $  . #\n#  @   #\n# $  . #\n#      #\n########\n",
	"########\n#  .   #\n# $  . #\n#  @ $ #\n# $  . #\n#      #\n########\n",
	/* Microban 1: the boxes get in each other's way */
	"####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n",
	/* two boxes in one corridor: the near one must go first */
	"#######\n#     #\n#@$ $ #\n#  ..##\n#######\n",
};

static void test_sokoban_brute_force(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		struct lk_level_options opt = { 0 };
		struct lk_level *level = test_load_level(levels[i], &opt, "sokoban");
		size_t paths = 0, classes = 0;
		brute_count(level, &paths, &classes);
		struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
		struct lk_features f;
		lk_features_init(&f);
		lk_features_graph(level, &so, 100000, NULL, 0, &f);
		assert_int_equal(f.how[LK_F_TRACES], LK_KNOWN_EXACT);
		if (f.value[LK_F_SOLUTIONS] != (double)paths || f.value[LK_F_TRACES] != (double)classes)
			fail_msg("level %zu: %g solutions and %g classes, brute force %zu and %zu", i,
				 f.value[LK_F_SOLUTIONS], f.value[LK_F_TRACES], paths, classes);
		/* the scarcity alone (every rating's) counts the same */
		struct lk_features alone;
		lk_features_init(&alone);
		lk_features_scarcity(level, &so, 100000, &alone);
		assert_int_equal(alone.how[LK_F_SCARCITY], LK_KNOWN_EXACT);
		assert_true(alone.value[LK_F_TRACES] == f.value[LK_F_TRACES]);
		assert_true(alone.value[LK_F_SCARCITY] == f.value[LK_F_SCARCITY]);
		assert_int_equal(alone.how[LK_F_TRAPS], LK_KNOWN_NOT);
		/* the two independent boxes: interleavings do not count */
		if (i == 2)
			assert_true(classes == 1 && paths == 20);
		lk_level_free(level);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_by_hand),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_sokoban_brute_force),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
