/*
 * combination.c - the Combination game (Jefferson et al. 2008): its
 * vtable (game.h), which the registry lists.  Reading a level, the ray
 * tables and checking a solution are comb_level.c; the solver
 * comb_solve.c, the paper's model that difficulty is measured in
 * comb_paper.c (with the GCC of comb_gcc.c); the generators comb_gen.c
 * (their drafts comb_draft.c); drawing comb_draw.c.
 */
#include "comb.h"

static const char *const comb_metrics[] = { "nodes", NULL };

static const struct lk_csp_flag comb_flags[] = {
	{ "paper-model", "solve and count on the paper's Boolean model, the one rate measures "
			 "difficulty in, not the faster default" },
	{ NULL, NULL },
};

static const struct lk_csp_ops comb_csp = {
	.solve = comb_solve,
	.measure = comb_paper_solve,
	.verify = comb_verify,
	.flags = comb_flags,
};

extern const struct lk_generator lk_gen_combination_local, lk_gen_combination_paper;
static const struct lk_generator *const combination_generators[] = {
	&lk_gen_combination_local,
	&lk_gen_combination_paper,
	NULL,
};

/* The rating's counts (rating.h): the empty squares, the pieces to place. */
static void comb_rating_counts(const struct lk_level *level, unsigned *cells, unsigned *objects)
{
	const struct comb_level *l = (const struct comb_level *)level;
	*cells = l->nsq > 0 ? (unsigned)l->nsq : 0;
	*objects = l->npieces > 0 ? (unsigned)l->npieces : 0;
}

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
	.rating_counts = comb_rating_counts,
	.generators = combination_generators,
	.draw = comb_draw,
};
