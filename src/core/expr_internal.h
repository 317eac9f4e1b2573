/*
 * expr_internal.h - the parsed form of a filter expression, shared by the
 * parser (expr.c), the evaluation on records (expr_eval.c) and the
 * evaluation over facts (expr_facts.c).
 */
#ifndef LEVELKIT_EXPR_INTERNAL_H
#define LEVELKIT_EXPR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* N_TRUTH: a call standing alone as a condition, true when not 0 */
enum node_kind { N_OR, N_AND, N_NOT, N_HAS, N_CMP, N_TRUTH };
enum cmp_op { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };
enum operand_kind { O_NUM, O_STR, O_FIELD, O_CALL };

struct operand {
	enum operand_kind kind;
	char *text;      /* number: as written; string: decoded; field, call: name */
	char *arg;       /* call: the argument as written */
	size_t len;
	double num;      /* numbers */
};

struct node {
	enum node_kind kind;
	struct node **kids;   /* N_OR, N_AND: nkids operands; N_NOT: one */
	size_t nkids;
	enum cmp_op op;       /* N_CMP */
	struct operand l, r;  /* N_CMP: both; N_HAS: l is the field; N_TRUTH: l */
};

/* The blanks of an expression (and of a field's value read as a number). */
static inline bool lk_expr_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

struct lk_expr {
	struct node *root;
	char **fields;
	size_t nfields, fields_alloc;
};

#endif
