/*
 * test_view.c - tests of the view layer (src/view) and the games' drawing
 * and playing back (draw, replay_keys):
 *
 *  - the canvas: runs of squares merged, symbols defined once, paints,
 *    text made safe, coordinates in units;
 *  - replay_keys by hand on tiny Sokoban levels (each key drawn with the
 *    game's own write_state), run lengths and groups, every error;
 *  - replay_keys against replay on every solution of the fixtures and a
 *    Boxoban sample, and on mutations of each (cut, a letter dropped, a
 *    case swapped, a move added): they fail together, and when they pass
 *    there is one key per move and the last is a goal exactly when replay
 *    says solved; consecutive keys are edges of the raw (plain) state space;
 *  - drawings worked out by hand: Sokoban's symbols and walls, a one-way
 *    border's arrow and an anteater's turn, Skiddy's bar between touching
 *    skiddies, Combination's rays;
 *  - films: every frame rebuilt from the first frame and the changes equals
 *    the game's own drawing of that frame; statuses of good, bad and
 *    missing solutions;
 *  - SVG, coloured text (escapes taken out, it is the record), the page's
 *    escaping, and which view a command writes.
 *
 * This file holds the canvas and the drawings, and the main that runs
 * every test; the shared helpers are in view_fixture.c, replay_keys's
 * tests in view_keys.c, the films and writers in view_writers.c.
 */
#include "view_fixture.h"

#include <string.h>

#include "levelkit/canvas.h"
#include "levelkit/csp.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/search.h"
#include "levelkit/view.h"
#include "test_support.h"

/* -------------------------------------------------------------- canvas */

static const struct lk_paint red = { .fill = 0xff0000 };
static const struct lk_paint blue = { .fill = 0x0000ff };

static void test_canvas_merges_runs(void **state)
{
	(void)state;
	struct lk_canvas c;
	lk_canvas_init(&c);
	lk_canvas_size(&c, 5, 2);
	for (int x = 0; x < 4; x++)
		lk_canvas_rect(&c, x, 0, 1, 1, &red);
	lk_canvas_rect(&c, 4, 0, 1, 1, &blue);   /* another paint: a new rectangle */
	lk_canvas_rect(&c, 0, 1, 1, 1, &blue);   /* another row: new */
	lk_canvas_rect(&c, 2, 1, 1, 1, &blue);   /* not adjacent: new */
	assert_int_equal(c.nprims, 4);
	assert_int_equal(c.prims[0].v[0], 0);
	assert_int_equal(c.prims[0].v[2], 4 * LK_CANVAS_UNIT);
	assert_int_equal(c.prims[1].v[0], 4 * LK_CANVAS_UNIT);
	assert_int_equal(c.npaints, 2);
	/* a layer change breaks a run too */
	lk_canvas_layer(&c, LK_LAYER_MARKS);
	lk_canvas_rect(&c, 3, 1, 1, 1, &blue);
	assert_int_equal(c.nprims, 5);
	/* units: a third of a cell is 8 */
	lk_canvas_circle(&c, 1.0 / 3, 0.5, 0.25, &red);
	assert_int_equal(c.prims[5].v[0], 8);
	assert_int_equal(c.prims[5].v[1], 12);
	assert_int_equal(c.prims[5].v[2], 6);
	lk_canvas_release(&c);
}

static void test_canvas_symbols(void **state)
{
	(void)state;
	struct lk_canvas c;
	lk_canvas_init(&c);
	lk_canvas_use(&c, "nothing", 0, 0, 0);   /* undefined: ignored */
	assert_int_equal(c.nprims, 0);
	assert_true(lk_canvas_begin_symbol(&c, "dot", "a dot"));
	lk_canvas_circle(&c, 0.5, 0.5, 0.2, &red);
	lk_canvas_rect(&c, 0, 0, 1, 1, &blue);
	lk_canvas_rect(&c, 1, 0, 1, 1, &blue);   /* no merging inside symbols */
	lk_canvas_end_symbol(&c);
	assert_false(lk_canvas_begin_symbol(&c, "dot", "a dot"));
	assert_int_equal(c.nsym_prims, 3);
	assert_int_equal(c.nprims, 0);
	assert_false(c.symbols[0].used);
	lk_canvas_use(&c, "dot", 2, 3, 5);
	assert_true(c.symbols[0].used);
	assert_int_equal(c.prims[0].kind, LK_PRIM_USE);
	assert_int_equal(c.prims[0].v[0], 2 * LK_CANVAS_UNIT);
	assert_int_equal(c.prims[0].v[2], 1);   /* 5 quarter turns are 1 */
	lk_canvas_use(&c, "dot", 0, 0, -1);
	assert_int_equal(c.prims[1].v[2], 3);
	assert_true(lk_canvas_begin_symbol(&c, "key", "explains"));
	lk_canvas_end_symbol(&c);
	lk_canvas_legend_only(&c, "key");
	assert_true(c.symbols[1].used);
	lk_canvas_text(&c, 0, 0, 1, &red, "a<b;c,\"d\"\x01");
	assert_string_equal(lk_canvas_text_of(&c, &c.prims[2]), "a?b?c??d??");
	/* clear keeps symbols, reset forgets them */
	lk_canvas_clear(&c);
	assert_int_equal(c.nprims, 0);
	assert_false(lk_canvas_begin_symbol(&c, "dot", NULL));
	lk_canvas_reset(&c);
	assert_true(lk_canvas_begin_symbol(&c, "dot", NULL));
	lk_canvas_end_symbol(&c);
	lk_canvas_release(&c);
}

static void test_canvas_board_part(void **state)
{
	(void)state;
	struct lk_canvas c;
	lk_canvas_init(&c);
	assert_true(lk_canvas_begin_board(&c));
	lk_canvas_rect(&c, 0, 0, 1, 1, &red);
	lk_canvas_end_board(&c);
	lk_canvas_rect(&c, 1, 1, 1, 1, &red);
	assert_true(c.prims[0].board);
	assert_false(c.prims[1].board);
	c.skip_board = true;
	assert_false(lk_canvas_begin_board(&c));
	lk_canvas_release(&c);
}

/* ------------------------------------------------------------ drawings */

static long count_uses(const struct lk_canvas *c, const char *name, long x, long y)
{
	long n = 0;
	for (size_t i = 0; i < c->nprims; i++) {
		const struct lk_prim *p = &c->prims[i];
		if (p->kind == LK_PRIM_USE && strcmp(c->symbols[p->ref].name, name) == 0 &&
		    (x < 0 || (p->v[0] == x && p->v[1] == y)))
			n++;
	}
	return n;
}

#define CELL(v) ((long)((v) * LK_CANVAS_UNIT))

static void test_draw_sokoban(void **state)
{
	(void)state;
	struct lk_record rec;
	read_record("#####\n#+$*#\n# $.#\n#####\n", &rec);
	struct lk_canvas c;
	struct lk_strbuf err = LK_STRBUF_INIT;
	lk_canvas_init(&c);
	assert_int_equal(lk_view_draw_record(&rec, &c, &err), 0);
	assert_int_equal(c.width, 5);
	assert_int_equal(c.height, 4);
	assert_int_equal(count_uses(&c, "sokoban.player", CELL(1), CELL(1)), 1);
	assert_int_equal(count_uses(&c, "sokoban.goal", CELL(1), CELL(1)), 1);   /* under the player */
	assert_int_equal(count_uses(&c, "sokoban.box", -1, -1), 2);
	assert_int_equal(count_uses(&c, "sokoban.box", CELL(2), CELL(1)), 1);
	assert_int_equal(count_uses(&c, "sokoban.box-goal", CELL(3), CELL(1)), 1);
	assert_int_equal(count_uses(&c, "sokoban.goal", -1, -1), 3);
	/* walls: the top and bottom rows are one rectangle each, the side
	 * walls one square each; floor: runs of a row */
	long wall_rects = 0;
	for (size_t i = 0; i < c.nprims; i++)
		if (c.prims[i].kind == LK_PRIM_RECT && c.paints[c.prims[i].ref].fill == 0x4d4d5c)
			wall_rects++;
	assert_int_equal(wall_rects, 6);
	assert_int_equal(c.prims[0].v[2], CELL(5));
	lk_canvas_release(&c);
	lk_strbuf_release(&err);
	lk_record_release(&rec);
}

static void test_draw_slide(void **state)
{
	(void)state;
	struct lk_record rec;
	read_record("game: fruit\noneway: 2,1,r\n#######\n#a..Ea#\n#######\n", &rec);
	struct lk_canvas c;
	struct lk_strbuf err = LK_STRBUF_INIT;
	lk_canvas_init(&c);
	assert_int_equal(lk_view_draw_record(&rec, &c, &err), 0);
	/* the border between (2,1) and (3,1), crossed rightwards: the arrow
	 * is centred on it and turned a quarter clockwise */
	assert_int_equal(count_uses(&c, "slide.oneway", -1, -1), 1);
	for (size_t i = 0; i < c.nprims; i++) {
		const struct lk_prim *p = &c.prims[i];
		if (p->kind == LK_PRIM_USE && strcmp(c.symbols[p->ref].name, "slide.oneway") == 0) {
			assert_int_equal(p->v[0], CELL(2.5));
			assert_int_equal(p->v[1], CELL(1));
			assert_int_equal(p->v[2], 1);
		}
		if (p->kind == LK_PRIM_USE && strcmp(c.symbols[p->ref].name, "slide.anteater") == 0)
			assert_int_equal(p->v[2], 1);   /* E: facing right */
	}
	assert_int_equal(count_uses(&c, "slide.fruit.a", -1, -1), 2);
	lk_canvas_release(&c);
	lk_record_release(&rec);

	/* two touching red skiddies are one body: one bar between them */
	read_record("game: skiddy\n######\n#rr..R\n#....#\n#g...#\n##G###\n", &rec);
	lk_canvas_init(&c);
	assert_int_equal(lk_view_draw_record(&rec, &c, &err), 0);
	long bars = 0;
	for (size_t i = 0; i < c.nprims; i++)
		if (c.prims[i].kind == LK_PRIM_RECT && c.prims[i].layer == LK_LAYER_PIECES)
			bars++;
	assert_int_equal(bars, 1);
	assert_int_equal(count_uses(&c, "slide.skiddy.r", -1, -1), 2);
	assert_int_equal(count_uses(&c, "slide.exit.R", CELL(5), CELL(1)), 1);
	assert_int_equal(count_uses(&c, "slide.exit.G", CELL(2), CELL(4)), 1);
	lk_canvas_release(&c);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
}

static void test_draw_combination_rays(void **state)
{
	(void)state;
	struct lk_record rec;
	read_record("game: combination\npieces: 1 red rook, 2 blue bishop\n#.#.\no..o\n", &rec);
	struct lk_level *level = load(&rec, NULL, false);
	struct lk_canvas c;
	lk_canvas_init(&c);
	level->game->draw(level, NULL, "#2#1/o2.o", &c);
	/* Worked out: the rook at (3,0) sees down over the hole at (3,1) to
	 * the edge; left is a wall, right and up the edge.  The bishop at
	 * (1,0) sees down-right over (2,1) and down-left over the hole at
	 * (0,1) to the edge; the bishop at (1,1) sees walls up and the edge
	 * down.  Three rays. */
	long lines = 0, rook_down = 0;
	for (size_t i = 0; i < c.nprims; i++) {
		const struct lk_prim *p = &c.prims[i];
		if (p->kind != LK_PRIM_LINE)
			continue;
		lines++;
		if (p->v[0] == CELL(3.5) && p->v[1] == CELL(0.84) && p->v[2] == CELL(3.5) &&
		    p->v[3] == CELL(2.0))
			rook_down++;
	}
	assert_int_equal(lines, 3);
	assert_int_equal(rook_down, 1);
	assert_int_equal(count_uses(&c, "comb.1.bishop", -1, -1), 2);
	assert_int_equal(count_uses(&c, "comb.0.rook", CELL(3), 0), 1);
	assert_int_equal(count_uses(&c, "comb.hole", -1, -1), 2);
	/* the empty level: no pieces, no rays */
	lk_canvas_reset(&c);
	level->game->draw(level, NULL, NULL, &c);
	for (size_t i = 0; i < c.nprims; i++)
		assert_int_not_equal(c.prims[i].kind, LK_PRIM_LINE);
	lk_canvas_release(&c);
	lk_level_free(level);
	lk_record_release(&rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_canvas_merges_runs),
		cmocka_unit_test(test_canvas_symbols),
		cmocka_unit_test(test_canvas_board_part),
		cmocka_unit_test(test_sokoban_keys_by_hand),
		cmocka_unit_test(test_slide_keys_by_hand),
		cmocka_unit_test(test_keys_agree_with_replay),
		cmocka_unit_test(test_draw_sokoban),
		cmocka_unit_test(test_draw_slide),
		cmocka_unit_test(test_draw_combination_rays),
		cmocka_unit_test(test_films_rebuild_every_frame),
		cmocka_unit_test(test_film_statuses),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_middle_cut),
		cmocka_unit_test(test_ansi),
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_choose),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
