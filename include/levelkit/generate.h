/*
 * generate.h - level generators (the gen layer, src/gen/generator.c): the
 * generator interface and what every game's generator may use (reject
 * reasons, ranges, --param values, the settings line, a worker's state).
 *
 * A generator makes candidate levels from a random stream; the generation
 * action (lk_generate_index, actions.h) draws candidates from the stream
 * of (seed, index) until one passes the thresholds, so level i of a run
 * depends only on (seed, i): runs are reproducible and can be split into
 * shards.  Each generator is one `const struct lk_generator`, like the
 * games; the registry (registry.h) finds them by game and name.
 */
#ifndef LEVELKIT_GENERATE_H
#define LEVELKIT_GENERATE_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/difficulty.h"
#include "levelkit/record.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"

/* Why a candidate was turned down: X(enum suffix, name). */
#define LK_REJECTS(X)                     \
	X(INVALID, "invalid")             \
	X(UNSOLVABLE, "unsolvable")       \
	X(SOLVED, "already-solved")       \
	X(NOT_UNIQUE, "not-unique")       \
	X(TIMEOUT, "time-bound")          \
	X(STATES, "state-bound")          \
	X(MEMORY, "memory-bound")         \
	X(INTERRUPTED, "interrupted")     \
	X(SHORT, "too-short")             \
	X(LONG, "too-long")               \
	X(EASY, "too-easy")               \
	X(HARD, "too-hard")               \
	X(DEAD_END, "dead-ends")          \
	X(RATING, "too-low-rating")       \
	X(SHORTCUT, "shortcut")           \
	X(UNDECIDED, "undecided")         \
	X(DUPLICATE, "duplicate")

enum lk_reject {
#define LK_X(id, name) LK_REJECT_##id,
	LK_REJECTS(LK_X)
#undef LK_X
	LK_REJECT_COUNT
};
const char *lk_reject_name(enum lk_reject r);
struct lk_gen_options;
/* The name of a reason in a run with these options: a rating threshold's
 * own name for LK_REJECT_RATING (Skiddy's "too-few-stars"). */
const char *lk_gen_reject_name(const struct lk_gen_options *o, enum lk_reject r);
/* The reason for a search that stopped on a bound (time, states, memory,
 * or interrupted). */
enum lk_reject lk_reject_of_limit(enum lk_limit limit);

/* An inclusive range; an unset end is -inf or +inf. */
struct lk_range {
	double min, max;
};
void lk_range_init(struct lk_range *r);
bool lk_range_has(const struct lk_range *r, double v);
bool lk_range_set(const struct lk_range *r);

/* A field of the game's own that its generators' levels can be judged by
 * (Sokoban's optimal pushes, Skiddy's star rating), declared by the
 * generators (lk_generator.fields); gen offers each as options. */
struct lk_gen_field {
	const char *name;        /* the record's field: "pushes", "stars" */
	const char *noun;        /* for help texts: "optimal pushes", "star rating" */
	/* false: a range (--min-NAME/--max-NAME) judged with the solution's
	 * length; true: a rating of at least n (--NAME n, 0 to max), judged on
	 * the whole-graph analysis that writes it */
	bool rating;
	double max;              /* a rating's highest value */
	const char *too_low;     /* a rating's reject reason ("too-few-stars") */
	double default_min;      /* a range's minimum when no length threshold is
				  * given (0: none) */
};

/* A threshold of a run on one of those fields. */
struct lk_gen_threshold {
	const struct lk_gen_field *field;
	struct lk_range range;
};
#define LK_GEN_MAX_THRESHOLDS 8

struct lk_gen_options {
	int width, height;           /* 0: the generator's default */
	const char **param_keys;     /* --param key=value, nparams of them */
	const char **param_values;
	size_t nparams;
	struct lk_range moves, difficulty;
	/* thresholds on the game's own fields (pushes, stars) */
	struct lk_gen_threshold thresholds[LK_GEN_MAX_THRESHOLDS];
	size_t nthresholds;
	bool rate;                   /* also write rate's fields */
	bool no_dead_ends;           /* whole-graph analysis finds no dead end */
	struct lk_rate_options rating; /* bounds for every search, and rating */
	/* The levels are judged in this state space: a metric (moves gives
	 * MixedAim's move-by-move space), a heuristic, plain (no pruning). */
	struct lk_level_options level;
	unsigned max_tries;          /* candidates per index before giving up */
	const struct lk_record *from; /* a level to start from, or NULL */
	const char *rules;           /* transformer rules (text), or NULL */
	const char *rules_name;      /* the rules file, for messages; NULL for a preset */
	const struct lk_record *freeze; /* grid of frozen cells (not ' ' . - _) */
	/* --combine: a second level joined to --from's (beside it, or below
	 * it with combine_below), its player left out; or NULL */
	const struct lk_record *combine;
	bool combine_below;
	/* --require: every solution must satisfy this concept (concept.h),
	 * parsed by lk_expr_parse_concept, and its text; NULL for none. */
	const struct lk_expr *require;
	const char *require_text;
};

void lk_gen_options_init(struct lk_gen_options *o);
/*
 * The run's settings as one canonical line ("size=8x8 p.boxes=3
 * pushes=25: tries=10000 ..."): everything in o that can change which
 * level an index of a generator of game gives, except the memory bound (it
 * varies with the machine and -j, and the state bound is met long before
 * it).  Only what means something to the game: a constraint game (Combination,
 * the laser game) has no search algorithm or direction, and its bound
 * counts search nodes ("nodes=").  gen writes it into every level (field
 * `settings`) and --resume refuses a file made with other settings, so a
 * resumed run equals an uninterrupted one.
 */
void lk_gen_settings(const struct lk_game *game, const struct lk_gen_options *o,
		     struct lk_strbuf *out);

/* The range of the run's threshold on the field, or NULL when it has none. */
const struct lk_range *lk_gen_threshold_of(const struct lk_gen_options *o, const char *field);

/* The value of --param key, or NULL. */
const char *lk_gen_param(const struct lk_gen_options *o, const char *key);
/* An integer --param with a default and bounds; -1 with err on a bad value. */
int lk_gen_param_int(const struct lk_gen_options *o, const char *key, long def, long lo,
		     long hi, long *out, struct lk_strbuf *err);

struct lk_gen_stats {
	uint64_t tried;                          /* candidates made */
	uint64_t rejected[LK_REJECT_COUNT];
	uint64_t accepted;
	uint64_t failed;                         /* indices that gave up */
};
void lk_gen_stats_add(struct lk_gen_stats *into, const struct lk_gen_stats *from);

/* What a worker thread keeps between candidates. */
struct lk_gen_worker {
	struct lk_solver solver;
	void *state;                 /* the generator's own */
};

/* What a generator's levels can be judged by, beyond solvable: the
 * acceptance options that make sense for it.  gen refuses the others
 * (naming the games they apply to) instead of ignoring them or searching
 * for ever.  X(enum suffix, the options it stands for). */
#define LK_GEN_ACCEPTS(X)                                      \
	X(MOVES, "--min-moves/--max-moves")                    \
	X(DIFFICULTY, "--min-difficulty/--max-difficulty/--difficulty/--rate") \
	X(DEAD_ENDS, "--no-dead-ends")                         \
	X(FROM, "--from/--rules/--freeze/--suggest")

enum lk_gen_accept_bit {
#define LK_X(id, opts) LK_GEN_BIT_##id,
	LK_GEN_ACCEPTS(LK_X)
#undef LK_X
	LK_GEN_ACCEPT_COUNT
};
#define LK_GEN_ACCEPT(id) (1u << LK_GEN_BIT_##id)

/* A command-line option a generator offers as short for a --param (the
 * Combination paper's --harder is --param harder=1; PuzzleScript's
 * --script FILE is --param script=FILE).  gen builds its options from
 * every generator's flags, so they live with the game. */
struct lk_gen_flag {
	const char *name;            /* the option, without "--" */
	const char *param;           /* "key=value" it stands for, or "key" with arg */
	const char *help;
	const char *arg;             /* NULL: a flag; else the option takes a value
				      * (its name in --help) that becomes key's */
};

struct lk_transform_ops;

struct lk_generator {
	const char *game;
	const char *name;
	const char *summary;
	const char *params_help;     /* "key=value ..." lines for --help */
	const char *size_help;       /* its default size, for --help */
	/* The moves threshold gen applies when no length threshold is given,
	 * so that a plain run writes levels a designer would keep (0: none);
	 * a field's own is its default_min. */
	double default_min_moves;
	unsigned accepts;            /* LK_GEN_ACCEPT() bits */
	/* The game's own fields its levels can be judged by, ended by a NULL
	 * name; may be NULL. */
	const struct lk_gen_field *fields;
	const struct lk_gen_flag *flags;   /* ended by a NULL name; may be NULL */
	/* Check the options and make a worker's state; NULL with a message
	 * in err when the options are wrong. */
	void *(*new_state)(const struct lk_gen_options *o, struct lk_strbuf *err);
	void (*free_state)(void *state);
	/* Make one candidate from rng into rec (an empty record): its grid and
	 * what it knows (solvable, solution, moves, pushes, optimal).  Return
	 * 0, or -1 with *why (the candidate is then dropped). */
	int (*candidate)(struct lk_gen_worker *w, const struct lk_gen_options *o,
			 struct lk_rng *rng, struct lk_record *rec, enum lk_reject *why);
	/* A transformer generator's game hooks (transform.h), for --rules
	 * presets and --suggest; NULL for other generators. */
	const struct lk_transform_ops *transform;
};

int lk_gen_worker_init(struct lk_gen_worker *w, const struct lk_generator *g,
		       const struct lk_gen_options *o, struct lk_strbuf *err);
void lk_gen_worker_release(struct lk_gen_worker *w, const struct lk_generator *g);

#endif
