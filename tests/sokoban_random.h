/*
 * sokoban_random.h - the random small Sokoban levels the technique suites
 * play against raw breadth-first search, and the checks they share
 * (sokoban_random.c).
 */
#ifndef LEVELKIT_TESTS_SOKOBAN_RANDOM_H
#define LEVELKIT_TESTS_SOKOBAN_RANDOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/game.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"

/* Under the sanitizers (a Debug build, many times slower) the suites draw
 * one in SOKO_TEST_SHARE of their random levels (or positions) and ask for
 * the same share of each "at least so many" count; the release suite runs
 * them whole. */
#ifdef LEVELKIT_SANITIZED
#define SOKO_TEST_SHARE 3
#else
#define SOKO_TEST_SHARE 1
#endif

/* The shape of the levels drawn: interior width wmin..wmin+wspan-1, height
 * hmin..hmin+hspan-1, boxes bmin..bmin+bspan-1 (as many goals, all on
 * distinct squares), walls on wall_min..wall_min+wall_span-1 % of the
 * interior.  A span of 1 draws nothing, so suites keep their sequences. */
struct soko_random_shape {
	int wmin, wspan, hmin, hspan, bmin, bspan;
	unsigned wall_min, wall_span;
};

/* Interior 4..7 x 4..6, 2 to 5 boxes: the shape of the stall-turn and
 * parking suites, one definition for all of them. */
extern const struct soko_random_shape soko_small_shape;

/* A random enclosed level of that shape, or NULL when the draw has too
 * little floor.  The caller frees the text. */
char *soko_random_level(struct lk_rng *rng, const struct soko_random_shape *shape);

/* The next random level of that shape whose raw answer (soko_raw_answer
 * within max_states) is known, stored in *want.  The caller frees the text. */
char *soko_random_answered(struct lk_rng *rng, const struct soko_random_shape *shape,
			   size_t max_states, int *want);

/* The levels a suite has drawn: how many, how many solvable, how many not;
 * with live set, unsolvable levels proved dead before any search
 * (soko_dead_at_start) are skipped too. */
struct soko_mix {
	int levels, yes, no;
	bool live;
};

/* The next answered level (as soko_random_answered), counted in *mix, that
 * keeps the unsolvable ones to about one in share of those drawn (an
 * unsolvable draw is skipped while more than levels / share are). */
char *soko_random_mixed(struct lk_rng *rng, const struct soko_random_shape *shape,
			size_t max_states, int share, struct soko_mix *mix, int *want);

/* The next random level of that shape that loads (with the techniques off
 * turned off, as soko_test_load) and is not dead at the start, its text in
 * *text.  The caller frees both. */
struct lk_level *soko_random_live(struct lk_rng *rng, const struct soko_random_shape *shape,
				  const char *const *off, char **text);

/* The techniques off by default (LK_TECH_OFF) that soko_test_load turns
 * on, NULL-terminated; NULL (the default): none. */
extern const char *const *soko_test_on;

/* A level of text, measured in pushes, with the named techniques off
 * (NULL-terminated list, or NULL) and plain (no pruning at all) or not. */
struct lk_level *soko_test_load(const char *text, const char *const *off, bool plain);

/* The index of the Sokoban technique called name (fails the test if none). */
int soko_test_technique(const char *name);

/* The raw answer: forward BFS over pushes with nothing pruned, 1 solvable,
 * 0 not, or -1 if it needs more than max_states states. */
int soko_raw_answer(const char *text, size_t max_states);

/* Loads text with the techniques off turned off and searches it for any
 * solution into r (initialised here): -a any as solve runs it, or with
 * first_only the first feature-space search alone (goal-room macros and
 * relevance cuts on, no search again without them).  The caller releases r
 * and frees the level returned. */
struct lk_level *soko_any_run(const char *text, const char *const *off, bool first_only,
			      struct lk_search_result *r);

/* Is the level proved dead before any search (dead squares, freeze,
 * bipartite at the start)?  Such levels give a schedule nothing to do. */
bool soko_dead_at_start(const char *text);

/* Fails the test unless the solution of r replays to a win. */
void soko_check_replays(const struct lk_level *level, const struct lk_search_result *r);

/* soko_any_run (not first_only) into r, failing the test (what names the
 * run) unless it answers as raw BFS did (want: 1 solvable, 0 not) and its
 * solution replays.  The caller releases r and frees the level returned. */
struct lk_level *soko_any_as_raw(const char *text, const char *const *off, int want,
				 const char *what, struct lk_search_result *r);

/* A level answered by `-a any` twice, greedy-first off, with technique
 * `name` off and then on (asked for, whether or not it is on by default),
 * each run as soko_any_as_raw checks it; fails the test if the run with it
 * off counts it.  Returns its counter in the run with it on: the suites of
 * the stall-turn kinds count the levels it acted on from it. */
uint64_t soko_any_off_on(const char *text, int want, const char *name);

/* A level whose boxes must be parked: David W. Skinner's Sasquatch II
 * level 19 (../shared/data/sokoban/sasquatch2.xsb; YASS parks two boxes on
 * it): the goals at the top and the right can only be filled once boxes
 * have been moved out of the way and back. */
extern const char soko_test_crossing[];

/* End a run begun with soko_plandead_set_check(true): every move the plan
 * and park deadlock tests decided through a shared or cached flood was
 * decided again with floods of its own (the way before session 39); fails
 * unless at least 1000 / SOKO_TEST_SHARE were and none differed.  `what`
 * names the test in the message. */
void soko_check_plandead_same(const char *what);

#endif
