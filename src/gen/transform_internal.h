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
};

/* OUT_SOLVED_START: the level is solved before any move, no puzzle. */
enum outcome { OUT_INVALID, OUT_UNSOLVABLE, OUT_TIMEOUT, OUT_SOLVED_START, OUT_SOLVED };

struct evaluation {
	enum outcome outcome;
	enum lk_limit limit;      /* for OUT_TIMEOUT: the bound that was hit */
	uint64_t difficulty;      /* MixedAim's: fewest states explored */
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
/* Solve cells in the options' state space; run BFS and greedy too when
 * A*'s count exceeds `worth` (then the level might rank: MixedAim's
 * difficulty can only be lower). */
void lk_transform_evaluate(const struct lk_transform *t, struct lk_solver *solver,
			   const struct lk_cells *c, const struct lk_level_options *lo,
			   const struct lk_search_options *bounds, uint64_t worth,
			   struct evaluation *e);

#endif
