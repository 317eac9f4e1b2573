/*
 * sokoban_transform.c - MixedAim's transformer for Sokoban (De Keyser
 * 2019, 3.4): mutate a level with nondeterministic rules, drop what is
 * unsolvable, climb towards harder levels.
 *
 * Difficulty here is MixedAim's: the fewest states any of BFS, A* and
 * greedy search explores (forwards).  As in the thesis, A* runs first and
 * the other two only when the level could rank among the best so far.
 *
 * As a `gen` generator ("transform"), level i is the hardest solvable
 * level met on a climb of steps=N mutations (default 30) from --from (or a
 * random room with boxes on their goals) driven by the stream of (seed, i).
 * lk_transform_suggest is the interactive form: one long climb that keeps
 * the K hardest distinct levels.  The grid's outer cells never change, so
 * a level stays closed; --freeze protects more.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sokoban.h"
#include "levelkit/dedupe.h"
#include "levelkit/fields.h"
#include "levelkit/room.h"
#include "levelkit/rules.h"
#include "levelkit/transform.h"

enum { WALL = 1, PLAYER = 2, CRATE = 4, TARGET = 8, PLACEHOLDER = 16 };

static const struct lk_legend_object objects[] = {
	{ "Wall", NULL, WALL | PLAYER | CRATE },
	{ "Player", NULL, WALL | PLAYER | CRATE },
	{ "Crate", "Box", WALL | PLAYER | CRATE },
	{ "Target", "Goal", TARGET },
	{ "Placeholder", NULL, PLACEHOLDER },
};
static const struct lk_legend_property properties[] = {
	{ "Obstacle", WALL | PLAYER | CRATE },
};
static const struct lk_legend legend = { objects, 5, properties, 1 };

/* MixedAim's four presets (3.4) and the two backward-design recipes of
 * its section 4.1.4, in the rule language. */
static const struct {
	const char *name, *text;
} presets[] = {
	{ "walls", "(randomly remove or add 20 walls with prob. 0.4)\n"
		   "choose 20 option 0.4 [Wall] -> []\n"
		   "or option 0.6 [no Obstacle] -> [Wall]\n" },
	{ "move", "(move players and crates around)\n"
		  "choose 20 [Player | no Obstacle] -> [ | Player]\n"
		  "or [Crate | no Obstacle] -> [ | Crate]\n" },
	{ "pair", "(remove one crate/target pair if it exists and add one)\n"
		  "choose 1 [Crate][Target] -> []\n"
		  "choose 1 [no Obstacle or Target][no Obstacle or Target] -> [Crate][Target]\n" },
	{ "mix", "(a bit of everything)\n"
		 "choose 4 option 0.4 [Wall] -> []\n"
		 "or option 0.6 [no Obstacle] -> [Wall]\n"
		 "choose 4 [Player | no Obstacle] -> [ | Player]\n"
		 "or [Crate | no Obstacle] -> [ | Crate]\n"
		 "choose 1 option 0.2 [Crate][Target] -> []\n"
		 "choose 1 option 0.2 [no Obstacle or Target][no Obstacle or Target] -> [Crate][Target]\n" },
	{ "pull", "(Taylor and Parberry: crates on all targets, then pull them away)\n"
		  "[Target no Obstacle] -> [Target Crate]\n"
		  "choose 50 [Player | no Obstacle] -> [ | Player]\n"
		  "or [no Obstacle | Player | Crate] -> [Player | Crate | ]\n" },
	{ "push", "(Kartal et al.: push the crates around, then turn them into targets;\n"
		  " the old targets go, so there are as many targets as crates)\n"
		  "[Target] -> []\n"
		  "[Crate] -> [Crate Placeholder]\n"
		  "choose 50 [Player | no Obstacle] -> [ | Player]\n"
		  "or [Player | Crate | no Obstacle] -> [ | Player | Crate]\n"
		  "[Crate] -> [Target]\n"
		  "[Placeholder] -> [Crate]\n" },
};

const char *lk_transform_preset(const char *name)
{
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
		if (strcmp(presets[i].name, name) == 0)
			return presets[i].text;
	return NULL;
}

/* ------------------------------------------------------ cells and text */

static uint16_t cell_of_char(char c)
{
	switch (c) {
	case '#': return WALL;
	case '@': return PLAYER;
	case '+': return PLAYER | TARGET;
	case '$': return CRATE;
	case '*': return CRATE | TARGET;
	case '.': return TARGET;
	default: return 0;
	}
}

static char char_of_cell(uint16_t v)
{
	if (v & WALL)
		return '#';
	if (v & PLAYER)
		return v & TARGET ? '+' : '@';
	if (v & CRATE)
		return v & TARGET ? '*' : '$';
	return v & TARGET ? '.' : ' ';
}

/* The grid of a record as cells; -1 with err when it cannot be read. */
static int read_cells(const struct lk_record *rec, struct lk_cells *c, struct lk_strbuf *err)
{
	size_t first, n = lk_record_grid(rec, &first);
	if (!n) {
		lk_strbuf_addstr(err, "the record has no grid");
		return -1;
	}
	const char **rows = lk_xmalloc(n * sizeof *rows);
	for (size_t i = 0; i < n; i++)
		rows[i] = rec->lines[first + i].text;
	struct lk_grid g;
	struct lk_grid_parse opt = { .fill = ' ', .run_length = true };
	size_t bad;
	int rc = lk_grid_parse_rows(&g, rows, n, &opt, err, &bad);
	free(rows);
	if (rc < 0)
		return -1;
	c->width = g.width;
	c->height = g.height;
	c->cell = lk_xmalloc((size_t)g.width * (size_t)g.height * sizeof *c->cell);
	for (int i = 0; i < g.width * g.height; i++)
		c->cell[i] = cell_of_char(g.cells[i]);
	lk_grid_release(&g);
	return 0;
}

static void write_cells(const struct lk_cells *c, struct lk_record *rec)
{
	struct lk_grid g;
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_grid_init(&g, c->width, c->height, ' ');
	for (int i = 0; i < c->width * c->height; i++)
		g.cells[i] = char_of_cell(c->cell[i]);
	lk_grid_write(&g, &text, ' ');
	lk_record_set_grid(rec, text.buf);
	lk_strbuf_release(&text);
	lk_grid_release(&g);
}

static void copy_cells(struct lk_cells *dst, const struct lk_cells *src)
{
	size_t n = (size_t)src->width * (size_t)src->height;
	if (dst->width * dst->height != src->width * src->height || !dst->cell) {
		free(dst->cell);
		dst->cell = lk_xmalloc(n * sizeof *dst->cell);
	}
	dst->width = src->width;
	dst->height = src->height;
	dst->frozen = src->frozen;
	memcpy(dst->cell, src->cell, n * sizeof *dst->cell);
}

/* ---------------------------------------------------------- the state */

struct transform {
	struct lk_rules *rules;
	struct lk_cells start;      /* --from, or empty for random rooms */
	uint8_t *frozen;
	long steps, boxes;
	int width, height;
};

static void transform_free(void *state)
{
	struct transform *t = state;
	lk_rules_free(t->rules);
	free(t->start.cell);
	free(t->frozen);
	free(t);
}

/* Outer cells, plus the non-blank cells of the --freeze grid. */
static void make_frozen(struct transform *t, const struct lk_record *mask)
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

static void *transform_new(const struct lk_gen_options *o, struct lk_strbuf *err)
{
	struct transform *t = lk_xcalloc(1, sizeof *t);
	if (lk_gen_param_int(o, "steps", 30, 1, 1000000, &t->steps, err) < 0 ||
	    lk_gen_param_int(o, "boxes", 3, 1, 32, &t->boxes, err) < 0)
		goto fail;
	for (size_t i = 0; i < o->nparams; i++) {
		if (strcmp(o->param_keys[i], "steps") && strcmp(o->param_keys[i], "boxes")) {
			lk_strbuf_addf(err, "generator transform has no parameter '%s'", o->param_keys[i]);
			goto fail;
		}
	}
	const char *text = o->rules ? o->rules : lk_transform_preset("mix");
	struct lk_strbuf why = LK_STRBUF_INIT;
	t->rules = lk_rules_parse(text, &legend, &why);
	if (!t->rules) {
		/* "line N: message" becomes "FILE:N: message" for a rules file. */
		int line;
		int skip = 0;
		if (o->rules_name && sscanf(why.buf, "line %d: %n", &line, &skip) == 1 && skip > 0)
			lk_strbuf_addf(err, "%s:%d: %s", o->rules_name, line, why.buf + skip);
		else
			lk_strbuf_addf(err, "rules: %s", why.buf);
		lk_strbuf_release(&why);
		goto fail;
	}
	lk_strbuf_release(&why);
	if (o->from) {
		if (read_cells(o->from, &t->start, err) < 0)
			goto fail;
		t->width = t->start.width;
		t->height = t->start.height;
	} else {
		t->width = o->width ? o->width : 10;
		t->height = o->height ? o->height : 10;
		if (t->width < 4 || t->height < 4 || t->width > LK_GRID_MAX_SIDE ||
		    t->height > LK_GRID_MAX_SIDE) {
			lk_strbuf_addf(err, "--size %dx%d: rooms need 4x4 to %dx%d", t->width, t->height,
				       LK_GRID_MAX_SIDE, LK_GRID_MAX_SIDE);
			goto fail;
		}
	}
	make_frozen(t, o->freeze);
	t->start.frozen = t->frozen;
	return t;
fail:
	transform_free(t);
	return NULL;
}

/* The climb's starting cells: --from, or a random room with every box on
 * its goal (solved: the rules make it a puzzle). */
static void starting_cells(const struct transform *t, struct lk_rng *rng, struct lk_cells *c)
{
	if (t->start.cell) {
		copy_cells(c, &t->start);
		return;
	}
	struct lk_grid g;
	lk_grid_init(&g, t->width, t->height, '#');
	lk_room_carve(&g, rng, 0.35 + 0.2 * lk_rng_double(rng));
	for (long i = 0; i < t->boxes; i++) {
		int at = lk_room_pick(&g, rng, ' ');
		if (at >= 0)
			g.cells[at] = '*';
	}
	int at = lk_room_pick(&g, rng, ' ');
	if (at >= 0)
		g.cells[at] = '@';
	free(c->cell);
	c->width = g.width;
	c->height = g.height;
	c->frozen = t->frozen;
	c->cell = lk_xmalloc((size_t)g.width * (size_t)g.height * sizeof *c->cell);
	for (int i = 0; i < g.width * g.height; i++)
		c->cell[i] = cell_of_char(g.cells[i]);
	lk_grid_release(&g);
}

/* ------------------------------------------------------- evaluation */

/* OUT_SOLVED_START: the level is solved before any move, no puzzle. */
enum outcome { OUT_INVALID, OUT_UNSOLVABLE, OUT_TIMEOUT, OUT_SOLVED_START, OUT_SOLVED };

struct evaluation {
	enum outcome outcome;
	enum lk_limit limit;      /* for OUT_TIMEOUT: the bound that was hit */
	uint64_t difficulty;      /* MixedAim's: fewest states explored */
	double seconds;           /* of the A* solve */
	struct lk_record rec;     /* the level and its fields */
	struct lk_strbuf canonical;
};

static void evaluation_release(struct evaluation *e)
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

/* Solve cells; run BFS and greedy too when A*'s count exceeds `worth`
 * (then the level might rank: MixedAim's difficulty can only be lower). */
static void evaluate(struct lk_solver *solver, const struct lk_cells *c,
		     const struct lk_level_options *lo, const struct lk_search_options *bounds,
		     uint64_t worth, struct evaluation *e)
{
	lk_record_init(&e->rec);
	lk_strbuf_init(&e->canonical);
	write_cells(c, &e->rec);
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *level = lk_level_load(&e->rec, lo, &err, &line);
	lk_strbuf_release(&err);
	e->outcome = OUT_INVALID;
	if (!level)
		return;
	/* Combination's prettiness: keep only the floor and the walls
	 * touching it; the puzzle, and any solution, stay the same. */
	struct lk_strbuf tidy = LK_STRBUF_INIT;
	soko_write_tidy_start(level, &tidy);
	lk_record_set_grid(&e->rec, tidy.buf);
	lk_strbuf_release(&tidy);
	struct lk_search_result r;
	lk_search_result_init(&r);
	uint64_t astar = search(solver, level, bounds, LK_ALGO_ASTAR, &r);
	e->seconds = r.seconds;
	lk_fields_solve(&e->rec, level, &r);
	e->outcome = r.status == LK_SOLVED ? (r.cost == 0 ? OUT_SOLVED_START : OUT_SOLVED)
		     : r.status == LK_UNSOLVABLE ? OUT_UNSOLVABLE : OUT_TIMEOUT;
	e->limit = r.limit;
	if (e->outcome == OUT_SOLVED) {
		e->difficulty = astar;
		lk_record_setf(&e->rec, "states-astar", "%llu", (unsigned long long)astar);
		if (astar > worth) {
			enum lk_algo others[] = { LK_ALGO_BFS, LK_ALGO_GREEDY };
			const char *names[] = { "states-bfs", "states-greedy" };
			for (int i = 0; i < 2; i++) {
				uint64_t n = search(solver, level, bounds, others[i], &r);
				if (r.status == LK_SOLVED) {
					lk_record_setf(&e->rec, names[i], "%llu", (unsigned long long)n);
					if (n < e->difficulty)
						e->difficulty = n;
				}
			}
		}
		lk_record_setf(&e->rec, "difficulty-min", "%llu", (unsigned long long)e->difficulty);
		lk_level_canonical(level, &e->rec, &e->canonical);
	}
	lk_search_result_release(&r);
	lk_level_free(level);
}

/* One mutation of cur into next; false if the rules changed nothing. */
static bool mutate(const struct transform *t, const struct lk_cells *cur, struct lk_cells *next,
		   struct lk_rng *rng)
{
	copy_cells(next, cur);
	lk_rules_apply(t->rules, next, rng);
	size_t n = (size_t)cur->width * (size_t)cur->height;
	for (size_t i = 0; i < n; i++)
		next->cell[i] &= (uint16_t)~PLACEHOLDER;   /* scratch marks never survive */
	return memcmp(cur->cell, next->cell, n * sizeof *cur->cell) != 0;
}

/* ----------------------------------------------- the gen generator */

static int transform_candidate(struct lk_gen_worker *w, const struct lk_gen_options *o,
			       struct lk_rng *rng, struct lk_record *rec, enum lk_reject *why)
{
	struct transform *t = w->state;
	struct lk_cells cur = { 0 }, next = { 0 };
	struct evaluation best = { .outcome = OUT_INVALID }, e;
	uint64_t cur_difficulty = 0;
	bool have_best = false;
	starting_cells(t, rng, &cur);
	*why = LK_REJECT_INVALID;
	for (long s = 0; s < t->steps; s++) {
		if (!mutate(t, &cur, &next, rng))
			continue;
		evaluate(&w->solver, &next, &o->level, &o->rating.search, 0, &e);
		bool fits = e.outcome == OUT_SOLVED && (double)e.difficulty <= o->difficulty.max;
		if (!fits) {
			*why = e.outcome == OUT_UNSOLVABLE ? LK_REJECT_UNSOLVABLE
			       : e.outcome == OUT_TIMEOUT ? lk_reject_of_limit(e.limit)
			       : e.outcome == OUT_SOLVED_START ? LK_REJECT_SOLVED
			       : e.outcome == OUT_SOLVED ? LK_REJECT_HARD : LK_REJECT_INVALID;
			evaluation_release(&e);
			continue;
		}
		if (e.difficulty >= cur_difficulty) {
			copy_cells(&cur, &next);
			cur_difficulty = e.difficulty;
		}
		if (!have_best || e.difficulty > best.difficulty) {
			if (have_best)
				evaluation_release(&best);
			best = e;
			have_best = true;
		} else {
			evaluation_release(&e);
		}
	}
	free(cur.cell);
	free(next.cell);
	if (!have_best)
		return -1;
	/* the level and every field */
	for (size_t i = 0; i < best.rec.nlines; i++)
		lk_record_add_line(rec, best.rec.lines[i].text, 0);
	evaluation_release(&best);
	return 0;
}

const struct lk_generator lk_gen_sokoban_transform = {
	.game = "sokoban",
	.name = "transform",
	.summary = "MixedAim's transformer: a climb of rule mutations from --from or a random "
		   "room, keeping the hardest solvable level",
	.params_help = "steps=N (30), boxes=N (3, random rooms only)",
	.size_help = "10x10, or that of --from",
	.accepts = LK_GEN_ACCEPT(MOVES) | LK_GEN_ACCEPT(PUSHES) | LK_GEN_ACCEPT(DIFFICULTY) |
		   LK_GEN_ACCEPT(DEAD_ENDS) | LK_GEN_ACCEPT(FROM),
	.new_state = transform_new,
	.free_state = transform_free,
	.candidate = transform_candidate,
};

/* ------------------------------------------------------ suggestions */

struct top {
	struct evaluation *e;     /* hardest first */
	size_t n, k;
};

/* Insert e if it ranks and is new; true if the top changed (e is taken). */
static bool top_insert(struct top *top, struct evaluation *e)
{
	for (size_t i = 0; i < top->n; i++)
		if (strcmp(top->e[i].canonical.buf, e->canonical.buf) == 0)
			return false;
	if (top->n == top->k && e->difficulty <= top->e[top->n - 1].difficulty)
		return false;
	if (top->n == top->k)
		evaluation_release(&top->e[--top->n]);
	size_t at = top->n;
	while (at > 0 && top->e[at - 1].difficulty < e->difficulty) {
		top->e[at] = top->e[at - 1];
		at--;
	}
	top->e[at] = *e;
	top->n++;
	return true;
}

int lk_transform_suggest(const struct lk_gen_options *o, struct lk_rng *rng,
			 const struct lk_suggest_options *so, lk_suggest_cb cb, void *ctx,
			 struct lk_suggest_stats *st, struct lk_strbuf *err)
{
	struct transform *t = transform_new(o, err);
	if (!t)
		return -1;
	struct lk_solver solver;
	lk_solver_init(&solver);
	struct top top = { lk_xcalloc(so->k ? so->k : 1, sizeof *top.e), 0, so->k ? so->k : 1 };
	struct lk_record **view = lk_xcalloc(top.k, sizeof *view);
	struct lk_cells cur = { 0 }, next = { 0 };
	uint64_t cur_difficulty = 0;
	double start = lk_now();
	memset(st, 0, sizeof *st);
	st->first_update = -1;
	starting_cells(t, rng, &cur);

	while (!(so->cancel && *so->cancel)) {
		double now = lk_now();
		if ((so->max_candidates && st->candidates >= so->max_candidates) ||
		    (so->max_seconds > 0 && now - start >= so->max_seconds))
			break;
		if (!mutate(t, &cur, &next, rng)) {
			/* nothing the rules can do here: start over */
			starting_cells(t, rng, &cur);
			cur_difficulty = 0;
			if (st->candidates == 0 && !mutate(t, &cur, &next, rng))
				break;
			continue;
		}
		/* MixedAim's adaptive time limit. */
		double limit = 0;
		if (!top.n) {
			limit = fmax(0.02, (now - start) / 10);
		} else {
			for (size_t i = 0; i < top.n; i++)
				limit = fmax(limit, 8 * top.e[i].seconds);
			limit = fmax(limit, 0.02);
		}
		if (so->timeout_cap > 0)
			limit = fmin(limit, so->timeout_cap);
		struct lk_search_options bounds = o->rating.search;
		bounds.timeout = limit;

		struct evaluation e;
		uint64_t worth = top.n == top.k ? top.e[top.n - 1].difficulty : 0;
		evaluate(&solver, &next, &o->level, &bounds, worth, &e);
		st->candidates++;
		switch (e.outcome) {
		case OUT_INVALID: st->invalid++; break;
		case OUT_UNSOLVABLE: st->unsolvable++; break;
		case OUT_TIMEOUT: st->timed_out++; break;
		case OUT_SOLVED_START: st->solved_start++; break;
		case OUT_SOLVED: st->solvable++; break;
		}
		bool solved = e.outcome == OUT_SOLVED && lk_range_has(&o->difficulty, (double)e.difficulty);
		if (solved && e.difficulty >= cur_difficulty) {
			copy_cells(&cur, &next);
			cur_difficulty = e.difficulty;
		}
		if (solved && top_insert(&top, &e)) {
			st->updates++;
			st->seconds = lk_now() - start;
			if (st->first_update < 0)
				st->first_update = st->seconds;
			for (size_t i = 0; i < top.n; i++)
				view[i] = &top.e[i].rec;
			cb(ctx, view, top.n, st);
		} else {
			evaluation_release(&e);
		}
	}
	st->seconds = lk_now() - start;
	for (size_t i = 0; i < top.n; i++)
		evaluation_release(&top.e[i]);
	free(top.e);
	free(view);
	free(cur.cell);
	free(next.cell);
	lk_solver_release(&solver);
	transform_free(t);
	return 0;
}
