/*
 * csp.c - options, results and the multiple-method difficulty of
 * constraint games (see csp.h).
 */
#include "levelkit/csp.h"
#include "levelkit/difficulty.h"

#include <math.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/rng.h"

void lk_csp_options_init(struct lk_csp_options *o)
{
	memset(o, 0, sizeof *o);
	o->count_limit = 2;
	o->gcc = true;
	o->sac = true;
	o->symmetry = true;
	o->dynamic = true;
}

bool lk_csp_flag(const struct lk_csp_options *o, const char *name)
{
	for (const char *const *f = o->flags; f && *f; f++)
		if (strcmp(*f, name) == 0)
			return true;
	return false;
}

void lk_csp_result_init(struct lk_csp_result *r)
{
	memset(r, 0, sizeof *r);
	r->status = LK_UNKNOWN;
	lk_strbuf_init(&r->solution);
	lk_strbuf_init(&r->second);
}

void lk_csp_result_release(struct lk_csp_result *r)
{
	lk_strbuf_release(&r->solution);
	lk_strbuf_release(&r->second);
	lk_csp_result_init(r);
}

/* The paper's cut-off: below this many nodes with SAC and the GCC, they
 * are turned off so that easy levels are told apart. */
#define FINE_CUTOFF 500

/* lk_csp_rate, lk_csp_rate_solution: `undecided` runs a level the
 * counting solve left undecided too. */
static void rate(const struct lk_level *level, const struct lk_csp_options *base, unsigned runs,
		 uint64_t seed, bool undecided, struct lk_csp_rating *out, struct lk_strbuf *solution)
{
	const struct lk_csp_ops *csp = level->game->csp;
	struct lk_csp_options o = *base;
	struct lk_csp_result r;
	o.dynamic = false;   /* the paper's measures are of fixed orders */
	memset(out, 0, sizeof *out);
	out->runs_wanted = runs;
	lk_csp_result_init(&r);

	/* Count the solutions (up to the limit), static order. */
	o.seed = 0;
	csp->solve(level, &o, &r);
	out->status = r.status;
	out->solutions = r.solutions;
	out->exhausted = r.exhausted;
	out->limit = r.limit;
	if (r.status == LK_UNKNOWN)
		out->limits |= LK_LIMIT_BIT(r.limit);
	out->single = r.nodes_to_first ? r.nodes_to_first : r.nodes;
	if (solution && r.solutions)
		lk_strbuf_addstr(solution, r.solution.buf);
	if (r.status != LK_SOLVED && !(undecided && r.status == LK_UNKNOWN)) {
		lk_csp_result_release(&r);
		return;
	}
	/* Runs stop at the first solution; SAC and GCC only for hard levels. */
	o.count_limit = 1;
	if (r.status == LK_SOLVED && out->single < FINE_CUTOFF) {
		o.sac = o.gcc = false;
		out->fine = true;
		csp->solve(level, &o, &r);
		out->single = r.nodes;
	}
	double mean = 0, m2 = 0, sum = 0;
	for (unsigned k = 0; k < runs; k++) {
		if (base->cancel && *base->cancel)
			break;
		/* as lk_rate: runs that all fail are not worth K time limits */
		if (out->runs >= 3 && out->runs_solved == 0)
			break;
		o.seed = lk_mix64(seed * 0x100000001b3ULL + k + 1) | 1;
		csp->solve(level, &o, &r);
		out->runs++;
		sum += (double)r.nodes;
		if (r.status == LK_UNKNOWN)
			out->limits |= LK_LIMIT_BIT(r.limit);
		if (r.status != LK_SOLVED)
			continue;
		if (solution && !solution->len)
			lk_strbuf_addstr(solution, r.solution.buf);
		double x = (double)r.nodes, d = x - mean;
		out->runs_solved++;
		mean += d / out->runs_solved;
		m2 += d * (x - mean);
	}
	out->mean = mean;
	out->sd = out->runs_solved > 1 ? sqrt(m2 / (out->runs_solved - 1)) : 0.0;
	out->bound = runs ? sum / runs : 0.0;   /* a run not made counts 0 */
	lk_csp_result_release(&r);
}

void lk_csp_rate(const struct lk_level *level, const struct lk_csp_options *base, unsigned runs,
		 uint64_t seed, struct lk_csp_rating *out)
{
	rate(level, base, runs, seed, false, out, NULL);
}

void lk_csp_rate_solution(const struct lk_level *level, const struct lk_csp_options *base,
			  unsigned runs, uint64_t seed, struct lk_csp_rating *out,
			  struct lk_strbuf *solution)
{
	rate(level, base, runs, seed, true, out, solution);
}

void lk_csp_rate_single_solution(const struct lk_level *level, const struct lk_csp_options *base,
				 struct lk_csp_rating *out, struct lk_strbuf *solution)
{
	rate(level, base, 0, 0, false, out, solution);
	if (out->status == LK_UNSOLVABLE)
		return;
	/* undecided: the nodes searched before the bound are a lower bound */
	out->bound = (double)out->single;
	out->runs = out->runs_wanted = 1;
	out->single_method = true;
	if (out->status != LK_SOLVED)
		return;
	out->mean = out->bound;
	out->runs_solved = 1;
}

void lk_csp_rate_single(const struct lk_level *level, const struct lk_csp_options *base,
			struct lk_csp_rating *out)
{
	lk_csp_rate_single_solution(level, base, out, NULL);
}
