/*
 * generator.c - what every game's generator may use (generate.h): the
 * reject reasons, ranges, --param values, the run's settings line, the
 * statistics and a worker's state.  The generation loop that judges the
 * candidates is the act layer's (act/generate.c); finding generators by
 * game is the registry's (games/registry.c).
 */
#include "levelkit/generate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/difficulty.h"
#include "levelkit/game.h"
#include "levelkit/hash.h"

static const char *const reject_names[] = {
#define LK_X(id, name) name,
	LK_REJECTS(LK_X)
#undef LK_X
};

const char *lk_reject_name(enum lk_reject r)
{
	return r < LK_REJECT_COUNT ? reject_names[r] : "?";
}

const char *lk_gen_reject_name(const struct lk_gen_options *o, enum lk_reject r)
{
	for (size_t i = 0; r == LK_REJECT_RATING && i < o->nthresholds; i++)
		if (o->thresholds[i].field->rating && o->thresholds[i].field->too_low)
			return o->thresholds[i].field->too_low;
	return lk_reject_name(r);
}

const struct lk_range *lk_gen_threshold_of(const struct lk_gen_options *o, const char *field)
{
	for (size_t i = 0; i < o->nthresholds; i++)
		if (strcmp(o->thresholds[i].field->name, field) == 0)
			return &o->thresholds[i].range;
	return NULL;
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

/* A short stand-in for a text in the settings line. */
static uint64_t text_hash(const char *s)
{
	return lk_hash_text(s, strlen(s));
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

void lk_gen_settings(const struct lk_game *game, const struct lk_gen_options *o,
		     struct lk_strbuf *out)
{
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
	for (size_t i = 0; i < o->nthresholds; i++)
		if (!o->thresholds[i].field->rating)
			add_range(out, o->thresholds[i].field->name, &o->thresholds[i].range);
	add_range(out, "difficulty", &o->difficulty);
	if (o->no_dead_ends)
		lk_strbuf_addstr(out, " no-dead-ends");
	for (size_t i = 0; i < o->nthresholds; i++)
		if (o->thresholds[i].field->rating)
			lk_strbuf_addf(out, " %s=%.17g", o->thresholds[i].field->name,
				       o->thresholds[i].range.min);
	const struct lk_search_options *so = &o->rating.search;
	if (csp)   /* a constraint solver: no algorithm or direction, a node bound */
		lk_strbuf_addf(out, " tries=%u nodes=%llu time=%.17g", o->max_tries,
			       (unsigned long long)so->bounds.max_states, so->bounds.max_seconds);
	else
		lk_strbuf_addf(out, " tries=%u algo=%s direction=%s states=%llu time=%.17g",
			       o->max_tries, lk_algo_name(so->algo), lk_direction_name(so->direction),
			       (unsigned long long)so->bounds.max_states, so->bounds.max_seconds);
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
	if (o->combine)
		add_record_hash(out, o->combine_below ? "combine-below" : "combine", o->combine);
	if (o->rules)
		lk_strbuf_addf(out, " rules=%016llx", (unsigned long long)text_hash(o->rules));
	if (o->require_text)
		lk_strbuf_addf(out, " require=%016llx",
			       (unsigned long long)text_hash(o->require_text));
	if (o->level.metric)
		lk_strbuf_addf(out, " metric=%s", o->level.metric);
	if (o->level.heuristic)
		lk_strbuf_addf(out, " heuristic=%s", o->level.heuristic);
	if (o->level.thesis)
		lk_strbuf_addstr(out, " measure=thesis");
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
