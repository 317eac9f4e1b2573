/*
 * skiddy.c - Skiddy (BigBangPixel, 2016): every skiddy slides at once; a
 * skiddy leaves the board through an exit of its colour; the level is won
 * when no skiddy is left.  Skiddies of one colour that touch stick together
 * for good; a max-combo sends all skiddies of a colour out in one move.
 *
 * Cells: '#' wall, ' ' or '.' floor, exits 'R' 'G' 'B' 'Y' 'P' (on the
 * border only) and skiddies 'r' 'g' 'b' 'y' 'p' (red, green, blue, yellow,
 * purple), 'X' block, 'O' pit, 'C' crate, 'I' ice cube.  Boards are 5x4 to
 * 8x7 (either way round) and their border holds only walls and exits.  The
 * rules the article leaves open are fixed in docs/games/skiddy.md.
 */
#include "slide_game.h"

#include "levelkit/grid.h"

static const struct slide_char skiddy_legend[] = {
	{ '#', LK_T_WALL, LK_P_NONE, 0, 0 },
	{ 'X', LK_T_BLOCK, LK_P_NONE, 0, 0 },
	{ 'O', LK_T_PIT, LK_P_NONE, 0, 0 },
	{ 'C', LK_T_FLOOR, LK_P_CRATE, 0, 0 },
	{ 'I', LK_T_FLOOR, LK_P_ICE, 0, 0 },
	{ 'R', LK_T_EXIT, LK_P_NONE, 0, 0 }, { 'r', LK_T_FLOOR, LK_P_SKIDDY, 0, 0 },
	{ 'G', LK_T_EXIT, LK_P_NONE, 1, 0 }, { 'g', LK_T_FLOOR, LK_P_SKIDDY, 1, 0 },
	{ 'B', LK_T_EXIT, LK_P_NONE, 2, 0 }, { 'b', LK_T_FLOOR, LK_P_SKIDDY, 2, 0 },
	{ 'Y', LK_T_EXIT, LK_P_NONE, 3, 0 }, { 'y', LK_T_FLOOR, LK_P_SKIDDY, 3, 0 },
	{ 'P', LK_T_EXIT, LK_P_NONE, 4, 0 }, { 'p', LK_T_FLOOR, LK_P_SKIDDY, 4, 0 },
};

static const char *skiddy_check(const struct lk_slide_board *b, int *bad)
{
	int w = b->width, h = b->height, skiddies = 0;
	for (int c = 0; c < w * h; c++) {
		int x = c % w, y = c / w;
		bool border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
		uint8_t t = b->terrain[c];
		*bad = c;
		if (border && t != LK_T_WALL && t != LK_T_EXIT)
			return "the border may hold only walls and exits";
		if (!border && t == LK_T_EXIT)
			return "exits belong on the border";
		skiddies += b->piece[c] == LK_P_SKIDDY;
	}
	*bad = 0;
	return skiddies ? NULL : "level has no skiddy";
}

static const struct slide_rules skiddy_rules = {
	.game = "skiddy",
	.legend = skiddy_legend,
	.nlegend = (int)(sizeof skiddy_legend / sizeof skiddy_legend[0]),
	.win_without_skiddies = true,
	.combos = true,
	.oneway_field = false,
	.min_w = 5, .min_h = 4, .max_w = 8, .max_h = 7,
	.check = skiddy_check,
};

static const char *const skiddy_metrics[] = { "moves", NULL };

static int skiddy_validate(const struct lk_record *rec, const struct lk_level_options *opt,
			   struct lk_strbuf *err, size_t *line)
{
	(void)opt;
	return slide_validate(&skiddy_rules, rec, err, line);
}

extern const struct lk_game lk_game_skiddy;

static struct lk_level *skiddy_new(const struct lk_record *rec, const struct lk_level_options *opt)
{
	(void)opt;
	return slide_new_level(&skiddy_rules, &lk_game_skiddy, rec);
}

const struct lk_game lk_game_skiddy = {
	.name = "skiddy",
	.summary = "Skiddy: slide every skiddy out through the exits of its colour",
	.metrics = skiddy_metrics,
	.heuristics = NULL,
	.validate = skiddy_validate,
	.new_level = skiddy_new,
	.free_level = slide_free_level,
	.initial_state = slide_initial_state,
	.successors = slide_successors,
	.is_goal = slide_is_goal,
	.heuristic = NULL,
	.format_solution = slide_format_solution,
	.replay = slide_replay,
	.win_kind = slide_win_kind,
	.whole_graph = true,
	.write_state = slide_write_state,
	.canonical = slide_canonical,
	.draw = slide_draw,
	.replay_keys = slide_replay_keys,
};
