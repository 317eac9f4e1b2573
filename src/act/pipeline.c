/*
 * pipeline.c - the record commands' loop on the ordered pool (pool.h): the
 * main thread reads records into slots and writes them back in input
 * order; workers process the level records.  Reading, writing and the
 * progress line are here; the threads and the ring are the pool's.  In
 * the library, so that a test runs it without a process (test_pipeline.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "levelkit/pipeline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "levelkit/options.h"
#include "levelkit/pool.h"

volatile sig_atomic_t lk_interrupted;

struct slot {
	struct lk_record rec;
	bool output;             /* write rec when its turn comes */
	bool negative;           /* a negative answer (exit 1) */
	bool lossy;              /* rec is not the record as read (a NUL byte) */
	struct lk_strbuf message; /* complete "prog: file:line: ..." text */
	struct lk_strbuf error;   /* the message alone, for the `error` field */
	bool failed;             /* reported (message, unless said quietly) */
	void *result;            /* what the processor left for the decision */
};

struct lk_pipeline_run {
	struct lk_pipeline *p;
	/* input */
	char **files;
	int nfiles;
	struct lk_inputs in;
	/* output */
	FILE *out;
	struct lk_writer writer;
	struct lk_view_writer view;   /* when p->view: a picture instead */
	int status;
	bool keep_failed;        /* the output replaces an input */
	size_t lossy_line;       /* a record that cannot be kept verbatim */
	bool write_failed;
	bool read_failed;        /* an input could not be read to its end */
	const char *lossy_file;
	/* what was read: records of any kind, level records, and the games
	 * of the levels (bit i: lk_games[i]) */
	size_t records_read, levels_read;
	uint64_t games_seen;
	/* tsv: the command's own columns, for the first level's game */
	const char **own_columns;
	bool columns_checked;
	bool bad_columns;        /* --fields names a field there is not */
	/* progress */
	bool progress, stdout_tty;
	double last_progress;
	size_t done, failed;
};

static void on_signal(int sig)
{
	(void)sig;
	lk_interrupted = 1;
}

void lk_pipeline_install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void set_status(struct lk_pipeline_run *run, int status)
{
	if (status > run->status)
		run->status = status;
}

static void fail_slot(struct slot *slot, size_t line, const char *text)
{
	const struct lk_record *rec = &slot->rec;
	slot->output = false;
	slot->failed = true;
	lk_message_format(&slot->message, rec->source ? rec->source : "<stdin>",
			  line ? line : rec->first_lineno, text);
	lk_strbuf_add_escaped(&slot->error, text, strlen(text));
}

/* ------------------------------------------------------------ progress */

static void clear_progress(struct lk_pipeline_run *run)
{
	if (run->progress)
		fputs("\r\033[K", stderr);
}

/* Redraw the progress line, at most four times a second unless forced. */
static void show_progress(struct lk_pipeline_run *run, bool force)
{
	if (!run->progress)
		return;
	double now = lk_now();
	if (!force && now - run->last_progress < 0.25)
		return;
	run->last_progress = now;
	fprintf(stderr, "\r\033[K%s: %zu level%s %s%s%.0zu%s", lk_prog, run->done,
		run->done == 1 ? "" : "s", run->p->noun ? run->p->noun : "done",
		run->failed ? ", " : "", run->failed, run->failed ? " failed" : "");
	fflush(stderr);
}

/* ------------------------------------------------------- pool callbacks */

static void release_slot(struct lk_pipeline_run *run, struct slot *slot);

/* At the first level read: the command's own tsv columns, for its game
 * (all games' when it names none there is), and the --fields names
 * checked against them and the level's own fields, before any work is
 * done.  False when --fields names a field there is not. */
static bool first_level(struct lk_pipeline_run *run, const struct lk_record *rec)
{
	struct lk_pipeline *p = run->p;
	if (run->columns_checked || p->view || p->format != LK_FORMAT_TSV)
		return true;
	run->columns_checked = true;
	if (p->act) {
		run->own_columns = lk_act_fields(lk_game_find(lk_record_game(rec)), p->kind, p->act);
		run->writer.extra_columns = run->own_columns;
	}
	struct lk_strbuf err = LK_STRBUF_INIT;
	bool ok = lk_writer_check_columns(&run->writer, rec, &err) == 0;
	if (!ok) {
		clear_progress(run);
		lk_error("%s", err.buf);
		set_status(run, 2);
		run->bad_columns = true;
	}
	lk_strbuf_release(&err);
	return ok;
}

/* The next record of the input, opening the files in turn. */
static enum lk_pool_take take(void *ctx, uint64_t seq, void *vslot)
{
	struct lk_pipeline_run *run = ctx;
	struct slot *slot = vslot;
	(void)seq;
	for (;;) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		size_t line = 0;
		lk_record_init(&slot->rec);
		lk_strbuf_init(&slot->message);
		lk_strbuf_init(&slot->error);
		int got = lk_inputs_next(&run->in, &slot->rec, &err, &line);
		if (got == LK_INPUT_END || got == LK_INPUT_OPEN_ERROR || got == LK_INPUT_READ_ERROR) {
			if (got == LK_INPUT_OPEN_ERROR) {
				clear_progress(run);
				lk_error("%s", err.buf);
				set_status(run, 2);
			}
			/* A read cut by Ctrl-C is no error: the run ends quietly. */
			if (got == LK_INPUT_READ_ERROR && !lk_interrupted) {
				clear_progress(run);
				lk_error_at(run->in.reader.name, line, "%s", err.buf);
				set_status(run, 2);
				run->read_failed = true;
			}
			lk_record_release(&slot->rec);
			lk_strbuf_release(&err);
			if (got == LK_INPUT_END || lk_interrupted)
				return LK_POOL_END;
			continue;
		}
		enum lk_pool_take t = LK_POOL_READY;
		run->records_read++;
		int refused = 0;
		if (got < 0) {
			fail_slot(slot, line, err.buf);
			slot->lossy = slot->rec.lossy;
			run->levels_read++;
		} else if (!run->p->view && !run->p->decide &&
			   (refused = lk_writer_accepts(&run->writer, &slot->rec, &err)) < 0) {
			/* a level the output format cannot hold, refused before
			 * it is worked on; said once, counted at the end */
			run->levels_read++;
			if (refused == -1)
				fail_slot(slot, 0, err.buf);
			else
				set_status(run, 2);
		} else {
			slot->output = true;
			if (lk_record_grid(&slot->rec, NULL)) {
				/* records without a grid pass through */
				t = run->p->process && (!run->p->wants_work ||
					run->p->wants_work(run->p->ctx, &slot->rec)) ? LK_POOL_WORK : LK_POOL_READY;
				run->levels_read++;
				run->games_seen |= lk_game_bit(lk_record_game(&slot->rec));
				if (!first_level(run, &slot->rec)) {
					release_slot(run, slot);
					lk_strbuf_release(&err);
					return LK_POOL_END;
				}
			}
		}
		lk_strbuf_release(&err);
		return t;
	}
}

/* Run the processor on one slot (any thread). */
static void work(void *ctx, void *worker, void *vslot)
{
	struct lk_pipeline_run *run = ctx;
	struct slot *slot = vslot;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_job job = { .rec = &slot->rec, .err = &err, .err_line = 0, .worker = worker,
			      .threads = lk_pool_threads() };
	int rc = run->p->process(run->p->ctx, &job);
	slot->result = job.result;
	if (rc < 0) {
		fail_slot(slot, job.err_line, err.len ? err.buf : "could not process record");
	} else {
		/* an action's fields replace an earlier run's error */
		if (run->p->act)
			lk_record_unset(&slot->rec, "error");
		slot->negative = job.negative;
	}
	lk_strbuf_release(&err);
}

static void release_slot(struct lk_pipeline_run *run, struct slot *slot)
{
	if (slot->result && run->p->result_free)
		run->p->result_free(slot->result);
	slot->result = NULL;
	lk_strbuf_release(&slot->message);
	lk_strbuf_release(&slot->error);
	lk_record_release(&slot->rec);
}

/* A failed record: reported; kept as read when the output replaces an
 * input, since nothing may disappear from the user's file. */
static void report_failed(struct lk_pipeline_run *run, struct slot *slot)
{
	clear_progress(run);
	if (slot->message.len)
		fputs(slot->message.buf, stderr);
	set_status(run, 2);
	run->failed++;
	if (!run->keep_failed)
		return;
	if (slot->lossy) {
		if (!run->lossy_line) {
			run->lossy_line = slot->rec.first_lineno;
			run->lossy_file = slot->rec.source;
			slot->rec.source = NULL;
		}
	} else {
		lk_record_set(&slot->rec, "error", slot->error.buf);
		slot->output = true;
	}
}

static void write_failed(struct lk_pipeline_run *run)
{
	clear_progress(run);
	lk_error("%s: write error: %s", run->p->output ? run->p->output : "<stdout>", strerror(errno));
	set_status(run, 2);
	run->write_failed = true;
	lk_interrupted = 1;
}

bool lk_pipeline_put(struct lk_pipeline_run *run, const struct lk_record *rec)
{
	if (run->write_failed)
		return false;
	if ((run->p->view ? lk_view_writer_put(&run->view, rec) : lk_writer_put(&run->writer, rec)) < 0)
		write_failed(run);
	return !run->write_failed;
}

bool lk_pipeline_print(struct lk_pipeline_run *run, const char *text)
{
	if (run->write_failed)
		return false;
	if (fputs(text, run->out) < 0 || fflush(run->out) != 0)
		write_failed(run);
	return !run->write_failed;
}

/* The command's decision on a record read and processed (main thread,
 * input order): written, held back, dropped or failed. */
static void decide(struct lk_pipeline_run *run, struct slot *slot)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_decision d = { .rec = &slot->rec, .result = slot->result,
				 .writer = run->p->view ? NULL : &run->writer, .keep = slot->output,
				 .err = &err };
	run->p->decide(run->p->ctx, &d);
	slot->output = d.keep;
	set_status(run, d.status);
	if (d.fail) {
		fail_slot(slot, d.err_line, err.buf ? err.buf : "");
		if (d.quiet)
			lk_strbuf_reset(&slot->message);
	}
	lk_strbuf_release(&err);
}

/* Write the finished slot at the head (main thread, input order). */
static bool put(void *ctx, void *vslot)
{
	struct lk_pipeline_run *run = ctx;
	struct slot *slot = vslot;
	bool redraw = run->stdout_tty;
	if (!slot->failed && run->p->decide)
		decide(run, slot);
	if (slot->failed) {
		report_failed(run, slot);
		redraw = true;
	}
	if (slot->negative)
		set_status(run, 1);
	if (slot->output) {
		if (run->stdout_tty)
			clear_progress(run);
		lk_pipeline_put(run, &slot->rec);
		if (lk_record_grid(&slot->rec, NULL))
			run->done++;
	}
	release_slot(run, slot);
	show_progress(run, redraw);
	return !run->write_failed;
}

static void drop(void *ctx, void *vslot)
{
	release_slot(ctx, vslot);
}

void *lk_pipeline_solver_new(void *ctx)
{
	(void)ctx;
	struct lk_solver *s = lk_xmalloc(sizeof *s);
	lk_solver_init(s);
	return s;
}

void lk_pipeline_solver_free(void *worker)
{
	lk_solver_release(worker);
	free(worker);
}

static void *worker_new(void *ctx)
{
	struct lk_pipeline_run *run = ctx;
	return run->p->worker_new ? run->p->worker_new(run->p->ctx) : NULL;
}

static void worker_free(void *ctx, void *worker)
{
	struct lk_pipeline_run *run = ctx;
	if (run->p->worker_free)
		run->p->worker_free(worker);
}

/* ------------------------------------------------------------------ run */

int lk_output_open_said(struct lk_output *o, const char *path, char *const *inputs,
			int ninputs, enum lk_format format, bool force)
{
	struct lk_output_rule rule = { .inputs = inputs, .ninputs = ninputs, .format = format,
				       .force = force };
	struct lk_strbuf err = LK_STRBUF_INIT;
	int rc = lk_output_open(o, path, &rule, &err);
	lk_error_lines(&err);
	return rc;
}

int lk_output_close_said(struct lk_output *o, bool replace, bool nothing_read)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	int rc = lk_output_close(o, replace, nothing_read, &err);
	lk_error_lines(&err);
	return rc;
}

static int open_output(struct lk_pipeline_run *run, struct lk_output *output)
{
	struct lk_pipeline *p = run->p;
	/* A picture is not the records: like any other format it replaces an
	 * input only with --force. */
	if (lk_output_open_said(output, p->output, run->files, run->nfiles,
				p->view ? LK_FORMAT_TSV : p->format, p->force) < 0)
		return -1;
	run->out = output->fp;
	run->keep_failed = output->replaces_input;
	lk_writer_init(&run->writer, run->out, p->format, NULL);
	if (p->view)
		lk_pipeline_view_open(&run->view, run->out, p->view, p->title, run->files, run->nfiles);
	run->writer.always_columns = p->always_columns;
	if (p->fields) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		if (lk_writer_choose_columns(&run->writer, p->fields, &err) < 0)
			lk_usage_error("%s", err.buf);
		lk_strbuf_release(&err);
	}
	return 0;
}

/* Close the output; an input is replaced only by a complete output that
 * kept every record. */
static void close_output(struct lk_pipeline_run *run, struct lk_output *output)
{
	lk_writer_release(&run->writer);
	if (run->p->view) {
		/* The page's or the sheet's end, also after Ctrl-C: what was
		 * written stays a whole picture. */
		if (!run->write_failed && lk_view_writer_finish(&run->view) < 0) {
			lk_error("%s: write error: %s", run->p->output ? run->p->output : "<stdout>",
				 strerror(errno));
			set_status(run, 2);
			run->write_failed = true;
		}
		lk_view_writer_release(&run->view);
	}
	bool replace = !lk_interrupted && !run->write_failed && !run->lossy_line &&
		       !run->read_failed && !run->bad_columns;
	if (output->tmp && run->lossy_line)
		lk_error_at(run->lossy_file, run->lossy_line, "this record cannot be kept as it was "
			    "read (a NUL byte), so the input is not replaced");
	/* a --fields that names no field stops the run before any level is
	 * written: its output is removed as when nothing could be read */
	if (lk_output_close_said(output, replace, run->records_read == 0 || run->bad_columns) < 0)
		set_status(run, 2);
	free((char *)run->lossy_file);
	free(run->own_columns);
}

void lk_pipeline_view_open(struct lk_view_writer *w, FILE *out, enum lk_view_format view,
			   const char *given, char *const *files, int nfiles)
{
	struct lk_strbuf title = LK_STRBUF_INIT;
	lk_strbuf_addf(&title, "%s", given ? given : lk_prog);
	for (int i = 0; !given && i < nfiles && i < 3; i++)
		lk_strbuf_addf(&title, " %s", strcmp(files[i], "-") == 0 ? "<stdin>" : files[i]);
	if (!given && nfiles > 3)
		lk_strbuf_addf(&title, " and %d more", nfiles - 3);
	struct lk_view_options vo = { .title = title.buf };
	lk_view_writer_init(w, out, view, &vo);
	lk_strbuf_release(&title);
}

/* Whether the file at path starts with the header of a table the record
 * commands write (-f tsv: "record", a tab, ...).  Such a table keeps no
 * level grids, so it reads as no levels at all; the message says why
 * rather than only that nothing was read.  stdin cannot be read again. */
static bool starts_with_table(const char *path)
{
	if (strcmp(path, "-") == 0)
		return false;
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return false;
	char head[8] = { 0 };
	size_t n = fread(head, 1, sizeof head - 1, fp);
	fclose(fp);
	return n == 7 && memcmp(head, "record\t", 7) == 0;
}

int lk_pipeline_run(struct lk_pipeline *p, char **files, int nfiles)
{
	static char *stdin_only[] = { "-" };
	struct lk_pipeline_run run = { .p = p, .files = files, .nfiles = nfiles };
	if (nfiles == 0) {
		run.files = stdin_only;
		run.nfiles = 1;
	}
	lk_inputs_init(&run.in, run.files, run.nfiles);
	lk_pipeline_install_signals();
	struct lk_output output;
	if (open_output(&run, &output) < 0)
		return 2;
	run.progress = !p->quiet && isatty(2);
	run.stdout_tty = run.out == stdout && isatty(1);

	struct lk_pool_ops ops = {
		.ctx = &run,
		.slot_size = sizeof(struct slot),
		.worker_new = worker_new,
		.worker_free = worker_free,
		.take = take,
		.work = work,
		.put = put,
		.drop = drop,
		.cancel = &lk_interrupted,
		.jobs = p->jobs ? p->jobs : 1,
		.inline_single = true,
		.share_spare = p->share_spare,
	};
	lk_pool_run(&ops);
	lk_inputs_close(&run.in);
	clear_progress(&run);
	if (run.writer.refused > 1)
		lk_error("%zu levels in all were not written (%s)", run.writer.refused,
			 lk_writer_refusal(&run.writer));
	if (p->finish)
		p->finish(p->ctx, &run);
	close_output(&run, &output);
	p->levels_read = run.levels_read;
	p->records_read = run.records_read;
	p->games_seen = run.games_seen;
	if (lk_interrupted && !run.write_failed)
		return 130;
	if (run.levels_read == 0 && run.status == 0 && !p->quiet) {
		/* an empty input is no answer: said, and exit 1 (as sha256sum
		 * -c on a file without checksums) */
		if (run.nfiles == 1 && starts_with_table(run.files[0]))
			lk_error("%s:1: a table (-f tsv) holds no levels: "
				 "give the records (-f text) instead", run.files[0]);
		else if (run.nfiles == 1)
			lk_error("%s: no levels read",
				 strcmp(run.files[0], "-") == 0 ? "<stdin>" : run.files[0]);
		else
			lk_error("no levels read from the %d inputs", run.nfiles);
		return 1;
	}
	return run.status;
}
