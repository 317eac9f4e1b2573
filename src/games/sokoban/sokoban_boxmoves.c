/*
 * sokoban_boxmoves.c - box moves: one box pushed any number of times in a
 * row, the macro move of the search for any solution (sokoban_any.c).
 *
 * For each box, a breadth-first search over (square the box stands on,
 * side the player pushed it from) with the other boxes fixed.  Which
 * pushes can follow depends only on the player's area around the box, so
 * the areas of the four neighbours of a square are labelled once per
 * square and box (one flood fill over the floor), and a move is a (square,
 * area) pair: two sides in the same area make the same state.  Pushes
 * onto dead squares and squares where the box would freeze off a goal are
 * not followed (dead squares and freeze, as in the push search).
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any.h"

void soko_movegen_init(struct soko_movegen *g, const struct sokoban *s)
{
	size_t n = (size_t)s->cells;
	memset(g, 0, sizeof *g);
	g->s = s;
	g->seen = lk_xcalloc(n * 4, sizeof *g->seen);
	g->pred = lk_xmalloc(n * 4 * sizeof *g->pred);
	g->depth = lk_xmalloc(n * 4 * sizeof *g->depth);
	g->queue = lk_xmalloc(n * 4 * sizeof *g->queue);
	g->area_stamp = lk_xcalloc(n, sizeof *g->area_stamp);
	g->nb_area = lk_xmalloc(n * 4 * sizeof *g->nb_area);
	g->nb_least = lk_xmalloc(n * 4 * sizeof *g->nb_least);
	g->nb_done = lk_xmalloc(n);
	g->frozen = lk_xmalloc(n);
	g->lab = lk_xcalloc(n, sizeof *g->lab);
	g->next_label = 1;
	g->stack = lk_xmalloc(n * sizeof *g->stack);
}

void soko_movegen_release(struct soko_movegen *g)
{
	free(g->seen);
	free(g->pred);
	free(g->depth);
	free(g->queue);
	free(g->area_stamp);
	free(g->nb_area);
	free(g->nb_least);
	free(g->nb_done);
	free(g->frozen);
	free(g->lab);
	free(g->stack);
	free(g->moves);
	memset(g, 0, sizeof *g);
}

static int opposite(int d)
{
	return (d + 2) & 3;
}

/* Label the player's areas around a box standing on q (sc->box holds it):
 * the area of each free neighbour and its least compact index. */
static void label_around(struct soko_movegen *g, struct soko_scratch *sc, int q)
{
	const struct sokoban *s = g->s;
	if (g->next_label > UINT32_MAX - 8) {
		memset(g->lab, 0, (size_t)s->cells * sizeof *g->lab);
		g->next_label = 1;
	}
	uint32_t base = g->next_label;
	for (int e = 0; e < 4; e++) {
		int n = q + s->off[e];
		g->nb_area[q * 4 + e] = 0;
		if (s->wall[n] || sc->box[n])
			continue;
		if (g->lab[n] >= base) {
			/* already in the area of an earlier neighbour */
			for (int k = 0; k < e; k++)
				if (g->nb_area[q * 4 + k] == g->lab[n])
					g->nb_least[q * 4 + e] = g->nb_least[q * 4 + k];
			g->nb_area[q * 4 + e] = g->lab[n];
			continue;
		}
		uint32_t label = g->next_label++;
		int sp = 0, least = s->compact[n];
		g->lab[n] = label;
		g->stack[sp++] = (uint16_t)n;
		while (sp > 0) {
			int c = g->stack[--sp];
			for (int d = 0; d < 4; d++) {
				int nc = c + s->off[d];
				if (s->wall[nc] || sc->box[nc] || g->lab[nc] == label)
					continue;
				g->lab[nc] = label;
				g->stack[sp++] = (uint16_t)nc;
				if (s->compact[nc] < least)
					least = s->compact[nc];
			}
		}
		g->nb_area[q * 4 + e] = label;
		g->nb_least[q * 4 + e] = (uint16_t)least;
	}
}

/* Prepare square q for the box search stamped st: its areas and whether
 * a box there is frozen off a goal. */
static void prepare(struct soko_movegen *g, struct soko_scratch *sc, int q, uint32_t st)
{
	g->area_stamp[q] = st;
	g->nb_done[q] = 0;
	sc->box[q] = 1;
	g->frozen[q] = soko_freeze_deadlock(g->s, sc, q);
	if (!g->frozen[q])
		label_around(g, sc, q);
	sc->box[q] = 0;
}

static void add_move(struct soko_movegen *g, int from, int to, unsigned player, unsigned pushes)
{
	if (g->nmoves == g->alloc) {
		g->alloc = g->alloc ? 2 * g->alloc : 256;
		g->moves = lk_xrealloc(g->moves, g->alloc * sizeof *g->moves);
	}
	g->long_moves += pushes > 1;
	g->moves[g->nmoves++] = (struct soko_boxmove){
		(uint16_t)from, (uint16_t)to, (uint16_t)player,
		(uint16_t)(pushes > UINT16_MAX ? UINT16_MAX : pushes)
	};
}

/* The breadth-first search of the box on b.  With want_to >= 0 it stops
 * at the move to want_to ending in the area want_player and returns its
 * queue entry; otherwise it adds every move and returns -1. */
static long box_search(struct soko_movegen *g, struct soko_scratch *sc, int b, uint32_t reach,
		       unsigned parent_player, int want_to, unsigned want_player)
{
	const struct sokoban *s = g->s;
	if (++g->seen_stamp == 0) {
		memset(g->seen, 0, (size_t)s->cells * 4 * sizeof *g->seen);
		memset(g->area_stamp, 0, (size_t)s->cells * sizeof *g->area_stamp);
		g->seen_stamp = 1;
	}
	uint32_t st = g->seen_stamp;
	long found = -1;
	int head = 0, tail = 0;
	sc->box[b] = 0;
	for (int d = 0; d < 4; d++) {
		int p = b - s->off[d], t = b + s->off[d];
		if (sc->mark[p] != reach || s->wall[t] || sc->box[t])
			continue;
		if (s->dead[t]) {
			sc->count[SOKO_T_DEAD_SQUARES]++;
			continue;
		}
		uint32_t idx = (uint32_t)t * 4 + (uint32_t)d;
		g->seen[idx] = st;
		g->pred[idx] = -1;
		g->depth[idx] = 1;
		g->queue[tail++] = idx;
	}
	while (head < tail) {
		uint32_t idx = g->queue[head++];
		int q = (int)(idx >> 2), d = (int)(idx & 3), o = opposite(d);
		if (g->area_stamp[q] != st)
			prepare(g, sc, q, st);
		if (g->frozen[q])
			continue;
		uint32_t area = g->nb_area[q * 4 + o];
		unsigned least = g->nb_least[q * 4 + o];
		if (want_to >= 0) {
			if (q == want_to && least == want_player) {
				found = (long)idx;
				break;
			}
		} else {
			bool dup = q == b && least == parent_player;
			for (int k = 0; k < 4 && !dup; k++)
				dup = (g->nb_done[q] >> k & 1) && g->nb_area[q * 4 + k] == area;
			if (!dup) {
				g->nb_done[q] |= (uint8_t)(1u << o);
				add_move(g, b, q, least, g->depth[idx]);
			}
		}
		/* without box macros a move is one push */
		for (int e = 0; e < 4 && s->use[SOKO_T_MACROS]; e++) {
			int t = q + s->off[e];
			if (g->nb_area[q * 4 + opposite(e)] != area || s->wall[t] || sc->box[t])
				continue;
			uint32_t nidx = (uint32_t)t * 4 + (uint32_t)e;
			if (g->seen[nidx] == st)
				continue;
			if (s->dead[t]) {
				sc->count[SOKO_T_DEAD_SQUARES]++;
				continue;
			}
			g->seen[nidx] = st;
			g->pred[nidx] = (int32_t)idx;
			g->depth[nidx] = (uint16_t)(g->depth[idx] + 1);
			g->queue[tail++] = nidx;
		}
	}
	sc->box[b] = 1;
	return found;
}

size_t soko_box_moves(struct soko_movegen *g, struct soko_scratch *sc, int nboxes,
		      const uint8_t *allow)
{
	const struct sokoban *s = g->s;
	uint32_t reach = sc->stamp;
	/* the parent's normalised player: the least index it reaches */
	unsigned parent_player = UINT16_MAX;
	for (int i = 0; i < s->nfloor; i++)
		if (sc->mark[s->cell_of[i]] == reach) {
			parent_player = (unsigned)i;
			break;
		}
	g->nmoves = 0;
	for (int i = 0; i < nboxes; i++) {
		int b = sc->boxes[i];
		if (!allow || allow[b])
			box_search(g, sc, b, reach, parent_player, -1, 0);
	}
	return g->nmoves;
}

int soko_box_move_pushes(struct soko_movegen *g, struct soko_scratch *sc, int from, int to,
			 unsigned player, uint8_t *dirs)
{
	long idx = box_search(g, sc, from, sc->stamp, UINT16_MAX, to, player);
	if (idx < 0)
		return -1;
	int n = 0;
	for (long i = idx; i >= 0; i = g->pred[i])
		dirs[n++] = (uint8_t)(i & 3);
	for (int a = 0, z = n - 1; a < z; a++, z--) {
		uint8_t t = dirs[a];
		dirs[a] = dirs[z];
		dirs[z] = t;
	}
	return n;
}

void soko_box_path(struct soko_movegen *g, const struct lk_level *level, void *scratch,
		   void *scratch2, const unsigned char *const *chain, size_t n,
		   struct lk_search_result *r)
{
	const struct sokoban *s = g->s;
	struct soko_scratch *sc = soko_scratch(s, scratch), *sc2 = soko_scratch(s, scratch2);
	size_t ks = level->key_size, npush = 0, alloc = 64;
	uint8_t *dirs = lk_xmalloc((size_t)s->cells * 4);
	r->path = lk_xmalloc(alloc * ks);
	level->game->initial_state(level, r->path);
	r->nkeys = 1;
	for (size_t i = 1; i < n; i++) {
		const unsigned char *pk = chain[i - 1], *ck = chain[i];
		int from = -1, to = -1;
		for (int c = 0; c < s->nfloor; c++) {
			bool was = soko_bit(pk + 2, c), is = soko_bit(ck + 2, c);
			if (was && !is)
				from = s->cell_of[c];
			if (is && !was)
				to = s->cell_of[c];
		}
		int nb = soko_unpack(s, pk, sc);
		soko_reach(s, sc, s->cell_of[soko_key_player(pk)]);
		/* a box pushed away and back, the player ending elsewhere */
		int np = -1;
		for (int b = 0; from < 0 && np < 0 && b < nb; b++) {
			np = soko_box_move_pushes(g, sc, sc->boxes[b], sc->boxes[b],
						  soko_key_player(ck), dirs);
			if (np > 0)
				from = to = sc->boxes[b];
		}
		if (np < 0)
			np = soko_box_move_pushes(g, sc, from, to, soko_key_player(ck), dirs);
		int x = from;
		for (int k = 0; k < np; k++) {
			int y = x + s->off[dirs[k]];
			sc->box[x] = 0;
			sc->box[y] = 1;
			if (r->nkeys == alloc) {
				alloc *= 2;
				r->path = lk_xrealloc(r->path, alloc * ks);
			}
			unsigned char *out = r->path + r->nkeys * ks;
			memcpy(out, r->path + (r->nkeys - 1) * ks, ks);
			soko_bit_flip(out + 2, s->compact[x]);
			soko_bit_flip(out + 2, s->compact[y]);
			unsigned player = (unsigned)s->compact[x];
			if (s->push_graph) {
				int m = soko_unpack(s, out, sc2);
				player = (unsigned)soko_reach(s, sc2, x);
				soko_clear_boxes(s, sc2, m);
			}
			soko_key_set_player(out, player);
			r->nkeys++;
			npush++;
			x = y;
		}
		/* the boxes of pk were unpacked; the moved one now stands on x */
		sc->box[x] = 0;
		sc->box[from] = 1;
		soko_clear_boxes(s, sc, nb);
	}
	free(dirs);
	if (s->push_graph) {
		r->cost = npush;
	} else {
		struct lk_moves m;
		lk_moves_init(&m, level);
		lk_level_label(level, r->path, r->nkeys, &m);
		r->cost = m.inputs;
		lk_moves_release(&m);
	}
}
