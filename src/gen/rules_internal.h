/*
 * rules_internal.h - the parsed form of transformer rules, shared by the
 * parser and the rewriter.
 */
#ifndef LEVELKIT_GEN_RULES_INTERNAL_H
#define LEVELKIT_GEN_RULES_INTERNAL_H

#include <stddef.h>

#include "levelkit/rules.h"

#define MAX_CONDS 8
#define MAX_CELLS 8

struct cond {
	uint16_t mask;     /* any of these objects */
	bool negate;       /* none of them */
};

struct rule_cell {
	struct cond conds[MAX_CONDS];
	int nconds;
	uint16_t named;    /* objects named positively: removed unless put back */
	uint16_t put;      /* objects the replacement puts in */
};

struct pattern {
	struct rule_cell cells[MAX_CELLS];
	int ncells;
};

struct rule {
	struct pattern *patterns;
	int npatterns;
	size_t patterns_alloc;
	unsigned dirs;     /* bit per lk_dir (the four orthogonal ones) */
	double option;     /* probability that a chosen match is applied */
};

struct group {
	struct rule *rules;   /* alternatives */
	int nrules;
	size_t rules_alloc;
	long choose;          /* 0: not a choose group */
};

struct lk_rules {
	const struct lk_legend *legend;
	struct group *groups;
	int ngroups;
	size_t groups_alloc;
};

#endif
