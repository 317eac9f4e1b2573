/*
 * ps_draw.h - PuzzleScript levels drawn with the game's own sprites and
 * colours (ps_draw.c), and the colour names of the reference engine's
 * palettes (ps_palette.c).
 */
#ifndef LEVELKIT_PS_DRAW_H
#define LEVELKIT_PS_DRAW_H

#include <stdint.h>

struct lk_canvas;
struct ps_game;

/* What a colour as a script writes it stands for. */
enum ps_color_kind {
	PS_COLOR_RGB,          /* *rgb holds 0xRRGGBB */
	PS_COLOR_TRANSPARENT,  /* "transparent": nothing is drawn */
	PS_COLOR_INVALID       /* neither a name nor #rgb / #rrggbb */
};

/* The colour `color` (a name of the reference's palettes, #rgb,
 * #rrggbb or "transparent", any case) under the palette `palette` (the
 * color_palette flag: a name or its number 1-14; NULL, or a palette the
 * reference does not know, is "arnecolors", as there). */
enum ps_color_kind ps_color_rgb(const char *palette, const char *color, uint32_t *rgb);
/* The palette's canonical name ("arnecolors" when it is unknown). */
const char *ps_palette_name(const char *palette);

/*
 * Draw a map's cells (column-major, x * height + y, as ps_cells gives
 * them) on the canvas, one canvas cell per map cell: the background
 * colour behind everything, then each cell's objects in the reference's
 * order (by object number, which is collision layer by collision
 * layer), each its 5x5 sprite.  Objects no rule can change are the
 * canvas's board.  Every object is a symbol labelled with its name (and
 * its legend character when one stands for it alone).
 */
void ps_draw_cells(const struct ps_game *g, int width, int height, const uint64_t *cells,
		   struct lk_canvas *c);

#endif
