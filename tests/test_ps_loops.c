/*
 * test_ps_loops.c - rule loops that never settle, played as the reference
 * engine plays them.  The engine stops a pass that brings the level back
 * to where it began (ps_rules.c) instead of repeating it to the
 * reference's limit of 200; these games check that the level, and what
 * runs after the loop, come out as the reference's: a startloop caught
 * looping leaves the rules (the groups after it never run), a group caught
 * looping goes on to the next group, a loop that settles after several
 * passes runs the groups after it, and a loop that draws random numbers is
 * never cut short.  The wins were checked with the reference engine
 * (bench/ps_ref_bfs.js --replay x on the same games).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../src/games/puzzlescript/ps.h"
#include "../src/games/puzzlescript/ps_runtime.h"

/* The game, with these rules, played one action turn: the level after
 * it, whether it won, and how many random numbers it drew. */
static void play(const char *rules, const char *level, const char *want, bool want_won,
		 uint64_t want_draws)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_strbuf_addf(&sb,
		       "title loops\n\n"
		       "========\nOBJECTS\n========\n\n"
		       "Background\nblack\n\nWall\nbrown\n\nPlayer\nblue\n\nCrate\norange\n\n"
		       "Target\nyellow\n\nHole\ngray\n\nDone\nwhite\n\n"
		       "=======\nLEGEND\n=======\n\n"
		       ". = Background\n# = Wall\nP = Player\n* = Crate\n@ = Player and Target\n"
		       "d = Crate and Done\n\n"
		       "=======\nSOUNDS\n=======\n\n"
		       "================\nCOLLISIONLAYERS\n================\n\n"
		       "Background\nTarget, Hole\nPlayer, Wall, Crate\nDone\n\n"
		       "======\nRULES\n======\n\n%s\n"
		       "==============\nWINCONDITIONS\n==============\n\nsome Target\n\n"
		       "=======\nLEVELS\n=======\n\n%s\n",
		       rules, level);
	struct lk_strbuf err = LK_STRBUF_INIT;
	int line = -1;
	struct ps_game *g = ps_compile(sb.buf, sb.len, "loops.txt", &err, &line);
	if (!g)
		print_error("unexpected compile error, line %d: %s\n", line, err.buf);
	assert_non_null(g);
	struct ps_runtime *rt = ps_runtime_new(g, 0);
	struct ps_turn_info info;
	ps_start(rt, NULL);
	ps_turn(rt, PS_ACTION, &info);
	struct lk_strbuf out = LK_STRBUF_INIT;
	int inexact = ps_level_write(g, 0, ps_cells(rt, NULL), &out);
	assert_string_equal(out.buf, want);
	assert_int_equal(inexact, 0);
	assert_int_equal((info.flags & PS_WON) != 0, want_won);
	/* the random numbers the turn drew, as the reference counts them */
	assert_int_equal(rt->rolls, want_draws);
	lk_strbuf_release(&out);
	lk_strbuf_release(&err);
	lk_strbuf_release(&sb);
	ps_runtime_free(rt);
	ps_game_free(g);
}

/* Each pass turns every player into a crate and every crate into a
 * player: the level comes back each time, the reference gives up after
 * 200 passes and leaves the rules, so no target is placed. */
static void test_startloop_vortex(void **state)
{
	(void)state;
	play("startloop\n[ Player ] -> [ Crate ]\n[ Crate ] -> [ Player ]\nendloop\n"
	     "[ Player no Target ] -> [ Player Target ]\n",
	     "#######\n#P*...#\n#######\n", "#######\n#PP...#\n#######\n", false, 0);
}

/* The same two rules in one group: the group is caught looping, the next
 * group still runs (a target under each player). */
static void test_group_vortex(void **state)
{
	(void)state;
	play("[ Player ] -> [ Crate ]\n+ [ Crate ] -> [ Player ]\n"
	     "[ Player no Target ] -> [ Player Target ]\n",
	     "#######\n#P*...#\n#######\n", "#######\n#@@...#\n#######\n", true, 0);
}

/* A loop that grows the crates one cell a pass, four passes in all (the
 * level is compared from the third on), then settles: the group after it
 * runs. */
static void test_loop_settles(void **state)
{
	(void)state;
	play("startloop\nright [ Crate no Done | no Crate no Wall ] -> [ Crate Done | Hole ]\n"
	     "[ Hole ] -> [ Crate ]\nendloop\n[ Player no Target ] -> [ Player Target ]\n",
	     "########\n#P*....#\n########\n", "########\n#@dddd*#\n########\n", true, 0);
}

/* A loop that ends each pass where it began but draws a random number
 * on the way: not a repeat (the generator moved on).  With one choice
 * the draw cannot change the level, so the reference's outcome is the
 * vortex's, with one number drawn a pass: 201 passes (the limit is met
 * at the 201st jump back), then the rules are left. */
static void test_random_vortex(void **state)
{
	(void)state;
	play("startloop\nrandom [ Player ] -> [ Crate ]\n[ Crate ] -> [ Player ]\nendloop\n"
	     "[ Player no Target ] -> [ Player Target ]\n",
	     "#######\n#P....#\n#######\n", "#######\n#P....#\n#######\n", false, 201);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_startloop_vortex),
		cmocka_unit_test(test_group_vortex),
		cmocka_unit_test(test_loop_settles),
		cmocka_unit_test(test_random_vortex),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
