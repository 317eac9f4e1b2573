/*
 * test_difficulty.c - tests of the difficulty measures (difficulty.c) on
 * small Sokoban levels:
 *
 *  - MixedAim: the per-algorithm counts and their minimum equal those of
 *    three separate lk_search runs (BFS, A*, greedy, forwards, natural
 *    move order) with the same bounds, and the optimal solve equals a
 *    separate A* run;
 *  - the multiple method: runs == K, a corridor level where every move
 *    order explores exactly the same states (mean known by hand, sd 0),
 *    the same seed giving identical figures, and for K = 2 the mean and
 *    standard deviation decoding into two whole positive counts;
 *  - unsolvable and bounded levels; solver reuse; the first runs kept for
 *    the rating's effort; the grade bands (of the rating).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/difficulty.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"

static struct lk_level *load_without(const char *text, const char *metric,
				     const char *const *off)
{
	FILE *fp = tmpfile();
	struct lk_reader rd;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_level_options opt = { .metric = metric, .off = off };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	assert_non_null(fp);
	fputs(text, fp);
	rewind(fp);
	lk_reader_init_fp(&rd, fp, "test.xsb");
	assert_int_equal(lk_reader_next(&rd, &rec, NULL, NULL), 1);
	struct lk_level *level = lk_level_load(&rec, &opt, &err, &line);
	if (!level)
		fail_msg("level did not load: %s", err.buf);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	lk_reader_close(&rd);
	fclose(fp);
	return level;
}

static struct lk_level *load(const char *text, const char *metric)
{
	return load_without(text, metric, NULL);
}

/* Pushed three times along a corridor: every state has exactly one
 * successor, so any search expands the start and the two states after
 * it (the third push reaches the goal): 3 states, whatever the order. */
static const char corridor[] = "#######\n#@$  .#\n#######\n";

static const char *const solvable_levels[] = {
	"#####\n#.  #\n# $ #\n#  @#\n#####\n",
	"######\n##   #\n#@$  #\n#.   #\n######\n",
	"#######\n#.   .#\n# $#$ #\n#  @  #\n#######\n",
	"########\n#  .   #\n# $$ # #\n#  @ . #\n########\n",
	"#######\n#@$  .#\n#######\n",
};

static void rate(struct lk_solver *s, const struct lk_level *level, struct lk_rate_options *o,
		 struct lk_rating *r)
{
	lk_rating_init(r);
	lk_rate(s, level, o, r);
}

static void test_mixedaim_matches_searches(void **state)
{
	(void)state;
	struct lk_solver s;
	lk_solver_init(&s);
	for (size_t i = 0; i < sizeof solvable_levels / sizeof solvable_levels[0]; i++) {
		for (int m = 0; m < 2; m++) {
			struct lk_level *level = load(solvable_levels[i], m ? "moves" : "pushes");
			for (int d = 0; d < 2; d++) {
				struct lk_rate_options o;
				struct lk_rating r;
				lk_rate_options_init(&o);
				o.search.direction = d ? LK_BOTH : LK_FORWARD;
				o.search.bounds.max_states = 1000000;
				o.runs = 0;
				o.mixedaim = true;
				rate(&s, level, &o, &r);
				assert_true(r.have_mixedaim);
				assert_int_equal(r.runs, 0);

				/* The optimal solve is an A* run with the bounds. */
				struct lk_search_options so = o.search;
				struct lk_search_result res;
				lk_search_result_init(&res);
				so.algo = LK_ALGO_ASTAR;
				so.seed = 0;
				lk_search(level, &so, &res);
				assert_int_equal(r.optimal.status, LK_SOLVED);
				assert_int_equal(r.optimal.status, res.status);
				assert_int_equal(r.optimal.cost, res.cost);
				assert_int_equal(r.optimal.nkeys, res.nkeys);
				assert_true(r.optimal.optimal);

				/* MixedAim: BFS, A* and greedy forwards, natural order. */
				const enum lk_algo three[] = { LK_ALGO_BFS, LK_ALGO_ASTAR, LK_ALGO_GREEDY };
				uint64_t least = UINT64_MAX;
				so.direction = LK_FORWARD;
				for (int a = 0; a < 3; a++) {
					so.algo = three[a];
					lk_search(level, &so, &res);
					assert_int_equal(r.status[three[a]], res.status);
					assert_int_equal(r.explored[three[a]], res.expanded);
					if (res.status == LK_SOLVED && res.expanded < least)
						least = res.expanded;
				}
				assert_true(r.min_known);
				assert_int_equal(r.min_explored, least);
				lk_search_result_release(&res);
				lk_rating_release(&r);
			}
			lk_level_free(level);
		}
	}
	lk_solver_release(&s);
}

static void test_corridor_by_hand(void **state)
{
	(void)state;
	struct lk_solver s;
	/* The corridor is a dead end: with tunnel macros (the default) the
	 * first push goes straight on to the goal, one state for three
	 * pushes.  The by-hand counts are of the push graph without them. */
	static const char *const no_tunnels[] = { "tunnel-macros", NULL };
	struct lk_level *level = load(corridor, "pushes");
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	struct lk_search_result res;
	lk_solver_init(&s);
	lk_search_result_init(&res);
	lk_solver_run(&s, level, &so, &res);
	assert_int_equal(res.status, LK_SOLVED);
	assert_int_equal(res.cost, 3);
	assert_true(res.optimal);
	assert_int_equal(res.expanded, 1);
	lk_search_result_release(&res);
	lk_level_free(level);
	level = load_without(corridor, "pushes", no_tunnels);
	for (unsigned k = 1; k <= 7; k += 3) {
		/* the difficulty measures' algorithms: MixedAim's three and UCS */
		for (int algo = 0; algo < LK_ALGO_ANY; algo++) {
			struct lk_rate_options o;
			struct lk_rating r;
			lk_rate_options_init(&o);
			o.search.direction = LK_FORWARD;
			o.runs = k;
			o.runs_algo = (enum lk_algo)algo;
			o.seed = 11 + k;
			rate(&s, level, &o, &r);
			assert_int_equal(r.optimal.status, LK_SOLVED);
			assert_int_equal(r.optimal.cost, 3);
			assert_int_equal(r.runs, k);
			assert_int_equal(r.runs_solved, k);
			assert_int_equal(r.runs_unknown, 0);
			assert_true(r.mean == 3.0);
			assert_true(r.sd == 0.0);
			for (int a = 0; a < LK_ALGO_ANY; a++) {
				if (a == LK_ALGO_UCS)
					continue;   /* not one of MixedAim's three */
				assert_int_equal(r.status[a], LK_SOLVED);
				assert_int_equal(r.explored[a], 3);
			}
			assert_int_equal(r.min_explored, 3);
			/* the first runs of greedy search, kept for the rating's effort */
			assert_int_equal(r.effort_runs, algo == LK_ALGO_GREEDY);
			if (algo == LK_ALGO_GREEDY) {
				assert_int_equal(r.effort_made, k);
				assert_int_equal(r.effort_solved, k);
				assert_true(r.effort_sum == 3.0 * k);
			}
			lk_rating_release(&r);
		}
	}
	lk_level_free(level);
	lk_solver_release(&s);
}

static void test_multiple_method(void **state)
{
	(void)state;
	struct lk_solver s;
	lk_solver_init(&s);
	int varied = 0;
	for (size_t i = 0; i < sizeof solvable_levels / sizeof solvable_levels[0]; i++) {
		struct lk_level *level = load(solvable_levels[i], "moves");
		for (unsigned k = 1; k <= 8; k++) {
			struct lk_rate_options o;
			struct lk_rating a, b, c;
			lk_rate_options_init(&o);
			o.runs = k;
			o.mixedaim = k % 2;
			o.seed = 1000 + i;
			rate(&s, level, &o, &a);
			rate(&s, level, &o, &b);
			o.seed++;
			rate(&s, level, &o, &c);
			assert_int_equal(a.runs, k);
			assert_int_equal(a.runs_solved, k);
			assert_int_equal(c.runs, k);
			/* Same seed, same figures. */
			assert_true(a.mean == b.mean);
			assert_true(a.sd == b.sd);
			assert_int_equal(a.have_mixedaim, o.mixedaim);
			assert_int_equal(a.min_explored, b.min_explored);
			varied += a.mean != c.mean;
			/* Every run expands at least the start. */
			assert_true(a.mean >= 1.0);
			assert_true(a.sd >= 0.0);
			if (k == 1) {
				assert_true(a.sd == 0.0);
				assert_true(a.mean == floor(a.mean));
			}
			if (k == 2) {
				/* mean = (x + y) / 2, sd = |x - y| / sqrt(2): both
				 * counts must come out whole and positive. */
				double half = a.sd / sqrt(2.0);
				double x = a.mean - half, y = a.mean + half;
				assert_true(fabs(x - round(x)) < 1e-6);
				assert_true(fabs(y - round(y)) < 1e-6);
				assert_true(round(x) >= 1.0);
			}
			lk_rating_release(&a);
			lk_rating_release(&b);
			lk_rating_release(&c);
		}
		lk_level_free(level);
	}
	print_message("  %d of 40 ratings changed with the seed\n", varied);
	lk_solver_release(&s);
}

static void test_unsolvable_and_bounded(void **state)
{
	(void)state;
	struct lk_solver s;
	lk_solver_init(&s);
	const char *dead[] = {
		"#####\n#@ .#\n#$  #\n#####\n",          /* box in a corner */
		"######\n#.@$ #\n######\n",               /* cannot get behind the box */
		"#######\n#@$$..#\n#######\n",            /* two boxes jammed */
	};
	for (size_t i = 0; i < 3; i++) {
		for (int m = 0; m < 2; m++) {
			struct lk_level *level = load(dead[i], m ? "moves" : "pushes");
			struct lk_rate_options o;
			struct lk_rating r;
			lk_rate_options_init(&o);
			o.runs = 5;
			rate(&s, level, &o, &r);
			assert_int_equal(r.optimal.status, LK_UNSOLVABLE);
			assert_int_equal(r.runs, 0);
			assert_int_equal(r.runs_solved, 0);
			assert_false(r.min_known);
			assert_false(r.have_mixedaim);
			lk_rating_release(&r);
			lk_level_free(level);
		}
	}
	/* Bounds too tight for any run: nothing is solved, and every run
	 * made is counted as unknown. */
	struct lk_level *level = load(solvable_levels[3], "moves");
	struct lk_rate_options o;
	struct lk_rating r;
	lk_rate_options_init(&o);
	o.search.direction = LK_FORWARD;
	o.search.bounds.max_states = 3;
	o.runs = 10;
	rate(&s, level, &o, &r);
	assert_int_equal(r.optimal.status, LK_UNKNOWN);
	assert_int_equal(r.optimal.limit, LK_LIMIT_STATES);
	assert_int_equal(r.runs_solved, 0);
	assert_true(r.runs <= 10);
	assert_int_equal(r.runs_unknown, r.runs);
	assert_false(r.min_known);
	for (int a = 0; a < LK_ALGO_COUNT; a++)
		assert_true(r.status[a] != LK_SOLVED);
	lk_rating_release(&r);
	lk_level_free(level);
	lk_solver_release(&s);
}

/* Runs cut by a state bound, forwards: a run that solves within the bound
 * is the run without it, and one that fails would have explored more than
 * it had.  So the bound is at most the mean of the runs without the bound
 * (an independent truth: those runs made again), and is the mean when
 * every run solved.  Every search that hit the bound is in limits; a
 * solution found when the optimal solve was cut replays to a win. */
static void test_failed_runs(void **state)
{
	(void)state;
	/* the small levels, and Boxoban medium/valid/000.txt #0 (in
	 * levels/boxoban-medium-sample.xsb), whose shuffled runs vary enough
	 * for some to fail under a bound that others solve within */
	const char *levels[] = {
		solvable_levels[0], solvable_levels[1], solvable_levels[2], solvable_levels[3],
		"##########\n#       ##\n# $    ###\n#. ## . ##\n# ####  ##\n"
		"#   #   ##\n#$$ #. ###\n# # # $@##\n# .    ###\n##########\n",
	};
	struct lk_solver s;
	lk_solver_init(&s);
	int partly = 0, others = 0, floors = 0;
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		struct lk_level *level = load(levels[i], i % 2 ? "moves" : "pushes");
		struct lk_rate_options o;
		struct lk_rating free_runs, r;
		lk_rate_options_init(&o);
		o.search.direction = LK_FORWARD;
		o.runs = 10;
		o.seed = 7 + i;
		o.no_fallback = true;   /* the failed runs alone */
		rate(&s, level, &o, &free_runs);
		assert_int_equal(free_runs.runs_solved, 10);
		assert_int_equal(free_runs.limits, 0);
		assert_true(fabs(free_runs.bound - free_runs.mean) < 1e-9);
		for (uint64_t bound = 2; bound <= 256; bound *= 2) {
			o.search.bounds.max_states = bound;
			rate(&s, level, &o, &r);
			assert_int_equal(r.runs_wanted, 10);
			assert_true(r.runs <= 10);
			assert_true(r.bound <= free_runs.mean + 1e-9);
			if (r.runs_solved == 10)
				assert_true(r.mean == free_runs.mean);
			else
				assert_true(r.limits & LK_LIMIT_BIT(LK_LIMIT_STATES));
			partly += r.runs_solved > 0 && r.runs_solved < 10;
			/* a stopped A* leaves a lower bound on the optimum */
			if (r.has_floor)
				assert_true(r.floor <= free_runs.optimal.cost);
			floors += r.has_floor;
			for (int a = 0; a < LK_ALGO_COUNT; a++) {
				assert_true(r.status[a] != LK_UNSOLVABLE);
				if (r.ran[a] && r.status[a] == LK_UNKNOWN)
					assert_true(r.limits & LK_LIMIT_BIT(LK_LIMIT_STATES));
			}
			if (r.optimal.status == LK_UNKNOWN) {
				assert_true(r.limits & LK_LIMIT_BIT(LK_LIMIT_STATES));
				assert_int_equal(r.other.status,
						 r.min_known || r.runs_solved ? LK_SOLVED : LK_UNKNOWN);
			} else {
				assert_int_equal(r.other.status, LK_UNKNOWN);
			}
			if (r.other.status == LK_SOLVED) {
				/* the solution replays to a win */
				struct lk_moves m, replayed;
				struct lk_strbuf why = LK_STRBUF_INIT;
				bool solved = false;
				lk_moves_init(&m, level);
				lk_moves_init(&replayed, level);
				lk_level_label(level, r.other.path, r.other.nkeys, &m);
				assert_int_equal(level->game->replay(level, m.text.buf, &replayed, &solved, &why), 0);
				assert_true(solved);
				assert_true(r.other.cost >= r.optimal.cost);
				/* no better than the optimum */
				assert_true(r.other.cost >= free_runs.optimal.cost);
				if (r.other.optimal)
					assert_int_equal(r.other.cost, free_runs.optimal.cost);
				lk_moves_release(&m);
				lk_moves_release(&replayed);
				lk_strbuf_release(&why);
				others++;
			}
			lk_rating_release(&r);
		}
		lk_rating_release(&free_runs);
		lk_level_free(level);
	}
	print_message("  %d ratings with some runs failed, %d solved by another search, %d floors\n",
		      partly, others, floors);
	assert_true(partly > 0);
	assert_true(floors > 0);
	assert_true(others > 0);
	lk_solver_release(&s);
}

static void test_solver_reuse(void **state)
{
	(void)state;
	struct lk_solver shared;
	lk_solver_init(&shared);
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < sizeof solvable_levels / sizeof solvable_levels[0]; i++) {
			struct lk_level *level = load(solvable_levels[i], i % 2 ? "moves" : "pushes");
			struct lk_rate_options o;
			struct lk_rating a, b;
			struct lk_solver fresh;
			lk_rate_options_init(&o);
			o.runs = 4;
			rate(&shared, level, &o, &a);
			lk_solver_init(&fresh);
			rate(&fresh, level, &o, &b);
			lk_solver_release(&fresh);
			assert_true(a.mean == b.mean);
			assert_true(a.sd == b.sd);
			assert_int_equal(a.min_explored, b.min_explored);
			assert_int_equal(a.optimal.cost, b.optimal.cost);
			assert_int_equal(a.optimal.expanded, b.optimal.expanded);
			for (int k = 0; k < LK_ALGO_COUNT; k++)
				assert_int_equal(a.explored[k], b.explored[k]);
			lk_rating_release(&a);
			lk_rating_release(&b);
			lk_level_free(level);
		}
	}
	lk_solver_release(&shared);
}

static void test_grades(void **state)
{
	(void)state;
	/* the bands of the rating (rating.h), two units wide */
	static const struct {
		double mean;
		enum lk_grade grade;
		const char *name;
	} bands[] = {
		{ 0.0, LK_GRADE_TRIVIAL, "trivial" },     { 0.99, LK_GRADE_TRIVIAL, "trivial" },
		{ 1.0, LK_GRADE_EASY, "easy" },           { 2.99, LK_GRADE_EASY, "easy" },
		{ 3.0, LK_GRADE_MEDIUM, "medium" },       { 4.99, LK_GRADE_MEDIUM, "medium" },
		{ 5.0, LK_GRADE_HARD, "hard" },           { 6.99, LK_GRADE_HARD, "hard" },
		{ 7.0, LK_GRADE_VERY_HARD, "very-hard" }, { 8.99, LK_GRADE_VERY_HARD, "very-hard" },
		{ 9.0, LK_GRADE_EXTREME, "extreme" },     { 1e12, LK_GRADE_EXTREME, "extreme" },
	};
	for (size_t i = 0; i < sizeof bands / sizeof bands[0]; i++) {
		assert_int_equal(lk_grade_of(bands[i].mean), bands[i].grade);
		assert_string_equal(lk_grade_name(lk_grade_of(bands[i].mean)), bands[i].name);
	}
	/* Grades never go down as the rating goes up. */
	enum lk_grade prev = LK_GRADE_TRIVIAL;
	for (double m = 0.05; m < 100; m *= 1.37) {
		enum lk_grade g = lk_grade_of(m);
		assert_true(g >= prev);
		prev = g;
	}
	assert_int_equal(prev, LK_GRADE_EXTREME);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grades),
		cmocka_unit_test(test_corridor_by_hand),
		cmocka_unit_test(test_mixedaim_matches_searches),
		cmocka_unit_test(test_multiple_method),
		cmocka_unit_test(test_unsolvable_and_bounded),
		cmocka_unit_test(test_failed_runs),
		cmocka_unit_test(test_solver_reuse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
