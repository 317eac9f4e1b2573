/*
 * progression.c - a level progression: n levels of a rated pack in an
 * order whose difficulty rises with dips (progression.h).
 */
#include "levelkit/progression.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "levelkit/assign.h"
#include "levelkit/strbuf.h"

double lk_progression_target(size_t i, size_t n, size_t chapter)
{
	if (n <= 1)
		return 1.0;
	double base = (double)i / (double)(n - 1);
	if (chapter <= 1)
		return base;
	/* within a chapter: how far along it this place is (the last
	 * chapter may be shorter: it still ends on its own top) */
	size_t first = i / chapter * chapter, last = first + chapter - 1;
	if (last > n - 1)
		last = n - 1;
	double along = last > first ? (double)(i - first) / (double)(last - first) : 1.0;
	return (1.0 - LK_PROGRESSION_SWING) * base + LK_PROGRESSION_SWING * along;
}

struct ranked {
	double d;
	size_t index;
};

static int by_difficulty(const void *va, const void *vb)
{
	const struct ranked *a = va, *b = vb;
	if (a->d != b->d)
		return a->d < b->d ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

size_t lk_progression(const double *difficulty, size_t count, size_t n, size_t chapter,
		      size_t *out)
{
	if (count == 0 || n == 0)
		return 0;
	/* each level's rank in the pack, 0 the easiest */
	struct ranked *r = lk_xmalloc(count * sizeof *r);
	for (size_t k = 0; k < count; k++)
		r[k] = (struct ranked){ difficulty[k], k };
	qsort(r, count, sizeof *r, by_difficulty);
	/* rows the smaller side: places when levels are plenty, else levels */
	bool by_place = n <= count;
	int rows = (int)(by_place ? n : count), cols = (int)(by_place ? count : n);
	int *cost = lk_xmalloc((size_t)rows * (size_t)cols * sizeof *cost);
	for (size_t p = 0; p < n; p++) {
		double target = lk_progression_target(p, n, chapter) * (double)(count - 1);
		for (size_t k = 0; k < count; k++) {
			/* the distance in ranks, as a share of the pack in
			 * 1/100000 (within lk_assign's costs for any pack) */
			double share = count > 1 ? fabs((double)k - target) / (double)(count - 1) : 0.0;
			int c = (int)lround(share * 100000.0);
			if (by_place)
				cost[p * count + k] = c;
			else
				cost[k * n + p] = c;
		}
	}
	int *work = lk_xmalloc(lk_assign_work(rows, cols) * sizeof *work);
	lk_assign(cost, rows, cols, work);
	/* lk_assign leaves, after its row and column potentials, the row
	 * (1-based, 0 none) that holds each column (1-based) */
	const int *holder = lk_assign_holders(work, rows, cols);
	size_t *at = lk_xmalloc(n * sizeof *at);   /* place -> rank, or count */
	for (size_t p = 0; p < n; p++)
		at[p] = count;
	for (int j = 1; j <= cols; j++) {
		if (!holder[j])
			continue;
		size_t row = (size_t)holder[j] - 1, col = (size_t)j - 1;
		if (by_place)
			at[row] = col;
		else
			at[col] = row;
	}
	size_t w = 0;
	for (size_t p = 0; p < n; p++)
		if (at[p] < count)
			out[w++] = r[at[p]].index;
	free(at);
	free(work);
	free(cost);
	free(r);
	return w;
}
