/*
 * laser_prune.c - the solver's reasoning at a node, all of it sound (it
 * never cuts a branch that holds a solution the search is asked for):
 *
 *  - look-ahead from the targets backwards: a piece that must fire (a
 *    target; in tidy mode every placed piece) needs, on each in-port not
 *    yet fed, a feeder: the first non-empty cell in that direction, which
 *    must be a piece with an out-port facing back that can itself fire, or
 *    an undecided cell a spare tray piece with that out-port could fill;
 *  - the generator's learned nogoods;
 *  - concepts: bounds on the facts below the node, evaluated three-valued
 *    (expr.h), and in tidy mode the types whose next piece would decide
 *    the concept against every solution, which then may not be placed;
 *  - beam balance: in tidy mode every in-port of a piece that must fire is
 *    fed by one beam, so the beams still to come (pending, and from pieces
 *    to fire) and the in-ports still to feed must be evened out by the
 *    pieces still to place, splitters adding beams and combiners taking
 *    them;
 *  - powers: with no splitter left that could fire, a target's need is a
 *    sum of powers already in play; with no combiner, a power in play
 *    divided by the splitters left.
 */
#include <stdlib.h>

#include "laser_engine.h"

/* ------------------------------------------------------ look-ahead */

enum { MARK_BUSY = 1, MARK_YES, MARK_NO };

static bool can_fire(struct engine *e, int q, uint8_t capable);

/* Could the piece on c (or the stop cell c) feed a beam out of side? */
static bool feeds(struct engine *e, int c, int side, uint8_t capable)
{
	const struct laser_kind *k = &e->lv->kind[e->at[c]];
	return (k->outs >> side & 1) && can_fire(e, c, capable);
}

/* Can the in-port of q on side s still receive a beam? */
static bool feeder_ok(struct engine *e, int q, int s, uint8_t capable)
{
	int len, back = laser_opposite(s);
	const int *ray = lk_ray(&e->lv->rays, q, s, &len);
	for (int i = 0; i < len; i++) {
		int c = ray[i];
		if (e->at[c] == EMPTY)
			continue;
		if (e->at[c] == UNDECIDED) {
			if (capable >> back & 1)
				return true;
			continue;   /* a piece here would block: feed from further */
		}
		return feeds(e, c, back, capable);
	}
	int stop = e->lv->rays.stop[q * 4 + s];
	return stop >= 0 && feeds(e, stop, back, capable);
}

/* Can the piece on q still fire?  Optimistic, and never wrong when it
 * says no: a piece waiting (directly or not) for its own output never
 * fires, which the BUSY mark catches. */
static bool can_fire(struct engine *e, int q, uint8_t capable)
{
	const struct laser_kind *k = &e->lv->kind[e->at[q]];
	if (k->type == LK_LASER_TGT) {
		/* a target short of its need: one more beam on any side it has
		 * not been fed from (it sums them) */
		if (!laser_target_short(e, q))
			return true;
		for (int s = 0; s < 4; s++)
			if ((k->ins & ~e->recv[q]) >> s & 1 && feeder_ok(e, q, s, capable))
				return true;
		return false;
	}
	if (e->fired[q])
		return true;
	if (e->mark[q] == e->stamp)
		return e->mark_state[q] == MARK_YES;
	e->mark[q] = e->stamp;
	e->mark_state[q] = MARK_BUSY;
	bool ok = k->type != LK_LASER_BLOCKER && k->type != LK_LASER_SRC;
	for (int s = 0; s < 4 && ok; s++)
		if ((k->ins >> s & 1) && !(e->recv[q] >> s & 1))
			ok = feeder_ok(e, q, s, capable);
	e->mark_state[q] = ok ? MARK_YES : MARK_NO;
	return ok;
}

bool laser_lookahead(struct engine *e, unsigned allowed)
{
	const struct lk_laser *lv = e->lv;
	uint8_t capable = 0;
	if (e->lost > e->slack)
		return false;
	if (e->o->weak)
		return true;
	for (int i = 0; i < lv->ntray; i++)
		if (laser_line_free(e, i) && (allowed >> lv->kind[lv->nfixed + i].type & 1))
			capable |= lv->kind[lv->nfixed + i].outs;
	if (++e->stamp == 0) {
		memset(e->mark, 0, sizeof e->mark);
		e->stamp = 1;
	}
	for (int i = 0; i < lv->npieces; i++) {
		int c = lv->piece_cell[i];
		if (lv->kind[e->at[c]].type == LK_LASER_TGT && !can_fire(e, c, capable))
			return false;
	}
	if (e->o->tidy && e->unfired_placed) {
		for (int i = 0; i < e->nplaced; i++) {
			int c = e->placed_cell[i];
			if (!e->fired[c] && !can_fire(e, c, capable))
				return false;
		}
	}
	return true;
}

/* ---------------------------------------------------- learned nogoods */

bool laser_nogood_cut(const struct engine *e)
{
	const struct lk_laser_nogoods *ng = e->o->nogoods;
	const struct lk_laser *lv = e->lv;
	uint64_t used[LK_LASER_MAX_CELLS / 64] = { 0 };
	if (!ng || !ng->n)
		return false;
	for (int c = 0; c < lv->ncells; c++)
		if (e->at[c] == EMPTY || laser_is_placed(e, c))
			used[c / 64] |= UINT64_C(1) << (c % 64);
	for (size_t i = 0; i < ng->n; i++) {
		const struct laser_nogood *g = &ng->v[i];
		bool all = true;
		for (int w = 0; w < LK_LASER_MAX_CELLS / 64 && all && ng->cells_matter; w++)
			all = (g->cells[w] & ~used[w]) == 0;
		for (int l = 0; l < lv->ntray && all; l++)
			all = e->placed_line[l] >= g->need[l];
		if (all)
			return true;
	}
	return false;
}

/* ------------------------------------------------------------ concepts */

static int find(int *parent, int a)
{
	while (parent[a] != a)
		a = parent[a] = parent[parent[a]];
	return a;
}

/* Bounds on the number of networks below this node.  In tidy mode every
 * piece still to come is fed from one already there, so links only merge
 * networks; otherwise idle pieces may each add one.  Each future link
 * merges at most two: they come from the beams not yet followed, from
 * pieces still to fire, and from pieces still to place (a new piece is a
 * network of its own until the beam that feeds it, counted already). */
static bool must_fire(const struct engine *e, int c);

/* The most parts a set of atoms (their power balances) can be split into,
 * each balancing to zero: subsets by dynamic programming, or -1 when there
 * are too many atoms to try. */
#define MAX_ATOMS 10
static int zero_sum_parts(const int64_t *balance, int n)
{
	int best[1 << MAX_ATOMS];
	int64_t sum[1 << MAX_ATOMS];
	if (n > MAX_ATOMS)
		return -1;
	sum[0] = 0;
	best[0] = 0;
	for (int m = 1; m < 1 << n; m++) {
		int low = m & -m, i = 0;
		while (!(low >> i & 1))
			i++;
		sum[m] = sum[m ^ low] + balance[i];
		best[m] = -1;
		/* parts holding the lowest atom, then the best of the rest */
		for (int sub = m; sub; sub = (sub - 1) & m) {
			if (!(sub & low) || sum[sub] != 0 || best[m ^ sub] < 0)
				continue;
			if (best[m ^ sub] + 1 > best[m])
				best[m] = best[m ^ sub] + 1;
		}
	}
	return best[(1 << n) - 1];
}

/* Bounds on the number of networks below this node.  In tidy mode every
 * piece still to come is fed from one already there, so links only merge
 * networks; otherwise idle pieces may each add one.  Each future link
 * merges at most two: they come from the beams not yet followed, from
 * pieces still to fire, and from pieces still to place (a new piece is a
 * network of its own until the beam that feeds it, counted already).
 * When no power may be lost, each network that holds power gives its
 * targets exactly what its sources emit: the networks split the current
 * ones holding sources or targets into groups whose powers balance, and
 * there are at most as many as such a split has parts (plus fixed pieces
 * that need not fire, alone). */
static void network_bounds(const struct engine *e, int *lo, int *hi)
{
	const struct lk_laser *lv = e->lv;
	int parent[LK_LASER_MAX_CELLS], comps = 0, links = e->open_beams;
	for (int c = 0; c < lv->ncells; c++) {
		parent[c] = c;
	}
	for (int c = 0; c < lv->ncells; c++) {
		if (e->at[c] < 0 || e->at[c] == lv->blocker)
			continue;
		for (int s = 0; s < 4; s++)
			if (e->recv[c] >> s & 1)
				parent[find(parent, c)] = find(parent, e->recv_from[c][s]);
		if (!e->fired[c])
			links += lv->kind[e->at[c]].nout;
	}
	for (int c = 0; c < lv->ncells; c++)
		comps += e->at[c] >= 0 && e->at[c] != lv->blocker && find(parent, c) == c;
	links += e->spare_type[LK_LASER_SP2] + 2 * e->spare_type[LK_LASER_SP3];
	*hi = comps + (e->o->tidy ? 0 : e->spare_total);
	*lo = comps - links;
	if (*lo < (comps > 0))
		*lo = comps > 0;
	if (!e->o->tidy || e->slack != 0)
		return;
	/* atoms: networks now holding a source or a target, with balances */
	int atom_of[LK_LASER_MAX_CELLS], natoms = 0, alone = 0;
	int64_t balance[LK_LASER_MAX_CELLS];
	bool powered[LK_LASER_MAX_CELLS] = { false };
	for (int i = 0; i < lv->npieces; i++) {
		int c = lv->piece_cell[i];
		const struct laser_kind *k = &lv->kind[e->at[c]];
		if (k->type == LK_LASER_SRC || k->type == LK_LASER_TGT)
			powered[find(parent, c)] = true;
	}
	for (int c = 0; c < lv->ncells; c++)
		atom_of[c] = -1;
	for (int i = 0; i < lv->npieces + e->nplaced; i++) {
		int c = i < lv->npieces ? lv->piece_cell[i] : e->placed_cell[i - lv->npieces];
		const struct laser_kind *k = &lv->kind[e->at[c]];
		int root = find(parent, c);
		if (k->any_need)
			return;   /* a target that takes anything: no balance */
		if (!powered[root]) {
			/* a network of pieces only: fed later (those that must
			 * fire), or maybe never (a fixed piece that need not) */
			if (root == c && !must_fire(e, c) && !laser_is_placed(e, c))
				alone++;
			continue;
		}
		if (atom_of[root] < 0) {
			if (natoms == MAX_ATOMS)
				return;
			atom_of[root] = natoms;
			balance[natoms++] = 0;
		}
		if (k->type == LK_LASER_SRC)
			balance[atom_of[root]] += k->value;
		else if (k->type == LK_LASER_TGT)
			balance[atom_of[root]] -= k->value;
	}
	int parts = zero_sum_parts(balance, natoms);
	if (parts >= 0 && parts + alone < *hi)
		*hi = parts + alone;
	if (*lo > *hi)
		*lo = *hi;
}

static void bounds(const struct engine *e, struct laser_bounds *b)
{
	const struct lk_laser *lv = e->lv;
	laser_level_facts(lv, &b->lo);
	laser_level_facts(lv, &b->hi);
	int unfired_placed_type[LK_LASER_NTYPES] = { 0 };
	if (e->o->tidy)
		for (int i = 0; i < e->nplaced; i++)
			if (!e->fired[e->placed_cell[i]])
				unfired_placed_type[lv->kind[e->at[e->placed_cell[i]]].type]++;
	for (int t = 0; t < LK_LASER_NTYPES; t++) {
		/* in tidy mode every placed piece will fire */
		b->lo.fired[t] = e->fired_type[t] + unfired_placed_type[t];
		b->hi.fired[t] = e->fired_type[t] + e->unfired_type[t] + e->spare_type[t];
		b->lo.placed[t] = e->placed_type[t];
		b->hi.placed[t] = e->placed_type[t] + e->spare_type[t];
	}
	/* every solution satisfies every target */
	b->lo.fired[LK_LASER_TGT] += lv->ntargets - e->fired_type[LK_LASER_TGT] -
				     unfired_placed_type[LK_LASER_TGT];
	b->lo.fired[LK_LASER_TGT] = b->lo.fired[LK_LASER_TGT] < lv->ntargets ? lv->ntargets
									       : b->lo.fired[LK_LASER_TGT];
	b->lo.placed_total = e->nplaced;
	b->hi.placed_total = e->nplaced + e->spare_total;
	if (e->o->tray_open) {
		b->lo.tray = 0;
		b->hi.tray = LK_LASER_MAX_CELLS * LK_LASER_MAX_LINES;
	}
	b->lo.idle = 0;
	b->hi.idle = e->o->tidy ? 0 : e->unfired_placed + e->spare_total;
	if (e->need_network) {
		network_bounds(e, &b->lo.network, &b->hi.network);
	} else {
		b->lo.network = lv->npieces + e->nplaced > 0;
		b->hi.network = lv->npieces + e->nplaced + e->spare_total;
	}
}

/* Would every solution with these bounds fail the concept filter? */
static bool decided_against(const struct engine *e, struct laser_bounds *b)
{
	enum lk_truth t;
	if (e->o->violate && lk_expr_eval_facts(e->o->violate, laser_lookup_bounds, b, &t, NULL) == 0 &&
	    t == LK_TRUE)
		return true;
	if (e->o->satisfy && lk_expr_eval_facts(e->o->satisfy, laser_lookup_bounds, b, &t, NULL) == 0 &&
	    t == LK_FALSE)
		return true;
	return false;
}

bool laser_concept_cut(const struct engine *e, unsigned *allowed)
{
	*allowed = (1u << LK_LASER_NTYPES) - 1;
	if (!e->o->violate && !e->o->satisfy)
		return false;
	struct laser_bounds b;
	bounds(e, &b);
	/* this run's class of counts (lk_laser_search); sure: the pieces
	 * that fire in every solution below, before the class says more */
	int sure[LK_LASER_NTYPES];
	for (int t = 0; t < LK_LASER_NTYPES; t++) {
		sure[t] = b.lo.fired[t];
		if (b.lo.fired[t] > e->fmax[t] || b.hi.fired[t] < e->fmin[t])
			return true;
		if (e->o->tidy && b.lo.fired[t] == e->fmax[t])
			*allowed &= ~(1u << t);   /* one more would fire one too many */
		b.lo.fired[t] = b.lo.fired[t] > e->fmin[t] ? b.lo.fired[t] : e->fmin[t];
		b.hi.fired[t] = b.hi.fired[t] < e->fmax[t] ? b.hi.fired[t] : e->fmax[t];
	}
	b.cache = (struct laser_fact_cache *)&e->cache;
	struct laser_view view;
	b.view = NULL;
	if (e->need_power) {
		laser_engine_view(e, false, &view);
		b.view = &view;
	}
	if (decided_against(e, &b))
		return true;
	/* In tidy mode a placed piece fires: a type whose next piece would
	 * decide the filter against every solution may not be placed. */
	if (!e->o->tidy)
		return false;
	for (int t = LK_LASER_TGT; t <= LK_LASER_CMB3; t++) {
		if (!e->spare_type[t] || !(*allowed >> t & 1))
			continue;
		struct laser_bounds h = b;
		h.lo.fired[t] = sure[t] + 1 > e->fmin[t] ? sure[t] + 1 : e->fmin[t];
		h.lo.placed[t]++;
		h.lo.placed_total++;
		if (t == LK_LASER_TGT)
			h.lo.fired[t] = h.lo.fired[t] > h.hi.fired[t] ? h.hi.fired[t] : h.lo.fired[t];
		if (decided_against(e, &h))
			*allowed &= ~(1u << t);
	}
	return false;
}

bool laser_concept_ok(const struct engine *e, const struct lk_laser_facts *f)
{
	struct laser_view view;
	struct laser_bounds b = { *f, *f, (struct laser_fact_cache *)&e->cache, NULL };
	if (e->o->tray_open) {
		b.lo.tray = 0;
		b.hi.tray = LK_LASER_MAX_CELLS * LK_LASER_MAX_LINES;
	}
	if (e->need_power) {
		laser_engine_view(e, true, &view);
		b.view = &view;
	}
	return !decided_against(e, &b);
}

void laser_engine_view(const struct engine *e, bool final, struct laser_view *v)
{
	memset(v, 0, sizeof *v);
	v->lv = e->lv;
	v->at = e->at;
	v->fired = e->fired;
	v->recv = e->recv;
	v->recv_value = (const int64_t (*)[4])e->recv_value;
	v->recv_from = (const int16_t (*)[4])e->recv_from;
	v->final = final;
	for (int t = 0; t < LK_LASER_NTYPES; t++)
		v->may_fire[t] = e->unfired_type[t] + e->spare_type[t];
}


/* ---------------------------------------------------------- balance */

static int type_delta(int type)
{
	static const int nin[LK_LASER_NTYPES] = { 0, 1, 1, 1, 1, 2, 3, 0 };
	static const int nout[LK_LASER_NTYPES] = { 1, 0, 1, 2, 3, 1, 1, 0 };
	return nout[type] - nin[type];
}

static int popcount4(unsigned v)
{
	return (int)(v & 1) + (int)(v >> 1 & 1) + (int)(v >> 2 & 1) + (int)(v >> 3 & 1);
}

/* Must the piece on c fire in every solution below? */
static bool must_fire(const struct engine *e, int c)
{
	const struct laser_kind *k = &e->lv->kind[e->at[c]];
	if (k->type == LK_LASER_TGT)
		return !k->any_need || e->o->tidy;
	if (laser_is_placed(e, c))
		return e->o->tidy;
	/* a fixed piece holding a beam must fire, or that power is lost */
	return e->slack == 0 && e->recv[c] != 0;
}

bool laser_balance_ok(const struct engine *e, unsigned allowed)
{
	const struct lk_laser *lv = e->lv;
	if (!e->o->tidy || e->o->weak)
		return true;
	/* d: beams to come minus in-ports to feed, over what is on the board */
	int d = e->open_beams, lo = 0, hi = 0;
	for (int i = 0; i < lv->npieces + e->nplaced; i++) {
		int c = i < lv->npieces ? lv->piece_cell[i] : e->placed_cell[i - lv->npieces];
		const struct laser_kind *k = &lv->kind[e->at[c]];
		if (k->type == LK_LASER_TGT) {
			/* short of its need: one more beam at least, and at
			 * most one per side not yet fed */
			if (laser_target_short(e, c)) {
				d -= 1;
				lo -= k->nin - popcount4(e->recv[c]) - 1;
			}
			continue;
		}
		if (e->fired[c])
			continue;
		int delta = k->nout - (k->nin - popcount4(e->recv[c]));
		if (must_fire(e, c)) {
			d += delta;
		} else if (k->type != LK_LASER_SRC) {
			lo += delta < 0 ? delta : 0;   /* it may fire or not */
			hi += delta > 0 ? delta : 0;
		}
	}
	/* pieces this run's class of counts still needs will come */
	int owed[LK_LASER_NTYPES];
	for (int t = 0; t < LK_LASER_NTYPES; t++)
		owed[t] = e->fmin[t];
	for (int i = 0; i < lv->npieces + e->nplaced; i++) {
		int c = i < lv->npieces ? lv->piece_cell[i] : e->placed_cell[i - lv->npieces];
		owed[lv->kind[e->at[c]].type]--;   /* it may be one of them */
	}
	for (int g = 0; g < lv->ngroups; g++) {
		int i = 0;
		while (i < lv->ntray && lv->line_group[i] != g)
			i++;
		if (i == lv->ntray || !e->gspare[g])
			continue;
		int type = lv->kind[lv->nfixed + i].type, n = e->gspare[g];
		if (!(allowed >> type & 1))
			continue;
		while (owed[type] > 0 && n > 0) {
			owed[type]--;
			d += type_delta(type);
			n--;
		}
		int delta = type_delta(type) * n;
		lo += delta < 0 ? delta : 0;
		hi += delta > 0 ? delta : 0;
	}
	for (int t = 0; t < LK_LASER_NTYPES; t++)
		if (owed[t] > 0)
			return false;   /* not enough pieces left for the class */
	/* the pieces to come change d by a sum in [lo, hi]; lost beams lower
	 * it further, and none may be lost when no power may */
	if (-d > hi)
		return false;
	return e->slack > 0 || -d >= lo;
}

/* ------------------------------------------------------------ powers */

bool laser_values_ok(const struct engine *e, unsigned allowed)
{
	const struct lk_laser *lv = e->lv;
	int64_t atoms[MAX_BEAMS];
	int natoms = 0, n2 = 0, n3 = 0, ncomb = 0;
	if (e->o->weak || !e->targets_left)
		return true;
	for (int b = 0; b < e->npend; b++)
		if (!e->pend[b].done)
			atoms[natoms++] = e->pend[b].value;
	for (int i = 0; i < lv->npieces + e->nplaced; i++) {
		int c = i < lv->npieces ? lv->piece_cell[i] : e->placed_cell[i - lv->npieces];
		if (e->fired[c])
			continue;
		const struct laser_kind *k = &lv->kind[e->at[c]];
		for (int s = 0; s < 4; s++)
			if (e->recv[c] >> s & 1)
				atoms[natoms++] = e->recv_value[c][s];
		n2 += k->type == LK_LASER_SP2;
		n3 += k->type == LK_LASER_SP3;
		ncomb += k->type == LK_LASER_CMB2 || k->type == LK_LASER_CMB3;
	}
	if (allowed >> LK_LASER_SP2 & 1)
		n2 += e->spare_type[LK_LASER_SP2];
	if (allowed >> LK_LASER_SP3 & 1)
		n3 += e->spare_type[LK_LASER_SP3];
	if (allowed >> LK_LASER_CMB2 & 1)
		ncomb += e->spare_type[LK_LASER_CMB2];
	if (allowed >> LK_LASER_CMB3 & 1)
		ncomb += e->spare_type[LK_LASER_CMB3];
	if ((n2 || n3) && ncomb)
		return true;
	int64_t least = INT64_MAX;
	for (int i = 0; i < natoms; i++)
		least = atoms[i] < least ? atoms[i] : least;
	for (int i = 0; i < lv->npieces; i++) {
		int c = lv->piece_cell[i];
		const struct laser_kind *k = &lv->kind[e->at[c]];
		if (k->type != LK_LASER_TGT || k->any_need || !laser_target_short(e, c))
			continue;
		int64_t v = k->value - e->tsum[c];
		if (!n2 && !n3 && v < least)
			return false;   /* sums of powers in play are no less */
		if (ncomb || k->nin - popcount4(e->recv[c]) > 1)
			continue;   /* a target fed from two sides adds too */
		/* a power in play split by at most n2 halves and n3 thirds */
		bool ok = false;
		for (int a = 0; a < natoms && !ok; a++) {
			int64_t u = atoms[a];
			if (u < v || u % v)
				continue;
			int64_t q = u / v;
			int h = 0, t = 0;
			while (q % 2 == 0 && h <= n2)
				q /= 2, h++;
			while (q % 3 == 0 && t <= n3)
				q /= 3, t++;
			ok = q == 1 && h <= n2 && t <= n3;
		}
		if (!ok)
			return false;
	}
	return true;
}

/* ------------------------------------------------------------ reach */

/*
 * Which in-ports could still receive a beam: a fixpoint over everything
 * that could happen below this node.  The beams not yet followed travel
 * through empty and undecided cells and stop at pieces; at an undecided
 * cell a beam may also be caught by a spare piece of an allowed type,
 * which can then send beams of its own once all its in-ports can be
 * reached; a piece on the board sends its beams once its in-ports can be.
 * Every beam of every completion is among these (it over-approximates: a
 * piece put on a cell would also stop the beams crossing it), so a piece
 * that must fire with an in-port no beam can reach prunes the branch.
 * The look-ahead above only asks for a feeder in the right place; this
 * asks whether anything could feed that feeder.
 */
bool laser_reach_ok(const struct engine *e, unsigned allowed)
{
	const struct lk_laser *lv = e->lv;
	uint8_t turn[16] = { 0 }, reach[LK_LASER_MAX_CELLS], sent[LK_LASER_MAX_CELLS];
	int16_t stack[LK_LASER_MAX_CELLS * 4][2];
	int top = 0;
	if (e->o->weak)
		return true;
	/* turn[m]: the out-ports of an allowed spare piece whose in-ports are
	 * among the sides m */
	for (int i = 0; i < lv->ntray; i++) {
		const struct laser_kind *k = &lv->kind[lv->nfixed + i];
		if (laser_line_free(e, i) && (allowed >> k->type & 1))
			turn[k->ins] |= k->outs;
	}
	for (int m = 0; m < 16; m++)
		for (int sub = m; sub; sub = (sub - 1) & m)
			turn[m] |= turn[sub];
	for (int c = 0; c < lv->ncells; c++) {
		reach[c] = e->at[c] >= 0 ? e->recv[c] : 0;
		sent[c] = 0;
	}
	for (int b = 0; b < e->npend; b++) {
		if (e->pend[b].done)
			continue;
		stack[top][0] = e->pend[b].from;
		stack[top++][1] = e->pend[b].side;
		sent[e->pend[b].from] |= (uint8_t)(1u << e->pend[b].side);
	}
	while (top) {
		int from = stack[--top][0], d = stack[top][1], in = laser_opposite(d), len;
		const int *ray = lk_ray(&lv->rays, from, d, &len);
		for (int i = 0; i <= len; i++) {
			int q = i < len ? ray[i] : lv->rays.stop[from * 4 + d];
			if (q < 0 || (i < len && e->at[q] == EMPTY))
				continue;
			if (!(reach[q] >> in & 1)) {
				reach[q] |= (uint8_t)(1u << in);
				uint8_t outs = 0;
				if (e->at[q] == UNDECIDED) {
					outs = turn[reach[q]];
				} else if (e->at[q] != lv->blocker && !e->fired[q]) {
					const struct laser_kind *k = &lv->kind[e->at[q]];
					if (!(k->ins & ~reach[q]) && k->type != LK_LASER_TGT)
						outs = k->outs;
				}
				outs &= (uint8_t)~sent[q];
				sent[q] |= outs;
				for (int s = 0; s < 4; s++) {
					if (outs >> s & 1) {
						stack[top][0] = (int16_t)q;
						stack[top++][1] = (int16_t)s;
					}
				}
			}
			if (e->at[q] >= 0)
				break;   /* a piece stops the beam */
		}
	}
	for (int i = 0; i < lv->npieces + e->nplaced; i++) {
		int c = i < lv->npieces ? lv->piece_cell[i] : e->placed_cell[i - lv->npieces];
		const struct laser_kind *k = &lv->kind[e->at[c]];
		if (k->type == LK_LASER_TGT) {
			/* one more beam on a side not yet fed */
			if (laser_target_short(e, c) && must_fire(e, c) && !(k->ins & ~e->recv[c] & reach[c]))
				return false;
			continue;
		}
		if (e->fired[c] || !must_fire(e, c))
			continue;
		if (k->ins & ~reach[c])
			return false;
	}
	return true;
}
