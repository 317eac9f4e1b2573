/*
 * csp.h - constraint games: games solved by backtracking search with
 * propagation over their own model instead of by the state-space solvers
 * (Combination: place every piece so that no two colours attack).
 *
 * A game offers this through game->csp.  Results are counted in search
 * nodes, the measure Combination's difficulty is made of.
 */
#ifndef LEVELKIT_CSP_H
#define LEVELKIT_CSP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "levelkit/bounds.h"
#include "levelkit/game.h"
#include "levelkit/strbuf.h"

struct lk_level;

struct lk_csp_options {
	uint64_t count_limit;        /* stop after this many solutions (0 = 1) */
	uint64_t seed;               /* 0: the static (reading) order of the squares; else shuffled */
	bool gcc;                    /* the implied global cardinality check */
	bool sac;                    /* singleton arc consistency before search */
	bool symmetry;               /* break symmetry between interchangeable colours */
	bool dynamic;                /* branch on the square with the fewest values
				      * left (ties by the order): faster, but not the
				      * fixed order the difficulty measures (lk_csp_rate
				      * ignores it) */
	/* search nodes (max_states), seconds, cancellation; memory is
	 * not bounded (a constraint search holds little) */
	struct lk_bounds bounds;
	/* Optional: called with every solution found (in the game's
	 * notation), up to count_limit; non-zero stops the search.  The
	 * "every solution must ..." queries walk the solutions with it. */
	int (*visit)(void *ctx, const char *solution);
	void *visit_ctx;
	/* The game's own flags given (names from its csp->flags, e.g. the
	 * laser game's "tidy"), NULL-terminated, or NULL for none. */
	const char *const *flags;
};

void lk_csp_options_init(struct lk_csp_options *o);
/* Whether the flag `name` was given. */
bool lk_csp_flag(const struct lk_csp_options *o, const char *name);

/* A flag of a game's own for the solving commands (--NAME): the commands
 * offer every game's flags, from the registry, and pass the ones given in
 * lk_csp_options.flags; a game reads its own with lk_csp_flag. */
struct lk_csp_flag {
	const char *name;
	const char *help;
};

struct lk_csp_result {
	enum lk_status status;       /* solved (at least one), unsolvable, unknown */
	enum lk_limit limit;
	uint64_t solutions;          /* found, at most count_limit */
	bool exhausted;              /* the count is exact (search finished) */
	uint64_t nodes;              /* search nodes, the root included */
	uint64_t nodes_to_first;     /* nodes when the first solution was found */
	double seconds;
	struct lk_strbuf solution;   /* the first solution in the game's notation */
	struct lk_strbuf second;     /* the second one, if found */
};

void lk_csp_result_init(struct lk_csp_result *r);
void lk_csp_result_release(struct lk_csp_result *r);

struct lk_csp_ops {
	void (*solve)(const struct lk_level *level, const struct lk_csp_options *opt,
		      struct lk_csp_result *r);
	/* Optional: the model a difficulty is measured in, when it is not
	 * solve's (Combination: the paper's own model, where solve adds an
	 * implied rule that would shrink the search sizes); lk_csp_rate counts
	 * its runs' nodes here.  Same contract as solve. */
	void (*measure)(const struct lk_level *level, const struct lk_csp_options *opt,
			struct lk_csp_result *r);
	/* Check a solution text: 0 with *valid, or -1 with a message when it
	 * cannot be read. */
	int (*verify)(const struct lk_level *level, const char *solution, bool *valid,
		      struct lk_strbuf *why);
	/* Optional: what a valid solution does, in one line (the laser game:
	 * which targets receive what); solve --verify writes it as the field
	 * `verify-note`. */
	void (*verify_note)(const struct lk_level *level, const char *solution,
			    struct lk_strbuf *note);
	/* Optional: a concept query (game.h) over the level's solutions: 0
	 * with r filled (r is initialised), or -1 with a message (a fact the
	 * game does not know). */
	int (*concept)(const struct lk_level *level, const struct lk_expr *concept,
		       enum lk_quantifier q, const struct lk_csp_options *opt,
		       struct lk_concept_result *r, struct lk_strbuf *err);
	/* Optional: the game's own flags, ended by a NULL name. */
	const struct lk_csp_flag *flags;
};

#endif
