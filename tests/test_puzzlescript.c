/*
 * test_puzzlescript.c - hand-worked tests of the PuzzleScript compiler and
 * engine: compile errors and their lines, a tiny Sokoban played move by
 * move (written back in the game's own legend characters), every form of
 * win condition, ellipsis, rigid, late, again, cancel, restart and
 * checkpoint, undo in a session, the packed key, the reference's random
 * numbers, determinism, and that the demo games compile and load.
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
#include "../src/games/puzzlescript/ps_rng.h"
#include "../src/games/puzzlescript/ps_session.h"
#include "../src/games/puzzlescript/ps_diag.h"

/* A game from its sections; rules, win conditions and levels vary. */
static char *game_text(const char *prelude, const char *legend_extra, const char *layers,
		       const char *rules, const char *wins, const char *levels)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_strbuf_addf(&sb,
		       "title test\n%s\n"
		       "========\nOBJECTS\n========\n\n"
		       "Background\nblack\n\nWall\nbrown\n\nPlayer\nblue\n\nCrate\norange\n\n"
		       "Target\nyellow\n\nHole\ngray\n\n"
		       "=======\nLEGEND\n=======\n\n"
		       ". = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n"
		       "@ = Crate and Target\nH = Hole\n%s\n"
		       "=======\nSOUNDS\n=======\n\nCrate move 1234\n\n"
		       "================\nCOLLISIONLAYERS\n================\n\n%s\n"
		       "======\nRULES\n======\n\n%s\n"
		       "==============\nWINCONDITIONS\n==============\n\n%s\n"
		       "=======\nLEVELS\n=======\n\n%s\n",
		       prelude, legend_extra,
		       layers ? layers : "Background\nTarget, Hole\nPlayer, Wall, Crate\n", rules, wins,
		       levels);
	return lk_strbuf_detach(&sb, NULL);
}

static struct ps_game *compile_ok(const char *src)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	int line = -1;
	struct ps_game *g = ps_compile(src, strlen(src), "test.txt", &err, &line);
	if (!g)
		print_error("unexpected compile error, line %d: %s\n", line, err.buf);
	assert_non_null(g);
	lk_strbuf_release(&err);
	return g;
}

/* The current state of a runtime written in legend characters. */
static void expect_map(const struct ps_game *g, int level, struct ps_runtime *rt, const char *want)
{
	struct lk_strbuf out = LK_STRBUF_INIT;
	int inexact = ps_level_write(g, level, ps_cells(rt, NULL), &out);
	assert_string_equal(out.buf, want);
	assert_int_equal(inexact, 0);
	lk_strbuf_release(&out);
}

static const char push_rule[] = "[ > Player | Crate ] -> [ > Player | > Crate ]\n";

/* ---- compile errors ---- */

static void expect_error(const char *src, int want_line, const char *fragment)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	int line = -1;
	struct ps_game *g = ps_compile(src, strlen(src), "bad.txt", &err, &line);
	if (g || line != want_line || !strstr(err.buf, fragment))
		print_error("got line %d: %s\n", line, err.buf);
	assert_null(g);
	assert_int_equal(line, want_line);
	assert_non_null(strstr(err.buf, fragment));
	lk_strbuf_release(&err);
}

/* The line of the first line of text holding needle (1-based). */
static int line_of(const char *text, const char *needle)
{
	const char *at = strstr(text, needle);
	int line = 1;
	for (const char *q = text; q < at; q++)
		line += *q == '\n';
	return line;
}

static void test_compile_errors(void **state)
{
	(void)state;
	char *src = game_text("", "", NULL, "[ > Player | Rock ] -> [ > Player | > Rock ]\n", "", "#P#\n");
	expect_error(src, line_of(src, "Rock ]"), "\"rock\", referred to in a rule, does not exist");
	free(src);

	src = game_text("", "X = Crate and Target or Wall\n", NULL, push_rule, "", "#P#\n");
	expect_error(src, line_of(src, "X = "), "mixing ands and ors");
	free(src);

	src = game_text("", "", NULL, push_rule, "", "#P#\n#Q#\n");
	expect_error(src, line_of(src, "#Q#"), "key \"q\" not found");
	free(src);

	src = game_text("", "", NULL, push_rule, "all Crate in Target\n", "#P#\n");
	expect_error(src, line_of(src, "all Crate in"), "expecting the word \"on\"");
	free(src);

	/* a rule whose sides do not match in length */
	src = game_text("", "", NULL, "[ Player | Crate ] -> [ Player ]\n", "", "#P#\n");
	expect_error(src, line_of(src, "[ Player | Crate ] ->"), "equal length");
	free(src);

	/* an object in no layer */
	src = game_text("", "", "Background\nTarget\nPlayer, Wall, Crate\n", push_rule, "", "#P#\n");
	expect_error(src, line_of(src, "Hole\ngray"), "not assigned to a layer");
	free(src);

	/* the lenient mode plays what the reference plays, and says why */
	src = game_text("", "", NULL, push_rule, "", "#P#\n");
	const char *dup = "Player, Wall, Crate\n";
	struct lk_strbuf twice = LK_STRBUF_INIT;
	const char *at = strstr(src, dup);
	lk_strbuf_add(&twice, src, (size_t)(at - src));
	lk_strbuf_addstr(&twice, "Player, Wall, Crate, Target\n");
	lk_strbuf_addstr(&twice, at + strlen(dup));
	struct ps_diags d;
	ps_diags_init(&d);
	struct ps_game *g = ps_compile_diags(twice.buf, twice.len, "t", true, &d);
	assert_non_null(g);
	bool warned = false;
	for (size_t i = 0; i < d.n; i++)
		if (!d.v[i].is_error && strstr(d.v[i].msg, "multiple collision layers"))
			warned = true;
	assert_true(warned);
	ps_game_free(g);
	ps_diags_release(&d);
	lk_strbuf_release(&twice);
	free(src);

	/* a movement left without its object before an ellipsis (found by the
	 * fuzzer: the cell's direction and name pairs slipped by one, and a
	 * direction was read as an object) is reported, not misread */
	src = game_text("", "", NULL, "[ > Nobody | ... | Crate ] -> [ > Nobody | ... | > Crate ]\n",
			"", "#P#\n");
	ps_diags_init(&d);
	g = ps_compile_diags(src, strlen(src), "t", true, &d);
	bool no_object = false;
	for (size_t i = 0; i < d.n; i++)
		no_object |= d.v[i].is_error && strstr(d.v[i].msg, "it has to act on an object") != NULL;
	assert_true(no_object);
	ps_game_free(g);
	ps_diags_release(&d);
	free(src);
}

/* ---- Sokoban ---- */

static void test_sokoban_moves(void **state)
{
	(void)state;
	char *src = game_text("", "", NULL, push_rule, "all Crate on Target\n",
			      "#######\n#P.*.O#\n#..#..#\n#######\n");
	struct ps_game *g = compile_ok(src);
	struct ps_runtime *rt = ps_runtime_new(g, 0);
	struct ps_turn_info info;
	ps_start(rt, NULL);
	expect_map(g, 0, rt, "#######\n#P.*.O#\n#..#..#\n#######\n");
	/* a wall stops the player */
	assert_int_equal(ps_turn(rt, PS_UP, &info) & PS_CHANGED, 0);
	assert_int_equal(ps_turn(rt, PS_RIGHT, &info), PS_CHANGED);
	expect_map(g, 0, rt, "#######\n#.P*.O#\n#..#..#\n#######\n");
	/* the push plays the crate's move sound */
	assert_int_equal(ps_turn(rt, PS_RIGHT, &info), PS_CHANGED);
	assert_int_equal(info.nsounds, 1);
	assert_string_equal(info.sounds[0], "1234");
	expect_map(g, 0, rt, "#######\n#..P*O#\n#..#..#\n#######\n");
	assert_false(ps_check_win(rt));
	unsigned char key[8];
	ps_store(rt, key);
	assert_false(ps_key_won(rt, key));
	unsigned f = ps_turn(rt, PS_RIGHT, &info);
	assert_true(f & PS_WON);
	expect_map(g, 0, rt, "#######\n#...P@#\n#..#..#\n#######\n");
	/* the key remembers the win, and a load brings it back */
	assert_true(ps_key_size(rt) <= sizeof key);
	ps_store(rt, key);
	assert_true(ps_key_won(rt, key));
	/* a crate against the wall does not move, nor the player */
	assert_int_equal(ps_turn(rt, PS_RIGHT, &info) & PS_CHANGED, 0);

	/* per-turn facts: which rules fired, which objects moved (ids go
	 * layer by layer: background 0, target 1, hole 2, player 3, wall 4,
	 * crate 5) */
	struct ps_runtime *rt2 = ps_runtime_new(g, 0);
	ps_runtime_track(rt2, true);
	ps_start(rt2, NULL);
	ps_turn(rt2, PS_RIGHT, NULL);
	assert_true(ps_object_moved(rt2, 3));
	assert_false(ps_object_moved(rt2, 5));
	for (int r = 0; r < ps_game_rule_count(g); r++)
		assert_false(ps_rule_fired(rt2, r));
	ps_turn(rt2, PS_RIGHT, NULL);
	assert_true(ps_object_moved(rt2, 3));
	assert_true(ps_object_moved(rt2, 5));
	int fired = 0;
	for (int r = 0; r < ps_game_rule_count(g); r++)
		if (ps_rule_fired(rt2, r)) {
			fired++;
			assert_int_equal(ps_game_rule_line(g, r), line_of(src, "[ > Player | Crate ]"));
		}
	assert_int_equal(fired, 1);   /* the rightward copy of the push rule */
	ps_runtime_free(rt2);

	/* the debug string of debug.js: cells in storage (column-major) order */
	struct lk_strbuf dbg = LK_STRBUF_INIT;
	struct ps_runtime *small = ps_runtime_new(g, 0);
	ps_debug_string(small, &dbg);
	assert_string_equal(dbg.buf, "background wall:0,0,0,0,0,background player:1,background:2,\n"
				     "0,0,2,2,0,0,background crate:3,\n"
				     "0,0,0,2,2,0,0,\n"
				     "background target:4,2,0,0,0,0,0,\n");
	lk_strbuf_release(&dbg);
	ps_runtime_free(small);
	ps_runtime_free(rt);
	ps_game_free(g);
	free(src);
}

/* The per-turn facts of a turn that is undone (here by a late cancel)
 * are undone with it: the push rule matched and the crate moved, but
 * the turn did not happen. */
static void test_track_undone(void **state)
{
	(void)state;
	char *src = game_text("", "", NULL,
			      "[ > Player | Crate ] -> [ > Player | > Crate ]\n"
			      "late [ Crate Target ] -> cancel\n",
			      "all Target on Crate", "######\n#.P*O#\n######\n");
	struct ps_game *g = compile_ok(src);
	struct ps_runtime *rt = ps_runtime_new(g, 0);
	ps_runtime_track(rt, true);
	ps_start(rt, NULL);
	unsigned f = ps_turn(rt, PS_RIGHT, NULL);
	assert_true(f & PS_CANCELLED);
	expect_map(g, 0, rt, "######\n#.P*O#\n######\n");
	assert_false(ps_object_moved(rt, 3));
	assert_false(ps_object_moved(rt, 5));
	for (int r = 0; r < ps_game_rule_count(g); r++)
		assert_false(ps_rule_fired(rt, r));
	/* a turn that stands keeps its facts */
	f = ps_turn(rt, PS_LEFT, NULL);
	assert_true(f & PS_CHANGED);
	assert_true(ps_object_moved(rt, 3));
	ps_runtime_free(rt);
	ps_game_free(g);
	free(src);
}

static void test_keys(void **state)
{
	(void)state;
	char *src = game_text("", "", NULL, push_rule, "all Crate on Target\n",
			      "#######\n#P.*.O#\n#..#..#\n#######\n");
	struct ps_game *g = compile_ok(src);
	struct ps_runtime *rt = ps_runtime_new(g, 0);
	/* walls never change and the background and target layers are static:
	 * two bits (none, player, crate) for each of the 9 cells without a
	 * wall, and one for "won" */
	assert_int_equal(ps_level_key_size(g, 0), 3);
	assert_int_equal(ps_key_size(rt), 3);
	unsigned char k0[3], k1[3], k2[3];
	ps_start(rt, NULL);
	ps_store(rt, k0);
	ps_turn(rt, PS_RIGHT, NULL);
	ps_turn(rt, PS_DOWN, NULL);
	ps_store(rt, k1);
	assert_memory_not_equal(k0, k1, 3);
	ps_load(rt, k0);
	expect_map(g, 0, rt, "#######\n#P.*.O#\n#..#..#\n#######\n");
	ps_load(rt, k1);
	expect_map(g, 0, rt, "#######\n#..*.O#\n#.P#..#\n#######\n");
	ps_store(rt, k2);
	assert_memory_equal(k1, k2, 3);
	ps_runtime_free(rt);
	ps_game_free(g);
	free(src);
}

/* ---- win conditions ---- */

static bool wins(const char *cond, const char *level)
{
	char *src = game_text("", "", NULL, push_rule, cond, level);
	struct ps_game *g = compile_ok(src);
	struct ps_runtime *rt = ps_runtime_new(g, 0);
	bool w = ps_check_win(rt);
	ps_runtime_free(rt);
	ps_game_free(g);
	free(src);
	return w;
}

static void test_win_conditions(void **state)
{
	(void)state;
	assert_true(wins("all Crate on Target\n", "#P@#\n"));
	assert_false(wins("all Crate on Target\n", "#P@*O#\n"));
	assert_true(wins("all Crate on Target\n", "#P..#\n"));           /* vacuous */
	assert_true(wins("some Crate on Target\n", "#P@*O#\n"));
	assert_false(wins("some Crate on Target\n", "#P*O#\n"));
	assert_true(wins("any Crate\n", "#P*#\n"));
	assert_false(wins("some Crate\n", "#P.#\n"));
	assert_true(wins("no Crate\n", "#P.#\n"));
	assert_false(wins("no Crate\n", "#P*#\n"));
	assert_true(wins("no Crate on Target\n", "#P*O#\n"));
	assert_false(wins("no Crate on Target\n", "#P@#\n"));
	/* several conditions must all hold */
	assert_false(wins("no Crate on Target\nsome Crate\n", "#P@#\n"));
	assert_true(wins("some Target\nsome Crate\n", "#P*O#\n"));
	/* no conditions: never won */
	assert_false(wins("", "#P@#\n"));
}

/* ---- rule features ---- */

static void test_ellipsis(void **state)
{
	(void)state;
	/* telekinesis: action pulls the first crate in line, however far */
	char *src = game_text("", "", NULL,
			      "[ action Player | ... | Crate ] -> [ action Player | ... | < Crate ]\n", "",
			      "########\n#P...*.#\n########\n");
	struct ps_game *g = compile_ok(src);
	struct ps_runtime *rt = ps_runtime_new(g, 0);
	ps_start(rt, NULL);
	assert_true(ps_turn(rt, PS_ACTION, NULL) & PS_CHANGED);
	expect_map(g, 0, rt, "########\n#P..*..#\n########\n");
	ps_turn(rt, PS_ACTION, NULL);
	ps_turn(rt, PS_ACTION, NULL);
	expect_map(g, 0, rt, "########\n#P*....#\n########\n");
	/* adjacent: the ellipsis matches zero cells, the crate cannot move in */
	assert_int_equal(ps_turn(rt, PS_ACTION, NULL) & PS_CHANGED, 0);
	ps_runtime_free(rt);
	ps_game_free(g);
	free(src);
}

static void test_rigid(void **state)
{
	(void)state;
	/* two crates glued into one rigid body: pushed as one, or not at all
	 * (the push is in the rigid group too, so a failed body bans it) */
	const char *rules = "rigid [ > Player | Crate ] -> [ > Player | > Crate ]\n"
			    "+ rigid [ moving Crate | Crate ] -> [ moving Crate | moving Crate ]\n";
	char *src = game_text("", "", NULL, rules, "",
			      "#######\n#P*...#\n#.*.#.#\n#######\n");
	struct ps_game *g = compile_ok(src);
	struct ps_runtime *rt = ps_runtime_new(g, 0);
	ps_start(rt, NULL);
	ps_turn(rt, PS_RIGHT, NULL);
	expect_map(g, 0, rt, "#######\n#.P*..#\n#..*#.#\n#######\n");
	/* the lower crate would hit the wall: the whole body stays, and so
	 * does the player */
	assert_int_equal(ps_turn(rt, PS_RIGHT, NULL) & PS_CHANGED, 0);
	expect_map(g, 0, rt, "#######\n#.P*..#\n#..*#.#\n#######\n");
	ps_runtime_free(rt);
	ps_game_free(g);

	/* without rigid the upper crate goes alone */
	const char *loose = "[ > Player | Crate ] -> [ > Player | > Crate ]\n"
			    "+ [ moving Crate | Crate ] -> [ moving Crate | moving Crate ]\n";
	char *src2 = game_text("", "", NULL, loose, "", "#######\n#.P*..#\n#..*#.#\n#######\n");
	g = compile_ok(src2);
	rt = ps_runtime_new(g, 0);
	ps_start(rt, NULL);
	ps_turn(rt, PS_RIGHT, NULL);
	expect_map(g, 0, rt, "#######\n#..P*.#\n#..*#.#\n#######\n");
	ps_runtime_free(rt);
	ps_game_free(g);

	/* rigid only bans its own group: a push in a group of its own still
	 * happens when the body's group fails */
	const char *split = "[ > Player | Crate ] -> [ > Player | > Crate ]\n"
			    "rigid [ moving Crate | Crate ] -> [ moving Crate | moving Crate ]\n";
	char *src3 = game_text("", "", NULL, split, "", "#######\n#.P*..#\n#..*#.#\n#######\n");
	g = compile_ok(src3);
	rt = ps_runtime_new(g, 0);
	ps_start(rt, NULL);
	ps_turn(rt, PS_RIGHT, NULL);
	expect_map(g, 0, rt, "#######\n#..P*.#\n#..*#.#\n#######\n");
	ps_runtime_free(rt);
	ps_game_free(g);
	free(src);
	free(src2);
	free(src3);
}

static void test_late_and_again(void **state)
{
	(void)state;
	/* late: a crate that ends its turn in a hole fills it; again: crates
	 * fall down, one cell per again turn, until they rest */
	const char *rules = "[ > Player | Crate ] -> [ > Player | > Crate ]\n"
			    "down [ stationary Crate | no Wall no Crate no Player ] -> [ > Crate | ] again\n"
			    "late [ Crate Hole ] -> [ Wall ]\n";
	char *src = game_text("", "", "Background\nTarget\nHole\nPlayer, Wall, Crate\n", rules, "",
			      "#####\n#P*.#\n#...#\n#..H#\n#####\n");
	struct ps_game *g = compile_ok(src);
	struct ps_runtime *rt = ps_runtime_new(g, 0);
	struct ps_turn_info info;
	/* the start has no input: nothing falls until a turn runs */
	ps_start(rt, NULL);
	expect_map(g, 0, rt, "#####\n#P*.#\n#...#\n#..H#\n#####\n");
	/* pushed right: still moving, so not falling this turn */
	ps_turn(rt, PS_RIGHT, &info);
	assert_false(info.flags & PS_AGAIN);
	expect_map(g, 0, rt, "#####\n#.P*#\n#...#\n#..H#\n#####\n");
	/* a tick: it falls a cell, and again turns take it into the hole,
	 * where the late rule turns it into wall */
	ps_turn(rt, PS_TICK, &info);
	assert_true(info.flags & PS_AGAIN);
	assert_int_equal(info.again_turns, 1);
	expect_map(g, 0, rt, "#####\n#.P.#\n#...#\n#..##\n#####\n");
	ps_runtime_free(rt);
	ps_game_free(g);
	free(src);
}

/* run_rules_on_level_start with a cut-scene: the crate walks right, one
 * cell a turn with again, onto its target.  The start rules' own turn
 * never wins (the reference passes dontDoWin), but the again turns it
 * causes are ordinary turns, and a win there wins the level on load, as
 * in cratopia's cut-scene levels. */
static void test_start_again_win(void **state)
{
	(void)state;
	const char *rules = "right [ stationary Crate ] -> [ right Crate ] again\n";
	const char *levels = "#######\n#P*..O#\n#######\n\n"   /* won in the again turns */
			     "#####\n#P*O#\n#####\n";              /* on target in the start turn */
	char *src = game_text("run_rules_on_level_start\n", "", NULL, rules, "all Crate on Target\n",
			      levels);
	struct ps_game *g = compile_ok(src);
	struct ps_runtime *rt = ps_runtime_new(g, 0);
	struct ps_turn_info info;
	ps_start(rt, &info);
	assert_true(info.flags & PS_WON);
	assert_true(info.flags & PS_AGAIN);
	assert_int_equal(info.again_turns, 2);
	expect_map(g, 0, rt, "#######\n#P...@#\n#######\n");
	unsigned char key[64];
	assert_true(ps_key_size(rt) <= sizeof key);
	ps_store(rt, key);
	assert_true(ps_key_won(rt, key));
	ps_runtime_free(rt);

	/* the start turn puts the crate on its target and nothing follows:
	 * not won on load; the next turn, whatever it is, wins */
	rt = ps_runtime_new(g, 1);
	ps_start(rt, &info);
	assert_false(info.flags & PS_WON);
	assert_false(info.flags & PS_AGAIN);
	expect_map(g, 1, rt, "#####\n#P.@#\n#####\n");
	ps_store(rt, key);
	assert_false(ps_key_won(rt, key));
	assert_true(ps_turn(rt, PS_UP, NULL) & PS_WON);
	ps_runtime_free(rt);

	/* a session (the reference's harness) moves on past the first level */
	struct ps_session *s = ps_session_new(g, 0, NULL);
	assert_int_equal(ps_session_level(s), 1);
	ps_session_free(s);
	ps_game_free(g);
	free(src);

	/* without run_rules_on_level_start nothing moves before an input */
	src = game_text("", "", NULL, rules, "all Crate on Target\n", levels);
	g = compile_ok(src);
	rt = ps_runtime_new(g, 0);
	ps_start(rt, &info);
	assert_false(info.flags & PS_WON);
	expect_map(g, 0, rt, "#######\n#P*..O#\n#######\n");
	ps_runtime_free(rt);
	ps_game_free(g);
	free(src);
}

static void test_cancel_restart_checkpoint(void **state)
{
	(void)state;
	const char *rules = "[ > Player | Target ] -> cancel\n"
			    "[ > Player | Hole ] -> restart\n";
	char *src = game_text("", "", NULL, rules, "", "#######\n#OP..H#\n#######\n");
	struct ps_game *g = compile_ok(src);
	struct ps_runtime *rt = ps_runtime_new(g, 0);
	struct ps_turn_info info;
	ps_start(rt, NULL);
	ps_turn(rt, PS_LEFT, &info);
	assert_true(info.flags & PS_CANCELLED);
	expect_map(g, 0, rt, "#######\n#OP..H#\n#######\n");
	ps_turn(rt, PS_RIGHT, &info);
	ps_turn(rt, PS_RIGHT, &info);
	expect_map(g, 0, rt, "#######\n#O..PH#\n#######\n");
	ps_turn(rt, PS_RIGHT, &info);
	assert_true(info.flags & PS_RESTARTED);
	expect_map(g, 0, rt, "#######\n#OP..H#\n#######\n");
	ps_runtime_free(rt);
	ps_game_free(g);
	free(src);

	/* checkpoint: a session restarts to the last checkpoint, the state at
	 * the end of the turn that queued it */
	const char *rules2 = "late [ Player Target ] -> checkpoint\n";
	src = game_text("", "Q = Player and Target\n", NULL, rules2, "", "#######\n#P.O..#\n#######\n");
	g = compile_ok(src);
	struct ps_session *s = ps_session_new(g, 0, NULL);
	ps_session_input(s, PS_RIGHT);
	ps_session_input(s, PS_RIGHT);
	ps_session_input(s, PS_RIGHT);
	expect_map(g, 0, ps_session_runtime(s), "#######\n#..OP.#\n#######\n");
	ps_session_restart(s);
	expect_map(g, 0, ps_session_runtime(s), "#######\n#..Q..#\n#######\n");
	/* restarting is a step undo takes back */
	ps_session_undo(s);
	expect_map(g, 0, ps_session_runtime(s), "#######\n#..OP.#\n#######\n");
	ps_session_free(s);
	ps_game_free(g);
	free(src);
}

static void test_session_undo(void **state)
{
	(void)state;
	char *src = game_text("", "", NULL, push_rule, "all Crate on Target\n",
			      "#######\n#P.*.O#\n#######\n\nmessage well done\n\n#####\n#P*O#\n#####\n");
	struct ps_game *g = compile_ok(src);
	assert_int_equal(ps_game_level_count(g), 3);
	assert_true(ps_level_is_message(g, 1));
	assert_string_equal(ps_level_message(g, 1), "well done");
	struct ps_session *s = ps_session_new(g, 0, NULL);
	ps_session_input(s, PS_RIGHT);
	ps_session_input(s, PS_UP);        /* blocked: no undo step */
	ps_session_input(s, PS_RIGHT);
	expect_map(g, 0, ps_session_runtime(s), "#######\n#..P*O#\n#######\n");
	ps_session_undo(s);
	expect_map(g, 0, ps_session_runtime(s), "#######\n#.P*.O#\n#######\n");
	ps_session_undo(s);
	expect_map(g, 0, ps_session_runtime(s), "#######\n#P.*.O#\n#######\n");
	ps_session_undo(s);                /* nothing left */
	expect_map(g, 0, ps_session_runtime(s), "#######\n#P.*.O#\n#######\n");
	/* winning moves on to the message: the grid stays, the level counter moves */
	ps_session_input(s, PS_RIGHT);
	ps_session_input(s, PS_RIGHT);
	ps_session_input(s, PS_RIGHT);
	assert_int_equal(ps_session_level(s), 1);
	assert_true(ps_session_text_mode(s));
	/* one push before the undos, two after */
	assert_int_equal(ps_session_sound_count(s), 3);
	ps_session_free(s);
	ps_game_free(g);
	free(src);
}

/* ---- the reference's random numbers, determinism ---- */

static void test_random(void **state)
{
	(void)state;
	/* values printed by the reference's rng.js for this seed */
	struct ps_rng r;
	ps_rng_seed(&r, "1397237766414.352");
	assert_true(ps_rng_uniform(&r) == 0.8066347543281126);
	assert_true(ps_rng_uniform(&r) == 0.6664732941803654);
	assert_true(ps_rng_uniform(&r) == 0.8786625782484706);
	ps_rng_seed(&r, "h\xc3\xa9llo");
	assert_true(ps_rng_uniform(&r) == 0.27337660315489554);

	const char *why = NULL;
	char *src = game_text("", "", NULL, push_rule, "", "#P#\n");
	struct ps_game *g = compile_ok(src);
	assert_true(ps_game_deterministic(g, &why));
	assert_null(why);
	ps_game_free(g);
	free(src);
	src = game_text("", "", NULL, "random [ Player | no Crate ] -> [ Player | Crate ]\n", "", "#P.#\n");
	g = compile_ok(src);
	assert_false(ps_game_deterministic(g, &why));
	assert_non_null(strstr(why, "random"));
	ps_game_free(g);
	free(src);
	src = game_text("realtime_interval 0.5\n", "", NULL, push_rule, "", "#P#\n");
	g = compile_ok(src);
	assert_false(ps_game_deterministic(g, &why));
	assert_non_null(strstr(why, "realtime"));
	assert_true(ps_game_flags(g)->realtime_interval == 0.5);
	ps_game_free(g);
	free(src);
}

/* ---- the demo games ---- */

static void test_demo_games(void **state)
{
	(void)state;
	static const char *const games[] = {
		"all_green_to_blue", "blockfaker", "byyourside", "kettle", "limerick", "microban",
		"sokoban_basic", "sokoban_match3", "sokoban_sticky", "zenpuzzlegarden",
	};
	const char *data = getenv("LEVELKIT_DATA");
	for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/puzzlescript/games/%s.txt", data ? data : "../shared/data",
			 games[i]);
		FILE *f = fopen(path, "rb");
		if (!f) {
			print_message("  skipping: %s not found (set LEVELKIT_DATA)\n", path);
			continue;
		}
		struct lk_strbuf sb = LK_STRBUF_INIT;
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, f)) > 0)
			lk_strbuf_add(&sb, buf, n);
		fclose(f);
		struct ps_game *g = compile_ok(sb.buf);
		int maps = 0;
		for (int l = 0; l < ps_game_level_count(g); l++) {
			if (ps_level_is_message(g, l))
				continue;
			maps++;
			struct ps_runtime *rt = ps_runtime_new(g, l);
			assert_non_null(rt);
			ps_start(rt, NULL);
			/* every map reads back in its own characters */
			struct lk_strbuf out = LK_STRBUF_INIT;
			ps_level_write(g, l, NULL, &out);
			assert_int_equal(out.len, (size_t)(ps_level_height(g, l) * (ps_level_width(g, l) + 1)));
			lk_strbuf_release(&out);
			ps_runtime_free(rt);
		}
		assert_true(maps > 0);
		assert_true(ps_game_deterministic(g, NULL));
		ps_game_free(g);
		lk_strbuf_release(&sb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compile_errors),
		cmocka_unit_test(test_sokoban_moves),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_track_undone),
		cmocka_unit_test(test_win_conditions),
		cmocka_unit_test(test_ellipsis),
		cmocka_unit_test(test_rigid),
		cmocka_unit_test(test_late_and_again),
		cmocka_unit_test(test_start_again_win),
		cmocka_unit_test(test_cancel_restart_checkpoint),
		cmocka_unit_test(test_session_undo),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_demo_games),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
