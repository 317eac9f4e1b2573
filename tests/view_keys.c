/*
 * view_keys.c - the view tests of replay_keys (run by test_view.c's main):
 * by hand on tiny Sokoban and slide levels (each key drawn with the game's
 * own write_state), run lengths and groups, every error; and against
 * replay on every solution of the fixtures and a Boxoban sample, and on
 * mutations of each (cut, a letter dropped, a case swapped, a move
 * added): they fail together, and when they pass there is one key per
 * move and the last is a goal exactly when replay says solved;
 * consecutive keys are edges of the raw (plain) state space.
 */
#include "view_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/csp.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "test_support.h"

/* ------------------------------------------------ replay_keys by hand */

static void keys_of(const struct lk_level *level, const char *solution, unsigned char **keys,
		    size_t *n, int want_rc, const char *want_err)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	int rc = level->game->replay_keys(level, solution, keys, n, &err);
	assert_int_equal(rc, want_rc);
	if (want_err)
		assert_non_null(strstr(err.buf, want_err));
	lk_strbuf_release(&err);
}

void test_sokoban_keys_by_hand(void **state)
{
	(void)state;
	struct lk_record rec;
	read_record("#######\n#@$  .#\n#######\n", &rec);
	struct lk_level *level = load(&rec, "moves", false);
	unsigned char *keys;
	size_t n;
	keys_of(level, "RRR", &keys, &n, 0, NULL);
	assert_int_equal(n, 4);
	const char *want[] = { "#######\n#@$  .#\n#######\n", "#######\n# @$ .#\n#######\n",
			       "#######\n#  @$.#\n#######\n", "#######\n#   @*#\n#######\n" };
	for (size_t i = 0; i < n; i++) {
		char *t = state_text(level, keys + i * level->key_size);
		assert_string_equal(t, want[i]);
		free(t);
	}
	assert_true(level->game->is_goal(level, keys + 3 * level->key_size));
	/* run lengths and groups are the same moves */
	const char *same[] = { "3R", "R2R", "2(R)R", " R R\nR " };
	for (size_t s = 0; s < sizeof same / sizeof same[0]; s++) {
		unsigned char *k2;
		size_t n2;
		keys_of(level, same[s], &k2, &n2, 0, NULL);
		assert_int_equal(n2, n);
		assert_memory_equal(k2, keys, n * level->key_size);
		free(k2);
	}
	free(keys);
	/* every error replay reports */
	keys_of(level, "L", &keys, &n, -1, "walks into a wall");
	assert_null(keys);
	keys_of(level, "r", &keys, &n, -1, "written in lower case");
	keys_of(level, "Ru", &keys, &n, -1, "walks into a wall");
	keys_of(level, "RRRl", &keys, &n, -1, "solved after move 3");
	keys_of(level, "x", &keys, &n, -1, "is not a move");
	keys_of(level, "RR2", &keys, &n, -1, "run length");
	/* legal but short: the last key is no goal */
	keys_of(level, "RR", &keys, &n, 0, NULL);
	assert_int_equal(n, 3);
	assert_false(level->game->is_goal(level, keys + 2 * level->key_size));
	free(keys);
	/* a walk written as a push */
	lk_level_free(level);
	lk_record_release(&rec);
	read_record("######\n#@ $.#\n######\n", &rec);
	level = load(&rec, NULL, false);   /* pushes metric: keys still one per move */
	keys_of(level, "R", &keys, &n, -1, "written as a push");
	keys_of(level, "rR", &keys, &n, 0, NULL);
	assert_int_equal(n, 3);
	char *t = state_text(level, keys + level->key_size);
	assert_string_equal(t, "######\n# @$.#\n######\n");
	free(t);
	free(keys);
	lk_level_free(level);
	lk_record_release(&rec);
}

void test_slide_keys_by_hand(void **state)
{
	(void)state;
	struct lk_record rec;
	/* l brings the left fruit... nothing: it is at the wall; r brings it
	 * to its partner */
	read_record("game: fruit\n#######\n#a...a#\n#######\n", &rec);
	struct lk_level *level = load(&rec, NULL, false);
	unsigned char *keys;
	size_t n;
	keys_of(level, "lr", &keys, &n, -1, "solved after move 1");
	keys_of(level, "ur", &keys, &n, 0, NULL);
	assert_int_equal(n, 3);
	/* u changes nothing: its frame repeats the start */
	assert_memory_equal(keys, keys + level->key_size, level->key_size);
	char *t = state_text(level, keys + 2 * level->key_size);
	assert_string_equal(t, "#######\n#     #\n#######\n");
	free(t);
	assert_true(level->game->is_goal(level, keys + 2 * level->key_size));
	free(keys);
	keys_of(level, "q", &keys, &n, -1, "is not a move");
	lk_level_free(level);
	lk_record_release(&rec);
}

/* ------------------------------------- replay_keys against replay */

static unsigned agree_checks;

/* replay and replay_keys agree on a solution text. */
static void agree(const struct lk_record *rec, const char *metric, const char *solution)
{
	struct lk_level *level = load(rec, metric, false);
	struct lk_solution_stats st;
	struct lk_strbuf e1 = LK_STRBUF_INIT, e2 = LK_STRBUF_INIT;
	bool solved = false;
	unsigned char *keys = NULL;
	size_t n = 0;
	int r1 = replay_stats(level, solution, &st, &solved, &e1);
	int r2 = level->game->replay_keys(level, solution, &keys, &n, &e2);
	if (r1 != r2)
		fail_msg("%s '%s': replay %d (%s), replay_keys %d (%s)", lk_record_title(rec, &e1),
			 solution, r1, e1.buf, r2, e2.buf);
	if (r1 == 0) {
		assert_int_equal(n, st.moves + 1);
		assert_int_equal(level->game->is_goal(level, keys + (n - 1) * level->key_size), solved);
	} else {
		assert_string_equal(e1.buf, e2.buf);
	}
	agree_checks++;
	free(keys);
	lk_strbuf_release(&e1);
	lk_strbuf_release(&e2);
	lk_level_free(level);
}

/* Consecutive keys are edges of the raw state space (or, in a slide
 * game, a move that changed nothing). */
static void edges_check(const struct lk_record *rec, const char *solution)
{
	const struct lk_game *g = lk_game_find(lk_record_game(rec));
	struct lk_level *level = load(rec, lk_name_in("moves", g->metrics) ? "moves" : NULL, true);
	unsigned char *keys = NULL;
	size_t n = 0;
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_int_equal(level->game->replay_keys(level, solution, &keys, &n, &err), 0);
	size_t ks = level->key_size;
	unsigned char *succ = lk_xmalloc(level->max_successors * ks);
	struct lk_edge *edges = lk_xmalloc(level->max_successors * sizeof *edges);
	void *scratch = lk_xcalloc(1, level->scratch_size ? level->scratch_size : 1);
	for (size_t i = 0; i + 1 < n; i++) {
		const unsigned char *a = keys + i * ks, *b = keys + (i + 1) * ks;
		bool found = memcmp(a, b, ks) == 0 && strcmp(g->name, "sokoban") != 0;
		unsigned m = level->game->successors(level, a, scratch, succ, edges);
		for (unsigned j = 0; j < m && !found; j++)
			found = memcmp(succ + j * ks, b, ks) == 0;
		if (!found)
			fail_msg("move %zu of '%s' is no edge", i + 1, solution);
	}
	free(scratch);
	free(edges);
	free(succ);
	free(keys);
	lk_strbuf_release(&err);
	lk_level_free(level);
}

static void mutations(const struct lk_record *rec, const char *metric, const char *sol)
{
	size_t len = strlen(sol);
	char *m = lk_xmalloc(len + 3);
	agree(rec, metric, sol);
	memcpy(m, sol, len / 2);
	m[len / 2] = '\0';
	agree(rec, metric, m);                          /* cut */
	for (size_t i = 0; i < len && i < 12; i++) {
		memcpy(m, sol, len + 1);
		memmove(m + i, m + i + 1, len - i);          /* a letter dropped */
		agree(rec, metric, m);
		memcpy(m, sol, len + 1);
		m[i] = (char)(m[i] ^ 0x20);                  /* its case swapped */
		agree(rec, metric, m);
	}
	snprintf(m, len + 3, "%su", sol);               /* a move after the end */
	agree(rec, metric, m);
	snprintf(m, len + 3, "l%s", sol);               /* one before */
	agree(rec, metric, m);
	free(m);
}

void test_keys_agree_with_replay(void **state)
{
	(void)state;
	const char *files[] = { "small.xsb", "view.xsb", "fruit.xsb", "skiddy.xsb" };
	for (size_t f = 0; f < sizeof files / sizeof files[0] + 1; f++) {
		char *p = f < sizeof files / sizeof files[0] ? path_of(levels_dir(), files[f])
							      : path_of(ROOT_LEVELS_DIR, "boxoban-hard-sample.xsb");
		struct lk_record *recs;
		size_t n = read_file(p, &recs);
		assert_true(n > 0);
		for (size_t i = 0; i < n; i++) {
			const struct lk_game *g = lk_game_find(lk_record_game(&recs[i]));
			if (!g->replay_keys)
				continue;
			solve_record(&recs[i]);
			const char *sol = lk_record_get(&recs[i], "solution");
			if (!sol)
				continue;
			char *copy = lk_xstrdup(sol);
			mutations(&recs[i], NULL, copy);
			if (lk_name_in("moves", g->metrics) && strcmp(g->metrics[0], "moves") != 0)
				mutations(&recs[i], "moves", copy);
			edges_check(&recs[i], copy);
			free(copy);
		}
		free_records(recs, n);
		free(p);
	}
	assert_true(agree_checks > 500);
}
