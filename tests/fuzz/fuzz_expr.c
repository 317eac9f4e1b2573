/*
 * fuzz_expr.c - fuzz target for filter expressions (expr.c): parse the
 * input as an expression and evaluate it against a few records.
 *
 * The records hold the kinds of value the language must cope with:
 * numbers in every written form, text that only looks like a number,
 * blanks around values, empty values, repeated fields, a field named
 * "record", a title only in a comment, a header record without a grid.
 * Checked besides crashes, leaks and hangs:
 *  - the error messages have the documented forms ("column N: ..." with
 *    N at most strlen + 1, "record N has no field '...'");
 *  - evaluation is a function of the expression and the record (twice
 *    gives the same answer);
 *  - "!(E)" parses whenever E does (unless that nests too deeply) and
 *    gives the opposite answer, or the same missing-field error.
 */
#include "fuzz_util.h"

#include <stdbool.h>
#include <string.h>

#include "levelkit/expr.h"
#include "levelkit/strbuf.h"

static const char records_text[] =
	"; Microban 3\n"
	"####\n"
	"#@.#\n"
	"####\n"
	"moves: 12\n"
	"pushes: 3\n"
	"solvable: yes\n"
	"difficulty: 21.1\n"
	"difficulty-sd:  0.5 \n"
	"grade: hard\n"
	"states-bfs: unknown\n"
	"note:\n"
	"big: 1e400\n"
	"tiny: -1e-400\n"
	"zero: -0\n"
	"hex: 0x10\n"
	"plus: +3\n"
	"inf: inf\n"
	"nan: nan\n"
	"dot: .5\n"
	"point: 5.\n"
	"moves: 13\n"
	"quote: say \"hi\" \\ there\n"
	"\n"
	"title: a pack\n"
	"; only a header\n"
	"\n"
	"; 7\n"
	"#####\n"
	"#@$.#\n"
	"#####\n"
	"record: 99\n"
	"Title:\n"
	"Solution: rR\n";

#define MAX_RECORDS 8

static struct lk_record records[MAX_RECORDS];
static size_t nrecords;

/* Read the records once, when the fuzzer starts. */
static void load_records(void)
{
	FILE *fp = fmemopen((void *)(uintptr_t)records_text, sizeof records_text - 1, "rb");
	struct lk_reader r;
	FUZZ_CHECK(fp != NULL);
	lk_reader_init_fp(&r, fp, "records");
	for (;;) {
		FUZZ_CHECK(nrecords < MAX_RECORDS);
		lk_record_init(&records[nrecords]);
		int rc = lk_reader_next(&r, &records[nrecords], NULL, NULL);
		if (rc == 0)
			break;
		FUZZ_CHECK(rc == 1);
		nrecords++;
	}
	FUZZ_CHECK(nrecords == 3);
	lk_reader_close(&r);
	fclose(fp);
}

static void check_column_message(const char *msg, size_t len)
{
	unsigned long col = 0;
	int n = 0;
	FUZZ_CHECK(sscanf(msg, "column %lu: %n", &col, &n) == 1 && n > 0);
	FUZZ_CHECK(col >= 1 && col <= len + 1);
}

/* Evaluate; 1 or 0 for the answer, -1 for a missing field. */
static int eval(const struct lk_expr *e, const struct lk_record *rec, struct lk_strbuf *err)
{
	bool result = false;
	lk_strbuf_reset(err);
	if (lk_expr_eval(e, rec, &result, err) < 0) {
		FUZZ_CHECK(strncmp(err->buf, "record ", 7) == 0 &&
			   strstr(err->buf, " has no field '") != NULL);
		return -1;
	}
	return result;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lk_strbuf err = LK_STRBUF_INIT, err2 = LK_STRBUF_INIT, wrapped = LK_STRBUF_INIT;
	struct lk_strbuf value = LK_STRBUF_INIT;
	char *text = fuzz_strndup(data, size);
	size_t len = strlen(text);

	if (nrecords == 0)
		load_records();
	(void)lk_expr_number(text, len, NULL);
	struct lk_expr *e = lk_expr_parse(text, &err);
	if (!e) {
		check_column_message(err.buf, len);
		goto out;
	}
	for (size_t i = 0; i < lk_expr_field_count(e); i++) {
		const char *name = lk_expr_field(e, i);
		FUZZ_CHECK(name && *name);
		for (size_t k = 0; k < nrecords; k++) {
			lk_strbuf_reset(&value);
			(void)lk_expr_value(&records[k], name, &value);
		}
	}
	lk_strbuf_addf(&wrapped, "!(%s)", text);
	struct lk_expr *not_e = lk_expr_parse(wrapped.buf, &err2);
	if (!not_e)
		FUZZ_CHECK(strstr(err2.buf, "nested too deeply") != NULL);
	for (size_t k = 0; k < nrecords; k++) {
		int a = eval(e, &records[k], &err);
		FUZZ_CHECK(eval(e, &records[k], &err2) == a);
		FUZZ_CHECK(strcmp(err.buf, err2.buf) == 0);
		if (not_e) {
			int b = eval(not_e, &records[k], &err2);
			FUZZ_CHECK(a < 0 ? b < 0 : b == !a);
			FUZZ_CHECK(strcmp(err.buf, err2.buf) == 0);
		}
	}
	lk_expr_free(not_e);
	lk_expr_free(e);
out:
	lk_strbuf_release(&err);
	lk_strbuf_release(&err2);
	lk_strbuf_release(&wrapped);
	lk_strbuf_release(&value);
	free(text);
	return 0;
}
