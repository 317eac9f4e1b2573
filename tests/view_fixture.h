/*
 * view_fixture.h - what the view tests (test_view.c, view_keys.c,
 * view_writers.c) share, defined in view_fixture.c: records read from text
 * and from files, levels loaded from them, a state's text, a record solved
 * in a bounded search, the fixtures' folder; and the test functions of
 * view_keys.c and view_writers.c, which test_view.c's main runs.
 */
#ifndef LEVELKIT_TESTS_VIEW_FIXTURE_H
#define LEVELKIT_TESTS_VIEW_FIXTURE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "levelkit/game.h"
#include "levelkit/record.h"

/* The first record of a text. */
void read_record(const char *text, struct lk_record *rec);
/* Every level record of a file (records without a grid skipped). */
size_t read_file(const char *path, struct lk_record **out);
void free_records(struct lk_record *recs, size_t n);
struct lk_level *load(const struct lk_record *rec, const char *metric, bool plain);
char *state_text(const struct lk_level *level, const unsigned char *key);
/* Solve a record (greedy, bounded) and set its solution field. */
void solve_record(struct lk_record *rec);
/* The test fixtures' folder (tests/levels), and a file's path in a folder. */
const char *levels_dir(void);
char *path_of(const char *dir, const char *name);

/* ------------------------------------------- the tests of view_keys.c */

void test_sokoban_keys_by_hand(void **state);
void test_slide_keys_by_hand(void **state);
void test_keys_agree_with_replay(void **state);

/* ---------------------------------------- the tests of view_writers.c */

void test_films_rebuild_every_frame(void **state);
void test_film_statuses(void **state);
void test_svg(void **state);
void test_middle_cut(void **state);
void test_ansi(void **state);
void test_page(void **state);
void test_choose(void **state);

#endif
