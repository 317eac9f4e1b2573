/*
 * view_internal.h - what the view writers share: the dictionary of paints
 * and symbols a page or a sheet defines once, the compact encoding of
 * primitives the page's script draws from, SVG elements, and films (the
 * frames of a record).
 */
#ifndef LEVELKIT_VIEW_INTERNAL_H
#define LEVELKIT_VIEW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/canvas.h"
#include "levelkit/record.h"
#include "levelkit/strbuf.h"
#include "levelkit/view.h"

/* ------------------------------------------------------------ dictionary */

struct view_symbol {
	char *key;               /* name, '\n', encoded drawing: equal keys are one symbol */
	char *name, *label;
	char *code;              /* encoded primitives (page) */
	char *svg;               /* SVG elements (svg writer) */
};

/* The paints and symbols of a whole page or sheet, each numbered once. */
struct view_dict {
	struct lk_paint *paints;
	size_t npaints, paints_alloc;
	struct view_symbol *symbols;
	size_t nsymbols, symbols_alloc;
	size_t paints_sent, symbols_sent;   /* page: already written */
};

void view_dict_init(struct view_dict *d);
void view_dict_release(struct view_dict *d);

/* A canvas's paints and symbols as dictionary numbers, kept up to date
 * while the canvas grows (one level: its frames add paints and symbols). */
struct view_map {
	size_t *paint, *symbol;
	size_t npaints, nsymbols, paints_alloc, symbols_alloc;
};

void view_map_init(struct view_map *m);
void view_map_release(struct view_map *m);
void view_map_update(struct view_map *m, struct view_dict *d, const struct lk_canvas *c);

/* The attributes of a paint: fill="#e69f00" stroke=... (units). */
void view_paint_attrs(const struct lk_paint *p, struct lk_strbuf *out);

/* Encode one primitive for the page's script (dictionary numbers):
 *   r X,Y,W,H,PAINT[,RX]   c CX,CY,R,PAINT   p PAINT,X0,Y0,X1,Y1,...
 *   l X1,Y1,X2,Y2,PAINT    t X,Y,SIZE,PAINT,TEXT   u SYMBOL,X,Y[,TURNS]
 * in canvas units. */
void view_encode_prim(const struct lk_canvas *c, const struct lk_prim *p, const struct view_map *m,
		      struct lk_strbuf *out);
/* One SVG element for a primitive; symbols are referred to as
 * id_prefix + dictionary number. */
void view_svg_prim(const struct lk_canvas *c, const struct lk_prim *p, const struct view_map *m,
		   const struct view_dict *d, const char *href, const char *id_prefix,
		   struct lk_strbuf *out);

/* s shortened to at most max_chars characters (UTF-8) by an ellipsis in
 * its middle, keeping more of its end, which tells the levels of a pack
 * apart ("Boxoban medi…000.txt #17"); s itself when it fits. */
void view_middle_cut(const char *s, size_t max_chars, struct lk_strbuf *out);

/* A record's name on a card or a sheet: its title; else, for one of gen
 * --suggest's suggestions, its rank and where it comes from ("suggestion
 * 2 from mine.xsb record 1"); else "record N".  In buf. */
const char *view_record_title(const struct lk_record *rec, struct lk_strbuf *buf);

/* XML text (escapes & < > " '). */
void view_xml_escape(struct lk_strbuf *out, const char *s);
/* A JSON string, quotes included; '<' is escaped too, so that the text can
 * stand inside an HTML script element. */
void view_json_string(struct lk_strbuf *out, const char *s);

/* ------------------------------------------------------------------ films */

enum film_solution {
	FILM_NO_SOLUTION,        /* the record has no solution field */
	FILM_SOLVED,             /* it plays back to a solved position */
	FILM_UNSOLVED,           /* legal moves that do not solve the level */
	FILM_BAD                 /* it cannot be played (message in note) */
};

/* A record's frames: every primitive any frame draws once, in drawing
 * order (the atlas), the first frame as a set of atlas numbers, and for
 * each later frame the numbers that appear or disappear. */
struct film {
	bool drawn;                  /* there is a picture (else note says why) */
	int width, height;           /* cells */
	size_t nframes;
	size_t natlas;
	int id_width;                /* characters per atlas number */
	struct lk_strbuf atlas;      /* encoded primitives, ';'-separated */
	struct lk_strbuf first;      /* the first frame's numbers */
	struct lk_strbuf steps;      /* the changes of each later frame, '.'-separated */
	enum film_solution solution;
	struct lk_strbuf note;
	size_t *legend;              /* dictionary symbols with a label the frames use */
	size_t nlegend, legend_alloc;
};

struct film_maker;   /* reusable working memory (film.c) */

struct film_maker *film_maker_new(void);
void film_maker_free(struct film_maker *fm);
void film_init(struct film *f);
void film_release(struct film *f);
/* Make the film of a level record: its start and, when it has a solution
 * field, every state the solution passes through (a constraint game: the
 * empty level and the placement). */
void film_make(struct film_maker *fm, const struct lk_record *rec, struct view_dict *d,
	       struct film *f);

/* Characters of the page's numbers: A-Z a-z 0-9 - _, id_width each. */
void film_put_id(struct lk_strbuf *out, size_t id, int width);

/* ---------------------------------------------------------------- writers */

/* The canvas as a standalone SVG picture's body (symbols used, then the
 * primitives), offset by (ox, oy) units; defs and legend are the
 * caller's. */
void view_svg_body(const struct lk_canvas *c, const struct view_map *m, const struct view_dict *d,
		   int32_t ox, int32_t oy, struct lk_strbuf *out);

/* The record in text, its grid coloured from the canvas (which holds the
 * record's drawing, or is empty), then the game's description of its
 * solution (game.h's describe; NULL: none) as dim comment lines; without
 * colour (LK_VIEW_PLAIN) the same text without escape sequences. */
void view_ansi_record(const struct lk_record *rec, const struct lk_canvas *c, bool drawn,
		      const char *description, bool colour, struct lk_strbuf *out);

/* The page (page.c): its start, one line of data per record (after the
 * paints and symbols it brings), its end. */
struct view_page;
struct view_page *view_page_new(void);
void view_page_free(struct view_page *pg);
void view_page_start(const struct lk_view_options *opt, struct lk_strbuf *out);
void view_page_record(struct view_page *pg, const struct lk_record *rec, struct lk_strbuf *out);
void view_page_end(struct lk_strbuf *out);

/* The SVG picture or sheet (sheet.c): records are drawn as they come, the
 * picture written at the end. */
struct view_sheet;
struct view_sheet *view_sheet_new(void);
void view_sheet_free(struct view_sheet *sh);
void view_sheet_add(struct view_sheet *sh, const struct lk_record *rec);
void view_sheet_finish(struct view_sheet *sh, const struct lk_view_options *opt,
		       struct lk_strbuf *out);

#endif
