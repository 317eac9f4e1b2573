/*
 * laser_leaf.c - the solver's leaves: a placement whose beams have all
 * been followed is judged, and the solutions it stands for are counted and
 * reported.  In "all" mode the undecided cells are free: any spare pieces
 * on any of them give solutions too (they receive no beam and block none),
 * counted by formula; with a concept, the counts are split by how many
 * spare pieces of each line are added, since idle pieces change the facts
 * placed, idle and network (each is a network of its own).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>

#include "laser_engine.h"

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

/* ---------------------------------------------------------- solutions */

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
	struct laser_view view;
	struct laser_bounds b = { *f, *f, &e->cache, NULL };
	if (e->o->tray_open) {
		b.lo.tray = 0;
		b.hi.tray = LK_LASER_MAX_CELLS * LK_LASER_MAX_LINES;
	}
	if (e->need_power) {
		laser_engine_view(e, true, &view);   /* idle pieces change no power */
		b.view = &view;
	}
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
		if (laser_concept_ok(e, f))
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
void laser_leaf(struct engine *e)
{
	const struct lk_laser *lv = e->lv;
	if (e->targets_left || (e->o->tidy && e->unfired_placed))
		return;
	for (int t = 0; t < LK_LASER_NTYPES; t++)
		if (e->fired_type[t] < e->fmin[t] || e->fired_type[t] > e->fmax[t])
			return;   /* another run's solution (lk_laser_search) */
	struct lk_laser_placement *pl = &e->pl;
	struct lk_laser_facts *f = &e->facts;
	pl->n = 0;
	e->nfree = 0;
	for (int c = 0; c < lv->ncells; c++) {
		if (laser_is_placed(e, c))
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
		if (laser_concept_ok(e, f))
			report(e, pl, f, 1);
	} else if (e->o->expand) {
		expand(e, 0, pl, f);
	} else if (!e->o->violate && !e->o->satisfy) {
		report(e, pl, f, ways(e, e->spare, 0, e->nfree));
	} else {
		complete(e, 0, e->nfree, 1, pl, f, 0);
	}
}

