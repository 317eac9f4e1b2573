/*
 * pipeline.h - the loop every record-processing command shares: read
 * records from files or stdin, process level records on -j worker threads,
 * write results in input order to stdout or -o, report bad records as
 * "prog: file:line: message" and keep going.
 *
 * Records without a grid (pack headers) pass through unchanged.  A record
 * that is malformed, or that its processor rejects, is reported and left
 * out of the output; the exit status is then 1.  Output is flushed after
 * every record, so nothing already written is lost if a run is stopped.
 */
#ifndef LEVELKIT_CLI_PIPELINE_H
#define LEVELKIT_CLI_PIPELINE_H

#include <signal.h>
#include <stdbool.h>

#include "levelkit/record.h"
#include "levelkit/strbuf.h"

/* Set by SIGINT/SIGTERM once their handler is installed (by
 * lk_pipeline_run, or lk_pipeline_install_signals for other loops). */
extern volatile sig_atomic_t lk_interrupted;
void lk_pipeline_install_signals(void);

struct lk_job {
	struct lk_record *rec;   /* the level record; processors edit its fields */
	struct lk_strbuf *err;   /* message when the processor fails */
	size_t err_line;         /* its source line (0: the record's first line) */
	void *worker;            /* the worker's private state */
};

struct lk_pipeline {
	void *ctx;                                /* command options, read-only */
	/* Per-worker state (e.g. a reusable solver); may be NULL. */
	void *(*worker_new)(void *ctx);
	void (*worker_free)(void *worker);
	/* Process one level record: 0 to output it, -1 to report and skip it. */
	int (*process)(void *ctx, struct lk_job *job);

	enum lk_format format;
	const char *const *columns;               /* the command's own fields (tsv) */
	unsigned jobs;                            /* worker threads (1 = inline) */
	const char *output;                       /* -o FILE, or NULL for stdout */
	const char *noun;                         /* "solved", "rated": progress */
};

/* Run over files (nfiles == 0 means stdin) and return the exit status:
 * 0 all records processed, 1 some record failed, 2 I/O error, 130 when
 * interrupted. */
int lk_pipeline_run(struct lk_pipeline *p, char **files, int nfiles);

#endif
