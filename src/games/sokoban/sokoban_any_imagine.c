/*
 * sokoban_any_imagine.c - Festival's "imagine" advisor for Sokoban's
 * feature-space search (solve -a any, the `imagine` technique, off by
 * default; docs/games/sokoban.md, "Hard levels").
 *
 * Festival (Yaron Shoham's FESS solver; its published source, not the
 * paper) plays its packing plan forwards once and keeps, for each box the
 * plan brings onto a goal for good, the position the plan has reached just
 * before that: every box where the plan has it then, on a goal already
 * packed, on a parking square it was brought to, or still on its start
 * square.  That is the "imagined" position of a state: the one before the
 * next goal the state has not packed.  Its advisor proposes, among the
 * moves that lose no packed box and put more boxes (not counting the
 * packed ones) on squares where the imagined position has a box, the one
 * after which the boxes are nearest the imagined position (the least total
 * of pushes in a matching of boxes to its squares).  It so carries out the
 * plan's moves between two packings in any order, where the packing
 * feature counts only a plan's prefix.
 *
 * Festival's plan gives every box its start square; in levelkit only the
 * parking plan does (sokoban_park.c), so the advisor works where a parking
 * plan is in force and proposes nothing elsewhere.  Like every advisor it
 * only marks a move (weight 0 instead of 1), so it can lose no solution.
 * Our own code after reading Festival's; see the docs for what differs.
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/assign.h"
#include "sokoban_any_search.h"

/* what[k * cells + c]: square c in imagined position k */
enum { IMG_NONE, IMG_BOX, IMG_PACKED };

struct soko_imagine {
	int nboards, nboxes, cells;
	int *board_of;        /* per plan steps reached (0 .. nsteps): a position, or -1 */
	uint16_t *squares;    /* position k's box squares: squares[k * nboxes ..] */
	uint8_t *what;        /* position k per cell (IMG_*) */
	uint16_t **pushes;    /* per cell t, built when first asked: pushes from each cell to t */
	uint16_t *queue;
	int *cost, *work;     /* the matching's costs (nboxes x nboxes) and working memory */
	uint16_t *row;        /* a child's boxes */
};

void soko_imagine_free(struct soko_imagine *im)
{
	if (!im)
		return;
	for (int c = 0; c < im->cells; c++)
		free(im->pushes[c]);
	free(im->pushes);
	free(im->board_of);
	free(im->squares);
	free(im->what);
	free(im->queue);
	free(im->cost);
	free(im->work);
	free(im->row);
	free(im);
}

/* The imagined positions of parking plan p, or NULL when its start
 * squares are not one a box of the level. */
struct soko_imagine *soko_imagine_build(const struct sokoban *s, const struct soko_park *p)
{
	size_t cells = (size_t)s->cells;
	int nboxes = 0;
	for (int i = 0; i < p->nsteps; i++)
		nboxes += p->leaves[i] == SOKO_NONE;
	uint8_t *box = lk_xcalloc(cells, 1);
	for (int i = 0; i < p->nsteps; i++)
		if (p->leaves[i] == SOKO_NONE && p->start[i] != SOKO_NONE)
			box[p->start[i]]++;
	int count = 0;
	bool fits = nboxes > 0;
	for (size_t c = 0; c < cells; c++) {
		fits &= box[c] <= 1;
		count += box[c];
	}
	if (!fits || count != nboxes) {
		free(box);
		return NULL;
	}
	struct soko_imagine *im = lk_xcalloc(1, sizeof *im);
	im->nboxes = nboxes;
	im->cells = s->cells;
	int nperm = 0;
	for (int i = 0; i < p->nsteps; i++)
		nperm += s->goal[p->target[i]] != 0;
	im->board_of = lk_xmalloc((size_t)(p->nsteps + 1) * sizeof *im->board_of);
	im->squares = lk_xmalloc((size_t)(nperm ? nperm : 1) * (size_t)nboxes * sizeof *im->squares);
	im->what = lk_xcalloc((size_t)(nperm ? nperm : 1) * cells, 1);
	/* Boxes are counted per square: the parking plan is worked out with
	 * the boxes taken out gone from the level, so a step may park a box on
	 * a start square whose own box the plan brings out only later
	 * (Sasquatch I 30: step 0 parks on the start square of step 8's box).
	 * Such a square is then imagined holding two boxes, two columns of the
	 * matching, so every box still has a square to go to. */
	uint8_t *packed = lk_xcalloc(cells, 1);
	int k = 0;
	for (int i = 0; i < p->nsteps; i++) {
		int t = p->target[i];
		if (s->goal[t]) {
			/* the position just before the plan packs goal t */
			packed[t] = 1;
			uint8_t *w = im->what + (size_t)k * cells;
			uint16_t *sq = im->squares + (size_t)k * (size_t)nboxes;
			int n = 0;
			for (size_t c = 0; c < cells; c++) {
				if (packed[c])
					w[c] = IMG_PACKED;
				for (int m = 0; m < box[c] && n < nboxes; m++)
					sq[n++] = (uint16_t)c;
				if (box[c] && !packed[c])
					w[c] = IMG_BOX;
			}
			k++;
		}
		int from = p->leaves[i] != SOKO_NONE ? p->leaves[i] : p->start[i];
		if (box[from])
			box[from]--;
		box[t]++;
	}
	im->nboards = k;
	/* a state that has reached r steps imagines the position before the
	 * first step from r on that packs a goal */
	int next = -1;
	k = im->nboards;
	for (int r = p->nsteps; r >= 0; r--) {
		if (r < p->nsteps && s->goal[p->target[r]])
			next = --k;
		im->board_of[r] = next;
	}
	im->pushes = lk_xcalloc(cells, sizeof *im->pushes);
	im->queue = lk_xmalloc(cells * sizeof *im->queue);
	size_t nn = (size_t)nboxes * (size_t)nboxes;
	im->cost = lk_xmalloc(nn * sizeof *im->cost);
	im->work = lk_xmalloc(lk_assign_work(nboxes, nboxes) * sizeof *im->work);
	im->row = lk_xmalloc((size_t)nboxes * sizeof *im->row);
	free(packed);
	free(box);
	return im;
}

int soko_imagine_square(const struct soko_imagine *im, int reached, int c)
{
	int k = im->board_of[reached];
	return k < 0 ? -1 : im->what[(size_t)k * (size_t)im->cells + (size_t)c];
}

/* Pushes that bring a box, alone on the level, from each cell to t (a
 * pull search from t; SOKO_INF where none does). */
static const uint16_t *pushes_to(struct soko_imagine *im, const struct sokoban *s, int t)
{
	if (im->pushes[t])
		return im->pushes[t];
	uint16_t *d = lk_xmalloc((size_t)s->cells * sizeof *d);
	for (int c = 0; c < s->cells; c++)
		d[c] = SOKO_INF;
	size_t head = 0, tail = 0;
	d[t] = 0;
	im->queue[tail++] = (uint16_t)t;
	while (head < tail) {
		int c = im->queue[head++];
		for (int k = 0; k < 4; k++) {
			/* the box came from b, pushed by a player on b's far side */
			int b = c - s->off[k];
			if (s->wall[b] || s->wall[b - s->off[k]] || d[b] != SOKO_INF)
				continue;
			d[b] = (uint16_t)(d[c] + 1);
			im->queue[tail++] = (uint16_t)b;
		}
	}
	im->pushes[t] = d;
	return d;
}

/* Is the box on c frozen in a 2x2 block of boxes and walls (box: per cell)? */
static bool frozen_2x2(const struct sokoban *s, const uint8_t *box, int c)
{
	int right = s->off[LK_RIGHT], down = s->off[LK_DOWN];
	int corners[4] = { c, c - right, c - down, c - right - down };
	for (int k = 0; k < 4; k++) {
		int q = corners[k];
		int sq[4] = { q, q + right, q + down, q + right + down };
		bool all = true;
		for (int j = 0; j < 4 && all; j++)
			all = s->wall[sq[j]] || box[sq[j]];
		if (all)
			return true;
	}
	return false;
}

/* Boxes of the n at row (not packed) on squares where position k has one. */
static int score(const struct soko_imagine *im, int k, const uint16_t *row, int n)
{
	if (k < 0)
		return 0;
	const uint8_t *w = im->what + (size_t)k * (size_t)im->cells;
	int sum = 0;
	for (int i = 0; i < n; i++)
		sum += w[row[i]] == IMG_BOX;
	return sum;
}

/* The least total of pushes that brings the boxes at row (box: per cell,
 * the same boxes) onto position k's squares; a box frozen in a 2x2 block
 * stays where it is. */
static long distance(struct soko_imagine *im, const struct sokoban *s, int k,
		     const uint16_t *row, const uint8_t *box)
{
	int n = im->nboxes;
	const uint16_t *sq = im->squares + (size_t)k * (size_t)n;
	for (int j = 0; j < n; j++) {
		const uint16_t *d = pushes_to(im, s, sq[j]);
		for (int i = 0; i < n; i++) {
			int v = d[row[i]] == SOKO_INF ? LK_ASSIGN_NONE : d[row[i]];
			im->cost[i * n + j] = v;
		}
	}
	for (int i = 0; i < n; i++)
		if (frozen_2x2(s, box, row[i]))
			for (int j = 0; j < n; j++)
				im->cost[i * n + j] = sq[j] == row[i] ? 0 : LK_ASSIGN_NONE;
	return lk_assign(im->cost, n, n, im->work);
}

long soko_fess_imagine(struct any *a, const struct expansion *x, const struct soko_features *f)
{
	const struct sokoban *s = a->s;
	if (!a->imagine_tried) {
		a->imagine_tried = true;
		a->imagine = a->plan.park ? soko_imagine_build(s, a->plan.park) : NULL;
	}
	struct soko_imagine *im = a->imagine;
	if (!im)
		return -1;
	int mine = im->board_of[f->packed < a->plan.park->nsteps ? f->packed : a->plan.park->nsteps];
	if (mine < 0)
		return -1;
	struct soko_scratch *sc = a->scratch2;
	const unsigned char *pk = lk_table_key(&a->table, x->node);
	int n = soko_unpack(s, pk, sc);
	if (n != im->nboxes) {
		soko_clear_boxes(s, sc, n);
		return -1;
	}
	int here = score(im, mine, sc->boxes, n);
	long best = -1, best_dist = 0;
	struct soko_features bf;
	for (uint32_t i = 0; i < x->nmoves; i++) {
		uint32_t child = a->moves[x->moves + i].child;
		if (a->flags[child])
			continue;
		struct soko_features c;
		soko_features_unpack(lk_table_cost(&a->table, child), &c);
		if (c.packed < f->packed)
			continue;
		int from, to = soko_moved_box(s, pk, lk_table_key(&a->table, child), &from);
		if (to < 0 || from < 0)
			continue;
		for (int j = 0; j < n; j++)
			im->row[j] = sc->boxes[j] == from ? (uint16_t)to : sc->boxes[j];
		int theirs = im->board_of[c.packed < a->plan.park->nsteps ? c.packed
									   : a->plan.park->nsteps];
		if (score(im, theirs, im->row, n) <= here)
			continue;
		/* the distance to the parent's imagined position, as Festival's */
		sc->box[from] = 0;
		sc->box[to] = 1;
		long d = distance(im, s, mine, im->row, sc->box);
		sc->box[to] = 0;
		sc->box[from] = 1;
		if (best >= 0 && (d > best_dist || (d == best_dist && !soko_features_better(&c, &bf))))
			continue;
		best = (long)i;
		best_dist = d;
		bf = c;
	}
	soko_clear_boxes(s, sc, n);
	return best;
}
