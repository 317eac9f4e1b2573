/*
 * gen_suggest.c - gen --suggest K (gen_run.h: lk_gen_suggest): the suggestions as they change (blocks
 * on stdout, or -o FILE rewritten, or a page or picture), a line on the
 * terminal and a note on the page redrawn every half second whatever
 * happens (candidates per second, solvable, unsolvable and timed out, the
 * time since the last improvement, the interesting levels' throughput:
 * the thesis's participants found a transformer that shows nothing
 * "unresponsive"), and on a terminal the designer may type a
 * suggestion's rank to continue from it.
 */
#define _POSIX_C_SOURCE 200809L
#include "levelkit/gen_run.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdarg.h>

#include "levelkit/expr.h"
#include "levelkit/record.h"
#include "levelkit/strbuf.h"
#include "levelkit/transform.h"

/* A message through the command's hook. */
static void say(const struct lk_gen_suggest_options *o, const char *fmt, ...)
{
	struct lk_strbuf m = LK_STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	lk_strbuf_vaddf(&m, fmt, ap);
	va_end(ap);
	o->say.error(m.buf);
	lk_strbuf_release(&m);
}

struct suggest_out {
	const struct lk_gen_suggest_options *opt;
	const char *path;            /* -o FILE: replaced at every update */
	struct lk_strbuf from;       /* the level the suggestions vary, for `from:` */
	bool progress;               /* a live line on stderr */
	bool interactive;            /* ranks typed on the terminal pick */
	struct lk_record *last;      /* the current suggestions */
	size_t nlast;
	struct lk_strbuf typed;      /* a line being typed */
};

/* "1234 candidates (410/s): 300 solvable, ...": the live summary. */
static void live_summary(const struct lk_suggest_stats *st, size_t n, const char *best,
			 struct lk_strbuf *out)
{
	double rate = st->seconds > 0 ? (double)st->candidates / st->seconds : 0.0;
	lk_strbuf_addf(out, "%llu candidates in %.0f s (%.0f/s): %llu solvable, %llu unsolvable, "
		       "%llu timed out; ", (unsigned long long)st->candidates, st->seconds, rate,
		       (unsigned long long)st->solvable, (unsigned long long)st->unsolvable,
		       (unsigned long long)st->timed_out);
	if (n)
		lk_strbuf_addf(out, "%zu suggestions, best %s, improved %.0f s ago", n, best,
			       st->seconds - st->last_update);
	else
		lk_strbuf_addstr(out, "no suggestion yet");
	if (!isnan(st->threshold))
		lk_strbuf_addf(out, "; %.1f interesting a minute", lk_suggest_interesting_per_minute(st));
}

/* A page or picture of the suggestions, rewritten whole (tmp + rename);
 * while the search goes on the page reloads itself. */
static void write_view(struct suggest_out *so, bool final, const char *note)
{
	struct lk_strbuf title = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
	if (so->opt->title)
		lk_strbuf_addstr(&title, so->opt->title);
	else
		lk_strbuf_addf(&title, "%s suggestions%s%s", so->opt->say.prog, so->from.len ? " from " : "",
			       so->from.len ? so->from.buf : "");
	struct lk_record **recs = lk_xmalloc((so->nlast ? so->nlast : 1) * sizeof *recs);
	for (size_t i = 0; i < so->nlast; i++)
		recs[i] = &so->last[i];
	struct lk_view_options vo = { .title = title.buf, .refresh = final ? 0 : 1.5, .note = note };
	if (lk_view_write_file(so->path, so->opt->view, &vo, recs, so->nlast, &err) < 0)
		say(so->opt, "%s", err.buf);
	free(recs);
	lk_strbuf_release(&title);
	lk_strbuf_release(&err);
}

static bool picture(const struct suggest_out *so)
{
	return so->path && (so->opt->view == LK_VIEW_HTML || so->opt->view == LK_VIEW_SVG);
}

static void keep_last(struct suggest_out *so, struct lk_record *const *top, size_t n)
{
	for (size_t i = 0; i < so->nlast; i++)
		lk_record_release(&so->last[i]);
	so->last = lk_xrealloc(so->last, (n ? n : 1) * sizeof *so->last);
	for (size_t i = 0; i < n; i++) {
		lk_record_init(&so->last[i]);
		lk_record_copy(&so->last[i], top[i]);
	}
	so->nlast = n;
}

static void progress_line(struct suggest_out *so, const struct lk_suggest_stats *st)
{
	struct lk_strbuf line = LK_STRBUF_INIT;
	live_summary(st, so->nlast, so->nlast ? lk_record_get(&so->last[0], "rank-by") : "", &line);
	fprintf(stderr, "\r\033[K%s: %s", so->opt->say.prog, line.buf);
	lk_strbuf_release(&line);
}

static void print_suggestions(void *vctx, struct lk_record *const *top, size_t n,
			      const struct lk_suggest_stats *st)
{
	struct suggest_out *so = vctx;
	struct lk_strbuf text = LK_STRBUF_INIT;
	if (n == 0 && st->picks) {
		/* the designer picked one: it is what the suggestions vary now */
		lk_strbuf_addstr(&text, "; continuing from the suggestion picked\n\n");
	} else {
		lk_strbuf_addf(&text, "; suggestions after %llu candidates, %.1f s (%llu solvable, %llu "
			       "unsolvable, %llu timed out, %llu invalid, %llu solved at the start, "
			       "%llu folded)\n\n",
			       (unsigned long long)st->candidates, st->seconds,
			       (unsigned long long)st->solvable, (unsigned long long)st->unsolvable,
			       (unsigned long long)st->timed_out, (unsigned long long)st->invalid,
			       (unsigned long long)st->solved_start, (unsigned long long)st->folded);
	}
	for (size_t i = 0; i < n; i++) {
		lk_record_setf(top[i], "rank", "%zu", i + 1);
		if (so->from.len)
			lk_record_set(top[i], "from", so->from.buf);
		lk_record_write(top[i], &text);
		lk_strbuf_addch(&text, '\n');
	}
	keep_last(so, top, n);
	if (so->opt->view == LK_VIEW_ANSI || so->opt->view == LK_VIEW_PLAIN) {
		struct lk_view_writer vw;
		lk_view_writer_init(&vw, NULL, so->opt->view, NULL);
		/* the summary line stays, the records are coloured */
		text.len = (size_t)(strchr(text.buf, '\n') - text.buf) + 2;
		text.buf[text.len] = '\0';
		for (size_t i = 0; i < n; i++)
			lk_view_writer_format(&vw, top[i], &text);
		lk_view_writer_release(&vw);
	}
	if (picture(so)) {
		struct lk_strbuf note = LK_STRBUF_INIT;
		live_summary(st, n, n ? lk_record_get(top[0], "rank-by") : "", &note);
		write_view(so, false, note.buf);
		lk_strbuf_release(&note);
	} else if (so->path) {
		size_t len = strlen(so->path) + 32;
		char *tmp = lk_xmalloc(len);
		snprintf(tmp, len, "%s.tmp%ld", so->path, (long)getpid());
		FILE *fp = fopen(tmp, "w");
		if (!fp || fwrite(text.buf, 1, text.len, fp) != text.len || fclose(fp) != 0 ||
		    rename(tmp, so->path) != 0)
			say(so->opt, "%s: cannot write: %s", so->path, strerror(errno));
		free(tmp);
	} else {
		if (so->progress)
			fprintf(stderr, "\r\033[K");
		fwrite(text.buf, 1, text.len, stdout);
		fflush(stdout);
	}
	if (so->progress)
		progress_line(so, st);
	lk_strbuf_release(&text);
}

/* Every half second: the terminal line, and the page's note. */
static void live(void *vctx, const struct lk_suggest_stats *st)
{
	struct suggest_out *so = vctx;
	if (so->progress)
		progress_line(so, st);
	if (picture(so)) {
		struct lk_strbuf note = LK_STRBUF_INIT;
		live_summary(st, so->nlast, so->nlast ? lk_record_get(&so->last[0], "rank-by") : "",
			     &note);
		write_view(so, false, note.buf);
		lk_strbuf_release(&note);
	}
}

/* A rank typed on the terminal and Enter: continue from that suggestion. */
static unsigned pick(void *vctx)
{
	struct suggest_out *so = vctx;
	if (!so->interactive)
		return 0;
	struct pollfd p = { .fd = 0, .events = POLLIN };
	while (poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
		char c;
		if (read(0, &c, 1) != 1) {
			so->interactive = false;   /* end of input: no more picks */
			return 0;
		}
		if (c != '\n') {
			lk_strbuf_addch(&so->typed, c);
			continue;
		}
		unsigned long r = strtoul(so->typed.buf ? so->typed.buf : "", NULL, 10);
		lk_strbuf_reset(&so->typed);
		if (r < 1 || r > so->nlast)
			continue;
		/* the new base: what the next suggestions' `from` says */
		struct lk_strbuf was = LK_STRBUF_INIT;
		lk_strbuf_addstr(&was, so->from.len ? so->from.buf : "a random room");
		lk_strbuf_reset(&so->from);
		lk_strbuf_addf(&so->from, "suggestion %lu (rank-by %s) from %s", r,
			       lk_record_get(&so->last[r - 1], "rank-by"), was.buf);
		lk_strbuf_release(&was);
		return (unsigned)r;
	}
	return 0;
}

int lk_gen_suggest_check(const struct lk_gen_suggest_options *o, struct lk_strbuf *err)
{
	if (o->climb && (o->within || o->max_changes >= 0)) {
		lk_strbuf_addstr(err, "--climb goes where the harder levels lead: --within and "
				 "--max-changes keep the suggestions near your level instead");
		return -1;
	}
	if (!o->by)
		return 0;
	size_t len = strlen(o->by);
	if (strncmp(o->by, "count(", 6) == 0) {
		if (len >= 8 && o->by[len - 1] == ')')
			return 0;
		lk_strbuf_addf(err, "--by %s: expected count(FACT)", o->by);
		return -1;
	}
	size_t name_len, value_off;
	struct lk_strbuf line = LK_STRBUF_INIT;
	lk_strbuf_addf(&line, "%s: x", o->by);
	bool field = lk_line_classify(line.buf, &name_len, &value_off) == LK_LINE_FIELD &&
		     name_len == len;
	lk_strbuf_release(&line);
	if (field)
		return 0;
	lk_strbuf_addf(err, "--by: '%s' is neither a field name nor count(FACT)", o->by);
	return -1;
}

int lk_gen_suggest(const struct lk_gen_suggest_options *o)
{
	struct lk_strbuf fact = LK_STRBUF_INIT;
	struct lk_suggest_options so = {
		.k = o->k,
		.max_candidates = o->candidates,
		.bounds = o->bounds,
		.within = o->within,
		.max_changes = o->max_changes,
		.climb = o->climb,
		.rank = LK_RANK_DIFFICULTY,
		.require = o->opt->require,
		.require_text = o->opt->require_text,
		.interesting = o->interesting,
		.every = 0.5,
		.progress = live,
		.pick = pick,
	};
	if (o->by && strncmp(o->by, "count(", 6) == 0) {
		lk_strbuf_add(&fact, o->by + 6, strlen(o->by) - 7);
		so.rank = LK_RANK_COUNT;
		so.rank_name = fact.buf;
	} else if (o->by && strcmp(o->by, "difficulty-min") != 0) {
		so.rank = LK_RANK_FIELD;
		so.rank_name = o->by;
	}
	struct suggest_out out = { .opt = o, .progress = o->progress };
	out.interactive = o->interactive && out.progress;
	if (o->output && strcmp(o->output, "-") != 0)
		out.path = o->output;
	if ((o->view == LK_VIEW_HTML || o->view == LK_VIEW_SVG) && !out.path)
	{
		o->say.usage("--suggest with a picture needs -o FILE (rewritten as the suggestions "
			     "improve)");
		lk_strbuf_release(&fact);
		return 2;
	}
	if (o->from) {
		struct lk_strbuf title = LK_STRBUF_INIT;
		const char *t = lk_record_title(o->from, &title);
		lk_strbuf_addf(&out.from, "%s record %zu%s%s", o->from_path, o->from->number,
			       t ? ": " : "", t ? t : "");
		lk_strbuf_release(&title);
	}
	if (!o->candidates && !(o->bounds.max_seconds > 0))
		say(o, "suggesting until interrupted (Ctrl-C); --time-limit or --candidates "
			 "sets an end");
	if (out.interactive)
		say(o, "type a suggestion's rank and Enter to continue from it");
	struct lk_rng rng;
	struct lk_suggest_stats st;
	struct lk_strbuf err = LK_STRBUF_INIT;
	lk_rng_seed(&rng, o->seed);
	if (lk_transform_suggest(o->gen->transform, o->opt, &rng, &so, print_suggestions, &out, &st,
				 &err) < 0)
	{
		o->say.usage(err.buf);
		return 2;   /* not reached: the hook ends the process */
	}
	if (out.progress)
		fprintf(stderr, "\r\033[K");
	if (picture(&out) && out.nlast) {
		/* the last page stops reloading: nothing will change it */
		struct lk_strbuf note = LK_STRBUF_INIT;
		lk_strbuf_addstr(&note, "finished after ");
		live_summary(&st, out.nlast, lk_record_get(&out.last[0], "rank-by"), &note);
		write_view(&out, true, note.buf);
		lk_strbuf_release(&note);
	}
	for (size_t i = 0; i < out.nlast; i++)
		lk_record_release(&out.last[i]);
	free(out.last);
	struct lk_strbuf updates = LK_STRBUF_INIT;
	lk_strbuf_addf(&updates, "%llu update%s", (unsigned long long)st.updates,
		       st.updates == 1 ? "" : "s");
	if (st.updates)
		lk_strbuf_addf(&updates, ", first after %.2f s", st.first_update);
	say(o, "%s%llu candidate%s in %.1f s: %llu solvable, %llu unsolvable, %llu timed out, "
		 "%llu invalid, %llu solved at the start, %llu too far, %llu folded, %llu not proved; "
		 "%s",
		 lk_bounds_cancelled(&o->bounds) ? "interrupted: " : "", (unsigned long long)st.candidates,
		 st.candidates == 1 ? "" : "s", st.seconds,
		 (unsigned long long)st.solvable, (unsigned long long)st.unsolvable,
		 (unsigned long long)st.timed_out, (unsigned long long)st.invalid,
		 (unsigned long long)st.solved_start, (unsigned long long)st.too_far,
		 (unsigned long long)st.folded, (unsigned long long)st.not_proved, updates.buf);
	lk_strbuf_release(&updates);
	if (!isnan(st.threshold))
		say(o, "interesting (%s >= %g): %llu, %.1f a minute; usefulness (thesis eq. 4.1) %.3g "
			 "a second", o->by ? o->by : "difficulty-min", st.threshold,
			 (unsigned long long)st.interesting, lk_suggest_interesting_per_minute(&st),
			 lk_suggest_usefulness(&st));
	lk_strbuf_release(&err);
	lk_strbuf_release(&out.from);
	lk_strbuf_release(&out.typed);
	lk_strbuf_release(&fact);
	return lk_bounds_cancelled(&o->bounds) ? 130 : st.updates ? 0 : 1;
}
