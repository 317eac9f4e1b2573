/*
 * test_analysis.c - tests of the whole-graph analysis (src/search/
 * analysis.c): reachable states, dead ends, shortest solutions and how
 * many there are, Skiddy's combo and non-combo lengths and stars.
 *
 *  - A brute-force analysis written here: every state explored through
 *    game->successors into its own hash table (goal states not expanded,
 *    as a won game is over), dead ends by backward reachability from the
 *    wins (a fixpoint over the edge list), shortest solutions and their
 *    number by dynamic programming over the breadth-first layers (each
 *    move counted separately), shortest combo and non-combo wins, and the
 *    star rules of docs/games/skiddy.md.  Compared with lk_analyse on
 *    hundreds of tiny random fruit and skiddy levels and on tiny Sokoban
 *    levels (both metrics, with and without pruning); the paths it
 *    returns are checked edge by edge.
 *  - Levels built with exactly one trap (a fruit into mud, a Sokoban box
 *    into a corner, two skiddies glued into a body that cannot leave):
 *    the dead ends are the trap's states, and the dead-end path is the
 *    move into it.
 *  - Skiddy levels rated 0, 1, 2 and 3 stars, each argued in a comment.
 *  - A state bound: an incomplete graph has no stars.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/analysis.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "test_support.h"

/* ------------------------------------------------------- loading levels */

static void read_record(const char *text, struct lk_record *rec)
{
	FILE *fp = tmpfile();
	struct lk_reader r;
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, strlen(text), fp), strlen(text));
	rewind(fp);
	lk_reader_init_fp(&r, fp, "test.xsb");
	lk_record_init(rec);
	assert_int_equal(lk_reader_next(&r, rec, NULL, NULL), 1);
	lk_reader_close(&r);
	fclose(fp);
}

static struct lk_level *load_opt(const char *text, const char *metric, bool plain)
{
	struct lk_record rec;
	struct lk_level_options opt = { .metric = metric, .plain = plain };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	read_record(text, &rec);
	struct lk_level *level = lk_level_load(&rec, &opt, &err, &line);
	if (!level)
		fail_msg("level did not load: line %zu: %s\n%s", line, err.buf, text);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	return level;
}

static struct lk_level *load(const char *text)
{
	return load_opt(text, NULL, false);
}

/* ------------------------------------------------ the brute-force graph */

#define NONE UINT32_MAX

struct bg {
	const struct lk_level *level;
	size_t ks;
	unsigned char *keys;
	uint32_t n, cap;
	uint32_t *depth;
	uint32_t *slot;            /* hash slots: state index or NONE */
	size_t nslots;
	uint32_t *from, *to;
	size_t ne, ecap;
	uint8_t *goal, *can;
};

static uint64_t fnv(const unsigned char *k, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ k[i]) * 1099511628211ULL;
	return h;
}

/* Index of key, adding it (at depth d) if new. */
static uint32_t bg_intern(struct bg *g, const unsigned char *key, uint32_t d)
{
	size_t at = (size_t)(fnv(key, g->ks) % g->nslots);
	while (g->slot[at] != NONE) {
		if (memcmp(g->keys + (size_t)g->slot[at] * g->ks, key, g->ks) == 0)
			return g->slot[at];
		at = (at + 1) % g->nslots;
	}
	assert_true(g->n < g->cap);
	memcpy(g->keys + (size_t)g->n * g->ks, key, g->ks);
	g->depth[g->n] = d;
	g->slot[at] = g->n;
	return g->n++;
}

static uint32_t bg_find(const struct bg *g, const unsigned char *key)
{
	size_t at = (size_t)(fnv(key, g->ks) % g->nslots);
	while (g->slot[at] != NONE) {
		if (memcmp(g->keys + (size_t)g->slot[at] * g->ks, key, g->ks) == 0)
			return g->slot[at];
		at = (at + 1) % g->nslots;
	}
	return NONE;
}

static void bg_build(struct bg *g, const struct lk_level *level, uint32_t cap)
{
	const struct lk_game *game = level->game;
	memset(g, 0, sizeof *g);
	g->level = level;
	g->ks = level->key_size;
	g->cap = cap;
	g->keys = malloc((size_t)cap * g->ks);
	g->depth = malloc((size_t)cap * sizeof *g->depth);
	g->nslots = (size_t)cap * 2 + 1;
	g->slot = malloc(g->nslots * sizeof *g->slot);
	g->goal = calloc(cap, 1);
	g->can = calloc(cap, 1);
	assert_true(g->keys && g->depth && g->slot && g->goal && g->can);
	for (size_t i = 0; i < g->nslots; i++)
		g->slot[i] = NONE;
	unsigned char *succ = malloc((size_t)level->max_successors * g->ks + 1);
	struct lk_edge *edges = malloc((level->max_successors + 1) * sizeof *edges);
	void *scratch = calloc(1, level->scratch_size + 1);
	unsigned char *start = malloc(g->ks);
	assert_true(succ && edges && scratch && start);
	game->initial_state(level, start);
	bg_intern(g, start, 0);
	for (uint32_t head = 0; head < g->n; head++) {
		unsigned char *key = g->keys + (size_t)head * g->ks;
		if (game->is_goal(level, key)) {
			g->goal[head] = 1;
			continue;
		}
		unsigned ns = game->successors(level, key, scratch, succ, edges);
		for (unsigned i = 0; i < ns; i++) {
			uint32_t v = bg_intern(g, succ + (size_t)i * g->ks, g->depth[head] + 1);
			if (g->ne == g->ecap) {
				g->ecap = g->ecap ? g->ecap * 2 : 256;
				g->from = realloc(g->from, g->ecap * sizeof *g->from);
				g->to = realloc(g->to, g->ecap * sizeof *g->to);
				assert_true(g->from && g->to);
			}
			g->from[g->ne] = head;
			g->to[g->ne++] = v;
			key = g->keys + (size_t)head * g->ks;
		}
	}
	/* backward reachability: a fixpoint, no reversed index */
	for (uint32_t v = 0; v < g->n; v++)
		g->can[v] = g->goal[v];
	for (bool more = true; more;) {
		more = false;
		for (size_t e = 0; e < g->ne; e++)
			if (g->can[g->to[e]] && !g->can[g->from[e]])
				g->can[g->from[e]] = 1, more = true;
	}
	free(succ);
	free(edges);
	free(scratch);
	free(start);
}

static void bg_release(struct bg *g)
{
	free(g->keys);
	free(g->depth);
	free(g->slot);
	free(g->from);
	free(g->to);
	free(g->goal);
	free(g->can);
}

/* Is b a successor of a (as the game generates it)? */
static bool bg_edge(const struct bg *g, const unsigned char *a, const unsigned char *b)
{
	uint32_t u = bg_find(g, a), v = bg_find(g, b);
	if (u == NONE || v == NONE)
		return false;
	for (size_t e = 0; e < g->ne; e++)
		if (g->from[e] == u && g->to[e] == v)
			return true;
	return false;
}

struct truth {
	uint64_t reachable, edges, wins, dead;
	uint32_t shortest, combo, plain, dead_depth;
	uint64_t solutions;
	int stars;
};

static void bg_truth(const struct bg *g, struct truth *t)
{
	const struct lk_game *game = g->level->game;
	memset(t, 0, sizeof *t);
	t->shortest = t->combo = t->plain = t->dead_depth = LK_NO_DEPTH;
	t->reachable = g->n;
	t->edges = g->ne;
	uint32_t maxd = 0;
	for (uint32_t v = 0; v < g->n; v++) {
		if (g->depth[v] > maxd)
			maxd = g->depth[v];
		if (!g->can[v]) {
			t->dead++;
			if (g->depth[v] < t->dead_depth)
				t->dead_depth = g->depth[v];
		}
		if (!g->goal[v])
			continue;
		t->wins++;
		unsigned kind = game->win_kind ? game->win_kind(g->level, g->keys + (size_t)v * g->ks)
					       : LK_WIN_PLAIN;
		uint32_t *best = kind == LK_WIN_COMBO ? &t->combo : &t->plain;
		if (g->depth[v] < *best)
			*best = g->depth[v];
		if (g->depth[v] < t->shortest)
			t->shortest = g->depth[v];
	}
	/* paths into each state along edges one layer down, layer by layer */
	uint64_t *count = calloc(g->n ? g->n : 1, sizeof *count);
	assert_non_null(count);
	count[0] = 1;
	for (uint32_t d = 0; d < maxd; d++)
		for (size_t e = 0; e < g->ne; e++)
			if (g->depth[g->from[e]] == d && g->depth[g->to[e]] == d + 1)
				count[g->to[e]] += count[g->from[e]];
	for (uint32_t v = 0; v < g->n; v++)
		if (g->goal[v] && g->depth[v] == t->shortest)
			t->solutions += count[v];
	free(count);
	/* the star rules, as docs/games/skiddy.md states them */
	t->stars = -1;
	if (game->win_kind) {
		t->stars = 0;
		if (t->dead == 0) {
			t->stars = 1;
			if (t->combo != LK_NO_DEPTH && t->plain != LK_NO_DEPTH) {
				t->stars = 2;
				if (!(t->plain < t->combo))
					t->stars = 3;
			}
		}
	}
}

/* A path of keys must start at the start, follow edges and have n keys. */
static void check_path(const struct bg *g, const unsigned char *keys, size_t nkeys, size_t want)
{
	assert_int_equal(nkeys, want);
	unsigned char *start = malloc(g->ks);
	assert_non_null(start);
	g->level->game->initial_state(g->level, start);
	assert_memory_equal(keys, start, g->ks);
	free(start);
	for (size_t i = 1; i < nkeys; i++)
		assert_true(bg_edge(g, keys + (i - 1) * g->ks, keys + i * g->ks));
}

/* The goal visitor: every win once, shallowest first, each a goal. */
struct goal_count {
	const struct lk_level *level;
	uint64_t n;
	uint32_t last_depth;
};

static int count_goal(void *ctx, const void *key, uint32_t depth)
{
	struct goal_count *c = ctx;
	assert_true(c->level->game->is_goal(c->level, key));
	assert_true(depth >= c->last_depth);
	c->last_depth = depth;
	c->n++;
	return 0;
}

/* lk_analyse against the brute force; returns the truth. */
/*
 * The list of shortest solutions: each one replayed by the game (legal,
 * solved, as long as the shortest), no two alike, and as many as the
 * count (which compare checks against the brute force) when it fits:
 * so the list is exactly the set of shortest solutions.
 */
static void check_list(const struct lk_level *level, const struct lk_analysis *a,
		       const char *text)
{
	if (a->shortest == LK_NO_DEPTH) {
		assert_int_equal(a->listed, 0);
		return;
	}
	assert_int_equal(a->listed, a->solutions < 1000 ? a->solutions : 1000);
	char *copy = strdup(a->list.buf ? a->list.buf : "");
	char **seen = calloc(a->listed + 1, sizeof *seen);
	size_t n = 0;
	for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
		struct lk_moves m;
		struct lk_strbuf err = LK_STRBUF_INIT;
		bool solved = false;
		lk_moves_init(&m, level);
		int rc = level->game->replay(level, tok, &m, &solved, &err);
		/* the length in the level's metric: pushes, or moves */
		uint64_t len = strcmp(level->metric, "pushes") == 0 ? lk_moves_count(&m, "push") : m.inputs;
		if (rc != 0 || !solved || len != a->shortest)
			fail_msg("listed solution '%s' (%s) does not solve in %u\n%s", tok, err.buf ? err.buf : "",
				 a->shortest, text);
		for (size_t i = 0; i < n; i++)
			if (strcmp(seen[i], tok) == 0)
				fail_msg("solution '%s' listed twice\n%s", tok, text);
		assert_true(n < a->listed);
		seen[n++] = tok;
		lk_moves_release(&m);
		lk_strbuf_release(&err);
	}
	/* a level solved at the start lists one empty solution */
	assert_int_equal(n, a->shortest ? a->listed : 0);
	free(seen);
	free(copy);
}

static void compare(const struct lk_level *level, const char *text, struct truth *t)
{
	struct bg g;
	struct lk_analysis a;
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct goal_count goals = { .level = level };
	bg_build(&g, level, 200000);
	bg_truth(&g, t);
	lk_analysis_init(&a);
	a.list_max = 1000;
	lk_analyse_visit(level, &o, &a, count_goal, &goals);
	assert_true(a.complete);
	check_list(level, &a, text);
	assert_int_equal(goals.n, t->wins);
	if (a.reachable != t->reachable || a.dead_ends != t->dead || a.shortest != t->shortest ||
	    a.solutions != t->solutions || a.wins != t->wins || a.edges != t->edges)
		fail_msg("analysis: reachable %llu dead %llu shortest %u solutions %llu wins %llu edges %llu\n"
			 "brute:    reachable %llu dead %llu shortest %u solutions %llu wins %llu edges %llu\n%s",
			 (unsigned long long)a.reachable, (unsigned long long)a.dead_ends, a.shortest,
			 (unsigned long long)a.solutions, (unsigned long long)a.wins,
			 (unsigned long long)a.edges, (unsigned long long)t->reachable,
			 (unsigned long long)t->dead, t->shortest, (unsigned long long)t->solutions,
			 (unsigned long long)t->wins, (unsigned long long)t->edges, text);
	assert_false(a.solutions_saturated);
	assert_int_equal(a.win_kinds != 0, level->game->win_kind != NULL);
	if ((a.win_kinds != 0)) {
		assert_int_equal(a.shortest_kind[LK_WIN_COMBO], t->combo);
		assert_int_equal(a.shortest_kind[LK_WIN_PLAIN], t->plain);
	}
	if (analysis_stars(level, &a) != t->stars)
		fail_msg("stars %d, brute force %d\n%s", analysis_stars(level, &a), t->stars, text);
	if (t->shortest != LK_NO_DEPTH) {
		check_path(&g, a.solution, a.solution_keys, (size_t)t->shortest + 1);
		assert_true(level->game->is_goal(level, a.solution + (a.solution_keys - 1) * g.ks));
	} else {
		assert_null(a.solution);
	}
	if (t->dead) {
		check_path(&g, a.dead_end, a.dead_end_keys, (size_t)t->dead_depth + 1);
		uint32_t last = bg_find(&g, a.dead_end + (a.dead_end_keys - 1) * g.ks);
		assert_true(last != NONE && !g.can[last]);
	} else {
		assert_null(a.dead_end);
	}
	lk_analysis_release(&a);
	bg_release(&g);
}

/* The dead-end path as the game writes it. */
static void dead_end_path(const struct lk_level *level, char *out, size_t outsz)
{
	struct lk_analysis a;
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_strbuf s = LK_STRBUF_INIT;
	struct lk_solution_stats st;
	lk_analysis_init(&a);
	lk_analyse(level, &o, &a);
	assert_non_null(a.dead_end);
	format_solution(level, a.dead_end, a.dead_end_keys, &s, &st);
	assert_true(s.len < outsz);
	memcpy(out, s.buf, s.len + 1);
	lk_strbuf_release(&s);
	lk_analysis_release(&a);
}

/* ------------------------------------------------------ random levels */

static uint64_t rng_state;

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (unsigned)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

/* A random free inside cell of grid g (w x h), or -1. */
static int free_inside(char g[8][9], int w, int h)
{
	for (int tries = 0; tries < 100; tries++) {
		int x = 1 + (int)rnd((unsigned)(w - 2)), y = 1 + (int)rnd((unsigned)(h - 2));
		if (g[y][x] == '.')
			return y * 16 + x;
	}
	return -1;
}

static void put(char g[8][9], int w, int h, char ch)
{
	int c = free_inside(g, w, h);
	if (c >= 0)
		g[c / 16][c % 16] = ch;
}

static void test_random_fruit(void **state)
{
	(void)state;
	rng_state = 0x51ED2701A3C4E5F7ULL;
	int solvable = 0, with_dead = 0;
	for (int iter = 0; iter < 250; iter++) {
		char g[8][9];
		int w = 4 + (int)rnd(3), h = 4 + (int)rnd(2);
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++)
				g[y][x] = x == 0 || y == 0 || x == w - 1 || y == h - 1 || rnd(10) == 0 ? '#' : '.';
			g[y][w] = '\0';
		}
		for (int k = 0, colours = 1 + (int)rnd(2); k < colours; k++)
			for (int j = 0, n = 2 + (rnd(6) == 0); j < n; j++)
				put(g, w, h, (char)('a' + k));
		for (int k = (int)rnd(3); k > 0; k--)
			put(g, w, h, 'O');
		if (rnd(3) == 0)
			put(g, w, h, "~H"[rnd(2)]);
		if (rnd(3) == 0)
			put(g, w, h, "NESW"[rnd(4)]);
		char text[300];
		size_t at = (size_t)sprintf(text, "game: fruit\n");
		bool any = false, touching = false;
		for (int y = 0; y < h; y++) {
			at += (size_t)sprintf(text + at, "%s\n", g[y]);
			for (int x = 0; x < w; x++) {
				char f = g[y][x];
				if (f < 'a' || f > 'z')
					continue;
				any = true;
				touching |= g[y][x + 1] == f || (y + 1 < h && g[y + 1][x] == f);
			}
		}
		if (!any || touching)
			continue;   /* not a level: partners may not start touching */
		if (rnd(4) == 0)
			sprintf(text + at, "oneway: %u,%u,%c\n", 1 + rnd((unsigned)(w - 2)),
				1 + rnd((unsigned)(h - 2)), "urdl"[rnd(4)]);
		struct lk_level *level = load(text);
		struct truth t;
		compare(level, text, &t);
		solvable += t.shortest != LK_NO_DEPTH;
		with_dead += t.dead > 0;
		lk_level_free(level);
	}
	assert_true(solvable > 50);
	assert_true(with_dead > 50);
}

static void test_random_skiddy(void **state)
{
	(void)state;
	rng_state = 0x0DDC0FFEE1234567ULL;
	int kinds[4] = { 0 };   /* levels rated 0..3 stars */
	for (int iter = 0; iter < 300; iter++) {
		char g[8][9];
		int w = 5 + (int)rnd(2), h = 4 + (int)rnd(2);
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++)
				g[y][x] = x == 0 || y == 0 || x == w - 1 || y == h - 1 ? '#' : '.';
			g[y][w] = '\0';
		}
		/* exits on the border, corners excluded */
		bool green = rnd(3) == 0;
		for (int e = 0, n = 1 + (int)rnd(2) + green; e < n; e++) {
			int side = (int)rnd(4), x, y;
			if (side < 2) {
				x = 1 + (int)rnd((unsigned)(w - 2));
				y = side ? h - 1 : 0;
			} else {
				y = 1 + (int)rnd((unsigned)(h - 2));
				x = side == 2 ? 0 : w - 1;
			}
			g[y][x] = green && e == 0 ? 'G' : 'R';
		}
		for (int k = 0, reds = 2 + (rnd(4) == 0); k < reds; k++)
			put(g, w, h, 'r');
		if (green)
			put(g, w, h, 'g');
		if (rnd(3) == 0)
			put(g, w, h, 'X');
		if (rnd(3) == 0)
			put(g, w, h, 'O');
		if (rnd(3) == 0)
			put(g, w, h, 'C');
		if (rnd(4) == 0)
			put(g, w, h, 'I');
		char text[300];
		size_t at = (size_t)sprintf(text, "game: skiddy\n");
		for (int y = 0; y < h; y++)
			at += (size_t)sprintf(text + at, "%s\n", g[y]);
		struct lk_level *level = load(text);
		struct truth t;
		compare(level, text, &t);
		assert_true(t.stars >= 0 && t.stars <= 3);
		kinds[t.stars]++;
		lk_level_free(level);
	}
	/* every rating came up */
	for (int k = 0; k < 4; k++)
		if (kinds[k] == 0)
			fail_msg("no random level rated %d stars (%d %d %d %d)", k, kinds[0], kinds[1], kinds[2],
				 kinds[3]);
}

static void test_sokoban(void **state)
{
	(void)state;
	static const char *const levels[] = {
		"#####\n#@$.#\n#####\n",
		"#####\n#.  #\n# $ #\n#  @#\n#####\n",
		"#####\n#@ .#\n#$  #\n#####\n",
		"######\n##   #\n#@$  #\n#.   #\n######\n",
		"#####\n#@$.#\n#   #\n#####\n",
		"######\n#@$ .#\n# $ .#\n#    #\n######\n",
	};
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		for (int m = 0; m < 4; m++) {
			struct lk_level *level = load_opt(levels[i], m & 1 ? "moves" : "pushes", m & 2);
			struct truth t;
			compare(level, levels[i], &t);
			assert_int_equal(t.stars, -1);
			lk_level_free(level);
		}
	}
}

/* ------------------------------------------------------------ traps */

static void test_traps(void **state)
{
	(void)state;
	struct truth t;
	char path[64];
	struct lk_level *level;

	/* Fruit: l or r matches the pair (the same empty board); d drops the
	 * left fruit into the mud at (1,2): a lost state with no moves; u is
	 * void.  Three states, one dead end, reached by d. */
	const char *fruit = "game: fruit\n#######\n#a...a#\n#~#####\n#######\n";
	level = load(fruit);
	compare(level, fruit, &t);
	assert_int_equal(t.reachable, 3);
	assert_int_equal(t.dead, 1);
	assert_int_equal(t.shortest, 1);
	assert_int_equal(t.solutions, 2);
	dead_end_path(level, path, sizeof path);
	assert_string_equal(path, "d");
	lk_level_free(level);

	/* Sokoban, moves metric, no pruning.  The box at (2,1) goes right onto
	 * the goal (one push), or the player walks round (d r r u) to (3,1)
	 * and pushes it left into the corner (1,1), where it can never move
	 * again.  The trap: box in the corner, the player on any of the five
	 * other floor cells: five dead ends.  Elsewhere: box at (2,1) with the
	 * player on five cells, and the win: 11 states. */
	const char *soko = "#####\n#@$.#\n#   #\n#####\n";
	level = load_opt(soko, "moves", true);
	compare(level, soko, &t);
	assert_int_equal(t.reachable, 11);
	assert_int_equal(t.dead, 5);
	assert_int_equal(t.shortest, 1);
	dead_end_path(level, path, sizeof path);
	assert_string_equal(path, "drruL");
	lk_level_free(level);

	/* Skiddy: reds A (1,1) and B (4,2), exit (5,1).  A body of two in a
	 * column can never leave (one member meets the wall when the other is
	 * in line with the exit); a row body or a single skiddy always can.
	 * Separate skiddies in different rows exist only at the start (u and
	 * d put both in one row), and from there l sends both to x1, one
	 * above the other: the column body at x1, and from it, by r, at x4.
	 * Those two states are the dead ends; the path into them is l. */
	const char *sk = "game: skiddy\n######\n#r...R\n#...r#\n######\n";
	level = load(sk);
	compare(level, sk, &t);
	assert_int_equal(t.dead, 2);
	assert_int_equal(t.dead_depth, 1);
	assert_int_equal(t.stars, 0);
	dead_end_path(level, path, sizeof path);
	assert_string_equal(path, "l");
	lk_level_free(level);
}

/* ------------------------------------------------------------- stars */

static int stars_of(const char *text, struct truth *t)
{
	struct lk_level *level = load(text);
	struct lk_analysis a;
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	compare(level, text, t);
	lk_analysis_init(&a);
	lk_analyse(level, &o, &a);
	int stars = analysis_stars(level, &a);
	lk_analysis_release(&a);
	lk_level_free(level);
	return stars;
}

static void test_stars(void **state)
{
	(void)state;
	struct truth t;
	/* 0 stars: the glued-column trap above - a dead end. */
	assert_int_equal(stars_of("game: skiddy\n######\n#r...R\n#...r#\n######\n", &t), 0);
	assert_int_equal(t.combo, 2);   /* u r: B out first, A follows */
	assert_int_equal(t.plain, 3);   /* r u r */

	/* 1 star: a lone skiddy.  No dead end (it can always get back to row
	 * 1 and slide right), but every win is a combo: rule 2 fails.  States:
	 * (1,1) start, (1,2), (3,2), (3,1), and the win. */
	assert_int_equal(stars_of("game: skiddy\n#####\n#r..R\n#...#\n#####\n", &t), 1);
	assert_int_equal(t.reachable, 5);
	assert_int_equal(t.dead, 0);
	assert_int_equal(t.plain, LK_NO_DEPTH);

	/* 2 stars: two lanes kept apart by blocks, so no body ever forms and
	 * either skiddy can always leave: no dead ends.  A at (3,1) with a pit
	 * at (1,1); B at (1,3) with a pit at (3,3); exits (6,1), (6,3).
	 *   start: r: A out, B into its pit (broken);  l: A into its pit
	 *   (B at x1 already).  Non-combo: r, any move (B sits it out), r:
	 *   3.  Combo: A must wait in its pit while B passes its own: l (A in
	 *   pit), r (A sits out, B into pit), l (B sits out), r (both out):
	 *   4, and no shorter (B needs a move to fall in and one to sit out
	 *   before the move out, and A must not leave before: the first r
	 *   lets A out unless A is in the pit, which takes an l first).
	 *   Non-combo 3 < combo 4: two stars.  The states, as (A, B), '*'
	 *   trapped, '-' gone, F broken: (3,1) start; (-,3*,F) (1*,1);
	 *   (-,3,F) (1,3*) (1,1); (-,1,F) (1,3) and the plain win; the combo
	 *   win: 10.  Shortest: r, then any of u r d l (B sits out), r. */
	assert_int_equal(stars_of("game: skiddy\n#######\n#O.r..R\n#XXXXX#\n#r.O..R\n#######\n", &t), 2);
	assert_int_equal(t.combo, 4);
	assert_int_equal(t.plain, 3);
	assert_int_equal(t.reachable, 10);
	assert_int_equal(t.solutions, 4);   /* r ? r, ? any of u r d l */

	/* 3 stars: A at (1,1), exit (6,1); B at (3,3), pit (1,3), exit
	 * (6,3).  r sends both out at once: a combo in 1.  Non-combo: l (B
	 * into the pit), r (A out, B sits out), r (B out): 3 >= 1.  No dead
	 * ends.  States: start, the two wins, (A1, B in pit), (A gone, B at
	 * x1), (A1, B1 freed): 6. */
	assert_int_equal(stars_of("game: skiddy\n#######\n#r....R\n#XXXXX#\n#O.r..R\n#######\n", &t), 3);
	assert_int_equal(t.combo, 1);
	assert_int_equal(t.plain, 3);
	assert_int_equal(t.reachable, 6);
	assert_int_equal(t.solutions, 1);

	/* Equal lengths are three stars too ("no non-combo solution is
	 * shorter").  A at (1,1), exit (6,1); B at (1,3) in a two-row room
	 * with a block at (4,3), exits (6,4) and (3,5).
	 *   r d: r sends A out and B to (3,3) (the block): broken; d drops
	 *        B through (3,4) out of the bottom exit: non-combo in 2.
	 *   d r: d moves only B, to (1,4); r sends A out and B along row 4
	 *        out of (6,4) in the same move: combo in 2.
	 * No single move wins.  Two solutions of two moves, no dead ends
	 * (A leaves on any r; B reaches row 4 and slides right from anywhere). */
	assert_int_equal(stars_of("game: skiddy\n#######\n#r....R\n#XXXXX#\n#r..X.#\n#.....R\n###R###\n",
				  &t), 3);
	assert_int_equal(t.combo, 2);
	assert_int_equal(t.plain, 2);
	assert_int_equal(t.solutions, 2);
	assert_int_equal(t.dead, 0);
}

static void test_incomplete(void **state)
{
	(void)state;
	struct lk_level *level = load("game: skiddy\n#######\n#O.r..R\n#XXXXX#\n#r.O..R\n#######\n");
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_analysis a;
	lk_analysis_init(&a);
	o.bounds.max_states = 3;
	lk_analyse(level, &o, &a);
	assert_false(a.complete);
	assert_int_equal(a.limit, LK_LIMIT_STATES);
	assert_int_equal(analysis_stars(level, &a), -1);
	/* A bound above the 10 states leaves the graph whole. */
	o.bounds.max_states = 11;
	lk_analyse(level, &o, &a);
	assert_true(a.complete);
	assert_int_equal(a.reachable, 10);
	assert_int_equal(analysis_stars(level, &a), 2);
	lk_analysis_release(&a);
	lk_level_free(level);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_fruit),
		cmocka_unit_test(test_random_skiddy),
		cmocka_unit_test(test_sokoban),
		cmocka_unit_test(test_traps),
		cmocka_unit_test(test_stars),
		cmocka_unit_test(test_incomplete),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
