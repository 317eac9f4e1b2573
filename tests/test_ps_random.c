/*
 * test_ps_random.c - PuzzleScript games that draw random numbers or run in
 * real time, solved: the reference suite's seeded games (Gobble Rush,
 * Flying Kick, Color Chained) solved for their seed, each solution replayed
 * to a win by a session under the same seed (the reference test harness's
 * way of playing); a hand-made coin game whose answer depends on the
 * generator's state, checked against the reference generator drawn by
 * hand; and a realtime game that only ticks can win.
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
#include "levelkit/json.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "../src/games/puzzlescript/ps.h"
#include "../src/games/puzzlescript/ps_diag.h"
#include "../src/games/puzzlescript/ps_rng.h"
#include "../src/games/puzzlescript/ps_session.h"

/* ------------------------------------------------------------ helpers */

struct script {
	char path[64];
	struct lk_record *recs;
	size_t n;
};

static void script_load(struct script *s, const char *text)
{
	snprintf(s->path, sizeof s->path, "/tmp/lk_ps_random_XXXXXX");
	int fd = mkstemp(s->path);
	assert_true(fd >= 0);
	size_t len = strlen(text);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	const struct lk_game *game = lk_game_find("puzzlescript");
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	if (game->import(s->path, text, len, &s->recs, &s->n, &err, &line) != 0)
		print_error("import: %zu: %s\n", line, err.buf);
	assert_non_null(s->recs);
	lk_strbuf_release(&err);
}

static void script_free(struct script *s)
{
	for (size_t i = 0; i < s->n; i++)
		lk_record_release(&s->recs[i]);
	free(s->recs);
	unlink(s->path);
}

/* The record of the script's level-th entry (0-based, messages counted,
 * as the reference numbers them), or NULL. */
static struct lk_record *record_of(struct script *s, const struct ps_game *g, int level)
{
	int map = 0;
	for (int i = 0; i <= level; i++)
		if (!ps_level_is_message(g, i))
			map++;
	char want[16];
	snprintf(want, sizeof want, "%d", map);
	for (size_t i = 0; i < s->n; i++) {
		const char *l = lk_record_get(&s->recs[i], "level");
		if (l && !strcmp(l, want))
			return &s->recs[i];
	}
	return NULL;
}

/* Solve rec (auto, bounded); the solution's inputs into out. */
static enum lk_status solve(const struct lk_record *rec, uint64_t seed, struct lk_strbuf *out,
			    enum lk_algo algo)
{
	struct lk_level_options opt = { .seed = seed };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *level = lk_level_load(rec, &opt, &err, &line);
	if (!level)
		print_error("load: %zu: %s\n", line, err.buf);
	assert_non_null(level);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = algo;
	o.bounds.max_states = 2000000;
	o.bounds.max_seconds = 60;
	struct lk_search_result r;
	lk_search_result_init(&r);
	lk_search(level, &o, &r);
	if (r.status == LK_SOLVED) {
		struct lk_moves m;
		lk_moves_init(&m, level);
		lk_level_label(level, r.path, r.nkeys, &m);
		lk_strbuf_addstr(out, m.text.buf);
		/* the game's own replay agrees */
		struct lk_moves again;
		lk_moves_init(&again, level);
		bool solved = false;
		assert_int_equal(level->game->replay(level, m.text.buf, &again, &solved, &err), 0);
		assert_true(solved);
		lk_moves_release(&again);
		lk_moves_release(&m);
	}
	enum lk_status st = r.status;
	lk_search_result_release(&r);
	lk_level_free(level);
	lk_strbuf_release(&err);
	return st;
}

/* Play inputs in a session as the reference's test harness does (the
 * seed given, a tick for t); whether the level is left won. */
static bool session_wins(const struct ps_game *g, int level, const char *seed, const char *inputs)
{
	struct ps_session *s = ps_session_new(g, level, seed);
	assert_non_null(s);
	for (const char *p = inputs; *p; p++) {
		const char *at = strchr("uldrxt", *p);
		assert_non_null(at);
		int in = at - "uldrxt" == 5 ? PS_TICK : (int)(at - "uldrxt");
		assert_true(ps_session_input(s, in));
	}
	/* a win moves on to the next level, or after the last to the title */
	bool won = ps_session_level(s) != level || ps_session_text_mode(s);
	ps_session_free(s);
	return won;
}

static struct ps_game *compile_ok(const char *src)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	int line = -1;
	struct ps_game *g = ps_compile(src, strlen(src), "test.txt", &err, &line);
	if (!g)
		print_error("compile error, line %d: %s\n", line, err.buf);
	assert_non_null(g);
	lk_strbuf_release(&err);
	return g;
}

/* ------------------------------------------------- the suite's games */

static void test_suite_seeded(void **state)
{
	(void)state;
	const char *dir = getenv("LEVELKIT_DATA");
	char path[4096];
	snprintf(path, sizeof path, "%s/puzzlescript/testdata.jsonl", dir ? dir : "../shared/data");
	FILE *f = fopen(path, "rb");
	if (!f) {
		print_message("no %s: skipped\n", path);
		skip();
	}
	const char *names[] = { "Gobble Rush", "Flying Kick", "Color Chained" };
	int found = 0;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		struct lk_json tv;
		struct lk_strbuf jerr = LK_STRBUF_INIT;
		int bad = lk_json_parse(line, strlen(line), &tv, &jerr, NULL);
		lk_strbuf_release(&jerr);
		if (bad)
			continue;
		const struct lk_json *t = &tv;
		const struct lk_json *name = lk_json_get(t, "name");
		bool want = false;
		for (size_t k = 0; k < 3 && name && name->type == LK_JSON_STRING; k++)
			want |= !strcmp(name->str, names[k]);
		if (want) {
			const struct lk_json *src = lk_json_get(t, "source"), *lvl = lk_json_get(t, "level");
			const struct lk_json *seed = lk_json_get(t, "seed");
			int level = lvl && lvl->type == LK_JSON_NUMBER ? (int)lvl->number : 0;
			const char *sd = seed && seed->str ? seed->str : "0";
			struct ps_game *g = compile_ok(src->str);
			assert_false(ps_game_deterministic(g, NULL));
			struct script s = { 0 };
			script_load(&s, src->str);
			struct lk_record *rec = record_of(&s, g, level);
			assert_non_null(rec);
			lk_record_set(rec, "seed", sd);
			struct lk_strbuf sol = LK_STRBUF_INIT;
			assert_int_equal(solve(rec, 0, &sol, LK_ALGO_AUTO), LK_SOLVED);
			if (!session_wins(g, level, sd, sol.buf))
				print_error("%s: %s does not win in a session with seed %s\n", name->str, sol.buf, sd);
			assert_true(session_wins(g, level, sd, sol.buf));
			found++;
			lk_strbuf_release(&sol);
			script_free(&s);
			ps_game_free(g);
		}
		lk_json_release(&tv);
	}
	free(line);
	fclose(f);
	assert_int_equal(found, 3);
}

/* ------------------------------------------------------- a coin game */

/* Each action throws the coin; heads wins.  The board after a throw is
 * heads or tails whatever came before, so only the generator's state tells
 * the states apart: a search that left it out would call tails-again a
 * state it has seen. */
static const char coin[] =
	"title coin\n\n"
	"========\nOBJECTS\n========\n\n"
	"Background\nblack\n\nPlayer\nblue\n\nHeads\nyellow\n\nTails\nbrown\n\nBlank\ngray\n\n"
	"=======\nLEGEND\n=======\n\n"
	". = Background\nP = Player\nB = Blank\nFace = Heads or Tails\n\n"
	"=======\nSOUNDS\n=======\n\n"
	"================\nCOLLISIONLAYERS\n================\n\n"
	"Background\nPlayer\nHeads, Tails, Blank\n\n"
	"======\nRULES\n======\n\n"
	"[ action Player ] [ Blank ] -> [ Player ] [ random Face ]\n"
	"[ action Player ] [ Face ] -> [ Player ] [ random Face ]\n\n"
	"==============\nWINCONDITIONS\n==============\n\n"
	"some Heads\n\n"
	"=======\nLEVELS\n=======\n\nPB\n";

static void test_coin(void **state)
{
	(void)state;
	struct ps_game *g = compile_ok(coin);
	struct script s = { 0 };
	script_load(&s, coin);
	for (uint64_t seed = 0; seed < 6; seed++) {
		/* the reference generator by hand: throws until heads (objects
		 * are drawn in id order, heads first) */
		char sd[32];
		snprintf(sd, sizeof sd, "%llu", (unsigned long long)seed);
		struct ps_rng r;
		ps_rng_seed(&r, sd);
		int throws = 1;
		while (ps_rng_below(&r, 2) != 0)
			throws++;
		struct lk_strbuf sol = LK_STRBUF_INIT;
		assert_int_equal(solve(&s.recs[0], seed, &sol, LK_ALGO_BFS), LK_SOLVED);
		assert_int_equal(sol.len, throws);
		for (size_t k = 0; k < sol.len; k++)
			assert_int_equal(sol.buf[k], 'x');
		assert_true(session_wins(g, 0, sd, sol.buf));
		lk_strbuf_release(&sol);
	}
	script_free(&s);
	ps_game_free(g);
}

/* A random group whose rule has no rows: the fuzzer's (fuzz_script)
 * "random [ background no playop", no arrow and no closing bracket,
 * compiled as the engine takes it.  A turn drew from the group and sized
 * an array by the rule's zero rows, undefined behaviour (UBSan, in the
 * sanitizer build of this test). */
static const char rowless[] =
	"title rowless\n\n"
	"========\nOBJECTS\n========\n\n"
	"Background\nblack\n\nPlayer\nblue\n\nTarget\nyellow\n\n"
	"=======\nLEGEND\n=======\n\n"
	". = Background\nP = Player\nT = Target\n\n"
	"=======\nSOUNDS\n=======\n\n"
	"================\nCOLLISIONLAYERS\n================\n\n"
	"Background\nTarget\nPlayer\n\n"
	"======\nRULES\n======\n\n"
	"startloop\n"
	"random [ background no playop\n"
	"random [ background player] -> [background target]\n"
	"endloop\n\n"
	"==============\nWINCONDITIONS\n==============\n\n"
	"some Target\n\n"
	"=======\nLEVELS\n=======\n\nP.\n";

/* A game compiled leniently, as the engine takes one with errors (the
 * fuzzers' finds below: each reports an error and is still played). */
static struct ps_game *compile_lenient(const char *text)
{
	struct ps_diags d;
	ps_diags_init(&d);
	struct ps_game *g = ps_compile_diags(text, strlen(text), "test.txt", true, &d);
	assert_true(d.nerrors >= 1);
	ps_diags_release(&d);
	assert_non_null(g);
	return g;
}

static void test_random_rule_without_rows(void **state)
{
	(void)state;
	/* the unknown name is reported, the rule kept without rows */
	struct ps_game *g = compile_lenient(rowless);
	for (int seed = 0; seed < 8; seed++) {   /* the draw falls on each rule */
		char sd[16];
		snprintf(sd, sizeof sd, "%d", seed);
		(void)session_wins(g, 0, sd, "rlrl");
	}
	ps_game_free(g);
}

/* A rule whose row lost its one cell: "[moving Pl]", the name unknown,
 * leaves a movement without an object, which the parser drops with an
 * error, as the reference's does.  A turn matched the empty row, sizing its
 * valid starts by its length less one: a pointer overflow (UBSan, in the
 * sanitizer build of this test).  The game is fuzz_script's find (a
 * 25-minute run), minimised by libFuzzer, headers mangled as it left them.
 * The row now matches nowhere. */
static const char cellless[] =
	"c Game\n"
	"author uzzlesc==\n"
	"OBJECTS\n"
	"===\n"
	"\n"
	"Background\n"
	"LIGHTGREEN GREEN\n"
	"10111\n"
	"\n"
	"\n"
	"Target\n"
	"DarkBlue\n"
	"....\n"
	"\n"
	"Wall\n"
	"BROWN DARKBROWN\n"
	"00010010\n"
	"\n"
	"Player\n"
	"Black Orange White Blue\n"
	".0003.\n"
	"\n"
	"Crate\n"
	"Orange Yellow\n"
	"00000\n"
	"\n"
	"\n"
	"LEGEND\n"
	"=======\n"
	"\n"
	". = Background\n"
	"# = Wall\n"
	"=\n"
	"COLLISIONLAYERS\n"
	"\n"
	"\n"
	"Background\n"
	"Target\n"
	"Player, Wall, Crate\n"
	"RULES\n"
	"=\n"
	"[moving Pl] -> cancel \n"
	"WINCONDITIONS\n"
	"==\n"
	"LEVELS\n"
	"\n"
	"##.";

static void test_rule_row_without_cells(void **state)
{
	(void)state;
	struct ps_game *g = compile_lenient(cellless);
	struct ps_session *s = ps_session_new(g, 0, "0");
	assert_non_null(s);
	static const int turn[] = { PS_RIGHT, PS_LEFT, PS_ACTION, PS_TICK };
	for (size_t k = 0; k < sizeof turn / sizeof turn[0]; k++)
		(void)ps_session_input(s, turn[k]);   /* no player: nothing to move */
	ps_session_free(s);
	ps_game_free(g);
}

/* --rolls: the coin game is solvable for some roll (one throw) but not
 * whatever the dice say (tails may come for ever); with either face
 * winning it is solvable whatever they say, in one move. */
static const char *rolls_answer(const struct lk_record *rec0, const char *rolls, const char *field,
				struct lk_record *out)
{
	lk_record_init(out);
	lk_record_copy(out, rec0);
	struct lk_level_options opt = { .rolls = rolls };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *level = lk_level_load(out, &opt, &err, &line);
	assert_non_null(level);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.bounds.max_states = 100000;
	assert_non_null(level->game->own_solve);
	assert_int_equal(level->game->own_solve(level, &o, out), 1);
	lk_level_free(level);
	lk_strbuf_release(&err);
	return lk_record_get(out, field);
}

static void test_rolls(void **state)
{
	(void)state;
	struct script s = { 0 };
	script_load(&s, coin);
	struct lk_record out;
	assert_string_equal(rolls_answer(&s.recs[0], "some", "solvable", &out), "yes");
	assert_string_equal(lk_record_get(&out, "solution"), "x");
	assert_string_equal(lk_record_get(&out, "rolls"), "some");
	lk_record_release(&out);
	assert_string_equal(rolls_answer(&s.recs[0], "every", "solvable", &out), "no");
	assert_null(lk_record_get(&out, "solution"));
	lk_record_release(&out);
	script_free(&s);

	/* either face wins: whatever the dice say, one throw */
	struct lk_strbuf either = LK_STRBUF_INIT;
	lk_strbuf_addstr(&either, coin);
	char *at = strstr(either.buf, "some Heads");
	memcpy(at, "some Face ", 10);
	script_load(&s, either.buf);
	assert_string_equal(rolls_answer(&s.recs[0], "every", "solvable", &out), "yes");
	assert_string_equal(lk_record_get(&out, "moves"), "1");
	lk_record_release(&out);
	/* a seed changes nothing there; it is the default question */
	struct lk_level_options opt = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *level = lk_level_load(&s.recs[0], &opt, &err, &line);
	assert_int_equal(level->game->own_solve(level, NULL, NULL), 0);
	lk_level_free(level);
	lk_strbuf_release(&err);
	script_free(&s);
	lk_strbuf_release(&either);
}

/* --------------------------------------------------------- real time */

/* The crate moves one cell right on each tick (a turn with no key
 * pressed) and never otherwise; the player is walled in. */
static char *ticker(bool realtime)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_strbuf_addf(&sb,
		       "title ticker\n%s\n"
		       "========\nOBJECTS\n========\n\n"
		       "Background\nblack\n\nWall\nbrown\n\nPlayer\nblue\n\nCrate\norange\n\nTarget\nyellow\n\n"
		       "=======\nLEGEND\n=======\n\n"
		       ". = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n\n"
		       "=======\nSOUNDS\n=======\n\n"
		       "================\nCOLLISIONLAYERS\n================\n\n"
		       "Background\nTarget\nPlayer, Wall, Crate\n\n"
		       "======\nRULES\n======\n\n"
		       "[ stationary Player ] [ stationary Crate ] -> [ Player ] [ right Crate ]\n\n"
		       "==============\nWINCONDITIONS\n==============\n\n"
		       "all Crate on Target\n\n"
		       "=======\nLEVELS\n=======\n\n"
		       "#######\n#P#*.O#\n#######\n",
		       realtime ? "realtime_interval 0.5\n" : "");
	return lk_strbuf_detach(&sb, NULL);
}

static void test_realtime(void **state)
{
	(void)state;
	char *src = ticker(true);
	struct ps_game *g = compile_ok(src);
	struct script s = { 0 };
	script_load(&s, src);
	struct lk_strbuf sol = LK_STRBUF_INIT;
	assert_int_equal(solve(&s.recs[0], 0, &sol, LK_ALGO_BFS), LK_SOLVED);
	assert_string_equal(sol.buf, "tt");
	assert_true(session_wins(g, 0, NULL, sol.buf));
	lk_strbuf_release(&sol);
	script_free(&s);
	ps_game_free(g);
	free(src);

	/* without realtime_interval there are no ticks: no way to win */
	src = ticker(false);
	script_load(&s, src);
	assert_int_equal(solve(&s.recs[0], 0, &sol, LK_ALGO_BFS), LK_UNSOLVABLE);
	lk_strbuf_release(&sol);
	script_free(&s);
	free(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coin),
		cmocka_unit_test(test_random_rule_without_rows),
		cmocka_unit_test(test_rule_row_without_cells),
		cmocka_unit_test(test_realtime),
		cmocka_unit_test(test_rolls),
		cmocka_unit_test(test_suite_seeded),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	lk_game_defs_release();
	return rc;
}
