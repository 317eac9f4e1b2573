/*
 * sokoban_any_areas_order.c - the order area by area solves the areas in
 * (solve -a any; docs/games/sokoban.md, "Area by area" and "Area
 * restarts"): rounds over the areas still to go, farthest first, a round
 * of pairs where a round solves none, and restarts (area-restarts), which
 * go back to the start with an area proved unsolvable taken as one with an
 * area solved before it.
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

static void snapshot_restore(struct areas *A, const struct snapshot *p)
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
static int boxes_left(const struct areas *A)
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
	int tries = 0, best_apart = 0, best_boxes = boxes_left(A), best_left = *left_io;
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
			snapshot_restore(A, start);
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
			int boxes = boxes_left(A);
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
	snapshot_restore(A, better ? &best : first);
	if (better)
		soko_areas_snapshot_release(&best);
	*left_io = best_left;
	return best_apart;
}
