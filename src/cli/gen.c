/*
 * gen.c - the `gen` command: generate levels, for hours if need be.  This
 * file reads and checks the options; the run itself (worker threads,
 * writing in index order, resume) is gen_run.c, and --suggest is
 * gen_suggest.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "levelkit/gen_run.h"
#include "levelkit/generate.h"
#include "levelkit/grid.h"
#include "levelkit/registry.h"
#include "levelkit/strbuf.h"
#include "levelkit/transform.h"

static const char usage[] = "gen GAME [options]";

/* Generation tries many candidates: one whose state space is huge is not
 * worth minutes, so searches get a state bound unless given one. */
#define GEN_MAX_STATES 300000

/* ------------------------------------------------------------- options */

struct gen_ctx {
	struct lk_cli_common common;
	uint64_t count, seed, max_tries;
	const char *size, *shard, *resume, *generator, *difficulty;
	struct lk_gen_inputs in;     /* --from, --level, --freeze, --combine, --rules */
	const char *require;         /* --require CONCEPT */
	unsigned long suggest, within;
	long max_changes;
	bool climb;
	const char *by;
	double interesting;
	enum lk_view_format view;    /* a picture instead of records (view.h) */
	uint64_t candidates;
	double time_limit;
	/* the thresholds asked for: moves, difficulty and the game's own
	 * fields (Sokoban's pushes, Skiddy's stars), with their options' names */
	struct lk_gen_asked asked;
	char field_names[LK_GEN_MAX_THRESHOLDS][2][48];   /* min-NAME and max-NAME, or NAME */
	/* the generators' flags as options, and which were given */
	struct gen_flag { struct gen_ctx *ctx; const struct lk_gen_flag *f; } flags[32];
	const char *flags_given[16];
	size_t nflags_given;
	unsigned long runs;
	const char **keys, **values;
	size_t nparams, params_alloc;
};

/* Add generator parameter key (its first key_len bytes) = value, which
 * must outlive the run (argv, or a literal). */
static void add_param(struct gen_ctx *ctx, const char *key, size_t key_len, const char *value)
{
	size_t alloc = ctx->params_alloc;
	LK_ALLOC_GROW(ctx->keys, ctx->nparams + 1, alloc);
	alloc = ctx->params_alloc;
	LK_ALLOC_GROW(ctx->values, ctx->nparams + 1, alloc);
	ctx->params_alloc = alloc;
	ctx->keys[ctx->nparams] = lk_xstrndup(key, key_len);
	ctx->values[ctx->nparams] = value;
	ctx->nparams++;
}

static int param_cb(const struct lk_option *opt, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		lk_usage_error("--param %s: expected key=value", arg);
	add_param(opt->value, arg, (size_t)(eq - arg), eq + 1);
	return 0;
}

/* A generator's flag (lk_gen_flag: --harder is --param harder=1); which
 * flags were given is checked against the chosen generator later. */
static const struct lk_gen_flag *find_flag(const struct lk_generator *g, const char *name)
{
	for (const struct lk_gen_flag *f = g->flags; f && f->name; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

static int flag_cb(const struct lk_option *opt, const char *arg)
{
	const struct gen_flag *flag = opt->value;
	const struct lk_gen_flag *f = flag->f;
	struct gen_ctx *ctx = flag->ctx;
	if (f->arg) {
		add_param(ctx, f->param, strlen(f->param), arg);
	} else {
		const char *eq = strchr(f->param, '=');
		add_param(ctx, f->param, (size_t)(eq - f->param), eq + 1);
	}
	if (ctx->nflags_given < sizeof ctx->flags_given / sizeof *ctx->flags_given)
		ctx->flags_given[ctx->nflags_given++] = f->name;
	return 0;
}

/* The options of every generator's flags, once each, with the games that
 * have them in the help ("combination: only add pieces ..."). */
static size_t add_flag_options(struct gen_ctx *ctx, struct lk_option *opts, size_t n, size_t max,
			       char **helps)
{
	const struct lk_generator *g;
	size_t nhelps = 0;
	for (size_t it = 0; (g = lk_generator_next(&it)) != NULL;) {
		for (const struct lk_gen_flag *f = g->flags; f && f->name && n < max; f++) {
			bool dup = false;
			for (size_t i = 0; i < n && !dup; i++)
				dup = opts[i].long_name && strcmp(opts[i].long_name, f->name) == 0;
			if (dup)
				continue;
			struct lk_strbuf h = LK_STRBUF_INIT;
			if (f->arg)
				lk_strbuf_addf(&h, "%s: %s (--param %s=%s)", g->game, f->help, f->param,
					       f->arg);
			else
				lk_strbuf_addf(&h, "%s: %s (--param %s)", g->game, f->help, f->param);
			helps[nhelps] = lk_strbuf_detach(&h, NULL);
			ctx->flags[nhelps] = (struct gen_flag){ ctx, f };
			opts[n++] = (struct lk_option){ LK_OPT_CALLBACK, 0, f->name, &ctx->flags[nhelps],
							f->arg, helps[nhelps++], flag_cb };
		}
	}
	return n;
}

static double number_or_die(const char *opt, const char *s)
{
	double v;
	if (lk_parse_number(s, &v) < 0)
		lk_usage_error("--%s: '%s' is not a finite number", opt, s);
	return v;
}

static int threshold_cb(const struct lk_option *opt, const char *arg)
{
	*(double *)opt->value = number_or_die(opt->long_name, arg);
	return 0;
}

/* "WxH", each side 1 to LK_GRID_MAX_SIDE. */
static void parse_size(const char *s, int *w, int *h)
{
	const char *x = strchr(s, 'x');
	uint64_t a, b;
	char left[32];
	if (!x || (size_t)(x - s) >= sizeof left)
		lk_usage_error("--size %s: expected WxH, e.g. 10x10", s);
	memcpy(left, s, (size_t)(x - s));
	left[x - s] = '\0';
	if (lk_parse_u64(left, &a) < 0 || lk_parse_u64(x + 1, &b) < 0 || a < 1 || b < 1 ||
	    a > LK_GRID_MAX_SIDE || b > LK_GRID_MAX_SIDE)
		lk_usage_error("--size %s: expected WxH with sides from 1 to %d, e.g. 10x10", s,
			       LK_GRID_MAX_SIDE);
	*w = (int)a;
	*h = (int)b;
}

static bool state_space(const struct lk_game *g)
{
	return g->successors != NULL;
}

/* The search options, against the game (gen takes no constraint options:
 * a generator's constraint searches keep their own settings): the solver
 * options belong to the state-space games, and -m and --heuristic to the
 * games that have the name. */
static void check_search_options(const struct gen_ctx *ctx, const struct lk_game *game)
{
	if (!game)
		return;
	if (!game->successors) {
		static const char *const search[] = { "algo", "direction", "heuristic", "plain",
						      "metric", "measure", NULL };
		struct lk_strbuf what = LK_STRBUF_INIT;
		lk_strbuf_addf(&what, "%s, a constraint game (the solver options apply to ",
			       game->name);
		lk_cli_games_where(&what, state_space);
		lk_strbuf_addch(&what, ')');
		lk_cli_reject_options(search, what.buf);
		lk_strbuf_release(&what);
		return;
	}
	if (ctx->common.metric && !lk_name_in(ctx->common.metric, game->metrics))
		lk_usage_error("-m %s: game %s has no metric '%s'", ctx->common.metric, game->name,
			       ctx->common.metric);
	if (ctx->common.heuristic && !lk_name_in(ctx->common.heuristic, game->heuristics))
		lk_usage_error("--heuristic %s: game %s has no heuristic '%s'", ctx->common.heuristic,
			       game->name, ctx->common.heuristic);
}

static void check_options_apply(struct gen_ctx *ctx, const struct lk_generator *gen)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	ctx->asked.band = ctx->difficulty != NULL;
	ctx->asked.from = ctx->in.from || ctx->in.rules || ctx->in.freeze || ctx->suggest;
	if (lk_gen_asked_check(&ctx->asked, gen, &err) < 0)
		lk_usage_error("%s", err.buf);
	const struct lk_game *game = lk_game_find(gen->game);
	check_search_options(ctx, game);
	if (ctx->require && game && game->csp && !game->csp->concept)
		lk_usage_error("--require: game %s has no concept queries", gen->game);
	if (ctx->in.level && !ctx->in.from)
		lk_usage_error("--level belongs to --from");
	if ((ctx->in.combine || ctx->in.combine_below) && !ctx->in.from)
		lk_usage_error("--combine and --combine-below join a level to --from's");
	if (ctx->in.combine && ctx->in.combine_below)
		lk_usage_error("--combine or --combine-below: one of them");
	if ((ctx->candidates || ctx->time_limit > 0 || ctx->within || ctx->max_changes >= 0 ||
	     ctx->climb || ctx->by || !isnan(ctx->interesting)) && !ctx->suggest)
		lk_usage_error("--candidates, --time-limit, --within, --max-changes, --climb, --by and "
			       "--interesting belong to --suggest");
	if (ctx->suggest) {
		/* the suggestions write no run of -n levels and rank by their
		 * own measure: these would be ignored */
		static const char *const run_options[] = {
			"count", "shard", "resume", "max-tries", "jobs", "min-moves", "max-moves", NULL
		};
		const char *names[sizeof run_options / sizeof *run_options + 2 * LK_GEN_MAX_THRESHOLDS + 2];
		size_t n = 0;
		for (; run_options[n]; n++)
			names[n] = run_options[n];
		for (size_t i = 0; i < ctx->asked.nfields; i++)
			if (!ctx->asked.fields[i]->rating) {
				names[n++] = ctx->field_names[i][0];
				names[n++] = ctx->field_names[i][1];
			}
		names[n++] = "rate";
		names[n++] = "runs";
		names[n] = NULL;
		lk_cli_reject_options(names, "--suggest (variations of --from kept while "
				      "--candidates, --time-limit or Ctrl-C let the search go on)");
	}
	if (lk_gen_asked_check_ratings(&ctx->asked, &err) < 0)
		lk_usage_error("%s", err.buf);
}

static int parse_max_changes(const struct lk_option *opt, const char *arg)
{
	uint64_t n;
	if (lk_parse_u64(arg, &n) < 0 || n > 1000000)
		lk_usage_error("--max-changes: '%s' is not a number of cells", arg);
	*(long *)opt->value = (long)n;
	return 0;
}

static int parse_interesting(const struct lk_option *opt, const char *arg)
{
	*(double *)opt->value = number_or_die("interesting", arg);
	return 0;
}

static void fill_gen_options(struct gen_ctx *ctx, const struct lk_generator *gen,
			     struct lk_gen_options *o)
{
	lk_gen_options_init(o);
	if (ctx->size)
		parse_size(ctx->size, &o->width, &o->height);
	o->param_keys = ctx->keys;
	o->param_values = ctx->values;
	o->nparams = ctx->nparams;
	lk_gen_asked_apply(&ctx->asked, gen, o);
	if (ctx->difficulty) {
		if (isfinite(ctx->asked.difficulty.min) || isfinite(ctx->asked.difficulty.max))
			lk_usage_error("--difficulty and --min-difficulty/--max-difficulty do not go "
				       "together");
		char *colon = strchr(ctx->difficulty, ':');
		if (!colon)
			lk_usage_error("--difficulty %s: expected lo:hi", ctx->difficulty);
		*colon = '\0';
		if (*ctx->difficulty)
			o->difficulty.min = number_or_die("difficulty", ctx->difficulty);
		if (colon[1])
			o->difficulty.max = number_or_die("difficulty", colon + 1);
		*colon = ':';
		if (o->difficulty.min > o->difficulty.max)
			lk_usage_error("--difficulty %s: the lower bound is above the upper one, so no "
				       "level could pass", ctx->difficulty);
	}
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (lk_gen_options_check_ranges(o, &err) < 0)
		lk_usage_error("%s", err.buf);
	o->rating.search = ctx->common.act.search;
	o->level = ctx->common.act.level;   /* -m, --heuristic, --plain */
	if (!ctx->common.bounds.max_states)
		o->rating.search.bounds.max_states = GEN_MAX_STATES;
	o->rating.runs = (unsigned)ctx->runs;
	if (ctx->max_tries)
		o->max_tries = (unsigned)(ctx->max_tries > 0xffffffffu ? 0xffffffffu : ctx->max_tries);
	if (ctx->require) {
		o->require = lk_expr_parse_concept(ctx->require, &err);
		if (!o->require)
			lk_usage_error("bad concept '%s': %s", ctx->require, err.buf);
		o->require_text = ctx->require;
	}
}

/* ---------------------------------------------------------------- main */

static void build_help(struct lk_strbuf *help)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_strbuf_addstr(&text, "Generate levels of GAME (");
	lk_game_names(&text, " or ");
	lk_strbuf_addstr(&text,
		") and write them as records with the fields generator, seed, index, settings "
		"and what solve (and with --rate, rate) would add.  Level i depends only on "
		"(seed, i); duplicates up to symmetry are dropped.  An existing -o file is never "
		"replaced without --force (or continued with --resume).");
	lk_wrap(help, text.buf, 0, 0, 80);
	lk_strbuf_release(&text);
	lk_strbuf_addstr(help, "\n\nGenerators (--generator; the first of a game is its default):");
	const struct lk_generator *g;
	for (size_t it = 0; (g = lk_generator_next(&it)) != NULL;) {
		/* a table of indented lines, each entry wrapped under itself */
		struct lk_strbuf line = LK_STRBUF_INIT;
		lk_strbuf_addf(&line, "%s %s: %s", g->game, g->name, g->summary);
		/* 72 columns: the man page indents the table by 7 more */
		lk_strbuf_addstr(help, "\n  ");
		lk_wrap(help, line.buf, 2, 6, 72);
		lk_strbuf_reset(&line);
		lk_strbuf_addf(&line, "size %s; --param %s", g->size_help, g->params_help);
		lk_strbuf_addstr(help, "\n      ");
		lk_wrap(help, line.buf, 6, 8, 72);
		lk_strbuf_release(&line);
	}
}

static void free_params(struct gen_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nparams; i++)
		free((char *)ctx->keys[i]);
	free(ctx->keys);
	free(ctx->values);
}

/* Help texts and option names that name games or fields, made from the
 * registry. */
struct gen_help {
	char min_moves[400], rules[400];
	char min_help[LK_GEN_MAX_THRESHOLDS][400], max_help[LK_GEN_MAX_THRESHOLDS][160];
	char *flag_help[32];
};

/* Every generator's own fields, once each by name, in registry order, and
 * their options' names. */
static void collect_fields(struct gen_ctx *ctx)
{
	lk_gen_asked_init(&ctx->asked);
	for (size_t i = 0; i < ctx->asked.nfields; i++) {
		const struct lk_gen_field *f = ctx->asked.fields[i];
		if (f->rating) {
			snprintf(ctx->field_names[i][0], sizeof ctx->field_names[i][0], "%s", f->name);
		} else {
			snprintf(ctx->field_names[i][0], sizeof ctx->field_names[i][0], "min-%s", f->name);
			snprintf(ctx->field_names[i][1], sizeof ctx->field_names[i][1], "max-%s", f->name);
		}
	}
}

static void make_help(const struct gen_ctx *ctx, struct gen_help *h)
{
	lk_gen_help_rules(h->rules, sizeof h->rules);
	lk_gen_help_min(h->min_moves, sizeof h->min_moves, "moves", NULL);
	for (size_t i = 0; i < ctx->asked.nfields; i++) {
		const struct lk_gen_field *f = ctx->asked.fields[i];
		if (f->rating) {
			struct lk_strbuf games = LK_STRBUF_INIT;
			lk_generator_games_judging(f->name, &games);
			snprintf(h->min_help[i], sizeof h->min_help[i], "%s: %s at least n (0-%g)",
				 games.buf, f->noun, f->max);
			lk_strbuf_release(&games);
			continue;
		}
		lk_gen_help_min(h->min_help[i], sizeof h->min_help[i], f->noun, f->name);
		snprintf(h->max_help[i], sizeof h->max_help[i], "at most n %s", f->noun);
	}
}

/* The options of the game's own fields: the ranges' or the ratings'. */
static size_t add_field_options(struct gen_ctx *ctx, const struct gen_help *h, bool ratings,
				struct lk_option *opts, size_t n)
{
	for (size_t i = 0; i < ctx->asked.nfields; i++) {
		if (ctx->asked.fields[i]->rating != ratings)
			continue;
		if (ratings) {
			opts[n++] = (struct lk_option){ LK_OPT_UINT, 0, ctx->field_names[i][0],
							&ctx->asked.rating[i], "n", h->min_help[i], NULL };
			continue;
		}
		opts[n++] = (struct lk_option){ LK_OPT_CALLBACK, 0, ctx->field_names[i][0],
						&ctx->asked.range[i].min, "n", h->min_help[i], threshold_cb };
		opts[n++] = (struct lk_option){ LK_OPT_CALLBACK, 0, ctx->field_names[i][1],
						&ctx->asked.range[i].max, "n", h->max_help[i], threshold_cb };
	}
	return n;
}

/* The option table: the options below, then every generator's flags
 * (free the result). */
static struct lk_option *make_options(struct gen_ctx *ctx, struct gen_help *h)
{
	const struct lk_option head[] = {
		LK_OPT_GROUP_("Generation"),
		{ LK_OPT_U64, 'n', "count", &ctx->count, "n", "levels to write (default 10)", NULL },
		{ LK_OPT_U64, 's', "seed", &ctx->seed, "n", "seed of the run (default 1)", NULL },
		{ LK_OPT_STRING, 'g', "generator", &ctx->generator, "name",
		  "the game's generator (the list above; default: its first)", NULL },
		{ LK_OPT_STRING, 0, "size", &ctx->size, "WxH", "grid size (default: the generator's, above)", NULL },
		{ LK_OPT_CALLBACK, 'p', "param", ctx, "key=value",
		  "generator parameter (the list above); repeatable", param_cb },
		{ LK_OPT_U64, 0, "max-tries", &ctx->max_tries, "n",
		  "candidates per level before giving up on it (default 10000)", NULL },
		LK_OPT_GROUP_("Acceptance"),
		{ LK_OPT_CALLBACK, 0, "min-moves", &ctx->asked.moves.min, "n", h->min_moves, threshold_cb },
		{ LK_OPT_CALLBACK, 0, "max-moves", &ctx->asked.moves.max, "n", "at most n moves", threshold_cb },
	};
	const struct lk_option middle[] = {
		{ LK_OPT_CALLBACK, 0, "min-difficulty", &ctx->asked.difficulty.min, "x",
		  "difficulty (rate's mean) at least x", threshold_cb },
		{ LK_OPT_CALLBACK, 0, "max-difficulty", &ctx->asked.difficulty.max, "x", "difficulty at most x", threshold_cb },
		{ LK_OPT_STRING, 0, "difficulty", &ctx->difficulty, "lo:hi", "difficulty band", NULL },
		{ LK_OPT_FLAG, 0, "rate", &ctx->asked.rate, NULL, "also write rate's fields", NULL },
		{ LK_OPT_FLAG, 0, "no-dead-ends", &ctx->asked.no_dead_ends, NULL,
		  "only levels with no dead end (whole-graph analysis)", NULL },
	};
	const struct lk_option tail[] = {
		{ LK_OPT_UINT, 'k', "runs", &ctx->runs, "k", "shuffled solves when rating (default 50)", NULL },
		{ LK_OPT_STRING, 0, "require", &ctx->require, "concept",
		  "only levels whose every solution satisfies the concept (docs/concepts.md)", NULL },
		LK_OPT_GROUP_("Transformer (MixedAim)"),
		{ LK_OPT_STRING, 0, "from", &ctx->in.from, "file", "start from the first level of file "
		  "(implies --generator transform)", NULL },
		{ LK_OPT_UINT, 0, "level", &ctx->in.level, "n", "--from: its nth level instead", NULL },
		{ LK_OPT_STRING, 0, "rules", &ctx->in.rules, "file|preset", h->rules, NULL },
		{ LK_OPT_STRING, 0, "freeze", &ctx->in.freeze, "file",
		  "grid whose non-blank cells never change", NULL },
		{ LK_OPT_STRING, 0, "combine", &ctx->in.combine, "file",
		  "--from: join the first level of file beside it (its player left out)", NULL },
		{ LK_OPT_STRING, 0, "combine-below", &ctx->in.combine_below, "file",
		  "--from: join the first level of file below it", NULL },
		{ LK_OPT_UINT, 0, "suggest", &ctx->suggest, "k",
		  "variations of --from until Ctrl-C or a limit below; keep and re-print the k best", NULL },
		{ LK_OPT_UINT, 0, "within", &ctx->within, "n",
		  "--suggest: each a variation of your level by 1 to n rule applications (default 1)", NULL },
		{ LK_OPT_CALLBACK, 0, "max-changes", &ctx->max_changes, "n",
		  "--suggest: at most n cells different from your level", parse_max_changes },
		{ LK_OPT_FLAG, 0, "climb", &ctx->climb, NULL,
		  "--suggest: MixedAim's climb instead: every harder level becomes the base", NULL },
		{ LK_OPT_STRING, 0, "by", &ctx->by, "field",
		  "--suggest: rank by this field or count(FACT) (default difficulty-min)", NULL },
		{ LK_OPT_CALLBACK, 0, "interesting", &ctx->interesting, "x",
		  "--suggest: count levels ranked at least x as interesting (default: your level's)",
		  parse_interesting },
		{ LK_OPT_U64, 0, "candidates", &ctx->candidates, "n",
		  "--suggest: stop after n candidates", NULL },
		{ LK_OPT_SECONDS, 0, "time-limit", &ctx->time_limit, "secs",
		  "--suggest: stop after this long", NULL },
		LK_OPT_GROUP_("Runs"),
		{ LK_OPT_STRING, 0, "shard", &ctx->shard, "K/N", "only indices K, K+N, K+2N, ...", NULL },
		{ LK_OPT_STRING, 0, "resume", &ctx->resume, "file",
		  "continue the run in file (same options) and never repeat its levels", NULL },
		LK_CLI_SOLVER_OPTIONS(ctx->common),
		LK_CLI_IO_OPTIONS(ctx->common),
	};
	size_t nflags = sizeof h->flag_help / sizeof *h->flag_help;
	size_t nbase = sizeof head / sizeof *head + sizeof middle / sizeof *middle +
		       sizeof tail / sizeof *tail + 2 * ctx->asked.nfields;
	struct lk_option *opts = lk_xcalloc(nbase + nflags + 2, sizeof *opts);
	memcpy(opts, head, sizeof head);
	size_t n = add_field_options(ctx, h, false, opts, sizeof head / sizeof *head);
	memcpy(opts + n, middle, sizeof middle);
	n = add_field_options(ctx, h, true, opts, n + sizeof middle / sizeof *middle);
	memcpy(opts + n, tail, sizeof tail);
	n += sizeof tail / sizeof *tail;
	opts[n] = (struct lk_option)LK_OPT_GROUP_("Generator flags");
	n = add_flag_options(ctx, opts, n + 1, n + 1 + nflags, h->flag_help);
	opts[n] = (struct lk_option)LK_OPT_END_();
	return opts;
}

/* The game and its generator from the operands and options; the options
 * that do not apply to it are usage errors. */
static const struct lk_generator *choose_generator(struct gen_ctx *ctx, int argc, char **argv,
						   int first)
{
	struct lk_strbuf games = LK_STRBUF_INIT;
	lk_game_names(&games, " or ");
	if (first >= argc)
		lk_usage_error("which game? (%s)", games.buf);
	if (first + 1 < argc)
		lk_usage_error("unexpected argument '%s'", argv[first + 1]);
	const char *game = argv[first];
	if (!lk_game_find(game))
		lk_usage_error("unknown game '%s' (use %s)", game, games.buf);
	lk_strbuf_release(&games);
	if (!ctx->generator && (ctx->in.from || ctx->in.rules || ctx->suggest || ctx->in.freeze))
		ctx->generator = "transform";
	const struct lk_generator *gen = lk_generator_find(game, ctx->generator);
	if (!gen && ctx->generator && strcmp(ctx->generator, "transform") == 0)
		check_options_apply(ctx, lk_generator_find(game, NULL));
	if (!gen)
		lk_usage_error("game %s has no generator '%s'", game, ctx->generator ? ctx->generator : "");
	check_options_apply(ctx, gen);
	for (size_t i = 0; i < ctx->nflags_given; i++) {
		if (find_flag(gen, ctx->flags_given[i]))
			continue;
		struct lk_strbuf where = LK_STRBUF_INIT;
		const struct lk_generator *g;
		const char *last = NULL;   /* a game's generators come together: each game once */
		for (size_t it = 0; (g = lk_generator_next(&it)) != NULL;)
			if (find_flag(g, ctx->flags_given[i]) && (!last || strcmp(last, g->game) != 0)) {
				lk_strbuf_addf(&where, "%s%s", where.len ? ", " : "", g->game);
				last = g->game;
			}
		lk_usage_error("--%s does not apply to %s (it applies to %s)", ctx->flags_given[i], game,
			       where.buf);
	}
	return gen;
}

static void parse_shard(const char *shard, uint64_t *k, uint64_t *n)
{
	const char *slash = strchr(shard, '/');
	char left[32];
	if (!slash || (size_t)(slash - shard) >= sizeof left)
		lk_usage_error("--shard %s: expected K/N with 0 <= K < N", shard);
	memcpy(left, shard, (size_t)(slash - shard));
	left[slash - shard] = '\0';
	if (lk_parse_u64(left, k) < 0 || lk_parse_u64(slash + 1, n) < 0 || *n == 0 || *k >= *n)
		lk_usage_error("--shard %s: expected K/N with 0 <= K < N", shard);
}

static void say_error(const char *message)
{
	lk_error("%s", message);
}

static void say_usage(const char *message)
{
	lk_usage_error("%s", message);
}

static int run(struct gen_ctx *ctx, const struct lk_generator *gen, struct lk_gen_options *o,
	       enum lk_format format)
{
	const struct lk_gen_say say = { lk_prog, say_error, say_usage };
	lk_pipeline_install_signals();
	if (ctx->suggest) {
		/* the suggestions rewrite -o as they improve: checked once */
		struct lk_output_rule rule = { .format = format, .force = ctx->common.force };
		struct lk_strbuf err = LK_STRBUF_INIT;
		if (lk_output_check(ctx->common.output, &rule, &err) < 0) {
			lk_error("%s", err.buf);
			lk_strbuf_release(&err);
			return 2;
		}
		struct lk_gen_suggest_options so = {
			.gen = gen, .opt = o, .from = o->from, .from_path = ctx->in.from,
			.output = ctx->common.output, .view = ctx->view, .seed = ctx->seed,
			.k = (unsigned)ctx->suggest, .candidates = ctx->candidates,
			.bounds = { .max_seconds = ctx->time_limit, .cancel = &lk_interrupted },
			.within = (unsigned)ctx->within, .max_changes = ctx->max_changes,
			.climb = ctx->climb, .by = ctx->by, .interesting = ctx->interesting,
			.title = ctx->common.title, .progress = isatty(2), .interactive = isatty(0),
			.say = say,
		};
		if (lk_gen_suggest_check(&so, &err) < 0)
			lk_usage_error("%s", err.buf);
		return lk_gen_suggest(&so);
	}
	uint64_t shard = 0, shards = 1;
	if (ctx->shard)
		parse_shard(ctx->shard, &shard, &shards);
	struct lk_gen_run_options ro = {
		.gen = gen, .opt = o, .seed = ctx->seed, .count = ctx->count,
		.shard = shard, .shards = shards, .resume = ctx->resume, .output = ctx->common.output,
		.force = ctx->common.force, .format = format,
		.format_name = ctx->common.format, .fields = ctx->common.fields,
		.jobs = (unsigned)ctx->common.jobs, .view = ctx->view, .title = ctx->common.title,
		.progress = isatty(2), .stdout_tty = isatty(1), .cancel = &lk_interrupted, .say = say,
	};
	return lk_gen_run(&ro);
}

int main(int argc, char **argv)
{
	struct gen_ctx ctx = { 0 };
	lk_gen_inputs_init(&ctx.in);
	lk_cli_common_init(&ctx.common, 10.0, 0, GEN_MAX_STATES);   /* every core */
	ctx.count = 10;
	ctx.seed = 1;
	ctx.runs = 50;
	ctx.max_changes = -1;
	ctx.interesting = NAN;
	collect_fields(&ctx);
	struct gen_help help_texts = { .flag_help = { NULL } };
	make_help(&ctx, &help_texts);
	struct lk_option *opts = make_options(&ctx, &help_texts);
	struct lk_strbuf help = LK_STRBUF_INIT;
	build_help(&help);
	int first = lk_parse_options(argc, argv, opts, usage, help.buf);
	lk_strbuf_release(&help);
	const struct lk_generator *gen = choose_generator(&ctx, argc, argv, first);
	if (!ctx.suggest)
		lk_gen_asked_defaults(&ctx.asked, gen);

	struct lk_pipeline unused = { 0 };
	lk_cli_common_finish(&ctx.common, &unused);
	ctx.view = unused.view;
	if (unused.format == LK_FORMAT_PUZZLESCRIPT && strcmp(gen->game, "puzzlescript") != 0)
		lk_usage_error("-f puzzlescript writes the levels of PuzzleScript games, in their "
			       "script's legend; %s levels' characters mean other things there", gen->game);
	struct lk_gen_options o;
	fill_gen_options(&ctx, gen, &o);
	struct lk_strbuf msg = LK_STRBUF_INIT;
	int status = lk_gen_inputs_load(&ctx.in, gen, &o, &msg);
	if (status == -2)
		lk_usage_error("%s", msg.buf);
	else if (status < 0 && ctx.in.msg_line)
		lk_error_at(ctx.in.msg_path, ctx.in.msg_line, "%s", msg.buf);
	else if (status < 0)
		lk_error("%s", msg.buf);
	lk_strbuf_release(&msg);
	status = status < 0 ? 2 : run(&ctx, gen, &o, unused.format);
	lk_gen_inputs_release(&ctx.in);
	lk_expr_free((struct lk_expr *)o.require);
	free_params(&ctx);
	for (size_t i = 0; i < sizeof help_texts.flag_help / sizeof *help_texts.flag_help; i++)
		free(help_texts.flag_help[i]);
	free(opts);
	return status;
}
