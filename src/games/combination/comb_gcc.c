/*
 * comb_gcc.c - the global cardinality constraint over Combination's
 * squares (Régin 1996, the paper's reference [8]): every square takes one
 * value, "empty" or a type of piece; type t is taken by exactly count[t]
 * squares and "empty" by the rest.  The filter is generalised arc
 * consistency: a value stays in a square's domain only if some assignment
 * meeting every count gives the square that value.
 *
 * One assignment is found by augmenting paths (squares matched to values,
 * value v exactly need[v] times; the previous call's matching is the
 * starting point, as most calls follow a small change).  A square-value
 * pair off the matching belongs to another assignment exactly when an
 * alternating cycle passes through it, that is when the square and the
 * value lie in one strongly connected component of the graph whose edges
 * run from a square to the values it may take but is not matched to, and
 * from a value to the squares matched to it.  The counts are exact, so no
 * path may end at a value with room to spare: cycles are all there is.
 */
#include <stdlib.h>
#include <string.h>

#include "comb.h"
#include "levelkit/bits.h"
#include "levelkit/strbuf.h"

void comb_gcc_init(struct comb_gcc *g, int nsq, int nvals)
{
	size_t n = (size_t)(nsq > 0 ? nsq : 1), nodes = n + (size_t)nvals;
	memset(g, 0, sizeof *g);
	g->nsq = nsq;
	g->nvals = nvals;
	g->match = lk_xmalloc(n * sizeof *g->match);
	for (int q = 0; q < nsq; q++)
		g->match[q] = -1;
	g->queue = lk_xmalloc(n * sizeof *g->queue);
	g->seen = lk_xmalloc(n * sizeof *g->seen);
	g->by_value = lk_xmalloc(n * sizeof *g->by_value);
	g->index = lk_xmalloc(nodes * sizeof *g->index);
	g->low = lk_xmalloc(nodes * sizeof *g->low);
	g->comp = lk_xmalloc(nodes * sizeof *g->comp);
	g->stack = lk_xmalloc(nodes * sizeof *g->stack);
	g->call = lk_xmalloc(nodes * sizeof *g->call);
	g->next_edge = lk_xmalloc(nodes * sizeof *g->next_edge);
}

void comb_gcc_release(struct comb_gcc *g)
{
	free(g->match);
	free(g->queue);
	free(g->seen);
	free(g->by_value);
	free(g->index);
	free(g->low);
	free(g->comp);
	free(g->stack);
	free(g->call);
	free(g->next_edge);
	memset(g, 0, sizeof *g);
}

/* Match the unmatched square q0 by an augmenting path: breadth first from
 * q0 through values to the squares matched to them, until a value with
 * room.  False if there is none. */
static bool augment(struct comb_gcc *g, const uint32_t *dom, const int *need, int q0)
{
	int from[32], head = 0, tail = 0;
	uint32_t seen_values = 0;
	memset(g->seen, 0, (size_t)g->nsq * sizeof *g->seen);
	g->queue[tail++] = q0;
	g->seen[q0] = 1;
	while (head < tail) {
		int s = g->queue[head++];
		for (uint32_t d = dom[s] & ~seen_values; d; d &= d - 1) {
			int v = lk_lowest_bit64(d);
			if (v == g->match[s])
				continue;
			seen_values |= 1u << v;
			from[v] = s;
			if (g->used[v] < need[v]) {
				/* flip the path: each square takes the value it
				 * was reached from, back to q0 */
				g->used[v]++;
				for (;;) {
					int sq = from[v], old = g->match[sq];
					g->match[sq] = v;
					if (sq == q0)
						return true;
					v = old;
				}
			}
			for (int u = 0; u < g->nsq; u++) {
				if (g->match[u] == v && !g->seen[u]) {
					g->seen[u] = 1;
					g->queue[tail++] = u;
				}
			}
		}
	}
	return false;
}

/* Tarjan's strongly connected components, without recursion.  Nodes:
 * squares 0 .. nsq-1, then values nsq .. nsq+nvals-1. */
static void components(struct comb_gcc *g, const uint32_t *dom)
{
	int n = g->nsq, nodes = n + g->nvals, counter = 0, top = 0, ncomp = 0;
	/* the squares matched to each value, grouped: by_value[start[v] ..] */
	int start[33] = { 0 };
	for (int q = 0; q < n; q++)
		start[g->match[q] + 1]++;
	for (int v = 0; v < g->nvals; v++)
		start[v + 1] += start[v];
	int fill[32];
	memcpy(fill, start, sizeof fill);
	for (int q = 0; q < n; q++)
		g->by_value[fill[g->match[q]]++] = q;
	for (int i = 0; i < nodes; i++)
		g->index[i] = -1;
	for (int root = 0; root < nodes; root++) {
		if (g->index[root] >= 0)
			continue;
		int depth = 0;
		g->call[depth++] = root;
		g->index[root] = g->low[root] = counter++;
		g->stack[top++] = root;
		g->comp[root] = -1;
		g->next_edge[root] = 0;
		while (depth > 0) {
			int x = g->call[depth - 1], y = -1;
			/* the next edge of x not yet followed */
			if (x < n) {
				uint32_t d = dom[x] & ~(1u << g->match[x]);
				d &= ~((1u << g->next_edge[x]) - 1u);
				if (d) {
					int v = lk_lowest_bit64(d);
					g->next_edge[x] = v + 1;
					y = n + v;
				}
			} else {
				int v = x - n;
				if (start[v] + g->next_edge[x] < start[v + 1])
					y = g->by_value[start[v] + g->next_edge[x]++];
			}
			if (y >= 0) {
				if (g->index[y] < 0) {
					g->index[y] = g->low[y] = counter++;
					g->stack[top++] = y;
					g->comp[y] = -1;
					g->next_edge[y] = 0;
					g->call[depth++] = y;
				} else if (g->comp[y] < 0 && g->index[y] < g->low[x]) {
					g->low[x] = g->index[y];   /* y is on the stack */
				}
				continue;
			}
			/* x is done */
			if (g->low[x] == g->index[x]) {
				int z;
				do {
					z = g->stack[--top];
					g->comp[z] = ncomp;
				} while (z != x);
				ncomp++;
			}
			depth--;
			if (depth > 0) {
				int p = g->call[depth - 1];
				if (g->low[x] < g->low[p])
					g->low[p] = g->low[x];
			}
		}
	}
}

bool comb_gcc_filter(struct comb_gcc *g, const uint32_t *dom, const int *need, uint32_t *keep)
{
	int n = g->nsq, total = 0;
	for (int v = 0; v < g->nvals; v++) {
		if (need[v] < 0)
			return false;
		total += need[v];
		g->used[v] = 0;
	}
	if (total != n)
		return false;
	/* keep what is left of the last matching, then fill it */
	for (int q = 0; q < n; q++) {
		int v = g->match[q];
		if (v >= 0 && (dom[q] & (1u << v)) && g->used[v] < need[v])
			g->used[v]++;
		else
			g->match[q] = -1;
	}
	for (int q = 0; q < n; q++) {
		if (g->match[q] >= 0)
			continue;
		for (uint32_t d = dom[q]; d; d &= d - 1) {
			int v = lk_lowest_bit64(d);
			if (g->used[v] < need[v]) {
				g->match[q] = v;
				g->used[v]++;
				break;
			}
		}
	}
	for (int q = 0; q < n; q++)
		if (g->match[q] < 0 && !augment(g, dom, need, q))
			return false;
	components(g, dom);
	for (int q = 0; q < n; q++) {
		keep[q] = 1u << g->match[q];
		for (uint32_t d = dom[q] & ~keep[q]; d; d &= d - 1) {
			int v = lk_lowest_bit64(d);
			if (g->comp[q] == g->comp[n + v])
				keep[q] |= 1u << v;
		}
	}
	return true;
}
