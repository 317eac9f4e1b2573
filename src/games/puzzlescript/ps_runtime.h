/*
 * ps_runtime.h - one thread's working state for one level, and the pieces
 * of the turn that the engine files and the session share.
 *
 * The level is held as the reference holds it: per cell (column-major,
 * index x*height + y) ow words of objects and mw words of movements, plus
 * per row, per column and for the whole map the union of what was ever in
 * them this turn (a rule whose objects are absent from a row is not tried
 * there).  A bitmap of cells that may have movements saves the movement
 * phase from scanning still cells.  Everything is allocated when the
 * runtime is made; a turn allocates nothing.
 */
#ifndef LEVELKIT_PS_RUNTIME_H
#define LEVELKIT_PS_RUNTIME_H

#include "ps_internal.h"
#include "ps_rng.h"

#define PS_MAX_DEPTH 6   /* nested turns: again's trial run, restart's start rules */

struct ps_match {
	int i, k1, k2;
};

struct ps_match_list {
	struct ps_match *v;
	size_t n, alloc;
};

/* What a session does where the reference touches its undo stack and
 * level list in the middle of a turn.  NULL: the solver's behaviour
 * (restart returns to the level's start, a win ends the turn). */
struct ps_host {
	void (*push_undo)(void *ctx, struct ps_runtime *rt, const ps_word *cells);
	void (*restart)(void *ctx, struct ps_runtime *rt);
	bool (*win)(void *ctx, struct ps_runtime *rt);      /* true: level left */
	void (*checkpoint)(void *ctx, struct ps_runtime *rt);
	void (*sound)(void *ctx, int seed);
};

struct ps_runtime {
	const struct ps_game *g;
	const struct ps_level *lv;
	int level;
	int w, h, n, ow, mw;
	ps_word *cells, *movs;
	ps_word *rigid_gi, *rigid_ma;          /* rigid games only */
	ps_word *row_obj, *col_obj, *map_obj;
	ps_word *row_mov, *col_mov, *map_mov;
	uint64_t *movmap;                      /* cells that may have movements */
	int movmap_words;
	ps_word *static_cells;                 /* the level's static layers */

	/* the turn */
	ps_word *bak[PS_MAX_DEPTH];
	int depth;
	ps_word *start_cells, *start_movs;
	uint64_t *start_movmap;
	uint32_t queue;                        /* queued commands, PS_CMD_* bits */
	int queue_len;                         /* distinct commands queued */
	const char *message;                   /* messagetext */
	ps_word *sfx_create, *sfx_destroy;
	int *seeds_can, *seeds_cant;
	int ncan, ncant;
	bool *banned;                          /* rigid: groups disabled */
	struct ps_match_list *rows;             /* one per row of the longest rule */
	int *players;
	int nplayers;
	bool againing;
	bool text_mode;
	bool left_level;                       /* a win moved the session on */

	struct ps_rng rng;
	const struct ps_host *host;
	void *host_ctx;
	struct ps_turn_info *info;

	bool track;
	uint64_t *fired;                       /* rules, when tracking */
	ps_word *moved;                        /* objects, when tracking */
	/* the facts as each nested turn found them, put back when what it
	 * did is undone (a rigid re-run, a cancel, again's trial turn) */
	uint64_t *fired_save;                  /* PS_MAX_DEPTH slices */
	ps_word *moved_save;
	ps_word *restart_cells;                /* solver restart target */
	ps_word *turn_start;                   /* cells before ps_turn */
	/* the last key loaded, unpacked, with its masks */
	unsigned char *cache_key;
	ps_word *cache_cells, *cache_row, *cache_col, *cache_map;
	bool cache_valid;
	bool won;                              /* the last turn won (kept in the key) */
};

/* ps_rules.c */
void ps_apply_rule_groups(struct ps_runtime *rt, int first, int count, const int *loop_point,
			  bool *banned);
void ps_calc_masks(struct ps_runtime *rt);

/* ps_turn.c */
bool ps_process_input(struct ps_runtime *rt, int dir, bool dont_do_win, bool dont_modify);
/* Put back cells the runtime held earlier (movements cleared, masks kept:
 * they only ever grow, so they still cover these cells). */
void ps_restore_cells(struct ps_runtime *rt, const ps_word *cells);
/* Put arbitrary cells in place and recompute the masks. */
void ps_reset_cells(struct ps_runtime *rt, const ps_word *cells);
void ps_set_host(struct ps_runtime *rt, const struct ps_host *host, void *ctx);
/* Pack a grid of this level into a key / unpack a key into a grid. */
void ps_pack_cells(const struct ps_runtime *rt, const ps_word *cells, void *key);
void ps_unpack_cells(const struct ps_runtime *rt, const void *key, ps_word *cells);

static inline void ps_movmap_set(struct ps_runtime *rt, int i)
{
	rt->movmap[i >> 6] |= (uint64_t)1 << (i & 63);
}

#endif
