/*
 * expr_trend.c - how a condition over facts depends on each fact (see
 * expr.h, lk_expr_visit_facts): the state-space concept queries keep a
 * count per fact only as far as the condition can tell counts apart, and
 * turn a count the condition only ever dislikes into a search cost.
 */
#include "levelkit/expr.h"

#include <math.h>

#include "expr_internal.h"

static bool is_fact(const struct operand *o)
{
	return o->kind == O_FIELD || o->kind == O_CALL;
}

static void report(const struct operand *o, unsigned trend, double number, bool with_fact,
		   lk_expr_fact_visit_fn fn, void *ctx)
{
	fn(ctx, o->text, o->kind == O_CALL ? o->arg : NULL, trend, number, with_fact);
}

/* The trend of `l op r` in l as l grows, r fixed. */
static unsigned cmp_trend(enum cmp_op op)
{
	switch (op) {
	case C_GE: case C_GT: return LK_TREND_UP;
	case C_LE: case C_LT: return LK_TREND_DOWN;
	default: return LK_TREND_BOTH;
	}
}

static unsigned flip(unsigned trend)
{
	return (unsigned)(((trend & LK_TREND_UP) ? LK_TREND_DOWN : 0) |
			  ((trend & LK_TREND_DOWN) ? LK_TREND_UP : 0));
}

static void visit(const struct node *n, bool negated, lk_expr_fact_visit_fn fn, void *ctx)
{
	switch (n->kind) {
	case N_OR:
	case N_AND:
		for (size_t i = 0; i < n->nkids; i++)
			visit(n->kids[i], negated, fn, ctx);
		return;
	case N_NOT:
		visit(n->kids[0], !negated, fn, ctx);
		return;
	case N_HAS:
		return;
	case N_TRUTH: {
		/* true when not 0: a count can only make it truer */
		unsigned t = negated ? flip(LK_TREND_UP) : LK_TREND_UP;
		report(&n->l, t, 0, false, fn, ctx);
		return;
	}
	case N_CMP: {
		bool lf = is_fact(&n->l), rf = is_fact(&n->r);
		unsigned t = cmp_trend(n->op);
		if (negated)
			t = flip(t);
		if (lf)
			report(&n->l, t, rf ? NAN : n->r.num, rf, fn, ctx);
		if (rf)
			report(&n->r, flip(t), lf ? NAN : n->l.num, lf, fn, ctx);
		return;
	}
	}
}

void lk_expr_visit_facts(const struct lk_expr *e, lk_expr_fact_visit_fn fn, void *ctx)
{
	visit(e->root, false, fn, ctx);
}
