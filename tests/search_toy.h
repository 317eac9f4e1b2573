/*
 * search_toy.h - what the solver tests (test_search.c, search_bounds.c)
 * share, defined in search_toy.c: the toy game (a weighted directed graph,
 * a state being a node number packed into 2, 3 or 4 bytes), its graph
 * builders, the truths (least costs and fewest edges to a goal, computed
 * independently of the solvers) and the checks of a search's answer
 * against them; and the test functions of search_bounds.c, which
 * test_search.c's main runs.
 */
#ifndef LEVELKIT_TESTS_SEARCH_TOY_H
#define LEVELKIT_TESTS_SEARCH_TOY_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>

#include "levelkit/rng.h"
#include "levelkit/search.h"

#define INF UINT32_MAX

/* ------------------------------------------------------------ the graph */

struct graph {
	unsigned n;
	unsigned *first;     /* edges of u: first[u] .. first[u + 1] - 1 */
	unsigned *to;
	unsigned *cost;
	uint8_t *goal;
	unsigned start;
};

void *xcalloc(size_t n, size_t size);
void graph_free(struct graph *g);
/* Build from an edge list of (u, v, cost) triples (see search_toy.c). */
void graph_from_edges(struct graph *g, unsigned n, const unsigned *e, size_t ne);
/* A random graph of n nodes, up to maxdeg edges each, and goals goals. */
void random_graph(struct graph *g, struct lk_rng *rng, unsigned n, unsigned maxdeg, int goals);
/* A 0 -> ... -> n-1 chain of unit edges, goal at the end. */
void chain(struct graph *g, unsigned n);
/* A w x h grid of unit edges both ways: many shortest paths. */
void grid_graph(struct graph *g, unsigned w, unsigned h);

/* ------------------------------------------------------- the toy game */

enum hmode { H_ZERO, H_HALF, H_EXACT, H_RANDOM };

struct toy {
	struct lk_level base;
	struct graph g;
	uint32_t *h;            /* heuristic value per node (LK_H_DEAD allowed) */
	enum hmode hmode;
	uint64_t hseed;
	bool reversible;        /* offer a reversed level */
};

/* Expansions counted over all toy levels; cancel raised after a number. */
extern unsigned long toy_expansions;
extern unsigned long cancel_after;
extern volatile sig_atomic_t *cancel_flag;
/* Seconds (on the library's clock) each expansion waits: a slow game. */
extern double toy_delay;

struct toy *toy_new(const struct graph *src, size_t ks, enum hmode hm, uint64_t hseed,
		    bool with_h, bool reversible);
void toy_free(struct lk_level *level);

/* The directions the tests run in: forward and both, and in a separate
 * test (run last) backward. */
extern const enum lk_direction forward_both[2];
extern const enum lk_direction backward_only[1];
extern const enum lk_direction *dirs;
extern size_t ndirs;

/* ---------------------------------------------------------- checking */

struct truth {
	uint32_t *dist, *hops;
};

/* Check a solved result's path against the graph; returns its cost. */
unsigned long check_path(const struct toy *t, const struct lk_search_result *r);
void truth_of(const struct toy *t, struct truth *tr);
void truth_free(struct truth *tr);
/* Run one search and check it against the truth. */
void check_run(struct lk_solver *s, const struct toy *t, const struct truth *tr,
	       enum lk_algo algo, enum lk_direction dir, uint64_t seed);
/* One search with a fresh solver. */
void search_one(const struct toy *t, enum lk_algo a, enum lk_direction d,
		struct lk_search_result *r);

/* --------------------------------------- the tests of search_bounds.c */

void test_bounds(void **state);
void test_tiny_bounds(void **state);
void test_cancel(void **state);
void test_tick(void **state);
void test_slow_expansions(void **state);
/* Its teardown: the delay off even when an assertion left the test early. */
int slow_expansions_done(void **state);
void test_seeds(void **state);
void test_solver_reuse(void **state);

#endif
