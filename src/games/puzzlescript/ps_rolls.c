/*
 * ps_rolls.c - the probability-free questions about a PuzzleScript game
 * that draws random numbers (solve --rolls): "solvable for some roll of the
 * dice" and "solvable whatever the dice say".  Neither depends on a seed.
 *
 * Every outcome of a turn is enumerated: the turn is played with its draws
 * chosen (ps_runtime's choosing mode), first all 0, then as an odometer
 * over the draws' ranges (a draw's range may depend on earlier draws, and
 * the odometer only ever changes the last draw it can, replaying the ones
 * before it as they were), up to MAX_OUTCOMES per input.  The states are
 * boards (the keys with no generator state), explored breadth-first from
 * the start within the search's bounds, and the graph kept:
 *  - some: breadth-first search for a won state over every outcome of
 *    every input; the solution is the inputs on the way, for lucky dice;
 *  - every: the states from which some input wins whatever the outcome,
 *    by the attractor of the won states (a state wins in r + 1 moves when
 *    one input's every outcome wins in r or fewer), over the whole graph.
 * An input with more outcomes than MAX_OUTCOMES is cut short: a yes found
 * without it stands, a no becomes unknown (and says why).
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/search.h"
#include "levelkit/table.h"
#include "ps_game.h"
#include "ps_runtime.h"

#define MAX_OUTCOMES 1024

struct rolls {
	const struct lk_level *level;
	struct ps_runtime *rt;
	size_t ks;
	int ninputs;
	const char *letters;
	const int *codes;
	struct lk_table t;          /* the states; a state's cost field: its input from the parent */
	/* the graph: pair p = state * ninputs + input has outcomes
	 * out[first[p] .. first[p + 1]) (state ids), complete unless cut[p] */
	uint32_t *out;
	size_t nout, out_alloc;
	size_t *first;
	bool *cut;
	size_t npairs, pairs_alloc;
	bool any_cut;
	unsigned char *key, *next;
};

static void add_outcome(struct rolls *r, uint32_t id)
{
	LK_ALLOC_GROW(r->out, r->nout + 1, r->out_alloc);
	r->out[r->nout++] = id;
}

/* Every outcome of input (its engine code) from key: each new board
 * stored (parent, input), each outcome's id added to the graph once.
 * Returns the state id of a won outcome met for the first time, or
 * LK_NO_ENTRY; *full when the table refused a state. */
static uint32_t outcomes(struct rolls *r, uint32_t from, int input, bool *full)
{
	struct ps_runtime *rt = r->rt;
	size_t start = r->nout;
	uint32_t won = LK_NO_ENTRY;
	int n = 0;
	rt->nforced = 0;
	for (;;) {
		rt->choosing = true;
		rt->nchoices = 0;
		rt->choice_overflow = false;
		ps_load(rt, r->key);
		unsigned flags = ps_turn(rt, r->codes[input], NULL);
		rt->choosing = false;
		if (!(flags & PS_AGAIN_LIMIT) && !rt->choice_overflow) {
			ps_store(rt, r->next);
			uint32_t id;
			enum lk_intern got = lk_table_intern(&r->t, r->next, lk_hash_bytes(r->next, r->ks), from,
							     (uint32_t)input, &id);
			if (got == LK_INTERN_FULL) {
				*full = true;
				return won;
			}
			bool dup = false;
			for (size_t k = start; k < r->nout && !dup; k++)
				dup = r->out[k] == id;
			if (!dup)
				add_outcome(r, id);
			if (got == LK_INTERN_ADDED && ps_key_won(rt, r->next) && won == LK_NO_ENTRY)
				won = id;
		}
		if (rt->choice_overflow || ++n >= MAX_OUTCOMES) {
			r->cut[from * (size_t)r->ninputs + (size_t)input] = true;
			r->any_cut = true;
			break;
		}
		/* the next choice: the last draw that can take another value */
		int used = rt->nchoices;
		for (int k = rt->nforced; k < used; k++)
			rt->forced[k] = 0;
		int p = used - 1;
		while (p >= 0 && rt->forced[p] + 1 >= rt->ranges[p])
			p--;
		if (p < 0)
			break;
		rt->forced[p]++;
		rt->nforced = p + 1;
	}
	return won;
}

static void write_unknown(struct lk_record *rec, const char *limit, uint32_t states)
{
	lk_record_set(rec, "solvable", "unknown");
	lk_record_set(rec, "limit", limit);
	lk_record_setf(rec, "states", "%u", states);
	lk_record_unset(rec, "solution");
	lk_record_unset(rec, "moves");
	lk_record_unset(rec, "optimal");
}

int ps_rolls_solve(const struct lk_level *level, const struct lk_search_options *opt,
		   struct lk_record *rec)
{
	struct rolls r = { .level = level, .ks = level->key_size };
	enum ps_rolls which = ps_level_rolls(level);
	r.ninputs = ps_level_inputs(level, &r.letters, &r.codes);
	r.rt = ps_level_borrow(level);
	struct ps_runtime *rt = r.rt;
	bool keyed = rt->rng_keyed;
	rt->rng_keyed = false;   /* the dice are chosen: no generator state */
	if (!rt->forced) {
		rt->forced = lk_xcalloc(PS_MAX_CHOICES, sizeof *rt->forced);
		rt->ranges = lk_xcalloc(PS_MAX_CHOICES, sizeof *rt->ranges);
	}
	r.key = lk_xcalloc(1, r.ks);
	r.next = lk_xcalloc(1, r.ks);
	lk_table_init(&r.t, r.ks, opt->bounds.max_memory ? opt->bounds.max_memory / 2 : 0);
	double deadline = lk_bounds_deadline(&opt->bounds, lk_now());

	/* the start, after its start rules (which may roll too: their first
	 * outcome, as every later turn's are all enumerated) */
	rt->choosing = true;
	rt->nchoices = 0;
	rt->nforced = 0;
	ps_start(rt, NULL);
	rt->choosing = false;
	if (rt->nchoices > 0)
		r.any_cut = true;   /* the start rolled: only its first outcome was seen */
	ps_store(rt, r.key);
	uint32_t id0;
	lk_table_intern(&r.t, r.key, lk_hash_bytes(r.key, r.ks), LK_NO_ENTRY, 0, &id0);
	uint32_t goal = ps_key_won(rt, r.key) ? 0 : LK_NO_ENTRY;
	const char *limit = NULL;
	bool full = false;
	uint32_t head = 0;
	for (; head < r.t.count && (which == PS_ROLLS_EVERY || goal == LK_NO_ENTRY); head++) {
		if ((head & 63) == 0) {
			if (lk_bounds_cancelled(&opt->bounds)) {
				limit = "interrupted";
				break;
			}
			if (lk_bounds_time_up(&opt->bounds, deadline)) {
				limit = "time";
				break;
			}
		}
		if (opt->bounds.max_states && r.t.count >= opt->bounds.max_states) {
			limit = "states";
			break;
		}
		/* the pairs of this state */
		size_t need = ((size_t)head + 1) * (size_t)r.ninputs;
		if (need + 1 > r.pairs_alloc) {
			size_t na = r.pairs_alloc ? r.pairs_alloc * 2 : 1024;
			while (na < need + 1)
				na *= 2;
			r.first = lk_xrealloc(r.first, na * sizeof *r.first);
			r.cut = lk_xrealloc(r.cut, na * sizeof *r.cut);
			r.pairs_alloc = na;
		}
		memcpy(r.key, lk_table_key(&r.t, head), r.ks);
		bool won_here = ps_key_won(rt, r.key);
		for (int in = 0; in < r.ninputs; in++) {
			size_t p = (size_t)head * (size_t)r.ninputs + (size_t)in;
			r.first[p] = r.nout;
			r.cut[p] = false;
			if (won_here)
				continue;   /* a won state ends the level */
			uint32_t w = outcomes(&r, head, in, &full);
			if (w != LK_NO_ENTRY && goal == LK_NO_ENTRY)
				goal = w;
			if (full)
				break;
		}
		r.npairs = need;
		r.first[need] = r.nout;
		if (full) {
			limit = "memory";
			break;
		}
	}
	bool complete = !limit && head >= r.t.count;

	lk_record_set(rec, "rolls", which == PS_ROLLS_SOME ? "some" : "every");
	lk_record_unset(rec, "seed");
	if (which == PS_ROLLS_SOME) {
		if (goal != LK_NO_ENTRY) {
			/* the inputs from the start, for dice that fall right */
			size_t len = 0;
			for (uint32_t s = goal; s != 0; s = lk_table_parent(&r.t, s))
				len++;
			char *sol = lk_xmalloc(len + 1);
			sol[len] = 0;
			for (uint32_t s = goal; s != 0; s = lk_table_parent(&r.t, s))
				sol[--len] = r.letters[lk_table_cost(&r.t, s)];
			lk_record_set(rec, "solvable", "yes");
			lk_record_setf(rec, "moves", "%zu", strlen(sol));
			lk_record_set(rec, "optimal", "moves");
			lk_record_set(rec, "solution", sol);
			lk_record_setf(rec, "states", "%u", head);
			lk_record_unset(rec, "limit");
			free(sol);
		} else if (complete && !r.any_cut) {
			lk_record_set(rec, "solvable", "no");
			lk_record_setf(rec, "states", "%u", head);
			lk_record_unset(rec, "solution");
			lk_record_unset(rec, "moves");
			lk_record_unset(rec, "optimal");
			lk_record_unset(rec, "limit");
		} else {
			write_unknown(rec, limit ? limit : "outcomes", head);
		}
	} else if (!complete) {
		write_unknown(rec, limit, head);
	} else {
		/* the attractor of the won states: remaining[p] outcomes of pair
		 * p not yet winning; a state wins at rank r + 1 when one of its
		 * pairs has none left, r the rank of its last outcome to win */
		uint32_t n = r.t.count;
		uint32_t *rank = lk_xmalloc((size_t)n * sizeof *rank);
		uint32_t *remaining = lk_xcalloc(r.npairs + 1, sizeof *remaining);
		size_t *pred_first = lk_xcalloc((size_t)n + 1, sizeof *pred_first);
		uint32_t *pred = lk_xmalloc((r.nout + 1) * sizeof *pred);
		uint32_t *queue = lk_xmalloc(((size_t)n + 1) * sizeof *queue);
		for (uint32_t s = 0; s < n; s++)
			rank[s] = UINT32_MAX;
		for (size_t p = 0; p < r.npairs; p++) {
			remaining[p] = (uint32_t)(r.first[p + 1] - r.first[p]);
			for (size_t k = r.first[p]; k < r.first[p + 1]; k++)
				pred_first[r.out[k] + 1]++;
		}
		for (uint32_t s = 0; s < n; s++)
			pred_first[s + 1] += pred_first[s];
		size_t *fill = lk_xmalloc(((size_t)n + 1) * sizeof *fill);
		memcpy(fill, pred_first, ((size_t)n + 1) * sizeof *fill);
		for (size_t p = 0; p < r.npairs; p++)
			for (size_t k = r.first[p]; k < r.first[p + 1]; k++)
				pred[fill[r.out[k]]++] = (uint32_t)p;
		free(fill);
		size_t qh = 0, qt = 0;
		for (uint32_t s = 0; s < n; s++)
			if (ps_key_won(rt, lk_table_key(&r.t, s))) {
				rank[s] = 0;
				queue[qt++] = s;
			}
		while (qh < qt) {
			uint32_t s = queue[qh++];
			for (size_t k = pred_first[s]; k < pred_first[s + 1]; k++) {
				size_t p = pred[k];
				uint32_t from = (uint32_t)(p / (size_t)r.ninputs);
				if (--remaining[p] > 0 || r.cut[p] || rank[from] != UINT32_MAX)
					continue;
				rank[from] = rank[s] + 1;
				queue[qt++] = from;
			}
		}
		if (rank[0] != UINT32_MAX) {
			lk_record_set(rec, "solvable", "yes");
			lk_record_setf(rec, "moves", "%u", rank[0]);
			lk_record_set(rec, "optimal", "moves");
			lk_record_unset(rec, "limit");
		} else if (r.any_cut) {
			lk_record_set(rec, "solvable", "unknown");
			lk_record_set(rec, "limit", "outcomes");
			lk_record_unset(rec, "moves");
			lk_record_unset(rec, "optimal");
		} else {
			lk_record_set(rec, "solvable", "no");
			lk_record_unset(rec, "moves");
			lk_record_unset(rec, "optimal");
			lk_record_unset(rec, "limit");
		}
		/* a strategy is not one line of moves: no solution */
		lk_record_unset(rec, "solution");
		lk_record_setf(rec, "states", "%u", n);
		free(rank);
		free(remaining);
		free(pred_first);
		free(pred);
		free(queue);
	}
	if (r.any_cut)
		lk_record_setf(rec, "rolls-note", "a turn had more than %d outcomes (or %d draws); its other "
			       "outcomes were not seen", MAX_OUTCOMES, PS_MAX_CHOICES);
	else
		lk_record_unset(rec, "rolls-note");
	rt->rng_keyed = keyed;
	ps_level_give_back(level, rt);
	lk_table_release(&r.t);
	free(r.out);
	free(r.first);
	free(r.cut);
	free(r.key);
	free(r.next);
	return 1;
}
