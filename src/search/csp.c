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

/* The paper's cut-off: when a level takes fewer than this many nodes with
 * SAC and the GCC, they are turned off so that easy levels are told apart. */
#define FINE_CUTOFF 500

typedef void (*csp_solve_fn)(const struct lk_level *level, const struct lk_csp_options *opt,
			     struct lk_csp_result *r);

/* K runs (K = 0: one in the static order) of measure to the first solution
 * with o's switches: the solved runs' mean and variance (Welford). */
static void measure_runs(const struct lk_level *level, csp_solve_fn measure,
			 const struct lk_csp_options *o, unsigned runs, uint64_t seed,
			 struct lk_csp_rating *out)
{
	struct lk_csp_options ro = *o;
	struct lk_csp_result r;
	double mean = 0, m2 = 0;
	lk_csp_result_init(&r);
	out->runs = out->runs_solved = 0;
	for (unsigned k = 0; k < (runs ? runs : 1); k++) {
		if (o->cancel && *o->cancel)
			break;
		ro.seed = runs ? lk_mix64(seed * 0x100000001b3ULL + k + 1) | 1 : 0;
		measure(level, &ro, &r);
		out->runs++;
		out->nodes = r.nodes;
		if (r.status != LK_SOLVED) {
			if (r.limit != LK_LIMIT_NONE)
				out->limit = r.limit;
			continue;
		}
		double x = (double)r.nodes, d = x - mean;
		out->runs_solved++;
		mean += d / out->runs_solved;
		m2 += d * (x - mean);
	}
	out->mean = mean;
	out->sd = out->runs_solved > 1 ? sqrt(m2 / (out->runs_solved - 1)) : 0.0;
	lk_csp_result_release(&r);
}

/* The measure with the paper's cut-off: first with SAC and the GCC as the
 * caller set them; if that takes fewer than FINE_CUTOFF nodes on average,
 * again with both off. */
static void measure_with_cutoff(const struct lk_level *level, const struct lk_csp_options *base,
				unsigned runs, uint64_t seed, struct lk_csp_rating *out)
{
	const struct lk_csp_ops *csp = level->game->csp;
	csp_solve_fn measure = csp->measure ? csp->measure : csp->solve;
	struct lk_csp_options o = *base;
	o.dynamic = false;   /* the paper's measures are of fixed orders */
	o.count_limit = 1;
	o.visit = NULL;
	memset(out, 0, sizeof *out);
	measure_runs(level, measure, &o, runs, seed, out);
	double size = out->runs_solved ? out->mean : (double)out->nodes;
	if ((o.sac || o.gcc) && out->limit == LK_LIMIT_NONE && size < FINE_CUTOFF) {
		o.sac = o.gcc = false;
		out->fine = true;
		measure_runs(level, measure, &o, runs, seed, out);
	}
}

void lk_csp_difficulty(const struct lk_level *level, const struct lk_csp_options *base,
		       unsigned runs, uint64_t seed, struct lk_csp_rating *out)
{
	measure_with_cutoff(level, base, runs, seed, out);
	out->status = LK_SOLVED;
}

/* Count the solutions (up to the limit) with the solver as configured
 * (counts do not depend on the model), then the single method: one run in
 * the static order.  False when there is nothing to measure. */
static bool count_and_single(const struct lk_level *level, const struct lk_csp_options *base,
			     struct lk_csp_rating *out)
{
	struct lk_csp_options o = *base;
	struct lk_csp_result r;
	memset(out, 0, sizeof *out);
	lk_csp_result_init(&r);
	o.seed = 0;
	level->game->csp->solve(level, &o, &r);
	out->status = r.status;
	out->solutions = r.solutions;
	out->exhausted = r.exhausted;
	out->limit = r.limit;
	lk_csp_result_release(&r);
	if (out->status == LK_UNKNOWN)
		return false;
	/* an unsolvable level's single method is the size of its proof */
	struct lk_csp_rating single;
	measure_with_cutoff(level, base, 0, 0, &single);
	out->single = single.runs_solved ? (uint64_t)single.mean : single.nodes;
	out->fine = single.fine;
	if (single.limit != LK_LIMIT_NONE)
		out->limit = single.limit;
	return out->status == LK_SOLVED;
}

void lk_csp_rate(const struct lk_level *level, const struct lk_csp_options *base, unsigned runs,
		 uint64_t seed, struct lk_csp_rating *out)
{
	if (!count_and_single(level, base, out) || runs == 0)
		return;
	struct lk_csp_rating multi;
	measure_with_cutoff(level, base, runs, seed, &multi);
	out->mean = multi.mean;
	out->sd = multi.sd;
	out->runs = multi.runs;
	out->runs_solved = multi.runs_solved;
	out->fine = multi.fine;
	if (multi.limit != LK_LIMIT_NONE)
		out->limit = multi.limit;
}

void lk_csp_rate_single(const struct lk_level *level, const struct lk_csp_options *base,
			struct lk_csp_rating *out)
{
	if (!count_and_single(level, base, out))
		return;
	out->mean = (double)out->single;
	out->runs = out->runs_solved = 1;
	out->single_method = true;
}
