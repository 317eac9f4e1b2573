/*
 * fields.c - the one place a record's result fields are written (see
 * fields.h): the generic ones here, and a game's own through its vtable
 * (count_fields such as Sokoban's pushes, graph_rules such as Skiddy's
 * stars).
 */
#include "levelkit/fields.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/concept.h"

void lk_fields_lengths(struct lk_record *rec, const struct lk_level *level,
		       const struct lk_moves *m)
{
	lk_record_setf(rec, "moves", "%lu", m->inputs);
	for (const struct lk_count_field *f = level->game->count_fields; f && f->name; f++)
		lk_record_setf(rec, f->name, "%llu", (unsigned long long)lk_moves_count(m, f->fact));
}

/* Remove the length fields of an earlier answer. */
static void unset_lengths(struct lk_record *rec, const struct lk_level *level)
{
	lk_record_unset(rec, "moves");
	for (const struct lk_count_field *f = level->game->count_fields; f && f->name; f++)
		lk_record_unset(rec, f->name);
	if (level->weighted)
		lk_record_unset(rec, level->metric);
}

/* A path's cost in a weighted level's metric: each step's cheapest edge
 * into the next state (the game's successors, run again). */
static unsigned long path_cost(const struct lk_level *level, const unsigned char *keys,
			       size_t nkeys)
{
	size_t ks = level->key_size, slots = level->max_successors + 1u;
	unsigned char *out = lk_xmalloc(slots * ks + 1);
	struct lk_edge *edges = lk_xmalloc(slots * sizeof *edges);
	void *scratch = lk_xcalloc(1, level->scratch_size ? level->scratch_size : 1);
	unsigned long total = 0;
	for (size_t i = 0; i + 1 < nkeys; i++) {
		unsigned n = level->game->successors(level, keys + i * ks, scratch, out, edges);
		unsigned best = 0;
		for (unsigned j = 0; j < n; j++)
			if (memcmp(out + (size_t)j * ks, keys + (i + 1) * ks, ks) == 0 &&
			    (!best || edges[j].cost < best))
				best = edges[j].cost;
		total += best;
	}
	free(scratch);
	free(edges);
	free(out);
	return total;
}

/* The game's fields of the level itself (game->level_fields). */
static void level_fields(struct lk_record *rec, const struct lk_level *level)
{
	if (level->game->level_fields)
		level->game->level_fields(level, rec);
}

/* The fields of a solved level; states is written when non-NULL; the
 * labelled moves are handed back in kept when it is not NULL. */
static void write_solved(struct lk_record *rec, const struct lk_level *level,
			 const unsigned char *keys, size_t nkeys, bool optimal,
			 const uint64_t *states, struct lk_moves *kept)
{
	struct lk_moves m;
	lk_moves_init(&m, level);
	lk_level_label(level, keys, nkeys, &m);
	lk_record_set(rec, "solvable", "yes");
	lk_fields_lengths(rec, level, &m);
	if (level->weighted)   /* the metric is a length of its own: its cost */
		lk_record_setf(rec, level->metric, "%lu", path_cost(level, keys, nkeys));
	lk_record_set(rec, "optimal", optimal ? level->metric : "no");
	lk_record_unset(rec, "limit");
	if (states)
		lk_record_setf(rec, "states", "%llu", (unsigned long long)*states);
	lk_record_set(rec, "solution", m.text.buf);
	if (kept) {
		lk_moves_release(kept);
		*kept = m;
	} else {
		lk_moves_release(&m);
	}
}

void lk_fields_solution(struct lk_record *rec, const struct lk_level *level,
			const unsigned char *keys, size_t nkeys, bool optimal)
{
	lk_fields_solution_kept(rec, level, keys, nkeys, optimal, NULL);
}

void lk_fields_solution_kept(struct lk_record *rec, const struct lk_level *level,
			     const unsigned char *keys, size_t nkeys, bool optimal,
			     struct lk_moves *kept)
{
	level_fields(rec, level);
	write_solved(rec, level, keys, nkeys, optimal, NULL, kept);
}

/* What a search that gave up knows of the optimum: a bound, as rate
 * writes it (optimum: >= N pushes), unless a solution is proved optimal. */
static void write_optimum(struct lk_record *rec, const struct lk_level *level,
			  const struct lk_search_result *r)
{
	if (r->has_floor && r->status != LK_UNSOLVABLE && !(r->status == LK_SOLVED && r->optimal))
		lk_record_setf(rec, "optimum", ">= %lu %s", r->floor, level->metric);
	else
		lk_record_unset(rec, "optimum");
}

void lk_fields_solve(struct lk_record *rec, const struct lk_level *level,
		     const struct lk_search_result *r)
{
	lk_fields_solve_kept(rec, level, r, NULL);
}

void lk_fields_solve_kept(struct lk_record *rec, const struct lk_level *level,
			  const struct lk_search_result *r, struct lk_moves *kept)
{
	level_fields(rec, level);
	write_optimum(rec, level, r);
	if (r->status == LK_SOLVED) {
		write_solved(rec, level, r->path, r->nkeys, r->optimal, &r->expanded, kept);
		return;
	}
	lk_record_set(rec, "solvable", lk_status_name(r->status));
	/* Drop a stale answer from an earlier run. */
	lk_record_unset(rec, "solution");
	unset_lengths(rec, level);
	lk_record_unset(rec, "optimal");
	lk_record_setf(rec, "states", "%llu", (unsigned long long)r->expanded);
	if (r->status == LK_UNKNOWN)
		lk_record_set(rec, "limit", lk_limit_name(r->limit));
	else
		lk_record_unset(rec, "limit");
}

static const char *const difficulty_fields[] = {
	"difficulty", "difficulty-sd", "difficulty-se", "difficulty-runs", "difficulty-method",
	"difficulty-min", "states-bfs", "states-astar", "states-greedy", NULL
};

/* The bounds any search hit, in the order of enum lk_limit ("time", or
 * "states, time"); none removes the field. */
static void write_limits(struct lk_record *rec, unsigned limits)
{
	struct lk_strbuf names = LK_STRBUF_INIT;
	for (int l = LK_LIMIT_NONE + 1; l <= LK_LIMIT_INTERRUPTED; l++)
		if (limits & LK_LIMIT_BIT(l))
			lk_strbuf_addf(&names, "%s%s", names.len ? ", " : "",
				       lk_limit_name((enum lk_limit)l));
	if (names.len)
		lk_record_set(rec, "limit", names.buf);
	else
		lk_record_unset(rec, "limit");
	lk_strbuf_release(&names);
}

/*
 * The multiple method's figures.  When every run asked for solved the
 * level: the mean, the spread of the runs and the standard error of the
 * mean (the spread of the mean itself over repeated ratings, the paper's
 * Table 2).  Otherwise the mean is not known, and what is known is a
 * lower bound of it: each run that hit a bound would have explored more
 * than it had, and one never made (given up, interrupted) at least
 * nothing.  It is written ">= X", with no spread, and difficulty-runs says
 * how many of the runs asked for solved the level (it is there exactly
 * when the difficulty is not known).  The single method has one count and
 * says so.
 */
static void write_runs(struct lk_record *rec, unsigned wanted, unsigned solved, double mean,
		       double sd, double bound, bool single)
{
	if (single)
		lk_record_set(rec, "difficulty-method", "single");
	if (solved == wanted) {
		lk_record_setf(rec, "difficulty", "%.1f", mean);
		if (!single) {
			lk_record_setf(rec, "difficulty-sd", "%.1f", sd);
			lk_record_setf(rec, "difficulty-se", "%.1f", sd / sqrt((double)solved));
		}
		return;
	}
	if (bound > 0) {
		lk_record_setf(rec, "difficulty", ">= %.1f", bound);
	} else {
		lk_record_set(rec, "difficulty", "unknown");
	}
	lk_record_setf(rec, "difficulty-runs", "%u/%u", solved, wanted);
}

/* One of MixedAim's counts: the states to a solution, ">= N" for a
 * search stopped by a bound after N, unknown for one that never ran; and
 * the range [lo, hi] the count lies in. */
static void write_count(struct lk_record *rec, const char *name, bool ran, enum lk_status st,
			uint64_t n, uint64_t *lo, uint64_t *hi)
{
	if (ran && st == LK_SOLVED) {
		lk_record_setf(rec, name, "%llu", (unsigned long long)n);
		*lo = *hi = n;
	} else if (ran && n) {
		lk_record_setf(rec, name, ">= %llu", (unsigned long long)n);
		*lo = n;
		*hi = UINT64_MAX;
	} else {
		lk_record_set(rec, name, "unknown");
		*lo = 0;
		*hi = UINT64_MAX;
	}
}

/* MixedAim's measure, the least of the counts: exact when a solved count
 * is below every bound, "<= N" when a stopped search might have done
 * better, ">= N" when none solved. */
static void write_mixedaim(struct lk_record *rec, const struct lk_level *level,
			   const struct lk_rating *r)
{
	static const struct {
		enum lk_algo algo;
		const char *field;
	} solvers[] = { { LK_ALGO_BFS, "states-bfs" },
			{ LK_ALGO_ASTAR, "states-astar" },
			{ LK_ALGO_GREEDY, "states-greedy" } };
	uint64_t lo = UINT64_MAX, hi = UINT64_MAX;
	lk_record_set(rec, "difficulty-min", "unknown");   /* its place, before the counts */
	for (size_t i = 0; i < sizeof solvers / sizeof solvers[0]; i++) {
		enum lk_algo a = solvers[i].algo;
		if (a != LK_ALGO_BFS && !level->has_heuristic)
			continue;
		uint64_t l, h;
		write_count(rec, solvers[i].field, r->ran[a], r->status[a], r->explored[a], &l, &h);
		lo = l < lo ? l : lo;
		hi = h < hi ? h : hi;
	}
	if (lo == hi)
		lk_record_setf(rec, "difficulty-min", "%llu", (unsigned long long)lo);
	else if (hi != UINT64_MAX)
		lk_record_setf(rec, "difficulty-min", "<= %llu", (unsigned long long)hi);
	else if (lo)
		lk_record_setf(rec, "difficulty-min", ">= %llu", (unsigned long long)lo);
}

void lk_fields_rating(struct lk_record *rec, const struct lk_level *level,
		      const struct lk_rating *r)
{
	for (size_t i = 0; difficulty_fields[i]; i++)
		lk_record_unset(rec, difficulty_fields[i]);
	level_fields(rec, level);
	const struct lk_search_result *best = r->optimal.status == LK_SOLVED ? &r->optimal
					      : r->other.status == LK_SOLVED  ? &r->other
									      : NULL;
	enum lk_status status = best ? LK_SOLVED : r->unsolvable ? LK_UNSOLVABLE : LK_UNKNOWN;
	bool had_solution = lk_record_get(rec, "solution") != NULL;
	lk_record_set(rec, "solvable", lk_status_name(status));
	/* rate's own solution; one it did not prove optimal does not replace
	 * a solution the record already has (an earlier solve's with more
	 * time, say), which keeps its fields */
	/* a solution as cheap as a lower bound on the optimum is optimal */
	bool proved = best && (best->optimal || (r->has_floor && best->cost <= r->floor));
	bool own = best && (proved || !had_solution);
	struct lk_moves m;
	lk_moves_init(&m, level);
	lk_record_unset(rec, "optimum");
	lk_record_unset(rec, "no-solution-within");
	if (own) {
		lk_level_label(level, best->path, best->nkeys, &m);
		lk_fields_lengths(rec, level, &m);
		if (level->weighted)
			lk_record_setf(rec, level->metric, "%lu", best->cost);
		lk_record_set(rec, "optimal", proved ? level->metric : "no");
	} else if (status == LK_UNSOLVABLE) {
		unset_lengths(rec, level);
		lk_record_unset(rec, "optimal");
		lk_record_unset(rec, "solution");
	} else if (!had_solution) {
		/* lengths of unknown origin may stay; no optimality claim */
		lk_record_unset(rec, "optimal");
	}
	/* what is known of the optimum when no solution is proved optimal
	 * (by rate, or by an earlier run whose solution the record keeps): a
	 * bound */
	const char *claim = lk_record_get(rec, "optimal");
	bool kept_optimal = !own && claim && strcmp(claim, level->metric) == 0;
	if (status != LK_UNSOLVABLE && !proved && !kept_optimal && r->has_floor)
		lk_record_setf(rec, "optimum", ">= %lu %s", r->floor, level->metric);
	if (status != LK_UNSOLVABLE && !proved && !kept_optimal && r->has_depth)
		lk_record_setf(rec, "no-solution-within", "%lu %s", r->depth,
			       level->weighted ? "moves" : level->metric);   /* BFS counts edges */

	if (status != LK_UNSOLVABLE) {
		if (r->runs_wanted)
			write_runs(rec, r->runs_wanted, r->runs_solved, r->mean, r->sd, r->bound,
				   r->single);
		if (r->have_mixedaim)
			write_mixedaim(rec, level, r);
	}
	if (own)
		lk_record_set(rec, "solution", m.text.buf);
	lk_moves_release(&m);
	write_limits(rec, r->limits);
}

static const char *const analysis_fields[] = {
	"reachable", "dead-ends", "dead-end-path", "solutions", "shortest-solutions", "graph", NULL
};

void lk_fields_analysis(struct lk_record *rec, const struct lk_level *level,
			const struct lk_analysis *a)
{
	const struct lk_graph_rules *own = level->game->graph_rules;
	for (size_t i = 0; analysis_fields[i]; i++)
		lk_record_unset(rec, analysis_fields[i]);
	for (size_t i = 0; own && own->fields[i]; i++)
		lk_record_unset(rec, own->fields[i]);
	if (!a->complete) {
		/* dead ends and counts mean nothing on part of the graph */
		lk_record_setf(rec, "graph", "incomplete (%s after %llu states)", lk_limit_name(a->limit),
			       (unsigned long long)a->reachable);
		return;
	}
	lk_record_setf(rec, "reachable", "%llu", (unsigned long long)a->reachable);
	lk_record_setf(rec, "dead-ends", "%llu", (unsigned long long)a->dead_ends);
	if (a->dead_ends) {
		struct lk_moves m;
		lk_moves_init(&m, level);
		lk_level_label(level, a->dead_end, a->dead_end_keys, &m);
		lk_record_set(rec, "dead-end-path", m.text.len ? m.text.buf : "(the start)");
		lk_moves_release(&m);
	}
	if (a->shortest != LK_NO_DEPTH)
		lk_record_setf(rec, "solutions", "%s%llu", a->solutions_saturated ? ">= " : "",
			       (unsigned long long)a->solutions);
	if (a->shortest != LK_NO_DEPTH && a->list_max) {
		/* the list, and "..." when it is not all of them */
		bool all = !a->solutions_saturated && a->listed == a->solutions;
		lk_record_setf(rec, "shortest-solutions", "%s%s", a->shortest ? a->list.buf : "(no moves)",
			       all ? "" : " ...");
	}
	if (own)
		own->write_fields(level, a, rec);
}

static void write_count_fields(struct lk_record *rec, enum lk_status status, uint64_t solutions,
			       bool exhausted, enum lk_limit limit)
{
	lk_record_set(rec, "solvable", lk_status_name(status));
	if (status == LK_UNKNOWN)
		lk_record_set(rec, "limit", lk_limit_name(limit));
	else
		lk_record_unset(rec, "limit");
	lk_record_setf(rec, "solutions", "%s%llu", exhausted ? "" : ">= ", (unsigned long long)solutions);
	if (exhausted || solutions > 1)
		lk_record_set(rec, "unique", solutions == 1 && exhausted ? "yes" : "no");
	else
		lk_record_unset(rec, "unique");
}

void lk_fields_csp_solve(struct lk_record *rec, const struct lk_csp_result *r)
{
	write_count_fields(rec, r->status, r->solutions, r->exhausted, r->limit);
	lk_record_setf(rec, "nodes", "%llu", (unsigned long long)r->nodes);
	if (r->solutions)
		lk_record_set(rec, "solution", r->solution.buf);
	else
		lk_record_unset(rec, "solution");
}

void lk_fields_csp_rating(struct lk_record *rec, const struct lk_csp_rating *r,
			  const char *solution)
{
	static const char *const names[] = { "difficulty", "difficulty-sd", "difficulty-se",
					     "difficulty-runs", "difficulty-method", NULL };
	for (size_t i = 0; names[i]; i++)
		lk_record_unset(rec, names[i]);
	/* a run may solve a level the counting solve left undecided */
	bool run_solved = r->status == LK_UNKNOWN && r->runs_solved;
	write_count_fields(rec, run_solved ? LK_SOLVED : r->status,
			   run_solved && !r->solutions ? 1 : r->solutions, r->exhausted, r->limit);
	/* not `nodes`, which is solve's search (dynamic order, counting):
	 * one field name, one meaning */
	lk_record_setf(rec, "nodes-static", "%llu", (unsigned long long)r->single);
	if (solution && *solution)
		lk_record_set(rec, "solution", solution);
	else if (r->status == LK_UNSOLVABLE)
		lk_record_unset(rec, "solution");
	if (r->status != LK_UNSOLVABLE && (r->runs_wanted || r->single_method))
		write_runs(rec, r->runs_wanted, r->runs_solved, r->mean, r->sd, r->bound,
			   r->single_method);
	write_limits(rec, r->limits);
}

void lk_fields_verify(struct lk_record *rec, const struct lk_level *level, bool legal, bool solved,
		      const struct lk_moves *moves, const char *why, const char *note)
{
	lk_record_unset(rec, "verify-error");
	lk_record_set(rec, "verified", legal && solved ? "yes" : "no");
	if (legal && solved && note)
		lk_record_set(rec, "verify-note", note);
	else
		lk_record_unset(rec, "verify-note");
	if (legal && moves)
		lk_fields_lengths(rec, level, moves);
	if (!legal)
		lk_record_set(rec, "verify-error", why ? why : "the solution cannot be read");
	else if (!solved)
		lk_record_set(rec, "verify-error",
			      why ? why : "the moves are legal but do not solve the level");
}

void lk_fields_stats(struct lk_record *rec, const struct lk_level *level,
		     const struct lk_search_result *r)
{
	const struct lk_technique *t = level->game->techniques;
	for (size_t i = 0; t && t[i].name && i < LK_MAX_TECHNIQUES; i++)
		lk_record_setf(rec, t[i].counter, "%llu", (unsigned long long)r->technique_counts[i]);
	lk_record_setf(rec, "generated", "%llu", (unsigned long long)r->generated);
	lk_record_setf(rec, "stored", "%llu", (unsigned long long)r->stored);
	lk_record_setf(rec, "memory", "%zu", r->peak_bytes);
	lk_record_setf(rec, "overhead", "%.1f", r->overhead_per_state);
	lk_record_setf(rec, "time", "%.3f", r->seconds);
	lk_record_setf(rec, "cpu", "%.3f", r->cpu_seconds);
}

void lk_fields_graph_stats(struct lk_record *rec, const struct lk_analysis *a)
{
	lk_record_setf(rec, "graph-edges", "%llu", (unsigned long long)a->edges);
	lk_record_setf(rec, "graph-time", "%.4f", a->seconds);
}

void lk_fields_concept(struct lk_record *rec, int quantifier, const char *concept,
		       const struct lk_concept_result *r, bool stats)
{
	bool forall = quantifier == LK_FORALL;
	const char *answer = forall ? "requires" : "exists";
	const char *witness = forall ? "shortcut" : "example";
	char facts[32];
	snprintf(facts, sizeof facts, "%s-facts", witness);
	lk_record_set(rec, "concept", concept);
	lk_record_set(rec, answer, r->answer == LK_TRUE ? "yes" : r->answer == LK_FALSE ? "no" : "unknown");
	char over[32];
	snprintf(over, sizeof over, "%s-over", answer);
	if (r->over)
		lk_record_set(rec, over, r->over);
	else
		lk_record_unset(rec, over);
	if (r->has_witness) {
		lk_record_set(rec, witness, r->witness.text.buf ? r->witness.text.buf : "");
		if (r->witness_facts.len)
			lk_record_set(rec, facts, r->witness_facts.buf);
		else
			lk_record_unset(rec, facts);
	} else {
		lk_record_unset(rec, witness);
		lk_record_unset(rec, facts);
	}
	if (r->solvable != LK_UNKNOWN)
		lk_record_set(rec, "solvable", lk_status_name(r->solvable));
	if (r->answer == LK_MAYBE && r->limit != LK_LIMIT_NONE)
		lk_record_set(rec, "limit", lk_limit_name(r->limit));
	else
		lk_record_unset(rec, "limit");
	if (r->answer == LK_MAYBE && r->why)
		lk_record_set(rec, "undecided", r->why);
	else
		lk_record_unset(rec, "undecided");
	if (stats) {
		lk_record_setf(rec, "stored", "%llu", (unsigned long long)r->stored);
		lk_record_setf(rec, "states", "%llu", (unsigned long long)r->expanded);
		lk_record_setf(rec, "time", "%.3f", r->seconds);
	}
}
