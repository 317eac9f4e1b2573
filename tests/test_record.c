/*
 * test_record.c - unit tests for the level text format (record.c,
 * record_format.c): classification, reading, editing, writers, and a
 * lossless round trip of every shared Sokoban pack.
 *
 * This file holds classification and reading, and the main that runs
 * every test; the shared helpers are in record_fixture.c, editing, the
 * writers and the round trip in record_edit.c.
 */
#include "record_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/record.h"

/* --------------------------------------------------------- classification */

static void test_classify(void **state)
{
	size_t n, v;
	(void)state;

	assert_int_equal(lk_line_classify("Title: x", &n, &v), LK_LINE_FIELD);
	assert_int_equal(n, 5);
	assert_int_equal(v, 7);
	assert_int_equal(lk_line_classify("title:", &n, &v), LK_LINE_FIELD);
	assert_int_equal(n, 5);
	assert_int_equal(v, 6);
	assert_int_equal(lk_line_classify("a:\t  b c ", &n, &v), LK_LINE_FIELD);
	assert_int_equal(n, 1);
	assert_int_equal(v, 5);
	assert_int_equal(lk_line_classify("x.y-z_9: 1", &n, &v), LK_LINE_FIELD);
	assert_int_equal(n, 7);

	/* Not fields: no blank after the colon, bad names, blank before ':'. */
	assert_int_equal(lk_line_classify("a:b", &n, &v), LK_LINE_GRID);
	assert_int_equal(n, 0);
	assert_int_equal(lk_line_classify("1a: x", NULL, NULL), LK_LINE_GRID);
	assert_int_equal(lk_line_classify("_a: x", NULL, NULL), LK_LINE_GRID);
	assert_int_equal(lk_line_classify("na me: x", NULL, NULL), LK_LINE_GRID);
	assert_int_equal(lk_line_classify("name : x", NULL, NULL), LK_LINE_GRID);
	assert_int_equal(lk_line_classify(": x", NULL, NULL), LK_LINE_GRID);
	assert_int_equal(lk_line_classify(" title: x", NULL, NULL), LK_LINE_GRID);

	assert_int_equal(lk_line_classify(";", NULL, NULL), LK_LINE_COMMENT);
	assert_int_equal(lk_line_classify("; title: x", NULL, NULL), LK_LINE_COMMENT);
	assert_int_equal(lk_line_classify(" ; x", NULL, NULL), LK_LINE_GRID);

	/* Sokoban rows, including run-length encoded ones. */
	assert_int_equal(lk_line_classify("  ####", NULL, NULL), LK_LINE_GRID);
	assert_int_equal(lk_line_classify("#@+$*. -_#", NULL, NULL), LK_LINE_GRID);
	assert_int_equal(lk_line_classify("4#", NULL, NULL), LK_LINE_GRID);
	assert_int_equal(lk_line_classify("#3-#|#$.@#", NULL, NULL), LK_LINE_GRID);

	assert_int_equal(lk_line_classify("", NULL, NULL), -1);
	assert_int_equal(lk_line_classify(" \t\r ", NULL, NULL), -1);
}

/* ---------------------------------------------------------------- reading */

static void test_read_blank_lines(void **state)
{
	const char *in = "\n  \n; A\n####\n#@.#\n\n\n \t\n; B\n# #\nmoves: 3\n";
	struct src s;
	struct lk_record rec = LK_RECORD_INIT;
	(void)state;

	src_open(&s, in, strlen(in));
	assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 1);
	assert_int_equal(rec.number, 1);
	assert_int_equal(rec.first_lineno, 3);
	assert_string_equal(rec.source, "test.txt");
	assert_int_equal(rec.nlines, 3);
	assert_int_equal(rec.lines[0].kind, LK_LINE_COMMENT);
	assert_int_equal(rec.lines[2].lineno, 5);
	assert_string_equal(rec.lines[2].text, "#@.#");

	assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 1);
	assert_int_equal(rec.number, 2);
	assert_int_equal(rec.first_lineno, 9);
	assert_int_equal(rec.nlines, 3);
	assert_string_equal(rec.lines[1].text, "# #");
	assert_int_equal(rec.lines[2].kind, LK_LINE_FIELD);
	assert_string_equal(lk_record_get(&rec, "moves"), "3");

	assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 0);
	assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 0);
	assert_int_equal(rec.nlines, 0);
	lk_record_release(&rec);
	src_close(&s);
}

static void test_read_crlf_and_no_final_newline(void **state)
{
	const char *in = "; x\r\n  ### \r\n  #.# \r\n\r\n####\r\n#  #";
	struct src s;
	struct lk_record rec = LK_RECORD_INIT;
	char *text;
	(void)state;

	src_open(&s, in, strlen(in));
	assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 1);
	text = record_text(&rec);
	/* CRs dropped, meaningful leading/trailing spaces kept. */
	assert_string_equal(text, "; x\n  ### \n  #.# \n");
	free(text);
	assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 1);
	assert_int_equal(rec.first_lineno, 5);
	assert_string_equal(rec.lines[1].text, "#  #");
	assert_int_equal(rec.lines[1].lineno, 6);
	assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 0);
	lk_record_release(&rec);
	src_close(&s);
}

/* A byte order mark is the input's only on its first line; later, U+FEFF
 * starting a record's first line is kept, and the record is lossy, since
 * written first in an output it would read back as a byte order mark
 * (the fuzzer's input "\r" BOM "\n"). */
static void test_read_bom(void **state)
{
	const char *cases[] = { "\xef\xbb\xbf; x\n", "\r\xef\xbb\xbf\n", "; a\n\n\xef\xbb\xbf; b\n" };
	struct src s;
	struct lk_record rec = LK_RECORD_INIT;
	(void)state;

	src_open(&s, cases[0], strlen(cases[0]));
	assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 1);
	assert_true(rec.bom);
	assert_false(rec.lossy);
	assert_string_equal(rec.lines[0].text, "; x");
	src_close(&s);
	for (int i = 1; i < 3; i++) {
		src_open(&s, cases[i], strlen(cases[i]));
		if (i == 2) {
			assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 1);
			assert_false(rec.lossy);
		}
		assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 1);
		assert_false(rec.bom);
		assert_true(rec.lossy);
		assert_memory_equal(rec.lines[0].text, "\xef\xbb\xbf", 3);
		src_close(&s);
	}
	lk_record_release(&rec);
}

static void test_read_header_record(void **state)
{
	const char *in = "; My pack\nauthor: me\n\n; Level 1\n###\n#@#\n###\n\n";
	struct src s;
	struct lk_record rec = LK_RECORD_INIT;
	size_t first = 99;
	char *out;
	(void)state;

	src_open(&s, in, strlen(in));
	assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 1);
	assert_int_equal(lk_record_grid(&rec, &first), 0);
	assert_int_equal(first, 0);
	assert_string_equal(lk_record_get(&rec, "Author"), "me");
	assert_int_equal(lk_reader_next(&s.r, &rec, NULL, NULL), 1);
	assert_int_equal(rec.number, 2);
	assert_int_equal(lk_record_grid(&rec, &first), 3);
	assert_int_equal(first, 1);
	lk_record_release(&rec);
	src_close(&s);

	/* The text writer passes the header through; tsv/json skip it. */
	out = format(LK_FORMAT_TEXT, NULL, in);
	assert_string_equal(out, in);
	free(out);
	out = format(LK_FORMAT_JSON, NULL, in);
	assert_string_equal(out, "{\"record\":2,\"title\":\"Level 1\","
			    "\"grid\":\"###\\n#@#\\n###\",\"comments\":[\"Level 1\"]}\n");
	free(out);
}

static void test_read_interrupted_grid(void **state)
{
	const char *in = "; one\n####\n#@.#\n; oops\n#  #\n####\nx: 1\n\n"
			 "####\nmoves: 2\n####\n\n"
			 "; good\n###\n#@#\n###\n\n";
	struct src s;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	(void)state;

	src_open(&s, in, strlen(in));
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), -1);
	assert_string_equal(err.buf, "grid rows interrupted by a comment or field line");
	assert_int_equal(line, 5);
	assert_int_equal(rec.number, 1);

	lk_strbuf_reset(&err);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), -1);
	assert_non_null(strstr(err.buf, "interrupted"));
	assert_int_equal(line, 11);
	assert_int_equal(rec.number, 2);

	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 1);
	assert_int_equal(rec.number, 3);
	assert_int_equal(rec.first_lineno, 13);
	assert_int_equal(lk_record_grid(&rec, NULL), 3);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 0);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	src_close(&s);
}

static void test_read_fields_around_grid(void **state)
{
	struct lk_record rec = LK_RECORD_INIT;
	size_t first;
	(void)state;

	/* Fields and comments before and after one grid block are fine. */
	parse_one("a: 1\n; c\n###\n#@#\n###\n; d\nb: 2\n", &rec);
	assert_int_equal(lk_record_grid(&rec, &first), 3);
	assert_int_equal(first, 2);
	lk_record_release(&rec);
}

static void test_read_nul_byte(void **state)
{
	static const char in[] = "###\n#\0#\n###\n\n###\n#@#\n###\n";
	struct src s;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	(void)state;

	src_open(&s, in, sizeof(in) - 1);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), -1);
	assert_string_equal(err.buf, "line contains a NUL byte");
	assert_int_equal(line, 2);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 1);
	assert_int_equal(rec.number, 2);
	assert_string_equal(rec.lines[1].text, "#@#");
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 0);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	src_close(&s);
}

/* Each NUL line is reported once, in its own record, wherever the
 * record's lines were gathered from (a .sok level takes the notes after a
 * blank line); and a record of many NUL lines costs linear time (the
 * reader once searched all the unreported ones for every line: 200000
 * lines took minutes, found by tests/fuzz/run.sh --grow). */
static void test_read_many_nul_lines(void **state)
{
	static const char in[] = "#\0#\n#\0#\n\n###\n\n"        /* lines 1-2, 4 */
				 "Level 1\n####\n#@.#\n####\n"     /* lines 6-9 */
				 "\n::a\0b\n\n#\0\n";                /* lines 11, 13 */
	static const int status[] = { -1, 1, -1, -1 };
	static const size_t err_line[] = { 1, 0, 11, 13 };
	const size_t n = 200000;
	struct src s;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	(void)state;

	src_open(&s, in, sizeof(in) - 1);
	for (size_t i = 0; i < sizeof status / sizeof status[0]; i++) {
		line = 0;
		assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), status[i]);
		assert_int_equal(rec.number, i + 1);
		if (status[i] < 0) {
			assert_string_equal(err.buf, "line contains a NUL byte");
			assert_int_equal(line, err_line[i]);
		}
	}
	assert_int_equal(rec.nlines, 1);   /* "#": the text stops at the NUL */
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 0);
	src_close(&s);

	char *big = malloc(3 * n);
	assert_non_null(big);
	for (size_t i = 0; i < n; i++)
		memcpy(big + 3 * i, "#\0\n", 3);
	src_open(&s, big, 3 * n);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), -1);
	assert_int_equal(line, 1);
	assert_int_equal(rec.nlines, n);
	assert_true(rec.lossy);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 0);
	src_close(&s);
	free(big);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
}

static void test_read_long_line(void **state)
{
	size_t n = 200000;
	char *in = malloc(n + 16);
	struct lk_record rec = LK_RECORD_INIT;
	(void)state;

	assert_non_null(in);
	memset(in, '#', n);
	strcpy(in + n, "\n#@#\n");
	parse_one(in, &rec);
	assert_int_equal(strlen(rec.lines[0].text), n);
	assert_int_equal(rec.lines[1].lineno, 2);
	lk_record_release(&rec);
	free(in);
}

/* A line of LK_LINE_MAX bytes is read whole; one byte more ends the
 * input with -2, "line too long" and its line, after the records before
 * it (issue 18: solve /dev/zero took all memory). */
static void test_read_line_limit(void **state)
{
	const char *head = "; one\n#####\n#@$.#\n#####\n\n";
	size_t h = strlen(head), n = LK_LINE_MAX;
	char *in = malloc(h + n + 2);
	struct src s;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	(void)state;

	assert_non_null(in);
	memcpy(in, head, h);
	memset(in + h, 'x', n);
	memcpy(in + h + n, "\n", 2);
	src_open(&s, in, h + n + 1);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 1);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 1);
	assert_int_equal(strlen(rec.lines[0].text), n);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 0);
	src_close(&s);

	memset(in + h + n, 'x', 1);
	memcpy(in + h + n + 1, "\n", 1);
	src_open(&s, in, h + n + 2);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 1);
	assert_int_equal(rec.first_lineno, 1);
	line = 0;
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), -2);
	assert_string_equal(err.buf, "line too long (limit 16777216 bytes)");
	assert_int_equal(line, 6);
	src_close(&s);

	/* a Comment: section's end is looked for over at most as many
	 * bytes: beyond them the field is an ordinary one */
	size_t k = 3, len = LK_LINE_MAX / 2;
	char *big = malloc(32 + k * (len + 1) + 32);
	assert_non_null(big);
	size_t at = (size_t)sprintf(big, "Comment: x\n");
	for (size_t i = 0; i < k; i++) {
		memset(big + at, 'y', len);
		at += len;
		big[at++] = '\n';
	}
	at += (size_t)sprintf(big + at, "Comment-End:\n#####\n#@$.#\n#####\n");
	src_open(&s, big, at);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 1);
	assert_int_equal(rec.lines[0].cont, 0);
	assert_int_equal(rec.nlines, k + 5);
	assert_int_equal(lk_reader_next(&s.r, &rec, &err, &line), 0);
	src_close(&s);

	free(big);
	free(in);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
}

static void test_reader_open(void **state)
{
	struct lk_reader r;
	struct lk_strbuf err = LK_STRBUF_INIT;
	(void)state;

	assert_int_equal(lk_reader_open(&r, "/nonexistent/dir/x.xsb", &err), -1);
	assert_non_null(strstr(err.buf, "/nonexistent/dir/x.xsb: cannot open: "));
	lk_reader_close(&r);

	assert_int_equal(lk_reader_open(&r, "-", &err), 0);
	assert_string_equal(r.name, "<stdin>");
	assert_false(r.own_fp);
	lk_reader_close(&r);
	assert_int_equal(lk_reader_open(&r, NULL, &err), 0);
	assert_string_equal(r.name, "<stdin>");
	lk_reader_close(&r);
	lk_strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_read_blank_lines),
		cmocka_unit_test(test_read_crlf_and_no_final_newline),
		cmocka_unit_test(test_read_bom),
		cmocka_unit_test(test_read_header_record),
		cmocka_unit_test(test_read_interrupted_grid),
		cmocka_unit_test(test_read_fields_around_grid),
		cmocka_unit_test(test_read_nul_byte),
		cmocka_unit_test(test_read_many_nul_lines),
		cmocka_unit_test(test_read_long_line),
		cmocka_unit_test(test_read_line_limit),
		cmocka_unit_test(test_reader_open),
		cmocka_unit_test(test_get_set_unset),
		cmocka_unit_test(test_duplicate_fields),
		cmocka_unit_test(test_set_grid),
		cmocka_unit_test(test_title_and_game),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_json_numbers),
		cmocka_unit_test(test_json_escaping),
		cmocka_unit_test(test_tsv),
		cmocka_unit_test(test_writer_put),
		cmocka_unit_test(test_round_trip_packs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
