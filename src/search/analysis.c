/*
 * analysis.c - whole-graph analysis with reverse-edge win propagation
 * (see analysis.h).  What a game makes of it (Skiddy's stars) is the
 * game's: game->graph_rules.
 */
#include "levelkit/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "levelkit/explore.h"

void lk_analysis_init(struct lk_analysis *a)
{
	memset(a, 0, sizeof *a);
	a->shortest = LK_NO_DEPTH;
	for (int k = 0; k < LK_MAX_WIN_KINDS; k++)
		a->shortest_kind[k] = LK_NO_DEPTH;
}

void lk_analysis_release(struct lk_analysis *a)
{
	free(a->solution);
	free(a->dead_end);
	lk_analysis_init(a);
}

/* The keys from the start to entry id, start first. */
static unsigned char *chain(const struct lk_table *t, uint32_t id, size_t *nkeys)
{
	size_t n = 1, ks = t->key_size;
	for (uint32_t i = id; i != 0; i = lk_table_parent(t, i))
		n++;
	unsigned char *keys = lk_xmalloc(n * ks);
	size_t at = n;
	for (uint32_t i = id;; i = lk_table_parent(t, i)) {
		memcpy(keys + --at * ks, lk_table_key(t, i), ks);
		if (i == 0)
			break;
	}
	*nkeys = n;
	return keys;
}

void lk_analyse(const struct lk_level *level, const struct lk_search_options *opt,
		struct lk_analysis *a)
{
	lk_analyse_visit(level, opt, a, NULL, NULL);
}

void lk_analyse_visit(const struct lk_level *level, const struct lk_search_options *opt,
		      struct lk_analysis *a, lk_goal_visitor visit, void *ctx)
{
	const struct lk_game *game = level->game;
	bool stop = false;
	struct lk_graph g;
	lk_analysis_release(a);
	lk_graph_init(&g);
	g.record_edges = true;
	g.stop_at_goals = true;
	lk_explore(&g, level, opt);
	a->complete = g.complete;
	a->limit = g.limit;
	a->seconds = g.seconds;
	a->win_kinds = game->win_kind ? game->win_kinds : 0;
	uint32_t n = g.table.count;
	a->reachable = n;
	a->edges = g.nedges;

	/* Reverse edges, as compressed rows: rev[rstart[v] .. rstart[v+1]) are
	 * the sources of edges into v (its first and secondary parents). */
	uint32_t *rstart = lk_xcalloc((size_t)n + 1, sizeof *rstart);
	uint32_t *rev = lk_xmalloc((g.nedges ? g.nedges : 1) * sizeof *rev);
	for (size_t e = 0; e < g.nedges; e++)
		rstart[g.edge_to[e] + 1]++;
	for (uint32_t v = 0; v < n; v++)
		rstart[v + 1] += rstart[v];
	uint32_t *fill = lk_xmalloc(((size_t)n + 1) * sizeof *fill);
	memcpy(fill, rstart, ((size_t)n + 1) * sizeof *fill);
	for (size_t e = 0; e < g.nedges; e++)
		rev[fill[g.edge_to[e]]++] = g.edge_from[e];
	free(fill);

	/* Propagate "a win is reachable" backwards from every win. */
	uint8_t *can = lk_xcalloc(n ? n : 1, 1);
	uint32_t *queue = lk_xmalloc((n ? n : 1) * sizeof *queue);
	uint32_t head = 0, tail = 0;
	for (uint32_t v = 0; v < n; v++) {
		const void *key = lk_table_key(&g.table, v);
		if (!game->is_goal(level, key))
			continue;
		a->wins++;
		uint32_t depth = lk_table_cost(&g.table, v);
		if (game->win_kind) {
			unsigned kind = game->win_kind(level, key);
			if (kind < LK_MAX_WIN_KINDS && depth < a->shortest_kind[kind])
				a->shortest_kind[kind] = depth;
		}
		if (visit && !stop)
			stop = visit(ctx, key, depth) != 0;
		if (depth < a->shortest) {
			a->shortest = depth;
			free(a->solution);
			a->solution = chain(&g.table, v, &a->solution_keys);
		}
		can[v] = 1;
		queue[tail++] = v;
	}
	while (head < tail) {
		uint32_t v = queue[head++];
		for (uint32_t i = rstart[v]; i < rstart[v + 1]; i++) {
			uint32_t u = rev[i];
			if (!can[u]) {
				can[u] = 1;
				queue[tail++] = u;
			}
		}
	}
	/* Dead ends; the first in breadth-first order is the nearest. */
	for (uint32_t v = 0; v < n; v++) {
		if (can[v])
			continue;
		if (!a->dead_ends++)
			a->dead_end = chain(&g.table, v, &a->dead_end_keys);
	}
	/* Distinct shortest solutions: paths in the breadth-first DAG,
	 * counting each edge (a move) separately. */
	if (a->shortest != LK_NO_DEPTH) {
		uint64_t *count = lk_xcalloc(n, sizeof *count);
		count[0] = 1;
		for (size_t e = 0; e < g.nedges; e++) {
			uint32_t u = g.edge_from[e], v = g.edge_to[e];
			if (lk_table_cost(&g.table, v) != lk_table_cost(&g.table, u) + 1)
				continue;
			uint64_t sum = count[v] + count[u];
			if (sum < count[v]) {
				sum = UINT64_MAX;
				a->solutions_saturated = true;
			}
			count[v] = sum;
		}
		for (uint32_t v = 0; v < n; v++) {
			if (lk_table_cost(&g.table, v) != a->shortest ||
			    !game->is_goal(level, lk_table_key(&g.table, v)))
				continue;
			uint64_t sum = a->solutions + count[v];
			if (sum < a->solutions) {
				sum = UINT64_MAX;
				a->solutions_saturated = true;
			}
			a->solutions = sum;
		}
		free(count);
	}
	free(can);
	free(queue);
	free(rstart);
	free(rev);
	lk_graph_release(&g);
}
