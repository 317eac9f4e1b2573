/*
 * rate.c - the `rate` command: for each level, whether it is solvable, its
 * optimal solution length, its difficulty measured the MixedAim way
 * (fewest states any of BFS, A* and greedy explores) and the Combination
 * way (mean and deviation of states explored over shuffled solves), and
 * levelkit's rating (rating.h) with the grade read off it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "levelkit/registry.h"

static const char usage[] = "rate [options] [file...]";
static const char description[] =
	"Rate each level of the input.  Fields written:\n"
	"  solvable, moves, pushes, optimal, solution\n"
	"                      from a solve with --algo (default astar)\n"
	"  optimum             >= N pushes: a bound on the optimal length when\n"
	"                      that solve hit a bound\n"
	"  no-solution-within  N moves: the depth a stopped BFS finished\n"
	"  difficulty, difficulty-sd\n"
	"                      mean and standard deviation of the states explored\n"
	"                      over --runs shuffled solves (Combination's\n"
	"                      multiple method)\n"
	"  difficulty-se       standard error of that mean (sd / sqrt(runs))\n"
	"  difficulty-method   single, with --single (one solve, natural order)\n"
	"  difficulty-min      fewest states explored by BFS, A* or greedy\n"
	"                      (MixedAim's measure)\n"
	"  states-bfs, states-astar, states-greedy\n"
	"                      the three counts behind it\n"
	"  rating              levelkit's estimate of how hard the level is for a\n"
	"                      person, 0 and up on one scale for every game\n"
	"                      (docs/rating.md); >= X when a search hit a bound\n"
	"  grade               the rating's band: trivial (below 1), easy (3),\n"
	"                      medium (5), hard (7), very-hard (9), extreme\n"
	"  explain             --explain: what contributed to the rating\n"
	"  f-NAME              --features: every feature of the rating (for\n"
	"                      bench/rating_fit.py)\n"
	"  limit               every bound any search hit\n"
	"The searches run in levelkit's configuration of each game (the push\n"
	"graph, pruning, the matching bound) unless --measure thesis: MixedAim's\n"
	"own (moves, forward, no pruning, its heuristic); docs/commands.md says why.\n"
	"A measure a search could not finish is a bound: difficulty: >= X with\n"
	"difficulty-runs: solved/runs, states-bfs: >= N, rating: >= 8.2, grade: >= hard,\n"
	"or unknown.\n"
	"With the whole-graph analysis (--graph; the default for %s):\n"
	"  reachable           states reachable from the start\n"
	"  dead-ends           those from which no win can be reached\n"
	"  dead-end-path       the shortest way into one\n"
	"  solutions           distinct shortest solutions\n"
	"  shortest-solutions  up to --list-solutions of them, ... when more\n"
	"and the games' own fields of it:%s";

static bool whole_graph(const struct lk_game *g)
{
	return g->whole_graph;
}

/* The description, with the games named from the registry. */
static void build_description(struct lk_strbuf *out, char *heading, size_t heading_size)
{
	struct lk_strbuf whole = LK_STRBUF_INIT, own = LK_STRBUF_INIT;
	lk_cli_games_where(&whole, whole_graph);
	for (size_t i = 0; lk_games[i]; i++) {
		const struct lk_graph_rules *r = lk_games[i]->graph_rules;
		if (!r)
			continue;
		lk_strbuf_addf(&own, "\n  %s:", lk_games[i]->name);
		for (size_t j = 0; r->fields[j]; j++)
			lk_strbuf_addf(&own, "%s%s", j ? ", " : " ", r->fields[j]);
	}
	lk_strbuf_addf(out, description, whole.buf, own.len ? own.buf : " none");
	snprintf(heading, heading_size, "Whole-graph analysis (on by default for %s)", whole.buf);
	lk_strbuf_release(&whole);
	lk_strbuf_release(&own);
}

static const char *const rate_always[] = { "limit", NULL };

struct rate_ctx {
	struct lk_cli_common common;
	unsigned long runs;
	const char *runs_algo;
	bool no_mixedaim, graph, no_graph, single, explain, features;
	unsigned long list_solutions;
	uint64_t seed;
};

static int process(void *vctx, struct lk_job *job)
{
	const struct rate_ctx *ctx = vctx;
	return lk_act_rate(job->worker, job->rec, &ctx->common.act, job->err, &job->err_line);
}

int main(int argc, char **argv)
{
	struct rate_ctx ctx = { 0 };
	lk_cli_common_init(&ctx.common, 10.0, 1, 0);
	ctx.runs = 50;
	ctx.list_solutions = 10;
	ctx.seed = 1;
	/* rate's measures of a constraint game are the paper's, whose orders
	 * are fixed: --static-order would change nothing, so it is not listed
	 * and is refused */
	ctx.common.static_order_help = NULL;
	char graph_heading[160] = "";
	struct lk_option opts[] = {
		LK_CLI_COMMON_OPTIONS(ctx.common),
		LK_OPT_GROUP_("Difficulty"),
		{ LK_OPT_UINT, 'k', "runs", &ctx.runs, "k",
		  "shuffled solves for the mean (default 50; 0 skips)", NULL },
		{ LK_OPT_STRING, 0, "runs-algo", &ctx.runs_algo, "name",
		  "solver of the shuffled solves: bfs, ucs, astar or greedy (default)", NULL },
		{ LK_OPT_FLAG, 0, "no-mixedaim", &ctx.no_mixedaim, NULL,
		  "skip MixedAim's three-solver minimum", NULL },
		{ LK_OPT_U64, 0, "seed", &ctx.seed, "n", "seed of the shuffled solves (default 1)", NULL },
		{ LK_OPT_FLAG, 0, "single", &ctx.single, NULL,
		  "the single method instead: one solve in the natural order", NULL },
		{ LK_OPT_FLAG, 0, "explain", &ctx.explain, NULL,
		  "write what contributed to the rating: explain", NULL },
		{ LK_OPT_FLAG, 0, "features", &ctx.features, NULL,
		  "write every feature of the rating, the whole graph's too: f-NAME (bench/rating_fit.py)",
		  NULL },
		LK_OPT_GROUP_(graph_heading),
		{ LK_OPT_FLAG, 0, "graph", &ctx.graph, NULL,
		  "explore every reachable state: dead ends, number of shortest solutions, stars", NULL },
		{ LK_OPT_FLAG, 0, "no-graph", &ctx.no_graph, NULL, "skip the analysis", NULL },
		{ LK_OPT_UINT, 0, "list-solutions", &ctx.list_solutions, "n",
		  "list up to n of the shortest solutions (default 10; 0: none)", NULL },
		LK_OPT_END_(),
	};
	struct lk_strbuf help = LK_STRBUF_INIT;
	build_description(&help, graph_heading, sizeof graph_heading);
	int first = lk_parse_options(argc, argv, opts, usage, help.buf);
	lk_strbuf_release(&help);
	static const char *const fixed_order[] = { "static-order", NULL };
	lk_cli_reject_options(fixed_order, "rate (its measures take the squares in reading "
			      "order, as the paper did)");
	struct lk_pipeline p = {
		.ctx = &ctx,
		.worker_new = lk_pipeline_solver_new,
		.worker_free = lk_pipeline_solver_free,
		.process = process,
		.kind = LK_ACT_RATE,
		.act = &ctx.common.act,
		.always_columns = rate_always,
		.noun = "rated",
	};
	lk_cli_common_finish(&ctx.common, &p);
	struct lk_act_options *act = &ctx.common.act;
	act->rate.runs = (unsigned)ctx.runs;
	act->rate.mixedaim = !ctx.no_mixedaim;
	act->rate.seed = ctx.seed;
	act->rate.single = ctx.single;
	act->graph = ctx.graph;
	act->explain = ctx.explain;
	act->features = ctx.features;
	act->no_graph = ctx.no_graph;
	if (ctx.list_solutions > 100000)
		lk_usage_error("--list-solutions %lu is too many", ctx.list_solutions);
	act->list_solutions = (unsigned)ctx.list_solutions;
	if (ctx.runs_algo && lk_algo_parse(ctx.runs_algo, &act->rate.runs_algo) < 0)
		lk_usage_error("unknown algorithm '%s' (use bfs, ucs, astar or greedy)", ctx.runs_algo);
	if (ctx.graph && ctx.no_graph)
		lk_usage_error("--graph and --no-graph do not go together");
	int rc = lk_pipeline_run(&p, argv + first, argc - first);
	if (p.levels_read && rc != 130) {
		lk_cli_common_unapplied(&ctx.common, p.games_seen);
		static const char *const search[] = { "runs-algo", "no-mixedaim", "graph", "no-graph",
						      "list-solutions", NULL };
		for (size_t i = 0; search[i]; i++)
			lk_warn_unapplied(p.games_seen, search[i], lk_game_has_state_space, NULL);
	}
	return rc;
}
