/*
 * own_fields.c - the fields each action writes for a game (actions.h:
 * lk_act_fields), whatever the outcome: the commands' tsv columns, so
 * that a table keeps a column when its first level was unsolvable,
 * undecided or rejected.  Kept beside the writers in search/fields.c: a
 * field added there is added here.
 */
#include "levelkit/actions.h"

#include <stdlib.h>
#include <string.h>

#include "levelkit/analysis.h"
#include "levelkit/rating.h"
#include "levelkit/registry.h"

struct names {
	const char **list;
	size_t n, alloc;
};

static void add(struct names *ns, const char *name)
{
	for (size_t i = 0; i < ns->n; i++)
		if (strcmp(ns->list[i], name) == 0)
			return;
	LK_ALLOC_GROW(ns->list, ns->n + 1, ns->alloc);
	ns->list[ns->n++] = name;
}

static void add_counts(struct names *ns, const struct lk_game *g)
{
	for (const struct lk_count_field *f = g->count_fields; f && f->name; f++)
		add(ns, f->name);
}

/* A metric that is a length of its own (a PuzzleScript game's cost):
 * the field named after it (fields.c writes it for weighted levels). */
static void add_metric(struct names *ns, const struct lk_game *g, const struct lk_act_options *o)
{
	const char *m = o->level.metric;
	if (!m || strcmp(m, "moves") == 0 || !lk_name_in(m, g->metrics))
		return;
	for (const struct lk_count_field *f = g->count_fields; f && f->name; f++)
		if (strcmp(f->name, m) == 0)
			return;
	add(ns, m);
}

static void add_search_stats(struct names *ns, const struct lk_game *g,
			     const struct lk_act_options *o)
{
	static const char *const stats[] = { "generated", "stored", "memory", "overhead", "time",
					     "cpu" };
	if (!o->stats)
		return;
	/* each technique's counter (lk_fields_stats writes them first) */
	for (const struct lk_technique *t = g->techniques; t && t->name; t++)
		add(ns, t->counter);
	for (size_t i = 0; i < sizeof stats / sizeof stats[0]; i++)
		add(ns, stats[i]);
}

/* The game's fields of the level itself, written first (fields.c). */
static void add_level_fields(struct names *ns, const struct lk_game *g)
{
	for (size_t i = 0; g->level_field_names && g->level_field_names[i]; i++)
		add(ns, g->level_field_names[i]);
}

static void solve_fields(struct names *ns, const struct lk_game *g, const struct lk_act_options *o)
{
	add_level_fields(ns, g);
	add(ns, "solvable");
	if (g->csp) {
		add(ns, "solutions");
		add(ns, "unique");
		add(ns, "nodes");
		add(ns, "solution");
		add(ns, "limit");
		if (o->stats)
			add(ns, "time");
		return;
	}
	add(ns, "moves");
	add_counts(ns, g);
	add_metric(ns, g, o);
	add(ns, "optimal");
	add(ns, "states");
	add(ns, "optimum");
	add(ns, "solution");
	add(ns, "limit");
	add_search_stats(ns, g, o);
	/* actions.c: auto's portfolio and the game's analysis of its
	 * heuristic, with the statistics; a game of random levels (its own
	 * solve answers --rolls: PuzzleScript) writes the seed or the rolls */
	if (o->stats && g->heuristic && o->search.algo == LK_ALGO_AUTO)
		add(ns, "search");
	if (g->own_solve) {
		if (o->stats)
			add(ns, "heuristic");
		add(ns, "seed");
		if (o->level.rolls && strcmp(o->level.rolls, "seed") != 0) {
			add(ns, "rolls");
			add(ns, "rolls-note");
		}
	}
}

static void verify_fields(struct names *ns, const struct lk_game *g)
{
	add(ns, "verified");
	if (!g->csp) {
		add(ns, "moves");
		add_counts(ns, g);
	}
	add(ns, "verify-error");
	if (g->csp && g->csp->verify_note)
		add(ns, "verify-note");
}

/* The multiple method's fields (search/fields.c: write_runs), around
 * the grade and MixedAim's (between `mean` and `runs`). */
static bool with_runs(const struct lk_act_options *o)
{
	return o->rate.single || o->rate.runs;
}

static void add_mean(struct names *ns, const struct lk_act_options *o)
{
	if (!with_runs(o))
		return;
	add(ns, "difficulty");
	if (!o->rate.single) {
		add(ns, "difficulty-sd");
		add(ns, "difficulty-se");
	}
}

static void add_runs(struct names *ns, const struct lk_act_options *o)
{
	if (!with_runs(o))
		return;
	add(ns, "difficulty-runs");
	if (o->rate.single)
		add(ns, "difficulty-method");
}

/* The rating's (search/rating_fields.c), f-NAME with --features. */
static void add_rating(struct names *ns, const struct lk_act_options *o)
{
	add(ns, "rating");
	add(ns, "grade");
	if (o->explain)
		add(ns, "explain");
	for (int i = 0; o->features && i < LK_F_COUNT; i++)
		add(ns, lk_feature_field((enum lk_feature)i));
}

static void rate_fields(struct names *ns, const struct lk_game *g, const struct lk_act_options *o)
{
	add_level_fields(ns, g);
	add(ns, "solvable");
	if (g->csp) {
		add_mean(ns, o);
		add_rating(ns, o);
		add_runs(ns, o);
		add(ns, "nodes-static");
		add(ns, "solutions");
		add(ns, "unique");
		add(ns, "solution");
		add(ns, "limit");
		return;
	}
	add(ns, "moves");
	add_counts(ns, g);
	add_metric(ns, g, o);
	add(ns, "optimal");
	add_mean(ns, o);   /* difficulty: column 7 of Sokoban's table, documented */
	if (o->rate.mixedaim) {
		add(ns, "difficulty-min");
		add(ns, "states-bfs");
		if (g->heuristic) {
			add(ns, "states-astar");
			add(ns, "states-greedy");
		}
	}
	add_rating(ns, o);
	add_runs(ns, o);
	bool graph = o->graph || (g->whole_graph && !o->no_graph);
	if (graph) {
		static const char *const whole[] = { "reachable", "dead-ends", "dead-end-path",
						     "solutions", "shortest-solutions" };
		for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
			add(ns, whole[i]);
		for (size_t i = 0; g->graph_rules && g->graph_rules->fields[i]; i++)
			add(ns, g->graph_rules->fields[i]);
		add(ns, "graph");
	}
	add(ns, "optimum");
	add(ns, "no-solution-within");
	add(ns, "solution");
	add(ns, "limit");
	add_search_stats(ns, g, o);
	if (g->own_solve)
		add(ns, "seed");   /* a random level's, actions.c */
	if (graph && o->stats) {
		add(ns, "graph-edges");
		add(ns, "graph-time");
	}
}

/* search/fields.c: lk_fields_concept */
static void concept_fields(struct names *ns, const struct lk_game *g, const struct lk_act_options *o,
			   bool forall)
{
	add(ns, "concept");
	add(ns, forall ? "requires" : "exists");
	if (g->csp)
		add(ns, forall ? "requires-over" : "exists-over");
	add(ns, "solvable");
	add(ns, "limit");
	add(ns, "undecided");
	add(ns, forall ? "shortcut-facts" : "example-facts");
	add(ns, forall ? "shortcut" : "example");
	if (o->stats) {
		add(ns, "stored");
		add(ns, "states");
		add(ns, "time");
	}
}

const char **lk_act_fields(const struct lk_game *game, enum lk_act_kind kind,
			   const struct lk_act_options *o)
{
	struct names ns = { NULL, 0, 0 };
	for (size_t i = 0; game ? i == 0 : lk_games[i] != NULL; i++) {
		const struct lk_game *g = game ? game : lk_games[i];
		switch (kind) {
		case LK_ACT_SOLVE: solve_fields(&ns, g, o); break;
		case LK_ACT_VERIFY: verify_fields(&ns, g); break;
		case LK_ACT_RATE: rate_fields(&ns, g, o); break;
		case LK_ACT_REQUIRES: concept_fields(&ns, g, o, true); break;
		case LK_ACT_EXISTS: concept_fields(&ns, g, o, false); break;
		}
	}
	LK_ALLOC_GROW(ns.list, ns.n + 1, ns.alloc);
	ns.list[ns.n] = NULL;
	return ns.list;
}
