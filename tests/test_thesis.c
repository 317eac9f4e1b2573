/*
 * test_thesis.c - the thesis measure (rate --measure thesis: De Keyser's
 * configuration, lk_level_options.thesis) against independent truths:
 *
 *  - the thesis heuristic over PuzzleScript win conditions, each kind of
 *    condition on hand-worked states (the greedy matching worked by hand);
 *  - a level where the halved greedy matching exceeds the optimal pushes
 *    (so neither game may call the heuristic admissible, and does not);
 *  - the bundled microban.txt under PuzzleScript and the same levels as
 *    native Sokoban: every state's heuristic and every search's count of
 *    expanded states equal, level by level, and Microban 1's counts the
 *    ones the issue quotes (BFS 554, A* 549, greedy 304); and the board
 *    the rating reads (cells, pieces, sides against a wall) the same.
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

#include <limits.h>

#include "levelkit/fields.h"
#include "levelkit/game.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"

#ifndef ROOT_LEVELS_DIR
#define ROOT_LEVELS_DIR "levels"
#endif

/* ------------------------------------------------------------ loading */

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

/* The levels of a script given as text (written to a file, as rate reads it). */
static void levels_from_text(struct levels *ls, const char *script)
{
	snprintf(ls->path, sizeof ls->path, "/tmp/lk_thesis_XXXXXX");
	int fd = mkstemp(ls->path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, script, strlen(script)), (ssize_t)strlen(script));
	close(fd);
	levels_from_file(ls, ls->path);
}

/* A game with every kind of win condition's objects; wins and levels given. */
static void levels_from_script(struct levels *ls, const char *wins, const char *levels)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_strbuf_addf(&sb,
		       "title thesis test\n\n"
		       "========\nOBJECTS\n========\n\n"
		       "Background\nblack\n\nWall\nbrown\n\nPlayer\nblue\n\nCrate\norange\n\n"
		       "Target\nyellow\n\nExit\ngreen\n\n"
		       "=======\nLEGEND\n=======\n\n"
		       ". = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n"
		       "@ = Crate and Target\nE = Exit\n\n"
		       "=======\nSOUNDS\n=======\n\n"
		       "================\nCOLLISIONLAYERS\n================\n\n"
		       "Background\nTarget, Exit\nPlayer, Wall, Crate\n\n"
		       "======\nRULES\n======\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n\n"
		       "==============\nWINCONDITIONS\n==============\n\n%s\n\n"
		       "=======\nLEVELS\n=======\n\n%s\n",
		       wins, levels);
	levels_from_text(ls, sb.buf);
	lk_strbuf_release(&sb);
}

static void levels_free(struct levels *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		lk_record_release(&ls->recs[i]);
	free(ls->recs);
	if (ls->path[0])
		unlink(ls->path);
}

/* The index-th record with a grid (0-based). */
static const struct lk_record *nth_level(const struct levels *ls, size_t index)
{
	for (size_t i = 0; i < ls->n; i++) {
		size_t first;
		if (lk_record_grid(&ls->recs[i], &first) > 0 && index-- == 0)
			return &ls->recs[i];
	}
	fail_msg("no level %zu", index);
	return NULL;
}

static struct lk_level *load(const struct lk_record *rec, const struct lk_level_options *opt)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *level = lk_level_load(rec, opt, &err, &line);
	if (!level)
		fail_msg("load: line %zu: %s", line, err.buf);
	lk_strbuf_release(&err);
	return level;
}

static unsigned start_h(const struct lk_level *level)
{
	unsigned char *key = calloc(1, level->key_size);
	void *scratch = calloc(1, level->scratch_size);
	level->game->initial_state(level, key);
	unsigned h = level->game->heuristic(level, key, scratch);
	if (level->game->estimate)   /* greedy's too */
		assert_int_equal(level->game->estimate(level, key, scratch), h);
	free(scratch);
	free(key);
	return h;
}

/* The thesis heuristic of one level's start. */
static unsigned thesis_h(const char *wins, const char *level_text)
{
	struct levels ls = { 0 };
	levels_from_script(&ls, wins, level_text);
	struct lk_level_options opt = { .thesis = true };
	struct lk_level *level = load(nth_level(&ls, 0), &opt);
	assert_false(level->heuristic_admissible);
	unsigned h = start_h(level);
	lk_level_free(level);
	levels_free(&ls);
	return h;
}

/* ------------------------------------------------- hand-worked values */

static void test_conditions(void **state)
{
	(void)state;
	/* no Crate: one per crate */
	assert_int_equal(thesis_h("no Crate", "#######\n#*.*P*#\n#######\n"), 3);
	/* some Exit: one while there is none, 0 once there is */
	assert_int_equal(thesis_h("some Exit", "#####\n#P.*#\n#####\n"), 1);
	assert_int_equal(thesis_h("some Exit", "#####\n#P.E#\n#####\n"), 0);
	/* no Crate on Target: one per cell holding both */
	assert_int_equal(thesis_h("no Crate on Target", "#######\n#@.@P*#\n#.O...#\n#######\n"), 2);
	/* some Player on Exit: the nearest pair, Manhattan (3 right, 1 down) */
	assert_int_equal(thesis_h("some Player on Exit", "#######\n#P.E..#\n#....E#\n#######\n"), 2);
	assert_int_equal(thesis_h("some Player on Exit", "######\n#P...#\n#...E#\n######\n"), 4);
	/* and no Exit at all: 1 (the thesis does not say) */
	assert_int_equal(thesis_h("some Player on Exit", "#####\n#P..#\n#####\n"), 1);
	/*
	 * all Crate on Target, greedy: crates at columns 0 and 3, targets at
	 * 1 and 6 (one row).  The nearest pair first: crate 0 - target 1 (1),
	 * then crate 3 - target 6 (3): 4, halved 2.  A crate already on a
	 * target is a pair at distance 0: crates 0 (on a target) and 2,
	 * targets 0 and 5: 0 + 3, halved 1 (rounded down).
	 */
	assert_int_equal(thesis_h("all Crate on Target", "##########\n#*O.*..OP#\n##########\n"), 2);
	assert_int_equal(thesis_h("all Crate on Target", "##########\n#@.*..O.P#\n##########\n"), 1);
	/* two conditions: the sum (no Crate 2; some Player on Exit 3) */
	assert_int_equal(thesis_h("no Crate\nsome Player on Exit", "#######\n#P*.E.#\n#..*..#\n#######\n"),
			 2 + 3);
}

/*
 * The thesis calls the halved greedy matching a lower bound; it is not.
 * One row, crates at columns 1, 4 and 8, targets at 3, 5 and 11: greedy
 * takes crate 4 - target 3 (1, the first of two pairs at 1 in reading
 * order), then crate 8 - target 5 (3, before 8 - 11), then 1 - 11 (10):
 * 14, halved 7, while the three pushes 1->3, 4->5, 8->11 are 6.  Both
 * games give 7, and neither calls the heuristic admissible.
 */
static void test_overestimate(void **state)
{
	(void)state;
	static const char ps_level[] = "##############\n#.*.O*O..*..O#\n#P...........#\n##############\n";
	assert_int_equal(thesis_h("all Crate on Target", ps_level), 7);

	struct lk_record rec;
	lk_record_init(&rec);
	lk_record_set_grid(&rec, "##############\n# $ .$.  $  .#\n#@           #\n##############\n");
	struct lk_level_options opt = { .heuristic = "thesis" };
	struct lk_level *level = load(&rec, &opt);
	assert_false(level->heuristic_admissible);
	assert_int_equal(start_h(level), 7);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_search_result r;
	lk_search_result_init(&r);
	o.algo = LK_ALGO_BFS;
	o.direction = LK_FORWARD;
	lk_search(level, &o, &r);
	assert_int_equal(r.status, LK_SOLVED);
	assert_int_equal(r.cost, 6);   /* pushes, the default metric */
	lk_search_result_release(&r);
	lk_level_free(level);
	lk_record_release(&rec);
}

/* --------------------------------------------- one search, two engines */

/* A PuzzleScript microban level's map as native Sokoban. */
static void as_sokoban(const struct lk_record *ps, struct lk_record *out)
{
	size_t first, n = lk_record_grid(ps, &first);
	struct lk_strbuf rows = LK_STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		const char *line = ps->lines[first + i].text;
		for (const char *c = line; *c && *c != '\n'; c++) {
			const char *from = "#.O@P*", *to = "# .*@$";
			const char *at = strchr(from, *c);
			assert_non_null(at);
			lk_strbuf_addch(&rows, to[at - from]);
		}
		lk_strbuf_addch(&rows, '\n');
	}
	lk_record_init(out);
	lk_record_set_grid(out, rows.buf);
	lk_strbuf_release(&rows);
}

static void run(const struct lk_level *level, enum lk_algo algo, struct lk_search_result *r)
{
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = algo;
	o.direction = LK_FORWARD;
	o.bounds.max_states = 2000000;
	lk_search(level, &o, r);
	assert_int_equal(r->status, LK_SOLVED);
}

/* Every state BFS meets (up to a cap) has the same heuristic in both. */
static void same_heuristic(const struct lk_level *ps, const struct lk_level *soko)
{
	struct lk_search_result a, b;
	lk_search_result_init(&a);
	lk_search_result_init(&b);
	run(ps, LK_ALGO_BFS, &a);
	run(soko, LK_ALGO_BFS, &b);
	/* along the solution: the two engines' states are the same positions */
	assert_int_equal(a.nkeys, b.nkeys);
	void *s1 = calloc(1, ps->scratch_size), *s2 = calloc(1, soko->scratch_size);
	for (size_t i = 0; i < a.nkeys; i++)
		assert_int_equal(ps->game->heuristic(ps, a.path + i * ps->key_size, s1),
				 soko->game->heuristic(soko, b.path + i * soko->key_size, s2));
	free(s1);
	free(s2);
	lk_search_result_release(&a);
	lk_search_result_release(&b);
}

/* A level of any game from its text, with the given options. */
static struct lk_level *load_text(const char *game, const char *grid,
				  const struct lk_level_options *opt)
{
	struct lk_record rec;
	lk_record_init(&rec);
	lk_record_set_grid(&rec, grid);
	lk_record_set(&rec, "game", game);
	struct lk_level *level = load(&rec, opt);
	lk_record_release(&rec);
	return level;
}

/* The lower-case letters of a state as the game writes it: the fruit or
 * skiddies left (each game's own text, not the key the heuristic reads). */
static unsigned letters(const struct lk_level *level, const void *key)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	level->game->write_state(level, key, &text);
	unsigned n = 0;
	for (size_t i = 0; i < text.len; i++)
		n += text.buf[i] >= 'a' && text.buf[i] <= 'z';
	lk_strbuf_release(&text);
	return n;
}

/* The other games under the thesis measure: the win written as a
 * PuzzleScript win condition ("no Fruit", "no Skiddy", "no LightOn")
 * gives the thesis's heuristic, +1 for each; A* and greedy run on it, it
 * is not called admissible, and the state space is the same as without
 * the measure (the same BFS count).  Without it the slide games have no
 * estimate (0, admissible) and Lights Out keeps its admissible bound. */
static void test_other_games(void **state)
{
	(void)state;
	static const struct {
		const char *game, *grid;
		unsigned start;   /* hand-counted */
	} cases[] = {
		{ "fruit", "######\n#a  b#\n#    #\n#a  b#\n######\n", 4 },
		{ "fruit", "#######\n#a   b#\n# O   #\n#  c  #\n#b  ac#\n#######\n", 6 },
		{ "skiddy", "######G#\n#   g  #\n#g   r R\n# X r X#\n########\n", 4 },
		{ "skiddy", "######\n#rr..R\n#....#\n######\n", 2 },
	};
	struct lk_level_options thesis = { .thesis = true }, plain = { 0 };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct lk_level *t = load_text(cases[i].game, cases[i].grid, &thesis);
		struct lk_level *d = load_text(cases[i].game, cases[i].grid, &plain);
		assert_true(t->has_heuristic);
		assert_false(t->heuristic_admissible);
		assert_false(d->has_heuristic);
		assert_true(d->heuristic_admissible);
		assert_int_equal(start_h(t), cases[i].start);
		assert_int_equal(start_h(d), 0);
		struct lk_search_result a, b;
		lk_search_result_init(&a);
		lk_search_result_init(&b);
		run(t, LK_ALGO_BFS, &a);
		run(d, LK_ALGO_BFS, &b);
		assert_int_equal(a.expanded, b.expanded);
		assert_int_equal(a.cost, b.cost);
		/* along the shortest solution: one per piece the win wants gone */
		void *scratch = calloc(1, t->scratch_size);
		for (size_t k = 0; k < a.nkeys; k++) {
			const unsigned char *key = a.path + k * t->key_size;
			assert_int_equal(t->game->heuristic(t, key, scratch), letters(t, key));
		}
		assert_int_equal(t->game->heuristic(t, a.path + (a.nkeys - 1) * t->key_size, scratch), 0);
		free(scratch);
		static const enum lk_algo informed[] = { LK_ALGO_ASTAR, LK_ALGO_GREEDY };
		for (size_t k = 0; k < 2; k++) {
			run(t, informed[k], &b);
			assert_true(b.cost >= a.cost);
			assert_false(b.optimal);
		}
		lk_search_result_release(&a);
		lk_search_result_release(&b);
		lk_level_free(t);
		lk_level_free(d);
	}
	/* Lights Out: every lit light under the thesis, lit / 5 otherwise */
	const char *lights = "*.*\n.*.\n*.*\n";
	struct lk_level *t = load_text("lightsout", lights, &thesis);
	struct lk_level *d = load_text("lightsout", lights, &plain);
	assert_true(t->has_heuristic && d->has_heuristic);
	assert_false(t->heuristic_admissible);
	assert_true(d->heuristic_admissible);
	assert_int_equal(start_h(t), 5);
	assert_int_equal(start_h(d), 1);
	struct lk_search_result a, b;
	lk_search_result_init(&a);
	lk_search_result_init(&b);
	run(t, LK_ALGO_BFS, &a);
	run(d, LK_ALGO_BFS, &b);
	assert_int_equal(a.expanded, b.expanded);
	run(t, LK_ALGO_ASTAR, &b);
	assert_false(b.optimal);
	assert_true(b.cost >= a.cost);
	lk_search_result_release(&a);
	lk_search_result_release(&b);
	lk_level_free(t);
	lk_level_free(d);
}

static void test_two_engines(void **state)
{
	(void)state;
	struct levels ls = { 0 };
	levels_from_file(&ls, ROOT_LEVELS_DIR "/puzzlescript/microban.txt");
	struct lk_level_options opt = { .thesis = true };
	/* levels 1, 2, 3, 4, 8, 9, 10: small enough for a test */
	static const size_t which[] = { 0, 1, 2, 3, 7, 8, 9 };
	for (size_t w = 0; w < sizeof which / sizeof which[0]; w++) {
		const struct lk_record *ps_rec = nth_level(&ls, which[w]);
		struct lk_record soko_rec;
		as_sokoban(ps_rec, &soko_rec);
		struct lk_level *ps = load(ps_rec, &opt), *soko = load(&soko_rec, &opt);
		assert_string_equal(soko->metric, "moves");
		assert_false(ps->heuristic_admissible || soko->heuristic_admissible);
		same_heuristic(ps, soko);
		/* the rating reads the same board of both: cells, pieces and the
		 * cells' sides against a wall (the PuzzleScript level's room, not
		 * the background drawn round it) */
		unsigned pc = 0, po = 0, sc = 0, so = 0;
		ps->game->rating_counts(ps, &pc, &po);
		soko->game->rating_counts(soko, &sc, &so);
		assert_int_equal(pc, sc);
		assert_int_equal(po, so);
		assert_int_equal(ps->game->rating_wall_sides(ps), soko->game->rating_wall_sides(soko));
		static const enum lk_algo algos[] = { LK_ALGO_BFS, LK_ALGO_ASTAR, LK_ALGO_GREEDY };
		for (size_t k = 0; k < 3; k++) {
			struct lk_search_result a, b;
			lk_search_result_init(&a);
			lk_search_result_init(&b);
			run(ps, algos[k], &a);
			run(soko, algos[k], &b);
			if (a.expanded != b.expanded || a.cost != b.cost)
				print_error("microban %zu %s: puzzlescript %llu states %lu moves, "
					    "sokoban %llu states %lu moves\n",
					    which[w] + 1, lk_algo_name(algos[k]),
					    (unsigned long long)a.expanded, (unsigned long)a.cost,
					    (unsigned long long)b.expanded, (unsigned long)b.cost);
			assert_int_equal(a.expanded, b.expanded);
			assert_int_equal(a.cost, b.cost);
			if (which[w] == 0) {
				static const uint64_t microban1[] = { 554, 549, 304 };
				assert_int_equal(a.expanded, microban1[k]);
			}
			lk_search_result_release(&a);
			lk_search_result_release(&b);
		}
		lk_level_free(ps);
		lk_level_free(soko);
		lk_record_release(&soko_rec);
	}
	levels_free(&ls);
}

/* ------------------------------------------------------ COST on rules */

/* Least cost from the start of a native Sokoban level (moves metric) to a
 * goal, a step costing 1 and a push 1 + extra: Dijkstra written here, the
 * push told by the boxes' bits changing (the key's bytes after the two of
 * the player). */
static unsigned long cheapest_native(const struct lk_level *level, unsigned extra)
{
	const struct lk_game *g = level->game;
	size_t ks = level->key_size, cap = 400000, n = 0;
	unsigned char *keys = calloc(cap, ks);
	unsigned long *dist = malloc(cap * sizeof *dist);
	bool *done = calloc(cap, 1);
	unsigned char *out = malloc((level->max_successors + 1) * ks);
	struct lk_edge *edges = malloc((level->max_successors + 1) * sizeof *edges);
	void *scratch = calloc(1, level->scratch_size);
	g->initial_state(level, keys);
	dist[n++] = 0;
	unsigned long best = ULONG_MAX;
	for (;;) {
		size_t u = n;
		for (size_t i = 0; i < n; i++)
			if (!done[i] && (u == n || dist[i] < dist[u]))
				u = i;
		if (u == n)
			break;
		done[u] = true;
		if (g->is_goal(level, keys + u * ks)) {
			best = dist[u];
			break;
		}
		unsigned m = g->successors(level, keys + u * ks, scratch, out, edges);
		for (unsigned j = 0; j < m; j++) {
			const unsigned char *k = out + (size_t)j * ks;
			bool push = memcmp(k + 2, keys + u * ks + 2, ks - 2) != 0;
			unsigned long d = dist[u] + 1 + (push ? extra : 0);
			size_t at = 0;
			while (at < n && memcmp(keys + at * ks, k, ks) != 0)
				at++;
			if (at == n) {
				assert_true(n < cap);
				memcpy(keys + n * ks, k, ks);
				dist[n++] = d;
			} else if (!done[at] && d < dist[at]) {
				dist[at] = d;
			}
		}
	}
	free(scratch);
	free(edges);
	free(out);
	free(done);
	free(dist);
	free(keys);
	return best;
}

/*
 * The designers' COST modifier (thesis 4.4): microban.txt with its push
 * rule given COST 10, solved by uniform-cost search in the "cost" metric,
 * costs what a Dijkstra over the native level with pushes at 11 says;
 * its record's cost is its moves plus 10 per push; BFS is not called
 * optimal there.
 */

/* The rating reads the room a player is in: a crate drawn outside the walls
 * is scenery, not a piece; a log on water beside the room (a cell the
 * player cannot enter, a piece on it) is the room's piece. */
static void test_rating_room(void **state)
{
	(void)state;
	struct levels ls = { 0 };
	levels_from_script(&ls, "All Target on Crate", "#########\n#P.*.O#*.\n#########\n");
	struct lk_level_options opt = { .thesis = true };
	struct lk_level *level = load(nth_level(&ls, 0), &opt);
	unsigned cells = 0, pieces = 0;
	level->game->rating_counts(level, &cells, &pieces);
	assert_int_equal(cells, 5);
	assert_int_equal(pieces, 1);   /* 2 when the outside counted */
	/* two sides of each of the five cells, and the row's two ends */
	assert_int_equal(level->game->rating_wall_sides(level), 12);
	lk_level_free(level);
	levels_free(&ls);

	struct levels logs = { 0 };
	levels_from_text(&logs,
			 "title logs\n\n========\nOBJECTS\n========\n\n"
			 "Background\nblack\n\nWater\nblue\n\nPlayer\nwhite\n\nLog\nbrown\n\n"
			 "=======\nLEGEND\n=======\n\n"
			 ". = Background\n~ = Water\nP = Player\nL = Log\nX = Log and Water\n\n"
			 "=======\nSOUNDS\n=======\n\n"
			 "================\nCOLLISIONLAYERS\n================\n\n"
			 "Background\nLog\nPlayer, Water\n\n"
			 "======\nRULES\n======\n\n[ > Player | Log ] -> [ > Player | > Log ]\n\n"
			 "==============\nWINCONDITIONS\n==============\n\nNo Log\n\n"
			 "=======\nLEVELS\n=======\n\n"
			 "~~~~~~\n~P.X.~\n~~~~~~\n~X~~L~\n~~~~~~\n");
	level = load(nth_level(&logs, 0), &opt);
	level->game->rating_counts(level, &cells, &pieces);
	/* the room is P and the cell beside it; the log on water beside it
	 * counts, the log on water and the log on land beyond do not */
	assert_int_equal(cells, 2);
	assert_int_equal(pieces, 1);
	lk_level_free(level);
	levels_free(&logs);
}
static void test_rule_cost(void **state)
{
	(void)state;
	struct lk_strbuf text = LK_STRBUF_INIT;
	assert_int_equal(lk_strbuf_read_file(&text, ROOT_LEVELS_DIR "/puzzlescript/microban.txt"), 0);
	const char *rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
	char *at = strstr(text.buf, rule);
	assert_non_null(at);
	struct lk_strbuf src = LK_STRBUF_INIT;
	lk_strbuf_add(&src, text.buf, (size_t)(at - text.buf) + strlen(rule));
	lk_strbuf_addstr(&src, " COST 10");
	lk_strbuf_addstr(&src, at + strlen(rule));
	struct levels ls = { 0 };
	snprintf(ls.path, sizeof ls.path, "/tmp/lk_cost_XXXXXX");
	int fd = mkstemp(ls.path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, src.buf, src.len), (ssize_t)src.len);
	close(fd);
	levels_from_file(&ls, ls.path);
	struct lk_level_options cost = { .metric = "cost" }, moves = { 0 };
	for (size_t i = 0; i < 3; i++) {
		const struct lk_record *rec = nth_level(&ls, i);
		struct lk_level *level = load(rec, &cost);
		assert_true(level->weighted);
		assert_string_equal(level->metric, "cost");
		struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
		struct lk_search_result r;
		lk_search_result_init(&r);
		o.algo = LK_ALGO_UCS;
		o.direction = LK_FORWARD;
		lk_search(level, &o, &r);
		assert_int_equal(r.status, LK_SOLVED);
		assert_true(r.optimal);
		struct lk_record soko_rec;
		as_sokoban(rec, &soko_rec);
		struct lk_level *native = load(&soko_rec, &(struct lk_level_options){ .metric = "moves", .plain = true });
		assert_int_equal(r.cost, cheapest_native(native, 10));
		/* the record: moves + 10 per push */
		struct lk_record out;
		lk_record_init(&out);
		lk_fields_solve(&out, level, &r);
		struct lk_moves m;
		struct lk_strbuf err = LK_STRBUF_INIT;
		bool solved = false;
		lk_moves_init(&m, native);
		/* PuzzleScript writes every input in lower case; LURD wants a
		 * push in upper case: whichever of the two replays */
		const char *ps_solution = lk_record_get(&out, "solution");
		struct lk_strbuf lurd = LK_STRBUF_INIT;
		for (const char *c = ps_solution; *c; c++) {
			lk_strbuf_addch(&lurd, *c);
			lk_moves_reset(&m);
			lk_strbuf_reset(&err);
			if (native->game->replay(native, lurd.buf, &m, &solved, &err) != 0)
				lurd.buf[lurd.len - 1] = (char)(*c - 'a' + 'A');
		}
		lk_moves_reset(&m);
		assert_int_equal(native->game->replay(native, lurd.buf, &m, &solved, &err), 0);
		assert_true(solved);
		lk_strbuf_release(&lurd);
		char want[32];
		snprintf(want, sizeof want, "%lu", m.inputs + 10 * lk_moves_count(&m, "push"));
		assert_string_equal(lk_record_get(&out, "cost"), want);
		assert_int_equal(r.cost, m.inputs + 10 * lk_moves_count(&m, "push"));
		lk_moves_release(&m);
		lk_strbuf_release(&err);
		lk_record_release(&out);
		/* BFS finds the fewest moves, which is not called the cheapest */
		o.algo = LK_ALGO_BFS;
		lk_search(level, &o, &r);
		assert_int_equal(r.status, LK_SOLVED);
		assert_false(r.optimal);
		/* under the moves metric the cost plays no part */
		struct lk_level *plain_moves = load(rec, &moves);
		assert_false(plain_moves->weighted);
		lk_level_free(plain_moves);
		lk_level_free(native);
		lk_record_release(&soko_rec);
		lk_level_free(level);
		lk_search_result_release(&r);
	}
	levels_free(&ls);
	/* COST without a whole number after it is an error of the script */
	static const char *const bad[] = { " COST", " COST x", " COST -3" };
	for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
		lk_strbuf_reset(&src);
		lk_strbuf_add(&src, text.buf, (size_t)(at - text.buf) + strlen(rule));
		lk_strbuf_addstr(&src, bad[b]);
		lk_strbuf_addstr(&src, at + strlen(rule));
		struct levels bl = { 0 };
		snprintf(bl.path, sizeof bl.path, "/tmp/lk_cost_XXXXXX");
		fd = mkstemp(bl.path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, src.buf, src.len), (ssize_t)src.len);
		close(fd);
		const struct lk_game *game = lk_game_find("puzzlescript");
		struct lk_strbuf err = LK_STRBUF_INIT, script = LK_STRBUF_INIT;
		assert_int_equal(lk_strbuf_read_file(&script, bl.path), 0);
		size_t line = 0;
		int rc = game->import(bl.path, script.buf, script.len, &bl.recs, &bl.n, &err, &line);
		bool failed = rc != 0;
		if (!failed) {
			struct lk_level_options none = { 0 };
			struct lk_level *l = lk_level_load(nth_level(&bl, 0), &none, &err, &line);
			failed = l == NULL;
			lk_level_free(l);
		}
		if (!failed || !strstr(err.buf, "cost must follow"))
			fail_msg("'%s' was not refused as it should: %s", bad[b], err.buf ? err.buf : "");
		lk_strbuf_release(&err);
		lk_strbuf_release(&script);
		levels_free(&bl);
	}
	lk_strbuf_release(&src);
	lk_strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conditions),
		cmocka_unit_test(test_overestimate),
		cmocka_unit_test(test_two_engines),
		cmocka_unit_test(test_rating_room),
		cmocka_unit_test(test_other_games),
		cmocka_unit_test(test_rule_cost),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
