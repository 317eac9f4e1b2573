/*
 * gen_run.h - the gen command's two runs, in the library so that a test
 * reaches them without a process: a run of -n levels on the ordered pool
 * (indices generated on worker threads, written in index order,
 * duplicates dropped, --resume continuing a run's own file), and
 * --suggest's suggestions shown as they change.  The command parses the
 * options and gives the messages' hooks; what is said, and when, is here.
 */
#ifndef LEVELKIT_GEN_RUN_H
#define LEVELKIT_GEN_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "levelkit/bounds.h"
#include "levelkit/generate.h"
#include "levelkit/record.h"
#include "levelkit/view.h"

/* What the judge (act/judge.c) found of a candidate, as numbers: kept
 * from the result structs of the searches it ran, or read once from the
 * fields a generator or a game's analysis hook wrote (their interface is
 * the record).  The record's fields are written from the same results, as
 * text for the output only.  has_X false: not known. */
struct lk_judged {
	bool answered;                /* solvable: said by a generator or a search */
	enum lk_status status;        /* its answer */
	enum lk_limit limit;          /* the bound behind an unknown answer */
	bool has_moves;               /* the solution's moves */
	double moves;
	bool has_length;              /* what --min-moves reads (the game's moves_field */
	double length;                /* after a whole-graph analysis) */
	bool has_field[LK_GEN_MAX_THRESHOLDS];   /* the values of o->thresholds */
	double field[LK_GEN_MAX_THRESHOLDS];
	bool has_difficulty;          /* the difficulty as it is written (one decimal) */
	double difficulty;
	uint64_t dead_ends;
};

/* Level `index` of the run `seed` (lk_generate_index, actions.h), with
 * what the run needs of it beside the record: the canonical text the
 * duplicate set takes, made from the level the judge loaded (one parse
 * of each accepted level), and the judge's numbers. */
struct lk_gen_level {
	struct lk_record rec;
	struct lk_strbuf canonical;
	struct lk_judged judged;
};
void lk_gen_level_init(struct lk_gen_level *l);
void lk_gen_level_release(struct lk_gen_level *l);
/* 0, or -1 when max_tries candidates were turned down (or cancelled). */
int lk_generate_level(const struct lk_generator *g, struct lk_gen_worker *w,
		      const struct lk_gen_options *o, uint64_t seed, uint64_t index,
		      struct lk_gen_level *out, struct lk_gen_stats *stats);

/* Where a run's messages go (the command prints them as `prog: message`
 * on stderr; usage ends the process with a usage error). */
struct lk_gen_say {
	const char *prog;                    /* the live lines' prefix */
	void (*error)(const char *message);
	void (*usage)(const char *message);  /* does not return */
};

struct lk_gen_run_options {
	const struct lk_generator *gen;
	const struct lk_gen_options *opt;
	uint64_t seed, count;
	uint64_t shard, shards;   /* --shard K/N: indices K, K+N, ... (N 0: 1) */
	const char *resume;       /* --resume FILE or NULL */
	const char *output;       /* -o FILE or NULL */
	bool force;
	enum lk_format format;
	const char *format_name;  /* for messages */
	const char *fields;       /* --fields or NULL */
	unsigned jobs;
	enum lk_view_format view;   /* a picture instead of records (view.h) */
	const char *title;          /* --title: the page's, or NULL */
	bool progress;              /* a live line on stderr (a terminal) */
	bool stdout_tty;            /* stdout is that terminal too */
	const volatile sig_atomic_t *cancel;   /* stops the run (Ctrl-C) */
	struct lk_gen_say say;
};

/* Run; returns the exit status (0, 1 fewer levels than asked, 2, 130). */
int lk_gen_run(const struct lk_gen_run_options *o);

struct lk_gen_suggest_options {
	const struct lk_generator *gen;
	const struct lk_gen_options *opt;  /* a search's own bounds: opt->rating.search.bounds */
	const struct lk_record *from;     /* --from's level, or NULL */
	const char *from_path;
	const char *output;               /* -o FILE or NULL */
	const char *title;                /* --title, or NULL */
	enum lk_view_format view;
	uint64_t seed;
	unsigned k;
	uint64_t candidates;              /* --candidates, 0: none */
	/* the whole run's bounds: --time-limit (max_seconds) and the cancel
	 * flag, passed down as they are */
	struct lk_bounds bounds;
	unsigned within;                  /* --within, 0: 1 */
	long max_changes;                 /* --max-changes, -1: any */
	bool climb;
	const char *by;                   /* --by, NULL: difficulty-min */
	double interesting;               /* --interesting, NaN: the base level's */
	bool progress;                    /* a live line on stderr (a terminal) */
	bool interactive;                 /* ranks typed on stdin pick */
	struct lk_gen_say say;
};

/* Check the suggestion options: 0, or -1 with a usage error in err. */
int lk_gen_suggest_check(const struct lk_gen_suggest_options *o, struct lk_strbuf *err);
/* Run; returns the exit status (0, 1 no suggestion, 2, 130). */
int lk_gen_suggest(const struct lk_gen_suggest_options *o);

/* What gen reads before a run: the options naming it, then what was read
 * (o->from, o->freeze, o->combine and o->rules point here). */
struct lk_gen_inputs {
	const char *from, *freeze, *combine, *combine_below, *rules;
	unsigned long level;              /* --level: --from's nth level (0: 1) */
	struct lk_record from_rec, freeze_rec, combine_rec;
	struct lk_strbuf rules_text;
	const char *msg_path;             /* the file a read error is in, */
	size_t msg_line;                  /* and its line, or 0 */
};
void lk_gen_inputs_init(struct lk_gen_inputs *in);
void lk_gen_inputs_release(struct lk_gen_inputs *in);
/* Read them into o: 0, -1 with msg (a file that cannot be read or has
 * no such level, at in->msg_path:msg_line if that is not 0), or -2 with a usage error. */
int lk_gen_inputs_load(struct lk_gen_inputs *in, const struct lk_generator *gen,
		       struct lk_gen_options *o, struct lk_strbuf *msg);
/* The nth record with a grid in path (n from 1): 0, or -1 with msg. */
int lk_gen_read_level(const char *path, unsigned long n, struct lk_record *rec, struct lk_strbuf *msg,
		      size_t *msg_line);

/* The acceptance thresholds asked for, before the generator is chosen:
 * moves, the difficulty, and every generator's own fields (collected once
 * from the registry by lk_gen_asked_init): a range's min and max, a
 * rating's least value (0: not asked). */
struct lk_gen_asked {
	struct lk_range moves, difficulty;
	const struct lk_gen_field *fields[LK_GEN_MAX_THRESHOLDS];
	size_t nfields;
	struct lk_range range[LK_GEN_MAX_THRESHOLDS];
	unsigned long rating[LK_GEN_MAX_THRESHOLDS];
	bool band;                    /* --difficulty lo:hi given (read later) */
	bool rate, no_dead_ends;
	bool from;                    /* --from, --rules, --freeze or --suggest given */
};
void lk_gen_asked_init(struct lk_gen_asked *a);
/* Was field i asked for? */
bool lk_gen_asked_field(const struct lk_gen_asked *a, size_t i);
/* 0, or -1 with a usage error: a threshold the generator cannot judge by
 * (naming the games it applies to); a rating above its scale. */
int lk_gen_asked_check(const struct lk_gen_asked *a, const struct lk_generator *gen,
		       struct lk_strbuf *err);
int lk_gen_asked_check_ratings(const struct lk_gen_asked *a, struct lk_strbuf *err);
/* No length threshold asked: the generator's default minimums. */
void lk_gen_asked_defaults(struct lk_gen_asked *a, const struct lk_generator *gen);
/* The thresholds the generator judges by, --rate and --no-dead-ends, into o. */
void lk_gen_asked_apply(const struct lk_gen_asked *a, const struct lk_generator *gen,
			struct lk_gen_options *o);
/* 0, or -1 with a usage error: a range no level can be in. */
int lk_gen_options_check_ranges(const struct lk_gen_options *o, struct lk_strbuf *err);

/* Help texts made from the registry: "at least n WHAT (default 4 for
 * fruit and skiddy, ...)" for moves (field NULL) or a field's range, and
 * --rules' list of every game's presets. */
void lk_gen_help_min(char *out, size_t size, const char *what, const char *field);
void lk_gen_help_rules(char *out, size_t size);

#endif
