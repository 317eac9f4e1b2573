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
 */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/canvas.h"
#include "levelkit/csp.h"
#include "levelkit/fields.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "levelkit/view.h"
#include "test_support.h"
#include "view_internal.h"

/* ------------------------------------------------------------- helpers */

static void read_record(const char *text, struct lk_record *rec)
{
	FILE *fp = tmpfile();
	struct lk_reader r;
	assert_non_null(fp);
	fputs(text, fp);
	rewind(fp);
	lk_reader_init_fp(&r, fp, "test");
	lk_record_init(rec);
	assert_int_equal(lk_reader_next(&r, rec, NULL, NULL), 1);
	lk_reader_close(&r);
	fclose(fp);
}

/* Every level record of a file (records without a grid skipped). */
static size_t read_file(const char *path, struct lk_record **out)
{
	struct lk_reader r;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t n = 0, alloc = 0;
	*out = NULL;
	if (lk_reader_open(&r, path, &err) < 0)
		fail_msg("%s", err.buf);
	for (;;) {
		LK_ALLOC_GROW(*out, n + 1, alloc);
		lk_record_init(&(*out)[n]);
		int got = lk_reader_next(&r, &(*out)[n], NULL, NULL);
		if (got <= 0) {
			lk_record_release(&(*out)[n]);
			if (got == 0)
				break;
			continue;
		}
		if (lk_record_grid(&(*out)[n], NULL))
			n++;
		else
			lk_record_release(&(*out)[n]);
	}
	lk_reader_close(&r);
	lk_strbuf_release(&err);
	return n;
}

static void free_records(struct lk_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		lk_record_release(&recs[i]);
	free(recs);
}

static struct lk_level *load(const struct lk_record *rec, const char *metric, bool plain)
{
	struct lk_level_options opt = { .metric = metric, .plain = plain };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *level = lk_level_load(rec, &opt, &err, &line);
	if (!level)
		fail_msg("cannot load: %s", err.buf);
	lk_strbuf_release(&err);
	return level;
}

static char *state_text(const struct lk_level *level, const unsigned char *key)
{
	struct lk_strbuf out = LK_STRBUF_INIT;
	level->game->write_state(level, key, &out);
	return lk_strbuf_detach(&out, NULL);
}

/* Solve a record (greedy, bounded) and set its solution field. */
static void solve_record(struct lk_record *rec)
{
	struct lk_level *level = load(rec, NULL, false);
	if (level->game->csp) {
		struct lk_csp_options co;
		struct lk_csp_result cr;
		lk_csp_options_init(&co);
		co.bounds.max_states = 100000;
		lk_csp_result_init(&cr);
		level->game->csp->solve(level, &co, &cr);
		lk_fields_csp_solve(rec, &cr);
		lk_csp_result_release(&cr);
	} else {
		struct lk_solver s;
		struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
		struct lk_search_result r;
		so.algo = LK_ALGO_GREEDY;
		so.bounds.max_states = 200000;
		lk_solver_init(&s);
		lk_search_result_init(&r);
		lk_solver_run(&s, level, &so, &r);
		lk_fields_solve(rec, level, &r);
		lk_search_result_release(&r);
		lk_solver_release(&s);
	}
	lk_level_free(level);
}

static const char *levels_dir(void)
{
	return TEST_LEVELS_DIR;
}

static char *path_of(const char *dir, const char *name)
{
	struct lk_strbuf p = LK_STRBUF_INIT;
	lk_strbuf_addf(&p, "%s/%s", dir, name);
	return lk_strbuf_detach(&p, NULL);
}

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

/* ------------------------------------------------ replay_keys by hand */

static void keys_of(const struct lk_level *level, const char *solution, unsigned char **keys,
		    size_t *n, int want_rc, const char *want_err)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	int rc = level->game->replay_keys(level, solution, keys, n, &err);
	assert_int_equal(rc, want_rc);
	if (want_err)
		assert_non_null(strstr(err.buf, want_err));
	lk_strbuf_release(&err);
}

static void test_sokoban_keys_by_hand(void **state)
{
	(void)state;
	struct lk_record rec;
	read_record("#######\n#@$  .#\n#######\n", &rec);
	struct lk_level *level = load(&rec, "moves", false);
	unsigned char *keys;
	size_t n;
	keys_of(level, "RRR", &keys, &n, 0, NULL);
	assert_int_equal(n, 4);
	const char *want[] = { "#######\n#@$  .#\n#######\n", "#######\n# @$ .#\n#######\n",
			       "#######\n#  @$.#\n#######\n", "#######\n#   @*#\n#######\n" };
	for (size_t i = 0; i < n; i++) {
		char *t = state_text(level, keys + i * level->key_size);
		assert_string_equal(t, want[i]);
		free(t);
	}
	assert_true(level->game->is_goal(level, keys + 3 * level->key_size));
	/* run lengths and groups are the same moves */
	const char *same[] = { "3R", "R2R", "2(R)R", " R R\nR " };
	for (size_t s = 0; s < sizeof same / sizeof same[0]; s++) {
		unsigned char *k2;
		size_t n2;
		keys_of(level, same[s], &k2, &n2, 0, NULL);
		assert_int_equal(n2, n);
		assert_memory_equal(k2, keys, n * level->key_size);
		free(k2);
	}
	free(keys);
	/* every error replay reports */
	keys_of(level, "L", &keys, &n, -1, "walks into a wall");
	assert_null(keys);
	keys_of(level, "r", &keys, &n, -1, "written in lower case");
	keys_of(level, "Ru", &keys, &n, -1, "walks into a wall");
	keys_of(level, "RRRl", &keys, &n, -1, "solved after move 3");
	keys_of(level, "x", &keys, &n, -1, "is not a move");
	keys_of(level, "RR2", &keys, &n, -1, "run length");
	/* legal but short: the last key is no goal */
	keys_of(level, "RR", &keys, &n, 0, NULL);
	assert_int_equal(n, 3);
	assert_false(level->game->is_goal(level, keys + 2 * level->key_size));
	free(keys);
	/* a walk written as a push */
	lk_level_free(level);
	lk_record_release(&rec);
	read_record("######\n#@ $.#\n######\n", &rec);
	level = load(&rec, NULL, false);   /* pushes metric: keys still one per move */
	keys_of(level, "R", &keys, &n, -1, "written as a push");
	keys_of(level, "rR", &keys, &n, 0, NULL);
	assert_int_equal(n, 3);
	char *t = state_text(level, keys + level->key_size);
	assert_string_equal(t, "######\n# @$.#\n######\n");
	free(t);
	free(keys);
	lk_level_free(level);
	lk_record_release(&rec);
}

static void test_slide_keys_by_hand(void **state)
{
	(void)state;
	struct lk_record rec;
	/* l brings the left fruit... nothing: it is at the wall; r brings it
	 * to its partner */
	read_record("game: fruit\n#######\n#a...a#\n#######\n", &rec);
	struct lk_level *level = load(&rec, NULL, false);
	unsigned char *keys;
	size_t n;
	keys_of(level, "lr", &keys, &n, -1, "solved after move 1");
	keys_of(level, "ur", &keys, &n, 0, NULL);
	assert_int_equal(n, 3);
	/* u changes nothing: its frame repeats the start */
	assert_memory_equal(keys, keys + level->key_size, level->key_size);
	char *t = state_text(level, keys + 2 * level->key_size);
	assert_string_equal(t, "#######\n#     #\n#######\n");
	free(t);
	assert_true(level->game->is_goal(level, keys + 2 * level->key_size));
	free(keys);
	keys_of(level, "q", &keys, &n, -1, "is not a move");
	lk_level_free(level);
	lk_record_release(&rec);
}

/* ------------------------------------- replay_keys against replay */

static unsigned agree_checks;

/* replay and replay_keys agree on a solution text. */
static void agree(const struct lk_record *rec, const char *metric, const char *solution)
{
	struct lk_level *level = load(rec, metric, false);
	struct lk_solution_stats st;
	struct lk_strbuf e1 = LK_STRBUF_INIT, e2 = LK_STRBUF_INIT;
	bool solved = false;
	unsigned char *keys = NULL;
	size_t n = 0;
	int r1 = replay_stats(level, solution, &st, &solved, &e1);
	int r2 = level->game->replay_keys(level, solution, &keys, &n, &e2);
	if (r1 != r2)
		fail_msg("%s '%s': replay %d (%s), replay_keys %d (%s)", lk_record_title(rec, &e1),
			 solution, r1, e1.buf, r2, e2.buf);
	if (r1 == 0) {
		assert_int_equal(n, st.moves + 1);
		assert_int_equal(level->game->is_goal(level, keys + (n - 1) * level->key_size), solved);
	} else {
		assert_string_equal(e1.buf, e2.buf);
	}
	agree_checks++;
	free(keys);
	lk_strbuf_release(&e1);
	lk_strbuf_release(&e2);
	lk_level_free(level);
}

/* Consecutive keys are edges of the raw state space (or, in a slide
 * game, a move that changed nothing). */
static void edges_check(const struct lk_record *rec, const char *solution)
{
	const struct lk_game *g = lk_game_find(lk_record_game(rec));
	struct lk_level *level = load(rec, lk_name_in("moves", g->metrics) ? "moves" : NULL, true);
	unsigned char *keys = NULL;
	size_t n = 0;
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_int_equal(level->game->replay_keys(level, solution, &keys, &n, &err), 0);
	size_t ks = level->key_size;
	unsigned char *succ = lk_xmalloc(level->max_successors * ks);
	struct lk_edge *edges = lk_xmalloc(level->max_successors * sizeof *edges);
	void *scratch = lk_xcalloc(1, level->scratch_size ? level->scratch_size : 1);
	for (size_t i = 0; i + 1 < n; i++) {
		const unsigned char *a = keys + i * ks, *b = keys + (i + 1) * ks;
		bool found = memcmp(a, b, ks) == 0 && strcmp(g->name, "sokoban") != 0;
		unsigned m = level->game->successors(level, a, scratch, succ, edges);
		for (unsigned j = 0; j < m && !found; j++)
			found = memcmp(succ + j * ks, b, ks) == 0;
		if (!found)
			fail_msg("move %zu of '%s' is no edge", i + 1, solution);
	}
	free(scratch);
	free(edges);
	free(succ);
	free(keys);
	lk_strbuf_release(&err);
	lk_level_free(level);
}

static void mutations(const struct lk_record *rec, const char *metric, const char *sol)
{
	size_t len = strlen(sol);
	char *m = lk_xmalloc(len + 3);
	agree(rec, metric, sol);
	memcpy(m, sol, len / 2);
	m[len / 2] = '\0';
	agree(rec, metric, m);                          /* cut */
	for (size_t i = 0; i < len && i < 12; i++) {
		memcpy(m, sol, len + 1);
		memmove(m + i, m + i + 1, len - i);          /* a letter dropped */
		agree(rec, metric, m);
		memcpy(m, sol, len + 1);
		m[i] = (char)(m[i] ^ 0x20);                  /* its case swapped */
		agree(rec, metric, m);
	}
	snprintf(m, len + 3, "%su", sol);               /* a move after the end */
	agree(rec, metric, m);
	snprintf(m, len + 3, "l%s", sol);               /* one before */
	agree(rec, metric, m);
	free(m);
}

static void test_keys_agree_with_replay(void **state)
{
	(void)state;
	const char *files[] = { "small.xsb", "view.xsb", "fruit.xsb", "skiddy.xsb" };
	for (size_t f = 0; f < sizeof files / sizeof files[0] + 1; f++) {
		char *p = f < sizeof files / sizeof files[0] ? path_of(levels_dir(), files[f])
							      : path_of(ROOT_LEVELS_DIR, "boxoban-hard-sample.xsb");
		struct lk_record *recs;
		size_t n = read_file(p, &recs);
		assert_true(n > 0);
		for (size_t i = 0; i < n; i++) {
			const struct lk_game *g = lk_game_find(lk_record_game(&recs[i]));
			if (!g->replay_keys)
				continue;
			solve_record(&recs[i]);
			const char *sol = lk_record_get(&recs[i], "solution");
			if (!sol)
				continue;
			char *copy = lk_xstrdup(sol);
			mutations(&recs[i], NULL, copy);
			if (lk_name_in("moves", g->metrics) && strcmp(g->metrics[0], "moves") != 0)
				mutations(&recs[i], "moves", copy);
			edges_check(&recs[i], copy);
			free(copy);
		}
		free_records(recs, n);
		free(p);
	}
	assert_true(agree_checks > 500);
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

/* --------------------------------------------------------------- films */

static size_t decode_id(const char *s, int width)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	size_t v = 0;
	for (int i = 0; i < width; i++)
		v = v * 64 + (size_t)(strchr(digits, s[i]) - digits);
	return v;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted, distinct codes of a list of strings, joined by '|'. */
static char *set_text(char **items, size_t n)
{
	struct lk_strbuf out = LK_STRBUF_INIT;
	qsort(items, n, sizeof *items, cmp_str);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(items[i], items[i - 1]) != 0)
			lk_strbuf_addf(&out, "%s|", items[i]);
	return lk_strbuf_detach(&out, NULL);
}

/* The frame as the game draws it, each primitive coded with the dictionary. */
static char *drawn_frame(const struct lk_level *level, const void *key, const char *placement,
			 struct view_dict *d)
{
	struct lk_canvas c;
	struct view_map m;
	lk_canvas_init(&c);
	view_map_init(&m);
	level->game->draw(level, key, placement, &c);
	view_map_update(&m, d, &c);
	char **items = lk_xmalloc((c.nprims + 1) * sizeof *items);
	for (size_t i = 0; i < c.nprims; i++) {
		struct lk_strbuf t = LK_STRBUF_INIT;
		view_encode_prim(&c, &c.prims[i], &m, &t);
		items[i] = lk_strbuf_detach(&t, NULL);
	}
	char *text = set_text(items, c.nprims);
	for (size_t i = 0; i < c.nprims; i++)
		free(items[i]);
	free(items);
	view_map_release(&m);
	lk_canvas_release(&c);
	return text;
}

/* Every frame of the film, rebuilt from the first and the changes, is
 * the game's drawing of that state. */
static void film_check(const struct lk_record *rec, struct film_maker *fm, struct view_dict *d)
{
	struct film f;
	film_init(&f);
	film_make(fm, rec, d, &f);
	assert_true(f.drawn);
	char **atlas = lk_xmalloc((f.natlas + 1) * sizeof *atlas);
	char *codes = lk_xstrdup(f.atlas.buf);
	size_t na = 0;
	for (char *tok = strtok(codes, ";"); tok; tok = strtok(NULL, ";"))
		atlas[na++] = tok;
	assert_int_equal(na, f.natlas);
	unsigned char *present = lk_xcalloc(na + 1, 1);
	for (size_t i = 0; i < f.first.len; i += (size_t)f.id_width)
		present[decode_id(f.first.buf + i, f.id_width)] = 1;

	const struct lk_game *g = lk_game_find(lk_record_game(rec));
	struct lk_level *level = load(rec, lk_name_in("moves", g->metrics) ? "moves" : NULL, false);
	const char *sol = lk_record_get(rec, "solution");
	unsigned char *keys = NULL;
	size_t nkeys = 1;
	if (g->csp) {
		nkeys = sol ? 2 : 1;
	} else if (sol) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		assert_int_equal(g->replay_keys(level, sol, &keys, &nkeys, &err), 0);
		lk_strbuf_release(&err);
	}
	assert_int_equal(f.nframes, nkeys);
	const char *step = f.steps.buf;
	char **items = lk_xmalloc((na + 1) * sizeof *items);
	for (size_t frame = 0; frame < nkeys; frame++) {
		if (frame > 0) {
			while (*step && *step != '.') {
				present[decode_id(step, f.id_width)] ^= 1;
				step += f.id_width;
			}
			if (*step == '.')
				step++;
		}
		size_t k = 0;
		for (size_t i = 0; i < na; i++)
			if (present[i])
				items[k++] = atlas[i];
		char *rebuilt = set_text(items, k);
		char *direct = g->csp ? drawn_frame(level, NULL, frame ? sol : NULL, d)
				      : drawn_frame(level, keys ? keys + frame * level->key_size : NULL, NULL, d);
		if (!keys && !g->csp) {
			/* no solution: the start */
			free(direct);
			unsigned char *k0 = lk_xmalloc(level->key_size);
			level->game->initial_state(level, k0);
			direct = drawn_frame(level, k0, NULL, d);
			free(k0);
		}
		if (strcmp(rebuilt, direct) != 0)
			fail_msg("%s frame %zu:\n rebuilt %s\n drawn   %s", lk_record_get(rec, "title"), frame,
				 rebuilt, direct);
		free(rebuilt);
		free(direct);
	}
	assert_int_equal(*step, '\0');
	free(items);
	free(keys);
	free(present);
	free(codes);
	free(atlas);
	lk_level_free(level);
	film_release(&f);
}

static void test_films_rebuild_every_frame(void **state)
{
	(void)state;
	const char *files[] = { "view.xsb", "small.xsb", "fruit.xsb", "skiddy.xsb", "comb.xsb" };
	struct film_maker *fm = film_maker_new();
	struct view_dict d;
	view_dict_init(&d);
	size_t films = 0;
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		char *p = path_of(levels_dir(), files[f]);
		struct lk_record *recs;
		size_t n = read_file(p, &recs);
		for (size_t i = 0; i < n; i++) {
			film_check(&recs[i], fm, &d);   /* unsolved: one frame */
			solve_record(&recs[i]);
			film_check(&recs[i], fm, &d);
			films += 2;
		}
		free_records(recs, n);
		free(p);
	}
	assert_true(films > 30);
	view_dict_release(&d);
	film_maker_free(fm);
}

static enum film_solution film_of(const char *text, size_t *nframes, char **note)
{
	struct lk_record rec;
	struct film f;
	struct view_dict d;
	struct film_maker *fm = film_maker_new();
	read_record(text, &rec);
	view_dict_init(&d);
	film_init(&f);
	film_make(fm, &rec, &d, &f);
	enum film_solution s = f.solution;
	*nframes = f.nframes;
	*note = lk_xstrdup(f.note.buf);
	film_release(&f);
	view_dict_release(&d);
	film_maker_free(fm);
	lk_record_release(&rec);
	return s;
}

static void test_film_statuses(void **state)
{
	(void)state;
	size_t n;
	char *note;
	assert_int_equal(film_of("#####\n#@$.#\n#####\n", &n, &note), FILM_NO_SOLUTION);
	assert_int_equal(n, 1);
	free(note);
	assert_int_equal(film_of("#####\n#@$.#\n#####\nsolution: R\n", &n, &note), FILM_SOLVED);
	assert_int_equal(n, 2);
	free(note);
	assert_int_equal(film_of("######\n#@$ .#\n######\nsolution: R\n", &n, &note), FILM_UNSOLVED);
	assert_int_equal(n, 2);
	free(note);
	assert_int_equal(film_of("#####\n#@$.#\n#####\nsolution: L\n", &n, &note), FILM_BAD);
	assert_int_equal(n, 1);
	assert_non_null(strstr(note, "walks into a wall"));
	free(note);
	/* Combination: verify decides; an unreadable placement is bad */
	const char *comb = "game: combination\npieces: 1 red rook, 2 blue bishop\n#.#.\no..o\n";
	struct lk_strbuf t = LK_STRBUF_INIT;
	lk_strbuf_addf(&t, "%ssolution: #2#1/o2.o\n", comb);
	assert_int_equal(film_of(t.buf, &n, &note), FILM_SOLVED);
	assert_int_equal(n, 2);
	free(note);
	lk_strbuf_reset(&t);
	lk_strbuf_addf(&t, "%ssolution: #1#2/o2.o\n", comb);   /* the rook sees a bishop */
	assert_int_equal(film_of(t.buf, &n, &note), FILM_UNSOLVED);
	free(note);
	lk_strbuf_reset(&t);
	lk_strbuf_addf(&t, "%ssolution: #2#1\n", comb);
	assert_int_equal(film_of(t.buf, &n, &note), FILM_BAD);
	assert_int_equal(n, 1);
	free(note);
	lk_strbuf_release(&t);
	/* not a level: no picture, and why */
	struct lk_record rec;
	struct film f;
	struct view_dict d;
	struct film_maker *fm = film_maker_new();
	read_record("game: nosuchgame\n#####\n", &rec);
	view_dict_init(&d);
	film_init(&f);
	film_make(fm, &rec, &d, &f);
	assert_false(f.drawn);
	assert_true(f.note.len > 0);
	film_release(&f);
	view_dict_release(&d);
	film_maker_free(fm);
	lk_record_release(&rec);
}

/* ------------------------------------------------------------- writers */

static char *view_text(enum lk_view_format format, const char *records)
{
	FILE *fp = tmpfile();
	struct lk_reader r;
	struct lk_record rec;
	struct lk_view_writer w;
	struct lk_strbuf out = LK_STRBUF_INIT;
	struct lk_view_options opt = { .title = "a <test>" };
	fputs(records, fp);
	rewind(fp);
	lk_reader_init_fp(&r, fp, "test");
	lk_record_init(&rec);
	lk_view_writer_init(&w, NULL, format, &opt);
	while (lk_reader_next(&r, &rec, NULL, NULL) == 1)
		lk_view_writer_format(&w, &rec, &out);
	lk_view_writer_finish_format(&w, &out);
	lk_view_writer_release(&w);
	lk_record_release(&rec);
	lk_reader_close(&r);
	fclose(fp);
	return lk_strbuf_detach(&out, NULL);
}

static size_t count_of(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

static void test_svg(void **state)
{
	(void)state;
	char *one = view_text(LK_VIEW_SVG, "title: One\n#####\n#@$.#\n#####\n");
	assert_non_null(strstr(one, "<?xml"));
	assert_non_null(strstr(one, "<title>One</title>"));
	assert_int_equal(count_of(one, "<svg"), 1);
	assert_int_equal(count_of(one, "</svg>"), 1);
	/* the legend: box, goal, player, each a symbol placed once more */
	assert_non_null(strstr(one, ">box</text>"));
	assert_non_null(strstr(one, ">goal</text>"));
	assert_non_null(strstr(one, ">player</text>"));
	assert_null(strstr(one, ">box on a goal</text>"));   /* not in this level */
	assert_int_equal(count_of(one, "<g id=\"s"), 4);
	free(one);
	char *two = view_text(LK_VIEW_SVG, "; header\n\ntitle: One\n#####\n#@$.#\n#####\n\n"
				 "title: Two\ngame: fruit\n#####\n#a.a#\n#####\n\n#####\n#@$X#\n#####\n");
	assert_non_null(strstr(two, ">One</text>"));
	assert_non_null(strstr(two, ">Two</text>"));
	assert_non_null(strstr(two, ">fruit of colour a</text>"));
	assert_non_null(strstr(two, "unknown sokoban cell"));   /* the third: why not drawn */
	free(two);
}

/* Captions are shortened in the middle, by characters (not bytes), and
 * keep more of the end, which tells a pack's levels apart. */
static void test_middle_cut(void **state)
{
	(void)state;
	struct lk_strbuf out = LK_STRBUF_INIT;
	view_middle_cut("Microban 1", 10, &out);
	assert_string_equal(out.buf, "Microban 1");
	lk_strbuf_reset(&out);
	view_middle_cut("Boxoban medium/valid/000.txt #17", 16, &out);
	assert_string_equal(out.buf, "Boxoba\xe2\x80\xa6" "0.txt #17");
	lk_strbuf_reset(&out);
	/* é and … are one character each: never cut inside one */
	view_middle_cut("\xc3\xa9t\xc3\xa9 \xc3\xa9t\xc3\xa9 \xc3\xa9t\xc3\xa9 12", 6, &out);
	assert_string_equal(out.buf, "\xc3\xa9t\xe2\x80\xa6" " 12");
	lk_strbuf_release(&out);
}

static void test_ansi(void **state)
{
	(void)state;
	const char *text = "; a comment\ntitle: One\n#####\n#@$.#\n#####\nsolvable: yes\n";
	char *out = view_text(LK_VIEW_ANSI, text);
	assert_non_null(strstr(out, "\033["));
	/* without its escapes it is the record */
	struct lk_strbuf plain = LK_STRBUF_INIT;
	for (const char *p = out; *p; p++) {
		if (*p == '\033') {
			while (*p && *p != 'm')
				p++;
			continue;
		}
		lk_strbuf_addch(&plain, *p);
	}
	struct lk_strbuf want = LK_STRBUF_INIT;
	lk_strbuf_addf(&want, "%s\n", text);
	assert_string_equal(plain.buf, want.buf);
	lk_strbuf_release(&plain);
	lk_strbuf_release(&want);
	/* the wall and the floor differ in background */
	assert_non_null(strstr(out, "\033[48;5;"));
	free(out);
}

static void test_page(void **state)
{
	(void)state;
	char *page = view_text(LK_VIEW_HTML, "title: </script><!-- x\n#####\n#@$.#\n#####\nsolution: R\n");
	const char *data = strstr(page, "id=\"lk-data\">");
	assert_non_null(data);
	data += strlen("id=\"lk-data\">");
	/* the title cannot end the data early: '<' is escaped in it */
	const char *end = strchr(data, '<');
	assert_string_equal(end, "</script>\n</body>\n</html>\n");
	assert_non_null(strstr(data, "\\u003c/script\\u003e\\u003c!-- x"));
	assert_non_null(strstr(data, "\"sol\":\"solved\""));
	assert_non_null(strstr(data, "\"nf\":2"));
	assert_non_null(strstr(page, "<title>a &lt;test&gt;</title>"));
	assert_non_null(strstr(page, "</html>\n"));
	free(page);
	/* no record at all is still a page */
	page = view_text(LK_VIEW_HTML, "");
	assert_non_null(strstr(page, "</html>\n"));
	free(page);
}

static void test_choose(void **state)
{
	(void)state;
	struct {
		const char *format, *output, *color, *no_color;
		bool tty;
		int rc;
		enum lk_view_format view;
	} cases[] = {
		{ NULL, NULL, NULL, NULL, false, 0, LK_VIEW_NONE },
		{ NULL, NULL, NULL, NULL, true, 0, LK_VIEW_ANSI },
		{ NULL, NULL, NULL, "1", true, 0, LK_VIEW_NONE },      /* NO_COLOR */
		{ NULL, NULL, NULL, "", true, 0, LK_VIEW_ANSI },       /* empty: not set */
		{ NULL, NULL, "always", "1", false, 0, LK_VIEW_ANSI }, /* asked for */
		{ NULL, NULL, "never", NULL, true, 0, LK_VIEW_NONE },
		{ "text", NULL, "auto", NULL, true, 0, LK_VIEW_ANSI },
		{ "tsv", NULL, "always", NULL, true, 0, LK_VIEW_NONE },
		{ NULL, "out.xsb", NULL, NULL, true, 0, LK_VIEW_NONE },  /* a file is no terminal */
		{ NULL, "-", NULL, NULL, true, 0, LK_VIEW_ANSI },
		{ NULL, "pack.HTML", NULL, NULL, false, 0, LK_VIEW_HTML },
		{ NULL, "pack.htm", NULL, NULL, false, 0, LK_VIEW_HTML },
		{ NULL, "level.svg", NULL, NULL, false, 0, LK_VIEW_SVG },
		{ "text", "pack.html", NULL, NULL, false, 0, LK_VIEW_NONE },
		{ "svg", NULL, NULL, NULL, true, 0, LK_VIEW_SVG },
		{ "ansi", "x.xsb", NULL, "1", false, 0, LK_VIEW_ANSI },
		{ "ansi", NULL, "never", NULL, true, 0, LK_VIEW_PLAIN },  /* the view, plain */
		{ "ansi", "x.txt", "never", "1", false, 0, LK_VIEW_PLAIN },
		{ "png", NULL, NULL, NULL, false, -1, LK_VIEW_NONE },
		{ NULL, NULL, "yes", NULL, false, -1, LK_VIEW_NONE },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		enum lk_view_format v = LK_VIEW_HTML;
		if (cases[i].no_color)
			setenv("NO_COLOR", cases[i].no_color, 1);
		else
			unsetenv("NO_COLOR");
		int rc = lk_view_choose(cases[i].format, cases[i].output, cases[i].color, cases[i].tty, &v,
					&err);
		if (rc != cases[i].rc || (rc == 0 && v != cases[i].view))
			fail_msg("case %zu: rc %d view %d (%s)", i, rc, (int)v, err.buf);
		if (rc < 0)
			assert_true(err.len > 0);
		lk_strbuf_release(&err);
	}
	unsetenv("NO_COLOR");
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
