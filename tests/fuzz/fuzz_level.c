/*
 * fuzz_level.c - fuzz target for every game's level loader
 * (lk_level_load: validate, then build) and the cheap paths of a level
 * that loaded.
 *
 * The input is read as records (so any game's record can be written into
 * it); each record is loaded with options that vary with the record's
 * number over the game's metrics and heuristics and plain, then the level
 * is exercised with small bounds: the start state, its successors (goal
 * test, heuristic, estimate, drawing), the reversed level, the canonical
 * text, the rating's counts, replaying the record's solution field, and a bounded search.
 * Checked besides crashes, leaks and hangs:
 *  - successors stay within max_successors and every edge costs >= 1;
 *  - a solution the solver finds replays from the start to a win, with
 *    the moves format_solution counted (a solver or notation bug
 *    otherwise);
 *  - a constraint game's own solution verifies;
 *  - the rating's counts: at most four wall sides a cell.
 */
#include "fuzz_util.h"

#include <stdbool.h>
#include <string.h>

#include "levelkit/csp.h"
#include "levelkit/game.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "levelkit/strbuf.h"

/* Bounds that keep one input well under a second. */
#define SEARCH_STATES 100
#define SEARCH_SECONDS 0.5
#define CSP_NODES 300
#define MAX_RECORDS 64
/* Only the first records are searched: the search is not what is being
 * fuzzed, and the instrumentation makes it slow. */
#define SEARCHED_RECORDS 4

static size_t count(const char *const *list)
{
	size_t n = 0;
	while (list && list[n])
		n++;
	return n;
}

/* Options for the k-th record: the game's metrics and heuristics in turn,
 * and every third record plain. */
static void choose_options(const struct lk_game *game, size_t k, struct lk_level_options *opt)
{
	size_t nm = count(game->metrics), nh = count(game->heuristics);

	memset(opt, 0, sizeof *opt);
	if (nm > 1)
		opt->metric = game->metrics[k % nm];
	if (nh > 1)
		opt->heuristic = game->heuristics[(k / 2) % nh];
	opt->plain = k % 3 == 2;
}

/* The start, its successors and what can be asked about each. */
static void expand_start(const struct lk_level *level)
{
	const struct lk_game *g = level->game;
	size_t ks = level->key_size;
	unsigned char *start = calloc(1, ks ? ks : 1);
	unsigned char *keys = calloc((size_t)level->max_successors + 1, ks ? ks : 1);
	struct lk_edge *edges = calloc((size_t)level->max_successors + 1, sizeof *edges);
	void *scratch = calloc(1, level->scratch_size ? level->scratch_size : 1);
	struct lk_strbuf out = LK_STRBUF_INIT;
	struct lk_moves moves;
	lk_moves_init(&moves, level);
	FUZZ_CHECK(start && keys && edges && scratch);

	g->initial_state(level, start);
	(void)g->is_goal(level, start);
	if (g->heuristic)
		(void)g->heuristic(level, start, scratch);
	if (g->estimate)
		(void)g->estimate(level, start, scratch);
	if (g->win_kind && g->is_goal(level, start))
		(void)g->win_kind(level, start);
	g->write_state(level, start, &out);
	unsigned n = g->successors(level, start, scratch, keys, edges);
	FUZZ_CHECK(n <= level->max_successors);
	for (unsigned i = 0; i < n; i++) {
		const unsigned char *k = keys + (size_t)i * ks;
		FUZZ_CHECK(edges[i].cost >= 1);
		if (g->move_facts) {
			uint16_t facts[8];
			FUZZ_CHECK(g->move_facts(level, start, edges[i].move, facts, 8) <= 8);
		}
		(void)g->is_goal(level, k);
		if (g->heuristic)
			(void)g->heuristic(level, k, scratch);
		lk_strbuf_reset(&out);
		g->write_state(level, k, &out);
	}
	if (n > 0) {
		/* a path of one edge: start, first successor */
		unsigned char *path = calloc(2, ks ? ks : 1);
		FUZZ_CHECK(path != NULL);
		memcpy(path, start, ks);
		memcpy(path + ks, keys, ks);
		g->label_path(level, path, 2, &moves);
		/* one edge is one move, or several where it is a macro
		 * (Sokoban's tunnel macros push a box on to the tunnel's end) */
		FUZZ_CHECK(moves.nmoves >= 1);
		free(path);
	}
	lk_moves_release(&moves);
	lk_strbuf_release(&out);
	free(start);
	free(keys);
	free(edges);
	free(scratch);
}

static void reversed(const struct lk_level *level)
{
	if (!level->game->reverse_level)
		return;
	struct lk_level *rev = level->game->reverse_level(level);
	if (rev) {
		expand_start(rev);
		lk_level_free(rev);
	}
}

/* A bounded search; a solution it finds must replay to a win. */
static void search(const struct lk_level *level, size_t k)
{
	const struct lk_game *g = level->game;
	struct lk_search_options opt = LK_SEARCH_OPTIONS_INIT;
	struct lk_search_result r;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_moves moves, replayed;
	bool solved = false;
	lk_moves_init(&moves, level);
	lk_moves_init(&replayed, level);

	opt.algo = k % 2 ? LK_ALGO_GREEDY : LK_ALGO_ASTAR;
	opt.direction = LK_BOTH;
	opt.bounds.max_states = SEARCH_STATES;
	opt.bounds.max_seconds = SEARCH_SECONDS;
	lk_search_result_init(&r);
	lk_search(level, &opt, &r);
	if (r.status == LK_SOLVED) {
		FUZZ_CHECK(r.nkeys >= 1);
		g->label_path(level, r.path, r.nkeys, &moves);
		if (g->replay(level, moves.text.buf, &replayed, &solved, &err) != 0) {
			fprintf(stderr, "found solution '%s' does not replay: %s\n", moves.text.buf,
				err.buf);
			abort();
		}
		FUZZ_CHECK(solved);
		FUZZ_CHECK(replayed.inputs == moves.inputs);
		for (unsigned f = 0; f < moves.nfacts; f++)
			FUZZ_CHECK(replayed.fact_counts[f] == moves.fact_counts[f]);
	}
	lk_search_result_release(&r);
	lk_moves_release(&moves);
	lk_moves_release(&replayed);
	lk_strbuf_release(&err);
}

static void constraint_game(const struct lk_level *level, const struct lk_record *rec)
{
	const struct lk_csp_ops *csp = level->game->csp;
	struct lk_csp_options opt;
	struct lk_csp_result r;
	struct lk_strbuf why = LK_STRBUF_INIT;
	const char *given = lk_record_get(rec, "solution");
	bool valid = false;

	if (given)
		(void)csp->verify(level, given, &valid, &why);
	lk_csp_options_init(&opt);
	opt.bounds.max_states = CSP_NODES;
	opt.bounds.max_seconds = SEARCH_SECONDS;
	lk_csp_result_init(&r);
	csp->solve(level, &opt, &r);
	if (r.status == LK_SOLVED) {
		lk_strbuf_reset(&why);
		FUZZ_CHECK(csp->verify(level, r.solution.buf, &valid, &why) == 0);
		FUZZ_CHECK(valid);
	}
	lk_csp_result_release(&r);
	lk_strbuf_release(&why);
}

static void load(const struct lk_record *rec, size_t k)
{
	const struct lk_game *game = lk_game_find(lk_record_game(rec));
	struct lk_level_options opt = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT, text = LK_STRBUF_INIT;
	size_t lineno = 0;

	if (game)
		choose_options(game, k, &opt);
	struct lk_level *level = lk_level_load(rec, &opt, &err, &lineno);
	if (!level) {
		FUZZ_CHECK(err.len > 0);
		lk_strbuf_release(&err);
		return;
	}
	lk_level_canonical(level, rec, &text);
	if (level->game->rating_counts) {
		/* what the rating reads of the level: at most four wall sides a cell */
		unsigned cells = 0, objects = 0;
		level->game->rating_counts(level, &cells, &objects);
		if (level->game->rating_wall_sides)
			FUZZ_CHECK(level->game->rating_wall_sides(level) <= 4u * cells);
	}
	if (level->game->csp) {
		constraint_game(level, rec);
	} else {
		const char *given = lk_record_get(rec, "solution");
		struct lk_moves given_moves;
		bool solved;
		lk_moves_init(&given_moves, level);
		if (given)
			(void)level->game->replay(level, given, &given_moves, &solved, &err);
		lk_moves_release(&given_moves);
		expand_start(level);
		reversed(level);
		if (k < SEARCHED_RECORDS)
			search(level, k);
	}
	lk_level_free(level);
	lk_strbuf_release(&err);
	lk_strbuf_release(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fp = fuzz_open(data, size);
	struct lk_reader r;
	struct lk_record rec = LK_RECORD_INIT;
	size_t k = 0;
	int rc;

	lk_reader_init_fp(&r, fp, "fuzz");
	while (k < MAX_RECORDS && (rc = lk_reader_next(&r, &rec, NULL, NULL)) != 0) {
		FUZZ_CHECK(rc == 1 || rc == -1);
		if (rc == 1 && lk_record_grid(&rec, NULL) > 0)
			load(&rec, k);
		k++;
	}
	lk_record_release(&rec);
	lk_reader_close(&r);
	if (fp)
		fclose(fp);
	return 0;
}
