/*
 * slide.h - the slide simulator shared by the tilt and slide games
 * (Fruit Dating, Skiddy): on a move every movable piece slides in the
 * move's direction until it is blocked.
 *
 * The rules, pinned down (docs/games/slide.md explains them with pictures):
 *
 *  - Pieces move as groups.  A group is one piece, or skiddies of one colour
 *    that touch (they stick together for good and move as one body).
 *  - Resolution order: groups nearest the far wall in the direction of the
 *    move go first, each as far as it can, so a row of pieces packs against
 *    the wall; passes repeat until no group moves, which settles any shape.
 *  - A step is blocked by a wall, a fixed piece (block, hedgehog, anteater),
 *    an exit of another colour, a one-way border crossed the wrong way, or
 *    any piece that does not itself move this pass.
 *  - Pushed pieces (crates) do not slide; a skiddy that runs into one pushes
 *    it one cell if that cell is free, moves into its place and stops.
 *  - A pit stops the piece that enters it and traps it: its group skips the
 *    next move, which frees it.
 *  - Mud lets pushed-free obstacles (stones) through; a fruit that enters
 *    mud is lost.  A hedgehog blocks; a fruit that runs into it is eaten
 *    (lost).  A lost fruit makes the level unwinnable.
 *  - An exit lets skiddies of its colour leave the board; the rest of their
 *    group keeps sliding after them.
 *  - When all motion has stopped, effects run until nothing changes: each
 *    anteater pulls the first piece in its line of sight, if that is a
 *    fruit, to the cell in front of it; then groups of two or more touching
 *    fruits of one colour are matched and removed.  A board is settled before a
 *    move (no partners touch), so only fruit that moved can make a match.
 */
#ifndef LEVELKIT_SLIDE_H
#define LEVELKIT_SLIDE_H

#include <stdbool.h>
#include <stdint.h>

/* What a cell is, apart from the piece on it. */
enum lk_terrain {
	LK_T_FLOOR,
	LK_T_WALL,
	LK_T_BLOCK,      /* fixed obstacle inside the board */
	LK_T_MUD,
	LK_T_PIT,
	LK_T_HEDGEHOG,
	LK_T_ANTEATER,   /* facing terrain_dir */
	LK_T_EXIT        /* of colour terrain_colour */
};

/* What stands on a cell. */
enum lk_piece {
	LK_P_NONE,
	LK_P_FRUIT,      /* colour: matched in pairs */
	LK_P_STONE,      /* a movable obstacle (Fruit Dating's stones, cars, barrels) */
	LK_P_SKIDDY,     /* colour: sticks to its colour, leaves through its exits */
	LK_P_ICE,        /* slides like a skiddy, never leaves */
	LK_P_CRATE       /* only moves when a skiddy pushes it */
};

/* A board: fixed terrain plus the pieces of one state.  Cells are indexed
 * y * width + x; the outermost ring is normally wall or exits. */
struct lk_slide_board {
	int width, height;
	uint8_t *terrain;        /* enum lk_terrain per cell */
	uint8_t *terrain_colour; /* exits */
	uint8_t *terrain_dir;    /* anteaters: lk_dir they face */
	uint8_t *oneway;         /* per cell: bit d set = a piece may not leave
				  * the cell in direction d (a one-way border) */
	/* the state */
	uint8_t *piece;          /* enum lk_piece per cell */
	uint8_t *colour;         /* per cell */
	uint8_t *trapped;        /* per cell: a piece caught in a pit */
	/* Optional: the cells that hold pieces, so a move need not scan the
	 * board for them; npieces < 0 means "scan". */
	int *pieces;
	int npieces;
};

/* What one move did. */
struct lk_slide_result {
	bool changed;            /* anything moved, left, was lost or matched */
	bool lost;               /* a fruit was lost in mud or to a hedgehog */
	unsigned matched;        /* fruits removed by matching */
	unsigned left[16];       /* skiddies that left, per colour (colours < 16) */
	unsigned pulled;         /* fruits an anteater pulled */
	unsigned mud;            /* pieces other than fruit that entered mud */
	unsigned crates;         /* crates pushed */
	unsigned pits;           /* pieces caught in a pit */
};

void lk_slide_board_init(struct lk_slide_board *b, int width, int height);
void lk_slide_board_release(struct lk_slide_board *b);

/* Working memory for lk_slide_move, reusable across moves of one size. */
struct lk_slide_scratch {
	int cells;
	int *group;              /* group of each cell's piece, or -1 */
	int *members;            /* cells of the groups, grouped */
	int *first;              /* first member of each group in members */
	int *order;              /* groups in resolution order */
	int *stack;
	uint8_t *moved;          /* per group: held, stopped, moved this move (bits) */
	uint8_t *kind, *col;     /* a group's pieces while it is lifted */
	uint8_t *mark;           /* per cell, all zero between moves */
	int *lead;               /* per group: its leading edge this move */
	/* After a move: members[0 .. first[ngroups]) holds every cell that may
	 * hold a piece now (-1 for a piece that left or was lost; a matched
	 * fruit's cell is empty on the board), so a caller can read the new
	 * state without scanning the board. */
	int ngroups;
	/* What depends only on the terrain, computed on first use. */
	bool prepared;
	int *nb;                 /* 4 per cell: the neighbour in each lk_dir, or -1 */
	int *proj;               /* 4 per cell: its position along each lk_dir */
	int *anteaters;          /* anteater cells */
	int nanteaters;
};

/* Allocate scratch for boards of `cells` cells (callers that lay out their
 * own memory set the arrays themselves: group, members, first, order,
 * stack, lead and anteaters hold cells + 1 ints, nb and proj 4 * cells, moved,
 * kind, col and mark (zeroed) cells bytes; prepared false). */
void lk_slide_scratch_init(struct lk_slide_scratch *s, int cells);
void lk_slide_scratch_release(struct lk_slide_scratch *s);

/* Apply one move in direction dir (LK_UP ... LK_LEFT) to b's pieces. */
void lk_slide_move(struct lk_slide_board *b, int dir, struct lk_slide_scratch *s,
		   struct lk_slide_result *r);

#endif
