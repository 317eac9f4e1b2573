/*
 * ps_transform.c - what MixedAim's transformer (src/gen/transform.c) needs
 * of a PuzzleScript game: the rules' legend made of the script's own
 * objects (with their collision layers) and legend names (synonyms,
 * `or` properties, `and` aggregates), a record's map as cells and back in
 * the game's legend characters, the invariants that keep a level a level
 * of the game, and the `gen puzzlescript` generator.
 *
 * The game comes from --from's record (its script and script-hash fields,
 * as for any command), or without --from from --script FILE (random
 * rooms).  Every level written carries the same game, script and
 * script-hash fields as records read from the script, so solve --verify,
 * filter and rate load it like one of the script's own.  A candidate is
 * invalid (nothing is solved) when a cell has no legend character that
 * stands for exactly its objects, when its rows do not read back as the
 * same cells, when the number of players changed, or when an `all X on Y`
 * condition's counts of X and Y drifted apart from the start's.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "levelkit/game.h"
#include "levelkit/grid.h"
#include "levelkit/hash.h"
#include "levelkit/transform.h"
#include "ps.h"
#include "ps_game.h"
#include "ps_transform.h"

static const char *const preset_names[] = { "walls", "crates", "targets", "pair", "mix", "mirror",
					     NULL };
static const char *const params[] = { "script", "pairs", NULL };

bool ps_tr_has(const ps_word *mask, bool aggregate, const ps_word *cell, int ow)
{
	return aggregate ? ps_bits_subset(mask, cell, ow) : ps_bits_any(mask, cell, ow);
}

/* A glyph without a background object stands for itself plus the cell's
 * background, as maps are read (ps_map_write's test). */
bool ps_tr_cell_ok(void *gs, const uint64_t *cell)
{
	const struct ps_tr *t = gs;
	const struct ps_game *g = t->g;
	int ow = g->ow;
	const ps_word *bgm = g->background_layer >= 0 ?
		g->layer_masks + (size_t)g->background_layer * (size_t)ow : NULL;
	if (bgm && !ps_bits_any(cell, bgm, ow))
		return false;
	for (int k = 0; k < g->nglyphs; k++) {
		const ps_word *gm = g->glyphs[k].objects;
		bool add_bg = bgm && !ps_bits_any(gm, bgm, ow), equal = true;
		for (int w = 0; w < ow && equal; w++)
			equal = (gm[w] | (add_bg ? cell[w] & bgm[w] : 0)) == cell[w];
		if (equal)
			return true;
	}
	return false;
}

/* ------------------------------------------------------------ legend */

/* A legend name the rule language can read as one word. */
static bool rule_word(const char *s)
{
	return *s && !strpbrk(s, "[]|() \t") && !strstr(s, "->") && strcmp(s, "...") != 0;
}

/* Whether the game uses name for an object or a legend name. */
static bool name_taken(const struct ps_game *g, const char *name)
{
	for (int id = 0; id < g->nobjects; id++)
		if (g->objects[id].layer >= 0 && strcasecmp(g->objects[id].name, name) == 0)
			return true;
	for (int i = 0; i < g->nnames; i++)
		if (strcasecmp(g->names[i].name, name) == 0)
			return true;
	return false;
}

/* The legend: the game's objects, its legend names, then a property per
 * collision layer (Layer1 is the first line of COLLISIONLAYERS) for rules
 * about a whole layer, unless the game has a name of that spelling. */
static void make_legend(struct ps_tr *t)
{
	const struct ps_game *g = t->g;
	t->objects = lk_xcalloc((size_t)g->nobjects + 1, sizeof *t->objects);
	for (int id = 0; id < g->nobjects; id++) {
		const struct ps_object *o = &g->objects[id];
		t->objects[id].name = o->layer >= 0 ? o->display : NULL;
		t->objects[id].layer = o->layer;
	}
	size_t total = (size_t)g->nobjects;
	for (int i = 0; i < g->nnames; i++)
		for (int id = 0; id < g->nobjects; id++)
			total += ps_bit_get(g->names[i].objects, id);
	t->props = lk_xcalloc((size_t)g->nnames + (size_t)g->nlayers + 1, sizeof *t->props);
	t->layer_names = lk_xcalloc((size_t)g->nlayers + 1, sizeof *t->layer_names);
	t->prop_objects = lk_xcalloc(total + 1, sizeof *t->prop_objects);
	int np = 0;
	size_t at = 0;
	for (int i = 0; i < g->nnames; i++) {
		if (!rule_word(g->names[i].name))
			continue;
		struct lk_legend_property *p = &t->props[np++];
		p->name = g->names[i].name;
		p->objects = t->prop_objects + at;
		p->aggregate = g->names[i].aggregate;
		for (int id = 0; id < g->nobjects; id++)
			if (ps_bit_get(g->names[i].objects, id) && g->objects[id].layer >= 0)
				t->prop_objects[at + (size_t)p->nobjects++] = id;
		at += (size_t)p->nobjects;
	}
	for (int l = 0; l < g->nlayers; l++) {
		char name[32];
		snprintf(name, sizeof name, "Layer%d", l + 1);
		if (name_taken(g, name))
			continue;
		t->layer_names[l] = lk_xstrdup(name);
		struct lk_legend_property *p = &t->props[np++];
		p->name = t->layer_names[l];
		p->objects = t->prop_objects + at;
		for (int id = 0; id < g->nobjects; id++)
			if (g->objects[id].layer == l)
				t->prop_objects[at + (size_t)p->nobjects++] = id;
		at += (size_t)p->nobjects;
	}
	t->legend = (struct lk_legend){ t->objects, g->nobjects, t->props, np };
}

/* -------------------------------------------------------------- cells */

static void cells_of_map(const struct ps_game *g, const struct ps_level *map, struct lk_cells *c)
{
	int w = ps_map_width(map), h = ps_map_height(map), ow = g->ow;
	const uint64_t *src = ps_map_cells(map);
	free(c->cell);
	c->width = w;
	c->height = h;
	c->words = ow;
	c->cell = lk_xmalloc((size_t)w * (size_t)h * (size_t)ow * sizeof *c->cell);
	for (int x = 0; x < w; x++)
		for (int y = 0; y < h; y++)
			memcpy(c->cell + ((size_t)y * (size_t)w + (size_t)x) * (size_t)ow,
			       src + ((size_t)x * (size_t)h + (size_t)y) * (size_t)ow,
			       (size_t)ow * sizeof *c->cell);
}

static struct ps_level *parse_rows(const struct ps_game *g, const struct lk_record *rec,
				   struct lk_strbuf *err)
{
	size_t first, n = lk_record_grid(rec, &first), bad;
	if (!n) {
		lk_strbuf_addstr(err, "the record has no grid");
		return NULL;
	}
	const char **rows = lk_xmalloc(n * sizeof *rows);
	for (size_t i = 0; i < n; i++)
		rows[i] = rec->lines[first + i].text;
	struct ps_level *map = ps_map_parse(g, rows, n, err, &bad);
	free(rows);
	return map;
}

static int ps_tr_read(const void *gs, const struct lk_record *rec, struct lk_cells *c,
		      struct lk_strbuf *err)
{
	const struct ps_tr *t = gs;
	struct ps_level *map = parse_rows(t->g, rec, err);
	if (!map)
		return -1;
	cells_of_map(t->g, map, c);
	ps_map_free(map);
	return 0;
}

/* The invariants' counts of cells: players, then per win condition X - Y. */
static int count_players(const struct ps_game *g, const struct lk_cells *c)
{
	int n = 0;
	for (int i = 0; i < c->width * c->height; i++)
		n += ps_tr_has(g->player_mask, g->player_aggregate, c->cell + (size_t)i * (size_t)g->ow,
			       g->ow);
	return n;
}

int ps_tr_balance(const struct ps_game *g, const struct ps_wincond *wc,
			 const struct lk_cells *c)
{
	int n = 0;
	for (int i = 0; i < c->width * c->height; i++) {
		const ps_word *cell = c->cell + (size_t)i * (size_t)g->ow;
		n += ps_tr_has(wc->mask1, wc->aggr1, cell, g->ow);
		n -= ps_tr_has(wc->mask2, wc->aggr2, cell, g->ow);
	}
	return n;
}

static void set_invariants(struct ps_tr *t, const struct lk_cells *start)
{
	const struct ps_game *g = t->g;
	t->balance = lk_xcalloc((size_t)g->nwins + 1, sizeof *t->balance);
	t->players = start ? count_players(g, start) : 1;
	for (int k = 0; k < g->nwins; k++)
		t->balance[k] = start && g->wins[k].quantifier == 1 ? ps_tr_balance(g, &g->wins[k], start)
								    : 0;
}

static bool invariants_hold(const struct ps_tr *t, const struct lk_cells *c)
{
	const struct ps_game *g = t->g;
	if (count_players(g, c) != t->players)
		return false;
	for (int k = 0; k < g->nwins; k++)
		if (g->wins[k].quantifier == 1 && ps_tr_balance(g, &g->wins[k], c) != t->balance[k])
			return false;
	return true;
}

/*
 * A random room made tidy, as gen sokoban's are: an empty cell (nothing
 * but the background) that the player cannot reach without crossing a
 * wall becomes wall, and the rows and columns beyond the walls around
 * what is left are cropped.  The level is solved as it is written, so its
 * answers are those of the tidy room.  Returns the crop (x0, y0, w, h);
 * cells (row by row, ow words) are changed in place.
 */
static void tidy_room(const struct ps_tr *t, uint64_t *cells, int w, int h, int crop[4])
{
	const struct ps_game *g = t->g;
	int ow = g->ow, wall = t->roles.wall, n = w * h;
	crop[0] = crop[1] = 0;
	crop[2] = w;
	crop[3] = h;
	if (wall < 0)
		return;
	uint64_t *bg = lk_xcalloc((size_t)ow, sizeof *bg);
	if (g->background_id >= 0)
		ps_bit_set(bg, g->background_id);
	int *queue = lk_xmalloc((size_t)n * sizeof *queue);
	char *seen = lk_xcalloc((size_t)n, 1);
	int head = 0, tail = 0;
	for (int i = 0; i < n; i++) {
		const uint64_t *cell = cells + (size_t)i * (size_t)ow;
		if (ps_tr_has(g->player_mask, g->player_aggregate, cell, ow)) {
			seen[i] = 1;
			queue[tail++] = i;
		}
	}
	while (head < tail) {
		int i = queue[head++], x = i % w, y = i / w;
		for (int d = 0; d < 4; d++) {
			int nx = x + lk_dir_dx[d], ny = y + lk_dir_dy[d], j = ny * w + nx;
			if (nx < 0 || ny < 0 || nx >= w || ny >= h || seen[j] ||
			    ps_bit_get(cells + (size_t)j * (size_t)ow, wall))
				continue;
			seen[j] = 1;
			queue[tail++] = j;
		}
	}
	int x0 = w, y0 = h, x1 = -1, y1 = -1;
	for (int i = 0; i < n && tail > 0; i++) {
		uint64_t *cell = cells + (size_t)i * (size_t)ow;
		if (!seen[i] && memcmp(cell, bg, (size_t)ow * sizeof *bg) == 0)
			ps_bit_set(cell, wall);   /* an empty pocket */
		if (ps_bit_get(cell, wall))
			continue;
		int x = i % w, y = i / w;
		x0 = x < x0 ? x : x0;
		y0 = y < y0 ? y : y0;
		x1 = x > x1 ? x : x1;
		y1 = y > y1 ? y : y1;
	}
	if (x1 >= 0) {   /* one wall row and column kept around the rest */
		crop[0] = x0 > 0 ? x0 - 1 : 0;
		crop[1] = y0 > 0 ? y0 - 1 : 0;
		crop[2] = (x1 < w - 1 ? x1 + 2 : w) - crop[0];
		crop[3] = (y1 < h - 1 ? y1 + 2 : h) - crop[1];
	}
	free(bg);
	free(queue);
	free(seen);
}

/* The cells as rows of legend characters, then read back: the record is
 * written only if it reads as these very cells.  Random rooms (--script)
 * are tidied first. */
static int ps_tr_write(const void *gs, const struct lk_cells *c, struct lk_record *rec)
{
	const struct ps_tr *t = gs;
	const struct ps_game *g = t->g;
	int ow = g->ow;
	if (!invariants_hold(t, c))
		return -1;
	size_t bytes = (size_t)c->width * (size_t)c->height * (size_t)ow * sizeof(uint64_t);
	uint64_t *rows = lk_xmalloc(bytes);
	memcpy(rows, c->cell, bytes);
	int crop[4] = { 0, 0, c->width, c->height };
	if (t->own)
		tidy_room(t, rows, c->width, c->height, crop);
	int w = crop[2], h = crop[3];
	uint64_t *cols = lk_xmalloc((size_t)w * (size_t)h * (size_t)ow * sizeof *cols);
	for (int x = 0; x < w; x++)
		for (int y = 0; y < h; y++)
			memcpy(cols + ((size_t)x * (size_t)h + (size_t)y) * (size_t)ow,
			       rows + ((size_t)(y + crop[1]) * (size_t)c->width + (size_t)(x + crop[0])) *
					      (size_t)ow,
			       (size_t)ow * sizeof *cols);
	free(rows);
	struct ps_level shape = { .width = w, .height = h };
	struct lk_strbuf text = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
	int rc = ps_map_write(g, &shape, cols, &text) == 0 ? 0 : -1;
	if (rc == 0)
		ps_indent_map_text(&text, 0);
	if (rc == 0) {
		lk_record_set(rec, "game", "puzzlescript");
		lk_record_set(rec, "script", t->script);
		lk_record_set(rec, "script-hash", t->hash);
		lk_record_set_grid(rec, text.buf);
		struct ps_level *back = parse_rows(g, rec, &err);
		rc = back && memcmp(ps_map_cells(back), cols,
				    (size_t)w * (size_t)h * (size_t)ow * sizeof *cols) == 0 ? 0 : -1;
		ps_map_free(back);
	}
	lk_strbuf_release(&text);
	lk_strbuf_release(&err);
	free(cols);
	return rc;
}

/* ---------------------------------------------------------- the run */

static void ps_tr_close(void *gs)
{
	struct ps_tr *t = gs;
	if (!t)
		return;
	ps_roles_release(&t->roles);
	free(t->objects);
	free(t->props);
	free(t->prop_objects);
	for (int l = 0; t->layer_names && l < t->g->nlayers; l++)
		free(t->layer_names[l]);
	free(t->layer_names);
	free(t->balance);
	free(t->script);
	free(t->hash);
	if (t->own)
		ps_game_free(t->own);
	free(t);
}

/* The game of --from's record: loaded as any command loads the level (a
 * moved or edited script is an error that says so). */
static int game_of_record(struct ps_tr *t, const struct lk_gen_options *o, struct lk_strbuf *err)
{
	if (strcmp(lk_record_game(o->from), "puzzlescript") != 0) {
		lk_strbuf_addf(err, "--from: a %s level, not a puzzlescript one", lk_record_game(o->from));
		return -1;
	}
	struct lk_strbuf why = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *level = lk_game_load_level(&lk_game_puzzlescript, o->from, &o->level, &why, &line);
	if (!level) {
		lk_strbuf_addf(err, "--from: %s", why.buf);
		lk_strbuf_release(&why);
		return -1;
	}
	lk_strbuf_release(&why);
	t->g = level->def;   /* cached for the life of the process */
	lk_level_free(level);
	/* the script as found (maybe beside the record's file) and as it is
	 * now (maybe edited since the level was read): what gen's levels name */
	struct lk_strbuf path = LK_STRBUF_INIT, text = LK_STRBUF_INIT;
	ps_script_absolute(t->g->filename, &path);
	char hash[17] = "";
	if (lk_strbuf_read_file(&text, t->g->filename) == 0)
		snprintf(hash, sizeof hash, "%016llx",
			 (unsigned long long)lk_hash_text(text.buf, text.len));
	t->script = lk_strbuf_detach(&path, NULL);
	t->hash = lk_xstrdup(hash);
	lk_strbuf_release(&text);
	return 0;
}

/* The game of --script FILE, compiled here: the fields are those ps_import
 * gives the script's own levels (the path made absolute, the text's hash). */
static int game_of_script(struct ps_tr *t, const char *path, struct lk_strbuf *err)
{
	struct lk_strbuf text = LK_STRBUF_INIT, why = LK_STRBUF_INIT;
	int rc = -1, at = 0;
	if (lk_strbuf_read_file(&text, path) < 0) {
		lk_strbuf_addf(err, "--script %s: cannot read it", path);
	} else if (!(t->own = ps_compile(text.buf, text.len, path, &why, &at))) {
		lk_strbuf_addf(err, "--script %s:%d: %s", path, at, why.buf);
	} else {
		char hash[17];
		snprintf(hash, sizeof hash, "%016llx",
			 (unsigned long long)lk_hash_text(text.buf, text.len));
		struct lk_strbuf absolute = LK_STRBUF_INIT;
		ps_script_absolute(path, &absolute);
		t->g = t->own;
		t->script = lk_strbuf_detach(&absolute, NULL);
		t->hash = lk_xstrdup(hash);
		rc = 0;
	}
	lk_strbuf_release(&text);
	lk_strbuf_release(&why);
	return rc;
}

static void *ps_tr_open(const struct lk_gen_options *o, struct lk_transform_setup *setup,
			struct lk_strbuf *err)
{
	struct ps_tr *t = lk_xcalloc(1, sizeof *t);
	const char *script = lk_gen_param(o, "script");
	struct lk_cells start = { 0 };
	if (lk_gen_param_int(o, "pairs", 2, 0, 64, &t->pairs, err) < 0)
		goto fail;
	if (o->from && script) {
		lk_strbuf_addstr(err, "--script is for random rooms: with --from the level's record "
			      "names its script");
		goto fail;
	}
	if (!o->from && !script) {
		lk_strbuf_addstr(err, "which game? --script FILE (random rooms of a PuzzleScript "
			      "script) or --from FILE (one of its levels)");
		goto fail;
	}
	if (o->from ? game_of_record(t, o, err) < 0 : game_of_script(t, script, err) < 0)
		goto fail;
	make_legend(t);
	ps_roles_find(t);
	t->width = o->width ? o->width : 8;
	t->height = o->height ? o->height : 8;
	if (!o->from && (t->width < 4 || t->height < 4 || t->width > LK_GRID_MAX_SIDE ||
			 t->height > LK_GRID_MAX_SIDE)) {
		lk_strbuf_addf(err, "--size %dx%d: rooms need 4x4 to %dx%d", t->width, t->height,
			       LK_GRID_MAX_SIDE, LK_GRID_MAX_SIDE);
		goto fail;
	}
	if (!o->from && t->roles.wall < 0) {
		lk_strbuf_addf(err, "random rooms need the game's wall (an object or legend name "
			      "Wall, or '#' for one object); give --from a level instead");
		goto fail;
	}
	if (o->from && ps_tr_read(t, o->from, &start, err) < 0)
		goto fail;
	set_invariants(t, o->from ? &start : NULL);
	free(start.cell);
	setup->legend = &t->legend;
	setup->width = t->width;
	setup->height = t->height;
	return t;
fail:
	free(start.cell);
	ps_tr_close(t);
	return NULL;
}

static const struct lk_transform_ops ps_transform_ops = {
	.game = &lk_game_puzzlescript,
	.presets = preset_names,
	.default_preset = "mix",
	.params = params,
	.open = ps_tr_open,
	.close = ps_tr_close,
	.preset = ps_tr_preset,
	.read = ps_tr_read,
	.random = ps_tr_random,
	.write = ps_tr_write,
	.cell_ok = ps_tr_cell_ok,
};

static void *transform_new(const struct lk_gen_options *o, struct lk_strbuf *err)
{
	return lk_transform_new(&ps_transform_ops, o, err);
}

static const struct lk_gen_flag ps_flags[] = {
	{ "script", "script", "without --from: the PuzzleScript game whose random rooms gen fills",
	  "FILE" },
	{ NULL, NULL, NULL, NULL },
};

const struct lk_generator lk_gen_puzzlescript_transform = {
	.game = "puzzlescript",
	.name = "transform",
	.summary = "MixedAim's transformer on your own game: a climb of rule mutations over the "
		   "script's objects from --from, or from a random room of --script FILE",
	.params_help = "steps=N (30), script=FILE (--script), pairs=N (2, random rooms only)",
	.size_help = "8x8, or that of --from",
	.default_min_moves = 8,
	.accepts = LK_GEN_ACCEPT(MOVES) | LK_GEN_ACCEPT(DIFFICULTY) | LK_GEN_ACCEPT(FROM),
	.flags = ps_flags,
	.new_state = transform_new,
	.free_state = lk_transform_free,
	.candidate = lk_transform_candidate,
	.transform = &ps_transform_ops,
};
