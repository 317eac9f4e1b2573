/*
 * test_options.c - unit tests for what the commands share in the library
 * (options.h, bounds.h): the value parsers (counts, numbers, sizes with
 * K/M/G, durations with s/m/h) on hand-picked good and bad values, the
 * help text's wrapping, the option table parser on an argv (flags,
 * values, callbacks, a spliced table, how an option was typed), the
 * messages' format, the games an option applies to, and the bounds'
 * memory default.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "levelkit/bounds.h"
#include "levelkit/game.h"
#include "levelkit/options.h"
#include "levelkit/strbuf.h"

static void test_counts_and_numbers(void **state)
{
	(void)state;
	uint64_t u = 0;
	assert_int_equal(lk_parse_u64("0", &u), 0);
	assert_int_equal(lk_parse_u64("18446744073709551615", &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(lk_parse_u64("18446744073709551616", &u), -1);   /* overflow */
	assert_int_equal(lk_parse_u64("-1", &u), -1);   /* strtoull would wrap it */
	assert_int_equal(lk_parse_u64(" 1", &u), -1);
	assert_int_equal(lk_parse_u64("1x", &u), -1);
	assert_int_equal(lk_parse_u64("", &u), -1);
	double d = 0;
	assert_int_equal(lk_parse_number("-2.5", &d), 0);
	assert_true(d == -2.5);
	assert_int_equal(lk_parse_number("nan", &d), -1);
	assert_int_equal(lk_parse_number("inf", &d), -1);
	assert_int_equal(lk_parse_number("0x10", &d), -1);
	assert_int_equal(lk_parse_number("1e999", &d), -1);
}

static void test_sizes_and_durations(void **state)
{
	(void)state;
	size_t z = 0;
	assert_int_equal(lk_parse_size("512", &z), 0);
	assert_int_equal(z, 512);
	assert_int_equal(lk_parse_size("2K", &z), 0);
	assert_int_equal(z, 2048);
	assert_int_equal(lk_parse_size("1.5G", &z), 0);
	assert_int_equal(z, (size_t)3 << 29);
	assert_int_equal(lk_parse_size("3MiB", &z), 0);
	assert_int_equal(z, (size_t)3 << 20);
	assert_int_equal(lk_parse_size("12Q", &z), -1);
	assert_int_equal(lk_parse_size("-1", &z), -1);
	assert_int_equal(lk_parse_size("1e30", &z), -1);   /* beyond size_t */
	double s = 0;
	assert_int_equal(lk_parse_seconds("2.5s", &s), 0);
	assert_true(s == 2.5);
	assert_int_equal(lk_parse_seconds("10m", &s), 0);
	assert_true(s == 600);
	assert_int_equal(lk_parse_seconds("2h", &s), 0);
	assert_true(s == 7200);
	assert_int_equal(lk_parse_seconds("abc", &s), -1);
	assert_int_equal(lk_parse_seconds("1d", &s), -1);
	assert_int_equal(lk_parse_seconds("2e9", &s), -1);   /* over 1e9 seconds */
}

static void test_wrap(void **state)
{
	(void)state;
	struct lk_strbuf out = LK_STRBUF_INIT;
	/* width 20 from column 4: "aaa bbb ccc" fits (15), "ddd" goes on the
	 * next line under the indent; a newline in the text is a blank */
	lk_wrap(&out, "aaa bbb ccc\nddd  eee", 4, 2, 20);
	assert_string_equal(out.buf, "aaa bbb ccc ddd\n  eee");
	lk_strbuf_reset(&out);
	lk_wrap(&out, "averyveryverylongword x", 0, 0, 10);   /* a long word stays whole */
	assert_string_equal(out.buf, "averyveryverylongword\nx");
	lk_strbuf_release(&out);
}

static int callback_calls;
static int count_callback(const struct lk_option *opt, const char *arg)
{
	callback_calls++;
	*(const char **)opt->value = arg;
	return 0;
}

static void test_parse_table(void **state)
{
	(void)state;
	bool flag = false, spliced = false;
	const char *name = NULL, *cb = NULL, *tags = NULL;
	unsigned long n = 0;
	double secs = 0;
	size_t mem = 0;
	struct lk_option extra[] = {
		{ LK_OPT_FLAG, 0, "spliced", &spliced, NULL, "a spliced flag", NULL },
		LK_OPT_END_(),
	};
	struct lk_option opts[] = {
		LK_OPT_GROUP_("Group"),
		{ LK_OPT_FLAG, 'v', "verbose", &flag, NULL, "a flag", NULL },
		{ LK_OPT_STRING, 0, "name", &name, "text", "a string", NULL },
		{ LK_OPT_LIST, 0, "tag", &tags, "a,b,...", "a list", NULL },
		{ LK_OPT_UINT, 'n', "count", &n, "n", "a count", NULL },
		{ LK_OPT_SECONDS, 't', "timeout", &secs, "secs", "a duration", NULL },
		{ LK_OPT_SIZE, 0, "max-memory", &mem, "bytes", "a size", NULL },
		{ LK_OPT_CALLBACK, 0, "call", &cb, "x", "a callback", count_callback },
		{ .type = LK_OPT_TABLE, .value = extra },
		LK_OPT_END_(),
	};
	/* a string given twice keeps the last; a list given thrice adds up */
	char *argv[] = { "/some/dir/testprog", "-v", "--name", "x", "--tag", "a,b", "--name", "x y",
			 "--tag", "c", "--tag=d", "-n", "7", "--timeout=1m",
			 "--max-memory", "2M", "--call", "c", "--spliced", "file1", "file2", NULL };
	int argc = (int)(sizeof argv / sizeof *argv) - 1;
	int first = lk_parse_options(argc, argv, opts, "testprog [options]", NULL);
	assert_int_equal(first, argc - 2);
	assert_string_equal(argv[first], "file1");
	assert_string_equal(lk_prog, "testprog");
	assert_true(flag && spliced);
	assert_string_equal(name, "x y");
	assert_string_equal(tags, "a,b,c,d");
	assert_int_equal(n, 7);
	assert_true(secs == 60);
	assert_int_equal(mem, (size_t)2 << 20);
	assert_int_equal(callback_calls, 1);
	assert_string_equal(cb, "c");
	assert_true(lk_option_given("count") && lk_option_given("spliced"));
	assert_false(lk_option_given("nosuch"));
	assert_string_equal(lk_option_typed("count"), "-n");
	assert_string_equal(lk_option_typed("timeout"), "--timeout");
	assert_null(lk_option_typed("nosuch"));
}

static void test_message_format(void **state)
{
	(void)state;
	struct lk_strbuf out = LK_STRBUF_INIT;
	lk_message_format(&out, "pack.xsb", 12, "bad \x01 byte");
	/* the program's name, file:line, and a control byte escaped */
	assert_non_null(strstr(out.buf, ": pack.xsb:12: bad "));
	assert_null(strchr(out.buf, '\x01'));
	assert_int_equal(out.buf[out.len - 1], '\n');
	lk_strbuf_release(&out);
}

static bool named_fruit_or_skiddy(const struct lk_game *g, const void *ctx)
{
	(void)ctx;
	return strcmp(g->name, "fruit") == 0 || strcmp(g->name, "skiddy") == 0;
}

static void test_games_an_option_applies_to(void **state)
{
	(void)state;
	struct lk_strbuf out = LK_STRBUF_INIT;
	lk_games_named(&out, named_fruit_or_skiddy, NULL);
	assert_true(strcmp(out.buf, "fruit and skiddy") == 0 ||
		    strcmp(out.buf, "skiddy and fruit") == 0);
	lk_strbuf_release(&out);
	uint64_t sokoban = lk_game_bit("sokoban"), fruit = lk_game_bit("fruit");
	assert_true(sokoban && fruit && sokoban != fruit);
	assert_int_equal(lk_game_bit("nosuch"), 0);
	assert_false(lk_option_applied(sokoban, named_fruit_or_skiddy, NULL));
	assert_true(lk_option_applied(sokoban | fruit, named_fruit_or_skiddy, NULL));
	assert_true(lk_option_applied(sokoban, lk_game_knows_metric, "pushes"));
	assert_false(lk_option_applied(fruit, lk_game_knows_metric, "pushes"));
	assert_true(lk_option_applied(lk_game_bit("combination"), lk_game_is_constraint, NULL));
	assert_false(lk_option_applied(sokoban, lk_game_is_constraint, NULL));
}

static void test_bounds_memory_default(void **state)
{
	(void)state;
	static volatile sig_atomic_t flag;
	struct lk_bounds b = { .max_memory = 12345 };
	lk_bounds_finish(&b, 3, &flag);
	assert_int_equal(b.max_memory, 12345);   /* given: kept */
	assert_ptr_equal(b.cancel, &flag);
	size_t ram = lk_physical_memory();
	for (unsigned long jobs = 0; jobs < 4; jobs++) {
		struct lk_bounds d = { 0 };
		lk_bounds_finish(&d, jobs, NULL);
		size_t expected = ram ? ram / (jobs + 1) : (size_t)1 << 30;
		if (expected > (size_t)4 << 30)
			expected = (size_t)4 << 30;
		assert_int_equal(d.max_memory, expected);
	}
	assert_true(lk_cpu_count() >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_and_numbers),
		cmocka_unit_test(test_sizes_and_durations),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_parse_table),
		cmocka_unit_test(test_message_format),
		cmocka_unit_test(test_games_an_option_applies_to),
		cmocka_unit_test(test_bounds_memory_default),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
