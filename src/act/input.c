/*
 * input.c - opening an input for records (see actions.h): a file in a
 * game's own format is imported by that game, anything else is read as
 * the record format.  Only files are probed: stdin cannot be read twice,
 * and a script's levels name their script by its path anyway.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/actions.h"
#include "levelkit/game.h"
#include "levelkit/registry.h"

#define PROBE_BYTES 65536

/* The game that claims the file's first bytes, or NULL. */
static const struct lk_game *claim(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	char *buf = lk_xmalloc(PROBE_BYTES);
	size_t n = fread(buf, 1, PROBE_BYTES, fp);
	fclose(fp);
	const struct lk_game *game = NULL;
	for (size_t i = 0; lk_games[i] && !game; i++)
		if (lk_games[i]->import_probe && lk_games[i]->import_probe(buf, n))
			game = lk_games[i];
	free(buf);
	return game;
}

int lk_input_open(struct lk_reader *r, const char *path, struct lk_strbuf *err)
{
	const struct lk_game *game = path && strcmp(path, "-") != 0 ? claim(path) : NULL;
	if (!game)
		return lk_reader_open(r, path, err);
	struct lk_strbuf text = LK_STRBUF_INIT;
	struct lk_record *recs = NULL;
	size_t nrecs = 0, line = 0;
	int rc = 0;
	if (lk_strbuf_read_file(&text, path) < 0) {
		lk_strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
		rc = -1;
	} else {
		struct lk_strbuf why = LK_STRBUF_INIT;
		if (game->import(path, text.buf, text.len, &recs, &nrecs, &why, &line) < 0) {
			if (line)
				lk_strbuf_addf(err, "%s:%zu: %s", path, line, why.buf);
			else
				lk_strbuf_addf(err, "%s: %s", path, why.buf);
			rc = -1;
		}
		lk_strbuf_release(&why);
	}
	lk_reader_init_records(r, recs, nrecs, path);
	free(recs);
	lk_strbuf_release(&text);
	return rc;
}

void lk_inputs_init(struct lk_inputs *in, char *const *paths, int npaths)
{
	static char *stdin_only[] = { "-" };
	memset(in, 0, sizeof *in);
	in->paths = npaths > 0 ? paths : stdin_only;
	in->npaths = npaths > 0 ? npaths : 1;
}

int lk_inputs_next(struct lk_inputs *in, struct lk_record *rec, struct lk_strbuf *err,
		   size_t *line)
{
	*line = 0;
	for (;;) {
		if (in->open && in->failed)
			lk_inputs_close(in);
		if (!in->open) {
			if (in->next == in->npaths)
				return LK_INPUT_END;
			in->open = true;
			if (lk_input_open(&in->reader, in->paths[in->next++], err) < 0) {
				in->failed = true;
				return LK_INPUT_OPEN_ERROR;
			}
		}
		int got = lk_reader_next(&in->reader, rec, err, line);
		if (got == 0) {
			lk_inputs_close(in);
			continue;
		}
		if (got == -2) {
			in->failed = true;   /* closed at the next call: its name is said */
			return LK_INPUT_READ_ERROR;
		}
		return got > 0 ? LK_INPUT_RECORD : LK_INPUT_BAD_RECORD;
	}
}

void lk_inputs_close(struct lk_inputs *in)
{
	if (in->open)
		lk_reader_close(&in->reader);
	in->open = false;
	in->failed = false;
}
