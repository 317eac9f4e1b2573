/*
 * sokoban_any.c - Sokoban's search for any solution (solve -a any), after
 * Shoham and Schaeffer's FESS ("The FESS Algorithm: A Feature Based
 * Approach to Single-Agent Search", IEEE CoG 2020) and the way Festival
 * runs it; our own implementation (docs/games/sokoban.md, "Hard levels").
 *
 * Which move it plays next (cells, advisors, move order) is in
 * sokoban_any_order.c, its state in sokoban_any_search.h.  The portfolio
 * around it (greedy best-first search in slices, the second search without
 * the goal-room macros) is in sokoban_any_budget.c.
 *
 * The feature-space search works on box moves (sokoban_boxmoves.c: one box
 * pushed any number of times).  Every state met is stored once in the state
 * table, its features (sokoban_plan.c) in the entry's cost field.  When a
 * state is expanded, all its moves are generated and their children scored
 * and stored; the advisors mark the moves that improve a feature most
 * (weight 0, the others 1), and the moves are sorted by weight, then by the
 * better child.  The expanded state goes into the cell of feature space of
 * the best features on its path (packed boxes, player areas, boxes out of
 * plan), keyed by its weight (the moves on its path no advisor proposed)
 * plus its next move's.  The search then takes turns: round the cells, a
 * new cell first, and every other turn the cell of the best state found;
 * each turn plays one move of the lightest expanded state of the cell,
 * after asking the deadlock table (sokoban_deadtab.c) about it.  A state
 * whose moves all lead to dead states is dead, and so up the tree.
 *
 * Every pruning used is sound (dead squares, freeze, bipartite deadlocks,
 * PI-corrals, learned deadlock patterns), so when no move is left anywhere
 * the level is proved unsolvable; except the goal-room macros and the
 * relevance cuts (sokoban_relevance.c), which trust the packing order and
 * the locality of moves: a search that used them and ran out of moves
 * proves nothing, and is run again without them.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_any_search.h"

/* ---- states ---- */

static int unpack(struct any *a, const unsigned char *key, struct soko_scratch *sc)
{
	int n = soko_unpack(a->s, key, sc);
	soko_movegen_reach(&a->gen, sc, a->s->cell_of[soko_key_player(key)]);
	return n;
}

static bool is_goal(const struct sokoban *s, const unsigned char *key)
{
	const uint8_t *bits = key + 2;
	for (size_t i = 0; i < s->bitset_bytes; i++)
		if (bits[i] & ~s->goal_bits[i])
			return false;
	return soko_exit_ok(s, key);
}

static void grow_flags(struct any *a)
{
	size_t need = a->table.count + 1;
	if (need <= a->flags_alloc)
		return;
	size_t n = a->flags_alloc ? a->flags_alloc : 1024;
	while (n < need)
		n *= 2;
	a->flags = lk_xrealloc(a->flags, n);
	memset(a->flags + a->flags_alloc, 0, n - a->flags_alloc);
	a->flags_alloc = n;
}

/* The key of the child of move m out of the state in a->key, into k;
 * returns its hash, its place in the table fetched ahead. */
static uint64_t child_key(struct any *a, const struct soko_boxmove *m, unsigned char *k)
{
	const struct sokoban *s = a->s;
	memcpy(k, a->key, a->key_size);
	soko_bit_flip(k + 2, s->compact[m->from]);
	soko_bit_flip(k + 2, s->compact[m->to]);
	soko_key_set_player(k, m->player);
	uint64_t hash = lk_hash_bytes(k, a->key_size);
	lk_table_prefetch(&a->table, hash);
	/* a new child is looked up in the pull search's table too: its
	 * misses overlap the same way (its lookups were a twentieth of the
	 * time on Sasquatch III 39) */
	soko_pull_prefetch(a->pull, hash);
	return hash;
}

/* The node of the child of move m (key k, of that hash) out of the state
 * in a->key, whose n boxes are unpacked in a->scratch: found or added
 * (with its features, or as dead).  NONE when the table is full. */
static uint32_t child_node(struct any *a, uint32_t parent, const struct soko_boxmove *m,
			   const unsigned char *k, uint64_t hash, int n)
{
	const struct sokoban *s = a->s;
	uint32_t id;
	/* one probe: a new state is stored first and scored after */
	enum lk_intern in = lk_table_intern(&a->table, k, hash, parent, 0, &id);
	if (in == LK_INTERN_FOUND)
		return id;
	a->r->generated++;
	uint32_t feat = DEAD_NODE;
	/* the child's boxes: the parent's with the one moved */
	struct soko_scratch *sc = a->scratch;
	int i = 0;
	while (sc->boxes[i] != m->from)
		i++;
	sc->box[m->from] = 0;
	sc->box[m->to] = 1;
	sc->boxes[i] = m->to;
	if (!soko_unmatchable_move(s, sc, n, &a->matcher, m->from, m->to)) {
		struct soko_features f;
		soko_features_move(&a->plan, s, sc, n, soko_move_areas(&a->gen, m->from, m->to),
				   m->from, m->to, &f);
		feat = soko_features_pack(&f);
	}
	sc->boxes[i] = m->from;
	sc->box[m->to] = 0;
	sc->box[m->from] = 1;
	if (in == LK_INTERN_FULL) {
		a->limit = LK_LIMIT_MEMORY;
		return NONE;
	}
	lk_table_set_link(&a->table, id, parent, feat);
	grow_flags(a);
	if (feat == DEAD_NODE) {
		a->flags[id] |= NODE_DEAD;
	} else if (!a->solved && (is_goal(s, k) ||   /* or met the pull search */
				  (a->meet = soko_pull_find(a->pull, k, hash)) != NONE)) {
		a->solved = true;
		a->goal_node = id;
	}
	return id;
}


static void propagate_dead(struct any *a, uint32_t e);

/* Expand node id, reached from expansion parent by a move of this weight
 * that took a box from was to dest (dest < 0: the player alone moved, or
 * not asked: see play_from): its moves to the table, the advisors' picks,
 * into its cell.  Returns -1 when the search must stop. */
static int expand(struct any *a, uint32_t id, uint32_t parent, uint32_t weight, int was, int dest)
{
	const struct sokoban *s = a->s;
	struct soko_scratch *sc = a->scratch;
	a->flags[id] |= NODE_EXPANDED;
	memcpy(a->key, lk_table_key(&a->table, id), a->key_size);
	int n = unpack(a, a->key, sc);
	const uint8_t *allow = NULL;
	struct soko_rel_path path = { 0 };
	if (n > 1 && s->use[SOKO_T_PI_CORRALS]) {
		int corral = soko_pi_corral(s, sc, n);
		if (corral >= 0) {
			for (int i = 0; i < n; i++)
				a->allow[sc->boxes[i]] = soko_corral_allows(s, sc, corral, sc->boxes[i]);
			allow = a->allow;
		}
	}
	size_t nmoves = soko_box_moves(&a->gen, sc, n, allow);
	soko_matcher_base(s, sc, n, &a->matcher);
	soko_features_base(&a->plan, s, sc, n);
	if (a->macros) {
		nmoves = soko_goal_macros(s, &a->plan, a->next, sc, a->gen.moves, nmoves);
		nmoves = soko_plan_dead_cut(a, sc, n, a->gen.moves, nmoves);
		/* the path's last box moves: the parent's and this state's own,
		 * not read off the ancestors' keys (each a miss in the table) */
		if (s->use[SOKO_T_RELEVANCE]) {
			path = soko_relevance_extend(&a->rel, parent != NONE ? &a->paths[parent] : NULL,
						     was, dest);
			nmoves = soko_relevance_cut_path(&a->rel, sc, &path, a->gen.moves, nmoves);
		}
	}
	a->r->expanded++;

	LK_ALLOC_GROW(a->exps, a->nexps + 1, a->exps_alloc);
	if (a->macros && s->use[SOKO_T_RELEVANCE]) {
		LK_ALLOC_GROW(a->paths, a->nexps + 1, a->paths_alloc);
		a->paths[a->nexps] = path;
	}
	uint32_t e = (uint32_t)a->nexps++;
	struct expansion *x = &a->exps[e];
	uint32_t own = lk_table_cost(&a->table, id);
	*x = (struct expansion){ .node = id, .parent = parent, .weight = weight,
				 .moves = (uint32_t)a->nmoves, .best = own };
	if (parent != NONE) {
		struct soko_features mine, before;
		soko_features_unpack(own, &mine);
		soko_features_unpack(a->exps[parent].best, &before);
		if (!soko_features_better(&mine, &before))
			x->best = a->exps[parent].best;
	}
	LK_ALLOC_GROW(a->moves, a->nmoves + nmoves + 1, a->moves_alloc);
	/* the children's keys first, so that the table's misses overlap */
	LK_ALLOC_GROW(a->child, nmoves * a->key_size + 1, a->child_alloc);
	LK_ALLOC_GROW(a->hashes, nmoves + 1, a->hashes_alloc);
	for (size_t i = 0; i < nmoves; i++)
		a->hashes[i] = child_key(a, &a->gen.moves[i], a->child + i * a->key_size);
	for (size_t i = 0; i < nmoves; i++) {
		uint32_t child = child_node(a, id, &a->gen.moves[i], a->child + i * a->key_size,
					    a->hashes[i], n);
		if (child == NONE || a->solved) {
			if (a->solved)
				a->goal_exp = e;
			soko_clear_boxes(s, sc, n);
			return -1;
		}
		if (a->flags[child] & NODE_DEAD)
			continue;
		a->moves[a->nmoves++] = (struct amove){ .child = child & 0x7fffffffu, .weight = 1 };
		x->nmoves++;
	}
	soko_clear_boxes(s, sc, n);
	if (a->opt->bounds.max_states && a->table.count >= a->opt->bounds.max_states) {
		a->limit = LK_LIMIT_STATES;
		return -1;
	}
	size_t chosen[NADVISORS];
	int nchosen = s->use[SOKO_T_ADVISORS] ? soko_fess_advise(a, x, chosen) : 0;
	for (int i = 0; i < nchosen; i++)
		a->moves[x->moves + chosen[i]].weight = 0;
	sc->count[SOKO_T_ADVISORS] += (uint64_t)nchosen;
	/* with at most two moves, the first is as good as advised: the first
	 * generated, not the better-scored (session 33 measured the better one
	 * and none: each lost a level of the slow list; benchmarks.md, h33e) */
	if (x->nmoves > 0 && x->nmoves <= 2 && nchosen == 0)
		a->moves[x->moves].weight = 0;
	LK_ALLOC_GROW(a->keys, x->nmoves, a->keys_alloc);
	soko_fess_sort_moves(a, a->moves + x->moves, x->nmoves, a->keys);
	if (x->nmoves == 0) {
		propagate_dead(a, e);
		return 0;
	}
	struct soko_features mine, best;
	soko_features_unpack(own, &mine);
	soko_features_unpack(lk_table_cost(&a->table, a->exps[a->best_exp].node), &best);
	if (e == 0 || soko_features_better(&mine, &best) ||
	    (a->flags[a->exps[a->best_exp].node] & NODE_DEAD)) {
		a->best_exp = e;
		a->best_since = a->r->expanded;
	}
	soko_fess_schedule(a, e);
	return 0;
}

/* A state all of whose moves lead to dead states is dead, and so on up
 * the tree (Festival's way): starting at expansion e. */
static void propagate_dead(struct any *a, uint32_t e)
{
	while (e != NONE) {
		const struct expansion *x = &a->exps[e];
		for (uint32_t i = 0; i < x->nmoves; i++)
			if (!(a->flags[a->moves[x->moves + i].child] & NODE_DEAD))
				return;
		a->flags[x->node] |= NODE_DEAD;
		e = x->parent;
	}
}

/* The best expansion still alive, once the best one died. */
static void new_best(struct any *a)
{
	uint32_t best = NONE;
	struct soko_features fb, f;
	for (uint32_t e = 0; e < a->nexps; e++) {
		if (a->flags[a->exps[e].node] & NODE_DEAD)
			continue;
		soko_features_unpack(lk_table_cost(&a->table, a->exps[e].node), &f);
		if (best == NONE || soko_features_better(&f, &fb)) {
			best = e;
			fb = f;
		}
	}
	a->best_exp = best == NONE ? 0 : best;
}

/* Is the child of move m, a state never expanded, whose box moved onto
 * `to` (-1: only the player moved), dead by a learned pattern (learning
 * one if need be)? */
static bool learned_dead(struct any *a, const struct amove *m, int to)
{
	const struct sokoban *s = a->s;
	if (!s->use[SOKO_T_DEADTAB])
		return false;
	struct soko_scratch *sc2 = a->scratch2;
	const unsigned char *k = lk_table_key(&a->table, m->child);
	/* a move that brought its box back (only the player moved) is not
	 * looked up: its boxes are its parent's */
	if (to < 0)
		return false;
	int n = soko_unpack(s, k, sc2);
	bool dead = soko_deadtab_check(a->deadtab, sc2, to, soko_key_player(k), true);
	soko_clear_boxes(s, sc2, n);
	return dead;
}

/* Play the next move of the expansion of least weight in cell c. */
static int play_from(struct any *a, size_t c)
{
	uint32_t e;
	if (!soko_fess_take(a, c, &e))
		return 0;   /* cell-age: only items of expansions taken by age */
	struct expansion *x = &a->exps[e];
	while (x->next < x->nmoves && a->flags[a->moves[x->moves + x->next].child])
		x->next++;
	if (x->next == x->nmoves) {
		propagate_dead(a, e);
		return 0;
	}
	const struct amove *m = &a->moves[x->moves + x->next++];
	uint32_t weight = x->weight + m->weight;
	int rc = 0;
	/* where the move took its box, for the deadlock table and the
	 * relevance cuts: read off the keys once for both */
	int was = -1, to = -1;
	if (a->s->use[SOKO_T_DEADTAB] || (a->macros && a->s->use[SOKO_T_RELEVANCE]))
		to = soko_moved_box(a->s, lk_table_key(&a->table, x->node),
				    lk_table_key(&a->table, m->child), &was);
	if (learned_dead(a, m, to)) {
		a->flags[m->child] |= NODE_DEAD;
		propagate_dead(a, e);
	} else {
		rc = expand(a, m->child, e, weight, was, to);
	}
	if (a->flags[a->exps[a->best_exp].node] & NODE_DEAD)
		new_best(a);
	soko_fess_schedule(a, e);
	return rc;
}

/* ---- the solution ---- */

static void build_path(struct any *a, const struct lk_level *level)
{
	size_t nstates = 1, i;
	const unsigned char **chain;
	if (a->goal_exp != NONE) {   /* met in an expansion: its path of expansions */
		nstates = 2;
		for (uint32_t e = a->goal_exp; a->exps[e].parent != NONE; e = a->exps[e].parent)
			nstates++;
		chain = lk_xmalloc(nstates * sizeof *chain);
		i = nstates;
		chain[--i] = lk_table_key(&a->table, a->goal_node);
		for (uint32_t e = a->goal_exp; e != NONE; e = a->exps[e].parent)
			chain[--i] = lk_table_key(&a->table, a->exps[e].node);
	} else {   /* a stored state the pull search met: the table's links back */
		for (uint32_t e = a->goal_node; e != 0; e = lk_table_parent(&a->table, e))
			nstates++;
		chain = lk_xmalloc(nstates * sizeof *chain);
		i = nstates;
		for (uint32_t e = a->goal_node; e != 0; e = lk_table_parent(&a->table, e))
			chain[--i] = lk_table_key(&a->table, e);
		chain[--i] = lk_table_key(&a->table, 0);
	}
	unsigned char *back = a->meet == NONE ? NULL :
			      soko_pull_chain(a->pull, a->meet, &chain, &nstates);
	soko_box_path(&a->gen, level, a->scratch, a->scratch2, chain, nstates, a->r);
	free(back);
	free(chain);
}

/* ---- the search ---- */

static size_t held_bytes(const struct any *a)
{
	return a->table.bytes + a->cells.bytes + a->flags_alloc + a->exps_alloc * sizeof *a->exps +
	       a->paths_alloc * sizeof *a->paths +
	       a->queued_alloc * sizeof *a->queued + a->moves_alloc * sizeof *a->moves +
	       soko_deadtab_bytes(a->deadtab) +
	       soko_pull_bytes(a->pull);
}

static bool out_of_bounds(struct any *a)
{
	const struct lk_search_options *o = a->opt;
	if (lk_bounds_cancelled(&o->bounds))
		a->limit = LK_LIMIT_INTERRUPTED;
	else if (lk_bounds_time_up(&o->bounds, a->deadline))
		a->limit = LK_LIMIT_TIME;
	else if (o->bounds.max_memory && held_bytes(a) > o->bounds.max_memory)
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
	struct soko_features f;
	soko_features(&a->plan, s, sc, n, &f);
	soko_clear_boxes(s, sc, n);
	uint32_t id;
	if (lk_table_intern(&a->table, start, lk_hash_bytes(start, a->key_size), 0,
			    soko_features_pack(&f), &id) == LK_INTERN_FULL) {
		a->limit = LK_LIMIT_MEMORY;
		return;
	}
	grow_flags(a);
	if (is_goal(s, start)) {
		a->solved = true;
		a->goal_node = 0;
		return;
	}
	if (soko_heuristic(&s->base, start, a->scratch2) == LK_H_DEAD)
		return;   /* proved dead at the start */
	if (expand(a, 0, NONE, 0, -1, -1) < 0)
		return;
	/* Festival's rhythm: every other turn the next cell round the feature
	 * space (a new cell comes next), every other the best state's cell. */
	struct soko_stop pull_stop = { .bounds = &a->opt->bounds, .deadline = a->deadline };
	for (uint64_t turn = 0;; turn++) {
		if ((turn & 63) == 0 && out_of_bounds(a))
			return;
		if (soko_pull_grow(a->pull, a->table.count - a->pull_seen, &pull_stop)) {
			a->solved = true;   /* it reached the start or pulled to a stored state */
			a->goal_node = a->pull->met == NONE ? 0 : a->pull->met;
			a->meet = a->pull->found;
			return;
		}
		a->pull_seen = a->table.count;
		if (a->hook && (turn & a->hook->every) == 0 &&
		    a->hook->due(a->hook->ctx, a->table.count + a->deadtab->work - a->work0,
				 held_bytes(a), a->r->expanded, a->exps[a->best_exp].best >> 24,
				 lk_table_key(&a->table, a->exps[a->best_exp].node))) {
			a->limit = LK_LIMIT_INTERRUPTED;   /* answered by another search */
			return;
		}
		size_t c = SIZE_MAX;
		/* the best cell's turn, less often once the best state has
		 * stood for long (it may be dead in a way no test sees) */
		bool stale = a->r->expanded - a->best_since > STALE_BEST;
		if ((turn & 1) && (!stale || (turn & 15) == 1)) {
			c = soko_fess_find_cell(a, soko_fess_cell_code(a, a->exps[a->best_exp].best));
			if (a->cells.cells[c].n == 0)
				c = SIZE_MAX;
		}
		for (size_t k = 0; c == SIZE_MAX && k < a->cells.n; k++) {
			size_t t = a->next_cell;
			a->next_cell = (a->next_cell + 1) % a->cells.n;
			if (a->cells.cells[t].n)
				c = t;
		}
		if (c == SIZE_MAX) {   /* everything expanded: no solution */
			/* restart: a first search that ran dry may still be
			 * answered from one of its positions */
			if (a->macros && a->hook && a->hook->dry && a->hook->dry(a->hook->ctx, held_bytes(a)))
				a->limit = LK_LIMIT_INTERRUPTED;
			return;
		}
		if (play_from(a, c) < 0)
			return;
	}
}

void soko_fess(const struct lk_level *level, const struct lk_search_options *opt,
	       struct lk_search_result *r, bool macros, const struct soko_fess_hook *hook,
	       struct soko_pull *pull, const struct soko_plan *plan)
{
	const struct sokoban *s = (const struct sokoban *)level;
	double t0 = lk_now(), cpu0 = lk_thread_cpu();
	lk_search_result_release(r);
	struct any a = { .s = s, .opt = opt, .r = r, .deadline = lk_bounds_deadline(&opt->bounds, t0),
			 .goal_exp = NONE, .goal_node = NONE, .macros = macros, .hook = hook,
			 .meet = NONE };
	a.key_size = level->key_size;
	if (s->impossible || s->forward) {
		r->status = s->impossible ? LK_UNSOLVABLE : LK_UNKNOWN;
		r->seconds = lk_now() - t0;
		r->cpu_seconds = lk_thread_cpu() - cpu0;
		return;
	}
	size_t n = (size_t)s->cells;
	lk_table_init(&a.table, a.key_size, opt->bounds.max_memory);
	soko_movegen_init(&a.gen, s);
	soko_matcher_init(&a.matcher, s);
	if (plan)
		soko_plan_view(&a.plan, plan, s);
	else
		soko_plan_build(&a.plan, s, s->use[SOKO_T_PACKING],
				&(struct soko_stop){ .bounds = &opt->bounds, .deadline = a.deadline });
	soko_relevance_init(&a.rel, s);
	struct soko_pull own_pull;
	if (!pull)
		soko_pull_init(pull = &own_pull, s, opt->bounds.max_memory / 4);
	a.pull = pull;
	const struct lk_table *outer = soko_pull_attach(pull, &a.table);
	a.next = lk_xcalloc((size_t)a.plan.nareas + 1, sizeof *a.next);
	soko_deadtab_init(&a.own_deadtab, s, level->scratch_size);
	a.deadtab = s->deadtab ? s->deadtab : &a.own_deadtab;
	a.scratch = lk_xcalloc(1, level->scratch_size);
	a.scratch2 = lk_xcalloc(1, level->scratch_size);
	soko_scratch(s, a.scratch);
	soko_scratch(s, a.scratch2);
	a.work0 = a.deadtab->work;   /* after the reset of a new search */
	uint64_t matched0 = a.deadtab->matched, reused0 = a.deadtab->reused;
	uint64_t big0 = a.deadtab->matched_big, unproven0 = a.deadtab->unproven;
	a.key = lk_xcalloc(1, a.key_size);
	a.child = lk_xcalloc(1, a.key_size);
	a.child_alloc = a.key_size;
	a.allow = lk_xcalloc(n, 1);
	a.adv_mark = lk_xcalloc(n, sizeof *a.adv_mark);
	a.adv_goal = lk_xcalloc(n, sizeof *a.adv_goal);
	a.adv_stack = lk_xcalloc(n, sizeof *a.adv_stack);
	a.open_goal = -1;

	if (hook && hook->live)
		*hook->live = &a;
	run(&a);
	if (hook && hook->live)
		*hook->live = NULL;
	/* the shared table's counters before writing the path out, which may
	 * start a search that resets them */
	((struct soko_scratch *)a.scratch)->count[SOKO_T_DEADTAB] += a.deadtab->matched - matched0;
	((struct soko_scratch *)a.scratch)->count[SOKO_T_ALIVE_REUSE] += a.deadtab->reused - reused0;
	((struct soko_scratch *)a.scratch)->count[SOKO_T_BIG_CORRALS] += a.deadtab->matched_big - big0;
	((struct soko_scratch *)a.scratch)->count[SOKO_T_PROVEN_ALIVE] +=
		a.deadtab->unproven - unproven0;

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
	r->peak_bytes = a.table.peak_bytes + a.cells.bytes + a.flags_alloc +
			a.exps_alloc * sizeof *a.exps + a.queued_alloc * sizeof *a.queued +
			a.moves_alloc * sizeof *a.moves + a.paths_alloc * sizeof *a.paths;
	/* everything the search holds per state beyond the key: the table, the
	 * node flags, the move lists, the expansions and the cells */
	size_t held = a.table.bytes + a.cells.bytes + a.flags_alloc +
		      a.nexps * sizeof *a.exps + a.queued_alloc * sizeof *a.queued +
		      a.nmoves * sizeof *a.moves + (a.paths ? a.nexps * sizeof *a.paths : 0);
	r->overhead_per_state = a.table.count ? (double)held / (double)a.table.count -
						       (double)a.key_size : 0.0;
	r->found_by = a.meet == NONE ? LK_FORWARD : LK_BOTH;
	((struct soko_scratch *)a.scratch)->count[SOKO_T_PULL] += a.solved && a.meet != NONE;
	((struct soko_scratch *)a.scratch)->count[SOKO_T_PULL_WEIGHTED] +=
		a.solved && a.meet != NONE && pull->weighted;
	((struct soko_scratch *)a.scratch)->count[SOKO_T_PULL_BOTH] +=
		a.solved && a.meet != NONE && pull->share[0] && pull->share[1];
	((struct soko_scratch *)a.scratch)->count[SOKO_T_PULL_TWO_WAY] +=
		a.solved && a.meet != NONE && a.goal_exp == NONE && a.goal_node != 0;
	((struct soko_scratch *)a.scratch)->count[SOKO_T_MACROS] += a.gen.long_moves;
	((struct soko_scratch *)a.scratch)->count[SOKO_T_PACKING] += (uint64_t)a.plan.ordered;
	((struct soko_scratch *)a.scratch)->count[SOKO_T_PACK_ENTRY] += a.plan.entry_refused;
	((struct soko_scratch *)a.scratch)->count[SOKO_T_PLAYABLE_PARK] += a.plan.park_refused;
	((struct soko_scratch *)a.scratch)->count[SOKO_T_PARK_RETRY] += a.plan.park_retried;
	if (a.plan.rooms)
		((struct soko_scratch *)a.scratch)->count[SOKO_T_ROOMS] += (uint64_t)a.plan.rooms->base_links;
	if (a.plan.park)
		((struct soko_scratch *)a.scratch)->count[SOKO_T_PARKING] += (uint64_t)a.plan.park->nparked;
	if (a.plan.park)
		((struct soko_scratch *)a.scratch)->count[SOKO_T_PLAYABLE_PLAN] += a.plan.park->playable;
	if (a.plan.park)
		((struct soko_scratch *)a.scratch)->count[SOKO_T_PLAN_REPAIR] += a.plan.park->repaired;
	if (a.plan.park)
		((struct soko_scratch *)a.scratch)->count[SOKO_T_SHUFFLE_PLAN] += a.plan.park->shuffled;
	soko_technique_counts(level, a.scratch, r->technique_counts);
	soko_technique_counts(level, a.scratch2, r->technique_counts);
	soko_cells_release(&a.cells);
	free(a.allow);
	free(a.adv_mark);
	free(a.adv_goal);
	free(a.adv_stack);
	free(a.closed);
	free(a.open_dist);
	soko_imagine_free(a.imagine);
	free(a.pd_mark);
	free(a.pd_stack);
	free(a.pd_next);
	free(a.pd_next2);
	free(a.pd_step);
	free(a.pd_plan);
	free(a.pd_missing);
	free(a.pd_cache);
	free(a.pd_used);
	free(a.pd_key);
	free(a.pd_parent);
	free(a.pd_group);
	free(a.next);
	free(a.flags);
	free(a.exps);
	free(a.paths);
	free(a.queued);
	free(a.moves);
	free(a.keys);
	free(a.key);
	free(a.child);
	free(a.hashes);
	free(a.scratch);
	free(a.scratch2);
	soko_plan_release(&a.plan);
	soko_relevance_release(&a.rel);
	soko_pull_attach(pull, outer);
	if (pull == &own_pull)
		soko_pull_release(pull);
	soko_deadtab_release(&a.own_deadtab);
	soko_movegen_release(&a.gen);
	soko_matcher_release(&a.matcher);
	lk_table_release(&a.table);
	r->seconds = lk_now() - t0;
	r->cpu_seconds = lk_thread_cpu() - cpu0;
}
