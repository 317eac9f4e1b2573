/*
 * test_sokoban_input.c - tests of the Sokoban game (src/games/sokoban)
 * around its solvers: validation errors (message and line), the largest
 * grid, replay errors, run-length encoded levels, write_state, and greedy
 * search's estimate against the bound.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"
#include "sokoban_bf.h"
#include "test_support.h"

/* ---------------------------------------------------------- validation */

static void expect_invalid(const char *text, const struct lk_level_options *opt,
			   size_t want_line, const char *want_substring)
{
	struct lk_record rec;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	read_record(text, &rec);
	struct lk_level *level = lk_level_load(&rec, opt, &err, &line);
	if (level)
		fail_msg("level loaded but should not:\n%s", text);
	assert_true(err.len > 0);
	/* messages are lower case (they follow "file:line: ") */
	assert_false(isupper((unsigned char)err.buf[0]));
	if (!strstr(err.buf, want_substring))
		fail_msg("message '%s' lacks '%s'", err.buf, want_substring);
	if (line != want_line)
		fail_msg("'%s' reported at line %zu, expected %zu", err.buf, line, want_line);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
}

static void test_validation(void **state)
{
	(void)state;
	const struct lk_level_options none = { .metric = NULL };
	/* Line numbers count from the record's first line (1 here). */
	expect_invalid("; no player\ntitle: t\n#####\n# $.#\n#####\n", &none, 3, "no player");
	expect_invalid("; two\n#####\n#@$.#\n#@  #\n#####\n", &none, 4, "more than one player");
	expect_invalid("; two, one on a goal\n#####\n#@$.#\n#  +#\n#####\n", &none, 4,
		       "more than one player");
	expect_invalid("#######\n#@$$ .#\n#######\n", &none, 1, "more boxes (2) than goals (1)");
	/* spare goals: the big Sokoban programs refuse them too */
	expect_invalid("#######\n#@$ ..#\n#######\n", &none, 1, "fewer boxes (1) than goals (2)");
	expect_invalid("######\n#+$ .#\n#  * #\n######\n", &none, 1, "fewer boxes (2) than goals (3)");
	expect_invalid("; x\n#####\n#@$.#\n# x #\n#####\n", &none, 4, "'x'");
	/* Ragged row 3 leaves its last cell open: the player walks off. */
	expect_invalid("; c\n#####\n#@$.#\n#   \n#####\n", &none, 4, "not enclosed");
	expect_invalid("## ##\n#@$.#\n#####\n", &none, 1, "not enclosed");
	/* A run length without a cell. */
	expect_invalid("; rle\n#####\n#@$.#\n#  3\n#####\n", &none, 4, "run length");
	/* A record without a grid: the record's first line. */
	expect_invalid("; just a comment\ntitle: nothing\n", &none, 1, "no grid");
	/* Unknown game, metric or heuristic. */
	expect_invalid("; g\ngame: chess\n#####\n#@$.#\n#####\n", &none, 2, "chess");
	const struct lk_level_options bad_metric = { .metric = "steps" };
	expect_invalid("#####\n#@$.#\n#####\n", &bad_metric, 1, "steps");
	const struct lk_level_options bad_h = { .heuristic = "manhattan" };
	expect_invalid("#####\n#@$.#\n#####\n", &bad_h, 1, "manhattan");

	/* A level after leading blank lines reports its own line numbers. */
	expect_invalid("\n\n; third line\n#####\n#@$.#\n#@  #\n#####\n", &none, 6, "player");

	/* And the valid ones load, with the right metric. */
	struct lk_level *l = load("#####\n#@$.#\n#####\n", NULL, NULL);
	assert_string_equal(l->metric, "pushes");
	assert_true(l->has_heuristic);
	assert_true(l->heuristic_admissible);
	assert_true(l->key_size >= 2);
	lk_level_free(l);
	l = load("; game: sokoban given\ngame: sokoban\n#####\n#@$.#\n#####\n", "moves", "mixedaim");
	assert_string_equal(l->metric, "moves");
	lk_level_free(l);
	assert_null(lk_game_find("chess"));
	assert_true(lk_name_in("moves", lk_game_find("sokoban")->metrics));
}

/* The largest grid is 250 x 250.  The first row too wide, or the first
 * row too many, is reported at its line as soon as it is decoded: 20000
 * lines of "9(9(9(9(#))))" (6561 walls each) once were all decoded first,
 * 130 MB from a 280 KB file (found by tests/fuzz/run.sh --grow). */
static void test_largest_grid(void **state)
{
	(void)state;
	const struct lk_level_options none = { .metric = NULL };
	struct lk_strbuf t = LK_STRBUF_INIT;

	/* 250 x 250 loads */
	lk_strbuf_addstr(&t, "250#\n#@$.245-#\n");
	for (int i = 0; i < 247; i++)
		lk_strbuf_addstr(&t, "#248-#\n");
	lk_strbuf_addstr(&t, "250#\n");
	struct lk_level *l = load(t.buf, NULL, NULL);
	lk_level_free(l);
	/* one more row: the 251st, on line 251 */
	lk_strbuf_addstr(&t, "250#\n");
	expect_invalid(t.buf, &none, 251, "grid is taller than 250 rows");
	/* one more column on line 2 */
	expect_invalid("251#\n#@$.246-#\n251#\n", &none, 1, "row is wider than 250 cells");
	expect_invalid("250#\n#@$.246-#\n250#\n", &none, 2, "row is wider than 250 cells");
	/* many rows from one line: "9999(#|)" */
	expect_invalid("; x\n#####\n9999(#|)\n", &none, 3, "grid is taller than 250 rows");
	/* and many lines that decode to far too wide rows */
	lk_strbuf_reset(&t);
	lk_strbuf_addstr(&t, "#####\n");
	for (int i = 0; i < 20000; i++)
		lk_strbuf_addstr(&t, "9(9(9(9(#))))\n");
	expect_invalid(t.buf, &none, 2, "row is wider than 250 cells");
	lk_strbuf_release(&t);
}

/* -------------------------------------------------------------- replay */

/* Replay solution; an error must mention both substrings (e.g. which
 * move, and what went wrong). */
static void expect_replay(const char *level_text, const char *solution, int want_rc,
			  bool want_solved, long want_moves, const char *sub1, const char *sub2)
{
	struct lk_level *level = load(level_text, NULL, NULL);
	struct lk_solution_stats st;
	struct lk_strbuf err = LK_STRBUF_INIT;
	bool solved = !want_solved;
	int rc = replay_stats(level, solution, &st, &solved, &err);
	if (rc != want_rc)
		fail_msg("replay '%s' returned %d (%s)", solution, rc, err.buf);
	if (rc == 0) {
		assert_int_equal(solved, want_solved);
		assert_int_equal(st.moves, want_moves);
		assert_true(st.has_pushes);
	} else {
		assert_true(err.len > 0);
		assert_false(isupper((unsigned char)err.buf[0]));
		if (!strstr(err.buf, sub1) || !strstr(err.buf, sub2))
			fail_msg("message '%s' lacks '%s' or '%s'", err.buf, sub1, sub2);
	}
	lk_strbuf_release(&err);
	lk_level_free(level);
}

static void test_replay_errors(void **state)
{
	(void)state;
	const char *l2 = "#####\n#.  #\n# $ #\n#  @#\n#####\n";  /* player (3,3), box (2,2) */
	expect_replay(l2, "uLdlU", 0, true, 5, NULL, NULL);
	expect_replay(l2, "lUruL", 0, true, 5, NULL, NULL);
	expect_replay(l2, " u L\td l U ", 0, true, 5, NULL, NULL);   /* blanks are ignored */
	expect_replay(l2, "", 0, false, 0, NULL, NULL);
	expect_replay(l2, "uL", 0, false, 2, NULL, NULL);            /* legal, not solved */
	expect_replay(l2, "d", -1, false, 0, "move 1", "wall");       /* into the wall below */
	expect_replay(l2, "uuu", -1, false, 0, "move 3", "wall");
	expect_replay(l2, "uLL", -1, false, 0, "move 3", "wall");     /* box into the wall */
	expect_replay(l2, "ul", -1, false, 0, "move 2", "lower case"); /* a push written small */
	expect_replay(l2, "U", -1, false, 0, "move 1", "push");       /* a walk written large */
	expect_replay(l2, "ux", -1, false, 0, "'x'", "not a move");
	expect_replay(l2, "u?", -1, false, 0, "'?'", "not a move");
	expect_replay(l2, "3", -1, false, 0, "run length", "");
	/* Two boxes in a row cannot be pushed. */
	expect_replay("#######\n#@$$..#\n#######\n", "R", -1, false, 0, "move 1", "another box");
	/* Run lengths repeat a move. */
	const char *corridor = "#######\n#@$  .#\n#######\n";
	expect_replay(corridor, "3R", 0, true, 3, NULL, NULL);
	expect_replay(corridor, "2RR", 0, true, 3, NULL, NULL);
	/* the box reaches the goal at move 3: a fourth move is past the win */
	expect_replay(corridor, "4R", -1, false, 0, "solved after move 3", "more moves");
	expect_replay(corridor, "3Rl", -1, false, 0, "solved after move 3", "more moves");
	expect_replay(corridor, "3R  ", 0, true, 3, NULL, NULL);
	expect_replay("#######\n#@$  .#\n#######\n", "lR", -1, false, 0, "move 1", "wall");
	expect_replay(corridor, "2R2l", 0, false, 4, NULL, NULL);
}

/* ---------------------------------------------------- run-length levels */

/* Everything observable about a level: its start drawn, and for every
 * algorithm the cost and solution found. */
static void describe(struct lk_solver *s, const char *text, const char *metric,
		     struct lk_strbuf *out)
{
	struct lk_level *l = load(text, metric, NULL);
	unsigned char *k = calloc(1, l->key_size);
	assert_non_null(k);
	l->game->initial_state(l, k);
	l->game->write_state(l, k, out);
	for (int a = 0; a < LK_ALGO_COUNT; a++) {
		struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
		struct lk_search_result r;
		struct lk_solution_stats st;
		o.algo = (enum lk_algo)a;
		lk_search_result_init(&r);
		lk_solver_run(s, l, &o, &r);
		assert_int_equal(r.status, LK_SOLVED);
		lk_strbuf_addf(out, "%s %lu ", lk_algo_name(o.algo), r.cost);
		format_solution(l, r.path, r.nkeys, out, &st);
		lk_strbuf_addch(out, '\n');
		lk_search_result_release(&r);
	}
	free(k);
	lk_level_free(l);
}

static void test_run_length_level(void **state)
{
	(void)state;
	const char *plain[] = {
		"#####\n#.  #\n# $ #\n#  @#\n#####\n",
		"######\n##   #\n#@$  #\n#.   #\n######\n",
	};
	const char *rle[][2] = {
		{ "5#|#.2-#|#-$-#|#2-@#|5#\n", "5#\n#.2-#\n#-$-#\n#2-@#\n5#\n" },
		{ "6#|2#3-#|#@$2-#|#.3-#|6#\n", "6#\n2#3_#\n#@$2 #\n#.3-#\n6#\n" },
	};
	struct lk_solver s;
	lk_solver_init(&s);
	for (size_t i = 0; i < 2; i++) {
		for (int m = 0; m < 2; m++) {
			struct lk_strbuf want = LK_STRBUF_INIT;
			describe(&s, plain[i], m ? "moves" : "pushes", &want);
			for (int j = 0; j < 2; j++) {
				struct lk_strbuf got = LK_STRBUF_INIT;
				describe(&s, rle[i][j], m ? "moves" : "pushes", &got);
				assert_string_equal(got.buf, want.buf);
				lk_strbuf_release(&got);
			}
			lk_strbuf_release(&want);
		}
	}
	lk_solver_release(&s);
}

/* --------------------------------------------------------- write_state */

/* Remove the player from a drawing ('@' -> ' ', '+' -> '.'). */
static void erase_player(char *s)
{
	for (; *s; s++)
		*s = *s == '@' ? ' ' : *s == '+' ? '.' : *s;
}

static void test_write_state(void **state)
{
	(void)state;
	const char *levels[] = {
		"#####\n#.  #\n# $ #\n#  @#\n#####\n",
		"######\n##   #\n#@$  #\n#.   #\n######\n",
		"######\n#+$  #\n#  * #\n######\n",
		"#######\n#.   .#\n# $#$ #\n#  @  #\n#######\n",
	};
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		for (int m = 0; m < 2; m++) {
			struct lk_level *l = load(levels[i], m ? "moves" : "pushes", NULL);
			unsigned char *k = calloc(1, l->key_size);
			struct lk_strbuf out = LK_STRBUF_INIT;
			assert_non_null(k);
			l->game->initial_state(l, k);
			l->game->write_state(l, k, &out);
			if (m) {
				/* Under "moves" the key holds the exact player. */
				assert_string_equal(out.buf, levels[i]);
			} else {
				/* Under "pushes" the player may be drawn anywhere
				 * in its area: one player, everything else equal. */
				int players = 0;
				for (const char *c = out.buf; *c; c++)
					players += *c == '@' || *c == '+';
				assert_int_equal(players, 1);
				char *want = malloc(strlen(levels[i]) + 1);
				assert_non_null(want);
				strcpy(want, levels[i]);
				erase_player(want);
				erase_player(out.buf);
				assert_string_equal(out.buf, want);
				free(want);
			}
			/* A path of only the start formats as nothing. */
			struct lk_strbuf sol = LK_STRBUF_INIT;
			struct lk_solution_stats st;
			format_solution(l, k, 1, &sol, &st);
			assert_string_equal(sol.buf, "");
			assert_int_equal(st.moves, 0);
			assert_int_equal(st.pushes, 0);
			lk_strbuf_release(&sol);
			lk_strbuf_release(&out);
			free(k);
			lk_level_free(l);
		}
	}
}


/* ------------------------------------------------ greedy's estimate */

/* Greedy's estimate minus the bound, at the level's start. */
static long estimate_excess(const char *text, const char *heuristic)
{
	struct lk_level *level = load(text, NULL, heuristic);
	const struct lk_game *g = level->game;
	assert_non_null(g->estimate);
	void *scratch = calloc(1, level->scratch_size);
	unsigned char *key = calloc(1, level->key_size);
	g->initial_state(level, key);
	unsigned h = g->heuristic(level, key, scratch);
	unsigned e = g->estimate(level, key, scratch);
	assert_true(h != LK_H_DEAD && e != LK_H_DEAD);
	free(key);
	free(scratch);
	lk_level_free(level);
	return (long)e - (long)h;
}

/*
 * The goals (1,1) (1,2) form a dead-end column filled from (1,3), with the
 * player pushing from (1,4); the player reaches (1,4) only through (2,4)
 * or the column itself.  So a box on (2,4) shuts off (1,1) and (1,2), but
 * only because of the player's reach: a box alone could still be pulled
 * out of the column.  The estimate adds 4 per unfinished box.
 */
static void test_greedy_estimate(void **state)
{
	(void)state;
	/* six boxes off the goals but one, which is on (2,4): all unfinished */
	assert_int_equal(estimate_excess("########\n#.######\n#.######\n#..$$$ #\n"
					 "#.*$ $ #\n##    @#\n########\n", NULL), 24);
	/* the box on (1,1) instead is finished: it shuts nothing off */
	assert_int_equal(estimate_excess("########\n#*######\n#.######\n#..$$$ #\n"
					 "#..$ $ #\n##    @#\n########\n", NULL), 20);
	/* (2,4) also shuts off (1,4), which only a push along row 4 can
	 * fill: with (1,1), (1,2) filled and (1,4) empty it is unfinished */
	assert_int_equal(estimate_excess("########\n#*######\n#*######\n#..$ $ #\n"
					 "#.*  $ #\n##    @#\n########\n", NULL), 16);
	/* with (1,1) empty it shuts that off too, through the player's reach
	 * alone: boxes on (1,2), (1,4), (2,4) all unfinished, three off goal */
	assert_int_equal(estimate_excess("########\n#.######\n#*######\n#..$ $ #\n"
					 "#**  $ #\n##    @#\n########\n", NULL), 24);
	/* and finished once (1,4) is filled too: two boxes off goal remain */
	assert_int_equal(estimate_excess("########\n#*######\n#*######\n#..$   #\n"
					 "#**  $ #\n##    @#\n########\n", NULL), 8);
	/* boxes on (1,3), the column's mouth, and (1,2), with (1,1) empty:
	 * both unfinished, like the four off goal */
	assert_int_equal(estimate_excess("########\n#.######\n#*######\n#*.$ $ #\n"
					 "#..$ $ #\n##    @#\n########\n", NULL), 24);
	/* open goals shut nothing off: only the boxes off goal count */
	assert_int_equal(estimate_excess("#######\n#.   .#\n# $*$ #\n#  @  #\n#######\n", NULL), 8);
	/* MixedAim's heuristic is left as the thesis had it */
	assert_int_equal(estimate_excess("########\n#.######\n#.######\n#..$$$ #\n"
					 "#.*$ $ #\n##    @#\n########\n", "mixedaim"), 0);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_largest_grid),
		cmocka_unit_test(test_replay_errors),
		cmocka_unit_test(test_run_length_level),
		cmocka_unit_test(test_write_state),
		cmocka_unit_test(test_greedy_estimate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
