/*
 * sokoban_pairs.c - pair conflicts: a pattern database over two boxes and
 * the player's area that raises the push searches' matching bound
 * (technique "pair-conflicts").
 *
 * The matching bound (sokoban_heuristic.c) prices each box alone.  Two
 * boxes in a two-wide room, or one in the way of the player behind the
 * other, cost more together: one must step aside.  So for every ordered
 * pair of targets (g, h) a breadth-first search backwards from "box 1 on g,
 * box 2 on h" over (square of box 1, square of box 2, the player's area
 * with both on the board) gives C(a, b, R -> g, h), the fewest pushes
 * (pulls, for the reversed level) that take two boxes alone on the board
 * from a and b to g and h.  Kept per pair of squares and area: the target
 * pairs of least excess C - d(a, g) - d(b, h), d the matching's own cost of
 * one box (player-aware when that technique is on).  Every two-box path
 * pushes each box along a path of its own, so the excess is never negative.
 *
 * The bound: with u, v the potentials of the matching just solved (u_i +
 * v_g <= d(i, g), their sum the matching's value M), take an optimal
 * solution and σ the target each box ends on.  The pushes of two boxes a
 * and b in it, with the other boxes taken off the board, are a two-box path
 * (the player only ever walked where those two were not, and other boxes
 * only take squares away), so they number at least C(a, b, R -> σa, σb) >=
 * u_a + u_b + v_σa + v_σb + Q(a, b), where Q(a, b) is the least over target
 * pairs of C - u_a - u_b - v_g - v_h = excess + the two reduced costs.  The
 * other boxes take at least u_k + v_σk each, so over pairs with no box in
 * common the solution has at least M + sum Q pushes.  The pairs are chosen
 * to make the sum large (heaviest first, a few alternatives tried): any
 * choice is a bound.  Only the PAIR_KEEP target pairs of least excess are
 * kept; the least excess of the others stands for them, which can only
 * lower Q.  Two boxes that can fill no two targets make the state dead.
 * The bound is admissible, not always consistent; A* reopens a state
 * reached again more cheaply, so it stays optimal.
 *
 * Cost: one byte per pair of floor squares and floor square (the areas,
 * shared with the reversed level), 4 * PAIR_AREAS bytes per pair of
 * squares and 3 * PAIR_KEEP + 2 per pair and area; building is O(targets^2 floor^2), so levels over
 * PAIR_MAX_FLOOR floor squares or PAIR_MAX_WORK of that product go
 * without, and a search builds the tables only once it has evaluated
 * states in proportion (PAIR_LAZY_DIV).  Per state, one look-up per pair
 * of boxes.
 */
#include <limits.h>
#include <string.h>
#ifdef PAIR_DEBUG
#include <stdio.h>
#endif

#include "sokoban.h"

/* Areas of the floor with two squares taken out: each touches one of
 * their at most eight neighbours. */
#define PAIR_AREAS 8
#define PAIR_NONE 0xffu     /* label: one of the pair's own squares */
#define PAIR_MAX_PEN 0xfeu
#define PAIR_MAX_FLOOR 200
/* targets * (targets - 1) * floor * floor: about a second at most */
#define PAIR_MAX_WORK (48ull << 20)
/* The tables are built once a search has evaluated work / PAIR_LAZY_DIV
 * states (work: targets^2 floor^2): building then costs a few per cent of
 * the search so far, and short searches (most of Boxoban's, four boxes)
 * never pay for it (docs/benchmarks.md, hard-opt29). */
#define PAIR_LAZY_DIV 4
/* In a slot's number once built: its rest is 0, so its slack is 0. */
#define PAIR_ZERO 0x80000000u
/* Alternatives tried when choosing the disjoint pairs. */
#define PAIR_CHOICE_NODES 64

static inline size_t pair_index(int ca, int cb)
{
	return ca < cb ? (size_t)cb * (size_t)(cb - 1) / 2 + (size_t)ca
		       : (size_t)ca * (size_t)(ca - 1) / 2 + (size_t)cb;
}

/* What is kept of a pair and area: its PAIR_KEEP cheapest ordered target
 * pairs (the lower box of the pair to g, the other to h) by excess
 * C - d(a, g) - d(b, h), least first, and the least excess of those left
 * out (PAIR_NO_REST: none). */
#define PAIR_KEEP 24
#define PAIR_NO_REST 0xffu
struct pair_entry {
	uint8_t g, h, excess;
};

/* A level's database, built once the search has evaluated `threshold`
 * states (so that the searches it does not pay for never build it). */
struct soko_pairs {
	bool pulls, ready;
	uint64_t calls, threshold;
	struct soko_pairs *labels;   /* who owns the areas: the forward level's */
	uint8_t *label;              /* per pair and floor square: its area */
	uint32_t *slot;              /* per pair and area: its slot (| PAIR_ZERO when
					its rest is 0), or UINT32_MAX */
	uint8_t *count, *rest;       /* per slot */
	struct pair_entry *entries;  /* per slot, PAIR_KEEP */
	uint64_t *free_pair;         /* per pair: every area's rest is 0 */
};

/* The area of floor square p (compact) with boxes on compact squares ca, cb. */
static inline unsigned area_of(const struct sokoban *s, const uint8_t *lab, int ca, int cb, int p)
{
	return lab[pair_index(ca, cb) * (size_t)s->nfloor + (size_t)p];
}

/* Label the areas of the floor without squares a and b (cells) into lab
 * (nfloor bytes) and a square of each into rep; false if more than
 * PAIR_AREAS (cannot happen on a connected floor). */
static bool label_pair(const struct sokoban *s, int a, int b, uint8_t *lab, uint16_t *rep,
		       uint16_t *stack)
{
	memset(lab, PAIR_NONE, (size_t)s->nfloor);
	unsigned next = 0;
	for (int i = 0; i < s->nfloor; i++) {
		int c = s->cell_of[i];
		if (c == a || c == b || lab[i] != PAIR_NONE)
			continue;
		if (next == PAIR_AREAS)
			return false;
		rep[next] = (uint16_t)c;
		int sp = 0;
		lab[i] = (uint8_t)next;
		stack[sp++] = (uint16_t)c;
		while (sp > 0) {
			int x = stack[--sp];
			for (int d = 0; d < 4; d++) {
				int y = x + s->off[d];
				if (s->wall[y] || y == a || y == b || lab[s->compact[y]] != PAIR_NONE)
					continue;
				lab[s->compact[y]] = (uint8_t)next;
				stack[sp++] = (uint16_t)y;
			}
		}
		next++;
	}
	for (unsigned r = next; r < PAIR_AREAS; r++)
		rep[r] = SOKO_INF;
	return true;
}

/* The matching's cost of one box on cell c, the player on cell p, to
 * target number t. */
static unsigned box_cost(const struct sokoban *s, int c, int p, int t)
{
	if (s->aware_tdist)
		return soko_aware_row(s, c, p)[(size_t)t * SOKO_AWARE_STRIDE(s)];
	return s->tdist[(size_t)t * (size_t)s->cells + (size_t)c];
}

struct pair_search {
	const struct sokoban *s;
	struct soko_pairs *db;
	const uint8_t *lab;
	const uint16_t *rep;     /* per pair and area */
	uint16_t *dist;          /* per (ca, cb, area), ordered */
	uint32_t *queue;
	bool pulls;
};

static inline size_t state_of(const struct sokoban *s, int ca, int cb, unsigned r)
{
	return ((size_t)ca * (size_t)s->nfloor + (size_t)cb) * PAIR_AREAS + r;
}

/* Keep (g, h, excess) in slot k if it is among the cheapest. */
static void keep(struct soko_pairs *db, uint32_t k, int g, int h, int excess)
{
	uint8_t x = (uint8_t)(excess > (int)PAIR_MAX_PEN ? (int)PAIR_MAX_PEN
					 : excess < 0 ? 0 : excess);
	struct pair_entry *e = db->entries + (size_t)k * PAIR_KEEP;
	int n = db->count[k];
	if (n == PAIR_KEEP) {
		if (x >= e[n - 1].excess) {
			db->rest[k] = x < db->rest[k] ? x : db->rest[k];
			return;
		}
		n--;
		db->rest[k] = e[n].excess < db->rest[k] ? e[n].excess : db->rest[k];
	}
	int at = n;
	for (; at > 0 && e[at - 1].excess > x; at--)
		e[at] = e[at - 1];
	e[at] = (struct pair_entry){ (uint8_t)g, (uint8_t)h, x };
	db->count[k] = (uint8_t)(n + 1);
}

/* One backward breadth-first search from box 1 on target ti, box 2 on tj,
 * keeping each state's excess. */
static void search_targets(struct pair_search *ps, int ti, int tj)
{
	const struct sokoban *s = ps->s;
	int nf = s->nfloor;
	int ga = s->compact[s->targets[ti]], gb = s->compact[s->targets[tj]];
	size_t head = 0, tail = 0;
	for (unsigned r = 0; r < PAIR_AREAS; r++) {
		if (ps->rep[pair_index(ga, gb) * PAIR_AREAS + r] == SOKO_INF)
			break;
		size_t at = state_of(s, ga, gb, r);
		ps->dist[at] = 0;
		ps->queue[tail++] = (uint32_t)at;
	}
	while (head < tail) {
		size_t at = ps->queue[head++];
		unsigned r = (unsigned)(at % PAIR_AREAS);
		int ca = (int)(at / PAIR_AREAS / (size_t)nf), cb = (int)(at / PAIR_AREAS % (size_t)nf);
		unsigned dab = ps->dist[at];
		size_t pi = pair_index(ca, cb);
		int rep = ps->rep[pi * PAIR_AREAS + r];
		int a = s->cell_of[ca], b = s->cell_of[cb];
		int excess = (int)dab - (int)box_cost(s, a, rep, ti) - (int)box_cost(s, b, rep, tj);
#ifdef PAIR_DEBUG
		if (excess < 0)
			fprintf(stderr, "pairs: negative excess %d\n", excess);
#endif
		/* entries name the lower square's target first */
		if (ca < cb)
			keep(ps->db, ps->db->slot[pi * PAIR_AREAS + r], ti, tj, excess);
		else
			keep(ps->db, ps->db->slot[pi * PAIR_AREAS + r], tj, ti, excess);
		/* the moves that end here: box k moved from c to x in direction d */
		for (int k = 0; k < 2; k++) {
			int x = k ? b : a, o = k ? a : b, cx = k ? cb : ca, co = k ? ca : cb;
			for (int d = 0; d < 4; d++) {
				int c = x - s->off[d];
				int before = ps->pulls ? x : c - s->off[d];
				int after = ps->pulls ? x + s->off[d] : c;
				if (s->wall[c] || c == o || s->wall[before] || before == o ||
				    s->wall[after] || after == o ||
				    area_of(s, ps->lab, cx, co, s->compact[after]) != r)
					continue;
				int cc = s->compact[c];
				unsigned r0 = area_of(s, ps->lab, cc, co, s->compact[before]);
				size_t from = k ? state_of(s, co, cc, r0) : state_of(s, cc, co, r0);
				if (ps->dist[from] != SOKO_INF)
					continue;
				ps->dist[from] = (uint16_t)(dab + 1);
				ps->queue[tail++] = (uint32_t)from;
			}
		}
	}
	for (size_t i = 0; i < tail; i++)
		ps->dist[ps->queue[i]] = SOKO_INF;
}

/* Label every pair's areas into db->label (the forward level's). */
static void build_labels(const struct sokoban *s, struct soko_pairs *db)
{
	size_t nf = (size_t)s->nfloor, np = nf * (nf - 1) / 2;
	db->label = lk_xmalloc(np * nf);
	uint16_t rep[PAIR_AREAS];
	uint16_t *stack = lk_xmalloc((size_t)s->cells * sizeof *stack);
	for (int cb = 1; cb < s->nfloor; cb++)
		for (int ca = 0; ca < cb; ca++)
			label_pair(s, s->cell_of[ca], s->cell_of[cb],
				   db->label + pair_index(ca, cb) * nf, rep, stack);
	free(stack);
}

static void build(const struct sokoban *s, struct soko_pairs *db)
{
	if (!db->labels->label)
		build_labels(s->forward ? s->forward : s, db->labels);
	size_t nf = (size_t)s->nfloor, np = nf * (nf - 1) / 2;
	uint16_t *rep = lk_xmalloc(np * PAIR_AREAS * sizeof *rep);
	uint16_t *stack = lk_xmalloc((size_t)s->cells * sizeof *stack);
	uint8_t lab[PAIR_MAX_FLOOR];
	db->slot = lk_xmalloc(np * PAIR_AREAS * sizeof *db->slot);
	uint32_t nslots = 0;
	for (int cb = 1; cb < s->nfloor; cb++)
		for (int ca = 0; ca < cb; ca++) {
			size_t pi = pair_index(ca, cb);
			label_pair(s, s->cell_of[ca], s->cell_of[cb], lab, rep + pi * PAIR_AREAS, stack);
			for (unsigned r = 0; r < PAIR_AREAS; r++)
				db->slot[pi * PAIR_AREAS + r] =
					rep[pi * PAIR_AREAS + r] == SOKO_INF ? UINT32_MAX : nslots++;
		}
	free(stack);
	db->count = lk_xcalloc(nslots ? nslots : 1, 1);
	db->rest = lk_xmalloc(nslots ? nslots : 1);
	memset(db->rest, PAIR_NO_REST, nslots);
	db->entries = lk_xmalloc((size_t)(nslots ? nslots : 1) * PAIR_KEEP * sizeof *db->entries);
	struct pair_search ps = { .s = s, .db = db, .lab = db->labels->label, .rep = rep,
				  .pulls = db->pulls };
	ps.dist = lk_xmalloc(nf * nf * PAIR_AREAS * sizeof *ps.dist);
	ps.queue = lk_xmalloc(nf * nf * PAIR_AREAS * sizeof *ps.queue);
	for (size_t i = 0; i < nf * nf * PAIR_AREAS; i++)
		ps.dist[i] = SOKO_INF;
	for (int i = 0; i < s->ntargets; i++)
		for (int j = 0; j < s->ntargets; j++)
			if (i != j)
				search_targets(&ps, i, j);
	free(ps.queue);
	free(ps.dist);
	free(rep);
	/* A pair whose target pairs left out cost it no excess in any area
	 * (rest 0) has slack 0 wherever the player stands: the state's
	 * look-up skips it without reading its area, slot or entries (most
	 * pairs of boxes apart; the reads were a sixth of Microban 153's A*). */
	db->free_pair = lk_xcalloc(np / 64 + 1, sizeof *db->free_pair);
	for (size_t pi = 0; pi < np; pi++) {
		bool zero = true;
		for (unsigned r = 0; r < PAIR_AREAS && zero; r++) {
			uint32_t k = db->slot[pi * PAIR_AREAS + r];
			zero = k == UINT32_MAX || db->rest[k] == 0;
		}
		if (zero)
			db->free_pair[pi / 64] |= 1ull << (pi % 64);
	}
	/* and a slot whose rest is 0 is marked in its number, so that its
	 * count and rest need not be read either */
	for (size_t i = 0; i < np * PAIR_AREAS; i++)
		if (db->slot[i] != UINT32_MAX && db->rest[db->slot[i]] == 0)
			db->slot[i] |= PAIR_ZERO;
	db->ready = true;
}

struct soko_pairs *soko_pairs_new(const struct sokoban *s, bool pulls)
{
	const struct sokoban *f = s->forward ? s->forward : s;
	if (!f->use[SOKO_T_PAIRS] || !s->push_graph || f->impossible || s->nboxes < 2 ||
	    s->nboxes > SOKO_PAIR_MAX_BOXES || s->ntargets != s->nboxes || s->ntargets > 255 ||
	    s->nfloor > PAIR_MAX_FLOOR || (s->forward && !f->pairs))
		return NULL;
	uint64_t work = (uint64_t)s->ntargets * (uint64_t)(s->ntargets - 1) *
			(uint64_t)s->nfloor * (uint64_t)s->nfloor;
	if (work > PAIR_MAX_WORK)
		return NULL;
	struct soko_pairs *db = lk_xcalloc(1, sizeof *db);
	db->pulls = pulls;
	db->threshold = work / PAIR_LAZY_DIV;
	db->labels = s->forward ? f->pairs : db;
	return db;
}

void soko_pairs_free(struct soko_pairs *db)
{
	if (!db)
		return;
	if (db->labels == db)
		free(db->label);
	free(db->slot);
	free(db->count);
	free(db->rest);
	free(db->entries);
	free(db->free_pair);
	free(db);
}

void soko_pairs_reset(struct soko_pairs *db)
{
	if (db)
		db->calls = 0;
}

void soko_pairs_at_once(struct soko_pairs *db)
{
	if (db)
		db->threshold = 0;
}

/* The heaviest set of groups (pairs, and the patterns' clusters) with no
 * box in common, by a search over them heaviest first (its first path is
 * the greedy choice) cut after PAIR_CHOICE_NODES alternatives: any set
 * found is a bound. */
struct choice {
	int n;
	const uint64_t *mask;
	const uint8_t *w;
	unsigned best;
	int nodes;
};

static void choose(struct choice *ch, int k, uint64_t used, unsigned sum)
{
	if (sum > ch->best)
		ch->best = sum;
	for (; k < ch->n && ch->nodes < PAIR_CHOICE_NODES; k++) {
		if (used & ch->mask[k])
			continue;
		ch->nodes++;
		choose(ch, k + 1, used | ch->mask[k], sum + ch->w[k]);
	}
}

/* Insert group (mask, w) into the list kept heaviest first. */
static void insert_group(uint64_t *em, uint8_t *ew, int *ne, uint64_t mask, unsigned w)
{
	int at = (*ne)++;
	for (; at > 0 && ew[at - 1] < w; at--) {
		em[at] = em[at - 1];
		ew[at] = ew[at - 1];
	}
	em[at] = mask;
	ew[at] = (uint8_t)w;
}

/* The pair's least C - u_a - u_b - v_g - v_h over its target pairs: excess
 * plus the two reduced costs, from the cheapest excess up (reduced costs
 * are never negative, so an excess at least the best so far ends it). */
static long pair_slack(const struct soko_pairs *db, uint32_t k, const int *cost, int m,
		       const long *ru, const int *v, int i, int j)
{
	long best = db->rest[k] == PAIR_NO_REST ? LONG_MAX : db->rest[k];
	if (best == 0)
		return 0;   /* the entries need not be read */
	const struct pair_entry *e = db->entries + (size_t)k * PAIR_KEEP;
	for (int q = 0; q < db->count[k] && e[q].excess < best; q++) {
		long t = (long)e[q].excess + cost[i * m + e[q].g] - ru[i] - v[e[q].g + 1] +
			 cost[j * m + e[q].h] - ru[j] - v[e[q].h + 1];
		best = t < best ? t : best;
	}
	return best;
}

unsigned soko_pairs_bound(const struct sokoban *s, const struct soko_scratch *sc, int n,
			  int player, long total, const uint64_t *gmask, const uint8_t *gweight,
			  int ngroups)
{
	struct soko_pairs *db = s->pairs;
	int ne = 0, m = s->ntargets;
	/* the groups alone: they have no box in common */
	long alone = total;
	for (int g = 0; g < ngroups; g++)
		alone += gweight[g];
	if (!db)
		return (unsigned)alone;
	if (db->calls < db->threshold) {
		db->calls++;
		return (unsigned)alone;
	}
	if (n != m)
		return (unsigned)alone;
	if (!db->ready)
		build(s, db);
	enum { MAXE = SOKO_PAIR_MAX_BOXES * (SOKO_PAIR_MAX_BOXES - 1) / 2 + SOKO_PAT_MAX_GROUPS };
	uint64_t em[MAXE];
	uint8_t ew[MAXE];
	long ru[SOKO_PAIR_MAX_BOXES];
	/* the matching's potentials (lk_assign's layout, 1-based) */
	const int *u = sc->hung, *v = u + n + 1;
	long duals = 0;
	for (int i = 0; i < n; i++) {
		ru[i] = u[i + 1];
		duals += u[i + 1];
	}
	for (int g = 1; g <= m; g++)
		duals += v[g];
	for (int g = 0; g < ngroups; g++)
		insert_group(em, ew, &ne, gmask[g], gweight[g]);
	size_t nf = (size_t)s->nfloor;
	int cp = s->compact[player];
	const uint8_t *lab = db->labels->label;
	for (int j = 1; j < n; j++) {
		int cb = s->compact[sc->boxes[j]];
		for (int i = 0; i < j; i++) {
			size_t pi = pair_index(s->compact[sc->boxes[i]], cb);
			if (db->free_pair[pi / 64] >> (pi % 64) & 1)
				continue;
			uint32_t k = db->slot[pi * PAIR_AREAS + lab[pi * nf + (size_t)cp]];
			if (k & PAIR_ZERO)
				continue;
			if (db->count[k] == 0 && db->rest[k] == PAIR_NO_REST)
				return LK_H_DEAD;
			long w = pair_slack(db, k, sc->cost, m, ru, v, i, j);
			if (w <= 0)
				continue;
			if (w > (long)PAIR_MAX_PEN)
				w = PAIR_MAX_PEN;
			insert_group(em, ew, &ne, (1ull << i) | (1ull << j), (unsigned)w);
		}
	}
	struct choice ch = { .n = ne, .mask = em, .w = ew };
	choose(&ch, 0, 0, 0);
	long h = duals + (long)ch.best;
	if (h < alone)
		h = alone;
	return (unsigned)(h > total ? h : total);
}
