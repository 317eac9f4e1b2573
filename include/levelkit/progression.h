/*
 * progression.h - a level progression from a rated pack: choose n levels
 * and order them so that their difficulty rises with dips (the thesis's
 * participants and Combination's players asked for it; filter
 * --progression).
 *
 * The curve is a target rank in the pack for each place: chapters of
 * `chapter` levels, each rising faster than the whole and the next one
 * starting lower than the last one ended (a dip, a breather), the first
 * place the pack's easiest and the last its hardest.  Levels are then
 * matched to places at the least total distance between a level's rank
 * and its place's target (an assignment problem: lk_assign), so the
 * choice is the best fit to the curve, not a greedy one.
 */
#ifndef LEVELKIT_PROGRESSION_H
#define LEVELKIT_PROGRESSION_H

#include <stddef.h>

/* The share of the range a chapter climbs on its own (its dip after). */
#define LK_PROGRESSION_SWING 0.3

/* The target of place i of n, between 0 (easiest) and 1 (hardest). */
double lk_progression_target(size_t i, size_t n, size_t chapter);

/*
 * Choose min(n, count) of the count levels whose difficulties are given
 * (ties keep their order) and write their indices to out in the order to
 * play them.  chapter 0 or 1: a plain rise, no dips.  Returns how many
 * were written; n and count at most 2000 (lk_assign's bound).
 */
size_t lk_progression(const double *difficulty, size_t count, size_t n, size_t chapter,
		      size_t *out);

#endif
