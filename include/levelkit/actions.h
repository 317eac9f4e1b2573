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
#include <stdio.h>

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
 * A command's inputs read in turn (NULL or no paths: stdin), each opened
 * with lk_input_open.  lk_inputs_next gives the next record
 * (LK_INPUT_RECORD), or one that cannot be read as a record
 * (LK_INPUT_BAD_RECORD, the message in err and its line in *line), or says
 * that an input cannot be opened (LK_INPUT_OPEN_ERROR, a whole message in
 * err) or read on (LK_INPUT_READ_ERROR, err and *line about the input
 * named in->reader.name): the next call goes on with the next input.
 * LK_INPUT_END once every input is read.
 */
enum lk_input_got {
	LK_INPUT_END = 0,
	LK_INPUT_RECORD = 1,
	LK_INPUT_BAD_RECORD = -1,
	LK_INPUT_READ_ERROR = -2,
	LK_INPUT_OPEN_ERROR = -3,
};
struct lk_inputs {
	char *const *paths;
	int npaths, next;          /* the next input to open */
	bool open, failed;         /* reader holds an input; it failed */
	struct lk_reader reader;
};
void lk_inputs_init(struct lk_inputs *in, char *const *paths, int npaths);
int lk_inputs_next(struct lk_inputs *in, struct lk_record *rec, struct lk_strbuf *err,
		   size_t *line);
/* Close the input being read (also when the reading ends early). */
void lk_inputs_close(struct lk_inputs *in);

/*
 * Where a command's records go, under the one rule that never loses a
 * user's data.  The output (a path; NULL or "-" is stdout) is created;
 * an existing file, even an empty one, is refused unless force or unless
 * it is being continued (append: gen --resume); devices and pipes hold
 * nothing to lose.  An output that is one of the inputs is written beside
 * it and renamed over it at the end (replaces_input is then set, and the
 * command must keep every record), only in text format and never over an
 * SLC collection unless force.  At the end, a file the command created and
 * wrote nothing into is removed: a failed run leaves no file behind that
 * the next run could not replace without --force.
 */
struct lk_output_rule {
	char *const *inputs;     /* the command's inputs ("-": stdin) */
	int ninputs;
	enum lk_format format;   /* what is written (a picture counts as not text) */
	bool force;              /* --force: any file may be replaced */
	bool append;             /* the output is the run being continued */
	bool resumable;          /* the refusal says --resume continues the file */
};
struct lk_output {
	FILE *fp;                /* stdout, or the file being written */
	const char *path;        /* NULL: stdout */
	char *tmp;               /* replacing an input: the file being written */
	bool replaces_input;
	bool created;            /* path did not exist: this command made it */
};
/* Do a and b name the same existing file?  "-" and NULL name none. */
bool lk_same_file(const char *a, const char *b);
/* May the rule's command write to path?  0, or -1 with the refusal in err
 * (for a command that writes the file later, or more than once). */
int lk_output_check(const char *path, const struct lk_output_rule *rule, struct lk_strbuf *err);
/* Open the output: 0, or -1 with a message in err (o holds nothing). */
int lk_output_open(struct lk_output *o, const char *path, const struct lk_output_rule *rule,
		   struct lk_strbuf *err);
/* Close; when replacing an input, rename over it if `replace`, else leave
 * the output beside it and say so (in err: a message, not a failure).
 * nothing_written: the file this command created is removed (a temporary
 * file beside an input too).  0, or -1 with the messages in err, one a
 * line. */
int lk_output_close(struct lk_output *o, bool replace, bool nothing_written,
		    struct lk_strbuf *err);

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

/*
 * Reading back what an earlier `gen` run wrote, so that --resume
 * continues after its last index and never repeats its levels.
 *
 * The file is the user's: resume accepts it only when every record in it
 * is a level this run would have written (same game, generator, seed,
 * shard and settings), and changes nothing else in it.  The one exception
 * is a record cut short at the very end (a run killed while writing): it
 * is not dropped when the file is read, but replaced when the resumed run
 * writes its first level, and only if the cut-off text is the beginning of
 * that level's text, so no byte is removed that is not written again.
 */
/* What a record must carry to belong to this run. */
struct lk_gen_resume_run {
	const struct lk_generator *gen;
	uint64_t seed, shard, shards;
	const char *settings;         /* lk_gen_settings of this run */
};

struct lk_gen_resume {
	uint64_t levels;              /* levels already in the file */
	uint64_t next_seq;            /* first position of the shard's index sequence to make */
	bool output_is_resume_file;   /* -o names the same file: append to it */
	/* The cut-off record at the end of the file, if any. */
	char *torn;
	size_t torn_len;
	long torn_offset;             /* where it starts in the file */
	size_t torn_line;
};

/*
 * Read path (a missing file is an empty run) and put the canonical forms
 * of its levels into seen.  Returns 0, or -1 with a message in err
 * ("file:line: message"); the file is never changed here.
 */
struct lk_dedupe;
int lk_gen_resume_load(struct lk_gen_resume *r, const char *path,
		       const struct lk_gen_resume_run *run, struct lk_dedupe *seen, const char *output,
		       struct lk_strbuf *err);

/*
 * Before the first new level is appended to the resume file (out, opened
 * for appending): if the file ends with a cut-off record, remove it when
 * its text is a prefix of the new level's text (which is written next;
 * a notice of it in err) and return 0, else return -1 with why in err (the
 * file is left as it is).
 */
int lk_gen_resume_replace_torn(struct lk_gen_resume *r, const char *path, FILE *out,
			       const char *text, size_t len, struct lk_strbuf *err);

void lk_gen_resume_release(struct lk_gen_resume *r);

#endif
