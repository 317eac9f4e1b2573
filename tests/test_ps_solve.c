/*
 * test_ps_solve.c - the PuzzleScript heuristic and pruning against an
 * independent truth: every state of small hand-made levels is enumerated
 * (the plain state space, nothing pruned) and its distance to a goal
 * found by a breadth-first search backwards over the enumerated edges.
 * Then: a heuristic that claims to be a lower bound never exceeds that
 * distance, a state either pruning technique drops has no way to a goal,
 * A* with the heuristic finds BFS's optimal length, and over the demo
 * games' levels pruning (each technique alone and both) changes neither
 * solvability nor the optimal length.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "levelkit/game.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "../src/games/puzzlescript/ps_game.h"

/* ------------------------------------------------------------ scripts */

/* A game from its sections: the objects and layers fixed, a goal Exit. */
static char *script(const char *rules, const char *wins, const char *levels)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_strbuf_addf(&sb,
		       "title solve test\n\n"
		       "========\nOBJECTS\n========\n\n"
		       "Background\nblack\n\nWall\nbrown\n\nPlayer\nblue\n\nCrate\norange\n\n"
		       "Target\nyellow\n\nHole\ngray\n\nExit\ngreen\n\n"
		       "=======\nLEGEND\n=======\n\n"
		       ". = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n"
		       "@ = Crate and Target\nH = Hole\nE = Exit\nC = Crate and Hole\n"
		       "W = Wall and Target\nBlock = Crate or Wall\n\n"
		       "=======\nSOUNDS\n=======\n\n"
		       "================\nCOLLISIONLAYERS\n================\n\n"
		       "Background\nTarget, Hole, Exit\nPlayer, Wall, Crate\n\n"
		       "======\nRULES\n======\n\n%s\n"
		       "==============\nWINCONDITIONS\n==============\n\n%s\n"
		       "=======\nLEVELS\n=======\n\n%s\n",
		       rules, wins, levels);
	return lk_strbuf_detach(&sb, NULL);
}

static const char push[] = "[ > Player | Crate ] -> [ > Player | > Crate ]\n";

/* The script's levels as records (the script written to a file first:
 * records name their script). */
struct levels {
	char path[64];
	struct lk_record *recs;
	size_t n;
};

static void levels_from_file(struct levels *ls, const char *path)
{
	const struct lk_game *game = lk_game_find("puzzlescript");
	assert_non_null(game);
	struct lk_strbuf text = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
	assert_int_equal(lk_strbuf_read_file(&text, path), 0);
	size_t line = 0;
	if (game->import(path, text.buf, text.len, &ls->recs, &ls->n, &err, &line) != 0)
		print_error("import: %s:%zu: %s\n", path, line, err.buf);
	assert_non_null(ls->recs);
	lk_strbuf_release(&text);
	lk_strbuf_release(&err);
}

static void levels_from_script(struct levels *ls, char *src)
{
	snprintf(ls->path, sizeof ls->path, "/tmp/lk_ps_solve_XXXXXX");
	int fd = mkstemp(ls->path);
	assert_true(fd >= 0);
	size_t len = strlen(src);
	assert_int_equal(write(fd, src, len), (ssize_t)len);
	close(fd);
	free(src);
	levels_from_file(ls, ls->path);
}

static void levels_free(struct levels *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		lk_record_release(&ls->recs[i]);
	free(ls->recs);
	if (ls->path[0])
		unlink(ls->path);
}

static struct lk_level *load(const struct lk_record *rec, const char *heuristic, bool plain)
{
	struct lk_level_options opt = { .heuristic = heuristic, .plain = plain };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *level = lk_level_load(rec, &opt, &err, &line);
	if (!level)
		print_error("load: line %zu: %s\n", line, err.buf);
	assert_non_null(level);
	lk_strbuf_release(&err);
	return level;
}

/* --------------------------------------------------------- the truth */

/* Every state of a level's plain space, its edges and each state's
 * distance to a goal (UINT32_MAX: none). */
struct space {
	size_t ks, n, cap;
	unsigned char *keys;
	uint32_t *slots;        /* hash table of state indices + 1 */
	size_t nslots;
	uint32_t *succ;         /* max_successors per state, UINT32_MAX unused */
	unsigned maxs;
	uint32_t *dist;
};

static uint64_t key_hash(const unsigned char *k, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ k[i]) * 0x100000001b3ULL;
	return h;
}

static uint32_t space_add(struct space *sp, const unsigned char *key)
{
	size_t i = (size_t)(key_hash(key, sp->ks) & (sp->nslots - 1));
	for (; sp->slots[i]; i = (i + 1) & (sp->nslots - 1))
		if (!memcmp(sp->keys + (sp->slots[i] - 1) * sp->ks, key, sp->ks))
			return sp->slots[i] - 1;
	assert_true(sp->n < sp->cap);
	memcpy(sp->keys + sp->n * sp->ks, key, sp->ks);
	sp->slots[i] = (uint32_t)++sp->n;
	return (uint32_t)(sp->n - 1);
}

static void enumerate(const struct lk_level *level, struct space *sp, size_t cap)
{
	const struct lk_game *g = level->game;
	memset(sp, 0, sizeof *sp);
	sp->ks = level->key_size;
	sp->cap = cap;
	sp->maxs = level->max_successors;
	sp->nslots = 1;
	while (sp->nslots < 2 * cap)
		sp->nslots *= 2;
	sp->keys = calloc(cap, sp->ks);
	sp->slots = calloc(sp->nslots, sizeof *sp->slots);
	sp->succ = malloc(cap * sp->maxs * sizeof *sp->succ);
	unsigned char *out = malloc(sp->maxs * sp->ks);
	struct lk_edge *edges = malloc(sp->maxs * sizeof *edges);
	void *scratch = calloc(1, level->scratch_size);
	unsigned char *start = malloc(sp->ks);
	g->initial_state(level, start);
	space_add(sp, start);
	for (size_t s = 0; s < sp->n; s++) {
		unsigned m = g->successors(level, sp->keys + s * sp->ks, scratch, out, edges);
		for (unsigned j = 0; j < sp->maxs; j++)
			sp->succ[s * sp->maxs + j] = j < m ? space_add(sp, out + j * sp->ks) : UINT32_MAX;
	}
	/* distances: rounds of relaxation backwards from the goals (small spaces) */
	sp->dist = malloc(sp->n * sizeof *sp->dist);
	for (size_t s = 0; s < sp->n; s++)
		sp->dist[s] = g->is_goal(level, sp->keys + s * sp->ks) ? 0 : UINT32_MAX;
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t s = 0; s < sp->n; s++)
			for (unsigned j = 0; j < sp->maxs; j++) {
				uint32_t t = sp->succ[s * sp->maxs + j];
				if (t != UINT32_MAX && sp->dist[t] != UINT32_MAX &&
				    sp->dist[t] + 1 < sp->dist[s]) {
					sp->dist[s] = sp->dist[t] + 1;
					changed = true;
				}
			}
	}
	free(start);
	free(scratch);
	free(edges);
	free(out);
}

static void space_free(struct space *sp)
{
	free(sp->keys);
	free(sp->slots);
	free(sp->succ);
	free(sp->dist);
}

/* What checking a level found, for the tests' own assertions. */
struct seen {
	unsigned levels, states, dead_states, dead_cells, h_dead, admissible, positive;
};

/*
 * Check one level: both heuristics on every state (a claimed lower bound
 * never exceeds the distance; LK_H_DEAD only where no goal is reachable),
 * the dead cells, and A* against BFS.
 */
static void check_level(const struct lk_record *rec, struct seen *seen, int want_admissible)
{
	struct lk_level *plain = load(rec, NULL, true);
	struct space sp;
	enumerate(plain, &sp, 100000);
	seen->levels++;
	seen->states += (unsigned)sp.n;
	static const char *const kinds[] = { "mixedaim", "bound" };
	for (int k = 0; k < 2; k++) {
		struct lk_level *level = load(rec, kinds[k], false);
		assert_true(level->has_heuristic);
		if (k == 1)
			assert_true(level->heuristic_admissible);   /* "bound" always */
		else if (want_admissible >= 0)
			assert_int_equal(level->heuristic_admissible, want_admissible);
		seen->admissible += level->heuristic_admissible;
		void *scratch = calloc(1, level->scratch_size);
		for (size_t s = 0; s < sp.n; s++) {
			const unsigned char *key = sp.keys + s * sp.ks;
			unsigned h = level->game->heuristic(level, key, scratch);
			unsigned e = level->game->estimate(level, key, scratch);
			bool dead_cells = ps_level_key_dead_cells(level, key);
			if (sp.dist[s] == UINT32_MAX) {
				seen->dead_states += k == 0;
			} else {
				if (h == LK_H_DEAD || e == LK_H_DEAD || dead_cells)
					print_error("state %zu at distance %u called dead\n", s, sp.dist[s]);
				assert_true(h != LK_H_DEAD && e != LK_H_DEAD && !dead_cells);
				if (level->heuristic_admissible && h > sp.dist[s])
					print_error("%s: h %u > distance %u\n", kinds[k], h, sp.dist[s]);
				if (level->heuristic_admissible)
					assert_true(h <= sp.dist[s]);
				seen->positive += k == 0 && h > 0;
			}
			seen->dead_cells += k == 0 && dead_cells;
			seen->h_dead += k == 0 && h == LK_H_DEAD;
		}
		free(scratch);

		/* A* with this heuristic against BFS on the plain space */
		struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
		o.bounds.max_states = 200000;
		struct lk_search_result a, b;
		lk_search_result_init(&a);
		lk_search_result_init(&b);
		o.algo = LK_ALGO_ASTAR;
		lk_search(level, &o, &a);
		o.algo = LK_ALGO_BFS;
		lk_search(plain, &o, &b);
		assert_int_equal(a.status, b.status);
		assert_int_equal(b.status, sp.dist[0] == UINT32_MAX ? LK_UNSOLVABLE : LK_SOLVED);
		if (b.status == LK_SOLVED) {
			assert_int_equal(b.cost, sp.dist[0]);
			if (level->heuristic_admissible) {
				assert_true(a.optimal);
				assert_int_equal(a.cost, b.cost);
			} else {
				assert_false(a.optimal);   /* the record must not claim it */
				assert_true(a.cost >= b.cost);
			}
		}
		lk_search_result_release(&a);
		lk_search_result_release(&b);
		lk_level_free(level);
	}
	space_free(&sp);
	lk_level_free(plain);
}

static void check_script(char *src, struct seen *seen, int want_admissible)
{
	struct levels ls = { 0 };
	levels_from_script(&ls, src);
	assert_true(ls.n > 0);
	for (size_t i = 0; i < ls.n; i++) {
		size_t first;
		if (lk_record_grid(&ls.recs[i], &first) > 0)
			check_level(&ls.recs[i], seen, want_admissible);
	}
	levels_free(&ls);
}

/* ------------------------------------------------------ hand-worked */

static const char soko_levels[] =
	"#######\n#.....#\n#.*O..#\n#..P..#\n#######\n\n"
	"######\n#O...#\n#.**.#\n#.P.O#\n######\n\n"
	"#######\n#O#...#\n#.*.P.#\n#..*O.#\n#.....#\n#######\n\n"
	/* a crate in a corner: unsolvable, every state dead */
	"######\n#*..O#\n#..P.#\n######\n";

/* Sokoban, "all Target on Crate" (static rows, walker columns): the
 * matching over push distances, one crate a turn, is a lower bound. */
static void test_sokoban_targets(void **state)
{
	(void)state;
	struct seen seen = { 0 };
	check_script(script(push, "all Target on Crate", soko_levels), &seen, 1);
	assert_int_equal(seen.levels, 4);
	assert_true(seen.dead_cells > 0);    /* the corners */
	assert_true(seen.h_dead > 0);        /* the unsolvable level */
	assert_true(seen.positive > 0);
}

/* "all Crate on Target" with a spare target: walkers as rows. */
static void test_sokoban_crates(void **state)
{
	(void)state;
	struct seen seen = { 0 };
	check_script(script(push, "all Crate on Target",
			    "#######\n#O....#\n#.*.O.#\n#..P..#\n#O....#\n#######\n\n"
			    "#######\n#.....#\n#O**..#\n#..P.O#\n#######\n"),
		     &seen, 1);
	assert_true(seen.dead_cells > 0);
}

/* Hand-worked values: the crate two cells left of its target, the player
 * below it.  Both heuristics say 2 (two pushes, one crate a turn); the
 * estimate 2; BFS needs 4 (left, up, right, right). */
static void test_values(void **state)
{
	(void)state;
	struct levels ls = { 0 };
	levels_from_script(&ls, script(push, "all Target on Crate",
				       "#######\n#.....#\n#.*.O.#\n#.P...#\n#######\n"));
	struct lk_level *level = load(&ls.recs[0], NULL, false);
	unsigned char *key = malloc(level->key_size);
	void *scratch = calloc(1, level->scratch_size);
	level->game->initial_state(level, key);
	assert_int_equal(level->game->heuristic(level, key, scratch), 2);
	assert_int_equal(level->game->estimate(level, key, scratch), 2);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_search_result r;
	lk_search_result_init(&r);
	o.algo = LK_ALGO_BFS;
	lk_search(level, &o, &r);
	assert_int_equal(r.status, LK_SOLVED);
	assert_int_equal(r.cost, 4);
	lk_search_result_release(&r);
	free(scratch);
	free(key);
	lk_level_free(level);
	levels_free(&ls);
}

/* "some Player on Exit": the player's own steps, admissible. */
static void test_exit(void **state)
{
	(void)state;
	struct seen seen = { 0 };
	check_script(script(push, "some Player on Exit",
			    "#######\n#P.#.E#\n#.*#..#\n#.....#\n#######\n\n"
			    "#####\n#P*E#\n#####\n"),
		     &seen, 1);
	assert_true(seen.positive > 0);
	assert_true(seen.dead_states > 0);   /* the crate pushed into the exit's way */
}

/* "no Crate on Hole": each crate must leave its hole. */
static void test_no_on(void **state)
{
	(void)state;
	struct seen seen = { 0 };
	check_script(script(push, "no Crate on Hole",
			    "#######\n#.....#\n#.CC..#\n#.P...#\n#######\n\n"
			    "######\n#C...#\n#..P.#\n######\n"),
		     &seen, 1);
	assert_true(seen.positive > 0);
	assert_true(seen.h_dead > 0);   /* the crate stuck in its corner hole */
}

/* "no Crate" (crates fall into holes: not walkers) and "some Crate on
 * Target" together: two conditions, so mixedaim's sum claims nothing. */
static void test_no_and_some(void **state)
{
	(void)state;
	struct seen seen = { 0 };
	check_script(script("[ > Player | Crate ] -> [ > Player | > Crate ]\n"
			    "late [ Crate Hole ] -> [ Hole ]\n",
			    "no Crate\nsome Player on Exit",
			    "#######\n#P*.H.#\n#.*..E#\n#..H..#\n#######\n"),
		     &seen, 0);
	assert_true(seen.positive > 0);
}

/* Crates push crates: a turn may move any number of them, so the
 * matching is not divided and mixedaim claims nothing; bound keeps the
 * farthest crate's own distance. */
static void test_chains(void **state)
{
	(void)state;
	struct seen seen = { 0 };
	check_script(script("[ > Player | Crate ] -> [ > Player | > Crate ]\n"
			    "[ > Crate | Crate ] -> [ > Crate | > Crate ]\n",
			    "all Target on Crate",
			    "########\n#......#\n#.P**.O#\n#....O.#\n########\n"),
		     &seen, 0);
	assert_true(seen.positive > 0);
}

/* A side with a static member (Block = Crate or Wall): a wall on a
 * target meets the condition there, so no crate need reach it; the side
 * is no walker and nothing is proven, nor called dead. */
static void test_static_member(void **state)
{
	(void)state;
	struct seen seen = { 0 };
	check_script(script(push, "all Target on Block",
			    "#######\n#W....#\n#.*.O.#\n#.P...#\n#######\n"),
		     &seen, 0);
	assert_int_equal(seen.h_dead, 0);
	assert_int_equal(seen.dead_cells, 0);
}

/* Two players: a turn moves up to two crates, the matching halves. */
static void test_two_players(void **state)
{
	(void)state;
	struct seen seen = { 0 };
	check_script(script(push, "all Target on Crate",
			    "#######\n#P.*.O#\n#.....#\n#P.*.O#\n#######\n"),
		     &seen, 1);
	assert_true(seen.positive > 0);
}

/* An again rule (crates slide on): several cells a turn, nothing claimed
 * by mixedaim, bound falls back to one move. */
static void test_again(void **state)
{
	(void)state;
	struct seen seen = { 0 };
	check_script(script("[ > Player | Crate ] -> [ > Player | > Crate ]\n"
			    "[ Crate | Target ] -> [ Crate | Target ] again\n",
			    "all Target on Crate",
			    "#######\n#.....#\n#.*..O#\n#.P...#\n#######\n"),
		     &seen, 0);
}

/* A win command: conditions prove nothing, and nothing is called dead. */
static void test_win_command(void **state)
{
	(void)state;
	struct seen seen = { 0 };
	check_script(script("[ > Player | Crate ] -> [ > Player | > Crate ]\n"
			    "late [ Player Exit ] -> win\n",
			    "all Target on Crate",
			    "#######\n#*....#\n#..O..#\n#.P..E#\n#######\n"),
		     &seen, 0);
	assert_int_equal(seen.h_dead, 0);
	assert_int_equal(seen.dead_cells, 0);
}

/* A cut-scene level (run_rules_on_level_start, the crate walking onto its
 * target in the again turns of the start rules) is won on load, as in
 * the reference: every search answers 0 moves, the empty solution
 * replays to a win and a move after it is an error. */
static void test_start_win(void **state)
{
	(void)state;
	char *src = script("right [ stationary Crate ] -> [ right Crate ] again\n",
			   "all Crate on Target", "#######\n#P*..O#\n#######\n");
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_strbuf_addstr(&sb, "run_rules_on_level_start\n");
	lk_strbuf_addstr(&sb, src);
	free(src);
	struct levels ls = { 0 };
	levels_from_script(&ls, lk_strbuf_detach(&sb, NULL));
	const enum lk_algo algos[] = { LK_ALGO_BFS, LK_ALGO_ASTAR, LK_ALGO_GREEDY };
	for (size_t a = 0; a < sizeof algos / sizeof *algos; a++) {
		struct lk_level *level = load(&ls.recs[0], NULL, a == 0);
		struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
		o.algo = algos[a];
		struct lk_search_result r;
		lk_search_result_init(&r);
		lk_search(level, &o, &r);
		assert_int_equal(r.status, LK_SOLVED);
		assert_int_equal(r.cost, 0);
		lk_search_result_release(&r);
		struct lk_moves m;
		lk_moves_init(&m, level);
		struct lk_strbuf err = LK_STRBUF_INIT;
		bool solved = false;
		assert_int_equal(level->game->replay(level, "", &m, &solved, &err), 0);
		assert_true(solved);
		lk_moves_release(&m);
		lk_moves_init(&m, level);
		assert_int_equal(level->game->replay(level, "r", &m, &solved, &err), -1);
		assert_non_null(strstr(err.buf, "solved on load"));
		lk_moves_release(&m);
		lk_strbuf_release(&err);
		lk_level_free(level);
	}
	levels_free(&ls);
}

/* ------------------------------------------------------- demo games */

struct outcome {
	enum lk_status status;
	unsigned long cost;
};

static struct outcome run(const struct lk_record *rec, enum lk_algo algo, const char *heuristic,
			  bool plain, int cells, int states, unsigned long *pruned)
{
	struct lk_level *level = load(rec, heuristic, plain);
	if (cells >= 0)
		ps_level_set_prune(level, PS_PRUNE_DEAD_CELLS, cells != 0);
	if (states >= 0)
		ps_level_set_prune(level, PS_PRUNE_DEAD_STATES, states != 0);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = algo;
	o.bounds.max_states = 20000;
	struct lk_search_result r;
	lk_search_result_init(&r);
	lk_search(level, &o, &r);
	struct outcome out = { r.status, r.cost };
	if (r.status == LK_SOLVED) {
		/* every solution found replays to a win */
		struct lk_moves m;
		lk_moves_init(&m, level);
		lk_level_label(level, r.path, r.nkeys, &m);
		struct lk_moves again;
		lk_moves_init(&again, level);
		struct lk_strbuf err = LK_STRBUF_INIT;
		bool solved = false;
		assert_int_equal(level->game->replay(level, m.text.buf, &again, &solved, &err), 0);
		assert_true(solved);
		lk_strbuf_release(&err);
		lk_moves_release(&again);
		lk_moves_release(&m);
	}
	pruned[0] += ps_level_pruned(level, PS_PRUNE_DEAD_CELLS);
	pruned[1] += ps_level_pruned(level, PS_PRUNE_DEAD_STATES);
	lk_search_result_release(&r);
	lk_level_free(level);
	return out;
}

/* Where both searches finished, the same answer. */
static void same(struct outcome want, struct outcome got, const char *game, size_t level,
		 const char *how)
{
	if (want.status == LK_UNKNOWN || got.status == LK_UNKNOWN)
		return;
	if (got.status != want.status || got.cost != want.cost)
		print_error("%s record %zu, %s: %s %lu, plain BFS %s %lu\n", game, level + 1, how,
			    lk_status_name(got.status), got.cost, lk_status_name(want.status),
			    want.cost);
	assert_int_equal(got.status, want.status);
	if (want.status == LK_SOLVED)
		assert_int_equal(got.cost, want.cost);
}

static void test_demo_pruning(void **state)
{
	(void)state;
	static const char *const games[] = {
		"microban", "sokoban_basic", "sokoban_match3", "sokoban_sticky", "all_green_to_blue",
		"blockfaker", "byyourside", "kettle", "limerick", "zenpuzzlegarden",
	};
	const char *data = getenv("LEVELKIT_DATA");
	unsigned compared = 0;
	unsigned long pruned_cells[2] = { 0 }, pruned_states[2] = { 0 }, pruned_off[2] = { 0 };
	unsigned long pruned_both[2] = { 0 };
	for (size_t gi = 0; gi < sizeof games / sizeof games[0]; gi++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/puzzlescript/games/%s.txt",
			 data ? data : "../shared/data", games[gi]);
		if (access(path, R_OK) != 0) {
			print_message("  skipping: %s not found (set LEVELKIT_DATA)\n", path);
			continue;
		}
		struct levels ls = { 0 };
		levels_from_file(&ls, path);
		for (size_t i = 0; i < ls.n; i++) {
			const struct lk_record *rec = &ls.recs[i];
			size_t first;
			if (lk_record_grid(rec, &first) == 0)
				continue;   /* a message */
			/* the truth: plain BFS, nothing pruned */
			struct outcome truth = run(rec, LK_ALGO_BFS, NULL, true, -1, -1, pruned_off);
			if (truth.status == LK_UNKNOWN)
				continue;
			compared++;
			/* each technique alone, then both */
			same(truth, run(rec, LK_ALGO_BFS, NULL, false, 1, 0, pruned_cells), games[gi], i,
			     "BFS, dead cells");
			/* A* under "bound", a lower bound in every game */
			same(truth, run(rec, LK_ALGO_ASTAR, "bound", false, 0, 1, pruned_states),
			     games[gi], i, "A*, dead states");
			struct lk_level *level = load(rec, NULL, false);
			bool admissible = level->heuristic_admissible;
			lk_level_free(level);
			struct outcome both = run(rec, LK_ALGO_ASTAR, NULL, false, 1, 1, pruned_both);
			if (admissible)
				same(truth, both, games[gi], i, "A*, both");
			else if (both.status != LK_UNKNOWN)
				assert_int_equal(both.status, truth.status);
		}
		levels_free(&ls);
	}
	if (compared == 0)
		skip();
	print_message("  %u levels compared; dropped: dead cells %lu, dead states %lu\n", compared,
		      pruned_cells[0], pruned_states[1]);
	assert_int_equal(pruned_off[0] + pruned_off[1], 0);   /* plain drops nothing */
	assert_int_equal(pruned_cells[1], 0);                  /* switched off: nothing */
	assert_int_equal(pruned_states[0], 0);
	assert_true(pruned_cells[0] > 0);
	assert_true(pruned_states[1] > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_sokoban_targets),
		cmocka_unit_test(test_sokoban_crates),
		cmocka_unit_test(test_exit),
		cmocka_unit_test(test_no_on),
		cmocka_unit_test(test_no_and_some),
		cmocka_unit_test(test_chains),
		cmocka_unit_test(test_two_players),
		cmocka_unit_test(test_static_member),
		cmocka_unit_test(test_again),
		cmocka_unit_test(test_win_command),
		cmocka_unit_test(test_start_win),
		cmocka_unit_test(test_demo_pruning),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	lk_game_defs_release();
	return rc;
}
