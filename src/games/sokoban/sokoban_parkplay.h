/*
 * sokoban_parkplay.h - the push-by-push play of a parking plan
 * (sokoban_parkplay.c), shared with plan-repair (sokoban_parkrepair.c).
 * Private to those two files.
 */
#ifndef SOKOBAN_PARKPLAY_H
#define SOKOBAN_PARKPLAY_H

#include "sokoban_any.h"

struct play {
	const struct sokoban *s;
	uint8_t *box;      /* per cell: a box */
	uint8_t *from;     /* per cell: the player can stand there */
	uint32_t *seen;    /* cells x cells: (box, player) reached (stamp) */
	uint32_t stamp;
	int *queue;
	int *stack;
	double work;       /* (box, player) pairs visited, all searches */
};

/* Working memory for level s (cells squared), and its release. */
void soko_play_init(struct play *pl, const struct sokoban *s);
void soko_play_release(struct play *pl);
/* The level's start: its boxes, the player's walk. */
void soko_play_start(struct play *pl);
/* Widen from[] to every square the player can walk to. */
void soko_play_walk_on(struct play *pl);
/* Every (box, player) pair the box on b can be pushed to, the other boxes
 * in place, the player starting anywhere in from[]: pairs as box * cells
 * + player in queue[0 .. return), in order of search (the box lifted from
 * b meanwhile: the caller puts it back). */
int soko_play_search(struct play *pl, int b);
/* Push the box on b to to (see sokoban_parkplay.c); false leaves the
 * board as it was. */
bool soko_play_push_to(struct play *pl, int b, int to);

#endif
