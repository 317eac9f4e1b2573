/*
 * rating.h - levelkit's rating: an estimate of how hard a level is for a
 * person, on one scale for every game (docs/rating.md).
 *
 * The rating is a weighted sum of features of the level that any game
 * yields through the game interface: the length of its solution, how far
 * the heuristic's bound at the start falls short of it, how many solution
 * steps do not lower that bound, how much search shuffled greedy solves
 * and A* need, how often the solution changes the object it moves, how
 * many objects it must juggle at once, how much of what A* saw it had to
 * expand, how unlikely a soft greedy walker is to win (on the part of the
 * state graph it is likeliest to see, rating_walker.c), how few distinct
 * shortest solutions there are (on a whole graph small enough), and the
 * size of the board and the number of pieces (a game's own hook).  Further
 * features (the whole state graph's dead ends, traps and bottlenecks) are
 * computed on request (--features) for
 * bench/rating_fit.py, which fits the weights on ../shared/data and
 * writes them into src/search/rating_model.c, the one place they live.
 *
 * Every feature is known exactly, as a lower or an upper bound (a search
 * that hit its bound), or not at all; a rating from features that are not
 * all exact is the lower bound they allow, written `rating: >= 8.2`.
 */
#ifndef LEVELKIT_RATING_H
#define LEVELKIT_RATING_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/difficulty.h"
#include "levelkit/search.h"
#include "levelkit/strbuf.h"

/*
 * The features: X(enum suffix, field name, unit for --explain, what it is).
 * The first group is what rate computes for every rating (the walker and
 * the scarcity of solutions when the model weighs them; the scarcity needs
 * the whole graph, up to LK_RATING_GRAPH_STATES states, and is unknown
 * beyond); the rest only with --features (lk_feature_options.graph_states).
 */
#define LK_FEATURES(X)                                                                       \
	X(LENGTH, "length", "", "optimal solution length in the level's metric")             \
	X(INPUTS, "inputs", "inputs", "player inputs of that solution")                      \
	X(BOUND, "bound", "", "the heuristic's lower bound at the start")                    \
	X(SLACK, "slack", "", "solution length beyond that bound")                           \
	X(UPHILL, "uphill", "steps", "solution steps that raise the bound (away from the goals)") \
	X(AGAINST, "against", "steps", "solution steps greedy search would rank below another") \
	X(BRANCHING, "branching", "", "mean choices at a step of the solution")              \
	X(EFFORT, "effort", "states", "mean states of the first shuffled greedy solves")     \
	X(SPREAD, "spread", "", "their standard deviation over their mean")                  \
	X(DETOUR, "detour", "", "their solutions' mean length beyond the optimum")           \
	X(GREEDY_EXCESS, "greedy-excess", "", "greedy search's solution beyond the optimum (forwards)") \
	X(ASTAR, "astar", "states", "states the optimal solve expanded")                     \
	X(BFS, "bfs", "states", "states breadth-first search expanded (MixedAim's count)")   \
	X(OBJECTS, "objects", "", "pieces that move (the game's count)")                     \
	X(CELLS, "cells", "cells", "cells of the board a player takes in (the game's count)") \
	X(DENSITY, "density", "", "pieces per cell: how crowded the board is")              \
	X(NARROW, "narrow", "", "cell sides facing a wall, per cell: how corridor-like the board is") \
	X(MOVED, "moved", "", "objects the solution moves (games that track them)")          \
	X(SESSIONS, "sessions", "", "runs of moves of one object in the solution")           \
	X(JUGGLE, "juggle", "objects", "most objects left part-way while another moves (juggled together)") \
	X(EXPAND_SHARE, "expand-share", "", "share of the states the optimal solve generated that it expanded") \
	X(WALKER, "walker", "", "-log10 of a soft greedy walker's chance to win (bounded graph)") \
	X(SCARCITY, "scarcity", "", "6 - log10 of the shortest solutions up to the order of independent moves, at least 0 (whole graph)") \
	X(REACHABLE, "reachable", "states", "states reachable from the start")               \
	X(DEAD_SHARE, "dead-share", "", "share of reachable states that are dead ends")      \
	X(SOLUTIONS, "solutions", "", "distinct shortest solutions")                         \
	X(TRACES, "traces", "", "shortest solutions up to the order of independent moves")  \
	X(TRAPS, "traps", "", "sibling moves of the solution into dead ends")                \
	X(DETOURS, "detours", "", "live sibling moves of the solution off every shortest one") \
	X(WIDTH, "width", "", "fewest states at one depth of the shortest solutions")        \
	X(COMMITS, "commits", "", "irreversible steps of the solution")                      \
	X(GREEDY_TRAP, "greedy-trap", "", "share of live states whose best-ranked move is dead")

enum lk_feature {
#define LK_X(id, name, unit, what) LK_F_##id,
	LK_FEATURES(LK_X)
#undef LK_X
	LK_F_COUNT
};

/* The first feature computed only with --features. */
#define LK_F_FIRST_GRAPH LK_F_REACHABLE

const char *lk_feature_name(enum lk_feature f);
const char *lk_feature_field(enum lk_feature f);   /* "f-NAME" */
const char *lk_feature_unit(enum lk_feature f);
const char *lk_feature_what(enum lk_feature f);

/* How well a value is known: not at all (a search hit its bound), exactly,
 * as a bound; or the game has no such thing (no heuristic, no objects it
 * tracks), and the model assumes a typical value. */
enum lk_known { LK_KNOWN_NOT, LK_KNOWN_EXACT, LK_KNOWN_AT_LEAST, LK_KNOWN_AT_MOST,
		LK_KNOWN_ABSENT };

struct lk_features {
	enum lk_known how[LK_F_COUNT];
	double value[LK_F_COUNT];
	unsigned limits;   /* bounds the features' own searches hit (LK_LIMIT_BIT) */
};

void lk_features_init(struct lk_features *f);
void lk_feature_set(struct lk_features *f, enum lk_feature id, enum lk_known how, double v);

/* Shuffled greedy solves the effort feature averages (the first of the
 * multiple method's runs when rate makes them with greedy search). */
#define LK_EFFORT_RUNS 10

/* The graph features' bound on the states explored (rate --features). */
#define LK_RATING_GRAPH_STATES 200000
/* The walker's graph: explored most likely first up to this many states,
 * the states left unexpanded counted as won (rating_walker.c). */
#define LK_RATING_WALKER_STATES 200000

struct lk_feature_options {
	struct lk_search_options search;  /* bounds of any search still needed */
	uint64_t seed;                    /* of the effort runs (rate's --seed) */
	/* with --features: explore the whole graph up to this many states
	 * for the graph features (0: not) */
	uint64_t graph_states;
};

/*
 * The features of a state-space level that lk_rate has rated (r: its
 * optimal solve, MixedAim's counts, the shuffled runs, whichever ran):
 * the solution is walked step by step, the effort runs are made if rate
 * did not make them, and with graph_states the whole graph is explored.
 * solver is reused for the searches.
 */
void lk_features_compute(struct lk_solver *solver, const struct lk_level *level,
			 const struct lk_rating *r, const struct lk_feature_options *o,
			 struct lk_features *out);
/* The graph features (rating_graph.c): path is the solution (start first). */
void lk_features_graph(const struct lk_level *level, const struct lk_search_options *search,
		       uint64_t max_states, const unsigned char *path, size_t nkeys,
		       struct lk_features *out);
/* Of the graph's features only the scarcity (and the counts it is read
 * from, solutions and traces, and width), as every rating needs it when the
 * model weighs it: the same exploration, without the rest's work. */
void lk_features_scarcity(const struct lk_level *level, const struct lk_search_options *search,
			  uint64_t max_states, struct lk_features *out);
/* The walker (rating_walker.c), on the graph explored most likely first up to
 * max_states states, its unexpanded states counted as won; its horizon is
 * twice the shortest solution's steps: the graph's nearest win, else
 * solution_steps (0: none known), taken as the shortest when
 * steps_shortest, else as a bound (the feature is then a lower bound). */
void lk_features_walker(const struct lk_level *level, const struct lk_search_options *search,
			uint64_t max_states, unsigned solution_steps, bool steps_shortest,
			struct lk_features *out);
/* Two features' arithmetic, for their hand-worked tests: the most other
 * objects left part-way while one moves, over the sequence of the moved
 * objects (ids below nobjects), and expanded over generated (0 of none). */
unsigned lk_rating_juggle(const uint16_t *seq, size_t n, size_t nobjects);
/* The scarcity of a count of shortest solutions (up to the order of
 * independent moves): 6 - log10 of it, at least 0. */
double lk_rating_scarcity(double solutions);
double lk_rating_expand_share(uint64_t expanded, uint64_t generated);
/* The shortest solutions of a whole graph (explored from the start, entry
 * 0) counted up to the order of independent moves (rating_traces.c says
 * what is counted and how): togo[v] is v's edges to its nearest win
 * (UINT32_MAX from a dead end), shortest the nearest win's depth.  False
 * (count unknown) when more than max_entries (state, sleeping moves) pairs
 * were needed. */
#define LK_RATING_TRACE_ENTRIES ((size_t)1 << 21)
struct lk_graph;
bool lk_rating_traces(const struct lk_level *level, const struct lk_graph *g,
		      const uint32_t *togo, uint32_t shortest, size_t max_entries, double *count);
/* A constraint game's features, from its rating (lk_csp_rate). */
void lk_features_csp(const struct lk_level *level, const struct lk_csp_rating *r,
		     struct lk_features *out);

/* ------------------------------------------------------------ the score */

struct lk_score {
	enum lk_known how;          /* EXACT, AT_LEAST, or NOT (no solution) */
	double rating;              /* the rating, or its lower bound */
	double base;                /* the scale's offset, which the parts add to */
	/* each feature's share of it (0 for features outside the model) and
	 * whether the model had to assume its value (a game without it) */
	double part[LK_F_COUNT];
	bool assumed[LK_F_COUNT];
};

/* The rating of features (rating_model.c).  A level not known to be
 * solvable has no rating (how NOT) unless bounds give a lower bound. */
void lk_score(const struct lk_features *f, bool solvable_known, struct lk_score *out);
/* Whether a feature has a weight in the model. */
bool lk_feature_in_model(enum lk_feature f);

#endif
