/*
 * sokoban_pull.c - the pull search of Sokoban's search for any solution
 * (solve -a any): a best-first search backwards, by pulls from the solved
 * position towards the start (the reversed level of sokoban_reverse.c),
 * greedy by its estimate, or with pull-weighted (off by default) ordered
 * as YASS's backward search orders it (pulls/2 + 3/2 of the lower bound:
 * soko_pull_score), or with pull-both-orders (on by default) greedy with
 * YASS's order given turns on top over one table while greedy makes no
 * progress, up to a cap (raised fourfold by each stall turn that does not
 * answer, with pull-cap-turns, on by default, its states past the old cap
 * then counted in the pull search's share),
 * run beside the feature-space search of
 * sokoban_any.c and resumed where it stopped, not started again.
 *
 * Some levels are far easier backwards: boxes that must leave their goals
 * and come back in another order (Sasquatch II 23), goals deep in a room.
 * Greedy search backwards solves such levels in a few hundred thousand
 * states (Sasquatch I 37, II 7 and 23, III 38: 142,000 to 823,000), but the
 * portfolio's greedy first runs both directions in turns, starting again
 * at each slice, and its slices come too late to reach that.  So the pull
 * search keeps its own table and open list for the whole of the level's
 * feature-space searches (the portfolio's first search, the sound search's
 * stall turns and the search run again without cuts all grow the same one,
 * sokoban_any_budget.c) and grows with them: once they have stored
 * PULL_DELAY states in all (levels solved early pay nothing), the pull
 * search stores one state for every one they store after that (a pull
 * state costs a quarter of a feature-space state's time).
 *
 * Its answer comes three ways: it reaches the start (the pulls, played
 * back as pushes, solve the level); the feature-space search generates a
 * position it holds (Manzini's perimeter search; YASS's default method):
 * every position it reached can be solved by its pulls back; or, with
 * pull-two-way, it pulls to a position the running feature-space search
 * holds (every position of that search's table was reached from the
 * start by box moves, its table's parent links the way back).  Keys are
 * the forward search's (boxes plus the player's normalised square, the
 * least floor index the player reaches: the same in both directions, as
 * boxes and walls are), so a meeting is one hash lookup for each new
 * state of either side.  It never prunes a forward move, so it cannot
 * lose a solution; the path through it is replayed like any other.  Only
 * levels with as many boxes as goals have one solved position, and only
 * the pushes metric has a reversed level: elsewhere there is no pull
 * search (docs/games/sokoban.md, "Pull search").
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sokoban_any.h"

/* The least pull states to store whatever the forward search (0: the
 * default, none); tests set it so that small levels use the pull search. */
static size_t pull_min;

void soko_pull_set_min(size_t states)
{
	pull_min = states;
}

/* The forward states before the pull search stores any (tests set it
 * small, so that both sides grow together on small levels). */
static size_t pull_delay = PULL_DELAY;

void soko_pull_set_delay(size_t states)
{
	pull_delay = states ? states : PULL_DELAY;
}

/* Pull searches started (reversed levels made), for the tests: one a
 * level, however many feature-space searches it runs. */
static atomic_size_t pull_starts;

size_t soko_pull_starts(void)
{
	return atomic_load(&pull_starts);
}

/* Push a state on open list `cell` (a heap, least score first, then the
 * older state). */
static void open_push(struct soko_pull *p, size_t cell, unsigned score, uint32_t id)
{
	soko_cells_push(&p->open, cell, (uint64_t)score << 32 | id);
}

/* The score the open list orders a pulled state by, least first: YASS's
 * backward search's (Brian Damgaard), pulls/2 + 3/2 bound, that is
 * weighted A* with weight 3 on the bound: g, the pulls made from the
 * solved position (kept in the table's cost field), and h, the reversed
 * level's lower bound on the pulls still needed (the matching of boxes to
 * the start squares, player-aware, with pair conflicts: admissible,
 * tests/test_sokoban_pairs.c).  Plain greedy search (the estimate, h plus
 * 4 per unfinished box, alone) lets g grow without check: on Sasquatch II
 * 48 it wanders 3 million states deep; the pull count in the score keeps
 * the search near the solved position until the bound falls. */
unsigned soko_pull_score(unsigned pulls, unsigned bound)
{
	if (bound == LK_H_DEAD)
		return LK_H_DEAD;
	return pulls / 2 + 3 * bound / 2;
}

/* pull-both-orders: greedy's pull search runs as it runs alone, one state
 * for each forward state, and makes the same expansions; once it stalls,
 * PULL_BOTH_STALL expansions without a new least estimate (Sasquatch II 48:
 * stuck at 68 from its 93,155th expansion to its 3,153,563rd), YASS's
 * order earns BOTH_RATIO/BOTH_TURN expansions for each greedy expansion, on top of
 * greedy's share, until greedy's estimate falls again or YASS's order has
 * stored BOTH_CAP states in all.  Its states are time the forward search
 * loses (2 to 6 microseconds each, the most on levels with many boxes:
 * its bound is the full matching, player-aware, with pair conflicts), and
 * greedy stalls on the slow levels too (II 24 stays at 60 for its last
 * 2.65 million expansions), so what bounds the cost there is the cap, not
 * the stall.  II 48 needs 514,000 of YASS's states, I 12 610,000, in
 * whichever ratio and stall tried.  Greedy keeping its share keeps the
 * meetings that answer II 16, 27, III 11, where taking YASS's turns out
 * of greedy's share lost II 27 (docs/benchmarks.md, sections h32b, h33s
 * and h34s). */
#define BOTH_TURN 4    /* one of YASS's turns, in the credit's quarters */
#define BOTH_RATIO 4   /* quarters earned for each greedy expansion */
#define BOTH_CAP ((size_t)3 << 18)
/* pull-cap-turns: past BOTH_CAP, once raised, YASS's order's turns for
 * each greedy expansion while greedy stalls, its states counted in the
 * pull search's share (not on top of it).  On top, Sasquatch III 43 went
 * from 22 to 28 s; in the share, II 16 (answered by greedy's meeting)
 * from 15 to 24 s with 3 turns, 18 s with 1, and II 42 needs 18 s with
 * 3 and 26 s with 1 (docs/benchmarks.md, section h41u). */
#define CAP_TURNS 2

static size_t both_stall = PULL_BOTH_STALL;
static size_t both_cap = BOTH_CAP;

void soko_pull_set_stall(size_t expansions)
{
	both_stall = expansions;
}

void soko_pull_set_cap(size_t states)
{
	both_cap = states ? states : BOTH_CAP;
}

/* A flag per entry with both orders: on greedy's list, on YASS's (each
 * order pushes a state once, so expands it once). */
#define ON_LIST(cell) (1u << (cell))

static unsigned char *flags_of(struct soko_pull *p, uint32_t id)
{
	if (id >= p->flags_alloc) {
		size_t more = 2 * (size_t)id + 1024;
		p->flags = lk_xrealloc(p->flags, more);
		memset(p->flags + p->flags_alloc, 0, more - p->flags_alloc);
		p->flags_alloc = more;
	}
	return p->flags + id;
}

/* Push a pulled state (entry id, pulls made, key k) on open list cell:
 * greedy's (0) by the estimate (the bound plus 4 for each box off its
 * start square), YASS's (1) by soko_pull_score. */
static void open_on(struct soko_pull *p, size_t cell, uint32_t id, unsigned pulls,
		    const unsigned char *k)
{
	const struct lk_level *rev = p->rev;
	unsigned h = cell == 0 ? rev->game->estimate(rev, k, p->scratch) :
				 soko_pull_score(pulls, rev->game->heuristic(rev, k, p->yass_scratch));
	if (h != LK_H_DEAD)
		open_push(p, cell, h, id);
}

/* A pulled state (entry id, made: new in the table) generated by an
 * expansion from list cell.  One order alone: pushed on its list when new.
 * Both: pushed on the list of the order that generated it, unless it is
 * on that list already, new or not (a state the other order reached first
 * is still this order's to expand: each order expands what it generates,
 * and the table only spares the memory and lets both meet the forward
 * search). */
static void open_state(struct soko_pull *p, size_t cell, uint32_t id, unsigned pulls,
		       const unsigned char *k, bool made)
{
	if (!(p->share[0] && p->share[1])) {
		if (made)
			open_on(p, cell, id, pulls, k);
		return;
	}
	unsigned char *f = flags_of(p, id);
	if (*f & ON_LIST(cell))
		return;
	*f |= (unsigned char)ON_LIST(cell);
	p->seen += cell == 0;   /* a state greedy alone would have stored */
	open_on(p, cell, id, pulls, k);
}

/* Both orders in use, greedy stalled and YASS's budget not spent: YASS's
 * order earns its turns. */
static bool stalled(const struct soko_pull *p)
{
	return p->share[0] && p->share[1] && p->since >= both_stall && p->yass < p->cap;
}

/* The next entry to expand (*from: the list), or LK_NO_ENTRY when no pull
 * is left.  One order: its list.  Both: greedy's, as alone (it keeps its
 * share of the states, so it makes the expansions it makes alone), and YASS's list
 * whenever its order has earned a turn, BOTH_RATIO/BOTH_TURN of a turn for each
 * greedy expansion made while greedy stalls.  Greedy's list empty means
 * greedy has expanded everything it generated, so every state the pulls
 * reach: nothing is left for YASS's order either. */
static uint32_t next_open(struct soko_pull *p, size_t *from)
{
	if (!p->share[0] || !p->share[1]) {
		size_t cell = p->share[0] ? 0 : 1;
		if (p->open.cells[cell].n == 0)
			return LK_NO_ENTRY;
		*from = cell;
		return (uint32_t)soko_cells_pop(&p->open, cell);
	}
	if (p->credit >= BOTH_TURN && p->open.cells[1].n && p->yass < p->cap) {
		p->credit -= BOTH_TURN;
		*from = 1;
		return (uint32_t)soko_cells_pop(&p->open, 1);
	}
	if (p->open.cells[0].n == 0)
		return LK_NO_ENTRY;
	uint64_t v = soko_cells_pop(&p->open, 0);
	unsigned score = (unsigned)(v >> 32);   /* greedy's progress */
	if (score < p->best) {
		p->best = score;
		p->since = 0;
	} else {
		p->since++;
	}
	if (stalled(p) && p->credit < BOTH_TURN)   /* no hoard for later bursts */
		p->credit += p->raised && p->yass >= both_cap ? BOTH_TURN * CAP_TURNS : BOTH_RATIO;
	*from = 0;
	return (uint32_t)v;
}

void soko_pull_init(struct soko_pull *p, const struct sokoban *s, size_t max_bytes)
{
	memset(p, 0, sizeof *p);
	p->found = p->met = LK_NO_ENTRY;
	p->s = s;
	p->max_bytes = max_bytes;
	p->done = !s->use[SOKO_T_PULL] || s->forward || s->impossible;
	p->two_way = s->use[SOKO_T_PULL_TWO_WAY];
	p->weighted = s->use[SOKO_T_PULL_WEIGHTED];
	p->share[0] = p->weighted ? 0 : 1;
	p->share[1] = p->weighted ? 1 : 0;
	p->best = ~0u;
	p->cap = both_cap;
	if (s->use[SOKO_T_PULL_BOTH] && !p->weighted) {
		p->share[0] = p->share[1] = 1;
	}
	soko_pull_grow(p, 0, NULL);   /* tests: the least it stores */
}

/* Start the search once it is to store something: the reversed level
 * (its distances to the start squares) is not made for levels solved
 * before then. */
static void start(struct soko_pull *p)
{
	p->rev = soko_new_reverse(&p->s->base);
	if (!p->rev) {
		p->done = true;
		return;
	}
	atomic_fetch_add(&pull_starts, 1);
	const struct lk_level *rev = p->rev;
	lk_table_init(&p->table, rev->key_size, p->max_bytes);
	p->scratch = lk_xcalloc(1, rev->scratch_size);
	soko_scratch((const struct sokoban *)rev, p->scratch);
	/* YASS's order evaluates in a scratch of its own: the matching starts
	 * from solutions kept in the scratch, and YASS's states, far from
	 * greedy's, would push greedy's out (and greedy's YASS's): on
	 * Sasquatch II 16 both orders' evaluations ran the full algorithm
	 * far more often, 8 s more processor time than greedy alone */
	p->yass_scratch = p->scratch;
	if (p->share[0] && p->share[1]) {
		p->yass_scratch = lk_xcalloc(1, rev->scratch_size);
		soko_scratch((const struct sokoban *)rev, p->yass_scratch);
	}
	p->succ = lk_xmalloc((size_t)rev->max_successors * rev->key_size + 1);
	p->hashes = lk_xmalloc(((size_t)rev->max_successors + 1) * sizeof *p->hashes);
	p->edges = lk_xmalloc(((size_t)rev->max_successors + 1) * sizeof *p->edges);
	bool made;
	soko_cells_find(&p->open, 0, &made);
	soko_cells_find(&p->open, 1, &made);
	unsigned char *key = lk_xcalloc(1, rev->key_size);
	rev->game->initial_state(rev, key);
	uint32_t id;
	if (lk_table_intern(&p->table, key, lk_hash_bytes(key, rev->key_size), 0, 0, &id) ==
	    LK_INTERN_FULL)
		p->done = true;
	else
		for (size_t c = 0; c < 2; c++)   /* the start, on each list in use */
			if (p->share[c])
				open_state(p, c, id, 0, key, true);
	free(key);
}

/* pull-cap-turns: the cap bounds what YASS's order costs on levels where
 * greedy's pull search stalls but the forward search goes on (II 24); a
 * stall turn that did not answer says the forward side is stuck too, and
 * on Sasquatch II 42 YASS's order meets the forward search after 2.3 to
 * 2.7 million states, over three times the cap (docs/benchmarks.md,
 * section h41u).  Grown geometrically, as the turns are; past BOTH_CAP
 * YASS's states are counted in the share, CAP_TURNS of them for each
 * greedy expansion, so the pull search costs no more than before. */
bool soko_pull_raise_cap(struct soko_pull *p, size_t factor)
{
	if (p->done || !p->share[0] || !p->share[1] || factor < 2)
		return false;
	p->cap = p->cap > SIZE_MAX / factor ? SIZE_MAX : p->cap * factor;
	p->raised = true;
	return true;
}

void soko_pull_release(struct soko_pull *p)
{
	if (!p->rev)
		return;
	lk_table_release(&p->table);
	soko_cells_release(&p->open);
	if (p->yass_scratch != p->scratch)
		free(p->yass_scratch);
	free(p->scratch);
	free(p->succ);
	free(p->hashes);
	free(p->edges);
	free(p->flags);
	lk_level_free(p->rev);
	p->rev = NULL;
}

size_t soko_pull_bytes(const struct soko_pull *p)
{
	return p->rev ? p->table.bytes + p->open.bytes + p->flags_alloc : 0;
}

const struct lk_table *soko_pull_attach(struct soko_pull *p, const struct lk_table *forward)
{
	const struct lk_table *was = p->forward_table;
	p->forward_table = forward;
	return was;
}

/* A new pulled state k (hash, entry id): is it held by the running
 * feature-space search (pull-two-way)? */
static bool meets_forward(struct soko_pull *p, const unsigned char *k, uint64_t hash, uint32_t id)
{
	if (!p->two_way || !p->forward_table)
		return false;
	uint32_t f = lk_table_find(p->forward_table, k, hash);
	if (f == LK_NO_ENTRY)
		return false;
	p->found = id;
	p->met = f;
	return true;
}

/* The states counted against the pull search's share: those stored, or
 * with both orders those greedy alone would have stored. */
static size_t held(const struct soko_pull *p)
{
	return p->share[0] && p->share[1] ? p->seen + p->yass_share : p->table.count;
}

bool soko_pull_grow(struct soko_pull *p, size_t more_forward, struct soko_stop *stop)
{
	p->forward += more_forward;
	if (p->done)
		return p->found != LK_NO_ENTRY;
	/* one state for each forward state past the delay (greedy's, with
	 * both orders: YASS's come on top) */
	size_t past = p->forward > pull_delay ? p->forward - pull_delay : 0;
	size_t want = past / PULL_SHARE;
	if (want < pull_min)
		want = pull_min;
	if (want == 0)
		return false;
	if (!p->rev)
		start(p);
	if (p->done)
		return p->found != LK_NO_ENTRY;
	const struct lk_level *rev = p->rev;
	size_t ks = rev->key_size;
	while (held(p) < want) {
		/* after a long turn of another search (a stall turn, a greedy
		 * slice) the pull search catches up by many states at once:
		 * Sasquatch II 50 ran 3.6 s past its 30 s so */
		if (soko_stopped(stop))
			return false;
		size_t from;
		uint32_t id = next_open(p, &from);
		if (id == LK_NO_ENTRY) {
			p->done = true;   /* no pull left (the forward search will see) */
			return false;
		}
		/* the entry the list holds next, fetched ahead: greedy search
		 * often goes back to an old state, whose entry is far in memory */
#if defined(__GNUC__)
		if (p->open.cells[from].n) {
			uint32_t next = (uint32_t)p->open.cells[from].heap[0];
			if (next < p->table.count)
				__builtin_prefetch(lk_table_entry(&p->table, next));
		}
#endif
		uint32_t pulls = lk_table_cost(&p->table, id) + 1;   /* the children's */
		unsigned n = rev->game->successors(rev, lk_table_key(&p->table, id), p->scratch,
						   p->succ, p->edges);
		/* the children's hashes first, their places in the table (and
		 * in the running search's, pull-two-way) fetched ahead, so that
		 * the table's misses overlap (the pull search's stores were a
		 * tenth of Sasquatch III 43's time at the 30 s bound) */
		for (unsigned i = 0; i < n; i++) {
			p->hashes[i] = lk_hash_bytes(p->succ + (size_t)i * ks, ks);
			lk_table_prefetch(&p->table, p->hashes[i]);
			if (p->two_way && p->forward_table)
				lk_table_prefetch(p->forward_table, p->hashes[i]);
		}
		for (unsigned i = 0; i < n; i++) {
			const unsigned char *k = p->succ + (size_t)i * ks;
			uint64_t hash = p->hashes[i];
			uint32_t child;
			enum lk_intern got = lk_table_intern(&p->table, k, hash, id, pulls, &child);
			if (got == LK_INTERN_FULL) {
				p->done = true;
				return false;
			}
			if (got == LK_INTERN_FOUND) {
				open_state(p, from, child, pulls, k, false);
				continue;
			}
			p->yass += from;   /* YASS's order's states, against its cap */
			p->yass_share += from && p->raised && p->yass > both_cap;
			if (rev->game->is_goal(rev, k)) {
				p->found = child;   /* the start: solved backwards */
				p->done = true;
				return true;
			}
			if (meets_forward(p, k, hash, child)) {
				p->done = true;
				return true;
			}
			open_state(p, from, child, pulls, k, true);
		}
	}
	return false;
}

uint32_t soko_pull_find(const struct soko_pull *p, const unsigned char *key, uint64_t hash)
{
	/* entry 0 is the virtual start (the player anywhere): no forward key */
	return p->rev ? lk_table_find(&p->table, key, hash) : LK_NO_ENTRY;
}

static size_t pull_path(const struct soko_pull *p, uint32_t id, unsigned char **out)
{
	const struct sokoban *rs = (const struct sokoban *)p->rev;
	size_t ks = p->rev->key_size, n = 1;
	for (uint32_t e = id; e != 0; e = lk_table_parent(&p->table, e))
		n++;
	unsigned char *keys = lk_xmalloc(n * ks);
	size_t i = 0;
	uint32_t last = id;
	for (uint32_t e = id; e != 0; e = lk_table_parent(&p->table, e)) {
		memcpy(keys + i++ * ks, lk_table_key(&p->table, e), ks);
		last = e;
	}
	/* The last key before the virtual start is one pull from the solved
	 * position: one box off the goals, on the square the player pushes it
	 * from; after that push the player stands there. */
	const unsigned char *lk = lk_table_key(&p->table, last);
	unsigned char *solved = keys + i * ks;
	memset(solved, 0, ks);
	memcpy(solved + 2, rs->goal_bits, rs->bitset_bytes);
	int from = rs->player0;
	for (int c = 0; c < rs->nfloor; c++)
		if (soko_bit(lk + 2, c) && !soko_bit(rs->goal_bits, c))
			from = rs->cell_of[c];
	struct soko_scratch *sc = p->scratch;
	int nb = soko_unpack(rs, solved, sc);
	soko_key_set_player(solved, (unsigned)soko_reach(rs, sc, from));
	soko_clear_boxes(rs, sc, nb);
	*out = keys;
	return n;
}

unsigned char *soko_pull_chain(const struct soko_pull *p, uint32_t id, const unsigned char ***chain,
			       size_t *n)
{
	unsigned char *back;
	size_t nb = pull_path(p, id, &back), ks = p->rev->key_size;
	/* the path's first key is the chain's last */
	*chain = lk_xrealloc(*chain, (*n + nb - 1) * sizeof **chain);
	for (size_t k = 1; k < nb; k++)
		(*chain)[(*n)++] = back + k * ks;
	return back;
}
