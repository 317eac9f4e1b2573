/*
 * comb_draft.h - a Combination level while a generator builds it
 * (comb_draft.c): its grid, its pieces, the solutions it is known to have,
 * and the questions the generators ask of it.
 */
#ifndef LEVELKIT_COMB_DRAFT_H
#define LEVELKIT_COMB_DRAFT_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/generate.h"
#include "levelkit/record.h"

#define DRAFT_MAX_SIDE 16
#define DRAFT_CELLS (DRAFT_MAX_SIDE * DRAFT_MAX_SIDE)
#define DRAFT_COLOURS 8

struct draft {
	int w, h;
	char cells[DRAFT_CELLS];         /* '.' square, '#' wall, 'o' hole */
	int count[DRAFT_COLOURS][3];      /* pieces per colour and kind */
	int total;                        /* pieces in all */
};

/* A placement: colour * 3 + kind per cell, or -1. */
typedef int8_t draft_placement[DRAFT_CELLS];

void comb_draft_record(const struct draft *d, struct lk_record *rec);

/* What counting a draft found (the fast model, up to two solutions). */
struct draft_count {
	uint64_t solutions;               /* 0, 1 or 2 */
	bool exact;                       /* the search ended: the count is exact */
	draft_placement first, second;    /* the solutions found */
};

/* Count the draft's solutions up to two, within max_nodes: 0, or -1 when
 * the draft is not a level (no squares for its pieces). */
int comb_draft_count(const struct draft *d, const struct lk_gen_options *o, uint64_t max_nodes,
		struct draft_count *c);
/* The paper's multiple method on a solvable draft: the mean nodes of
 * `runs` runs in its measure model (lk_csp_difficulty). */
int comb_draft_difficulty(const struct draft *d, const struct lk_gen_options *o, long runs,
		     uint64_t seed, double *mean);

/* May a piece of colour c and kind k stand on cell `at` beside the pieces
 * of placement p without attacking or being attacked? */
bool comb_draft_fits(const struct draft *d, const int8_t *p, int at, int c, int k);

/* The paper's prettiness, which changes no solution: lines of walls and
 * holes along an edge go, and walls that can block no ray become holes. */
void comb_draft_prettify(struct draft *d);

#endif
