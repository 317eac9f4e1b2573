/*
 * sokoban_relevance.c - relevance cuts of Sokoban's search for any solution
 * (solve -a any), after Junghanns and Schaeffer ("Relevance Cuts:
 * Localizing the Search", Computers and Games 1998); our own version for
 * box moves (docs/games/sokoban.md, "Relevance cuts").
 *
 * A solver that may play any box anywhere next wastes its time trying
 * every interleaving of independent manoeuvres in different parts of the
 * level.  A move is *related* to the move before it on the state's path
 * when it starts or ends near where that move's box stopped: within
 * RADIUS steps over the floor (box moves are macros, so the ends are what
 * counts), or on the same box.  Within the last WINDOW moves of a path at
 * most BUDGET may be unrelated; a move that would exceed that is cut
 * before its child is scored (which is where the feature-space search
 * spends its time).  The first moves of a search are never cut.
 *
 * This is not sound: a level may need more unrelated moves in a row than
 * the budget allows.  So sokoban_any.c uses it only in the first
 * feature-space search, beside the goal-room macros: when that search runs
 * out of moves after a cut, it proves nothing and the search runs again
 * without them; and it gets only part of the time (RELEVANCE_TIME in
 * sokoban_any.c), the rest goes to the search without them.
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/bits.h"
#include "sokoban_any.h"

#define RADIUS SOKO_RELEVANCE_RADIUS
#define WINDOW SOKO_RELEVANCE_WINDOW
#define BUDGET SOKO_RELEVANCE_BUDGET

void soko_relevance_init(struct soko_relevance *r, const struct sokoban *s)
{
	size_t nf = (size_t)s->nfloor;
	r->s = s;
	r->near = lk_xcalloc(nf * nf, 1);
	uint16_t *queue = lk_xmalloc(nf * sizeof *queue);
	uint8_t *depth = lk_xmalloc(nf);
	/* a breadth-first search over the floor from every square, RADIUS deep */
	for (size_t from = 0; from < nf; from++) {
		memset(depth, 0xff, nf);
		size_t head = 0, tail = 0;
		queue[tail++] = (uint16_t)from;
		depth[from] = 0;
		while (head < tail) {
			size_t u = queue[head++];
			r->near[from * nf + u] = 1;
			if (depth[u] == RADIUS)
				continue;
			int cell = s->cell_of[u];
			for (int d = 0; d < 4; d++) {
				int32_t v = s->compact[cell + s->off[d]];
				if (v < 0 || depth[v] != 0xff)
					continue;
				depth[v] = (uint8_t)(depth[u] + 1);
				queue[tail++] = (uint16_t)v;
			}
		}
	}
	free(queue);
	free(depth);
}

void soko_relevance_release(struct soko_relevance *r)
{
	free(r->near);
	r->near = NULL;
}

int soko_moved_box(const struct sokoban *s, const unsigned char *from, const unsigned char *to,
		   int *was)
{
	/* eight bytes of the bitsets a word (a bit a step was 3 % of
	 * Sasquatch III 16); the last square of each kind in index order, as
	 * a bit at a time found it */
	int dest = -1;
	*was = -1;
	const unsigned char *f = from + 2, *t = to + 2;
	for (size_t i = 0; i < s->bitset_bytes; i += 8) {
		size_t len = s->bitset_bytes - i < 8 ? s->bitset_bytes - i : 8;
		uint64_t fw = 0, tw = 0;
		for (size_t j = 0; j < len; j++) {
			fw |= (uint64_t)f[i + j] << (8 * j);
			tw |= (uint64_t)t[i + j] << (8 * j);
		}
		for (uint64_t came = tw & ~fw; came; came &= came - 1)
			dest = s->cell_of[i * 8 + (size_t)lk_lowest_bit64(came)];
		for (uint64_t left = fw & ~tw; left; left &= left - 1)
			*was = s->cell_of[i * 8 + (size_t)lk_lowest_bit64(left)];
	}
	return dest;
}

static bool near(const struct soko_relevance *r, int a, int b)
{
	const struct sokoban *s = r->s;
	return r->near[(size_t)s->compact[a] * (size_t)s->nfloor + (size_t)s->compact[b]];
}

/* Is the box move from -> to related to a move whose box stopped on last? */
static bool related(const struct soko_relevance *r, int from, int to, int last)
{
	return near(r, from, last) || near(r, to, last);
}

/* Moves m[0 .. n) unrelated to a move whose box stopped on last are cut
 * (counted), unless that leaves none. */
static size_t cut_unrelated(const struct soko_relevance *r, struct soko_scratch *sc, int last,
			    struct soko_boxmove *m, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!related(r, m[i].from, m[i].to, last)) {
			sc->count[SOKO_T_RELEVANCE]++;
			continue;
		}
		m[k++] = m[i];
	}
	if (k == 0) {
		/* a state is not left without moves by a cut: it keeps them all */
		sc->count[SOKO_T_RELEVANCE] -= n;
		return n;
	}
	return k;
}

size_t soko_relevance_cut(const struct soko_relevance *r, struct soko_scratch *sc,
			  const unsigned char *const *keys, int nkeys, struct soko_boxmove *m,
			  size_t n)
{
	const struct sokoban *s = r->s;
	if (!s->use[SOKO_T_RELEVANCE] || nkeys < 2 || n == 0)
		return n;
	/* the path's last moves, most recent first: where each box went and
	 * whether it was related to the move before it */
	int from[WINDOW + 1], to[WINDOW + 1], nmoves = 0;
	for (int i = 0; i + 1 < nkeys && nmoves <= WINDOW; i++) {
		int was, dest = soko_moved_box(s, keys[i + 1], keys[i], &was);
		if (dest < 0)
			continue;   /* the player only: no box moved */
		from[nmoves] = was;
		to[nmoves++] = dest;
	}
	if (nmoves == 0)
		return n;
	int unrelated = 0;
	for (int i = 0; i + 1 < nmoves && i + 1 < WINDOW; i++)
		unrelated += !related(r, from[i], to[i], to[i + 1]);
	if (unrelated < BUDGET)
		return n;
	return cut_unrelated(r, sc, to[0], m, n);
}

/* The cut reads the first WINDOW box moves (moves i and i + 1 related, i
 * + 1 < WINDOW; the last square of move 0): a path keeps that many, and
 * only move 0's square (the pairs' relations are worked out as the path
 * grows).  An age is at most SOKO_RELEVANCE_KEYS - 2. */
_Static_assert(SOKO_RELEVANCE_MOVES == WINDOW, "a path keeps the moves the cut reads");
_Static_assert(SOKO_RELEVANCE_KEYS - 2 <= 7, "an age fits in 3 bits");
_Static_assert(SOKO_RELEVANCE_MOVES * 3 <= 16 && SOKO_RELEVANCE_MOVES <= 9,
	       "the ages and relations fit their fields");

static int age_of(const struct soko_rel_path *p, int i)
{
	return p->ages >> (3 * i) & 7;
}

struct soko_rel_path soko_relevance_extend(const struct soko_relevance *r,
					   const struct soko_rel_path *before, int was, int dest)
{
	struct soko_rel_path p = { 0 };
	/* the parent's moves that stay within the keys read, one move older */
	int kept = 0;
	while (before && kept < before->n && age_of(before, kept) + 1 <= SOKO_RELEVANCE_KEYS - 2)
		kept++;
	int shift = dest >= 0;
	if (kept > SOKO_RELEVANCE_MOVES - shift)
		kept = SOKO_RELEVANCE_MOVES - shift;
	unsigned ages = 0, rel = 0;
	for (int i = 0; i < kept; i++)
		ages |= (unsigned)(age_of(before, i) + 1) << (3 * (i + shift));
	/* the parent's relations between moves both kept */
	if (kept > 1)
		rel = (unsigned)before->related & ((1u << (kept - 1)) - 1);
	if (shift) {
		rel <<= 1;
		if (kept > 0)
			rel |= related(r, was, dest, before->to);
		p.to = (uint16_t)dest;
	} else if (kept > 0) {
		p.to = before->to;
	}
	p.n = (uint8_t)(kept + shift);
	p.ages = (uint16_t)ages;
	p.related = (uint8_t)rel;
	return p;
}

size_t soko_relevance_cut_path(const struct soko_relevance *r, struct soko_scratch *sc,
			       const struct soko_rel_path *p, struct soko_boxmove *m, size_t n)
{
	if (!r->s->use[SOKO_T_RELEVANCE] || n == 0 || p->n == 0)
		return n;
	int unrelated = 0;
	for (int i = 0; i + 1 < p->n && i + 1 < WINDOW; i++)
		unrelated += !(p->related >> i & 1);
	if (unrelated < BUDGET)
		return n;
	return cut_unrelated(r, sc, p->to, m, n);
}
