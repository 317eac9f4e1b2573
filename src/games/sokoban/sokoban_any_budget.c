/*
 * sokoban_any_budget.c - the portfolio of Sokoban's search for any solution
 * (solve -a any): greedy best-first search in both directions (greedy
 * first) and the feature-space search of sokoban_any.c, and how the bounds
 * are shared between them (docs/games/sokoban.md, "Hard levels").
 *
 * Greedy first solves most levels in a few thousand states; where it does
 * not, it used to run on for 30 % of the time before the feature-space
 * search began (9 s of Microban 153's 15 at -t 30).  With greedy slices
 * it runs in slices counted in states, not seconds (so the schedule is the
 * same on any machine and load): a first slice of SLICE_FIRST states, then
 * the feature-space search, which hands the turn back to greedy search for
 * a slice SLICE_GROWTH times bigger (greedy search starts again: it cannot
 * be resumed) each time its own work (states stored plus the deadlock
 * table's small-search positions) reaches SLICE_WAIT times that slice.
 * Greedy search still gets at most 30 % of the time and half the states
 * in all; the feature-space search is resumed where it stopped.
 *
 * Greedy share: that 30 % was the one timed part of the schedule (where a
 * slice ran out of it depended on the machine's speed that moment, and so
 * did everything after); it is counted in states instead, GREEDY_RATE a
 * second of the time bound, so that a level's course is the same on every
 * run with the same bounds.  Every slice also stops at the level's time
 * bound (it used to stop only at the share's: a slice begun late overran
 * the bound by seconds).
 *
 * Stall turns: the first feature-space search (goal-room macros, goal cuts
 * and relevance cuts, which may lose solutions) may go on for ever on a
 * level whose packing order is wrong; once it has packed a box and then
 * done STALL_WINDOW work without packing more, the sound search gets a
 * turn of STALL_STATES states, both growing STALL_GROWTH times a turn.
 * Unordered turns (off by default): every other sound turn, the first
 * first, runs under a plan without the packing order, in case the order
 * is what misleads both searches.  Unparked turns (off by default): a
 * third kind in the rotation, under the order without the parking plan.
 * Dry turns (off by default): where the first search runs dry at once (on
 * Sasquatch II 10 and III 39 after 51 and 426 expansions), the sound
 * search run again in its place had no turns beside it; with them it gets
 * the same stall turns, of the other kinds only.
 * Pull-cap turns (off by default): each turn that does not answer raises
 * the cap on the pull search's states in YASS's order fourfold
 * (sokoban_pull.c): the forward side is stuck, so the pull side grows.
 * Replan (off by default): where the first search's best position at such
 * a stall shows a box shut off by packed boxes from the goals left
 * (sokoban_replan.c), the first search stops instead and runs again from
 * the start under a plan that fills those packed goals last (at most
 * MAX_REPLANS times; the window and the turns go on as they were).
 * Restart (off by default): where a parking plan is in force, before each
 * turn of the sound search and when the first search runs dry, a round of
 * fresh searches from positions on its best path (sokoban_any_restart.c),
 * RESTART_SHARE times the turn's states; an answer ends the level, a "no"
 * only that position.
 *
 * Dry restart (off by default): where the first search runs dry, restart's
 * rounds at the stalls of the sound search run again (by the stall rule,
 * counted afresh from its start), from its best path, parking plan or not:
 * on Sasquatch II 10 and III 39, which have no parking plan at the start,
 * restart never ran (benchmarks.md, h41r).
 *
 * The pull search (sokoban_pull.c) is the level's, not a search's: made
 * once here, it is grown and met by the first search, the stall turns and
 * the search run again without cuts, each resuming it where the last left
 * it, its memory counted in the bound of each.
 */
#include <stdint.h>
#include <stdlib.h>

#include "sokoban_any.h"

/* The share of the bounds greedy search gets (greedy-first). */
#define GREEDY_TIME 0.3
#define GREEDY_MEMORY 0.5
/* greedy-share: greedy search's rate, states stored a processor second,
 * that turns GREEDY_TIME of the time bound into states (both ways, about
 * 134,000 on Sasquatch II 50, the slowest a state: so the share is at most
 * about 30 % of the time there, less on levels where greedy runs faster,
 * up to five times faster on Sasquatch's smaller ones) */
#define GREEDY_RATE 150000.0

/* greedy-share's rate: GREEDY_RATE, or what a test set (small, so that
 * small levels' greedy searches stop at their share too). */
static double greedy_rate = GREEDY_RATE;

void soko_any_set_greedy_rate(double states_per_second)
{
	greedy_rate = states_per_second > 0 ? states_per_second : GREEDY_RATE;
}
/* greedy-slices: the first slice (states), each next slice's growth, and
 * the feature-space work each slice waits for (times its states). */
#define SLICE_FIRST ((size_t)1 << 17)
#define SLICE_GROWTH 4
#define SLICE_WAIT 8

/* The first slice's states: SLICE_FIRST, or what a test set (small, so
 * that small levels hand over too). */
static size_t slice_first = SLICE_FIRST;

void soko_any_set_slice_first(size_t states)
{
	slice_first = states ? states : SLICE_FIRST;
}

/* Add the search effort and counters of an earlier search e to r. */
void soko_any_add_effort(struct lk_search_result *r, const struct lk_search_result *e)
{
	r->expanded += e->expanded;
	r->generated += e->generated;
	if (e->peak_bytes > r->peak_bytes)
		r->peak_bytes = e->peak_bytes;
	for (int i = 0; i < LK_MAX_TECHNIQUES; i++)
		r->technique_counts[i] += e->technique_counts[i];
}

/* stall-turns: the first search's window (its work, states stored plus
 * the deadlock table's small-search positions, without a new most packed
 * boxes, counted once it has packed one: about 4 processor seconds, on
 * Microban 153 and Sasquatch I 36 alike, where expansions differ 15-fold
 * in cost), the sound search's first turn (states), and each next
 * window's and turn's growth. */
#define STALL_WINDOW ((uint64_t)1 << 20)
#define STALL_STATES ((size_t)1 << 18)
#define STALL_GROWTH 4
/* replan: the most new plans a search makes (each runs the first search
 * again from the start) */
#define MAX_REPLANS 3
/* restart: a round's states, times the sound search's next turn (rounds
 * between the stalls too, every 2^21 of the first search's work, lost
 * Sasquatch II 19 and III 43 of the slow list: benchmarks.md, h39a) */
#define RESTART_SHARE 2

/* The first window and turn: the defaults, or what a test set (small, and
 * counted from the first expansion, packed or not, so that small levels,
 * which pack a box with nearly every move, hand over too). */
static uint64_t stall_window = STALL_WINDOW;
static size_t stall_states = STALL_STATES;
static bool stall_test;

void soko_any_set_stall_first(uint64_t work, size_t states)
{
	stall_test = work != 0;
	stall_window = work ? work : STALL_WINDOW;
	stall_states = states ? states : STALL_STATES;
}

/* The sound search's turns beside the first search (stall turns). */
struct stall {
	const struct lk_level *level;
	const struct lk_search_options *opt;
	const struct soko_fess_hook *inner;   /* greedy slices, or NULL */
	struct soko_pull *pull;               /* the level's pull search */
	const struct soko_plan *plan;         /* the level's plan */
	double t0;
	uint64_t window;      /* work without progress before the next turn */
	uint64_t stalled;     /* of it done so far */
	uint64_t last;        /* the first search's work at the last ask */
	unsigned best;        /* the most packed boxes seen */
	size_t states;        /* the next turn's states */
	bool done;            /* no turn left */
	bool answered;        /* a turn answered: in found */
	struct lk_search_result found, spent;   /* the answer; the other turns' effort */
	/* replan: goals to fill late (per cell), how many plans made since the
	 * level's, and a new plan due (the first search stopped for it) */
	uint8_t *late;
	int replans;
	bool replan;
	/* restart: the first search while it runs, and the restarts made */
	struct any *live;
	struct soko_restart restart;
	/* unordered-turns: the plan without the packing order (built at the
	 * first turn that uses it), and the sound turns run so far */
	struct soko_plan unordered;
	bool have_unordered;
	unsigned turns;
	/* unparked-turns: a view of plan without its parking plan (made at the
	 * first turn that uses it) */
	struct soko_plan unparked;
	bool have_unparked;
	/* dry-turns: the turns are beside the sound search run again (so not
	 * of its own plan's kind, and no replan or restart) */
	bool again;
};

/* The kinds of sound turn: under the level's plan, without its packing
 * order, without its parking plan. */
enum turn_kind { TURN_PLAN, TURN_UNORDERED, TURN_UNPARKED };

/* The kinds of turn st rotates through, the other plans first (so the
 * first turn is unordered, as unordered-turns had it); how many. */
static unsigned turn_kinds(const struct stall *st, enum turn_kind kind[3])
{
	const struct sokoban *s = (const struct sokoban *)st->level;
	unsigned n = 0;
	if (s->use[SOKO_T_UNORDERED] && st->plan && st->plan->ordered > 0)
		kind[n++] = TURN_UNORDERED;
	if (s->use[SOKO_T_UNPARKED] && st->plan && st->plan->park)
		kind[n++] = TURN_UNPARKED;
	if (!st->again)   /* the search run again is under the plan itself */
		kind[n++] = TURN_PLAN;
	return n;
}

/* A turn of the sound search (no goal-room macros, no relevance cuts), from
 * its start: it cannot be resumed, so each turn is STALL_GROWTH times the
 * last and the work done again is at most a third of its own. */
static bool sound_turn(struct stall *st, size_t held)
{
	struct lk_search_options o = *st->opt;
	size_t all = o.bounds.max_memory ? o.bounds.max_memory : (size_t)1 << 30;
	double left = o.bounds.max_seconds - (lk_now() - st->t0);
	if (held >= all || (o.bounds.max_seconds > 0 && left <= 0)) {
		st->done = true;
		return false;
	}
	/* beside the first search; the pull search, in held, the turn counts */
	o.bounds.max_memory = all - held + soko_pull_bytes(st->pull);
	if (o.bounds.max_seconds > 0)
		o.bounds.max_seconds = left;
	bool capped = !o.bounds.max_states || st->states < o.bounds.max_states;
	if (capped)
		o.bounds.max_states = st->states;
	const struct sokoban *s = (const struct sokoban *)st->level;
	const struct soko_deadtab *table = s->deadtab;
	uint64_t table_work = table ? table->work : 0;
	/* unordered-turns: a wrong packing order misleads the sound search as
	 * much as the first (its features and advisors read the order), and
	 * on some levels only a search without it finds the way (Sasquatch
	 * III 15: benchmarks.md, h40y); so every other turn, the first first,
	 * goes without it */
	const struct soko_plan *plan = st->plan;
	enum turn_kind kinds[3];
	unsigned nkinds = turn_kinds(st, kinds);
	if (nkinds == 0) {   /* dry-turns with no other plan to turn to */
		st->done = true;
		return false;
	}
	enum turn_kind kind = kinds[st->turns % nkinds];
	if (kind == TURN_UNORDERED && !st->have_unordered) {
		soko_plan_build(&st->unordered, s, false,
				&(struct soko_stop){ .bounds = &st->opt->bounds,
						     .deadline = lk_bounds_deadline(&st->opt->bounds, st->t0) });
		st->have_unordered = true;
	}
	/* unparked-turns: on Sasquatch III 39 the position 49 pushes into
	 * YASS's solution is solved only without the parking plan (benchmarks.md,
	 * h40y); the order, goal areas and zones stay */
	if (kind == TURN_UNPARKED && !st->have_unparked) {
		soko_plan_view(&st->unparked, st->plan, s);
		st->unparked.park = NULL;
		st->have_unparked = true;
	}
	if (kind == TURN_UNORDERED)
		plan = &st->unordered;
	else if (kind == TURN_UNPARKED)
		plan = &st->unparked;
	st->turns++;
	struct lk_search_result r;
	lk_search_result_init(&r);
	soko_fess(st->level, &o, &r, false, NULL, st->pull, plan);
	r.technique_counts[SOKO_T_STALL]++;
	r.technique_counts[SOKO_T_UNORDERED] += kind == TURN_UNORDERED;
	r.technique_counts[SOKO_T_UNPARKED] += kind == TURN_UNPARKED;
	r.technique_counts[SOKO_T_DRY_TURNS] += st->again;
	if (table)   /* the turn's small searches are not the first search's work */
		st->last += table->work - table_work;
	if (r.status != LK_UNKNOWN) {   /* sound: its no is a proof */
		st->found = r;
		st->answered = st->done = true;
		return true;
	}
	/* pull-cap-turns: the forward side is stuck; the pull side's YASS
	 * order gets room to meet it */
	if (s->use[SOKO_T_PULL_CAP] && soko_pull_raise_cap(st->pull, STALL_GROWTH))
		st->spent.technique_counts[SOKO_T_PULL_CAP]++;
	if (capped && r.limit == LK_LIMIT_STATES) {
		st->states *= STALL_GROWTH;
		st->window *= STALL_GROWTH;
		st->stalled = 0;
	} else {
		st->done = true;   /* out of time or memory, or interrupted */
	}
	soko_any_add_effort(&st->spent, &r);
	lk_search_result_release(&r);
	return false;
}

/* replan: may the position best, where the first search stalls, show
 * goals its plan fills too soon?  Then they are marked late, and the first
 * search is to stop and run again under a new plan. */
static bool replan_due(struct stall *st, const unsigned char *best)
{
	const struct sokoban *s = (const struct sokoban *)st->level;
	if (!s->use[SOKO_T_REPLAN] || !st->plan || st->replans >= MAX_REPLANS || !best)
		return false;
	if (!st->late)
		st->late = lk_xcalloc((size_t)s->cells, 1);
	int added = soko_replan_late(s, st->plan, best, st->late);
	return st->replan = added > 0;
}

/* restart: a round of restarts from the first search's best path, where a
 * parking plan is in force, within as many states as the sound search's
 * next turn; true when one answered (in found). */
static bool restart_due(struct stall *st, size_t held)
{
	const struct sokoban *s = (const struct sokoban *)st->level;
	/* dry-restart: beside the sound search run again, parking plan or not */
	bool dry = st->again && s->use[SOKO_T_DRY_RESTART];
	if (!dry && (!s->use[SOKO_T_RESTART] || st->again || !st->plan || !st->plan->park))
		return false;
	if (!st->plan || !st->live)
		return false;
	struct lk_search_result found;
	lk_search_result_init(&found);
	if (!soko_restart_round(&st->restart, st->live, st->opt, st->t0, held,
				st->states * RESTART_SHARE, &found, &st->spent)) {
		lk_search_result_release(&found);
		return false;
	}
	st->found = found;
	st->answered = st->done = true;
	return true;
}

/* The first search's hand-over: the greedy slices' (inner), then, once the
 * first has done its window of work, after packing a box, without packing
 * more, a new plan (replan) where its best position shows one, else a turn
 * of the sound search. */
static bool stall_due(void *ctx, uint64_t work, size_t held, uint64_t expanded, unsigned packed,
		      const unsigned char *best)
{
	struct stall *st = ctx;
	if (st->inner && st->inner->due(st->inner->ctx, work, held, expanded, packed, best))
		return true;
	uint64_t step = work > st->last ? work - st->last : 0;
	st->last = work;
	if (packed > st->best) {
		st->best = packed;
		st->stalled = 0;
		return false;
	}
	if (st->done || (st->best == 0 && !stall_test))
		return false;
	st->stalled += step;
	if (st->stalled < st->window)
		return false;
	if (!st->again && replan_due(st, best))
		return true;
	if (restart_due(st, held ? held : 1))
		return true;
	const struct sokoban *s = (const struct sokoban *)st->level;
	if (st->again && !s->use[SOKO_T_DRY_TURNS]) {
		/* dry-restart alone: no sound turn beside the search run again,
		 * the next round's stall and states grown as a turn grows them */
		st->states *= STALL_GROWTH;
		st->window *= STALL_GROWTH;
		st->stalled = 0;
		return false;
	}
	return sound_turn(st, held ? held : 1);
}

/* The first search ran dry: a round of restarts (without cuts it runs
 * again after, as ever). */
static bool dry_due(void *ctx, size_t held)
{
	struct stall *st = ctx;
	return restart_due(st, held ? held : 1);
}

/* The feature-space search with the goal-room macros and relevance cuts
 * (beside it, with stall turns, turns of the sound search); where they cut
 * a move and the search then ran out of moves, that proves nothing, so it
 * runs again without them in the time left. */
/* opt with the time bound cut to what is left of it since t0 (at least a
 * millisecond, so that a search that starts late still stops at once). */
static struct lk_search_options time_left(const struct lk_search_options *opt, double t0)
{
	struct lk_search_options rest = *opt;
	if (opt->bounds.max_seconds > 0) {
		rest.bounds.max_seconds = opt->bounds.max_seconds - (lk_now() - t0);
		if (rest.bounds.max_seconds <= 0)
			rest.bounds.max_seconds = 1e-3;
	}
	return rest;
}

static void solve_fess(const struct lk_level *level, const struct lk_search_options *opt,
		       struct lk_search_result *r, const struct soko_fess_hook *hook)
{
	const struct sokoban *s = (const struct sokoban *)level;
	double t0 = lk_now(), cpu0 = lk_thread_cpu();
	struct soko_pull pull;
	soko_pull_init(&pull, s, opt->bounds.max_memory / 4);
	/* the plan, built once for the first search, the stall turns and the
	 * search run again (each used to build its own: up to 1 s on the
	 * biggest Sasquatch levels) */
	struct soko_plan plan;
	bool own_plan = !s->impossible && !s->forward;
	if (own_plan)
		soko_plan_build(&plan, s, s->use[SOKO_T_PACKING],
				&(struct soko_stop){ .bounds = &opt->bounds,
						     .deadline = lk_bounds_deadline(&opt->bounds, t0) });
	struct stall st = { .level = level, .opt = opt, .inner = hook, .pull = &pull, .t0 = t0,
			    .window = stall_window, .states = stall_states,
			    .plan = own_plan ? &plan : NULL };
	lk_search_result_init(&st.spent);
	soko_restart_init(&st.restart, s);
	struct soko_fess_hook turns = { .due = stall_due, .ctx = &st,
					.every = stall_test ? 0 : 63, .live = &st.live,
					.dry = dry_due };
	struct lk_search_options first = time_left(opt, t0);
	soko_fess(level, &first, r, true, s->use[SOKO_T_STALL] ? &turns : hook, &pull, st.plan);
	/* replan: the first search stopped for a new plan; it runs again
	 * from the start under it, the window and turns going on */
	struct soko_plan replanned;
	size_t stored = 0;   /* by the first searches stopped for a new plan */
	while (st.replan && !st.answered) {
		st.replan = false;
		stored += r->stored;
		soko_any_add_effort(&st.spent, r);
		lk_search_result_release(r);
		if (st.have_unparked) {   /* a view of the plan replaced */
			soko_plan_release(&st.unparked);
			st.have_unparked = false;
		}
		if (st.replans++)
			soko_plan_release(&replanned);
		soko_plan_build_late(&replanned, s, s->use[SOKO_T_PACKING],
				     &(struct soko_stop){ .bounds = &opt->bounds,
							  .deadline = lk_bounds_deadline(&opt->bounds, t0) },
				     st.late);
		st.plan = &replanned;
		st.best = 0;
		st.stalled = 0;
		st.last = 0;
		first = time_left(opt, t0);
		if (opt->bounds.max_states)
			first.bounds.max_states = opt->bounds.max_states > stored ?
						  opt->bounds.max_states - stored : 1;
		soko_fess(level, &first, r, true, &turns, &pull, st.plan);
	}
	r->technique_counts[SOKO_T_REPLAN] += (uint64_t)st.replans;
	r->technique_counts[SOKO_T_RESTART] += st.restart.runs;
	if (st.answered) {
		soko_any_add_effort(&st.found, r);
		lk_search_result_release(r);
		*r = st.found;
	}
	soko_any_add_effort(r, &st.spent);
	lk_search_result_release(&st.spent);
	const uint64_t *cut = r->technique_counts;
	if (!st.answered && r->status == LK_UNSOLVABLE &&
	    (cut[SOKO_T_GOAL_ROOMS] || cut[SOKO_T_GOAL_CUTS] || cut[SOKO_T_RELEVANCE] ||
	     cut[SOKO_T_PLAN_DEAD] || cut[SOKO_T_PARK_DEAD])) {
		struct lk_search_options rest = time_left(opt, t0);
		if (opt->bounds.max_states)
			rest.bounds.max_states = opt->bounds.max_states > r->stored ?
						 opt->bounds.max_states - r->stored : 1;
		struct lk_search_result again;
		lk_search_result_init(&again);
		/* dry-turns: the stall turns beside this search too, counted
		 * afresh from its start, the turns' sizes going on; dry-restart:
		 * restart's rounds at those stalls, from this search's best path */
		st.again = true;
		st.best = 0;
		st.stalled = 0;
		st.last = 0;
		lk_search_result_init(&st.spent);
		struct soko_fess_hook dry = { .due = stall_due, .ctx = &st,
					      .every = stall_test ? 0 : 63, .live = &st.live };
		bool beside = (s->use[SOKO_T_DRY_TURNS] || s->use[SOKO_T_DRY_RESTART]) &&
			      s->use[SOKO_T_STALL];
		uint64_t runs = st.restart.runs;
		soko_fess(level, &rest, &again, false, beside ? &dry : hook, &pull, st.plan);
		again.technique_counts[SOKO_T_DRY_RESTART] += st.restart.runs - runs;
		soko_any_add_effort(&again, r);
		lk_search_result_release(r);
		if (st.answered) {
			soko_any_add_effort(&st.found, &again);
			lk_search_result_release(&again);
			again = st.found;
		}
		soko_any_add_effort(&again, &st.spent);
		lk_search_result_release(&st.spent);
		*r = again;
	}
	soko_restart_release(&st.restart);
	soko_pull_release(&pull);
	if (st.replans)
		soko_plan_release(&replanned);
	free(st.late);
	if (st.have_unordered)
		soko_plan_release(&st.unordered);
	if (st.have_unparked)
		soko_plan_release(&st.unparked);
	if (own_plan)
		soko_plan_release(&plan);
	r->seconds = lk_now() - t0;
	r->cpu_seconds = lk_thread_cpu() - cpu0;
}

/* The greedy side of the portfolio. */
struct slices {
	const struct lk_level *level;
	const struct lk_search_options *opt;
	struct soko_deadtab *own;     /* the slices' deadlock table (or NULL) */
	double t0;                    /* the level's start */
	double time_left;             /* of greedy search's share (max_seconds > 0) */
	size_t share;                 /* greedy-share: its states left, SIZE_MAX: none */
	size_t states;                /* the next slice's states */
	size_t max_states;            /* greedy search's share, 0: none */
	size_t memory;                /* greedy search's share */
	uint64_t due;                 /* feature-space work the next slice waits for */
	bool done;                    /* no slice left: greedy search gave up */
	bool answered;                /* a slice answered: in found */
	struct lk_search_result found, spent;   /* the answer; the other slices' effort */
};

/* Run the next greedy slice; true when it answered the level. */
static bool greedy_slice(struct slices *sl, size_t held)
{
	const struct sokoban *s = (const struct sokoban *)sl->level;
	struct lk_search_options g = *sl->opt;
	g.algo = LK_ALGO_GREEDY;
	g.direction = LK_BOTH;
	/* the level's time left, and the share's unless counted in states */
	bool timed = sl->opt->bounds.max_seconds > 0;
	double left = timed ? sl->opt->bounds.max_seconds - (lk_now() - sl->t0) : 0;
	if (sl->share == SIZE_MAX && sl->time_left < left)
		left = sl->time_left;
	g.bounds.max_seconds = left;
	bool capped = s->use[SOKO_T_GREEDY_SLICES] &&
		      (!sl->max_states || sl->states < sl->max_states);
	g.bounds.max_states = capped ? sl->states : sl->max_states;
	bool by_share = sl->share != SIZE_MAX &&
		      (!g.bounds.max_states || sl->share < g.bounds.max_states);
	if (by_share)
		g.bounds.max_states = sl->share;
	/* beside a feature-space search, no more than the memory it leaves */
	size_t all = sl->opt->bounds.max_memory ? sl->opt->bounds.max_memory : (size_t)1 << 30;
	g.bounds.max_memory = held < all - sl->memory ? sl->memory : all - held;
	if (held >= all || (timed && left <= 0) || sl->share == 0) {
		sl->done = true;
		return false;
	}
	/* a slice run from inside the feature-space search must not reset the
	 * deadlock table that search uses: it gets one of its own */
	struct sokoban *level = (struct sokoban *)s;
	struct soko_deadtab *shared = level->deadtab;
	if (shared && held) {
		if (!sl->own)
			sl->own = soko_deadtab_new(s);
		level->deadtab = sl->own;
	}
	double t0 = lk_now();
	struct lk_search_result r;
	lk_search_result_init(&r);
	lk_search(sl->level, &g, &r);
	level->deadtab = shared;
	sl->time_left -= lk_now() - t0;
	if (sl->share != SIZE_MAX)
		sl->share -= r.stored < sl->share ? r.stored : sl->share;
	r.technique_counts[SOKO_T_GREEDY_FIRST]++;
	r.optimal = false;
	if (r.status != LK_UNKNOWN) {
		sl->found = r;
		sl->answered = sl->done = true;
		return true;
	}
	if (by_share && r.limit == LK_LIMIT_STATES) {
		r.technique_counts[SOKO_T_GREEDY_SHARE]++;
		sl->done = true;   /* its share spent */
	} else if (capped && r.limit == LK_LIMIT_STATES) {
		r.technique_counts[SOKO_T_GREEDY_SLICES]++;
		sl->due = (uint64_t)sl->states * SLICE_WAIT * SLICE_GROWTH;
		sl->states *= SLICE_GROWTH;
	} else {
		sl->done = true;   /* out of its share, or interrupted */
	}
	soko_any_add_effort(&sl->spent, &r);
	if (r.limit == LK_LIMIT_INTERRUPTED)
		sl->spent.limit = LK_LIMIT_INTERRUPTED;
	lk_search_result_release(&r);
	return false;
}

/* The feature-space search's turn to hand over: a slice when its work has
 * reached the next one's. */
static bool slice_due(void *ctx, uint64_t work, size_t held, uint64_t expanded, unsigned packed,
		      const unsigned char *best)
{
	(void)expanded;
	(void)packed;
	(void)best;
	struct slices *sl = ctx;
	if (sl->done || work < sl->due)
		return false;
	return greedy_slice(sl, held ? held : 1);
}

/* The search of the whole level: greedy slices, the feature-space search
 * and its turns. */
static void any_whole(const struct lk_level *level, const struct lk_search_options *opt,
		      bool areas, struct lk_search_result *r)
{
	const struct sokoban *s = (const struct sokoban *)level;
	if (!s->use[SOKO_T_GREEDY_FIRST] || s->impossible || s->forward) {
		solve_fess(level, opt, r, NULL);
		return;
	}
	double t0 = lk_now(), cpu0 = lk_thread_cpu();
	size_t memory = opt->bounds.max_memory ? opt->bounds.max_memory : (size_t)1 << 30;
	/* greedy-share: the share in states, at least one */
	size_t share = SIZE_MAX;
	if (s->use[SOKO_T_GREEDY_SHARE] && opt->bounds.max_seconds > 0) {
		double n = opt->bounds.max_seconds * GREEDY_TIME * greedy_rate;
		share = n < 1 ? 1 : n < (double)(SIZE_MAX / 2) ? (size_t)n : SIZE_MAX / 2;
	}
	struct slices sl = { .level = level, .opt = opt, .states = slice_first, .t0 = t0,
			     .share = share,
			     .time_left = opt->bounds.max_seconds * GREEDY_TIME,
			     .max_states = opt->bounds.max_states / 2,
			     .memory = (size_t)((double)memory * GREEDY_MEMORY) };
	lk_search_result_init(&sl.spent);
	bool parted = false;
	if (!greedy_slice(&sl, 0) && sl.spent.limit != LK_LIMIT_INTERRUPTED && areas) {
		/* area by area where greedy search's first slice did not answer:
		 * most levels it answers at once (Sasquatch I 50: 0.1 s, against
		 * 10 s of areas first) */
		struct lk_search_options left = time_left(opt, t0);
		struct lk_search_result parts;
		lk_search_result_init(&parts);
		parted = soko_any_areas(level, &left, &parts);
		if (parted) {
			sl.found = parts;
			sl.answered = true;
		} else {
			soko_any_add_effort(&sl.spent, &parts);
			lk_search_result_release(&parts);
		}
	}
	if (!parted && !sl.answered && sl.spent.limit != LK_LIMIT_INTERRUPTED) {
		struct lk_search_options rest = time_left(opt, t0);
		if (opt->bounds.max_states)
			rest.bounds.max_states = opt->bounds.max_states - opt->bounds.max_states / 2;
		struct soko_fess_hook hook = { .due = slice_due, .ctx = &sl, .every = 63 };
		struct lk_search_result f;
		lk_search_result_init(&f);
		solve_fess(level, &rest, &f, sl.done ? NULL : &hook);
		if (sl.answered) {
			soko_any_add_effort(&sl.found, &f);
			lk_search_result_release(&f);
		} else {
			lk_search_result_release(&sl.found);
			sl.found = f;
		}
	} else if (!sl.answered) {
		sl.found = sl.spent;   /* interrupted in its first slice */
		lk_search_result_init(&sl.spent);
	}
	soko_any_add_effort(&sl.found, &sl.spent);
	lk_search_result_release(&sl.spent);
	soko_deadtab_free(sl.own);
	lk_search_result_release(r);
	*r = sl.found;
	r->optimal = false;
	r->seconds = lk_now() - t0;
	r->cpu_seconds = lk_thread_cpu() - cpu0;
}

void soko_any_one(const struct lk_level *level, const struct lk_search_options *opt,
		  struct lk_search_result *r)
{
	const struct sokoban *s = (const struct sokoban *)level;
	double t0 = lk_now(), cpu0 = lk_thread_cpu();
	bool areas = soko_any_areas_apply(level);
	if (areas && s->use[SOKO_T_GREEDY_FIRST]) {
		any_whole(level, opt, true, r);   /* the areas after greedy's first slice */
		return;
	}
	/* without greedy search first, the areas first */
	struct lk_search_result parts;
	lk_search_result_init(&parts);
	if (areas && soko_any_areas(level, opt, &parts)) {
		lk_search_result_release(r);
		*r = parts;
	} else {
		struct lk_search_options rest = time_left(opt, t0);
		any_whole(level, &rest, false, r);
		soko_any_add_effort(r, &parts);
		lk_search_result_release(&parts);
	}
	r->seconds = lk_now() - t0;
	r->cpu_seconds = lk_thread_cpu() - cpu0;
}
