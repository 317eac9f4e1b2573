/*
 * sokoban_canon.c - the canonical form of a Sokoban level, for telling
 * duplicates apart (filter --dedupe, gen), and the tidy drawing of a
 * state that generators print: the same floor-and-touching-walls view.
 *
 * Two levels are the same puzzle when one is the other turned or mirrored
 * (any of the eight symmetries of the square), moved, decorated
 * differently outside its walls, or has the player elsewhere in the same
 * area.  The canonical form keeps only the playable floor and the walls
 * touching it (diagonally included), puts the player on the first square
 * of its area in reading order, and of the eight orientations takes the
 * one whose text sorts first.
 */
#include <string.h>

#include "levelkit/grid.h"
#include "sokoban.h"

/* Is cell c a floor square or a wall touching one (8-neighbourhood)? */
static bool kept(const struct sokoban *s, int c)
{
	if (!s->wall[c])
		return true;
	int x = c % s->width, y = c / s->width;
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			int nx = x + dx, ny = y + dy;
			if (nx < 0 || ny < 0 || nx >= s->width || ny >= s->height)
				continue;
			if (!s->wall[ny * s->width + nx])
				return true;
		}
	}
	return false;
}

/* The bounding box of the kept cells. */
static void kept_bounds(const struct sokoban *base, int *x0, int *y0, int *x1, int *y1)
{
	*x0 = base->width, *y0 = base->height, *x1 = -1, *y1 = -1;
	for (int c = 0; c < base->cells; c++) {
		if (!kept(base, c))
			continue;
		int x = c % base->width, y = c / base->width;
		if (x < *x0) *x0 = x;
		if (y < *y0) *y0 = y;
		if (x > *x1) *x1 = x;
		if (y > *y1) *y1 = y;
	}
}

void soko_canonical(const struct lk_level *level, struct lk_strbuf *out)
{
	const struct sokoban *s = (const struct sokoban *)level;
	const struct sokoban *base = s->forward ? s->forward : s;
	int x0, y0, x1, y1;
	kept_bounds(base, &x0, &y0, &x1, &y1);
	/* The player's area, with the boxes where they start. */
	size_t n = (size_t)base->cells;
	uint8_t *box = lk_xcalloc(n, 1), *area = lk_xcalloc(n, 1);
	int *stack = lk_xmalloc(n * sizeof *stack), sp = 0;
	for (int i = 0; i < base->nfloor; i++)
		box[base->cell_of[i]] = soko_bit(base->box0, i);
	area[base->player0] = 1;
	stack[sp++] = base->player0;
	while (sp > 0) {
		int c = stack[--sp];
		for (int d = 0; d < 4; d++) {
			int nc = c + base->off[d];
			if (base->wall[nc] || box[nc] || area[nc])
				continue;
			area[nc] = 1;
			stack[sp++] = nc;
		}
	}
	free(stack);

	struct lk_grid board, marks;
	lk_grid_init(&board, x1 - x0 + 1, y1 - y0 + 1, ' ');
	lk_grid_init(&marks, x1 - x0 + 1, y1 - y0 + 1, ' ');
	for (int y = y0; y <= y1; y++) {
		for (int x = x0; x <= x1; x++) {
			int c = y * base->width + x;
			char ch = ' ';
			if (!kept(base, c))
				ch = ' ';
			else if (base->wall[c])
				ch = '#';
			else if (box[c])
				ch = base->goal[c] ? '*' : '$';
			else if (base->goal[c])
				ch = '.';
			lk_grid_set(&board, x - x0, y - y0, ch);
			if (area[c])
				lk_grid_set(&marks, x - x0, y - y0, 'a');
		}
	}
	free(box);
	free(area);

	struct lk_strbuf best = LK_STRBUF_INIT, text = LK_STRBUF_INIT;
	for (int sym = 0; sym < LK_SYM_COUNT; sym++) {
		struct lk_grid tb, tm;
		lk_grid_transform(&tb, &board, sym);
		lk_grid_transform(&tm, &marks, sym);
		size_t cells = (size_t)tb.width * (size_t)tb.height;
		for (size_t i = 0; i < cells; i++) {
			if (tm.cells[i] == 'a') {
				tb.cells[i] = tb.cells[i] == '.' ? '+' : '@';
				break;
			}
		}
		lk_strbuf_reset(&text);
		lk_grid_write(&tb, &text, ' ');
		if (sym == 0 || strcmp(text.buf, best.buf) < 0) {
			lk_strbuf_reset(&best);
			lk_strbuf_add(&best, text.buf, text.len);
		}
		lk_grid_release(&tb);
		lk_grid_release(&tm);
	}
	lk_strbuf_add(out, best.buf, best.len);
	lk_strbuf_release(&best);
	lk_strbuf_release(&text);
	lk_grid_release(&board);
	lk_grid_release(&marks);
}

void soko_write_tidy(const struct lk_level *level, const void *key, struct lk_strbuf *out)
{
	const struct sokoban *s = (const struct sokoban *)level;
	const struct sokoban *base = s->forward ? s->forward : s;
	const uint8_t *k = key;
	unsigned pk = soko_key_player(k);
	int player = pk == SOKO_ANYWHERE ? -1 : base->cell_of[pk];
	int x0, y0, x1, y1;
	kept_bounds(base, &x0, &y0, &x1, &y1);
	for (int y = y0; y <= y1; y++) {
		size_t start = out->len;
		for (int x = x0; x <= x1; x++) {
			int c = y * base->width + x;
			char ch = ' ';
			if (!kept(base, c))
				ch = ' ';
			else if (base->wall[c])
				ch = base->board[c] == '*' ? '*' : '#';
			else if (soko_bit(k + 2, base->compact[c]))
				ch = base->goal[c] ? '*' : '$';
			else if (c == player)
				ch = base->goal[c] ? '+' : '@';
			else if (base->goal[c])
				ch = '.';
			lk_strbuf_addch(out, ch);
		}
		while (out->len > start && out->buf[out->len - 1] == ' ')
			out->len--;
		out->buf[out->len] = '\0';
		lk_strbuf_addch(out, '\n');
	}
}

void soko_write_tidy_start(const struct lk_level *level, struct lk_strbuf *out)
{
	const struct sokoban *s = (const struct sokoban *)level;
	uint8_t *key = lk_xcalloc(1, s->base.key_size);
	memcpy(key + 2, s->box0, s->bitset_bytes);
	soko_key_set_player(key, (unsigned)s->compact[s->player0]);
	soko_write_tidy(level, key, out);
	free(key);
}
