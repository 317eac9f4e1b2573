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
 * with o's switches: runs, runs_solved, the solved runs' mean and variance
 * (Welford), bound (every run's nodes over the runs asked for), limits;
 * the first solution found into solution when it is empty.  *last is the
 * last run's nodes (an unsolvable level's proof). */
static void measure_runs(const struct lk_level *level, csp_solve_fn measure,
			 const struct lk_csp_options *o, unsigned runs, uint64_t seed,
			 struct lk_csp_rating *out, struct lk_strbuf *solution, uint64_t *last)
{
	struct lk_csp_options ro = *o;
	struct lk_csp_result r;
	double mean = 0, m2 = 0, sum = 0;
	lk_csp_result_init(&r);
	out->runs = out->runs_solved = 0;
	*last = 0;
	for (unsigned k = 0; k < (runs ? runs : 1); k++) {
		if (lk_bounds_cancelled(&o->bounds))
			break;
		/* as lk_rate: runs that all fail are not worth K time limits */
		if (out->runs >= 3 && out->runs_solved == 0)
			break;
		ro.seed = runs ? lk_mix64(seed * 0x100000001b3ULL + k + 1) | 1 : 0;
		measure(level, &ro, &r);
		out->runs++;
		sum += (double)r.nodes;
		*last = r.nodes;
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
	out->bound = sum / (runs ? runs : 1);   /* a run not made counts 0 */
	lk_csp_result_release(&r);
}

/* The measure with the paper's cut-off, in the game's measure model: first
 * with SAC and the GCC as the caller set them; if that takes fewer than
 * FINE_CUTOFF nodes on average (every run solved, no bound hit), again
 * with both off.  *size is the mean, or the last run's nodes when no run
 * solved. */
static void measure_with_cutoff(const struct lk_level *level, const struct lk_csp_options *base,
				unsigned runs, uint64_t seed, struct lk_csp_rating *out,
				struct lk_strbuf *solution, double *size)
{
	const struct lk_csp_ops *csp = level->game->csp;
	csp_solve_fn measure = csp->measure ? csp->measure : csp->solve;
	struct lk_csp_options o = *base;
	uint64_t last;
	o.dynamic = false;   /* the paper's measures are of fixed orders */
	o.count_limit = 1;
	o.visit = NULL;
	measure_runs(level, measure, &o, runs, seed, out, solution, &last);
	*size = out->runs_solved ? out->mean : (double)last;
	if ((o.sac || o.gcc) && !out->limits && out->runs_solved == out->runs && *size < FINE_CUTOFF) {
		o.sac = o.gcc = false;
		out->fine = true;
		measure_runs(level, measure, &o, runs, seed, out, solution, &last);
		*size = out->runs_solved ? out->mean : (double)last;
	}
}

void lk_csp_difficulty(const struct lk_level *level, const struct lk_csp_options *base,
		       unsigned runs, uint64_t seed, struct lk_csp_rating *out)
{
	double size;
	memset(out, 0, sizeof *out);
	out->runs_wanted = runs;
	measure_with_cutoff(level, base, runs, seed, out, NULL, &size);
	out->status = LK_SOLVED;
}

/* lk_csp_rate, lk_csp_rate_solution: the counting solve (csp->solve as
 * `base` configures it: counts do not depend on the model), then the
 * single method (one run in the static order) and `runs` runs, both in the
 * measure model with the cut-off.  `undecided` runs a level the counting
 * solve left undecided too. */
static void rate(const struct lk_level *level, const struct lk_csp_options *base, unsigned runs,
		 uint64_t seed, bool undecided, struct lk_csp_rating *out, struct lk_strbuf *solution)
{
	const struct lk_csp_ops *csp = level->game->csp;
	struct lk_csp_options o = *base;
	struct lk_csp_result r;
	o.dynamic = false;
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
	lk_csp_result_release(&r);
	if (out->status != LK_SOLVED && !(undecided && out->status == LK_UNKNOWN))
		return;
	struct lk_csp_rating single = { 0 };
	double size;
	measure_with_cutoff(level, base, 0, 0, &single, NULL, &size);
	out->single = (uint64_t)size;
	out->fine = single.fine;
	if (runs == 0) {
		out->limits |= single.limits;
		return;
	}
	struct lk_csp_rating multi = { 0 };
	measure_with_cutoff(level, base, runs, seed, &multi, solution, &size);
	out->mean = multi.mean;
	out->sd = multi.sd;
	out->runs = multi.runs;
	out->runs_solved = multi.runs_solved;
	out->bound = multi.bound;
	out->fine = multi.fine;
	out->limits |= multi.limits;
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
