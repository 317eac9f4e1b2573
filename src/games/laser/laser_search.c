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
 *  - a target that receives the wrong power fails at once;
 *  - look-ahead from the targets backwards: a piece that must fire (a
 *    target; in tidy mode every placed piece) needs, on each in-port not
 *    yet fed, a feeder: the first non-empty cell in that direction, which
 *    must be a piece with an out-port facing back that can itself fire, or
 *    an undecided cell a spare tray piece with that out-port could fill;
 *  - concepts: bounds on the facts below a node (expr.h's three-valued
 *    evaluation) cut branches where the concept is already decided.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "laser_facts.h"
#include "levelkit/rng.h"

#define UNDECIDED (-1)
#define EMPTY (-2)
#define MAX_BEAMS (LK_LASER_MAX_CELLS * 3)

struct pbeam {
	int16_t from;
	int8_t side;
	bool done;
	int64_t value;
};

struct trail {
	void *p;
	unsigned char old[8];
	size_t size;
};

struct engine {
	const struct lk_laser *lv;
	const struct lk_laser_search_options *o;
	lk_laser_visit_fn visit;
	void *ctx;
	struct lk_laser_result *r;
	int16_t at[LK_LASER_MAX_CELLS];       /* UNDECIDED, EMPTY, or a kind */
	uint8_t recv[LK_LASER_MAX_CELLS];
	int64_t recv_value[LK_LASER_MAX_CELLS][4];
	bool fired[LK_LASER_MAX_CELLS];
	int spare[LK_LASER_MAX_LINES];
	int spare_type[LK_LASER_NTYPES], fired_type[LK_LASER_NTYPES];
	int unfired_type[LK_LASER_NTYPES], placed_type[LK_LASER_NTYPES];
	int nplaced, unfired_placed, targets_left, spare_total;
	int64_t lost, slack;
	struct pbeam pend[MAX_BEAMS];
	int npend;
	struct trail *trail;
	size_t ntrail, trail_alloc;
	/* look-ahead marks: stamp-based, so no clearing per node */
	unsigned stamp;
	unsigned mark[LK_LASER_MAX_CELLS];
	uint8_t mark_state[LK_LASER_MAX_CELLS];
	struct lk_rng rng;
	bool shuffle, stop, need_facts;
	struct timespec t0;
	struct laser_sim sim;
	int16_t kinds[LK_LASER_MAX_CELLS];
	struct lk_laser_placement pl;
	struct lk_laser_facts facts;
	int free_cells[LK_LASER_MAX_CELLS], nfree;
};

/* ----------------------------------------------------------- the trail */

static void save(struct engine *e, void *p, size_t size)
{
	LK_ALLOC_GROW(e->trail, e->ntrail + 1, e->trail_alloc);
	struct trail *t = &e->trail[e->ntrail++];
	t->p = p;
	t->size = size;
	memcpy(t->old, p, size);
}

#define SET(e, lvalue, v) (save((e), &(lvalue), sizeof(lvalue)), (lvalue) = (v))

static void undo(struct engine *e, size_t to)
{
	while (e->ntrail > to) {
		struct trail *t = &e->trail[--e->ntrail];
		memcpy(t->p, t->old, t->size);
	}
}

/* ------------------------------------------------------- saturating */

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t gcd_u(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* C(n, k), saturating: c * (n - k + i) / i stays whole at every step, and
 * dividing by the gcd first keeps it exact until it saturates. */
static uint64_t binomial(int n, int k)
{
	uint64_t c = 1;
	if (k < 0 || k > n)
		return 0;
	for (int i = 1; i <= k && c != UINT64_MAX; i++) {
		uint64_t g = gcd_u(c, (uint64_t)i);
		c = sat_mul(c / g, (uint64_t)(n - k + i) / ((uint64_t)i / g));
	}
	return c;
}

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
	if (k->type == LK_LASER_TGT) {
		int in = 0;
		while (!(k->ins >> in & 1))
			in++;
		if (e->recv_value[q][in] != k->value)
			return false;
		SET(e, e->targets_left, e->targets_left - 1);
		return true;
	}
	int64_t out = k->type == LK_LASER_SRC ? k->value : emitted(k, e->recv_value[q]);
	SET(e, e->npend, e->npend);
	for (int s = 0; s < 4; s++) {
		if (k->outs >> s & 1)
			e->pend[e->npend++] = (struct pbeam){ (int16_t)q, (int8_t)s, false, out };
	}
	return true;
}

/* A beam of power v heading `side` stops at q (which holds a piece);
 * false: a conflict. */
static bool deliver(struct engine *e, int side, int q, int64_t v)
{
	const struct laser_kind *k = &e->lv->kind[e->at[q]];
	int in = laser_opposite(side);
	if (!(k->ins >> in & 1)) {
		SET(e, e->lost, e->lost + v);
		return e->lost <= e->slack;
	}
	SET(e, e->recv[q], (uint8_t)(e->recv[q] | 1u << in));
	SET(e, e->recv_value[q][in], v);
	return e->recv[q] != k->ins || fire(e, q);
}

static void place(struct engine *e, int q, int line)
{
	const struct lk_laser *lv = e->lv;
	int type = lv->kind[lv->nfixed + line].type;
	SET(e, e->at[q], (int16_t)(lv->nfixed + line));
	SET(e, e->spare[line], e->spare[line] - 1);
	SET(e, e->spare_type[type], e->spare_type[type] - 1);
	SET(e, e->spare_total, e->spare_total - 1);
	SET(e, e->placed_type[type], e->placed_type[type] + 1);
	SET(e, e->unfired_type[type], e->unfired_type[type] + 1);
	SET(e, e->unfired_placed, e->unfired_placed + 1);
	SET(e, e->nplaced, e->nplaced + 1);
}

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
	if (e->fired[q])
		return true;
	if (e->mark[q] == e->stamp)
		return e->mark_state[q] == MARK_YES;
	e->mark[q] = e->stamp;
	e->mark_state[q] = MARK_BUSY;
	const struct laser_kind *k = &e->lv->kind[e->at[q]];
	bool ok = k->type != LK_LASER_BLOCKER && k->type != LK_LASER_SRC;
	for (int s = 0; s < 4 && ok; s++)
		if ((k->ins >> s & 1) && !(e->recv[q] >> s & 1))
			ok = feeder_ok(e, q, s, capable);
	e->mark_state[q] = ok ? MARK_YES : MARK_NO;
	return ok;
}

static bool lookahead(struct engine *e)
{
	const struct lk_laser *lv = e->lv;
	uint8_t capable = 0;
	if (e->lost > e->slack)
		return false;
	if (e->o->weak)
		return true;
	for (int i = 0; i < lv->ntray; i++)
		if (e->spare[i])
			capable |= lv->kind[lv->nfixed + i].outs;
	if (++e->stamp == 0) {
		memset(e->mark, 0, sizeof e->mark);
		e->stamp = 1;
	}
	for (int i = 0; i < lv->npieces; i++) {
		int c = lv->piece_cell[i];
		if (lv->kind[e->at[c]].type == LK_LASER_TGT && !e->fired[c] && !can_fire(e, c, capable))
			return false;
	}
	if (e->o->tidy && e->unfired_placed) {
		for (int c = 0; c < lv->ncells; c++)
			if (e->at[c] >= lv->nfixed && e->at[c] != lv->blocker && !e->fired[c] &&
			    !can_fire(e, c, capable))
				return false;
	}
	return true;
}

/* ------------------------------------------------------------ concepts */

static void bounds(const struct engine *e, struct laser_bounds *b)
{
	const struct lk_laser *lv = e->lv;
	laser_level_facts(lv, &b->lo);
	laser_level_facts(lv, &b->hi);
	int unfired_placed_type[LK_LASER_NTYPES] = { 0 };
	if (e->o->tidy)
		for (int c = 0; c < lv->ncells; c++)
			if (e->at[c] >= lv->nfixed && e->at[c] != lv->blocker && !e->fired[c])
				unfired_placed_type[lv->kind[e->at[c]].type]++;
	for (int t = 0; t < LK_LASER_NTYPES; t++) {
		/* in tidy mode every placed piece will fire */
		b->lo.fired[t] = e->fired_type[t] + unfired_placed_type[t];
		b->hi.fired[t] = e->fired_type[t] + e->unfired_type[t] + e->spare_type[t];
		b->lo.placed[t] = e->placed_type[t];
		b->hi.placed[t] = e->placed_type[t] + e->spare_type[t];
	}
	/* every solution satisfies every target */
	b->lo.fired[LK_LASER_TGT] = b->hi.fired[LK_LASER_TGT] = lv->ntargets;
	b->lo.placed_total = e->nplaced;
	b->hi.placed_total = e->nplaced + e->spare_total;
	b->lo.idle = 0;
	b->hi.idle = e->o->tidy ? 0 : e->unfired_placed + e->spare_total;
	b->lo.network = lv->npieces + e->nplaced > 0;
	b->hi.network = lv->npieces + e->nplaced + e->spare_total;
}

/* Is the concept filter already decided against every solution below? */
static bool concept_cut(const struct engine *e)
{
	if (!e->o->violate && !e->o->satisfy)
		return false;
	struct laser_bounds b;
	enum lk_truth t;
	bounds(e, &b);
	if (e->o->violate && lk_expr_eval_facts(e->o->violate, laser_lookup_bounds, &b, &t, NULL) == 0 &&
	    t == LK_TRUE)
		return true;
	if (e->o->satisfy && lk_expr_eval_facts(e->o->satisfy, laser_lookup_bounds, &b, &t, NULL) == 0 &&
	    t == LK_FALSE)
		return true;
	return false;
}

/* The filter on exact facts: 1 passes, 0 fails. */
static bool concept_ok(const struct engine *e, const struct lk_laser_facts *f)
{
	if (e->o->violate && lk_laser_concept_holds(e->o->violate, f))
		return false;
	if (e->o->satisfy && !lk_laser_concept_holds(e->o->satisfy, f))
		return false;
	return true;
}

/* ---------------------------------------------------------- solutions */

static bool is_placed(const struct engine *e, int c)
{
	return e->at[c] >= e->lv->nfixed && e->at[c] < e->lv->nfixed + e->lv->ntray;
}

/* Ways to put any number (up to spare) of the pieces of lines l.. on u
 * free cells, each cell holding at most one. */
static uint64_t ways(const struct engine *e, const int *spare, int l, int u)
{
	if (l == e->lv->ntray || u == 0)
		return 1;
	uint64_t sum = 0;
	for (int c = 0; c <= spare[l] && c <= u; c++)
		sum = sat_add(sum, sat_mul(binomial(u, c), ways(e, spare, l + 1, u - c)));
	return sum;
}

static void report(struct engine *e, const struct lk_laser_placement *pl,
		   const struct lk_laser_facts *f, uint64_t mult)
{
	struct lk_laser_result *r = e->r;
	if (!mult)
		return;
	if (!r->solutions) {
		r->first = *pl;
		r->nodes_to_first = r->nodes;
	}
	r->solutions = sat_add(r->solutions, mult);
	r->overflow |= r->solutions == UINT64_MAX;
	if (e->visit) {
		struct lk_laser_solution s = {
			.placement = pl, .facts = f, .nfree = e->nfree, .free_cells = e->free_cells,
			.spare = e->spare, .multiplicity = mult,
		};
		if (!e->visit(e->ctx, &s))
			e->stop = true;
	}
	if (e->o->limit && r->solutions >= e->o->limit)
		e->stop = true;
}

/* Add c pieces of line l to a placement on the free cells from *next, and
 * to the facts (such pieces are idle and alone in a network each). */
static void add_idle(struct engine *e, struct lk_laser_placement *pl, struct lk_laser_facts *f,
		     int l, int c, int *next)
{
	int type = e->lv->kind[e->lv->nfixed + l].type;
	for (int i = 0; i < c; i++) {
		int cell = e->free_cells[(*next)++];
		pl->p[pl->n++] = (struct lk_laser_place){ l + 1, cell % e->lv->width, cell / e->lv->width };
	}
	f->placed[type] += c;
	f->placed_total += c;
	f->idle += c;
	f->network += c;
}

/* All mode with a concept: the spare pieces of lines l.. on u of the free
 * cells, the facts so far f, split by how many of each line, each part
 * decided by bounds as early as possible. */
static void complete(struct engine *e, int l, int u, uint64_t mult, struct lk_laser_placement *pl,
		     struct lk_laser_facts *f, int next)
{
	const struct lk_laser *lv = e->lv;
	if (e->stop)
		return;
	struct laser_bounds b = { *f, *f };
	int rest = 0;
	for (int i = l; i < lv->ntray; i++) {
		int add = e->spare[i] < u ? e->spare[i] : u;
		b.hi.placed[lv->kind[lv->nfixed + i].type] += add;
		rest += e->spare[i];
	}
	rest = rest < u ? rest : u;
	b.hi.placed_total += rest;
	b.hi.idle += rest;
	b.hi.network += rest;
	enum lk_truth v = LK_FALSE, s = LK_TRUE;
	if (e->o->violate)
		lk_expr_eval_facts(e->o->violate, laser_lookup_bounds, &b, &v, NULL);
	if (e->o->satisfy)
		lk_expr_eval_facts(e->o->satisfy, laser_lookup_bounds, &b, &s, NULL);
	if (v == LK_TRUE || s == LK_FALSE)
		return;
	if (v == LK_FALSE && s == LK_TRUE) {
		report(e, pl, f, sat_mul(mult, ways(e, e->spare, l, u)));
		return;
	}
	if (l == lv->ntray)
		return;   /* exact facts are never undecided */
	for (int c = 0; c <= e->spare[l] && c <= u && !e->stop; c++) {
		struct lk_laser_placement *p2 = lk_xmalloc(sizeof *p2);
		struct lk_laser_facts f2 = *f;
		int n2 = next;
		*p2 = *pl;
		add_idle(e, p2, &f2, l, c, &n2);
		complete(e, l + 1, u - c, sat_mul(mult, binomial(u, c)), p2, &f2, n2);
		free(p2);
	}
}

/* expand: every placement of spare pieces on the free cells from i on,
 * one by one. */
static void expand(struct engine *e, int i, struct lk_laser_placement *pl, struct lk_laser_facts *f)
{
	const struct lk_laser *lv = e->lv;
	if (e->stop)
		return;
	if (i == e->nfree) {
		if (concept_ok(e, f))
			report(e, pl, f, 1);
		return;
	}
	expand(e, i + 1, pl, f);
	int cell = e->free_cells[i];
	for (int l = 0; l < lv->ntray && !e->stop; l++) {
		if (!e->spare[l])
			continue;
		int type = lv->kind[lv->nfixed + l].type;
		e->spare[l]--;
		pl->p[pl->n++] = (struct lk_laser_place){ l + 1, cell % lv->width, cell / lv->width };
		f->placed[type]++;
		f->placed_total++;
		f->idle++;
		f->network++;
		expand(e, i + 1, pl, f);
		f->placed[type]--;
		f->placed_total--;
		f->idle--;
		f->network--;
		pl->n--;
		e->spare[l]++;
	}
}

/* No beam left: the firing set is final. */
static void leaf(struct engine *e)
{
	const struct lk_laser *lv = e->lv;
	if (e->targets_left || (e->o->tidy && e->unfired_placed))
		return;
	struct lk_laser_placement *pl = &e->pl;
	struct lk_laser_facts *f = &e->facts;
	pl->n = 0;
	e->nfree = 0;
	for (int c = 0; c < lv->ncells; c++) {
		if (is_placed(e, c))
			pl->p[pl->n++] = (struct lk_laser_place){ e->at[c] - lv->nfixed + 1, c % lv->width,
								 c / lv->width };
		else if (e->at[c] == UNDECIDED)
			e->free_cells[e->nfree++] = c;
	}
	memset(f, 0, sizeof *f);
	if (e->need_facts) {
		for (int c = 0; c < lv->ncells; c++)
			e->kinds[c] = e->at[c] >= 0 ? e->at[c] : -1;
		laser_simulate(lv, e->kinds, &e->sim);
		laser_facts_of(lv, e->kinds, &e->sim, f);
	}
	if (e->o->tidy) {
		if (concept_ok(e, f))
			report(e, pl, f, 1);
	} else if (e->o->expand) {
		expand(e, 0, pl, f);
	} else if (!e->o->violate && !e->o->satisfy) {
		report(e, pl, f, ways(e, e->spare, 0, e->nfree));
	} else {
		complete(e, 0, e->nfree, 1, pl, f, 0);
	}
}

/* ------------------------------------------------------------- search */

static double elapsed(const struct engine *e)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - e->t0.tv_sec) + (double)(t.tv_nsec - e->t0.tv_nsec) * 1e-9;
}

static bool out_of_bounds(struct engine *e)
{
	const struct lk_laser_search_options *o = e->o;
	if (o->max_nodes && e->r->nodes > o->max_nodes) {
		e->r->limit = LK_LIMIT_STATES;
		return true;
	}
	if ((e->r->nodes & 255) == 0) {
		if (o->cancel && *o->cancel) {
			e->r->limit = LK_LIMIT_INTERRUPTED;
			return true;
		}
		if (o->timeout > 0 && elapsed(e) > o->timeout) {
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

static void dfs(struct engine *e);

/* Follow beam b from its piece, branching on each undecided cell. */
static void trace(struct engine *e, int b)
{
	const struct lk_laser *lv = e->lv;
	struct pbeam pb = e->pend[b];
	int len, order[LK_LASER_MAX_LINES];
	const int *ray = lk_ray(&lv->rays, pb.from, pb.side, &len);
	size_t mark = e->ntrail;
	for (int j = 0; j < lv->ntray; j++)
		order[j] = j;
	for (int i = 0; i < len && !e->stop; i++) {
		int q = ray[i];
		if (e->at[q] == EMPTY)
			continue;
		if (e->at[q] >= 0) {
			if (deliver(e, pb.side, q, pb.value))
				dfs(e);
			undo(e, mark);
			return;
		}
		if (e->shuffle) {
			for (int j = lv->ntray - 1; j > 0; j--) {
				int k = (int)lk_rng_below(&e->rng, (uint32_t)j + 1), t = order[j];
				order[j] = order[k];
				order[k] = t;
			}
		}
		for (int j = 0; j < lv->ntray && !e->stop; j++) {
			int line = order[j];
			if (!e->spare[line])
				continue;
			size_t m2 = e->ntrail;
			place(e, q, line);
			if (deliver(e, pb.side, q, pb.value))
				dfs(e);
			undo(e, m2);
		}
		SET(e, e->at[q], EMPTY);
	}
	if (!e->stop) {
		int stop = lv->rays.stop[pb.from * 4 + pb.side];
		bool ok;
		if (stop >= 0) {
			ok = deliver(e, pb.side, stop, pb.value);
		} else {
			SET(e, e->lost, e->lost + pb.value);
			ok = e->lost <= e->slack;
		}
		if (ok)
			dfs(e);
	}
	undo(e, mark);
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
	if (!lookahead(e) || concept_cut(e))
		return;
	int b = choose(e);
	if (b < 0) {
		leaf(e);
		return;
	}
	size_t mark = e->ntrail;
	SET(e, e->pend[b].done, true);
	trace(e, b);
	undo(e, mark);
}

void lk_laser_search_options_init(struct lk_laser_search_options *o)
{
	memset(o, 0, sizeof *o);
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
	lk_rng_seed(&e->rng, o->seed);
	clock_gettime(CLOCK_MONOTONIC, &e->t0);
	for (int c = 0; c < lv->ncells; c++) {
		e->at[c] = lv->cell_kind[c] >= 0 ? lv->cell_kind[c] : UNDECIDED;
		if (lv->cell_kind[c] >= 0 && lv->cell_kind[c] != lv->blocker)
			e->unfired_type[lv->kind[lv->cell_kind[c]].type]++;
	}
	for (int i = 0; i < lv->ntray; i++) {
		e->spare[i] = lv->tray_count[i];
		e->spare_type[lv->kind[lv->nfixed + i].type] += lv->tray_count[i];
		e->spare_total += lv->tray_count[i];
	}
	e->targets_left = lv->ntargets;
	e->slack = lv->src_total - lv->need_total;
	for (int i = 0; i < lv->npieces; i++) {
		int c = lv->piece_cell[i];
		if (lv->kind[e->at[c]].type == LK_LASER_SRC)
			fire(e, c);
	}
	dfs(e);
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
