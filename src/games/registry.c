/*
 * registry.c - the games levelkit knows, each registered by one line of
 * LK_GAME_LIST (its folder src/games/NAME defines `lk_game_NAME`), and
 * what finds them by name: games, generators, a record's level.  Every
 * list of games in help texts, messages and the docs' tables is made from
 * lk_games, never written by hand.  This file is the top of the games
 * layer: no game's folder and nothing below uses it.
 */
#include "levelkit/registry.h"

#include <string.h>

#define LK_GAME_LIST(X) \
	X(sokoban)      \
	X(fruit)        \
	X(skiddy)       \
	X(combination)  \
	X(puzzlescript) \
	X(laser)        \
	X(lightsout)

#define LK_X(name) extern const struct lk_game lk_game_##name;
LK_GAME_LIST(LK_X)
#undef LK_X

const struct lk_game *const lk_games[] = {
#define LK_X(name) &lk_game_##name,
	LK_GAME_LIST(LK_X)
#undef LK_X
	NULL,
};

const struct lk_game *lk_game_find(const char *name)
{
	for (size_t i = 0; lk_games[i]; i++)
		if (strcmp(lk_games[i]->name, name) == 0)
			return lk_games[i];
	return NULL;
}

void lk_game_names(struct lk_strbuf *out, const char *last_sep)
{
	size_t n = 0;
	while (lk_games[n])
		n++;
	for (size_t i = 0; i < n; i++)
		lk_strbuf_addf(out, "%s%s", i == 0 ? "" : i + 1 == n ? last_sep : ", ", lk_games[i]->name);
}

struct lk_level *lk_level_load(const struct lk_record *rec,
			       const struct lk_level_options *opt,
			       struct lk_strbuf *err, size_t *lineno)
{
	const char *name = lk_record_game(rec);
	const struct lk_game *game = lk_game_find(name);
	if (game)
		return lk_game_load_level(game, rec, opt, err, lineno);
	lk_strbuf_addf(err, "unknown game '%s' (the games are ", name);
	lk_game_names(err, " and ");
	lk_strbuf_addch(err, ')');
	long field = lk_record_find(rec, "game");
	size_t line = field >= 0 ? (size_t)field : (size_t)-1;
	*lineno = line < rec->nlines && rec->lines[line].lineno ? rec->lines[line].lineno
								: rec->first_lineno;
	return NULL;
}

/* "sokoban, fruit and skiddy": the games with a generator that accepts(g). */
static void games_where(bool (*accepts)(const struct lk_generator *g, const void *arg),
			const void *arg, struct lk_strbuf *out)
{
	const char *games[32];
	size_t n = 0;
	const struct lk_generator *g;
	for (size_t it = 0; (g = lk_generator_next(&it)) != NULL && n < 32;) {
		bool dup = false;
		for (size_t j = 0; j < n; j++)
			dup |= strcmp(games[j], g->game) == 0;
		if (!dup && accepts(g, arg))
			games[n++] = g->game;
	}
	for (size_t i = 0; i < n; i++)
		lk_strbuf_addf(out, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", games[i]);
}

static bool has_bit(const struct lk_generator *g, const void *arg)
{
	return g->accepts & *(const unsigned *)arg;
}

void lk_generator_games_accepting(unsigned bit, struct lk_strbuf *out)
{
	games_where(has_bit, &bit, out);
}

const struct lk_gen_field *lk_generator_field(const struct lk_generator *g, const char *name)
{
	for (const struct lk_gen_field *f = g->fields; f && f->name; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

static bool has_field(const struct lk_generator *g, const void *arg)
{
	return lk_generator_field(g, arg) != NULL;
}

void lk_generator_games_judging(const char *field, struct lk_strbuf *out)
{
	games_where(has_field, field, out);
}

const struct lk_generator *lk_generator_next(size_t *it)
{
	/* it = game index * 256 + generator index */
	for (;;) {
		size_t game = *it / 256, gen = *it % 256;
		if (!lk_games[game])
			return NULL;
		const struct lk_generator *const *list = lk_games[game]->generators;
		if (list && list[gen]) {
			(*it)++;
			return list[gen];
		}
		*it = (game + 1) * 256;
	}
}

const struct lk_generator *lk_generator_find(const char *game, const char *name)
{
	const struct lk_game *gm = lk_game_find(game);
	for (size_t i = 0; gm && gm->generators && gm->generators[i]; i++)
		if (!name || strcmp(gm->generators[i]->name, name) == 0)
			return gm->generators[i];
	return NULL;
}
