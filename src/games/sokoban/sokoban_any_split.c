/*
 * sokoban_any_split.c - parallel search of one level for any solution
 * (solve -a any --split N; docs/games/sokoban.md, "Split"): a portfolio of
 * N differently configured searches of the same level, one a thread, the
 * first definite answer winning and the others stopped.
 *
 * Lane 0 is the search of today, on the level as the user built it; the
 * other lanes each search a copy of the level with a few techniques
 * switched (configs below, chosen for diversity: each solves levels the
 * default does not, or faster; docs/benchmarks.md, h34j).  A copy shares
 * every read-only array of the level and has its own learned state (the
 * deadlock table, the pair and pattern databases), which a search writes.
 *
 * Stopping: every lane's bounds point at one atomic stop flag, read where
 * the searches read the user's cancel flag (lk_bounds_cancelled, with the
 * deadline); the lane that answers first sets it.  A lane's "no solution"
 * ends the others only when its configuration proves (`proves` below):
 * the ones here only reorder or add searches, and the search run again
 * without the cuts that may lose solutions (sokoban_any_budget.c) is in
 * each, so all prove; a configuration that cut solutions would not.
 *
 * Bounds: each lane gets 1/N of the memory and of the states, so that all
 * of them together stay within the user's; the time bound is each lane's
 * own, from its start (the level's bound: on the wall clock all lanes
 * stop together; with LEVELKIT_CLOCK=cpu each lane's clock is its
 * thread's processor time, so each gets the full bound of its own).
 * The result is the winning lane's (its counters and path, lane 0's when
 * none answered), its cpu_seconds the sum of every lane's.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "sokoban_any.h"

/* The lanes beyond the first: techniques turned on and off. */
struct config {
	int on, off;   /* a technique, or -1 */
	bool proves;   /* its "no solution" is a proof */
};

static const struct config configs[] = {
	/* lane 1: the pull search in greedy's order only (the default before
	 * session 34, which turned both orders on: faster on Sasquatch II 4,
	 * 16, 19 and 24, by 1.5 to 3.5 s) */
	{ -1, SOKO_T_PULL_BOTH, true },
	/* then the explorer advisor (faster on I 19, II 16, II 24) */
	{ SOKO_T_EXPLORER, -1, true },
	/* then the feature-space search from the start, no greedy first */
	{ -1, SOKO_T_GREEDY_FIRST, true },
	/* then the pull search in YASS's order alone */
	{ SOKO_T_PULL_WEIGHTED, -1, true },
	/* then the opener advisor */
	{ SOKO_T_OPENER, -1, true },
};
#define NCONFIGS ((int)(sizeof configs / sizeof configs[0]))

static int hold;

void soko_any_split_hold(int how)
{
	hold = how;
}

/* The last run's lanes (tests, written while the lanes are held). */
static int last_n;
static enum lk_status last_status[SOKO_SPLIT_MAX];
static enum lk_limit last_limit[SOKO_SPLIT_MAX];

int soko_any_split_last(enum lk_status *status, enum lk_limit *limit, int max)
{
	int n = last_n;
	last_n = 0;
	for (int i = 0; i < n && i < max; i++) {
		status[i] = last_status[i];
		limit[i] = last_limit[i];
	}
	return n;
}

/* The switches of config k applied to the level's, or false when they
 * change nothing (the user already asked for them). */
static bool apply(const struct sokoban *s, int k, bool *use, bool *proves)
{
	memcpy(use, s->use, sizeof s->use);
	const struct config *c = &configs[k];
	if (c->on >= 0)
		use[c->on] = true;
	if (c->off >= 0)
		use[c->off] = false;
	*proves = c->proves;
	return memcmp(use, s->use, sizeof s->use) != 0;
}

/* Lane i's configuration: lane 0 the level's, then the configs that
 * change something, in order; proves as above. */
static bool lane_config(const struct sokoban *s, int lane, bool *use, bool *proves)
{
	*proves = true;
	if (lane == 0) {
		memcpy(use, s->use, sizeof s->use);
		return true;
	}
	for (int k = 0; k < NCONFIGS; k++)
		if (apply(s, k, use, proves) && --lane == 0)
			return true;
	return false;
}

bool soko_any_split_config(const struct sokoban *s, int lane, bool *use)
{
	bool proves;
	return lane_config(s, lane, use, &proves);
}

struct run {
	atomic_int stop;
	atomic_int winner;   /* the lane that answered first, -1: none yet */
	atomic_int others;   /* lanes other than the first still searching */
};

struct lane {
	struct run *run;
	int index;
	bool proves;
	bool use[SOKO_NTECH];          /* its switches */
	struct sokoban *copy;          /* lanes > 0: the level's copy */
	const struct lk_level *level;
	struct lk_search_options opt;
	struct lk_search_result r;
	pthread_t thread;
};

/* A copy of level s with the switches use: its arrays shared, its learned
 * state its own (as soko_new_level makes them). */
static struct sokoban *copy_level(const struct sokoban *s, const bool *use)
{
	struct sokoban *c = lk_xmalloc(sizeof *c);
	*c = *s;
	memcpy(c->use, use, sizeof c->use);
	c->deadtab = s->deadtab ? soko_deadtab_new(c) : NULL;
	c->pairs = s->pairs ? soko_pairs_new(c, false) : NULL;
	c->patterns = s->patterns ? soko_patterns_new(c) : NULL;
	return c;
}

static void free_copy(struct sokoban *c)
{
	if (!c)
		return;
	soko_deadtab_free(c->deadtab);
	soko_pairs_free(c->pairs);
	soko_patterns_free(c->patterns);
	free(c);
}

static void search(struct lane *L)
{
	if (hold == SOKO_SPLIT_HOLD_OTHERS && L->index > 0)
		while (!atomic_load(&L->run->stop))
			sched_yield();
	if (hold == SOKO_SPLIT_HOLD_FIRST && L->index == 0)
		while (!atomic_load(&L->run->stop) && atomic_load(&L->run->others) > 0)
			sched_yield();
	soko_any_one(L->level, &L->opt, &L->r);
	bool definite = L->r.status == LK_SOLVED || (L->r.status == LK_UNSOLVABLE && L->proves);
	int none = -1;
	if (definite && atomic_compare_exchange_strong(&L->run->winner, &none, L->index))
		atomic_store(&L->run->stop, 1);
	if (L->index > 0)
		atomic_fetch_sub(&L->run->others, 1);
}

static void *lane_main(void *arg)
{
	search(arg);
	return NULL;
}

static void split(const struct lk_level *level, const struct lk_search_options *opt,
		  struct lk_search_result *r, int n)
{
	const struct sokoban *s = (const struct sokoban *)level;
	struct run run;
	atomic_init(&run.stop, 0);
	atomic_init(&run.winner, -1);
	atomic_init(&run.others, 0);
	struct lane lanes[SOKO_SPLIT_MAX];
	int nlanes = 0;
	for (int i = 0; i < n; i++) {
		struct lane *L = &lanes[nlanes];
		*L = (struct lane){ .run = &run, .index = nlanes, .opt = *opt, .level = level };
		if (!lane_config(s, i, L->use, &L->proves))
			break;
		nlanes++;
	}
	for (int i = 0; i < nlanes; i++) {
		struct lane *L = &lanes[i];
		/* each lane's share of the bounds, never rounded to 0 (no bound) */
		if (opt->bounds.max_memory)
			L->opt.bounds.max_memory = opt->bounds.max_memory / (size_t)nlanes + 1;
		if (opt->bounds.max_states)
			L->opt.bounds.max_states = opt->bounds.max_states / (uint64_t)nlanes + 1;
		L->opt.bounds.stop = &run.stop;
		L->opt.split = 1;
		L->opt.tick = i == 0 ? opt->tick : NULL;   /* the caller's display: one thread */
		lk_search_result_init(&L->r);
		if (i > 0) {
			L->copy = copy_level(s, L->use);
			L->level = &L->copy->base;
		}
	}
	/* lane 0 in the calling thread; if a thread cannot start, its lane
	 * is left out */
	bool started[SOKO_SPLIT_MAX] = { false };
	for (int i = 1; i < nlanes; i++) {
		atomic_fetch_add(&run.others, 1);
		started[i] = pthread_create(&lanes[i].thread, NULL, lane_main, &lanes[i]) == 0;
		if (!started[i])
			atomic_fetch_sub(&run.others, 1);
	}
	search(&lanes[0]);
	if (hold == SOKO_SPLIT_HOLD_OTHERS)
		atomic_store(&run.stop, 1);   /* tests: the held lanes start now */
	double cpu = lanes[0].r.cpu_seconds;
	for (int i = 1; i < nlanes; i++) {
		if (started[i]) {
			pthread_join(lanes[i].thread, NULL);
			cpu += lanes[i].r.cpu_seconds;
		} else {
			lanes[i].r.status = LK_UNKNOWN;
			lanes[i].r.limit = LK_LIMIT_INTERRUPTED;
		}
	}
	int w = atomic_load(&run.winner);
	if (hold) {   /* tests only: levels of other threads write nothing here */
		last_n = nlanes;
		for (int i = 0; i < nlanes; i++) {
			last_status[i] = lanes[i].r.status;
			last_limit[i] = lanes[i].r.limit;
		}
	}
	lk_search_result_release(r);
	*r = lanes[w < 0 ? 0 : w].r;
	r->cpu_seconds = cpu;
	r->technique_counts[SOKO_T_SPLIT] += w > 0;
	for (int i = 0; i < nlanes; i++) {
		if (i != (w < 0 ? 0 : w))
			lk_search_result_release(&lanes[i].r);
		free_copy(lanes[i].copy);
	}
}

void soko_solve_any(const struct lk_level *level, const struct lk_search_options *opt,
		    struct lk_search_result *r)
{
	const struct sokoban *s = (const struct sokoban *)level;
	int n = opt->split > SOKO_SPLIT_MAX ? SOKO_SPLIT_MAX : (int)opt->split;
	if (n > 1 && s->use[SOKO_T_SPLIT] && !s->impossible && !s->forward)
		split(level, opt, r, n);
	else
		soko_any_one(level, opt, r);
}
