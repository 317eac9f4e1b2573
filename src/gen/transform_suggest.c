/*
 * transform_suggest.c - the transformer's interactive form (gen
 * --suggest K): suggestions that stay the designer's.  Every candidate is
 * the designer's level (or the suggestion they picked last) with the rules
 * applied a few times, so the suggestions are variations of it, as the
 * thesis's designers steered MixedAim by choosing ("the selection of
 * levels from me reinforces the kind of variations the system makes
 * later"); --climb keeps MixedAim's autonomous climb instead.  The K best
 * distinct ones are kept (by MixedAim's difficulty, or a field or a
 * fact's count the designer chooses), one puzzle is shown once, a
 * concept can be required, and the caller hears every change and, every
 * so often, how the search goes (the thesis's "unresponsiveness").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "transform_internal.h"

#include "levelkit/concept.h"
#include "levelkit/expr.h"
#include "levelkit/fields.h"

struct top {
	struct evaluation *e;     /* best first */
	double *value;            /* their rank values */
	size_t n, k;
};

double lk_suggest_usefulness(const struct lk_suggest_stats *st)
{
	if (!st->candidates)
		return 0.0;
	double share = (double)st->interesting / (double)st->candidates;
	double mean = st->solve_seconds / (double)st->candidates;
	double avg = (1.0 - share) * mean;   /* eq. 4.2, as the thesis writes it */
	return avg > 0 ? 1.0 / avg : INFINITY;
}

double lk_suggest_interesting_per_minute(const struct lk_suggest_stats *st)
{
	return st->seconds > 0 ? 60.0 * (double)st->interesting / st->seconds : 0.0;
}

/* A suggestion's value by the ranking, false when it has none. */
static bool rank_value(const struct lk_suggest_options *so, const struct evaluation *e, double *v)
{
	switch (so->rank) {
	case LK_RANK_DIFFICULTY:
		*v = (double)e->difficulty;
		return true;
	case LK_RANK_COUNT:
		*v = (double)e->fact_count;
		return true;
	case LK_RANK_FIELD:
		break;
	}
	const char *text = lk_record_get(&e->rec, so->rank_name);
	return text && lk_expr_number(text, strlen(text), v);
}

/* The fold key: one puzzle is one solution searched the same way (levels
 * that differ only where no search goes, such as a pocket nobody can
 * reach, walled or not). */
static void fold_key(const struct evaluation *e, struct lk_strbuf *key)
{
	const char *solution = lk_record_get(&e->rec, "solution");
	const char *astar = lk_record_get(&e->rec, "states-astar");
	lk_strbuf_reset(key);
	lk_strbuf_addf(key, "%s/%s", solution ? solution : "", astar ? astar : "");
}

/* Where e would go in the top (top->n when it would not). */
static size_t top_place(const struct top *top, double value)
{
	size_t at = top->n;
	while (at > 0 && top->value[at - 1] < value)
		at--;
	return at < top->k ? at : top->k;
}

/* e is the same level or the same puzzle as a suggestion kept: count it
 * there (variants) and say so. */
static bool top_folds(struct top *top, const struct evaluation *e, struct lk_strbuf *key,
		      struct lk_strbuf *other)
{
	fold_key(e, key);
	for (size_t i = 0; i < top->n; i++) {
		if (strcmp(top->e[i].canonical.buf, e->canonical.buf) == 0)
			return true;
		fold_key(&top->e[i], other);
		if (strcmp(key->buf, other->buf) == 0) {
			const char *v = lk_record_get(&top->e[i].rec, "variants");
			lk_record_setf(&top->e[i].rec, "variants", "%d", v ? atoi(v) + 1 : 2);
			return true;
		}
	}
	return false;
}

static void top_insert(struct top *top, struct evaluation *e, double value, size_t at)
{
	if (top->n == top->k)
		lk_transform_evaluation_release(&top->e[--top->n]);
	memmove(&top->e[at + 1], &top->e[at], (top->n - at) * sizeof *top->e);
	memmove(&top->value[at + 1], &top->value[at], (top->n - at) * sizeof *top->value);
	top->e[at] = *e;
	top->value[at] = value;
	top->n++;
}

static void top_clear(struct top *top)
{
	for (size_t i = 0; i < top->n; i++)
		lk_transform_evaluation_release(&top->e[i]);
	top->n = 0;
}

/* How many cells of a differ from b (same size). */
static long cells_changed(const struct lk_cells *a, const struct lk_cells *b)
{
	long n = 0;
	size_t words = (size_t)a->words;
	for (size_t c = 0; c < (size_t)a->width * (size_t)a->height; c++)
		n += memcmp(a->cell + c * words, b->cell + c * words, words * sizeof *a->cell) != 0;
	return n;
}

/* --require: whether every solution of the suggestion is proved to
 * satisfy the concept; the answer goes into its record either way. */
static bool proved(const struct lk_transform *t, struct lk_solver *solver,
		   const struct lk_suggest_options *so, const struct lk_search_options *bounds,
		   struct evaluation *e)
{
	const struct lk_game *game = t->ops->game;
	struct lk_level_options lo = lk_concept_level_options(game);
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *level = lk_game_load_level(game, &e->rec, &lo, &err, &line);
	bool yes = false;
	if (level && lk_concept_check(level, so->require, &err) == 0) {
		struct lk_concept_result r;
		lk_concept_result_init(&r);
		lk_concept_search(solver, level, so->require, LK_FORALL, bounds, &r);
		lk_fields_concept(&e->rec, LK_FORALL, so->require_text, &r, false);
		yes = r.answer == LK_TRUE;
		lk_concept_result_release(&r);
	}
	lk_level_free(level);
	lk_strbuf_release(&err);
	return yes;
}

/* The live feedback during one long search (a candidate's solves, the
 * designer's level rated at the start, a --require proof): the searches
 * call this every few hundred states, and every so->every seconds the
 * caller hears how the run goes, so its line never stands still. */
struct ticker {
	const struct lk_suggest_options *so;
	void *ctx;
	struct lk_suggest_stats *st;
	double start, next_report;
};

static void ticker_report(struct ticker *tk, double now)
{
	if (!tk->so->progress || !(tk->so->every > 0) || now < tk->next_report)
		return;
	tk->st->seconds = now - tk->start;
	tk->so->progress(tk->ctx, tk->st);
	tk->next_report = now + tk->so->every;
}

static void tick(void *vtk)
{
	ticker_report(vtk, lk_now());
}

/* The bounds of one search: the rating's, its time cut to `limit` (0
 * none) and to what is left of --time-limit, the ticker attached. */
static struct lk_search_options search_bounds(const struct lk_gen_options *o, struct ticker *tk,
					      double limit, double now)
{
	struct lk_search_options b = o->rating.search;
	if (limit > 0)
		b.bounds.max_seconds = limit;
	if (tk->so->bounds.max_seconds > 0) {
		double left = fmax(0.01, tk->start + tk->so->bounds.max_seconds - now);
		if (!(b.bounds.max_seconds > 0) || b.bounds.max_seconds > left)
			b.bounds.max_seconds = left;
	}
	b.tick = tick;
	b.tick_ctx = tk;
	return b;
}

struct climb {
	struct lk_transform *t;
	const struct lk_suggest_options *so;
	struct lk_cells base, cur, next;
	double base_value;        /* the base level's rank value, NaN unknown */
	uint64_t cur_difficulty;  /* --climb */
};

/* One candidate from the base (or, climbing, from the current level):
 * false when the rules could change nothing. */
static bool make_candidate(struct climb *c, struct lk_rng *rng, unsigned *applied)
{
	const struct lk_suggest_options *so = c->so;
	if (so->climb) {
		*applied = 1;
		return lk_transform_mutate(c->t, &c->cur, &c->next, rng);
	}
	unsigned within = so->within ? so->within : 1;
	unsigned times = 1 + (within > 1 ? lk_rng_below(rng, within) : 0);
	lk_transform_copy_cells(&c->cur, &c->base);
	bool changed = false;
	for (unsigned i = 0; i < times; i++) {
		if (lk_transform_mutate(c->t, &c->cur, &c->next, rng)) {
			changed = true;
			lk_transform_copy_cells(&c->cur, &c->next);
		}
	}
	lk_transform_copy_cells(&c->next, &c->cur);
	*applied = times;
	return changed && cells_changed(&c->next, &c->base) > 0;
}

/* The base level's own value, for the interesting threshold. */
static void rate_base(struct climb *c, struct lk_solver *solver, const struct lk_gen_options *o,
		      const struct lk_search_options *bounds)
{
	struct evaluation e;
	c->base_value = NAN;
	lk_transform_evaluate(c->t, solver, &c->base, &o->level, bounds, &e);
	if (e.outcome == OUT_SOLVED) {
		lk_transform_complete(c->t, solver, &o->level, bounds, &e);
		double v;
		if (rank_value(c->so, &e, &v))
			c->base_value = v;
	}
	lk_transform_evaluation_release(&e);
}

int lk_transform_suggest(const struct lk_transform_ops *ops, const struct lk_gen_options *o,
			 struct lk_rng *rng, const struct lk_suggest_options *so, lk_suggest_cb cb,
			 void *ctx, struct lk_suggest_stats *st, struct lk_strbuf *err)
{
	struct lk_transform *t = lk_transform_new(ops, o, err);
	if (!t)
		return -1;
	if (so->rank == LK_RANK_COUNT)
		t->count_fact = so->rank_name;
	struct lk_solver solver;
	lk_solver_init(&solver);
	size_t k = so->k ? so->k : 1;
	struct top top = { lk_xcalloc(k + 1, sizeof *top.e), lk_xcalloc(k + 1, sizeof *top.value), 0, k };
	struct lk_record **view = lk_xcalloc(k, sizeof *view);
	struct climb c = { .t = t, .so = so };
	struct lk_strbuf key = LK_STRBUF_INIT, other = LK_STRBUF_INIT;
	double start = lk_now();
	struct ticker tk = { so, ctx, st, start, start + so->every };
	bool dirty = false;          /* a suggestion counts more variants than shown */
	double shown = start;        /* when cb last ran */
	memset(st, 0, sizeof *st);
	st->first_update = st->last_update = -1;
	st->threshold = NAN;         /* not known while the level is rated */
	lk_transform_start(t, rng, &c.base);
	lk_transform_copy_cells(&c.cur, &c.base);
	/* the threshold of "interesting": given, else the designer's level */
	if (isnan(so->interesting) && !so->climb) {
		double cap = o->rating.search.bounds.max_seconds;
		struct lk_search_options bounds = search_bounds(o, &tk, cap, start);
		rate_base(&c, &solver, o, &bounds);
	} else {
		c.base_value = so->interesting;
	}
	st->threshold = c.base_value;

	while (!lk_bounds_cancelled(&so->bounds)) {
		double now = lk_now();
		st->seconds = now - start;
		if ((so->max_candidates && st->candidates >= so->max_candidates) ||
		    (so->bounds.max_seconds > 0 && now - start >= so->bounds.max_seconds))
			break;
		ticker_report(&tk, now);
		unsigned pick = so->pick && top.n ? so->pick(ctx) : 0;
		if (pick >= 1 && pick <= top.n) {
			/* continue from the chosen suggestion: it is the base now */
			struct lk_cells picked = { 0 };
			struct lk_strbuf why = LK_STRBUF_INIT;
			if (ops->read(t->gs, &top.e[pick - 1].rec, &picked, &why) == 0) {
				picked.frozen = t->frozen;
				picked.cell_ok = ops->cell_ok;
				picked.cell_ok_ctx = t->gs;
				lk_transform_copy_cells(&c.base, &picked);
				lk_transform_copy_cells(&c.cur, &picked);
				if (isnan(so->interesting))
					c.base_value = top.value[pick - 1];
				st->threshold = c.base_value;
				c.cur_difficulty = top.e[pick - 1].difficulty;
				top_clear(&top);
				st->picks++;
				cb(ctx, view, 0, st);
			}
			free(picked.cell);
			lk_strbuf_release(&why);
		}
		unsigned applied = 0;
		if (!make_candidate(&c, rng, &applied)) {
			if (so->climb) {
				/* nothing the rules can do here: start over */
				lk_transform_copy_cells(&c.cur, &c.base);
				c.cur_difficulty = 0;
			}
			if (st->candidates == 0 && !make_candidate(&c, rng, &applied))
				break;
			continue;
		}
		st->candidates++;
		long changed = cells_changed(&c.next, &c.base);
		if (!so->climb && so->max_changes >= 0 && changed > so->max_changes) {
			st->too_far++;
			continue;
		}
		/* MixedAim's adaptive time limit. */
		double limit = 0;
		if (!top.n) {
			limit = fmax(0.02, (now - start) / 10);
		} else {
			for (size_t i = 0; i < top.n; i++)
				limit = fmax(limit, 8 * top.e[i].seconds);
			limit = fmax(limit, 0.02);
		}
		if (o->rating.search.bounds.max_seconds > 0)
			limit = fmin(limit, o->rating.search.bounds.max_seconds);
		struct lk_search_options bounds = search_bounds(o, &tk, limit, now);

		struct evaluation e;
		double t0 = lk_now();
		lk_transform_evaluate(t, &solver, &c.next, &o->level, &bounds, &e);
		switch (e.outcome) {
		case OUT_INVALID: st->invalid++; break;
		case OUT_UNSOLVABLE: st->unsolvable++; break;
		case OUT_TIMEOUT: st->timed_out++; break;
		case OUT_SOLVED_START: st->solved_start++; break;
		case OUT_SOLVED: st->solvable++; break;
		}
		double value = 0;
		bool solved = e.outcome == OUT_SOLVED, ranks = false;
		if (solved) {
			/* MixedAim's difficulty can only fall below A*'s count:
			 * BFS and greedy run only for a level that might rank or
			 * be interesting, as in the thesis */
			double guess;
			bool direct = so->rank != LK_RANK_DIFFICULTY && rank_value(so, &e, &guess);
			if (!direct)
				guess = so->rank == LK_RANK_DIFFICULTY ? (double)e.difficulty : INFINITY;
			bool may_rank = top_place(&top, guess) < top.k;
			bool may_interest = so->rank == LK_RANK_DIFFICULTY && !isnan(c.base_value) &&
					    guess >= c.base_value;
			if ((may_rank && (!direct || lk_range_set(&o->difficulty))) || may_interest)
				lk_transform_complete(t, &solver, &o->level, &bounds, &e);
			bool have = rank_value(so, &e, &value);
			if (have && !isnan(c.base_value) && value >= c.base_value)
				st->interesting++;
			ranks = have && may_rank && top_place(&top, value) < top.k &&
				(!lk_range_set(&o->difficulty) || lk_range_has(&o->difficulty, (double)e.difficulty));
			if (ranks)
				lk_transform_complete(t, &solver, &o->level, &bounds, &e);   /* its fields, shown */
		}
		if (so->climb && solved && e.difficulty >= c.cur_difficulty &&
		    lk_range_has(&o->difficulty, (double)e.difficulty)) {
			lk_transform_copy_cells(&c.cur, &c.next);
			c.cur_difficulty = e.difficulty;
		}
		if (ranks && top_folds(&top, &e, &key, &other)) {
			st->folded++;
			ranks = false;
			dirty = true;
		}
		if (ranks && so->require && !proved(t, &solver, so, &bounds, &e)) {
			st->not_proved++;
			ranks = false;
		}
		st->solve_seconds += lk_now() - t0;
		if (ranks) {
			lk_record_setf(&e.rec, "rank-by", "%.15g", value);
			if (!so->climb) {
				lk_record_setf(&e.rec, "changes", "%ld", changed);
				lk_record_setf(&e.rec, "applications", "%u", applied);
			}
			top_insert(&top, &e, value, top_place(&top, value));
			st->updates++;
			st->seconds = lk_now() - start;
			st->last_update = st->seconds;
			if (st->first_update < 0)
				st->first_update = st->seconds;
			for (size_t i = 0; i < top.n; i++)
				view[i] = &top.e[i].rec;
			cb(ctx, view, top.n, st);
			dirty = false;
			shown = lk_now();
		} else {
			lk_transform_evaluation_release(&e);
		}
		if (dirty && lk_now() - shown > 2.0) {
			/* the variants folded into what is shown */
			cb(ctx, view, top.n, st);
			dirty = false;
			shown = lk_now();
		}
	}
	st->seconds = lk_now() - start;
	if (dirty)
		cb(ctx, view, top.n, st);
	top_clear(&top);
	free(top.e);
	free(top.value);
	free(view);
	free(c.base.cell);
	free(c.cur.cell);
	free(c.next.cell);
	lk_strbuf_release(&key);
	lk_strbuf_release(&other);
	lk_solver_release(&solver);
	lk_transform_free(t);
	return 0;
}
