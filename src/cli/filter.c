/*
 * filter.c - the `filter` command: its options, checked and handed to
 * the filter action (filter.h: the expression, the concept query, the
 * duplicates, the K best by a field, a progression), which runs on the
 * record pipeline.  The exit status follows grep (0 some level kept, 1
 * none, 2 error).  See docs/filter.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"
#include "levelkit/expr.h"
#include "levelkit/filter.h"
#include "levelkit/record.h"

static const char usage[] = "filter [options] EXPR [file...]\n"
			    "   or: filter [options] (--dedupe | --top K --by FIELD) [EXPR] [file...]\n"
			    "   or: filter [options] --progression N [--by FIELD] [EXPR] [file...]";
static const char description[] =
	"Keep the level records of the input (files, or stdin when none or '-') whose\n"
	"fields satisfy EXPR, for example\n"
	"  filter 'solvable == \"yes\" && pushes >= 30' pack.xsb\n"
	"  filter 'has(grade) && (grade == \"hard\" || grade == \"very-hard\")'\n"
	"Operators: == != < <= > >= (numeric when both sides are numbers, else text),\n"
	"! && || and parentheses; has(field) tests that a field is present.  Field names\n"
	"are case-insensitive.  Records without a grid (pack headers) pass through in\n"
	"text output.  --dedupe then drops levels equal to an earlier one up to rotation,\n"
	"reflection and translation; --top keeps the K records with the largest FIELD;\n"
	"--progression N chooses N levels and orders them so that FIELD (difficulty by\n"
	"default) rises with dips.\n"
	"Exit status: 0 if a level was kept, 1 if none, 2 on any error, 130 if\n"
	"interrupted.";

struct filter_ctx {
	struct lk_filter f;       /* what the options choose, most of them directly */
	const char *expr_text, *format, *color;
	/* concept queries: --forall / --exists and their bounds */
	const char *forall, *exists;
	struct lk_bounds bounds;   /* of each concept search */
	struct lk_cli_csp_flags csp_flags;   /* the constraint games' own flags */
};

/* With --dedupe or --top the expression is optional, so a first operand
 * that does not parse may be the first file: it is, if it exists or has
 * nothing of an expression (operators, blanks, quotes, parentheses), so
 * that a missing file is reported as missing. */
static bool is_input(const char *arg)
{
	struct stat st;
	return strcmp(arg, "-") == 0 || stat(arg, &st) == 0 || !strpbrk(arg, "=<>!&|()\"' \t");
}

_Noreturn static void expression_error(const struct lk_strbuf *err)
{
	lk_error("expression: %s", err->buf);
	exit(2);
}

static int parse_top(const struct lk_option *opt, const char *arg)
{
	uint64_t k;
	if (lk_parse_u64(arg, &k) < 0 || k == 0 || k > 0xffffffffu)
		lk_usage_error("--top: '%s' is not a positive integer", arg);
	*(unsigned long *)opt->value = (unsigned long)k;
	return 0;
}

static int parse_progression(const struct lk_option *opt, const char *arg)
{
	uint64_t k;
	if (lk_parse_u64(arg, &k) < 0 || k == 0 || k > 2000)
		lk_usage_error("--progression: '%s' is not a number of levels from 1 to 2000", arg);
	*(unsigned long *)opt->value = (unsigned long)k;
	return 0;
}

static bool valid_field_name(const char *s)
{
	size_t name_len, value_off;
	struct lk_strbuf line = LK_STRBUF_INIT;
	lk_strbuf_addf(&line, "%s: x", s);
	bool ok = *s && lk_line_classify(line.buf, &name_len, &value_off) == LK_LINE_FIELD &&
		  name_len == strlen(s);
	lk_strbuf_release(&line);
	return ok;
}

static enum lk_format check_options(const struct filter_ctx *ctx, enum lk_view_format *view)
{
	enum lk_format format = LK_FORMAT_TEXT;
	*view = LK_VIEW_NONE;
	lk_cli_choose_format(ctx->format, ctx->f.output, ctx->color, &format, view);
	lk_cli_check_title(ctx->f.title, *view);
	if (ctx->f.count && *view == LK_VIEW_ANSI && !ctx->format)
		*view = LK_VIEW_NONE;   /* a count is a number, not a level */
	if (ctx->f.count && *view)
		lk_usage_error("--count prints a number; it makes no -f %s",
			       ctx->format ? ctx->format : "picture");
	if (ctx->f.top && ctx->f.progression)
		lk_usage_error("--top and --progression each choose the levels: give one");
	if (ctx->f.by && !ctx->f.top && !ctx->f.progression)
		lk_usage_error("--by needs --top or --progression");
	if (ctx->f.ascending && !ctx->f.top)
		lk_usage_error("--asc needs --top");
	if (ctx->f.top && !ctx->f.by)
		lk_usage_error("--top needs --by FIELD");
	if (ctx->f.chapter != 5 && !ctx->f.progression)
		lk_usage_error("--chapter needs --progression");
	if (ctx->f.fields && (format != LK_FORMAT_TSV || *view))
		lk_usage_error("--fields chooses the columns of -f tsv");
	lk_cli_check_fields(ctx->f.fields);
	if (ctx->f.by && !valid_field_name(ctx->f.by))
		lk_usage_error("--by: '%s' is not a field name", ctx->f.by);
	return format;
}

static bool expression_optional(const struct filter_ctx *ctx)
{
	return ctx->f.dedupe || ctx->f.top || ctx->f.progression || ctx->forall || ctx->exists;
}

/* The expression: -e, else the first operand.  With --dedupe or --top it
 * is optional: a first operand that is not a valid expression but names
 * an input is the first file. */
static struct lk_expr *take_expression(const struct filter_ctx *ctx, char ***files, int *nfiles)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *expr = NULL;
	if (ctx->expr_text) {
		expr = lk_expr_parse(ctx->expr_text, &err);
		if (!expr)
			expression_error(&err);
	} else if (*nfiles > 0) {
		expr = lk_expr_parse((*files)[0], &err);
		if (expr) {
			(*files)++;
			(*nfiles)--;
		} else if (!expression_optional(ctx) || !is_input((*files)[0])) {
			expression_error(&err);
		}
	} else if (!expression_optional(ctx)) {
		lk_usage_error("no expression given");
	}
	lk_strbuf_release(&err);
	if (ctx->f.invert && !expr)
		lk_usage_error("--invert needs an expression");
	return expr;
}

/* --forall or --exists: the concept and the bounds of its searches. */
static void take_concept(struct filter_ctx *ctx, struct lk_filter *f)
{
	if (ctx->f.jobs == 0)
		ctx->f.jobs = lk_cpu_count();
	if (ctx->f.jobs > 1024)
		lk_usage_error("--jobs %lu is too many", ctx->f.jobs);
	if (ctx->f.jobs > 1 && !(ctx->forall || ctx->exists))
		lk_usage_error("--jobs belongs to --forall and --exists");
	if (ctx->forall && ctx->exists)
		lk_usage_error("--forall and --exists do not go together: run two filters");
	const char *text = ctx->forall ? ctx->forall : ctx->exists;
	if (!text) {
		/* the bounds and the games' flags are the concept searches' */
		static const char *const searching[] = { "max-states", "max-memory", "timeout",
							 NULL };
		lk_cli_reject_options(searching, "a filter without --forall or --exists (it does "
				      "not search)");
		const char *flags[LK_CLI_MAX_CSP_FLAGS + 1] = { NULL };
		for (size_t k = 0; k < ctx->csp_flags.n; k++)
			flags[k] = ctx->csp_flags.opts[k].long_name;
		lk_cli_reject_options(flags, "a filter without --forall or --exists (it does not "
				      "search)");
		return;
	}
	struct lk_strbuf err = LK_STRBUF_INIT;
	f->concept.concept = lk_expr_parse_concept(text, &err);
	if (!f->concept.concept)
		lk_usage_error("bad concept '%s': %s", text, err.buf);
	lk_strbuf_release(&err);
	f->concept.text = text;
	f->concept.quantifier = ctx->forall ? LK_FORALL : LK_EXISTS;
	lk_bounds_finish(&ctx->bounds, ctx->f.jobs, &lk_interrupted);
	f->act.search.bounds = ctx->bounds;
	f->act.csp.bounds = ctx->bounds;
	lk_cli_csp_flags_finish(&ctx->csp_flags, &f->act.csp);
}

int main(int argc, char **argv)
{
	struct filter_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	lk_filter_init(&ctx.f);
	lk_cli_csp_flags_init(&ctx.csp_flags);
	struct lk_option opts[] = {
		LK_OPT_GROUP_("Selection"),
		{ LK_OPT_STRING, 'e', "expression", &ctx.expr_text, "expr",
		  "the expression (then every operand is a file)", NULL },
		{ LK_OPT_FLAG, 'v', "invert", &ctx.f.invert, NULL,
		  "keep the level records that do not match", NULL },
		{ LK_OPT_FLAG, 0, "dedupe", &ctx.f.dedupe, NULL,
		  "drop levels equal to an earlier one up to symmetry and translation", NULL },
		{ LK_OPT_CALLBACK, 0, "top", &ctx.f.top, "k",
		  "keep the k records with the largest --by field, sorted", parse_top },
		{ LK_OPT_STRING, 0, "by", &ctx.f.by, "field", "the numeric field --top sorts by", NULL },
		{ LK_OPT_FLAG, 0, "asc", &ctx.f.ascending, NULL, "--top keeps the smallest instead", NULL },
		{ LK_OPT_CALLBACK, 0, "progression", &ctx.f.progression, "n",
		  "choose n levels (at most 2000) and order them so that --by (default\n"
		  "difficulty) rises with dips", parse_progression },
		{ LK_OPT_UINT, 0, "chapter", &ctx.f.chapter, "c",
		  "--progression: levels per rise before a dip (default 5; 0: no dips)", NULL },
		LK_OPT_GROUP_("Concepts (docs/concepts.md): a search per level"),
		{ LK_OPT_STRING, 0, "forall", &ctx.forall, "concept",
		  "keep the levels that have a solution and whose every solution satisfies\n"
		  "the concept (no shortcut), e.g. 'count(push) >= 30'", NULL },
		{ LK_OPT_STRING, 0, "exists", &ctx.exists, "concept",
		  "keep the levels with a solution that satisfies the concept", NULL },
		{ .type = LK_OPT_TABLE, .value = ctx.csp_flags.opts },
		LK_CLI_BOUNDS_OPTIONS(ctx.bounds, "states stored per level, every one met (default: none)",
				      "memory per level (default: RAM / (jobs + 1), at most 4G)",
				      "time per level (default 10 s); an undecided level is left out"),
		{ LK_OPT_UINT, 'j', "jobs", &ctx.f.jobs, "n",
		  "levels searched at once (default 1; 0: every core)", NULL },
		LK_OPT_GROUP_("Output"),
		{ LK_OPT_FLAG, 'c', "count", &ctx.f.count, NULL,
		  "print only the number of level records kept", NULL },
		{ LK_OPT_STRING, 'f', "format", &ctx.format, "fmt", LK_CLI_FORMAT_HELP, NULL },
		{ LK_OPT_STRING, 0, "color", &ctx.color, "when", LK_CLI_COLOR_HELP, NULL },
		{ LK_OPT_STRING, 0, "title", &ctx.f.title, "text", LK_CLI_TITLE_HELP, NULL },
		{ LK_OPT_STRING, 0, "fields", &ctx.f.fields, "a,b,...",
		  "tsv: these columns, in this order (record and title included)", NULL },
		{ LK_OPT_STRING, 'o', "output", &ctx.f.output, "file", "write to file instead of stdout", NULL },
		{ LK_OPT_FLAG, 0, "force", &ctx.f.force, NULL,
		  "let -o replace an existing file that is not an input", NULL },
		LK_OPT_END_(),
	};
	ctx.bounds.max_seconds = 10.0;
	int first = lk_parse_options(argc, argv, opts, usage, description);
	enum lk_view_format view;
	enum lk_format format = check_options(&ctx, &view);
	char **files = argv + first;
	int nfiles = argc - first;
	struct lk_expr *expr = take_expression(&ctx, &files, &nfiles);

	struct lk_filter *f = &ctx.f;
	take_concept(&ctx, f);
	f->expr = expr;
	f->format = format;
	f->view = view;
	int rc = lk_filter_run(f, files, nfiles);
	if (f->concept.concept && f->records_read && !lk_interrupted)
		for (size_t k = 0; k < ctx.csp_flags.n; k++)
			lk_warn_unapplied(f->games_seen, ctx.csp_flags.opts[k].long_name,
					  lk_game_has_csp_flag, ctx.csp_flags.opts[k].long_name);
	lk_expr_free(expr);
	lk_expr_free((struct lk_expr *)f->concept.concept);
	return rc;
}
