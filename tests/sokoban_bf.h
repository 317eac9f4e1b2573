/*
 * sokoban_bf.h - what the Sokoban tests share (sokoban_bf.c): levels read
 * from text through the public interface, and a brute-force enumerator
 * written here, independent of the library (plain BFS over the player and
 * the boxes for the fewest moves, 0-1 BFS with pushes costing 1 and walks 0
 * for the fewest pushes, no pruning at all), with its own replay.
 */
#ifndef LEVELKIT_TEST_SOKOBAN_BF_H
#define LEVELKIT_TEST_SOKOBAN_BF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/game.h"
#include "levelkit/record.h"

/* Read the first record of text (lines numbered from 1). */
void read_record(const char *text, struct lk_record *rec);
/* The level of text under metric and heuristic (NULL: the defaults); fails
 * the test when it does not load. */
struct lk_level *load(const char *text, const char *metric, const char *heuristic);

#define MAXB 3
#define NOCELL 0xffffu

struct bf {
	int w, h;              /* grid padded by one wall all round */
	uint8_t *wall, *goal;
	int player;
	int nboxes;
	uint16_t box[MAXB];
};

/* Parse a level of at most MAXB boxes (fails the test otherwise). */
void bf_parse(struct bf *b, const char *text);
void bf_free(struct bf *b);
/* Fewest moves (pushes_cost == false) or fewest pushes (true), or -1 when
 * no sequence of moves solves the level; *states (if not NULL) the states
 * it met. */
long bf_solve(const struct bf *b, bool pushes_cost, size_t *states);
/* Independent replay: lower case must not push, upper case must push.
 * Returns 0 with counts and solved, or -1 for an illegal move. */
int bf_replay(const struct bf *b, const char *sol, long *moves, long *pushes, bool *solved);

#endif
