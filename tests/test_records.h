/*
 * test_records.h - one record read from a text, as the commands read a
 * file of that name (the name's extension picks the format: ".xsb",
 * ".lvl"): the helper every test that builds levels from text uses.
 * Linked into every test executable (tests/CMakeLists.txt).
 */
#ifndef LEVELKIT_TEST_RECORDS_H
#define LEVELKIT_TEST_RECORDS_H

#include <stdio.h>

#include "levelkit/game.h"
#include "levelkit/record.h"

/* Read the first record of text, as from a file named name, into rec
 * (initialised here); fails the test when there is none. */
void test_read_record(const char *text, const char *name, struct lk_record *rec);
/* The level of the first record of text (read as from "test.xsb") under
 * opt; fails the test, with the message, when it does not load, or when
 * game is not NULL and the level is another game's. */
/* The file rel under LEVELKIT_DATA (../shared/data), opened for reading,
 * its path written into path; the test is skipped, saying so, when the
 * data is not there. */
FILE *test_open_data(const char *rel, char *path, size_t size);
struct lk_level *test_load_level(const char *text, const struct lk_level_options *opt,
				 const char *game);

#endif
