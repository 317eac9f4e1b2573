/*
 * rules_grid.h - what the rule-language tests share (test_rules.c,
 * test_rules_lang.c): a legend and grids of it written one character per
 * cell, parsing and running rules on them.
 *
 * The legend is Sokoban's (Wall, Player, Crate alias Box, Target alias
 * Goal, Placeholder; Wall, Player and Crate share a layer; the property
 * Obstacle) and, for the language's PuzzleScript features, a Gem on the
 * crates' layer, the properties Pushable (Crate or Gem) and Solid, the
 * aggregate Stored (Crate and Target) and the synonym Parcel (Crate).
 * Object i is bit 1 << i of a cell (one word).
 */
#ifndef LEVELKIT_TEST_RULES_GRID_H
#define LEVELKIT_TEST_RULES_GRID_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/generate.h"
#include "levelkit/registry.h"
#include "levelkit/rules.h"
#include "levelkit/transform.h"
#include "levelkit/rng.h"
#include "levelkit/strbuf.h"

enum { WALL = 1, PLAYER = 2, CRATE = 4, TARGET = 8, PH = 16, GEM = 32 };

static const struct lk_legend_object objects[] = {
	{ "Wall", NULL, 0 },
	{ "Player", NULL, 0 },
	{ "Crate", "Box", 0 },
	{ "Target", "Goal", 1 },
	{ "Placeholder", NULL, 2 },
	{ "Gem", NULL, 0 },
};
static const int obstacles[] = { 0, 1, 2 }, pushables[] = { 2, 5 }, solids[] = { 0, 1, 2, 5 },
		 stored[] = { 2, 3 }, parcels[] = { 2 };
static const struct lk_legend_property properties[] = {
	{ "Obstacle", obstacles, 3, false },
	{ "Pushable", pushables, 2, false },
	{ "Solid", solids, 4, false },
	{ "Stored", stored, 2, true },      /* an aggregate: Crate and Target */
	{ "Parcel", parcels, 1, false },     /* a synonym of Crate */
};
static const struct lk_legend legend = { objects, 6, properties, 5 };

/* One character per cell content. */
static const struct {
	char c;
	uint64_t mask;
} glyphs[] = {
	{ ' ', 0 }, { '#', WALL }, { '@', PLAYER }, { '$', CRATE }, { '.', TARGET },
	{ '*', CRATE | TARGET }, { '+', PLAYER | TARGET }, { '%', WALL | TARGET },
	{ 'x', PH }, { 'X', CRATE | PH }, { 'T', TARGET | PH }, { 'Y', CRATE | TARGET | PH },
	{ 'g', GEM }, { 'G', GEM | TARGET },
};

static inline uint64_t mask_of(char c)
{
	for (size_t i = 0; i < sizeof glyphs / sizeof glyphs[0]; i++)
		if (glyphs[i].c == c)
			return glyphs[i].mask;
	fail_msg("no glyph '%c'", c);
	return 0;
}

static inline char char_of(uint64_t m)
{
	for (size_t i = 0; i < sizeof glyphs / sizeof glyphs[0]; i++)
		if (glyphs[i].mask == m)
			return glyphs[i].c;
	return '?';
}

/* Rows separated by '\n', all of one width. */
static inline void cells_from(struct lk_cells *c, const char *text)
{
	const char *nl = strchr(text, '\n');
	int w = nl ? (int)(nl - text) : (int)strlen(text), h = 0;
	size_t len = strlen(text);
	c->width = w;
	c->height = (int)((len + 1) / (size_t)(w + 1));
	c->cell = calloc((size_t)w * (size_t)c->height, sizeof *c->cell);
	c->frozen = NULL;
	c->words = 1;
	c->cell_ok = NULL;
	c->cell_ok_ctx = NULL;
	assert_non_null(c->cell);
	for (const char *row = text; *row; h++) {
		assert_true(h < c->height);
		for (int x = 0; x < w; x++) {
			assert_true(row[x] != '\0' && row[x] != '\n');
			c->cell[h * w + x] = mask_of(row[x]);
		}
		row += w;
		assert_true(*row == '\n' || *row == '\0');
		if (*row)
			row++;
	}
	assert_int_equal(h, c->height);
}

/* The cells as text, rows separated by '\n' (static buffer). */
static inline const char *cells_text(const struct lk_cells *c)
{
	static char buf[4096];
	size_t at = 0;
	for (int y = 0; y < c->height; y++) {
		for (int x = 0; x < c->width; x++)
			buf[at++] = char_of(c->cell[y * c->width + x]);
		if (y + 1 < c->height)
			buf[at++] = '\n';
	}
	buf[at] = '\0';
	return buf;
}

static inline int count_mask(const struct lk_cells *c, uint64_t bit)
{
	int n = 0;
	for (int i = 0; i < c->width * c->height; i++)
		n += (c->cell[i] & bit) != 0;
	return n;
}

/* A preset of Sokoban's transformer (static text, NULL if none). */
static inline const char *preset_text(const char *name)
{
	static char buf[8][2048];
	static int next;
	const struct lk_generator *g = lk_generator_find("sokoban", "transform");
	struct lk_gen_options o;
	struct lk_strbuf out = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
	assert_non_null(g);
	assert_non_null(g->transform);
	lk_gen_options_init(&o);
	if (!lk_transform_has_preset(g->transform, name))
		return NULL;
	assert_int_equal(lk_transform_preset(g->transform, &o, name, &out, &err), 0);
	char *b = buf[next++ % 8];
	assert_true(out.len < sizeof buf[0]);
	memcpy(b, out.buf, out.len + 1);
	lk_strbuf_release(&out);
	lk_strbuf_release(&err);
	return b;
}

static inline struct lk_rules *parse_ok(const char *text)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_rules *r = lk_rules_parse(text, &legend, &err);
	if (!r)
		fail_msg("rules do not parse: %s\n%s", err.buf, text);
	lk_strbuf_release(&err);
	return r;
}

/* Apply rules once to grid with rng seed; the result text into out (a
 * copy) and the number of rewrites returned. */
static inline unsigned run(const char *rules, const char *grid, uint64_t seed,
			   const uint8_t *frozen, char **out)
{
	struct lk_rules *r = parse_ok(rules);
	struct lk_cells c;
	struct lk_rng rng;
	cells_from(&c, grid);
	c.frozen = frozen;
	lk_rng_seed(&rng, seed);
	unsigned n = lk_rules_apply(r, &c, &rng);
	*out = lk_xstrdup(cells_text(&c));
	assert_non_null(*out);
	free(c.cell);
	lk_rules_free(r);
	return n;
}

/* Check that rules turn grid into want with `changes` rewrites. */
static inline void expect(const char *rules, const char *grid, const char *want, unsigned changes)
{
	char *got;
	unsigned n = run(rules, grid, 1, NULL, &got);
	if (strcmp(got, want) != 0)
		fail_msg("rules\n%s\non\n%s\ngave\n%s\nexpected\n%s", rules, grid, got, want);
	assert_int_equal(n, changes);
	free(got);
}

/* The rules must fail to parse with a message starting "line N: " and
 * containing want. */
static inline void parse_error(const char *text, int line, const char *want)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_rules *r = lk_rules_parse(text, &legend, &err);
	if (r)
		fail_msg("rules parse but should not:\n%s", text);
	char prefix[32];
	snprintf(prefix, sizeof prefix, "line %d: ", line);
	if (strncmp(err.buf, prefix, strlen(prefix)) != 0 || !strstr(err.buf, want))
		fail_msg("rules\n%s\ngave '%s', expected '%s...%s'", text, err.buf, prefix, want);
	lk_strbuf_release(&err);
}

#endif
