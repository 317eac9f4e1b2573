/*
 * sokoban_parkwork.h - the working state of the parking plan's retrieval
 * (sokoban_park.c), shared with playable-plan's retrieval
 * (sokoban_parkfix.c).  Private to those two files.
 */
#ifndef SOKOBAN_PARKWORK_H
#define SOKOBAN_PARKWORK_H

#include "sokoban_any.h"

/* Pull searches' work (square visits) before the plan gives up. */
#define PARK_BUDGET 1.4e8

struct park_work {
	const struct sokoban *s;
	const uint8_t *doorway;   /* per cell: no parking there */
	uint8_t *box;             /* per cell: a box (reverse position) */
	uint8_t *parked;          /* per cell: that box is parked */
	uint8_t *used;            /* per cell: a start square taken */
	int *start_of;            /* per cell: its number among the start squares, or -1 */
	int *start_cell;          /* per start number: its cell */
	uint32_t *mark, stamp;    /* player floods */
	uint32_t *seen, seen_stamp;    /* per cell and side: pulled there */
	uint32_t *xdone;          /* per cell: neighbours labelled (seen stamp) */
	uint8_t *nb;              /* 4 per cell: the neighbour's component (0..3, 255 none) */
	uint8_t *nb_back;         /* 4 per cell: that component holds the pulled box's square */
	uint32_t *queue;          /* the pull search, in order of pulls */
	int tail;
	uint16_t *stack;
	uint16_t *far;            /* per cell: steps from the nearest goal, the floor empty */
	bool by_pulls;            /* parking choices by pulls alone (the second order) */
	int flooded;              /* squares the last flood marked */
	bool playable;            /* playable-parking: no parking on a start square taken */
	uint64_t refused;         /* parking squares so refused */
	double work, budget;
	struct soko_stop *stop;   /* NULL: never */
	/* playable-plan: a box taken out stays on its start square (in play
	 * it stands there until its step), a wall to the later retrievals */
	bool fixed;
	int layer[64];            /* per start number: its layer (soko_park_peel_layers) */
};

/* Parking choices tried at a step where no box can be taken out: the
 * best two squares of each box, and of all of them the best first: a
 * square that is no gate before one that is, then the farthest from the
 * goals (the boxes parked last, taken out first, stand nearest to them),
 * then the most pulls away. */
#define PARK_PER_BOX 2
#define PARK_TRIES 4

/* Later choices a retrieval path may take, at most (summed). */
#define PARK_DISCREPANCIES 8

struct park_try {
	int box, to, rank, gate, far;
};

struct park_path {
	uint16_t *target, *leaves, *start;
	int steps, parked, best_left;
	int max_parked;           /* parking steps a path may take, at most */
};

/* A fresh stamp of arr (n entries), clearing it when the stamps wrap. */
uint32_t soko_park_next_stamp(uint32_t *stamp, uint32_t *arr, size_t n);
/* Flood the free floor from cell (boxes in w->box) into w->mark. */
uint32_t soko_park_flood(struct park_work *w, int from);
/* The player's components around a box on x (w->box[x] set): which of
 * x's four neighbours share one, and which hold cell back. */
void soko_park_label_around(struct park_work *w, int x, int back);
/* Pull the box on b, the other boxes in place, the player starting at
 * player: w->queue[0 .. w->tail) holds (square << 2 | side the player
 * stands on) in order of pulls. */
void soko_park_pull_search(struct park_work *w, int b, int player);
/* The parking choices of the position, at most PARK_TRIES, best first. */
int soko_park_choices(struct park_work *w, int player, struct park_try *tries);

/* playable-plan (sokoban_parkfix.c): each start square's layer, peeled
 * forwards from the level's start, into w->layer. */
void soko_park_peel_layers(struct park_work *w);
/* playable-plan's retrieval, the boxes taken out kept on their start
 * squares: true when every box is out (the steps in path, in reverse
 * order) and the player reaches the level's start. */
bool soko_park_retrieve_fixed(struct park_work *w, int player, int left, int disc,
			 struct park_path *path);

#endif
