/*
 * ps_transform_roles.c - how the transformer's presets and random rooms
 * map onto an arbitrary PuzzleScript game: the parts its objects play,
 * found from the legend and the win conditions, and the presets written
 * in the game's own names.
 *
 *   wall     the object named Wall (or a legend name Wall for one object),
 *            else the one object '#' stands for
 *   movers   objects a win condition names that the rules can move
 *            (Sokoban's crates; never a player)
 *   fixed    objects a win condition names that nothing moves (targets)
 *   pair     the first `all X on Y` with a mover and a fixed object: one of
 *            each, the ones the script's levels use most
 *
 * A preset moves an object only onto a cell with nothing on its collision
 * layer, written as the `or` list of that layer's objects; a rewrite that
 * makes a cell no legend character stands for is left out (cell_ok).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "levelkit/room.h"
#include "ps_transform.h"

#define MAX_OR_NAMES 16   /* the rule language's `A or B or ...` */

static bool same_name(const char *a, const char *b)
{
	return strcasecmp(a, b) == 0;
}

/* How often each object occurs in the script's maps. */
static long *occurrences(const struct ps_game *g)
{
	long *n = lk_xcalloc((size_t)g->nobjects + 1, sizeof *n);
	for (int l = 0; l < g->nlevels; l++) {
		const struct ps_level *lv = &g->levels[l];
		if (lv->is_message)
			continue;
		for (size_t i = 0; i < (size_t)lv->width * (size_t)lv->height; i++)
			for (int id = 0; id < g->nobjects; id++)
				n[id] += ps_bit_get(lv->cells + i * (size_t)g->ow, id);
	}
	return n;
}

/* The object of mask (restricted to keep, if not NULL) the levels use
 * most; -1 if none. */
static int most_used(const struct ps_game *g, const long *uses, const ps_word *mask,
		     const ps_word *keep)
{
	int best = -1;
	for (int id = 0; id < g->nobjects; id++)
		if (g->objects[id].layer >= 0 && ps_bit_get(mask, id) && (!keep || ps_bit_get(keep, id)) &&
		    (best < 0 || uses[id] > uses[best]))
			best = id;
	return best;
}

static int find_wall(const struct ps_game *g)
{
	for (int id = 0; id < g->nobjects; id++)
		if (g->objects[id].layer >= 0 && same_name(g->objects[id].name, "wall"))
			return id;
	const ps_word *one = NULL;
	for (int i = 0; i < g->nnames && !one; i++)
		if (same_name(g->names[i].name, "wall"))
			one = g->names[i].objects;
	for (int k = 0; k < g->nglyphs && !one; k++)
		if (g->glyphs[k].ch == '#')
			one = g->glyphs[k].objects;
	int found = -1;
	for (int id = 0; one && id < g->nobjects; id++)
		if (ps_bit_get(one, id)) {
			if (found >= 0 || id == g->background_id)
				return -1;   /* not one object */
			found = id;
		}
	return found;
}

static const char *player_name(const struct ps_game *g)
{
	for (int id = 0; id < g->nobjects; id++)
		if (g->objects[id].layer >= 0 && same_name(g->objects[id].name, "player"))
			return g->objects[id].display;
	for (int i = 0; i < g->nnames; i++)
		if (same_name(g->names[i].name, "player"))
			return g->names[i].name;
	return "Player";
}

void ps_roles_find(struct ps_tr *t)
{
	const struct ps_game *g = t->g;
	struct ps_roles *r = &t->roles;
	int ow = g->ow;
	long *uses = occurrences(g);
	r->wall = find_wall(g);
	r->player_name = player_name(g);
	r->player = most_used(g, uses, g->player_mask, NULL);
	r->crate = r->target = -1;
	r->movers = lk_xcalloc((size_t)ow, sizeof *r->movers);
	r->fixed = lk_xcalloc((size_t)ow, sizeof *r->fixed);
	for (int k = 0; k < g->nwins; k++) {
		const struct ps_wincond *wc = &g->wins[k];
		bool on = !ps_bits_subset(g->all_mask, wc->mask2, ow);   /* "X on Y" */
		for (int id = 0; id < g->nobjects; id++) {
			bool named = ps_bit_get(wc->mask1, id) || (on && ps_bit_get(wc->mask2, id));
			if (!named || g->objects[id].layer < 0 || ps_bit_get(g->player_mask, id) ||
			    id == g->background_id)
				continue;
			ps_bit_set(g->obj_dynamic[id] ? r->movers : r->fixed, id);
		}
		if (wc->quantifier != 1 || !on || r->crate >= 0)
			continue;
		/* all X on Y: which side moves */
		int a = most_used(g, uses, wc->mask1, r->movers), b = most_used(g, uses, wc->mask2, r->fixed);
		if (a < 0 || b < 0) {
			a = most_used(g, uses, wc->mask2, r->movers);
			b = most_used(g, uses, wc->mask1, r->fixed);
		}
		if (a >= 0 && b >= 0) {
			r->crate = a;
			r->target = b;
		}
	}
	r->mover = most_used(g, uses, r->movers, NULL);
	r->win_objects = lk_xcalloc(2 * (size_t)g->nwins + 1, sizeof *r->win_objects);
	ps_word *not_player = lk_xcalloc((size_t)ow, sizeof *not_player);
	for (int w = 0; w < ow; w++)
		not_player[w] = ~g->player_mask[w];
	for (int k = 0; k < g->nwins; k++) {
		r->win_objects[2 * k] = most_used(g, uses, g->wins[k].mask1, not_player);
		r->win_objects[2 * k + 1] = most_used(g, uses, g->wins[k].mask2, not_player);
	}
	free(not_player);
	free(uses);
}

void ps_roles_release(struct ps_roles *r)
{
	free(r->movers);
	free(r->fixed);
	free(r->win_objects);
}

/* ------------------------------------------------------------ presets */

static const char *name_of(const struct ps_game *g, int id)
{
	return g->objects[id].display;
}

/* "A or B or C": the objects of the layers of a and b (b may be -1);
 * the layers' own names (Layer3) when that would be more than the rule
 * language's `or` takes. */
static int layers_list(const struct ps_tr *t, int a, int b, struct lk_strbuf *out,
		       struct lk_strbuf *err)
{
	const struct ps_game *g = t->g;
	int la = g->objects[a].layer, lb = b >= 0 ? g->objects[b].layer : la, n = 0;
	for (int id = 0; id < g->nobjects; id++)
		n += g->objects[id].layer >= 0 && (g->objects[id].layer == la || g->objects[id].layer == lb);
	if (n > MAX_OR_NAMES) {
		if (!t->layer_names[la] || !t->layer_names[lb]) {
			lk_strbuf_addf(err, "the layer of %s has more than %d objects and the game uses "
				       "the name Layer%d: write the rules yourself", name_of(g, a),
				       MAX_OR_NAMES, (t->layer_names[la] ? lb : la) + 1);
			return -1;
		}
		lk_strbuf_addstr(out, t->layer_names[la]);
		if (lb != la)
			lk_strbuf_addf(out, " or %s", t->layer_names[lb]);
		return 0;
	}
	n = 0;
	for (int id = 0; id < g->nobjects; id++) {
		int l = g->objects[id].layer;
		if (l >= 0 && (l == la || l == lb))
			lk_strbuf_addf(out, "%s%s", n++ ? " or " : "", name_of(g, id));
	}
	return 0;
}

/* "[X | no L] -> [ | X]" for every mover X, and the player. */
static int moves_text(const struct ps_tr *t, long choose, struct lk_strbuf *out,
		      struct lk_strbuf *err)
{
	const struct ps_game *g = t->g;
	const struct ps_roles *r = &t->roles;
	bool first = true;
	for (int id = -1; id < g->nobjects; id++) {
		int obj = id < 0 ? r->player : id;
		if (obj < 0 || (id >= 0 && !ps_bit_get(r->movers, id)))
			continue;
		const char *name = id < 0 ? r->player_name : name_of(g, id);
		if (first)
			lk_strbuf_addf(out, "choose %ld ", choose);
		else
			lk_strbuf_addstr(out, "or ");
		lk_strbuf_addf(out, "[%s | no ", name);
		if (layers_list(t, obj, -1, out, err) < 0)
			return -1;
		lk_strbuf_addf(out, "] -> [ | %s]\n", name);
		first = false;
	}
	return 0;
}

static int walls_text(const struct ps_tr *t, long choose, struct lk_strbuf *out,
		      struct lk_strbuf *err)
{
	const struct ps_game *g = t->g;
	int wall = t->roles.wall;
	if (wall < 0) {
		lk_strbuf_addstr(err, "the game has no wall (an object or legend name Wall, or '#' "
			      "for one object)");
		return -1;
	}
	const char *w = name_of(g, wall);
	lk_strbuf_addf(out, "choose %ld option 0.4 [%s] -> []\nor option 0.6 [no ", choose, w);
	if (layers_list(t, wall, -1, out, err) < 0)
		return -1;
	lk_strbuf_addf(out, "] -> [%s]\n", w);
	return 0;
}

static int pair_text(const struct ps_tr *t, const char *option, struct lk_strbuf *out,
		     struct lk_strbuf *err)
{
	const struct ps_game *g = t->g;
	int c = t->roles.crate, d = t->roles.target;
	if (c < 0) {
		lk_strbuf_addstr(err, "the game has no win condition `all X on Y` with an object that "
			      "moves and one that stays");
		return -1;
	}
	lk_strbuf_addf(out, "choose 1 %s[%s][%s] -> []\n", option, name_of(g, c), name_of(g, d));
	struct lk_strbuf free_cell = LK_STRBUF_INIT;
	int rc = layers_list(t, c, d, &free_cell, err);
	if (rc == 0)
		lk_strbuf_addf(out, "choose 1 %s[no %s][no %s] -> [%s][%s]\n", option, free_cell.buf,
			       free_cell.buf, name_of(g, c), name_of(g, d));
	lk_strbuf_release(&free_cell);
	return rc;
}

int ps_tr_preset(const void *gs, const char *name, struct lk_strbuf *out, struct lk_strbuf *err)
{
	const struct ps_tr *t = gs;
	const struct ps_game *g = t->g;
	if (strcmp(name, "walls") == 0) {
		lk_strbuf_addstr(out, "(randomly remove or add 20 walls with prob. 0.4)\n");
		return walls_text(t, 20, out, err);
	}
	if (strcmp(name, "crates") == 0) {
		lk_strbuf_addstr(out, "(move the player and what the win conditions name that rules "
			      "move)\n");
		return moves_text(t, 20, out, err);
	}
	if (strcmp(name, "targets") == 0) {
		bool first = true;
		lk_strbuf_addstr(out, "(move what the win conditions name that nothing moves)\n");
		for (int id = 0; id < g->nobjects; id++) {
			if (!ps_bit_get(t->roles.fixed, id))
				continue;
			lk_strbuf_addf(out, "%s[%s | no ", first ? "choose 20 " : "or ", name_of(g, id));
			if (layers_list(t, id, -1, out, err) < 0)
				return -1;
			lk_strbuf_addf(out, "] -> [ | %s]\n", name_of(g, id));
			first = false;
		}
		if (first)
			lk_strbuf_addstr(err, "the game's win conditions name no object that stays put");
		return first ? -1 : 0;
	}
	if (strcmp(name, "pair") == 0) {
		lk_strbuf_addstr(out, "(remove one pair of an `all X on Y` if there is one, and add "
			      "one)\n");
		return pair_text(t, "", out, err);
	}
	if (strcmp(name, "mix") == 0 || strcmp(name, "mirror") == 0) {
		bool mirror = strcmp(name, "mirror") == 0;
		lk_strbuf_addstr(out, mirror ? "(a bit of everything the game has, the level kept its own "
					       "mirror image left to right)\n"
					     : "(a bit of everything the game has)\n");
		if (t->roles.wall >= 0 && walls_text(t, 4, out, err) < 0)
			return -1;
		if (moves_text(t, 4, out, err) < 0)
			return -1;
		if (t->roles.crate >= 0 && pair_text(t, "option 0.2 ", out, err) < 0)
			return -1;
		if (mirror)
			lk_strbuf_addstr(out, "symmetrise horizontal\n");
		return 0;
	}
	lk_strbuf_addf(err, "puzzlescript has no preset '%s'", name);
	return -1;
}

/* ------------------------------------------------------- random rooms */

static uint64_t *cell_at(struct lk_cells *c, int i)
{
	return c->cell + (size_t)i * (size_t)c->words;
}

/* Put object id into a random free cell of the room (the floor, and
 * nothing on its layer) if the game can hold the result. */
static bool place(const struct ps_tr *t, struct lk_grid *room, struct lk_rng *rng,
		  struct lk_cells *c, int id, int with)
{
	int at = lk_room_pick(room, rng, ' ');
	if (at < 0 || id < 0)
		return false;
	uint64_t *cell = cell_at(c, at);
	uint64_t *try = lk_xmalloc((size_t)c->words * sizeof *try);
	memcpy(try, cell, (size_t)c->words * sizeof *try);
	ps_bit_set(try, id);
	if (with >= 0)
		ps_bit_set(try, with);
	bool ok = ps_tr_cell_ok((void *)t, try);
	if (ok) {
		memcpy(cell, try, (size_t)c->words * sizeof *try);
		room->cells[at] = 'o';
	}
	free(try);
	return ok;
}

void ps_tr_random(const void *gs, struct lk_rng *rng, struct lk_cells *c)
{
	const struct ps_tr *t = gs;
	const struct ps_game *g = t->g;
	const struct ps_roles *r = &t->roles;
	struct lk_grid room;
	lk_grid_init(&room, c->width, c->height, '#');
	lk_room_carve(&room, rng, 0.35 + 0.2 * lk_rng_double(rng));
	for (int i = 0; i < c->width * c->height; i++) {
		if (g->background_id >= 0)
			ps_bit_set(cell_at(c, i), g->background_id);
		if (room.cells[i] == '#' && r->wall >= 0)
			ps_bit_set(cell_at(c, i), r->wall);
	}
	/* an `all X on Y`'s pairs, solved (the rules make it a puzzle); else
	 * some of the movers and one of each fixed object */
	for (long i = 0; i < t->pairs && r->crate >= 0; i++)
		if (!place(t, &room, rng, c, r->crate, r->target) && place(t, &room, rng, c, r->crate, -1))
			place(t, &room, rng, c, r->target, -1);
	for (long i = 0; i < t->pairs && r->crate < 0 && r->mover >= 0; i++)
		place(t, &room, rng, c, r->mover, -1);
	for (int id = 0; r->crate < 0 && id < g->nobjects; id++)
		if (ps_bit_get(r->fixed, id))
			place(t, &room, rng, c, id, -1);
	place(t, &room, rng, c, r->player, -1);
	/* every `all X on Y` in balance, as the invariants want (in
	 * `all Person on Target` the player is a Person and needs a target) */
	for (int k = 0; k < g->nwins; k++) {
		if (g->wins[k].quantifier != 1)
			continue;
		int d = ps_tr_balance(g, &g->wins[k], c);
		for (int tries = 0; d != 0 && tries < 8; tries++) {
			int id = r->win_objects[2 * k + (d > 0)];
			if (place(t, &room, rng, c, id, -1))
				d = ps_tr_balance(g, &g->wins[k], c);
		}
	}
	lk_grid_release(&room);
}
