/*
 * record_fixture.h - what the record tests (test_record.c, record_edit.c)
 * share, defined in record_fixture.c: a reader over bytes in memory, a
 * text parsed as one record, a record's text, a text through a writer;
 * and the test functions of record_edit.c, which test_record.c's main
 * runs.
 */
#ifndef LEVELKIT_TESTS_RECORD_FIXTURE_H
#define LEVELKIT_TESTS_RECORD_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "levelkit/record.h"

/* A reader over the given bytes (which may contain NULs). */
struct src {
	FILE *fp;
	struct lk_reader r;
};

void src_open(struct src *s, const char *data, size_t len);
void src_close(struct src *s);
/* Parse text that must hold exactly one well-formed record. */
void parse_one(const char *text, struct lk_record *rec);
/* A record written back as text. */
char *record_text(const struct lk_record *rec);
/* Every record of input written in a format (extra: more tsv columns). */
char *format(enum lk_format fmt, const char *const *extra,
	     const char *input);

/* ----------------------------------------- the tests of record_edit.c */

void test_get_set_unset(void **state);
void test_duplicate_fields(void **state);
void test_set_grid(void **state);
void test_title_and_game(void **state);
void test_copy(void **state);
void test_format_parse(void **state);
void test_json_numbers(void **state);
void test_json_escaping(void **state);
void test_tsv(void **state);
void test_writer_put(void **state);
void test_round_trip_packs(void **state);

#endif
