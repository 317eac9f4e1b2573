/*
 * canvas.h - a picture recorded as primitives in cell units: what a game
 * draws itself on (game.h's draw member), and what the view writers turn
 * into SVG, coloured text or the frames of the HTML page.
 *
 * A game draws with a handful of primitives (rectangles, circles,
 * polygons, lines, centred text) and with symbols: a drawing in the unit
 * cell, defined once under a name and placed at any cell, turned by
 * quarter turns.  A symbol with a label is a legend entry, so the legend
 * of a picture is exactly the symbols it uses.  Coordinates are in cells
 * (x to the right, y down, the record's grid cell (x, y) being the square
 * [x, x+1] x [y, y+1]) and are stored as integers in 1/LK_CANVAS_UNIT of
 * a cell, which keeps the output compact and exact.
 *
 * Drawing a solution frame by frame repeats what does not change, so a
 * game wraps what depends only on the level (walls, floor, goals) in
 * lk_canvas_begin_board / lk_canvas_end_board: after the first frame the
 * canvas asks for the board no more.  Layers order what overlaps (0 the
 * ground, 1 marks on it, 2 pieces, 3 what goes over pieces); a game with
 * more depth than that (PuzzleScript's collision layers) numbers its own,
 * up to LK_CANVAS_LAYERS - 1.  Within a layer, what is drawn first is
 * under; a solution's frames keep that order only within a frame, so
 * things that can overlap in one cell belong in different layers.  The
 * ground's rectangles and symbols are what the coloured text view takes
 * as a cell's background colour.
 */
#ifndef LEVELKIT_CANVAS_H
#define LEVELKIT_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LK_CANVAS_UNIT 24           /* stored units per cell */
#define LK_CANVAS_LAYERS 32

enum { LK_LAYER_GROUND, LK_LAYER_MARKS, LK_LAYER_PIECES, LK_LAYER_OVER };

/*
 * How a primitive is painted.  Zero-initialised: filled black, no
 * stroke.  Colours are 0xRRGGBB.  Games keep their paints in static const
 * tables; the canvas copies what it needs.
 */
struct lk_paint {
	uint32_t fill;
	bool hollow;           /* no fill */
	uint32_t stroke;
	double width;          /* stroke width in cells; 0 = no stroke */
	bool dashed;
	bool bold;             /* text */
};

enum lk_prim_kind { LK_PRIM_RECT, LK_PRIM_CIRCLE, LK_PRIM_POLY, LK_PRIM_LINE, LK_PRIM_TEXT, LK_PRIM_USE };

/* One recorded primitive (for the writers; games use the functions). */
struct lk_prim {
	uint8_t kind;          /* enum lk_prim_kind */
	uint8_t layer;
	bool board;            /* drawn between begin_board and end_board */
	uint16_t ref;          /* paint index, or for LK_PRIM_USE the symbol index */
	int32_t v[5];          /* rect x y w h rx; circle cx cy r; line x1 y1 x2 y2;
				* text x y size; use x y quarter-turns;
				* poly: v[0] points at points[v[1] ...] */
	uint32_t text;         /* text: offset into the canvas's text pool */
};

struct lk_symbol {
	char *name;            /* unique in a canvas, e.g. "sokoban.box" */
	const char *given;     /* the pointer the name came as (a quick match) */
	char *label;           /* legend text, or NULL (not in the legend) */
	size_t first, count;   /* its primitives in sym_prims */
	bool used;             /* placed at least once */
};

struct lk_canvas {
	int width, height;               /* cells */
	struct lk_prim *prims;           /* the picture, in drawing order */
	size_t nprims, prims_alloc;
	struct lk_prim *sym_prims;       /* symbols' drawings, in unit cells */
	size_t nsym_prims, sym_prims_alloc;
	struct lk_symbol *symbols;
	size_t nsymbols, symbols_alloc;
	struct lk_paint *paints;
	size_t npaints, paints_alloc;
	const struct lk_paint **paint_ptrs;   /* cache: the pointer each paint came from */
	int32_t *points;                 /* polygon coordinates */
	size_t npoints, points_alloc;
	char *text;                      /* NUL-separated text pool */
	size_t ntext, text_alloc;
	/* drawing state */
	int layer;
	bool in_board;
	long defining;                   /* symbol being defined, or -1 */
	bool skip_board;                 /* set by the caller: board already drawn */
};

void lk_canvas_init(struct lk_canvas *c);
void lk_canvas_release(struct lk_canvas *c);
/* Forget everything (for another level). */
void lk_canvas_reset(struct lk_canvas *c);
/* Forget the primitives but keep the size, paints and symbols (for the
 * next frame of the same level). */
void lk_canvas_clear(struct lk_canvas *c);

/* ---- for games ---- */

void lk_canvas_size(struct lk_canvas *c, int width, int height);
void lk_canvas_layer(struct lk_canvas *c, int layer);
/* Start drawing what depends only on the level.  Returns false when the
 * caller already has it (frames after the first): then draw none of it
 * and do not call lk_canvas_end_board. */
bool lk_canvas_begin_board(struct lk_canvas *c);
void lk_canvas_end_board(struct lk_canvas *c);

void lk_canvas_rect(struct lk_canvas *c, double x, double y, double w, double h,
		    const struct lk_paint *p);
void lk_canvas_round_rect(struct lk_canvas *c, double x, double y, double w, double h,
			  double radius, const struct lk_paint *p);
void lk_canvas_circle(struct lk_canvas *c, double cx, double cy, double r, const struct lk_paint *p);
/* A closed polygon of n points (xy holds 2n coordinates). */
void lk_canvas_poly(struct lk_canvas *c, const double *xy, int n, const struct lk_paint *p);
/* A stroked line (the paint's stroke and width). */
void lk_canvas_line(struct lk_canvas *c, double x1, double y1, double x2, double y2,
		    const struct lk_paint *p);
/* Text centred on (x, y), size in cells (ASCII; other bytes become '?'). */
void lk_canvas_text(struct lk_canvas *c, double x, double y, double size, const struct lk_paint *p,
		    const char *text);

/* Define a symbol: returns true when it is not yet defined, and the calls
 * up to lk_canvas_end_symbol then draw it in the unit cell; false when it
 * already is (draw nothing, do not call end).  label: its legend entry,
 * or NULL. */
bool lk_canvas_begin_symbol(struct lk_canvas *c, const char *name, const char *label);
void lk_canvas_end_symbol(struct lk_canvas *c);
/* Place a defined symbol with its unit cell's corner at (x, y), turned
 * clockwise by quarter_turns about the cell's centre. */
void lk_canvas_use(struct lk_canvas *c, const char *name, double x, double y, int quarter_turns);
/* Mark a defined symbol as part of the legend although it is not placed
 * (a symbol that only explains, such as a ray). */
void lk_canvas_legend_only(struct lk_canvas *c, const char *name);

/* ---- for writers ---- */

/* The text of a text primitive. */
static inline const char *lk_canvas_text_of(const struct lk_canvas *c, const struct lk_prim *p)
{
	return c->text + p->text;
}
/* Index of a symbol by name, or -1. */
long lk_canvas_find_symbol(const struct lk_canvas *c, const char *name);

#endif
