/*
 * transform.h - MixedAim's transformer (De Keyser 2019, 3.4), for any game
 * with a legend: mutate a level with rules (rules.h), keep the solvable
 * mutations, and climb towards harder levels; with suggestions, keep the
 * K hardest distinct ones.
 *
 * The climb, the evaluation (a solve in the state space the options
 * choose, MixedAim's difficulty: the fewest states any of A*, BFS and
 * greedy search explores), the suggestions and their adaptive time limits
 * belong to no game.  A game gives the transformer a struct
 * lk_transform_ops: its legend for the rules (objects, layers, properties),
 * the conversion between a record's grid and the rule engine's cells, the
 * invariants that keep a level valid, random starting rooms and its
 * presets.  Its "transform" generator is then three lines (see
 * sokoban_transform.c), and gen's --suggest finds the ops through the
 * generator (lk_generator.transform).
 */
#ifndef LEVELKIT_GEN_TRANSFORM_H
#define LEVELKIT_GEN_TRANSFORM_H

#include <signal.h>
#include <stdio.h>

#include "levelkit/game.h"
#include "levelkit/generate.h"
#include "levelkit/rules.h"

/* What a game's open hook tells the transformer about a run. */
struct lk_transform_setup {
	const struct lk_legend *legend;  /* owned by the game's state */
	int width, height;               /* random rooms' size (unused with --from) */
};

struct lk_transform_ops {
	/* The game whose levels the cells become. */
	const struct lk_game *game;
	/* Preset names, NULL-terminated, and the one used without --rules. */
	const char *const *presets;
	const char *default_preset;
	/* The game's own --param keys (steps=N is the transformer's),
	 * NULL-terminated, or NULL. */
	const char *const *params;
	/* The game's side of a run: check its options (o->from, --param,
	 * --size), load what it needs, fill setup.  Its state, or NULL with
	 * a message.  Called once per worker, and for --rules presets. */
	void *(*open)(const struct lk_gen_options *o, struct lk_transform_setup *setup,
		      struct lk_strbuf *err);
	void (*close)(void *gs);
	/* The rules text of a preset: 0, or -1 with a message (the game
	 * lacks what the preset needs). */
	int (*preset)(const void *gs, const char *name, struct lk_strbuf *out,
		      struct lk_strbuf *err);
	/* A record's grid as cells (c->cell allocated, c->words set): 0, or
	 * -1 with a message. */
	int (*read)(const void *gs, const struct lk_record *rec, struct lk_cells *c,
		    struct lk_strbuf *err);
	/* A random starting room into c (allocated, zeroed, of the setup's
	 * size and words). */
	void (*random)(const void *gs, struct lk_rng *rng, struct lk_cells *c);
	/* The cells as a level record: its grid and the fields the game
	 * needs to load it.  0, or -1 when the cells are no level of the game
	 * (then nothing is solved: the candidate is invalid). */
	int (*write)(const void *gs, const struct lk_cells *c, struct lk_record *rec);
	/* Optional: after the rules ran (clear scratch marks). */
	void (*settle)(const void *gs, struct lk_cells *c);
	/* Optional: whether the game can hold a cell (see lk_cells.cell_ok). */
	bool (*cell_ok)(void *gs, const uint64_t *cell);
	/* Optional: rewrite the record once its level is loaded (Sokoban
	 * keeps only the walls that touch the floor). */
	void (*tidy)(const void *gs, const struct lk_level *level, struct lk_record *rec);
};

/* A transformer generator's state, new_state and free_state: a game's
 * generator wraps lk_transform_new with its ops. */
void *lk_transform_new(const struct lk_transform_ops *ops, const struct lk_gen_options *o,
		       struct lk_strbuf *err);
void lk_transform_free(void *state);
/* The generator's candidate: the hardest solvable level met on a climb of
 * steps=N mutations (default 30) from --from or a random room. */
int lk_transform_candidate(struct lk_gen_worker *w, const struct lk_gen_options *o,
			   struct lk_rng *rng, struct lk_record *rec, enum lk_reject *why);

/* Whether name is one of the ops' presets. */
bool lk_transform_has_preset(const struct lk_transform_ops *ops, const char *name);
/* The text of preset `name` for these options (a PuzzleScript preset is
 * written over the script's objects): 0, or -1 with a message. */
int lk_transform_preset(const struct lk_transform_ops *ops, const struct lk_gen_options *o,
			const char *name, struct lk_strbuf *out, struct lk_strbuf *err);

/* How suggestions are ranked (gen --by): MixedAim's difficulty, a numeric
 * field of the suggestion, or a fact's count over its solution. */
enum lk_suggest_rank { LK_RANK_DIFFICULTY, LK_RANK_FIELD, LK_RANK_COUNT };

struct lk_suggest_stats;

struct lk_suggest_options {
	unsigned k;                 /* suggestions kept (MixedAim shows 4) */
	uint64_t max_candidates;    /* 0 = until interrupted */
	/* The whole run's bounds, as the command filled them: max_seconds
	 * (--time-limit, 0 = none) and cancel.  Each search's own are the
	 * generation options' (o->rating.search.bounds: -t caps the adaptive
	 * time limit). */
	struct lk_bounds bounds;
	/* Staying the designer's: each candidate is the base level (--from,
	 * or the suggestion picked last) with the rules applied 1 to `within`
	 * times (0: 1), at most max_changes cells from it (< 0: any).  With
	 * climb, MixedAim's old autonomous form instead: every candidate at
	 * least as hard as the current one becomes the new base. */
	unsigned within;
	long max_changes;
	bool climb;
	/* Ranking: by rank (and name, the field or the fact), larger first;
	 * suggestions with the same solution and the same search (A*'s
	 * states) are one puzzle, folded into one with `variants`. */
	enum lk_suggest_rank rank;
	const char *rank_name;
	/* --require: only suggestions whose every solution satisfies it,
	 * proved by the concept query (concept.h); NULL for none. */
	const struct lk_expr *require;
	const char *require_text;
	/* The threshold from which a suggestion is "interesting" (the
	 * thesis's eq. 4.1/4.2), in the rank's terms; NaN: the base level's
	 * own value. */
	double interesting;
	/* Called every `every` seconds whatever happens (live feedback). */
	double every;
	void (*progress)(void *ctx, const struct lk_suggest_stats *st);
	/* Polled between candidates: a rank (1..n) of the current
	 * suggestions to continue from, or 0.  NULL: never. */
	unsigned (*pick)(void *ctx);
};

struct lk_suggest_stats {
	uint64_t candidates, invalid, solvable, unsolvable, timed_out, updates;
	uint64_t solved_start;      /* solved before any move: not a puzzle */
	uint64_t too_far;           /* more than max_changes cells from the base */
	uint64_t folded;            /* the same puzzle as a suggestion shown */
	uint64_t not_proved;        /* --require: the concept query did not prove it */
	uint64_t interesting;       /* solvable, at or above the threshold */
	uint64_t picks;             /* times the base changed to a suggestion */
	double threshold;           /* the interesting threshold in use */
	double solve_seconds;       /* spent solving candidates */
	double first_update;        /* seconds until the first suggestion, or -1 */
	double last_update;         /* seconds when the suggestions last changed, or -1 */
	double seconds;
};

/* The thesis's usefulness of a transformation (eq. 4.1 and 4.2): 1 /
 * ((1 - interesting / candidates) * mean solve time), per second; 0 when
 * nothing was tried.  And the plain rate: interesting levels per minute. */
double lk_suggest_usefulness(const struct lk_suggest_stats *st);
double lk_suggest_interesting_per_minute(const struct lk_suggest_stats *st);

/* Called whenever the suggestions change: the current ones, best first
 * (records with the level and its fields). */
typedef void (*lk_suggest_cb)(void *ctx, struct lk_record *const *top, size_t n,
			      const struct lk_suggest_stats *st);

/*
 * Run the transformer on o->from (or a random room) until a limit or
 * *cancel, calling cb on every change of the K best distinct solvable
 * levels.  Solves get adaptive time limits as in MixedAim: a tenth of the
 * time spent so far until a first solvable level is found, then 8 times
 * the longest solve among the current suggestions.  Returns 0, or -1 with
 * err (bad options).
 */
int lk_transform_suggest(const struct lk_transform_ops *ops, const struct lk_gen_options *o,
			 struct lk_rng *rng, const struct lk_suggest_options *so, lk_suggest_cb cb,
			 void *ctx, struct lk_suggest_stats *st, struct lk_strbuf *err);

#endif
