/*
 * test_dedupe.c - unit tests for the set of levels seen (dedupe.c) and the
 * Sokoban canonical form behind it (sokoban_canon.c, via
 * lk_level_canonical).
 *
 * Each asymmetric level is turned into its eight symmetric copies by
 * rewriting its text rows here, independently of lk_grid_transform; all
 * of them, a translated copy with outside decoration and a copy with the
 * player elsewhere in its area must be duplicates of the first, while a
 * level with a box moved, a wall added or the player in another area must
 * not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/dedupe.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"

/* ---------------------------------------------------------------- helpers */

/* A record whose lines are the rows of text (separated by '\n'). */
static void make_record(struct lk_record *rec, const char *text)
{
	lk_record_init(rec);
	const char *s = text;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char *line = malloc(len + 1);
		assert_non_null(line);
		memcpy(line, s, len);
		line[len] = '\0';
		lk_record_add_line(rec, line, 0);
		free(line);
		s += len + (nl ? 1 : 0);
	}
	assert_true(lk_record_grid(rec, NULL) > 0);
}

struct loaded {
	struct lk_record rec;
	struct lk_level *level;
};

static void load(struct loaded *l, const char *text)
{
	static const struct lk_level_options defaults = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	make_record(&l->rec, text);
	l->level = lk_level_load(&l->rec, &defaults, &err, &line);
	if (!l->level)
		fail_msg("level does not load: %s\n%s", err.buf, text);
	lk_strbuf_release(&err);
}

static void unload(struct loaded *l)
{
	lk_level_free(l->level);
	lk_record_release(&l->rec);
}

/* Is the level new to d? */
static bool add_text(struct lk_dedupe *d, const char *text)
{
	struct loaded l;
	load(&l, text);
	bool fresh = lk_dedupe_add(d, l.level, &l.rec);
	unload(&l);
	return fresh;
}

static char *canonical_of(const char *text)
{
	struct loaded l;
	struct lk_strbuf out = LK_STRBUF_INIT;
	load(&l, text);
	lk_level_canonical(l.level, &l.rec, &out);
	unload(&l);
	return lk_strbuf_detach(&out, NULL);
}

/*
 * Symmetry sym (0..7) of the level text: bit 2 transposes (row y, column
 * x becomes row x, column y), then bit 0 mirrors left-right and bit 1
 * upside down.  Rows are padded with spaces to a rectangle first and
 * trailing spaces are dropped after, as a person would write the level.
 */
static char *transform(const char *text, int sym)
{
	const char *rows[64];
	size_t lens[64], h = 0, w = 0;
	for (const char *s = text; *s;) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		assert_true(h < 64);
		rows[h] = s;
		lens[h] = len;
		if (len > w)
			w = len;
		h++;
		s += len + (nl ? 1 : 0);
	}
	size_t ow = sym & 4 ? h : w, oh = sym & 4 ? w : h;
	char *out = malloc(oh * (ow + 1) + 1);
	assert_non_null(out);
	size_t n = 0;
	for (size_t y = 0; y < oh; y++) {
		size_t start = n;
		for (size_t x = 0; x < ow; x++) {
			size_t tx = sym & 1 ? ow - 1 - x : x;
			size_t ty = sym & 2 ? oh - 1 - y : y;
			size_t sx = sym & 4 ? ty : tx, sy = sym & 4 ? tx : ty;
			out[n++] = sx < lens[sy] ? rows[sy][sx] : ' ';
		}
		while (n > start && out[n - 1] == ' ')
			n--;
		assert_true(n > start); /* no blank rows: they would end the record */
		out[n++] = '\n';
	}
	out[n] = '\0';
	return out;
}

/* ------------------------------------------------------------------ levels */

/* Asymmetric levels, each with variants that are the same puzzle and
 * variants that are not. */
struct family {
	const char *level;
	const char *same[3];   /* moved, decorated, player elsewhere in its area */
	const char *other[4];  /* box moved, wall added, player in another area,
				* box and goal swapped */
};

static const struct family families[] = {
	{
		/* Microban 1 */
		"####\n"
		"# .#\n"
		"#  ###\n"
		"#*@  #\n"
		"#  $ #\n"
		"#  ###\n"
		"####\n",
		{
			/* translated, with blank rows and columns */
			"------\n"
			"___\n"
			"     ####\n"
			"     # .#\n"
			"     #  ###\n"
			"     #*@  #\n"
			"     #  $ #\n"
			"     #  ###\n"
			"     ####\n"
			"-\n",
			/* decorated outside the walls */
			"#######\n"
			"# .# ##\n"
			"#  ###\n"
			"#*@  #\n"
			"#  $ #\n"
			"#  ###\n"
			"####  #\n"
			"-\n"
			"#######\n",
			/* the player elsewhere in its area */
			"####\n"
			"# .#\n"
			"#  ###\n"
			"#*   #\n"
			"#  $@#\n"
			"#  ###\n"
			"####\n",
		},
		{
			"####\n"
			"# .#\n"
			"#  ###\n"
			"#*@  #\n"
			"# $  #\n"
			"#  ###\n"
			"####\n",
			"####\n"
			"# .#\n"
			"#  ###\n"
			"#*@ ##\n"
			"#  $ #\n"
			"#  ###\n"
			"####\n",
			NULL,
		},
	},
	{
		/* irregular outline, player on a goal (three goals, three boxes) */
		"  ####\n"
		"###  #\n"
		"#* $ #\n"
		"#  $.##\n"
		"##+   #\n"
		" #    #\n"
		" ######\n",
		{
			"_\n"
			"_\n"
			" ---####\n"
			" -###  #\n"
			" -#* $ #\n"
			" -#  $.##\n"
			" -##+   #\n"
			" --#    #\n"
			" --######\n",
			"# ####  #\n"
			"###  # #\n"
			"#* $ #\n"
			"#  $.##\n"
			"##+   #\n"
			" #    #\n"
			" ######\n"
			"-\n"
			"   #\n",
			"  ####\n"
			"###  #\n"
			"#* $ #\n"
			"#  $.##\n"
			"##.   #\n"
			" #   @#\n"
			" ######\n",
		},
		{
			"  ####\n"
			"###  #\n"
			"#* $ #\n"
			"# $ .##\n"
			"##+   #\n"
			" #    #\n"
			" ######\n",
			"  ####\n"
			"###  #\n"
			"#* $ #\n"
			"#  $.##\n"
			"##+ # #\n"
			" #    #\n"
			" ######\n",
			NULL,
		},
	},
	{
		/* a corridor split by a box: the player's side matters */
		"#########\n"
		"#@  $  .#\n"
		"#  ######\n"
		"####\n",
		{
			"__#########\n"
			"  #@  $  .#\n"
			"  #  ######\n"
			"  ####\n",
			"#########\n"
			"#@  $  .#\n"
			"#  ######\n"
			"#####  ###\n",
			"#########\n"
			"#   $  .#\n"
			"# @######\n"
			"####\n",
		},
		{
			"#########\n"
			"#@   $ .#\n"
			"#  ######\n"
			"####\n",
			"#########\n"
			"#@  $ #.#\n"
			"#  ######\n"
			"####\n",
			/* the player beyond the box, in the other area */
			"#########\n"
			"#   $ @.#\n"
			"#  ######\n"
			"####\n",
			/* the box where the goal was and the other way round */
			"#########\n"
			"#@  .  $#\n"
			"#  ######\n"
			"####\n",
		},
	},
};

#define NFAMILIES (sizeof families / sizeof families[0])

/* ------------------------------------------------------------------ tests */

/* The helper itself: the eight copies are eight different texts (so the
 * levels really are asymmetric and the tests below compare different
 * inputs), and transposing twice or mirroring twice gives back the
 * level. */
static void test_transform_helper(void **state)
{
	(void)state;
	for (size_t f = 0; f < NFAMILIES; f++) {
		char *copies[8];
		for (int s = 0; s < 8; s++)
			copies[s] = transform(families[f].level, s);
		assert_string_equal(copies[0], families[f].level);
		for (int a = 0; a < 8; a++)
			for (int b = a + 1; b < 8; b++)
				assert_string_not_equal(copies[a], copies[b]);
		for (int s = 0; s < 8; s++) {
			if (s == 5 || s == 6)
				continue; /* the quarter turns are not involutions */
			char *back = transform(copies[s], s);
			assert_string_equal(back, families[f].level);
			free(back);
		}
		for (int s = 0; s < 8; s++)
			free(copies[s]);
	}
	/* A quarter turn by hand: transpose, then mirror left-right. */
	char *t = transform("ab\ncd\nef\n", 5);
	assert_string_equal(t, "eca\nfdb\n");
	free(t);
}

static void test_symmetries_are_duplicates(void **state)
{
	(void)state;
	for (size_t f = 0; f < NFAMILIES; f++) {
		struct lk_dedupe d;
		lk_dedupe_init(&d);
		for (int s = 0; s < 8; s++) {
			char *copy = transform(families[f].level, s);
			bool fresh = add_text(&d, copy);
			if (fresh != (s == 0))
				fail_msg("family %zu symmetry %d: %s\n%s", f, s,
					 fresh ? "not recognised as a duplicate" : "first copy not new",
					 copy);
			free(copy);
		}
		assert_int_equal(lk_dedupe_count(&d), 1);
		lk_dedupe_release(&d);
	}
}

static void test_canonical_text_is_shared(void **state)
{
	(void)state;
	for (size_t f = 0; f < NFAMILIES; f++) {
		char *first = canonical_of(families[f].level);
		assert_true(strlen(first) > 0);
		for (int s = 1; s < 8; s++) {
			char *copy = transform(families[f].level, s);
			char *canon = canonical_of(copy);
			assert_string_equal(canon, first);
			free(canon);
			free(copy);
		}
		free(first);
	}
}

static void test_same_puzzle_variants(void **state)
{
	(void)state;
	for (size_t f = 0; f < NFAMILIES; f++) {
		for (size_t v = 0; v < 3; v++) {
			const char *same = families[f].same[v];
			/* each variant in each of the eight orientations (the
			 * first copy of the level is always new) */
			for (int s = 0; s < 8; s++) {
				struct lk_dedupe d;
				lk_dedupe_init(&d);
				assert_true(add_text(&d, families[f].level));
				char *copy = transform(same, s);
				if (add_text(&d, copy))
					fail_msg("family %zu variant %zu symmetry %d is not a duplicate:\n%s",
						 f, v, s, copy);
				free(copy);
				lk_dedupe_release(&d);
			}
		}
	}
}

static void test_different_levels(void **state)
{
	(void)state;
	for (size_t f = 0; f < NFAMILIES; f++) {
		struct lk_dedupe d;
		lk_dedupe_init(&d);
		assert_true(add_text(&d, families[f].level));
		size_t expected = 1;
		for (size_t v = 0; v < 4; v++) {
			const char *other = families[f].other[v];
			if (!other)
				continue;
			if (!add_text(&d, other))
				fail_msg("family %zu: different level %zu taken for a duplicate:\n%s",
					 f, v, other);
			expected++;
			/* ... and its own turned copies are its duplicates */
			for (int s = 1; s < 8; s++) {
				char *copy = transform(other, s);
				assert_false(add_text(&d, copy));
				free(copy);
			}
		}
		assert_int_equal(lk_dedupe_count(&d), expected);
		lk_dedupe_release(&d);
	}
	/* Different families are different levels. */
	struct lk_dedupe d;
	lk_dedupe_init(&d);
	for (size_t f = 0; f < NFAMILIES; f++)
		assert_true(add_text(&d, families[f].level));
	assert_int_equal(lk_dedupe_count(&d), NFAMILIES);
	lk_dedupe_release(&d);
}

static void test_dedupe_text(void **state)
{
	(void)state;
	struct lk_dedupe d;
	lk_dedupe_init(&d);
	assert_int_equal(lk_dedupe_count(&d), 0);
	assert_true(lk_dedupe_add_text(&d, "abc", 3));
	assert_false(lk_dedupe_add_text(&d, "abc", 3));
	assert_true(lk_dedupe_add_text(&d, "abd", 3));
	assert_true(lk_dedupe_add_text(&d, "ab", 2));
	assert_true(lk_dedupe_add_text(&d, "", 0));
	assert_false(lk_dedupe_add_text(&d, "", 0));
	assert_int_equal(lk_dedupe_count(&d), 4);
	/* many entries: growth keeps every one */
	char buf[32];
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(buf, sizeof buf, "level %d", i);
		assert_true(lk_dedupe_add_text(&d, buf, (size_t)n));
	}
	for (int i = 0; i < 5000; i += 7) {
		int n = snprintf(buf, sizeof buf, "level %d", i);
		assert_false(lk_dedupe_add_text(&d, buf, (size_t)n));
	}
	assert_int_equal(lk_dedupe_count(&d), 5004);
	lk_dedupe_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transform_helper),
		cmocka_unit_test(test_symmetries_are_duplicates),
		cmocka_unit_test(test_canonical_text_is_shared),
		cmocka_unit_test(test_same_puzzle_variants),
		cmocka_unit_test(test_different_levels),
		cmocka_unit_test(test_dedupe_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
