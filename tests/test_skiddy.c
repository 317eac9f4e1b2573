/*
 * test_skiddy.c - tests of the Skiddy game (src/games/skiddy.c and the
 * shared src/games/slide_game.c) through the game interface:
 *
 *  - validation: the border holds only walls and exits, exits only on the
 *    border, boards 5x4 to 8x7 either way round, at least one skiddy,
 *    unknown cells;
 *  - hand-worked levels, each argued in its comment: a skiddy one move
 *    from its exit, two reds stuck together for good (they can only ever
 *    leave together: a max-combo), a vertical pair that can never leave,
 *    combo and non-combo wins told apart by game->win_kind and the key's
 *    flag byte, a level solvable only one skiddy at a time (no combo
 *    solution), one colour at a time being a combo still, a pit and a
 *    crate on the shortest solution.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/analysis.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "test_support.h"
#include "test_records.h"

/* ------------------------------------------------------- loading levels */

static void read_record(const char *text, struct lk_record *rec)
{
	test_read_record(text, "test.xsb", rec);
}

static struct lk_level *load(const char *grid)
{
	char text[400];
	struct lk_record rec;
	struct lk_level_options opt = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	snprintf(text, sizeof text, "game: skiddy\n%s", grid);
	read_record(text, &rec);
	struct lk_level *level = lk_level_load(&rec, &opt, &err, &line);
	if (!level)
		fail_msg("level did not load: line %zu: %s\n%s", line, err.buf, text);
	assert_string_equal(level->game->name, "skiddy");
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	return level;
}

/* grid (after a "game: skiddy" line 1) must be rejected with a message
 * containing want, on line want_line. */
static void expect_error(const char *grid, const char *want, size_t want_line)
{
	char text[400];
	struct lk_record rec;
	struct lk_level_options opt = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	snprintf(text, sizeof text, "game: skiddy\n%s", grid);
	read_record(text, &rec);
	struct lk_level *level = lk_level_load(&rec, &opt, &err, &line);
	if (level)
		fail_msg("level loaded, expected error '%s':\n%s", want, text);
	if (!strstr(err.buf, want))
		fail_msg("error '%s' does not contain '%s'", err.buf, want);
	assert_int_equal(line, want_line);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
}

/* Shortest solution by BFS, UCS and A* (they must agree); -1 if none.
 * The BFS solution, formatted, goes to sol and is replayed to a win. */
static long solve(const struct lk_level *level, char *sol, size_t solsz)
{
	long answer = -2;
	for (int algo = LK_ALGO_BFS; algo <= LK_ALGO_ASTAR; algo++) {
		struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
		struct lk_search_result r;
		o.algo = (enum lk_algo)algo;
		lk_search_result_init(&r);
		lk_search(level, &o, &r);
		long cost = -1;
		if (r.status == LK_SOLVED) {
			struct lk_strbuf out = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
			struct lk_solution_stats st;
			bool solved = false;
			format_solution(level, r.path, r.nkeys, &out, &st);
			assert_int_equal(out.len, r.cost);
			assert_int_equal(strspn(out.buf, "urdl"), out.len);
			assert_int_equal(replay_stats(level, out.buf, &st, &solved, &err), 0);
			assert_true(solved);
			if (algo == LK_ALGO_BFS && sol) {
				assert_true(out.len < solsz);
				memcpy(sol, out.buf, out.len + 1);
			}
			cost = (long)r.cost;
			lk_strbuf_release(&out);
			lk_strbuf_release(&err);
		} else {
			assert_int_equal(r.status, LK_UNSOLVABLE);
		}
		lk_search_result_release(&r);
		if (answer != -2)
			assert_int_equal(cost, answer);
		answer = cost;
	}
	return answer;
}

static bool replays_to_win(const struct lk_level *level, const char *moves)
{
	struct lk_solution_stats st;
	struct lk_strbuf err = LK_STRBUF_INIT;
	bool solved = false;
	assert_int_equal(replay_stats(level, moves, &st, &solved, &err), 0);
	lk_strbuf_release(&err);
	return solved;
}

/* Play moves from the start through successors (each move picked by its
 * letter, as format_solution names it: when two moves lead to the same
 * state it names the first of u r d l) into key; fails if none matches. */
static void play(const struct lk_level *level, const char *moves, unsigned char *key)
{
	size_t ks = level->key_size;
	unsigned char *succ = malloc(4 * ks), *pair = malloc(2 * ks);
	void *scratch = calloc(1, level->scratch_size);
	struct lk_edge edges[4];
	assert_non_null(succ);
	assert_non_null(pair);
	assert_non_null(scratch);
	level->game->initial_state(level, key);
	for (const char *m = moves; *m; m++) {
		unsigned n = level->game->successors(level, key, scratch, succ, edges);
		bool found = false;
		for (unsigned i = 0; i < n && !found; i++) {
			struct lk_strbuf out = LK_STRBUF_INIT;
			struct lk_solution_stats st;
			memcpy(pair, key, ks);
			memcpy(pair + ks, succ + i * ks, ks);
			format_solution(level, pair, 2, &out, &st);
			if (out.len == 1 && out.buf[0] == *m) {
				memcpy(key, succ + i * ks, ks);
				found = true;
			}
			lk_strbuf_release(&out);
		}
		if (!found)
			fail_msg("move '%c' of \"%s\" is void", *m, moves);
	}
	free(succ);
	free(pair);
	free(scratch);
}

static void analyse(const struct lk_level *level, struct lk_analysis *a)
{
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	lk_analysis_init(a);
	lk_analyse(level, &o, a);
	assert_true(a->complete);
	assert_true((a->win_kinds != 0));
}

/* ---------------------------------------------------------- validation */

static void test_validation(void **state)
{
	(void)state;
	/* A valid 5x4 level, and the same rotated (4x5). */
	lk_level_free(load("#####\n#r..R\n#...#\n#####\n"));
	lk_level_free(load("####\n#r.#\n#..#\n#..#\n##R#\n"));
	/* The largest, 8x7 and 7x8. */
	lk_level_free(load("########\n#r.....R\n#......#\n#......#\n#......#\n#......#\n########\n"));
	lk_level_free(load("#######\n#r....#\n#.....#\n#.....#\n#.....#\n#.....#\n#.....#\n###R###\n"));
	/* Too small or too big, either way round; the error is on the first
	 * grid line (line 2). */
	expect_error("####\n#rR#\n#..#\n####\n", "skiddy board is 5x4 to 8x7, not 4x4", 2);
	expect_error("#####\n#r..R\n#####\n", "not 5x3", 2);
	expect_error("#########\n#r......R\n#.......#\n#########\n", "not 9x4", 2);
	expect_error("########\n#r.....R\n#......#\n#......#\n#......#\n#......#\n#......#\n########\n",
		     "not 8x8", 2);
	/* The border holds only walls and exits: a floor cell on it (line 4,
	 * the third grid row), a skiddy on it (line 3), a block on it. */
	expect_error("#####\n#r..R\n#....\n#####\n", "the border may hold only walls and exits", 4);
	expect_error("#####\nr...R\n#...#\n#####\n", "the border may hold only walls and exits", 3);
	expect_error("#####\n#r..R\n#...#\n##X##\n", "the border may hold only walls and exits", 5);
	/* Cells missing at the end of a short row, and trailing blanks, are
	 * outside the board: wall (docs/games/fruit.md), so these load. */
	lk_level_free(load("#####\n#r..R\n#...\n#####\n"));
	lk_level_free(load("#####   \n#r..R\n#...#  \n#####\n"));
	/* Exits only on the border. */
	expect_error("#####\n#rG.R\n#...#\n#####\n", "exits belong on the border", 3);
	/* At least one skiddy; ice is not one. */
	expect_error("#####\n#I..R\n#...#\n#####\n", "level has no skiddy", 2);
	/* Unknown cells: the fruit game's 'a' is not a skiddy cell. */
	expect_error("#####\n#r..R\n#.a.#\n#####\n", "unknown skiddy cell 'a' in column 3", 4);
}

/* --------------------------------------------------------- hand-worked */

static void test_one_move(void **state)
{
	(void)state;
	/* The red skiddy at (1,1) slides right to the red exit at (4,1) and
	 * leaves: one move, "r".  Nothing else wins in one: u and l are
	 * void, d drops it to row 2 whose right end is a wall. */
	struct lk_level *level = load("#####\n#r..R\n#...#\n#####\n");
	char sol[32];
	unsigned char key[64];
	assert_int_equal(solve(level, sol, sizeof sol), 1);
	assert_string_equal(sol, "r");
	/* A lone skiddy always clears its colour in one move: a combo, and
	 * the key's flag byte is clear. */
	play(level, "r", key);
	assert_true(level->game->is_goal(level, key));
	assert_int_equal(level->game->win_kind(level, key), LK_WIN_COMBO);
	assert_int_equal(key[level->key_size - 1], 0);
	/* Going round: d, r (to (3,2)), u (to (3,1)), r: a win, still a
	 * combo. */
	play(level, "drur", key);
	assert_true(level->game->is_goal(level, key));
	assert_int_equal(level->game->win_kind(level, key), LK_WIN_COMBO);
	/* d alone is no win. */
	play(level, "d", key);
	assert_false(level->game->is_goal(level, key));
	lk_level_free(level);
}

static void test_stuck_together(void **state)
{
	(void)state;
	struct lk_analysis a;
	char sol[32];
	unsigned char key[64];
	/* Two reds side by side at (1,1) (2,1): one body for good.  r: the
	 * body slides, the front one reaches the exit at (5,1) and leaves,
	 * the other follows: both leave in one move, a max-combo.  The body
	 * can never come apart, so no win is ever anything but a combo.
	 * States: start, d {(1,2),(2,2)}, then r {(3,2),(4,2)}, then u
	 * {(3,1),(4,1)}, and the win: 5. */
	struct lk_level *level = load("######\n#rr..R\n#....#\n######\n");
	assert_int_equal(solve(level, sol, sizeof sol), 1);
	assert_string_equal(sol, "r");
	play(level, "r", key);
	assert_int_equal(level->game->win_kind(level, key), LK_WIN_COMBO);
	play(level, "drur", key);
	assert_true(level->game->is_goal(level, key));
	assert_int_equal(level->game->win_kind(level, key), LK_WIN_COMBO);
	analyse(level, &a);
	assert_int_equal(a.reachable, 5);
	assert_int_equal(a.shortest_kind[LK_WIN_COMBO], 1);
	assert_int_equal(a.shortest_kind[LK_WIN_PLAIN], LK_NO_DEPTH);
	lk_analysis_release(&a);
	lk_level_free(level);

	/* Two reds that meet: (1,1) and (4,1), exit (5,2).  l brings the
	 * right one to (2,1), touching: glued from then on.  Then d, r: the
	 * pair leaves together.  Apart, d then r also sends both out in one
	 * move (the left one follows the right one out). */
	level = load("######\n#r..r#\n#....R\n######\n");
	play(level, "ldr", key);
	assert_true(level->game->is_goal(level, key));
	assert_int_equal(level->game->win_kind(level, key), LK_WIN_COMBO);
	assert_int_equal(solve(level, sol, sizeof sol), 2);
	assert_string_equal(sol, "dr");
	lk_level_free(level);

	/* A vertical pair and an exit in the top row only: when the top one
	 * reaches x4 the bottom one meets the wall and the body stops; up and
	 * down are walls.  Unsolvable; two states, both dead ends. */
	level = load("######\n#r...R\n#r...#\n######\n");
	assert_int_equal(solve(level, NULL, 0), -1);
	analyse(level, &a);
	assert_int_equal(a.reachable, 2);
	assert_int_equal(a.dead_ends, 2);
	assert_int_equal(analysis_stars(level, &a), 0);
	lk_analysis_release(&a);
	lk_level_free(level);
}

static void test_combo_and_not(void **state)
{
	(void)state;
	struct lk_analysis a;
	unsigned char key[64];
	/* Two lanes kept apart by blocks.  Red A at (1,1), exit (6,1); red B
	 * at (3,3) with a pit at (1,3), exit (6,3).
	 *   r: both slide out in the same move: a combo win.
	 *   l, r, r: l drops B into the pit; r sends A out while B sits it
	 *   out (B stays: the colour is broken); r sends B out: a plain win. */
	struct lk_level *level = load("#######\n#r....R\n#XXXXX#\n#O.r..R\n#######\n");
	play(level, "r", key);
	assert_true(level->game->is_goal(level, key));
	assert_int_equal(level->game->win_kind(level, key), LK_WIN_COMBO);
	assert_int_equal(key[level->key_size - 1], 0);
	play(level, "lr", key);
	assert_false(level->game->is_goal(level, key));
	assert_int_equal(key[level->key_size - 1], 2u << 0);   /* bit 1 + red (0) */
	play(level, "lrr", key);
	assert_true(level->game->is_goal(level, key));
	assert_int_equal(level->game->win_kind(level, key), LK_WIN_PLAIN);
	assert_int_equal(key[level->key_size - 1] & 1u, 0);   /* bit 0 is "a fruit was lost" */
	/* l then any move but r frees B with A still there: both leave on r.
	 * (u, d and l lead to the same state; format_solution names it u.) */
	play(level, "lur", key);
	assert_int_equal(level->game->win_kind(level, key), LK_WIN_COMBO);
	assert_true(replays_to_win(level, "ldr"));
	assert_false(replays_to_win(level, "lr"));
	lk_level_free(level);

	/* Solvable only one at a time: the red exits are at opposite ends,
	 * (0,1) on the left for A at (2,1), (6,3) on the right for B at
	 * (4,3); l sends out only A, r only B.  "lr" or "rl", never a
	 * combo. */
	level = load("#######\nR.r...#\n#XXXXX#\n#...r.R\n#######\n");
	char sol[32];
	assert_int_equal(solve(level, sol, sizeof sol), 2);
	assert_true(strcmp(sol, "lr") == 0 || strcmp(sol, "rl") == 0);
	play(level, "lr", key);
	assert_int_equal(level->game->win_kind(level, key), LK_WIN_PLAIN);
	play(level, "rl", key);
	assert_int_equal(level->game->win_kind(level, key), LK_WIN_PLAIN);
	analyse(level, &a);
	assert_int_equal(a.shortest_kind[LK_WIN_COMBO], LK_NO_DEPTH);
	assert_int_equal(a.shortest_kind[LK_WIN_PLAIN], 2);
	assert_int_equal(a.dead_ends, 0);
	assert_int_equal(analysis_stars(level, &a), 1);   /* rule 2 fails: no combo solution */
	lk_analysis_release(&a);
	lk_level_free(level);

	/* The same with a red and a green skiddy: each colour leaves whole in
	 * its own move, which is a max-combo for each: a combo win. */
	level = load("#######\nR.r...#\n#XXXXX#\n#...g.G\n#######\n");
	play(level, "lr", key);
	assert_true(level->game->is_goal(level, key));
	assert_int_equal(level->game->win_kind(level, key), LK_WIN_COMBO);
	analyse(level, &a);
	assert_int_equal(a.shortest_kind[LK_WIN_COMBO], 2);
	assert_int_equal(a.shortest_kind[LK_WIN_PLAIN], LK_NO_DEPTH);
	lk_analysis_release(&a);
	lk_level_free(level);
}

static void test_pit_in_solution(void **state)
{
	(void)state;
	char sol[32];
	/* A pit at (3,1) between the skiddy (1,1) and the exit (6,1).
	 *   r: into the pit, trapped;  any move: sat out, freed;  r: out.
	 * Three moves.  The way round the pit is four: d (1,2), r (5,2),
	 * u (5,1), r out; u and l are void at the start.  So the shortest
	 * solutions are r?r with ? any of u r d l: four of them. */
	struct lk_level *level = load("#######\n#r.O..R\n#.....#\n#######\n");
	assert_int_equal(solve(level, sol, sizeof sol), 3);
	assert_int_equal(sol[0], 'r');
	assert_int_equal(sol[2], 'r');
	assert_false(replays_to_win(level, "rr"));   /* the second r is sat out */
	assert_true(replays_to_win(level, "rrr"));
	assert_true(replays_to_win(level, "rdr"));
	assert_true(replays_to_win(level, "drur"));
	struct lk_analysis a;
	analyse(level, &a);
	assert_int_equal(a.shortest, 3);
	assert_int_equal(a.solutions, 4);
	lk_analysis_release(&a);
	lk_level_free(level);
}

static void test_crate_in_solution(void **state)
{
	(void)state;
	char sol[32];
	unsigned char key[64];
	/* The exit is in the top wall at (3,0).  The skiddy at (1,2) slides
	 * right, pushes the crate from (3,2) to (4,2), takes (3,2) and stops:
	 * right under the exit.  u: out.  "ru", two moves; u first leads to
	 * (1,1), from where r goes to (5,1): no one-move win. */
	struct lk_level *level = load("###R###\n#.....#\n#r.C..#\n#######\n");
	assert_int_equal(solve(level, sol, sizeof sol), 2);
	assert_string_equal(sol, "ru");
	/* After r the crate is at (4,2) and the skiddy at (3,2). */
	play(level, "r", key);
	struct lk_strbuf out = LK_STRBUF_INIT;
	level->game->write_state(level, key, &out);
	assert_string_equal(out.buf, "###R###\n#     #\n#  rC #\n#######\n");
	lk_strbuf_release(&out);
	lk_level_free(level);

	/* Without the crate the skiddy only ever stops against the side walls
	 * (x 1 or 5, y 1 or 2), never under the exit at x3: unsolvable.  So
	 * the crate, pushed, is what makes the level solvable. */
	level = load("###R###\n#.....#\n#r....#\n#######\n");
	assert_int_equal(solve(level, NULL, 0), -1);
	lk_level_free(level);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_one_move),
		cmocka_unit_test(test_stuck_together),
		cmocka_unit_test(test_combo_and_not),
		cmocka_unit_test(test_pit_in_solution),
		cmocka_unit_test(test_crate_in_solution),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
