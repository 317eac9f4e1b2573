/*
 * registry.h - the games levelkit knows (src/games/registry.c, the top of
 * the games layer, above every game's folder): a game or a generator by
 * name, the lists help texts and messages name, and a record's level
 * loaded with the game its `game` field names.  Nothing below the games
 * layer uses it: the game interface, search and gen take a game.
 */
#ifndef LEVELKIT_REGISTRY_H
#define LEVELKIT_REGISTRY_H

#include <stddef.h>

#include "levelkit/game.h"
#include "levelkit/generate.h"
#include "levelkit/record.h"
#include "levelkit/strbuf.h"

/* All games, NULL-terminated, in registry order. */
extern const struct lk_game *const lk_games[];
const struct lk_game *lk_game_find(const char *name);
/* The games' names from the registry, for messages and help: "sokoban,
 * fruit, skiddy and combination" with last_sep " and " (or " or "). */
void lk_game_names(struct lk_strbuf *out, const char *last_sep);

/*
 * The level of rec, as lk_game_load_level (game.h) with the game the
 * record names (lk_record_game: sokoban when it names none).  An unknown
 * game is an error that lists the known ones.
 */
struct lk_level *lk_level_load(const struct lk_record *rec,
			       const struct lk_level_options *opt,
			       struct lk_strbuf *err, size_t *lineno);

/* Every generator of every game (game->generators), in registry order:
 * size_t it = 0; while ((g = lk_generator_next(&it))) ... */
const struct lk_generator *lk_generator_next(size_t *it);
/* The games whose generators accept `bit` ("sokoban, fruit and skiddy"). */
void lk_generator_games_accepting(unsigned bit, struct lk_strbuf *out);
/* The generator's declaration of a field of the game's own, or NULL. */
const struct lk_gen_field *lk_generator_field(const struct lk_generator *g, const char *name);
/* The games whose generators can judge by the field ("sokoban"). */
void lk_generator_games_judging(const char *field, struct lk_strbuf *out);
/* Find a generator of a game by name, or the game's first when name is
 * NULL. */
const struct lk_generator *lk_generator_find(const char *game, const char *name);

#endif
