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
 *
 * A cell condition lists objects that must be there and, after `no`, ones
 * that must not; `A or B` names either (`no A or B`: neither).  In the
 * replacement, objects named on the left but not on the right of the same
 * cell go, and objects named on the right are put in, pushing out what
 * shares their layer.  Matches that would change a frozen cell are left
 * out.  See docs/transform.md.
 */
#ifndef LEVELKIT_GEN_RULES_H
#define LEVELKIT_GEN_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/grid.h"
#include "levelkit/rng.h"
#include "levelkit/strbuf.h"

/* The objects of a game, for rules.  Up to 16 objects; a cell is a
 * bitmask of them. */
struct lk_legend_object {
	const char *name;
	const char *alias;      /* another accepted name, or NULL */
	uint16_t layer_mask;    /* the objects sharing its layer, itself included */
};
struct lk_legend_property {
	const char *name;
	uint16_t mask;          /* the objects it stands for */
};
struct lk_legend {
	const struct lk_legend_object *objects;
	int nobjects;
	const struct lk_legend_property *properties;
	int nproperties;
};

struct lk_rules;

/* Parse rules text; NULL with "line N: message" in err. */
struct lk_rules *lk_rules_parse(const char *text, const struct lk_legend *legend,
				struct lk_strbuf *err);
void lk_rules_free(struct lk_rules *rules);

/* A grid of object masks being rewritten. */
struct lk_cells {
	int width, height;
	uint16_t *cell;
	const uint8_t *frozen;  /* per cell, or NULL */
};

/* Run every rule group once, in order.  Returns how many rewrites were
 * made. */
unsigned lk_rules_apply(const struct lk_rules *rules, struct lk_cells *cells, struct lk_rng *rng);

#endif
