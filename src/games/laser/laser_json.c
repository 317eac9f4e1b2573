/*
 * laser_json.c - Refraction's own level files read as laser records.
 *
 * The game's puzzles are published as JSON, one object per level (one per
 * line in the .json, .jsonl and .txt files of edbutler/infinite-refraction):
 *
 *   {"level": {"ltype": "normal", "data": {"gver": 1, "pieces": [...]}, "fver": 1},
 *    "label": [...], "extra": {"lasers": [{"s": 32, "e": 82}, ...]}}
 *
 * on a 10 x 10 board, pos = 10 * row + column.  Pieces: sources ("output",
 * "value" {num, den}), targets ("inputs", "value"; a target on several
 * sides is several target entries on one cell), blockers, and benders,
 * splitters and combiners ("input"/"inputs", "output"/"outputs",
 * "mobility": "movable" for the tray; anything else stands where its pos
 * says).  A movable piece's pos is where the designer's solution puts it,
 * or any cell (often 0, or none) for a distractor; extra.lasers lists the
 * beam segments of that solution, from cell to cell, so a movable piece is
 * placed in it when a segment ends on its pos, arriving on one of its
 * in-ports.  That placement becomes the record's `solution`, so `solve
 * --verify` checks every designer's solution.
 *
 * Each level is made into the text a record holds (grid rows, fixed and
 * tray lines) and built through laser_level.c, so it is validated exactly
 * as a record is.  A level that cannot be read becomes a record with an
 * import-error field, which validation reports at its line: the other
 * levels of the file are still read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "laser_internal.h"
#include "levelkit/json.h"

#define SIDE 10   /* Refraction's board (game.js: board_size) */
#define NCELLS (SIDE * SIDE)

static const char side_letter[4] = { 'N', 'E', 'S', 'W' };

/* ------------------------------------------------------------ values */

static int side_of(const struct lk_json *v)
{
	if (!v || v->type != LK_JSON_STRING || v->len != 1)
		return -1;
	const char *p = strchr("nesw", v->str[0] | 0x20);
	return p && v->str[0] ? (int)(p - "nesw") : -1;
}

/* A whole number from lo to hi: 0, or -1. */
static int whole(const struct lk_json *v, double lo, double hi, long long *out)
{
	if (!v || v->type != LK_JSON_NUMBER || !(v->number >= lo && v->number <= hi) ||
	    v->number != floor(v->number))
		return -1;
	*out = (long long)v->number;
	return 0;
}

/* Sides of a string or an array of strings as bits; -1 when one is not
 * a side or one repeats; *n the count. */
static int sides(const struct lk_json *v, int *n)
{
	int bits = 0;
	*n = 0;
	if (v && v->type == LK_JSON_STRING) {
		int s = side_of(v);
		*n = s >= 0;
		return s >= 0 ? 1 << s : -1;
	}
	if (!v || v->type != LK_JSON_ARRAY || v->n == 0)
		return -1;
	for (size_t i = 0; i < v->n; i++) {
		int s = side_of(&v->items[i]);
		if (s < 0 || bits >> s & 1)
			return -1;
		bits |= 1 << s;
		++*n;
	}
	return bits;
}

static void ports_text(int ins, int outs, struct lk_strbuf *out)
{
	for (int s = 0; s < 4; s++)
		if (ins >> s & 1)
			lk_strbuf_addch(out, side_letter[s]);
	lk_strbuf_addch(out, '>');
	for (int s = 0; s < 4; s++)
		if (outs >> s & 1)
			lk_strbuf_addch(out, side_letter[s]);
}

/* --------------------------------------------------------------- pieces */

/* A piece line's definition: "SRC >E 1/2", "BND N>E" (no letter or count). */
struct def {
	char text[48];
	int first;           /* index of its first piece in the JSON */
	int count;           /* tray: pieces of this definition */
};

struct level {
	char cells[NCELLS];          /* '.', '#', or 1 + index into fixed[] */
	int cell_piece[NCELLS];      /* the JSON piece on a cell, -1 */
	int target_at[NCELLS];       /* the JSON piece of a cell's target, -1 */
	int target_ins[NCELLS];
	long long target_num[NCELLS], target_den[NCELLS];
	int nfixed, ntray;
	struct def fixed[NCELLS], tray[LK_LASER_MAX_LINES];
	int fixed_of[NCELLS];        /* the fixed definition on a cell, -1 */
	/* movable pieces: tray line, in-ports and the cell the JSON gives */
	int nmov;
	int mov_line[NCELLS * 4], mov_ins[NCELLS * 4], mov_pos[NCELLS * 4];
};

/* The definition text's index among defs (added if new); -1 when full. */
static int def_index(struct def *defs, int *n, int max, const char *text, int piece)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(defs[i].text, text))
			return i;
	if (*n == max)
		return -1;
	snprintf(defs[*n].text, sizeof defs[*n].text, "%s", text);
	defs[*n].first = piece;
	defs[*n].count = 0;
	return (*n)++;
}

/* A value {num, den}: "P/Q" into out; -1 with err. */
static int power_text(const struct lk_json *p, int i, struct lk_strbuf *out, long long *num,
		      long long *den, struct lk_strbuf *err)
{
	const struct lk_json *v = lk_json_get(p, "value");
	if (whole(lk_json_get(v, "num"), 1, 1e12, num) < 0 ||
	    whole(lk_json_get(v, "den"), 1, 1e12, den) < 0) {
		lk_strbuf_addf(err, "pieces[%d]: \"value\" needs \"num\" and \"den\", whole numbers from 1", i);
		return -1;
	}
	lk_strbuf_addf(out, " %lld/%lld", *num, *den);
	return 0;
}

/* Claim a cell for piece i: -1 with err when another piece stands there. */
static int claim(struct level *l, int c, int i, struct lk_strbuf *err)
{
	if (l->cell_piece[c] >= 0) {
		lk_strbuf_addf(err, "pieces[%d] and pieces[%d] are both on cell %d (column %d, row %d)",
			       l->cell_piece[c], i, c, c % SIDE, c / SIDE);
		return -1;
	}
	l->cell_piece[c] = i;
	return 0;
}

/* One piece of the JSON into the level; -1 with err. */
static int add_piece(struct level *l, const struct lk_json *p, int i, struct lk_strbuf *err)
{
	const struct lk_json *type = lk_json_get(p, "type");
	const char *t = type && type->type == LK_JSON_STRING ? type->str : NULL;
	long long pos = -1;
	const struct lk_json *posv = lk_json_get(p, "pos");
	if (posv && whole(posv, 0, NCELLS - 1, &pos) < 0) {
		lk_strbuf_addf(err, "pieces[%d]: \"pos\" is a cell from 0 to %d (10 * row + column)", i,
			       NCELLS - 1);
		return -1;
	}
	if (!t) {
		lk_strbuf_addf(err, "pieces[%d] has no \"type\"", i);
		return -1;
	}
	const struct lk_json *mob = lk_json_get(p, "mobility");
	bool movable = mob && mob->type == LK_JSON_STRING && !strcmp(mob->str, "movable");
	bool fixed_kind = !strcmp(t, "source") || !strcmp(t, "target") || !strcmp(t, "blocker");
	if ((fixed_kind || !movable) && pos < 0) {
		lk_strbuf_addf(err, "pieces[%d]: a %s that is not movable needs a \"pos\"", i, t);
		return -1;
	}
	int c = (int)pos;
	struct lk_strbuf text = LK_STRBUF_INIT;
	int rc = -1, nin = 0, nout = 0, ins = 0, outs = 0;
	long long num = 0, den = 0;
	if (!strcmp(t, "blocker")) {
		if (claim(l, c, i, err) == 0) {
			l->cells[c] = '#';
			rc = 0;
		}
		goto done;
	}
	if (!strcmp(t, "target")) {
		ins = sides(lk_json_get(p, "inputs"), &nin);
		if (ins < 0) {
			lk_strbuf_addf(err, "pieces[%d]: a target's \"inputs\" are sides \"n\" \"e\" \"s\" \"w\"", i);
			goto done;
		}
		if (power_text(p, i, &text, &num, &den, err) < 0)
			goto done;
		if (l->target_at[c] < 0) {
			/* the first entry on its cell */
			if (claim(l, c, i, err) < 0)
				goto done;
			l->target_at[c] = i;
			l->target_ins[c] = ins;
			l->target_num[c] = num;
			l->target_den[c] = den;
		} else if (num * l->target_den[c] != den * l->target_num[c]) {
			lk_strbuf_addf(err, "pieces[%d] and pieces[%d]: the target on cell %d needs "
				       "%lld/%lld on one side and %lld/%lld on another (its entries "
				       "are its sides, which sum to one need)", l->target_at[c], i, c,
				       l->target_num[c], l->target_den[c], num, den);
			goto done;
		} else {
			l->target_ins[c] |= ins;   /* another side of the same target */
		}
		rc = 0;
		goto done;
	}
	if (!strcmp(t, "source")) {
		outs = sides(lk_json_get(p, "output"), &nout);
		if (outs < 0 || nout != 1) {
			lk_strbuf_addf(err, "pieces[%d]: a source's \"output\" is one side \"n\" \"e\" \"s\" \"w\"", i);
			goto done;
		}
		lk_strbuf_addstr(&text, "SRC ");
		ports_text(0, outs, &text);
		if (power_text(p, i, &text, &num, &den, err) < 0)
			goto done;
	} else {
		const char *type_name;
		if (!strcmp(t, "bender")) {
			ins = sides(lk_json_get(p, "input"), &nin);
			outs = sides(lk_json_get(p, "output"), &nout);
			type_name = "BND";
			if (ins < 0 || outs < 0 || nin != 1 || nout != 1) {
				lk_strbuf_addf(err, "pieces[%d]: a bender has one \"input\" and one \"output\" side", i);
				goto done;
			}
		} else if (!strcmp(t, "splitter")) {
			ins = sides(lk_json_get(p, "input"), &nin);
			outs = sides(lk_json_get(p, "outputs"), &nout);
			type_name = nout == 3 ? "SP3" : "SP2";
			if (ins < 0 || outs < 0 || nin != 1 || nout < 2 || nout > 3) {
				lk_strbuf_addf(err, "pieces[%d]: a splitter has one \"input\" and two or three "
					       "\"outputs\"", i);
				goto done;
			}
		} else if (!strcmp(t, "combiner")) {
			ins = sides(lk_json_get(p, "inputs"), &nin);
			outs = sides(lk_json_get(p, "output"), &nout);
			type_name = nin == 3 ? "CMB3" : "CMB2";
			if (ins < 0 || outs < 0 || nin < 2 || nin > 3 || nout != 1) {
				lk_strbuf_addf(err, "pieces[%d]: a combiner has two or three \"inputs\" and one "
					       "\"output\"", i);
				goto done;
			}
		} else {
			lk_strbuf_addf(err, "pieces[%d]: unknown type \"%.24s\" (source, target, blocker, "
				       "bender, splitter, combiner)", i, t);
			goto done;
		}
		lk_strbuf_addf(&text, "%s ", type_name);
		ports_text(ins, outs, &text);
		if (movable) {
			int line = def_index(l->tray, &l->ntray, LK_LASER_MAX_LINES, text.buf, i);
			if (line < 0) {
				lk_strbuf_addf(err, "pieces[%d]: more than %d kinds of movable piece", i,
					       LK_LASER_MAX_LINES);
				goto done;
			}
			l->tray[line].count++;
			l->mov_line[l->nmov] = line;
			l->mov_ins[l->nmov] = ins;
			l->mov_pos[l->nmov++] = c;
			rc = 0;
			goto done;
		}
	}
	/* a source, or a piece fixed where it stands */
	if (claim(l, c, i, err) < 0)
		goto done;
	l->fixed_of[c] = def_index(l->fixed, &l->nfixed, NCELLS, text.buf, i);
	rc = 0;
done:
	lk_strbuf_release(&text);
	return rc;
}

/* The targets, each with all its sides, as fixed definitions. */
static void add_targets(struct level *l)
{
	for (int c = 0; c < NCELLS; c++) {
		if (l->target_at[c] < 0)
			continue;
		struct lk_strbuf text = LK_STRBUF_INIT;
		lk_strbuf_addstr(&text, "TGT ");
		ports_text(l->target_ins[c], 0, &text);
		lk_strbuf_addf(&text, " %lld/%lld", l->target_num[c], l->target_den[c]);
		l->fixed_of[c] = def_index(l->fixed, &l->nfixed, NCELLS, text.buf, l->target_at[c]);
		lk_strbuf_release(&text);
	}
}

/* ------------------------------------------------------------ solution */

/* The designer's placement from extra.lasers: a movable piece stands on
 * its pos when a segment ends there arriving on one of its in-ports (and
 * no fixed piece stands there, nor a movable piece listed before it).  -1 with err on a segment
 * that is not one. */
static int designer_placement(const struct level *l, const struct lk_json *lasers,
			      struct lk_laser_placement *pl, struct lk_strbuf *err)
{
	int arrive[NCELLS] = { 0 };   /* sides segments arrive on, per cell */
	for (size_t i = 0; i < lasers->n; i++) {
		const struct lk_json *seg = &lasers->items[i];
		long long s, e;
		if (whole(lk_json_get(seg, "s"), 0, NCELLS - 1, &s) < 0 ||
		    whole(lk_json_get(seg, "e"), 0, NCELLS - 1, &e) < 0 || s == e ||
		    (s / SIDE != e / SIDE && s % SIDE != e % SIDE)) {
			lk_strbuf_addf(err, "extra.lasers[%zu] is not a segment {\"s\": CELL, \"e\": CELL} "
				       "along a row or a column", i);
			return -1;
		}
		int heading = s / SIDE == e / SIDE ? (e > s ? LK_LASER_E : LK_LASER_W)
						   : (e > s ? LK_LASER_S : LK_LASER_N);
		arrive[e] |= 1 << laser_opposite(heading);
	}
	bool taken[NCELLS] = { false };
	pl->n = 0;
	for (int m = 0; m < l->nmov; m++) {
		int c = l->mov_pos[m];
		if (c < 0 || taken[c] || l->cell_piece[c] >= 0 || !(arrive[c] & l->mov_ins[m]))
			continue;
		taken[c] = true;
		pl->p[pl->n++] = (struct lk_laser_place){ l->mov_line[m] + 1, c % SIDE, c / SIDE };
	}
	return 0;
}

/* ------------------------------------------------------------- levels */

/* The pieces array of a level object: obj.level.data.pieces, or
 * obj.data.pieces, or obj.pieces. */
static const struct lk_json *pieces_of(const struct lk_json *obj)
{
	const struct lk_json *lvl = lk_json_get(obj, "level");
	const struct lk_json *data = lk_json_get(lvl ? lvl : obj, "data");
	const struct lk_json *p = lk_json_get(data ? data : lvl ? lvl : obj, "pieces");
	return p && p->type == LK_JSON_ARRAY ? p : NULL;
}

/* Add a line with the JSON's line number. */
static void add(struct lk_record *rec, const char *text, size_t lineno)
{
	lk_record_add_line(rec, text, lineno);
}

/* A piece line into the spec, as a record's is read: -1 with err naming
 * the JSON piece it came from. */
static int spec_line(struct laser_spec *spec, const char *text, bool fixed, int piece,
		     struct lk_strbuf *err)
{
	struct lk_strbuf why = LK_STRBUF_INIT;
	int rc = laser_spec_add(spec, text, fixed, &why);
	if (rc < 0)
		lk_strbuf_addf(err, "pieces[%d]: %s", piece, why.buf);
	lk_strbuf_release(&why);
	return rc;
}

/* The level object as record lines (after its title); -1 with err. */
static int level_lines(const struct lk_json *obj, size_t lineno, struct lk_record *rec,
		       struct lk_strbuf *err)
{
	const struct lk_json *pieces = pieces_of(obj);
	if (!pieces) {
		lk_strbuf_addstr(err, "not a Refraction level: no \"level\": {\"data\": {\"pieces\": [...]}}");
		return -1;
	}
	struct level *l = lk_xcalloc(1, sizeof *l);
	struct laser_spec *spec = lk_xcalloc(1, sizeof *spec);
	struct lk_laser *lv = NULL;
	struct lk_strbuf line = LK_STRBUF_INIT;
	int rc = -1;
	memset(l->cells, '.', sizeof l->cells);
	for (int c = 0; c < NCELLS; c++)
		l->cell_piece[c] = l->target_at[c] = l->fixed_of[c] = -1;
	for (size_t i = 0; i < pieces->n; i++)
		if (add_piece(l, &pieces->items[i], (int)i, err) < 0)
			goto out;
	add_targets(l);
	if (l->nfixed > LK_LASER_MAX_FIXED) {
		lk_strbuf_addf(err, "more than %d kinds of fixed piece (one letter each)", LK_LASER_MAX_FIXED);
		goto out;
	}
	/* the board: letters A-Z then a-z by the definitions' order */
	static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
	spec->height = SIDE;
	for (int y = 0; y < SIDE; y++) {
		char row[SIDE + 1];
		for (int x = 0; x < SIDE; x++) {
			int c = y * SIDE + x;
			row[x] = l->fixed_of[c] >= 0 ? letters[l->fixed_of[c]] : l->cells[c];
		}
		row[SIDE] = '\0';
		if (laser_spec_row(spec, y, row, err) < 0)
			goto out;
	}
	for (int f = 0; f < l->nfixed; f++) {
		lk_strbuf_reset(&line);
		lk_strbuf_addf(&line, "%c %s", letters[f], l->fixed[f].text);
		if (spec_line(spec, line.buf, true, l->fixed[f].first, err) < 0)
			goto out;
	}
	for (int t = 0; t < l->ntray; t++) {
		lk_strbuf_reset(&line);
		lk_strbuf_addf(&line, "%d %s", l->tray[t].count, l->tray[t].text);
		if (spec_line(spec, line.buf, false, l->tray[t].first, err) < 0)
			goto out;
	}
	if (laser_build(spec, &lv, err) < 0)
		goto out;
	struct lk_record level = LK_RECORD_INIT;
	lk_laser_to_record(lv, &level);
	for (size_t i = 0; i < level.nlines; i++)
		add(rec, level.lines[i].text, lineno);
	lk_record_release(&level);
	const struct lk_json *extra = lk_json_get(obj, "extra");
	const struct lk_json *lasers = lk_json_get(extra, "lasers");
	if (lasers && lasers->type == LK_JSON_ARRAY) {
		struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
		if (designer_placement(l, lasers, pl, err) == 0) {
			lk_strbuf_reset(&line);
			lk_strbuf_addstr(&line, "solution: ");
			lk_laser_placement_format(pl, &line);
			add(rec, line.buf, lineno);
			rc = 0;
		}
		free(pl);
	} else {
		rc = 0;
	}
out:
	lk_laser_free(lv);
	lk_strbuf_release(&line);
	free(spec);
	free(l);
	return rc;
}

/* ------------------------------------------------------------- files */

/* A value at the start of text[0..len) that parses: the level objects it
 * holds are one (an object) or its elements (an array). */
static bool parses(const char *text, size_t len, struct lk_json *v)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	bool ok = lk_json_parse(text, len, v, &err, NULL) == 0;
	lk_strbuf_release(&err);
	return ok;
}

static bool holds_level(const struct lk_json *v)
{
	if (v->type == LK_JSON_ARRAY)
		return v->n > 0 && pieces_of(&v->items[0]) != NULL;
	return v->type == LK_JSON_OBJECT && pieces_of(v) != NULL;
}

static size_t skip_blank(const char *data, size_t len, size_t i)
{
	if (i == 0 && len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
		i = 3;   /* a UTF-8 byte order mark */
	while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
		i++;
	return i;
}

bool laser_json_probe(const char *data, size_t len)
{
	size_t i = skip_blank(data, len, 0);
	if (i == len || (data[i] != '{' && data[i] != '['))
		return false;
	const char *nl = memchr(data + i, '\n', len - i);
	size_t n = nl ? (size_t)(nl - (data + i)) : len - i;
	struct lk_json v;
	bool yes = false;
	/* a JSON line; else the whole start, for a file of one value over
	 * several lines */
	if (parses(data + i, n, &v) || parses(data + i, len - i, &v)) {
		yes = holds_level(&v);
		lk_json_release(&v);
	}
	return yes;
}

struct out {
	struct lk_record *recs;
	size_t n, alloc;
	const char *base;
	size_t base_len;
};

/* A new record titled "BASE N" at lineno. */
static struct lk_record *new_record(struct out *o, size_t lineno)
{
	LK_ALLOC_GROW(o->recs, o->n + 1, o->alloc);
	struct lk_record *rec = &o->recs[o->n++];
	lk_record_init(rec);
	struct lk_strbuf t = LK_STRBUF_INIT;
	lk_strbuf_addf(&t, "title: %.*s%s%zu", (int)o->base_len, o->base, o->base_len ? " " : "", o->n);
	add(rec, t.buf, lineno);
	lk_strbuf_release(&t);
	rec->first_lineno = lineno;
	return rec;
}

/* A record that keeps a level's place and says why it could not be read
 * (validation reports the import-error field at its line).  Its grid (a
 * record without one would pass through the commands as a pack header)
 * is the level's JSON line as it was (or, when that would not read as a
 * grid row, or in a file of one value over several lines, where the
 * value begins). */
static void error_record(struct lk_record *rec, const char *why, size_t lineno, const char *text,
			 size_t len)
{
	struct lk_strbuf t = LK_STRBUF_INIT;
	add(rec, "game: laser", lineno);
	while (len && (text[len - 1] == '\r' || text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	size_t name_len, value_off;
	if (text && len && !memchr(text, '\0', len))
		lk_strbuf_add(&t, text, len);
	if (!t.len || lk_line_classify(t.buf, &name_len, &value_off) != LK_LINE_GRID) {
		/* not a line that reads as a grid row (a comment, a field) */
		lk_strbuf_reset(&t);
		lk_strbuf_addf(&t, "(the JSON value at line %zu)", lineno);
	}
	add(rec, t.buf, lineno);
	lk_strbuf_reset(&t);
	lk_strbuf_addstr(&t, "import-error: ");
	for (const char *s = why; *s; s++)
		lk_strbuf_addch(&t, *s == '\n' || *s == '\r' ? ' ' : *s);
	add(rec, t.buf, lineno);
	lk_strbuf_release(&t);
}

static void level_record(struct out *o, const struct lk_json *obj, size_t lineno, const char *text,
			 size_t len)
{
	struct lk_record *rec = new_record(o, lineno);
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (level_lines(obj, lineno, rec, &err) < 0) {
		lk_record_release(rec);
		lk_record_init(rec);
		struct lk_strbuf t = LK_STRBUF_INIT;
		lk_strbuf_addf(&t, "title: %.*s%s%zu", (int)o->base_len, o->base, o->base_len ? " " : "", o->n);
		add(rec, t.buf, lineno);
		lk_strbuf_release(&t);
		rec->first_lineno = lineno;
		error_record(rec, err.buf, lineno, text, len);
	}
	lk_strbuf_release(&err);
}

/* The levels of a value whose text is text[0..len) (NULL: a value over
 * several lines, not kept in an error record). */
static void value_records(struct out *o, const struct lk_json *v, size_t lineno, const char *text,
			  size_t len)
{
	if (v->type == LK_JSON_ARRAY) {
		for (size_t i = 0; i < v->n; i++)
			level_record(o, &v->items[i], lineno, v->n == 1 ? text : NULL, len);
	} else if (v->type == LK_JSON_OBJECT) {
		level_record(o, v, lineno, text, len);
	} else {
		error_record(new_record(o, lineno), "expected a level object {\"level\": ...}", lineno,
			     text, len);
	}
}

int laser_json_import(const char *path, const char *data, size_t len, struct lk_record **recs,
		      size_t *nrecs, struct lk_strbuf *err, size_t *line)
{
	struct out o = { NULL, 0, 0, "", 0 };
	const char *base = path ? strrchr(path, '/') : NULL;
	base = base ? base + 1 : path;
	if (base && *base && strcmp(base, "-") != 0) {
		const char *dot = strrchr(base, '.');
		o.base = base;
		o.base_len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	}
	*recs = NULL;
	*nrecs = 0;
	/* one value over several lines (a pretty-printed object, an array) */
	size_t start = skip_blank(data, len, 0), lineno = 1;
	for (size_t i = 0; i < start; i++)
		lineno += data[i] == '\n';
	const char *nl = start < len ? memchr(data + start, '\n', len - start) : NULL;
	struct lk_json v;
	bool first_line = nl && parses(data + start, (size_t)(nl - (data + start)), &v);
	if (first_line)
		lk_json_release(&v);
	if (nl && !first_line && parses(data + start, len - start, &v)) {
		value_records(&o, &v, lineno, NULL, 0);
		lk_json_release(&v);
	} else {
		/* JSON lines: one value per line */
		size_t i = 0;
		lineno = 0;
		while (i < len) {
			const char *e = memchr(data + i, '\n', len - i);
			size_t n = e ? (size_t)(e - (data + i)) : len - i, b = i;
			lineno++;
			if (i == 0 && len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
				b = 3;   /* a UTF-8 byte order mark */
			size_t k = b;
			while (k < i + n && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r'))
				k++;
			if (k < i + n) {
				struct lk_strbuf why = LK_STRBUF_INIT;
				size_t at = 0;
				if (lk_json_parse(data + k, i + n - k, &v, &why, &at) == 0) {
					value_records(&o, &v, lineno, data + k, i + n - k);
					lk_json_release(&v);
				} else {
					struct lk_strbuf msg = LK_STRBUF_INIT;
					lk_strbuf_addf(&msg, "json: column %zu: %s", k - i + at + 1, why.buf);
					error_record(new_record(&o, lineno), msg.buf, lineno, data + k,
						     i + n - k);
					lk_strbuf_release(&msg);
				}
				lk_strbuf_release(&why);
			}
			i += n + (e != NULL);
		}
	}
	if (!o.n) {
		lk_strbuf_addstr(err, "no Refraction level in the file");
		*line = 0;
		return -1;
	}
	*recs = o.recs;
	*nrecs = o.n;
	return 0;
}
