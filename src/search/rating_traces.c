/*
 * rating_traces.c - a level's shortest solutions counted up to the order
 * of independent moves (rating.h: lk_rating_traces), which the rating's
 * scarcity feature is read from (rating_graph.c).
 *
 * Why: counted as paths, the shortest solutions of a room with two boxes
 * that never meet are each box's own solutions times every interleaving
 * of their pushes, so a level with one more independent box looked as if
 * it had far more ways to win, and its scarcity fell where the level got
 * harder (docs/rating.md).  A person does not see A B and B A as two
 * solutions when A and B do not touch.
 *
 * What is counted.  Two moves a and b of a state s (the game's move codes,
 * lk_edge.move) are independent at s when b is a move of a(s), a is one
 * of b(s), and a(b(s)) = b(a(s)): a diamond.  Swapping two adjacent moves
 * of a solution that are independent where they are taken gives an
 * equivalent solution; the count is of the classes of the equivalence
 * this generates (Mazurkiewicz traces, with the independence read off the
 * state graph rather than fixed in advance), over the shortest solutions
 * of the whole graph.  Successors that lead to the same state are one
 * step (a person sees states, not key presses): the least move code
 * stands for them.
 *
 * How.  A depth-first count with sleep sets (Godefroid's partial-order
 * reduction): at a state, once the solutions through its move t are
 * counted, t sleeps in the subtrees of its later siblings for as long as
 * only moves independent of it are taken there, since a solution taking t
 * after such moves only is a reordering of one counted through t.  The
 * count of each (state, sleep set) is memoized, so the work is the number
 * of such pairs met, not of solutions.  A move off the shortest solutions
 * never enters a sleep set (after moves independent of it, it still leads
 * off them).  With a state-dependent independence the sleep sets' "each
 * class once" is not a theorem here; tests/test_rating_traces.c checks
 * the count against a brute force (every shortest solution enumerated,
 * classes joined by adjacent swaps) on hand-made levels.
 */
#include "levelkit/rating.h"

#include <stdlib.h>
#include <string.h>

#include "levelkit/explore.h"
#include "levelkit/rng.h"

#define FAR UINT32_MAX
#define NONE UINT32_MAX

struct step {
	uint32_t move, to;
};

struct memo_entry {
	uint32_t v, zoff, nz;
	double count;
};

struct traces {
	const struct lk_level *level;
	const struct lk_graph *g;
	const uint32_t *togo;
	uint32_t shortest;
	void *scratch;
	unsigned char *keys;
	struct lk_edge *edges;
	/* every state's successors, found when first needed, sorted by move */
	uint32_t *soff, *scount;
	struct step *steps;
	size_t nsteps, steps_alloc;
	/* the memo: entries, their sleep sets in zpool, open addressing */
	struct memo_entry *entries;
	size_t nentries, entries_alloc, max_entries;
	uint32_t *zpool;
	size_t nz, z_alloc;
	uint32_t *slots;   /* entry + 1, 0 empty */
	size_t nslots;
	bool overflow;
};

static bool on_dag(const struct traces *T, uint32_t v)
{
	return T->togo[v] != FAR && lk_table_cost(&T->g->table, v) + T->togo[v] == T->shortest;
}

static int by_move(const void *a, const void *b)
{
	const struct step *x = a, *y = b;
	return x->move < y->move ? -1 : x->move > y->move;
}

/* The successors of v as graph entries, one per state reached. */
static const struct step *successors(struct traces *T, uint32_t v, uint32_t *n)
{
	if (T->soff[v] == NONE) {
		const struct lk_level *level = T->level;
		size_t ks = level->key_size;
		unsigned m = level->game->successors(level, lk_table_key(&T->g->table, v), T->scratch,
						     T->keys, T->edges);
		if (T->nsteps + m > T->steps_alloc) {
			T->steps_alloc = 2 * (T->nsteps + m) + 64;
			T->steps = lk_xrealloc(T->steps, T->steps_alloc * sizeof *T->steps);
		}
		struct step *s = T->steps + T->nsteps;
		uint32_t c = 0;
		for (unsigned i = 0; i < m; i++) {
			const unsigned char *k = T->keys + (size_t)i * ks;
			uint32_t to = lk_table_find(&T->g->table, k, lk_hash_bytes(k, ks));
			if (to == LK_NO_ENTRY)
				continue;   /* not in a whole graph: cannot happen */
			s[c++] = (struct step){ T->edges[i].move, to };
		}
		qsort(s, c, sizeof *s, by_move);
		/* one step per state reached: the least move code stands for it */
		uint32_t kept = 0;
		for (uint32_t i = 0; i < c; i++) {
			bool seen = false;
			for (uint32_t j = 0; j < kept && !seen; j++)
				seen = s[j].to == s[i].to;
			if (!seen)
				s[kept++] = s[i];
		}
		T->soff[v] = (uint32_t)T->nsteps;
		T->scount[v] = kept;
		T->nsteps += kept;
	}
	*n = T->scount[v];
	return T->steps + T->soff[v];
}

/* Where move leads from v, or NONE. */
static uint32_t apply(struct traces *T, uint32_t v, uint32_t move)
{
	uint32_t n;
	const struct step *s = successors(T, v, &n);
	for (uint32_t i = 0; i < n; i++)
		if (s[i].move == move)
			return s[i].to;
	return NONE;
}

/* Whether moves a and b of v close a diamond. */
static bool independent(struct traces *T, uint32_t v, uint32_t a, uint32_t b)
{
	uint32_t va = apply(T, v, a), vb = apply(T, v, b);
	if (va == NONE || vb == NONE || va == vb)
		return false;
	uint32_t x = apply(T, va, b);
	return x != NONE && x == apply(T, vb, a);
}

static uint64_t memo_hash(uint32_t v, const uint32_t *z, uint32_t nz)
{
	uint64_t h = lk_mix64(v + 0x9e3779b97f4a7c15ULL);
	for (uint32_t i = 0; i < nz; i++)
		h = lk_mix64(h ^ (z[i] + 0x632be59bd9b4e019ULL));
	return h;
}

/* The memo's slot for (v, z): an entry's index + 1, or 0 where it goes. */
static size_t memo_slot(const struct traces *T, uint32_t v, const uint32_t *z, uint32_t nz)
{
	size_t mask = T->nslots - 1, i = (size_t)memo_hash(v, z, nz) & mask;
	for (;; i = (i + 1) & mask) {
		uint32_t e = T->slots[i];
		if (!e)
			return i;
		const struct memo_entry *m = &T->entries[e - 1];
		if (m->v == v && m->nz == nz &&
		    (!nz || memcmp(T->zpool + m->zoff, z, nz * sizeof *z) == 0))
			return i;
	}
}

static void memo_grow(struct traces *T)
{
	size_t old = T->nslots;
	uint32_t *was = T->slots;
	T->nslots = old ? 2 * old : 1024;
	T->slots = lk_xcalloc(T->nslots, sizeof *T->slots);
	for (size_t i = 0; i < old; i++)
		if (was[i]) {
			const struct memo_entry *m = &T->entries[was[i] - 1];
			T->slots[memo_slot(T, m->v, T->zpool + m->zoff, m->nz)] = was[i];
		}
	free(was);
}

static void memo_put(struct traces *T, uint32_t v, const uint32_t *z, uint32_t nz, double count)
{
	if ((T->nentries + 1) * 4 > T->nslots * 3)
		memo_grow(T);
	if (T->nentries == T->entries_alloc) {
		T->entries_alloc = 2 * T->entries_alloc + 256;
		T->entries = lk_xrealloc(T->entries, T->entries_alloc * sizeof *T->entries);
	}
	if (T->nz + nz > T->z_alloc) {
		T->z_alloc = 2 * (T->nz + nz) + 256;
		T->zpool = lk_xrealloc(T->zpool, T->z_alloc * sizeof *T->zpool);
	}
	if (nz)   /* z is NULL at the start */
		memcpy(T->zpool + T->nz, z, nz * sizeof *z);
	T->entries[T->nentries] = (struct memo_entry){ v, (uint32_t)T->nz, nz, count };
	T->nz += nz;
	T->slots[memo_slot(T, v, z, nz)] = (uint32_t)++T->nentries;
}

static bool contains(const uint32_t *z, uint32_t nz, uint32_t move)
{
	for (uint32_t i = 0; i < nz; i++)
		if (z[i] == move)
			return true;
	return false;
}

static void insert_sorted(uint32_t *z, uint32_t *nz, uint32_t move)
{
	uint32_t i = *nz;
	while (i > 0 && z[i - 1] > move) {
		z[i] = z[i - 1];
		i--;
	}
	z[i] = move;
	(*nz)++;
}

/* The classes of shortest solutions from v (on them) whose first move is
 * not asleep: z, sorted, holds the sleeping moves, all on the shortest
 * solutions from v. */
static double count_from(struct traces *T, uint32_t v, const uint32_t *z, uint32_t nz)
{
	if (T->togo[v] == 0)
		return 1;
	if (T->nslots) {
		uint32_t e = T->slots[memo_slot(T, v, z, nz)];
		if (e)
			return T->entries[e - 1].count;
	}
	if (T->overflow || T->nentries >= T->max_entries) {
		T->overflow = true;
		return 0;
	}
	uint32_t n;
	(void)successors(T, v, &n);
	/* copies: the successor store and the memo move as they grow */
	struct step *moves = lk_xmalloc((n ? n : 1) * sizeof *moves);
	if (n)
		memcpy(moves, T->steps + T->soff[v], n * sizeof *moves);
	uint32_t *done = lk_xmalloc(((size_t)n + nz + 1) * sizeof *done);
	uint32_t *child = lk_xmalloc(((size_t)n + nz + 1) * sizeof *child);
	uint32_t ndone = 0;
	double total = 0;
	for (uint32_t i = 0; i < n && !T->overflow; i++) {
		uint32_t t = moves[i].move, vt = moves[i].to;
		if (!on_dag(T, vt) || T->togo[vt] + 1 != T->togo[v] || contains(z, nz, t))
			continue;
		/* asleep below vt: the sleeping moves and the siblings done
		 * before t that commute with t and stay on the shortest
		 * solutions after it */
		uint32_t nc = 0;
		for (uint32_t k = 0; k < nz + ndone; k++) {
			uint32_t m = k < nz ? z[k] : done[k - nz];
			if (!independent(T, v, m, t))
				continue;
			uint32_t d = apply(T, vt, m);
			if (d != NONE && on_dag(T, d) && T->togo[d] + 1 == T->togo[vt])
				insert_sorted(child, &nc, m);
		}
		total += count_from(T, vt, child, nc);
		done[ndone++] = t;
	}
	free(moves);
	free(done);
	free(child);
	if (!T->overflow)
		memo_put(T, v, z, nz, total);
	return total;
}

bool lk_rating_traces(const struct lk_level *level, const struct lk_graph *g,
		      const uint32_t *togo, uint32_t shortest, size_t max_entries, double *count)
{
	*count = 0;
	if (!g->complete || !g->table.count || togo[0] == FAR)
		return g->complete;
	struct traces T = { .level = level, .g = g, .togo = togo, .shortest = shortest,
			    .max_entries = max_entries };
	uint32_t n = g->table.count;
	T.scratch = lk_xcalloc(1, level->scratch_size ? level->scratch_size : 1);
	T.keys = lk_xcalloc((size_t)level->max_successors + 1, level->key_size ? level->key_size : 1);
	T.edges = lk_xcalloc((size_t)level->max_successors + 1, sizeof *T.edges);
	T.soff = lk_xmalloc((size_t)n * sizeof *T.soff);
	T.scount = lk_xcalloc(n, sizeof *T.scount);
	for (uint32_t v = 0; v < n; v++)
		T.soff[v] = NONE;
	double c = on_dag(&T, 0) ? count_from(&T, 0, NULL, 0) : 0;
	bool ok = !T.overflow;
	if (ok)
		*count = c;
	free(T.scratch);
	free(T.keys);
	free(T.edges);
	free(T.soff);
	free(T.scount);
	free(T.steps);
	free(T.entries);
	free(T.zpool);
	free(T.slots);
	return ok;
}
