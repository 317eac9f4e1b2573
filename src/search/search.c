/*
 * search.c - breadth-first, uniform-cost, A* and greedy best-first search
 * over the game interface, forwards, backwards on the game's reversed
 * level, or both in turns.
 *
 * Each direction is a "lane" with its own state table and open list.  The
 * table entry of a state holds its parent and its cost so far, so a
 * solution is rebuilt by walking parents; nothing stores paths.  States a
 * best-first search has proved dead (heuristic LK_H_DEAD) keep cost
 * DEAD_COST so they are recognised, never expanded, when met again.
 *
 * With both directions, lanes take turns of SLICE expansions; an A* lane
 * whose bound on the optimum is below the other's waits all but one turn in
 * LAG_TURNS (both must raise theirs to the optimum: the higher is nearer).
 * The first lane to finish answers (solved: its solution, optimal for BFS,
 * UCS and A*; exhausted: unsolvable).  Greedy lanes also look up every new
 * state in the other lane's table and stop where they meet, joining the two
 * half paths.  The auto portfolio uses the same two lanes for A* and BFS
 * forwards, in turns counted in generated states, never on the clock.
 */
#define _POSIX_C_SOURCE 200809L
#include "levelkit/search.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "open_list.h"

#define DEAD_COST UINT32_MAX
/* How many expansions between looks at the clock and the cancel flag, at
 * most: fewer while an expansion is slow (a big Sokoban level's matching
 * bound takes a millisecond a state, so 256 of them overran -t 0.01 by
 * half a second), so that a look comes about every CHECK_GAP seconds. */
#define CHECK_EVERY 256
#define CHECK_GAP 0.002
/* Expansions per turn when two lanes alternate; turns a lagging lane waits. */
#define SLICE 4096
#define LAG_TURNS 8
/* The auto portfolio's turns, in generated states, never seconds, so that
 * they fall the same on every run under any load: per round, BFS generates
 * PORTFOLIO_SLICE states and A* PORTFOLIO_TAU / (PORTFOLIO_TAU + n) of that,
 * n the states both have generated, never less than 1/PORTFOLIO_FLOOR: half
 * at first, where a good heuristic answers (A* alone is fast or not at all),
 * then an eighth (a slow decay gives A* seconds where a state costs 0.5 ms,
 * 1 us elsewhere: docs/benchmarks.md, ps-auto-det; a share that followed A*'s
 * progress was backwards: docs/games/puzzlescript.md). */
#define PORTFOLIO_SLICE 1024
#define PORTFOLIO_TAU 1000
#define PORTFOLIO_FLOOR 8
/* A* has its least share while its heuristic had one value over this many states on. */
#define PORTFOLIO_FLAT 64

void lk_solver_init(struct lk_solver *s)
{
	memset(s, 0, sizeof *s);
	for (int i = 0; i < 2; i++) {
		lk_table_init(&s->lane[i].table, 0, 0);
		s->lane[i].open = lk_xmalloc(sizeof *s->lane[i].open);
		lk_open_init(s->lane[i].open);
	}
}

void lk_solver_release(struct lk_solver *s)
{
	for (int i = 0; i < 2; i++) {
		struct lk_lane *m = &s->lane[i];
		lk_table_release(&m->table);
		lk_open_release(m->open);
		free(m->open);
		free(m->scratch);
		free(m->succ_keys);
		free(m->edges);
		free(m->order);
		free(m->hashes);
	}
	memset(s, 0, sizeof *s);
}

struct run;

/* One direction of a search in progress. */
struct lane {
	struct run *run;
	struct lk_lane *mem;
	const struct lk_level *level;
	const struct lk_game *game;
	struct lane *other;      /* the opposite lane, when meeting is on */
	struct lane *partner;    /* A*: the opposite lane, whose table gives upper bounds */
	size_t key_size;
	size_t max_memory;
	uint64_t max_states;
	enum lk_algo algo;       /* BFS, UCS, ASTAR or GREEDY */
	bool greedy, shuffle, done, backward;
	enum lk_status status;   /* once done */
	enum lk_limit limit;
	uint32_t goal;           /* solved: the goal entry */
	uint32_t head;           /* BFS: next entry to expand */
	uint32_t layer_end;      /* BFS: the first entry of the layer after head's */
	unsigned long layer;     /* BFS: the depth in edges of the entry last taken */
	uint64_t expanded, generated;
	uint64_t next_check;     /* expansions at the next look at the bounds */
	unsigned check_every;    /* expansions between looks, 1 .. CHECK_EVERY */
	double last_check;       /* lk_now() at the last look */
	size_t popped;           /* best-first: priority of the last state taken */
	unsigned best_h, worst_h;   /* best-first: the least and greatest heuristic met */
};

struct run {
	const struct lk_search_options *opt;
	double deadline;
	enum lk_limit stop;      /* set when time runs out or on cancel */
	bool met;                /* the lanes met */
	bool met_optimal;        /* two A* lanes met, proved optimal */
	uint32_t met_forward, met_backward;
	/* Two A* lanes: the cheapest path through a state both hold (its
	 * cost in one table plus in the other), UINT64_MAX while none */
	uint64_t upper;
	uint32_t upper_forward, upper_backward;
};

static void prepare_lane(struct lane *L, struct lk_lane *m, const struct lk_level *lv,
			 uint64_t seed, size_t max_memory)
{
	L->mem = m;
	L->level = lv;
	L->game = lv->game;
	L->key_size = lv->key_size;
	L->max_memory = max_memory;
	if (lv->scratch_size > m->scratch_alloc) {
		free(m->scratch);
		m->scratch = lk_xcalloc(1, lv->scratch_size);
		m->scratch_alloc = lv->scratch_size;
	}
	/* Games lay out their scratch on first use; a block reused from
	 * another level must look fresh. */
	if (m->scratch)
		memset(m->scratch, 0, lv->scratch_size);
	/* One successor slot more than needed, for packing the start. */
	size_t slots = (size_t)lv->max_successors + 1;
	if (slots > m->succ_slots || slots * lv->key_size > m->succ_alloc) {
		free(m->succ_keys);
		free(m->edges);
		free(m->order);
		free(m->hashes);
		m->succ_keys = lk_xcalloc(slots, lv->key_size ? lv->key_size : 1);
		m->edges = lk_xcalloc(slots, sizeof *m->edges);
		m->order = lk_xcalloc(slots, sizeof *m->order);
		m->hashes = lk_xcalloc(slots, sizeof *m->hashes);
		m->succ_alloc = slots * lv->key_size;
		m->succ_slots = slots;
	}
	lk_table_reset(&m->table, lv->key_size, max_memory);
	lk_open_clear(m->open);
	lk_rng_seed(&m->rng, seed);
	L->shuffle = seed != 0;
}

static void lane_finish(struct lane *L, enum lk_status status, enum lk_limit limit)
{
	L->done = true;
	L->status = status;
	L->limit = limit;
}

/* Called when L->next_check is due: true when the run must stop.  The
 * next look comes after twice the expansions when looks came faster than
 * CHECK_GAP / 4 apart, half when slower than CHECK_GAP. */
static bool out_of_bounds(struct lane *L)
{
	struct run *run = L->run;
	const struct lk_search_options *o = run->opt;
	double now = lk_now(), gap = now - L->last_check;
	L->last_check = now;
	if (L->check_every == 0)
		L->check_every = 1;
	else if (gap > CHECK_GAP && L->check_every > 1)
		L->check_every /= 2;
	else if (gap < CHECK_GAP / 4 && L->check_every < CHECK_EVERY)
		L->check_every *= 2;
	L->next_check = L->expanded + L->check_every;
	if (o->tick)
		o->tick(o->tick_ctx);
	if (lk_bounds_cancelled(&o->bounds))
		run->stop = LK_LIMIT_INTERRUPTED;
	else if (lk_bounds_time_up(&o->bounds, run->deadline))
		run->stop = LK_LIMIT_TIME;
	if (!run->stop && L->max_memory &&
	    L->mem->table.bytes + L->mem->open->bytes > L->max_memory)
		lane_finish(L, LK_UNKNOWN, LK_LIMIT_MEMORY);
	return run->stop || L->done;
}

/* After storing a new state: is the table full or the state bound met? */
static bool table_limit(struct lane *L, enum lk_intern got)
{
	enum lk_limit why = got == LK_INTERN_FULL ? LK_LIMIT_MEMORY
			    : L->max_states && L->mem->table.count >= L->max_states ? LK_LIMIT_STATES
										     : LK_LIMIT_NONE;
	if (why != LK_LIMIT_NONE)
		lane_finish(L, LK_UNKNOWN, why);
	return why != LK_LIMIT_NONE;
}

/* Generate the successors of key into the lane's buffers; returns how
 * many and leaves in mem->order the order to visit them in. */
static unsigned expand(struct lane *L, const void *key)
{
	struct lk_lane *m = L->mem;
	unsigned n = L->game->successors(L->level, key, m->scratch, m->succ_keys, m->edges);
	for (unsigned i = 0; i < n; i++)
		m->order[i] = i;
	if (L->shuffle) {
		for (unsigned i = n; i > 1; i--) {
			unsigned j = lk_rng_below(&m->rng, i), t = m->order[i - 1];
			m->order[i - 1] = m->order[j];
			m->order[j] = t;
		}
	}
	L->expanded++;
	L->generated += n;
	return n;
}

/* Greedy lanes stop when a new state is already in the other lane. */
static bool meets(struct lane *L, const void *key, uint64_t hash, uint32_t id)
{
	if (!L->other)
		return false;
	const struct lk_table *t = &L->other->mem->table;
	uint32_t at = lk_table_find(t, key, hash);
	if (at == LK_NO_ENTRY || lk_table_cost(t, at) == DEAD_COST)
		return false;
	struct run *run = L->run;
	bool forward = L < L->other;
	run->met = true;
	run->met_forward = forward ? id : at;
	run->met_backward = forward ? at : id;
	lane_finish(L, LK_SOLVED, LK_LIMIT_NONE);
	return true;
}

/* Whether a goal state reached at this cost counts (opt->accept). */
static bool accepted(struct lane *L, const void *key, unsigned long cost)
{
	const struct lk_search_options *o = L->run->opt;
	return !o->accept || o->accept(o->accept_ctx, key, cost);
}

static void step_bfs(struct lane *L, uint64_t budget)
{
	struct lk_table *t = &L->mem->table;
	unsigned char *keys = L->mem->succ_keys;
	for (uint64_t k = 0; k < budget; k++) {
		if (L->head >= t->count) {
			lane_finish(L, LK_UNSOLVABLE, LK_LIMIT_NONE);
			return;
		}
		if (L->expanded >= L->next_check && out_of_bounds(L))
			return;
		if (L->head == L->layer_end) {
			L->layer++;
			L->layer_end = (uint32_t)t->count;
		}
		uint32_t head = L->head++;
		uint32_t g = lk_table_cost(t, head);
		unsigned n = expand(L, lk_table_key(t, head));
		for (unsigned j = 0; j < n; j++) {
			unsigned i = L->mem->order[j];
			const unsigned char *child = keys + (size_t)i * L->key_size;
			uint64_t hash = lk_hash_bytes(child, L->key_size);
			uint32_t id;
			enum lk_intern got = lk_table_intern(t, child, hash, head,
							     g + L->mem->edges[i].cost, &id);
			if (got == LK_INTERN_ADDED && L->game->is_goal(L->level, child) &&
			    accepted(L, child, g + L->mem->edges[i].cost)) {
				L->goal = id;
				lane_finish(L, LK_SOLVED, LK_LIMIT_NONE);
				return;
			}
			if (got != LK_INTERN_FOUND && table_limit(L, got))
				return;
		}
	}
}

/* A hint: start fetching the entries whose tag matches hash's, so that
 * the key comparison of a look-up to come finds them in the cache (the
 * index's lines were prefetched before).  Reads only; changes nothing. */
static inline void prefetch_entry(const struct lk_table *t, uint64_t hash)
{
#if defined(__GNUC__)
	if (!t->capacity)
		return;
	size_t mask = t->capacity - 1;
	uint8_t tag = (uint8_t)(1 + (hash >> 56) % 255);   /* table.c's tag_of */
	for (size_t i = (size_t)hash & mask; t->tags[i]; i = (i + 1) & mask)
		if (t->tags[i] == tag)
			__builtin_prefetch(lk_table_entry(t, t->slots[i]));
#else
	(void)t;
	(void)hash;
#endif
}

static bool lane_floor(const struct lane *L, size_t *floor);

/*
 * Two A* lanes (both directions, admissible bounds): a state in both
 * tables, at cost a forwards and b backwards, lies on a solution of a + b
 * (the forward path to it, then the backward path read from its end).
 * Each lane's floor is a bound on the optimum (lane_floor), so once the
 * cheapest such sum is no more than either floor, that solution is
 * optimal and the search can stop, without waiting for either lane to
 * take a goal out of its open list: on Microban 153 the forward lane's
 * last layer (f = the optimum) took two thirds of its expansions.
 */
static void note_meeting(struct lane *L, const void *key, uint64_t hash, uint32_t id, uint32_t g)
{
	const struct lk_table *t = &L->partner->mem->table;
	uint32_t at = lk_table_find(t, key, hash);
	if (at == LK_NO_ENTRY)
		return;
	uint32_t other = lk_table_cost(t, at);
	struct run *run = L->run;
	if (other == DEAD_COST || (uint64_t)g + other >= run->upper)
		return;
	run->upper = (uint64_t)g + other;
	bool forward = !L->backward;
	run->upper_forward = forward ? id : at;
	run->upper_backward = forward ? at : id;
}

/* Is the cheapest meeting proved optimal, by L's floor prio or the
 * partner's?  Then L answers with it. */
static bool meeting_proved(struct lane *L, size_t prio)
{
	struct run *run = L->run;
	size_t other;
	if (run->upper == UINT64_MAX ||
	    !(run->upper <= prio || (lane_floor(L->partner, &other) && run->upper <= other)))
		return false;
	run->met = true;
	run->met_optimal = true;
	run->met_forward = run->upper_forward;
	run->met_backward = run->upper_backward;
	lane_finish(L, LK_SOLVED, LK_LIMIT_NONE);
	return true;
}

/* Heuristic of a state for the running algorithm (0 for UCS). */
static unsigned estimate(struct lane *L, const void *key)
{
	if (L->algo == LK_ALGO_UCS || !L->game->heuristic)
		return 0;
	if (L->greedy && L->game->estimate)
		return L->game->estimate(L->level, key, L->mem->scratch);
	return L->game->heuristic(L->level, key, L->mem->scratch);
}

static size_t priority_of(const struct lane *L, uint32_t g, unsigned h)
{
	switch (L->algo) {
	case LK_ALGO_GREEDY: return h;
	case LK_ALGO_UCS: return g;
	default: return (size_t)g + h;
	}
}

static void start_best_first(struct lane *L)
{
	L->popped = SIZE_MAX;
	unsigned h0 = estimate(L, lk_table_key(&L->mem->table, 0));
	if (h0 == LK_H_DEAD)
		lane_finish(L, LK_UNSOLVABLE, LK_LIMIT_NONE);
	else if (lk_open_push(L->mem->open, priority_of(L, 0, h0), 0, 0) < 0)
		lane_finish(L, LK_UNKNOWN, LK_LIMIT_MEMORY);
}

static void step_best_first(struct lane *L, uint64_t budget)
{
	const struct lk_search_options *o = L->run->opt;
	struct lk_table *t = &L->mem->table;
	struct lk_open_list *q = L->mem->open;
	unsigned char *keys = L->mem->succ_keys;
	struct lk_open_item item;
	size_t prio;

	for (uint64_t k = 0; k < budget; k++) {
		if (!lk_open_pop(q, &item, &prio)) {
			lane_finish(L, LK_UNSOLVABLE, LK_LIMIT_NONE);
			return;
		}
		uint32_t g = lk_table_cost(t, item.id);
		if (item.g > g)
			continue;  /* a cheaper path to this state was found later */
		L->popped = prio;
		if (L->partner && meeting_proved(L, prio))
			return;
		const void *key = lk_table_key(t, item.id);
		if (!L->greedy && o->cost_limited && prio > o->cost_limit) {
			lane_finish(L, LK_UNSOLVABLE, LK_LIMIT_NONE);
			return;
		}
		/* Greedy tests goals when generating; the optimal searches must
		 * wait until a goal is the cheapest open state. */
		if (!L->greedy && L->game->is_goal(L->level, key)) {
			if (!accepted(L, key, g))
				continue;   /* a goal ends the game: no successors */
			L->goal = item.id;
			lane_finish(L, LK_SOLVED, LK_LIMIT_NONE);
			return;
		}
		if (L->expanded >= L->next_check && out_of_bounds(L))
			return;
		unsigned n = expand(L, key);
		uint64_t *hashes = L->mem->hashes;
		/* The table's look-ups are cache misses (its index is tens of
		 * megabytes): all of them started at once, then each child's
		 * entry fetched one look-up ahead, so that they land while the
		 * children before are evaluated. */
		for (unsigned i = 0; i < n; i++) {
			hashes[i] = lk_hash_bytes(keys + (size_t)i * L->key_size, L->key_size);
			lk_table_prefetch(t, hashes[i]);
		}
		for (unsigned j = 0; j < n; j++) {
			unsigned i = L->mem->order[j];
			const unsigned char *child = keys + (size_t)i * L->key_size;
			uint32_t g2 = g + L->mem->edges[i].cost;
			uint64_t hash = hashes[i];
			uint32_t id;
			if (j + 1 < n)
				prefetch_entry(t, hashes[L->mem->order[j + 1]]);
			enum lk_intern got = lk_table_intern(t, child, hash, item.id, g2, &id);
			if (got == LK_INTERN_FULL) {
				lane_finish(L, LK_UNKNOWN, LK_LIMIT_MEMORY);
				return;
			}
			if (got == LK_INTERN_FOUND) {
				uint32_t old = lk_table_cost(t, id);
				if (L->greedy || old == DEAD_COST || g2 >= old)
					continue;
				/* Reopen: cheaper path to a known state. */
				lk_table_set_link(t, id, item.id, g2);
			} else if (L->greedy) {
				if (L->game->is_goal(L->level, child)) {
					L->goal = id;
					lane_finish(L, LK_SOLVED, LK_LIMIT_NONE);
					return;
				}
				if (meets(L, child, hash, id))
					return;
			}
			unsigned h = estimate(L, child);
			L->best_h = h < L->best_h ? h : L->best_h;
			L->worst_h = h > L->worst_h && h != LK_H_DEAD ? h : L->worst_h;
			if (h == LK_H_DEAD) {
				lk_table_set_link(t, id, item.id, DEAD_COST);
				continue;
			}
			if (L->partner)
				note_meeting(L, child, hash, id, g2);
			if (lk_open_push(q, priority_of(L, g2, h), id, g2) < 0) {
				lane_finish(L, LK_UNKNOWN, LK_LIMIT_MEMORY);
				return;
			}
			if (got == LK_INTERN_ADDED && table_limit(L, got))
				return;
		}
	}
}

/*
 * A lower bound on the optimal cost, of a lane of A* with an admissible
 * heuristic or of uniform-cost search stopped by a bound: until the search
 * ends, some state on an optimal path is open with its optimal cost (or is
 * the one being expanded), and its priority is at most the optimum; so
 * the least priority there is is a bound (stale items only lower it).
 */
static bool lane_floor(const struct lane *L, size_t *floor)
{
	const struct lk_search_options *o = L->run->opt;
	bool admissible = L->algo == LK_ALGO_UCS ||
			  (L->algo == LK_ALGO_ASTAR &&
			   (L->level->heuristic_admissible || !L->game->heuristic));
	const struct lk_open_list *q = L->mem->open;
	size_t f = L->popped;
	if (q->count && q->min < f)
		f = q->min;
	if (!admissible || o->cost_limited || o->accept || f == SIZE_MAX)
		return false;
	*floor = f;
	return true;
}

/*
 * The depth a stopped BFS lane has finished: entries are numbered in
 * breadth-first order and each is goal-tested when it is added, so once
 * an entry of layer d (d edges from the start) has been taken, every
 * state of the layers before it has been expanded and every state within
 * d edges added and tested.  Every edge costs at least 1, so the optimum
 * is then above d in any metric.
 */
static bool lane_depth(const struct lane *L, unsigned long *depth)
{
	const struct lk_search_options *o = L->run->opt;
	if (o->algo != LK_ALGO_BFS || o->accept || L->head == 0)
		return false;
	*depth = L->layer;
	return *depth > 0;
}

/* Store the lane's start; finish it at once if the start is a goal. */
static void start_lane(struct lane *L)
{
	unsigned char *start = L->mem->succ_keys;  /* free until the first expansion */
	uint32_t id;
	memset(start, 0, L->key_size);
	L->game->initial_state(L->level, start);
	enum lk_intern got = lk_table_intern(&L->mem->table, start,
					     lk_hash_bytes(start, L->key_size), 0, 0, &id);
	if (got == LK_INTERN_FULL)
		lane_finish(L, LK_UNKNOWN, LK_LIMIT_MEMORY);
	else if (L->game->is_goal(L->level, start)) {
		L->goal = 0;
		lane_finish(L, LK_SOLVED, LK_LIMIT_NONE);
	} else if (L->algo != LK_ALGO_BFS)
		start_best_first(L);
	L->layer_end = 1;   /* BFS: the start is layer 0 */
}

/* Append the keys from the lane's start to entry id (start first). */
static size_t chain_length(const struct lk_table *t, uint32_t id)
{
	size_t n = 1;
	for (; id != 0; id = lk_table_parent(t, id))
		n++;
	return n;
}

static void copy_chain(const struct lk_table *t, uint32_t id, unsigned char *out, size_t n,
		       bool start_first)
{
	size_t ks = t->key_size;
	for (size_t i = 0;; id = lk_table_parent(t, id), i++) {
		size_t at = start_first ? n - 1 - i : i;
		memcpy(out + at * ks, lk_table_key(t, id), ks);
		if (id == 0)
			break;
	}
}

static void build_path(struct lane *lanes, struct run *run, struct lane *winner,
		       struct lk_search_result *r)
{
	size_t ks = winner->key_size;
	if (run->met) {
		const struct lk_table *tf = &lanes[0].mem->table;
		const struct lk_table *tb = &lanes[1].mem->table;
		size_t nf = chain_length(tf, run->met_forward);
		size_t nb = chain_length(tb, run->met_backward);
		r->nkeys = nf + nb - 1;
		r->path = lk_xmalloc(r->nkeys * ks + 1);
		copy_chain(tf, run->met_forward, r->path, nf, true);
		/* The backward chain from the meeting state to the virtual
		 * start, in forward order (its first key is the meeting state,
		 * already written). */
		copy_chain(tb, run->met_backward, r->path + (nf - 1) * ks, nb, false);
		r->cost = lk_table_cost(tf, run->met_forward) + lk_table_cost(tb, run->met_backward);
		r->found_by = LK_BOTH;
		return;
	}
	const struct lk_table *t = &winner->mem->table;
	bool backward = winner->backward;
	r->nkeys = chain_length(t, winner->goal);
	r->path = lk_xmalloc(r->nkeys * ks + 1);
	copy_chain(t, winner->goal, r->path, r->nkeys, !backward);
	r->cost = lk_table_cost(t, winner->goal);
	r->found_by = backward ? LK_BACKWARD : LK_FORWARD;
}

/* The states a turn of the auto portfolio's lane L generates, both lanes
 * having generated done states when it began; looked at again after each
 * expansion, so that a turn ends where A*'s heuristic is found flat. */
static uint64_t portfolio_slice(const struct lane *L, uint64_t done)
{
	if (L->algo == LK_ALGO_BFS)
		return PORTFOLIO_SLICE;
	/* a flat heuristic: A* expands as BFS does, a duplicate: a sixteenth */
	if (L->generated >= PORTFOLIO_FLAT && L->best_h == L->worst_h)
		return PORTFOLIO_SLICE / 16;
	uint64_t slice = PORTFOLIO_SLICE * (uint64_t)PORTFOLIO_TAU / (PORTFOLIO_TAU + done);
	return slice > PORTFOLIO_SLICE / PORTFOLIO_FLOOR ? slice : PORTFOLIO_SLICE / PORTFOLIO_FLOOR;
}

static void portfolio_turn(struct lane *L, uint64_t done)
{
	for (uint64_t from = L->generated;
	     !L->done && !L->run->stop && L->generated - from < portfolio_slice(L, done);) {
		if (L->algo == LK_ALGO_BFS)
			step_bfs(L, 1);
		else
			step_best_first(L, 1);
	}
}

/* Does lane i skip this turn, its bound below the other's (the header)? */
static bool lags(const struct lane *lanes, int i, unsigned *turns)
{
	size_t f, other;
	return !lanes[1 - i].done && lane_floor(&lanes[i], &f) &&
	       lane_floor(&lanes[1 - i], &other) && f < other && ++*turns % LAG_TURNS != 0;
}

void lk_solver_run(struct lk_solver *s, const struct lk_level *level,
		   const struct lk_search_options *opt, struct lk_search_result *r)
{
	if (opt->algo == LK_ALGO_ANY) {
		if (level->game->solve_any) {
			level->game->solve_any(level, opt, r);
			return;
		}
		/* Without a search of its own, a game's fastest is greedy. */
		struct lk_search_options greedy = *opt;
		greedy.algo = LK_ALGO_GREEDY;
		lk_solver_run(s, level, &greedy, r);
		return;
	}
	struct run run = { .opt = opt };
	struct lane lanes[2];
	struct lk_level *reversed = NULL;
	double start = lk_now(), cpu0 = lk_thread_cpu();
	lk_search_result_release(r);
	run.deadline = lk_bounds_deadline(&opt->bounds, start);
	memset(lanes, 0, sizeof lanes);

	/* auto: A* unless the heuristic may mislead it, then A* and BFS */
	enum lk_algo algo = opt->algo;
	bool portfolio = false;
	if (algo == LK_ALGO_AUTO) {
		portfolio = level->has_heuristic && level->game->heuristic && !level->heuristic_admissible;
		algo = LK_ALGO_ASTAR;
	}
	enum lk_direction dir = portfolio ? LK_FORWARD : opt->direction;
	if (dir != LK_FORWARD && level->game->reverse_level)
		reversed = level->game->reverse_level(level);
	if (!reversed)
		dir = LK_FORWARD;
	bool use[2] = { dir != LK_BACKWARD, dir != LK_FORWARD || portfolio };
	int nlanes = use[0] + use[1];
	for (int i = 0; i < 2; i++) {
		struct lane *L = &lanes[i];
		L->run = &run;
		L->algo = portfolio && i == 1 ? LK_ALGO_BFS : algo;
		L->backward = i == 1 && !portfolio;
		L->best_h = UINT_MAX;
		L->greedy = L->algo == LK_ALGO_GREEDY;
		/* Each lane gets its share of the bounds, never rounded to 0,
		 * which would mean "no bound". */
		L->max_states = opt->bounds.max_states ? opt->bounds.max_states / (uint64_t)nlanes : 0;
		if (opt->bounds.max_states && !L->max_states)
			L->max_states = 1;
		if (!use[i]) {
			L->done = true;
			L->status = LK_UNKNOWN;
			continue;
		}
		size_t memory = opt->bounds.max_memory / (size_t)nlanes;
		if (opt->bounds.max_memory && !memory)
			memory = 1;
		prepare_lane(L, &s->lane[i], L->backward ? reversed : level, opt->seed + (uint64_t)i,
			     memory);
		if (opt->seed == 0)
			L->shuffle = false;
	}
	if (nlanes == 2 && algo == LK_ALGO_GREEDY && !portfolio) {
		lanes[0].other = &lanes[1];
		lanes[1].other = &lanes[0];
	}
	/* two A* lanes whose floors are bounds: their meetings are solutions */
	run.upper = UINT64_MAX;
	if (nlanes == 2 && algo == LK_ALGO_ASTAR && !portfolio && !opt->no_meeting &&
	    !opt->cost_limited &&
	    !opt->accept && level->heuristic_admissible && reversed->heuristic_admissible &&
	    level->game->heuristic && level->key_size == reversed->key_size) {
		lanes[0].partner = &lanes[1];
		lanes[1].partner = &lanes[0];
	}
	for (int i = 0; i < 2; i++)
		if (use[i])
			start_lane(&lanes[i]);

	/* Take turns until a lane answers, both give up, or time is out. */
	struct lane *winner = NULL;
	unsigned turns = 0;   /* turns of a lagging lane */
	for (;;) {
		for (int i = 0; i < 2 && !winner; i++)
			if (use[i] && lanes[i].done && lanes[i].status != LK_UNKNOWN)
				winner = &lanes[i];
		if (winner || run.stop || (lanes[0].done && lanes[1].done))
			break;
		for (int i = 0; i < 2 && !run.stop; i++) {
			struct lane *L = &lanes[i];
			if (L->done || (!portfolio && lags(lanes, i, &turns)))
				continue;
			if (portfolio) {
				portfolio_turn(L, lanes[0].generated + lanes[1].generated);
			} else {
				uint64_t budget = nlanes == 2 ? (opt->slice ? opt->slice : SLICE)
							      : UINT64_MAX;
				if (L->algo == LK_ALGO_BFS)
					step_bfs(L, budget);
				else
					step_best_first(L, budget);
			}
			if (L->done && L->status != LK_UNKNOWN)
				break;
		}
	}

	for (int i = 0; i < 2; i++) {
		if (!use[i])
			continue;
		r->expanded += lanes[i].expanded;
		r->generated += lanes[i].generated;
		r->stored += s->lane[i].table.count;
		r->peak_bytes += s->lane[i].table.peak_bytes + s->lane[i].open->bytes;
		if (level->game->technique_counts && s->lane[i].scratch)
			level->game->technique_counts(lanes[i].level, s->lane[i].scratch,
						      r->technique_counts);
	}
	r->overhead_per_state = lk_table_overhead_per_state(&s->lane[use[0] ? 0 : 1].table);
	r->portfolio = portfolio;
	r->algo = winner ? winner->algo : algo;
	if (winner && winner->status == LK_SOLVED) {
		r->status = LK_SOLVED;
		build_path(lanes, &run, winner, r);
		/* A* without a heuristic is uniform-cost search. */
		r->optimal = run.met_optimal ||
			     (!run.met && lk_algo_optimal(winner->algo) &&
			     (winner->algo != LK_ALGO_ASTAR || winner->level->heuristic_admissible ||
			      !winner->game->heuristic) &&
			     /* fewest edges is not least cost where edges weigh */
			     !(winner->algo == LK_ALGO_BFS && winner->level->weighted));
	} else if (winner) {
		r->status = LK_UNSOLVABLE;
	} else {
		r->status = LK_UNKNOWN;
		r->limit = run.stop ? run.stop : lanes[use[0] ? 0 : 1].limit;
		/* each lane's bound holds: the best of them */
		for (int i = 0; i < 2; i++) {
			size_t f;
			unsigned long d;
			if (use[i] && lane_floor(&lanes[i], &f) && (!r->has_floor || f > r->floor)) {
				r->floor = f;
				r->has_floor = true;
			}
			if (use[i] && lane_depth(&lanes[i], &d) && (!r->has_depth || d > r->depth)) {
				r->depth = d;
				r->has_depth = true;
			}
		}
		if (r->has_depth && (!r->has_floor || r->depth + 1 > r->floor)) {
			r->floor = r->depth + 1;
			r->has_floor = true;
		}
	}
	r->seconds = lk_now() - start;
	r->cpu_seconds = lk_thread_cpu() - cpu0;
	lk_level_free(reversed);
}

void lk_search_fallback(struct lk_solver *s, const struct lk_level *level,
			const struct lk_search_options *opt, bool off, struct lk_search_result *r)
{
	(void)s;
	if (off || r->status != LK_UNKNOWN || r->limit == LK_LIMIT_INTERRUPTED ||
	    !(lk_algo_optimal(opt->algo) || opt->algo == LK_ALGO_AUTO) || !level->game->solve_any ||
	    opt->accept)
		return;
	struct lk_search_options any = *opt;
	any.algo = LK_ALGO_ANY;
	struct lk_search_result f;
	lk_search_result_init(&f);
	level->game->solve_any(level, &any, &f);
	f.fallback = true;
	f.has_floor = r->has_floor;
	f.floor = r->floor;
	/* a solution as cheap as the bound is optimal after all */
	if (f.status == LK_SOLVED && f.has_floor && f.cost <= f.floor)
		f.optimal = true;
	if (f.status == LK_UNKNOWN) {
		/* the first search's bound and figures tell more */
		f.limit = r->limit;
		f.stored = r->stored;
		f.peak_bytes = r->peak_bytes;
		f.overhead_per_state = r->overhead_per_state;
	}
	f.expanded += r->expanded;
	f.generated += r->generated;
	f.seconds += r->seconds;
	f.cpu_seconds += r->cpu_seconds;
	for (int i = 0; i < LK_MAX_TECHNIQUES; i++)
		f.technique_counts[i] += r->technique_counts[i];
	lk_search_result_release(r);
	*r = f;
}

void lk_search(const struct lk_level *level, const struct lk_search_options *opt,
	       struct lk_search_result *r)
{
	struct lk_solver s;
	lk_solver_init(&s);
	lk_solver_run(&s, level, opt, r);
	lk_solver_release(&s);
}
