/*
 * assign.c - the assignment problem by the Hungarian algorithm in its
 * shortest-augmenting-path form (Kuhn-Munkres with potentials, as in
 * Jonker and Volgenant): each row in turn is added by a Dijkstra-like
 * search over reduced costs, so the whole runs in O(n^2 m).
 */
#include "levelkit/assign.h"

#include <limits.h>

/*
 * The search's potential changes are applied lazily: the classic form adds
 * each step's delta to every reached column's potentials and takes it from
 * every other column's least reduced cost, a pass over all m columns per
 * step (half the time of -a any on the biggest Sasquatch levels).  Here
 * shift is the sum of the deltas so far; a column not yet reached keeps its
 * least reduced cost plus the shift at the time (minv), so comparing
 * against it needs no update, and a reached column keeps the shift at which
 * it was reached (in used, plus one, so that 0 still means not reached):
 * its row's and its own potential get the deltas since then once, at the
 * end.  The potentials, the path and every tie are those of the classic
 * form (exact integer arithmetic, the same order of columns).
 */
void lk_assign_augment(const int *cost, int n, int m, int i, int *work)
{
	/* rows and columns 1-based; column 0 is the search's root */
	int *u = work, *v = u + n + 1, *p = v + m + 1, *way = p + m + 1;
	int *minv = way + m + 1, *used = minv + m + 1;
	p[0] = i;
	int j0 = 0, shift = 0;
	for (int j = 0; j <= m; j++) {
		minv[j] = INT_MAX;
		used[j] = 0;
	}
	do {
		used[j0] = shift + 1;
		int i0 = p[j0], j1 = 0;
		/* u[i0] is current: its column was reached this step */
		const int *row = cost + (i0 - 1) * m - 1;
		int base = shift - u[i0], least = INT_MAX;
		for (int j = 1; j <= m; j++) {
			if (used[j])
				continue;
			/* the reduced cost plus the shift; INT_MAX: not reached */
			int cur = row[j] - v[j] + base;
			if (cur < minv[j]) {
				minv[j] = cur;
				way[j] = j0;
			}
			if (minv[j] < least) {
				least = minv[j];
				j1 = j;
			}
		}
		shift = least;   /* the old shift plus this step's delta */
		j0 = j1;
	} while (p[j0] != 0);
	for (int j = 0; j <= m; j++) {
		if (used[j]) {
			int delta = shift - (used[j] - 1);
			u[p[j]] += delta;
			v[j] -= delta;
		}
	}
	/* flip the augmenting path back to the root */
	do {
		int j1 = way[j0];
		p[j0] = p[j1];
		j0 = j1;
	} while (j0);
}

long lk_assign(const int *cost, int n, int m, int *work)
{
	int *u = work, *v = u + n + 1, *p = v + m + 1;
	for (int j = 0; j <= m; j++)
		v[j] = p[j] = 0;
	for (int i = 0; i <= n; i++)
		u[i] = 0;
	for (int i = 1; i <= n; i++)
		lk_assign_augment(cost, n, m, i, work);
	long total = 0;
	for (int j = 1; j <= m; j++)
		if (p[j])
			total += cost[(p[j] - 1) * m + (j - 1)];
	return total;
}
