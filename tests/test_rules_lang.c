/*
 * test_rules_lang.c - unit tests of the rule language's PuzzleScript
 * features (see rules.h and docs/transform.md): legend properties (any
 * of), a property named on both sides (it stands for what it matched),
 * aggregates and synonyms; `no` in a replacement; forces (relative to the
 * rule's direction and absolute, carried out as part of the rewrite,
 * blocked by the mover's layer, the grid's edge, frozen cells and cells
 * the game cannot hold; pushes, pulls, swaps, collisions); ellipses; a
 * game of more than 64 objects; and each feature's parse errors with
 * their line.
 *
 * The legend and grids are rules_grid.h's: Sokoban's objects plus a Gem
 * on the crates' layer, Pushable = Crate or Gem, Solid = Wall, Player,
 * Crate or Gem, the aggregate Stored = Crate and Target, and the synonym
 * Parcel = Crate.  Every expected grid is worked out by hand.
 */
#include "rules_grid.h"

/* ----------------------------------------------------------- properties */

static void test_property_any_of(void **state)
{
	(void)state;
	/* on the left a property matches any of its objects; named and not
	 * on the right, whichever is there goes */
	expect("[Pushable] -> []", "$g*G@", "  ..@", 4);
	expect("[no Pushable or Wall] -> [Target]", "$g# @", "$g#.+", 2);
	/* a synonym is its one object, also in a replacement */
	expect("[Wall] -> [Parcel]", "# #", "$ $", 2);
	expect("[Parcel] -> [Gem]", "$*", "gG", 2);
}

static void test_property_bound(void **state)
{
	(void)state;
	/* named on both sides: the object it matched, crates and gems alike */
	expect("[Pushable] -> [Pushable Target]", "$g#@ ", "*G#@ ", 2);
	/* each moves by its own rule, the crate first (legend order): the
	 * crate stops at the gem, the gem at the wall */
	expect("right [Pushable | no Solid] -> [ | Pushable]", "#$ g  #", "# $  g#", 3);
	/* choose draws among the expansions' matches as among one rule's */
	int crate = 0, gem = 0;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		char *got;
		assert_int_equal(run("choose 1 [Pushable] -> [Pushable Target]", "$g", seed, NULL, &got),
				 1);
		if (strcmp(got, "*g") == 0)
			crate++;
		else if (strcmp(got, "$G") == 0)
			gem++;
		else
			fail_msg("unexpected '%s'", got);
		free(got);
	}
	assert_true(crate > 0 && gem > 0);
}

static void test_aggregate(void **state)
{
	(void)state;
	/* on the left: all of its objects; named, they go */
	expect("[Stored] -> []", "*$.*", " $. ", 2);
	/* on the right: all of them are put (the gem shares the crate's layer) */
	expect("[Gem] -> [Stored]", "g.g", "*.*", 2);
}

/* ------------------------------------------------------ no on the right */

static void test_no_in_replacement(void **state)
{
	(void)state;
	expect("[Target] -> [Target no Obstacle]", "*+%.$", "....$", 3);
	/* a property: whichever of its objects is there */
	expect("[Target] -> [Target no Pushable]", "*G.$g", "...$g", 2);
	expect("[Player] -> [Player no Target]", "+@.", "@@.", 1);
}

/* --------------------------------------------------------------- forces */

static const char *const room = "#####\n"
				"#   #\n"
				"# $ #\n"
				"#   #\n"
				"#####";

static void test_force_relative(void **state)
{
	(void)state;
	const char *up = "#####\n# $ #\n#   #\n#   #\n#####";
	const char *down = "#####\n#   #\n#   #\n# $ #\n#####";
	const char *left = "#####\n#   #\n#$  #\n#   #\n#####";
	const char *right = "#####\n#   #\n#  $#\n#   #\n#####";
	/* PuzzleScript's relative directions: for a rule read rightwards,
	 * > right, < left, ^ up, v down; one step, then the wall blocks */
	expect("right [Crate] -> [> Crate]", room, right, 1);
	expect("right [Crate] -> [< Crate]", room, left, 1);
	expect("right [Crate] -> [^ Crate]", room, up, 1);
	expect("right [Crate] -> [v Crate]", room, down, 1);
	/* ^ turns left of the rule's direction, v right */
	expect("up [Crate] -> [^ Crate]", room, left, 1);
	expect("up [Crate] -> [v Crate]", room, right, 1);
	expect("down [Crate] -> [^ Crate]", room, right, 1);
	expect("left [Crate] -> [^ Crate]", room, down, 1);
	expect("left [Crate] -> [> Crate]", room, left, 1);
}

static void test_force_absolute(void **state)
{
	(void)state;
	expect("[Crate] -> [up Crate]", room, "#####\n# $ #\n#   #\n#   #\n#####", 1);
	expect("[Crate] -> [left Crate]", room, "#####\n#   #\n#$  #\n#   #\n#####", 1);
	/* only the mover's layer blocks: the crate crosses the target */
	expect("[Crate] -> [right Crate]", "$. ", " .$", 2);
	/* a player in the way, or the grid's edge: no match */
	expect("[Crate] -> [right Crate]", "$@ ", "$@ ", 0);
	expect("[Crate] -> [right Crate]", "  $", "  $", 0);
	/* a frozen cell is never entered */
	uint8_t frozen[3] = { 0, 1, 0 };
	char *got;
	assert_int_equal(run("[Crate] -> [right Crate]", "$  ", 1, frozen, &got), 0);
	assert_string_equal(got, "$  ");
	free(got);
}

static void test_force_together(void **state)
{
	(void)state;
	/* a push, written as in PuzzleScript: the force on the left repeats
	 * the one on the right */
	expect("right [> Player | Crate] -> [> Player | > Crate]", "@$  #", "  @$#", 2);
	/* a pull: the crate follows into the cell the player leaves */
	expect("right [Crate | Player] -> [> Crate | > Player]", "$@  #", "  $@#", 2);
	/* every mover leaves before any lands: a swap */
	expect("right [Crate | Gem] -> [> Crate | < Gem]", "$g", "g$", 1);
	/* two movers of one layer landing on one cell: no match */
	expect("right [Crate | | Gem] -> [> Crate | | < Gem]", "$ g", "$ g", 0);
	/* a later pattern rewrites what the first left: its gem is blocked
	 * by the new wall and stays, so the crate behind it stays too (not
	 * landing in the gem's cell: one object of a layer per cell) */
	expect("right [no Solid] [Crate | Gem | no Solid] -> [Wall] [> Crate | > Gem | ]", "$g ",
	       "$g#", 1);
	/* the same crate and gem with a player beside: only the wall is new */
	expect("right [no Solid] [Crate | Gem | no Solid] -> [Wall] [> Crate | > Gem | ]", "@$g ",
	       "@$g#", 1);
}

static void test_force_walk(void **state)
{
	(void)state;
	/* choose 5 steps of a crate in an open 11x11 room: each step is a
	 * changing match, so five are made; the crate ends at an odd
	 * distance of at most 5 from the centre, and is still one crate */
	char grid[11 * 12];
	for (int y = 0; y < 11; y++) {
		memset(grid + y * 12, ' ', 11);
		grid[y * 12 + 11] = y < 10 ? '\n' : '\0';
	}
	grid[5 * 12 + 5] = '$';
	int seen_far = 0;
	for (uint64_t seed = 1; seed <= 30; seed++) {
		char *got;
		assert_int_equal(run("choose 5 [Crate] -> [> Crate]", grid, seed, NULL, &got), 5);
		struct lk_cells c;
		cells_from(&c, got);
		assert_int_equal(count_mask(&c, CRATE), 1);
		int at = 0;
		while (!(c.cell[at] & CRATE))
			at++;
		int d = abs(at % 11 - 5) + abs(at / 11 - 5);
		assert_true(d <= 5 && d % 2 == 1);
		seen_far += d == 5;
		free(c.cell);
		free(got);
	}
	assert_true(seen_far > 0);
}

/* The game holds no player on a target (a PuzzleScript legend without
 * such a character). */
static bool no_player_on_target(void *ctx, const uint64_t *cell)
{
	(void)ctx;
	return (cell[0] & (PLAYER | TARGET)) != (PLAYER | TARGET);
}

static void test_cell_ok(void **state)
{
	(void)state;
	struct lk_rules *r = parse_ok("[Player] -> [right Player]");
	struct lk_cells c;
	struct lk_rng rng;
	lk_rng_seed(&rng, 1);
	cells_from(&c, "@. ");
	assert_int_equal(lk_rules_apply(r, &c, &rng), 2);   /* free to cross */
	assert_string_equal(cells_text(&c), " .@");
	free(c.cell);
	cells_from(&c, "@. ");
	c.cell_ok = no_player_on_target;
	assert_int_equal(lk_rules_apply(r, &c, &rng), 0);
	assert_string_equal(cells_text(&c), "@. ");
	free(c.cell);
	lk_rules_free(r);
	/* the same for a rewrite in place */
	r = parse_ok("[Target] -> [Target Player]");
	cells_from(&c, ". .");
	c.cell_ok = no_player_on_target;
	assert_int_equal(lk_rules_apply(r, &c, &rng), 0);
	free(c.cell);
	lk_rules_free(r);
}

/* ------------------------------------------------------------- ellipses */

static void test_ellipsis(void **state)
{
	(void)state;
	/* any number of cells between, none included */
	expect("right [Player | ... | Crate] -> [Player | ... | ]", "$@ $ $#", "$@    #", 2);
	expect("right [Player | ... | Crate] -> [Player | ... | ]", "@$", "@ ", 1);
	/* in every direction by default */
	expect("[Player | ... | Crate] -> [Player | ... | ]", " $ \n$@$\n $ ", "   \n @ \n   ", 4);
	/* two ellipses */
	expect("right [Crate | ... | Player | ... | Crate] -> [Target | ... | Player | ... | Target]",
	       "$ @ $", ". @ .", 1);
	/* with a force: crates drawn towards the player until beside it */
	expect("right [Player | ... | Crate] -> [Player | ... | < Crate]", "@  $", "@$  ", 2);
	/* a choice among every length: the player jumps to either free cell */
	int near = 0, far = 0;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		char *got;
		assert_int_equal(run("choose 1 right [Player | ... | no Solid] -> [ | ... | Player]",
				     "@ # ", seed, NULL, &got), 1);
		if (strcmp(got, " @# ") == 0)
			near++;
		else if (strcmp(got, "  #@") == 0)
			far++;
		else
			fail_msg("unexpected '%s'", got);
		free(got);
	}
	assert_true(near > 0 && far > 0);
}

/* -------------------------------------------------- more than 64 objects */

static void test_many_objects(void **state)
{
	(void)state;
	enum { N = 70 };
	static char names[N][16];
	static struct lk_legend_object objs[N];
	static const int high[] = { 65, 69 };
	static const struct lk_legend_property props[] = { { "High", high, 2, false } };
	for (int i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "O%d", i);
		objs[i].name = names[i];
		objs[i].alias = NULL;
		objs[i].layer = i == 67 ? 66 : i;   /* O66 and O67 share a layer */
	}
	struct lk_legend lg = { objs, N, props, 1 };
	assert_int_equal(lk_legend_words(&lg), 2);
	struct lk_strbuf err = LK_STRBUF_INIT;
	uint64_t cell[3 * 2];
	struct lk_cells c = { .width = 3, .height = 1, .words = 2, .cell = cell };
	struct lk_rng rng;
	lk_rng_seed(&rng, 1);
#define BIT(o) ((uint64_t)1 << ((o) % 64))
	const struct {
		const char *rules;
		uint64_t before[6], after[6];
		unsigned changes;
	} cases[] = {
		/* a bit in the second word, and one put in the first */
		{ "[O66] -> [O66 O1]", { 0, BIT(66), 0, 0, 0, 0 }, { BIT(1), BIT(66), 0, 0, 0, 0 }, 1 },
		/* a put object pushes out its layer's other */
		{ "[O0] -> [O0 O66]", { BIT(0), BIT(67), 0, 0, 0, 0 },
		  { BIT(0), BIT(66), 0, 0, 0, 0 }, 1 },
		/* a property across words, bound on both sides */
		{ "[High] -> [High O2]", { 0, BIT(65), 0, BIT(69), 0, 0 },
		  { BIT(2), BIT(65), BIT(2), BIT(69), 0, 0 }, 2 },
		/* a force */
		{ "right [O69] -> [> O69]", { 0, BIT(69), 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, BIT(69) }, 2 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct lk_rules *r = lk_rules_parse(cases[i].rules, &lg, &err);
		if (!r)
			fail_msg("%s: %s", cases[i].rules, err.buf);
		memcpy(cell, cases[i].before, sizeof cell);
		assert_int_equal(lk_rules_apply(r, &c, &rng), cases[i].changes);
		for (int w = 0; w < 6; w++)
			if (cell[w] != cases[i].after[w])
				fail_msg("%s: word %d is %llx, expected %llx", cases[i].rules, w,
					 (unsigned long long)cell[w], (unsigned long long)cases[i].after[w]);
		lk_rules_free(r);
	}
#undef BIT
	lk_strbuf_release(&err);
}

/* --------------------------------------------------------- parse errors */

static void test_feature_errors(void **state)
{
	(void)state;
	/* properties and aggregates */
	parse_error("(x)\n[Wall] -> [Pushable]", 2, "'Pushable' stands for several objects");
	parse_error("[Wall] -> [Solid]\n", 1, "name Solid on the left too");
	parse_error("\n\n[no Stored] -> []", 3, "'no Stored'");
	parse_error("[Stored or Wall] -> []", 1, "cannot be one of an 'or'");
	parse_error("[Wall] -> [Crate Gem]", 1, "'Crate' and 'Gem' share a layer");
	/* no in a replacement */
	parse_error("[Crate] -> []\n[Crate] -> [Crate no Crate]", 2, "'Crate' is both put and removed");
	/* forces */
	parse_error("(a push)\n[> Player | Crate] -> [Player | > Crate]", 2, "'> Player' on the left");
	parse_error("[up Crate] -> [Crate]", 1, "'up Crate' on the left");
	parse_error("[Crate] -> [> Crate or Gem]", 1, "a force moves one object");
	parse_error("[Crate] -> [no > Crate]", 1, "'no' and a force do not go together");
	parse_error("\n[stationary Crate] -> []", 2, "'stationary' is no force");
	parse_error("[Gem] -> [> Stored]", 1, "a force moves one object; 'Stored'");
	parse_error("[Crate] -> [> Ghost]", 1, "unknown object 'Ghost'");
	/* one object, two forces: it would land twice (a copy) */
	parse_error("\n[Crate] -> [> Crate < Crate]", 2, "'Crate' has two forces in one cell");
	parse_error("[Crate] -> [up Crate > Parcel]", 1, "has two forces in one cell");
	/* ellipses */
	parse_error("[... | Crate] -> [... | Crate]", 1, "belongs between two cells");
	parse_error("[Player | ... | ... | Crate] -> [Player | ... | ... | Crate]", 1,
		    "belongs between two cells");
	parse_error("\n[Player | ... | Crate] -> [Player | Crate | ]", 2,
		    "needs one in the same place on the other");
	parse_error("[Player | ... Crate | Wall] -> [ | | ]", 1, "stands alone in its cell");
	parse_error("[Player | ... | Crate | ... | Wall | ... | Gem] -> "
		    "[Player | ... | Crate | ... | Wall | ... | Gem]", 1, "at most two ellipses");
	parse_error("[Crate][Crate][Crate][Crate][Crate] -> [][][][][]", 1, "at most 4");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_property_any_of),
		cmocka_unit_test(test_property_bound),
		cmocka_unit_test(test_aggregate),
		cmocka_unit_test(test_no_in_replacement),
		cmocka_unit_test(test_force_relative),
		cmocka_unit_test(test_force_absolute),
		cmocka_unit_test(test_force_together),
		cmocka_unit_test(test_force_walk),
		cmocka_unit_test(test_cell_ok),
		cmocka_unit_test(test_ellipsis),
		cmocka_unit_test(test_many_objects),
		cmocka_unit_test(test_feature_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
