/*
 * test_records.c - one record read from a text (test_records.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/registry.h"
#include "test_records.h"

void test_read_record(const char *text, const char *name, struct lk_record *rec)
{
	FILE *fp = tmpfile();
	struct lk_reader r;
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, strlen(text), fp), strlen(text));
	rewind(fp);
	lk_reader_init_fp(&r, fp, name);
	lk_record_init(rec);
	assert_int_equal(lk_reader_next(&r, rec, NULL, NULL), 1);
	lk_reader_close(&r);
	fclose(fp);
}

struct lk_level *test_load_level(const char *text, const struct lk_level_options *opt,
				 const char *game)
{
	struct lk_record rec;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	test_read_record(text, "test.xsb", &rec);
	struct lk_level *level = lk_level_load(&rec, opt, &err, &line);
	if (!level)
		fail_msg("level did not load: line %zu: %s\n%s", line, err.buf, text);
	if (game)
		assert_string_equal(level->game->name, game);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	return level;
}

FILE *test_open_data(const char *rel, char *path, size_t size)
{
	const char *data = getenv("LEVELKIT_DATA");
	snprintf(path, size, "%s/%s", data ? data : "", rel);
	FILE *fp = data ? fopen(path, "rb") : NULL;
	if (!fp) {
		print_message("  skipping: %s not found (set LEVELKIT_DATA)\n", path);
		skip();
	}
	return fp;
}
