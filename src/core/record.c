/*
 * record.c - the level text format: classifying lines and editing records.
 *
 * A record is kept as its list of lines, verbatim and in order, instead of
 * being parsed into a separate model.  That is what makes reading and
 * writing lossless: a command that only sets one field changes exactly one
 * line of output.  Fields and the grid are found by looking at line kinds.
 * Reading streams is in record_read.c (with the Sokoban pack layouts in
 * record_pack.c and SLC XML in record_slc.c); the output formats are in
 * record_format.c and record_sok.c.
 */
#include "levelkit/record.h"

#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

/* Explicit ASCII tests: <ctype.h> depends on the locale, and field names
 * must mean the same thing everywhere. */
static bool is_alpha(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static bool is_name_char(char c)
{
	return is_alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
	       c == '-';
}

static char ascii_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

bool lk_field_names_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++)
		if (ascii_lower(a[i]) != ascii_lower(b[i]))
			return false;
	return true;
}

bool lk_field_name_eq(const char *text, size_t len, const char *name)
{
	return lk_field_names_equal(text, len, name, strlen(name));
}

int lk_line_classify(const char *text, size_t *name_len, size_t *value_off)
{
	size_t n = 0, v;

	if (name_len)
		*name_len = 0;
	if (value_off)
		*value_off = 0;
	if (lk_blank_mem(text, strlen(text)))
		return -1;
	if (text[0] == ';')
		return LK_LINE_COMMENT;
	if (!is_alpha(text[0]))
		return LK_LINE_GRID;
	while (is_name_char(text[n]))
		n++;
	/* The blank (or end of line) required after the colon keeps things
	 * like "a:b" in grids of other games from being taken as fields. */
	if (text[n] != ':' ||
	    (text[n + 1] != '\0' && text[n + 1] != ' ' && text[n + 1] != '\t'))
		return LK_LINE_GRID;
	v = n + 1;
	while (text[v] == ' ' || text[v] == '\t')
		v++;
	if (name_len)
		*name_len = n;
	if (value_off)
		*value_off = v;
	return LK_LINE_FIELD;
}

/* Fill *l from text, which it takes ownership of.  Blank text (which the
 * reader never produces inside a record) is stored as a grid line, the
 * only kind that does not need a particular shape. */
static void line_set(struct lk_line *l, char *text, size_t lineno)
{
	int kind = lk_line_classify(text, &l->name_len, &l->value_off);

	l->kind = kind < 0 ? LK_LINE_GRID : (enum lk_line_kind)kind;
	l->text = text;
	l->lineno = lineno;
	l->cont = 0;
	l->value = NULL;
}

static void insert_line(struct lk_record *rec, size_t at, char *text,
			size_t lineno)
{
	LK_ALLOC_GROW(rec->lines, rec->nlines + 1, rec->alloc);
	memmove(rec->lines + at + 1, rec->lines + at,
		(rec->nlines - at) * sizeof(*rec->lines));
	rec->nlines++;
	line_set(&rec->lines[at], text, lineno);
}

static void remove_lines(struct lk_record *rec, size_t at, size_t n)
{
	if (n == 0)
		return;
	for (size_t i = at; i < at + n; i++) {
		free(rec->lines[i].text);
		free(rec->lines[i].value);
	}
	memmove(rec->lines + at, rec->lines + at + n,
		(rec->nlines - at - n) * sizeof(*rec->lines));
	rec->nlines -= n;
}

void lk_record_init(struct lk_record *rec)
{
	rec->lines = NULL;
	rec->nlines = 0;
	rec->alloc = 0;
	rec->source = NULL;
	rec->first_lineno = 0;
	rec->number = 0;
	rec->lossy = false;
	rec->bom = false;
}

void lk_record_release(struct lk_record *rec)
{
	for (size_t i = 0; i < rec->nlines; i++) {
		free(rec->lines[i].text);
		free(rec->lines[i].value);
	}
	free(rec->lines);
	free(rec->source);
	lk_record_init(rec);
}

void lk_record_copy(struct lk_record *dst, const struct lk_record *src)
{
	if (dst == src)
		return;
	lk_record_release(dst);
	for (size_t i = 0; i < src->nlines; i++) {
		LK_ALLOC_GROW(dst->lines, i + 1, dst->alloc);
		dst->lines[i] = src->lines[i];
		dst->lines[i].text = lk_xstrdup(src->lines[i].text);
		if (src->lines[i].value)
			dst->lines[i].value = lk_xstrdup(src->lines[i].value);
	}
	dst->nlines = src->nlines;
	dst->source = src->source ? lk_xstrdup(src->source) : NULL;
	dst->first_lineno = src->first_lineno;
	dst->number = src->number;
	dst->lossy = src->lossy;
	dst->bom = src->bom;
}

void lk_record_add_line(struct lk_record *rec, const char *text, size_t lineno)
{
	insert_line(rec, rec->nlines, lk_xstrdup(text), lineno);
}

void lk_record_append_line(struct lk_record *rec, const struct lk_line *line)
{
	struct lk_line *l;

	LK_ALLOC_GROW(rec->lines, rec->nlines + 1, rec->alloc);
	l = &rec->lines[rec->nlines++];
	*l = *line;
	l->text = lk_xstrdup(line->text);
	l->value = line->value ? lk_xstrdup(line->value) : NULL;
}

/* ----------------------------------------------------------------- fields */

/* The last match wins, everywhere (get, set, json output): a command that
 * appends a second "moves:" line by hand still sees its own value. */
long lk_record_find(const struct lk_record *rec, const char *name)
{
	for (size_t i = rec->nlines; i-- > 0;) {
		const struct lk_line *l = &rec->lines[i];
		if (l->kind == LK_LINE_FIELD && lk_field_name_eq(l->text, l->name_len, name))
			return (long)i;
	}
	return -1;
}

const char *lk_record_get(const struct lk_record *rec, const char *name)
{
	long i = lk_record_find(rec, name);
	if (i < 0)
		return NULL;
	return rec->lines[i].value ? rec->lines[i].value
				   : rec->lines[i].text + rec->lines[i].value_off;
}

/* The lines a field goes on over, at most to the end of the record (a
 * command may have removed lines after it). */
static size_t cont_lines(const struct lk_record *rec, size_t i)
{
	size_t n = rec->lines[i].cont;
	return n < rec->nlines - i - 1 ? n : rec->nlines - i - 1;
}

static bool valid_name(const char *name)
{
	if (!is_alpha(name[0]))
		return false;
	for (size_t i = 1; name[i]; i++)
		if (!is_name_char(name[i]))
			return false;
	return true;
}

void lk_record_set(struct lk_record *rec, const char *name, const char *value)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	long i = lk_record_find(rec, name);

	/* An invalid name would silently produce a grid line and corrupt the
	 * level, so treat it as the programming error it is. */
	if (!valid_name(name)) {
		fprintf(stderr, "levelkit: invalid field name '%s'\n", name);
		abort();
	}
	if (i >= 0)
		lk_strbuf_add(&sb, rec->lines[i].text, rec->lines[i].name_len);
	else
		lk_strbuf_addstr(&sb, name);
	lk_strbuf_addch(&sb, ':');
	/* No trailing blank for an empty value: "name:" reads back the same. */
	if (*value)
		lk_strbuf_addch(&sb, ' ');
	/* A newline in a value would split the line and change the record's
	 * structure when read back; values are single-line by definition. */
	for (const char *p = value; *p; p++)
		lk_strbuf_addch(&sb, (*p == '\n' || *p == '\r') ? ' ' : *p);

	if (i >= 0) {
		struct lk_line *l = &rec->lines[i];
		size_t cont = cont_lines(rec, (size_t)i);
		free(l->text);
		free(l->value);
		line_set(l, lk_strbuf_detach(&sb, NULL), l->lineno);
		remove_lines(rec, (size_t)i + 1, cont);
	} else {
		insert_line(rec, rec->nlines, lk_strbuf_detach(&sb, NULL), 0);
	}
}

void lk_record_setf(struct lk_record *rec, const char *name, const char *fmt, ...)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	lk_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	lk_record_set(rec, name, sb.buf);
	lk_strbuf_release(&sb);
}

bool lk_record_unset(struct lk_record *rec, const char *name)
{
	bool found = false;
	long i;

	/* Remove every duplicate, so that get() returns NULL afterwards. */
	while ((i = lk_record_find(rec, name)) >= 0) {
		remove_lines(rec, (size_t)i, 1 + cont_lines(rec, (size_t)i));
		found = true;
	}
	return found;
}

/* ------------------------------------------------------------------- grid */

size_t lk_record_grid(const struct lk_record *rec, size_t *first)
{
	size_t i = 0, n = 0;

	while (i < rec->nlines && rec->lines[i].kind != LK_LINE_GRID)
		i++;
	while (i + n < rec->nlines && rec->lines[i + n].kind == LK_LINE_GRID)
		n++;
	if (first)
		*first = n ? i : 0;
	return n;
}

void lk_record_set_grid(struct lk_record *rec, const char *rows)
{
	size_t at, n = lk_record_grid(rec, &at);
	const char *p = rows;

	if (n == 0) {
		at = 0;
		while (at < rec->nlines && rec->lines[at].kind != LK_LINE_FIELD)
			at++;
	}
	remove_lines(rec, at, n);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		size_t keep = len;

		if (keep && p[keep - 1] == '\r')
			keep--;
		insert_line(rec, at, lk_xstrndup(p, keep), 0);
		/* The caller says these are grid rows; trust it even if a row
		 * happens to look like a comment or field. */
		rec->lines[at].kind = LK_LINE_GRID;
		rec->lines[at].name_len = rec->lines[at].value_off = 0;
		at++;
		p += len + (nl ? 1 : 0);
	}
}

const char *lk_record_game(const struct lk_record *rec)
{
	const char *g = lk_record_get(rec, "game");
	return g && *g ? g : "sokoban";
}

long lk_record_title_line(const struct lk_record *rec)
{
	long t = lk_record_find(rec, "title");
	size_t first, end;

	/* "title:" with nothing after it falls back to the comment, so an
	 * empty field never hides a usable name. */
	if (t >= 0 && *lk_record_get(rec, "title"))
		return t;
	end = lk_record_grid(rec, &first) ? first : rec->nlines;
	for (size_t i = end; i-- > 0;) {
		const struct lk_line *l = &rec->lines[i];
		const char *s = l->text;

		if (l->kind == LK_LINE_COMMENT)
			s++;
		else if (l->kind != LK_LINE_TITLE)
			continue;
		while (lk_blank_char(*s))
			s++;
		/* Skip decorative empty comments such as a lone ";". */
		if (*s && !lk_blank_mem(s, strlen(s)))
			return (long)i;
	}
	return -1;
}

const char *lk_record_title(const struct lk_record *rec, struct lk_strbuf *buf)
{
	long i = lk_record_title_line(rec);
	const char *s;
	size_t len;

	if (i < 0)
		return NULL;
	if (rec->lines[i].kind == LK_LINE_FIELD)
		return lk_record_get(rec, "title");
	s = rec->lines[i].text + (rec->lines[i].kind == LK_LINE_COMMENT);
	while (lk_blank_char(*s))
		s++;
	len = strlen(s);
	while (len && lk_blank_char(s[len - 1]))
		len--;
	lk_strbuf_reset(buf);
	lk_strbuf_add(buf, s, len);
	return buf->buf;
}

void lk_record_write(const struct lk_record *rec, struct lk_strbuf *out)
{
	if (rec->bom)
		lk_strbuf_addstr(out, "\xef\xbb\xbf");
	for (size_t i = 0; i < rec->nlines; i++) {
		lk_strbuf_addstr(out, rec->lines[i].text);
		lk_strbuf_addch(out, '\n');
	}
}
