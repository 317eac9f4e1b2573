/*
 * laser_facts.c - the facts concepts are written over (uses(SP2),
 * count(BND) >= 6, network == 1, ...), exact for one solution or as bounds
 * for a search, and the paper's concepts as named presets.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "laser_facts.h"

/* The types a fact's argument names, as a bit mask; 0 when unknown. */
unsigned laser_type_mask(const char *arg)
{
	static const struct {
		const char *name;
		unsigned mask;
	} groups[] = {
		{ "source", 1u << LK_LASER_SRC }, { "sources", 1u << LK_LASER_SRC },
		{ "target", 1u << LK_LASER_TGT }, { "targets", 1u << LK_LASER_TGT },
		{ "bender", 1u << LK_LASER_BND }, { "benders", 1u << LK_LASER_BND },
		{ "splitter", 1u << LK_LASER_SP2 | 1u << LK_LASER_SP3 },
		{ "splitters", 1u << LK_LASER_SP2 | 1u << LK_LASER_SP3 },
		{ "combiner", 1u << LK_LASER_CMB2 | 1u << LK_LASER_CMB3 },
		{ "combiners", 1u << LK_LASER_CMB2 | 1u << LK_LASER_CMB3 },
		{ "blockers", 1u << LK_LASER_BLOCKER },
		{ "piece", 1u << LK_LASER_BND | 1u << LK_LASER_SP2 | 1u << LK_LASER_SP3 |
			   1u << LK_LASER_CMB2 | 1u << LK_LASER_CMB3 },
		{ "pieces", 1u << LK_LASER_BND | 1u << LK_LASER_SP2 | 1u << LK_LASER_SP3 |
			    1u << LK_LASER_CMB2 | 1u << LK_LASER_CMB3 },
	};
	int t = laser_type_of(arg, strlen(arg));
	if (t >= 0)
		return 1u << t;
	for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
		if (lk_field_name_eq(arg, strlen(arg), groups[i].name))
			return groups[i].mask;
	return 0;
}

static bool is(const char *name, const char *want)
{
	return lk_field_name_eq(name, strlen(name), want);
}

/* What a fact reads: a plain count, or a sum over types. */
enum what { W_NETWORK, W_PLACED_TOTAL, W_IDLE, W_BLOCKERS, W_SOURCES, W_TARGETS, W_TRAY,
	    W_COUNT, W_USES, W_PLACED, W_POWER };

static int resolve(const char *name, const char *arg, struct laser_fact_ref *r)
{
	static const char *const plain[] = { "network", "placed", "idle", "blockers", "sources",
					     "targets", "tray" };
	if (!arg) {
		for (int i = 0; i < (int)(sizeof plain / sizeof plain[0]); i++) {
			if (is(name, plain[i])) {
				r->what = i;
				return 0;
			}
		}
		return -1;
	}
	if (laser_power_resolve(name, arg, &r->power) == 0) {
		r->what = W_POWER;
		return 0;
	}
	r->mask = laser_type_mask(arg);
	r->what = is(name, "count") ? W_COUNT : is(name, "uses") || is(name, "fires") ? W_USES
		: is(name, "placed") ? W_PLACED : -1;
	return r->mask && r->what >= 0 ? 0 : -1;
}

static double value_of(const struct lk_laser_facts *f, const struct laser_fact_ref *r)
{
	switch (r->what) {
	case W_NETWORK: return f->network;
	case W_PLACED_TOTAL: return f->placed_total;
	case W_IDLE: return f->idle;
	case W_BLOCKERS: return f->blockers;
	case W_SOURCES: return f->sources;
	case W_TARGETS: return f->targets;
	case W_TRAY: return f->tray;
	default: break;
	}
	int sum = 0;
	for (int t = 0; t < LK_LASER_NTYPES; t++) {
		if (!(r->mask >> t & 1))
			continue;
		if (t == LK_LASER_BLOCKER)
			sum += f->blockers;   /* a level property: blockers never fire */
		else
			sum += r->what == W_PLACED ? f->placed[t] : f->fired[t];
	}
	return r->what == W_USES ? (sum > 0) : sum;
}

int lk_laser_fact(const struct lk_laser_facts *f, const char *name, const char *arg,
		  double *value)
{
	struct laser_fact_ref r;
	if (resolve(name, arg, &r) < 0 || r.what == W_POWER)
		return -1;   /* the facts over powers need the placement */
	*value = value_of(f, &r);
	return 0;
}

int laser_lookup_exact(void *ctx, const char *name, const char *arg, double *lo, double *hi)
{
	struct laser_fact_ref r;
	if (resolve(name, arg, &r) < 0)
		return -1;
	if (r.what == W_POWER) {
		*lo = 0;   /* known only with the placement */
		*hi = INFINITY;
		return 0;
	}
	*lo = *hi = value_of(ctx, &r);
	return 0;
}

int laser_lookup_bounds(void *ctx, const char *name, const char *arg, double *lo, double *hi)
{
	const struct laser_bounds *b = ctx;
	struct laser_fact_cache *c = b->cache;
	struct laser_fact_ref r;
	int i = 0;
	/* a search evaluates the same expression at every node: its names
	 * (the same pointers each time) are resolved once */
	if (c)
		while (i < c->n && (c->name[i] != name || c->arg[i] != arg))
			i++;
	if (c && i < c->n) {
		r = c->ref[i];
	} else {
		if (resolve(name, arg, &r) < 0)
			return -1;
		if (c && c->n < LASER_FACT_CACHE) {
			c->name[c->n] = name;
			c->arg[c->n] = arg;
			c->ref[c->n++] = r;
		}
	}
	if (r.what == W_POWER) {
		if (b->view) {
			laser_power_bounds(b->view, &r.power, lo, hi);
		} else {
			*lo = 0;
			*hi = INFINITY;
		}
		return 0;
	}
	*lo = value_of(&b->lo, &r);
	*hi = value_of(&b->hi, &r);
	return 0;
}

int laser_lookup_types(void *ctx, const char *name, const char *arg, double *lo, double *hi)
{
	struct laser_fact_ref r;
	if (resolve(name, arg, &r) < 0)
		return -1;
	if (r.what == W_POWER) {
		((unsigned *)ctx)[2] = 1;   /* a fact over powers */
		*lo = *hi = 0;
		return 0;
	}
	if (r.what >= W_COUNT)
		((unsigned *)ctx)[0] |= r.mask;
	if (r.what == W_COUNT || r.what == W_PLACED)
		((unsigned *)ctx)[1] |= r.mask;
	*lo = *hi = 0;
	return 0;
}

/* ------------------------------------------------------------ presets */

static const struct {
	const char *name, *expr, *about;
} presets[] = {
	{ "split-combine", "uses(splitter) && uses(combiner)",
	  "at least one splitter and one combiner fire" },
	{ "split-combine-2", "count(splitter) >= 2 && count(combiner) >= 2",
	  "at least two splitters and two combiners fire" },
	{ "six-benders", "count(bender) >= 6", "at least six benders fire" },
	{ "monolithic", "network == 1 && placed == tray && idle == 0",
	  "one network of beams spans every given piece: every tray piece placed and firing, linked "
	  "with every source and target (the paper's statement)" },
	{ "monolithic-open", "network == 1 && placed == tray && idle == 0 && count(blocker) == 0",
	  "the same on a board without blockers" },
	{ "monolithic-tidy", "network == 1",
	  "one network links the pieces on the board (meant over tidy solutions: an idle spare piece is "
	  "a network of its own)" },
	{ "monolithic-open-tidy", "network == 1 && count(blocker) == 0",
	  "the same on a board without blockers" },
};

const char *lk_laser_concept_preset(const char *name)
{
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
		if (is(name, presets[i].name))
			return presets[i].expr;
	return NULL;
}

const char *lk_laser_concept_preset_at(size_t i, const char **expr, const char **about)
{
	if (i >= sizeof presets / sizeof presets[0])
		return NULL;
	if (expr)
		*expr = presets[i].expr;
	if (about)
		*about = presets[i].about;
	return presets[i].name;
}

int lk_laser_concept_check(const struct lk_expr *concept, struct lk_strbuf *err)
{
	struct lk_laser_facts f;
	memset(&f, 0, sizeof f);
	return lk_expr_check_facts(concept, laser_lookup_exact, &f, err);
}

void laser_view_of_sim(const struct lk_laser *lv, const int16_t *kind_at,
		       const struct laser_sim *sim, struct laser_view *v)
{
	memset(v, 0, sizeof *v);
	v->lv = lv;
	v->at = kind_at;
	v->fired = sim->fired;
	v->recv = sim->recv;
	v->recv_value = (const int64_t (*)[4])sim->recv_value;
	v->recv_from = (const int16_t (*)[4])sim->recv_from;
	v->final = true;
}

bool laser_concept_holds_view(const struct lk_expr *concept, const struct lk_laser_facts *f,
			      const struct laser_view *v)
{
	struct laser_bounds b = { *f, *f, NULL, v };
	enum lk_truth t = LK_FALSE;
	if (lk_expr_eval_facts(concept, laser_lookup_bounds, &b, &t, NULL) < 0)
		return false;
	return t == LK_TRUE;
}

/* Simulate a placement: its facts, and the concept or a fact on them. */
struct at {
	int16_t kind_at[LK_LASER_MAX_CELLS];
	struct laser_sim sim;
	struct lk_laser_facts f;
	struct laser_view v;
};

static struct at *simulate_at(const struct lk_laser *lv, const struct lk_laser_placement *pl)
{
	struct at *a = lk_xmalloc(sizeof *a);
	laser_kind_at(lv, pl, a->kind_at);
	laser_simulate(lv, a->kind_at, &a->sim);
	laser_facts_of(lv, a->kind_at, &a->sim, &a->f);
	laser_view_of_sim(lv, a->kind_at, &a->sim, &a->v);
	return a;
}

bool lk_laser_concept_holds_at(const struct lk_laser *lv, const struct lk_laser_placement *pl,
			       const struct lk_expr *concept)
{
	struct at *a = simulate_at(lv, pl);
	bool yes = laser_concept_holds_view(concept, &a->f, &a->v);
	free(a);
	return yes;
}

int lk_laser_fact_at(const struct lk_laser *lv, const struct lk_laser_placement *pl,
		     const char *name, const char *arg, double *value)
{
	struct at *a = simulate_at(lv, pl);
	struct laser_bounds b = { a->f, a->f, NULL, &a->v };
	double hi;
	int rc = laser_lookup_bounds(&b, name, arg, value, &hi);
	free(a);
	return rc;
}

bool lk_laser_concept_holds(const struct lk_expr *concept, const struct lk_laser_facts *f)
{
	enum lk_truth t = LK_FALSE;
	/* checked concepts cannot fail; an unchecked one with an unknown
	 * fact counts as not holding */
	if (lk_expr_eval_facts(concept, laser_lookup_exact, (void *)f, &t, NULL) < 0)
		return false;
	return t == LK_TRUE;
}

void lk_laser_shortcut(const struct lk_laser *lv, const struct lk_expr *concept, bool all,
		       uint64_t max_nodes, double timeout, struct lk_laser_result *r)
{
	struct lk_laser_search_options o;
	lk_laser_search_options_init(&o);
	o.tidy = !all;
	o.violate = concept;
	o.limit = 1;
	o.bounds.max_states = max_nodes;
	o.bounds.max_seconds = timeout;
	lk_laser_search(lv, &o, NULL, NULL, r);
}
