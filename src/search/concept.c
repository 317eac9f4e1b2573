/*
 * concept.c - concept queries on state-space levels (concept.h): the
 * level's states times the counts the concept reads, searched by the
 * ordinary solver with its state table and bounds.
 *
 * The product is a level of its own (a small game whose moves are the
 * wrapped level's): a key is the wrapped key, then the game's tracked
 * bytes (track_size), then one 16-bit count per counter.  The question
 * becomes a search for a goal whose counts satisfy a target condition T:
 * the concept itself for LK_EXISTS, its negation for LK_FORALL (a
 * shortcut).  One count that T only ever wants small (trend DOWN) is the
 * search's cost instead of a counter: uniform-cost search then reaches
 * every product state first by its cheapest path, which is the path T
 * likes best, so keeping only that path loses no witness; and paths
 * costing more than T can ever accept are cut (cost_limit).  A state
 * whose counts already rule T out, whatever follows, is not kept.
 */
#include "levelkit/concept.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "levelkit/strbuf.h"

#define MAX_COUNTERS 32
#define MAX_CAP 65535u
#define LENGTH_FACT UINT16_MAX   /* the counter of moves, not a fact */

struct counter {
	uint16_t fact;       /* index into level->facts, or LENGTH_FACT */
	unsigned trend;      /* in T */
	double largest;      /* largest number T compares it with, or -1 */
	bool with_fact;      /* compared with another count */
	unsigned cap;        /* kept up to this value (meaning "cap or more") */
	size_t offset;       /* in the product key; unused for the cost */
};

struct query {
	struct lk_level level;          /* the product: its header first */
	const struct lk_level *base;
	const struct lk_expr *concept;
	bool negate;                    /* T is !concept */
	struct counter counters[MAX_COUNTERS];
	unsigned ncounters;
	int cost;                       /* the counter that is the cost, or -1 */
	int *counter_of_fact;           /* per base fact: its counter, or -1 */
	int length_counter;             /* counter of moves, or -1 */
	size_t base_ks, track_off, track_size;
	size_t sub_scratch, keys_off, edges_off, facts_off;
	unsigned max_facts;
	/* filled while searching */
	uint64_t goals_seen, pruned;
	bool inexact;                   /* a goal T could not decide */
	struct lk_strbuf err;           /* setup: the first name not known */
};

/* What the evaluation sees: the counts of a (product) state. */
struct view {
	const struct query *q;
	const unsigned char *key;       /* NULL: nothing known */
	bool final;                     /* a goal: win kind known, counts exact */
	unsigned long cost;             /* the cost counter's value (a lower
					 * bound unless final) */
};

static const struct query *query_of(const struct lk_level *level)
{
	return (const struct query *)level;
}

static unsigned get_count(const unsigned char *key, size_t offset)
{
	return (unsigned)key[offset] | ((unsigned)key[offset + 1] << 8);
}

static void set_count(unsigned char *key, size_t offset, unsigned v)
{
	key[offset] = (unsigned char)(v & 0xff);
	key[offset + 1] = (unsigned char)(v >> 8);
}

/* ------------------------------------------------------------ names */

static int fact_index(const struct lk_level *base, const char *name)
{
	for (unsigned i = 0; i < base->nfacts; i++)
		if (strcasecmp(base->facts[i], name) == 0)
			return (int)i;
	return -1;
}

static int win_kind_index(const struct lk_level *base, const char *name)
{
	const struct lk_game *g = base->game;
	if (!g->win_kind_names || !g->win_kind)
		return -1;
	for (unsigned i = 0; i < g->win_kinds; i++)
		if (strcasecmp(g->win_kind_names[i], name) == 0)
			return (int)i;
	return -1;
}

/* A count field of the game (Sokoban's pushes): the fact it counts. */
static int count_field_fact(const struct lk_level *base, const char *name)
{
	const struct lk_count_field *f = base->game->count_fields;
	for (; f && f->name; f++)
		if (strcasecmp(f->name, name) == 0)
			return fact_index(base, f->fact);
	return -1;
}

enum name_kind { NAME_NONE, NAME_COUNT, NAME_USES, NAME_WIN };

/* Resolve name(arg): a count (*fact is a fact index or LENGTH_FACT), a
 * use (0 or 1 of a count) or a win kind (*fact its index). */
static enum name_kind resolve(const struct lk_level *base, const char *name, const char *arg,
			      int *fact)
{
	if (arg) {
		bool uses = strcasecmp(name, "uses") == 0;
		if (!uses && strcasecmp(name, "count") != 0)
			return NAME_NONE;
		*fact = fact_index(base, arg);
		if (*fact < 0)
			return NAME_NONE;
		return uses ? NAME_USES : NAME_COUNT;
	}
	if (strcasecmp(name, "length") == 0 || strcasecmp(name, "moves") == 0) {
		*fact = LENGTH_FACT;
		return NAME_COUNT;
	}
	if ((*fact = count_field_fact(base, name)) >= 0)
		return NAME_COUNT;
	if ((*fact = win_kind_index(base, name)) >= 0)
		return NAME_WIN;
	return NAME_NONE;
}

static int counter_of(const struct query *q, int fact)
{
	return fact == LENGTH_FACT ? q->length_counter : q->counter_of_fact[fact];
}

/* ------------------------------------------------------------ evaluation */

/* The bounds on one counter's value in the view. */
static void counter_bounds(const struct view *v, int c, double *lo, double *hi)
{
	const struct query *q = v->q;
	if (c == q->cost) {
		*lo = (double)v->cost;
		*hi = v->final ? *lo : INFINITY;
		return;
	}
	unsigned x = v->key ? get_count(v->key, q->counters[c].offset) : 0;
	*lo = x;
	*hi = v->final && x < q->counters[c].cap ? (double)x : (double)INFINITY;
}

static int lookup(void *ctx, const char *name, const char *arg, double *lo, double *hi)
{
	const struct view *v = ctx;
	const struct lk_level *base = v->q->base;
	int fact;
	switch (resolve(base, name, arg, &fact)) {
	case NAME_NONE:
		return -1;
	case NAME_WIN:
		if (v->final && v->key) {
			*lo = *hi = base->game->win_kind(base, v->key) == (unsigned)fact;
		} else {
			*lo = 0;
			*hi = 1;
		}
		return 0;
	case NAME_COUNT:
	case NAME_USES: {
		int c = counter_of(v->q, fact);
		if (c < 0)
			return -1;
		counter_bounds(v, c, lo, hi);
		if (strcasecmp(name, "uses") == 0) {
			*lo = *lo > 0;
			*hi = *hi > 0;
		}
		return 0;
	}
	}
	return -1;
}

/* T over the view. */
static enum lk_truth target(const struct view *v)
{
	enum lk_truth t;
	if (lk_expr_eval_facts(v->q->concept, lookup, (void *)v, &t, NULL) < 0)
		return LK_MAYBE;   /* checked before the search: not reached */
	if (v->q->negate && t != LK_MAYBE)
		t = t == LK_TRUE ? LK_FALSE : LK_TRUE;
	return t;
}

/* ------------------------------------------------------------ the product game */

static void product_initial(const struct lk_level *level, void *key)
{
	const struct query *q = query_of(level);
	unsigned char *k = key;
	memset(k, 0, q->level.key_size);
	q->base->game->initial_state(q->base, k);
	if (q->track_size)
		q->base->game->track_start(q->base, k + q->track_off);
}

static bool product_goal(const struct lk_level *level, const void *key)
{
	const struct query *q = query_of(level);
	return q->base->game->is_goal(q->base, key);
}

static unsigned product_successors(const struct lk_level *level, const void *key, void *scratch,
				   unsigned char *keys_out, struct lk_edge *edges)
{
	struct query *q = (struct query *)level;   /* counts what it prunes */
	const struct lk_game *g = q->base->game;
	if (g->is_goal(q->base, key))
		return 0;   /* the game is over */
	unsigned char *sc = scratch;
	unsigned char *bkeys = sc + q->keys_off;
	struct lk_edge *bedges = (struct lk_edge *)(void *)(sc + q->edges_off);
	uint16_t *facts = (uint16_t *)(void *)(sc + q->facts_off);
	unsigned n = g->successors(q->base, key, sc, bkeys, bedges);
	size_t ks = q->level.key_size;
	unsigned out = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned char *child = keys_out + out * ks;
		memcpy(child, bkeys + i * q->base_ks, q->base_ks);
		memcpy(child + q->base_ks, (const unsigned char *)key + q->base_ks, ks - q->base_ks);
		unsigned nf = 0;
		if (g->move_facts)
			nf = g->move_facts(q->base, key, bedges[i].move, facts, q->max_facts);
		if (q->track_size)
			nf += g->track_move(q->base, key, bedges[i].move, child + q->track_off,
					    facts + nf, q->max_facts - nf);
		unsigned cost = q->cost < 0 ? 1u : 0u;
		if (q->length_counter >= 0) {
			if (q->length_counter == q->cost)
				cost++;
			else {
				const struct counter *c = &q->counters[q->length_counter];
				unsigned x = get_count(child, c->offset);
				if (x < c->cap)
					set_count(child, c->offset, x + 1);
			}
		}
		for (unsigned f = 0; f < nf; f++) {
			int ci = facts[f] < q->base->nfacts ? q->counter_of_fact[facts[f]] : -1;
			if (ci < 0)
				continue;
			if (ci == q->cost) {
				cost++;
				continue;
			}
			const struct counter *c = &q->counters[ci];
			unsigned x = get_count(child, c->offset);
			if (x < c->cap)
				set_count(child, c->offset, x + 1);
		}
		/* Counts only grow: a state whose counts already rule the
		 * target out, whatever comes next, leads to no witness. */
		struct view v = { .q = q, .key = child, .final = false, .cost = 0 };
		if (target(&v) == LK_FALSE) {
			q->pruned++;
			continue;
		}
		edges[out].cost = cost;
		edges[out].move = bedges[i].move;
		out++;
	}
	return out;
}

/* The base level's admissible heuristic, when it bounds the product's
 * cost: the moves (no cost counter, or length as the cost) on a level
 * built on moves, or the count of the fact the game says it bounds
 * (heuristic_usable decides, once).  The product key starts with the base
 * key and its scratch with the base's. */
static unsigned product_heuristic(const struct lk_level *level, const void *key, void *scratch)
{
	const struct query *q = query_of(level);
	return q->base->game->heuristic(q->base, key, scratch);
}

static bool heuristic_usable(const struct query *q)
{
	const struct lk_level *b = q->base;
	if (!b->has_heuristic || !b->heuristic_admissible || !b->game->heuristic)
		return false;
	bool moves = b->metric && strcmp(b->metric, "moves") == 0;
	if (q->cost < 0 || q->cost == q->length_counter)
		return moves;
	const char *hf = b->game->heuristic_fact;
	uint16_t fact = q->counters[q->cost].fact;
	return hf && fact != LENGTH_FACT && strcmp(b->facts[fact], hf) == 0;
}

static const struct lk_game product_game = {
	.name = "concept",
	.summary = "a level's states times the counts a concept reads",
	.initial_state = product_initial,
	.successors = product_successors,
	.is_goal = product_goal,
	.heuristic = product_heuristic,
};

/* The search's accept hook: a goal is a witness when T holds there. */
static bool accept_goal(void *ctx, const void *key, unsigned long cost)
{
	struct query *q = ctx;
	struct view v = { .q = q, .key = key, .final = true, .cost = q->cost >= 0 ? cost : 0 };
	q->goals_seen++;
	enum lk_truth t = target(&v);
	if (t == LK_MAYBE)
		q->inexact = true;
	return t == LK_TRUE;
}

/* ------------------------------------------------------------ setup */

static void note_occurrence(void *ctx, const char *name, const char *arg, unsigned trend,
			    double number, bool with_fact)
{
	struct query *q = ctx;
	int fact;
	enum name_kind kind = resolve(q->base, name, arg, &fact);
	if (kind != NAME_COUNT && kind != NAME_USES)
		return;
	int c = counter_of(q, fact);
	if (c < 0) {
		if (q->ncounters == MAX_COUNTERS) {
			if (!q->err.len)
				lk_strbuf_addf(&q->err, "a concept may read at most %d counts",
					       MAX_COUNTERS);
			return;
		}
		c = (int)q->ncounters++;
		q->counters[c] = (struct counter){ .fact = (uint16_t)fact, .largest = -1 };
		if (fact == LENGTH_FACT)
			q->length_counter = c;
		else
			q->counter_of_fact[fact] = c;
	}
	struct counter *k = &q->counters[c];
	/* uses(F) reads only whether the count is 0: like "count > 0" */
	if (kind == NAME_USES && !isnan(number))
		number = 0;
	if (q->negate)
		trend = ((trend & LK_TREND_UP) ? LK_TREND_DOWN : 0u) |
			((trend & LK_TREND_DOWN) ? LK_TREND_UP : 0u);
	k->trend |= trend;
	k->with_fact |= with_fact;
	if (!isnan(number) && number > k->largest)
		k->largest = number;
}

static int check_lookup(void *ctx, const char *name, const char *arg, double *lo, double *hi)
{
	const struct lk_level *base = ctx;
	int fact;
	*lo = 0;
	*hi = INFINITY;
	return resolve(base, name, arg, &fact) == NAME_NONE ? -1 : 0;
}

int lk_concept_check(const struct lk_level *level, const struct lk_expr *concept,
		     struct lk_strbuf *err)
{
	if (!level->game->successors) {
		lk_strbuf_addf(err, "%s levels have no state space to ask about", level->game->name);
		return -1;
	}
	size_t mark = err->len;
	if (lk_expr_check_facts(concept, check_lookup, (void *)level, err) == 0)
		return 0;
	if (err->len == mark)
		lk_strbuf_addf(err, "unknown name in the concept");
	lk_strbuf_addf(err, " (%s solutions have length", level->game->name);
	const struct lk_count_field *f = level->game->count_fields;
	for (; f && f->name; f++)
		lk_strbuf_addf(err, ", %s", f->name);
	for (unsigned i = 0; level->game->win_kind_names && i < level->game->win_kinds; i++)
		lk_strbuf_addf(err, ", %s", level->game->win_kind_names[i]);
	if (level->nfacts) {
		lk_strbuf_addf(err, " and count() or uses() of");
		for (unsigned i = 0; i < level->nfacts && i < 12; i++)
			lk_strbuf_addf(err, "%s '%s'", i ? "," : "", level->facts[i]);
		if (level->nfacts > 12)
			lk_strbuf_addf(err, " and %u more", level->nfacts - 12);
	}
	lk_strbuf_addf(err, ")");
	return -1;
}

struct lk_level_options lk_concept_level_options(const struct lk_game *game)
{
	struct lk_level_options o = { .metric = NULL, .heuristic = NULL, .plain = false };
	if (lk_name_in("moves", game->metrics))
		o.metric = "moves";
	return o;
}

static size_t align16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

/* Lay the query out: counters, the cost, the product key and scratch.
 * Returns 0, or -1 with q->err set. */
static int setup(struct query *q, const struct lk_level *base, const struct lk_expr *concept,
		 enum lk_quantifier quant)
{
	const struct lk_game *g = base->game;
	q->base = base;
	q->concept = concept;
	q->negate = quant == LK_FORALL;
	q->cost = -1;
	q->length_counter = -1;
	q->counter_of_fact = lk_xmalloc((base->nfacts + 1) * sizeof *q->counter_of_fact);
	for (unsigned i = 0; i < base->nfacts; i++)
		q->counter_of_fact[i] = -1;
	lk_expr_visit_facts(concept, note_occurrence, q);
	if (q->err.len)
		return -1;
	/* The cost: a count T only ever wants small. */
	for (unsigned c = 0; c < q->ncounters && q->cost < 0; c++)
		if (q->counters[c].trend == LK_TREND_DOWN && !q->counters[c].with_fact)
			q->cost = (int)c;
	/* The others kept up to one more than any number they meet. */
	double largest = 0;
	for (unsigned c = 0; c < q->ncounters; c++)
		if (q->counters[c].largest > largest)
			largest = q->counters[c].largest;
	q->base_ks = base->key_size;
	q->track_size = g->track_size && g->track_move && g->track_start ? g->track_size(base) : 0;
	q->track_off = q->base_ks;
	size_t off = q->track_off + q->track_size;
	for (unsigned c = 0; c < q->ncounters; c++) {
		struct counter *k = &q->counters[c];
		double top = k->with_fact ? largest : k->largest;
		if (top >= MAX_CAP - 1) {
			lk_strbuf_addf(&q->err, "a concept's numbers must be below %u", MAX_CAP - 1);
			return -1;
		}
		k->cap = top < 0 ? 1 : (unsigned)floor(top) + 1;
		if ((int)c == q->cost)
			continue;
		k->offset = off;
		off += 2;
	}
	q->level = (struct lk_level){
		.game = &product_game,
		.def = base->def,
		.key_size = off,
		.max_successors = base->max_successors,
		.metric = "concept",
		.facts = base->facts,
		.nfacts = base->nfacts,
	};
	q->max_facts = base->nfacts + 8;
	q->sub_scratch = align16(base->scratch_size);
	q->keys_off = q->sub_scratch;
	q->edges_off = align16(q->keys_off + (size_t)base->max_successors * q->base_ks);
	q->facts_off = align16(q->edges_off + (size_t)base->max_successors * sizeof(struct lk_edge));
	q->level.scratch_size = q->facts_off + q->max_facts * sizeof(uint16_t);
	return 0;
}

/* The least cost at which T is false whatever else holds: the search
 * need not follow paths that cost more.  Returns false if none (or no
 * cost counter). */
static bool cost_limit(const struct query *q, unsigned long *limit)
{
	if (q->cost < 0)
		return false;
	unsigned cap = q->counters[q->cost].cap;
	for (unsigned long g = 0; g <= cap; g++) {
		struct view v = { .q = q, .key = NULL, .final = false, .cost = g };
		if (target(&v) == LK_FALSE) {
			*limit = g;   /* g - 1 is the most a witness may cost */
			return true;
		}
	}
	return false;
}

/* The counts of the witness, for the record. */
static void describe_witness(const struct query *q, const unsigned char *goal,
			     unsigned long cost, struct lk_strbuf *out)
{
	for (unsigned c = 0; c < q->ncounters; c++) {
		const struct counter *k = &q->counters[c];
		const char *name = k->fact == LENGTH_FACT ? "length" : q->base->facts[k->fact];
		unsigned long v = (int)c == q->cost ? cost : get_count(goal, k->offset);
		bool more = (int)c != q->cost && v >= k->cap;
		lk_strbuf_addf(out, "%s%s%s%s %s %lu", out->len ? ", " : "",
			       k->fact == LENGTH_FACT ? "" : "count(", name,
			       k->fact == LENGTH_FACT ? "" : ")", more ? ">=" : "==", v);
	}
	const struct lk_game *g = q->base->game;
	if (g->win_kind_names && g->win_kind)
		lk_strbuf_addf(out, "%s%s", out->len ? ", " : "",
			       g->win_kind_names[g->win_kind(q->base, goal)]);
}

/* Whether the base level has a solution, when the product could not tell. */
static enum lk_status solvable(struct lk_solver *s, const struct lk_level *base,
			       const struct lk_search_options *bounds, struct lk_concept_result *r)
{
	struct lk_search_options o = *bounds;
	o.algo = base->has_heuristic ? LK_ALGO_ASTAR : LK_ALGO_BFS;
	o.direction = LK_FORWARD;
	o.accept = NULL;
	o.cost_limited = false;
	struct lk_search_result sr;
	lk_search_result_init(&sr);
	lk_solver_run(s, base, &o, &sr);
	r->stored += sr.stored;
	r->expanded += sr.expanded;
	enum lk_status st = sr.status;
	lk_search_result_release(&sr);
	return st;
}

void lk_concept_search(struct lk_solver *s, const struct lk_level *level,
		       const struct lk_expr *concept, enum lk_quantifier quant,
		       const struct lk_search_options *opt, struct lk_concept_result *r)
{
	double start = lk_now();
	struct query q;
	memset(&q, 0, sizeof q);
	lk_strbuf_init(&q.err);
	lk_moves_release(&r->witness);
	lk_moves_init(&r->witness, level);
	lk_strbuf_reset(&r->witness_facts);
	r->answer = LK_MAYBE;
	r->limit = LK_LIMIT_NONE;
	r->why = NULL;
	r->solvable = LK_UNKNOWN;
	r->has_witness = false;
	r->stored = r->expanded = 0;
	if (setup(&q, level, concept, quant) < 0) {
		r->why = "the concept reads too many counts or too large numbers";
		goto done;
	}
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = LK_ALGO_UCS;
	o.direction = LK_FORWARD;
	o.bounds = opt->bounds;
	o.tick = opt->tick;
	o.tick_ctx = opt->tick_ctx;
	o.accept = accept_goal;
	o.accept_ctx = &q;
	if (heuristic_usable(&q)) {
		/* the least cost first still, fewer states on the way */
		q.level.has_heuristic = q.level.heuristic_admissible = true;
		o.algo = LK_ALGO_ASTAR;
	}
	unsigned long limit = 0;
	bool limited = cost_limit(&q, &limit);
	struct lk_search_result sr;
	lk_search_result_init(&sr);
	if (limited && limit == 0) {
		/* T is false whatever the solution: no witness to look for */
		sr.status = LK_UNSOLVABLE;
		q.pruned = 1;
	} else {
		o.cost_limited = limited;
		o.cost_limit = limited ? limit - 1 : 0;
		lk_solver_run(s, &q.level, &o, &sr);
	}
	r->stored = sr.stored;
	r->expanded = sr.expanded;
	bool forall = quant == LK_FORALL;
	if (sr.status == LK_SOLVED) {
		size_t n = sr.nkeys, ks = q.level.key_size;
		unsigned char *keys = lk_xmalloc(n * q.base_ks + 1);
		for (size_t i = 0; i < n; i++)
			memcpy(keys + i * q.base_ks, sr.path + i * ks, q.base_ks);
		lk_level_label(level, keys, n, &r->witness);
		free(keys);
		describe_witness(&q, sr.path + (n - 1) * ks, sr.cost, &r->witness_facts);
		r->has_witness = true;
		r->answer = forall ? LK_FALSE : LK_TRUE;
		r->solvable = LK_SOLVED;
	} else if (sr.status == LK_UNSOLVABLE && q.inexact) {
		r->why = "the concept compares two counts beyond the numbers it names";
	} else if (sr.status == LK_UNSOLVABLE) {
		r->answer = forall ? LK_TRUE : LK_FALSE;
		if (q.goals_seen)
			r->solvable = LK_SOLVED;
		else if (!q.pruned && !limited)
			r->solvable = LK_UNSOLVABLE;
		else
			r->solvable = solvable(s, level, opt, r);
	} else {
		r->limit = sr.limit;
	}
	lk_search_result_release(&sr);
done:
	free(q.counter_of_fact);
	lk_strbuf_release(&q.err);
	r->seconds = lk_now() - start;
}
