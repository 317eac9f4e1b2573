/*
 * sokoban_any.c - Sokoban's search for any solution (solve -a any), after
 * Shoham and Schaeffer's FESS ("The FESS Algorithm: A Feature Based
 * Approach to Single-Agent Search", IEEE CoG 2020); our own implementation.
 *
 * States are positions after box moves (sokoban_boxmoves.c: one box pushed
 * any number of times), stored once in the state table with their parent
 * and a weight.  Every state is placed in the cell of feature space its
 * features name (sokoban_plan.c: boxes packed, player areas, boxes in
 * doorways, boxes out of plan), and the search goes round the cells in
 * turn, taking from each the state of least weight: so positions that
 * differ in kind all get their share, however many of one kind there are.
 *
 * A state is expanded twice.  First the advisors look at its box moves and
 * each proposes the one that improves its feature most (packs the next box
 * in an area's packing order, joins player areas, clears a doorway, takes a
 * box out of plan); those children keep the parent's weight.  The state
 * then goes back into its cell one heavier, and when it comes out again all
 * its other moves are played, at that weight.  So the weight of a state is
 * the number of moves on its path no advisor proposed.
 *
 * Every pruning used is sound (dead squares, freeze, bipartite deadlocks,
 * PI-corrals, learned deadlock patterns), so when every state has been
 * expanded twice without a solution the level is proved unsolvable.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any.h"

#define DEAD_WEIGHT UINT32_MAX
/* advisors: packing, areas, doorways, out of plan */
#define NADVISORS 4

struct cell {
	uint32_t code;
	uint64_t *heap;   /* weight << 33 | second pass << 32 | state */
	size_t n, alloc;
};

struct any {
	const struct sokoban *s;
	const struct lk_search_options *opt;
	struct lk_search_result *r;
	struct lk_table table;
	size_t key_size;
	struct soko_movegen gen;
	struct soko_plan plan;
	void *scratch, *scratch2;   /* the parent's, a child's */
	unsigned char *key, *child; /* a parent's key (copied), a child's */
	struct cell *cells;
	size_t ncells, cells_alloc;
	uint32_t *cell_index;       /* open addressing: cell number + 1, 0 = empty */
	size_t index_cap;
	size_t heap_bytes;
	uint8_t *allow;             /* per cell: a box the PI-corral lets move */
	uint16_t *next;             /* per area: the next goal to fill */
	struct soko_features *feat; /* per move */
	uint32_t goal;              /* the goal state, once found */
	bool solved;
	enum lk_limit limit;
	double deadline;
};

/* ---- cells ---- */

static uint32_t cell_code(const struct any *a, const struct soko_features *f)
{
	if (!a->s->use[SOKO_T_FEATURES])
		return 0;
	return (uint32_t)f->packed << 24 | (uint32_t)f->areas << 16 | (uint32_t)f->doorways << 8 |
	       f->out_of_plan;
}

static uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	return x ^ (x >> 16);
}

static void index_grow(struct any *a)
{
	size_t cap = a->index_cap ? a->index_cap * 2 : 256;
	uint32_t *idx = lk_xcalloc(cap, sizeof *idx);
	for (size_t i = 0; i < a->ncells; i++) {
		size_t h = hash32(a->cells[i].code) & (cap - 1);
		while (idx[h])
			h = (h + 1) & (cap - 1);
		idx[h] = (uint32_t)i + 1;
	}
	free(a->cell_index);
	a->cell_index = idx;
	a->index_cap = cap;
}

static struct cell *find_cell(struct any *a, uint32_t code)
{
	if (4 * (a->ncells + 1) > 3 * a->index_cap)
		index_grow(a);
	size_t h = hash32(code) & (a->index_cap - 1);
	while (a->cell_index[h]) {
		struct cell *c = &a->cells[a->cell_index[h] - 1];
		if (c->code == code)
			return c;
		h = (h + 1) & (a->index_cap - 1);
	}
	LK_ALLOC_GROW(a->cells, a->ncells + 1, a->cells_alloc);
	struct cell *c = &a->cells[a->ncells];
	memset(c, 0, sizeof *c);
	c->code = code;
	a->cell_index[h] = (uint32_t)++a->ncells;
	return c;
}

static void heap_push(struct any *a, struct cell *c, uint64_t v)
{
	if (c->n == c->alloc) {
		size_t old = c->alloc;
		c->alloc = c->alloc ? 2 * c->alloc : 16;
		c->heap = lk_xrealloc(c->heap, c->alloc * sizeof *c->heap);
		a->heap_bytes += (c->alloc - old) * sizeof *c->heap;
	}
	size_t i = c->n++;
	while (i > 0 && c->heap[(i - 1) / 2] > v) {
		c->heap[i] = c->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	c->heap[i] = v;
}

static uint64_t heap_pop(struct cell *c)
{
	uint64_t top = c->heap[0], v = c->heap[--c->n];
	size_t i = 0;
	for (;;) {
		size_t k = 2 * i + 1;
		if (k >= c->n)
			break;
		if (k + 1 < c->n && c->heap[k + 1] < c->heap[k])
			k++;
		if (c->heap[k] >= v)
			break;
		c->heap[i] = c->heap[k];
		i = k;
	}
	if (c->n)
		c->heap[i] = v;
	return top;
}

static void enqueue(struct any *a, const struct soko_features *f, uint32_t id, uint32_t weight,
		    bool second)
{
	size_t before = a->ncells;
	struct cell *c = find_cell(a, cell_code(a, f));
	if (a->ncells > before) {
		struct soko_scratch *sc = a->scratch;
		sc->count[SOKO_T_FEATURES]++;
	}
	heap_push(a, c, (uint64_t)weight << 33 | (uint64_t)second << 32 | id);
}

/* ---- states ---- */

/* Unpack key into scratch sc with the player's reach flooded; returns the
 * number of boxes. */
static int unpack(const struct any *a, const unsigned char *key, struct soko_scratch *sc)
{
	int n = soko_unpack(a->s, key, sc);
	soko_reach(a->s, sc, a->s->cell_of[soko_key_player(key)]);
	return n;
}

static bool is_goal(const struct sokoban *s, const unsigned char *key)
{
	const uint8_t *bits = key + 2;
	for (size_t i = 0; i < s->bitset_bytes; i++)
		if (bits[i] & ~s->goal_bits[i])
			return false;
	return true;
}

/* Play move m out of the state whose key is a->key at this weight: store
 * the child unless known, dead (then stored as dead) or the table is full.
 * Returns -1 when the search must stop (solved, or out of memory). */
static int play(struct any *a, uint32_t parent, const struct soko_boxmove *m, uint32_t weight)
{
	const struct sokoban *s = a->s;
	unsigned char *k = a->child;
	memcpy(k, a->key, a->key_size);
	soko_bit_flip(k + 2, s->compact[m->from]);
	soko_bit_flip(k + 2, s->compact[m->to]);
	soko_key_set_player(k, m->player);
	uint64_t hash = lk_hash_bytes(k, a->key_size);
	if (lk_table_find(&a->table, k, hash) != LK_NO_ENTRY)
		return 0;
	a->r->generated++;
	unsigned h = soko_heuristic(&s->base, k, a->scratch2);
	uint32_t id;
	enum lk_intern got = lk_table_intern(&a->table, k, hash, parent,
					     h == LK_H_DEAD ? DEAD_WEIGHT : weight, &id);
	if (got == LK_INTERN_FULL) {
		a->limit = LK_LIMIT_MEMORY;
		return -1;
	}
	if (h == LK_H_DEAD)
		return 0;
	if (is_goal(s, k)) {
		a->goal = id;
		a->solved = true;
		return -1;
	}
	struct soko_scratch *sc2 = a->scratch2;
	int n = soko_unpack(s, k, sc2);
	struct soko_features f;
	soko_features(&a->plan, s, sc2, n, &f);
	soko_clear_boxes(s, sc2, n);
	enqueue(a, &f, id, weight, false);
	if (a->opt->max_states && a->table.count >= a->opt->max_states) {
		a->limit = LK_LIMIT_STATES;
		return -1;
	}
	return 0;
}

/* The features of every move's child, into a->feat. */
static void move_features(struct any *a, struct soko_scratch *sc, int n, size_t nmoves)
{
	for (size_t i = 0; i < nmoves; i++) {
		const struct soko_boxmove *m = &a->gen.moves[i];
		int at = 0;
		while (sc->boxes[at] != m->from)
			at++;
		sc->box[m->from] = 0;
		sc->box[m->to] = 1;
		sc->boxes[at] = m->to;
		soko_features(&a->plan, a->s, sc, n, &a->feat[i]);
		sc->boxes[at] = m->from;
		sc->box[m->to] = 0;
		sc->box[m->from] = 1;
	}
}

/* The advisors' moves (indices into a->gen.moves), at most NADVISORS. */
static int advise(struct any *a, const struct soko_features *f, size_t nmoves, size_t *chosen)
{
	long best[NADVISORS];
	for (int k = 0; k < NADVISORS; k++)
		best[k] = -1;
	for (size_t i = 0; i < nmoves; i++) {
		const struct soko_features *c = &a->feat[i];
		const struct soko_boxmove *m = &a->gen.moves[i];
		int gain[NADVISORS] = {
			c->packed - f->packed, f->areas - c->areas, f->doorways - c->doorways,
			f->out_of_plan - c->out_of_plan,
		};
		for (int k = 0; k < NADVISORS; k++) {
			if (gain[k] <= 0)
				continue;
			if (best[k] >= 0) {
				const struct soko_features *b = &a->feat[best[k]];
				int was[NADVISORS] = {
					b->packed - f->packed, f->areas - b->areas, f->doorways - b->doorways,
					f->out_of_plan - b->out_of_plan,
				};
				if (gain[k] < was[k] ||
				    (gain[k] == was[k] && m->pushes >= a->gen.moves[best[k]].pushes))
					continue;
			}
			best[k] = (long)i;
		}
	}
	int n = 0;
	for (int k = 0; k < NADVISORS; k++) {
		bool dup = best[k] < 0;
		for (int j = 0; j < n && !dup; j++)
			dup = chosen[j] == (size_t)best[k];
		if (!dup)
			chosen[n++] = (size_t)best[k];
	}
	return n;
}

/* Expand a state: its advisors' moves on the first pass, every move on
 * the second.  Returns -1 when the search must stop. */
static int expand(struct any *a, uint32_t id, uint32_t weight, bool second)
{
	const struct sokoban *s = a->s;
	struct soko_scratch *sc = a->scratch;
	memcpy(a->key, lk_table_key(&a->table, id), a->key_size);
	int n = unpack(a, a->key, sc);
	const uint8_t *allow = NULL;
	if (n > 1 && s->use[SOKO_T_PI_CORRALS]) {
		int corral = soko_pi_corral(s, sc, n);
		if (corral >= 0) {
			for (int i = 0; i < n; i++)
				a->allow[sc->boxes[i]] = soko_corral_allows(s, sc, corral, sc->boxes[i]);
			allow = a->allow;
		}
	}
	size_t nmoves = soko_box_moves(&a->gen, sc, n, allow);
	a->r->expanded++;
	int rc = 0;
	if (!second) {
		struct soko_features f;
		soko_features(&a->plan, s, sc, n, &f);
		size_t chosen[NADVISORS];
		int nchosen = 0;
		if (s->use[SOKO_T_ADVISORS] && nmoves > 0) {
			a->feat = lk_xrealloc(a->feat, nmoves * sizeof *a->feat);
			move_features(a, sc, n, nmoves);
			nchosen = advise(a, &f, nmoves, chosen);
		}
		soko_clear_boxes(s, sc, n);
		for (int i = 0; i < nchosen && rc == 0; i++) {
			sc->count[SOKO_T_ADVISORS]++;
			rc = play(a, id, &a->gen.moves[chosen[i]], weight);
		}
		if (rc == 0 && nmoves > (size_t)nchosen)
			enqueue(a, &f, id, weight + 1, true);
		return rc;
	}
	soko_clear_boxes(s, sc, n);
	for (size_t i = 0; i < nmoves && rc == 0; i++)
		rc = play(a, id, &a->gen.moves[i], weight);
	return rc;
}

/* ---- the solution: box moves written out as pushes ---- */

static void build_path(struct any *a, const struct lk_level *level)
{
	const struct sokoban *s = a->s;
	struct lk_search_result *r = a->r;
	struct soko_scratch *sc = a->scratch;
	size_t ks = a->key_size, nstates = 1, npush = 0, alloc = 64;
	for (uint32_t id = a->goal; id != 0; id = lk_table_parent(&a->table, id))
		nstates++;
	uint32_t *chain = lk_xmalloc(nstates * sizeof *chain);
	size_t i = nstates;
	for (uint32_t id = a->goal;; id = lk_table_parent(&a->table, id)) {
		chain[--i] = id;
		if (id == 0)
			break;
	}
	uint8_t *dirs = lk_xmalloc((size_t)s->cells * 4);
	r->path = lk_xmalloc(alloc * ks);
	level->game->initial_state(level, r->path);
	r->nkeys = 1;
	for (i = 1; i < nstates; i++) {
		const unsigned char *pk = lk_table_key(&a->table, chain[i - 1]);
		const unsigned char *ck = lk_table_key(&a->table, chain[i]);
		int from = -1, to = -1;
		for (int c = 0; c < s->nfloor; c++) {
			bool was = soko_bit(pk + 2, c), is = soko_bit(ck + 2, c);
			if (was && !is)
				from = s->cell_of[c];
			if (is && !was)
				to = s->cell_of[c];
		}
		int n = unpack(a, pk, sc);
		/* a box pushed away and back, the player ending elsewhere */
		int np = -1;
		for (int b = 0; from < 0 && np < 0 && b < n; b++) {
			np = soko_box_move_pushes(&a->gen, sc, sc->boxes[b], sc->boxes[b],
						  soko_key_player(ck), dirs);
			if (np > 0)
				from = to = sc->boxes[b];
		}
		if (np < 0)
			np = soko_box_move_pushes(&a->gen, sc, from, to, soko_key_player(ck), dirs);
		int x = from;
		for (int k = 0; k < np; k++) {
			int y = x + s->off[dirs[k]];
			sc->box[x] = 0;
			sc->box[y] = 1;
			if (r->nkeys == alloc) {
				alloc *= 2;
				r->path = lk_xrealloc(r->path, alloc * ks);
			}
			unsigned char *out = r->path + r->nkeys * ks;
			memcpy(out, r->path + (r->nkeys - 1) * ks, ks);
			soko_bit_flip(out + 2, s->compact[x]);
			soko_bit_flip(out + 2, s->compact[y]);
			unsigned player = (unsigned)s->compact[x];
			if (s->push_graph) {
				struct soko_scratch *sc2 = a->scratch2;
				int m = soko_unpack(s, out, sc2);
				player = (unsigned)soko_reach(s, sc2, x);
				soko_clear_boxes(s, sc2, m);
			}
			soko_key_set_player(out, player);
			r->nkeys++;
			npush++;
			x = y;
		}
		/* the boxes of pk were unpacked; the moved one now stands on x */
		sc->box[x] = 0;
		sc->box[from] = 1;
		soko_clear_boxes(s, sc, n);
	}
	free(dirs);
	free(chain);
	if (s->push_graph) {
		r->cost = npush;
	} else {
		struct lk_moves m;
		lk_moves_init(&m, level);
		lk_level_label(level, r->path, r->nkeys, &m);
		r->cost = m.inputs;
		lk_moves_release(&m);
	}
}

/* ---- the search ---- */

static bool out_of_bounds(struct any *a)
{
	const struct lk_search_options *o = a->opt;
	if (o->cancel && *o->cancel)
		a->limit = LK_LIMIT_INTERRUPTED;
	else if (o->timeout > 0 && lk_now() > a->deadline)
		a->limit = LK_LIMIT_TIME;
	else if (o->max_memory && a->table.bytes + a->heap_bytes > o->max_memory)
		a->limit = LK_LIMIT_MEMORY;
	return a->limit != LK_LIMIT_NONE;
}

static void run(struct any *a)
{
	const struct sokoban *s = a->s;
	unsigned char *start = a->child;
	memset(start, 0, a->key_size);
	memcpy(start + 2, s->box0, s->bitset_bytes);
	struct soko_scratch *sc = a->scratch2;
	int n = soko_unpack(s, start, sc);
	soko_key_set_player(start, (unsigned)soko_reach(s, sc, s->player0));
	soko_clear_boxes(s, sc, n);
	uint32_t id;
	if (lk_table_intern(&a->table, start, lk_hash_bytes(start, a->key_size), 0, 0, &id) ==
	    LK_INTERN_FULL) {
		a->limit = LK_LIMIT_MEMORY;
		return;
	}
	if (is_goal(s, start)) {
		a->goal = 0;
		a->solved = true;
		return;
	}
	if (soko_heuristic(&s->base, start, a->scratch2) == LK_H_DEAD)
		return;   /* proved dead at the start */
	struct soko_features f;
	n = soko_unpack(s, start, sc);
	soko_features(&a->plan, s, sc, n, &f);
	soko_clear_boxes(s, sc, n);
	enqueue(a, &f, 0, 0, false);
	for (;;) {
		bool any = false;
		for (size_t c = 0; c < a->ncells; c++) {
			if (a->cells[c].n == 0)
				continue;
			any = true;
			if (out_of_bounds(a))
				return;
			uint64_t v = heap_pop(&a->cells[c]);
			uint32_t sid = (uint32_t)v, weight = (uint32_t)(v >> 33);
			if (expand(a, sid, weight, v >> 32 & 1) < 0)
				return;
		}
		if (!any)
			return;   /* everything expanded: no solution */
	}
}

void soko_solve_any(const struct lk_level *level, const struct lk_search_options *opt,
		    struct lk_search_result *r)
{
	const struct sokoban *s = (const struct sokoban *)level;
	double t0 = lk_now(), cpu0 = lk_thread_cpu();
	lk_search_result_release(r);
	struct any a = { .s = s, .opt = opt, .r = r, .deadline = t0 + opt->timeout };
	a.key_size = level->key_size;
	if (s->impossible || s->forward) {
		r->status = s->impossible ? LK_UNSOLVABLE : LK_UNKNOWN;
		r->seconds = lk_now() - t0;
		r->cpu_seconds = lk_thread_cpu() - cpu0;
		return;
	}
	size_t n = (size_t)s->cells;
	lk_table_init(&a.table, a.key_size, opt->max_memory);
	soko_movegen_init(&a.gen, s);
	soko_plan_build(&a.plan, s, s->use[SOKO_T_PACKING]);
	a.scratch = lk_xcalloc(1, level->scratch_size);
	a.scratch2 = lk_xcalloc(1, level->scratch_size);
	soko_scratch(s, a.scratch);
	soko_scratch(s, a.scratch2);
	a.key = lk_xcalloc(1, a.key_size);
	a.child = lk_xcalloc(1, a.key_size);
	a.allow = lk_xcalloc(n, 1);
	a.next = lk_xmalloc((size_t)(a.plan.nareas + 1) * sizeof *a.next);

	run(&a);

	if (a.solved) {
		r->status = LK_SOLVED;
		build_path(&a, level);
	} else if (a.limit != LK_LIMIT_NONE) {
		r->status = LK_UNKNOWN;
		r->limit = a.limit;
	} else {
		r->status = LK_UNSOLVABLE;
	}
	r->optimal = false;
	r->stored = a.table.count;
	r->peak_bytes = a.table.peak_bytes + a.heap_bytes;
	r->overhead_per_state = lk_table_overhead_per_state(&a.table);
	r->found_by = LK_FORWARD;
	soko_technique_counts(level, a.scratch, r->technique_counts);
	soko_technique_counts(level, a.scratch2, r->technique_counts);
	for (size_t c = 0; c < a.ncells; c++)
		free(a.cells[c].heap);
	free(a.cells);
	free(a.cell_index);
	free(a.feat);
	free(a.allow);
	free(a.next);
	free(a.key);
	free(a.child);
	free(a.scratch);
	free(a.scratch2);
	soko_plan_release(&a.plan);
	soko_movegen_release(&a.gen);
	lk_table_release(&a.table);
	r->seconds = lk_now() - t0;
	r->cpu_seconds = lk_thread_cpu() - cpu0;
}
