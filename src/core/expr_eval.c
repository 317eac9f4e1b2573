/*
 * expr_eval.c - evaluating a parsed field condition on a record (see
 * expr.h): field values as text or numbers, comparisons, and the tree;
 * and, for a record without a field asked for, the names it has.
 */
#include "levelkit/expr.h"

#include "expr_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ evaluation */

const char *lk_expr_value(const struct lk_record *rec, const char *name, struct lk_strbuf *buf)
{
	size_t len = strlen(name);
	if (lk_field_name_eq(name, len, "title")) {
		const char *t = lk_record_title(rec, buf);
		return t ? t : lk_record_get(rec, name);
	}
	const char *v = lk_record_get(rec, name);
	if (!v && lk_field_name_eq(name, len, "record")) {
		lk_strbuf_reset(buf);
		lk_strbuf_addf(buf, "%zu", rec->number);
		return buf->buf;
	}
	return v;
}

struct value {
	const char *text;
	size_t len;
	bool is_num;
	double num;
};

static int operand_value(const struct operand *o, const struct lk_record *rec,
			 struct value *v, struct lk_strbuf *buf, struct lk_strbuf *err)
{
	if (o->kind == O_CALL) {
		/* facts such as uses(SP2) belong to a solution (expr_facts.c) */
		if (err)
			lk_strbuf_addf(err, "record %zu has no field '%s(%s)'", rec->number, o->text,
				       o->arg);
		return -1;
	}
	if (o->kind != O_FIELD) {
		v->text = o->text;
		v->len = o->len;
		v->is_num = o->kind == O_NUM;
		v->num = o->num;
		return 0;
	}
	const char *s = lk_expr_value(rec, o->text, buf);
	if (!s) {
		if (err)
			lk_strbuf_addf(err, "record %zu has no field '%s'", rec->number, o->text);
		return -1;
	}
	size_t len = strlen(s);
	while (len && lk_expr_space(*s))
		s++, len--;
	while (len && lk_expr_space(s[len - 1]))
		len--;
	v->text = s;
	v->len = len;
	v->is_num = lk_expr_number(s, len, &v->num);
	return 0;
}

static int compare(const struct node *n, const struct lk_record *rec, bool *result,
		   struct lk_strbuf *err)
{
	struct value a, b;
	struct lk_strbuf abuf = LK_STRBUF_INIT, bbuf = LK_STRBUF_INIT;
	int rc = -1;
	if (operand_value(&n->l, rec, &a, &abuf, err) < 0 ||
	    operand_value(&n->r, rec, &b, &bbuf, err) < 0)
		goto out;
	int c;
	if (a.is_num && b.is_num) {
		c = a.num < b.num ? -1 : a.num > b.num ? 1 : 0;
	} else if (n->op == C_EQ || n->op == C_NE) {
		c = a.len == b.len && memcmp(a.text, b.text, a.len) == 0 ? 0 : 1;
	} else {
		c = memcmp(a.text, b.text, a.len < b.len ? a.len : b.len);
		if (c == 0)
			c = a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
	}
	switch (n->op) {
	case C_EQ: *result = c == 0; break;
	case C_NE: *result = c != 0; break;
	case C_LT: *result = c < 0; break;
	case C_LE: *result = c <= 0; break;
	case C_GT: *result = c > 0; break;
	case C_GE: *result = c >= 0; break;
	}
	rc = 0;
out:
	lk_strbuf_release(&abuf);
	lk_strbuf_release(&bbuf);
	return rc;
}

static int eval(const struct node *n, const struct lk_record *rec, bool *result,
		struct lk_strbuf *err)
{
	switch (n->kind) {
	case N_OR:
	case N_AND: {
		/* Stop at the first operand that decides: true for ||,
		 * false for &&. */
		bool stop_on = n->kind == N_OR;
		for (size_t i = 0; i < n->nkids; i++) {
			if (eval(n->kids[i], rec, result, err) < 0)
				return -1;
			if (*result == stop_on)
				return 0;
		}
		*result = !stop_on;
		return 0;
	}
	case N_NOT:
		if (eval(n->kids[0], rec, result, err) < 0)
			return -1;
		*result = !*result;
		return 0;
	case N_HAS: {
		struct lk_strbuf buf = LK_STRBUF_INIT;
		*result = lk_expr_value(rec, n->l.text, &buf) != NULL;
		lk_strbuf_release(&buf);
		return 0;
	}
	case N_CMP:
		return compare(n, rec, result, err);
	case N_TRUTH: {
		/* a call (a fact: records have none) fails; a bare name (only
		 * in concepts) is true when its field is a number other than 0 */
		struct value v;
		struct lk_strbuf buf = LK_STRBUF_INIT;
		int rc = operand_value(&n->l, rec, &v, &buf, err);
		*result = rc == 0 && v.is_num && v.num != 0;
		lk_strbuf_release(&buf);
		return rc;
	}
	}
	return -1;
}

int lk_expr_eval(const struct lk_expr *e, const struct lk_record *rec, bool *result,
		 struct lk_strbuf *err)
{
	bool r = false;
	if (eval(e->root, rec, &r, err) < 0)
		return -1;
	*result = r;
	return 0;
}

/* ------------------------------------------------------ missing fields */

/* Levenshtein distance of a and b, ignoring case, capped at 3. */
static size_t distance(const char *a, size_t n, const char *b)
{
	size_t m = strlen(b), row[64];
	if (n >= 64 || m >= 64)
		return 3;
	for (size_t j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t up = row[j];
			bool same = (a[i - 1] | 0x20) == (b[j - 1] | 0x20);
			size_t best = diag + !same;
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[m] < 3 ? row[m] : 3;
}

void lk_expr_describe_fields(const struct lk_record *rec, const char *missing,
			     struct lk_strbuf *out)
{
	struct lk_strbuf names = LK_STRBUF_INIT, tbuf = LK_STRBUF_INIT;
	const char *best = NULL;
	size_t best_len = 0, best_d = 3;
	bool has_title = lk_record_title(rec, &tbuf) != NULL;
	if (has_title) {
		lk_strbuf_addstr(&names, "title");
		best_d = distance("title", 5, missing);
		best = best_d < 3 ? "title" : NULL;
		best_len = 5;
	}
	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *l = &rec->lines[i];
		if (l->kind != LK_LINE_FIELD)
			continue;
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++)
			dup = rec->lines[j].kind == LK_LINE_FIELD &&
			      lk_field_names_equal(rec->lines[j].text, rec->lines[j].name_len,
						   l->text, l->name_len);
		/* a title field is the title, already named first */
		if (dup || (has_title && lk_field_names_equal(l->text, l->name_len, "title", 5)))
			continue;
		lk_strbuf_addf(&names, "%s%.*s", names.len ? ", " : "", (int)l->name_len, l->text);
		size_t d = distance(l->text, l->name_len, missing);
		if (d < best_d) {
			best_d = d;
			best = l->text;
			best_len = l->name_len;
		}
	}
	lk_strbuf_addstr(out, " (");
	if (best)
		lk_strbuf_addf(out, "did you mean '%.*s'? ", (int)best_len, best);
	if (names.len)
		lk_strbuf_addf(out, "this record's fields: %s, record)", names.buf);
	else
		lk_strbuf_addstr(out, "this record has no fields; record is its number)");
	lk_strbuf_release(&names);
	lk_strbuf_release(&tbuf);
}
