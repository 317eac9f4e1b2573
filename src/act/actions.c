/*
 * actions.c - solve, verify, rate and analyse a level record (see
 * actions.h).  The path is chosen here, once, from what the game offers:
 * a constraint model (game->csp) or a state space; and for rate, the
 * whole-graph analysis when the game wants it or it is asked for.  The
 * fields are written by fields.c.
 */
#include "levelkit/actions.h"

#include <string.h>

#include "levelkit/analysis.h"
#include "levelkit/concept.h"
#include "levelkit/fields.h"
#include "levelkit/rating.h"
#include "levelkit/registry.h"

void lk_act_options_init(struct lk_act_options *o)
{
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	memset(o, 0, sizeof *o);
	o->search = so;
	lk_csp_options_init(&o->csp);
	lk_rate_options_init(&o->rate);
}

static struct lk_level *load(struct lk_record *rec, const struct lk_act_options *o,
			     struct lk_strbuf *err, size_t *line)
{
	struct lk_level *level = lk_level_load(rec, &o->level, err, line);
	if (level && level->game->update_record)
		level->game->update_record(level, rec);
	return level;
}

void lk_act_update_record(struct lk_record *rec)
{
	const struct lk_game *game = lk_game_find(lk_record_game(rec));
	if (!game || !game->update_record || lk_record_grid(rec, NULL) == 0)
		return;
	static const struct lk_level_options defaults = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *level = lk_level_load(rec, &defaults, &err, &line);
	if (level)
		game->update_record(level, rec);
	lk_level_free(level);
	lk_strbuf_release(&err);
}

int lk_act_solve(struct lk_solver *solver, struct lk_record *rec,
		 const struct lk_act_options *o, struct lk_strbuf *err, size_t *line)
{
	struct lk_level *level = load(rec, o, err, line);
	if (!level)
		return -1;
	if (level->game->csp) {
		struct lk_csp_result cr;
		lk_csp_result_init(&cr);
		level->game->csp->solve(level, &o->csp, &cr);
		lk_fields_csp_solve(rec, &cr);
		if (o->stats)
			lk_record_setf(rec, "time", "%.3f", cr.seconds);
		lk_csp_result_release(&cr);
	} else if (level->game->own_solve && level->game->own_solve(level, &o->search, rec)) {
		/* the game answered a question of its own (random games' rolls) */
	} else {
		struct lk_search_result r;
		lk_search_result_init(&r);
		lk_solver_run(solver, level, &o->search, &r);
		lk_search_fallback(solver, level, &o->search, o->no_fallback, &r);
		lk_fields_solve(rec, level, &r);
		if (level->random_seed)   /* what every answer holds for */
			lk_record_set(rec, "seed", level->random_seed);
		if (o->stats) {
			lk_fields_stats(rec, level, &r);
			/* what the analysis concluded, and which search answered */
			if (level->heuristic_note)
				lk_record_set(rec, "heuristic", level->heuristic_note);
			if (r.portfolio)
				lk_record_setf(rec, "search", "astar and bfs: %s",
					       r.status == LK_UNKNOWN ? "neither answered" :
					       r.algo == LK_ALGO_BFS ? "bfs answered" : "astar answered");
		}
		lk_search_result_release(&r);
	}
	lk_level_free(level);
	return 0;
}

int lk_act_verify(struct lk_record *rec, const struct lk_act_options *o, bool *verified,
		  struct lk_strbuf *err, size_t *line)
{
	const char *solution = lk_record_get(rec, "solution");
	*verified = false;
	if (!solution) {
		lk_strbuf_addstr(err, "no solution field to verify");
		*line = rec->first_lineno;
		return -1;
	}
	struct lk_level *level = load(rec, o, err, line);
	if (!level)
		return -1;
	struct lk_strbuf why = LK_STRBUF_INIT;
	bool solved = false;
	int rc;
	struct lk_moves m;
	lk_moves_init(&m, level);
	if (level->game->csp)
		rc = level->game->csp->verify(level, solution, &solved, &why);
	else
		rc = level->game->replay(level, solution, &m, &solved, &why);
	struct lk_strbuf note = LK_STRBUF_INIT;
	if (rc == 0 && solved && level->game->csp && level->game->csp->verify_note)
		level->game->csp->verify_note(level, solution, &note);
	lk_fields_verify(rec, level, rc == 0, solved, level->game->csp ? NULL : &m,
			 why.len ? why.buf : NULL, note.len ? note.buf : NULL);
	lk_strbuf_release(&note);
	*verified = rc == 0 && solved;
	lk_moves_release(&m);
	lk_strbuf_release(&why);
	lk_level_free(level);
	return 0;
}

/* The whole-graph analysis of a loaded level, into rec. */
static void analyse(struct lk_level *level, struct lk_record *rec,
		    const struct lk_act_options *o)
{
	struct lk_analysis a;
	lk_analysis_init(&a);
	a.list_max = o->list_solutions;
	lk_analyse(level, &o->search, &a);
	lk_fields_analysis(rec, level, &a);
	if (o->stats)
		lk_fields_graph_stats(rec, &a);
	lk_analysis_release(&a);
}

static unsigned rate_flags(const struct lk_act_options *o)
{
	return (o->explain ? LK_RATE_EXPLAIN : 0u) | (o->features ? LK_RATE_FEATURES : 0u);
}

int lk_act_rate(struct lk_solver *solver, struct lk_record *rec,
		const struct lk_act_options *o, struct lk_strbuf *err, size_t *line)
{
	struct lk_level *level = load(rec, o, err, line);
	if (!level)
		return -1;
	if (level->game->csp) {
		struct lk_csp_rating cr;
		struct lk_strbuf solution = LK_STRBUF_INIT;
		if (o->rate.single)
			lk_csp_rate_single_solution(level, &o->csp, &cr, &solution);
		else
			lk_csp_rate_solution(level, &o->csp, o->rate.runs, o->rate.seed, &cr, &solution);
		lk_fields_csp_rating(rec, &cr, solution.buf);
		lk_fields_rate_csp(rec, level, &cr, rate_flags(o));
		lk_strbuf_release(&solution);
		lk_level_free(level);
		return 0;
	}
	struct lk_rating r;
	lk_rating_init(&r);
	lk_rate(solver, level, &o->rate, &r);
	lk_fields_rating(rec, level, &r);
	struct lk_feature_options fo = { o->rate.search, o->rate.seed,
					 o->features ? LK_RATING_GRAPH_STATES : 0 };
	lk_fields_rate_level(rec, solver, level, &r, &fo, rate_flags(o));
	if (level->random_seed)
		lk_record_set(rec, "seed", level->random_seed);
	if (o->graph || (level->game->whole_graph && !o->no_graph))
		analyse(level, rec, o);
	if (o->stats)
		lk_fields_stats(rec, level, &r.optimal);
	lk_rating_release(&r);
	lk_level_free(level);
	return 0;
}

int lk_act_analyse(struct lk_record *rec, const struct lk_act_options *o,
		   struct lk_strbuf *err, size_t *line)
{
	struct lk_level *level = load(rec, o, err, line);
	if (!level)
		return -1;
	if (level->game->csp) {
		lk_strbuf_addf(err, "game %s is a constraint game: it has no state graph to analyse",
			       level->game->name);
		*line = rec->first_lineno;
		lk_level_free(level);
		return -1;
	}
	analyse(level, rec, o);
	lk_level_free(level);
	return 0;
}

int lk_act_concept(struct lk_solver *solver, struct lk_record *rec,
		   const struct lk_act_options *o, const struct lk_act_concept *c,
		   enum lk_truth *answer, struct lk_strbuf *err, size_t *line)
{
	const struct lk_game *game = lk_game_find(lk_record_game(rec));
	/* State-space games answer over their finest graph, where every
	 * solution is a path (concept.h); the rest of the options hold. */
	struct lk_act_options lo = *o;
	if (game && !game->csp)
		lo.level = lk_concept_level_options(game);
	struct lk_level *level = load(rec, &lo, err, line);
	if (!level)
		return -1;
	struct lk_concept_result r;
	lk_concept_result_init(&r);
	int rc = 0;
	if (level->game->csp) {
		if (!level->game->csp->concept) {
			lk_strbuf_addf(err, "game %s has no concept queries", level->game->name);
			rc = -1;
		} else {
			rc = level->game->csp->concept(level, c->concept, c->quantifier, &o->csp, &r,
						       err);
		}
	} else if ((rc = lk_concept_check(level, c->concept, err)) == 0) {
		lk_concept_search(solver, level, c->concept, c->quantifier, &o->search, &r);
	}
	if (rc == 0) {
		lk_fields_concept(rec, (int)c->quantifier, c->text, &r, o->stats);
		*answer = r.answer;
	} else {
		*line = rec->first_lineno;
	}
	lk_concept_result_release(&r);
	lk_level_free(level);
	return rc;
}
