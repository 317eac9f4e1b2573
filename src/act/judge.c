/*
 * judge.c - keep or turn down a generated candidate (see judge.h).
 *
 * The path follows the game: a constraint game is solved (counted) and
 * rated by its own search; a state-space game is checked for a solved
 * start, analysed whole when the game wants it (or the thresholds need
 * dead ends or a rating the analysis writes, Skiddy's stars), solved when
 * the generator did not say enough, and rated when a difficulty threshold
 * or --rate asks for it.  Every step
 * writes the fields solve, rate and the analysis would, and keeps what the
 * thresholds read as numbers (struct lk_judged, gen_run.h), taken from the
 * same result structs: the judge never reads back a field it wrote.  What
 * a generator or a game's analysis hook gives as fields (a generator's
 * own solution, Skiddy's stars and combo-moves) is read once, where it
 * comes in.
 */
#include "judge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/analysis.h"
#include "levelkit/concept.h"
#include "levelkit/csp.h"
#include "levelkit/difficulty.h"
#include "levelkit/fields.h"
#include "levelkit/game.h"
#include "levelkit/rating.h"
#include "levelkit/registry.h"

/* A number a generator or a game's hook wrote as a field. */
static bool field_number(const struct lk_record *rec, const char *name, double *v)
{
	const char *s = lk_record_get(rec, name);
	if (!s)
		return false;
	char *end;
	*v = strtod(s, &end);
	return end != s;
}

static bool wants_rating(const struct lk_gen_options *o)
{
	return o->rate || lk_range_set(&o->difficulty);
}

/* The multiple method's mean as the difficulty field writes it ("%.1f",
 * search/fields.c): the threshold applies to the value a user reads. */
static void keep_difficulty(struct lk_judged *j, bool known, double mean)
{
	char text[64];
	j->has_difficulty = known;
	if (known) {
		snprintf(text, sizeof text, "%.1f", mean);
		j->difficulty = strtod(text, NULL);
	}
}

/* The difficulty threshold, on the difficulty the rating found (not
 * known: the rating stopped on `limit`). */
static int check_difficulty(const struct lk_gen_options *o, const struct lk_judged *j,
			    enum lk_limit limit, enum lk_reject *why)
{
	if (!lk_range_set(&o->difficulty))
		return 0;
	double v = j->difficulty;
	if (!j->has_difficulty) {
		*why = lk_reject_of_limit(limit);
		return -1;
	}
	if (!lk_range_has(&o->difficulty, v)) {
		*why = v < o->difficulty.min ? LK_REJECT_EASY : LK_REJECT_HARD;
		return -1;
	}
	return 0;
}

/* Constraint games: what solve writes (the solution, its nodes, unique),
 * then what rate writes when asked. */
static int judge_csp(const struct lk_level *level, const struct lk_gen_options *o,
		     struct lk_record *rec, struct lk_judged *j, enum lk_reject *why)
{
	struct lk_csp_options co;
	struct lk_csp_result res;
	lk_csp_options_init(&co);
	co.bounds = o->rating.search.bounds;
	lk_csp_result_init(&res);
	level->game->csp->solve(level, &co, &res);
	lk_fields_csp_solve(rec, &res);
	enum lk_status status = res.status;
	enum lk_limit limit = res.limit;
	lk_csp_result_release(&res);
	/* A search cut off before its first solution says nothing, but the
	 * generator's own solution (the laser game's intended placement), once
	 * verified, proves the level solvable; the count stays a bound. */
	const char *intended = lk_record_get(rec, "intended");
	if (status == LK_UNKNOWN && intended && level->game->csp->verify) {
		char *text = lk_xstrdup(intended);
		struct lk_strbuf no = LK_STRBUF_INIT;
		bool valid = false;
		if (level->game->csp->verify(level, text, &valid, &no) == 0 && valid) {
			lk_record_set(rec, "solvable", lk_status_name(LK_SOLVED));
			lk_record_unset(rec, "limit");
			lk_record_set(rec, "solutions", ">=1");
			lk_record_set(rec, "solution", text);
			status = LK_SOLVED;
		}
		lk_strbuf_release(&no);
		free(text);
	}
	if (status != LK_SOLVED) {
		*why = status == LK_UNSOLVABLE ? LK_REJECT_UNSOLVABLE : lk_reject_of_limit(limit);
		return -1;
	}
	if (wants_rating(o)) {
		struct lk_csp_rating cr;
		lk_csp_rate(level, &co, o->rating.runs, o->rating.seed, &cr);
		lk_fields_csp_rating(rec, &cr, NULL);
		lk_fields_rate_csp(rec, level, &cr, 0);
		limit = cr.limit;
		/* written when the runs were made (fields.c: write_runs), known
		 * when every run asked for solved the level */
		keep_difficulty(j, cr.status != LK_UNSOLVABLE && (cr.runs_wanted || cr.single_method) &&
				   cr.runs_solved == cr.runs_wanted, cr.mean);
	}
	j->status = status;
	return check_difficulty(o, j, limit, why);
}

/* A level that starts solved is no puzzle (a generator may not see it:
 * Sokoban's backward one can pull boxes out and back in). */
static bool solved_at_start(const struct lk_level *level)
{
	unsigned char *key = lk_xmalloc(level->key_size);
	level->game->initial_state(level, key);
	bool solved = level->game->is_goal(level, key);
	free(key);
	return solved;
}

/* The game's own fields the thresholds read, from the fields its
 * analysis hook wrote (Skiddy's stars): read once, as they come in. */
static void read_own_fields(const struct lk_gen_options *o, const struct lk_record *rec,
			    struct lk_judged *j)
{
	for (size_t i = 0; i < o->nthresholds; i++)
		if (!j->has_field[i])
			j->has_field[i] = field_number(rec, o->thresholds[i].field->name, &j->field[i]);
}

/* A generator that solved its level itself gave the answer as fields
 * (Sokoban's backward generator): read once, as it comes in. */
static void read_given(const struct lk_gen_options *o, const struct lk_record *rec,
		       struct lk_judged *j)
{
	const char *solvable = lk_record_get(rec, "solvable");
	if (!solvable)
		return;
	j->answered = true;
	j->status = strcmp(solvable, "yes") == 0  ? LK_SOLVED
		    : strcmp(solvable, "no") == 0 ? LK_UNSOLVABLE
						    : LK_UNKNOWN;
	j->has_moves = field_number(rec, "moves", &j->moves);
	read_own_fields(o, rec, j);
}

/* Whether a rating the analysis wrote (Skiddy's stars) is below its
 * threshold; a level without the field rates below any. */
static bool below_rating(const struct lk_gen_options *o, const struct lk_judged *j)
{
	for (size_t i = 0; i < o->nthresholds; i++) {
		const struct lk_gen_threshold *t = &o->thresholds[i];
		if (t->field->rating && (j->has_field[i] ? j->field[i] : -1) < t->range.min)
			return true;
	}
	return false;
}

/* A solution's lengths (moves, and the thresholds on the game's count
 * fields: Sokoban's pushes) from its labelled moves. */
static void keep_lengths(const struct lk_level *level, const struct lk_gen_options *o,
			 const struct lk_moves *m, struct lk_judged *j)
{
	j->has_moves = true;
	j->moves = (double)m->inputs;
	for (size_t i = 0; i < o->nthresholds; i++)
		for (const struct lk_count_field *f = level->game->count_fields; f && f->name; f++)
			if (strcmp(f->name, o->thresholds[i].field->name) == 0) {
				j->has_field[i] = true;
				j->field[i] = (double)lk_moves_count(m, f->fact);
			}
}

static bool wants_rating_field(const struct lk_gen_options *o)
{
	for (size_t i = 0; i < o->nthresholds; i++)
		if (o->thresholds[i].field->rating)
			return true;
	return false;
}

/* Small tilt and slide games are analysed whole, as rate would: one
 * exploration gives the shortest solution, the dead ends and the game's
 * own fields (Skiddy's stars). */
static int judge_graph(const struct lk_level *level, const struct lk_gen_options *o,
		       struct lk_record *rec, struct lk_judged *j, enum lk_reject *why)
{
	struct lk_analysis a;
	lk_analysis_init(&a);
	lk_analyse(level, &o->rating.search, &a);
	bool complete = a.complete, solved = a.solution != NULL;
	enum lk_limit limit = a.limit;
	j->dead_ends = a.dead_ends;
	if (solved && !j->answered) {
		struct lk_moves m;
		lk_moves_init(&m, level);
		lk_fields_solution_kept(rec, level, a.solution, a.solution_keys, true, &m);
		keep_lengths(level, o, &m, j);
		lk_moves_release(&m);
		j->answered = true;
		j->status = LK_SOLVED;
	}
	lk_fields_analysis(rec, level, &a);
	lk_analysis_release(&a);
	for (size_t i = 0; i < o->nthresholds; i++)   /* the analysis wrote them afresh */
		if (o->thresholds[i].field->rating)
			j->has_field[i] = false;
	read_own_fields(o, rec, j);
	const char *own = level->game->moves_field;
	if (own)   /* the moves thresholds read the game's field (Skiddy's combo-moves) */
		j->has_length = field_number(rec, own, &j->length);
	if (!complete)
		*why = lk_reject_of_limit(limit);
	else if (!solved && !j->answered)
		*why = LK_REJECT_UNSOLVABLE;
	else if (o->no_dead_ends && j->dead_ends)
		*why = LK_REJECT_DEAD_END;
	else if (below_rating(o, j))
		*why = LK_REJECT_RATING;
	else
		return 0;
	return -1;
}

/* Solve the level when the generator did not; it must be solvable and
 * not solved at its start. */
static int judge_solution(struct lk_gen_worker *w, const struct lk_level *level,
			  const struct lk_gen_options *o, struct lk_record *rec, struct lk_judged *j,
			  enum lk_reject *why)
{
	enum lk_limit limit = LK_LIMIT_NONE;
	if (!j->answered) {
		struct lk_search_result r;
		struct lk_moves m;
		lk_search_result_init(&r);
		lk_moves_init(&m, level);
		lk_solver_run(&w->solver, level, &o->rating.search, &r);
		lk_fields_solve_kept(rec, level, &r, &m);
		if (r.status == LK_SOLVED)
			keep_lengths(level, o, &m, j);
		j->answered = true;
		j->status = r.status;
		limit = r.limit;
		lk_moves_release(&m);
		lk_search_result_release(&r);
	}
	if (j->status != LK_SOLVED)
		*why = j->status == LK_UNSOLVABLE ? LK_REJECT_UNSOLVABLE : lk_reject_of_limit(limit);
	else if (j->has_moves && j->moves == 0)
		*why = LK_REJECT_SOLVED;
	else
		return 0;
	return -1;
}

/* The length thresholds: the game's own (Sokoban's pushes), then moves,
 * read from the game's field (Skiddy's perfect solution, combo-moves),
 * which a level may lack. */
static int check_lengths(const struct lk_level *level, const struct lk_gen_options *o,
			 const struct lk_record *rec, struct lk_judged *j, bool analysed,
			 enum lk_reject *why)
{
	read_own_fields(o, rec, j);   /* a field no search of the judge's made */
	for (size_t i = 0; i < o->nthresholds; i++) {
		const struct lk_gen_threshold *t = &o->thresholds[i];
		double v = j->field[i];
		if (t->field->rating || !lk_range_set(&t->range) || !j->has_field[i] ||
		    lk_range_has(&t->range, v))
			continue;
		*why = v < t->range.min ? LK_REJECT_SHORT : LK_REJECT_LONG;
		return -1;
	}
	if (!lk_range_set(&o->moves))
		return 0;
	bool own = analysed && level->game->moves_field;
	double v = own ? j->length : j->moves;
	if (!(own ? j->has_length : j->has_moves)) {
		*why = LK_REJECT_SHORT;   /* e.g. no max-combo solution at all */
		return -1;
	}
	if (!lk_range_has(&o->moves, v)) {
		*why = v < o->moves.min ? LK_REJECT_SHORT : LK_REJECT_LONG;
		return -1;
	}
	return 0;
}

/* --require: no solution may avoid the concept.  A generator that
 * guarantees it already wrote the answer (the laser game's generator
 * proves it while it designs); otherwise the level is asked the shortcut
 * query, over the game's finest graph for a state-space game.  A level the
 * query cannot decide within the bounds is turned down: gen only keeps
 * what it proved. */
static int judge_require(struct lk_gen_worker *w, const struct lk_gen_options *o,
			 struct lk_record *rec, enum lk_reject *why)
{
	if (!o->require)
		return 0;
	const char *done = lk_record_get(rec, "concept"), *yes = lk_record_get(rec, "requires");
	if (done && yes && strcmp(done, o->require_text) == 0 && strcmp(yes, "yes") == 0)
		return 0;
	const struct lk_game *game = lk_game_find(lk_record_game(rec));
	if (!game)
		return (*why = LK_REJECT_INVALID), -1;
	struct lk_level_options lo = game->csp ? o->level : lk_concept_level_options(game);
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *level = lk_level_load(rec, &lo, &err, &line);
	struct lk_concept_result r;
	lk_concept_result_init(&r);
	int rc = level ? 0 : -1;
	if (rc == 0 && game->csp) {
		struct lk_csp_options co;
		lk_csp_options_init(&co);
		co.bounds = o->rating.search.bounds;
		rc = game->csp->concept ? game->csp->concept(level, o->require, LK_FORALL, &co, &r, &err)
					: -1;
	} else if (rc == 0 && (rc = lk_concept_check(level, o->require, &err)) == 0) {
		lk_concept_search(&w->solver, level, o->require, LK_FORALL, &o->rating.search, &r);
	}
	lk_strbuf_release(&err);
	if (rc == 0)
		lk_fields_concept(rec, LK_FORALL, o->require_text, &r, false);
	if (rc < 0)
		*why = LK_REJECT_INVALID;
	else if (r.answer == LK_FALSE)
		*why = LK_REJECT_SHORTCUT;
	else if (r.answer != LK_TRUE)
		*why = r.limit != LK_LIMIT_NONE ? lk_reject_of_limit(r.limit) : LK_REJECT_UNDECIDED;
	bool proved = rc == 0 && r.answer == LK_TRUE;
	lk_concept_result_release(&r);
	if (level)
		lk_level_free(level);
	return proved ? 0 : -1;
}

static int judge_rating(struct lk_gen_worker *w, const struct lk_level *level,
			const struct lk_gen_options *o, struct lk_record *rec, struct lk_judged *j,
			enum lk_reject *why)
{
	if (!wants_rating(o))
		return 0;
	struct lk_rating r;
	lk_rating_init(&r);
	lk_rate(&w->solver, level, &o->rating, &r);
	lk_fields_rating(rec, level, &r);
	/* written by lk_fields_rating unless the level was proved unsolvable,
	 * known when every run asked for solved it */
	bool best = r.optimal.status == LK_SOLVED || r.other.status == LK_SOLVED;
	keep_difficulty(j, (best || !r.unsolvable) && r.runs_wanted &&
			   r.runs_solved == r.runs_wanted, r.mean);
	struct lk_feature_options fo = { o->rating.search, o->rating.seed, 0 };
	lk_fields_rate_level(rec, &w->solver, level, &r, &fo, 0);
	/* the bound behind a difficulty that is not known (any, when the
	 * optimal solve hit none) */
	enum lk_limit limit = r.optimal.limit;
	for (int l = LK_LIMIT_INTERRUPTED; l > LK_LIMIT_NONE && limit == LK_LIMIT_NONE; l--)
		if (r.limits & LK_LIMIT_BIT(l))
			limit = (enum lk_limit)l;
	lk_rating_release(&r);
	return check_difficulty(o, j, limit, why);
}

int lk_judge(struct lk_gen_worker *w, const struct lk_gen_options *o, const struct lk_level *level,
	     struct lk_record *rec, struct lk_judged *j, enum lk_reject *why)
{
	memset(j, 0, sizeof *j);
	j->status = LK_UNKNOWN;
	read_given(o, rec, j);
	int rc;
	if (level->game->csp) {
		rc = judge_csp(level, o, rec, j, why);
	} else if (solved_at_start(level)) {
		*why = LK_REJECT_SOLVED;
		rc = -1;
	} else {
		bool analyse = level->game->whole_graph || o->no_dead_ends || wants_rating_field(o);
		rc = analyse ? judge_graph(level, o, rec, j, why) : 0;
		if (rc == 0)
			rc = judge_solution(w, level, o, rec, j, why);
		if (rc == 0)
			rc = check_lengths(level, o, rec, j, analyse, why);
		if (rc == 0)
			rc = judge_require(w, o, rec, why);
		if (rc == 0)
			rc = judge_rating(w, level, o, rec, j, why);
	}
	if (level->game->csp && rc == 0)
		rc = judge_require(w, o, rec, why);
	return rc;
}
