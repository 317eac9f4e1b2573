/*
 * test_record.c - unit tests for the level text format (record.c,
 * record_format.c): classification, reading, editing, writers, and a
 * lossless round trip of every shared Sokoban pack.
 */
#define _POSIX_C_SOURCE 200809L /* opendir/readdir for the pack round trip */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/record.h"

/* ---------------------------------------------------------------- helpers */

/* A reader over the given bytes (which may contain NULs). */
struct src {
	FILE *fp;
	struct lk_reader r;
};

static void src_open(struct src *s, const char *data, size_t len)
{
	s->fp = tmpfile();
	assert_non_null(s->fp);
	assert_int_equal(fwrite(data, 1, len, s->fp), len);
	rewind(s->fp);
	lk_reader_init_fp(&s->r, s->fp, "test.txt");
}

static void src_close(struct src *s)
{
	lk_reader_close(&s->r);
	fclose(s->fp);
}

/* Parse text that must hold exactly one well-formed record. */
static void parse_one(const char *text, struct lk_record *rec)
{
	struct src s;
	struct lk_record extra = LK_RECORD_INIT;

	src_open(&s, text, strlen(text));
	assert_int_equal(lk_reader_next(&s.r, rec, NULL, NULL), 1);
	assert_int_equal(lk_reader_next(&s.r, &extra, NULL, NULL), 0);
	src_close(&s);
}

static char *record_text(const struct lk_record *rec)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_record_write(rec, &sb);
	return lk_strbuf_detach(&sb, NULL);
}

static char *format(enum lk_format fmt, const char *const *extra,
		    const char *input)
{
	struct src s;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_writer w;
	struct lk_strbuf out = LK_STRBUF_INIT;

	src_open(&s, input, strlen(input));
	lk_writer_init(&w, NULL, fmt, extra);
	while (lk_reader_next(&s.r, &rec, NULL, NULL) == 1)
		lk_writer_format(&w, &rec, &out);
	lk_writer_release(&w);
	lk_record_release(&rec);
	src_close(&s);
	return lk_strbuf_detach(&out, NULL);
}

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
 * lines took minutes, found by fuzz/run.sh --grow). */
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

/* ---------------------------------------------------------------- editing */

static void test_get_set_unset(void **state)
{
	struct lk_record rec = LK_RECORD_INIT;
	char *text;
	(void)state;

	parse_one("; c\n###\nMoves:   12 \nempty:\n", &rec);
	assert_string_equal(lk_record_get(&rec, "moves"), "12 ");
	assert_string_equal(lk_record_get(&rec, "EMPTY"), "");
	assert_null(lk_record_get(&rec, "pushes"));
	assert_null(lk_record_get(&rec, "move"));
	assert_int_equal(lk_record_find(&rec, "moves"), 2);
	assert_int_equal(lk_record_find(&rec, "c"), -1);

	/* Replace in place, keeping the spelling of the name. */
	lk_record_set(&rec, "MOVES", "7");
	lk_record_set(&rec, "pushes", "3");
	lk_record_setf(&rec, "time", "%d.%02d", 1, 5);
	lk_record_set(&rec, "note", "two\nlines");
	lk_record_set(&rec, "empty", "");
	text = record_text(&rec);
	assert_string_equal(text, "; c\n###\nMoves: 7\nempty:\npushes: 3\n"
			    "time: 1.05\nnote: two lines\n");
	free(text);
	assert_int_equal(rec.lines[2].lineno, 3);
	assert_int_equal(rec.lines[4].lineno, 0);
	assert_int_equal(rec.lines[4].kind, LK_LINE_FIELD);

	assert_true(lk_record_unset(&rec, "Pushes"));
	assert_false(lk_record_unset(&rec, "pushes"));
	assert_null(lk_record_get(&rec, "pushes"));
	assert_int_equal(rec.nlines, 6);
	lk_record_release(&rec);
}

static void test_duplicate_fields(void **state)
{
	struct lk_record rec = LK_RECORD_INIT;
	char *text;
	(void)state;

	parse_one("###\nn: 1\nN: 2\n", &rec);
	assert_string_equal(lk_record_get(&rec, "n"), "2");
	lk_record_set(&rec, "n", "3");
	text = record_text(&rec);
	assert_string_equal(text, "###\nn: 1\nN: 3\n");
	free(text);
	assert_true(lk_record_unset(&rec, "n"));
	assert_int_equal(rec.nlines, 1);
	lk_record_release(&rec);
}

static void test_set_grid(void **state)
{
	struct lk_record rec = LK_RECORD_INIT;
	size_t first;
	char *text;
	(void)state;

	parse_one("; t\n####\n#@.#\n####\n; after\nx: 1\n", &rec);
	lk_record_set_grid(&rec, "###\r\n#@#\n###\n");
	text = record_text(&rec);
	assert_string_equal(text, "; t\n###\n#@#\n###\n; after\nx: 1\n");
	free(text);
	assert_int_equal(lk_record_grid(&rec, &first), 3);
	assert_int_equal(first, 1);

	/* No final newline; rows are grid even if they look like fields. */
	lk_record_set_grid(&rec, "a: b\n; c");
	assert_int_equal(lk_record_grid(&rec, &first), 2);
	assert_int_equal(rec.lines[1].kind, LK_LINE_GRID);
	assert_int_equal(rec.lines[2].kind, LK_LINE_GRID);
	lk_record_release(&rec);

	/* Without a grid: inserted before the first field. */
	parse_one("; hdr\nx: 1\ny: 2\n", &rec);
	lk_record_set_grid(&rec, "#.#");
	text = record_text(&rec);
	assert_string_equal(text, "; hdr\n#.#\nx: 1\ny: 2\n");
	free(text);
	lk_record_release(&rec);

	/* No grid and no field: appended. */
	lk_record_add_line(&rec, "; only", 0);
	lk_record_set_grid(&rec, "##\n");
	text = record_text(&rec);
	assert_string_equal(text, "; only\n##\n");
	free(text);
	lk_record_release(&rec);
}

static void test_title_and_game(void **state)
{
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf buf = LK_STRBUF_INIT;
	(void)state;

	parse_one("; pack\n;  Level 7 \t\n;\n###\n; after grid\n", &rec);
	assert_string_equal(lk_record_title(&rec, &buf), "Level 7");
	assert_string_equal(lk_record_game(&rec), "sokoban");
	lk_record_set(&rec, "title", "");
	assert_string_equal(lk_record_title(&rec, &buf), "Level 7");
	lk_record_set(&rec, "Title", "Named");
	assert_string_equal(lk_record_title(&rec, &buf), "Named");
	lk_record_set(&rec, "game", "lightsout");
	assert_string_equal(lk_record_game(&rec), "lightsout");
	lk_record_release(&rec);

	parse_one("###\n; after grid only\n", &rec);
	assert_null(lk_record_title(&rec, &buf));
	lk_record_release(&rec);

	parse_one("; header title\nx: 1\n", &rec);
	assert_string_equal(lk_record_title(&rec, &buf), "header title");
	lk_record_release(&rec);
	lk_strbuf_release(&buf);
}

static void test_copy(void **state)
{
	struct lk_record a = LK_RECORD_INIT, b = LK_RECORD_INIT;
	char *ta, *tb;
	(void)state;

	parse_one("; c\n###\nx: 1\n", &a);
	lk_record_add_line(&b, "junk", 0);
	lk_record_copy(&b, &a);
	lk_record_set(&a, "x", "2");
	assert_string_equal(lk_record_get(&b, "x"), "1");
	assert_string_equal(b.source, "test.txt");
	assert_int_equal(b.number, 1);
	lk_record_set(&a, "x", "1");
	ta = record_text(&a);
	tb = record_text(&b);
	assert_string_equal(ta, tb);
	free(ta);
	free(tb);
	lk_record_release(&a);
	lk_record_release(&b);
}

/* ---------------------------------------------------------------- writers */

static void test_format_parse(void **state)
{
	enum lk_format f = LK_FORMAT_TEXT;
	(void)state;

	assert_int_equal(lk_format_parse("json", &f), 0);
	assert_int_equal(f, LK_FORMAT_JSON);
	assert_int_equal(lk_format_parse("tsv", &f), 0);
	assert_int_equal(f, LK_FORMAT_TSV);
	assert_int_equal(lk_format_parse("text", &f), 0);
	assert_int_equal(f, LK_FORMAT_TEXT);
	assert_int_equal(lk_format_parse("xml", &f), -1);
	assert_int_equal(lk_format_parse("", &f), -1);
}

static void test_json_numbers(void **state)
{
	const char *in = "###\na: 12\nb: -3\nc: 0.5\nd: 1e3\ne: 01\nf: +1\n"
			 "g: .5\nh: 0\ni: 1.\nj: 2E-7 \nk: -\nl: 1e\nm:\n";
	char *out;
	(void)state;

	out = format(LK_FORMAT_JSON, NULL, in);
	assert_string_equal(out, "{\"record\":1,\"title\":null,\"grid\":\"###\","
			    "\"comments\":[],\"a\":12,\"b\":-3,\"c\":0.5,\"d\":1e3,"
			    "\"e\":\"01\",\"f\":\"+1\",\"g\":\".5\",\"h\":0,"
			    "\"i\":\"1.\",\"j\":2E-7,\"k\":\"-\",\"l\":\"1e\","
			    "\"m\":\"\"}\n");
	free(out);
}

static void test_json_escaping(void **state)
{
	const char *in = ";  say \"hi\" \\ \x01 caf\xc3\xa9 \xff\n"
			 "title: T\tab\n"
			 " #\\# \n#\"#\n"
			 "title: second\nTitle: Third\ngrid: x\nRecord: 5\n"
			 "n: 1\nN: 2\n";
	char *out;
	(void)state;

	out = format(LK_FORMAT_JSON, NULL, in);
	assert_string_equal(out,
			    "{\"record\":1,\"title\":\"Third\","
			    "\"grid\":\" #\\\\# \\n#\\\"#\","
			    "\"comments\":[\"say \\\"hi\\\" \\\\ \\u0001 caf\xc3\xa9 \\ufffd\"],"
			    "\"N\":2}\n");
	free(out);
}

static void test_tsv(void **state)
{
	const char *const extra[] = { "moves", "Pushes", "solver", NULL };
	const char *in = "; pack header\nauthor: a\n\n"
			 "; Level 1\n###\nPushes: 4\nnote: a\tb \n\n"
			 "###\nmoves: 9\nnote: n\nother: o\n\n"
			 "title: Third\n#\n";
	char *out;
	(void)state;

	/* The command's own fields come first, in the command's order, all of
	 * them whatever the first level holds (an unsolvable level has no
	 * moves: the column is still there); the first level's others follow,
	 * and a field of later levels only (other) has no column. */
	out = format(LK_FORMAT_TSV, extra, in);
	assert_string_equal(out,
			    "record\ttitle\tmoves\tPushes\tsolver\tnote\n"
			    "2\tLevel 1\t\t4\t\ta b\n"
			    "3\t\t9\t\t\tn\n"
			    "4\tThird\t\t\t\t\n");
	free(out);
	/* own fields keep their places whatever order the input has */
	out = format(LK_FORMAT_TSV, extra, "###\nnote: x\nPushes: 2\nmoves: 5\n");
	assert_string_equal(out, "record\ttitle\tmoves\tPushes\tsolver\tnote\n1\t\t5\t2\t\tx\n");
	free(out);
	/* always-columns come last, there even when the first level lacks
	 * them, also when they are among the own fields */
	{
		const char *const always[] = { "limit", NULL };
		const char *const own[] = { "moves", "limit", "solution", NULL };
		struct lk_record rec = LK_RECORD_INIT;
		struct lk_writer w;
		struct lk_strbuf got = LK_STRBUF_INIT;
		parse_one("###\nmoves: 3\nnote: n\n", &rec);
		lk_writer_init(&w, NULL, LK_FORMAT_TSV, own);
		w.always_columns = always;
		lk_writer_format(&w, &rec, &got);
		assert_string_equal(got.buf, "record\ttitle\tmoves\tsolution\tnote\tlimit\n1\t\t3\t\tn\t\n");
		lk_writer_release(&w);
		/* --fields checked: the own fields, the always ones, record,
		 * title and the level's fields exist; a misspelt name does not,
		 * and the message lists what does */
		struct lk_strbuf msg = LK_STRBUF_INIT;
		lk_writer_init(&w, NULL, LK_FORMAT_TSV, own);
		w.always_columns = always;
		assert_int_equal(lk_writer_choose_columns(&w, "record,Title,solution,limit,NOTE", &msg), 0);
		assert_int_equal(lk_writer_check_columns(&w, &rec, &msg), 0);
		lk_writer_release(&w);
		lk_writer_init(&w, NULL, LK_FORMAT_TSV, own);
		assert_int_equal(lk_writer_choose_columns(&w, "title,mvoes", &msg), 0);
		assert_int_equal(lk_writer_check_columns(&w, &rec, &msg), -1);
		assert_string_equal(msg.buf, "--fields: no field 'mvoes' (the fields here: record, title, "
					     "moves, limit, solution, note)");
		lk_writer_release(&w);
		lk_strbuf_release(&msg);
		/* --fields: exactly the chosen columns */
		struct lk_strbuf err = LK_STRBUF_INIT;
		lk_strbuf_reset(&got);
		lk_writer_init(&w, NULL, LK_FORMAT_TSV, extra);
		assert_int_equal(lk_writer_choose_columns(&w, "moves,title,nothing", &err), 0);
		lk_writer_format(&w, &rec, &got);
		assert_string_equal(got.buf, "moves\ttitle\tnothing\n3\t\t\n");
		lk_writer_release(&w);
		lk_writer_init(&w, NULL, LK_FORMAT_TSV, extra);
		assert_int_equal(lk_writer_choose_columns(&w, "moves,,x", &err), -1);
		assert_non_null(strstr(err.buf, "not a field name"));
		lk_strbuf_reset(&err);
		assert_int_equal(lk_writer_choose_columns(&w, "a b", &err), -1);
		lk_writer_release(&w);
		lk_strbuf_release(&err);
		lk_strbuf_release(&got);
		lk_record_release(&rec);
	}

	out = format(LK_FORMAT_TSV, NULL, "; no levels\n");
	assert_string_equal(out, "");
	free(out);
}

static void test_writer_put(void **state)
{
	FILE *fp = tmpfile();
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_writer w;
	char got[256];
	size_t n;
	(void)state;

	assert_non_null(fp);
	parse_one("; a\n###\nx: 1\n", &rec);
	lk_writer_init(&w, fp, LK_FORMAT_TEXT, NULL);
	assert_int_equal(lk_writer_put(&w, &rec), 0);
	assert_int_equal(lk_writer_put(&w, &rec), 0);
	lk_writer_release(&w);
	rewind(fp);
	n = fread(got, 1, sizeof(got) - 1, fp);
	got[n] = '\0';
	assert_string_equal(got, "; a\n###\nx: 1\n\n; a\n###\nx: 1\n\n");
	fclose(fp);
	lk_record_release(&rec);
}

/* ------------------------------------------------------------- round trip */

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	struct lk_strbuf sb = LK_STRBUF_INIT;
	char chunk[8192];
	size_t n;

	assert_non_null(fp);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		lk_strbuf_add(&sb, chunk, n);
	fclose(fp);
	return lk_strbuf_detach(&sb, len);
}

static void round_trip(const char *path)
{
	struct lk_reader r;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf out = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
	size_t len, line = 0, records = 0;
	char *orig = slurp(path, &len);
	int rc;

	assert_int_equal(lk_reader_open(&r, path, &err), 0);
	while ((rc = lk_reader_next(&r, &rec, &err, &line)) != 0) {
		if (rc != 1)
			fail_msg("%s:%zu: %s", path, line, err.buf);
		records++;
		assert_int_equal(rec.number, records);
		lk_record_write(&rec, &out);
		lk_strbuf_addch(&out, '\n');
	}
	if (out.len != len || memcmp(out.buf, orig, len) != 0)
		fail_msg("%s: round trip differs", path);
	printf("  %s: %zu records round-tripped\n", path, records);
	lk_reader_close(&r);
	lk_record_release(&rec);
	lk_strbuf_release(&out);
	lk_strbuf_release(&err);
	free(orig);
}

static void test_round_trip_packs(void **state)
{
	const char *data = getenv("LEVELKIT_DATA");
	struct lk_strbuf dir = LK_STRBUF_INIT, path = LK_STRBUF_INIT;
	struct dirent *de;
	size_t packs = 0;
	DIR *d;
	(void)state;

	lk_strbuf_addf(&dir, "%s/sokoban", data && *data ? data : "../shared/data");
	d = opendir(dir.buf);
	if (!d) {
		printf("  skipping: %s not found (set LEVELKIT_DATA)\n", dir.buf);
		lk_strbuf_release(&dir);
		skip();
	}
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		if (n < 4 || strcmp(de->d_name + n - 4, ".xsb") != 0)
			continue;
		lk_strbuf_reset(&path);
		lk_strbuf_addf(&path, "%s/%s", dir.buf, de->d_name);
		round_trip(path.buf);
		packs++;
	}
	closedir(d);
	lk_strbuf_release(&dir);
	lk_strbuf_release(&path);
	if (packs == 0)
		printf("  no .xsb packs found\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_read_blank_lines),
		cmocka_unit_test(test_read_crlf_and_no_final_newline),
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
