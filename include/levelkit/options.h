/*
 * options.h - a declarative option table over getopt_long, in the manner
 * of git's parse-options: each command lists its options once, and the
 * table drives parsing, --help and error messages.
 */
#ifndef LEVELKIT_OPTIONS_H
#define LEVELKIT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/bounds.h"   /* lk_cpu_count, lk_physical_memory */

enum lk_opt_type {
	LK_OPT_END,
	LK_OPT_GROUP,     /* a heading in --help */
	LK_OPT_FLAG,      /* bool */
	LK_OPT_STRING,    /* const char * */
	LK_OPT_LIST,      /* const char *, a comma-separated list; a repeat
			   * adds to it ("a,b" then "c" is "a,b,c") */
	LK_OPT_UINT,      /* unsigned long */
	LK_OPT_U64,       /* uint64_t */
	LK_OPT_SIZE,      /* size_t, with K/M/G suffixes */
	LK_OPT_SECONDS,   /* double, with optional s/m/h suffix */
	LK_OPT_CALLBACK,  /* callback(opt, arg); takes no argument (arg NULL)
			   * when argh is NULL */
	LK_OPT_TABLE      /* value: another table (const struct lk_option *,
			   * ended by LK_OPT_END) spliced in here: options
			   * made at run time, such as the games' own flags */
};

struct lk_option;
typedef int (*lk_opt_callback)(const struct lk_option *opt, const char *arg);

struct lk_option {
	enum lk_opt_type type;
	int short_name;          /* 0 if none */
	const char *long_name;
	void *value;
	const char *argh;        /* argument name in --help; NULL for flags */
	const char *help;        /* NULL: parsed but not listed in --help */
	lk_opt_callback callback;
};

#define LK_OPT_GROUP_(h) { .type = LK_OPT_GROUP, .help = (h) }
#define LK_OPT_END_() { .type = LK_OPT_END }

/* The running program's name (set by lk_parse_options). */
extern const char *lk_prog;

/*
 * Parse argv against opts.  --help prints usage, description and the table
 * on stdout and exits 0; --version prints the version and exits 0; a bad
 * option or value prints "prog: message" and the usage line on stderr and
 * exits 2.  Returns the index of the first operand.
 */
int lk_parse_options(int argc, char **argv, const struct lk_option *opts,
		     const char *usage, const char *description);

/* Append text to out filled to lines of at most width columns (a word
 * longer than that stays whole), starting at column col; each line after
 * the first starts with indent spaces.  Newlines in text are blanks. */
struct lk_strbuf;
void lk_wrap(struct lk_strbuf *out, const char *text, size_t col, size_t indent, size_t width);

/* Was the option of this long name given (after lk_parse_options)? */
bool lk_option_given(const char *long_name);
/* How it was typed the first time ("-n" or "--count"), or NULL. */
const char *lk_option_typed(const char *long_name);

/*
 * Options that do not apply (applies.c).  One rule for every command: an
 * option that applies to nothing the command is asked to do is a usage
 * error up front; solve, rate and filter learn a level's game only when
 * they read it, so an option that applies to some games only is noted
 * once at the end when no level read was of those games ("--tidy applied
 * to no level read (it applies to laser)"), and the exit status stays.
 */
struct lk_game;
/* The bit of the game of this name in a set of games (lk_games order). */
uint64_t lk_game_bit(const char *name);
/* The names of the games pred holds for, appended to out ("fruit and
 * skiddy"); nothing when none. */
void lk_games_named(struct lk_strbuf *out, bool (*pred)(const struct lk_game *g, const void *ctx),
		    const void *ctx);
/* Does pred hold for some game of the set seen? */
bool lk_option_applied(uint64_t seen, bool (*pred)(const struct lk_game *g, const void *ctx),
		       const void *ctx);
/* If opt was given and pred holds for no game of seen, say so once. */
void lk_warn_unapplied(uint64_t seen, const char *opt,
		       bool (*pred)(const struct lk_game *g, const void *ctx), const void *ctx);
/* Predicates for those (ctx: the metric's, heuristic's or flag's name). */
bool lk_game_has_state_space(const struct lk_game *g, const void *ctx);
bool lk_game_is_constraint(const struct lk_game *g, const void *ctx);
bool lk_game_knows_metric(const struct lk_game *g, const void *name);
bool lk_game_knows_heuristic(const struct lk_game *g, const void *name);
bool lk_game_has_csp_flag(const struct lk_game *g, const void *name);

/* Report a usage error and exit 2. */
_Noreturn void lk_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* Messages on stderr: "prog: message" and "prog: file:line: message",
 * with control bytes and invalid UTF-8 escaped (a bare CR in a level must
 * not garble the terminal).  lk_message_format appends the same text,
 * newline included, to out (for messages printed later). */
void lk_error(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
void lk_error_at(const char *file, size_t line, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
struct lk_strbuf;
void lk_message_format(struct lk_strbuf *out, const char *file, size_t line, const char *text);
/* Each line of err as a message; err is released. */
void lk_error_lines(struct lk_strbuf *err);

/* Value parsers shared by the commands; -1 on a malformed value. */
int lk_parse_size(const char *s, size_t *out);
/* A finite decimal number (no nan, inf or hexadecimal). */
int lk_parse_number(const char *s, double *out);
int lk_parse_seconds(const char *s, double *out);
int lk_parse_u64(const char *s, uint64_t *out);


#endif
