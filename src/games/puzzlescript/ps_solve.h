/*
 * ps_solve.h - what a compiled game's rules allow, read once per level
 * for the solvers: which objects only ever walk (move a cell at a time,
 * never made, destroyed or carried off by a rule), where such an object
 * can go from each cell, how many of them one turn can move, and on that
 * the lower bounds of the heuristic (ps_heuristic.c) and the dead cells
 * pruning drops (ps_analysis.c).  docs/games/puzzlescript.md explains the
 * reasoning and what it makes admissible.
 */
#ifndef LEVELKIT_PS_SOLVE_H
#define LEVELKIT_PS_SOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "ps_internal.h"
#include "ps_arena.h"

/* How the objects of one side of a win condition can change. */
enum ps_mob {
	PS_MOB_STATIC,   /* never change: their cells are the level's */
	PS_MOB_WALKER,   /* move at most one cell a turn, are never made or destroyed */
	PS_MOB_OTHER     /* anything else: made, destroyed, carried by rules */
};

#define PS_FAR 0xffffu   /* a distance: never */

/* One side of a win condition ("X" or "Y" of "all X on Y"). */
struct ps_side {
	const ps_word *mask;
	bool aggr;           /* every object of the mask (an "and" aggregate) */
	bool all;            /* the condition has no "on": this side is any cell */
	enum ps_mob mob;
	int layer;           /* walker: the one layer of its objects, or -1 */
	int *cells;          /* static: the cells it holds */
	int ncells;
	int count;           /* walker: how many there are (they never change) */
	/* walker on one layer: bit d (PS_UP .. PS_RIGHT) of edges[c] says it
	 * may move from cell c that way; NULL when it may move anywhere */
	uint8_t *edges;
	/* walker: how many of its objects one turn can move at most (per
	 * player), 0 when nothing bounds it */
	int per_turn;
};

/* A win condition and what is precomputed for its bound. */
struct ps_cond {
	int quantifier;      /* -1 no, 0 some, 1 all */
	struct ps_side x, y;
	/* exactly one side static and the other a walker on one layer:
	 * dist[t * n + c], the turns the walker needs from cell c to the
	 * static side's cell t (PS_FAR: never); escape[c], to the nearest
	 * cell without the static side (for "no X on Y") */
	const struct ps_side *st, *wk;
	uint16_t *dist, *escape;
	bool never;          /* both sides static, and it does not hold */
	/* pruning, for "all X on Y" with a walker side: the cells the walker
	 * can never leave for a cell it must reach, and how many walkers may
	 * stand in them (the walkers beyond the static cells' count) */
	int *dead;
	int ndead, spare;
};

struct ps_analysis {
	int w, h, n, ow;
	bool again, restart, win_cmd;   /* some rule has the command */
	bool admissible;     /* the bound is a lower bound on the moves */
	bool dead_ok;        /* a state may be called dead */
	bool prune;          /* successors drop dead states (not plain) */
	bool *walker;        /* by object id */
	int players;         /* player cells, when players are walkers; else 0 */
	struct ps_cond *conds;
	int nconds;
	/* the scratch the heuristic needs beyond struct ps_scratch */
	size_t max_rows, max_cols;
	struct ps_arena arena;          /* owns everything above */
};

/* What the heuristic computes (lk_level_options.heuristic). */
enum ps_heuristic { PS_H_BOUND, PS_H_MIXEDAIM, PS_H_THESIS };

struct ps_analysis *ps_analysis_new(const struct ps_game *g, const struct ps_level *map,
				    bool plain);
void ps_analysis_free(struct ps_analysis *an);

/* Whether a cell set, as a runtime holds it, has a walker in a cell it
 * can never leave for one it must reach (never for a won state). */
bool ps_dead_cells(const struct ps_analysis *an, const ps_word *cells);

/* Whether a cell matches a side's mask. */
static inline bool ps_side_match(const struct ps_side *s, const ps_word *cell, int ow)
{
	return s->aggr ? ps_bits_subset(s->mask, cell, ow) : ps_bits_any(s->mask, cell, ow);
}

/* Scratch ints the heuristic needs (cost matrix, positions, assignment). */
size_t ps_heuristic_ints(const struct ps_analysis *an);
/* The heuristic (kind; or with estimate greedy's guess, the undivided
 * sum) of a state's cells, not a won one; with allow_dead, LK_H_DEAD for
 * a state proved dead (then *dead).  ints: ps_heuristic_ints of them.
 * ps_heuristic.c. */
unsigned ps_evaluate(const struct ps_analysis *an, enum ps_heuristic kind, bool estimate,
		     bool allow_dead, const ps_word *cells, int *ints, bool *dead);
/* The thesis's heuristic as written (ps_thesis.c); ints: ps_heuristic_ints. */
unsigned ps_thesis_heuristic(const struct ps_analysis *an, const ps_word *cells, int *ints);
/* Whether "mixedaim" is a lower bound in this level ("bound" always is). */
bool ps_mixedaim_admissible(const struct ps_analysis *an);
/* What the analysis concluded about the heuristic, in a phrase (the
 * `heuristic` field of solve --stats). */
struct lk_strbuf;
void ps_heuristic_note(const struct ps_analysis *an, const struct ps_game *g, enum ps_heuristic kind,
		       struct lk_strbuf *out);

#endif
