/*
 * test_grid.c - unit tests for the grid model (grid.c): decoding rows
 * (ragged rows, CR, run-length rows with '|' breaks, size limits and
 * errors), writing rows back, the direction tables, and the eight board
 * symmetries of lk_grid_transform checked against rotations and
 * reflections computed independently in this file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/grid.h"

/* ---------------------------------------------------------------- helpers */

static int parse(struct lk_grid *g, const char *const *rows, size_t n, bool rle, char fill,
		 struct lk_strbuf *err, size_t *bad)
{
	struct lk_grid_parse opt = { .fill = fill, .run_length = rle };
	*bad = (size_t)-7;
	return lk_grid_parse_rows(g, rows, n, &opt, err, bad);
}

/* Assert g's rows are exactly the given strings (all of the same width). */
static void assert_rows(const struct lk_grid *g, const char *const *want, int n)
{
	assert_int_equal(g->height, n);
	for (int y = 0; y < n; y++) {
		assert_int_equal((int)strlen(want[y]), g->width);
		assert_memory_equal(g->cells + (size_t)y * (size_t)g->width, want[y],
				    (size_t)g->width);
	}
}

static void expect_error(const char *const *rows, size_t n, bool rle, size_t want_bad,
			 const char *want_substring)
{
	struct lk_grid g = LK_GRID_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t bad;
	assert_int_equal(parse(&g, rows, n, rle, ' ', &err, &bad), -1);
	assert_true(err.len > 0);
	if (want_substring && !strstr(err.buf, want_substring))
		fail_msg("message '%s' lacks '%s'", err.buf, want_substring);
	assert_int_equal(bad, want_bad);
	lk_strbuf_release(&err);
}

/* ------------------------------------------------------------------ tests */

static void test_ragged_rows(void **state)
{
	(void)state;
	const char *rows[] = { "####", "#@ #", "##", "", "#  #  ", "###\r" };
	const char *want[] = { "####..", "#@ #..", "##....", "......", "#  #  ", "###..." };
	struct lk_grid g = LK_GRID_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t bad;
	assert_int_equal(parse(&g, rows, 6, false, '.', &err, &bad), 0);
	assert_int_equal(g.width, 6);
	assert_rows(&g, want, 6);
	assert_int_equal(err.len, 0);
	/* lk_grid_get / inside agree with the raw cells. */
	assert_int_equal(lk_grid_get(&g, 1, 1), '@');
	assert_true(lk_grid_inside(&g, 5, 5));
	assert_false(lk_grid_inside(&g, 6, 0));
	assert_false(lk_grid_inside(&g, 0, 6));
	assert_false(lk_grid_inside(&g, -1, 0));
	lk_grid_release(&g);
	assert_null(g.cells);
	lk_strbuf_release(&err);
}

static void test_plain_keeps_digits(void **state)
{
	(void)state;
	/* Without run_length, digits and '|' are cells like any other. */
	const char *rows[] = { "4#", "#3-#|#$.@#" };
	const char *want[] = { "4#        ", "#3-#|#$.@#" };
	struct lk_grid g = LK_GRID_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t bad;
	assert_int_equal(parse(&g, rows, 2, false, ' ', &err, &bad), 0);
	assert_rows(&g, want, 2);
	lk_grid_release(&g);
	lk_strbuf_release(&err);
}

static void test_run_length(void **state)
{
	(void)state;
	/* "4#" is four walls; '|' splits a line into rows; '-' stays '-'
	 * (Sokoban turns it into floor later); runs of two digits work. */
	const char *rows[] = { "5#", "#3-#|#$.@#", "12#", "#-2$|1#" };
	const char *want[] = {
		"#####       ",
		"#---#       ",
		"#$.@#       ",
		"############",
		"#-$$        ",
		"#           ",
	};
	struct lk_grid g = LK_GRID_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t bad;
	assert_int_equal(parse(&g, rows, 4, true, ' ', &err, &bad), 0);
	assert_int_equal(g.width, 12);
	assert_rows(&g, want, 6);
	lk_grid_release(&g);

	/* A whole level on one line, and an empty row between breaks. */
	const char *one[] = { "3#||#@#|3#" };
	const char *want_one[] = { "###", "   ", "#@#", "###" };
	assert_int_equal(parse(&g, one, 1, true, ' ', &err, &bad), 0);
	assert_rows(&g, want_one, 4);
	lk_grid_release(&g);

	/* The largest run allowed fits exactly. */
	const char *max[] = { "250#" };
	assert_int_equal(parse(&g, max, 1, true, ' ', &err, &bad), 0);
	assert_int_equal(g.width, LK_GRID_MAX_SIDE);
	assert_int_equal(g.height, 1);
	for (int x = 0; x < g.width; x++)
		assert_int_equal(lk_grid_get(&g, x, 0), '#');
	lk_grid_release(&g);
	lk_strbuf_release(&err);
}

static void test_errors(void **state)
{
	(void)state;
	/* A run length needs a cell after it: at the end of a line... */
	const char *a[] = { "####", "#@ #", "#  3" };
	expect_error(a, 3, true, 2, "run length");
	/* ...or before a row break. */
	const char *b[] = { "#2|#", "###" };
	expect_error(b, 2, true, 0, "run length");
	const char *c[] = { "###", "#@#", "###", "3#|#5" };
	expect_error(c, 4, true, 3, "run length");
	/* Too long a run, too wide a row, too many rows, nothing at all. */
	const char *d[] = { "#", "251#" };
	expect_error(d, 2, true, 1, NULL);
	const char *e[] = { "#", "125#126#" };
	expect_error(e, 2, true, 1, NULL);

	char wide[LK_GRID_MAX_SIDE + 2];
	memset(wide, '#', sizeof wide - 1);
	wide[sizeof wide - 1] = '\0';
	const char *f[] = { "#", "#", wide };
	expect_error(f, 3, false, 2, NULL);

	const char *tall[LK_GRID_MAX_SIDE + 1];
	for (size_t i = 0; i <= LK_GRID_MAX_SIDE; i++)
		tall[i] = "#";
	expect_error(tall, LK_GRID_MAX_SIDE + 1, false, LK_GRID_MAX_SIDE, NULL);
	/* The largest height is accepted. */
	struct lk_grid g = LK_GRID_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t bad;
	assert_int_equal(parse(&g, tall, LK_GRID_MAX_SIDE, false, ' ', &err, &bad), 0);
	assert_int_equal(g.height, LK_GRID_MAX_SIDE);
	lk_grid_release(&g);
	lk_strbuf_release(&err);

	expect_error(NULL, 0, false, 0, NULL);
	const char *empty[] = { "", "\r" };
	expect_error(empty, 2, false, 0, NULL);
}

static void test_write(void **state)
{
	(void)state;
	const char *rows[] = { "####", "#@", "#" };
	struct lk_grid g = LK_GRID_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT, out = LK_STRBUF_INIT;
	size_t bad;
	assert_int_equal(parse(&g, rows, 3, false, '~', &err, &bad), 0);
	lk_grid_write(&g, &out, '~');
	assert_string_equal(out.buf, "####\n#@\n#\n");
	lk_strbuf_reset(&out);
	lk_grid_write(&g, &out, 0);
	assert_string_equal(out.buf, "####\n#@~~\n#~~~\n");
	lk_strbuf_release(&out);

	struct lk_grid copy = LK_GRID_INIT;
	lk_grid_copy(&copy, &g);
	assert_int_equal(copy.width, 4);
	assert_int_equal(copy.height, 3);
	assert_memory_equal(copy.cells, g.cells, 12);
	assert_true(copy.cells != g.cells);
	lk_grid_release(&copy);

	struct lk_grid blank = LK_GRID_INIT;
	lk_grid_init(&blank, 3, 2, 'x');
	lk_grid_set(&blank, 2, 1, 'y');
	assert_memory_equal(blank.cells, "xxxxxy", 6);
	lk_grid_release(&blank);
	lk_grid_release(&g);
	lk_strbuf_release(&err);
}

static void test_directions(void **state)
{
	(void)state;
	/* Orthogonal first, as u r d l; diagonals after; opposites cancel. */
	assert_int_equal(lk_dir_dx[LK_UP], 0);
	assert_int_equal(lk_dir_dy[LK_UP], -1);
	assert_int_equal(lk_dir_dx[LK_RIGHT], 1);
	assert_int_equal(lk_dir_dy[LK_DOWN], 1);
	assert_int_equal(lk_dir_dx[LK_LEFT], -1);
	assert_memory_equal(lk_dir_letter, "urdl", 4);
	for (int d = 0; d < LK_DIR_COUNT; d++) {
		enum lk_dir o = lk_dir_opposite((enum lk_dir)d);
		assert_int_equal(lk_dir_dx[d] + lk_dir_dx[o], 0);
		assert_int_equal(lk_dir_dy[d] + lk_dir_dy[o], 0);
		assert_int_equal(lk_dir_opposite(o), d);
		int manhattan = abs(lk_dir_dx[d]) + abs(lk_dir_dy[d]);
		assert_int_equal(manhattan, d < 4 ? 1 : 2);
		for (int e = 0; e < d; e++)
			assert_false(lk_dir_dx[d] == lk_dir_dx[e] && lk_dir_dy[d] == lk_dir_dy[e]);
	}
}

/* --------------------------------------------------------- symmetries */

static bool grid_eq(const struct lk_grid *a, const struct lk_grid *b)
{
	return a->width == b->width && a->height == b->height &&
	       memcmp(a->cells, b->cells, (size_t)a->width * (size_t)a->height) == 0;
}

/* Independent symmetries: r quarter turns clockwise, then a left-right
 * mirror when m is set. */
static void my_rotate(struct lk_grid *dst, const struct lk_grid *src)
{
	/* clockwise: new (x, y) = old (y, H-1-x); new width = old height */
	lk_grid_init(dst, src->height, src->width, '?');
	for (int y = 0; y < dst->height; y++)
		for (int x = 0; x < dst->width; x++)
			lk_grid_set(dst, x, y, lk_grid_get(src, y, src->height - 1 - x));
}

static void my_symmetry(struct lk_grid *dst, const struct lk_grid *src, int r, bool m)
{
	struct lk_grid cur, next;
	lk_grid_copy(&cur, src);
	for (int i = 0; i < r; i++) {
		my_rotate(&next, &cur);
		lk_grid_release(&cur);
		cur = next;
	}
	if (m) {
		lk_grid_init(&next, cur.width, cur.height, '?');
		for (int y = 0; y < cur.height; y++)
			for (int x = 0; x < cur.width; x++)
				lk_grid_set(&next, x, y, lk_grid_get(&cur, cur.width - 1 - x, y));
		lk_grid_release(&cur);
		cur = next;
	}
	*dst = cur;
}

static void check_symmetries(const char *const *rows, size_t n)
{
	struct lk_grid g = LK_GRID_INIT, t[LK_SYM_COUNT], mine[LK_SYM_COUNT];
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t bad;
	assert_int_equal(parse(&g, rows, n, false, ' ', &err, &bad), 0);
	for (int s = 0; s < LK_SYM_COUNT; s++) {
		lk_grid_transform(&t[s], &g, s);
		my_symmetry(&mine[s], &g, s % 4, s >= 4);
	}
	/* Identity first. */
	assert_true(grid_eq(&t[0], &g));
	/* All eight distinct (the grid has no symmetry of its own). */
	for (int a = 0; a < LK_SYM_COUNT; a++)
		for (int b = 0; b < a; b++)
			assert_false(grid_eq(&t[a], &t[b]));
	/* The same set as the rotations and reflections built here: each
	 * library symmetry matches exactly one of mine. */
	for (int a = 0; a < LK_SYM_COUNT; a++) {
		int matches = 0;
		for (int b = 0; b < LK_SYM_COUNT; b++)
			matches += grid_eq(&t[a], &mine[b]);
		assert_int_equal(matches, 1);
	}
	for (int a = 0; a < LK_SYM_COUNT; a++) {
		/* Sides: either kept or swapped; content: same multiset. */
		assert_true((t[a].width == g.width && t[a].height == g.height) ||
			    (t[a].width == g.height && t[a].height == g.width));
		int hist[256] = { 0 };
		for (int i = 0; i < g.width * g.height; i++) {
			hist[(unsigned char)g.cells[i]]++;
			hist[(unsigned char)t[a].cells[i]]--;
		}
		for (int c = 0; c < 256; c++)
			assert_int_equal(hist[c], 0);
		/* Exactly one inverse brings it back. */
		int inverses = 0;
		for (int b = 0; b < LK_SYM_COUNT; b++) {
			struct lk_grid back;
			lk_grid_transform(&back, &t[a], b);
			inverses += grid_eq(&back, &g);
			/* Closure: s_b after s_a is one of the eight. */
			int found = 0;
			for (int c = 0; c < LK_SYM_COUNT; c++)
				found += grid_eq(&back, &t[c]);
			assert_int_equal(found, 1);
			lk_grid_release(&back);
		}
		assert_int_equal(inverses, 1);
	}
	for (int s = 0; s < LK_SYM_COUNT; s++) {
		lk_grid_release(&t[s]);
		lk_grid_release(&mine[s]);
	}
	lk_grid_release(&g);
	lk_strbuf_release(&err);
}

static void test_symmetries_rect(void **state)
{
	(void)state;
	const char *rows[] = { "abcd", "efgh", "ijkl" };
	check_symmetries(rows, 3);
}

static void test_symmetries_square(void **state)
{
	(void)state;
	const char *rows[] = { "#@$", "  .", "*+#" };
	check_symmetries(rows, 3);
}

static void test_symmetries_line(void **state)
{
	(void)state;
	/* A 1-row grid has only two distinct images per side orientation, so
	 * check only shape and inverse here. */
	const char *rows[] = { "abc" };
	struct lk_grid g = LK_GRID_INIT, t, back;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t bad;
	assert_int_equal(parse(&g, rows, 1, false, ' ', &err, &bad), 0);
	int tall = 0;
	for (int s = 0; s < LK_SYM_COUNT; s++) {
		lk_grid_transform(&t, &g, s);
		tall += t.height == 3 && t.width == 1;
		int inverses = 0;
		for (int b = 0; b < LK_SYM_COUNT; b++) {
			lk_grid_transform(&back, &t, b);
			inverses += grid_eq(&back, &g);
			lk_grid_release(&back);
		}
		assert_true(inverses >= 1);
		lk_grid_release(&t);
	}
	assert_int_equal(tall, 4);
	lk_grid_release(&g);
	lk_strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ragged_rows),
		cmocka_unit_test(test_plain_keeps_digits),
		cmocka_unit_test(test_run_length),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_directions),
		cmocka_unit_test(test_symmetries_rect),
		cmocka_unit_test(test_symmetries_square),
		cmocka_unit_test(test_symmetries_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
