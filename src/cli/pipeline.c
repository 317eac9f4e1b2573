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

#include "levelkit/search.h"
#include "options.h"

volatile sig_atomic_t lk_interrupted;

enum slot_state { SLOT_FREE, SLOT_PENDING, SLOT_RUNNING, SLOT_DONE };

struct slot {
	enum slot_state state;
	struct lk_record rec;
	bool output;             /* write rec when its turn comes */
	struct lk_strbuf message; /* complete "prog: file:line: ..." text */
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
	int status;
	/* progress */
	bool progress;
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

static void format_error(struct lk_strbuf *msg, const struct lk_record *rec, size_t line,
			 const char *text)
{
	lk_strbuf_addf(msg, "%s: %s:%zu: %s\n", lk_prog, rec->source ? rec->source : "<stdin>",
		       line ? line : rec->first_lineno, text);
}

/* Run the processor on one slot (any thread). */
static void process_slot(struct run *run, struct slot *slot, void *worker)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_job job = { .rec = &slot->rec, .err = &err, .err_line = 0, .worker = worker };
	if (run->p->process(run->p->ctx, &job) < 0) {
		slot->output = false;
		format_error(&slot->message, &slot->rec, job.err_line,
			     err.len ? err.buf : "could not process record");
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

static void show_progress(struct run *run, bool final)
{
	if (!run->progress)
		return;
	double now = lk_now();
	if (!final && now - run->last_progress < 0.25)
		return;
	run->last_progress = now;
	if (final)
		fprintf(stderr, "\r\033[K");
	else
		fprintf(stderr, "\r\033[K%s: %zu levels %s%s%.0zu%s", lk_prog, run->done,
			run->p->noun ? run->p->noun : "done", run->failed ? ", " : "", run->failed,
			run->failed ? " failed" : "");
	fflush(stderr);
}

/* Write the slot at next_write (state DONE) and free it. */
static void write_slot(struct run *run, struct slot *slot)
{
	if (slot->message.len) {
		show_progress(run, true);
		fputs(slot->message.buf, stderr);
		if (run->status == 0)
			run->status = 1;
		run->failed++;
	}
	if (slot->output && lk_writer_put(&run->writer, &slot->rec) < 0) {
		fprintf(stderr, "%s: write error: %s\n", lk_prog, strerror(errno));
		run->status = 2;
		lk_interrupted = 1;
	}
	if (slot->output && lk_record_grid(&slot->rec, &(size_t){ 0 }))
		run->done++;
	lk_strbuf_release(&slot->message);
	lk_record_release(&slot->rec);
	slot->state = SLOT_FREE;
	show_progress(run, false);
}

/* Read the next record into a free slot; false at the end of all input. */
static bool read_next(struct run *run, struct lk_reader *reader, struct slot *slot)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	lk_record_init(&slot->rec);
	lk_strbuf_init(&slot->message);
	int got = lk_reader_next(reader, &slot->rec, &err, &line);
	bool more = true;
	if (got == 0 || got == -2) {
		if (got == -2) {
			fprintf(stderr, "%s: %s: %s\n", lk_prog, reader->name, err.buf);
			run->status = 2;
		}
		lk_record_release(&slot->rec);
		more = false;
	} else if (got < 0) {
		format_error(&slot->message, &slot->rec, line, err.buf);
		slot->output = false;
		slot->state = SLOT_DONE;
	} else {
		size_t first;
		slot->output = true;
		slot->state = lk_record_grid(&slot->rec, &first) ? SLOT_PENDING : SLOT_DONE;
	}
	lk_strbuf_release(&err);
	return more;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!a || !b || strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
		return false;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int lk_pipeline_run(struct lk_pipeline *p, char **files, int nfiles)
{
	struct run run = { .p = p };
	unsigned jobs = p->jobs ? p->jobs : 1;
	char *tmp_name = NULL;
	static char *stdin_only[] = { "-" };

	if (nfiles == 0) {
		files = stdin_only;
		nfiles = 1;
	}
	lk_pipeline_install_signals();
	run.out = stdout;
	if (p->output && strcmp(p->output, "-") != 0) {
		const char *target = p->output;
		for (int i = 0; i < nfiles; i++) {
			if (same_file(files[i], p->output)) {
				/* Reading and writing one file: write beside it and
				 * rename when everything has been read. */
				size_t n = strlen(p->output) + 32;
				tmp_name = lk_xmalloc(n);
				snprintf(tmp_name, n, "%s.tmp%ld", p->output, (long)getpid());
				target = tmp_name;
				break;
			}
		}
		run.out = fopen(target, "w");
		if (!run.out) {
			fprintf(stderr, "%s: %s: cannot open for writing: %s\n", lk_prog, target,
				strerror(errno));
			free(tmp_name);
			return 2;
		}
	}
	lk_writer_init(&run.writer, run.out, p->format, p->columns);
	run.progress = isatty(2);
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
					fprintf(stderr, "%s: %s\n", lk_prog, err.buf);
					run.status = 2;
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
	show_progress(&run, true);

	lk_writer_release(&run.writer);
	if (run.out != stdout) {
		if (fclose(run.out) != 0) {
			fprintf(stderr, "%s: %s: %s\n", lk_prog, p->output, strerror(errno));
			run.status = 2;
		}
	} else if (fflush(stdout) != 0) {
		run.status = 2;
	}
	if (tmp_name) {
		if (lk_interrupted) {
			fprintf(stderr, "%s: interrupted; partial output left in %s\n", lk_prog, tmp_name);
		} else if (rename(tmp_name, p->output) != 0) {
			fprintf(stderr, "%s: cannot replace %s: %s\n", lk_prog, p->output, strerror(errno));
			run.status = 2;
		}
		free(tmp_name);
	}
	pthread_mutex_destroy(&run.lock);
	pthread_cond_destroy(&run.work_ready);
	pthread_cond_destroy(&run.work_done);
	free(run.slots);
	if (lk_interrupted && run.status != 2)
		return 130;
	return run.status;
}
