/*
 * packs_errors.c - the pack tests of broken packs and of the layout rules
 * (run by test_packs.c's main): each bad record reported at its line with
 * its lines kept verbatim and the rest read; SLC errors on one line; the
 * rules that tell a layout's records apart, run-length decoding, and
 * solutions in groups replayed.
 */
#include "packs_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "test_support.h"

/* ------------------------------------------------------- broken packs */

/* Lines first..last (1-based) of a file, each followed by '\n'. */
static char *source_lines(const char *text, size_t first, size_t last)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	size_t line = 1;

	for (const char *p = text; *p; line++) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (line >= first && line <= last) {
			lk_strbuf_add(&sb, p, n);
			lk_strbuf_addch(&sb, '\n');
		}
		p += n + (nl ? 1 : 0);
	}
	return lk_strbuf_detach(&sb, NULL);
}

struct expected_error {
	size_t record, line;
	const char *msg;
	size_t first, last;   /* the source lines the record keeps */
};

static void expect_errors(const char *name, const struct expected_error *want, size_t nwant,
			  size_t good)
{
	char *path = pack_path(name);
	char *text = slurp(path, NULL);
	struct lk_reader r;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0, k = 0, levels = 0;
	int rc;

	assert_int_equal(lk_reader_open(&r, path, &err), 0);
	while ((rc = lk_reader_next(&r, &rec, &err, &line)) != 0) {
		if (rc == 1) {
			struct lk_level_options opt = { .metric = NULL };
			size_t bad = 0;
			if (lk_record_grid(&rec, NULL)) {
				struct lk_level *l = lk_level_load(&rec, &opt, &err, &bad);
				if (l) {
					levels++;
					lk_level_free(l);
					continue;
				}
				line = bad;
			} else {
				continue;
			}
		}
		if (k == nwant)
			fail_msg("%s: unexpected error at line %zu: %s", name, line, err.buf);
		assert_int_equal(rec.number, want[k].record);
		if (line != want[k].line || !strstr(err.buf, want[k].msg))
			fail_msg("%s: '%s' at line %zu, expected '%s' at %zu", name, err.buf, line,
				 want[k].msg, want[k].line);
		if (rc < 0) {
			/* what cannot be read is kept as it was */
			char *got = text_of(&rec), *src = source_lines(text, want[k].first,
									want[k].last);
			assert_string_equal(got, src);
			free(got);
			free(src);
		}
		k++;
	}
	assert_int_equal(k, nwant);
	assert_int_equal(levels, good);
	lk_reader_close(&r);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	free(text);
	free(path);
}

void test_bad_sok(void **state)
{
	static const struct expected_error want[] = {
		{ 3, 13, "unknown sokoban cell 'x' in column 4", 0, 0 },
		{ 4, 20, "grid rows interrupted by a note line", 16, 20 },
	};
	(void)state;
	expect_errors("bad.sok", want, 2, 2);
}

void test_bad_slc(void **state)
{
	static const struct expected_error want[] = {
		{ 3, 14, "unknown entity '&nbsp;'", 12, 16 },
		{ 4, 19, "expected </L>", 17, 21 },
		{ 6, 27, "<Level> is not closed", 27, 29 },
	};
	(void)state;
	expect_errors("bad.slc", want, 3, 3);
}

/* A collection on one line with many broken levels: each malformed record
 * once held that whole line, so 20000 errors on a 640 KB line made 12 GB
 * of records (found by tests/fuzz/run.sh --grow).  The line is held once, by the
 * first; the others hold their message only. */
void test_slc_errors_on_one_line(void **state)
{
	static const char head[] = "<SokobanLevels><LevelCollection>";
	static const char level[] = "<Level Id=\"x\"><L>#@$.#</Row></Level>";
	static const char tail[] = "<Level Id=\"ok\"><L>#@$.#</L></Level></LevelCollection>"
				   "</SokobanLevels>\n";
	const size_t n = 20000;
	struct lk_strbuf in = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
	struct lk_record rec = LK_RECORD_INIT;
	struct src s;
	size_t records = 0, errors = 0, lines = 0, line;
	int rc;
	(void)state;

	lk_strbuf_addstr(&in, head);
	for (size_t i = 0; i < n; i++)
		lk_strbuf_addstr(&in, level);
	lk_strbuf_addstr(&in, tail);
	src_open(&s, in.buf, in.len, "one-line.slc");
	while ((rc = lk_reader_next(&s.r, &rec, &err, &line)) != 0) {
		records++;
		lines += rec.nlines;
		if (rc == 1)
			continue;
		assert_int_equal(rc, -1);
		assert_int_equal(line, 1);
		assert_string_equal(err.buf, "expected </L>");
		/* the first holds the line, verbatim; the others nothing */
		if (errors++ == 0) {
			assert_int_equal(rec.nlines, 1);
			assert_int_equal(strlen(rec.lines[0].text), in.len - 1);
		} else {
			assert_int_equal(rec.nlines, 0);
		}
	}
	assert_int_equal(errors, n);
	/* the errors and the good level (its title field and row); the
	 * collection has no title or attributes, so no header record */
	assert_int_equal(records, n + 1);
	assert_int_equal(lines, 1 + 2);
	src_close(&s);
	lk_record_release(&rec);
	lk_strbuf_release(&in);
	lk_strbuf_release(&err);
}

/* -------------------------------------------------------- layout rules */

void test_layout_rules(void **state)
{
	struct lk_record recs[8];
	int st[8];
	size_t n;
	struct lk_strbuf buf = LK_STRBUF_INIT;
	char *t;
	(void)state;

	/* A title line just above the board; rows with a bad cell stay rows. */
	n = parse_all("Level 1\n#####\n#@$.#\nx####\n", recs, 8, st);
	assert_int_equal(n, 1);
	assert_int_equal(recs[0].lines[0].kind, LK_LINE_TITLE);
	assert_int_equal(recs[0].lines[3].kind, LK_LINE_GRID);
	assert_string_equal(lk_record_title(&recs[0], &buf), "Level 1");
	lk_record_release(&recs[0]);

	/* Other games' rows may be any letters: their records are as read. */
	n = parse_all("game: fruit\nab\n#a#\n", recs, 8, st);
	assert_int_equal(n, 1);
	assert_int_equal(recs[0].lines[1].kind, LK_LINE_GRID);
	assert_int_equal(lk_record_grid(&recs[0], NULL), 2);
	lk_record_release(&recs[0]);

	/* "; N" comments and title lines part levels without blank lines;
	 * "; oops" (no number) does not. */
	n = parse_all("; 1\n###\n#@#\n; 2\n###\n3\n#.#\n; oops\n###\n", recs, 8, st);
	assert_int_equal(n, 3);
	assert_int_equal(st[0], 1);
	assert_int_equal(st[1], 1);
	assert_int_equal(st[2], -1);
	assert_string_equal(lk_record_title(&recs[2], &buf), "3");
	for (size_t i = 0; i < n; i++)
		lk_record_release(&recs[i]);

	/* A lone title line, then the board after a blank line: one level,
	 * written back as it was. */
	n = parse_all("Level 1\n \n#####\n#@$.#\n#####\n", recs, 8, st);
	assert_int_equal(n, 1);
	assert_int_equal(recs[0].lines[1].kind, LK_LINE_BLANK);
	t = text_of(&recs[0]);
	assert_string_equal(t, "Level 1\n \n#####\n#@$.#\n#####\n");
	free(t);
	lk_record_release(&recs[0]);

	/* JSoko: notes and the solution after blank lines join the level. */
	n = parse_all("Level 1\n\n#####\n#@$.#\n#####\n\nAuthor: X\n\nSolution 1/1\nR\n\n"
		      "Level 2\n\n#####\n#@$.#\n#####\n", recs, 8, st);
	assert_int_equal(n, 2);
	assert_string_equal(lk_record_get(&recs[0], "author"), "X");
	assert_string_equal(lk_record_get(&recs[0], "solution"), "R");
	assert_string_equal(lk_record_title(&recs[1], &buf), "Level 2");
	/* setting the solution replaces the whole section */
	lk_record_set(&recs[0], "solution", "R");
	t = text_of(&recs[0]);
	assert_string_equal(t, "Level 1\n\n#####\n#@$.#\n#####\n\nAuthor: X\n\nSolution: R\n");
	free(t);
	for (size_t i = 0; i < n; i++)
		lk_record_release(&recs[i]);

	/* ...but an xsb level stays apart from a header after it. */
	n = parse_all("; 1\n#####\n#@$.#\n#####\n\nauthor: X\n", recs, 8, st);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++)
		lk_record_release(&recs[i]);

	/* A Comment section spans blank lines; without its end it is an
	 * ordinary field. */
	n = parse_all("#####\n#@$.#\n#####\nComment:\nline 1\n\nline 3\nComment-End:\n", recs, 8,
		      st);
	assert_int_equal(n, 1);
	assert_string_equal(lk_record_get(&recs[0], "comment"), "line 1\n\nline 3");
	lk_record_release(&recs[0]);
	n = parse_all("#####\n#@$.#\n#####\nComment:\nline 1\n\nline 3\n", recs, 8, st);
	/* (the text after the blank line is a note of the same level) */
	assert_int_equal(n, 1);
	assert_string_equal(lk_record_get(&recs[0], "comment"), "");
	for (size_t i = 0; i < n; i++)
		lk_record_release(&recs[i]);

	/* CR line ends, a byte order mark, "::" notes. */
	n = parse_all("\xef\xbb\xbf:: note\r; 1\r#####\r#@$.#\r#####\r", recs, 8, st);
	assert_int_equal(n, 1);
	assert_true(recs[0].bom);
	assert_int_equal(recs[0].lines[0].kind, LK_LINE_TEXT);
	assert_int_equal(lk_record_grid(&recs[0], NULL), 3);
	t = text_of(&recs[0]);
	assert_string_equal(t, "\xef\xbb\xbf:: note\n; 1\n#####\n#@$.#\n#####\n");
	free(t);
	lk_record_release(&recs[0]);
	lk_strbuf_release(&buf);
}

static void expect_decode(const char *in, const char *want)
{
	struct lk_strbuf out = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
	int rc = lk_sok_decode_line(in, &out, &err);

	if (want) {
		if (rc < 0)
			fail_msg("'%s': %s", in, err.buf);
		assert_string_equal(out.buf, want);
	} else {
		assert_int_equal(rc, -1);
		assert_true(err.len > 0);
		assert_int_equal(out.len, 0);
	}
	lk_strbuf_release(&out);
	lk_strbuf_release(&err);
}

void test_decode_line(void **state)
{
	(void)state;
	expect_decode("####", "####\n");
	expect_decode("4#|#@$.#", "####\n#@$.#\n");
	/* the SOK 0.17 examples */
	expect_decode("3#4-p.#", "###----@.#\n");
	expect_decode("2(3(#-)#)", "#-#-#-##-#-#-#\n");
	expect_decode("--3#|3#-#|#pb.#|5#", "--###\n###-#\n#@$.#\n#####\n");
	expect_decode("#PB#", "#+*#\n");
	/* tabs to the next multiple of 8, counted from the row's start */
	expect_decode("\t#", "        #\n");
	expect_decode("#.\t#|\t#", "#.      #\n        #\n");
	expect_decode("#\r", "#\n");
	/* mistakes */
	expect_decode("3", NULL);
	expect_decode("#3|#", NULL);
	expect_decode("2()", NULL);
	expect_decode("2(#", NULL);
	expect_decode("#)", NULL);
	expect_decode("0#", NULL);
	expect_decode("99999#", NULL);
	expect_decode("9999(9999(9999(#)))", NULL);
	expect_decode("1(1(1(1(1(1(1(1(1(#)))))))))", NULL);
	expect_decode("9(9(9(9(9(9(9(#)))))))", NULL);
}

/* Solutions as packs write them: run lengths, groups, several lines. */
void test_replay_groups(void **state)
{
	static const struct { const char *sol; int rc; bool solved; unsigned long moves; } cases[] = {
		{ "3R", 0, true, 3 },
		{ "3(R)", 0, true, 3 },
		{ "(R)2(R)", 0, true, 3 },
		{ "R 2(lr) 2R", 0, true, 7 },
		{ "2(R\nR)", -1, false, 0 },     /* the fourth push hits the wall */
		{ "2(RL)", -1, false, 0 },       /* a pull written as a push */
		{ "3(", -1, false, 0 },
		{ "2()", -1, false, 0 },
		{ "(x)", -1, false, 0 },
	};
	struct lk_record rec[2];
	int st[2];
	struct lk_level_options opt = { .metric = NULL };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *l;
	(void)state;

	assert_int_equal(parse_all("#######\n#@$  .#\n#######\n", rec, 2, st), 1);
	l = lk_level_load(&rec[0], &opt, &err, &line);
	assert_non_null(l);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct lk_solution_stats stats;
		bool solved = false;
		int rc;
		lk_strbuf_reset(&err);
		rc = replay_stats(l, cases[i].sol, &stats, &solved, &err);
		if (rc != cases[i].rc)
			fail_msg("'%s': %d (%s)", cases[i].sol, rc, err.buf);
		if (rc == 0) {
			assert_int_equal(solved, cases[i].solved);
			assert_int_equal(stats.moves, cases[i].moves);
		} else {
			assert_true(err.len > 0);
		}
	}
	lk_level_free(l);
	lk_record_release(&rec[0]);
	lk_strbuf_release(&err);
}
