/*
 * lightsout.h - what the files of the Lights Out game share: the level
 * (its cells, the start and what each press toggles) and the members its
 * vtable (lightsout.c) takes from the other files.
 *
 * A state is one bit per cell in reading order (set: the light is on); a
 * press of cell i turns the state into state XOR mask[i], the bits of i
 * and its orthogonal neighbours that are cells.
 */
#ifndef LEVELKIT_LIGHTSOUT_H
#define LEVELKIT_LIGHTSOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "levelkit/game.h"

/* Boards are at most this wide and high: a press is written as a column
 * letter and a row number ("c4"). */
#define LIGHTSOUT_MAX_SIDE 16

struct lightsout_level {
	struct lk_level base;
	int width, height, ncells;
	int *cell_at;            /* per board position y * width + x: its cell, or -1 */
	int *pos_of;             /* per cell: its board position */
	unsigned char *start;    /* key_size bytes */
	unsigned char *masks;    /* ncells masks of key_size bytes */
	unsigned max_toggle;     /* the most lights one press toggles */
	bool thesis;             /* the thesis measure: its heuristic */
};

extern const struct lk_game lk_game_lightsout;
extern const struct lk_generator lk_gen_lightsout_random;

/* The label of a press of cell i ("c4") into buf (at least 4 bytes);
 * returns its length. */
size_t lightsout_label(const struct lightsout_level *s, int cell, char *buf);
/* Apply a solution text to key press by press, calling each(ctx, key)
 * after every press: 0 with *solved, or -1 with a message (bad notation,
 * a press off the board, a press after the level is solved). */
int lightsout_play(const struct lightsout_level *s, const char *solution, unsigned char *key,
		   void (*each)(void *ctx, const unsigned char *key, int cell), void *ctx,
		   bool *solved, struct lk_strbuf *err);

/* Drawing and playing back (lightsout_draw.c). */
void lightsout_draw(const struct lk_level *level, const void *key, const char *placement,
		    struct lk_canvas *c);
int lightsout_replay_keys(const struct lk_level *level, const char *solution,
			  unsigned char **keys, size_t *nkeys, struct lk_strbuf *err);

#endif
