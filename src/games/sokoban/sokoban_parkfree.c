/*
 * sokoban_parkfree.c - the parking plan played in no fixed order (issue
 * 23; docs/benchmarks.md, section h40o).
 *
 * sokoban_parkplay.c plays a plan's steps in the order the retrieval wrote
 * them, and on Sasquatch almost no plan gets past its first step: that
 * step's box sits deep in the start cluster, behind boxes the plan moves
 * only later.  The steps themselves (which box goes to which parking square
 * and goal) may still be playable in another order.  Here the plan is
 * played order-free: from each position, any step not done yet whose box
 * can be pushed to its target now, the plan's order preferred among them,
 * depth-first with a table of the positions met, bounded in positions and
 * in (box, player) pairs searched.
 *
 * What must hold for a step to be tried:
 * - its box's earlier steps are done and its later ones are not (a box
 *   leaving a parking square is the box an earlier step parked there: the
 *   last step before it whose target that square is), so every box keeps
 *   its plan's route;
 * - its target is free (a parking square a box still stands on waits
 *   until that box has left; no step's target is taken otherwise);
 * - with goal_order, a goal step only when the goal steps its goal area
 *   (soko_plan's areas) puts before it in the plan are done, since the
 *   retrieval checked each goal only with the goals after it empty.
 * The position after a step is the set of steps done (which fixes every
 * box) and where the player stands: after a push the player may stand in
 * any of the floor's pieces a way of pushing leaves it in, and each piece
 * is a separate position (sokoban_parkplay.c merges them, which may let a
 * later step use two places at once), so a play to the end is a sequence
 * of pushes a player can make: a solution.
 */
#include <stdlib.h>
#include <string.h>

#include "sokoban_parkplay.h"
#include "sokoban_parkfree.h"

struct free_play {
	struct play pl;
	const struct soko_park *p;
	int n, nsteps;
	int *pred, *gpred;        /* per step: the box's step before, the area's goal step before (-1) */
	uint8_t *done;
	uint64_t *zstep, *zcell;  /* position hash terms */
	uint64_t *table;          /* positions met: open addressing, 0 empty */
	size_t tmask;
	uint8_t *save;            /* per depth: box[] then from[] (2n) */
	uint8_t *all, *comp;      /* a push's player squares, a piece's */
	int *stack;
	int *path, *pcell;        /* per depth: the step and the player's piece (its lowest cell) */
	struct soko_free_result *r;
	bool fixed, stopped;
};

static uint64_t mix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Insert key; false when it was there (a position already met). */
static bool table_add(struct free_play *f, uint64_t key)
{
	return soko_hashset_add(f->table, f->tmask, key);
}

static int source(const struct soko_park *p, int i)
{
	return p->leaves[i] != SOKO_NONE ? p->leaves[i] : p->start[i];
}

static bool ready(const struct free_play *f, int i)
{
	const struct soko_park *p = f->p;
	if (f->done[i] || (f->pred[i] >= 0 && !f->done[f->pred[i]]))
		return false;
	if (f->gpred[i] >= 0 && !f->done[f->gpred[i]])
		return false;
	int src = source(p, i), t = p->target[i];
	return f->pl.box[src] && (t == src || !f->pl.box[t]);
}

/* The floor piece of from-square c among all[], into comp[] (and from[]). */
static void piece(struct free_play *f, int c)
{
	const struct sokoban *s = f->pl.s;
	int sp = 0;
	memset(f->comp, 0, (size_t)f->n);
	f->comp[c] = 1;
	f->stack[sp++] = c;
	while (sp > 0) {
		int x = f->stack[--sp];
		for (int d = 0; d < 4; d++) {
			int y = x + s->off[d];
			if (!f->all[y] || f->comp[y])
				continue;
			f->comp[y] = 1;
			f->stack[sp++] = y;
		}
	}
	memcpy(f->pl.from, f->comp, (size_t)f->n);
}

static bool dfs(struct free_play *f, int depth, uint64_t hash)
{
	struct soko_free_result *r = f->r;
	if (depth > r->played) {
		r->played = depth;
		memcpy(r->order, f->path, (size_t)depth * sizeof *r->order);
		memcpy(r->player, f->pcell, (size_t)depth * sizeof *r->player);
	}
	if (depth == f->nsteps)
		return true;
	if (r->positions >= r->max_positions || f->pl.work >= r->max_work) {
		f->stopped = true;
		return false;
	}
	r->positions++;
	size_t n = (size_t)f->n;
	uint8_t *box = f->save + (size_t)depth * 2 * n, *from = box + n;
	memcpy(box, f->pl.box, n);
	memcpy(from, f->pl.from, n);
	for (int i = 0; i < f->nsteps && !f->stopped; i++) {
		if (f->done[i])
			continue;
		bool ok = ready(f, i);
		if (!ok && f->fixed)
			break;   /* the fixed order: only the first step not done */
		if (!ok)
			continue;
		if (!soko_play_push_to(&f->pl, source(f->p, i), f->p->target[i])) {
			memcpy(f->pl.from, from, n);
			if (f->fixed)
				break;
			continue;
		}
		memcpy(f->all, f->pl.from, n);
		f->done[i] = 1;
		f->path[depth] = i;
		for (int c = 0; c < f->n && !f->stopped; c++) {
			if (!f->all[c])
				continue;
			piece(f, c);
			for (int x = c; x < f->n; x++)
				if (f->comp[x])
					f->all[x] = 0;   /* c is the piece's lowest cell */
			uint64_t key = hash ^ f->zstep[i] ^ f->zcell[c];
			if (!table_add(f, key))
				continue;
			f->pcell[depth] = c;
			if (dfs(f, depth + 1, hash ^ f->zstep[i]))
				return true;
		}
		f->done[i] = 0;
		memcpy(f->pl.box, box, n);
		memcpy(f->pl.from, from, n);
		if (f->fixed)
			break;
	}
	return false;
}

bool soko_park_free_play(const struct sokoban *s, const struct soko_plan *plan,
			 const struct soko_park *p, bool fixed, bool goal_order,
			 struct soko_free_result *r)
{
	struct free_play f;
	memset(&f, 0, sizeof f);
	int n = s->cells, m = p->nsteps;
	f.p = p;
	f.n = n;
	f.nsteps = m;
	f.fixed = fixed;
	f.r = r;
	r->played = 0;
	r->positions = 0;
	r->work = 0;
	r->order = lk_xcalloc((size_t)m + 1, sizeof *r->order);
	r->player = lk_xcalloc((size_t)m + 1, sizeof *r->player);
	soko_play_init(&f.pl, s);
	f.pred = lk_xmalloc((size_t)m * sizeof *f.pred);
	f.gpred = lk_xmalloc((size_t)m * sizeof *f.gpred);
	f.done = lk_xcalloc((size_t)m, 1);
	f.zstep = lk_xmalloc((size_t)m * sizeof *f.zstep);
	f.zcell = lk_xmalloc((size_t)n * sizeof *f.zcell);
	f.save = lk_xmalloc((size_t)(m + 1) * 2 * (size_t)n);
	f.all = lk_xmalloc((size_t)n);
	f.comp = lk_xmalloc((size_t)n);
	f.stack = lk_xmalloc((size_t)n * sizeof *f.stack);
	f.path = lk_xcalloc((size_t)m + 1, sizeof *f.path);
	f.pcell = lk_xcalloc((size_t)m + 1, sizeof *f.pcell);
	size_t tsize = 1024;
	while (tsize < 2 * (size_t)r->max_positions * 4)
		tsize <<= 1;   /* every position expanded adds a few pieces at most */
	f.table = lk_xcalloc(tsize, sizeof *f.table);
	f.tmask = tsize - 1;
	uint64_t seed = 0x1234567ull;
	for (int i = 0; i < m; i++)
		f.zstep[i] = mix(&seed);
	for (int c = 0; c < n; c++)
		f.zcell[c] = mix(&seed);
	for (int i = 0; i < m; i++) {
		f.pred[i] = f.gpred[i] = -1;
		for (int j = i - 1; j >= 0 && f.pred[i] < 0; j--)
			if (p->leaves[i] != SOKO_NONE && p->target[j] == p->leaves[i])
				f.pred[i] = j;
		int a = plan->area_of[p->target[i]];
		for (int j = i - 1; goal_order && a != SOKO_NONE && j >= 0 && f.gpred[i] < 0; j--)
			if (plan->area_of[p->target[j]] == a)
				f.gpred[i] = j;
	}
	soko_play_start(&f.pl);
	int c0 = 0;
	while (c0 < n && !f.pl.from[c0])
		c0++;
	table_add(&f, f.zcell[c0]);
	bool full = dfs(&f, 0, 0);
	r->work = f.pl.work;
	r->stopped = f.stopped;
	soko_play_release(&f.pl);
	free(f.pred);
	free(f.gpred);
	free(f.done);
	free(f.zstep);
	free(f.zcell);
	free(f.save);
	free(f.all);
	free(f.comp);
	free(f.stack);
	free(f.path);
	free(f.pcell);
	free(f.table);
	return full;
}

void soko_free_result_release(struct soko_free_result *r)
{
	free(r->order);
	free(r->player);
	free(r->moves);
	r->order = NULL;
	r->player = NULL;
	r->moves = NULL;
}
