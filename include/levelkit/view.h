/*
 * view.h - pictures of levels: the view formats a command can write
 * instead of records (an HTML page, SVG, coloured text), and the writer
 * that makes them.
 *
 * Records stay the format that flows between commands; a view is an end
 * of a pipe.  Each game draws itself (game.h's draw member); the writers
 * here know no game.  See docs/viewer.md.
 *
 *  html: one self-contained page: every record drawn, with its title and
 *        fields, sortable and filterable; the pack's grade and difficulty
 *        charts; a level opens large and its solution plays back, frame by
 *        frame, the frames computed here (the page holds no game rules).
 *  svg:  one picture: a level with its title and legend, or for several
 *        levels a sheet of them all with one legend.
 *  ansi: the records as text, their grids in colour.
 */
#ifndef LEVELKIT_VIEW_H
#define LEVELKIT_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "levelkit/canvas.h"
#include "levelkit/record.h"
#include "levelkit/strbuf.h"

/* LK_VIEW_PLAIN is the ansi view without its colours: -f ansi with
 * --color never, the records with their drawings' text (a
 * laser solution's beams) as plain comment lines. */
enum lk_view_format { LK_VIEW_NONE, LK_VIEW_HTML, LK_VIEW_SVG, LK_VIEW_ANSI, LK_VIEW_PLAIN };

/* "html", "svg" or "ansi"; -1 for anything else. */
int lk_view_format_parse(const char *name, enum lk_view_format *view);
/* Every -f name, the record formats first: "text, tsv, json, sok,
 * sok-rle, html, svg or ansi" with last_sep " or ". */
void lk_view_all_format_names(struct lk_strbuf *out, const char *last_sep);

/*
 * The view a command writes, from its -f name (NULL: none given), its -o
 * path (NULL or "-": stdout), --color (NULL: auto) and whether stdout is a
 * terminal.  -f html, svg or ansi choose themselves; with no -f, an -o
 * path ending in .html or .svg chooses that; text output to a terminal is
 * coloured (ansi) unless --color never or the NO_COLOR variable is set
 * and not empty; --color always colours text wherever it goes; -f ansi
 * with --color never is LK_VIEW_PLAIN.  Sets
 * *view (LK_VIEW_NONE: write records) and returns 0, or -1 with a message.
 */
int lk_view_choose(const char *format, const char *output, const char *color, bool stdout_tty,
		   enum lk_view_format *view, struct lk_strbuf *err);

/* Draw a record's level as it stands in the record (a constraint game's
 * empty level).  0, or -1 with a message (no valid level, or a game that
 * does not draw). */
int lk_view_draw_record(const struct lk_record *rec, struct lk_canvas *c, struct lk_strbuf *err);

/* The writer keeps copies of the texts. */
struct lk_view_options {
	const char *title;       /* the page's or sheet's title; NULL: "levelkit" */
	double refresh;          /* html: reload the page every so many seconds
				  * (a file rewritten as it improves); 0 = never */
	const char *note;        /* html: a line under the title; may be NULL */
};

struct lk_view_state;

/* A writer with the shape of lk_writer; the page's and the sheet's end is
 * written by lk_view_writer_finish. */
struct lk_view_writer {
	FILE *fp;
	enum lk_view_format format;
	struct lk_view_options opt;
	struct lk_view_state *st;
	struct lk_strbuf buf;
};

void lk_view_writer_init(struct lk_view_writer *w, FILE *fp, enum lk_view_format format,
			 const struct lk_view_options *opt);
void lk_view_writer_release(struct lk_view_writer *w);
/* Format one record into out (html: its line of the page, after the
 * page's start if it is the first; svg: kept for the end; ansi: the
 * record in colour). */
void lk_view_writer_format(struct lk_view_writer *w, const struct lk_record *rec,
			   struct lk_strbuf *out);
/* Format and write one record, then flush.  0, or -1 on I/O error. */
int lk_view_writer_put(struct lk_view_writer *w, const struct lk_record *rec);
/* What ends the output: the page's end (and its start if no record came),
 * the SVG picture or sheet. */
void lk_view_writer_finish_format(struct lk_view_writer *w, struct lk_strbuf *out);
int lk_view_writer_finish(struct lk_view_writer *w);

/* Write records as a whole view file, atomically: into path.tmpPID, then
 * renamed over path, so a reader never sees half a page.  0, or -1 with
 * a message. */
int lk_view_write_file(const char *path, enum lk_view_format format,
		       const struct lk_view_options *opt, struct lk_record *const *recs, size_t n,
		       struct lk_strbuf *err);

#endif
