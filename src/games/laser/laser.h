/*
 * laser.h - the laser game (a Refraction-like puzzle, rules in
 * docs/games/laser.md and ../shared/laser/SPEC.md): levels, the firing
 * simulation of a placement, the solver with its visitor over every
 * solution, per-solution facts and concepts, the shortcut query, and the
 * shortcut-free generator.  The game's own API, private to the library
 * (not installed): its tests and bench/laser_driver include it from
 * src/games/laser; the commands reach the game through its vtable.
 *
 * A level is a board of empty cells, blockers and fixed pieces (sources,
 * targets, and any other piece) plus a tray of pieces the player may put on
 * empty cells.  Powers are exact: every power is an integer number of
 * units of 1/L, with L chosen per level so that no division in play leaves
 * a remainder (lk_laser_unit).  A placement is a set of (tray line, x, y);
 * it is a solution when every target receives exactly its need, and a tidy
 * one when every placed piece fires.
 */
#ifndef LEVELKIT_LASER_H
#define LEVELKIT_LASER_H

#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "levelkit/expr.h"
#include "levelkit/record.h"
#include "levelkit/search.h"
#include "levelkit/strbuf.h"

#define LK_LASER_MAX_SIDE 16
#define LK_LASER_MAX_CELLS (LK_LASER_MAX_SIDE * LK_LASER_MAX_SIDE)
#define LK_LASER_MAX_LINES 64        /* tray lines */
#define LK_LASER_MAX_FIXED 52        /* kinds of fixed piece: one per letter */

/* Piece types; LK_LASER_BLOCKER is the '#' cell. */
enum lk_laser_type {
	LK_LASER_SRC, LK_LASER_TGT, LK_LASER_BND, LK_LASER_SP2, LK_LASER_SP3,
	LK_LASER_CMB2, LK_LASER_CMB3, LK_LASER_BLOCKER, LK_LASER_NTYPES
};
/* "SRC", "TGT", "BND", ... "blocker". */
const char *lk_laser_type_name(enum lk_laser_type t);

/* Sides of a cell, equal to lk_dir's orthogonal directions. */
enum lk_laser_side { LK_LASER_N, LK_LASER_E, LK_LASER_S, LK_LASER_W };

struct lk_laser;
struct lk_laser_nogoods;
struct lk_level;

/* ------------------------------------------------------------ levels */

/*
 * A record of game laser: grid rows of '.', '#' and letters, and the
 * fields "fixed: LETTER TYPE PORTS [P/Q]" and "tray: COUNT TYPE PORTS"
 * (each may repeat).  validate returns 0, or -1 with a message and *line
 * set to the index into rec->lines of the fault ((size_t)-1: the record as
 * a whole); new builds a validated record.
 */
int lk_laser_validate(const struct lk_record *rec, struct lk_strbuf *err, size_t *line);
struct lk_laser *lk_laser_new(const struct lk_record *rec);
/* The .lvl text of SPEC.md: the level, or NULL with a message and the
 * 1-based line of the fault (0: the text as a whole). */
struct lk_laser *lk_laser_read_lvl(const char *text, struct lk_strbuf *err, size_t *line);
void lk_laser_free(struct lk_laser *lv);

void lk_laser_write_lvl(const struct lk_laser *lv, struct lk_strbuf *out);
/* Append the level to an empty record: game, the grid, fixed and tray. */
void lk_laser_to_record(const struct lk_laser *lv, struct lk_record *rec);

/* The level as a game level (game.h): game->csp solves and verifies it,
 * and lk_csp_rate rates it. */
const struct lk_level *lk_laser_level(const struct lk_laser *lv);

int lk_laser_width(const struct lk_laser *lv);
int lk_laser_height(const struct lk_laser *lv);
int lk_laser_tray_lines(const struct lk_laser *lv);
/* The power unit: every power is a whole number of 1/unit. */
int64_t lk_laser_unit(const struct lk_laser *lv);

/* -------------------------------------------------------- placements */

/* One placed piece: tray line (1-based, as the level lists them) at x, y. */
struct lk_laser_place {
	int line, x, y;
};

#define LK_LASER_MAX_PLACED LK_LASER_MAX_CELLS
struct lk_laser_placement {
	int n;
	struct lk_laser_place p[LK_LASER_MAX_PLACED];
};

/* "LINE@X,Y ..." (blank-separated; "-" or nothing is no piece), checked
 * against the level: lines exist, cells empty, counts within the tray.
 * 0, or -1 with a message. */
int lk_laser_placement_parse(const struct lk_laser *lv, const char *text,
			     struct lk_laser_placement *out, struct lk_strbuf *err);
/* The same text, pieces sorted by line then y then x ("-" when none). */
void lk_laser_placement_format(const struct lk_laser_placement *pl, struct lk_strbuf *out);

/* ---------------------------------------------------------------- facts */

/*
 * What a solution shows (the facts concepts are written over).  count and
 * uses are over *firing* pieces (a target "fires" when it receives a
 * beam); network is the number of connected networks of pieces (fixed
 * ones, blockers aside, and placed ones) linked by beams that reach an
 * in-port.
 */
struct lk_laser_facts {
	int fired[LK_LASER_NTYPES];    /* firing pieces per type */
	int placed[LK_LASER_NTYPES];   /* placed pieces per type */
	int placed_total, idle;        /* placed pieces; those that do not fire */
	int network;
	int blockers, sources, targets, tray;  /* level properties */
};

/*
 * The value of a fact for the expression language (expr.h): names
 * "network", "placed", "idle", "blockers", "sources", "targets", "tray",
 * and calls count(T), uses(T) = fires(T) (0 or 1), placed(T), where T is a
 * type name (SRC, TGT, BND, SP2, SP3, CMB2, CMB3, blocker, any case) or a
 * group: bender, splitter (SP2 and SP3), combiner (CMB2 and CMB3), source,
 * target, piece (any type a tray holds).  count(blocker) is the level's
 * blockers.  0 with *value, -1 when the name is not a fact here: the
 * facts over powers, made(P), made(T P), adds(P + Q), into(P), into(T P),
 * into(P + Q) (docs/games/laser.md), need the placement
 * (lk_laser_fact_at).
 */
int lk_laser_fact(const struct lk_laser_facts *f, const char *name, const char *arg,
		  double *value);

/*
 * The paper's concepts as named presets: "split-combine", "split-combine-2",
 * "six-benders", "monolithic" (one network spanning every given piece:
 * network == 1 && placed == tray && idle == 0), "monolithic-open" (and no
 * blocker), and "monolithic-tidy", "monolithic-open-tidy" (network == 1
 * among the pieces on the board, meant over tidy solutions).  The
 * expression of a name (any case), or NULL; _at lists them by index (NULL
 * past the end).
 */
const char *lk_laser_concept_preset(const char *name);
const char *lk_laser_concept_preset_at(size_t i, const char **expr, const char **about);

/* Check that every fact a concept names exists: 0, or -1 with a message. */
int lk_laser_concept_check(const struct lk_expr *concept, struct lk_strbuf *err);
/* The concept on one solution's facts (exact).  The facts over powers
 * (made, adds, into) need the placement: with them, this answers false;
 * use lk_laser_concept_holds_at. */
bool lk_laser_concept_holds(const struct lk_expr *concept, const struct lk_laser_facts *f);
/* The concept on a placement, every fact included (it is fired first). */
bool lk_laser_concept_holds_at(const struct lk_laser *lv, const struct lk_laser_placement *pl,
			       const struct lk_expr *concept);
/* The value of any fact, those over powers included, on a placement: 0,
 * or -1 when the name is not a fact. */
int lk_laser_fact_at(const struct lk_laser *lv, const struct lk_laser_placement *pl,
		     const char *name, const char *arg, double *value);

/* ------------------------------------------------------- evaluation */

struct lk_laser_eval {
	bool solved;                   /* every target receives its need */
	bool tidy;                     /* ... and every placed piece fires */
	int targets, targets_ok;
	struct lk_laser_facts facts;
};

/* Fire the placement (least fixpoint) and judge it; msg (may be NULL)
 * gets one line per target: "target B (4,0): 1/2 of 1/2, satisfied". */
void lk_laser_evaluate(const struct lk_laser *lv, const struct lk_laser_placement *pl,
		       struct lk_laser_eval *out, struct lk_strbuf *msg);

/* Draw the level, and with a placement (may be NULL) the placed pieces and
 * every beam with its power. */
void lk_laser_draw(const struct lk_laser *lv, const struct lk_laser_placement *pl,
		   struct lk_strbuf *out);

/* ------------------------------------------------------------- search */

struct lk_laser_search_options {
	bool tidy;                      /* only tidy solutions */
	uint64_t limit;                 /* stop after this many solutions; 0 = all */
	/* Only solutions for which this concept is false (the shortcut
	 * query), or NULL.  Pruned by bounds on the facts, not filtered. */
	const struct lk_expr *violate;
	/* Only solutions for which this concept is true, or NULL. */
	const struct lk_expr *satisfy;
	/* Call the visitor once per solution, not once per group of
	 * solutions that differ only by idle pieces (all mode). */
	bool expand;
	/* The order beams are followed in: by default the beam with the
	 * fewest undecided cells ahead (fast); fixed_order: first sent,
	 * first followed; a seed other than 0 shuffles beams and pieces (the
	 * difficulty measure's random orders). */
	bool fixed_order;
	uint64_t seed;
	/* With a seed: the percentage of cells where leaving the cell empty
	 * is tried before the pieces (the generator's designs: longer beams). */
	unsigned empty_first;
	bool weak;                      /* no look-ahead (finer difficulty) */
	/* No power may be lost: every beam must end in an in-port of a piece
	 * that fires (the generator's designs; targets then take all). */
	bool lossless;
	/* The level's tray is not the one the concept is about (the
	 * generator's design levels, whose tray is every orientation of the
	 * palette): the fact `tray` is unknown. */
	bool tray_open;
	/* Learned constraints of the generator (internal), or NULL. */
	const struct lk_laser_nogoods *nogoods;
	/* search nodes (max_states), seconds, cancellation */
	struct lk_bounds bounds;
	/* Once a solution is found, stop after this many more nodes (0: no
	 * such bound): "more solutions if they come cheap". */
	uint64_t extra_nodes;
};
void lk_laser_search_options_init(struct lk_laser_search_options *o);

/*
 * A solution as the visitor sees it (valid during the call).  In all mode
 * without expand it stands for `multiplicity` solutions: the placement,
 * plus any choice of spare tray pieces (spare[i] of line i + 1) put on any
 * of the free cells (where no beam passes, so such pieces never fire and
 * change nothing but the facts placed, idle and network: each is idle and
 * a network of its own).  With a concept, only the choices that pass it
 * are counted, and the placement is one of them.  facts are the
 * placement's own.  Tidy mode: multiplicity 1, no free cells.
 */
struct lk_laser_solution {
	const struct lk_laser_placement *placement;
	const struct lk_laser_facts *facts;
	int nfree;
	const int *free_cells;          /* cell = y * width + x */
	const int *spare;
	uint64_t multiplicity;          /* saturates at UINT64_MAX */
};

/* Return false to stop the search. */
typedef bool (*lk_laser_visit_fn)(void *ctx, const struct lk_laser_solution *s);

struct lk_laser_result {
	enum lk_status status;          /* solved (some found), unsolvable, unknown */
	enum lk_limit limit;
	uint64_t solutions;             /* counted (multiplicities summed, saturating) */
	bool exhausted;                 /* the search finished: the count is exact */
	bool overflow;                  /* the count saturated */
	uint64_t nodes, nodes_to_first;
	double seconds;
	struct lk_laser_placement first; /* the first solution found */
};

void lk_laser_search(const struct lk_laser *lv, const struct lk_laser_search_options *o,
		     lk_laser_visit_fn visit, void *ctx, struct lk_laser_result *r);

/* ------------------------------------------------------------ shortcut */

/*
 * The shortcut query: a solution (tidy ones only unless all) for which the
 * concept is false, or a proof that there is none (status unsolvable:
 * every solution satisfies the concept, the level *requires* it).  A
 * level without solutions requires nothing: check solvability first.
 */
void lk_laser_shortcut(const struct lk_laser *lv, const struct lk_expr *concept, bool all,
		       uint64_t max_nodes, double timeout, struct lk_laser_result *r);

/* ---------------------------------------------------------- generation */

/*
 * The generator (src/gen/laser_gen.c): a board with sources, then an
 * intended solution designed with the palette's pieces (ports chosen
 * freely) that satisfies the concept and loses no power, its ends made
 * targets; then, when a concept is required, a counter-example guided
 * loop: the shortcut query finds a solution violating the concept, and
 * the level is changed so that this shortcut and every level keeping its
 * cells and pieces is ruled out, until the query proves none is left.
 * docs/games/laser.md explains what is learned and what is proved.
 */
struct lk_laser_gen_options {
	int width, height;               /* board, at most 16 x 16 (10 x 10) */
	int sources;                     /* (1) */
	int npowers;
	int64_t power_num[8], power_den[8];  /* source powers drawn from (1) */
	int pieces[LK_LASER_NTYPES];     /* palette: at most this many of each
					  * type in the intended solution */
	int distractors;                 /* more tray pieces of the palette's types */
	int min_targets, max_targets;    /* (1, 3) */
	int target_sides;                /* targets on up to this many sides, which add
					  * their beams (1: one side each) */
	int min_pieces;                  /* placed in the intended solution (2) */
	int blockers;                    /* random blockers on the board first */
	int max_blockers;                /* blockers the repairs may add; -1: any */
	/* The form of the blockers (the paper's example of a Form constraint,
	 * 5.1): the set of blocker cells is invariant under this symmetry of
	 * the board, the first ones and those the repairs add alike. */
	enum lk_laser_symmetry {
		LK_LASER_SYM_NONE,
		LK_LASER_SYM_LR,                 /* mirrored left to right */
		LK_LASER_SYM_TB,                 /* mirrored top to bottom */
		LK_LASER_SYM_BOTH,               /* both mirrors */
		LK_LASER_SYM_ROT180,             /* a half turn */
		LK_LASER_SYM_ROT90               /* quarter turns (square boards) */
	} symmetry;
	bool all;                        /* shortcuts among all solutions, not tidy ones */
	const char *require;             /* concept (expression or preset), or NULL */
	uint64_t seed;
	uint64_t design_nodes;           /* per design search, each restart (300) */
	unsigned design_restarts;        /* restarts designing on a new board (50) */
	unsigned redesign_restarts;      /* ... and for the board's targets again (10) */
	/* first designs grown from the sources into one network
	 * (laser_grow.c) rather than searched: 1 grow, 0 search (the
	 * default), -1 grow when the design holds 10 pieces or more (the
	 * monolithic presets) */
	int grow;
	bool whole_palette;              /* first designs from the whole palette, not
					  * from sub-palettes drawn per restart */
	uint64_t check_nodes;            /* per shortcut query (1000000) */
	unsigned max_rounds;             /* shortcut queries per board (300) */
	unsigned max_boards;             /* boards tried per level (200) */
	/* per level: seconds (0: none) and cancellation; the nodes are
	 * design_nodes' and check_nodes' */
	struct lk_bounds bounds;
};
void lk_laser_gen_options_init(struct lk_laser_gen_options *o);
/*
 * The paper's concepts as generator presets, on the default 10 x 10 board:
 * the concept and the pieces, sources and targets that suit it.
 *   split-combine     1 source, 2 SP2 2 CMB2 6 BND, 2 distractors
 *   split-combine-2   the same, at least two splitters and two combiners
 *   six-benders       1 source, 8 BND, 2 distractors
 *   monolithic        3 sources and 3 targets, 2 SP2 2 CMB2 6 BND, no
 *                     distractors, shortcuts among all solutions: every
 *                     solution uses every given piece in one network
 *   monolithic-open   the same without blockers (none added either)
 *   monolithic-tidy, monolithic-open-tidy
 *                     one network among the pieces on the board, over tidy
 *                     solutions, 2 distractors
 * 0, or -1 for an unknown name.
 */
int lk_laser_gen_preset(struct lk_laser_gen_options *o, const char *name);
/* Parse a palette "2 SP2, 1 CMB2, 6 BND" into o->pieces; -1 with err. */
int lk_laser_gen_palette(struct lk_laser_gen_options *o, const char *text, struct lk_strbuf *err);
/* Parse a symmetry of the blockers: none, lr, tb, both, rot180, rot90;
 * -1 with err. */
int lk_laser_gen_symmetry(struct lk_laser_gen_options *o, const char *text, struct lk_strbuf *err);
/* The cells a cell goes to under the symmetry on a w x h board, itself
 * first: their number (1, 2 or 4), into orbit. */
int lk_laser_orbit(enum lk_laser_symmetry sym, int w, int h, int cell, int orbit[4]);
/* Parse source powers "1, 1/2" into o; -1 with err. */
int lk_laser_gen_powers(struct lk_laser_gen_options *o, const char *text, struct lk_strbuf *err);

struct lk_laser_gen_stats {
	unsigned boards;                 /* boards with sources drawn */
	unsigned designs;                /* intended solutions designed */
	unsigned rounds;                 /* shortcut queries */
	unsigned cut_blockers, cut_tray; /* shortcuts ruled out by a blocker, by tray pieces */
	unsigned nogoods;                /* shortcuts no change of the level could rule out */
	unsigned boards_proved;          /* boards proved to admit no level requiring the concept */
	uint64_t nodes;                  /* search nodes, all searches */
	uint64_t design_nodes;           /* ... of them designing intended solutions */
	double seconds;
};

enum lk_laser_gen_status {
	LK_LASER_GEN_OK,
	LK_LASER_GEN_INFEASIBLE,         /* proved: no level of these pieces requires the concept */
	LK_LASER_GEN_GAVE_UP             /* bounds hit: unknown */
};

/*
 * Level `index` of the run o->seed (deterministic in both, unless the
 * timeout is what stops it).  On success *level (free it) and *intended.
 * why says what was proved or which bound was hit.
 */
enum lk_laser_gen_status lk_laser_generate(const struct lk_laser_gen_options *o, uint64_t index,
					   struct lk_laser **level,
					   struct lk_laser_placement *intended,
					   struct lk_laser_gen_stats *st, struct lk_strbuf *why);

/*
 * The same on a given board: its sources, its blockers, and its targets if
 * it has any (else they are designed as above); its tray is ignored.
 * LK_LASER_GEN_INFEASIBLE when it is proved that no level on this board
 * (its pieces where they are, any blockers added, any tray within the
 * palette's counts) requires the concept: see docs/games/laser.md for
 * when that proof holds.
 */
enum lk_laser_gen_status lk_laser_generate_on(const struct lk_laser_gen_options *o,
					      const struct lk_laser *board, uint64_t index,
					      struct lk_laser **level,
					      struct lk_laser_placement *intended,
					      struct lk_laser_gen_stats *st, struct lk_strbuf *why);

#endif
