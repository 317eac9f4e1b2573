/*
 * rules_compile.c - turning a parsed transformer rule (struct prule) into
 * the masks the rewriter matches (struct rule), and the checks that need
 * the legend: what a replacement may put, forces, properties.
 *
 * A property the replacement names (`[Pushable | no Wall] -> [ | Pushable]`)
 * stands for the object its occurrence on the left matched, as in
 * PuzzleScript: the rule is expanded into one rule per member, the
 * property replaced by that member on both sides.  The expansions are
 * alternatives of the rule's group, so a `choose` still draws uniformly
 * among every match.
 */
#include <stdlib.h>
#include <string.h>

#include "rules_internal.h"

#define MAX_BOUND 16   /* properties one rule's replacement names */

int lk_legend_words(const struct lk_legend *legend)
{
	return legend->nobjects > 0 ? (legend->nobjects + 63) / 64 : 1;
}

size_t lk_rules_new_mask(struct lk_rules *r)
{
	size_t at = r->nbits, w = (size_t)r->words;
	LK_ALLOC_GROW(r->bits, at + w, r->bits_alloc);
	memset(r->bits + at, 0, w * sizeof *r->bits);
	r->nbits = at + w;
	return at;
}

size_t lk_rules_add_mask(struct lk_rules *r, const uint64_t *m)
{
	size_t w = (size_t)r->words;
	bool empty = true;
	for (size_t i = 0; i < w && empty; i++)
		empty = m[i] == 0;
	if (empty)
		return 0;
	size_t at = lk_rules_new_mask(r);
	memcpy(r->bits + at, m, w * sizeof *m);
	return at;
}

const char *lk_rules_name(const struct lk_legend *lg, int name)
{
	return name < lg->nobjects ? lg->objects[name].name : lg->properties[name - lg->nobjects].name;
}

static void set_bit(uint64_t *m, int o)
{
	m[o / 64] |= (uint64_t)1 << (o % 64);
}

static bool has_bit(const uint64_t *m, int o)
{
	return (m[o / 64] >> (o % 64)) & 1;
}

/* The objects a name stands for; *n of them (a property's list, or the
 * one object). */
static const int *members(const struct lk_legend *lg, const int *name, int *n)
{
	if (*name < lg->nobjects) {
		*n = 1;
		return name;
	}
	const struct lk_legend_property *p = &lg->properties[*name - lg->nobjects];
	*n = p->nobjects;
	return p->objects;
}

static bool is_aggregate(const struct lk_legend *lg, int name)
{
	return name >= lg->nobjects && lg->properties[name - lg->nobjects].aggregate &&
	       lg->properties[name - lg->nobjects].nobjects > 1;
}

/* A property standing for several objects, any one of them. */
static bool is_several(const struct lk_legend *lg, int name)
{
	return name >= lg->nobjects && !lg->properties[name - lg->nobjects].aggregate &&
	       lg->properties[name - lg->nobjects].nobjects > 1;
}

static const char *force_text(int f)
{
	static const char *const text[8] = { "up", "right", "down", "left", ">", "v", "<", "^" };
	return f >= 0 && f < 8 ? text[f] : "?";
}

struct compiler {
	struct lk_rules *rules;
	const struct lk_legend *lg;
	const struct prule *pr;
	struct lk_strbuf *err;
	int bound[MAX_BOUND];        /* properties bound, by name */
	int nbound;
	int choice[MAX_BOUND];       /* the member each stands for now */
	uint64_t *m, *m2;            /* scratch masks */
};

static int failf(struct compiler *c, int line, const char *fmt, const char *a, const char *b)
{
	lk_strbuf_addf(c->err, "line %d: ", line);
	lk_strbuf_addf(c->err, fmt, a, b);
	return -1;
}

/* A name under the current binding: a bound property becomes its member. */
static int subst(const struct compiler *c, int name)
{
	for (int i = 0; i < c->nbound; i++)
		if (c->bound[i] == name) {
			int n;
			return members(c->lg, &name, &n)[c->choice[i]];
		}
	return name;
}

static void clear(const struct compiler *c, uint64_t *m)
{
	memset(m, 0, (size_t)c->rules->words * sizeof *m);
}

/* Add the objects of an item's names (bound) to m. */
static void add_names(const struct compiler *c, const struct pitem *it, uint64_t *m)
{
	for (int k = 0; k < it->nnames; k++) {
		int name = subst(c, it->names[k]), n;
		const int *objs = members(c->lg, &name, &n);
		for (int j = 0; j < n; j++)
			set_bit(m, objs[j]);
	}
}

/* One cell of the pattern (conditions and what it names). */
static int compile_lhs_cell(struct compiler *c, const struct pcell *pc, struct rule_cell *rc)
{
	const struct lk_legend *lg = c->lg;
	clear(c, c->m2);   /* named */
	for (int i = 0; i < pc->nitems; i++) {
		const struct pitem *it = &pc->items[i];
		int name = subst(c, it->names[0]);
		if (it->nnames == 1 && is_aggregate(lg, name)) {
			if (it->negate)
				return failf(c, it->line, "'no %s': %s stands for several objects together "
					     "(an aggregate); name them one by one", lk_rules_name(lg, name),
					     lk_rules_name(lg, name));
			int n;
			const int *objs = members(lg, &name, &n);
			for (int j = 0; j < n; j++) {
				if (rc->nconds == MAX_CONDS)
					return failf(c, it->line, "%s%s", "too many conditions in one cell", "");
				clear(c, c->m);
				set_bit(c->m, objs[j]);
				set_bit(c->m2, objs[j]);
				rc->conds[rc->nconds].mask = lk_rules_add_mask(c->rules, c->m);
				rc->conds[rc->nconds++].negate = false;
			}
			continue;
		}
		for (int k = 0; k < it->nnames; k++)
			if (is_aggregate(lg, it->names[k]))
				return failf(c, it->line, "'%s' stands for several objects together (an "
					     "aggregate) and cannot be one of an 'or'%s",
					     lk_rules_name(lg, it->names[k]), "");
		if (rc->nconds == MAX_CONDS)
			return failf(c, it->line, "%s%s", "too many conditions in one cell", "");
		clear(c, c->m);
		add_names(c, it, c->m);
		rc->conds[rc->nconds].mask = lk_rules_add_mask(c->rules, c->m);
		rc->conds[rc->nconds++].negate = it->negate;
		if (!it->negate)
			add_names(c, it, c->m2);
	}
	rc->named = lk_rules_add_mask(c->rules, c->m2);
	return 0;
}

/* One cell of the replacement: what it puts, removes and moves. */
static int compile_rhs_cell(struct compiler *c, const struct pcell *pc, struct rule_cell *rc,
			    struct rule *r)
{
	const struct lk_legend *lg = c->lg;
	int words = c->rules->words;
	uint64_t *put = c->m, *removed = c->m2;
	clear(c, put);
	clear(c, removed);
	for (int i = 0; i < pc->nitems; i++) {
		const struct pitem *it = &pc->items[i];
		if (it->negate) {
			add_names(c, it, removed);
			continue;
		}
		for (int k = 0; k < it->nnames; k++) {
			int name = subst(c, it->names[k]);
			if (is_several(lg, name))
				return failf(c, it->line, "'%s' stands for several objects: a replacement "
					     "must say which one to put (or name %s on the left too, to put "
					     "back the one it matched)", lk_rules_name(lg, name),
					     lk_rules_name(lg, name));
		}
		if (it->force >= 0) {
			int name = subst(c, it->names[0]);
			if (is_aggregate(lg, name))
				return failf(c, it->line, "a force moves one object; '%s' stands for "
					     "several%s", lk_rules_name(lg, name), "");
			if (rc->nmoves == MAX_MOVES)
				return failf(c, it->line, "%s%s", "too many forces in one cell", "");
			int n, obj = members(lg, &name, &n)[0];
			for (int k = 0; k < rc->nmoves; k++)
				if (rc->moves[k].object == obj)
					return failf(c, it->line, "'%s' has two forces in one cell: an "
						     "object moves one way%s", lk_rules_name(lg, name), "");
			struct move *mv = &rc->moves[rc->nmoves++];
			mv->object = obj;
			mv->relative = it->force >= 4;
			mv->dir = it->force & 3;
			r->turns |= mv->relative;
		}
		add_names(c, it, put);
	}
	/* Objects of one layer exclude one another: putting two is a fault. */
	for (int a = 0; a < lg->nobjects; a++) {
		if (!has_bit(put, a))
			continue;
		if (has_bit(removed, a))
			return failf(c, pc->items[0].line, "'%s' is both put and removed%s",
				     lg->objects[a].name, "");
		for (int b = a + 1; b < lg->nobjects; b++)
			if (has_bit(put, b) && lg->objects[a].layer == lg->objects[b].layer)
				return failf(c, pc->items[0].line, "'%s' and '%s' share a layer: a cell "
					     "holds one of them", lg->objects[a].name, lg->objects[b].name);
	}
	rc->put = lk_rules_add_mask(c->rules, put);
	rc->removed = lk_rules_add_mask(c->rules, removed);
	clear(c, c->m2);
	for (int a = 0; a < lg->nobjects; a++)
		if (has_bit(rules_mask(c->rules, rc->put), a)) {
			const uint64_t *lm = rules_mask(c->rules, c->rules->layer_mask[a]);
			for (int w = 0; w < words; w++)
				c->m2[w] |= lm[w];
		}
	rc->put_layers = lk_rules_add_mask(c->rules, c->m2);
	return 0;
}

/* The rule under the current binding, into the group. */
static int compile_one(struct compiler *c, struct group *g)
{
	const struct prule *pr = c->pr;
	LK_ALLOC_GROW(g->rules, (size_t)g->nrules + 1, g->rules_alloc);
	struct rule *r = &g->rules[g->nrules++];
	memset(r, 0, sizeof *r);
	r->dirs = pr->dirs;
	r->option = pr->option;
	r->npatterns = pr->nlhs;
	r->patterns = lk_xcalloc((size_t)pr->nlhs, sizeof *r->patterns);
	for (int k = 0; k < pr->nlhs; k++) {
		struct pattern *pat = &r->patterns[k];
		pat->ncells = pr->lhs[k].ncells;
		for (int i = 0; i < pat->ncells; i++) {
			struct rule_cell *rc = &pat->cells[i];
			const struct pcell *l = &pr->lhs[k].cells[i];
			if (l->ellipsis) {
				rc->ellipsis = true;
				pat->nellipses++;
				continue;
			}
			if (compile_lhs_cell(c, l, rc) < 0)
				return -1;
			if (k < pr->nrhs && compile_rhs_cell(c, &pr->rhs[k].cells[i], rc, r) < 0)
				return -1;
		}
	}
	return 0;
}

/* A force on the left repeats one on the right: nothing moves before an
 * edit, so alone it would promise what the rule does not do. */
static int check_left_forces(struct compiler *c)
{
	const struct prule *pr = c->pr;
	for (int k = 0; k < pr->nlhs; k++)
		for (int i = 0; i < pr->lhs[k].ncells; i++) {
			const struct pcell *l = &pr->lhs[k].cells[i];
			for (int j = 0; j < l->nitems; j++) {
				const struct pitem *it = &l->items[j];
				if (it->force < 0)
					continue;
				bool found = false;
				const struct pcell *rh = k < pr->nrhs ? &pr->rhs[k].cells[i] : NULL;
				for (int q = 0; rh && q < rh->nitems && !found; q++)
					found = !rh->items[q].negate && rh->items[q].force == it->force &&
						rh->items[q].names[0] == it->names[0];
				if (!found)
					return failf(c, it->line, "'%s %s' on the left: nothing moves before an "
						     "edit, so a force on the left only repeats the same force on "
						     "the right (write it there too, or leave it out)",
						     force_text(it->force), lk_rules_name(c->lg, it->names[0]));
			}
		}
	return 0;
}

/* Properties the replacement names, each needing an occurrence on the
 * left to stand for. */
static int find_bindings(struct compiler *c, long *expansions)
{
	const struct prule *pr = c->pr;
	const struct lk_legend *lg = c->lg;
	*expansions = 1;
	c->nbound = 0;
	for (int k = 0; k < pr->nrhs; k++)
		for (int i = 0; i < pr->rhs[k].ncells; i++) {
			const struct pcell *rh = &pr->rhs[k].cells[i];
			for (int j = 0; j < rh->nitems; j++) {
				const struct pitem *it = &rh->items[j];
				if (it->negate)
					continue;
				for (int q = 0; q < it->nnames; q++) {
					int name = it->names[q];
					if (!is_several(lg, name))
						continue;
					bool dup = false;
					for (int b = 0; b < c->nbound; b++)
						dup |= c->bound[b] == name;
					if (dup)
						continue;
					bool on_left = false;
					for (int kk = 0; kk < pr->nlhs && !on_left; kk++)
						for (int ii = 0; ii < pr->lhs[kk].ncells && !on_left; ii++) {
							const struct pcell *l = &pr->lhs[kk].cells[ii];
							for (int jj = 0; jj < l->nitems && !on_left; jj++)
								for (int n = 0; n < l->items[jj].nnames; n++)
									on_left |= !l->items[jj].negate &&
										   l->items[jj].names[n] == name;
						}
					if (!on_left)
						return failf(c, it->line, "'%s' stands for several objects: a "
							     "replacement must say which one to put (or name %s "
							     "on the left too, to put back the one it matched)",
							     lk_rules_name(lg, name), lk_rules_name(lg, name));
					int n;
					members(lg, &name, &n);
					*expansions *= n;
					if (*expansions > MAX_EXPANSIONS || c->nbound == MAX_BOUND)
						return failf(c, it->line, "the properties of this rule expand "
							     "to more than 4096 rules%s%s", "", "");
					c->bound[c->nbound] = name;
					c->choice[c->nbound++] = 0;
				}
			}
		}
	return 0;
}

int lk_rules_compile(struct lk_rules *rules, struct group *g, const struct prule *pr,
		     struct lk_strbuf *err)
{
	struct compiler c = { .rules = rules, .lg = rules->legend, .pr = pr, .err = err };
	c.m = lk_xcalloc((size_t)rules->words, sizeof *c.m);
	c.m2 = lk_xcalloc((size_t)rules->words, sizeof *c.m2);
	long expansions;
	int rc = check_left_forces(&c);
	if (rc == 0)
		rc = find_bindings(&c, &expansions);
	for (long e = 0; rc == 0 && e < expansions; e++) {
		rc = compile_one(&c, g);
		/* the next binding: an odometer over the members */
		for (int b = 0; b < c.nbound; b++) {
			int n;
			members(c.lg, &c.bound[b], &n);
			if (++c.choice[b] < n)
				break;
			c.choice[b] = 0;
		}
	}
	free(c.m);
	free(c.m2);
	return rc;
}
