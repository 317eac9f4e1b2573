/*
 * laser_facts.c - the facts concepts are written over (uses(SP2),
 * count(BND) >= 6, network == 1, ...), exact for one solution or as bounds
 * for a search, and the paper's concepts as named presets.
 */
#include <string.h>

#include "laser_facts.h"

/* The types a fact's argument names, as a bit mask; 0 when unknown. */
static unsigned type_mask(const char *arg)
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

int lk_laser_fact(const struct lk_laser_facts *f, const char *name, const char *arg,
		  double *value)
{
	if (!arg) {
		const struct {
			const char *name;
			int v;
		} plain[] = {
			{ "network", f->network }, { "placed", f->placed_total }, { "idle", f->idle },
			{ "blockers", f->blockers }, { "sources", f->sources },
			{ "targets", f->targets }, { "tray", f->tray },
		};
		for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
			if (is(name, plain[i].name)) {
				*value = plain[i].v;
				return 0;
			}
		}
		return -1;
	}
	unsigned mask = type_mask(arg);
	bool count = is(name, "count"), uses = is(name, "uses") || is(name, "fires");
	bool placed = is(name, "placed");
	if (!mask || !(count || uses || placed))
		return -1;
	int sum = 0;
	for (int t = 0; t < LK_LASER_NTYPES; t++) {
		if (!(mask >> t & 1))
			continue;
		if (t == LK_LASER_BLOCKER)
			sum += f->blockers;   /* a level property: blockers never fire */
		else
			sum += placed ? f->placed[t] : f->fired[t];
	}
	*value = uses ? (sum > 0) : sum;
	return 0;
}

int laser_lookup_exact(void *ctx, const char *name, const char *arg, double *lo, double *hi)
{
	if (lk_laser_fact(ctx, name, arg, lo) < 0)
		return -1;
	*hi = *lo;
	return 0;
}

int laser_lookup_bounds(void *ctx, const char *name, const char *arg, double *lo, double *hi)
{
	const struct laser_bounds *b = ctx;
	if (lk_laser_fact(&b->lo, name, arg, lo) < 0)
		return -1;
	lk_laser_fact(&b->hi, name, arg, hi);
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
	{ "monolithic", "network == 1",
	  "one network of beams links every piece (the paper's three source-target pairs)" },
	{ "monolithic-open", "network == 1 && count(blocker) == 0",
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
	o.max_nodes = max_nodes;
	o.timeout = timeout;
	lk_laser_search(lv, &o, NULL, NULL, r);
}
