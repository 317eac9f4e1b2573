/*
 * test_combination.c - the Combination game (src/games/combination): level
 * loading, both constraint models (game->csp: the fast default and the
 * paper's Boolean model behind --paper-model), lk_csp_rate.
 *
 *  - the brute-force enumerator of comb_bf.c: exact solution counts are
 *    compared with each model's on 250 random small levels, with symmetry
 *    breaking off and on (then: the orbits under renamings of colours with
 *    the same pieces), SAC and the GCC on and off, static and shuffled;
 *  - peaceable armies of queens (OEIS A250000), n = 3..8;
 *  - hand-worked levels and verify; validation errors and their lines;
 *  - lk_csp_rate: runs, determinism, the 500-node cut-off, measured on
 *    the paper's model.
 * The generator is tested in test_comb_gen.c, the paper's model's own
 * propagation in test_comb_model.c.  A solution with an extra, empty row
 * is checked last, in its own test, so that reading past the grid there
 * (under ASan) hides no other result.
 */
#include "comb_bf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/difficulty.h"

static void expect_error(const char *text, const char *want, size_t want_line)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	if (try_load(text, &err, &line))
		fail_msg("level loaded, expected error '%s':\n%s", want, text);
	if (!strstr(err.buf, want))
		fail_msg("error '%s' does not contain '%s'", err.buf, want);
	assert_int_equal(line, want_line);
	lk_strbuf_release(&err);
}

struct opts {
	bool sac, gcc, symmetry, dynamic, paper;
	uint64_t limit, seed;
};

static const char *const paper_flags[] = { "paper-model", NULL };

/* Solve into r (initialised here: release it before solving again). */
static void solve(const struct lk_level *level, struct opts o, struct lk_csp_result *r)
{
	struct lk_csp_options co;
	lk_csp_options_init(&co);
	co.sac = o.sac;
	co.gcc = o.gcc;
	co.symmetry = o.symmetry;
	co.dynamic = o.dynamic;
	co.count_limit = o.limit;
	co.seed = o.seed;
	co.flags = o.paper ? paper_flags : NULL;
	lk_csp_result_init(r);
	level->game->csp->solve(level, &co, r);
}

/* ------------------------------------------- cross-checking the solver */

/* Solve with o and compare with the brute force: want solutions. */
static void check_solve(const struct lk_level *level, const struct bf *b, const struct bf_run *all,
			struct opts o, uint64_t want, const char *text)
{
	struct lk_csp_result r;
	o.limit = want + 1;
	solve(level, o, &r);
	if (r.solutions != want || !r.exhausted)
		fail_msg("paper %d sac %d gcc %d symmetry %d seed %llu: %llu solutions (exhausted %d), "
			 "brute force %llu\n%s", o.paper, o.sac, o.gcc, o.symmetry, (unsigned long long)o.seed,
			 (unsigned long long)r.solutions, r.exhausted, (unsigned long long)want, text);
	assert_int_equal(r.status, want ? LK_SOLVED : LK_UNSOLVABLE);
	assert_int_equal(r.limit, LK_LIMIT_NONE);
	assert_true(r.nodes >= 1);
	if (want) {
		bool valid = false;
		struct lk_strbuf why = LK_STRBUF_INIT;
		assert_true(r.nodes_to_first >= 1 && r.nodes_to_first <= r.nodes);
		assert_int_equal(level->game->csp->verify(level, r.solution.buf, &valid, &why), 0);
		if (!valid)
			fail_msg("verify refuses the solver's %s: %s\n%s", r.solution.buf, why.buf, text);
		lk_strbuf_release(&why);
		assert_true(bf_valid(b, r.solution.buf));
		assert_true(bf_has(all, r.solution.buf));
		assert_true(!o.symmetry || is_leader(b, r.solution.buf));
	}
	if (want >= 2) {
		assert_string_not_equal(r.second.buf, r.solution.buf);
		assert_true(bf_has(all, r.second.buf));
		/* a lower limit: the count stops there and is not exact */
		o.limit = want <= 50 ? want - 1 : 1;
		lk_csp_result_release(&r);
		solve(level, o, &r);
		assert_int_equal(r.solutions, o.limit);
		assert_false(r.exhausted);
		assert_int_equal(r.status, LK_SOLVED);
	}
	lk_csp_result_release(&r);
}

/* Check the level of text in every configuration; returns the count, or
 * SIZE_MAX (untried) when it has more than max_count solutions. */
static size_t cross_check(const char *text, uint64_t seed, size_t max_count, struct bf *b)
{
	struct bf_run all;
	bf_from_text(b, text);
	if (!bf_solve(b, &all, 50000000))
		fail_msg("brute force over budget\n%s", text);
	if (all.nsols > max_count) {
		free(all.sols);
		return SIZE_MAX;
	}
	struct lk_level *level = load(text);
	size_t orbits = bf_orbits(b, &all);
	/* bit 8: the fast model's dynamic order; bit 16: the paper's model
	 * (fixed orders only) */
	for (int mask = 0; mask < 32; mask++) {
		if ((mask & 16) && (mask & 8))
			continue;
		struct opts o = { .sac = mask & 1, .gcc = mask & 2, .symmetry = mask & 4,
				  .dynamic = mask & 8, .paper = mask & 16 };
		uint64_t want = o.symmetry ? orbits : all.nsols;
		check_solve(level, b, &all, o, want, text);
		o.seed = lk_mix64(seed * 8 + (uint64_t)mask) | 1;
		check_solve(level, b, &all, o, want, text);
	}
	lk_level_free(level);
	free(all.sols);
	return all.nsols;
}

static void test_random_against_brute_force(void **state)
{
	(void)state;
	struct lk_rng rng;
	int solvable = 0, several = 0, symmetric = 0;
	lk_rng_seed(&rng, 20080812);
	/* 250 levels; those with over 1000 solutions (the solver counts them
	 * 32 times) are drawn again, to keep the test fast */
	for (int i = 0; i < 250;) {
		char text[512];
		struct bf b;
		random_level(&rng, text, sizeof text);
		size_t n = cross_check(text, (uint64_t)i, 1000, &b);
		if (n == SIZE_MAX)
			continue;
		i++;
		solvable += n > 0;
		several += n > 1;
		symmetric += n > 1 && same_pieces(&b, 0, 1);
	}
	/* the sample is not degenerate */
	assert_true(solvable > 100 && 250 - solvable > 40);
	assert_true(several > 80);
	assert_true(symmetric > 40);
}

/* -------------------------------------------- peaceable armies of queens */

static void test_peaceable_queens(void **state)
{
	(void)state;
	static const int a250000[] = { 0, 0, 0, 1, 2, 4, 5, 7, 9 };
	char text[256];
	struct bf b;
	struct lk_csp_result r;
	for (int n = 3; n <= 8; n++) {
		int m = a250000[n];
		armies(text, sizeof text, n, m);
		bf_from_text(&b, text);
		struct lk_level *level = load(text);
		solve(level, (struct opts){ .sac = true, .gcc = true, .symmetry = true, .limit = 1 }, &r);
		if (r.status != LK_SOLVED)
			fail_msg("n = %d: no army of %d found", n, m);
		assert_true(bf_valid(&b, r.solution.buf));
		lk_csp_result_release(&r);
		lk_level_free(level);
		if (n == 8)
			continue;   /* ten queens each take seconds: cli_comb and the bench */
		armies(text, sizeof text, n, m + 1);
		level = load(text);
		for (int sym = n == 7; sym < 2; sym++) {   /* n = 7: with symmetry breaking only */
			solve(level, (struct opts){ .sac = true, .gcc = true, .symmetry = sym, .limit = 1 }, &r);
			if (r.status != LK_UNSOLVABLE || !r.exhausted)
				fail_msg("n = %d: an army of %d is not refuted (status %d)", n, m + 1, r.status);
			lk_csp_result_release(&r);
		}
		lk_level_free(level);
	}
	/* n = 4 in full against the brute force */
	armies(text, sizeof text, 4, 2);
	assert_true(cross_check(text, 4, SIZE_MAX, &b) > 0);
}

/* ------------------------------------------------------ hand-worked */

/* Counts without and with symmetry breaking (SAC and GCC on), and the
 * first solution in the static order. */
static const struct {
	const char *pieces, *rows;
	uint64_t plain, broken;
	const char *first;
} counted[] = {
	/*  #a#b    lines a-c (column), c-d (row), a-d, b-d (diagonals), two
	 *  oc do   squares each.  The red rook may see no blue bishop: at a it
	 * sees c and d, leaving one square for two bishops; at c it sees a
	 * and d, at d all three; only b leaves a and c: one solution. */
	{ "1 red rook, 2 blue bishop", "#.#.|o..o", 1, 1, "#2#1/o2.o" },
	/* A wall stops a rook's ray, a hole does not; either colour may go
	 * first, one solution when renamings of colours count as one. */
	{ "1 red rook, 1 blue rook", ".#.", 2, 1, "1#2" },
	{ "1 red rook, 1 blue rook", ".o.", 0, 0, NULL },
	{ "1 red rook, 1 blue rook", ".|#|.", 2, 1, "1/#/2" },
	{ "1 red rook, 1 blue rook", ".|o|.", 0, 0, NULL },
	/* bishops at the ends of a diagonal: across a hole, not a wall */
	{ "1 red bishop, 1 blue bishop", ".##|#o#|##.", 0, 0, NULL },
	{ "1 red bishop, 1 blue bishop", ".##|###|##.", 2, 1, "1##/###/##2" },
	/* corners around a hole: the 4 pairs not on a diagonal, 2 ways each */
	{ "1 red bishop, 1 blue bishop", ".#.|#o#|.#.", 8, 4, "1#2/#o#/.#." },
	/* Blocking: a red rook and a blue bishop in a row attack; a red
	 * bishop between them blocks the ray and conflicts with neither
	 * (bishops do not attack along rows).  The rook goes to an end: 132
	 * and its mirror, as board symmetries are never broken. */
	{ "1 red rook, 1 blue bishop", "...", 0, 0, NULL },
	{ "1 red rook, 1 blue bishop, 1 red bishop", "...", 2, 2, "132" },
	/* a blocker that attacks along the row is no help */
	{ "1 red rook, 1 blue bishop, 1 red rook", "...", 0, 0, NULL },
	/* short rows are walls beyond their end: one column, the queens see
	 * each other; below, the first square takes the first colour */
	{ "1 red queen, 1 blue queen", ".#o|.", 0, 0, NULL },
	{ "1 red queen, 1 blue queen", ".#.o|##", 2, 1, "1#2o/####" },
	/* The same colour and kind twice is one type (1: two red rooks).
	 * The blue bishop (3) in a corner: the square diagonal to it stays
	 * empty, the red bishop (2) stands between it and the rooks in its
	 * row, the rooks fill the far column: one solution per corner.  In
	 * the middle of a row it leaves the rooks no square. */
	{ "1 red rook, 1 red rook, 1 red bishop, 1 blue bishop", "...|...", 4, 4, "123/1.." },
};

/* What verify says of solution texts: "+" valid, "x" read but not a
 * solution (an attack, a count wrong), "-" not readable (shape, cells). */
static const struct {
	const char *pieces, *rows, *checks;
} verified[] = {
	/* 312: the rook sees the blue bishop; 13.: one missing; 133: two of
	 * type 3; then rows too long, short, one too many, an unknown cell,
	 * a type the level does not have */
	{ "1 red rook, 1 blue bishop, 1 red bishop", "...",
	  "132+ 231+ 312x 13.x 133x 1324- 13- 132/...- 1x2- 142-" },
	/* 11.: a piece on the wall; 1#./2..: an attack along a column; a row
	 * missing, a row short, a hole where the wall is */
	{ "1 red rook, 1 blue rook", ".#.|...", "1#2/...+ 11./...- 1#./2..x 1#./...x 1#2- 1#2/..- 1o2/...-" },
	/* rows may stop where only walls and holes remain */
	{ "1 red queen, 1 blue queen", ".#.o|##", "1#2/##+ 2#1o/####+ 2#1o/#.##-" },
};

static void test_hand_worked(void **state)
{
	(void)state;
	char text[256];
	for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++) {
		level_text(text, sizeof text, counted[i].pieces, counted[i].rows);
		struct lk_level *level = load(text);
		for (int m = 0; m < 4; m++) {
			struct lk_csp_result r;
			bool sym = m & 1, paper = m & 2;
			uint64_t want = sym ? counted[i].broken : counted[i].plain;
			solve(level, (struct opts){ .sac = true, .gcc = true, .symmetry = sym, .paper = paper,
						    .limit = 100 }, &r);
			if (r.solutions != want || !r.exhausted)
				fail_msg("%s / %s, symmetry %d paper %d: %llu solutions, want %llu",
					 counted[i].pieces, counted[i].rows, sym, paper,
					 (unsigned long long)r.solutions, (unsigned long long)want);
			if (want && !sym && !paper)
				assert_string_equal(r.solution.buf, counted[i].first);
			lk_csp_result_release(&r);
		}
		lk_level_free(level);
	}
	for (size_t i = 0; i < sizeof verified / sizeof verified[0]; i++) {
		level_text(text, sizeof text, verified[i].pieces, verified[i].rows);
		struct lk_level *level = load(text);
		for (const char *p = verified[i].checks; *p;) {
			char sol[32];
			size_t n = strcspn(p, " ");
			struct lk_strbuf why = LK_STRBUF_INIT;
			bool valid = p[n - 1] != '+';
			snprintf(sol, sizeof sol, "%.*s", (int)n - 1, p);
			int rc = level->game->csp->verify(level, sol, &valid, &why);
			if (rc != (p[n - 1] == '-' ? -1 : 0) || valid != (p[n - 1] == '+'))
				fail_msg("verify %s on %s: rc %d valid %d (%s)", sol, verified[i].rows, rc, valid, why.buf);
			assert_true(valid || why.len > 0);
			lk_strbuf_release(&why);
			p += n + (p[n] == ' ');
		}
		lk_level_free(level);
	}
}

/* The visitor sees every solution the count counts: each verifies, no two
 * are the same, and stopping it stops the search. */
struct visited {
	const struct lk_level *level;
	char seen[128][64];
	size_t n, stop_after;
};

static int visit_solution(void *ctx, const char *solution)
{
	struct visited *v = ctx;
	struct lk_strbuf why = LK_STRBUF_INIT;
	bool valid = false;
	assert_int_equal(v->level->game->csp->verify(v->level, solution, &valid, &why), 0);
	assert_true(valid);
	lk_strbuf_release(&why);
	assert_true(strlen(solution) < sizeof v->seen[0] && v->n < 128);
	for (size_t i = 0; i < v->n; i++)
		assert_string_not_equal(v->seen[i], solution);
	strcpy(v->seen[v->n++], solution);
	return v->stop_after && v->n >= v->stop_after;
}

static void test_visit_every_solution(void **state)
{
	(void)state;
	char text[256];
	for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++) {
		if (counted[i].plain > 100)
			continue;
		level_text(text, sizeof text, counted[i].pieces, counted[i].rows);
		struct lk_level *level = load(text);
		for (size_t stop = 0; stop < 2; stop++) {
			struct visited v = { .level = level, .stop_after = stop };
			struct lk_csp_options co;
			struct lk_csp_result r;
			lk_csp_options_init(&co);
			co.symmetry = false;
			co.count_limit = 100;
			co.visit = visit_solution;
			co.visit_ctx = &v;
			lk_csp_result_init(&r);
			level->game->csp->solve(level, &co, &r);
			if (stop) {
				assert_int_equal(v.n, counted[i].plain ? 1 : 0);
			} else {
				assert_int_equal(v.n, counted[i].plain);
				assert_int_equal(r.solutions, counted[i].plain);
			}
			lk_csp_result_release(&r);
		}
		lk_level_free(level);
	}
}

/* ------------------------------------------------------- validation */

static void test_validation(void **state)
{
	(void)state;
	/* line 1 game, 2 pieces, 3-4 the grid */
	expect_error("game: combination\npieces: 1 red rook\n...\n.x.\n", "'x' in column 2", 4);
	expect_error("game: combination\npieces: 1 red rook\n...\n..@\n", "column 3", 4);
	expect_error("game: combination\n...\n...\n", "no pieces field", 1);
	expect_error("game: combination\npieces: 2 red king\n...\n", "'king' is not rook", 2);
	expect_error("game: combination\n...\npieces: 2 red king\n", "'king' is not rook", 3);
	expect_error("game: combination\npieces: red rook\n...\n", "expected a count", 2);
	expect_error("game: combination\npieces: 0 red rook\n...\n", "expected a count", 2);
	expect_error("game: combination\npieces: -1 red rook\n...\n", "expected a count", 2);
	expect_error("game: combination\npieces: 1 red rook, 2 blue\n...\n", "COUNT COLOUR KIND", 2);
	expect_error("game: combination\npieces:\n...\n", "no pieces", 2);
	expect_error("game: combination\npieces: 1 red rook\n", "no grid", 1);
	/* rooks, bishops and queens, singular or plural */
	lk_level_free(load("game: combination\npieces: 2 red rooks, 1 blue queens, 1 green bishops\n....\n"));
}

/* ---------------------------------------------------------- rating */

static void test_rate(void **state)
{
	(void)state;
	struct lk_csp_options base;
	struct lk_csp_rating a, b;
	char text[256];
	lk_csp_options_init(&base);
	/* the unique level of test_hand_worked: a handful of nodes, so SAC
	 * and GCC are off for the runs */
	struct lk_level *level = load("game: combination\npieces: 1 red rook, 2 blue bishop\n#.#.\no..o\n");
	lk_csp_rate(level, &base, 7, 42, &a);
	assert_true(a.status == LK_SOLVED && a.solutions == 1 && a.exhausted);
	assert_true(a.runs == 7 && a.runs_solved == 7 && a.fine);
	assert_true(a.single >= 1 && a.single < 500 && a.mean >= 1 && a.mean < 500 && a.sd >= 0);
	lk_csp_rate(level, &base, 7, 42, &b);
	assert_true(a.mean == b.mean && a.sd == b.sd && a.single == b.single);
	lk_csp_rate(level, &base, 0, 42, &b);
	assert_true(b.runs == 0 && b.mean == 0 && b.status == LK_SOLVED);
	/* the measure is the paper's model's search: the single method is
	 * its static order's nodes, SAC and the GCC off below 500 */
	struct lk_csp_result r;
	solve(level, (struct opts){ .paper = true, .limit = 1 }, &r);
	assert_int_equal(a.single, r.nodes);
	lk_csp_result_release(&r);
	lk_level_free(level);
	/* many solutions: the count stops at the limit (2) */
	armies(text, sizeof text, 4, 2);
	level = load(text);
	lk_csp_rate(level, &base, 20, 9, &a);
	assert_true(a.status == LK_SOLVED && a.solutions == 2 && !a.exhausted);
	assert_true(a.fine && a.runs == 20 && a.runs_solved == 20 && a.mean >= 1);
	lk_csp_rate(level, &base, 20, 9, &b);
	assert_true(a.mean == b.mean && a.sd == b.sd);
	lk_level_free(level);
	/* over 500 nodes on average with SAC and GCC (the paper's model has
	 * no monochrome-line rule): they stay on */
	armies(text, sizeof text, 6, 5);
	level = load(text);
	lk_csp_rate(level, &base, 20, 1, &a);
	assert_true(a.status == LK_SOLVED && a.mean >= 500 && !a.fine && a.runs_solved == 20);
	lk_csp_difficulty(level, &base, 20, 1, &b);
	assert_true(a.mean == b.mean && a.sd == b.sd && !b.fine);
	lk_level_free(level);
	/* unsolvable: no runs */
	armies(text, sizeof text, 5, 5);
	level = load(text);
	lk_csp_rate(level, &base, 5, 1, &a);
	assert_true(a.status == LK_UNSOLVABLE && a.solutions == 0 && a.exhausted && a.runs_solved == 0);
	lk_level_free(level);
}

/* ------------------------------------------------- last: an extra row */

static void test_verify_extra_row(void **state)
{
	(void)state;
	struct lk_level *level = load("game: combination\npieces: 1 red rook, 1 blue rook\n.#.\n");
	struct lk_strbuf why = LK_STRBUF_INIT;
	bool valid = true;
	/* a second, empty row: refused, without reading past the grid */
	assert_int_equal(level->game->csp->verify(level, "1#2/", &valid, &why), -1);
	assert_false(valid);
	lk_strbuf_release(&why);
	lk_level_free(level);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_visit_every_solution),
		cmocka_unit_test(test_random_against_brute_force),
		cmocka_unit_test(test_peaceable_queens),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_verify_extra_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
