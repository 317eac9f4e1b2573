/*
 * ps_rule_anchor.c - what the engine's matcher reads off a compiled game
 * once: each rule row's anchors (cells before any ellipsis that must hold
 * one of a few objects, where ps_rules.c starts looking for matches instead
 * of scanning the board), the patterns' masks as lists of objects (for the
 * bit-parallel matcher), whether a row's replacement draws random numbers
 * or its cells need movements, and the object lists of the player and of
 * the win conditions' first masks (the bit boards the turn reads).
 */
#include "ps_compile.h"

/* The objects of a mask, as a list kept with the game. */
static int *mask_objects(struct ps_ctx *c, const ps_word *mask, int *n)
{
	const struct ps_game *g = c->g;
	int count = 0;
	for (int id = 0; id < g->nobjects; id++)
		count += ps_bit_get(mask, id);
	int *objs = ps_alloc(c->keep, (size_t)(count + 1) * sizeof *objs);
	*n = 0;
	for (int id = 0; id < g->nobjects; id++)
		if (ps_bit_get(mask, id))
			objs[(*n)++] = id;
	return objs;
}

static void row_anchors(struct ps_ctx *c, struct ps_row *row)
{
	const struct ps_game *g = c->g;
	int n = 0;
	for (int k = 0; k < row->ncells && row->cells[k] >= 0; k++) {
		const struct ps_pattern *p = &g->patterns[row->cells[k]];
		for (int id = 0; id < g->nobjects; id++)
			n += ps_bit_get(p->present, id);
		n += p->nany;
	}
	row->anchors = ps_alloc(c->keep, (size_t)(n + 1) * sizeof *row->anchors);
	row->nanchors = 0;
	for (int k = 0; k < row->ncells && row->cells[k] >= 0; k++) {
		const struct ps_pattern *p = &g->patterns[row->cells[k]];
		for (int id = 0; id < g->nobjects; id++) {
			if (!ps_bit_get(p->present, id))
				continue;
			struct ps_anchor *a = &row->anchors[row->nanchors++];
			int *one = ps_alloc(c->keep, sizeof *one);
			*one = id;
			a->offset = k;
			a->objs = one;
			a->nobjs = 1;
		}
		for (int s = 0; s < p->nany; s++) {
			struct ps_anchor *a = &row->anchors[row->nanchors++];
			a->offset = k;
			a->objs = mask_objects(c, p->any + (size_t)s * (size_t)g->ow, &a->nobjs);
		}
	}
	for (int k = 0; k < row->ncells; k++) {
		if (row->cells[k] < 0)
			continue;
		const struct ps_pattern *p = &g->patterns[row->cells[k]];
		if (p->has_rep && (p->rep_random_obj || p->rep_random_dir))
			row->random_rep = true;
		if (!ps_bits_zero(p->mov_present, g->mw))
			row->needs_movement = true;
	}
}

/* A pattern's masks as lists of objects. */
static void pattern_lists(struct ps_ctx *c, struct ps_pattern *p)
{
	const struct ps_game *g = c->g;
	p->present_objs = mask_objects(c, p->present, &p->npresent);
	p->missing_objs = mask_objects(c, p->missing, &p->nmissing);
	int *first = ps_alloc(c->keep, (size_t)(p->nany + 1) * sizeof *first);
	int total = 0;
	for (int s = 0; s < p->nany; s++) {
		int n;
		mask_objects(c, p->any + (size_t)s * (size_t)g->ow, &n);
		total += n;
	}
	int *objs = ps_alloc(c->keep, (size_t)(total + 1) * sizeof *objs);
	total = 0;
	for (int s = 0; s < p->nany; s++) {
		first[s] = total;
		for (int id = 0; id < g->nobjects; id++)
			if (ps_bit_get(p->any + (size_t)s * (size_t)g->ow, id))
				objs[total++] = id;
	}
	first[p->nany] = total;
	p->any_objs = objs;
	p->any_first = first;
	p->movements = !ps_bits_zero(p->mov_present, g->mw) || !ps_bits_zero(p->mov_missing, g->mw);
	if (p->has_rep && p->rep_random_obj)
		p->random_objs = mask_objects(c, p->random_obj, &p->nrandom);
}

void ps_compile_anchors(struct ps_ctx *c)
{
	struct ps_game *g = c->g;
	for (int k = 0; k < g->npatterns; k++)
		pattern_lists(c, &g->patterns[k]);
	for (int r = 0; r < g->nrules; r++)
		for (int j = 0; j < g->rules[r].nrows; j++) {
			struct ps_row *row = &g->rules[r].rows[j];
			row_anchors(c, row);
			row->objects_only = row->nellipses == 0;
			for (int k = 0; k < row->ncells; k++)
				if (row->cells[k] >= 0 && g->patterns[row->cells[k]].movements)
					row->objects_only = false;
			int len = row->ncells - row->nellipses;
			if (len > g->max_row_len)
				g->max_row_len = len;
			if (row->ncells > g->max_row_cells)
				g->max_row_cells = row->ncells;
		}
	g->player_objs = mask_objects(c, g->player_mask, &g->nplayer_objs);
	for (int w = 0; w < g->nwins; w++)
		g->wins[w].objs1 = mask_objects(c, g->wins[w].mask1, &g->wins[w].nobjs1);
}
