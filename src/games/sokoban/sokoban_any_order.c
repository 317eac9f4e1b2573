/*
 * sokoban_any_order.c - which move Sokoban's feature-space search (solve
 * -a any, sokoban_any.c) plays next: the cells of feature space a state
 * goes into, the advisors that mark the moves improving a feature, and the
 * order in which a state's moves are tried.  See docs/games/sokoban.md,
 * "Hard levels".
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any_search.h"

/* ---- cells ---- */

/* A state's cell: packed boxes, player areas, room links cut (with
 * room-connectivity on) and boxes out of plan, FESS's four features.
 * Without the feature space, one cell. */
uint32_t soko_fess_cell_code(const struct any *a, uint32_t packed_features)
{
	if (!a->s->use[SOKO_T_FEATURES])
		return 0;
	struct soko_features f;
	soko_features_unpack(packed_features, &f);
	uint32_t rooms = a->plan.rooms ? f.doorways : 0;
	return (uint32_t)f.packed << 24 | (uint32_t)f.areas << 16 | rooms << 8 | f.out_of_plan;
}

/* The cell of a code; a new cell is the next one visited. */
size_t soko_fess_find_cell(struct any *a, uint32_t code)
{
	bool made;
	size_t c = soko_cells_find(&a->cells, code, &made);
	if (made) {
		a->next_cell = c;
		if (a->s->use[SOKO_T_FEATURES])
			((struct soko_scratch *)a->scratch)->count[SOKO_T_FEATURES]++;
	}
	return c;
}

/* cell-age: one turn of a cell in AGE_EVERY goes to the expansion that
 * has waited in it longest.  The lightest-first order lets an expansion
 * wait for ever while newer ones of its weight keep coming (among equal
 * weights the newest is taken, as the search deepens a line); session 36
 * measured the whole tie turned round (the oldest first) and lost three
 * slow levels, so here the old ones get only a share of the turns. */
#define AGE_EVERY 8

/* AGE_EVERY, or what a test set (2: small levels' cells get few turns). */
static uint64_t age_every = AGE_EVERY;

void soko_any_set_age_every(unsigned turns)
{
	age_every = turns ? turns : AGE_EVERY;
}

/* cell-age: an item of a cell's push-order queue, (push number, e), is
 * valid while e still waits from that push. */
static bool age_valid(const void *ctx, uint64_t item)
{
	const struct any *a = ctx;
	return a->queued[(uint32_t)item] == (uint32_t)(item >> 32);
}

/* Skip the moves of expansion e whose child is expanded or dead; put e
 * into its cell at the weight of its next move, if it has one. */
void soko_fess_schedule(struct any *a, uint32_t e)
{
	struct expansion *x = &a->exps[e];
	while (x->next < x->nmoves && a->flags[a->moves[x->moves + x->next].child])
		x->next++;
	if (x->next == x->nmoves)
		return;
	uint64_t w = (uint64_t)x->weight + a->moves[x->moves + x->next].weight;
	size_t c = soko_fess_find_cell(a, soko_fess_cell_code(a, x->best));
	soko_cells_push(&a->cells, c, w << 32 | (uint32_t)~e);
	if (a->s->use[SOKO_T_CELL_AGE]) {
		if (a->queued_alloc < a->nexps) {
			size_t old = a->queued_alloc;
			LK_ALLOC_GROW(a->queued, a->nexps, a->queued_alloc);
			memset(a->queued + old, 0, (a->queued_alloc - old) * sizeof *a->queued);
		}
		a->queued[e] = ++a->pushes;
		soko_cells_fifo_push(&a->cells, c, (uint64_t)a->pushes << 32 | e, age_valid, a);
	}
}

bool soko_fess_take(struct any *a, size_t c, uint32_t *e)
{
	struct soko_cells *t = &a->cells;
	if (!a->s->use[SOKO_T_CELL_AGE]) {
		*e = ~(uint32_t)soko_cells_pop(t, c);
		return true;
	}
	uint64_t v;
	if (++t->cells[c].turns % age_every == 0 && soko_cells_fifo_take(t, c, &v, age_valid, a)) {
		*e = (uint32_t)v;   /* its heap item stays, invalid (below) */
		a->queued[*e] = 0;
		((struct soko_scratch *)a->scratch)->count[SOKO_T_CELL_AGE]++;
		return true;
	}
	/* the lightest item of an expansion still waiting at that weight (an
	 * item of one taken by its age, or pushed again since at another
	 * weight, is dropped; one pushed again at the same weight is the same
	 * item, and either copy plays the same move) */
	while (t->cells[c].n) {
		uint64_t item = soko_cells_pop(t, c);
		uint32_t k = ~(uint32_t)item;
		const struct expansion *x = &a->exps[k];
		if (a->queued[k] && x->next < x->nmoves &&
		    x->weight + a->moves[x->moves + x->next].weight == (uint32_t)(item >> 32)) {
			a->queued[k] = 0;
			*e = k;
			return true;
		}
	}
	return false;
}

/* The advisors' moves among a state's (indices into the moves of
 * expansion e): each feature advisor proposes the move to a new node that
 * improves its feature most, the better features breaking ties; the
 * explorer and the opener (when on) theirs (sokoban_any_advise.c).
 *
 * no-unpacking (Festival's rule, in the first search only): no advisor
 * proposes a move whose child has fewer packed boxes than its parent.
 * The first search trusts the packing order (its goal-room macros keep a
 * packed area a unit), so a move that undoes packing to improve another
 * feature goes against the plan it follows; the sound search run after it
 * or beside it (stall turns) is there for levels whose plan is wrong, and
 * its advisors may unpack.  Everywhere, the move stays in the search at
 * weight 1: the rule orders moves, it cuts none. */
int soko_fess_advise(struct any *a, const struct expansion *x, size_t *chosen)
{
	struct soko_features f;
	soko_features_unpack(lk_table_cost(&a->table, x->node), &f);
	bool keep_packed = a->macros && a->s->use[SOKO_T_NO_UNPACK];
	uint64_t refused = 0;
	long best[NADVISORS];
	struct soko_features bf[NFEATURE_ADVISORS];
	for (int k = 0; k < NADVISORS; k++)
		best[k] = -1;
	for (uint32_t i = 0; i < x->nmoves; i++) {
		uint32_t child = a->moves[x->moves + i].child;
		if (a->flags[child])
			continue;
		struct soko_features c;
		soko_features_unpack(lk_table_cost(&a->table, child), &c);
		int gain[NFEATURE_ADVISORS] = {
			c.packed - f.packed, f.areas - c.areas, f.doorways - c.doorways,
			f.out_of_plan - c.out_of_plan, f.hotspots - c.hotspots,
		};
		if (keep_packed && c.packed < f.packed) {
			bool wanted = false;
			for (int k = 1; k < NFEATURE_ADVISORS; k++)
				wanted |= gain[k] > 0;
			refused += wanted;
			continue;
		}
		for (int k = 0; k < NFEATURE_ADVISORS; k++) {
			if (gain[k] <= 0)
				continue;
			if (best[k] >= 0) {
				int was[NFEATURE_ADVISORS] = {
					bf[k].packed - f.packed, f.areas - bf[k].areas,
					f.doorways - bf[k].doorways, f.out_of_plan - bf[k].out_of_plan,
					f.hotspots - bf[k].hotspots,
				};
				if (gain[k] < was[k] ||
				    (gain[k] == was[k] && !soko_features_better(&c, &bf[k])))
					continue;
			}
			best[k] = (long)i;
			bf[k] = c;
		}
	}
	struct soko_scratch *sc = a->scratch;
	if (a->s->use[SOKO_T_EXPLORER] && (best[5] = soko_fess_explorer(a, x, &f)) >= 0)
		sc->count[SOKO_T_EXPLORER]++;
	if (a->s->use[SOKO_T_OPENER] && (best[6] = soko_fess_opener(a, x, &f)) >= 0)
		sc->count[SOKO_T_OPENER]++;
	if (a->s->use[SOKO_T_IMAGINE] && (best[7] = soko_fess_imagine(a, x, &f)) >= 0)
		sc->count[SOKO_T_IMAGINE]++;
	int n = 0;
	for (int k = 0; k < NADVISORS; k++) {
		bool dup = best[k] < 0;
		for (int j = 0; j < n && !dup; j++)
			dup = chosen[j] == (size_t)best[k];
		if (!dup)
			chosen[n++] = (size_t)best[k];
	}
	sc->count[SOKO_T_NO_UNPACK] += refused;
	return n;
}

/* A move's place in the order its state tries them: by weight, then the
 * better child (soko_features_better is the order of the packed features
 * with the packed boxes' byte inverted), then the lesser table entry. */
static uint64_t sort_key(const struct any *a, struct amove m)
{
	uint32_t rank = lk_table_cost(&a->table, m.child) ^ 0xff000000u;
	return (uint64_t)m.weight << 63 | (uint64_t)rank << 31 | m.child;
}

/* Heap sort of n keys, least first.  It replaced qsort for the long
 * lists: qsort's call of a comparison a step was a seventieth of -a any's
 * time on Sasquatch II 19; the keys are plain integers, so every correct
 * sort gives the same order (equal keys are equal moves). */
static void sift_down(uint64_t *keys, uint32_t at, uint32_t n)
{
	uint64_t k = keys[at];
	for (;;) {
		uint32_t c = 2 * at + 1;
		if (c >= n)
			break;
		if (c + 1 < n && keys[c + 1] > keys[c])
			c++;
		if (keys[c] <= k)
			break;
		keys[at] = keys[c];
		at = c;
	}
	keys[at] = k;
}

static void heap_sort(uint64_t *keys, uint32_t n)
{
	for (uint32_t i = n / 2; i-- > 0;)
		sift_down(keys, i, n);
	for (uint32_t end = n; end-- > 1;) {
		uint64_t top = keys[0];
		keys[0] = keys[end];
		keys[end] = top;
		sift_down(keys, 0, end);
	}
}

/* Sort the n moves at m in the order they are tried (keys: room for n). */
void soko_fess_sort_moves(const struct any *a, struct amove *m, uint32_t n, uint64_t *keys)
{
	for (uint32_t i = 0; i < n; i++)
		keys[i] = sort_key(a, m[i]);
	if (n > 24) {
		heap_sort(keys, n);
	} else {
		for (uint32_t i = 1; i < n; i++) {
			uint64_t k = keys[i];
			uint32_t j = i;
			for (; j > 0 && keys[j - 1] > k; j--)
				keys[j] = keys[j - 1];
			keys[j] = k;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		m[i] = (struct amove){ .child = (unsigned)(keys[i] & 0x7fffffffu),
				       .weight = (unsigned)(keys[i] >> 63) & 1u };
}
