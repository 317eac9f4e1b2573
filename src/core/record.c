/*
 * record.c - the level text format: classifying lines, editing records and
 * reading records from a stream.
 *
 * A record is kept as its list of lines, verbatim and in order, instead of
 * being parsed into a separate model.  That is what makes reading and
 * writing lossless: a command that only sets one field changes exactly one
 * line of output.  Fields and the grid are found by looking at line kinds.
 * The output formats (text, tsv, json) live in record_format.c.
 */
#include "levelkit/record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* '\r' counts as blank so that stray carriage returns (e.g. "\r\r\n" or a
 * CRLF file's separator line) never turn a separator into a grid line. */
static bool is_blank_char(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool is_blank_mem(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!is_blank_char(s[i]))
			return false;
	return true;
}

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
	if (is_blank_mem(text, strlen(text)))
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
	for (size_t i = at; i < at + n; i++)
		free(rec->lines[i].text);
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
}

void lk_record_release(struct lk_record *rec)
{
	for (size_t i = 0; i < rec->nlines; i++)
		free(rec->lines[i].text);
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
	}
	dst->nlines = src->nlines;
	dst->source = src->source ? lk_xstrdup(src->source) : NULL;
	dst->first_lineno = src->first_lineno;
	dst->number = src->number;
	dst->lossy = src->lossy;
}

void lk_record_add_line(struct lk_record *rec, const char *text, size_t lineno)
{
	insert_line(rec, rec->nlines, lk_xstrdup(text), lineno);
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
	return i < 0 ? NULL : rec->lines[i].text + rec->lines[i].value_off;
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
		free(l->text);
		line_set(l, lk_strbuf_detach(&sb, NULL), l->lineno);
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
		remove_lines(rec, (size_t)i, 1);
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

const char *lk_record_title(const struct lk_record *rec, struct lk_strbuf *buf)
{
	const char *t = lk_record_get(rec, "title");
	size_t first, end;

	/* "title:" with nothing after it falls back to the comment, so an
	 * empty field never hides a usable name. */
	if (t && *t)
		return t;
	end = lk_record_grid(rec, &first) ? first : rec->nlines;
	for (size_t i = end; i-- > 0;) {
		const char *s = rec->lines[i].text;
		size_t len;

		if (rec->lines[i].kind != LK_LINE_COMMENT)
			continue;
		s++;
		while (is_blank_char(*s))
			s++;
		len = strlen(s);
		while (len && is_blank_char(s[len - 1]))
			len--;
		/* Skip decorative empty comments such as a lone ";". */
		if (!len)
			continue;
		lk_strbuf_reset(buf);
		lk_strbuf_add(buf, s, len);
		return buf->buf;
	}
	return NULL;
}

void lk_record_write(const struct lk_record *rec, struct lk_strbuf *out)
{
	for (size_t i = 0; i < rec->nlines; i++) {
		lk_strbuf_addstr(out, rec->lines[i].text);
		lk_strbuf_addch(out, '\n');
	}
}

/* ---------------------------------------------------------------- reading */

static void set_err(struct lk_strbuf *err, const char *msg)
{
	if (!err)
		return;
	lk_strbuf_reset(err);
	lk_strbuf_addstr(err, msg);
}

void lk_reader_init_fp(struct lk_reader *r, FILE *fp, const char *name)
{
	r->fp = fp;
	r->own_fp = false;
	r->name = lk_xstrdup(name ? name : "<stdin>");
	r->lineno = 0;
	r->records = 0;
	lk_strbuf_init(&r->line);
	r->have_pending = false;
	r->eof = fp == NULL;
}

int lk_reader_open(struct lk_reader *r, const char *path, struct lk_strbuf *err)
{
	FILE *fp;

	if (!path || strcmp(path, "-") == 0) {
		lk_reader_init_fp(r, stdin, "<stdin>");
		return 0;
	}
	/* Binary mode: line ends are handled here, identically everywhere. */
	fp = fopen(path, "rb");
	/* Initialise even on failure, so that lk_reader_close is always safe. */
	lk_reader_init_fp(r, fp, path);
	if (!fp) {
		if (err) {
			lk_strbuf_reset(err);
			lk_strbuf_addf(err, "cannot open %s: %s", path, strerror(errno));
		}
		return -1;
	}
	r->own_fp = true;
	return 0;
}

void lk_reader_close(struct lk_reader *r)
{
	if (r->own_fp && r->fp)
		fclose(r->fp);
	free(r->name);
	lk_strbuf_release(&r->line);
	r->fp = NULL;
	r->own_fp = false;
	r->name = NULL;
	r->eof = true;
}

/*
 * Read one line into r->line without its newline (and without a CR before
 * it).  Lines have no length limit.  Returns 1, 0 at end of input, or -1 on
 * a read error.  *has_nul reports a NUL byte, which the C strings used for
 * lines cannot represent.
 */
static int read_line(struct lk_reader *r, bool *has_nul, struct lk_strbuf *err)
{
	int c;

	*has_nul = false;
	if (r->eof)
		return 0;
	lk_strbuf_reset(&r->line);
	while ((c = getc(r->fp)) != EOF && c != '\n') {
		if (c == '\0')
			*has_nul = true;
		lk_strbuf_addch(&r->line, (char)c);
	}
	if (c == EOF) {
		if (ferror(r->fp)) {
			if (err) {
				lk_strbuf_reset(err);
				lk_strbuf_addf(err, "error reading %s: %s", r->name,
					       strerror(errno));
			}
			return -1;
		}
		r->eof = true;
		if (r->line.len == 0)
			return 0;
	}
	if (r->line.len && r->line.buf[r->line.len - 1] == '\r')
		r->line.buf[--r->line.len] = '\0';
	r->lineno++;
	return 1;
}

int lk_reader_next(struct lk_reader *r, struct lk_record *rec,
		   struct lk_strbuf *err, size_t *err_line)
{
	enum { NO_GRID, IN_GRID, AFTER_GRID } grid = NO_GRID;
	int status = 1, rc;
	bool nul;

	lk_record_release(rec);
	do {
		rc = read_line(r, &nul, err);
		if (rc <= 0)
			return rc < 0 ? -2 : 0;
	} while (!nul && is_blank_mem(r->line.buf, r->line.len));

	/* Malformed records are numbered too, so numbers always match the
	 * position in the input that users count in their editor. */
	rec->number = ++r->records;
	rec->source = lk_xstrdup(r->name);
	rec->first_lineno = r->lineno;
	do {
		const char *msg = NULL;
		enum lk_line_kind kind;

		lk_record_add_line(rec, r->line.buf, r->lineno);
		kind = rec->lines[rec->nlines - 1].kind;
		if (nul) {
			msg = "line contains a NUL byte";
			rec->lossy = true;
		} else if (kind == LK_LINE_GRID) {
			/* Two grid blocks would make "the grid" ambiguous, and
			 * usually mean a missing blank line between levels. */
			if (grid == AFTER_GRID)
				msg = "grid rows interrupted by a comment or field line";
			grid = IN_GRID;
		} else if (grid == IN_GRID) {
			grid = AFTER_GRID;
		}
		/* Report the first problem; keep consuming the record so the
		 * next call starts cleanly at the following one. */
		if (msg && status == 1) {
			status = -1;
			set_err(err, msg);
			if (err_line)
				*err_line = r->lineno;
		}
		rc = read_line(r, &nul, err);
		if (rc < 0)
			return -2;
	} while (rc > 0 && (nul || !is_blank_mem(r->line.buf, r->line.len)));
	return status;
}
