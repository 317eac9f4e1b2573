/*
 * ps_transform.h - what the PuzzleScript transformer's files share
 * (ps_transform.c: the ops, the legend, cells, invariants;
 * ps_transform_roles.c: the parts objects play, presets and random rooms).
 */
#ifndef LEVELKIT_PS_TRANSFORM_H
#define LEVELKIT_PS_TRANSFORM_H

#include "levelkit/rng.h"
#include "levelkit/rules.h"
#include "levelkit/strbuf.h"
#include "ps_internal.h"

/* The parts the game's objects play for presets and random rooms,
 * found from its legend and win conditions (docs/games/puzzlescript.md). */
struct ps_roles {
	int wall;              /* the object named Wall, or '#''s; -1 none */
	int player;            /* the player object random rooms place */
	const char *player_name;   /* "Player" as the game writes it */
	int crate, target;     /* of the first `all X on Y`: its moved and its
				* fixed object (one each); -1 none */
	int mover;             /* the movers' most used object, -1 none */
	int *win_objects;      /* per win condition: its X's and its Y's most
				* used object (not a player), -1 none */
	ps_word *movers;       /* ow: win-condition objects rules move */
	ps_word *fixed;        /* ow: win-condition objects nothing moves */
};

/* A run's side of the game. */
struct ps_tr {
	const struct ps_game *g;
	struct ps_game *own;         /* compiled from --script, else NULL */
	char *script, *hash;         /* the records' script and script-hash */
	struct lk_legend legend;
	struct lk_legend_object *objects;
	struct lk_legend_property *props;
	int *prop_objects;
	char **layer_names;          /* per collision layer: "Layer1"..., or NULL
				      * when the game uses that name itself */
	struct ps_roles roles;
	int width, height;           /* random rooms */
	long pairs;                  /* random rooms: crate/target pairs */
	/* invariants: kept from --from (or a random room) */
	int players;
	int *balance;                /* per win condition: count(X) - count(Y) for `all` */
};

/* Whether cell (ow words) holds mask's objects: all of them for an
 * aggregate, else any one. */
bool ps_tr_has(const ps_word *mask, bool aggregate, const ps_word *cell, int ow);
/* Cells holding X minus cells holding Y, for win condition wc. */
int ps_tr_balance(const struct ps_game *g, const struct ps_wincond *wc, const struct lk_cells *c);
/* Whether one of the game's legend characters stands for exactly cell. */
bool ps_tr_cell_ok(void *gs, const uint64_t *cell);

/* ps_transform_roles.c */
void ps_roles_find(struct ps_tr *t);
void ps_roles_release(struct ps_roles *r);
int ps_tr_preset(const void *gs, const char *name, struct lk_strbuf *out, struct lk_strbuf *err);
/* A random room: walls carved, the win conditions' objects placed solved
 * and in balance, one player; c allocated and zeroed. */
void ps_tr_random(const void *gs, struct lk_rng *rng, struct lk_cells *c);

#endif
