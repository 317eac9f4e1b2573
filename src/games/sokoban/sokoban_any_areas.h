/*
 * sokoban_any_areas.h - the working state of area by area
 * (sokoban_any_areas.c: the areas, their levels and the path joined from
 * them), shared with the order the areas are solved in
 * (sokoban_any_areas_order.c: rounds, pairs, restarts and the passes).
 * Private to those two files.
 */
#ifndef SOKOBAN_ANY_AREAS_H
#define SOKOBAN_ANY_AREAS_H

#include "sokoban_any.h"

/* States an area's level may store. */
#define AREA_STATES 100000
/* The share of the time left the areas and the rest after them may take
 * before the search of the whole level goes on. */
#define AREA_TIME_SHARE 0.34
/* Where restarts run, the share of the time left they may take, and the
 * share the areas may take in all (the rest after them included). */
#define RESTART_TIME_SHARE 0.45
#define RESTART_AREA_SHARE 0.5
/* area-restore's second pass: its share of the time, from where it starts
 * (the shares above are taken of this), and the share of the time after
 * which it no longer starts */
#define RESTORE_PASS_SHARE 0.5
#define RESTORE_PASS_BEFORE 0.6

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
	/* soko_areas_solve may restore (area-restore's pass) */
	bool may_restore;
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
void soko_areas_snapshot_restore(struct areas *A, const struct snapshot *p);
/* Boxes of the areas still to go. */
int soko_areas_boxes_left(const struct areas *A);
int soko_areas_restarts(struct areas *A, const struct snapshot *start,
			const struct snapshot *first, const int *order, int *left_io,
			const struct lk_search_options *opt, double deadline,
			struct lk_search_result *r);
/* A pass from the start: the rounds, then restarts where they leave an
 * area proved unsolvable, within `scale` times the shares above of the
 * time from t0 (*deadline: where the rest after it must stop). */
int soko_areas_pass(struct areas *A, const struct snapshot *start, const int *order,
		    int *left_io, const struct lk_search_options *opt, double t0, double scale,
		    double *deadline, struct lk_search_result *r);
/* area-restore's second pass (sokoban_any_areas_order.c says when it runs
 * and what it keeps); the areas it solved, 0 where the first pass's
 * position stands. */
int soko_areas_restore_pass(struct areas *A, const struct snapshot *start, const int *order,
			    int *left_io, const struct lk_search_options *opt, double *deadline,
			    struct lk_search_result *r);

#endif
