/*
 * room.h - random rooms for grid games: a connected floor carved into a
 * walled rectangle by a random walk that stamps small shapes, the way the
 * Boxoban levels were made (Guez et al. 2018), so rooms have corridors,
 * corners and open patches rather than noise.
 */
#ifndef LEVELKIT_GEN_ROOM_H
#define LEVELKIT_GEN_ROOM_H

#include "levelkit/grid.h"
#include "levelkit/rng.h"

/* Fill g (already sized) with '#' and carve floor ' ' inside the border
 * until about share of the interior is floor.  Returns the floor count. */
int lk_room_carve(struct lk_grid *g, struct lk_rng *rng, double share);

/* Pick a random cell of g holding c; returns its index, or -1. */
int lk_room_pick(const struct lk_grid *g, struct lk_rng *rng, char c);

#endif
