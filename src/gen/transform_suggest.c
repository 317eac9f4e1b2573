/*
 * transform_suggest.c - the transformer's interactive form (gen
 * --suggest K): one long climb that keeps the K hardest distinct solvable
 * levels and reports every change, with MixedAim's adaptive time limits.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "transform_internal.h"

struct top {
	struct evaluation *e;     /* hardest first */
	size_t n, k;
};

/* Insert e if it ranks and is new; true if the top changed (e is taken). */
static bool top_insert(struct top *top, struct evaluation *e)
{
	for (size_t i = 0; i < top->n; i++)
		if (strcmp(top->e[i].canonical.buf, e->canonical.buf) == 0)
			return false;
	if (top->n == top->k && e->difficulty <= top->e[top->n - 1].difficulty)
		return false;
	if (top->n == top->k)
		lk_transform_evaluation_release(&top->e[--top->n]);
	size_t at = top->n;
	while (at > 0 && top->e[at - 1].difficulty < e->difficulty) {
		top->e[at] = top->e[at - 1];
		at--;
	}
	top->e[at] = *e;
	top->n++;
	return true;
}

int lk_transform_suggest(const struct lk_transform_ops *ops, const struct lk_gen_options *o,
			 struct lk_rng *rng, const struct lk_suggest_options *so, lk_suggest_cb cb,
			 void *ctx, struct lk_suggest_stats *st, struct lk_strbuf *err)
{
	struct lk_transform *t = lk_transform_new(ops, o, err);
	if (!t)
		return -1;
	struct lk_solver solver;
	lk_solver_init(&solver);
	struct top top = { lk_xcalloc(so->k ? so->k : 1, sizeof *top.e), 0, so->k ? so->k : 1 };
	struct lk_record **view = lk_xcalloc(top.k, sizeof *view);
	struct lk_cells cur = { 0 }, next = { 0 };
	uint64_t cur_difficulty = 0;
	double start = lk_now();
	memset(st, 0, sizeof *st);
	st->first_update = -1;
	lk_transform_start(t, rng, &cur);

	while (!(so->cancel && *so->cancel)) {
		double now = lk_now();
		if ((so->max_candidates && st->candidates >= so->max_candidates) ||
		    (so->max_seconds > 0 && now - start >= so->max_seconds))
			break;
		if (!lk_transform_mutate(t, &cur, &next, rng)) {
			/* nothing the rules can do here: start over */
			lk_transform_start(t, rng, &cur);
			cur_difficulty = 0;
			if (st->candidates == 0 && !lk_transform_mutate(t, &cur, &next, rng))
				break;
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
		if (so->timeout_cap > 0)
			limit = fmin(limit, so->timeout_cap);
		struct lk_search_options bounds = o->rating.search;
		bounds.timeout = limit;

		struct evaluation e;
		uint64_t worth = top.n == top.k ? top.e[top.n - 1].difficulty : 0;
		lk_transform_evaluate(t, &solver, &next, &o->level, &bounds, worth, &e);
		st->candidates++;
		switch (e.outcome) {
		case OUT_INVALID: st->invalid++; break;
		case OUT_UNSOLVABLE: st->unsolvable++; break;
		case OUT_TIMEOUT: st->timed_out++; break;
		case OUT_SOLVED_START: st->solved_start++; break;
		case OUT_SOLVED: st->solvable++; break;
		}
		bool solved = e.outcome == OUT_SOLVED && lk_range_has(&o->difficulty, (double)e.difficulty);
		if (solved && e.difficulty >= cur_difficulty) {
			lk_transform_copy_cells(&cur, &next);
			cur_difficulty = e.difficulty;
		}
		if (solved && top_insert(&top, &e)) {
			st->updates++;
			st->seconds = lk_now() - start;
			if (st->first_update < 0)
				st->first_update = st->seconds;
			for (size_t i = 0; i < top.n; i++)
				view[i] = &top.e[i].rec;
			cb(ctx, view, top.n, st);
		} else {
			lk_transform_evaluation_release(&e);
		}
	}
	st->seconds = lk_now() - start;
	for (size_t i = 0; i < top.n; i++)
		lk_transform_evaluation_release(&top.e[i]);
	free(top.e);
	free(view);
	free(cur.cell);
	free(next.cell);
	lk_solver_release(&solver);
	lk_transform_free(t);
	return 0;
}
