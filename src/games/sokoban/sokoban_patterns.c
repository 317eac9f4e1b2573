/*
 * sokoban_patterns.c - pattern searches (technique "pattern-search"):
 * Rolling Stone's penalties of small box sets, found by small searches
 * during the push searches and added to the matching bound.
 *
 * The matching bound prices each box alone and pair conflicts
 * (sokoban_pairs.c) two at a time; three or four boxes of a two-wide room
 * that must each step aside for the player cost more than any pair of them
 * shows.  So while A* runs, the boxes of a state are cut into clusters
 * (boxes within PAT_RADIUS steps of another box of the cluster, walls
 * only, at most PAT_MAX_BOXES a cluster), and a cluster not seen before
 * with the player in its area is searched on its own: every other box
 * taken off the board, the player where it stands.  The pattern kept is
 * the cluster's squares, the player's area among them alone, and the
 * penalty E that search proved.
 *
 * What E is.  Let d(i, g) be the matching's cost of box i to target g
 * (the player-aware push distance, which depends only on the player's
 * area with box i alone: the same for every position of the pattern).
 * For a solution of the cluster alone ending with box i on target σ(i),
 * its excess is pushes - sum_i d(i, σ(i)) >= 0 (each box's pushes are a
 * path of its own).  E is a lower bound on the least excess over all
 * solutions of the cluster alone.
 *
 * Why M + E is a bound (M the matching's value, u and v its potentials,
 * u_i + v_g <= d(i, g), sum u + sum v = M).  Take an optimal solution of
 * the whole position and σ where each box ends.  The pushes of the
 * cluster's boxes in it, the other boxes taken off, are a solution of the
 * cluster alone (the player only ever walked where those boxes were not,
 * and other boxes only take squares away), so they number at least
 * sum_S d(i, σ i) + E >= sum_S (u_i + v_σi) + E; every other box takes
 * at least u_k + v_σk.  Over clusters (and pairs, whose slack is argued
 * the same way in sokoban_pairs.c) with no box in common the solution has
 * at least M + the sum of their penalties.  The bound is admissible, not
 * always consistent (patterns are learned as the search goes, so a state
 * may be priced higher later); A* reopens, so it stays optimal.
 *
 * The small search is best-first over (box squares with their identity,
 * the player's normalised square) by f = g + sum_i phi_i, phi_i = least
 * over targets g of d(x_i, g) - d(i, g) (x_i where box i stands now).
 * phi_i starts at 0 and a push moves it by at least -1 (a push is one edge
 * of the player-aware distance; the other boxes keep their player area),
 * so f never falls along a path, and at a position with every box on a
 * target f is at most its excess.  Hence, at any moment, the least of the
 * best excess found and the f of the next position to expand bounds E from
 * below: the search may stop at its state bound and still prove a penalty.
 * Its pruning is only what holds for a few boxes and more targets: dead
 * squares and freeze deadlocks.
 *
 * Budget: the searches start after PAT_START evaluations, then their
 * expansions stay under the evaluations since divided by PAT_WORK_DIV, at
 * most PAT_SUB_STATES each and one per evaluation.  Matching costs one look-up per cluster of a state (the
 * pattern's squares exactly; the player's square in the kept area).
 */
#include <limits.h>
#include <string.h>
#ifdef PAT_DEBUG
#include <stdio.h>
#endif

#include "levelkit/table.h"
#include "sokoban.h"

#define PAT_MAX_BOXES 4
#define PAT_RADIUS 2
#define PAT_MAX_PEN 250u
#define PAT_SUB_STATES 4000u
/* The searches start once a search has evaluated PAT_START states (short
 * searches, most of Boxoban's and Microban's, never pay for them), and
 * their expansions then stay under the evaluations since divided by
 * PAT_WORK_DIV. */
#define PAT_START 20000u
#define PAT_WORK_DIV 8u
#define PAT_KEY_SIZE (2 * PAT_MAX_BOXES)
#define PC_NONE LONG_MAX

struct soko_patterns {
	const struct sokoban *s;
	void *scratch;                /* its own soko_scratch */
	int m;                        /* targets */
	size_t player_bytes;
	/* the patterns: chains by squares (the table's parent field holds
	 * the chain's head, UINT32_MAX none) */
	struct lk_table index;
	size_t npat, alloc;
	uint8_t *region, *pen;        /* pen: two per pattern (small_search) */
	uint8_t *visit_bits;          /* per pattern: its squares to visit */
	uint32_t *next;
	long *usum;                   /* per pattern: its boxes' u */
	int *v;                       /* per pattern: the targets' v (m each) */
	/* one small search */
	struct lk_table sub;
	uint8_t *expanded;
	size_t expanded_alloc;
	uint32_t *bucket[PAT_MAX_PEN + 1];
	size_t bn[PAT_MAX_PEN + 1], balloc[PAT_MAX_PEN + 1];
	long pc[PAT_MAX_BOXES * 256];   /* u_i + v_g, or PC_NONE */
	const uint8_t *visit;         /* squares the player must meet, or NULL */
	/* clustering */
	uint32_t *near_first;
	uint16_t *near;
	uint8_t *in_cluster;
	uint64_t evals, work, searches;
	bool unlimited;               /* no budget (tests) */
};

static void find_near(struct soko_patterns *t);

struct soko_patterns *soko_patterns_new(const struct sokoban *s)
{
	if (s->forward || !s->use[SOKO_T_PATTERNS] || !s->push_graph || s->impossible ||
	    s->nboxes < 2 || s->nboxes > SOKO_PAIR_MAX_BOXES || s->ntargets != s->nboxes ||
	    s->ntargets > 255)
		return NULL;
	struct soko_patterns *t = lk_xcalloc(1, sizeof *t);
	t->s = s;
	t->m = s->ntargets;
	t->player_bytes = ((size_t)s->nfloor + 7) / 8;
	lk_table_init(&t->index, PAT_KEY_SIZE, 0);
	lk_table_init(&t->sub, 3 + PAT_KEY_SIZE, 0);
	find_near(t);
	t->in_cluster = lk_xcalloc((size_t)s->cells, 1);
	/* s->patterns is not set yet, so this fresh scratch resets nothing
	 * of ours */
	t->scratch = lk_xcalloc(1, soko_scratch_size(s));
	soko_scratch(s, t->scratch);
	return t;
}

void soko_patterns_free(struct soko_patterns *t)
{
	if (!t)
		return;
	lk_table_release(&t->index);
	lk_table_release(&t->sub);
	free(t->region);
	free(t->pen);
	free(t->visit_bits);
	free(t->next);
	free(t->usum);
	free(t->v);
	free(t->expanded);
	for (unsigned f = 0; f <= PAT_MAX_PEN; f++)
		free(t->bucket[f]);
	free(t->near_first);
	free(t->near);
	free(t->in_cluster);
	free(t->scratch);
	free(t);
}

void soko_patterns_reset(struct soko_patterns *t)
{
	if (!t)
		return;
	lk_table_reset(&t->index, PAT_KEY_SIZE, 0);
	t->npat = 0;
	t->evals = t->work = t->searches = 0;
}

void soko_patterns_unlimited(struct soko_patterns *t)
{
	if (t)
		t->unlimited = true;
}

/* The matching's cost of a box on cell c, the player on cell p, to
 * target number g (SOKO_INF: none). */
static unsigned box_cost(const struct sokoban *s, int c, int p, int g)
{
	if (s->aware_tdist)
		return soko_aware_row(s, c, p)[(size_t)g * SOKO_AWARE_STRIDE(s)];
	return s->tdist[(size_t)g * (size_t)s->cells + (size_t)c];
}

static inline unsigned key_player(const uint8_t *key)
{
	return (unsigned)(key[0] | key[1] << 8);
}
static inline int key_box(const uint8_t *key, int i)
{
	return key[2 + 2 * i] | key[3 + 2 * i] << 8;
}
static inline void key_set(uint8_t *key, int i, unsigned v)
{
	key[2 * i] = (uint8_t)(v & 0xff);
	key[2 * i + 1] = (uint8_t)(v >> 8);
}

/* sum_i phi_i of a small position (k boxes), or PHI_DEAD if a box can
 * reach no target it could from its start. */
#define PHI_DEAD LONG_MIN
static long phi(const struct soko_patterns *t, const uint8_t *key, int k)
{
	const struct sokoban *s = t->s;
	int p = s->cell_of[key_player(key)];
	long sum = 0;
	for (int i = 0; i < k; i++) {
		int c = key_box(key, i);
		long best = -1;
		bool any = false;
		for (int g = 0; g < t->m; g++) {
			long pc = t->pc[i * t->m + g];
			if (pc == PC_NONE)
				continue;
			unsigned d = box_cost(s, c, p, g);
			if (d == SOKO_INF)
				continue;
			long x = (long)d - pc;
			if (!any || x < best)
				best = x;
			any = true;
		}
		if (!any)
			return PHI_DEAD;
		sum += best;
	}
	return sum;
}

static void bucket_push(struct soko_patterns *t, unsigned f, uint32_t id)
{
	LK_ALLOC_GROW(t->bucket[f], t->bn[f] + 1, t->balloc[f]);
	t->bucket[f][t->bn[f]++] = id;
}

/* The value of a small position with every box on a target, g pushes
 * from the start: g - sum_i (u_i + v_end_i), or -1 (not all on targets). */
static long excess_at(const struct soko_patterns *t, const uint8_t *key, int k, uint32_t g)
{
	const struct sokoban *s = t->s;
	long sum = 0;
	for (int i = 0; i < k; i++) {
		unsigned tg = s->target_index[key_box(key, i)];
		if (tg == SOKO_NO_TARGET || t->pc[i * t->m + (int)tg] == PC_NONE)
			return -1;
		sum += t->pc[i * t->m + (int)tg];
	}
	return (long)g - sum;
}

/* Store the small position child (ks bytes) reached from parent in g
 * pushes and queue it at f, unless it is known as cheaply or expanded. */
static void add_child(struct soko_patterns *t, const uint8_t *child, size_t ks, uint32_t parent,
		      uint32_t g, unsigned f)
{
	uint32_t cid;
	enum lk_intern got = lk_table_intern(&t->sub, child, lk_hash_bytes(child, ks), parent, g,
					     &cid);
	if (got == LK_INTERN_FOUND) {
		if (t->expanded[cid] || g >= lk_table_cost(&t->sub, cid))
			return;
		lk_table_set_link(&t->sub, cid, parent, g);
	}
	if (cid >= t->expanded_alloc) {
		size_t a = t->expanded_alloc ? 2 * t->expanded_alloc : 1024;
		while (a <= cid)
			a *= 2;
		t->expanded = lk_xrealloc(t->expanded, a);
		memset(t->expanded + t->expanded_alloc, 0, a - t->expanded_alloc);
		t->expanded_alloc = a;
	}
	bucket_push(t, f, cid);
}

/* Does the player's area (stamp st of sc->mark) meet the squares the
 * player must visit (t->visit, compact bits; NULL: none asked)? */
static bool meets_visit(const struct soko_patterns *t, const struct soko_scratch *sc, uint32_t st)
{
	const struct sokoban *s = t->s;
	if (!t->visit)
		return true;
	for (int c = 0; c < s->nfloor; c++)
		if ((t->visit[c >> 3] >> (c & 7) & 1) && sc->mark[s->cell_of[c]] == st)
			return true;
	return false;
}

/* Expand the small position at id (g pushes from the start) into the
 * buckets, nothing at f >= limit; returns whether the position has met
 * the squares to visit (on the way to it, or now). */
static bool expand(struct soko_patterns *t, uint32_t id, int k, unsigned limit)
{
	const struct sokoban *s = t->s;
	struct soko_scratch *sc = t->scratch;
	uint8_t key[3 + PAT_KEY_SIZE], child[3 + PAT_KEY_SIZE];
	size_t ks = 3 + 2 * (size_t)k;
	memcpy(key, lk_table_key(&t->sub, id), ks);
	uint32_t g = lk_table_cost(&t->sub, id);
	for (int i = 0; i < k; i++)
		sc->box[key_box(key, i)] = 1;
	unsigned least = (unsigned)soko_reach(s, sc, s->cell_of[key_player(key)]);
	uint32_t st = sc->stamp;
	bool met = key[ks - 1] || meets_visit(t, sc, st);
	for (int i = 0; i < k; i++) {
		int b = key_box(key, i);
		for (int d = 0; d < 4; d++) {
			int to = b + s->off[d], from = b - s->off[d];
			if (sc->mark[from] != st || (s->wall[to] | sc->box[to]) || s->dead[to])
				continue;
			sc->box[b] = 0;
			sc->box[to] = 1;
			if (!soko_freeze_deadlock(s, sc, to)) {
				memcpy(child, key, ks);
				child[ks - 1] = met;
				key_set(child + 2, i, (unsigned)to);
				key_set(child, 0, (unsigned)soko_pushed_area(s, sc, b, to, st, least));
				long ph = phi(t, child, k);
				long f = (long)g + 1 + ph;
				if (ph != PHI_DEAD && f < (long)limit)
					add_child(t, child, ks, id, g + 1, (unsigned)f);
			}
			sc->box[to] = 0;
			sc->box[b] = 1;
		}
	}
	for (int i = 0; i < k; i++)
		sc->box[key_box(key, i)] = 0;
	return met;
}

/* The penalties of the k boxes on cells (u_i + v_g in pc, PC_NONE where
 * the box cannot reach g) with the player on normalised square start: lower
 * bounds on their least pushes - sum_i (u_i + v_end_i), at most
 * PAT_MAX_PEN, over all their solutions (pen[0]) and over those on which
 * the player meets t->visit (pen[1]). */
static void small_search(struct soko_patterns *t, const uint16_t *cells, int k, unsigned start,
			 unsigned *pen)
{
	size_t ks = 3 + 2 * (size_t)k;
	uint8_t key[3 + PAT_KEY_SIZE];
	lk_table_reset(&t->sub, ks, 0);
	key_set(key, 0, start);
	for (int i = 0; i < k; i++)
		key_set(key + 2, i, cells[i]);
	key[ks - 1] = 0;
	pen[0] = pen[1] = 0;
	long f0 = phi(t, key, k);
	if (f0 < 0 || f0 >= (long)PAT_MAX_PEN)
		return;   /* cannot happen: reduced costs are never negative */
	for (unsigned f = 0; f <= PAT_MAX_PEN; f++)
		t->bn[f] = 0;
	add_child(t, key, ks, 0, 0, (unsigned)f0);
	unsigned best[2] = { PAT_MAX_PEN, PAT_MAX_PEN }, expansions = 0, f = (unsigned)f0;
	for (; f < best[1]; f++) {
		while (t->bn[f] > 0 && f < best[1]) {
			uint32_t id = t->bucket[f][--t->bn[f]];
			if (t->expanded[id])
				continue;
			const uint8_t *kk = lk_table_key(&t->sub, id);
			uint32_t g = lk_table_cost(&t->sub, id);
			if ((long)g + phi(t, kk, k) != (long)f)
				continue;   /* pushed again more cheaply since */
			if (expansions == PAT_SUB_STATES)
				goto out;
			expansions++;
			t->expanded[id] = 1;
			long x = excess_at(t, kk, k, g);
			bool met = expand(t, id, k, best[1]);
			for (int c = 0; c < 2 && x >= 0; c++)
				if ((c == 0 || met) && (unsigned long)x < best[c])
					best[c] = (unsigned)x;
		}
	}
out:
	/* what is still open costs at least f */
	for (int c = 0; c < 2; c++)
		pen[c] = best[c] < f ? best[c] : f;
	t->work += expansions;
	for (uint32_t i = 0; i < t->sub.count; i++)
		t->expanded[i] = 0;
}

/* The squares within PAT_RADIUS steps of every square (walls only), once
 * per level: t->near[t->near_first[c] .. t->near_first[c + 1]). */
static void find_near(struct soko_patterns *t)
{
	const struct sokoban *s = t->s;
	size_t n = 0, alloc = 0;
	t->near_first = lk_xcalloc((size_t)s->cells + 1, sizeof *t->near_first);
	uint32_t *mark = lk_xcalloc((size_t)s->cells, sizeof *mark);
	for (int c = 0; c < s->cells; c++) {
		t->near_first[c] = (uint32_t)n;
		if (s->wall[c])
			continue;
		uint16_t ring[64];
		int rn = 0, from = 0;
		ring[rn++] = (uint16_t)c;
		mark[c] = (uint32_t)c + 1;
		for (int depth = 0; depth < PAT_RADIUS; depth++) {
			int to = rn;
			for (int r = from; r < to; r++)
				for (int d = 0; d < 4; d++) {
					int x = ring[r] + s->off[d];
					if (s->wall[x] || mark[x] == (uint32_t)c + 1 || rn == 64)
						continue;
					mark[x] = (uint32_t)c + 1;
					ring[rn++] = (uint16_t)x;
				}
			from = to;
		}
		LK_ALLOC_GROW(t->near, n + (size_t)rn - 1, alloc);
		for (int r = 1; r < rn; r++)
			t->near[n++] = ring[r];
	}
	t->near_first[s->cells] = (uint32_t)n;
	free(mark);
}

/* The cluster of the boxes around seed (sc->box holds the position): boxes
 * within PAT_RADIUS steps of one in it, walls only, at most PAT_MAX_BOXES,
 * each marked in t->in_cluster; sorted. */
static int cluster(struct soko_patterns *t, const struct soko_scratch *sc, int seed,
		   uint16_t *out)
{
	int n = 0;
	out[n++] = (uint16_t)seed;
	t->in_cluster[seed] = 1;
	for (int head = 0; head < n && n < PAT_MAX_BOXES; head++)
		for (uint32_t e = t->near_first[out[head]];
		     e < t->near_first[out[head] + 1] && n < PAT_MAX_BOXES; e++) {
			int x = t->near[e];
			if (sc->box[x] && !t->in_cluster[x]) {
				t->in_cluster[x] = 1;
				out[n++] = (uint16_t)x;
			}
		}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
			uint16_t x = out[j];
			out[j] = out[j - 1];
			out[j - 1] = x;
		}
	return n;
}

static void index_key(const uint16_t *cells, int k, uint8_t *key)
{
	for (int i = 0; i < PAT_MAX_BOXES; i++)
		key_set(key, i, i < k ? cells[i] : 0xffffu);
}

/* The matching's potentials (lk_assign's layout, 1-based): box i's u,
 * target g's v. */
static inline long pot_u(const struct soko_scratch *sc, int i)
{
	return sc->hung[i + 1];
}
static inline long pot_v(const struct soko_scratch *sc, int n, int g)
{
	return sc->hung[n + 2 + g];
}

/* Would box j of sc, outside the cluster (the boxes numbered idx), need
 * the player beside it on a square that was free at the cluster's
 * squares: off its target, no cluster square beside it. */
static bool needs_player(const struct soko_patterns *t, const struct soko_scratch *sc, int j,
			 const int *idx, int k)
{
	const struct sokoban *s = t->s;
	int b = sc->boxes[j];
	if (s->target_index[b] != SOKO_NO_TARGET)
		return false;
	for (int q = 0; q < k; q++) {
		int c = sc->boxes[idx[q]];
		if (c == b)
			return false;
		for (int d = 0; d < 4; d++)
			if (b + s->off[d] == c)
				return false;
	}
	return true;
}

/* Must the player visit pattern i's squares to visit in the position of
 * sc: does a box outside the cluster that needs the player beside it
 * stand in them?  (Those squares are whole areas of the floor without the
 * cluster's boxes, none the player's: a box that stands in one can only be
 * pushed from it, and it must be pushed.) */
static bool must_visit(const struct soko_patterns *t, uint32_t i, const struct soko_scratch *sc,
		       int n, const int *idx, int k)
{
	const struct sokoban *s = t->s;
	const uint8_t *w = t->visit_bits + (size_t)i * t->player_bytes;
	for (int j = 0; j < n; j++) {
		int c = s->compact[sc->boxes[j]];
		if ((w[c >> 3] >> (c & 7) & 1) && needs_player(t, sc, j, idx, k))
			return true;
	}
	return false;
}

/* The penalty a pattern proves for the boxes numbered idx in sc under the
 * potentials of sc: learned under potentials u, v it said that every
 * target set T of its boxes costs at least pen + sum u + sum_T v, so
 * now at least pen + sum u - sum u' + the k least v_g - v'_g, over u', v'
 * (0 when that is not positive). */
static long penalty_now(const struct soko_patterns *t, uint32_t i, const struct soko_scratch *sc,
			int n, const int *idx, int k)
{
	long least[PAT_MAX_BOXES];
	int nl = 0;
	const int *v = t->v + (size_t)i * (size_t)t->m;
	for (int g = 0; g < t->m; g++) {
		long x = (long)v[g] - pot_v(sc, n, g);
		if (nl == k && x >= least[k - 1])
			continue;
		int at = nl < k ? nl++ : k - 1;
		for (; at > 0 && least[at - 1] > x; at--)
			least[at] = least[at - 1];
		least[at] = x;
	}
	long q = (long)t->pen[2 * i] + t->usum[i];
	if (t->pen[2 * i + 1] > t->pen[2 * i] && must_visit(t, i, sc, n, idx, k))
		q += t->pen[2 * i + 1] - t->pen[2 * i];
	for (int j = 0; j < k; j++)
		q += least[j] - pot_u(sc, idx[j]);
	return q > 0 ? q : 0;
}

/* The penalty of the cluster (boxes numbered idx in sc) with the player
 * on compact square p, from the pattern whose area holds p, or -1 when
 * there is none. */
static long lookup(const struct soko_patterns *t, const uint8_t *key, unsigned p,
		   const struct soko_scratch *sc, int n, const int *idx, int k)
{
	uint32_t id = lk_table_find(&t->index, key, lk_hash_bytes(key, PAT_KEY_SIZE));
	if (id == LK_NO_ENTRY)
		return -1;
	for (uint32_t i = lk_table_parent(&t->index, id); i != UINT32_MAX; i = t->next[i])
		if (t->region[i * t->player_bytes + (p >> 3)] >> (p & 7) & 1)
			return penalty_now(t, i, sc, n, idx, k);
	return -1;
}

/* Search the cluster (its boxes numbered idx in sc) alone from the
 * player's cell and keep what it proves; returns the penalty. */
static unsigned learn(struct soko_patterns *t, const struct soko_scratch *sc, int n,
		      const uint16_t *cells, const int *idx, int k, int player, const uint8_t *ikey)
{
	const struct sokoban *s = t->s;
	struct soko_scratch *tmp = t->scratch;
	long usum = 0;
	for (int i = 0; i < k; i++) {
		usum += pot_u(sc, idx[i]);
		for (int g = 0; g < t->m; g++) {
			int c = sc->cost[idx[i] * t->m + g];
			t->pc[i * t->m + g] = c >= (int)SOKO_INF ? PC_NONE
							      : pot_u(sc, idx[i]) + pot_v(sc, n, g);
		}
	}
	for (int i = 0; i < k; i++)
		tmp->box[cells[i]] = 1;
	unsigned start = (unsigned)soko_reach(s, tmp, player);
	uint32_t st = tmp->stamp;
	size_t at = t->npat++;
	if (t->npat > t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 256;
		t->region = lk_xrealloc(t->region, t->alloc * t->player_bytes);
		t->visit_bits = lk_xrealloc(t->visit_bits, t->alloc * t->player_bytes);
		t->pen = lk_xrealloc(t->pen, 2 * t->alloc);
		t->next = lk_xrealloc(t->next, t->alloc * sizeof *t->next);
		t->usum = lk_xrealloc(t->usum, t->alloc * sizeof *t->usum);
		t->v = lk_xrealloc(t->v, t->alloc * (size_t)t->m * sizeof *t->v);
	}
	uint8_t *r = t->region + at * t->player_bytes, *w = t->visit_bits + at * t->player_bytes;
	memset(r, 0, t->player_bytes);
	memset(w, 0, t->player_bytes);
	for (int c = 0; c < s->nfloor; c++)
		if (tmp->mark[s->cell_of[c]] == st)
			r[c >> 3] |= (uint8_t)(1u << (c & 7));
	/* the areas (without the cluster) of the boxes outside it that need
	 * the player beside them, but the player's own */
	bool any = false;
	for (int j = 0; j < n; j++) {
		int c = s->compact[sc->boxes[j]];
		if ((r[c >> 3] >> (c & 7) & 1) || (w[c >> 3] >> (c & 7) & 1) ||
		    !needs_player(t, sc, j, idx, k))
			continue;
		soko_reach(s, tmp, sc->boxes[j]);
		for (int e = 0; e < s->nfloor; e++)
			if (tmp->mark[s->cell_of[e]] == tmp->stamp)
				w[e >> 3] |= (uint8_t)(1u << (e & 7));
		any = true;
	}
	for (int i = 0; i < k; i++)
		tmp->box[cells[i]] = 0;
	t->visit = any ? w : NULL;
	t->searches++;
	unsigned pen[2];
	small_search(t, cells, k, start, pen);
	t->visit = NULL;
	t->pen[2 * at] = (uint8_t)pen[0];
	t->pen[2 * at + 1] = (uint8_t)pen[1];
	t->usum[at] = usum;
	for (int g = 0; g < t->m; g++)
		t->v[at * (size_t)t->m + (size_t)g] = (int)pot_v(sc, n, g);
#ifdef PAT_DEBUG
	fprintf(stderr, "pattern %zu: k %d cells", at, k);
	for (int i = 0; i < k; i++)
		fprintf(stderr, " (%d,%d)", cells[i] % s->width - 1, cells[i] / s->width - 1);
	fprintf(stderr, " player (%d,%d): pen %u / %u (visit: %d), %u states\n",
		player % s->width - 1, player / s->width - 1, pen[0], pen[1], any, t->sub.count);
#endif
	uint32_t id;
	lk_table_intern(&t->index, ikey, lk_hash_bytes(ikey, PAT_KEY_SIZE), UINT32_MAX, 0, &id);
	t->next[at] = lk_table_parent(&t->index, id);
	lk_table_set_link(&t->index, id, (uint32_t)at, 0);
	return t->pen[2 * at + (any && must_visit(t, (uint32_t)at, sc, n, idx, k))];
}

int soko_patterns_groups(struct soko_patterns *t, struct soko_scratch *sc, int n, int player,
			 uint64_t *mask, uint8_t *weight)
{
	const struct sokoban *s = t->s;
	if (n != t->m)
		return 0;
	t->evals++;
	bool may_learn = t->unlimited || (t->evals > PAT_START &&
					  t->work < (t->evals - PAT_START) / PAT_WORK_DIV);
	if (!may_learn && t->npat == 0)
		return 0;   /* nothing to match: most searches never get here */
	unsigned p = (unsigned)s->compact[player];
	int ng = 0;
	uint16_t cells[PAT_MAX_BOXES];
	int idx[PAT_MAX_BOXES];
	uint8_t ikey[PAT_KEY_SIZE];
	for (int i = 0; i < n; i++) {
		if (t->in_cluster[sc->boxes[i]])
			continue;
		int k = cluster(t, sc, sc->boxes[i], cells);
		if (k < 2)
			continue;
		bool off = false;
		/* both lists are in cell order: one walk finds every box's
		 * number (a scan of all boxes per cell was a sixth of this) */
		for (int j = 0, q = 0; j < k; j++) {
			off |= s->target_index[cells[j]] == SOKO_NO_TARGET;
			while (sc->boxes[q] != cells[j])
				q++;
			idx[j] = q;
		}
		if (!off)
			continue;
		index_key(cells, k, ikey);
		long pen = lookup(t, ikey, p, sc, n, idx, k);
		if (pen < 0 && may_learn) {
			pen = (long)learn(t, sc, n, cells, idx, k, player, ikey);
			sc->count[SOKO_T_PATTERNS] += pen > 0;
			may_learn = false;
		}
		if (pen <= 0)
			continue;
		uint64_t m = 0;
		for (int j = 0; j < k; j++)
			m |= 1ull << idx[j];
		mask[ng] = m;
		weight[ng++] = (uint8_t)(pen > (long)PAT_MAX_PEN ? PAT_MAX_PEN : pen);
	}
	for (int i = 0; i < n; i++)
		t->in_cluster[sc->boxes[i]] = 0;
	return ng;
}
