/*
 * record_xml.c - the XML scanner of the SLC reader (record_xml.h): finding
 * text, characters and entities, comments and processing instructions,
 * tags with their attributes, character data, skipping an element.
 */
#include "record_xml.h"

#include <stdlib.h>
#include <string.h>

/* Find needle in x->s between offsets from and to (NULL if absent). */
const char *lk_xml_find_in(const struct xml *x, size_t from, size_t to, const char *needle)
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
const char *lk_xml_find(struct xml *x, size_t from, const char *needle, int kind)
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

bool lk_xml_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_name_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' ||
	       (unsigned char)c >= 0x80;
}

bool lk_xml_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

char lk_xml_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

bool lk_xml_eq_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (lk_xml_lower(*a) != lk_xml_lower(*b))
			return false;
	return *a == *b;
}

bool lk_xml_starts_nocase(const char *s, size_t avail, const char *prefix)
{
	size_t n = strlen(prefix);
	if (avail < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lk_xml_lower(s[i]) != lk_xml_lower(prefix[i]))
			return false;
	return true;
}


/* The source line of a byte offset (binary search). */
size_t lk_xml_line_of(const struct xml *x, size_t pos)
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

int lk_xml_fail(struct xml *x, size_t pos, const char *msg, const char *arg)
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
	       !lk_xml_space(x->s[end]))
		end++;
	if (end >= x->len || x->s[end] != ';')
		return lk_xml_fail(x, start, "'&' without ';' (write &amp; for '&')", NULL);
	n = end - start - 1;
	memcpy(name, x->s + start + 1, n);
	name[n] = '\0';
	x->pos = end + 1;
	if (name[0] == '#') {
		unsigned long cp = 0;
		bool hex = name[1] == 'x' || name[1] == 'X';
		size_t i = hex ? 2 : 1;
		if (name[i] == '\0')
			return lk_xml_fail(x, start, "bad character reference '&%s;'", name);
		for (; name[i]; i++) {
			char c = lk_xml_lower(name[i]);
			unsigned d;
			if (c >= '0' && c <= '9')
				d = (unsigned)(c - '0');
			else if (hex && c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else
				return lk_xml_fail(x, start, "bad character reference '&%s;'", name);
			cp = cp * (hex ? 16u : 10u) + d;
			if (cp > 0x10ffff)
				return lk_xml_fail(x, start, "bad character reference '&%s;'", name);
		}
		if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff))
			return lk_xml_fail(x, start, "bad character reference '&%s;'", name);
		put_utf8(out, cp);
		return 0;
	}
	for (size_t i = 0; i < sizeof(named) / sizeof(*named); i++) {
		if (strcmp(name, named[i].name) == 0) {
			lk_strbuf_addch(out, named[i].c);
			return 0;
		}
	}
	return lk_xml_fail(x, start, "unknown entity '&%s;'", name);
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

	if (avail && lk_xml_space(*p)) {
		while (x->pos < x->len && lk_xml_space(x->s[x->pos]))
			x->pos++;
		return 1;
	}
	if (lk_xml_starts_nocase(p, avail, "<!--"))
		close = "-->", kind = 0;
	else if (lk_xml_starts_nocase(p, avail, "<?"))
		close = "?>", kind = 1;
	else if (lk_xml_starts_nocase(p, avail, "<!DOCTYPE"))
		close = ">", kind = 2;
	else
		return 0;
	end = lk_xml_find(x, x->pos, close, kind);
	if (!end)
		return lk_xml_fail(x, x->pos, "unterminated %s", close[0] == '-' ? "comment" :
			    close[0] == '?' ? "processing instruction" : "DOCTYPE");
	if (lk_xml_starts_nocase(p, avail, "<?xml") && !x->latin1) {
		/* The declaration: a single-byte encoding is converted. */
		const char *enc = lk_xml_find_in(x, x->pos, (size_t)(end - x->s), "encoding");
		if (enc && enc < end) {
			enc += 8;
			while (*enc == ' ' || *enc == '=' || *enc == '"' || *enc == '\'')
				enc++;
			if (lk_xml_starts_nocase(enc, (size_t)(end - enc), "iso-8859-1") ||
			    lk_xml_starts_nocase(enc, (size_t)(end - enc), "iso8859-1") ||
			    lk_xml_starts_nocase(enc, (size_t)(end - enc), "latin1") ||
			    lk_xml_starts_nocase(enc, (size_t)(end - enc), "windows-1252") ||
			    lk_xml_starts_nocase(enc, (size_t)(end - enc), "cp1252")) {
				x->latin1 = true;
				x->cp1252 = lk_xml_lower(*enc) == 'w' || lk_xml_lower(*enc) == 'c';
			}
		}
	}
	x->pos = (size_t)(end - x->s) + strlen(close);
	return 1;
}

int lk_xml_skip_all_misc(struct xml *x)
{
	int rc;
	while ((rc = skip_misc(x)) > 0)
		;
	return rc;
}

/* A tag: <name attr="v" ...> or </name> or <name .../>. */

void lk_xml_tag_init(struct tag *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < MAX_ATTRS; i++)
		lk_strbuf_init(&t->value[i]);
}

void lk_xml_tag_release(struct tag *t)
{
	for (size_t i = 0; i < MAX_ATTRS; i++)
		lk_strbuf_release(&t->value[i]);
}

static int read_name(struct xml *x, char *buf, size_t size)
{
	size_t n = 0;

	if (x->pos >= x->len || !is_name_start(x->s[x->pos]))
		return lk_xml_fail(x, x->pos, "expected a name", NULL);
	while (x->pos < x->len && lk_xml_name_char(x->s[x->pos])) {
		if (n + 1 >= size)
			return lk_xml_fail(x, x->pos, "name too long", NULL);
		buf[n++] = x->s[x->pos++];
	}
	buf[n] = '\0';
	return 0;
}

static void skip_space(struct xml *x)
{
	while (x->pos < x->len && lk_xml_space(x->s[x->pos]))
		x->pos++;
}

/* Read a tag at x->pos (at '<'). */
int lk_xml_read_tag(struct xml *x, struct tag *t)
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
			return lk_xml_fail(x, t->pos, "unterminated tag <%s", t->name);
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
			return lk_xml_fail(x, x->pos, "unexpected text in </%s>", t->name);
		if (t->nattrs == MAX_ATTRS)
			return lk_xml_fail(x, x->pos, "too many attributes in <%s>", t->name);
		if (read_name(x, t->attr[t->nattrs], sizeof(t->attr[0])) < 0)
			return -1;
		skip_space(x);
		if (x->pos >= x->len || x->s[x->pos] != '=')
			return lk_xml_fail(x, x->pos, "attribute without '=' in <%s>", t->name);
		x->pos++;
		skip_space(x);
		if (x->pos >= x->len || (x->s[x->pos] != '"' && x->s[x->pos] != '\''))
			return lk_xml_fail(x, x->pos, "attribute value without quotes in <%s>", t->name);
		q = x->s[x->pos++];
		lk_strbuf_reset(&t->value[t->nattrs]);
		while (x->pos < x->len && x->s[x->pos] != q) {
			char c = x->s[x->pos];
			if (c == '<')
				return lk_xml_fail(x, x->pos, "'<' in an attribute value of <%s>", t->name);
			if (c == '&') {
				if (entity(x, &t->value[t->nattrs]) < 0)
					return -1;
				continue;
			}
			put_byte(x, &t->value[t->nattrs], c);
			x->pos++;
		}
		if (x->pos >= x->len)
			return lk_xml_fail(x, t->pos, "unterminated attribute value in <%s>", t->name);
		x->pos++;
		t->nattrs++;
	}
}

/* Character data up to the next tag (entities and CDATA decoded). */
int lk_xml_read_text(struct xml *x, struct lk_strbuf *out)
{
	while (x->pos < x->len) {
		const char *p = x->s + x->pos;
		size_t avail = x->len - x->pos;
		int rc;

		if (lk_xml_starts_nocase(p, avail, "<![CDATA[")) {
			const char *end = lk_xml_find(x, x->pos + 9, "]]>", 3);
			if (!end)
				return lk_xml_fail(x, x->pos, "unterminated CDATA section", NULL);
			for (const char *c = p + 9; c < end; c++)
				put_byte(x, out, *c);
			x->pos = (size_t)(end - x->s) + 3;
			continue;
		}
		if (*p == '<') {
			if (!lk_xml_starts_nocase(p, avail, "<!--") && !lk_xml_starts_nocase(p, avail, "<?"))
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
int lk_xml_skip_element(struct xml *x, const struct tag *t)
{
	struct lk_strbuf junk = LK_STRBUF_INIT;
	struct tag in;
	size_t depth = 1;
	int rc = 0;

	if (t->empty)
		return 0;
	lk_xml_tag_init(&in);
	while (depth > 0) {
		lk_strbuf_reset(&junk);
		if (lk_xml_read_text(x, &junk) < 0 || x->pos >= x->len) {
			rc = x->pos >= x->len ? lk_xml_fail(x, t->pos, "<%s> is not closed", t->name) : -1;
			break;
		}
		if (lk_xml_read_tag(x, &in) < 0) {
			rc = -1;
			break;
		}
		if (in.end)
			depth--;
		else if (!in.empty)
			depth++;
		if (depth > 1000) {
			rc = lk_xml_fail(x, in.pos, "elements nested too deeply", NULL);
			break;
		}
	}
	lk_xml_tag_release(&in);
	lk_strbuf_release(&junk);
	return rc;
}

/* Read the text content of a simple element (start tag t read) and its
 * end tag. */
int lk_xml_element_text(struct xml *x, const struct tag *t, struct lk_strbuf *out)
{
	struct tag end;
	int rc = 0;

	if (t->empty)
		return 0;
	lk_xml_tag_init(&end);
	if (lk_xml_read_text(x, out) < 0)
		rc = -1;
	else if (x->pos >= x->len)
		rc = lk_xml_fail(x, t->pos, "<%s> is not closed", t->name);
	else if (lk_xml_read_tag(x, &end) < 0)
		rc = -1;
	else if (!end.end || strcmp(end.name, t->name) != 0)
		rc = lk_xml_fail(x, end.pos, "expected </%s>", t->name);
	lk_xml_tag_release(&end);
	return rc;
}
