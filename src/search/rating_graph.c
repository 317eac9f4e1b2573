/*
 * rating_graph.c - the rating's graph features (rating.h), from the whole
 * state graph of a level small enough to explore: dead ends, the
 * solution's traps and detours, the narrowest layer of the shortest
 * solutions, the solution's irreversible steps, and greedy choices into
 * dead ends (the walker, on a bounded graph, is rating_walker.c's).  rate
 * computes them with --features, for bench/rating_fit.py to weigh against
 * the others, and for every rating when the model weighs one of them (the
 * scarcity of shortest solutions): docs/rating.md says what they were
 * worth.
 */
#include "levelkit/rating.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/explore.h"

#define FAR UINT32_MAX

/* Edges as compressed rows: the heads of v's edges are to[start[v] ..
 * start[v + 1]). */
struct csr {
	uint32_t *start, *to;
};

static void csr_build(struct csr *c, uint32_t n, const uint32_t *from, const uint32_t *to,
		      size_t m)
{
	c->start = lk_xcalloc((size_t)n + 1, sizeof *c->start);
	c->to = lk_xmalloc((m ? m : 1) * sizeof *c->to);
	for (size_t e = 0; e < m; e++)
		c->start[from[e] + 1]++;
	for (uint32_t v = 0; v < n; v++)
		c->start[v + 1] += c->start[v];
	uint32_t *fill = lk_xmalloc(((size_t)n + 1) * sizeof *fill);
	memcpy(fill, c->start, ((size_t)n + 1) * sizeof *fill);
	for (size_t e = 0; e < m; e++)
		c->to[fill[from[e]]++] = to[e];
	free(fill);
}

static void csr_release(struct csr *c)
{
	free(c->start);
	free(c->to);
}

struct graph {
	const struct lk_level *level;
	struct lk_graph g;
	uint32_t n;
	struct csr fwd, rev;
	uint32_t *togo;      /* edges to the nearest win, FAR from a dead end */
	uint32_t shortest;   /* depth of the nearest win, FAR for none */
	void *scratch;
};

static void nearest_wins(struct graph *G)
{
	const struct lk_game *game = G->level->game;
	uint32_t *queue = lk_xmalloc((size_t)G->n * sizeof *queue);
	uint32_t head = 0, tail = 0;
	G->togo = lk_xmalloc((size_t)G->n * sizeof *G->togo);
	G->shortest = FAR;
	for (uint32_t v = 0; v < G->n; v++) {
		G->togo[v] = FAR;
		if (!game->is_goal(G->level, lk_table_key(&G->g.table, v)))
			continue;
		G->togo[v] = 0;
		queue[tail++] = v;
		uint32_t d = lk_table_cost(&G->g.table, v);
		if (d < G->shortest)
			G->shortest = d;
	}
	while (head < tail) {
		uint32_t v = queue[head++];
		for (uint32_t i = G->rev.start[v]; i < G->rev.start[v + 1]; i++) {
			uint32_t u = G->rev.to[i];
			if (G->togo[u] == FAR) {
				G->togo[u] = G->togo[v] + 1;
				queue[tail++] = u;
			}
		}
	}
	free(queue);
}

static double rank_of(const struct graph *G, uint32_t v)
{
	const struct lk_game *g = G->level->game;
	const void *key = lk_table_key(&G->g.table, v);
	unsigned e = g->estimate ? g->estimate(G->level, key, G->scratch)
				 : g->heuristic(G->level, key, G->scratch);
	return e == LK_H_DEAD ? 1e9 : (double)e;
}

/* Dead-end share, and the share of live states whose best-ranked move
 * leads into a dead end. */
static void dead_ends(const struct graph *G, const double *rank, struct lk_features *f)
{
	uint64_t dead = 0, live = 0, trapped = 0;
	for (uint32_t v = 0; v < G->n; v++) {
		if (G->togo[v] == FAR) {
			dead++;
			continue;
		}
		if (G->togo[v] == 0 || G->fwd.start[v] == G->fwd.start[v + 1])
			continue;
		live++;
		if (!rank)
			continue;
		uint32_t pick = G->fwd.to[G->fwd.start[v]];
		for (uint32_t i = G->fwd.start[v]; i < G->fwd.start[v + 1]; i++)
			if (rank[G->fwd.to[i]] < rank[pick])
				pick = G->fwd.to[i];
		trapped += G->togo[pick] == FAR;
	}
	lk_feature_set(f, LK_F_REACHABLE, LK_KNOWN_EXACT, G->n);
	lk_feature_set(f, LK_F_DEAD_SHARE, LK_KNOWN_EXACT, G->n ? (double)dead / G->n : 0.0);
	if (rank && live)
		lk_feature_set(f, LK_F_GREEDY_TRAP, LK_KNOWN_EXACT, (double)trapped / (double)live);
}

/* Shortest solutions counted over the breadth-first DAG (as a double: the
 * count is read as a logarithm), and the fewest states at one depth that
 * lie on a shortest solution. */
static void shortest_solutions(const struct graph *G, struct lk_features *f)
{
	const struct lk_table *t = &G->g.table;
	double *count = lk_xcalloc(G->n, sizeof *count);
	uint32_t *width = lk_xcalloc((size_t)G->shortest + 1, sizeof *width);
	count[0] = 1;
	for (size_t e = 0; e < G->g.nedges; e++) {
		uint32_t u = G->g.edge_from[e], v = G->g.edge_to[e];
		if (lk_table_cost(t, v) == lk_table_cost(t, u) + 1)
			count[v] += count[u];
	}
	double solutions = 0;
	for (uint32_t v = 0; v < G->n; v++) {
		uint32_t d = lk_table_cost(t, v);
		if (G->togo[v] == 0 && d == G->shortest)
			solutions += count[v];
		if (G->togo[v] != FAR && d + G->togo[v] == G->shortest)
			width[d]++;
	}
	uint32_t narrow = 1;
	for (uint32_t d = 1; d < G->shortest; d++)
		if (d == 1 || width[d] < narrow)
			narrow = width[d];
	lk_feature_set(f, LK_F_SOLUTIONS, LK_KNOWN_EXACT, solutions);
	/* scarcity is read from the count up to the order of independent
	 * moves: as paths, independent objects multiply the count by their
	 * interleavings (rating_traces.c) */
	double traces;
	if (lk_rating_traces(G->level, &G->g, G->togo, G->shortest, LK_RATING_TRACE_ENTRIES,
			     &traces)) {
		lk_feature_set(f, LK_F_TRACES, LK_KNOWN_EXACT, traces);
		lk_feature_set(f, LK_F_SCARCITY, LK_KNOWN_EXACT, lk_rating_scarcity(traces));
	}
	lk_feature_set(f, LK_F_WIDTH, LK_KNOWN_EXACT, narrow);
	free(width);
	free(count);
}

/* How few the shortest solutions are: 6 for a single one, 5 for ten, 0
 * for a million or more (a feature that grows as the level gets harder,
 * as every feature of the model must). */
double lk_rating_scarcity(double solutions)
{
	double x = 6.0 - log10(solutions >= 1 ? solutions : 1.0);
	return x > 0 ? x : 0.0;
}

/* Strongly connected components (Kosaraju, iterative): comp[v]. */
static void components(const struct graph *G, uint32_t *comp)
{
	uint32_t n = G->n;
	uint32_t *order = lk_xmalloc(((size_t)n + 1) * sizeof *order);
	uint32_t *stack = lk_xmalloc(((size_t)n + 1) * sizeof *stack);
	uint32_t *it = lk_xmalloc(((size_t)n + 1) * sizeof *it);
	uint8_t *seen = lk_xcalloc(n ? n : 1, 1);
	uint32_t no = 0;
	for (uint32_t s = 0; s < n; s++) {
		if (seen[s])
			continue;
		uint32_t sp = 0;
		stack[sp++] = s;
		seen[s] = 1;
		it[s] = G->fwd.start[s];
		while (sp) {
			uint32_t v = stack[sp - 1];
			if (it[v] < G->fwd.start[v + 1]) {
				uint32_t u = G->fwd.to[it[v]++];
				if (!seen[u]) {
					seen[u] = 1;
					it[u] = G->fwd.start[u];
					stack[sp++] = u;
				}
			} else {
				order[no++] = v;
				sp--;
			}
		}
	}
	for (uint32_t v = 0; v < n; v++)
		comp[v] = FAR;
	uint32_t nc = 0;
	for (uint32_t k = n; k-- > 0;) {
		uint32_t s = order[k];
		if (comp[s] != FAR)
			continue;
		uint32_t sp = 0;
		stack[sp++] = s;
		comp[s] = nc;
		while (sp) {
			uint32_t v = stack[--sp];
			for (uint32_t i = G->rev.start[v]; i < G->rev.start[v + 1]; i++) {
				uint32_t u = G->rev.to[i];
				if (comp[u] == FAR) {
					comp[u] = nc;
					stack[sp++] = u;
				}
			}
		}
		nc++;
	}
	free(order);
	free(stack);
	free(it);
	free(seen);
}

/* Along the solution (as entries of the graph): sibling moves into dead
 * ends, live sibling moves off every shortest solution, and steps that
 * cannot be undone (they leave the state's strongly connected
 * component). */
static void along(const struct graph *G, const uint32_t *path, size_t npath,
		  struct lk_features *f)
{
	uint32_t *comp = lk_xmalloc(((size_t)G->n + 1) * sizeof *comp);
	components(G, comp);
	unsigned long traps = 0, detours = 0, commits = 0;
	for (size_t i = 0; i + 1 < npath; i++) {
		uint32_t v = path[i], next = path[i + 1];
		commits += comp[v] != comp[next];
		for (uint32_t k = G->fwd.start[v]; k < G->fwd.start[v + 1]; k++) {
			uint32_t u = G->fwd.to[k];
			if (u == next)
				continue;
			if (G->togo[u] == FAR)
				traps++;
			else if (G->togo[u] + 1 > G->togo[v])
				detours++;
		}
	}
	lk_feature_set(f, LK_F_TRAPS, LK_KNOWN_EXACT, (double)traps);
	lk_feature_set(f, LK_F_DETOURS, LK_KNOWN_EXACT, (double)detours);
	lk_feature_set(f, LK_F_COMMITS, LK_KNOWN_EXACT, (double)commits);
	free(comp);
}

/* The graph's features; with all false only what the model weighs of them
 * (the scarcity), without the heuristic's rank of every state or the
 * components. */
static void graph_features(const struct lk_level *level, const struct lk_search_options *search,
			   uint64_t max_states, const unsigned char *path, size_t nkeys, bool all,
			   struct lk_features *f)
{
	struct graph G = { .level = level };
	struct lk_search_options so = *search;
	so.bounds.max_states = max_states;
	lk_graph_init(&G.g);
	G.g.record_edges = true;
	G.g.stop_at_goals = true;
	lk_explore(&G.g, level, &so);
	if (!G.g.complete) {
		if (G.g.limit == LK_LIMIT_STATES)
			lk_feature_set(f, LK_F_REACHABLE, LK_KNOWN_AT_LEAST, (double)G.g.table.count);
		/* the state cap, time, memory or a signal: the record says
		 * which left the graph's features unknown */
		if (G.g.limit != LK_LIMIT_NONE)
			f->limits |= LK_LIMIT_BIT(G.g.limit);
		lk_graph_release(&G.g);
		return;
	}
	G.n = G.g.table.count;
	csr_build(&G.fwd, G.n, G.g.edge_from, G.g.edge_to, G.g.nedges);
	csr_build(&G.rev, G.n, G.g.edge_to, G.g.edge_from, G.g.nedges);
	G.scratch = lk_xcalloc(1, level->scratch_size ? level->scratch_size : 1);
	nearest_wins(&G);
	double *rank = NULL;
	if (all && level->game->heuristic && level->has_heuristic) {
		rank = lk_xmalloc((size_t)G.n * sizeof *rank);
		for (uint32_t v = 0; v < G.n; v++)
			rank[v] = rank_of(&G, v);
	}
	if (all)
		dead_ends(&G, rank, f);
	if (G.shortest != FAR)
		shortest_solutions(&G, f);
	if (!all)
		nkeys = 0;   /* nor the solution's traps, detours and commits */
	/* the solution as graph entries; a path found backwards ends in a
	 * key standing for any goal, which the graph does not hold */
	size_t ks = level->key_size, npath = 0;
	uint32_t *pv = lk_xmalloc((nkeys ? nkeys : 1) * sizeof *pv);
	for (size_t i = 0; i < nkeys; i++) {
		const unsigned char *k = path + i * ks;
		uint32_t v = lk_table_find(&G.g.table, k, lk_hash_bytes(k, ks));
		if (v == LK_NO_ENTRY)
			break;
		pv[npath++] = v;
	}
	if (npath && npath + 1 >= nkeys)
		along(&G, pv, npath, f);
	free(pv);
	free(rank);
	free(G.togo);
	free(G.scratch);
	csr_release(&G.fwd);
	csr_release(&G.rev);
	lk_graph_release(&G.g);
}

void lk_features_graph(const struct lk_level *level, const struct lk_search_options *search,
		       uint64_t max_states, const unsigned char *path, size_t nkeys,
		       struct lk_features *f)
{
	graph_features(level, search, max_states, path, nkeys, true, f);
}

void lk_features_scarcity(const struct lk_level *level, const struct lk_search_options *search,
			  uint64_t max_states, struct lk_features *f)
{
	graph_features(level, search, max_states, NULL, 0, false, f);
}
