/*
 * test_sokoban_any.c - Sokoban's search for any solution (solve -a any,
 * src/games/sokoban/sokoban_any.c) and its techniques, each on its own:
 *
 *  - every technique switched off alone (and the feature-space search
 *    without greedy search first) still answers every random small level
 *    as breadth-first search over the raw push graph does (solvable or
 *    not: none of them may lose a solution), its solutions replay to a win,
 *    and a switched-off technique counts nothing;
 *  - the goal-room macros may cut every solution of a level (they trust the
 *    packing order): random levels where the feature-space search with
 *    them alone runs out of moves although raw BFS solves the level are
 *    still solved by -a any (which then searches without them), and no
 *    level it solves has a solution that fails to replay;
 *  - box moves are exactly the positions one box reaches by its own pushes
 *    (a breadth-first search over single pushes of that box, written here);
 *  - a learned deadlock pattern never calls a position dead that raw BFS
 *    can solve (with alive-reuse on: it only ever learns less, and the
 *    switch test above runs every level with it off too); nor does a
 *    pattern of a big corral's fence (more than DT_MAX_BOXES boxes,
 *    big-corrals), on random positions of levels with 7 to 10 boxes;
 *    nor with proven-alive (a corral's small search trusting only
 *    positions known alive by a proof), whose patterns raw BFS of their
 *    boxes alone confirms on random walks of pushes on Sasquatch II 43,
 *    where it calls positions dead that the table without it calls alive;
 *  - greedy slices (greedy search first in slices of states, handing over
 *    to the feature-space search and back) lose nothing: with slices of a
 *    few states, so that small levels hand over too, every random level is
 *    answered as raw BFS answers it and its solutions replay;
 *  - the fallback: where A* gives up, the answer comes with a bound no
 *    larger than the optimum, and its solution replays;
 *  - no-unpacking (Festival's rule): in the first search no advisor
 *    proposes a move that unpacks a box, on a hand-made state whose best
 *    move for every other feature unpacks one; in the sound search, and
 *    with the switch off, the advisors still may (it only orders moves:
 *    the switch test above shows it loses no level either way).
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
#include "../src/games/sokoban/sokoban_any.h"
#include "../src/games/sokoban/sokoban_any_search.h"
#include "test_records.h"
#include "sokoban_random.h"

/* Interior 3..6 x 3..6, 1 to 4 boxes, walls on 5 to 24 % of it. */
static const struct soko_random_shape any_shape = { 3, 4, 3, 4, 1, 4, 5, 20 };

/* ---- each technique off alone: no solution lost ---- */

static const char *const any_techniques[] = {
	"greedy-first", "box-macros", "packing-order", "feature-space", "advisors", "deadlock-table",
	"goal-rooms", "goal-cuts", "greedy-slices", "alive-reuse", "no-unpacking", NULL,
};
#define N_ANY_TECHNIQUES 11

static void test_each_switch_complete(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 2323);
	struct soko_mix mix = { 0 };
	/* runs that solved a level where the goal-room macros cut moves */
	int macro_solved = 0;
	int rooms = soko_test_technique("goal-rooms"), cuts = soko_test_technique("goal-cuts");
	int alive = soko_test_technique("alive-reuse"), reused = 0;
	while (mix.levels < 120) {
		int want;
		char *text = soko_random_mixed(&rng, &any_shape, 400000, 2, &mix, &want);
		/* k = -1: everything on; else technique k off, and greedy first
		 * off too so that the feature-space search answers */
		for (int k = -1; k < N_ANY_TECHNIQUES; k++) {
			const char *off[3] = { NULL, NULL, NULL };
			if (k >= 0) {
				off[0] = any_techniques[k];
				off[1] = "greedy-first";
			}
			struct lk_search_result r;
			char what[64];
			snprintf(what, sizeof what, "without %s", k < 0 ? "nothing" : off[0]);
			struct lk_level *level = soko_any_as_raw(text, off, want, what, &r);
			if (r.technique_counts[rooms] || r.technique_counts[cuts])
				macro_solved += r.status == LK_SOLVED;
			reused += r.technique_counts[alive] > 0;
			for (int j = 0; j < 2 && off[j]; j++)
				if (r.technique_counts[soko_test_technique(off[j])] != 0)
					fail_msg("%s is off but counted", off[j]);
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	print_message("  %d levels (%d solvable, %d not); goal-room macros cut moves in %d runs "
		      "that solved; a small search met a position known alive in %d runs\n", mix.levels,
		      mix.yes, mix.no, macro_solved, reused);
	assert_true(mix.yes >= 30 && mix.no >= 15);
	assert_true(macro_solved >= 20 && reused >= 1);
}

/* ---- the goal-room macros: what they may lose is found again ---- */

static void test_goal_macros_retry(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 4242);
	int tried = 0, cut = 0, lost = 0;
	while (tried < 400) {
		int want;
		char *text = soko_random_answered(&rng, &any_shape, 400000, &want);
		if (want != 1) {
			free(text);
			continue;
		}
		tried++;
		const char *off[] = { "greedy-first", NULL };
		struct lk_search_result r;
		struct lk_level *level = soko_any_run(text, off, true, &r);
		bool used = r.technique_counts[soko_test_technique("goal-rooms")] ||
			    r.technique_counts[soko_test_technique("goal-cuts")];
		cut += used;
		if (r.status == LK_SOLVED) {
			soko_check_replays(level, &r);
		} else {
			/* only the macros may lose a solution */
			assert_int_equal(r.status, LK_UNSOLVABLE);
			assert_true(used);
			lost++;
			struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
			o.algo = LK_ALGO_ANY;
			lk_search(level, &o, &r);
			if (r.status != LK_SOLVED)
				fail_msg("-a any lost the solution the macros cut\n%s", text);
			soko_check_replays(level, &r);
		}
		lk_search_result_release(&r);
		lk_level_free(level);
		free(text);
	}
	print_message("  %d solvable levels, macros cut moves in %d, lost every solution in %d\n",
		      tried, cut, lost);
	assert_true(cut >= 50 && lost >= 1);   /* the search without them did run */
}

/* ---- box moves against single pushes ---- */

/* The squares box b reaches by its own pushes from the state in sc (a BFS
 * over (box square, player square) written independently). */
static void reach_by_pushes(const struct sokoban *s, const uint8_t *box, int b, int player,
			    uint8_t *reached)
{
	size_t n = (size_t)s->cells;
	uint8_t *seen = calloc(n * n, 1), *pmark = calloc(n, 1);
	int *queue = malloc(n * n * 2 * sizeof *queue), *stack = malloc(n * sizeof *stack);
	uint8_t *boxes = malloc(n);
	assert_true(seen && pmark && queue && stack && boxes);
	memcpy(boxes, box, n);
	boxes[b] = 0;
	memset(reached, 0, n);
	int head = 0, tail = 0;
	queue[tail++] = b;
	queue[tail++] = player;
	seen[(size_t)b * n + (size_t)player] = 1;
	while (head < tail) {
		int q = queue[head++], p = queue[head++];
		/* the player's squares with the box on q */
		memset(pmark, 0, n);
		int sp = 0;
		stack[sp++] = p;
		pmark[p] = 1;
		while (sp) {
			int c = stack[--sp];
			for (int d = 0; d < 4; d++) {
				int x = c + s->off[d];
				if (s->wall[x] || boxes[x] || x == q || pmark[x])
					continue;
				pmark[x] = 1;
				stack[sp++] = x;
			}
		}
		for (int d = 0; d < 4; d++) {
			int from = q - s->off[d], to = q + s->off[d];
			if (!pmark[from] || s->wall[to] || boxes[to] || s->dead[to])
				continue;
			if (!seen[(size_t)to * n + (size_t)q]) {
				seen[(size_t)to * n + (size_t)q] = 1;
				queue[tail++] = to;
				queue[tail++] = q;
				reached[to] = 1;
			}
		}
	}
	free(seen);
	free(pmark);
	free(queue);
	free(stack);
	free(boxes);
}

static void test_box_moves(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 99);
	int checked = 0;
	const char *off[] = { "freeze", NULL };   /* the independent BFS has no freeze test */
	while (checked < 150) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &any_shape, off, &text);
		const struct sokoban *s = (const struct sokoban *)level;
		void *scratch = calloc(1, level->scratch_size);
		unsigned char *key = calloc(1, level->key_size);
		uint8_t *box = calloc((size_t)s->cells, 1), *want = malloc((size_t)s->cells);
		uint8_t *got = calloc((size_t)s->cells, 1);
		struct soko_movegen g;
		soko_movegen_init(&g, s);
		level->game->initial_state(level, key);
		struct soko_scratch *sc = soko_scratch(s, scratch);
		int n = soko_unpack(s, key, sc);
		soko_reach(s, sc, s->player0);
		memcpy(box, sc->box, (size_t)s->cells);
		size_t m = soko_box_moves(&g, sc, n, NULL);
		for (int i = 0; i < n; i++) {
			int b = sc->boxes[i];
			reach_by_pushes(s, box, b, s->player0, want);
			memset(got, 0, (size_t)s->cells);
			for (size_t k = 0; k < m; k++)
				if (g.moves[k].from == b)
					got[g.moves[k].to] = 1;
			/* back on its own square is a move only when the player
			 * ends elsewhere: not compared */
			got[b] = want[b] = 0;
			if (memcmp(got, want, (size_t)s->cells) != 0)
				fail_msg("box moves of the box at %d differ from its pushes\n%s", b, text);
		}
		soko_clear_boxes(s, sc, n);
		soko_movegen_release(&g);
		free(scratch);
		free(key);
		free(box);
		free(want);
		free(got);
		lk_level_free(level);
		free(text);
		checked++;
	}
}

/* ---- learned patterns are sound ---- */

/* The text of level with its boxes and player replaced by the position
 * in sc (player at cell p). */
static char *position_text(const struct sokoban *s, const uint8_t *box, int p)
{
	size_t w = (size_t)s->width - 2, h = (size_t)s->height - 2;
	char *text = malloc((w + 1) * h + 1), *t = text;
	assert_non_null(text);
	for (size_t y = 1; y <= h; y++) {
		for (size_t x = 1; x <= w; x++) {
			int c = (int)(y * (size_t)s->width + x);
			char ch = s->board[c];
			if (box[c])
				ch = s->goal[c] ? '*' : '$';
			else if (c == p)
				ch = s->goal[c] ? '+' : '@';
			*t++ = ch;
		}
		*t++ = '\n';
	}
	*t = '\0';
	return text;
}

/* Boxes on random live squares of level s (in sc) and the player on a
 * free square: the player's square, or -1 when two boxes drew one square
 * (sc is left clear then). */
static int random_position(const struct sokoban *s, struct soko_scratch *sc, struct lk_rng *rng)
{
	int n = 0, p;
	for (int i = 0; i < s->nboxes; i++) {
		int c = s->cell_of[lk_rng_below(rng, (uint32_t)s->nfloor)];
		if (sc->box[c] || s->dead[c])
			continue;
		sc->box[c] = 1;
		sc->boxes[n++] = (uint16_t)c;
	}
	if (n != s->nboxes) {
		soko_clear_boxes(s, sc, n);
		return -1;
	}
	do
		p = s->cell_of[lk_rng_below(rng, (uint32_t)s->nfloor)];
	while (sc->box[p]);
	return p;
}

static void test_deadtab_sound(void **state)
{
	(void)state;
	static const char *const levels[] = {
		"########\n#      #\n# $$ $ #\n#  @   #\n# ...  #\n#      #\n########\n",
		"#######\n#.   .#\n# $$$ #\n#  @ .#\n#     #\n#######\n",
		"########\n#  #   #\n# $$ $.#\n#  @  .#\n##  . ##\n########\n",
	};
	struct lk_rng rng;
	lk_rng_seed(&rng, 5);
	int dead = 0, positions = 0;
	for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
		struct lk_level *level = soko_test_load(levels[li], NULL, false);
		const struct sokoban *s = (const struct sokoban *)level;
		struct soko_deadtab t;
		soko_deadtab_init(&t, s, level->scratch_size);
		void *scratch = calloc(1, level->scratch_size);
		struct soko_scratch *sc = soko_scratch(s, scratch);
		for (int trial = 0; trial < 300; trial++) {
			int n = s->nboxes, p = random_position(s, sc, &rng);
			if (p < 0)
				continue;
			unsigned least = (unsigned)soko_reach(s, sc, p);
			int cell = sc->boxes[lk_rng_below(&rng, (uint32_t)n)];
			bool said = soko_deadtab_check(&t, sc, cell, least, true);
			positions++;
			if (said) {
				char *text = position_text(s, sc->box, p);
				int truth = soko_raw_answer(text, 400000);
				if (truth == 1)
					fail_msg("a learned pattern calls a solvable position dead:\n%s", text);
				free(text);
				dead++;
			}
			soko_clear_boxes(s, sc, n);
		}
		free(scratch);
		soko_deadtab_release(&t);
		lk_level_free(level);
	}
	print_message("  %d positions, %d called dead (all confirmed)\n", positions, dead);
	assert_true(dead > 0);
}

/* ---- big corrals: patterns of fences beyond DT_MAX_BOXES are sound ---- */

/* Random positions of levels with 7 to 10 boxes, whose fences of boxes
 * often close off a corral of more than DT_MAX_BOXES boxes: every position
 * the deadlock table calls dead by such a pattern (learned or matched) is
 * one raw breadth-first search cannot solve.  Raw BFS must run out of
 * positions to confirm it; a few too big to exhaust are let pass, counted. */
static void test_big_corrals_sound(void **state)
{
	(void)state;
	static const char *const levels[] = {
		"#########\n#.  .  .#\n# $$ $$ #\n#.  @  .#\n# $$ $$ #\n#.  .  .#\n#########\n",
		"##########\n##  .   .#\n#. $$ $ ##\n#  $@$   #\n#.  $ $ .#\n##. .  ###\n##########\n",
		"########\n#. . ..#\n# $$ $ #\n#  @$  #\n# $$ $ #\n#. .  .#\n########\n",
		"##########\n#.. .. ..#\n# $$ $$$ #\n#   @  $ #\n# $$ $ $ #\n#. .  . .#\n##########\n",
	};
	static const char *const on[] = { "big-corrals", NULL };
	soko_test_on = on;
	struct lk_rng rng;
	lk_rng_seed(&rng, 35);
	int big = 0, confirmed = 0, positions = 0;
	for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
		struct lk_level *level = soko_test_load(levels[li], NULL, false);
		const struct sokoban *s = (const struct sokoban *)level;
		struct soko_deadtab t;
		soko_deadtab_init(&t, s, level->scratch_size);
		void *scratch = calloc(1, level->scratch_size);
		struct soko_scratch *sc = soko_scratch(s, scratch);
		for (int trial = 0; trial < 12000 / SOKO_TEST_SHARE; trial++) {
			int n = s->nboxes, p = random_position(s, sc, &rng);
			if (p < 0)
				continue;
			unsigned least = (unsigned)soko_reach(s, sc, p);
			int cell = sc->boxes[lk_rng_below(&rng, (uint32_t)n)];
			uint64_t before = t.matched_big;
			bool said = soko_deadtab_check(&t, sc, cell, least, true);
			positions++;
			if (said && t.matched_big > before) {
				char *text = position_text(s, sc->box, p);
				int truth = soko_raw_answer(text, 1000000);
				if (truth == 1)
					fail_msg("a big corral's pattern calls a solvable position dead:\n%s",
						 text);
				confirmed += truth == 0;
				free(text);
				big++;
			}
			soko_clear_boxes(s, sc, n);
		}
		free(scratch);
		soko_deadtab_release(&t);
		lk_level_free(level);
	}
	soko_test_on = NULL;
	print_message("  %d positions, %d called dead by a big corral's pattern, %d of them "
		      "confirmed by raw BFS (the rest too big for it)\n", positions, big, confirmed);
	assert_true(big >= 10 / SOKO_TEST_SHARE && confirmed * 2 >= big);
}

/* ---- proven-alive: alive reuse trusts only proofs ---- */

/* A random push of the position in sc (the player on p) onto a square not
 * dead: the pushed box's new square, the player then on its old one (*p),
 * or -1 when the draws found none. */
static int random_push(const struct sokoban *s, struct soko_scratch *sc, int n, int *p,
		       struct lk_rng *rng)
{
	soko_reach(s, sc, *p);
	for (int tries = 0; tries < 40; tries++) {
		int i = (int)lk_rng_below(rng, (uint32_t)n), d = (int)lk_rng_below(rng, 4);
		int b = sc->boxes[i], to = b + s->off[d], from = b - s->off[d];
		if (sc->mark[from] != sc->stamp || s->wall[to] || sc->box[to] || s->dead[to])
			continue;
		sc->box[b] = 0;
		sc->box[to] = 1;
		sc->boxes[i] = (uint16_t)to;
		*p = b;
		return to;
	}
	return -1;
}

/* Sasquatch II 43 (David W. Skinner), where the corral fences that the
 * table called alive by boxes spread apart were mostly dead (session 36). */
static const char sasquatch_2_43[] =
	"         #######\n"
	"  ########  #. #\n"
	"  #        $ * #####\n"
	"  # ## ##   #. #   #      ####\n"
	"### # $ $$#$#. # # ########  #\n"
	"#  $#   #  $ * #......       #\n"
	"# $    ### $#.  #  ####      #\n"
	"## # #$$ # $ .# #  #  ##     #\n"
	" # #   $   @##  # ##   ##   ##\n"
	" #  ##  $$$ #  ## ###   #####\n"
	" ##  #.##.###       #\n"
	"  ## #*$.*...  ##   #\n"
	"   #   #   ##  ##  ##\n"
	"   ###   ###########\n"
	"     #####\n";

/* Raw breadth-first search of the boxes on the squares boxes[0..n) alone
 * (fewer boxes than goals, which no level file may have), the player on p:
 * 1 when they can all be pushed onto goals, 0 when not, -1 past
 * max_states.  No pruning at all: walls and boxes only. */
static int raw_boxes_answer(const struct sokoban *s, struct soko_scratch *sc, const uint16_t *boxes,
			    int n, int p, uint32_t max_states)
{
	size_t ks = s->base.key_size;
	uint8_t *key = calloc(1, ks);
	assert_non_null(key);
	for (int i = 0; i < n; i++)
		soko_bit_flip(key + 2, s->compact[boxes[i]]);
	struct lk_table seen;
	lk_table_init(&seen, ks, 0);
	int m = soko_unpack(s, key, sc);
	soko_key_set_player(key, (unsigned)soko_reach(s, sc, p));
	soko_clear_boxes(s, sc, m);
	uint32_t id;
	lk_table_intern(&seen, key, lk_hash_bytes(key, ks), 0, 0, &id);
	int answer = 0;
	for (uint32_t head = 0; head < seen.count && answer == 0; head++) {
		if (seen.count >= max_states) {
			answer = -1;
			break;
		}
		memcpy(key, lk_table_key(&seen, head), ks);
		m = soko_unpack(s, key, sc);
		bool all = true;
		for (int i = 0; i < m; i++)
			all &= s->goal[sc->boxes[i]] != 0;
		if (all) {
			answer = 1;
		} else {
			/* the pushes first (the player's area of each child floods
			 * the same marks) */
			soko_reach(s, sc, s->cell_of[soko_key_player(key)]);
			uint32_t reach = sc->stamp;
			int from_box[4 * DT_CORRAL_BOXES], onto[4 * DT_CORRAL_BOXES], k = 0;
			for (int i = 0; i < m; i++)
				for (int d = 0; d < 4; d++) {
					int b = sc->boxes[i], to = b + s->off[d], from = b - s->off[d];
					if (sc->mark[from] != reach || s->wall[to] || sc->box[to])
						continue;
					from_box[k] = b;
					onto[k++] = to;
				}
			for (int j = 0; j < k; j++) {
				int b = from_box[j], to = onto[j];
				sc->box[b] = 0;
				sc->box[to] = 1;
				unsigned least = (unsigned)soko_reach(s, sc, b);
				sc->box[to] = 0;
				sc->box[b] = 1;
				uint8_t child[64];
				assert_true(ks <= sizeof child);
				memcpy(child, key, ks);
				soko_bit_flip(child + 2, s->compact[b]);
				soko_bit_flip(child + 2, s->compact[to]);
				soko_key_set_player(child, least);
				lk_table_intern(&seen, child, lk_hash_bytes(child, ks), head, 0, &id);
			}
		}
		soko_clear_boxes(s, sc, m);
	}
	lk_table_release(&seen);
	free(key);
	return answer;
}

/* Random walks of pushes from the start of Sasquatch II 43, the searches
 * of one walk meeting each other's positions as those of a search do:
 * each position goes to a table with proven-alive and to one without.
 * Every pattern the first learns is confirmed by raw breadth-first search
 * of its boxes alone (the player where it stands, every goal kept: a
 * pattern is dead when those boxes cannot all reach goals); and the first
 * must call dead positions that the second calls alive (else the switch
 * changes nothing here and the test proves nothing). */
static void test_proven_alive_sound(void **state)
{
	(void)state;
	static const char *const on[] = { "proven-alive", NULL };
	struct lk_rng rng;
	lk_rng_seed(&rng, 36);
	struct lk_level *without = soko_test_load(sasquatch_2_43, NULL, false);
	soko_test_on = on;
	struct lk_level *with = soko_test_load(sasquatch_2_43, NULL, false);
	soko_test_on = NULL;
	const struct sokoban *s = (const struct sokoban *)with;
	assert_true(s->use[SOKO_T_PROVEN_ALIVE]);
	assert_false(((const struct sokoban *)without)->use[SOKO_T_PROVEN_ALIVE]);
	struct soko_deadtab t, u;
	soko_deadtab_init(&t, s, with->scratch_size);
	soko_deadtab_init(&u, (const struct sokoban *)without, without->scratch_size);
	void *scratch = calloc(1, with->scratch_size);
	struct soko_scratch *sc = soko_scratch(s, scratch);
	void *scratch2 = calloc(1, with->scratch_size);
	struct soko_scratch *sc2 = soko_scratch(s, scratch2);
	int positions = 0, learned = 0, confirmed = 0, only_with = 0, only_without = 0;
	/* the raw search itself: a box on a goal alone is solved */
	for (int c = 0; c < s->cells; c++)
		if (s->goal[c] && s->compact[c] >= 0 &&
		    (s->box0[s->compact[c] / 8] >> (s->compact[c] % 8) & 1)) {
			uint16_t one = (uint16_t)c;
			assert_int_equal(raw_boxes_answer(s, sc2, &one, 1, s->player0, 1000), 1);
			break;
		}
	for (int walk = 0; walk < 1000 / SOKO_TEST_SHARE; walk++) {
		int n = 0, p = s->player0;
		for (int c = 0; c < s->cells; c++)
			if (s->compact[c] >= 0 && (s->box0[s->compact[c] / 8] >> (s->compact[c] % 8) & 1)) {
				sc->box[c] = 1;
				sc->boxes[n++] = (uint16_t)c;
			}
		for (int step = 0; step < 40; step++) {
			int cell = random_push(s, sc, n, &p, &rng);
			if (cell < 0)
				break;
			unsigned least = (unsigned)soko_reach(s, sc, p);
			size_t patterns = t.npatterns;
			bool said = soko_deadtab_check(&t, sc, cell, least, true);
			bool said_without = soko_deadtab_check(&u, sc, cell, least, true);
			positions++;
			only_with += said && !said_without;
			only_without += said_without && !said;
			if (t.npatterns > patterns) {
				/* the new pattern's boxes alone (sc2: sc holds the walk) */
				uint32_t i = (uint32_t)patterns;
				int truth = raw_boxes_answer(s, sc2, t.boxes + t.first[i],
							     (int)(t.first[i + 1] - t.first[i]), p,
							     1000000);
				if (truth == 1) {
					char *text = position_text(s, sc->box, p);
					fail_msg("proven-alive: a pattern's boxes alone can be "
						 "solved, in:\n%s", text);
				}
				confirmed += truth == 0;
				learned++;
			}
			if (said || said_without)
				break;   /* the rest of the walk is dead too */
		}
		soko_clear_boxes(s, sc, n);
	}
	print_message("  %d positions of random walks, %d patterns learned with proven-alive, %d "
		      "confirmed by raw BFS (the rest too big for it); %d positions called dead "
		      "only with it, %d only without; %llu positions known alive not trusted\n",
		      positions, learned, confirmed, only_with, only_without,
		      (unsigned long long)t.unproven);
	assert_int_equal(u.unproven, 0);
	assert_true(learned > 0 && confirmed * 2 >= learned);
	assert_true(only_with > 0 && t.unproven > 0);
	free(scratch2);
	free(scratch);
	soko_deadtab_release(&t);
	soko_deadtab_release(&u);
	lk_level_free(with);
	lk_level_free(without);
}

/* ---- greedy slices: the hand-over loses nothing ---- */

static void test_greedy_slices(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 2828);
	int slices = soko_test_technique("greedy-slices"), runs = soko_test_technique("greedy-first");
	int levels = 0, handed = 0, back = 0;
	soko_any_set_slice_first(1);
	/* 400 levels, and on until one hands back (see below) */
	while (levels < 400 || (back == 0 && levels < 4000)) {
		int want;
		char *text = soko_random_answered(&rng, &any_shape, 400000, &want);
		levels++;
		for (int on = 0; on < 2; on++) {
			const char *off[] = { on ? NULL : "greedy-slices", NULL };
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "greedy slices on" : "greedy slices off", &r);
			if (!on)
				assert_true(r.technique_counts[slices] == 0 && r.technique_counts[runs] <= 1);
			handed += on && r.technique_counts[slices] > 0;
			back += on && r.technique_counts[runs] > 1;
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	soko_any_set_slice_first(0);
	print_message("  %d levels; handed over to the feature-space search in %d, back to greedy "
		      "search in %d\n", levels, handed, back);
	/* the hand-back is rare on levels this small (0 to 2 of 400 depending on the
	 * push searches' bound, which the deadlock table's small searches share,
	 * and on the pruning); once is enough to have played it against raw BFS */
	assert_true(handed >= 20 && back >= 1);
}

/* ---- the fallback ---- */

static void test_fallback(void **state)
{
	(void)state;
	char path[4096];
	FILE *fp = test_open_data("sokoban/microban.xsb", path, sizeof path);
	struct lk_reader rd;
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_solver solver;
	lk_reader_init_fp(&rd, fp, path);
	lk_solver_init(&solver);
	int fell_back = 0, floors = 0;
	for (int k = 0; k < 40 && lk_reader_next(&rd, &rec, NULL, NULL) == 1; k++) {
		struct lk_level_options lo = { .metric = "pushes" };
		struct lk_strbuf err = LK_STRBUF_INIT;
		size_t line;
		struct lk_level *level = lk_level_load(&rec, &lo, &err, &line);
		assert_non_null(level);
		struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
		struct lk_search_result best, r;
		lk_search_result_init(&best);
		lk_search_result_init(&r);
		lk_solver_run(&solver, level, &o, &best);
		assert_int_equal(best.status, LK_SOLVED);
		o.bounds.max_states = 20;
		lk_solver_run(&solver, level, &o, &r);
		lk_search_fallback(&solver, level, &o, false, &r);
		if (r.fallback) {
			fell_back++;
			if (r.status == LK_SOLVED) {
				soko_check_replays(level, &r);
				assert_true(r.cost >= best.cost);
				assert_true(!r.optimal || r.cost == best.cost);
			}
			if (r.has_floor) {
				floors++;
				assert_true(r.floor <= best.cost);
			}
		}
		lk_search_result_release(&best);
		lk_search_result_release(&r);
		lk_strbuf_release(&err);
		lk_level_free(level);
	}
	print_message("  %d fallbacks, %d with a bound\n", fell_back, floors);
	assert_true(fell_back > 10 && floors > 10);
	lk_solver_release(&solver);
	lk_record_release(&rec);
	lk_reader_close(&rd);
	fclose(fp);
}

/* ---- no-unpacking: what the advisors may propose ---- */

/* The advisors' picks of a parent (2 packed) with three children: one that
 * unpacks a box but is better in every other feature by far, one a little
 * better in areas only, one that packs a third box.  first: the first
 * search (a->macros); on: the switch.  Returns the picks as a bit set
 * (bit i: child i) and the count of moves refused into *refused. */
static unsigned advised(bool first, bool on, uint64_t *refused)
{
	struct soko_features parent = { .packed = 2, .areas = 5, .doorways = 4, .out_of_plan = 4,
					 .hotspots = 4 };
	struct soko_features kids[3] = {
		{ .packed = 1, .areas = 1, .doorways = 0, .out_of_plan = 0, .hotspots = 0 },
		{ .packed = 2, .areas = 4, .doorways = 4, .out_of_plan = 4, .hotspots = 4 },
		{ .packed = 3, .areas = 5, .doorways = 4, .out_of_plan = 4, .hotspots = 4 },
	};
	static struct sokoban s;
	static struct soko_scratch sc;
	memset(&sc, 0, sizeof sc);
	s.use[SOKO_T_NO_UNPACK] = on;
	struct any a;
	memset(&a, 0, sizeof a);
	a.s = &s;
	a.scratch = &sc;
	a.macros = first;
	lk_table_init(&a.table, 4, (size_t)1 << 20);
	uint32_t id[4];
	for (uint32_t k = 0; k < 4; k++) {
		uint32_t key = k + 1;
		uint32_t cost = soko_features_pack(k ? &kids[k - 1] : &parent);
		assert_int_equal(lk_table_intern(&a.table, &key, lk_hash_bytes(&key, 4), 0, cost,
						 &id[k]), LK_INTERN_ADDED);
	}
	uint8_t flags[8] = { 0 };
	struct amove moves[3];
	for (int k = 0; k < 3; k++)
		moves[k] = (struct amove){ .child = id[k + 1] & 0x7fffffffu, .weight = 1 };
	a.flags = flags;
	a.moves = moves;
	struct expansion x = { .node = id[0], .moves = 0, .nmoves = 3 };
	size_t chosen[NADVISORS];
	int n = soko_fess_advise(&a, &x, chosen);
	unsigned set = 0;
	for (int i = 0; i < n; i++)
		set |= 1u << chosen[i];
	*refused = sc.count[SOKO_T_NO_UNPACK];
	lk_table_release(&a.table);
	return set;
}

static void test_no_unpacking(void **state)
{
	(void)state;
	uint64_t refused;
	/* first search, on: the packing advisor takes the third, the areas
	 * advisor the second, the others nothing; one move refused */
	assert_int_equal(advised(true, true, &refused), 6u);
	assert_int_equal(refused, 1);
	/* the sound search, or the switch off: the unpacking move is
	 * everyone's best but packing's; nothing counted */
	assert_int_equal(advised(false, true, &refused), 5u);
	assert_int_equal(refused, 0);
	assert_int_equal(advised(true, false, &refused), 5u);
	assert_int_equal(refused, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_box_moves),
		cmocka_unit_test(test_each_switch_complete),
		cmocka_unit_test(test_goal_macros_retry),
		cmocka_unit_test(test_deadtab_sound),
		cmocka_unit_test(test_big_corrals_sound),
		cmocka_unit_test(test_proven_alive_sound),
		cmocka_unit_test(test_greedy_slices),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_no_unpacking),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
