/*
 * filter.h - the filter action over a stream of records: keep the levels
 * whose fields satisfy an expression and, with a concept, whose every or
 * some solution satisfies it; drop duplicates; keep the K best by a field
 * or choose a progression.  It runs on the record pipeline (pipeline.h):
 * the concept searches on -j workers, every decision in input order on
 * the main thread.  The `filter` command is its options (src/cli/filter.c);
 * docs/filter.md says what each does.
 */
#ifndef LEVELKIT_FILTER_H
#define LEVELKIT_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/actions.h"
#include "levelkit/expr.h"
#include "levelkit/record.h"
#include "levelkit/view.h"

struct lk_filter {
	/* what to keep, in this order */
	const struct lk_expr *expr;       /* NULL: every level */
	bool invert;                      /* keep the levels expr rejects */
	struct lk_act_concept concept;    /* concept.concept NULL: none */
	struct lk_act_options act;        /* the concept searches' options */
	bool dedupe;                      /* drop a level equal to an earlier one */
	unsigned long top;                /* keep the top best by `by` (0: all) */
	bool ascending;                   /* top: the smallest instead */
	unsigned long progression;        /* choose this many (0: no) */
	unsigned long chapter;            /* progression: levels per rise */
	const char *by;                   /* top, progression (NULL: difficulty) */
	bool count;                       /* write the number kept, not them */
	/* the output: as the pipeline's (pipeline.h) */
	enum lk_format format;
	enum lk_view_format view;
	const char *fields, *output, *title;
	bool force;
	unsigned long jobs;               /* concept searches at once */
	/* after lk_filter_run: what was read and kept */
	size_t records_read, kept;
	uint64_t games_seen;
};

/* Initialise f to keep every level (progression's chapter 5). */
void lk_filter_init(struct lk_filter *f);

/* Run over files (nfiles == 0: stdin), writing to f->output or stdout;
 * returns the exit status, as grep's: 0 a level was kept, 1 none, 2 an
 * error (a record reported, or I/O), 130 interrupted. */
int lk_filter_run(struct lk_filter *f, char **files, int nfiles);

#endif
