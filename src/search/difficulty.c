/*
 * difficulty.c - the two difficulty measures of difficulty.h.
 */
#include "levelkit/difficulty.h"

#include <math.h>
#include <string.h>

#include "levelkit/rating.h"

static const struct {
	const char *name;
	double below;
} grades[] = {
#define LK_X(id, name, below) { name, below },
	LK_GRADES(LK_X)
#undef LK_X
};

const char *lk_grade_name(enum lk_grade grade)
{
	return grade < LK_GRADE_COUNT ? grades[grade].name : "?";
}

enum lk_grade lk_grade_of(double rating)
{
	for (int g = 0; g < LK_GRADE_COUNT; g++)
		if (rating < grades[g].below)
			return (enum lk_grade)g;
	return (enum lk_grade)(LK_GRADE_COUNT - 1);
}

void lk_rate_options_init(struct lk_rate_options *o)
{
	struct lk_search_options s = LK_SEARCH_OPTIONS_INIT;
	memset(o, 0, sizeof *o);
	o->search = s;
	o->mixedaim = true;
	o->runs = 50;
	o->runs_algo = LK_ALGO_GREEDY;
	o->seed = 1;
}

void lk_rating_init(struct lk_rating *r)
{
	memset(r, 0, sizeof *r);
	lk_search_result_init(&r->optimal);
	lk_search_result_init(&r->other);
	for (int a = 0; a < LK_ALGO_COUNT; a++)
		r->status[a] = LK_UNKNOWN;
}

void lk_rating_release(struct lk_rating *r)
{
	lk_search_result_release(&r->optimal);
	lk_search_result_release(&r->other);
	lk_rating_init(r);
}

/* What every search tells whatever it measured: a bound it hit, a proof
 * that the level has no solution, a lower bound on the optimal cost, and
 * (when the optimal solve did not
 * solve the level) a better solution than the one kept so far: proved
 * optimal first, then cheaper.  A kept solution is taken from res, which
 * the next search releases. */
static void learn(struct lk_rating *r, struct lk_search_result *res)
{
	if (res->status == LK_UNKNOWN)
		r->limits |= LK_LIMIT_BIT(res->limit);
	if (res->status == LK_UNSOLVABLE)
		r->unsolvable = true;
	if (res->has_floor && (!r->has_floor || res->floor > r->floor)) {
		r->has_floor = true;
		r->floor = res->floor;
	}
	if (res->has_depth && (!r->has_depth || res->depth > r->depth)) {
		r->has_depth = true;
		r->depth = res->depth;
	}
	if (res->status != LK_SOLVED || r->optimal.status == LK_SOLVED)
		return;
	const struct lk_search_result *o = &r->other;
	bool better = o->status != LK_SOLVED || (res->optimal && !o->optimal) ||
		      (res->optimal == o->optimal && res->cost < o->cost);
	if (better) {
		struct lk_search_result t = r->other;
		r->other = *res;
		*res = t;
	}
}

static void record_mixedaim(struct lk_rating *r, enum lk_algo a, const struct lk_search_result *res)
{
	r->ran[a] = true;
	r->status[a] = res->status;
	r->explored[a] = res->expanded;
	if (res->status == LK_SOLVED)
		r->cost[a] = res->cost;
	if (res->status == LK_SOLVED && (!r->min_known || res->expanded < r->min_explored)) {
		r->min_known = true;
		r->min_explored = res->expanded;
	}
}

static bool cancelled(const struct lk_rate_options *opt)
{
	return lk_bounds_cancelled(&opt->search.bounds);
}

void lk_rate(struct lk_solver *solver, const struct lk_level *level,
	     const struct lk_rate_options *opt, struct lk_rating *r)
{
	struct lk_search_options so = opt->search;
	struct lk_search_result res;
	lk_search_result_init(&res);
	lk_rating_release(r);
	r->single = opt->single;
	r->runs_wanted = opt->single ? 1 : opt->runs;

	/* The optimal solve (A* unless the caller chose otherwise) comes first: it settles solvability, and an
	 * unsolvable level has no difficulty to measure. */
	so.seed = 0;
	so.algo = opt->search.algo;
	if (so.algo == LK_ALGO_AUTO)
		so.algo = LK_ALGO_ASTAR;
	if (so.algo == LK_ALGO_ASTAR && !(level->has_heuristic && level->heuristic_admissible))
		so.algo = level->weighted ? LK_ALGO_UCS : LK_ALGO_BFS;
	so.no_meeting = true;   /* the A* state count as the model was fitted on */
	lk_solver_run(solver, level, &so, &r->optimal);
	so.no_meeting = opt->search.no_meeting;
	learn(r, &r->optimal);
	if (r->unsolvable)
		return;

	if (opt->mixedaim) {
		/* MixedAim's solvers search forwards only. */
		bool reuse = opt->search.direction == LK_FORWARD;
		enum lk_algo optimal_algo = so.algo;
		so.direction = LK_FORWARD;
		r->have_mixedaim = true;
		if (reuse)
			record_mixedaim(r, so.algo, &r->optimal);
		enum lk_algo others[] = { LK_ALGO_BFS, LK_ALGO_ASTAR, LK_ALGO_GREEDY };
		for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
			if (reuse && others[i] == optimal_algo)
				continue;
			if (others[i] != LK_ALGO_BFS && !level->has_heuristic)
				continue;
			if (cancelled(opt))
				break;
			so.algo = others[i];
			lk_solver_run(solver, level, &so, &res);
			record_mixedaim(r, others[i], &res);
			learn(r, &res);
			if (r->unsolvable)
				goto done;
		}
	}

	/* Welford's running mean and variance over the solved runs, and the
	 * plain sum over all of them for the bound. */
	double mean = 0.0, m2 = 0.0, sum = 0.0;
	so.algo = opt->runs_algo;
	so.direction = opt->search.direction;
	/* the rating's effort is the mean of the first runs of greedy search */
	r->effort_runs = !opt->single && opt->runs_algo == LK_ALGO_GREEDY;
	for (unsigned k = 0; k < r->runs_wanted; k++) {
		if (cancelled(opt))
			break;
		/* Runs that keep hitting bounds would only burn the time limit
		 * K times over: give up after a few. */
		if (r->runs_unknown >= 3 && r->runs_solved == 0)
			break;
		so.seed = opt->single ? 0 : lk_mix64(opt->seed * 0x100000001b3ULL + k + 1) | 1;
		lk_solver_run(solver, level, &so, &res);
		double x = (double)res.expanded;
		bool solved = res.status == LK_SOLVED;
		if (r->effort_runs && k < LK_EFFORT_RUNS) {
			r->effort_made++;
			r->effort_solved += solved;
			r->effort_sum += x;
			r->effort_sq += x * x;
			if (solved)
				r->effort_cost += (double)res.cost;
		}
		learn(r, &res);   /* may take res's solution */
		if (r->unsolvable)
			goto done;
		r->runs++;
		sum += x;
		if (!solved) {
			r->runs_unknown++;
			continue;
		}
		double d = x - mean;
		r->runs_solved++;
		mean += d / r->runs_solved;
		m2 += d * (x - mean);
	}
	r->mean = mean;
	r->sd = r->runs_solved > 1 ? sqrt(m2 / (r->runs_solved - 1)) : 0.0;
	/* a run not made counts 0: every run explores at least that */
	r->bound = r->runs_wanted ? sum / r->runs_wanted : 0.0;
	/* No search solved it: the game's search for any solution, with the
	 * same bounds, so that the level gets an answer (not optimal). */
	if (r->optimal.status != LK_SOLVED && r->other.status != LK_SOLVED && !opt->no_fallback &&
	    level->game->solve_any && !cancelled(opt)) {
		so = opt->search;
		so.algo = LK_ALGO_ANY;
		lk_solver_run(solver, level, &so, &res);
		res.fallback = true;
		learn(r, &res);
	}
done:
	lk_search_result_release(&res);
}
