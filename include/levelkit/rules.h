/*
 * rules.h - MixedAim's transformer rules: nondeterministic PuzzleScript-
 * style rewrite rules over the cells of a level.
 *
 *   (comments in parentheses, as in PuzzleScript)
 *   [Target no Crate] -> [Target Crate]          apply wherever it changes something
 *   choose 5 [Wall] -> [Crate]                   5 matches chosen at random
 *   option 0.4 [Wall] -> []                      each match with probability 0.4
 *   choose 20 option 0.4 [Wall] -> []            20 matches, each kept with p 0.4
 *     or option 0.6 [no Obstacle] -> [Wall]      ... or, from the alternatives' matches
 *   choose 50 [Player | no Obstacle] -> [ | Player]   rows of adjacent cells, any direction
 *   right [Player | Crate] -> [ | Player Crate]  a direction: up down left right
 *                                                horizontal vertical
 *   [Crate][Target] -> []                        several patterns: matched independently
 *   choose 20 [Pushable] -> [> Pushable]         a force: the object moves one cell
 *   [Player | ... | Crate] -> [Player | ... | ]  an ellipsis: any number of cells between
 *   [Crate] -> [no Crate Target]                 `no` in a replacement removes
 *
 * A cell condition lists objects that must be there and, after `no`, ones
 * that must not; `A or B` names either (`no A or B`: neither).  A legend
 * name may stand for several objects: a property (any one of them) or an
 * aggregate (all of them).  In the replacement, objects named on the left
 * but not on the right of the same cell go, `no X` removes X, and objects
 * named on the right are put in, pushing out what shares their layer; a
 * property named on both sides stands for the object it matched.  A force
 * (`>` `<` `^` `v`, relative to the rule's direction, or `up` `down`
 * `left` `right`) before an object of the replacement moves it one cell
 * that way, as part of the rewrite.  Matches that would change a frozen
 * cell, make a cell the game cannot hold (cell_ok), or move an object
 * off the grid or onto its layer's occupant are left out.  See
 * docs/transform.md.
 */
#ifndef LEVELKIT_GEN_RULES_H
#define LEVELKIT_GEN_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/grid.h"
#include "levelkit/rng.h"
#include "levelkit/strbuf.h"

/* The objects of a game, for rules.  A cell is a bit set of them, object
 * i being bit i % 64 of word i / 64; any number of objects. */
struct lk_legend_object {
	const char *name;       /* NULL: an unused number (no such object) */
	const char *alias;      /* another accepted name, or NULL */
	int layer;              /* objects of one layer exclude one another */
};
/* A name for several objects: a property (any one of them, as
 * PuzzleScript's `A = B or C`) or an aggregate (all of them together, as
 * `A = B and C`).  A name for one object is a synonym. */
struct lk_legend_property {
	const char *name;
	const int *objects;     /* indices into lk_legend.objects */
	int nobjects;
	bool aggregate;
};
struct lk_legend {
	const struct lk_legend_object *objects;
	int nobjects;
	const struct lk_legend_property *properties;
	int nproperties;
};

/* 64-bit words per cell for the legend's objects. */
int lk_legend_words(const struct lk_legend *legend);

struct lk_rules;

/* Parse rules text; NULL with "line N: message" in err. */
struct lk_rules *lk_rules_parse(const char *text, const struct lk_legend *legend,
				struct lk_strbuf *err);
void lk_rules_free(struct lk_rules *rules);

/* A grid of object sets being rewritten. */
struct lk_cells {
	int width, height;
	int words;              /* words per cell (lk_legend_words) */
	uint64_t *cell;         /* width * height * words, row by row */
	const uint8_t *frozen;  /* per cell, or NULL */
	/* Optional: whether a game can hold a cell of these objects (e.g. a
	 * legend character stands for them); rewrites that would make one it
	 * cannot are left out. */
	bool (*cell_ok)(void *ctx, const uint64_t *cell);
	void *cell_ok_ctx;
};

/* Run every rule group once, in order.  Returns how many rewrites were
 * made.  cells->words must be the legend's. */
unsigned lk_rules_apply(const struct lk_rules *rules, struct lk_cells *cells, struct lk_rng *rng);

#endif
