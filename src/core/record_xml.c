/*
 * record_slc.c - reading SLC XML level collections (the format of the large
 * online Sokoban archives):
 *
 *   <SokobanLevels>
 *     <Title>..</Title> <Description>..</Description> <Email/> <Url/>
 *     <LevelCollection Copyright=".." MaxWidth=".." MaxHeight="..">
 *       <Level Id=".." Width=".." Height=".." Copyright="..">
 *         <L>row</L> ...
 *
 * Only the part of XML these files use is read: elements, attributes,
 * character data, comments, CDATA, processing instructions, a DOCTYPE
 * without an internal subset, and the entities &amp; &lt; &gt; &quot;
 * &apos; &#N; &#xN;.  The collection becomes a header record (title field,
 * description as comments, email, url, copyright), each <Level> a record
 * (title field from Id, its rows, its other attributes as fields).  A
 * <Level> that cannot be read becomes a malformed record holding its
 * source lines verbatim, and reading goes on after </Level>.  A line is
 * held by one such record at most: when several errors share a line (a
 * whole collection on one line), the later records hold only the lines
 * not held yet, and the records together stay the size of the input.
 */
#include "record_internal.h"

#include <stdlib.h>
#include <string.h>

struct xml {
	const char *s;
	size_t len, pos;
	size_t first_lineno;
	const size_t *line_at;   /* line_at[k] = offset where line k starts */
	size_t nlines;
	bool latin1;             /* the declaration names a single-byte charset */
	bool cp1252;
	char err[160];
	size_t err_pos;
	const struct lk_slc_sink *sink;
	size_t next_source;      /* the first line no malformed record holds yet */
	/* Offsets after which a search found no "-->", "?>", ">" or "]]>":
	 * later searches fail at once, so broken input costs linear time. */
	size_t none_after[4];
};

/* Find needle in x->s between offsets from and to (NULL if absent). */
static const char *find_in(const struct xml *x, size_t from, size_t to, const char *needle)
{
	size_t n = strlen(needle);

	if (to > x->len)
		to = x->len;
	while (from + n <= to) {
		const char *c = memchr(x->s + from, needle[0], to - from - n + 1);
		if (!c)
			return NULL;
		if (memcmp(c, needle, n) == 0)
			return c;
		from = (size_t)(c - x->s) + 1;
	}
	return NULL;
}

/* Find needle in x->s from offset 'from' (NULL if absent).  kind indexes
 * none_after, or is -1 for searches that need no memory. */
static const char *find(struct xml *x, size_t from, const char *needle, int kind)
{
	const char *hit;

	if (from >= x->len || (kind >= 0 && x->none_after[kind] && from >= x->none_after[kind]))
		return NULL;
	/* the text is NUL-terminated (it is a strbuf's) */
	hit = strstr(x->s + from, needle);
	if (hit && (size_t)(hit - x->s) >= x->len)
		hit = NULL;
	if (!hit && kind >= 0)
		x->none_after[kind] = from ? from : 1;
	return hit;
}

/* Windows-1252's characters for 0x80-0x9f (0 where it has none). */
static const unsigned short cp1252_high[32] = {
	0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
	0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_name_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' ||
	       (unsigned char)c >= 0x80;
}

static bool is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static char lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static bool eq_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (lower(*a) != lower(*b))
			return false;
	return *a == *b;
}

static bool starts_nocase(const char *s, size_t avail, const char *prefix)
{
	size_t n = strlen(prefix);
	if (avail < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lower(s[i]) != lower(prefix[i]))
			return false;
	return true;
}

bool lk_slc_detect(const char *line)
{
	while (is_space(*line))
		line++;
	return starts_nocase(line, strlen(line), "<?xml") ||
	       starts_nocase(line, strlen(line), "<!--") ||
	       starts_nocase(line, strlen(line), "<SokobanLevels");
}

/* The source line of a byte offset (binary search). */
static size_t line_of(const struct xml *x, size_t pos)
{
	size_t lo = 0, hi = x->nlines;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->line_at[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return x->first_lineno + lo;
}

static int fail(struct xml *x, size_t pos, const char *msg, const char *arg)
{
	if (!x->err[0]) {
		if (arg)
			snprintf(x->err, sizeof(x->err), msg, arg);
		else
			snprintf(x->err, sizeof(x->err), "%s", msg);
		x->err_pos = pos;
	}
	return -1;
}

static void put_utf8(struct lk_strbuf *out, unsigned long cp)
{
	if (cp < 0x80) {
		lk_strbuf_addch(out, (char)cp);
	} else if (cp < 0x800) {
		lk_strbuf_addch(out, (char)(0xc0 | (cp >> 6)));
		lk_strbuf_addch(out, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		lk_strbuf_addch(out, (char)(0xe0 | (cp >> 12)));
		lk_strbuf_addch(out, (char)(0x80 | ((cp >> 6) & 0x3f)));
		lk_strbuf_addch(out, (char)(0x80 | (cp & 0x3f)));
	} else {
		lk_strbuf_addch(out, (char)(0xf0 | (cp >> 18)));
		lk_strbuf_addch(out, (char)(0x80 | ((cp >> 12) & 0x3f)));
		lk_strbuf_addch(out, (char)(0x80 | ((cp >> 6) & 0x3f)));
		lk_strbuf_addch(out, (char)(0x80 | (cp & 0x3f)));
	}
}

/* Append one byte of character data, converted from the declared
 * single-byte charset to UTF-8. */
static void put_byte(const struct xml *x, struct lk_strbuf *out, char c)
{
	unsigned char u = (unsigned char)c;

	if (u < 0x80 || !x->latin1) {
		lk_strbuf_addch(out, c);
		return;
	}
	if (x->cp1252 && u < 0xa0 && cp1252_high[u - 0x80])
		put_utf8(out, cp1252_high[u - 0x80]);
	else
		put_utf8(out, u);
}

/* Decode an entity at x->pos (which is at '&'). */
static int entity(struct xml *x, struct lk_strbuf *out)
{
	static const struct { const char *name; char c; } named[] = {
		{ "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' }, { "apos", '\'' }
	};
	size_t start = x->pos, end = start + 1;
	char name[16];
	size_t n;

	while (end < x->len && end - start < 12 && x->s[end] != ';' && x->s[end] != '<' &&
	       !is_space(x->s[end]))
		end++;
	if (end >= x->len || x->s[end] != ';')
		return fail(x, start, "'&' without ';' (write &amp; for '&')", NULL);
	n = end - start - 1;
	memcpy(name, x->s + start + 1, n);
	name[n] = '\0';
	x->pos = end + 1;
	if (name[0] == '#') {
		unsigned long cp = 0;
		bool hex = name[1] == 'x' || name[1] == 'X';
		size_t i = hex ? 2 : 1;
		if (name[i] == '\0')
			return fail(x, start, "bad character reference '&%s;'", name);
		for (; name[i]; i++) {
			char c = lower(name[i]);
			unsigned d;
			if (c >= '0' && c <= '9')
				d = (unsigned)(c - '0');
			else if (hex && c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else
				return fail(x, start, "bad character reference '&%s;'", name);
			cp = cp * (hex ? 16u : 10u) + d;
			if (cp > 0x10ffff)
				return fail(x, start, "bad character reference '&%s;'", name);
		}
		if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff))
			return fail(x, start, "bad character reference '&%s;'", name);
		put_utf8(out, cp);
		return 0;
	}
	for (size_t i = 0; i < sizeof(named) / sizeof(*named); i++) {
		if (strcmp(name, named[i].name) == 0) {
			lk_strbuf_addch(out, named[i].c);
			return 0;
		}
	}
	return fail(x, start, "unknown entity '&%s;'", name);
}

/* Skip a comment, processing instruction, DOCTYPE or whitespace; returns
 * 1 if something was skipped, 0 if not, -1 on error. */
static int skip_misc(struct xml *x)
{
	const char *p = x->s + x->pos;
	size_t avail = x->len - x->pos;
	const char *end;
	const char *close;
	int kind;

	if (avail && is_space(*p)) {
		while (x->pos < x->len && is_space(x->s[x->pos]))
			x->pos++;
		return 1;
	}
	if (starts_nocase(p, avail, "<!--"))
		close = "-->", kind = 0;
	else if (starts_nocase(p, avail, "<?"))
		close = "?>", kind = 1;
	else if (starts_nocase(p, avail, "<!DOCTYPE"))
		close = ">", kind = 2;
	else
		return 0;
	end = find(x, x->pos, close, kind);
	if (!end)
		return fail(x, x->pos, "unterminated %s", close[0] == '-' ? "comment" :
			    close[0] == '?' ? "processing instruction" : "DOCTYPE");
	if (starts_nocase(p, avail, "<?xml") && !x->latin1) {
		/* The declaration: a single-byte encoding is converted. */
		const char *enc = find_in(x, x->pos, (size_t)(end - x->s), "encoding");
		if (enc && enc < end) {
			enc += 8;
			while (*enc == ' ' || *enc == '=' || *enc == '"' || *enc == '\'')
				enc++;
			if (starts_nocase(enc, (size_t)(end - enc), "iso-8859-1") ||
			    starts_nocase(enc, (size_t)(end - enc), "iso8859-1") ||
			    starts_nocase(enc, (size_t)(end - enc), "latin1") ||
			    starts_nocase(enc, (size_t)(end - enc), "windows-1252") ||
			    starts_nocase(enc, (size_t)(end - enc), "cp1252")) {
				x->latin1 = true;
				x->cp1252 = lower(*enc) == 'w' || lower(*enc) == 'c';
			}
		}
	}
	x->pos = (size_t)(end - x->s) + strlen(close);
	return 1;
}

static int skip_all_misc(struct xml *x)
{
	int rc;
	while ((rc = skip_misc(x)) > 0)
		;
	return rc;
}

/* A tag: <name attr="v" ...> or </name> or <name .../>. */
#define MAX_ATTRS 32
struct tag {
	char name[64];
	bool end, empty;
	size_t pos;              /* offset of its '<' */
	size_t nattrs;
	char attr[MAX_ATTRS][64];
	struct lk_strbuf value[MAX_ATTRS];
};

static void tag_init(struct tag *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < MAX_ATTRS; i++)
		lk_strbuf_init(&t->value[i]);
}

static void tag_release(struct tag *t)
{
	for (size_t i = 0; i < MAX_ATTRS; i++)
		lk_strbuf_release(&t->value[i]);
}

static int read_name(struct xml *x, char *buf, size_t size)
{
	size_t n = 0;

	if (x->pos >= x->len || !is_name_start(x->s[x->pos]))
		return fail(x, x->pos, "expected a name", NULL);
	while (x->pos < x->len && is_name_char(x->s[x->pos])) {
		if (n + 1 >= size)
			return fail(x, x->pos, "name too long", NULL);
		buf[n++] = x->s[x->pos++];
	}
	buf[n] = '\0';
	return 0;
}

static void skip_space(struct xml *x)
{
	while (x->pos < x->len && is_space(x->s[x->pos]))
		x->pos++;
}

/* Read a tag at x->pos (at '<'). */
static int read_tag(struct xml *x, struct tag *t)
{
	t->pos = x->pos;
	t->end = t->empty = false;
	t->nattrs = 0;
	x->pos++;
	if (x->pos < x->len && x->s[x->pos] == '/') {
		t->end = true;
		x->pos++;
	}
	if (read_name(x, t->name, sizeof(t->name)) < 0)
		return -1;
	for (;;) {
		char q;
		skip_space(x);
		if (x->pos >= x->len)
			return fail(x, t->pos, "unterminated tag <%s", t->name);
		if (x->s[x->pos] == '>') {
			x->pos++;
			return 0;
		}
		if (x->s[x->pos] == '/' && !t->end && x->pos + 1 < x->len &&
		    x->s[x->pos + 1] == '>') {
			t->empty = true;
			x->pos += 2;
			return 0;
		}
		if (t->end)
			return fail(x, x->pos, "unexpected text in </%s>", t->name);
		if (t->nattrs == MAX_ATTRS)
			return fail(x, x->pos, "too many attributes in <%s>", t->name);
		if (read_name(x, t->attr[t->nattrs], sizeof(t->attr[0])) < 0)
			return -1;
		skip_space(x);
		if (x->pos >= x->len || x->s[x->pos] != '=')
			return fail(x, x->pos, "attribute without '=' in <%s>", t->name);
		x->pos++;
		skip_space(x);
		if (x->pos >= x->len || (x->s[x->pos] != '"' && x->s[x->pos] != '\''))
			return fail(x, x->pos, "attribute value without quotes in <%s>", t->name);
		q = x->s[x->pos++];
		lk_strbuf_reset(&t->value[t->nattrs]);
		while (x->pos < x->len && x->s[x->pos] != q) {
			char c = x->s[x->pos];
			if (c == '<')
				return fail(x, x->pos, "'<' in an attribute value of <%s>", t->name);
			if (c == '&') {
				if (entity(x, &t->value[t->nattrs]) < 0)
					return -1;
				continue;
			}
			put_byte(x, &t->value[t->nattrs], c);
			x->pos++;
		}
		if (x->pos >= x->len)
			return fail(x, t->pos, "unterminated attribute value in <%s>", t->name);
		x->pos++;
		t->nattrs++;
	}
}

/* Character data up to the next tag (entities and CDATA decoded). */
static int read_text(struct xml *x, struct lk_strbuf *out)
{
	while (x->pos < x->len) {
		const char *p = x->s + x->pos;
		size_t avail = x->len - x->pos;
		int rc;

		if (starts_nocase(p, avail, "<![CDATA[")) {
			const char *end = find(x, x->pos + 9, "]]>", 3);
			if (!end)
				return fail(x, x->pos, "unterminated CDATA section", NULL);
			for (const char *c = p + 9; c < end; c++)
				put_byte(x, out, *c);
			x->pos = (size_t)(end - x->s) + 3;
			continue;
		}
		if (*p == '<') {
			if (!starts_nocase(p, avail, "<!--") && !starts_nocase(p, avail, "<?"))
				return 0;
			if ((rc = skip_misc(x)) < 0)
				return -1;
			continue;
		}
		if (*p == '&') {
			if (entity(x, out) < 0)
				return -1;
			continue;
		}
		put_byte(x, out, *p);
		x->pos++;
	}
	return 0;
}

/* Skip an element whose start tag t was read, with everything inside. */
static int skip_element(struct xml *x, const struct tag *t)
{
	struct lk_strbuf junk = LK_STRBUF_INIT;
	struct tag in;
	size_t depth = 1;
	int rc = 0;

	if (t->empty)
		return 0;
	tag_init(&in);
	while (depth > 0) {
		lk_strbuf_reset(&junk);
		if (read_text(x, &junk) < 0 || x->pos >= x->len) {
			rc = x->pos >= x->len ? fail(x, t->pos, "<%s> is not closed", t->name) : -1;
			break;
		}
		if (read_tag(x, &in) < 0) {
			rc = -1;
			break;
		}
		if (in.end)
			depth--;
		else if (!in.empty)
			depth++;
		if (depth > 1000) {
			rc = fail(x, in.pos, "elements nested too deeply", NULL);
			break;
		}
	}
	tag_release(&in);
	lk_strbuf_release(&junk);
	return rc;
}

/* Read the text content of a simple element (start tag t read) and its
 * end tag. */
static int element_text(struct xml *x, const struct tag *t, struct lk_strbuf *out)
{
	struct tag end;
	int rc = 0;

	if (t->empty)
		return 0;
	tag_init(&end);
	if (read_text(x, out) < 0)
		rc = -1;
	else if (x->pos >= x->len)
		rc = fail(x, t->pos, "<%s> is not closed", t->name);
	else if (read_tag(x, &end) < 0)
		rc = -1;
	else if (!end.end || strcmp(end.name, t->name) != 0)
		rc = fail(x, end.pos, "expected </%s>", t->name);
	tag_release(&end);
	return rc;
}

static bool valid_field_name(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		return false;
	for (; *s; s++)
		if (!is_name_char(*s) || *s == ':' || (unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* Add "name: value" (name in lower case) with the value on one line. */
static void add_field(struct lk_record *rec, const char *name, const char *value, size_t lineno)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	const char *v = value;

	for (const char *p = name; *p; p++)
		lk_strbuf_addch(&sb, lower(*p));
	lk_strbuf_addch(&sb, ':');
	while (is_space(*v))
		v++;
	if (*v)
		lk_strbuf_addch(&sb, ' ');
	for (; *v; v++)
		lk_strbuf_addch(&sb, (*v == '\n' || *v == '\r' || *v == '\t') ? ' ' : *v);
	while (sb.len && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	lk_record_add_line(rec, sb.buf, lineno);
	lk_strbuf_release(&sb);
}

/* Text over several lines, as comment lines ("; text"). */
static void add_comments(struct lk_record *rec, const char *text, size_t lineno)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	const char *p = text;
	size_t first = rec->nlines;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p), b = 0;
		while (b < n && is_space(p[b]))
			b++;
		while (n > b && is_space(p[n - 1]))
			n--;
		lk_strbuf_reset(&sb);
		lk_strbuf_addch(&sb, ';');
		if (n > b) {
			lk_strbuf_addch(&sb, ' ');
			lk_strbuf_add(&sb, p + b, n - b);
		}
		/* no empty comments at the start */
		if (n > b || rec->nlines > first)
			lk_record_add_line(rec, sb.buf, lineno);
		lineno++;
		p += (nl ? (size_t)(nl - p) + 1 : strlen(p));
	}
	/* nor at the end */
	while (rec->nlines > first && strcmp(rec->lines[rec->nlines - 1].text, ";") == 0) {
		free(rec->lines[rec->nlines - 1].text);
		rec->nlines--;
	}
	lk_strbuf_release(&sb);
}

/* The source lines from offset a to offset b, verbatim, as notes: what a
 * record that cannot be read keeps (but not the lines an earlier one
 * keeps: one line may hold a thousand errors). */
static void add_source(struct xml *x, struct lk_record *rec, size_t a, size_t b)
{
	size_t la = line_of(x, a), lb = line_of(x, b > a ? b - 1 : a);

	if (la < x->next_source)
		la = x->next_source;
	if (lb >= la)
		x->next_source = lb + 1;
	for (size_t l = la; l <= lb; l++) {
		size_t k = l - x->first_lineno;
		size_t start = x->line_at[k];
		size_t end = k + 1 < x->nlines ? x->line_at[k + 1] - 1 : x->len;
		char *text;
		if (end > x->len)
			end = x->len;
		if (end > start && x->s[end - 1] == '\n')
			end--;
		text = lk_xstrndup(x->s + start, end > start ? end - start : 0);
		lk_record_add_line(rec, text, l);
		rec->lines[rec->nlines - 1].kind = LK_LINE_TEXT;
		rec->lines[rec->nlines - 1].name_len = rec->lines[rec->nlines - 1].value_off = 0;
		free(text);
	}
}

static void put(struct xml *x, struct lk_record *rec, const char *msg, size_t err_line)
{
	if (rec->nlines == 0 && !msg)
		return;
	rec->first_lineno = rec->nlines ? rec->lines[0].lineno : err_line;
	x->sink->put(x->sink->ctx, rec, msg, err_line);
	lk_record_release(rec);
}

/*
 * After an error: the source from 'from' becomes a malformed record, and
 * reading resumes after this level's end tag (in_level), or at the next
 * level, or at the end.  An error at the end of the input keeps no lines.
 */
static void recover(struct xml *x, size_t from, bool in_level)
{
	struct lk_record rec = LK_RECORD_INIT;
	size_t err_line = line_of(x, x->err_pos < x->len ? x->err_pos : x->len);
	size_t base = x->err_pos > from ? x->err_pos : from;
	const char *end = NULL, *next = NULL;
	size_t stop = x->len;

	if (base < x->len) {
		next = find(x, base + 1, "<Level", -1);
		/* look for the end tag only up to the next level */
		if (in_level)
			end = find_in(x, base, next ? (size_t)(next - x->s) : x->len, "</Level>");
	}
	if (end && (!next || end < next))
		stop = (size_t)(end - x->s) + 8;
	else if (next)
		stop = (size_t)(next - x->s);
	if (stop > x->len)
		stop = x->len;
	/* The next level starts on its own line: stop at the line's start. */
	if (next && stop == (size_t)(next - x->s)) {
		size_t ls = stop;
		while (ls > from + 1 && (x->s[ls - 1] == ' ' || x->s[ls - 1] == '\t'))
			ls--;
		if (ls > from + 1 && x->s[ls - 1] == '\n')
			stop = ls;
	}
	if (from < x->len)
		add_source(x, &rec, from, stop > from ? stop : from + 1);
	put(x, &rec, x->err, err_line);
	x->err[0] = '\0';
	/* stop > from unless at the end, so reading always moves on */
	x->pos = stop;
}

/* A row of the board: blank rows need a floor mark to stay rows. */
static void add_row(struct lk_record *rec, const char *row, size_t lineno)
{
	size_t n = strlen(row);
	bool blank = true;

	for (size_t i = 0; i < n; i++)
		blank &= row[i] == ' ' || row[i] == '\t';
	if (blank) {
		char *dash = lk_xmalloc(n + 2);
		memset(dash, '-', n ? n : 1);
		dash[n ? n : 1] = '\0';
		lk_record_add_line(rec, dash, lineno);
		free(dash);
	} else {
		lk_record_add_line(rec, row, lineno);
	}
	/* A row is a row even if it happens to look like something else. */
	rec->lines[rec->nlines - 1].kind = LK_LINE_GRID;
	rec->lines[rec->nlines - 1].name_len = rec->lines[rec->nlines - 1].value_off = 0;
}

/* <Level> (start tag t read): its rows and attributes. */
static int read_level(struct xml *x, const struct tag *t)
{
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_record extra = LK_RECORD_INIT;
	struct lk_strbuf text = LK_STRBUF_INIT;
	struct tag in;
	size_t lineno = line_of(x, t->pos);
	int rc = 0;

	tag_init(&in);
	for (size_t i = 0; i < t->nattrs; i++) {
		if (eq_nocase(t->attr[i], "Id"))
			add_field(&rec, "title", t->value[i].buf, lineno);
		else if (!eq_nocase(t->attr[i], "Width") && !eq_nocase(t->attr[i], "Height") &&
			 valid_field_name(t->attr[i]))
			add_field(&extra, t->attr[i], t->value[i].buf, lineno);
	}
	while (!t->empty) {
		lk_strbuf_reset(&text);
		if (read_text(x, &text) < 0) {
			rc = -1;
			break;
		}
		for (size_t i = 0; i < text.len; i++) {
			if (!is_space(text.buf[i])) {
				rc = fail(x, x->pos, "text outside <L> in <Level>", NULL);
				break;
			}
		}
		if (rc < 0)
			break;
		if (x->pos >= x->len) {
			rc = fail(x, t->pos, "<Level> is not closed", NULL);
			break;
		}
		if (read_tag(x, &in) < 0) {
			rc = -1;
			break;
		}
		if (in.end) {
			if (strcmp(in.name, t->name) != 0)
				rc = fail(x, in.pos, "expected </%s>", t->name);
			break;
		}
		if (strcmp(in.name, "Level") == 0) {
			/* the next level: this one was never closed */
			rc = fail(x, t->pos, "<Level> is not closed", NULL);
			break;
		}
		if (strcmp(in.name, "L") == 0) {
			size_t row_line = line_of(x, in.pos);
			lk_strbuf_reset(&text);
			if (element_text(x, &in, &text) < 0) {
				rc = -1;
				break;
			}
			if (strchr(text.buf, '\n') || strchr(text.buf, '\r')) {
				rc = fail(x, in.pos, "line break inside <L>", NULL);
				break;
			}
			add_row(&rec, text.buf, row_line);
		} else if (skip_element(x, &in) < 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && lk_record_grid(&rec, NULL) == 0)
		rc = fail(x, t->pos, "<Level> has no <L> rows", NULL);
	if (rc == 0) {
		for (size_t i = 0; i < extra.nlines; i++)
			lk_record_add_line(&rec, extra.lines[i].text, extra.lines[i].lineno);
		put(x, &rec, NULL, 0);
	}
	lk_record_release(&rec);
	lk_record_release(&extra);
	lk_strbuf_release(&text);
	tag_release(&in);
	return rc;
}

/* <LevelCollection> (start tag read): its levels. */
static void read_collection(struct xml *x, const struct tag *t)
{
	struct tag in;

	tag_init(&in);
	while (!t->empty) {
		size_t at;
		if (skip_all_misc(x) < 0) {
			recover(x, x->err_pos, false);
			continue;
		}
		at = x->pos;
		if (x->pos >= x->len) {
			fail(x, t->pos, "<%s> is not closed", t->name);
			recover(x, x->len, false);
			break;
		}
		if (x->s[x->pos] != '<') {
			fail(x, x->pos, "text between levels", NULL);
			recover(x, at, false);
			continue;
		}
		if (read_tag(x, &in) < 0) {
			recover(x, at, false);
			continue;
		}
		if (in.end)
			break;
		if (strcmp(in.name, "Level") == 0) {
			if (read_level(x, &in) < 0)
				recover(x, at, true);
		} else if (skip_element(x, &in) < 0) {
			recover(x, at, false);
		}
	}
	tag_release(&in);
}

/* The collection's header record, from the elements before the levels. */
static void header(struct xml *x, struct lk_record *hdr, const struct tag *coll)
{
	for (size_t i = 0; i < coll->nattrs; i++)
		if (!eq_nocase(coll->attr[i], "MaxWidth") && !eq_nocase(coll->attr[i], "MaxHeight") &&
		    valid_field_name(coll->attr[i]))
			add_field(hdr, coll->attr[i], coll->value[i].buf, line_of(x, coll->pos));
	put(x, hdr, NULL, 0);
}

void lk_slc_read(const char *text, size_t len, size_t first_lineno,
		 const struct lk_slc_sink *sink)
{
	struct xml x;
	struct lk_record hdr = LK_RECORD_INIT;
	struct lk_strbuf value = LK_STRBUF_INIT;
	size_t *line_at = NULL, nlines = 0, alloc = 0;
	struct tag t;
	bool root = false;

	LK_ALLOC_GROW(line_at, 1, alloc);
	line_at[nlines++] = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n' && i + 1 < len) {
			LK_ALLOC_GROW(line_at, nlines + 1, alloc);
			line_at[nlines++] = i + 1;
		}
	}
	memset(&x, 0, sizeof(x));
	tag_init(&t);
	x.s = text;
	x.len = len;
	x.first_lineno = first_lineno;
	x.next_source = first_lineno;
	x.line_at = line_at;
	x.nlines = nlines;
	x.sink = sink;

	while (x.pos < x.len) {
		size_t at;
		if (skip_all_misc(&x) < 0) {
			recover(&x, x.err_pos, false);
			continue;
		}
		if (x.pos >= x.len)
			break;
		at = x.pos;
		if (x.s[x.pos] != '<') {
			fail(&x, x.pos, root ? "text outside the collection's elements"
					     : "expected <SokobanLevels>", NULL);
			recover(&x, at, false);
			continue;
		}
		if (read_tag(&x, &t) < 0) {
			recover(&x, at, false);
			continue;
		}
		if (t.end)
			continue;   /* </SokobanLevels> */
		if (!root) {
			root = true;
			if (strcmp(t.name, "SokobanLevels") != 0) {
				fail(&x, t.pos, "not a Sokoban level collection (the root is <%s>)",
				     t.name);
				recover(&x, at, false);
			}
			continue;
		}
		if (strcmp(t.name, "Title") == 0 || strcmp(t.name, "Email") == 0 ||
		    strcmp(t.name, "Url") == 0 || strcmp(t.name, "Description") == 0) {
			size_t line = line_of(&x, t.pos);
			lk_strbuf_reset(&value);
			if (element_text(&x, &t, &value) < 0) {
				recover(&x, at, false);
				continue;
			}
			if (strcmp(t.name, "Description") == 0)
				add_comments(&hdr, value.buf, line);
			else
				add_field(&hdr, t.name, value.buf, line);
		} else if (strcmp(t.name, "LevelCollection") == 0) {
			header(&x, &hdr, &t);
			read_collection(&x, &t);
		} else if (strcmp(t.name, "Level") == 0) {
			/* a level outside <LevelCollection>: read it all the same */
			header(&x, &hdr, &t);
			if (read_level(&x, &t) < 0)
				recover(&x, at, true);
		} else if (skip_element(&x, &t) < 0) {
			recover(&x, at, false);
		}
	}
	if (!root) {
		fail(&x, 0, "not a Sokoban level collection (no <SokobanLevels>)", NULL);
		recover(&x, 0, false);
	}
	put(&x, &hdr, NULL, 0);
	tag_release(&t);
	lk_strbuf_release(&value);
	free(line_at);
}
