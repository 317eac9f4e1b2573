/*
 * laser_search.c - the solver: a constraint search over placements that
 * follows the beams, with a visitor over every solution.
 *
 * The variables are the empty cells (which tray line, if any, stands
 * there), but they are decided in the order the beams reach them: the
 * search keeps the beams that firing pieces have sent and not yet traced,
 * picks one, and walks it from its piece.  Each undecided cell it meets
 * either gets a tray piece (the beam stops there) or is decided empty (the
 * beam goes on); a piece that has received all its inputs fires and sends
 * beams of its own.  When no beam is left, the firing set is final: it is
 * exactly the least fixpoint of SPEC.md, since every beam of every firing
 * piece has been followed through cells whose content is decided.  Cells
 * no beam crossed are still undecided, and a piece put there would receive
 * nothing and block nothing, so in "all" mode such a leaf stands for the
 * placement plus any spare pieces on any of those cells: they are counted
 * by formula, not enumerated.  Each placement is reached by exactly one
 * path (every branch decides a cell differently), so counts are exact.
 *
 * Pruning, all of it sound (it never cuts a branch with a solution):
 *  - power: sources emit S in all, splitting and combining conserve it, so
 *    at most S minus the targets' needs can ever be lost (off the board,
 *    blocked, or held by a piece that never fires);
 *  - a target whose beams sum to more than its need fails at once;
 *  - look-ahead from the targets backwards: a piece that must fire (a
 *    target; in tidy mode every placed piece) needs, on each in-port not
 *    yet fed, a feeder: the first non-empty cell in that direction, which
 *    must be a piece with an out-port facing back that can itself fire, or
 *    an undecided cell a spare tray piece with that out-port could fill;
 *  - concepts: bounds on the facts below a node (expr.h's three-valued
 *    evaluation) cut branches where the concept is already decided;
 *  - the generator's learned constraints (nogoods), which only grow along
 *    a branch: the cells used and the pieces placed.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <stdlib.h>

#include "levelkit/clock.h"
#include "laser_engine.h"

/* ---------------------------------------------------------- firing */

static int64_t emitted(const struct laser_kind *k, const int64_t *in)
{
	int64_t sum = 0;
	for (int s = 0; s < 4; s++)
		if (k->ins >> s & 1)
			sum += in[s];
	if (k->type == LK_LASER_SP2)
		return sum / 2;
	if (k->type == LK_LASER_SP3)
		return sum / 3;
	return sum;
}

/* The piece on q has all its inputs: it fires.  false: a conflict. */
static bool fire(struct engine *e, int q)
{
	const struct lk_laser *lv = e->lv;
	const struct laser_kind *k = &lv->kind[e->at[q]];
	SET(e, e->fired[q], true);
	SET(e, e->fired_type[k->type], e->fired_type[k->type] + 1);
	SET(e, e->unfired_type[k->type], e->unfired_type[k->type] - 1);
	if (e->at[q] >= lv->nfixed)
		SET(e, e->unfired_placed, e->unfired_placed - 1);
	int64_t out = k->type == LK_LASER_SRC ? k->value : emitted(k, e->recv_value[q]);
	SET(e, e->npend, e->npend);
	SET(e, e->open_beams, e->open_beams + k->nout);
	for (int s = 0; s < 4; s++) {
		if (k->outs >> s & 1)
			e->pend[e->npend++] = (struct pbeam){ (int16_t)q, (int8_t)s, false, out };
	}
	return true;
}

static bool lose(struct engine *e, int64_t v)
{
	SET(e, e->lost, e->lost + v);
	return e->lost <= e->slack;
}

/* The target on q receives a beam of power v: it "fires" on its first
 * beam, sums them (a target on several sides), and fails as soon as the
 * sum passes its need (powers are positive, so sums only grow); it is
 * satisfied while the sum equals the need.  false: a conflict. */
static bool target_gets(struct engine *e, int q, int64_t v)
{
	const struct laser_kind *k = &e->lv->kind[e->at[q]];
	if (!e->fired[q]) {
		SET(e, e->fired[q], true);
		SET(e, e->fired_type[LK_LASER_TGT], e->fired_type[LK_LASER_TGT] + 1);
		SET(e, e->unfired_type[LK_LASER_TGT], e->unfired_type[LK_LASER_TGT] - 1);
		if (e->at[q] >= e->lv->nfixed)
			SET(e, e->unfired_placed, e->unfired_placed - 1);
	}
	if (k->any_need)
		return true;   /* a target the generator places takes what comes */
	SET(e, e->tsum[q], e->tsum[q] + v);
	if (e->tsum[q] > k->value)
		return false;
	if (e->tsum[q] == k->value)
		SET(e, e->targets_left, e->targets_left - 1);
	return true;
}

/* A beam from `from` of power v heading `side` stops at q (which holds a
 * piece); false: a conflict. */
static bool deliver(struct engine *e, int from, int side, int q, int64_t v)
{
	const struct laser_kind *k = &e->lv->kind[e->at[q]];
	int in = laser_opposite(side);
	if (!(k->ins >> in & 1))
		return lose(e, v);
	SET(e, e->recv[q], (uint8_t)(e->recv[q] | 1u << in));
	SET(e, e->recv_value[q][in], v);
	SET(e, e->recv_from[q][in], (int16_t)from);
	if (k->type == LK_LASER_TGT)
		return target_gets(e, q, v);
	return e->recv[q] != k->ins || fire(e, q);
}

static void place(struct engine *e, int q, int line)
{
	const struct lk_laser *lv = e->lv;
	int type = lv->kind[lv->nfixed + line].type, g = lv->line_group[line];
	SET(e, e->at[q], (int16_t)(lv->nfixed + line));
	SET(e, e->spare[line], e->spare[line] - 1);
	SET(e, e->gspare[g], e->gspare[g] - 1);
	SET(e, e->placed_line[line], e->placed_line[line] + 1);
	SET(e, e->spare_type[type], e->spare_type[type] - 1);
	SET(e, e->spare_total, e->spare_total - 1);
	SET(e, e->placed_type[type], e->placed_type[type] + 1);
	SET(e, e->unfired_type[type], e->unfired_type[type] + 1);
	SET(e, e->unfired_placed, e->unfired_placed + 1);
	e->placed_cell[e->nplaced] = (int16_t)q;   /* past the count: no need to save */
	SET(e, e->nplaced, e->nplaced + 1);
}

/* ------------------------------------------------------------- search */

/* The library's clock: LEVELKIT_CLOCK=cpu makes --timeout CPU seconds. */
static double elapsed(const struct engine *e)
{
	return lk_now() - e->t0;
}

static bool out_of_bounds(struct engine *e)
{
	const struct lk_laser_search_options *o = e->o;
	if ((o->bounds.max_states && e->r->nodes > o->bounds.max_states) ||
	    (o->extra_nodes && e->r->solutions && e->r->nodes > e->r->nodes_to_first + o->extra_nodes)) {
		e->r->limit = LK_LIMIT_STATES;
		return true;
	}
	if ((e->r->nodes & 255) == 0) {
		if (lk_bounds_cancelled(&o->bounds)) {
			e->r->limit = LK_LIMIT_INTERRUPTED;
			return true;
		}
		if (o->bounds.max_seconds > 0 && elapsed(e) > o->bounds.max_seconds) {
			e->r->limit = LK_LIMIT_TIME;
			return true;
		}
	}
	return false;
}

/* The pending beam to trace next, or -1 when none is left. */
static int choose(struct engine *e)
{
	int best = -1, best_open = 1 << 30, n = 0;
	for (int b = 0; b < e->npend; b++) {
		if (e->pend[b].done)
			continue;
		if (e->shuffle) {
			/* a uniform choice among the pending beams */
			if (lk_rng_below(&e->rng, (uint32_t)++n) == 0)
				best = b;
			continue;
		}
		if (e->o->fixed_order)
			return b;
		int len, open = 0;
		const int *ray = lk_ray(&e->lv->rays, e->pend[b].from, e->pend[b].side, &len);
		for (int i = 0; i < len && e->at[ray[i]] < 0 && open < best_open; i++)
			open += e->at[ray[i]] == UNDECIDED;
		if (open < best_open) {
			best = b;
			best_open = open;
			if (!open)
				break;   /* forced: no choice to make */
		}
	}
	return best;
}

static void undo(struct engine *e, size_t to)
{
	laser_undo(e, to);
}

static void dfs(struct engine *e);

static void pieces_at(struct engine *e, const struct pbeam *pb, int q, unsigned allowed)
{
	const struct lk_laser *lv = e->lv;
	int order[LK_LASER_MAX_LINES];
	for (int j = 0; j < lv->ntray; j++)
		order[j] = j;
	if (e->shuffle) {
		for (int j = lv->ntray - 1; j > 0; j--) {
			int k = (int)lk_rng_below(&e->rng, (uint32_t)j + 1), t = order[j];
			order[j] = order[k];
			order[k] = t;
		}
	}
	for (int j = 0; j < lv->ntray && !e->stop; j++) {
		int line = order[j];
		if (!laser_line_free(e, line) || !(allowed >> lv->kind[lv->nfixed + line].type & 1))
			continue;
		size_t mark = e->ntrail;
		place(e, q, line);
		if (deliver(e, pb->from, pb->side, q, pb->value))
			dfs(e);
		undo(e, mark);
	}
}

/* Follow a beam from square i of its ray on, branching on each undecided
 * cell: a tray piece there (the beam stops), or nothing (it goes on).
 * Pieces are tried first, unless a shuffled search draws otherwise. */
static void trace(struct engine *e, const struct pbeam *pb, const int *ray, int len, int i,
		  unsigned allowed)
{
	const struct lk_laser *lv = e->lv;
	while (i < len && e->at[ray[i]] == EMPTY)
		i++;
	if (e->stop)
		return;
	if (i == len) {
		int stop = lv->rays.stop[pb->from * 4 + pb->side];
		size_t mark = e->ntrail;
		if (stop >= 0 ? deliver(e, pb->from, pb->side, stop, pb->value) : lose(e, pb->value))
			dfs(e);
		undo(e, mark);
		return;
	}
	int q = ray[i];
	size_t mark = e->ntrail;
	if (e->at[q] >= 0) {
		if (deliver(e, pb->from, pb->side, q, pb->value))
			dfs(e);
		undo(e, mark);
		return;
	}
	bool empty_first = e->shuffle && e->o->empty_first &&
			   lk_rng_below(&e->rng, 100) < e->o->empty_first;
	if (!empty_first)
		pieces_at(e, pb, q, allowed);
	SET(e, e->at[q], EMPTY);
	trace(e, pb, ray, len, i + 1, allowed);
	undo(e, mark);
	if (empty_first)
		pieces_at(e, pb, q, allowed);
}

static void dfs(struct engine *e)
{
	if (e->stop)
		return;
	e->r->nodes++;
	if (out_of_bounds(e)) {
		e->stop = true;
		return;
	}
	unsigned allowed;
	if (laser_nogood_cut(e) || laser_concept_cut(e, &allowed) || !laser_lookahead(e, allowed) ||
	    !laser_balance_ok(e, allowed) || !laser_values_ok(e, allowed) ||
	    !laser_reach_ok(e, allowed))
		return;
	int b = choose(e);
	if (b < 0) {
		laser_leaf(e);
		return;
	}
	size_t mark = e->ntrail;
	struct pbeam pb = e->pend[b];
	int len;
	const int *ray = lk_ray(&e->lv->rays, pb.from, pb.side, &len);
	SET(e, e->pend[b].done, true);
	SET(e, e->open_beams, e->open_beams - 1);
	trace(e, &pb, ray, len, 0, allowed);
	undo(e, mark);
}

void lk_laser_search_options_init(struct lk_laser_search_options *o)
{
	memset(o, 0, sizeof *o);
}

/* Does the concept mention the network fact?  (Its bounds cost a union
 * find per node, so they are only worked out when needed.) */
static int spot_network(void *ctx, const char *name, const char *arg, double *lo, double *hi)
{
	struct lk_laser_facts f;
	memset(&f, 0, sizeof f);
	if (!arg && lk_field_name_eq(name, strlen(name), "network"))
		*(bool *)ctx = true;
	return laser_lookup_exact(&f, name, arg, lo, hi);
}

/* The types to split a tidy shortcut query on: those the concept reads
 * whose pieces could fire (spare or on the board); *counted: those whose
 * numbers it reads, not only whether one fires. */
static unsigned split_types(const struct engine *e, unsigned *counted)
{
	unsigned read[3] = { 0, 0, 0 }, present = 0;
	*counted = 0;
	/* only for the shortcut query: a search for any solution that
	 * satisfies a concept (the generator's designs) does better without */
	if (!e->o->tidy || e->o->weak || !e->o->violate)
		return 0;
	lk_expr_check_facts(e->o->violate, laser_lookup_types, read, NULL);
	if (e->o->satisfy)
		lk_expr_check_facts(e->o->satisfy, laser_lookup_types, read, NULL);
	for (int t = LK_LASER_BND; t <= LK_LASER_CMB3; t++)
		present |= (e->spare_type[t] > 0 || e->unfired_type[t] > 0 || e->fired_type[t] > 0) ? 1u << t : 0;
	*counted = read[1] & present;
	return read[0] & present;
}

void lk_laser_search(const struct lk_laser *lv, const struct lk_laser_search_options *o,
		     lk_laser_visit_fn visit, void *ctx, struct lk_laser_result *r)
{
	struct engine *e = lk_xcalloc(1, sizeof *e);
	memset(r, 0, sizeof *r);
	e->lv = lv;
	e->o = o;
	e->visit = visit;
	e->ctx = ctx;
	e->r = r;
	e->shuffle = o->seed != 0;
	e->need_facts = visit || o->violate || o->satisfy;
	unsigned read[3] = { 0, 0, 0 };
	if (o->violate) {
		lk_expr_check_facts(o->violate, spot_network, &e->need_network, NULL);
		lk_expr_check_facts(o->violate, laser_lookup_types, read, NULL);
	}
	if (o->satisfy) {
		lk_expr_check_facts(o->satisfy, spot_network, &e->need_network, NULL);
		lk_expr_check_facts(o->satisfy, laser_lookup_types, read, NULL);
	}
	e->need_power = read[2] != 0;
	lk_rng_seed(&e->rng, o->seed);
	e->t0 = lk_now();
	for (int c = 0; c < lv->ncells; c++) {
		e->at[c] = lv->cell_kind[c] >= 0 ? lv->cell_kind[c] : UNDECIDED;
		if (lv->cell_kind[c] >= 0 && lv->cell_kind[c] != lv->blocker)
			e->unfired_type[lv->kind[lv->cell_kind[c]].type]++;
	}
	for (int i = 0; i < lv->ntray; i++)
		e->spare[i] = lv->tray_count[i];
	for (int g = 0; g < lv->ngroups; g++) {
		int i = 0;
		while (i < lv->ntray && lv->line_group[i] != g)
			i++;
		e->gspare[g] = lv->group_count[g];
		if (i < lv->ntray)
			e->spare_type[lv->kind[lv->nfixed + i].type] += lv->group_count[g];
		e->spare_total += lv->group_count[g];
	}
	e->targets_left = lv->ntargets;
	e->slack = o->lossless ? 0 : lv->src_total - lv->need_total;
	for (int i = 0; i < lv->npieces; i++) {
		int c = lv->piece_cell[i];
		if (lv->kind[e->at[c]].type == LK_LASER_SRC)
			fire(e, c);
	}
	for (int t = 0; t < LK_LASER_NTYPES; t++) {
		e->fmin[t] = 0;
		e->fmax[t] = INT_MAX;
	}
	unsigned counted, split = split_types(e, &counted);
	if (!split) {
		dfs(e);
	} else {
		/* one run per class of counts of the types the concept reads:
		 * none or some of each, and for a type whose number it reads,
		 * none, exactly one, or two and more.  Every solution is in
		 * exactly one class, so counts add up, and within a run a type
		 * that may fire no more is kept off the board, which the
		 * reasoning on powers, balance and reach feeds on. */
		int k = 0, bit[LK_LASER_NTYPES], base[LK_LASER_NTYPES], runs = 1;
		for (int t = 0; t < LK_LASER_NTYPES; t++) {
			if (split >> t & 1) {
				base[k] = counted >> t & 1 ? 3 : 2;
				runs *= base[k];
				bit[k++] = t;
			}
		}
		for (int total = 0; total <= 2 * k && !e->stop; total++) {
			for (int m = 0; m < runs && !e->stop; m++) {
				int sum = 0;
				for (int j = 0, v = m; j < k; v /= base[j], j++) {
					int cls = v % base[j], t = bit[j];
					sum += cls;
					e->fmin[t] = cls;
					e->fmax[t] = cls == 0 ? 0 : cls == 1 && base[j] == 3 ? 1 : INT_MAX;
				}
				if (sum == total)
					dfs(e);
			}
		}
	}
	r->exhausted = !e->stop;
	if (e->stop && r->limit == LK_LIMIT_NONE && o->limit && r->solutions >= o->limit)
		r->exhausted = false;
	if (r->solutions)
		r->status = LK_SOLVED;
	else
		r->status = r->exhausted ? LK_UNSOLVABLE : LK_UNKNOWN;
	r->seconds = elapsed(e);
	free(e->trail);
	free(e);
}
