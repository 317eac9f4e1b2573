/*
 * concept.h - "every solution" and "some solution" questions about a
 * state-space level (Refraction's quantifying over play, for every game).
 *
 * A concept is a condition (expr.h) over the facts of one solution:
 * count(F) and uses(F) for a fact F the level's moves carry ("push",
 * "box 2", "anteater", "rule 7"), `length` (or `moves`), the game's count
 * fields (`pushes`) and win kinds (Skiddy's `combo`).  The questions:
 *   LK_FORALL  does every solution satisfy it?  If not, the witness is a
 *              shortcut: a solution that does not (with the fewest of the
 *              facts the concept asks for, where it asks for at least some);
 *   LK_EXISTS  does some solution satisfy it?  The witness is one.
 *
 * Solutions are walks from the start to a goal (the game ends at the
 * goal), as long as the player likes, so no enumeration of paths can
 * answer these.  The search runs on a product of the level's states with
 * the counts the concept reads, each count kept only up to one more than
 * the largest number the concept compares it with (beyond that the
 * concept cannot tell counts apart).  A count the concept only ever wants
 * small (forall count(push) >= 30 asks whether some solution has at most
 * 29 pushes) is not kept at all but becomes the search's cost: an edge
 * costs the number of those facts it carries, and uniform-cost search
 * over the level's own state table finds the least count, a shortest-path
 * question.  Every answer is exact, or unknown when a bound of the search
 * (states, memory, time) is hit first.
 *
 * The level must keep every solution a path of its graph: built under its
 * finest metric ("moves"), where a game prunes only states no solution
 * passes through (lk_concept_level_options).
 */
#ifndef LEVELKIT_CONCEPT_H
#define LEVELKIT_CONCEPT_H

#include "levelkit/expr.h"
#include "levelkit/game.h"
#include "levelkit/search.h"

/* The options a level must be built with for concept queries (the
 * finest metric, no pruning that loses solutions). */
struct lk_level_options lk_concept_level_options(const struct lk_game *game);

/* Check that every name in the concept is one the level knows: 0, or -1
 * with a message naming the first unknown one and what there is. */
int lk_concept_check(const struct lk_level *level, const struct lk_expr *concept,
		     struct lk_strbuf *err);

/* Answer the question within the bounds of opt (max_states, max_memory,
 * timeout, cancel; the other members are ignored), with s's memory. */
void lk_concept_search(struct lk_solver *s, const struct lk_level *level,
		       const struct lk_expr *concept, enum lk_quantifier q,
		       const struct lk_search_options *opt, struct lk_concept_result *r);

#endif
