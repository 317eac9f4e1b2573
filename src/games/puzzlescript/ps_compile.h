/*
 * ps_compile.h - the compiler's working state between the tokenizer's
 * output (ps_parse.h) and the compiled game (ps_internal.h).
 *
 * The reference keeps the legend in JavaScript objects whose key order
 * and shared arrays decide the order rules are expanded in, and rule
 * order within a group is semantics.  ps_odict keeps keys in JavaScript's
 * order (integer-like names first, ascending, then insertion order) and
 * its values are shared lists, as the reference's are.
 */
#ifndef LEVELKIT_PS_COMPILE_H
#define LEVELKIT_PS_COMPILE_H

#include "ps_internal.h"
#include "ps_parse.h"
#include "ps_arena.h"
#include "ps_diag.h"

struct ps_list {
	int *v;
	size_t n, alloc;
};

struct ps_odict {
	struct ps_list **val;    /* by symbol; NULL when absent */
	int *order;              /* symbols in insertion order */
	size_t norder, order_alloc;
};

/* ---- rules while they are being expanded ---- */

/* Directions and other words that qualify an object in a rule cell. */
enum ps_word_dir {
	PW_NONE, PW_UP, PW_DOWN, PW_LEFT, PW_RIGHT, PW_REL_UP, PW_REL_DOWN, PW_REL_LEFT,
	PW_REL_RIGHT, PW_MOVING, PW_STATIONARY, PW_PARALLEL, PW_PERPENDICULAR, PW_HORIZONTAL,
	PW_VERTICAL, PW_ORTHOGONAL, PW_ACTION, PW_NO, PW_RANDOMDIR, PW_RANDOM, PW_ELLIPSIS,
	PW_HORIZONTAL_PAR, PW_VERTICAL_PAR, PW_HORIZONTAL_PERP, PW_VERTICAL_PERP, PW_NWORDS
};
extern const char *const ps_word_dir_names[PW_NWORDS];

struct ps_item {
	int dir;       /* enum ps_word_dir */
	int name;      /* symbol, -1 for an ellipsis */
};

struct ps_cell {
	struct ps_item *it;
	int n;
};

struct ps_crow {
	struct ps_cell *cells;
	int n;
};

struct ps_command {
	int cmd;             /* PS_CMD_* */
	const char *message;
};

struct ps_arule {
	int direction;       /* PW_UP .. PW_RIGHT */
	int dirs[8];         /* before expansion: the directions it applies in */
	int ndirs;
	struct ps_crow *lhs, *rhs;
	int nlhs, nrhs;
	int line;
	bool late, rigid, random;
	int group;
	struct ps_command *commands;
	int ncommands;
	unsigned cost;       /* COST N: a turn it fires in costs N more */
	/* replacement bookkeeping during expansion */
	struct ps_repl *prop_repl, *move_repl, *aggdir_repl;
	int nprop_repl, nmove_repl, naggdir_repl;
	bool discard;
	int discard_a, discard_b;    /* symbols, for the message */
	char *string_rep;
	bool ellipsis_at_edge;
};

struct ps_repl {
	int key, key2;       /* property or (object, direction word) */
	int concrete;
	int count;
	int row, col;
};

struct ps_ctx {
	struct ps_arena *arena;      /* compilation's scratch */
	struct ps_arena *keep;       /* what the game keeps */
	struct ps_symtab *syms;
	struct ps_diags *diags;
	struct ps_parse *p;
	struct ps_game *g;
	bool lenient;
	bool invalid;           /* the reference's state.invalid */

	int nsyms;              /* per-symbol arrays have this many entries */
	int *obj_id;            /* symbol -> object id, -1 */
	int *id_sym;            /* object id -> symbol */
	int objects_defined;    /* ids handed out */
	struct ps_odict props, aggs;
	int *syn;               /* synonymsDict: symbol -> symbol, -1 */
	int *syn_order;
	size_t nsyn_order, syn_order_alloc;
	int **glyph;            /* symbol -> per-layer object id (-1), or NULL */
	ps_word **objmask;      /* objectMasks */
	ps_word **aggmask;      /* aggregateMasks */
	int *prop_layer;        /* propertiesSingleLayer: -1 or the layer */
	int all_sym;            /* "\nall\n" */
	int background_sym, player_sym;

	struct ps_arule **rules;  /* the expanded rules */
	size_t nrules;
	int (*loops)[2];          /* (line, +1 startloop / -1 endloop) */
	size_t nloops, loops_alloc;

};

/* odict */
struct ps_list *ps_list_new(struct ps_ctx *c);
void ps_list_push(struct ps_ctx *c, struct ps_list *l, int v);
bool ps_list_has(const struct ps_list *l, int v);
void ps_odict_set(struct ps_ctx *c, struct ps_odict *d, int key, struct ps_list *v);
void ps_odict_del(struct ps_odict *d, int key);
/* Keys in JavaScript order (a snapshot). */
size_t ps_odict_keys(struct ps_ctx *c, const struct ps_odict *d, int **keys);
void ps_js_key_order(struct ps_ctx *c, int *keys, size_t n);

/* A zeroed ow-word mask in the scratch arena, and one the game keeps. */
ps_word *ps_ctx_mask(struct ps_ctx *c);
ps_word *ps_keep_words(struct ps_ctx *c, size_t n);

const char *ps_ctx_name(const struct ps_ctx *c, int sym);
bool ps_ctx_is_object(const struct ps_ctx *c, int sym);

/* rules (ps_rule_parse.c, ps_rule_expand.c, ps_rule_concrete.c) */
struct ps_arule *ps_rule_parse(struct ps_ctx *c, const struct ps_prule *pr,
			       struct ps_arule **prev, size_t nprev, int *bracket);
void ps_rule_check_coincidences(struct ps_ctx *c, struct ps_arule **rules, size_t n);
struct ps_arule *ps_rule_clone(struct ps_ctx *c, const struct ps_arule *r);
void ps_rules_expand(struct ps_ctx *c);
void ps_rule_concretize_moving(struct ps_ctx *c, struct ps_arule *r, struct ps_arule ***out,
			       size_t *nout, size_t *alloc);
void ps_rule_concretize_property(struct ps_ctx *c, struct ps_arule *r, struct ps_arule ***out,
				 size_t *nout, size_t *alloc);
void ps_rule_string_rep(struct ps_ctx *c, struct ps_arule *r);

#endif
