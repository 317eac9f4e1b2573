/*
 * sokoban_matching.c - the matching bound's assignment, warm-started from
 * the previous state's.
 *
 * A* evaluates the children of one state one after another, and two of
 * them differ in where one or two boxes stand.  The Hungarian algorithm
 * (src/core/assign.c) builds the least-cost assignment of boxes to goals
 * row by row, each row by one shortest augmenting path over reduced costs,
 * O(n^2 m) in all.  Here the previous state's solution is kept (its boxes,
 * the row and column potentials u and v, the column each row took): the
 * rows of boxes that did not move keep their column when it is still tight
 * (their u is recomputed as the least reduced cost, which keeps every
 * reduced cost non-negative), and only the other rows are augmented, one
 * path each, O(m^2) a row.  With as many boxes as goals every column ends
 * up taken, so dual feasibility and tight assigned pairs make the result
 * optimal: the same value as the full algorithm, which the test suite
 * checks (tests/test_sokoban_techniques.c runs every level both ways).
 * With more goals than boxes (a column may stay free, where the full
 * algorithm's potentials must stay at 0), and when more than WARM_ROWS rows
 * changed, the full algorithm runs.
 */
#include <limits.h>
#include <string.h>

#include "levelkit/assign.h"
#include "sokoban.h"

/* Rows augmented at most before the full algorithm is cheaper. */
#define WARM_ROWS 3

/* Keep the solution in work (lk_assign's layout) for the next call. */
static void save(struct soko_scratch *sc, int n, int m, const int *work)
{
	const int *u = work, *v = u + n + 1, *p = v + m + 1;
	memcpy(sc->warm_u, u, (size_t)(n + 1) * sizeof *u);
	memcpy(sc->warm_v, v, (size_t)(m + 1) * sizeof *v);
	memcpy(sc->warm_p, p, (size_t)(m + 1) * sizeof *p);
	memcpy(sc->warm_boxes, sc->boxes, (size_t)n * sizeof *sc->boxes);
	sc->warm_n = n;
}

long soko_matching(struct soko_scratch *sc, int n, int m)
{
	const int *cost = sc->cost;
	int *work = sc->hung;
	int *u = work, *v = u + n + 1, *p = v + m + 1, *way = p + m + 1;
	int *minv = way + m + 1, *used = minv + m + 1;
	int fresh[WARM_ROWS], nfresh = 0;
	if (n != m || sc->warm_n != n || n == 0)
		goto full;
	/* old row of each new row (both lists are in cell order), 0: moved */
	int *old_of = used;   /* free until the first augment */
	for (int i = 0, k = 0; i < n; i++) {
		while (k < n && sc->warm_boxes[k] < sc->boxes[i])
			k++;
		old_of[i] = k < n && sc->warm_boxes[k] == sc->boxes[i] ? k + 1 : 0;
		if (!old_of[i]) {
			if (nfresh == WARM_ROWS)
				goto full;
			fresh[nfresh++] = i + 1;
		}
	}
	memcpy(v, sc->warm_v, (size_t)(m + 1) * sizeof *v);
	/* column of each old row */
	int *col_of = minv;
	for (int i = 0; i <= n; i++)
		col_of[i] = 0;
	for (int j = 1; j <= m; j++)
		col_of[sc->warm_p[j]] = j;
	for (int j = 0; j <= m; j++)
		p[j] = 0;
	u[0] = 0;
	for (int i = 1; i <= n; i++) {
		const int *row = cost + (i - 1) * m;
		int least = INT_MAX;
		for (int j = 1; j <= m; j++)
			if (row[j - 1] - v[j] < least)
				least = row[j - 1] - v[j];
		u[i] = least;
		int j = old_of[i - 1] ? col_of[old_of[i - 1]] : 0;
		if (j && row[j - 1] - u[i] - v[j] == 0) {
			p[j] = i;
		} else if (old_of[i - 1]) {
			/* its column is no longer tight: find it another */
			if (nfresh == WARM_ROWS)
				goto full;
			fresh[nfresh++] = i;
		}
	}
	for (int k = 0; k < nfresh; k++)
		lk_assign_augment(cost, n, m, fresh[k], work);
	goto done;
full:
	lk_assign(cost, n, m, work);
done:;
	long total = 0;
	for (int j = 1; j <= m; j++)
		if (p[j])
			total += cost[(p[j] - 1) * m + (j - 1)];
	if (total < LK_ASSIGN_NONE)
		save(sc, n, m, work);
	else
		sc->warm_n = -1;
	return total;
}
