/*
 * sokoban_transform.c - what MixedAim's transformer (src/gen/transform.c)
 * needs of Sokoban: its legend (Wall, Player, Crate, Target, a scratch
 * Placeholder; the property Obstacle), XSB rows as cells and back, random
 * rooms with every box on its goal, the tidy walls, and the presets (the
 * thesis's four and the two backward-design recipes of its 4.1.4).
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban.h"
#include "levelkit/room.h"
#include "levelkit/transform.h"

enum { WALL = 1, PLAYER = 2, CRATE = 4, TARGET = 8, PLACEHOLDER = 16 };

static const struct lk_legend_object objects[] = {
	{ "Wall", NULL, 0 },
	{ "Player", NULL, 0 },
	{ "Crate", "Box", 0 },
	{ "Target", "Goal", 1 },
	{ "Placeholder", NULL, 2 },
};
static const int obstacles[] = { 0, 1, 2 };
static const struct lk_legend_property properties[] = {
	{ "Obstacle", obstacles, 3, false },
};
static const struct lk_legend legend = { objects, 5, properties, 1 };

/* MixedAim's four presets (3.4) and the two backward-design recipes of
 * its section 4.1.4, in the rule language. */
static const struct {
	const char *name, *text;
} presets[] = {
	{ "walls", "(randomly remove or add 20 walls with prob. 0.4)\n"
		   "choose 20 option 0.4 [Wall] -> []\n"
		   "or option 0.6 [no Obstacle] -> [Wall]\n" },
	{ "move", "(move players and crates around)\n"
		  "choose 20 [Player | no Obstacle] -> [ | Player]\n"
		  "or [Crate | no Obstacle] -> [ | Crate]\n" },
	{ "pair", "(remove one crate/target pair if it exists and add one)\n"
		  "choose 1 [Crate][Target] -> []\n"
		  "choose 1 [no Obstacle or Target][no Obstacle or Target] -> [Crate][Target]\n" },
	{ "mix", "(a bit of everything)\n"
		 "choose 4 option 0.4 [Wall] -> []\n"
		 "or option 0.6 [no Obstacle] -> [Wall]\n"
		 "choose 4 [Player | no Obstacle] -> [ | Player]\n"
		 "or [Crate | no Obstacle] -> [ | Crate]\n"
		 "choose 1 option 0.2 [Crate][Target] -> []\n"
		 "choose 1 option 0.2 [no Obstacle or Target][no Obstacle or Target] -> [Crate][Target]\n" },
	{ "mirror", "(a bit of everything, the level kept its own mirror image left to right)\n"
		    "choose 4 option 0.4 [Wall] -> []\n"
		    "or option 0.6 [no Obstacle] -> [Wall]\n"
		    "choose 4 [Player | no Obstacle] -> [ | Player]\n"
		    "or [Crate | no Obstacle] -> [ | Crate]\n"
		    "choose 1 option 0.2 [Crate][Target] -> []\n"
		    "choose 1 option 0.2 [no Obstacle or Target][no Obstacle or Target] -> [Crate][Target]\n"
		    "symmetrise horizontal\n" },
	{ "pull", "(Taylor and Parberry: crates on all targets, then pull them away)\n"
		  "[Target no Obstacle] -> [Target Crate]\n"
		  "choose 50 [Player | no Obstacle] -> [ | Player]\n"
		  "or [no Obstacle | Player | Crate] -> [Player | Crate | ]\n" },
	{ "push", "(Kartal et al.: push the crates around, then turn them into targets;\n"
		  " the old targets go, so there are as many targets as crates)\n"
		  "[Target] -> []\n"
		  "[Crate] -> [Crate Placeholder]\n"
		  "choose 50 [Player | no Obstacle] -> [ | Player]\n"
		  "or [Player | Crate | no Obstacle] -> [ | Player | Crate]\n"
		  "[Crate] -> [Target]\n"
		  "[Placeholder] -> [Crate]\n" },
};

static const char *const preset_names[] = { "walls", "move", "pair", "mix", "mirror", "pull", "push",
					     NULL };
static const char *const params[] = { "boxes", NULL };

/* A run's settings: the random rooms' size and boxes. */
struct soko_tr {
	long boxes;
	int width, height;
};

static void *soko_open(const struct lk_gen_options *o, struct lk_transform_setup *setup,
		       struct lk_strbuf *err)
{
	struct soko_tr *s = lk_xcalloc(1, sizeof *s);
	if (lk_gen_param_int(o, "boxes", 3, 1, 32, &s->boxes, err) < 0)
		goto fail;
	s->width = o->width ? o->width : 10;
	s->height = o->height ? o->height : 10;
	if (!o->from && (s->width < 4 || s->height < 4 || s->width > LK_GRID_MAX_SIDE ||
			 s->height > LK_GRID_MAX_SIDE)) {
		lk_strbuf_addf(err, "--size %dx%d: rooms need 4x4 to %dx%d", s->width, s->height,
			       LK_GRID_MAX_SIDE, LK_GRID_MAX_SIDE);
		goto fail;
	}
	int smallest;
	if (!o->from && !lk_room_can_hold(s->width, s->height, 0.55, (int)s->boxes + 2, &smallest)) {
		lk_strbuf_addf(err, "--size %dx%d cannot hold a level of %ld box%s: its rooms have "
			       "at most %d floor cells, and a level needs %ld (the boxes, the player "
			       "and a cell to move to); the smallest square size that can is %dx%d",
			       s->width, s->height, s->boxes, s->boxes == 1 ? "" : "es",
			       lk_room_max_floor(s->width, s->height, 0.55), s->boxes + 2, smallest,
			       smallest);
		goto fail;
	}
	setup->legend = &legend;
	setup->width = s->width;
	setup->height = s->height;
	return s;
fail:
	free(s);
	return NULL;
}

static void soko_close(void *gs)
{
	free(gs);
}

static int soko_preset(const void *gs, const char *name, struct lk_strbuf *out,
		       struct lk_strbuf *err)
{
	(void)gs;
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
		if (strcmp(presets[i].name, name) == 0) {
			lk_strbuf_addstr(out, presets[i].text);
			return 0;
		}
	lk_strbuf_addf(err, "sokoban has no preset '%s'", name);
	return -1;
}

/* ------------------------------------------------------ cells and text */

static uint64_t cell_of_char(char c)
{
	switch (c) {
	case '#': return WALL;
	case '@': return PLAYER;
	case '+': return PLAYER | TARGET;
	case '$': return CRATE;
	case '*': return CRATE | TARGET;
	case '.': return TARGET;
	default: return 0;
	}
}

static char char_of_cell(uint64_t v)
{
	if (v & WALL)
		return '#';
	if (v & PLAYER)
		return v & TARGET ? '+' : '@';
	if (v & CRATE)
		return v & TARGET ? '*' : '$';
	return v & TARGET ? '.' : ' ';
}

static void cells_of_grid(const struct lk_grid *g, struct lk_cells *c)
{
	free(c->cell);
	c->width = g->width;
	c->height = g->height;
	c->words = 1;
	c->cell = lk_xmalloc((size_t)g->width * (size_t)g->height * sizeof *c->cell);
	for (int i = 0; i < g->width * g->height; i++)
		c->cell[i] = cell_of_char(g->cells[i]);
}

static int soko_read(const void *gs, const struct lk_record *rec, struct lk_cells *c,
		     struct lk_strbuf *err)
{
	(void)gs;
	size_t first, n = lk_record_grid(rec, &first);
	if (!n) {
		lk_strbuf_addstr(err, "the record has no grid");
		return -1;
	}
	const char **rows = lk_xmalloc(n * sizeof *rows);
	for (size_t i = 0; i < n; i++)
		rows[i] = rec->lines[first + i].text;
	struct lk_grid g;
	struct lk_grid_parse opt = { .fill = ' ', .run_length = true };
	size_t bad;
	int rc = lk_grid_parse_rows(&g, rows, n, &opt, err, &bad);
	free(rows);
	if (rc < 0)
		return -1;
	cells_of_grid(&g, c);
	lk_grid_release(&g);
	return 0;
}

static int soko_write(const void *gs, const struct lk_cells *c, struct lk_record *rec)
{
	(void)gs;
	struct lk_grid g;
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_grid_init(&g, c->width, c->height, ' ');
	for (int i = 0; i < c->width * c->height; i++)
		g.cells[i] = char_of_cell(c->cell[i]);
	lk_grid_write(&g, &text, ' ');
	lk_record_set_grid(rec, text.buf);
	lk_strbuf_release(&text);
	lk_grid_release(&g);
	return 0;
}

/* A random room with every box on its goal (solved: the rules make it a
 * puzzle). */
static void soko_random(const void *gs, struct lk_rng *rng, struct lk_cells *c)
{
	const struct soko_tr *s = gs;
	struct lk_grid g;
	lk_grid_init(&g, c->width, c->height, '#');
	lk_room_carve(&g, rng, 0.35 + 0.2 * lk_rng_double(rng));
	for (long i = 0; i < s->boxes; i++) {
		int at = lk_room_pick(&g, rng, ' ');
		if (at >= 0)
			g.cells[at] = '*';
	}
	int at = lk_room_pick(&g, rng, ' ');
	if (at >= 0)
		g.cells[at] = '@';
	cells_of_grid(&g, c);
	lk_grid_release(&g);
}

/* Scratch marks never survive a mutation. */
static void soko_settle(const void *gs, struct lk_cells *c)
{
	(void)gs;
	size_t n = (size_t)c->width * (size_t)c->height;
	for (size_t i = 0; i < n; i++)
		c->cell[i] &= ~(uint64_t)PLACEHOLDER;
}

/* Combination's prettiness: keep only the floor and the walls touching
 * it; the puzzle, and any solution, stay the same. */
static void soko_tidy(const void *gs, const struct lk_level *level, struct lk_record *rec)
{
	(void)gs;
	struct lk_strbuf tidy = LK_STRBUF_INIT;
	soko_write_tidy_start(level, &tidy);
	lk_record_set_grid(rec, tidy.buf);
	lk_strbuf_release(&tidy);
}

static const struct lk_transform_ops soko_transform_ops = {
	.game = &lk_game_sokoban,
	.presets = preset_names,
	.default_preset = "mix",
	.params = params,
	.open = soko_open,
	.close = soko_close,
	.preset = soko_preset,
	.read = soko_read,
	.random = soko_random,
	.write = soko_write,
	.settle = soko_settle,
	.tidy = soko_tidy,
};

static void *transform_new(const struct lk_gen_options *o, struct lk_strbuf *err)
{
	return lk_transform_new(&soko_transform_ops, o, err);
}

static const struct lk_gen_field transform_fields[] = {
	{ .name = "pushes", .noun = "optimal pushes" },
	{ .name = NULL },
};

const struct lk_generator lk_gen_sokoban_transform = {
	.game = "sokoban",
	.name = "transform",
	.summary = "MixedAim's transformer: a climb of rule mutations from --from or a random "
		   "room, keeping the hardest solvable level",
	.params_help = "steps=N (30), boxes=N (3, random rooms only)",
	.size_help = "10x10, or that of --from",
	.accepts = LK_GEN_ACCEPT(MOVES) | LK_GEN_ACCEPT(DIFFICULTY) | LK_GEN_ACCEPT(DEAD_ENDS) |
		   LK_GEN_ACCEPT(FROM),
	.fields = transform_fields,
	.new_state = transform_new,
	.free_state = lk_transform_free,
	.candidate = lk_transform_candidate,
	.transform = &soko_transform_ops,
};
