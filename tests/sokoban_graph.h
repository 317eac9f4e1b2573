/*
 * sokoban_graph.h - the whole push graph of a small Sokoban level with
 * nothing pruned, and every state's true distances (sokoban_graph.c): the
 * truth the lower-bound suites (pair conflicts, pattern searches) check
 * their bounds against.
 */
#ifndef LEVELKIT_TESTS_SOKOBAN_GRAPH_H
#define LEVELKIT_TESTS_SOKOBAN_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/game.h"

#define SOKO_GRAPH_INF UINT32_MAX

/* The graph: keys in order of discovery, edges as (from, to) pairs;
 * to_goal[i] the fewest pushes from state i to a solved state, from_start[i]
 * from the start (SOKO_GRAPH_INF: none). */
struct soko_graph {
	size_t ks, n, max, ne, ecap;
	unsigned char *keys;
	uint32_t *slot;          /* open addressing over key indices + 1 */
	size_t nslot;
	uint32_t *from, *to;
	uint32_t *to_goal, *from_start;
	bool *goal;
};

/* Enumerate the plain level's push graph (at most max_states states) and
 * its distances; false if it is too large (then only soko_graph_free). */
bool soko_graph_enumerate(const struct lk_level *plain, struct soko_graph *g, size_t max_states);
void soko_graph_free(struct soko_graph *g);

#endif
