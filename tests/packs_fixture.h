/*
 * packs_fixture.h - what the pack tests (test_packs.c, packs_errors.c)
 * share, defined in packs_fixture.c: files of levels/packs read whole, a
 * reader over bytes in memory, a pack read as its levels and compared
 * with another, records parsed from text and written back; and the test
 * functions of packs_errors.c, which test_packs.c's main runs.
 */
#ifndef LEVELKIT_TESTS_PACKS_FIXTURE_H
#define LEVELKIT_TESTS_PACKS_FIXTURE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "levelkit/record.h"

/* A file's bytes (len set), and a fixture's path in levels/packs. */
char *slurp(const char *path, size_t *len);
char *pack_path(const char *name);

/* A reader over bytes in memory. */
struct src {
	FILE *fp;
	struct lk_reader r;
};

void src_open(struct src *s, const char *data, size_t len, const char *name);
void src_close(struct src *s);

/* What a level is, whatever its layout: its start drawn by the game with
 * the blank columns and rows around it left out, its title, its solution. */
struct level {
	char *drawing;
	char *title;
	char *solution;
	bool solved;          /* the solution replays to the goal */
};

struct pack {
	struct level *levels;
	size_t nlevels, alloc;
	size_t records, errors;
};

/* Read a stream; every record must be well formed unless errors are
 * allowed (then counted). */
void read_pack(struct lk_reader *r, struct pack *pk, bool errors_ok);
/* A fixture of levels/packs, every record well formed. */
void read_file(const char *name, struct pack *pk);
void read_text(const char *text, size_t len, struct pack *pk, bool errors_ok);
void pack_release(struct pack *pk);
void expect_same_levels(const struct pack *a, const struct pack *b, const char *what);
void expect_same_titles(const struct pack *a, const struct pack *b, const char *what);

/* Parse text that must give exactly the given number of records; the
 * records are left in recs (the caller releases them). */
size_t parse_all(const char *text, struct lk_record *recs, size_t max, int *status);
/* A record written back as text. */
char *text_of(const struct lk_record *rec);

/* ---------------------------------------- the tests of packs_errors.c */

void test_bad_sok(void **state);
void test_bad_slc(void **state);
void test_slc_errors_on_one_line(void **state);
void test_layout_rules(void **state);
void test_decode_line(void **state);
void test_replay_groups(void **state);

#endif
