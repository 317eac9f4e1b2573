/*
 * test_laser_gen.c - the laser generator (src/gen/laser_gen.c): levels
 * that require a concept, checked by an enumerator written here that puts
 * every subset of the tray on every set of empty cells of small boards and
 * judges each placement with lk_laser_evaluate: every tidy solution must
 * satisfy the concept, the intended one among them.  Boards the generator
 * proves hopeless (lk_laser_generate_on) are checked by asking the solver
 * about every level on them: every blocker set, every tray within the
 * palette.  Also: determinism by (seed, index), the proved refusals (a
 * concept the pieces cannot meet), and options parsing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/expr.h"
#include "laser.h"   /* src/games/laser: the game's own API */

struct brute {
	const struct lk_laser *lv;
	const struct lk_expr *concept;
	bool all;                     /* every solution, not only tidy ones */
	int cells[LK_LASER_MAX_CELLS], ncells, spare[LK_LASER_MAX_LINES];
	struct lk_laser_placement pl;
	long tidy, violating;         /* solutions (tidy ones unless all) */
};

static void brute_rec(struct brute *b, int i)
{
	if (i == b->ncells) {
		struct lk_laser_eval ev;
		lk_laser_evaluate(b->lv, &b->pl, &ev, NULL);
		if (b->all ? ev.solved : ev.tidy) {
			b->tidy++;
			b->violating += !lk_laser_concept_holds_at(b->lv, &b->pl, b->concept);
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

/* The tray counts and empty cells, read back from the level's text. */
static void setup(struct brute *b, const struct lk_laser *lv)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_laser_write_lvl(lv, &sb);
	b->lv = lv;
	b->ncells = 0;
	b->pl.n = 0;
	b->tidy = b->violating = 0;
	const char *grid = strstr(sb.buf, "grid\n") + 5;
	int w = lk_laser_width(lv);
	for (int c = 0; c < w * lk_laser_height(lv); c++)
		if (grid[c / w * (w + 1) + c % w] == '.')
			b->cells[b->ncells++] = c;
	const char *t = sb.buf;
	for (int l = 0; l < lk_laser_tray_lines(lv); l++) {
		t = strstr(t, "\ntray ") + 6;
		b->spare[l] = atoi(t);
	}
	lk_strbuf_release(&sb);
}

/* The designer the checks use (0: search; 1: grown, laser_grow.c). */
static int designer_grow;

static void check_levels_over(const char *concept, const char *pieces, int sources, int n, bool all)
{
	struct lk_laser_gen_options o;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct brute *b = calloc(1, sizeof *b);
	struct lk_laser_placement *pl = malloc(sizeof *pl);
	assert_non_null(b);
	assert_non_null(pl);
	lk_laser_gen_options_init(&o);
	o.width = o.height = 4;
	o.sources = sources;
	o.min_targets = 1;
	o.max_targets = 2;
	o.require = concept;
	o.seed = 11;
	o.all = all;
	o.grow = designer_grow;
	b->all = all;
	assert_int_equal(lk_laser_gen_palette(&o, pieces, &err), 0);
	const char *preset = lk_laser_concept_preset(concept);
	struct lk_expr *e = lk_expr_parse(preset ? preset : concept, NULL);
	assert_non_null(e);
	b->concept = e;
	for (int i = 0; i < n; i++) {
		struct lk_laser *lv;
		struct lk_laser_gen_stats st;
		lk_strbuf_reset(&err);
		if (lk_laser_generate(&o, (uint64_t)i, &lv, pl, &st, &err) != LK_LASER_GEN_OK)
			fail_msg("%s, level %d: %s", concept, i, err.buf);
		struct lk_laser_eval ev;
		lk_laser_evaluate(lv, pl, &ev, NULL);
		assert_true(ev.tidy);
		assert_true(lk_laser_concept_holds_at(lv, pl, e));
		setup(b, lv);
		brute_rec(b, 0);
		if (b->violating || !b->tidy) {
			struct lk_strbuf sb = LK_STRBUF_INIT;
			lk_laser_write_lvl(lv, &sb);
			fail_msg("%s, level %d: %ld of %ld %s solutions violate it\n%s", concept, i,
				 b->violating, b->tidy, all ? "" : "tidy", sb.buf);
		}
		/* and the shortcut query agrees, on its own */
		struct lk_laser_result r;
		lk_laser_shortcut(lv, e, all, 0, 0, &r);
		assert_int_equal(r.status, LK_UNSOLVABLE);
		lk_laser_free(lv);
	}
	lk_expr_free(e);
	lk_strbuf_release(&err);
	free(b);
	free(pl);
}

static void check_levels(const char *concept, const char *pieces, int sources, int n)
{
	check_levels_over(concept, pieces, sources, n, false);
}

static void test_requires(void **state)
{
	(void)state;
	check_levels("split-combine", "1 SP2, 1 CMB2, 3 BND", 1, 6);
	check_levels("count(bender) >= 3", "4 BND", 1, 6);
	check_levels("uses(SP2)", "1 SP2, 3 BND", 1, 6);
	check_levels("monolithic-tidy", "1 SP2, 1 CMB2, 3 BND", 2, 4);
	check_levels("!uses(CMB2) || count(bender) >= 2", "1 SP2, 1 CMB2, 3 BND", 1, 4);
	/* over every solution, idle pieces and pieces left in the tray
	 * included: the paper's monolithic (every given piece in one
	 * network), and a concept over powers */
	check_levels_over("monolithic", "1 SP2, 1 CMB2, 3 BND", 2, 4, true);
	check_levels_over("made(splitter 1/2) >= 1 && into(source 1) == 0", "1 SP2, 3 BND", 1, 4, true);
}

/* The designer grown from the sources into one network (laser_grow.c):
 * on 4 x 4 its levels checked against every solution enumerated; at the
 * paper's scale (10 x 10, three sources, at least 12 pieces placed, 10
 * blockers, no distractors) its intended solutions are tidy and hold the
 * pieces asked, and the shortcut query, run again on its own, proves
 * monolithic over every solution. */
static void test_grown(void **state)
{
	(void)state;
	designer_grow = 1;
	check_levels_over("monolithic", "1 SP2, 1 CMB2, 3 BND", 2, 3, true);
	designer_grow = 0;
	struct lk_laser_gen_options o;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_laser_placement *pl = malloc(sizeof *pl);
	assert_non_null(pl);
	lk_laser_gen_options_init(&o);
	assert_int_equal(lk_laser_gen_preset(&o, "monolithic"), 0);
	assert_int_equal(o.grow, -1);   /* grown at 10 pieces and more */
	assert_int_equal(lk_laser_gen_palette(&o, "6 SP2, 2 SP3, 6 CMB2, 2 CMB3, 12 BND", &err), 0);
	o.min_targets = 2;
	o.min_pieces = 12;
	o.blockers = 10;
	o.seed = 21;
	o.bounds.max_seconds = 120;   /* a safety net: the run is bounded by nodes */
	struct lk_expr *e = lk_expr_parse(lk_laser_concept_preset("monolithic"), NULL);
	assert_non_null(e);
	for (int i = 0; i < 2; i++) {
		struct lk_laser *lv;
		struct lk_laser_gen_stats st;
		lk_strbuf_reset(&err);
		if (lk_laser_generate(&o, (uint64_t)i, &lv, pl, &st, &err) != LK_LASER_GEN_OK)
			fail_msg("monolithic at 10 x 10, level %d: %s", i, err.buf);
		struct lk_laser_eval ev;
		lk_laser_evaluate(lv, pl, &ev, NULL);
		assert_true(ev.tidy);
		assert_true(ev.facts.placed_total >= 12);
		assert_true(ev.targets >= 2 && ev.targets <= 3);
		assert_true(lk_laser_concept_holds_at(lv, pl, e));
		struct lk_laser_result r;
		lk_laser_shortcut(lv, e, true, 0, 0, &r);
		assert_int_equal(r.status, LK_UNSOLVABLE);
		lk_laser_free(lv);
	}
	lk_expr_free(e);
	lk_strbuf_release(&err);
	free(pl);
}

/* The presets: monolithic as the paper states it covers every solution
 * and every given piece; the tidy restriction is in the name. */
static void test_presets(void **state)
{
	(void)state;
	struct lk_laser_gen_options o;
	lk_laser_gen_options_init(&o);
	assert_int_equal(lk_laser_gen_preset(&o, "monolithic"), 0);
	assert_true(o.all);
	assert_int_equal(o.distractors, 0);
	assert_string_equal(lk_laser_concept_preset(o.require),
			    "network == 1 && placed == tray && idle == 0");
	assert_int_equal(lk_laser_gen_preset(&o, "monolithic-tidy"), 0);
	assert_false(o.all);
	assert_int_equal(o.distractors, 2);
	assert_string_equal(lk_laser_concept_preset(o.require), "network == 1");
	assert_int_equal(lk_laser_gen_preset(&o, "monolithic-open"), 0);
	assert_int_equal(o.max_blockers, 0);
	assert_true(o.all);
}

/* The form of the blockers (paper 5.1): with a symmetry, the blockers of
 * every level, the first ones and those the repairs add, are invariant
 * under it; the levels still require the concept. */
static void test_symmetry(void **state)
{
	(void)state;
	int orbit[4];
	/* 4 x 3: (0,0) mirrors to (3,0), (0,2), (3,2); the middle row is its
	 * own top-bottom mirror */
	assert_int_equal(lk_laser_orbit(LK_LASER_SYM_BOTH, 4, 3, 0, orbit), 4);
	assert_int_equal(orbit[1], 3);
	assert_int_equal(orbit[2], 8);
	assert_int_equal(orbit[3], 11);
	assert_int_equal(lk_laser_orbit(LK_LASER_SYM_TB, 4, 3, 5, orbit), 1);
	assert_int_equal(lk_laser_orbit(LK_LASER_SYM_ROT180, 3, 3, 4, orbit), 1);
	assert_int_equal(lk_laser_orbit(LK_LASER_SYM_ROT90, 3, 3, 1, orbit), 4);
	assert_int_equal(orbit[1], 5);
	assert_int_equal(orbit[2], 7);
	assert_int_equal(orbit[3], 3);
	struct lk_laser_gen_options o;
	struct lk_strbuf err = LK_STRBUF_INIT;
	lk_laser_gen_options_init(&o);
	assert_int_equal(lk_laser_gen_symmetry(&o, "diagonal", &err), -1);
	assert_string_equal(err.buf, "symmetry diagonal: expected none, lr, tb, both, rot180 or rot90");
	static const char *const syms[] = { "lr", "tb", "both", "rot180", "rot90" };
	struct lk_laser_placement *pl = malloc(sizeof *pl);
	int repaired = 0;
	assert_non_null(pl);
	for (int k = 0; k < 5; k++) {
		lk_laser_gen_options_init(&o);
		assert_int_equal(lk_laser_gen_symmetry(&o, syms[k], &err), 0);
		o.width = o.height = 7;
		o.require = "count(bender) >= 4";
		o.blockers = 2;
		o.distractors = 4;
		o.seed = 21;
		assert_int_equal(lk_laser_gen_palette(&o, "6 BND, 1 SP2", &err), 0);
		struct lk_expr *e = lk_expr_parse(o.require, NULL);
		int added = 0;
		for (int i = 0; i < 4; i++) {
			struct lk_laser *lv;
			struct lk_laser_gen_stats st;
			lk_strbuf_reset(&err);
			if (lk_laser_generate(&o, (uint64_t)i, &lv, pl, &st, &err) != LK_LASER_GEN_OK)
				fail_msg("symmetry %s, level %d: %s", syms[k], i, err.buf);
			added += (int)st.cut_blockers;
			struct lk_strbuf sb = LK_STRBUF_INIT;
			lk_laser_write_lvl(lv, &sb);
			const char *grid = strstr(sb.buf, "grid\n") + 5;
			for (int c = 0; c < 49; c++) {
				if (grid[c / 7 * 8 + c % 7] != '#')
					continue;
				int n = lk_laser_orbit(o.symmetry, 7, 7, c, orbit);
				for (int j = 0; j < n; j++)
					if (grid[orbit[j] / 7 * 8 + orbit[j] % 7] != '#')
						fail_msg("symmetry %s, level %d: a blocker on cell %d, none on %d\n%s",
							 syms[k], i, c, orbit[j], sb.buf);
			}
			struct lk_laser_result r;
			lk_laser_shortcut(lv, e, false, 0, 0, &r);
			assert_int_equal(r.status, LK_UNSOLVABLE);
			lk_strbuf_release(&sb);
			lk_laser_free(lv);
		}
		print_message("symmetry %s: %d blockers added by repairs in 4 levels\n", syms[k], added);
		repaired += added;
		lk_expr_free(e);
	}
	assert_true(repaired >= 6);   /* the repairs' orbits, not only the first blockers */
	lk_laser_gen_options_init(&o);
	o.width = 6;
	o.height = 5;
	o.symmetry = LK_LASER_SYM_ROT90;
	struct lk_laser *lv = NULL;
	struct lk_laser_gen_stats st;
	lk_strbuf_reset(&err);
	assert_int_equal(lk_laser_generate(&o, 0, &lv, pl, &st, &err), LK_LASER_GEN_GAVE_UP);
	assert_string_equal(err.buf, "symmetry rot90 needs a square board");
	free(pl);
	lk_strbuf_release(&err);
}

/* A generated level depends on (seed, index) only. */
static void test_deterministic(void **state)
{
	(void)state;
	struct lk_laser_gen_options o;
	struct lk_strbuf a = LK_STRBUF_INIT, b = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
	struct lk_laser_placement *pa = malloc(sizeof *pa), *pb = malloc(sizeof *pb);
	struct lk_laser_gen_stats st;
	struct lk_laser *la, *lb;
	lk_laser_gen_options_init(&o);
	o.width = o.height = 6;
	o.require = "split-combine";
	o.distractors = 2;
	o.seed = 5;
	assert_int_equal(lk_laser_generate(&o, 3, &la, pa, &st, &err), LK_LASER_GEN_OK);
	assert_int_equal(lk_laser_generate(&o, 1, &lb, pb, &st, &err), LK_LASER_GEN_OK);
	lk_laser_free(lb);
	assert_int_equal(lk_laser_generate(&o, 3, &lb, pb, &st, &err), LK_LASER_GEN_OK);
	lk_laser_write_lvl(la, &a);
	lk_laser_write_lvl(lb, &b);
	assert_string_equal(a.buf, b.buf);
	lk_strbuf_reset(&a);
	lk_strbuf_reset(&b);
	lk_laser_placement_format(pa, &a);
	lk_laser_placement_format(pb, &b);
	assert_string_equal(a.buf, b.buf);
	lk_laser_free(la);
	lk_laser_free(lb);
	free(pa);
	free(pb);
	lk_strbuf_release(&a);
	lk_strbuf_release(&b);
	lk_strbuf_release(&err);
}

static void infeasible(const char *concept, const char *pieces, int sources)
{
	struct lk_laser_gen_options o;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_laser_placement *pl = malloc(sizeof *pl);
	struct lk_laser_gen_stats st;
	struct lk_laser *lv;
	lk_laser_gen_options_init(&o);
	o.require = concept;
	o.sources = sources;
	o.max_targets = sources;
	assert_int_equal(lk_laser_gen_palette(&o, pieces, &err), 0);
	assert_int_equal(lk_laser_generate(&o, 0, &lv, pl, &st, &err), LK_LASER_GEN_INFEASIBLE);
	assert_null(lv);
	assert_string_equal(err.buf, "proved: no solution made of these pieces satisfies the concept");
	/* proved before any board was tried */
	assert_int_equal(st.boards, 0);
	lk_strbuf_release(&err);
	free(pl);
}

static void test_infeasible(void **state)
{
	(void)state;
	infeasible("six-benders", "5 BND, 2 SP2", 1);
	infeasible("split-combine", "6 BND, 2 SP2", 1);
	/* three sources merge into one network only at two merges or more */
	infeasible("monolithic", "1 CMB2, 2 SP2, 4 BND", 3);
	infeasible("monolithic-tidy", "1 CMB2, 2 SP2, 4 BND", 3);
	infeasible("count(splitter) >= 2 && count(combiner) >= 2", "1 SP2, 1 SP3, 1 CMB3", 1);
}

static void test_options(void **state)
{
	(void)state;
	struct lk_laser_gen_options o;
	struct lk_strbuf err = LK_STRBUF_INIT;
	lk_laser_gen_options_init(&o);
	assert_int_equal(lk_laser_gen_palette(&o, "2 SP2, 1 cmb3,4 BND", &err), 0);
	assert_int_equal(o.pieces[LK_LASER_SP2], 2);
	assert_int_equal(o.pieces[LK_LASER_CMB3], 1);
	assert_int_equal(o.pieces[LK_LASER_BND], 4);
	assert_int_equal(o.pieces[LK_LASER_CMB2], 0);
	assert_int_equal(lk_laser_gen_palette(&o, "2 SRC", &err), -1);
	assert_string_equal(err.buf, "pieces: 'SRC' is not BND, SP2, SP3, CMB2 or CMB3");
	lk_strbuf_reset(&err);
	assert_int_equal(lk_laser_gen_powers(&o, "1, 1/2,3/4", &err), 0);
	assert_int_equal(o.npowers, 3);
	assert_true(o.power_num[2] == 3 && o.power_den[2] == 4);
	assert_int_equal(lk_laser_gen_powers(&o, "0", &err), -1);
	lk_strbuf_release(&err);
}

/* ------------------------------------------------------ board proofs */

/* Does any level on this board (blockers on any of its empty cells, a
 * tray of at most one SP2 and one BND in any orientations) require the
 * concept?  Every such level, checked by the solver. */
static const char *const bnd_ports[] = { "N>E", "N>W", "S>E", "S>W", "E>N", "E>S", "W>N", "W>S" };
static const char *const sp2_ports[] = { "N>ES", "N>EW", "N>SW", "E>NS", "E>NW", "E>SW",
					 "S>NE", "S>NW", "S>EW", "W>NE", "W>NS", "W>ES" };

static bool some_level_requires(const char *grid, const char *fixed, const struct lk_expr *e)
{
	int w = (int)strcspn(grid, "\n"), ncells = (int)strlen(grid) - (int)strlen(grid) / (w + 1);
	int empty[16], nempty = 0;
	for (int c = 0; c < ncells; c++)
		if (grid[c / w * (w + 1) + c % w] == '.')
			empty[nempty++] = c;
	for (int mask = 0; mask < 1 << nempty; mask++) {
		char g[64];
		strcpy(g, grid);
		for (int i = 0; i < nempty; i++)
			if (mask >> i & 1)
				g[empty[i] / w * (w + 1) + empty[i] % w] = '#';
		for (int s = -1; s < 12; s++) {
			for (int b = -1; b < 8; b++) {
				char text[512];
				int n = snprintf(text, sizeof text, "size %d %d\ngrid\n%s%s", w, ncells / w, g, fixed);
				if (s >= 0)
					n += snprintf(text + n, sizeof text - (size_t)n, "tray 1 SP2 %s\n", sp2_ports[s]);
				if (b >= 0)
					snprintf(text + n, sizeof text - (size_t)n, "tray 1 BND %s\n", bnd_ports[b]);
				struct lk_strbuf err = LK_STRBUF_INIT;
				size_t line;
				struct lk_laser *lv = lk_laser_read_lvl(text, &err, &line);
				if (!lv)
					fail_msg("%s: %s", text, err.buf);
				struct lk_laser_search_options o;
				struct lk_laser_result r;
				lk_laser_search_options_init(&o);
				o.tidy = true;
				o.limit = 1;
				lk_laser_search(lv, &o, NULL, NULL, &r);
				bool requires = false;
				if (r.status == LK_SOLVED) {
					lk_laser_shortcut(lv, e, false, 0, 0, &r);
					requires = r.status == LK_UNSOLVABLE;
				}
				lk_laser_free(lv);
				lk_strbuf_release(&err);
				if (requires) {
					print_message("requires: %s", text);
					return true;
				}
			}
		}
	}
	return false;
}

/* lk_laser_generate_on on tiny boards: a level it makes requires the
 * concept (enumeration), and when it says none can, none of the levels on
 * the board (every blocker set, every tray within the palette) does. */
static void test_board_proofs(void **state)
{
	(void)state;
	static const char *const concepts[] = { "uses(SP2)", "count(bender) >= 1", "!uses(SP2)",
						"uses(SP2) && uses(bender)" };
	struct lk_rng rng;
	struct brute *br = calloc(1, sizeof *br);
	struct lk_laser_placement *pl = malloc(sizeof *pl);
	int made = 0, proved = 0;
	assert_non_null(br);
	assert_non_null(pl);
	lk_rng_seed(&rng, 3);
	for (int n = 0; n < 40; n++) {
		/* a 3x3 board: a source, one target of need 1 or two of 1/2 */
		char grid[16] = "...\n...\n...\n";
		char fixed[256];
		int two = (int)lk_rng_below(&rng, 2), c[3];
		for (int i = 0; i < 2 + two; i++) {
			do
				c[i] = (int)lk_rng_below(&rng, 9);
			while (grid[c[i] / 3 * 4 + c[i] % 3] != '.');
			grid[c[i] / 3 * 4 + c[i] % 3] = "ATU"[i];
		}
		snprintf(fixed, sizeof fixed, "fixed A SRC >%c 1\nfixed T TGT %c> %s\n%s%c%s",
			 "NESW"[lk_rng_below(&rng, 4)], "NESW"[lk_rng_below(&rng, 4)], two ? "1/2" : "1",
			 two ? "fixed U TGT " : "", two ? "NESW"[lk_rng_below(&rng, 4)] : ' ',
			 two ? "> 1/2\n" : "");
		char text[512];
		snprintf(text, sizeof text, "size 3 3\ngrid\n%s%s", grid, fixed);
		struct lk_strbuf err = LK_STRBUF_INIT;
		size_t line;
		struct lk_laser *board = lk_laser_read_lvl(text, &err, &line);
		if (!board)
			fail_msg("%s: %s", text, err.buf);
		const char *concept = concepts[n % 4];
		struct lk_laser_gen_options o;
		struct lk_laser_gen_stats st;
		struct lk_laser *lv;
		lk_laser_gen_options_init(&o);
		o.require = concept;
		o.min_targets = 0;
		assert_int_equal(lk_laser_gen_palette(&o, "1 SP2, 1 BND", &err), 0);
		struct lk_expr *e = lk_expr_parse(concept, NULL);
		enum lk_laser_gen_status s = lk_laser_generate_on(&o, board, 0, &lv, pl, &st, &err);
		if (s == LK_LASER_GEN_OK) {
			made++;
			br->concept = e;
			setup(br, lv);
			brute_rec(br, 0);
			if (br->violating || !br->tidy)
				fail_msg("%s on\n%s: a level with %ld of %ld tidy solutions violating it", concept,
					 text, br->violating, br->tidy);
			lk_laser_free(lv);
		} else if (s == LK_LASER_GEN_INFEASIBLE) {
			proved++;
			if (some_level_requires(grid, fixed, e))
				fail_msg("%s on\n%s: proved impossible, but a level requires it", concept, text);
		}
		lk_expr_free(e);
		lk_laser_free(board);
		lk_strbuf_release(&err);
	}
	print_message("%d levels made, %d boards proved impossible\n", made, proved);
	assert_true(made >= 2);
	assert_true(proved >= 10);
	free(br);
	free(pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requires),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_grown),
		cmocka_unit_test(test_symmetry),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_infeasible),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_board_proofs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
