/*
 * test_sokoban_any_rooms.c - FESS's room connectivity feature of Sokoban's
 * search for any solution (solve -a any, src/games/sokoban/sokoban_rooms.c;
 * technique room-connectivity).  What it computes and what it may not do:
 *
 *  - on hand-worked levels, the rooms found and the number of room links
 *    a few positions' boxes cut, worked out by hand below;
 *  - on random positions of random levels, the same count as an oracle
 *    written here finds it: a square is a room square when it lies in a
 *    2 x 3 or 3 x 2 rectangle of floor; two rooms are linked when from each
 *    free square of either, a flood over that room's free squares and free
 *    corridor squares touches a square of the other (every free square on
 *    its own, where the module floods each piece of a room once);
 *  - it only steers the search (a feature, a cell coordinate), so with it
 *    on and off every random level is answered as raw breadth-first search
 *    answers it, every solution replaying; off, it counts nothing.  (It is
 *    off unless asked for (--with), which this suite does.)
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
#include "levelkit/search.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "sokoban_random.h"

/* The cell of column x, row y of a level's text (the board is padded by
 * one square on every side). */
static int at(const struct sokoban *s, int x, int y)
{
	return (y + 1) * s->width + x + 1;
}

/* The links that boxes on the squares xy (n pairs of column, row) cut. */
static int cut_with(struct soko_rooms *r, const struct sokoban *s, const int *xy, int n)
{
	uint8_t *box = calloc((size_t)s->cells, 1);
	assert_non_null(box);
	for (int i = 0; i < n; i++)
		box[at(s, xy[2 * i], xy[2 * i + 1])] = 1;
	int cut = soko_rooms_cut(r, s, box);
	free(box);
	return cut;
}

/* ---- hand-worked levels ---- */

/* Two rooms of 3 x 3 joined by a corridor of two squares, (4,3) and (5,3),
 * under the wall between them. */
static const char two_rooms[] =
	"##########\n"
	"#@  ##   #\n"
	"#   ##   #\n"
	"#$.   .$ #\n"
	"##########\n";

static void test_two_rooms(void **state)
{
	(void)state;
	struct lk_level *level = soko_test_load(two_rooms, NULL, false);
	assert_non_null(level);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_rooms *r = soko_rooms_new(s);
	assert_int_equal(r->nrooms, 2);
	assert_int_equal(r->base_links, 1);
	int left = r->room[at(s, 1, 1)], right = r->room[at(s, 8, 3)];
	assert_true(left > 0 && right > 0 && left != right);
	assert_int_equal(r->room[at(s, 3, 3)], left);
	assert_int_equal(r->room[at(s, 6, 1)], right);
	assert_int_equal(r->room[at(s, 4, 3)], 0);   /* the corridor */
	assert_int_equal(r->room[at(s, 5, 3)], 0);
	assert_int_equal(cut_with(r, s, NULL, 0), 0);
	/* a box in the corridor cuts the link */
	assert_int_equal(cut_with(r, s, (const int[]){ 4, 3 }, 1), 1);
	assert_int_equal(cut_with(r, s, (const int[]){ 5, 3 }, 1), 1);
	/* a box in the middle or a corner of a room cuts nothing */
	assert_int_equal(cut_with(r, s, (const int[]){ 2, 2 }, 1), 0);
	assert_int_equal(cut_with(r, s, (const int[]){ 1, 1 }, 1), 0);
	assert_int_equal(cut_with(r, s, (const int[]){ 1, 1, 8, 1 }, 2), 0);
	/* a box on the left room's square at the corridor's mouth: the left
	 * room's free squares reach no corridor, so the link is cut (the right
	 * room still reaches the box's square, which is not enough) */
	assert_int_equal(cut_with(r, s, (const int[]){ 3, 3 }, 1), 1);
	assert_int_equal(cut_with(r, s, (const int[]){ 6, 3 }, 1), 1);
	/* boxes on (2,1) and (1,2) wall the corner (1,1) off: a piece of the
	 * left room that reaches no other room, so the link is cut */
	assert_int_equal(cut_with(r, s, (const int[]){ 2, 1, 1, 2 }, 2), 1);
	soko_rooms_free(r);
	lk_level_free(level);
}

/* Three rooms in a row, A (x 1-3), B (x 5-7), C (x 9-11), joined by the
 * corridor squares (4,3) and (8,3): links A-B and B-C, none A-C (the walk
 * from A stops at B's squares). */
static const char three_rooms[] =
	"#############\n"
	"#@  #   #   #\n"
	"#   #   #   #\n"
	"#$.     .$  #\n"
	"#############\n";

static void test_three_rooms(void **state)
{
	(void)state;
	struct lk_level *level = soko_test_load(three_rooms, NULL, false);
	assert_non_null(level);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_rooms *r = soko_rooms_new(s);
	assert_int_equal(r->nrooms, 3);
	assert_int_equal(r->base_links, 2);
	int a = r->room[at(s, 1, 1)] - 1, b = r->room[at(s, 5, 1)] - 1, c = r->room[at(s, 9, 1)] - 1;
	assert_true(r->base[a] == (uint64_t)1 << b);
	assert_true(r->base[c] == (uint64_t)1 << b);
	assert_true(r->base[b] == ((uint64_t)1 << a | (uint64_t)1 << c));
	assert_int_equal(cut_with(r, s, (const int[]){ 4, 3 }, 1), 1);
	assert_int_equal(cut_with(r, s, (const int[]){ 8, 3 }, 1), 1);
	assert_int_equal(cut_with(r, s, (const int[]){ 4, 3, 8, 3 }, 2), 2);
	/* B's square at A's corridor: B's free squares no longer reach it */
	assert_int_equal(cut_with(r, s, (const int[]){ 5, 3 }, 1), 1);
	/* B's middle square: B stays one piece that reaches both */
	assert_int_equal(cut_with(r, s, (const int[]){ 6, 2 }, 1), 0);
	/* B's column at x 6 filled: B in two pieces, each reaching one room
	 * only, so both links are cut */
	assert_int_equal(cut_with(r, s, (const int[]){ 6, 1, 6, 2, 6, 3 }, 3), 2);
	/* room C full of boxes but for its corridor side: C still one piece */
	assert_int_equal(cut_with(r, s, (const int[]){ 10, 1, 11, 1, 10, 2, 11, 2 }, 4), 0);
	soko_rooms_free(r);
	lk_level_free(level);
}

/* One room, and a level of corridors only: nothing to cut. */
static void test_no_links(void **state)
{
	(void)state;
	struct lk_level *level = soko_test_load("######\n#@   #\n#    #\n#$.  #\n######\n", NULL,
						false);
	assert_non_null(level);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_rooms *r = soko_rooms_new(s);
	assert_int_equal(r->nrooms, 1);
	assert_int_equal(r->base_links, 0);
	assert_int_equal(cut_with(r, s, (const int[]){ 2, 2 }, 1), 0);
	soko_rooms_free(r);
	lk_level_free(level);

	level = soko_test_load("#######\n#@ $ .#\n### ###\n  # #\n  ###\n", NULL, false);
	assert_non_null(level);
	s = (const struct sokoban *)level;
	r = soko_rooms_new(s);
	assert_int_equal(r->nrooms, 0);
	assert_int_equal(cut_with(r, s, (const int[]){ 3, 1 }, 1), 0);
	soko_rooms_free(r);
	lk_level_free(level);
}

/* ---- the oracle on random positions ---- */

static bool in_rect(const struct sokoban *s, int c)
{
	for (int w = 2; w <= 3; w++) {
		int h = 5 - w;
		for (int dy = 0; dy < h; dy++)
			for (int dx = 0; dx < w; dx++) {
				int corner = c - dy * s->width - dx;
				bool all = true;
				for (int y = 0; y < h && all; y++)
					for (int x = 0; x < w && all; x++) {
						int q = corner + y * s->width + x;
						all = q >= 0 && q < s->cells && !s->wall[q];
					}
				if (all)
					return true;
			}
	}
	return false;
}

/* Does the flood from q over room i's free squares and free corridor
 * squares touch a square of room j (rooms numbered from 1)? */
static bool touches(const struct sokoban *s, const uint8_t *room, const uint8_t *box, int q,
		    int i, int j, uint8_t *seen, int *stack)
{
	memset(seen, 0, (size_t)s->cells);
	int sp = 0;
	bool found = false;
	seen[q] = 1;
	stack[sp++] = q;
	while (sp > 0) {
		int x = stack[--sp];
		for (int d = 0; d < 4; d++) {
			int y = x + s->off[d];
			if (s->wall[y] || seen[y])
				continue;
			if (room[y] == j)
				found = true;
			if (box[y] || (room[y] != 0 && room[y] != i))
				continue;
			seen[y] = 1;
			stack[sp++] = y;
		}
	}
	return found;
}

/* Room i's free squares each reach room j; false when it has none. */
static bool all_reach(const struct sokoban *s, const uint8_t *room, const uint8_t *box, int i,
		      int j, uint8_t *seen, int *stack)
{
	bool any = false;
	for (int c = 0; c < s->cells; c++) {
		if (room[c] != i || box[c])
			continue;
		any = true;
		if (!touches(s, room, box, c, i, j, seen, stack))
			return false;
	}
	return any;
}

static int oracle_links(const struct sokoban *s, const uint8_t *room, int nrooms,
			const uint8_t *box, uint8_t *seen, int *stack)
{
	int n = 0;
	for (int i = 1; i <= nrooms; i++)
		for (int j = i + 1; j <= nrooms; j++)
			n += all_reach(s, room, box, i, j, seen, stack) &&
			     all_reach(s, room, box, j, i, seen, stack);
	return n;
}

/* Interior 6..13 x 5..9, 2 to 7 boxes, walls on 5 to 19 % of it. */
static const struct soko_random_shape rooms_shape = { 6, 8, 5, 5, 2, 6, 5, 15 };

static void test_random_positions(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3131);
	int levels = 0, positions = 0, cut_some = 0;
	while (positions < 1500) {
		char *text = soko_random_level(&rng, &rooms_shape);
		if (!text)
			continue;
		struct lk_level *level = soko_test_load(text, NULL, false);
		free(text);
		if (!level)
			continue;
		const struct sokoban *s = (const struct sokoban *)level;
		struct soko_rooms *r = soko_rooms_new(s);
		uint8_t *box = calloc((size_t)s->cells, 1), *seen = calloc((size_t)s->cells, 1);
		int *stack = malloc((size_t)s->cells * sizeof *stack);
		assert_true(box && seen && stack);
		/* the room squares are those in a 2 x 3 or 3 x 2 rectangle */
		for (int c = 0; c < s->cells; c++)
			assert_int_equal(r->room[c] != 0, !s->wall[c] && in_rect(s, c));
		assert_int_equal(r->base_links, oracle_links(s, r->room, r->nrooms, box, seen, stack));
		levels++;
		for (int k = 0; k < 20 && r->nrooms > 1; k++) {
			memset(box, 0, (size_t)s->cells);
			int nb = 1 + (int)lk_rng_below(&rng, (uint32_t)(s->nfloor / 3 + 1));
			for (int b = 0; b < nb; b++)
				box[s->cell_of[lk_rng_below(&rng, (uint32_t)s->nfloor)]] = 1;
			int want = r->base_links - oracle_links(s, r->room, r->nrooms, box, seen, stack);
			assert_int_equal(soko_rooms_cut(r, s, box), want);
			positions++;
			cut_some += want > 0;
		}
		free(box);
		free(seen);
		free(stack);
		soko_rooms_free(r);
		lk_level_free(level);
	}
	print_message("  %d levels, %d positions, %d of them cutting a link\n", levels, positions,
		      cut_some);
	assert_true(cut_some >= 300);
}

/* ---- -a any with it on and off: answered as raw BFS answers ---- */

/* Room layouts: two rooms and a corridor, three in a row, three round a
 * corridor that forks (the hand-worked ones above, and one more). */
static const char *const layouts[] = {
	"##########\n#    ##   #\n#    ##   #\n#         #\n##########\n",
	"#############\n#   #   #   #\n#   #   #   #\n#           #\n#############\n",
	"#########\n#   #   #\n#   #   #\n#       #\n#### ####\n  #   #\n  #   #\n  #####\n",
};

/* A random level on a layout: 1 to 3 boxes and as many goals on distinct
 * floor squares each (a box may stand on a goal), the player on a free
 * one.  The caller frees the text. */
static char *room_level(struct lk_rng *rng)
{
	const char *layout = layouts[lk_rng_below(rng, 3)];
	size_t len = strlen(layout), nfloor = 0;
	char *text = malloc(len + 1);
	size_t *floor = malloc(len * sizeof *floor);
	assert_true(text && floor);
	memcpy(text, layout, len + 1);
	/* floor: the blanks with a wall before and after them on their line */
	for (size_t i = 0, line = 0; i < len; i++) {
		if (text[i] == '\n') {
			line = i + 1;
			continue;
		}
		size_t end = i;
		while (text[end] != '\n')
			end++;
		if (text[i] == ' ' && memchr(text + line, '#', i - line) && memchr(text + i, '#', end - i))
			floor[nfloor++] = i;
	}
	int nb = 1 + (int)lk_rng_below(rng, 3);
	for (int placed = 0; placed < nb;) {   /* boxes */
		size_t i = floor[lk_rng_below(rng, (uint32_t)nfloor)];
		if (text[i] == ' ') {
			text[i] = '$';
			placed++;
		}
	}
	for (int placed = 0; placed < nb;) {   /* goals */
		size_t i = floor[lk_rng_below(rng, (uint32_t)nfloor)];
		if (text[i] == ' ' || text[i] == '$') {
			text[i] = text[i] == '$' ? '*' : '.';
			placed++;
		}
	}
	for (;;) {   /* the player */
		size_t i = floor[lk_rng_below(rng, (uint32_t)nfloor)];
		if (text[i] == ' ' || text[i] == '.') {
			text[i] = text[i] == '.' ? '+' : '@';
			break;
		}
	}
	free(floor);
	return text;
}

static void test_any_as_raw(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3232);
	int rooms = soko_test_technique("room-connectivity");
	int levels = 0, yes = 0, with_links = 0;
	while (yes < 60) {
		char *text = room_level(&rng);
		int want = soko_raw_answer(text, 400000);
		if (want < 0 || (want == 0 && levels - yes >= 30)) {
			free(text);
			continue;
		}
		levels++;
		yes += want == 1;
		/* on (greedy first off, so that the feature-space search answers),
		 * and off */
		const char *on[] = { "greedy-first", NULL };
		const char *off[] = { "greedy-first", "room-connectivity", NULL };
		for (int k = 0; k < 2; k++) {
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, k ? off : on, want,
								 k ? "rooms off" : "rooms on", &r);
			if (k)
				assert_int_equal(r.technique_counts[rooms], 0);
			else
				with_links += r.technique_counts[rooms] > 0;
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		free(text);
	}
	print_message("  %d levels (%d solvable), %d with room links\n", levels, yes, with_links);
	assert_true(levels - yes >= 30 && with_links >= 60);
}

int main(void)
{
	static const char *const rooms_on[] = { "room-connectivity", NULL };
	soko_test_on = rooms_on;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_rooms),
		cmocka_unit_test(test_three_rooms),
		cmocka_unit_test(test_no_links),
		cmocka_unit_test(test_random_positions),
		cmocka_unit_test(test_any_as_raw),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
