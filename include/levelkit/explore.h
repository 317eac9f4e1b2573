/*
 * explore.h - breadth-first exploration of a level's whole reachable state
 * space, keeping every state with its depth.
 *
 * Where a search stops at the first goal, exploration goes on until the
 * space is exhausted (or a bound is hit), so that questions about all
 * states can be asked afterwards: which states lie deepest (a backward
 * generator's hardest start), how many states there are, and - with the
 * graph analysis built on it - which of them can still reach a goal.
 */
#ifndef LEVELKIT_EXPLORE_H
#define LEVELKIT_EXPLORE_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/search.h"

struct lk_graph {
	struct lk_table table;   /* states in breadth-first order; cost = depth */
	uint32_t *layer;         /* layer[d]: first entry at depth d; layer[nlayers] = count */
	size_t nlayers, layer_alloc;
	bool complete;           /* the whole reachable space is in the table */
	enum lk_limit limit;     /* why not, when incomplete */
	uint64_t edges;          /* successor edges generated, duplicates included */
	double seconds;
	/* Set before lk_explore to keep every edge (entry numbers, in the
	 * order generated: grouped by source in breadth-first order) and to
	 * leave goal states unexpanded (a won game is over). */
	bool record_edges, stop_at_goals;
	uint32_t *edge_from, *edge_to;
	size_t nedges, edges_alloc;
};

void lk_graph_init(struct lk_graph *g);
void lk_graph_release(struct lk_graph *g);

/*
 * Explore level from its start.  Bounds come from opt (algo, direction and
 * seed are ignored).  When a bound is hit the graph is incomplete: every
 * stored state's depth is still exact and the layers recorded are whole
 * (states of a layer left unfinished are not counted in any layer).
 */
void lk_explore(struct lk_graph *g, const struct lk_level *level,
		const struct lk_search_options *opt);

/* Depth of the deepest layer known to be whole. */
size_t lk_graph_whole_depth(const struct lk_graph *g);

#endif
