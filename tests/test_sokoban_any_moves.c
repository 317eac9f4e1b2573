/*
 * test_sokoban_any_moves.c - the player areas of the box moves of solve
 * -a any (src/games/sokoban/sokoban_boxmoves.c), against floods written
 * here:
 *
 *  - the box moves of a position are exactly the (square, player area)
 *    pairs one box reaches by its own pushes, each area named by its least
 *    compact index (a breadth-first search over (box square, player
 *    square) with a flood of the player's squares after every push), on
 *    positions a random walk of box moves reaches in random levels with
 *    walls that cut the floor in pieces;
 *  - the number of player areas of every move's child (worked out from one
 *    depth-first search of the parent's floor, soko_move_areas) is the
 *    number of connected pieces of the child's free floor, flooded;
 *  - the dead-state test of every move's child from its parent's matching
 *    (soko_unmatchable_move: one augmenting path) answers and counts as
 *    the test from scratch (soko_unmatchable) does;
 *  - the player's reach from that search (soko_movegen_reach) is the
 *    flood's (soko_reach);
 *  - the push searches' successors name the player's area by its least
 *    square, where the local test of soko_pushed_player answers as where a
 *    flood does;
 *  - the deadlock table's floods a board row at a time (sokoban_rows.c)
 *    find the flood's squares, its least square and whether it holds a
 *    given square, and soko_rows_pushed names a push's player area as
 *    soko_pushed_area does, on positions of those walks with boxes taken
 *    away at random (the small searches have a few boxes on the board).
 *
 * The first two replace floods per square and per child with the
 * articulation points of the parent's floor: the same moves, the same
 * features, so the same search, only cheaper; so does the third.
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
#include "levelkit/rng.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "sokoban_random.h"

/* Interior 4..11 x 3..9, 1 to 7 boxes, walls on 5 to 34 % of it. */
static const struct soko_random_shape moves_shape = { 4, 8, 3, 7, 1, 7, 5, 30 };

/* The least compact index of the free squares flooded from p (boxes in
 * box, the square q a box too when q >= 0), marking them in mark. */
static int flood_least(const struct sokoban *s, const uint8_t *box, int q, int p, uint8_t *mark,
		       int *stack)
{
	memset(mark, 0, (size_t)s->cells);
	int sp = 0, least = s->compact[p];
	stack[sp++] = p;
	mark[p] = 1;
	while (sp) {
		int c = stack[--sp];
		if (s->compact[c] < least)
			least = s->compact[c];
		for (int d = 0; d < 4; d++) {
			int x = c + s->off[d];
			if (s->wall[x] || box[x] || x == q || mark[x])
				continue;
			mark[x] = 1;
			stack[sp++] = x;
		}
	}
	return least;
}

/* The (square, least index of the player's area) pairs box b reaches by
 * its own pushes, player on `player`, into pairs (cells x nfloor), the
 * start's own pair left out (it is no move). */
static void pairs_by_pushes(const struct sokoban *s, const uint8_t *box, int b, int player,
			    uint8_t *pairs)
{
	size_t n = (size_t)s->cells, nf = (size_t)s->nfloor;
	uint8_t *seen = calloc(n * n, 1), *mark = malloc(n), *boxes = malloc(n);
	int *queue = malloc(n * n * 2 * sizeof *queue), *stack = malloc(n * sizeof *stack);
	assert_true(seen && mark && queue && stack && boxes);
	memcpy(boxes, box, n);
	boxes[b] = 0;
	memset(pairs, 0, n * nf);
	int head = 0, tail = 0, start_least = -1;
	queue[tail++] = b;
	queue[tail++] = player;
	seen[(size_t)b * n + (size_t)player] = 1;
	while (head < tail) {
		int q = queue[head++], p = queue[head++];
		int least = flood_least(s, boxes, q, p, mark, stack);
		if (start_least < 0)
			start_least = least;
		else if (q != b || least != start_least)
			pairs[(size_t)q * nf + (size_t)least] = 1;
		for (int d = 0; d < 4; d++) {
			int from = q - s->off[d], to = q + s->off[d];
			if (!mark[from] || s->wall[to] || boxes[to] || s->dead[to])
				continue;
			if (!seen[(size_t)to * n + (size_t)q]) {
				seen[(size_t)to * n + (size_t)q] = 1;
				queue[tail++] = to;
				queue[tail++] = q;
			}
		}
	}
	free(seen);
	free(mark);
	free(boxes);
	free(queue);
	free(stack);
}

/* Connected pieces of the free floor (boxes in box). */
static int count_areas(const struct sokoban *s, const uint8_t *box)
{
	uint8_t *mark = calloc((size_t)s->cells, 1), *one = malloc((size_t)s->cells);
	int *stack = malloc((size_t)s->cells * sizeof *stack), areas = 0;
	assert_true(mark && one && stack);
	for (int i = 0; i < s->nfloor; i++) {
		int c = s->cell_of[i];
		if (box[c] || mark[c])
			continue;
		areas++;
		flood_least(s, box, -1, c, one, stack);
		for (int x = 0; x < s->cells; x++)
			mark[x] |= one[x];
	}
	free(mark);
	free(one);
	free(stack);
	return areas;
}

static void test_move_areas(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 2929);
	int positions = 0, moves = 0, split = 0, cut_off = 0, dead_children = 0;
	const char *off[] = { "freeze", NULL };   /* the BFS here has no freeze test */
	for (int levels = 0; levels < 150;) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &moves_shape, off, &text);
		const struct sokoban *s = (const struct sokoban *)level;
		levels++;
		size_t n = (size_t)s->cells, nf = (size_t)s->nfloor;
		void *scratch = calloc(1, level->scratch_size);
		unsigned char *key = calloc(1, level->key_size);
		uint8_t *box = malloc(n), *want = malloc(n * nf), *got = malloc(n * nf);
		assert_true(scratch && key && box && want && got);
		struct soko_movegen g;
		soko_movegen_init(&g, s);
		struct soko_matcher mt, scratch_mt;
		soko_matcher_init(&mt, s);
		soko_matcher_init(&scratch_mt, s);
		void *scratch2 = calloc(1, level->scratch_size);
		unsigned char *child = calloc(1, level->key_size);
		assert_true(scratch2 && child);
		level->game->initial_state(level, key);
		struct soko_scratch *sc = soko_scratch(s, scratch);
		int player = s->player0;
		/* a random walk of box moves, every position on it checked */
		for (int step = 0; step < 10; step++) {
			int nb = soko_unpack(s, key, sc);
			/* the reach from the depth-first search, as a flood's */
			int least = soko_reach(s, sc, player);
			for (size_t c = 0; c < n; c++)
				box[c] = sc->mark[c] == sc->stamp;
			if (soko_movegen_reach(&g, sc, player) != least)
				fail_msg("the reach's least square differs\n%s", text);
			for (size_t c = 0; c < n; c++)
				if (box[c] != (sc->mark[c] == sc->stamp))
					fail_msg("the reach differs at %zu\n%s", c, text);
			memcpy(box, sc->box, n);
			int areas = count_areas(s, box);
			size_t m = soko_box_moves(&g, sc, nb, NULL);
			positions++;
			cut_off += areas > 1;
			for (int i = 0; i < nb; i++) {
				int b = sc->boxes[i];
				pairs_by_pushes(s, box, b, player, want);
				memset(got, 0, n * nf);
				for (size_t k = 0; k < m; k++)
					if (g.moves[k].from == b) {
						size_t at = (size_t)g.moves[k].to * nf + g.moves[k].player;
						if (got[at])
							fail_msg("a box move twice\n%s", text);
						got[at] = 1;
					}
				if (memcmp(got, want, n * nf) != 0)
					fail_msg("box moves of the box at %d (step %d) differ from its "
						 "pushes\n%s", b, step, text);
			}
			soko_matcher_base(s, sc, nb, &mt);
			for (size_t k = 0; k < m; k++) {
				int from = g.moves[k].from, to = g.moves[k].to;
				/* the dead-state test, from scratch and from the parent */
				unsigned char *ck = child;
				memcpy(ck, key, level->key_size);
				soko_bit_flip(ck + 2, s->compact[from]);
				soko_bit_flip(ck + 2, s->compact[to]);
				struct soko_scratch *c2 = soko_scratch(s, scratch2);
				int cn = soko_unpack(s, ck, c2);
				uint64_t before[SOKO_NTECH], full[SOKO_NTECH];
				memcpy(before, c2->count, sizeof before);
				bool dead = soko_unmatchable(s, c2, cn, &scratch_mt);
				memcpy(full, c2->count, sizeof full);
				memcpy(c2->count, before, sizeof before);
				if (soko_unmatchable_move(s, c2, cn, &mt, from, to) != dead ||
				    memcmp(c2->count, full, sizeof full) != 0)
					fail_msg("move %d -> %d: the dead-state test from the parent "
						 "differs\n%s", from, to, text);
				dead_children += dead;
				soko_clear_boxes(s, c2, cn);
				box[from] = 0;
				box[to] = 1;
				int want_areas = count_areas(s, box);
				box[to] = 0;
				box[from] = 1;
				if (soko_move_areas(&g, from, to) != want_areas)
					fail_msg("move %d -> %d: %d areas, flooded %d\n%s", from, to,
						 soko_move_areas(&g, from, to), want_areas, text);
				split += want_areas != areas;
				moves++;
			}
			soko_clear_boxes(s, sc, nb);
			if (m == 0)
				break;
			const struct soko_boxmove *mv = &g.moves[lk_rng_below(&rng, (uint32_t)m)];
			soko_bit_flip(key + 2, s->compact[mv->from]);
			soko_bit_flip(key + 2, s->compact[mv->to]);
			soko_key_set_player(key, mv->player);
			player = s->cell_of[mv->player];
		}
		soko_movegen_release(&g);
		soko_matcher_release(&mt);
		soko_matcher_release(&scratch_mt);
		free(scratch2);
		free(child);
		free(scratch);
		free(key);
		free(box);
		free(want);
		free(got);
		lk_level_free(level);
		free(text);
	}
	print_message("  %d positions (%d with more than one player area), %d moves, %d of "
		      "which change the areas, %d to a dead state\n", positions, cut_off, moves,
		      split, dead_children);
	assert_true(positions >= 600 && cut_off >= 100 && split >= 100 && dead_children >= 100);
}

/* The push searches' successors: each one's player is the least compact
 * index of the area of the square it pushed from (after the push), the
 * local test of soko_pushed_player or a flood alike. */
static void test_push_players(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 2930);
	int pushes = 0;
	for (int levels = 0; levels < 150;) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &moves_shape, NULL, &text);
		const struct sokoban *s = (const struct sokoban *)level;
		levels++;
		size_t n = (size_t)s->cells, ks = level->key_size;
		void *scratch = calloc(1, level->scratch_size), *scratch2 = calloc(1, level->scratch_size);
		unsigned char *key = calloc(1, ks), *out = calloc(level->max_successors, ks);
		struct lk_edge *edges = calloc(level->max_successors, sizeof *edges);
		uint8_t *box = malloc(n), *mark = malloc(n);
		int *stack = malloc(n * sizeof *stack);
		assert_true(scratch && scratch2 && key && out && edges && box && mark && stack);
		level->game->initial_state(level, key);
		for (int step = 0; step < 12; step++) {
			unsigned m = level->game->successors(level, key, scratch, out, edges);
			for (unsigned k = 0; k < m; k++) {
				const unsigned char *ck = out + k * ks;
				struct soko_scratch *c2 = soko_scratch(s, scratch2);
				int cn = soko_unpack(s, ck, c2);
				memcpy(box, c2->box, n);
				soko_clear_boxes(s, c2, cn);
				/* the box that arrived, and the square behind it */
				int d = (int)(edges[k].move & 3), end = -1;
				for (int i = 0; i < s->nfloor; i++)
					if (soko_bit(ck + 2, i) && !soko_bit(key + 2, i))
						end = s->cell_of[i];
				assert_true(end >= 0);
				int behind = end - s->off[d];
				if (flood_least(s, box, -1, behind, mark, stack) != soko_key_player(ck))
					fail_msg("a push's player is not its area's least square\n%s", text);
				pushes++;
			}
			if (m == 0)
				break;
			memcpy(key, out + lk_rng_below(&rng, m) * ks, ks);
		}
		free(scratch);
		free(scratch2);
		free(key);
		free(out);
		free(edges);
		free(box);
		free(mark);
		free(stack);
		lk_level_free(level);
		free(text);
	}
	print_message("  %d pushes\n", pushes);
	assert_true(pushes >= 2000);
}

/* soko_rows_flood and soko_rows_pushed against flood_least and
 * soko_pushed_area, on the positions of random walks with each box kept
 * with probability one half. */
static void test_rows(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 2931);
	int floods = 0, stopped = 0, pushes = 0;
	for (int levels = 0; levels < 150;) {
		char *text;
		struct lk_level *level = soko_random_live(&rng, &moves_shape, NULL, &text);
		const struct sokoban *s = (const struct sokoban *)level;
		levels++;
		size_t n = (size_t)s->cells, ks = level->key_size;
		void *scratch = calloc(1, level->scratch_size), *walk = calloc(1, level->scratch_size);
		unsigned char *key = calloc(1, ks), *out = calloc(level->max_successors, ks);
		unsigned char *small = calloc(1, ks);
		struct lk_edge *edges = calloc(level->max_successors, sizeof *edges);
		uint8_t *mark = malloc(n);
		int *stack = malloc(n * sizeof *stack);
		assert_true(scratch && walk && key && out && small && edges && mark && stack);
		struct soko_rows r;
		assert_true(soko_rows_init(&r, s));
		level->game->initial_state(level, key);
		struct soko_scratch *sc = soko_scratch(s, scratch);
		for (int step = 0; step < 12; step++) {
			/* the position with some of its boxes taken away */
			memcpy(small, key, ks);
			for (int i = 0; i < s->nfloor; i++)
				if (soko_bit(key + 2, i) && lk_rng_below(&rng, 2))
					soko_bit_flip(small + 2, i);
			int nb = soko_unpack(s, small, sc);
			soko_rows_boxes(&r, sc->boxes, nb);
			for (int p = 0; p < s->cells; p++) {
				if (s->wall[p] || sc->box[p])
					continue;
				int stop = s->cell_of[lk_rng_below(&rng, (uint32_t)s->nfloor)];
				int least = flood_least(s, sc->box, -1, p, mark, stack);
				int low = soko_rows_flood(&r, r.area, p, -1);
				if (s->compact[low] != least)
					fail_msg("the rows' least square differs\n%s", text);
				for (int c = 0; c < s->cells; c++)
					if (soko_rows_in(&r, r.area, c) != (mark[c] != 0))
						fail_msg("the rows' area differs at %d\n%s", c, text);
				bool met = soko_rows_flood(&r, r.area2, p, stop) < 0;
				if (met != (mark[stop] != 0))
					fail_msg("the rows' stop differs\n%s", text);
				floods++;
				stopped += met;
			}
			/* every push from the player's area, both ways */
			int player = s->cell_of[soko_key_player(key)];
			unsigned lst = (unsigned)soko_reach(s, sc, player);
			uint32_t st = sc->stamp;
			int plow = soko_rows_flood(&r, r.area, player, -1);
			assert_int_equal(s->compact[plow], lst);
			for (int i = 0; i < nb; i++) {
				int b = sc->boxes[i];
				for (int d = 0; d < 4; d++) {
					int to = b + s->off[d], from = b - s->off[d];
					if (sc->mark[from] != st || s->wall[to] || sc->box[to])
						continue;
					sc->box[b] = 0;
					sc->box[to] = 1;
					uint16_t moved[2] = { (uint16_t)b, (uint16_t)to };
					soko_rows_boxes(&r, moved, 2);
					int want = soko_pushed_area(s, sc, b, to, st, lst);
					int got = soko_rows_pushed(s, &r, sc, b, to, lst);
					if (want != got || want != flood_least(s, sc->box, -1, b, mark, stack))
						fail_msg("a push's player differs (%d, %d)\n%s", want, got, text);
					soko_rows_boxes(&r, moved, 2);
					sc->box[to] = 0;
					sc->box[b] = 1;
					pushes++;
				}
			}
			soko_rows_boxes(&r, sc->boxes, nb);
			soko_clear_boxes(s, sc, nb);
			unsigned m = level->game->successors(level, key, walk, out, edges);
			if (m == 0)
				break;
			memcpy(key, out + lk_rng_below(&rng, m) * ks, ks);
		}
		soko_rows_release(&r);
		free(scratch);
		free(walk);
		free(key);
		free(out);
		free(small);
		free(edges);
		free(mark);
		free(stack);
		lk_level_free(level);
		free(text);
	}
	print_message("  %d floods (%d met their stop), %d pushes\n", floods, stopped, pushes);
	assert_true(floods >= 10000 / SOKO_TEST_SHARE && stopped >= 1000 / SOKO_TEST_SHARE &&
		    pushes >= 2000 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_move_areas),
		cmocka_unit_test(test_push_players),
		cmocka_unit_test(test_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
