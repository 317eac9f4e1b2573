/*
 * record_sok.c - Sokoban boards and solutions as packs write them, and the
 * .sok writer.
 *
 * Board lines in packs may be run-length encoded: "4#" is "####", a '|'
 * breaks the row, and SOK 0.17 (Sokoban YASC) adds groups, "2(#-)" being
 * "#-#-", and the letters p P b B for @ + $ *.  Tabs are expanded to the
 * next multiple of 8 columns: they come from editors that replaced runs of
 * spaces, and 8 is the tab stop those editors and expand(1) assume.
 *
 * The writer puts a level as Sokoban YASC and JSoko read it: a title line,
 * the board in plain XSB characters, the other lines of the record as
 * notes, then a "Solution" line and the moves, at most 70 to a line.
 */
#include "record_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_RUN 9999        /* a larger run length is a mistake */
#define MAX_DEPTH 8         /* groups inside groups */
#define LINE_MOVES 70       /* moves per solution line */

struct decoder {
	const char *s;
	size_t len;
	struct lk_strbuf *out, *err;
	size_t start, row_start, cap;
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int dec_error(struct decoder *d, const char *msg, unsigned long n)
{
	lk_strbuf_addf(d->err, msg, n);
	return -1;
}

static int dec_put(struct decoder *d, char c)
{
	switch (c) {
	case '|':
		lk_strbuf_addch(d->out, '\n');
		d->row_start = d->out->len;
		break;
	case '\t':
		do
			lk_strbuf_addch(d->out, ' ');
		while ((d->out->len - d->row_start) % 8 != 0);
		break;
	case 'p': lk_strbuf_addch(d->out, '@'); break;
	case 'P': lk_strbuf_addch(d->out, '+'); break;
	case 'b': lk_strbuf_addch(d->out, '$'); break;
	case 'B': lk_strbuf_addch(d->out, '*'); break;
	default: lk_strbuf_addch(d->out, c); break;
	}
	if (d->out->len - d->start > d->cap)
		return dec_error(d, "run-length encoded line is too long", 0);
	return 0;
}

/* Decode from *i up to the end or, inside a group, its ')'. */
static int dec_seq(struct decoder *d, size_t *i, int depth)
{
	while (*i < d->len) {
		char c = d->s[*i];
		unsigned long count = 1;

		if (c == ')') {
			if (depth == 0)
				return dec_error(d, "')' without '('", 0);
			return 0;
		}
		if (is_digit(c)) {
			count = 0;
			while (*i < d->len && is_digit(d->s[*i])) {
				count = count * 10 + (unsigned long)(d->s[*i] - '0');
				if (count > MAX_RUN)
					return dec_error(d, "run length too large", 0);
				(*i)++;
			}
			if (*i == d->len || d->s[*i] == '|' || d->s[*i] == ')')
				return dec_error(d, "run length %lu is not followed by a cell", count);
			if (count == 0)
				return dec_error(d, "run length 0", 0);
			c = d->s[*i];
		}
		if (c == '(') {
			size_t after = *i;
			if (depth >= MAX_DEPTH)
				return dec_error(d, "groups nested too deeply", 0);
			for (unsigned long k = 0; k < count; k++) {
				size_t j = *i + 1, before = d->out->len;
				if (dec_seq(d, &j, depth + 1) < 0)
					return -1;
				if (j >= d->len)
					return dec_error(d, "'(' without ')'", 0);
				/* Every repeat writes something, so the work is
				 * bounded by the output's cap. */
				if (d->out->len == before)
					return dec_error(d, "empty group", 0);
				after = j + 1;
			}
			*i = after;
			continue;
		}
		for (unsigned long k = 0; k < count; k++)
			if (dec_put(d, c) < 0)
				return -1;
		(*i)++;
	}
	return 0;
}

int lk_sok_decode_line(const char *line, struct lk_strbuf *out, struct lk_strbuf *err)
{
	struct decoder d;
	size_t i = 0;

	d.s = line;
	d.len = strlen(line);
	if (d.len && line[d.len - 1] == '\r')
		d.len--;
	d.out = out;
	d.err = err;
	d.start = d.row_start = out->len;
	d.cap = 65536 + 8 * d.len;
	if (dec_seq(&d, &i, 0) < 0) {
		if (out->alloc) {
			out->len = d.start;
			out->buf[out->len] = '\0';
		}
		return -1;
	}
	lk_strbuf_addch(out, '\n');
	return 0;
}

/* ------------------------------------------------------------- solutions */

/* The moves with whitespace left out and run lengths and groups written
 * out (the same decoder: moves are one long "row").  -1 if malformed. */
static int plain_moves(const char *sol, struct lk_strbuf *out)
{
	struct lk_strbuf packed = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
	int rc;

	for (const char *p = sol; *p; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			lk_strbuf_addch(&packed, *p);
	rc = strpbrk(packed.buf, "|\tpPbB") ? -1 : lk_sok_decode_line(packed.buf, out, &err);
	if (rc == 0)
		out->buf[--out->len] = '\0';   /* the row's newline */
	lk_strbuf_release(&packed);
	lk_strbuf_release(&err);
	return rc;
}

/* Runs of one move become "<n><move>" (YSokoban's and JSoko's RLE). */
static void rle_moves(const char *moves, struct lk_strbuf *out)
{
	for (size_t i = 0; moves[i];) {
		size_t n = 1;
		while (moves[i + n] == moves[i])
			n++;
		if (n > 1)
			lk_strbuf_addf(out, "%zu", n);
		lk_strbuf_addch(out, moves[i]);
		i += n;
	}
}

/* Lines of at most LINE_MOVES characters, never splitting "12R". */
static void wrap_moves(const char *moves, struct lk_strbuf *out)
{
	size_t col = 0;

	for (size_t i = 0; moves[i];) {
		size_t n = 1;
		while (is_digit(moves[i + n - 1]) && moves[i + n])
			n++;
		if (col > 0 && col + n > LINE_MOVES) {
			lk_strbuf_addch(out, '\n');
			col = 0;
		}
		lk_strbuf_add(out, moves + i, n);
		col += n;
		i += n;
	}
	lk_strbuf_addch(out, '\n');
}

/* ---------------------------------------------------------------- writer */

static const char sok_header[] =
	":: Sokoban levels written by levelkit.  Each level: a title line, the\n"
	":: board, notes (key: value), then a Solution line and the moves.\n";

/* Is t safe as a title line: read back as the title of the board below,
 * never as a row, field, comment or note? */
static bool title_safe(const char *t)
{
	return *t && !strchr(t, '\n') && lk_pack_title_candidate(t);
}

static void write_board(const struct lk_record *rec, size_t first, size_t n,
			struct lk_strbuf *out)
{
	struct lk_strbuf rows = LK_STRBUF_INIT, err = LK_STRBUF_INIT;

	for (size_t i = first; i < first + n; i++) {
		lk_strbuf_reset(&rows);
		if (lk_sok_decode_line(rec->lines[i].text, &rows, &err) < 0) {
			/* keep what cannot be decoded; the game will say why */
			lk_strbuf_addstr(out, rec->lines[i].text);
			lk_strbuf_addch(out, '\n');
			continue;
		}
		for (char *p = rows.buf; *p;) {
			char *nl = strchr(p, '\n');
			size_t len = (size_t)(nl - p), start = out->len;
			for (size_t k = 0; k < len; k++)
				lk_strbuf_addch(out, (p[k] == '-' || p[k] == '_') ? ' ' : p[k]);
			while (out->len > start && out->buf[out->len - 1] == ' ')
				out->buf[--out->len] = '\0';
			/* An empty interior row would end the level. */
			if (out->len == start)
				lk_strbuf_addch(out, '-');
			lk_strbuf_addch(out, '\n');
			p = nl + 1;
		}
	}
	lk_strbuf_release(&rows);
	lk_strbuf_release(&err);
}

static void write_solution(const char *sol, bool rle, struct lk_strbuf *out)
{
	struct lk_strbuf moves = LK_STRBUF_INIT, packed = LK_STRBUF_INIT;

	if (plain_moves(sol, &moves) < 0) {
		/* not moves levelkit can read: pass them on as they are */
		lk_strbuf_reset(&moves);
		for (const char *p = sol; *p; p++)
			if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
				lk_strbuf_addch(&moves, *p);
	}
	if (moves.len == 0)
		goto out;
	lk_strbuf_addstr(out, "Solution\n");
	if (rle) {
		rle_moves(moves.buf, &packed);
		wrap_moves(packed.buf, out);
	} else {
		wrap_moves(moves.buf, out);
	}
out:
	lk_strbuf_release(&moves);
	lk_strbuf_release(&packed);
}

static bool is_solution(const struct lk_line *l)
{
	return l->kind == LK_LINE_FIELD && lk_field_name_eq(l->text, l->name_len, "solution");
}

/* Comments, fields and notes of a level, after its board. */
static void write_notes(const struct lk_record *rec, long title_line, struct lk_strbuf *out)
{
	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *l = &rec->lines[i];

		if (l->kind == LK_LINE_GRID || l->kind == LK_LINE_TITLE ||
		    l->kind == LK_LINE_BLANK || (long)i == title_line)
			continue;
		if (is_solution(l)) {
			i += l->cont;
			continue;
		}
		lk_strbuf_addstr(out, l->text);
		lk_strbuf_addch(out, '\n');
		/* a Comment section keeps its lines, blank ones too */
		for (size_t k = 0; k < l->cont && i + 1 < rec->nlines; k++) {
			i++;
			lk_strbuf_addstr(out, rec->lines[i].text);
			lk_strbuf_addch(out, '\n');
		}
	}
}

void lk_sok_format(struct lk_writer *w, const struct lk_record *rec, struct lk_strbuf *out)
{
	struct lk_strbuf tbuf = LK_STRBUF_INIT;
	size_t first, n = lk_record_grid(rec, &first);
	const char *title;
	long tline;
	bool safe;

	if (!w->header_written) {
		lk_strbuf_addstr(out, sok_header);
		w->header_written = true;
	}
	lk_strbuf_addch(out, '\n');
	if (n == 0) {
		/* Before the levels: the pack's notes.  After a level, notes
		 * would be read as that level's, so they become "::" lines. */
		for (size_t i = 0; i < rec->nlines; i++) {
			if (rec->lines[i].kind == LK_LINE_BLANK)
				continue;
			if (w->levels > 0)
				lk_strbuf_addstr(out, ":: ");
			lk_strbuf_addstr(out, rec->lines[i].text);
			lk_strbuf_addch(out, '\n');
		}
		return;
	}
	if (!lk_pack_is_sokoban(rec)) {
		lk_record_write(rec, out);
		return;
	}
	w->levels++;
	title = lk_record_title(rec, &tbuf);
	tline = lk_record_title_line(rec);
	safe = title && title_safe(title);
	/* The title line says it; a title that cannot be one (it would read
	 * as a row, say) is kept as a Title note under a plain title line. */
	if (safe)
		lk_strbuf_addstr(out, title);
	else
		lk_strbuf_addf(out, "Level %zu", w->levels);
	lk_strbuf_addch(out, '\n');
	write_board(rec, first, n, out);
	write_notes(rec, safe ? tline : -1, out);
	if (!safe && title && rec->lines[tline].kind != LK_LINE_FIELD)
		lk_strbuf_addf(out, "Title: %s\n", title);
	for (size_t i = 0; i < rec->nlines; i++)
		if (is_solution(&rec->lines[i]))
			write_solution(rec->lines[i].value ? rec->lines[i].value
				       : rec->lines[i].text + rec->lines[i].value_off,
				       w->format == LK_FORMAT_SOK_RLE, out);
	lk_strbuf_release(&tbuf);
}
