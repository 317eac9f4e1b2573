/*
 * rules_internal.h - the parsed form of transformer rules, shared by the
 * parser (rules_parse.c), the compiler of its rules into masks
 * (rules_compile.c) and the rewriter (rules_apply.c).
 *
 * Masks of objects are `words` 64-bit words each, kept in one array of
 * the rules (bits) and named by their offset in it, so that rules over a
 * game of hundreds of objects cost no more to keep than Sokoban's.
 * Offset 0 is the empty mask.
 */
#ifndef LEVELKIT_GEN_RULES_INTERNAL_H
#define LEVELKIT_GEN_RULES_INTERNAL_H

#include <stddef.h>

#include "levelkit/rules.h"

#define MAX_CONDS 16      /* conditions of one cell */
#define MAX_CELLS 8       /* cells of one pattern, ellipses included */
#define MAX_MOVES 4       /* forces in one cell of a replacement */
#define MAX_ELLIPSES 2    /* per pattern, as PuzzleScript allows */
#define MAX_PATTERNS 4    /* patterns of one rule */
#define MAX_OR 16         /* names in one `A or B or ...` */
#define MAX_EXPANSIONS 4096   /* rules one rule's properties expand to */

struct cond {
	size_t mask;       /* any of these objects */
	bool negate;       /* none of them */
};

/* A force of the replacement: the object moves one cell.  dir is an
 * lk_dir (absolute) or a quarter-turn count from the rule's direction. */
struct move {
	int object;
	int dir;
	bool relative;
};

struct rule_cell {
	bool ellipsis;     /* `...`: any number of cells, nothing else */
	struct cond conds[MAX_CONDS];
	int nconds;
	size_t named;      /* objects named positively: removed unless put back */
	size_t put;        /* objects the replacement puts in */
	size_t put_layers; /* the layers of those objects */
	size_t removed;    /* objects the replacement's `no` removes */
	struct move moves[MAX_MOVES];
	int nmoves;
};

struct pattern {
	struct rule_cell cells[MAX_CELLS];
	int ncells;
	int nellipses;
};

struct rule {
	struct pattern *patterns;
	int npatterns;
	size_t patterns_alloc;
	unsigned dirs;     /* bit per lk_dir (the four orthogonal ones) */
	double option;     /* probability that a chosen match is applied */
	bool turns;        /* a relative force: the rule depends on its direction */
};

/* A symmetrise statement's mirror (a group with no rules). */
enum rules_mirror { MIRROR_NONE, MIRROR_HORIZONTAL, MIRROR_VERTICAL, MIRROR_BOTH, MIRROR_ROTATE };

struct group {
	struct rule *rules;   /* alternatives (a rule's expansions among them) */
	int nrules;
	size_t rules_alloc;
	long choose;          /* 0: not a choose group */
	enum rules_mirror mirror;   /* symmetrise AXIS: not a rule */
};

struct lk_rules {
	const struct lk_legend *legend;
	int words;            /* per mask */
	uint64_t *bits;       /* every mask, words each */
	size_t nbits, bits_alloc;
	size_t *layer_mask;   /* per object: the mask of its layer */
	int player;           /* the object named Player, or -1 (symmetrise keeps one) */
	struct group *groups;
	int ngroups;
	size_t groups_alloc;
};

static inline const uint64_t *rules_mask(const struct lk_rules *r, size_t off)
{
	return r->bits + off;
}

/* A new empty mask; returns its offset (the array may move). */
size_t lk_rules_new_mask(struct lk_rules *r);
/* The offset of a mask equal to m (words words), added if new. */
size_t lk_rules_add_mask(struct lk_rules *r, const uint64_t *m);

/* ---- the parser's form of a rule, before properties are expanded ---- */

/* Names are legend objects (0 .. nobjects-1) or properties (nobjects +
 * index). */
struct pitem {
	int names[MAX_OR];
	int nnames;
	bool negate;
	int force;         /* -1 none; 0-3 an lk_dir; 4-7 relative (quarter turns + 4) */
	int line;
};

#define MAX_ITEMS 16

struct pcell {
	bool ellipsis;
	struct pitem items[MAX_ITEMS];
	int nitems;
};

struct ppattern {
	struct pcell cells[MAX_CELLS];
	int ncells;
};

struct prule {
	struct ppattern lhs[MAX_PATTERNS], rhs[MAX_PATTERNS];
	int nlhs, nrhs;
	bool clear_all;    /* `-> []` for several patterns: clear every one */
	unsigned dirs;
	double option;
	int line;
};

/* Compile a parsed rule into the group: one rule, or one per binding of
 * the properties its replacement names.  0, or -1 with "line N: ..." in
 * err. */
int lk_rules_compile(struct lk_rules *rules, struct group *g, const struct prule *pr,
		     struct lk_strbuf *err);
/* The display name of a legend name. */
const char *lk_rules_name(const struct lk_legend *lg, int name);

#endif
