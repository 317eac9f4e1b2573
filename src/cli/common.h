/*
 * common.h - the options every solving command shares (solver, metric,
 * bounds, jobs, output format) and the fields they write.
 */
#ifndef LEVELKIT_CLI_COMMON_H
#define LEVELKIT_CLI_COMMON_H

#include "levelkit/actions.h"
#include "levelkit/game.h"
#include "levelkit/view.h"
#include "levelkit/options.h"
#include "levelkit/pipeline.h"

/* The constraint games' own flags (csp.h: lk_csp_ops.flags, e.g. the
 * laser game's --tidy) as options, made from the registry: splice `opts`
 * into a command's table with LK_OPT_TABLE. */
#define LK_CLI_MAX_CSP_FLAGS 8
struct lk_cli_csp_flags {
	struct lk_option opts[LK_CLI_MAX_CSP_FLAGS + 1];
	bool on[LK_CLI_MAX_CSP_FLAGS];
	const char *given[LK_CLI_MAX_CSP_FLAGS + 1];
	char help[LK_CLI_MAX_CSP_FLAGS][160];
	size_t n;
};
void lk_cli_csp_flags_init(struct lk_cli_csp_flags *f);
/* After parsing: the flags given, into o->flags (f must outlive o). */
void lk_cli_csp_flags_finish(struct lk_cli_csp_flags *f, struct lk_csp_options *o);

struct lk_cli_common {
	const char *algo, *metric, *heuristic, *direction, *format, *output, *fields, *color, *title;
	const char *measure;
	/* --max-states, --max-memory, -t (and the cancel flag): passed down
	 * as they are, to every search the command starts */
	struct lk_bounds bounds;
	unsigned long jobs;
	bool stats, plain, no_fallback, no_meeting, no_sac, no_gcc, no_symmetry, static_order, force;
	uint64_t count_limit;
	const char *without;     /* --without: techniques to turn off, a,b,... */
	const char *with;        /* --with: techniques off by default to turn on */
	/* resolved by lk_cli_common_finish: what the actions are given */
	struct lk_act_options act;
	/* help headings made from the registry, and the command's defaults */
	char csp_heading[128];
	char without_help[2048], with_help[1024];
	char states_help[128], timeout_help[64], jobs_help[80], algo_help[192];
	/* NULL for rate, which does not list the option (see rate.c) */
	const char *static_order_help;
	struct lk_cli_csp_flags csp_flags;
};

/* The command's defaults: the time per search, the jobs (0: every core)
 * and the state bound (0: none), shown in its --help (the search: astar;
 * lk_cli_common_default_auto makes it auto). */
void lk_cli_common_init(struct lk_cli_common *c, double default_timeout, unsigned long default_jobs,
			uint64_t default_states);
/* auto as the command's default search, in its --help (solve's). */
void lk_cli_common_default_auto(struct lk_cli_common *c);

/* -f and --color, for every command (the views are in view.h). */
#define LK_CLI_FORMAT_HELP \
	"text (default), tsv, json, sok, sok-rle, puzzlescript, html, svg or ansi (the last three are pictures; -o x.html and x.svg choose them too)"
#define LK_CLI_TITLE_HELP \
	"html, svg: the page's or sheet's title (default: the command and its inputs)"
/* --title without a page or a sheet to put it on: a usage error. */
void lk_cli_check_title(const char *title, enum lk_view_format view);
#define LK_CLI_COLOR_HELP \
	"colour text output: auto (on a terminal, unless NO_COLOR is set), always or never"
/* Resolve -f, -o and --color into a record format and a view; exits with
 * a usage error. */
void lk_cli_choose_format(const char *format, const char *output, const char *color,
			  enum lk_format *fmt, enum lk_view_format *view);

/* Option table entries for the shared options (spliced into a command's
 * table; `c` is a struct lk_cli_common): the solver, the constraint games'
 * options (solve and rate only: a generator's constraint searches keep
 * their own settings), the bounds and the input and output. */
#define LK_CLI_COMMON_OPTIONS(c) \
	LK_CLI_SOLVER_OPTIONS(c), LK_CLI_CSP_OPTIONS(c), LK_CLI_IO_OPTIONS(c)

#define LK_CLI_SOLVER_OPTIONS(c)                                                              \
	LK_OPT_GROUP_("Solver"),                                                              \
	{ LK_OPT_STRING, 'a', "algo", &(c).algo, "name", (c).algo_help, NULL },              \
	{ LK_OPT_STRING, 'm', "metric", &(c).metric, "name",                                  \
	  "what solution length counts: pushes (default), moves or cost (PuzzleScript's COST)", NULL }, \
	{ LK_OPT_STRING, 0, "heuristic", &(c).heuristic, "name",                              \
	  "matching, mixedaim, bound or thesis (Sokoban: matching by default; PuzzleScript: mixedaim)", \
	  NULL },                                                                             \
	{ LK_OPT_FLAG, 0, "plain", &(c).plain, NULL,                                           \
	  "no deadlock pruning: the raw state space MixedAim's solvers search", NULL },       \
	{ LK_OPT_LIST, 0, "without", &(c).without, "a,b,...", (c).without_help, NULL },      \
	{ LK_OPT_LIST, 0, "with", &(c).with, "a,b,...", (c).with_help, NULL },               \
	{ LK_OPT_FLAG, 0, "no-fallback", &(c).no_fallback, NULL,                               \
	  "where an optimal search gives up, do not search for any solution after it", NULL }, \
	{ LK_OPT_FLAG, 0, "no-meeting", &(c).no_meeting, NULL,                                 \
	  "A* both ways: answer only when a lane takes a goal, not once the lanes meet on a " \
	  "solution their bounds prove optimal", NULL },                                      \
	{ LK_OPT_STRING, 'd', "direction", &(c).direction, "dir",                             \
	  "forward, backward (from the solved position) or both (default)", NULL },           \
	{ LK_OPT_STRING, 0, "measure", &(c).measure, "name",                                   \
	  "levelkit (default: each game's fastest exact search) or thesis (MixedAim's: moves, " \
	  "forward, no pruning, the thesis's heuristic as written)", NULL }

#define LK_CLI_CSP_OPTIONS(c)                                                                 \
	LK_OPT_GROUP_((c).csp_heading),                                                      \
	{ LK_OPT_U64, 0, "count-limit", &(c).count_limit, "n",                                \
	  "count solutions up to n (default 2: is it unique?)", NULL },                        \
	{ .type = LK_OPT_TABLE, .value = (c).csp_flags.opts },                                \
	{ LK_OPT_FLAG, 0, "no-sac", &(c).no_sac, NULL, "no singleton arc consistency", NULL }, \
	{ LK_OPT_FLAG, 0, "no-gcc", &(c).no_gcc, NULL, "no implied cardinality check", NULL }, \
	{ LK_OPT_FLAG, 0, "no-symmetry", &(c).no_symmetry, NULL,                              \
	  "count solutions that differ only by colour names separately", NULL },              \
	{ LK_OPT_FLAG, 0, "static-order", &(c).static_order, NULL,                            \
	  (c).static_order_help, NULL }

#define LK_CLI_IO_OPTIONS(c)                                                                  \
	LK_OPT_GROUP_("Bounds (per search; a hit bound gives 'unknown')"),                    \
	LK_CLI_BOUNDS_OPTIONS((c).bounds, (c).states_help,                                    \
			      "memory per search, e.g. 2G (default: RAM / (jobs + 1), at most 4G)", \
			      (c).timeout_help),                                              \
	LK_OPT_GROUP_("Input and output"),                                                    \
	{ LK_OPT_UINT, 'j', "jobs", &(c).jobs, "n", (c).jobs_help, NULL },                   \
	{ LK_OPT_STRING, 'f', "format", &(c).format, "fmt", LK_CLI_FORMAT_HELP, NULL }, \
	{ LK_OPT_STRING, 0, "color", &(c).color, "when", LK_CLI_COLOR_HELP, NULL }, \
	{ LK_OPT_STRING, 0, "title", &(c).title, "text", LK_CLI_TITLE_HELP, NULL }, \
	{ LK_OPT_STRING, 0, "fields", &(c).fields, "a,b,...",                                 \
	  "tsv: these columns, in this order (record and title included)", NULL },           \
	{ LK_OPT_STRING, 'o', "output", &(c).output, "file", "write to file instead of stdout", NULL }, \
	{ LK_OPT_FLAG, 0, "force", &(c).force, NULL,                                           \
	  "let -o replace an existing file that is not an input", NULL },                     \
	{ LK_OPT_FLAG, 0, "stats", &(c).stats, NULL,                                           \
	  "also write generated/stored states, memory and time", NULL }

/* The bounds of every search a command starts (one struct lk_bounds,
 * completed by lk_bounds_finish), with the command's help texts. */
#define LK_CLI_BOUNDS_OPTIONS(bounds, states_help, memory_help, timeout_help)                \
	{ LK_OPT_U64, 0, "max-states", &(bounds).max_states, "n", states_help, NULL },       \
	{ LK_OPT_SIZE, 0, "max-memory", &(bounds).max_memory, "bytes", memory_help, NULL },  \
	{ LK_OPT_SECONDS, 't', "timeout", &(bounds).max_seconds, "secs", timeout_help, NULL }

/* Check and resolve the shared options; exits with a usage error. */
void lk_cli_common_finish(struct lk_cli_common *c, struct lk_pipeline *p);

/* A --fields list that names no field is a usage error (said before -o
 * creates its file); NULL is fine. */
void lk_cli_check_fields(const char *fields);

/* The names of the games that pred holds for, from the registry ("fruit
 * and skiddy"); empty when none. */
void lk_cli_games_where(struct lk_strbuf *out, bool (*pred)(const struct lk_game *));

/* Report an unknown -f name, listing the formats; exits 2. */
_Noreturn void lk_cli_unknown_format(const char *name);

/* A usage error naming the options of `names` (long names, NULL-ended)
 * that were given, if any: "... do not apply to <what>". */
void lk_cli_reject_options(const char *const *names, const char *what);
/* The shared options' check (solver options: the state-space games; the
 * constraint options: the constraint games; -m and --heuristic: the games
 * that know the name; a game's own flag: its games). */
void lk_cli_common_unapplied(const struct lk_cli_common *c, uint64_t seen);

#endif
