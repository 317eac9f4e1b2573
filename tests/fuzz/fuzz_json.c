/*
 * fuzz_json.c - fuzz target for the readers of JSON: Refraction's level
 * files as the laser game imports them (src/games/laser/laser_json.c, the
 * game's import_probe and import hooks) and, beneath them, the JSON parser
 * of src/core/json.c.
 *
 * The input is a file as a command would read it.  Checked besides
 * crashes, leaks and hangs:
 *  - the parser's answer on the whole input is 0 or -1, with an offset
 *    within the input when it fails;
 *  - a file the probe claims imports into at least one record;
 *  - every imported record is a level (it has a grid: a record without one
 *    would pass through the commands unread), and its lines carry line
 *    numbers of the input;
 *  - a record that validates builds; written as text and read back, it is
 *    the same level (the same record lines); the designer's placement in
 *    its solution field parses against it (the importer only places tray
 *    pieces on empty cells, within the tray's counts) and fires;
 *  - a record that does not validate says why (a non-empty message).
 */
#include "fuzz_util.h"

#include <stdbool.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/json.h"
#include "levelkit/registry.h"
#include "laser.h"   /* src/games/laser: the game's own API */
#include "levelkit/strbuf.h"

static size_t lines_of(const uint8_t *data, size_t size)
{
	size_t n = 1;
	for (size_t i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

/* The level's record text, without its title and solution. */
static void level_text(const struct lk_laser *lv, struct lk_strbuf *out)
{
	struct lk_record rec = LK_RECORD_INIT;
	lk_laser_to_record(lv, &rec);
	lk_record_write(&rec, out);
	lk_record_release(&rec);
}

static void check_record(const struct lk_record *rec, size_t nlines)
{
	struct lk_strbuf err = LK_STRBUF_INIT, text = LK_STRBUF_INIT, again = LK_STRBUF_INIT;
	size_t line = 0;
	FUZZ_CHECK(lk_record_grid(rec, NULL) > 0);
	for (size_t i = 0; i < rec->nlines; i++)
		FUZZ_CHECK(rec->lines[i].lineno >= 1 && rec->lines[i].lineno <= nlines);
	if (lk_laser_validate(rec, &err, &line) < 0) {
		FUZZ_CHECK(err.len > 0);
		goto out;
	}
	struct lk_laser *lv = lk_laser_new(rec);
	FUZZ_CHECK(lv != NULL);
	level_text(lv, &text);
	/* the record's text read back is the same level */
	struct lk_strbuf all = LK_STRBUF_INIT;
	lk_record_write(rec, &all);
	FILE *fp = fmemopen(all.buf, all.len, "rb");
	FUZZ_CHECK(fp != NULL);
	struct lk_reader r;
	struct lk_record back = LK_RECORD_INIT;
	lk_reader_init_fp(&r, fp, "back");
	FUZZ_CHECK(lk_reader_next(&r, &back, NULL, NULL) == 1);
	struct lk_laser *lv2 = lk_laser_new(&back);
	FUZZ_CHECK(lv2 != NULL);
	level_text(lv2, &again);
	FUZZ_CHECK(text.len == again.len && !memcmp(text.buf, again.buf, text.len));
	const char *solution = lk_record_get(rec, "solution");
	if (solution) {
		struct lk_laser_placement *pl = malloc(sizeof *pl);
		struct lk_laser_eval *ev = malloc(sizeof *ev);
		FUZZ_CHECK(pl && ev);
		lk_strbuf_reset(&err);
		FUZZ_CHECK(lk_laser_placement_parse(lv, solution, pl, &err) == 0);
		lk_laser_evaluate(lv, pl, ev, NULL);
		FUZZ_CHECK(ev->targets_ok <= ev->targets);
		free(pl);
		free(ev);
	}
	lk_laser_free(lv2);
	lk_record_release(&back);
	lk_reader_close(&r);
	fclose(fp);
	lk_strbuf_release(&all);
	lk_laser_free(lv);
out:
	lk_strbuf_release(&err);
	lk_strbuf_release(&text);
	lk_strbuf_release(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_json v;
	size_t offset = 0;
	if (lk_json_parse(text, size, &v, &err, &offset) == 0)
		lk_json_release(&v);
	else
		FUZZ_CHECK(offset <= size && err.len > 0);

	const struct lk_game *game = lk_game_find("laser");
	FUZZ_CHECK(game && game->import_probe && game->import);
	bool claimed = game->import_probe(text, size);
	struct lk_record *recs = NULL;
	size_t nrecs = 0, line = 0;
	lk_strbuf_reset(&err);
	/* the .lvl reader is the other half of the hook: inputs that start
	 * with "size" go there, and are the level target's business */
	if (claimed && game->import("fuzz.jsonl", text, size, &recs, &nrecs, &err, &line) == 0) {
		FUZZ_CHECK(nrecs >= 1);
		for (size_t i = 0; i < nrecs; i++) {
			check_record(&recs[i], lines_of(data, size));
			lk_record_release(&recs[i]);
		}
		free(recs);
	} else if (claimed) {
		FUZZ_CHECK(err.len > 0);
	}
	lk_strbuf_release(&err);
	free(text);
	return 0;
}
