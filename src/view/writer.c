/*
 * writer.c - the view writer (see view.h): which view a command writes,
 * and the writer that hands records to the page, the sheet or the
 * coloured text.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "levelkit/game.h"
#include "levelkit/registry.h"
#include "view_internal.h"

/* In the order of enum lk_view_format, from LK_VIEW_HTML. */
static const char *const view_names[] = { "html", "svg", "ansi" };

int lk_view_format_parse(const char *name, enum lk_view_format *view)
{
	for (size_t i = 0; name && i < sizeof view_names / sizeof view_names[0]; i++) {
		if (strcmp(name, view_names[i]) == 0) {
			*view = (enum lk_view_format)(LK_VIEW_HTML + (int)i);
			return 0;
		}
	}
	return -1;
}

void lk_view_all_format_names(struct lk_strbuf *out, const char *last_sep)
{
	lk_format_names(out, ", ");
	size_t n = sizeof view_names / sizeof view_names[0];
	for (size_t i = 0; i < n; i++)
		lk_strbuf_addf(out, "%s%s", i + 1 == n ? last_sep : ", ", view_names[i]);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	if (n < m)
		return false;
	for (size_t i = 0; i < m; i++)
		if ((s[n - m + i] | 0x20) != tail[i])
			return false;
	return true;
}

int lk_view_choose(const char *format, const char *output, const char *color, bool stdout_tty,
		   enum lk_view_format *view, struct lk_strbuf *err)
{
	enum lk_format record_format = LK_FORMAT_TEXT;
	bool to_file = output && strcmp(output, "-") != 0;
	*view = LK_VIEW_NONE;
	if (color && strcmp(color, "auto") != 0 && strcmp(color, "always") != 0 &&
	    strcmp(color, "never") != 0) {
		lk_strbuf_addf(err, "unknown --color '%s' (use auto, always or never)", color);
		return -1;
	}
	if (format) {
		if (lk_view_format_parse(format, view) == 0) {
			/* -f ansi asks for colour (NO_COLOR yields to it);
			 * --color never keeps the view's text, plain */
			if (*view == LK_VIEW_ANSI && color && strcmp(color, "never") == 0)
				*view = LK_VIEW_PLAIN;
			return 0;
		}
		if (lk_format_parse(format, &record_format) < 0) {
			struct lk_strbuf names = LK_STRBUF_INIT;
			lk_view_all_format_names(&names, " or ");
			lk_strbuf_addf(err, "unknown format '%s' (use %s)", format, names.buf);
			lk_strbuf_release(&names);
			return -1;
		}
	} else if (to_file && (ends_with(output, ".html") || ends_with(output, ".htm"))) {
		*view = LK_VIEW_HTML;
		return 0;
	} else if (to_file && ends_with(output, ".svg")) {
		*view = LK_VIEW_SVG;
		return 0;
	}
	if (record_format != LK_FORMAT_TEXT)
		return 0;
	/* https://no-color.org: a set, non-empty NO_COLOR turns colour off
	 * unless the command line asks for it. */
	const char *no_color = getenv("NO_COLOR");
	bool colour;
	if (color && strcmp(color, "always") == 0)
		colour = true;
	else if (color && strcmp(color, "never") == 0)
		colour = false;
	else
		colour = stdout_tty && !to_file && !(no_color && *no_color);
	if (colour)
		*view = LK_VIEW_ANSI;
	return 0;
}

int lk_view_draw_record(const struct lk_record *rec, struct lk_canvas *c, struct lk_strbuf *err)
{
	const struct lk_game *game = lk_game_find(lk_record_game(rec));
	struct lk_level_options opt = { 0 };
	size_t line;
	lk_canvas_reset(c);
	if (game && !game->draw) {
		lk_strbuf_addf(err, "game %s does not draw itself", game->name);
		return -1;
	}
	struct lk_level *level = lk_level_load(rec, &opt, err, &line);
	if (!level)
		return -1;
	level->game->draw(level, NULL, NULL, c);
	lk_level_free(level);
	return 0;
}

/* The game's text drawing of the record's solution (game.h's describe),
 * into out; nothing when the game has none or the record no solution. */
static void describe_record(const struct lk_record *rec, struct lk_strbuf *out)
{
	const struct lk_game *game = lk_game_find(lk_record_game(rec));
	const char *solution = lk_record_get(rec, "solution");
	if (!game || !game->describe || !solution)
		return;
	struct lk_level_options opt = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *level = lk_level_load(rec, &opt, &err, &line);
	if (level)
		level->game->describe(level, solution, out);
	lk_level_free(level);
	lk_strbuf_release(&err);
}

const char *view_record_title(const struct lk_record *rec, struct lk_strbuf *buf)
{
	const char *t = lk_record_title(rec, buf);
	if (t)
		return t;
	const char *rank = lk_record_get(rec, "rank"), *from = lk_record_get(rec, "from");
	lk_strbuf_reset(buf);
	/* the rank last: a title too long for its card is shortened in the
	 * middle, and the rank is what tells the suggestions apart */
	if (rank && *rank && from && *from)
		lk_strbuf_addf(buf, "%s, suggestion %s", from, rank);
	else if (rank && *rank)
		lk_strbuf_addf(buf, "suggestion %s", rank);
	else
		lk_strbuf_addf(buf, "record %zu", rec->number);
	return buf->buf;
}

/* ------------------------------------------------------------- writer */

struct lk_view_state {
	char *title, *note;          /* the writer's copies of the options' texts */
	struct view_page *page;
	struct view_sheet *sheet;
	struct lk_canvas canvas;
	bool started;
};

void lk_view_writer_init(struct lk_view_writer *w, FILE *fp, enum lk_view_format format,
			 const struct lk_view_options *opt)
{
	memset(w, 0, sizeof *w);
	w->fp = fp;
	w->format = format;
	if (opt)
		w->opt = *opt;
	w->st = lk_xcalloc(1, sizeof *w->st);
	lk_canvas_init(&w->st->canvas);
	if (opt && opt->title)
		w->opt.title = w->st->title = lk_xstrdup(opt->title);
	if (opt && opt->note)
		w->opt.note = w->st->note = lk_xstrdup(opt->note);
	if (format == LK_VIEW_HTML)
		w->st->page = view_page_new();
	else if (format == LK_VIEW_SVG)
		w->st->sheet = view_sheet_new();
	lk_strbuf_init(&w->buf);
}

void lk_view_writer_release(struct lk_view_writer *w)
{
	if (w->st) {
		view_page_free(w->st->page);
		view_sheet_free(w->st->sheet);
		lk_canvas_release(&w->st->canvas);
		free(w->st->title);
		free(w->st->note);
		free(w->st);
	}
	lk_strbuf_release(&w->buf);
	memset(w, 0, sizeof *w);
}

void lk_view_writer_format(struct lk_view_writer *w, const struct lk_record *rec,
			   struct lk_strbuf *out)
{
	struct lk_view_state *st = w->st;
	switch (w->format) {
	case LK_VIEW_HTML:
		if (!st->started)
			view_page_start(&w->opt, out);
		st->started = true;
		view_page_record(st->page, rec, out);
		break;
	case LK_VIEW_SVG:
		view_sheet_add(st->sheet, rec);
		break;
	case LK_VIEW_ANSI:
	case LK_VIEW_PLAIN: {
		struct lk_strbuf err = LK_STRBUF_INIT;
		bool drawn = lk_record_grid(rec, NULL) && lk_view_draw_record(rec, &st->canvas, &err) == 0;
		struct lk_strbuf description = LK_STRBUF_INIT;
		if (drawn)
			describe_record(rec, &description);
		view_ansi_record(rec, &st->canvas, drawn, description.len ? description.buf : NULL,
				 w->format == LK_VIEW_ANSI, out);
		lk_strbuf_release(&description);
		lk_strbuf_release(&err);
		break;
	}
	default:
		lk_record_write(rec, out);
		lk_strbuf_addch(out, '\n');
		break;
	}
}

static int flush_buf(struct lk_view_writer *w)
{
	if (w->buf.len && fwrite(w->buf.buf, 1, w->buf.len, w->fp) != w->buf.len)
		return -1;
	if (fflush(w->fp) != 0 || ferror(w->fp))
		return -1;
	return 0;
}

int lk_view_writer_put(struct lk_view_writer *w, const struct lk_record *rec)
{
	lk_strbuf_reset(&w->buf);
	lk_view_writer_format(w, rec, &w->buf);
	return flush_buf(w);
}

void lk_view_writer_finish_format(struct lk_view_writer *w, struct lk_strbuf *out)
{
	struct lk_view_state *st = w->st;
	if (w->format == LK_VIEW_HTML) {
		if (!st->started)
			view_page_start(&w->opt, out);
		st->started = true;
		view_page_end(out);
	} else if (w->format == LK_VIEW_SVG) {
		view_sheet_finish(st->sheet, &w->opt, out);
	}
}

int lk_view_writer_finish(struct lk_view_writer *w)
{
	lk_strbuf_reset(&w->buf);
	lk_view_writer_finish_format(w, &w->buf);
	return flush_buf(w);
}

int lk_view_write_file(const char *path, enum lk_view_format format,
		       const struct lk_view_options *opt, struct lk_record *const *recs, size_t n,
		       struct lk_strbuf *err)
{
	struct lk_view_writer w;
	struct lk_strbuf text = LK_STRBUF_INIT, tmp = LK_STRBUF_INIT;
	lk_view_writer_init(&w, NULL, format, opt);
	for (size_t i = 0; i < n; i++)
		lk_view_writer_format(&w, recs[i], &text);
	lk_view_writer_finish_format(&w, &text);
	lk_view_writer_release(&w);
	lk_strbuf_addf(&tmp, "%s.tmp%ld", path, (long)getpid());
	FILE *fp = fopen(tmp.buf, "w");
	int rc = 0;
	bool written = fp && fwrite(text.buf, 1, text.len, fp) == text.len;
	if (fp && fclose(fp) != 0)
		written = false;
	if (!written) {
		lk_strbuf_addf(err, "%s: cannot write: %s", tmp.buf, strerror(errno));
		rc = -1;
	} else if (rename(tmp.buf, path) != 0) {
		lk_strbuf_addf(err, "cannot replace %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc < 0)
		remove(tmp.buf);
	lk_strbuf_release(&text);
	lk_strbuf_release(&tmp);
	return rc;
}
