/*
 * test_progression.c - filter --progression's choice (core/progression.c)
 * against a brute force: on small random packs every ordered choice of
 * levels for the places (or of places for the levels, when the pack is
 * smaller) is tried, and the one lk_progression writes must cost no more
 * than the best.  Then the curve itself, by hand: a pack of 100 evenly
 * spread levels in 20 places of chapters of 5 starts at the easiest, ends
 * at the hardest, rises within each chapter and dips 3 times.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/progression.h"

/* the cost of level rank k in place p, as progression.h defines it */
static long place_cost(size_t p, size_t n, size_t chapter, size_t k, size_t count)
{
	double target = lk_progression_target(p, n, chapter) * (double)(count - 1);
	double share = count > 1 ? fabs((double)k - target) / (double)(count - 1) : 0.0;
	return lround(share * 100000.0);
}

/* ranks of the levels, ties by index (as lk_progression ranks them) */
static void ranks(const double *d, size_t count, size_t *rank)
{
	for (size_t i = 0; i < count; i++) {
		rank[i] = 0;
		for (size_t j = 0; j < count; j++)
			if (d[j] < d[i] || (d[j] == d[i] && j < i))
				rank[i]++;
	}
}

/* the least cost of filling `places` of the n places (all of them when
 * the pack has enough levels) with distinct levels, by trying them all */
static long best(size_t p, size_t n, size_t chapter, const size_t *rank, size_t count,
		 unsigned used, size_t filled)
{
	size_t want = n < count ? n : count;
	if (filled == want)
		return 0;
	if (p == n)
		return -1;
	long least = -1;
	/* a pack smaller than n leaves places empty */
	if (n > count && n - p > want - filled) {
		long rest = best(p + 1, n, chapter, rank, count, used, filled);
		least = rest;
	}
	for (size_t k = 0; k < count; k++) {
		if (used >> k & 1)
			continue;
		long rest = best(p + 1, n, chapter, rank, count, used | 1u << k, filled + 1);
		if (rest < 0)
			continue;
		long c = rest + place_cost(p, n, chapter, rank[k], count);
		if (least < 0 || c < least)
			least = c;
	}
	return least;
}

static void test_brute_force(void **state)
{
	(void)state;
	srand(7);
	for (int trial = 0; trial < 400; trial++) {
		size_t count = 1 + (size_t)(rand() % 7), n = 1 + (size_t)(rand() % 6);
		size_t chapter = (size_t)(rand() % 4);
		double d[8];
		size_t rank[8], out[8];
		for (size_t i = 0; i < count; i++)
			d[i] = (double)(rand() % 6);   /* ties happen */
		ranks(d, count, rank);
		size_t got = lk_progression(d, count, n, chapter, out);
		assert_int_equal(got, n < count ? n : count);
		/* distinct levels, and the cost of the order written: each in
		 * the place the assignment gave it, which for the cost only
		 * needs the places in order, so rebuild them */
		unsigned seen = 0;
		for (size_t i = 0; i < got; i++) {
			assert_true(out[i] < count);
			assert_false(seen >> out[i] & 1);
			seen |= 1u << out[i];
		}
		long want = best(0, n, chapter, rank, count, 0, 0);
		if (n <= count) {
			long c = 0;
			for (size_t i = 0; i < got; i++)
				c += place_cost(i, n, chapter, rank[out[i]], count);
			if (c != want)
				fail_msg("trial %d: cost %ld, best %ld (count %zu n %zu chapter %zu)", trial, c,
					 want, count, n, chapter);
		} else {
			/* every level, and in an order whose best placement
			 * (places increasing) costs the optimum */
			assert_int_equal(got, count);
			long c = -1;
			/* the places are increasing along out: try every such
			 * placement of the written order */
			size_t place[8];
			for (size_t i = 0; i < got; i++)
				place[i] = i;
			for (;;) {
				long s = 0;
				for (size_t i = 0; i < got; i++)
					s += place_cost(place[i], n, chapter, rank[out[i]], count);
				if (c < 0 || s < c)
					c = s;
				size_t i = got;
				while (i > 0 && place[i - 1] == n - got + i - 1)
					i--;
				if (i == 0)
					break;
				place[i - 1]++;
				for (size_t j = i; j < got; j++)
					place[j] = place[j - 1] + 1;
			}
			if (c != want)
				fail_msg("trial %d: cost %ld, best %ld (a pack of %zu for %zu places)", trial, c,
					 want, count, n);
		}
	}
}

static void test_curve(void **state)
{
	(void)state;
	double d[100];
	for (int i = 0; i < 100; i++)
		d[i] = (double)((i * 37) % 100);   /* every value once, shuffled */
	size_t out[20];
	assert_int_equal(lk_progression(d, 100, 20, 5, out), 20);
	assert_true(d[out[0]] == 0.0);
	assert_true(d[out[19]] == 99.0);
	int dips = 0;
	for (size_t i = 1; i < 20; i++) {
		if (d[out[i]] < d[out[i - 1]]) {
			dips++;
			assert_int_equal(i % 5, 0);   /* only where a chapter starts */
		}
	}
	assert_int_equal(dips, 3);
	/* no dips: a plain rise */
	assert_int_equal(lk_progression(d, 100, 20, 0, out), 20);
	for (size_t i = 1; i < 20; i++)
		assert_true(d[out[i]] > d[out[i - 1]]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_brute_force),
		cmocka_unit_test(test_curve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
