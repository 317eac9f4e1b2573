/*
 * sokoban_boxmoves.c - box moves: one box pushed any number of times in a
 * row, the macro move of the search for any solution (sokoban_any.c).
 *
 * For each box, a breadth-first search over (square the box stands on,
 * side the player pushed it from) with the other boxes fixed.  Which
 * pushes can follow depends only on the player's area around the box, so
 * the areas of the four neighbours of a square are labelled once per
 * square and box, and a move is a (square, area) pair: two sides in the
 * same area make the same state.  The areas come from one depth-first
 * search of the floor free of boxes per position (Tarjan's articulation
 * points), not a flood fill per square: a box moved from b to q splits
 * q's component where q is a cut vertex and joins whatever touches b.  Pushes
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
	g->stack = lk_xmalloc(n * sizeof *g->stack);
	g->disc = lk_xcalloc(n, sizeof *g->disc);
	g->last = lk_xmalloc(n * sizeof *g->last);
	g->low = lk_xmalloc(n * sizeof *g->low);
	g->sub_least = lk_xmalloc(n * sizeof *g->sub_least);
	g->root = lk_xmalloc(n * sizeof *g->root);
	g->kids = lk_xmalloc(n * 4 * sizeof *g->kids);
	g->nkids = lk_xmalloc(n);
	g->iter = lk_xmalloc(n);
	g->adj = lk_xmalloc(n * 4 * sizeof *g->adj);
	g->nadj = lk_xcalloc(n, 1);
	for (int i = 0; i < s->nfloor; i++) {
		int c = s->cell_of[i];
		for (int d = 0; d < 4; d++)
			if (!s->wall[c + s->off[d]])
				g->adj[c * 4 + g->nadj[c]++] = (uint16_t)(c + s->off[d]);
	}
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
	free(g->stack);
	free(g->disc);
	free(g->last);
	free(g->low);
	free(g->sub_least);
	free(g->root);
	free(g->kids);
	free(g->nkids);
	free(g->iter);
	free(g->adj);
	free(g->nadj);
	free(g->moves);
	memset(g, 0, sizeof *g);
}

static int opposite(int d)
{
	return (d + 2) & 3;
}

/* Depth-first search (iterative) of the floor free of the boxes in
 * sc->box: each component from its least square (so a component's root is
 * its least compact index), discovery times from 1. */
static void index_floor(struct soko_movegen *g, const struct soko_scratch *sc)
{
	const struct sokoban *s = g->s;
	/* the arrays in locals: the byte stores below could alias g's
	 * fields, and this is the search's hottest loop */
	uint16_t *disc = g->disc, *low = g->low, *least = g->sub_least, *root = g->root;
	uint16_t *kids = g->kids, *stack = g->stack, *last = g->last;
	const uint16_t *adj = g->adj, *cell_of = s->cell_of;
	const int32_t *compact = s->compact;
	uint8_t *nkids = g->nkids, *iter = g->iter;
	const uint8_t *nadj = g->nadj, *box = sc->box;
	memset(disc, 0, (size_t)s->cells * sizeof *disc);
	uint16_t t = 0;
	int components = 0;
	for (int i = 0; i < s->nfloor; i++) {
		int r = cell_of[i];
		if (box[r] || disc[r])
			continue;
		components++;
		/* the square on top (v) and its next neighbour (k) in
		 * registers, the squares below it on the stack with theirs in
		 * iter: the same search as one that keeps every square's in
		 * iter, with fewer loads and stores */
		int sp = 0, v = r, k = 0;
		disc[r] = low[r] = ++t;
		least[r] = (uint16_t)i;
		root[r] = (uint16_t)r;
		nkids[r] = 0;
		for (;;) {
			int w = -1;
			/* v's next neighbour not yet discovered, if any */
			for (; k < nadj[v]; k++) {
				int x = adj[v * 4 + k];
				if (box[x])
					continue;
				if (!disc[x]) {
					w = x;
					k++;
					break;
				}
				if (disc[x] < low[v])
					low[v] = disc[x];
			}
			if (w >= 0) {
				iter[v] = (uint8_t)k;
				stack[sp++] = (uint16_t)v;
				disc[w] = low[w] = ++t;
				least[w] = (uint16_t)compact[w];
				root[w] = (uint16_t)r;
				nkids[w] = 0;
				kids[v * 4 + nkids[v]++] = (uint16_t)w;
				v = w;
				k = 0;
				continue;
			}
			/* v is done: its subtree is what was discovered since */
			last[v] = t;
			if (sp == 0)
				break;
			int u = stack[--sp];
			if (low[v] < low[u])
				low[u] = low[v];
			if (least[v] < least[u])
				least[u] = least[v];
			v = u;
			k = iter[u];
		}
	}
	g->components = components;
}

int soko_movegen_reach(struct soko_movegen *g, struct soko_scratch *sc, int cell)
{
	const struct sokoban *s = g->s;
	index_floor(g, sc);
	if (++sc->stamp == 0) {   /* wrapped: old stamps could collide */
		memset(sc->mark, 0, (size_t)s->cells * sizeof *sc->mark);
		sc->stamp = 1;
		sc->areas_stamp = 0;
	}
	uint32_t st = sc->stamp;
	int r = g->root[cell], areas = 0;
	/* the reach, and the areas the player does not reach labelled for
	 * the PI-corrals (sokoban_corral.c) as it would label them: by
	 * component, in the order of their least squares, the roots */
	int32_t *label = sc->label;
	for (int i = 0; i < s->nfloor; i++) {
		int c = s->cell_of[i];
		if (!g->disc[c]) {   /* a box */
			label[c] = -1;
			continue;
		}
		int root = g->root[c];
		if (root == r) {
			sc->mark[c] = st;
			label[c] = -1;
			continue;
		}
		int k = root == c ? areas++ : label[root];
		if (root == c) {
			sc->uf[k] = k;
			sc->corral_flags[k] = 0;
			sc->corral_pushes[k] = 0;
			sc->corral_goal[k] = 0;
		}
		label[c] = k;
		if (s->goal[c])
			sc->corral_goal[k] = 1;
	}
	sc->areas_stamp = st;
	sc->areas = areas;
	g->indexed = sc;
	g->indexed_stamp = st;
	return s->compact[r];
}

/* With the square q (free in the indexed floor) walled up, the piece of
 * its component, or of another, that the free square m lies in: an id
 * (nonzero, distinct among pieces) and its least compact index.  A child
 * subtree of q whose low point does not pass above q is cut off (every
 * child of a root is); the rest of q's component holds its root. */
static uint32_t piece(const struct soko_movegen *g, int q, int m, unsigned *least)
{
	const struct sokoban *s = g->s;
	int r = g->root[m];
	if (r == g->root[q] && g->disc[m] > g->disc[q] && g->disc[m] <= g->last[q]) {
		for (int k = 0; k < g->nkids[q]; k++) {
			int c = g->kids[q * 4 + k];
			if (g->disc[m] < g->disc[c] || g->disc[m] > g->last[c])
				continue;
			if (r == q || g->low[c] >= g->disc[q]) {
				*least = g->sub_least[c];
				return g->disc[c];
			}
			break;
		}
	}
	*least = (unsigned)s->compact[r];
	return g->disc[r];
}

/* Does walling up q split its component or change its least square: q
 * is the component's root, or a child subtree of q is cut off?  When not,
 * every square's piece is its whole component (piece_of). */
static bool splits(const struct soko_movegen *g, int q)
{
	if (g->root[q] == q)
		return true;
	for (int k = 0; k < g->nkids[q]; k++)
		if (g->low[g->kids[q * 4 + k]] >= g->disc[q])
			return true;
	return false;
}

/* piece, told whether q splits (splits): the component's root when not */
static inline uint32_t piece_of(const struct soko_movegen *g, bool split, int q, int m,
				unsigned *least)
{
	if (split)
		return piece(g, q, m, least);
	int r = g->root[m];
	*least = (unsigned)g->s->compact[r];
	return g->disc[r];
}

int soko_move_areas(const struct soko_movegen *g, int from, int to)
{
	const struct sokoban *s = g->s;
	if (from == to)
		return g->components;
	/* walling up `to` leaves its component in pieces: the root's children
	 * are each one, any other square's cut-off children are and the rest
	 * with the root is one */
	int pieces = g->root[to] == to ? 0 : 1;
	for (int k = 0; k < g->nkids[to]; k++)
		pieces += g->root[to] == to || g->low[g->kids[to * 4 + k]] >= g->disc[to];
	/* freeing `from` joins the pieces it touches into one */
	uint32_t at_from[4];
	int joined = 0;
	bool split = splits(g, to);
	for (int e = 0; e < 4; e++) {
		int m = from + s->off[e];
		if (!g->disc[m] || m == to)
			continue;
		unsigned least;
		uint32_t id = piece_of(g, split, to, m, &least);
		bool seen = false;
		for (int k = 0; k < joined && !seen; k++)
			seen = at_from[k] == id;
		if (!seen)
			at_from[joined++] = id;
	}
	return g->components + pieces - joined;
}

/* Label the player's areas around a box moved from b to q (sc->box holds
 * it there, and not on b): the area of each free neighbour and its least
 * compact index.  The areas are the pieces of the indexed floor with q
 * walled up, all those touching b joined through b into one. */
static void label_around(struct soko_movegen *g, struct soko_scratch *sc, int b, int q)
{
	const struct sokoban *s = g->s;
	const uint32_t joined = UINT32_MAX;
	uint32_t at_b[4];
	int nb = 0;
	unsigned joined_least = (unsigned)s->compact[b];
	bool split = q != b && splits(g, q);
	if (q != b) {
		for (int e = 0; e < 4; e++) {
			int m = b + s->off[e];
			if (s->wall[m] | sc->box[m])
				continue;
			unsigned least;
			at_b[nb++] = piece_of(g, split, q, m, &least);
			if (least < joined_least)
				joined_least = least;
		}
	}
	for (int e = 0; e < 4; e++) {
		int n = q + s->off[e];
		uint32_t area = 0;
		unsigned least = 0;
		if (s->wall[n] | sc->box[n]) {
			area = 0;
		} else if (q == b) {
			/* back on its own square: the floor as indexed */
			area = g->disc[g->root[n]];
			least = (unsigned)s->compact[g->root[n]];
		} else if (n == b) {
			area = joined;
		} else {
			area = piece_of(g, split, q, n, &least);
			for (int k = 0; k < nb; k++)
				if (at_b[k] == area)
					area = joined;
		}
		if (area == joined)
			least = joined_least;
		g->nb_area[q * 4 + e] = area;
		g->nb_least[q * 4 + e] = (uint16_t)least;
	}
}

/* Prepare square q for the box search stamped st: its areas and whether
 * a box there is frozen off a goal. */
static void prepare(struct soko_movegen *g, struct soko_scratch *sc, int b, int q, uint32_t st)
{
	g->area_stamp[q] = st;
	g->nb_done[q] = 0;
	sc->box[q] = 1;
	g->frozen[q] = soko_freeze_deadlock(g->s, sc, q);
	if (!g->frozen[q])
		label_around(g, sc, b, q);
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
		if (sc->mark[p] != reach || (s->wall[t] | sc->box[t]))
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
			prepare(g, sc, b, q, st);
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
			if (g->nb_area[q * 4 + opposite(e)] != area || (s->wall[t] | sc->box[t]))
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
	if (g->indexed != sc || g->indexed_stamp != reach)
		index_floor(g, sc);
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
	index_floor(g, sc);
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
