/*
 * expr.h - conditions on a record's fields, as used by `filter`.
 *
 * An expression is parsed once and then evaluated against any number of
 * records.  The language (docs/filter.md has the full reference):
 *
 *   expr    := and ( "||" and )*
 *   and     := unary ( "&&" unary )*
 *   unary   := "!" unary | "(" expr ")" | "has" "(" NAME ")" | call | compare
 *   compare := operand ( "==" | "!=" | "<" | "<=" | ">" | ">=" ) operand
 *   operand := NUMBER | STRING | NAME | call
 *   call    := NAME "(" ( NAME | NUMBER )+ ")"     (words joined by one space)
 *
 * NUMBER is -?(D+(.D*)?|.D+)([eE][+-]?D+)? (D a digit); STRING is double
 * quoted with \" and \\ as its only escapes; NAME is a field name,
 * [A-Za-z][A-Za-z0-9_.-]*, looked up case-insensitively.  "has" is a field
 * name like any other unless a '(' follows it.  Two names are also defined
 * for records that lack them as fields, with the meaning of the tsv and
 * json columns of the same name (see lk_expr_value): "title" is the
 * level's title (lk_record_title), "record" the record's number.
 *
 * Precedence, tightest first: "!", comparisons, "&&", "||".  Every operand
 * of "!", "&&", "||" and every parenthesised expression must be a
 * condition: a bare name or literal there is a parse error, so `!x == 1`
 * (which would read as `(!x) == 1`) is rejected and must be written
 * `!(x == 1)` or `x != 1`.  Comparisons do not chain (`a < b < c` is an
 * error).
 *
 * A comparison is numeric when both sides are numbers: a number literal,
 * or a field whose whole value, trimmed of blanks, is written like a
 * NUMBER.  Otherwise both sides compare as text: == and != by exact text
 * (field values trimmed of blanks, literals as written), the others by
 * byte order (strcmp).  A string literal is always text, so `moves == "7"`
 * compares text.  "&&" and "||" evaluate left to right and stop as soon as
 * the result is known, so `has(pushes) && pushes > 3` never reads a
 * missing field.
 *
 * A call such as uses(SP2) or count(BND) is a *fact* of one solution,
 * which a game reports (lk_expr_eval_facts); standing alone as a
 * condition it is true when its value is not 0.  Records have no facts:
 * evaluated against a record, a call fails like a missing field.
 */
#ifndef LEVELKIT_EXPR_H
#define LEVELKIT_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "levelkit/record.h"
#include "levelkit/strbuf.h"

struct lk_expr;

/*
 * Parse text.  Returns the expression, or NULL with a message in err of
 * the form "column N: what was expected" (N counts bytes from 1; the end
 * of the text is column strlen(text) + 1).  err may be NULL.
 */
struct lk_expr *lk_expr_parse(const char *text, struct lk_strbuf *err);

/*
 * Evaluate e against rec.  Returns 0 with *result set, or -1 when the
 * evaluation needs a field rec lacks, with the message
 * "record N has no field 'name'" (N is rec->number; the name as spelled in
 * the expression) in err, which may be NULL.
 */
int lk_expr_eval(const struct lk_expr *e, const struct lk_record *rec, bool *result,
		 struct lk_strbuf *err);

void lk_expr_free(struct lk_expr *e);

/*
 * The value the expression language sees for a field: the value of the
 * record's field name (as lk_record_get), except that "title" is the
 * record's title (lk_record_title: a non-empty title field, else the last
 * comment before the grid) and "record", when the record has no such
 * field, its number.  NULL when there is none.  The result may point into
 * buf, which must not be NULL.
 */
const char *lk_expr_value(const struct lk_record *rec, const char *name, struct lk_strbuf *buf);

/* What to say of a record without the field `missing` that an expression
 * or a sort key names: " (did you mean 'pushes'? this record's fields:
 * title, moves, ..., record)", appended to out (names compared ignoring
 * case, a suggestion only within two edits). */
void lk_expr_describe_fields(const struct lk_record *rec, const char *missing,
			     struct lk_strbuf *out);

/* The distinct field names e mentions (in comparisons and in has()), in
 * order of first mention, spelled as first written; names that differ
 * only in case count once. */
size_t lk_expr_field_count(const struct lk_expr *e);
const char *lk_expr_field(const struct lk_expr *e, size_t i);

/*
 * Is text[0..len) a number in the expression language's syntax (after
 * blanks at both ends are dropped)?  If so and value is not NULL, *value
 * is set.  Used for field values, and by filter --by.
 */
bool lk_expr_number(const char *text, size_t len, double *value);

/*
 * Facts: conditions over what a game reports about one solution (the
 * concepts of solve --shortcut and filter --forall).  A game answers
 * lookup(ctx, name, arg, &lo, &hi) for a plain name (arg NULL) or a call
 * name(arg) with 0 and the fact's value, or bounds on it when only bounds
 * are known (a search evaluating a partial solution: lo <= value <= hi),
 * or -1 when there is no such fact.  Every operand is then a number
 * interval and the result is three-valued (Kleene): a comparison is true
 * when it holds for every value in the bounds, false when for none,
 * unknown otherwise; "&&", "||" and "!" combine as usual.  With exact
 * values (lo == hi) the result is never unknown.  has(name) is true when
 * the fact exists.  String literals are not facts and cannot be compared
 * with them.
 */
enum lk_truth { LK_FALSE, LK_TRUE, LK_MAYBE };
/* Parse a concept: as lk_expr_parse, but a bare name may also stand as a
 * condition (Skiddy's `combo`: true when not 0). */
struct lk_expr *lk_expr_parse_concept(const char *text, struct lk_strbuf *err);
typedef int (*lk_expr_lookup_fn)(void *ctx, const char *name, const char *arg, double *lo,
				 double *hi);

/* 0 with *result, or -1 with "no fact 'name'" (or "no fact 'f(x)'") in
 * err (may be NULL).  Like lk_expr_eval, only the operands the result
 * depends on are looked up. */
int lk_expr_eval_facts(const struct lk_expr *e, lk_expr_lookup_fn lookup, void *ctx,
		       enum lk_truth *result, struct lk_strbuf *err);
/* Check every name and call in e against lookup, so that a concept with a
 * misspelt fact is refused before a search starts: 0, or -1 with the
 * message of the first unknown one. */
int lk_expr_check_facts(const struct lk_expr *e, lk_expr_lookup_fn lookup, void *ctx,
			struct lk_strbuf *err);

/*
 * How a condition depends on its facts, for searches that keep counts:
 * fn is called once per occurrence of a fact (a plain name or a call)
 * outside has(), with the occurrence's trend as the fact's value grows
 * (LK_TREND_UP: the condition can only become true, never false;
 * LK_TREND_DOWN: the reverse; LK_TREND_BOTH: either, as in ==), negations
 * taken into account, and the number it is compared with (NAN when none,
 * or when with_fact: compared with another fact).  Facts are taken to be
 * counts (never negative).
 */
enum { LK_TREND_UP = 1, LK_TREND_DOWN = 2, LK_TREND_BOTH = 3 };
typedef void (*lk_expr_fact_visit_fn)(void *ctx, const char *name, const char *arg,
				      unsigned trend, double number, bool with_fact);
void lk_expr_visit_facts(const struct lk_expr *e, lk_expr_fact_visit_fn fn, void *ctx);

#endif
