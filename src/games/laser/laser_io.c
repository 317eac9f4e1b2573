/*
 * laser_io.c - the laser game's text forms: the record (game: laser, a
 * grid and fixed/tray fields) and SPEC.md's .lvl file, read into a spec
 * (laser_level.c validates each line) and written back from a level.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "laser_internal.h"

/* ------------------------------------------------------------ records */

static bool is_field(const struct lk_line *l, const char *name)
{
	return l->kind == LK_LINE_FIELD && lk_field_name_eq(l->text, l->name_len, name);
}

/* The spec of a record; -1 with err and *line. */
static int record_spec(const struct lk_record *rec, struct laser_spec *spec, struct lk_strbuf *err,
		       size_t *line)
{
	size_t first, n = lk_record_grid(rec, &first);
	memset(spec, 0, sizeof *spec);
	*line = (size_t)-1;
	if (!n) {
		lk_strbuf_addstr(err, "record has no grid");
		return -1;
	}
	if (n > LK_LASER_MAX_SIDE) {
		lk_strbuf_addf(err, "more than %d rows", LK_LASER_MAX_SIDE);
		*line = first + LK_LASER_MAX_SIDE;
		return -1;
	}
	spec->height = (int)n;
	for (size_t y = 0; y < n; y++) {
		if (laser_spec_row(spec, (int)y, rec->lines[first + y].text, err) < 0) {
			*line = first + y;
			return -1;
		}
	}
	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *l = &rec->lines[i];
		bool fixed = is_field(l, "fixed");
		if ((fixed || is_field(l, "tray")) &&
		    laser_spec_add(spec, l->text + l->value_off, fixed, err) < 0) {
			*line = i;
			return -1;
		}
	}
	int row, def;
	if (laser_spec_letters(spec, err, &row, &def) < 0) {
		if (row >= 0) {
			*line = first + (size_t)row;
		} else {
			for (size_t i = 0, k = 0; i < rec->nlines; i++)
				if (is_field(&rec->lines[i], "fixed") && (int)k++ == def)
					*line = i;
		}
		return -1;
	}
	return 0;
}

int lk_laser_validate(const struct lk_record *rec, struct lk_strbuf *err, size_t *line)
{
	/* a level an importer could not read says why (laser_json.c) */
	long bad = lk_record_find(rec, "import-error");
	if (bad >= 0) {
		lk_strbuf_addstr(err, lk_record_get(rec, "import-error"));
		*line = (size_t)bad;
		return -1;
	}
	struct laser_spec *spec = lk_xmalloc(sizeof *spec);
	struct lk_laser *lv = NULL;
	int rc = record_spec(rec, spec, err, line);
	if (rc == 0)
		rc = laser_build(spec, &lv, err);
	lk_laser_free(lv);
	free(spec);
	return rc;
}

struct lk_laser *lk_laser_new(const struct lk_record *rec)
{
	if (lk_record_find(rec, "import-error") >= 0)
		return NULL;
	struct laser_spec *spec = lk_xmalloc(sizeof *spec);
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_laser *lv = NULL;
	size_t line;
	if (record_spec(rec, spec, &err, &line) == 0)
		laser_build(spec, &lv, &err);
	lk_strbuf_release(&err);
	free(spec);
	return lv;
}

static void piece_text(const struct lk_laser *lv, int k, struct lk_strbuf *out)
{
	const struct laser_kind *kd = &lv->kind[k];
	if (k < lv->nfixed)
		lk_strbuf_addf(out, "%c ", kd->letter);
	else
		lk_strbuf_addf(out, "%d ", lv->tray_count[k - lv->nfixed]);
	lk_strbuf_addf(out, "%s ", lk_laser_type_name(kd->type));
	laser_ports_text(kd->ins, kd->outs, out);
	if (kd->type == LK_LASER_SRC || kd->type == LK_LASER_TGT) {
		if (kd->den == 1)
			lk_strbuf_addf(out, " %lld", (long long)kd->num);
		else
			lk_strbuf_addf(out, " %lld/%lld", (long long)kd->num, (long long)kd->den);
	}
}

void lk_laser_to_record(const struct lk_laser *lv, struct lk_record *rec)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_record_add_line(rec, "game: laser", 0);
	for (int y = 0; y < lv->height; y++) {
		lk_strbuf_reset(&sb);
		lk_strbuf_add(&sb, lv->cells + y * lv->width, (size_t)lv->width);
		lk_record_add_line(rec, sb.buf, 0);
	}
	for (int k = 0; k < lv->nfixed + lv->ntray; k++) {
		lk_strbuf_reset(&sb);
		lk_strbuf_addstr(&sb, k < lv->nfixed ? "fixed: " : "tray: ");
		piece_text(lv, k, &sb);
		lk_record_add_line(rec, sb.buf, 0);
	}
	lk_strbuf_release(&sb);
}

void lk_laser_write_lvl(const struct lk_laser *lv, struct lk_strbuf *out)
{
	lk_strbuf_addf(out, "size %d %d\ngrid\n", lv->width, lv->height);
	for (int y = 0; y < lv->height; y++) {
		lk_strbuf_add(out, lv->cells + y * lv->width, (size_t)lv->width);
		lk_strbuf_addch(out, '\n');
	}
	for (int k = 0; k < lv->nfixed + lv->ntray; k++) {
		lk_strbuf_addstr(out, k < lv->nfixed ? "fixed " : "tray ");
		piece_text(lv, k, out);
		lk_strbuf_addch(out, '\n');
	}
}

/* --------------------------------------------------------------- .lvl */

/* The next line of text (without newline) into line; false at the end. */
static bool next_line(const char **text, struct lk_strbuf *line)
{
	const char *s = *text;
	if (!*s)
		return false;
	const char *e = strchr(s, '\n');
	size_t len = e ? (size_t)(e - s) : strlen(s);
	lk_strbuf_reset(line);
	lk_strbuf_add(line, s, len);
	*text = e ? e + 1 : s + len;
	return true;
}

static bool blank(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return !*s;
}

struct lk_laser *lk_laser_read_lvl(const char *text, struct lk_strbuf *err, size_t *line)
{
	struct laser_spec *spec = lk_xcalloc(1, sizeof *spec);
	struct lk_strbuf l = LK_STRBUF_INIT;
	struct lk_laser *lv = NULL;
	size_t lineno = 0, fixed_line[LK_LASER_MAX_FIXED];
	int w = -1, h = -1, rows = -1;   /* rows: grid rows read, -1 before "grid" */
	*line = 0;
	while (next_line(&text, &l)) {
		lineno++;
		const char *s = l.buf;
		/* '\r' too, as laser_split_words skips it: a line of blanks
		 * and a comment has no words to read */
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (*s == ';' || blank(s))
			continue;   /* as lvl2lp.py: comments and blank lines anywhere */
		if (rows >= 0 && rows < h) {
			if (laser_spec_row(spec, rows, s, err) < 0)
				goto fail;
			rows++;
			continue;
		}
		struct laser_words ws;
		laser_split_words(s, &ws);
		if (laser_same_word(ws.w[0], ws.len[0], "size")) {
			int64_t a, b;
			if (ws.n != 3 || laser_parse_int(ws.w[1], ws.len[1], LK_LASER_MAX_SIDE, &a) < 0 ||
			    laser_parse_int(ws.w[2], ws.len[2], LK_LASER_MAX_SIDE, &b) < 0 || a < 1 || b < 1) {
				lk_strbuf_addf(err, "expected size W H, each 1 to %d", LK_LASER_MAX_SIDE);
				goto fail;
			}
			w = (int)a;
			h = (int)b;
		} else if (laser_same_word(ws.w[0], ws.len[0], "grid") && ws.n == 1) {
			if (w < 0) {
				lk_strbuf_addstr(err, "grid before size");
				goto fail;
			}
			spec->height = h;
			rows = 0;
		} else if (laser_same_word(ws.w[0], ws.len[0], "fixed") ||
			   laser_same_word(ws.w[0], ws.len[0], "tray")) {
			bool fixed = ws.len[0] == 5;
			if (fixed && spec->nfixed < LK_LASER_MAX_FIXED)
				fixed_line[spec->nfixed] = lineno;
			if (laser_spec_add(spec, ws.w[0] + ws.len[0], fixed, err) < 0)
				goto fail;
		} else {
			lk_strbuf_addf(err, "expected size, grid, fixed or tray, not '%.*s'", (int)ws.len[0],
				       ws.w[0]);
			goto fail;
		}
	}
	if (rows < 0 || rows < h) {
		lk_strbuf_addstr(err, rows < 0 ? "no grid" : "the grid has fewer rows than size says");
		lineno = 0;
		goto fail;
	}
	if (spec->width != w) {
		lk_strbuf_addf(err, "the grid is %d wide, size says %d", spec->width, w);
		lineno = 0;
		goto fail;
	}
	int row, def;
	if (laser_spec_letters(spec, err, &row, &def) < 0) {
		lineno = def >= 0 ? fixed_line[def] : 0;
		goto fail;
	}
	if (laser_build(spec, &lv, err) < 0)
		lineno = 0;
fail:
	if (!lv)
		*line = lineno;
	lk_strbuf_release(&l);
	free(spec);
	return lv;
}
