/*
 * laser_concept.c - the laser game's answer to concept queries (csp.h's
 * `concept` member, game.h's lk_concept_result): "does every solution
 * satisfy the concept?" is the shortcut query (a search for a solution
 * that violates it, pruned on bounds of the facts), "does some solution?"
 * the same search for one that satisfies it.  Neither enumerates
 * solutions.  The --tidy flag asks both over tidy solutions only.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "laser_internal.h"
#include "levelkit/csp.h"

/* The facts the concept reads, each once, as "count(BND) == 6, network == 1". */
struct facts_text {
	const struct lk_laser *lv;
	const struct lk_laser_placement *pl;
	struct lk_strbuf *out;
	struct lk_strbuf seen;     /* "\n"-separated names written so far */
};

static void add_fact(void *ctx, const char *name, const char *arg, unsigned trend, double number,
		     bool with_fact)
{
	(void)trend;
	(void)number;
	(void)with_fact;
	struct facts_text *t = ctx;
	struct lk_strbuf key = LK_STRBUF_INIT;
	lk_strbuf_addf(&key, "%s%s%s%s", name, arg ? "(" : "", arg ? arg : "", arg ? ")" : "");
	double v;
	struct lk_strbuf probe = LK_STRBUF_INIT;
	lk_strbuf_addf(&probe, "\n%s\n", key.buf);
	bool dup = t->seen.len && strstr(t->seen.buf, probe.buf) != NULL;
	if (!dup && lk_laser_fact_at(t->lv, t->pl, name, arg, &v) == 0) {
		lk_strbuf_addf(t->out, "%s%s == %g", t->out->len ? ", " : "", key.buf, v);
		if (!t->seen.len)
			lk_strbuf_addch(&t->seen, '\n');
		lk_strbuf_addf(&t->seen, "%s\n", key.buf);
	}
	lk_strbuf_release(&probe);
	lk_strbuf_release(&key);
}

static void witness(const struct lk_laser *lv, const struct lk_expr *concept,
		    const struct lk_laser_placement *pl, struct lk_concept_result *r)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_laser_placement_format(pl, &text);
	lk_moves_add(&r->witness, text.buf, text.len, (unsigned long)pl->n, NULL, 0);
	lk_strbuf_release(&text);
	r->has_witness = true;
	struct facts_text t = { lv, pl, &r->witness_facts, LK_STRBUF_INIT };
	lk_expr_visit_facts(concept, add_fact, &t);
	lk_strbuf_release(&t.seen);
}

static void search_options(const struct lk_csp_options *opt, bool tidy,
			   struct lk_laser_search_options *o)
{
	lk_laser_search_options_init(o);
	o->tidy = tidy;
	o->limit = 1;
	o->bounds = opt->bounds;
}

int laser_csp_concept(const struct lk_level *level, const struct lk_expr *concept,
		      enum lk_quantifier q, const struct lk_csp_options *opt,
		      struct lk_concept_result *r, struct lk_strbuf *err)
{
	const struct lk_laser *lv = (const struct lk_laser *)level;
	if (lk_laser_concept_check(concept, err) < 0)
		return -1;
	bool tidy = lk_csp_flag(opt, "tidy");
	struct lk_laser_search_options o;
	struct lk_laser_result *res = lk_xmalloc(sizeof *res);
	search_options(opt, tidy, &o);
	if (q == LK_FORALL)
		o.violate = concept;
	else
		o.satisfy = concept;
	lk_laser_search(lv, &o, NULL, NULL, res);
	r->expanded = res->nodes;
	r->seconds = res->seconds;
	r->over = tidy ? "tidy" : "all";
	if (res->status == LK_SOLVED) {
		/* a shortcut (forall) or an example (exists) */
		r->answer = q == LK_FORALL ? LK_FALSE : LK_TRUE;
		r->solvable = LK_SOLVED;
		witness(lv, concept, &res->first, r);
	} else if (res->status == LK_UNKNOWN) {
		r->answer = LK_MAYBE;
		r->limit = res->limit;
		r->solvable = LK_UNKNOWN;
	} else {
		/* None: whether the level has a solution at all decides what
		 * that means to a reader (a forall over none is true). */
		r->answer = q == LK_FORALL ? LK_TRUE : LK_FALSE;
		search_options(opt, tidy, &o);
		lk_laser_search(lv, &o, NULL, NULL, res);
		r->expanded += res->nodes;
		r->seconds += res->seconds;
		r->solvable = res->status;
		if (res->status == LK_UNKNOWN)
			r->limit = res->limit;
	}
	free(res);
	return 0;
}
