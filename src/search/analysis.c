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
	unsigned list_max = a->list_max;
	free(a->solution);
	free(a->dead_end);
	lk_strbuf_release(&a->list);
	lk_analysis_init(a);
	a->list_max = list_max;
}

/*
 * Listing the shortest solutions: a depth-first walk from the start over
 * the moves that go one layer deeper into a state from which a shortest
 * win is still reachable (on_path), every move taken separately, as the
 * count counts them.  A game with label_move labels each move on its own
 * (two moves into one state get their own labels); otherwise the whole
 * path of states is labelled at the end, as solutions always are (a
 * Sokoban push's walk depends on where the last push left the player).
 */
struct lister {
	const struct lk_level *level;
	const struct lk_graph *g;
	const uint8_t *on_path;
	struct lk_analysis *a;
	struct lk_strbuf path;        /* label_move: the labels so far */
	struct lk_moves m;
	void *scratch;
	unsigned char *keys;          /* max_successors keys per depth */
	struct lk_edge *edges;
	unsigned char *trail;         /* the states so far, start first */
};

static void list_from(struct lister *ls, uint32_t u, uint32_t depth)
{
	struct lk_analysis *a = ls->a;
	const struct lk_game *game = ls->level->game;
	size_t ks = ls->level->key_size;
	const unsigned char *key = lk_table_key(&ls->g->table, u);
	memcpy(ls->trail + (size_t)depth * ks, key, ks);
	if (depth == a->shortest) {
		if (a->listed++)
			lk_strbuf_addch(&a->list, ' ');
		if (game->label_move) {
			lk_strbuf_add(&a->list, ls->path.buf, ls->path.len);
		} else {
			lk_moves_reset(&ls->m);
			game->label_path(ls->level, ls->trail, (size_t)depth + 1, &ls->m);
			lk_strbuf_add(&a->list, ls->m.text.buf, ls->m.text.len);
		}
		return;
	}
	size_t slots = ls->level->max_successors;
	unsigned char *keys = ls->keys + (size_t)depth * slots * ks;
	struct lk_edge *edges = ls->edges + (size_t)depth * slots;
	unsigned n = game->successors(ls->level, key, ls->scratch, keys, edges);
	size_t mark = ls->path.len;
	for (unsigned i = 0; i < n && a->listed < a->list_max; i++) {
		const unsigned char *k = keys + (size_t)i * ks;
		uint32_t v = lk_table_find(&ls->g->table, k, lk_hash_bytes(k, ks));
		if (v == LK_NO_ENTRY || !ls->on_path[v] || lk_table_cost(&ls->g->table, v) != depth + 1)
			continue;
		if (game->label_move) {
			lk_moves_reset(&ls->m);
			game->label_move(ls->level, key, edges[i].move, &ls->m);
			lk_strbuf_add(&ls->path, ls->m.text.buf, ls->m.text.len);
		}
		list_from(ls, v, depth + 1);
		if (game->label_move) {
			ls->path.len = mark;
			ls->path.buf[mark] = '\0';
		}
	}
}

static void list_solutions(const struct lk_level *level, const struct lk_graph *g,
			   struct lk_analysis *a)
{
	uint32_t n = g->table.count;
	/* on_path[v]: a shortest win is reachable from v one layer at a
	 * time; edges are grouped by source in breadth-first order, so read
	 * backwards a target's mark is final before its sources are read */
	uint8_t *on_path = lk_xcalloc(n ? n : 1, 1);
	for (uint32_t v = 0; v < n; v++)
		on_path[v] = lk_table_cost(&g->table, v) == a->shortest &&
			     level->game->is_goal(level, lk_table_key(&g->table, v));
	for (size_t e = g->nedges; e-- > 0;) {
		uint32_t u = g->edge_from[e], v = g->edge_to[e];
		if (on_path[v] && lk_table_cost(&g->table, v) == lk_table_cost(&g->table, u) + 1)
			on_path[u] = 1;
	}
	size_t ks = level->key_size, slots = level->max_successors;
	struct lister ls = { .level = level, .g = g, .on_path = on_path, .a = a };
	lk_strbuf_init(&ls.path);
	lk_moves_init(&ls.m, level);
	ls.scratch = lk_xcalloc(1, level->scratch_size ? level->scratch_size : 1);
	ls.keys = lk_xmalloc(((size_t)a->shortest + 1) * slots * ks + 1);
	ls.edges = lk_xmalloc(((size_t)a->shortest + 1) * slots * sizeof *ls.edges + 1);
	ls.trail = lk_xmalloc(((size_t)a->shortest + 1) * ks + 1);
	if (on_path[0])
		list_from(&ls, 0, 0);
	free(ls.trail);
	free(ls.edges);
	free(ls.keys);
	free(ls.scratch);
	lk_moves_release(&ls.m);
	lk_strbuf_release(&ls.path);
	free(on_path);
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
		if (a->list_max && a->complete)
			list_solutions(level, &g, a);
	}
	free(can);
	free(queue);
	free(rstart);
	free(rev);
	lk_graph_release(&g);
}
