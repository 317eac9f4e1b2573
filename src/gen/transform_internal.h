/*
 * transform_internal.h - what the transformer's climb (transform.c) and
 * its suggestions (transform_suggest.c) share: a run's state, mutation
 * and the evaluation of a candidate.
 */
#ifndef LEVELKIT_GEN_TRANSFORM_INTERNAL_H
#define LEVELKIT_GEN_TRANSFORM_INTERNAL_H

#include "levelkit/search.h"
#include "levelkit/transform.h"

struct lk_transform {
	const struct lk_transform_ops *ops;
	void *gs;                   /* the game's side */
	const struct lk_legend *legend;
	struct lk_rules *rules;
	struct lk_cells start;      /* --from, or no cells for random rooms */
	uint8_t *frozen;
	long steps;
	int width, height, words;
	const char *count_fact;     /* evaluate counts this fact over the solution */
};

/* OUT_SOLVED_START: the level is solved before any move, no puzzle. */
enum outcome { OUT_INVALID, OUT_UNSOLVABLE, OUT_TIMEOUT, OUT_SOLVED_START, OUT_SOLVED };

struct evaluation {
	enum outcome outcome;
	enum lk_limit limit;      /* for OUT_TIMEOUT: the bound that was hit */
	/* MixedAim's: fewest states explored; A*'s alone (an upper bound)
	 * until transform_complete ran BFS and greedy too */
	uint64_t difficulty;
	bool complete;
	bool bounded;             /* BFS or greedy stopped: difficulty an upper bound */
	uint64_t fact_count;      /* the solution's count of t->count_fact */
	double seconds;           /* of the A* solve */
	struct lk_record rec;     /* the level and its fields */
	struct lk_strbuf canonical;
};

void lk_transform_evaluation_release(struct evaluation *e);

/* The climb's starting cells: --from, or a random room. */
void lk_transform_start(const struct lk_transform *t, struct lk_rng *rng, struct lk_cells *c);
void lk_transform_copy_cells(struct lk_cells *dst, const struct lk_cells *src);
/* One mutation of cur into next; false if the rules changed nothing. */
bool lk_transform_mutate(const struct lk_transform *t, const struct lk_cells *cur,
			 struct lk_cells *next, struct lk_rng *rng);
/* Solve cells in the options' state space with A* (its count is an
 * upper bound of MixedAim's difficulty). */
void lk_transform_evaluate(const struct lk_transform *t, struct lk_solver *solver,
			   const struct lk_cells *c, const struct lk_level_options *lo,
			   const struct lk_search_options *bounds, struct evaluation *e);
/* Run BFS and greedy too, for MixedAim's difficulty (the fewest of the
 * three), as the thesis does only for a level that might rank. */
void lk_transform_complete(const struct lk_transform *t, struct lk_solver *solver,
			   const struct lk_level_options *lo,
			   const struct lk_search_options *bounds, struct evaluation *e);

#endif
