/*
 * test_ps_draw.c - PuzzleScript levels drawn with their own sprites: the
 * SVG levelkit writes for a level of microban.txt (and of a small script
 * written here) is read back and its colour sampled at sprite pixels of
 * known cells, against colours worked out by hand from the scripts'
 * sprites and the reference engine's palettes; the palette names and
 * numbers; and the frames of a solution played back.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/view.h"
#include "../src/games/puzzlescript/ps_draw.h"

/* ------------------------------------------------------ reading the SVG */

#define MAX_SYMBOLS 64
#define MAX_RECTS 64
#define MAX_ITEMS 4096

struct rect {
	double x, y, w, h;
	uint32_t fill;
};

/* The picture as painted, in document order: rectangles, and symbols
 * placed at a point (their rectangles relative to it). */
struct item {
	int symbol;        /* -1: a rectangle */
	struct rect r;     /* the rectangle, or the placement's x, y */
};

struct picture {
	struct rect sym[MAX_SYMBOLS][MAX_RECTS];
	int nsym[MAX_SYMBOLS];
	struct item items[MAX_ITEMS];
	int nitems;
};

static double attr(const char *el, const char *end, const char *name, double dflt)
{
	char key[32];
	snprintf(key, sizeof key, " %s=\"", name);
	const char *p = strstr(el, key);
	return p && p < end ? strtod(p + strlen(key), NULL) : dflt;
}

static struct rect read_rect(const char *el, const char *end)
{
	struct rect r = { attr(el, end, "x", 0), attr(el, end, "y", 0), attr(el, end, "width", 0),
			  attr(el, end, "height", 0), 0 };
	const char *f = strstr(el, " fill=\"#");
	assert_true(f && f < end);
	r.fill = (uint32_t)strtoul(f + 8, NULL, 16);
	return r;
}

static void read_svg(const char *svg, struct picture *pic)
{
	double ox[16] = { 0 }, oy[16] = { 0 };
	int depth = 0;
	memset(pic, 0, sizeof *pic);
	for (const char *line = svg; *line; ) {
		const char *eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		if (strncmp(line, "<g id=\"s", 8) == 0) {
			int n = atoi(line + 8);
			assert_true(n >= 0 && n < MAX_SYMBOLS);
			for (const char *r = strstr(line, "<rect"); r && r < eol; r = strstr(r + 1, "<rect")) {
				assert_true(pic->nsym[n] < MAX_RECTS);
				pic->sym[n][pic->nsym[n]++] = read_rect(r, strchr(r, '>'));
			}
		} else if (strncmp(line, "<g", 2) == 0 && (line[2] == ' ' || line[2] == '>')) {
			/* a group, moved or not (a sheet's level: class="level") */
			double x = 0, y = 0;
			const char *t = strstr(line, "transform=\"translate(");
			if (t && t < eol)
				assert_int_equal(sscanf(t + 21, "%lf %lf", &x, &y), 2);
			assert_true(depth < 15);
			ox[depth + 1] = ox[depth] + x;
			oy[depth + 1] = oy[depth] + y;
			depth++;
		} else if (strncmp(line, "</g>", 4) == 0) {
			depth--;
		} else if (strncmp(line, "<rect", 5) == 0 || strncmp(line, "<use", 4) == 0) {
			assert_true(pic->nitems < MAX_ITEMS);
			struct item *it = &pic->items[pic->nitems++];
			if (line[1] == 'r') {
				it->symbol = -1;
				it->r = read_rect(line, eol);
			} else {
				const char *h = strstr(line, "href=\"#s");
				assert_non_null(h);
				it->symbol = atoi(h + 8);
				assert_null(strstr(line, "rotate"));   /* sprites are never turned */
				it->r = (struct rect){ attr(line, eol, "x", 0), attr(line, eol, "y", 0), 0, 0, 0 };
			}
			it->r.x += ox[depth];
			it->r.y += oy[depth];
		}
		line = *eol ? eol + 1 : eol;
	}
}

static bool inside(const struct rect *r, double dx, double dy, double x, double y)
{
	return x >= r->x + dx && x < r->x + dx + r->w && y >= r->y + dy && y < r->y + dy + r->h;
}

/* The colour painted last at a point, or 0xffffffff for none. */
static uint32_t colour_at(const struct picture *pic, double x, double y)
{
	uint32_t c = 0xffffffffu;
	for (int i = 0; i < pic->nitems; i++) {
		const struct item *it = &pic->items[i];
		if (it->symbol < 0) {
			if (inside(&it->r, 0, 0, x, y))
				c = it->r.fill;
			continue;
		}
		for (int k = 0; k < pic->nsym[it->symbol]; k++)
			if (inside(&pic->sym[it->symbol][k], it->r.x, it->r.y, x, y))
				c = pic->sym[it->symbol][k].fill;
	}
	return c;
}

/* Where the level is: the corner of the rectangle of the background
 * colour that covers the whole level (w x h cells). */
static void level_origin(const struct picture *pic, int w, int h, double *x, double *y)
{
	for (int i = 0; i < pic->nitems; i++) {
		const struct rect *r = &pic->items[i].r;
		if (pic->items[i].symbol < 0 && r->w == 24.0 * w && r->h == 24.0 * h) {
			*x = r->x;
			*y = r->y;
			return;
		}
	}
	fail_msg("no %dx%d level in the picture", w, h);
}

/* The colour at sprite pixel (px, py) of cell (cx, cy). */
static uint32_t pixel(const struct picture *pic, double x0, double y0, int cx, int cy, int px,
		      int py)
{
	return colour_at(pic, x0 + 24.0 * cx + 4.8 * (px + 0.5), y0 + 24.0 * cy + 4.8 * (py + 0.5));
}

/* ----------------------------------------------------- records and SVG */

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct lk_strbuf sb = LK_STRBUF_INIT;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		lk_strbuf_add(&sb, buf, n);
	fclose(f);
	return lk_strbuf_detach(&sb, NULL);
}

/* The records of a script, as the commands read it. */
static struct lk_record *script_records(const char *path, size_t *n)
{
	const struct lk_game *game = lk_game_find("puzzlescript");
	assert_non_null(game);
	char *text = read_all(path);
	if (!text)
		return NULL;
	assert_true(game->import_probe(text, strlen(text)));
	struct lk_record *recs = NULL;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	if (game->import(path, text, strlen(text), &recs, n, &err, &line) < 0)
		fail_msg("import %s: %s", path, err.buf);
	lk_strbuf_release(&err);
	free(text);
	return recs;
}

static void free_records(struct lk_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		lk_record_release(&recs[i]);
	free(recs);
}

/* The SVG picture of one record. */
static void svg_of(const struct lk_record *rec, struct lk_strbuf *out)
{
	struct lk_view_writer w;
	lk_view_writer_init(&w, NULL, LK_VIEW_SVG, &(struct lk_view_options){ 0 });
	lk_view_writer_format(&w, rec, out);
	lk_view_writer_finish_format(&w, out);
	lk_view_writer_release(&w);
}

static const char *microban_path(char *buf, size_t size)
{
	const char *data = getenv("LEVELKIT_DATA");
	snprintf(buf, size, "%s/puzzlescript/games/microban.txt", data ? data : "../shared/data");
	return buf;
}

/* arnecolors, the default palette (colors.js) */
enum {
	GREEN = 0x44891a, LIGHTGREEN = 0xa3ce27, DARKBLUE = 0x1b2632, BROWN = 0xa46422,
	DARKBROWN = 0x493c2b, BLACK = 0x000000, ORANGE = 0xeb8931, WHITE = 0xffffff,
	BLUE = 0x1d57f7
};

/*
 * Microban's level 1 (####.. / #.O#.. / #..### / #@P..# / #..*.# / ...),
 * its sprites (rows top down):
 *   Background lightgreen(0) green(1): 11111 01111 11101 11111 10111
 *   Target darkblue:                   ..... .000. .0.0. .000. .....
 *   Wall brown(0) darkbrown(1):        00010 11111 01000 11111 00010
 *   Player black orange white blue:    .000. .111. 22222 .333. .3.3.
 *   Crate orange:                      00000 0...0 0...0 0...0 00000
 * collision layers Background; Target; Player, Wall, Crate.
 */
static void test_microban_svg(void **state)
{
	(void)state;
	char path[1024];
	size_t n = 0;
	struct lk_record *recs = script_records(microban_path(path, sizeof path), &n);
	if (!recs) {
		print_message("  skipping: %s not found (set LEVELKIT_DATA)\n", path);
		skip();
	}
	assert_true(n >= 1);
	struct lk_strbuf svg = LK_STRBUF_INIT;
	svg_of(&recs[0], &svg);
	struct picture *pic = malloc(sizeof *pic);
	read_svg(svg.buf, pic);
	double x0 = 0, y0 = 0;
	level_origin(pic, 6, 7, &x0, &y0);

	/* a wall at (0, 0): row 0 of its sprite is 00010 */
	assert_int_equal(pixel(pic, x0, y0, 0, 0, 0, 0), BROWN);
	assert_int_equal(pixel(pic, x0, y0, 0, 0, 3, 0), DARKBROWN);
	assert_int_equal(pixel(pic, x0, y0, 0, 0, 0, 1), DARKBROWN);
	/* background outside the walls at (4, 0): row 1 is 01111 */
	assert_int_equal(pixel(pic, x0, y0, 4, 0, 0, 1), LIGHTGREEN);
	assert_int_equal(pixel(pic, x0, y0, 4, 0, 1, 1), GREEN);
	/* a target at (2, 1), the background through its clear pixels */
	assert_int_equal(pixel(pic, x0, y0, 2, 1, 1, 1), DARKBLUE);
	assert_int_equal(pixel(pic, x0, y0, 2, 1, 0, 1), LIGHTGREEN);
	assert_int_equal(pixel(pic, x0, y0, 2, 1, 2, 2), GREEN);
	assert_int_equal(pixel(pic, x0, y0, 2, 1, 3, 2), DARKBLUE);
	/* a crate on a target at (1, 3): three layers at one cell */
	assert_int_equal(pixel(pic, x0, y0, 1, 3, 0, 0), ORANGE);
	assert_int_equal(pixel(pic, x0, y0, 1, 3, 1, 1), DARKBLUE);
	assert_int_equal(pixel(pic, x0, y0, 1, 3, 2, 2), GREEN);
	assert_int_equal(pixel(pic, x0, y0, 1, 3, 3, 2), DARKBLUE);
	assert_int_equal(pixel(pic, x0, y0, 1, 3, 2, 3), DARKBLUE);
	assert_int_equal(pixel(pic, x0, y0, 1, 3, 1, 4), ORANGE);
	/* the player at (2, 3) */
	assert_int_equal(pixel(pic, x0, y0, 2, 3, 0, 0), GREEN);
	assert_int_equal(pixel(pic, x0, y0, 2, 3, 1, 0), BLACK);
	assert_int_equal(pixel(pic, x0, y0, 2, 3, 2, 1), ORANGE);
	assert_int_equal(pixel(pic, x0, y0, 2, 3, 0, 2), WHITE);
	assert_int_equal(pixel(pic, x0, y0, 2, 3, 4, 2), WHITE);
	assert_int_equal(pixel(pic, x0, y0, 2, 3, 1, 3), BLUE);
	assert_int_equal(pixel(pic, x0, y0, 2, 3, 1, 4), BLUE);
	assert_int_equal(pixel(pic, x0, y0, 2, 3, 2, 4), GREEN);
	assert_int_equal(pixel(pic, x0, y0, 2, 3, 0, 4), GREEN);
	/* a crate alone at (3, 4) */
	assert_int_equal(pixel(pic, x0, y0, 3, 4, 4, 4), ORANGE);
	assert_int_equal(pixel(pic, x0, y0, 3, 4, 2, 2), GREEN);
	assert_int_equal(pixel(pic, x0, y0, 3, 4, 0, 1), ORANGE);
	assert_int_equal(pixel(pic, x0, y0, 3, 4, 1, 1), GREEN);
	/* floor at (1, 2): background only, row 2 is 11101 */
	assert_int_equal(pixel(pic, x0, y0, 1, 2, 3, 2), LIGHTGREEN);
	assert_int_equal(pixel(pic, x0, y0, 1, 2, 4, 2), GREEN);

	/* the legend names every object with its legend character */
	static const char *const labels[] = { ">Background (.)<", ">Target (O)<", ">Wall (#)<",
					      ">Player (P)<", ">Crate (*)<" };
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
		if (!strstr(svg.buf, labels[i]))
			fail_msg("no legend entry %s", labels[i]);
	free(pic);
	lk_strbuf_release(&svg);
	free_records(recs, n);
}

/* A script of its own: a palette by name, a background colour showing
 * through a transparent background, an object without a sprite (one
 * square), #rgb colours. */
static const char small_script[] =
	"title draw test\n"
	"color_palette mastersystem\n"
	"background_color blue\n\n"
	"========\nOBJECTS\n========\n\n"
	"Background\ntransparent\n\n"
	"Wall\nred\n\n"
	"Player\n#0f0 yellow\n.1...\n.....\n..0..\n.....\n.....\n\n"
	"=======\nLEGEND\n=======\n\n"
	". = Background\n# = Wall\nP = Player\n\n"
	"=======\nSOUNDS\n=======\n\n"
	"================\nCOLLISIONLAYERS\n================\n\n"
	"Background\nPlayer, Wall\n\n"
	"======\nRULES\n======\n\n"
	"==============\nWINCONDITIONS\n==============\n\n"
	"=======\nLEVELS\n=======\n\n"
	"#P.\n";

static void test_palette_and_solid(void **state)
{
	(void)state;
	char path[] = "/tmp/levelkit-psdraw-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(small_script, f);
	fclose(f);
	size_t n = 0;
	struct lk_record *recs = script_records(path, &n);
	assert_int_equal(n, 1);
	struct lk_strbuf svg = LK_STRBUF_INIT;
	svg_of(&recs[0], &svg);
	struct picture *pic = malloc(sizeof *pic);
	read_svg(svg.buf, pic);
	double x0 = 0, y0 = 0;
	level_origin(pic, 3, 1, &x0, &y0);
	/* mastersystem: red #FF0000, yellow #FFFF55, blue #5555AA */
	for (int p = 0; p < 25; p++)
		assert_int_equal(pixel(pic, x0, y0, 0, 0, p % 5, p / 5), 0xff0000);
	assert_int_equal(pixel(pic, x0, y0, 1, 0, 2, 2), 0x00ff00);
	assert_int_equal(pixel(pic, x0, y0, 1, 0, 1, 0), 0xffff55);
	assert_int_equal(pixel(pic, x0, y0, 1, 0, 0, 0), 0x5555aa);
	assert_int_equal(pixel(pic, x0, y0, 2, 0, 2, 2), 0x5555aa);
	/* the wall, a solid object, is one rectangle */
	int walls = 0;
	for (int s = 0; s < MAX_SYMBOLS; s++)
		if (pic->nsym[s] == 1 && pic->sym[s][0].fill == 0xff0000 && pic->sym[s][0].w == 24 &&
		    pic->sym[s][0].h == 24)
			walls++;
	assert_int_equal(walls, 1);
	free(pic);
	lk_strbuf_release(&svg);
	free_records(recs, n);
	remove(path);
}

static void test_colour_names(void **state)
{
	(void)state;
	uint32_t rgb = 0;
	assert_int_equal(ps_color_rgb(NULL, "darkblue", &rgb), PS_COLOR_RGB);
	assert_int_equal(rgb, 0x1b2632);
	assert_int_equal(ps_color_rgb("arnecolors", " DarkBlue ", &rgb), PS_COLOR_RGB);
	assert_int_equal(rgb, 0x1b2632);
	/* by number: 1 is mastersystem, 14 whitingjp */
	assert_int_equal(ps_color_rgb("1", "darkgrey", &rgb), PS_COLOR_RGB);
	assert_int_equal(rgb, 0x555500);
	assert_string_equal(ps_palette_name("14"), "whitingjp");
	assert_string_equal(ps_palette_name("gameboycolour"), "gameboycolour");
	/* a palette the reference lacks is arnecolors, as there */
	assert_string_equal(ps_palette_name("nosuch"), "arnecolors");
	assert_string_equal(ps_palette_name("15"), "arnecolors");
	assert_int_equal(ps_color_rgb("#abc", "#abc", &rgb), PS_COLOR_RGB);
	assert_int_equal(rgb, 0xaabbcc);
	assert_int_equal(ps_color_rgb(NULL, "#12aB9f", &rgb), PS_COLOR_RGB);
	assert_int_equal(rgb, 0x12ab9f);
	assert_int_equal(ps_color_rgb(NULL, "transparent", &rgb), PS_COLOR_TRANSPARENT);
	assert_int_equal(ps_color_rgb(NULL, "#12345", &rgb), PS_COLOR_INVALID);
	assert_int_equal(ps_color_rgb(NULL, "#ggg", &rgb), PS_COLOR_INVALID);
	assert_int_equal(ps_color_rgb(NULL, "teal", &rgb), PS_COLOR_INVALID);
	assert_int_equal(rgb, 0xff00ff);
}

/* The frames of a solution: one key per input, the last a goal exactly
 * when the solution wins, a bad input an error. */
static void test_replay_keys(void **state)
{
	(void)state;
	char path[1024];
	size_t n = 0;
	struct lk_record *recs = script_records(microban_path(path, sizeof path), &n);
	if (!recs) {
		print_message("  skipping: %s not found (set LEVELKIT_DATA)\n", path);
		skip();
	}
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *level = lk_level_load(&recs[0], &(struct lk_level_options){ 0 }, &err, &line);
	assert_non_null(level);
	assert_non_null(level->game->replay_keys);
	/* the solution solve's BFS finds for level 1 (its win is the
	 * engine's, tested elsewhere; here the frames are) */
	const char *sol = "dlurrrdlullddruluruuldrddrruldluu";
	unsigned char *keys = NULL;
	size_t nkeys = 0;
	assert_int_equal(level->game->replay_keys(level, sol, &keys, &nkeys, &err), 0);
	assert_int_equal(nkeys, strlen(sol) + 1);
	unsigned char *start = malloc(level->key_size);
	level->game->initial_state(level, start);
	assert_memory_equal(keys, start, level->key_size);
	assert_true(level->game->is_goal(level, keys + (nkeys - 1) * level->key_size));
	for (size_t i = 0; i + 1 < nkeys; i++)
		assert_false(level->game->is_goal(level, keys + i * level->key_size));
	free(keys);
	/* half of it: legal, not won */
	assert_int_equal(level->game->replay_keys(level, "dlurrrdlul", &keys, &nkeys, &err), 0);
	assert_int_equal(nkeys, 11);
	assert_false(level->game->is_goal(level, keys + 10 * level->key_size));
	free(keys);
	/* not an input */
	assert_int_equal(level->game->replay_keys(level, "dlq", &keys, &nkeys, &err), -1);
	assert_null(keys);
	assert_non_null(strstr(err.buf, "'q'"));
	free(start);
	lk_level_free(level);
	lk_strbuf_release(&err);
	free_records(recs, n);
}

/* What the commands take for a script: the OBJECTS head under a rule of
 * '=' signs, in any case, with comments beside it (suite game 117 writes
 * "OBJECTS(cat)"), but not a word that only looks like it. */
static void test_import_probe(void **state)
{
	(void)state;
	const struct lk_game *game = lk_game_find("puzzlescript");
	assert_non_null(game);
	static const char *const yes[] = {
		"title x\n========\nOBJECTS\n========\n",
		"========\nOBJECTS(cat)\n========\n",
		"===\n  (a (nested) note) objects  \n",
		"====\r\nObjects\r\n",
	};
	static const char *const no[] = {
		"========\nOB JECTS\n========\n",
		"========\nOBJECTS cat\n",
		"OBJECTS\n========\n",
		"==\nOBJECTS\n",
		"########\n#@$.  #\n########\n",
	};
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		if (!game->import_probe(yes[i], strlen(yes[i])))
			fail_msg("not taken for a script: %s", yes[i]);
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		if (game->import_probe(no[i], strlen(no[i])))
			fail_msg("taken for a script: %s", no[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_microban_svg),
		cmocka_unit_test(test_palette_and_solid),
		cmocka_unit_test(test_colour_names),
		cmocka_unit_test(test_replay_keys),
		cmocka_unit_test(test_import_probe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
