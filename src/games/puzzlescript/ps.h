/*
 * ps.h - PuzzleScript: compile a game, read its levels, run its turns.
 *
 * A game is compiled once into an immutable struct ps_game that any number
 * of threads share.  Each of a game's maps has a fixed-size packed state
 * key: for every cell and every collision layer whose contents can change,
 * the rank of the object on that layer (0 for none) in as few bits as the
 * layer needs; layers no rule or player can touch are left out.  A
 * struct ps_runtime is one thread's working memory for one level: load a
 * key, run a turn (one input and every "again" turn it causes), store the
 * key.  Turns allocate nothing.
 *
 * struct ps_session (ps_session.c) adds what a player has on top of turns:
 * an undo stack, restart and checkpoints, winning into the next level, the
 * message screens, and the history of sounds; the reference's simulation
 * tests replay through it.
 *
 * Semantics follow the reference engine (increpare/PuzzleScript) exactly,
 * including its random number generator, so seeded games replay the same.
 */
#ifndef LEVELKIT_PS_H
#define LEVELKIT_PS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/strbuf.h"

struct ps_game;
struct ps_runtime;
struct ps_session;
struct ps_diags;

/* Inputs. */
enum {
	PS_UP = 0,
	PS_LEFT = 1,
	PS_DOWN = 2,
	PS_RIGHT = 3,
	PS_ACTION = 4,
	PS_TICK = -1      /* a turn without input (realtime games, "again") */
};

/* ---- compiling ---- */

/*
 * Compile a game.  Returns NULL on failure with a lower-case message in err
 * and its 1-based source line in *err_line (0 when it has none).  Every
 * error the reference compiler reports fails here, as does any construct
 * this engine does not simulate (named in the message).  filename is kept
 * for messages (may be NULL).
 */
struct ps_game *ps_compile(const char *src, size_t len, const char *filename,
			   struct lk_strbuf *err, int *err_line);

/*
 * The same, with every message (errors and warnings, in source order) in
 * diags.  lenient: accept a game with errors the way the reference engine
 * does (it plays a game with up to five errors, recovering as it can);
 * the reference's simulation tests include such games.
 */
struct ps_game *ps_compile_diags(const char *src, size_t len, const char *filename, bool lenient,
				 struct ps_diags *diags);

void ps_game_free(struct ps_game *g);

/* Prelude flags and values. */
struct ps_game_flags {
	bool run_rules_on_level_start;
	bool require_player_movement;
	bool noaction, noundo, norestart;
	bool norepeat_action, throttle_movement;
	double realtime_interval;    /* seconds, 0 if none */
	double again_interval;       /* seconds (default 0.15) */
	double key_repeat_interval;
	const char *title, *author, *homepage;
	int flickscreen[2], zoomscreen[2];   /* 0 if none */
	/* drawing, as written (NULL if not given): the palette colour names
	 * are read in, and the colour behind every cell */
	const char *color_palette, *background_color;
};
const struct ps_game_flags *ps_game_flags(const struct ps_game *g);

/* Whether solvers may treat the game as deterministic: false when a rule
 * is random or uses randomdir, or the game has realtime ticks; *reason
 * (if not NULL) then says why, for the message solvers print. */
bool ps_game_deterministic(const struct ps_game *g, const char **reason);

/* Objects, layers, rules. */
int ps_game_object_count(const struct ps_game *g);
const char *ps_game_object_name(const struct ps_game *g, int id);   /* NULL if unused id */
int ps_game_object_layer(const struct ps_game *g, int id);
int ps_game_layer_count(const struct ps_game *g);
/* Drawing: an object's colours as written (a colour name of the game's
 * palette or #rgb / #rrggbb) and its 5x5 sprite (colour index, -1 clear;
 * an object without a sprite is all colour 0). */
int ps_game_object_color_count(const struct ps_game *g, int id);
const char *ps_game_object_color(const struct ps_game *g, int id, int k);
int ps_game_object_pixel(const struct ps_game *g, int id, int x, int y);
int ps_game_rule_count(const struct ps_game *g);
int ps_game_rule_line(const struct ps_game *g, int rule);

/* ---- levels ---- */

int ps_game_level_count(const struct ps_game *g);
bool ps_level_is_message(const struct ps_game *g, int level);
const char *ps_level_message(const struct ps_game *g, int level);   /* NULL for a map */
int ps_level_line(const struct ps_game *g, int level);
int ps_level_width(const struct ps_game *g, int level);
int ps_level_height(const struct ps_game *g, int level);
size_t ps_level_key_size(const struct ps_game *g, int level);
/* The map as written (background filled in), before any start rules:
 * cells column-major (index x*height + y), *words_per_cell 64-bit words
 * of object bits each.  NULL for a message. */
const uint64_t *ps_level_cells(const struct ps_game *g, int level, int *words_per_cell);

/*
 * Write a grid of object sets (column-major x*height+y, as a runtime holds
 * them, or NULL for the level's own start) as rows of the game's legend
 * characters.  Each cell gets a one-character legend name standing for
 * exactly its objects, the level's background filling in as when maps are
 * read.  When no such character exists the cell is written with the
 * character whose objects are the largest subset of the cell's (ties: the
 * first in legend order), '?' if none is; returns how many cells were not
 * exact.
 */
int ps_level_write(const struct ps_game *g, int level, const uint64_t *cells,
		   struct lk_strbuf *out);

/* ---- maps outside the script (a level record's grid) ---- */

struct ps_level;
/* Read rows of the game's legend characters as a map (see ps_map.c);
 * NULL with a message and *bad_row (1-based, 0 for the whole) when a
 * character is no legend character the game can draw a map with. */
struct ps_level *ps_map_parse(const struct ps_game *g, const char *const *rows, size_t nrows,
			      struct lk_strbuf *err, size_t *bad_row);
void ps_map_free(struct ps_level *lv);
int ps_map_width(const struct ps_level *lv);
int ps_map_height(const struct ps_level *lv);
size_t ps_map_key_size(const struct ps_level *lv);
const uint64_t *ps_map_cells(const struct ps_level *lv);
/* As ps_level_write, for such a map. */
int ps_map_write(const struct ps_game *g, const struct ps_level *lv, const uint64_t *cells,
		 struct lk_strbuf *out);

/* ---- turns ---- */

/* What one ps_turn did. */
enum {
	PS_CHANGED = 1u << 0,     /* the level differs from before the input */
	PS_WON = 1u << 1,         /* win conditions met or a win command */
	PS_CANCELLED = 1u << 2,   /* a cancel command undid the turn */
	PS_RESTARTED = 1u << 3,   /* a restart command reset the level */
	PS_MESSAGE = 1u << 4,     /* a message command */
	PS_CHECKPOINT = 1u << 5,  /* a checkpoint command */
	PS_AGAIN = 1u << 6,       /* "again" turns were run */
	PS_AGAIN_LIMIT = 1u << 7, /* the again loop hit its bound (PS_MAX_AGAIN) */
	PS_NO_MOVE = 1u << 8      /* require_player_movement undid the turn */
};
#define PS_MAX_AGAIN 500

#define PS_MAX_TURN_SOUNDS 64
struct ps_turn_info {
	unsigned flags;
	const char *message;          /* message text, if PS_MESSAGE */
	int nsounds;                  /* sound seeds played, as the reference records them */
	const char *sounds[PS_MAX_TURN_SOUNDS];
	uint32_t sfx_commands;        /* bit n: a rule said sfxN */
	int again_turns;
};

/* A runtime for a map (NULL for a message level), holding the map as
 * written.  Turns allocate nothing, except that the match buffers of rules
 * with ellipses grow the first time they need more room. */
struct ps_runtime *ps_runtime_new(const struct ps_game *g, int level);
/* The same for a map read with ps_map_parse (which must outlive it). */
struct ps_runtime *ps_runtime_new_map(const struct ps_game *g, const struct ps_level *lv);
void ps_runtime_free(struct ps_runtime *rt);
/* Seed the generator random rules draw from (the reference's RC4 on the
 * seed's characters); without this it is seeded with "0". */
void ps_runtime_seed(struct ps_runtime *rt, const char *seed);
/* Ask for per-turn facts (rules fired, objects moved) at a small cost. */
void ps_runtime_track(struct ps_runtime *rt, bool on);

/* The level's start: its map, then (with run_rules_on_level_start) a turn
 * without input and its again turns.  Leaves the runtime there. */
void ps_start(struct ps_runtime *rt, struct ps_turn_info *info);
void ps_load(struct ps_runtime *rt, const void *key);
void ps_store(const struct ps_runtime *rt, void *key);
size_t ps_key_size(const struct ps_runtime *rt);
/* The key's last bit says whether the turn that reached the state won: a
 * win may come from a rule's win command, not only from the win
 * conditions, so a goal test needs the key alone this way.  The start
 * rules' own turn never wins, as in the reference, but a win in the again
 * turns it causes does: such a level is won on load (ps_start's key has
 * the bit, and info says PS_WON). */
bool ps_key_won(const struct ps_runtime *rt, const void *key);

/* Run one input (PS_UP .. PS_ACTION or PS_TICK) and the again turns it
 * causes.  Returns info->flags (info may be NULL). */
unsigned ps_turn(struct ps_runtime *rt, int input, struct ps_turn_info *info);
/* Whether the current state satisfies the win conditions. */
bool ps_check_win(const struct ps_runtime *rt);

/* Facts about the last ps_turn, when tracking is on. */
bool ps_rule_fired(const struct ps_runtime *rt, int rule);
bool ps_object_moved(const struct ps_runtime *rt, int id);

/* The current cells (column-major, ow words each) and the words per cell. */
const uint64_t *ps_cells(const struct ps_runtime *rt, int *words_per_cell);

/* The level as debug.js's convertLevelToString writes it. */
void ps_debug_string(const struct ps_runtime *rt, struct lk_strbuf *out);

#endif
