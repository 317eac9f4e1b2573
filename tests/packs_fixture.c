/*
 * packs_fixture.c - the pack tests' shared helpers (packs_fixture.h): the
 * fixtures' files read whole, a reader over bytes in memory, a pack read
 * as its levels (each drawn by the game with the blank border left out,
 * its title, its solution replayed), packs compared level by level and
 * title by title, records parsed from text and written back.
 */
#define _POSIX_C_SOURCE 200809L   /* strdup */

#include "packs_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "test_support.h"

#ifndef PACKS_DIR
#define PACKS_DIR "levels/packs"
#endif

char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	struct lk_strbuf sb = LK_STRBUF_INIT;
	char chunk[8192];
	size_t n;

	if (!fp)
		fail_msg("cannot open %s", path);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		lk_strbuf_add(&sb, chunk, n);
	fclose(fp);
	return lk_strbuf_detach(&sb, len);
}

char *pack_path(const char *name)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_strbuf_addf(&sb, "%s/%s", PACKS_DIR, name);
	return lk_strbuf_detach(&sb, NULL);
}

void src_open(struct src *s, const char *data, size_t len, const char *name)
{
	s->fp = tmpfile();
	assert_non_null(s->fp);
	if (len)
		assert_int_equal(fwrite(data, 1, len, s->fp), len);
	rewind(s->fp);
	lk_reader_init_fp(&s->r, s->fp, name);
}

void src_close(struct src *s)
{
	lk_reader_close(&s->r);
	fclose(s->fp);
}

static char *trimmed_drawing(const char *rows)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	size_t indent = (size_t)-1;
	const char *p;

	for (p = rows; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = 0;
		while (p[n] == ' ')
			n++;
		if (p + n < nl && n < indent)
			indent = n;
		p = nl + 1;
	}
	for (p = rows; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = (size_t)(nl - p);
		if (len > indent)
			lk_strbuf_add(&sb, p + indent, len - indent);
		if (len > indent || sb.len)
			lk_strbuf_addch(&sb, '\n');
		p = nl + 1;
	}
	while (sb.len >= 2 && sb.buf[sb.len - 1] == '\n' && sb.buf[sb.len - 2] == '\n')
		sb.buf[--sb.len] = '\0';
	return lk_strbuf_detach(&sb, NULL);
}

static void add_level(struct pack *pk, const struct lk_record *rec)
{
	struct lk_level_options opt = { .metric = NULL };
	struct lk_strbuf err = LK_STRBUF_INIT, rows = LK_STRBUF_INIT, tbuf = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *l = lk_level_load(rec, &opt, &err, &line);
	struct level *lv;
	const char *t, *sol;
	unsigned char *key;

	if (!l)
		fail_msg("%s:%zu: %s", rec->source, line, err.buf);
	key = calloc(1, l->key_size);
	assert_non_null(key);
	l->game->initial_state(l, key);
	l->game->write_state(l, key, &rows);
	LK_ALLOC_GROW(pk->levels, pk->nlevels + 1, pk->alloc);
	lv = &pk->levels[pk->nlevels++];
	lv->drawing = trimmed_drawing(rows.buf);
	t = lk_record_title(rec, &tbuf);
	lv->title = t ? strdup(t) : NULL;
	sol = lk_record_get(rec, "solution");
	lv->solution = sol ? strdup(sol) : NULL;
	lv->solved = false;
	if (sol) {
		struct lk_solution_stats st;
		lk_strbuf_reset(&err);
		if (replay_stats(l, sol, &st, &lv->solved, &err) < 0)
			fail_msg("%s: solution of '%s' does not replay: %s", rec->source, t, err.buf);
	}
	free(key);
	lk_level_free(l);
	lk_strbuf_release(&err);
	lk_strbuf_release(&rows);
	lk_strbuf_release(&tbuf);
}

/* Read a stream; every record must be well formed unless errors are
 * allowed (then counted). */
void read_pack(struct lk_reader *r, struct pack *pk, bool errors_ok)
{
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	int rc;

	memset(pk, 0, sizeof(*pk));
	while ((rc = lk_reader_next(r, &rec, &err, &line)) != 0) {
		assert_true(rc == 1 || rc == -1);
		pk->records++;
		assert_int_equal(rec.number, pk->records);
		if (rc < 0) {
			if (!errors_ok)
				fail_msg("%s:%zu: %s", r->name, line, err.buf);
			pk->errors++;
			continue;
		}
		if (lk_record_grid(&rec, NULL))
			add_level(pk, &rec);
	}
	lk_record_release(&rec);
	lk_strbuf_release(&err);
}

void read_file(const char *name, struct pack *pk)
{
	char *path = pack_path(name);
	struct lk_reader r;
	struct lk_strbuf err = LK_STRBUF_INIT;

	assert_int_equal(lk_reader_open(&r, path, &err), 0);
	read_pack(&r, pk, false);
	assert_int_equal(lk_reader_is_xml(&r), strstr(name, ".slc") != NULL);
	lk_reader_close(&r);
	lk_strbuf_release(&err);
	free(path);
}

void read_text(const char *text, size_t len, struct pack *pk, bool errors_ok)
{
	struct src s;
	src_open(&s, text, len, "mem");
	read_pack(&s.r, pk, errors_ok);
	src_close(&s);
}

void pack_release(struct pack *pk)
{
	for (size_t i = 0; i < pk->nlevels; i++) {
		free(pk->levels[i].drawing);
		free(pk->levels[i].title);
		free(pk->levels[i].solution);
	}
	free(pk->levels);
	memset(pk, 0, sizeof(*pk));
}

void expect_same_levels(const struct pack *a, const struct pack *b, const char *what)
{
	if (a->nlevels != b->nlevels)
		fail_msg("%s: %zu levels, expected %zu", what, b->nlevels, a->nlevels);
	for (size_t i = 0; i < a->nlevels; i++)
		if (strcmp(a->levels[i].drawing, b->levels[i].drawing) != 0)
			fail_msg("%s: level %zu differs:\n%s\nexpected:\n%s", what, i + 1,
				 b->levels[i].drawing, a->levels[i].drawing);
}

void expect_same_titles(const struct pack *a, const struct pack *b, const char *what)
{
	for (size_t i = 0; i < a->nlevels && i < b->nlevels; i++) {
		const char *x = a->levels[i].title, *y = b->levels[i].title;
		if (!x || !y || strcmp(x, y) != 0)
			fail_msg("%s: level %zu is titled '%s', expected '%s'", what, i + 1,
				 y ? y : "(none)", x ? x : "(none)");
	}
}

/* Parse text that must give exactly the given number of records; the
 * records are left in recs (the caller releases them). */
size_t parse_all(const char *text, struct lk_record *recs, size_t max, int *status)
{
	struct src s;
	size_t n = 0;
	int rc;

	src_open(&s, text, strlen(text), "t.sok");
	for (;;) {
		assert_true(n < max);
		lk_record_init(&recs[n]);
		rc = lk_reader_next(&s.r, &recs[n], NULL, NULL);
		if (rc == 0)
			break;
		status[n++] = rc;
	}
	src_close(&s);
	return n;
}

char *text_of(const struct lk_record *rec)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_record_write(rec, &sb);
	return lk_strbuf_detach(&sb, NULL);
}
