/*
 * test_json.c - the JSON reader on hand-written documents: every kind of
 * value, escapes (surrogate pairs included), nesting, and the errors with
 * their offsets.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "levelkit/json.h"

static void test_values(void **state)
{
	(void)state;
	const char *text = " {\"name\": \"a \\\"b\\\"\\n\", \"n\": -12.5e1, \"ok\": true, \"no\": false,"
			   " \"nil\": null, \"list\": [0, \"tick\", [], {}], \"seed\": \"139.5\"} ";
	struct lk_json v;
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_int_equal(lk_json_parse(text, strlen(text), &v, &err, NULL), 0);
	assert_int_equal(v.type, LK_JSON_OBJECT);
	assert_int_equal(v.n, 7);
	const struct lk_json *name = lk_json_get(&v, "name");
	assert_int_equal(name->type, LK_JSON_STRING);
	assert_string_equal(name->str, "a \"b\"\n");
	const struct lk_json *n = lk_json_get(&v, "n");
	assert_int_equal(n->type, LK_JSON_NUMBER);
	assert_true(n->number == -125.0);
	assert_string_equal(n->str, "-12.5e1");
	assert_true(lk_json_get(&v, "ok")->boolean);
	assert_false(lk_json_get(&v, "no")->boolean);
	assert_int_equal(lk_json_get(&v, "nil")->type, LK_JSON_NULL);
	const struct lk_json *list = lk_json_get(&v, "list");
	assert_int_equal(list->type, LK_JSON_ARRAY);
	assert_int_equal(list->n, 4);
	assert_true(list->items[0].number == 0);
	assert_string_equal(list->items[1].str, "tick");
	assert_int_equal(list->items[2].type, LK_JSON_ARRAY);
	assert_int_equal(list->items[2].n, 0);
	assert_int_equal(list->items[3].type, LK_JSON_OBJECT);
	assert_null(lk_json_get(&v, "absent"));
	assert_null(lk_json_get(list, "name"));
	lk_json_release(&v);
	lk_strbuf_release(&err);
}

static void test_unicode(void **state)
{
	(void)state;
	/* e-acute, a full-width A, and U+1F600 written as a surrogate pair */
	const char *text = "\"\\u00e9\\uff21\\ud83d\\ude00x\"";
	struct lk_json v;
	assert_int_equal(lk_json_parse(text, strlen(text), &v, NULL, NULL), 0);
	assert_string_equal(v.str, "\xc3\xa9\xef\xbc\xa1\xf0\x9f\x98\x80x");
	assert_int_equal(v.len, 10);
	lk_json_release(&v);
	/* raw UTF-8 passes through */
	const char *raw = "\"\xe2\x96\x88\"";
	assert_int_equal(lk_json_parse(raw, strlen(raw), &v, NULL, NULL), 0);
	assert_string_equal(v.str, "\xe2\x96\x88");
	lk_json_release(&v);
}

static void expect_error(const char *text, size_t want_offset, const char *fragment)
{
	struct lk_json v;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t offset = 0;
	assert_int_equal(lk_json_parse(text, strlen(text), &v, &err, &offset), -1);
	assert_int_equal(offset, want_offset);
	assert_non_null(strstr(err.buf, fragment));
	assert_int_equal(v.type, LK_JSON_NULL);
	lk_strbuf_release(&err);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("[1, 2", 5, "expected ',' or ']'");
	expect_error("{\"a\" 1}", 5, "expected ':'");
	expect_error("\"abc", 4, "unterminated string");
	expect_error("[1] x", 4, "trailing characters");
	expect_error("\"\\q\"", 3, "bad escape");
	expect_error("", 0, "unexpected end");
	expect_error("{\"a\": [tru]}", 7, "unexpected character");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_unicode),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
