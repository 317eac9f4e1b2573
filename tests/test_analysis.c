/*
 * test_analysis.c - tests of the whole-graph analysis (src/search/
 * analysis.c): reachable states, dead ends, shortest solutions and how
 * many there are, Skiddy's combo and non-combo lengths and stars.
 *
 *  - A brute-force analysis (analysis_brute.c): every state explored
 *    through game->successors into its own hash table (goal states not
 *    expanded, as a won game is over), dead ends by backward reachability
 *    from the wins (a fixpoint over the edge list), shortest solutions and
 *    their number by dynamic programming over the breadth-first layers
 *    (each move counted separately), shortest combo and non-combo wins,
 *    and the star rules of docs/games/skiddy.md.  Compared with lk_analyse
 *    on hundreds of tiny random fruit and skiddy levels and on tiny
 *    Sokoban levels (both metrics, with and without pruning); the paths it
 *    returns are checked edge by edge.
 *  - Levels built with exactly one trap (a fruit into mud, a Sokoban box
 *    into a corner, two skiddies glued into a body that cannot leave):
 *    the dead ends are the trap's states, and the dead-end path is the
 *    move into it.
 *  - Skiddy levels rated 0, 1, 2 and 3 stars, each argued in a comment.
 *  - A state bound: an incomplete graph has no stars.
 *
 * The brute-force analysis and the comparison are in analysis_brute.c;
 * this file holds the levels and the main.
 */
#include "analysis_brute.h"

#include <stdio.h>
#include <string.h>

#include "levelkit/analysis.h"
#include "levelkit/game.h"
#include "levelkit/search.h"
#include "test_support.h"

/* ------------------------------------------------------ random levels */

static uint64_t rng_state;

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (unsigned)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

/* A random free inside cell of grid g (w x h), or -1. */
static int free_inside(char g[8][9], int w, int h)
{
	for (int tries = 0; tries < 100; tries++) {
		int x = 1 + (int)rnd((unsigned)(w - 2)), y = 1 + (int)rnd((unsigned)(h - 2));
		if (g[y][x] == '.')
			return y * 16 + x;
	}
	return -1;
}

static void put(char g[8][9], int w, int h, char ch)
{
	int c = free_inside(g, w, h);
	if (c >= 0)
		g[c / 16][c % 16] = ch;
}

static void test_random_fruit(void **state)
{
	(void)state;
	rng_state = 0x51ED2701A3C4E5F7ULL;
	int solvable = 0, with_dead = 0;
	for (int iter = 0; iter < 250; iter++) {
		char g[8][9];
		int w = 4 + (int)rnd(3), h = 4 + (int)rnd(2);
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++)
				g[y][x] = x == 0 || y == 0 || x == w - 1 || y == h - 1 || rnd(10) == 0 ? '#' : '.';
			g[y][w] = '\0';
		}
		for (int k = 0, colours = 1 + (int)rnd(2); k < colours; k++)
			for (int j = 0, n = 2 + (rnd(6) == 0); j < n; j++)
				put(g, w, h, (char)('a' + k));
		for (int k = (int)rnd(3); k > 0; k--)
			put(g, w, h, 'O');
		if (rnd(3) == 0)
			put(g, w, h, "~H"[rnd(2)]);
		if (rnd(3) == 0)
			put(g, w, h, "NESW"[rnd(4)]);
		char text[300];
		size_t at = (size_t)sprintf(text, "game: fruit\n");
		bool any = false, touching = false;
		for (int y = 0; y < h; y++) {
			at += (size_t)sprintf(text + at, "%s\n", g[y]);
			for (int x = 0; x < w; x++) {
				char f = g[y][x];
				if (f < 'a' || f > 'z')
					continue;
				any = true;
				touching |= g[y][x + 1] == f || (y + 1 < h && g[y + 1][x] == f);
			}
		}
		if (!any || touching)
			continue;   /* not a level: partners may not start touching */
		if (rnd(4) == 0)
			sprintf(text + at, "oneway: %u,%u,%c\n", 1 + rnd((unsigned)(w - 2)),
				1 + rnd((unsigned)(h - 2)), "urdl"[rnd(4)]);
		struct lk_level *level = load(text);
		struct truth t;
		compare(level, text, &t);
		solvable += t.shortest != LK_NO_DEPTH;
		with_dead += t.dead > 0;
		lk_level_free(level);
	}
	assert_true(solvable > 50);
	assert_true(with_dead > 50);
}

static void test_random_skiddy(void **state)
{
	(void)state;
	rng_state = 0x0DDC0FFEE1234567ULL;
	int kinds[4] = { 0 };   /* levels rated 0..3 stars */
	for (int iter = 0; iter < 300; iter++) {
		char g[8][9];
		int w = 5 + (int)rnd(2), h = 4 + (int)rnd(2);
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++)
				g[y][x] = x == 0 || y == 0 || x == w - 1 || y == h - 1 ? '#' : '.';
			g[y][w] = '\0';
		}
		/* exits on the border, corners excluded */
		bool green = rnd(3) == 0;
		for (int e = 0, n = 1 + (int)rnd(2) + green; e < n; e++) {
			int side = (int)rnd(4), x, y;
			if (side < 2) {
				x = 1 + (int)rnd((unsigned)(w - 2));
				y = side ? h - 1 : 0;
			} else {
				y = 1 + (int)rnd((unsigned)(h - 2));
				x = side == 2 ? 0 : w - 1;
			}
			g[y][x] = green && e == 0 ? 'G' : 'R';
		}
		for (int k = 0, reds = 2 + (rnd(4) == 0); k < reds; k++)
			put(g, w, h, 'r');
		if (green)
			put(g, w, h, 'g');
		if (rnd(3) == 0)
			put(g, w, h, 'X');
		if (rnd(3) == 0)
			put(g, w, h, 'O');
		if (rnd(3) == 0)
			put(g, w, h, 'C');
		if (rnd(4) == 0)
			put(g, w, h, 'I');
		char text[300];
		size_t at = (size_t)sprintf(text, "game: skiddy\n");
		for (int y = 0; y < h; y++)
			at += (size_t)sprintf(text + at, "%s\n", g[y]);
		struct lk_level *level = load(text);
		struct truth t;
		compare(level, text, &t);
		assert_true(t.stars >= 0 && t.stars <= 3);
		kinds[t.stars]++;
		lk_level_free(level);
	}
	/* every rating came up */
	for (int k = 0; k < 4; k++)
		if (kinds[k] == 0)
			fail_msg("no random level rated %d stars (%d %d %d %d)", k, kinds[0], kinds[1], kinds[2],
				 kinds[3]);
}

static void test_sokoban(void **state)
{
	(void)state;
	static const char *const levels[] = {
		"#####\n#@$.#\n#####\n",
		"#####\n#.  #\n# $ #\n#  @#\n#####\n",
		"#####\n#@ .#\n#$  #\n#####\n",
		"######\n##   #\n#@$  #\n#.   #\n######\n",
		"#####\n#@$.#\n#   #\n#####\n",
		"######\n#@$ .#\n# $ .#\n#    #\n######\n",
	};
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		for (int m = 0; m < 4; m++) {
			struct lk_level *level = load_opt(levels[i], m & 1 ? "moves" : "pushes", m & 2);
			struct truth t;
			compare(level, levels[i], &t);
			assert_int_equal(t.stars, -1);
			lk_level_free(level);
		}
	}
}

/* ------------------------------------------------------------ traps */

static void test_traps(void **state)
{
	(void)state;
	struct truth t;
	char path[64];
	struct lk_level *level;

	/* Fruit: l or r matches the pair (the same empty board); d drops the
	 * left fruit into the mud at (1,2): a lost state with no moves; u is
	 * void.  Three states, one dead end, reached by d. */
	const char *fruit = "game: fruit\n#######\n#a...a#\n#~#####\n#######\n";
	level = load(fruit);
	compare(level, fruit, &t);
	assert_int_equal(t.reachable, 3);
	assert_int_equal(t.dead, 1);
	assert_int_equal(t.shortest, 1);
	assert_int_equal(t.solutions, 2);
	dead_end_path(level, path, sizeof path);
	assert_string_equal(path, "d");
	lk_level_free(level);

	/* Sokoban, moves metric, no pruning.  The box at (2,1) goes right onto
	 * the goal (one push), or the player walks round (d r r u) to (3,1)
	 * and pushes it left into the corner (1,1), where it can never move
	 * again.  The trap: box in the corner, the player on any of the five
	 * other floor cells: five dead ends.  Elsewhere: box at (2,1) with the
	 * player on five cells, and the win: 11 states. */
	const char *soko = "#####\n#@$.#\n#   #\n#####\n";
	level = load_opt(soko, "moves", true);
	compare(level, soko, &t);
	assert_int_equal(t.reachable, 11);
	assert_int_equal(t.dead, 5);
	assert_int_equal(t.shortest, 1);
	dead_end_path(level, path, sizeof path);
	assert_string_equal(path, "drruL");
	lk_level_free(level);

	/* Skiddy: reds A (1,1) and B (4,2), exit (5,1).  A body of two in a
	 * column can never leave (one member meets the wall when the other is
	 * in line with the exit); a row body or a single skiddy always can.
	 * Separate skiddies in different rows exist only at the start (u and
	 * d put both in one row), and from there l sends both to x1, one
	 * above the other: the column body at x1, and from it, by r, at x4.
	 * Those two states are the dead ends; the path into them is l. */
	const char *sk = "game: skiddy\n######\n#r...R\n#...r#\n######\n";
	level = load(sk);
	compare(level, sk, &t);
	assert_int_equal(t.dead, 2);
	assert_int_equal(t.dead_depth, 1);
	assert_int_equal(t.stars, 0);
	dead_end_path(level, path, sizeof path);
	assert_string_equal(path, "l");
	lk_level_free(level);
}

/* ------------------------------------------------------------- stars */

static int stars_of(const char *text, struct truth *t)
{
	struct lk_level *level = load(text);
	struct lk_analysis a;
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	compare(level, text, t);
	lk_analysis_init(&a);
	lk_analyse(level, &o, &a);
	int stars = analysis_stars(level, &a);
	lk_analysis_release(&a);
	lk_level_free(level);
	return stars;
}

static void test_stars(void **state)
{
	(void)state;
	struct truth t;
	/* 0 stars: the glued-column trap above - a dead end. */
	assert_int_equal(stars_of("game: skiddy\n######\n#r...R\n#...r#\n######\n", &t), 0);
	assert_int_equal(t.combo, 2);   /* u r: B out first, A follows */
	assert_int_equal(t.plain, 3);   /* r u r */

	/* 1 star: a lone skiddy.  No dead end (it can always get back to row
	 * 1 and slide right), but every win is a combo: rule 2 fails.  States:
	 * (1,1) start, (1,2), (3,2), (3,1), and the win. */
	assert_int_equal(stars_of("game: skiddy\n#####\n#r..R\n#...#\n#####\n", &t), 1);
	assert_int_equal(t.reachable, 5);
	assert_int_equal(t.dead, 0);
	assert_int_equal(t.plain, LK_NO_DEPTH);

	/* 2 stars: two lanes kept apart by blocks, so no body ever forms and
	 * either skiddy can always leave: no dead ends.  A at (3,1) with a pit
	 * at (1,1); B at (1,3) with a pit at (3,3); exits (6,1), (6,3).
	 *   start: r: A out, B into its pit (broken);  l: A into its pit
	 *   (B at x1 already).  Non-combo: r, any move (B sits it out), r:
	 *   3.  Combo: A must wait in its pit while B passes its own: l (A in
	 *   pit), r (A sits out, B into pit), l (B sits out), r (both out):
	 *   4, and no shorter (B needs a move to fall in and one to sit out
	 *   before the move out, and A must not leave before: the first r
	 *   lets A out unless A is in the pit, which takes an l first).
	 *   Non-combo 3 < combo 4: two stars.  The states, as (A, B), '*'
	 *   trapped, '-' gone, F broken: (3,1) start; (-,3*,F) (1*,1);
	 *   (-,3,F) (1,3*) (1,1); (-,1,F) (1,3) and the plain win; the combo
	 *   win: 10.  Shortest: r, then any of u r d l (B sits out), r. */
	assert_int_equal(stars_of("game: skiddy\n#######\n#O.r..R\n#XXXXX#\n#r.O..R\n#######\n", &t), 2);
	assert_int_equal(t.combo, 4);
	assert_int_equal(t.plain, 3);
	assert_int_equal(t.reachable, 10);
	assert_int_equal(t.solutions, 4);   /* r ? r, ? any of u r d l */

	/* 3 stars: A at (1,1), exit (6,1); B at (3,3), pit (1,3), exit
	 * (6,3).  r sends both out at once: a combo in 1.  Non-combo: l (B
	 * into the pit), r (A out, B sits out), r (B out): 3 >= 1.  No dead
	 * ends.  States: start, the two wins, (A1, B in pit), (A gone, B at
	 * x1), (A1, B1 freed): 6. */
	assert_int_equal(stars_of("game: skiddy\n#######\n#r....R\n#XXXXX#\n#O.r..R\n#######\n", &t), 3);
	assert_int_equal(t.combo, 1);
	assert_int_equal(t.plain, 3);
	assert_int_equal(t.reachable, 6);
	assert_int_equal(t.solutions, 1);

	/* Equal lengths are three stars too ("no non-combo solution is
	 * shorter").  A at (1,1), exit (6,1); B at (1,3) in a two-row room
	 * with a block at (4,3), exits (6,4) and (3,5).
	 *   r d: r sends A out and B to (3,3) (the block): broken; d drops
	 *        B through (3,4) out of the bottom exit: non-combo in 2.
	 *   d r: d moves only B, to (1,4); r sends A out and B along row 4
	 *        out of (6,4) in the same move: combo in 2.
	 * No single move wins.  Two solutions of two moves, no dead ends
	 * (A leaves on any r; B reaches row 4 and slides right from anywhere). */
	assert_int_equal(stars_of("game: skiddy\n#######\n#r....R\n#XXXXX#\n#r..X.#\n#.....R\n###R###\n",
				  &t), 3);
	assert_int_equal(t.combo, 2);
	assert_int_equal(t.plain, 2);
	assert_int_equal(t.solutions, 2);
	assert_int_equal(t.dead, 0);
}

static void test_incomplete(void **state)
{
	(void)state;
	struct lk_level *level = load("game: skiddy\n#######\n#O.r..R\n#XXXXX#\n#r.O..R\n#######\n");
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_analysis a;
	lk_analysis_init(&a);
	o.bounds.max_states = 3;
	lk_analyse(level, &o, &a);
	assert_false(a.complete);
	assert_int_equal(a.limit, LK_LIMIT_STATES);
	assert_int_equal(analysis_stars(level, &a), -1);
	/* A bound above the 10 states leaves the graph whole. */
	o.bounds.max_states = 11;
	lk_analyse(level, &o, &a);
	assert_true(a.complete);
	assert_int_equal(a.reachable, 10);
	assert_int_equal(analysis_stars(level, &a), 2);
	lk_analysis_release(&a);
	lk_level_free(level);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_fruit),
		cmocka_unit_test(test_random_skiddy),
		cmocka_unit_test(test_sokoban),
		cmocka_unit_test(test_traps),
		cmocka_unit_test(test_stars),
		cmocka_unit_test(test_incomplete),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
