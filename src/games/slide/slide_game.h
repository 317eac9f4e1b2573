/*
 * slide_game.h - what the slide games (fruit, skiddy) share: reading a
 * board through a per-game legend, packing states, moves through the slide
 * simulator, move names, drawing and the canonical form.
 *
 * Key layout: one nibble per cell that can hold a piece (0 = empty, else
 * 1 + the index of the piece's kind and colour in the level's piece
 * table), one bit per pit (a piece is trapped there), then a flag byte:
 * bit 0 = a fruit was lost, bit 1 + c = colour c's skiddies left in more
 * than one move (the max-combo is broken).
 */
#ifndef LEVELKIT_SLIDE_GAME_H
#define LEVELKIT_SLIDE_GAME_H

#include "levelkit/game.h"
#include "slide.h"

struct lk_canvas;
struct lk_paint;

#define SLIDE_MAX_KINDS 15

/* The facts a move can carry (concepts read them: uses(anteater)), as
 * bits above the direction in an edge's move code, and their names. */
enum { SLIDE_FACT_MATCH, SLIDE_FACT_ANTEATER, SLIDE_FACT_MUD, SLIDE_FACT_CRATE, SLIDE_FACT_PIT,
       SLIDE_NFACTS };
extern const char *const slide_fact_names[];
/* The direction of a move letter (u r d l, either case), or -1. */
int slide_dir_of_letter(char c);
#define SLIDE_FLAG_LOST 1u

/* One character of a game's legend. */
struct slide_char {
	char ch;
	uint8_t terrain;   /* enum lk_terrain */
	uint8_t piece;     /* enum lk_piece */
	uint8_t colour;
	uint8_t dir;       /* anteaters */
};

struct slide_rules {
	const char *game;
	const struct slide_char *legend;   /* ' ' and '.' are floor for every game */
	int nlegend;
	bool win_without_skiddies;         /* skiddy: win = no skiddy; fruit: no fruit */
	bool combos;                       /* track max-combos (skiddy) */
	bool oneway_field;                 /* read the "oneway" field (fruit) */
	int min_w, min_h, max_w, max_h;    /* board size, either orientation */
	/* extra checks of a read board; NULL or a message (static) */
	const char *(*check)(const struct lk_slide_board *b, int *bad_cell);
	/* The game's look (slide_draw.c draws the board and calls these):
	 * the mark of a cell's terrain other than wall and floor, on the
	 * marks layer; the piece on a cell, on the pieces layer. */
	void (*draw_terrain)(struct lk_canvas *c, const struct lk_slide_board *b, int cell);
	void (*draw_piece)(struct lk_canvas *c, const struct lk_slide_board *b, int cell);
};

struct slide_level {
	struct lk_level base;
	const struct slide_rules *rules;
	struct lk_slide_board board;       /* terrain, and the start's pieces */
	int nslots;
	int *slot_cell;                    /* cells that can hold a piece */
	int *cell_slot;                    /* per cell, or -1 */
	int npits;
	int *pit_cell;
	int nkinds;
	uint8_t kind_piece[SLIDE_MAX_KINDS], kind_colour[SLIDE_MAX_KINDS];
	uint8_t kind_of[8][32];            /* 1 + kind index of (piece, colour), 0 none */
	size_t piece_bytes, pit_bytes;     /* key parts */
	uint8_t colours_used;              /* bit per skiddy colour in the level */
	char *oneway_text;                 /* the oneway field, for drawing */
	bool thesis;                       /* the thesis measure: its heuristic */
};

/* Per-thread scratch: a board for moves and the simulator's memory. */
struct slide_scratch {
	bool ready;
	struct lk_slide_board board;
	uint8_t *piece0, *colour0, *trapped0;   /* the state being expanded */
	struct lk_slide_scratch sim;
};

size_t slide_scratch_size(const struct slide_level *s);

/* vtable members shared by the slide games */
int slide_validate(const struct slide_rules *rules, const struct lk_record *rec,
		   struct lk_strbuf *err, size_t *line);
struct lk_level *slide_new_level(const struct slide_rules *rules, const struct lk_game *game,
				 const struct lk_record *rec);
void slide_free_level(struct lk_level *level);
void slide_initial_state(const struct lk_level *level, void *key);
unsigned slide_successors(const struct lk_level *level, const void *key, void *scratch,
			  unsigned char *keys_out, struct lk_edge *edges);
bool slide_is_goal(const struct lk_level *level, const void *key);
/* The thesis measure's heuristic (rate --measure thesis), the win
 * written as PuzzleScript would: "no Fruit" (or "no Skiddy"), +1 for
 * every cell holding one.  0 outside the measure: the slide games have no
 * estimate of their own, and 0 keeps A* optimal there. */
unsigned slide_heuristic(const struct lk_level *level, const void *key, void *scratch);
/* Win kinds (skiddy): a win that broke a max-combo, and one that did not. */
enum { SLIDE_WIN_PLAIN, SLIDE_WIN_COMBO, SLIDE_WIN_KINDS };
unsigned slide_win_kind(const struct lk_level *level, const void *key);
void slide_label_move(const struct lk_level *level, const void *key, uint32_t move,
		      struct lk_moves *out);
void slide_label_path(const struct lk_level *level, const unsigned char *keys, size_t nkeys,
		      struct lk_moves *out);
int slide_replay(const struct lk_level *level, const char *solution, struct lk_moves *moves,
		 bool *solved, struct lk_strbuf *err);
int slide_vt_validate(const struct lk_game *game, const void *def, const struct lk_record *rec,
		      const struct lk_level_options *opt, struct lk_strbuf *err, size_t *line);
struct lk_level *slide_vt_new_level(const struct lk_game *game, const void *def,
				    const struct lk_record *rec, const struct lk_level_options *opt);
void slide_write_state(const struct lk_level *level, const void *key, struct lk_strbuf *out);
/* The rating's counts (rating.h): the cells a piece can be on, the pieces. */
void slide_rating_counts(const struct lk_level *level, unsigned *cells, unsigned *objects);
unsigned slide_rating_wall_sides(const struct lk_level *level);
void slide_canonical(const struct lk_level *level, struct lk_strbuf *out);

/* The pieces of a key on b, whose terrain is the level's and whose piece,
 * colour and trapped arrays are the caller's (b->pieces NULL). */
void slide_unpack_key(const struct lk_level *level, const void *key, struct lk_slide_board *b);
/* Apply move dir to key with the solver's scratch block (scratch_size
 * bytes, zeroed before first use); false when it changes nothing or the
 * game is lost (out is then unspecified). */
bool slide_move_key(const struct lk_level *level, void *scratch, const void *key, int dir,
		    void *out);
/* Drawing and playing back (slide_draw.c, slide_frames.c). */
void slide_draw(const struct lk_level *level, const void *key, const char *placement,
		struct lk_canvas *c);
/* What the games' drawings share: a piece of a colour with its letter
 * (round or square), and black or white text that reads on a colour. */
void slide_draw_coloured(struct lk_canvas *c, uint32_t rgb, const char *letter, bool round);
struct lk_paint slide_letter_on(uint32_t rgb);
int slide_replay_keys(const struct lk_level *level, const char *solution, unsigned char **keys,
		      size_t *nkeys, struct lk_strbuf *err);

/* The vtable members the slide games share (game->data is their struct
 * slide_rules): each game is its name, summary, rules and generators,
 * and Skiddy adds its win kinds. */
#define SLIDE_GAME_MEMBERS                           \
	.metrics = slide_metrics,                    \
	.heuristics = NULL,                          \
	.validate = slide_vt_validate,               \
	.new_level = slide_vt_new_level,             \
	.free_level = slide_free_level,              \
	.initial_state = slide_initial_state,        \
	.successors = slide_successors,              \
	.is_goal = slide_is_goal,                    \
	.heuristic = slide_heuristic,                \
	.move_facts = slide_move_facts,              \
	.label_path = slide_label_path,              \
	.label_move = slide_label_move,              \
	.replay = slide_replay,                      \
	.whole_graph = true,                         \
	.rating_counts = slide_rating_counts,        \
	.rating_wall_sides = slide_rating_wall_sides, \
	.write_state = slide_write_state,            \
	.symmetries = LK_SYMMETRIES_ALL,             \
	.canonical = slide_canonical,               \
	.draw = slide_draw,                          \
	.replay_keys = slide_replay_keys

extern const char *const slide_metrics[];
unsigned slide_move_facts(const struct lk_level *level, const void *key, uint32_t move,
			  uint16_t *facts, unsigned max);

#endif
