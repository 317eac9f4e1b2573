/*
 * game.h - the game interface: one vtable per puzzle type.
 *
 * In the style of Simon Tatham's puzzle collection, each game is a
 * `const struct lk_game` filled with designated initialisers.  A level is
 * validated first (a message and a line, nothing allocated), then
 * constructed.  The solvers see a game only through this table: a state is
 * a fixed-size packed key, the game enumerates a state's successors (with
 * the cost of each edge in the level's metric), tests for a win, and may
 * offer an admissible heuristic.  Nothing here assumes Sokoban: a tilt game
 * whose every piece slides at once, pieces that leave through exits, or a
 * rule interpreter all fit, because only the game looks inside a key.
 */
#ifndef LEVELKIT_GAME_H
#define LEVELKIT_GAME_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "levelkit/record.h"
#include "levelkit/strbuf.h"

struct lk_game;
struct lk_csp_ops;
struct lk_canvas;

/* Choices that shape a level's state space, fixed when it is built. */
struct lk_level_options {
	const char *metric;     /* what a solution's length counts; NULL = default */
	const char *heuristic;  /* NULL = the game's default */
	bool plain;             /* no pruning: the raw state space, as a rule
				 * interpreter such as PuzzleScript sees it */
};

/* Every game's level structure starts with this header. */
struct lk_level {
	const struct lk_game *game;
	size_t key_size;           /* bytes of a packed state */
	unsigned max_successors;   /* bound on successors of one state */
	size_t scratch_size;       /* per-thread scratch for successors/heuristic */
	const char *metric;        /* the metric edge costs are counted in */
	bool has_heuristic;
	bool heuristic_admissible; /* safe for optimal A* */
};

/* One edge from a state to a successor. */
struct lk_edge {
	unsigned cost;   /* in the level's metric, >= 1 */
};

/* Heuristic value of a state from which no goal can be reached. */
#define LK_H_DEAD UINT_MAX

/* Kinds of win, for games that tell them apart (game->win_kind). */
#define LK_WIN_PLAIN 1u
#define LK_WIN_COMBO 2u

/* Lengths of a solution under the measures a game knows. */
struct lk_solution_stats {
	unsigned long moves;   /* player inputs */
	unsigned long pushes;  /* Sokoban-like games; 0 elsewhere */
	bool has_pushes;
};

struct lk_game {
	const char *name;
	const char *summary;
	const char *const *metrics;     /* NULL-terminated, default first */
	const char *const *heuristics;  /* NULL-terminated, default first, or NULL */

	/* Check that rec holds a valid level for these options.  Returns 0,
	 * or -1 with a lower-case message in err and *line set to the index
	 * (into rec->lines) of the offending line, or (size_t)-1 when the
	 * fault belongs to the record as a whole.  Allocates nothing lasting. */
	int (*validate)(const struct lk_record *rec, const struct lk_level_options *opt,
			struct lk_strbuf *err, size_t *line);
	/* Build a validated level. */
	struct lk_level *(*new_level)(const struct lk_record *rec,
				      const struct lk_level_options *opt);
	void (*free_level)(struct lk_level *level);

	/* The state space. */
	void (*initial_state)(const struct lk_level *level, void *key);
	/* Write the successors of key, key_size bytes each, to keys_out and
	 * their edges to edges; return how many (<= max_successors).  Moves
	 * into states the game proves dead (deadlocks) may be left out. */
	unsigned (*successors)(const struct lk_level *level, const void *key, void *scratch,
			       unsigned char *keys_out, struct lk_edge *edges);
	bool (*is_goal)(const struct lk_level *level, const void *key);
	/* Lower bound (admissible when level->heuristic_admissible) on the
	 * cost to a goal, or LK_H_DEAD.  NULL when the game has none. */
	unsigned (*heuristic)(const struct lk_level *level, const void *key, void *scratch);
	/* Optional: greedy search's guess of the cost to a goal, which need
	 * not be a lower bound (it may weigh what a bound cannot, such as the
	 * order goals must be filled in), or LK_H_DEAD.  NULL: the heuristic. */
	unsigned (*estimate)(const struct lk_level *level, const void *key, void *scratch);

	/* Turn a path of states (start first, nkeys of them) into the
	 * game's move notation, and measure it. */
	void (*format_solution)(const struct lk_level *level, const unsigned char *keys,
				size_t nkeys, struct lk_strbuf *out,
				struct lk_solution_stats *stats);
	/* Replay a solution from the start.  Returns 0 if every move is legal
	 * (then *solved says whether it ends in a win) or -1 with a message. */
	int (*replay)(const struct lk_level *level, const char *solution,
		      struct lk_solution_stats *stats, bool *solved, struct lk_strbuf *err);
	/* Optional: the kind of a goal state (LK_WIN_COMBO for Skiddy's
	 * max-combo wins, else LK_WIN_PLAIN); NULL means every win is plain. */
	unsigned (*win_kind)(const struct lk_level *level, const void *key);
	/* Whether rate should analyse the whole state graph by default
	 * (dead ends, number of solutions): small tilt and slide games. */
	bool whole_graph;
	/* Optional: the reversed level, whose edges are this level's edges
	 * turned round, or NULL when the level has no single solved state.
	 * Its keys are this level's keys; its start may be a virtual key
	 * standing for "any goal state".  A path of the reversed level read
	 * from its end is a path of this level (ending at that virtual key)
	 * and format_solution accepts it. */
	struct lk_level *(*reverse_level)(const struct lk_level *level);
	/* Draw a state as grid rows (for generators and debugging). */
	void (*write_state)(const struct lk_level *level, const void *key,
			    struct lk_strbuf *out);
	/* Optional: the level's canonical text, equal for two levels exactly
	 * when they are the same puzzle up to the eight board symmetries,
	 * translation and whatever else the game deems irrelevant (grid
	 * rows, each ending in '\n').  Games without one are compared by
	 * their grid text up to symmetry and translation. */
	void (*canonical)(const struct lk_level *level, struct lk_strbuf *out);
	/* Constraint games (csp.h) are solved by their own search; the
	 * state-space members above are then NULL. */
	const struct lk_csp_ops *csp;
	/* Draw the level on a canvas (canvas.h), in the record's grid cells:
	 * a state-space game draws the state key (NULL: the start); a
	 * constraint game draws its level with placement, a solution text,
	 * filled in (NULL: empty).  With a legend entry for every symbol. */
	void (*draw)(const struct lk_level *level, const void *key, const char *placement,
		     struct lk_canvas *c);
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

/* All games, NULL-terminated. */
extern const struct lk_game *const lk_games[];
const struct lk_game *lk_game_find(const char *name);
/* The games' names from the registry, for messages and help: "sokoban,
 * fruit, skiddy and combination" with last_sep " and " (or " or "). */
void lk_game_names(struct lk_strbuf *out, const char *last_sep);

/*
 * Find the record's game, validate and build its level.  Returns the level,
 * or NULL with a message in err and *lineno set to the source line of the
 * fault (the record's first line when the fault has no line of its own).
 */
struct lk_level *lk_level_load(const struct lk_record *rec,
			       const struct lk_level_options *opt,
			       struct lk_strbuf *err, size_t *lineno);
void lk_level_free(struct lk_level *level);

/* The canonical text of a level (see lk_game.canonical). */
void lk_level_canonical(const struct lk_level *level, const struct lk_record *rec,
			struct lk_strbuf *out);

/* Whether name is in a NULL-terminated list (for option checks). */
bool lk_name_in(const char *name, const char *const *list);

#endif
