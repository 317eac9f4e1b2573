/*
 * fruit_gen.c - the Fruit Dating generator as its article describes it
 * (SBC Games 2014, section 4):
 *
 *  1. a solid border;
 *  2. walls drawn from random border cells, one tile at a time or two with
 *     a random symmetry (mirror across, mirror down, quarter turn, or
 *     combinations), each wall in parts that branch off at right angles,
 *     every part shorter than the last (length drawn from 0 to the last
 *     length - 1; 0 ends the wall);
 *  3. inner walls: from a random free tile, in a random direction, tiles
 *     whose 3x3 surroundings are free, placed all at once when the walk
 *     stops;
 *  4. only the largest connected area is kept;
 *  5. fruit placed by weights fixed once per level: corridor end 6 +
 *     rand(3), corner 3 + rand(3), corridor 2, open floor 1; obstacles by
 *     their own weights and a random density; hedgehogs and anteaters never
 *     in corridors.
 *
 * Solving, dead ends and thresholds are left to the generation loop.
 * Parameters: pairs=N (1-3 at random), colours=N (one per pair), stones=N
 * (density 0-12 % at random), mud=N, hedgehogs=N, anteaters=N, oneways=N
 * (all 0).
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/generate.h"
#include "levelkit/grid.h"

struct fruit_gen {
	long pairs, colours, stones, mud, hedgehogs, anteaters, oneways;
	int w, h;
};

static const char *const fruit_params[] = { "pairs", "colours", "stones", "mud", "hedgehogs",
					    "anteaters", "oneways", NULL };

static void *fruit_new(const struct lk_gen_options *o, struct lk_strbuf *err)
{
	struct fruit_gen *f = lk_xcalloc(1, sizeof *f);
	f->w = o->width ? o->width : 8;
	f->h = o->height ? o->height : 8;
	for (size_t i = 0; i < o->nparams; i++) {
		bool known = false;
		for (size_t k = 0; fruit_params[k]; k++)
			known |= strcmp(o->param_keys[i], fruit_params[k]) == 0;
		if (!known) {
			lk_strbuf_addf(err, "generator random (fruit) has no parameter '%s'", o->param_keys[i]);
			goto fail;
		}
	}
	if (f->w < 4 || f->h < 4 || f->w > 16 || f->h > 16) {
		lk_strbuf_addf(err, "--size %dx%d: fruit boards are 4x4 to 16x16", f->w, f->h);
		goto fail;
	}
	if (lk_gen_param_int(o, "pairs", 0, 1, 12, &f->pairs, err) < 0 ||
	    lk_gen_param_int(o, "colours", 0, 1, 12, &f->colours, err) < 0 ||
	    lk_gen_param_int(o, "stones", -1, 0, 100, &f->stones, err) < 0 ||
	    lk_gen_param_int(o, "mud", 0, 0, 20, &f->mud, err) < 0 ||
	    lk_gen_param_int(o, "hedgehogs", 0, 0, 20, &f->hedgehogs, err) < 0 ||
	    lk_gen_param_int(o, "anteaters", 0, 0, 20, &f->anteaters, err) < 0 ||
	    lk_gen_param_int(o, "oneways", 0, 0, 20, &f->oneways, err) < 0)
		goto fail;
	return f;
fail:
	free(f);
	return NULL;
}

/* ------------------------------------------------------------- walls */

struct painter {
	struct lk_grid *g;
	int sym;          /* -1: one tile at a time; else bit 0 mirror x, bit 1 mirror y, bit 2 turn */
};

static void put_wall(struct painter *p, int x, int y)
{
	struct lk_grid *g = p->g;
	if (x < 1 || y < 1 || x > g->width - 2 || y > g->height - 2)
		return;
	lk_grid_set(g, x, y, '#');
	if (p->sym < 0)
		return;
	int tx = x, ty = y;
	if (p->sym & 4) {          /* quarter turn (square boards only) */
		int t = tx;
		tx = g->width - 1 - ty;
		ty = t;
	}
	if (p->sym & 1)
		tx = g->width - 1 - tx;
	if (p->sym & 2)
		ty = g->height - 1 - ty;
	if (tx >= 1 && ty >= 1 && tx <= g->width - 2 && ty <= g->height - 2)
		lk_grid_set(g, tx, ty, '#');
}

/* A wall from the border: parts that branch at right angles and shrink. */
static void draw_wall(struct painter *p, struct lk_rng *rng)
{
	struct lk_grid *g = p->g;
	int w = g->width, h = g->height, side = (int)lk_rng_below(rng, 4), x, y, dir;
	switch (side) {
	case 0: x = 1 + (int)lk_rng_below(rng, (uint32_t)(w - 2)); y = 0; dir = LK_DOWN; break;
	case 1: x = w - 1; y = 1 + (int)lk_rng_below(rng, (uint32_t)(h - 2)); dir = LK_LEFT; break;
	case 2: x = 1 + (int)lk_rng_below(rng, (uint32_t)(w - 2)); y = h - 1; dir = LK_UP; break;
	default: x = 0; y = 1 + (int)lk_rng_below(rng, (uint32_t)(h - 2)); dir = LK_RIGHT; break;
	}
	int max = (dir == LK_UP || dir == LK_DOWN ? h : w) - 3;
	int len = 1 + (int)lk_rng_below(rng, (uint32_t)(max > 1 ? max : 1));
	for (;;) {
		int px[32], py[32], n = 0;
		for (int i = 1; i <= len && n < 32; i++) {
			int cx = x + lk_dir_dx[dir] * i, cy = y + lk_dir_dy[dir] * i;
			if (cx < 1 || cy < 1 || cx > w - 2 || cy > h - 2)
				break;
			put_wall(p, cx, cy);
			px[n] = cx;
			py[n++] = cy;
		}
		if (!n)
			return;
		int next = (int)lk_rng_below(rng, (uint32_t)len);   /* 0 .. len - 1 */
		if (next == 0)
			return;
		int k = (int)lk_rng_below(rng, (uint32_t)n);
		x = px[k];
		y = py[k];
		dir = (dir + (lk_rng_below(rng, 2) ? 1 : 3)) % 4;   /* turn left or right */
		len = next;
	}
}

static bool free_3x3(const struct lk_grid *g, int x, int y)
{
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			int cx = x + dx, cy = y + dy;
			if (!lk_grid_inside(g, cx, cy) || lk_grid_get(g, cx, cy) != ' ')
				return false;
		}
	}
	return true;
}

/* An inner wall: a straight walk over tiles with free surroundings. */
static void draw_inner(struct painter *p, struct lk_rng *rng)
{
	struct lk_grid *g = p->g;
	int dir = (int)lk_rng_below(rng, 4);
	int x = 1 + (int)lk_rng_below(rng, (uint32_t)(g->width - 2));
	int y = 1 + (int)lk_rng_below(rng, (uint32_t)(g->height - 2));
	int planned[64], n = 0;
	/* Placing as we go would spoil the next tile's surroundings, so the
	 * tiles are collected and placed when the walk stops. */
	while (n < 64 && lk_grid_inside(g, x, y) && free_3x3(g, x, y)) {
		planned[n++] = y * g->width + x;
		x += lk_dir_dx[dir];
		y += lk_dir_dy[dir];
	}
	for (int i = 0; i < n; i++)
		put_wall(p, planned[i] % g->width, planned[i] / g->width);
}

/* Fill every free area but the largest with walls; returns its size. */
static int keep_largest(struct lk_grid *g)
{
	int n = g->width * g->height, best = -1, best_size = 0;
	int *area = lk_xmalloc((size_t)n * sizeof *area), *stack = lk_xmalloc((size_t)n * sizeof *stack);
	for (int c = 0; c < n; c++)
		area[c] = -1;
	for (int c = 0; c < n; c++) {
		if (g->cells[c] != ' ' || area[c] >= 0)
			continue;
		int sp = 0, size = 0;
		area[c] = c;
		stack[sp++] = c;
		while (sp > 0) {
			int x = stack[--sp];
			size++;
			for (int d = 0; d < 4; d++) {
				int nx = x % g->width + lk_dir_dx[d], ny = x / g->width + lk_dir_dy[d];
				if (!lk_grid_inside(g, nx, ny))
					continue;
				int y = ny * g->width + nx;
				if (g->cells[y] == ' ' && area[y] < 0) {
					area[y] = c;
					stack[sp++] = y;
				}
			}
		}
		if (size > best_size) {
			best_size = size;
			best = c;
		}
	}
	for (int c = 0; c < n; c++)
		if (g->cells[c] == ' ' && area[c] != best)
			g->cells[c] = '#';
	free(area);
	free(stack);
	return best_size;
}

/* ------------------------------------------------------------ objects */

enum { SPOT_OPEN, SPOT_CORRIDOR, SPOT_CORNER, SPOT_END };

static int spot_kind(const struct lk_grid *g, int c)
{
	int x = c % g->width, y = c / g->width;
	bool wall[4];
	int walls = 0;
	for (int d = 0; d < 4; d++) {
		char ch = lk_grid_get(g, x + lk_dir_dx[d], y + lk_dir_dy[d]);
		wall[d] = ch == '#';
		walls += wall[d];
	}
	if (walls >= 3)
		return SPOT_END;
	if (walls == 2)
		return (wall[0] && wall[2]) || (wall[1] && wall[3]) ? SPOT_CORRIDOR : SPOT_CORNER;
	return SPOT_OPEN;
}

/* A free cell drawn with the given weight per kind of spot; -1 if none. */
static int weighted_pick(const struct lk_grid *g, const int *kind, const unsigned weight[4],
			 struct lk_rng *rng)
{
	unsigned total = 0;
	for (int c = 0; c < g->width * g->height; c++)
		if (g->cells[c] == ' ')
			total += weight[kind[c]];
	if (!total)
		return -1;
	unsigned r = lk_rng_below(rng, total);
	for (int c = 0; c < g->width * g->height; c++) {
		if (g->cells[c] != ' ')
			continue;
		if (r < weight[kind[c]])
			return c;
		r -= weight[kind[c]];
	}
	return -1;
}

/* Is cell c next to a cell holding ch? */
static bool touches(const struct lk_grid *g, int c, char ch)
{
	for (int d = 0; d < 4; d++) {
		int x = c % g->width + lk_dir_dx[d], y = c / g->width + lk_dir_dy[d];
		if (lk_grid_inside(g, x, y) && lk_grid_get(g, x, y) == ch)
			return true;
	}
	return false;
}

static int fruit_candidate(struct lk_gen_worker *w, const struct lk_gen_options *o,
			   struct lk_rng *rng, struct lk_record *rec, enum lk_reject *why)
{
	(void)o;
	const struct fruit_gen *f = w->state;
	struct lk_grid g;
	lk_grid_init(&g, f->w, f->h, ' ');
	for (int x = 0; x < f->w; x++) {
		lk_grid_set(&g, x, 0, '#');
		lk_grid_set(&g, x, f->h - 1, '#');
	}
	for (int y = 0; y < f->h; y++) {
		lk_grid_set(&g, 0, y, '#');
		lk_grid_set(&g, f->w - 1, y, '#');
	}
	struct painter p = { &g, -1 };
	if (lk_rng_below(rng, 2)) {
		p.sym = 1 + (int)lk_rng_below(rng, f->w == f->h ? 7 : 3);
	}
	int walls = 1 + (int)lk_rng_below(rng, 4), inner = (int)lk_rng_below(rng, 3);
	for (int i = 0; i < walls; i++)
		draw_wall(&p, rng);
	for (int i = 0; i < inner; i++)
		draw_inner(&p, rng);
	int area = keep_largest(&g);

	int *kind = lk_xmalloc((size_t)f->w * (size_t)f->h * sizeof *kind);
	for (int c = 0; c < f->w * f->h; c++)
		kind[c] = g.cells[c] == ' ' ? spot_kind(&g, c) : SPOT_OPEN;
	/* weights fixed once per level */
	unsigned fruit_w[4] = { 1, 2, 3 + lk_rng_below(rng, 3), 6 + lk_rng_below(rng, 3) };
	unsigned stone_w[4] = { 3, 3, 2, 1 };
	unsigned beast_w[4] = { 1, 0, 3, 3 };   /* hedgehogs, anteaters: not in corridors */
	long pairs = f->pairs ? f->pairs : 1 + (long)lk_rng_below(rng, 3);
	long colours = f->colours ? f->colours : pairs;
	*why = LK_REJECT_INVALID;
	int rc = -1;
	if (area < 2 * pairs + 2)
		goto out;
	for (long i = 0; i < pairs; i++) {
		char ch = (char)('a' + i % colours);
		for (int k = 0; k < 2; k++) {
			int c = -1;
			/* fruit that touch a fruit of their colour would be matched
			 * by any first move: draw again a few times */
			for (int tries = 0; tries < 8; tries++) {
				c = weighted_pick(&g, kind, fruit_w, rng);
				if (c < 0 || !touches(&g, c, ch))
					break;
			}
			if (c < 0 || touches(&g, c, ch))
				goto out;
			g.cells[c] = ch;
		}
	}
	long stones = f->stones >= 0 ? f->stones : (long)(area * 0.12 * lk_rng_double(rng));
	for (long i = 0; i < stones; i++) {
		int c = weighted_pick(&g, kind, stone_w, rng);
		if (c >= 0)
			g.cells[c] = 'O';
	}
	static const unsigned one[4] = { 1, 1, 1, 1 };
	for (long i = 0; i < f->mud; i++) {
		int c = weighted_pick(&g, kind, one, rng);
		if (c >= 0)
			g.cells[c] = '~';
	}
	for (long i = 0; i < f->hedgehogs; i++) {
		int c = weighted_pick(&g, kind, beast_w, rng);
		if (c >= 0)
			g.cells[c] = 'H';
	}
	for (long i = 0; i < f->anteaters; i++) {
		int c = weighted_pick(&g, kind, beast_w, rng);
		if (c >= 0)
			g.cells[c] = "NESW"[lk_rng_below(rng, 4)];
	}
	struct lk_strbuf text = LK_STRBUF_INIT, ways = LK_STRBUF_INIT;
	lk_grid_write(&g, &text, '\0');
	lk_record_set_grid(rec, text.buf);
	for (long i = 0; i < f->oneways; i++) {
		int c = weighted_pick(&g, kind, one, rng), d = (int)lk_rng_below(rng, 4);
		if (c >= 0)
			lk_strbuf_addf(&ways, "%s%d,%d,%c", ways.len ? " " : "", c % f->w, c / f->w,
				       lk_dir_letter[d]);
	}
	lk_record_set(rec, "game", "fruit");
	if (ways.len)
		lk_record_set(rec, "oneway", ways.buf);
	lk_strbuf_release(&text);
	lk_strbuf_release(&ways);
	rc = 0;
out:
	free(kind);
	lk_grid_release(&g);
	return rc;
}

static void fruit_free(void *state)
{
	free(state);
}

const struct lk_generator lk_gen_fruit_random = {
	.game = "fruit",
	.name = "random",
	.summary = "the article's generator: symmetric walls from the border, inner walls, "
		   "the largest area, weighted fruit and obstacles",
	.params_help = "pairs=N, colours=N, stones=N, mud=N, hedgehogs=N, anteaters=N, oneways=N",
	.size_help = "8x8",
	/* half the levels would take 1 or 2 moves (docs/games/fruit.md) */
	.default_min_moves = 4,
	.accepts = LK_GEN_ACCEPT(MOVES) | LK_GEN_ACCEPT(DIFFICULTY) | LK_GEN_ACCEPT(DEAD_ENDS),
	.new_state = fruit_new,
	.free_state = fruit_free,
	.candidate = fruit_candidate,
};
