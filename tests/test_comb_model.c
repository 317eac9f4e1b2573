/*
 * test_comb_model.c - the paper's model of Combination (comb_paper.c),
 * the one difficulty is measured in, and the GCC filter (comb_gcc.c).
 *
 *  - the GCC filter against brute force: on random domains and counts,
 *    every assignment is enumerated; the filter must fail exactly when
 *    none meets the counts, and keep exactly the values some such
 *    assignment uses (generalised arc consistency, no more, no less);
 *  - hand-worked search trees of the paper's model, node by node: the
 *    forced blocker of a watched-or clause, and a line with two colours of
 *    queens, which the fast model's monochrome-line rule refutes sooner;
 *  - the paper's model with the GCC reaches the same counts as without
 *    and never needs more nodes in the static order.
 * Its solution counts are checked against the brute force, in every
 * configuration, in test_combination.c.
 */
#include "comb_bf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comb.h"

/* ------------------------------------------------------------- the GCC */

#define G_MAXSQ 7

struct gcc_case {
	int n, nvals, need[6];
	uint32_t dom[G_MAXSQ];
};

/* Every assignment within the domains; the values used by those meeting
 * the counts, per square.  False if there is none. */
static bool gcc_brute(const struct gcc_case *c, uint32_t *support)
{
	int val[G_MAXSQ];
	bool any = false;
	memset(support, 0, (size_t)c->n * sizeof *support);
	for (int q = 0; q < c->n; q++)
		val[q] = -1;
	int q = 0;
	for (;;) {
		/* next value of square q, or back up */
		int v = val[q] + 1;
		while (v < c->nvals && !(c->dom[q] & (1u << v)))
			v++;
		if (v == c->nvals) {
			val[q] = -1;
			if (q-- == 0)
				break;
			continue;
		}
		val[q] = v;
		if (q + 1 < c->n) {
			q++;
			continue;
		}
		int used[6] = { 0 };
		for (int u = 0; u < c->n; u++)
			used[val[u]]++;
		if (memcmp(used, c->need, (size_t)c->nvals * sizeof used[0]) == 0) {
			any = true;
			for (int u = 0; u < c->n; u++)
				support[u] |= 1u << val[u];
		}
	}
	return any;
}

static void test_gcc_against_brute_force(void **state)
{
	(void)state;
	struct lk_rng rng;
	struct comb_gcc g;
	int feasible = 0, pruned = 0;
	lk_rng_seed(&rng, 1996);
	for (int i = 0; i < 3000; i++) {
		struct gcc_case c = { .n = 1 + (int)lk_rng_below(&rng, G_MAXSQ),
				      .nvals = 2 + (int)lk_rng_below(&rng, 4) };
		/* counts summing to n */
		for (int q = 0; q < c.n; q++)
			c.need[lk_rng_below(&rng, (uint32_t)c.nvals)]++;
		for (int q = 0; q < c.n; q++) {
			c.dom[q] = (uint32_t)lk_rng_below(&rng, 1u << c.nvals);
			if (!c.dom[q])
				c.dom[q] = 1u << lk_rng_below(&rng, (uint32_t)c.nvals);
		}
		uint32_t want[G_MAXSQ], keep[G_MAXSQ];
		bool ok = gcc_brute(&c, want);
		/* twice with one scratch: the second call starts from the
		 * first's matching */
		comb_gcc_init(&g, c.n, c.nvals);
		for (int round = 0; round < 2; round++) {
			bool got = comb_gcc_filter(&g, c.dom, c.need, keep);
			if (got != ok)
				fail_msg("case %d: filter says %d, brute force %d", i, got, ok);
			for (int q = 0; ok && q < c.n; q++) {
				if (keep[q] != want[q])
					fail_msg("case %d square %d: kept %#x, supported %#x (domain %#x)", i, q,
						 keep[q], want[q], c.dom[q]);
			}
		}
		comb_gcc_release(&g);
		feasible += ok;
		for (int q = 0; ok && q < c.n; q++)
			pruned += want[q] != c.dom[q];
	}
	/* the sample has both answers, and pruning to do */
	assert_true(feasible > 300 && feasible < 2700);
	assert_true(pruned > 300);
}

/* ---------------------------------------------- the paper's search tree */

static uint64_t paper_nodes(const char *text, bool gcc, bool sac, bool symmetry, uint64_t limit,
			    uint64_t *solutions, const char *flag)
{
	const char *flags[] = { flag, NULL };
	struct lk_level *level = load(text);
	struct lk_csp_options co;
	struct lk_csp_result r;
	lk_csp_options_init(&co);
	co.gcc = gcc;
	co.sac = sac;
	co.symmetry = symmetry;
	co.dynamic = false;
	co.count_limit = limit;
	co.flags = flag ? flags : NULL;
	lk_csp_result_init(&r);
	level->game->csp->solve(level, &co, &r);
	uint64_t nodes = r.nodes;
	*solutions = r.solutions;
	lk_csp_result_release(&r);
	lk_level_free(level);
	return nodes;
}

static void test_hand_worked_trees(void **state)
{
	(void)state;
	uint64_t sols;
	/*
	 * "...", a red rook (1), a blue bishop (2), a red bishop (3).  The
	 * Booleans in reading order, true first.  Node 1 (the root) tries
	 * M[a][1]: the rook on a.  Its neighbour b can no longer take the
	 * blue bishop; c is the blue bishop's last square, so it goes there;
	 * then the clause "not rook on a, or not blue bishop on c, or a piece
	 * on b" has one open literal left, M[b][3]: the red bishop is forced
	 * between them.  Everything is decided: node 2 is the solution.
	 * Without that forcing, M[b][3] would take a third node.
	 */
	assert_int_equal(paper_nodes("game: combination\npieces: 1 red rook, 1 blue bishop, 1 red bishop\n...\n",
				     false, false, false, 1, &sols, "paper-model"), 2);
	assert_int_equal(sols, 1);
	/*
	 * "...", a red queen (1), a blue queen (2): no solution.  Node 1:
	 * M[a][1] = 1 empties b (beside the queen) and then c (beside it once
	 * b is empty), leaving the blue queen no square; M[a][1] = 0.  Node 2:
	 * M[a][2] fails the same way; a stays empty.  Node 3: M[b][1] = 1
	 * fails alike; with M[b][1] = 0 the red queen's last square is c, so
	 * it goes there, which empties b and leaves blue nowhere.  3 nodes.
	 * The fast model (static order, no SAC or GCC) also removes blue from
	 * the whole line as soon as a red queen stands on it, the monochrome
	 * line rule, and needs 2.
	 */
	const char *queens = "game: combination\npieces: 1 red queen, 1 blue queen\n...\n";
	assert_int_equal(paper_nodes(queens, false, false, false, 0, &sols, "paper-model"), 3);
	assert_int_equal(sols, 0);
	assert_int_equal(paper_nodes(queens, false, false, false, 0, &sols, NULL), 2);
	assert_int_equal(sols, 0);
}

/* The GCC never adds nodes in the static order and never changes a count;
 * on random levels it prunes somewhere. */
static void test_gcc_prunes_soundly(void **state)
{
	(void)state;
	struct lk_rng rng;
	int fewer = 0;
	lk_rng_seed(&rng, 8);
	for (int i = 0; i < 300; i++) {
		char text[512];
		uint64_t with, without;
		random_level(&rng, text, sizeof text);
		uint64_t n_with = paper_nodes(text, true, false, false, 100000, &with, "paper-model");
		uint64_t n_without = paper_nodes(text, false, false, false, 100000, &without, "paper-model");
		assert_int_equal(with, without);
		if (n_with > n_without)
			fail_msg("the GCC adds nodes: %llu against %llu\n%s", (unsigned long long)n_with,
				 (unsigned long long)n_without, text);
		fewer += n_with < n_without;
	}
	assert_true(fewer > 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcc_against_brute_force),
		cmocka_unit_test(test_hand_worked_trees),
		cmocka_unit_test(test_gcc_prunes_soundly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
