/*
 * generate.c - the generator registry and the (seed, index) -> level loop.
 */
#include "levelkit/generate.h"

#include "judge.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/analysis.h"
#include "levelkit/csp.h"
#include "levelkit/difficulty.h"
#include "levelkit/fields.h"
#include "levelkit/game.h"

static const char *const reject_names[] = {
#define LK_X(id, name) name,
	LK_REJECTS(LK_X)
#undef LK_X
};

const char *lk_reject_name(enum lk_reject r)
{
	return r < LK_REJECT_COUNT ? reject_names[r] : "?";
}

enum lk_reject lk_reject_of_limit(enum lk_limit limit)
{
	switch (limit) {
	case LK_LIMIT_STATES: return LK_REJECT_STATES;
	case LK_LIMIT_MEMORY: return LK_REJECT_MEMORY;
	case LK_LIMIT_INTERRUPTED: return LK_REJECT_INTERRUPTED;
	default: return LK_REJECT_TIMEOUT;
	}
}

void lk_range_init(struct lk_range *r)
{
	r->min = -INFINITY;
	r->max = INFINITY;
}

bool lk_range_has(const struct lk_range *r, double v)
{
	return v >= r->min && v <= r->max;
}

bool lk_range_set(const struct lk_range *r)
{
	return r->min != -INFINITY || r->max != INFINITY;
}

void lk_gen_options_init(struct lk_gen_options *o)
{
	memset(o, 0, sizeof *o);
	lk_range_init(&o->moves);
	lk_range_init(&o->pushes);
	lk_range_init(&o->difficulty);
	lk_rate_options_init(&o->rating);
	o->max_tries = 10000;
}

static void add_range(struct lk_strbuf *out, const char *name, const struct lk_range *r)
{
	if (!lk_range_set(r))
		return;
	lk_strbuf_addf(out, " %s=", name);
	if (r->min != -INFINITY)
		lk_strbuf_addf(out, "%.17g", r->min);
	lk_strbuf_addch(out, ':');
	if (r->max != INFINITY)
		lk_strbuf_addf(out, "%.17g", r->max);
}

/* 64-bit FNV-1a: a short stand-in for a text in the settings line. */
static uint64_t text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static void add_record_hash(struct lk_strbuf *out, const char *name, const struct lk_record *rec)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	size_t first, n = lk_record_grid(rec, &first);
	for (size_t i = 0; i < n; i++) {
		lk_strbuf_addstr(&text, rec->lines[first + i].text);
		lk_strbuf_addch(&text, '\n');
	}
	const char *game = lk_record_get(rec, "game");
	if (game)
		lk_strbuf_addstr(&text, game);
	lk_strbuf_addf(out, " %s=%016llx", name, (unsigned long long)text_hash(text.buf));
	lk_strbuf_release(&text);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void lk_gen_settings(const struct lk_generator *g, const struct lk_gen_options *o,
		     struct lk_strbuf *out)
{
	const struct lk_game *game = lk_game_find(g->game);
	bool csp = game && game->csp;
	size_t start = out->len;
	if (o->width || o->height)
		lk_strbuf_addf(out, " size=%dx%d", o->width, o->height);
	/* Parameters sorted by key, each once with its last value (as
	 * lk_gen_param reads them), so the order given does not matter. */
	const char **keys = lk_xcalloc(o->nparams + 1, sizeof *keys);
	size_t nkeys = 0;
	for (size_t i = 0; i < o->nparams; i++) {
		bool dup = false;
		for (size_t j = 0; j < nkeys && !dup; j++)
			dup = strcmp(keys[j], o->param_keys[i]) == 0;
		if (!dup)
			keys[nkeys++] = o->param_keys[i];
	}
	qsort(keys, nkeys, sizeof *keys, cmp_str);
	for (size_t i = 0; i < nkeys; i++)
		lk_strbuf_addf(out, " p.%s=%s", keys[i], lk_gen_param(o, keys[i]));
	free(keys);
	add_range(out, "moves", &o->moves);
	add_range(out, "pushes", &o->pushes);
	add_range(out, "difficulty", &o->difficulty);
	if (o->no_dead_ends)
		lk_strbuf_addstr(out, " no-dead-ends");
	if (o->min_stars)
		lk_strbuf_addf(out, " stars=%d", o->min_stars);
	const struct lk_search_options *so = &o->rating.search;
	if (csp)   /* a constraint solver: no algorithm or direction, a node bound */
		lk_strbuf_addf(out, " tries=%u nodes=%llu time=%.17g", o->max_tries,
			       (unsigned long long)so->max_states, so->timeout);
	else
		lk_strbuf_addf(out, " tries=%u algo=%s direction=%s states=%llu time=%.17g",
			       o->max_tries, lk_algo_name(so->algo), lk_direction_name(so->direction),
			       (unsigned long long)so->max_states, so->timeout);
	if (csp && (o->rate || lk_range_set(&o->difficulty))) {
		/* the multiple method over random square orders: runs and seed */
		lk_strbuf_addf(out, " rate=%u/%llu", o->rating.runs,
			       (unsigned long long)o->rating.seed);
	} else if (o->rate || lk_range_set(&o->difficulty)) {
		const struct lk_rate_options *r = &o->rating;
		lk_strbuf_addf(out, " rate=%u/%s/%llu%s%s", r->runs, lk_algo_name(r->runs_algo),
			       (unsigned long long)r->seed, r->mixedaim ? "" : "/no-mixedaim",
			       r->single ? "/single" : "");
	}
	if (o->from)
		add_record_hash(out, "from", o->from);
	if (o->freeze)
		add_record_hash(out, "freeze", o->freeze);
	if (o->rules)
		lk_strbuf_addf(out, " rules=%016llx", (unsigned long long)text_hash(o->rules));
	if (o->require_text)
		lk_strbuf_addf(out, " require=%016llx",
			       (unsigned long long)text_hash(o->require_text));
	if (o->level.metric)
		lk_strbuf_addf(out, " metric=%s", o->level.metric);
	if (o->level.heuristic)
		lk_strbuf_addf(out, " heuristic=%s", o->level.heuristic);
	if (o->level.plain)
		lk_strbuf_addstr(out, " plain");
	/* drop the leading blank */
	if (out->len > start) {
		memmove(out->buf + start, out->buf + start + 1, out->len - start - 1);
		out->len--;
		out->buf[out->len] = '\0';
	}
}

const char *lk_gen_param(const struct lk_gen_options *o, const char *key)
{
	for (size_t i = o->nparams; i > 0; i--)
		if (strcmp(o->param_keys[i - 1], key) == 0)
			return o->param_values[i - 1];
	return NULL;
}

int lk_gen_param_int(const struct lk_gen_options *o, const char *key, long def, long lo,
		     long hi, long *out, struct lk_strbuf *err)
{
	const char *v = lk_gen_param(o, key);
	*out = def;
	if (!v)
		return 0;
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || !*v || *end || n < lo || n > hi) {
		lk_strbuf_addf(err, "--param %s=%s: expected an integer from %ld to %ld", key, v, lo, hi);
		return -1;
	}
	*out = n;
	return 0;
}

void lk_gen_stats_add(struct lk_gen_stats *into, const struct lk_gen_stats *from)
{
	into->tried += from->tried;
	into->accepted += from->accepted;
	into->failed += from->failed;
	for (int i = 0; i < LK_REJECT_COUNT; i++)
		into->rejected[i] += from->rejected[i];
}

void lk_generator_games_accepting(unsigned bit, struct lk_strbuf *out)
{
	const char *games[32];
	size_t n = 0;
	const struct lk_generator *g;
	for (size_t it = 0; (g = lk_generator_next(&it)) != NULL && n < 32;) {
		bool dup = false;
		for (size_t j = 0; j < n; j++)
			dup |= strcmp(games[j], g->game) == 0;
		if (!dup && (g->accepts & bit))
			games[n++] = g->game;
	}
	for (size_t i = 0; i < n; i++)
		lk_strbuf_addf(out, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", games[i]);
}

const struct lk_generator *lk_generator_next(size_t *it)
{
	/* it = game index * 256 + generator index */
	for (;;) {
		size_t game = *it / 256, gen = *it % 256;
		if (!lk_games[game])
			return NULL;
		const struct lk_generator *const *list = lk_games[game]->generators;
		if (list && list[gen]) {
			(*it)++;
			return list[gen];
		}
		*it = (game + 1) * 256;
	}
}

const struct lk_generator *lk_generator_find(const char *game, const char *name)
{
	const struct lk_game *gm = lk_game_find(game);
	for (size_t i = 0; gm && gm->generators && gm->generators[i]; i++)
		if (!name || strcmp(gm->generators[i]->name, name) == 0)
			return gm->generators[i];
	return NULL;
}

int lk_gen_worker_init(struct lk_gen_worker *w, const struct lk_generator *g,
		       const struct lk_gen_options *o, struct lk_strbuf *err)
{
	lk_solver_init(&w->solver);
	w->state = g->new_state ? g->new_state(o, err) : NULL;
	if (g->new_state && !w->state) {
		lk_solver_release(&w->solver);
		return -1;
	}
	return 0;
}

void lk_gen_worker_release(struct lk_gen_worker *w, const struct lk_generator *g)
{
	if (g->free_state && w->state)
		g->free_state(w->state);
	lk_solver_release(&w->solver);
}

/* out = a title comment, the grid, generator/seed/index, then rec's other
 * lines. */
static void finish_record(const struct lk_generator *g, const struct lk_gen_options *o,
			  uint64_t seed, uint64_t index, const struct lk_record *rec,
			  struct lk_record *out)
{
	struct lk_strbuf line = LK_STRBUF_INIT;
	lk_record_release(out);
	lk_record_init(out);
	lk_strbuf_addf(&line, "; %s %s %llu-%llu", g->game, g->name, (unsigned long long)seed,
		       (unsigned long long)index);
	lk_record_add_line(out, line.buf, 0);
	size_t first, n = lk_record_grid(rec, &first);
	for (size_t i = 0; i < n; i++)
		lk_record_add_line(out, rec->lines[first + i].text, 0);
	if (strcmp(g->game, "sokoban") != 0)
		lk_record_set(out, "game", g->game);
	lk_record_set(out, "generator", g->name);
	lk_record_setf(out, "seed", "%llu", (unsigned long long)seed);
	lk_record_setf(out, "index", "%llu", (unsigned long long)index);
	struct lk_strbuf settings = LK_STRBUF_INIT;
	lk_gen_settings(g, o, &settings);
	lk_record_set(out, "settings", settings.buf);
	lk_strbuf_release(&settings);
	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *l = &rec->lines[i];
		if (l->kind == LK_LINE_GRID ||
		    (l->kind == LK_LINE_FIELD && lk_field_name_eq(l->text, l->name_len, "game")))
			continue;   /* the grid and game are already in place */
		lk_record_add_line(out, l->text, 0);
	}
	lk_strbuf_release(&line);
}

int lk_generate_index(const struct lk_generator *g, struct lk_gen_worker *w,
		      const struct lk_gen_options *o, uint64_t seed, uint64_t index,
		      struct lk_record *out, struct lk_gen_stats *stats)
{
	struct lk_rng rng;
	struct lk_record cand;
	const volatile sig_atomic_t *cancel = o->rating.search.cancel;
	lk_rng_seed2(&rng, seed, index);
	lk_record_init(&cand);
	for (unsigned t = 0; t < o->max_tries; t++) {
		if (cancel && *cancel)
			break;
		enum lk_reject why = LK_REJECT_INVALID;
		lk_record_release(&cand);
		lk_record_init(&cand);
		stats->tried++;
		if (g->candidate(w, o, &rng, &cand, &why) < 0 || lk_judge(w, o, &cand, &why) < 0) {
			stats->rejected[why]++;
			continue;
		}
		finish_record(g, o, seed, index, &cand, out);
		lk_record_release(&cand);
		stats->accepted++;
		return 0;
	}
	lk_record_release(&cand);
	stats->failed++;
	return -1;
}
