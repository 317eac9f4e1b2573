/*
 * record_read.c - reading records from a stream.
 *
 * Three layers.  Physical lines: LF, CRLF or a CR alone end a line, and a
 * UTF-8 byte order mark before the first line is taken off.  Blocks: the
 * lines between blank lines, except that a .sok "Comment:" ... "Comment-End:"
 * section may hold blank lines.  Records: a block is cut into levels by the
 * Sokoban pack rules (record_pack.c); then, across blank lines, a lone
 * title line joins the board after it, and notes or a solution join the
 * .sok level before them, which is why such a level is held back until
 * the next block has been seen.  An SLC XML input goes whole to
 * record_slc.c.  Whatever is read, every line ends up in some record, so a
 * record that cannot be read can still be written back as it was.
 */
#include "record_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* How far ahead a Comment section's end is looked for; a "Comment:" field
 * without an end within this many lines is an ordinary field. */
#define COMMENT_LOOKAHEAD 10000

struct rawline {
	char *text;
	size_t lineno;
	bool nul;      /* held a NUL byte (text stops there) */
	bool blank;
};

struct lk_reader_state {
	struct rawline *ahead;          /* lines read but not used yet */
	size_t ahead_head, ahead_len, ahead_alloc;
	bool started;                   /* the first line has been read */
	bool bom_pending;               /* the next record gets rec->bom */
	bool checked_xml;
	bool xml;
	bool done;
	bool failed;                    /* reading failed: -2 after the queue */
	struct lk_strbuf failure;
	size_t failure_line;            /* its line, 0 when none (an I/O error) */
	struct lk_queued *queue;        /* records ready to be handed out */
	size_t queue_head, queue_len, queue_alloc;
	struct lk_record held;          /* a .sok level awaiting its notes */
	bool have_held;
	struct lk_record title;         /* a lone title line awaiting a board */
	struct lk_record title_lead;    /* the blank lines before it */
	bool have_title;
	/* Lines with NUL bytes not yet emitted, in input order from nul_head
	 * on: records hand their lines out in input order (fuzz_record checks
	 * it), so each is found at the head and the whole costs O(lines). */
	size_t *nul_lines;
	size_t nul_head, nnul, nul_alloc;
	/* No "Comment-End:" up to this line (a search found none), so later
	 * searches start after it: the searches cost O(lines) in all. */
	size_t no_comment_end_until;
	bool no_comment_end_at_all;
};

/* ------------------------------------------------------- physical lines */

/*
 * Read one line into *out.  Returns 1, 0 at end of input, or -1 on a read
 * error (message in st->failure).
 */
static int read_physical(struct lk_reader *r, struct rawline *out)
{
	struct lk_reader_state *st = r->st;
	struct lk_strbuf *b = &r->line;
	bool nul = false;
	int c;

	if (r->eof)
		return 0;
	lk_strbuf_reset(b);
	while ((c = getc(r->fp)) != EOF && c != '\n' && c != '\r') {
		if (c == '\0')
			nul = true;
		if (b->len == LK_LINE_MAX) {
			/* An endless line (/dev/zero) must not take all memory:
			 * the file cannot be read on, since its next line is
			 * nowhere in sight. */
			lk_strbuf_reset(&st->failure);
			lk_strbuf_addf(&st->failure, "line too long (limit %zu bytes)",
				       (size_t)LK_LINE_MAX);
			st->failure_line = r->lineno + 1;
			return -1;
		}
		lk_strbuf_addch(b, (char)c);
	}
	if (c == '\r') {
		/* CRLF is one line end; a CR alone (old Mac files) is one too. */
		int d = getc(r->fp);
		if (d != '\n' && d != EOF)
			ungetc(d, r->fp);
	}
	if (c == EOF) {
		if (ferror(r->fp)) {
			lk_strbuf_reset(&st->failure);
			lk_strbuf_addf(&st->failure, "read error: %s", strerror(errno));
			st->failure_line = 0;
			return -1;
		}
		r->eof = true;
		if (b->len == 0)
			return 0;
	}
	r->lineno++;
	if (!st->started) {
		st->started = true;
		if (b->len >= 3 && memcmp(b->buf, "\xef\xbb\xbf", 3) == 0) {
			memmove(b->buf, b->buf + 3, b->len - 2);
			b->len -= 3;
			st->bom_pending = true;
		}
	}
	out->text = lk_xstrdup(b->buf);
	out->lineno = r->lineno;
	out->nul = nul;
	out->blank = !nul && lk_blank_mem(b->buf, b->len);
	return 1;
}

/* The k-th line ahead (0 = the next one), reading as needed; NULL at end
 * of input or on a read error (then st->failed). */
static struct rawline *peek(struct lk_reader *r, size_t k)
{
	struct lk_reader_state *st = r->st;

	while (st->ahead_len <= k && !st->failed) {
		struct rawline l;
		int rc = read_physical(r, &l);
		if (rc <= 0) {
			st->failed = rc < 0;
			return NULL;
		}
		if (st->ahead_head > 0 && st->ahead_head + st->ahead_len == st->ahead_alloc) {
			memmove(st->ahead, st->ahead + st->ahead_head,
				st->ahead_len * sizeof(*st->ahead));
			st->ahead_head = 0;
		}
		LK_ALLOC_GROW(st->ahead, st->ahead_head + st->ahead_len + 1, st->ahead_alloc);
		st->ahead[st->ahead_head + st->ahead_len++] = l;
	}
	return st->ahead_len > k ? &st->ahead[st->ahead_head + k] : NULL;
}

/* Take the next line (which peek has read); the caller owns its text. */
static struct rawline take(struct lk_reader *r)
{
	struct lk_reader_state *st = r->st;
	struct rawline l = st->ahead[st->ahead_head];

	st->ahead_head++;
	st->ahead_len--;
	if (st->ahead_len == 0)
		st->ahead_head = 0;
	return l;
}

/* --------------------------------------------------------------- blocks */

/* Append a line to rec, taking its text; kind as classified, or forced. */
static struct lk_line *add_raw(struct lk_reader *r, struct lk_record *rec,
			       struct rawline *l, int force_kind)
{
	struct lk_reader_state *st = r->st;
	struct lk_line *line;

	lk_record_add_line(rec, l->text, l->lineno);
	free(l->text);
	line = &rec->lines[rec->nlines - 1];
	if (force_kind >= 0) {
		line->kind = (enum lk_line_kind)force_kind;
		line->name_len = line->value_off = 0;
	}
	if (l->nul) {
		if (st->nul_head > 0 && st->nul_head * 2 >= st->nnul) {
			st->nnul -= st->nul_head;
			memmove(st->nul_lines, st->nul_lines + st->nul_head,
				st->nnul * sizeof(*st->nul_lines));
			st->nul_head = 0;
		}
		LK_ALLOC_GROW(st->nul_lines, st->nnul + 1, st->nul_alloc);
		st->nul_lines[st->nnul++] = l->lineno;
	}
	return line;
}

static bool is_field_named(const char *text, const char *name)
{
	size_t n, v;
	return lk_line_classify(text, &n, &v) == LK_LINE_FIELD && lk_field_name_eq(text, n, name);
}

/* If the field line just added is "Comment:" and a "Comment-End:" line
 * follows within reach, take the section: its lines (blank ones too)
 * become the field's value. */
static void take_comment_section(struct lk_reader *r, struct lk_record *blk)
{
	struct lk_reader_state *st = r->st;
	size_t end, head = blk->nlines - 1, at = blk->lines[head].lineno;
	struct lk_strbuf value = LK_STRBUF_INIT;

	if (!lk_field_name_eq(blk->lines[head].text, blk->lines[head].name_len, "comment") ||
	    st->no_comment_end_at_all)
		return;
	end = st->no_comment_end_until > at ? st->no_comment_end_until - at : 0;
	/* the lines looked at wait in memory: at most LK_LINE_MAX bytes of
	 * them, as for one line */
	size_t bytes = 0;
	for (; end < COMMENT_LOOKAHEAD && bytes <= LK_LINE_MAX; end++) {
		struct rawline *l = peek(r, end);
		if (!l) {
			st->no_comment_end_at_all = true;
			return;
		}
		if (!l->nul && (is_field_named(l->text, "comment-end") ||
				is_field_named(l->text, "comment_end")))
			break;
		bytes += strlen(l->text) + 1;
	}
	if (end >= COMMENT_LOOKAHEAD || bytes > LK_LINE_MAX) {
		st->no_comment_end_until = at + end;
		return;
	}
	lk_strbuf_addstr(&value, blk->lines[head].text + blk->lines[head].value_off);
	for (size_t i = 0; i <= end; i++) {
		struct rawline l = take(r);
		bool last = i == end;
		if (!last) {
			if (i > 0 || value.len > 0)
				lk_strbuf_addch(&value, '\n');
			lk_strbuf_addstr(&value, l.text);
		}
		add_raw(r, blk, &l, l.blank ? LK_LINE_BLANK : LK_LINE_TEXT);
	}
	blk->lines[head].cont = end + 1;
	blk->lines[head].value = lk_strbuf_detach(&value, NULL);
}

/*
 * Read the next block: the blank lines before it go to lead (as blank
 * lines), its lines to blk.  Returns 1, 0 at end of input, -1 on a read
 * error, 2 when the input is an SLC XML document (nothing taken).
 */
static int read_block(struct lk_reader *r, struct lk_record *lead, struct lk_record *blk)
{
	struct lk_reader_state *st = r->st;
	struct rawline *l;

	while ((l = peek(r, 0)) != NULL && l->blank) {
		struct rawline t = take(r);
		add_raw(r, lead, &t, LK_LINE_BLANK);
	}
	if (!l)
		return st->failed ? -1 : 0;
	if (!st->checked_xml) {
		st->checked_xml = true;
		if (!l->nul && lk_slc_detect(l->text))
			return 2;
	}
	while ((l = peek(r, 0)) != NULL && !l->blank) {
		struct rawline t = take(r);
		struct lk_line *line = add_raw(r, blk, &t, -1);
		if (!t.nul && line->kind == LK_LINE_FIELD)
			take_comment_section(r, blk);
	}
	return st->failed ? -1 : 1;
}

/* -------------------------------------------------------------- records */

static void move_lines(struct lk_record *dst, struct lk_record *src)
{
	if (src->nlines) {
		LK_ALLOC_GROW(dst->lines, dst->nlines + src->nlines, dst->alloc);
		memcpy(dst->lines + dst->nlines, src->lines, src->nlines * sizeof(*src->lines));
		dst->nlines += src->nlines;
	}
	free(src->lines);
	src->lines = NULL;
	src->nlines = src->alloc = 0;
}

static bool take_nul_line(struct lk_reader_state *st, size_t lineno)
{
	/* (an earlier line can no longer come) */
	while (st->nul_head < st->nnul && st->nul_lines[st->nul_head] < lineno)
		st->nul_head++;
	if (st->nul_head < st->nnul && st->nul_lines[st->nul_head] == lineno) {
		st->nul_head++;
		return true;
	}
	return false;
}

static void enqueue(struct lk_reader_state *st, struct lk_record *rec, const char *msg,
		    size_t err_line)
{
	struct lk_queued *q;

	if (st->queue_head > 0 && st->queue_head + st->queue_len == st->queue_alloc) {
		memmove(st->queue, st->queue + st->queue_head, st->queue_len * sizeof(*st->queue));
		st->queue_head = 0;
	}
	LK_ALLOC_GROW(st->queue, st->queue_head + st->queue_len + 1, st->queue_alloc);
	q = &st->queue[st->queue_head + st->queue_len++];
	q->rec = *rec;
	q->status = msg ? -1 : 1;
	q->msg = msg ? lk_xstrdup(msg) : NULL;
	q->err_line = err_line;
	lk_record_init(rec);
}

/* Number a finished record, check it and queue it (rec is emptied). */
static void emit(struct lk_reader *r, struct lk_record *rec)
{
	struct lk_reader_state *st = r->st;
	enum { NO_GRID, IN_GRID, AFTER_GRID } grid = NO_GRID;
	enum lk_line_kind after = LK_LINE_COMMENT;
	const char *msg = NULL;
	size_t err_line = 0;

	if (rec->nlines == 0)
		return;
	/* Malformed records are numbered too, so numbers always match the
	 * position in the input that users count in their editor. */
	rec->number = ++r->records;
	free(rec->source);
	rec->source = lk_xstrdup(r->name);
	rec->first_lineno = rec->lines[0].lineno;
	rec->bom = st->bom_pending;
	st->bom_pending = false;
	/* A first line that starts with U+FEFF, not the input's byte order
	 * mark: written first in an output it would read back as one. */
	if (!rec->bom && strncmp(rec->lines[0].text, "\xef\xbb\xbf", 3) == 0)
		rec->lossy = true;
	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *l = &rec->lines[i];
		const char *m = NULL;

		if (st->nul_head < st->nnul && take_nul_line(st, l->lineno)) {
			m = "line contains a NUL byte";
			rec->lossy = true;   /* the text stops at the NUL */
		} else if (l->kind == LK_LINE_GRID) {
			/* Two grid blocks would make "the grid" ambiguous, and
			 * usually mean a missing blank line between levels. */
			if (grid == AFTER_GRID)
				m = after == LK_LINE_COMMENT || after == LK_LINE_FIELD
					    ? "grid rows interrupted by a comment or field line"
					    : "grid rows interrupted by a note line";
			grid = IN_GRID;
		} else if (grid == IN_GRID) {
			grid = AFTER_GRID;
			after = l->kind;
		}
		/* Report the first problem; the record keeps all its lines. */
		if (m && !msg) {
			msg = m;
			err_line = l->lineno;
		}
	}
	enqueue(st, rec, msg, err_line);
}

static void release_held(struct lk_reader *r)
{
	if (r->st->have_held) {
		r->st->have_held = false;
		emit(r, &r->st->held);
	}
}

static bool sok_features(const struct lk_record *rec)
{
	for (size_t i = 0; i < rec->nlines; i++) {
		enum lk_line_kind k = rec->lines[i].kind;
		if (k == LK_LINE_TITLE || k == LK_LINE_TEXT || k == LK_LINE_BLANK ||
		    rec->lines[i].cont)
			return true;
	}
	return false;
}

/* A lone line that may name the board after the next blank lines. */
static bool title_block(const struct lk_record *rec)
{
	return rec->nlines == 1 && rec->lines[0].kind == LK_LINE_TEXT &&
	       lk_pack_title_candidate(rec->lines[0].text);
}

static bool starts_with_row(const struct lk_record *rec)
{
	return rec->nlines > 0 && rec->lines[0].kind == LK_LINE_GRID &&
	       lk_sok_row_like(rec->lines[0].text) && lk_pack_is_sokoban(rec);
}

/* Notes or a solution after a blank line: no grid, and not a comment
 * first (a "; 12" block is an xsb title and stays a record of its own). */
static bool notes_block(const struct lk_record *rec)
{
	return rec->nlines > 0 && rec->lines[0].kind != LK_LINE_COMMENT &&
	       lk_record_grid(rec, NULL) == 0 && lk_pack_is_sokoban(rec);
}

/* A grid-less record after a held .sok level joins it (with the blank
 * lines between); anything else ends the level. */
static void notes_or_emit(struct lk_reader *r, struct lk_record *lead, struct lk_record *rec)
{
	struct lk_reader_state *st = r->st;

	if (st->have_held && notes_block(rec)) {
		move_lines(&st->held, lead);
		move_lines(&st->held, rec);
		return;
	}
	release_held(r);
	emit(r, rec);
}

static void put_slc(void *ctx, struct lk_record *rec, const char *msg, size_t err_line)
{
	struct lk_reader *r = ctx;

	rec->number = ++r->records;
	free(rec->source);
	rec->source = lk_xstrdup(r->name);
	enqueue(r->st, rec, msg, err_line);
}

/* The rest of the input is an SLC document: read it all and parse it. */
static void read_xml(struct lk_reader *r)
{
	struct lk_reader_state *st = r->st;
	struct lk_strbuf text = LK_STRBUF_INIT;
	struct lk_slc_sink sink = { put_slc, r };
	struct rawline *l;
	size_t first = peek(r, 0)->lineno;

	while ((l = peek(r, 0)) != NULL) {
		struct rawline t = take(r);
		lk_strbuf_addstr(&text, t.text);
		lk_strbuf_addch(&text, '\n');
		free(t.text);
	}
	/* The output is not this file, so no byte order mark is kept. */
	st->bom_pending = false;
	st->xml = true;
	lk_slc_read(text.buf, text.len, first, &sink);
	lk_strbuf_release(&text);
	st->done = true;
}

/* Read one block and queue what can be decided. */
static void step(struct lk_reader *r)
{
	struct lk_reader_state *st = r->st;
	struct lk_record lead = LK_RECORD_INIT, blk = LK_RECORD_INIT, *segs = NULL;
	size_t nsegs = 0;
	int rc = read_block(r, &lead, &blk);

	if (rc == 2) {
		lk_record_release(&lead);
		read_xml(r);
		return;
	}
	if (rc != 1) {
		if (st->have_title) {
			st->have_title = false;
			notes_or_emit(r, &st->title_lead, &st->title);
		}
		release_held(r);
		lk_record_release(&lead);
		lk_record_release(&blk);
		st->done = true;
		return;
	}
	lk_pack_split(&blk, &segs, &nsegs);
	lk_record_release(&blk);

	if (st->have_title) {
		st->have_title = false;
		if (nsegs > 0 && starts_with_row(&segs[0])) {
			/* "Level 1", blank lines, the board: one level. */
			struct lk_record joined = LK_RECORD_INIT;
			st->title.lines[0].kind = LK_LINE_TITLE;
			move_lines(&joined, &st->title);
			move_lines(&joined, &lead);
			move_lines(&joined, &segs[0]);
			segs[0] = joined;
		} else {
			notes_or_emit(r, &st->title_lead, &st->title);
		}
		lk_record_release(&st->title_lead);
		lk_record_release(&st->title);
	}
	for (size_t i = 0; i < nsegs; i++) {
		struct lk_record *s = &segs[i];
		bool last = i + 1 == nsegs;

		if (last && title_block(s) && lk_pack_is_sokoban(s)) {
			st->title = *s;
			lk_record_init(s);
			st->title_lead = lead;
			lk_record_init(&lead);
			st->have_title = true;
			continue;
		}
		if (lk_record_grid(s, NULL) == 0) {
			notes_or_emit(r, &lead, s);
		} else {
			release_held(r);
			if (last && sok_features(s)) {
				st->held = *s;
				lk_record_init(s);
				st->have_held = true;
			} else {
				emit(r, s);
			}
		}
		lk_record_release(&lead);
	}
	for (size_t i = 0; i < nsegs; i++)
		lk_record_release(&segs[i]);
	free(segs);
	lk_record_release(&lead);
}

/* ------------------------------------------------------------ interface */

bool lk_reader_is_xml(const struct lk_reader *r)
{
	return r->st && r->st->xml;
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
	r->st = lk_xcalloc(1, sizeof(*r->st));
	lk_strbuf_init(&r->st->failure);
	lk_record_init(&r->st->held);
	lk_record_init(&r->st->title);
	lk_record_init(&r->st->title_lead);
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
			lk_strbuf_addf(err, "%s: cannot open: %s", path, strerror(errno));
		}
		return -1;
	}
	r->own_fp = true;
	return 0;
}

void lk_reader_close(struct lk_reader *r)
{
	struct lk_reader_state *st = r->st;

	if (r->own_fp && r->fp)
		fclose(r->fp);
	free(r->name);
	lk_strbuf_release(&r->line);
	if (st) {
		for (size_t i = 0; i < st->ahead_len; i++)
			free(st->ahead[st->ahead_head + i].text);
		free(st->ahead);
		for (size_t i = 0; i < st->queue_len; i++) {
			lk_record_release(&st->queue[st->queue_head + i].rec);
			free(st->queue[st->queue_head + i].msg);
		}
		free(st->queue);
		lk_record_release(&st->held);
		lk_record_release(&st->title);
		lk_record_release(&st->title_lead);
		free(st->nul_lines);
		lk_strbuf_release(&st->failure);
		free(st);
	}
	r->st = NULL;
	r->fp = NULL;
	r->own_fp = false;
	r->name = NULL;
	r->eof = true;
}

int lk_reader_next(struct lk_reader *r, struct lk_record *rec,
		   struct lk_strbuf *err, size_t *err_line)
{
	struct lk_reader_state *st = r->st;
	struct lk_queued q;

	lk_record_release(rec);
	if (!st)
		return 0;
	while (st->queue_len == 0 && !st->done)
		step(r);
	if (st->queue_len == 0) {
		if (st->failed) {
			if (err) {
				lk_strbuf_reset(err);
				lk_strbuf_addstr(err, st->failure.buf);
			}
			if (err_line)
				*err_line = st->failure_line;
			return -2;
		}
		return 0;
	}
	q = st->queue[st->queue_head++];
	if (--st->queue_len == 0)
		st->queue_head = 0;
	*rec = q.rec;
	if (q.status < 0) {
		if (err) {
			lk_strbuf_reset(err);
			lk_strbuf_addstr(err, q.msg);
		}
		if (err_line)
			*err_line = q.err_line;
	}
	free(q.msg);
	return q.status;
}

void lk_reader_init_records(struct lk_reader *r, struct lk_record *recs, size_t n,
			    const char *name)
{
	lk_reader_init_fp(r, NULL, name);
	struct lk_reader_state *st = r->st;
	st->started = st->done = true;
	for (size_t i = 0; i < n; i++) {
		recs[i].number = ++r->records;
		free(recs[i].source);
		recs[i].source = lk_xstrdup(r->name);
		if (!recs[i].first_lineno && recs[i].nlines)
			recs[i].first_lineno = recs[i].lines[0].lineno;
		enqueue(st, &recs[i], NULL, 0);
	}
}
