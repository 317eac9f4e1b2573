/*
 * solve.c - the `solve` command: solve every level of a stream and add the
 * result fields (solvable, solution, moves, pushes, optimal, states), or
 * with --verify replay each record's solution field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const char usage[] = "solve [options] [file...]";
static const char description[] =
	"Solve each level of the input (files, or stdin when none or '-') and write the\n"
	"records back with the fields solvable (yes/no/unknown), solution (LURD), moves,\n"
	"pushes, optimal (the metric it is optimal in, or no) and states (expanded).\n"
	"A search that hits a bound writes solvable: unknown and limit: which bound.\n"
	"With --shortcut CONCEPT, ask instead whether every solution satisfies the\n"
	"concept (a condition over one solution's facts, e.g. 'count(push) >= 30',\n"
	"'uses(anteater)', 'combo', 'length >= 12', the laser game's 'uses(splitter)'):\n"
	"requires: yes, or no and a shortcut: a solution that does not.  Exit status 1\n"
	"when some level has one.";

static const char *const solve_always[] = { "limit", NULL };
static const char *const verify_always[] = { "verify-error", NULL };
static const char *const concept_always[] = { "limit", "solvable", NULL };

struct solve_ctx {
	struct lk_cli_common common;
	bool verify;
	uint64_t seed;
	const char *rolls;
	unsigned long split;   /* --split: searches of each level at once, 0: auto */
	const char *shortcut, *exists;   /* concept queries */
	struct lk_act_concept concept;
	struct lk_act_options act;   /* the common options with the seed */
};

static int process(void *vctx, struct lk_job *job)
{
	const struct solve_ctx *ctx = vctx;
	if (ctx->concept.concept) {
		enum lk_truth answer = LK_MAYBE;
		int rc = lk_act_concept(job->worker, job->rec, &ctx->act, &ctx->concept, &answer,
					job->err, &job->err_line);
		/* a level with a shortcut (or no example) is a negative answer */
		job->negative = rc == 0 && answer == LK_FALSE;
		return rc;
	}
	if (ctx->verify) {
		bool verified;
		int rc = lk_act_verify(job->rec, &ctx->act, &verified, job->err, &job->err_line);
		/* like sha256sum -c: a solution that fails makes the exit status 1 */
		job->negative = rc == 0 && !verified;
		return rc;
	}
	if (ctx->split == 0 && job->threads > 1) {
		/* --split auto: a level that starts with threads idle uses them */
		struct lk_act_options act = ctx->act;
		act.search.split = job->threads;
		return lk_act_solve(job->worker, job->rec, &act, job->err, &job->err_line);
	}
	return lk_act_solve(job->worker, job->rec, &ctx->act, job->err, &job->err_line);
}

int main(int argc, char **argv)
{
	struct solve_ctx ctx = { 0 };
	lk_cli_common_init(&ctx.common, 30.0, 1, 0);
	lk_cli_common_default_auto(&ctx.common);
	struct lk_option opts[] = {
		LK_CLI_COMMON_OPTIONS(ctx.common),
		{ LK_OPT_U64, 0, "seed", &ctx.seed, "n",
		  "shuffle move order with this seed (default 0: natural order); a PuzzleScript\n"
		  "game that draws random numbers draws them from it (unless the record has a\n"
		  "seed field), and its answers hold for that seed", NULL },
		{ LK_OPT_STRING, 0, "rolls", &ctx.rolls, "which",
		  "a PuzzleScript game that draws random numbers: solvable for the seed (seed,\n"
		  "the default), for some roll of the dice (some) or whatever they say (every)", NULL },
		{ LK_OPT_UINT, 0, "split", &ctx.split, "n",
		  "-a any: search each level with n differently configured searches at once,\n"
		  "one a thread, the first answer winning (Sokoban; at most 8; the memory and\n"
		  "states bounds shared out between them, the time bound each one's); default\n"
		  "0: a level that starts once the input has ended, with fewer levels left than\n"
		  "--jobs, uses its share of the idle threads (solve -j 2 on one level: 2)",
		  NULL },
		LK_OPT_GROUP_("Checking"),
		{ LK_OPT_FLAG, 0, "verify", &ctx.verify, NULL,
		  "replay each record's solution field instead of solving", NULL },
		LK_OPT_GROUP_("Concepts (docs/concepts.md)"),
		{ LK_OPT_STRING, 0, "shortcut", &ctx.shortcut, "concept",
		  "look for a solution that violates the concept: requires: yes (none, proved),\n"
		  "no (shortcut: one) or unknown", NULL },
		{ LK_OPT_STRING, 0, "exists", &ctx.exists, "concept",
		  "look for a solution that satisfies the concept: exists, example", NULL },
		LK_OPT_END_(),
	};
	int first = lk_parse_options(argc, argv, opts, usage, description);
	if (!!ctx.verify + !!ctx.shortcut + !!ctx.exists > 1)
		lk_usage_error("--verify, --shortcut and --exists do not go together");
	if (ctx.verify) {
		static const char *const searching[] = {
			"algo", "direction", "heuristic", "plain", "max-states", "max-memory",
			"timeout", "seed", "split", "count-limit", "no-sac", "no-gcc", "no-symmetry",
			"static-order", NULL
		};
		lk_cli_reject_options(searching, "--verify (it replays solutions, it does not search)");
		const char *flags[LK_CLI_MAX_CSP_FLAGS + 1] = { NULL };
		for (size_t k = 0; k < ctx.common.csp_flags.n; k++)
			flags[k] = ctx.common.csp_flags.opts[k].long_name;
		lk_cli_reject_options(flags, "--verify (it replays solutions, it does not search)");
	}
	if (ctx.shortcut || ctx.exists) {
		static const char *const chosen[] = { "algo", "direction", "metric", "heuristic",
						      "plain", NULL };
		lk_cli_reject_options(chosen, ctx.shortcut ? "--shortcut (a concept query chooses "
				      "its own search)" : "--exists (a concept query chooses its own search)");
	}
	const char *text = ctx.shortcut ? ctx.shortcut : ctx.exists;
	if (text) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		ctx.concept.concept = lk_expr_parse_concept(text, &err);
		if (!ctx.concept.concept)
			lk_usage_error("bad concept '%s': %s", text, err.buf);
		ctx.concept.text = text;
		ctx.concept.quantifier = ctx.shortcut ? LK_FORALL : LK_EXISTS;
	}
	struct lk_pipeline p = {
		.ctx = &ctx,
		.worker_new = lk_pipeline_solver_new,
		.worker_free = lk_pipeline_solver_free,
		.process = process,
		.kind = ctx.verify ? LK_ACT_VERIFY : ctx.shortcut ? LK_ACT_REQUIRES
			: ctx.exists ? LK_ACT_EXISTS : LK_ACT_SOLVE,
		.act = &ctx.act,
		.always_columns = ctx.verify ? verify_always : text ? concept_always : solve_always,
		.noun = ctx.verify ? "verified" : text ? "checked" : "solved",
	};
	lk_cli_common_finish(&ctx.common, &p);
	/* solve's default: A*, or A* and BFS where the heuristic may mislead */
	if (!ctx.common.algo)
		ctx.common.act.search.algo = LK_ALGO_AUTO;
	ctx.act = ctx.common.act;
	ctx.act.search.seed = ctx.seed;
	if (ctx.split > 8)
		lk_usage_error("--split %lu is too many (at most 8)", ctx.split);
	ctx.act.search.split = (unsigned)ctx.split;
	p.share_spare = ctx.split == 0 && ctx.act.search.algo == LK_ALGO_ANY && !ctx.verify && !text;
	ctx.act.level.seed = ctx.seed;   /* a random game's generator too */
	if (ctx.rolls && strcmp(ctx.rolls, "seed") && strcmp(ctx.rolls, "some") && strcmp(ctx.rolls, "every"))
		lk_usage_error("unknown --rolls '%s' (use seed, some or every)", ctx.rolls);
	ctx.act.level.rolls = ctx.rolls;
	ctx.act.csp.seed = ctx.seed;
	int rc = lk_pipeline_run(&p, argv + first, argc - first);
	if (p.levels_read && rc != 130)
		lk_cli_common_unapplied(&ctx.common, p.games_seen);
	lk_expr_free((struct lk_expr *)ctx.concept.concept);
	return rc;
}
