/*
 * test_packs.c - the Sokoban pack layouts the reader takes (record_read.c,
 * record_pack.c, record_slc.c) and the .sok writer (record_sok.c).
 *
 * The fixtures in levels/packs/ hold the same twelve levels (plain.xsb) in
 * the layouts people's packs use; each must read as the same levels, with
 * the same titles and solutions that replay.  Broken packs must report
 * each bad record at its line, keep its lines verbatim, and read the rest.
 * A fuzz smoke test feeds mangled fixtures through everything.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/rng.h"
#include "test_support.h"

#ifndef PACKS_DIR
#define PACKS_DIR "levels/packs"
#endif

/* ---------------------------------------------------------------- helpers */

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	struct lk_strbuf sb = LK_STRBUF_INIT;
	char chunk[8192];
	size_t n;

	if (!fp)
		fail_msg("cannot open %s", path);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		lk_strbuf_add(&sb, chunk, n);
	fclose(fp);
	return lk_strbuf_detach(&sb, len);
}

static char *pack_path(const char *name)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_strbuf_addf(&sb, "%s/%s", PACKS_DIR, name);
	return lk_strbuf_detach(&sb, NULL);
}

/* A reader over bytes in memory. */
struct src {
	FILE *fp;
	struct lk_reader r;
};

static void src_open(struct src *s, const char *data, size_t len, const char *name)
{
	s->fp = tmpfile();
	assert_non_null(s->fp);
	if (len)
		assert_int_equal(fwrite(data, 1, len, s->fp), len);
	rewind(s->fp);
	lk_reader_init_fp(&s->r, s->fp, name);
}

static void src_close(struct src *s)
{
	lk_reader_close(&s->r);
	fclose(s->fp);
}

/* What a level is, whatever its layout: its start drawn by the game with
 * the blank columns and rows around it left out, its title, its solution. */
struct level {
	char *drawing;
	char *title;
	char *solution;
	bool solved;          /* the solution replays to the goal */
};

struct pack {
	struct level *levels;
	size_t nlevels, alloc;
	size_t records, errors;
};

static char *trimmed_drawing(const char *rows)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	size_t indent = (size_t)-1;
	const char *p;

	for (p = rows; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = 0;
		while (p[n] == ' ')
			n++;
		if (p + n < nl && n < indent)
			indent = n;
		p = nl + 1;
	}
	for (p = rows; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = (size_t)(nl - p);
		if (len > indent)
			lk_strbuf_add(&sb, p + indent, len - indent);
		if (len > indent || sb.len)
			lk_strbuf_addch(&sb, '\n');
		p = nl + 1;
	}
	while (sb.len >= 2 && sb.buf[sb.len - 1] == '\n' && sb.buf[sb.len - 2] == '\n')
		sb.buf[--sb.len] = '\0';
	return lk_strbuf_detach(&sb, NULL);
}

static void add_level(struct pack *pk, const struct lk_record *rec)
{
	struct lk_level_options opt = { .metric = NULL };
	struct lk_strbuf err = LK_STRBUF_INIT, rows = LK_STRBUF_INIT, tbuf = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *l = lk_level_load(rec, &opt, &err, &line);
	struct level *lv;
	const char *t, *sol;
	unsigned char *key;

	if (!l)
		fail_msg("%s:%zu: %s", rec->source, line, err.buf);
	key = calloc(1, l->key_size);
	assert_non_null(key);
	l->game->initial_state(l, key);
	l->game->write_state(l, key, &rows);
	LK_ALLOC_GROW(pk->levels, pk->nlevels + 1, pk->alloc);
	lv = &pk->levels[pk->nlevels++];
	lv->drawing = trimmed_drawing(rows.buf);
	t = lk_record_title(rec, &tbuf);
	lv->title = t ? strdup(t) : NULL;
	sol = lk_record_get(rec, "solution");
	lv->solution = sol ? strdup(sol) : NULL;
	lv->solved = false;
	if (sol) {
		struct lk_solution_stats st;
		lk_strbuf_reset(&err);
		if (replay_stats(l, sol, &st, &lv->solved, &err) < 0)
			fail_msg("%s: solution of '%s' does not replay: %s", rec->source, t, err.buf);
	}
	free(key);
	lk_level_free(l);
	lk_strbuf_release(&err);
	lk_strbuf_release(&rows);
	lk_strbuf_release(&tbuf);
}

/* Read a stream; every record must be well formed unless errors are
 * allowed (then counted). */
static void read_pack(struct lk_reader *r, struct pack *pk, bool errors_ok)
{
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	int rc;

	memset(pk, 0, sizeof(*pk));
	while ((rc = lk_reader_next(r, &rec, &err, &line)) != 0) {
		assert_true(rc == 1 || rc == -1);
		pk->records++;
		assert_int_equal(rec.number, pk->records);
		if (rc < 0) {
			if (!errors_ok)
				fail_msg("%s:%zu: %s", r->name, line, err.buf);
			pk->errors++;
			continue;
		}
		if (lk_record_grid(&rec, NULL))
			add_level(pk, &rec);
	}
	lk_record_release(&rec);
	lk_strbuf_release(&err);
}

static void read_file(const char *name, struct pack *pk)
{
	char *path = pack_path(name);
	struct lk_reader r;
	struct lk_strbuf err = LK_STRBUF_INIT;

	assert_int_equal(lk_reader_open(&r, path, &err), 0);
	read_pack(&r, pk, false);
	assert_int_equal(lk_reader_is_xml(&r), strstr(name, ".slc") != NULL);
	lk_reader_close(&r);
	lk_strbuf_release(&err);
	free(path);
}

static void read_text(const char *text, size_t len, struct pack *pk, bool errors_ok)
{
	struct src s;
	src_open(&s, text, len, "mem");
	read_pack(&s.r, pk, errors_ok);
	src_close(&s);
}

static void pack_release(struct pack *pk)
{
	for (size_t i = 0; i < pk->nlevels; i++) {
		free(pk->levels[i].drawing);
		free(pk->levels[i].title);
		free(pk->levels[i].solution);
	}
	free(pk->levels);
	memset(pk, 0, sizeof(*pk));
}

static void expect_same_levels(const struct pack *a, const struct pack *b, const char *what)
{
	if (a->nlevels != b->nlevels)
		fail_msg("%s: %zu levels, expected %zu", what, b->nlevels, a->nlevels);
	for (size_t i = 0; i < a->nlevels; i++)
		if (strcmp(a->levels[i].drawing, b->levels[i].drawing) != 0)
			fail_msg("%s: level %zu differs:\n%s\nexpected:\n%s", what, i + 1,
				 b->levels[i].drawing, a->levels[i].drawing);
}

static void expect_same_titles(const struct pack *a, const struct pack *b, const char *what)
{
	for (size_t i = 0; i < a->nlevels && i < b->nlevels; i++) {
		const char *x = a->levels[i].title, *y = b->levels[i].title;
		if (!x || !y || strcmp(x, y) != 0)
			fail_msg("%s: level %zu is titled '%s', expected '%s'", what, i + 1,
				 y ? y : "(none)", x ? x : "(none)");
	}
}

/* Parse text that must give exactly the given number of records; the
 * records are left in recs (the caller releases them). */
static size_t parse_all(const char *text, struct lk_record *recs, size_t max, int *status)
{
	struct src s;
	size_t n = 0;
	int rc;

	src_open(&s, text, strlen(text), "t.sok");
	for (;;) {
		assert_true(n < max);
		lk_record_init(&recs[n]);
		rc = lk_reader_next(&s.r, &recs[n], NULL, NULL);
		if (rc == 0)
			break;
		status[n++] = rc;
	}
	src_close(&s);
	return n;
}

static char *text_of(const struct lk_record *rec)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_record_write(rec, &sb);
	return lk_strbuf_detach(&sb, NULL);
}

/* ------------------------------------------------------- the fixtures */

static void test_layouts_read_as_plain(void **state)
{
	static const char *const layouts[] = {
		"yasc.sok", "jsoko.sok", "titles.txt", "nosep.xsb", "mac-tabs.txt", "rle.txt",
		"collection.slc"
	};
	struct pack plain, pk;
	(void)state;

	read_file("plain.xsb", &plain);
	assert_int_equal(plain.nlevels, 12);
	assert_string_equal(plain.levels[0].title, "Microban 1");
	for (size_t i = 0; i < sizeof(layouts) / sizeof(*layouts); i++) {
		read_file(layouts[i], &pk);
		expect_same_levels(&plain, &pk, layouts[i]);
		if (strcmp(layouts[i], "titles.txt") != 0)
			expect_same_titles(&plain, &pk, layouts[i]);
		pack_release(&pk);
	}
	pack_release(&plain);
}

/* titles.txt names its levels by title lines of every common kind. */
static void test_title_lines(void **state)
{
	static const char *const names[] = {
		"1", "Level 2", "Level 3 - Wall to wall", "4", "Level 5", "Microban 6",
		"7 (Skinner)", "Level 8", "Boxoban 0", "Boxoban 1", "Level 11", "Level 12 - Last"
	};
	struct pack pk;
	(void)state;

	read_file("titles.txt", &pk);
	assert_int_equal(pk.nlevels, 12);
	/* the header comment has no blank line after it: it is level 1's */
	assert_int_equal(pk.records, 12);
	for (size_t i = 0; i < 12; i++)
		assert_string_equal(pk.levels[i].title, names[i]);
	pack_release(&pk);
}

static void test_solutions_replay(void **state)
{
	static const struct { const char *name; size_t solved; } packs[] = {
		{ "yasc.sok", 12 }, { "jsoko.sok", 11 }, { "rle.txt", 12 }
	};
	(void)state;

	for (size_t i = 0; i < sizeof(packs) / sizeof(*packs); i++) {
		struct pack pk;
		size_t solved = 0;
		read_file(packs[i].name, &pk);
		for (size_t k = 0; k < pk.nlevels; k++)
			solved += pk.levels[k].solved;
		if (solved != packs[i].solved)
			fail_msg("%s: %zu solutions replay, expected %zu", packs[i].name, solved,
				 packs[i].solved);
		pack_release(&pk);
	}
}

/* Text output keeps every line of the input, in order: only the blank
 * lines between records change. */
static void non_blank_lines(const char *text, size_t len, struct lk_strbuf *out)
{
	size_t start = 0;

	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		start = 3;
	for (size_t i = start; i <= len; i++) {
		if (i < len && text[i] != '\n' && text[i] != '\r')
			continue;
		bool blank = true;
		for (size_t k = start; k < i; k++)
			blank &= text[k] == ' ' || text[k] == '\t';
		if (!blank) {
			lk_strbuf_add(out, text + start, i - start);
			lk_strbuf_addch(out, '\n');
		}
		if (i + 1 < len && text[i] == '\r' && text[i + 1] == '\n')
			i++;
		start = i + 1;
	}
}

static void test_text_output_keeps_every_line(void **state)
{
	static const char *const files[] = {
		"yasc.sok", "jsoko.sok", "titles.txt", "nosep.xsb", "mac-tabs.txt", "rle.txt",
		"bad.sok"
	};
	(void)state;

	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		char *path = pack_path(files[i]);
		size_t len;
		char *orig = slurp(path, &len);
		struct lk_reader r;
		struct lk_record rec = LK_RECORD_INIT;
		struct lk_strbuf out = LK_STRBUF_INIT, a = LK_STRBUF_INIT, b = LK_STRBUF_INIT;

		assert_int_equal(lk_reader_open(&r, path, NULL), 0);
		while (lk_reader_next(&r, &rec, NULL, NULL) != 0) {
			lk_record_write(&rec, &out);
			lk_strbuf_addch(&out, '\n');
		}
		non_blank_lines(orig, len, &a);
		non_blank_lines(out.buf, out.len, &b);
		if (strcmp(a.buf, b.buf) != 0)
			fail_msg("%s: text output lost or changed lines:\n%s", files[i], b.buf);
		/* the byte order mark is written back */
		assert_int_equal(len >= 3 && memcmp(orig, "\xef\xbb\xbf", 3) == 0,
				 out.len >= 3 && memcmp(out.buf, "\xef\xbb\xbf", 3) == 0);
		lk_reader_close(&r);
		lk_record_release(&rec);
		lk_strbuf_release(&out);
		lk_strbuf_release(&a);
		lk_strbuf_release(&b);
		free(orig);
		free(path);
	}
}

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

static void test_bad_sok(void **state)
{
	static const struct expected_error want[] = {
		{ 3, 13, "unknown sokoban cell 'x' in column 4", 0, 0 },
		{ 4, 20, "grid rows interrupted by a note line", 16, 20 },
	};
	(void)state;
	expect_errors("bad.sok", want, 2, 2);
}

static void test_bad_slc(void **state)
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
 * of records (found by fuzz/run.sh --grow).  The line is held once, by the
 * first; the others hold their message only. */
static void test_slc_errors_on_one_line(void **state)
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

static void test_layout_rules(void **state)
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

static void test_decode_line(void **state)
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
static void test_replay_groups(void **state)
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

/* ---------------------------------------------------------- the writer */

static char *write_pack(const char *name, enum lk_format fmt)
{
	char *path = pack_path(name);
	struct lk_reader r;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_writer w;
	struct lk_strbuf out = LK_STRBUF_INIT;

	assert_int_equal(lk_reader_open(&r, path, NULL), 0);
	lk_writer_init(&w, NULL, fmt, NULL);
	while (lk_reader_next(&r, &rec, NULL, NULL) == 1)
		lk_writer_format(&w, &rec, &out);
	lk_writer_release(&w);
	lk_reader_close(&r);
	lk_record_release(&rec);
	free(path);
	return lk_strbuf_detach(&out, NULL);
}

/* Digits in the lines after "Solution" lines. */
static size_t solution_digits(const char *sok)
{
	size_t n = 0;

	for (const char *p = strstr(sok, "\nSolution\n"); p; p = strstr(p + 1, "\nSolution\n"))
		for (const char *q = p + 10; *q && *q != '\n'; q++)
			n += *q >= '0' && *q <= '9';
	return n;
}

static void test_sok_round_trip(void **state)
{
	static const char *const inputs[] = { "yasc.sok", "rle.txt", "collection.slc", "titles.txt" };
	(void)state;

	for (size_t i = 0; i < sizeof(inputs) / sizeof(*inputs); i++) {
		for (int rle = 0; rle < 2; rle++) {
			struct pack a, b;
			char *sok = write_pack(inputs[i], rle ? LK_FORMAT_SOK_RLE : LK_FORMAT_SOK);
			read_file(inputs[i], &a);
			read_text(sok, strlen(sok), &b, false);
			expect_same_levels(&a, &b, inputs[i]);
			expect_same_titles(&a, &b, inputs[i]);
			for (size_t k = 0; k < a.nlevels; k++) {
				assert_int_equal(a.levels[k].solution != NULL,
						 b.levels[k].solution != NULL);
				assert_int_equal(a.levels[k].solved, b.levels[k].solved);
			}
			/* sok-rle writes run lengths, sok none */
			if (strcmp(inputs[i], "yasc.sok") == 0)
				assert_int_equal(solution_digits(sok) > 0, rle);
			pack_release(&a);
			pack_release(&b);
			free(sok);
		}
	}
}

/* Every Microban level through the writer and back. */
static void test_sok_round_trip_microban(void **state)
{
	const char *data = getenv("LEVELKIT_DATA");
	struct lk_strbuf path = LK_STRBUF_INIT, out = LK_STRBUF_INIT;
	struct lk_reader r;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_writer w;
	struct pack a, b;
	(void)state;

	lk_strbuf_addf(&path, "%s/sokoban/microban.xsb", data && *data ? data : "../shared/data");
	if (lk_reader_open(&r, path.buf, NULL) < 0) {
		lk_reader_close(&r);
		lk_strbuf_release(&path);
		skip();
	}
	read_pack(&r, &a, false);
	lk_reader_close(&r);
	assert_int_equal(lk_reader_open(&r, path.buf, NULL), 0);
	lk_writer_init(&w, NULL, LK_FORMAT_SOK, NULL);
	while (lk_reader_next(&r, &rec, NULL, NULL) == 1)
		lk_writer_format(&w, &rec, &out);
	lk_writer_release(&w);
	lk_reader_close(&r);
	read_text(out.buf, out.len, &b, false);
	assert_int_equal(a.nlevels, 155);
	expect_same_levels(&a, &b, "microban.xsb as sok");
	expect_same_titles(&a, &b, "microban.xsb as sok");
	pack_release(&a);
	pack_release(&b);
	lk_record_release(&rec);
	lk_strbuf_release(&out);
	lk_strbuf_release(&path);
}

/* ------------------------------------------------------------ fuzzing */

/* Mangle the fixtures and read, write and load whatever comes out: the
 * sanitizer build turns any read past a buffer into a failure.
 * LEVELKIT_FUZZ_ROUNDS (default 150 per fixture) and LEVELKIT_FUZZ_SEED
 * make longer runs. */
static void test_fuzz_smoke(void **state)
{
	static const char *const files[] = {
		"yasc.sok", "jsoko.sok", "titles.txt", "nosep.xsb", "mac-tabs.txt", "rle.txt",
		"collection.slc", "bad.slc", "bad.sok"
	};
	static const char special[] = "\n\r\t\0<>&;#:()|-_0123456789pbPB$@.*/\"'!?x ";
	static const char *const tokens[] = {
		"\nComment:\n", "\nComment-End:\n", "\nSolution\n", "\nSolution: ", "2(3(#",
		"<Level Id=\"x\">", "</Level>", "<L>", "</L>", "&#", "&#x110000;", "<!--",
		"<![CDATA[", "\n\n", "\n; 12\n", "\nLevel 9\n", "\n::\n", "\xef\xbb\xbf"
	};
	const char *env = getenv("LEVELKIT_FUZZ_ROUNDS");
	int rounds = env && atoi(env) > 0 ? atoi(env) : 150;
	struct lk_rng rng;
	(void)state;

	lk_rng_seed(&rng, env && getenv("LEVELKIT_FUZZ_SEED") ? (uint64_t)atoll(getenv("LEVELKIT_FUZZ_SEED"))
							       : 20240);
	for (size_t f = 0; f < sizeof(files) / sizeof(*files); f++) {
		char *path = pack_path(files[f]);
		size_t len;
		char *orig = slurp(path, &len);

		for (int round = 0; round < rounds; round++) {
			struct lk_strbuf m = LK_STRBUF_INIT, out = LK_STRBUF_INIT;
			struct lk_record rec = LK_RECORD_INIT;
			struct lk_writer w;
			struct src s;
			unsigned edits = 1 + lk_rng_below(&rng, 8);
			size_t records = 0;
			int rc;

			lk_strbuf_add(&m, orig, len);
			for (unsigned e = 0; e < edits && m.len > 0; e++) {
				size_t at = lk_rng_below(&rng, (uint32_t)m.len);
				char c = special[lk_rng_below(&rng, sizeof(special) - 1)];
				const char *tok = tokens[lk_rng_below(&rng, sizeof(tokens) / sizeof(*tokens))];
				switch (lk_rng_below(&rng, 5)) {
				case 4: {
					size_t tl = strlen(tok);
					lk_strbuf_grow(&m, tl);
					memmove(m.buf + at + tl, m.buf + at, m.len - at + 1);
					memcpy(m.buf + at, tok, tl);
					m.len += tl;
					break;
				}
				case 0:
					m.buf[at] = c;
					break;
				case 1:
					lk_strbuf_grow(&m, 1);
					memmove(m.buf + at + 1, m.buf + at, m.len - at + 1);
					m.buf[at] = c;
					m.len++;
					break;
				case 2:
					memmove(m.buf + at, m.buf + at + 1, m.len - at);
					m.len--;
					break;
				default:
					m.len = at;
					m.buf[at] = '\0';
					break;
				}
			}
			src_open(&s, m.buf, m.len, "fuzz");
			lk_writer_init(&w, NULL, round % 2 ? LK_FORMAT_SOK_RLE : LK_FORMAT_JSON, NULL);
			while ((rc = lk_reader_next(&s.r, &rec, NULL, NULL)) != 0) {
				struct lk_level_options opt = { .metric = NULL };
				struct lk_strbuf err = LK_STRBUF_INIT;
				size_t line;
				struct lk_level *l;

				assert_true(rc == 1 || rc == -1);
				assert_int_equal(rec.number, ++records);
				lk_record_write(&rec, &out);
				lk_writer_format(&w, &rec, &out);
				l = rc == 1 && lk_record_grid(&rec, NULL) ? lk_level_load(&rec, &opt, &err,
											 &line)
									   : NULL;
				if (l) {
					struct lk_solution_stats st;
					bool solved;
					const char *sol = lk_record_get(&rec, "solution");
					lk_strbuf_reset(&err);
					if (sol)
						replay_stats(l, sol, &st, &solved, &err);
					lk_level_free(l);
				}
				lk_strbuf_release(&err);
				assert_true(records < 100000);
			}
			lk_writer_release(&w);
			src_close(&s);
			lk_record_release(&rec);
			lk_strbuf_release(&m);
			lk_strbuf_release(&out);
		}
		free(orig);
		free(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts_read_as_plain),
		cmocka_unit_test(test_title_lines),
		cmocka_unit_test(test_solutions_replay),
		cmocka_unit_test(test_text_output_keeps_every_line),
		cmocka_unit_test(test_bad_sok),
		cmocka_unit_test(test_bad_slc),
		cmocka_unit_test(test_slc_errors_on_one_line),
		cmocka_unit_test(test_layout_rules),
		cmocka_unit_test(test_decode_line),
		cmocka_unit_test(test_replay_groups),
		cmocka_unit_test(test_sok_round_trip),
		cmocka_unit_test(test_sok_round_trip_microban),
		cmocka_unit_test(test_fuzz_smoke),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
