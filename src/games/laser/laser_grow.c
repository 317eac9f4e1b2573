/*
 * laser_grow.c - the laser generator's second designer, aimed at one
 * network: an intended solution grown outward from the sources.  Every
 * beam not yet ending in a piece is an open *head*; a step puts a piece on
 * a head's path (a bender or a splitter, whose outputs become heads), or,
 * while the sources' networks are apart, a combiner where the paths of two
 * heads of different networks cross.  When enough pieces are placed, the
 * networks are one and the heads are as many as the targets wanted, each
 * head ends in an open target.  The design is then fired on the design
 * level and kept only if it is tidy, loses no power and satisfies the
 * design's own conditions; the concept itself is left to the shortcut
 * query (laser_gen.c), which proves it or repairs the level.
 */
#include <stdlib.h>
#include <string.h>

#include "laser_gen.h"
#include "levelkit/grid.h"

struct head {
	int cell, dir;   /* the piece it leaves and the way it travels */
	int net;         /* the network it belongs to (a source's index) */
};

struct grow {
	struct laser_gen *g;
	const struct lk_laser *dl;
	int w, h;
	int16_t kind[LK_LASER_MAX_CELLS];   /* a kind of dl on the cell, or -1 */
	uint8_t crossed[LK_LASER_MAX_CELLS];/* beams (heads' paths) crossing an empty cell */
	int nheads;
	struct head head[32];
	int net_of[16];                     /* union-find over the sources' networks */
	int used[LK_LASER_NTYPES];
	struct lk_laser_placement *pl;
};

static int find(struct grow *s, int n)
{
	while (s->net_of[n] != n)
		n = s->net_of[n];
	return n;
}

/* The cells of a head's path: empty cells up to the first non-empty one or
 * the edge; returns how many (into path). */
static int path_of(const struct grow *s, const struct head *hd, int *path)
{
	int n = 0, x = hd->cell % s->w, y = hd->cell / s->w;
	for (;;) {
		x += lk_dir_dx[hd->dir];
		y += lk_dir_dy[hd->dir];
		if (x < 0 || y < 0 || x >= s->w || y >= s->h)
			return n;
		int c = y * s->w + x;
		if (s->kind[c] >= 0)
			return n;
		path[n++] = c;
	}
}

/* The line of the design level holding this kind, or -1. */
static int line_of(const struct lk_laser *dl, int type, unsigned ins, unsigned outs)
{
	for (int l = 0; l < dl->ntray; l++) {
		const struct laser_kind *k = &dl->kind[dl->nfixed + l];
		if (k->type == type && k->ins == ins && k->outs == outs)
			return l;
	}
	return -1;
}

static void mark(struct grow *s, const struct head *hd, int d)
{
	int path[LK_LASER_MAX_SIDE];
	int n = path_of(s, hd, path);
	for (int i = 0; i < n; i++)
		s->crossed[path[i]] = (uint8_t)(s->crossed[path[i]] + d);
}

/* Put the kind of line l on cell c; false when the placement is full. */
static bool put(struct grow *s, int c, int l)
{
	if (l < 0 || s->pl->n >= LK_LASER_MAX_PLACED)
		return false;
	s->kind[c] = (int16_t)(s->dl->nfixed + l);
	s->pl->p[s->pl->n++] = (struct lk_laser_place){ .line = l + 1, .x = c % s->w, .y = c / s->w };
	return true;
}

/* Head i ends at cell c of its path: the beam keeps the cells before c,
 * the rest of the path is freed. */
static void end_head(struct grow *s, int i, int c)
{
	int path[LK_LASER_MAX_SIDE];
	int n = path_of(s, &s->head[i], path), k = 0;
	while (k < n && path[k] != c)
		k++;
	for (; k < n; k++)
		s->crossed[path[k]]--;
	s->head[i] = s->head[--s->nheads];
}

/* Add a head leaving c by dir (its path marked): false when full. */
static bool add_head(struct grow *s, int c, int dir, int net)
{
	if (s->nheads >= 32)
		return false;
	s->head[s->nheads] = (struct head){ c, dir, net };
	mark(s, &s->head[s->nheads++], 1);
	return true;
}

/* A combiner where two heads of different networks cross: true if put. */
static bool merge(struct grow *s)
{
	int path[LK_LASER_MAX_SIDE], other[LK_LASER_MAX_SIDE];
	struct lk_rng *r = &s->g->rng;
	if (s->used[LK_LASER_CMB2] >= s->g->o->pieces[LK_LASER_CMB2])
		return false;
	int start = (int)lk_rng_below(r, (uint32_t)s->nheads);
	for (int a0 = 0; a0 < s->nheads; a0++) {
		int a = (start + a0) % s->nheads;
		int na = path_of(s, &s->head[a], path);
		for (int b = 0; b < s->nheads; b++) {
			if (b == a || find(s, s->head[a].net) == find(s, s->head[b].net) ||
			    (s->head[a].dir ^ 2) == s->head[b].dir || s->head[a].dir == s->head[b].dir)
				continue;
			int nb = path_of(s, &s->head[b], other);
			for (int i = 0; i < na; i++) {
				int c = path[i];
				if (s->crossed[c] != 2)
					continue;   /* a third beam crosses it */
				for (int j = 0; j < nb; j++) {
					if (other[j] != c)
						continue;
					unsigned ins = 1u << (s->head[a].dir ^ 2) | 1u << (s->head[b].dir ^ 2);
					int free_sides[2], nf = 0;
					for (int d = 0; d < 4; d++)
						if (!(ins >> d & 1))
							free_sides[nf++] = d;
					int out = free_sides[lk_rng_below(r, 2)];
					int l = line_of(s->dl, LK_LASER_CMB2, ins, 1u << out);
					struct head ha = s->head[a], hb = s->head[b];
					if (l < 0)
						return false;
					end_head(s, a > b ? a : b, c);
					end_head(s, a > b ? b : a, c);
					if (!put(s, c, l))
						return false;
					s->used[LK_LASER_CMB2]++;
					s->net_of[find(s, ha.net)] = find(s, hb.net);
					return add_head(s, c, out, hb.net);
				}
			}
		}
	}
	return false;
}

/* A bender or a splitter on a random head's path: true if put. */
static bool extend(struct grow *s, bool may_split)
{
	int path[LK_LASER_MAX_SIDE];
	struct lk_rng *r = &s->g->rng;
	const struct lk_laser_gen_options *o = s->g->o;
	int i = (int)lk_rng_below(r, (uint32_t)s->nheads);
	struct head hd = s->head[i];
	int n = path_of(s, &hd, path), cand[LK_LASER_MAX_SIDE], nc = 0;
	for (int k = 0; k < n; k++)
		if (s->crossed[path[k]] == 1)
			cand[nc++] = path[k];
	if (!nc)
		return false;
	int c = cand[lk_rng_below(r, (uint32_t)nc)], in = hd.dir ^ 2;
	bool split = may_split && s->used[LK_LASER_SP2] < o->pieces[LK_LASER_SP2] &&
		     lk_rng_below(r, 3) == 0;
	if (!split && s->used[LK_LASER_BND] >= o->pieces[LK_LASER_BND])
		return false;
	int type = split ? LK_LASER_SP2 : LK_LASER_BND;
	unsigned outs;
	if (split) {   /* two of the three other sides */
		int skip = (in + 1 + (int)lk_rng_below(r, 3)) % 4;
		outs = 0xfu & ~(1u << in) & ~(1u << skip);
	} else {       /* a turn, left or right */
		outs = 1u << ((hd.dir + (lk_rng_below(r, 2) ? 1 : 3)) % 4);
	}
	int l = line_of(s->dl, type, 1u << in, outs);
	if (l < 0)
		return false;
	end_head(s, i, c);
	if (!put(s, c, l))
		return false;
	s->used[type]++;
	for (int d = 0; d < 4; d++)
		if (outs >> d & 1 && !add_head(s, c, d, hd.net))
			return false;
	return true;
}

/* One attempt at growing a design: true with s->pl a candidate. */
static bool grow_once(struct grow *s)
{
	const struct lk_laser_gen_options *o = s->g->o;
	struct lk_rng *r = &s->g->rng;
	const struct lk_laser *dl = s->dl;
	memset(s->crossed, 0, sizeof s->crossed);
	memset(s->used, 0, sizeof s->used);
	s->nheads = 0;
	s->pl->n = 0;
	int nsrc = 0;
	for (int c = 0; c < dl->width * dl->height; c++)
		s->kind[c] = dl->cell_kind[c];
	for (int c = 0; c < dl->width * dl->height; c++) {
		const struct laser_kind *k = s->kind[c] >= 0 ? &dl->kind[s->kind[c]] : NULL;
		if (k && k->type == LK_LASER_SRC && nsrc < 16) {
			s->net_of[nsrc] = nsrc;
			for (int d = 0; d < 4; d++)
				if (k->outs >> d & 1)
					add_head(s, c, d, nsrc);
			nsrc++;
		}
	}
	int want = o->min_pieces + (int)lk_rng_below(r, 3), nets = nsrc;
	int tmin = o->min_targets, tmax = o->max_targets;
	for (int step = 0; step < 200; step++) {
		if (!s->nheads)
			return false;
		/* merge while apart, sooner the more pieces are down */
		if (nets > 1 && (int)lk_rng_below(r, (uint32_t)want + 1) < s->pl->n + 2 && merge(s)) {
			nets--;
			continue;
		}
		if (s->pl->n >= want && nets == 1 && s->nheads >= tmin && s->nheads <= tmax)
			break;
		/* split only while the heads stay few enough to end in targets */
		int heads_left = s->nheads - (nets - 1);   /* each merge takes one */
		if (!extend(s, heads_left + 1 <= tmax) && lk_rng_below(r, 8) == 0)
			return false;
	}
	if (nets != 1 || s->pl->n < o->min_pieces || s->nheads < tmin || s->nheads > tmax)
		return false;
	/* every head ends in an open target on its path */
	while (s->nheads) {
		int path[LK_LASER_MAX_SIDE], cand[LK_LASER_MAX_SIDE], nc = 0;
		int n = path_of(s, &s->head[0], path);
		for (int k = 0; k < n; k++)
			if (s->crossed[path[k]] == 1)
				cand[nc++] = path[k];
		if (!nc)
			return false;
		int c = cand[lk_rng_below(r, (uint32_t)nc)];
		int l = line_of(dl, LK_LASER_TGT, 1u << (s->head[0].dir ^ 2), 0);
		end_head(s, 0, c);
		if (!put(s, c, l))
			return false;
	}
	return true;
}

enum lk_status laser_design_grown(struct laser_gen *g, const struct laser_spec *board, int open_targets,
				  unsigned runs, struct lk_laser **dl_out, struct lk_laser_placement *out)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_laser *dl = laser_design_level(g, board, open_targets, NULL, &err);
	lk_strbuf_release(&err);
	*dl_out = NULL;
	if (!dl)
		return LK_UNKNOWN;
	struct grow *s = lk_xcalloc(1, sizeof *s);
	struct fired *fs = lk_xmalloc(sizeof *fs);
	s->g = g;
	s->dl = dl;
	s->w = dl->width;
	s->h = dl->height;
	s->pl = out;
	enum lk_status status = LK_UNKNOWN;
	/* each run is cheap (no search): many of them stand for one of the
	 * search designer's restarts */
	for (unsigned run = 0; run < 40 * runs && status == LK_UNKNOWN; run++) {
		if (!grow_once(s))
			continue;
		g->st->design_nodes++;
		/* the truth is the simulation: tidy, no beam lost, and the
		 * design's own conditions (targets, pieces) */
		struct lk_laser_facts f;
		laser_gen_judge(g, dl, out, &f, NULL, fs);
		bool lost = false;
		for (int b = 0; b < fs->sim.nbeams; b++)
			lost |= !fs->sim.beam[b].absorbed;
		/* the design level has no targets yet (open ones take any
		 * power), so it is judged as the search designer's are: every
		 * placed piece fires, one network */
		if (f.idle != 0 || f.network != 1)
			continue;
		if (!lost && laser_concept_holds_view(g->design_own, &f, &fs->view))
			status = LK_SOLVED;
	}
	free(fs);
	free(s);
	if (status == LK_SOLVED)
		*dl_out = dl;
	else
		lk_laser_free(dl);
	return status;
}
