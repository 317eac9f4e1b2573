/*
 * test_rules.c - unit tests of the transformer rule language: parsing
 * (rules_parse.c) and rewriting (rules_apply.c), see src/gen/rules.h.
 *
 * The legend and grids are rules_grid.h's (Sokoban's objects), written as
 * text with one character per cell, and every expected result is worked
 * out by hand: plain rules run until nothing changes, `choose N` makes
 * exactly min(N, available) changes, `option 0/1`, `or` alternatives,
 * `no`, `A or B`, directions, four-way matching of rows of cells, several
 * patterns and their empty shorthand, layer replacement, frozen cells,
 * determinism, comments, Sokoban's six presets, and `line N:` parse
 * errors.  The language's PuzzleScript features (properties, `no` in a
 * replacement, forces, ellipses, games of many objects) are tested in
 * test_rules_lang.c.
 */
#include "rules_grid.h"

/* ------------------------------------------------------------ plain rules */

static void test_plain_rule_everywhere(void **state)
{
	(void)state;
	expect("[Target no Crate] -> [Target Crate]",
	       "#####\n"
	       "#. .#\n"
	       "#*@.#\n"
	       "#####",
	       "#####\n"
	       "#* *#\n"
	       "#*@*#\n"
	       "#####", 3);
	/* nothing left to do: no rewrite at all */
	expect("[Target no Crate] -> [Target Crate]", "#*#\n#$#", "#*#\n#$#", 0);
	/* aliases name the same objects, names ignore case */
	expect("[goal NO box] -> [Goal Box]", "..\n. ", "**\n* ", 3);
}

/* Rules follow one another, one per line, each run once in order. */
static void test_rules_in_sequence(void **state)
{
	(void)state;
	expect("[Wall] -> [Crate]\n[Crate] -> [Target]", "# #", ". .", 4);
	expect("[Crate] -> [Target]\n[Wall] -> [Crate]", "# #", "$ $", 2);
	expect("[Crate] -> [Crate Placeholder]\n[Crate] -> [Target]\n[Placeholder] -> [Crate]",
	       "$ $", "* *", 6);
}

static void test_plain_rule_terminates(void **state)
{
	(void)state;
	/* Crate stays and Placeholder is added once: it then changes nothing. */
	expect("[Crate] -> [Crate Placeholder]", "$ $\n*#$", "X X\nY#X", 4);
	expect("[Crate] -> [Crate Placeholder]", "X X", "X X", 0);
	/* A rule that never settles (the player walks on for ever) is cut
	 * off by the per-cell guard, yet it ends and moves only the player. */
	char *got;
	unsigned n = run("[Player | no Obstacle] -> [ | Player]", "#@   #", 1, NULL, &got);
	assert_true(n > 0 && n <= 6 * 1 * 8);
	assert_int_equal(strlen(got), 6);
	assert_int_equal(got[0], '#');
	assert_int_equal(got[5], '#');
	int players = 0;
	for (int i = 1; i < 5; i++)
		players += got[i] == '@';
	assert_int_equal(players, 1);
	free(got);
}

/* ----------------------------------------------------- choose and option */

static void test_choose_exact_count(void **state)
{
	(void)state;
	/* Five interior walls; the border of '%' (wall on target) does not
	 * match [Wall no Target]. */
	const char *grid = "%%%%%%%\n"
			   "%# # #%\n"
			   "%  #  %\n"
			   "%#    %\n"
			   "%%%%%%%";
	for (long n = 1; n <= 7; n++) {
		for (uint64_t seed = 1; seed <= 5; seed++) {
			char rules[64], *got;
			snprintf(rules, sizeof rules, "choose %ld [Wall no Target] -> [Crate]", n);
			unsigned changes = run(rules, grid, seed, NULL, &got);
			struct lk_cells c;
			cells_from(&c, got);
			long want = n < 5 ? n : 5;
			assert_int_equal(changes, want);
			assert_int_equal(count_mask(&c, CRATE), want);
			assert_int_equal(count_mask(&c, WALL), 5 - want + 20);
			/* only interior walls became crates, and in place */
			for (int i = 0; i < c.width * c.height; i++)
				if (c.cell[i] & CRATE)
					assert_int_equal(grid[i / c.width * (c.width + 1) + i % c.width], '#');
			free(c.cell);
			free(got);
		}
	}
	/* different seeds choose different walls (some pair of them does) */
	char *a, *b;
	int differ = 0;
	run("choose 2 [Wall no Target] -> [Crate]", grid, 1, NULL, &a);
	for (uint64_t seed = 2; seed <= 10; seed++) {
		run("choose 2 [Wall no Target] -> [Crate]", grid, seed, NULL, &b);
		differ += strcmp(a, b) != 0;
		free(b);
	}
	assert_true(differ > 0);
	free(a);
}

static void test_option(void **state)
{
	(void)state;
	const char *grid = "#####\n# # #\n#####";
	expect("option 0 [Wall] -> []", grid, grid, 0);
	expect("choose 9 option 0 [Wall] -> []", grid, grid, 0);
	expect("option 1 [Wall] -> []", grid, "     \n     \n     ", 13);
	expect("choose 3 option 1.0 [Wall] -> [Crate]", "###", "$$$", 3);
	/* option 0.5 over 400 walls, with a fixed seed: about half */
	char big[21 * 20 + 1];
	for (int y = 0; y < 20; y++) {
		memset(big + y * 21, '#', 20);
		big[y * 21 + 20] = '\n';
	}
	big[21 * 20 - 1] = '\0';
	char *got;
	unsigned n = run("option 0.5 [Wall] -> []", big, 7, NULL, &got);
	struct lk_cells c;
	cells_from(&c, got);
	assert_int_equal(count_mask(&c, WALL), 400 - (int)n);
	assert_in_range(n, 140, 260);
	free(c.cell);
	free(got);
}

/* ------------------------------------------------ or, no, A or B */

static void test_or_alternatives(void **state)
{
	(void)state;
	/* In a choose group, both alternatives feed one pool of matches. */
	const char *grid = "#.#.";
	for (uint64_t seed = 1; seed <= 8; seed++) {
		char *got;
		unsigned n = run("choose 10 [Wall] -> [Crate]\n"
				 "or [Target no Obstacle] -> [Target Player]",
				 grid, seed, NULL, &got);
		assert_int_equal(n, 4);
		assert_string_equal(got, "$+$+");
		free(got);
	}
	/* choose 1: exactly one change, from either alternative */
	int wall_side = 0, target_side = 0;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		char *got;
		assert_int_equal(run("choose 1 [Wall] -> [Crate] or [Target no Obstacle] -> "
				     "[Target Player]", grid, seed, NULL, &got), 1);
		wall_side += strchr(got, '$') != NULL;
		target_side += strchr(got, '+') != NULL;
		free(got);
	}
	assert_int_equal(wall_side + target_side, 40);
	assert_true(wall_side > 0 && target_side > 0);
	/* Without choose each alternative runs in turn as a plain rule. */
	expect("[Wall] -> [Crate] or [Target] -> []", "#.#.", "$ $ ", 4);
}

static void test_no_and_either(void **state)
{
	(void)state;
	/* no Obstacle: empty floor and bare targets; Wall goes beside Target */
	expect("[no Obstacle] -> [Wall]", "@ .$*#", "@#%$*#", 2);
	/* no Target */
	expect("[Crate no Target] -> []", "$*$.", " * .", 2);
	/* A or B in a cell: either; both named go */
	expect("[Crate or Player] -> [Wall]", "$@.*+ ", "##.%% ", 4);
	/* no A or B: neither */
	expect("[no Crate or Player] -> [Target]", "$@ #", "$@.%", 2);
	/* a property on the left stands for its objects */
	expect("[Obstacle] -> []", "#@$*. ", "   .. ", 4);
}

/* ---------------------------------------------------------- directions */

static void test_directions(void **state)
{
	(void)state;
	const char *grid = "#######\n"
			   "#     #\n"
			   "#  @  #\n"
			   "#     #\n"
			   "#######";
	expect("right [Player | no Obstacle] -> [ | Player]", grid,
	       "#######\n"
	       "#     #\n"
	       "#    @#\n"
	       "#     #\n"
	       "#######", 2);
	expect("left [Player | no Obstacle] -> [ | Player]", grid,
	       "#######\n"
	       "#     #\n"
	       "#@    #\n"
	       "#     #\n"
	       "#######", 2);
	expect("up [Player | no Obstacle] -> [ | Player]", grid,
	       "#######\n"
	       "#  @  #\n"
	       "#     #\n"
	       "#     #\n"
	       "#######", 1);
	expect("down [Player | no Obstacle] -> [ | Player]", grid,
	       "#######\n"
	       "#     #\n"
	       "#     #\n"
	       "#  @  #\n"
	       "#######", 1);
	/* vertical in a horizontal corridor: nothing to do */
	expect("vertical [Player | no Obstacle] -> [ | Player]", "#######\n#  @  #\n#######",
	       "#######\n#  @  #\n#######", 0);
	/* the player pushes a crate right until the wall stops it */
	expect("right [Player | Crate | no Obstacle] -> [ | Player | Crate]", "#@$  #",
	       "#  @$#", 2);
}

static void test_four_directions_by_default(void **state)
{
	(void)state;
	const char *grid = "     \n"
			   "  $  \n"
			   " $@$ \n"
			   "  $  \n"
			   "     ";
	expect("[Player | Crate] -> [Player | Wall]", grid,
	       "     \n"
	       "  #  \n"
	       " #@# \n"
	       "  #  \n"
	       "     ", 4);
	expect("horizontal [Player | Crate] -> [Player | Wall]", grid,
	       "     \n"
	       "  $  \n"
	       " #@# \n"
	       "  $  \n"
	       "     ", 2);
	/* three-cell rows, any direction: each crate is taken once */
	expect("[Player | Crate | no Obstacle] -> [Player | | Target]", grid,
	       "  .  \n"
	       "     \n"
	       ". @ .\n"
	       "     \n"
	       "  .  ", 4);
}

/* ------------------------------------------------------------ patterns */

static void test_several_patterns(void **state)
{
	(void)state;
	/* MixedAim's shorthand: one empty replacement clears every pattern */
	expect("choose 1 [Crate][Target] -> []", "$ .", "   ", 1);
	expect("choose 1 [Crate][Target] -> [][]", "$ .", "   ", 1);
	/* plain: pairs go until crates run out */
	expect("[Crate][Target] -> []", "$.$.#", "    #", 2);
	expect("[Box][Goal] -> [][]", ".$$.#", "    #", 2);
	{
		char *got;
		assert_int_equal(run("[Crate][Target] -> []", "$.$..#", 1, NULL, &got), 2);
		struct lk_cells c;
		cells_from(&c, got);
		assert_int_equal(count_mask(&c, CRATE), 0);
		assert_int_equal(count_mask(&c, TARGET), 1);
		free(c.cell);
		free(got);
	}
	/* a pair is taken once per choice */
	for (uint64_t seed = 1; seed <= 10; seed++) {
		char *got;
		assert_int_equal(run("choose 1 [Crate][Target] -> []", "$$$...", seed, NULL, &got), 1);
		struct lk_cells c;
		cells_from(&c, got);
		assert_int_equal(count_mask(&c, CRATE), 2);
		assert_int_equal(count_mask(&c, TARGET), 2);
		free(c.cell);
		free(got);
	}
	/* the pair preset's adding half: one crate and one target more */
	for (uint64_t seed = 1; seed <= 10; seed++) {
		char *got;
		assert_int_equal(run("choose 1 [no Obstacle or Target][no Obstacle or Target] -> "
				     "[Crate][Target]", "#  @ $.#\n#      #", seed, NULL, &got), 1);
		struct lk_cells c;
		cells_from(&c, got);
		assert_int_equal(count_mask(&c, CRATE), 2);
		assert_int_equal(count_mask(&c, TARGET), 2);
		assert_int_equal(count_mask(&c, PLAYER), 1);
		assert_int_equal(count_mask(&c, WALL), 4);
		free(c.cell);
		free(got);
	}
}

static void test_layer_replacement(void **state)
{
	(void)state;
	/* a Crate put where a Wall was replaces it (one layer) */
	expect("[Wall] -> [Crate]", "#%", "$*", 2);
	/* a Player put on a crate's cell pushes the crate out; Target stays */
	expect("[Target] -> [Target Player]", "*.", "++", 2);
	/* Target is on a layer of its own: adding it keeps the crate */
	expect("[Crate] -> [Crate Target]", "$", "*", 1);
	/* named on the left and not on the right: removed */
	expect("[Crate Target] -> [Target]", "*$", ".$", 1);
}

static void test_frozen(void **state)
{
	(void)state;
	const char *grid = "#####\n"
			   "# # #\n"
			   "#####";
	uint8_t frozen[15];
	for (int i = 0; i < 15; i++)
		frozen[i] = i < 5 || i >= 10 || i % 5 == 0 || i % 5 == 4;
	char *got;
	/* only the one unfrozen wall goes */
	assert_int_equal(run("[Wall] -> []", grid, 1, frozen, &got), 1);
	assert_string_equal(got, "#####\n#   #\n#####");
	free(got);
	assert_int_equal(run("choose 100 [Wall] -> []", grid, 3, frozen, &got), 1);
	assert_string_equal(got, "#####\n#   #\n#####");
	free(got);
	/* a frozen cell may be matched as long as it does not change */
	assert_int_equal(run("right [Wall | no Obstacle] -> [Wall | Target]", grid, 1, frozen, &got),
			 2);
	assert_string_equal(got, "#####\n#.#.#\n#####");
	free(got);
	/* ... but a row that would change it is left out entirely */
	assert_int_equal(run("[no Obstacle | Wall] -> [Crate | ]", grid, 1, frozen, &got), 1);
	assert_true(strcmp(got, "#####\n#$  #\n#####") == 0 ||
		    strcmp(got, "#####\n#  $#\n#####") == 0);
	free(got);
	memset(frozen, 1, sizeof frozen);
	assert_int_equal(run("[no Obstacle] -> [Wall]", grid, 1, frozen, &got), 0);
	assert_string_equal(got, grid);
	free(got);
}

/* symmetrise AXIS by hand: the player's half copied onto the other, the
 * player kept where it was and not copied. */
static void test_symmetrise_by_hand(void **state)
{
	(void)state;
	expect("symmetrise horizontal", "#######\n#$ @ .#\n# #   #\n#######",
	       "#######\n#$ @ $#\n# # # #\n#######", 2);
	/* the player on the right: the right half is kept */
	expect("symmetrise horizontal", "#######\n#$  @.#\n#.#   #\n#######",
	       "#######\n#.  @.#\n#     #\n#######", 3);
	expect("symmetrise vertical", "#####\n#@$ #\n#   #\n#.  #\n#####",
	       "#####\n#@$ #\n#   #\n# $ #\n#####", 2);
	expect("symmetrise rotate", "#####\n#@$.#\n#   #\n#####", "#####\n#@$.#\n#.$ #\n#####", 2);
	/* already symmetric: nothing to do */
	expect("symmetrise both", "#####\n#$ $#\n# @ #\n#$ $#\n#####", "#####\n#$ $#\n# @ #\n#$ $#\n#####",
	       0);
}

/* On random grids: the result is its own mirror image under the axis in
 * every object but the player, the player is where it was, and a second
 * run changes nothing; frozen cells never change. */
static void test_symmetrise_random(void **state)
{
	(void)state;
	static const char *const axes[] = { "horizontal", "vertical", "both", "rotate" };
	static const char pool[] = " #$.*";
	struct lk_rng rng;
	lk_rng_seed(&rng, 42);
	for (int trial = 0; trial < 400; trial++) {
		int w = 3 + (int)lk_rng_below(&rng, 6), h = 3 + (int)lk_rng_below(&rng, 5);
		char grid[128];
		size_t at = 0;
		int player = (int)lk_rng_below(&rng, (unsigned)(w * h));
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++)
				grid[at++] = y * w + x == player ? '@' : pool[lk_rng_below(&rng, 5)];
			if (y + 1 < h)
				grid[at++] = '\n';
		}
		grid[at] = '\0';
		int axis = trial % 4;
		char rule[64];
		snprintf(rule, sizeof rule, "symmetrise %s", axes[axis]);
		uint8_t frozen[64] = { 0 };
		bool freeze = trial % 5 == 0;
		if (freeze)
			frozen[lk_rng_below(&rng, (unsigned)(w * h))] = 1;
		char *got, *again;
		run(rule, grid, 1, freeze ? frozen : NULL, &got);
		struct lk_cells c;
		cells_from(&c, got);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				int i = y * w + x;
				int mx = axis == 1 ? x : w - 1 - x, my = axis == 0 ? y : h - 1 - y;
				int j = my * w + mx;
				uint64_t a = c.cell[i] & ~(uint64_t)PLAYER, b = c.cell[j] & ~(uint64_t)PLAYER;
				/* a frozen cell may keep its half from being copied,
				 * so with one only the frozen cell itself is checked */
				if (a != b && !freeze)
					fail_msg("%s of\n%s\ngave\n%s", rule, grid, got);
				if (axis == 2 && !freeze) {   /* both: also left-right alone */
					int k = y * w + (w - 1 - x);
					if ((c.cell[k] & ~(uint64_t)PLAYER) != a)
						fail_msg("%s of\n%s\ngave\n%s", rule, grid, got);
				}
				if (freeze && frozen[i])
					assert_int_equal(grid[y * (w + 1) + x], got[y * (w + 1) + x]);
			}
		assert_int_equal(count_mask(&c, PLAYER), 1);
		assert_true(c.cell[player] & PLAYER);
		if (!freeze) {
			if (run(rule, got, 1, NULL, &again) != 0)
				fail_msg("%s twice changed\n%s\ninto\n%s", rule, got, again);
			free(again);
		}
		free(c.cell);
		free(got);
	}
}

static void test_deterministic(void **state)
{
	(void)state;
	const char *grid = "#########\n"
			   "#   .   #\n"
			   "# $   $ #\n"
			   "#  @  . #\n"
			   "#########";
	const char *rules = preset_text("mix");
	assert_non_null(rules);
	int differ = 0;
	for (uint64_t seed = 1; seed <= 6; seed++) {
		char *a, *b, *c;
		unsigned na = run(rules, grid, seed, NULL, &a);
		unsigned nb = run(rules, grid, seed, NULL, &b);
		assert_int_equal(na, nb);
		assert_string_equal(a, b);
		run(rules, grid, seed + 100, NULL, &c);
		differ += strcmp(a, c) != 0;
		free(a);
		free(b);
		free(c);
	}
	assert_true(differ > 0);
}

/* ------------------------------------------------------------- presets */

static void test_presets(void **state)
{
	(void)state;
	static const char *const names[] = { "walls", "move", "pair", "mix", "pull", "push" };
	for (size_t i = 0; i < 6; i++) {
		const char *text = preset_text(names[i]);
		if (!text)
			fail_msg("no preset %s", names[i]);
		lk_rules_free(parse_ok(text));
	}
	assert_null(preset_text("nope"));
	assert_null(preset_text(""));

	const char *level = "########\n"
			    "#      #\n"
			    "# $  $ #\n"
			    "#   @  #\n"
			    "#  $   #\n"
			    "########";
	for (uint64_t seed = 1; seed <= 10; seed++) {
		/* push: crates stay where they began and targets appear where
		 * they were pushed to, one per crate; no Placeholder survives */
		char *got;
		run(preset_text("push"), level, seed, NULL, &got);
		struct lk_cells c, before;
		cells_from(&c, got);
		cells_from(&before, level);
		for (int i = 0; i < c.width * c.height; i++)
			assert_int_equal((c.cell[i] & CRATE) != 0, (before.cell[i] & CRATE) != 0);
		assert_int_equal(count_mask(&c, TARGET), 3);
		assert_int_equal(count_mask(&c, PH), 0);
		/* (a player that ends where a crate began is replaced by it:
		 * Crate shares its layer; the transformer then drops the level) */
		assert_true(count_mask(&c, PLAYER) <= 1);
		assert_int_equal(count_mask(&c, WALL), 24);
		free(c.cell);
		free(got);
		/* pull: a crate on every target first, then pulls away: as many
		 * crates as targets, one player, the walls untouched */
		run(preset_text("pull"), "########\n#  . . #\n#   @  #\n#.     #\n########",
		    seed, NULL, &got);
		cells_from(&c, got);
		assert_int_equal(count_mask(&c, CRATE), 3);
		assert_int_equal(count_mask(&c, TARGET), 3);
		assert_int_equal(count_mask(&c, PLAYER), 1);
		assert_int_equal(count_mask(&c, WALL), 22);
		free(c.cell);
		free(before.cell);
		free(got);
	}
}

/* ------------------------------------- many patterns, large grids (fuzz) */

/* A w x h grid of empty floor, with crates at the given cells (-1 ends). */
static void floor_with(struct lk_cells *c, int w, int h, const int *crates)
{
	c->width = w;
	c->height = h;
	c->cell = calloc((size_t)w * (size_t)h, sizeof *c->cell);
	c->frozen = NULL;
	c->words = 1;
	c->cell_ok = NULL;
	c->cell_ok_ctx = NULL;
	assert_non_null(c->cell);
	for (; crates && *crates >= 0; crates++)
		c->cell[*crates] = CRATE;
}

static unsigned apply_text(const char *rules, struct lk_cells *c, uint64_t seed)
{
	struct lk_rules *r = parse_ok(rules);
	struct lk_rng rng;
	lk_rng_seed(&rng, seed);
	unsigned n = lk_rules_apply(r, c, &rng);
	lk_rules_free(r);
	return n;
}

/* A match of a rule with several patterns is any combination of their
 * start cells: 1600^4 of them below, 10^12 and more.  The rewriter once
 * listed them all to find those that change something (it would have run
 * for days on these rules, found by fuzzing), and listed up to 10^6 of
 * them again for every draw of a choose. */
static void test_many_pattern_combinations(void **state)
{
	(void)state;
	struct lk_cells c;
	/* no combination changes anything: nothing to do, at once */
	floor_with(&c, 40, 40, NULL);
	assert_int_equal(apply_text("[no Wall][no Wall][no Wall][no Wall] -> [][][][]", &c, 1), 0);
	assert_int_equal(apply_text("choose 5 [no Wall][no Wall][no Wall] -> [][][]", &c, 1), 0);
	assert_int_equal(count_mask(&c, 0xffff), 0);
	/* 10^6 draws that never apply (option 0) among 160000 matches */
	assert_int_equal(apply_text("choose 1000000 option 0 [no Wall][no Wall] -> [Wall][Wall]",
				    &c, 1), 0);
	assert_int_equal(count_mask(&c, 0xffff), 0);
	free(c.cell);

	/* Only the first pattern can change something (a crate becomes a
	 * target), on the largest grid: 3 * 62500^3 matches, more than 64
	 * bits count; each draw turns one crate, whatever the seed. */
	const int crates[] = { 0, 31337, 62499, -1 };
	for (uint64_t seed = 1; seed <= 3; seed++) {
		floor_with(&c, 250, 250, crates);
		assert_int_equal(apply_text("choose 3 [Crate][no Wall][no Wall][no Wall] -> "
					    "[Target][][][]", &c, seed), 3);
		assert_int_equal(count_mask(&c, CRATE), 0);
		assert_int_equal(count_mask(&c, TARGET), 3);
		for (int i = 0; crates[i] >= 0; i++)
			assert_int_equal(c.cell[crates[i]], TARGET);
		free(c.cell);
	}
}

/* Matches are drawn uniformly among the combinations that change
 * something, and only those.  Crates x and X (X has a placeholder), targets
 * t and T (T has one); the rule puts a placeholder on both cells of a
 * match, so (x,t), (x,T) and (X,t) change something and (X,T) does not:
 * three outcomes, each a third of the time. */
static void test_choose_uniform_over_changing(void **state)
{
	(void)state;
	const char *rules = "choose 1 [Crate][Target] -> [Crate Placeholder][Target Placeholder]";
	int seen[3] = { 0, 0, 0 };
	for (uint64_t seed = 1; seed <= 3000; seed++) {
		char *got;
		assert_int_equal(run(rules, "$X.T", seed, NULL, &got), 1);
		if (strcmp(got, "XXTT") == 0)
			seen[0]++;
		else if (strcmp(got, "XX.T") == 0)
			seen[1]++;
		else if (strcmp(got, "$XTT") == 0)
			seen[2]++;
		else
			fail_msg("unexpected outcome '%s'", got);
		free(got);
	}
	/* 1000 expected each; the standard deviation is 26 */
	for (int i = 0; i < 3; i++)
		assert_in_range(seen[i], 850, 1150);
}

/* -------------------------------------------------------------- parsing */

static void test_comments(void **state)
{
	(void)state;
	expect("(a comment (nested, with [Wall] -> [Crate] inside) still)\n"
	       "[Crate] -> [] (trailing (and nested)\n"
	       "   over two lines)\n"
	       "((()))",
	       "#$#", "# #", 1);
	/* only comments: no rules, nothing happens */
	expect("(nothing (at all))", "#$#", "#$#", 0);
	expect("", "#$#", "#$#", 0);
}

static void test_parse_errors(void **state)
{
	(void)state;
	parse_error("[Wall] -> []\n[Foo] -> []", 2, "unknown object 'Foo'");
	parse_error("[Wall] -> [Foo]", 1, "unknown object");
	parse_error("[Player | Crate] -> [Player]", 1, "fewer cells");
	parse_error("(c)\n[Player] -> [Player | Crate]", 2, "more cells");
	parse_error("[Wall] -> [Obstacle]", 1, "'Obstacle' stands for several objects");
	parse_error("choose 2 [Wall] -> []\nor choose 3 [Crate] -> []", 2,
		    "choose belongs before the first alternative");
	parse_error("option 1.5 [Wall] -> []", 1, "option needs a probability");
	parse_error("option -0.1 [Wall] -> []", 1, "option needs a probability");
	parse_error("\noption half [Wall] -> []", 2, "option needs a probability");
	parse_error("choose 0 [Wall] -> []", 1, "choose needs a count");
	parse_error("choose x [Wall] -> []", 1, "choose needs a count");
	parse_error("[Wall] -> []\nsymmetrise", 2, "symmetrise needs an axis");
	parse_error("symmetrise sideways", 1, "symmetrise needs an axis");
	parse_error("symmetrise horizontal [Wall] -> []", 1, "unexpected '['");
	parse_error("[Wall] -> [] (open\n\n", 1, "unclosed comment");
	parse_error("\n(a (b)\n[Wall] -> []\n", 2, "unclosed comment");
	parse_error("[Crate][Target] -> [Crate]", 1, "fewer patterns");
	parse_error("[Crate] -> [][]", 1, "more patterns");
	parse_error("[Wall]", 1, "'->'");
	parse_error("[Wall] -> [] Crate", 1, "unexpected 'Crate'");
	parse_error("sideways [Wall] -> []", 1, "unexpected 'sideways'");
	parse_error("[Crate or] -> []", 1, "expected an object name");
	parse_error("[Wall -> []", 1, "expected");
	/* A ')' outside a comment once made the tokenizer loop for ever. */
	parse_error(")", 1, "unmatched ')'");
	parse_error("(a comment) [Wall] -> [] )", 1, "unmatched ')'");
	parse_error("[Wall] -> []\n[Crate] -> [] )\n", 2, "unmatched ')'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_rule_everywhere),
		cmocka_unit_test(test_rules_in_sequence),
		cmocka_unit_test(test_plain_rule_terminates),
		cmocka_unit_test(test_choose_exact_count),
		cmocka_unit_test(test_option),
		cmocka_unit_test(test_or_alternatives),
		cmocka_unit_test(test_no_and_either),
		cmocka_unit_test(test_directions),
		cmocka_unit_test(test_four_directions_by_default),
		cmocka_unit_test(test_several_patterns),
		cmocka_unit_test(test_layer_replacement),
		cmocka_unit_test(test_frozen),
		cmocka_unit_test(test_symmetrise_by_hand),
		cmocka_unit_test(test_symmetrise_random),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_many_pattern_combinations),
		cmocka_unit_test(test_choose_uniform_over_changing),
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_parse_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
