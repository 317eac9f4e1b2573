/*
 * test_files.h - what the tests of the commands' files share (test_output.c,
 * test_pipeline.c): a fresh directory for a test group, writing a file,
 * reading one back, and checking a file's text or its absence on the file
 * system itself, apart from the code under test's own bookkeeping.
 * Include it after <cmocka.h>.
 */
#ifndef LEVELKIT_TEST_FILES_H
#define LEVELKIT_TEST_FILES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest file the tests read back. */
#define TEST_FILE_MAX (1 << 16)

/* A fresh directory /tmp/lk_NAME.XXXXXX into dir (at least 64 bytes):
 * 0, or -1. */
static inline int test_dir_make(char *dir, size_t size, const char *name)
{
	snprintf(dir, size, "/tmp/lk_%s.XXXXXX", name);
	return mkdtemp(dir) ? 0 : -1;
}

static inline int test_dir_remove(const char *dir)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static inline void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* The file's text ("" when empty), or NULL when it does not exist. */
static inline char *read_file(const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return NULL;
	char *buf = calloc(1, TEST_FILE_MAX);
	assert_non_null(buf);
	size_t n = fread(buf, 1, TEST_FILE_MAX - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* The file holds exactly text; text NULL: the file does not exist. */
static inline void assert_file(const char *path, const char *text)
{
	char *got = read_file(path);
	if (!text) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, text);
	free(got);
}

#endif
