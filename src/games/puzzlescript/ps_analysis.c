/*
 * ps_analysis.c - what a compiled game's rules allow, read for one level:
 * the facts the heuristic's bounds and the pruning stand on.
 *
 * A *walker* is a dynamic object no rule ever makes, destroys or puts in
 * another cell: it changes place only in the movement phase, one cell a
 * turn, and only where the rules gave it a movement (or the input, for a
 * player).  So its count never changes, and from a cell it can step only
 * where some rule that grants its layer a movement can match with it
 * there: every cell of that rule's row at a fixed distance from it must
 * be able to hold what the rule asks for, as far as the level's static
 * objects (walls) say.  That graph (Sokoban's "a box is pushed only with
 * the player behind it", read off the rules) gives each walker's least
 * number of turns to every cell it must reach, and the cells from which
 * it can reach none.
 *
 * How many walkers one turn can move: when every rule that gives them a
 * movement does so at a fixed distance from a cell that must hold a
 * player (who is a walker too), each player moves at most one walker per
 * distinct such place, for its input's direction.  Sokoban: one.
 *
 * All of it is conservative: a rule the analysis cannot place makes an
 * object a non-walker or its moves unbounded, and the bounds then say
 * less, never something false.
 */
#include <stdlib.h>
#include <string.h>

#include "ps_solve.h"

/* The four steps, in input order (PS_UP, PS_LEFT, PS_DOWN, PS_RIGHT). */
static const int step_dx[4] = { 0, -1, 0, 1 }, step_dy[4] = { -1, 0, 1, 0 };

/* A movement mask's steps (action is no step), as bits in input order. */
static unsigned steps_of(unsigned dirs)
{
	return ((dirs & PS_DIR_UP) ? 1u : 0u) | ((dirs & PS_DIR_LEFT) ? 2u : 0u) |
	       ((dirs & PS_DIR_DOWN) ? 4u : 0u) | ((dirs & PS_DIR_RIGHT) ? 8u : 0u);
}

static void dir_vector(int dir, int *dx, int *dy)
{
	*dx = dir == PS_DIR_LEFT ? -1 : dir == PS_DIR_RIGHT ? 1 : 0;
	*dy = dir == PS_DIR_UP ? -1 : dir == PS_DIR_DOWN ? 1 : 0;
}

/* A rule pattern that gives a layer a movement. */
struct grant {
	const struct ps_rule *rule;
	const struct ps_row *row;
	int pos;             /* in the row */
	int lo, hi;          /* the row's cells at a fixed distance from pos */
	const struct ps_pattern *p;
	int layer;
	unsigned dirs;       /* the movements it sets there (PS_DIR_*) */
};

struct builder {
	const struct ps_game *g;
	const struct ps_level *map;
	struct ps_analysis *an;
	ps_word *stat;       /* n * ow: each cell's static objects */
	struct grant *grants;
	int ngrants;
	bool player_steered; /* some rule may change a player's movement */
};

/* ------------------------------------------------------------ objects */

/* Walkers: dynamic, never set where the pattern does not already have
 * them, never cleared from a cell that may hold them without being set
 * back, never a random object. */
static void find_walkers(const struct ps_game *g, bool *walker)
{
	for (int id = 0; id < g->nobjects; id++) {
		walker[id] = g->objects[id].layer >= 0 && g->obj_dynamic[id];
		for (int i = 0; i < g->npatterns && walker[id]; i++) {
			const struct ps_pattern *p = &g->patterns[i];
			if (!p->has_rep)
				continue;
			if (ps_bit_get(p->random_obj, id))
				walker[id] = false;
			else if (ps_bit_get(p->set, id) && !ps_bit_get(p->present, id))
				walker[id] = false;
			else if (ps_bit_get(p->clear, id) && !ps_bit_get(p->set, id) &&
				 ps_pattern_may_hold(g, p, id))
				walker[id] = false;
		}
	}
}

/* A side's mobility, its one layer (or -1), whether it has a player. */
static enum ps_mob side_mob(const struct ps_game *g, const bool *walker, const ps_word *mask,
			    bool aggr, int *layer, bool *has_player)
{
	bool all_static = true, all_walk = true, some_static = false;
	*layer = -2;
	*has_player = false;
	for (int id = 0; id < g->nobjects; id++) {
		if (!ps_bit_get(mask, id) || g->objects[id].layer < 0)
			continue;
		if (g->obj_dynamic[id])
			all_static = false;
		else
			some_static = true;
		if (g->obj_dynamic[id] && !walker[id])
			all_walk = false;
		if (ps_bit_get(g->player_mask, id))
			*has_player = true;
		int l = g->objects[id].layer;
		*layer = *layer == -2 || *layer == l ? l : -1;
	}
	if (*layer == -2)
		*layer = -1;
	if (all_static)
		return PS_MOB_STATIC;
	/* a cell must hold several objects at once, or a static object may
	 * stand in for a walker (Y = Crate or Wall): nothing to follow */
	return all_walk && !aggr && !some_static ? PS_MOB_WALKER : PS_MOB_OTHER;
}

/* ------------------------------------------------------------- cells */

static bool in_map(const struct ps_analysis *an, int x, int y)
{
	return x >= 0 && y >= 0 && x < an->w && y < an->h;
}

/* Whether a static object holds layer l in cell c for good. */
static bool blocked(const struct builder *b, int c, int l)
{
	const ps_word *lm = b->g->layer_masks + (size_t)l * (size_t)b->g->ow;
	return ps_bits_any(b->stat + (size_t)c * (size_t)b->g->ow, lm, b->g->ow);
}

/* Whether object id can ever be in cell c, by the static objects. */
static bool can_hold(const struct builder *b, int c, int id)
{
	const struct ps_game *g = b->g;
	if (!g->obj_dynamic[id])
		return ps_bit_get(b->stat + (size_t)c * (size_t)g->ow, id);
	return !blocked(b, c, g->objects[id].layer);
}

/* Whether pattern p can ever match in cell c, by the static objects. */
static bool pattern_fits(const struct builder *b, const struct ps_pattern *p, int c)
{
	const struct ps_game *g = b->g;
	int ow = g->ow;
	const ps_word *st = b->stat + (size_t)c * (size_t)ow;
	if (ps_bits_any(p->missing, st, ow))
		return false;
	for (int id = 0; id < g->nobjects; id++)
		if (ps_bit_get(p->present, id) && g->objects[id].layer >= 0 && !can_hold(b, c, id))
			return false;
	for (int a = 0; a < p->nany; a++) {
		const ps_word *any = p->any + (size_t)a * (size_t)ow;
		bool some = false;
		for (int id = 0; id < g->nobjects && !some; id++)
			some = ps_bit_get(any, id) && g->objects[id].layer >= 0 && can_hold(b, c, id);
		if (!some)
			return false;
	}
	return true;
}

/* Whether the grant's row can match with its pattern at cell (x, y). */
static bool grant_fits(const struct builder *b, const struct grant *gr, int x, int y)
{
	int dx, dy;
	dir_vector(gr->rule->dir, &dx, &dy);
	for (int j = gr->lo; j <= gr->hi; j++) {
		int cx = x + (j - gr->pos) * dx, cy = y + (j - gr->pos) * dy;
		if (!in_map(b->an, cx, cy))
			return false;
		const struct ps_pattern *p = &b->g->patterns[gr->row->cells[j]];
		if (!pattern_fits(b, p, cx * b->an->h + cy))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------ grants */

static void find_grants(struct builder *b)
{
	const struct ps_game *g = b->g;
	int cap = 0;
	for (int r = 0; r < g->nrules; r++) {
		const struct ps_rule *rule = &g->rules[r];
		for (int j = 0; j < rule->nrows; j++) {
			const struct ps_row *row = &rule->rows[j];
			for (int pos = 0; pos < row->ncells; pos++) {
				if (row->cells[pos] < 0)
					continue;
				const struct ps_pattern *p = &g->patterns[row->cells[pos]];
				if (!p->has_rep)
					continue;
				int lo = pos, hi = pos;
				while (lo > 0 && row->cells[lo - 1] >= 0)
					lo--;
				while (hi + 1 < row->ncells && row->cells[hi + 1] >= 0)
					hi++;
				for (int l = 0; l < g->nlayers; l++) {
					unsigned dirs = ps_mov_get(p->mov_set, l);
					if (p->rep_random_dir && ps_mov_get(p->random_dir, l))
						dirs |= 15u;
					if (!dirs)
						continue;
					if (b->ngrants == cap) {
						cap = cap ? 2 * cap : 16;
						b->grants = lk_xrealloc(b->grants, (size_t)cap * sizeof *b->grants);
					}
					b->grants[b->ngrants++] = (struct grant){ rule, row, pos, lo, hi, p, l, dirs };
					/* keeping a movement the pattern asks for changes nothing */
					if (!(dirs & ~ps_mov_get(p->mov_present, l)))
						continue;
					for (int id = 0; id < g->nobjects; id++)
						if (ps_bit_get(g->player_mask, id) && g->objects[id].layer == l &&
						    ps_pattern_may_hold(g, p, id))
							b->player_steered = true;
				}
			}
		}
	}
}

/* Whether the grant may give a movement to an object of the mask. */
static bool grant_moves(const struct builder *b, const struct grant *gr, const ps_word *mask)
{
	const struct ps_game *g = b->g;
	for (int id = 0; id < g->nobjects; id++)
		if (ps_bit_get(mask, id) && g->objects[id].layer == gr->layer &&
		    ps_pattern_may_hold(g, gr->p, id))
			return true;
	return false;
}

/* ------------------------------------------------------------ a side */

static void side_cells(struct builder *b, struct ps_side *s, bool want_static)
{
	struct ps_analysis *an = b->an;
	const ps_word *cells = b->map->cells;
	s->cells = ps_alloc(&an->arena, (size_t)an->n * sizeof(int) + 1);
	for (int c = 0; c < an->n; c++) {
		const ps_word *cell = (want_static ? b->stat : cells) + (size_t)c * (size_t)an->ow;
		if (ps_side_match(s, cell, an->ow))
			s->cells[s->ncells++] = c;
	}
}

/* The steps a walker side can take from each cell. */
static void side_edges(struct builder *b, struct ps_side *s, bool has_player)
{
	struct ps_analysis *an = b->an;
	int l = s->layer;
	s->edges = ps_alloc(&an->arena, (size_t)an->n);
	for (int x = 0; x < an->w; x++) {
		for (int y = 0; y < an->h; y++) {
			int c = x * an->h + y;
			if (blocked(b, c, l))
				continue;   /* a static object of the layer: no walker here */
			unsigned steps = has_player ? 15u : 0u;
			for (int k = 0; k < b->ngrants && steps != 15u; k++) {
				const struct grant *gr = &b->grants[k];
				if (gr->layer == l && grant_moves(b, gr, s->mask) && grant_fits(b, gr, x, y))
					steps |= steps_of(gr->dirs);
			}
			for (int d = 0; d < 4; d++) {
				int tx = x + step_dx[d], ty = y + step_dy[d];
				if ((steps >> d & 1u) && in_map(an, tx, ty) && !blocked(b, tx * an->h + ty, l))
					s->edges[c] |= (uint8_t)(1u << d);
			}
		}
	}
}

/*
 * How many walkers of the side one turn can give a movement to, per
 * player (0: nothing bounds it).  Every grant that may move one must have
 * a cell of its row, at a fixed distance, that holds a player; a player
 * then triggers each such place once.  The places that can fire together
 * are those whose player cell asks for the input's direction (or for no
 * movement), unless some rule may change a player's movement.
 */
static int side_per_turn(const struct builder *b, const struct ps_side *s, bool has_player)
{
	const struct ps_game *g = b->g;
	if (has_player || b->an->players == 0)
		return 0;
	struct place {
		unsigned want;   /* the player's movement it needs, 0 any */
		int ox, oy, layer;
	} *pl = lk_xmalloc(((size_t)b->ngrants + 1) * sizeof *pl);
	int npl = 0, best = 0;
	bool bounded = true;
	for (int k = 0; k < b->ngrants && bounded; k++) {
		const struct grant *gr = &b->grants[k];
		if (!grant_moves(b, gr, s->mask))
			continue;
		int anchor = -1, pid = -1;
		for (int j = gr->lo; j <= gr->hi && anchor < 0; j++) {
			if (j == gr->pos)
				continue;
			const struct ps_pattern *p = &g->patterns[gr->row->cells[j]];
			for (int id = 0; id < g->nobjects; id++)
				if (ps_bit_get(p->present, id) && ps_bit_get(g->player_mask, id) &&
				    b->an->walker[id]) {
					anchor = j;
					pid = id;
					break;
				}
		}
		if (anchor < 0) {
			bounded = false;
			break;
		}
		const struct ps_pattern *ap = &g->patterns[gr->row->cells[anchor]];
		unsigned want = ps_mov_get(ap->mov_present, g->objects[pid].layer);
		if (want & (want - 1))
			want = 0;
		int dx, dy;
		dir_vector(gr->rule->dir, &dx, &dy);
		pl[npl++] = (struct place){ b->player_steered ? 0 : want, (gr->pos - anchor) * dx,
					    (gr->pos - anchor) * dy, gr->layer };
	}
	static const unsigned inputs[5] = { PS_DIR_UP, PS_DIR_LEFT, PS_DIR_DOWN, PS_DIR_RIGHT,
					    PS_DIR_ACTION };
	for (int i = 0; i < 5 && bounded; i++) {
		int distinct = 0;
		for (int a = 0; a < npl; a++) {
			if (pl[a].want && pl[a].want != inputs[i])
				continue;
			bool seen = false;
			for (int c = 0; c < a && !seen; c++)
				seen = (!pl[c].want || pl[c].want == inputs[i]) && pl[c].ox == pl[a].ox &&
				       pl[c].oy == pl[a].oy && pl[c].layer == pl[a].layer;
			distinct += !seen;
		}
		if (distinct > best)
			best = distinct;
	}
	free(pl);
	if (!bounded)
		return 0;
	return best > 0 ? best : 1;   /* no rule moves them: 1 bounds nothing moving */
}

static void make_side(struct builder *b, struct ps_side *s, const ps_word *mask, bool aggr,
		      bool all)
{
	const struct ps_game *g = b->g;
	bool has_player;
	s->mask = mask;
	s->aggr = aggr;
	s->all = all;
	s->layer = -1;
	if (all)
		return;
	s->mob = side_mob(g, b->an->walker, mask, aggr, &s->layer, &has_player);
	if (s->mob == PS_MOB_STATIC) {
		side_cells(b, s, true);
	} else if (s->mob == PS_MOB_WALKER) {
		side_cells(b, s, false);
		s->count = s->ncells;   /* each cell of a one-layer walker holds one */
		s->ncells = 0;
		if (s->layer >= 0)
			side_edges(b, s, has_player);
		s->per_turn = side_per_turn(b, s, has_player);
	}
}

/* ---------------------------------------------------------- distances */

/* Breadth-first search backwards along a walker's steps from the cells
 * marked in out (0; the rest PS_FAR): each cell's turns to the nearest. */
static void walk_back(const struct ps_analysis *an, const uint8_t *edges, uint16_t *out,
		      int *queue)
{
	int head = 0, tail = 0;
	for (int c = 0; c < an->n; c++)
		if (out[c] == 0)
			queue[tail++] = c;
	while (head < tail) {
		int t = queue[head++], tx = t / an->h, ty = t % an->h;
		for (int d = 0; d < 4; d++) {
			/* a walker at c = t - step(d) that may step d */
			int cx = tx - step_dx[d], cy = ty - step_dy[d];
			if (!in_map(an, cx, cy))
				continue;
			int c = cx * an->h + cy;
			if ((edges[c] >> d & 1u) && out[c] == PS_FAR) {
				out[c] = (uint16_t)(out[t] + 1);
				queue[tail++] = c;
			}
		}
	}
}

static void cond_tables(struct builder *b, struct ps_cond *c)
{
	struct ps_analysis *an = b->an;
	const struct ps_side *st = c->st, *wk = c->wk;
	if (!st || wk->layer < 0 || !wk->edges)
		return;   /* Manhattan distances then */
	int n = an->n;
	int *queue = lk_xmalloc((size_t)n * sizeof *queue);
	if (c->quantifier >= 0) {
		c->dist = ps_alloc(&an->arena, (size_t)st->ncells * (size_t)n * sizeof(uint16_t) + 1);
		for (int t = 0; t < st->ncells; t++) {
			uint16_t *row = c->dist + (size_t)t * (size_t)n;
			for (int k = 0; k < n; k++)
				row[k] = PS_FAR;
			row[st->cells[t]] = 0;
			walk_back(an, wk->edges, row, queue);
		}
	} else {
		c->escape = ps_alloc(&an->arena, (size_t)n * sizeof(uint16_t));
		for (int k = 0; k < n; k++)
			c->escape[k] = PS_FAR;
		for (int k = 0; k < n; k++)
			if (!blocked(b, k, wk->layer))
				c->escape[k] = 0;
		for (int t = 0; t < st->ncells; t++)
			c->escape[st->cells[t]] = PS_FAR;
		walk_back(an, wk->edges, c->escape, queue);
	}
	free(queue);
}

/* The dead cells of "all X on Y" with a walker side: it can reach no cell
 * of the static side from there. */
static void cond_dead(struct builder *b, struct ps_cond *c)
{
	struct ps_analysis *an = b->an;
	if (c->quantifier != 1 || c->y.all || !c->dist)
		return;
	c->dead = ps_alloc(&an->arena, (size_t)an->n * sizeof(int) + 1);
	for (int k = 0; k < an->n; k++) {
		if (blocked(b, k, c->wk->layer))
			continue;
		bool reach = false;
		for (int t = 0; t < c->st->ncells && !reach; t++)
			reach = c->dist[(size_t)t * (size_t)an->n + (size_t)k] != PS_FAR;
		if (!reach)
			c->dead[c->ndead++] = k;
	}
	/* X walkers must all reach Y; Y walkers need only cover X's cells */
	c->spare = c->wk == &c->x ? 0 : c->wk->count - c->st->ncells;
}

/* Whether a condition with two static sides fails for good. */
static bool static_fails(const struct ps_analysis *an, const struct ps_cond *c,
			 const ps_word *stat)
{
	bool both = false, first_only = false;
	for (int k = 0; k < an->n; k++) {
		const ps_word *cell = stat + (size_t)k * (size_t)an->ow;
		if (!ps_side_match(&c->x, cell, an->ow))
			continue;
		if (c->y.all || ps_side_match(&c->y, cell, an->ow))
			both = true;
		else
			first_only = true;
	}
	return (c->quantifier == -1 && both) || (c->quantifier == 0 && !both) ||
	       (c->quantifier == 1 && first_only);
}

static void make_cond(struct builder *b, struct ps_cond *c, const struct ps_wincond *wc)
{
	const struct ps_game *g = b->g;
	/* the compiler gives a condition without "on" the mask of every object */
	bool all = true;
	for (int id = 0; id < g->nobjects && all; id++)
		if (g->objects[id].layer >= 0 && !ps_bit_get(wc->mask2, id))
			all = false;
	c->quantifier = wc->quantifier;
	make_side(b, &c->x, wc->mask1, wc->aggr1, false);
	make_side(b, &c->y, wc->mask2, wc->aggr2, all);
	if (c->x.mob == PS_MOB_STATIC && (all || c->y.mob == PS_MOB_STATIC))
		c->never = static_fails(b->an, c, b->stat);
	if (!all && c->x.mob == PS_MOB_STATIC && c->y.mob == PS_MOB_WALKER) {
		c->st = &c->x;
		c->wk = &c->y;
	} else if (!all && c->x.mob == PS_MOB_WALKER && c->y.mob == PS_MOB_STATIC) {
		c->st = &c->y;
		c->wk = &c->x;
	}
	cond_tables(b, c);
	cond_dead(b, c);
}

/* ------------------------------------------------------------ a level */

struct ps_analysis *ps_analysis_new(const struct ps_game *g, const struct ps_level *map,
				    bool plain)
{
	struct ps_analysis *an = lk_xcalloc(1, sizeof *an);
	ps_arena_init(&an->arena);
	an->w = map->width;
	an->h = map->height;
	an->n = an->w * an->h;
	an->ow = g->ow;
	struct builder b = { .g = g, .map = map, .an = an };
	b.stat = lk_xmalloc((size_t)an->n * (size_t)g->ow * sizeof(ps_word) + 1);
	for (size_t i = 0; i < (size_t)an->n * (size_t)g->ow; i++)
		b.stat[i] = map->cells[i] & g->static_mask[i % (size_t)g->ow];

	for (int r = 0; r < g->nrules; r++) {
		uint32_t cmd = g->rules[r].commands;
		an->again |= (cmd >> PS_CMD_AGAIN) & 1u;
		an->restart |= (cmd >> PS_CMD_RESTART) & 1u;
		an->win_cmd |= (cmd >> PS_CMD_WIN) & 1u;
	}
	/* several turns to an input, or a jump back to the start, move
	 * things further than one cell; a win command needs no condition */
	an->admissible = !an->again && !an->restart && !an->win_cmd;
	an->dead_ok = !an->restart && !an->win_cmd;

	an->walker = ps_alloc(&an->arena, (size_t)g->nobjects + 1);
	find_walkers(g, an->walker);
	bool players_walk = true;
	for (int id = 0; id < g->nobjects; id++)
		if (ps_bit_get(g->player_mask, id) && g->objects[id].layer >= 0 && !an->walker[id])
			players_walk = false;
	if (players_walk)
		for (int c = 0; c < an->n; c++)
			an->players += ps_bits_any(g->player_mask,
						   map->cells + (size_t)c * (size_t)g->ow, g->ow);
	find_grants(&b);

	an->nconds = g->nwins;
	an->conds = ps_alloc(&an->arena, ((size_t)g->nwins + 1) * sizeof *an->conds);
	for (int i = 0; i < g->nwins; i++) {
		struct ps_cond *c = &an->conds[i];
		make_cond(&b, c, &g->wins[i]);
		if (c->st) {
			size_t rows = (size_t)(c->st == &c->x ? c->st->ncells : c->wk->count);
			size_t cols = (size_t)(c->st == &c->x ? c->wk->count : c->st->ncells);
			if (rows * cols > an->max_rows * an->max_cols) {
				an->max_rows = rows;
				an->max_cols = cols;
			}
		}
		if (c->ndead)
			an->prune = !plain && an->dead_ok;
	}
	free(b.grants);
	free(b.stat);
	return an;
}

void ps_analysis_free(struct ps_analysis *an)
{
	if (!an)
		return;
	ps_arena_release(&an->arena);
	free(an);
}

bool ps_dead_cells(const struct ps_analysis *an, const ps_word *cells)
{
	int ow = an->ow;
	if (!an->dead_ok)
		return false;   /* a restart or a win command may still end it well */
	for (int i = 0; i < an->nconds; i++) {
		const struct ps_cond *c = &an->conds[i];
		int in_dead = 0;
		for (int k = 0; k < c->ndead; k++)
			if (ps_side_match(c->wk, cells + (size_t)c->dead[k] * (size_t)ow, ow) &&
			    ++in_dead > c->spare)
				return true;
	}
	return false;
}
