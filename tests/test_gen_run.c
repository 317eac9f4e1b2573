/*
 * test_gen_run.c - tests of what `gen` does, reached without a process
 * (gen_run.h): the thresholds asked for (lk_gen_asked: collected from the
 * registry, refused for a generator that cannot judge by them, the
 * defaults), the judge's numbers (struct lk_judged) and the canonical text
 * kept with each generated level (lk_generate_level), a whole run into a
 * file and its resumption (lk_gen_run), and --suggest's option checks.
 *
 * Truths computed here, independently of the judge: a Sokoban solution's
 * moves and pushes are its LURD letters and its upper-case letters; a
 * level's canonical text is the one lk_level_canonical gives for the
 * record loaded afresh; a run resumed from its own file writes the same
 * bytes as a run that was never stopped.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "levelkit/actions.h"
#include "levelkit/gen_run.h"
#include "levelkit/registry.h"

#ifndef TEST_LEVELS_DIR
#define TEST_LEVELS_DIR "tests/levels"
#endif

/* ------------------------------------------------------------ messages */

static char said[4096];

static void say_error(const char *message)
{
	size_t len = strlen(said);
	snprintf(said + len, sizeof said - len, "%s\n", message);
}

static void say_usage(const char *message)
{
	fail_msg("usage error: %s", message);
}

static const struct lk_gen_say quiet = { "gen", say_error, say_usage };

/* ---------------------------------------------------------- thresholds */

static size_t field_index(const struct lk_gen_asked *a, const char *name)
{
	for (size_t i = 0; i < a->nfields; i++)
		if (strcmp(a->fields[i]->name, name) == 0)
			return i;
	fail_msg("no field %s", name);
	return 0;
}

static void test_asked(void **state)
{
	(void)state;
	struct lk_gen_asked a;
	struct lk_strbuf err = LK_STRBUF_INIT;
	lk_gen_asked_init(&a);
	size_t pushes = field_index(&a, "pushes"), stars = field_index(&a, "stars");
	assert_false(a.fields[pushes]->rating);
	assert_true(a.fields[stars]->rating);

	/* nothing asked: the generator's defaults (a designer's) */
	const struct lk_generator *backward = lk_generator_find("sokoban", "backward");
	const struct lk_generator *fruit = lk_generator_find("fruit", NULL);
	assert_non_null(backward);
	assert_non_null(fruit);
	assert_int_equal(lk_gen_asked_check(&a, fruit, &err), 0);
	lk_gen_asked_defaults(&a, backward);
	assert_true(a.range[pushes].min == 10);
	assert_true(a.moves.min == -INFINITY);
	lk_gen_asked_init(&a);
	lk_gen_asked_defaults(&a, fruit);
	assert_true(a.moves.min == 4);

	/* a length asked for: no defaults */
	lk_gen_asked_init(&a);
	a.moves.max = 30;
	lk_gen_asked_defaults(&a, backward);
	assert_true(a.range[pushes].min == -INFINITY);

	/* a field the generator does not judge by, named with its games */
	lk_gen_asked_init(&a);
	a.rating[stars] = 3;
	assert_int_equal(lk_gen_asked_check(&a, fruit, &err), -1);
	assert_string_equal(err.buf, "--stars does not apply to fruit (it applies to skiddy)");
	lk_strbuf_reset(&err);
	a.rating[stars] = 9;
	assert_int_equal(lk_gen_asked_check_ratings(&a, &err), -1);
	assert_string_equal(err.buf, "--stars 9: the rating is 0 to 3");

	/* into the options: only the generator's own fields, then the ranges */
	lk_gen_asked_init(&a);
	a.range[pushes] = (struct lk_range){ 5, 3 };
	struct lk_gen_options o;
	lk_gen_options_init(&o);
	lk_gen_asked_apply(&a, backward, &o);
	assert_int_equal(o.nthresholds, 1);
	assert_string_equal(o.thresholds[0].field->name, "pushes");
	lk_strbuf_reset(&err);
	assert_int_equal(lk_gen_options_check_ranges(&o, &err), -1);
	assert_string_equal(err.buf, "--min-pushes 5 is above --max-pushes 3, so no level could pass");
	lk_gen_options_init(&o);
	lk_gen_asked_apply(&a, fruit, &o);
	assert_int_equal(o.nthresholds, 0);
	lk_strbuf_release(&err);
}

/* ------------------------------------------------------ judged numbers */

static const char *small_keys[] = { "boxes" };
static const char *small_values[] = { "2" };

static void test_judged(void **state)
{
	(void)state;
	const struct lk_generator *g = lk_generator_find("sokoban", "backward");
	struct lk_gen_options o;
	lk_gen_options_init(&o);
	o.width = o.height = 7;
	o.param_keys = small_keys;
	o.param_values = small_values;
	o.nparams = 1;
	struct lk_gen_asked a;
	lk_gen_asked_init(&a);
	a.range[field_index(&a, "pushes")].min = 3;
	lk_gen_asked_apply(&a, g, &o);
	struct lk_gen_worker w;
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_int_equal(lk_gen_worker_init(&w, g, &o, &err), 0);
	for (uint64_t i = 0; i < 6; i++) {
		struct lk_gen_level l;
		struct lk_gen_stats st = { 0 };
		lk_gen_level_init(&l);
		assert_int_equal(lk_generate_level(g, &w, &o, 5, i, &l, &st), 0);
		/* the numbers are the solution's letters */
		const char *solution = lk_record_get(&l.rec, "solution");
		assert_non_null(solution);
		size_t letters = strlen(solution), upper = 0;
		for (const char *c = solution; *c; c++)
			upper += isupper((unsigned char)*c) != 0;
		assert_true(l.judged.answered);
		assert_int_equal(l.judged.status, LK_SOLVED);
		assert_true(l.judged.has_moves);
		assert_true(l.judged.moves == (double)letters);
		assert_true(l.judged.has_field[0]);
		assert_true(l.judged.field[0] == (double)upper);
		assert_true(l.judged.field[0] >= 3);
		/* the canonical text is the level's, loaded afresh */
		struct lk_level_options lo = { 0 };
		size_t line;
		struct lk_level *level = lk_level_load(&l.rec, &lo, &err, &line);
		assert_non_null(level);
		struct lk_strbuf canonical = LK_STRBUF_INIT;
		lk_level_canonical(level, &l.rec, &canonical);
		assert_string_equal(canonical.buf, l.canonical.buf);
		lk_strbuf_release(&canonical);
		lk_level_free(level);
		lk_gen_level_release(&l);
	}
	lk_gen_worker_release(&w, g);

	/* a rated level: the difficulty as it is written */
	g = lk_generator_find("fruit", NULL);
	lk_gen_options_init(&o);
	o.rate = true;
	o.rating.runs = 5;
	o.difficulty = (struct lk_range){ 1, 1e9 };
	assert_int_equal(lk_gen_worker_init(&w, g, &o, &err), 0);
	for (uint64_t i = 0; i < 3; i++) {
		struct lk_gen_level l;
		struct lk_gen_stats st = { 0 };
		lk_gen_level_init(&l);
		assert_int_equal(lk_generate_level(g, &w, &o, 2, i, &l, &st), 0);
		/* fruit's generator gives no solution: the judge's own, kept
		 * as numbers, one letter a move */
		const char *solution = lk_record_get(&l.rec, "solution");
		assert_non_null(solution);
		assert_true(l.judged.has_moves);
		assert_true(l.judged.moves == (double)strlen(solution));
		assert_true(l.judged.has_difficulty);
		assert_true(l.judged.difficulty >= 1);
		const char *written = lk_record_get(&l.rec, "difficulty");
		assert_non_null(written);
		char text[64];
		snprintf(text, sizeof text, "%.1f", l.judged.difficulty);
		assert_string_equal(text, written);
		lk_gen_level_release(&l);
	}
	lk_gen_worker_release(&w, g);
	lk_strbuf_release(&err);
}

/* -------------------------------------------------------- runs, resume */

static char *slurp(const char *path)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	assert_int_equal(lk_strbuf_read_file(&text, path), 0);
	return lk_strbuf_detach(&text, NULL);
}

static int run_fruit(const struct lk_gen_options *o, uint64_t count, const char *output,
		     const char *resume, uint64_t shard, uint64_t shards)
{
	struct lk_gen_run_options ro = {
		.gen = lk_generator_find("fruit", NULL), .opt = o, .seed = 9, .count = count,
		.shard = shard, .shards = shards, .resume = resume, .output = output,
		.format = LK_FORMAT_TEXT, .jobs = 2, .say = quiet,
	};
	said[0] = '\0';
	return lk_gen_run(&ro);
}

static void test_run_resume(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_gen_run.XXXXXX", a[64], b[64];
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/a.xsb", dir);
	snprintf(b, sizeof b, "%s/b.xsb", dir);
	struct lk_gen_options o;
	lk_gen_options_init(&o);
	o.moves.min = 4;
	assert_int_equal(run_fruit(&o, 6, a, NULL, 0, 1), 0);
	assert_non_null(strstr(said, "6 levels written (6 in all)"));
	/* an existing file is not replaced */
	assert_int_equal(run_fruit(&o, 6, a, NULL, 0, 1), 2);
	assert_non_null(strstr(said, "the file exists"));
	/* 3, then resumed to 6: the bytes of the run that never stopped */
	assert_int_equal(run_fruit(&o, 3, b, NULL, 0, 1), 0);
	assert_int_equal(run_fruit(&o, 6, b, b, 0, 1), 0);
	assert_non_null(strstr(said, "3 levels written (6 in all)"));
	char *whole = slurp(a), *resumed = slurp(b);
	assert_string_equal(whole, resumed);
	free(whole);
	free(resumed);
	/* a shard: its indices only, named in the summary */
	remove(b);
	assert_int_equal(run_fruit(&o, 2, b, NULL, 1, 3), 0);
	assert_non_null(strstr(said, "shard 1/3"));
	char *sharded = slurp(b);
	assert_non_null(strstr(sharded, "index: 1\n"));
	assert_null(strstr(sharded, "index: 2\n"));
	free(sharded);
	remove(a);
	remove(b);
	rmdir(dir);
}

/* ---------------------------------------------------- inputs, suggest */

static void test_inputs(void **state)
{
	(void)state;
	struct lk_record rec;
	struct lk_strbuf msg = LK_STRBUF_INIT;
	size_t line;
	lk_record_init(&rec);
	const char *path = TEST_LEVELS_DIR "/gen-from.xsb";
	assert_int_equal(lk_gen_read_level(path, 1, &rec, &msg, &line), 0);
	assert_int_equal(lk_record_grid(&rec, NULL), 7);
	assert_int_equal(lk_gen_read_level(path, 3, &rec, &msg, &line), -1);
	assert_non_null(strstr(msg.buf, ": --level 3: the file has 1 level"));
	lk_record_release(&rec);

	struct lk_gen_inputs in = { .from = path, .rules = "no-such-preset-or-file" };
	struct lk_gen_options o;
	lk_gen_options_init(&o);
	lk_gen_inputs_init(&in);
	lk_strbuf_reset(&msg);
	assert_int_equal(lk_gen_inputs_load(&in, lk_generator_find("sokoban", "transform"), &o, &msg),
			 -1);
	assert_non_null(o.from);
	assert_non_null(strstr(msg.buf, "no-such-preset-or-file: not a preset ("));
	lk_gen_inputs_release(&in);
	lk_strbuf_release(&msg);
}

static void test_suggest_check(void **state)
{
	(void)state;
	struct lk_gen_suggest_options so = { .max_changes = -1, .say = quiet };
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_int_equal(lk_gen_suggest_check(&so, &err), 0);
	so.by = "count(push)";
	assert_int_equal(lk_gen_suggest_check(&so, &err), 0);
	so.by = "moves";
	assert_int_equal(lk_gen_suggest_check(&so, &err), 0);
	so.by = "count(";
	assert_int_equal(lk_gen_suggest_check(&so, &err), -1);
	assert_string_equal(err.buf, "--by count(: expected count(FACT)");
	lk_strbuf_reset(&err);
	so.by = "bad name";
	assert_int_equal(lk_gen_suggest_check(&so, &err), -1);
	assert_string_equal(err.buf, "--by: 'bad name' is neither a field name nor count(FACT)");
	lk_strbuf_reset(&err);
	so.by = NULL;
	so.climb = true;
	so.within = 2;
	assert_int_equal(lk_gen_suggest_check(&so, &err), -1);
	assert_non_null(strstr(err.buf, "--climb goes where the harder levels lead"));
	lk_strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_asked),
		cmocka_unit_test(test_judged),
		cmocka_unit_test(test_run_resume),
		cmocka_unit_test(test_inputs),
		cmocka_unit_test(test_suggest_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
