/*
 * pipeline.h - the loop every record-processing command shares: read
 * records from files or stdin, process level records on -j worker threads,
 * write results in input order to stdout or -o, report bad records as
 * "prog: file:line: message" and keep going.
 *
 * Records without a grid (pack headers) pass through unchanged.  A record
 * that is malformed, or that its processor rejects, is reported and left
 * out of the output (the exit status is then 2), except when the output
 * replaces an input: then nothing may disappear, and it is written as it
 * was read with an `error` field.  Output is flushed after every record,
 * so nothing already written is lost if a run is stopped.
 *
 * -o never replaces an existing file that is not an input unless --force
 * is given, and replaces an input only in text format (or with --force).
 */
#ifndef LEVELKIT_PIPELINE_H
#define LEVELKIT_PIPELINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "levelkit/actions.h"
#include "levelkit/record.h"
#include "levelkit/strbuf.h"
#include "levelkit/view.h"

/* Set by SIGINT/SIGTERM once their handler is installed (by
 * lk_pipeline_run, or lk_pipeline_install_signals for other loops). */
extern volatile sig_atomic_t lk_interrupted;
void lk_pipeline_install_signals(void);

struct lk_job {
	struct lk_record *rec;   /* the level record; processors edit its fields */
	struct lk_strbuf *err;   /* message when the processor fails */
	size_t err_line;         /* its source line (0: the record's first line) */
	void *worker;            /* the worker's private state */
	bool negative;           /* processed, with a negative answer (a
				  * solution that does not verify): exit 1 */
	void *result;            /* what the processor leaves for decide */
	unsigned threads;        /* threads the job may use, itself included
				  * (1; more with lk_pipeline.share_spare) */
};

/* The command's decision on one record read (decide, below). */
struct lk_decision {
	struct lk_record *rec;           /* a level or a record without a grid */
	void *result;                    /* the processor's (job->result), or NULL */
	struct lk_writer *writer;        /* the output's; NULL for a picture */
	bool keep;                       /* in: true; out: write rec now */
	bool fail;                       /* out: a failed record, as when the
					  * processor fails: reported with err */
	bool quiet;                      /* out: failed, but not said again */
	int status;                      /* out: the least exit status now */
	struct lk_strbuf *err;
	size_t err_line;                 /* 0: the record's first line */
};

/* The run a finish hook writes to (lk_pipeline_put, lk_pipeline_print). */
struct lk_pipeline_run;

struct lk_pipeline {
	void *ctx;                                /* command options, read-only */
	/* Per-worker state (e.g. a reusable solver); may be NULL. */
	void *(*worker_new)(void *ctx);
	void (*worker_free)(void *worker);
	/* Process one level record: 0 to output it, -1 to report and skip it.
	 * NULL: no level is processed. */
	int (*process)(void *ctx, struct lk_job *job);
	/* filter's hooks, NULL for solve and rate: which levels to process
	 * (NULL: all); the decision on every record that was read and did not
	 * fail, in input order on the main thread (NULL: keep); the end of a
	 * run, before the output is closed (records held back); and how to
	 * free a job's result. */
	bool (*wants_work)(void *ctx, const struct lk_record *rec);
	void (*decide)(void *ctx, struct lk_decision *d);
	void (*finish)(void *ctx, struct lk_pipeline_run *run);
	void (*result_free)(void *result);
	bool quiet;                               /* no progress line, and no
						   * "no levels read" (filter) */

	enum lk_format format;
	enum lk_view_format view;                 /* a picture instead (view.h) */
	/* tsv: the command's own fields are those the action writes for the
	 * first level's game under these options (lk_act_fields), every one
	 * of them whatever that level's outcome; always_columns among them
	 * come last (e.g. limit) */
	enum lk_act_kind kind;
	const struct lk_act_options *act;
	const char *const *always_columns;
	const char *fields;                       /* --fields: the tsv columns */
	unsigned jobs;                            /* worker threads (1 = inline) */
	/* A level that starts once the input has ended, with fewer levels
	 * left than jobs, gets its share of the idle threads (lk_job.threads;
	 * lk_pool_ops.share_spare): solve's --split auto. */
	bool share_spare;
	const char *output;                       /* -o FILE, or NULL for stdout */
	const char *title;                        /* --title: the page's, or NULL */
	bool force;                               /* --force: -o may replace any file */
	const char *noun;                         /* "solved", "rated": progress */

	/* set by lk_pipeline_run: the level records read, and the games of
	 * those (bit i: lk_games[i]) */
	size_t levels_read, records_read;
	uint64_t games_seen;
};

/* Run over files (nfiles == 0 means stdin) and return the exit status
 * (README's table): 0 all records processed, 1 some answer was negative
 * (job->negative) or no level was read at all ("no levels read"), 2 some
 * record could not be read or processed, or a usage or I/O error, 130
 * when interrupted.  An input that could not be read to its end is never
 * replaced by -o; the file -o created is removed when no record at all
 * could be read. */
int lk_pipeline_run(struct lk_pipeline *p, char **files, int nfiles);

/* A worker's state for the solving commands: one reusable solver. */
void *lk_pipeline_solver_new(void *ctx);
void lk_pipeline_solver_free(void *worker);

/* From a finish hook: write a record, or text (then flushed); false once
 * a write has failed (said, exit 2). */
bool lk_pipeline_put(struct lk_pipeline_run *run, const struct lk_record *rec);
bool lk_pipeline_print(struct lk_pipeline_run *run, const char *text);

/* Start a view writer on out, titled title (--title), or when it is NULL
 * with the command and its inputs. */
void lk_pipeline_view_open(struct lk_view_writer *w, FILE *out, enum lk_view_format view,
			   const char *title, char *const *files, int nfiles);

/* The -o output of a record command under the library's one rule
 * (actions.h: lk_output_open), its messages said on stderr: 0, or -1
 * after a message (then exit 2).  stdin stands for no inputs. */
int lk_output_open_said(struct lk_output *o, const char *path, char *const *inputs,
			int ninputs, enum lk_format format, bool force);
/* lk_output_close, its messages said: 0, or -1 after a message. */
int lk_output_close_said(struct lk_output *o, bool replace, bool nothing_read);

#endif
