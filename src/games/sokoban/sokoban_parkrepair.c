/*
 * sokoban_parkrepair.c - plan-repair: a parking plan (sokoban_park.c)
 * mended forwards so that more of it plays push by push (solve -a any;
 * docs/games/sokoban.md, "Plan repair").
 *
 * The retrieval works the plan out backwards with the boxes it has taken
 * out lifted off the board, so in play (sokoban_parkplay.c) a step's box
 * meets boxes the plan moves only later, where they start: on Sasquatch
 * every plan fails so, nearly all at their first step.  Here the plan is
 * played forwards and, where a step cannot be pushed (or its target holds
 * a box), mended before it.  The boxes in the way are those of a minimal
 * set (made so greedily) of the boxes with a move still to come whose
 * lifting lets the step play.  Repairs, in this order:
 *  - move-earlier: a later step that plays now, the next move of a box in
 *    the way, is played first (with REPAIR_HOIST 2 then any later step
 *    that plays: a box packed early may clear the way for the one after);
 *  - set-aside: a box in the way is pushed first onto a square that is no
 *    goal, no dead square and no target of a step still to come (the
 *    nearest in the order of the push search first) from which it is in
 *    the way no more: the step plays with the other boxes in the way
 *    lifted.  The box's own step then leaves from that square;
 *  - widening: where neither is found, a box in the way set aside so that
 *    the step's box can be pushed to more squares than before.
 * The failure that follows a repair moves the next box.  The repairs are
 * searched depth-first with backtracking (a repair that lets the step
 * play may strand a later one), at most REPAIR_DEPTH repairs on a path
 * and REPAIR_BRANCH choices at a failure, within REPAIR_WORK (box,
 * player) pairs visited (half a processor second on Sasquatch's largest);
 * the plan kept is the one whose play gets furthest through the original
 * steps, and only when that is further than the original plan plays.  The
 * steps after the first that still fails are the original ones (a box set
 * aside leaving from its new square), so the plan still leads every box
 * to its goal.  The plan only steers the search (it prunes no move), so a
 * repair cannot lose a solution.
 *
 * The search (sokoban_plan.c; off by default) asks only for plans whose
 * first failing step finds its target holding a box (held_only): mending
 * every failing Sasquatch plan lost three levels of the slow list
 * (docs/benchmarks.md, h38d); mending those gained I 31 before park
 * deadlocks, and loses it with them.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_parkplay.h"

/* Repairs on one path, choices at one failure, set-aside squares tried
 * per box, and the work of all the play searches, at most. */
#define REPAIR_DEPTH 24
#define REPAIR_BRANCH 3
#define REPAIR_SQUARES 2
/* Squares a set-aside tests per box, at most (the nearest first). */
#define REPAIR_TESTS 48
#define REPAIR_WORK 4e7
/* The play takes eight bytes per (box, player) pair of cells: levels of
 * more cells are not mended (16 MB at most; Sasquatch's largest have
 * about 700). */
#define REPAIR_MAX_CELLS 1400
/* Rounds of move-earlier: 1, the steps of the boxes in the way only; 2,
 * then any step that plays (it mends further, but the plans so mended
 * steered the search worse: docs/benchmarks.md, h38d). */
#ifndef REPAIR_HOIST
#define REPAIR_HOIST 1
#endif

struct rstep {
	uint16_t src, target;
	uint8_t fresh;   /* the box on src is on its start square */
	uint8_t orig;    /* a step of the original plan (not a set-aside) */
};

struct rep {
	struct play pl;
	struct soko_stop *stop;
	int cap;                  /* steps a sequence may hold */
	struct rstep *best;       /* the best sequence so far */
	int nbest, best_played;
	bool done;                /* a sequence plays to its end */
	uint8_t *taken;           /* per cell: target of a step still to come */
	uint8_t *box2, *from2;    /* a board saved by set_aside */
};

static bool over(struct rep *r)
{
	return r->done || r->pl.work > REPAIR_WORK || soko_stopped(r->stop);
}

/* Play one step on pl's board; false leaves the board as it was. */
static bool play_step(struct play *pl, const struct rstep *st)
{
	if (!pl->box[st->src])
		return false;
	if (st->src != st->target && pl->box[st->target])
		return false;
	return soko_play_push_to(pl, st->src, st->target);
}

/* The index of the next move of the box on c among seq[pos .. n), or -1
 * (none, or a step before it brings a box onto c). */
static int next_move(const struct rstep *seq, int n, int pos, int c)
{
	for (int j = pos; j < n; j++) {
		if (seq[j].src == c)
			return j;
		if (seq[j].target == c)
			return -1;
	}
	return -1;
}

static void save(struct play *pl, uint8_t *box, uint8_t *from)
{
	size_t n = (size_t)pl->s->cells;
	memcpy(box, pl->box, n);
	memcpy(from, pl->from, n);
}

static void restore(struct play *pl, const uint8_t *box, const uint8_t *from)
{
	size_t n = (size_t)pl->s->cells;
	memcpy(pl->box, box, n);
	memcpy(pl->from, from, n);
}

static void repair_from(struct rep *r, const struct rstep *seq0, int n, int pos, int depth);

/* Recurse on seq (n steps) from pos, the board restored to box/from. */
static void descend(struct rep *r, const struct rstep *seq, int n, int pos, int depth,
		    const uint8_t *box, const uint8_t *from)
{
	restore(&r->pl, box, from);
	repair_from(r, seq, n, pos, depth + 1);
	restore(&r->pl, box, from);
}

/* Does step st play on box/from with the boxes of lift[] (per cell)
 * lifted (the player's walk widened to the squares they free)? */
static bool plays_lifted(struct rep *r, const struct rstep *st, const uint8_t *lift,
			 const uint8_t *box, const uint8_t *from)
{
	int cells = r->pl.s->cells;
	restore(&r->pl, box, from);
	for (int c = 0; c < cells; c++)
		if (lift[c])
			r->pl.box[c] = 0;
	soko_play_walk_on(&r->pl);
	bool ok = play_step(&r->pl, st);
	restore(&r->pl, box, from);
	return ok;
}

/* The boxes in the way of the step at pos, into lift[] (per cell): of the
 * boxes with a move still to come, a set whose lifting lets the step play,
 * made minimal greedily (each put back in turn, kept back when the step
 * still plays); how many, or -1 when lifting them all does not help. */
static int lift_set(struct rep *r, const struct rstep *seq, int n, int pos, uint8_t *lift,
		    const uint8_t *box, const uint8_t *from)
{
	int cells = r->pl.s->cells, m = 0;
	const struct rstep *st = &seq[pos];
	for (int c = 0; c < cells; c++) {
		lift[c] = box[c] && c != st->src && next_move(seq, n, pos + 1, c) >= 0;
		m += lift[c];
	}
	if (!plays_lifted(r, st, lift, box, from))
		return -1;
	for (int c = 0; c < cells && !over(r); c++) {
		if (!lift[c])
			continue;
		lift[c] = 0;
		if (plays_lifted(r, st, lift, box, from))
			m--;
		else
			lift[c] = 1;
	}
	return m;
}

/* Set-aside repairs of the box on c (its next move seq[j]), one of the
 * boxes in the way (lift[]), before the step at pos: at most
 * REPAIR_SQUARES squares tried, each recursed on when the step then plays
 * with the other boxes in the way lifted (one box fewer in the way: the
 * failure that follows sets the next aside); *tried counts the choices
 * taken. */
static void set_aside(struct rep *r, const struct rstep *seq, int n, int pos, int depth, int c,
		      int j, uint8_t *lift, const uint8_t *box, const uint8_t *from,
		      struct rstep *next, int *tried, int widen)
{
	const struct sokoban *s = r->pl.s;
	int cells = s->cells;
	restore(&r->pl, box, from);
	int tail = soko_play_search(&r->pl, c);
	/* the squares reached, in order of the search, distinct */
	int *cand = lk_xmalloc((size_t)REPAIR_TESTS * sizeof *cand), nc = 0;
	memset(r->taken, 0, (size_t)cells);
	for (int k = pos; k < n; k++)
		r->taken[seq[k].target] = 1;
	for (int i = 0; i < tail && nc < REPAIR_TESTS; i++) {
		int x = r->pl.queue[i] / cells;
		if (x == c || s->goal[x] || s->dead[x] || r->taken[x])
			continue;
		r->taken[x] = 2;   /* tried */
		cand[nc++] = x;
	}
	restore(&r->pl, box, from);
	int found = 0;
	for (int i = 0; i < nc && found < REPAIR_SQUARES && *tried < REPAIR_BRANCH && !over(r); i++) {
		restore(&r->pl, box, from);
		if (!soko_play_push_to(&r->pl, c, cand[i]))
			continue;
		save(&r->pl, r->box2, r->from2);
		bool ok;
		if (widen > 0) {   /* the step's box reaches more */
			ok = soko_play_search(&r->pl, seq[pos].src) > widen;
			restore(&r->pl, r->box2, r->from2);
		} else {
			lift[c] = 0;
			ok = plays_lifted(r, &seq[pos], lift, r->box2, r->from2);
			lift[c] = 1;
		}
		if (!ok)
			continue;
		memcpy(next, seq, (size_t)pos * sizeof *next);
		next[pos] = (struct rstep){ .src = (uint16_t)c, .target = (uint16_t)cand[i],
					    .fresh = seq[j].fresh, .orig = 0 };
		memcpy(next + pos + 1, seq + pos, (size_t)(n - pos) * sizeof *next);
		next[j + 1].src = (uint16_t)cand[i];
		next[j + 1].fresh = 0;
		(*tried)++;
		found++;
		descend(r, next, n + 1, pos, depth, box, from);
	}
	free(cand);
}

/* Play seq[pos ..) on r's board; at the first step that fails, try the
 * repairs, each recursed on. */
static void repair_from(struct rep *r, const struct rstep *seq0, int n, int pos, int depth)
{
	const struct sokoban *s = r->pl.s;
	size_t cells = (size_t)s->cells;
	while (pos < n && play_step(&r->pl, &seq0[pos]))
		pos++;
	int played = 0;
	for (int k = 0; k < pos; k++)
		played += seq0[k].orig;
	if (played > r->best_played) {
		r->best_played = played;
		r->nbest = n;
		memcpy(r->best, seq0, (size_t)n * sizeof *r->best);
	}
	if (pos == n) {
		r->done = true;
		return;
	}
	if (depth >= REPAIR_DEPTH || n >= r->cap || over(r))
		return;
	uint8_t *box = lk_xmalloc(cells), *from = lk_xmalloc(cells);
	struct rstep *next = lk_xmalloc((size_t)r->cap * sizeof *next);
	save(&r->pl, box, from);
	const struct rstep *st = &seq0[pos];
	int tried = 0;
	/* the boxes in the way: each repair moves one of them so that the
	 * step plays with the others lifted (one box fewer in the way; the
	 * failure that follows moves the next) */
	uint8_t *lift = lk_xmalloc(cells);
	int msz = lift_set(r, seq0, n, pos, lift, box, from);
	/* move-earlier: a later step that plays now, the next move of its
	 * box, played first: those of the boxes in the way, then the others
	 * (a box packed first may clear the way for the one after) */
	for (int round = 0; round < REPAIR_HOIST && tried < REPAIR_BRANCH && !over(r); round++)
		for (int j = pos + 1; j < n && tried < REPAIR_BRANCH && !over(r); j++) {
			int c = seq0[j].src;
			if (!seq0[j].orig || (msz > 0 && lift[c]) != (round == 0) ||
			    next_move(seq0, n, pos, c) != j)
				continue;
			restore(&r->pl, box, from);
			if (!play_step(&r->pl, &seq0[j]))
				continue;
			memcpy(next, seq0, (size_t)pos * sizeof *next);
			next[pos] = seq0[j];
			memcpy(next + pos + 1, seq0 + pos, (size_t)(j - pos) * sizeof *next);
			memcpy(next + j + 1, seq0 + j + 1, (size_t)(n - j - 1) * sizeof *next);
			tried++;
			descend(r, next, n, pos, depth, box, from);
		}
	/* set-aside: each box in the way in turn */
	if (msz > 0)
		for (int c = 0; c < s->cells && tried < REPAIR_BRANCH && !over(r); c++)
			if (lift[c])
				set_aside(r, seq0, n, pos, depth, c, next_move(seq0, n, pos + 1, c),
					  lift, box, from, next, &tried, 0);
	/* none: a box in the way set aside so that the step's box reaches
	 * more (a way opened for the repairs after it) */
	if (msz > 0 && tried == 0 && !over(r)) {
		restore(&r->pl, box, from);
		int reach = soko_play_search(&r->pl, st->src);
		restore(&r->pl, box, from);
		for (int c = 0; c < s->cells && tried < REPAIR_BRANCH && !over(r); c++)
			if (lift[c])
				set_aside(r, seq0, n, pos, depth, c, next_move(seq0, n, pos + 1, c),
					  lift, box, from, next, &tried, reach > 0 ? reach : 1);
	}
	free(lift);
	restore(&r->pl, box, from);
	free(box);
	free(from);
	free(next);
}

/* Tests: held_only ignored (random levels' plans seldom fail held). */
static bool repair_all;

void soko_park_set_repair_all(bool all) { repair_all = all; }

struct soko_park *soko_park_repair(const struct sokoban *s, const struct soko_park *p,
				   struct soko_stop *stop, bool held_only, int *played_before,
				   int *played_after)
{
	if (s->cells > REPAIR_MAX_CELLS) {
		if (played_before)
			*played_before = -1;
		if (played_after)
			*played_after = -1;
		return NULL;
	}
	struct rep r = { .stop = stop, .cap = p->nsteps + REPAIR_DEPTH + 1 };
	soko_play_init(&r.pl, s);
	r.best = lk_xmalloc((size_t)r.cap * sizeof *r.best);
	r.taken = lk_xmalloc((size_t)s->cells);
	r.box2 = lk_xmalloc((size_t)s->cells);
	r.from2 = lk_xmalloc((size_t)s->cells);
	struct rstep *seq = lk_xmalloc((size_t)r.cap * sizeof *seq);
	for (int i = 0; i < p->nsteps; i++) {
		bool fresh = p->leaves[i] == SOKO_NONE;
		seq[i] = (struct rstep){ .src = fresh ? p->start[i] : p->leaves[i],
					 .target = p->target[i], .fresh = fresh, .orig = 1 };
	}
	/* the original's play first: what a repair must beat */
	soko_play_start(&r.pl);
	int base = 0;
	while (base < p->nsteps && play_step(&r.pl, &seq[base]))
		base++;
	r.best_played = base;
	/* held_only: only where the first step that fails finds its target
	 * holding a box (its source holding one) */
	bool target_held = base < p->nsteps && r.pl.box[seq[base].src] &&
			   seq[base].src != seq[base].target && r.pl.box[seq[base].target];
	if (base < p->nsteps && (target_held || !held_only || repair_all)) {
		soko_play_start(&r.pl);
		repair_from(&r, seq, p->nsteps, 0, 0);
	}
	if (played_before)
		*played_before = base;
	if (played_after)
		*played_after = r.best_played;
	struct soko_park *q = NULL;
	if (r.best_played > base) {
		int m = r.nbest;
		q = lk_xcalloc(1, sizeof *q);
		q->nsteps = m;
		q->nparked = p->nparked;
		q->playable = p->playable;
		q->repaired = true;
		q->target = lk_xmalloc((size_t)m * sizeof *q->target);
		q->leaves = lk_xmalloc((size_t)m * sizeof *q->leaves);
		q->start = lk_xmalloc((size_t)m * sizeof *q->start);
		q->size = lk_xmalloc((size_t)m * sizeof *q->size);
		q->on_target = lk_xcalloc((size_t)s->cells, 1);
		int held = 0;
		for (int i = 0; i < m; i++) {
			const struct rstep *st = &r.best[i];
			q->target[i] = st->target;
			q->leaves[i] = st->fresh ? SOKO_NONE : st->src;
			q->start[i] = st->fresh ? st->src : SOKO_NONE;
			held += st->fresh;
			q->size[i] = (uint16_t)held;
			q->on_target[st->target] = 1;
		}
	}
	free(seq);
	free(r.best);
	free(r.taken);
	free(r.box2);
	free(r.from2);
	soko_play_release(&r.pl);
	return q;
}
