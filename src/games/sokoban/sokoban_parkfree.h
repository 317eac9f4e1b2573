/*
 * sokoban_parkfree.h - the parking plan played in no fixed order
 * (sokoban_parkfree.c): for bench/park_play.c and tests.
 */
#ifndef SOKOBAN_PARKFREE_H
#define SOKOBAN_PARKFREE_H

#include "sokoban_any.h"

struct soko_free_result {
	/* bounds, set by the caller */
	long max_positions;      /* positions expanded */
	double max_work;         /* (box, player) pairs searched */
	/* the answer */
	int played;              /* most steps done in one play */
	int *order;              /* that play's steps, in the order played */
	int *player;             /* after each, the lowest cell of the player's floor piece */
	long positions;
	double work;
	bool stopped;            /* a bound ended the search */
	/* the nudge play's play to the end: nmoves box moves, each as from,
	 * to and the lowest cell of the player's floor piece after it */
	int nmoves;
	uint16_t *moves;
};

/* Plays plan p (of plan, whose goal areas goal_order uses) from the level's
 * start in any order its steps allow (sokoban_parkfree.c), or with fixed
 * only in the plan's order (the player's pieces still told apart): true
 * when every step is played.  Fills r (release with
 * soko_free_result_release).  Cells squared of memory (eight bytes each). */
bool soko_park_free_play(const struct sokoban *s, const struct soko_plan *plan,
			 const struct soko_park *p, bool fixed, bool goal_order,
			 struct soko_free_result *r);
/* The same with nudges between the steps (sokoban_parknudge.c): single
 * pushes of boxes whose route is not finished, at most max_nudges on a
 * way; with routes_free a step may move any box whose route is not
 * finished (the two boxes swap routes); r->order and r->player are not
 * filled. */
bool soko_park_nudge_play(const struct sokoban *s, const struct soko_plan *plan,
			  const struct soko_park *p, bool goal_order, bool routes_free,
			  int max_nudges, struct soko_free_result *r);
void soko_free_result_release(struct soko_free_result *r);

/* The order-free and nudge plays' sets of positions met: open addressing
 * over 64-bit hashes in a table of mask + 1 slots, 0 marking an empty slot.
 * Inserts key (made odd, so never 0); false when it was there already. */
static inline bool soko_hashset_add(uint64_t *table, size_t mask, uint64_t key)
{
	key |= 1;
	size_t i = (size_t)(key >> 7) & mask;
	while (table[i]) {
		if (table[i] == key)
			return false;
		i = (i + 1) & mask;
	}
	table[i] = key;
	return true;
}

#endif
