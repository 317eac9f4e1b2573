/*
 * rating_features.c - the features the rating is made of (rating.h),
 * through the game interface only: the searches lk_rate ran, the effort
 * runs, a walk along the solution, the game's own counts; and a
 * constraint game's from its rating.  The graph features are in
 * rating_graph.c.
 */
#include "levelkit/rating.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *field, *unit, *what;
} features[] = {
#define LK_X(id, name, unit, what) { name, "f-" name, unit, what },
	LK_FEATURES(LK_X)
#undef LK_X
};

const char *lk_feature_field(enum lk_feature f)
{
	return f < LK_F_COUNT ? features[f].field : "?";
}

const char *lk_feature_name(enum lk_feature f)
{
	return f < LK_F_COUNT ? features[f].name : "?";
}

const char *lk_feature_unit(enum lk_feature f)
{
	return f < LK_F_COUNT ? features[f].unit : "";
}

const char *lk_feature_what(enum lk_feature f)
{
	return f < LK_F_COUNT ? features[f].what : "?";
}

void lk_features_init(struct lk_features *f)
{
	memset(f, 0, sizeof *f);
}

void lk_feature_set(struct lk_features *f, enum lk_feature id, enum lk_known how, double v)
{
	f->how[id] = how;
	f->value[id] = v;
}

/* ------------------------------------------------------------ the walk */

/* Successor buffers and scratch for looking at states one at a time. */
struct walker {
	const struct lk_level *level;
	void *scratch;
	unsigned char *keys;
	struct lk_edge *edges;
};

static void walker_init(struct walker *w, const struct lk_level *level)
{
	w->level = level;
	w->scratch = lk_xcalloc(1, level->scratch_size ? level->scratch_size : 1);
	w->keys = lk_xcalloc((size_t)level->max_successors + 1, level->key_size ? level->key_size : 1);
	w->edges = lk_xcalloc((size_t)level->max_successors + 1, sizeof *w->edges);
}

static void walker_release(struct walker *w)
{
	free(w->scratch);
	free(w->keys);
	free(w->edges);
}

static bool has_bound(const struct lk_level *level)
{
	return level->game->heuristic && level->has_heuristic;
}

/* What greedy search ranks a state by: the game's estimate, else its
 * heuristic. */
static unsigned rank_of(const struct walker *w, const void *key)
{
	const struct lk_game *g = w->level->game;
	if (g->estimate)
		return g->estimate(w->level, key, w->scratch);
	return g->heuristic(w->level, key, w->scratch);
}

/* The successor of the state in w->keys that is next (or, for the last key
 * of a path found backwards, which stands for any goal state, a goal), or
 * -1. */
static int find_next(const struct walker *w, unsigned n, const void *next, bool last)
{
	size_t ks = w->level->key_size;
	for (unsigned i = 0; i < n; i++)
		if (memcmp(w->keys + (size_t)i * ks, next, ks) == 0)
			return (int)i;
	for (unsigned i = 0; last && i < n; i++)
		if (w->level->game->is_goal(w->level, w->keys + (size_t)i * ks))
			return (int)i;
	return -1;
}

/* The most objects left part-way while another moves: at each step that
 * moves an object, the other objects moved before it and again after it
 * (a person keeps them in mind, half done); the greatest count over the
 * solution.  0 when the objects are solved one at a time (A A B B), 1 for
 * A B A.  seq holds the object of each step that moved one, in order. */
unsigned lk_rating_juggle(const uint16_t *seq, size_t n, size_t nobjects)
{
	if (!n || !nobjects)
		return 0;
	size_t *first = lk_xcalloc(nobjects, sizeof *first), *last = lk_xcalloc(nobjects, sizeof *last);
	long *delta = lk_xcalloc(n + 1, sizeof *delta);
	for (size_t i = 0; i < nobjects; i++)
		first[i] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		if (seq[i] >= nobjects)
			continue;
		if (first[seq[i]] == SIZE_MAX)
			first[seq[i]] = i;
		last[seq[i]] = i;
	}
	/* object b is open at the steps strictly between its first and last */
	for (size_t b = 0; b < nobjects; b++)
		if (first[b] != SIZE_MAX && last[b] > first[b] + 1) {
			delta[first[b] + 1]++;
			delta[last[b]]--;
		}
	long open = 0;
	unsigned most = 0;
	for (size_t i = 0; i < n; i++) {
		open += delta[i];
		if (seq[i] >= nobjects)
			continue;   /* a step of nothing the game counts */
		long others = open;
		if (first[seq[i]] < i && i < last[seq[i]])
			others--;   /* the object moving now is not left part-way */
		if (others > (long)most)
			most = (unsigned)others;
	}
	free(first);
	free(last);
	free(delta);
	return most;
}

/* Walk the solution: its choices, its steps against greedy search's
 * ranking, the steps that raise the bound (a step that leaves it as it is,
 * a walk in the moves metric, is not one: the count is the same in every
 * metric), and the objects it moves (games that
 * track them: game->track_move).  Exact for an optimal solution, else
 * (how AT_MOST) of a solution that may not be the one a person finds. */
static void walk_solution(struct walker *w, const unsigned char *path, size_t nkeys,
			  enum lk_known how, struct lk_features *f)
{
	const struct lk_level *level = w->level;
	const struct lk_game *g = level->game;
	size_t ks = level->key_size;
	bool ranked = has_bound(level);
	size_t tsize = g->track_size && g->track_start && g->track_move ? g->track_size(level) : 0;
	unsigned char *track = tsize ? lk_xcalloc(1, tsize) : NULL;
	uint8_t *seen = lk_xcalloc(level->nfacts ? level->nfacts : 1, 1);
	uint16_t *seq = tsize ? lk_xcalloc(nkeys ? nkeys : 1, sizeof *seq) : NULL;
	size_t nseq = 0;
	if (track)
		g->track_start(level, track);
	unsigned long steps = 0, choices = 0, against = 0, uphill = 0, sessions = 0, moved = 0;
	uint16_t last_obj = UINT16_MAX;
	unsigned hc = ranked && nkeys ? g->heuristic(level, path, w->scratch) : 0;
	for (size_t i = 0; i + 1 < nkeys; i++) {
		const unsigned char *cur = path + i * ks, *next = cur + ks;
		unsigned n = g->successors(level, cur, w->scratch, w->keys, w->edges);
		int j = find_next(w, n, next, i + 2 == nkeys);
		if (j < 0 && g->whole_successors) {
			/* a step the forward pruning leaves out (a path found
			 * backwards need not follow it): that step's choices are
			 * counted among the whole successors */
			n = g->whole_successors(level, cur, w->scratch, w->keys, w->edges);
			j = find_next(w, n, next, i + 2 == nkeys);
		}
		if (j < 0)
			break;   /* not a path of this level: the rest is not known */
		const unsigned char *taken = w->keys + (size_t)j * ks;
		steps++;
		choices += n;
		if (ranked) {
			/* ranked before the successor buffer is reused */
			unsigned best = LK_H_DEAD, mine = rank_of(w, taken);
			for (unsigned k = 0; k < n; k++) {
				unsigned e = rank_of(w, w->keys + (size_t)k * ks);
				if (e < best)
					best = e;
			}
			against += mine > best;
			unsigned hn = g->is_goal(level, taken) ? 0 : g->heuristic(level, taken, w->scratch);
			uphill += hn > hc;
			hc = hn;
		}
		if (track) {
			uint16_t facts[4];
			unsigned nf = g->track_move(level, cur, w->edges[j].move, track, facts, 4);
			if (nf) {
				sessions += facts[0] != last_obj;
				last_obj = facts[0];
				seq[nseq++] = facts[0];
				if (facts[0] < level->nfacts && !seen[facts[0]]) {
					seen[facts[0]] = 1;
					moved++;
				}
			}
		}
	}
	bool whole = steps + 1 == nkeys;
	unsigned juggle = whole ? lk_rating_juggle(seq, nseq, level->nfacts) : 0;
	free(seq);
	free(seen);
	free(track);
	if (!whole || !steps)
		return;
	lk_feature_set(f, LK_F_BRANCHING, how, (double)choices / (double)steps);
	if (ranked) {
		lk_feature_set(f, LK_F_AGAINST, how, (double)against);
		lk_feature_set(f, LK_F_UPHILL, how, (double)uphill);
	}
	if (tsize) {
		lk_feature_set(f, LK_F_MOVED, how, (double)moved);
		lk_feature_set(f, LK_F_SESSIONS, how, (double)sessions);
		lk_feature_set(f, LK_F_JUGGLE, how, (double)juggle);
	}
}

/* ------------------------------------------------------------ effort */

/* The effort runs, made here when rate's runs were not they (another
 * algorithm, the single method, none): the same seeds as lk_rate's. */
static void effort_runs(struct lk_solver *solver, const struct lk_level *level,
			const struct lk_feature_options *o, struct lk_rating *own)
{
	struct lk_search_result res;
	lk_search_result_init(&res);
	struct lk_search_options so = o->search;
	so.algo = LK_ALGO_GREEDY;
	own->effort_runs = true;
	for (unsigned k = 0; k < LK_EFFORT_RUNS; k++) {
		if (lk_bounds_cancelled(&so.bounds)) {
			own->limits |= LK_LIMIT_BIT(LK_LIMIT_INTERRUPTED);   /* runs not made */
			break;
		}
		if (own->effort_made - own->effort_solved >= 3 && own->effort_solved == 0)
			break;
		so.seed = lk_mix64(o->seed * 0x100000001b3ULL + k + 1) | 1;
		lk_solver_run(solver, level, &so, &res);
		double x = (double)res.expanded;
		own->effort_made++;
		own->effort_solved += res.status == LK_SOLVED;
		if (res.status == LK_UNKNOWN && res.limit != LK_LIMIT_NONE)
			own->limits |= LK_LIMIT_BIT(res.limit);
		own->effort_sum += x;
		own->effort_sq += x * x;
		if (res.status == LK_SOLVED)
			own->effort_cost += (double)res.cost;
	}
	lk_search_result_release(&res);
}

static void set_effort(const struct lk_rating *r, const struct lk_features *known,
		       struct lk_features *f)
{
	if (!r->effort_made)
		return;
	double mean = r->effort_sum / r->effort_made;
	if (r->effort_solved == LK_EFFORT_RUNS) {
		double var = r->effort_sq / r->effort_made - mean * mean;
		lk_feature_set(f, LK_F_EFFORT, LK_KNOWN_EXACT, mean);
		lk_feature_set(f, LK_F_SPREAD, LK_KNOWN_EXACT,
			       mean > 0 && var > 0 ? sqrt(var) / mean : 0.0);
		if (known->how[LK_F_LENGTH] == LK_KNOWN_EXACT) {
			double d = r->effort_cost / LK_EFFORT_RUNS - known->value[LK_F_LENGTH];
			lk_feature_set(f, LK_F_DETOUR, LK_KNOWN_EXACT, d > 0 ? d : 0.0);
		}
	} else {
		/* runs not made count 0, unsolved ones what they expanded */
		lk_feature_set(f, LK_F_EFFORT, LK_KNOWN_AT_LEAST, r->effort_sum / LK_EFFORT_RUNS);
	}
}

/* ------------------------------------------------------------ the whole */

/* The optimal solve's expanded states over its generated ones (0 when it
 * generated none: the start was the goal). */
double lk_rating_expand_share(uint64_t expanded, uint64_t generated)
{
	return generated ? (double)expanded / (double)generated : 0.0;
}

/* What the game reads of the level itself: its cells, its pieces and how
 * narrow its board is (the cells' sides that face a wall, per cell). */
static void set_counts(const struct lk_level *level, struct lk_features *out)
{
	const struct lk_game *g = level->game;
	if (!g->rating_counts)
		return;
	unsigned cells = 0, objects = 0;
	g->rating_counts(level, &cells, &objects);
	if (cells)
		lk_feature_set(out, LK_F_CELLS, LK_KNOWN_EXACT, cells);
	if (objects)
		lk_feature_set(out, LK_F_OBJECTS, LK_KNOWN_EXACT, objects);
	if (cells && g->rating_wall_sides)
		lk_feature_set(out, LK_F_NARROW, LK_KNOWN_EXACT,
			       (double)g->rating_wall_sides(level) / cells);
}

/* The features the game cannot have. */
static void absent(const struct lk_level *level, struct lk_features *f)
{
	if (f->how[LK_F_CELLS] == LK_KNOWN_EXACT && f->how[LK_F_OBJECTS] == LK_KNOWN_EXACT)
		lk_feature_set(f, LK_F_DENSITY, LK_KNOWN_EXACT,
			       f->value[LK_F_OBJECTS] / f->value[LK_F_CELLS]);
	else
		lk_feature_set(f, LK_F_DENSITY, LK_KNOWN_ABSENT, 0);
	const struct lk_game *g = level->game;
	static const enum lk_feature bound[] = { LK_F_BOUND, LK_F_SLACK, LK_F_UPHILL, LK_F_AGAINST };
	static const enum lk_feature track[] = { LK_F_MOVED, LK_F_SESSIONS, LK_F_JUGGLE };
	for (size_t i = 0; !has_bound(level) && i < sizeof bound / sizeof bound[0]; i++)
		lk_feature_set(f, bound[i], LK_KNOWN_ABSENT, 0);
	for (size_t i = 0; !g->track_move && i < sizeof track / sizeof track[0]; i++)
		lk_feature_set(f, track[i], LK_KNOWN_ABSENT, 0);
	if (f->how[LK_F_CELLS] == LK_KNOWN_NOT)
		lk_feature_set(f, LK_F_CELLS, LK_KNOWN_ABSENT, 0);
	if (f->how[LK_F_OBJECTS] == LK_KNOWN_NOT)
		lk_feature_set(f, LK_F_OBJECTS, LK_KNOWN_ABSENT, 0);
	if (f->how[LK_F_NARROW] == LK_KNOWN_NOT)
		lk_feature_set(f, LK_F_NARROW, LK_KNOWN_ABSENT, 0);
}

void lk_features_compute(struct lk_solver *solver, const struct lk_level *level,
			 const struct lk_rating *r, const struct lk_feature_options *o,
			 struct lk_features *out)
{
	lk_features_init(out);
	const struct lk_game *g = level->game;
	const struct lk_search_result *best = r->optimal.status == LK_SOLVED ? &r->optimal
					      : r->other.status == LK_SOLVED  ? &r->other
									      : NULL;
	struct walker w;
	walker_init(&w, level);
	bool optimal = best && (best->optimal || (r->has_floor && best->cost <= r->floor));
	enum lk_known how = optimal ? LK_KNOWN_EXACT : LK_KNOWN_AT_MOST;
	if (best) {
		lk_feature_set(out, LK_F_LENGTH, how, (double)best->cost);
		struct lk_moves m;
		lk_moves_init(&m, level);
		lk_level_label(level, best->path, best->nkeys, &m);
		lk_feature_set(out, LK_F_INPUTS, how, (double)m.inputs);
		lk_moves_release(&m);
	}
	if (!optimal && r->has_floor)
		lk_feature_set(out, LK_F_LENGTH, LK_KNOWN_AT_LEAST, (double)r->floor);
	if (has_bound(level)) {
		unsigned char *start = lk_xcalloc(1, level->key_size ? level->key_size : 1);
		g->initial_state(level, start);
		unsigned h = g->is_goal(level, start) ? 0 : g->heuristic(level, start, w.scratch);
		free(start);
		if (h != LK_H_DEAD) {
			lk_feature_set(out, LK_F_BOUND, LK_KNOWN_EXACT, h);
			if (optimal)
				lk_feature_set(out, LK_F_SLACK, LK_KNOWN_EXACT, (double)best->cost - h);
			else if (r->has_floor && r->floor > h)
				lk_feature_set(out, LK_F_SLACK, LK_KNOWN_AT_LEAST, (double)(r->floor - h));
		}
	}
	/* the optimal solve's effort: exact when it solved, else a bound */
	if (r->optimal.status == LK_SOLVED) {
		lk_feature_set(out, LK_F_ASTAR, LK_KNOWN_EXACT, (double)r->optimal.expanded);
		/* how little the search could leave aside of what it saw: near 1
		 * when nothing told the successors apart (a share of an
		 * unfinished search bounds nothing, so it is left unknown) */
		lk_feature_set(out, LK_F_EXPAND_SHARE, LK_KNOWN_EXACT,
			       lk_rating_expand_share(r->optimal.expanded, r->optimal.generated));
	}
	else if (r->optimal.status == LK_UNKNOWN)
		lk_feature_set(out, LK_F_ASTAR, LK_KNOWN_AT_LEAST, (double)r->optimal.expanded);
	if (r->have_mixedaim && r->ran[LK_ALGO_GREEDY] && r->status[LK_ALGO_GREEDY] == LK_SOLVED &&
	    optimal)
		lk_feature_set(out, LK_F_GREEDY_EXCESS, LK_KNOWN_EXACT,
			       (double)(r->cost[LK_ALGO_GREEDY] - best->cost));
	if (r->have_mixedaim && r->ran[LK_ALGO_BFS])
		lk_feature_set(out, LK_F_BFS,
			       r->status[LK_ALGO_BFS] == LK_SOLVED ? LK_KNOWN_EXACT : LK_KNOWN_AT_LEAST,
			       (double)r->explored[LK_ALGO_BFS]);
	if (r->effort_runs && r->runs_wanted >= LK_EFFORT_RUNS) {
		set_effort(r, out, out);
	} else if (!r->unsolvable) {
		struct lk_rating own;
		lk_rating_init(&own);
		effort_runs(solver, level, o, &own);
		set_effort(&own, out, out);
		out->limits |= own.limits;
		lk_rating_release(&own);
	}
	set_counts(level, out);
	if (best)
		walk_solution(&w, best->path, best->nkeys, how, out);
	walker_release(&w);
	absent(level, out);
	/* the walker's horizon: an optimal solution's steps are the shortest
	 * when every step costs one (each game's default metric, unweighted) */
	if ((lk_feature_in_model(LK_F_WALKER) || o->graph_states) && !r->unsolvable) {
		unsigned steps = best && best->nkeys ? (unsigned)(best->nkeys - 1) : 0;
		bool unit = !level->weighted && (!level->metric || !g->metrics ||
						  strcmp(level->metric, g->metrics[0]) == 0);
		lk_features_walker(level, &o->search, LK_RATING_WALKER_STATES, steps,
				   optimal && unit && best->cost == steps, out);
	}
	/* the whole graph's features: with --features, and the scarcity of
	 * solutions for every rating when the model weighs it */
	if (r->unsolvable)
		return;
	if (o->graph_states)
		lk_features_graph(level, &o->search, o->graph_states, best ? best->path : NULL,
				  best ? best->nkeys : 0, out);
	else if (lk_feature_in_model(LK_F_SCARCITY))
		lk_features_scarcity(level, &o->search, LK_RATING_GRAPH_STATES, out);
}

void lk_features_csp(const struct lk_level *level, const struct lk_csp_rating *r,
		     struct lk_features *out)
{
	lk_features_init(out);
	const struct lk_game *g = level->game;
	set_counts(level, out);
	/* a placement is as long as the pieces it places */
	if (g->rating_counts && out->how[LK_F_OBJECTS] == LK_KNOWN_EXACT)
		lk_feature_set(out, LK_F_LENGTH, LK_KNOWN_EXACT, out->value[LK_F_OBJECTS]);
	/* the effort of search in random orders is the nodes of the runs */
	if (r->runs_wanted && r->runs_solved == r->runs_wanted) {
		lk_feature_set(out, LK_F_EFFORT, LK_KNOWN_EXACT, r->mean);
		lk_feature_set(out, LK_F_SPREAD, LK_KNOWN_EXACT, r->mean > 0 ? r->sd / r->mean : 0.0);
	} else if (r->single_method && r->status == LK_SOLVED) {
		lk_feature_set(out, LK_F_EFFORT, LK_KNOWN_EXACT, (double)r->single);
	} else if (r->bound > 0) {
		lk_feature_set(out, LK_F_EFFORT, LK_KNOWN_AT_LEAST, r->bound);
	}
	/* what a placement has no notion of */
	static const enum lk_feature none[] = { LK_F_BOUND, LK_F_SLACK, LK_F_UPHILL, LK_F_AGAINST,
						LK_F_BRANCHING, LK_F_DETOUR, LK_F_GREEDY_EXCESS,
						LK_F_ASTAR, LK_F_BFS, LK_F_MOVED, LK_F_SESSIONS,
						LK_F_JUGGLE, LK_F_EXPAND_SHARE, LK_F_WALKER,
						LK_F_SCARCITY };
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
		lk_feature_set(out, none[i], LK_KNOWN_ABSENT, 0);
	if (out->how[LK_F_LENGTH] == LK_KNOWN_EXACT)
		lk_feature_set(out, LK_F_INPUTS, LK_KNOWN_EXACT, out->value[LK_F_LENGTH]);
	else
		lk_feature_set(out, LK_F_INPUTS, LK_KNOWN_ABSENT, 0);
	if (out->how[LK_F_LENGTH] != LK_KNOWN_EXACT)
		lk_feature_set(out, LK_F_LENGTH, LK_KNOWN_ABSENT, 0);
	if (out->how[LK_F_CELLS] == LK_KNOWN_EXACT && out->how[LK_F_OBJECTS] == LK_KNOWN_EXACT)
		lk_feature_set(out, LK_F_DENSITY, LK_KNOWN_EXACT,
			       out->value[LK_F_OBJECTS] / out->value[LK_F_CELLS]);
	else
		lk_feature_set(out, LK_F_DENSITY, LK_KNOWN_ABSENT, 0);
	if (out->how[LK_F_CELLS] == LK_KNOWN_NOT)
		lk_feature_set(out, LK_F_CELLS, LK_KNOWN_ABSENT, 0);
	if (out->how[LK_F_OBJECTS] == LK_KNOWN_NOT)
		lk_feature_set(out, LK_F_OBJECTS, LK_KNOWN_ABSENT, 0);
	if (out->how[LK_F_NARROW] == LK_KNOWN_NOT)
		lk_feature_set(out, LK_F_NARROW, LK_KNOWN_ABSENT, 0);
}
