/*
 * comb_paper.c - Combination on the paper's own model (Jefferson, Moncur
 * and Petrie 2008, sections 3 and 5.1), the model its difficulty is
 * measured in.  comb_solve.c is the fast model for counting; the search
 * sizes here are the ones the paper's measure averages.
 *
 * Variables: a Boolean M[q][t] for every empty square q and type t, true
 * when a piece of type t stands on q.  Constraints, each propagated as the
 * solver the paper used (Minion) does:
 *  - counts: the M[.][t] sum to count[t] (bounds: a type placed count[t]
 *    times leaves every other square, a type with just count[t] squares
 *    left takes them all);
 *  - at most one piece a square (the paper's text leaves it implicit: a
 *    square holds one piece);
 *  - attacks, the paper's watched-or clause for every two squares L1, L2
 *    that see each other along a line, with no wall between, and every two
 *    types t1, t2 of different colours one of which attacks along it:
 *        not M[L1][t1]  or  not M[L2][t2]  or  some M[p][k] on the path.
 *    A clause propagates when all its literals but one are false (a
 *    watched-or is generalised arc consistent, i.e. unit propagation).
 *    That happens only when the squares between L1 and L2 are known empty,
 *    or all but one, which has one type left: then two conflicting pieces
 *    at L1 and L2 force that piece between them.  Each line through a
 *    changed square is scanned for those cases;
 *  - colours with identical piece sets (Crawford's lex-leader, the
 *    paper's static symmetry breaking): each colour of a class first
 *    appears, in reading order, before the next one;
 *  - optional, the paper's implied constraints (section 5.1): the global
 *    cardinality constraint over the squares (comb_gcc.c: Régin's
 *    generalised arc consistency; each square is one value, empty or a
 *    type, channelled to its Booleans), and singleton arc consistency on
 *    every literal before search.
 * Not here: the fast model's monochrome-line rule, which the paper's
 * model does not have.
 *
 * Search: the Booleans in a fixed order (squares in reading order, types
 * in order; shuffled by a seed), true first: a piece is tried on a square
 * before the square is left without it.  That is the order the paper's
 * players found ("place the first pieces top left").  Nodes count the
 * calls of the search, the root included.
 *
 * Domains are kept per square as in the fast model: bit t+1 while M[q][t]
 * may be true, bit 0 while the square may stay empty; M[q][t] is true when
 * bit t+1 is all that is left.
 */
#include <stdlib.h>
#include <string.h>

#include "comb.h"
#include "levelkit/bits.h"
#include "levelkit/grid.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"

#define EMPTY_BIT 1u

struct undo {
	int sq;
	uint32_t dom;
};

struct paper {
	const struct comb_level *lv;
	const struct lk_csp_options *opt;
	struct lk_csp_result *r;
	int nt;
	uint32_t *dom;
	int placed[COMB_MAX_TYPES];    /* squares with only bit t+1 left */
	int cand[COMB_MAX_TYPES];      /* squares with bit t+1 */
	struct undo *trail;
	size_t ntrail, trail_alloc;
	int *queue;                    /* squares changed, their lines to scan */
	char *queued;
	int nqueue;
	int *line, *busy;              /* scratch: a line's squares, its non-empty ones */
	int *order;                    /* the Booleans, q * nt + t */
	int need[COMB_MAX_TYPES + 1];  /* the GCC's counts: empty, then the types */
	struct comb_gcc gcc;
	uint32_t *keep;
	double deadline;
	bool stop;
};

/* A square's domain is one piece: type t (>= 0), or -1. */
static inline int piece_of(uint32_t d)
{
	return !(d & EMPTY_BIT) && d && !(d & (d - 1)) ? lk_lowest_bit64(d) - 1 : -1;
}

static void push(struct paper *s, int q)
{
	if (!s->queued[q]) {
		s->queued[q] = 1;
		s->queue[s->nqueue++] = q;
	}
}

/* Square q's domain narrows to d: the counters follow, the change is
 * trailed and q's lines are queued.  False on a wipe-out or a type placed
 * too often. */
static bool narrow(struct paper *s, int q, uint32_t d)
{
	uint32_t old = s->dom[q];
	d &= old;
	if (d == old)
		return true;
	if (!d)
		return false;
	if (s->ntrail == s->trail_alloc)
		LK_ALLOC_GROW(s->trail, s->ntrail + 1, s->trail_alloc);
	s->trail[s->ntrail++] = (struct undo){ q, old };
	for (uint32_t gone = (old & ~d) >> 1; gone; gone &= gone - 1)
		s->cand[lk_lowest_bit64(gone)]--;
	s->dom[q] = d;
	push(s, q);
	int t = piece_of(d);
	if (t >= 0 && piece_of(old) < 0 && ++s->placed[t] > s->lv->types[t].count)
		return false;
	return true;
}

static void undo_to(struct paper *s, size_t mark)
{
	while (s->ntrail > mark) {
		struct undo *e = &s->trail[--s->ntrail];
		uint32_t now = s->dom[e->sq];
		int t = piece_of(now);
		if (t >= 0 && piece_of(e->dom) < 0)
			s->placed[t]--;
		for (uint32_t back = (e->dom & ~now) >> 1; back; back &= back - 1)
			s->cand[lk_lowest_bit64(back)]++;
		s->dom[e->sq] = e->dom;
	}
	for (int i = 0; i < s->nqueue; i++)
		s->queued[s->queue[i]] = 0;
	s->nqueue = 0;
}

/* The directions of each axis (comb_axis): rows, columns, "\", "/". */
static const int axis_dirs[4][2] = {
	{ LK_LEFT, LK_RIGHT }, { LK_UP, LK_DOWN }, { LK_UP_LEFT, LK_DOWN_RIGHT },
	{ LK_DOWN_LEFT, LK_UP_RIGHT },
};

/* The attack clauses along the line through q on axis a (see the top). */
static bool scan_line(struct paper *s, int q, int a)
{
	const struct comb_level *lv = s->lv;
	int back = axis_dirs[a][0], fwd = axis_dirs[a][1], n = 0, m = 0;
	const int *ray = lv->rays + lv->ray_at[q * 8 + back];
	for (int i = lv->ray_len[q * 8 + back]; i-- > 0;)
		s->line[n++] = ray[i];
	s->line[n++] = q;
	ray = lv->rays + lv->ray_at[q * 8 + fwd];
	for (int i = 0; i < lv->ray_len[q * 8 + fwd]; i++)
		s->line[n++] = ray[i];
	for (int i = 0; i < n; i++)
		if (s->dom[s->line[i]] != EMPTY_BIT)
			s->busy[m++] = s->line[i];
	/* neighbours with only known-empty squares between */
	for (int i = 0; i + 1 < m; i++) {
		int u = s->busy[i], v = s->busy[i + 1], t = piece_of(s->dom[u]);
		if (t >= 0 && !narrow(s, v, ~lv->conflict[t][a]))
			return false;
		t = piece_of(s->dom[v]);
		if (t >= 0 && !narrow(s, u, ~lv->conflict[t][a]))
			return false;
	}
	/* two conflicting pieces with one square between that has one type
	 * left: that piece must stand there */
	for (int i = 0; i + 2 < m; i++) {
		int u = s->busy[i], mid = s->busy[i + 1], v = s->busy[i + 2];
		uint32_t d = s->dom[mid];
		if (!(d & EMPTY_BIT) || lk_popcount64(d) != 2)
			continue;
		int tu = piece_of(s->dom[u]), tv = piece_of(s->dom[v]);
		if (tu >= 0 && tv >= 0 && (lv->conflict[tu][a] & (1u << (tv + 1))) &&
		    !narrow(s, mid, d & ~EMPTY_BIT))
			return false;
	}
	return true;
}

/* Counts, symmetry and the GCC, over all squares. */
static bool global_checks(struct paper *s)
{
	const struct comb_level *lv = s->lv;
	for (int t = 0; t < s->nt; t++) {
		uint32_t bit = 1u << (t + 1);
		int count = lv->types[t].count;
		if (s->cand[t] < count || s->placed[t] > count)
			return false;
		if (s->placed[t] == count && s->cand[t] > count) {
			for (int u = 0; u < lv->nsq; u++)
				if ((s->dom[u] & bit) && s->dom[u] != bit && !narrow(s, u, ~bit))
					return false;
		} else if (s->cand[t] == count && s->placed[t] < count) {
			for (int u = 0; u < lv->nsq; u++)
				if ((s->dom[u] & bit) && !narrow(s, u, bit))
					return false;
		}
	}
	if (s->opt->symmetry) {
		for (int k = 0; k < lv->nclasses; k++) {
			for (int i = lv->class_at[k]; i + 1 < lv->class_at[k + 1]; i++) {
				uint32_t first = lv->colour_bits[lv->class_colour[i]];
				uint32_t next = lv->colour_bits[lv->class_colour[i + 1]];
				for (int u = 0; u < lv->nsq && !(s->dom[u] & first); u++)
					if (!narrow(s, u, ~next))
						return false;
			}
		}
	}
	if (s->opt->gcc && s->nqueue == 0) {
		if (!comb_gcc_filter(&s->gcc, s->dom, s->need, s->keep))
			return false;
		for (int u = 0; u < lv->nsq; u++)
			if (!narrow(s, u, s->keep[u]))
				return false;
	}
	return true;
}

static bool propagate(struct paper *s)
{
	for (;;) {
		while (s->nqueue > 0) {
			int q = s->queue[--s->nqueue];
			s->queued[q] = 0;
			for (int a = 0; a < 4; a++)
				if (!scan_line(s, q, a))
					return false;
		}
		if (!global_checks(s))
			return false;
		if (s->nqueue == 0)
			return true;
	}
}

/* Is M[q][t] still open? */
static inline bool open_literal(const struct paper *s, int q, int t)
{
	uint32_t bit = 1u << (t + 1);
	return (s->dom[q] & bit) && s->dom[q] != bit;
}

/* Try M[q][t] = value; keep nothing. */
static bool fails(struct paper *s, int q, int t, bool value)
{
	size_t mark = s->ntrail;
	uint32_t bit = 1u << (t + 1);
	bool ok = narrow(s, q, value ? bit : ~bit) && propagate(s);
	undo_to(s, mark);
	return !ok;
}

/* Singleton arc consistency on the literals: a value whose assignment
 * fails at once is removed; until nothing is. */
static bool sac(struct paper *s)
{
	bool changed = true;
	while (changed) {
		changed = false;
		for (int q = 0; q < s->lv->nsq; q++) {
			for (int t = 0; t < s->nt; t++) {
				for (int value = 1; value >= 0 && open_literal(s, q, t); value--) {
					if (!fails(s, q, t, value))
						continue;
					uint32_t bit = 1u << (t + 1);
					if (!narrow(s, q, value ? ~bit : bit) || !propagate(s))
						return false;
					changed = true;
				}
			}
		}
	}
	return true;
}

static void record_solution(const struct paper *s, struct lk_strbuf *out)
{
	const struct comb_level *lv = s->lv;
	lk_strbuf_reset(out);
	for (int y = 0; y < lv->height; y++) {
		if (y)
			lk_strbuf_addch(out, '/');
		for (int x = 0; x < lv->width; x++) {
			int c = y * lv->width + x, q = lv->cell_sq[c];
			int t = q >= 0 ? piece_of(s->dom[q]) : -1;
			lk_strbuf_addch(out, t >= 0 ? comb_type_char(t) : lv->cells[c]);
		}
	}
}

static bool out_of_bounds(struct paper *s)
{
	return comb_out_of_bounds(s->opt, s->deadline, s->r);
}

static void write_solution(const void *search, struct lk_strbuf *out)
{
	record_solution(search, out);
}

static void solution_found(struct paper *s)
{
	if (comb_solution_found(s->opt, s->r, write_solution, s))
		s->stop = true;
}

/* The Booleans before order[from] are all decided here and below. */
static void search(struct paper *s, int from)
{
	s->r->nodes++;
	if (out_of_bounds(s)) {
		s->stop = true;
		return;
	}
	int nvars = s->lv->nsq * s->nt, i = from;
	while (i < nvars && !open_literal(s, s->order[i] / s->nt, s->order[i] % s->nt))
		i++;
	if (i == nvars) {
		solution_found(s);
		return;
	}
	int q = s->order[i] / s->nt, t = s->order[i] % s->nt;
	uint32_t bit = 1u << (t + 1);
	for (int value = 1; value >= 0 && !s->stop; value--) {
		size_t mark = s->ntrail;
		if (narrow(s, q, value ? bit : ~bit) && propagate(s))
			search(s, i + 1);
		undo_to(s, mark);
	}
}

void comb_paper_solve(const struct lk_level *level, const struct lk_csp_options *opt,
		      struct lk_csp_result *r)
{
	const struct comb_level *lv = (const struct comb_level *)level;
	struct paper s = { .lv = lv, .opt = opt, .r = r, .nt = lv->ntypes };
	double start = lk_now();
	size_t n = (size_t)(lv->nsq ? lv->nsq : 1), nvars = n * (size_t)lv->ntypes;
	lk_csp_result_release(r);
	s.deadline = lk_bounds_deadline(&opt->bounds, start);
	s.dom = lk_xmalloc(n * sizeof *s.dom);
	s.keep = lk_xmalloc(n * sizeof *s.keep);
	s.queue = lk_xmalloc(n * sizeof *s.queue);
	s.queued = lk_xcalloc(n, 1);
	s.line = lk_xmalloc((n + 1) * sizeof *s.line);
	s.busy = lk_xmalloc((n + 1) * sizeof *s.busy);
	s.order = lk_xmalloc(nvars * sizeof *s.order);
	uint32_t all = EMPTY_BIT;
	for (int t = 0; t < lv->ntypes; t++) {
		all |= 1u << (t + 1);
		s.cand[t] = lv->nsq;
		s.need[t + 1] = lv->types[t].count;
	}
	s.need[0] = lv->nsq - lv->npieces;
	for (int u = 0; u < lv->nsq; u++) {
		s.dom[u] = all;
		push(&s, u);
	}
	for (size_t i = 0; i < nvars; i++)
		s.order[i] = (int)i;
	if (opt->seed) {
		struct lk_rng rng;
		lk_rng_seed(&rng, opt->seed);
		for (size_t i = nvars; i > 1; i--) {
			size_t j = lk_rng_below(&rng, (uint32_t)i);
			int t = s.order[i - 1];
			s.order[i - 1] = s.order[j];
			s.order[j] = t;
		}
	}
	comb_gcc_init(&s.gcc, lv->nsq, lv->ntypes + 1);
	bool ok = lv->npieces <= lv->nsq && propagate(&s) && (!opt->sac || sac(&s));
	if (ok)
		search(&s, 0);
	else
		r->nodes = 1;   /* refuted at the root */
	if (r->limit != LK_LIMIT_NONE)
		r->status = r->solutions ? LK_SOLVED : LK_UNKNOWN;
	else
		r->status = r->solutions ? LK_SOLVED : LK_UNSOLVABLE;
	r->exhausted = !s.stop;
	r->seconds = lk_now() - start;
	comb_gcc_release(&s.gcc);
	free(s.dom);
	free(s.keep);
	free(s.queue);
	free(s.queued);
	free(s.line);
	free(s.busy);
	free(s.order);
	free(s.trail);
}
