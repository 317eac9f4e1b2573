/*
 * ps_rule_concrete.c - ambiguous movements (moving, orthogonal,
 * horizontal, vertical, parallel, perpendicular) and properties ("or"
 * names) on a rule's left side become one rule per concrete choice; the
 * right side follows where the left says which choice was made.
 *
 * Ported step for step from the reference, whose order of expansion
 * (including the duplicate rules its movement expansion makes, removed
 * later) fixes the order rules are tried in.
 */
#include <string.h>

#include "ps_compile.h"

static bool is_ambiguous_dir(int d)
{
	return d == PW_MOVING || d == PW_ORTHOGONAL || d == PW_HORIZONTAL || d == PW_VERTICAL ||
	       d == PW_PARALLEL || d == PW_PERPENDICULAR || d == PW_HORIZONTAL_PAR ||
	       d == PW_VERTICAL_PAR || d == PW_HORIZONTAL_PERP || d == PW_VERTICAL_PERP;
}

static int concrete_dirs(int d, int out[5])
{
	switch (d) {
	case PW_HORIZONTAL:
	case PW_HORIZONTAL_PAR:
	case PW_HORIZONTAL_PERP:
		out[0] = PW_LEFT;
		out[1] = PW_RIGHT;
		return 2;
	case PW_VERTICAL:
	case PW_VERTICAL_PAR:
	case PW_VERTICAL_PERP:
		out[0] = PW_UP;
		out[1] = PW_DOWN;
		return 2;
	case PW_MOVING:
		out[0] = PW_UP;
		out[1] = PW_DOWN;
		out[2] = PW_LEFT;
		out[3] = PW_RIGHT;
		out[4] = PW_ACTION;
		return 5;
	case PW_ORTHOGONAL:
		out[0] = PW_UP;
		out[1] = PW_DOWN;
		out[2] = PW_LEFT;
		out[3] = PW_RIGHT;
		return 4;
	case PW_PERPENDICULAR:
		out[0] = PW_REL_UP;
		out[1] = PW_REL_DOWN;
		return 2;
	case PW_PARALLEL:
		out[0] = PW_REL_LEFT;
		out[1] = PW_REL_RIGHT;
		return 2;
	default:
		return 0;
	}
}

static void push_rule(struct ps_ctx *c, struct ps_arule ***v, size_t *n, size_t *alloc,
		      struct ps_arule *r)
{
	PS_GROW(c->arena, *v, *n + 1, *alloc);
	(*v)[(*n)++] = r;
}

static void remove_at(struct ps_arule **v, size_t *n, size_t i)
{
	if (*n - i - 1)
		memmove(v + i, v + i + 1, (*n - i - 1) * sizeof *v);
	(*n)--;
}

static struct ps_repl *repl_find(struct ps_repl *v, int n, int key, int key2)
{
	for (int i = 0; i < n; i++)
		if (v[i].key == key && v[i].key2 == key2)
			return &v[i];
	return NULL;
}

static void repl_add(struct ps_ctx *c, struct ps_repl **v, int *n, struct ps_repl r)
{
	struct ps_repl *d = ps_memdup_pad(c->arena, *v, (size_t)*n * sizeof *d, 2 * sizeof *d);
	d[(*n)++] = r;
	*v = d;
}

static void set_dir(struct ps_cell *cell, int from_dir, int name, int to_dir)
{
	for (int k = 0; k < cell->n; k++)
		if (cell->it[k].dir == from_dir && (name == -2 || cell->it[k].name == name))
			cell->it[k].dir = to_dir;
}

static bool rhs_has_ambiguous(const struct ps_arule *r, int *which)
{
	for (int j = 0; j < r->nrhs; j++)
		for (int k = 0; k < r->rhs[j].n; k++)
			for (int l = 0; l < r->rhs[j].cells[k].n; l++)
				if (is_ambiguous_dir(r->rhs[j].cells[k].it[l].dir)) {
					*which = r->rhs[j].cells[k].it[l].dir;
					return true;
				}
	return false;
}

void ps_rule_concretize_moving(struct ps_ctx *c, struct ps_arule *rule, struct ps_arule ***out,
			       size_t *nout, size_t *oalloc)
{
	struct ps_arule **res = NULL;
	size_t n = 0, alloc = 0;
	push_rule(c, &res, &n, &alloc, rule);
	bool modified = true;
	while (modified) {
		modified = false;
		for (size_t i = 0; i < n; i++) {
			struct ps_arule *cur = res[i];
			bool remove = false;
			/* every cell with an ambiguous movement spawns copies (no
			 * break: the reference makes duplicates, removed later) */
			for (int j = 0; j < cur->nlhs; j++)
				for (int k = 0; k < cur->lhs[j].n; k++) {
					const struct ps_cell *cell = &cur->lhs[j].cells[k];
					int at = -1;
					for (int l = 0; l < cell->n && at < 0; l++)
						if (is_ambiguous_dir(cell->it[l].dir))
							at = l;
					if (at < 0)
						continue;
					remove = modified = true;
					int name = cell->it[at].name, amb = cell->it[at].dir;
					int dirs[5], nd = concrete_dirs(amb, dirs);
					for (int d = 0; d < nd; d++) {
						struct ps_arule *nr = ps_rule_clone(c, cur);
						set_dir(&nr->lhs[j].cells[k], amb, name, dirs[d]);
						if (nr->nrhs > 0)
							set_dir(&nr->rhs[j].cells[k], amb, name, dirs[d]);
						struct ps_repl *mr = repl_find(nr->move_repl, nr->nmove_repl, name, amb);
						if (!mr)
							repl_add(c, &nr->move_repl, &nr->nmove_repl,
								 (struct ps_repl){name, amb, dirs[d], 1, j, k});
						else if (j != mr->row || k != mr->col)
							mr->count++;
						struct ps_repl *ar = repl_find(nr->aggdir_repl, nr->naggdir_repl, amb, 0);
						if (!ar)
							repl_add(c, &nr->aggdir_repl, &nr->naggdir_repl,
								 (struct ps_repl){amb, 0, dirs[d], 1, 0, 0});
						else
							ar->count++;
						push_rule(c, &res, &n, &alloc, nr);
					}
				}
			if (remove) {
				remove_at(res, &n, i);
				i--;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct ps_arule *cur = res[i];
		if (cur->nmove_repl == 0 && cur->naggdir_repl == 0)
			continue;
		for (int m = 0; m < cur->nmove_repl; m++) {
			const struct ps_repl *rp = &cur->move_repl[m];
			if (rp->count != 1)
				continue;
			for (int j = 0; j < cur->nrhs; j++)
				for (int k = 0; k < cur->rhs[j].n; k++)
					set_dir(&cur->rhs[j].cells[k], rp->key2, rp->key, rp->concrete);
		}
		/* one occurrence of an ambiguous word on the left settles the
		 * same word anywhere on the right */
		for (int m = 0; m < cur->naggdir_repl; m++) {
			const struct ps_repl *rp = &cur->aggdir_repl[m];
			if (rp->count != 1)
				continue;
			for (int j = 0; j < cur->nrhs; j++)
				for (int k = 0; k < cur->rhs[j].n; k++)
					set_dir(&cur->rhs[j].cells[k], rp->key, -2, rp->concrete);
		}
	}
	int which;
	for (size_t i = 0; i < n; i++) {
		res[i]->nmove_repl = res[i]->naggdir_repl = 0;
		if (rhs_has_ambiguous(res[i], &which)) {
			ps_diag_add(c->diags, true, rule->line, "this rule has an ambiguous movement on the right-hand side, \"%s\", that can't be inferred from the left-hand side (either for every ambiguous movement associated to an entity on the right there has to be a corresponding one on the left attached to the same entity, or, if there's a single occurrence of a particular ambiguous movement on the left, all properties of the same movement attached to the same object on the right are assumed to be the same)",
				    ps_word_dir_names[which]);
			c->invalid = true;
			break;
		}
	}
	for (size_t i = 0; i < n; i++)
		push_rule(c, out, nout, oalloc, res[i]);
}

/* ---- properties ---- */

static bool is_property(const struct ps_ctx *c, int name)
{
	return name >= 0 && c->props.val[name];
}

static struct ps_cell expand_no_properties(struct ps_ctx *c, const struct ps_cell *cell)
{
	struct ps_cell d = {NULL, 0};
	size_t alloc = 0;
	for (int i = 0; i < cell->n; i++) {
		int dir = cell->it[i].dir, name = cell->it[i].name;
		if (dir == PW_NO && is_property(c, name)) {
			const struct ps_list *al = c->props.val[name];
			for (size_t j = 0; j < al->n; j++) {
				PS_GROW(c->arena, d.it, (size_t)d.n + 1, alloc);
				d.it[d.n++] = (struct ps_item){dir, al->v[j]};
			}
		} else {
			PS_GROW(c->arena, d.it, (size_t)d.n + 1, alloc);
			d.it[d.n++] = cell->it[i];
		}
	}
	if (!d.it)
		d.it = ps_alloc(c->arena, sizeof *d.it);
	return d;
}

/* the properties a cell names (random ones aside) */
static int cell_properties(const struct ps_ctx *c, const struct ps_cell *cell, int *out)
{
	int n = 0;
	for (int i = 0; i < cell->n; i++)
		if (cell->it[i].dir != PW_RANDOM && is_property(c, cell->it[i].name))
			out[n++] = cell->it[i].name;
	return n;
}

static void set_property(struct ps_cell *cell, int property, int concrete)
{
	for (int i = 0; i < cell->n; i++)
		if (cell->it[i].name == property && cell->it[i].dir != PW_RANDOM)
			cell->it[i].name = concrete;
}

static bool in_ints(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

void ps_rule_concretize_property(struct ps_ctx *c, struct ps_arule *rule, struct ps_arule ***out,
				 size_t *nout, size_t *oalloc)
{
	for (int i = 0; i < rule->nlhs; i++)
		for (int j = 0; j < rule->lhs[i].n; j++) {
			rule->lhs[i].cells[j] = expand_no_properties(c, &rule->lhs[i].cells[j]);
			if (rule->nrhs > 0)
				rule->rhs[i].cells[j] = expand_no_properties(c, &rule->rhs[i].cells[j]);
		}
	/* properties on the right that the same left cell does not name */
	int *amb = NULL;
	size_t namb = 0, amb_alloc = 0;
	int *pl = NULL, *pr = NULL;
	for (int j = 0; j < rule->nrhs; j++)
		for (int k = 0; k < rule->rhs[j].n; k++) {
			const struct ps_cell *lc = &rule->lhs[j].cells[k], *rc = &rule->rhs[j].cells[k];
			pl = ps_alloc(c->arena, (size_t)(lc->n + 1) * sizeof(int));
			pr = ps_alloc(c->arena, (size_t)(rc->n + 1) * sizeof(int));
			int nl = cell_properties(c, lc, pl), nr = cell_properties(c, rc, pr);
			for (int m = 0; m < nr; m++)
				if (!in_ints(pl, nl, pr[m]) && !in_ints(amb, (int)namb, pr[m])) {
					PS_GROW(c->arena, amb, namb + 1, amb_alloc);
					amb[namb++] = pr[m];
				}
		}
	struct ps_arule **res = NULL;
	size_t n = 0, alloc = 0;
	push_rule(c, &res, &n, &alloc, rule);
	bool modified = true;
	while (modified) {
		modified = false;
		for (size_t i = 0; i < n; i++) {
			struct ps_arule *cur = res[i];
			bool remove = false;
			for (int j = 0; j < cur->nlhs && !remove; j++)
				for (int k = 0; k < cur->lhs[j].n && !remove; k++) {
					const struct ps_cell *cell = &cur->lhs[j].cells[k];
					int *props = ps_alloc(c->arena, (size_t)(cell->n + 1) * sizeof(int));
					int np = cell_properties(c, cell, props);
					for (int m = 0; m < np; m++) {
						int property = props[m];
						if (c->prop_layer[property] >= 0 && !in_ints(amb, (int)namb, property))
							continue;
						const struct ps_list *al = c->props.val[property];
						remove = modified = true;
						for (size_t a = 0; a < al->n; a++) {
							struct ps_arule *nr = ps_rule_clone(c, cur);
							set_property(&nr->lhs[j].cells[k], property, al->v[a]);
							if (nr->nrhs > 0)
								set_property(&nr->rhs[j].cells[k], property, al->v[a]);
							struct ps_repl *rp = repl_find(nr->prop_repl, nr->nprop_repl, property, 0);
							if (!rp)
								repl_add(c, &nr->prop_repl, &nr->nprop_repl,
									 (struct ps_repl){property, 0, al->v[a], 1, 0, 0});
							else
								rp->count++;
							push_rule(c, &res, &n, &alloc, nr);
						}
						break;
					}
				}
			if (remove) {
				remove_at(res, &n, i);
				i--;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct ps_arule *cur = res[i];
		for (int m = 0; m < cur->nprop_repl; m++) {
			const struct ps_repl *rp = &cur->prop_repl[m];
			if (rp->count != 1)
				continue;
			for (int j = 0; j < cur->nrhs; j++)
				for (int k = 0; k < cur->rhs[j].n; k++)
					set_property(&cur->rhs[j].cells[k], rp->key, rp->concrete);
		}
	}
	int remains = -1;
	for (size_t i = 0; i < n; i++) {
		struct ps_arule *cur = res[i];
		cur->nprop_repl = 0;
		for (int j = 0; j < cur->nrhs; j++)
			for (int k = 0; k < cur->rhs[j].n; k++) {
				const struct ps_cell *cell = &cur->rhs[j].cells[k];
				int *props = ps_alloc(c->arena, (size_t)(cell->n + 1) * sizeof(int));
				int np = cell_properties(c, cell, props);
				for (int m = 0; m < np; m++)
					if (in_ints(amb, (int)namb, props[m]))
						remains = props[m];
			}
	}
	if (remains >= 0) {
		ps_diag_add(c->diags, true, rule->line, "this rule has a property on the right-hand side, \"%s\", that can't be inferred from the left-hand side (either for every property on the right there has to be a corresponding one on the left in the same cell, or, if there's a single occurrence of a particular property name on the left, all properties of the same name on the right are assumed to be the same)",
			    ps_ctx_name(c, remains));
		return;
	}
	for (size_t i = 0; i < n; i++)
		push_rule(c, out, nout, oalloc, res[i]);
}
