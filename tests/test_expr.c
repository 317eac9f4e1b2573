/*
 * test_expr.c - unit tests for filter's expression language (expr.c):
 * precedence, short-circuit evaluation past missing fields, numeric and
 * text comparison, case-insensitive names, names containing '-', has(),
 * the title and record names, and parse errors with their columns; facts
 * (calls such as count(BND), three-valued over bounds: lk_expr_eval_facts).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "levelkit/expr.h"
#include "levelkit/record.h"

/* ---------------------------------------------------------------- helpers */

/* A record of the given lines (separated by '\n') numbered `number`. */
static void make_record(struct lk_record *rec, const char *text, size_t number)
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
	rec->number = number;
}

static struct lk_expr *parse_ok(const char *text)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *e = lk_expr_parse(text, &err);
	if (!e)
		fail_msg("'%s' does not parse: %s", text, err.buf);
	assert_int_equal(err.len, 0);
	lk_strbuf_release(&err);
	return e;
}

/* Evaluate expr on the record text, which must not fail. */
static bool eval_on(const char *expr, const char *record)
{
	struct lk_record rec;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *e = parse_ok(expr);
	bool result = false;
	make_record(&rec, record, 1);
	if (lk_expr_eval(e, &rec, &result, &err) != 0)
		fail_msg("'%s' fails: %s", expr, err.buf);
	lk_strbuf_release(&err);
	lk_record_release(&rec);
	lk_expr_free(e);
	return result;
}

/* Evaluate expr on record number `number`, which must fail with message. */
static void eval_fails(const char *expr, const char *record, size_t number, const char *message)
{
	struct lk_record rec;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *e = parse_ok(expr);
	bool result = true;
	make_record(&rec, record, number);
	if (lk_expr_eval(e, &rec, &result, &err) == 0)
		fail_msg("'%s' evaluates to %d, expected the error '%s'", expr, result, message);
	assert_string_equal(err.buf, message);
	assert_true(result); /* left alone */
	/* and again without a message buffer */
	assert_int_equal(lk_expr_eval(e, &rec, &result, NULL), -1);
	lk_strbuf_release(&err);
	lk_record_release(&rec);
	lk_expr_free(e);
}

static void parse_fails(const char *expr, const char *message)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *e = lk_expr_parse(expr, &err);
	if (e) {
		lk_expr_free(e);
		fail_msg("'%s' parses, expected '%s'", expr, message);
	}
	if (strcmp(err.buf, message) != 0)
		fail_msg("'%s': got '%s', expected '%s'", expr, err.buf, message);
	lk_strbuf_release(&err);
	/* a NULL message buffer is allowed */
	assert_null(lk_expr_parse(expr, NULL));
}

static const char *const level =
	"; Level 7\n"
	"####\n"
	"#@.#\n"
	"####\n"
	"a: 1\n"
	"b: 0\n"
	"c: 0\n";

/* ------------------------------------------------------------------ tests */

static void test_precedence(void **state)
{
	(void)state;
	/* && binds tighter than ||: a || (b && c), true; (a || b) && c would
	 * be false. */
	assert_true(eval_on("a == 1 || b == 1 && c == 1", level));
	assert_true(eval_on("b == 1 && c == 1 || a == 1", level));
	assert_false(eval_on("(a == 1 || b == 1) && c == 1", level));
	/* ! binds tighter than && and ||: it negates only the condition
	 * right after it.  If it swallowed the rest, these would flip. */
	assert_true(eval_on("!(a == 1) || c == 0", level));   /* not !(T || T) */
	assert_false(eval_on("!(b == 1) && c == 1", level));  /* not !(F && F) */
	assert_true(eval_on("!(a == 1 || b == 1) || c == 0", level));
	assert_false(eval_on("!(a == 1 || b == 1)", level));
	assert_true(eval_on("!!(a == 1)", level));
	assert_true(eval_on("!has(zzz)", level));
	assert_false(eval_on("! has(a)", level));
	/* long chains evaluate in order */
	assert_true(eval_on("a == 1 && b == 0 && c == 0 && has(a)", level));
	assert_false(eval_on("a == 1 && b == 0 && c == 1 && has(a)", level));
	assert_true(eval_on("a == 0 || b == 1 || c == 1 || c == 0", level));
	assert_false(eval_on("a == 0 || b == 1 || c == 1", level));
	assert_true(eval_on("((((a == 1))))", level));
	/* ! applies only to a condition: `!x == 1` would read as (!x) == 1,
	 * which compares a condition, so it is refused rather than guessed. */
	parse_fails("!a == 1", "column 2: expected '(' or has() after '!' "
		    "('!' binds tighter than comparisons: write !(a == b))");
	parse_fails("!1", "column 2: expected '(' or has() after '!' "
		    "('!' binds tighter than comparisons: write !(a == b))");
}

static void test_short_circuit(void **state)
{
	(void)state;
	const char *rec = "####\n#@.#\n####\nmoves: 5\n";
	assert_false(eval_on("has(pushes) && pushes > 3", rec));
	assert_true(eval_on("!has(pushes) || pushes > 3", rec));
	assert_true(eval_on("moves == 5 || pushes > 3", rec));
	assert_false(eval_on("moves == 4 && pushes > 3", rec));
	assert_true(eval_on("(has(pushes) && pushes > 3) || moves == 5", rec));
	/* nothing to stop the evaluation: the missing field is an error */
	eval_fails("pushes > 3", rec, 3, "record 3 has no field 'pushes'");
	eval_fails("pushes > 3 && has(pushes)", rec, 3, "record 3 has no field 'pushes'");
	eval_fails("moves == 5 && Pushes > 3", rec, 12, "record 12 has no field 'Pushes'");
	eval_fails("moves == 4 || 3 < pushes", rec, 2, "record 2 has no field 'pushes'");
	eval_fails("!(moves == pushes)", rec, 2, "record 2 has no field 'pushes'");
	/* the right-hand side is an operand too */
	eval_fails("moves == grade", rec, 4, "record 4 has no field 'grade'");
	/* with the field present the same expressions evaluate */
	const char *full = "####\n#@.#\n####\nmoves: 5\npushes: 4\n";
	assert_true(eval_on("has(pushes) && pushes > 3", full));
	assert_true(eval_on("pushes > 3 && has(pushes)", full));
	assert_false(eval_on("!has(pushes) || pushes > 4", full));
}

static void test_numbers_and_strings(void **state)
{
	(void)state;
	const char *rec =
		"####\n#@.#\n####\n"
		"ten: 10\n"
		"tenf: 10.0\n"
		"nine: 9\n"
		"neg: -2.5\n"
		"big: 1e3\n"
		"padded: 7  \t\n"
		"word: apple\n"
		"mixed: 7a\n"
		"hex: 0x10\n"
		"runs: 3/50\n"
		"empty:\n"
		"sentence: Microban 3\n"
		"quoted: say \"hi\" \\ ok\n";
	/* both numbers: numeric (as text "10" < "9") */
	assert_false(eval_on("ten < 9", rec));
	assert_true(eval_on("ten > nine", rec));
	assert_true(eval_on("ten == 10.0", rec));
	assert_true(eval_on("ten == tenf", rec));
	assert_true(eval_on("ten == 1e1", rec));
	assert_true(eval_on("ten == 100e-1", rec));
	assert_true(eval_on("big == 1000", rec));
	assert_true(eval_on("big >= 999.5", rec));
	assert_true(eval_on("neg < -2", rec));
	assert_true(eval_on("neg > -3", rec));
	assert_true(eval_on("neg==-2.5", rec));
	assert_true(eval_on("neg == -.25e1", rec));
	assert_true(eval_on("ten <= 10 && ten >= 10 && ten != 11", rec));
	assert_true(eval_on(".5 < 1", rec));
	/* blanks around a value do not matter */
	assert_true(eval_on("padded == 7", rec));
	assert_true(eval_on("padded == \"7\"", rec));
	/* a string literal is text: "10.0" is not the text "10" */
	assert_false(eval_on("tenf == \"10\"", rec));
	assert_true(eval_on("tenf == \"10.0\"", rec));
	assert_true(eval_on("ten < \"9\"", rec));   /* text order */
	/* not numbers: compared as text */
	assert_false(eval_on("mixed == 7", rec));
	assert_true(eval_on("mixed > 5", rec));     /* "7a" > "5" */
	assert_true(eval_on("mixed != 7", rec));
	assert_false(eval_on("hex == 16", rec));
	assert_true(eval_on("hex == \"0x10\"", rec));
	assert_true(eval_on("runs == \"3/50\"", rec));
	assert_true(eval_on("word < \"b\"", rec));
	assert_true(eval_on("word > \"apple pie\" || word < \"apple pie\"", rec));
	assert_true(eval_on("word < \"apple pie\"", rec));  /* prefix sorts first */
	assert_true(eval_on("word <= \"apple\" && word >= \"apple\"", rec));
	assert_true(eval_on("word == \"apple\"", rec));
	assert_false(eval_on("word == \"Apple\"", rec));   /* values keep their case */
	assert_true(eval_on("word > 3", rec));      /* "apple" > "3" */
	assert_true(eval_on("empty == \"\"", rec));
	assert_true(eval_on("empty < \"a\"", rec));
	assert_true(eval_on("sentence == \"Microban 3\"", rec));
	assert_true(eval_on("quoted == \"say \\\"hi\\\" \\\\ ok\"", rec));
	/* literals on both sides are allowed */
	assert_true(eval_on("1 < 2", rec));
	assert_true(eval_on("\"b\" > \"a\"", rec));

	double v = 0;
	assert_true(lk_expr_number(" 12 ", 4, &v));
	assert_true(v == 12.0);
	assert_true(lk_expr_number("-0.5e1", 6, &v));
	assert_true(v == -5.0);
	assert_true(lk_expr_number("3.", 2, NULL));
	assert_true(lk_expr_number("12abc", 2, &v));  /* only len bytes count */
	assert_true(v == 12.0);
	assert_false(lk_expr_number("", 0, NULL));
	assert_false(lk_expr_number("-", 1, NULL));
	assert_false(lk_expr_number(".", 1, NULL));
	assert_false(lk_expr_number("1e", 2, NULL));
	assert_false(lk_expr_number("+1", 2, NULL));
	assert_false(lk_expr_number("inf", 3, NULL));
	assert_false(lk_expr_number("nan", 3, NULL));
	assert_false(lk_expr_number("1 2", 3, NULL));
	assert_false(lk_expr_number("0x10", 4, NULL));
}

static void test_names(void **state)
{
	(void)state;
	const char *rec =
		"####\n#@.#\n####\n"
		"Pushes: 4\n"
		"difficulty-sd: 3.5\n"
		"states-bfs: unknown\n"
		"x.y_z: 2\n"
		"has: 9\n";
	/* case-insensitive */
	assert_true(eval_on("pushes == 4", rec));
	assert_true(eval_on("PUSHES == 4", rec));
	assert_true(eval_on("has(pUsHeS)", rec));
	/* '-', '.', '_' inside names */
	assert_true(eval_on("difficulty-sd < 4", rec));
	assert_true(eval_on("difficulty-sd>3", rec));
	assert_true(eval_on("states-bfs == \"unknown\"", rec));
	assert_true(eval_on("x.y_z == 2", rec));
	/* "has" not followed by '(' is a field name */
	assert_true(eval_on("has == 9", rec));
	assert_true(eval_on("has(has) && has > 8", rec));
	/* a '-' right after a name belongs to the name */
	eval_fails("pushes-1 == 3", rec, 5, "record 5 has no field 'pushes-1'");
}

static void test_has(void **state)
{
	(void)state;
	const char *rec = "####\n#@.#\n####\nnote:\nmoves: 3\n";
	assert_true(eval_on("has(moves)", rec));
	assert_true(eval_on("has(note)", rec));      /* present, if empty */
	assert_false(eval_on("has(pushes)", rec));
	assert_true(eval_on("has ( moves )", rec));
	assert_true(eval_on("has(moves) && !has(pushes)", rec));
	/* comments and grid lines are not fields */
	assert_false(eval_on("has(Level)", "; Level: 3\n####\n#@.#\n####\n"));
}

static void test_title_and_record(void **state)
{
	(void)state;
	/* title: the title field, else the comment before the grid */
	const char *by_comment = "; Microban\n; Microban 3\n####\n#@.#\n####\n";
	assert_true(eval_on("title == \"Microban 3\"", by_comment));
	assert_true(eval_on("has(title)", by_comment));
	const char *by_field = "; Microban 3\ntitle: Easy one\n####\n#@.#\n####\n";
	assert_true(eval_on("Title == \"Easy one\"", by_field));
	/* no title at all: missing like any other field */
	assert_false(eval_on("has(title)", "####\n#@.#\n####\n"));
	eval_fails("title == \"x\"", "####\n#@.#\n####\n", 8, "record 8 has no field 'title'");
	/* record: the record's number, unless the record has such a field */
	struct lk_record r;
	struct lk_strbuf buf = LK_STRBUF_INIT;
	bool result = false;
	make_record(&r, "####\n#@.#\n####\n", 17);
	struct lk_expr *e = parse_ok("record == 17 && has(record)");
	assert_int_equal(lk_expr_eval(e, &r, &result, NULL), 0);
	assert_true(result);
	assert_string_equal(lk_expr_value(&r, "RECORD", &buf), "17");
	assert_null(lk_expr_value(&r, "moves", &buf));
	lk_expr_free(e);
	lk_record_release(&r);
	lk_strbuf_release(&buf);
	assert_true(eval_on("record == \"own\"", "####\n#@.#\n####\nrecord: own\n"));
}

static void test_parse_errors(void **state)
{
	(void)state;
	parse_fails("(pushes > 3", "column 12: expected ')'");
	parse_fails("(pushes > 3 || (a == 1)", "column 24: expected ')'");
	parse_fails("pushes >", "column 9: expected a number, string or field name");
	parse_fails("pushes > &&", "column 10: expected a number, string or field name");
	parse_fails("", "column 1: expected a condition");
	parse_fails("   ", "column 4: expected a condition");
	parse_fails("pushes > 3 &&", "column 14: expected a condition");
	parse_fails("pushes > 3 && ) ", "column 15: expected a condition, found ')'");
	parse_fails("()", "column 2: expected a condition, found ')'");
	parse_fails("a == 1)", "column 7: unmatched ')'");
	parse_fails("a == 1 b == 2", "column 8: expected '&&', '||' or the end of the expression");
	parse_fails("a == \"x", "column 6: unterminated string");
	parse_fails("a == \"x\\", "column 6: unterminated string");
	parse_fails("a == \"\\q\"", "column 7: unknown escape '\\q' in string (only \\\" and \\\\)");
	parse_fails("a == 12x", "column 6: malformed number");
	parse_fails("a == 1.2.3", "column 6: malformed number");
	parse_fails("a == 1e", "column 6: malformed number");
	parse_fails("a == -", "column 6: expected a number after '-'");
	parse_fails("a == -x", "column 6: expected a number after '-'");
	parse_fails("a # 1", "column 3: unexpected character '#'");
	parse_fails("a == \x01", "column 6: unexpected character '\\x01'");
	parse_fails("a = 1", "column 3: unexpected '=' (use '==')");
	parse_fails("a == 1 & b == 2", "column 8: unexpected '&' (use '&&')");
	parse_fails("a == 1 | b == 2", "column 8: unexpected '|' (use '||')");
	parse_fails("a < b < c", "column 7: comparisons do not chain: join them with '&&'");
	parse_fails("pushes", "column 1: 'pushes' is not a condition: compare it (pushes == ...) "
		    "or test has(pushes)");
	parse_fails("a == 1 && difficulty-sd",
		    "column 11: 'difficulty-sd' is not a condition: compare it "
		    "(difficulty-sd == ...) or test has(difficulty-sd)");
	parse_fails("(pushes) > 3", "column 2: 'pushes' is not a condition: compare it "
		    "(pushes == ...) or test has(pushes)");
	parse_fails("3", "column 1: a literal is not a condition: compare it with a field");
	parse_fails("\"yes\" || a == 1",
		    "column 1: a literal is not a condition: compare it with a field");
	parse_fails("has(3)", "column 5: expected a field name in has()");
	parse_fails("has()", "column 5: expected a field name in has()");
	parse_fails("has(a", "column 6: expected ')'");
	parse_fails("has(a b)", "column 7: expected ')'");
	parse_fails("has(a) == 1", "column 8: expected '&&', '||' or the end of the expression");
	/* tabs and newlines are blanks; columns count bytes */
	parse_fails("a == 1\n\t&& ", "column 12: expected a condition");

	/* Deep nesting is refused, not a stack overflow. */
	size_t depth = 100000;
	char *deep = malloc(2 * depth + 16);
	assert_non_null(deep);
	memset(deep, '(', depth);
	strcpy(deep + depth, "a == 1");
	memset(deep + depth + 6, ')', depth);
	deep[2 * depth + 6] = '\0';
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_null(lk_expr_parse(deep, &err));
	assert_non_null(strstr(err.buf, "nested too deeply"));
	lk_strbuf_release(&err);
	memset(deep, '!', depth);
	strcpy(deep + depth, "has(a)");
	assert_null(lk_expr_parse(deep, NULL));
	free(deep);
	/* but moderate nesting is fine */
	assert_true(eval_on("((((((((((((((((((((a == 1))))))))))))))))))))", level));
}

static void test_long_chain(void **state)
{
	(void)state;
	/* A chain of 20000 conditions is one level deep: no recursion per
	 * operand when parsing, evaluating or freeing. */
	struct lk_strbuf text = LK_STRBUF_INIT;
	for (int i = 0; i < 20000; i++)
		lk_strbuf_addf(&text, "%sa == 1", i ? " && " : "");
	assert_true(eval_on(text.buf, level));
	lk_strbuf_addstr(&text, " && b == 1");
	assert_false(eval_on(text.buf, level));
	lk_strbuf_reset(&text);
	for (int i = 0; i < 20000; i++)
		lk_strbuf_addf(&text, "%sb == 1", i ? " || " : "");
	assert_false(eval_on(text.buf, level));
	lk_strbuf_release(&text);
}

static void test_field_list(void **state)
{
	(void)state;
	struct lk_expr *e = parse_ok("a == 1 && A > 2 || has(b-c) && d == e || !(\"a\" < F) || f > 1");
	assert_int_equal(lk_expr_field_count(e), 5);
	assert_string_equal(lk_expr_field(e, 0), "a");
	assert_string_equal(lk_expr_field(e, 1), "b-c");
	assert_string_equal(lk_expr_field(e, 2), "d");
	assert_string_equal(lk_expr_field(e, 3), "e");
	assert_string_equal(lk_expr_field(e, 4), "F");
	assert_null(lk_expr_field(e, 5));
	lk_expr_free(e);
	e = parse_ok("1 < 2");
	assert_int_equal(lk_expr_field_count(e), 0);
	lk_expr_free(e);
	lk_expr_free(NULL);
}

/* One parsed expression serves many records. */
/* What filter says of a record without a field: the names it has, each
 * once (case-insensitively), and a suggestion within two edits. */
static void test_describe_fields(void **state)
{
	(void)state;
	static const struct { const char *record, *missing, *said; } cases[] = {
		{ "; Level 3\npushes: 12\nmoves: 40\nPushes: 13\n####\n#@.#\n####\n", "pushs",
		  " (did you mean 'pushes'? this record's fields: title, pushes, moves, record)" },
		{ "pushes: 12\n####\n#@.#\n####\n", "solvable",
		  " (this record's fields: pushes, record)" },
		{ "####\n#@.#\n####\n", "tilte",
		  " (this record has no fields; record is its number)" },
		{ "; A title\n####\n#@.#\n####\n", "TITEL",
		  " (did you mean 'title'? this record's fields: title, record)" },
		/* a title field is named once */
		{ "title: Room\nmoves: 4\n####\n#@.#\n####\n", "pushes",
		  " (this record's fields: title, moves, record)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct lk_record rec;
		struct lk_strbuf out = LK_STRBUF_INIT;
		make_record(&rec, cases[i].record, 1);
		lk_expr_describe_fields(&rec, cases[i].missing, &out);
		assert_string_equal(out.buf, cases[i].said);
		lk_strbuf_release(&out);
		lk_record_release(&rec);
	}
}

static void test_reuse(void **state)
{
	(void)state;
	struct lk_expr *e = parse_ok("has(pushes) && pushes >= 30");
	const char *recs[] = {
		"####\n#@.#\n####\npushes: 29\n",
		"####\n#@.#\n####\npushes: 30\n",
		"####\n#@.#\n####\n",
		"####\n#@.#\n####\npushes: 31.5\n",
	};
	const bool want[] = { false, true, false, true };
	for (size_t i = 0; i < 4; i++) {
		struct lk_record r;
		bool result = !want[i];
		make_record(&r, recs[i], i + 1);
		assert_int_equal(lk_expr_eval(e, &r, &result, NULL), 0);
		assert_int_equal(result, want[i]);
		lk_record_release(&r);
	}
	lk_expr_free(e);
}


/* ------------------------------------------------------------- facts */

/* A table of facts with bounds: name, argument (NULL for plain names). */
struct fact {
	const char *name, *arg;
	double lo, hi;
};

static int lookup_table(void *ctx, const char *name, const char *arg, double *lo, double *hi)
{
	for (const struct fact *f = ctx; f->name; f++) {
		if (strcmp(f->name, name) != 0 || (f->arg == NULL) != (arg == NULL) ||
		    (arg && strcmp(f->arg, arg) != 0))
			continue;
		*lo = f->lo;
		*hi = f->hi;
		return 0;
	}
	return -1;
}

static enum lk_truth facts_eval(const char *expr, const struct fact *facts)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *e = parse_ok(expr);
	enum lk_truth t = LK_MAYBE;
	if (lk_expr_eval_facts(e, lookup_table, (void *)facts, &t, &err) != 0)
		fail_msg("'%s' fails: %s", expr, err.buf);
	lk_strbuf_release(&err);
	lk_expr_free(e);
	return t;
}

static void test_facts_exact(void **state)
{
	(void)state;
	const struct fact f[] = {
		{ "uses", "SP2", 1, 1 }, { "uses", "CMB2", 0, 0 }, { "count", "BND", 6, 6 },
		{ "count", "blocker", 0, 0 }, { "network", NULL, 1, 1 }, { NULL, NULL, 0, 0 },
	};
	assert_int_equal(facts_eval("uses(SP2)", f), LK_TRUE);
	assert_int_equal(facts_eval("uses(CMB2)", f), LK_FALSE);
	assert_int_equal(facts_eval("!uses(CMB2)", f), LK_TRUE);
	assert_int_equal(facts_eval("! uses (SP2)", f), LK_FALSE);
	assert_int_equal(facts_eval("count(BND) >= 6", f), LK_TRUE);
	assert_int_equal(facts_eval("count(BND) > 6", f), LK_FALSE);
	assert_int_equal(facts_eval("6 == count(BND) && network == 1", f), LK_TRUE);
	assert_int_equal(facts_eval("uses(SP2) && uses(CMB2)", f), LK_FALSE);
	assert_int_equal(facts_eval("uses(CMB2) || count(blocker) == 0", f), LK_TRUE);
	assert_int_equal(facts_eval("count(BND) != 6", f), LK_FALSE);
	assert_int_equal(facts_eval("has(network) && !has(moves)", f), LK_TRUE);
}

static void test_facts_bounds(void **state)
{
	(void)state;
	const struct fact f[] = {
		{ "count", "BND", 3, 7 }, { "uses", "SP2", 0, 1 }, { "uses", "SP3", 1, 1 },
		{ "uses", "CMB2", 0, 0 }, { "network", NULL, 2, 4 }, { NULL, NULL, 0, 0 },
	};
	assert_int_equal(facts_eval("count(BND) >= 6", f), LK_MAYBE);
	assert_int_equal(facts_eval("count(BND) >= 3", f), LK_TRUE);
	assert_int_equal(facts_eval("count(BND) < 3", f), LK_FALSE);
	assert_int_equal(facts_eval("count(BND) <= 7", f), LK_TRUE);
	assert_int_equal(facts_eval("count(BND) > 7", f), LK_FALSE);
	assert_int_equal(facts_eval("count(BND) == 9", f), LK_FALSE);
	assert_int_equal(facts_eval("count(BND) == 5", f), LK_MAYBE);
	assert_int_equal(facts_eval("count(BND) != 9", f), LK_TRUE);
	assert_int_equal(facts_eval("network == 1", f), LK_FALSE);
	assert_int_equal(facts_eval("network <= 2", f), LK_MAYBE);
	assert_int_equal(facts_eval("uses(SP2)", f), LK_MAYBE);
	assert_int_equal(facts_eval("!uses(SP2)", f), LK_MAYBE);
	/* Kleene: a maybe is decided by a false under && and a true under || */
	assert_int_equal(facts_eval("uses(SP2) && uses(CMB2)", f), LK_FALSE);
	assert_int_equal(facts_eval("uses(SP2) || uses(SP3)", f), LK_TRUE);
	assert_int_equal(facts_eval("uses(SP2) && uses(SP3)", f), LK_MAYBE);
	assert_int_equal(facts_eval("uses(SP2) || uses(CMB2)", f), LK_MAYBE);
}

static void test_facts_errors(void **state)
{
	(void)state;
	const struct fact f[] = { { "count", "BND", 1, 1 }, { NULL, NULL, 0, 0 } };
	struct lk_strbuf err = LK_STRBUF_INIT;
	enum lk_truth t;
	struct lk_expr *e = parse_ok("count(BND) == 1 || count(XYZ) > 2");
	/* evaluation stops before the unknown fact; the check does not */
	assert_int_equal(lk_expr_eval_facts(e, lookup_table, (void *)f, &t, &err), 0);
	assert_int_equal(t, LK_TRUE);
	assert_int_equal(lk_expr_check_facts(e, lookup_table, (void *)f, &err), -1);
	assert_string_equal(err.buf, "no fact 'count(XYZ)'");
	lk_expr_free(e);
	lk_strbuf_reset(&err);
	e = parse_ok("count(BND) == \"x\"");
	assert_int_equal(lk_expr_eval_facts(e, lookup_table, (void *)f, &t, &err), -1);
	assert_string_equal(err.buf, "\"x\" is text: facts are numbers");
	lk_expr_free(e);
	lk_strbuf_reset(&err);
	e = parse_ok("moves > 3");
	assert_int_equal(lk_expr_check_facts(e, lookup_table, (void *)f, &err), -1);
	assert_string_equal(err.buf, "no fact 'moves'");
	lk_expr_free(e);
	lk_strbuf_release(&err);
	/* a record has no facts */
	eval_fails("uses(SP2)", level, 4, "record 4 has no field 'uses(SP2)'");
	eval_fails("a == 1 && count(BND) > 1", level, 5, "record 5 has no field 'count(BND)'");
	assert_true(eval_on("a == 1 || count(BND) > 1", level));
	/* parse errors of calls */
	parse_fails("uses()", "column 6: expected a name or number in uses()");
	parse_fails("uses(SP2", "column 9: expected ')'");
	parse_fails("uses(SP2 \"x\")", "column 10: expected ')'");
	parse_fails("uses(box 2", "column 11: expected ')'");
	parse_fails("uses(\"x\")", "column 6: expected a name or number in uses()");
	parse_fails("count(BND) >= 6 >= 1", "column 17: comparisons do not chain: join them with '&&'");
}

/* Concepts: calls of several words, bare names as conditions, and what
 * lk_expr_visit_facts reports of each fact's use. */
struct seen {
	char text[512];
};

static void note(void *ctx, const char *name, const char *arg, unsigned trend, double number,
		 bool with_fact)
{
	struct seen *s = ctx;
	size_t n = strlen(s->text);
	snprintf(s->text + n, sizeof s->text - n, "%s%s%s%s%s:%s:%g%s;", name, arg ? "(" : "",
		 arg ? arg : "", arg ? ")" : "", "",
		 trend == LK_TREND_UP ? "up" : trend == LK_TREND_DOWN ? "down" : "both",
		 isnan(number) ? -1.0 : number, with_fact ? ":fact" : "");
}

static const char *trends(const char *text, char *out, size_t size)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *e = lk_expr_parse_concept(text, &err);
	if (!e)
		fail_msg("'%s' does not parse: %s", text, err.buf);
	struct seen s = { "" };
	lk_expr_visit_facts(e, note, &s);
	snprintf(out, size, "%s", s.text);
	lk_expr_free(e);
	lk_strbuf_release(&err);
	return out;
}

static void test_concepts(void **state)
{
	(void)state;
	const struct fact f[] = {
		{ "uses", "box 2", 1, 1 }, { "count", "rule 7", 3, 3 }, { "combo", NULL, 0, 0 },
		{ "length", NULL, 12, 12 }, { NULL, NULL, 0, 0 },
	};
	assert_int_equal(facts_eval("uses(box 2)", f), LK_TRUE);
	assert_int_equal(facts_eval("uses( box   2 )", f), LK_TRUE);
	/* fractions and sums in a call (the laser game's powers): words
	 * joined by one space, '+' a word of its own */
	const struct fact p[] = {
		{ "into", "1/12 + 1/12", 2, 2 }, { "made", "combiner 1/6", 1, 1 },
		{ "adds", "1/2 + 1/4 + 1", 0, 0 }, { NULL, NULL, 0, 0 },
	};
	assert_int_equal(facts_eval("into(1/12 + 1/12) == 2", p), LK_TRUE);
	assert_int_equal(facts_eval("into(1/12+1/12) == 2", p), LK_TRUE);
	assert_int_equal(facts_eval("made(combiner  1/6) >= 1", p), LK_TRUE);
	assert_int_equal(facts_eval("adds(1/2 +1/4+ 1) == 0", p), LK_TRUE);
	parse_fails("into(1/12 +)", "column 12: expected a name or number after '+' in into()");
	parse_fails("into(+ 1)", "column 6: unexpected character '+'");
	parse_fails("into(1/x)", "column 7: unexpected character '/'");
	assert_int_equal(facts_eval("count(rule 7) == 3 && length >= 12", f), LK_TRUE);
	/* a bare name is a condition in a concept, never in a filter */
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *e = lk_expr_parse_concept("!combo && length > 3", &err);
	assert_non_null(e);
	enum lk_truth t = LK_MAYBE;
	assert_int_equal(lk_expr_eval_facts(e, lookup_table, (void *)f, &t, &err), 0);
	assert_int_equal(t, LK_TRUE);
	lk_expr_free(e);
	parse_fails("combo", "column 1: 'combo' is not a condition: compare it (combo == ...) "
		    "or test has(combo)");
	/* against a record, a bare name is true when its field is a number
	 * other than 0 */
	struct lk_record rec;
	lk_record_init(&rec);
	lk_record_set(&rec, "stars", "3");
	lk_record_set(&rec, "dead", "0");
	bool r = false;
	e = lk_expr_parse_concept("stars && !dead", &err);
	assert_int_equal(lk_expr_eval(e, &rec, &r, &err), 0);
	assert_true(r);
	lk_expr_free(e);
	lk_record_release(&rec);
	lk_strbuf_release(&err);

	char out[512];
	assert_string_equal(trends("count(push) >= 30", out, sizeof out), "count(push):up:30;");
	assert_string_equal(trends("!(count(push) >= 30)", out, sizeof out), "count(push):down:30;");
	assert_string_equal(trends("5 > length", out, sizeof out), "length:down:5;");
	assert_string_equal(trends("uses(box 2) || combo", out, sizeof out),
			    "uses(box 2):up:0;combo:up:0;");
	assert_string_equal(trends("count(a) == 2 && has(b)", out, sizeof out), "count(a):both:2;");
	assert_string_equal(trends("count(a) <= count(b)", out, sizeof out),
			    "count(a):down:-1:fact;count(b):up:-1:fact;");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_short_circuit),
		cmocka_unit_test(test_numbers_and_strings),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_has),
		cmocka_unit_test(test_title_and_record),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_long_chain),
		cmocka_unit_test(test_field_list),
		cmocka_unit_test(test_describe_fields),
		cmocka_unit_test(test_reuse),
		cmocka_unit_test(test_facts_exact),
		cmocka_unit_test(test_facts_bounds),
		cmocka_unit_test(test_facts_errors),
		cmocka_unit_test(test_concepts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
