/*
 * explore.c - breadth-first exploration of a whole state space (see
 * explore.h).  Like BFS in search.c the table is its own queue; layers are
 * recorded as entry ranges so callers can pick states by depth.
 */
#include "levelkit/explore.h"

#include <stdlib.h>
#include <string.h>

#define CHECK_EVERY 1024

void lk_graph_init(struct lk_graph *g)
{
	memset(g, 0, sizeof *g);
	lk_table_init(&g->table, 0, 0);
}

void lk_graph_release(struct lk_graph *g)
{
	lk_table_release(&g->table);
	free(g->layer);
	free(g->edge_from);
	free(g->edge_to);
	lk_graph_init(g);
}

/* Keep edge from -> to; false if the memory budget forbids it. */
static bool add_edge(struct lk_graph *g, uint32_t from, uint32_t to, size_t budget)
{
	if (g->nedges == g->edges_alloc) {
		size_t n = g->edges_alloc ? g->edges_alloc * 2 : 1024;
		if (budget && g->table.bytes + n * 2 * sizeof(uint32_t) > budget)
			return false;
		g->edge_from = lk_xrealloc(g->edge_from, n * sizeof *g->edge_from);
		g->edge_to = lk_xrealloc(g->edge_to, n * sizeof *g->edge_to);
		g->edges_alloc = n;
	}
	g->edge_from[g->nedges] = from;
	g->edge_to[g->nedges++] = to;
	return true;
}

static void close_layer(struct lk_graph *g, uint32_t start)
{
	LK_ALLOC_GROW(g->layer, g->nlayers + 2, g->layer_alloc);
	g->layer[g->nlayers++] = start;
}

void lk_explore(struct lk_graph *g, const struct lk_level *level,
		const struct lk_search_options *opt)
{
	const struct lk_game *game = level->game;
	size_t ks = level->key_size;
	double start = lk_now(), deadline = lk_bounds_deadline(&opt->bounds, start);
	void *scratch = lk_xcalloc(1, level->scratch_size ? level->scratch_size : 1);
	unsigned char *keys = lk_xcalloc((size_t)level->max_successors + 1, ks ? ks : 1);
	struct lk_edge *edges = lk_xcalloc((size_t)level->max_successors + 1, sizeof *edges);

	lk_table_reset(&g->table, ks, opt->bounds.max_memory);
	g->nlayers = 0;
	g->complete = false;
	g->limit = LK_LIMIT_NONE;
	g->edges = 0;
	g->nedges = 0;

	game->initial_state(level, keys);
	uint32_t id;
	if (lk_table_intern(&g->table, keys, lk_hash_bytes(keys, ks), 0, 0, &id) == LK_INTERN_FULL) {
		g->limit = LK_LIMIT_MEMORY;
		goto out;
	}
	close_layer(g, 0);
	for (uint32_t head = 0; head < g->table.count; head++) {
		uint32_t depth = lk_table_cost(&g->table, head);
		if (depth >= g->nlayers)
			close_layer(g, head);
		if (head % CHECK_EVERY == 0) {
			if (opt->tick)
				opt->tick(opt->tick_ctx);
			if (lk_bounds_cancelled(&opt->bounds)) {
				g->limit = LK_LIMIT_INTERRUPTED;
				goto out;
			}
			if (lk_bounds_time_up(&opt->bounds, deadline)) {
				g->limit = LK_LIMIT_TIME;
				goto out;
			}
		}
		const void *hkey = lk_table_key(&g->table, head);
		if (g->stop_at_goals && game->is_goal(level, hkey))
			continue;
		unsigned n = game->successors(level, hkey, scratch, keys, edges);
		g->edges += n;
		for (unsigned i = 0; i < n; i++) {
			const unsigned char *child = keys + (size_t)i * ks;
			enum lk_intern got = lk_table_intern(&g->table, child, lk_hash_bytes(child, ks),
							     head, depth + 1, &id);
			if (got == LK_INTERN_FULL ||
			    (g->record_edges && !add_edge(g, head, id, opt->bounds.max_memory))) {
				g->limit = LK_LIMIT_MEMORY;
				goto out;
			}
			if (got == LK_INTERN_ADDED && opt->bounds.max_states &&
			    g->table.count >= opt->bounds.max_states) {
				g->limit = LK_LIMIT_STATES;
				goto out;
			}
		}
	}
	g->complete = true;
out:
	/* Sentinel: one past the last layer.  A search stopped early has
	 * stored some states of the next layer too; they are left out. */
	LK_ALLOC_GROW(g->layer, g->nlayers + 1, g->layer_alloc);
	{
		uint32_t end = g->nlayers ? g->layer[g->nlayers - 1] : 0;
		uint32_t last = (uint32_t)g->nlayers - 1;
		while (g->nlayers && end < g->table.count && lk_table_cost(&g->table, end) == last)
			end++;
		g->layer[g->nlayers] = g->nlayers ? end : 0;
	}
	g->seconds = lk_now() - start;
	free(scratch);
	free(keys);
	free(edges);
}

size_t lk_graph_whole_depth(const struct lk_graph *g)
{
	/* Every state of layer d is stored once layer d - 1 has been
	 * expanded, which happened before expansion reached layer d: the
	 * layers recorded are whole even when the exploration stopped. */
	return g->nlayers ? g->nlayers - 1 : 0;
}
