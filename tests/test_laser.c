/*
 * test_laser.c - the laser game (src/games/laser): reading levels in both
 * forms, the firing simulation on hand-worked placements, facts, and the
 * solver against independent truths:
 *
 *  - the three example levels of ../shared/laser with their known counts
 *    (split 12 and 1 tidy, combine 17641 and 13, big10 55 tidy);
 *  - a brute-force enumerator written here: every assignment of tray
 *    pieces to the empty cells of a small random level, each judged by
 *    lk_laser_evaluate (the whole-placement fixpoint, which shares no code
 *    with the search's beam following).  Its counts of all and tidy
 *    solutions, and of those satisfying or violating random concepts, are
 *    compared with the solver's under every option (look-ahead on and off,
 *    each beam order, shuffled, shuffled with empty cells first, expand);
 *  - lk_csp_rate through the game's csp members.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/csp.h"
#include "levelkit/difficulty.h"
#include "levelkit/expr.h"
#include "levelkit/game.h"
#include "laser.h"   /* src/games/laser: the game's own API */
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/rng.h"

/* ------------------------------------------------------------- helpers */

static void read_record(const char *text, struct lk_record *rec)
{
	FILE *fp = tmpfile();
	struct lk_reader r;
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, strlen(text), fp), strlen(text));
	rewind(fp);
	lk_reader_init_fp(&r, fp, "test.lvl");
	lk_record_init(rec);
	assert_int_equal(lk_reader_next(&r, rec, NULL, NULL), 1);
	lk_reader_close(&r);
	fclose(fp);
}

static struct lk_laser *load(const char *text)
{
	struct lk_record rec;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	read_record(text, &rec);
	if (lk_laser_validate(&rec, &err, &line) < 0)
		fail_msg("level does not validate: %s\n%s", err.buf, text);
	struct lk_laser *lv = lk_laser_new(&rec);
	assert_non_null(lv);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	return lv;
}

/* The message and line index of a record that must not validate. */
static void load_fails(const char *text, const char *message, size_t want_line)
{
	struct lk_record rec;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 12345;
	read_record(text, &rec);
	assert_int_equal(lk_laser_validate(&rec, &err, &line), -1);
	if (strcmp(err.buf, message) != 0)
		fail_msg("got '%s', expected '%s'", err.buf, message);
	assert_int_equal(line, want_line);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
}

static char *data_file(const char *name)
{
	const char *dir = getenv("LEVELKIT_DATA");
	static char path[4096];
	snprintf(path, sizeof path, "%s/../laser/levels/%s", dir ? dir : "../shared/data", name);
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	struct lk_strbuf sb = LK_STRBUF_INIT;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		lk_strbuf_add(&sb, buf, n);
	fclose(fp);
	return lk_strbuf_detach(&sb, NULL);
}

static struct lk_laser *load_lvl(const char *name)
{
	char *text = data_file(name);
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	if (!text)
		fail_msg("%s not found (LEVELKIT_DATA/../laser/levels)", name);
	struct lk_laser *lv = lk_laser_read_lvl(text, &err, &line);
	if (!lv)
		fail_msg("%s:%zu: %s", name, line, err.buf);
	free(text);
	lk_strbuf_release(&err);
	return lv;
}

static uint64_t count(const struct lk_laser *lv, bool tidy)
{
	struct lk_laser_search_options o;
	struct lk_laser_result r;
	lk_laser_search_options_init(&o);
	o.tidy = tidy;
	lk_laser_search(lv, &o, NULL, NULL, &r);
	assert_true(r.exhausted);
	return r.solutions;
}

static struct lk_laser_eval evaluate(const struct lk_laser *lv, const char *placement)
{
	struct lk_laser_placement pl;
	struct lk_laser_eval ev;
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (lk_laser_placement_parse(lv, placement, &pl, &err) < 0)
		fail_msg("'%s': %s", placement, err.buf);
	lk_laser_evaluate(lv, &pl, &ev, NULL);
	lk_strbuf_release(&err);
	return ev;
}

static const char split_record[] =
	"title: split\n"
	"game: laser\n"
	"....B\n"
	".....\n"
	"A....\n"
	"..#..\n"
	"C....\n"
	"fixed: A SRC >E 1\n"
	"fixed: B TGT S> 1/2\n"
	"fixed: C TGT E> 1/2\n"
	"tray: 1 SP2 W>NS\n"
	"tray: 1 BND N>W\n"
	"tray: 1 BND W>N\n";

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

/* --------------------------------------------------------- brute force */

static const char *const type_names[] = { "BND", "SP2", "SP3", "CMB2", "CMB3" };
static const int type_ins[] = { 1, 1, 1, 2, 3 }, type_outs[] = { 1, 2, 3, 1, 1 };

/* Random ports for a type: ins then outs from a shuffled N E S W. */
static void random_ports(struct lk_rng *rng, int t, struct lk_strbuf *out)
{
	for (;;) {
		char sides[4] = { 'N', 'E', 'S', 'W' };
		for (int i = 3; i > 0; i--) {
			int j = (int)lk_rng_below(rng, (uint32_t)i + 1);
			char c = sides[i];
			sides[i] = sides[j];
			sides[j] = c;
		}
		/* a bender may not go straight: N/S and E/W are opposite */
		if (t == 0 && (strchr("NS", sides[0]) != NULL) == (strchr("NS", sides[1]) != NULL))
			continue;
		lk_strbuf_add(out, sides, (size_t)type_ins[t]);
		lk_strbuf_addch(out, '>');
		lk_strbuf_add(out, sides + type_ins[t], (size_t)type_outs[t]);
		return;
	}
}

/* A small random level as record text, with at most max_empty empty cells:
 * sources, perhaps a fixed piece, blockers, a tray, then targets planted
 * where the beams of a random placement pass (plant_targets), so that many
 * levels have solutions. */
static void random_board(struct lk_rng *rng, int max_empty, struct lk_strbuf *out)
{
	static const char *const powers[] = { "1", "1", "1/2", "2" };
	static const char dirs[] = "NESW";
	int w = 3 + (int)lk_rng_below(rng, 2), h = 3 + (int)lk_rng_below(rng, 2);
	char cells[16];
	struct lk_strbuf fields = LK_STRBUF_INIT;
	memset(cells, '.', sizeof cells);
	int nsrc = 1 + (int)lk_rng_below(rng, 2);
	int nfix = lk_rng_below(rng, 4) == 0;
	for (int i = 0; i < nsrc + nfix; i++) {
		int c;
		do
			c = (int)lk_rng_below(rng, (uint32_t)(w * h));
		while (cells[c] != '.');
		char letter = i < nsrc ? (char)('A' + i) : 'F';
		cells[c] = letter;
		if (i < nsrc) {
			lk_strbuf_addf(&fields, "fixed: %c SRC >%c %s\n", letter, dirs[lk_rng_below(rng, 4)],
				       powers[lk_rng_below(rng, 4)]);
		} else {
			int t = (int)lk_rng_below(rng, 5);
			lk_strbuf_addf(&fields, "fixed: F %s ", type_names[t]);
			random_ports(rng, t, &fields);
			lk_strbuf_addch(&fields, '\n');
		}
	}
	int empty = 0;
	for (int c = 0; c < w * h; c++)
		empty += cells[c] == '.';
	int blockers = (int)lk_rng_below(rng, 2);
	while (empty > max_empty + 2 || blockers-- > 0) {
		int c = (int)lk_rng_below(rng, (uint32_t)(w * h));
		if (cells[c] == '.') {
			cells[c] = '#';
			empty--;
		}
	}
	int lines = 1 + (int)lk_rng_below(rng, 3);
	for (int i = 0; i < lines; i++) {
		/* benders and splitters more often than combiners */
		static const int pick[] = { 0, 0, 0, 1, 1, 2, 3, 4 };
		int t = pick[lk_rng_below(rng, 8)];
		lk_strbuf_addf(&fields, "tray: %d %s ", 1 + (int)lk_rng_below(rng, 2), type_names[t]);
		random_ports(rng, t, &fields);
		lk_strbuf_addch(&fields, '\n');
	}
	lk_strbuf_addstr(out, "game: laser\n");
	for (int y = 0; y < h; y++) {
		lk_strbuf_add(out, cells + y * w, (size_t)w);
		lk_strbuf_addch(out, '\n');
	}
	lk_strbuf_add(out, fields.buf, fields.len);
	lk_strbuf_release(&fields);
}

static const char *const needs[] = { "1", "1/2", "1/2", "1/3", "1/4", "2/3", "3/2", "2", "1" };

/* The tray counts of a level's text. */
static void tray_counts(const char *text, int n, int *spare)
{
	const char *t = text;
	for (int l = 0; l < n; l++) {
		t = strstr(t, "tray: ") + 6;
		spare[l] = atoi(t);
	}
}

/* a/b + c/d as reduced text */
static void add_powers(const char *p, const char *q, char *out, size_t size)
{
	long a = atol(p), b = strchr(p, '/') ? atol(strchr(p, '/') + 1) : 1;
	long c = atol(q), d = strchr(q, '/') ? atol(strchr(q, '/') + 1) : 1;
	long n = a * d + c * b, m = b * d, x = n, y = m;
	while (y) {
		long t = x % y;
		x = y;
		y = t;
	}
	if (m / x == 1)
		snprintf(out, size, "%ld", n / x);
	else
		snprintf(out, size, "%ld/%ld", n / x, m / x);
}

/* Add one or two targets to the board text: on empty cells where a beam of
 * a random placement passes, facing it, needing what it carries (now and
 * then a random need instead), so that the placement, or a close one,
 * solves the level.  Now and then a target is on several sides (it sums
 * its beams): where two beams of the placement cross its cell it needs
 * their sum, else it has a side or two more that may catch beams. */
static int plant_targets(struct lk_rng *rng, int max_empty, struct lk_strbuf *text, int *summed)
{
	int multi = 0;
	*summed = 0;
	struct lk_laser *lv = load(text->buf);
	struct lk_laser_placement pl;
	struct lk_strbuf drawn = LK_STRBUF_INIT, beams = LK_STRBUF_INIT;
	int w = lk_laser_width(lv), h = lk_laser_height(lv), spare[64];
	char grid[16];
	bool used[16] = { false };
	lk_laser_draw(lv, NULL, &drawn);
	for (int c = 0; c < w * h; c++)
		grid[c] = drawn.buf[c / w * (w + 1) + c % w];
	tray_counts(text->buf, lk_laser_tray_lines(lv), spare);
	pl.n = 0;
	for (int c = 0; c < w * h; c++) {
		int l = (int)lk_rng_below(rng, (uint32_t)lk_laser_tray_lines(lv) * 2);
		if (grid[c] == '.' && l < lk_laser_tray_lines(lv) && spare[l]) {
			spare[l]--;
			used[c] = true;
			pl.p[pl.n++] = (struct lk_laser_place){ l + 1, c % w, c / w };
		}
	}
	lk_laser_draw(lv, &pl, &beams);
	/* candidates: (cell, side it is entered from, power) */
	int cand[64][2], ncand = 0;
	char power[64][16];
	static const char heading[] = "NESW";
	static const int dx[] = { 0, 1, 0, -1 }, dy[] = { -1, 0, 1, 0 };
	for (const char *b = strstr(beams.buf, "beam: "); b; b = strstr(b + 1, "beam: ")) {
		char value[16], d;
		int x, y;
		if (sscanf(b, "beam: %15s from %d,%d heading %c", value, &x, &y, &d) != 4)
			continue;
		int side = (int)(strchr(heading, d) - heading);
		for (x += dx[side], y += dy[side]; x >= 0 && y >= 0 && x < w && y < h && ncand < 64;
		     x += dx[side], y += dy[side]) {
			int c = y * w + x;
			if (grid[c] != '.' || used[c])
				break;
			cand[ncand][0] = c;
			cand[ncand][1] = (side + 2) % 4;
			snprintf(power[ncand++], sizeof power[0], "%s", value);
		}
	}
	int ntgt = 1 + (int)lk_rng_below(rng, 2);
	struct lk_strbuf fields = LK_STRBUF_INIT;
	for (int i = 0; i < ntgt; i++) {
		int c, side;
		const char *need;
		char sum[32];
		unsigned ins;
		int cross[64], ncross = 0;   /* candidates where another beam crosses */
		for (int k = 0; k < ncand; k++)
			for (int k2 = 0; k2 < ncand; k2++)
				if (cand[k2][0] == cand[k][0] && cand[k2][1] != cand[k][1]) {
					cross[ncross++] = k;
					break;
				}
		bool sum_now = ncross && lk_rng_below(rng, 3) == 0;
		if (sum_now || (ncand && lk_rng_below(rng, 6) != 0)) {
			int k = sum_now ? cross[lk_rng_below(rng, (uint32_t)ncross)]
					: (int)lk_rng_below(rng, (uint32_t)ncand);
			c = cand[k][0];
			side = cand[k][1];
			need = power[k];
		} else {
			c = (int)lk_rng_below(rng, (uint32_t)(w * h));
			side = (int)lk_rng_below(rng, 4);
			need = needs[lk_rng_below(rng, 9)];
		}
		if (grid[c] != '.')
			continue;
		ins = 1u << side;
		if (sum_now || lk_rng_below(rng, 3) == 0) {
			int k2 = 0;
			while (k2 < ncand && (cand[k2][0] != c || cand[k2][1] == side))
				k2++;
			if (k2 < ncand && (sum_now || lk_rng_below(rng, 4) != 0)) {
				ins |= 1u << cand[k2][1];
				add_powers(need, power[k2], sum, sizeof sum);
				++*summed;
				need = sum;
			} else {
				ins |= 1u << lk_rng_below(rng, 4);
				if (lk_rng_below(rng, 2))
					ins |= 1u << lk_rng_below(rng, 4);
			}
		}
		grid[c] = (char)('T' + i);
		multi += (ins & (ins - 1)) != 0;
		lk_strbuf_addf(&fields, "fixed: %c TGT ", 'T' + i);
		for (int s = 0; s < 4; s++)
			if (ins >> s & 1)
				lk_strbuf_addch(&fields, heading[s]);
		lk_strbuf_addf(&fields, "> %s\n", need);
	}
	int empty = 0;
	for (int c = 0; c < w * h; c++)
		empty += grid[c] == '.';
	for (int c = 0; c < w * h && empty > max_empty; c++) {
		if (grid[c] == '.' && !used[c]) {
			grid[c] = '#';
			empty--;
		}
	}
	/* the grid, then the fields: the board's, then the targets' */
	struct lk_strbuf out = LK_STRBUF_INIT;
	lk_strbuf_addstr(&out, "game: laser\n");
	for (int y = 0; y < h; y++) {
		lk_strbuf_add(&out, grid + y * w, (size_t)w);
		lk_strbuf_addch(&out, '\n');
	}
	lk_strbuf_addstr(&out, strstr(text->buf, "fixed: "));
	lk_strbuf_add(&out, fields.buf, fields.len);
	lk_strbuf_reset(text);
	lk_strbuf_add(text, out.buf, out.len);
	lk_strbuf_release(&out);
	lk_strbuf_release(&fields);
	lk_strbuf_release(&drawn);
	lk_strbuf_release(&beams);
	lk_laser_free(lv);
	return multi;
}

/* A small random level around a target on two or three sides, each fed
 * straight by a source some cells away, needing (mostly) the sum of their
 * powers: what targets on several sides add, stressed, with a random tray
 * that can divert, split and combine the beams, and now and then a side
 * more or a second target.  *summed: whether the need is such a sum. */
static void random_sum_board(struct lk_rng *rng, struct lk_strbuf *out, int *summed)
{
	static const char *const powers[] = { "1", "1/2", "1/3", "2", "1/2" };
	static const char dirs[] = "NESW";
	static const int dx[] = { 0, 1, 0, -1 }, dy[] = { -1, 0, 1, 0 };
	int w = 3 + (int)lk_rng_below(rng, 2), h = 3 + (int)lk_rng_below(rng, 2);
	char cells[16];
	struct lk_strbuf fields = LK_STRBUF_INIT;
	memset(cells, '.', sizeof cells);
	int t = (int)lk_rng_below(rng, (uint32_t)(w * h)), tx = t % w, ty = t / w;
	cells[t] = 'T';
	unsigned ins = 0;
	char need[32] = "0";
	int want = 2 + (lk_rng_below(rng, 3) == 0), nsrc = 0;
	for (int tries = 0; tries < 12 && nsrc < want; tries++) {
		int side = (int)lk_rng_below(rng, 4), room = 0;
		for (int x = tx + dx[side], y = ty + dy[side]; x >= 0 && y >= 0 && x < w && y < h;
		     x += dx[side], y += dy[side])
			room++;
		if (!room || (ins >> side & 1))
			continue;
		int d = 1 + (int)lk_rng_below(rng, (uint32_t)room), c = (ty + d * dy[side]) * w + tx + d * dx[side];
		if (cells[c] != '.')
			continue;
		const char *p = powers[lk_rng_below(rng, 5)];
		char letter = (char)('A' + nsrc++);
		cells[c] = letter;
		ins |= 1u << side;
		lk_strbuf_addf(&fields, "fixed: %c SRC >%c %s\n", letter, dirs[(side + 2) % 4], p);
		char sum[32];
		add_powers(need, p, sum, sizeof sum);
		memcpy(need, sum, sizeof need);
	}
	*summed = nsrc >= 2;
	if (lk_rng_below(rng, 4) == 0)
		ins |= 1u << lk_rng_below(rng, 4);
	if (nsrc == 0 || lk_rng_below(rng, 8) == 0) {
		*summed = 0;
		snprintf(need, sizeof need, "%s", needs[lk_rng_below(rng, 9)]);
	}
	if (lk_rng_below(rng, 4) == 0) {
		int c = (int)lk_rng_below(rng, (uint32_t)(w * h));
		if (cells[c] == '.') {
			cells[c] = 'U';
			lk_strbuf_addf(&fields, "fixed: U TGT %c> %s\n", dirs[lk_rng_below(rng, 4)],
				       needs[lk_rng_below(rng, 9)]);
		}
	}
	lk_strbuf_addstr(&fields, "fixed: T TGT ");
	for (int s = 0; s < 4; s++)
		if (ins >> s & 1)
			lk_strbuf_addch(&fields, dirs[s]);
	lk_strbuf_addf(&fields, "> %s\n", need);
	int empty = 0;
	for (int c = 0; c < w * h; c++)
		empty += cells[c] == '.';
	int blockers = (int)lk_rng_below(rng, 2);
	while (empty > 9 || blockers-- > 0) {
		int c = (int)lk_rng_below(rng, (uint32_t)(w * h));
		if (cells[c] == '.') {
			cells[c] = '#';
			empty--;
		}
	}
	int lines = 1 + (int)lk_rng_below(rng, 3);
	for (int i = 0; i < lines; i++) {
		static const int pick[] = { 0, 0, 0, 1, 1, 2, 3, 4 };
		int ty2 = pick[lk_rng_below(rng, 8)];
		lk_strbuf_addf(&fields, "tray: %d %s ", 1 + (int)lk_rng_below(rng, 2), type_names[ty2]);
		random_ports(rng, ty2, &fields);
		lk_strbuf_addch(&fields, '\n');
	}
	lk_strbuf_addstr(out, "game: laser\n");
	for (int y = 0; y < h; y++) {
		lk_strbuf_add(out, cells + y * w, (size_t)w);
		lk_strbuf_addch(out, '\n');
	}
	lk_strbuf_add(out, fields.buf, fields.len);
	lk_strbuf_release(&fields);
}

#define NCONCEPTS 16
static const char *const concepts[NCONCEPTS] = {
	"uses(splitter)", "count(BND) >= 1", "network == 1", "placed >= 2",
	"idle == 0 || count(combiner) >= 1", "network <= 2 && !uses(SP3)", "count(target) == 2",
	"count(BND) >= 2", "count(bender) <= 1 || uses(SP2)", "count(splitter) >= 2 || count(BND) == 3",
	/* over powers */
	"made(1/2) >= 1", "into(source 1) >= 1 || into(1/2) == 2", "into(1) >= 1 && made(SP3 1/3) <= 1",
	"adds(1/2 + 1/2) >= 1 || into(splitter 1/4) >= 1", "into(source 1/2) == 0",
	"into(2) >= 1 || adds(1 + 1) >= 1 || made(1/6) >= 1",
};

struct brute {
	const struct lk_laser *lv;
	struct lk_expr *concept[NCONCEPTS];
	int cells[16], ncells, spare[64];
	struct lk_laser_placement pl;
	uint64_t all, tidy, holds[2][NCONCEPTS];   /* [tidy][concept] */
};

static void brute_rec(struct brute *b, int i)
{
	if (i == b->ncells) {
		struct lk_laser_eval ev;
		lk_laser_evaluate(b->lv, &b->pl, &ev, NULL);
		if (!ev.solved)
			return;
		b->all++;
		b->tidy += ev.tidy;
		for (int k = 0; k < NCONCEPTS; k++) {
			bool h = lk_laser_concept_holds_at(b->lv, &b->pl, b->concept[k]);
			b->holds[0][k] += h;
			b->holds[1][k] += h && ev.tidy;
		}
		return;
	}
	brute_rec(b, i + 1);
	int w = lk_laser_width(b->lv);
	for (int l = 0; l < lk_laser_tray_lines(b->lv); l++) {
		if (!b->spare[l])
			continue;
		b->spare[l]--;
		b->pl.p[b->pl.n++] = (struct lk_laser_place){ l + 1, b->cells[i] % w, b->cells[i] / w };
		brute_rec(b, i + 1);
		b->pl.n--;
		b->spare[l]++;
	}
}

static bool count_visit(void *ctx, const struct lk_laser_solution *s)
{
	uint64_t *n = ctx;
	assert_int_equal(s->multiplicity, 1);
	*n += 1;
	return true;
}

static uint64_t search_count(const struct lk_laser *lv, const struct lk_laser_search_options *o)
{
	struct lk_laser_result r;
	uint64_t visits = 0;
	lk_laser_search(lv, o, o->expand ? count_visit : NULL, &visits, &r);
	assert_true(r.exhausted);
	if (o->expand)
		assert_int_equal(visits, r.solutions);
	return r.solutions;
}

static void test_brute_force(void **state)
{
	(void)state;
	struct lk_rng rng;
	struct lk_strbuf text = LK_STRBUF_INIT;
	int solvable = 0, tidy_solvable = 0, multi_levels = 0, multi_solvable = 0;
	int sum_solvable = 0, some_true[NCONCEPTS] = { 0 }, some_false[NCONCEPTS] = { 0 };
	lk_rng_seed(&rng, 14);
	struct brute *b = calloc(1, sizeof *b);
	assert_non_null(b);
	for (int k = 0; k < NCONCEPTS; k++)
		b->concept[k] = lk_expr_parse(concepts[k], NULL);
	for (int n = 0; n < 500; n++) {
		/* the last 200 built round a target on several sides */
		int summed, multi = 1;
		lk_strbuf_reset(&text);
		if (n < 300) {
			random_board(&rng, 7, &text);
			multi = plant_targets(&rng, 7, &text, &summed);
		} else {
			random_sum_board(&rng, &text, &summed);
		}
		struct lk_laser *lv = load(text.buf);
		b->lv = lv;
		b->all = b->tidy = 0;
		memset(b->holds, 0, sizeof b->holds);
		b->ncells = 0;
		b->pl.n = 0;
		struct lk_strbuf drawn = LK_STRBUF_INIT;
		lk_laser_draw(lv, NULL, &drawn);
		for (int c = 0, w = lk_laser_width(lv); c < w * lk_laser_height(lv); c++)
			if (drawn.buf[c / w * (w + 1) + c % w] == '.')
				b->cells[b->ncells++] = c;
		lk_strbuf_release(&drawn);
		struct lk_laser_placement all;
		lk_laser_placement_parse(lv, "", &all, NULL);
		tray_counts(text.buf, lk_laser_tray_lines(lv), b->spare);
		brute_rec(b, 0);
		solvable += b->all > 0;
		tidy_solvable += b->tidy > 0;
		for (int k = 0; k < NCONCEPTS; k++) {
			some_true[k] += b->holds[0][k] > 0;
			some_false[k] += b->holds[0][k] < b->all;
		}
		multi_levels += multi > 0;
		multi_solvable += multi > 0 && b->all > 0;
		sum_solvable += summed > 0 && b->all > 0;
		for (int variant = 0; variant < 6; variant++) {
			struct lk_laser_search_options o;
			lk_laser_search_options_init(&o);
			o.weak = variant == 1;
			o.fixed_order = variant == 2;
			o.seed = variant == 3 || variant == 5 ? (uint64_t)n + 1 : 0;
			o.empty_first = variant == 5 ? 50 : 0;
			o.expand = variant == 4;
			for (int tidy = 0; tidy < 2; tidy++) {
				o.tidy = tidy;
				o.violate = o.satisfy = NULL;
				uint64_t got = search_count(lv, &o), want = tidy ? b->tidy : b->all;
				if (got != want)
					fail_msg("level %d variant %d tidy %d: %llu solutions, brute force %llu\n%s", n,
						 variant, tidy, (unsigned long long)got, (unsigned long long)want,
						 text.buf);
				for (int k = 0; k < NCONCEPTS; k++) {
					o.violate = b->concept[k];
					o.satisfy = NULL;
					uint64_t v = search_count(lv, &o);
					o.violate = NULL;
					o.satisfy = b->concept[k];
					uint64_t s = search_count(lv, &o);
					uint64_t h = b->holds[tidy][k];
					if (s != h || v != want - h)
						fail_msg("level %d variant %d tidy %d concept %s: %llu hold, %llu do "
							 "not; brute force %llu of %llu\n%s", n, variant, tidy,
							 concepts[k], (unsigned long long)s,
							 (unsigned long long)v, (unsigned long long)h,
							 (unsigned long long)want, text.buf);
				}
			}
		}
		lk_laser_free(lv);
	}
	/* the random levels must exercise the solver, not only say no */
	print_message("%d of 500 levels solvable, %d with tidy solutions; %d with a target on "
		      "several sides, %d of them solvable, %d needing the sum of two beams\n", solvable,
		      tidy_solvable, multi_levels, multi_solvable, sum_solvable);
	assert_true(solvable >= 100);
	assert_true(tidy_solvable >= 80);
	assert_true(multi_levels >= 40);
	assert_true(multi_solvable >= 15);
	assert_true(sum_solvable >= 10);
	/* each concept over powers holds for solutions of enough levels, and
	 * fails for solutions of enough others, to test the search for
	 * solutions that satisfy it and for those that violate it */
	for (int k = 10; k < NCONCEPTS; k++) {
		print_message("%s: true of a solution on %d levels, false on %d\n", concepts[k],
			      some_true[k], some_false[k]);
		assert_true(some_true[k] >= 10);
		assert_true(some_false[k] >= 10);
	}
	for (int k = 0; k < NCONCEPTS; k++)
		lk_expr_free(b->concept[k]);
	free(b);
	lk_strbuf_release(&text);
}

/* ------------------------------------------------------------ the game */

static void test_csp(void **state)
{
	(void)state;
	struct lk_record rec;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_level_options lo = { 0 };
	size_t line;
	read_record(split_record, &rec);
	/* the registry's game, and the level it loads from the record */
	const struct lk_game *game = lk_game_find("laser");
	assert_non_null(game);
	assert_int_equal(game->validate(game, NULL, &rec, &lo, &err, &line), 0);
	struct lk_level *level = lk_level_load(&rec, &lo, &err, &line);
	assert_non_null(level);
	assert_ptr_equal(level->game, game);
	struct lk_laser *lv = (struct lk_laser *)level;
	struct lk_csp_options o;
	struct lk_csp_result r;
	lk_csp_options_init(&o);
	lk_csp_result_init(&r);
	o.count_limit = 100;
	game->csp->solve((struct lk_level *)lv, &o, &r);
	assert_int_equal(r.status, LK_SOLVED);
	assert_int_equal(r.solutions, 12);
	assert_true(r.exhausted);
	assert_true(r.solution.len > 0);
	assert_true(r.second.len > 0);
	bool valid = false;
	assert_int_equal(game->csp->verify((struct lk_level *)lv, r.solution.buf, &valid, &err), 0);
	assert_true(valid);
	assert_int_equal(game->csp->verify((struct lk_level *)lv, r.second.buf, &valid, &err), 0);
	assert_true(valid);
	assert_int_equal(game->csp->verify((struct lk_level *)lv, "1@4,2", &valid, &err), 0);
	assert_false(valid);
	struct lk_csp_rating rating;
	lk_csp_rate((struct lk_level *)lv, &o, 20, 5, &rating);
	assert_int_equal(rating.status, LK_SOLVED);
	assert_int_equal(rating.runs_solved, 20);
	assert_true(rating.mean >= 1);
	lk_csp_result_release(&r);
	lk_strbuf_release(&err);
	lk_record_release(&rec);
	lk_level_free(level);
}

/* The game's members the commands reach: the .lvl import, the --tidy
 * flag, the concept hook (forall and exists, all and tidy), the note of a
 * verified solution and the text drawing.  Expected answers are SPEC.md's
 * (combine: 13 tidy solutions, one with a single bender and no splitter). */
static void concept(const struct lk_level *level, const char *text, enum lk_quantifier q,
		    const char *const *flags, enum lk_truth want, const char *witness,
		    const char *facts)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *e = lk_expr_parse_concept(text, &err);
	assert_non_null(e);
	struct lk_csp_options o;
	struct lk_concept_result r;
	lk_csp_options_init(&o);
	o.flags = flags;
	lk_concept_result_init(&r);
	assert_int_equal(level->game->csp->concept(level, e, q, &o, &r, &err), 0);
	if (r.answer != want)
		fail_msg("%s: answer %d, expected %d", text, r.answer, want);
	assert_int_equal(r.solvable, LK_SOLVED);
	assert_string_equal(r.over, flags ? "tidy" : "all");
	assert_int_equal(r.has_witness, witness != NULL);
	if (witness) {
		assert_string_equal(r.witness.text.buf, witness);
		assert_string_equal(r.witness_facts.buf, facts);
	}
	lk_concept_result_release(&r);
	lk_expr_free(e);
	lk_strbuf_release(&err);
}

/* Refraction's JSON levels through the game's import hook (laser_json.c):
 * which files it claims, records with the file's line numbers, targets
 * on several sides merged, the designer's placement, and a level that
 * cannot be read kept in its place with the reason. */
static const char json_levels[] =
	"{\"level\": {\"data\": {\"pieces\": ["
	"{\"type\": \"source\", \"pos\": 5, \"output\": \"w\", \"value\": {\"num\": 1, \"den\": 4}},"
	"{\"type\": \"source\", \"pos\": 90, \"output\": \"n\", \"value\": {\"num\": 1, \"den\": 4}},"
	"{\"type\": \"source\", \"pos\": 37, \"output\": \"w\", \"value\": {\"num\": 1, \"den\": 2}},"
	/* one target on three sides: three entries on cell 30 */
	"{\"type\": \"target\", \"pos\": 30, \"inputs\": [\"n\"], \"value\": {\"num\": 1, \"den\": 1}},"
	"{\"type\": \"target\", \"pos\": 30, \"inputs\": [\"s\"], \"value\": {\"num\": 1, \"den\": 1}},"
	"{\"type\": \"target\", \"pos\": 30, \"inputs\": [\"e\"], \"value\": {\"num\": 1, \"den\": 1}},"
	/* distractors: on the designer's cell 0, fed from the wrong side;
	 * on the target's cell; and one without a cell */
	"{\"type\": \"bender\", \"pos\": 0, \"input\": \"n\", \"output\": \"e\", \"mobility\": \"movable\"},"
	/* the designer's bender turns the first source's beam down */
	"{\"type\": \"bender\", \"pos\": 0, \"input\": \"e\", \"output\": \"s\", \"mobility\": \"movable\"},"
	"{\"type\": \"bender\", \"pos\": 30, \"input\": \"s\", \"output\": \"e\", \"mobility\": \"movable\"},"
	"{\"type\": \"splitter\", \"input\": \"s\", \"outputs\": [\"e\", \"w\"], \"mobility\": \"movable\"}"
	"]}}, \"extra\": {\"lasers\": [{\"s\": 5, \"e\": 0}, {\"s\": 0, \"e\": 30}, {\"s\": 90, \"e\": 30},"
	"{\"s\": 37, \"e\": 30}]}}\n"
	"\n"
	"{\"level\": {\"data\": {\"pieces\": [{\"type\": \"source\", \"pos\": 100}]}}}\n"
	"[{\"pieces\": [{\"type\": \"blocker\", \"pos\": 5}]}]\n";

static void test_json(void **state)
{
	(void)state;
	const struct lk_game *game = lk_game_find("laser");
	static const char ps_like[] = "{\"name\": \"x\", \"source\": \"OBJECTS\"}\n";
	assert_true(game->import_probe(json_levels, strlen(json_levels)));
	assert_false(game->import_probe(ps_like, strlen(ps_like)));
	assert_false(game->import_probe(split_record, strlen(split_record)));
	assert_false(game->import_probe("[1, 2]\n", 7));
	struct lk_record *recs = NULL;
	size_t nrecs = 0, line = 0;
	struct lk_strbuf err = LK_STRBUF_INIT, title = LK_STRBUF_INIT;
	assert_int_equal(game->import("dir/pack.jsonl", json_levels, strlen(json_levels), &recs, &nrecs,
				      &err, &line), 0);
	assert_int_equal(nrecs, 3);
	assert_string_equal(lk_record_title(&recs[0], &title), "pack 1");
	/* the target's three sides, one definition */
	assert_string_equal(lk_record_get(&recs[0], "fixed"), "D TGT NES> 1");
	/* a segment ends on cell 0 arriving on its E side: the designer's
	 * bender (line 2) stands there, not the one fed from N; the one on
	 * the target's cell stays in the tray */
	assert_string_equal(lk_record_get(&recs[0], "solution"), "2@0,0");
	assert_int_equal(recs[0].lines[0].lineno, 1);
	assert_int_equal(recs[1].first_lineno, 3);
	assert_int_equal(lk_laser_validate(&recs[0], &err, &line), 0);
	struct lk_laser *lv = lk_laser_new(&recs[0]);
	struct lk_laser_placement pl;
	struct lk_laser_eval ev;
	struct lk_strbuf msg = LK_STRBUF_INIT;
	assert_int_equal(lk_laser_placement_parse(lv, "2@0,0", &pl, NULL), 0);
	lk_laser_evaluate(lv, &pl, &ev, &msg);
	assert_true(ev.tidy);
	assert_string_equal(msg.buf, "target D (0,3): 1/4 + 1/2 + 1/4 = 1 of 1, satisfied\n");
	lk_strbuf_release(&msg);
	lk_laser_free(lv);
	/* a level that cannot be read: kept, validation says why and where */
	lk_strbuf_reset(&err);
	assert_int_equal(lk_laser_validate(&recs[1], &err, &line), -1);
	assert_string_equal(err.buf, "pieces[0]: \"pos\" is a cell from 0 to 99 (10 * row + column)");
	assert_int_equal(recs[1].lines[line].lineno, 3);
	assert_int_not_equal(lk_record_grid(&recs[1], NULL), 0);   /* not a pack header */
	/* an array on a line: its levels (a board of one blocker) */
	assert_int_equal(lk_laser_validate(&recs[2], &err, &line), 0);
	assert_int_equal(recs[2].first_lineno, 4);
	for (size_t i = 0; i < nrecs; i++)
		lk_record_release(&recs[i]);
	free(recs);
	lk_strbuf_release(&err);
	lk_strbuf_release(&title);
}

static void test_game_hooks(void **state)
{
	(void)state;
	const struct lk_game *game = lk_game_find("laser");
	char *text = data_file("combine.lvl");
	assert_non_null(text);
	assert_true(game->import_probe(text, strlen(text)));
	assert_false(game->import_probe(split_record, strlen(split_record)));
	struct lk_record *recs = NULL;
	size_t nrecs = 0, line = 0;
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_int_equal(game->import("dir/combine.lvl", text, strlen(text), &recs, &nrecs, &err, &line),
			 0);
	free(text);
	assert_int_equal(nrecs, 1);
	struct lk_strbuf title = LK_STRBUF_INIT;
	assert_string_equal(lk_record_title(&recs[0], &title), "combine");
	lk_strbuf_release(&title);
	struct lk_level_options lo = { 0 };
	struct lk_level *level = lk_level_load(&recs[0], &lo, &err, &line);
	assert_non_null(level);

	static const char *const tidy[] = { "tidy", NULL };
	struct lk_csp_options o;
	struct lk_csp_result r;
	lk_csp_options_init(&o);
	lk_csp_result_init(&r);
	o.count_limit = 100000;
	game->csp->solve(level, &o, &r);
	assert_int_equal(r.solutions, 17641);
	o.flags = tidy;
	game->csp->solve(level, &o, &r);
	assert_int_equal(r.solutions, 13);
	assert_true(r.exhausted);
	lk_csp_result_release(&r);

	concept(level, "count(bender) >= 2", LK_FORALL, tidy, LK_FALSE, "2@4,0", "count(bender) == 1");
	concept(level, "uses(splitter) || count(bender) == 1", LK_FORALL, tidy, LK_TRUE, NULL, NULL);
	concept(level, "!uses(splitter)", LK_EXISTS, NULL, LK_TRUE, "2@4,0", "uses(splitter) == 0");
	concept(level, "count(combiner) >= 2", LK_EXISTS, tidy, LK_FALSE, NULL, NULL);
	/* a fact the game does not know is an error, not an answer */
	struct lk_expr *e = lk_expr_parse_concept("uses(piston)", &err);
	struct lk_concept_result cr;
	lk_concept_result_init(&cr);
	lk_strbuf_reset(&err);
	assert_int_equal(game->csp->concept(level, e, LK_FORALL, &o, &cr, &err), -1);
	assert_true(err.len > 0);
	lk_concept_result_release(&cr);
	lk_expr_free(e);

	struct lk_strbuf note = LK_STRBUF_INIT, drawing = LK_STRBUF_INIT;
	game->csp->verify_note(level, "2@4,0", &note);
	assert_string_equal(note.buf, "target T (4,5): 1 of 1, satisfied; tidy");
	game->describe(level, "2@4,0", &drawing);
	assert_non_null(strstr(drawing.buf, "A---2.\n....|.\n....|.\n"));
	assert_non_null(strstr(drawing.buf, "beam: 1 from 4,0 heading S into T TGT at 4,5\n"));
	lk_strbuf_release(&note);
	lk_strbuf_release(&drawing);
	lk_level_free(level);
	lk_record_release(&recs[0]);
	free(recs);
	lk_strbuf_release(&err);
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
		cmocka_unit_test(test_brute_force),
		cmocka_unit_test(test_csp),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_game_hooks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
