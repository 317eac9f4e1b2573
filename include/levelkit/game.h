/*
 * game.h - the game interface: one vtable per puzzle type.
 *
 * In the style of Simon Tatham's puzzle collection, each game is a
 * `const struct lk_game` filled with designated initialisers, in its own
 * folder src/games/NAME (its rules, level format, generators, fields,
 * rating rules and drawing), and registered by one line in
 * src/games/registry.c.  A level is validated first (a message and a line,
 * nothing allocated), then constructed.
 *
 * A game offers one or both of two kinds of play:
 *  - a state space (initial_state, successors, is_goal): the state-space
 *    solvers, the difficulty measures and the whole-graph analysis apply;
 *    a state is a fixed-size packed key, and only the game looks inside;
 *  - a constraint model (csp, csp.h): a placement to find, solved by the
 *    game's own search.
 * The actions (actions.h: solve, rate, verify, analyse, generate) pick
 * their path from what the game offers; the commands never ask which.
 *
 * Moves are labelled by the game: a solution is the concatenation of its
 * moves' labels in the game's notation, each move counts some player
 * inputs and may carry facts the game names ("push" for Sokoban), which
 * the fields (`moves`, `pushes`) and the concept queries count.
 */
#ifndef LEVELKIT_GAME_H
#define LEVELKIT_GAME_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/expr.h"
#include "levelkit/record.h"
#include "levelkit/strbuf.h"

struct lk_game;
struct lk_csp_ops;
struct lk_generator;
struct lk_analysis;
struct lk_canvas;
struct lk_search_options;
struct lk_search_result;

/* Outcomes of any search, named as the "solvable" field writes them. */
enum lk_status { LK_SOLVED, LK_UNSOLVABLE, LK_UNKNOWN };
const char *lk_status_name(enum lk_status status);   /* yes / no / unknown */

/* Which bound made a search give up. */
enum lk_limit { LK_LIMIT_NONE, LK_LIMIT_STATES, LK_LIMIT_MEMORY, LK_LIMIT_TIME,
		LK_LIMIT_INTERRUPTED };
const char *lk_limit_name(enum lk_limit limit);

/* Choices that shape a level's state space, fixed when it is built. */
struct lk_level_options {
	const char *metric;     /* what a solution's length counts; NULL = default */
	const char *heuristic;  /* NULL = the game's default */
	bool plain;             /* no pruning: the raw state space, as a rule
				 * interpreter such as PuzzleScript sees it */
	/* a game that draws random numbers (PuzzleScript's random rules)
	 * draws them from this seed, unless the record names its own (its
	 * `seed` field): solve's --seed */
	uint64_t seed;
	/* what a game that draws random numbers is asked (PuzzleScript):
	 * NULL or "seed", for that seed; "some", for some roll of the dice;
	 * "every", whatever the dice say (solve's --rolls) */
	const char *rolls;
	/* The game's techniques (lk_game.techniques) to turn off, by name,
	 * NULL-terminated; NULL: none.  Names a game does not have are
	 * ignored (a stream may mix games). */
	const char *const *off;
	/* The game's techniques that are off by default (LK_TECH_OFF) to
	 * turn on, by name, NULL-terminated; NULL: none.  `off` wins. */
	const char *const *on;
	/* The thesis measure (De Keyser 2019, 3.3; rate --measure thesis):
	 * moves, no pruning, the thesis's heuristic as written, and moves
	 * tried clockwise from up (up, right, down, left, then action), so
	 * that a Sokoban level searched as Sokoban and as PuzzleScript is
	 * the same search.  Overrides metric, heuristic and
	 * plain; every game that searches gives the thesis's heuristic of its
	 * win ("no Fruit", "no Skiddy", "no LightOn"). */
	bool thesis;
};

/*
 * A pruning or search technique of a game, each with its own switch
 * (lk_level_options.off) and its own counter (lk_game.technique_counts),
 * in the manner of Rolling Stone, so that each claim ("never loses an
 * optimal solution") can be tested on its own.
 */
struct lk_technique {
	const char *name;       /* the switch: "freeze" */
	const char *counter;    /* the --stats field counting what it did */
	const char *help;       /* one line: what it does */
	unsigned flags;         /* LK_TECH_* */
};
/* Never loses an optimal solution (so the optimal searches use it). */
#define LK_TECH_OPTIMAL 1u
/* Used only by searches for any solution (-a any). */
#define LK_TECH_ANY 2u
/* Off unless asked for by name (lk_level_options.on, --with): built and
 * tested, but measured without a gain, so not used by default. */
#define LK_TECH_OFF 4u
/* Techniques of one game at most. */
#define LK_MAX_TECHNIQUES 64

/* Every game's level structure starts with this header. */
struct lk_level {
	const struct lk_game *game;
	const void *def;           /* the shared definition (game->load_def), or NULL */
	size_t key_size;           /* bytes of a packed state */
	unsigned max_successors;   /* bound on successors of one state */
	size_t scratch_size;       /* per-thread scratch for successors/heuristic */
	const char *metric;        /* the metric edge costs are counted in */
	bool has_heuristic;
	bool heuristic_admissible; /* safe for optimal A* */
	/* optional: what the game's analysis concluded about the heuristic,
	 * in a phrase (solve --stats writes it as `heuristic`) */
	const char *heuristic_note;
	/* a level whose game draws random numbers: the seed it draws them
	 * from, which every answer holds for (written as the `seed` field);
	 * NULL for a deterministic game */
	const char *random_seed;
	/* Edges may cost more than 1 (a PuzzleScript game's COST metric):
	 * breadth-first search then finds fewest moves, not least cost, so
	 * only uniform-cost search and A* are optimal in the metric. */
	bool weighted;
	/* The facts a move of this level can carry, by name ("push"; a
	 * PuzzleScript level might name "rule 7"), fact i being facts[i]. */
	const char *const *facts;
	unsigned nfacts;
};

/* One edge from a state to a successor. */
struct lk_edge {
	unsigned cost;   /* in the level's metric, >= 1 (0 only in the
			  * products concept queries search, under UCS) */
	uint32_t move;   /* the game's code for the move (for move_facts) */
};

/* Heuristic value of a state from which no goal can be reached. */
#define LK_H_DEAD UINT_MAX

/* Win kinds: a game may tell goal states apart (game->win_kind returns an
 * index below game->win_kinds); the analysis then keeps the shortest
 * solution of every kind.  Skiddy: 0 a win that broke a max-combo, 1 a
 * max-combo win. */
#define LK_MAX_WIN_KINDS 4

/*
 * A solution, labelled move by move: the text in the game's notation, the
 * player inputs it takes and how many moves carry each fact.  Games fill
 * it with lk_moves_add; the fields are written from it (moves, and each
 * of the game's count_fields).
 */
struct lk_moves {
	struct lk_strbuf text;
	unsigned long inputs;      /* the `moves` field */
	unsigned long nmoves;      /* moves (edges) added */
	uint64_t *fact_counts;     /* per fact of the level */
	unsigned nfacts;
	const char *const *facts;  /* the level's fact names */
};

void lk_moves_init(struct lk_moves *m, const struct lk_level *level);
void lk_moves_release(struct lk_moves *m);
void lk_moves_reset(struct lk_moves *m);
/* One move: its label (len bytes of the game's notation), the player
 * inputs it takes, and the facts it carries (indices into level->facts). */
void lk_moves_add(struct lk_moves *m, const char *label, size_t len, unsigned long inputs,
		  const uint16_t *facts, unsigned nfacts);
/* How many moves carry the fact named `fact` (0 if the level has none). */
uint64_t lk_moves_count(const struct lk_moves *m, const char *fact);
/* Whether the level's moves can carry the fact. */
bool lk_level_has_fact(const struct lk_level *level, const char *fact);

/* A field the game counts in a solution: `name` is the number of moves
 * carrying `fact` (Sokoban: pushes = moves with the fact "push"). */
struct lk_count_field {
	const char *name;
	const char *fact;
};

/* What rate writes from the whole-graph analysis beyond the generic
 * fields, and the field gen's --min-moves/--max-moves read: games with
 * win kinds (Skiddy's stars) say so here. */
struct lk_graph_rules {
	/* Write the game's own fields of a complete analysis. */
	void (*write_fields)(const struct lk_level *level, const struct lk_analysis *a,
			     struct lk_record *rec);
	const char *const *fields;   /* the names write_fields may write */
};

/* The dihedral symmetries of a board a game's rules are invariant under
 * (bit s for lk_grid_transform's symmetry s, 0 = identity). */
#define LK_SYMMETRIES_ALL 0xffu
#define LK_SYMMETRIES_NONE 0x01u

struct lk_game {
	const char *name;
	const char *summary;
	const char *const *metrics;     /* NULL-terminated, default first */
	const char *const *heuristics;  /* NULL-terminated, default first, or NULL */
	const void *data;               /* the game's own constants (shared code
					 * of a game family reads them) */

	/* ---- definitions shared by many levels (optional) ---- */
	/* A game defined at run time (a PuzzleScript script) compiles its
	 * definition once, for every level record that names it.  def_key
	 * writes the key the record's definition is cached under (e.g. the
	 * script's path and content hash) and returns 0, or -1 with a
	 * message and line; load_def builds it.  NULL: no definitions. */
	int (*def_key)(const struct lk_game *game, const struct lk_record *rec,
		       struct lk_strbuf *key, struct lk_strbuf *err, size_t *line);
	void *(*load_def)(const struct lk_game *game, const struct lk_record *rec,
			  const char *key, struct lk_strbuf *err, size_t *line);
	void (*free_def)(void *def);
	/* optional: what a user should know about a definition once, not
	 * once per level (a PuzzleScript game's random rules: what its
	 * answers mean); NULL for nothing.  Given as a notice (lk_notice)
	 * about the first record that uses the definition. */
	const char *(*def_note)(const void *def);

	/* Check that rec holds a valid level for these options.  Returns 0,
	 * or -1 with a lower-case message in err and *line set to the index
	 * (into rec->lines) of the offending line, or (size_t)-1 when the
	 * fault belongs to the record as a whole.  Allocates nothing lasting.
	 * def is the record's definition (or NULL). */
	int (*validate)(const struct lk_game *game, const void *def, const struct lk_record *rec,
			const struct lk_level_options *opt, struct lk_strbuf *err, size_t *line);
	/* Build a validated level. */
	struct lk_level *(*new_level)(const struct lk_game *game, const void *def,
				      const struct lk_record *rec,
				      const struct lk_level_options *opt);
	void (*free_level)(struct lk_level *level);
	/* optional: a level that asks what the state-space solvers cannot
	 * answer (PuzzleScript's --rolls some or every, over every outcome of
	 * the dice) answers it here within opt's bounds and writes the fields
	 * (solvable, moves, ...) itself; returns 1 then, 0 when the generic
	 * solve applies to this level. */
	int (*own_solve)(const struct lk_level *level, const struct lk_search_options *opt,
			 struct lk_record *rec);

	/* ---- the state space (NULL for constraint games) ---- */
	void (*initial_state)(const struct lk_level *level, void *key);
	/* Write the successors of key, key_size bytes each, to keys_out and
	 * their edges to edges; return how many (<= max_successors).  Moves
	 * into states the game proves dead (deadlocks) may be left out. */
	unsigned (*successors)(const struct lk_level *level, const void *key, void *scratch,
			       unsigned char *keys_out, struct lk_edge *edges);
	/* Optional: the same with no pruning that leaves out a move into a
	 * live state (Sokoban's PI-corrals keep only one corral's pushes) and
	 * no macro steps (a push through a tunnel one square at a time).  A
	 * path found backwards need not follow the forward pruning, so the
	 * rating's walk along a solution looks there for a step successors
	 * leaves out.  NULL: successors leaves out only dead moves. */
	unsigned (*whole_successors)(const struct lk_level *level, const void *key, void *scratch,
				     unsigned char *keys_out, struct lk_edge *edges);
	bool (*is_goal)(const struct lk_level *level, const void *key);
	/* Lower bound (admissible when level->heuristic_admissible) on the
	 * cost to a goal, or LK_H_DEAD.  NULL when the game has none. */
	unsigned (*heuristic)(const struct lk_level *level, const void *key, void *scratch);
	/* Optional: the fact whose moves the heuristic also bounds from below
	 * (Sokoban: "push", its matching counts pushes), so that a concept
	 * query whose cost is that fact's count searches with A*. */
	const char *heuristic_fact;
	/* Optional: greedy search's guess of the cost to a goal, which need
	 * not be a lower bound (it may weigh what a bound cannot, such as the
	 * order goals must be filled in), or LK_H_DEAD.  NULL: the heuristic. */
	unsigned (*estimate)(const struct lk_level *level, const void *key, void *scratch);
	/* Optional: the game's own search for any solution, however long
	 * (-a any; search.h), filling r as lk_solver_run does (its solution
	 * a path of this level's keys, r->optimal false).  NULL: greedy
	 * best-first search in both directions stands in. */
	void (*solve_any)(const struct lk_level *level, const struct lk_search_options *opt,
			  struct lk_search_result *r);
	/* Optional: the game's techniques (NULL-terminated by name), and
	 * their counters: technique_counts adds what each did in the searches
	 * that used the scratch block (zeroed before each search) to counts[i]
	 * for technique i. */
	const struct lk_technique *techniques;
	void (*technique_counts)(const struct lk_level *level, const void *scratch,
				 uint64_t *counts);
	/* Optional: the facts of the move `move` (an edge's code) out of key,
	 * into facts (at most max of them); returns how many. */
	unsigned (*move_facts)(const struct lk_level *level, const void *key, uint32_t move,
			       uint16_t *facts, unsigned max);

	/* Label a path of states (start first, nkeys of them): one
	 * lk_moves_add per move. */
	void (*label_path)(const struct lk_level *level, const unsigned char *keys, size_t nkeys,
			   struct lk_moves *out);
	/* Optional: label the one move `move` (an edge's code) out of key:
	 * one lk_moves_add.  Two moves from one state into the same state
	 * (Skiddy's last skiddy leaving through either of two exits) then get
	 * their own labels, where label_path can give only the first.  NULL:
	 * label_path of the two states. */
	void (*label_move)(const struct lk_level *level, const void *key, uint32_t move,
			   struct lk_moves *out);
	/* Replay a solution text from the start, adding its moves to out.
	 * Returns 0 if every move is legal (then *solved says whether it ends
	 * in a win) or -1 with a message; moves after the level is solved are
	 * an error. */
	int (*replay)(const struct lk_level *level, const char *solution, struct lk_moves *out,
		      bool *solved, struct lk_strbuf *err);
	/* Optional: the kind of a goal state, below win_kinds. */
	unsigned (*win_kind)(const struct lk_level *level, const void *key);
	unsigned win_kinds;
	/* Optional: the win kinds' names (win_kinds of them), which concepts
	 * read as conditions on a solution's last state (Skiddy: "combo"). */
	const char *const *win_kind_names;
	/* Optional: facts a state cannot tell but its history can (which of
	 * Sokoban's boxes a push moves).  A concept query keeps track_size
	 * bytes beside each state: track_start writes the start's, and
	 * track_move updates them for the move `move` out of key and writes
	 * the tracked facts it carries (indices into level->facts, at most
	 * max), returning how many. */
	size_t (*track_size)(const struct lk_level *level);
	void (*track_start)(const struct lk_level *level, void *track);
	unsigned (*track_move)(const struct lk_level *level, const void *key, uint32_t move,
			       void *track, uint16_t *facts, unsigned max);
	/* Whether rate should analyse the whole state graph by default
	 * (dead ends, number of solutions): small tilt and slide games. */
	bool whole_graph;
	/* Optional: the game's own fields of the whole-graph analysis. */
	const struct lk_graph_rules *graph_rules;
	/* Optional: what the rating (rating.h) reads of the level itself:
	 * the cells of the board a player takes in (Sokoban: its floor) and
	 * the pieces that move (Sokoban: its boxes); 0 for one it cannot
	 * tell.  Constraint games too (cells to fill, pieces to place). */
	void (*rating_counts)(const struct lk_level *level, unsigned *cells, unsigned *objects);
	/* Optional: the sides of those cells that face no cell of them (a
	 * wall, or the board's edge), for the rating's `narrow`: 4 for a lone
	 * square, 2 along a corridor, 0 inside an open room.  NULL for a game
	 * whose board has no walls. */
	unsigned (*rating_wall_sides)(const struct lk_level *level);
	/* Optional: fields that describe the level itself, whatever its
	 * solution (Fruit Dating: its obstacles and their density, which the
	 * article throws levels "full of obstacles" away by), written with
	 * the solving fields; level_field_names lists them. */
	void (*level_fields)(const struct lk_level *level, struct lk_record *rec);
	const char *const *level_field_names;
	/* The fields counting facts of a solution (NULL-terminated list, or
	 * NULL): "pushes" for Sokoban. */
	const struct lk_count_field *count_fields;
	/* The field gen's --min-moves/--max-moves judge by (NULL: "moves"):
	 * Skiddy's perfect solution, "combo-moves". */
	const char *moves_field;
	/* Optional: the reversed level, whose edges are this level's edges
	 * turned round, or NULL when the level has no single solved state.
	 * Its keys are this level's keys; its start may be a virtual key
	 * standing for "any goal state".  A path of the reversed level read
	 * from its end is a path of this level (ending at that virtual key)
	 * and label_path accepts it. */
	struct lk_level *(*reverse_level)(const struct lk_level *level);
	/* Draw a state as grid rows (for generators and debugging). */
	void (*write_state)(const struct lk_level *level, const void *key,
			    struct lk_strbuf *out);

	/* ---- sameness ---- */
	/* The board symmetries the rules are invariant under (bits of
	 * LK_SYMMETRIES_ALL); dedupe counts two levels the same only up to
	 * these.  A game whose rules have absolute directions declares
	 * LK_SYMMETRIES_NONE. */
	unsigned symmetries;
	/* Optional: the level's canonical text, equal for two levels exactly
	 * when they are the same puzzle up to the game's symmetries,
	 * translation and whatever else the game deems irrelevant (grid
	 * rows, each ending in '\n').  Games without one are compared by
	 * their grid text up to their symmetries and translation. */
	void (*canonical)(const struct lk_level *level, struct lk_strbuf *out);

	/* ---- files of the game's own format (optional) ---- */
	/* Whether the start of a file (up to 64 KiB) is one of the game's own
	 * files, such as a PuzzleScript script; the commands then read it as
	 * the records import makes of it. */
	bool (*import_probe)(const char *data, size_t len);
	/* The whole file as records (their lines carry the file's line
	 * numbers): 0 with *recs (malloc'd, *nrecs of them), or -1 with a
	 * message and its line. */
	int (*import)(const char *path, const char *data, size_t len, struct lk_record **recs,
		      size_t *nrecs, struct lk_strbuf *err, size_t *line);
	/* Optional: once an action (solve, rate, ...) has loaded the level
	 * of a record it writes, bring the record's pointer to a file of
	 * the game's up to date (PuzzleScript: the script's absolute path as
	 * found, for a record that named it by a relative one), so that the
	 * record written stays usable from any directory. */
	void (*update_record)(const struct lk_level *level, struct lk_record *rec);

	/* ---- constraint games (csp.h); the state-space members are then NULL ---- */
	const struct lk_csp_ops *csp;

	/* ---- generation ---- */
	/* The game's generators (generate.h), NULL-terminated, its default
	 * first; NULL if it has none. */
	const struct lk_generator *const *generators;

	/* ---- drawing ---- */
	/* Draw the level on a canvas (canvas.h), in the record's grid cells:
	 * a state-space game draws the state key (NULL: the start); a
	 * constraint game draws its level with placement, a solution text,
	 * filled in (NULL: empty).  With a legend entry for every symbol. */
	void (*draw)(const struct lk_level *level, const void *key, const char *placement,
		     struct lk_canvas *c);
	/* Optional: a text drawing of the level with a solution text filled
	 * in (lines, each ending in '\n'), which the coloured text view shows
	 * under the record as comment lines: what a picture says that the
	 * record's grid cannot (the laser game: where each piece went, every
	 * beam with its power, each target's verdict). */
	void (*describe)(const struct lk_level *level, const char *solution, struct lk_strbuf *out);
	/* Optional: the states a solution passes through, one key per move
	 * (start first, *nkeys = moves + 1), for playing it back.  0, or -1
	 * with a message exactly when replay fails; the last key is a goal
	 * exactly when replay says solved.  Keys are those of the finest
	 * metric (Sokoban: the player exactly where it stands, as under
	 * "moves", whatever the level's metric).  *keys is the caller's to
	 * free. */
	int (*replay_keys)(const struct lk_level *level, const char *solution, unsigned char **keys,
			   size_t *nkeys, struct lk_strbuf *err);
};

/*
 * Concept queries (concept.h; Refraction's "quantifying over play"): a
 * concept is a condition over the facts of one solution; the question is
 * whether every solution satisfies it (LK_FORALL) or some does
 * (LK_EXISTS).  State-space games are answered by the search layer's
 * product search, constraint games by their csp member `concept`; both
 * fill this result.
 */
enum lk_quantifier { LK_FORALL, LK_EXISTS };

struct lk_concept_result {
	/* LK_TRUE or LK_FALSE, or LK_MAYBE when a bound was hit (limit) or
	 * the concept could not be decided (why). */
	enum lk_truth answer;
	enum lk_limit limit;
	const char *why;          /* static text, for LK_MAYBE without a limit */
	/* Whether the level has a solution at all (a forall over no solution
	 * is true): LK_UNKNOWN when it could not be told. */
	enum lk_status solvable;
	/* The witness: for LK_FORALL a shortcut, for LK_EXISTS a solution
	 * satisfying the concept; moves.nmoves == 0 and !has_witness if none. */
	bool has_witness;
	struct lk_moves witness;
	/* The counts the concept reads, of the witness, as
	 * "count(push) == 3, length == 12" (">=" for counts beyond what the
	 * concept tells apart). */
	struct lk_strbuf witness_facts;
	/* Static text: the solutions the answer is about when the game tells
	 * kinds apart (the laser game: "all", or "tidy" under --tidy), written
	 * as requires-over or exists-over; NULL for plain solutions. */
	const char *over;
	uint64_t stored, expanded;
	double seconds;
};

void lk_concept_result_init(struct lk_concept_result *r);
void lk_concept_result_release(struct lk_concept_result *r);

/*
 * Find or load the record's shared definition, validate and build its
 * level as a level of game (the registry's lk_level_load finds the game by
 * the record's `game` field).  Returns the level, or NULL with a message
 * in err and *lineno set to the source line of the fault (the record's
 * first line when the fault has no line of its own).  Thread-safe:
 * definitions are cached for the life of the process, one per key.
 */
struct lk_level *lk_game_load_level(const struct lk_game *game, const struct lk_record *rec,
				    const struct lk_level_options *opt, struct lk_strbuf *err,
				    size_t *lineno);
void lk_level_free(struct lk_level *level);
/* Put a definition into the cache under key (a game's import compiles a
 * script once and hands its levels over with it); if one is there, def
 * is freed instead. */
void lk_game_def_add(const struct lk_game *game, const char *key, void *def);
/* Free every cached definition (at exit; tests). */
void lk_game_defs_release(void);


/*
 * Notices: what a user should know while loading a level that is not an
 * error, said once by the game (a PuzzleScript script edited since its
 * levels were read: they are played by it as it is now).  The handler
 * gets the record's file (NULL: stdin) and source line; the commands
 * print `prog: file:line: message` on standard error.  Without a handler
 * notices are dropped.  lk_notice may be called from any thread.
 */
typedef void lk_notice_fn(const char *file, size_t line, const char *message);
void lk_set_notice_handler(lk_notice_fn *fn);
/* A notice about rec, at its line index (rec->lines; (size_t)-1: its
 * first line). */
void lk_notice(const struct lk_record *rec, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The canonical text of a level (see lk_game.canonical). */
void lk_level_canonical(const struct lk_level *level, const struct lk_record *rec,
			struct lk_strbuf *out);

/* A path's labels: moves->text, inputs and fact counts. */
void lk_level_label(const struct lk_level *level, const unsigned char *keys, size_t nkeys,
		    struct lk_moves *moves);

/* Whether name is in a NULL-terminated list (for option checks). */
bool lk_name_in(const char *name, const char *const *list);

#endif
