/*
 * test_output.c - unit tests for the commands' inputs and outputs in the
 * library (actions.h): the inputs read in turn (input.c, lk_inputs_*),
 * and the rule that protects a user's files (output.c, lk_output_*), the
 * one every command writes under:
 * each case sets up files in a fresh directory, opens an output as a
 * command would, and checks on the file system what was refused, created,
 * kept, renamed or removed, independently of the rule's own bookkeeping.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "levelkit/actions.h"
#include "test_files.h"

/* ---------------------------------------------------------------- helpers */

static char dir[64];
static char path_a[96], path_b[96];

static int setup(void **state)
{
	(void)state;
	if (test_dir_make(dir, sizeof dir, "test_output") < 0)
		return -1;
	snprintf(path_a, sizeof path_a, "%s/a.xsb", dir);
	snprintf(path_b, sizeof path_b, "%s/b.xsb", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return test_dir_remove(dir);
}

/* How many entries the directory holds (no temporary file left over). */
static int entries(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	int n = -1;
	assert_int_equal(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

/* ------------------------------------------------------------------ tests */

/* An existing file, even an empty one, is refused: nothing is touched. */
static void test_existing_refused(void **state)
{
	(void)state;
	const char *texts[] = { "; Level 1\n#####\n", "" };
	for (size_t i = 0; i < 2; i++) {
		write_file(path_b, texts[i]);
		struct lk_output_rule rule = { .format = LK_FORMAT_TEXT };
		struct lk_output o;
		struct lk_strbuf err = LK_STRBUF_INIT;
		assert_int_equal(lk_output_open(&o, path_b, &rule, &err), -1);
		assert_non_null(strstr(err.buf, "--force replaces it"));
		assert_file(path_b, texts[i]);
		lk_strbuf_release(&err);
		assert_int_equal(lk_output_check(path_b, &rule, &err), -1);
		lk_strbuf_release(&err);
		/* gen's wording: the size, and --resume when it can continue */
		rule.resumable = true;
		assert_int_equal(lk_output_check(path_b, &rule, &err), -1);
		assert_non_null(strstr(err.buf, "--resume"));
		assert_non_null(strstr(err.buf, i == 0 ? "holds 16 bytes" : "holds 0 bytes"));
		lk_strbuf_release(&err);
	}
	unlink(path_b);
}

/* --force replaces; appending continues; a device holds nothing to lose. */
static void test_force_append_device(void **state)
{
	(void)state;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_output o;
	write_file(path_b, "old\n");
	struct lk_output_rule rule = { .format = LK_FORMAT_TEXT, .force = true };
	assert_int_equal(lk_output_open(&o, path_b, &rule, &err), 0);
	assert_false(o.created);
	fputs("new\n", o.fp);
	assert_int_equal(lk_output_close(&o, true, false, &err), 0);
	assert_file(path_b, "new\n");

	struct lk_output_rule append = { .format = LK_FORMAT_TEXT, .append = true };
	assert_int_equal(lk_output_open(&o, path_b, &append, &err), 0);
	fputs("more\n", o.fp);
	/* nothing written by this run: a file it did not create stays */
	assert_int_equal(lk_output_close(&o, true, true, &err), 0);
	assert_file(path_b, "new\nmore\n");

	struct lk_output_rule plain = { .format = LK_FORMAT_TEXT };
	assert_int_equal(lk_output_open(&o, "/dev/null", &plain, &err), 0);
	assert_int_equal(lk_output_close(&o, true, true, &err), 0);
	assert_int_equal(err.len, 0);
	unlink(path_b);
}

/* A new file is created; with nothing written it is removed again. */
static void test_created(void **state)
{
	(void)state;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_output o;
	struct lk_output_rule rule = { .format = LK_FORMAT_TSV };
	assert_int_equal(lk_output_open(&o, path_b, &rule, &err), 0);
	assert_true(o.created);
	assert_int_equal(lk_output_close(&o, true, true, &err), 0);
	assert_file(path_b, NULL);

	assert_int_equal(lk_output_open(&o, path_b, &rule, &err), 0);
	fputs("x\n", o.fp);
	assert_int_equal(lk_output_close(&o, true, false, &err), 0);
	assert_file(path_b, "x\n");
	/* made by the last run, but not by this one: refused */
	assert_int_equal(lk_output_open(&o, path_b, &rule, &err), -1);
	lk_strbuf_release(&err);
	unlink(path_b);
	assert_int_equal(entries(), 0);
}

/* An input is replaced by renaming a complete output over it, only in
 * text, never over an SLC collection, and left alone when not complete. */
static void test_replace_input(void **state)
{
	(void)state;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_output o;
	char *inputs[] = { "-", path_a };
	write_file(path_a, "old\n");
	struct lk_output_rule rule = { .inputs = inputs, .ninputs = 2, .format = LK_FORMAT_TEXT };
	assert_int_equal(lk_output_open(&o, path_a, &rule, &err), 0);
	assert_true(o.replaces_input);
	fputs("new\n", o.fp);
	assert_file(path_a, "old\n");   /* still readable while written */
	assert_int_equal(lk_output_close(&o, true, false, &err), 0);
	assert_file(path_a, "new\n");
	assert_int_equal(entries(), 1);

	/* not complete: the input stays, the output is beside it, said so */
	assert_int_equal(lk_output_open(&o, path_a, &rule, &err), 0);
	fputs("part\n", o.fp);
	char *tmp = strdup(o.tmp);
	assert_int_equal(lk_output_close(&o, false, false, &err), 0);
	assert_non_null(strstr(err.buf, "left as it was"));
	assert_file(path_a, "new\n");
	assert_file(tmp, "part\n");
	unlink(tmp);
	free(tmp);
	lk_strbuf_release(&err);

	/* another format, or an SLC collection: refused unless --force */
	rule.format = LK_FORMAT_TSV;
	assert_int_equal(lk_output_open(&o, path_a, &rule, &err), -1);
	assert_non_null(strstr(err.buf, "another format"));
	lk_strbuf_release(&err);
	rule.format = LK_FORMAT_TEXT;
	write_file(path_a, "\xef\xbb\xbf  <?xml version=\"1.0\"?>\n");
	assert_int_equal(lk_output_open(&o, path_a, &rule, &err), -1);
	assert_non_null(strstr(err.buf, "XML collection"));
	lk_strbuf_release(&err);
	rule.force = true;
	assert_int_equal(lk_output_open(&o, path_a, &rule, &err), 0);
	assert_int_equal(lk_output_close(&o, true, false, &err), 0);
	assert_file(path_a, "");
	unlink(path_a);
	assert_int_equal(entries(), 0);
}

/* The inputs in turn: an input that cannot be opened or read is said and
 * the next one is read. */
static void test_inputs(void **state)
{
	(void)state;
	write_file(path_a, "; one\n#####\n#@$.#\n#####\n\n; two\n#####\n#.$@#\n#####\n");
	write_file(path_b, "; three\n#####\n#@$.#\n#####\n");
	char missing[128];
	snprintf(missing, sizeof missing, "%s/missing.xsb", dir);
	char *paths[] = { path_a, "/", missing, path_b };
	static const int want[] = { LK_INPUT_RECORD, LK_INPUT_RECORD, LK_INPUT_READ_ERROR,
				    LK_INPUT_OPEN_ERROR, LK_INPUT_RECORD, LK_INPUT_END };
	struct lk_inputs in;
	struct lk_record rec;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	lk_inputs_init(&in, paths, 4);
	lk_record_init(&rec);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		lk_strbuf_reset(&err);
		int got = lk_inputs_next(&in, &rec, &err, &line);
		assert_int_equal(got, want[i]);
		if (got == LK_INPUT_READ_ERROR)
			assert_string_equal(in.reader.name, "/");
		if (got == LK_INPUT_OPEN_ERROR)
			assert_non_null(strstr(err.buf, "missing.xsb"));
	}
	lk_inputs_close(&in);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	unlink(path_a);
	unlink(path_b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_existing_refused),
		cmocka_unit_test(test_force_append_device),
		cmocka_unit_test(test_created),
		cmocka_unit_test(test_replace_input),
		cmocka_unit_test(test_inputs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
