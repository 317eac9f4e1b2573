/*
 * fuzz_record.c - fuzz target for the record reader (record_read.c and the
 * pack layouts of record_pack.c, the SLC XML of record_slc.c, the .sok
 * boards of record_sok.c) and the writers.
 *
 * The input is a file as a command would read it.  Besides crashes,
 * leaks and hangs, the reader's promises are checked:
 *  - it ends: no more records than lines, never a read error (-2);
 *  - it loses nothing: every non-blank line of a text input turns up, with
 *    its text and line number, in exactly one record, in input order
 *    (an SLC document is exempt: its records are made from the XML);
 *  - a copy of a record writes the same text as the record;
 *  - the text output, read again, gives the same records, line for line
 *    and kind for kind (for a text input without NUL bytes).
 * Every record is also written in each output format, edited the way the
 * commands edit records (set, unset, set_grid), and its board lines
 * decoded as .sok rows.
 */
#include "fuzz_util.h"

#include <stdbool.h>
#include <string.h>

#include "levelkit/strbuf.h"

/* Records at most: more than the input has lines means the reader loops. */
#define MAX_RECORDS(size) ((size) + 2)

struct expect {
	const uint8_t *data;
	size_t size, pos;    /* next byte not yet split into lines */
	size_t lineno;       /* lines split off so far */
	bool started;
};

static bool blank_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

/*
 * The next non-blank line of the input as the format defines lines (LF,
 * CRLF or CR ends one, a byte order mark before the first is not part of
 * it, the text of a line with a NUL stops there): 1 with *text, *len and
 * *lineno, or 0 at the end.  An independent reading of docs/format.md's
 * line rules, kept simple rather than fast.
 */
static int expect_next(struct expect *e, const char **text, size_t *len, size_t *lineno)
{
	while (e->pos < e->size) {
		size_t start = e->pos, end = start;
		while (end < e->size && e->data[end] != '\n' && e->data[end] != '\r')
			end++;
		e->pos = end;
		if (e->pos < e->size && e->data[e->pos] == '\r')
			e->pos++;
		if (e->pos < e->size && e->data[e->pos] == '\n' &&
		    (e->pos == end || e->data[e->pos - 1] == '\r'))
			e->pos++;
		e->lineno++;
		if (!e->started) {
			e->started = true;
			if (end - start >= 3 && memcmp(e->data + start, "\xef\xbb\xbf", 3) == 0)
				start += 3;
		}
		const char *s = (const char *)e->data + start;
		const char *nul = memchr(s, '\0', end - start);
		size_t n = nul ? (size_t)(nul - s) : end - start;
		if (!nul && blank_text(s, n))
			continue;
		*text = s;
		*len = n;
		*lineno = e->lineno;
		return 1;
	}
	return 0;
}

/* The record's lines must be the next lines of the input. */
static void check_lines(const struct lk_record *rec, struct expect *e)
{
	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *l = &rec->lines[i];
		const char *text;
		size_t len, lineno;
		if (l->kind == LK_LINE_BLANK)
			continue;
		FUZZ_CHECK(expect_next(e, &text, &len, &lineno) == 1);
		FUZZ_CHECK(l->lineno == lineno);
		FUZZ_CHECK(strlen(l->text) == len && memcmp(l->text, text, len) == 0);
	}
}

/* The output formats, one writer each for the whole input, as a command
 * has (the tsv header and the .sok pack header are written once). */
static const enum lk_format formats[] = { LK_FORMAT_TEXT, LK_FORMAT_TSV, LK_FORMAT_JSON,
					  LK_FORMAT_SOK, LK_FORMAT_SOK_RLE };
#define NFORMATS (sizeof formats / sizeof formats[0])

/* Write rec in every format; the text output is appended to text. */
static void write_formats(struct lk_writer *w, const struct lk_record *rec,
			  struct lk_strbuf *text)
{
	struct lk_strbuf out = LK_STRBUF_INIT;

	lk_writer_format(&w[0], rec, text);
	for (size_t i = 1; i < NFORMATS; i++) {
		lk_strbuf_reset(&out);
		lk_writer_format(&w[i], rec, &out);
	}
	lk_strbuf_release(&out);
}

/* What a record is made of, to compare records: its status, then each
 * line's kind and text. */
static void add_shape(struct lk_strbuf *shape, const struct lk_record *rec, int status)
{
	lk_strbuf_addf(shape, "%d\n", status);
	for (size_t i = 0; i < rec->nlines; i++)
		lk_strbuf_addf(shape, "%d %s\n", (int)rec->lines[i].kind, rec->lines[i].text);
	lk_strbuf_addstr(shape, "--\n");
}

/* Read text (the text output) and return the shapes of its records. */
static void reread(const struct lk_strbuf *text, struct lk_strbuf *shape)
{
	FILE *fp = fuzz_open((const uint8_t *)text->buf, text->len);
	struct lk_reader r;
	struct lk_record rec = LK_RECORD_INIT;
	int rc;

	lk_reader_init_fp(&r, fp, "text output");
	while ((rc = lk_reader_next(&r, &rec, NULL, NULL)) != 0)
		add_shape(shape, &rec, rc);
	lk_record_release(&rec);
	lk_reader_close(&r);
	if (fp)
		fclose(fp);
}

/* What the commands do to a record they have read. */
static void edit(struct lk_writer *w, const struct lk_record *rec)
{
	struct lk_record copy = LK_RECORD_INIT;
	struct lk_strbuf a = LK_STRBUF_INIT, b = LK_STRBUF_INIT, title = LK_STRBUF_INIT;
	size_t first, n;

	lk_record_copy(&copy, rec);
	lk_record_write(rec, &a);
	lk_record_write(&copy, &b);
	FUZZ_CHECK(a.len == b.len && memcmp(a.buf, b.buf, a.len) == 0);

	(void)lk_record_title(&copy, &title);
	(void)lk_record_title_line(&copy);
	(void)lk_record_game(&copy);
	n = lk_record_grid(&copy, &first);
	FUZZ_CHECK(n == 0 || first + n <= copy.nlines);
	lk_record_set(&copy, "solution", "rrLL");
	lk_record_set(&copy, "comment", "a\nb");
	lk_record_setf(&copy, "moves", "%d", 4);
	(void)lk_record_unset(&copy, "title");
	if (n > 0)
		lk_record_set_grid(&copy, "#####\n#@$.#\n#####\n");
	lk_strbuf_reset(&a);
	lk_record_write(&copy, &a);
	lk_strbuf_reset(&a);
	lk_writer_format(&w[3], &copy, &a);   /* sok: the solution section */

	lk_strbuf_release(&a);
	lk_strbuf_release(&b);
	lk_strbuf_release(&title);
	lk_record_release(&copy);
}

static void decode_rows(const struct lk_record *rec)
{
	struct lk_strbuf out = LK_STRBUF_INIT, err = LK_STRBUF_INIT;

	for (size_t i = 0; i < rec->nlines; i++) {
		if (rec->lines[i].kind != LK_LINE_GRID)
			continue;
		(void)lk_sok_row_like(rec->lines[i].text);
		lk_strbuf_reset(&out);
		lk_strbuf_reset(&err);
		(void)lk_sok_decode_line(rec->lines[i].text, &out, &err);
	}
	lk_strbuf_release(&out);
	lk_strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fp = fuzz_open(data, size);
	struct lk_reader r;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct expect e = { data, size, 0, 0, false };
	struct lk_writer w[NFORMATS];
	struct lk_strbuf text = LK_STRBUF_INIT, shape = LK_STRBUF_INIT, again = LK_STRBUF_INIT;
	bool lossy = false;
	size_t records = 0;
	int rc;

	for (size_t i = 0; i < NFORMATS; i++)
		lk_writer_init(&w[i], NULL, formats[i], NULL);
	lk_reader_init_fp(&r, fp, "fuzz");
	while ((rc = lk_reader_next(&r, &rec, &err, NULL)) != 0) {
		FUZZ_CHECK(rc == 1 || rc == -1);
		FUZZ_CHECK(++records <= MAX_RECORDS(size));
		FUZZ_CHECK(rec.number == records);
		if (!lk_reader_is_xml(&r))
			check_lines(&rec, &e);
		write_formats(w, &rec, &text);
		add_shape(&shape, &rec, rc);
		lossy |= rec.lossy;
		edit(w, &rec);
		decode_rows(&rec);
	}
	if (!lk_reader_is_xml(&r)) {
		const char *line;
		size_t len, lineno;
		FUZZ_CHECK(expect_next(&e, &line, &len, &lineno) == 0);
		if (!lossy) {
			reread(&text, &again);
			FUZZ_CHECK(shape.len == again.len && memcmp(shape.buf, again.buf, shape.len) == 0);
		}
	}
	lk_strbuf_release(&text);
	lk_strbuf_release(&shape);
	lk_strbuf_release(&again);
	for (size_t i = 0; i < NFORMATS; i++)
		lk_writer_release(&w[i]);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	lk_reader_close(&r);
	if (fp)
		fclose(fp);
	return 0;
}
