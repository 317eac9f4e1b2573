/*
 * search.h - the solvers: breadth-first, uniform-cost, A* and greedy
 * best-first search over any game's state space (see game.h).
 *
 * Each search is bounded by stored states, memory and time, and ends in one
 * of three ways: solved (with the path), proved unsolvable (the reachable
 * space was exhausted; games prune only moves that cannot lie on any
 * solution, so exhaustion is a proof), or unknown because a bound was hit.
 */
#ifndef LEVELKIT_SEARCH_H
#define LEVELKIT_SEARCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/bounds.h"
#include "levelkit/clock.h"   /* lk_now */
#include "levelkit/game.h"
#include "levelkit/rng.h"
#include "levelkit/table.h"

/* The algorithms: X(enum suffix, name, finds optimal solutions). */
#define LK_ALGOS(X)                  \
	X(BFS, "bfs", true)          \
	X(UCS, "ucs", true)          \
	X(ASTAR, "astar", true)      \
	X(GREEDY, "greedy", false)   \
	X(ANY, "any", false)

enum lk_algo {
#define LK_X(id, name, optimal) LK_ALGO_##id,
	LK_ALGOS(LK_X)
#undef LK_X
	LK_ALGO_COUNT,
	/* solve's default, "auto", not one algorithm: A* where the level's
	 * heuristic is a proven lower bound (or it has none: then uniform-cost
	 * search), else a portfolio: A* and breadth-first search forwards in
	 * turns, the first to answer answering, BFS's turns twice as long and
	 * A*'s shrinking while its heuristic leads nowhere, so that a
	 * misleading heuristic costs at most about a third of the time BFS
	 * needs. */
	LK_ALGO_AUTO = LK_ALGO_COUNT
};

const char *lk_algo_name(enum lk_algo algo);
int lk_algo_parse(const char *name, enum lk_algo *algo);
bool lk_algo_optimal(enum lk_algo algo);


/* Which way to search.  Backward search runs on the game's reversed level
 * (game->reverse_level); games without one always search forward. */
enum lk_direction {
	LK_FORWARD,     /* from the start to a goal */
	LK_BACKWARD,    /* from the goals back to the start */
	LK_BOTH         /* both in turns: the first to finish answers; greedy
			 * searches also stop where the two meet */
};
const char *lk_direction_name(enum lk_direction d);
int lk_direction_parse(const char *name, enum lk_direction *d);

struct lk_search_options {
	enum lk_algo algo;
	enum lk_direction direction;
	/* states stored, memory for the table and open list, seconds,
	 * cancellation: a hit bound gives unknown */
	struct lk_bounds bounds;
	uint64_t seed;          /* 0: natural move order; else shuffled */
	/* Optional: a goal state counts only when accept(accept_ctx, key,
	 * cost of the path to it) says so; a goal it turns down ends that
	 * path (a concept query's condition on a whole solution).  Forward
	 * BFS and uniform-cost search only. */
	bool (*accept)(void *ctx, const void *key, unsigned long cost);
	void *accept_ctx;
	/* With cost_limited, uniform-cost and A* search do not follow paths
	 * costing more than cost_limit (their cost so far plus the
	 * heuristic): the search says unsolvable once every cheaper path is
	 * done. */
	bool cost_limited;
	unsigned long cost_limit;
	/* Optional: called now and then (when the clock and *cancel are
	 * looked at, every few hundred states) so that a caller can keep its
	 * progress display alive during one long search.  May be NULL. */
	void (*tick)(void *ctx);
	void *tick_ctx;
	/* A game's own search for any solution (algo any) may run this many
	 * differently configured searches of the level at once, one a thread,
	 * the first answer winning (solve --split; Sokoban only): 0 or 1, one. */
	unsigned split;
	/* Two A* lanes (both directions) stop once a state both hold lies on
	 * a solution no dearer than either lane's bound, a proof that it is
	 * optimal (search.c, note_meeting); no_meeting waits for a lane to
	 * take a goal out of its open list, as before (the rating's A* state
	 * count, a feature of its model, is measured that way). */
	bool no_meeting;
	/* Expansions per turn of two lanes in turns; 0: search.c's SLICE
	 * (tests take short turns, so that small levels see both lanes). */
	unsigned slice;
};

#define LK_SEARCH_OPTIONS_INIT { .algo = LK_ALGO_ASTAR, .direction = LK_FORWARD }

struct lk_search_result {
	enum lk_status status;
	enum lk_limit limit;     /* for LK_UNKNOWN */
	bool optimal;            /* solved by an algorithm that proves optimality */
	unsigned long cost;      /* solution cost in the level's metric */
	size_t nkeys;            /* states on the solution path, start included */
	unsigned char *path;     /* nkeys packed states (owned) */
	uint64_t expanded;       /* states whose successors were generated */
	uint64_t generated;      /* successor states produced, duplicates included */
	uint64_t stored;         /* distinct states in the table */
	size_t peak_bytes;       /* most memory held by the table and open list */
	double overhead_per_state; /* table bytes per state beyond the key */
	double seconds;
	double cpu_seconds;      /* processor time of the searching thread */
	enum lk_direction found_by; /* LK_FORWARD, LK_BACKWARD, or LK_BOTH (met) */
	enum lk_algo algo;       /* the search that answered (auto: A* or BFS) */
	bool portfolio;          /* auto ran A* and BFS in turns */
	/* LK_UNKNOWN from A* with an admissible heuristic or uniform-cost
	 * search: a lower bound on the optimal cost (no solution costs less) */
	bool has_floor;
	unsigned long floor;
	/* the optimal search gave up and the search for any solution ran
	 * after it (lk_search_fallback) */
	bool fallback;
	/* What each of the game's techniques did (lk_game.techniques), in
	 * the order the game lists them. */
	uint64_t technique_counts[LK_MAX_TECHNIQUES];
	/* LK_UNKNOWN from BFS: every state within `depth` edges of the start
	 * (or of the goals, backwards) was generated and tested, so no
	 * solution has that many edges or fewer (Fig. 3.7 of the thesis: "no
	 * solution within 11 moves"); floor is then at least depth + 1 */
	bool has_depth;
	unsigned long depth;
};

void lk_search_result_init(struct lk_search_result *r);
void lk_search_result_release(struct lk_search_result *r);

/* The memory of one search direction: its table, open list and scratch. */
struct lk_open_list;
struct lk_lane {
	struct lk_table table;
	struct lk_open_list *open;
	void *scratch;
	size_t scratch_alloc;
	unsigned char *succ_keys;
	struct lk_edge *edges;
	unsigned *order;
	uint64_t *hashes;      /* best-first: the successors' hashes */
	size_t succ_alloc;     /* bytes in succ_keys */
	size_t succ_slots;     /* entries in edges and order */
	struct lk_rng rng;
};

/* A solver keeps its lanes between searches, so a generator trying
 * thousands of candidates allocates almost nothing. */
struct lk_solver {
	struct lk_lane lane[2];   /* forward, backward */
};

void lk_solver_init(struct lk_solver *s);
void lk_solver_release(struct lk_solver *s);
/* Run one search; r must be initialised (it is released first). */
void lk_solver_run(struct lk_solver *s, const struct lk_level *level,
		   const struct lk_search_options *opt, struct lk_search_result *r);

/*
 * Where an optimal search (r, run with opt) gave up on a bound, and the
 * game has a search for any solution (game->solve_any), run that with the
 * same bounds, unless `off`: a designer gets an answer, not optimal, with
 * the lower bound the first search proved (r->has_floor; a solution no
 * dearer than it is optimal after all).  r keeps
 * the first search's figures when the second one fails too; its state
 * counts add up.  r->fallback says the second search ran.
 */
void lk_search_fallback(struct lk_solver *s, const struct lk_level *level,
			const struct lk_search_options *opt, bool off, struct lk_search_result *r);

/* One-off search with a temporary solver. */
void lk_search(const struct lk_level *level, const struct lk_search_options *opt,
	       struct lk_search_result *r);

#endif
