/*
 * laser_game.c - the laser game as a levelkit game (game.h): validation
 * and construction from a record, and the constraint-game members of
 * csp.h, so that lk_csp_rate measures its difficulty the way it measures
 * Combination's (search nodes over random orders).
 *
 * The csp interface counts *all* solutions (idle pieces allowed); tidy
 * counts and the concept queries are lk_laser_search's options.
 */
#include <stdlib.h>
#include <string.h>

#include "laser_internal.h"
#include "levelkit/csp.h"

static const char *const laser_metrics[] = { "nodes", NULL };

static int laser_validate(const struct lk_game *game, const void *def,
			  const struct lk_record *rec, const struct lk_level_options *opt,
			  struct lk_strbuf *err, size_t *line)
{
	(void)game;
	(void)def;
	(void)opt;
	return lk_laser_validate(rec, err, line);
}

static struct lk_level *laser_new_level(const struct lk_game *game, const void *def,
					const struct lk_record *rec,
					const struct lk_level_options *opt)
{
	(void)game;
	(void)def;
	(void)opt;
	struct lk_laser *lv = lk_laser_new(rec);
	return lv ? &lv->base : NULL;
}

static void laser_free_level(struct lk_level *level)
{
	lk_laser_free((struct lk_laser *)level);
}

struct two {
	struct lk_laser_placement second;
	const struct lk_laser *lv;
	int calls;
	bool have;
};

/* Keep a second solution (the first is in the result): the next group's,
 * or when the first group stands for more than one, its placement with one
 * spare piece more on a free cell. */
static bool keep_second(void *ctx, const struct lk_laser_solution *s)
{
	struct two *t = ctx;
	if (t->have)
		return true;
	t->second = *s->placement;
	if (++t->calls == 2) {
		t->have = true;
	} else if (s->multiplicity > 1 && s->nfree > 0) {
		int l = 0;
		while (l < t->lv->ntray && !s->spare[l])
			l++;
		if (l < t->lv->ntray) {
			int c = s->free_cells[0];
			t->second.p[t->second.n++] = (struct lk_laser_place){ l + 1, c % t->lv->width,
									      c / t->lv->width };
			t->have = true;
		}
	}
	return true;
}

static void laser_csp_solve(const struct lk_level *level, const struct lk_csp_options *opt,
			    struct lk_csp_result *r)
{
	const struct lk_laser *lv = (const struct lk_laser *)level;
	struct lk_laser_search_options o;
	struct lk_laser_result *res = lk_xmalloc(sizeof *res);
	struct two *t = lk_xcalloc(1, sizeof *t);
	t->lv = lv;
	lk_laser_search_options_init(&o);
	o.limit = opt->count_limit ? opt->count_limit : 1;
	o.seed = opt->seed;
	o.fixed_order = !opt->dynamic;
	o.weak = !opt->sac && !opt->gcc;   /* the look-ahead plays SAC's part */
	o.max_nodes = opt->max_nodes;
	o.timeout = opt->timeout;
	o.cancel = opt->cancel;
	lk_laser_search(lv, &o, keep_second, t, res);
	lk_strbuf_reset(&r->solution);
	lk_strbuf_reset(&r->second);
	r->status = res->status;
	r->limit = res->limit;
	r->solutions = res->solutions < o.limit ? res->solutions : o.limit;
	r->exhausted = res->exhausted;
	r->nodes = res->nodes;
	r->nodes_to_first = res->nodes_to_first;
	r->seconds = res->seconds;
	if (res->solutions)
		lk_laser_placement_format(&res->first, &r->solution);
	if (t->have && r->solutions >= 2)
		lk_laser_placement_format(&t->second, &r->second);
	free(t);
	free(res);
}

static int laser_csp_verify(const struct lk_level *level, const char *solution, bool *valid,
			    struct lk_strbuf *why)
{
	const struct lk_laser *lv = (const struct lk_laser *)level;
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	struct lk_laser_eval ev;
	*valid = false;
	if (lk_laser_placement_parse(lv, solution, pl, why) < 0) {
		free(pl);
		return -1;
	}
	lk_laser_evaluate(lv, pl, &ev, why);
	*valid = ev.solved;
	free(pl);
	return 0;
}

static void laser_write_state(const struct lk_level *level, const void *key, struct lk_strbuf *out)
{
	(void)key;
	lk_laser_draw((const struct lk_laser *)level, NULL, out);
}

static const struct lk_csp_ops laser_csp = {
	.solve = laser_csp_solve,
	.verify = laser_csp_verify,
};

const struct lk_game lk_game_laser = {
	.name = "laser",
	.summary = "laser: place tray pieces so that beams from the sources give every target its power",
	.metrics = laser_metrics,
	.validate = laser_validate,
	.new_level = laser_new_level,
	.free_level = laser_free_level,
	.write_state = laser_write_state,
	.csp = &laser_csp,
};
