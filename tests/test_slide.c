/*
 * test_slide.c - tests of the slide simulator (src/games/slide.c,
 * src/games/slide/slide.h) that Fruit Dating and Skiddy share.
 *
 *  - Hand-built boards, one rule of docs/games/slide.md at a time: packing
 *    against the far wall in all four directions, walls and blocks,
 *    pieces stopping on pieces, one-way borders, mud, hedgehogs,
 *    anteaters, matching, skiddy bodies, exits, crates, pits and
 *    r.changed.  Every expected board is worked out by hand in a comment
 *    next to the case.
 *  - A reference simulator written here for the simple case (walls,
 *    fruit and stones only: pieces taken farthest first, each sliding
 *    until blocked, then groups of touching same-colour fruit removed),
 *    compared with lk_slide_move on thousands of random small boards.
 *
 * Pictures: rows separated by '|'.  Terrain: '#' wall, '.' floor, 'X'
 * block, '~' mud, 'O' pit, 'H' hedgehog, '^' '>' 'v' '<' anteaters,
 * 'R' 'G' 'B' exits (colours 0, 1, 2).  Pieces: '0'-'9' fruit (the digit is
 * the colour), 'S' stone, 'r' 'g' 'b' skiddies (colours 0, 1, 2), 'I' ice,
 * 'C' crate.  A piece is drawn instead of the terrain under it.
 *
 * This file holds the basic motion, terrain, matching and the reference
 * simulator, and the main that runs every test; the boards are in
 * slide_board.c, Skiddy's pieces and terrain in slide_skiddy.c.
 */
#include "slide_board.h"

#include <string.h>

#include "levelkit/grid.h"

/* --------------------------------------------------- the basic motion */

static void test_pack_four_directions(void **state)
{
	(void)state;
	/* A fruit, a stone and another fruit spread along a corridor pack
	 * against the far wall, in order, whichever way the board tilts. */
	check_move("#######|#1.S.2#|#######", LK_RIGHT, "#######|#..1S2#|#######", true);
	check_move("#######|#1.S.2#|#######", LK_LEFT, "#######|#1S2..#|#######", true);
	check_move("###|#1#|#.#|#S#|#.#|#2#|###", LK_UP, "###|#1#|#S#|#2#|#.#|#.#|###", true);
	check_move("###|#1#|#.#|#S#|#.#|#2#|###", LK_DOWN, "###|#.#|#.#|#1#|#S#|#2#|###", true);
	/* Two rows at once: each packs on its own. */
	check_move("######|#1.S.#|#.2.S#|######", LK_RIGHT, "######|#..1S#|#..2S#|######", true);
	/* Without a wall the board's edge stops a piece. */
	check_move("1...", LK_RIGHT, "...1", true);
	check_move("S|.|.", LK_DOWN, ".|.|S", true);
}

static void test_walls_and_blocks(void **state)
{
	(void)state;
	/* The block at x4 stops the fruit at x3; the wall stops the stone. */
	check_move("########|#1..X..#|########", LK_RIGHT, "########|#..1X..#|########", true);
	check_move("########|#..X..S#|########", LK_LEFT, "########|#..XS..#|########", true);
	/* An inner wall works the same way. */
	check_move("#####|#...#|#.#.#|#.S.#|#####", LK_UP, "#####|#...#|#.#.#|#.S.#|#####", false);
	check_move("#####|#.S.#|#.#.#|#...#|#####", LK_DOWN, "#####|#.S.#|#.#.#|#...#|#####", false);
}

static void test_pieces_stop_on_pieces(void **state)
{
	(void)state;
	/* A crate does not slide; a fruit stops against it (x3). */
	check_move("######|#1..C#|######", LK_RIGHT, "######|#..1C#|######", true);
	/* The stone slides to the wall first; the fruit stops on it. */
	check_move("######|#1.S.#|#....#|######", LK_RIGHT, "######|#..1S#|#....#|######", true);
	/* Ice and skiddies are pieces too. */
	check_move("######|#S..I#|######", LK_RIGHT, "######|#..SI#|######", true);
}

static void test_one_way_borders(void **state)
{
	(void)state;
	struct tb t;
	/* Bit RIGHT on (3,1): the border between (3,1) and (4,1) can be
	 * crossed leftwards only.  Going right the fruit stops at x3. */
	tb_init(&t, "#######|#1....#|#######");
	t.b.oneway[cell(&t, 3, 1)] = 1u << LK_RIGHT;
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#######|#..1..#|#######");
	/* Back left it passes freely to x1. */
	tb_move(&t, LK_LEFT);
	assert_string_equal(tb_draw(&t), "#######|#1....#|#######");
	tb_release(&t);
	/* From the other side: a fruit at x5 going left crosses into x3 and
	 * on to the wall; then going right it is stopped at x3 again. */
	tb_init(&t, "#######|#....1#|#######");
	t.b.oneway[cell(&t, 3, 1)] = 1u << LK_RIGHT;
	tb_move(&t, LK_LEFT);
	assert_string_equal(tb_draw(&t), "#######|#1....#|#######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#######|#..1..#|#######");
	/* Standing on the border's cell it cannot move right at all. */
	tb_move(&t, LK_RIGHT);
	assert_false(t.r.changed);
	tb_release(&t);
	/* A skiddy body: the leading member reaches x3 and the whole pair
	 * stops there (members at x2, x3). */
	tb_init(&t, "#######|#rr...#|#######");
	t.b.oneway[cell(&t, 3, 1)] = 1u << LK_RIGHT;
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#######|#.rr..#|#######");
	tb_release(&t);
	/* Vertical: bit UP on (1,2) - nothing leaves row 2 upwards. */
	tb_init(&t, "###|#.#|#.#|#S#|###");
	t.b.oneway[cell(&t, 1, 2)] = 1u << LK_UP;
	tb_move(&t, LK_UP);
	assert_string_equal(tb_draw(&t), "###|#.#|#S#|#.#|###");
	tb_release(&t);
}

/* ------------------------------------------------------------ terrain */

static void test_mud(void **state)
{
	(void)state;
	struct tb t;
	/* A stone passes through the mud at x3 to the wall. */
	check_move("#######|#S.~..#|#######", LK_RIGHT, "#######|#..~.S#|#######", true);
	/* A stone can come to rest on mud. */
	check_move("#####|#S.~#|#####", LK_RIGHT, "#####|#..S#|#####", true);
	/* A fruit entering the mud is lost. */
	tb_init(&t, "#######|#1.~..#|#######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#######|#..~..#|#######");
	assert_true(t.r.lost);
	assert_true(t.r.changed);
	assert_int_equal(t.r.matched, 0);
	tb_release(&t);
	/* Behind a stone the stone goes through; the fruit following it is lost. */
	tb_init(&t, "#######|#1S~..#|#######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#######|#..~.S#|#######");
	assert_true(t.r.lost);
	tb_release(&t);
	/* A stone moving without fruit loses nothing. */
	tb_init(&t, "#######|#S.~..#|#######");
	tb_move(&t, LK_RIGHT);
	assert_false(t.r.lost);
	tb_release(&t);
}

static void test_hedgehog(void **state)
{
	(void)state;
	struct tb t;
	/* A stone stops in front of the hedgehog. */
	tb_init(&t, "######|#S..H#|######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "######|#..SH#|######");
	assert_false(t.r.lost);
	tb_release(&t);
	/* A fruit running into it is eaten. */
	tb_init(&t, "######|#1..H#|######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "######|#...H#|######");
	assert_true(t.r.lost);
	assert_true(t.r.changed);
	tb_release(&t);
	/* A fruit right next to it is eaten too (a one-step move). */
	tb_init(&t, "####|#1H#|####");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "####|#.H#|####");
	assert_true(t.r.lost);
	tb_release(&t);
	/* A stone in front shields the fruit: fruit x2, stone x3. */
	tb_init(&t, "######|#1S.H#|######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "######|#.1SH#|######");
	assert_false(t.r.lost);
	tb_release(&t);
}

static void test_anteater(void **state)
{
	(void)state;
	struct tb t;
	/* Tilting down moves nothing (walls below); the anteater at (1,1)
	 * facing right pulls the fruit at x4 to its front cell x2. */
	tb_init(&t, "#######|#>..1.#|#######");
	tb_move(&t, LK_DOWN);
	assert_string_equal(tb_draw(&t), "#######|#>1...#|#######");
	assert_true(t.r.changed);
	assert_int_equal(t.r.matched, 0);
	tb_release(&t);
	/* Only the first fruit in its line of sight. */
	check_move("#######|#>..12#|#######", LK_DOWN, "#######|#>1..2#|#######", true);
	/* A stone in between blocks the tongue: nothing changes. */
	check_move("#######|#>.S1.#|#######", LK_DOWN, "#######|#>.S1.#|#######", false);
	/* A stone first in line is not pulled. */
	check_move("#######|#>..S1#|#######", LK_DOWN, "#######|#>..S1#|#######", false);
	/* An anteater at (1,4) facing up: its front cell is (1,3), and the
	 * fruit at (1,1) is pulled down to it.  Tilting left moves nothing. */
	check_move("###|#1#|#.#|#.#|#^#|###", LK_LEFT, "###|#.#|#.#|#1#|#^#|###", true);
	/* Effects repeat: the fruit pulled to x2 matches the one at (2,2)
	 * below it; that clears the line of sight and the fruit '2' at x5
	 * is pulled next.  Tilting down moves nothing. */
	tb_init(&t, "#######|#>..12#|##1####|#######");
	tb_move(&t, LK_DOWN);
	assert_string_equal(tb_draw(&t), "#######|#>2...#|##.####|#######");
	assert_int_equal(t.r.matched, 2);
	assert_true(t.r.changed);
	tb_release(&t);
	/* Pulling happens after motion: tilting right sends the fruit to x5,
	 * then it is pulled back to x2. */
	check_move("#######|#>1...#|#######", LK_RIGHT, "#######|#>1...#|#######", true);
}

/* ----------------------------------------------------------- matching */

static void test_matching(void **state)
{
	(void)state;
	struct tb t;
	/* A pair: the fruit at x1 slides to x3, touches the one at x4. */
	tb_init(&t, "######|#1..1#|######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "######|#....#|######");
	assert_int_equal(t.r.matched, 2);
	assert_true(t.r.changed);
	tb_release(&t);
	/* Different colours stay. */
	tb_init(&t, "######|#1..2#|######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "######|#..12#|######");
	assert_int_equal(t.r.matched, 0);
	tb_release(&t);
	/* Three in an L: (1,1) drops to (1,2), touching (1,3) which touches
	 * (2,3); all three go. */
	tb_init(&t, "#####|#1..#|#...#|#11.#|#####");
	tb_move(&t, LK_DOWN);
	assert_string_equal(tb_draw(&t), "#####|#...#|#...#|#...#|#####");
	assert_int_equal(t.r.matched, 3);
	tb_release(&t);
	/* Two pairs of two colours at once; a third colour left alone. */
	tb_init(&t, "#######|#1...1#|#2...2#|#3....#|#######");
	tb_move(&t, LK_LEFT);
	assert_string_equal(tb_draw(&t), "#######|#.....#|#.....#|#3....#|#######");
	assert_int_equal(t.r.matched, 4);
	tb_release(&t);
	/* Only where motion stops counts: the top fruit slides right past
	 * (3,1), right above the other '1' at (3,2) (held by the block), and
	 * ends at (5,1), diagonal to nothing: no match. */
	tb_init(&t, "#######|#1....#|#..1X.#|#######");
	tb_move(&t, LK_RIGHT);
	assert_string_equal(tb_draw(&t), "#######|#....1#|#..1X.#|#######");
	assert_int_equal(t.r.matched, 0);
	tb_release(&t);
	/* Same colour diagonal, both held by blocks: no match, no change. */
	check_move("######|#1X..#|#.1X.#|######", LK_RIGHT, "######|#1X..#|#.1X.#|######", false);
}

/* --------------------------------------------- the reference simulator */

/* Simple boards: terrain '#' or '.', pieces fruit (colour 0..2) or stone.
 * ref[c]: 0 floor, '#' wall, 'S' stone, '0'+colour fruit. */
struct ref {
	int w, h;
	char c[64];
};

static bool ref_piece(char ch)
{
	return ch == 'S' || (ch >= '0' && ch <= '9');
}

/* The rules, read from slide.md for this case: pieces farthest along the
 * direction first, each slides until the next cell is a wall, a piece or
 * off the board; then every group of two or more touching fruit of one
 * colour goes. */
static void ref_move(struct ref *b, int dir, bool *changed, unsigned *matched)
{
	int order[64], n = 0;
	for (int i = 0; i < b->w * b->h; i++)
		if (ref_piece(b->c[i]))
			order[n++] = i;
	/* selection sort by position along dir, largest first */
	for (int i = 0; i < n; i++) {
		for (int j = i + 1; j < n; j++) {
			int pi = lk_dir_dx[dir] * (order[i] % b->w) + lk_dir_dy[dir] * (order[i] / b->w);
			int pj = lk_dir_dx[dir] * (order[j] % b->w) + lk_dir_dy[dir] * (order[j] / b->w);
			if (pj > pi) {
				int t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
		}
	}
	*changed = false;
	*matched = 0;
	for (int i = 0; i < n; i++) {
		int x = order[i] % b->w, y = order[i] / b->w;
		char p = b->c[order[i]];
		for (;;) {
			int nx = x + lk_dir_dx[dir], ny = y + lk_dir_dy[dir];
			if (nx < 0 || ny < 0 || nx >= b->w || ny >= b->h || b->c[ny * b->w + nx] != '.')
				break;
			b->c[y * b->w + x] = '.';
			b->c[ny * b->w + nx] = p;
			x = nx;
			y = ny;
			*changed = true;
		}
	}
	/* matching: flood fill each colour */
	int comp[64];
	for (int i = 0; i < b->w * b->h; i++)
		comp[i] = -1;
	for (int i = 0; i < b->w * b->h; i++) {
		if (!(b->c[i] >= '0' && b->c[i] <= '9') || comp[i] >= 0)
			continue;
		int stack[64], sp = 0, list[64], nl = 0;
		comp[i] = i;
		stack[sp++] = i;
		while (sp) {
			int v = stack[--sp];
			list[nl++] = v;
			for (int d = 0; d < 4; d++) {
				int nx = v % b->w + lk_dir_dx[d], ny = v / b->w + lk_dir_dy[d];
				if (nx < 0 || ny < 0 || nx >= b->w || ny >= b->h)
					continue;
				int u = ny * b->w + nx;
				if (comp[u] < 0 && b->c[u] == b->c[i]) {
					comp[u] = i;
					stack[sp++] = u;
				}
			}
		}
		if (nl >= 2) {
			for (int k = 0; k < nl; k++)
				b->c[list[k]] = '.';
			*matched += (unsigned)nl;
			*changed = true;
		}
	}
}

static uint64_t rng_state;

static unsigned rnd(unsigned n)
{
	/* xorshift64*, independent of the library's generator */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (unsigned)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

static void test_reference_random(void **state)
{
	(void)state;
	rng_state = 0x9E3779B97F4A7C15ULL;
	int boards = 0, moved = 0, matches = 0;
	for (int iter = 0; iter < 4000; iter++) {
		struct ref r;
		r.w = 2 + (int)rnd(6);
		r.h = 2 + (int)rnd(6);
		bool border = rnd(3) != 0;
		for (int y = 0; y < r.h; y++) {
			for (int x = 0; x < r.w; x++) {
				char ch = '.';
				unsigned k = rnd(100);
				if (border && (x == 0 || y == 0 || x == r.w - 1 || y == r.h - 1))
					ch = '#';
				else if (k < 12)
					ch = '#';
				else if (k < 40)
					ch = (char)('0' + rnd(3));
				else if (k < 50)
					ch = 'S';
				r.c[y * r.w + x] = ch;
			}
		}
		/* Boards start settled (slide.h): no partners touching. */
		bool touching = false;
		for (int c = 0; c < r.w * r.h; c++)
			if (r.c[c] >= '0' && r.c[c] <= '9')
				touching |= (c % r.w + 1 < r.w && r.c[c + 1] == r.c[c]) ||
					    (c + r.w < r.w * r.h && r.c[c + r.w] == r.c[c]);
		if (touching)
			continue;
		char pic[200];
		size_t at = 0;
		for (int y = 0; y < r.h; y++) {
			if (y)
				pic[at++] = '|';
			for (int x = 0; x < r.w; x++)
				pic[at++] = r.c[y * r.w + x];
		}
		pic[at] = '\0';
		struct tb t;
		tb_init(&t, pic);
		/* a few moves in a row on the same board */
		for (int m = 0; m < 3; m++) {
			int dir = (int)rnd(4);
			bool changed;
			unsigned matched;
			ref_move(&r, dir, &changed, &matched);
			tb_move(&t, dir);
			at = 0;
			for (int y = 0; y < r.h; y++) {
				if (y)
					pic[at++] = '|';
				for (int x = 0; x < r.w; x++)
					pic[at++] = r.c[y * r.w + x];
			}
			pic[at] = '\0';
			if (strcmp(tb_draw(&t), pic) != 0)
				fail_msg("board %d move %d (%c): simulator %s, reference %s", iter, m,
					 lk_dir_letter[dir], t.pic, pic);
			assert_int_equal(t.r.changed, changed);
			assert_int_equal(t.r.matched, matched);
			assert_false(t.r.lost);
			moved += changed;
			matches += matched > 0;
		}
		tb_release(&t);
		boards++;
	}
	/* the random boards exercised both outcomes */
	assert_true(boards > 2500);   /* of 4000: the rest start with partners touching */
	assert_true(moved > 1000);
	assert_true(matches > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pack_four_directions),
		cmocka_unit_test(test_walls_and_blocks),
		cmocka_unit_test(test_pieces_stop_on_pieces),
		cmocka_unit_test(test_one_way_borders),
		cmocka_unit_test(test_mud),
		cmocka_unit_test(test_hedgehog),
		cmocka_unit_test(test_anteater),
		cmocka_unit_test(test_matching),
		cmocka_unit_test(test_skiddy_bodies),
		cmocka_unit_test(test_skiddy_sticking_next_move),
		cmocka_unit_test(test_exits),
		cmocka_unit_test(test_crates),
		cmocka_unit_test(test_pits),
		cmocka_unit_test(test_unchanged),
		cmocka_unit_test(test_reference_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
