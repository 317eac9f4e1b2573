/*
 * game.c - the registry of games and the validate-then-build loader.
 */
#include "levelkit/game.h"

#include <string.h>

extern const struct lk_game lk_game_sokoban;

const struct lk_game *const lk_games[] = {
	&lk_game_sokoban,
	NULL,
};

const struct lk_game *lk_game_find(const char *name)
{
	for (size_t i = 0; lk_games[i]; i++)
		if (strcmp(lk_games[i]->name, name) == 0)
			return lk_games[i];
	return NULL;
}

bool lk_name_in(const char *name, const char *const *list)
{
	for (size_t i = 0; list && list[i]; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

static size_t source_line(const struct lk_record *rec, size_t line)
{
	if (line < rec->nlines && rec->lines[line].lineno)
		return rec->lines[line].lineno;
	return rec->first_lineno;
}

struct lk_level *lk_level_load(const struct lk_record *rec,
			       const struct lk_level_options *opt,
			       struct lk_strbuf *err, size_t *lineno)
{
	const char *name = lk_record_game(rec);
	const struct lk_game *game = lk_game_find(name);
	long field = lk_record_find(rec, "game");

	if (!game) {
		lk_strbuf_addf(err, "unknown game '%s'", name);
		*lineno = source_line(rec, field >= 0 ? (size_t)field : (size_t)-1);
		return NULL;
	}
	if (opt->metric && !lk_name_in(opt->metric, game->metrics)) {
		lk_strbuf_addf(err, "game %s has no metric '%s'", game->name, opt->metric);
		*lineno = rec->first_lineno;
		return NULL;
	}
	if (opt->heuristic && !lk_name_in(opt->heuristic, game->heuristics)) {
		lk_strbuf_addf(err, "game %s has no heuristic '%s'", game->name, opt->heuristic);
		*lineno = rec->first_lineno;
		return NULL;
	}
	size_t line = (size_t)-1;
	if (game->validate(rec, opt, err, &line) < 0) {
		*lineno = source_line(rec, line);
		return NULL;
	}
	return game->new_level(rec, opt);
}

void lk_level_free(struct lk_level *level)
{
	if (level)
		level->game->free_level(level);
}
