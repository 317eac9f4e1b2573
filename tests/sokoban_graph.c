/*
 * sokoban_graph.c - the whole push graph of a small level, enumerated
 * state by state through the plain level's successors, and breadth-first
 * distances over it (sokoban_graph.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sokoban_graph.h"

#define INF SOKO_GRAPH_INF

static uint64_t hash_key(const unsigned char *k, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ k[i]) * 1099511628211ull;
	return h;
}

/* Index of key, added if new; UINT32_MAX when the graph is full. */
static uint32_t intern(struct soko_graph *g, const unsigned char *key)
{
	size_t mask = g->nslot - 1, at = (size_t)hash_key(key, g->ks) & mask;
	for (;; at = (at + 1) & mask) {
		uint32_t s = g->slot[at];
		if (s == 0)
			break;
		if (memcmp(g->keys + (size_t)(s - 1) * g->ks, key, g->ks) == 0)
			return s - 1;
	}
	if (g->n == g->max)
		return UINT32_MAX;
	memcpy(g->keys + g->n * g->ks, key, g->ks);
	g->slot[at] = (uint32_t)++g->n;
	return (uint32_t)(g->n - 1);
}

static void add_edge(struct soko_graph *g, uint32_t a, uint32_t b)
{
	if (g->ne == g->ecap) {
		g->ecap = g->ecap ? 2 * g->ecap : 1024;
		g->from = realloc(g->from, g->ecap * sizeof *g->from);
		g->to = realloc(g->to, g->ecap * sizeof *g->to);
		assert_true(g->from && g->to);
	}
	g->from[g->ne] = a;
	g->to[g->ne++] = b;
}

/* Breadth-first distances over the edges (backwards: to the states
 * holding 0 in d, else from them); d holds INF elsewhere. */
static void distances(const struct soko_graph *g, uint32_t *d, bool backwards)
{
	uint32_t *first = calloc(g->n + 1, sizeof *first), *adj = malloc((g->ne + 1) * sizeof *adj);
	uint32_t *queue = malloc(g->n * sizeof *queue);
	assert_true(first && adj && queue);
	const uint32_t *src = backwards ? g->to : g->from, *dst = backwards ? g->from : g->to;
	for (size_t e = 0; e < g->ne; e++)
		first[src[e] + 1]++;
	for (size_t i = 0; i < g->n; i++)
		first[i + 1] += first[i];
	uint32_t *fill = calloc(g->n, sizeof *fill);
	assert_true(fill);
	for (size_t e = 0; e < g->ne; e++)
		adj[first[src[e]] + fill[src[e]]++] = dst[e];
	size_t head = 0, tail = 0;
	for (size_t i = 0; i < g->n; i++)
		if (d[i] == 0)
			queue[tail++] = (uint32_t)i;
	while (head < tail) {
		uint32_t a = queue[head++];
		for (uint32_t k = first[a]; k < first[a + 1]; k++)
			if (d[adj[k]] == INF) {
				d[adj[k]] = d[a] + 1;
				queue[tail++] = adj[k];
			}
	}
	free(fill);
	free(queue);
	free(adj);
	free(first);
}

/* Enumerate the plain level's push graph; false if it is too large. */
bool soko_graph_enumerate(const struct lk_level *plain, struct soko_graph *g, size_t max_states)
{
	const struct lk_game *gm = plain->game;
	memset(g, 0, sizeof *g);
	g->ks = plain->key_size;
	g->max = max_states;
	g->nslot = 2;
	while (g->nslot < 2 * max_states)
		g->nslot *= 2;
	g->slot = calloc(g->nslot, sizeof *g->slot);
	g->keys = malloc(max_states * g->ks);
	void *scratch = calloc(1, plain->scratch_size);
	unsigned char *succ = calloc(plain->max_successors, g->ks);
	struct lk_edge *edges = calloc(plain->max_successors, sizeof *edges);
	unsigned char *key = calloc(1, g->ks);
	assert_true(g->slot && g->keys && scratch && succ && edges && key);
	gm->initial_state(plain, key);
	intern(g, key);
	bool ok = true;
	for (size_t i = 0; i < g->n && ok; i++) {
		memcpy(key, g->keys + i * g->ks, g->ks);
		if (gm->is_goal(plain, key))
			continue;
		unsigned ns = gm->successors(plain, key, scratch, succ, edges);
		for (unsigned k = 0; k < ns && ok; k++) {
			assert_int_equal(edges[k].cost, 1);
			uint32_t j = intern(g, succ + (size_t)k * g->ks);
			ok = j != UINT32_MAX;
			if (ok)
				add_edge(g, (uint32_t)i, j);
		}
	}
	free(key);
	free(edges);
	free(succ);
	free(scratch);
	if (!ok)
		return false;
	g->to_goal = malloc(g->n * sizeof *g->to_goal);
	g->from_start = malloc(g->n * sizeof *g->from_start);
	assert_true(g->to_goal && g->from_start);
	for (size_t i = 0; i < g->n; i++) {
		g->to_goal[i] = gm->is_goal(plain, g->keys + i * g->ks) ? 0 : INF;
		g->from_start[i] = i == 0 ? 0 : INF;
	}
	distances(g, g->to_goal, true);
	distances(g, g->from_start, false);
	return true;
}

void soko_graph_free(struct soko_graph *g)
{
	free(g->keys);
	free(g->slot);
	free(g->from);
	free(g->to);
	free(g->to_goal);
	free(g->from_start);
}

