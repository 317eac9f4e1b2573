/*
 * fuzz_script.c - fuzz target for whole PuzzleScript scripts: the lexer,
 * the legend, the rule compiler, the levels (ps_compile), then the engine
 * on what compiles: every map of the first few started and played for a
 * few turns, inputs drawn from the script's own bytes (up, left, down,
 * right, action, tick), a session with undo and restart, the state key
 * stored and loaded again.
 *
 * Checked besides crashes, leaks and hangs:
 *  - a strict compile fails only with a message and a line within the
 *    script (or 0), and a game that compiles strictly compiles leniently;
 *  - a state's key read back and stored again is the same key, and gives
 *    the same turn (the engine's state is its key);
 *  - the won bit of a stored key says what the turn said;
 *  - a turn that the log undoes (a search's next input from the same key)
 *    ends where the first one did;
 *  - the rating's counts of a map (ps_rating.c): at most its cells, and
 *    at most four wall sides a cell.
 * Bounds of the harness: 3 maps, 8 turns each, maps of at most 1024 cells.
 */
#include "fuzz_util.h"

#include <stdbool.h>
#include <string.h>

#include "levelkit/strbuf.h"
#include "../src/games/puzzlescript/ps.h"
#include "../src/games/puzzlescript/ps_session.h"
#include "../src/games/puzzlescript/ps_diag.h"
#include "../src/games/puzzlescript/ps_game.h"
#include "../src/games/puzzlescript/ps_internal.h"

#define MAX_MAPS 3
#define MAX_TURNS 8
#define MAX_CELLS 1024

static int input_of(uint8_t b)
{
	static const int inputs[6] = { PS_UP, PS_LEFT, PS_DOWN, PS_RIGHT, PS_ACTION, PS_TICK };
	return inputs[b % 6];
}

static void play(const struct ps_game *g, int level, const uint8_t *data, size_t size)
{
	struct ps_runtime *rt = ps_runtime_new(g, level);
	FUZZ_CHECK(rt != NULL);
	size_t ks = ps_key_size(rt);
	unsigned char *key = malloc(ks), *again = malloc(ks), *next = malloc(ks), *next2 = malloc(ks);
	FUZZ_CHECK(key && again && next && next2);
	struct ps_turn_info info;
	ps_start(rt, &info);
	ps_store(rt, key);
	FUZZ_CHECK(ps_key_won(rt, key) == ((info.flags & PS_WON) != 0));
	for (int t = 0; t < MAX_TURNS; t++) {
		int in = input_of(size ? data[(size_t)(t * 7 + level) % size] : 0);
		/* the key is the state: load, store, the same key */
		ps_load(rt, key);
		ps_store(rt, again);
		FUZZ_CHECK(memcmp(key, again, ks) == 0);
		unsigned f = ps_turn(rt, in, &info);
		ps_store(rt, next);
		FUZZ_CHECK(ps_key_won(rt, next) == ((f & PS_WON) != 0));
		/* the same input from the same key, after the log undid the
		 * first: the same state (a search's runtime does just this) */
		ps_load(rt, key);
		unsigned f2 = ps_turn(rt, in, NULL);
		ps_store(rt, next2);
		FUZZ_CHECK(memcmp(next, next2, ks) == 0);
		FUZZ_CHECK((f & (PS_WON | PS_CHANGED)) == (f2 & (PS_WON | PS_CHANGED)));
		if (f & PS_WON)
			break;
		memcpy(key, next, ks);
	}
	struct lk_strbuf out = LK_STRBUF_INIT;
	ps_level_write(g, level, ps_cells(rt, NULL), &out);
	ps_debug_string(rt, &out);
	lk_strbuf_release(&out);
	free(key);
	free(again);
	free(next);
	free(next2);
	ps_runtime_free(rt);
}

static void session(const struct ps_game *g, int level, const uint8_t *data, size_t size)
{
	struct ps_session *s = ps_session_new(g, level, "fuzz");
	if (!s)
		return;
	for (int t = 0; t < MAX_TURNS; t++) {
		uint8_t b = size ? data[(size_t)(t * 13 + 5) % size] : 0;
		if (b % 11 == 0)
			ps_session_undo(s);
		else if (b % 11 == 1)
			ps_session_restart(s);
		else
			ps_session_input(s, input_of(b));
	}
	struct lk_strbuf out = LK_STRBUF_INIT;
	ps_session_debug_string(s, &out);
	lk_strbuf_release(&out);
	ps_session_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *src = fuzz_strndup(data, size);
	int lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += src[i] == '\n';
	struct lk_strbuf err = LK_STRBUF_INIT;
	int line = -1;
	struct ps_game *strict = ps_compile(src, size, "fuzz.txt", &err, &line);
	if (!strict) {
		FUZZ_CHECK(err.len > 0);
		FUZZ_CHECK(line >= 0 && line <= lines);
	}
	struct ps_diags d;
	ps_diags_init(&d);
	struct ps_game *g = ps_compile_diags(src, size, "fuzz.txt", true, &d);
	FUZZ_CHECK(!strict || g != NULL);
	ps_diags_release(&d);
	if (g) {
		const char *why;
		(void)ps_game_deterministic(g, &why);
		int maps = 0;
		for (int lv = 0; lv < ps_game_level_count(g) && maps < MAX_MAPS; lv++) {
			if (ps_level_is_message(g, lv))
				continue;
			if ((long)ps_level_width(g, lv) * ps_level_height(g, lv) > MAX_CELLS)
				continue;
			maps++;
			/* what the rating reads of the map: no side of a cell counted
			 * twice, no cell outside the map */
			unsigned cells = 0, pieces = 0, sides = 0;
			ps_rating_counts(g, &g->levels[lv], &cells, &pieces, &sides);
			FUZZ_CHECK((long)cells <= (long)ps_level_width(g, lv) * ps_level_height(g, lv));
			FUZZ_CHECK(sides <= 4u * cells);
			play(g, lv, data, size);
			if (maps == 1)
				session(g, lv, data, size);
		}
		ps_game_free(g);
	}
	ps_game_free(strict);
	lk_strbuf_release(&err);
	free(src);
	return 0;
}
