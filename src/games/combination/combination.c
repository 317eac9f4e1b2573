/*
 * combination.c - the Combination game (Jefferson et al. 2008): its
 * vtable (game.h), which the registry lists.  Reading a level, the ray
 * tables and checking a solution are comb_level.c; the solver
 * comb_solve.c; the generator comb_gen.c; drawing comb_draw.c.
 */
#include "comb.h"

static const char *const comb_metrics[] = { "nodes", NULL };

static const struct lk_csp_ops comb_csp = {
	.solve = comb_solve,
	.verify = comb_verify,
};

extern const struct lk_generator lk_gen_combination_local;
static const struct lk_generator *const combination_generators[] = {
	&lk_gen_combination_local,
	NULL,
};

const struct lk_game lk_game_combination = {
	.name = "combination",
	.summary = "Combination: place coloured rooks, bishops and queens so that no two colours attack",
	.metrics = comb_metrics,
	.validate = comb_validate,
	.new_level = comb_new,
	.free_level = comb_free,
	.write_state = comb_write_state,
	.symmetries = LK_SYMMETRIES_ALL,
	.canonical = comb_canonical,
	.csp = &comb_csp,
	.generators = combination_generators,
	.draw = comb_draw,
};
