/*
 * laser_draw.c - the text drawing of a level and of a placement: the board
 * with the placed pieces and the beams' paths, then every firing piece,
 * every beam with its power, and every target's verdict.
 *
 *   ....B     cells: '.' empty, '#' blocker, letters fixed pieces, digits
 *   ....|     the tray line of a placed piece ('*' past 9), '-' and '|'
 *   A---1     a beam across an empty cell, '+' two crossing
 *   ..#.|
 *   C---2
 */
#include <stdlib.h>
#include <string.h>

#include "laser_internal.h"
#include "levelkit/grid.h"

static void cell_name(const struct lk_laser *lv, const int16_t *kind_at, int c,
		      struct lk_strbuf *out)
{
	int k = kind_at[c];
	if (k < lv->nfixed)
		lk_strbuf_addf(out, "%c", lv->kind[k].letter);
	else
		lk_strbuf_addf(out, "tray %d", k - lv->nfixed + 1);
	lk_strbuf_addf(out, " %s at %d,%d", lk_laser_type_name(lv->kind[k].type), c % lv->width,
		       c / lv->width);
}

void lk_laser_draw(const struct lk_laser *lv, const struct lk_laser_placement *pl,
		   struct lk_strbuf *out)
{
	int16_t kind_at[LK_LASER_MAX_CELLS];
	uint8_t path[LK_LASER_MAX_CELLS] = { 0 };   /* 1 across, 2 up and down */
	struct laser_sim *sim = lk_xmalloc(sizeof *sim);
	laser_kind_at(lv, pl, kind_at);
	laser_simulate(lv, kind_at, sim);
	for (int i = 0; pl && i < sim->nbeams; i++) {
		const struct laser_beam *b = &sim->beam[i];
		int x = b->from % lv->width + lk_dir_dx[b->side], y = b->from / lv->width + lk_dir_dy[b->side];
		for (; x >= 0 && y >= 0 && x < lv->width && y < lv->height; x += lk_dir_dx[b->side],
		       y += lk_dir_dy[b->side]) {
			int c = y * lv->width + x;
			if (c == b->to)
				break;
			path[c] |= (uint8_t)(b->side == LK_LASER_E || b->side == LK_LASER_W ? 1 : 2);
		}
	}
	for (int y = 0; y < lv->height; y++) {
		for (int x = 0; x < lv->width; x++) {
			int c = y * lv->width + x, k = kind_at[c];
			char ch = lv->cells[c];
			if (k >= lv->nfixed && k < lv->nfixed + lv->ntray)
				ch = k - lv->nfixed < 9 ? (char)('1' + k - lv->nfixed) : '*';
			else if (ch == '.' && path[c])
				ch = "?-|+"[path[c]];
			lk_strbuf_addch(out, ch);
		}
		lk_strbuf_addch(out, '\n');
	}
	if (!pl) {
		free(sim);
		return;
	}
	for (int c = 0; c < lv->ncells; c++) {
		int k = kind_at[c];
		if (k < 0 || k == lv->blocker || !sim->fired[c] || lv->kind[k].type == LK_LASER_TGT)
			continue;
		lk_strbuf_addstr(out, "fires: ");
		cell_name(lv, kind_at, c, out);
		lk_strbuf_addch(out, ' ');
		laser_ports_text(lv->kind[k].ins, lv->kind[k].outs, out);
		lk_strbuf_addstr(out, ", ");
		laser_power_text(lv, sim->out[c], out);
		lk_strbuf_addstr(out, lv->kind[k].nout > 1 ? " out of each port\n" : " out\n");
	}
	for (int c = 0; c < lv->ncells; c++) {
		int k = kind_at[c];
		if (k >= lv->nfixed && k < lv->nfixed + lv->ntray && !sim->fired[c]) {
			lk_strbuf_addstr(out, "idle: ");
			cell_name(lv, kind_at, c, out);
			lk_strbuf_addch(out, '\n');
		}
	}
	static const char side_name[4] = { 'N', 'E', 'S', 'W' };
	for (int i = 0; i < sim->nbeams; i++) {
		const struct laser_beam *b = &sim->beam[i];
		lk_strbuf_addstr(out, "beam: ");
		laser_power_text(lv, b->value, out);
		lk_strbuf_addf(out, " from %d,%d heading %c ", b->from % lv->width, b->from / lv->width,
			       side_name[b->side]);
		if (b->to < 0) {
			lk_strbuf_addstr(out, "leaves the board\n");
			continue;
		}
		lk_strbuf_addstr(out, b->absorbed ? "into " : "blocked by ");
		if (kind_at[b->to] == lv->blocker)
			lk_strbuf_addf(out, "the blocker at %d,%d", b->to % lv->width, b->to / lv->width);
		else
			cell_name(lv, kind_at, b->to, out);
		lk_strbuf_addch(out, '\n');
	}
	struct lk_laser_eval ev;
	struct lk_strbuf msg = LK_STRBUF_INIT;
	lk_laser_evaluate(lv, pl, &ev, &msg);
	lk_strbuf_add(out, msg.buf, msg.len);
	lk_strbuf_addf(out, "%s\n", ev.tidy ? "solved, tidy" : ev.solved ? "solved" : "not solved");
	lk_strbuf_release(&msg);
	free(sim);
}
