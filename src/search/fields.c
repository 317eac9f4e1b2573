/*
 * fields.c - the one place a record's result fields are written (see
 * fields.h): the generic ones here, and a game's own through its vtable
 * (count_fields such as Sokoban's pushes, graph_rules such as Skiddy's
 * stars).
 */
#include "levelkit/fields.h"

#include <math.h>
#include <stdio.h>

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
}

/* The fields of a solved level; states is written when non-NULL. */
static void write_solved(struct lk_record *rec, const struct lk_level *level,
			 const unsigned char *keys, size_t nkeys, bool optimal,
			 const uint64_t *states)
{
	struct lk_moves m;
	lk_moves_init(&m, level);
	lk_level_label(level, keys, nkeys, &m);
	lk_record_set(rec, "solvable", "yes");
	lk_fields_lengths(rec, level, &m);
	lk_record_set(rec, "optimal", optimal ? level->metric : "no");
	lk_record_unset(rec, "limit");
	if (states)
		lk_record_setf(rec, "states", "%llu", (unsigned long long)*states);
	lk_record_set(rec, "solution", m.text.buf);
	lk_moves_release(&m);
}

void lk_fields_solution(struct lk_record *rec, const struct lk_level *level,
			const unsigned char *keys, size_t nkeys, bool optimal)
{
	write_solved(rec, level, keys, nkeys, optimal, NULL);
}

/* The optimum's lower bound of a search that gave up (written as a bound:
 * lower-bound: N, in the level's metric). */
static void write_lower_bound(struct lk_record *rec, const struct lk_search_result *r)
{
	if (r->has_lower_bound && !(r->status == LK_SOLVED && r->optimal))
		lk_record_setf(rec, "lower-bound", "%lu", r->lower_bound);
	else
		lk_record_unset(rec, "lower-bound");
}

void lk_fields_solve(struct lk_record *rec, const struct lk_level *level,
		     const struct lk_search_result *r)
{
	write_lower_bound(rec, r);
	if (r->status == LK_SOLVED) {
		write_solved(rec, level, r->path, r->nkeys, r->optimal, &r->expanded);
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
	"difficulty", "difficulty-sd", "difficulty-se", "difficulty-runs", "difficulty-method", "difficulty-min", "states-bfs",
	"states-astar", "states-greedy", "grade", NULL
};

/* The multiple method's figures: the mean, the spread of the runs, and
 * the standard error of the mean (the spread of the mean itself over
 * repeated ratings, the paper's Table 2), then how many runs solved.  The
 * single method has one count and says so. */
static void write_mean(struct lk_record *rec, double mean, double sd, unsigned solved, unsigned runs,
		       bool single)
{
	lk_record_setf(rec, "difficulty", "%.1f", mean);
	if (single) {
		lk_record_set(rec, "difficulty-method", "single");
		return;
	}
	lk_record_setf(rec, "difficulty-sd", "%.1f", sd);
	lk_record_setf(rec, "difficulty-se", "%.1f", sd / sqrt((double)solved));
	if (solved < runs)
		lk_record_setf(rec, "difficulty-runs", "%u/%u", solved, runs);
}

static void write_count(struct lk_record *rec, const char *name, enum lk_status st, uint64_t n)
{
	if (st == LK_SOLVED)
		lk_record_setf(rec, name, "%llu", (unsigned long long)n);
	else
		lk_record_set(rec, name, lk_status_name(st));
}

void lk_fields_rating(struct lk_record *rec, const struct lk_level *level,
		      const struct lk_rating *r)
{
	for (size_t i = 0; difficulty_fields[i]; i++)
		lk_record_unset(rec, difficulty_fields[i]);
	bool solvable = r->optimal.status == LK_SOLVED || r->min_known || r->runs_solved > 0;
	enum lk_status status = solvable ? LK_SOLVED : r->optimal.status;
	lk_record_set(rec, "solvable", lk_status_name(status));
	if (r->optimal.status == LK_SOLVED) {
		struct lk_moves m;
		lk_moves_init(&m, level);
		lk_level_label(level, r->optimal.path, r->optimal.nkeys, &m);
		lk_fields_lengths(rec, level, &m);
		lk_record_set(rec, "optimal", r->optimal.optimal ? level->metric : "no");
		lk_moves_release(&m);
	} else {
		/* Lengths from an earlier solve stay only if we cannot do better;
		 * an optimality claim we could not confirm is dropped. */
		lk_record_unset(rec, "optimal");
		if (r->optimal.status == LK_UNSOLVABLE)
			unset_lengths(rec, level);
	}
	if (status == LK_UNKNOWN)
		lk_record_set(rec, "limit", lk_limit_name(r->optimal.limit));
	else
		lk_record_unset(rec, "limit");

	if (solvable && r->runs_solved > 0) {
		write_mean(rec, r->mean, r->sd, r->runs_solved, r->runs, r->single);
	}
	if (solvable && r->have_mixedaim) {
		if (r->min_known)
			lk_record_setf(rec, "difficulty-min", "%llu", (unsigned long long)r->min_explored);
		write_count(rec, "states-bfs", r->status[LK_ALGO_BFS], r->explored[LK_ALGO_BFS]);
		if (level->has_heuristic) {
			write_count(rec, "states-astar", r->status[LK_ALGO_ASTAR], r->explored[LK_ALGO_ASTAR]);
			write_count(rec, "states-greedy", r->status[LK_ALGO_GREEDY],
				    r->explored[LK_ALGO_GREEDY]);
		}
	}
	if (solvable && (r->runs_solved > 0 || r->min_known))
		lk_record_set(rec, "grade",
			      lk_grade_name(lk_grade_of(r->runs_solved ? r->mean : (double)r->min_explored)));
}

static const char *const analysis_fields[] = {
	"reachable", "dead-ends", "dead-end-path", "solutions", "graph", NULL
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
		lk_record_setf(rec, "solutions", "%s%llu", a->solutions_saturated ? ">=" : "",
			       (unsigned long long)a->solutions);
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
	lk_record_setf(rec, "solutions", "%s%llu", exhausted ? "" : ">=", (unsigned long long)solutions);
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

void lk_fields_csp_rating(struct lk_record *rec, const struct lk_csp_rating *r)
{
	static const char *const names[] = { "difficulty", "difficulty-sd", "difficulty-se",
					     "difficulty-runs", "difficulty-method", "grade", NULL };
	for (size_t i = 0; names[i]; i++)
		lk_record_unset(rec, names[i]);
	write_count_fields(rec, r->status, r->solutions, r->exhausted, r->limit);
	/* not `nodes`, which is solve's search (dynamic order, counting):
	 * one field name, one meaning */
	lk_record_setf(rec, "nodes-static", "%llu", (unsigned long long)r->single);
	if (r->status != LK_SOLVED || !r->runs_solved)
		return;
	write_mean(rec, r->mean, r->sd, r->runs_solved, r->runs, r->single_method);
	lk_record_set(rec, "grade", lk_grade_name(lk_grade_of(r->mean)));
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
