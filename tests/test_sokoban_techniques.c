/*
 * test_sokoban_techniques.c - each of Sokoban's pruning techniques on its
 * own (Rolling Stone's way): its switch turns it on and off alone, its
 * counter counts what it did, and it never loses an optimal solution.
 *
 * The truth is breadth-first search over pushes with every technique off
 * (the raw push graph, where BFS finds the fewest pushes; test_sokoban
 * checks that search against a brute-force enumerator).  Each technique is
 * then run alone, and every technique but it, with A* in both directions,
 * on hand-made levels where it is known to fire and on the Microban levels
 * whose raw search fits the bound: the push count must be the same, a level
 * without a solution must stay without one, the technique's counter must
 * move somewhere, and when it runs alone no other counter may.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"
#include "test_records.h"
#include "sokoban_random.h"

/* Interior 4..7 x 3..6, 1 to 3 boxes, walls on 10 to 40 % of it (so that
 * rooms and one-way doors turn up). */
static const struct soko_random_shape random_shape = { 4, 4, 3, 4, 1, 3, 10, 31 };

/* Raw searches larger than this are skipped (the optimum is unknown). */
#define TRUTH_STATES 200000
/* Microban levels tried (in pack order). */
#define MICROBAN_LEVELS 60
/* Random small levels with a solution checked (and a third as many
 * without). */
#define RANDOM_LEVELS 150

static const struct lk_technique *techniques(void)
{
	const struct lk_game *g = lk_game_find("sokoban");
	assert_non_null(g);
	assert_non_null(g->techniques);
	return g->techniques;
}

/* The pruning techniques, those that keep optimal solutions: they come
 * first in the list (the search for any solution's own are tested in
 * test_sokoban_any.c). */
static size_t technique_count(void)
{
	size_t n = 0;
	for (const struct lk_technique *t = techniques(); t->name && (t->flags & LK_TECH_OPTIMAL); t++)
		n++;
	return n;
}

/* Load a level with the techniques whose bit is clear in `on` turned off. */
static struct lk_level *load(const struct lk_record *rec, unsigned on)
{
	const char *off[LK_MAX_TECHNIQUES + 1];
	size_t n = 0;
	const struct lk_technique *t = techniques();
	for (size_t i = 0; i < technique_count(); i++)
		if (!(on >> i & 1))
			off[n++] = t[i].name;
	off[n] = NULL;
	struct lk_level_options opt = { .metric = "pushes", .off = off };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *level = lk_level_load(rec, &opt, &err, &line);
	if (!level)
		fail_msg("level did not load: line %zu: %s", line, err.buf);
	lk_strbuf_release(&err);
	return level;
}

static void search(struct lk_solver *s, const struct lk_level *level, enum lk_algo algo,
		   enum lk_direction dir, uint64_t max_states, struct lk_search_result *r)
{
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = algo;
	o.direction = dir;
	o.bounds.max_states = max_states;
	lk_solver_run(s, level, &o, r);
}

struct tally {
	uint64_t alone[LK_MAX_TECHNIQUES];   /* counter of technique i run alone */
	int levels;                          /* levels with a known answer */
	int unsolvable;
};

/* Check one level: the raw BFS answer against every technique alone and
 * every technique left out. */
static void check(struct lk_solver *s, const struct lk_record *rec, const char *name,
		  struct tally *tally)
{
	size_t nt = technique_count();
	unsigned all = (1u << nt) - 1;
	struct lk_search_result r;
	lk_search_result_init(&r);
	struct lk_level *raw = load(rec, 0);
	search(s, raw, LK_ALGO_BFS, LK_FORWARD, TRUTH_STATES, &r);
	for (size_t i = 0; i < nt; i++)
		assert_int_equal(r.technique_counts[i], 0);
	lk_level_free(raw);
	if (r.status == LK_UNKNOWN) {
		lk_search_result_release(&r);
		return;
	}
	enum lk_status want = r.status;
	unsigned long pushes = r.cost;
	tally->levels++;
	tally->unsolvable += want == LK_UNSOLVABLE;

	static const enum lk_direction dirs[] = { LK_FORWARD, LK_BOTH };
	for (size_t i = 0; i < nt; i++) {
		for (int leave_out = 0; leave_out < 2; leave_out++) {
			unsigned on = leave_out ? all & ~(1u << i) : 1u << i;
			struct lk_level *level = load(rec, on);
			for (size_t d = 0; d < 2; d++) {
				search(s, level, LK_ALGO_ASTAR, dirs[d], 0, &r);
				if (r.status != want || (want == LK_SOLVED && r.cost != pushes))
					fail_msg("%s: %s %s (%s): %s, %lu pushes; raw BFS: %s, %lu pushes",
						 name, leave_out ? "all but" : "only", techniques()[i].name,
						 lk_direction_name(dirs[d]), lk_status_name(r.status),
						 r.cost, lk_status_name(want), pushes);
				if (want == LK_SOLVED)
					assert_true(r.optimal);
				for (size_t j = 0; j < nt; j++)
					if (!(on >> j & 1) && r.technique_counts[j] != 0)
						fail_msg("%s: %s is off but counted %llu", name,
							 techniques()[j].name,
							 (unsigned long long)r.technique_counts[j]);
				if (!leave_out)
					tally->alone[i] += r.technique_counts[i];
			}
			lk_level_free(level);
		}
	}
	lk_search_result_release(&r);
}

static void read_text(const char *text, struct lk_record *rec)
{
	FILE *fp = tmpfile();
	struct lk_reader r;
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, strlen(text), fp), strlen(text));
	rewind(fp);
	lk_reader_init_fp(&r, fp, "test.xsb");
	lk_record_init(rec);
	assert_int_equal(lk_reader_next(&r, rec, NULL, NULL), 1);
	lk_reader_close(&r);
	fclose(fp);
}

/*
 * One state for each technique, where it must cut something: the start
 * of each level below, its successors (or heuristic) with the technique
 * alone on and with everything off.
 *  - dead squares: pushing the box up puts it on the top row, which has
 *    no goal: 4 pushes, 3 without that one;
 *  - freeze: pushing (4,2) up sets it beside (3,1) against the top wall,
 *    both off goals and neither dead (the goal (1,1) is on that row);
 *  - bipartite: both boxes are on the top row left of the wall (5,1),
 *    from where only the goal (1,1) can be reached;
 *  - PI-corrals: the box in the door (3,2) fences off the left room and
 *    its two empty goals, and can only be pushed into it: that push alone
 *    is searched, the four of the other box are not;
 *  - tunnel macros: pushed left, the box (4,1) enters the dead-end
 *    corridor (3,1)-(1,1) whose only goal is filled: the push is dead
 *    (neither a dead square nor a freeze: (3,1) can still slide along);
 *  - deadlock table: freeze's level again (with three more boxes, on goals
 *    along the bottom: the push searches keep a table only in levels of
 *    more than four boxes), with freeze off: the two boxes side by side
 *    against the wall, searched alone, cannot move at all, so the pattern
 *    is learned and the push cut;
 *  - player-aware: the box (4,1) could reach the goal (1,1) pushed from
 *    the right, but the player is on its left, and the only push it has
 *    ends in the corner: the bound calls the start dead;
 *  - pair conflicts: the matching prices the boxes (2,2) and (2,3) at 2
 *    and 1 pushes; together they need 5, the level's optimum (breadth-
 *    first search), as (2,2) can move only once (2,3) has, and (1,1), from
 *    where it would be pushed onto its goal, is then shut off.  The
 *    database is built once a search has evaluated as many states as it
 *    costs, so the start is evaluated that often.
 */
struct cut {
	const char *text;
	int technique;           /* index into the game's list */
	unsigned with, without;  /* successors; for bipartite 1 = dead */
};

static const struct cut cuts[] = {
	{ "######\n#    #\n# $@ #\n#.   #\n######\n", 0, 3, 4 },
	{ "#######\n#. $  #\n#   $ #\n#.  @ #\n#######\n", 1, 5, 6 },
	{ "##########\n#.$$ #  .#\n#        #\n#      @ #\n##########\n", 2, 1, 0 },
	{ "#########\n#. #    #\n#  $  @ #\n#. #  $ #\n#  #    #\n#########\n", 3, 1, 5 },
	{ "#########\n#*  $   #\n#### ## #\n#.   @  #\n#########\n", 4, 0, 1 },
	{ "#########\n#. $    #\n#   $   #\n#.  @   #\n#*  *  *#\n#########\n", 5, 7, 8 },
	{ "#######\n#. @$ #\n#######\n", 6, 1, 0 },
	{ "######\n#  .@#\n##$  #\n# $. #\n#    #\n######\n", 7, 5, 3 },
};

/* Successors of the start (or, for bipartite and player-aware, whether
 * the heuristic calls it dead) with only the techniques in `on`, and what
 * they counted. */
static unsigned cut_at_start(const struct cut *c, unsigned on, uint64_t *counts)
{
	struct lk_record rec;
	read_text(c->text, &rec);
	struct lk_level *level = load(&rec, on);
	const struct lk_game *g = level->game;
	void *scratch = calloc(1, level->scratch_size);
	unsigned char *key = calloc(1, level->key_size);
	unsigned char *succ = calloc(level->max_successors, level->key_size);
	struct lk_edge *edges = calloc(level->max_successors, sizeof *edges);
	assert_true(scratch && key && succ && edges);
	g->initial_state(level, key);
	unsigned n = 0;
	const char *name = techniques()[c->technique].name;
	if (strcmp(name, "bipartite") == 0 || strcmp(name, "player-aware") == 0)
		n = g->heuristic(level, key, scratch) == LK_H_DEAD;
	else if (strcmp(name, "pair-conflicts") == 0)
		for (int i = 0; i < 1 << 14; i++)
			n = g->heuristic(level, key, scratch);
	else
		n = g->successors(level, key, scratch, succ, edges);
	memset(counts, 0, LK_MAX_TECHNIQUES * sizeof *counts);
	g->technique_counts(level, scratch, counts);
	free(edges);
	free(succ);
	free(key);
	free(scratch);
	lk_level_free(level);
	lk_record_release(&rec);
	return n;
}

static void test_each_cuts(void **state)
{
	(void)state;
	size_t nt = technique_count();
	assert_int_equal(nt, sizeof cuts / sizeof cuts[0]);
	for (size_t i = 0; i < nt; i++) {
		const struct cut *c = &cuts[i];
		uint64_t counts[LK_MAX_TECHNIQUES];
		const char *name = techniques()[c->technique].name;
		unsigned with = cut_at_start(c, 1u << c->technique, counts);
		if (with != c->with)
			fail_msg("%s alone: %u, want %u", name, with, c->with);
		for (size_t j = 0; j < nt; j++)
			if ((j == (size_t)c->technique) != (counts[j] > 0))
				fail_msg("%s alone: %s counted %llu", name, techniques()[j].name,
					 (unsigned long long)counts[j]);
		unsigned without = cut_at_start(c, 0, counts);
		if (without != c->without)
			fail_msg("everything off (%s's level): %u, want %u", name, without, c->without);
		for (size_t j = 0; j < nt; j++)
			assert_int_equal(counts[j], 0);
	}
}

/* Small levels for the searches, one without a solution (a box already in
 * a corner). */
static const char *const hand_made[] = {
	"#######\n#     #\n# $ . #\n#  @  #\n# .$  #\n#     #\n#######\n",
	"########\n#      #\n# $$   #\n#   @  #\n#  ..  #\n########\n",
	"##########\n#.   #  .#\n# $ $    #\n#      @ #\n##########\n",
	"#########\n#. #    #\n#  $  @ #\n#. #  $ #\n#  #    #\n#########\n",
	"#######\n#$    #\n#  .  #\n#  @  #\n#######\n",
};

static void report(const struct tally *t, const char *what)
{
	size_t nt = technique_count();
	print_message("  %s: %d levels (%d without a solution)", what, t->levels, t->unsolvable);
	for (size_t i = 0; i < nt; i++)
		print_message("%s %s %llu", i ? "," : ";", techniques()[i].name,
			      (unsigned long long)t->alone[i]);
	print_message("\n");
}

static void test_hand_made(void **state)
{
	(void)state;
	struct lk_solver s;
	struct tally t = { 0 };
	lk_solver_init(&s);
	for (size_t i = 0; i < sizeof hand_made / sizeof hand_made[0]; i++) {
		struct lk_record rec;
		char name[32];
		read_text(hand_made[i], &rec);
		snprintf(name, sizeof name, "hand-made level %zu", i + 1);
		check(&s, &rec, name, &t);
		lk_record_release(&rec);
	}
	report(&t, "hand-made");
	assert_int_equal(t.levels, (int)(sizeof hand_made / sizeof hand_made[0]));
	assert_true(t.unsolvable >= 1);
	lk_solver_release(&s);
}

static void test_microban(void **state)
{
	(void)state;
	char path[4096];
	FILE *fp = test_open_data("sokoban/microban.xsb", path, sizeof path);
	struct lk_reader r;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_solver s;
	struct tally t = { 0 };
	lk_reader_init_fp(&r, fp, path);
	lk_solver_init(&s);
	for (int n = 0; n < MICROBAN_LEVELS && lk_reader_next(&r, &rec, NULL, NULL) == 1; n++) {
		char name[32];
		snprintf(name, sizeof name, "Microban %d", n + 1);
		check(&s, &rec, name, &t);
	}
	report(&t, "Microban");
	/* every technique did something somewhere */
	assert_true(t.levels >= MICROBAN_LEVELS / 2);
	for (size_t i = 0; i < technique_count(); i++)
		if (t.alone[i] == 0)
			fail_msg("%s never fired", techniques()[i].name);
	lk_solver_release(&s);
	lk_record_release(&rec);
	lk_reader_close(&r);
	fclose(fp);
}

/* Every technique alone and left out against raw breadth-first search on
 * random small levels (the player-aware bound most of all: random walls
 * make doors a box can pass one way only). */
static void test_random(void **state)
{
	(void)state;
	struct lk_rng rng;
	struct lk_solver s;
	struct tally t = { 0 };
	lk_rng_seed(&rng, 2311);
	lk_solver_init(&s);
	for (int n = 0; t.levels - t.unsolvable < RANDOM_LEVELS; n++) {
		assert_true(n < 100 * RANDOM_LEVELS);
		char *text = soko_random_level(&rng, &random_shape);
		if (!text)
			continue;
		struct lk_record rec;
		char name[160];
		read_text(text, &rec);
		/* most draws cannot be solved: keep one of those for every
		 * three levels that can */
		struct lk_search_result r;
		lk_search_result_init(&r);
		struct lk_level *raw = load(&rec, 0);
		search(&s, raw, LK_ALGO_BFS, LK_FORWARD, TRUTH_STATES, &r);
		lk_level_free(raw);
		bool keep = r.status == LK_SOLVED || 3 * t.unsolvable < t.levels;
		lk_search_result_release(&r);
		snprintf(name, sizeof name, "random level %d:\n%s", n, text);
		if (keep)
			check(&s, &rec, name, &t);
		lk_record_release(&rec);
		free(text);
	}
	report(&t, "random");
	assert_true(t.unsolvable >= 1);
	lk_solver_release(&s);
}

/* A random walk through each of the first `levels` Microban levels,
 * `steps` states long, on the level loaded with the techniques `on`:
 * visit compares what it checks at w->key and writes the successors to
 * step to in w->succ, returning how many (0: back to the start); begin
 * and end (optional) set up and free what it needs beside each level. */
struct walk {
	struct lk_level *level;
	const struct lk_record *rec;
	size_t ks;
	void *sc;
	unsigned char *key, *succ;
	struct lk_edge *edges;
	int n, step;
	unsigned long compared;
};

struct walk_ops {
	void (*begin)(struct walk *w, void *ctx);
	unsigned (*visit)(struct walk *w, void *ctx);
	void (*end)(struct walk *w, void *ctx);
};

static unsigned long microban_walks(int levels, int steps, unsigned on, uint64_t seed,
				    const struct walk_ops *ops, void *ctx)
{
	char path[4096];
	FILE *fp = test_open_data("sokoban/microban.xsb", path, sizeof path);
	struct lk_reader r;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_rng rng;
	struct walk w = { .rec = &rec };
	lk_rng_seed(&rng, seed);
	lk_reader_init_fp(&r, fp, path);
	for (w.n = 0; w.n < levels && lk_reader_next(&r, &rec, NULL, NULL) == 1; w.n++) {
		w.level = load(&rec, on);
		w.ks = w.level->key_size;
		size_t max = w.level->max_successors;
		w.sc = calloc(1, w.level->scratch_size);
		w.key = calloc(1, w.ks);
		w.succ = calloc(max, w.ks);
		w.edges = calloc(max, sizeof *w.edges);
		assert_true(w.sc && w.key && w.succ && w.edges);
		if (ops->begin)
			ops->begin(&w, ctx);
		w.level->game->initial_state(w.level, w.key);
		for (w.step = 0; w.step < steps; w.step++) {
			unsigned ns = ops->visit(&w, ctx);
			if (ns == 0)
				w.level->game->initial_state(w.level, w.key);
			else
				memcpy(w.key, w.succ + lk_rng_below(&rng, ns) * w.ks, w.ks);
		}
		if (ops->end)
			ops->end(&w, ctx);
		free(w.edges);
		free(w.succ);
		free(w.key);
		free(w.sc);
		lk_level_free(w.level);
	}
	lk_record_release(&rec);
	lk_reader_close(&r);
	fclose(fp);
	return w.compared;
}

/* The matching bound warm-starts each assignment from the previous one
 * (sokoban_matching.c): along random walks through Microban levels, every
 * child's bound from the scratch the walk keeps must equal the bound from
 * a fresh scratch (the full Hungarian algorithm).  Pair conflicts are off:
 * they read the matching's potentials, which the two may choose apart
 * (both are bounds: test_sokoban_pairs.c). */
static void warm_begin(struct walk *w, void *ctx)
{
	void **fresh = ctx;
	*fresh = malloc(w->level->scratch_size);
	assert_non_null(*fresh);
}

static unsigned warm_visit(struct walk *w, void *ctx)
{
	void *fresh = *(void **)ctx;
	const struct lk_game *g = w->level->game;
	unsigned ns = g->successors(w->level, w->key, w->sc, w->succ, w->edges);
	for (unsigned i = 0; i < ns; i++) {
		memset(fresh, 0, w->level->scratch_size);
		unsigned want = g->heuristic(w->level, w->succ + i * w->ks, fresh);
		unsigned got = g->heuristic(w->level, w->succ + i * w->ks, w->sc);
		if (got != want)
			fail_msg("Microban %d, step %d: warm %u, full %u", w->n + 1, w->step, got,
				 want);
		w->compared++;
	}
	return ns;
}

static void warm_end(struct walk *w, void *ctx)
{
	(void)w;
	free(*(void **)ctx);
}

static void test_warm_matching(void **state)
{
	(void)state;
	void *fresh = NULL;   /* a scratch block made anew for each bound */
	const struct walk_ops ops = { warm_begin, warm_visit, warm_end };
	unsigned long compared = microban_walks(
		40, 150, ~0u & ~(1u << soko_test_technique("pair-conflicts")), 23, &ops, &fresh);
	print_message("  %lu bounds compared\n", compared);
	assert_true(compared > 10000);
}

/* whole_successors is the successors with PI-corral pruning and tunnel
 * macros off (what the rating's walk needs where a solution found
 * backwards leaves the forward pruning): along random walks through
 * Microban levels, its set must be the successors of the same level
 * loaded with those two techniques off, at every state, and must hold a
 * move the pruned successors leave out somewhere (or the test could not
 * fail).  The deadlock table is off in both: what it has learned depends
 * on the order of the questions, which the pruning changes. */
struct whole_check {
	unsigned plain_moves;       /* the techniques of the level to compare with */
	struct lk_level *truth;
	void *tsc;
	unsigned char *want, *pruned;
	unsigned long wider;        /* states with moves the pruning leaves out */
};

static size_t key_size_for_sort;
static int key_order(const void *a, const void *b)
{
	return memcmp(a, b, key_size_for_sort);
}

static void whole_begin(struct walk *w, void *ctx)
{
	struct whole_check *c = ctx;
	c->truth = load(w->rec, c->plain_moves);
	size_t max = w->level->max_successors;
	c->tsc = calloc(1, c->truth->scratch_size);
	c->want = calloc(max, w->ks);
	c->pruned = calloc(max, w->ks);
	assert_true(c->tsc && c->want && c->pruned);
	assert_non_null(w->level->game->whole_successors);
	key_size_for_sort = w->ks;
}

static unsigned whole_visit(struct walk *w, void *ctx)
{
	struct whole_check *c = ctx;
	const struct lk_game *g = w->level->game;
	unsigned nw = g->whole_successors(w->level, w->key, w->sc, w->succ, w->edges);
	unsigned nt = g->successors(c->truth, w->key, c->tsc, c->want, w->edges);
	if (nw != nt)
		fail_msg("Microban %d, step %d: %u whole successors, %u without the two techniques",
			 w->n + 1, w->step, nw, nt);
	/* the pruned ones into their own buffer (the edges are not read) */
	c->wider += nw > g->successors(w->level, w->key, w->sc, c->pruned, w->edges);
	qsort(w->succ, nw, w->ks, key_order);
	qsort(c->want, nt, w->ks, key_order);
	if (nw && memcmp(w->succ, c->want, nw * w->ks) != 0)
		fail_msg("Microban %d, step %d: the whole successors differ", w->n + 1, w->step);
	w->compared++;
	return nw;
}

static void whole_end(struct walk *w, void *ctx)
{
	(void)w;
	struct whole_check *c = ctx;
	free(c->pruned);
	free(c->want);
	free(c->tsc);
	lk_level_free(c->truth);
}

static void test_whole_successors(void **state)
{
	(void)state;
	unsigned no_table = ~(1u << soko_test_technique("deadlock-table"));
	struct whole_check c = { .plain_moves = no_table &
						~(1u << soko_test_technique("pi-corrals")) &
						~(1u << soko_test_technique("tunnel-macros")) };
	const struct walk_ops ops = { whole_begin, whole_visit, whole_end };
	unsigned long compared = microban_walks(60, 200, no_table, 29, &ops, &c);
	print_message("  %lu states compared, %lu with moves the pruning leaves out\n", compared,
		      c.wider);
	assert_true(compared > 5000);
	assert_true(c.wider > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_cuts),
		cmocka_unit_test(test_hand_made),
		cmocka_unit_test(test_microban),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_warm_matching),
		cmocka_unit_test(test_whole_successors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
