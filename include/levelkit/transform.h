/*
 * transform.h - MixedAim's transformer for Sokoban: mutate a level with
 * rules (see rules.h), keep the solvable mutations, and climb towards
 * harder levels; with suggestions, keep the K hardest distinct ones.
 */
#ifndef LEVELKIT_GEN_TRANSFORM_H
#define LEVELKIT_GEN_TRANSFORM_H

#include <signal.h>
#include <stdio.h>

#include "levelkit/generate.h"

/* The rules text of a preset (walls, move, pair, mix, pull, push), or
 * NULL. */
const char *lk_transform_preset(const char *name);

struct lk_suggest_options {
	unsigned k;                 /* suggestions kept (MixedAim shows 4) */
	uint64_t max_candidates;    /* 0 = until interrupted */
	double max_seconds;         /* 0 = no limit */
	double timeout_cap;         /* the longest a solve may take */
	const volatile sig_atomic_t *cancel;
};

struct lk_suggest_stats {
	uint64_t candidates, invalid, solvable, unsolvable, timed_out, updates;
	uint64_t solved_start;      /* solved before any move: not a puzzle */
	double first_update;        /* seconds until the first suggestion, or -1 */
	double seconds;
};

/* Called whenever the suggestions change: the current ones, hardest first
 * (records with the level and its fields). */
typedef void (*lk_suggest_cb)(void *ctx, struct lk_record *const *top, size_t n,
			      const struct lk_suggest_stats *st);

/*
 * Run the transformer on o->from (or a random room) until a limit or
 * *cancel, calling cb on every change of the K hardest distinct solvable
 * levels.  Solves get adaptive time limits as in MixedAim: a tenth of the
 * time spent so far until a first solvable level is found, then 8 times
 * the longest solve among the current suggestions.  Returns 0, or -1 with
 * err (bad options).
 */
int lk_transform_suggest(const struct lk_gen_options *o, struct lk_rng *rng,
			 const struct lk_suggest_options *so, lk_suggest_cb cb, void *ctx,
			 struct lk_suggest_stats *st, struct lk_strbuf *err);

#endif
