/*
 * test_pipeline.c - unit tests for the record pipeline (pipeline.h) and
 * the filter action on it (filter.h), run in-process on files in a fresh
 * directory: records written in input order whatever -j, a failed record
 * reported and left out, or kept with an `error` field when the output
 * replaces its input, headers passed through, an empty input; filter's
 * expression, --invert, --top, --progression, --count, --dedupe and the
 * record without the field it asks for; the pool's spare threads (a job
 * started once the input has ended, with fewer jobs left than threads, gets
 * their share; one started while input still comes, one thread).  Each
 * expected output is written out by hand from the input, not by the code
 * under test.
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
#include <unistd.h>

#include "levelkit/expr.h"
#include "levelkit/filter.h"
#include "levelkit/pipeline.h"
#include "levelkit/pool.h"
#include "test_files.h"

/* ---------------------------------------------------------------- helpers */

static char dir[64];
static char in_path[96], out_path[96];

static int setup(void **state)
{
	(void)state;
	if (test_dir_make(dir, sizeof dir, "test_pipeline") < 0)
		return -1;
	snprintf(in_path, sizeof in_path, "%s/in.xsb", dir);
	snprintf(out_path, sizeof out_path, "%s/out.xsb", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return test_dir_remove(dir);
}

/* One push, with a title and a moves field. */
#define LEVEL(title, moves) "title: " title "\nmoves: " moves "\n#####\n#@$.#\n#####\n"

static const char pack[] = "author: tests\n\n" LEVEL("a", "5") "\n" LEVEL("fail", "2") "\n"
			   LEVEL("c", "9") "\n" LEVEL("d", "1");

/* ---------------------------------------------------------- the pipeline */

/* The processor: marks a level checked, and refuses the one titled fail. */
static int mark(void *ctx, struct lk_job *job)
{
	(void)ctx;
	const char *title = lk_record_get(job->rec, "title");
	if (title && strcmp(title, "fail") == 0) {
		lk_strbuf_addstr(job->err, "no thanks");
		return -1;
	}
	lk_record_set(job->rec, "checked", "yes");
	return 0;
}

static int run_marked(char *in, const char *out, unsigned jobs)
{
	struct lk_pipeline p = { .process = mark, .format = LK_FORMAT_TEXT, .jobs = jobs,
				 .output = out, .quiet = true };
	return lk_pipeline_run(&p, &in, 1);
}

/* A record as written: the fields a run adds come after the grid, and a
 * blank line ends every record. */
#define OUT(title, moves) LEVEL(title, moves) "\n"
#define MARKED(title, moves) LEVEL(title, moves) "checked: yes\n\n"

/* In input order with one worker or two; the failed level left out, exit 2. */
static void test_order_and_failure(void **state)
{
	(void)state;
	static const char expected[] = "author: tests\n\n" MARKED("a", "5") MARKED("c", "9")
				       MARKED("d", "1");
	write_file(in_path, pack);
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		unlink(out_path);
		assert_int_equal(run_marked(in_path, out_path, jobs), 2);
		assert_file(out_path, expected);
	}
}

/* An output that replaces its input loses nothing: the failed level is
 * kept as it was read, with the message as its error field. */
static void test_replacing_input_keeps_failed(void **state)
{
	(void)state;
	static const char expected[] = "author: tests\n\n" MARKED("a", "5")
				       LEVEL("fail", "2") "error: no thanks\n\n"
				       MARKED("c", "9") MARKED("d", "1");
	write_file(in_path, pack);
	assert_int_equal(run_marked(in_path, in_path, 2), 2);
	assert_file(in_path, expected);
}

/* No level read: exit 1 (said unless quiet), and the output -o created is
 * removed when no record at all could be read. */
static void test_empty_input(void **state)
{
	(void)state;
	char missing[128];
	snprintf(missing, sizeof missing, "%s/missing.xsb", dir);
	write_file(in_path, "; nothing but a comment\n");
	assert_int_equal(run_marked(in_path, out_path, 1), 0);   /* quiet */
	struct lk_pipeline p = { .process = mark, .format = LK_FORMAT_TEXT, .jobs = 1,
				 .output = out_path, .force = true };
	char *files[] = { in_path };
	assert_int_equal(lk_pipeline_run(&p, files, 1), 1);
	unlink(out_path);
	assert_int_equal(run_marked(missing, out_path, 1), 2);
	assert_null(read_file(out_path));
}

/* ------------------------------------------------------------- filter */

static int run_filter(struct lk_filter *f, const char *expr_text)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *expr = expr_text ? lk_expr_parse(expr_text, &err) : NULL;
	assert_true(!expr_text || expr);
	lk_strbuf_release(&err);
	f->expr = expr;
	f->format = LK_FORMAT_TEXT;
	f->output = out_path;
	f->force = true;
	char *files[] = { in_path };
	int rc = lk_filter_run(f, files, 1);
	lk_expr_free(expr);
	return rc;
}

static void test_filter_expression(void **state)
{
	(void)state;
	struct lk_filter f;
	write_file(in_path, pack);
	lk_filter_init(&f);
	assert_int_equal(run_filter(&f, "moves >= 5"), 0);
	assert_file(out_path, "author: tests\n\n" OUT("a", "5") OUT("c", "9"));
	assert_int_equal(f.kept, 2);
	lk_filter_init(&f);
	f.invert = true;
	assert_int_equal(run_filter(&f, "moves >= 2"), 0);
	assert_file(out_path, "author: tests\n\n" OUT("d", "1"));
	lk_filter_init(&f);
	assert_int_equal(run_filter(&f, "moves > 100"), 1);   /* grep: none kept */
	assert_file(out_path, "author: tests\n\n");
	lk_filter_init(&f);
	f.count = true;
	assert_int_equal(run_filter(&f, "moves < 9"), 0);
	assert_file(out_path, "3\n");
}

static void test_filter_top(void **state)
{
	(void)state;
	struct lk_filter f;
	write_file(in_path, pack);
	lk_filter_init(&f);
	f.top = 2;
	f.by = "moves";
	assert_int_equal(run_filter(&f, NULL), 0);
	assert_file(out_path, "author: tests\n\n" OUT("c", "9") OUT("a", "5"));
	lk_filter_init(&f);
	f.top = 2;
	f.by = "moves";
	f.ascending = true;
	assert_int_equal(run_filter(&f, "title != \"d\""), 0);
	assert_file(out_path, "author: tests\n\n" OUT("fail", "2") OUT("a", "5"));
}

/* --progression without dips (chapter 0): the chosen levels in rising
 * order of their field. */
static void test_filter_progression(void **state)
{
	(void)state;
	struct lk_filter f;
	write_file(in_path, pack);
	lk_filter_init(&f);
	f.progression = 4;
	f.chapter = 0;
	f.by = "moves";
	assert_int_equal(run_filter(&f, NULL), 0);
	assert_file(out_path, "author: tests\n\n" OUT("d", "1") OUT("fail", "2") OUT("a", "5")
			      OUT("c", "9"));
	assert_int_equal(f.kept, 4);
}

/* The same level twice (once translated): --dedupe keeps the first. */
static void test_filter_dedupe(void **state)
{
	(void)state;
	struct lk_filter f;
	write_file(in_path, "title: x\n#####\n#@$.#\n#####\n\ntitle: y\n  #####\n  #@$.#\n  #####\n");
	lk_filter_init(&f);
	f.dedupe = true;
	assert_int_equal(run_filter(&f, NULL), 0);
	assert_file(out_path, "title: x\n#####\n#@$.#\n#####\n\n");
}

/* A field no record has: every level fails (exit 2); an output replacing
 * its input keeps them all, each with its error. */
static void test_filter_missing_field(void **state)
{
	(void)state;
	struct lk_filter f;
	write_file(in_path, LEVEL("a", "5") "\n" LEVEL("b", "6"));
	lk_filter_init(&f);
	assert_int_equal(run_filter(&f, "nosuch > 1"), 2);
	assert_file(out_path, "");
	lk_filter_init(&f);
	f.top = 1;
	f.by = "nosuch";
	f.output = in_path;
	f.format = LK_FORMAT_TEXT;
	char *files[] = { in_path };
	assert_int_equal(lk_filter_run(&f, files, 1), 2);
	char *text = read_file(in_path);
	assert_non_null(text);
	/* the first is reported with the fields there are, the second only counted */
	assert_non_null(strstr(text, LEVEL("a", "5") "error: record 1 has no field 'nosuch' ("));
	assert_non_null(strstr(text, LEVEL("b", "6") "error: record 2 has no field 'nosuch'\n\n"));
	free(text);
}

/* ---- spare threads (lk_pool_ops.share_spare: solve's --split auto) ---- */

struct spare {
	int njobs;
	unsigned seen[16];   /* lk_pool_threads() in each job's work */
};

static enum lk_pool_take spare_take(void *ctx, uint64_t seq, void *slot)
{
	const struct spare *c = ctx;
	if (seq >= (uint64_t)c->njobs)
		return LK_POOL_END;
	*(uint64_t *)slot = seq;
	return LK_POOL_WORK;
}

static void spare_work(void *ctx, void *worker, void *slot)
{
	(void)worker;
	struct spare *c = ctx;
	c->seen[*(uint64_t *)slot] = lk_pool_threads();
}

static bool spare_put(void *ctx, void *slot)
{
	(void)ctx;
	(void)slot;
	return true;
}

static void spare_run(struct spare *c, unsigned jobs, bool share)
{
	struct lk_pool_ops ops = { .ctx = c, .slot_size = sizeof(uint64_t), .take = spare_take,
				   .work = spare_work, .put = spare_put, .jobs = jobs,
				   .inline_single = true, .share_spare = share };
	memset(c->seen, 0, sizeof c->seen);
	lk_pool_run(&ops);
}

static void test_spare_threads(void **state)
{
	(void)state;
	/* one job, two threads: it may use both (its worker waits up to 50 ms
	 * for the read that ends the input, so of 20 runs at least one) */
	int both = 0;
	for (int run = 0; run < 20; run++) {
		struct spare c = { .njobs = 1 };
		spare_run(&c, 2, true);
		assert_true(c.seen[0] == 1 || c.seen[0] == 2);
		both += c.seen[0] == 2;
	}
	print_message("  one job, two threads: both used in %d of 20 runs\n", both);
	assert_true(both > 0);
	/* not asked for, or one thread: 1 */
	struct spare c = { .njobs = 1 };
	spare_run(&c, 2, false);
	assert_int_equal(c.seen[0], 1);
	spare_run(&c, 1, true);
	assert_int_equal(c.seen[0], 1);
	/* more jobs than threads: the first starts while more input comes
	 * (the ring of 8 slots is full, or the next read returned a job) */
	c.njobs = 12;
	spare_run(&c, 2, true);
	assert_int_equal(c.seen[0], 1);
	for (int i = 0; i < 12; i++)
		assert_true(c.seen[i] == 1 || c.seen[i] == 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_order_and_failure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replacing_input_keeps_failed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter_expression, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter_top, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter_progression, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter_dedupe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter_missing_field, setup, teardown),
		cmocka_unit_test(test_spare_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
