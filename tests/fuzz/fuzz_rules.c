/*
 * fuzz_rules.c - fuzz target for the transformer's rule language
 * (rules_parse.c) and, when the rules parse, the rewriter (rules_apply.c)
 * on a small Sokoban room.
 *
 * The room has 108 cells: enough that a rewriter which lists every
 * combination of a rule's four patterns (108^4) shows as a timeout, few
 * enough for thousands of runs a second.  A `choose N` costs N draws
 * whatever the rewriter does, so N is cut to MAX_CHOOSE here, and only
 * the first MAX_GROUPS rules run (a plain rule may rewrite 8 times per
 * cell): bounds of this harness, not of the language, so that the time
 * of a large input is the parser's.
 *
 * The legend is Sokoban's, as sokoban_transform.c defines it (Wall,
 * Player, Crate alias Box, Target alias Goal, Placeholder; the first three
 * share a layer; the property Obstacle), with an aggregate Marked (Crate
 * and Placeholder) for the language's aggregates.  Checked besides crashes, leaks
 * and hangs:
 *  - a parse error is "line N: ..." with N a line of the input;
 *  - after the rules ran, frozen cells are as they were, and every cell
 *    holds only legend objects, at most one of each layer.
 */
#include "fuzz_util.h"

#include <stdbool.h>
#include <string.h>

#include "../src/gen/rules_internal.h"
#include "levelkit/rng.h"
#include "levelkit/strbuf.h"

enum { WALL = 1, PLAYER = 2, CRATE = 4, TARGET = 8, PLACEHOLDER = 16 };

static const struct lk_legend_object objects[] = {
	{ "Wall", NULL, 0 },
	{ "Player", NULL, 0 },
	{ "Crate", "Box", 0 },
	{ "Target", "Goal", 1 },
	{ "Placeholder", NULL, 2 },
};
static const int obstacles[] = { 0, 1, 2 }, marked[] = { 2, 4 };
static const struct lk_legend_property properties[] = {
	{ "Obstacle", obstacles, 3, false },
	{ "Marked", marked, 2, true },
};
static const struct lk_legend legend = { objects, 5, properties, 2 };

#define MAX_CHOOSE 10000
#define MAX_GROUPS 32

/* The room the rules rewrite; 'f' marks frozen floor. */
static const char *const room[] = {
	"############",
	"# .$  #    #",
	"#@#*f #  $ #",
	"#  $. ## . #",
	"#f  + #  * #",
	"#     f    #",
	"# .$    $. #",
	"#  #   ## f#",
	"############",
};
#define W 12
#define H 9

static uint64_t cell_of(char c)
{
	switch (c) {
	case '#': return WALL;
	case '@': return PLAYER;
	case '+': return PLAYER | TARGET;
	case '$': return CRATE;
	case '*': return CRATE | TARGET;
	case '.': return TARGET;
	default: return 0;
	}
}

static unsigned count_lines(const char *s)
{
	unsigned n = 1;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_rules *rules = lk_rules_parse(text, &legend, &err);

	if (!rules) {
		unsigned line = 0;
		int n = 0;
		FUZZ_CHECK(sscanf(err.buf, "line %u: %n", &line, &n) == 1 && n > 0);
		FUZZ_CHECK(line >= 1 && line <= count_lines(text));
	} else {
		uint64_t cell[W * H], before[W * H];
		uint8_t frozen[W * H];
		struct lk_cells cells = { .width = W, .height = H, .words = 1, .cell = cell,
					  .frozen = frozen };
		struct lk_rng rng;
		for (int y = 0; y < H; y++) {
			for (int x = 0; x < W; x++) {
				cell[y * W + x] = cell_of(room[y][x]);
				frozen[y * W + x] = room[y][x] == 'f';
			}
		}
		memcpy(before, cell, sizeof cell);
		int ngroups = rules->ngroups;
		for (int i = 0; i < rules->ngroups; i++)
			if (rules->groups[i].choose > MAX_CHOOSE)
				rules->groups[i].choose = MAX_CHOOSE;
		if (rules->ngroups > MAX_GROUPS)
			rules->ngroups = MAX_GROUPS;
		lk_rng_seed(&rng, size);
		(void)lk_rules_apply(rules, &cells, &rng);
		rules->ngroups = ngroups;   /* lk_rules_free frees them all */
		for (int c = 0; c < W * H; c++) {
			uint64_t v = cell[c], layer = v & (WALL | PLAYER | CRATE);
			FUZZ_CHECK(!frozen[c] || v == before[c]);
			FUZZ_CHECK((v & ~(uint64_t)(WALL | PLAYER | CRATE | TARGET | PLACEHOLDER)) == 0);
			FUZZ_CHECK((layer & (layer - 1)) == 0);
		}
		lk_rules_free(rules);
	}
	lk_strbuf_release(&err);
	free(text);
	return 0;
}
