/*
 * sokoban_any_areas.h - the working state of area by area
 * (sokoban_any_areas.c: the areas, their levels and the path joined from
 * them), shared with the order the areas are solved in
 * (sokoban_any_areas_order.c: rounds, pairs and restarts).  Private to
 * those two files.
 */
#ifndef SOKOBAN_ANY_AREAS_H
#define SOKOBAN_ANY_AREAS_H

#include "sokoban_any.h"

struct areas {
	const struct sokoban *s;
	int n;               /* areas */
	int *goal_area;      /* per cell: the area of the goal there, or -1 */
	int *box_area;       /* per cell: the area of the box there, or -1 */
	bool *done;
	int *solved;         /* the areas solved, in order (rounds) */
	bool *proved;        /* areas whose level was proved unsolvable */
	int nsolved;
	int player;          /* cell */
	/* level_of and append: the boxes of the other areas still to go are
	 * in the level, each on a goal of its own square, not walls
	 * (area-restore) */
	bool restore;
	uint8_t *near;       /* per cell: near the area restored (near_area) */
	/* the path so far: keys of the level, start first */
	unsigned char *path;
	size_t nkeys, alloc;
	/* the technique switches for the levels made here */
	const char *off[SOKO_NTECH + 1], *on[SOKO_NTECH + 1];
	struct lk_level_options lopt;
	void *block;         /* a scratch of the level, for the player's reach */
	struct soko_scratch *sc;
};

/* Where the areas stand: enough to go back to it. */
struct snapshot {
	int *goal_area, *box_area;
	bool *done;
	int player, nsolved;
	int *solved;
	unsigned char *path;
	size_t nkeys;
};

/* sokoban_any_areas.c */
/* Merge area b into area a: b's boxes and goals are a's, b counts as
 * done. */
void soko_areas_merge(struct areas *A, int a, int b);
/* Solve one area's level, storing at most `states`; true when it did and
 * the path went on.  An area proved unsolvable is marked in A->proved. */
bool soko_areas_solve(struct areas *A, int area, const struct lk_search_options *opt,
		      double deadline, uint64_t states, struct lk_search_result *spent);
void soko_areas_add_key(struct areas *A, const unsigned char *key);

/* sokoban_any_areas_order.c */
int soko_areas_rounds(struct areas *A, const int *order, int *left_io,
		      const struct lk_search_options *opt, double deadline, uint64_t states,
		      struct lk_search_result *r);
void soko_areas_snapshot_take(const struct areas *A, struct snapshot *p);
void soko_areas_snapshot_release(struct snapshot *p);
int soko_areas_restarts(struct areas *A, const struct snapshot *start,
			const struct snapshot *first, const int *order, int *left_io,
			const struct lk_search_options *opt, double deadline,
			struct lk_search_result *r);

#endif
