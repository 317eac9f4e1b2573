/*
 * sokoban_any_restart.c - restart (solve -a any; docs/games/sokoban.md,
 * "Restart"): where the first feature-space search under a parking plan
 * stalls or runs dry, fresh searches from positions on its best path, each
 * as a level of its own, the answer joined to the path to its position.
 *
 * Why: the plan says which goal each step fills, not with which box, and
 * the first search fills a goal with whatever box gets there first.  On
 * Sasquatch II 42 its deepest position (13 of 14 steps) is dead, dead from
 * step 10 on, while its position at step 8, given to `-a any` as a level,
 * solves in about 77,000 states: a new plan made from there, and a new
 * search, find what the first search's commitments hid.
 *
 * Which positions: on the path from the start to the first search's best
 * position, the first position at each number of plan steps reached (each
 * the ancestor of the later ones, so the likeliest of its step to be
 * alive), deepest first.  A round gives them a share of states in turn
 * (at most half of the round each, so that one undecided position cannot
 * take the round), skipping those already proved dead and those already
 * given as much.  A restart's "no" proves that position dead, nothing
 * about the level: the first search and its fallbacks go on as before.
 *
 * The searches run on a copy of the level (sokoban_any_split.c's way:
 * every read-only array shared, so that keys and cells are the same, its
 * own learned state) whose start is the position; that is what lets the
 * paths join: the first search's box moves to the position, written out
 * as pushes on the copy with the level's start put back, then the
 * restart's pushes from it.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any_search.h"

/* The most positions a level remembers trying (beyond, they may be tried
 * again: only work, never a wrong answer). */
#define MAX_TRIED 256
/* No restart gets fewer states than this (a round's rest below it ends
 * the round): MIN_STATES, or what a test set. */
#define MIN_STATES 4096
static size_t min_states = MIN_STATES;
/* Answers a restart gave (tests: they replay, joined). */
static uint64_t answers;

void soko_restart_set_min(size_t states)
{
	min_states = states ? states : MIN_STATES;
}

uint64_t soko_restart_answers(void)
{
	return answers;
}
/* The most positions a round tries. */
#define MAX_PER_ROUND 8

void soko_restart_init(struct soko_restart *rs, const struct sokoban *s)
{
	memset(rs, 0, sizeof *rs);
	rs->s = s;
}

void soko_restart_release(struct soko_restart *rs)
{
	if (rs->copy) {
		soko_deadtab_free(rs->copy->deadtab);
		soko_pairs_free(rs->copy->pairs);
		soko_patterns_free(rs->copy->patterns);
		free(rs->copy->box0);
		free(rs->copy);
	}
	free(rs->keys);
	free(rs->tried);
	free(rs->dead);
	memset(rs, 0, sizeof *rs);
}

/* The copy of the level the restarts search: the level's arrays, its own
 * start bitset and learned state, and no restarts of its own (a restart
 * is one fresh search, not a tree of them). */
static struct sokoban *copy_of(struct soko_restart *rs)
{
	if (rs->copy)
		return rs->copy;
	const struct sokoban *s = rs->s;
	struct sokoban *c = lk_xmalloc(sizeof *c);
	*c = *s;
	c->use[SOKO_T_RESTART] = false;
	c->use[SOKO_T_DRY_RESTART] = false;
	c->use[SOKO_T_AREAS] = false;
	c->box0 = lk_xmalloc(s->bitset_bytes);
	memcpy(c->box0, s->box0, s->bitset_bytes);
	c->deadtab = s->deadtab ? soko_deadtab_new(c) : NULL;
	c->pairs = s->pairs ? soko_pairs_new(c, false) : NULL;
	c->patterns = s->patterns ? soko_patterns_new(c) : NULL;
	return rs->copy = c;
}

/* Set the copy's start to the position of key (normalised player). */
static void start_at(struct sokoban *c, const unsigned char *key)
{
	memcpy(c->box0, key + 2, c->bitset_bytes);
	c->player0 = c->cell_of[soko_key_player(key)];
}

/* The index of key among the positions tried, or rs->n. */
static size_t find(const struct soko_restart *rs, const unsigned char *key, size_t ks)
{
	for (size_t i = 0; i < rs->n; i++)
		if (memcmp(rs->keys + i * ks, key, ks) == 0)
			return i;
	return rs->n;
}

static size_t remember(struct soko_restart *rs, const unsigned char *key, size_t ks)
{
	size_t i = find(rs, key, ks);
	if (i < rs->n || rs->n >= MAX_TRIED)
		return i;
	if (rs->n == rs->alloc) {
		rs->alloc = rs->alloc ? rs->alloc * 2 : 16;
		rs->keys = lk_xrealloc(rs->keys, rs->alloc * ks);
		rs->tried = lk_xrealloc(rs->tried, rs->alloc * sizeof *rs->tried);
		rs->dead = lk_xrealloc(rs->dead, rs->alloc * sizeof *rs->dead);
	}
	memcpy(rs->keys + rs->n * ks, key, ks);
	rs->tried[rs->n] = 0;
	rs->dead[rs->n] = false;
	return rs->n++;
}

static unsigned packed_of(const struct any *a, uint32_t node)
{
	return lk_table_cost(&a->table, node) >> 24;
}

/* The expansions on the path to a's best one, start first, into *path
 * (allocated); returns how many. */
static size_t best_path(const struct any *a, uint32_t **path)
{
	size_t n = 0;
	for (uint32_t e = a->best_exp; e != NONE; e = a->exps[e].parent)
		n++;
	*path = lk_xmalloc((n ? n : 1) * sizeof **path);
	size_t i = n;
	for (uint32_t e = a->best_exp; e != NONE; e = a->exps[e].parent)
		(*path)[--i] = e;
	return n;
}

/* Join: the first search's box moves path[0 .. upto] written out as
 * pushes from the level's start, then sub's pushes from the position;
 * false (r untouched) if they do not meet. */
static bool join(struct soko_restart *rs, const struct any *a, const uint32_t *path, size_t upto,
		 struct lk_search_result *sub)
{
	struct sokoban *c = copy_of(rs);
	const struct sokoban *s = rs->s;
	size_t ks = s->base.key_size;
	unsigned char *probe = lk_xmalloc(ks);
	c->base.game->initial_state(&c->base, probe);   /* the position's start key */
	bool meets = sub->nkeys > 0 && memcmp(probe, sub->path, ks) == 0;
	/* the level's start back for the first part (the copy's learned state
	 * is the one a fresh scratch resets, not the level's) */
	memcpy(c->box0, s->box0, s->bitset_bytes);
	c->player0 = s->player0;
	const unsigned char **chain = lk_xmalloc((upto + 1) * sizeof *chain);
	for (size_t i = 0; i <= upto; i++)
		chain[i] = lk_table_key(&a->table, a->exps[path[i]].node);
	struct soko_movegen g;
	soko_movegen_init(&g, c);
	void *sc1 = lk_xcalloc(1, c->base.scratch_size), *sc2 = lk_xcalloc(1, c->base.scratch_size);
	struct lk_search_result pre;
	lk_search_result_init(&pre);
	soko_box_path(&g, &c->base, sc1, sc2, chain, upto + 1, &pre);
	meets = meets && pre.nkeys > 0 && memcmp(pre.path + (pre.nkeys - 1) * ks, probe, ks) == 0;
	if (meets) {
		size_t nkeys = pre.nkeys + sub->nkeys - 1;
		unsigned char *both = lk_xmalloc(nkeys * ks);
		memcpy(both, pre.path, pre.nkeys * ks);
		memcpy(both + pre.nkeys * ks, sub->path + ks, (sub->nkeys - 1) * ks);
		free(sub->path);
		sub->path = both;
		sub->nkeys = nkeys;
		sub->cost += pre.cost;
	}
	lk_search_result_release(&pre);
	free(sc1);
	free(sc2);
	soko_movegen_release(&g);
	free(chain);
	free(probe);
	return meets;
}

bool soko_restart_round(struct soko_restart *rs, struct any *a, const struct lk_search_options *opt,
			double t0, size_t held, size_t states, struct lk_search_result *found,
			struct lk_search_result *spent)
{
	const struct sokoban *s = rs->s;
	if (!a || !s->push_graph || s->impossible || a->nexps == 0)
		return false;
	size_t ks = s->base.key_size;
	uint32_t *path;
	size_t n = best_path(a, &path);
	/* the first position of each number of steps reached, as the path
	 * first reaches it (a record), deepest last */
	size_t *firsts = lk_xmalloc((n ? n : 1) * sizeof *firsts), nf = 0;
	unsigned most = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned k = packed_of(a, a->exps[path[i]].node);
		if (k > most) {
			most = k;
			firsts[nf++] = i;
		}
	}
	size_t all = opt->bounds.max_memory ? opt->bounds.max_memory : (size_t)1 << 30;
	size_t left = states, cap = states / 2 > min_states ? states / 2 : min_states;
	bool answered = false;
	int ran = 0;
	for (size_t f = nf; f-- > 0 && !answered && ran < MAX_PER_ROUND && left >= min_states;) {
		size_t i = firsts[f];
		const unsigned char *key = lk_table_key(&a->table, a->exps[path[i]].node);
		size_t t = remember(rs, key, ks);
		size_t give = cap < left ? cap : left;
		if (t < rs->n && (rs->dead[t] || rs->tried[t] >= give))
			continue;
		double secs = opt->bounds.max_seconds - (lk_now() - t0);
		if (held >= all || (opt->bounds.max_seconds > 0 && secs <= 0) ||
		    lk_bounds_cancelled(&opt->bounds))
			break;
		struct lk_search_options o = *opt;
		o.bounds.max_memory = all - held;
		if (opt->bounds.max_seconds > 0)
			o.bounds.max_seconds = secs;
		o.bounds.max_states = opt->bounds.max_states && opt->bounds.max_states < give ?
				      opt->bounds.max_states : give;
		struct sokoban *c = copy_of(rs);
		start_at(c, key);
		struct lk_search_result r;
		lk_search_result_init(&r);
		soko_any_one(&c->base, &o, &r);
		rs->runs++;
		ran++;
		if (t < rs->n && rs->tried[t] < give)
			rs->tried[t] = give;
		size_t used = r.status == LK_UNKNOWN && r.limit == LK_LIMIT_STATES ? give :
			      r.stored < give ? (size_t)r.stored : give;
		left -= used < left ? used : left;
		if (r.status == LK_SOLVED && join(rs, a, path, i, &r)) {
			r.optimal = false;
			*found = r;
			answered = true;
			answers++;
			break;
		}
		if (r.status == LK_UNSOLVABLE && t < rs->n)
			rs->dead[t] = true;   /* that position only: the level goes on */
		enum lk_limit limit = r.limit;
		soko_any_add_effort(spent, &r);
		lk_search_result_release(&r);
		if (limit == LK_LIMIT_INTERRUPTED || limit == LK_LIMIT_TIME)
			break;
	}
	free(firsts);
	free(path);
	return answered;
}
