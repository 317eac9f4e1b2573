/*
 * test_sokoban_any_park.c - the parking plan of Sokoban's search for any
 * solution (solve -a any, src/games/sokoban/sokoban_park.c): a packing
 * order that may park boxes off the goals first.  What it may and may not
 * do:
 *
 *  - a plan is a list of steps that can be played: each step's target is
 *    empty before it and the parking square it leaves holds a box, each
 *    parking square is left again, the last step leaves every goal and
 *    nothing else filled, and the boxes taken in from their start are as
 *    many as the goals;
 *  - it only steers the search (the features, which state is expanded
 *    next) and stands the goal-room macros aside: it prunes nothing, so
 *    with every complete plan used (parking or not), every random level is
 *    answered as raw breadth-first search answers it, and every solution
 *    replays to a win;
 *  - off, it counts nothing;
 *  - on levels whose every box must cross the goals before they can be
 *    filled (David W. Skinner's Sasquatch I 36 and II 33), it finds a
 *    complete plan that parks boxes, and the plan replays backwards, step
 *    by step, under a pull search of the test's own (replay_backwards);
 *  - fewest-parked (a side's search goes on for plans that park fewer
 *    boxes, and a side need only beat the best plan so far): on random
 *    levels and on the Sasquatch levels here, every level that gets a
 *    complete plan without it gets one with it, parking no more boxes,
 *    and that plan plays and replays backwards; on Sasquatch II 42 (whose
 *    first plan parks 4) it parks fewer;
 *  - playable-parking (no parking on a start square whose own box the
 *    plan moves only later): played forwards from the level's start, the
 *    boxes not yet moved on their start squares, every step's target is
 *    empty before it; without it, Sasquatch I 30 and I 31 get plans whose
 *    step 0 parks on such a square, with it plans that play so, on random
 *    levels no plan with it fails so, and -a any answers as raw
 *    breadth-first search with it on and off.  (Push by push, the other
 *    boxes in place, a plan may still fail where a box not moved yet
 *    stands in a way the retrieval took with it lifted: printed, not
 *    asserted; I 30's does at step 0.)
 *  - playable-plan (the retrieval keeps the boxes it takes out on their
 *    start squares): every plan it finds plays push by push, by the
 *    test's own search and by the library's (sokoban_parkplay.c), which
 *    agree on every plan; where it finds none the plan without it stands;
 *    -a any answers random levels as raw breadth-first search with it on;
 *    off it counts nothing; Sasquatch I 41 gets a plan only with it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/rng.h"
#include "levelkit/search.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "sokoban_random.h"
#include "sokoban_park_check.h"

/* Marks in from every cell the player can walk to from one marked. */
static void walk_on(const struct sokoban *s, const uint8_t *box, uint8_t *from)
{
	for (bool grew = true; grew;) {
		grew = false;
		for (int c = 0; c < s->cells; c++)
			for (int d = 0; d < 4 && from[c]; d++) {
				int q = c + s->off[d];
				if (!s->wall[q] && !box[q] && !from[q])
					from[q] = 1, grew = true;
			}
	}
}

/* A box on cell b can be pulled, the other boxes (box[]) in place, from
 * a player on a cell marked in *from to a cell dest[] marks: a search of
 * its own over (box, player).  On success *from becomes the cells the
 * player can walk to from where the pulls end (the box on the first
 * destination reached, *got), and box[] holds the box there. */
static bool pull_to(const struct sokoban *s, uint8_t *box, int b, const uint8_t *dest,
		    uint8_t *from, int *got)
{
	int n = s->cells;
	uint8_t *seen = calloc((size_t)n * (size_t)n, 1);
	int *queue = malloc((size_t)n * (size_t)n * sizeof *queue);
	assert_non_null(seen);
	assert_non_null(queue);
	int head = 0, tail = 0;
	box[b] = 0;
	for (int c = 0; c < n; c++)
		if (from[c] && c != b && !s->wall[c]) {
			seen[b * n + c] = 1;
			queue[tail++] = b * n + c;
		}
	int end = -1;
	for (int c = 0; c < n; c++)
		from[c] = 0;
	while (head < tail) {
		int x = queue[head] / n, pl = queue[head] % n;
		head++;
		if (dest[x] && (end < 0 || end == x)) {
			end = x;
			from[pl] = 1;   /* every player square the pulls leave there */
			continue;
		}
		for (int d = 0; d < 4; d++) {
			int q = pl + s->off[d];
			if (s->wall[q] || box[q] || q == x)
				continue;
			/* a walk, and a pull when the box is behind the player */
			for (int pull = 0; pull < 2; pull++) {
				int nx = pull ? pl : x;
				if (pull && pl - s->off[d] != x)
					break;
				if (!seen[nx * n + q]) {
					seen[nx * n + q] = 1;
					queue[tail++] = nx * n + q;
				}
			}
		}
	}
	free(queue);
	free(seen);
	if (end < 0) {
		box[b] = 1;
		return false;
	}
	box[end] = 1;
	*got = end;
	walk_on(s, box, from);
	return true;
}

/* Replays plan p backwards from the solved position: each step, last
 * first, pulls the box off its target, the other boxes in place, to the
 * parking square it left or to a start square no other box has taken
 * (a box taken out is lifted off the board, as the plan counts it); the
 * player starts anywhere on the floor and then walks from where each
 * step's pulls leave it.  Fails the test at the first step that cannot
 * be played. */
static void replay_backwards(const struct sokoban *s, const struct soko_park *p)
{
	int n = s->cells;
	uint8_t *box = calloc((size_t)n, 1), *from = calloc((size_t)n, 1);
	uint8_t *dest = calloc((size_t)n, 1), *used = calloc((size_t)n, 1);
	assert_non_null(box);
	assert_non_null(from);
	assert_non_null(dest);
	assert_non_null(used);
	for (int i = 0; i < s->ngoals; i++)
		box[s->goals[i]] = 1;
	for (int c = 0; c < n; c++)
		from[c] = !s->wall[c] && !box[c];
	for (int i = p->nsteps - 1; i >= 0; i--) {
		int t = p->target[i], got = -1;
		assert_int_equal(box[t], 1);
		memset(dest, 0, (size_t)n);
		if (p->leaves[i] != SOKO_NONE) {
			dest[p->leaves[i]] = 1;
		} else {
			int st = p->start[i];
			assert_true(st != SOKO_NONE && s->compact[st] >= 0 &&
				    soko_bit(s->box0, s->compact[st]));
			assert_int_equal(used[st], 0);
			dest[st] = 1;
		}
		int nfrom = 0; for (int c = 0; c < n; c++) nfrom += from[c];
		if (!pull_to(s, box, t, dest, from, &got))
			fail_msg("step %d: the box on %d cannot be pulled back", i, t);
		if (p->leaves[i] == SOKO_NONE) {
			used[got] = 1;
			box[got] = 0;   /* out */
			from[got] = 1;
			walk_on(s, box, from);
		}
	}
	for (int c = 0; c < n; c++)
		assert_int_equal(box[c], 0);
	free(box);
	free(from);
	free(dest);
	free(used);
}

/* Sasquatch II 19 (soko_test_crossing, sokoban_random.c) parks boxes. */
static void test_parking_needed(void **state)
{
	(void)state;
	soko_park_set_always(false);
	struct lk_level *level = soko_test_load(soko_test_crossing, NULL, false);
	struct soko_park *p = plan_of(level);
	assert_non_null(p);
	check_plan((const struct sokoban *)level, p);
	replay_backwards((const struct sokoban *)level, p);
	print_message("  Sasquatch II 19: %d steps, %d boxes parked\n", p->nsteps, p->nparked);
	assert_true(p->nparked >= 1);
	soko_park_free(p);
	lk_level_free(level);
}

/* David W. Skinner's Sasquatch I level 36 (../shared/data/sokoban/
 * sasquatch1.xsb): the boxes start right of the goal row, and its far end
 * fills only from the left, so every box crosses the row and waits on the
 * left first (YASS's plan parks 14). */
static const char *across_the_row =
	"               #####\n"
	"   ####        #   ######\n"
	"   #  #        # $    $ #\n"
	"   #  ####     #  $##$  ###\n"
	"   #     #########  # $ $ #\n"
	"   #      ..........#   $ #\n"
	" ###### ##....@###  # $$  #\n"
	" #    # #####.## # ##   $ #\n"
	" #            #  #$  $$ $ #\n"
	"#### #  ##### #  #  $  #  #\n"
	"#    # #      #  ###   ####\n"
	"#      #  #   #    #####\n"
	"#   #     #####\n"
	"#####     #\n"
	"    #######\n";

/* Sasquatch II level 33 (sasquatch2.xsb): the goal row fills from its
 * left end, the boxes come from the room above (YASS parks 4 in the
 * room right of the row). */
static const char *row_from_above =
	"#####\n"
	"#   ##\n"
	"#  $ #####\n"
	"##  $ #  #\n"
	" ## $ # $###########\n"
	"  ##      $ $ $ $  #\n"
	"   #####$ # # #  # #\n"
	"       #      #    #\n"
	"       # #######$#######\n"
	"      ##         #@#   #\n"
	"      #  # # ##  #     #\n"
	"      #..*.*.*......   #\n"
	"      ##########    # ##\n"
	"               ####   #\n"
	"                  #####\n";

/* Fails unless the level of text gets a complete plan that parks boxes
 * and replays backwards. */
static void check_parking_level(const char *text, const char *name)
{
	soko_park_set_always(false);
	struct lk_level *level = soko_test_load(text, NULL, false);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_park *p = plan_of(level);
	if (!p)
		fail_msg("%s: no complete parking plan", name);
	check_plan(s, p);
	replay_backwards(s, p);
	print_message("  %s: %d steps, %d boxes parked\n", name, p->nsteps, p->nparked);
	assert_true(p->nparked >= 1);
	soko_park_free(p);
	lk_level_free(level);
}

static void test_parking_across_the_row(void **state)
{
	(void)state;
	check_parking_level(across_the_row, "Sasquatch I 36");
}

static void test_parking_row_from_above(void **state)
{
	(void)state;
	check_parking_level(row_from_above, "Sasquatch II 33");
}

static void test_parking_plans_lose_nothing(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 3030);
	int parking = soko_test_technique("parking-plan");
	int levels = 0, yes = 0, no = 0, plans = 0, parked = 0;
	while (levels < 150) {
		int want;
		char *text = soko_random_answered(&rng, &soko_small_shape, 400000, &want);
		if (want == 0 && no > levels / 3) {
			free(text);
			continue;
		}
		levels++;
		yes += want == 1;
		no += want == 0;
		struct lk_level *plain = soko_test_load(text, NULL, false);
		soko_park_set_always(true);
		struct soko_park *p = plan_of(plain);
		if (p) {
			check_plan((const struct sokoban *)plain, p);
			replay_backwards((const struct sokoban *)plain, p);
			plans++;
			parked += p->nparked > 0;
		}
		soko_park_free(p);
		lk_level_free(plain);
		for (int on = 0; on < 2; on++) {
			const char *off[] = { "greedy-first", on ? NULL : "parking-plan", NULL };
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, off, want,
								 on ? "parking plan on" : "parking plan off", &r);
			if (!on)
				assert_true(r.technique_counts[parking] == 0);
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		soko_park_set_always(false);
		free(text);
	}
	print_message("  %d levels (%d solvable, %d not): a complete plan for %d, parking in %d\n",
		      levels, yes, no, plans, parked);
	assert_true(yes >= 80 && no >= 15);
	assert_true(plans >= 40);
}

/* Sasquatch II level 42 (sasquatch2.xsb), by David W. Skinner: each
 * side's first plan parks 4 boxes, and one that parks fewer exists. */
static const char *two_halls =
	"###########\n"
	"#         #\n"
	"# $## ### ##   #####\n"
	"#  # $ $ $ #####   ###\n"
	"# $    #     # $. .  #\n"
	"#  ##$###$## # #...# #\n"
	"# $    #     # #. .# ##\n"
	"## # $ $ $## # #...#  #\n"
	"#  ## ### #. # #. . # #\n"
	"# $       #    #    # #\n"
	"# @######## ###     # #\n"
	"####     #       ###  #\n"
	"         # ####  #   ##\n"
	"         #     ##  ###\n"
	"         #####    ##\n"
	"             ######\n";

/* The plan of text with fewest-parked off and on: the second complete
 * whenever the first is, parking no more, and playable; returns the boxes
 * each parks (-1: no complete plan). */
static void fewest_against_first(const char *text, bool always, int *first, int *fewest)
{
	struct lk_level *level = soko_test_load(text, NULL, false);
	const struct sokoban *s = (const struct sokoban *)level;
	soko_park_set_always(always);
	int got[2];
	for (int on = 0; on < 2; on++) {
		soko_park_set_fewest(on);
		struct soko_park *p = plan_of(level);
		got[on] = p ? p->nparked : -1;
		if (p) {
			check_plan(s, p);
			replay_backwards(s, p);
		}
		soko_park_free(p);
	}
	soko_park_set_fewest(true);
	soko_park_set_always(false);
	if (got[0] >= 0 && (got[1] < 0 || got[1] > got[0]))
		fail_msg("fewest-parked: %d boxes parked against %d\n%s", got[1], got[0], text);
	*first = got[0];
	*fewest = got[1];
	lk_level_free(level);
}

static void test_fewest_parked(void **state)
{
	(void)state;
	int first, fewest;
	fewest_against_first(two_halls, false, &first, &fewest);
	print_message("  Sasquatch II 42: %d boxes parked, %d first\n", fewest, first);
	assert_true(first > 0 && fewest > 0 && fewest < first);
	const char *named[] = { soko_test_crossing, across_the_row, row_from_above };
	for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
		fewest_against_first(named[i], false, &first, &fewest);
		assert_true(fewest > 0);
	}
	struct lk_rng rng;
	lk_rng_seed(&rng, 3232);
	int plans = 0, fewer = 0;
	for (int levels = 0; levels < 150 / SOKO_TEST_SHARE; levels++) {
		struct lk_level *level;
		char *text = NULL;
		level = soko_random_live(&rng, &soko_small_shape, NULL, &text);
		lk_level_free(level);
		fewest_against_first(text, true, &first, &fewest);
		plans += fewest >= 0;
		fewer += fewest >= 0 && fewest < first;
		free(text);
	}
	print_message("  %d random levels: %d complete plans, %d parking fewer\n",
		      150 / SOKO_TEST_SHARE, plans, fewer);
	assert_true(plans >= 40 / SOKO_TEST_SHARE);
}

/* Sasquatch I levels 30 and 31 (sasquatch1.xsb), by David W. Skinner:
 * without playable-parking the plan's step 0 parks a box on the start
 * square of a box it moves only later. */
static const char *parks_on_a_start =
	"     #####\n"
	"     #   #\n"
	"     #   #        ######\n"
	"   ###  ## #####  #    ###\n"
	"   #    #        ## #$$  #\n"
	"  ##$   ########## $  $  #\n"
	"###  ## ..........$  #$$@#\n"
	"#    # $$# ####### $     #\n"
	"#   $  #...#     ###  ####\n"
	"#   #   $ ### ##   ####\n"
	"########    #\n"
	"       #    #\n"
	"       #    #\n"
	"       ######\n";

static const char *parks_on_a_start2 =
	"   #####\n"
	"   #   #####\n"
	"   # $$#   ######\n"
	" ###.  . $ #    #\n"
	" #  .##.####### #\n"
	" # $.  . #    # #\n"
	"##.##$$$$#$$$ ######\n"
	" #...    .    #    #\n"
	" #..##.####.### ##@#\n"
	" ## # $ $ $ # $ $  #\n"
	"  # #       #     ###\n"
	"  # #.##.#.######  #\n"
	"  #  $ # $.     $  #\n"
	"  #    ###.## ###$##\n"
	"  ###### #        #\n"
	"         ##########\n";

/* A box on cell b pushed, the other boxes (box[]) in place, from a player
 * on a cell marked in *from to cell to: a search of its own over (box,
 * player), as pull_to's; on success *from becomes the cells the player can
 * walk to after the last push of some way there (every way counts: the
 * shortest may shut the player in where one that takes the box round does
 * not) and box[] holds the box on to. */
static bool push_to(const struct sokoban *s, uint8_t *box, int b, int to, uint8_t *from)
{
	int n = s->cells;
	if (b == to)
		return true;
	uint8_t *seen = calloc((size_t)n * (size_t)n, 1);
	int *queue = malloc((size_t)n * (size_t)n * sizeof *queue);
	assert_non_null(seen);
	assert_non_null(queue);
	int head = 0, tail = 0;
	box[b] = 0;
	for (int c = 0; c < n; c++)
		if (from[c] && c != b && !s->wall[c]) {
			seen[b * n + c] = 1;
			queue[tail++] = b * n + c;
		}
	bool end = false;
	while (head < tail) {
		int x = queue[head] / n, pl = queue[head] % n;
		head++;
		for (int d = 0; d < 4; d++) {
			int q = pl + s->off[d], nx = x;
			if (s->wall[q] || box[q])
				continue;
			if (q == x) {   /* a push */
				nx = x + s->off[d];
				if (s->wall[nx] || box[nx])
					continue;
			}
			if (!seen[nx * n + q]) {
				seen[nx * n + q] = 1;
				queue[tail++] = nx * n + q;
				end |= nx == to;
			}
		}
	}
	free(queue);
	if (!end) {
		free(seen);
		box[b] = 1;
		return false;
	}
	box[to] = 1;
	for (int c = 0; c < n; c++)
		from[c] = seen[to * n + c];
	free(seen);
	walk_on(s, box, from);
	return true;
}

/* Plays plan p forwards from the level's start, the boxes the plan has not
 * moved yet on their start squares: the first step whose target holds a
 * box before it (or, with push, whose box cannot be pushed there, the
 * other boxes in place, the player walking on from the last push), or -1
 * when every step plays. */
static int play_forward(const struct sokoban *s, const struct soko_park *p, bool push)
{
	int n = s->cells, bad = -1;
	uint8_t *box = calloc((size_t)n, 1), *from = calloc((size_t)n, 1);
	assert_non_null(box);
	assert_non_null(from);
	for (int c = 0; c < n; c++)
		box[c] = !s->wall[c] && s->compact[c] >= 0 && soko_bit(s->box0, s->compact[c]);
	from[s->player0] = 1;
	walk_on(s, box, from);
	for (int i = 0; i < p->nsteps && bad < 0; i++) {
		int src = p->leaves[i] != SOKO_NONE ? p->leaves[i] : p->start[i], t = p->target[i];
		assert_int_equal(box[src], 1);
		if (t != src && box[t])
			bad = i;
		else if (push && !push_to(s, box, src, t, from))
			bad = i;
		else if (!push)
			box[src] = 0, box[t] = 1;
	}
	free(box);
	free(from);
	return bad;
}

/* The plan of text with playable-parking off and on (every complete plan
 * kept when always): the first step each cannot play (-1: none, -2: no
 * plan), and in *pushes the first the plan with it cannot play push by
 * push (NULL: not asked). */
static void playable_against_not(const char *text, bool always, int *pushes, int *bad_off,
				 int *bad_on)
{
	struct lk_level *level = soko_test_load(text, NULL, false);
	struct sokoban *s = (struct sokoban *)level;
	soko_park_set_always(always);
	s->use[SOKO_T_PARK_RETRY] = false;   /* off means off: no second try */
	for (int on = 0; on < 2; on++) {
		s->use[SOKO_T_PLAYABLE_PARK] = on;
		struct soko_park *p = plan_of(level);
		int bad = p ? play_forward(s, p, false) : -2;
		if (on && pushes)
			*pushes = p ? play_forward(s, p, true) : -2;
		if (p) {
			check_plan(s, p);
			replay_backwards(s, p);
		}
		*(on ? bad_on : bad_off) = bad;
		soko_park_free(p);
	}
	soko_park_set_always(false);
	lk_level_free(level);
}

static void test_playable_parking(void **state)
{
	(void)state;
	int off, on, pushes;
	playable_against_not(parks_on_a_start, false, &pushes, &off, &on);
	print_message("  Sasquatch I 30: step %d unplayable without, %d with (push by push: %d)\n",
		      off, on, pushes);
	assert_int_equal(off, 0);
	assert_int_equal(on, -1);
	playable_against_not(parks_on_a_start2, false, &pushes, &off, &on);
	print_message("  Sasquatch I 31: step %d unplayable without, %d with (push by push: %d)\n",
		      off, on, pushes);
	assert_int_equal(off, 0);
	assert_int_equal(on, -1);
	struct lk_rng rng;
	lk_rng_seed(&rng, 3737);
	int levels = 0, plans = 0, bad_before = 0, by_push = 0, no = 0, on_count = 0;
	while (levels < 150 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_answered(&rng, &soko_small_shape, 400000, &want);
		if (want == 0 && no > levels / 3) {   /* as many solvable as before */
			free(text);
			continue;
		}
		levels++;
		no += want == 0;
		playable_against_not(text, true, &pushes, &off, &on);
		plans += on >= -1;
		by_push += pushes == -1;
		bad_before += off >= 0;
		if (on >= 0)
			fail_msg("step %d of the plan cannot be played\n%s", on, text);
		soko_park_set_always(true);
		for (int k = 0; k < 2; k++) {
			/* off by default: --with playable-parking for k = 1 */
			static const char *const with[] = { "playable-parking", NULL };
			const char *skip[] = { "greedy-first", NULL };
			soko_test_on = k ? with : NULL;
			struct lk_search_result r;
			struct lk_level *level = soko_any_as_raw(text, skip, want, k ?
								 "playable-parking on" : "playable-parking off", &r);
			uint64_t refused = r.technique_counts[soko_test_technique("playable-parking")];
			if (!k)
				assert_true(refused == 0);   /* off: counts nothing */
			on_count += refused > 0;
			lk_search_result_release(&r);
			lk_level_free(level);
		}
		soko_test_on = NULL;
		soko_park_set_always(false);
		free(text);
	}
	print_message("  %d levels searched with it on, refusing a square\n", on_count);
	print_message("  %d random levels: %d complete plans, all playable (%d push by push); "
		      "%d unplayable without\n", levels, plans, by_push, bad_before);
	assert_true(plans >= 40 / SOKO_TEST_SHARE);
}

/* Sasquatch I 41 (sasquatch1.xsb), by David W. Skinner: without
 * playable-plan no complete plan; with it one that plays push by push,
 * though its step 3 shuts the player in above the box by the shortest
 * pushes (the box must be taken round the room above). */
static const char *ring_room =
	"   #####\n"
	"   #   #\n"
	" ###   ########\n"
	"##  ***    # # #\n"
	" #  * *    ## # #####\n"
	"##  ***   ## # ##   ##\n"
	" ###   #### # # #   #\n"
	"   #   # # # ####$ $###\n"
	"  ##   ## # ##  $...$ ##\n"
	"   ##### # ##    .@.  #\n"
	"        # # #   $...$ ##\n"
	"         ########$ $###\n"
	"                #   #\n"
	"                #####\n";

/* The plan of level with technique t set to on, then t as it was. */
static struct soko_park *plan_with(struct lk_level *level, int t, bool on)
{
	struct sokoban *s = (struct sokoban *)level;
	bool was = s->use[t];
	s->use[t] = on;
	struct soko_park *p = plan_of(level);
	s->use[t] = was;
	return p;
}

static struct soko_park *plan_fixed(struct lk_level *level, bool fixed)
{
	return plan_with(level, SOKO_T_PLAYABLE_PLAN, fixed);
}

static void test_playable_plan(void **state)
{
	(void)state;
	soko_park_set_always(false);
	struct lk_level *level = soko_test_load(ring_room, NULL, false);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_park *off = plan_fixed(level, false), *on = plan_fixed(level, true);
	assert_null(off);
	assert_non_null(on);
	assert_true(on->playable);
	check_plan(s, on);
	replay_backwards(s, on);
	assert_int_equal(play_forward(s, on, true), -1);
	assert_int_equal(soko_park_play(s, on, NULL), -1);
	print_message("  Sasquatch I 41: no plan without, %d steps parking %d with, push by push\n",
		      on->nsteps, on->nparked);
	soko_park_free(on);
	lk_level_free(level);
	/* random levels: every plan with it that is its own plays push by
	 * push (the test's play and the library's agree on every plan); where
	 * it finds none, the plan without it stands; -a any answers as raw
	 * breadth-first search with it on; off it counts nothing */
	soko_park_set_always(true);
	struct lk_rng rng;
	lk_rng_seed(&rng, 3838);
	int levels = 0, plans = 0, fixed = 0, bad_off = 0, counted = 0, no = 0;
	while (levels < 150 / SOKO_TEST_SHARE) {
		int want;
		char *text = soko_random_answered(&rng, &soko_small_shape, 400000, &want);
		if (want == 0 && no > levels / 3) {   /* a plan needs a solvable level */
			free(text);
			continue;
		}
		levels++;
		no += want == 0;
		level = soko_test_load(text, NULL, false);
		s = (const struct sokoban *)level;
		off = plan_fixed(level, false);
		on = plan_fixed(level, true);
		if (off) {
			int bad = play_forward(s, off, true);
			assert_int_equal(soko_park_play(s, off, NULL), bad);
			bad_off += bad >= 0;
			assert_false(off->playable);
		}
		if (on) {
			plans++;
			check_plan(s, on);
			replay_backwards(s, on);
			int bad = play_forward(s, on, true);
			assert_int_equal(soko_park_play(s, on, NULL), bad);
			if (on->playable) {
				fixed++;
				if (bad >= 0)
					fail_msg("step %d of a playable plan cannot be pushed\n%s", bad, text);
			} else {   /* none of its own: the plan without it */
				assert_non_null(off);
				assert_int_equal(on->nsteps, off->nsteps);
				assert_memory_equal(on->target, off->target,
						    (size_t)off->nsteps * sizeof *off->target);
				assert_memory_equal(on->leaves, off->leaves,
						    (size_t)off->nsteps * sizeof *off->leaves);
			}
		}
		soko_park_free(off);
		soko_park_free(on);
		lk_level_free(level);
		counted += as_raw_off_on(text, want, "playable-plan");
		free(text);
	}
	soko_park_set_always(false);
	print_message("  %d random levels: %d plans with it, %d of them its own (all push by "
		      "push); %d plans without it fail push by push; %d searches count it\n",
		      levels, plans, fixed, bad_off, counted);
	assert_true(fixed >= 20 / SOKO_TEST_SHARE);
}

/* Sasquatch II level 21 (sasquatch2.xsb), by David W. Skinner: the plan
 * search finds no complete parking plan as it first runs, and one when it
 * runs again refusing the start squares taken (parking-retry). */
static const char *four_wings =
	"   #############\n"
	"   #     #     #\n"
	"   # $ $ $ $ $ #\n"
	"   ### ##### ###\n"
	"####.$   $   $.####\n"
	"# ...# $ # $ #... #\n"
	"#  $##*#.#.#*##$  #\n"
	"##   . . @ . .   ##\n"
	"#  $##*#.#.#*##$  #\n"
	"# ...# $ # $ #... #\n"
	"####.$   $   $.####\n"
	"   ### ##### ###\n"
	"   # $ $ $ $ $ #\n"
	"   #     #     #\n"
	"   #############\n";

static struct soko_park *plan_retry(struct lk_level *level, bool retry)
{
	return plan_with(level, SOKO_T_PARK_RETRY, retry);
}

static void test_parking_retry(void **state)
{
	(void)state;
	soko_park_set_always(false);
	struct lk_level *level = soko_test_load(four_wings, NULL, false);
	const struct sokoban *s = (const struct sokoban *)level;
	struct soko_park *off = plan_retry(level, false), *on = plan_retry(level, true);
	assert_null(off);
	assert_non_null(on);
	check_plan(s, on);
	replay_backwards(s, on);
	assert_int_equal(play_forward(s, on, false), -1);   /* playable step by step */
	print_message("  Sasquatch II 21: no plan without, %d steps parking %d with\n",
		      on->nsteps, on->nparked);
	soko_park_free(on);
	lk_level_free(level);
	/* where the first run finds a plan the retry never runs: the same plan
	 * (every complete plan kept, parking or not) */
	soko_park_set_always(true);
	struct lk_rng rng;
	lk_rng_seed(&rng, 2121);
	int plans = 0;
	for (int levels = 0; levels < 150 / SOKO_TEST_SHARE; levels++) {
		char *text = NULL;
		lk_level_free(soko_random_live(&rng, &soko_small_shape, NULL, &text));
		level = soko_test_load(text, NULL, false);
		off = plan_retry(level, false);
		on = plan_retry(level, true);
		if (off) {
			plans++;
			assert_non_null(on);
			assert_int_equal(on->nsteps, off->nsteps);
			assert_memory_equal(on->target, off->target,
					    (size_t)off->nsteps * sizeof *off->target);
			assert_memory_equal(on->leaves, off->leaves,
					    (size_t)off->nsteps * sizeof *off->leaves);
		}
		soko_park_free(off);
		soko_park_free(on);
		lk_level_free(level);
		free(text);
	}
	soko_park_set_always(false);
	print_message("  %d random levels with a plan: the same with the retry\n", plans);
	assert_true(plans >= 10 / SOKO_TEST_SHARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parking_needed),
		cmocka_unit_test(test_parking_across_the_row),
		cmocka_unit_test(test_parking_row_from_above),
		cmocka_unit_test(test_parking_plans_lose_nothing),
		cmocka_unit_test(test_fewest_parked),
		cmocka_unit_test(test_playable_parking),
		cmocka_unit_test(test_parking_retry),
		cmocka_unit_test(test_playable_plan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
