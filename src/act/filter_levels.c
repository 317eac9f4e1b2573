/*
 * filter_levels.c - the filter action (filter.h) on the record pipeline: the
 * expression, the concept query (on the workers), --dedupe, then --top or
 * --progression, decided record by record in input order; records held
 * back for --top and --progression are written at the end.  A record
 * without a field the expression or --by names is reported for the first
 * of each name, and only counted after it (a misspelt name fails on every
 * record).
 */
#include "levelkit/filter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/dedupe.h"
#include "levelkit/options.h"
#include "levelkit/pipeline.h"
#include "levelkit/progression.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "levelkit/top.h"

struct filter_run {
	struct lk_filter *f;
	struct lk_dedupe seen;
	struct lk_top top;        /* --top, --progression */
	size_t seq;
	struct lk_solver solver;  /* a concept query asked on the main thread */
	/* fields missing from some record: the first reported, the others
	 * counted (said once at the end) */
	struct missing { char *name; size_t more; } *missing;
	size_t nmissing, missing_alloc;
};

/* What a concept query made of one level (on any thread). */
struct verdict {
	int rc;                  /* lk_act_concept's: -1 the level cannot be asked */
	enum lk_truth answer;
	bool unsolvable;         /* solvable: no (a forall over nothing) */
	struct lk_strbuf err;    /* rc < 0: why; undecided: the bound or reason */
	size_t line;
};

static void verdict_free(void *result)
{
	struct verdict *v = result;
	lk_strbuf_release(&v->err);
	free(v);
}

/* Ask the concept of a copy of the level: the record is not changed. */
static struct verdict *ask_concept(const struct lk_filter *f, struct lk_solver *solver,
				   const struct lk_record *rec)
{
	struct verdict *v = lk_xcalloc(1, sizeof *v);
	struct lk_record scratch = LK_RECORD_INIT;
	lk_strbuf_init(&v->err);
	v->answer = LK_MAYBE;
	lk_record_copy(&scratch, rec);
	v->rc = lk_act_concept(solver, &scratch, &f->act, &f->concept, &v->answer, &v->err, &v->line);
	if (v->rc == 0 && v->answer == LK_MAYBE) {
		const char *limit = lk_record_get(&scratch, "limit");
		const char *why = lk_record_get(&scratch, "undecided");
		lk_strbuf_addstr(&v->err, limit ? limit : why ? why : "unknown");
	}
	const char *solvable = lk_record_get(&scratch, "solvable");
	v->unsolvable = solvable && strcmp(solvable, "no") == 0;
	lk_record_release(&scratch);
	return v;
}

static void fail(struct lk_decision *d, size_t line, const char *msg)
{
	d->keep = false;
	d->fail = true;
	d->err_line = line;
	if (msg != d->err->buf) {
		lk_strbuf_reset(d->err);
		lk_strbuf_addstr(d->err, msg);
	}
}

/* A record without the field `name`: the first for each name is reported
 * with the fields the record has, the others only counted. */
static void fail_missing(struct filter_run *run, struct lk_decision *d, const char *name)
{
	for (size_t i = 0; i < run->nmissing; i++)
		if (strcmp(run->missing[i].name, name) == 0) {
			run->missing[i].more++;
			fail(d, 0, d->err->buf);
			d->quiet = true;
			return;
		}
	LK_ALLOC_GROW(run->missing, run->nmissing + 1, run->missing_alloc);
	run->missing[run->nmissing++] = (struct missing){ lk_xstrdup(name), 0 };
	lk_expr_describe_fields(d->rec, name, d->err);
	fail(d, 0, d->err->buf);
}

/* The expression could not be evaluated: a missing field, or something
 * else (reported as it is). */
static void fail_eval(struct filter_run *run, struct lk_decision *d)
{
	const struct lk_expr *expr = run->f->expr;
	struct lk_strbuf buf = LK_STRBUF_INIT;
	const char *name = NULL;
	for (size_t i = 0; i < lk_expr_field_count(expr) && !name; i++)
		if (!lk_expr_value(d->rec, lk_expr_field(expr, i), &buf))
			name = lk_expr_field(expr, i);
	lk_strbuf_release(&buf);
	if (name && strstr(d->err->buf, "has no field"))
		fail_missing(run, d, name);
	else
		fail(d, 0, d->err->buf);
}

/* Does the level pass the expression?  -1: it could not be evaluated. */
static int matches(const struct lk_filter *f, const struct lk_record *rec, struct lk_strbuf *err)
{
	bool match;
	if (!f->expr)
		return 1;
	if (lk_expr_eval(f->expr, rec, &match, err) < 0)
		return -1;
	return match != f->invert;
}

static bool wants_work(void *ctx, const struct lk_record *rec)
{
	struct filter_run *run = ctx;
	struct lk_strbuf err = LK_STRBUF_INIT;
	int m = matches(run->f, rec, &err);
	lk_strbuf_release(&err);
	return m > 0;   /* decide says why not */
}

static int ask(void *ctx, struct lk_job *job)
{
	struct filter_run *run = ctx;
	job->result = ask_concept(run->f, job->worker, job->rec);
	return 0;
}

/* --forall / --exists: does the level answer yes?  One whose answer is
 * unknown (a bound was hit) is left out with a note; one the query cannot
 * be asked of fails. */
static bool concept_holds(struct lk_decision *d, const struct verdict *v)
{
	if (v->rc < 0) {
		fail(d, v->line, v->err.buf);
		return false;
	}
	if (v->answer == LK_MAYBE) {
		if (!lk_interrupted)
			lk_error_at(d->rec->source, d->rec->first_lineno, "undecided (%s), left out",
				    v->err.buf);
		return false;
	}
	/* a forall over no solution at all is not a level to keep */
	return v->answer == LK_TRUE && !v->unsolvable;
}

/* Is the level new (--dedupe)?  False after a failure too. */
static bool fresh(struct filter_run *run, struct lk_decision *d)
{
	static const struct lk_level_options defaults = { 0 };
	size_t line = 0;
	struct lk_level *level = lk_level_load(d->rec, &defaults, d->err, &line);
	if (!level) {
		fail(d, line, d->err->buf);
		return false;
	}
	bool is_new = lk_dedupe_add(&run->seen, level, d->rec);
	lk_level_free(level);
	return is_new;
}

/* --top, --progression: the record is held back by its --by value. */
static void hold(struct filter_run *run, struct lk_decision *d)
{
	const char *by = run->f->by ? run->f->by : "difficulty";
	struct lk_strbuf buf = LK_STRBUF_INIT;
	const char *value = lk_expr_value(d->rec, by, &buf);
	double key;
	d->keep = false;
	if (!value) {
		lk_strbuf_addf(d->err, "record %zu has no field '%s'", d->rec->number, by);
		fail_missing(run, d, by);
	} else if (!lk_expr_number(value, strlen(value), &key)) {
		lk_strbuf_addf(d->err, "record %zu: field '%s' is not a number: '%s'",
			       d->rec->number, by, value);
		fail(d, 0, d->err->buf);
	} else {
		lk_top_offer(&run->top, key, run->seq++, d->rec);
	}
	lk_strbuf_release(&buf);
}

/* One record read, in input order: the expression, the concept, --dedupe,
 * whether the output can hold it, then kept or held back. */
static void decide(void *ctx, struct lk_decision *d)
{
	struct filter_run *run = ctx;
	struct lk_filter *f = run->f;
	if (lk_record_grid(d->rec, NULL) == 0) {
		d->keep = !f->count;   /* a pack header passes through */
		return;
	}
	f->games_seen |= lk_game_bit(lk_record_game(d->rec));
	d->keep = false;
	int m = matches(f, d->rec, d->err);
	if (m < 0)
		fail_eval(run, d);
	if (m <= 0)
		return;
	if (f->concept.concept) {
		const struct verdict *v = d->result;
		struct verdict *here = v ? NULL : ask_concept(f, &run->solver, d->rec);
		bool holds = concept_holds(d, v ? v : here);
		if (here)
			verdict_free(here);
		if (!holds)
			return;
	}
	if (f->dedupe && !fresh(run, d))
		return;
	int refused = f->count || !d->writer ? 0 : lk_writer_accepts(d->writer, d->rec, d->err);
	if (refused == -1)
		fail(d, 0, d->err->buf);
	if (refused < 0) {
		d->status = 2;   /* said once, counted at the end */
		return;
	}
	/* written as solve would write it (a PuzzleScript record's script by
	 * its absolute path), so that it stays usable from elsewhere */
	if (!f->count)
		lk_act_update_record(d->rec);
	if (f->top || f->progression) {
		hold(run, d);
		return;
	}
	f->kept++;
	d->keep = !f->count;
}

static int by_seq(const void *va, const void *vb)
{
	const struct lk_top_item *a = va, *b = vb;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* --progression: the chosen levels, in the order of the curve. */
static void write_progression(struct filter_run *run, struct lk_pipeline_run *out)
{
	struct lk_top *h = &run->top;
	qsort(h->items, h->n, sizeof *h->items, by_seq);   /* ties by input order */
	double *keys = lk_xmalloc(h->n * sizeof *keys);
	size_t *order = lk_xmalloc(h->n * sizeof *order);
	for (size_t i = 0; i < h->n; i++)
		keys[i] = h->items[i].key;
	size_t n = lk_progression(keys, h->n, run->f->progression, run->f->chapter, order);
	for (size_t i = 0; i < n; i++) {
		run->f->kept++;
		if (!run->f->count && !lk_pipeline_put(out, &h->items[order[i]].rec))
			break;
	}
	free(order);
	free(keys);
}

/* The end of the run: the records held back, the count, the missing
 * fields not reported one by one. */
static void finish(void *ctx, struct lk_pipeline_run *out)
{
	struct filter_run *run = ctx;
	struct lk_filter *f = run->f;
	if (f->progression && run->top.n > 0)
		write_progression(run, out);
	if (f->top && run->top.n > 0) {
		lk_top_sort(&run->top);
		for (size_t i = 0; i < run->top.n; i++) {
			f->kept++;
			if (!f->count)
				lk_pipeline_put(out, &run->top.items[i].rec);
		}
	}
	if (f->count) {
		char text[32];
		snprintf(text, sizeof text, "%zu\n", f->kept);
		lk_pipeline_print(out, text);
	}
	for (size_t i = 0; i < run->nmissing; i++)
		if (run->missing[i].more)
			lk_error("%zu more record%s had no field '%s' (not reported one by one)",
				 run->missing[i].more, run->missing[i].more == 1 ? "" : "s",
				 run->missing[i].name);
}

void lk_filter_init(struct lk_filter *f)
{
	memset(f, 0, sizeof *f);
	f->chapter = 5;
	f->jobs = 1;
	lk_act_options_init(&f->act);
}

int lk_filter_run(struct lk_filter *f, char **files, int nfiles)
{
	struct filter_run run = { .f = f };
	bool concept = f->concept.concept != NULL;
	/* --progression keeps every candidate: the choice needs them all */
	lk_top_init(&run.top, f->progression ? SIZE_MAX : f->top, f->ascending);
	lk_dedupe_init(&run.seen);
	lk_solver_init(&run.solver);
	struct lk_pipeline p = {
		.ctx = &run,
		.worker_new = concept ? lk_pipeline_solver_new : NULL,
		.worker_free = concept ? lk_pipeline_solver_free : NULL,
		.process = concept ? ask : NULL,
		.wants_work = wants_work,
		.decide = decide,
		.finish = finish,
		.result_free = verdict_free,
		.quiet = true,
		.format = f->format,
		.view = f->view,
		.fields = f->fields,
		.jobs = (unsigned)f->jobs,
		.output = f->output,
		.title = f->title,
		.force = f->force,
	};
	f->kept = 0;
	f->games_seen = 0;
	int rc = lk_pipeline_run(&p, files, nfiles);
	f->records_read = p.records_read;
	for (size_t i = 0; i < run.nmissing; i++)
		free(run.missing[i].name);
	free(run.missing);
	lk_top_release(&run.top);
	lk_dedupe_release(&run.seen);
	lk_solver_release(&run.solver);
	if (rc == 130 || rc == 2)
		return rc;
	return f->kept ? 0 : 1;
}
