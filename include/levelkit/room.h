/*
 * room.h - random rooms for grid games: a connected floor carved into a
 * walled rectangle by a random walk that stamps small shapes, the way the
 * Boxoban levels were made (Guez et al. 2018), so rooms have corridors,
 * corners and open patches rather than noise.
 */
#ifndef LEVELKIT_GEN_ROOM_H
#define LEVELKIT_GEN_ROOM_H

#include <stdbool.h>

#include "levelkit/grid.h"
#include "levelkit/rng.h"

/* Fill g (already sized) with '#' and carve floor ' ' inside the border
 * until about share of the interior is floor.  Returns the floor count. */
int lk_room_carve(struct lk_grid *g, struct lk_rng *rng, double share);

/* The most floor lk_room_carve can carve in a w x h grid at this share
 * (it stops at the first shape that reaches the share, a shape being at
 * most five cells), and whether a room of that size can hold `need`
 * floor cells at a share of up to max_share: when it cannot, *smallest
 * is the side of the smallest square grid that can (0 if none). */
int lk_room_max_floor(int w, int h, double share);
bool lk_room_can_hold(int w, int h, double max_share, int need, int *smallest);

/* Pick a random cell of g holding c; returns its index, or -1. */
int lk_room_pick(const struct lk_grid *g, struct lk_rng *rng, char c);

#endif
