/*
 * search.c - breadth-first, uniform-cost, A* and greedy best-first search
 * over the game interface, sharing one state table and one open list.
 *
 * The table entry of a state holds its parent and its cost so far, so a
 * solution is rebuilt by walking parents; nothing stores paths.  States a
 * best-first search has proved dead (heuristic LK_H_DEAD) keep cost
 * DEAD_COST so they are recognised, never expanded, when met again.
 */
#define _POSIX_C_SOURCE 200809L
#include "levelkit/search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "open_list.h"

#define DEAD_COST UINT32_MAX
/* How many expansions between looks at the clock and the cancel flag. */
#define CHECK_EVERY 256

static const struct {
	const char *name;
	bool optimal;
} algos[] = {
#define LK_X(id, name, optimal) { name, optimal },
	LK_ALGOS(LK_X)
#undef LK_X
};

const char *lk_algo_name(enum lk_algo algo)
{
	return algo < LK_ALGO_COUNT ? algos[algo].name : "?";
}

int lk_algo_parse(const char *name, enum lk_algo *algo)
{
	for (int i = 0; i < LK_ALGO_COUNT; i++) {
		if (strcmp(name, algos[i].name) == 0) {
			*algo = (enum lk_algo)i;
			return 0;
		}
	}
	return -1;
}

bool lk_algo_optimal(enum lk_algo algo)
{
	return algo < LK_ALGO_COUNT && algos[algo].optimal;
}

const char *lk_status_name(enum lk_status status)
{
	switch (status) {
	case LK_SOLVED: return "yes";
	case LK_UNSOLVABLE: return "no";
	default: return "unknown";
	}
}

const char *lk_limit_name(enum lk_limit limit)
{
	switch (limit) {
	case LK_LIMIT_STATES: return "states";
	case LK_LIMIT_MEMORY: return "memory";
	case LK_LIMIT_TIME: return "time";
	case LK_LIMIT_INTERRUPTED: return "interrupted";
	default: return "none";
	}
}

double lk_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void lk_search_result_init(struct lk_search_result *r)
{
	memset(r, 0, sizeof *r);
	r->status = LK_UNKNOWN;
}

void lk_search_result_release(struct lk_search_result *r)
{
	free(r->path);
	lk_search_result_init(r);
}

void lk_solver_init(struct lk_solver *s)
{
	memset(s, 0, sizeof *s);
	lk_table_init(&s->table, 0, 0);
	s->open = lk_xmalloc(sizeof *s->open);
	lk_open_init(s->open);
}

void lk_solver_release(struct lk_solver *s)
{
	lk_table_release(&s->table);
	lk_open_release(s->open);
	free(s->open);
	free(s->scratch);
	free(s->succ_keys);
	free(s->edges);
	free(s->order);
	memset(s, 0, sizeof *s);
}

/* Everything one search run needs to hand around. */
struct run {
	struct lk_solver *s;
	const struct lk_level *level;
	const struct lk_game *game;
	const struct lk_search_options *opt;
	struct lk_search_result *r;
	double start, deadline;
	size_t key_size;
	bool shuffle;
};

static void prepare(struct run *run)
{
	struct lk_solver *s = run->s;
	const struct lk_level *lv = run->level;
	if (lv->scratch_size > s->scratch_alloc) {
		free(s->scratch);
		s->scratch = lk_xcalloc(1, lv->scratch_size);
		s->scratch_alloc = lv->scratch_size;
	}
	/* Games lay out their scratch on first use; a block reused from
	 * another level must look fresh. */
	if (s->scratch)
		memset(s->scratch, 0, lv->scratch_size);
	/* Successor buffers: one slot more than needed so the start state can
	 * be packed there before the first expansion. */
	size_t slots = (size_t)lv->max_successors + 1;
	if (slots > s->succ_slots || slots * lv->key_size > s->succ_alloc) {
		free(s->succ_keys);
		free(s->edges);
		free(s->order);
		s->succ_keys = lk_xcalloc(slots, lv->key_size ? lv->key_size : 1);
		s->edges = lk_xcalloc(slots, sizeof *s->edges);
		s->order = lk_xcalloc(slots, sizeof *s->order);
		s->succ_alloc = slots * lv->key_size;
		s->succ_slots = slots;
	}
	lk_table_reset(&s->table, lv->key_size, run->opt->max_memory);
	lk_open_clear(s->open);
	lk_rng_seed(&s->rng, run->opt->seed);
	run->shuffle = run->opt->seed != 0;
}

static size_t memory_used(const struct run *run)
{
	return run->s->table.bytes + run->s->open->bytes;
}

/* Called every CHECK_EVERY expansions: true when a bound says stop. */
static bool out_of_bounds(struct run *run)
{
	const struct lk_search_options *o = run->opt;
	if (o->cancel && *o->cancel) {
		run->r->limit = LK_LIMIT_INTERRUPTED;
		return true;
	}
	if (o->timeout > 0 && lk_now() > run->deadline) {
		run->r->limit = LK_LIMIT_TIME;
		return true;
	}
	if (o->max_memory && memory_used(run) > o->max_memory) {
		run->r->limit = LK_LIMIT_MEMORY;
		return true;
	}
	return false;
}

/* Interning failed or the state bound is reached. */
static bool table_limit(struct run *run, enum lk_intern got)
{
	if (got == LK_INTERN_FULL) {
		run->r->limit = LK_LIMIT_MEMORY;
		return true;
	}
	if (run->opt->max_states && run->s->table.count >= run->opt->max_states) {
		run->r->limit = LK_LIMIT_STATES;
		return true;
	}
	return false;
}

/* Expand one state into s->succ_keys / s->edges; returns the count and
 * fills s->order with the order in which to visit them. */
static unsigned expand(struct run *run, const void *key)
{
	struct lk_solver *s = run->s;
	unsigned n = run->game->successors(run->level, key, s->scratch, s->succ_keys, s->edges);
	for (unsigned i = 0; i < n; i++)
		s->order[i] = i;
	if (run->shuffle) {
		for (unsigned i = n; i > 1; i--) {
			unsigned j = lk_rng_below(&s->rng, i);
			unsigned t = s->order[i - 1];
			s->order[i - 1] = s->order[j];
			s->order[j] = t;
		}
	}
	run->r->expanded++;
	run->r->generated += n;
	return n;
}

static void finish_solved(struct run *run, uint32_t goal)
{
	struct lk_table *t = &run->s->table;
	struct lk_search_result *r = run->r;
	size_t n = 1;
	for (uint32_t id = goal; id != 0; id = lk_table_parent(t, id))
		n++;
	r->path = lk_xmalloc(n * run->key_size + 1);
	r->nkeys = n;
	size_t i = n;
	for (uint32_t id = goal;; id = lk_table_parent(t, id)) {
		i--;
		memcpy(r->path + i * run->key_size, lk_table_key(t, id), run->key_size);
		if (id == 0)
			break;
	}
	r->status = LK_SOLVED;
	r->cost = lk_table_cost(t, goal);
	r->optimal = lk_algo_optimal(run->opt->algo) &&
		     (run->opt->algo != LK_ALGO_ASTAR || run->level->heuristic_admissible);
}

static void run_bfs(struct run *run)
{
	struct lk_table *t = &run->s->table;
	unsigned char *keys = run->s->succ_keys;
	for (uint32_t head = 0; head < t->count; head++) {
		if (head % CHECK_EVERY == 0 && out_of_bounds(run))
			return;
		const void *key = lk_table_key(t, head);
		uint32_t g = lk_table_cost(t, head);
		unsigned n = expand(run, key);
		for (unsigned k = 0; k < n; k++) {
			unsigned i = run->s->order[k];
			const unsigned char *child = keys + (size_t)i * run->key_size;
			uint32_t id;
			enum lk_intern got = lk_table_intern(t, child, lk_hash_bytes(child, run->key_size),
							     head, g + run->s->edges[i].cost, &id);
			if (got == LK_INTERN_ADDED && run->game->is_goal(run->level, child)) {
				finish_solved(run, id);
				return;
			}
			if (got != LK_INTERN_FOUND && table_limit(run, got))
				return;
		}
	}
	run->r->status = LK_UNSOLVABLE;
}

/* Heuristic of a state for the running algorithm (0 for UCS). */
static unsigned estimate(struct run *run, const void *key)
{
	if (run->opt->algo == LK_ALGO_UCS || !run->game->heuristic)
		return 0;
	return run->game->heuristic(run->level, key, run->s->scratch);
}

static size_t priority_of(const struct run *run, uint32_t g, unsigned h)
{
	switch (run->opt->algo) {
	case LK_ALGO_GREEDY: return h;
	case LK_ALGO_UCS: return g;
	default: return (size_t)g + h;
	}
}

static void run_best_first(struct run *run)
{
	struct lk_table *t = &run->s->table;
	struct lk_open_list *q = run->s->open;
	unsigned char *keys = run->s->succ_keys;
	bool greedy = run->opt->algo == LK_ALGO_GREEDY;
	struct lk_open_item item;
	size_t prio;

	unsigned h0 = estimate(run, lk_table_key(t, 0));
	if (h0 == LK_H_DEAD) {
		run->r->status = LK_UNSOLVABLE;
		return;
	}
	if (lk_open_push(q, priority_of(run, 0, h0), 0, 0) < 0) {
		run->r->limit = LK_LIMIT_MEMORY;
		return;
	}
	while (lk_open_pop(q, &item, &prio)) {
		uint32_t g = lk_table_cost(t, item.id);
		if (item.g > g)
			continue;  /* a cheaper path to this state was found later */
		const void *key = lk_table_key(t, item.id);
		/* Greedy tests goals when generating; the optimal searches must
		 * wait until a goal is the cheapest open state. */
		if (!greedy && run->game->is_goal(run->level, key)) {
			finish_solved(run, item.id);
			return;
		}
		if (run->r->expanded % CHECK_EVERY == 0 && out_of_bounds(run))
			return;
		unsigned n = expand(run, key);
		for (unsigned k = 0; k < n; k++) {
			unsigned i = run->s->order[k];
			const unsigned char *child = keys + (size_t)i * run->key_size;
			uint32_t g2 = g + run->s->edges[i].cost;
			uint32_t id;
			enum lk_intern got = lk_table_intern(t, child, lk_hash_bytes(child, run->key_size),
							     item.id, g2, &id);
			if (got == LK_INTERN_FULL) {
				run->r->limit = LK_LIMIT_MEMORY;
				return;
			}
			if (got == LK_INTERN_FOUND) {
				uint32_t old = lk_table_cost(t, id);
				if (greedy || old == DEAD_COST || g2 >= old)
					continue;
				/* Reopen: cheaper path to a known state. */
				lk_table_set_link(t, id, item.id, g2);
			} else if (greedy && run->game->is_goal(run->level, child)) {
				finish_solved(run, id);
				return;
			}
			unsigned h = estimate(run, child);
			if (h == LK_H_DEAD) {
				lk_table_set_link(t, id, item.id, DEAD_COST);
				continue;
			}
			if (lk_open_push(q, priority_of(run, g2, h), id, g2) < 0) {
				run->r->limit = LK_LIMIT_MEMORY;
				return;
			}
			if (got == LK_INTERN_ADDED && table_limit(run, got))
				return;
		}
	}
	run->r->status = LK_UNSOLVABLE;
}

void lk_solver_run(struct lk_solver *s, const struct lk_level *level,
		   const struct lk_search_options *opt, struct lk_search_result *r)
{
	struct run run = {
		.s = s, .level = level, .game = level->game, .opt = opt, .r = r,
		.key_size = level->key_size,
	};
	lk_search_result_release(r);
	run.start = lk_now();
	run.deadline = run.start + opt->timeout;
	prepare(&run);

	unsigned char *start = s->succ_keys;  /* scratch until the first expansion */
	memset(start, 0, level->key_size);
	level->game->initial_state(level, start);
	uint32_t id;
	enum lk_intern got = lk_table_intern(&s->table, start,
					     lk_hash_bytes(start, level->key_size), 0, 0, &id);
	if (got == LK_INTERN_FULL) {
		r->limit = LK_LIMIT_MEMORY;
	} else if (level->game->is_goal(level, start)) {
		finish_solved(&run, 0);
	} else if (opt->algo == LK_ALGO_BFS) {
		run_bfs(&run);
	} else {
		run_best_first(&run);
	}
	if (r->status != LK_UNKNOWN)
		r->limit = LK_LIMIT_NONE;
	r->stored = s->table.count;
	r->peak_bytes = s->table.peak_bytes + s->open->bytes;
	r->overhead_per_state = lk_table_overhead_per_state(&s->table);
	r->seconds = lk_now() - run.start;
}

void lk_search(const struct lk_level *level, const struct lk_search_options *opt,
	       struct lk_search_result *r)
{
	struct lk_solver s;
	lk_solver_init(&s);
	lk_solver_run(&s, level, opt, r);
	lk_solver_release(&s);
}
