/*
 * sokoban_draw.c - Sokoban drawn on a canvas: walls, floor, goals, boxes
 * (apart on a goal), the player.
 *
 * Colours are from Okabe and Ito's palette, which stays distinct under the
 * common colour-vision deficiencies, and a box on a goal also differs by
 * shape: the goal's diamond shows on it.  The player is drawn small enough
 * that a goal under it still shows.
 */
#include "levelkit/canvas.h"
#include "sokoban.h"

static const struct lk_paint wall_paint = { .fill = 0x4d4d5c };
static const struct lk_paint floor_paint = { .fill = 0xebe6d7 };
static const struct lk_paint goal_paint = { .hollow = true, .stroke = 0xd55e00, .width = 0.09 };
static const struct lk_paint box_paint = { .fill = 0xe69f00, .stroke = 0x7a4f00, .width = 0.06 };
static const struct lk_paint box_goal_paint = { .fill = 0x56b4e9, .stroke = 0x1f5f85, .width = 0.06 };
static const struct lk_paint player_paint = { .fill = 0x009e73, .stroke = 0x00483a, .width = 0.06 };
static const struct lk_paint eye_paint = { .fill = 0xffffff };

static void goal_shape(struct lk_canvas *c)
{
	static const double diamond[] = { 0.5, 0.22, 0.78, 0.5, 0.5, 0.78, 0.22, 0.5 };
	lk_canvas_poly(c, diamond, 4, &goal_paint);
}

static void box_shape(struct lk_canvas *c, const struct lk_paint *p)
{
	lk_canvas_round_rect(c, 0.1, 0.1, 0.8, 0.8, 0.1, p);
	lk_canvas_rect(c, 0.22, 0.22, 0.56, 0.56, &(struct lk_paint){ .hollow = true,
		.stroke = p->stroke, .width = 0.04 });
}

static void define_symbols(struct lk_canvas *c)
{
	if (lk_canvas_begin_symbol(c, "sokoban.goal", "goal")) {
		goal_shape(c);
		lk_canvas_end_symbol(c);
	}
	if (lk_canvas_begin_symbol(c, "sokoban.box", "box")) {
		box_shape(c, &box_paint);
		lk_canvas_end_symbol(c);
	}
	if (lk_canvas_begin_symbol(c, "sokoban.box-goal", "box on a goal")) {
		box_shape(c, &box_goal_paint);
		goal_shape(c);
		lk_canvas_end_symbol(c);
	}
	if (lk_canvas_begin_symbol(c, "sokoban.player", "player")) {
		lk_canvas_circle(c, 0.5, 0.5, 0.24, &player_paint);
		lk_canvas_circle(c, 0.42, 0.44, 0.05, &eye_paint);
		lk_canvas_circle(c, 0.58, 0.44, 0.05, &eye_paint);
		lk_canvas_end_symbol(c);
	}
}

void soko_draw(const struct lk_level *level, const void *key, const char *placement,
	       struct lk_canvas *c)
{
	(void)placement;
	const struct sokoban *s = (const struct sokoban *)level;
	const uint8_t *k = key;
	int w = s->width - 2, h = s->height - 2;
	lk_canvas_size(c, w, h);
	define_symbols(c);
	if (lk_canvas_begin_board(c)) {
		lk_canvas_layer(c, LK_LAYER_GROUND);
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++) {
				int cell = (y + 1) * s->width + x + 1;
				char ch = s->board[cell];
				if (ch == '#')
					lk_canvas_rect(c, x, y, 1, 1, &wall_paint);
				else if (!s->wall[cell] || ch != ' ')
					lk_canvas_rect(c, x, y, 1, 1, &floor_paint);
			}
		}
		lk_canvas_layer(c, LK_LAYER_MARKS);
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++) {
				char ch = s->board[(y + 1) * s->width + x + 1];
				if (ch == '.')
					lk_canvas_use(c, "sokoban.goal", x, y, 0);
				else if (ch == '*')   /* a box fixed on its goal */
					lk_canvas_use(c, "sokoban.box-goal", x, y, 0);
			}
		}
		lk_canvas_end_board(c);
	}
	lk_canvas_layer(c, LK_LAYER_PIECES);
	const uint8_t *bits = k ? k + 2 : s->box0;
	for (int i = 0; i < s->nfloor; i++) {
		if (!bits[i >> 3]) {
			i |= 7;   /* eight squares without a box */
			continue;
		}
		if (!soko_bit(bits, i))
			continue;
		int cell = s->cell_of[i];
		lk_canvas_use(c, s->goal[cell] ? "sokoban.box-goal" : "sokoban.box",
			      cell % s->width - 1, cell / s->width - 1, 0);
	}
	unsigned pk = k ? soko_key_player(k) : (unsigned)s->compact[s->player0];
	if (pk != SOKO_ANYWHERE) {
		int cell = s->cell_of[pk];
		lk_canvas_use(c, "sokoban.player", cell % s->width - 1, cell / s->width - 1, 0);
	}
}
