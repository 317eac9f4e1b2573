/*
 * ps_rating.c - what the rating (rating.h) reads of a PuzzleScript level
 * itself: the cells a player can stand on (no object that never moves
 * holds a player's collision layer there) that a flood from the players'
 * start reaches through such cells, and the pieces that may move
 * (dynamic objects other than the players) on those cells, counted at
 * the start; and
 * the free cells' sides that face a blocked cell or the board's edge.
 */
#include <stdlib.h>

#include "ps_game.h"
#include "ps_internal.h"

void ps_rating_counts(const struct ps_game *g, const struct ps_level *map, unsigned *cells,
		      unsigned *objects, unsigned *sides)
{
	int n = map->width * map->height, ow = g->ow;
	/* the layers players are on */
	ps_word *player_layers = lk_xcalloc((size_t)ow + 1, sizeof *player_layers);
	for (int id = 0; id < g->nobjects; id++) {
		int l = g->objects[id].layer;
		if (l < 0 || !ps_bit_get(g->player_mask, id))
			continue;
		const ps_word *lm = g->layer_masks + (size_t)l * (size_t)ow;
		for (int w = 0; w < ow; w++)
			player_layers[w] |= lm[w];
	}
	bool *open = lk_xcalloc((size_t)n + 1, sizeof *open);
	for (int c = 0; c < n; c++) {
		const ps_word *cell = map->cells + (size_t)c * (size_t)ow;
		bool blocked = false;
		for (int w = 0; w < ow; w++)
			blocked |= (cell[w] & g->static_mask[w] & player_layers[w]) != 0;
		open[c] = !blocked;
	}
	/* the board a player takes in: the free cells a flood from the players'
	 * start cells reaches (a game drawn with walls round its room and
	 * background beyond would otherwise count the outside too); a level
	 * without a player keeps every free cell */
	int *stack = lk_xcalloc((size_t)n + 1, sizeof *stack), top = 0;
	bool *seen = lk_xcalloc((size_t)n + 1, sizeof *seen);
	for (int c = 0; c < n; c++) {
		const ps_word *cell = map->cells + (size_t)c * (size_t)ow;
		bool player = false;
		for (int w = 0; w < ow; w++)
			player |= (cell[w] & g->player_mask[w]) != 0;
		if (player && open[c] && !seen[c]) {
			seen[c] = true;
			stack[top++] = c;
		}
	}
	bool flooded = top > 0;
	/* beside[c]: a blocked cell next to the room (a piece there, a log on
	 * water, is the room's too) */
	bool *beside = lk_xcalloc((size_t)n + 1, sizeof *beside);
	while (top > 0) {
		int c = stack[--top], y = c % map->height;   /* column by column */
		int next[4] = { y > 0 ? c - 1 : -1, y < map->height - 1 ? c + 1 : -1,
				c - map->height, c + map->height };
		for (int k = 0; k < 4; k++) {
			if (next[k] < 0 || next[k] >= n || seen[next[k]])
				continue;
			if (!open[next[k]]) {
				beside[next[k]] = true;
				continue;
			}
			seen[next[k]] = true;
			stack[top++] = next[k];
		}
	}
	/* the cells and the pieces in the room (a piece drawn outside it is
	 * scenery, as the background round it is) */
	unsigned free_cells = 0, pieces = 0;
	for (int c = 0; c < n; c++) {
		const ps_word *cell = map->cells + (size_t)c * (size_t)ow;
		bool in_room = flooded ? seen[c] || beside[c] : true;
		if (flooded)
			open[c] = seen[c];
		free_cells += open[c];
		for (int id = 0; id < g->nobjects && in_room; id++)
			pieces += g->objects[id].layer >= 0 && g->obj_dynamic[id] &&
				  !ps_bit_get(g->player_mask, id) && ps_bit_get(cell, id);
	}
	free(beside);
	free(seen);
	free(stack);
	/* the free cells' sides that face a blocked cell or the board's edge */
	unsigned walled = 0;
	for (int c = 0; c < n; c++) {
		int x = c / map->height, y = c % map->height;   /* column by column */
		if (open[c])
			walled += (unsigned)((y == 0 || !open[c - 1]) +
					     (y == map->height - 1 || !open[c + 1]) +
					     (x == 0 || !open[c - map->height]) +
					     (x == map->width - 1 || !open[c + map->height]));
	}
	free(open);
	free(player_layers);
	*cells = free_cells;
	*objects = pieces;
	if (sides)
		*sides = walled;
}
