/*
 * test_fruit.c - tests of the Fruit Dating game (src/games/fruit.c and the
 * shared src/games/slide_game.c) through the game interface:
 *
 *  - level text: unknown cells (message with the column, the line), no
 *    fruit, board size limits, the oneway field and its errors;
 *  - hand-worked levels whose shortest solutions are argued in comments,
 *    solved by BFS, UCS and A*; solutions formatted as u/r/d/l and
 *    replayed to a win; one-way borders changing the answer;
 *  - a brute-force solver written here (its own slide rules for walls,
 *    fruit, stones, mud and hedgehogs, and its own BFS) against BFS, UCS
 *    and the whole-graph analysis on hundreds of random small boards:
 *    solvability, shortest length and the number of reachable states;
 *  - write_state round trip;
 *  - the canonical form under the eight symmetries, anteater letters and
 *    oneway fields turned with the board, checked with lk_dedupe.
 *
 * This file holds all but the brute-force comparison (fruit_brute.c), and
 * the main that runs every test; the shared helpers are in
 * fruit_fixture.c.
 */
#include "fruit_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/analysis.h"
#include "levelkit/dedupe.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/search.h"
#include "test_support.h"

/* ------------------------------------------------------------ parsing */

/* The obstacle fields, counted by hand: 5x3 open cells inside the border
 * less one wall is 14, two stones in them (mud, hedgehogs and anteaters
 * are no obstacles the generator places by density). */
static void test_obstacles(void **state)
{
	(void)state;
	struct lk_level *level = load("game: fruit\n#######\n#a O ~#\n#  #O #\n#H   a#\n#######\n");
	struct lk_record rec;
	lk_record_init(&rec);
	assert_non_null(level->game->level_fields);
	level->game->level_fields(level, &rec);
	assert_string_equal(lk_record_get(&rec, "obstacles"), "2");
	assert_string_equal(lk_record_get(&rec, "obstacle-density"), "0.143");
	lk_record_release(&rec);
	lk_level_free(level);
}

static void test_validation(void **state)
{
	(void)state;
	/* line 1 game, 2-5 grid: the Q is on line 4, column 3 */
	expect_error("game: fruit\n#####\n#a.a#\n#.Q.#\n#####\n", "unknown fruit cell 'Q' in column 3", 4);
	/* a lower-case letter is a fruit, an upper-case one not in the legend is not */
	expect_error("game: fruit\n#####\n#a.a#\n#...Z\n#####\n", "column 5", 4);
	expect_error("game: fruit\n#####\n#.O.#\n#####\n", "level has no fruit", 2);
	/* partners touching at the start would match before any move; the
	 * message names the row of the first of them */
	expect_error("game: fruit\n#####\n#...#\n#.b.#\n#.b.#\n#####\n", "two fruit of one colour touch", 4);
	expect_error("game: fruit\n#####\n#aa.#\n#####\n", "two fruit of one colour touch", 3);
	lk_level_free(load("game: fruit\n#####\n#ab.#\n#ba.#\n#####\n"));   /* other colours may */
	/* 3x2 is too small; so are 2x3 and 17 wide; 3x3 and 16x16 are fine */
	expect_error("game: fruit\n###\n#a#\n", "fruit board is 3x3 to 16x16, not 3x2", 2);
	expect_error("game: fruit\n##\n#a\n##\n", "not 2x3", 2);
	expect_error("game: fruit\n#################\n#a.............a#\n#################\n",
		     "not 17x3", 2);
	lk_level_free(load("game: fruit\n###\n#a#\n###\n"));
	{
		char text[600];
		size_t at = 0;
		at += (size_t)sprintf(text + at, "game: fruit\n");
		for (int y = 0; y < 16; y++)
			at += (size_t)sprintf(text + at, "%s\n",
					      y == 0 || y == 15 ? "################" :
					      y == 1 ? "#a............a#" : "#..............#");
		lk_level_free(load(text));
		/* one row more is too many */
		at += (size_t)sprintf(text + at, "################\n");
		expect_error(text, "not 16x17", 2);
	}
	/* oneway: entries x,y,d; errors point at the field's line (5) */
	lk_level_free(load("game: fruit\n#####\n#a.a#\n#####\noneway: 1,1,r 3,1,l\n"));
	lk_level_free(load("game: fruit\n#####\n#a.a#\n#####\noneway:\n"));
	expect_error("game: fruit\n#####\n#a.a#\n#####\noneway: 1,1,x\n", "oneway", 5);
	expect_error("game: fruit\n#####\n#a.a#\n#####\noneway: 1,1\n", "oneway", 5);
	expect_error("game: fruit\n#####\n#a.a#\n#####\noneway: 5,1,r\n", "oneway", 5);
	expect_error("game: fruit\n#####\n#a.a#\n#####\noneway: 1,-1,u\n", "oneway", 5);
	expect_error("game: fruit\n#####\n#a.a#\n#####\noneway: 1,1,r junk\n", "oneway", 5);
	/* the field may come first too: then the error is on line 2 */
	expect_error("game: fruit\noneway: 1,1,q\n#####\n#a.a#\n#####\n", "oneway", 2);
}

/* ------------------------------------------------------ hand-worked */

static void test_hand_worked(void **state)
{
	(void)state;
	char sol[64];
	struct lk_level *level;

	/* One move: tilting left the fruit at x5 slides to x2 and meets the
	 * one at x1; tilting right, the one at x1 slides to x4. */
	level = load("game: fruit\n#######\n#a...a#\n#######\n");
	assert_int_equal(solve_all(level, sol, sizeof sol), 1);
	assert_true(strcmp(sol, "l") == 0 || strcmp(sol, "r") == 0);
	lk_level_free(level);

	/* docs/games/fruit.md's first level (its comment says three moves;
	 * it takes two).  Right sends the top fruit to
	 * (5,1); down then brings it to (5,2), on top of the other: two
	 * moves.  No single tilt matches them: r -> (5,1)/(5,3), d -> (1,3)/
	 * (5,3), l -> (1,1)/(1,3), u -> (1,1)/(5,1), none touching. */
	level = load("game: fruit\n#######\n#a    #\n#  #  #\n#    a#\n#######\n");
	assert_int_equal(solve_all(level, sol, sizeof sol), 2);
	lk_level_free(level);

	/* An S-shaped corridor with a fruit at each end (f1 (1,1), f2 (5,3)).
	 *   start: d -> A {(1,3),(5,3)};  u -> B {(1,1),(5,1)};  l, r nothing
	 *   A: r -> {(3,3),(5,3)};  u -> B          B: l -> {(1,1),(3,1)};  d -> A
	 *   {(3,3),(5,3)}: u -> {(3,1),(5,1)};  l -> A
	 *   {(1,1),(3,1)}: d -> {(1,3),(3,3)};  r -> B
	 *   {(3,1),(5,1)}: l brings them together at (3,1)/(4,1), r at (4,1)/(5,1)
	 *   {(1,3),(3,3)}: r or l likewise
	 * so four moves (drul, drur, uldr, uldl), never fewer. */
	level = load("game: fruit\n#######\n#a#...#\n#.#.#.#\n#...#a#\n#######\n");
	assert_int_equal(solve_all(level, sol, sizeof sol), 4);
	assert_true(strcmp(sol, "drul") == 0 || strcmp(sol, "drur") == 0 || strcmp(sol, "uldr") == 0 ||
		    strcmp(sol, "uldl") == 0);
	lk_level_free(level);

	/* A stone: row 1 is a (1,1), stone (2,1); row 2 has a at (4,2).
	 *   l: the row-2 fruit slides to (1,2), under (1,1): a match.
	 *   r: stone to (4,1), fruit to (3,1); (4,2) stays: diagonal.
	 *   u: (4,2) rises to (4,1), next to nothing.
	 *   d: (1,1) drops to (1,2), stone to (2,2); (4,2) is far off.
	 * So one move, and only l. */
	level = load("game: fruit\n######\n#aO..#\n#...a#\n######\n");
	assert_int_equal(solve_all(level, sol, sizeof sol), 1);
	assert_string_equal(sol, "l");
	lk_level_free(level);

	/* Mud at (1,2) between fruits at (1,1) and (1,3).  u or d drops one
	 * into the mud (lost); l changes nothing; r sends both to x3, with
	 * (3,2) free between them.  Then d or u closes the gap: two moves,
	 * "rd" or "ru". */
	level = load("game: fruit\n#####\n#a..#\n#~..#\n#a..#\n#####\n");
	assert_int_equal(solve_all(level, sol, sizeof sol), 2);
	assert_true(strcmp(sol, "rd") == 0 || strcmp(sol, "ru") == 0);
	lk_level_free(level);

	/* A hedgehog between the only two fruits: l feeds the right one to
	 * it, r the left one, u and d change nothing.  Unsolvable. */
	level = load("game: fruit\n#######\n#a.H.a#\n#######\n");
	assert_int_equal(solve_all(level, NULL, 0), -1);
	lk_level_free(level);

	/* An anteater facing east at (1,1); fruit at (5,1) and in a pocket
	 * at (2,2).  Effects only come after a move:
	 *   l: (5,1) slides to (2,1), against the anteater, on top of (2,2).
	 *   r, d: nothing slides, but the move is not void: the anteater
	 *         pulls (5,1) to its front (2,1), on top of (2,2).
	 *   u: the pocket fruit rises to (2,1), right in front of the
	 *      anteater (nothing to pull); (5,1) is far off.
	 * So one move: l, r or d. */
	level = load("game: fruit\n#######\n#E...a#\n##a####\n#######\n");
	assert_int_equal(solve_all(level, sol, sizeof sol), 1);
	assert_true(strcmp(sol, "l") == 0 || strcmp(sol, "r") == 0 || strcmp(sol, "d") == 0);
	{
		struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
		struct lk_analysis a;
		lk_analysis_init(&a);
		lk_analyse(level, &o, &a);
		assert_int_equal(a.solutions, 3);
		lk_analysis_release(&a);
	}
	lk_level_free(level);
}

static void test_oneway(void **state)
{
	(void)state;
	char sol[64];
	struct lk_level *level;
	/* "3,1,r": pieces cross from (3,1) to (4,1) but not back, so the
	 * fruit at (5,1) tilted left stops at (4,1); only r works: the fruit
	 * at (1,1) slides to (4,1) beside (5,1). */
	level = load("game: fruit\n#######\n#a...a#\n#######\noneway: 3,1,r\n");
	assert_int_equal(solve_all(level, sol, sizeof sol), 1);
	assert_string_equal(sol, "r");
	lk_level_free(level);
	/* "3,1,l": the mirror image, only l. */
	level = load("game: fruit\n#######\n#a...a#\n#######\noneway: 3,1,l\n");
	assert_int_equal(solve_all(level, sol, sizeof sol), 1);
	assert_string_equal(sol, "l");
	lk_level_free(level);
	/* Both: the left fruit never gets past x2, the right one never past
	 * x4; they can never touch.  The states: (1,5) (2,5) (1,4). */
	level = load("game: fruit\n#######\n#a...a#\n#######\noneway: 3,1,r 3,1,l\n");
	assert_int_equal(solve_all(level, NULL, 0), -1);
	{
		struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
		struct lk_analysis a;
		lk_analysis_init(&a);
		lk_analyse(level, &o, &a);
		assert_true(a.complete);
		assert_int_equal(a.reachable, 3);
		assert_int_equal(a.dead_ends, 3);
		lk_analysis_release(&a);
	}
	lk_level_free(level);
}

static void test_replay(void **state)
{
	(void)state;
	struct lk_level *level = load("game: fruit\n#######\n#a#...#\n#.#.#.#\n#...#a#\n#######\n");
	struct lk_solution_stats st;
	struct lk_strbuf err = LK_STRBUF_INIT;
	bool solved = true;
	assert_int_equal(replay_stats(level, "DRUL", &st, &solved, &err), 0);
	assert_true(solved);
	assert_int_equal(st.moves, 4);
	assert_int_equal(replay_stats(level, "dru", &st, &solved, &err), 0);
	assert_false(solved);
	assert_int_equal(replay_stats(level, "d r u x", &st, &solved, &err), -1);
	assert_false(solved);
	assert_non_null(strstr(err.buf, "'x'"));
	lk_strbuf_release(&err);
	lk_level_free(level);
}

/* --------------------------------------------------------- write_state */

static void test_write_state(void **state)
{
	(void)state;
	const char *grid = "#######\n#a#...#\n#.#.#.#\n#...#a#\n#######\n";
	char text[200];
	sprintf(text, "game: fruit\n%s", grid);
	struct lk_level *level = load(text);
	unsigned char key[64], succ[4 * 64];
	struct lk_edge edges[4];
	struct lk_strbuf out = LK_STRBUF_INIT;
	assert_true(level->key_size <= sizeof key);
	level->game->initial_state(level, key);
	/* the start is drawn as the grid ('.' becomes ' ', none here) */
	level->game->write_state(level, key, &out);
	{
		/* compare with the grid, floor '.' written as ' ' and trailing
		 * blanks trimmed */
		char want[200];
		size_t k = 0;
		for (const char *p = grid; *p; p++)
			want[k++] = *p == '.' ? ' ' : *p;
		want[k] = '\0';
		assert_string_equal(out.buf, want);
	}
	/* Move d: the state drawn is the board after it; reading it back as a
	 * level gives that board and a level one move shorter (4 -> 3). */
	void *scratch = calloc(1, level->scratch_size);
	assert_non_null(scratch);
	unsigned n = level->game->successors(level, key, scratch, succ, edges);
	assert_int_equal(n, 2);   /* u and d; l and r change nothing */
	bool found = false;
	for (unsigned i = 0; i < n; i++) {
		lk_strbuf_reset(&out);
		level->game->write_state(level, succ + i * level->key_size, &out);
		if (strcmp(out.buf, "#######\n# #   #\n# # # #\n#a  #a#\n#######\n") == 0)
			found = true;
	}
	assert_true(found);
	sprintf(text, "game: fruit\n%s", "#######\n# #   #\n# # # #\n#a  #a#\n#######\n");
	struct lk_level *again = load(text);
	assert_int_equal(solve_all(again, NULL, 0), 3);
	unsigned char key2[64];
	again->game->initial_state(again, key2);
	lk_strbuf_reset(&out);
	again->game->write_state(again, key2, &out);
	assert_string_equal(out.buf, "#######\n# #   #\n# # # #\n#a  #a#\n#######\n");
	lk_level_free(again);
	free(scratch);
	lk_strbuf_release(&out);
	lk_level_free(level);
}

/* ------------------------------------------------------- symmetries */

/* The level grid rotated a quarter turn clockwise and/or mirrored left to
 * right (written here, not with the library's transforms): (x, y) goes to
 * (h-1-y, x); directions u->r->d->l->u; anteaters N->E->S->W->N. */
struct lvl {
	int w, h;
	char g[16][17];
	char oneway[128];
	bool turn_anteaters;
};

static char turn_dir(char d, bool mirror)
{
	const char *from = "urdlNESW";
	const char *to = mirror ? "uldrNWSE" : "rdluESWN";
	const char *p = strchr(from, d);
	return p ? to[p - from] : d;
}

static void transform(const struct lvl *in, bool mirror, struct lvl *out)
{
	memset(out, 0, sizeof *out);
	out->turn_anteaters = in->turn_anteaters;
	if (mirror) {
		out->w = in->w;
		out->h = in->h;
	} else {
		out->w = in->h;
		out->h = in->w;
	}
	for (int y = 0; y < in->h; y++) {
		for (int x = 0; x < in->w; x++) {
			int nx = mirror ? in->w - 1 - x : in->h - 1 - y, ny = mirror ? y : x;
			char ch = in->g[y][x];
			if (strchr("NESW", ch) && in->turn_anteaters)
				ch = turn_dir(ch, mirror);
			out->g[ny][nx] = ch;
		}
	}
	/* oneway entries */
	const char *p = in->oneway;
	size_t at = 0;
	while (*p) {
		int x, y, used;
		char d;
		assert_int_equal(sscanf(p, "%d,%d,%c%n", &x, &y, &d, &used), 3);
		p += used;
		while (*p == ' ')
			p++;
		int nx = mirror ? in->w - 1 - x : in->h - 1 - y, ny = mirror ? y : x;
		at += (size_t)sprintf(out->oneway + at, "%s%d,%d,%c", at ? " " : "", nx, ny,
				      turn_dir(d, mirror));
	}
}

static void lvl_text(const struct lvl *l, char *text)
{
	size_t at = (size_t)sprintf(text, "game: fruit\n");
	for (int y = 0; y < l->h; y++)
		at += (size_t)sprintf(text + at, "%s\n", l->g[y]);
	if (l->oneway[0])
		sprintf(text + at, "oneway: %s\n", l->oneway);
}

static void canonical_of(const char *text, struct lk_strbuf *out)
{
	struct lk_record rec;
	read_record(text, &rec);
	struct lk_level *level = load(text);
	lk_strbuf_reset(out);
	lk_level_canonical(level, &rec, out);
	lk_level_free(level);
	lk_record_release(&rec);
}

static bool dedupe_pair(const char *a, const char *b)
{
	struct lk_dedupe d;
	struct lk_record ra, rb;
	lk_dedupe_init(&d);
	read_record(a, &ra);
	read_record(b, &rb);
	struct lk_level *la = load(a), *lb = load(b);
	assert_true(lk_dedupe_add(&d, la, &ra));
	bool fresh = lk_dedupe_add(&d, lb, &rb);
	lk_level_free(la);
	lk_level_free(lb);
	lk_record_release(&ra);
	lk_record_release(&rb);
	lk_dedupe_release(&d);
	return !fresh;
}

static void test_symmetries(void **state)
{
	(void)state;
	/* An asymmetric level with an anteater facing north, a stone, mud,
	 * a hedgehog and a one-way border. */
	struct lvl base = { .w = 7, .h = 5, .turn_anteaters = true };
	const char *rows[] = { "#######", "#a.N~b#", "#..O.a#", "#b..H.#", "#######" };
	for (int y = 0; y < 5; y++)
		strcpy(base.g[y], rows[y]);
	strcpy(base.oneway, "1,2,r 4,2,u");
	char text0[400], text[400];
	struct lk_strbuf c0 = LK_STRBUF_INIT, c = LK_STRBUF_INIT;
	lvl_text(&base, text0);
	canonical_of(text0, &c0);
	long moves0;
	{
		struct lk_level *l = load(text0);
		moves0 = solve_all(l, NULL, 0);
		lk_level_free(l);
	}
	assert_true(moves0 > 0);   /* solvable: the lengths compared below mean something */
	/* all eight: four turns, each mirrored or not */
	struct lvl cur = base, next, mir;
	for (int k = 0; k < 4; k++) {
		for (int m = 0; m < 2; m++) {
			if (m)
				transform(&cur, true, &mir);
			lvl_text(m ? &mir : &cur, text);
			canonical_of(text, &c);
			if (strcmp(c.buf, c0.buf) != 0)
				fail_msg("canonical differs for turn %d mirror %d:\n%s\n%s\nvs\n%s", k, m, text,
					 c.buf, c0.buf);
			struct lk_level *l = load(text);
			assert_int_equal(solve_all(l, NULL, 0), moves0);
			lk_level_free(l);
		}
		transform(&cur, false, &next);
		cur = next;
	}
	struct lvl q;
	transform(&base, false, &q);
	lvl_text(&q, text);
	assert_true(dedupe_pair(text0, text));
	/* the same turn with the anteater left facing north is another level */
	struct lvl qa = base;
	qa.turn_anteaters = false;
	struct lvl q2;
	transform(&qa, false, &q2);
	lvl_text(&q2, text);
	assert_non_null(strchr(text, 'N'));
	assert_false(dedupe_pair(text0, text));
	/* and the turn with the one-way borders not turned is another level */
	transform(&base, false, &q);
	strcpy(q.oneway, base.oneway);
	lvl_text(&q, text);
	assert_false(dedupe_pair(text0, text));
	/* reversing a one-way border makes another level */
	struct lvl rev = base;
	strcpy(rev.oneway, "2,2,l 4,2,u");
	lvl_text(&rev, text);
	assert_false(dedupe_pair(text0, text));
	lk_strbuf_release(&c0);
	lk_strbuf_release(&c);
}

static void test_symmetry_by_hand(void **state)
{
	(void)state;
	/* A 5x4 level and its quarter turn clockwise, written by hand:
	 * (x, y) -> (3 - y, x).  The anteater 'S' at (3,1) faces south; after
	 * the turn it is at (2,3) and faces west, 'W'. */
	const char *a = "game: fruit\n#####\n#a.S#\n#b.a#\n#####\n";
	/* rows of the turned board, y' = x: x=0 column "####" read bottom up */
	const char *b = "game: fruit\n####\n#ba#\n#..#\n#aW#\n####\n";
	const char *b_unturned = "game: fruit\n####\n#ba#\n#..#\n#aS#\n####\n";
	assert_true(dedupe_pair(a, b));
	assert_false(dedupe_pair(a, b_unturned));
	/* a mirror image (left-right) is the same puzzle too: S stays S */
	assert_true(dedupe_pair(a, "game: fruit\n#####\n#S.a#\n#a.b#\n#####\n"));
	/* with a one-way border: 1,1,r turns to 2,1,d */
	assert_true(dedupe_pair("game: fruit\n#####\n#a.S#\n#b.a#\n#####\noneway: 1,1,r\n",
				"game: fruit\n####\n#ba#\n#..#\n#aW#\n####\noneway: 2,1,d\n"));
	assert_false(dedupe_pair("game: fruit\n#####\n#a.S#\n#b.a#\n#####\noneway: 1,1,r\n",
				 "game: fruit\n####\n#ba#\n#..#\n#aW#\n####\noneway: 2,1,r\n"));
}

static void test_symmetry_two_borders_one_cell(void **state)
{
	(void)state;
	/* Two one-way borders of one cell: "1,1,r" and "2,2,u" both end at
	 * (2,1) (nothing leaves it leftwards or downwards).  Mirrored left to
	 * right: (1,1) -> (3,1) with r -> l, (2,2) -> (2,2), u stays: the
	 * same puzzle, so the canonical forms must agree. */
	const char *a = "game: fruit\n#####\n#a..#\n#..a#\n#####\noneway: 1,1,r 2,2,u\n";
	const char *m = "game: fruit\n#####\n#..a#\n#a..#\n#####\noneway: 3,1,l 2,2,u\n";
	struct lk_strbuf ca = LK_STRBUF_INIT, cm = LK_STRBUF_INIT;
	canonical_of(a, &ca);
	canonical_of(m, &cm);
	bool same = strcmp(ca.buf, cm.buf) == 0;
	if (!same)
		print_error("canonical forms differ:\n%s---\n%s", ca.buf, cm.buf);
	lk_strbuf_release(&ca);
	lk_strbuf_release(&cm);
	assert_true(same);
	assert_true(dedupe_pair(a, m));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_obstacles),
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_oneway),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_random_against_brute_force),
		cmocka_unit_test(test_write_state),
		cmocka_unit_test(test_symmetries),
		cmocka_unit_test(test_symmetry_by_hand),
		cmocka_unit_test(test_symmetry_two_borders_one_cell),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
