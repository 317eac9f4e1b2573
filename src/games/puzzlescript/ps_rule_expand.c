/*
 * ps_rule_expand.c - from parsed rules to concrete ones: one copy per
 * direction, relative directions (^ v < > parallel perpendicular) made
 * absolute, up and left rules rewritten as down and right with their rows
 * reversed, aggregates split into their objects, synonyms replaced,
 * ambiguous movements and properties made concrete (ps_rule_concrete.c),
 * objects a rule creates made stationary, and duplicates removed.
 *
 * The order of the resulting rules inside a group decides the game, so
 * every step keeps the reference's order, duplicates included, and the
 * duplicates are recognised by the reference's printed form of a rule.
 */
#include <string.h>

#include "ps_compile.h"

static struct ps_cell clone_cell(struct ps_ctx *c, const struct ps_cell *src)
{
	struct ps_cell d;
	d.n = src->n;
	d.it = ps_memdup_pad(c->arena, src->it, (size_t)src->n * sizeof *src->it, sizeof *src->it);
	return d;
}

static struct ps_crow *clone_rows(struct ps_ctx *c, const struct ps_crow *rows, int n)
{
	struct ps_crow *d = ps_alloc(c->arena, (size_t)(n + 1) * sizeof *d);
	for (int i = 0; i < n; i++) {
		d[i].n = rows[i].n;
		d[i].cells = ps_alloc(c->arena, (size_t)(rows[i].n + 1) * sizeof *d[i].cells);
		for (int j = 0; j < rows[i].n; j++)
			d[i].cells[j] = clone_cell(c, &rows[i].cells[j]);
	}
	return d;
}

struct ps_arule *ps_rule_clone(struct ps_ctx *c, const struct ps_arule *r)
{
	struct ps_arule *d = ps_memdup(c->arena, r, sizeof *r);
	d->lhs = clone_rows(c, r->lhs, r->nlhs);
	d->rhs = clone_rows(c, r->rhs, r->nrhs);
	d->prop_repl = ps_memdup_pad(c->arena, r->prop_repl, (size_t)r->nprop_repl * sizeof(struct ps_repl), sizeof(struct ps_repl));
	d->move_repl = ps_memdup_pad(c->arena, r->move_repl, (size_t)r->nmove_repl * sizeof(struct ps_repl), sizeof(struct ps_repl));
	d->aggdir_repl = ps_memdup_pad(c->arena, r->aggdir_repl, (size_t)r->naggdir_repl * sizeof(struct ps_repl), sizeof(struct ps_repl));
	d->string_rep = NULL;
	return d;
}

static void cell_remove(struct ps_cell *cell, int at)
{
	memmove(cell->it + at, cell->it + at + 1, (size_t)(cell->n - at - 1) * sizeof *cell->it);
	cell->n--;
}

static void cell_push(struct ps_ctx *c, struct ps_cell *cell, int dir, int name)
{
	struct ps_item *it = ps_memdup_pad(c->arena, cell->it, (size_t)cell->n * sizeof *it, 2 * sizeof *it);
	it[cell->n].dir = dir;
	it[cell->n].name = name;
	cell->it = it;
	cell->n++;
}

/* ---- "no X" that the cell already implies ---- */

static int layer_of_object(const struct ps_ctx *c, int sym)
{
	int id = c->obj_id[sym];
	return id >= 0 ? c->g->objects[id].layer : -1;
}

static void tidy_rule(struct ps_ctx *c, struct ps_arule *r)
{
	struct ps_game *g = c->g;
	int ow = g->ow;
	ps_word *present = ps_ctx_mask(c), *req_obj = ps_ctx_mask(c);
	/* 1: "X no X" on the right */
	for (int j = 0; j < r->nrhs; j++)
		for (int k = 0; k < r->rhs[j].n; k++) {
			struct ps_cell *cell = &r->rhs[j].cells[k];
			memset(present, 0, (size_t)ow * sizeof *present);
			struct lk_strbuf names = LK_STRBUF_INIT;
			for (int l = 0; l < cell->n; l++)
				if (cell->it[l].dir != PW_NO && cell->it[l].name >= 0 &&
				    ps_ctx_is_object(c, cell->it[l].name)) {
					ps_bit_set(present, c->obj_id[cell->it[l].name] >= 0 ? c->obj_id[cell->it[l].name] : 0);
					lk_strbuf_addf(&names, "%s%s", names.len ? ", " : "", ps_ctx_name(c, cell->it[l].name));
				}
			for (int l = 0; l < cell->n; l++) {
				if (cell->it[l].dir != PW_NO)
					continue;
				const ps_word *m = c->objmask[cell->it[l].name];
				if (m && ps_bits_any(m, present, ow))
					ps_diag_add(c->diags, true, r->line, "you have specified that there should be no %s but there is also a requirement that %s be here; this is a mistake right?",
						    ps_ctx_name(c, cell->it[l].name), names.buf);
			}
			lk_strbuf_release(&names);
		}
	/* 2: a "no X" on the right repeating the left's is dropped */
	for (int j = 0; j < r->nrhs; j++)
		for (int k = 0; k < r->rhs[j].n; k++) {
			struct ps_cell *cell = &r->rhs[j].cells[k];
			if (j >= r->nlhs || k >= r->lhs[j].n)
				continue;
			const struct ps_cell *lc = &r->lhs[j].cells[k];
			for (int l = 0; l < cell->n; l++) {
				if (cell->it[l].dir != PW_NO)
					continue;
				for (int m = 0; m < lc->n; m++)
					if (lc->it[m].dir == PW_NO && lc->it[m].name == cell->it[l].name) {
						/* the reference then steps over the next item */
						cell_remove(cell, l);
						break;
					}
			}
		}
	/* 3: "no X" on the left whose layers the cell's objects fill anyway */
	bool *req_layer = ps_alloc(c->arena, (size_t)(g->nlayers + 1));
	int *occupier = ps_alloc(c->arena, (size_t)(g->nlayers + 1) * sizeof(int));
	for (int j = 0; j < r->nlhs; j++)
		for (int k = 0; k < r->lhs[j].n; k++) {
			struct ps_cell *cell = &r->lhs[j].cells[k];
			memset(req_layer, 0, (size_t)g->nlayers + 1);
			memset(req_obj, 0, (size_t)ow * sizeof *req_obj);
			for (int l = 0; l < g->nlayers; l++)
				occupier[l] = -1;
			for (int l = 0; l < cell->n; l++) {
				int name = cell->it[l].name;
				if (cell->it[l].dir == PW_NO || name < 0 || name >= c->nsyms)
					continue;
				if (c->prop_layer[name] >= 0) {
					int layer = c->prop_layer[name];
					req_layer[layer] = true;
					const struct ps_list *v = c->props.val[name];
					for (size_t m = 0; v && m < v->n; m++)
						if (ps_ctx_is_object(c, v->v[m]) && c->obj_id[v->v[m]] >= 0)
							ps_bit_set(req_obj, c->obj_id[v->v[m]]);
					occupier[layer] = name;
				} else if (ps_ctx_is_object(c, name)) {
					int layer = layer_of_object(c, name);
					if (layer >= 0) {
						req_layer[layer] = true;
						occupier[layer] = name;
					}
					ps_bit_set(req_obj, c->obj_id[name] >= 0 ? c->obj_id[name] : 0);
				} else if (c->aggs.val[name]) {
					const struct ps_list *v = c->aggs.val[name];
					for (size_t m = 0; m < v->n; m++) {
						if (!ps_ctx_is_object(c, v->v[m]))
							continue;
						int layer = layer_of_object(c, v->v[m]);
						if (layer >= 0) {
							req_layer[layer] = true;
							occupier[layer] = name;
						}
						ps_bit_set(req_obj, c->obj_id[v->v[m]] >= 0 ? c->obj_id[v->v[m]] : 0);
					}
				}
			}
			for (int l = 0; l < cell->n; l++) {
				if (cell->it[l].dir != PW_NO)
					continue;
				const ps_word *m = c->objmask[cell->it[l].name];
				if (!m)
					continue;
				bool covered = true;
				for (int L = 0; L < g->nlayers; L++)
					if (ps_bits_any(g->layer_masks + (size_t)L * (size_t)ow, m, ow) && !req_layer[L])
						covered = false;
				if (covered && !ps_bits_any(m, req_obj, ow)) {
					ps_diag_add(c->diags, false, r->line, "you have specified that there should be no %s but there is also a requirement that something else be there, which collectively occupies the same layers, so you can leave this out",
						    ps_ctx_name(c, cell->it[l].name));
					cell_remove(cell, l);
					l--;
				}
			}
		}
}

void ps_rule_check_coincidences(struct ps_ctx *c, struct ps_arule **rules, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tidy_rule(c, rules[i]);
}

/* ---- directions ---- */

static int absolute(int forward, int d)
{
	/* the reference's relativeDict: ^ v < > parallel perpendicular */
	static const int table[4][6] = {
		/* up */ {PW_LEFT, PW_RIGHT, PW_DOWN, PW_UP, PW_VERTICAL_PAR, PW_HORIZONTAL_PERP},
		/* down */ {PW_RIGHT, PW_LEFT, PW_UP, PW_DOWN, PW_VERTICAL_PAR, PW_HORIZONTAL_PERP},
		/* left */ {PW_DOWN, PW_UP, PW_RIGHT, PW_LEFT, PW_HORIZONTAL_PAR, PW_VERTICAL_PERP},
		/* right */ {PW_UP, PW_DOWN, PW_LEFT, PW_RIGHT, PW_HORIZONTAL_PAR, PW_VERTICAL_PERP},
	};
	int col;
	switch (d) {
	case PW_REL_UP: col = 0; break;
	case PW_REL_DOWN: col = 1; break;
	case PW_REL_LEFT: col = 2; break;
	case PW_REL_RIGHT: col = 3; break;
	case PW_PARALLEL: col = 4; break;
	case PW_PERPENDICULAR: col = 5; break;
	default: return d;
	}
	if (forward < PW_UP || forward > PW_RIGHT)
		return d;
	return table[forward - PW_UP][col];
}

static void absolutify(struct ps_arule *r)
{
	for (int side = 0; side < 2; side++) {
		struct ps_crow *rows = side ? r->rhs : r->lhs;
		int n = side ? r->nrhs : r->nlhs;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < rows[i].n; j++)
				for (int k = 0; k < rows[i].cells[j].n; k++)
					rows[i].cells[j].it[k].dir = absolute(r->direction, rows[i].cells[j].it[k].dir);
	}
}

static bool has_ellipsis(const struct ps_arule *r)
{
	for (int i = 0; i < r->nlhs; i++)
		for (int j = 0; j < r->lhs[i].n; j++)
			if (r->lhs[i].cells[j].n > 0 && r->lhs[i].cells[j].it[0].name == -1)
				return true;
	return false;
}

static void reverse_row(struct ps_crow *row)
{
	for (int a = 0, b = row->n - 1; a < b; a++, b--) {
		struct ps_cell t = row->cells[a];
		row->cells[a] = row->cells[b];
		row->cells[b] = t;
	}
}

static void rewrite_up_left(struct ps_arule *r)
{
	if (has_ellipsis(r))
		return;
	if (r->direction == PW_UP)
		r->direction = PW_DOWN;
	else if (r->direction == PW_LEFT)
		r->direction = PW_RIGHT;
	else
		return;
	for (int i = 0; i < r->nlhs; i++) {
		reverse_row(&r->lhs[i]);
		if (i < r->nrhs)
			reverse_row(&r->rhs[i]);
	}
}

static void atomize(struct ps_ctx *c, struct ps_arule *r)
{
	for (int side = 0; side < 2; side++) {
		struct ps_crow *rows = side ? r->rhs : r->lhs;
		int n = side ? r->nrhs : r->nlhs;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < rows[i].n; j++) {
				struct ps_cell *cell = &rows[i].cells[j];
				for (int k = 0; k < cell->n; k++) {
					int name = cell->it[k].name;
					/* a word interned after the legend (an unknown
					 * one, diagnosed elsewhere) has no entry in the
					 * per-symbol arrays */
					if (name < 0 || name >= c->nsyms || !c->aggs.val[name])
						continue;
					int dir = cell->it[k].dir;
					if (dir == PW_NO)
						ps_diag_add(c->diags, true, r->line, "you cannot use 'no' to exclude the aggregate object %s (defined using 'and'), only regular objects, or properties (objects defined using 'or'); if you want to do this, you'll have to write it out yourself the long way",
							    ps_ctx_name(c, name));
					const struct ps_list *eq = c->aggs.val[name];
					if (eq->n == 0)
						continue;
					cell->it[k].name = eq->v[0];
					for (size_t e = 1; e < eq->n; e++) {
						cell_push(c, cell, dir, eq->v[e]);
					}
				}
			}
	}
}

static void rephrase_synonyms(struct ps_ctx *c, struct ps_arule *r)
{
	for (int i = 0; i < r->nlhs; i++)
		for (int j = 0; j < r->lhs[i].n; j++) {
			for (int s = 0; s < 2; s++) {
				if (s == 1 && (i >= r->nrhs || j >= r->rhs[i].n))
					continue;
				struct ps_cell *cell = s ? &r->rhs[i].cells[j] : &r->lhs[i].cells[j];
				for (int k = 0; k < cell->n; k++) {
					int name = cell->it[k].name;
					/* a word interned after the legend has no synonym */
					if (name >= 0 && name < c->nsyms && c->syn[name] >= 0)
						cell->it[k].name = c->syn[name];
				}
			}
		}
}

/* ---- objects created by a rule stand still ---- */

static void spawned_stationary(struct ps_ctx *c, struct ps_arule *r)
{
	if (r->late)
		return;
	for (int j = 0; j < r->nrhs; j++)
		for (int k = 0; k < r->rhs[j].n; k++) {
			const struct ps_cell *lc = &r->lhs[j].cells[k];
			struct ps_cell *cell = &r->rhs[j].cells[k];
			/* objects the left cell may hold, directions ignored */
			struct ps_list objs = {NULL, 0, 0};
			for (int l = 0; l < lc->n; l++) {
				int name = lc->it[l].name;
				if (name < 0)
					continue;
				if (ps_ctx_is_object(c, name))
					ps_list_push(c, &objs, name);
				else if (c->props.val[name])
					for (size_t m = 0; m < c->props.val[name]->n; m++)
						ps_list_push(c, &objs, c->props.val[name]->v[m]);
			}
			size_t nl = 0;
			int *layers = ps_alloc(c->arena, (objs.n + 1) * sizeof(int));
			for (size_t m = 0; m < objs.n; m++)
				if (ps_ctx_is_object(c, objs.v[m]))
					layers[nl++] = layer_of_object(c, objs.v[m]);
			for (int l = 0; l < cell->n; l++) {
				int name = cell->it[l].name;
				if (cell->it[l].dir != PW_NONE || name < 0)
					continue;
				if (c->props.val[name] || ps_list_has(&objs, name) || !ps_ctx_is_object(c, name))
					continue;
				int layer = layer_of_object(c, name);
				bool found = false;
				for (size_t m = 0; m < nl; m++)
					if (layers[m] == layer)
						found = true;
				if (!found)
					cell->it[l].dir = PW_STATIONARY;
			}
		}
}

/* ---- the printed form, for spotting duplicates ---- */

static void print_row(const struct ps_ctx *c, const struct ps_crow *row, struct lk_strbuf *sb)
{
	lk_strbuf_addstr(sb, "[ ");
	for (int i = 0; i < row->n; i++) {
		if (i > 0)
			lk_strbuf_addstr(sb, "| ");
		for (int k = 0; k < row->cells[i].n; k++) {
			const struct ps_item *it = &row->cells[i].it[k];
			if (it->dir == PW_ELLIPSIS)
				lk_strbuf_addstr(sb, "... ");
			else
				lk_strbuf_addf(sb, "%s %s ", ps_word_dir_names[it->dir], ps_ctx_name(c, it->name));
		}
	}
	lk_strbuf_addstr(sb, "] ");
}

void ps_rule_string_rep(struct ps_ctx *c, struct ps_arule *r)
{
	static const char *const cmd_names[PS_NCMDS] = {
		"sfx0", "sfx1", "sfx2", "sfx3", "sfx4", "sfx5", "sfx6", "sfx7", "sfx8", "sfx9",
		"sfx10", "cancel", "checkpoint", "restart", "win", "message", "again",
	};
	struct lk_strbuf sb = LK_STRBUF_INIT, t = LK_STRBUF_INIT;
	lk_strbuf_addf(&sb, "(%d) ", r->line);
	bool directed = false;
	for (int i = 0; i < r->nlhs; i++)
		if (r->lhs[i].n > 1)
			directed = true;
	if (directed)
		lk_strbuf_addf(&sb, "%s ", ps_word_dir_names[r->direction]);
	if (r->rigid) {
		lk_strbuf_addf(&t, "RIGID %s ", sb.buf);
		lk_strbuf_reset(&sb);
		lk_strbuf_addstr(&sb, t.buf);
	}
	if (r->random) {
		lk_strbuf_reset(&t);
		lk_strbuf_addf(&t, "RANDOM %s ", sb.buf);
		lk_strbuf_reset(&sb);
		lk_strbuf_addstr(&sb, t.buf);
	}
	if (r->late) {
		lk_strbuf_reset(&t);
		lk_strbuf_addf(&t, "LATE %s ", sb.buf);
		lk_strbuf_reset(&sb);
		lk_strbuf_addstr(&sb, t.buf);
	}
	for (int i = 0; i < r->nlhs; i++)
		print_row(c, &r->lhs[i], &sb);
	lk_strbuf_addstr(&sb, "-> ");
	for (int i = 0; i < r->nrhs; i++)
		print_row(c, &r->rhs[i], &sb);
	for (int i = 0; i < r->ncommands; i++) {
		if (r->commands[i].message)
			lk_strbuf_addf(&sb, "(message, %s) ", r->commands[i].message);
		else
			lk_strbuf_addstr(&sb, cmd_names[r->commands[i].cmd]);
	}
	r->string_rep = ps_strdup(c->arena, sb.buf);
	lk_strbuf_release(&sb);
	lk_strbuf_release(&t);
}

/* Keep the last of identical rules within a run of one group. */
static void remove_duplicates(struct ps_ctx *c)
{
	size_t n = c->nrules;
	bool *keep = ps_alloc(c->arena, n + 1);
	size_t run_end = n;
	for (size_t i = n; i-- > 0;) {
		struct ps_arule *r = c->rules[i];
		if (i + 1 < n && c->rules[i + 1]->group != r->group)
			run_end = i + 1;
		keep[i] = true;
		for (size_t k = i + 1; k < run_end; k++)
			if (keep[k] && !strcmp(c->rules[k]->string_rep, r->string_rep)) {
				keep[i] = false;
				break;
			}
	}
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (keep[i])
			c->rules[m++] = c->rules[i];
	c->nrules = m;
}

void ps_rules_expand(struct ps_ctx *c)
{
	struct ps_arule **rules = NULL;
	size_t n = 0, alloc = 0;
	for (size_t i = 0; i < c->nrules; i++) {
		struct ps_arule *r = c->rules[i];
		for (int d = 0; d < r->ndirs; d++) {
			struct ps_arule *m = ps_rule_clone(c, r);
			m->direction = r->dirs[d];
			PS_GROW(c->arena, rules, n + 1, alloc);
			rules[n++] = m;
		}
	}
	for (size_t i = 0; i < n; i++) {
		absolutify(rules[i]);
		rewrite_up_left(rules[i]);
		atomize(c, rules[i]);
		if (c->invalid)
			return;
		rephrase_synonyms(c, rules[i]);
	}
	struct ps_arule **r3 = NULL, **r4 = NULL;
	size_t n3 = 0, a3 = 0, n4 = 0, a4 = 0;
	for (size_t i = 0; i < n; i++)
		ps_rule_concretize_moving(c, rules[i], &r3, &n3, &a3);
	for (size_t i = 0; i < n3; i++)
		ps_rule_concretize_property(c, r3[i], &r4, &n4, &a4);
	for (size_t i = 0; i < n4; i++)
		spawned_stationary(c, r4[i]);
	c->rules = r4;
	c->nrules = n4;
	for (size_t i = 0; i < n4; i++)
		ps_rule_string_rep(c, r4[i]);
	remove_duplicates(c);
}
