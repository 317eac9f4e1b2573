/*
 * assign.c - the assignment problem by the Hungarian algorithm in its
 * shortest-augmenting-path form (Kuhn-Munkres with potentials, as in
 * Jonker and Volgenant): each row in turn is added by a Dijkstra-like
 * search over reduced costs, so the whole runs in O(n^2 m).
 */
#include "levelkit/assign.h"

#include <limits.h>

void lk_assign_augment(const int *cost, int n, int m, int i, int *work)
{
	/* rows and columns 1-based; column 0 is the search's root */
	int *u = work, *v = u + n + 1, *p = v + m + 1, *way = p + m + 1;
	int *minv = way + m + 1, *used = minv + m + 1;
	p[0] = i;
	int j0 = 0;
	for (int j = 0; j <= m; j++) {
		minv[j] = INT_MAX;
		used[j] = 0;
	}
	do {
		used[j0] = 1;
		int i0 = p[j0], delta = INT_MAX, j1 = 0;
		for (int j = 1; j <= m; j++) {
			if (used[j])
				continue;
			int cur = cost[(i0 - 1) * m + (j - 1)] - u[i0] - v[j];
			if (cur < minv[j]) {
				minv[j] = cur;
				way[j] = j0;
			}
			if (minv[j] < delta) {
				delta = minv[j];
				j1 = j;
			}
		}
		for (int j = 0; j <= m; j++) {
			if (used[j]) {
				u[p[j]] += delta;
				v[j] -= delta;
			} else {
				minv[j] -= delta;
			}
		}
		j0 = j1;
	} while (p[j0] != 0);
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
