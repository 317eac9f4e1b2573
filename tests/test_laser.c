/*
 * test_laser.c - the laser game (src/games/laser): reading levels in both
 * forms and their errors, the firing simulation on hand-worked placements
 * (targets on several sides, cycles), and the facts, over powers too; the
 * three example levels of ../shared/laser with their known counts (split
 * 12 and 1 tidy, combine 17641 and 13, big10 55 tidy).  The solver against
 * a brute force is test_laser_brute.c, the game's hooks test_laser_game.c.
 */
#include "laser_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- reading */

static void test_examples(void **state)
{
	(void)state;
	struct lk_laser *lv = load_lvl("split.lvl");
	assert_int_equal(count(lv, false), 12);
	assert_int_equal(count(lv, true), 1);
	lk_laser_free(lv);
	lv = load_lvl("combine.lvl");
	assert_int_equal(count(lv, false), 17641);
	assert_int_equal(count(lv, true), 13);
	lk_laser_free(lv);
	lv = load_lvl("big10.lvl");
	assert_int_equal(count(lv, true), 55);
	lk_laser_free(lv);
}

/* The record form and the .lvl form say the same thing. */
static void test_forms(void **state)
{
	(void)state;
	struct lk_laser *a = load(split_record), *b = load_lvl("split.lvl");
	struct lk_strbuf ta = LK_STRBUF_INIT, tb = LK_STRBUF_INIT;
	lk_laser_write_lvl(a, &ta);
	lk_laser_write_lvl(b, &tb);
	assert_string_equal(ta.buf, tb.buf);
	assert_string_equal(ta.buf, "size 5 5\ngrid\n....B\n.....\nA....\n..#..\nC....\n"
				    "fixed A SRC >E 1\nfixed B TGT S> 1/2\nfixed C TGT E> 1/2\n"
				    "tray 1 SP2 W>NS\ntray 1 BND N>W\ntray 1 BND W>N\n");
	/* .lvl -> record -> .lvl */
	struct lk_record rec;
	lk_record_init(&rec);
	lk_laser_to_record(b, &rec);
	lk_strbuf_reset(&ta);
	lk_record_write(&rec, &ta);
	struct lk_laser *c = load(ta.buf);
	lk_strbuf_reset(&ta);
	lk_laser_write_lvl(c, &ta);
	assert_string_equal(ta.buf, tb.buf);
	/* the unit: 1/2 needs and one SP2: 2 * 2 */
	assert_int_equal(lk_laser_unit(a), 4);
	lk_record_release(&rec);
	lk_strbuf_release(&ta);
	lk_strbuf_release(&tb);
	lk_laser_free(a);
	lk_laser_free(b);
	lk_laser_free(c);
}

static void test_errors(void **state)
{
	(void)state;
	load_fails("game: laser\nA.?\nfixed: A SRC >E 1\n",
		   "unknown cell '?' in column 3 (use . # and letters of fixed pieces)", 1);
	load_fails("game: laser\nA..\n...B\nfixed: A SRC >E 1\n", "row 2 has 4 cells, the first row 3", 2);
	load_fails("game: laser\nA.B\nfixed: A SRC >E 1\n",
		   "letter B in column 3 has no fixed line (e.g. fixed: B SRC >E 1)", 1);
	load_fails("game: laser\nA..\nfixed: A SRC >E 1\nfixed: B TGT W> 1\n",
		   "fixed piece B is not on the grid", 3);
	load_fails("game: laser\nA..\nfixed: A SRC >E\n", "SRC A needs a power, e.g. 1/2", 2);
	load_fails("game: laser\nA..\nfixed: A SRC >E 0\n", "'0' is not a positive power P or P/Q", 2);
	load_fails("game: laser\nA..\nfixed: A SRC E> 1\n",
		   "SRC takes 0 in-ports and 1 out-port, not 'E>'", 2);
	load_fails("game: laser\nA..\nfixed: A SRC >E 1\ntray: 1 BND W>E\n",
		   "a bender turns a beam by 90 degrees: 'W>E' goes straight", 3);
	load_fails("game: laser\nA..\nfixed: A SRC >E 1\ntray: 1 SP2 W>WS\n",
		   "ports 'W>WS' name side W twice", 3);
	load_fails("game: laser\nA..\nfixed: A SRC >E 1\ntray: 2 TGT W> 1\n",
		   "expected COUNT TYPE PORTS, e.g. 2 BND W>S", 3);
	load_fails("game: laser\nA..\nfixed: A SRC >E 1\ntray: 2 TGT W>\n",
		   "a tray holds benders, splitters and combiners, not TGT", 3);
	load_fails("game: laser\nA..\nfixed: A SRC >E 1\ntray: 0 BND W>S\n",
		   "'0' is not a count from 1 to 256: expected COUNT TYPE PORTS, e.g. 2 BND W>S", 3);
	load_fails("game: laser\nA..\nfixed: A XYZ >E 1\n",
		   "unknown piece type 'XYZ' (SRC TGT BND SP2 SP3 CMB2 CMB3)", 2);
	load_fails("game: laser\nA..\nfixed: A SRC >E 1\nfixed: A SRC >E 1\n",
		   "fixed piece A is defined twice", 3);
	load_fails("game: laser\nA..\nfixed: A BND W>S 1\n",
		   "only sources and targets have a power, not BND", 2);
	load_fails("game: laser\nfixed: A BND W>S\n", "record has no grid", (size_t)-1);
	load_fails("game: laser\nA..\nfixed: A SRC >E 1/1099511627775\ntray: 60 SP3 W>NES\n",
		   "powers too fine: the common unit of all powers and splits overflows", (size_t)-1);
	/* .lvl errors carry 1-based lines */
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	assert_null(lk_laser_read_lvl("; c\nsize 3 1\ngrid\nA..\nfixed A SRC >X 1\n", &err, &line));
	assert_string_equal(err.buf, "ports '>X': 'X' is not a side (N E S W) or '>'");
	assert_int_equal(line, 5);
	lk_strbuf_reset(&err);
	assert_null(lk_laser_read_lvl("size 3 2\ngrid\nA..\n", &err, &line));
	assert_string_equal(err.buf, "the grid has fewer rows than size says");
	lk_strbuf_reset(&err);
	assert_null(lk_laser_read_lvl("size 3 1\ngrid\nA..\nfoo\n", &err, &line));
	assert_string_equal(err.buf, "expected size, grid, fixed or tray, not 'foo'");
	assert_int_equal(line, 4);
	/* a comment after a carriage return is a comment (found by fuzz_json:
	 * the line had no words and its first was read all the same) */
	lk_strbuf_reset(&err);
	assert_null(lk_laser_read_lvl("   \t \r\t;[0& \n\n\n\nsize +\"uo\t", &err, &line));
	assert_string_equal(err.buf, "expected size W H, each 1 to 16");
	assert_int_equal(line, 5);
	lk_strbuf_release(&err);
}

/* ---------------------------------------------------------- simulation */

static void test_evaluate(void **state)
{
	(void)state;
	struct lk_laser *lv = load(split_record);
	struct lk_laser_eval ev = evaluate(lv, "1@4,2 2@4,4");
	assert_true(ev.solved);
	assert_true(ev.tidy);
	assert_int_equal(ev.targets_ok, 2);
	assert_int_equal(ev.facts.fired[LK_LASER_SP2], 1);
	assert_int_equal(ev.facts.fired[LK_LASER_BND], 1);
	assert_int_equal(ev.facts.network, 1);
	/* with the other bender idle in a corner: solved, not tidy, and a
	 * network of its own */
	ev = evaluate(lv, "1@4,2 2@4,4 3@0,0");
	assert_true(ev.solved);
	assert_false(ev.tidy);
	assert_int_equal(ev.facts.idle, 1);
	assert_int_equal(ev.facts.network, 2);
	assert_int_equal(ev.facts.placed[LK_LASER_BND], 2);
	/* the splitter alone feeds B only */
	ev = evaluate(lv, "1@4,2");
	assert_false(ev.solved);
	assert_int_equal(ev.targets_ok, 1);
	/* a bender in the beam's way blocks it: nothing reaches the splitter */
	ev = evaluate(lv, "3@2,2 1@4,2 2@4,4");
	assert_int_equal(ev.targets_ok, 0);
	lk_laser_free(lv);

	/* combine: the intended split and recombination, and the shortcut */
	lv = load_lvl("combine.lvl");
	ev = evaluate(lv, "1@2,0 2@4,0 3@2,3 4@4,3");
	assert_true(ev.tidy);
	assert_int_equal(ev.facts.fired[LK_LASER_CMB2], 1);
	ev = evaluate(lv, "2@4,0");
	assert_true(ev.tidy);
	assert_int_equal(ev.facts.fired[LK_LASER_SP2], 0);
	lk_laser_free(lv);
}

/* Targets on several sides sum their beams (an extension of SPEC.md, the
 * original game's rule), hand-worked. */
static void test_multi_target(void **state)
{
	(void)state;
	/* two half beams meet in T, which needs 1 from W and S: the empty
	 * placement solves it; a bender on (1,0) diverts A's beam and one on
	 * (2,1) blocks B's; on the other four cells it is idle: 5 solutions,
	 * 1 tidy */
	static const char halves[] = "game: laser\n"
				     "A.T\n"
				     "...\n"
				     "..B\n"
				     "fixed: A SRC >E 1/2\n"
				     "fixed: B SRC >N 1/2\n"
				     "fixed: T TGT WS> 1\n"
				     "tray: 1 BND W>N\n";
	struct lk_laser *lv = load(halves);
	assert_int_equal(count(lv, false), 5);
	assert_int_equal(count(lv, true), 1);
	struct lk_laser_placement pl;
	struct lk_laser_eval ev;
	struct lk_strbuf msg = LK_STRBUF_INIT;
	assert_int_equal(lk_laser_placement_parse(lv, "-", &pl, NULL), 0);
	lk_laser_evaluate(lv, &pl, &ev, &msg);
	assert_true(ev.tidy);
	assert_string_equal(msg.buf, "target T (2,0): 1/2 + 1/2 = 1 of 1, satisfied\n");
	assert_int_equal(ev.facts.fired[LK_LASER_TGT], 1);
	assert_int_equal(ev.facts.network, 1);   /* both sources feed T */
	lk_strbuf_reset(&msg);
	assert_int_equal(lk_laser_placement_parse(lv, "1@1,0", &pl, NULL), 0);
	lk_laser_evaluate(lv, &pl, &ev, &msg);
	assert_false(ev.solved);
	assert_string_equal(msg.buf, "target T (2,0): 1/2 of 1, not satisfied\n");
	lk_laser_free(lv);

	/* two whole beams overshoot: T must lose one, to a bender that
	 * diverts A's (it fires: tidy) or blocks B's (idle): 2 solutions, 1
	 * tidy; every tidy one uses a bender, but among all solutions the
	 * idle blocker is a shortcut */
	lv = load("game: laser\nA.T\n...\n..B\nfixed: A SRC >E 1\nfixed: B SRC >N 1\n"
		  "fixed: T TGT WS> 1\ntray: 1 BND W>N\n");
	assert_int_equal(count(lv, false), 2);
	assert_int_equal(count(lv, true), 1);
	struct lk_expr *bender = lk_expr_parse("uses(bender)", NULL);
	struct lk_laser_result r;
	lk_laser_shortcut(lv, bender, false, 0, 0, &r);
	assert_int_equal(r.status, LK_UNSOLVABLE);
	lk_laser_shortcut(lv, bender, true, 0, 0, &r);
	assert_int_equal(r.status, LK_SOLVED);
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_laser_placement_format(&r.first, &text);
	assert_string_equal(text.buf, "1@2,1");
	lk_strbuf_release(&text);
	lk_expr_free(bender);
	lk_laser_free(lv);

	/* a three-sided target fed from two of its sides (as level 45 of the
	 * original game): 1/2 + 1/4 = 3/4 through a splitter; the third side
	 * may stay dark */
	lv = load("game: laser\n"
		  "A...\n"
		  "....\n"
		  "..T.\n"
		  "fixed: A SRC >E 1\n"
		  "fixed: T TGT NEW> 3/4\n"
		  "tray: 1 SP2 W>ES\n"
		  "tray: 1 BND N>W\n"
		  "tray: 1 SP2 W>SE\n");
	assert_int_equal(lk_laser_placement_parse(lv, "1@2,0 3@3,0 2@3,2", &pl, NULL), 0);
	lk_strbuf_reset(&msg);
	lk_laser_evaluate(lv, &pl, &ev, &msg);
	assert_true(ev.tidy);
	assert_string_equal(msg.buf, "target T (2,2): 1/2 + 1/4 = 3/4 of 3/4, satisfied\n");
	assert_true(count(lv, true) >= 1);
	lk_laser_free(lv);
	lk_strbuf_release(&msg);

	/* a target takes 1 to 4 in-ports and no out-port */
	load_fails("game: laser\nA.T\nfixed: A SRC >E 1\nfixed: T TGT W>E 1\n",
		   "TGT takes 1 to 4 in-ports and no out-port, not 'W>E'", 3);
	load_fails("game: laser\nA.T\nfixed: A SRC >E 1\nfixed: T TGT > 1\n",
		   "TGT takes 1 to 4 in-ports and no out-port, not '>'", 3);
}

/* The value of a fact on a placement (lk_laser_fact_at). */
static double fact_at(const struct lk_laser *lv, const char *placement, const char *name,
		      const char *arg)
{
	struct lk_laser_placement pl;
	double v = -1;
	assert_int_equal(lk_laser_placement_parse(lv, placement, &pl, NULL), 0);
	if (lk_laser_fact_at(lv, &pl, name, arg, &v) < 0)
		fail_msg("%s(%s) is not a fact", name, arg ? arg : "");
	return v;
}

/* Facts over powers, hand-worked on SPEC.md's examples and on the paper's
 * 1/12 + 1/12 (a level whose distracting 1/6 source is a shortcut). */
static void test_power_facts(void **state)
{
	(void)state;
	/* split: 1 into SP2, 1/2 north into B, 1/2 south, turned west by the
	 * bender into C */
	struct lk_laser *lv = load(split_record);
	const char *pl = "1@4,2 2@4,4";
	assert_true(fact_at(lv, pl, "made", "1/2") == 2);        /* the splitter, the bender */
	assert_true(fact_at(lv, pl, "made", "SP2 1/2") == 1);
	assert_true(fact_at(lv, pl, "made", "source 1") == 1);
	assert_true(fact_at(lv, pl, "made", "1") == 1);
	assert_true(fact_at(lv, pl, "into", "1/2") == 2);
	assert_true(fact_at(lv, pl, "into", "splitter 1/2") == 2); /* the bender passes it on */
	assert_true(fact_at(lv, pl, "into", "bender 1/2") == 0);
	assert_true(fact_at(lv, pl, "into", "source 1/2") == 0);
	assert_true(fact_at(lv, pl, "made", "1/7") == 0);         /* no beam can carry it */
	assert_true(fact_at(lv, pl, "adds", "1/4 + 1/4") == 0);
	lk_laser_free(lv);

	/* combine: 1/2 + 1/2 = 1 through the combiner; the shortcut's bender
	 * takes the source's 1 to the target */
	lv = load_lvl("combine.lvl");
	pl = "1@2,0 2@4,0 3@2,3 4@4,3";
	assert_true(fact_at(lv, pl, "adds", "1/2 + 1/2") == 1);
	assert_true(fact_at(lv, pl, "into", "1/2 + 1/2") == 1);
	assert_true(fact_at(lv, pl, "into", "combiner 1") == 1);
	assert_true(fact_at(lv, pl, "into", "source 1") == 0);
	assert_true(fact_at(lv, "2@4,0", "into", "source 1") == 1);
	assert_true(fact_at(lv, "2@4,0", "adds", "1/2 + 1/2") == 0);
	lk_laser_free(lv);

	/* a target on two sides adds its beams too */
	lv = load("game: laser\nA.T\n...\n..B\nfixed: A SRC >E 1/2\nfixed: B SRC >N 1/2\n"
		  "fixed: T TGT WS> 1\ntray: 1 BND W>N\n");
	assert_true(fact_at(lv, "-", "adds", "1/2 + 1/2") == 1);
	assert_true(fact_at(lv, "-", "into", "source 1/2") == 2);
	assert_true(fact_at(lv, "-", "into", "1/2 + 1/2") == 0);   /* no combiner made one */
	lk_laser_free(lv);

	/* The paper's lesson 1/12 + 1/12 = 2/12: two 1/12 sources and a
	 * combiner, and a distracting 1/6 source whose beam reaches the
	 * target unless a piece stops it.  "A combiner fires" has shortcuts:
	 * the 1/6 source alone, and the combiner adding 1/12 and 1/12 with
	 * its beam leaving the board while the 1/6 feeds the target; "the
	 * target receives 1/12 + 1/12" tells them apart. */
	lv = load("game: laser\n"
		  "A....\n"
		  ".....\n"
		  "C...T\n"
		  ".....\n"
		  "B....\n"
		  "fixed: A SRC >E 1/12\n"
		  "fixed: B SRC >E 1/12\n"
		  "fixed: C SRC >E 1/6\n"
		  "fixed: T TGT W> 1/6\n"
		  "tray: 1 CMB2 NS>E\n"
		  "tray: 1 BND W>S\n"
		  "tray: 1 BND W>N\n");
	const char *lost = "1@1,1 2@1,0 3@1,4", *intended = "1@1,2 2@1,0 3@1,4";
	assert_true(fact_at(lv, lost, "adds", "1/12 + 1/12") == 1);
	assert_true(fact_at(lv, lost, "into", "1/12 + 1/12") == 0);
	assert_true(fact_at(lv, lost, "into", "source 1/6") == 1);
	assert_true(fact_at(lv, intended, "into", "1/12 + 1/12") == 1);
	assert_true(fact_at(lv, intended, "into", "combiner 1/6") == 1);
	struct lk_expr *practise = lk_expr_parse("into(1/12 + 1/12) >= 1", NULL);
	struct lk_expr *fires = lk_expr_parse("uses(combiner)", NULL);
	struct lk_expr *lost_sum = lk_expr_parse("uses(combiner) && into(1/12 + 1/12) == 0", NULL);
	struct lk_laser_placement p;
	assert_int_equal(lk_laser_placement_parse(lv, lost, &p, NULL), 0);
	assert_true(lk_laser_concept_holds_at(lv, &p, fires));
	assert_false(lk_laser_concept_holds_at(lv, &p, practise));
	struct lk_laser_result r;
	lk_laser_shortcut(lv, practise, false, 0, 0, &r);
	assert_int_equal(r.status, LK_SOLVED);
	assert_false(lk_laser_concept_holds_at(lv, &r.first, practise));
	/* the search for a solution whose combiner's sum is lost */
	struct lk_laser_search_options o;
	lk_laser_search_options_init(&o);
	o.tidy = true;
	o.satisfy = lost_sum;
	o.limit = 1;
	lk_laser_search(lv, &o, NULL, NULL, &r);
	assert_int_equal(r.status, LK_SOLVED);
	assert_true(lk_laser_concept_holds_at(lv, &r.first, lost_sum));
	lk_expr_free(practise);
	lk_expr_free(fires);
	lk_expr_free(lost_sum);
	lk_laser_free(lv);

	/* what is a fact over powers and what is not */
	static const char *const good[] = { "made(1/2) >= 1", "made(splitter 1/4) == 2",
					    "adds(1/2 + 1/4 + 1/4) >= 1", "into(CMB3 3) >= 1",
					    "into(1/3 + 1/3 + 1/3) == 0", NULL };
	static const char *const bad[] = { "made(1/2 + 1/2) >= 1", "adds(1/2) >= 1",
					   "into(target 1) >= 1", "made(1/0) >= 1", "into(bender) >= 1",
					   "adds(combiner 1/2 + 1/2) >= 1", "made(0) >= 1", NULL };
	for (int i = 0; good[i]; i++) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		struct lk_expr *e = lk_expr_parse(good[i], &err);
		assert_non_null(e);
		if (lk_laser_concept_check(e, &err) < 0)
			fail_msg("%s: %s", good[i], err.buf);
		lk_expr_free(e);
		lk_strbuf_release(&err);
	}
	for (int i = 0; bad[i]; i++) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		struct lk_expr *e = lk_expr_parse(bad[i], &err);
		if (e && lk_laser_concept_check(e, &err) == 0)
			fail_msg("%s should not be a fact", bad[i]);
		lk_expr_free(e);
		lk_strbuf_release(&err);
	}
}

/* Least fixpoint: pieces on a cycle never fire, even if a source feeds the
 * cycle's combiner on its other port. */
static void test_cycle(void **state)
{
	(void)state;
	struct lk_laser *lv = load("game: laser\n"
				   "A.XY\n"
				   "..UV\n"
				   "T...\n"
				   "fixed: A SRC >E 1\n"
				   "fixed: X CMB2 WS>E\n"
				   "fixed: Y BND W>S\n"
				   "fixed: V BND N>W\n"
				   "fixed: U BND E>N\n"
				   "fixed: T TGT N> 1\n"
				   "tray: 1 SP2 W>ES\n");
	struct lk_laser_eval ev = evaluate(lv, "-");
	assert_false(ev.solved);
	assert_int_equal(ev.facts.fired[LK_LASER_CMB2], 0);
	assert_int_equal(ev.facts.fired[LK_LASER_BND], 0);
	assert_int_equal(ev.facts.fired[LK_LASER_SRC], 1);
	/* A's beam reaches X's in-port, a link; nothing else fires: A and X,
	 * then Y, V, U and T alone */
	assert_int_equal(ev.facts.network, 5);
	assert_int_equal(count(lv, false), 0);
	lk_laser_free(lv);
}

static void test_placement_text(void **state)
{
	(void)state;
	struct lk_laser *lv = load(split_record);
	struct lk_laser_placement pl;
	struct lk_strbuf sb = LK_STRBUF_INIT;
	assert_int_equal(lk_laser_placement_parse(lv, " 2@4,4   1@4,2 ", &pl, &sb), 0);
	lk_laser_placement_format(&pl, &sb);
	assert_string_equal(sb.buf, "1@4,2 2@4,4");
	const char *bad[][2] = {
		{ "1@4,2 1@3,2", "tray line 1 has only 1 piece" },
		{ "4@0,0", "tray line 4 does not exist (the tray has 3)" },
		{ "1@0,2", "cell 0,2 is not empty" },
		{ "1@2,3", "cell 2,3 is not empty" },
		{ "1@1,1 2@1,1", "cell 1,1 is not empty" },
		{ "1@5,0", "cell 5,0 is off the 5x5 board" },
		{ "1@1;1", "expected LINE@X,Y at '1@1;1'" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		lk_strbuf_reset(&sb);
		assert_int_equal(lk_laser_placement_parse(lv, bad[i][0], &pl, &sb), -1);
		assert_string_equal(sb.buf, bad[i][1]);
	}
	lk_strbuf_release(&sb);
	lk_laser_free(lv);
}

static void test_facts(void **state)
{
	(void)state;
	struct lk_laser_facts f;
	double v;
	memset(&f, 0, sizeof f);
	f.fired[LK_LASER_SP2] = 1;
	f.fired[LK_LASER_SP3] = 2;
	f.fired[LK_LASER_BND] = 6;
	f.placed[LK_LASER_BND] = 7;
	f.blockers = 3;
	f.network = 1;
	assert_int_equal(lk_laser_fact(&f, "count", "splitter", &v), 0);
	assert_true(v == 3);
	assert_int_equal(lk_laser_fact(&f, "uses", "sp3", &v), 0);
	assert_true(v == 1);
	assert_int_equal(lk_laser_fact(&f, "fires", "CMB2", &v), 0);
	assert_true(v == 0);
	assert_int_equal(lk_laser_fact(&f, "count", "Benders", &v), 0);
	assert_true(v == 6);
	assert_int_equal(lk_laser_fact(&f, "placed", "BND", &v), 0);
	assert_true(v == 7);
	assert_int_equal(lk_laser_fact(&f, "count", "blocker", &v), 0);
	assert_true(v == 3);
	assert_int_equal(lk_laser_fact(&f, "Network", NULL, &v), 0);
	assert_true(v == 1);
	assert_int_equal(lk_laser_fact(&f, "count", "XYZ", &v), -1);
	assert_int_equal(lk_laser_fact(&f, "sum", "BND", &v), -1);
	assert_int_equal(lk_laser_fact(&f, "moves", NULL, &v), -1);
	for (size_t i = 0; lk_laser_concept_preset_at(i, NULL, NULL); i++) {
		const char *expr;
		const char *name = lk_laser_concept_preset_at(i, &expr, NULL);
		struct lk_expr *e = lk_expr_parse(lk_laser_concept_preset(name), NULL);
		assert_non_null(e);
		assert_int_equal(lk_laser_concept_check(e, NULL), 0);
		assert_string_equal(lk_laser_concept_preset(name), expr);
		lk_expr_free(e);
	}
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_evaluate),
		cmocka_unit_test(test_multi_target),
		cmocka_unit_test(test_power_facts),
		cmocka_unit_test(test_cycle),
		cmocka_unit_test(test_placement_text),
		cmocka_unit_test(test_facts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
