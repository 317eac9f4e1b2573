/*
 * rate.c - the `rate` command: for each level, whether it is solvable, its
 * optimal solution length, and its difficulty measured the MixedAim way
 * (fewest states any of BFS, A* and greedy explores) and the Combination
 * way (mean and deviation of states explored over shuffled solves).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "levelkit/difficulty.h"

static const char usage[] = "rate [options] [file...]";
static const char description[] =
	"Rate each level of the input.  Fields written:\n"
	"  solvable, moves, pushes, optimal   from a solve with --algo (default astar)\n"
	"  difficulty, difficulty-sd          mean and standard deviation of the states\n"
	"                                     explored over --runs shuffled solves\n"
	"                                     (Combination's multiple method)\n"
	"  difficulty-min                     fewest states explored by BFS, A* or greedy\n"
	"                                     (MixedAim's measure)\n"
	"  states-bfs, states-astar, states-greedy   the three counts behind it\n"
	"  grade                              trivial, easy, medium, hard, very-hard, extreme";

static const char *const rate_fields[] = {
	"solvable", "moves", "pushes", "optimal", "difficulty", "difficulty-sd",
	"difficulty-min", "states-bfs", "states-astar", "states-greedy", "grade",
	"difficulty-runs", "limit", NULL
};

struct rate_ctx {
	struct lk_cli_common common;
	unsigned long runs;
	const char *runs_algo;
	bool no_mixedaim;
	uint64_t seed;
	struct lk_rate_options rate;
};

static const char *const difficulty_fields[] = {
	"difficulty", "difficulty-sd", "difficulty-runs", "difficulty-min", "states-bfs",
	"states-astar", "states-greedy", "grade", NULL
};

static void write_count(struct lk_record *rec, const char *name, enum lk_status st, uint64_t n)
{
	if (st == LK_SOLVED)
		lk_record_setf(rec, name, "%llu", (unsigned long long)n);
	else
		lk_record_set(rec, name, lk_status_name(st));
}

static int process(void *vctx, struct lk_job *job)
{
	const struct rate_ctx *ctx = vctx;
	struct lk_level *level = lk_cli_load_level(&ctx->common, job);
	if (!level)
		return -1;
	struct lk_rating r;
	struct lk_record *rec = job->rec;
	lk_rating_init(&r);
	lk_rate(job->worker, level, &ctx->rate, &r);

	for (size_t i = 0; difficulty_fields[i]; i++)
		lk_record_unset(rec, difficulty_fields[i]);
	bool solvable = r.optimal.status == LK_SOLVED || r.min_known || r.runs_solved > 0;
	enum lk_status status = solvable ? LK_SOLVED : r.optimal.status;
	lk_record_set(rec, "solvable", lk_status_name(status));
	if (r.optimal.status == LK_SOLVED) {
		struct lk_strbuf sol = LK_STRBUF_INIT;
		struct lk_solution_stats st;
		level->game->format_solution(level, r.optimal.path, r.optimal.nkeys, &sol, &st);
		lk_record_setf(rec, "moves", "%lu", st.moves);
		if (st.has_pushes)
			lk_record_setf(rec, "pushes", "%lu", st.pushes);
		lk_record_set(rec, "optimal", r.optimal.optimal ? level->metric : "no");
		lk_strbuf_release(&sol);
	} else {
		/* Lengths from an earlier solve stay only if we cannot do better;
		 * an optimality claim we could not confirm is dropped. */
		lk_record_unset(rec, "optimal");
		if (r.optimal.status == LK_UNSOLVABLE) {
			lk_record_unset(rec, "moves");
			lk_record_unset(rec, "pushes");
		}
	}
	if (status == LK_UNKNOWN)
		lk_record_set(rec, "limit", lk_limit_name(r.optimal.limit));
	else
		lk_record_unset(rec, "limit");

	if (solvable && r.runs_solved > 0) {
		lk_record_setf(rec, "difficulty", "%.1f", r.mean);
		lk_record_setf(rec, "difficulty-sd", "%.1f", r.sd);
		if (r.runs_solved < r.runs)
			lk_record_setf(rec, "difficulty-runs", "%u/%u", r.runs_solved, r.runs);
	}
	if (solvable && r.have_mixedaim) {
		if (r.min_known)
			lk_record_setf(rec, "difficulty-min", "%llu", (unsigned long long)r.min_explored);
		write_count(rec, "states-bfs", r.status[LK_ALGO_BFS], r.explored[LK_ALGO_BFS]);
		if (level->has_heuristic) {
			write_count(rec, "states-astar", r.status[LK_ALGO_ASTAR], r.explored[LK_ALGO_ASTAR]);
			write_count(rec, "states-greedy", r.status[LK_ALGO_GREEDY],
				    r.explored[LK_ALGO_GREEDY]);
		}
	}
	if (solvable && (r.runs_solved > 0 || r.min_known))
		lk_record_set(rec, "grade",
			      lk_grade_name(lk_grade_of(r.runs_solved ? r.mean : (double)r.min_explored)));
	lk_cli_write_stats(&ctx->common, rec, &r.optimal);
	lk_rating_release(&r);
	lk_level_free(level);
	return 0;
}

int main(int argc, char **argv)
{
	struct rate_ctx ctx = { 0 };
	lk_cli_common_init(&ctx.common, 10.0);
	ctx.runs = 50;
	ctx.seed = 1;
	struct lk_option opts[] = {
		LK_CLI_COMMON_OPTIONS(ctx.common),
		LK_OPT_GROUP_("Difficulty"),
		{ LK_OPT_UINT, 'k', "runs", &ctx.runs, "k",
		  "shuffled solves for the mean (default 50; 0 skips)", NULL },
		{ LK_OPT_STRING, 0, "runs-algo", &ctx.runs_algo, "name",
		  "solver of the shuffled solves (default greedy)", NULL },
		{ LK_OPT_FLAG, 0, "no-mixedaim", &ctx.no_mixedaim, NULL,
		  "skip MixedAim's three-solver minimum", NULL },
		{ LK_OPT_U64, 0, "seed", &ctx.seed, "n", "seed of the shuffled solves (default 1)", NULL },
		LK_OPT_END_(),
	};
	int first = lk_parse_options(argc, argv, opts, usage, description);
	struct lk_pipeline p = {
		.ctx = &ctx,
		.worker_new = lk_cli_solver_new,
		.worker_free = lk_cli_solver_free,
		.process = process,
		.columns = rate_fields,
		.noun = "rated",
	};
	lk_cli_common_finish(&ctx.common, &p);
	lk_rate_options_init(&ctx.rate);
	ctx.rate.search = ctx.common.search;
	ctx.rate.runs = (unsigned)ctx.runs;
	ctx.rate.mixedaim = !ctx.no_mixedaim;
	ctx.rate.seed = ctx.seed;
	if (ctx.runs_algo && lk_algo_parse(ctx.runs_algo, &ctx.rate.runs_algo) < 0)
		lk_usage_error("unknown algorithm '%s'", ctx.runs_algo);
	return lk_pipeline_run(&p, argv + first, argc - first);
}
