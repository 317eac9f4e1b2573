/*
 * gen.c - the `gen` command: generate levels, for hours if need be.  This
 * file reads and checks the options; the run itself (worker threads,
 * writing in index order, resume) is gen_run.c, and --suggest's long
 * climb is suggest() below.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "gen_run.h"
#include "levelkit/dedupe.h"
#include "levelkit/generate.h"
#include "levelkit/grid.h"
#include "levelkit/strbuf.h"
#include "levelkit/transform.h"

static const char usage[] = "gen GAME [options]";

/* ------------------------------------------------------------- options */

struct gen_ctx {
	struct lk_cli_common common;
	uint64_t count, seed, max_tries;
	const char *size, *shard, *resume, *generator, *difficulty;
	const char *from, *rules, *freeze;
	const char *require;         /* --require CONCEPT */
	unsigned long suggest, level;
	enum lk_view_format view;    /* a picture instead of records (view.h) */
	uint64_t candidates;
	double time_limit;
	double min_moves, max_moves, min_pushes, max_pushes, min_diff, max_diff;
	bool rate, no_dead_ends;
	unsigned long runs, stars;
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
static struct gen_ctx *flag_ctx;
static const char *flags_given[16];
static size_t nflags_given;

static const struct lk_gen_flag *find_flag(const struct lk_generator *g, const char *name)
{
	for (const struct lk_gen_flag *f = g->flags; f && f->name; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

static int flag_cb(const struct lk_option *opt, const char *arg)
{
	const struct lk_gen_flag *f = opt->value;
	if (f->arg) {
		add_param(flag_ctx, f->param, strlen(f->param), arg);
	} else {
		const char *eq = strchr(f->param, '=');
		add_param(flag_ctx, f->param, (size_t)(eq - f->param), eq + 1);
	}
	if (nflags_given < sizeof flags_given / sizeof *flags_given)
		flags_given[nflags_given++] = f->name;
	return 0;
}

/* The options of every generator's flags, once each, with the games that
 * have them in the help ("combination: only add pieces ..."). */
static size_t add_flag_options(struct lk_option *opts, size_t n, size_t max, char **helps)
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
			opts[n++] = (struct lk_option){ LK_OPT_CALLBACK, 0, f->name, (void *)f, f->arg,
							helps[nhelps++], flag_cb };
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

/* The nth record with a grid in path (n from 1). */
static int read_level(const char *path, unsigned long n, struct lk_record *rec)
{
	struct lk_reader r;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	unsigned long seen = 0;
	int got = -1;
	if (lk_input_open(&r, path, &err) == 0) {
		while ((got = lk_reader_next(&r, rec, &err, &line)) != 0) {
			if (got == 1 && lk_record_grid(rec, NULL) && ++seen == n)
				break;
			if (got < 0)
				break;
		}
	}
	if (got != 1) {
		if (got == -1)
			lk_error_at(path, line, "%s", err.buf);
		else if (seen > 0)
			lk_error("%s: --level %lu: the file has %lu level%s", path, n, seen,
				 seen == 1 ? "" : "s");
		else
			lk_error("%s: %s", path, err.len ? err.buf : "no level in file");
	}
	lk_reader_close(&r);
	lk_strbuf_release(&err);
	return got == 1 ? 0 : -1;
}

/* An acceptance option given for a game whose generator cannot judge by
 * it is an error, naming the games it applies to. */
static void check_applies(const struct lk_generator *gen, unsigned bit, bool given,
			  const char *what)
{
	if (!given || (gen->accepts & bit))
		return;
	struct lk_strbuf games = LK_STRBUF_INIT;
	lk_generator_games_accepting(bit, &games);
	lk_usage_error("%s does not apply to %s (it applies to %s)", what, gen->game, games.buf);
}

static void check_options_apply(const struct gen_ctx *ctx, const struct lk_generator *gen)
{
	check_applies(gen, LK_GEN_ACCEPT(MOVES), isfinite(ctx->min_moves) || isfinite(ctx->max_moves),
		      "--min-moves/--max-moves");
	check_applies(gen, LK_GEN_ACCEPT(PUSHES),
		      isfinite(ctx->min_pushes) || isfinite(ctx->max_pushes), "--min-pushes/--max-pushes");
	check_applies(gen, LK_GEN_ACCEPT(DIFFICULTY),
		      ctx->rate || ctx->difficulty || isfinite(ctx->min_diff) || isfinite(ctx->max_diff),
		      "--rate and the difficulty thresholds");
	check_applies(gen, LK_GEN_ACCEPT(DEAD_ENDS), ctx->no_dead_ends, "--no-dead-ends");
	check_applies(gen, LK_GEN_ACCEPT(STARS), ctx->stars > 0, "--stars");
	check_applies(gen, LK_GEN_ACCEPT(FROM),
		      ctx->from || ctx->rules || ctx->freeze || ctx->suggest, "--from/--rules/--freeze/--suggest");
	const struct lk_game *game = lk_game_find(gen->game);
	if (ctx->require && game && game->csp && !game->csp->concept)
		lk_usage_error("--require: game %s has no concept queries", gen->game);
	if (ctx->require && ctx->suggest)
		lk_usage_error("--require does not go with --suggest (the climb keeps the hardest "
			       "levels it meets, not proved ones; filter --forall checks them)");
	if (ctx->level && !ctx->from)
		lk_usage_error("--level belongs to --from");
	if ((ctx->candidates || ctx->time_limit > 0) && !ctx->suggest)
		lk_usage_error("--candidates and --time-limit belong to --suggest");
	if (ctx->stars > 3)
		lk_usage_error("--stars %lu: the rating is 0 to 3", ctx->stars);
}

/* Defaults a designer would keep: no trivial levels unless asked for. */
static void apply_default_thresholds(struct gen_ctx *ctx, const struct lk_generator *gen)
{
	bool any = isfinite(ctx->min_moves) || isfinite(ctx->max_moves) ||
		   isfinite(ctx->min_pushes) || isfinite(ctx->max_pushes);
	if (any || ctx->suggest)
		return;
	if (gen->default_min_pushes > 0)
		ctx->min_pushes = gen->default_min_pushes;
	if (gen->default_min_moves > 0)
		ctx->min_moves = gen->default_min_moves;
}

static void fill_gen_options(struct gen_ctx *ctx, struct lk_gen_options *o)
{
	lk_gen_options_init(o);
	if (ctx->size)
		parse_size(ctx->size, &o->width, &o->height);
	o->param_keys = ctx->keys;
	o->param_values = ctx->values;
	o->nparams = ctx->nparams;
	o->moves = (struct lk_range){ ctx->min_moves, ctx->max_moves };
	o->pushes = (struct lk_range){ ctx->min_pushes, ctx->max_pushes };
	o->difficulty = (struct lk_range){ ctx->min_diff, ctx->max_diff };
	if (ctx->difficulty) {
		char *colon = strchr(ctx->difficulty, ':');
		if (!colon)
			lk_usage_error("--difficulty %s: expected lo:hi", ctx->difficulty);
		*colon = '\0';
		if (*ctx->difficulty)
			o->difficulty.min = number_or_die("difficulty", ctx->difficulty);
		if (colon[1])
			o->difficulty.max = number_or_die("difficulty", colon + 1);
	}
	o->rate = ctx->rate;
	o->no_dead_ends = ctx->no_dead_ends;
	o->min_stars = (int)ctx->stars;
	o->rating.search = ctx->common.act.search;
	o->level = ctx->common.act.level;   /* -m, --heuristic, --plain */
	/* Generation tries many candidates: one whose state space is huge is
	 * not worth minutes, so searches get a state bound unless given one. */
	if (!ctx->common.max_states)
		o->rating.search.max_states = 300000;
	o->rating.runs = (unsigned)ctx->runs;
	if (ctx->max_tries)
		o->max_tries = (unsigned)(ctx->max_tries > 0xffffffffu ? 0xffffffffu : ctx->max_tries);
	if (ctx->require) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		o->require = lk_expr_parse_concept(ctx->require, &err);
		if (!o->require)
			lk_usage_error("bad concept '%s': %s", ctx->require, err.buf);
		o->require_text = ctx->require;
	}
}

/* --from, --freeze and --rules into o; returns 0 or an exit status.  A
 * preset's text comes from the generator's game, for these options (a
 * PuzzleScript preset names the script's own objects). */
static int load_inputs(const struct gen_ctx *ctx, const struct lk_generator *gen,
		       struct lk_gen_options *o, struct lk_record *from, struct lk_record *freeze,
		       struct lk_strbuf *rules_text)
{
	if (ctx->from) {
		if (read_level(ctx->from, ctx->level ? ctx->level : 1, from) < 0)
			return 2;
		o->from = from;
	}
	if (ctx->freeze) {
		if (read_level(ctx->freeze, 1, freeze) < 0)
			return 2;
		o->freeze = freeze;
	}
	if (ctx->rules) {
		const struct lk_transform_ops *ops = gen->transform;
		bool preset = lk_transform_has_preset(ops, ctx->rules);
		if (preset) {
			struct lk_strbuf err = LK_STRBUF_INIT;
			if (lk_transform_preset(ops, o, ctx->rules, rules_text, &err) < 0)
				lk_usage_error("--rules %s: %s", ctx->rules, err.buf);
			lk_strbuf_release(&err);
		} else if (lk_strbuf_read_file(rules_text, ctx->rules) < 0) {
			struct lk_strbuf names = LK_STRBUF_INIT;
			for (size_t i = 0; ops && ops->presets && ops->presets[i]; i++)
				lk_strbuf_addf(&names, "%s%s", i ? ", " : "", ops->presets[i]);
			lk_error("%s: not a preset (%s) and cannot be read: %s", ctx->rules, names.buf,
				 strerror(errno));
			lk_strbuf_release(&names);
			return 2;
		}
		o->rules = rules_text->buf;
		if (!preset)
			o->rules_name = ctx->rules;
	}
	return 0;
}

/* ------------------------------------------------------------- suggest */

struct suggest_out {
	const char *path;     /* -o FILE: replaced at every update */
	const char *from;     /* the level the climb starts from, for `from:` */
	const char *title;    /* --title, or NULL */
	bool progress;
	enum lk_view_format view;    /* -f html, svg or ansi */
	struct lk_record *last;      /* the last suggestions, for the final page */
	size_t nlast;
};

/* A page or picture of the suggestions, rewritten whole (tmp + rename) at
 * every update; while the climb goes on the page reloads itself. */
static void write_suggestion_view(struct suggest_out *so, struct lk_record *const *top, size_t n,
				  bool final, const char *note)
{
	struct lk_strbuf title = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
	if (so->title)
		lk_strbuf_addstr(&title, so->title);
	else
		lk_strbuf_addf(&title, "%s suggestions%s%s", lk_prog, so->from ? " from " : "",
			       so->from ? so->from : "");
	struct lk_view_options vo = { .title = title.buf, .refresh = final ? 0 : 3, .note = note };
	if (lk_view_write_file(so->path, so->view, &vo, top, n, &err) < 0)
		lk_error("%s", err.buf);
	lk_strbuf_release(&title);
	lk_strbuf_release(&err);
}

static void print_suggestions(void *vctx, struct lk_record *const *top, size_t n,
			      const struct lk_suggest_stats *st)
{
	struct suggest_out *so = vctx;
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_strbuf_addf(&text, "; suggestions after %llu candidates, %.1f s (%llu solvable, %llu "
		       "unsolvable, %llu timed out, %llu invalid, %llu solved at the start)\n\n",
		       (unsigned long long)st->candidates, st->seconds,
		       (unsigned long long)st->solvable, (unsigned long long)st->unsolvable,
		       (unsigned long long)st->timed_out, (unsigned long long)st->invalid,
		       (unsigned long long)st->solved_start);
	for (size_t i = 0; i < n; i++) {
		lk_record_setf(top[i], "rank", "%zu", i + 1);
		if (so->from)
			lk_record_set(top[i], "from", so->from);
		lk_record_write(top[i], &text);
		lk_strbuf_addch(&text, '\n');
	}
	if (so->view == LK_VIEW_ANSI || so->view == LK_VIEW_PLAIN) {
		struct lk_view_writer vw;
		lk_view_writer_init(&vw, NULL, so->view, NULL);
		/* the summary line stays, the records are coloured */
		text.len = (size_t)(strchr(text.buf, '\n') - text.buf) + 2;
		text.buf[text.len] = '\0';
		for (size_t i = 0; i < n; i++)
			lk_view_writer_format(&vw, top[i], &text);
		lk_view_writer_release(&vw);
	}
	if (so->path && (so->view == LK_VIEW_HTML || so->view == LK_VIEW_SVG)) {
		for (size_t i = 0; i < so->nlast; i++)
			lk_record_release(&so->last[i]);
		so->last = lk_xrealloc(so->last, (n ? n : 1) * sizeof *so->last);
		for (size_t i = 0; i < n; i++) {
			lk_record_init(&so->last[i]);
			lk_record_copy(&so->last[i], top[i]);
		}
		so->nlast = n;
		struct lk_strbuf note = LK_STRBUF_INIT;
		lk_strbuf_add(&note, text.buf + 2, strcspn(text.buf + 2, "\n"));
		write_suggestion_view(so, top, n, false, note.buf);
		lk_strbuf_release(&note);
		if (so->progress)
			fprintf(stderr, "\r\033[K%s: %zu suggestions, hardest %s after %llu candidates",
				lk_prog, n, lk_record_get(top[0], "difficulty-min"),
				(unsigned long long)st->candidates);
	} else if (so->path) {
		size_t len = strlen(so->path) + 32;
		char *tmp = lk_xmalloc(len);
		snprintf(tmp, len, "%s.tmp%ld", so->path, (long)getpid());
		FILE *fp = fopen(tmp, "w");
		if (!fp || fwrite(text.buf, 1, text.len, fp) != text.len || fclose(fp) != 0 ||
		    rename(tmp, so->path) != 0)
			lk_error("%s: cannot write: %s", so->path, strerror(errno));
		free(tmp);
		if (so->progress)
			fprintf(stderr, "\r\033[K%s: %zu suggestions, hardest %s after %llu candidates",
				lk_prog, n, lk_record_get(top[0], "difficulty-min"),
				(unsigned long long)st->candidates);
	} else {
		fwrite(text.buf, 1, text.len, stdout);
		fflush(stdout);
	}
	lk_strbuf_release(&text);
}

static int suggest(struct gen_ctx *ctx, const struct lk_generator *gen, struct lk_gen_options *o,
		   const struct lk_record *from)
{
	struct lk_suggest_options so = {
		.k = (unsigned)ctx->suggest,
		.max_candidates = ctx->candidates,
		.max_seconds = ctx->time_limit,
		.timeout_cap = ctx->common.timeout,
		.cancel = &lk_interrupted,
	};
	struct suggest_out out = { .path = NULL, .progress = isatty(2), .view = ctx->view,
				   .title = ctx->common.title };
	if (ctx->common.output && strcmp(ctx->common.output, "-") != 0)
		out.path = ctx->common.output;
	if ((ctx->view == LK_VIEW_HTML || ctx->view == LK_VIEW_SVG) && !out.path)
		lk_usage_error("--suggest with a picture needs -o FILE (rewritten as the suggestions improve)");
	struct lk_strbuf from_text = LK_STRBUF_INIT, title = LK_STRBUF_INIT;
	if (o->from) {
		const char *t = lk_record_title(from, &title);
		lk_strbuf_addf(&from_text, "%s record %zu%s%s", ctx->from, from->number,
			       t ? ": " : "", t ? t : "");
		out.from = from_text.buf;
	}
	if (!ctx->candidates && !(ctx->time_limit > 0))
		lk_error("suggesting until interrupted (Ctrl-C); --time-limit or --candidates "
			 "sets an end");
	struct lk_rng rng;
	struct lk_suggest_stats st;
	struct lk_strbuf err = LK_STRBUF_INIT;
	lk_rng_seed(&rng, ctx->seed);
	lk_pipeline_install_signals();
	if (lk_transform_suggest(gen->transform, o, &rng, &so, print_suggestions, &out, &st, &err) < 0)
		lk_usage_error("%s", err.buf);
	if (out.progress && out.path)
		fprintf(stderr, "\r\033[K");
	if (out.nlast) {
		/* the last page stops reloading: nothing will change it */
		struct lk_record **recs = lk_xmalloc(out.nlast * sizeof *recs);
		struct lk_strbuf note = LK_STRBUF_INIT;
		for (size_t i = 0; i < out.nlast; i++)
			recs[i] = &out.last[i];
		lk_strbuf_addf(&note, "finished after %llu candidates, %.1f s",
			       (unsigned long long)st.candidates, st.seconds);
		write_suggestion_view(&out, recs, out.nlast, true, note.buf);
		for (size_t i = 0; i < out.nlast; i++)
			lk_record_release(&out.last[i]);
		free(out.last);
		free(recs);
		lk_strbuf_release(&note);
	}
	lk_error("%s%llu candidates in %.1f s: %llu solvable, %llu unsolvable, %llu timed out, "
		 "%llu invalid, %llu solved at the start; %llu updates, first after %.2f s",
		 lk_interrupted ? "interrupted: " : "", (unsigned long long)st.candidates, st.seconds,
		 (unsigned long long)st.solvable, (unsigned long long)st.unsolvable,
		 (unsigned long long)st.timed_out, (unsigned long long)st.invalid,
		 (unsigned long long)st.solved_start, (unsigned long long)st.updates, st.first_update);
	lk_strbuf_release(&err);
	lk_strbuf_release(&from_text);
	lk_strbuf_release(&title);
	return lk_interrupted ? 130 : st.updates ? 0 : 1;
}

/* ---------------------------------------------------------------- main */

static void build_help(struct lk_strbuf *help)
{
	lk_strbuf_addstr(help, "Generate levels of GAME (");
	lk_game_names(help, " or ");
	lk_strbuf_addstr(help,
		") and write them as records with the fields\n"
		"generator, seed, index, settings and what solve (and with --rate, rate) would add.\n"
		"Level i depends only on (seed, i); duplicates up to symmetry are dropped.\n"
		"An existing -o file is never replaced without --force (or continued with --resume).\n\n"
		"Generators (--generator; the first of a game is its default):");
	const struct lk_generator *g;
	for (size_t it = 0; (g = lk_generator_next(&it)) != NULL;) {
		lk_strbuf_addf(help, "\n  %s %s: %s\n      size %s; --param %s", g->game, g->name,
			       g->summary, g->size_help, g->params_help);
	}
}

static void free_params(struct gen_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nparams; i++)
		free((char *)ctx->keys[i]);
	free(ctx->keys);
	free(ctx->values);
}

/* Help texts that name games, made from the registry. */
struct gen_help {
	char min_moves[160], min_pushes[160], stars[160], rules[400];
	char *flag_help[32];
};

static bool accepts_stars(const struct lk_game *g)
{
	for (size_t i = 0; g->generators && g->generators[i]; i++)
		if (g->generators[i]->accepts & LK_GEN_ACCEPT(STARS))
			return true;
	return false;
}

/* "at least n moves (default: 4 for fruit and skiddy)" */
static void default_help(char *out, size_t size, const char *what, size_t member)
{
	struct lk_strbuf games = LK_STRBUF_INIT;
	double value = 0;
	const struct lk_generator *g;
	for (size_t it = 0; (g = lk_generator_next(&it)) != NULL;) {
		double v = *(const double *)((const char *)g + member);
		if (v > 0) {
			lk_strbuf_addf(&games, "%s%s %s", games.len ? ", " : " ", g->game, g->name);
			value = v;
		}
	}
	if (games.len)
		snprintf(out, size, "at least n %s (default %g for%s)", what, value, games.buf);
	else
		snprintf(out, size, "at least n %s", what);
	lk_strbuf_release(&games);
}

/* "rules file, or a preset of the game's (sokoban: walls, ..., mix
 * (default); puzzlescript: ...)" */
static void rules_help(char *out, size_t size)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	const struct lk_generator *g;
	lk_strbuf_addstr(&text, "rules file, or a preset of the game's (");
	bool first = true;
	for (size_t it = 0; (g = lk_generator_next(&it)) != NULL;) {
		const struct lk_transform_ops *ops = g->transform;
		if (!ops || !ops->presets)
			continue;
		lk_strbuf_addf(&text, "%s%s: ", first ? "" : "; ", g->game);
		for (size_t i = 0; ops->presets[i]; i++)
			lk_strbuf_addf(&text, "%s%s%s", i ? ", " : "", ops->presets[i],
				       ops->default_preset && strcmp(ops->presets[i], ops->default_preset) == 0
				       ? " (default)" : "");
		first = false;
	}
	lk_strbuf_addch(&text, ')');
	snprintf(out, size, "%s", text.buf);
	lk_strbuf_release(&text);
}

static void make_help(struct gen_help *h)
{
	rules_help(h->rules, sizeof h->rules);
	default_help(h->min_moves, sizeof h->min_moves, "moves",
		     offsetof(struct lk_generator, default_min_moves));
	default_help(h->min_pushes, sizeof h->min_pushes, "optimal pushes",
		     offsetof(struct lk_generator, default_min_pushes));
	struct lk_strbuf games = LK_STRBUF_INIT;
	lk_cli_games_where(&games, accepts_stars);
	snprintf(h->stars, sizeof h->stars, "%s: star rating at least n (0-3)", games.buf);
	lk_strbuf_release(&games);
}

/* The option table: the options below, then every generator's flags
 * (free the result). */
static struct lk_option *make_options(struct gen_ctx *ctx, struct gen_help *h)
{
	const struct lk_option base[] = {
		LK_OPT_GROUP_("Generation"),
		{ LK_OPT_U64, 'n', "count", &ctx->count, "n", "levels to write (default 10)", NULL },
		{ LK_OPT_U64, 's', "seed", &ctx->seed, "n", "seed of the run (default 1)", NULL },
		{ LK_OPT_STRING, 'g', "generator", &ctx->generator, "name",
		  "the game's generator (see below; default: its first)", NULL },
		{ LK_OPT_STRING, 0, "size", &ctx->size, "WxH", "grid size (default: the generator's, below)", NULL },
		{ LK_OPT_CALLBACK, 'p', "param", ctx, "key=value",
		  "generator parameter (see below); repeatable", param_cb },
		{ LK_OPT_U64, 0, "max-tries", &ctx->max_tries, "n",
		  "candidates per level before giving up on it (default 10000)", NULL },
		LK_OPT_GROUP_("Acceptance"),
		{ LK_OPT_CALLBACK, 0, "min-moves", &ctx->min_moves, "n", h->min_moves, threshold_cb },
		{ LK_OPT_CALLBACK, 0, "max-moves", &ctx->max_moves, "n", "at most n moves", threshold_cb },
		{ LK_OPT_CALLBACK, 0, "min-pushes", &ctx->min_pushes, "n", h->min_pushes, threshold_cb },
		{ LK_OPT_CALLBACK, 0, "max-pushes", &ctx->max_pushes, "n", "at most n optimal pushes", threshold_cb },
		{ LK_OPT_CALLBACK, 0, "min-difficulty", &ctx->min_diff, "x",
		  "difficulty (rate's mean) at least x", threshold_cb },
		{ LK_OPT_CALLBACK, 0, "max-difficulty", &ctx->max_diff, "x", "difficulty at most x", threshold_cb },
		{ LK_OPT_STRING, 0, "difficulty", &ctx->difficulty, "lo:hi", "difficulty band", NULL },
		{ LK_OPT_FLAG, 0, "rate", &ctx->rate, NULL, "also write rate's fields", NULL },
		{ LK_OPT_FLAG, 0, "no-dead-ends", &ctx->no_dead_ends, NULL,
		  "only levels with no dead end (whole-graph analysis)", NULL },
		{ LK_OPT_UINT, 0, "stars", &ctx->stars, "n", h->stars, NULL },
		{ LK_OPT_UINT, 'k', "runs", &ctx->runs, "k", "shuffled solves when rating (default 50)", NULL },
		{ LK_OPT_STRING, 0, "require", &ctx->require, "concept",
		  "only levels whose every solution satisfies the concept (docs/concepts.md)", NULL },
		LK_OPT_GROUP_("Transformer (MixedAim)"),
		{ LK_OPT_STRING, 0, "from", &ctx->from, "file", "start from the first level of file "
		  "(implies --generator transform)", NULL },
		{ LK_OPT_UINT, 0, "level", &ctx->level, "n", "--from: its nth level instead", NULL },
		{ LK_OPT_STRING, 0, "rules", &ctx->rules, "file|preset", h->rules, NULL },
		{ LK_OPT_STRING, 0, "freeze", &ctx->freeze, "file",
		  "grid whose non-blank cells never change", NULL },
		{ LK_OPT_UINT, 0, "suggest", &ctx->suggest, "k",
		  "one long climb, until Ctrl-C or a limit below; keep and re-print the k hardest levels", NULL },
		{ LK_OPT_U64, 0, "candidates", &ctx->candidates, "n",
		  "--suggest: stop after n candidates", NULL },
		{ LK_OPT_SECONDS, 0, "time-limit", &ctx->time_limit, "secs",
		  "--suggest: stop after this long", NULL },
		LK_OPT_GROUP_("Runs"),
		{ LK_OPT_STRING, 0, "shard", &ctx->shard, "K/N", "only indices K, K+N, K+2N, ...", NULL },
		{ LK_OPT_STRING, 0, "resume", &ctx->resume, "file",
		  "continue the run in file (same options) and never repeat its levels", NULL },
		LK_CLI_COMMON_OPTIONS(ctx->common),
	};
	size_t nbase = sizeof base / sizeof *base, nflags = sizeof h->flag_help / sizeof *h->flag_help;
	struct lk_option *opts = lk_xcalloc(nbase + nflags + 2, sizeof *opts);
	memcpy(opts, base, sizeof base);
	opts[nbase] = (struct lk_option)LK_OPT_GROUP_("Generator flags");
	size_t n = add_flag_options(opts, nbase + 1, nbase + 1 + nflags, h->flag_help);
	opts[n] = (struct lk_option)LK_OPT_END_();
	flag_ctx = ctx;
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
	if (!ctx->generator && (ctx->from || ctx->rules || ctx->suggest || ctx->freeze))
		ctx->generator = "transform";
	const struct lk_generator *gen = lk_generator_find(game, ctx->generator);
	if (!gen && ctx->generator && strcmp(ctx->generator, "transform") == 0)
		check_options_apply(ctx, lk_generator_find(game, NULL));
	if (!gen)
		lk_usage_error("game %s has no generator '%s'", game, ctx->generator ? ctx->generator : "");
	check_options_apply(ctx, gen);
	for (size_t i = 0; i < nflags_given; i++) {
		if (find_flag(gen, flags_given[i]))
			continue;
		struct lk_strbuf where = LK_STRBUF_INIT;
		const struct lk_generator *g;
		for (size_t it = 0; (g = lk_generator_next(&it)) != NULL;)
			if (find_flag(g, flags_given[i]))
				lk_strbuf_addf(&where, "%s%s", where.len ? ", " : "", g->game);
		lk_usage_error("--%s does not apply to %s (it applies to %s)", flags_given[i], game,
			       where.buf);
	}
	return gen;
}

static int run(struct gen_ctx *ctx, const struct lk_generator *gen, struct lk_gen_options *o,
	       const struct lk_record *from, enum lk_format format)
{
	if (ctx->suggest) {
		struct stat st;
		const char *path = ctx->common.output;
		if (path && strcmp(path, "-") != 0 && !ctx->common.force && stat(path, &st) == 0 &&
		    st.st_size > 0) {
			lk_error("%s: the file exists and holds %lld bytes; --force replaces it", path,
				 (long long)st.st_size);
			return 2;
		}
		return suggest(ctx, gen, o, from);
	}
	struct gen_run_options ro = {
		.gen = gen, .opt = o, .seed = ctx->seed, .count = ctx->count,
		.shard = ctx->shard, .resume = ctx->resume, .output = ctx->common.output,
		.force = ctx->common.force, .format = format,
		.format_name = ctx->common.format, .fields = ctx->common.fields,
		.jobs = (unsigned)ctx->common.jobs, .view = ctx->view, .title = ctx->common.title,
	};
	return gen_run(&ro);
}

int main(int argc, char **argv)
{
	struct gen_ctx ctx = { 0 };
	lk_cli_common_init(&ctx.common, 10.0);
	ctx.common.jobs = 0;   /* every core */
	ctx.count = 10;
	ctx.seed = 1;
	ctx.runs = 50;
	ctx.min_moves = ctx.min_pushes = ctx.min_diff = -INFINITY;
	ctx.max_moves = ctx.max_pushes = ctx.max_diff = INFINITY;
	struct gen_help help_texts = { .flag_help = { NULL } };
	make_help(&help_texts);
	struct lk_option *opts = make_options(&ctx, &help_texts);
	struct lk_strbuf help = LK_STRBUF_INIT;
	build_help(&help);
	int first = lk_parse_options(argc, argv, opts, usage, help.buf);
	lk_strbuf_release(&help);
	const struct lk_generator *gen = choose_generator(&ctx, argc, argv, first);
	apply_default_thresholds(&ctx, gen);

	struct lk_pipeline unused = { 0 };
	lk_cli_common_finish(&ctx.common, &unused);
	ctx.view = unused.view;
	if (unused.format == LK_FORMAT_PUZZLESCRIPT && strcmp(gen->game, "puzzlescript") != 0)
		lk_usage_error("-f puzzlescript writes the levels of PuzzleScript games, in their "
			       "script's legend; %s levels' characters mean other things there", gen->game);
	struct lk_gen_options o;
	fill_gen_options(&ctx, &o);
	struct lk_record from = LK_RECORD_INIT, freeze = LK_RECORD_INIT;
	struct lk_strbuf rules_text = LK_STRBUF_INIT;
	lk_record_init(&from);
	lk_record_init(&freeze);
	int status = load_inputs(&ctx, gen, &o, &from, &freeze, &rules_text);
	if (status == 0)
		status = run(&ctx, gen, &o, &from, unused.format);
	lk_record_release(&from);
	lk_record_release(&freeze);
	lk_strbuf_release(&rules_text);
	lk_expr_free((struct lk_expr *)o.require);
	free_params(&ctx);
	for (size_t i = 0; i < sizeof help_texts.flag_help / sizeof *help_texts.flag_help; i++)
		free(help_texts.flag_help[i]);
	free(opts);
	return status;
}
