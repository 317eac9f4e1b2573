/*
 * ps_rating.c - what the rating (rating.h) reads of a PuzzleScript level
 * itself: the cells a player can stand on (no object that never moves
 * holds a player's collision layer there) and the pieces that may move
 * (dynamic objects other than the players), counted at the start.
 */
#include <stdlib.h>

#include "ps_game.h"
#include "ps_internal.h"

void ps_rating_counts(const struct ps_game *g, const struct ps_level *map, unsigned *cells,
		      unsigned *objects)
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
	unsigned free_cells = 0, pieces = 0;
	for (int c = 0; c < n; c++) {
		const ps_word *cell = map->cells + (size_t)c * (size_t)ow;
		bool blocked = false;
		for (int w = 0; w < ow; w++)
			blocked |= (cell[w] & g->static_mask[w] & player_layers[w]) != 0;
		free_cells += !blocked;
		for (int id = 0; id < g->nobjects; id++)
			pieces += g->objects[id].layer >= 0 && g->obj_dynamic[id] &&
				  !ps_bit_get(g->player_mask, id) && ps_bit_get(cell, id);
	}
	free(player_layers);
	*cells = free_cells;
	*objects = pieces;
}
