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
#include "skiddy.h"

#include "levelkit/analysis.h"
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
	.draw_terrain = skiddy_draw_terrain,
	.draw_piece = skiddy_draw_piece,
};

/*
 * The star rating (Baldiraghi 2016), exactly as the article states its
 * three rules, each checked only when the one before holds:
 *   1 star:  no dead ends;
 *   2 stars: solvable both with and without the max-combo (and, by rule 1,
 *            no dead end either way);
 *   3 stars: no solution without the combo is shorter than the shortest
 *            solution with it.
 */
static int skiddy_stars(const struct lk_analysis *a)
{
	uint32_t combo = a->shortest_kind[SLIDE_WIN_COMBO];
	uint32_t plain = a->shortest_kind[SLIDE_WIN_PLAIN];
	if (a->dead_ends)
		return 0;
	if (combo == LK_NO_DEPTH || plain == LK_NO_DEPTH)
		return 1;
	return plain >= combo ? 3 : 2;
}

/* rate's Skiddy fields: the shortest max-combo (perfect) solution, the
 * shortest other one, and the stars. */
static void skiddy_graph_fields(const struct lk_level *level, const struct lk_analysis *a,
				struct lk_record *rec)
{
	(void)level;
	if (a->shortest_kind[SLIDE_WIN_COMBO] != LK_NO_DEPTH)
		lk_record_setf(rec, "combo-moves", "%u", a->shortest_kind[SLIDE_WIN_COMBO]);
	if (a->shortest_kind[SLIDE_WIN_PLAIN] != LK_NO_DEPTH)
		lk_record_setf(rec, "noncombo-moves", "%u", a->shortest_kind[SLIDE_WIN_PLAIN]);
	lk_record_setf(rec, "stars", "%d", skiddy_stars(a));
}

static const char *const skiddy_graph_field_names[] = {
	"combo-moves", "noncombo-moves", "stars", NULL
};

static const struct lk_graph_rules skiddy_graph_rules = {
	.write_fields = skiddy_graph_fields,
	.fields = skiddy_graph_field_names,
};

/* Concepts read a solution's win kind by name: `combo` holds when every
 * colour left with the max-combo. */
static const char *const skiddy_win_kind_names[SLIDE_WIN_KINDS] = {
	[SLIDE_WIN_PLAIN] = "noncombo",
	[SLIDE_WIN_COMBO] = "combo",
};

static const struct lk_generator *const skiddy_generators[] = {
	&lk_gen_skiddy_random,
	NULL,
};

const struct lk_game lk_game_skiddy = {
	.name = "skiddy",
	.summary = "Skiddy: slide every skiddy out through the exits of its colour",
	.data = &skiddy_rules,
	SLIDE_GAME_MEMBERS,
	.win_kind = slide_win_kind,
	.win_kinds = SLIDE_WIN_KINDS,
	.win_kind_names = skiddy_win_kind_names,
	.graph_rules = &skiddy_graph_rules,
	.moves_field = "combo-moves",   /* gen --min-moves: the perfect solution */
	.generators = skiddy_generators,
};
