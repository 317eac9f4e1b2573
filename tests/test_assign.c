/*
 * test_assign.c - unit tests for the assignment solver (src/core/assign.c):
 * its value against a brute force over every assignment of small random
 * cost tables (square and with more columns than rows, with pairs that
 * cannot be matched), and each row's augmenting step against the classic
 * form written out here (every step's delta applied to every column at
 * once), which must leave the same potentials and the same assignment:
 * the matching bound's warm start, pair conflicts and patterns read them,
 * so the lazy form in assign.c must not change a single one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <string.h>

#include "levelkit/assign.h"
#include "levelkit/rng.h"

#define MAX_N 7
#define MAX_M 8

/* The classic form of one augmenting step (Kuhn-Munkres with potentials as
 * in the e-maxx write-up), the layout of lk_assign's work. */
static void classic_augment(const int *cost, int n, int m, int i, int *work)
{
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
	do {
		int j1 = way[j0];
		p[j0] = p[j1];
		j0 = j1;
	} while (j0);
}

/* The least total over every assignment of the n rows to distinct columns
 * (rows taken in order, columns tried in every way). */
static long brute(const int *cost, int n, int m, int row, unsigned taken)
{
	if (row == n)
		return 0;
	long best = LONG_MAX;
	for (int j = 0; j < m; j++) {
		if (taken >> j & 1u)
			continue;
		long rest = brute(cost, n, m, row + 1, taken | 1u << j);
		long c = cost[row * m + j] + rest;
		if (rest != LONG_MAX && c < best)
			best = c;
	}
	return best;
}

/* A random table: costs 0..span-1 (small spans make many ties, which the
 * two forms must break alike), a share of pairs that cannot be matched. */
static void random_table(struct lk_rng *rng, int *cost, int n, int m, int span, int none_pct)
{
	for (int k = 0; k < n * m; k++)
		cost[k] = (int)lk_rng_below(rng, 100) < none_pct
				  ? LK_ASSIGN_NONE
				  : (int)lk_rng_below(rng, (uint32_t)span);
}

static void test_value_against_brute_force(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 23);
	int cost[MAX_N * MAX_M], work[(MAX_N + 1) + 5 * (MAX_M + 1)];
	for (int trial = 0; trial < 3000; trial++) {
		int n = 1 + (int)lk_rng_below(&rng, MAX_N);
		int m = n + (int)lk_rng_below(&rng, (uint32_t)(MAX_M - n + 1));
		int span = trial % 3 == 0 ? 3 : 40;
		random_table(&rng, cost, n, m, span, trial % 4 == 0 ? 30 : 0);
		long got = lk_assign(cost, n, m, work);
		assert_int_equal(got, brute(cost, n, m, 0, 0));
		/* the assignment it holds is the value it returned, one row a column */
		const int *holders = lk_assign_holders(work, n, m);
		long sum = 0;
		int rows = 0;
		for (int j = 1; j <= m; j++)
			if (holders[j]) {
				sum += cost[(holders[j] - 1) * m + (j - 1)];
				rows++;
			}
		assert_int_equal(rows, n);
		assert_int_equal(sum, got);
	}
}

static void test_steps_match_classic_form(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 33);
	int cost[MAX_N * MAX_M];
	int lazy[(MAX_N + 1) + 5 * (MAX_M + 1)], classic[(MAX_N + 1) + 5 * (MAX_M + 1)];
	for (int trial = 0; trial < 5000; trial++) {
		int n = 1 + (int)lk_rng_below(&rng, MAX_N);
		int m = n + (int)lk_rng_below(&rng, (uint32_t)(MAX_M - n + 1));
		random_table(&rng, cost, n, m, trial % 2 ? 4 : 1000, trial % 5 == 0 ? 25 : 0);
		/* the start lk_assign makes: potentials and assignment all 0 */
		memset(lazy, 0, sizeof lazy);
		memset(classic, 0, sizeof classic);
		for (int i = 1; i <= n; i++) {
			lk_assign_augment(cost, n, m, i, lazy);
			classic_augment(cost, n, m, i, classic);
			/* u, v and the assignment p: the first n + 1 + 2 (m + 1) ints */
			assert_memory_equal(lazy, classic,
					    (size_t)(n + 1 + 2 * (m + 1)) * sizeof *lazy);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_against_brute_force),
		cmocka_unit_test(test_steps_match_classic_form),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
