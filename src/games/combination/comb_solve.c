/*
 * comb_solve.c - Combination as a constraint problem (the paper's section
 * 3): a variable per empty square whose value is "no piece" or a type of
 * piece, solved by backtracking with propagation, counting solutions up to
 * a limit.
 *
 * Constraints and how they propagate:
 *  - counts: type t appears exactly count[t] times; a type placed count[t]
 *    times leaves every other domain, and when the squares that could
 *    still take t are just enough, they all take it (bounds of the sum);
 *  - attacks with blocking, the paper's watched-or: two pieces of
 *    different colours that see each other along a line one of them
 *    attacks on are forbidden unless a piece stands between.  Once a
 *    piece stands on a square and the squares between it and another are
 *    all known to be empty, the conflicting types leave that square;
 *  - when every type attacks along an axis (all queens, or all rooks for
 *    rows and columns) a line between walls can hold only one colour, as
 *    the nearest pieces on it would otherwise attack: a stronger implied
 *    rule, used whenever it holds;
 *  - GCC (optional, implied): the unplaced pieces need that many squares
 *    still free to take some piece;
 *  - symmetry (optional): among colours with identical piece sets, each
 *    colour first appears, in reading order, before the next one (value
 *    precedence, a lexicographic leader): one solution per class of
 *    colour renamings, never for board symmetries;
 *  - SAC (optional): before search, every value of every square is tried
 *    and dropped if propagation fails at once.
 *
 * Nodes count the calls of the search, the root included: the size of
 * the search tree, the unit of Combination's difficulty.
 */
#include <stdlib.h>
#include <string.h>

#include "comb.h"
#include "levelkit/bits.h"
#include "levelkit/grid.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"

#define NONE_BIT 1u
#define CHECK_EVERY 1024

struct trail_entry {
	int sq;
	uint32_t dom;
	int8_t val;
};

struct solver {
	const struct comb_level *lv;
	const struct lk_csp_options *opt;
	struct lk_csp_result *r;
	uint32_t *dom;
	int8_t *val;            /* -1 unassigned, 0 no piece, t + 1 a piece of type t */
	int placed[COMB_MAX_TYPES];
	struct trail_entry *trail;
	size_t ntrail, trail_alloc;
	int *queue;             /* squares assigned and not yet propagated */
	int nqueue, queue_alloc;
	int *order;             /* variable order */
	/* Kept up to date at every change, for the global checks:
	 * cand[t] squares whose domain still holds type t (placed ones
	 * included), free_squares unassigned squares that can take a piece. */
	int cand[COMB_MAX_TYPES];
	int free_squares;
	double deadline;
	bool stop;
};


/* Square q's domain and value become dom and val: the counters follow. */
static void change(struct solver *s, int q, uint32_t dom, int8_t val)
{
	uint32_t old = s->dom[q];
	for (uint32_t gone = (old & ~dom) >> 1; gone; gone &= gone - 1)
		s->cand[lk_lowest_bit64(gone)]--;
	for (uint32_t came = (dom & ~old) >> 1; came; came &= came - 1)
		s->cand[lk_lowest_bit64(came)]++;
	s->free_squares += (val < 0 && (dom >> 1)) - (s->val[q] < 0 && (old >> 1));
	s->dom[q] = dom;
	s->val[q] = val;
}

static void save(struct solver *s, int q)
{
	if (s->ntrail == s->trail_alloc)   /* the common case stays inline */
		LK_ALLOC_GROW(s->trail, s->ntrail + 1, s->trail_alloc);
	s->trail[s->ntrail++] = (struct trail_entry){ q, s->dom[q], s->val[q] };
}

static void undo_to(struct solver *s, size_t mark)
{
	while (s->ntrail > mark) {
		struct trail_entry *e = &s->trail[--s->ntrail];
		if (s->val[e->sq] > 0 && e->val <= 0)
			s->placed[s->val[e->sq] - 1]--;
		change(s, e->sq, e->dom, e->val);
	}
	s->nqueue = 0;
}

/* Give square q value v (0 none, t + 1 type t). */
static bool assign(struct solver *s, int q, int v)
{
	if (s->val[q] >= 0)
		return s->val[q] == v;   /* already decided: never count a piece twice */
	if (!(s->dom[q] & (1u << v)))
		return false;
	save(s, q);
	change(s, q, 1u << v, (int8_t)v);
	if (v > 0 && ++s->placed[v - 1] > s->lv->types[v - 1].count)
		return false;
	if (s->nqueue == s->queue_alloc) {
		s->queue_alloc = s->queue_alloc ? 2 * s->queue_alloc : 64;
		s->queue = lk_xrealloc(s->queue, (size_t)s->queue_alloc * sizeof *s->queue);
	}
	s->queue[s->nqueue++] = q;
	return true;
}

/* Narrow the domain of an unassigned square; a single value left is
 * assigned.  False on a wipe-out. */
static bool narrow(struct solver *s, int q, uint32_t keep)
{
	uint32_t d = s->dom[q] & keep;
	if (d == s->dom[q])
		return true;
	if (!d)
		return false;
	save(s, q);
	change(s, q, d, s->val[q]);
	if (s->val[q] < 0 && !(d & (d - 1)))
		return assign(s, q, lk_lowest_bit64(d));
	return true;
}

/* A piece of type t now stands on q. */
static bool piece_placed(struct solver *s, int q, int t)
{
	const struct comb_level *lv = s->lv;
	uint32_t other = 0;
	for (int c = 0; c < lv->ncolours; c++)
		if (c != lv->types[t].colour)
			other |= lv->colour_bits[c];
	for (int d = 0; d < 8; d++) {
		int axis = comb_axis(d);
		const int *ray = lv->rays + lv->ray_at[q * 8 + d];
		int len = lv->ray_len[q * 8 + d];
		uint32_t bad = lv->conflict[t][axis];
		/* Along a clear path: squares known empty so far. */
		for (int i = 0; i < len; i++) {
			int u = ray[i], v = s->val[u];
			if (v == 0)
				continue;
			if (v > 0) {
				if (bad & (1u << v))
					return false;
				break;
			}
			if (!narrow(s, u, ~bad))
				return false;
			break;   /* beyond an undecided square nothing is certain */
		}
		/* A line every type attacks along holds one colour. */
		if (lv->mono[axis]) {
			for (int i = 0; i < len; i++) {
				int u = ray[i], v = s->val[u];
				if (v > 0 && (other & (1u << v)))
					return false;
				if (v < 0 && !narrow(s, u, ~other))
					return false;
			}
		}
	}
	if (s->placed[t] == lv->types[t].count) {
		for (int u = 0; u < lv->nsq; u++)
			if (s->val[u] < 0 && !narrow(s, u, ~(1u << (t + 1))))
				return false;
	}
	return true;
}

/* The nearest square along ray (q, d) that is not known empty, or -1. */
static int nearest(const struct solver *s, int q, int d)
{
	const int *ray = s->lv->rays + s->lv->ray_at[q * 8 + d];
	for (int i = 0; i < s->lv->ray_len[q * 8 + d]; i++)
		if (s->val[ray[i]] != 0)
			return ray[i];
	return -1;
}

/* Square q is now known empty: what it separated may see each other. */
static bool empty_placed(struct solver *s, int q)
{
	static const int forward[4] = { LK_RIGHT, LK_DOWN, LK_DOWN_RIGHT, LK_UP_RIGHT };
	for (int k = 0; k < 4; k++) {
		int d = forward[k], axis = comb_axis(d);
		int a = nearest(s, q, d), b = nearest(s, q, (int)lk_dir_opposite((enum lk_dir)d));
		if (a < 0 || b < 0)
			continue;
		int va = s->val[a], vb = s->val[b];
		if (va > 0 && vb > 0) {
			if (s->lv->conflict[va - 1][axis] & (1u << vb))
				return false;
		} else if (va > 0 && vb < 0) {
			if (!narrow(s, b, ~s->lv->conflict[va - 1][axis]))
				return false;
		} else if (vb > 0 && va < 0) {
			if (!narrow(s, a, ~s->lv->conflict[vb - 1][axis]))
				return false;
		}
	}
	return true;
}

/* Counts, GCC and symmetry: checks over all squares, run when the queue
 * is empty.  *changed says whether they assigned or narrowed anything. */
static bool global_checks(struct solver *s, bool *changed)
{
	const struct comb_level *lv = s->lv;
	size_t before = s->ntrail;
	for (int t = 0; t < lv->ntypes; t++) {
		if (s->cand[t] < lv->types[t].count)
			return false;
		/* just enough squares left for type t: they all take it */
		if (s->placed[t] < lv->types[t].count && s->cand[t] == lv->types[t].count) {
			for (int u = 0; u < lv->nsq; u++)
				if (s->val[u] < 0 && (s->dom[u] & (1u << (t + 1))) && !assign(s, u, t + 1))
					return false;
		}
	}
	if (s->opt->gcc) {
		int unplaced = 0;
		for (int t = 0; t < lv->ntypes; t++)
			unplaced += lv->types[t].count - s->placed[t];
		if (unplaced > s->free_squares)
			return false;
	}
	if (s->opt->symmetry) {
		for (int k = 0; k < lv->nclasses; k++) {
			for (int i = lv->class_at[k]; i + 1 < lv->class_at[k + 1]; i++) {
				uint32_t first_bits = lv->colour_bits[lv->class_colour[i]];
				uint32_t next_bits = lv->colour_bits[lv->class_colour[i + 1]];
				/* The next colour may not appear before the first square
				 * the earlier colour can still take. */
				for (int u = 0; u < lv->nsq; u++) {
					if (s->dom[u] & first_bits)
						break;
					if (s->val[u] > 0 && (next_bits & (1u << s->val[u])))
						return false;
					if (s->val[u] < 0 && !narrow(s, u, ~next_bits))
						return false;
				}
			}
		}
	}
	*changed = s->ntrail != before;
	return true;
}

static bool propagate(struct solver *s)
{
	for (;;) {
		while (s->nqueue > 0) {
			int q = s->queue[--s->nqueue];
			int v = s->val[q];
			if (v > 0 ? !piece_placed(s, q, v - 1) : !empty_placed(s, q))
				return false;
		}
		bool changed;
		if (!global_checks(s, &changed))
			return false;
		if (!changed && s->nqueue == 0)
			return true;
	}
}

/* Singleton arc consistency: drop every value whose assignment fails at
 * once; repeat until nothing is dropped. */
static bool sac(struct solver *s)
{
	bool dropped = true;
	while (dropped) {
		dropped = false;
		for (int u = 0; u < s->lv->nsq; u++) {
			if (s->val[u] >= 0)
				continue;
			for (uint32_t d = s->dom[u]; d && s->val[u] < 0; d &= d - 1) {
				int v = lk_lowest_bit64(d);
				if (!(s->dom[u] & (1u << v)))
					continue;   /* dropped meanwhile */
				size_t mark = s->ntrail;
				bool ok = assign(s, u, v) && propagate(s);
				undo_to(s, mark);
				if (ok)
					continue;
				if (!narrow(s, u, ~(1u << v)) || !propagate(s))
					return false;
				dropped = true;
			}
		}
	}
	return true;
}

static void record_solution(struct solver *s, struct lk_strbuf *out)
{
	const struct comb_level *lv = s->lv;
	lk_strbuf_reset(out);
	for (int y = 0; y < lv->height; y++) {
		if (y)
			lk_strbuf_addch(out, '/');
		for (int x = 0; x < lv->width; x++) {
			int c = y * lv->width + x, q = lv->cell_sq[c];
			lk_strbuf_addch(out, q >= 0 && s->val[q] > 0 ? comb_type_char(s->val[q] - 1)
								      : lv->cells[c]);
		}
	}
}

static void write_solution(const void *search, struct lk_strbuf *out)
{
	record_solution((struct solver *)search, out);
}

bool comb_solution_found(const struct lk_csp_options *opt, struct lk_csp_result *r,
			 void (*writer)(const void *search, struct lk_strbuf *out),
			 const void *search)
{
	bool stop = false;
	if (r->solutions++ == 0) {
		r->nodes_to_first = r->nodes;
		writer(search, &r->solution);
	} else if (r->solutions == 2) {
		writer(search, &r->second);
	}
	if (opt->visit) {
		/* every solution, in the game's notation */
		struct lk_strbuf text = LK_STRBUF_INIT;
		writer(search, &text);
		stop = opt->visit(opt->visit_ctx, text.buf) != 0;
		lk_strbuf_release(&text);
	}
	return stop || r->solutions >= (opt->count_limit ? opt->count_limit : 1);
}

bool comb_out_of_bounds(const struct lk_csp_options *o, double deadline, struct lk_csp_result *r)
{
	if (o->bounds.max_states && r->nodes >= o->bounds.max_states)
		r->limit = LK_LIMIT_STATES;
	else if (r->nodes % CHECK_EVERY == 0 && lk_bounds_cancelled(&o->bounds))
		r->limit = LK_LIMIT_INTERRUPTED;
	else if (r->nodes % CHECK_EVERY == 0 && lk_bounds_time_up(&o->bounds, deadline))
		r->limit = LK_LIMIT_TIME;
	return r->limit != LK_LIMIT_NONE;
}

static bool out_of_bounds(struct solver *s)
{
	return comb_out_of_bounds(s->opt, s->deadline, s->r);
}

static void search(struct solver *s)
{
	s->r->nodes++;
	if (out_of_bounds(s)) {
		s->stop = true;
		return;
	}
	/* The next square: the first unassigned one in the order, or with
	 * `dynamic` the one with the fewest values left (two is the least
	 * an unassigned square can have, so the scan stops there). */
	int q = -1;
	if (s->opt->dynamic) {
		int best = 99;
		for (int i = 0; i < s->lv->nsq && best > 2; i++) {
			int u = s->order[i];
			if (s->val[u] >= 0)
				continue;
			int size = lk_popcount64(s->dom[u]);
			if (size < best) {
				best = size;
				q = u;
			}
		}
	} else {
		for (int i = 0; i < s->lv->nsq && q < 0; i++)
			if (s->val[s->order[i]] < 0)
				q = s->order[i];
	}
	if (q < 0) {
		if (comb_solution_found(s->opt, s->r, write_solution, s))
			s->stop = true;
		return;
	}
	/* Pieces before emptiness, types in order. */
	uint32_t dom = s->dom[q], pieces = dom & ~NONE_BIT;
	while (!s->stop && (pieces || (dom & NONE_BIT))) {
		int v = 0;
		if (pieces) {
			v = lk_lowest_bit64(pieces);
			pieces &= pieces - 1;
		} else {
			dom &= ~NONE_BIT;   /* emptiness last */
		}
		size_t mark = s->ntrail;
		if (assign(s, q, v) && propagate(s))
			search(s);
		undo_to(s, mark);
	}
}

void comb_solve(const struct lk_level *level, const struct lk_csp_options *opt,
		struct lk_csp_result *r)
{
	if (lk_csp_flag(opt, "paper-model")) {
		comb_paper_solve(level, opt, r);
		return;
	}
	const struct comb_level *lv = (const struct comb_level *)level;
	struct solver s = { .lv = lv, .opt = opt, .r = r };
	double start = lk_now();
	size_t n = (size_t)(lv->nsq ? lv->nsq : 1);
	lk_csp_result_release(r);
	s.deadline = lk_bounds_deadline(&opt->bounds, start);
	s.dom = lk_xmalloc(n * sizeof *s.dom);
	s.val = lk_xmalloc(n * sizeof *s.val);
	s.order = lk_xmalloc(n * sizeof *s.order);
	uint32_t all = NONE_BIT;
	for (int t = 0; t < lv->ntypes; t++)
		all |= 1u << (t + 1);
	for (int u = 0; u < lv->nsq; u++) {
		s.dom[u] = all;
		s.val[u] = -1;
		s.order[u] = u;
	}
	for (int t = 0; t < lv->ntypes; t++)
		s.cand[t] = lv->nsq;
	s.free_squares = lv->ntypes ? lv->nsq : 0;
	if (opt->seed) {
		struct lk_rng rng;
		lk_rng_seed(&rng, opt->seed);
		for (int i = lv->nsq; i > 1; i--) {
			int j = (int)lk_rng_below(&rng, (uint32_t)i), t = s.order[i - 1];
			s.order[i - 1] = s.order[j];
			s.order[j] = t;
		}
	}
	bool ok = lv->npieces <= lv->nsq && propagate(&s) && (!opt->sac || sac(&s));
	if (ok) {
		search(&s);
	} else {
		r->nodes = 1;   /* refuted at the root */
	}
	if (r->limit != LK_LIMIT_NONE)
		r->status = r->solutions ? LK_SOLVED : LK_UNKNOWN;
	else
		r->status = r->solutions ? LK_SOLVED : LK_UNSOLVABLE;
	/* The count is exact when the search ran to its end. */
	r->exhausted = !s.stop;
	r->seconds = lk_now() - start;
	free(s.dom);
	free(s.val);
	free(s.order);
	free(s.trail);
	free(s.queue);
}
