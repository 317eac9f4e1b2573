/*
 * room.c - random rooms (see room.h).
 */
#include "levelkit/room.h"

/* Shapes stamped at the walker's square, as offsets (up to 5 cells). */
static const int shapes[][5][2] = {
	{ { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } },     /* one square */
	{ { 0, 0 }, { 1, 0 }, { 1, 0 }, { 1, 0 }, { 1, 0 } },     /* two across */
	{ { 0, 0 }, { 0, 1 }, { 0, 1 }, { 0, 1 }, { 0, 1 } },     /* two down */
	{ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, 1 } },     /* 2x2 block */
	{ { 0, 0 }, { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } },   /* plus */
	{ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 0, 1 }, { 0, 1 } },     /* corner */
	{ { 0, 0 }, { 1, 0 }, { 2, 0 }, { 2, 0 }, { 2, 0 } },     /* three across */
	{ { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 2 }, { 0, 2 } },     /* three down */
};
/* How often each shape is drawn (single squares and pairs make
 * corridors; blocks make rooms). */
static const unsigned shape_weight[] = { 6, 3, 3, 2, 1, 2, 1, 1 };

/* How much floor lk_room_carve aims at: the share of the interior, at
 * least one cell. */
static int room_want(int inner, double share)
{
	int want = (int)(share * inner + 0.5);
	return want < 1 ? 1 : want;
}

int lk_room_max_floor(int w, int h, double share)
{
	if (w < 3 || h < 3)
		return 0;
	int inner = (w - 2) * (h - 2), most = room_want(inner, share) + 4;
	return most < inner ? most : inner;
}

bool lk_room_can_hold(int w, int h, double max_share, int need, int *smallest)
{
	*smallest = 0;
	if (lk_room_max_floor(w, h, max_share) >= need)
		return true;
	for (int n = 3; n <= LK_GRID_MAX_SIDE && !*smallest; n++)
		if (lk_room_max_floor(n, n, max_share) >= need)
			*smallest = n;
	return false;
}

int lk_room_carve(struct lk_grid *g, struct lk_rng *rng, double share)
{
	int w = g->width, h = g->height, floor = 0;
	for (int i = 0; i < w * h; i++)
		g->cells[i] = '#';
	if (w < 3 || h < 3)
		return 0;
	int inner = (w - 2) * (h - 2);
	int want = room_want(inner, share);
	unsigned total = 0;
	for (size_t i = 0; i < sizeof shape_weight / sizeof shape_weight[0]; i++)
		total += shape_weight[i];
	int x = 1 + (int)lk_rng_below(rng, (uint32_t)(w - 2));
	int y = 1 + (int)lk_rng_below(rng, (uint32_t)(h - 2));
	int dir = (int)lk_rng_below(rng, 4);
	for (int step = 0; floor < want && step < 50 * inner; step++) {
		unsigned r = lk_rng_below(rng, total), shape = 0;
		while (r >= shape_weight[shape])
			r -= shape_weight[shape++];
		for (int k = 0; k < 5; k++) {
			int cx = x + shapes[shape][k][0], cy = y + shapes[shape][k][1];
			if (cx < 1 || cy < 1 || cx > w - 2 || cy > h - 2)
				continue;
			if (lk_grid_get(g, cx, cy) == '#') {
				lk_grid_set(g, cx, cy, ' ');
				floor++;
			}
		}
		if (lk_rng_below(rng, 100) < 35)
			dir = (int)lk_rng_below(rng, 4);
		int nx = x + lk_dir_dx[dir], ny = y + lk_dir_dy[dir];
		if (nx >= 1 && ny >= 1 && nx <= w - 2 && ny <= h - 2) {
			x = nx;
			y = ny;
		} else {
			dir = (int)lk_rng_below(rng, 4);
		}
	}
	return floor;
}

int lk_room_pick(const struct lk_grid *g, struct lk_rng *rng, char c)
{
	int n = 0;
	for (int i = 0; i < g->width * g->height; i++)
		n += g->cells[i] == c;
	if (!n)
		return -1;
	int k = (int)lk_rng_below(rng, (uint32_t)n);
	for (int i = 0; i < g->width * g->height; i++)
		if (g->cells[i] == c && k-- == 0)
			return i;
	return -1;
}
