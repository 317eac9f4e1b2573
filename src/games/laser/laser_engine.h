/*
 * laser_engine.h - the solver's state, shared by the search
 * (laser_search.c) and the handling of its leaves (laser_leaf.c).
 *
 * Every change to the state goes through SET, which records the old value
 * on a trail; backtracking undoes the trail to a mark.
 */
#ifndef LEVELKIT_LASER_ENGINE_H
#define LEVELKIT_LASER_ENGINE_H



#include <string.h>
#include <time.h>

#include "laser_facts.h"
#include "levelkit/rng.h"

#define UNDECIDED (-1)
#define EMPTY (-2)
#define MAX_BEAMS (LK_LASER_MAX_CELLS * 3)

/* A learned constraint of the generator: no solution may use all these
 * cells (pieces placed or beams crossing) and at least these pieces of
 * each tray line (cells are ignored when cells_matter is false). */
struct laser_nogood {
	uint64_t cells[LK_LASER_MAX_CELLS / 64];
	int16_t need[LK_LASER_MAX_LINES];
};

struct lk_laser_nogoods {
	size_t n, alloc;
	bool cells_matter;
	struct laser_nogood *v;
};

struct pbeam {
	int16_t from;
	int8_t side;
	bool done;
	int64_t value;
};

struct trail {
	void *p;
	int64_t old;
	int size;
};

struct engine {
	const struct lk_laser *lv;
	const struct lk_laser_search_options *o;
	lk_laser_visit_fn visit;
	void *ctx;
	struct lk_laser_result *r;
	int16_t at[LK_LASER_MAX_CELLS];       /* UNDECIDED, EMPTY, or a kind */
	uint8_t recv[LK_LASER_MAX_CELLS];
	int64_t recv_value[LK_LASER_MAX_CELLS][4];
	int16_t recv_from[LK_LASER_MAX_CELLS][4];
	int64_t tsum[LK_LASER_MAX_CELLS];     /* targets: the power received so far */
	bool fired[LK_LASER_MAX_CELLS];
	int spare[LK_LASER_MAX_LINES], gspare[LK_LASER_MAX_LINES];
	int placed_line[LK_LASER_MAX_LINES];
	int spare_type[LK_LASER_NTYPES], fired_type[LK_LASER_NTYPES];
	int unfired_type[LK_LASER_NTYPES], placed_type[LK_LASER_NTYPES];
	int nplaced, unfired_placed, targets_left, spare_total, open_beams;
	int16_t placed_cell[LK_LASER_MAX_CELLS];   /* the first nplaced are in use */
	int64_t lost, slack;
	struct pbeam pend[MAX_BEAMS];
	int npend;
	struct trail *trail;
	size_t ntrail, trail_alloc;
	/* look-ahead marks: stamp-based, so no clearing per node */
	unsigned stamp;
	unsigned mark[LK_LASER_MAX_CELLS];
	uint8_t mark_state[LK_LASER_MAX_CELLS];
	struct laser_fact_cache cache;
	/* tidy searches with a concept run once per class of counts of the
	 * types it reads: in a run, between fmin[t] and fmax[t] pieces of
	 * type t fire (laser_search.c) */
	int fmin[LK_LASER_NTYPES], fmax[LK_LASER_NTYPES];
	struct lk_rng rng;
	bool shuffle, stop, need_facts, need_network, need_power;
	double t0;   /* lk_now() at the start */
	/* leaves */
	struct laser_sim sim;
	int16_t kinds[LK_LASER_MAX_CELLS];
	struct lk_laser_placement pl;
	struct lk_laser_facts facts;
	int free_cells[LK_LASER_MAX_CELLS], nfree;
};

/* The state's fields are 1, 2, 4 or 8 bytes wide. */
static inline void laser_save(struct engine *e, void *p, size_t size)
{
	if (e->ntrail == e->trail_alloc)
		LK_ALLOC_GROW(e->trail, e->ntrail + 1, e->trail_alloc);
	struct trail *t = &e->trail[e->ntrail++];
	t->p = p;
	t->size = (int)size;
	switch (size) {
	case 1: t->old = *(uint8_t *)p; break;
	case 2: t->old = *(int16_t *)p; break;
	case 4: t->old = *(int32_t *)p; break;
	default: t->old = *(int64_t *)p; break;
	}
}

static inline void laser_undo(struct engine *e, size_t to)
{
	while (e->ntrail > to) {
		struct trail *t = &e->trail[--e->ntrail];
		switch (t->size) {
		case 1: *(uint8_t *)t->p = (uint8_t)t->old; break;
		case 2: *(int16_t *)t->p = (int16_t)t->old; break;
		case 4: *(int32_t *)t->p = (int32_t)t->old; break;
		default: *(int64_t *)t->p = t->old; break;
		}
	}
}

#define SET(e, lvalue, v) (laser_save((e), &(lvalue), sizeof(lvalue)), (lvalue) = (v))

static inline bool laser_is_placed(const struct engine *e, int c)
{
	return e->at[c] >= e->lv->nfixed && e->at[c] < e->lv->nfixed + e->lv->ntray;
}

/* Can a piece of line l still be put down? */
static inline bool laser_line_free(const struct engine *e, int l)
{
	return e->spare[l] > 0 && e->gspare[e->lv->line_group[l]] > 0;
}

/* Must the target on c still receive power (it is short of its need, or
 * a target the generator places has received nothing)? */
static inline bool laser_target_short(const struct engine *e, int c)
{
	const struct laser_kind *k = &e->lv->kind[e->at[c]];
	return k->any_need ? !e->fired[c] : e->tsum[c] < k->value;
}

/* The reasoning at a node (laser_prune.c).  allowed: a bit per type that
 * may still be placed; the others would decide the concept filter. */
bool laser_nogood_cut(const struct engine *e);
bool laser_concept_cut(const struct engine *e, unsigned *allowed);
bool laser_lookahead(struct engine *e, unsigned allowed);
bool laser_balance_ok(const struct engine *e, unsigned allowed);
bool laser_values_ok(const struct engine *e, unsigned allowed);
bool laser_reach_ok(const struct engine *e, unsigned allowed);

/* The node's firing state for the facts over powers (exact at a leaf). */
void laser_engine_view(const struct engine *e, bool final, struct laser_view *v);

/* No beam is left: judge the placement and report its solutions
 * (laser_leaf.c). */
void laser_leaf(struct engine *e);
/* The concept filter on exact facts. */
bool laser_concept_ok(const struct engine *e, const struct lk_laser_facts *f);

#endif
