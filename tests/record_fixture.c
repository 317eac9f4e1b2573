/*
 * record_fixture.c - the record tests' shared helpers (record_fixture.h):
 * a reader over bytes in memory (NULs allowed), a text parsed as exactly
 * one record, a record written back, a text run through a writer.
 */
#include "record_fixture.h"

#include <stdio.h>
#include <string.h>

void src_open(struct src *s, const char *data, size_t len)
{
	s->fp = tmpfile();
	assert_non_null(s->fp);
	assert_int_equal(fwrite(data, 1, len, s->fp), len);
	rewind(s->fp);
	lk_reader_init_fp(&s->r, s->fp, "test.txt");
}

void src_close(struct src *s)
{
	lk_reader_close(&s->r);
	fclose(s->fp);
}

/* Parse text that must hold exactly one well-formed record. */
void parse_one(const char *text, struct lk_record *rec)
{
	struct src s;
	struct lk_record extra = LK_RECORD_INIT;

	src_open(&s, text, strlen(text));
	assert_int_equal(lk_reader_next(&s.r, rec, NULL, NULL), 1);
	assert_int_equal(lk_reader_next(&s.r, &extra, NULL, NULL), 0);
	src_close(&s);
}

char *record_text(const struct lk_record *rec)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_record_write(rec, &sb);
	return lk_strbuf_detach(&sb, NULL);
}

char *format(enum lk_format fmt, const char *const *extra,
	     const char *input)
{
	struct src s;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_writer w;
	struct lk_strbuf out = LK_STRBUF_INIT;

	src_open(&s, input, strlen(input));
	lk_writer_init(&w, NULL, fmt, extra);
	while (lk_reader_next(&s.r, &rec, NULL, NULL) == 1)
		lk_writer_format(&w, &rec, &out);
	lk_writer_release(&w);
	lk_record_release(&rec);
	src_close(&s);
	return lk_strbuf_detach(&out, NULL);
}
