/*
 * analysis_brute.c - the whole-graph analysis tests' truth
 * (analysis_brute.h): levels loaded from text, and a brute-force analysis
 * written here: every state explored through game->successors into its
 * own hash table (goal states not expanded, as a won game is over), dead
 * ends by backward reachability from the wins (a fixpoint over the edge
 * list), shortest solutions and their number by dynamic programming over
 * the breadth-first layers (each move counted separately), shortest combo
 * and non-combo wins, and the star rules of docs/games/skiddy.md; compare
 * holds lk_analyse to it, and checks the paths it returns edge by edge.
 */
#define _POSIX_C_SOURCE 200809L   /* strdup */
#include "analysis_brute.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/analysis.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "test_support.h"
#include "test_records.h"

/* ------------------------------------------------------- loading levels */

struct lk_level *load_opt(const char *text, const char *metric, bool plain)
{
	struct lk_level_options opt = { .metric = metric, .plain = plain };
	return test_load_level(text, &opt, NULL);
}

struct lk_level *load(const char *text)
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

/* lk_analyse against the brute force; returns the truth. */
void compare(const struct lk_level *level, const char *text, struct truth *t)
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
void dead_end_path(const struct lk_level *level, char *out, size_t outsz)
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
