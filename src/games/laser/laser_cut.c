/*
 * laser_cut.c - the laser generator's levels and repairs: the level of a
 * board (its cells, fixed pieces, and a tray of the intended pieces and
 * the distractors), a placement judged on it, and the repairs that rule
 * shortcuts out (laser_gen.c explains why they only ever remove
 * solutions): blockers, each on the cell (or orbit of cells, with a
 * symmetry) the most shortcuts not yet ruled out could take one on, then
 * fewer distractors.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "laser_gen.h"

/* ------------------------------------------------------------- levels */

/* The level of a board: its cells, fixed pieces, and a tray of the
 * intended pieces and the distractors, one line per kind; *pl gets the
 * intended solution in its lines. */
struct lk_laser *laser_gen_make_level(const struct board *b, struct lk_laser_placement *pl)
{
	struct laser_spec *spec = lk_xmalloc(sizeof *spec);
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_laser *lv = NULL;
	*spec = b->skel;
	memcpy(spec->cells, b->cells, sizeof spec->cells);
	spec->ntray = 0;
	for (int i = 0; i < b->intended.n + b->ndistr; i++) {
		const struct laser_kind *k = i < b->intended.n ? &b->intended.kind[i]
								: &b->distr[i - b->intended.n];
		int l = 0;
		while (l < spec->ntray && !laser_same_kind(&spec->tray[l], k))
			l++;
		if (l == spec->ntray) {
			spec->tray[l] = *k;
			spec->tray_count[l] = 0;
			spec->ntray++;
		}
		spec->tray_count[l]++;
	}
	if (laser_build(spec, &lv, &err) == 0 && pl) {
		pl->n = 0;
		for (int i = 0; i < b->intended.n; i++) {
			int l = 0;
			while (!laser_same_kind(&spec->tray[l], &b->intended.kind[i]))
				l++;
			int c = b->intended.cell[i];
			pl->p[pl->n++] = (struct lk_laser_place){ l + 1, c % spec->width, c / spec->width };
		}
	}
	lk_strbuf_release(&err);
	free(spec);
	return lv;
}

/* Pieces as a placement of lv, if lv's tray holds them (else false). */
bool laser_gen_placement_in(const struct lk_laser *lv, const struct laser_gen_pieces *p,
			 struct lk_laser_placement *pl)
{
	int used[LK_LASER_MAX_LINES] = { 0 };
	pl->n = 0;
	for (int i = 0; i < p->n; i++) {
		int l = 0;
		while (l < lv->ntray && !laser_same_kind(&lv->kind[lv->nfixed + l], &p->kind[i]))
			l++;
		if (l == lv->ntray || ++used[l] > lv->tray_count[l] || lv->cells[p->cell[i]] != '.')
			return false;
		pl->p[pl->n++] = (struct lk_laser_place){ l + 1, p->cell[i] % lv->width,
							  p->cell[i] / lv->width };
	}
	return true;
}

/* Simulate pieces on lv: facts, footprint, and (when keep is not NULL)
 * the firing state; false when not a solution (tidy unless o->all). */
bool laser_gen_judge(const struct laser_gen *g, const struct lk_laser *lv, const struct lk_laser_placement *pl,
		  struct lk_laser_facts *f, uint64_t *cells, struct fired *keep)
{
	struct fired *fs = keep ? keep : lk_xmalloc(sizeof *fs);
	struct lk_laser_eval ev;
	lk_laser_evaluate(lv, pl, &ev, NULL);
	laser_kind_at(lv, pl, fs->kind_at);
	laser_simulate(lv, fs->kind_at, &fs->sim);
	laser_view_of_sim(lv, fs->kind_at, &fs->sim, &fs->view);
	if (cells)
		laser_footprint(lv, fs->kind_at, &fs->sim, cells);
	*f = ev.facts;
	if (!keep)
		free(fs);
	return g->o->all ? ev.solved : ev.tidy;
}

/* ------------------------------------------------------------- cutting */

/* Fewer distractors of a kind the shortcut uses more of than I: false
 * when there is none. */
static bool tray_cut(struct laser_gen *g, struct board *b, const struct laser_gen_pieces *s)
{
	int best = -1, best_remove = 1 << 30;
	for (int i = 0; i < s->n; i++) {
		int use_s = 0, use_i = 0, have = 0;
		for (int j = 0; j < s->n; j++)
			use_s += laser_same_kind(&s->kind[j], &s->kind[i]);
		for (int j = 0; j < b->intended.n; j++)
			use_i += laser_same_kind(&b->intended.kind[j], &s->kind[i]);
		for (int j = 0; j < b->ndistr; j++)
			have += laser_same_kind(&b->distr[j], &s->kind[i]);
		have += use_i;
		if (use_s > use_i && have - use_s + 1 < best_remove) {
			best = i;
			best_remove = have - use_s + 1;
		}
	}
	if (best < 0)
		return false;
	for (int j = b->ndistr - 1; j >= 0 && best_remove > 0; j--) {
		if (laser_same_kind(&b->distr[j], &s->kind[best])) {
			b->distr[j] = b->distr[--b->ndistr];
			best_remove--;
		}
	}
	g->st->cut_tray++;
	return true;
}

/* Is this still a shortcut of the board's level (with I in *ipl)? */
static bool still_shortcut(struct laser_gen *g, const struct board *b, const struct laser_gen_pieces *s)
{
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	struct lk_laser *lv = laser_gen_make_level(b, NULL);
	struct lk_laser_facts f;
	struct fired *fs = lk_xmalloc(sizeof *fs);
	bool yes = lv && laser_gen_placement_in(lv, s, pl) && laser_gen_judge(g, lv, pl, &f, NULL, fs) &&
		   !(g->concept && laser_concept_holds_view(g->concept, &f, &fs->view));
	free(fs);
	lk_laser_free(lv);
	free(pl);
	return yes;
}

/*
 * Rule out the shortcuts s[0 .. n) of the board's level lv (I is *ipl),
 * keeping I: blockers first, each on the cell the most shortcuts not yet
 * ruled out could take one on (a greedy hitting set), then fewer
 * distractors.  Returns -1, or the index of a shortcut no change can rule
 * out (I is hopeless).
 */
int laser_gen_cut_batch(struct laser_gen *g, struct board *b, const struct lk_laser *lv,
		     const struct lk_laser_placement *ipl, const struct laser_gen_pieces *s, int n)
{
	uint64_t fi[LK_LASER_MAX_CELLS / 64], (*cand)[LK_LASER_MAX_CELLS / 64] = lk_xcalloc((size_t)n, sizeof *cand);
	bool *hit = lk_xcalloc((size_t)n, sizeof *hit);
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	struct lk_laser_facts fI, f;
	struct fired *fsI = lk_xmalloc(sizeof *fsI);
	int hopeless = -1;
	laser_gen_judge(g, lv, ipl, &fI, fi, fsI);
	for (int i = 0; i < n; i++) {
		laser_gen_placement_in(lv, &s[i], pl);
		laser_gen_judge(g, lv, pl, &f, cand[i], NULL);
		for (int w = 0; w < LK_LASER_MAX_CELLS / 64; w++)
			cand[i][w] &= ~fi[w];
	}
	for (;;) {
		bool room = g->o->max_blockers < 0 || b->added < g->o->max_blockers;
		fI.blockers = 0;
		for (int c = 0; c < lv->ncells; c++)
			fI.blockers += b->cells[c] == '#';
		fI.blockers++;
		if (!room || !g->blockers_help ||
		    (g->concept && !laser_concept_holds_view(g->concept, &fI, &fsI->view)))
			break;
		/* each candidate is a whole orbit of the blockers' symmetry
		 * (a cell without one): every cell of it empty and off I's
		 * footprint; its count, the shortcuts not yet ruled out that use
		 * one of its cells */
		int count[LK_LASER_MAX_CELLS] = { 0 }, best = -1, ties = 0, orbit[4], k;
		for (int c = 0; c < lv->ncells; c++) {
			k = lk_laser_orbit(g->o->symmetry, lv->width, lv->height, c, orbit);
			bool free_cells = true;
			for (int j = 0; j < k && free_cells; j++)
				free_cells = b->cells[orbit[j]] == '.' && !(fi[orbit[j] / 64] >> (orbit[j] % 64) & 1);
			if (!free_cells || (g->o->max_blockers >= 0 && b->added + k > g->o->max_blockers))
				continue;
			for (int i = 0; i < n; i++) {
				bool uses = false;
				for (int j = 0; j < k && !hit[i]; j++)
					uses |= (cand[i][orbit[j] / 64] >> (orbit[j] % 64) & 1) != 0;
				count[c] += uses;
			}
		}
		for (int c = 0; c < lv->ncells; c++) {
			if (!count[c] || (best >= 0 && count[c] < count[best]))
				continue;
			if (best >= 0 && count[c] == count[best]) {
				if (lk_rng_below(&g->rng, (uint32_t)++ties + 1) != 0)
					continue;   /* ties drawn uniformly */
			} else {
				ties = 0;
			}
			best = c;
		}
		if (best < 0)
			break;
		k = lk_laser_orbit(g->o->symmetry, lv->width, lv->height, best, orbit);
		for (int j = 0; j < k; j++) {
			b->cells[orbit[j]] = '#';
			b->added++;
			g->st->cut_blockers++;
			for (int i = 0; i < n; i++)
				hit[i] |= (cand[i][orbit[j] / 64] >> (orbit[j] % 64) & 1) != 0;
		}
	}
	for (int i = 0; i < n && hopeless < 0; i++) {
		if (hit[i] || !still_shortcut(g, b, &s[i]))
			continue;
		if (!tray_cut(g, b, &s[i]))
			hopeless = i;
	}
	free(cand);
	free(hit);
	free(pl);
	free(fsI);
	return hopeless;
}

/* Rule out every shortcut learned on this board that the level still has
 * (after a new intended solution): false if one cannot be. */
bool laser_gen_recut(struct laser_gen *g, struct board *b)
{
	struct lk_laser_placement *ipl = lk_xmalloc(sizeof *ipl);
	struct laser_gen_pieces *live = lk_xmalloc((b->nlearned + 1) * sizeof *live);
	int n = 0;
	for (size_t i = 0; i < b->nlearned; i++)
		if (still_shortcut(g, b, &b->learned[i]))
			live[n++] = b->learned[i];
	struct lk_laser *lv = laser_gen_make_level(b, ipl);
	bool ok = lv && (n == 0 || laser_gen_cut_batch(g, b, lv, ipl, live, n) < 0);
	lk_laser_free(lv);
	free(live);
	free(ipl);
	return ok;
}

