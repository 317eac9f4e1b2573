/*
 * registry.c - the games levelkit knows, each registered by one line of
 * LK_GAME_LIST (its folder src/games/NAME defines `lk_game_NAME`).  Every
 * list of games in help texts, messages and the docs' tables is made from
 * lk_games, never written by hand.
 */
#include "levelkit/game.h"
#include "levelkit/generate.h"

#define LK_GAME_LIST(X) \
	X(sokoban)      \
	X(fruit)        \
	X(skiddy)       \
	X(combination)  \
	X(puzzlescript) \
	X(laser)

#define LK_X(name) extern const struct lk_game lk_game_##name;
LK_GAME_LIST(LK_X)
#undef LK_X

const struct lk_game *const lk_games[] = {
#define LK_X(name) &lk_game_##name,
	LK_GAME_LIST(LK_X)
#undef LK_X
	NULL,
};
