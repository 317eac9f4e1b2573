/*
 * applies.c - which games an option applies to (options.h): a set of
 * games as bits, the games a predicate holds for named in a list ("fruit
 * and skiddy"), and the note a command gives at the end when an option
 * it was given applied to no level it read.
 */
#include "levelkit/options.h"

#include <string.h>

#include "levelkit/registry.h"
#include "levelkit/strbuf.h"

uint64_t lk_game_bit(const char *name)
{
	for (size_t i = 0; lk_games[i] && i < 64; i++)
		if (strcmp(lk_games[i]->name, name) == 0)
			return (uint64_t)1 << i;
	return 0;
}

void lk_games_named(struct lk_strbuf *out, bool (*pred)(const struct lk_game *g, const void *ctx),
		    const void *ctx)
{
	size_t n = 0, k = 0;
	for (size_t i = 0; lk_games[i] && i < 64; i++)
		n += pred(lk_games[i], ctx);
	for (size_t i = 0; lk_games[i] && i < 64; i++)
		if (pred(lk_games[i], ctx)) {
			lk_strbuf_addf(out, "%s%s", k == 0 ? "" : k + 1 == n ? " and " : ", ",
				       lk_games[i]->name);
			k++;
		}
}

bool lk_option_applied(uint64_t seen, bool (*pred)(const struct lk_game *g, const void *ctx),
		       const void *ctx)
{
	for (size_t i = 0; lk_games[i] && i < 64; i++)
		if (pred(lk_games[i], ctx) && (seen & ((uint64_t)1 << i)))
			return true;
	return false;
}

void lk_warn_unapplied(uint64_t seen, const char *opt,
		       bool (*pred)(const struct lk_game *g, const void *ctx), const void *ctx)
{
	if (!lk_option_given(opt) || lk_option_applied(seen, pred, ctx))
		return;
	struct lk_strbuf where = LK_STRBUF_INIT;
	lk_games_named(&where, pred, ctx);
	lk_error("--%s applied to no level read (it applies to %s)", opt,
		 where.len ? where.buf : "no game");
	lk_strbuf_release(&where);
}

bool lk_game_has_state_space(const struct lk_game *g, const void *ctx)
{
	(void)ctx;
	return g->successors != NULL;
}

bool lk_game_is_constraint(const struct lk_game *g, const void *ctx)
{
	(void)ctx;
	return g->csp != NULL;
}

bool lk_game_knows_metric(const struct lk_game *g, const void *name)
{
	return lk_name_in(name, g->metrics);
}

bool lk_game_knows_heuristic(const struct lk_game *g, const void *name)
{
	return lk_name_in(name, g->heuristics);
}

bool lk_game_has_csp_flag(const struct lk_game *g, const void *name)
{
	for (const struct lk_csp_flag *f = g->csp ? g->csp->flags : NULL; f && f->name; f++)
		if (strcmp(f->name, name) == 0)
			return true;
	return false;
}
