/*
 * sokoban_matching.c - the matching bound's assignment, warm-started from
 * the previous state's.
 *
 * A* evaluates the children of one state one after another, and two of
 * them differ in where one or two boxes stand.  The Hungarian algorithm
 * (src/core/assign.c) builds the least-cost assignment of boxes to goals
 * row by row, each row by one shortest augmenting path over reduced costs,
 * O(n^2 m) in all.  Here the previous state's solution is kept (its boxes,
 * the row and column potentials u and v, the column each row took): the
 * rows of boxes that did not move keep their column when it is still tight
 * (their u is recomputed as the least reduced cost, which keeps every
 * reduced cost non-negative), and only the other rows are augmented, one
 * path each, O(m^2) a row.  With as many boxes as goals every column ends
 * up taken, so dual feasibility and tight assigned pairs make the result
 * optimal: the same value as the full algorithm, which the test suite
 * checks (tests/test_sokoban_techniques.c runs every level both ways).
 * With more goals than boxes (a column may stay free, where the full
 * algorithm's potentials must stay at 0), and when more than WARM_ROWS rows
 * changed, the full algorithm runs.
 *
 * Greedy search, which reads only the value, may start from another
 * solution than the last (nearest): the last SOKO_WARM_SLOTS solutions are
 * kept with their boxes as bits, and the one whose boxes differ least
 * starts, however many rows that leaves to augment.  Greedy search expands
 * the best state it holds, which was scored among the children of a recent
 * expansion, so its children find their parent's solution (one box apart)
 * where the last solution, a child of another state, was many boxes apart
 * and the full algorithm ran: on Sasquatch III 49 that was 40 % of greedy
 * search's time.  The value is the optimum whichever solution starts
 * (tests/test_sokoban_any_incr.c checks it against the full algorithm).
 * The push searches keep the last solution and WARM_ROWS, as before: their
 * pair conflicts and patterns read the potentials, and those depend on
 * where the search started.
 */
#include <limits.h>
#include <string.h>

#include "levelkit/assign.h"
#include "levelkit/bits.h"
#include "sokoban.h"

/* Rows augmented at most before the full algorithm is cheaper (the push
 * searches' warm start). */
#define WARM_ROWS 3

static uint16_t *slot_boxes(struct soko_scratch *sc, int k, int nb)
{
	return sc->warm_boxes + (size_t)k * (size_t)nb;
}

/* Keep the solution in work (lk_assign's layout) in the slot after the
 * last, its boxes' bits sig. */
static void save(struct soko_scratch *sc, int n, int m, int nb, int ng, const int *work,
		 const uint64_t *sig)
{
	int k = (sc->warm_last + 1) % SOKO_WARM_SLOTS;
	const int *u = work, *v = u + n + 1, *p = v + m + 1;
	memcpy(sc->warm_u + (size_t)k * (size_t)(nb + 1), u, (size_t)(n + 1) * sizeof *u);
	memcpy(sc->warm_v + (size_t)k * (size_t)(ng + 1), v, (size_t)(m + 1) * sizeof *v);
	memcpy(sc->warm_p + (size_t)k * (size_t)(ng + 1), p, (size_t)(m + 1) * sizeof *p);
	memcpy(slot_boxes(sc, k, nb), sc->boxes, (size_t)n * sizeof *sc->boxes);
	memcpy(sc->warm_sig + (size_t)k * (size_t)sc->warm_words, sig,
	       (size_t)sc->warm_words * sizeof *sig);
	sc->warm_ns[k] = n;
	sc->warm_last = k;
	sc->warm_n = n;
}

/* Warm-start work from slot k (n boxes, as many as goals): the rows whose
 * box stands where it stood keep their column while it is still tight,
 * the others are augmented; false (nothing done) when more than max_fresh
 * are. */
static inline bool warm_body(struct soko_scratch *sc, int n, int m, int nb, int ng, int k,
			     int max_fresh)
{
	const int *cost = sc->cost;
	int *work = sc->hung;
	int *u = work, *v = u + n + 1, *p = v + m + 1, *way = p + m + 1;
	int *minv = way + m + 1, *used = minv + m + 1;
	int *fresh = used + m + 1;   /* hung's last n + 1 ints */
	const uint16_t *old = slot_boxes(sc, k, nb);
	const int *old_p = sc->warm_p + (size_t)k * (size_t)(ng + 1);
	int nfresh = 0;
	/* old row of each new row (both lists are in cell order), 0: moved */
	int *old_of = used;   /* free until the first augment */
	for (int i = 0, j = 0; i < n; i++) {
		while (j < n && old[j] < sc->boxes[i])
			j++;
		old_of[i] = j < n && old[j] == sc->boxes[i] ? j + 1 : 0;
		if (!old_of[i]) {
			if (nfresh == max_fresh)
				return false;
			fresh[nfresh++] = i + 1;
		}
	}
	memcpy(v, sc->warm_v + (size_t)k * (size_t)(ng + 1), (size_t)(m + 1) * sizeof *v);
	/* column of each old row */
	int *col_of = minv;
	for (int i = 0; i <= n; i++)
		col_of[i] = 0;
	for (int j = 1; j <= m; j++)
		col_of[old_p[j]] = j;
	for (int j = 0; j <= m; j++)
		p[j] = 0;
	u[0] = 0;
	for (int i = 1; i <= n; i++) {
		const int *row = cost + (i - 1) * m;
		/* u afresh, never the slot's old u: a slot may hold the
		 * solution of other costs (rate's features match several cost
		 * tables over one scratch), and an old u that is not dual
		 * feasible for these costs sends the augmentation round for
		 * ever (session 37: rate hung so) */
		int least = INT_MAX;
		for (int j = 1; j <= m; j++)
			if (row[j - 1] - v[j] < least)
				least = row[j - 1] - v[j];
		u[i] = least;
		int j = old_of[i - 1] ? col_of[old_of[i - 1]] : 0;
		if (j && row[j - 1] - u[i] - v[j] == 0) {
			p[j] = i;
		} else if (old_of[i - 1]) {
			/* its column is no longer tight: find it another */
			if (nfresh == max_fresh)
				return false;
			fresh[nfresh++] = i;
		}
	}
	for (int f = 0; f < nfresh; f++)
		lk_assign_augment(cost, n, m, fresh[f], work);
	return true;
}

/* The warm start's loops over a row (its least reduced cost) are
 * vectorised; on x86 a build for AVX2 (twice as wide, with a minimum
 * instruction where the baseline compares and blends) is chosen when the
 * processor has it: the same integers either way, a tenth less time on
 * Sasquatch III 26 (44 boxes), where the warm start was an eighth of it. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__AVX2__)
__attribute__((target("avx2"))) static bool warm_avx2(struct soko_scratch *sc, int n, int m,
						     int nb, int ng, int k, int max_fresh)
{
	return warm_body(sc, n, m, nb, ng, k, max_fresh);
}

static bool warm(struct soko_scratch *sc, int n, int m, int nb, int ng, int k, int max_fresh)
{
	return __builtin_cpu_supports("avx2") ? warm_avx2(sc, n, m, nb, ng, k, max_fresh)
					      : warm_body(sc, n, m, nb, ng, k, max_fresh);
}
#else
static bool warm(struct soko_scratch *sc, int n, int m, int nb, int ng, int k, int max_fresh)
{
	return warm_body(sc, n, m, nb, ng, k, max_fresh);
}
#endif

/* A kept slot of n boxes whose boxes differ least from sig's, -1 when none
 * has n.  Greedy search asks for every state it scores, over all
 * SOKO_WARM_SLOTS slots: a count of bits a word and slot, which without the
 * processor's own instruction was a call each (a fifth of the time on
 * Sasquatch III 6), so on x86 the loop is also built for it and chosen
 * when the processor has it.  The newest slot is looked at first and the
 * scan stops at a slot one box away (two bits: two sets of n boxes that
 * differ cannot be nearer) or the same boxes: greedy search expands a state
 * it scored lately, so its children mostly find their parent among the
 * last few slots, and the scan of all 64 was a twentieth of -a any's time
 * on Sasquatch III 39.  Which slot starts changes only the work: the value
 * is the optimum from any (and the stored solutions are read by nothing
 * else, see soko_matching). */
static inline int nearest_slot_body(const struct soko_scratch *sc, int n, int words,
				    const uint64_t *sig)
{
	int best = -1, best_d = INT_MAX;
	for (int i = 0; i < SOKO_WARM_SLOTS; i++) {
		int k = (sc->warm_last - i + SOKO_WARM_SLOTS) % SOKO_WARM_SLOTS;
		if (sc->warm_ns[k] != n)
			continue;
		const uint64_t *o = sc->warm_sig + (size_t)k * (size_t)words;
		/* every word, without a test a word: a few words, and the
		 * early stop's branches cost more than the counts they saved */
		int d = 0;
		for (int w = 0; w < words; w++)
			d += lk_popcount64(o[w] ^ sig[w]);
		if (d < best_d) {
			best_d = d;
			best = k;
			if (d <= 2)
				break;   /* none nearer (or the same boxes) */
		}
	}
	return best;
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
__attribute__((target("popcnt"))) static int nearest_slot_popcnt(const struct soko_scratch *sc,
								 int n, int words,
								 const uint64_t *sig)
{
	return nearest_slot_body(sc, n, words, sig);
}

static int nearest_slot(const struct soko_scratch *sc, int n, int words, const uint64_t *sig)
{
	/* a read of what the run-time library found at start-up */
	return __builtin_cpu_supports("popcnt") ? nearest_slot_popcnt(sc, n, words, sig)
						: nearest_slot_body(sc, n, words, sig);
}
#else
static int nearest_slot(const struct soko_scratch *sc, int n, int words, const uint64_t *sig)
{
	return nearest_slot_body(sc, n, words, sig);
}
#endif

long soko_matching(struct soko_scratch *sc, int n, int m, bool nearest)
{
	const int *cost = sc->cost;
	int *work = sc->hung;
	int *p = work + n + 1 + m + 1;
	int nb = sc->warm_nb, ng = sc->warm_ng;
	int words = sc->warm_words;
	uint64_t *sig = sc->warm_sig + (size_t)SOKO_WARM_SLOTS * (size_t)words;
	memset(sig, 0, (size_t)words * sizeof *sig);
	for (int i = 0; i < n; i++)
		sig[sc->boxes[i] / 64] |= (uint64_t)1 << (sc->boxes[i] % 64);
	bool done = false;
	if (n == m && n > 0) {
		if (!nearest) {
			done = sc->warm_n == n && warm(sc, n, m, nb, ng, sc->warm_last, WARM_ROWS);
		} else {
			int best = nearest_slot(sc, n, words, sig);
			done = best >= 0 && warm(sc, n, m, nb, ng, best, n);
		}
	}
	if (!done)
		lk_assign(cost, n, m, work);
	long total = 0;
	for (int j = 1; j <= m; j++)
		if (p[j])
			total += cost[(p[j] - 1) * m + (j - 1)];
	if (total < LK_ASSIGN_NONE)
		save(sc, n, m, nb, ng, work, sig);
	else
		sc->warm_n = -1;
	return total;
}
