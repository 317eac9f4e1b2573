/*
 * record_format.c - writing records as text, tsv or json (and dispatching
 * the .sok formats to record_sok.c).
 *
 * Text output is the record itself (lossless, see record.c).  The tsv and
 * json formats are for spreadsheets and scripts: they only describe level
 * records (those with a grid) and flatten each one to a row or an object.
 * Formatting goes through a buffer so worker threads can prepare output
 * and a single thread write it in order.
 */
#include "record_internal.h"

#include <stdlib.h>
#include <string.h>

/* In the order of enum lk_format. */
static const char *const format_names[] = { "text", "tsv", "json", "sok", "sok-rle",
					     "puzzlescript" };

void lk_format_names(struct lk_strbuf *out, const char *last_sep)
{
	size_t n = sizeof(format_names) / sizeof(*format_names);
	for (size_t i = 0; i < n; i++)
		lk_strbuf_addf(out, "%s%s", i == 0 ? "" : i + 1 == n ? last_sep : ", ", format_names[i]);
}

int lk_format_parse(const char *name, enum lk_format *fmt)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(*format_names); i++) {
		if (name && strcmp(name, format_names[i]) == 0) {
			*fmt = (enum lk_format)i;
			return 0;
		}
	}
	return -1;
}

void lk_writer_init(struct lk_writer *w, FILE *fp, enum lk_format format,
		    const char *const *extra_columns)
{
	w->fp = fp;
	w->format = format;
	w->extra_columns = extra_columns;
	w->always_columns = NULL;
	w->chosen = NULL;
	w->nchosen = 0;
	w->columns = NULL;
	w->ncolumns = 0;
	w->header_written = false;
	w->levels = 0;
	lk_strbuf_init(&w->buf);
}

void lk_writer_release(struct lk_writer *w)
{
	for (size_t i = 0; i < w->ncolumns; i++)
		free(w->columns[i]);
	free(w->columns);
	w->columns = NULL;
	w->ncolumns = 0;
	for (size_t i = 0; i < w->nchosen; i++)
		free(w->chosen[i]);
	free(w->chosen);
	w->chosen = NULL;
	w->nchosen = 0;
	w->header_written = false;
	lk_strbuf_release(&w->buf);
}

/* -------------------------------------------------------------------- tsv */

static void add_column(struct lk_writer *w, const char *name, size_t len,
		       size_t *alloc)
{
	for (size_t i = 0; i < w->ncolumns; i++)
		if (lk_field_name_eq(name, len, w->columns[i]))
			return;
	LK_ALLOC_GROW(w->columns, w->ncolumns + 1, *alloc);
	w->columns[w->ncolumns++] = lk_xstrndup(name, len);
}

static bool listed(const char *const *list, const char *name, size_t len)
{
	for (size_t i = 0; list && list[i]; i++)
		if (lk_field_name_eq(name, len, list[i]))
			return true;
	return false;
}

/* The command's own columns are all there whatever the first level
 * holds; the rest come from the first level only: a stream is normally
 * one pack whose levels share their fields, and a header must be written
 * before the later levels are even read. */
static void choose_columns(struct lk_writer *w, const struct lk_record *rec)
{
	size_t alloc = 0;

	if (w->nchosen) {
		for (size_t i = 0; i < w->nchosen; i++)
			add_column(w, w->chosen[i], strlen(w->chosen[i]), &alloc);
		return;
	}
	add_column(w, "record", 6, &alloc);
	add_column(w, "title", 5, &alloc);
	for (size_t i = 0; w->extra_columns && w->extra_columns[i]; i++) {
		const char *name = w->extra_columns[i];
		if (!listed(w->always_columns, name, strlen(name)))
			add_column(w, name, strlen(name), &alloc);
	}
	for (size_t i = 0; i < rec->nlines; i++)
		if (rec->lines[i].kind == LK_LINE_FIELD)
			add_column(w, rec->lines[i].text, rec->lines[i].name_len,
				   &alloc);
	for (size_t i = 0; w->always_columns && w->always_columns[i]; i++)
		add_column(w, w->always_columns[i], strlen(w->always_columns[i]), &alloc);
}

int lk_writer_choose_columns(struct lk_writer *w, const char *list, struct lk_strbuf *err)
{
	size_t alloc = 0;
	for (const char *s = list;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		char *name = lk_xstrndup(s, len);
		size_t name_len, value_off;
		struct lk_strbuf line = LK_STRBUF_INIT;
		lk_strbuf_addf(&line, "%s: x", name);
		bool ok = len && lk_line_classify(line.buf, &name_len, &value_off) == LK_LINE_FIELD &&
			  name_len == len;
		lk_strbuf_release(&line);
		if (!ok) {
			lk_strbuf_addstr(err, "--fields: '");
			lk_strbuf_add_escaped(err, name, len);
			lk_strbuf_addstr(err, "' is not a field name");
			free(name);
			return -1;
		}
		LK_ALLOC_GROW(w->chosen, w->nchosen + 1, alloc);
		w->chosen[w->nchosen++] = name;
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

int lk_writer_check_columns(const struct lk_writer *w, const struct lk_record *rec,
			    struct lk_strbuf *err)
{
	for (size_t i = 0; i < w->nchosen; i++) {
		const char *name = w->chosen[i];
		size_t len = strlen(name);
		if (lk_field_name_eq(name, len, "record") || lk_field_name_eq(name, len, "title") ||
		    listed(w->extra_columns, name, len) || listed(w->always_columns, name, len) ||
		    lk_record_find(rec, name) >= 0)
			continue;
		lk_strbuf_addstr(err, "--fields: no field '");
		lk_strbuf_add_escaped(err, name, len);
		lk_strbuf_addstr(err, "' (the fields here: record, title");
		for (size_t j = 0; w->extra_columns && w->extra_columns[j]; j++)
			lk_strbuf_addf(err, ", %s", w->extra_columns[j]);
		for (size_t j = 0; j < rec->nlines; j++) {
			const struct lk_line *l = &rec->lines[j];
			if (l->kind == LK_LINE_FIELD && !listed(w->extra_columns, l->text, l->name_len)) {
				lk_strbuf_addstr(err, ", ");
				lk_strbuf_add_escaped(err, l->text, l->name_len);
			}
		}
		lk_strbuf_addch(err, ')');
		return -1;
	}
	return 0;
}

/* TSV has no quoting: the separators inside a value become spaces. */
static void tsv_cell(struct lk_strbuf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		lk_strbuf_addch(out, (c == '\t' || c == '\n' || c == '\r') ? ' ' : c);
	}
}

static void format_tsv(struct lk_writer *w, const struct lk_record *rec,
		       struct lk_strbuf *out)
{
	struct lk_strbuf tbuf = LK_STRBUF_INIT;

	if (!w->header_written) {
		choose_columns(w, rec);
		for (size_t i = 0; i < w->ncolumns; i++) {
			if (i)
				lk_strbuf_addch(out, '\t');
			tsv_cell(out, w->columns[i], strlen(w->columns[i]));
		}
		lk_strbuf_addch(out, '\n');
		w->header_written = true;
	}
	char number[32];
	snprintf(number, sizeof number, "%zu", rec->number);
	for (size_t i = 0; i < w->ncolumns; i++) {
		/* "record" and "title" are the record's; the rest are fields. */
		const char *v = lk_field_name_eq(w->columns[i], strlen(w->columns[i]), "record")
					? number
				: lk_field_name_eq(w->columns[i], strlen(w->columns[i]), "title")
					? lk_record_title(rec, &tbuf)
					: lk_record_get(rec, w->columns[i]);
		if (i)
			lk_strbuf_addch(out, '\t');
		if (v)
			tsv_cell(out, v, lk_trimmed_len(v));
	}
	lk_strbuf_addch(out, '\n');
	lk_strbuf_release(&tbuf);
}

/* ------------------------------------------------------------------- json */

/* Exactly the JSON number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
 * so that "01", "+1" or ".5" (which JSON rejects) stay strings. */
static bool is_json_number(const char *s, size_t len)
{
	size_t i = 0, d;

	if (i < len && s[i] == '-')
		i++;
	if (i < len && s[i] == '0') {
		i++;
	} else {
		for (d = i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return false;
	}
	if (i < len && s[i] == '.') {
		for (d = ++i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return false;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		for (d = i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return false;
	}
	return i == len;
}

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one (bad lead
 * byte, truncated, overlong, surrogate or beyond U+10FFFF). */
static size_t utf8_seq_len(const unsigned char *s, size_t avail)
{
	unsigned long cp, min;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2, cp = s[0] & 0x1fu, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3, cp = s[0] & 0x0fu, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4, cp = s[0] & 0x07u, min = 0x10000;
	} else {
		return 0;
	}
	if (len > avail)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3fu);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* A JSON string.  Invalid UTF-8 (levels from old DOS packs) becomes
 * U+FFFD so the output is always valid JSON. */
static void json_string(struct lk_strbuf *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	lk_strbuf_addch(out, '"');
	for (size_t i = 0; i < len;) {
		unsigned char c = u[i];
		size_t n;

		if (c == '"' || c == '\\') {
			lk_strbuf_addch(out, '\\');
			lk_strbuf_addch(out, (char)c);
		} else if (c == '\n') {
			lk_strbuf_addstr(out, "\\n");
		} else if (c == '\t') {
			lk_strbuf_addstr(out, "\\t");
		} else if (c == '\r') {
			lk_strbuf_addstr(out, "\\r");
		} else if (c < 0x20) {
			lk_strbuf_addf(out, "\\u%04x", (unsigned)c);
		} else if ((n = utf8_seq_len(u + i, len - i)) > 0) {
			lk_strbuf_add(out, u + i, n);
			i += n;
			continue;
		} else {
			lk_strbuf_addstr(out, "\\ufffd");
		}
		i++;
	}
	lk_strbuf_addch(out, '"');
}

static void json_value(struct lk_strbuf *out, const char *s)
{
	size_t len = lk_trimmed_len(s);

	if (is_json_number(s, len))
		lk_strbuf_add(out, s, len);
	else
		json_string(out, s, len);
}

static bool json_reserved(const struct lk_line *l)
{
	static const char *const keys[] = { "record", "title", "grid", "comments" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		if (lk_field_name_eq(l->text, l->name_len, keys[i]))
			return true;
	return false;
}

/* Whether a later field has the same name: JSON objects should not repeat
 * keys, and the last value is the one lk_record_get reports. */
static bool field_repeated_later(const struct lk_record *rec, size_t i)
{
	const struct lk_line *l = &rec->lines[i];

	for (size_t j = i + 1; j < rec->nlines; j++) {
		const struct lk_line *m = &rec->lines[j];
		if (m->kind == LK_LINE_FIELD &&
		    lk_field_names_equal(l->text, l->name_len, m->text, m->name_len))
			return true;
	}
	return false;
}

static void format_json(const struct lk_record *rec, struct lk_strbuf *out)
{
	struct lk_strbuf tmp = LK_STRBUF_INIT;
	const char *title = lk_record_title(rec, &tmp);
	size_t first, n = lk_record_grid(rec, &first);
	bool any = false;

	lk_strbuf_addf(out, "{\"record\":%zu,\"title\":", rec->number);
	if (title)
		json_string(out, title, lk_trimmed_len(title));
	else
		lk_strbuf_addstr(out, "null");

	lk_strbuf_reset(&tmp);
	for (size_t i = first; i < first + n; i++) {
		if (i > first)
			lk_strbuf_addch(&tmp, '\n');
		lk_strbuf_addstr(&tmp, rec->lines[i].text);
	}
	lk_strbuf_addstr(out, ",\"grid\":");
	json_string(out, tmp.buf, tmp.len);

	lk_strbuf_addstr(out, ",\"comments\":[");
	for (size_t i = 0; i < rec->nlines; i++) {
		const char *c = rec->lines[i].text + 1;
		if (rec->lines[i].kind != LK_LINE_COMMENT)
			continue;
		while (lk_blank_char(*c))
			c++;
		if (any)
			lk_strbuf_addch(out, ',');
		json_string(out, c, lk_trimmed_len(c));
		any = true;
	}
	lk_strbuf_addch(out, ']');

	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *l = &rec->lines[i];
		if (l->kind != LK_LINE_FIELD || json_reserved(l) ||
		    field_repeated_later(rec, i))
			continue;
		lk_strbuf_addch(out, ',');
		json_string(out, l->text, l->name_len);
		lk_strbuf_addch(out, ':');
		json_value(out, l->value ? l->value : l->text + l->value_off);
	}
	lk_strbuf_addstr(out, "}\n");
	lk_strbuf_release(&tmp);
}

/* ----------------------------------------------------------- puzzlescript */

/*
 * A LEVELS section that pastes into a PuzzleScript script as it is: the
 * section's heading once, then per record its `message` fields as message
 * lines and its grid rows, each followed by a blank line.  Other fields
 * and comments have no place in a script and are left out.
 */
int lk_writer_accepts(struct lk_writer *w, const struct lk_record *rec, struct lk_strbuf *err)
{
	if (w->format != LK_FORMAT_PUZZLESCRIPT || lk_record_grid(rec, NULL) == 0)
		return 0;
	const char *game = lk_record_game(rec);
	if (strcmp(game, "puzzlescript") == 0)
		return 0;
	if (w->refused++)
		return -2;
	lk_strbuf_addf(err, "-f puzzlescript writes the levels of PuzzleScript games, in their "
		       "script's legend; this is a %s level, whose characters mean other things "
		       "there: it is not written, nor any other level that is not PuzzleScript", game);
	return -1;
}

const char *lk_writer_refusal(const struct lk_writer *w)
{
	return w->format == LK_FORMAT_PUZZLESCRIPT ? "-f puzzlescript: not PuzzleScript levels" : "";
}

static void format_puzzlescript(struct lk_writer *w, const struct lk_record *rec,
				struct lk_strbuf *out)
{
	if (!w->header_written) {
		lk_strbuf_addstr(out, "=======\nLEVELS\n=======\n\n");
		w->header_written = true;
	}
	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *l = &rec->lines[i];
		if (l->kind == LK_LINE_FIELD && lk_field_name_eq(l->text, l->name_len, "message"))
			lk_strbuf_addf(out, "message %s\n\n", l->text + l->value_off);
	}
	/* PuzzleScript trims a map's rows: the indent a record may give them
	 * (so that a row starting with ';' stays a grid line) goes.  Another
	 * game's grid has no place here (lk_writer_accepts refused it). */
	size_t first, n = lk_record_grid(rec, &first);
	if (n && strcmp(lk_record_game(rec), "puzzlescript") != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *row = rec->lines[first + i].text;
		lk_strbuf_addstr(out, row + strspn(row, " \t"));
		lk_strbuf_addch(out, '\n');
	}
	if (n)
		lk_strbuf_addch(out, '\n');
}

/* ----------------------------------------------------------------- output */

void lk_writer_format(struct lk_writer *w, const struct lk_record *rec,
		      struct lk_strbuf *out)
{
	if (w->format == LK_FORMAT_TEXT) {
		lk_record_write(rec, out);
		lk_strbuf_addch(out, '\n');
		return;
	}
	if (w->format == LK_FORMAT_SOK || w->format == LK_FORMAT_SOK_RLE) {
		lk_sok_format(w, rec, out);
		return;
	}
	if (w->format == LK_FORMAT_PUZZLESCRIPT) {
		format_puzzlescript(w, rec, out);
		return;
	}
	/* Headers of fields and comments describe the pack, not a level, and
	 * have no row or object of their own. */
	if (lk_record_grid(rec, NULL) == 0)
		return;
	if (w->format == LK_FORMAT_TSV)
		format_tsv(w, rec, out);
	else
		format_json(rec, out);
}

int lk_writer_put(struct lk_writer *w, const struct lk_record *rec)
{
	lk_strbuf_reset(&w->buf);
	lk_writer_format(w, rec, &w->buf);
	if (w->buf.len && fwrite(w->buf.buf, 1, w->buf.len, w->fp) != w->buf.len)
		return -1;
	/* Flush every record: long-running commands (solving a pack) should
	 * stream results to a pipe rather than deliver them all at the end. */
	if (fflush(w->fp) != 0 || ferror(w->fp))
		return -1;
	return 0;
}
