/*
 * ps_legend.c - from the tokenizer's lists to objects and masks: object
 * ids by collision layer, the legend characters usable in maps, the
 * dictionaries of synonyms, aggregates ("and") and properties ("or") with
 * the reference's expansion order, the single-layer properties, the
 * background, and the object masks every later step looks names up in.
 */
#include <stdlib.h>
#include <string.h>

#include "ps_compile.h"

/* ---- shared lists and ordered dictionaries ---- */

struct ps_list *ps_list_new(struct ps_ctx *c)
{
	return ps_alloc(c->arena, sizeof(struct ps_list));
}

void ps_list_push(struct ps_ctx *c, struct ps_list *l, int v)
{
	PS_GROW(c->arena, l->v, l->n + 1, l->alloc);
	l->v[l->n++] = v;
}

bool ps_list_has(const struct ps_list *l, int v)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return true;
	return false;
}

static void order_remove(int *order, size_t *n, int key)
{
	for (size_t i = 0; i < *n; i++)
		if (order[i] == key) {
			memmove(order + i, order + i + 1, (*n - i - 1) * sizeof *order);
			(*n)--;
			return;
		}
}

void ps_odict_set(struct ps_ctx *c, struct ps_odict *d, int key, struct ps_list *v)
{
	if (!d->val[key]) {
		PS_GROW(c->arena, d->order, d->norder + 1, d->order_alloc);
		d->order[d->norder++] = key;
	}
	d->val[key] = v;
}

void ps_odict_del(struct ps_odict *d, int key)
{
	if (d->val[key]) {
		d->val[key] = NULL;
		order_remove(d->order, &d->norder, key);
	}
}

/* A canonical array index ("0", "17"): JavaScript enumerates those first. */
static bool integer_like(const char *s, unsigned long *value)
{
	if (!*s || (s[0] == '0' && s[1]) || strlen(s) > 9)
		return false;
	for (const char *q = s; *q; q++)
		if (*q < '0' || *q > '9')
			return false;
	*value = strtoul(s, NULL, 10);
	return true;
}

void ps_js_key_order(struct ps_ctx *c, int *keys, size_t n)
{
	/* stable: integer-like keys first by value, the rest as they were */
	int *tmp = ps_alloc(c->arena, (n ? n : 1) * sizeof *tmp);
	size_t k = 0;
	unsigned long v, w;
	for (size_t i = 0; i < n; i++)
		if (integer_like(c->syms->names[keys[i]], &v)) {
			size_t j = k++;
			while (j > 0) {
				integer_like(c->syms->names[tmp[j - 1]], &w);
				if (w <= v)
					break;
				tmp[j] = tmp[j - 1];
				j--;
			}
			tmp[j] = keys[i];
		}
	for (size_t i = 0; i < n; i++)
		if (!integer_like(c->syms->names[keys[i]], &v))
			tmp[k++] = keys[i];
	memcpy(keys, tmp, n * sizeof *keys);
}

size_t ps_odict_keys(struct ps_ctx *c, const struct ps_odict *d, int **keys)
{
	*keys = ps_memdup_pad(c->arena, d->order, d->norder * sizeof(int), sizeof(int));
	ps_js_key_order(c, *keys, d->norder);
	return d->norder;
}

ps_word *ps_ctx_mask(struct ps_ctx *c)
{
	return ps_alloc(c->arena, (size_t)c->g->ow * sizeof(ps_word));
}

ps_word *ps_keep_words(struct ps_ctx *c, size_t n)
{
	return ps_alloc(c->keep, (n ? n : 1) * sizeof(ps_word));
}

const char *ps_ctx_name(const struct ps_ctx *c, int sym)
{
	return sym >= 0 ? c->syms->names[sym] : "...";
}

bool ps_ctx_is_object(const struct ps_ctx *c, int sym)
{
	return ps_parse_is_object(c->p, sym);
}

static struct ps_list *list_of(struct ps_ctx *c, const int *items, size_t n)
{
	struct ps_list *l = ps_list_new(c);
	for (size_t i = 0; i < n; i++)
		ps_list_push(c, l, items[i]);
	return l;
}

/* ---- expansion of the legend dictionaries ---- */

static void syn_set(struct ps_ctx *c, int key, int val)
{
	if (c->syn[key] < 0) {
		PS_GROW(c->arena, c->syn_order, c->nsyn_order + 1, c->syn_order_alloc);
		c->syn_order[c->nsyn_order++] = key;
	}
	c->syn[key] = val;
}

static void syn_del(struct ps_ctx *c, int key)
{
	if (c->syn[key] >= 0) {
		c->syn[key] = -1;
		order_remove(c->syn_order, &c->nsyn_order, key);
	}
}

/* Substitute synonyms and splice in same-kind entries, once over every
 * entry (the reference's expandLegendDictEntries). */
static bool expand_dict(struct ps_ctx *c, struct ps_odict *dict, const struct ps_odict *other,
			const char *kind, const char *other_kind)
{
	bool modified = false;
	int *keys;
	size_t nkeys = ps_odict_keys(c, dict, &keys);
	for (size_t k = 0; k < nkeys; k++) {
		struct ps_list *values = dict->val[keys[k]];
		if (!values)
			continue;
		for (size_t i = 0; i < values->n; i++) {
			int value = values->v[i];
			if (c->syn[value] >= 0) {
				values->v[i] = c->syn[value];
				modified = true;
			} else if (dict->val[value]) {
				memmove(values->v + i, values->v + i + 1, (values->n - i - 1) * sizeof(int));
				values->n--;
				struct ps_list *more = dict->val[value];
				for (size_t j = 0; j < more->n; j++)
					if (!ps_list_has(values, more->v[j]))
						ps_list_push(c, values, more->v[j]);
				modified = true;
			}
			if (other->val[value])
				ps_diag_add(c->diags, true, 0, "trying to define %s \"%s\" in terms of %s \"%s\"",
					    kind, ps_ctx_name(c, keys[k]), other_kind, ps_ctx_name(c, value));
		}
	}
	return modified;
}

static void build_dicts(struct ps_ctx *c)
{
	const struct ps_parse *p = c->p;
	for (size_t i = 0; i < p->naggregates; i++)
		ps_odict_set(c, &c->aggs, p->aggregates[i].sym,
			     list_of(c, p->aggregates[i].items, p->aggregates[i].nitems));
	for (size_t i = 0; i < p->nproperties; i++)
		ps_odict_set(c, &c->props, p->properties[i].sym,
			     list_of(c, p->properties[i].items, p->properties[i].nitems));
	for (size_t i = 0; i < p->nsynonyms; i++) {
		int key = p->synonyms[i].sym, value = p->synonyms[i].items[0];
		if (c->aggs.val[value])
			ps_odict_set(c, &c->aggs, key, c->aggs.val[value]);
		else if (c->props.val[value])
			ps_odict_set(c, &c->props, key, c->props.val[value]);
		else if (key != value)
			syn_set(c, key, value);
	}
	bool modified = true;
	/* the reference can loop forever on a synonym of a synonym of an
	 * aggregate; cap the rounds */
	for (int round = 0; modified && round < 64; round++) {
		modified = false;
		int *keys = ps_memdup_pad(c->arena, c->syn_order, c->nsyn_order * sizeof(int), sizeof(int));
		size_t nkeys = c->nsyn_order;
		ps_js_key_order(c, keys, nkeys);
		for (size_t k = 0; k < nkeys; k++) {
			int n = keys[k], value = c->syn[n];
			if (value < 0)
				continue;
			if (c->props.val[value]) {
				syn_del(c, n);
				ps_odict_set(c, &c->props, n, c->props.val[value]);
				modified = true;
			} else if (c->aggs.val[value]) {
				ps_odict_del(&c->aggs, n);
				ps_odict_set(c, &c->aggs, n, c->aggs.val[value]);
				modified = true;
			} else if (c->syn[value] >= 0) {
				c->syn[n] = c->syn[value];
			}
		}
		modified = expand_dict(c, &c->props, &c->aggs, "property", "aggregate") || modified;
		modified = expand_dict(c, &c->aggs, &c->props, "aggregate", "property") || modified;
	}
}

/* ---- ids, glyphs, masks ---- */

static void assign_ids(struct ps_ctx *c)
{
	const struct ps_parse *p = c->p;
	struct ps_game *g = c->g;
	int count = 0;
	for (size_t l = 0; l < p->nlayers; l++)
		count += (int)p->layers[l].n;
	c->id_sym = ps_alloc(c->arena, (size_t)(count + 1) * sizeof(int));
	int *obj_layer = ps_alloc(c->arena, (size_t)c->nsyms * sizeof(int));
	count = 0;
	for (size_t l = 0; l < p->nlayers; l++)
		for (size_t j = 0; j < p->layers[l].n; j++) {
			int n = p->layers[l].syms[j];
			if (!ps_ctx_is_object(c, n))
				continue;
			obj_layer[n] = (int)l;
			c->obj_id[n] = count;
			c->id_sym[count++] = n;
		}
	g->nobjects = count;
	g->nlayers = (int)p->nlayers;
	g->ow = count > 0 ? (count + 63) / 64 : 1;
	g->mw = g->nlayers > 0 ? (g->nlayers + PS_LAYERS_PER_WORD - 1) / PS_LAYERS_PER_WORD : 1;
	g->objects = ps_alloc(c->keep, (size_t)(count + 1) * sizeof *g->objects);
	for (int id = 0; id < count; id++) {
		int sym = c->id_sym[id];
		struct ps_object *o = &g->objects[id];
		o->name = ps_strdup(c->keep, c->syms->names[sym]);
		/* an object listed twice keeps its last id; the others are unused */
		o->layer = c->obj_id[sym] == id ? obj_layer[sym] : -1;
		const struct ps_pobject *po = &p->objects[p->obj_of_sym[sym]];
		o->display = po->display ? ps_strdup(c->keep, po->display) : o->name;
		o->colors = ps_alloc(c->keep, (po->ncolors + 1) * sizeof(char *));
		for (size_t k = 0; k < po->ncolors; k++)
			o->colors[k] = ps_strdup(c->keep, po->colors[k]);
		o->ncolors = (int)po->ncolors;
		memset(o->sprite, 0, sizeof o->sprite);
		if (po->nsprite > 0)
			for (int y = 0; y < 5; y++)
				for (int x = 0; x < 5; x++) {
					char ch = (size_t)y < po->nsprite ? po->sprite[y][x] : '\0';
					o->sprite[y][x] = (signed char)(ch >= '0' && ch <= '9' ? ch - '0' : -1);
				}
	}
}

static int object_layer(const struct ps_ctx *c, int sym)
{
	int id = c->obj_id[sym];
	return id >= 0 ? c->g->objects[id].layer : -1;
}

static void build_glyphs(struct ps_ctx *c)
{
	const struct ps_parse *p = c->p;
	int nl = c->g->nlayers;
	for (size_t i = 0; i < p->nobjects; i++) {
		if (!p->objects[i].defined)
			continue;
		int sym = p->objects[i].sym;
		int *mask = ps_alloc(c->arena, (size_t)(nl + 1) * sizeof(int));
		for (int l = 0; l < nl; l++)
			mask[l] = -1;
		if (object_layer(c, sym) >= 0)
			mask[object_layer(c, sym)] = c->obj_id[sym];
		c->glyph[sym] = mask;
	}
	bool added = true;
	while (added) {
		added = false;
		for (size_t i = 0; i < p->nsynonyms; i++) {
			int key = p->synonyms[i].sym, val = p->synonyms[i].items[0];
			if (!c->glyph[key] && c->glyph[val]) {
				c->glyph[key] = c->glyph[val];
				added = true;
			}
		}
		for (size_t i = 0; i < p->naggregates; i++) {
			const struct ps_plegend *e = &p->aggregates[i];
			bool all = true;
			for (size_t j = 0; j < e->nitems; j++)
				if (!c->glyph[e->items[j]])
					all = false;
			if (c->glyph[e->sym] || !all)
				continue;
			int *mask = ps_alloc(c->arena, (size_t)(nl + 1) * sizeof(int));
			for (int l = 0; l < nl; l++)
				mask[l] = -1;
			for (size_t j = 0; j < e->nitems; j++) {
				int n = e->items[j], layer = object_layer(c, n);
				if (!ps_ctx_is_object(c, n)) {
					ps_diag_add(c->diags, true, e->line, "object not found with name %s",
						    ps_ctx_name(c, n));
					continue;
				}
				if (layer < 0) {
					ps_diag_add(c->diags, true, e->line,
						    "object \"%s\" has been defined, but not assigned to a layer",
						    ps_ctx_name(c, n));
				} else if (mask[layer] == -1) {
					mask[layer] = c->obj_id[n];
				} else {
					ps_diag_add(c->diags, true, e->line,
						    "trying to create an aggregate object (something defined in the legend section using and) with both \"%s\" and \"%s\", which are on the same layer and therefore can't coexist",
						    ps_ctx_name(c, n), c->g->objects[mask[layer]].name);
				}
			}
			c->glyph[e->sym] = mask;
			added = true;
		}
	}
}

static void single_layer_properties(struct ps_ctx *c)
{
	int *keys;
	size_t n = ps_odict_keys(c, &c->props, &keys);
	for (size_t k = 0; k < n; k++) {
		const struct ps_list *v = c->props.val[keys[k]];
		bool same = v->n > 0;
		for (size_t i = 0; i < v->n && same; i++) {
			if (!ps_ctx_is_object(c, v->v[i]) ||
			    (i > 0 && object_layer(c, v->v[i]) != object_layer(c, v->v[i - 1])))
				same = false;
		}
		if (same)
			c->prop_layer[keys[k]] = object_layer(c, v->v[0]);
	}
}

static void find_background(struct ps_ctx *c)
{
	struct ps_game *g = c->g;
	int bg = c->background_sym, id = -1, layer = -1;
	if (ps_ctx_is_object(c, bg)) {
		id = c->obj_id[bg];
		layer = object_layer(c, bg);
	} else if (c->syn[bg] >= 0) {
		int n = c->syn[bg];
		if (ps_ctx_is_object(c, n)) {
			id = c->obj_id[n];
			layer = object_layer(c, n);
		}
	} else if (c->props.val[bg]) {
		const struct ps_list *def = c->props.val[bg];
		if (ps_ctx_is_object(c, def->v[0])) {
			id = c->obj_id[def->v[0]];
			layer = object_layer(c, def->v[0]);
			for (size_t i = 1; i < def->n; i++)
				if (ps_ctx_is_object(c, def->v[i]) && object_layer(c, def->v[i]) != layer) {
					int line = 0;
					ps_parse_declared(c->p, bg, &line);
					ps_diag_add(c->diags, true, line, "background objects must be on the same layer");
				}
		}
	} else if (c->aggs.val[bg]) {
		if (g->nobjects > 0) {
			id = 0;
			layer = g->objects[0].layer;
		}
		int line = 0;
		ps_parse_declared(c->p, bg, &line);
		ps_diag_add(c->diags, true, line,
			    "background cannot be an aggregate (declared with 'and'), it has to be a simple type, or property (declared in terms of others using 'or')");
	} else {
		if (g->nobjects > 0) {
			id = 0;
			layer = g->objects[0].layer;
		}
		ps_diag_add(c->diags, true, 0, "seriously, you have to define something to be the background");
	}
	g->background_id = id;
	g->background_layer = layer;
}

static ps_word *mask_of_id(struct ps_ctx *c, int id)
{
	ps_word *m = ps_ctx_mask(c);
	/* an object in no layer has no id; the reference then sets bit 0 */
	ps_bit_set(m, id >= 0 ? id : 0);
	return m;
}

static void build_masks(struct ps_ctx *c)
{
	struct ps_game *g = c->g;
	const struct ps_parse *p = c->p;
	int ow = g->ow;

	/* the player */
	ps_word *pm = ps_keep_words(c, (size_t)ow);
	int ps = c->player_sym;
	if (ps_ctx_is_object(c, ps) && c->obj_id[ps] >= 0)
		ps_bit_set(pm, c->obj_id[ps]);
	if (c->aggs.val[ps]) {
		g->player_aggregate = true;
		for (size_t i = 0; i < c->aggs.val[ps]->n; i++)
			if (c->obj_id[c->aggs.val[ps]->v[i]] >= 0)
				ps_bit_set(pm, c->obj_id[c->aggs.val[ps]->v[i]]);
	}
	if (c->props.val[ps])
		for (size_t i = 0; i < c->props.val[ps]->n; i++)
			if (c->obj_id[c->props.val[ps]->v[i]] >= 0)
				ps_bit_set(pm, c->obj_id[c->props.val[ps]->v[i]]);
	if (c->syn[ps] >= 0 && c->obj_id[c->syn[ps]] >= 0)
		ps_bit_set(pm, c->obj_id[c->syn[ps]]);
	if (ps_bits_zero(pm, ow))
		ps_diag_add(c->diags, true, 0,
			    "error, didn't find any object called player, either in the objects section, or the legends section");
	g->player_mask = pm;

	g->layer_masks = ps_keep_words(c, (size_t)(g->nlayers + 1) * (size_t)ow);
	for (int id = 0; id < g->nobjects; id++)
		if (g->objects[id].layer >= 0)
			ps_bit_set(g->layer_masks + (size_t)g->objects[id].layer * (size_t)ow, id);

	for (size_t i = 0; i < p->nobjects; i++)
		if (p->objects[i].defined)
			c->objmask[p->objects[i].sym] = mask_of_id(c, c->obj_id[p->objects[i].sym]);

	/* synonyms and properties in line order (stable: synonyms first) */
	size_t n = p->nsynonyms + p->nproperties;
	const struct ps_plegend **sp = ps_alloc(c->arena, (n + 1) * sizeof *sp);
	for (size_t i = 0; i < p->nsynonyms; i++)
		sp[i] = &p->synonyms[i];
	for (size_t i = 0; i < p->nproperties; i++)
		sp[p->nsynonyms + i] = &p->properties[i];
	for (size_t i = 1; i < n; i++) {
		const struct ps_plegend *e = sp[i];
		size_t j = i;
		while (j > 0 && sp[j - 1]->line > e->line) {
			sp[j] = sp[j - 1];
			j--;
		}
		sp[j] = e;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ps_plegend *e = sp[i];
		if (e->nitems == 1) {
			if (c->objmask[e->items[0]])
				c->objmask[e->sym] = c->objmask[e->items[0]];
		} else {
			ps_word *m = ps_ctx_mask(c);
			for (size_t j = 0; j < e->nitems; j++)
				if (c->objmask[e->items[j]])
					for (int w = 0; w < ow; w++)
						m[w] |= c->objmask[e->items[j]][w];
			c->objmask[e->sym] = m;
		}
	}
	ps_word *all = ps_keep_words(c, (size_t)ow);
	for (int w = 0; w < ow; w++)
		all[w] = ~(ps_word)0;
	c->objmask[c->all_sym] = all;
	g->all_mask = all;

	int *keys;
	size_t nk = ps_odict_keys(c, &c->aggs, &keys);
	for (size_t k = 0; k < nk; k++) {
		ps_word *m = ps_ctx_mask(c);
		const struct ps_list *v = c->aggs.val[keys[k]];
		for (size_t j = 0; j < v->n; j++)
			if (c->objmask[v->v[j]])
				for (int w = 0; w < ow; w++)
					m[w] |= c->objmask[v->v[j]][w];
		c->aggmask[keys[k]] = m;
	}
}

/* The objects of an expanded legend list (items that are objects). */
static ps_word *objects_of_list(struct ps_ctx *c, const struct ps_list *l)
{
	ps_word *m = ps_keep_words(c, (size_t)c->g->ow);
	for (size_t i = 0; i < l->n; i++)
		if (ps_ctx_is_object(c, l->v[i]) && c->obj_id[l->v[i]] >= 0)
			ps_bit_set(m, c->obj_id[l->v[i]]);
	return m;
}

/* Keep the legend's names (synonyms, properties, aggregates) with the
 * objects they stand for, after expansion: the compiled game is otherwise
 * nameless, and the transformer's rules are written with these names. */
static void keep_names(struct ps_ctx *c)
{
	struct ps_game *g = c->g;
	g->names = ps_alloc(c->keep, (size_t)(c->nsyms + 1) * sizeof *g->names);
	for (int s = 0; s < c->nsyms; s++) {
		const ps_word *m = NULL;
		bool aggregate = false;
		if (s == c->all_sym || ps_ctx_is_object(c, s))
			continue;
		if (c->aggs.val[s]) {
			m = objects_of_list(c, c->aggs.val[s]);
			aggregate = true;
		} else if (c->props.val[s]) {
			m = objects_of_list(c, c->props.val[s]);
		} else if (c->syn[s] >= 0 && ps_ctx_is_object(c, c->syn[s]) && c->obj_id[c->syn[s]] >= 0) {
			ps_word *one = ps_keep_words(c, (size_t)g->ow);
			ps_bit_set(one, c->obj_id[c->syn[s]]);
			m = one;
		}
		if (!m || ps_bits_zero(m, g->ow))
			continue;
		const char *name = ps_parse_display(c->p, s);
		if (!name || strlen(name) != strlen(c->syms->names[s]))
			name = c->syms->names[s];
		struct ps_name *n = &g->names[g->nnames++];
		n->name = ps_strdup(c->keep, name);
		n->objects = m;
		n->aggregate = aggregate;
	}
}

int ps_compile_legend(struct ps_ctx *c)
{
	size_t ns = (size_t)c->nsyms;
	c->obj_id = ps_alloc(c->arena, ns * sizeof(int));
	c->syn = ps_alloc(c->arena, ns * sizeof(int));
	c->prop_layer = ps_alloc(c->arena, ns * sizeof(int));
	for (size_t i = 0; i < ns; i++)
		c->obj_id[i] = c->syn[i] = c->prop_layer[i] = -1;
	c->props.val = ps_alloc(c->arena, ns * sizeof(struct ps_list *));
	c->aggs.val = ps_alloc(c->arena, ns * sizeof(struct ps_list *));
	c->glyph = ps_alloc(c->arena, ns * sizeof(int *));
	c->objmask = ps_alloc(c->arena, ns * sizeof(ps_word *));
	c->aggmask = ps_alloc(c->arena, ns * sizeof(ps_word *));

	assign_ids(c);
	for (size_t i = 0; i < c->p->nobjects; i++) {
		const struct ps_pobject *o = &c->p->objects[i];
		if (o->defined && o->ncolors > 10)
			ps_diag_add(c->diags, true, o->line + 1, "a sprite cannot have more than 10 colors");
		if (o->defined && o->ncolors == 0)
			ps_diag_add(c->diags, true, o->line, "color not specified for object \"%s\"",
				    ps_ctx_name(c, o->sym));
	}
	build_glyphs(c);
	build_dicts(c);
	single_layer_properties(c);
	if (c->g->nobjects == 0 && c->p->nlayers > 0)
		ps_diag_add(c->diags, true, 0, "you need to have some objects defined");
	find_background(c);
	build_masks(c);
	keep_names(c);
	return 0;
}
