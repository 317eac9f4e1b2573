/*
 * laser_test_util.h - what the laser game's tests (test_laser*.c) share,
 * written in laser_test_util.c: records and levels from text or from
 * ../shared/laser/levels (LEVELKIT_DATA), counts, evaluation of a placement.
 */
#ifndef LEVELKIT_TESTS_LASER_TEST_UTIL_H
#define LEVELKIT_TESTS_LASER_TEST_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "levelkit/csp.h"
#include "levelkit/difficulty.h"
#include "levelkit/expr.h"
#include "levelkit/game.h"
#include "laser.h"   /* src/games/laser: the game's own API */
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/rng.h"

/* One record from text (the first of it). */
void read_record(const char *text, struct lk_record *rec);
/* A level from record text; the test fails if it does not validate. */
struct lk_laser *load(const char *text);
/* A record that must not validate: its message and line index. */
void load_fails(const char *text, const char *message, size_t want_line);
/* The text of LEVELKIT_DATA/../laser/levels/NAME (free it), or NULL. */
char *data_file(const char *name);
/* A .lvl level of ../shared/laser/levels. */
struct lk_laser *load_lvl(const char *name);
/* All (or tidy) solutions, by the default search, which must finish. */
uint64_t count(const struct lk_laser *lv, bool tidy);
/* The firing simulation of a placement's text. */
struct lk_laser_eval evaluate(const struct lk_laser *lv, const char *placement);
/* SPEC.md's split example as a record. */
extern const char split_record[];

#endif
