/*
 * grid.h - the rectangular character grid every game is drawn on.
 *
 * A grid is what the text format's grid block decodes to: rows padded with
 * a fill character to the width of the longest row.  Games interpret the
 * characters; the grid itself only knows geometry: directions, neighbours,
 * flood fills and the eight board symmetries.
 */
#ifndef LEVELKIT_GRID_H
#define LEVELKIT_GRID_H

#include <stdbool.h>
#include <stddef.h>

#include "levelkit/strbuf.h"

/* Largest accepted side, so cell indices always fit in 16 bits. */
#define LK_GRID_MAX_SIDE 250

/* The four orthogonal directions come first, in LURD-friendly order, then
 * the four diagonals (for ray games).  dx/dy use screen coordinates. */
enum lk_dir {
	LK_UP, LK_RIGHT, LK_DOWN, LK_LEFT,
	LK_UP_RIGHT, LK_DOWN_RIGHT, LK_DOWN_LEFT, LK_UP_LEFT,
	LK_DIR_COUNT
};
extern const int lk_dir_dx[LK_DIR_COUNT];
extern const int lk_dir_dy[LK_DIR_COUNT];
/* The opposite of an orthogonal or diagonal direction (inline: ray and
 * slide simulators call it in their inner loops). */
static inline enum lk_dir lk_dir_opposite(enum lk_dir d)
{
	return (enum lk_dir)(d < 4 ? (d + 2) % 4 : 4 + (d - 4 + 2) % 4);
}
/* 'u', 'r', 'd', 'l' for the orthogonal directions. */
extern const char lk_dir_letter[4];

struct lk_grid {
	int width, height;
	char *cells;      /* width * height bytes, row-major, no terminators */
};

#define LK_GRID_INIT { 0, 0, NULL }

void lk_grid_init(struct lk_grid *g, int width, int height, char fill);
void lk_grid_release(struct lk_grid *g);
void lk_grid_copy(struct lk_grid *dst, const struct lk_grid *src);

static inline char lk_grid_get(const struct lk_grid *g, int x, int y)
{
	return g->cells[(size_t)y * (size_t)g->width + (size_t)x];
}
static inline void lk_grid_set(struct lk_grid *g, int x, int y, char c)
{
	g->cells[(size_t)y * (size_t)g->width + (size_t)x] = c;
}
static inline bool lk_grid_inside(const struct lk_grid *g, int x, int y)
{
	return x >= 0 && y >= 0 && x < g->width && y < g->height;
}

/* Options for decoding text rows into a grid. */
struct lk_grid_parse {
	char fill;           /* pads short rows */
	bool run_length;     /* expand "3#" style runs and split rows at '|' */
};

/*
 * Decode rows (not NUL-separated; each rows[i] is a C string without its
 * newline) into g.  Trailing '\r' is ignored.  On failure returns -1 and
 * writes a message to err, with *bad_row set to the offending row.
 */
int lk_grid_parse_rows(struct lk_grid *g, const char *const *rows, size_t nrows,
		       const struct lk_grid_parse *opt, struct lk_strbuf *err,
		       size_t *bad_row);

/* Append the grid as text rows, each ending in '\n'; trailing fill
 * characters are trimmed when trim_fill is set. */
void lk_grid_write(const struct lk_grid *g, struct lk_strbuf *out, char trim_fill);

/* Like lk_grid_write, with rows and columns that are all blank (' ') at
 * the edges left out: the grid's text up to translation. */
void lk_grid_write_trimmed(const struct lk_grid *g, struct lk_strbuf *out);

/* The eight symmetries of the square (identity first).  Applying symmetry s
 * to a w*h grid gives a grid of lk_grid_sym_size(); transpose swaps sides. */
enum { LK_SYM_COUNT = 8 };
void lk_grid_transform(struct lk_grid *dst, const struct lk_grid *src, int sym);

#endif
