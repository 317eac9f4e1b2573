/*
 * difficulty.h - rating a level: is it solvable, how long is its optimal
 * solution, and how hard is it, measured two ways from the seeds.
 *
 *  MixedAim (De Keyser, 3.3): difficulty = the fewest states any of
 *  breadth-first, A* and greedy search explores before it finds a
 *  solution.
 *
 *  Combination's "multiple method" (Jefferson et al., 5): the mean, over K
 *  solves whose move order is shuffled by K different seeds, of the states
 *  explored, with the standard deviation to show how stable the mean is.
 *
 * Both count expanded states.  The grade bands (one X-macro list) are
 * read off the rating (rating.h), not off these counts.
 */
#ifndef LEVELKIT_DIFFICULTY_H
#define LEVELKIT_DIFFICULTY_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/csp.h"
#include "levelkit/search.h"

/* Grades: X(enum suffix, name, rating (rating.h) below which it applies). */
#define LK_GRADES(X)                    \
	X(TRIVIAL, "trivial", 1.0)      \
	X(EASY, "easy", 3.0)            \
	X(MEDIUM, "medium", 5.0)        \
	X(HARD, "hard", 7.0)            \
	X(VERY_HARD, "very-hard", 9.0)  \
	X(EXTREME, "extreme", 1e300)

enum lk_grade {
#define LK_X(id, name, below) LK_GRADE_##id,
	LK_GRADES(LK_X)
#undef LK_X
	LK_GRADE_COUNT
};

const char *lk_grade_name(enum lk_grade grade);
enum lk_grade lk_grade_of(double rating);

struct lk_rate_options {
	struct lk_search_options search;  /* bounds for every single solve */
	bool mixedaim;                    /* run the three MixedAim solvers */
	unsigned runs;                    /* K for the multiple method; 0 = skip */
	enum lk_algo runs_algo;           /* solver whose move order is shuffled */
	uint64_t seed;                    /* seeds of the K runs derive from it */
	bool single;                      /* the "single method" instead: one
					   * solve in the natural move order */
	bool no_fallback;                 /* no search for any solution (the
					   * game's solve_any) when every other
					   * search gave up */
};

void lk_rate_options_init(struct lk_rate_options *o);

/* A set of bounds hit (enum lk_limit): bit LK_LIMIT_BIT(limit) per bound. */
#define LK_LIMIT_BIT(limit) (1u << (unsigned)(limit))

struct lk_rating {
	/* the solve with search.algo (A* by default; BFS if the game has no
	 * admissible heuristic) */
	struct lk_search_result optimal;
	/* When the optimal solve did not solve the level: the best solution
	 * any other search found (status LK_SOLVED then; proved optimal ones
	 * first, then the cheapest), else status LK_UNKNOWN. */
	struct lk_search_result other;
	bool unsolvable;                  /* some search exhausted the level: a proof */
	/* the best lower bound on the optimal cost that a stopped A* (with
	 * an admissible heuristic) or uniform-cost search left */
	bool has_floor;
	unsigned long floor;
	/* the deepest layer a stopped BFS finished: no solution that short */
	bool has_depth;
	unsigned long depth;
	/* MixedAim: per algorithm, whether it ran, its status, and the states
	 * it explored (to its solution, or before its bound) */
	bool have_mixedaim;
	bool ran[LK_ALGO_COUNT];
	enum lk_status status[LK_ALGO_COUNT];
	uint64_t explored[LK_ALGO_COUNT];
	bool min_known;                   /* some solver solved it */
	uint64_t min_explored;
	/* the multiple method: runs_wanted asked for (1 with single), runs
	 * made; mean and sd over the solved runs; bound the sum of the states
	 * every run made explored (an unsolved one's before its bound) over
	 * runs_wanted: a lower bound of the mean of all the runs asked for,
	 * had they been made and finished (the mean when they all solved
	 * the level) */
	unsigned runs_wanted, runs, runs_solved, runs_unknown;
	double mean, sd, bound;
	bool single;                      /* mean is the single method's count */
	/* every bound any of the searches hit (LK_LIMIT_BIT) */
	unsigned limits;
	/* the first LK_EFFORT_RUNS (rating.h) runs, when they were shuffled
	 * greedy solves: how many were made and solved, and the states they
	 * expanded (an unsolved one's before its bound) */
	bool effort_runs;
	unsigned effort_made, effort_solved;
	double effort_sum, effort_sq;
	double effort_cost;               /* the solved ones' solution costs, summed */
	/* the cost of the solution each of MixedAim's solvers found */
	unsigned long cost[LK_ALGO_COUNT];
};

void lk_rating_init(struct lk_rating *r);
void lk_rating_release(struct lk_rating *r);

/* Rate a level; the solver's memory is reused across the many searches. */
void lk_rate(struct lk_solver *solver, const struct lk_level *level,
	     const struct lk_rate_options *opt, struct lk_rating *r);

/* ---------------------------------------------- constraint games */

/*
 * Combination's difficulty (Jefferson et al. 2008, section 5): the mean
 * and standard deviation of the nodes of `runs` solves (to the first
 * solution) with the variables in random orders, counted in the game's
 * measure model (csp->measure: the paper's own model) in fixed orders.
 * As the paper does, SAC and the GCC are used, and when the level then
 * takes fewer than 500 nodes on average they are turned off for a finer
 * figure.  *single is the nodes of one solve in the static order (the
 * "single method", with the same cut-off).  The solutions are counted by
 * csp->solve as `base` configures it.
 */
struct lk_csp_rating {
	enum lk_status status;       /* of the counting solve */
	uint64_t solutions;          /* capped by the count limit */
	bool exhausted;
	uint64_t single;             /* nodes, static order */
	double mean, sd;
	/* runs asked for, made, solved; mean and sd over the solved ones;
	 * bound the nodes of every run made (an unsolved one's before its
	 * bound) over the runs asked for: a lower bound, as struct
	 * lk_rating's */
	unsigned runs_wanted, runs, runs_solved;
	double bound;
	bool fine;                   /* SAC and GCC were off for the runs */
	bool single_method;          /* mean is `single` (lk_csp_rate_single) */
	enum lk_limit limit;         /* the counting solve's, when it was unknown */
	unsigned limits;             /* every bound any search hit (LK_LIMIT_BIT) */
};

/* A level the counting solve left undecided is still run (the runs give a
 * lower bound), unless three runs in a row fail with none solved. */
void lk_csp_rate(const struct lk_level *level, const struct lk_csp_options *base, unsigned runs,
		 uint64_t seed, struct lk_csp_rating *out);
/* The same, and the counting solve's first solution into solution (left
 * empty when it found none); solution may be NULL. */
void lk_csp_rate_solution(const struct lk_level *level, const struct lk_csp_options *base,
			  unsigned runs, uint64_t seed, struct lk_csp_rating *out,
			  struct lk_strbuf *solution);
/* The multiple method alone, for a level known to be solvable (a
 * generator's difficulty climb): mean, sd, runs, runs_solved, bound,
 * limits and fine are set; runs = 0 is one run in the static order. */
void lk_csp_difficulty(const struct lk_level *level, const struct lk_csp_options *base,
		       unsigned runs, uint64_t seed, struct lk_csp_rating *out);
/* The paper's "single method": the difficulty is the nodes of one solve in
 * the static order (with the same 500-node cut-off), no runs. */
void lk_csp_rate_single(const struct lk_level *level, const struct lk_csp_options *base,
			struct lk_csp_rating *out);
void lk_csp_rate_single_solution(const struct lk_level *level, const struct lk_csp_options *base,
				 struct lk_csp_rating *out, struct lk_strbuf *solution);

#endif
