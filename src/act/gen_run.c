/*
 * gen_run.c - a gen run (gen_run.h: lk_gen_run).  Level i depends only on (seed, i),
 * so workers make levels of different indices in any order while the main
 * thread writes them in index order (the pool's put), drops duplicates by
 * canonical form, flushes each at once, and stops after -n levels.  On
 * SIGINT the levels finished in order are written and the run stops before
 * the first unfinished index, so a resumed run gives exactly what an
 * uninterrupted one would have.
 */
#define _POSIX_C_SOURCE 200809L
#include "levelkit/gen_run.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdarg.h>

#include "levelkit/actions.h"
#include "levelkit/dedupe.h"
#include "levelkit/registry.h"
#include "levelkit/pool.h"

/* A run whose thresholds nothing meets would go on for ever. */
#define MAX_FAILED_IN_ROW 20

/* Why the run ended, for the summary and the exit status. */
enum run_end { END_COUNT, END_INTERRUPTED, END_WRITE_ERROR, END_RESUME_ERROR, END_GAVE_UP,
	       END_WORKER_ERROR, END_BAD_FIELDS };

struct slot {
	uint64_t seq;              /* position in this shard's index sequence */
	bool ok;                   /* a level was made */
	bool worker_failed;        /* the worker could not start */
	struct lk_gen_level level;   /* the record, its canonical text, the judge's numbers */
};

struct worker {
	struct lk_gen_worker w;
	bool ok;
};

struct run {
	const struct lk_gen_run_options *o;
	uint64_t shard, shards, first_seq;
	struct lk_dedupe seen;
	struct lk_gen_resume resume;
	/* output */
	struct lk_writer writer;
	struct lk_view_writer view;   /* when o->view: a picture instead */
	struct lk_output output;   /* -o, under the library's rule */
	FILE *out;
	const char *out_name;
	enum run_end end;
	/* counts; stats is added to by workers under the lock */
	pthread_mutex_t stats_lock;
	struct lk_gen_stats stats;
	struct lk_strbuf worker_error;
	uint64_t written, new_levels, duplicates, failed, next_seq;
	int failed_in_row;
	/* progress line */
	bool progress, stdout_tty;
	double t0, last;
};

static uint64_t index_of(const struct run *run, uint64_t seq)
{
	return run->shard + seq * run->shards;
}

/* A message through the command's hook (usage: a usage error). */
static void say(const struct lk_gen_say *to, bool usage, const char *fmt, ...)
{
	struct lk_strbuf m = LK_STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	lk_strbuf_vaddf(&m, fmt, ap);
	va_end(ap);
	(usage ? to->usage : to->error)(m.buf);
	lk_strbuf_release(&m);
}

static bool cancelled(const struct run *run)
{
	return run->o->cancel && *run->o->cancel;
}

/* ------------------------------------------------------------- progress */

static void format_duration(double s, char *buf, size_t n)
{
	if (!isfinite(s) || s < 0)
		snprintf(buf, n, "?");
	else if (s < 90)
		snprintf(buf, n, "%.0fs", s);
	else if (s < 5400)
		snprintf(buf, n, "%.0fm", s / 60);
	else
		snprintf(buf, n, "%.0fh%02.0fm", floor(s / 3600), fmod(s, 3600) / 60);
}

/* "1200 tried (too-short 1100, unsolvable 3)" */
static void describe_stats(struct run *run, struct lk_strbuf *out)
{
	pthread_mutex_lock(&run->stats_lock);
	struct lk_gen_stats st = run->stats;
	pthread_mutex_unlock(&run->stats_lock);
	lk_strbuf_addf(out, "%llu tried", (unsigned long long)st.tried);
	const char *sep = " (";
	for (int i = 0; i < LK_REJECT_COUNT; i++) {
		if (!st.rejected[i])
			continue;
		lk_strbuf_addf(out, "%s%s %llu", sep, lk_gen_reject_name(run->o->opt, (enum lk_reject)i),
			       (unsigned long long)st.rejected[i]);
		sep = ", ";
	}
	if (strcmp(sep, ", ") == 0)
		lk_strbuf_addch(out, ')');
}

static void draw_progress(struct run *run, bool force)
{
	if (!run->progress)
		return;
	double now = lk_now();
	if (!force && now - run->last < 0.25)
		return;
	double elapsed = now - run->t0;
	double per_min = elapsed > 0 ? (double)run->new_levels * 60.0 / elapsed : 0;
	char eta[32];
	format_duration(run->new_levels ? (double)(run->o->count - run->written) / per_min * 60.0
					: NAN, eta, sizeof eta);
	struct lk_strbuf stats = LK_STRBUF_INIT;
	describe_stats(run, &stats);
	fprintf(stderr, "\r\033[K%s: %llu/%llu levels, %s, %.1f/min, %s left", run->o->say.prog,
		(unsigned long long)run->written, (unsigned long long)run->o->count, stats.buf,
		per_min, eta);
	fflush(stderr);
	lk_strbuf_release(&stats);
	run->last = now;
}

static void clear_progress(struct run *run)
{
	if (run->progress)
		fprintf(stderr, "\r\033[K");
}

static void tick(void *ctx)
{
	draw_progress(ctx, false);
}

/* ------------------------------------------------------- pool callbacks */

static void *worker_new(void *ctx)
{
	struct run *run = ctx;
	struct worker *w = lk_xcalloc(1, sizeof *w);
	struct lk_strbuf err = LK_STRBUF_INIT;
	w->ok = lk_gen_worker_init(&w->w, run->o->gen, run->o->opt, &err) == 0;
	if (!w->ok) {
		pthread_mutex_lock(&run->stats_lock);
		if (!run->worker_error.len)
			lk_strbuf_addstr(&run->worker_error, err.buf);
		pthread_mutex_unlock(&run->stats_lock);
	}
	lk_strbuf_release(&err);
	return w;
}

static void worker_free(void *ctx, void *vw)
{
	struct run *run = ctx;
	struct worker *w = vw;
	if (w->ok)
		lk_gen_worker_release(&w->w, run->o->gen);
	free(w);
}

static enum lk_pool_take take(void *ctx, uint64_t seq, void *vslot)
{
	struct run *run = ctx;
	struct slot *slot = vslot;
	slot->seq = run->first_seq + seq;
	lk_gen_level_init(&slot->level);
	return LK_POOL_WORK;
}

static void work(void *ctx, void *vw, void *vslot)
{
	struct run *run = ctx;
	struct worker *w = vw;
	struct slot *slot = vslot;
	if (!w->ok) {
		slot->worker_failed = true;
		return;
	}
	struct lk_gen_stats st = { 0 };
	slot->ok = lk_generate_level(run->o->gen, &w->w, run->o->opt, run->o->seed,
				     index_of(run, slot->seq), &slot->level, &st) == 0;
	pthread_mutex_lock(&run->stats_lock);
	lk_gen_stats_add(&run->stats, &st);
	pthread_mutex_unlock(&run->stats_lock);
}

/* Write a new level; false (and run->end set) on an error. */
static bool write_level(struct run *run, struct lk_record *rec)
{
	rec->number = (size_t)run->written + 1;   /* its place in the output */
	if (run->o->fields && run->written == 0 && !run->o->view) {
		/* --fields checked against the first level, as solve's are */
		struct lk_strbuf err = LK_STRBUF_INIT;
		int rc = lk_writer_check_columns(&run->writer, rec, &err);
		if (rc < 0) {
			clear_progress(run);
			say(&run->o->say, false, "%s", err.buf);
			run->end = END_BAD_FIELDS;
		}
		lk_strbuf_release(&err);
		if (rc < 0)
			return false;
	}
	if (run->resume.torn) {
		struct lk_strbuf text = LK_STRBUF_INIT;
		lk_writer_format(&run->writer, rec, &text);
		struct lk_strbuf said = LK_STRBUF_INIT;
		int rc = lk_gen_resume_replace_torn(&run->resume, run->o->resume, run->out, text.buf,
						    text.len, &said);
		if (said.len)
			say(&run->o->say, false, "%s", said.buf);
		lk_strbuf_release(&said);
		lk_strbuf_release(&text);
		if (rc < 0) {
			run->end = END_RESUME_ERROR;
			return false;
		}
	}
	/* The data and the progress line share the terminal only when
	 * stdout is one: then the line is cleared first and drawn again. */
	if (run->stdout_tty)
		clear_progress(run);
	if ((run->o->view ? lk_view_writer_put(&run->view, rec) : lk_writer_put(&run->writer, rec)) < 0) {
		clear_progress(run);
		say(&run->o->say, false, "%s: write error: %s", run->out_name, strerror(errno));
		run->end = END_WRITE_ERROR;
		return false;
	}
	return true;
}

/* The finished index at the head, in index order: write it unless it is
 * a duplicate; false ends the run. */
static bool put(void *ctx, void *vslot)
{
	struct run *run = ctx;
	struct slot *slot = vslot;
	bool go_on = true;
	run->next_seq = slot->seq + 1;
	if (slot->worker_failed) {
		run->end = END_WORKER_ERROR;
		go_on = false;
	} else if (!slot->ok && cancelled(run)) {
		/* cut short, not failed: it must be made again on resume */
		run->end = END_INTERRUPTED;
		run->next_seq = slot->seq;
		go_on = false;
	} else if (slot->ok) {
		run->failed_in_row = 0;
		/* the canonical text the worker made from the level it judged:
		 * the level is not loaded again here */
		const struct lk_strbuf *canonical = &slot->level.canonical;
		if (lk_dedupe_add_text(&run->seen, canonical->buf, canonical->len)) {
			go_on = write_level(run, &slot->level.rec);
			if (go_on) {
				run->written++;
				run->new_levels++;
			}
		} else {
			run->duplicates++;
		}
	} else {
		run->failed++;
		if (++run->failed_in_row >= MAX_FAILED_IN_ROW) {
			run->end = END_GAVE_UP;
			go_on = false;
		}
	}
	lk_gen_level_release(&slot->level);
	if (go_on && run->written >= run->o->count)
		go_on = false;
	draw_progress(run, run->stdout_tty);
	return go_on;
}

static void drop(void *ctx, void *vslot)
{
	(void)ctx;
	lk_gen_level_release(&((struct slot *)vslot)->level);
}

/* --------------------------------------------------------------- output */

static void print_summary(struct run *run, double secs)
{
	static const char *const how[] = {
		[END_COUNT] = "",
		[END_INTERRUPTED] = "interrupted: ",
		[END_WRITE_ERROR] = "stopped by a write error: ",
		[END_RESUME_ERROR] = "stopped: ",
		[END_GAVE_UP] = "gave up: ",
		[END_WORKER_ERROR] = "stopped by an error: ",
		[END_BAD_FIELDS] = "stopped: ",
	};
	struct lk_strbuf line = LK_STRBUF_INIT, shard = LK_STRBUF_INIT;
	describe_stats(run, &line);
	/* the seed, so that a run can be repeated, and told apart from a run
	 * on another machine (which needs another --seed or --shard) */
	if (run->shards > 1)
		lk_strbuf_addf(&shard, ", shard %llu/%llu", (unsigned long long)run->shard,
			       (unsigned long long)run->shards);
	say(&run->o->say, false, "%s%llu level%s written (%llu in all), %s, %llu duplicate%s dropped, %llu "
		 "ind%s failed, %.1f s, %.1f levels/min; seed %llu%s, next index %llu", how[run->end],
		 (unsigned long long)run->new_levels, run->new_levels == 1 ? "" : "s",
		 (unsigned long long)run->written, line.buf, (unsigned long long)run->duplicates,
		 run->duplicates == 1 ? "" : "s", (unsigned long long)run->failed,
		 run->failed == 1 ? "ex" : "ices", secs,
		 secs > 0 ? (double)run->new_levels * 60.0 / secs : 0.0,
		 (unsigned long long)run->o->seed, shard.buf,
		 (unsigned long long)index_of(run, run->next_seq));
	lk_strbuf_release(&shard);
	if (run->end == END_GAVE_UP)
		say(&run->o->say, false, "%d indices in a row found no level within --max-tries candidates (are the "
			 "thresholds reachable?)", MAX_FAILED_IN_ROW);
	lk_strbuf_release(&line);
}

/* Check the options, read the resumed file, open the output.  Returns 0
 * or an exit status. */
static int prepare(struct run *run)
{
	const struct lk_gen_run_options *o = run->o;
	run->shard = o->shard;
	run->shards = o->shards ? o->shards : 1;
	if (o->resume && (o->format != LK_FORMAT_TEXT || o->view))
		say(&run->o->say, true, "--resume reads and continues text output; it cannot continue -f %s",
			       o->format_name ? o->format_name : "html");
	/* Check the options once before starting threads. */
	struct lk_gen_worker check;
	struct lk_strbuf err = LK_STRBUF_INIT;
	int rc = lk_gen_worker_init(&check, o->gen, o->opt, &err);
	if (rc == 0)
		lk_gen_worker_release(&check, o->gen);
	else
		say(&run->o->say, false, "%s", err.buf);
	lk_strbuf_release(&err);
	if (rc < 0)
		return 2;
	if (o->resume) {
		struct lk_strbuf settings = LK_STRBUF_INIT;
		lk_gen_settings(lk_game_find(o->gen->game), o->opt, &settings);
		struct lk_gen_resume_run id = { o->gen, o->seed, run->shard, run->shards,
						settings.buf };
		rc = lk_gen_resume_load(&run->resume, o->resume, &id, &run->seen, o->output, &err);
		lk_strbuf_release(&settings);
		if (rc < 0) {
			say(&run->o->say, false, "%s", err.buf);
			lk_strbuf_release(&err);
			return 2;
		}
		run->first_seq = run->next_seq = run->resume.next_seq;
		run->written = run->resume.levels;
	}
	/* An existing file is never replaced unless it is the run being
	 * resumed (appended to) or --force says so: a night's work must not
	 * vanish because of a repeated command line. */
	struct lk_output_rule rule = {
		.format = o->format, .force = o->force,
		.append = o->resume && run->resume.output_is_resume_file, .resumable = true,
	};
	if (lk_output_open(&run->output, o->output, &rule, &err) < 0) {
		say(&run->o->say, false, "%s", err.buf);
		lk_strbuf_release(&err);
		return 2;
	}
	run->out = run->output.fp;
	run->out_name = run->out == stdout ? "<stdout>" : o->output;
	lk_writer_init(&run->writer, run->out, o->format, NULL);
	if (o->fields && lk_writer_choose_columns(&run->writer, o->fields, &err) < 0)
		say(&run->o->say, true, "%s", err.buf);
	if (o->view) {
		struct lk_strbuf title = LK_STRBUF_INIT;
		if (o->title)
			lk_strbuf_addstr(&title, o->title);
		else
			lk_strbuf_addf(&title, "%s %s", o->say.prog, o->gen->game);
		struct lk_view_options vo = { .title = title.buf };
		lk_view_writer_init(&run->view, run->out, o->view, &vo);
		lk_strbuf_release(&title);
	}
	return 0;
}

int lk_gen_run(const struct lk_gen_run_options *o)
{
	struct run run = { .o = o };
	pthread_mutex_init(&run.stats_lock, NULL);
	lk_dedupe_init(&run.seen);
	int status = prepare(&run);
	if (status) {
		lk_gen_resume_release(&run.resume);
		lk_dedupe_release(&run.seen);
		pthread_mutex_destroy(&run.stats_lock);
		return status;
	}
	run.progress = o->progress;
	run.stdout_tty = run.out == stdout && o->stdout_tty;
	struct lk_pool_ops ops = {
		.ctx = &run,
		.slot_size = sizeof(struct slot),
		.worker_new = worker_new,
		.worker_free = worker_free,
		.take = take,
		.work = work,
		.put = put,
		.drop = drop,
		.tick = tick,
		.cancel = o->cancel,
		.jobs = o->jobs,
	};
	run.t0 = lk_now();
	draw_progress(&run, true);
	if (run.written < o->count)
		lk_pool_run(&ops);
	if (run.end == END_COUNT && cancelled(&run) && run.written < o->count)
		run.end = END_INTERRUPTED;

	clear_progress(&run);
	if (run.end != END_BAD_FIELDS)   /* a usage error: nothing was written */
		print_summary(&run, lk_now() - run.t0);
	status = run.end == END_WRITE_ERROR || run.end == END_RESUME_ERROR ||
		 run.end == END_BAD_FIELDS ? 2 : 0;
	if (run.worker_error.len) {
		say(&o->say, false, "%s", run.worker_error.buf);
		status = 2;
	}
	lk_writer_release(&run.writer);
	if (o->view) {
		/* the page's or sheet's end, also after Ctrl-C: a whole picture */
		if (run.end != END_WRITE_ERROR && lk_view_writer_finish(&run.view) < 0) {
			say(&o->say, false, "%s: write error: %s", run.out_name, strerror(errno));
			status = 2;
		}
		lk_view_writer_release(&run.view);
	}
	/* a run that wrote no level leaves no file of its own behind */
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (lk_output_close(&run.output, true, run.written == 0, &err) < 0) {
		if (run.end != END_WRITE_ERROR)
			say(&o->say, false, "%s", err.buf);
		status = 2;
	}
	lk_strbuf_release(&err);
	lk_strbuf_release(&run.worker_error);
	lk_gen_resume_release(&run.resume);
	lk_dedupe_release(&run.seen);
	pthread_mutex_destroy(&run.stats_lock);
	if (status)
		return status;
	if (run.end == END_INTERRUPTED)
		return 130;
	return run.written >= o->count ? 0 : 1;
}
