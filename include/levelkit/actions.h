/*
 * actions.h - one library call per action on a level record: solve, verify,
 * rate, analyse, and generate (lk_generate_index).  Each loads
 * the record's level, picks its path from what the game offers (state-space
 * search, constraint search, whole-graph analysis) and writes the record's
 * fields; the commands only choose the options and the records.
 */
#ifndef LEVELKIT_ACTIONS_H
#define LEVELKIT_ACTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/concept.h"
#include "levelkit/csp.h"
#include "levelkit/difficulty.h"
#include "levelkit/generate.h"
#include "levelkit/record.h"
#include "levelkit/search.h"
#include "levelkit/strbuf.h"

struct lk_act_options {
	struct lk_level_options level;   /* metric, heuristic, plain */
	/* solve: the algorithm, direction, bounds, cancel flag and seed of
	 * the search; rate: the bounds of each of its searches */
	struct lk_search_options search;
	/* constraint games: count limit, propagation, bounds, seed */
	struct lk_csp_options csp;
	/* rate: the MixedAim and multiple-method measures */
	struct lk_rate_options rate;
	bool graph;       /* rate: the whole-graph analysis for any game */
	bool no_graph;    /* rate: not even for games that want it by default */
	unsigned list_solutions;   /* the analysis lists up to this many shortest solutions */
	bool stats;       /* also write the search statistics fields */
	/* solve: no search for any solution where the optimal one gives up */
	bool no_fallback;
	bool explain;     /* rate: write what contributed to the rating */
	bool features;    /* rate: write the rating's features (f-NAME), the graph's too */
};

/* Defaults: as LK_SEARCH_OPTIONS_INIT, lk_csp_options_init and
 * lk_rate_options_init. */
void lk_act_options_init(struct lk_act_options *o);

/*
 * Each action returns 0 when the record was processed (whatever the
 * answer: unsolvable, unknown) and its fields written, or -1 with a
 * message in err and the source line in *line when the record cannot be
 * (it is not a valid level, it has no solution to verify).  The solver is
 * the caller's, reused across records (one per thread).
 */
int lk_act_solve(struct lk_solver *solver, struct lk_record *rec,
		 const struct lk_act_options *o, struct lk_strbuf *err, size_t *line);
/* Replay the record's `solution`: verified, verify-error, moves and the
 * game's count fields.  *verified says whether it solves the level. */
int lk_act_verify(struct lk_record *rec, const struct lk_act_options *o, bool *verified,
		  struct lk_strbuf *err, size_t *line);
int lk_act_rate(struct lk_solver *solver, struct lk_record *rec,
		const struct lk_act_options *o, struct lk_strbuf *err, size_t *line);
/* For a command that passes records on without an action (filter): the
 * record's pointers to its game's files as an action writes them (game.h
 * update_record: a PuzzleScript record's script by the absolute path
 * where it was found), so that what filter writes elsewhere stays as
 * usable as what solve writes.  A record whose level does not load is
 * left as it is, without a word: nothing was asked of its level. */
void lk_act_update_record(struct lk_record *rec);
/* The whole-graph analysis alone: reachable, dead-ends, solutions and the
 * game's own graph fields. */
int lk_act_analyse(struct lk_record *rec, const struct lk_act_options *o,
		   struct lk_strbuf *err, size_t *line);

/*
 * A concept query (concept.h): does every solution satisfy the concept
 * (LK_FORALL: requires, shortcut), or does some (LK_EXISTS: exists,
 * example)?  State-space games are searched over their finest graph
 * whatever o->level says; constraint games answer through their csp
 * members.  *answer is the answer (LK_MAYBE when a bound was hit).
 */
struct lk_act_concept {
	const struct lk_expr *concept;   /* lk_expr_parse_concept */
	const char *text;                /* as the user wrote it, for the record */
	enum lk_quantifier quantifier;
};
int lk_act_concept(struct lk_solver *solver, struct lk_record *rec,
		   const struct lk_act_options *o, const struct lk_act_concept *c,
		   enum lk_truth *answer, struct lk_strbuf *err, size_t *line);

/*
 * The fields an action writes into a record of `game` under the options
 * o, for one outcome or another (solved, unsolvable, undecided), in the
 * order the commands give their tsv columns; with game NULL, those it
 * writes for any game.  NULL-terminated: free() the array, not the names.
 */
enum lk_act_kind { LK_ACT_SOLVE, LK_ACT_VERIFY, LK_ACT_RATE, LK_ACT_REQUIRES, LK_ACT_EXISTS };
const char **lk_act_fields(const struct lk_game *game, enum lk_act_kind kind,
			   const struct lk_act_options *o);

/*
 * Open an input for reading records: a file, or "-" (or NULL) for stdin.
 * A file in a game's own format (a PuzzleScript script: game->import)
 * reads as the records the game makes of it.  Returns 0, or -1 with a
 * message in err that starts with the file's name ("file: cannot open:
 * ...", or "file:line: message" when the file's content is at fault);
 * lk_reader_close must be called either way.
 */
int lk_input_open(struct lk_reader *r, const char *path, struct lk_strbuf *err);

/*
 * Level `index` of the run `seed`: draw candidates until one passes the
 * thresholds (solving or rating it when they ask for more than the
 * generator knows) and fill out with it and the fields generator, seed and
 * index.  Returns 0, or -1 when max_tries candidates all failed or *cancel
 * was set.  stats counts the candidates.
 */
int lk_generate_index(const struct lk_generator *g, struct lk_gen_worker *w,
		      const struct lk_gen_options *o, uint64_t seed, uint64_t index,
		      struct lk_record *out, struct lk_gen_stats *stats);

#endif
