/*
 * filter.c - the `filter` command: keep the level records whose fields
 * satisfy an expression, drop duplicate levels, keep the K best by a
 * field.  See docs/filter.md.
 *
 * Unlike solve and rate, filter does not use the worker pipeline: each
 * record takes microseconds, --top must hold records back until the end,
 * and the exit status follows grep (0 some level kept, 1 none, 2 error).
 * So it has its own single-threaded read-decide-write loop, and streams
 * its output record by record except under --top.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "levelkit/dedupe.h"
#include "levelkit/expr.h"
#include "levelkit/game.h"
#include "levelkit/progression.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "common.h"
#include "levelkit/pool.h"
#include "levelkit/top.h"
#include "levelkit/options.h"

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
	const char *expr_text, *format, *output, *by, *fields, *color, *title;
	bool dedupe, invert, count, asc, force;
	unsigned long top, progression, chapter;
	/* concept queries: --forall / --exists and their bounds */
	const char *forall, *exists;
	struct lk_bounds bounds;   /* of each concept search */
	unsigned long jobs;                  /* levels searched at once */
	struct lk_cli_csp_flags csp_flags;   /* the constraint games' own flags */
};

/* ------------------------------------------------------------------ run */

struct run {
	const struct filter_ctx *ctx;
	struct lk_expr *expr;
	struct lk_dedupe seen;
	struct lk_top top;        /* --top */
	struct lk_writer writer;
	enum lk_view_format view;   /* a picture instead (view.h) */
	struct lk_view_writer view_writer;
	FILE *out;
	size_t kept, seq;
	int status;              /* 0, or 2 once any error was reported */
	bool write_failed;
	bool read_failed;        /* an input could not be read to its end */
	size_t records_read;
	uint64_t games_seen;     /* the games of the levels read (lk_game_bit) */
	/* fields missing from some record: reported for the first, counted
	 * for the others (a misspelt name fails on every record) */
	struct missing { char *name; size_t more; } *missing;
	size_t nmissing, missing_alloc;
	bool keep_failed;        /* the output replaces an input */
	size_t lossy_line;       /* a failed record that cannot be kept as read */
	bool columns_checked;    /* --fields, at the first level read */
	bool bad_columns;        /* --fields names a field there is not */
	/* --forall / --exists */
	struct lk_act_concept concept;
	struct lk_act_options act;
	struct lk_solver solver;
};

static void put(struct run *run, const struct lk_record *rec);

/* A record that cannot be judged: reported (on stderr unless quiet);
 * when the output replaces an input it is kept as it was read, with an
 * `error` field, since nothing may disappear from the user's file. */
static void report_as(struct run *run, struct lk_record *rec, size_t line, const char *msg,
		      bool quiet)
{
	if (!quiet)
		lk_error_at(rec->source, line ? line : rec->first_lineno, "%s", msg);
	run->status = 2;
	if (!run->keep_failed)
		return;
	if (rec->lossy) {
		if (!run->lossy_line)
			run->lossy_line = rec->first_lineno;
		return;
	}
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_strbuf_add_escaped(&text, msg, strlen(msg));
	lk_record_set(rec, "error", text.buf);
	lk_strbuf_release(&text);
	put(run, rec);
}

static void report(struct run *run, struct lk_record *rec, size_t line, const char *msg)
{
	report_as(run, rec, line, msg, false);
}

/* A record without a field the expression or --by names: the first one
 * for each name is reported with the names the record has, the others
 * only counted (said once at the end). */
static void report_missing(struct run *run, struct lk_record *rec, const char *name,
			   const char *msg)
{
	for (size_t i = 0; i < run->nmissing; i++)
		if (strcmp(run->missing[i].name, name) == 0) {
			run->missing[i].more++;
			report_as(run, rec, 0, msg, true);
			return;
		}
	LK_ALLOC_GROW(run->missing, run->nmissing + 1, run->missing_alloc);
	run->missing[run->nmissing++] = (struct missing){ lk_xstrdup(name), 0 };
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_strbuf_addstr(&text, msg);
	lk_expr_describe_fields(rec, name, &text);
	report_as(run, rec, 0, text.buf, false);
	lk_strbuf_release(&text);
}

/* The expression could not be evaluated on rec: a missing field, or
 * something else (reported as it is). */
static void report_eval(struct run *run, struct lk_record *rec, const char *msg)
{
	struct lk_strbuf buf = LK_STRBUF_INIT;
	const char *name = NULL;
	for (size_t i = 0; i < lk_expr_field_count(run->expr) && !name; i++)
		if (!lk_expr_value(rec, lk_expr_field(run->expr, i), &buf))
			name = lk_expr_field(run->expr, i);
	lk_strbuf_release(&buf);
	if (name && strstr(msg, "has no field"))
		report_missing(run, rec, name, msg);
	else
		report(run, rec, 0, msg);
}

static void put(struct run *run, const struct lk_record *rec)
{
	if (run->write_failed)
		return;
	if ((run->view ? lk_view_writer_put(&run->view_writer, rec) : lk_writer_put(&run->writer, rec)) < 0) {
		lk_error("%s: write error: %s", run->ctx->output ? run->ctx->output : "<stdout>",
			 strerror(errno));
		run->status = 2;
		run->write_failed = true;
	}
}

/* What a concept query made of one level (on any thread): kept apart
 * from the run so that the queries of several levels can run at once. */
struct verdict {
	int rc;                  /* lk_act_concept's: -1 the level cannot be asked */
	enum lk_truth answer;
	bool unsolvable;         /* solvable: no (a forall over nothing) */
	struct lk_strbuf err;    /* rc < 0: why; undecided: the bound or reason */
	size_t line;
};

static void verdict_release(struct verdict *v)
{
	lk_strbuf_release(&v->err);
}

static void ask_concept(const struct run *run, struct lk_solver *solver,
			const struct lk_record *rec, struct verdict *v)
{
	struct lk_record scratch = LK_RECORD_INIT;
	lk_strbuf_init(&v->err);
	v->answer = LK_MAYBE;
	v->line = 0;
	lk_record_copy(&scratch, rec);
	v->rc = lk_act_concept(solver, &scratch, &run->act, &run->concept, &v->answer, &v->err,
			       &v->line);
	if (v->rc == 0 && v->answer == LK_MAYBE) {
		const char *limit = lk_record_get(&scratch, "limit");
		const char *why = lk_record_get(&scratch, "undecided");
		lk_strbuf_addstr(&v->err, limit ? limit : why ? why : "unknown");
	}
	const char *solvable = lk_record_get(&scratch, "solvable");
	v->unsolvable = solvable && strcmp(solvable, "no") == 0;
	lk_record_release(&scratch);
}

/* --forall / --exists: does the level answer yes?  A level whose answer
 * is unknown (a bound was hit) is dropped with a note; one the query
 * cannot be asked of is reported.  The record itself is not changed. */
static bool concept_holds(struct run *run, struct lk_record *rec, const struct verdict *v)
{
	if (v->rc < 0) {
		report(run, rec, v->line, v->err.buf);
		return false;
	}
	if (v->answer == LK_MAYBE) {
		if (!lk_interrupted)
			lk_error_at(rec->source, rec->first_lineno, "undecided (%s), left out",
				    v->err.buf);
		return false;
	}
	/* a forall over no solution at all is not a level to keep */
	return v->answer == LK_TRUE && !v->unsolvable;
}

/* Decide one record read from the input; v is its concept query's
 * verdict when one ran (NULL: ask here, on the main thread). */
static void one_record(struct run *run, struct lk_record *rec, const struct verdict *v)
{
	const struct filter_ctx *ctx = run->ctx;
	struct lk_strbuf err = LK_STRBUF_INIT;

	if (lk_record_grid(rec, NULL) == 0) {
		/* A pack header: not a level, passed through as it comes. */
		if (!ctx->count)
			put(run, rec);
		return;
	}
	run->games_seen |= lk_game_bit(lk_record_game(rec));
	if (run->expr) {
		bool match;
		if (lk_expr_eval(run->expr, rec, &match, &err) < 0) {
			report_eval(run, rec, err.buf);
			goto out;
		}
		if (match == ctx->invert)
			goto out;
	}
	if (run->concept.concept) {
		struct verdict here;
		if (!v) {
			ask_concept(run, &run->solver, rec, &here);
			v = &here;
		}
		bool holds = concept_holds(run, rec, v);
		if (v == &here)
			verdict_release(&here);
		if (!holds)
			goto out;
	}
	if (ctx->dedupe) {
		static const struct lk_level_options defaults = { 0 };
		size_t line = 0;
		struct lk_level *level = lk_level_load(rec, &defaults, &err, &line);
		if (!level) {
			report(run, rec, line, err.buf);
			goto out;
		}
		bool fresh = lk_dedupe_add(&run->seen, level, rec);
		lk_level_free(level);
		if (!fresh)
			goto out;
	}
	int refused = ctx->count || run->view ? 0 : lk_writer_accepts(&run->writer, rec, &err);
	if (refused == -1)
		report(run, rec, 0, err.buf);
	if (refused < 0) {
		run->status = 2;   /* said once, counted at the end */
		goto out;
	}
	/* the record written as solve would write it (a PuzzleScript
	 * record's script by its absolute path), so that it stays usable
	 * from another directory */
	if (!ctx->count)
		lk_act_update_record(rec);
	if (ctx->top || ctx->progression) {
		struct lk_strbuf buf = LK_STRBUF_INIT;
		const char *by = ctx->by ? ctx->by : "difficulty";
		const char *value = lk_expr_value(rec, by, &buf);
		double key;
		if (!value) {
			lk_strbuf_addf(&err, "record %zu has no field '%s'", rec->number, by);
			report_missing(run, rec, by, err.buf);
		} else if (!lk_expr_number(value, strlen(value), &key)) {
			lk_strbuf_addf(&err, "record %zu: field '%s' is not a number: '%s'", rec->number,
				       by, value);
			report(run, rec, 0, err.buf);
		} else {
			lk_top_offer(&run->top, key, run->seq++, rec);
		}
		lk_strbuf_release(&buf);
		goto out;
	}
	run->kept++;
	if (!ctx->count)
		put(run, rec);
out:
	lk_strbuf_release(&err);
}

/* At the first level read: the --fields names checked against the
 * level's fields (filter writes none of its own), as solve and rate check
 * theirs, before any level is judged.  False when one names a field there
 * is not: the run ends, and its output is removed. */
static bool first_level(struct run *run, const struct lk_record *rec)
{
	if (!run->ctx->fields || run->columns_checked || !lk_record_grid(rec, NULL))
		return true;
	run->columns_checked = true;
	struct lk_strbuf err = LK_STRBUF_INIT;
	bool ok = lk_writer_check_columns(&run->writer, rec, &err) == 0;
	if (!ok) {
		lk_error("%s", err.buf);
		run->status = 2;
		run->bad_columns = true;
	}
	lk_strbuf_release(&err);
	return ok;
}

/* The one reading loop, on the ordered pool: the records are read in
 * order on the main thread and the expression is applied there; with
 * --forall/--exists the concept queries of the levels it keeps run on -j
 * workers (with one job, or without a concept, everything runs on the main
 * thread), and each record is then decided in input order (one_record), so
 * the output is that of one thread. */
struct slot {
	struct lk_record rec;
	int got;                 /* lk_reader_next's: 1 a record, -1 unreadable */
	size_t line;
	struct lk_strbuf read_err;
	bool asked;
	struct verdict v;
};

struct pooled {
	struct run *run;
	struct lk_inputs in;
};

static enum lk_pool_take pooled_take(void *ctx, uint64_t seq, void *vslot)
{
	(void)seq;
	struct pooled *p = ctx;
	struct slot *sl = vslot;
	lk_record_init(&sl->rec);
	lk_strbuf_init(&sl->read_err);
	for (;;) {
		lk_strbuf_reset(&sl->read_err);
		int got = p->run->write_failed || lk_interrupted ? LK_INPUT_END :
			  lk_inputs_next(&p->in, &sl->rec, &sl->read_err, &sl->line);
		if (got == LK_INPUT_END) {
			/* the pool keeps no slot it is not given: an earlier
			 * input's message goes here */
			lk_record_release(&sl->rec);
			lk_strbuf_release(&sl->read_err);
			return LK_POOL_END;
		}
		if (got == LK_INPUT_OPEN_ERROR) {
			lk_error("%s", sl->read_err.buf);
			p->run->status = 2;
			continue;
		}
		if (got == LK_INPUT_READ_ERROR) {
			/* an input that cannot be read on is said and left for
			 * the next one; a read cut by Ctrl-C ends the run quietly */
			if (!lk_interrupted) {
				lk_error_at(p->in.reader.name, sl->line, "%s", sl->read_err.buf);
				p->run->status = 2;
				p->run->read_failed = true;
			}
			continue;
		}
		p->run->records_read++;
		sl->got = got < 0 ? -1 : 1;
		if (got > 0 && !first_level(p->run, &sl->rec)) {
			lk_record_release(&sl->rec);
			lk_strbuf_release(&sl->read_err);
			return LK_POOL_END;
		}
		if (got < 0 || lk_record_grid(&sl->rec, NULL) == 0 || !p->run->concept.concept)
			return LK_POOL_READY;
		if (p->run->expr) {
			bool match;
			struct lk_strbuf err = LK_STRBUF_INIT;
			int rc = lk_expr_eval(p->run->expr, &sl->rec, &match, &err);
			lk_strbuf_release(&err);
			if (rc < 0 || match == p->run->ctx->invert)
				return LK_POOL_READY;   /* one_record says what */
		}
		return LK_POOL_WORK;
	}
}

static void *pooled_worker_new(void *ctx)
{
	const struct pooled *p = ctx;
	if (!p->run->concept.concept)
		return NULL;   /* nothing to search */
	struct lk_solver *s = lk_xmalloc(sizeof *s);
	lk_solver_init(s);
	return s;
}

static void pooled_worker_free(void *ctx, void *worker)
{
	(void)ctx;
	if (!worker)
		return;
	lk_solver_release(worker);
	free(worker);
}

static void pooled_work(void *ctx, void *worker, void *vslot)
{
	struct pooled *p = ctx;
	struct slot *sl = vslot;
	ask_concept(p->run, worker, &sl->rec, &sl->v);
	sl->asked = true;
}

static void slot_release(struct slot *sl)
{
	lk_record_release(&sl->rec);
	lk_strbuf_release(&sl->read_err);
	if (sl->asked)
		verdict_release(&sl->v);
}

static bool pooled_put(void *ctx, void *vslot)
{
	struct pooled *p = ctx;
	struct slot *sl = vslot;
	if (sl->got < 0) {
		report(p->run, &sl->rec, sl->line, sl->read_err.buf);
	} else if (sl->asked) {
		one_record(p->run, &sl->rec, &sl->v);
	} else {
		/* a header, or a record the expression decides: no query */
		one_record(p->run, &sl->rec, NULL);
	}
	slot_release(sl);
	return !p->run->write_failed;
}

static void pooled_drop(void *ctx, void *vslot)
{
	(void)ctx;
	slot_release(vslot);
}

static void read_pooled(struct run *run, char **files, int nfiles, unsigned jobs)
{
	struct pooled p = { .run = run };
	lk_inputs_init(&p.in, files, nfiles);
	struct lk_pool_ops ops = {
		.ctx = &p,
		.slot_size = sizeof(struct slot),
		.worker_new = pooled_worker_new,
		.worker_free = pooled_worker_free,
		.take = pooled_take,
		.work = pooled_work,
		.put = pooled_put,
		.drop = pooled_drop,
		.cancel = &lk_interrupted,
		.jobs = jobs,
		.inline_single = true,
	};
	lk_pool_run(&ops);
	lk_inputs_close(&p.in);
}

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
	lk_cli_choose_format(ctx->format, ctx->output, ctx->color, &format, view);
	lk_cli_check_title(ctx->title, *view);
	if (ctx->count && *view == LK_VIEW_ANSI && !ctx->format)
		*view = LK_VIEW_NONE;   /* a count is a number, not a level */
	if (ctx->count && *view)
		lk_usage_error("--count prints a number; it makes no -f %s",
			       ctx->format ? ctx->format : "picture");
	if (ctx->top && ctx->progression)
		lk_usage_error("--top and --progression each choose the levels: give one");
	if (ctx->by && !ctx->top && !ctx->progression)
		lk_usage_error("--by needs --top or --progression");
	if (ctx->asc && !ctx->top)
		lk_usage_error("--asc needs --top");
	if (ctx->top && !ctx->by)
		lk_usage_error("--top needs --by FIELD");
	if (ctx->chapter != 5 && !ctx->progression)
		lk_usage_error("--chapter needs --progression");
	if (ctx->fields && (format != LK_FORMAT_TSV || *view))
		lk_usage_error("--fields chooses the columns of -f tsv");
	lk_cli_check_fields(ctx->fields);
	if (ctx->by && !valid_field_name(ctx->by))
		lk_usage_error("--by: '%s' is not a field name", ctx->by);
	return format;
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
		} else if (!(ctx->dedupe || ctx->top || ctx->progression || ctx->forall || ctx->exists) ||
			   !is_input((*files)[0])) {
			expression_error(&err);
		}
	} else if (!(ctx->dedupe || ctx->top || ctx->progression || ctx->forall || ctx->exists)) {
		lk_usage_error("no expression given");
	}
	lk_strbuf_release(&err);
	if (ctx->invert && !expr)
		lk_usage_error("--invert needs an expression");
	return expr;
}

/* --forall or --exists: the concept and the bounds of its searches. */
static void take_concept(struct filter_ctx *ctx, struct run *run)
{
	lk_solver_init(&run->solver);
	if (ctx->jobs == 0)
		ctx->jobs = lk_cpu_count();
	if (ctx->jobs > 1024)
		lk_usage_error("--jobs %lu is too many", ctx->jobs);
	if (ctx->jobs > 1 && !(ctx->forall || ctx->exists))
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
	run->concept.concept = lk_expr_parse_concept(text, &err);
	if (!run->concept.concept)
		lk_usage_error("bad concept '%s': %s", text, err.buf);
	lk_strbuf_release(&err);
	run->concept.text = text;
	run->concept.quantifier = ctx->forall ? LK_FORALL : LK_EXISTS;
	lk_act_options_init(&run->act);
	lk_bounds_finish(&ctx->bounds, ctx->jobs, &lk_interrupted);
	run->act.search.bounds = ctx->bounds;
	run->act.csp.bounds = ctx->bounds;
	lk_cli_csp_flags_finish(&ctx->csp_flags, &run->act.csp);
}

static int by_seq(const void *va, const void *vb)
{
	const struct lk_top_item *a = va, *b = vb;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* --progression: the chosen levels, in the order of the curve. */
static void write_progression(struct run *run)
{
	struct lk_top *h = &run->top;
	qsort(h->items, h->n, sizeof *h->items, by_seq);   /* ties by input order */
	double *keys = lk_xmalloc(h->n * sizeof *keys);
	size_t *order = lk_xmalloc(h->n * sizeof *order);
	for (size_t i = 0; i < h->n; i++)
		keys[i] = h->items[i].key;
	size_t n = lk_progression(keys, h->n, run->ctx->progression, run->ctx->chapter, order);
	for (size_t i = 0; i < n && !run->write_failed; i++) {
		run->kept++;
		if (!run->ctx->count)
			put(run, &h->items[order[i]].rec);
	}
	free(order);
	free(keys);
}

int main(int argc, char **argv)
{
	struct filter_ctx ctx = { .jobs = 1, .chapter = 5 };
	lk_cli_csp_flags_init(&ctx.csp_flags);
	struct lk_option opts[] = {
		LK_OPT_GROUP_("Selection"),
		{ LK_OPT_STRING, 'e', "expression", &ctx.expr_text, "expr",
		  "the expression (then every operand is a file)", NULL },
		{ LK_OPT_FLAG, 'v', "invert", &ctx.invert, NULL,
		  "keep the level records that do not match", NULL },
		{ LK_OPT_FLAG, 0, "dedupe", &ctx.dedupe, NULL,
		  "drop levels equal to an earlier one up to symmetry and translation", NULL },
		{ LK_OPT_CALLBACK, 0, "top", &ctx.top, "k",
		  "keep the k records with the largest --by field, sorted", parse_top },
		{ LK_OPT_STRING, 0, "by", &ctx.by, "field", "the numeric field --top sorts by", NULL },
		{ LK_OPT_FLAG, 0, "asc", &ctx.asc, NULL, "--top keeps the smallest instead", NULL },
		{ LK_OPT_CALLBACK, 0, "progression", &ctx.progression, "n",
		  "choose n levels (at most 2000) and order them so that --by (default\n"
		  "difficulty) rises with dips", parse_progression },
		{ LK_OPT_UINT, 0, "chapter", &ctx.chapter, "c",
		  "--progression: levels per rise before a dip (default 5; 0: no dips)", NULL },
		LK_OPT_GROUP_("Concepts (docs/concepts.md): a search per level"),
		{ LK_OPT_STRING, 0, "forall", &ctx.forall, "concept",
		  "keep the levels that have a solution and whose every solution satisfies\n"
		  "the concept (no shortcut), e.g. 'count(push) >= 30'", NULL },
		{ LK_OPT_STRING, 0, "exists", &ctx.exists, "concept",
		  "keep the levels with a solution that satisfies the concept", NULL },
		{ .type = LK_OPT_TABLE, .value = ctx.csp_flags.opts },
		{ LK_OPT_U64, 0, "max-states", &ctx.bounds.max_states, "n", "states stored per level, every one met (default: none)", NULL },
		{ LK_OPT_SIZE, 0, "max-memory", &ctx.bounds.max_memory, "bytes",
		  "memory per level (default: RAM / (jobs + 1), at most 4G)", NULL },
		{ LK_OPT_SECONDS, 't', "timeout", &ctx.bounds.max_seconds, "secs",
		  "time per level (default 10 s); an undecided level is left out", NULL },
		{ LK_OPT_UINT, 'j', "jobs", &ctx.jobs, "n",
		  "levels searched at once (default 1; 0: every core)", NULL },
		LK_OPT_GROUP_("Output"),
		{ LK_OPT_FLAG, 'c', "count", &ctx.count, NULL,
		  "print only the number of level records kept", NULL },
		{ LK_OPT_STRING, 'f', "format", &ctx.format, "fmt", LK_CLI_FORMAT_HELP, NULL },
		{ LK_OPT_STRING, 0, "color", &ctx.color, "when", LK_CLI_COLOR_HELP, NULL },
		{ LK_OPT_STRING, 0, "title", &ctx.title, "text", LK_CLI_TITLE_HELP, NULL },
		{ LK_OPT_STRING, 0, "fields", &ctx.fields, "a,b,...",
		  "tsv: these columns, in this order (record and title included)", NULL },
		{ LK_OPT_STRING, 'o', "output", &ctx.output, "file", "write to file instead of stdout", NULL },
		{ LK_OPT_FLAG, 0, "force", &ctx.force, NULL,
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

	/* --progression keeps every candidate: the choice needs them all */
	struct run run = { .ctx = &ctx, .expr = expr, .view = view };
	lk_top_init(&run.top, ctx.progression ? SIZE_MAX : ctx.top, ctx.asc);
	take_concept(&ctx, &run);
	static char *stdin_only[] = { "-" };
	struct lk_output output;
	/* a picture replaces an input only with --force, as other formats */
	if (lk_output_open_said(&output, ctx.output, nfiles ? files : stdin_only, nfiles ? nfiles : 1,
			       view ? LK_FORMAT_TSV : format, ctx.force) < 0) {
		lk_expr_free(expr);
		lk_expr_free((struct lk_expr *)run.concept.concept);
		lk_solver_release(&run.solver);
		return 2;
	}
	run.out = output.fp;
	run.keep_failed = output.replaces_input;
	lk_writer_init(&run.writer, run.out, format, NULL);
	if (view)
		lk_pipeline_view_open(&run.view_writer, run.out, view, ctx.title, nfiles ? files : stdin_only,
				      nfiles ? nfiles : 1);
	if (ctx.fields) {
		struct lk_strbuf ferr = LK_STRBUF_INIT;
		if (lk_writer_choose_columns(&run.writer, ctx.fields, &ferr) < 0)
			lk_usage_error("%s", ferr.buf);
		lk_strbuf_release(&ferr);
	}
	lk_pipeline_install_signals();
	if (ctx.dedupe)
		lk_dedupe_init(&run.seen);

	read_pooled(&run, files, nfiles, (unsigned)ctx.jobs);

	if (ctx.progression && run.top.n > 0)
		write_progression(&run);
	if (ctx.top && run.top.n > 0) {
		lk_top_sort(&run.top);
		for (size_t i = 0; i < run.top.n; i++) {
			run.kept++;
			if (!ctx.count)
				put(&run, &run.top.items[i].rec);
		}
	}
	if (run.writer.refused > 1)
		lk_error("%zu levels in all were not written (%s)", run.writer.refused,
			 lk_writer_refusal(&run.writer));
	if (ctx.count && !run.write_failed) {
		fprintf(run.out, "%zu\n", run.kept);
		if (fflush(run.out) != 0) {
			lk_error("%s: write error: %s", ctx.output ? ctx.output : "<stdout>",
				 strerror(errno));
			run.status = 2;
		}
	}
	for (size_t i = 0; i < run.nmissing; i++) {
		if (run.missing[i].more)
			lk_error("%zu more record%s had no field '%s' (not reported one by one)",
				 run.missing[i].more, run.missing[i].more == 1 ? "" : "s",
				 run.missing[i].name);
		free(run.missing[i].name);
	}
	free(run.missing);
	if (run.concept.concept && run.records_read && !lk_interrupted)
		for (size_t k = 0; k < ctx.csp_flags.n; k++)
			lk_warn_unapplied(run.games_seen, ctx.csp_flags.opts[k].long_name,
					      lk_game_has_csp_flag, ctx.csp_flags.opts[k].long_name);

	lk_writer_release(&run.writer);
	if (view) {
		/* the page's or sheet's end, also after Ctrl-C */
		if (!run.write_failed && lk_view_writer_finish(&run.view_writer) < 0) {
			lk_error("%s: write error: %s", ctx.output ? ctx.output : "<stdout>", strerror(errno));
			run.status = 2;
			run.write_failed = true;
		}
		lk_view_writer_release(&run.view_writer);
	}
	/* An input is replaced only by a complete output that kept every
	 * record it was not asked to drop. */
	if (output.tmp && run.lossy_line)
		lk_error_at(ctx.output, run.lossy_line, "this record cannot be kept as it was read "
			    "(a NUL byte), so the input is not replaced");
	if (lk_output_close_said(&output, !lk_interrupted && !run.write_failed && !run.lossy_line &&
				!run.read_failed && !run.bad_columns,
				run.records_read == 0 || run.bad_columns) < 0)
		run.status = 2;
	lk_top_release(&run.top);
	if (ctx.dedupe)
		lk_dedupe_release(&run.seen);
	lk_expr_free(expr);
	lk_expr_free((struct lk_expr *)run.concept.concept);
	lk_solver_release(&run.solver);
	if (lk_interrupted && !run.write_failed)
		return 130;
	if (run.status)
		return run.status;
	return run.kept ? 0 : 1;
}
