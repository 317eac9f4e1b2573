/*
 * game.c - the game interface's own code: finding a game in the registry
 * (src/games/registry.c), the validate-then-build loader, the canonical
 * text of a level.
 */
#include "levelkit/game.h"

#include <stdlib.h>
#include <string.h>

#include "levelkit/grid.h"

const char *lk_status_name(enum lk_status status)
{
	switch (status) {
	case LK_SOLVED: return "yes";
	case LK_UNSOLVABLE: return "no";
	default: return "unknown";
	}
}

const char *lk_limit_name(enum lk_limit limit)
{
	switch (limit) {
	case LK_LIMIT_STATES: return "states";
	case LK_LIMIT_MEMORY: return "memory";
	case LK_LIMIT_TIME: return "time";
	case LK_LIMIT_INTERRUPTED: return "interrupted";
	default: return "none";
	}
}

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
		lk_strbuf_addf(err, "unknown game '%s' (the games are ", name);
		lk_game_names(err, " and ");
		lk_strbuf_addch(err, ')');
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

void lk_level_canonical(const struct lk_level *level, const struct lk_record *rec,
			struct lk_strbuf *out)
{
	if (level->game->canonical) {
		level->game->canonical(level, out);
		return;
	}
	/* Fallback: the grid text, trimmed of blank margins, in the
	 * orientation whose text sorts first. */
	size_t first, n = lk_record_grid(rec, &first);
	const char **rows = lk_xmalloc((n ? n : 1) * sizeof *rows);
	for (size_t i = 0; i < n; i++)
		rows[i] = rec->lines[first + i].text;
	struct lk_grid g;
	struct lk_grid_parse opt = { .fill = ' ', .run_length = false };
	struct lk_strbuf err = LK_STRBUF_INIT, best = LK_STRBUF_INIT, text = LK_STRBUF_INIT;
	size_t bad;
	if (lk_grid_parse_rows(&g, rows, n, &opt, &err, &bad) == 0) {
		for (int sym = 0; sym < LK_SYM_COUNT; sym++) {
			struct lk_grid t;
			lk_grid_transform(&t, &g, sym);
			lk_strbuf_reset(&text);
			lk_grid_write_trimmed(&t, &text);
			if (sym == 0 || strcmp(text.buf, best.buf) < 0) {
				lk_strbuf_reset(&best);
				lk_strbuf_add(&best, text.buf, text.len);
			}
			lk_grid_release(&t);
		}
		lk_grid_release(&g);
	}
	lk_strbuf_add(out, best.buf, best.len);
	lk_strbuf_release(&best);
	lk_strbuf_release(&text);
	lk_strbuf_release(&err);
	free(rows);
}
