/*
 * pipeline.c - read, process on worker threads, write in order (see
 * pipeline.h).  The main thread reads and writes; workers only process.
 * A ring of slots bounds how far reading runs ahead of writing, so memory
 * stays flat on endless streams.
 */
#define _POSIX_C_SOURCE 200809L
#include "pipeline.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "levelkit/search.h"
#include "options.h"

volatile sig_atomic_t lk_interrupted;

enum slot_state { SLOT_FREE, SLOT_PENDING, SLOT_RUNNING, SLOT_DONE };

struct slot {
	enum slot_state state;
	struct lk_record rec;
	bool output;             /* write rec when its turn comes */
	bool negative;           /* a negative answer (exit 1) */
	bool lossy;              /* rec is not the record as read (a NUL byte) */
	struct lk_strbuf message; /* complete "prog: file:line: ..." text */
	struct lk_strbuf error;   /* the message alone, for the `error` field */
};

struct run {
	struct lk_pipeline *p;
	struct slot *slots;
	size_t nslots;
	size_t next_read, next_write;   /* sequence numbers */
	pthread_mutex_t lock;
	pthread_cond_t work_ready, work_done;
	bool closing;
	/* output */
	FILE *out;
	struct lk_writer writer;
	struct lk_view_writer view;   /* when p->view: a picture instead */
	int status;
	bool keep_failed;        /* the output replaces an input */
	size_t lossy_line;       /* a record that cannot be kept verbatim */
	bool write_failed;
	const char *lossy_file;
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

static void set_status(struct run *run, int status)
{
	if (status > run->status)
		run->status = status;
}

static void fail_slot(struct slot *slot, size_t line, const char *text)
{
	const struct lk_record *rec = &slot->rec;
	slot->output = false;
	lk_message_format(&slot->message, rec->source ? rec->source : "<stdin>",
			  line ? line : rec->first_lineno, text);
	lk_strbuf_add_escaped(&slot->error, text, strlen(text));
}

/* Run the processor on one slot (any thread). */
static void process_slot(struct run *run, struct slot *slot, void *worker)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_job job = { .rec = &slot->rec, .err = &err, .err_line = 0, .worker = worker };
	if (run->p->process(run->p->ctx, &job) < 0) {
		fail_slot(slot, job.err_line, err.len ? err.buf : "could not process record");
	} else {
		lk_record_unset(&slot->rec, "error");   /* an earlier run's, now stale */
		slot->negative = job.negative;
	}
	lk_strbuf_release(&err);
}

static void *worker_main(void *arg)
{
	struct run *run = arg;
	void *worker = run->p->worker_new ? run->p->worker_new(run->p->ctx) : NULL;
	pthread_mutex_lock(&run->lock);
	for (;;) {
		struct slot *job = NULL;
		for (size_t seq = run->next_write; seq < run->next_read && !job; seq++) {
			struct slot *s = &run->slots[seq % run->nslots];
			if (s->state == SLOT_PENDING)
				job = s;
		}
		if (!job) {
			if (run->closing)
				break;
			pthread_cond_wait(&run->work_ready, &run->lock);
			continue;
		}
		job->state = SLOT_RUNNING;
		pthread_mutex_unlock(&run->lock);
		process_slot(run, job, worker);
		pthread_mutex_lock(&run->lock);
		job->state = SLOT_DONE;
		pthread_cond_broadcast(&run->work_done);
	}
	pthread_mutex_unlock(&run->lock);
	if (run->p->worker_free)
		run->p->worker_free(worker);
	return NULL;
}

static void clear_progress(struct run *run)
{
	if (run->progress)
		fputs("\r\033[K", stderr);
}

/* Redraw the progress line, at most four times a second unless forced. */
static void show_progress(struct run *run, bool force)
{
	if (!run->progress)
		return;
	double now = lk_now();
	if (!force && now - run->last_progress < 0.25)
		return;
	run->last_progress = now;
	fprintf(stderr, "\r\033[K%s: %zu levels %s%s%.0zu%s", lk_prog, run->done,
		run->p->noun ? run->p->noun : "done", run->failed ? ", " : "", run->failed,
		run->failed ? " failed" : "");
	fflush(stderr);
}

/* Write the slot at next_write (state DONE) and free it. */
static void write_slot(struct run *run, struct slot *slot)
{
	bool redraw = run->stdout_tty;
	if (slot->message.len) {
		clear_progress(run);
		fputs(slot->message.buf, stderr);
		set_status(run, 2);
		run->failed++;
		redraw = true;
		if (run->keep_failed) {
			/* The output replaces an input: keep the record as read. */
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
	}
	if (slot->negative)
		set_status(run, 1);
	if (slot->output) {
		if (run->stdout_tty)
			clear_progress(run);
		if ((run->p->view ? lk_view_writer_put(&run->view, &slot->rec)
				  : lk_writer_put(&run->writer, &slot->rec)) < 0) {
			clear_progress(run);
			lk_error("%s: write error: %s", run->p->output ? run->p->output : "<stdout>",
				 strerror(errno));
			set_status(run, 2);
			run->write_failed = true;
			lk_interrupted = 1;
		}
		if (lk_record_grid(&slot->rec, NULL))
			run->done++;
	}
	lk_strbuf_release(&slot->message);
	lk_strbuf_release(&slot->error);
	lk_record_release(&slot->rec);
	slot->state = SLOT_FREE;
	show_progress(run, redraw);
}

/* Read the next record into a free slot; false at the end of all input. */
static bool read_next(struct run *run, struct lk_reader *reader, struct slot *slot)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	lk_record_init(&slot->rec);
	lk_strbuf_init(&slot->message);
	lk_strbuf_init(&slot->error);
	slot->negative = slot->lossy = false;
	int got = lk_reader_next(reader, &slot->rec, &err, &line);
	bool more = true;
	if (got == 0 || got == -2) {
		/* A read cut by Ctrl-C is no error: the run ends quietly. */
		if (got == -2 && !lk_interrupted) {
			clear_progress(run);
			lk_error("%s: %s", reader->name, err.buf);
			set_status(run, 2);
		}
		lk_record_release(&slot->rec);
		more = false;
	} else if (got < 0) {
		fail_slot(slot, line, err.buf);
		slot->lossy = slot->rec.lossy;
		slot->state = SLOT_DONE;
	} else {
		size_t first;
		slot->output = true;
		slot->state = lk_record_grid(&slot->rec, &first) ? SLOT_PENDING : SLOT_DONE;
	}
	lk_strbuf_release(&err);
	return more;
}

void lk_pipeline_view_open(struct lk_view_writer *w, FILE *out, enum lk_view_format view,
			   char *const *files, int nfiles)
{
	struct lk_strbuf title = LK_STRBUF_INIT;
	lk_strbuf_addf(&title, "%s", lk_prog);
	for (int i = 0; i < nfiles && i < 3; i++)
		lk_strbuf_addf(&title, " %s", strcmp(files[i], "-") == 0 ? "<stdin>" : files[i]);
	if (nfiles > 3)
		lk_strbuf_addf(&title, " and %d more", nfiles - 3);
	struct lk_view_options vo = { .title = title.buf };
	lk_view_writer_init(w, out, view, &vo);
	lk_strbuf_release(&title);
}

int lk_pipeline_run(struct lk_pipeline *p, char **files, int nfiles)
{
	struct run run = { .p = p };
	unsigned jobs = p->jobs ? p->jobs : 1;
	static char *stdin_only[] = { "-" };

	if (nfiles == 0) {
		files = stdin_only;
		nfiles = 1;
	}
	lk_pipeline_install_signals();
	struct lk_cli_output output;
	/* A picture is not the records: like any other format it replaces
	 * an input only with --force. */
	if (lk_cli_output_open(&output, p->output, files, nfiles, p->view ? LK_FORMAT_TSV : p->format,
			       p->force) < 0)
		return 2;
	run.out = output.fp;
	run.keep_failed = output.replaces_input;
	lk_writer_init(&run.writer, run.out, p->format, p->columns);
	if (p->view)
		lk_pipeline_view_open(&run.view, run.out, p->view, files, nfiles);
	run.writer.always_columns = p->always_columns;
	if (p->fields) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		if (lk_writer_choose_columns(&run.writer, p->fields, &err) < 0)
			lk_usage_error("%s", err.buf);
		lk_strbuf_release(&err);
	}
	run.progress = isatty(2);
	run.stdout_tty = run.out == stdout && isatty(1);
	run.nslots = jobs > 1 ? 4 * (size_t)jobs : 1;
	run.slots = lk_xcalloc(run.nslots, sizeof *run.slots);
	pthread_mutex_init(&run.lock, NULL);
	pthread_cond_init(&run.work_ready, NULL);
	pthread_cond_init(&run.work_done, NULL);

	pthread_t *threads = NULL;
	void *inline_worker = NULL;
	if (jobs > 1) {
		threads = lk_xcalloc(jobs, sizeof *threads);
		for (unsigned i = 0; i < jobs; i++)
			pthread_create(&threads[i], NULL, worker_main, &run);
	} else if (p->worker_new) {
		inline_worker = p->worker_new(p->ctx);
	}

	bool input_done = false;
	int file = 0;
	struct lk_reader reader;
	bool reader_open = false;
	while (!input_done || run.next_write < run.next_read) {
		/* Fill free slots. */
		pthread_mutex_lock(&run.lock);
		while (!input_done && !lk_interrupted && run.next_read - run.next_write < run.nslots) {
			if (!reader_open) {
				if (file == nfiles) {
					input_done = true;
					break;
				}
				struct lk_strbuf err = LK_STRBUF_INIT;
				if (lk_reader_open(&reader, files[file++], &err) < 0) {
					clear_progress(&run);
					lk_error("%s", err.buf);
					set_status(&run, 2);
					lk_reader_close(&reader);
					lk_strbuf_release(&err);
					continue;
				}
				lk_strbuf_release(&err);
				reader_open = true;
			}
			struct slot *slot = &run.slots[run.next_read % run.nslots];
			pthread_mutex_unlock(&run.lock);
			bool more = read_next(&run, &reader, slot);
			pthread_mutex_lock(&run.lock);
			if (!more) {
				lk_reader_close(&reader);
				reader_open = false;
				continue;
			}
			run.next_read++;
			pthread_cond_broadcast(&run.work_ready);
		}
		if (lk_interrupted)
			input_done = true;
		if (run.next_write == run.next_read) {
			pthread_mutex_unlock(&run.lock);
			continue;
		}
		struct slot *head = &run.slots[run.next_write % run.nslots];
		if (jobs == 1 && head->state == SLOT_PENDING) {
			head->state = SLOT_RUNNING;
			pthread_mutex_unlock(&run.lock);
			process_slot(&run, head, inline_worker);
			pthread_mutex_lock(&run.lock);
			head->state = SLOT_DONE;
		}
		while (head->state != SLOT_DONE)
			pthread_cond_wait(&run.work_done, &run.lock);
		pthread_mutex_unlock(&run.lock);
		write_slot(&run, head);
		pthread_mutex_lock(&run.lock);
		run.next_write++;
		pthread_mutex_unlock(&run.lock);
	}
	if (reader_open)
		lk_reader_close(&reader);

	pthread_mutex_lock(&run.lock);
	run.closing = true;
	pthread_cond_broadcast(&run.work_ready);
	pthread_mutex_unlock(&run.lock);
	for (unsigned i = 0; threads && i < jobs; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	if (inline_worker && p->worker_free)
		p->worker_free(inline_worker);
	clear_progress(&run);

	lk_writer_release(&run.writer);
	if (p->view) {
		/* The page's or the sheet's end, also after Ctrl-C: what was
		 * written stays a whole picture. */
		if (!run.write_failed && lk_view_writer_finish(&run.view) < 0) {
			lk_error("%s: write error: %s", p->output ? p->output : "<stdout>", strerror(errno));
			set_status(&run, 2);
			run.write_failed = true;
		}
		lk_view_writer_release(&run.view);
	}
	/* An input is replaced only by a complete output that kept every
	 * record. */
	bool replace = !lk_interrupted && !run.write_failed && !run.lossy_line;
	if (output.tmp && run.lossy_line)
		lk_error_at(run.lossy_file, run.lossy_line, "this record cannot be kept as it was "
			    "read (a NUL byte), so the input is not replaced");
	if (lk_cli_output_close(&output, replace) < 0)
		set_status(&run, 2);
	free((char *)run.lossy_file);
	pthread_mutex_destroy(&run.lock);
	pthread_cond_destroy(&run.work_ready);
	pthread_cond_destroy(&run.work_done);
	free(run.slots);
	if (lk_interrupted && !run.write_failed)
		return 130;
	return run.status;
}
