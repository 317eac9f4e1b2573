/*
 * ps_rule_mask.c - concrete rules into bit masks, then into the groups
 * the engine runs: each left cell becomes masks of objects and movements
 * that must be present or absent (a property on one layer becomes a
 * one-of set), each right cell the masks a match clears and sets; rules
 * that can never match are dropped, rules are gathered into groups by the
 * line of their first rule (late ones apart), rigid groups are numbered,
 * and startloop/endloop become jump points between groups.
 */
#include <string.h>

#include "ps_compile.h"

struct mpat {
	bool ellipsis;
	ps_word *present, *missing, *movp, *movm;
	ps_word **any;
	int nany;
	bool has_rep;
	ps_word *clear, *set, *movclear, *movset, *movlayer, *rnd, *rnddir;
};

struct mrule {
	struct ps_arule *r;
	struct mpat **rows;  /* rows[i][j] */
	bool removed;
};

static int dir_mask(int d)
{
	switch (d) {
	case PW_UP: return 1;
	case PW_DOWN: return 2;
	case PW_LEFT: return 4;
	case PW_RIGHT: return 8;
	case PW_MOVING: return 15;
	case PW_NO: return 3;
	case PW_RANDOMDIR: return 5;
	case PW_RANDOM: return 18;
	case PW_ACTION: return 16;
	default: return 0;
	}
}

static ps_word *mov_mask(struct ps_ctx *c)
{
	return ps_alloc(c->arena, (size_t)c->g->mw * sizeof(ps_word));
}

static void or_into(ps_word *a, const ps_word *b, int n)
{
	for (int i = 0; i < n; i++)
		a[i] |= b[i];
}

static bool name_layer(const struct ps_ctx *c, int name, int *layer, bool *is_object)
{
	*is_object = name >= 0 && ps_ctx_is_object(c, name);
	if (*is_object) {
		int id = c->obj_id[name];
		*layer = id >= 0 ? c->g->objects[id].layer : -1;
		return *layer >= 0;
	}
	*layer = name >= 0 ? c->prop_layer[name] : -1;
	return *layer >= 0;
}

/* The left cell (j, k) of rule m; false when the rule must go. */
static bool mask_cell(struct ps_ctx *c, struct mrule *m, int j, int k)
{
	struct ps_game *g = c->g;
	int ow = g->ow, mw = g->mw, nl = g->nlayers;
	struct ps_arule *r = m->r;
	const struct ps_cell *cl = &r->lhs[j].cells[k];
	struct mpat *pt = &m->rows[j][k];
	int *used_l = ps_alloc(c->arena, (size_t)(nl + 1) * sizeof(int));
	for (int l = 0; l < nl; l++)
		used_l[l] = -1;
	pt->present = ps_ctx_mask(c);
	pt->missing = ps_ctx_mask(c);
	pt->movp = mov_mask(c);
	pt->movm = mov_mask(c);
	pt->any = ps_alloc(c->arena, (size_t)(cl->n + 1) * sizeof(ps_word *));
	ps_word *layers_l = mov_mask(c);
	for (int i = 0; i < cl->n; i++) {
		int dir = cl->it[i].dir, name = cl->it[i].name;
		if (dir == PW_ELLIPSIS) {
			if (cl->n != 1) {
				ps_diag_add(c->diags, true, r->line, "you can't have anything in with an ellipsis; sorry");
				return false;
			}
			if (k == 0 || k == r->lhs[j].n - 1) {
				ps_diag_add(c->diags, true, r->line, "there's no point in putting an ellipsis at the very start or the end of a rule");
				r->ellipsis_at_edge = true;
			}
			if (r->nrhs > 0) {
				const struct ps_cell *rc = &r->rhs[j].cells[k];
				if (rc->n != 1 || rc->it[0].dir != PW_ELLIPSIS)
					ps_diag_add(c->diags, true, r->line, "an ellipsis on the left must be matched by one in the corresponding place on the right");
			}
			pt->ellipsis = true;
			return true;
		}
		if (dir == PW_RANDOM) {
			ps_diag_add(c->diags, true, r->line, "random cannot be matched on the left-hand side, it can only appear on the right");
			continue;
		}
		int layer;
		bool is_obj;
		if (!name_layer(c, name, &layer, &is_obj)) {
			ps_diag_add(c->diags, true, r->line, "oops! %s not assigned to a layer", ps_ctx_name(c, name));
			continue;
		}
		const ps_word *om = c->objmask[name];
		if (dir == PW_NO) {
			if (om)
				or_into(pt->missing, om, ow);
			continue;
		}
		if (used_l[layer] >= 0) {
			r->discard = true;
			r->discard_a = name;
			r->discard_b = used_l[layer];
		}
		used_l[layer] = name;
		if (is_obj) {
			if (om)
				or_into(pt->present, om, ow);
			ps_mov_or(layers_l, layer, 31);
		} else {
			pt->any[pt->nany++] = om ? (ps_word *)om : ps_ctx_mask(c);
		}
		if (dir == PW_STATIONARY)
			ps_mov_or(pt->movm, layer, 31);
		else
			ps_mov_or(pt->movp, layer, (unsigned)dir_mask(dir));
	}
	if (!ps_bits_zero(pt->present, ow) && ps_bits_any(pt->present, pt->missing, ow)) {
		ps_diag_add(c->diags, false, r->line, "this rule has something amounting to \"x no x\" on the left-hand-side, which can never match, so the rule is getting removed during compilation");
		return false;
	}
	if (r->nrhs == 0)
		return true;
	const struct ps_cell *cr = &r->rhs[j].cells[k];
	if (cr->n > 0 && cr->it[0].dir == PW_ELLIPSIS && !(cl->n > 0 && cl->it[0].dir == PW_ELLIPSIS))
		ps_diag_add(c->diags, true, r->line, "an ellipsis on the right must be matched by one in the corresponding place on the left");
	for (int i = 0; i < cr->n; i++)
		if (cr->it[i].dir == PW_ELLIPSIS && cr->n != 1)
			ps_diag_add(c->diags, true, r->line, "you can't have anything in with an ellipsis; sorry");
	int *used_r = ps_alloc(c->arena, (size_t)(nl + 1) * sizeof(int));
	int *used_rand = ps_alloc(c->arena, (size_t)(nl + 1) * sizeof(int));
	for (int l = 0; l < nl; l++)
		used_r[l] = used_rand[l] = -1;
	pt->clear = ps_ctx_mask(c);
	pt->set = ps_ctx_mask(c);
	pt->rnd = ps_ctx_mask(c);
	pt->movclear = mov_mask(c);
	pt->movset = mov_mask(c);
	pt->movlayer = mov_mask(c);
	pt->rnddir = mov_mask(c);
	ps_word *layers_r = mov_mask(c);
	for (int i = 0; i < cr->n; i++) {
		int dir = cr->it[i].dir, name = cr->it[i].name;
		if (dir == PW_ELLIPSIS)
			break;
		if (dir == PW_RANDOM) {
			if (name >= 0 && c->objmask[name]) {
				or_into(pt->rnd, c->objmask[name], ow);
				const struct ps_list *vals = c->props.val[name];
				size_t nv = vals ? vals->n : 1;
				if (nv == 1)
					ps_diag_add(c->diags, false, r->line, "in this rule you're asking me to spawn a random %s for you, but that's already a concrete single object",
						    ps_ctx_name(c, name));
				for (size_t v = 0; v < nv; v++) {
					int sub = vals ? vals->v[v] : name, sl;
					bool so;
					if (!ps_ctx_is_object(c, sub) || !name_layer(c, sub, &sl, &so))
						continue;
					if (used_r[sl] >= 0 && used_r[sl] != sub)
						ps_diag_add(c->diags, false, r->line, "this rule may try to spawn a %s with random, but also requires a %s be here, which is on the same layer - they shouldn't be able to coexist",
							    ps_ctx_name(c, sub), ps_ctx_name(c, used_r[sl]));
					used_rand[sl] = sub;
				}
			} else {
				ps_diag_add(c->diags, true, r->line, "you want to spawn a random \"%s\", but I don't know how to do that",
					    ps_ctx_name(c, name));
			}
			continue;
		}
		int layer;
		bool is_obj;
		if (!name_layer(c, name, &layer, &is_obj)) {
			ps_diag_add(c->diags, true, r->line, "oops! %s not assigned to a layer", ps_ctx_name(c, name));
			continue;
		}
		const ps_word *om = c->objmask[name];
		if (dir == PW_NO) {
			if (om)
				or_into(pt->clear, om, ow);
			continue;
		}
		int existing = used_r[layer] >= 0 ? used_r[layer] : used_rand[layer];
		if (existing >= 0 && !r->discard)
			ps_diag_add(c->diags, true, r->line, "rule matches object types that can't overlap: \"%s\" and \"%s\"",
				    ps_ctx_name(c, name), ps_ctx_name(c, existing));
		used_r[layer] = name;
		if (dir != PW_NONE)
			ps_mov_or(pt->movlayer, layer, 31);
		if (is_obj) {
			int id = c->obj_id[name];
			ps_bit_set(pt->set, id >= 0 ? id : 0);
			or_into(pt->clear, g->layer_masks + (size_t)layer * (size_t)ow, ow);
			ps_mov_or(layers_r, layer, 31);
		}
		if (dir == PW_STATIONARY)
			ps_mov_or(pt->movclear, layer, 31);
		else if (dir == PW_RANDOMDIR)
			ps_mov_or(pt->rnddir, layer, (unsigned)dir_mask(dir));
		else
			ps_mov_or(pt->movset, layer, (unsigned)dir_mask(dir));
	}
	if (!ps_bits_subset(pt->present, pt->set, ow))
		or_into(pt->clear, pt->present, ow);
	if (!ps_bits_subset(pt->movp, pt->movset, mw))
		or_into(pt->movclear, pt->movp, mw);
	for (int l = 0; l < nl; l++)
		if (used_l[l] >= 0 && used_r[l] < 0) {
			or_into(pt->clear, g->layer_masks + (size_t)l * (size_t)ow, ow);
			ps_mov_or(pt->movlayer, l, 31);
		}
	for (int w = 0; w < mw; w++) {
		layers_l[w] &= ~layers_r[w];
		pt->movlayer[w] |= layers_l[w];
	}
	pt->has_rep = !ps_bits_zero(pt->clear, ow) || !ps_bits_zero(pt->set, ow) ||
		      !ps_bits_zero(pt->movclear, mw) || !ps_bits_zero(pt->movset, mw) ||
		      !ps_bits_zero(pt->movlayer, mw) || !ps_bits_zero(pt->rnd, ow) ||
		      !ps_bits_zero(pt->rnddir, mw);
	return true;
}

static bool mask_rule(struct ps_ctx *c, struct mrule *m)
{
	struct ps_arule *r = m->r;
	m->rows = ps_alloc(c->arena, (size_t)(r->nlhs + 1) * sizeof *m->rows);
	for (int j = 0; j < r->nlhs; j++) {
		m->rows[j] = ps_alloc(c->arena, (size_t)(r->lhs[j].n + 1) * sizeof **m->rows);
		for (int k = 0; k < r->lhs[j].n; k++)
			if (!mask_cell(c, m, j, k))
				return false;
	}
	return !r->ellipsis_at_edge;
}

/* ---- groups ---- */

struct mgroup {
	int number;
	bool late;
	struct mrule **rules;
	size_t n, alloc;
};

/* Drop rules that need two objects of one layer in a cell; complain when
 * that removes every copy of a source rule. */
static void discard_overlapping(struct ps_ctx *c, struct mgroup *grp)
{
	int first_a = -1, first_b = -1, ndiscards = 0;
	for (size_t i = 0; i < grp->n; i++) {
		struct ps_arule *r = grp->rules[i]->r;
		if (!r->discard)
			continue;
		bool before = i > 0 && grp->rules[i - 1]->r->line == r->line;
		bool after = i + 1 < grp->n && grp->rules[i + 1]->r->line == r->line;
		memmove(grp->rules + i, grp->rules + i + 1, (grp->n - i - 1) * sizeof *grp->rules);
		grp->n--;
		if (first_a < 0) {
			first_a = r->discard_a;
			first_b = r->discard_b;
		}
		ndiscards++;
		if (!(before || after) || grp->n == 0)
			ps_diag_add(c->diags, true, r->line, "%s and %s can never overlap%s; this rule requires that to happen, so it is impossible it will ever trigger",
				    ps_ctx_name(c, first_a), ps_ctx_name(c, first_b),
				    ndiscards > 1 ? " (and others)" : "");
		i--;
	}
}

static struct mgroup *find_group(struct ps_ctx *c, struct mgroup **v, size_t *n, size_t *alloc,
				 int number, bool late)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].number == number && (*v)[i].late == late)
			return &(*v)[i];
	/* keep groups sorted by number within their kind */
	PS_GROW(c->arena, *v, *n + 1, *alloc);
	size_t at = *n;
	while (at > 0 && ((*v)[at - 1].late > late ||
			  ((*v)[at - 1].late == late && (*v)[at - 1].number > number)))
		at--;
	memmove(*v + at + 1, *v + at, (*n - at) * sizeof **v);
	(*n)++;
	memset(&(*v)[at], 0, sizeof **v);
	(*v)[at].number = number;
	(*v)[at].late = late;
	return &(*v)[at];
}

static const ps_word *keep_copy(struct ps_ctx *c, const ps_word *w, int n)
{
	ps_word *d = ps_keep_words(c, (size_t)n);
	if (w)
		memcpy(d, w, (size_t)n * sizeof *d);
	return d;
}

static void emit_pattern(struct ps_ctx *c, struct ps_pattern *p, const struct mpat *m)
{
	int ow = c->g->ow, mw = c->g->mw;
	p->present = keep_copy(c, m->present, ow);
	p->missing = keep_copy(c, m->missing, ow);
	ps_word *any = ps_keep_words(c, (size_t)(m->nany * ow + 1));
	for (int i = 0; i < m->nany; i++)
		memcpy(any + i * ow, m->any[i], (size_t)ow * sizeof *any);
	p->any = any;
	p->nany = m->nany;
	p->mov_present = keep_copy(c, m->movp, mw);
	p->mov_missing = keep_copy(c, m->movm, mw);
	p->present0 = p->present[0];
	p->missing0 = p->missing[0];
	p->movp0 = p->mov_present[0];
	p->movm0 = p->mov_missing[0];
	p->has_rep = m->has_rep;
	if (!m->has_rep)
		return;
	p->clear = keep_copy(c, m->clear, ow);
	p->set = keep_copy(c, m->set, ow);
	ps_word *mc = ps_keep_words(c, (size_t)mw);
	for (int w = 0; w < mw; w++)
		mc[w] = m->movclear[w] | m->movlayer[w];
	p->mov_clear = mc;
	p->mov_set = keep_copy(c, m->movset, mw);
	p->mov_layers = keep_copy(c, m->movlayer, mw);
	p->random_obj = keep_copy(c, m->rnd, ow);
	p->random_dir = keep_copy(c, m->rnddir, mw);
	p->rep_random_obj = !ps_bits_zero(m->rnd, ow);
	p->rep_random_dir = !ps_bits_zero(m->rnddir, mw);
	p->clear0 = p->clear[0];
	p->set0 = p->set[0];
	p->movclear0 = p->mov_clear[0];
	p->movset0 = p->mov_set[0];
}

static int final_dir(int d)
{
	return dir_mask(d);
}

static void emit_rule(struct ps_ctx *c, struct ps_rule *out, const struct mrule *m, int index)
{
	struct ps_game *g = c->g;
	const struct ps_arule *r = m->r;
	int ow = g->ow, mw = g->mw;
	out->dir = final_dir(r->direction);
	out->nrows = r->nlhs;
	out->rows = ps_alloc(c->keep, (size_t)(r->nlhs + 1) * sizeof *out->rows);
	out->has_replacements = r->nrhs > 0;
	out->rigid = r->rigid;
	out->line = r->line;
	out->group_number = r->group;
	out->index = index;
	out->cost = r->cost;
	ps_word *rule_mask = ps_keep_words(c, (size_t)ow);
	for (int i = 0; i < r->ncommands; i++) {
		out->commands |= 1u << r->commands[i].cmd;
		if (r->commands[i].cmd == PS_CMD_MESSAGE && !out->message)
			out->message = ps_strdup(c->keep, r->commands[i].message);
	}
	for (int j = 0; j < r->nlhs; j++) {
		struct ps_row *row = &out->rows[j];
		row->ncells = r->lhs[j].n;
		row->cells = ps_alloc(c->keep, (size_t)(row->ncells + 1) * sizeof(int));
		ps_word *om = ps_keep_words(c, (size_t)ow), *mm = ps_keep_words(c, (size_t)mw);
		for (int k = 0; k < row->ncells; k++) {
			const struct mpat *mp = &m->rows[j][k];
			if (mp->ellipsis) {
				row->cells[k] = -1;
				row->nellipses++;
				continue;
			}
			or_into(om, mp->present, ow);
			or_into(mm, mp->movp, mw);
			row->cells[k] = g->npatterns;
			emit_pattern(c, &g->patterns[g->npatterns++], mp);
		}
		if (row->nellipses > 2)
			ps_diag_add(c->diags, true, r->line, "you can't use more than two ellipses in a single cell match pattern");
		row->obj_mask = om;
		row->mov_mask = mm;
		/* the one-of sets of the row's cells, for skipping lines */
		int nany = 0;
		for (int k = 0; k < row->ncells; k++)
			if (!m->rows[j][k].ellipsis)
				nany += m->rows[j][k].nany;
		ps_word *am = ps_keep_words(c, (size_t)(nany * ow + 1));
		row->nany = 0;
		for (int k = 0; k < row->ncells; k++) {
			const struct mpat *mp = &m->rows[j][k];
			for (int a = 0; !mp->ellipsis && a < mp->nany; a++) {
				bool seen = false;
				for (int b = 0; b < row->nany && !seen; b++)
					seen = !memcmp(am + b * ow, mp->any[a], (size_t)ow * sizeof *am);
				if (!seen)
					memcpy(am + row->nany++ * ow, mp->any[a], (size_t)ow * sizeof *am);
			}
		}
		row->any_masks = am;
		or_into(rule_mask, om, ow);
		if (row->nellipses > 0 && r->nlhs > g->max_ellipsis_rows)
			g->max_ellipsis_rows = r->nlhs;
	}
	if (r->nlhs > g->max_rows)
		g->max_rows = r->nlhs;
	out->mask = rule_mask;
}

static void loop_points(struct ps_ctx *c, int first, int count, int *out)
{
	struct ps_game *g = c->g;
	for (int i = 0; i < count; i++)
		out[i] = -1;
	for (size_t j = 0; j + 1 < c->nloops; j += 2) {
		int start = c->loops[j][0], end = c->loops[j + 1][0], init = -1;
		for (int gi = 0; gi < count; gi++) {
			const struct ps_group *grp = &g->groups[first + gi];
			int fl = g->rules[grp->first].line, ll = g->rules[grp->first + grp->count - 1].line;
			if ((fl <= start && start <= ll) || (fl <= end && end <= ll))
				ps_diag_add(c->diags, true, start, "found a loop point in the middle of a rule; you probably don't want to do this, right?");
			if (end < fl)
				break;
			if (start <= fl && fl <= end) {
				if (init < 0)
					init = gi;
				if (gi > 0 && out[gi - 1] == init)
					out[gi - 1] = -1;
				out[gi] = init;
			}
		}
	}
}

int ps_compile_rule_masks(struct ps_ctx *c)
{
	struct ps_game *g = c->g;
	struct mrule *ms = ps_alloc(c->arena, (c->nrules + 1) * sizeof *ms);
	size_t npat = 0;
	for (size_t i = 0; i < c->nrules; i++) {
		ms[i].r = c->rules[i];
		ms[i].removed = !mask_rule(c, &ms[i]);
		if (!ms[i].removed)
			for (int j = 0; j < ms[i].r->nlhs; j++)
				npat += (size_t)ms[i].r->lhs[j].n;
	}
	struct mgroup *groups = NULL;
	size_t ngroups = 0, galloc = 0;
	for (size_t i = 0; i < c->nrules; i++) {
		if (ms[i].removed)
			continue;
		struct mgroup *grp = find_group(c, &groups, &ngroups, &galloc, ms[i].r->group, ms[i].r->late);
		PS_GROW(c->arena, grp->rules, grp->n + 1, grp->alloc);
		grp->rules[grp->n++] = &ms[i];
	}
	size_t nrules = 0;
	for (size_t i = 0; i < ngroups; i++) {
		discard_overlapping(c, &groups[i]);
		nrules += groups[i].n;
	}
	g->patterns = ps_alloc(c->keep, (npat + 1) * sizeof *g->patterns);
	g->rules = ps_alloc(c->keep, (nrules + 1) * sizeof *g->rules);
	g->groups = ps_alloc(c->keep, (ngroups + 1) * sizeof *g->groups);
	g->nrules = g->ngroups = g->nearly = 0;
	for (size_t i = 0; i < ngroups; i++) {
		if (groups[i].n == 0)
			continue;
		struct ps_group *grp = &g->groups[g->ngroups++];
		grp->first = g->nrules;
		grp->count = (int)groups[i].n;
		grp->late = groups[i].late;
		grp->random = groups[i].rules[0]->r->random;
		grp->line = groups[i].number;
		if (!grp->late)
			g->nearly = g->ngroups;
		for (size_t k = 0; k < groups[i].n; k++) {
			emit_rule(c, &g->rules[g->nrules], groups[i].rules[k], g->nrules);
			g->nrules++;
		}
	}
	/* rigid groups */
	g->rigid_of_group = ps_alloc(c->keep, (size_t)(g->ngroups + 1) * sizeof(int));
	g->group_of_rigid = ps_alloc(c->keep, (size_t)(g->ngroups + 1) * sizeof(int));
	int nrigid = 0;
	for (int i = 0; i < g->ngroups; i++) {
		g->rigid_of_group[i] = -1;
		if (g->groups[i].late)
			continue;
		bool rigid = false;
		for (int k = 0; k < g->groups[i].count; k++)
			if (g->rules[g->groups[i].first + k].rigid)
				rigid = true;
		if (rigid) {
			g->rigid_of_group[i] = nrigid;
			g->group_of_rigid[nrigid++] = i;
			for (int k = 0; k < g->groups[i].count; k++)
				g->rules[g->groups[i].first + k].rigid_index = nrigid;
		}
	}
	if (nrigid > 30)
		ps_diag_add(c->diags, true, g->rules[g->groups[g->group_of_rigid[30]].first].line,
			    "there can't be more than 30 rigid groups (rule groups containing rigid members)");
	g->rigid = nrigid > 0;
	/* loops */
	for (size_t i = 0; i < c->nloops; i++) {
		if (i % 2 == 0 && c->loops[i][1] == -1)
			ps_diag_add(c->diags, true, c->loops[i][0], "found an endloop, but I'm not in a loop?");
		if (i % 2 == 1 && c->loops[i][1] == 1)
			ps_diag_add(c->diags, true, c->loops[i][0], "found a startloop, but I'm already inside a loop? (puzzlescript can't nest loops)");
	}
	if (c->nloops % 2) {
		ps_diag_add(c->diags, true, c->loops[c->nloops - 1][0], "yo I found a startloop without a corresponding endloop");
		PS_GROW(c->arena, c->loops, c->nloops + 1, c->loops_alloc);
		c->loops[c->nloops][0] = c->loops[c->nloops - 1][0];
		c->loops[c->nloops][1] = -1;
		c->nloops++;
	}
	g->loop_point = ps_alloc(c->keep, (size_t)(g->ngroups + 1) * sizeof(int));
	loop_points(c, 0, g->nearly, g->loop_point);
	loop_points(c, g->nearly, g->ngroups - g->nearly, g->loop_point + g->nearly);
	return 0;
}
