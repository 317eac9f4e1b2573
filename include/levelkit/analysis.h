/*
 * analysis.h - the whole-state-graph analysis: every state reachable from
 * the start, which of them can still reach a win, the shortest ways in.
 *
 * This is Skiddy's "reversed tree" (Baldiraghi 2016): the states are
 * explored breadth-first into the hashed table, every edge is kept (so a
 * state knows its first parent and all its secondary ones), and "a win is
 * reachable" is propagated backwards from every winning state along the
 * reversed edges.  A reachable state that no win can be reached from is a
 * dead end.  Generic over the game interface: it answers "dead ends?" for
 * any game, Sokoban levels included when they are small enough.
 */
#ifndef LEVELKIT_ANALYSIS_H
#define LEVELKIT_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/search.h"
#include "levelkit/strbuf.h"

#define LK_NO_DEPTH UINT32_MAX

struct lk_analysis {
	bool complete;             /* the whole graph was explored */
	enum lk_limit limit;       /* why not */
	uint64_t reachable;        /* states reachable from the start */
	uint64_t edges;
	uint64_t wins;             /* winning states among them */
	uint64_t dead_ends;        /* reachable states with no win reachable */
	uint32_t shortest;         /* moves of a shortest solution, or LK_NO_DEPTH */
	uint64_t solutions;        /* distinct shortest solutions (move sequences) */
	bool solutions_saturated;  /* the count overflowed 64 bits */
	/* games with win kinds (game->win_kind): the shortest solution
	 * ending in a win of each kind, or LK_NO_DEPTH */
	unsigned win_kinds;
	uint32_t shortest_kind[LK_MAX_WIN_KINDS];
	/* Set before the analysis (lk_analysis_release keeps it): list up to
	 * list_max of the distinct shortest solutions, each as its moves'
	 * labels, separated by single spaces, into list (listed of them). */
	unsigned list_max;
	struct lk_strbuf list;
	uint64_t listed;
	/* paths as state keys, start first (owned) */
	unsigned char *solution;   size_t solution_keys;
	unsigned char *dead_end;   size_t dead_end_keys;  /* shortest way into a dead end */
	double seconds;
};

void lk_analysis_init(struct lk_analysis *a);
void lk_analysis_release(struct lk_analysis *a);

/* Analyse a level within the bounds of opt (states, memory, time). */
void lk_analyse(const struct lk_level *level, const struct lk_search_options *opt,
		struct lk_analysis *a);

/* A visitor of the goal states: called for every reachable goal state,
 * with its depth (moves from the start), in breadth-first order; return
 * non-zero to stop visiting (the analysis itself still completes). */
typedef int (*lk_goal_visitor)(void *ctx, const void *key, uint32_t depth);

/* The analysis, visiting every reachable goal state on the way. */
void lk_analyse_visit(const struct lk_level *level, const struct lk_search_options *opt,
		      struct lk_analysis *a, lk_goal_visitor visit, void *ctx);

#endif
