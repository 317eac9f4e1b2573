/*
 * ps_internal.h - the compiled PuzzleScript game and the engine's working
 * state, shared by the compiler, the engine and the session code.
 *
 * Objects are numbered as the reference numbers them (collision layer by
 * collision layer) and a cell is a bit set of objects, ow 64-bit words.
 * Movements are five bits per collision layer (up 1, down 2, left 4,
 * right 8, action 16); twelve layers share a 64-bit word, mw words a cell.
 * A rule is rows of cell patterns, each pattern masks of objects that must
 * be present, must be absent, one-of sets, and movements present/absent,
 * and optionally a replacement (masks to clear and set).  Nothing in the
 * turn looks at a name.
 */
#ifndef LEVELKIT_PS_INTERNAL_H
#define LEVELKIT_PS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ps.h"
#include "ps_arena.h"

typedef uint64_t ps_word;

#define PS_LAYERS_PER_WORD 12

static inline int ps_mov_word(int layer)
{
	return layer / PS_LAYERS_PER_WORD;
}
static inline int ps_mov_shift(int layer)
{
	return 5 * (layer % PS_LAYERS_PER_WORD);
}

/* Direction masks, as the reference's. */
enum {
	PS_DIR_UP = 1,
	PS_DIR_DOWN = 2,
	PS_DIR_LEFT = 4,
	PS_DIR_RIGHT = 8,
	PS_DIR_ACTION = 16
};

/* Commands a rule can queue (bit numbers). */
enum {
	PS_CMD_SFX0 = 0,       /* ... PS_CMD_SFX0 + 10 */
	PS_CMD_CANCEL = 11,
	PS_CMD_CHECKPOINT,
	PS_CMD_RESTART,
	PS_CMD_WIN,
	PS_CMD_MESSAGE,
	PS_CMD_AGAIN,
	PS_NCMDS
};

struct ps_object {
	char *name;       /* lower case */
	char *display;    /* as written */
	int layer;        /* -1 for an id the reference left unused */
	char **colors;    /* as written: a colour name or #rgb / #rrggbb */
	int ncolors;
	signed char sprite[5][5];  /* colour index, -1 transparent */
};

/* One cell of a rule's left-hand side (offsets into game->words). */
struct ps_pattern {
	const ps_word *present;    /* ow: all must be there */
	const ps_word *missing;    /* ow: none may be there */
	const ps_word *any;        /* nany * ow: one of each set must be there */
	int nany;
	const ps_word *mov_present;  /* mw: all bits */
	const ps_word *mov_missing;  /* mw: no bit */
	/* the replacement, or has_rep false */
	bool has_rep;
	bool rep_random_obj, rep_random_dir;
	const ps_word *clear, *set;          /* ow */
	const ps_word *mov_clear, *mov_set;  /* mw; mov_clear includes the layer mask */
	const ps_word *mov_layers;           /* mw: layers whose movement the rhs fixes */
	const ps_word *random_obj;           /* ow */
	const ps_word *random_dir;           /* mw */
	/* the first word of each mask, inline: the whole mask in a game of
	 * up to 64 objects and twelve layers (ow == mw == 1), most games */
	ps_word present0, missing0, movp0, movm0;
	ps_word clear0, set0, movclear0, movset0;
	/* the same as lists of objects, for the bit boards (ps_rules.c):
	 * present, missing, and the one-of sets (any_first[s] ..
	 * any_first[s + 1] in any_objs) */
	const int *present_objs, *missing_objs, *any_objs, *any_first;
	int npresent, nmissing;
	const int *random_objs;  /* random_obj's objects, for the draw */
	int nrandom;
	bool movements;       /* needs a movement present or absent */
};

/* Where a row's matches can be looked for without scanning the board: a
 * cell of the row (before any ellipsis, so at a fixed offset from the
 * row's start) that must hold one of a few objects.  The engine keeps
 * each object's cells as bit boards and starts only where the rarest
 * anchor's objects are (ps_rules.c). */
struct ps_anchor {
	int offset;           /* cells from the row's start */
	int nobjs;
	const int *objs;      /* one of these must be there */
};

struct ps_row {
	int ncells;           /* including ellipses */
	int nellipses;        /* 0, 1 or 2 */
	int *cells;           /* pattern index, or -1 for an ellipsis */
	const ps_word *obj_mask;  /* ow: objects present anywhere in the row */
	const ps_word *mov_mask;  /* mw */
	const ps_word *any_masks; /* nany * ow: one-of sets some cell of the row needs */
	int nany;
	struct ps_anchor *anchors;
	int nanchors;
	bool random_rep;      /* a replacement draws random numbers */
	bool needs_movement;  /* some cell needs a movement */
	bool objects_only;    /* no ellipsis and no cell reads movements */
};

struct ps_rule {
	int dir;              /* PS_DIR_* the row reads in */
	int nrows;
	struct ps_row *rows;
	bool has_replacements;
	bool rigid;
	int rigid_index;      /* rigid group number + 1, for rigid rules */
	int line;
	int group_number;     /* line of the group's first rule */
	int index;            /* in game->rules */
	uint32_t commands;    /* bit set of PS_CMD_* */
	unsigned cost;        /* COST N (levelkit's): a turn it fires in costs N more */
	const char *message;  /* for PS_CMD_MESSAGE */
	const ps_word *mask;  /* ow: union of the rows' masks */
};

struct ps_group {
	int first, count;     /* rules game->rules[first .. first+count) */
	bool random;
	bool late;
	int line;
};

struct ps_wincond {
	int quantifier;       /* -1 no, 0 some, 1 all */
	bool aggr1, aggr2;
	const ps_word *mask1, *mask2;
	int line;
	const int *objs1;     /* mask1's objects, for the bit boards */
	int nobjs1;
};

struct ps_sfx_mask {
	const ps_word *objects;  /* ow */
	const ps_word *dirs;     /* mw, for move and cantmove */
	int seed;                /* index into game->seeds */
};

struct ps_glyph {
	uint32_t ch;             /* the legend character */
	ps_word *objects;        /* ow: what it stands for (without background fill) */
};

/* A legend name other than an object's: a synonym, a property (`or`,
 * any one of objects) or an aggregate (`and`, all of them), after the
 * reference's expansion; for tools that speak the game's language (the
 * transformer's rules). */
struct ps_name {
	const char *name;        /* as written */
	const ps_word *objects;  /* ow */
	bool aggregate;
};

struct ps_level {
	bool is_message;
	char *message;
	int line;
	int width, height;
	ps_word *cells;          /* width*height*ow, column-major (x*height + y) */
	/* the packed key: for each slot (a cell and a layer whose contents can
	 * change there), the rank of the object on that layer among the
	 * layer's dynamic objects (0 = none), in layer_bits[layer] bits; then
	 * one bit: the turn that reached the state won */
	int *slot_cell, *slot_layer;
	int nslots;
	size_t key_bits, key_size;
	/* a game that draws random numbers: the key's last four bytes count
	 * the numbers drawn since the seed (the generator's state) */
	bool rng_in_key;
};

enum ps_sound_event {
	PS_EV_UNDO, PS_EV_RESTART, PS_EV_TITLESCREEN, PS_EV_STARTGAME, PS_EV_CANCEL,
	PS_EV_ENDGAME, PS_EV_STARTLEVEL, PS_EV_ENDLEVEL, PS_EV_SHOWMESSAGE, PS_EV_CLOSEMESSAGE,
	PS_EV_SFX0, PS_NEVENTS = PS_EV_SFX0 + 11
};

struct ps_game {
	char *filename;
	int nobjects;            /* ids, including unused ones */
	struct ps_object *objects;
	int nlayers;
	int ow, mw;              /* words per cell: objects, movements */
	ps_word *layer_masks;    /* nlayers * ow */
	bool *obj_dynamic;       /* may be created, destroyed or moved */
	ps_word *static_mask;    /* ow: objects that never change */
	ps_word *dynamic_masks;  /* nlayers * ow: each layer's dynamic objects */
	int **layer_objs;        /* dynamic objects of each layer, by rank - 1 */
	int *layer_nobjs;
	int *obj_rank;           /* by id: 1-based rank among its layer's dynamic objects */
	int *layer_bits;         /* bits of a layer's slot in the key; 0 = static layer */
	bool *layer_dynamic;
	ps_word *all_mask;       /* ow: every bit */

	ps_word *player_mask;
	bool player_aggregate;
	int *player_objs;        /* player_mask's objects */
	int nplayer_objs;
	int background_id, background_layer;

	struct ps_pattern *patterns;
	int npatterns;
	struct ps_rule *rules;
	int nrules;
	struct ps_group *groups;  /* early groups then late ones */
	int ngroups, nearly;
	int *loop_point;         /* by group index (early, then late), -1 none */
	bool rigid;
	int *rigid_of_group;     /* early group -> rigid group index, -1 */
	int *group_of_rigid;
	int max_rows;
	int max_ellipsis_rows;
	int max_row_len;         /* cells of the longest row, ellipses aside */
	int max_row_cells;       /* cells of the longest row, ellipses counted */

	struct ps_wincond *wins;
	int nwins;

	char **seeds;            /* distinct sound seeds, as written */
	int nseeds;
	int event_seed[PS_NEVENTS];   /* -1 none */
	struct ps_sfx_mask *sfx_move;  /* movement sounds, by layer lists */
	int *sfx_move_first, *sfx_move_count;  /* per layer */
	struct ps_sfx_mask *sfx_cantmove, *sfx_create, *sfx_destroy;
	int nsfx_move, nsfx_cantmove, nsfx_create, nsfx_destroy;

	struct ps_game_flags flags;
	bool random;             /* some rule draws random numbers */

	struct ps_level *levels;
	int nlevels;
	struct ps_glyph *glyphs;
	int nglyphs;
	struct ps_name *names;   /* the legend's names, in symbol order */
	int nnames;

	struct ps_arena *keep;   /* owns every array and mask above */
};

/* The key layout of a map whose cells are read (slot arrays allocated
 * for width * height * nlayers slots): which cells and layers can change,
 * and the key's size. */
void ps_level_layout(const struct ps_game *g, struct ps_level *lv);

/* Whether object id may be in a cell the pattern matches: the pattern
 * neither excludes it nor requires something else on its layer. */
bool ps_pattern_may_hold(const struct ps_game *g, const struct ps_pattern *p, int id);

/* ---- compile-time pieces (ps_compile_*.c) ---- */

struct ps_parse;
struct ps_ctx;
int ps_compile_legend(struct ps_ctx *c);
int ps_compile_levels(struct ps_ctx *c);
int ps_compile_rules(struct ps_ctx *c);
int ps_compile_rule_masks(struct ps_ctx *c);
int ps_compile_sounds(struct ps_ctx *c);
int ps_compile_layout(struct ps_ctx *c);
void ps_compile_anchors(struct ps_ctx *c);

/* ---- small bit helpers ---- */

static inline bool ps_bits_subset(const ps_word *a, const ps_word *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] & ~b[i])
			return false;
	return true;
}
static inline bool ps_bits_any(const ps_word *a, const ps_word *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] & b[i])
			return true;
	return false;
}
static inline bool ps_bits_zero(const ps_word *a, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i])
			return false;
	return true;
}
static inline void ps_bit_set(ps_word *a, int bit)
{
	a[bit >> 6] |= (ps_word)1 << (bit & 63);
}
static inline bool ps_bit_get(const ps_word *a, int bit)
{
	return (a[bit >> 6] >> (bit & 63)) & 1;
}
static inline unsigned ps_mov_get(const ps_word *m, int layer)
{
	return (unsigned)(m[ps_mov_word(layer)] >> ps_mov_shift(layer)) & 31u;
}
static inline void ps_mov_or(ps_word *m, int layer, unsigned v)
{
	m[ps_mov_word(layer)] |= (ps_word)v << ps_mov_shift(layer);
}
static inline void ps_mov_clear(ps_word *m, int layer)
{
	m[ps_mov_word(layer)] &= ~((ps_word)31 << ps_mov_shift(layer));
}

#endif
