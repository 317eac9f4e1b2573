/*
 * sokoban_any_areas_order.c - the order area by area solves the areas in
 * (solve -a any; docs/games/sokoban.md, "Area by area" and "Area
 * restarts"): rounds over the areas still to go, farthest first, a round
 * of pairs where a round solves none, and restarts (area-restarts), which
 * go back to the start with an area proved unsolvable taken as one with an
 * area solved before it; these make a pass, and area-restore's second pass
 * runs them again with the boxes near an area restored ("Area restore").
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/clock.h"
#include "sokoban.h"
#include "sokoban_any.h"
#include "sokoban_any_areas.h"

/* Restarts tried, and the states a solve may store in one. */
#define RESTARTS 8
#define RESTART_STATES 8000000

/* Rounds over the areas still to go, farthest first, until one solves
 * none; then a round of pairs, each area with another taken in (Sasquatch
 * III 47: the room in the corner is reached only through another, whose
 * boxes must be shifted on the way, so that neither can be solved alone),
 * and rounds again if that solved one.  Each solve may store `states`.
 * The areas solved are appended to A->solved.  Returns how many; *left_io
 * counts the areas still to go. */
int soko_areas_rounds(struct areas *A, const int *order, int *left_io,
		      const struct lk_search_options *opt, double deadline, uint64_t states,
		      struct lk_search_result *r)
{
	size_t cells = (size_t)A->s->cells;
	int left = *left_io, apart = 0;
	int *keep_goals = lk_xmalloc(cells * sizeof *keep_goals);
	int *keep_boxes = lk_xmalloc(cells * sizeof *keep_boxes);
	bool *keep_done = lk_xmalloc((size_t)A->n * sizeof *keep_done);
	for (bool progress = true, pairs = false; progress && left > 0;) {
		progress = false;
		for (int i = 0; i < A->n && left > 0; i++) {
			int a = order[i];
			for (int j = pairs ? 0 : A->n; j <= A->n && left > 0; j++) {
				int b = j < A->n ? order[j] : -1;
				if (A->done[a] || (pairs && (j == A->n || b == a || A->done[b])))
					continue;
				if (opt->bounds.max_seconds > 0 && lk_now() >= deadline)
					break;
				if (pairs) {
					memcpy(keep_goals, A->goal_area, cells * sizeof *keep_goals);
					memcpy(keep_boxes, A->box_area, cells * sizeof *keep_boxes);
					memcpy(keep_done, A->done, (size_t)A->n * sizeof *keep_done);
					soko_areas_merge(A, a, b);
				}
				if (soko_areas_solve(A, a, opt, deadline, states, r)) {
					A->done[a] = true;
					A->solved[A->nsolved++] = a;
					left -= pairs ? 2 : 1;
					apart++;
					progress = true;
				} else if (pairs) {
					memcpy(A->goal_area, keep_goals, cells * sizeof *keep_goals);
					memcpy(A->box_area, keep_boxes, cells * sizeof *keep_boxes);
					memcpy(A->done, keep_done, (size_t)A->n * sizeof *keep_done);
				}
			}
		}
		if (!progress && !pairs)
			pairs = progress = true;   /* one round of pairs */
		else if (progress)
			pairs = false;
	}
	free(keep_done);
	free(keep_boxes);
	free(keep_goals);
	*left_io = left;
	return apart;
}


void soko_areas_snapshot_take(const struct areas *A, struct snapshot *p)
{
	size_t cells = (size_t)A->s->cells, ks = A->s->base.key_size;
	p->goal_area = lk_xmalloc(cells * sizeof *p->goal_area);
	p->box_area = lk_xmalloc(cells * sizeof *p->box_area);
	p->done = lk_xmalloc((size_t)A->n * sizeof *p->done);
	p->solved = lk_xmalloc((size_t)A->n * sizeof *p->solved);
	p->path = lk_xmalloc(A->nkeys * ks);
	memcpy(p->goal_area, A->goal_area, cells * sizeof *p->goal_area);
	memcpy(p->box_area, A->box_area, cells * sizeof *p->box_area);
	memcpy(p->done, A->done, (size_t)A->n * sizeof *p->done);
	memcpy(p->solved, A->solved, (size_t)A->n * sizeof *p->solved);
	memcpy(p->path, A->path, A->nkeys * ks);
	p->player = A->player;
	p->nsolved = A->nsolved;
	p->nkeys = A->nkeys;
}

void soko_areas_snapshot_restore(struct areas *A, const struct snapshot *p)
{
	size_t cells = (size_t)A->s->cells, ks = A->s->base.key_size;
	memcpy(A->goal_area, p->goal_area, cells * sizeof *p->goal_area);
	memcpy(A->box_area, p->box_area, cells * sizeof *p->box_area);
	memcpy(A->done, p->done, (size_t)A->n * sizeof *p->done);
	memcpy(A->solved, p->solved, (size_t)A->n * sizeof *p->solved);
	A->nkeys = 0;
	for (size_t k = 0; k < p->nkeys; k++)
		soko_areas_add_key(A, p->path + k * ks);
	A->player = p->player;
	A->nsolved = p->nsolved;
}

void soko_areas_snapshot_release(struct snapshot *p)
{
	free(p->goal_area);
	free(p->box_area);
	free(p->done);
	free(p->solved);
	free(p->path);
}

static int count_left(const struct areas *A)
{
	int left = 0;
	for (int a = 0; a < A->n; a++)
		left += !A->done[a];
	return left;
}

/* Boxes of the areas still to go. */
int soko_areas_boxes_left(const struct areas *A)
{
	int n = 0;
	for (int c = 0; c < A->s->cells; c++)
		n += A->box_area[c] >= 0 && !A->done[A->box_area[c]];
	return n;
}

/* Restarts (area-restarts): where the rounds left areas unsolved, an area
 * solved early may be what walls in one proved unsolvable later (Sasquatch
 * III 36: its two side rooms, each solved alone with the other's boxes
 * walls, are unsolvable, since one box of each must end in the other).
 * So each area the rounds proved unsolvable, with each area they solved,
 * in the order solved, is taken as one area from the start, and the
 * rounds run again with RESTART_STATES a solve, until one restart solves
 * every area, RESTARTS are spent or the deadline passes.  The position
 * with the fewest boxes still to go, `first`'s (where the rounds left
 * them) on a tie, is where the areas stand after it (*left_io their
 * count); returns the areas solved to reach it, or 0 for `first`'s. */
int soko_areas_restarts(struct areas *A, const struct snapshot *start,
			const struct snapshot *first, const int *order, int *left_io,
			const struct lk_search_options *opt, double deadline,
			struct lk_search_result *r)
{
	bool *proved = lk_xmalloc((size_t)A->n * sizeof *proved);
	memcpy(proved, A->proved, (size_t)A->n * sizeof *proved);
	struct snapshot best;
	bool better = false;
	int tries = 0, best_apart = 0, best_boxes = soko_areas_boxes_left(A), best_left = *left_io;
	for (int i = 0; i < A->n && tries < RESTARTS; i++) {
		int f = order[i];
		if (first->done[f] || !proved[f])
			continue;
		for (int k = 0; k < first->nsolved && tries < RESTARTS; k++) {
			int d = first->solved[k];
			if (opt->bounds.max_seconds > 0 && lk_now() >= deadline)
				break;
			tries++;
			r->technique_counts[SOKO_T_AREA_RESTARTS]++;
			soko_areas_snapshot_restore(A, start);
			soko_areas_merge(A, d, f);
			int left = count_left(A);
			int apart = soko_areas_rounds(A, order, &left, opt, deadline, RESTART_STATES, r);
			if (left == 0) {
				if (better)
					soko_areas_snapshot_release(&best);
				free(proved);
				*left_io = 0;
				return apart;
			}
			int boxes = soko_areas_boxes_left(A);
			if (apart > 0 && boxes < best_boxes) {
				if (better)
					soko_areas_snapshot_release(&best);
				soko_areas_snapshot_take(A, &best);
				better = true;
				best_boxes = boxes;
				best_apart = apart;
				best_left = left;
			}
		}
	}
	free(proved);
	soko_areas_snapshot_restore(A, better ? &best : first);
	if (better)
		soko_areas_snapshot_release(&best);
	*left_io = best_left;
	return best_apart;
}

/* One pass over the areas from the start: the rounds, then restarts where
 * they leave an area proved unsolvable.  Its deadlines are `scale` times
 * the shares of the time from t0; *deadline is where the areas and the
 * rest after them must stop.  Returns the areas solved, *left_io the
 * count still to go. */
int soko_areas_pass(struct areas *A, const struct snapshot *start, const int *order,
		    int *left_io, const struct lk_search_options *opt, double t0, double scale,
		    double *deadline, struct lk_search_result *r)
{
	double T = opt->bounds.max_seconds * scale;
	*deadline = t0 + T * AREA_TIME_SHARE;
	int apart = soko_areas_rounds(A, order, left_io, opt, *deadline, AREA_STATES, r);
	bool proved_left = false;
	for (int a = 0; a < A->n; a++)
		proved_left |= !A->done[a] && A->proved[a];
	if (*left_io > 0 && apart > 0 && proved_left && A->s->use[SOKO_T_AREA_RESTARTS]) {
		struct snapshot first;
		soko_areas_snapshot_take(A, &first);
		*deadline = t0 + T * RESTART_AREA_SHARE;
		int more = soko_areas_restarts(A, start, &first, order, left_io, opt,
					       t0 + T * RESTART_TIME_SHARE, r);
		if (more > 0)
			apart = more;
		soko_areas_snapshot_release(&first);
	}
	return apart;
}

/* area-restore's pass: where the pass without it and the rest after it
 * did not solve the level, a second pass from the start in which an area
 * whose level is dead or proved unsolvable is solved again with the boxes
 * near it restored (soko_areas_solve).  It runs after the first pass and
 * its rest, not in them, so that a level they solve keeps its course and
 * its time (Sasquatch II 40: restoring in the first rounds changes which
 * areas they solve, and the rest after them no longer answers; I 38 and
 * II 21 took 8 to 10 s more with a second pass before the rest), and
 * only where the first pass solved some area (soko_any_areas: where it
 * solved none, the areas do not come apart at all, and the search of the
 * whole level is what solves such levels, I 38 and II 21).  It takes
 * RESTORE_PASS_SHARE of the time from where it starts.  Its position
 * is kept when it solved every area or left fewer boxes to go than the
 * first pass (returns the areas it solved, *left_io the count still to
 * go); otherwise the first pass's stands (returns 0). */
int soko_areas_restore_pass(struct areas *A, const struct snapshot *start, const int *order,
			    int *left_io, const struct lk_search_options *opt, double *deadline,
			    struct lk_search_result *r)
{
	struct snapshot plain;
	soko_areas_snapshot_take(A, &plain);
	bool *proved = lk_xmalloc((size_t)A->n * sizeof *proved);
	memcpy(proved, A->proved, (size_t)A->n * sizeof *proved);
	int plain_boxes = soko_areas_boxes_left(A);
	soko_areas_snapshot_restore(A, start);
	memset(A->proved, 0, (size_t)A->n * sizeof *A->proved);
	int left = count_left(A);
	double pass_deadline;
	A->may_restore = true;
	int got = soko_areas_pass(A, start, order, &left, opt, lk_now(), RESTORE_PASS_SHARE,
				  &pass_deadline, r);
	A->may_restore = false;
	if (pass_deadline > *deadline)
		*deadline = pass_deadline;
	if (got > 0 && (left == 0 || soko_areas_boxes_left(A) < plain_boxes)) {
		*left_io = left;
	} else {
		got = 0;
		soko_areas_snapshot_restore(A, &plain);
		memcpy(A->proved, proved, (size_t)A->n * sizeof *proved);
	}
	free(proved);
	soko_areas_snapshot_release(&plain);
	return got;
}
