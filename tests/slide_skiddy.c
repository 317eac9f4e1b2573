/*
 * slide_skiddy.c - the slide simulator tests of Skiddy's pieces and
 * terrain (run by test_slide.c's main), one rule of docs/games/slide.md
 * at a time on hand-built boards (the pictures of test_slide.c's header):
 * skiddy bodies and their sticking, exits, crates, pits and r.changed.
 * Every expected board is worked out by hand in a comment next to the case.
 */
#include "slide_board.h"

#include <string.h>

/* -------------------------------------------------------- skiddies */

void test_skiddy_bodies(void **state)
{
	(void)state;
	/* An L of three reds, (1,1) (1,2) (2,2).  Down: the member at (1,2)
	 * meets the block at (1,4) after one step, so the body moves one
	 * cell: (1,2) (1,3) (2,3).  Alone, (2,2) would have gone to (2,4). */
	check_move("#######|#r....#|#rr...#|#.....#|#X....#|#######", LK_DOWN,
		   "#######|#.....#|#r....#|#rr...#|#X....#|#######", true);
	/* Right: (1,1) is held by the block at (5,1) after three steps;
	 * the body ends at (4,1) (4,2) (5,2). */
	check_move("#######|#r...X#|#rr...#|#######", LK_RIGHT,
		   "#######|#...rX#|#...rr#|#######", true);
	/* Different colours do not stick: red held by the block, green
	 * slides on. */
	check_move("#####|#rg.#|#X..#|#...#|#####", LK_DOWN, "#####|#r..#|#X..#|#.g.#|#####", true);
	/* Passes: a red U (lead x4) holds a green skiddy (x2) in its mouth.
	 * The U goes first and is held by the green one, which then slides
	 * to the U's right arm; the next pass the U moves on, and so on until
	 * the right arm is at the wall (x6) and the green one next to it (x5). */
	check_move("########|#...r..#|#rg.r..#|#rrrr..#|########", LK_RIGHT,
		   "########|#.....r#|#..r.gr#|#..rrrr#|########", true);
	/* A body packs behind another piece like a single piece. */
	check_move("########|#rr.S..#|########", LK_RIGHT, "########|#...rrS#|########", true);
}

void test_skiddy_sticking_next_move(void **state)
{
	(void)state;
	struct tb t;
	/* Two reds, (1,1) and (1,3).  Up: the lower one slides to (1,2) and
	 * stops under the other; now they touch. */
	tb_init(&t, "######|#r...#|#..X.#|#r...#|######");
	tb_move(&t, LK_UP);
	assert_string_equal(tb_draw(&t), "######|#r...#|#r.X.#|#....#|######");
	/* Right: one body now.  (1,2) is held by the block at (3,2) after one
	 * step, so (1,1) stops at (2,1) with it, not at (4,1). */
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "######|#.r..#|#.rX.#|#....#|######");
	tb_release(&t);
	/* Touching during a slide does not glue: the top red passes (3,1),
	 * above the held red at (3,2), and goes on to (5,1). */
	check_move("#######|#r....#|#..rX.#|#######", LK_RIGHT, "#######|#....r#|#..rX.#|#######", true);
}

void test_exits(void **state)
{
	(void)state;
	struct tb t;
	/* A red skiddy reaching the red exit leaves. */
	tb_init(&t, "#####|#r..R|#####");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#####|#...R|#####");
	assert_int_equal(t.r.left[0], 1);
	assert_int_equal(left_total(&t.r), 1);
	assert_true(t.r.changed);
	tb_release(&t);
	/* An exit of another colour is a wall. */
	tb_init(&t, "#####|#r..G|#####");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#####|#..rG|#####");
	assert_int_equal(left_total(&t.r), 0);
	tb_release(&t);
	/* The green one leaves there, with its own colour counted. */
	tb_init(&t, "#####|#g..G|#####");
	tb_move(&t, LK_RIGHT);
	assert_int_equal(t.r.left[1], 1);
	assert_int_equal(left_total(&t.r), 1);
	tb_release(&t);
	/* Ice never leaves. */
	tb_init(&t, "#####|#I..R|#####");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#####|#..IR|#####");
	assert_int_equal(left_total(&t.r), 0);
	tb_release(&t);
	/* A body of two in line with its exit leaves whole in one move. */
	tb_init(&t, "######|#.rr.R|######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "######|#....R|######");
	assert_int_equal(t.r.left[0], 2);
	tb_release(&t);
	/* Also when the exit is right in front of it. */
	tb_init(&t, "#####|#.rrR|#####");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#####|#...R|#####");
	assert_int_equal(t.r.left[0], 2);
	tb_release(&t);
	/* A vertical pair with only its top member in line: it reaches x4,
	 * the bottom member meets the wall at (5,2), the body stops and
	 * nobody leaves. */
	tb_init(&t, "######|#r...R|#r...#|######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "######|#...rR|#...r#|######");
	assert_int_equal(left_total(&t.r), 0);
	tb_release(&t);
	/* The skiddy ahead leaves; the ice behind it follows up to the exit,
	 * which is a wall for ice, and stops in front of it (x4). */
	tb_init(&t, "######|#I.r.R|######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "######|#...IR|######");
	assert_int_equal(t.r.left[0], 1);
	tb_release(&t);
}

void test_crates(void **state)
{
	(void)state;
	/* The skiddy slides to x2, pushes the crate from x3 to x4, takes x3
	 * and stops (had it gone on, the crate would be at x5). */
	check_move("#######|#r.C..#|#######", LK_RIGHT, "#######|#..rC.#|#######", true);
	/* A crate against the wall holds the skiddy. */
	check_move("#####|#r.C#|#####", LK_RIGHT, "#####|#.rC#|#####", true);
	check_move("####|#rC#|####", LK_RIGHT, "####|#rC#|####", false);
	/* A crate behind a crate does not move. */
	check_move("#######|#r.CC.#|#######", LK_RIGHT, "#######|#.rCC.#|#######", true);
	/* Ice, fruit and stones do not push. */
	check_move("#######|#I.C..#|#######", LK_RIGHT, "#######|#.IC..#|#######", true);
	check_move("#######|#1.C..#|#######", LK_RIGHT, "#######|#.1C..#|#######", true);
	check_move("#######|#S.C..#|#######", LK_RIGHT, "#######|#.SC..#|#######", true);
	/* A body pushes too: the pair steps to x2 x3, then pushes the crate
	 * from x4 to x5 and stops at x3 x4. */
	check_move("########|#rr.C..#|########", LK_RIGHT, "########|#..rrC.#|########", true);
	/* A skiddy right next to a crate pushes it one cell and stops. */
	check_move("#######|#.rC..#|#######", LK_RIGHT, "#######|#..rC.#|#######", true);
	/* Vertically. */
	check_move("###|#r#|#.#|#C#|#.#|#.#|###", LK_DOWN, "###|#.#|#.#|#r#|#C#|#.#|###", true);
}

void test_pits(void **state)
{
	(void)state;
	struct tb t;
	/* The skiddy enters the pit at x3 and stops there, trapped. */
	tb_init(&t, "#######|#r.O..#|#######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#######|#..r..#|#######");
	assert_true(t.b.trapped[cell(&t, 3, 1)]);
	assert_true(t.r.changed);
	/* The next move it sits out (even a move that could take it on), and
	 * that frees it: a change of state, so r.changed. */
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#######|#..r..#|#######");
	assert_false(t.b.trapped[cell(&t, 3, 1)]);
	assert_true(t.r.changed);
	/* After that it moves normally and is not caught again leaving. */
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#######|#..O.r#|#######");
	assert_false(t.b.trapped[cell(&t, 5, 1)]);
	tb_release(&t);

	/* A body: the pair steps to x2 x3, then its leader enters the pit at
	 * x4 and the body stops at x3 x4.  A green skiddy in row 2 moves
	 * freely meanwhile. */
	tb_init(&t, "########|#rr.O..#|#g.....#|########");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "########|#..rr..#|#.....g#|########");
	assert_true(t.b.trapped[cell(&t, 4, 1)]);
	/* Left: the body sits this one out, the green one goes. */
	tb_move(&t, LK_LEFT);
	assert_string_equal(tb_draw(&t), "########|#..rr..#|#g.....#|########");
	assert_false(t.b.trapped[cell(&t, 4, 1)]);
	/* Left again: free, to the wall. */
	tb_move(&t, LK_LEFT);
	assert_string_equal(tb_draw(&t), "########|#rr.O..#|#g.....#|########");
	tb_release(&t);

	/* A piece passing over a pit falls in: ice from x1 stops at x2. */
	check_move("#######|#IO...#|#######", LK_RIGHT, "#######|#.I...#|#######", true);
	/* A trapped piece is an obstacle during the move it sits out: the
	 * ice stops behind it. */
	tb_init(&t, "#######|#I.r..#|#######");
	t.b.terrain[cell(&t, 3, 1)] = LK_T_PIT;
	t.b.trapped[cell(&t, 3, 1)] = 1;
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#######|#.Ir..#|#######");
	tb_release(&t);
}

void test_unchanged(void **state)
{
	(void)state;
	/* Everything already against the wall: nothing moves, no change. */
	check_move("#####|#1S2#|#####", LK_LEFT, "#####|#1S2#|#####", false);
	check_move("#####|#1S2#|#####", LK_UP, "#####|#1S2#|#####", false);
	check_move("#####|#..r#|#..r#|#####", LK_RIGHT, "#####|#..r#|#..r#|#####", false);
	check_move("#####|#rI.#|#####", LK_LEFT, "#####|#rI.#|#####", false);
	/* An empty board. */
	check_move("###|#.#|###", LK_DOWN, "###|#.#|###", false);
}
