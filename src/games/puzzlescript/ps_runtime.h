/*
 * ps_runtime.h - one thread's working state for one level, and the pieces
 * of the turn that the engine files and the session share.
 *
 * The level is held as the reference holds it: per cell (column-major,
 * index x*height + y) ow words of objects and mw words of movements.  Kept
 * with every write (ps_state.c): each object's cells as bit boards and its
 * count, so that a rule row is looked for only where its rarest object is;
 * and an undo log of the turn's writes, so that nothing copies the whole
 * grid: a turn is undone by replaying its log backwards, and a state's key
 * is stored by re-packing only the cells the log names.  A bitmap of cells
 * that may have movements saves the movement phase from scanning still
 * cells.  Buffers are allocated when the runtime is made; the log and the
 * match lists grow the first time they need more room, and stay.
 */
#ifndef LEVELKIT_PS_RUNTIME_H
#define LEVELKIT_PS_RUNTIME_H

#include <string.h>

#include "ps_internal.h"
#include "ps_rng.h"

#define PS_MAX_DEPTH 6   /* nested turns: again's trial run, restart's start rules */
#define PS_MAX_CHOICES 4096   /* random draws one turn may make when they are chosen */

struct ps_match {
	int i, k1, k2;
	/* a tuple's caches (ps_rules.c): the row matched here (ok) as the
	 * cells stood at stamp chk, and its replacement changed nothing as
	 * they stood at stamp nop (nop_ok) */
	uint64_t chk, nop;
	bool ok, nop_ok;
};

struct ps_match_list {
	struct ps_match *v;
	size_t n, alloc;
	uint64_t stamp;    /* mods when they were found */
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
	uint64_t *movmap;                      /* cells that may have movements or rigid marks */
	uint64_t *movmap_rm;                   /* the same, row-major */
	int movmap_words;
	ps_word *static_cells;                 /* the level's static layers */

	/* what the cells hold, kept with every write (ps_state.c): per
	 * object its cells as bit boards, column-major (cell order) and
	 * row-major (y * w + x), and its count; the union of the objects
	 * present (exact) and of the movements set since they were last all
	 * cleared (a superset) */
	uint64_t *bb;                          /* nobjects * 2 * bbw */
	int bbw;                               /* words per board */
	int *row_major;                        /* by cell: y * w + x */
	int *cell_of_rm;                       /* by y * w + x: the cell */
	int *cell_x, *cell_y;                  /* by cell */
	/* the bit-parallel matcher's (ps_rules.c): per direction (up, down,
	 * left, right) and row length, the starts that keep a row on the
	 * board, in the direction's order; and room for one row's cells */
	uint64_t *valid_starts;
	uint64_t *cell_words;
	int *obj_count;
	ps_word *map_obj, *map_mov;

	/* the undo log: every cell write of a turn with the cell's objects
	 * before it, so that a turn is undone (cancel, again's trial turn,
	 * a rigid re-run, a search's next input) by replaying it backwards,
	 * and a key is stored by re-packing the cells it names */
	int *log_cell;
	ps_word *log_old;
	size_t log_len, log_alloc;
	uint32_t *logged;                      /* by cell: the epoch it was logged in */
	uint32_t epoch, epochs;                /* the current process_input's, the last used */
	uint32_t *seen;                        /* by cell, for walking the log once per cell */
	uint32_t seen_stamp;
	uint64_t mods;                         /* bumped by every change */
	uint64_t *cell_mod;                    /* by cell: mods when it last changed */
	uint64_t all_mod;                      /* mods when every cell last changed */
	/* the key the log starts from (base_valid), and where each slot's
	 * bits are: cell_slot[c] .. cell_slot[c + 1] are cell c's slots,
	 * byte_slot[b] the first slot with bits in key byte b */
	unsigned char *base_key;
	bool base_valid;
	bool in_turn;
	int *cell_slot, *byte_slot;
	int *slot_of;                          /* by cell * nlayers + layer: its slot, or -1 */
	uint32_t *slot_pos;
	ps_word *scratch_cells;                /* a whole grid, for loads inside a turn */

	/* the turn */
	int depth;
	ps_word *start_movs;                   /* rigid games: movements at the turn's start */
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

	/* the random generator; in a game whose keys hold its state (the
	 * numbers drawn since the seed: lv->rng_in_key, unless a session
	 * plays), the numbers it gave are kept, so that a key loaded from
	 * earlier draws from where that state stood */
	struct ps_rng rng;
	bool rng_keyed;
	uint32_t draws;                        /* numbers drawn since the seed */
	double *drawn;                         /* the numbers, keyed runtimes */
	uint32_t ndrawn, drawn_alloc;
	/* choosing (ps_rolls.c): each draw's result is forced[k] for the
	 * k-th draw of the turn (0 beyond nforced), its range noted in
	 * ranges[k]; past PS_MAX_CHOICES draws the turn is cut short */
	bool choosing, choice_overflow;
	int *forced, *ranges;
	int nforced, nchoices;
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
	size_t turn_mark;                      /* the log when ps_turn began */
	/* a repeating pass (ps_rules.c): the cells, movements and rigid
	 * marks as the last pass of a group [0] or of a startloop [1] began,
	 * and the numbers drawn by then */
	ps_word *pass_state[2];
	uint64_t pass_rolls[2];
	uint64_t rolls;                        /* every ps_draw_below, whatever the mode */
	bool won;                              /* the last turn won (kept in the key) */
};

/* ps_rules.c */
void ps_apply_rule_groups(struct ps_runtime *rt, int first, int count, const int *loop_point,
			  bool *banned);

/* ps_rule_match.c: every match of each of the rule's rows into rt->rows
 * (false as soon as one row has none), and whether the row still matches
 * at m (d: the rule direction's step between cells).  Most rules of a
 * turn need an object the level does not hold: that test is inline. */
bool ps_find_row_matches(struct ps_runtime *rt, const struct ps_rule *rule);
static inline bool ps_find_matches(struct ps_runtime *rt, const struct ps_rule *rule)
{
	return ps_bits_subset(rule->mask, rt->map_obj, rt->ow) && ps_find_row_matches(rt, rule);
}
bool ps_recheck_row(const struct ps_runtime *rt, const struct ps_row *row, const struct ps_match *m,
		    int d);

/* The step between a rule's cells in direction dir (cells are column-major). */
static inline int ps_rule_delta(const struct ps_runtime *rt, int dir)
{
	switch (dir) {
	case PS_DIR_UP: return -1;
	case PS_DIR_DOWN: return 1;
	case PS_DIR_LEFT: return -rt->h;
	case PS_DIR_RIGHT: return rt->h;
	default: return 0;
	}
}

/* ps_turn.c */
bool ps_process_input(struct ps_runtime *rt, int dir, bool dont_do_win, bool dont_modify);
void ps_set_host(struct ps_runtime *rt, const struct ps_host *host, void *ctx);
void ps_start_movement(struct ps_runtime *rt, int dir);

/* The next random number: floor(uniform * n), as the engine draws it.
 * Inline where a keyed runtime has drawn the number already (a search
 * going through a game that rolls dice every turn), else the call. */
int ps_draw_below_slow(struct ps_runtime *rt, int n);
static inline int ps_draw_below(struct ps_runtime *rt, int n)
{
	if (rt->rng_keyed && !rt->choosing && rt->draws < rt->ndrawn) {
		rt->rolls++;
		return (int)(rt->drawn[rt->draws++] * n);
	}
	return ps_draw_below_slow(rt, n);
}

/* ps_state.c: the cells and what is kept with them */
void ps_state_init(struct ps_runtime *rt);
void ps_state_free(struct ps_runtime *rt);
/* Write cell i's objects, logged (a turn's writes). */
void ps_write_cell(struct ps_runtime *rt, int i, const ps_word *objects);
/* Undo the log back to mark (cells as they were then). */
void ps_rollback(struct ps_runtime *rt, size_t mark);
/* Whether some cell differs from what it held at mark. */
bool ps_changed_since(struct ps_runtime *rt, size_t mark);
/* The whole grid as it was at mark, into out. */
void ps_cells_at(struct ps_runtime *rt, size_t mark, ps_word *out);
/* Clear every movement (and rigid mark), the command queue and again. */
void ps_clear_movements(struct ps_runtime *rt);
/* Put a whole grid in place: logged inside a turn, else the log starts
 * afresh from no key.  Movements cleared. */
void ps_put_cells(struct ps_runtime *rt, const ps_word *cells);
/* Forget the log when no turn needs it (between turns). */
void ps_log_trim(struct ps_runtime *rt);
/* Pack a grid of this level into a key / unpack a key into a grid. */
void ps_pack_cells(const struct ps_runtime *rt, const ps_word *cells, void *key);
void ps_unpack_cells(const struct ps_runtime *rt, const void *key, ps_word *cells);

/* Cell i's objects or movements change (its stamp, for the caches). */
static inline void ps_touch(struct ps_runtime *rt, int i)
{
	rt->cell_mod[i] = ++rt->mods;
}

static inline void ps_movmap_set(struct ps_runtime *rt, int i)
{
	int r = rt->row_major[i];
	rt->movmap[i >> 6] |= (uint64_t)1 << (i & 63);
	rt->movmap_rm[r >> 6] |= (uint64_t)1 << (r & 63);
}

static inline void ps_movmap_clear(struct ps_runtime *rt)
{
	memset(rt->movmap, 0, (size_t)rt->movmap_words * sizeof(uint64_t));
	memset(rt->movmap_rm, 0, (size_t)rt->movmap_words * sizeof(uint64_t));
}

/* The valid starts of a row of len cells read in direction dir. */
static inline const uint64_t *ps_valid_starts(const struct ps_runtime *rt, int dir, int len)
{
	int d = dir == 1 ? 0 : dir == 2 ? 1 : dir == 4 ? 2 : 3;
	return rt->valid_starts + ((size_t)d * (size_t)rt->g->max_row_len + (size_t)(len - 1)) *
					  (size_t)rt->bbw;
}

static inline const uint64_t *ps_board(const struct ps_runtime *rt, int id, bool row_major)
{
	return rt->bb + ((size_t)id * 2 + row_major) * (size_t)rt->bbw;
}

#endif
