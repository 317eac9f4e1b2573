/*
 * laser_design.c - the laser generator's designer: an intended solution
 * on a board, found by the solver itself on a *design level*, whose tray
 * holds every orientation of every type of the palette (one group per
 * type, capped by the palette's count) and, while the targets are not yet
 * placed, targets that take whatever power reaches them.  A design is a
 * tidy solution that loses no power (every beam ends in a piece that
 * fires or in a target) and satisfies the concept; its open targets become
 * the level's targets, needing what they received.
 */
#include <stdlib.h>

#include "laser_gen.h"

static int bits(unsigned v)
{
	return (int)(v & 1) + (int)(v >> 1 & 1) + (int)(v >> 2 & 1) + (int)(v >> 3 & 1);
}

int laser_orientations(int type, uint8_t *ins, uint8_t *outs)
{
	static const uint8_t nin[LK_LASER_NTYPES] = { 0, 1, 1, 1, 1, 2, 3, 0 };
	static const uint8_t nout[LK_LASER_NTYPES] = { 1, 0, 1, 2, 3, 1, 1, 0 };
	int n = 0;
	for (unsigned i = 1; i < 16; i++) {
		for (unsigned o = 1; o < 16; o++) {
			if ((i & o) || bits(i) != nin[type] || bits(o) != nout[type])
				continue;
			/* a bender turns: its two sides are not opposite */
			if (type == LK_LASER_BND && (i | o) != 3 && (i | o) != 6 && (i | o) != 12 &&
			    (i | o) != 9)
				continue;
			ins[n] = (uint8_t)i;
			outs[n++] = (uint8_t)o;
		}
	}
	if (type == LK_LASER_TGT) {   /* no outs: one per in side */
		for (unsigned i = 1; i < 16; i <<= 1) {
			ins[n] = (uint8_t)i;
			outs[n++] = 0;
		}
	}
	return n;
}

/* Targets on two to `sides` sides, which add what they receive (the
 * original game's): their in-sides into ins; returns how many. */
static int target_sides(int sides, uint8_t *ins)
{
	int n = 0;
	for (unsigned i = 1; i < 16; i++)
		if (bits(i) >= 2 && bits(i) <= sides)
			ins[n++] = (uint8_t)i;
	return n;
}

struct lk_laser *laser_design_level(const struct laser_gen *g, const struct laser_spec *board,
				  int open_targets, const int *caps, struct lk_strbuf *err)
{
	struct laser_spec *spec = lk_xmalloc(sizeof *spec);
	int group[LK_LASER_MAX_LINES], cap[LK_LASER_MAX_LINES], ngroups = 0;
	*spec = *board;
	spec->ntray = 0;
	for (int t = 0; t < LK_LASER_NTYPES; t++) {
		int count = t == LK_LASER_TGT ? open_targets : caps ? caps[t] : g->o->pieces[t];
		if (count <= 0 || t == LK_LASER_SRC || t == LK_LASER_BLOCKER)
			continue;
		uint8_t ins[32] = { 0 }, outs[32] = { 0 };
		int n = laser_orientations(t, ins, outs);
		if (t == LK_LASER_TGT && g->o->target_sides > 1)
			n += target_sides(g->o->target_sides, ins + n);
		for (int i = 0; i < n && spec->ntray < LK_LASER_MAX_LINES; i++) {
			struct laser_kind *k = &spec->tray[spec->ntray];
			*k = (struct laser_kind){ .type = (uint8_t)t, .ins = ins[i], .outs = outs[i],
						  .nin = (uint8_t)bits(ins[i]),
						  .nout = (uint8_t)bits(outs[i]),
						  .any_need = t == LK_LASER_TGT };
			/* one each for the unit; the counts are the groups' */
			spec->tray_count[spec->ntray] = 1;
			group[spec->ntray++] = ngroups;
		}
		cap[ngroups++] = count;
	}
	struct lk_laser *dl = NULL;
	if (laser_build(spec, &dl, err) == 0) {
		for (int i = 0; i < dl->ntray; i++)
			dl->tray_count[i] = cap[group[i]];
		if (laser_set_groups(dl, ngroups, group, cap, err) < 0) {
			lk_laser_free(dl);
			dl = NULL;
		}
	}
	free(spec);
	return dl;
}

enum lk_status laser_design(struct laser_gen *g, const struct lk_laser *dl, const struct lk_laser_nogoods *ng,
			    const struct lk_expr *satisfy, unsigned runs, struct lk_laser_placement *out)
{
	struct lk_laser_search_options o;
	struct lk_laser_result *r = lk_xmalloc(sizeof *r);
	enum lk_status status = LK_UNKNOWN;
	lk_laser_search_options_init(&o);
	o.tidy = true;
	/* with targets to place, every beam is made to end in one; with the
	 * targets placed, the power the sources have beyond the needs is
	 * what may be lost (none on the generator's boards) */
	o.lossless = dl->ntargets == 0;
	/* the design level's tray is every orientation of the palette, not
	 * the level's: a concept over `tray` is decided on the level */
	o.tray_open = true;
	o.satisfy = satisfy;
	o.nogoods = ng;
	o.limit = 1;
	o.bounds.max_states = g->o->design_nodes;
	o.bounds.cancel = g->o->bounds.cancel;
	/* leaving cells empty first makes long beams, but a design that must
	 * hold many pieces is found sooner putting them down (on 10 x 10 with
	 * three sources and at least 12 pieces, 58 boards a level at 60 %,
	 * 35 at 10 %) */
	int least = g->o->min_pieces > 2 ? g->o->min_pieces - 2 : 0;
	o.empty_first = least >= 10 ? 10 : (unsigned)(60 - 5 * least);
	/* many short restarts: a randomized search that wanders into a
	 * barren part of the tree is better begun again than continued (the
	 * nodes to a design are heavy-tailed); a new design for targets
	 * already placed gets fewer, since a new board is often cheaper */
	for (unsigned run = 0; run < runs && status == LK_UNKNOWN; run++) {
		o.seed = lk_rng_next(&g->rng) | 1;
		lk_laser_search(dl, &o, NULL, NULL, r);
		g->st->nodes += r->nodes;
		g->st->design_nodes += r->nodes;
		status = r->status;
		if (r->limit == LK_LIMIT_INTERRUPTED)
			break;
	}
	if (status == LK_SOLVED)
		*out = r->first;
	free(r);
	return status;
}

/*
 * The first design on a new board, with a sub-palette drawn afresh for
 * every restart: each type between the fewest the concept can do with
 * (g->min_caps, from bounds on the facts) and the palette's count, a few
 * more at most (benders more).  A large palette left whole makes the
 * randomized search wander: with six splitters and eight combiners of
 * every orientation allowed, a design that must split and combine twice
 * and lose no power is found on about one board in a thousand; drawn
 * from small sub-palettes, as often as with a small palette.  Every
 * design stays within the palette.  (Redesigns, whose complete searches
 * prove boards hopeless, keep the whole palette.)
 */
enum lk_status laser_design_sampled(struct laser_gen *g, const struct laser_spec *board, int open_targets,
				  const struct lk_expr *satisfy, unsigned runs, struct lk_laser **dl_out,
				  struct lk_laser_placement *out)
{
	enum lk_status status = LK_UNKNOWN;
	*dl_out = NULL;
	for (unsigned run = 0; run < runs && status == LK_UNKNOWN; run++) {
		int caps[LK_LASER_NTYPES] = { 0 };
		bool whole = true;
		for (int draw = 0; draw < 20 && whole && g->sample; draw++) {
			int total = 0, room = 0;
			for (int t = LK_LASER_BND; t <= LK_LASER_CMB3; t++) {
				int left = g->o->pieces[t] - g->min_caps[t], more = t == LK_LASER_BND ? 6 : 2;
				caps[t] = g->min_caps[t] +
					  (left > 0 ? (int)lk_rng_below(&g->rng,
									(uint32_t)(left < more ? left : more) + 1)
						    : 0);
				total += caps[t];
				room += g->o->pieces[t] - caps[t];
			}
			/* enough pieces for the design's least count, one more at a
			 * time on a type drawn among those with room */
			while (total < g->o->min_pieces && room > 0) {
				int r = (int)lk_rng_below(&g->rng, (uint32_t)room), t = LK_LASER_BND;
				while (r >= g->o->pieces[t] - caps[t]) {
					r -= g->o->pieces[t] - caps[t];
					t++;
				}
				caps[t]++;
				total++;
				room--;
			}
			whole = !laser_gen_satisfiable(g, caps);
		}
		struct lk_strbuf err = LK_STRBUF_INIT;
		struct lk_laser *dl = laser_design_level(g, board, open_targets, whole ? NULL : caps, &err);
		lk_strbuf_release(&err);
		if (!dl)
			continue;
		status = laser_design(g, dl, NULL, satisfy, 1, out);
		if (status == LK_SOLVED) {
			*dl_out = dl;
		} else {
			lk_laser_free(dl);
			if (status == LK_UNSOLVABLE && !whole)
				status = LK_UNKNOWN;   /* another sub-palette may do */
		}
	}
	return status;
}

void laser_pieces_of(const struct lk_laser *lv, const struct lk_laser_placement *pl,
		   struct laser_gen_pieces *out)
{
	out->n = 0;
	for (int i = 0; i < pl->n && out->n < GEN_MAX_PIECES; i++) {
		out->cell[out->n] = pl->p[i].y * lv->width + pl->p[i].x;
		out->kind[out->n++] = lv->kind[lv->nfixed + pl->p[i].line - 1];
	}
}
