/*
 * fruit_fixture.h - what the Fruit Dating tests (test_fruit.c,
 * fruit_brute.c) share, defined in fruit_fixture.c: levels loaded from
 * text, errors expected at a line, levels solved three ways; and the test
 * function of fruit_brute.c, which test_fruit.c's main runs.
 */
#ifndef LEVELKIT_TESTS_FRUIT_FIXTURE_H
#define LEVELKIT_TESTS_FRUIT_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "levelkit/game.h"
#include "levelkit/record.h"

/* The first record of a text, and the Fruit Dating level it holds. */
void read_record(const char *text, struct lk_record *rec);
struct lk_level *load(const char *text);
/* Expect text to be rejected with a message containing want, on line. */
void expect_error(const char *text, const char *want, size_t want_line);
/* Solve by BFS, UCS and A*, which must agree; returns the cost or -1 if
 * proved unsolvable.  The solution is formatted into sol (u/r/d/l) and
 * replayed to a win. */
long solve_all(const struct lk_level *level, char *sol, size_t solsz);

/* ----------------------------------------- the test of fruit_brute.c */

void test_random_against_brute_force(void **state);

#endif
