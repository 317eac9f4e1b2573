/*
 * analysis_brute.h - what the whole-graph analysis test (test_analysis.c)
 * takes from analysis_brute.c: levels loaded from text, the brute-force
 * truth of a level and lk_analyse compared with it, and the dead-end path
 * lk_analyse finds.
 */
#ifndef LEVELKIT_TESTS_ANALYSIS_BRUTE_H
#define LEVELKIT_TESTS_ANALYSIS_BRUTE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "levelkit/game.h"

/* What the brute force finds in a level's whole graph. */
struct truth {
	uint64_t reachable, edges, wins, dead;
	uint32_t shortest, combo, plain, dead_depth;
	uint64_t solutions;
	int stars;
};

/* The level of a text, with a metric and pruning or without (plain). */
struct lk_level *load_opt(const char *text, const char *metric, bool plain);
struct lk_level *load(const char *text);
/* lk_analyse against the brute force; returns the truth. */
void compare(const struct lk_level *level, const char *text, struct truth *t);
/* The dead-end path as the game writes it. */
void dead_end_path(const struct lk_level *level, char *out, size_t outsz);

#endif
