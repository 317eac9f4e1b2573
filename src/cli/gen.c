/*
 * gen.c - the `gen` command: generate levels, for hours if need be.
 *
 * Level i of a run depends only on (seed, i) (see generate.h), so worker
 * threads make levels of different indices in any order while the main
 * thread writes them in index order, drops duplicates (canonical form),
 * flushes each at once, and stops after -n levels.  --shard K/N takes the
 * indices K, K+N, K+2N, ...; --resume FILE continues after the last index
 * in FILE.  On SIGINT or SIGTERM the levels finished in order are written
 * and the run stops before the first unfinished index, so a resumed run
 * gives exactly what an uninterrupted one would have.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "gen_resume.h"
#include "levelkit/dedupe.h"
#include "levelkit/generate.h"
#include "levelkit/grid.h"
#include "levelkit/strbuf.h"
#include "../gen/transform.h"

static const char usage[] = "gen GAME [options]";

enum slot_state { SLOT_FREE, SLOT_RUNNING, SLOT_DONE };

/* A run whose thresholds nothing meets would go on for ever. */
#define MAX_FAILED_IN_ROW 20

struct slot {
	enum slot_state state;
	uint64_t seq;              /* position in this shard's index sequence */
	bool ok;                   /* a level was made */
	struct lk_record rec;
};

struct gen_run {
	const struct lk_generator *gen;
	struct lk_gen_options *opt;
	uint64_t seed, shard, shards;
	struct slot *slots;
	size_t nslots;
	uint64_t next_take, next_write;  /* sequence numbers */
	bool stop;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct lk_gen_stats stats;
	struct lk_strbuf worker_error;
};

static uint64_t index_of(const struct gen_run *run, uint64_t seq)
{
	return run->shard + seq * run->shards;
}

static void *worker_main(void *arg)
{
	struct gen_run *run = arg;
	struct lk_gen_worker w;
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (lk_gen_worker_init(&w, run->gen, run->opt, &err) < 0) {
		pthread_mutex_lock(&run->lock);
		if (!run->worker_error.len)
			lk_strbuf_addstr(&run->worker_error, err.buf);
		run->stop = true;
		pthread_cond_broadcast(&run->changed);
		pthread_mutex_unlock(&run->lock);
		lk_strbuf_release(&err);
		return NULL;
	}
	lk_strbuf_release(&err);
	pthread_mutex_lock(&run->lock);
	for (;;) {
		while (!run->stop && run->next_take - run->next_write >= run->nslots)
			pthread_cond_wait(&run->changed, &run->lock);
		if (run->stop || lk_interrupted)
			break;
		uint64_t seq = run->next_take++;
		struct slot *slot = &run->slots[seq % run->nslots];
		slot->state = SLOT_RUNNING;
		slot->seq = seq;
		pthread_mutex_unlock(&run->lock);

		struct lk_gen_stats st = { 0 };
		lk_record_init(&slot->rec);
		int rc = lk_generate_index(run->gen, &w, run->opt, run->seed, index_of(run, seq),
					   &slot->rec, &st);

		pthread_mutex_lock(&run->lock);
		slot->ok = rc == 0;
		slot->state = SLOT_DONE;
		lk_gen_stats_add(&run->stats, &st);
		pthread_cond_broadcast(&run->changed);
	}
	pthread_mutex_unlock(&run->lock);
	lk_gen_worker_release(&w, run->gen);
	return NULL;
}

static void format_duration(double s, char *buf, size_t n)
{
	if (!isfinite(s) || s < 0)
		snprintf(buf, n, "?");
	else if (s < 90)
		snprintf(buf, n, "%.0fs", s);
	else if (s < 5400)
		snprintf(buf, n, "%.0fm", s / 60);
	else
		snprintf(buf, n, "%.0fh%02.0fm", floor(s / 3600), fmod(s, 3600) / 60);
}

/* "1200 tried (too-short 1100, unsolvable 3)" */
static void describe_stats(const struct lk_gen_stats *st, struct lk_strbuf *out)
{
	lk_strbuf_addf(out, "%llu tried", (unsigned long long)st->tried);
	const char *sep = " (";
	for (int i = 0; i < LK_REJECT_COUNT; i++) {
		if (!st->rejected[i])
			continue;
		lk_strbuf_addf(out, "%s%s %llu", sep, lk_reject_name((enum lk_reject)i),
			       (unsigned long long)st->rejected[i]);
		sep = ", ";
	}
	if (strcmp(sep, ", ") == 0)
		lk_strbuf_addch(out, ')');
}

/* ------------------------------------------------------------- options */

struct gen_ctx {
	struct lk_cli_common common;
	uint64_t count, seed, max_tries;
	const char *size, *shard, *resume, *generator, *difficulty;
	const char *from, *rules, *freeze;
	unsigned long suggest;
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

/* --harder and --easier: the Combination paper's biased local search,
 * short for --param harder=1 and --param easier=1. */
static int bias_cb(const struct lk_option *opt, const char *arg)
{
	(void)arg;
	add_param(opt->value, opt->long_name, strlen(opt->long_name), "1");
	return 0;
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

/* The first record with a grid in path. */
static int read_first_level(const char *path, struct lk_record *rec)
{
	struct lk_reader r;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	int got = -1;
	if (lk_reader_open(&r, path, &err) == 0) {
		while ((got = lk_reader_next(&r, rec, &err, &line)) != 0) {
			if (got == 1 && lk_record_grid(rec, NULL))
				break;
			if (got < 0)
				break;
		}
	}
	if (got != 1) {
		if (got == -1)
			lk_error_at(path, line, "%s", err.buf);
		else
			lk_error("%s: %s", path, err.len ? err.buf : "no level in file");
	}
	lk_reader_close(&r);
	lk_strbuf_release(&err);
	return got == 1 ? 0 : -1;
}

static int read_file(const char *path, struct lk_strbuf *out)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -1;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		lk_strbuf_add(out, buf, n);
	int rc = ferror(fp) ? -1 : 0;
	fclose(fp);
	return rc;
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
	o->rating.search = ctx->common.search;
	/* Generation tries many candidates: one whose state space is huge is
	 * not worth minutes, so searches get a state bound unless given one. */
	if (!ctx->common.max_states)
		o->rating.search.max_states = 300000;
	o->rating.runs = (unsigned)ctx->runs;
	if (ctx->max_tries)
		o->max_tries = (unsigned)(ctx->max_tries > 0xffffffffu ? 0xffffffffu : ctx->max_tries);
}

/* --from, --freeze and --rules into o; returns 0 or an exit status. */
static int load_inputs(const struct gen_ctx *ctx, struct lk_gen_options *o, struct lk_record *from,
		       struct lk_record *freeze, struct lk_strbuf *rules_text)
{
	if (ctx->from) {
		if (read_first_level(ctx->from, from) < 0)
			return 2;
		o->from = from;
	}
	if (ctx->freeze) {
		if (read_first_level(ctx->freeze, freeze) < 0)
			return 2;
		o->freeze = freeze;
	}
	if (ctx->rules) {
		const char *preset = lk_transform_preset(ctx->rules);
		if (preset) {
			lk_strbuf_addstr(rules_text, preset);
		} else if (read_file(ctx->rules, rules_text) < 0) {
			lk_error("%s: not a preset (walls, move, pair, mix, pull, push) and cannot be "
				 "read: %s", ctx->rules, strerror(errno));
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
	if (so->view == LK_VIEW_ANSI) {
		struct lk_view_writer vw;
		lk_view_writer_init(&vw, NULL, LK_VIEW_ANSI, NULL);
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

static int suggest(struct gen_ctx *ctx, struct lk_gen_options *o, const struct lk_record *from)
{
	struct lk_suggest_options so = {
		.k = (unsigned)ctx->suggest,
		.max_candidates = ctx->candidates,
		.max_seconds = ctx->time_limit,
		.timeout_cap = ctx->common.timeout,
		.cancel = &lk_interrupted,
	};
	struct suggest_out out = { .path = NULL, .progress = isatty(2), .view = ctx->view };
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
	if (lk_transform_suggest(o, &rng, &so, print_suggestions, &out, &st, &err) < 0)
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

/* ----------------------------------------------------------------- run */

/* Why the run ended, for the summary. */
enum run_end { END_COUNT, END_INTERRUPTED, END_WRITE_ERROR, END_GAVE_UP, END_WORKER_ERROR };

struct writer_state {
	struct lk_writer writer;
	struct lk_view_writer *view;     /* a picture instead (view.h), or NULL */
	FILE *out;
	const char *out_name;
	struct gen_resume *resume;
	const char *resume_path;
	/* progress line */
	bool progress, stdout_tty;
	double t0, last;
	uint64_t target, written, new_levels, duplicates, failed;
};

static void draw_progress(struct writer_state *ws, const struct gen_run *run, bool force)
{
	if (!ws->progress)
		return;
	double now = lk_now();
	if (!force && now - ws->last < 0.25)
		return;
	double elapsed = now - ws->t0;
	double per_min = elapsed > 0 ? (double)ws->new_levels * 60.0 / elapsed : 0;
	char eta[32];
	format_duration(ws->new_levels ? (double)(ws->target - ws->written) / per_min * 60.0 : NAN,
			eta, sizeof eta);
	struct lk_strbuf stats = LK_STRBUF_INIT;
	describe_stats(&run->stats, &stats);
	fprintf(stderr, "\r\033[K%s: %llu/%llu levels, %s, %.1f/min, %s left", lk_prog,
		(unsigned long long)ws->written, (unsigned long long)ws->target, stats.buf, per_min,
		eta);
	fflush(stderr);
	lk_strbuf_release(&stats);
	ws->last = now;
}

static void clear_progress(struct writer_state *ws)
{
	if (ws->progress)
		fprintf(stderr, "\r\033[K");
}

/* Write a finished level; false on a write error. */
static bool write_level(struct writer_state *ws, struct lk_record *rec)
{
	rec->number = (size_t)ws->written + 1;   /* its place in the output */
	if (ws->resume && ws->resume->torn) {
		struct lk_strbuf text = LK_STRBUF_INIT;
		lk_writer_format(&ws->writer, rec, &text);
		int rc = gen_resume_replace_torn(ws->resume, ws->resume_path, ws->out, text.buf, text.len);
		lk_strbuf_release(&text);
		if (rc < 0)
			return false;
	}
	/* The data and the progress line share the terminal only when
	 * stdout is one: then the line is cleared first and drawn again. */
	if (ws->stdout_tty)
		clear_progress(ws);
	if ((ws->view ? lk_view_writer_put(ws->view, rec) : lk_writer_put(&ws->writer, rec)) < 0) {
		clear_progress(ws);
		lk_error("%s: write error: %s", ws->out_name, strerror(errno));
		return false;
	}
	return true;
}

/* The main thread's loop: write finished levels in index order. */
static enum run_end write_loop(struct gen_run *run, struct writer_state *ws,
			       struct lk_dedupe *seen)
{
	int failed_in_row = 0;
	enum run_end end = END_COUNT;
	pthread_mutex_lock(&run->lock);
	while (ws->written < ws->target) {
		struct slot *slot = &run->slots[run->next_write % run->nslots];
		while (slot->state != SLOT_DONE && !run->stop && !lk_interrupted) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 250000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&run->changed, &run->lock, &ts);
			draw_progress(ws, run, false);
		}
		if (slot->state != SLOT_DONE) {
			/* interrupted, or a worker failed: stop before the first
			 * unfinished index */
			end = run->stop && !lk_interrupted ? END_WORKER_ERROR : END_INTERRUPTED;
			break;
		}
		pthread_mutex_unlock(&run->lock);
		if (!slot->ok && lk_interrupted) {
			/* cut short, not failed: it must be made again on resume */
			pthread_mutex_lock(&run->lock);
			end = END_INTERRUPTED;
			break;
		}
		bool write_failed = false;
		if (slot->ok) {
			failed_in_row = 0;
			struct lk_strbuf err = LK_STRBUF_INIT;
			size_t line;
			struct lk_level_options lo = { 0 };
			struct lk_level *level = lk_level_load(&slot->rec, &lo, &err, &line);
			if (level && lk_dedupe_add(seen, level, &slot->rec)) {
				write_failed = !write_level(ws, &slot->rec);
				if (!write_failed) {
					ws->written++;
					ws->new_levels++;
				}
			} else if (level) {
				ws->duplicates++;
			}
			lk_level_free(level);
			lk_strbuf_release(&err);
		} else {
			ws->failed++;
			failed_in_row++;
		}
		lk_record_release(&slot->rec);
		pthread_mutex_lock(&run->lock);
		slot->state = SLOT_FREE;
		run->next_write++;
		pthread_cond_broadcast(&run->changed);
		draw_progress(ws, run, ws->stdout_tty);
		if (write_failed) {
			end = END_WRITE_ERROR;
			break;
		}
		if (failed_in_row >= MAX_FAILED_IN_ROW) {
			end = END_GAVE_UP;
			break;
		}
	}
	run->stop = true;
	pthread_cond_broadcast(&run->changed);
	pthread_mutex_unlock(&run->lock);
	return end;
}

static void print_summary(const struct gen_run *run, const struct writer_state *ws,
			  enum run_end end, double secs)
{
	static const char *const how[] = {
		[END_COUNT] = "",
		[END_INTERRUPTED] = "interrupted: ",
		[END_WRITE_ERROR] = "stopped by a write error: ",
		[END_GAVE_UP] = "gave up: ",
		[END_WORKER_ERROR] = "stopped by an error: ",
	};
	struct lk_strbuf line = LK_STRBUF_INIT;
	describe_stats(&run->stats, &line);
	lk_error("%s%llu levels written (%llu in all), %s, %llu duplicates dropped, %llu indices "
		 "failed, %.1f s, %.1f levels/min; next index %llu", how[end],
		 (unsigned long long)ws->new_levels, (unsigned long long)ws->written, line.buf,
		 (unsigned long long)ws->duplicates, (unsigned long long)ws->failed, secs,
		 secs > 0 ? (double)ws->new_levels * 60.0 / secs : 0.0,
		 (unsigned long long)index_of(run, run->next_write));
	if (end == END_GAVE_UP)
		lk_error("%d indices in a row found no level within --max-tries candidates (are the "
			 "thresholds reachable?)", MAX_FAILED_IN_ROW);
	lk_strbuf_release(&line);
}

/*
 * Where the levels go.  An existing file is never replaced unless it is
 * the run being resumed (appended to) or --force says so: a night's work
 * must not vanish because of a repeated command line.
 */
static FILE *open_output(const struct gen_ctx *ctx, const struct gen_resume *resumed)
{
	const char *path = ctx->common.output;
	if (!path || strcmp(path, "-") == 0)
		return stdout;
	bool append = ctx->resume && resumed->output_is_resume_file;
	struct stat st;
	if (!append && !ctx->common.force && stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		lk_error("%s: the file exists and holds %lld bytes; --resume %s continues it, "
			 "--force replaces it", path, (long long)st.st_size, path);
		return NULL;
	}
	FILE *out = fopen(path, append ? "a" : "w");
	if (!out)
		lk_error("%s: %s", path, strerror(errno));
	return out;
}

static int run_generation(struct gen_ctx *ctx, const struct lk_generator *gen,
			  struct lk_gen_options *o, enum lk_format format)
{
	struct gen_run run = { .gen = gen, .opt = o, .seed = ctx->seed, .shard = 0, .shards = 1 };
	if (ctx->shard) {
		const char *slash = strchr(ctx->shard, '/');
		char k[32];
		if (!slash || (size_t)(slash - ctx->shard) >= sizeof k)
			lk_usage_error("--shard %s: expected K/N with 0 <= K < N", ctx->shard);
		memcpy(k, ctx->shard, (size_t)(slash - ctx->shard));
		k[slash - ctx->shard] = '\0';
		if (lk_parse_u64(k, &run.shard) < 0 || lk_parse_u64(slash + 1, &run.shards) < 0 ||
		    run.shards == 0 || run.shard >= run.shards)
			lk_usage_error("--shard %s: expected K/N with 0 <= K < N", ctx->shard);
	}
	if (ctx->resume && (format != LK_FORMAT_TEXT || ctx->view))
		lk_usage_error("--resume reads and continues text output; it cannot continue -f %s",
			       ctx->common.format ? ctx->common.format : "html");

	/* Check the options once before starting threads. */
	struct lk_gen_worker check;
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (lk_gen_worker_init(&check, gen, o, &err) < 0) {
		lk_error("%s", err.buf);
		lk_strbuf_release(&err);
		return 2;
	}
	lk_gen_worker_release(&check, gen);
	lk_strbuf_release(&err);

	struct lk_strbuf settings = LK_STRBUF_INIT;
	lk_gen_settings(o, &settings);
	struct lk_dedupe seen;
	lk_dedupe_init(&seen);
	struct gen_resume resumed = { 0 };
	if (ctx->resume) {
		struct gen_resume_run id = { gen, ctx->seed, run.shard, run.shards, settings.buf };
		if (gen_resume_load(&resumed, ctx->resume, &id, &seen, ctx->common.output) < 0) {
			lk_strbuf_release(&settings);
			lk_dedupe_release(&seen);
			return 2;
		}
		run.next_take = run.next_write = resumed.next_seq;
	}
	lk_strbuf_release(&settings);
	FILE *out = open_output(ctx, &resumed);
	if (!out) {
		gen_resume_release(&resumed);
		lk_dedupe_release(&seen);
		return 2;
	}
	struct writer_state ws = {
		.out = out, .out_name = out == stdout ? "<stdout>" : ctx->common.output,
		.resume = ctx->resume ? &resumed : NULL, .resume_path = ctx->resume,
		.progress = isatty(2), .stdout_tty = out == stdout && isatty(1),
		.target = ctx->count, .written = resumed.levels,
	};
	lk_writer_init(&ws.writer, out, format, NULL);
	struct lk_view_writer view_writer;
	if (ctx->view) {
		char *what[] = { (char *)gen->game };
		lk_pipeline_view_open(&view_writer, out, ctx->view, what, 1);
		ws.view = &view_writer;
	}
	if (ctx->common.fields) {
		struct lk_strbuf ferr = LK_STRBUF_INIT;
		if (lk_writer_choose_columns(&ws.writer, ctx->common.fields, &ferr) < 0)
			lk_usage_error("%s", ferr.buf);
		lk_strbuf_release(&ferr);
	}

	run.nslots = 4 * (size_t)ctx->common.jobs;
	run.slots = lk_xcalloc(run.nslots, sizeof *run.slots);
	pthread_mutex_init(&run.lock, NULL);
	pthread_cond_init(&run.changed, NULL);
	lk_pipeline_install_signals();

	unsigned jobs = (unsigned)ctx->common.jobs;
	pthread_t *threads = lk_xcalloc(jobs, sizeof *threads);
	for (unsigned i = 0; i < jobs; i++)
		pthread_create(&threads[i], NULL, worker_main, &run);
	ws.t0 = lk_now();
	draw_progress(&ws, &run, true);
	enum run_end end = write_loop(&run, &ws, &seen);
	for (unsigned i = 0; i < jobs; i++)
		pthread_join(threads[i], NULL);
	for (size_t i = 0; i < run.nslots; i++)
		if (run.slots[i].state == SLOT_DONE)
			lk_record_release(&run.slots[i].rec);

	clear_progress(&ws);
	print_summary(&run, &ws, end, lk_now() - ws.t0);
	int status = end == END_WRITE_ERROR ? 2 : 0;
	if (run.worker_error.len) {
		lk_error("%s", run.worker_error.buf);
		status = 2;
	}
	lk_strbuf_release(&run.worker_error);
	lk_writer_release(&ws.writer);
	if (ws.view) {
		if (end != END_WRITE_ERROR && lk_view_writer_finish(ws.view) < 0) {
			lk_error("%s: write error: %s", ws.out_name, strerror(errno));
			status = 2;
		}
		lk_view_writer_release(ws.view);
	}
	if (out != stdout ? fclose(out) != 0 : fflush(stdout) != 0) {
		if (end != END_WRITE_ERROR)
			lk_error("%s: write error: %s", ws.out_name, strerror(errno));
		status = 2;
	}
	gen_resume_release(&resumed);
	lk_dedupe_release(&seen);
	free(threads);
	free(run.slots);
	pthread_mutex_destroy(&run.lock);
	pthread_cond_destroy(&run.changed);
	if (status)
		return status;
	if (end == END_INTERRUPTED)
		return 130;
	return ws.written >= ctx->count ? 0 : 1;
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
	for (size_t i = 0; lk_generators[i]; i++) {
		const struct lk_generator *g = lk_generators[i];
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
	struct lk_option opts[] = {
		LK_OPT_GROUP_("Generation"),
		{ LK_OPT_U64, 'n', "count", &ctx.count, "n", "levels to write (default 10)", NULL },
		{ LK_OPT_U64, 's', "seed", &ctx.seed, "n", "seed of the run (default 1)", NULL },
		{ LK_OPT_STRING, 'g', "generator", &ctx.generator, "name",
		  "the game's generator (see below; default: its first)", NULL },
		{ LK_OPT_STRING, 0, "size", &ctx.size, "WxH", "grid size (default: the generator's, below)", NULL },
		{ LK_OPT_CALLBACK, 'p', "param", &ctx, "key=value",
		  "generator parameter (see below); repeatable", param_cb },
		{ LK_OPT_U64, 0, "max-tries", &ctx.max_tries, "n",
		  "candidates per level before giving up on it (default 10000)", NULL },
		{ LK_OPT_CALLBACK, 0, "harder", &ctx, NULL,
		  "combination: only add pieces that make the level harder (--param harder=1)", bias_cb },
		{ LK_OPT_CALLBACK, 0, "easier", &ctx, NULL,
		  "combination: only add pieces that make it easier (--param easier=1)", bias_cb },
		LK_OPT_GROUP_("Acceptance"),
		{ LK_OPT_CALLBACK, 0, "min-moves", &ctx.min_moves, "n",
		  "at least n moves (fruit, skiddy default 4)", threshold_cb },
		{ LK_OPT_CALLBACK, 0, "max-moves", &ctx.max_moves, "n", "at most n moves", threshold_cb },
		{ LK_OPT_CALLBACK, 0, "min-pushes", &ctx.min_pushes, "n",
		  "at least n optimal pushes (sokoban backward default 10)", threshold_cb },
		{ LK_OPT_CALLBACK, 0, "max-pushes", &ctx.max_pushes, "n", "at most n optimal pushes", threshold_cb },
		{ LK_OPT_CALLBACK, 0, "min-difficulty", &ctx.min_diff, "x",
		  "difficulty (rate's mean) at least x", threshold_cb },
		{ LK_OPT_CALLBACK, 0, "max-difficulty", &ctx.max_diff, "x", "difficulty at most x", threshold_cb },
		{ LK_OPT_STRING, 0, "difficulty", &ctx.difficulty, "lo:hi", "difficulty band", NULL },
		{ LK_OPT_FLAG, 0, "rate", &ctx.rate, NULL, "also write rate's fields", NULL },
		{ LK_OPT_FLAG, 0, "no-dead-ends", &ctx.no_dead_ends, NULL,
		  "only levels with no dead end (whole-graph analysis)", NULL },
		{ LK_OPT_UINT, 0, "stars", &ctx.stars, "n", "skiddy: star rating at least n (0-3)", NULL },
		{ LK_OPT_UINT, 'k', "runs", &ctx.runs, "k", "shuffled solves when rating (default 50)", NULL },
		LK_OPT_GROUP_("Transformer (MixedAim)"),
		{ LK_OPT_STRING, 0, "from", &ctx.from, "file", "start from the first level of file "
		  "(implies --generator transform)", NULL },
		{ LK_OPT_STRING, 0, "rules", &ctx.rules, "file|preset",
		  "rules file, or walls, move, pair, mix (default), pull, push", NULL },
		{ LK_OPT_STRING, 0, "freeze", &ctx.freeze, "file",
		  "grid whose non-blank cells never change", NULL },
		{ LK_OPT_UINT, 0, "suggest", &ctx.suggest, "k",
		  "one long climb, until Ctrl-C or a limit below; keep and re-print the k hardest levels", NULL },
		{ LK_OPT_U64, 0, "candidates", &ctx.candidates, "n",
		  "--suggest: stop after n candidates", NULL },
		{ LK_OPT_SECONDS, 0, "time-limit", &ctx.time_limit, "secs",
		  "--suggest: stop after this long", NULL },
		LK_OPT_GROUP_("Runs"),
		{ LK_OPT_STRING, 0, "shard", &ctx.shard, "K/N", "only indices K, K+N, K+2N, ...", NULL },
		{ LK_OPT_STRING, 0, "resume", &ctx.resume, "file",
		  "continue the run in file (same options) and never repeat its levels", NULL },
		LK_CLI_COMMON_OPTIONS(ctx.common),
		LK_OPT_END_(),
	};
	struct lk_strbuf help = LK_STRBUF_INIT;
	build_help(&help);
	int first = lk_parse_options(argc, argv, opts, usage, help.buf);
	lk_strbuf_release(&help);
	if (first >= argc) {
		struct lk_strbuf games = LK_STRBUF_INIT;
		lk_game_names(&games, " or ");
		lk_usage_error("which game? (%s)", games.buf);
	}
	if (first + 1 < argc)
		lk_usage_error("unexpected argument '%s'", argv[first + 1]);
	const char *game = argv[first];
	if (!lk_game_find(game)) {
		struct lk_strbuf games = LK_STRBUF_INIT;
		lk_game_names(&games, " or ");
		lk_usage_error("unknown game '%s' (use %s)", game, games.buf);
	}
	if (!ctx.generator && (ctx.from || ctx.rules || ctx.suggest || ctx.freeze))
		ctx.generator = "transform";
	const struct lk_generator *gen = lk_generator_find(game, ctx.generator);
	if (!gen && ctx.generator && strcmp(ctx.generator, "transform") == 0)
		check_options_apply(&ctx, lk_generator_find(game, NULL));
	if (!gen)
		lk_usage_error("game %s has no generator '%s'", game, ctx.generator ? ctx.generator : "");
	check_options_apply(&ctx, gen);
	apply_default_thresholds(&ctx, gen);

	struct lk_pipeline unused = { 0 };
	lk_cli_common_finish(&ctx.common, &unused);
	ctx.view = unused.view;
	struct lk_gen_options o;
	fill_gen_options(&ctx, &o);

	struct lk_record from = LK_RECORD_INIT, freeze = LK_RECORD_INIT;
	struct lk_strbuf rules_text = LK_STRBUF_INIT;
	lk_record_init(&from);
	lk_record_init(&freeze);
	int status = load_inputs(&ctx, &o, &from, &freeze, &rules_text);
	if (status == 0 && ctx.suggest) {
		struct stat st;
		const char *path = ctx.common.output;
		if (path && strcmp(path, "-") != 0 && !ctx.common.force && stat(path, &st) == 0 &&
		    st.st_size > 0) {
			lk_error("%s: the file exists and holds %lld bytes; --force replaces it", path,
				 (long long)st.st_size);
			status = 2;
		} else {
			status = suggest(&ctx, &o, &from);
		}
	} else if (status == 0) {
		status = run_generation(&ctx, gen, &o, unused.format);
	}
	lk_record_release(&from);
	lk_record_release(&freeze);
	lk_strbuf_release(&rules_text);
	free_params(&ctx);
	return status;
}
