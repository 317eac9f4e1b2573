/*
 * test_ps_transform.c - the transformer on a PuzzleScript game of its own
 * (a tiny Sokoban written inline): rules over the script's names move
 * what they should (hand-worked rows), cells no legend character stands
 * for are left out, the invariants (players, `all X on Y` balance) hold,
 * the presets are written in the game's names, and every level the
 * presets and the random rooms give is solvable in as many moves as a
 * brute-force search over the engine's own turns finds, carrying the
 * script's fields.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "levelkit/actions.h"
#include "levelkit/game.h"
#include "levelkit/generate.h"
#include "levelkit/registry.h"
#include "levelkit/transform.h"
#include "../src/games/puzzlescript/ps.h"

static const char script_text[] =
	"title tiny\n\n"
	"========\nOBJECTS\n========\n\n"
	"Background\nblack\n\nTarget\nblue\n\nWall\ngrey\n\nPlayer\nwhite\n\nCrate\norange\n\n"
	"=======\nLEGEND\n=======\n\n"
	". = Background\n# = Wall\nP = Player\n* = Crate\n@ = Crate and Target\nO = Target\n"
	"Obstacle = Wall or Crate\nBlock = Wall\n\n"
	"=======\nSOUNDS\n=======\n\n"
	"================\nCOLLISIONLAYERS\n================\n\n"
	"Background\nTarget\nPlayer, Wall, Crate\n\n"
	"======\nRULES\n======\n\n"
	"[ > Player | Crate ] -> [ > Player | > Crate ]\n\n"
	"==============\nWINCONDITIONS\n==============\n\nall Target on Crate\n\n"
	"=======\nLEVELS\n=======\n\n"
	"#######\n"
	"#.....#\n"
	"#.P*O.#\n"
	"#.....#\n"
	"#######\n";

/* A game where the player is one of the objects a win condition counts:
 * random rooms give the player a target of its own. */
static const char person_text[] =
	"title persons\n\n"
	"========\nOBJECTS\n========\n\n"
	"Background\nblack\n\nTarget\nblue\n\nWall\ngrey\n\nPlayer\nwhite\n\nFriend\npink\n\n"
	"=======\nLEGEND\n=======\n\n"
	". = Background\n# = Wall\nP = Player\nF = Friend\nO = Target\nPerson = Player or Friend\n\n"
	"=======\nSOUNDS\n=======\n\n"
	"================\nCOLLISIONLAYERS\n================\n\n"
	"Background\nTarget\nPlayer, Wall, Friend\n\n"
	"======\nRULES\n======\n\n"
	"[ > Player | Friend ] -> [ > Player | > Friend ]\n\n"
	"==============\nWINCONDITIONS\n==============\n\nall Person on Target\n\n"
	"=======\nLEVELS\n=======\n\n"
	"#######\n#.P.F.#\n#..OO.#\n#######\n";

static void write_script(char *path, size_t size, const char *text)
{
	snprintf(path, size, "/tmp/levelkit-pstr-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

struct fixture {
	char path[64];
	struct lk_record level;      /* the script's level, as any command reads it */
	const struct lk_transform_ops *ops;
	void *gs;
	struct lk_transform_setup setup;
};

static int setup(void **state)
{
	struct fixture *f = lk_xcalloc(1, sizeof *f);
	write_script(f->path, sizeof f->path, script_text);
	struct lk_reader r;
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_int_equal(lk_input_open(&r, f->path, &err), 0);
	lk_record_init(&f->level);
	assert_int_equal(lk_reader_next(&r, &f->level, &err, NULL), 1);
	lk_reader_close(&r);
	const struct lk_generator *g = lk_generator_find("puzzlescript", "transform");
	assert_non_null(g);
	f->ops = g->transform;
	struct lk_gen_options o;
	lk_gen_options_init(&o);
	o.from = &f->level;
	f->gs = f->ops->open(&o, &f->setup, &err);
	if (!f->gs)
		fail_msg("open: %s", err.buf);
	lk_strbuf_release(&err);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	f->ops->close(f->gs);
	lk_record_release(&f->level);
	unlink(f->path);
	free(f);
	lk_game_defs_release();
	return 0;
}

/* The cells of the script's level, rules applied (NULL: none); the rows
 * written, or NULL when write refuses them.  *rewrites: how many. */
static char *apply(struct fixture *f, const char *rules, unsigned *rewrites)
{
	struct lk_cells c = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_int_equal(f->ops->read(f->gs, &f->level, &c, &err), 0);
	c.cell_ok = f->ops->cell_ok;
	c.cell_ok_ctx = f->gs;
	if (rules) {
		struct lk_rules *r = lk_rules_parse(rules, f->setup.legend, &err);
		if (!r)
			fail_msg("rules: %s", err.buf);
		struct lk_rng rng;
		lk_rng_seed(&rng, 7);
		unsigned n = lk_rules_apply(r, &c, &rng);
		if (rewrites)
			*rewrites = n;
		lk_rules_free(r);
	}
	struct lk_record rec;
	lk_record_init(&rec);
	char *rows = NULL;
	if (f->ops->write(f->gs, &c, &rec) == 0) {
		struct lk_strbuf out = LK_STRBUF_INIT;
		size_t first, n = lk_record_grid(&rec, &first);
		for (size_t i = 0; i < n; i++)
			lk_strbuf_addf(&out, "%s\n", rec.lines[first + i].text);
		assert_string_equal(lk_record_get(&rec, "script"), f->path);
		assert_string_equal(lk_record_get(&rec, "script-hash"),
				    lk_record_get(&f->level, "script-hash"));
		assert_string_equal(lk_record_get(&rec, "game"), "puzzlescript");
		rows = lk_strbuf_detach(&out, NULL);
	}
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	free(c.cell);
	return rows;
}

static void expect_rows(struct fixture *f, const char *rules, const char *want, unsigned nwant)
{
	unsigned n = 0;
	char *rows = apply(f, rules, &n);
	if (want) {
		assert_non_null(rows);
		assert_string_equal(rows, want);
	} else {
		assert_null(rows);
	}
	assert_int_equal(n, nwant);
	free(rows);
}

static void test_rules_in_the_games_names(void **state)
{
	struct fixture *f = *state;
	/* unchanged: the rows as written */
	expect_rows(f, NULL, "#######\n#.....#\n#.P*O.#\n#.....#\n#######\n", 0);
	/* a direction and the game's property: the player steps left, not
	 * right (a crate there) */
	expect_rows(f, "left [Player | no Obstacle] -> [ | Player]",
		    "#######\n#.....#\n#P.*O.#\n#.....#\n#######\n", 1);
	expect_rows(f, "right [Player | no Obstacle] -> [ | Player]",
		    "#######\n#.....#\n#.P*O.#\n#.....#\n#######\n", 0);
	/* a force: the crate moves onto the target, written '@' */
	expect_rows(f, "choose 1 [Crate] -> [right Crate]", "#######\n#.....#\n#.P.@.#\n#.....#\n#######\n", 1);
	/* a synonym (Block = Wall) and a legend character's name */
	expect_rows(f, "[Block] -> []", ".......\n.......\n..P*O..\n.......\n.......\n", 20);
	expect_rows(f, "[#] -> []", ".......\n.......\n..P*O..\n.......\n.......\n", 20);
	/* a layer's own name (Layer3: Player, Wall, Crate) */
	expect_rows(f, "up [Crate | no Layer3] -> [ | Crate]",
		    "#######\n#..*..#\n#.P.O.#\n#.....#\n#######\n", 1);
}

static void test_cells_without_a_character_are_left_out(void **state)
{
	struct fixture *f = *state;
	/* Wall and Target together: no legend character, no rewrite */
	expect_rows(f, "[Wall] -> [Wall Target]", "#######\n#.....#\n#.P*O.#\n#.....#\n#######\n", 0);
	/* the player onto the target: "P" and "O" only, no character for both */
	expect_rows(f, "right [Crate | Target] -> [Crate | Target Player]\n",
		    "#######\n#.....#\n#.P*O.#\n#.....#\n#######\n", 0);
}

static void test_invariants(void **state)
{
	struct fixture *f = *state;
	/* a second player, or none */
	expect_rows(f, "choose 1 [no Layer3 no Target] -> [Player]", NULL, 1);
	expect_rows(f, "[Player] -> []", NULL, 1);
	/* all Target on Crate: a crate without its target, a target alone */
	expect_rows(f, "choose 1 [no Layer3 no Target] -> [Crate]", NULL, 1);
	expect_rows(f, "[Target] -> []", NULL, 1);
	/* a pair removed together keeps the balance */
	expect_rows(f, "[Crate][Target] -> []", "#######\n#.....#\n#.P...#\n#.....#\n#######\n", 1);
}

static void test_presets_name_the_games_objects(void **state)
{
	struct fixture *f = *state;
	static const struct {
		const char *name, *text;
	} want[] = {
		{ "walls", "choose 20 option 0.4 [Wall] -> []\n"
			   "or option 0.6 [no Player or Wall or Crate] -> [Wall]\n" },
		{ "crates", "choose 20 [Player | no Player or Wall or Crate] -> [ | Player]\n"
			    "or [Crate | no Player or Wall or Crate] -> [ | Crate]\n" },
		{ "targets", "choose 20 [Target | no Target] -> [ | Target]\n" },
		{ "pair", "choose 1 [Crate][Target] -> []\n"
			  "choose 1 [no Target or Player or Wall or Crate][no Target or Player or Wall or "
			  "Crate] -> [Crate][Target]\n" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct lk_strbuf out = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
		assert_int_equal(f->ops->preset(f->gs, want[i].name, &out, &err), 0);
		const char *body = strchr(out.buf, '\n');   /* after the comment */
		assert_non_null(body);
		assert_string_equal(body + 1, want[i].text);
		struct lk_rules *r = lk_rules_parse(out.buf, f->setup.legend, &err);
		if (!r)
			fail_msg("%s: %s", want[i].name, err.buf);
		lk_rules_free(r);
		lk_strbuf_release(&out);
		lk_strbuf_release(&err);
	}
}

/* ------------------------------------------- solvable, by brute force */

/* The fewest inputs that win from the record's level, by breadth-first
 * search over the engine's keys (no levelkit solver); -1 if none within
 * the bound. */
static long brute_force(const struct lk_record *rec)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level_options lo = { 0 };
	struct lk_level *level = lk_level_load(rec, &lo, &err, &line);
	if (!level)
		fail_msg("load: %s", err.buf);
	const struct ps_game *g = level->def;
	size_t first, n = lk_record_grid(rec, &first), bad;
	const char **rows = lk_xmalloc(n * sizeof *rows);
	for (size_t i = 0; i < n; i++)
		rows[i] = rec->lines[first + i].text;
	struct ps_level *map = ps_map_parse(g, rows, n, &err, &bad);
	free(rows);
	assert_non_null(map);
	struct ps_runtime *rt = ps_runtime_new_map(g, map);
	size_t ks = ps_key_size(rt), cap = 200000, nseen = 0;
	unsigned char *seen = lk_xmalloc(cap * ks);
	long *depth = lk_xmalloc(cap * sizeof *depth);
	ps_start(rt, NULL);
	ps_store(rt, seen);
	depth[nseen++] = 0;
	long found = -1;
	for (size_t at = 0; at < nseen && found < 0; at++)
		for (int input = 0; input < 5 && found < 0 && nseen < cap; input++) {
			ps_load(rt, seen + at * ks);
			unsigned fl = ps_turn(rt, input, NULL);
			if (fl & PS_WON) {
				found = depth[at] + 1;
				break;
			}
			unsigned char *next = seen + nseen * ks;
			ps_store(rt, next);
			bool old = false;
			for (size_t k = 0; k < nseen && !old; k++)
				old = memcmp(seen + k * ks, next, ks) == 0;
			if (!old)
				depth[nseen++] = depth[at] + 1;
		}
	free(seen);
	free(depth);
	ps_runtime_free(rt);
	ps_map_free(map);
	lk_level_free(level);
	lk_strbuf_release(&err);
	return found;
}

static long field_long(const struct lk_record *rec, const char *name)
{
	const char *v = lk_record_get(rec, name);
	assert_non_null(v);
	return strtol(v, NULL, 10);
}

static int count_char(const struct lk_record *rec, const char *chars)
{
	int n = 0;
	size_t first, rows = lk_record_grid(rec, &first);
	for (size_t i = 0; i < rows; i++)
		for (const char *s = rec->lines[first + i].text; *s; s++)
			n += strchr(chars, *s) != NULL;
	return n;
}

static char *grid_text(const struct lk_record *rec)
{
	struct lk_strbuf out = LK_STRBUF_INIT;
	size_t first, n = lk_record_grid(rec, &first);
	for (size_t i = 0; i < n; i++)
		lk_strbuf_addf(&out, "%s\n", rec->lines[first + i].text);
	return lk_strbuf_detach(&out, NULL);
}

/* Generate and check levels; how many differ from the script's level. */
static int generate_and_check(struct fixture *f, struct lk_gen_options *o, int levels)
{
	int changed = 0;
	char *start = grid_text(&f->level);
	const struct lk_generator *g = lk_generator_find("puzzlescript", "transform");
	struct lk_gen_worker w;
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (lk_gen_worker_init(&w, g, o, &err) < 0)
		fail_msg("worker: %s", err.buf);
	for (int i = 0; i < levels; i++) {
		struct lk_record rec;
		struct lk_gen_stats st = { 0 };
		lk_record_init(&rec);
		assert_int_equal(lk_generate_index(g, &w, o, 3, (uint64_t)i, &rec, &st), 0);
		assert_string_equal(lk_record_get(&rec, "script"), f->path);
		assert_string_equal(lk_record_get(&rec, "script-hash"),
				    lk_record_get(&f->level, "script-hash"));
		assert_string_equal(lk_record_get(&rec, "solvable"), "yes");
		long moves = field_long(&rec, "moves");
		assert_true(moves >= 1);
		assert_int_equal(brute_force(&rec), moves);
		/* one player; as many crates as targets */
		assert_int_equal(count_char(&rec, "P"), 1);
		assert_int_equal(count_char(&rec, "*@"), count_char(&rec, "O@"));
		char *grid = grid_text(&rec);
		changed += strcmp(grid, start) != 0;
		free(grid);
		lk_record_release(&rec);
	}
	free(start);
	lk_gen_worker_release(&w, g);
	lk_strbuf_release(&err);
	return changed;
}

static void test_presets_give_solvable_levels(void **state)
{
	struct fixture *f = *state;
	static const char *const names[] = { "walls", "crates", "targets", "pair", "mix" };
	static const char *keys[] = { "steps" }, *values[] = { "6" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct lk_gen_options o;
		struct lk_strbuf text = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
		lk_gen_options_init(&o);
		o.from = &f->level;
		o.param_keys = keys;
		o.param_values = values;
		o.nparams = 1;
		o.max_tries = 200;
		o.rating.search.bounds.max_states = 100000;
		assert_int_equal(lk_transform_preset(f->ops, &o, names[i], &text, &err), 0);
		o.rules = text.buf;
		assert_int_equal(generate_and_check(f, &o, 3), 3);
		lk_strbuf_release(&text);
		lk_strbuf_release(&err);
	}
}

static void test_random_rooms(void **state)
{
	struct fixture *f = *state;
	const char *keys[] = { "script", "steps" }, *values[] = { f->path, "10" };
	struct lk_gen_options o;
	lk_gen_options_init(&o);
	o.width = o.height = 7;
	o.param_keys = keys;
	o.param_values = values;
	o.nparams = 2;
	o.max_tries = 500;
	o.rating.search.bounds.max_states = 100000;
	assert_int_equal(generate_and_check(f, &o, 4), 4);
	/* without a game, and with two */
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_transform_setup s;
	o.nparams = 0;
	assert_null(f->ops->open(&o, &s, &err));
	assert_non_null(strstr(err.buf, "--script"));
	lk_strbuf_reset(&err);
	o.nparams = 1;
	o.from = &f->level;
	assert_null(f->ops->open(&o, &s, &err));
	assert_non_null(strstr(err.buf, "--from"));
	lk_strbuf_release(&err);
}

static void test_random_rooms_balance_the_player(void **state)
{
	(void)state;
	char path[64];
	write_script(path, sizeof path, person_text);
	const char *keys[] = { "script", "steps" }, *values[] = { path, "10" };
	struct lk_gen_options o;
	lk_gen_options_init(&o);
	o.width = o.height = 7;
	o.param_keys = keys;
	o.param_values = values;
	o.nparams = 2;
	o.max_tries = 500;
	o.rating.search.bounds.max_states = 100000;
	const struct lk_generator *g = lk_generator_find("puzzlescript", "transform");
	struct lk_gen_worker w;
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (lk_gen_worker_init(&w, g, &o, &err) < 0)
		fail_msg("worker: %s", err.buf);
	for (uint64_t i = 0; i < 3; i++) {
		struct lk_record rec;
		struct lk_gen_stats st = { 0 };
		lk_record_init(&rec);
		assert_int_equal(lk_generate_index(g, &w, &o, 5, i, &rec, &st), 0);
		assert_int_equal(count_char(&rec, "P"), 1);
		/* the player and the friends, each with a target */
		assert_int_equal(count_char(&rec, "PF"), count_char(&rec, "O"));
		assert_int_equal(brute_force(&rec), field_long(&rec, "moves"));
		lk_record_release(&rec);
	}
	lk_gen_worker_release(&w, g);
	lk_strbuf_release(&err);
	unlink(path);
	lk_game_defs_release();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rules_in_the_games_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cells_without_a_character_are_left_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invariants, setup, teardown),
		cmocka_unit_test_setup_teardown(test_presets_name_the_games_objects, setup, teardown),
		cmocka_unit_test_setup_teardown(test_presets_give_solvable_levels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random_rooms, setup, teardown),
		cmocka_unit_test(test_random_rooms_balance_the_player),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
