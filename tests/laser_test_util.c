/*
 * laser_test_util.c - what the laser game's tests share (laser_test_util.h):
 * records and levels from text or from ../shared/laser/levels, solution
 * counts, the firing simulation of a placement, and SPEC.md's split level.
 */
#include "laser_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_records.h"

void read_record(const char *text, struct lk_record *rec)
{
	test_read_record(text, "test.lvl", rec);
}

struct lk_laser *load(const char *text)
{
	struct lk_record rec;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	read_record(text, &rec);
	if (lk_laser_validate(&rec, &err, &line) < 0)
		fail_msg("level does not validate: %s\n%s", err.buf, text);
	struct lk_laser *lv = lk_laser_new(&rec);
	assert_non_null(lv);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	return lv;
}

/* The message and line index of a record that must not validate. */
void load_fails(const char *text, const char *message, size_t want_line)
{
	struct lk_record rec;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 12345;
	read_record(text, &rec);
	assert_int_equal(lk_laser_validate(&rec, &err, &line), -1);
	if (strcmp(err.buf, message) != 0)
		fail_msg("got '%s', expected '%s'", err.buf, message);
	assert_int_equal(line, want_line);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
}

char *data_file(const char *name)
{
	const char *dir = getenv("LEVELKIT_DATA");
	static char path[4096];
	snprintf(path, sizeof path, "%s/../laser/levels/%s", dir ? dir : "../shared/data", name);
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	struct lk_strbuf sb = LK_STRBUF_INIT;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		lk_strbuf_add(&sb, buf, n);
	fclose(fp);
	return lk_strbuf_detach(&sb, NULL);
}

struct lk_laser *load_lvl(const char *name)
{
	char *text = data_file(name);
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	if (!text)
		fail_msg("%s not found (LEVELKIT_DATA/../laser/levels)", name);
	struct lk_laser *lv = lk_laser_read_lvl(text, &err, &line);
	if (!lv)
		fail_msg("%s:%zu: %s", name, line, err.buf);
	free(text);
	lk_strbuf_release(&err);
	return lv;
}

uint64_t count(const struct lk_laser *lv, bool tidy)
{
	struct lk_laser_search_options o;
	struct lk_laser_result r;
	lk_laser_search_options_init(&o);
	o.tidy = tidy;
	lk_laser_search(lv, &o, NULL, NULL, &r);
	assert_true(r.exhausted);
	return r.solutions;
}

struct lk_laser_eval evaluate(const struct lk_laser *lv, const char *placement)
{
	struct lk_laser_placement pl;
	struct lk_laser_eval ev;
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (lk_laser_placement_parse(lv, placement, &pl, &err) < 0)
		fail_msg("'%s': %s", placement, err.buf);
	lk_laser_evaluate(lv, &pl, &ev, NULL);
	lk_strbuf_release(&err);
	return ev;
}

const char split_record[] =
	"title: split\n"
	"game: laser\n"
	"....B\n"
	".....\n"
	"A....\n"
	"..#..\n"
	"C....\n"
	"fixed: A SRC >E 1\n"
	"fixed: B TGT S> 1/2\n"
	"fixed: C TGT E> 1/2\n"
	"tray: 1 SP2 W>NS\n"
	"tray: 1 BND N>W\n"
	"tray: 1 BND W>N\n";
