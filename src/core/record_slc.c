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
 * The XML scanner it reads with is record_xml.c.
 */
#include "record_xml.h"

#include <stdlib.h>
#include <string.h>

bool lk_slc_detect(const char *line)
{
	while (lk_xml_space(*line))
		line++;
	return lk_xml_starts_nocase(line, strlen(line), "<?xml") ||
	       lk_xml_starts_nocase(line, strlen(line), "<!--") ||
	       lk_xml_starts_nocase(line, strlen(line), "<SokobanLevels");
}

static bool valid_field_name(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		return false;
	for (; *s; s++)
		if (!lk_xml_name_char(*s) || *s == ':' || (unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* Add "name: value" (name in lower case) with the value on one line. */
static void add_field(struct lk_record *rec, const char *name, const char *value, size_t lineno)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	const char *v = value;

	for (const char *p = name; *p; p++)
		lk_strbuf_addch(&sb, lk_xml_lower(*p));
	lk_strbuf_addch(&sb, ':');
	while (lk_xml_space(*v))
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
		while (b < n && lk_xml_space(p[b]))
			b++;
		while (n > b && lk_xml_space(p[n - 1]))
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
	size_t la = lk_xml_line_of(x, a), lb = lk_xml_line_of(x, b > a ? b - 1 : a);

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
	size_t err_line = lk_xml_line_of(x, x->err_pos < x->len ? x->err_pos : x->len);
	size_t base = x->err_pos > from ? x->err_pos : from;
	const char *end = NULL, *next = NULL;
	size_t stop = x->len;

	if (base < x->len) {
		next = lk_xml_find(x, base + 1, "<Level", -1);
		/* look for the end tag only up to the next level */
		if (in_level)
			end = lk_xml_find_in(x, base, next ? (size_t)(next - x->s) : x->len, "</Level>");
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
	size_t lineno = lk_xml_line_of(x, t->pos);
	int rc = 0;

	lk_xml_tag_init(&in);
	for (size_t i = 0; i < t->nattrs; i++) {
		if (lk_xml_eq_nocase(t->attr[i], "Id"))
			add_field(&rec, "title", t->value[i].buf, lineno);
		else if (!lk_xml_eq_nocase(t->attr[i], "Width") && !lk_xml_eq_nocase(t->attr[i], "Height") &&
			 valid_field_name(t->attr[i]))
			add_field(&extra, t->attr[i], t->value[i].buf, lineno);
	}
	while (!t->empty) {
		lk_strbuf_reset(&text);
		if (lk_xml_read_text(x, &text) < 0) {
			rc = -1;
			break;
		}
		for (size_t i = 0; i < text.len; i++) {
			if (!lk_xml_space(text.buf[i])) {
				rc = lk_xml_fail(x, x->pos, "text outside <L> in <Level>", NULL);
				break;
			}
		}
		if (rc < 0)
			break;
		if (x->pos >= x->len) {
			rc = lk_xml_fail(x, t->pos, "<Level> is not closed", NULL);
			break;
		}
		if (lk_xml_read_tag(x, &in) < 0) {
			rc = -1;
			break;
		}
		if (in.end) {
			if (strcmp(in.name, t->name) != 0)
				rc = lk_xml_fail(x, in.pos, "expected </%s>", t->name);
			break;
		}
		if (strcmp(in.name, "Level") == 0) {
			/* the next level: this one was never closed */
			rc = lk_xml_fail(x, t->pos, "<Level> is not closed", NULL);
			break;
		}
		if (strcmp(in.name, "L") == 0) {
			size_t row_line = lk_xml_line_of(x, in.pos);
			lk_strbuf_reset(&text);
			if (lk_xml_element_text(x, &in, &text) < 0) {
				rc = -1;
				break;
			}
			if (strchr(text.buf, '\n') || strchr(text.buf, '\r')) {
				rc = lk_xml_fail(x, in.pos, "line break inside <L>", NULL);
				break;
			}
			add_row(&rec, text.buf, row_line);
		} else if (lk_xml_skip_element(x, &in) < 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && lk_record_grid(&rec, NULL) == 0)
		rc = lk_xml_fail(x, t->pos, "<Level> has no <L> rows", NULL);
	if (rc == 0) {
		for (size_t i = 0; i < extra.nlines; i++)
			lk_record_add_line(&rec, extra.lines[i].text, extra.lines[i].lineno);
		put(x, &rec, NULL, 0);
	}
	lk_record_release(&rec);
	lk_record_release(&extra);
	lk_strbuf_release(&text);
	lk_xml_tag_release(&in);
	return rc;
}

/* <LevelCollection> (start tag read): its levels. */
static void read_collection(struct xml *x, const struct tag *t)
{
	struct tag in;

	lk_xml_tag_init(&in);
	while (!t->empty) {
		size_t at;
		if (lk_xml_skip_all_misc(x) < 0) {
			recover(x, x->err_pos, false);
			continue;
		}
		at = x->pos;
		if (x->pos >= x->len) {
			lk_xml_fail(x, t->pos, "<%s> is not closed", t->name);
			recover(x, x->len, false);
			break;
		}
		if (x->s[x->pos] != '<') {
			lk_xml_fail(x, x->pos, "text between levels", NULL);
			recover(x, at, false);
			continue;
		}
		if (lk_xml_read_tag(x, &in) < 0) {
			recover(x, at, false);
			continue;
		}
		if (in.end)
			break;
		if (strcmp(in.name, "Level") == 0) {
			if (read_level(x, &in) < 0)
				recover(x, at, true);
		} else if (lk_xml_skip_element(x, &in) < 0) {
			recover(x, at, false);
		}
	}
	lk_xml_tag_release(&in);
}

/* The collection's header record, from the elements before the levels. */
static void header(struct xml *x, struct lk_record *hdr, const struct tag *coll)
{
	for (size_t i = 0; i < coll->nattrs; i++)
		if (!lk_xml_eq_nocase(coll->attr[i], "MaxWidth") && !lk_xml_eq_nocase(coll->attr[i], "MaxHeight") &&
		    valid_field_name(coll->attr[i]))
			add_field(hdr, coll->attr[i], coll->value[i].buf, lk_xml_line_of(x, coll->pos));
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
	lk_xml_tag_init(&t);
	x.s = text;
	x.len = len;
	x.first_lineno = first_lineno;
	x.next_source = first_lineno;
	x.line_at = line_at;
	x.nlines = nlines;
	x.sink = sink;

	while (x.pos < x.len) {
		size_t at;
		if (lk_xml_skip_all_misc(&x) < 0) {
			recover(&x, x.err_pos, false);
			continue;
		}
		if (x.pos >= x.len)
			break;
		at = x.pos;
		if (x.s[x.pos] != '<') {
			lk_xml_fail(&x, x.pos, root ? "text outside the collection's elements"
					     : "expected <SokobanLevels>", NULL);
			recover(&x, at, false);
			continue;
		}
		if (lk_xml_read_tag(&x, &t) < 0) {
			recover(&x, at, false);
			continue;
		}
		if (t.end)
			continue;   /* </SokobanLevels> */
		if (!root) {
			root = true;
			if (strcmp(t.name, "SokobanLevels") != 0) {
				lk_xml_fail(&x, t.pos, "not a Sokoban level collection (the root is <%s>)",
				     t.name);
				recover(&x, at, false);
			}
			continue;
		}
		if (strcmp(t.name, "Title") == 0 || strcmp(t.name, "Email") == 0 ||
		    strcmp(t.name, "Url") == 0 || strcmp(t.name, "Description") == 0) {
			size_t line = lk_xml_line_of(&x, t.pos);
			lk_strbuf_reset(&value);
			if (lk_xml_element_text(&x, &t, &value) < 0) {
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
		} else if (lk_xml_skip_element(&x, &t) < 0) {
			recover(&x, at, false);
		}
	}
	if (!root) {
		lk_xml_fail(&x, 0, "not a Sokoban level collection (no <SokobanLevels>)", NULL);
		recover(&x, 0, false);
	}
	put(&x, &hdr, NULL, 0);
	lk_xml_tag_release(&t);
	lk_strbuf_release(&value);
	free(line_at);
}
