/*
 * record_edit.c - the record tests of editing, the writers and the round
 * trip (run by test_record.c's main): fields got, set and unset,
 * duplicates, grids set, titles and games, copies; each output format
 * parsed back, JSON numbers and escaping, TSV columns, the writer's put;
 * every shared Sokoban pack read and written back byte for byte.
 */
#define _POSIX_C_SOURCE 200809L /* opendir/readdir for the pack round trip */

#include "record_fixture.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- editing */

void test_get_set_unset(void **state)
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

void test_duplicate_fields(void **state)
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

void test_set_grid(void **state)
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

void test_title_and_game(void **state)
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

void test_copy(void **state)
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

void test_format_parse(void **state)
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

void test_json_numbers(void **state)
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

void test_json_escaping(void **state)
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

void test_tsv(void **state)
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

void test_writer_put(void **state)
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

void test_round_trip_packs(void **state)
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
