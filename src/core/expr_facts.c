/*
 * expr_facts.c - evaluating a filter expression over the facts of one
 * solution (see expr.h), with bounds: the same tree as expr.c, but every
 * operand is a number interval [lo, hi] and the answer may be "maybe".
 * A search uses the bounds to cut a branch as soon as the concept is
 * decided for every solution below it; a complete solution has exact
 * facts and gets a yes or no.
 */
#include "levelkit/expr.h"

#include <string.h>

#include "expr_internal.h"

struct interval {
	double lo, hi;
};

static int operand(const struct operand *o, lk_expr_lookup_fn lookup, void *ctx,
		   struct interval *v, struct lk_strbuf *err)
{
	switch (o->kind) {
	case O_NUM:
		v->lo = v->hi = o->num;
		return 0;
	case O_STR:
		if (err)
			lk_strbuf_addf(err, "\"%s\" is text: facts are numbers", o->text);
		return -1;
	case O_FIELD:
	case O_CALL:
		if (lookup(ctx, o->text, o->kind == O_CALL ? o->arg : NULL, &v->lo, &v->hi) == 0)
			return 0;
		if (err) {
			if (o->kind == O_CALL)
				lk_strbuf_addf(err, "no fact '%s(%s)'", o->text, o->arg);
			else
				lk_strbuf_addf(err, "no fact '%s'", o->text);
		}
		return -1;
	}
	return -1;
}

static enum lk_truth truth(bool yes, bool no)
{
	return yes ? LK_TRUE : no ? LK_FALSE : LK_MAYBE;
}

static enum lk_truth not3(enum lk_truth t)
{
	return t == LK_MAYBE ? LK_MAYBE : t == LK_TRUE ? LK_FALSE : LK_TRUE;
}

static enum lk_truth compare(enum cmp_op op, struct interval a, struct interval b)
{
	switch (op) {
	case C_LT: return truth(a.hi < b.lo, a.lo >= b.hi);
	case C_LE: return truth(a.hi <= b.lo, a.lo > b.hi);
	case C_GT: return truth(a.lo > b.hi, a.hi <= b.lo);
	case C_GE: return truth(a.lo >= b.hi, a.hi < b.lo);
	case C_EQ: return truth(a.lo == a.hi && b.lo == b.hi && a.lo == b.lo, a.hi < b.lo || b.hi < a.lo);
	case C_NE: return not3(truth(a.lo == a.hi && b.lo == b.hi && a.lo == b.lo, a.hi < b.lo || b.hi < a.lo));
	}
	return LK_MAYBE;
}

static int eval(const struct node *n, lk_expr_lookup_fn lookup, void *ctx, enum lk_truth *r,
		struct lk_strbuf *err)
{
	struct interval a, b;
	switch (n->kind) {
	case N_OR:
	case N_AND: {
		/* stop at an operand that decides; a maybe decides nothing */
		enum lk_truth stop = n->kind == N_OR ? LK_TRUE : LK_FALSE;
		bool maybe = false;
		for (size_t i = 0; i < n->nkids; i++) {
			if (eval(n->kids[i], lookup, ctx, r, err) < 0)
				return -1;
			if (*r == stop)
				return 0;
			maybe |= *r == LK_MAYBE;
		}
		*r = maybe ? LK_MAYBE : not3(stop);
		return 0;
	}
	case N_NOT:
		if (eval(n->kids[0], lookup, ctx, r, err) < 0)
			return -1;
		*r = not3(*r);
		return 0;
	case N_HAS:
		*r = lookup(ctx, n->l.text, NULL, &a.lo, &a.hi) == 0 ? LK_TRUE : LK_FALSE;
		return 0;
	case N_TRUTH:
		if (operand(&n->l, lookup, ctx, &a, err) < 0)
			return -1;
		*r = truth(a.lo > 0 || a.hi < 0, a.lo == 0 && a.hi == 0);
		return 0;
	case N_CMP:
		if (operand(&n->l, lookup, ctx, &a, err) < 0 || operand(&n->r, lookup, ctx, &b, err) < 0)
			return -1;
		*r = compare(n->op, a, b);
		return 0;
	}
	return -1;
}

int lk_expr_eval_facts(const struct lk_expr *e, lk_expr_lookup_fn lookup, void *ctx,
		       enum lk_truth *result, struct lk_strbuf *err)
{
	return eval(e->root, lookup, ctx, result, err);
}

static int check(const struct node *n, lk_expr_lookup_fn lookup, void *ctx, struct lk_strbuf *err)
{
	struct interval v;
	for (size_t i = 0; i < n->nkids; i++)
		if (check(n->kids[i], lookup, ctx, err) < 0)
			return -1;
	if (n->kind == N_TRUTH || n->kind == N_CMP)
		if (operand(&n->l, lookup, ctx, &v, err) < 0)
			return -1;
	if (n->kind == N_CMP && operand(&n->r, lookup, ctx, &v, err) < 0)
		return -1;
	return 0;
}

int lk_expr_check_facts(const struct lk_expr *e, lk_expr_lookup_fn lookup, void *ctx,
			struct lk_strbuf *err)
{
	return check(e->root, lookup, ctx, err);
}
