/*
 * fields.h - writing results into a record's fields, shared by the
 * commands and the generators so that `gen` writes exactly what `solve`
 * and `rate` would.
 */
#ifndef LEVELKIT_FIELDS_H
#define LEVELKIT_FIELDS_H

#include "levelkit/analysis.h"
#include "levelkit/csp.h"
#include "levelkit/difficulty.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/search.h"

/* moves, and the game's count fields (Sokoban: pushes), of a labelled
 * solution. */
void lk_fields_lengths(struct lk_record *rec, const struct lk_level *level,
		       const struct lk_moves *m);
/* solvable, solution, moves, pushes, optimal, states (and limit when
 * unknown); stale answers of an earlier run are removed. */
void lk_fields_solve(struct lk_record *rec, const struct lk_level *level,
		     const struct lk_search_result *r);
/* ... handing back the solution's labelled moves in kept (lk_moves_init'd
 * by the caller; filled when solved), so that a caller judging by its
 * lengths keeps them as numbers (gen's judge). */
void lk_fields_solve_kept(struct lk_record *rec, const struct lk_level *level,
			  const struct lk_search_result *r, struct lk_moves *kept);
/* A solution given as a path of keys, e.g. by a generator that knows it. */
void lk_fields_solution(struct lk_record *rec, const struct lk_level *level,
			const unsigned char *keys, size_t nkeys, bool optimal);
void lk_fields_solution_kept(struct lk_record *rec, const struct lk_level *level,
			     const unsigned char *keys, size_t nkeys, bool optimal,
			     struct lk_moves *kept);
/*
 * rate's fields: solvable; moves, pushes, optimal and solution of the best
 * solution found (the optimal solve's, else another search's with
 * optimal: no unless it proves optimality; one not proved optimal does not
 * replace a solution the record has); difficulty, difficulty-sd,
 * difficulty-se, difficulty-runs, difficulty-min, states-*, each exact, a
 * bound (">= N") or unknown; limit, every bound any search hit.  The
 * rating and grade are lk_fields_rating_score's.
 */
void lk_fields_rating(struct lk_record *rec, const struct lk_level *level,
		      const struct lk_rating *r);

/* Constraint games: solvable, solutions, unique, nodes, solution. */
void lk_fields_csp_solve(struct lk_record *rec, const struct lk_csp_result *r);
/* ... and their rating: difficulty, difficulty-sd, difficulty-se, difficulty-runs, nodes-static
 * (the multiple method over random square orders), as rate's above;
 * solution when given (may be NULL). */
void lk_fields_csp_rating(struct lk_record *rec, const struct lk_csp_rating *r,
			  const char *solution);

/* The whole-graph analysis: reachable, dead-ends, dead-end-path,
 * solutions, combo-moves, noncombo-moves, stars (or graph: incomplete). */
void lk_fields_analysis(struct lk_record *rec, const struct lk_level *level,
			const struct lk_analysis *a);

/* solve --verify: verified, verify-error, and the lengths of a legal
 * replay (moves NULL for constraint games, whose solutions have none);
 * verify-note, a constraint game's account of a valid solution (note may
 * be NULL). */
void lk_fields_verify(struct lk_record *rec, const struct lk_level *level, bool legal, bool solved,
		      const struct lk_moves *moves, const char *why, const char *note);

/* A concept query (concept.h): concept (the text asked), then for
 * LK_FORALL requires (yes/no/unknown) and shortcut, shortcut-facts; for
 * LK_EXISTS exists and example, example-facts; requires-over or
 * exists-over when the game says which solutions it answered about (the
 * laser game: all or tidy); solvable when the query
 * told; limit when a bound was hit.  Stale answers are removed. */
struct lk_concept_result;
void lk_fields_concept(struct lk_record *rec, int quantifier, const char *concept,
		       const struct lk_concept_result *r, bool stats);

/* --stats: the search's generated, stored, memory, overhead and time, and
 * the counter of each of the game's techniques (lk_technique.counter); and
 * the analysis's graph-edges and graph-time. */
void lk_fields_stats(struct lk_record *rec, const struct lk_level *level,
		     const struct lk_search_result *r);
void lk_fields_graph_stats(struct lk_record *rec, const struct lk_analysis *a);

/* The rating (rating.h): rating ("6.5", ">= 8.2" or unknown) and grade
 * read off it, and with explain what contributed (explain); the features
 * as f-NAME fields (rate --features, for bench/rating_fit.py); and no
 * rating (an unsolvable level). */
struct lk_features;
struct lk_score;
void lk_fields_rating_score(struct lk_record *rec, const struct lk_features *f,
			    const struct lk_score *s, bool explain);
void lk_fields_features(struct lk_record *rec, const struct lk_features *f);
void lk_fields_no_rating(struct lk_record *rec);
/* All of it for a level lk_rate (or lk_csp_rate) has rated: the features
 * computed (with solver for any search still needed), scored and written;
 * flags LK_RATE_EXPLAIN and LK_RATE_FEATURES add explain and f-NAME. */
#define LK_RATE_EXPLAIN 1u
#define LK_RATE_FEATURES 2u
struct lk_feature_options;
void lk_fields_rate_level(struct lk_record *rec, struct lk_solver *solver,
			  const struct lk_level *level, const struct lk_rating *r,
			  const struct lk_feature_options *fo, unsigned flags);
void lk_fields_rate_csp(struct lk_record *rec, const struct lk_level *level,
			const struct lk_csp_rating *r, unsigned flags);

#endif
