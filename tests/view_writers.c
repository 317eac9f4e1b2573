/*
 * view_writers.c - the view tests of what is written (run by test_view.c's
 * main): films, every frame rebuilt from the first frame and the changes
 * equal to the game's own drawing of that frame, and the statuses of
 * good, bad and missing solutions; SVG, coloured text (escapes taken out,
 * it is the record), the page's escaping, and which view a command writes.
 */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "view_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/canvas.h"
#include "levelkit/csp.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "levelkit/view.h"
#include "test_support.h"
#include "view_internal.h"

/* --------------------------------------------------------------- films */

static size_t decode_id(const char *s, int width)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	size_t v = 0;
	for (int i = 0; i < width; i++)
		v = v * 64 + (size_t)(strchr(digits, s[i]) - digits);
	return v;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted, distinct codes of a list of strings, joined by '|'. */
static char *set_text(char **items, size_t n)
{
	struct lk_strbuf out = LK_STRBUF_INIT;
	qsort(items, n, sizeof *items, cmp_str);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(items[i], items[i - 1]) != 0)
			lk_strbuf_addf(&out, "%s|", items[i]);
	return lk_strbuf_detach(&out, NULL);
}

/* The frame as the game draws it, each primitive coded with the dictionary. */
static char *drawn_frame(const struct lk_level *level, const void *key, const char *placement,
			 struct view_dict *d)
{
	struct lk_canvas c;
	struct view_map m;
	lk_canvas_init(&c);
	view_map_init(&m);
	level->game->draw(level, key, placement, &c);
	view_map_update(&m, d, &c);
	char **items = lk_xmalloc((c.nprims + 1) * sizeof *items);
	for (size_t i = 0; i < c.nprims; i++) {
		struct lk_strbuf t = LK_STRBUF_INIT;
		view_encode_prim(&c, &c.prims[i], &m, &t);
		items[i] = lk_strbuf_detach(&t, NULL);
	}
	char *text = set_text(items, c.nprims);
	for (size_t i = 0; i < c.nprims; i++)
		free(items[i]);
	free(items);
	view_map_release(&m);
	lk_canvas_release(&c);
	return text;
}

/* Every frame of the film, rebuilt from the first and the changes, is
 * the game's drawing of that state. */
static void film_check(const struct lk_record *rec, struct film_maker *fm, struct view_dict *d)
{
	struct film f;
	film_init(&f);
	film_make(fm, rec, d, &f);
	assert_true(f.drawn);
	char **atlas = lk_xmalloc((f.natlas + 1) * sizeof *atlas);
	char *codes = lk_xstrdup(f.atlas.buf);
	size_t na = 0;
	for (char *tok = strtok(codes, ";"); tok; tok = strtok(NULL, ";"))
		atlas[na++] = tok;
	assert_int_equal(na, f.natlas);
	unsigned char *present = lk_xcalloc(na + 1, 1);
	for (size_t i = 0; i < f.first.len; i += (size_t)f.id_width)
		present[decode_id(f.first.buf + i, f.id_width)] = 1;

	const struct lk_game *g = lk_game_find(lk_record_game(rec));
	struct lk_level *level = load(rec, lk_name_in("moves", g->metrics) ? "moves" : NULL, false);
	const char *sol = lk_record_get(rec, "solution");
	unsigned char *keys = NULL;
	size_t nkeys = 1;
	if (g->csp) {
		nkeys = sol ? 2 : 1;
	} else if (sol) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		assert_int_equal(g->replay_keys(level, sol, &keys, &nkeys, &err), 0);
		lk_strbuf_release(&err);
	}
	assert_int_equal(f.nframes, nkeys);
	const char *step = f.steps.buf;
	char **items = lk_xmalloc((na + 1) * sizeof *items);
	for (size_t frame = 0; frame < nkeys; frame++) {
		if (frame > 0) {
			while (*step && *step != '.') {
				present[decode_id(step, f.id_width)] ^= 1;
				step += f.id_width;
			}
			if (*step == '.')
				step++;
		}
		size_t k = 0;
		for (size_t i = 0; i < na; i++)
			if (present[i])
				items[k++] = atlas[i];
		char *rebuilt = set_text(items, k);
		char *direct = g->csp ? drawn_frame(level, NULL, frame ? sol : NULL, d)
				      : drawn_frame(level, keys ? keys + frame * level->key_size : NULL, NULL, d);
		if (!keys && !g->csp) {
			/* no solution: the start */
			free(direct);
			unsigned char *k0 = lk_xmalloc(level->key_size);
			level->game->initial_state(level, k0);
			direct = drawn_frame(level, k0, NULL, d);
			free(k0);
		}
		if (strcmp(rebuilt, direct) != 0)
			fail_msg("%s frame %zu:\n rebuilt %s\n drawn   %s", lk_record_get(rec, "title"), frame,
				 rebuilt, direct);
		free(rebuilt);
		free(direct);
	}
	assert_int_equal(*step, '\0');
	free(items);
	free(keys);
	free(present);
	free(codes);
	free(atlas);
	lk_level_free(level);
	film_release(&f);
}

void test_films_rebuild_every_frame(void **state)
{
	(void)state;
	const char *files[] = { "view.xsb", "small.xsb", "fruit.xsb", "skiddy.xsb", "comb.xsb" };
	struct film_maker *fm = film_maker_new();
	struct view_dict d;
	view_dict_init(&d);
	size_t films = 0;
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		char *p = path_of(levels_dir(), files[f]);
		struct lk_record *recs;
		size_t n = read_file(p, &recs);
		for (size_t i = 0; i < n; i++) {
			film_check(&recs[i], fm, &d);   /* unsolved: one frame */
			solve_record(&recs[i]);
			film_check(&recs[i], fm, &d);
			films += 2;
		}
		free_records(recs, n);
		free(p);
	}
	assert_true(films > 30);
	view_dict_release(&d);
	film_maker_free(fm);
}

static enum film_solution film_of(const char *text, size_t *nframes, char **note)
{
	struct lk_record rec;
	struct film f;
	struct view_dict d;
	struct film_maker *fm = film_maker_new();
	read_record(text, &rec);
	view_dict_init(&d);
	film_init(&f);
	film_make(fm, &rec, &d, &f);
	enum film_solution s = f.solution;
	*nframes = f.nframes;
	*note = lk_xstrdup(f.note.buf);
	film_release(&f);
	view_dict_release(&d);
	film_maker_free(fm);
	lk_record_release(&rec);
	return s;
}

void test_film_statuses(void **state)
{
	(void)state;
	size_t n;
	char *note;
	assert_int_equal(film_of("#####\n#@$.#\n#####\n", &n, &note), FILM_NO_SOLUTION);
	assert_int_equal(n, 1);
	free(note);
	assert_int_equal(film_of("#####\n#@$.#\n#####\nsolution: R\n", &n, &note), FILM_SOLVED);
	assert_int_equal(n, 2);
	free(note);
	assert_int_equal(film_of("######\n#@$ .#\n######\nsolution: R\n", &n, &note), FILM_UNSOLVED);
	assert_int_equal(n, 2);
	free(note);
	assert_int_equal(film_of("#####\n#@$.#\n#####\nsolution: L\n", &n, &note), FILM_BAD);
	assert_int_equal(n, 1);
	assert_non_null(strstr(note, "walks into a wall"));
	free(note);
	/* Combination: verify decides; an unreadable placement is bad */
	const char *comb = "game: combination\npieces: 1 red rook, 2 blue bishop\n#.#.\no..o\n";
	struct lk_strbuf t = LK_STRBUF_INIT;
	lk_strbuf_addf(&t, "%ssolution: #2#1/o2.o\n", comb);
	assert_int_equal(film_of(t.buf, &n, &note), FILM_SOLVED);
	assert_int_equal(n, 2);
	free(note);
	lk_strbuf_reset(&t);
	lk_strbuf_addf(&t, "%ssolution: #1#2/o2.o\n", comb);   /* the rook sees a bishop */
	assert_int_equal(film_of(t.buf, &n, &note), FILM_UNSOLVED);
	free(note);
	lk_strbuf_reset(&t);
	lk_strbuf_addf(&t, "%ssolution: #2#1\n", comb);
	assert_int_equal(film_of(t.buf, &n, &note), FILM_BAD);
	assert_int_equal(n, 1);
	free(note);
	lk_strbuf_release(&t);
	/* not a level: no picture, and why */
	struct lk_record rec;
	struct film f;
	struct view_dict d;
	struct film_maker *fm = film_maker_new();
	read_record("game: nosuchgame\n#####\n", &rec);
	view_dict_init(&d);
	film_init(&f);
	film_make(fm, &rec, &d, &f);
	assert_false(f.drawn);
	assert_true(f.note.len > 0);
	film_release(&f);
	view_dict_release(&d);
	film_maker_free(fm);
	lk_record_release(&rec);
}

/* ------------------------------------------------------------- writers */

static char *view_text(enum lk_view_format format, const char *records)
{
	FILE *fp = tmpfile();
	struct lk_reader r;
	struct lk_record rec;
	struct lk_view_writer w;
	struct lk_strbuf out = LK_STRBUF_INIT;
	struct lk_view_options opt = { .title = "a <test>" };
	fputs(records, fp);
	rewind(fp);
	lk_reader_init_fp(&r, fp, "test");
	lk_record_init(&rec);
	lk_view_writer_init(&w, NULL, format, &opt);
	while (lk_reader_next(&r, &rec, NULL, NULL) == 1)
		lk_view_writer_format(&w, &rec, &out);
	lk_view_writer_finish_format(&w, &out);
	lk_view_writer_release(&w);
	lk_record_release(&rec);
	lk_reader_close(&r);
	fclose(fp);
	return lk_strbuf_detach(&out, NULL);
}

static size_t count_of(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

void test_svg(void **state)
{
	(void)state;
	char *one = view_text(LK_VIEW_SVG, "title: One\n#####\n#@$.#\n#####\n");
	assert_non_null(strstr(one, "<?xml"));
	assert_non_null(strstr(one, "<title>One</title>"));
	assert_int_equal(count_of(one, "<svg"), 1);
	assert_int_equal(count_of(one, "</svg>"), 1);
	/* the legend: box, goal, player, each a symbol placed once more */
	assert_non_null(strstr(one, ">box</text>"));
	assert_non_null(strstr(one, ">goal</text>"));
	assert_non_null(strstr(one, ">player</text>"));
	assert_null(strstr(one, ">box on a goal</text>"));   /* not in this level */
	assert_int_equal(count_of(one, "<g id=\"s"), 4);
	free(one);
	char *two = view_text(LK_VIEW_SVG, "; header\n\ntitle: One\n#####\n#@$.#\n#####\n\n"
				 "title: Two\ngame: fruit\n#####\n#a.a#\n#####\n\n#####\n#@$X#\n#####\n");
	assert_non_null(strstr(two, ">One</text>"));
	assert_non_null(strstr(two, ">Two</text>"));
	assert_non_null(strstr(two, ">fruit of colour a</text>"));
	assert_non_null(strstr(two, "unknown sokoban cell"));   /* the third: why not drawn */
	free(two);
}

/* Captions are shortened in the middle, by characters (not bytes), and
 * keep more of the end, which tells a pack's levels apart. */
void test_middle_cut(void **state)
{
	(void)state;
	struct lk_strbuf out = LK_STRBUF_INIT;
	view_middle_cut("Microban 1", 10, &out);
	assert_string_equal(out.buf, "Microban 1");
	lk_strbuf_reset(&out);
	view_middle_cut("Boxoban medium/valid/000.txt #17", 16, &out);
	assert_string_equal(out.buf, "Boxoba\xe2\x80\xa6" "0.txt #17");
	lk_strbuf_reset(&out);
	/* é and … are one character each: never cut inside one */
	view_middle_cut("\xc3\xa9t\xc3\xa9 \xc3\xa9t\xc3\xa9 \xc3\xa9t\xc3\xa9 12", 6, &out);
	assert_string_equal(out.buf, "\xc3\xa9t\xe2\x80\xa6" " 12");
	lk_strbuf_release(&out);
}

void test_ansi(void **state)
{
	(void)state;
	const char *text = "; a comment\ntitle: One\n#####\n#@$.#\n#####\nsolvable: yes\n";
	char *out = view_text(LK_VIEW_ANSI, text);
	assert_non_null(strstr(out, "\033["));
	/* without its escapes it is the record */
	struct lk_strbuf plain = LK_STRBUF_INIT;
	for (const char *p = out; *p; p++) {
		if (*p == '\033') {
			while (*p && *p != 'm')
				p++;
			continue;
		}
		lk_strbuf_addch(&plain, *p);
	}
	struct lk_strbuf want = LK_STRBUF_INIT;
	lk_strbuf_addf(&want, "%s\n", text);
	assert_string_equal(plain.buf, want.buf);
	lk_strbuf_release(&plain);
	lk_strbuf_release(&want);
	/* the wall and the floor differ in background */
	assert_non_null(strstr(out, "\033[48;5;"));
	free(out);
}

void test_page(void **state)
{
	(void)state;
	char *page = view_text(LK_VIEW_HTML, "title: </script><!-- x\n#####\n#@$.#\n#####\nsolution: R\n");
	const char *data = strstr(page, "id=\"lk-data\">");
	assert_non_null(data);
	data += strlen("id=\"lk-data\">");
	/* the title cannot end the data early: '<' is escaped in it */
	const char *end = strchr(data, '<');
	assert_string_equal(end, "</script>\n</body>\n</html>\n");
	assert_non_null(strstr(data, "\\u003c/script\\u003e\\u003c!-- x"));
	assert_non_null(strstr(data, "\"sol\":\"solved\""));
	assert_non_null(strstr(data, "\"nf\":2"));
	assert_non_null(strstr(page, "<title>a &lt;test&gt;</title>"));
	assert_non_null(strstr(page, "</html>\n"));
	free(page);
	/* no record at all is still a page */
	page = view_text(LK_VIEW_HTML, "");
	assert_non_null(strstr(page, "</html>\n"));
	free(page);
}

void test_choose(void **state)
{
	(void)state;
	struct {
		const char *format, *output, *color, *no_color;
		bool tty;
		int rc;
		enum lk_view_format view;
	} cases[] = {
		{ NULL, NULL, NULL, NULL, false, 0, LK_VIEW_NONE },
		{ NULL, NULL, NULL, NULL, true, 0, LK_VIEW_ANSI },
		{ NULL, NULL, NULL, "1", true, 0, LK_VIEW_NONE },      /* NO_COLOR */
		{ NULL, NULL, NULL, "", true, 0, LK_VIEW_ANSI },       /* empty: not set */
		{ NULL, NULL, "always", "1", false, 0, LK_VIEW_ANSI }, /* asked for */
		{ NULL, NULL, "never", NULL, true, 0, LK_VIEW_NONE },
		{ "text", NULL, "auto", NULL, true, 0, LK_VIEW_ANSI },
		{ "tsv", NULL, "always", NULL, true, 0, LK_VIEW_NONE },
		{ NULL, "out.xsb", NULL, NULL, true, 0, LK_VIEW_NONE },  /* a file is no terminal */
		{ NULL, "-", NULL, NULL, true, 0, LK_VIEW_ANSI },
		{ NULL, "pack.HTML", NULL, NULL, false, 0, LK_VIEW_HTML },
		{ NULL, "pack.htm", NULL, NULL, false, 0, LK_VIEW_HTML },
		{ NULL, "level.svg", NULL, NULL, false, 0, LK_VIEW_SVG },
		{ "text", "pack.html", NULL, NULL, false, 0, LK_VIEW_NONE },
		{ "svg", NULL, NULL, NULL, true, 0, LK_VIEW_SVG },
		{ "ansi", "x.xsb", NULL, "1", false, 0, LK_VIEW_ANSI },
		{ "ansi", NULL, "never", NULL, true, 0, LK_VIEW_PLAIN },  /* the view, plain */
		{ "ansi", "x.txt", "never", "1", false, 0, LK_VIEW_PLAIN },
		{ "png", NULL, NULL, NULL, false, -1, LK_VIEW_NONE },
		{ NULL, NULL, "yes", NULL, false, -1, LK_VIEW_NONE },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		enum lk_view_format v = LK_VIEW_HTML;
		if (cases[i].no_color)
			setenv("NO_COLOR", cases[i].no_color, 1);
		else
			unsetenv("NO_COLOR");
		int rc = lk_view_choose(cases[i].format, cases[i].output, cases[i].color, cases[i].tty, &v,
					&err);
		if (rc != cases[i].rc || (rc == 0 && v != cases[i].view))
			fail_msg("case %zu: rc %d view %d (%s)", i, rc, (int)v, err.buf);
		if (rc < 0)
			assert_true(err.len > 0);
		lk_strbuf_release(&err);
	}
	unsetenv("NO_COLOR");
}
