/*
 * laser_canvas.c - the laser game drawn on a canvas (game.h's draw): the
 * board (empty cells, blockers), every piece as a symbol of its type with
 * its ports marked (an in-port a notch on its side, an out-port a wedge
 * pointing out), and for a placement (a solution text) the placed pieces,
 * each beam from the firing pieces up to where it stops, with its power
 * written on it, and the targets that are satisfied ringed.
 *
 * Ports differ from piece to piece, so they are drawn over the type's
 * symbol rather than made part of it (one legend entry per type).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "laser_internal.h"
#include "levelkit/canvas.h"
#include "levelkit/grid.h"

static const struct lk_paint floor_paint = { .fill = 0xebe6d7, .stroke = 0xd5cfbd, .width = 0.02 };
static const struct lk_paint blocker_paint = { .fill = 0x4d4d5c };
static const struct lk_paint port_paint = { .fill = 0x111111 };
static const struct lk_paint beam_paint = { .stroke = 0xd62728, .width = 0.08 };
static const struct lk_paint power_paint = { .fill = 0x7a0f10, .bold = true };
static const struct lk_paint ok_paint = { .hollow = true, .stroke = 0x009e73, .width = 0.08 };
static const struct lk_paint label_paint = { .fill = 0xffffff, .bold = true };

static const struct {
	const char *label;
	uint32_t rgb;
} type_style[LK_LASER_NTYPES] = {
	[LK_LASER_SRC] = { "source", 0xd55e00 },
	[LK_LASER_TGT] = { "target", 0x0072b2 },
	[LK_LASER_BND] = { "bender", 0x555566 },
	[LK_LASER_SP2] = { "splitter in 2", 0x009e73 },
	[LK_LASER_SP3] = { "splitter in 3", 0x007a5a },
	[LK_LASER_CMB2] = { "combiner of 2", 0xcc79a7 },
	[LK_LASER_CMB3] = { "combiner of 3", 0xa0508a },
};

static void define_type(struct lk_canvas *c, int type, char *name, size_t n)
{
	snprintf(name, n, "laser.%s", lk_laser_type_name((enum lk_laser_type)type));
	if (!lk_canvas_begin_symbol(c, name, type_style[type].label))
		return;
	struct lk_paint body = { .fill = type_style[type].rgb, .stroke = 0x111111, .width = 0.04 };
	if (type == LK_LASER_SRC || type == LK_LASER_TGT)
		lk_canvas_circle(c, 0.5, 0.5, 0.3, &body);
	else
		lk_canvas_round_rect(c, 0.2, 0.2, 0.6, 0.6, 0.1, &body);
	lk_canvas_end_symbol(c);
}

/* Notches (in) and wedges (out) on the sides of the piece at (x, y). */
static void ports(struct lk_canvas *c, const struct laser_kind *k, int x, int y)
{
	for (int side = 0; side < 4; side++) {
		double dx = lk_dir_dx[side], dy = lk_dir_dy[side];
		double cx = x + 0.5 + 0.36 * dx, cy = y + 0.5 + 0.36 * dy;
		double px = -dy, py = dx;   /* along the side */
		if (k->ins & (1u << side)) {
			double xy[8] = { cx + 0.12 * px - 0.05 * dx, cy + 0.12 * py - 0.05 * dy,
					 cx + 0.12 * px + 0.05 * dx, cy + 0.12 * py + 0.05 * dy,
					 cx - 0.12 * px + 0.05 * dx, cy - 0.12 * py + 0.05 * dy,
					 cx - 0.12 * px - 0.05 * dx, cy - 0.12 * py - 0.05 * dy };
			lk_canvas_poly(c, xy, 4, &port_paint);
		}
		if (k->outs & (1u << side)) {
			double xy[6] = { cx + 0.1 * px - 0.04 * dx, cy + 0.1 * py - 0.04 * dy,
					 cx + 0.12 * dx, cy + 0.12 * dy,
					 cx - 0.1 * px - 0.04 * dx, cy - 0.1 * py - 0.04 * dy };
			lk_canvas_poly(c, xy, 3, &port_paint);
		}
	}
}

static void piece(struct lk_canvas *c, const struct lk_laser *lv, int k, int cell)
{
	char name[32], label[16];
	const struct laser_kind *kind = &lv->kind[k];
	int x = cell % lv->width, y = cell / lv->width;
	define_type(c, kind->type, name, sizeof name);
	lk_canvas_use(c, name, x, y, 0);
	ports(c, kind, x, y);
	if (kind->letter)
		snprintf(label, sizeof label, "%c", kind->letter);
	else
		snprintf(label, sizeof label, "%d", k - lv->nfixed + 1);
	lk_canvas_text(c, x + 0.5, y + 0.52, 0.34, &label_paint, label);
}

static void beams(struct lk_canvas *c, const struct lk_laser *lv, const struct laser_sim *sim)
{
	struct lk_strbuf power = LK_STRBUF_INIT;
	for (int i = 0; i < sim->nbeams; i++) {
		const struct laser_beam *b = &sim->beam[i];
		int x0 = b->from % lv->width, y0 = b->from / lv->width, d = b->side;
		int steps = 0;   /* empty cells crossed */
		int x = x0 + lk_dir_dx[d], y = y0 + lk_dir_dy[d];
		while (x >= 0 && y >= 0 && x < lv->width && y < lv->height && y * lv->width + x != b->to) {
			steps++;
			x += lk_dir_dx[d];
			y += lk_dir_dy[d];
		}
		/* from the piece's side to the stopping piece's side, or the edge */
		double end = steps + (b->to >= 0 ? 0.64 : 0.5);
		lk_canvas_layer(c, LK_LAYER_MARKS);
		lk_canvas_line(c, x0 + 0.5 + 0.36 * lk_dir_dx[d], y0 + 0.5 + 0.36 * lk_dir_dy[d],
			       x0 + 0.5 + end * lk_dir_dx[d], y0 + 0.5 + end * lk_dir_dy[d], &beam_paint);
		lk_strbuf_reset(&power);
		laser_power_text(lv, b->value, &power);
		lk_canvas_layer(c, LK_LAYER_OVER);
		/* the power beside the beam, in its first cell out (or by the
		 * piece when it crosses none) */
		double at = steps ? 1.0 : 0.5, off = 0.22;
		lk_canvas_text(c, x0 + 0.5 + at * lk_dir_dx[d] + off * (lk_dir_dy[d] != 0),
			       y0 + 0.5 + at * lk_dir_dy[d] - off * (lk_dir_dx[d] != 0), 0.26,
			       &power_paint, power.buf);
	}
	lk_strbuf_release(&power);
}

void laser_canvas_draw(const struct lk_level *level, const void *key, const char *placement,
		       struct lk_canvas *c)
{
	(void)key;
	const struct lk_laser *lv = (const struct lk_laser *)level;
	lk_canvas_size(c, lv->width, lv->height);
	if (lk_canvas_begin_board(c)) {
		lk_canvas_layer(c, LK_LAYER_GROUND);
		for (int i = 0; i < lv->ncells; i++)
			lk_canvas_rect(c, i % lv->width, i / lv->width, 1, 1,
				       lv->cells[i] == '#' ? &blocker_paint : &floor_paint);
		lk_canvas_layer(c, LK_LAYER_PIECES);
		for (int i = 0; i < lv->ncells; i++)
			if (lv->cell_kind[i] >= 0 && lv->cell_kind[i] != lv->blocker)
				piece(c, lv, lv->cell_kind[i], i);
		lk_canvas_end_board(c);
	}
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (placement && lk_laser_placement_parse(lv, placement, pl, &err) == 0) {
		int16_t kind_at[LK_LASER_MAX_CELLS];
		struct laser_sim *sim = lk_xmalloc(sizeof *sim);
		laser_kind_at(lv, pl, kind_at);
		laser_simulate(lv, kind_at, sim);
		beams(c, lv, sim);
		lk_canvas_layer(c, LK_LAYER_PIECES);
		for (int i = 0; i < pl->n; i++) {
			int cell = pl->p[i].y * lv->width + pl->p[i].x;
			piece(c, lv, lv->nfixed + pl->p[i].line - 1, cell);
		}
		/* a ring round each target that receives exactly its need */
		lk_canvas_layer(c, LK_LAYER_OVER);
		for (int i = 0; i < lv->ncells; i++) {
			int k = kind_at[i];
			if (k < 0 || k == lv->blocker || lv->kind[k].type != LK_LASER_TGT)
				continue;
			if (sim->recv[i] &&
			    laser_received(&lv->kind[k], sim->recv[i], sim->recv_value[i]) == lv->kind[k].value)
				lk_canvas_circle(c, i % lv->width + 0.5, i / lv->width + 0.5, 0.44, &ok_paint);
		}
		free(sim);
	}
	lk_strbuf_release(&err);
	free(pl);
}
