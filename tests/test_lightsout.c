/*
 * test_lightsout.c - Lights Out (src/games/lightsout) against a brute
 * force: on random boards of up to 16 lights, with and without holes,
 * every set of presses is tried (pressing twice undoes a press, so a
 * solution is a set), which gives solvability and the fewest presses
 * independently of the state space; BFS and A* (with the game's
 * heuristic) must agree with it, the labelled solution must replay to a
 * win in that many presses, and the heuristic must never exceed the
 * brute-force distance.  Also: a hand-worked board, the notation's
 * errors, the generator's levels solvable and their presses counted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/actions.h"
#include "levelkit/game.h"
#include "levelkit/generate.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"
#include "test_support.h"
#include "test_records.h"

static void read_record(const char *text, struct lk_record *rec)
{
	test_read_record(text, "test.xsb", rec);
}

static struct lk_level *load(const char *text)
{
	struct lk_level_options opt = { 0 };
	return test_load_level(text, &opt, "lightsout");
}

/* ------------------------------------------------------- brute force */

/* A board of rows (w <= 16, at most 16 lights): the lights in reading
 * order, what pressing each toggles, and the start, as bit masks. */
struct board {
	int n;
	uint32_t start, toggles[16];
};

static void parse_board(const char *const *rows, int h, struct board *b)
{
	int index[16][16];
	memset(b, 0, sizeof *b);
	for (int y = 0; y < h; y++)
		for (int x = 0; rows[y][x]; x++)
			index[y][x] = rows[y][x] == '.' || rows[y][x] == '*' ? b->n++ : -1;
	for (int y = 0; y < h; y++) {
		int w = (int)strlen(rows[y]);
		for (int x = 0; x < w; x++) {
			int i = index[y][x];
			if (i < 0)
				continue;
			if (rows[y][x] == '*')
				b->start |= 1u << i;
			static const int dx[] = { 0, 1, 0, -1, 0 }, dy[] = { 0, 0, 1, 0, -1 };
			for (int d = 0; d < 5; d++) {
				int nx = x + dx[d], ny = y + dy[d];
				if (ny >= 0 && ny < h && nx >= 0 && nx < (int)strlen(rows[ny]) &&
				    index[ny][nx] >= 0)
					b->toggles[i] |= 1u << index[ny][nx];
			}
		}
	}
}

/* The fewest presses that turn every light off, or -1: every subset. */
static int brute_force(const struct board *b)
{
	int best = -1;
	for (uint32_t set = 0; set < (1u << b->n); set++) {
		uint32_t s = b->start;
		int k = 0;
		for (int i = 0; i < b->n; i++)
			if (set >> i & 1) {
				s ^= b->toggles[i];
				k++;
			}
		if (s == 0 && (best < 0 || k < best))
			best = k;
	}
	return best;
}

/* --------------------------------------------------------------- tests */

static void solve(const struct lk_level *level, enum lk_algo algo, struct lk_search_result *r)
{
	struct lk_solver solver;
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	so.algo = algo;
	lk_solver_init(&solver);
	lk_search_result_init(r);
	lk_solver_run(&solver, level, &so, r);
	lk_solver_release(&solver);
}

/* Solve the board both ways and check the answer, the solution's replay
 * and the heuristic at the start against the brute force. */
static void check_board(const char *const *rows, int h)
{
	struct board b;
	struct lk_strbuf text = LK_STRBUF_INIT;
	parse_board(rows, h, &b);
	int want = brute_force(&b);
	lk_strbuf_addstr(&text, "game: lightsout\n");
	for (int y = 0; y < h; y++)
		lk_strbuf_addf(&text, "%s\n", rows[y]);
	struct lk_level *level = load(text.buf);
	static const enum lk_algo algos[] = { LK_ALGO_BFS, LK_ALGO_ASTAR };
	for (size_t a = 0; a < 2; a++) {
		struct lk_search_result r;
		solve(level, algos[a], &r);
		if (want < 0) {
			assert_int_equal(r.status, LK_UNSOLVABLE);
		} else {
			if (r.status != LK_SOLVED || r.cost != (unsigned long)want)
				fail_msg("%s: cost %lu, brute force %d\n%s", lk_algo_name(algos[a]), r.cost,
					 want, text.buf);
			struct lk_strbuf sol = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
			struct lk_solution_stats st;
			bool solved = false;
			format_solution(level, r.path, r.nkeys, &sol, &st);
			assert_int_equal(st.moves, (unsigned long)want);
			assert_int_equal(replay_stats(level, sol.buf, &st, &solved, &err), 0);
			assert_true(solved);
			assert_int_equal(st.moves, (unsigned long)want);
			lk_strbuf_release(&sol);
			lk_strbuf_release(&err);
		}
		lk_search_result_release(&r);
	}
	if (want >= 0) {
		unsigned char key[2] = { 0, 0 };
		level->game->initial_state(level, key);
		assert_true(level->game->heuristic(level, key, NULL) <= (unsigned)want);
	}
	lk_level_free(level);
	lk_strbuf_release(&text);
}

static void test_hand_worked(void **state)
{
	(void)state;
	/* 3x3, all on: the corners and the centre, five presses (no four
	 * do: the 3x3 board's presses are independent, so the solution is
	 * unique) */
	static const char *const all_on[] = { "***", "***", "***" };
	check_board(all_on, 3);
	struct lk_level *level = load("game: lightsout\n***\n***\n***\n");
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_solution_stats st;
	bool solved = false;
	assert_int_equal(replay_stats(level, "a1 c1 b2 a3 c3", &st, &solved, &err), 0);
	assert_true(solved);
	assert_int_equal(st.moves, 5);
	assert_int_equal(replay_stats(level, "a1c1b2a3", &st, &solved, &err), 0);
	assert_false(solved);
	/* the notation's errors */
	assert_int_equal(replay_stats(level, "d1", &st, &solved, &err), -1);
	assert_non_null(strstr(err.buf, "not a light"));
	lk_strbuf_reset(&err);
	assert_int_equal(replay_stats(level, "b", &st, &solved, &err), -1);
	assert_non_null(strstr(err.buf, "bad press"));
	lk_strbuf_reset(&err);
	assert_int_equal(replay_stats(level, "a1c1b2a3c3a1", &st, &solved, &err), -1);
	assert_non_null(strstr(err.buf, "after the level is solved"));
	lk_strbuf_release(&err);
	lk_level_free(level);
}

/* The rating's counts, by hand: a 3x3 board with one hole has 8 lights,
 * of which the stars are on. */
static void test_rating_counts(void **state)
{
	(void)state;
	struct lk_level *level = load("game: lightsout\n*.*\n.#*\n**.\n");
	unsigned cells = 0, objects = 0;
	assert_non_null(level->game->rating_counts);
	level->game->rating_counts(level, &cells, &objects);
	assert_int_equal(cells, 8);
	assert_int_equal(objects, 5);
	lk_level_free(level);
	level = load("game: lightsout\n....\n..*.\n");
	level->game->rating_counts(level, &cells, &objects);
	assert_int_equal(cells, 8);
	assert_int_equal(objects, 1);
	lk_level_free(level);
}

static void test_against_brute_force(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 19);
	char rows[4][5];
	const char *ptr[4] = { rows[0], rows[1], rows[2], rows[3] };
	int unsolvable = 0;
	for (int t = 0; t < 120; t++) {
		int w = 2 + (int)lk_rng_below(&rng, 3), h = 2 + (int)lk_rng_below(&rng, 3);
		bool holes = t % 3 == 0;
		int lights = 0;
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++) {
				bool hole = holes && lk_rng_below(&rng, 5) == 0;
				rows[y][x] = hole ? '#' : lk_rng_below(&rng, 2) ? '*' : '.';
				lights += !hole;
			}
			rows[y][w] = '\0';
		}
		if (!lights)
			rows[0][0] = '*';
		struct board b;
		parse_board(ptr, h, &b);
		unsolvable += brute_force(&b) < 0;
		check_board(ptr, h);
	}
	/* 4x4 boards have a kernel of presses that change nothing: some
	 * starts have no solution, and the test meets them */
	assert_true(unsolvable > 0);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "game: lightsout\n.*x\n", "unknown lightsout cell 'x' in column 3" },
		{ "game: lightsout\n###\n", "level has no light" },
		{ "game: lightsout\n.................\n", "at most 16 columns" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct lk_record rec;
		struct lk_level_options opt = { 0 };
		struct lk_strbuf err = LK_STRBUF_INIT;
		size_t line = 0;
		read_record(cases[i].text, &rec);
		assert_null(lk_level_load(&rec, &opt, &err, &line));
		if (!strstr(err.buf, cases[i].want))
			fail_msg("'%s' instead of '%s'", err.buf, cases[i].want);
		lk_record_release(&rec);
		lk_strbuf_release(&err);
	}
}

/* The generator's levels: each solvable in the presses the brute force
 * finds, which the record's moves field says. */
static void test_generator(void **state)
{
	(void)state;
	const struct lk_generator *g = lk_generator_find("lightsout", NULL);
	struct lk_gen_options o;
	struct lk_gen_worker w;
	struct lk_gen_stats st = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT;
	static const char *keys[] = { "holes" }, *values[] = { "2" };
	assert_non_null(g);
	lk_gen_options_init(&o);
	o.param_keys = keys;
	o.param_values = values;
	o.nparams = 1;
	assert_int_equal(lk_gen_worker_init(&w, g, &o, &err), 0);
	for (uint64_t i = 0; i < 12; i++) {
		struct lk_record rec = LK_RECORD_INIT;
		lk_record_init(&rec);
		assert_int_equal(lk_generate_index(g, &w, &o, 5, i, &rec, &st), 0);
		size_t first, n = lk_record_grid(&rec, &first);
		const char *rows[16];
		for (size_t y = 0; y < n; y++)
			rows[y] = rec.lines[first + y].text;
		struct board b;
		parse_board(rows, (int)n, &b);
		assert_int_equal(b.n, 14);   /* 4x4 less two holes */
		assert_string_equal(lk_record_get(&rec, "solvable"), "yes");
		assert_int_equal(atoi(lk_record_get(&rec, "moves")), brute_force(&b));
		lk_record_release(&rec);
	}
	lk_gen_worker_release(&w, g);
	lk_strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_rating_counts),
		cmocka_unit_test(test_against_brute_force),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_generator),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
