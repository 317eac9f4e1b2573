/*
 * solve.c - the `solve` command: solve every level of a stream and add the
 * result fields (solvable, solution, moves, pushes, optimal, states), or
 * with --verify replay each record's solution field.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "levelkit/fields.h"

static const char usage[] = "solve [options] [file...]";
static const char description[] =
	"Solve each level of the input (files, or stdin when none or '-') and write the\n"
	"records back with the fields solvable (yes/no/unknown), solution (LURD), moves,\n"
	"pushes, optimal (the metric it is optimal in, or no) and states (expanded).\n"
	"A search that hits a bound writes solvable: unknown and limit: which bound.";

static const char *const solve_fields[] = {
	"solvable", "moves", "pushes", "optimal", "states", "limit", "solution", NULL
};
static const char *const verify_fields[] = {
	"verified", "moves", "pushes", "verify-error", NULL
};
static const char *const solve_always[] = { "limit", NULL };
static const char *const verify_always[] = { "verify-error", NULL };

struct solve_ctx {
	struct lk_cli_common common;
	bool verify;
	uint64_t seed;
};

static void write_lengths(struct lk_record *rec, const struct lk_solution_stats *st)
{
	lk_record_setf(rec, "moves", "%lu", st->moves);
	if (st->has_pushes)
		lk_record_setf(rec, "pushes", "%lu", st->pushes);
}

static int verify(struct lk_level *level, struct lk_job *job)
{
	const char *solution = lk_record_get(job->rec, "solution");
	if (!solution) {
		lk_strbuf_addstr(job->err, "no solution field to verify");
		return -1;
	}
	struct lk_solution_stats st = { 0 };
	struct lk_strbuf why = LK_STRBUF_INIT;
	bool solved = false;
	int rc = level->game->csp ? level->game->csp->verify(level, solution, &solved, &why)
				  : level->game->replay(level, solution, &st, &solved, &why);
	lk_record_unset(job->rec, "verify-error");
	/* like sha256sum -c: a solution that fails makes the exit status 1 */
	job->negative = rc < 0 || !solved;
	if (rc < 0) {
		lk_record_set(job->rec, "verified", "no");
		lk_record_set(job->rec, "verify-error", why.buf);
	} else if (!solved) {
		lk_record_set(job->rec, "verified", "no");
		if (!level->game->csp)
			write_lengths(job->rec, &st);
		lk_record_set(job->rec, "verify-error",
			      why.len ? why.buf : "the moves are legal but do not solve the level");
	} else {
		lk_record_set(job->rec, "verified", "yes");
		if (!level->game->csp)
			write_lengths(job->rec, &st);
	}
	lk_strbuf_release(&why);
	return 0;
}

static int process(void *vctx, struct lk_job *job)
{
	const struct solve_ctx *ctx = vctx;
	struct lk_level *level = lk_cli_load_level(&ctx->common, job);
	if (!level)
		return -1;
	if (ctx->verify) {
		int rc = verify(level, job);
		lk_level_free(level);
		return rc;
	}
	if (level->game->csp) {
		struct lk_csp_options co;
		struct lk_csp_result cr;
		lk_cli_csp_options(&ctx->common, &co);
		co.seed = ctx->seed;
		lk_csp_result_init(&cr);
		level->game->csp->solve(level, &co, &cr);
		lk_fields_csp_solve(job->rec, &cr);
		if (ctx->common.stats)
			lk_record_setf(job->rec, "time", "%.3f", cr.seconds);
		lk_csp_result_release(&cr);
		lk_level_free(level);
		return 0;
	}

	struct lk_search_options so = ctx->common.search;
	struct lk_search_result r;
	so.seed = ctx->seed;
	lk_search_result_init(&r);
	lk_solver_run(job->worker, level, &so, &r);

	struct lk_record *rec = job->rec;
	lk_fields_solve(rec, level, &r);
	lk_cli_write_stats(&ctx->common, rec, &r);
	lk_search_result_release(&r);
	lk_level_free(level);
	return 0;
}

int main(int argc, char **argv)
{
	struct solve_ctx ctx = { 0 };
	lk_cli_common_init(&ctx.common, 30.0);
	struct lk_option opts[] = {
		LK_CLI_COMMON_OPTIONS(ctx.common),
		{ LK_OPT_U64, 0, "seed", &ctx.seed, "n",
		  "shuffle move order with this seed (default 0: natural order)", NULL },
		LK_OPT_GROUP_("Checking"),
		{ LK_OPT_FLAG, 0, "verify", &ctx.verify, NULL,
		  "replay each record's solution field instead of solving", NULL },
		LK_OPT_END_(),
	};
	int first = lk_parse_options(argc, argv, opts, usage, description);
	struct lk_pipeline p = {
		.ctx = &ctx,
		.worker_new = lk_cli_solver_new,
		.worker_free = lk_cli_solver_free,
		.process = process,
		.columns = ctx.verify ? verify_fields : solve_fields,
		.always_columns = ctx.verify ? verify_always : solve_always,
		.noun = ctx.verify ? "verified" : "solved",
	};
	lk_cli_common_finish(&ctx.common, &p);
	return lk_pipeline_run(&p, argv + first, argc - first);
}
