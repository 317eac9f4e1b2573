/*
 * sokoban_moves.c - Sokoban's state space: the start, the successors of a
 * state (pushes or single steps), the goal test and the deadlock pruning
 * that is applied to every push (dead squares, freeze deadlocks).
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sokoban.h"

/* Carve one block into the scratch arrays; the block is zeroed by the
 * solver, so `ready` tells a fresh block from a prepared one. */
static size_t align_up(size_t n)
{
	return (n + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
}

static size_t layout(const struct sokoban *s, struct soko_scratch *sc, unsigned char *base)
{
	size_t n = (size_t)s->cells, at = align_up(sizeof(struct soko_scratch));
	size_t nb = (size_t)(s->nboxes ? s->nboxes : 1), ng = (size_t)(s->ngoals ? s->ngoals : 1);
#define CARVE(field, count)                                                   \
	do {                                                                  \
		if (base)                                                     \
			sc->field = (void *)(base + at);                      \
		at += align_up((count) * sizeof *sc->field);                  \
	} while (0)
	CARVE(box, n);
	CARVE(mark, n);
	CARVE(mark2, n);
	CARVE(stack, n);
	CARVE(boxes, nb);
	CARVE(frozen_seen, n);
	CARVE(label, n);
	CARVE(uf, n);
	CARVE(corral_flags, n);
	CARVE(corral_goal, n);
	CARVE(corral_pushes, n);
	CARVE(cost, nb * ng);
	CARVE(hung, 4 * (ng + 1) + 2 * (nb + 1) + ng + 1);
	size_t slots = SOKO_WARM_SLOTS, words = n / 64 + 1;
	if (base) {
		sc->warm_words = (int)words;
		sc->warm_nb = (int)nb;
		sc->warm_ng = (int)ng;
	}
	CARVE(warm_boxes, nb * slots);
	CARVE(warm_u, (nb + 1) * slots);
	CARVE(warm_v, (ng + 1) * slots);
	CARVE(warm_p, (ng + 1) * slots);
	CARVE(warm_sig, words * (slots + 1));
#undef CARVE
	return at;
}

size_t soko_scratch_size(const struct sokoban *s)
{
	struct soko_scratch dummy;
	return layout(s, &dummy, NULL);
}

struct soko_scratch *soko_scratch(const struct sokoban *s, void *scratch)
{
	struct soko_scratch *sc = scratch;
	if (!sc->ready) {
		/* a fresh block: a new search */
		layout(s, sc, scratch);
		sc->ready = true;
		/* walls are no area (PI-corrals read the labels of a box's
		 * neighbours; the labellings write floor squares only) */
		for (int c = 0; c < s->cells; c++)
			sc->label[c] = -1;
		if (s->deadtab)
			soko_deadtab_reset(s->deadtab);
		soko_pairs_reset(s->pairs);
		soko_patterns_reset(s->patterns);
	}
	return sc;
}


int soko_unpack(const struct sokoban *s, const uint8_t *key, struct soko_scratch *sc)
{
	const uint8_t *bits = key + 2;
	int n = 0;
	for (size_t b = 0; b < s->bitset_bytes; b++) {
		unsigned v = bits[b];
		while (v) {
			int i = (int)(b * 8) + lk_lowest_bit64(v);
			v &= v - 1;
			int c = s->cell_of[i];
			sc->box[c] = 1;
			sc->boxes[n++] = (uint16_t)c;
		}
	}
	return n;
}

void soko_clear_boxes(const struct sokoban *s, struct soko_scratch *sc, int n)
{
	(void)s;
	for (int i = 0; i < n; i++)
		sc->box[sc->boxes[i]] = 0;
}

static uint32_t next_stamp(uint32_t *mark, uint32_t *stamp, size_t n)
{
	if (++*stamp == 0) {   /* wrapped: old stamps could collide */
		memset(mark, 0, n * sizeof *mark);
		*stamp = 1;
	}
	return *stamp;
}

/* Flood fill of the player's squares from cell into mark with a fresh
 * stamp; returns the least compact index reached.  Scan lines: each square
 * taken from the stack runs left and right over the free squares not yet
 * marked, and the squares above and below the run are stacked; every
 * square is tested fewer times than by its four neighbours, and since
 * compact indices grow with the cell, the least index is the least run
 * start's. */
static int flood(const struct sokoban *s, struct soko_scratch *sc, int cell, uint32_t *mark,
		 uint32_t *stamp)
{
	uint32_t st = next_stamp(mark, stamp, (size_t)s->cells);
	if (st == 1 && stamp == &sc->stamp)
		sc->areas_stamp = 0;   /* wrapped: no areas labelled for it */
	const uint8_t *wall = s->wall, *box = sc->box;
	uint16_t *stack = sc->stack;
	const int w = s->width;
	int sp = 0, low = cell;
	mark[cell] = st;
	stack[sp++] = (uint16_t)cell;
	while (sp > 0) {
		int c = stack[--sp], l = c, r = c;
		while (!(wall[l - 1] | box[l - 1]) && mark[l - 1] != st)
			mark[--l] = st;
		while (!(wall[r + 1] | box[r + 1]) && mark[r + 1] != st)
			mark[++r] = st;
		if (l < low)
			low = l;
		for (int x = l; x <= r; x++) {
			int u = x - w, d = x + w;
			if (!(wall[u] | box[u]) && mark[u] != st) {
				mark[u] = st;
				stack[sp++] = (uint16_t)u;
			}
			if (!(wall[d] | box[d]) && mark[d] != st) {
				mark[d] = st;
				stack[sp++] = (uint16_t)d;
			}
		}
	}
	return s->compact[low];
}

int soko_reach(const struct sokoban *s, struct soko_scratch *sc, int cell)
{
	return flood(s, sc, cell, sc->mark, &sc->stamp);
}

/* The normalised player square from cell, flooding mark2 so that the
 * parent's reach in mark stays valid while its children are built. */
static int normalised_player(const struct sokoban *s, struct soko_scratch *sc, int cell)
{
	return flood(s, sc, cell, sc->mark2, &sc->stamp2);
}

/* The part of the pushed and pulled floods they share.  The square the
 * flood may stop at: the old area's least square when b (the square the
 * box left) opens onto nothing but that area (stamp st of sc->mark) and
 * `except`, else -1. */
static int least_if_enclosed(const struct sokoban *s, const struct soko_scratch *sc, int b,
			     int except, uint32_t st, unsigned least)
{
	int stop = s->cell_of[least];
	for (int d = 0; d < 4 && stop >= 0; d++) {
		int x = b + s->off[d];
		if (x != except && !(s->wall[x] | sc->box[x]) && sc->mark[x] != st)
			stop = -1;
	}
	return stop;
}

/* Flood the player's area from `from` (a fresh stamp of sc->mark2): found
 * as soon as it meets `stop`, else the least index it reached. */
static int flood_until(const struct sokoban *s, struct soko_scratch *sc, int from, int stop,
		       int found)
{
	uint32_t *mark = sc->mark2;
	uint32_t fresh = next_stamp(mark, &sc->stamp2, (size_t)s->cells);
	int sp = 0, low = s->compact[from];
	/* depth first, up and left tried first: towards the least index */
	const int step[4] = { s->width, 1, -1, -s->width };
	mark[from] = fresh;
	sc->stack[sp++] = (uint16_t)from;
	while (sp > 0) {
		int c = sc->stack[--sp];
		for (int d = 0; d < 4; d++) {
			int nc = c + step[d];
			if ((s->wall[nc] | sc->box[nc]) || mark[nc] == fresh)
				continue;
			if (nc == stop)
				return found;
			mark[nc] = fresh;
			sc->stack[sp++] = (uint16_t)nc;
			if (s->compact[nc] < low)
				low = s->compact[nc];
		}
	}
	return low;
}

/* The normalised player square after box b was pushed onto `to` (sc->box
 * as after the push; the area before it stamp st of sc->mark, least index
 * least), the player on b.  When b opens onto nothing but that area, the
 * new area is a part of it with b added: if it still holds the old least
 * square, that square (or b) is its least, and the flood from b stops as
 * soon as it meets it.  Otherwise a whole flood. */
static int pushed_flood(const struct sokoban *s, struct soko_scratch *sc, int b, int to,
			uint32_t st, unsigned least)
{
	int stop = least_if_enclosed(s, sc, b, to, st, least);
	if (stop < 0 || stop == to)
		return normalised_player(s, sc, b);
	return flood_until(s, sc, b, stop, (int)least < s->compact[b] ? (int)least : s->compact[b]);
}

int soko_pushed_player(const struct sokoban *s, const struct soko_scratch *sc, int b, int to,
		       uint32_t st, unsigned least)
{
	if (sc->mark[to] != st || (unsigned)s->compact[to] == least)
		return -1;
	for (int d = 0; d < 4; d++) {
		int x = b + s->off[d];
		if (x != to && !(s->wall[x] | sc->box[x]) && sc->mark[x] != st)
			return -1;
	}
	if (!soko_ring_joined(s, sc, to))
		return -1;
	int mine = s->compact[b];
	return mine < (int)least ? mine : (int)least;
}

int soko_pushed_area(const struct sokoban *s, struct soko_scratch *sc, int b, int to,
		     uint32_t st, unsigned least)
{
	int p = soko_pushed_player(s, sc, b, to, st, least);
	return p >= 0 ? p : pushed_flood(s, sc, b, to, st, least);
}

/*
 * Freeze deadlocks.  A box is blocked along an axis when a wall is on
 * either side, when both sides are dead squares, or when a box on either
 * side is itself frozen; while a neighbour is examined the box under test
 * counts as a wall, which breaks cycles.  A frozen box can never move
 * again, so if any box found frozen stands off a goal the state is dead.
 */
static bool frozen(const struct sokoban *s, struct soko_scratch *sc, int c, bool *off_goal);

static bool blocked(const struct sokoban *s, struct soko_scratch *sc, int c, int axis,
		    bool *off_goal)
{
	int a = c - s->off[axis], b = c + s->off[axis];
	if (s->wall[a] || s->wall[b] || sc->frozen_seen[a] || sc->frozen_seen[b])
		return true;
	if (s->dead[a] && s->dead[b])
		return true;
	sc->frozen_seen[c] = 1;
	bool r = (sc->box[a] && frozen(s, sc, a, off_goal)) ||
		 (sc->box[b] && frozen(s, sc, b, off_goal));
	sc->frozen_seen[c] = 0;
	return r;
}

static bool frozen(const struct sokoban *s, struct soko_scratch *sc, int c, bool *off_goal)
{
	/* axis 1 = horizontal neighbours (right/left), 0 = vertical */
	if (blocked(s, sc, c, LK_RIGHT, off_goal) && blocked(s, sc, c, LK_UP, off_goal)) {
		if (!s->goal[c])
			*off_goal = true;
		return true;
	}
	return false;
}

bool soko_freeze_deadlock(const struct sokoban *s, struct soko_scratch *sc, int cell)
{
	bool off_goal = false;
	if (!s->use[SOKO_T_FREEZE] || !(frozen(s, sc, cell, &off_goal) && off_goal))
		return false;
	sc->count[SOKO_T_FREEZE]++;
	return true;
}

void soko_initial_state(const struct lk_level *level, void *key)
{
	const struct sokoban *s = (const struct sokoban *)level;
	uint8_t *k = key;
	if (s->forward) {
		memcpy(k + 2, s->goal_bits, s->bitset_bytes);
		soko_key_set_player(k, SOKO_ANYWHERE);
		return;
	}
	memcpy(k + 2, s->box0, s->bitset_bytes);
	soko_key_set_player(k, (unsigned)s->compact[s->player0]);
	if (!s->push_graph)
		return;
	/* Normalise the player through a throw-away scratch. */
	void *block = lk_xcalloc(1, soko_scratch_size(s));
	struct soko_scratch *sc = soko_scratch(s, block);
	int n = soko_unpack(s, k, sc);
	soko_key_set_player(k, (unsigned)soko_reach(s, sc, s->player0));
	soko_clear_boxes(s, sc, n);
	free(block);
}

bool soko_is_goal(const struct lk_level *level, const void *key)
{
	const struct sokoban *s = (const struct sokoban *)level;
	const uint8_t *bits = (const uint8_t *)key + 2;
	if (s->forward && !s->start_key)
		return false;   /* an unpacking level (soko_new_unpacking) */
	if (s->forward) {
		/* The virtual start (player anywhere) is the start state only
		 * when the start needs no push at all. */
		if (soko_key_player(key) == SOKO_ANYWHERE)
			return memcmp(bits, s->start_key + 2, s->bitset_bytes) == 0;
		return memcmp(key, s->start_key, s->base.key_size) == 0;
	}
	if (s->impossible)
		return false;
	for (size_t i = 0; i < s->bitset_bytes; i++)
		if (bits[i] & ~s->goal_bits[i])
			return false;
	return soko_exit_ok(s, key);
}

/* Emit the state with box moved from->to and the player at player_cell. */
static void emit(const struct sokoban *s, const uint8_t *key, int from, int to, int player_compact,
		 uint8_t *out)
{
	memcpy(out + 2, key + 2, s->bitset_bytes);
	soko_bit_flip(out + 2, s->compact[from]);
	soko_bit_flip(out + 2, s->compact[to]);
	soko_key_set_player(out, (unsigned)player_compact);
}

/* whole: no PI-corral pruning and no tunnel macros (soko_whole_successors) */
static unsigned push_successors(const struct sokoban *s, const uint8_t *key,
				struct soko_scratch *sc, unsigned char *out, struct lk_edge *edges,
				bool whole)
{
	size_t ks = s->base.key_size;
	int n = soko_unpack(s, key, sc);
	unsigned count = 0;
	unsigned least = (unsigned)soko_reach(s, sc, s->cell_of[soko_key_player(key)]);
	uint32_t st = sc->stamp;
	int corral = !whole && n > 1 && s->use[SOKO_T_PI_CORRALS] ? soko_pi_corral(s, sc, n) : -1;
	for (int i = 0; i < n; i++) {
		int b = sc->boxes[i];
		bool skip = corral >= 0 && !soko_corral_allows(s, sc, corral, b);
		for (int d = 0; d < 4; d++) {
			int to = b + s->off[d], from = b - s->off[d];
			if (sc->mark[from] != st || (s->wall[to] | sc->box[to]))
				continue;
			if (s->dead[to]) {
				sc->count[SOKO_T_DEAD_SQUARES]++;
				continue;
			}
			if (skip) {
				sc->count[SOKO_T_PI_CORRALS]++;
				continue;
			}
			/* into a dead-end corridor: straight on to its deepest
			 * empty goal (sokoban_tunnel.c) */
			int end = to, behind = b;
			if (!whole && s->deadend && s->deadend[to * 4 + d]) {
				end = soko_tunnel_end(s, sc, to, d);
				if (end < 0) {
					sc->count[SOKO_T_TUNNELS]++;
					continue;
				}
				behind = end - s->off[d];
				sc->count[SOKO_T_TUNNELS] += end != to;
			}
			sc->box[b] = 0;
			sc->box[end] = 1;
			if (!soko_freeze_deadlock(s, sc, end)) {
				/* a push that changes the area only where it
				 * pushed needs no flood */
				int p = end == to ? soko_pushed_area(s, sc, b, to, st, least)
						  : normalised_player(s, sc, behind);
				if (s->deadtab && soko_deadtab_push(s->deadtab, sc, end, (unsigned)p)) {
					sc->count[SOKO_T_DEADTAB]++;
					sc->box[end] = 0;
					sc->box[b] = 1;
					continue;
				}
				emit(s, key, b, end, p, out + count * ks);
				edges[count].move = SOKO_MOVE(b, d, true);
				/* one push per square the box moved */
				unsigned pushes = 1;
				for (int x = to; x != end; x += s->off[d])
					pushes++;
				edges[count++].cost = pushes;
			}
			sc->box[end] = 0;
			sc->box[b] = 1;
		}
	}
	soko_clear_boxes(s, sc, n);
	return count;
}

/* Reversed level: the player pulls a box it stands next to, stepping
 * back onto the free square behind it. */
/* The normalised player after box b was pulled onto p (sc->box as after
 * the pull), the player beyond p: where soko_pushed_player's local test
 * shows the area (stamp st of sc->mark, least index least) stays whole
 * without p, the new area is it less p, plus b when b opens onto it (its
 * other free neighbours are in the area, which the test checks), so no
 * flood is needed; -1 where it is.  The pull search's children used to
 * flood the whole area each (an eighth of -a any's time on Sasquatch III 6). */
static int pulled_player(const struct sokoban *s, const struct soko_scratch *sc, int b, int p,
			 uint32_t st, unsigned least)
{
	int np = soko_pushed_player(s, sc, b, p, st, least);
	if (np < 0 || np == (int)least)
		return np;
	for (int d = 0; d < 4; d++) {   /* b is least only if it joins the area */
		int x = b + s->off[d];
		if (x != p && !(s->wall[x] | sc->box[x]))
			return np;
	}
	return (int)least;
}

/* Where it cannot tell: the new area is still a part of the old one less p,
 * plus b, when b opens onto nothing else, so the flood from the player's q
 * stops as soon as it meets the least square it can have (the old least,
 * or b when b's index is less); otherwise, or when it never meets it, the
 * whole flood's least (the same square as normalised_player's). */
static int pulled_flood(const struct sokoban *s, struct soko_scratch *sc, int b, int p, int q,
			uint32_t st, unsigned least)
{
	int stop = least_if_enclosed(s, sc, b, p, st, least);
	if (stop < 0 || stop == p)
		return normalised_player(s, sc, q);
	if (s->compact[b] < (int)least)
		stop = b;
	if (stop == q)
		return s->compact[q];
	return flood_until(s, sc, q, stop, s->compact[stop]);
}

static unsigned pull_successors(const struct sokoban *s, const uint8_t *key,
				struct soko_scratch *sc, unsigned char *out, struct lk_edge *edges)
{
	size_t ks = s->base.key_size;
	int n = soko_unpack(s, key, sc);
	unsigned count = 0;
	unsigned player = soko_key_player(key);
	uint32_t st;
	int least = -1;   /* the player's area's least index, -1: every square */
	if (player == SOKO_ANYWHERE) {
		st = next_stamp(sc->mark, &sc->stamp, (size_t)s->cells);
		if (st == 1)
			sc->areas_stamp = 0;
		for (int i = 0; i < s->nfloor; i++)   /* where a solution may end */
			if (!s->exit_area || s->exit_area[s->cell_of[i]])
				sc->mark[s->cell_of[i]] = st;
	} else {
		least = soko_reach(s, sc, s->cell_of[player]);
		st = sc->stamp;
	}
	for (int i = 0; i < n; i++) {
		int b = sc->boxes[i];
		for (int d = 0; d < 4; d++) {
			int p = b - s->off[d], q = p - s->off[d];
			if (sc->mark[p] != st || sc->box[p] || (s->wall[q] | sc->box[q]))
				continue;
			if (s->dead[p]) {
				sc->count[SOKO_T_DEAD_SQUARES]++;
				continue;
			}
			sc->box[b] = 0;
			sc->box[p] = 1;
			int np = least >= 0 ? pulled_player(s, sc, b, p, st, (unsigned)least) : -1;
			if (np < 0)
				np = least >= 0 ? pulled_flood(s, sc, b, p, q, st, (unsigned)least)
						: normalised_player(s, sc, q);
			emit(s, key, b, p, np, out + count * ks);
			edges[count].move = SOKO_MOVE(b, d, true);
			edges[count++].cost = 1;
			sc->box[p] = 0;
			sc->box[b] = 1;
		}
	}
	soko_clear_boxes(s, sc, n);
	return count;
}

static unsigned step_successors(const struct sokoban *s, const uint8_t *key,
				struct soko_scratch *sc, unsigned char *out, struct lk_edge *edges)
{
	size_t ks = s->base.key_size;
	int n = soko_unpack(s, key, sc);
	unsigned count = 0;
	int p = s->cell_of[soko_key_player(key)];
	for (int d = 0; d < 4; d++) {
		int q = p + s->off[d];
		if (s->wall[q])
			continue;
		uint8_t *k = out + count * ks;
		if (!sc->box[q]) {
			memcpy(k + 2, key + 2, s->bitset_bytes);
			soko_key_set_player(k, (unsigned)s->compact[q]);
			edges[count].move = SOKO_MOVE(p, d, false);
			edges[count++].cost = 1;
			continue;
		}
		int to = q + s->off[d];
		if (s->wall[to] | sc->box[to])
			continue;
		if (s->dead[to]) {
			sc->count[SOKO_T_DEAD_SQUARES]++;
			continue;
		}
		sc->box[q] = 0;
		sc->box[to] = 1;
		bool deadlock = soko_freeze_deadlock(s, sc, to);
		sc->box[to] = 0;
		sc->box[q] = 1;
		if (deadlock)
			continue;
		emit(s, key, q, to, s->compact[q], k);
		edges[count].move = SOKO_MOVE(q, d, true);
		edges[count++].cost = 1;
	}
	soko_clear_boxes(s, sc, n);
	return count;
}

unsigned soko_successors(const struct lk_level *level, const void *key, void *scratch,
			 unsigned char *keys_out, struct lk_edge *edges)
{
	const struct sokoban *s = (const struct sokoban *)level;
	if (s->impossible)
		return 0;
	struct soko_scratch *sc = soko_scratch(s, scratch);
	if (s->forward)
		return pull_successors(s, key, sc, keys_out, edges);
	if (s->push_graph)
		return push_successors(s, key, sc, keys_out, edges, false);
	return step_successors(s, key, sc, keys_out, edges);
}

unsigned soko_whole_successors(const struct lk_level *level, const void *key, void *scratch,
			       unsigned char *keys_out, struct lk_edge *edges)
{
	const struct sokoban *s = (const struct sokoban *)level;
	if (s->impossible || s->forward || !s->push_graph)
		return soko_successors(level, key, scratch, keys_out, edges);
	return push_successors(s, key, soko_scratch(s, scratch), keys_out, edges, true);
}

unsigned soko_move_facts(const struct lk_level *level, const void *key, uint32_t move,
			 uint16_t *facts, unsigned max)
{
	(void)level;
	(void)key;
	if (!(move & SOKO_MOVE_PUSH) || max == 0)
		return 0;
	facts[0] = SOKO_FACT_PUSH;
	return 1;
}

/* ---- which box a push moves: the boxes' cells in start order ---- */

void soko_name_facts(struct sokoban *s)
{
	size_t n = (size_t)s->nboxes;
	s->fact_names = lk_xcalloc(n + 2, sizeof *s->fact_names);
	s->fact_text = lk_xmalloc(n * 16 + 8);
	char *at = s->fact_text;
	s->fact_names[SOKO_FACT_PUSH] = "push";
	for (size_t i = 0; i < n; i++) {
		s->fact_names[SOKO_FACT_BOX1 + i] = at;
		at += sprintf(at, "box %zu", i + 1) + 1;
	}
	s->base.facts = s->fact_names;
	s->base.nfacts = (unsigned)(SOKO_FACT_BOX1 + n);
}

size_t soko_track_size(const struct lk_level *level)
{
	const struct sokoban *s = (const struct sokoban *)level;
	return s->forward ? 0 : 2 * (size_t)s->nboxes;
}

void soko_track_start(const struct lk_level *level, void *track)
{
	const struct sokoban *s = (const struct sokoban *)level;
	uint8_t *t = track;
	int i = 0;
	for (int c = 0; c < s->nfloor; c++)
		if (soko_bit(s->box0, c)) {
			uint16_t cell = s->cell_of[c];
			t[2 * i] = (uint8_t)(cell & 0xff);
			t[2 * i + 1] = (uint8_t)(cell >> 8);
			i++;
		}
}

unsigned soko_track_move(const struct lk_level *level, const void *key, uint32_t move,
			 void *track, uint16_t *facts, unsigned max)
{
	const struct sokoban *s = (const struct sokoban *)level;
	(void)key;
	if (!(move & SOKO_MOVE_PUSH) || max == 0)
		return 0;
	int from = (int)(move >> 3), to = from + s->off[move & 3];
	uint8_t *t = track;
	for (int i = 0; i < s->nboxes; i++)
		if ((t[2 * i] | (t[2 * i + 1] << 8)) == from) {
			t[2 * i] = (uint8_t)(to & 0xff);
			t[2 * i + 1] = (uint8_t)(to >> 8);
			facts[0] = (uint16_t)(SOKO_FACT_BOX1 + i);
			return 1;
		}
	return 0;
}
