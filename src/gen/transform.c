/*
 * transform.c - MixedAim's transformer for any game (De Keyser 2019,
 * 3.4): mutate a level with nondeterministic rules, drop what is
 * unsolvable, climb towards harder levels.  What is the game's (its
 * legend, cells, rooms, presets) comes through struct lk_transform_ops.
 *
 * Difficulty here is MixedAim's: the fewest states any of BFS, A* and
 * greedy search explores (forwards), in the state space gen's -m,
 * --heuristic and --plain choose.  As in the thesis, A* runs first and
 * the other two only when the level could rank among the best so far.
 *
 * As a `gen` generator ("transform"), level i is the hardest solvable
 * level met on a climb of steps=N mutations (default 30) from --from (or a
 * random room) driven by the stream of (seed, i).  transform_suggest.c is
 * the interactive form.  The grid's outer cells never change, so a level
 * stays closed; --freeze protects more.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "transform_internal.h"

#include "levelkit/fields.h"

bool lk_transform_has_preset(const struct lk_transform_ops *ops, const char *name)
{
	return ops && ops->presets && lk_name_in(name, ops->presets);
}

int lk_transform_preset(const struct lk_transform_ops *ops, const struct lk_gen_options *o,
			const char *name, struct lk_strbuf *out, struct lk_strbuf *err)
{
	struct lk_transform_setup setup = { NULL, 0, 0 };
	void *gs = ops->open(o, &setup, err);
	if (!gs)
		return -1;
	int rc = ops->preset(gs, name, out, err);
	ops->close(gs);
	return rc;
}

/* ------------------------------------------------------------- cells */

void lk_transform_copy_cells(struct lk_cells *dst, const struct lk_cells *src)
{
	size_t n = (size_t)src->width * (size_t)src->height * (size_t)src->words;
	if ((size_t)dst->width * (size_t)dst->height * (size_t)dst->words != n || !dst->cell) {
		free(dst->cell);
		dst->cell = lk_xmalloc(n * sizeof *dst->cell);
	}
	uint64_t *cell = dst->cell;
	*dst = *src;
	dst->cell = cell;
	memcpy(dst->cell, src->cell, n * sizeof *dst->cell);
}

/* ---------------------------------------------------------- the state */

void lk_transform_free(void *state)
{
	struct lk_transform *t = state;
	if (!t)
		return;
	lk_rules_free(t->rules);
	if (t->gs)
		t->ops->close(t->gs);
	free(t->start.cell);
	free(t->frozen);
	free(t);
}

/* Outer cells, plus the non-blank cells of the --freeze grid. */
static void make_frozen(struct lk_transform *t, const struct lk_record *mask)
{
	int w = t->width, h = t->height;
	t->frozen = lk_xcalloc((size_t)w * (size_t)h, 1);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
				t->frozen[y * w + x] = 1;
	if (!mask)
		return;
	size_t first, n = lk_record_grid(mask, &first);
	for (size_t y = 0; y < n && (int)y < h; y++) {
		const char *row = mask->lines[first + y].text;
		for (int x = 0; row[x] && x < w; x++)
			if (!strchr(" .-_", row[x]))
				t->frozen[(int)y * w + x] = 1;
	}
}

/* The rules: o->rules, or the game's default preset.  A rules file's
 * "line N: message" becomes "FILE:N: message". */
static int parse_rules(struct lk_transform *t, const struct lk_gen_options *o,
		       struct lk_strbuf *err)
{
	struct lk_strbuf text = LK_STRBUF_INIT, why = LK_STRBUF_INIT;
	int rc = 0;
	if (o->rules)
		lk_strbuf_addstr(&text, o->rules);
	else
		rc = t->ops->preset(t->gs, t->ops->default_preset, &text, err);
	if (rc == 0) {
		t->rules = lk_rules_parse(text.buf, t->legend, &why);
		if (!t->rules) {
			int line, skip = 0;
			if (o->rules_name && sscanf(why.buf, "line %d: %n", &line, &skip) == 1 && skip > 0)
				lk_strbuf_addf(err, "%s:%d: %s", o->rules_name, line, why.buf + skip);
			else
				lk_strbuf_addf(err, "rules: %s", why.buf);
			rc = -1;
		}
	}
	lk_strbuf_release(&text);
	lk_strbuf_release(&why);
	return rc;
}

/*
 * --combine: the second level joined to the first, beside it (below it
 * with combine_below), top (left) aligned, the rest of the shorter one
 * filled with the first level's corner cell (its outside or its wall);
 * the second level's player is left out, so the level keeps one.  What
 * joins the two is the designer's, or the transformer's: the thesis's
 * designers let it "make it work somehow".
 */
static int combine(struct lk_transform *t, const struct lk_gen_options *o, struct lk_strbuf *err)
{
	struct lk_cells b = { 0 };
	struct lk_strbuf why = LK_STRBUF_INIT;
	if (t->ops->read(t->gs, o->combine, &b, &why) < 0) {
		lk_strbuf_addf(err, "--combine: %s", why.buf);
		lk_strbuf_release(&why);
		free(b.cell);
		return -1;
	}
	lk_strbuf_release(&why);
	const struct lk_cells *a = &t->start;
	bool below = o->combine_below;
	int w = below ? (a->width > b.width ? a->width : b.width) : a->width + b.width;
	int h = below ? a->height + b.height : (a->height > b.height ? a->height : b.height);
	if (w > LK_GRID_MAX_SIDE || h > LK_GRID_MAX_SIDE) {
		lk_strbuf_addf(err, "--combine: the two levels make a %dx%d grid, more than %d a side", w,
			       h, LK_GRID_MAX_SIDE);
		free(b.cell);
		return -1;
	}
	size_t words = (size_t)t->words;
	uint64_t *cell = lk_xcalloc((size_t)w * (size_t)h * words, sizeof *cell);
	int player = -1;
	for (int i = 0; i < t->legend->nobjects; i++)
		if (t->legend->objects[i].name && strcasecmp(t->legend->objects[i].name, "player") == 0)
			player = i;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint64_t *dst = cell + ((size_t)y * (size_t)w + (size_t)x) * words;
			int bx = below ? x : x - a->width, by = below ? y - a->height : y;
			const uint64_t *src = a->cell;   /* the corner: the padding */
			bool second = false;
			if (x < a->width && y < a->height && (below || x < a->width))
				src = a->cell + ((size_t)y * (size_t)a->width + (size_t)x) * words;
			if (bx >= 0 && by >= 0 && bx < b.width && by < b.height) {
				src = b.cell + ((size_t)by * (size_t)b.width + (size_t)bx) * words;
				second = true;
			}
			memcpy(dst, src, words * sizeof *dst);
			if (second && player >= 0)
				dst[player / 64] &= ~((uint64_t)1 << (player % 64));
		}
	free(t->start.cell);
	t->start.cell = cell;
	t->start.width = w;
	t->start.height = h;
	free(b.cell);
	return 0;
}

void *lk_transform_new(const struct lk_transform_ops *ops, const struct lk_gen_options *o,
		       struct lk_strbuf *err)
{
	struct lk_transform *t = lk_xcalloc(1, sizeof *t);
	struct lk_transform_setup setup = { NULL, 0, 0 };
	t->ops = ops;
	if (lk_gen_param_int(o, "steps", 30, 1, 1000000, &t->steps, err) < 0)
		goto fail;
	for (size_t i = 0; i < o->nparams; i++) {
		const char *k = o->param_keys[i];
		if (strcmp(k, "steps") && !(ops->params && lk_name_in(k, ops->params))) {
			lk_strbuf_addf(err, "generator transform has no parameter '%s'", k);
			goto fail;
		}
	}
	t->gs = ops->open(o, &setup, err);
	if (!t->gs)
		goto fail;
	t->legend = setup.legend;
	t->words = lk_legend_words(t->legend);
	if (parse_rules(t, o, err) < 0)
		goto fail;
	if (o->from) {
		if (ops->read(t->gs, o->from, &t->start, err) < 0)
			goto fail;
		if (o->combine && combine(t, o, err) < 0)
			goto fail;
		t->width = t->start.width;
		t->height = t->start.height;
	} else {
		t->width = setup.width;
		t->height = setup.height;
	}
	make_frozen(t, o->freeze);
	t->start.frozen = t->frozen;
	t->start.words = t->words;
	t->start.cell_ok = ops->cell_ok;
	t->start.cell_ok_ctx = t->gs;
	return t;
fail:
	lk_transform_free(t);
	return NULL;
}

void lk_transform_start(const struct lk_transform *t, struct lk_rng *rng, struct lk_cells *c)
{
	if (t->start.cell) {
		lk_transform_copy_cells(c, &t->start);
		return;
	}
	free(c->cell);
	*c = t->start;
	c->width = t->width;
	c->height = t->height;
	c->cell = lk_xcalloc((size_t)t->width * (size_t)t->height * (size_t)t->words, sizeof *c->cell);
	t->ops->random(t->gs, rng, c);
}

bool lk_transform_mutate(const struct lk_transform *t, const struct lk_cells *cur,
			 struct lk_cells *next, struct lk_rng *rng)
{
	lk_transform_copy_cells(next, cur);
	lk_rules_apply(t->rules, next, rng);
	if (t->ops->settle)
		t->ops->settle(t->gs, next);
	size_t n = (size_t)cur->width * (size_t)cur->height * (size_t)cur->words;
	return memcmp(cur->cell, next->cell, n * sizeof *cur->cell) != 0;
}

/* ------------------------------------------------------- evaluation */

void lk_transform_evaluation_release(struct evaluation *e)
{
	lk_record_release(&e->rec);
	lk_strbuf_release(&e->canonical);
}

static uint64_t search(struct lk_solver *solver, const struct lk_level *level,
		       const struct lk_search_options *bounds, enum lk_algo algo,
		       struct lk_search_result *r)
{
	struct lk_search_options so = *bounds;
	so.algo = algo;
	so.direction = LK_FORWARD;
	so.seed = 0;
	lk_solver_run(solver, level, &so, r);
	return r->expanded;
}

void lk_transform_evaluate(const struct lk_transform *t, struct lk_solver *solver,
			   const struct lk_cells *c, const struct lk_level_options *lo,
			   const struct lk_search_options *bounds, struct evaluation *e)
{
	lk_record_init(&e->rec);
	lk_strbuf_init(&e->canonical);
	e->outcome = OUT_INVALID;
	e->complete = false;
	e->bounded = false;
	e->fact_count = 0;
	if (t->ops->write(t->gs, c, &e->rec) < 0)
		return;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *level = lk_game_load_level(t->ops->game, &e->rec, lo, &err, &line);
	lk_strbuf_release(&err);
	if (!level)
		return;
	if (t->ops->tidy)
		t->ops->tidy(t->gs, level, &e->rec);
	struct lk_search_result r;
	lk_search_result_init(&r);
	uint64_t astar = search(solver, level, bounds, LK_ALGO_ASTAR, &r);
	e->seconds = r.seconds;
	lk_fields_solve(&e->rec, level, &r);
	e->outcome = r.status == LK_SOLVED ? (r.cost == 0 ? OUT_SOLVED_START : OUT_SOLVED)
		     : r.status == LK_UNSOLVABLE ? OUT_UNSOLVABLE : OUT_TIMEOUT;
	e->limit = r.limit;
	if (e->outcome == OUT_SOLVED) {
		/* an upper bound of MixedAim's difficulty until complete */
		e->difficulty = astar;
		lk_record_setf(&e->rec, "states-astar", "%llu", (unsigned long long)astar);
		if (t->count_fact) {
			struct lk_moves m;
			lk_moves_init(&m, level);
			lk_level_label(level, r.path, r.nkeys, &m);
			e->fact_count = lk_moves_count(&m, t->count_fact);
			lk_moves_release(&m);
		}
		lk_level_canonical(level, &e->rec, &e->canonical);
	}
	lk_search_result_release(&r);
	lk_level_free(level);
}

void lk_transform_complete(const struct lk_transform *t, struct lk_solver *solver,
			   const struct lk_level_options *lo,
			   const struct lk_search_options *bounds, struct evaluation *e)
{
	if (e->outcome != OUT_SOLVED || e->complete)
		return;
	e->complete = true;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *level = lk_game_load_level(t->ops->game, &e->rec, lo, &err, &line);
	lk_strbuf_release(&err);
	if (level) {
		struct lk_search_result r;
		lk_search_result_init(&r);
		enum lk_algo others[] = { LK_ALGO_BFS, LK_ALGO_GREEDY };
		const char *names[] = { "states-bfs", "states-greedy" };
		for (int i = 0; i < 2; i++) {
			uint64_t n = search(solver, level, bounds, others[i], &r);
			if (r.status == LK_SOLVED) {
				lk_record_setf(&e->rec, names[i], "%llu", (unsigned long long)n);
				if (n < e->difficulty)
					e->difficulty = n;
			} else {
				/* a search that stopped: the least is at most what is known */
				lk_record_setf(&e->rec, names[i], ">= %llu", (unsigned long long)n);
				e->bounded = true;
			}
		}
		lk_search_result_release(&r);
		lk_level_free(level);
	}
	if (e->bounded)
		lk_record_setf(&e->rec, "difficulty-min", "<= %llu", (unsigned long long)e->difficulty);
	else
		lk_record_setf(&e->rec, "difficulty-min", "%llu", (unsigned long long)e->difficulty);
}

/* ----------------------------------------------- the gen generator */

int lk_transform_candidate(struct lk_gen_worker *w, const struct lk_gen_options *o,
			   struct lk_rng *rng, struct lk_record *rec, enum lk_reject *why)
{
	struct lk_transform *t = w->state;
	struct lk_cells cur = { 0 }, next = { 0 };
	struct evaluation best = { .outcome = OUT_INVALID }, e;
	uint64_t cur_difficulty = 0;
	bool have_best = false;
	lk_transform_start(t, rng, &cur);
	*why = LK_REJECT_INVALID;
	for (long s = 0; s < t->steps; s++) {
		if (!lk_transform_mutate(t, &cur, &next, rng))
			continue;
		lk_transform_evaluate(t, &w->solver, &next, &o->level, &o->rating.search, &e);
		lk_transform_complete(t, &w->solver, &o->level, &o->rating.search, &e);
		bool fits = e.outcome == OUT_SOLVED && (double)e.difficulty <= o->difficulty.max;
		if (!fits) {
			*why = e.outcome == OUT_UNSOLVABLE ? LK_REJECT_UNSOLVABLE
			       : e.outcome == OUT_TIMEOUT ? lk_reject_of_limit(e.limit)
			       : e.outcome == OUT_SOLVED_START ? LK_REJECT_SOLVED
			       : e.outcome == OUT_SOLVED ? LK_REJECT_HARD : LK_REJECT_INVALID;
			lk_transform_evaluation_release(&e);
			continue;
		}
		if (e.difficulty >= cur_difficulty) {
			lk_transform_copy_cells(&cur, &next);
			cur_difficulty = e.difficulty;
		}
		if (!have_best || e.difficulty > best.difficulty) {
			if (have_best)
				lk_transform_evaluation_release(&best);
			best = e;
			have_best = true;
		} else {
			lk_transform_evaluation_release(&e);
		}
	}
	free(cur.cell);
	free(next.cell);
	if (!have_best)
		return -1;
	/* the level and every field */
	for (size_t i = 0; i < best.rec.nlines; i++)
		lk_record_add_line(rec, best.rec.lines[i].text, 0);
	lk_transform_evaluation_release(&best);
	return 0;
}
