/*
 * sokoban_deadtab.c - deadlock patterns learned during the search (the
 * "deadlock tables" of YASS and Festival).
 *
 * When a box has moved, the boxes around it (the moved box and every box
 * touching it or a box so taken, diagonals included, up to DT_MAX_BOXES),
 * and if that proves nothing the fence of an area beside it the player
 * cannot reach (a corral: every box touching the area), are searched on
 * their own: every other box taken off the board, the player
 * where it stands, pushes until every one of them stands on a goal or they
 * have spread apart (no box on its first square, none touching another).
 * A position that can be solved can still be solved with boxes taken away
 * (a push of a box taken away is skipped, the rest only have more room),
 * so if that small search runs out of positions without success, the boxes
 * on those squares make any position dead while the player is in the area
 * it had: a pattern of box squares and player squares, kept and matched
 * against every later position that has a box on one of its squares.
 *
 * With big-corrals the corral's fence may have up to DT_CORRAL_BOXES
 * boxes (its pattern's boxes are then read from the pattern store, not
 * kept inline in the per-square lists): session 35 sampled the
 * feature-space search's expansions on Sasquatch II 11 and 28 and found
 * 34 % and 80 % of them dead by a corral fenced by 7 or more boxes, which
 * a small search of those boxes proves in under 100 positions.
 *
 * The small search is bounded (DT_STATES positions, DT_BIG_STATES for more
 * than DT_MAX_BOXES boxes); when the bound is hit nothing is learned.  Its starts found alive (or left undecided) are
 * remembered and not searched again; with alive-reuse, so are the
 * positions on the way to a success, and a search that meets a position
 * known alive stops there: alive (both only ever learn less, so they are
 * as sound as the rest).  With proven-alive (off by default) a corral's
 * fence searches within DT_PROOF_STATES and only a success with every box
 * on a goal is kept along its way and ends other such searches: spread
 * boxes are a success only as seen from that search's start (its boxes
 * left their squares), so a position on the way there is no more alive
 * than the start was.  On Sasquatch II 43, 149 of 693 fences called alive
 * were proved dead by a strict search, 96 of them by a spread success or
 * its way, 49 by reuse; the box clusters' verdicts were never wrong
 * (session 36).  Its own pruning is only what holds with fewer boxes
 * than goals: dead squares, freeze and bipartite deadlocks (PI-corrals
 * assume every goal must be filled).
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any.h"

#define DT_STATES 2000
/* The bound of a small search of more than DT_MAX_BOXES boxes (a big
 * corral's fence): on Sasquatch II 11 and 28, 99 % of those proved dead
 * took under 100 positions, while the ones that hit 2000 cost as much as
 * the feature-space search itself. */
#define DT_BIG_STATES 100
/* The bound of a corral's small search with proven-alive: without the
 * spread guess and the reuse of its positions more of them run to the
 * bound, and at 2000 they cost Sasquatch II 4 two thirds of its stored
 * states (lost at -t 30) and I 19 2.5 times its time; at 200 both are
 * faster than without proven-alive (session 36). */
#define DT_PROOF_STATES 200
/* An entry whose pattern has more boxes than fit inline. */
#define DT_LONG 0xff
/* Starts whose normalised player is kept (a power of two). */
#define DT_NORM_SLOTS 4096u

void soko_deadtab_init(struct soko_deadtab *t, const struct sokoban *s, size_t scratch_size)
{
	memset(t, 0, sizeof *t);
	t->s = s;
	t->nfloor = s->nfloor;
	t->player_bytes = ((size_t)s->nfloor + 7) / 8;
	t->by_cell = lk_xcalloc((size_t)s->cells, sizeof *t->by_cell);
	t->by_cell_n = lk_xcalloc((size_t)s->cells, sizeof *t->by_cell_n);
	t->by_cell_alloc = lk_xcalloc((size_t)s->cells, sizeof *t->by_cell_alloc);
	t->scratch = lk_xcalloc(1, scratch_size);
	soko_scratch(s, t->scratch);
	t->key = lk_xcalloc(1, s->base.key_size);
	t->succ = lk_xcalloc((size_t)s->base.max_successors + 1, s->base.key_size);
	t->in_cluster = lk_xcalloc((size_t)s->cells, 1);
	t->mark = lk_xcalloc((size_t)s->cells, sizeof *t->mark);
	t->stack = lk_xmalloc((size_t)s->cells * sizeof *t->stack);
	t->norm_keys = lk_xmalloc(DT_NORM_SLOTS * s->base.key_size);
	t->norm_used = lk_xcalloc(DT_NORM_SLOTS, 1);
	t->norm_player = lk_xmalloc(DT_NORM_SLOTS * sizeof *t->norm_player);
	lk_table_init(&t->table, s->base.key_size, 0);
	lk_table_init(&t->alive, s->base.key_size, 0);
	soko_matcher_init(&t->matcher, s);
	t->use_rows = soko_rows_init(&t->rows, s);
}

void soko_deadtab_release(struct soko_deadtab *t)
{
	for (int c = 0; t->by_cell && c < t->s->cells; c++)
		free(t->by_cell[c]);
	free(t->by_cell);
	free(t->by_cell_n);
	free(t->by_cell_alloc);
	free(t->boxes);
	free(t->first);
	free(t->player);
	free(t->scratch);
	free(t->key);
	free(t->succ);
	free(t->in_cluster);
	free(t->mark);
	free(t->stack);
	free(t->norm_keys);
	free(t->norm_used);
	free(t->norm_player);
	lk_table_release(&t->table);
	lk_table_release(&t->alive);
	soko_matcher_release(&t->matcher);
	soko_rows_release(&t->rows);
	memset(t, 0, sizeof *t);
}

size_t soko_deadtab_bytes(const struct soko_deadtab *t)
{
	return t->table.peak_bytes + t->alive.bytes + t->boxes_alloc * sizeof *t->boxes +
	       t->first_alloc * sizeof *t->first + t->player_alloc + t->by_cell_bytes +
	       DT_NORM_SLOTS * (t->s->base.key_size + 1 + sizeof *t->norm_player);
}

/* Does the pattern of entry e of cell c match the position in sc (its
 * boxes in sc->box, a box on c; the player's normalised square `player`,
 * a compact index)?  Its other boxes first, then its player squares. */
static bool matches(const struct soko_deadtab *t, const struct soko_scratch *sc,
		    const struct soko_dt_entry *e, unsigned player)
{
	if (e->nother == DT_LONG) {
		for (uint32_t k = t->first[e->pattern]; k < t->first[e->pattern + 1]; k++)
			if (!sc->box[t->boxes[k]])
				return false;
	} else {
		for (int k = 0; k < e->nother; k++)
			if (!sc->box[e->other[k]])
				return false;
	}
	const uint8_t *p = t->player + (size_t)e->pattern * t->player_bytes;
	return p[player >> 3] >> (player & 7) & 1;
}

static void add_pattern(struct soko_deadtab *t, const uint16_t *boxes, int n,
			const struct soko_scratch *reach)
{
	const struct sokoban *s = t->s;
	uint32_t i = (uint32_t)t->npatterns++;
	LK_ALLOC_GROW(t->first, t->npatterns + 1, t->first_alloc);
	if (i == 0)
		t->first[0] = 0;
	LK_ALLOC_GROW(t->boxes, t->first[i] + (size_t)n, t->boxes_alloc);
	memcpy(t->boxes + t->first[i], boxes, (size_t)n * sizeof *boxes);
	t->first[i + 1] = t->first[i] + (uint32_t)n;
	size_t need = t->npatterns * t->player_bytes;
	if (need > t->player_alloc) {
		size_t a = t->player_alloc ? t->player_alloc : 1024;
		while (a < need)
			a *= 2;
		t->player = lk_xrealloc(t->player, a);
		t->player_alloc = a;
	}
	uint8_t *p = t->player + (size_t)i * t->player_bytes;
	memset(p, 0, t->player_bytes);
	for (int c = 0; c < s->nfloor; c++)
		if (reach->mark[s->cell_of[c]] == reach->stamp)
			p[c >> 3] |= (uint8_t)(1u << (c & 7));
	for (int k = 0; k < n; k++) {
		int c = boxes[k];
		if (t->by_cell_n[c] == t->by_cell_alloc[c]) {
			size_t grown = t->by_cell_alloc[c] ? 2 * t->by_cell_alloc[c] : 4;
			t->by_cell_bytes += (grown - t->by_cell_alloc[c]) * sizeof **t->by_cell;
			t->by_cell_alloc[c] = grown;
			t->by_cell[c] = lk_xrealloc(t->by_cell[c], t->by_cell_alloc[c] * sizeof **t->by_cell);
		}
		struct soko_dt_entry *e = &t->by_cell[c][t->by_cell_n[c]++];
		e->pattern = i;
		e->nother = 0;
		if (n > DT_MAX_BOXES) {
			e->nother = DT_LONG;
			continue;
		}
		for (int j = 0; j < n; j++)
			if (j != k)
				e->other[e->nother++] = boxes[j];
	}
}

/* The boxes around cell: boxes touching it or a box so taken (eight
 * neighbours), at most DT_MAX_BOXES, into out. */
static int cluster(struct soko_deadtab *t, const struct soko_scratch *sc, int cell, uint16_t *out)
{
	const struct sokoban *s = t->s;
	int n = 0, head = 0;
	out[n++] = (uint16_t)cell;
	t->in_cluster[cell] = 1;
	while (head < n && n < DT_MAX_BOXES) {
		int c = out[head++];
		for (int dy = -1; dy <= 1 && n < DT_MAX_BOXES; dy++)
			for (int dx = -1; dx <= 1 && n < DT_MAX_BOXES; dx++) {
				int x = c + dy * s->width + dx;
				if (x < 0 || x >= s->cells || !sc->box[x] || t->in_cluster[x])
					continue;
				t->in_cluster[x] = 1;
				out[n++] = (uint16_t)x;
			}
	}
	for (int i = 0; i < n; i++)
		t->in_cluster[out[i]] = 0;
	return n;
}

/* The boxes fencing an area the player cannot reach beside cell (a
 * corral: every box touching it), at most DT_MAX_BOXES, into out; 0 when
 * the player reaches every free neighbour of cell, or the fence is bigger.
 * sc->box holds the position, `player` the player's normalised square. */
static int corral_cluster(struct soko_deadtab *t, const struct soko_scratch *sc, int cell,
			  unsigned player, uint16_t *out)
{
	const struct sokoban *s = t->s;
	int most = s->use[SOKO_T_BIG_CORRALS] ? DT_CORRAL_BOXES : DT_MAX_BOXES;
	size_t ncells = (size_t)s->cells;
	if (t->stamp > UINT32_MAX - 4) {
		memset(t->mark, 0, ncells * sizeof *t->mark);
		t->stamp = 0;
	}
	uint32_t reach = ++t->stamp, area = ++t->stamp, wanted = ++t->stamp;
	/* the player's reach only until it holds every free neighbour of
	 * cell (then there is no corral beside it), stamped wanted first */
	int left = 0;
	for (int d = 0; d < 4; d++) {
		int x = cell + s->off[d];
		if (!(s->wall[x] | sc->box[x]) && t->mark[x] != wanted) {
			t->mark[x] = wanted;
			left++;
		}
	}
	int sp = 0, start = s->cell_of[player];
	left -= t->mark[start] == wanted;
	t->mark[start] = reach;
	t->stack[sp++] = (uint16_t)start;
	while (sp > 0 && left > 0) {
		int c = t->stack[--sp];
		for (int d = 0; d < 4; d++) {
			int x = c + s->off[d];
			if ((s->wall[x] | sc->box[x]) || t->mark[x] == reach)
				continue;
			left -= t->mark[x] == wanted;
			t->mark[x] = reach;
			t->stack[sp++] = (uint16_t)x;
		}
	}
	if (left == 0)
		return 0;
	int seed = -1;
	for (int d = 0; d < 4 && seed < 0; d++) {
		int x = cell + s->off[d];
		if (!(s->wall[x] | sc->box[x]) && t->mark[x] != reach)
			seed = x;
	}
	if (seed < 0)
		return 0;
	int n = 0;
	t->mark[seed] = area;
	t->stack[sp++] = (uint16_t)seed;
	while (sp > 0) {
		int c = t->stack[--sp];
		for (int d = 0; d < 4; d++) {
			int x = c + s->off[d];
			if (s->wall[x] || t->mark[x] == area)
				continue;
			t->mark[x] = area;
			if (sc->box[x]) {
				if (n == most)
					return 0;
				out[n++] = (uint16_t)x;
			} else {
				t->stack[sp++] = (uint16_t)x;
			}
		}
	}
	return n;
}

/* Is the small search's position a success: every box on a goal (a proof
 * that the start is alive: SUCCESS_PROVEN), or the boxes spread apart (none
 * on a square of the start, none touching: SUCCESS_SPREAD, a guess, and one
 * only as seen from that start)? */
enum { SUCCESS_NONE, SUCCESS_SPREAD, SUCCESS_PROVEN };

static int success(const struct sokoban *s, struct soko_scratch *sc, int n,
		   const uint8_t *start_square)
{
	bool all_goals = true, spread = true;
	for (int i = 0; i < n; i++) {
		int c = sc->boxes[i];
		all_goals &= s->goal[c] != 0;
		if (start_square[c])
			spread = false;
		for (int dy = -1; dy <= 1 && spread; dy++)
			for (int dx = -1; dx <= 1 && spread; dx++)
				if ((dx || dy) && sc->box[c + dy * s->width + dx])
					spread = false;
	}
	return all_goals ? SUCCESS_PROVEN : spread ? SUCCESS_SPREAD : SUCCESS_NONE;
}

/* The player's normalised square after box b was pushed onto `to` (box
 * map of sc as after the push), from the area before it (stamp st of
 * sc->mark, least compact index least): soko_pushed_area, a local test
 * where it is sure, else a flood that may stop early. */
static unsigned pushed_player(struct soko_deadtab *t, struct soko_scratch *sc, int b, int to,
			      uint32_t st, unsigned least)
{
	return (unsigned)soko_pushed_area(t->s, sc, b, to, st, least);
}

/* The player's area from cell in the small position whose n boxes are
 * unpacked in t->scratch: in t->rows.area (the rows' boxes flipped on and
 * off again round it) or, on a board wider than a word, in the scratch's
 * mark; returns its least compact index. */
static unsigned small_reach(struct soko_deadtab *t, int n, int cell)
{
	const struct sokoban *s = t->s;
	struct soko_scratch *sc = t->scratch;
	if (!t->use_rows)
		return (unsigned)soko_reach(s, sc, cell);
	soko_rows_boxes(&t->rows, sc->boxes, n);
	int low = soko_rows_flood(&t->rows, t->rows.area, cell, -1);
	soko_rows_boxes(&t->rows, sc->boxes, n);
	return (unsigned)s->compact[low];
}

/* pushes() a row at a time: the same pushes in the same order, the
 * player's areas read from t->rows (the parent's in area, each child's
 * flooded into area2 where the local test cannot tell). */
static unsigned pushes_rows(struct soko_deadtab *t, const uint8_t *key, int n)
{
	const struct sokoban *s = t->s;
	struct soko_scratch *sc = t->scratch;
	struct soko_rows *r = &t->rows;
	size_t ks = s->base.key_size;
	soko_rows_boxes(r, sc->boxes, n);
	unsigned least = (unsigned)s->compact[soko_rows_flood(
		r, r->area, s->cell_of[soko_key_player(key)], -1)];
	unsigned count = 0;
	for (int i = 0; i < n; i++) {
		int b = sc->boxes[i];
		uint64_t *row_b = &r->box[r->row_of[b]], bit_b = r->bit_of[b];
		for (int d = 0; d < 4; d++) {
			int to = b + s->off[d], from = b - s->off[d];
			if (!soko_rows_in(r, r->area, from) || (s->wall[to] | sc->box[to]) ||
			    s->dead[to])
				continue;
			sc->box[b] = 0;
			sc->box[to] = 1;
			if (!soko_freeze_deadlock(s, sc, to)) {
				uint64_t *row_to = &r->box[r->row_of[to]], bit_to = r->bit_of[to];
				*row_b ^= bit_b;
				*row_to ^= bit_to;
				uint8_t *out = t->succ + count * ks;
				memcpy(out, key, ks);
				soko_bit_flip(out + 2, s->compact[b]);
				soko_bit_flip(out + 2, s->compact[to]);
				soko_key_set_player(out,
						    (unsigned)soko_rows_pushed(s, r, sc, b, to, least));
				count++;
				*row_to ^= bit_to;
				*row_b ^= bit_b;
			}
			sc->box[to] = 0;
			sc->box[b] = 1;
		}
	}
	soko_rows_boxes(r, sc->boxes, n);
	soko_clear_boxes(s, sc, n);
	return count;
}

/* The pushes of the small position key, its n boxes unpacked in
 * t->scratch (cleared on return), into t->succ, each with its player
 * normalised (pushed_player); returns how many. */
static unsigned pushes(struct soko_deadtab *t, const uint8_t *key, int n)
{
	if (t->use_rows)
		return pushes_rows(t, key, n);
	const struct sokoban *s = t->s;
	struct soko_scratch *sc = t->scratch;
	size_t ks = s->base.key_size;
	unsigned least = (unsigned)soko_reach(s, sc, s->cell_of[soko_key_player(key)]);
	uint32_t st = sc->stamp;
	unsigned count = 0;
	for (int i = 0; i < n; i++) {
		int b = sc->boxes[i];
		for (int d = 0; d < 4; d++) {
			int to = b + s->off[d], from = b - s->off[d];
			if (sc->mark[from] != st || (s->wall[to] | sc->box[to]) || s->dead[to])
				continue;
			sc->box[b] = 0;
			sc->box[to] = 1;
			if (!soko_freeze_deadlock(s, sc, to)) {
				uint8_t *out = t->succ + count * ks;
				memcpy(out, key, ks);
				soko_bit_flip(out + 2, s->compact[b]);
				soko_bit_flip(out + 2, s->compact[to]);
				soko_key_set_player(out, pushed_player(t, sc, b, to, st, least));
				count++;
			}
			sc->box[to] = 0;
			sc->box[b] = 1;
		}
	}
	soko_clear_boxes(s, sc, n);
	return count;
}

/* Search the boxes of the cluster alone from the player's area; true when
 * the search ran out of positions without success (a deadlock).  With
 * proofs_only (proven-alive, a corral's fence) only positions known alive
 * by a proof end it, and only a proof is kept along its way. */
static bool small_search_dead(struct soko_deadtab *t, const uint16_t *boxes, int n,
			      unsigned player, bool proofs_only)
{
	const struct sokoban *s = t->s;
	struct soko_scratch *sc = t->scratch;
	size_t ks = s->base.key_size;
	uint8_t *start_square = t->in_cluster;
	memset(t->key, 0, ks);
	for (int i = 0; i < n; i++) {
		soko_bit_flip(t->key + 2, s->compact[boxes[i]]);
		start_square[boxes[i]] = 1;
	}
	soko_key_set_player(t->key, player);
	/* normalise the player in the small position: the fess search meets
	 * the same boxes round a moved box with the player on the same
	 * square again and again (most starts are known alive), so the
	 * answers are kept by the key as given; a flood otherwise */
	uint64_t given = lk_hash_bytes(t->key, ks);
	size_t slot = (size_t)(given & (DT_NORM_SLOTS - 1));
	uint8_t *kept = t->norm_keys + slot * ks;
	int m;
	if (t->norm_used[slot] && memcmp(kept, t->key, ks) == 0) {
		soko_key_set_player(t->key, t->norm_player[slot]);
	} else {
		m = soko_unpack(s, t->key, sc);
		unsigned least = small_reach(t, m, s->cell_of[player]);
		soko_clear_boxes(s, sc, m);
		memcpy(kept, t->key, ks);
		t->norm_used[slot] = 1;
		t->norm_player[slot] = (uint16_t)least;
		soko_key_set_player(t->key, least);
	}
	bool dead = false, known_alive = false;
	uint64_t hash = lk_hash_bytes(t->key, ks);
	if (lk_table_find(&t->alive, t->key, hash) != LK_NO_ENTRY) {
		known_alive = true;
		goto out;
	}
	lk_table_reset(&t->table, ks, 0);
	uint32_t id;
	lk_table_intern(&t->table, t->key, hash, 0, 0, &id);
	bool found = false, reuse = s->use[SOKO_T_ALIVE_REUSE];
	/* proven-alive: the alive table's entries say whether they are proofs
	 * (cost 1: on the way to every box on a goal) or guesses (cost 0: a
	 * start that spread its boxes or hit the bound); only proofs end
	 * another search or are kept along the way */
	bool proven = false;
	uint32_t success_at = 0;
	uint32_t bound = n > DT_MAX_BOXES ? DT_BIG_STATES : DT_STATES;
	if (proofs_only && bound > DT_PROOF_STATES)
		bound = DT_PROOF_STATES;
	for (uint32_t head = 0; head < t->table.count && !found; head++) {
		if (t->table.count >= bound)
			break;
		memcpy(t->key, lk_table_key(&t->table, head), ks);
		m = soko_unpack(s, t->key, sc);
		int ok = success(s, sc, m, start_square);
		/* a bipartite deadlock of the small position ends this path */
		bool stuck = !ok && head > 0 && soko_unmatchable(s, sc, m, &t->matcher);
		if (ok || stuck)
			soko_clear_boxes(s, sc, m);
		if (ok) {
			found = true;
			proven = ok == SUCCESS_PROVEN;
			success_at = head;
			break;
		}
		if (stuck)
			continue;
		t->work++;
		/* the position stays unpacked for its pushes */
		unsigned k = pushes(t, t->key, m);
		for (unsigned j = 0; j < k && !found; j++) {
			const uint8_t *c = t->succ + j * ks;
			uint64_t h = lk_hash_bytes(c, ks);
			/* a position already found alive: so is this one */
			uint32_t known = reuse ? lk_table_find(&t->alive, c, h) : LK_NO_ENTRY;
			bool trusted = known != LK_NO_ENTRY &&
				       (!proofs_only || lk_table_cost(&t->alive, known) == 1);
			t->unproven += known != LK_NO_ENTRY && !trusted;
			if (trusted) {
				found = true;
				proven = lk_table_cost(&t->alive, known) == 1;
				success_at = head;
				t->reused++;
			} else {
				lk_table_intern(&t->table, c, h, head, 0, &id);
			}
		}
	}
	dead = !found && t->table.count < bound;
	if (!dead) {
		/* remember the start as alive (or undecided): the table's
		 * first entry; with alive-reuse, the positions on the way to
		 * the success too */
		const void *k0 = lk_table_key(&t->table, 0);
		lk_table_intern(&t->alive, k0, lk_hash_bytes(k0, ks), 0, proven, &id);
		for (uint32_t e = success_at; reuse && found && (proven || !proofs_only) && e != 0;
		     e = lk_table_parent(&t->table, e)) {
			const void *ke = lk_table_key(&t->table, e);
			lk_table_intern(&t->alive, ke, lk_hash_bytes(ke, ks), 0, proven, &id);
		}
	}
out:
	for (int i = 0; i < n; i++)
		start_square[boxes[i]] = 0;
	(void)known_alive;
	return dead;
}

bool soko_deadtab_check(struct soko_deadtab *t, const struct soko_scratch *sc, int cell,
			unsigned player, bool learn)
{
	const struct sokoban *s = t->s;
	/* every pattern listed for cell has a box there */
	for (size_t k = 0; sc->box[cell] && k < t->by_cell_n[cell]; k++)
		if (matches(t, sc, &t->by_cell[cell][k], player)) {
			t->matched++;
			t->matched_big += t->by_cell[cell][k].nother == DT_LONG;
			return true;
		}
	if (!learn)
		return false;
	/* the boxes around the moved one, then the fence of a corral beside
	 * it (YASS's corral deadlocks), each searched alone */
	uint16_t boxes[DT_CORRAL_BOXES];
	int n = 0;
	bool dead = false;
	for (int kind = 0; kind < 2 && !dead; kind++) {
		n = kind == 0 ? cluster(t, sc, cell, boxes) : corral_cluster(t, sc, cell, player, boxes);
		bool off_goal = false;
		for (int i = 0; i < n; i++)
			off_goal |= !s->goal[boxes[i]];
		if (n < 2 || !off_goal)
			continue;
		t->searches++;
		dead = small_search_dead(t, boxes, n, player,
					 kind == 1 && s->use[SOKO_T_PROVEN_ALIVE]);
	}
	if (!dead)
		return false;
	/* the player's area in the small position, for the pattern */
	struct soko_scratch *tmp = t->scratch;
	memset(t->key, 0, s->base.key_size);
	for (int i = 0; i < n; i++)
		soko_bit_flip(t->key + 2, s->compact[boxes[i]]);
	int m = soko_unpack(s, t->key, tmp);
	soko_reach(s, tmp, s->cell_of[player]);
	add_pattern(t, boxes, n, tmp);
	soko_clear_boxes(s, tmp, m);
	t->learned++;
	t->matched++;
	t->matched_big += n > DT_MAX_BOXES;
	return true;
}

/* The push searches learn while their small searches' work stays under
 * this many expansions plus a sixteenth of the pushes checked, and they
 * try (a cluster looked at, its start looked up) at most this many times
 * plus once every PUSH_TRIES_EVERY pushes: matching is cheap, trying is
 * not, and small levels solve in fewer pushes than learning would cost. */
#define PUSH_LEARN_BASE 200
#define PUSH_TRIES_BASE 4
#define PUSH_TRIES_EVERY 32

struct soko_deadtab *soko_deadtab_new(const struct sokoban *s)
{
	struct soko_deadtab *t = lk_xmalloc(sizeof *t);
	soko_deadtab_init(t, s, soko_scratch_size(s));
	return t;
}

void soko_deadtab_free(struct soko_deadtab *t)
{
	if (!t)
		return;
	soko_deadtab_release(t);
	free(t);
}

void soko_deadtab_reset(struct soko_deadtab *t)
{
	memset(t->by_cell_n, 0, (size_t)t->s->cells * sizeof *t->by_cell_n);
	t->npatterns = 0;
	lk_table_reset(&t->alive, t->s->base.key_size, 0);
	t->learned = t->matched = t->searches = t->work = t->checks = t->reused = 0;
	t->unproven = 0;
	t->matched_big = 0;
}

bool soko_deadtab_push(struct soko_deadtab *t, const struct soko_scratch *sc, int cell,
		       unsigned player)
{
	t->checks++;
	bool learn = t->work < PUSH_LEARN_BASE + t->checks / 16 &&
		     t->searches < PUSH_TRIES_BASE + t->checks / PUSH_TRIES_EVERY;
	return soko_deadtab_check(t, sc, cell, player, learn);
}
