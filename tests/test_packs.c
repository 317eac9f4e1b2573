/*
 * test_packs.c - the Sokoban pack layouts the reader takes (record_read.c,
 * record_pack.c, record_slc.c) and the .sok writer (record_sok.c).
 *
 * The fixtures in levels/packs/ hold the same twelve levels (plain.xsb) in
 * the layouts people's packs use; each must read as the same levels, with
 * the same titles and solutions that replay.  Broken packs must report
 * each bad record at its line, keep its lines verbatim, and read the rest.
 * A fuzz smoke test feeds mangled fixtures through everything.
 *
 * This file holds the fixtures' tests, the writer's, the fuzz smoke test
 * and the main that runs every test; the shared helpers are in
 * packs_fixture.c, the broken packs and layout rules in packs_errors.c.
 */
#include "packs_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/rng.h"
#include "test_support.h"

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
